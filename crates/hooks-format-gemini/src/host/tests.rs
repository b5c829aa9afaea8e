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

/// The `AfterTool` input of a `run_shell_command` as Gemini CLI 0.61.0 words it
/// (`llmContent` and `returnDisplay`), decoded: the status the host reads.
fn status_read(llm_content: &str, display: &str) -> Option<i32> {
    let stdin = json!({"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "x"},
        "tool_response": {"llmContent": format!("<untrusted_context>\n{llm_content}\n</untrusted_context>"), "returnDisplay": display}});
    let i = GeminiHost.decode_input(&serde_json::to_vec(&stdin).expect("json"), None);
    i.expect("decodes").envelope.result.and_then(|r| r.exit_code)
}

/// A command that exited 0 and printed an `Exit Code: 3` line (a file's text, say) is no
/// failed command: Gemini CLI writes no status for 0, and the line is the output's. Before,
/// the last such line anywhere was read, so Claude Code's `PostToolUse` hooks did not run for
/// it under a Gemini CLI host (its `PostToolUseFailure` hooks ran instead).
#[test]
fn an_exit_line_in_the_output_is_not_the_command_s_status() {
    let forged = "build ok\nExit Code: 3";
    assert_eq!(status_read(&format!("Output: {forged}\nProcess Group PGID: 9"), forged), None);
    // The output `(empty)` then such a line, which reads as the empty output of a command
    // that exited 3 but for `returnDisplay`.
    let forged = "(empty)\nExit Code: 3";
    assert_eq!(status_read(&format!("Output: {forged}\nProcess Group PGID: 9"), forged), None);
    // A cancelled command's report has no status, whatever its output says.
    let cancelled = "Command was cancelled by user before it could complete. Below is the output before it was cancelled:\nExit Code: 3";
    assert_eq!(status_read(cancelled, "Command cancelled by user."), None);
    // The real statuses: after an output (recorded), after none, and the output's own line
    // before the real one.
    assert_eq!(
        status_read("Output: out\nerr\nExit Code: 3\nProcess Group PGID: 2649", "out\nerr"),
        Some(3)
    );
    assert_eq!(
        status_read(
            "Output: (empty)\nExit Code: 3\nProcess Group PGID: 9",
            "Command exited with code: 3"
        ),
        Some(3)
    );
    assert_eq!(
        status_read(
            "Output: a\nExit Code: 7\nExit Code: 2\nProcess Group PGID: 9",
            "a\nExit Code: 7"
        ),
        Some(2)
    );
    // Where `returnDisplay` does not give the output (debug mode shows the report itself),
    // the last line is taken.
    let report = "Output: a\nExit Code: 5\nProcess Group PGID: 9";
    assert_eq!(status_read(report, report), Some(5));
}

proptest! {
    /// Any output of a command that exited 0, as Gemini CLI reports it, reads as no status.
    #[test]
    fn no_output_of_a_successful_command_reads_as_a_status(output in "(Exit Code: [0-9]\n|[a-z ()]{0,8}\n?){0,6}") {
        prop_assume!(!output.trim().is_empty());
        let report = format!("Output: {output}\nProcess Group PGID: 9");
        prop_assert_eq!(status_read(&report, &output), None);
    }

    #[test]
    fn any_shell_status_survives_gemini_cli_s_words(code in any::<i32>().prop_filter("non-zero", |c| *c != 0), output in ".{0,80}") {
        prop_assert_eq!(exit_round_trip(code, &output), Some(code));
    }
}
