//! Tests of Cursor's host codec. No Cursor CLI runs in the real-agent harness, so the inputs
//! are the ones this crate's codec sends Cursor hooks (Cursor's documented fields): every
//! native event's input decodes into the golden envelope and back into the same input; the
//! answers for folded verdicts of every event are golden.

use std::{fmt::Write as _, path::Path};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, EncodeContext, FileScope, HookCodec, HookEvent, HookId, HookSourceId,
    HookSourceKind, Program, Provenance,
};
use proptest::prelude::*;

use super::*;
use crate::testing::{data_dir, hook_from};

fn tool(name: &str, kind: ToolKind, args: Value) -> ToolCall {
    ToolCall {
        name: name.into(),
        kind,
        native_kind: None,
        call_id: Some("call-1".into()),
        mcp_server: None,
        args,
    }
}

/// An envelope for each native event, as a host would describe it.
fn envelope_for(native: &str) -> Envelope {
    let event = events::lookup(native).and_then(|e| e.canonical).expect("mapped");
    let mut e = Envelope::new(event);
    e.session_id = Some("conv-1".into());
    e.turn_id = Some("gen-1".into());
    e.model = Some("mock-model".into());
    e.cwd = Some("/p".into());
    e.workspace_roots = vec!["/p".into()];
    e.transcript_path = Some("/home/u/.cursor/t.jsonl".into());
    match native {
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            e.tool = Some(tool(
                "Write",
                ToolKind::FileWrite,
                json!({"file_path": "/p/a.txt", "content": "x"}),
            ));
            e.result = Some(ToolResult {
                output: (native == "postToolUse").then(|| json!({"ok": true})),
                error: (native == "postToolUseFailure").then(|| "disk full".into()),
                duration_ms: Some(12),
                ..ToolResult::default()
            });
        }
        "beforeShellExecution" | "afterShellExecution" => {
            e.tool = Some(tool("Shell", ToolKind::Shell, json!({"command": "rm -rf build"})));
            e.result = Some(ToolResult {
                text: Some("done".into()),
                duration_ms: Some(3),
                ..ToolResult::default()
            });
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let mut t = tool("search", ToolKind::Mcp, json!({"q": "x"}));
            t.mcp_server = Some("docs".into());
            e.tool = Some(t);
            e.result =
                Some(ToolResult { output: Some(json!({"hits": 1})), ..ToolResult::default() });
        }
        "beforeReadFile" => {
            e.tool = Some(tool("Read", ToolKind::FileRead, json!({"file_path": "/p/.env"})));
        }
        "afterFileEdit" => {
            e.tool = Some(tool(
                "Write",
                ToolKind::FileWrite,
                json!({"file_path": "/p/a.txt", "old_string": "a", "new_string": "b"}),
            ));
        }
        "beforeSubmitPrompt" => {
            e.prompt = Some(Prompt { text: "hello".into(), ..Prompt::default() })
        }
        "afterAgentResponse" | "afterAgentThought" => {
            e.text = Some(AgentText { text: "thinking".into(), duration_ms: Some(5) });
        }
        "stop" => {
            e.stop = Some(StopInfo {
                status: Some("completed".into()),
                loop_count: Some(1),
                ..StopInfo::default()
            })
        }
        "subagentStart" | "subagentStop" => {
            e.subagent = Some(Subagent {
                id: Some("sub-1".into()),
                agent_type: Some("explore".into()),
                task: Some("look".into()),
                status: Some("completed".into()),
                summary: Some("found".into()),
                ..Subagent::default()
            });
        }
        "sessionStart" | "sessionEnd" => {
            e.session = Some(SessionInfo {
                reason: Some("user_close".into()),
                duration_ms: Some(100),
                is_background: Some(false),
                ..SessionInfo::default()
            });
        }
        "preCompact" => {
            e.compaction = Some(Compaction {
                trigger: Some("auto".into()),
                usage_pct: Some(90.0),
                tokens_before: Some(1000),
                ..Compaction::default()
            });
        }
        _ => {}
    }
    e
}

/// The stdin Cursor sends a hook of `native` for `envelope`: what this crate's codec encodes.
fn cursor_input(native: &str, envelope: &Envelope) -> Vec<u8> {
    let def = hook_from(native, &json!({"command": "true"}));
    let source = HookSourceId::new(
        HookSourceKind::file(FileScope::Project, crate::FILE),
        AbsPathBuf::new("/p/.cursor/hooks.json".into()).expect("abs"),
    );
    let ctx = EncodeContext {
        source: &source,
        working_dir: Path::new("/p"),
        project_dir: Some(Path::new("/p")),
        config_dir: None,
        user_shell: None,
        agent_version: Some("1.7.0"),
        session_env: &[],
    };
    let inv = crate::CursorCodec.encode(&def, envelope, &ctx).expect("encodes");
    assert!(matches!(inv.program, Program::Shell { .. }));
    inv.stdin
}

const EVENTS: [&str; 19] = [
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "workspaceOpen",
];

#[test]
fn every_event_decodes_into_the_golden_envelope_and_encodes_back_to_the_same_input() {
    let mut out = String::new();
    for native in EVENTS {
        let stdin = cursor_input(native, &envelope_for(native));
        let input = CursorHost.decode_input(&stdin, None).expect(native);
        assert_eq!(input.native_event, native);
        let _ = writeln!(
            out,
            "== {native}\ninput {}\nsession {:?} edits {:?}\n{}",
            String::from_utf8_lossy(&stdin).trim(),
            input.session_id,
            CursorHost.edited_paths(&input),
            serde_json::to_string_pretty(&input.envelope).expect("json")
        );
        // What the bridge hands a Cursor hook for this envelope is what Cursor sent.
        let again = cursor_input(native, &input.envelope);
        let (a, b): (Value, Value) = (
            serde_json::from_slice(&stdin).expect("json"),
            serde_json::from_slice(&again).expect("json"),
        );
        assert_eq!(a, b, "{native}: decode then encode changes the input");
    }
    expect_file![data_dir("host").join("decode.txt")].assert_eq(&out);
}

#[test]
fn the_session_and_its_directory() {
    let doc = json!({"hook_event_name": "sessionStart", "session_id": "s-9",
                     "workspace_roots": ["/w/one", "/w/two"], "is_background_agent": true});
    let i = CursorHost.decode_input(&serde_json::to_vec(&doc).expect("json"), None).expect("ok");
    assert_eq!(i.session_id.as_deref(), Some("s-9"), "sessionStart names the session itself");
    assert_eq!(
        i.envelope.cwd.as_deref(),
        Some(Path::new("/w/one")),
        "the first root, without a cwd"
    );
    let doc = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c",
                     "command": "ls", "cwd": "/w/two/sub", "workspace_roots": ["/w/one"]});
    let i = CursorHost.decode_input(&serde_json::to_vec(&doc).expect("json"), None).expect("ok");
    assert_eq!(i.envelope.cwd.as_deref(), Some(Path::new("/w/two/sub")));
    assert_eq!(i.envelope.event, HookEvent::PreToolUse);
    assert_eq!(i.envelope.tool.as_ref().map(|t| t.kind), Some(ToolKind::Shell));
}

#[test]
fn decode_errors() {
    let err = |s: &str, arg: Option<&str>| CursorHost.decode_input(s.as_bytes(), arg).expect_err(s);
    assert!(matches!(err("nope", None), HostError::Malformed(_)));
    assert!(matches!(err("[]", None), HostError::Malformed(_)));
    assert!(matches!(err(r#"{"cwd": "/p"}"#, None), HostError::Malformed(_)));
    assert!(matches!(err(r#"{"hook_event_name": "preToolUse"}"#, None), HostError::Malformed(_)));
    assert!(matches!(
        err(r#"{"hook_event_name": "beforeTabFileRead"}"#, None),
        HostError::UnknownEvent(_)
    ));
    assert!(matches!(err(r#"{"hook_event_name": "nope"}"#, None), HostError::UnknownEvent(_)));
    assert!(matches!(
        err(r#"{"hook_event_name": "stop"}"#, Some("sessionEnd")),
        HostError::Malformed(_)
    ));
    assert!(matches!(
        err(r#"{"hook_event_name": "stop", "workspace_roots": "/p"}"#, None),
        HostError::Malformed(_)
    ));
}

fn by(id: &str) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("id"),
        source: HookSourceId::new(
            HookSourceKind::file(FileScope::Project, crate::FILE),
            AbsPathBuf::new("/p/.chrys/hooks/hooks.yaml".into()).expect("abs"),
        ),
        line: Some(7),
    }
}

#[test]
fn answers_golden() {
    let deny = FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some("rm -rf is not allowed".into()),
        decided_by: Some(by("no-rm")),
        ..FoldedVerdict::default()
    };
    let ask = FoldedVerdict {
        decision: Some(Decision::Ask),
        reason: Some("confirm".into()),
        decided_by: Some(by("asks")),
        ..FoldedVerdict::default()
    };
    let rich = FoldedVerdict {
        decision: Some(Decision::Allow),
        updated_args: Some(json!({"command": "ls"})),
        context: vec![(by("ctx"), "remember".into())],
        user_messages: vec![(by("msg"), "note".into())],
        followups: vec![(by("f"), "keep going".into())],
        updated_output: Some(json!({"hits": 0})),
        env: vec![("A".into(), "1".into())],
        ..FoldedVerdict::default()
    };
    let mut out = String::new();
    for native in EVENTS {
        for (name, v) in
            [("none", &FoldedVerdict::default()), ("deny", &deny), ("ask", &ask), ("rich", &rich)]
        {
            let a = encode_answer(native, v);
            assert_eq!(a.exit_code, 0);
            let parsed: Value = serde_json::from_slice(&a.stdout).expect("always one JSON object");
            assert!(parsed.is_object());
            let _ = write!(out, "{native} {name}: {}", String::from_utf8_lossy(&a.stdout));
        }
    }
    expect_file![data_dir("host").join("answers.txt")].assert_eq(&out);
}

proptest! {
    /// Any input decodes or fails with an error; never a panic.
    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = CursorHost.decode_input(&bytes, None);
    }

    #[test]
    fn decode_objects(event in proptest::sample::select(EVENTS.to_vec()),
                      key in "[a-z_]{1,14}", val in any::<i64>()) {
        let mut v = json!({"hook_event_name": event, "tool_name": "Shell", "command": "ls",
                           "file_path": "/a"});
        v[key.as_str()] = json!(val);
        let _ = CursorHost.decode_input(&serde_json::to_vec(&v).expect("json"), None);
    }
}
