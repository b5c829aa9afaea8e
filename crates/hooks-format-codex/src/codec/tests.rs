//! Tests of the Codex codec against what the real Codex 0.169.0 sent and did: its recorded
//! stdin payloads (decoded by the host codec, re-encoded by the hook codec, field for field),
//! the 18-answer PreToolUse matrix and the other events' answers.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, CapturedOutput, Decision, Delivery, EncodeContext, ExecutionMode, ExitInfo,
    HookCommand, HookDefinition, HookId, HookSourceId, HookVerdict, Matcher, OnFailure, Program,
    RawOutcome, ToolKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::{PROJECT_HOOKS, decode_input};

fn data(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/codec").join(name);
    serde_json::from_slice(&std::fs::read(p).expect("fixture")).expect("json")
}

pub(crate) fn hook(native: CodexEvent) -> HookDefinition {
    HookDefinition {
        id: HookId::new("h").expect("id"),
        event: native.canonical().expect("mapped"),
        native_event: native.as_str().to_owned(),
        matcher: Matcher::all(),
        command: HookCommand::Shell { script: "./hook.sh".to_owned(), shell: None },
        cwd: None,
        env: Vec::new(),
        timeout: Duration::from_secs(600),
        on_failure: OnFailure::Warn,
        mode: ExecutionMode::Blocking,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(CodexCodec),
        order: 0,
        line: Some(1),
        column: Some(1),
        description: None,
        native: Map::new(),
    }
}

fn source() -> HookSourceId {
    HookSourceId::new(
        PROJECT_HOOKS,
        AbsPathBuf::new(PathBuf::from("/repo/.codex/hooks.json")).expect("abs"),
    )
}

pub(crate) fn outcome(rc: i32, stdout: &str, stderr: &str) -> RawOutcome {
    RawOutcome {
        exit: ExitInfo::Exited(rc),
        timed_out: false,
        stdout: CapturedOutput::whole(stdout.as_bytes().to_vec()),
        stderr: CapturedOutput::whole(stderr.as_bytes().to_vec()),
        result_file: None,
        duration: Duration::from_millis(5),
    }
}

fn ctx<'a>(src: &'a HookSourceId, dir: &'a Path) -> EncodeContext<'a> {
    EncodeContext {
        source: src,
        working_dir: dir,
        project_dir: Some(dir),
        config_dir: None,
        user_shell: Some("/bin/bash"),
        agent_version: None,
        session_env: &[],
    }
}

/// Every payload Codex sent: decoding it and encoding it again gives the same document, and
/// every field is understood (nothing left over for the pass-through).
#[test]
fn recorded_payloads_round_trip_field_for_field() {
    let src = source();
    let dir = PathBuf::from("/elsewhere");
    let mut mapped = 0;
    for p in data("payloads.json").as_array().expect("list") {
        let stdin = &p["stdin"];
        let name = stdin["hook_event_name"].as_str().expect("event");
        let native = CodexEvent::from_name(name).expect("known");
        let bytes = serde_json::to_vec(stdin).expect("bytes");
        let Some(_) = native.canonical() else {
            assert!(decode_input(&bytes, None).is_err(), "{name} is a gap");
            continue;
        };
        let input = decode_input(&bytes, None).expect("decodes");
        assert!(
            input.envelope.extra.is_empty(),
            "{}: left over {:?}",
            p["file"],
            input.envelope.extra
        );
        let h = hook(native);
        let inv = CodexCodec.encode(&h, &input.envelope, &ctx(&src, &dir)).expect("encodes");
        let sent: Value = serde_json::from_slice(&inv.stdin).expect("json");
        assert_eq!(&sent, stdin, "{} {}", p["run"], p["file"]);
        assert_eq!(inv.cwd.as_deref(), stdin["cwd"].as_str().map(Path::new));
        mapped += 1;
    }
    assert!(mapped >= 25, "{mapped}");
}

/// Codex names no status to its hooks: the recorded `PostToolUse` of a command that exited 3
/// (Codex 0.169.0: `tool_response` is the output alone) is a plain post-tool firing, so a
/// format that takes a non-zero exit for a failure cannot tell it from a success under Codex
/// (`specs/events.md`, "A shell command's non-zero exit").
#[test]
fn a_failed_command_s_status_is_not_in_codex_s_input() {
    let all = data("payloads.json");
    let rec = all
        .as_array()
        .expect("list")
        .iter()
        .find(|p| p["run"].as_str().is_some_and(|r| r.contains("exiting 3")))
        .expect("the exit-3 recording");
    let bytes = serde_json::to_vec(&rec["stdin"]).expect("bytes");
    let input = decode_input(&bytes, None).expect("decodes");
    assert_eq!(input.envelope.event, hooks_schema::HookEvent::PostToolUse);
    assert_eq!(input.envelope.result.as_ref().and_then(|r| r.exit_code), None);
    assert_eq!(input.envelope.event_for(true), hooks_schema::HookEvent::PostToolUse);
}

#[test]
fn the_command_runs_through_the_users_login_shell_in_the_session_directory() {
    let src = source();
    let dir = PathBuf::from("/repo");
    let mut env = Envelope::new(hooks_schema::HookEvent::SessionStart);
    env.cwd = Some(PathBuf::from("/repo/sub"));
    let inv =
        CodexCodec.encode(&hook(CodexEvent::SessionStart), &env, &ctx(&src, &dir)).expect("ok");
    assert_eq!(
        inv.program,
        Program::Exec { argv: vec!["/bin/bash".into(), "-lc".into(), "./hook.sh".into()] }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/repo/sub")));
    assert_eq!(inv.timeout, Duration::from_secs(600));
    let mut no_shell = ctx(&src, &dir);
    no_shell.user_shell = None;
    let env = Envelope::new(hooks_schema::HookEvent::SessionStart);
    let inv = CodexCodec.encode(&hook(CodexEvent::SessionStart), &env, &no_shell).expect("ok");
    assert_eq!(
        inv.program,
        Program::Exec { argv: vec![DEFAULT_SHELL.into(), "-lc".into(), "./hook.sh".into()] }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/repo")));
}

#[test]
fn hooks_launch_in_the_session_directory() {
    let mut h = hook(CodexEvent::PreToolUse);
    assert_eq!(CodexCodec.launch(&h).run_dir, hooks_schema::LaunchDir::Session);
    assert!(CodexCodec.launch(&h).dir_vars.is_empty());
    h.cwd = Some("/home/u/.codex".to_owned());
    assert_eq!(
        CodexCodec.launch(&h).run_dir,
        hooks_schema::LaunchDir::Fixed(PathBuf::from("/home/u/.codex"))
    );
}

#[test]
fn a_tool_event_without_a_tool_call_cannot_be_encoded() {
    let src = source();
    let dir = PathBuf::from("/repo");
    let env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    let err = CodexCodec.encode(&hook(CodexEvent::PreToolUse), &env, &ctx(&src, &dir));
    assert!(matches!(err, Err(EncodeError::Payload(_))));
    let other = Envelope::new(hooks_schema::HookEvent::Stop);
    let err = CodexCodec.encode(&hook(CodexEvent::PreToolUse), &other, &ctx(&src, &dir));
    assert!(matches!(err, Err(EncodeError::EventMismatch { .. })));
}

#[test]
fn another_agents_file_edit_becomes_an_apply_patch_input() {
    let tool = |args: Value| hooks_schema::ToolCall {
        name: "Write".into(),
        kind: ToolKind::FileWrite,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args,
    };
    let write = codex_tool_input(&tool(json!({"file_path": "a.txt", "content": "x\ny"})));
    assert_eq!(
        write,
        json!({"command": "*** Begin Patch\n*** Add File: a.txt\n+x\n+y\n*** End Patch\n"})
    );
    let edit = codex_tool_input(&tool(
        json!({"file_path": "b.txt", "old_string": "o", "new_string": "n"}),
    ));
    assert_eq!(
        edit,
        json!({"command": "*** Begin Patch\n*** Update File: b.txt\n@@\n-o\n+n\n*** End Patch\n"})
    );
    assert_eq!(crate::patch_paths(edit["command"].as_str().expect("text")), ["b.txt"]);
    let native = json!({"command": "*** Begin Patch\n*** Delete File: c\n*** End Patch\n"});
    assert_eq!(codex_tool_input(&tool(native.clone())), native);
}

fn outcome_of(answer: &Value) -> RawOutcome {
    outcome(
        i32::try_from(answer["rc"].as_i64().expect("rc")).expect("small"),
        answer["stdout"].as_str().unwrap_or_default(),
        answer["stderr"].as_str().unwrap_or_default(),
    )
}

fn describe(v: &HookVerdict) -> String {
    let mut s = String::new();
    if let Some(d) = v.decision {
        let _ =
            write!(s, "decision={} reason={:?} ", d.as_str(), v.reason.as_deref().unwrap_or(""));
    }
    if let Some(r) = &v.rewrite {
        let _ = write!(s, "rewrite={r:?} ");
    }
    for c in &v.context {
        let _ = write!(s, "context={c:?} ");
    }
    if let Some(m) = &v.user_message {
        let _ = write!(s, "user_message={m:?} ");
    }
    if let Some(f) = &v.followup {
        let _ = write!(s, "followup={f:?} ");
    }
    if let Some(o) = &v.updated_output {
        let _ = write!(s, "updated_output={o} ");
    }
    if let Some(h) = &v.halt {
        let _ = write!(s, "halt={h:?} ");
    }
    if let Some(f) = &v.failure {
        let _ = write!(s, "failure={f:?} ");
    }
    if s.is_empty() {
        s.push_str("no opinion");
    }
    s.trim_end().to_owned()
}

/// The 18 PreToolUse answers the real Codex was given: what this codec decides is what Codex
/// did (blocked, ran, or ran the rewritten command).
#[test]
fn pre_tool_use_matrix_matches_the_real_cli() {
    let m = data("pre-matrix.json");
    let mut out = String::new();
    for c in m["cases"].as_array().expect("cases") {
        let v = decode_outcome(CodexEvent::PreToolUse, &outcome_of(&c["answer"]));
        let predicted = match (&v.decision, &v.rewrite) {
            (Some(Decision::Deny), _) => "blocked",
            (_, Some(_)) => "rewritten",
            _ => "ran",
        };
        assert_eq!(predicted, c["observed"].as_str().expect("observed"), "{}", c["name"]);
        // Codex's own status line for the hook: a hook it marks Failed is a failure here too
        // (an explicit `permissionDecision: "allow"` without `updatedInput` is one).
        let status = match (&v.decision, &v.failure) {
            (Some(Decision::Deny), _) => "blocked",
            (_, Some(_)) => "failed",
            _ => "completed",
        };
        assert_eq!(status, c["status"].as_str().expect("status"), "{}", c["name"]);
        let _ = writeln!(
            out,
            "{}: {} -> {}",
            c["name"].as_str().unwrap_or(""),
            predicted,
            describe(&v)
        );
    }
    expect_file![
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/codec/pre-matrix.txt")
    ]
    .assert_eq(&out);
}

#[test]
fn other_events_answers_match_the_real_cli() {
    let m = data("events-output.json");
    let mut out = String::new();
    for c in m["cases"].as_array().expect("cases") {
        let ev = CodexEvent::from_name(c["event"].as_str().expect("event")).expect("known");
        let v = decode_outcome(ev, &outcome_of(&c["answer"]));
        let _ = writeln!(
            out,
            "{}: {} ({})",
            ev.as_str(),
            describe(&v),
            c["observed"].as_str().unwrap_or("")
        );
    }
    expect_file![
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/codec/events-output.txt")
    ]
    .assert_eq(&out);
}

#[test]
fn per_event_rules() {
    let d = |ev, rc, out: &str, err: &str| decode_outcome(ev, &outcome(rc, out, err));
    // Exit 2 needs a reason on stderr.
    let v = d(CodexEvent::UserPromptSubmit, 2, "", "no secrets");
    assert_eq!(v.decision, Some(Decision::Deny));
    assert!(
        d(CodexEvent::Stop, 2, "", "").failure.expect("failed").contains("continuation prompt")
    );
    assert_eq!(d(CodexEvent::Stop, 2, "", "keep going").followup.as_deref(), Some("keep going"));
    assert_eq!(d(CodexEvent::PostToolUse, 2, "", "hidden").updated_output, Some(json!("hidden")));
    assert!(d(CodexEvent::SessionEnd, 2, "", "x").failure.is_some());
    // JSON only counts on exit 0.
    let deny = r#"{"decision":"block","reason":"no"}"#;
    assert_eq!(d(CodexEvent::UserPromptSubmit, 0, deny, "").decision, Some(Decision::Deny));
    assert!(d(CodexEvent::UserPromptSubmit, 1, deny, "").decision.is_none());
    assert!(d(CodexEvent::UserPromptSubmit, 0, r#"{"decision":"block"}"#, "").failure.is_some());
    // continue:false stops the agent where Codex supports it, fails the hook where it does not.
    let stop = r#"{"continue":false,"stopReason":"enough","decision":"block","reason":"r"}"#;
    let v = d(CodexEvent::Stop, 0, stop, "");
    assert_eq!(v.halt.as_deref(), Some("enough"));
    assert!(v.followup.is_none());
    assert!(d(CodexEvent::PreModelRequest, 0, r#"{"continue":false}"#, "").failure.is_some());
    // Permission decisions.
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#;
    assert_eq!(d(CodexEvent::PermissionRequest, 0, allow, "").decision, Some(Decision::Allow));
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}"#;
    let v = d(CodexEvent::PermissionRequest, 0, deny, "");
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("m")));
    let closed = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","interrupt":true}}}"#;
    assert_eq!(d(CodexEvent::PermissionRequest, 0, closed, "").decision, Some(Decision::Deny));
    // An event without hookSpecificOutput fails on one.
    let bad = r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}"#;
    assert!(d(CodexEvent::Stop, 0, bad, "").failure.is_some());
    // Plain stdout is context only on SessionStart and UserPromptSubmit.
    assert_eq!(d(CodexEvent::SessionStart, 0, "hello\n", "").context, ["hello"]);
    assert!(d(CodexEvent::Stop, 0, "hello", "").context.is_empty());
    // Not JSON after all.
    assert!(
        d(CodexEvent::Stop, 0, "{oops", "").failure.expect("failed").contains("invalid Stop JSON")
    );
}

#[test]
fn failures_fail_open() {
    let mut o = outcome(0, "", "");
    o.timed_out = true;
    let v = decode_outcome(CodexEvent::PreToolUse, &o);
    assert!(v.decision.is_none() && v.failure.is_some());
    o.timed_out = false;
    o.exit = ExitInfo::Signaled(9);
    assert!(decode_outcome(CodexEvent::PreToolUse, &o).decision.is_none());
    o.exit = ExitInfo::NotStarted(hooks_schema::SpawnFailure {
        kind: hooks_schema::SpawnFailureKind::ProgramNotFound,
        message: "nope".into(),
    });
    assert!(decode_outcome(CodexEvent::PreToolUse, &o).failure.is_some());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn decoding_arbitrary_output_never_panics(
        rc in -1i32..4,
        stdout in "\\PC{0,200}",
        json_ish in "[{}\\[\\]\":,a-zA-Z ]{0,80}",
        stderr in "\\PC{0,50}",
    ) {
        for ev in CodexEvent::ALL {
            let _ = decode_outcome(ev, &outcome(rc, &stdout, &stderr));
            let v = decode_outcome(ev, &outcome(rc, &json_ish, &stderr));
            if let Some(Decision::Deny) = v.decision {
                prop_assert!(v.reason.as_ref().is_some_and(|r| !r.trim().is_empty()));
            }
        }
    }
}
