//! Hostile hooks through `Dispatcher::fire` with real scripts: fork storms, closed stdout, one enormous line, two JSON objects, escaped process groups, and hooks that outlive the engine.
//!
//! Every script writes the PIDs it creates to `pids` in its folder; after the fire (or the
//! engine's end) each PID is checked in `/proc` until it is gone or a bound passes. A zombie
//! counts as gone: this container's PID 1 does not reap orphans, and a zombie runs nothing.
//! Readiness is signalled through a FIFO the script writes to, so no test sleeps to wait for a
//! process. A process that left its group (`setsid`, `setpgid`) cannot hold a fire open (the
//! pipe grace bounds it) and is killed through its inherited environment tag when the
//! dispatcher is dropped; one that also cleared its environment escapes, and the test names
//! that limitation and kills what it started itself (`specs/hardening.md`, F4). A hook
//! running when the engine process dies without unwinding is killed with its group, and its
//! escaped processes by their tag, by the dispatcher's reaper process.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    sync::{Arc, mpsc},
    time::{Duration, Instant},
};

use hooks_dispatch::{
    Containment, CpuMax, DispatchConfig, Dispatcher, Enforcement, FireContext, FireReport,
    HookLimits, LimitsVia, Mechanism, Resource,
};
use hooks_registry::canonicalize;
use hooks_schema::{
    AbsPathBuf, Binding, Decision, Envelope, HookEvent, HookSourceKind, ToolCall, ToolKind,
};
use serde_json::json;

use crate::support::{TestDir, peak_rss_kib, project_bindings};

/// How long a PID may take to disappear after the engine is done with it.
const GONE_WITHIN: Duration = Duration::from_secs(5);

/// The containment mechanisms this machine allows, each with a configuration that asks for it.
/// Every mechanism it does not allow is reported on stderr with the reason (and fails the
/// calling test when `AGENT_HOOKS_REQUIRE_MECHANISMS` names it, comma-separated, for a CI
/// machine known to allow it).
pub(crate) fn mechanisms() -> Vec<(Mechanism, DispatchConfig)> {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let required = std::env::var("AGENT_HOOKS_REQUIRE_MECHANISMS").unwrap_or_default();
    let mut out = Vec::new();
    for m in Mechanism::ALL {
        let cfg = DispatchConfig {
            containment: Containment::parse(m.as_str()).expect("a mechanism name"),
            ..DispatchConfig::default()
        };
        let report = Dispatcher::new(cfg.clone()).containment();
        if report.mechanism == m {
            out.push((m, cfg));
            continue;
        }
        let why = report.fallback.unwrap_or_default();
        eprintln!("containment mechanism {m} is not available on this machine, not tested: {why}");
        assert!(
            !required.split(',').any(|r| r.trim() == m.as_str()),
            "{m} is required by AGENT_HOOKS_REQUIRE_MECHANISMS: {why}"
        );
    }
    out
}

/// A hook folder: the script, its PID file and its readiness FIFO.
struct HookDir {
    dir: TestDir,
    root: AbsPathBuf,
}

impl HookDir {
    fn new() -> HookDir {
        let dir = TestDir::new();
        let root = canonicalize(dir.path()).expect("canonical");
        HookDir { dir, root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.as_path().join(rel)
    }

    /// Writes `hook.sh` and a Cursor file running it on `beforeShellExecution`.
    fn cursor(&self, script: &str, timeout_s: f64, fail_closed: bool) -> Vec<Binding> {
        self.dir.script("hook.sh", &format!("#!/bin/sh\n{script}\n"));
        let text = json!({"version": 1, "hooks": {"beforeShellExecution": [
            {"command": "./hook.sh", "timeout": timeout_s, "failClosed": fail_closed}
        ]}})
        .to_string();
        let file = self.dir.write(".cursor/hooks.json", &text);
        let parsed = hooks_format_cursor::parse(text.as_bytes(), &file).expect("valid file");
        self.bind(hooks_format_cursor::PROJECT_FILE, &file, parsed.definitions)
    }

    /// Writes a Claude Code settings file whose `PreToolUse` hook runs `script`.
    fn claude(&self, script: &str) -> Vec<Binding> {
        self.dir.script("hook.sh", &format!("#!/bin/sh\n{script}\n"));
        let text = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "./hook.sh", "timeout": 5}
        ]}]}})
        .to_string();
        let file = self.dir.write(".claude/settings.json", &text);
        let parsed = hooks_format_claude::parse(
            text.as_bytes(),
            &file,
            hooks_format_claude::ClaudeMode::Default,
        )
        .expect("valid file");
        self.bind(hooks_format_claude::PROJECT_SETTINGS, &file, parsed.definitions)
    }

    /// Writes a Chrys file with one `before_tool_call` hook in `mode` running `script`.
    fn chrys(&self, script: &str, mode: &str, detach: bool) -> Vec<Binding> {
        self.dir.script("hook.sh", &format!("#!/bin/sh\n{script}\n"));
        let text = format!(
            "hooks:\n  - id: h\n    event: before_tool_call\n    run: {{type: shell, shell: ./hook.sh}}\n    execution: {{mode: {mode}, detach: {detach}, timeout_seconds: 30}}\n"
        );
        let file = self.dir.write(".chrys/hooks/hooks.yaml", &text);
        let parsed = hooks_format_chrys::parse(text.as_bytes(), &file).expect("valid file");
        self.bind(hooks_format_chrys::PROJECT_FILE, &file, parsed.definitions)
    }

    fn bind(
        &self,
        kind: HookSourceKind,
        file: &Path,
        definitions: Vec<hooks_schema::HookDefinition>,
    ) -> Vec<Binding> {
        assert!(!definitions.is_empty());
        project_bindings(kind, file, self.root.as_path(), definitions)
    }

    /// Makes the `ready` FIFO the script announces itself through.
    fn ready_fifo(&self) -> PathBuf {
        let p = self.path("ready");
        let ok = Command::new("mkfifo").arg(&p).status().expect("mkfifo").success();
        assert!(ok, "mkfifo");
        p
    }

    /// The PIDs the script recorded.
    fn pids(&self) -> Vec<u32> {
        fs::read_to_string(self.path("pids"))
            .unwrap_or_default()
            .split_whitespace()
            .map(|p| p.parse().expect("a pid"))
            .collect()
    }
}

impl Drop for HookDir {
    /// Kills whatever the script recorded that is still alive, so a failing test leaves
    /// nothing running either, and waits for it to go, reading the file again until it holds
    /// no live process (one may record itself meanwhile); then removes the folder, again when
    /// a process writing its PID as it went kept it from being removed (a folder holding only
    /// `pids` was once left behind).
    fn drop(&mut self) {
        for _ in 0..5 {
            let left: Vec<u32> = self.pids().into_iter().filter(|p| alive(*p)).collect();
            if left.is_empty() {
                break;
            }
            let _ = Command::new("kill").arg("-9").args(left.iter().map(u32::to_string)).status();
            let _ = survivors(&left, GONE_WITHIN);
        }
        for _ in 0..3 {
            match fs::remove_dir_all(self.dir.path()) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => continue,
                _ => break,
            }
        }
    }
}

/// Blocks until the script writes a line to its `ready` FIFO, at most 20 s.
fn wait_ready(fifo: PathBuf) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(fs::read_to_string(&fifo));
    });
    let got = rx.recv_timeout(Duration::from_secs(20)).expect("the hook announced itself");
    got.expect("read the ready fifo");
}

fn shell_call() -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.tool = Some(ToolCall {
        name: "run_shell_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    e
}

/// The fields of `/proc/<pid>/stat` after the command name's closing parenthesis (the state,
/// the parent, the group, …).
fn stat_fields(pid: u32) -> Vec<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rfind(')')
        .map(|i| stat[i + 1..].split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Whether `pid` is a live (non-zombie) process.
fn alive(pid: u32) -> bool {
    let fields = stat_fields(pid);
    !matches!(fields.first().map(String::as_str), Some("Z" | "X") | None)
}

/// The PIDs still alive after waiting up to `bound` for all of them to go. Each live one is
/// waited on through a pidfd, which becomes readable when the process has exited, so the time
/// a caller measures is the moment the last one went; where a pidfd cannot be had (a kernel
/// before 5.3), the bound is polled in 10 ms steps.
fn survivors(pids: &[u32], bound: Duration) -> Vec<u32> {
    use rustix::{
        event::{PollFd, PollFlags, Timespec, poll},
        process::{Pid, PidfdFlags, pidfd_open},
    };
    let deadline = Instant::now() + bound;
    let mut left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
    loop {
        left.retain(|p| alive(*p));
        let Some(&first) = left.first() else { return left };
        let now = Instant::now();
        if now >= deadline {
            return left;
        }
        let pidfd = i32::try_from(first)
            .ok()
            .and_then(Pid::from_raw)
            .and_then(|pid| pidfd_open(pid, PidfdFlags::empty()).ok());
        let step = match &pidfd {
            Some(_) => deadline - now,
            None => Duration::from_millis(10).min(deadline - now),
        };
        let timeout = Timespec {
            tv_sec: i64::try_from(step.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(step.subsec_nanos()),
        };
        match &pidfd {
            Some(fd) => {
                let _ = poll(&mut [PollFd::new(fd, PollFlags::IN)], Some(&timeout));
            }
            None => std::thread::sleep(step),
        }
    }
}

/// Kills processes this test started and the engine could not reach.
fn kill_leftovers(pids: &[u32]) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill").arg("-9").args(pids.iter().map(u32::to_string)).status();
    assert!(survivors(pids, GONE_WITHIN).is_empty(), "cleanup could not kill {pids:?}");
}

/// Whether this test has its process to itself: nextest runs one test per process and sets
/// `NEXTEST=1`.
fn runs_alone_in_its_process() -> bool {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let nextest = std::env::var_os("NEXTEST");
    nextest.is_some_and(|v| v == "1")
}

async fn fire_within(
    dispatcher: &Dispatcher,
    bindings: &[Binding],
    envelope: &Envelope,
    bound: Duration,
) -> (FireReport, Duration) {
    let started = Instant::now();
    let report =
        tokio::time::timeout(bound, dispatcher.fire(bindings, envelope, &FireContext::default()))
            .await
            .unwrap_or_else(|_| panic!("the fire did not return within {bound:?}"));
    (report, started.elapsed())
}

fn outcome(report: &FireReport) -> &hooks_schema::RawOutcome {
    report.runs.first().and_then(|r| r.outcome.as_ref()).expect("the hook ran")
}

#[tokio::test]
async fn a_hook_forking_many_children_that_hold_its_pipes_is_bounded_and_leaves_nothing() {
    let h = HookDir::new();
    let bindings = h.cursor(
        "echo $$ >> pids\nfor i in $(seq 1 200); do sleep 60 & echo $! >> pids; done\necho '{\"permission\":\"allow\"}'",
        10.0,
        false,
    );
    let d = Dispatcher::new(DispatchConfig::default());
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
    assert_eq!(report.verdict.decision, Some(Decision::Allow), "{:?}", report.runs);
    assert!(!outcome(&report).timed_out);
    assert!(took < Duration::from_secs(5), "bounded by the pipe grace, not the children: {took:?}");
    let pids = h.pids();
    assert_eq!(pids.len(), 201);
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{} children outlived the fire", left.len());
}

#[tokio::test]
async fn a_hook_forking_many_quiet_children_then_timing_out_leaves_nothing() {
    // The children closed the pipes, so only the timeout's group kill can reach them.
    let h = HookDir::new();
    let bindings = h.cursor(
        "echo $$ >> pids\nfor i in $(seq 1 200); do sleep 60 >/dev/null 2>&1 & echo $! >> pids; done\nsleep 60",
        1.0,
        true,
    );
    let d = Dispatcher::new(DispatchConfig::default());
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
    assert!(outcome(&report).timed_out);
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "failClosed: {:?}", report.verdict);
    assert!(took < Duration::from_secs(4), "timeout plus grace: {took:?}");
    let pids = h.pids();
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{} of {} outlived the timeout", left.len(), pids.len());
}

#[tokio::test]
async fn a_hook_that_closes_stdout_early_and_keeps_running_is_killed_at_its_timeout() {
    let h = HookDir::new();
    let bindings = h.cursor(
        "exec >&- 2>&- </dev/null\necho $$ >> pids\nsleep 60 &\necho $! >> pids\nwait",
        1.0,
        false,
    );
    let d = Dispatcher::new(DispatchConfig::default());
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
    let out = outcome(&report);
    assert!(out.timed_out, "{out:?}");
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(4), "{took:?}");
    assert_eq!(report.verdict.decision, None, "a timeout fails open without failClosed");
    let failure = report.runs[0].verdict.as_ref().and_then(|v| v.failure.clone());
    assert!(failure.is_some_and(|f| f.contains("timed out")), "{:?}", report.runs[0].verdict);
    let left = survivors(&h.pids(), GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test]
async fn a_hook_writing_one_enormous_line_is_capped_in_memory_and_time() {
    const SIZE: u64 = 64 * 1024 * 1024;
    let h = HookDir::new();
    let bindings = h.cursor(
        &format!("echo $$ >> pids\nhead -c {SIZE} /dev/zero | tr '\\0' x\nprintf '%s' '{{\"permission\":\"allow\"}}'"),
        20.0,
        false,
    );
    let cfg = DispatchConfig::default();
    let cap = cfg.stdout_cap;
    let d = Dispatcher::new(cfg);
    let before = peak_rss_kib();
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(30)).await;
    let grew = peak_rss_kib().saturating_sub(before);
    let out = outcome(&report);
    assert!(!out.timed_out, "{took:?}");
    assert_eq!(out.stdout.total_len, SIZE + 22, "every byte was counted");
    assert!(out.stdout.truncated);
    assert!(out.stdout.bytes.len() <= cap + 256, "kept {} bytes", out.stdout.bytes.len());
    // The peak is per process: meaningful when the test runs alone in it (nextest), not
    // among other tests' threads (`cargo test`).
    if runs_alone_in_its_process() {
        assert!(grew < 48 * 1024, "peak memory grew by {grew} KiB for a {SIZE}-byte line");
    }
    // The allow at the end of the one line is not an object on a line of its own: the
    // output is invalid, a failure that fails open; nothing is allowed by it.
    assert_eq!(report.verdict.decision, None, "{:?}", report.runs[0].verdict);
    let failure = report.runs[0].verdict.as_ref().and_then(|v| v.failure.clone());
    assert!(failure.is_some_and(|f| f.contains("invalid JSON")), "{:?}", report.runs[0].verdict);
    assert!(survivors(&h.pids(), GONE_WITHIN).is_empty());
}

#[tokio::test]
async fn a_hook_printing_two_json_objects_is_read_by_its_format_s_rule_and_never_allows_past_a_deny()
 {
    let d = Dispatcher::new(DispatchConfig::default());
    // Cursor: output that is not one object is noisy, and only its strictest restriction
    // counts (`specs/formats/cursor.md`, shell-profile noise), in whatever order.
    for (script, expected) in [
        (
            "echo '{\"permission\":\"deny\",\"user_message\":\"no\"}'; echo '{\"permission\":\"allow\"}'",
            Some(Decision::Deny),
        ),
        (
            "echo '{\"permission\":\"allow\"}'; echo '{\"permission\":\"deny\"}'",
            Some(Decision::Deny),
        ),
        ("printf '%s' '{\"permission\":\"allow\"}{\"permission\":\"deny\"}'", Some(Decision::Deny)),
        ("echo '{\"permission\":\"allow\"}'; echo '{\"permission\":\"allow\"}'", None),
    ] {
        let h = HookDir::new();
        let bindings = h.cursor(script, 5.0, false);
        let (report, _) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
        assert_eq!(
            report.verdict.decision, expected,
            "cursor {script}: {:?}",
            report.runs[0].verdict
        );
        let notes = report.runs[0].verdict.as_ref().map(|v| v.notes.clone()).unwrap_or_default();
        assert!(!notes.is_empty(), "cursor {script}: the ignored text is noted");
    }
    // Claude Code: stdout must be one JSON document; two are not JSON output at all.
    for script in [
        "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\"}}'",
        "echo '{\"decision\":\"approve\"}{\"decision\":\"block\",\"reason\":\"x\"}'",
    ] {
        let h = HookDir::new();
        let bindings = h.claude(script);
        let (report, _) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
        assert_ne!(
            report.verdict.decision,
            Some(Decision::Allow),
            "claude {script}: two documents are not an allow: {:?}",
            report.runs[0].verdict
        );
    }
}

#[tokio::test]
async fn a_process_out_of_reach_of_the_group_kill_cannot_hold_the_fire_open_and_ends_with_the_dispatcher()
 {
    // Finding F4, fixed: group kills cannot reach a process that moved to another group
    // (`setpgid`, as job control does) or session (`setsid`). The fire stays bounded (the pipe
    // grace, twice). With the cgroup mechanisms a process still holding the hook's pipes is in
    // the run's cgroup and dies with the pipe-grace kill; one that closed them lives on while
    // the dispatcher lives, like background work left in the group. With the process-group
    // mechanism both live on; they carry the dispatcher's environment tag, so dropping the
    // dispatcher finds them through `/proc` and kills them.
    for (mechanism, cfg) in mechanisms() {
        for (name, holds_pipes, script) in [
            (
                "setsid holding stdout",
                true,
                "setsid sh -c 'echo $$ >> pids; exec sleep 60' &\nwhile [ ! -s pids ]; do :; done\necho '{\"permission\":\"allow\"}'",
            ),
            (
                "setpgid holding stdout",
                true,
                "perl -e 'setpgrp(0, 0); exec \"sleep\", \"60\"' &\necho $! >> pids\necho '{\"permission\":\"allow\"}'",
            ),
            (
                "setsid quiet",
                false,
                "setsid sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\nwhile [ ! -s pids ]; do :; done\necho '{\"permission\":\"allow\"}'",
            ),
            (
                "setsid quiet, forking again",
                false,
                "setsid sh -c 'sleep 60 & echo $! >> pids; echo $$ >> pids; wait' >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids 2>/dev/null || echo 0)\" -lt 2 ]; do :; done\necho '{\"permission\":\"allow\"}'",
            ),
        ] {
            let name = format!("{mechanism}, {name}");
            let h = HookDir::new();
            let bindings = h.cursor(script, 10.0, false);
            let d = Dispatcher::new(cfg.clone());
            let (report, took) =
                fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
            assert!(took < Duration::from_secs(3), "{name}: bounded by the pipe grace: {took:?}");
            assert_eq!(report.verdict.decision, Some(Decision::Allow), "{name}: {:?}", report.runs);
            let pids = h.pids();
            assert!(!pids.is_empty(), "{name}");
            if mechanism.is_cgroup() && holds_pipes {
                let left = survivors(&pids, GONE_WITHIN);
                kill_leftovers(&left);
                assert!(left.is_empty(), "{name}: killed with the run's cgroup: {left:?}");
                continue;
            }
            assert!(pids.iter().all(|p| alive(*p)), "{name}: it lives while the dispatcher lives");
            drop(d);
            let left = survivors(&pids, GONE_WITHIN);
            kill_leftovers(&left);
            assert!(left.is_empty(), "{name}: {left:?} outlived the dispatcher");
        }
    }
}

#[tokio::test]
async fn a_process_that_leaves_its_group_and_clears_its_environment_ends_with_the_dispatcher_only_in_a_cgroup()
 {
    // The cgroup mechanisms hold it in the run's cgroup, whatever it did to its session and
    // environment, and the dispatcher's drop kills that cgroup. LIMITATION of the
    // process-group mechanism (specs/hardening.md, F4): its sweep finds escaped processes by
    // the environment they inherited, so one that left its group AND cleared its environment
    // (`env -i`) carries no tag and survives the dispatcher.
    for (mechanism, cfg) in mechanisms() {
        let h = HookDir::new();
        let bindings = h.cursor(
            "setsid env -i sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\nwhile [ ! -s pids ]; do :; done\necho '{\"permission\":\"allow\"}'",
            10.0,
            false,
        );
        let d = Dispatcher::new(cfg);
        let (report, _) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
        assert_eq!(
            report.verdict.decision,
            Some(Decision::Allow),
            "{mechanism}: {:?}",
            report.runs
        );
        let pids = h.pids();
        assert_eq!(pids.len(), 1, "{mechanism}");
        assert!(alive(pids[0]), "{mechanism}: it lives while the dispatcher lives");
        drop(d);
        if mechanism.is_cgroup() {
            let left = survivors(&pids, GONE_WITHIN);
            kill_leftovers(&left);
            assert!(left.is_empty(), "{mechanism}: {left:?} outlived the dispatcher");
        } else {
            // Given the time a kill would take, it is still there: nothing killed it.
            let left = survivors(&pids, Duration::from_millis(300));
            assert_eq!(left, pids, "{mechanism}: the untagged escaped process survives");
            kill_leftovers(&left);
        }
    }
}

#[tokio::test]
async fn background_work_a_hook_leaves_in_its_group_lives_with_the_engine_and_ends_with_it() {
    // Not an escape: the child stays in the group but closed the pipes, and the hook exited
    // cleanly. Dispatch leaves such deliberate background work alone while the engine lives
    // (specs/dispatch.md) and kills what is left of the group when the dispatcher is dropped.
    let h = HookDir::new();
    let bindings = h.cursor(
        "sleep 60 >/dev/null 2>&1 </dev/null &\necho $! >> pids\necho '{\"permission\":\"allow\"}'",
        10.0,
        false,
    );
    let d = Dispatcher::new(DispatchConfig::default());
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(report.verdict.decision, Some(Decision::Allow), "{:?}", report.runs);
    let pids = h.pids();
    assert_eq!(pids.len(), 1);
    assert!(alive(pids[0]), "the background work runs on after the fire");
    drop(d);
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "nothing outlives the dispatcher: {left:?}");
}

#[test]
fn a_blocking_hook_cancelled_by_the_engine_shutting_down_leaves_nothing() {
    let h = HookDir::new();
    let ready = h.ready_fifo();
    let bindings = h.cursor(
        "echo $$ >> pids\nfor i in 1 2 3 4 5; do sleep 60 >/dev/null 2>&1 & echo $! >> pids; done\necho ready > ready\nsleep 60",
        60.0,
        false,
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let d = Arc::new(Dispatcher::new(DispatchConfig::default()));
    let task = {
        let d = Arc::clone(&d);
        rt.spawn(async move { d.fire(&bindings, &shell_call(), &FireContext::default()).await })
    };
    wait_ready(ready);
    let pids = h.pids();
    assert_eq!(pids.len(), 6);
    assert!(pids.iter().all(|p| alive(*p)));
    // the engine shuts down mid-fire: its runtime drops the fire's future
    rt.shutdown_timeout(Duration::from_secs(5));
    drop(task);
    drop(d);
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn background_hooks_are_killed_when_the_engine_drains_or_drops_them() {
    for mode in ["async", "fire_and_forget"] {
        let h = HookDir::new();
        let ready = h.ready_fifo();
        let bindings = h.chrys(
            "echo $$ >> pids\nsleep 60 &\necho $! >> pids\necho ready > ready\nwait",
            mode,
            false,
        );
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let d = Dispatcher::new(DispatchConfig::default());
        let report = rt.block_on(async {
            let (envelope, ctx) = (shell_call(), FireContext::default());
            let fire = d.fire(&bindings, &envelope, &ctx);
            tokio::time::timeout(Duration::from_secs(10), fire).await.expect("returns at once")
        });
        assert_eq!(report.verdict.decision, None, "{mode}: a background verdict never counts");
        assert_eq!(d.background_running(), 1, "{mode}");
        wait_ready(ready);
        let pids = h.pids();
        assert_eq!(pids.len(), 2, "{mode}");
        if mode == "async" {
            let drained = rt.block_on(d.drain(Duration::from_millis(100)));
            assert_eq!(drained.cancelled.len(), 1, "{mode}: {drained:?}");
            let left = survivors(&pids, GONE_WITHIN);
            kill_leftovers(&left);
            assert!(left.is_empty(), "{mode}: the drain killed the group: {left:?}");
            continue;
        }
        drop(d);
        drop(rt);
        let left = survivors(&pids, GONE_WITHIN);
        kill_leftovers(&left);
        assert!(left.is_empty(), "{mode}: {left:?}");
    }
}

/// The environment variable naming the hook folder the dying-engine child fires in.
const DYING_VAR: &str = "HOOKS_IT_DYING_ENGINE_DIR";

/// The environment variable naming the containment mechanism the dying-engine child uses.
const DYING_MECHANISM_VAR: &str = "HOOKS_IT_DYING_ENGINE_MECHANISM";

/// The environment variable naming a cgroup parent the dying-engine child plans its cgroup
/// tree in and cannot use (so `auto` falls back to a mechanism without a cgroup).
const DYING_PARENT_VAR: &str = "HOOKS_IT_DYING_ENGINE_CGROUP_PARENT";

/// Not a test by itself: the child-process half of
/// [`a_hook_running_when_the_engine_process_dies_is_killed_with_its_group`]. Does nothing
/// unless `HOOKS_IT_DYING_ENGINE_DIR` is set; then it fires the folder's hook and waits to be
/// killed.
#[test]
fn dying_engine_child_entry() {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let Some(dir) = std::env::var_os(DYING_VAR) else { return };
    let root = canonicalize(Path::new(&dir)).expect("canonical");
    let file = root.as_path().join(".cursor/hooks.json");
    let text = fs::read(&file).expect("hooks.json");
    let parsed = hooks_format_cursor::parse(&text, &file).expect("valid");
    let bindings = project_bindings(
        hooks_format_cursor::PROJECT_FILE,
        &file,
        root.as_path(),
        parsed.definitions,
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let mechanism = std::env::var(DYING_MECHANISM_VAR).unwrap_or_else(|_| "auto".to_owned());
    let containment = Containment::parse(&mechanism).expect("a mechanism name");
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let cgroup_parent = std::env::var_os(DYING_PARENT_VAR).map(PathBuf::from);
    let unusable_parent = cgroup_parent.is_some();
    let d = Arc::new(Dispatcher::new(DispatchConfig {
        containment,
        cgroup_parent,
        ..DispatchConfig::default()
    }));
    // With an unusable parent nothing asks for the containment before the fire, as in a
    // one-shot engine: the first run plans the cgroup tree, starts the reaper for it, then
    // falls back (the test's hook records that it runs without a cgroup).
    if !unusable_parent {
        assert_eq!(d.containment().fallback, None, "{mechanism} runs here");
    }
    let dd = Arc::clone(&d);
    rt.spawn(async move { dd.fire(&bindings, &shell_call(), &FireContext::default()).await });
    // The parent test SIGKILLs this process once the hook announced itself (no destructor, no
    // group kill runs); nothing is ever sent here.
    let (_keep, never) = mpsc::channel::<()>();
    let _ = never.recv_timeout(Duration::from_secs(60));
    std::process::exit(3);
}

/// Kills the child engine if the test fails before it does.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the test binary again as an engine that fires the folder's hook with `mechanism`,
/// waits until the hook announced itself, SIGKILLs the engine and returns the recorded PIDs.
fn kill_the_engine_mid_run(
    h: &HookDir,
    fifo: PathBuf,
    mechanism: Mechanism,
    expect: usize,
) -> Vec<u32> {
    kill_the_engine_mid_run_with(h, fifo, mechanism.as_str(), None, expect).0
}

/// [`kill_the_engine_mid_run`] with the mechanism's name and, when given, a cgroup parent the
/// engine cannot use; also returns how many reaper shells (`hooks-reaper`) the engine had
/// started while its hook ran.
fn kill_the_engine_mid_run_with(
    h: &HookDir,
    fifo: PathBuf,
    mechanism: &str,
    cgroup_parent: Option<&Path>,
    expect: usize,
) -> (Vec<u32>, usize) {
    let exe = std::env::current_exe().expect("test binary");
    let mut command = Command::new(exe);
    command
        .args([
            "--exact",
            "hostile_hooks::dying_engine_child_entry",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(DYING_VAR, h.root.as_path())
        .env(DYING_MECHANISM_VAR, mechanism)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Some(p) = cgroup_parent {
        command.env(DYING_PARENT_VAR, p);
    }
    let child = command.spawn().expect("run the child engine");
    let mut engine = KillOnDrop(child);
    wait_ready(fifo);
    let pids = h.pids();
    assert!(pids.len() >= expect, "{mechanism}: {pids:?}");
    assert!(
        pids.iter().take(expect).all(|p| alive(*p)),
        "{mechanism}: the hook runs while the engine lives"
    );
    let shells = reaper_shells_of(engine.0.id());
    // The engine dies without unwinding.
    engine.0.kill().expect("SIGKILL the engine");
    let status = engine.0.wait().expect("reap the engine");
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    (pids, shells)
}

/// How many children of `parent` run the reaper's script (its `$0` is `hooks-reaper`).
fn reaper_shells_of(parent: u32) -> usize {
    let Ok(dir) = fs::read_dir("/proc") else { return 0 };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let ppid = stat_fields(*pid).get(1).and_then(|p| p.parse().ok());
            ppid == Some(parent)
                && fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| c.split(|b| *b == 0).any(|a| a == b"hooks-reaper"))
        })
        .count()
}

/// An engine that planned its cgroup tree where it cannot make it (a container's read-only
/// cgroup mount; here a parent that does not exist) and fell back to a mechanism without a
/// cgroup: the hook running when the engine dies is ended by the engine's own reaper process,
/// which took the registrations when the run registered its group; no reaper shell ran.
#[test]
fn an_engine_that_fell_back_from_its_cgroup_leaves_nothing_and_starts_no_reaper_shell() {
    let h = HookDir::new();
    let fifo = h.ready_fifo();
    // The engine's tag is handed out only to runs without a cgroup.
    h.cursor(
        "echo \"${AGENT_HOOKS_RUN:-none}\" > tag\necho $$ >> pids\nsleep 60 &\necho $! >> pids\nsetsid sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 3 ]; do :; done\necho ready > ready\nwait",
        30.0,
        false,
    );
    let parent = h.root.as_path().join("no-such-cgroup");
    let (pids, shells) = kill_the_engine_mid_run_with(&h, fifo, "auto", Some(&parent), 3);
    let tag = fs::read_to_string(h.root.as_path().join("tag")).expect("the hook's tag");
    assert_ne!(tag.trim(), "none", "the run fell back to a mechanism without a cgroup");
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{left:?} outlived the dead engine");
    assert_eq!(shells, 0, "the engine's own process took the registrations");
}

/// Findings F5 and F4, fixed, for every mechanism: a hook running when the engine process dies
/// without unwinding is killed with its group and everything it started, by the reaper
/// process (the cgroup tree's `cgroup.kill`; the first process's tree, the registered group
/// and the tag for the others). The hook's timeout is 30 s, so only the reaper can end them.
#[test]
fn a_hook_running_when_the_engine_process_dies_is_killed_with_its_group() {
    for (mechanism, _) in mechanisms() {
        let h = HookDir::new();
        let fifo = h.ready_fifo();
        // The leader, a background member of its group, a member in a sub-shell, two
        // processes that left the group with `setsid` (one holding the hook's pipes, one not),
        // and, except for the portable mechanism (which cannot find it: F4), one that left
        // its group and cleared its environment, double-forked.
        let escape = if mechanism.walks_the_tree() {
            "setsid env -i sh -c 'sh -c \"echo \\$\\$ >> pids; exec sleep 60\" & wait' >/dev/null 2>&1 </dev/null &\n"
        } else {
            "echo $$ >> pids\n"
        };
        h.cursor(
            &format!("echo $$ >> pids\nsleep 60 &\necho $! >> pids\n(sleep 60 & echo $! >> pids; wait) &\necho $! >> pids\nsetsid sh -c 'echo $$ >> pids; exec sleep 60' &\nsetsid sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\n{escape}while [ \"$(wc -l < pids)\" -lt 7 ]; do :; done\necho ready > ready\nwait"),
            30.0,
            false,
        );
        let pids = kill_the_engine_mid_run(&h, fifo, mechanism, 7);
        let left = survivors(&pids, GONE_WITHIN);
        kill_leftovers(&left);
        assert!(left.is_empty(), "{mechanism}: {left:?} outlived the dead engine");
    }
}

/// Issue 17: a descendant that left its group and keeps re-forking (PID hopping: each
/// generation starts the next and exits) must not survive the engine's death. For every
/// mechanism; the hopper keeps its environment (with the portable mechanism, the tag and its
/// group are what find it).
#[test]
fn a_pid_hopping_descendant_does_not_survive_the_engine_being_killed() {
    for (mechanism, _) in mechanisms() {
        let h = HookDir::new();
        let fifo = h.ready_fifo();
        h.dir.script("hop.sh", "#!/bin/sh\necho $$ >> \"$1\"\n\"$0\" \"$1\" &\nexit 0\n");
        h.cursor(
            "echo $$ >> pids\nsetsid ./hop.sh \"$PWD/pids\" >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 20 ]; do :; done\necho ready > ready\nexec sleep 60",
            30.0,
            false,
        );
        let _ = kill_the_engine_mid_run(&h, fifo, mechanism, 1);
        assert_hopping_ended(&h, &format!("{mechanism}, engine killed"));
    }
}

/// Issue 17, clean shutdown: the hook exits at once and leaves a PID-hopping descendant
/// outside its group; dropping the dispatcher ends it (the run's cgroup; the tag and the
/// hopper's group for the others).
#[tokio::test]
async fn a_pid_hopping_descendant_does_not_survive_a_clean_shutdown() {
    for (mechanism, cfg) in mechanisms() {
        let h = HookDir::new();
        h.dir.script("hop.sh", "#!/bin/sh\necho $$ >> \"$1\"\n\"$0\" \"$1\" &\nexit 0\n");
        let bindings = h.cursor(
            "setsid ./hop.sh \"$PWD/pids\" >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids 2>/dev/null || echo 0)\" -lt 20 ]; do :; done\necho '{\"permission\":\"allow\"}'",
            10.0,
            false,
        );
        let d = Dispatcher::new(cfg);
        let (report, _) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(10)).await;
        assert_eq!(
            report.verdict.decision,
            Some(Decision::Allow),
            "{mechanism}: {:?}",
            report.runs
        );
        drop(d);
        assert_hopping_ended(&h, &format!("{mechanism}, clean shutdown"));
    }
}

/// Within [`GONE_WITHIN`], every recorded generation of the hopper is gone and no new one
/// appears for 300 ms.
///
/// Every recorded generation being dead is not enough on its own: each generation exits right
/// after forking the next, which records itself only once its shell has started, so a live
/// hopper often has no live recorded generation for a moment.
fn assert_hopping_ended(h: &HookDir, name: &str) {
    let deadline = Instant::now() + GONE_WITHIN;
    loop {
        let pids = h.pids();
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() {
            let n = pids.len();
            std::thread::sleep(Duration::from_millis(300));
            if h.pids().len() == n {
                return;
            }
        }
        if Instant::now() >= deadline {
            let pids = h.pids();
            let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
            kill_leftovers(&left);
            // The hopper's generations share its first one's group (the first or second
            // recorded pid, after the hook's own in the engine-killed case).
            for g in pids.iter().take(2) {
                let _ = Command::new("kill").args(["-9", "--", &format!("-{g}")]).status();
            }
            panic!(
                "{name}: the hopper went on for {GONE_WITHIN:?} ({} generations; alive: {left:?})",
                pids.len()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// One hostile hook of issue 21: what it does after announcing its PIDs, and how many PIDs
/// the test waits for before the timeout.
struct Hostile {
    name: &'static str,
    script: String,
    /// The mechanisms that cannot hold it within the timeout (the portable one cannot see a
    /// process that left its group before the dispatcher's drop), with why.
    beyond: Option<&'static str>,
}

/// `cgroups`: the folders above the engine's trees (cgroup v2 and the v1 hierarchies of its
/// limits), where a hook that may write their `cgroup.procs` can move itself.
fn hostile_scripts(cgroups: &[PathBuf]) -> Vec<Hostile> {
    let procs = cgroups
        .iter()
        .map(|c| format!("'{}'", c.join("cgroup.procs").display()))
        .collect::<Vec<_>>()
        .join(" ");
    // Without a cgroup tree the hook has nowhere to move.
    let procs = if procs.is_empty() { "/nonexistent/cgroup.procs".to_owned() } else { procs };
    vec![
        Hostile {
            name: "setsid env -i double fork",
            script: "setsid env -i /bin/sh -c 'sh -c \"echo \\$\\$ >> pids; exec sleep 60\" & echo $$ >> pids' >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 3 ]; do :; done\nexec sleep 60".to_owned(),
            beyond: Some("it carries no tag and is in no group the engine knows (F4)"),
        },
        Hostile {
            name: "PID hopping after setsid",
            script: "setsid ./hop.sh \"$PWD/pids\" >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 20 ]; do :; done\nexec sleep 60".to_owned(),
            beyond: Some("it left the group; its tag is swept only at the dispatcher's drop"),
        },
        Hostile {
            name: "fork storm (200 processes at most, for a shared machine)",
            script: "i=0\nwhile [ $i -lt 200 ]; do sleep 60 & echo $! >> pids; i=$((i + 1)); done &\nwhile [ \"$(wc -l < pids)\" -lt 50 ]; do :; done\nexec sleep 60".to_owned(),
            beyond: None,
        },
        Hostile {
            name: "memory hog (256 MiB at most)",
            script: "setsid env -i python3 -c 'import os, time\nopen(\"pids\", \"a\").write(str(os.getpid()) + \"\\n\")\na = []\nfor i in range(16):\n    a.append(bytearray(16 << 20))\n    time.sleep(0.01)\ntime.sleep(60)' >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 2 ]; do :; done\nexec sleep 60".to_owned(),
            beyond: Some("it left the group and cleared its environment (F4)"),
        },
        Hostile {
            name: "changes its cgroup if it can",
            script: format!("for f in {procs}; do echo $$ > \"$f\" 2>/dev/null && echo \"$f\" >> moved; done\nsetsid env -i /bin/sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\nwhile [ \"$(wc -l < pids)\" -lt 2 ]; do :; done\nexec sleep 60"),
            beyond: Some("it left the group and cleared its environment (F4)"),
        },
    ]
}

/// Issue 21: each hostile hook ends within its timeout + 100 ms with nothing left, on every
/// mechanism this machine allows; the portable process-group mechanism is held to what it
/// documents (F4) and the rest is reported. `kill_grace` is zero, so the kill is due at the
/// timeout itself.
#[tokio::test]
async fn hostile_hooks_end_within_their_timeout_with_nothing_left() {
    const TIMEOUT: Duration = Duration::from_secs(1);
    let mut figures = Vec::new();
    for (mechanism, cfg) in mechanisms() {
        let cfg = DispatchConfig { kill_grace: Duration::ZERO, ..cfg };
        let d = Dispatcher::new(cfg.clone());
        let report = d.containment();
        let cgroups: Vec<PathBuf> = report
            .cgroup
            .iter()
            .chain(&report.limit_cgroups)
            .filter_map(|t| t.parent().map(Path::to_owned))
            .collect();
        for hostile in hostile_scripts(&cgroups) {
            let name = format!("{mechanism}, {}", hostile.name);
            let h = HookDir::new();
            h.dir.script("hop.sh", "#!/bin/sh\necho $$ >> \"$1\"\n\"$0\" \"$1\" &\nexit 0\n");
            let bindings = h.cursor(
                &format!("echo $$ >> pids\n{}", hostile.script),
                TIMEOUT.as_secs_f64(),
                false,
            );
            let started = Instant::now();
            let waited = CpuWait::at(started + TIMEOUT);
            let (report, took) =
                fire_within(&d, &bindings, &shell_call(), Duration::from_secs(20)).await;
            assert!(outcome(&report).timed_out, "{name}: {:?}", report.runs);
            let pids = h.pids();
            if !mechanism.walks_the_tree()
                && let Some(why) = hostile.beyond
            {
                // The portable mechanism's documented limit: not held by the timeout.
                eprintln!("{name}: not held by its timeout with {mechanism}: {why}");
                kill_leftovers(&pids.iter().copied().filter(|p| alive(*p)).collect::<Vec<_>>());
                continue;
            }
            let left = survivors(&pids, GONE_WITHIN);
            let cleared = started.elapsed();
            kill_leftovers(&left);
            assert!(
                left.is_empty(),
                "{name}: {} of {} outlived the timeout",
                left.len(),
                pids.len()
            );
            // The timeout + 100 ms, with slack only while tasks waited for a CPU (see
            // `beyond_timeout`; figures in specs/hardening.md).
            let bound = TIMEOUT + beyond_timeout(&waited.await.expect("the pressure reading"));
            figures.push(format!(
                "{name}: {} processes, cleared {} ms after the fire began, fire returned after {} ms (bound {} ms)",
                pids.len(),
                cleared.as_millis(),
                took.as_millis(),
                bound.as_millis()
            ));
            assert!(
                cleared <= bound,
                "{name}: cleared {cleared:?} after the fire began, which returned after {took:?} (timeout {TIMEOUT:?}, bound {bound:?})"
            );
            if let Ok(moved) = fs::read_to_string(h.path("moved")) {
                eprintln!(
                    "{name}: the hook moved itself (and so its child) out of its cgroups, into {}",
                    moved.split_whitespace().collect::<Vec<_>>().join(", ")
                );
            }
        }
    }
    eprintln!("{}", figures.join("\n"));
}

/// Finding F3: a Chrys `regex` matcher that needs fancy-regex's backtracking engine (a
/// lookahead with a backreference) gives up at its backtrack limit on attacker-sized input.
/// Reading that as "no match" skipped the gating hook (a deny hook failed open); it now counts
/// as a match, as Claude's matcher does, so the hook runs and decides. Python's `re` would
/// match (slowly).
#[test]
fn a_chrys_regex_over_its_backtrack_limit_counts_as_a_match_so_its_hook_decides() {
    let yaml = "hooks:\n  - id: deny-rm\n    event: before_tool_call\n    match: {args: {command: {regex: '^(?!((\\w+)\\2?)*--dry-run).*rm -rf'}}}\n    run: {type: shell, shell: \"exit 2\"}\n    execution: {mode: blocking}\n";
    let parsed =
        hooks_format_chrys::parse(yaml.as_bytes(), Path::new("/r/.chrys/hooks/hooks.yaml"))
            .expect("parses");
    let matcher = &parsed.definitions[0].matcher;
    let call = |n: usize| {
        let mut e = shell_call();
        if let Some(tool) = e.tool.as_mut() {
            tool.args = json!({"command": format!("{} rm -rf /", "x".repeat(n))});
        }
        e
    };
    assert!(matcher.matches(&call(3)), "a short command matches, as in Python");
    let started = Instant::now();
    let long = matcher.matches(&call(24));
    assert!(started.elapsed() < Duration::from_secs(10), "the backtrack limit bounds the time");
    assert!(long, "finding F3, fixed: the spent budget counts as a match (Python would match)");
}

/// Finding F6: after a Chrys hook exits, dispatch reads its result file. A hook that replaced
/// that file with a FIFO made a blocking open wait for a writer that never comes, past every
/// timeout; the file is now opened without blocking and read only when it is a regular file.
#[test]
fn a_chrys_hook_that_turns_its_result_file_into_a_fifo_cannot_hang_the_fire() {
    // Finding F6, fixed: the result file is opened without blocking and read only when it is
    // a regular file.
    let h = HookDir::new();
    let bindings = h.chrys(
        "echo $$ >> pids\nrm -f \"$CHRYS_HOOK_RESULT\"\nmkfifo \"$CHRYS_HOOK_RESULT\"\necho \"$CHRYS_HOOK_RESULT\" > result-path",
        "blocking",
        false,
    );
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let rt =
            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let d = Dispatcher::new(DispatchConfig::default());
        let started = Instant::now();
        let report = rt.block_on(d.fire(&bindings, &shell_call(), &FireContext::default()));
        let _ = tx.send((report, started.elapsed()));
    });
    let released = rx.recv_timeout(Duration::from_secs(10));
    if released.is_err() {
        // Do not leave the thread blocked: be the writer it waits for, then fail.
        if let Ok(fifo) = fs::read_to_string(h.path("result-path"))
            && let Ok(w) = fs::OpenOptions::new().write(true).open(fifo.trim())
        {
            drop(w);
        }
        panic!("the fire waited on the FIFO");
    }
    let (report, _) = released.expect("checked above");
    // The thread's runtime, dropped as it ends, deletes the run's files (the FIFO among them):
    // a test process that ended first left them in the temporary folder.
    worker.join().expect("the fire's thread");
    assert_eq!(report.runs.len(), 1);
    assert!(outcome(&report).result_file.is_none(), "a FIFO is not read as a result");
    assert_ne!(report.verdict.decision, Some(Decision::Deny));
    assert!(survivors(&h.pids(), GONE_WITHIN).is_empty());
}

#[tokio::test]
async fn a_chrys_hook_that_links_its_result_file_to_an_endless_device_is_not_followed() {
    let h = HookDir::new();
    let bindings = h.chrys(
        "echo $$ >> pids\nrm -f \"$CHRYS_HOOK_RESULT\"\nln -s /dev/zero \"$CHRYS_HOOK_RESULT\"",
        "blocking",
        false,
    );
    let d = Dispatcher::new(DispatchConfig::default());
    let (report, took) = fire_within(&d, &bindings, &shell_call(), Duration::from_secs(20)).await;
    assert!(took < Duration::from_secs(10), "{took:?}");
    // The engine created the result file itself: a link in its place is never followed.
    assert!(outcome(&report).result_file.is_none());
    assert_ne!(report.verdict.decision, Some(Decision::Allow), "{:?}", report.runs[0].verdict);
}

/// Issue 21: `hooks serve` (the real command: this binary re-executed as `hooks serve
/// --stdio`, or the binary `HOOKS_IT_BIN` names) SIGKILLed while a hook runs leaves nothing of the hook: its group, a background
/// member, a process that left the group with `setsid` and, with every mechanism but the
/// portable one, a `setsid env -i` double fork. The mechanism is the one `serve` reports in
/// its `hello` (the machine's strongest); the hook's timeout is 30 s, so only the reaper can
/// end them.
#[test]
fn a_hook_running_when_hooks_serve_is_killed_leaves_nothing() {
    use std::io::{BufRead, BufReader, Write};
    let h = HookDir::new();
    let state = crate::support::TestDir::new();
    let child = crate::cli::hooks_command(&["serve", "--stdio"])
        .env("XDG_CONFIG_HOME", state.path())
        .env_remove("WARP_HOOK_DIRS")
        .current_dir(h.root.as_path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run hooks serve");
    let mut serve = KillOnDrop(child);
    let mut input = serve.0.stdin.take().expect("stdin");
    let (tx, lines) = mpsc::channel::<serde_json::Value>();
    let stdout = serve.0.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // The test harness's own header comes before the protocol.
            if let Ok(v) = serde_json::from_str(&line)
                && tx.send(v).is_err()
            {
                return;
            }
        }
    });
    let next = || lines.recv_timeout(Duration::from_secs(20)).expect("a message from serve");
    let hello = next();
    assert_eq!(hello["method"], "hello", "{hello}");
    let mechanism = hello["params"]["containment"]["mechanism"].as_str().expect("a mechanism");
    let walks = mechanism != Mechanism::ProcessGroup.as_str();
    let escape = if walks {
        "setsid env -i sh -c 'sh -c \"echo \\$\\$ >> pids; exec sleep 60\" & wait' >/dev/null 2>&1 </dev/null &\n"
    } else {
        "echo $$ >> pids\n"
    };
    let fifo = h.ready_fifo();
    h.cursor(
        &format!("echo $$ >> pids\nsleep 60 &\necho $! >> pids\nsetsid sh -c 'echo $$ >> pids; exec sleep 60' >/dev/null 2>&1 </dev/null &\n{escape}while [ \"$(wc -l < pids)\" -lt 4 ]; do :; done\necho ready > ready\nwait"),
        30.0,
        false,
    );
    let root = h.root.as_path();
    let envelope = json!({
        "event": "pre_tool_use",
        "session_id": "s-1",
        "cwd": root,
        "tool": { "name": "Shell", "kind": "shell", "call_id": "c-1", "args": { "command": "ls" } }
    });
    for (id, method, params) in [
        (1, "set_posture", json!({ "window": 1, "posture": "auto_approves" })),
        (2, "add_root", json!({ "root": root })),
        (3, "exchange_appended", json!({ "envelope": { "event": "session_start", "cwd": root } })),
        (4, "fire", json!({ "envelope": envelope })),
    ] {
        let line = json!({ "id": id, "method": method, "params": params });
        writeln!(input, "{line}").expect("write a request");
        input.flush().expect("flush");
        if id < 4 {
            let answer = loop {
                let m = next();
                if m["id"] == id {
                    break m;
                }
            };
            assert!(answer.get("error").is_none(), "{method}: {answer}");
        }
    }
    wait_ready(fifo);
    let pids = h.pids();
    assert_eq!(pids.len(), 4, "{mechanism}: {pids:?}");
    assert!(pids.iter().all(|p| alive(*p)), "{mechanism}: the hook runs while serve lives");
    serve.0.kill().expect("SIGKILL hooks serve");
    let status = serve.0.wait().expect("reap hooks serve");
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    drop(input);
    let left = survivors(&pids, GONE_WITHIN);
    kill_leftovers(&left);
    assert!(left.is_empty(), "{mechanism}: {left:?} outlived hooks serve");
}

/// The ways of enforcing limits this machine allows for `resource`, each with `cfg` asking
/// for it alone. Every way it does not allow is reported on stderr with the reason (and fails
/// the calling test when `AGENT_HOOKS_REQUIRE_LIMITS` names it, comma-separated, for a CI
/// machine known to allow it).
fn limit_ways(cfg: &DispatchConfig, resource: Resource) -> Vec<(Enforcement, DispatchConfig)> {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let required = std::env::var("AGENT_HOOKS_REQUIRE_LIMITS").unwrap_or_default();
    let mut out = Vec::new();
    for way in Enforcement::ALL {
        let cfg = DispatchConfig { limits_via: LimitsVia::Only(way), ..cfg.clone() };
        let report = Dispatcher::new(cfg.clone()).containment();
        if report.limits.iter().any(|l| l.resource == resource && l.via == way) {
            out.push((way, cfg));
            continue;
        }
        let why = report.limits_note.unwrap_or_default();
        eprintln!(
            "{resource} limits through {way} are not available with {}: {why}",
            report.mechanism
        );
        assert!(
            !required.split(',').any(|r| r.trim() == way.as_str()),
            "{way} is required by AGENT_HOOKS_REQUIRE_LIMITS: {why}"
        );
    }
    out
}

/// The live (non-zombie) processes whose working directory is `dir`: every process a hook
/// started there, whatever its group, session, environment or cgroup.
fn processes_in(dir: &Path) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|pid| fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c == dir))
        .filter(|pid| alive(*pid))
        .collect()
}

/// Samples [`processes_in`] until `stop` is set; returns the most seen at once.
fn sample_peak(
    dir: PathBuf,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut peak = 0;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            peak = peak.max(processes_in(&dir).len());
            std::thread::sleep(Duration::from_millis(2));
        }
        peak
    })
}

/// Waits until no process works in `dir`, at most `bound`; the time it took from `since`.
fn cleared_in(dir: &Path, since: Instant, bound: Duration) -> (Vec<u32>, Duration) {
    let deadline = Instant::now() + bound;
    loop {
        let left = processes_in(dir);
        if left.is_empty() || Instant::now() >= deadline {
            return (left, since.elapsed());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// What a hostile run may take beyond its timeout before nothing of it is left: the issue's
/// 100 ms, plus scheduling slack only where the machine is busy: the larger of the time during
/// which a runnable task waited for a CPU from the timeout `since` was read at to now (the
/// kernel's CPU pressure, `/proc/pressure/cpu`, "some") and 100 ms per runnable task per core
/// above one (the 1-minute load average over the cores); at most 900 ms. On an idle machine
/// nothing waits and the bound is the timeout + 100 ms. The figures that motivate the slack
/// (the engine's own work after a timeout is a few system calls per process, but the kernel's
/// teardown of hundreds of processes slows down on a busy 2-core machine, more than its CPU
/// pressure alone shows) are in `specs/hardening.md`, "Hostile hooks".
/// `HOSTILE_SLACK_MS` overrides the slack.
fn beyond_timeout(since: &CpuWait) -> Duration {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let forced = std::env::var("HOSTILE_SLACK_MS").ok().and_then(|v| v.parse::<u64>().ok());
    let slack = forced.unwrap_or_else(|| {
        let waited = match (since.0, CpuWait::now().0) {
            (Some(then), Some(now)) => now.saturating_sub(then) / 1000,
            _ => 0,
        };
        let load: f64 = fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().and_then(|v| v.parse().ok()))
            .unwrap_or(0.0);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        let queued = ((load / cores - 1.0).max(0.0) * 100.0) as u64;
        waited.max(queued).min(900)
    });
    Duration::from_millis(100 + slack)
}

/// The machine's CPU pressure counter: microseconds during which at least one runnable task
/// waited for a CPU, since boot (`None` where the kernel does not report pressure).
struct CpuWait(Option<u64>);

impl CpuWait {
    /// The counter as it reads at `when` (the run's timeout): what the hook's own processes
    /// made wait before then (a fork storm's forks) is not slack for clearing it.
    fn at(when: Instant) -> tokio::task::JoinHandle<Self> {
        tokio::spawn(async move {
            tokio::time::sleep_until(when.into()).await;
            CpuWait::now()
        })
    }

    fn now() -> Self {
        let text = fs::read_to_string("/proc/pressure/cpu").unwrap_or_default();
        CpuWait(
            text.lines()
                .find(|l| l.starts_with("some "))
                .and_then(|l| l.split_whitespace().find_map(|f| f.strip_prefix("total=")))
                .and_then(|v| v.parse().ok()),
        )
    }
}

/// Checks that a hostile run whose fire began `cleared` before nothing of it was left ended
/// within its `timeout` + [`beyond_timeout`] (the pressure read at the timeout, `waited`), and
/// returns its figures for the test's report.
async fn cleared_within_bound(
    name: &str,
    timeout: Duration,
    waited: tokio::task::JoinHandle<CpuWait>,
    took: Duration,
    cleared: Duration,
) -> String {
    let bound = timeout + beyond_timeout(&waited.await.expect("the pressure reading"));
    assert!(
        cleared <= bound,
        "{name}: cleared {cleared:?} after the fire began, which returned after {took:?} (timeout {timeout:?}, bound {bound:?})"
    );
    format!(
        "fire returned after {} ms, nothing left after {} ms (bound {} ms)",
        took.as_millis(),
        cleared.as_millis(),
        bound.as_millis()
    )
}

/// Issue 21: a fork bomb (`b() { b | b & }; b &`) is held to the run's pids limit (64 here) on
/// every containment mechanism and every way of enforcing the limit this machine allows, so
/// it never starves the machine (or the tests running beside it), and nothing of it is left
/// once its 1 s timeout has passed. Its CPU is held to half a core where a CPU limit can be
/// enforced for the whole run.
#[tokio::test]
async fn a_fork_bomb_is_held_to_the_pids_limit_and_ends_with_its_timeout() {
    const TIMEOUT: Duration = Duration::from_secs(1);
    const CAP: u64 = 64;
    let mut figures = Vec::new();
    for (mechanism, cfg) in mechanisms() {
        let cfg = DispatchConfig {
            kill_grace: Duration::ZERO,
            limits: HookLimits {
                memory_max: Some(256 << 20),
                pids_max: Some(CAP),
                cpu_max: Some(CpuMax { quota_us: 50_000, period_us: 100_000 }),
            },
            ..cfg
        };
        for (way, cfg) in limit_ways(&cfg, Resource::Pids) {
            let name = format!("{mechanism}, pids through {way}");
            let h = HookDir::new();
            // The first process forks once, before the bomb fills the cgroup, then waits in `sleep`.
            let bindings =
                h.cursor("b() { b | b & }\nb &\nexec sleep 60", TIMEOUT.as_secs_f64(), false);
            let d = Dispatcher::new(cfg);
            let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let sampler = sample_peak(h.root.as_path().to_owned(), stop.clone());
            let started = Instant::now();
            let waited = CpuWait::at(started + TIMEOUT);
            let (report, took) =
                fire_within(&d, &bindings, &shell_call(), Duration::from_secs(20)).await;
            let (left, cleared) = cleared_in(h.root.as_path(), started, GONE_WITHIN);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let peak = sampler.join().expect("the sampler");
            kill_leftovers(&left);
            assert!(outcome(&report).timed_out, "{name}: {:?}", report.runs);
            assert!(left.is_empty(), "{name}: {left:?} outlived the timeout");
            assert!(peak as u64 <= CAP, "{name}: {peak} processes at once, above the cap {CAP}");
            assert!(peak > 1, "{name}: the bomb never forked ({peak})");
            let stderr = String::from_utf8_lossy(&outcome(&report).stderr.bytes).to_lowercase();
            assert!(stderr.contains("fork"), "{name}: the bomb never met its cap: {stderr}");
            let timing = cleared_within_bound(&name, TIMEOUT, waited, took, cleared).await;
            figures.push(format!("{name}: peak {peak} processes, {timing}"));
        }
    }
    eprintln!("{}", figures.join("\n"));
}

/// Issue 21: a hook its CPU limit throttles (a busy loop held to 1 % of a core: 10 ms per
/// 1 s period) is gone at its timeout, on every containment mechanism and every way of
/// enforcing the CPU limit this machine allows. Its processes, sent SIGKILL while throttled,
/// would otherwise run (and die) only at the next period, up to 990 ms later: the engine lifts
/// the run's quota once the kill is sent.
#[tokio::test]
async fn a_hook_throttled_by_its_cpu_limit_is_gone_at_its_timeout() {
    const TIMEOUT: Duration = Duration::from_secs(1);
    let mut figures = Vec::new();
    for (mechanism, cfg) in mechanisms() {
        let cfg = DispatchConfig {
            kill_grace: Duration::ZERO,
            limits: HookLimits {
                cpu_max: Some(CpuMax { quota_us: 10_000, period_us: 1_000_000 }),
                ..HookLimits::UNLIMITED
            },
            ..cfg
        };
        for (way, cfg) in limit_ways(&cfg, Resource::Cpu) {
            let name = format!("{mechanism}, CPU through {way}");
            let h = HookDir::new();
            let bindings = h.cursor("while :; do :; done", TIMEOUT.as_secs_f64(), false);
            let d = Dispatcher::new(cfg);
            let started = Instant::now();
            let waited = CpuWait::at(started + TIMEOUT);
            let (report, took) =
                fire_within(&d, &bindings, &shell_call(), Duration::from_secs(20)).await;
            let (left, cleared) = cleared_in(h.root.as_path(), started, GONE_WITHIN);
            kill_leftovers(&left);
            // `RLIMIT_CPU` counts whole seconds of the process's own CPU time: here 1 s, the
            // timeout, so a busy loop may meet it (SIGXCPU) just before the timeout fires.
            // Ending by its limit before the timeout is within the promise.
            let o = outcome(&report);
            // SIGXCPU: 24 on Linux and on macOS.
            let sigxcpu = 24;
            let by_rlimit = way == Enforcement::Rlimit
                && matches!(o.exit, hooks_schema::ExitInfo::Signaled(s) if s == sigxcpu)
                    | matches!(o.exit, hooks_schema::ExitInfo::Exited(c) if c == 128 + sigxcpu);
            assert!(o.timed_out || by_rlimit, "{name}: {:?}", report.runs);
            assert!(left.is_empty(), "{name}: {left:?} outlived the timeout");
            let timing = cleared_within_bound(&name, TIMEOUT, waited, took, cleared).await;
            figures.push(format!("{name}: {timing}"));
        }
    }
    eprintln!("{}", figures.join("\n"));
}

/// Issue 21: a hook that doubles a string until it holds 256 MiB is stopped at its memory
/// limit (64 MiB here; out of memory, or its allocation refused) on every containment
/// mechanism and every way of enforcing the limit this machine allows, and nothing of it is
/// left within its timeout.
#[tokio::test]
async fn a_memory_hog_is_stopped_at_the_memory_limit_and_leaves_nothing() {
    const TIMEOUT: Duration = Duration::from_secs(5);
    const LIMIT: u64 = 64 << 20;
    let mut figures = Vec::new();
    for (mechanism, cfg) in mechanisms() {
        let cfg = DispatchConfig {
            kill_grace: Duration::ZERO,
            limits: HookLimits { memory_max: Some(LIMIT), pids_max: Some(64), cpu_max: None },
            ..cfg
        };
        for (way, cfg) in limit_ways(&cfg, Resource::Memory) {
            let name = format!("{mechanism}, memory through {way}");
            let h = HookDir::new();
            let bindings = h.cursor(
                "s=x\nwhile [ ${#s} -lt 268435456 ]; do s=\"$s$s\"; echo ${#s} > size; done\necho all > reached\nexec sleep 60",
                TIMEOUT.as_secs_f64(),
                false,
            );
            let d = Dispatcher::new(cfg);
            let started = Instant::now();
            let (report, took) =
                fire_within(&d, &bindings, &shell_call(), Duration::from_secs(20)).await;
            let (left, cleared) = cleared_in(h.root.as_path(), started, GONE_WITHIN);
            kill_leftovers(&left);
            let size: u64 = fs::read_to_string(h.path("size"))
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            assert!(!h.path("reached").exists(), "{name}: the hog reached 256 MiB");
            assert!(size <= LIMIT, "{name}: the hog held a {size}-byte string");
            assert!(size >= 1 << 20, "{name}: the hog barely started ({size} bytes)");
            assert!(!outcome(&report).timed_out, "{name}: it was not stopped: {:?}", report.runs);
            assert!(left.is_empty(), "{name}: {left:?} outlived the run");
            figures.push(format!(
                "{name}: stopped at a {} MiB string ({:?}), after {} ms, nothing left after {} ms",
                size >> 20,
                outcome(&report).exit,
                took.as_millis(),
                cleared.as_millis()
            ));
        }
    }
    eprintln!("{}", figures.join("\n"));
}
