//! Tests of the host codec: decoding errors, and Gemini CLI's answer for folded verdicts of
//! every event (golden), the answer Gemini CLI was observed to honour.

use std::fmt::Write as _;

use expect_test::expect_file;
use hooks_schema::{AbsPathBuf, HookId, HookSourceId};
use proptest::prelude::*;
use serde_json::json;

use super::*;

fn input(event: &str) -> HostInput {
    let stdin = match event {
        "BeforeTool" | "AfterTool" => {
            json!({"session_id": "s", "cwd": "/p", "hook_event_name": event, "tool_name": "write_file", "tool_input": {"file_path": "rel.txt", "content": "x"}, "tool_response": {"llmContent": "ok", "returnDisplay": "ok"}})
        }
        _ => json!({"session_id": "s", "cwd": "/p", "hook_event_name": event}),
    };
    GeminiHost.decode_input(&serde_json::to_vec(&stdin).expect("json"), None).expect("decodes")
}

fn by(id: &str) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("id"),
        source: HookSourceId::new(
            crate::PROJECT_SETTINGS,
            AbsPathBuf::new("/p/.cursor/hooks.json".into()).expect("abs"),
        ),
        line: Some(4),
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
        ..FoldedVerdict::default()
    };
    let rich = FoldedVerdict {
        updated_args: Some(json!({"file_path": "safe.txt"})),
        context: vec![(by("ctx"), "remember".into()), (by("ctx2"), "twice".into())],
        user_messages: vec![(by("msg"), "note".into())],
        followups: vec![(by("f"), "keep going".into())],
        updated_output: Some(json!("[redacted]")),
        ..FoldedVerdict::default()
    };
    let halt =
        FoldedVerdict { halt: Some((by("stop"), "enough".into())), ..FoldedVerdict::default() };
    let mut out = String::new();
    for event in [
        "BeforeTool",
        "AfterTool",
        "BeforeAgent",
        "AfterAgent",
        "SessionStart",
        "SessionEnd",
        "PreCompress",
        "Notification",
    ] {
        let i = input(event);
        for (name, v) in [
            ("none", &FoldedVerdict::default()),
            ("deny", &deny),
            ("ask", &ask),
            ("rich", &rich),
            ("halt", &halt),
        ] {
            let a = GeminiHost.encode_answer(&i, v);
            assert_eq!(a.exit_code, 0);
            let _ = writeln!(out, "{event} {name}: {}", String::from_utf8_lossy(&a.stdout));
        }
    }
    expect_file![
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/answers.txt")
    ]
    .assert_eq(&out);
}

#[test]
fn the_guard_deny_reaches_gemini_as_decision_deny() {
    let deny = FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some("GUARD: edit of protected hook file refused".into()),
        ..FoldedVerdict::default()
    };
    let a = GeminiHost.encode_answer(&input("BeforeTool"), &deny);
    let v: Value = serde_json::from_slice(&a.stdout).expect("json");
    assert_eq!(
        v,
        json!({"decision": "deny", "reason": "GUARD: edit of protected hook file refused"})
    );
}

#[test]
fn decode_errors() {
    let err = |s: &str, arg: Option<&str>| GeminiHost.decode_input(s.as_bytes(), arg).expect_err(s);
    assert!(matches!(err("nope", None), HostError::Malformed(_)));
    assert!(matches!(err("[]", None), HostError::Malformed(_)));
    assert!(matches!(err(r#"{"cwd": "/p"}"#, None), HostError::Malformed(_)));
    assert!(
        matches!(err(r#"{"hook_event_name": "BeforeTool"}"#, None), HostError::Malformed(_)),
        "no tool_name"
    );
    assert!(matches!(err(r#"{"hook_event_name": "Nope"}"#, None), HostError::UnknownEvent(_)));
    assert!(matches!(
        err(r#"{"hook_event_name": "BeforeModel"}"#, None),
        HostError::UnknownEvent(_)
    ));
    assert!(matches!(
        err(r#"{"hook_event_name": "SessionEnd"}"#, Some("SessionStart")),
        HostError::Malformed(_)
    ));
    assert!(matches!(err(r#"{"hook_event_name": 3}"#, None), HostError::Malformed(_)));
    // The event may come from the command line alone.
    let i = GeminiHost.decode_input(br#"{"reason": "exit"}"#, Some("SessionEnd")).expect("decodes");
    assert_eq!(i.envelope.session.and_then(|s| s.reason).as_deref(), Some("exit"));
}

#[test]
fn mcp_tools_keep_their_server() {
    let stdin = json!({"hook_event_name": "BeforeTool", "tool_name": "mcp_fs_write", "tool_input": {}, "mcp_context": {"server_name": "fs", "tool_name": "write"}});
    let i =
        GeminiHost.decode_input(&serde_json::to_vec(&stdin).expect("json"), None).expect("decodes");
    let tool = i.envelope.tool.as_ref().expect("tool");
    assert_eq!(
        (tool.name.as_str(), tool.mcp_server.as_deref(), tool.kind),
        ("write", Some("fs"), ToolKind::Mcp)
    );
    assert_eq!(crate::gemini_tool_name(tool), "mcp_fs_write");
    assert!(i.envelope.extra.contains_key("mcp_context"));
}

proptest! {
    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200), arg in proptest::option::of("[A-Za-z]{0,12}")) {
        let _ = GeminiHost.decode_input(&bytes, arg.as_deref());
    }
}

/// A shell command's status survives a trip through Gemini CLI's words: the codec's
/// `AfterTool` input for a command another host reported (its output and non-zero status),
/// read back by the host, gives the same status, whatever the output says (a line
/// `Exit Code: 7` in it included).
fn exit_round_trip(code: i32, output: &str) -> Option<i32> {
    let e = hooks_schema::testing::shell_ran("x", output, code);
    let source = HookSourceId::new(
        crate::PROJECT_SETTINGS,
        AbsPathBuf::new("/p/.gemini/settings.json".into()).expect("abs"),
    );
    let ctx = hooks_schema::testing::encode_context(&source, std::path::Path::new("/p"));
    let sent = crate::payload(crate::GeminiEvent::AfterTool, &e, &ctx).expect("payload");
    let back = GeminiHost.decode_input(&serde_json::to_vec(&sent).expect("json"), None).ok()?;
    back.envelope.failed_shell_exit()
}

#[test]
fn a_shell_status_survives_gemini_cli_s_words() {
    assert_eq!(exit_round_trip(3, "out\nerr"), Some(3));
    assert_eq!(exit_round_trip(3, ""), Some(3));
    assert_eq!(exit_round_trip(-1, "a\nExit Code: 7\nstill running"), Some(-1));
}

proptest! {
    #[test]
    fn any_shell_status_survives_gemini_cli_s_words(code in any::<i32>().prop_filter("non-zero", |c| *c != 0), output in ".{0,80}") {
        prop_assert_eq!(exit_round_trip(code, &output), Some(code));
    }
}
