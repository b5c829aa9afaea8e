//! Tests of Claude Code's host codec: every payload the real Claude Code 2.1.328 sent (recorded
//! by the real-agent harness, `test_data/host/payloads/`) decodes into the golden envelope;
//! the answers for folded verdicts of every event are golden; the deny is the form Claude Code
//! was observed to honour.

use std::{fmt::Write as _, path::Path};

use expect_test::expect_file;
use hooks_schema::{AbsPathBuf, HookId, HookSourceId, Provenance, edited_paths_from_args};
use proptest::prelude::*;

use super::*;

fn data(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/host").join(rel)
}

fn recorded() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(data("payloads"))
        .expect("payloads")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            (name, std::fs::read(&p).expect("read"))
        })
        .collect()
}

#[test]
fn every_recorded_payload_decodes_into_the_golden_envelope() {
    let mut out = String::new();
    for (name, bytes) in recorded() {
        let _ = writeln!(out, "== {name}");
        match ClaudeHost.decode_input(&bytes, None) {
            Ok(input) => {
                let _ = writeln!(
                    out,
                    "native {} session {:?} edits {:?}\n{}",
                    input.native_event,
                    input.session_id,
                    ClaudeHost.edited_paths(&input),
                    serde_json::to_string_pretty(&input.envelope).expect("json")
                );
            }
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
        }
    }
    expect_file![data("decode.txt")].assert_eq(&out);
}

#[test]
fn the_event_on_the_command_line_must_agree_with_the_input() {
    let (_, bash) =
        recorded().into_iter().find(|(n, _)| n.contains("PreToolUse_Bash")).expect("bash");
    assert!(ClaudeHost.decode_input(&bash, Some("PreToolUse")).is_ok());
    assert!(matches!(
        ClaudeHost.decode_input(&bash, Some("PostToolUse")),
        Err(HostError::Malformed(_))
    ));
    // Without `hook_event_name`, the command line's event is used.
    let mut v: Value = serde_json::from_slice(&bash).expect("json");
    v.as_object_mut().expect("object").remove("hook_event_name");
    let bytes = serde_json::to_vec(&v).expect("json");
    assert_eq!(
        ClaudeHost.decode_input(&bytes, Some("PreToolUse")).expect("decodes").native_event,
        "PreToolUse"
    );
    assert!(matches!(ClaudeHost.decode_input(&bytes, None), Err(HostError::Malformed(_))));
}

#[test]
fn decode_errors() {
    let err = |s: &str| ClaudeHost.decode_input(s.as_bytes(), None).expect_err(s);
    assert!(matches!(err("nope"), HostError::Malformed(_)));
    assert!(matches!(err("[]"), HostError::Malformed(_)));
    assert!(matches!(err(r#"{"hook_event_name": 3}"#), HostError::Malformed(_)));
    assert!(matches!(err(r#"{"hook_event_name": "PreToolUse"}"#), HostError::Malformed(_)));
    assert!(matches!(
        err(r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": 1}"#),
        HostError::Malformed(_)
    ));
    assert!(matches!(err(r#"{"hook_event_name": "PostToolBatch"}"#), HostError::UnknownEvent(_)));
    assert!(matches!(err(r#"{"hook_event_name": "Nope"}"#), HostError::UnknownEvent(_)));
}

#[test]
fn edited_paths_are_the_file_writing_tools_files() {
    let input = |tool: &str, args: Value| {
        let v = json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": args,
                       "session_id": "s", "cwd": "/p"});
        ClaudeHost.decode_input(&serde_json::to_vec(&v).expect("json"), None).expect("decodes")
    };
    let paths = |tool: &str, args: Value| ClaudeHost.edited_paths(&input(tool, args));
    assert_eq!(
        paths("Write", json!({"file_path": "/p/a", "content": ""})),
        Some(vec!["/p/a".into()])
    );
    assert_eq!(
        paths(
            "Edit",
            json!({"file_path": ".cursor/hooks.json", "old_string": "a", "new_string": "b"})
        ),
        Some(vec![".cursor/hooks.json".into()])
    );
    assert_eq!(
        paths(
            "MultiEdit",
            json!({"file_path": "x", "edits": [{"old_string": "a", "new_string": "b"}]})
        ),
        Some(vec!["x".into()])
    );
    assert_eq!(
        paths("NotebookEdit", json!({"notebook_path": "/p/n.ipynb", "new_source": ""})),
        Some(vec!["/p/n.ipynb".into()])
    );
    assert_eq!(paths("Read", json!({"file_path": "/p/a"})), None);
    assert_eq!(paths("Bash", json!({"command": "echo > .cursor/hooks.json"})), None);
    let post = json!({"hook_event_name": "PostToolUse", "tool_name": "Write",
                      "tool_input": {"file_path": "/p/a"}, "tool_response": {}});
    let post =
        ClaudeHost.decode_input(&serde_json::to_vec(&post).expect("json"), None).expect("ok");
    assert_eq!(edited_paths_from_args(&post.envelope), None, "only before the tool runs");
}

fn by(id: &str) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("id"),
        source: HookSourceId::new(
            hooks_schema::HookSourceKind::file(hooks_schema::FileScope::Project, crate::SETTINGS),
            AbsPathBuf::new("/p/.cursor/hooks.json".into()).expect("abs"),
        ),
        line: Some(4),
    }
}

fn input(native: NativeEvent) -> HostInput {
    let mut v = json!({"session_id": "s", "cwd": "/p", "hook_event_name": native.as_str()});
    if matches!(
        native,
        NativeEvent::PreToolUse
            | NativeEvent::PostToolUse
            | NativeEvent::PostToolUseFailure
            | NativeEvent::PermissionRequest
    ) {
        v["tool_name"] = json!("Bash");
        v["tool_input"] = json!({"command": "rm -rf build"});
    }
    ClaudeHost.decode_input(&serde_json::to_vec(&v).expect("json"), None).expect("decodes")
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
    let allow_rewrite = FoldedVerdict {
        decision: Some(Decision::Allow),
        updated_args: Some(json!({"command": "rm -r build"})),
        ..FoldedVerdict::default()
    };
    let rich = FoldedVerdict {
        updated_args: Some(json!({"command": "ls"})),
        context: vec![(by("ctx"), "remember".into()), (by("ctx2"), "twice".into())],
        user_messages: vec![(by("msg"), "note".into())],
        followups: vec![(by("f"), "keep going".into())],
        updated_output: Some(json!("[redacted]")),
        ..FoldedVerdict::default()
    };
    let halt =
        FoldedVerdict { halt: Some((by("stop"), "enough".into())), ..FoldedVerdict::default() };
    let mut out = String::new();
    for native in NativeEvent::ALL {
        let i = input(native);
        for (name, v) in [
            ("none", &FoldedVerdict::default()),
            ("deny", &deny),
            ("ask", &ask),
            ("allow+rewrite", &allow_rewrite),
            ("rich", &rich),
            ("halt", &halt),
        ] {
            let a = ClaudeHost.encode_answer(&i, v);
            assert_eq!(a.exit_code, 0);
            assert!(a.stderr.is_empty());
            let _ =
                write!(out, "{} {name}: {}", native.as_str(), String::from_utf8_lossy(&a.stdout));
            if a.stdout.is_empty() {
                out.push('\n');
            }
        }
    }
    expect_file![data("answers.txt")].assert_eq(&out);
}

/// The deny Claude Code 2.1.328 honoured in the harness's pre-tool matrix (case K01: JSON
/// deny with `hookEventName` and a reason, exit 0: blocked, the model sees the reason).
#[test]
fn the_deny_is_the_form_claude_code_honours() {
    let deny = FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some("GUARD: edit of protected hook file refused".into()),
        ..FoldedVerdict::default()
    };
    let a = ClaudeHost.encode_answer(&input(NativeEvent::PreToolUse), &deny);
    let v: Value = serde_json::from_slice(&a.stdout).expect("json");
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
               "permissionDecisionReason": "GUARD: edit of protected hook file refused"}})
    );
    assert_eq!(a.exit_code, 0);
}

proptest! {
    /// Any input decodes or fails with an error; never a panic.
    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = ClaudeHost.decode_input(&bytes, None);
    }

    /// Any object with a known event and arbitrary string fields decodes or is refused.
    #[test]
    fn decode_objects(event in proptest::sample::select(NativeEvent::ALL.to_vec()),
                      key in "[a-z_]{1,12}", val in any::<String>()) {
        let mut v = json!({"hook_event_name": event.as_str(), "tool_name": "Bash"});
        v[key.as_str()] = json!(val);
        let _ = ClaudeHost.decode_input(&serde_json::to_vec(&v).expect("json"), None);
    }
}

/// The tool failure Claude Code 2.1.328 sent (a `Read` of a missing file, recorded with the
/// harness's scripted calls) carries the tool's duration (`duration_ms`) as a tool success
/// does: it is the result's, and a tool failure from any host is given to a Claude Code hook
/// with it (the engine kept it as an unknown field of Claude Code's before, so another
/// host's failure reached a Claude Code hook without it).
#[test]
fn a_tool_failure_carries_its_duration_both_ways() {
    let (_, bytes) = recorded()
        .into_iter()
        .find(|(n, _)| n.contains("PostToolUseFailure"))
        .expect("a recorded PostToolUseFailure");
    let sent: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    let input = ClaudeHost.decode_input(&bytes, None).expect("decodes");
    let result = input.envelope.result.clone().expect("a result");
    assert_eq!(result.duration_ms, sent["duration_ms"].as_u64());
    assert!(!input.envelope.extra.contains_key("duration_ms"), "{:?}", input.envelope.extra);
    // Another host's failure: no Claude Code extras, the duration in the result.
    let mut other = hooks_schema::Envelope::new(hooks_schema::HookEvent::ToolFailure);
    other.tool = input.envelope.tool.clone();
    other.result = Some(hooks_schema::ToolResult { duration_ms: Some(12), ..result });
    let src = HookSourceId::new(
        crate::PROJECT_SETTINGS,
        AbsPathBuf::new("/proj/.claude/settings.json".into()).expect("abs"),
    );
    let rebuilt = crate::codec::payload(
        crate::NativeEvent::PostToolUseFailure,
        &other,
        &hooks_schema::testing::encode_context(&src, Path::new("/proj")),
    )
    .expect("payload");
    assert_eq!(rebuilt["duration_ms"], 12);
    assert_eq!(rebuilt["error"], sent["error"]);
    assert_eq!(rebuilt["is_interrupt"], false);
}

/// A Bash command that exited 3 (recorded: Claude Code 2.1.328 fired `PostToolUseFailure`
/// with `error` "Exit code 3" and the output, and no `PostToolUse`) decodes into a post-tool
/// firing with that status; for Claude Code's own rule it is a failure again: a
/// `PostToolUseFailure` hook gets the recorded `error` back, a `PostToolUse` hook does not run.
/// Another failure of a shell command (no status line, or an interrupt) stays a failure.
#[test]
fn a_shell_command_s_non_zero_exit_is_a_post_tool_firing_with_its_status() {
    use hooks_schema::{EncodeContext, EncodeError, HookCodec, HookEvent};

    let (_, bytes) =
        recorded().into_iter().find(|(n, _)| n.contains("Bash_exit3")).expect("recording");
    let input = ClaudeHost.decode_input(&bytes, None).expect("decodes");
    assert_eq!(input.native_event, "PostToolUseFailure");
    assert_eq!(input.envelope.event, HookEvent::PostToolUse);
    assert_eq!(input.envelope.failed_shell_exit(), Some(3));
    assert_eq!(input.envelope.event_for(true), HookEvent::ToolFailure);

    let source = HookSourceId::new(
        crate::PROJECT_SETTINGS,
        AbsPathBuf::new("/proj/.claude/settings.json".into()).expect("abs"),
    );
    let ctx = EncodeContext {
        source: &source,
        working_dir: Path::new("/proj"),
        project_dir: None,
        config_dir: None,
        user_shell: None,
        agent_version: None,
        session_env: &[],
    };
    let hook = |native: &str| {
        let doc = serde_json::json!({"hooks": {native: [{"hooks": [{"type": "command", "command": "true"}]}]}});
        let bytes = serde_json::to_vec(&doc).expect("json");
        let parsed = crate::parse(
            &bytes,
            Path::new("/proj/.claude/settings.json"),
            crate::ClaudeMode::Default,
        )
        .expect("parses");
        parsed.definitions.into_iter().next().expect("one")
    };
    let inv = crate::ClaudeCodec
        .encode(&hook("PostToolUseFailure"), &input.envelope, &ctx)
        .expect("a failure hook runs for it");
    let sent: Value = serde_json::from_slice(&inv.stdin).expect("json");
    let recorded: Value = serde_json::from_slice(&bytes).expect("json");
    for key in
        ["hook_event_name", "error", "is_interrupt", "tool_name", "tool_input", "duration_ms"]
    {
        assert_eq!(sent[key], recorded[key], "{key}");
    }
    let refused = crate::ClaudeCodec.encode(&hook("PostToolUse"), &input.envelope, &ctx);
    assert!(matches!(refused, Err(EncodeError::EventMismatch { .. })), "{refused:?}");

    let mut other: Value = recorded.clone();
    for (error, interrupted) in
        [("Command timed out", false), ("Exit code 3\nout", true), ("Exit code 0", false)]
    {
        other["error"] = Value::from(error);
        other["is_interrupt"] = Value::from(interrupted);
        let bytes = serde_json::to_vec(&other).expect("json");
        let input = ClaudeHost.decode_input(&bytes, None).expect("decodes");
        assert_eq!(input.envelope.event, HookEvent::ToolFailure, "{error} {interrupted}");
        assert_eq!(input.envelope.result.as_ref().and_then(|r| r.error.as_deref()), Some(error));
    }
}

proptest! {
    /// Claude Code's wording of a failed shell command reads back as the same status and
    /// output (its trailing newlines aside), whatever the output says.
    #[test]
    fn any_shell_status_survives_claude_code_s_words(code in any::<i32>().prop_filter("non-zero", |c| *c != 0), output in "(.|\n){0,80}") {
        let error = shell_exit_error(code, &output);
        prop_assert_eq!(shell_exit(&error), Some((code, output.trim_end_matches('\n'))));
    }
}
