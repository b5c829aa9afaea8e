//! Tests of the host codec: decoding errors, Copilot's answer for folded verdicts of every
//! event and dialect (golden), and the property that matters: the answer, read back by the
//! hook codec with Copilot's rules, carries the decision the engine folded.

use std::{fmt::Write as _, path::Path, time::Duration};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, CapturedOutput, ExitInfo, HookCodec, HookId, HookSourceId, RawOutcome,
};
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::CopilotCodec;

fn input(event: &str) -> HostInput {
    let (e, d) = CopilotEvent::from_name(event).expect("event");
    let tool = matches!(
        e,
        CopilotEvent::PreToolUse | CopilotEvent::PostToolUse | CopilotEvent::PermissionRequest
    );
    let stdin = match (d, tool) {
        (Dialect::Camel, true) | (Dialect::Pascal, true)
            if e == CopilotEvent::PermissionRequest =>
        {
            json!({"sessionId": "s", "cwd": "/p", "timestamp": 1, "hookName": "permissionRequest", "toolName": "bash", "toolInput": {"command": "ls"}})
        }
        (Dialect::Camel, true) => {
            json!({"sessionId": "s", "cwd": "/p", "timestamp": 1, "toolName": "bash", "toolArgs": {"command": "ls"}})
        }
        (Dialect::Pascal, true) => {
            json!({"session_id": "s", "cwd": "/p", "hook_event_name": event, "tool_name": "Bash", "tool_input": {"command": "ls"}})
        }
        (Dialect::Camel, false) => json!({"sessionId": "s", "cwd": "/p", "timestamp": 1}),
        (Dialect::Pascal, false) => {
            json!({"session_id": "s", "cwd": "/p", "hook_event_name": event})
        }
    };
    CopilotHost
        .decode_input(&serde_json::to_vec(&stdin).expect("json"), Some(event))
        .expect("decodes")
}

fn by(id: &str) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("id"),
        source: HookSourceId::new(
            crate::PROJECT_HOOKS,
            AbsPathBuf::new("/p/.github/hooks/policy.json".into()).expect("abs"),
        ),
        line: Some(4),
    }
}

fn verdicts() -> Vec<(&'static str, FoldedVerdict)> {
    vec![
        (
            "deny",
            FoldedVerdict {
                decision: Some(Decision::Deny),
                reason: Some("rm -rf is not allowed".into()),
                decided_by: Some(by("no-rm")),
                ..FoldedVerdict::default()
            },
        ),
        (
            "ask",
            FoldedVerdict {
                decision: Some(Decision::Ask),
                reason: Some("confirm".into()),
                ..FoldedVerdict::default()
            },
        ),
        (
            "rich",
            FoldedVerdict {
                updated_args: Some(json!({"command": "ls -a"})),
                context: vec![(by("ctx"), "remember".into()), (by("ctx2"), "twice".into())],
                followups: vec![(by("f"), "keep going".into())],
                updated_output: Some(json!("[redacted]")),
                ..FoldedVerdict::default()
            },
        ),
        ("none", FoldedVerdict::default()),
    ]
}

const EVENTS: [&str; 12] = [
    "preToolUse",
    "PreToolUse",
    "permissionRequest",
    "PermissionRequest",
    "postToolUse",
    "agentStop",
    "Stop",
    "subagentStop",
    "sessionStart",
    "userPromptSubmitted",
    "sessionEnd",
    "preCompact",
];

#[test]
fn answers_golden() {
    let mut out = String::new();
    for event in EVENTS {
        for (name, v) in verdicts() {
            let a = CopilotHost.encode_answer(&input(event), &v);
            let _ = writeln!(
                out,
                "{event} {name}: exit={} {}",
                a.exit_code,
                String::from_utf8_lossy(&a.stdout)
            );
        }
    }
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/answers.txt")]
        .assert_eq(&out);
}

/// The answer read back by the hook codec, as Copilot would read it.
fn read_back(event: &str, answer: &HostAnswer) -> hooks_schema::HookVerdict {
    let doc = json!({"version": 1, "hooks": {event: [{"bash": "bridge"}]}});
    let parsed = crate::parse(
        &serde_json::to_vec(&doc).expect("json"),
        Path::new("/p/.github/hooks/a.json"),
    )
    .expect("ok");
    let hook = parsed.definitions.into_iter().next().expect("one");
    let outcome = RawOutcome {
        exit: ExitInfo::Exited(answer.exit_code),
        timed_out: false,
        stdout: CapturedOutput::whole(answer.stdout.clone()),
        stderr: CapturedOutput::whole(answer.stderr.clone()),
        result_file: None,
        duration: Duration::from_millis(1),
    };
    CopilotCodec.decode(&hook, &Envelope::new(hook.event), &outcome)
}

#[test]
fn copilot_reads_back_the_folded_decision() {
    for event in ["preToolUse", "PreToolUse", "permissionRequest"] {
        for (name, v) in verdicts() {
            let back = read_back(event, &CopilotHost.encode_answer(&input(event), &v));
            let want = match (event, v.decision) {
                // A permission request has no `ask`: it is the question, and the engine's
                // ask denies it.
                ("permissionRequest", Some(Decision::Ask)) => Some(Decision::Deny),
                (_, None) if v.updated_args.is_some() && event != "permissionRequest" => {
                    Some(Decision::Allow)
                }
                (_, d) => d,
            };
            assert_eq!(back.decision, want, "{event} {name}");
            if want == Some(Decision::Deny) {
                assert!(
                    back.reason
                        .as_deref()
                        .is_some_and(|r| r.contains(v.reason.as_deref().unwrap_or("blocked"))),
                    "{event} {name}: {back:?}"
                );
            }
            if event != "permissionRequest" && v.decision.is_none() {
                assert_eq!(back.rewrite.is_some(), v.updated_args.is_some(), "{event} {name}");
                assert_eq!(
                    back.context.len(),
                    usize::from(!v.context.is_empty()),
                    "{event} {name}"
                );
            }
        }
    }
    let stop =
        read_back("agentStop", &CopilotHost.encode_answer(&input("agentStop"), &verdicts()[2].1));
    assert_eq!(stop.followup.as_deref(), Some("keep going"));
    let post = read_back(
        "postToolUse",
        &CopilotHost.encode_answer(&input("postToolUse"), &verdicts()[2].1),
    );
    assert_eq!(
        post.updated_output,
        Some(json!({"resultType": "success", "textResultForLlm": "[redacted]"}))
    );
}

#[test]
fn decoding_errors() {
    let camel =
        br#"{"sessionId": "s", "cwd": "/p", "timestamp": 1, "toolName": "bash", "toolArgs": {}}"#;
    assert!(
        matches!(CopilotHost.decode_input(camel, None), Err(HostError::Malformed(_))),
        "a camelCase payload needs the event"
    );
    assert!(CopilotHost.decode_input(camel, Some("preToolUse")).is_ok());
    assert!(matches!(
        CopilotHost.decode_input(camel, Some("errorOccurred")),
        Err(HostError::UnknownEvent(_))
    ));
    assert!(matches!(
        CopilotHost.decode_input(camel, Some("nope")),
        Err(HostError::UnknownEvent(_))
    ));
    let pascal = br#"{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash"}"#;
    assert!(CopilotHost.decode_input(pascal, None).is_ok());
    assert!(matches!(
        CopilotHost.decode_input(pascal, Some("agentStop")),
        Err(HostError::Malformed(_))
    ));
    assert!(matches!(
        CopilotHost.decode_input(b"[]", Some("preToolUse")),
        Err(HostError::Malformed(_))
    ));
    assert!(matches!(
        CopilotHost.decode_input(br#"{"toolName": 3}"#, Some("preToolUse")),
        Err(HostError::Malformed(_))
    ));
    // The permission request names itself; a PascalCase command line still reads the
    // camelCase payload Copilot sends it.
    let perm = br#"{"sessionId": "s", "hookName": "permissionRequest", "toolName": "bash", "toolInput": {"command": "ls"}}"#;
    let i = CopilotHost.decode_input(perm, Some("PermissionRequest")).expect("ok");
    assert_eq!(i.envelope.tool.as_ref().map(|t| t.args.clone()), Some(json!({"command": "ls"})));
}

proptest! {
    #[test]
    fn decoding_any_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..120), event in prop::sample::select(EVENTS.to_vec())) {
        let _ = CopilotHost.decode_input(&bytes, Some(event));
        let _ = CopilotHost.decode_input(&bytes, None);
    }
}

/// The files Copilot's file tools write, for the guard: `create` and `edit` name theirs in
/// `path`; `apply_patch` takes the patch itself (Copilot CLI 1.0.102 reads it from a string argument or an object's `input` or `patch` field),
/// as the whole argument or in a field, and its files are the patch's. Before, the guard saw
/// no file in an `apply_patch` call and let it rewrite a hook file.
#[test]
fn the_guard_sees_the_files_of_every_file_tool() {
    let edited = |tool: &str, args: serde_json::Value| {
        let stdin = json!({"sessionId": "s", "cwd": "/p", "timestamp": 1, "toolName": tool, "toolArgs": args});
        let input = CopilotHost
            .decode_input(&serde_json::to_vec(&stdin).expect("json"), Some("preToolUse"))
            .expect("decodes");
        CopilotHost.edited_paths(&input)
    };
    let patch = "*** Begin Patch\n*** Update File: .github/hooks/gate.json\n@@\n-x\n+y\n*** Delete File: .github/hooks/check.sh\n*** End Patch\n";
    let both =
        Some(vec![".github/hooks/gate.json".to_owned(), ".github/hooks/check.sh".to_owned()]);
    assert_eq!(edited("apply_patch", json!(patch)), both);
    assert_eq!(edited("apply_patch", json!({"input": patch})), both);
    assert_eq!(edited("apply_patch", json!({"patch": patch, "explanation": "fix"})), both);
    assert_eq!(
        edited("create", json!({"path": "a.txt", "file_text": "x"})),
        Some(vec!["a.txt".to_owned()])
    );
    assert_eq!(
        edited("edit", json!({"path": "b.txt", "old_str": "x", "new_str": "y"})),
        Some(vec!["b.txt".to_owned()])
    );
    // A shell call that carries a patch is a file edit too; one that does not edits none
    // the guard can name.
    assert_eq!(
        edited("bash", json!({"command": format!("apply_patch <<'EOF'\n{patch}EOF")})),
        both
    );
    assert_eq!(edited("bash", json!({"command": "ls"})), None);
    // `str_replace_editor` both reads and edits: its `view` writes nothing.
    assert_eq!(edited("str_replace_editor", json!({"command": "view", "path": "a.txt"})), None);
    assert_eq!(
        edited(
            "str_replace_editor",
            json!({"command": "str_replace", "path": "a.txt", "old_str": "x", "new_str": "y"})
        ),
        Some(vec!["a.txt".to_owned()])
    );
}

/// A shell command's status survives a trip through Copilot CLI's words: the codec's
/// `postToolUse` input for a command another host reported (its output and status), read
/// back by the host, gives the same status, whatever the output says (its own closing
/// `shellId` line included).
fn exit_round_trip(code: i32, output: &str) -> Option<i32> {
    let e = hooks_schema::testing::shell_ran("x", output, code);
    let source = HookSourceId::new(
        crate::PROJECT_HOOKS,
        AbsPathBuf::new("/p/.github/hooks/a.json".into()).expect("abs"),
    );
    let ctx = hooks_schema::testing::encode_context(&source, Path::new("/p"));
    let (event, dialect) = CopilotEvent::from_name("postToolUse").expect("event");
    let sent = crate::payload(event, dialect, &e, &ctx).expect("payload");
    let bytes = serde_json::to_vec(&sent).expect("json");
    let back = CopilotHost.decode_input(&bytes, Some("postToolUse")).ok()?;
    back.envelope.result.and_then(|r| r.exit_code)
}

#[test]
fn a_shell_status_survives_copilot_cli_s_words() {
    assert_eq!(exit_round_trip(3, "out\nerr\n"), Some(3));
    assert_eq!(exit_round_trip(0, ""), Some(0));
    assert_eq!(exit_round_trip(2, "x <shellId: 9 completed with exit code 5>"), Some(2));
}

/// The status line as Copilot CLI 1.0.102 finds it itself (`cli-main.js`): the last line
/// that is not empty, after its sandbox notes, and the whole line.
#[test]
fn the_status_line_is_found_as_copilot_cli_finds_it() {
    let read = |text: &str| shell_exit(text);
    assert_eq!(read("out\n<shellId: 0 completed with exit code 3>"), Some(3));
    assert_eq!(read("out\r\n<shellId: 0 completed with exit code 3> \t\n\n"), Some(3));
    assert_eq!(read("<detached command with shellId: 4 completed with exit code -1>"), Some(-1));
    assert_eq!(
        read("out\n<shellId: 0 completed with exit code 2>\n<sandbox is active for this command>"),
        Some(2)
    );
    // The command's own text: a line that does not start with the status, a status line that
    // is not the last (Copilot CLI's own comes last, for 0 too), a line of blanks after it.
    assert_eq!(read("x <shellId: 9 completed with exit code 5>"), None);
    assert_eq!(read("<shellId: 9 completed with exit code 5>\ndone"), None);
    assert_eq!(read("<shellId: 0 completed with exit code 3>\n  "), None);
    assert_eq!(read("<shellId:  completed with exit code 3>"), None);
    assert_eq!(read("<shellId: 0 completed with exit code 3x>"), None);
    assert_eq!(read("<shellId: 0 completed with exit code >"), None);
}

proptest! {
    #[test]
    fn any_shell_status_survives_copilot_cli_s_words(code in any::<i32>(), output in ".{0,80}") {
        prop_assert_eq!(exit_round_trip(code, &output), Some(code));
    }
}
