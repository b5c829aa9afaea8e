//! Tests for `decode`: golden files for every output field, every event's reading of it,
//! and every failure mode; properties over arbitrary output.

use std::time::Duration;

use expect_test::expect_file;
use hooks_schema::{
    CapturedOutput, Decision, Envelope, ExitInfo, HookCodec, HookEvent, RawOutcome, SpawnFailure,
    SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::{
    CursorCodec,
    testing::{fixtures, hook_from},
};

fn outcome(case: &Value) -> RawOutcome {
    let o = &case["outcome"];
    let text = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("").as_bytes().to_vec();
    let exit = if let Some(msg) = o.get("not_started").and_then(Value::as_str) {
        ExitInfo::NotStarted(SpawnFailure {
            kind: SpawnFailureKind::ProgramNotFound,
            message: msg.to_owned(),
        })
    } else if let Some(sig) = o.get("signal").and_then(Value::as_i64) {
        ExitInfo::Signaled(i32::try_from(sig).expect("signal"))
    } else {
        ExitInfo::Exited(
            i32::try_from(o.get("exit").and_then(Value::as_i64).unwrap_or(0)).expect("code"),
        )
    };
    let mut stdout = CapturedOutput::whole(text("stdout"));
    stdout.truncated = o.get("truncated").and_then(Value::as_bool).unwrap_or(false);
    RawOutcome {
        exit,
        timed_out: o.get("timed_out").and_then(Value::as_bool).unwrap_or(false),
        stdout,
        stderr: CapturedOutput::whole(text("stderr")),
        result_file: None,
        duration: Duration::from_millis(5),
    }
}

fn decode_case(case: &Value) -> String {
    let event = case["event"].as_str().expect("event");
    let entry = case.get("entry").cloned().unwrap_or_else(|| json!({ "command": "./hook.sh" }));
    let hook = hook_from(event, &entry);
    let envelope = match case.get("envelope") {
        Some(e) => serde_json::from_value(e.clone()).expect("the case's envelope is valid"),
        None => Envelope::new(hook.event),
    };
    let verdict = CursorCodec.decode(&hook, &envelope, &outcome(case));
    format!("{verdict:#?}\n")
}

#[test]
fn golden_files() {
    for (stem, bytes) in fixtures("decode") {
        let case: Value = serde_json::from_slice(&bytes).expect("case is JSON");
        expect_file![format!("../../test_data/decode/output/{stem}.txt")]
            .assert_eq(&decode_case(&case));
    }
}

#[test]
fn every_mapped_event_has_a_golden_case() {
    let cases: Vec<String> = fixtures("decode")
        .into_iter()
        .filter_map(|(_, b)| {
            let v: Value = serde_json::from_slice(&b).ok()?;
            v["event"].as_str().map(str::to_owned)
        })
        .collect();
    for name in crate::native_event_names() {
        if crate::canonical_event(name).is_some() {
            assert!(cases.iter().any(|c| c == name), "no decode case for {name}");
        }
    }
}

fn run(event: &str, entry: &Value, exit: i32, stdout: &str) -> hooks_schema::HookVerdict {
    let hook = hook_from(event, entry);
    let out = RawOutcome {
        exit: ExitInfo::Exited(exit),
        timed_out: false,
        stdout: CapturedOutput::whole(stdout.as_bytes().to_vec()),
        stderr: CapturedOutput::default(),
        result_file: None,
        duration: Duration::ZERO,
    };
    CursorCodec.decode(&hook, &Envelope::new(hook.event), &out)
}

#[test]
fn ask_follows_the_per_event_table() {
    let ask = r#"{"permission":"ask"}"#;
    let cmd = json!({ "command": "./h.sh" });
    let table = [
        ("preToolUse", None),
        ("beforeShellExecution", Some(Decision::Ask)),
        ("beforeMCPExecution", Some(Decision::Ask)),
        ("beforeReadFile", Some(Decision::Deny)),
        ("subagentStart", Some(Decision::Deny)),
        ("stop", None),
        ("afterShellExecution", None),
    ];
    for (event, expected) in table {
        assert_eq!(run(event, &cmd, 0, ask).decision, expected, "{event}");
    }
}

#[test]
fn exit_two_denies_only_where_cursor_reads_a_decision() {
    let cmd = json!({ "command": "./h.sh" });
    for event in [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "subagentStart",
        "beforeSubmitPrompt",
    ] {
        assert_eq!(run(event, &cmd, 2, "").decision, Some(Decision::Deny), "{event}");
    }
    for event in
        ["postToolUse", "afterFileEdit", "stop", "sessionStart", "preCompact", "workspaceOpen"]
    {
        assert_eq!(run(event, &cmd, 2, "").decision, None, "{event}");
    }
}

#[test]
fn fail_closed_denies_every_failure_on_gated_events() {
    let closed = json!({ "command": "./h.sh", "failClosed": true });
    let open = json!({ "command": "./h.sh" });
    for (exit, stdout) in
        [(1, ""), (127, ""), (0, "not json"), (0, "[1,2]"), (0, r#"{"permission":"perhaps"}"#)]
    {
        let v = run("beforeReadFile", &closed, exit, stdout);
        assert_eq!(v.decision, Some(Decision::Deny), "{exit} {stdout}");
        assert!(v.reason.as_deref().is_some_and(|r| r.contains("beforeReadFile[0]")), "{v:?}");
        let v = run("beforeReadFile", &open, exit, stdout);
        assert_eq!(v.decision, None, "{exit} {stdout}");
        assert!(v.failure.is_some());
    }
    assert_eq!(HookEvent::PreToolUse, hook_from("beforeReadFile", &open).event);
}

proptest! {
    #[test]
    fn arbitrary_output_never_panics(
        exit in prop_oneof![Just(0), Just(2), any::<i32>()],
        stdout in prop::collection::vec(any::<u8>(), 0..256),
        stderr in prop::collection::vec(any::<u8>(), 0..64),
        event in prop::sample::select(vec!["preToolUse", "stop", "subagentStop", "sessionStart", "beforeSubmitPrompt", "beforeShellExecution"]),
        fail_closed in any::<bool>(),
    ) {
        let hook = hook_from(event, &json!({ "command": "./h.sh", "failClosed": fail_closed }));
        let out = RawOutcome {
            exit: ExitInfo::Exited(exit),
            timed_out: false,
            stdout: CapturedOutput::whole(stdout),
            stderr: CapturedOutput::whole(stderr),
            result_file: None,
            duration: Duration::ZERO,
        };
        let v = CursorCodec.decode(&hook, &Envelope::new(hook.event), &out);
        if v.failure.is_some() && fail_closed && event != "stop" && event != "subagentStop" && event != "sessionStart" {
            prop_assert_eq!(v.decision, Some(Decision::Deny));
        }
    }

    #[test]
    fn arbitrary_json_output_never_panics(
        v in prop::collection::vec(
            (prop::sample::select(vec!["permission", "user_message", "agent_message", "updated_input", "continue", "followup_message", "additional_context", "env", "hookSpecificOutput", "decision", "reason"]),
             prop_oneof![Just(Value::Null), any::<bool>().prop_map(Value::Bool), "[a-z]{0,6}".prop_map(Value::String), Just(json!({"a": 1})), Just(json!(["x"]))]),
            0..6),
        event in prop::sample::select(vec!["preToolUse", "stop", "subagentStop", "sessionStart", "beforeSubmitPrompt", "subagentStart"]),
    ) {
        let obj: serde_json::Map<String, Value> = v.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        let _ = run(event, &json!({ "command": "./h.sh" }), 0, &Value::Object(obj).to_string());
    }
}
