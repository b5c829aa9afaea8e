//! The audit log end to end: an engine killed mid-write leaves only whole records, a
//! runtime records its fires and guard decisions, and `hooks audit` summarises a session
//! (`specs/audit-log.md`).

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use hooks_app::{
    audit::{AUDIT_SCHEMA, AuditConfig, AuditLog, AuditRecord, FireRecord, read_records},
    runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId},
};
use hooks_schema::{Decision, Envelope, HookEvent};
use hooks_trust::{CommandExecutionPosture, Surface};
use hooks_watcher::RootOrigin;

use crate::{
    cli::{code, hooks_in, stderr, stdout},
    support::{TestDir, shell_call},
};

const WRITER_VAR: &str = "HOOKS_IT_AUDIT_WRITER";
const RUN_VAR: &str = "HOOKS_IT_AUDIT_RUN";
/// The size of each record the writer appends: large, so a write spans many pages and a
/// SIGKILL is likely to land in the middle of one.
const RECORD_BYTES: usize = 1 << 20;

fn big_record(run: &str, seq: usize) -> AuditRecord {
    AuditRecord::Fire(FireRecord {
        audit: AUDIT_SCHEMA,
        time: "2026-12-02T00:00:00.000Z".into(),
        session: Some(run.to_owned()),
        turn: Some(seq.to_string()),
        event: "pre_tool_use".into(),
        cwd: None,
        revision: Some(1),
        decision: Some(Decision::Deny),
        reason: Some("r".repeat(RECORD_BYTES)),
        decided_by: None,
        short_circuited: true,
        duration_ms: 1.0,
        hooks: Vec::new(),
    })
}

/// Not a test by itself: the child-process half of
/// [`an_engine_killed_mid_write_leaves_only_whole_records`]. Does nothing unless
/// `HOOKS_IT_AUDIT_WRITER` names a log; then it appends large records until it is killed (or
/// for at most a minute).
#[test]
fn audit_writer_child_entry() {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let Some(path) = std::env::var_os(WRITER_VAR) else { return };
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let run = std::env::var(RUN_VAR).expect("a run name");
    // Rotation bounds the disk the test uses.
    let config = AuditConfig { path: PathBuf::from(path), max_bytes: 24 << 20, keep: 1 };
    let log = AuditLog::open(config).expect("open the log");
    let end = Instant::now() + Duration::from_secs(60);
    let mut seq = 0;
    while Instant::now() < end {
        log.try_append(&big_record(&run, seq)).expect("append");
        seq += 1;
    }
    std::process::exit(3);
}

/// Every record in `path` and its rotated file, and the unreadable lines.
fn read_all(path: &Path) -> (Vec<FireRecord>, usize) {
    let mut records = Vec::new();
    let mut unreadable = 0;
    let rotated = PathBuf::from(format!("{}.1", path.display()));
    for p in [rotated.as_path(), path] {
        if !p.exists() {
            continue;
        }
        let read = read_records(p).expect("read the log");
        unreadable += read.unreadable;
        records.extend(read.records.into_iter().map(|r| match r {
            AuditRecord::Fire(f) => f,
            AuditRecord::Guard(g) => panic!("unexpected guard record {g:?}"),
        }));
    }
    (records, unreadable)
}

#[test]
fn an_engine_killed_mid_write_leaves_only_whole_records() {
    let dir = TestDir::new();
    let path = dir.path().join("audit.jsonl");
    let exe = std::env::current_exe().expect("test binary");
    let mut torn = 0;
    for run in 0..4 {
        let before = std::fs::metadata(&path).map_or(0, |m| m.len());
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "audit::audit_writer_child_entry",
                "--nocapture",
                "--test-threads=1",
                "-q",
            ])
            .env(WRITER_VAR, &path)
            .env(RUN_VAR, format!("run-{run}"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the writer");
        // Kill it once it has written a few records past where the last run stopped (or
        // rotated), at whatever point of a write it is in.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let len = std::fs::metadata(&path).map_or(0, |m| m.len());
            if len >= before + 3 * RECORD_BYTES as u64 || len + (4 << 20) < before {
                break;
            }
            assert!(Instant::now() < deadline, "the writer wrote nothing in 30 s");
            assert!(child.try_wait().expect("poll the writer").is_none(), "the writer stopped");
            std::thread::sleep(Duration::from_millis(2));
        }
        child.kill().expect("SIGKILL the writer");
        child.wait().expect("reap the writer");

        let (records, unreadable) = read_all(&path);
        let bytes = std::fs::read(&path).expect("the log");
        let tail_torn = bytes.last().is_some_and(|&b| b != b'\n');
        assert_eq!(
            unreadable,
            usize::from(tail_torn),
            "run {run}: only a torn last line is unreadable"
        );
        torn += unreadable;
        // Whole records of this run, in order, none missing between the first and the last.
        let ours: Vec<usize> = records
            .iter()
            .filter(|r| r.session.as_deref() == Some(format!("run-{run}").as_str()))
            .map(|r| r.turn.as_deref().and_then(|t| t.parse().ok()).expect("a sequence number"))
            .collect();
        assert!(ours.len() >= 2, "run {run}: {ours:?}");
        assert!(ours.windows(2).all(|w| w[1] == w[0] + 1), "run {run}: {ours:?}");
        assert!(records.iter().all(|r| r.reason.as_ref().is_some_and(|x| x.len() == RECORD_BYTES)));
    }
    // The next writer repairs a torn tail before it appends.
    let log = AuditLog::open(AuditConfig { path: path.clone(), max_bytes: 24 << 20, keep: 1 })
        .expect("reopen");
    log.try_append(&big_record("after", 0)).expect("append after the kills");
    let (records, unreadable) = read_all(&path);
    assert_eq!(unreadable, 0);
    assert_eq!(records.last().and_then(|r| r.session.as_deref()), Some("after"));
    eprintln!("{torn} of 4 kills tore a record");
}

const DENY_RM: &str = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny-rm.sh", "timeout": 5}]}}"#;
const DENY_RM_SH: &str = r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo '{"permission":"deny","user_message":"no rm -rf here"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
"#;

#[tokio::test]
async fn a_runtime_records_each_fire_and_guard_decision() {
    let dir = TestDir::new();
    dir.write(".cursor/hooks.json", DENY_RM);
    dir.script(".cursor/deny-rm.sh", DENY_RM_SH);
    let logs = TestDir::new();
    let path = logs.path().join("audit.jsonl");
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.audit = Some(std::sync::Arc::new(AuditLog::open(AuditConfig::new(&path)).unwrap()));
    let mut rt = HookRuntime::new(config);
    rt.handle(RuntimeEvent::WindowPosture {
        window: WindowId(1),
        posture: CommandExecutionPosture::AutoApproves,
    })
    .unwrap();
    rt.handle(RuntimeEvent::RepositoryDetected {
        root: dir.path().to_path_buf(),
        origin: RootOrigin::TerminalNavigation,
    })
    .unwrap();
    rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap();
    let mut call = shell_call(dir.path(), "rm -rf build");
    call.session_id = Some("conv-1".into());
    let report = rt.fire(&call).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    let hook_file = dir.path().join(".cursor/hooks.json");
    assert!(!rt.can_write_files(std::slice::from_ref(&hook_file), dir.path()).is_allowed());
    assert!(rt.can_write_files(&[dir.path().join("src/x.rs")], dir.path()).is_allowed());

    let read = read_records(&path).unwrap();
    assert_eq!(read.unreadable, 0);
    let fires: Vec<&FireRecord> = read
        .records
        .iter()
        .filter_map(|r| match r {
            AuditRecord::Fire(f) => Some(f),
            AuditRecord::Guard(_) => None,
        })
        .collect();
    let deny = fires.iter().find(|f| f.event == "pre_tool_use").expect("the tool call's fire");
    let canonical = hooks_registry::canonicalize(&hook_file).unwrap();
    assert_eq!(deny.session.as_deref(), Some("conv-1"));
    assert_eq!(deny.decision, Some(Decision::Deny));
    assert_eq!(deny.reason.as_deref(), Some("no rm -rf here"));
    let by = deny.decided_by.as_ref().expect("a decider");
    assert_eq!(
        (by.hook.as_str(), by.file.as_path(), by.line),
        ("beforeShellExecution[0]", canonical.as_path(), Some(1))
    );
    assert_eq!(deny.revision, Some(rt.snapshot().revision().get()));
    let [hook] = deny.hooks.as_slice() else { panic!("{:?}", deny.hooks) };
    assert_eq!(
        (hook.status.as_str(), hook.decision, hook.exit_code),
        ("ran", Some(Decision::Deny), Some(0))
    );
    assert!(hook.duration_ms.is_some_and(|ms| ms > 0.0));

    let guards: Vec<_> = read
        .records
        .iter()
        .filter_map(|r| match r {
            AuditRecord::Guard(g) => Some(g),
            AuditRecord::Fire(_) => None,
        })
        .collect();
    let [refused, allowed] = guards.as_slice() else { panic!("{guards:?}") };
    assert_eq!(refused.decision, "protected");
    assert!(
        refused.hits.iter().any(|h| h.protected == canonical.as_path() && h.role == "hook_file")
    );
    assert_eq!(allowed.decision, "allowed");
    assert!(allowed.hits.is_empty());
}

fn session_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/test_data/audit/session.jsonl")
}

#[test]
fn hooks_audit_prints_the_summary_of_a_recorded_session() {
    let dir = TestDir::new();
    let session = session_fixture();
    let session = session.to_str().expect("utf-8 path");
    let table = hooks_in(dir.path(), &["audit", session], "");
    assert_eq!(code(&table), 0, "{}", stderr(&table));
    expect_test::expect_file!["../../app/test_data/audit/session.txt"].assert_eq(&stdout(&table));
    let json = hooks_in(dir.path(), &["audit", "--json", session], "");
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    expect_test::expect_file!["../../app/test_data/audit/session.json"].assert_eq(&stdout(&json));
    let missing = hooks_in(dir.path(), &["audit", "no-such.jsonl"], "");
    assert_eq!(code(&missing), 1);
    assert!(stderr(&missing).contains("cannot read the audit log"), "{}", stderr(&missing));
}

#[test]
fn hooks_fire_appends_to_the_audit_log_and_logs_its_spans_as_json_on_stderr() {
    let d = TestDir::new();
    d.write(".cursor/hooks.json", DENY_RM);
    d.script(".cursor/deny-rm.sh", DENY_RM_SH);
    let cfg = TestDir::new();
    let log = cfg.path().join("audit/audit.jsonl");
    let args = [
        "fire",
        "pre_tool_use",
        "--root",
        ".",
        "--config-dir",
        cfg.path().to_str().unwrap(),
        "--posture",
        "auto-approves",
        "--payload",
        "-",
        "--audit",
        log.to_str().unwrap(),
        "--log-format",
        "json",
        "--log-level",
        "hooks=info",
    ];
    let payload = r#"{"tool": {"name": "Bash", "kind": "shell", "args": {"command": "rm -rf /"}}}"#;
    let out = hooks_in(d.path(), &args, payload);
    assert_eq!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    let read = read_records(&log).expect("the audit log");
    let deny = read
        .records
        .iter()
        .find_map(|r| match r {
            AuditRecord::Fire(f) if f.event == "pre_tool_use" => Some(f),
            _ => None,
        })
        .expect("the fire is recorded");
    assert_eq!(deny.decision, Some(Decision::Deny));
    assert_eq!(deny.decided_by.as_ref().map(|b| b.hook.as_str()), Some("beforeShellExecution[0]"));
    // stderr: one JSON object per line; the deny event inside its hooks.run span.
    let events: Vec<serde_json::Value> =
        stderr(&out).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let denied = events
        .iter()
        .find(|e| e["message"] == "hook denied")
        .unwrap_or_else(|| panic!("a deny event in {}", stderr(&out)));
    assert_eq!(denied["span"]["name"], "hooks.run");
    assert_eq!(denied["span"]["hook_id"], "beforeShellExecution[0]");
    assert_eq!(denied["level"], "INFO");
    // By default the tool logs errors only.
    let quiet = hooks_in(d.path(), &args[..10], payload);
    assert_eq!(code(&quiet), 2);
    assert!(!stderr(&quiet).contains("hook denied"), "{}", stderr(&quiet));
    let bad = hooks_in(d.path(), &["list", "--log-level", "hooks=notalevel"], "");
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
}
