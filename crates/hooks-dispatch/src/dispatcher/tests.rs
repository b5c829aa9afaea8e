//! Tests of firing: ordering, short-circuit, rewrites, concurrency, background modes, and
//! properties of the fold over real dispatch paths.

use std::{
    path::Path,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use hooks_schema::{
    ArgRewrite, Decision, Delivery, EncodeContext, Envelope, ExecutionMode, HookCodec,
    HookDefinition, HookEvent, HookVerdict, Invocation, MatchPredicate, Matcher, OnFailure,
    RawOutcome, SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::{
    DispatchConfig, Dispatcher, FireContext, RunStatus, SkipReason,
    testing::{assert_group_gone, binding, sh_def, tool_envelope},
};

fn dispatcher() -> Dispatcher {
    Dispatcher::new(DispatchConfig::default())
}

fn ctx() -> FireContext {
    FireContext::default()
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display())
}

#[tokio::test]
async fn a_deny_short_circuits_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let later = dir.path().join("later");
    let bg = dir.path().join("bg");
    let mut async_def = sh_def("bg", &format!("touch {}", quote(&bg)));
    async_def.mode = ExecutionMode::Async;
    let bindings = vec![
        binding(sh_def("allow", r#"echo '{"decision":"allow"}'"#), "/p/a.json"),
        binding(async_def, "/p/a.json"),
        binding(sh_def("deny", "echo 'no rm' >&2; exit 2"), "/p/a.json"),
        binding(sh_def("later", &format!("touch {}", quote(&later))), "/p/b.json"),
    ];
    let d = dispatcher();
    let report = d.fire(&bindings, &tool_envelope("rm -rf /"), &ctx()).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny));
    assert_eq!(report.verdict.reason.as_deref(), Some("no rm"));
    assert!(report.verdict.short_circuited);
    assert_eq!(report.verdict.decided_by.as_ref().unwrap().hook_id.as_str(), "deny");
    assert_eq!(report.deciding_run().unwrap().provenance.hook_id.as_str(), "deny");
    let statuses: Vec<(&str, &RunStatus)> =
        report.runs.iter().map(|r| (r.provenance.hook_id.as_str(), &r.status)).collect();
    assert_eq!(
        statuses,
        [
            ("allow", &RunStatus::Ran),
            ("deny", &RunStatus::Ran),
            ("later", &RunStatus::Skipped(SkipReason::ShortCircuited)),
            ("bg", &RunStatus::Skipped(SkipReason::ShortCircuited)),
        ]
    );
    assert!(!later.exists());
    assert_eq!(d.drain(Duration::from_secs(5)).await.finished.len(), 0);
    assert!(!bg.exists());
}

/// Matches when the tool call's `command` argument equals the text.
#[derive(Debug)]
struct CommandIs(&'static str);

impl MatchPredicate for CommandIs {
    fn matches(&self, e: &Envelope) -> bool {
        e.tool_args().and_then(|a| a.get("command")).and_then(Value::as_str) == Some(self.0)
    }
}

#[tokio::test]
async fn rewrites_apply_before_the_next_hook_matches_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen");
    let mut second = sh_def("second", &format!("cat > {}", quote(&seen)));
    second.matcher = Matcher::new("ls -la", Arc::new(CommandIs("ls -la")));
    let mut stale = sh_def("stale", "echo should-not-run");
    stale.matcher = Matcher::new("ls", Arc::new(CommandIs("ls")));
    let bindings = vec![
        binding(sh_def("first", r#"echo '{"merge":{"command":"ls -la"}}'"#), "/p/a.json"),
        binding(stale, "/p/a.json"),
        binding(second, "/p/a.json"),
    ];
    let report = dispatcher().fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    assert_eq!(report.verdict.updated_args, Some(json!({"command": "ls -la"})));
    assert_eq!(report.verdict.rewritten_by.len(), 1);
    assert_eq!(report.runs[1].status, RunStatus::Skipped(SkipReason::NoMatch));
    assert_eq!(report.runs[2].status, RunStatus::Ran);
    // The second hook received the rewritten envelope on stdin.
    let seen: Envelope = serde_json::from_slice(&std::fs::read(seen).unwrap()).unwrap();
    assert_eq!(seen.tool_args(), Some(&json!({"command": "ls -la"})));
}

#[tokio::test]
async fn disabled_and_other_event_bindings() {
    let mut off = sh_def("off", "exit 2");
    off.enabled = false;
    let mut other = sh_def("other", "exit 2");
    other.event = HookEvent::PostToolUse;
    let bindings = vec![binding(off, "/p/a.json"), binding(other, "/p/a.json")];
    let report = dispatcher().fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    assert_eq!(report.verdict.decision, None);
    assert_eq!(report.runs.len(), 1);
    assert_eq!(report.runs[0].status, RunStatus::Skipped(SkipReason::Disabled));
}

#[tokio::test]
async fn containment_is_resolved_at_the_first_run_only() {
    // Firing what runs nothing (a one-shot `hooks fire` whose event matches no hook) and
    // dropping the dispatcher probe nothing: no cgroup tree, no probe process.
    let d = dispatcher();
    let mut off = sh_def("off", "exit 2");
    off.enabled = false;
    let report = d.fire(&[binding(off, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    assert_eq!(report.runs[0].status, RunStatus::Skipped(SkipReason::Disabled));
    assert!(d.inner.lingering.resolved().is_none());
    // A hook that runs resolves it, and so is contained as before.
    let report =
        d.fire(&[binding(sh_def("on", "exit 0"), "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    assert_eq!(report.runs[0].status, RunStatus::Ran);
    let resolved = d.inner.lingering.resolved().expect("resolved by the run");
    assert_eq!(resolved.mechanism, d.containment().mechanism);
}

/// A clean run's process handles are closed once the next run's child has started, not before
/// its verdict; a cgroup the first hook left background work in is kept (not reused, not
/// killed, not even by the next run's settling), and the work still ends with the dispatcher.
#[tokio::test]
async fn a_clean_runs_handles_close_at_the_next_run_and_its_leftovers_end_with_the_dispatcher() {
    let d = dispatcher();
    let dir = tempfile::tempdir().expect("tempdir");
    let pid_file = dir.path().join("pid");
    let leave =
        format!("sleep 60 >/dev/null 2>&1 </dev/null &\necho $! > {}\nexit 0", quote(&pid_file));
    let report = d
        .fire(&[binding(sh_def("leave", &leave), "/p/a.json")], &tool_envelope("ls"), &ctx())
        .await;
    assert_eq!(report.runs[0].status, RunStatus::Ran);
    if !d.containment().mechanism.is_cgroup() {
        eprintln!("no cgroup mechanism here: {:?}", d.containment().unavailable);
        drop(d);
        return;
    }
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid");
    // Readable once the process has exited (a zombie included).
    let pidfd = rustix::process::pidfd_open(
        rustix::process::Pid::from_raw(pid).expect("a pid"),
        rustix::process::PidfdFlags::empty(),
    )
    .expect("pidfd_open");
    let exited_within = |ms: u16| {
        use std::os::fd::AsFd;
        let mut fds = [nix::poll::PollFd::new(pidfd.as_fd(), nix::poll::PollFlags::POLLIN)];
        nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(ms)).expect("poll") > 0
    };
    // Its process's handles are still to be closed; its cgroup, with the work in it, is kept.
    assert_eq!(d.inner.lingering.unsettled_and_kept(), (1, 1, 1));
    let report = d
        .fire(&[binding(sh_def("next", "exit 0"), "/p/a.json")], &tool_envelope("ls"), &ctx())
        .await;
    assert_eq!(report.runs[0].status, RunStatus::Ran);
    // The first run's handles are closed by the second, whose own wait; the cgroup stays kept.
    assert_eq!(d.inner.lingering.unsettled_and_kept(), (1, 1, 1));
    assert!(!exited_within(0), "settling kills nothing");
    drop(d);
    let gone = exited_within(5000);
    if !gone {
        let _ = rustix::process::pidfd_send_signal(&pidfd, rustix::process::Signal::KILL);
    }
    assert!(gone, "the background work outlived the dispatcher");
}

#[tokio::test]
async fn failures_follow_the_codec_and_on_failure() {
    let mut block = sh_def("block", "kill -KILL $$");
    block.on_failure = OnFailure::Block;
    let mut enc = sh_def("enc", "true");
    enc.native.insert("fail_encode".to_owned(), Value::Bool(true));
    let bindings = vec![binding(enc, "/p/a.json"), binding(block, "/p/a.json")];
    let report = dispatcher().fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    let enc_out = report.runs[0].outcome.as_ref().unwrap();
    assert!(
        matches!(&enc_out.exit, hooks_schema::ExitInfo::NotStarted(f) if f.kind == SpawnFailureKind::EncodeFailed)
    );
    assert_eq!(report.runs[0].verdict.as_ref().unwrap().failure.as_deref(), Some("launch_error"));
    assert_eq!(report.verdict.decision, Some(Decision::Deny));
    assert_eq!(report.verdict.reason.as_deref(), Some("hook 'block' failed (signal=9)"));
}

/// Hooks that can only finish when all `n` of them run at the same time.
fn rendezvous(dir: &Path, id: &str, n: usize) -> HookDefinition {
    let d = quote(dir);
    let mut def = sh_def(
        id,
        &format!(
            "touch {d}/{id}; i=0; while [ $(ls {d} | wc -l) -lt {n} ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; \
             [ $(ls {d} | wc -l) -ge {n} ] && echo '{{\"context\":\"{id}\"}}'"
        ),
    );
    def.event = HookEvent::TurnEnd;
    def
}

#[tokio::test]
async fn observer_hooks_run_concurrently_and_fold_in_binding_order() {
    let dir = tempfile::tempdir().unwrap();
    let ids = ["h0", "h1", "h2", "h3"];
    let bindings: Vec<_> =
        ids.iter().map(|id| binding(rendezvous(dir.path(), id, 4), "/p/a.json")).collect();
    let report = dispatcher().fire(&bindings, &Envelope::new(HookEvent::TurnEnd), &ctx()).await;
    let context: Vec<&str> = report.verdict.context.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(context, ids);
}

#[tokio::test]
async fn max_parallel_hooks_bounds_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let lock = quote(&dir.path().join("lock"));
    let bindings: Vec<_> = (0..4)
        .map(|i| {
            let mut d = sh_def(
                &format!("h{i}"),
                &format!("mkdir {lock} || {{ echo '{{\"context\":\"overlap\"}}'; exit 0; }}; sleep 0.05; rmdir {lock}"),
            );
            d.event = HookEvent::TurnEnd;
            binding(d, "/p/a.json")
        })
        .collect();
    let d = Dispatcher::new(DispatchConfig { max_parallel_hooks: 1, ..DispatchConfig::default() });
    let report = d.fire(&bindings, &Envelope::new(HookEvent::TurnEnd), &ctx()).await;
    assert!(report.runs.iter().all(|r| r.status == RunStatus::Ran));
    assert!(report.verdict.context.is_empty(), "{:?}", report.verdict.context);
}

/// A blocking turn-end hook that logs `start <id>` and `end <id>` to `<dir>/log` and, in
/// between, waits up to two seconds for hook `other` to be running too (it logs `saw <id>`
/// when it was): it ends at once when `other` has already finished, so hooks that run one
/// after the other cost one wait, and hooks that run together none.
fn overlap_probe(dir: &Path, id: &str, other: &str) -> HookDefinition {
    let d = quote(dir);
    let mut def = sh_def(
        id,
        &format!(
            "touch {d}/running-{id}; echo start {id} >> {d}/log; i=0; \
             while [ ! -e {d}/running-{other} ] && [ ! -e {d}/done-{other} ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done; \
             if [ -e {d}/running-{other} ]; then echo saw {id} >> {d}/log; fi; \
             echo end {id} >> {d}/log; rm {d}/running-{id}; touch {d}/done-{id}"
        ),
    );
    def.event = HookEvent::TurnEnd;
    def
}

/// Fires the two overlap probes `a` and `b` of a project rooted at `/p` with `settings` and
/// returns the log.
async fn probe_pair(settings: crate::RunSettingsTable) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let bindings: Vec<_> = [("a", "b"), ("b", "a")]
        .into_iter()
        .map(|(id, other)| {
            let mut b = binding(overlap_probe(dir.path(), id, other), "/p/.chrys/hooks/hooks.yaml");
            b.project_root = Some(hooks_schema::AbsPathBuf::new("/p".into()).unwrap());
            b
        })
        .collect();
    let ctx = FireContext { run_settings: Arc::new(settings), ..ctx() };
    let report = dispatcher().fire(&bindings, &Envelope::new(HookEvent::TurnEnd), &ctx).await;
    assert!(report.runs.iter().all(|r| r.status == RunStatus::Ran), "{:?}", report.runs);
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    log.lines().map(str::to_owned).collect()
}

/// A format's own `max_parallel` (Chrys's `settings: {max_parallel_hooks: 1}`) bounds its
/// hooks in the place it is set for: two blocking hooks of an observer event, which run at
/// once otherwise, run one after the other. Settings of another format or another place
/// change nothing.
#[tokio::test]
async fn a_formats_max_parallel_runs_its_blocking_hooks_one_after_the_other() {
    use hooks_schema::{FormatId, RunSettings};
    let one = RunSettings { max_parallel: Some(1), ..RunSettings::default() };
    let mut here = crate::RunSettingsTable::default();
    here.set(hooks_testing::TEST_FORMAT, Some("/p".into()), one);
    assert_eq!(probe_pair(here).await, ["start a", "end a", "start b", "end b"]);

    let two = RunSettings { max_parallel: Some(2), ..RunSettings::default() };
    let mut elsewhere = crate::RunSettingsTable::default();
    elsewhere.set(hooks_testing::TEST_FORMAT, Some("/q".into()), one);
    elsewhere.set(hooks_testing::TEST_FORMAT, None, one);
    elsewhere.set(FormatId::new("other"), Some("/p".into()), one);
    for table in [crate::RunSettingsTable::default(), elsewhere, {
        let mut t = crate::RunSettingsTable::default();
        t.set(hooks_testing::TEST_FORMAT, Some("/p".into()), two);
        t
    }] {
        let log = probe_pair(table.clone()).await;
        // One of them saw the other running: they ran at once.
        assert!(log.iter().any(|l| l.starts_with("saw ")), "{table:?}: {log:?}");
    }
}

#[tokio::test]
async fn parallel_gated_formats_fold_in_binding_order_whatever_finishes_first() {
    let bindings = vec![
        binding(
            sh_def("slow-deny", r#"sleep 0.2; echo '{"decision":"deny","reason":"slow"}'"#),
            "/p/a.json",
        ),
        binding(sh_def("fast-deny", r#"echo '{"decision":"deny","reason":"fast"}'"#), "/p/a.json"),
    ];
    let cfg = DispatchConfig {
        parallel_gated_formats: vec![hooks_testing::TEST_FORMAT],
        ..DispatchConfig::default()
    };
    let report = Dispatcher::new(cfg).fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("slow"));
    assert!(report.runs[0].counted);
    assert!(!report.runs[1].counted);
    assert_eq!(report.runs[1].status, RunStatus::Ran);
}

#[tokio::test]
async fn async_hooks_are_drained() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut def = sh_def("later", &format!("sleep 0.1; echo done > {}", quote(&out)));
    def.mode = ExecutionMode::Async;
    let d = dispatcher();
    let report = d.fire(&[binding(def, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    assert!(matches!(report.runs[0].status, RunStatus::Background { detached: false, .. }));
    let drained = d.drain(Duration::from_secs(10)).await;
    assert_eq!(drained.finished.len(), 1);
    assert!(drained.cancelled.is_empty());
    assert_eq!(std::fs::read_to_string(out).unwrap(), "done\n");
}

#[tokio::test]
async fn drain_kills_what_outlives_the_grace() {
    let dir = tempfile::tempdir().unwrap();
    let pid = dir.path().join("pid");
    let mut def = sh_def("slow", &format!("echo $$ > {}; sleep 30", quote(&pid)));
    def.mode = ExecutionMode::Async;
    // The pid is written first thing; running the chain again with a blocking hook that
    // waits for it orders the test without sleeping.
    let wait = sh_def("wait", &format!("while [ ! -s {} ]; do sleep 0.01; done", quote(&pid)));
    let d = dispatcher();
    let bindings = [binding(def, "/p/a.json")];
    d.fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    d.fire(&[binding(wait, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    let drained = d.drain(Duration::from_millis(100)).await;
    assert_eq!(drained.cancelled.len(), 1);
    let pgid: i32 = std::fs::read_to_string(&pid).unwrap().trim().parse().unwrap();
    assert_group_gone(pgid, Duration::from_secs(2));
}

/// A format's own shutdown grace (Chrys's `shutdown_grace_seconds`) bounds the drain of its
/// async hooks instead of the drain's grace: a longer one lets a hook finish that the drain's
/// grace would kill, a shorter one kills a hook the drain's grace would wait for.
#[tokio::test]
async fn a_formats_shutdown_grace_bounds_the_drain_of_its_async_hooks() {
    use hooks_schema::RunSettings;
    let with_grace = |g: Duration| {
        let mut t = crate::RunSettingsTable::default();
        let s = RunSettings { shutdown_grace: Some(g), ..RunSettings::default() };
        t.set(hooks_testing::TEST_FORMAT, None, s);
        FireContext { run_settings: Arc::new(t), ..ctx() }
    };
    let async_def = |id: &str, script: &str| {
        let mut def = sh_def(id, script);
        def.mode = ExecutionMode::Async;
        binding(def, "/p/a.json")
    };
    // Longer: the drain is asked for no grace at all, the format gives ten seconds.
    let d = dispatcher();
    let ctx_long = with_grace(Duration::from_secs(10));
    d.fire(&[async_def("short-job", "sleep 0.3")], &tool_envelope("ls"), &ctx_long).await;
    let drained = d.drain(Duration::ZERO).await;
    assert_eq!((drained.finished.len(), drained.cancelled.len()), (1, 0), "{drained:?}");
    // Without the format's grace the same drain kills it.
    let d = dispatcher();
    d.fire(&[async_def("short-job", "sleep 0.3")], &tool_envelope("ls"), &ctx()).await;
    let drained = d.drain(Duration::ZERO).await;
    assert_eq!((drained.finished.len(), drained.cancelled.len()), (0, 1), "{drained:?}");
    // Shorter: the drain would wait ten minutes, the format gives 100 ms.
    let d = dispatcher();
    let ctx_short = with_grace(Duration::from_millis(100));
    d.fire(&[async_def("hangs", "sleep 30")], &tool_envelope("ls"), &ctx_short).await;
    let drained = d.drain(Duration::from_secs(600)).await;
    assert_eq!((drained.finished.len(), drained.cancelled.len()), (0, 1), "{drained:?}");
}

// Multi-threaded: the background task must keep running while the test thread polls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fire_and_forget_is_bounded_by_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let pid = dir.path().join("pid");
    let mut def = sh_def("ff", &format!("echo $$ > {}; trap '' TERM; sleep 30", quote(&pid)));
    def.mode = ExecutionMode::FireAndForget;
    def.timeout = Duration::from_millis(200);
    let wait = sh_def("wait", &format!("while [ ! -s {} ]; do sleep 0.01; done", quote(&pid)));
    let d = dispatcher();
    d.fire(&[binding(def, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    d.fire(&[binding(wait, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    assert_eq!(d.drain(Duration::ZERO).await.finished.len(), 0, "fire-and-forget is not drained");
    let pgid: i32 = std::fs::read_to_string(&pid).unwrap().trim().parse().unwrap();
    assert_group_gone(pgid, Duration::from_secs(3));
}

#[tokio::test]
async fn detached_hooks_get_their_own_session_and_a_log() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let mut def = sh_def(
        "det/1",
        &format!("echo logged; echo oops >&2; echo \"$$ $(ps -o sid= -p $$)\" > {}", quote(&fifo)),
    );
    def.mode = ExecutionMode::FireAndForget;
    def.detach = true;
    let cfg =
        DispatchConfig { runtime_dir: Some(dir.path().to_path_buf()), ..DispatchConfig::default() };
    let d = Dispatcher::new(cfg);
    let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(fifo));
    let report = d.fire(&[binding(def, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
    let RunStatus::Background { detached: true, log: Some(log), .. } = &report.runs[0].status
    else {
        panic!("{:?}", report.runs[0].status)
    };
    assert!(log.starts_with(dir.path().join("logs").join("s1")));
    assert!(log.file_name().unwrap().to_str().unwrap().starts_with("det_1."));
    let line = tokio::time::timeout(Duration::from_secs(10), read).await.unwrap().unwrap().unwrap();
    let ids: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(ids[0], ids[1], "the hook leads its own session");
    let text = std::fs::read_to_string(log).unwrap();
    assert_eq!(text, "logged\noops\n");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(log).unwrap().permissions().mode() & 0o777, 0o600);
}

#[tokio::test]
async fn detached_hooks_read_their_whole_payload_on_stdin() {
    // One payload under PIPE_BUF, one well above a pipe's capacity.
    for pad in [10, 200_000] {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let got = dir.path().join("got");
        let mut def =
            sh_def("det/in", &format!("cat > {}; echo read > {}", quote(&got), quote(&fifo)));
        def.mode = ExecutionMode::FireAndForget;
        def.detach = true;
        let cfg = DispatchConfig {
            runtime_dir: Some(dir.path().to_path_buf()),
            ..DispatchConfig::default()
        };
        let d = Dispatcher::new(cfg);
        let envelope = tool_envelope(&"x".repeat(pad));
        let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(fifo));
        d.fire(&[binding(def, "/p/a.json")], &envelope, &ctx()).await;
        let line =
            tokio::time::timeout(Duration::from_secs(10), read).await.unwrap().unwrap().unwrap();
        assert_eq!(line, "read\n");
        let bytes = std::fs::read(&got).unwrap();
        assert!(
            bytes == serde_json::to_vec(&envelope).unwrap(),
            "{pad}: got {} bytes",
            bytes.len()
        );
    }
}

/// A codec that spawns nothing: every encode fails, and decode answers from a table keyed
/// by hook id, counting the hooks it was asked about.
#[derive(Debug)]
struct TableCodec {
    verdicts: Vec<HookVerdict>,
    asked: Mutex<Vec<usize>>,
}

/// The table codec's format.
const TABLE_FORMAT: hooks_schema::FormatId = hooks_schema::FormatId::new("table");

impl HookCodec for TableCodec {
    fn wire_format(&self) -> hooks_schema::FormatId {
        TABLE_FORMAT
    }

    fn encode(
        &self,
        _: &HookDefinition,
        _: &Envelope,
        _: &EncodeContext<'_>,
    ) -> Result<Invocation, hooks_schema::EncodeError> {
        Err(hooks_schema::EncodeError::Refused("table".to_owned()))
    }

    fn decode(&self, hook: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        let i: usize = hook.id.as_str().parse().unwrap();
        self.asked.lock().unwrap().push(i);
        self.verdicts[i].clone()
    }
}

fn verdict_strategy() -> impl Strategy<Value = HookVerdict> {
    (
        prop_oneof![
            Just(None),
            Just(Some(Decision::Allow)),
            Just(Some(Decision::Ask)),
            Just(Some(Decision::Deny))
        ],
        proptest::option::of(0u8..4),
    )
        .prop_map(|(decision, merge)| HookVerdict {
            decision,
            reason: decision.map(|d| d.as_str().to_owned()),
            rewrite: merge.map(|k| {
                let mut m = serde_json::Map::new();
                m.insert(format!("k{k}"), json!(k));
                ArgRewrite::Merge(m)
            }),
            ..HookVerdict::default()
        })
}

fn table_bindings(codec: &Arc<TableCodec>, event: HookEvent) -> Vec<hooks_schema::Binding> {
    (0..codec.verdicts.len())
        .map(|i| {
            let mut def = sh_def(&i.to_string(), "true");
            def.codec = codec.clone();
            def.event = event;
            binding(def, "/p/a.json")
        })
        .collect()
}

fn fire_table(
    verdicts: &[HookVerdict],
    parallel: bool,
) -> (hooks_schema::FoldedVerdict, Vec<usize>) {
    let codec = Arc::new(TableCodec { verdicts: verdicts.to_vec(), asked: Mutex::new(Vec::new()) });
    let bindings = table_bindings(&codec, HookEvent::PreToolUse);
    let mut cfg = DispatchConfig::default();
    if parallel {
        cfg.parallel_gated_formats = vec![TABLE_FORMAT];
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let report = rt.block_on(Dispatcher::new(cfg).fire(&bindings, &tool_envelope("ls"), &ctx()));
    let asked = codec.asked.lock().unwrap().clone();
    (report.verdict, asked)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Sequential and parallel dispatch fold to the same verdict: the fold is in binding
    /// order, whichever way the hooks ran.
    #[test]
    fn parallel_and_sequential_agree(verdicts in proptest::collection::vec(verdict_strategy(), 0..8)) {
        let (seq, _) = fire_table(&verdicts, false);
        let (par, asked) = fire_table(&verdicts, true);
        prop_assert_eq!(&seq, &par);
        prop_assert_eq!(asked.len(), verdicts.len(), "parallel runs every hook");
    }

    /// A deny stops the chain: hooks after the first deny are never consulted, and the
    /// verdict is that deny.
    #[test]
    fn a_deny_short_circuits(verdicts in proptest::collection::vec(verdict_strategy(), 0..8)) {
        let (folded, asked) = fire_table(&verdicts, false);
        let first_deny = verdicts.iter().position(|v| v.decision == Some(Decision::Deny));
        match first_deny {
            Some(i) => {
                prop_assert_eq!(asked, (0..=i).collect::<Vec<_>>());
                prop_assert!(folded.short_circuited);
                prop_assert_eq!(folded.decided_by.unwrap().hook_id.to_string(), i.to_string());
            }
            None => {
                prop_assert_eq!(asked, (0..verdicts.len()).collect::<Vec<_>>());
                prop_assert!(!folded.short_circuited);
                let max = verdicts.iter().filter_map(|v| v.decision).max();
                prop_assert_eq!(folded.decision, max);
            }
        }
    }

    /// Rewrites compose in binding order up to (not including) the first deny.
    #[test]
    fn rewrites_chain_in_order(verdicts in proptest::collection::vec(verdict_strategy(), 0..8)) {
        let (folded, _) = fire_table(&verdicts, false);
        let mut args = json!({"command": "ls"});
        let mut any = false;
        for v in &verdicts {
            if v.decision == Some(Decision::Deny) {
                break;
            }
            if let Some(rw) = &v.rewrite {
                rw.apply_to(&mut args);
                any = true;
            }
        }
        prop_assert_eq!(folded.updated_args, any.then_some(args));
    }

    /// The concurrent join returns outputs in input order whatever order they complete in.
    #[test]
    fn join_keeps_input_order(order in Just((0..8usize).collect::<Vec<_>>()).prop_shuffle()) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let out = rt.block_on(async {
            let (txs, rxs): (Vec<_>, Vec<_>) = (0..8).map(|_| tokio::sync::oneshot::channel::<usize>()).unzip();
            let futs: Vec<_> = rxs.into_iter().map(|rx| async move { rx.await.unwrap() }).collect();
            let mut txs: Vec<_> = txs.into_iter().map(Some).collect();
            let completer = async {
                for &i in &order {
                    tokio::task::yield_now().await;
                    txs[i].take().unwrap().send(i).unwrap();
                }
            };
            let (out, ()) = tokio::join!(crate::join::join_all(futs), completer);
            out
        });
        prop_assert_eq!(out, (0..8).collect::<Vec<_>>());
    }
}

#[test]
fn durable_without_runtime_dir_falls_back_to_best_effort() {
    let mut def = sh_def("d", "true");
    def.mode = ExecutionMode::Async;
    def.delivery = Delivery::Durable;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let d = dispatcher();
        let report = d.fire(&[binding(def, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
        let RunStatus::Background { job_id, note, .. } = &report.runs[0].status else { panic!() };
        assert!(job_id.is_none());
        assert!(note.as_deref().unwrap().contains("best effort"));
        assert_eq!(d.drain(Duration::from_secs(5)).await.finished.len(), 1);
    });
}

#[test]
fn detached_hooks_outlive_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    let out = dir.path().join("out");
    for f in [&go, &out] {
        nix::unistd::mkfifo(f, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    }
    let mut def = sh_def(
        "det",
        &format!(
            "read x < {}; echo \"alive $x ${{AGENT_HOOKS_RUN-untagged}}\" > {}",
            quote(&go),
            quote(&out)
        ),
    );
    def.mode = ExecutionMode::FireAndForget;
    def.detach = true;
    let cfg =
        DispatchConfig { runtime_dir: Some(dir.path().to_path_buf()), ..DispatchConfig::default() };
    {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let d = Dispatcher::new(cfg);
            d.fire(&[binding(def, "/p/a.json")], &tool_envelope("ls"), &ctx()).await;
            // A piped hook too, so that the drop sweeps the dispatcher's tagged processes.
            d.fire(&[binding(sh_def("plain", "true"), "/p/a.json")], &tool_envelope("ls"), &ctx())
                .await;
        });
        // The dispatcher and its runtime are gone; the hook waits on `go`.
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(out));
    });
    std::thread::spawn(move || std::fs::write(go, "go\n"));
    let line = rx.recv_timeout(Duration::from_secs(10)).expect("the hook answered").unwrap();
    assert_eq!(line, "alive go untagged\n", "a detached hook carries no tag");
}

#[test]
fn sweep_tmp_removes_only_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let old = tmp.join("old-payload-1.json");
    let new = tmp.join("new-payload-2.json");
    std::fs::write(&old, "{}").unwrap();
    std::fs::write(&new, "{}").unwrap();
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&old).unwrap().set_modified(an_hour_ago).unwrap();
    let d = Dispatcher::new(DispatchConfig {
        runtime_dir: Some(dir.path().to_path_buf()),
        ..DispatchConfig::default()
    });
    assert_eq!(d.sweep_tmp(Duration::from_secs(600)), 1);
    assert!(!old.exists());
    assert!(new.exists());
    assert_eq!(dispatcher().sweep_tmp(Duration::ZERO), 0, "no runtime dir, nothing to sweep");
}

#[tokio::test]
async fn parallel_rewrites_reach_non_blocking_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen");
    let mut bg = sh_def("bg", &format!("cat > {}", quote(&seen)));
    bg.mode = ExecutionMode::Async;
    bg.matcher = Matcher::new("ls -la", Arc::new(CommandIs("ls -la")));
    let bindings = vec![
        binding(sh_def("rw", r#"echo '{"merge":{"command":"ls -la"}}'"#), "/p/a.json"),
        binding(bg, "/p/a.json"),
    ];
    let cfg = DispatchConfig {
        parallel_gated_formats: vec![hooks_testing::TEST_FORMAT],
        ..DispatchConfig::default()
    };
    let d = Dispatcher::new(cfg);
    let report = d.fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    assert!(matches!(report.runs[1].status, RunStatus::Background { .. }), "{:?}", report.runs[1]);
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 1);
    let env: Envelope = serde_json::from_slice(&std::fs::read(seen).unwrap()).unwrap();
    assert_eq!(env.tool_args(), Some(&json!({"command": "ls -la"})));
}

#[tokio::test]
async fn payload_and_result_files_round_trip_through_the_codec() {
    let dir = tempfile::tempdir().unwrap();
    let mut def = sh_def(
        "files",
        r#"grep -q '"rm -rf /"' "$TEST_PAYLOAD" && printf '{"decision":"deny","reason":"from file"}' > "$TEST_RESULT""#,
    );
    def.native.insert("payload_file".to_owned(), Value::Bool(true));
    let cfg =
        DispatchConfig { runtime_dir: Some(dir.path().to_path_buf()), ..DispatchConfig::default() };
    let report = Dispatcher::new(cfg)
        .fire(&[binding(def, "/p/a.json")], &tool_envelope("rm -rf /"), &ctx())
        .await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny));
    assert_eq!(report.verdict.reason.as_deref(), Some("from file"));
    // Deleted off the run's critical path: wait for the folder to empty.
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_dir(dir.path().join("tmp")).unwrap().next().is_some() {
        assert!(Instant::now() < deadline, "files not deleted");
        std::thread::yield_now();
    }
}

/// `def`, run once per firing (for its command) when blocking, as Claude Code does.
fn run_once(mut def: HookDefinition) -> HookDefinition {
    def.native.insert("once_per_command".to_owned(), Value::Bool(true));
    def
}

fn once_binding(id: &str, script: &str, source: &str) -> hooks_schema::Binding {
    binding(run_once(sh_def(id, script)), source)
}

#[tokio::test]
async fn a_command_bound_from_two_files_runs_once_when_its_format_says_so() {
    for parallel in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let append = |tag: &str| format!("cat > /dev/null; echo {tag} >> {}", quote(&log));
        let mut skipped_first = run_once(sh_def("not-me", &append("never")));
        skipped_first.matcher = Matcher::new("else", Arc::new(CommandIs("something else")));
        let mut in_background = run_once(sh_def("bg", &append("same")));
        in_background.mode = ExecutionMode::Async;
        let bindings = vec![
            // A copy that does not match takes no place: the next copy runs.
            binding(skipped_first, "/p/managed.json"),
            once_binding("user", &append("same"), "/p/user.json"),
            once_binding("project", &append("same"), "/p/project.json"),
            once_binding("other", &append("other"), "/p/project.json"),
            binding(in_background, "/p/local.json"),
        ];
        let mut cfg = DispatchConfig::default();
        if parallel {
            cfg.parallel_gated_formats = vec![hooks_testing::TEST_FORMAT];
        }
        let d = Dispatcher::new(cfg);
        let report = d.fire(&bindings, &tool_envelope("ls"), &ctx()).await;
        let status: Vec<(&str, &RunStatus)> =
            report.runs.iter().map(|r| (r.provenance.hook_id.as_str(), &r.status)).collect();
        assert_eq!(status[0], ("not-me", &RunStatus::Skipped(SkipReason::NoMatch)), "{parallel}");
        assert_eq!(status[1], ("user", &RunStatus::Ran), "{parallel}");
        assert_eq!(status[2], ("project", &RunStatus::Skipped(SkipReason::Duplicate)));
        assert_eq!(status[3], ("other", &RunStatus::Ran));
        // Async copies are never deduplicated.
        assert!(matches!(status[4], ("bg", RunStatus::Background { .. })), "{status:?}");
        d.drain(Duration::from_secs(10)).await;
        let mut lines: Vec<String> =
            std::fs::read_to_string(&log).unwrap().lines().map(str::to_owned).collect();
        lines.sort();
        assert_eq!(lines, ["other", "same", "same"], "parallel: {parallel}");
    }
}

#[tokio::test]
async fn by_default_every_binding_of_a_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let script = format!("cat > /dev/null; echo x >> {}", quote(&log));
    let bindings = vec![
        binding(sh_def("a", &script), "/p/a.json"),
        binding(sh_def("b", &script), "/p/b.json"),
    ];
    let report = dispatcher().fire(&bindings, &tool_envelope("ls"), &ctx()).await;
    assert!(report.runs.iter().all(|r| r.status == RunStatus::Ran), "{:?}", report.runs);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
}
