//! The audit log's writer and reader: whole records, torn tails, rotation.

use std::{io::Write, path::PathBuf, time::Duration};

use hooks_dispatch::{FireReport, HookRun, RunStatus};
use hooks_schema::{
    AbsPathBuf, CapturedOutput, Decision, Envelope, ExecutionMode, ExitInfo, FoldedVerdict,
    HookEvent, HookId, HookSourceId, HookVerdict, Provenance, RawOutcome,
};

use super::*;

fn provenance(id: &str, line: u32) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).unwrap(),
        source: HookSourceId::new(
            hooks_format_cursor::PROJECT_FILE,
            AbsPathBuf::new("/p/.cursor/hooks.json".into()).unwrap(),
        ),
        line: Some(line),
    }
}

/// A fire of pre tool use in which hook `deny` (line 3) denied with `reason` after 12 ms.
fn denied(reason: &str) -> (Envelope, FireReport) {
    let mut env = Envelope::new(HookEvent::PreToolUse);
    env.session_id = Some("s-1".into());
    env.cwd = Some("/p".into());
    let p = provenance("deny", 3);
    let verdict = HookVerdict::decided(Decision::Deny, Some(reason.into()));
    let run = HookRun {
        provenance: p.clone(),
        mode: ExecutionMode::Blocking,
        status: RunStatus::Ran,
        outcome: Some(RawOutcome {
            exit: ExitInfo::Exited(0),
            timed_out: false,
            stdout: CapturedOutput { bytes: Vec::new(), total_len: 10, truncated: true },
            stderr: CapturedOutput::default(),
            result_file: None,
            duration: Duration::from_millis(12),
        }),
        verdict: Some(verdict),
        counted: true,
        queued: Duration::ZERO,
    };
    let report = FireReport {
        verdict: FoldedVerdict {
            decision: Some(Decision::Deny),
            reason: Some(reason.into()),
            decided_by: Some(p),
            short_circuited: true,
            ..FoldedVerdict::default()
        },
        runs: vec![run],
        duration: Duration::from_millis(13),
    };
    (env, report)
}

fn fire_record(reason: &str) -> AuditRecord {
    let (env, report) = denied(reason);
    AuditRecord::Fire(FireRecord::new(&env, &report, Some(7)))
}

fn log_at(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("logs/audit.jsonl")
}

#[test]
fn a_fire_record_carries_the_verdict_its_decider_and_every_hooks_outcome() {
    let AuditRecord::Fire(r) = fire_record("no pushes") else { unreachable!() };
    assert_eq!(r.audit, AUDIT_SCHEMA);
    assert_eq!(r.event, "pre_tool_use");
    assert_eq!(r.session.as_deref(), Some("s-1"));
    assert_eq!(r.revision, Some(7));
    assert_eq!(r.decision, Some(Decision::Deny));
    assert_eq!(r.reason.as_deref(), Some("no pushes"));
    let by = r.decided_by.expect("a decider");
    assert_eq!((by.hook.as_str(), by.line), ("deny", Some(3)));
    assert_eq!(by.file, PathBuf::from("/p/.cursor/hooks.json"));
    let [h] = r.hooks.as_slice() else { panic!("one hook: {:?}", r.hooks) };
    assert_eq!(h.source_kind, "project_cursor_file");
    assert_eq!((h.status.as_str(), h.mode.as_str()), ("ran", "blocking"));
    assert_eq!((h.decision, h.exit_code, h.capped), (Some(Decision::Deny), Some(0), true));
    assert_eq!(h.duration_ms, Some(12.0));
    assert!(
        r.time.ends_with('Z') && r.time.len() == "2026-12-02T00:00:00.000Z".len(),
        "{}",
        r.time
    );
}

#[test]
fn records_are_appended_as_one_line_each_and_read_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::open(AuditConfig::new(log_at(&dir))).unwrap();
    let guard = AuditRecord::Guard(GuardRecord::new(
        &[PathBuf::from(".cursor/hooks.json")],
        std::path::Path::new("/p"),
        &hooks_guard::GuardDecision::Allowed,
        Some(4),
    ));
    log.try_append(&fire_record("a\nmultiline reason")).unwrap();
    log.try_append(&guard).unwrap();
    let text = std::fs::read_to_string(log_at(&dir)).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    let read = read_records(&log_at(&dir)).unwrap();
    assert_eq!(read.unreadable, 0);
    assert_eq!(
        read.records,
        vec![fire_record_like(&read.records[0]), guard_like(&read.records[1], &guard)]
    );
    let AuditRecord::Fire(f) = &read.records[0] else { panic!() };
    assert_eq!(f.reason.as_deref(), Some("a\nmultiline reason"));
}

/// The records are equal but for their time.
fn fire_record_like(read: &AuditRecord) -> AuditRecord {
    let (AuditRecord::Fire(mut expected), AuditRecord::Fire(r)) =
        (fire_record("a\nmultiline reason"), read)
    else {
        panic!("a fire record: {read:?}")
    };
    expected.time = r.time.clone();
    AuditRecord::Fire(expected)
}

fn guard_like(read: &AuditRecord, written: &AuditRecord) -> AuditRecord {
    assert_eq!(read, written);
    written.clone()
}

#[test]
fn a_torn_last_line_is_skipped_by_readers_and_cut_off_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = log_at(&dir);
    let log = AuditLog::open(AuditConfig::new(&path)).unwrap();
    log.try_append(&fire_record("one")).unwrap();
    drop(log);
    let whole = std::fs::read(&path).unwrap();
    // A writer killed mid-write: half of a second record, no newline.
    let line = serde_json::to_vec(&fire_record("two")).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(&line[..line.len() / 2])
        .unwrap();

    let read = read_records(&path).unwrap();
    assert_eq!((read.records.len(), read.unreadable), (1, 1));

    let log = AuditLog::open(AuditConfig::new(&path)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), whole, "the torn line is cut off at open");
    log.try_append(&fire_record("three")).unwrap();
    let read = read_records(&path).unwrap();
    assert_eq!((read.records.len(), read.unreadable), (2, 0));
}

#[test]
fn a_torn_line_left_by_another_writer_is_cut_off_before_the_next_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = log_at(&dir);
    let log = AuditLog::open(AuditConfig::new(&path)).unwrap();
    log.try_append(&fire_record("one")).unwrap();
    // Another engine sharing the file dies mid-write while this one stays open.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"{\"kind\":\"fire\",\"aud")
        .unwrap();
    log.try_append(&fire_record("two")).unwrap();
    let read = read_records(&path).unwrap();
    assert_eq!((read.records.len(), read.unreadable), (2, 0));
}

#[test]
fn the_log_rotates_by_size_and_keeps_the_configured_number_of_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = log_at(&dir);
    let one = serde_json::to_vec(&fire_record("r")).unwrap().len() as u64 + 1;
    let config = AuditConfig { path: path.clone(), max_bytes: one * 2 + one / 2, keep: 2 };
    let log = AuditLog::open(config).unwrap();
    for _ in 0..9 {
        log.try_append(&fire_record("r")).unwrap();
    }
    let numbered = |n: u32| PathBuf::from(format!("{}.{n}", path.display()));
    let count = |p: &std::path::Path| read_records(p).unwrap().records.len();
    // 9 records, 2 per file: the live file holds the ninth, .1 and .2 two each; older ones
    // were dropped.
    assert_eq!((count(&path), count(&numbered(1)), count(&numbered(2))), (1, 2, 2));
    assert!(!numbered(3).exists());
    for p in [path.clone(), numbered(1), numbered(2)] {
        assert!(std::fs::metadata(&p).unwrap().len() <= one * 2 + one / 2, "{}", p.display());
    }
}

#[test]
fn an_overlong_or_foreign_line_is_counted_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    let mut text = String::from("{\"kind\":\"something_new\",\"audit\":2}\nnot json\n");
    text.push_str(&"x".repeat(MAX_RECORD_BYTES + 10));
    text.push('\n');
    text.push_str(&serde_json::to_string(&fire_record("ok")).unwrap());
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let read = read_records(&path).unwrap();
    assert_eq!((read.records.len(), read.unreadable), (1, 3));
}

/// A path that is not UTF-8 (a file name an agent made up, or a folder's) does not cost the
/// record: it is written with U+FFFD where the bytes are invalid, as the listings show such a
/// path, and read back. An agent could otherwise keep its refused edits out of the log by
/// naming them so.
#[test]
fn a_path_that_is_not_utf8_is_written_not_dropped() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::open(AuditConfig::new(log_at(&dir))).unwrap();
    let odd = PathBuf::from(std::ffi::OsStr::from_bytes(b"/p/bad\xffname/.cursor/hooks.json"));
    let guard = AuditRecord::Guard(GuardRecord::new(
        std::slice::from_ref(&odd),
        std::path::Path::new(std::ffi::OsStr::from_bytes(b"/p/bad\xffname")),
        &hooks_guard::GuardDecision::Unresolved(vec![hooks_guard::UnresolvedPath {
            requested: odd.clone(),
            error: hooks_guard::GuardError::RelativeSessionCwd {
                path: odd.clone(),
                cwd: PathBuf::from("."),
            },
        }]),
        Some(1),
    ));
    log.try_append(&guard).expect("written");
    assert_eq!(log.failures(), 0);
    let read = read_records(&log_at(&dir)).unwrap();
    assert_eq!(read.unreadable, 0);
    let [AuditRecord::Guard(g)] = read.records.as_slice() else { panic!("{read:?}") };
    assert_eq!(g.paths, [PathBuf::from("/p/bad\u{fffd}name/.cursor/hooks.json")]);
    assert_eq!(g.cwd, PathBuf::from("/p/bad\u{fffd}name"));
    assert_eq!(g.unresolved, g.paths);
    assert_eq!(g.decision, "unresolved");
}
