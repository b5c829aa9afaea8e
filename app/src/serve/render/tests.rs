//! Tests of the renderings: a rich fire report renders to exactly the bytes the `json!`-tree
//! renderer produced (the expected text was captured from it before the typed views).

use std::{path::PathBuf, time::Duration};

use expect_test::expect;
use hooks_dispatch::{DrainReport, FireReport, HookRun, RunStatus, SkipReason};
use hooks_schema::{
    AbsPathBuf, ArgRewrite, CapturedOutput, Decision, ExecutionMode, ExitInfo, FoldedVerdict,
    HookId, HookSourceId, HookVerdict, Provenance, RawOutcome, SpawnFailure, SpawnFailureKind,
};
use serde_json::json;

fn prov(id: &str, line: Option<u32>) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("hook id"),
        source: HookSourceId::new(
            hooks_format_cursor::PROJECT_FILE,
            AbsPathBuf::new(PathBuf::from("/repo/.cursor/hooks.json")).expect("absolute"),
        ),
        line,
    }
}

fn outcome(exit: ExitInfo, timed_out: bool, micros: u64) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out,
        stdout: CapturedOutput::whole(b"{\"permission\":\"deny\"}".to_vec()),
        stderr: CapturedOutput { bytes: b"x".to_vec(), total_len: 70_000, truncated: true },
        result_file: None,
        duration: Duration::from_micros(micros),
    }
}

fn run(id: &str, status: RunStatus) -> HookRun {
    HookRun {
        provenance: prov(id, Some(3)),
        mode: ExecutionMode::Blocking,
        status,
        outcome: None,
        verdict: None,
        counted: false,
        queued: Duration::ZERO,
    }
}

/// A report with every part a fire report can have.
fn rich_report() -> FireReport {
    let deny = prov("deny-shell", Some(4));
    let rewrite = prov("rewrite \"quoted\" \u{e9}", None);
    let ran = HookRun {
        outcome: Some(outcome(ExitInfo::Exited(2), false, 12_345)),
        verdict: Some(HookVerdict {
            decision: Some(Decision::Deny),
            reason: Some("no make\nin here".into()),
            rewrite: Some(ArgRewrite::Replace(json!({ "command": "ls" }))),
            context: vec!["ctx one".into(), "ctx two".into()],
            user_message: Some("told".into()),
            updated_output: Some(json!("ignored by the view")),
            followup: None,
            halt: Some("stop".into()),
            env: vec![("K".into(), "V".into())],
            failure: Some("exit_code=2".into()),
            notes: vec!["skipped a profile line".into()],
        }),
        counted: true,
        queued: Duration::from_nanos(1_500_700),
        ..run("deny-shell", RunStatus::Ran)
    };
    let signaled = HookRun {
        outcome: Some(outcome(ExitInfo::Signaled(9), true, 5_000_000)),
        verdict: Some(HookVerdict::no_opinion()),
        ..run("slow", RunStatus::Ran)
    };
    let launch = HookRun {
        outcome: Some(outcome(
            ExitInfo::NotStarted(SpawnFailure {
                kind: SpawnFailureKind::ProgramNotFound,
                message: "program `nope` not found".into(),
            }),
            false,
            0,
        )),
        verdict: Some(HookVerdict::decided(Decision::Ask, None)),
        counted: true,
        ..run("missing", RunStatus::Ran)
    };
    let background = HookRun {
        mode: ExecutionMode::Async,
        ..run(
            "bg",
            RunStatus::Background {
                detached: true,
                job_id: Some("job-1".into()),
                log: Some(PathBuf::from("/tmp/log")),
                note: None,
            },
        )
    };
    let best_effort = HookRun {
        mode: ExecutionMode::FireAndForget,
        ..run(
            "ff",
            RunStatus::Background {
                detached: false,
                job_id: None,
                log: None,
                note: Some("n".into()),
            },
        )
    };
    FireReport {
        verdict: FoldedVerdict {
            decision: Some(Decision::Deny),
            reason: Some("no make".into()),
            decided_by: Some(deny.clone()),
            updated_args: Some(json!({ "z": 1, "a": [true, null, 2.5] })),
            rewritten_by: vec![rewrite.clone(), deny.clone()],
            context: vec![(deny.clone(), "ctx".into()), (rewrite.clone(), "more".into())],
            user_messages: vec![(deny.clone(), "hello user".into())],
            followups: vec![(rewrite, "next".into())],
            halt: Some((deny.clone(), "halt!".into())),
            env: vec![("B".into(), "2".into()), ("A".into(), "1".into())],
            short_circuited: true,
            updated_output: Some(json!({ "stdout": "TOKEN=[REDACTED]" })),
            output_rewritten_by: Some(deny.clone()),
        },
        runs: vec![
            ran,
            signaled,
            launch,
            run("off", RunStatus::Skipped(SkipReason::Disabled)),
            run("nomatch", RunStatus::Skipped(SkipReason::NoMatch)),
            run("after", RunStatus::Skipped(SkipReason::ShortCircuited)),
            background,
            best_effort,
        ],
        duration: Duration::from_micros(17_001),
    }
}

#[test]
fn a_rich_fire_report_renders_byte_for_byte() {
    let report = rich_report();
    let text = serde_json::to_string(&super::fire_report(&report, Some(Decision::Ask)))
        .expect("serializes");
    expect![[r#"{"verdict":{"decision":"deny","effective":"deny","reason":"no make","decided_by":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4},"updated_args":{"z":1,"a":[true,null,2.5]},"rewritten_by":[{"hook_id":"rewrite \"quoted\" é","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":null},{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4}],"context":[{"hook":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4},"text":"ctx"},{"hook":{"hook_id":"rewrite \"quoted\" é","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":null},"text":"more"}],"user_messages":[{"hook":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4},"text":"hello user"}],"followups":[{"hook":{"hook_id":"rewrite \"quoted\" é","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":null},"text":"next"}],"halt":{"hook":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4},"text":"halt!"},"env":[["B","2"],["A","1"]],"short_circuited":true,"updated_output":{"stdout":"TOKEN=[REDACTED]"},"output_rewritten_by":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":4}},"runs":[{"hook":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"ran","counted":true,"queued_ms":1.501,"verdict":{"decision":"deny","reason":"no make\nin here","rewrites_args":true,"context":["ctx one","ctx two"],"user_message":"told","followup":null,"halt":"stop","failure":"exit_code=2","notes":["skipped a profile line"],"rewrites_output":true},"process":{"exit_code":2,"signal":null,"launch_error":null,"timed_out":false,"duration_ms":12.345,"failure":"exit_code=2","stdout_bytes":21,"stderr_bytes":70000}},{"hook":{"hook_id":"slow","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"ran","counted":false,"queued_ms":0.0,"verdict":{"decision":null,"reason":null,"rewrites_args":false,"context":[],"user_message":null,"followup":null,"halt":null,"failure":null,"notes":[],"rewrites_output":false},"process":{"exit_code":null,"signal":9,"launch_error":null,"timed_out":true,"duration_ms":5000.0,"failure":"timeout","stdout_bytes":21,"stderr_bytes":70000}},{"hook":{"hook_id":"missing","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"ran","counted":true,"queued_ms":0.0,"verdict":{"decision":"ask","reason":null,"rewrites_args":false,"context":[],"user_message":null,"followup":null,"halt":null,"failure":null,"notes":[],"rewrites_output":false},"process":{"exit_code":null,"signal":null,"launch_error":"program `nope` not found","timed_out":false,"duration_ms":0.0,"failure":"launch_error","stdout_bytes":21,"stderr_bytes":70000}},{"hook":{"hook_id":"off","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"skipped","counted":false,"queued_ms":0.0,"verdict":null,"skip_reason":"disabled"},{"hook":{"hook_id":"nomatch","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"skipped","counted":false,"queued_ms":0.0,"verdict":null,"skip_reason":"no_match"},{"hook":{"hook_id":"after","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"skipped","counted":false,"queued_ms":0.0,"verdict":null,"skip_reason":"short_circuited"},{"hook":{"hook_id":"bg","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"async","status":"background","counted":false,"queued_ms":0.0,"verdict":null,"background":{"detached":true,"job_id":"job-1","log":"/tmp/log","note":null}},{"hook":{"hook_id":"ff","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"fire_and_forget","status":"background","counted":false,"queued_ms":0.0,"verdict":null,"background":{"detached":false,"job_id":null,"log":null,"note":"n"}}],"duration_ms":17.001,"decision_to_act_on":"ask"}"#]]
    .assert_eq(&text);
}

#[test]
fn an_empty_fire_report_response_renders_byte_for_byte() {
    let report = FireReport {
        verdict: FoldedVerdict::default(),
        runs: Vec::new(),
        duration: Duration::from_nanos(999),
    };
    let message = super::super::protocol::response(json!(7), super::fire_report(&report, None));
    let text = serde_json::to_string(&message).expect("serializes");
    expect![[r#"{"id":7,"result":{"verdict":{"decision":null,"effective":"allow","reason":null,"decided_by":null,"updated_args":null,"rewritten_by":[],"context":[],"user_messages":[],"followups":[],"halt":null,"env":[],"short_circuited":false,"updated_output":null,"output_rewritten_by":null},"runs":[],"duration_ms":0.001}}"#]].assert_eq(&text);
}

#[test]
fn a_drain_report_renders_byte_for_byte() {
    let report = rich_report();
    let drain = DrainReport {
        finished: report.runs.into_iter().take(2).collect(),
        cancelled: vec![prov("late", None)],
    };
    let text = serde_json::to_string(&super::drain(&drain)).expect("serializes");
    expect![[r#"{"finished":[{"hook":{"hook_id":"deny-shell","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"ran","counted":true,"queued_ms":1.501,"verdict":{"decision":"deny","reason":"no make\nin here","rewrites_args":true,"context":["ctx one","ctx two"],"user_message":"told","followup":null,"halt":"stop","failure":"exit_code=2","notes":["skipped a profile line"],"rewrites_output":true},"process":{"exit_code":2,"signal":null,"launch_error":null,"timed_out":false,"duration_ms":12.345,"failure":"exit_code=2","stdout_bytes":21,"stderr_bytes":70000}},{"hook":{"hook_id":"slow","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":3},"mode":"blocking","status":"ran","counted":false,"queued_ms":0.0,"verdict":{"decision":null,"reason":null,"rewrites_args":false,"context":[],"user_message":null,"followup":null,"halt":null,"failure":null,"notes":[],"rewrites_output":false},"process":{"exit_code":null,"signal":9,"launch_error":null,"timed_out":true,"duration_ms":5000.0,"failure":"timeout","stdout_bytes":21,"stderr_bytes":70000}}],"cancelled":[{"hook_id":"late","source":{"kind":"project_cursor_file","path":"/repo/.cursor/hooks.json"},"line":null}]}"#]].assert_eq(&text);
}
