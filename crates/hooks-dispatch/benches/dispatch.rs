//! Benchmark of the dispatcher's own cost against bare std process handling (area `dispatch`).
//!
//! Measured side by side in one run, interleaved in short blocks so drift hits every side
//! alike: each round runs every side's block of [`BLOCK`](hooks_testing::bench::BLOCK)
//! samples, the sides in an order shuffled round by round ([`hooks_testing::bench`]); the
//! first sample of a block, which follows another side's (but where a round starts with the
//! side the round before ended with), is kept apart, and the medians and ratios are of the
//! others, each of which follows a sample of its own side, as a hook an agent fires follows the
//! one it fired before. A sample's time
//! depends on the side before it (in the spaced case every side is 5–7 % faster after the
//! engine's than after its own), so an order in which one side mostly follows another skews
//! the ratio (see `specs/dispatch.md`, "The side before a sample (session 26)"); the ratio of
//! the blocks' first samples, each side after the others, is reported beside it
//! (`*_ratio_after_other_side`):
//! - one blocking hook through encode → spawn → decode → fold, against std spawn + write +
//!   read + wait of the same command (`/bin/true`, and a shell script that reads a 1 KiB
//!   JSON payload and prints a decision, exec'd directly); a third interleaved sample, the
//!   same round trip written with tokio the way the engine must do it (stdout and stderr
//!   piped and read concurrently, its own process group, one environment variable), splits
//!   the ratio into what the async process API costs and what the engine itself adds (it is
//!   reported, the target stays against std);
//! - the script case again with a 30 ms pause before every sample (hooks an agent fires are
//!   that far apart or more), so what the kernel amortises over back-to-back spawns is paid
//!   here (`single_hook_spaced_*`; it counts in `single_hook_overhead_ratio`): 300 samples a
//!   side, as its spread over 60 was ±5 % from run to run; `single_hook_spaced_tokio_over_bare`
//!   and `single_hook_spaced_engine_over_tokio` split its ratio as for the other cases, and a
//!   fourth side, std's spawn with the pipes and a pid file descriptor waited on through
//!   tokio's reactor and nothing else (`single_hook_spaced_asyncfd_*`), shows what waiting
//!   through tokio costs by itself, and a fifth, the same waited on by an epoll instance of
//!   its own with a blocking `epoll_wait` (`single_hook_spaced_bare_epoll_ms`), splits that
//!   into the kernel's epoll path (`single_hook_spaced_epoll_over_bare`) and tokio's reactor
//!   over it (`single_hook_spaced_asyncfd_over_epoll`);
//! - 16 observer hooks that each wait 100 ms, run concurrently;
//! - 16 CPU-light hooks (the script) through the engine, against the same 16 commands
//!   spawned bare in parallel;
//! - one durable outbox job's file lifecycle (`write_pending`, `mark_started`, `finish`,
//!   each write `fsync`ed), in the system temporary folder.
//!
//! The engine runs with the containment and the default limits the machine allows
//! (`containment_mechanism` and `containment_limits` in the output), or those named by
//! `HOOKS_BENCH_CONTAINMENT` (`cgroup-kill`, `subreaper`, …) and `HOOKS_BENCH_LIMITS_VIA`
//! (`cgroup-v1`, `rlimit`, `off`, …); the `/bin/true` case runs a fourth interleaved sample
//! through a dispatcher with limits off, so what the limits cost is reported
//! (`single_hook_true_limits_off_ms`). The 1-minute load average before and after the run
//! is in the output (`load_average`): the figures of a loaded machine are not an idle one's.
//!
//! `--json` prints one JSON object; otherwise a table of medians and ratios.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext, JobState, Outbox, OutboxJob};
use hooks_schema::{
    AbsPathBuf, Binding, Decision, Delivery, EncodeContext, EncodeError, Envelope, ExecutionMode,
    FormatId, HookCodec, HookCommand, HookDefinition, HookEvent, HookId, HookSourceId, HookVerdict,
    Invocation, Matcher, OnFailure, Program, RawOutcome, ToolCall, ToolKind,
};
use hooks_testing::bench::{Interleaved, Order};
use serde_json::{Map, Value, json};

/// JSON on stdin, `{"decision": …}` on stdout.
#[derive(Debug)]
struct BenchCodec;

impl HookCodec for BenchCodec {
    fn wire_format(&self) -> FormatId {
        FormatId::new("bench")
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        _: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let HookCommand::Exec { program, args } = &hook.command else {
            return Err(EncodeError::Refused("the bench codec runs programs only".to_owned()));
        };
        let mut argv = Vec::with_capacity(1 + args.len());
        argv.push(program.clone());
        argv.extend(args.iter().cloned());
        Ok(Invocation {
            program: Program::Exec { argv },
            cwd: None,
            env_remove: Vec::new(),
            env: Vec::new(),
            stdin: serde_json::to_vec(envelope).map_err(|e| EncodeError::Payload(e.to_string()))?,
            files: Vec::new(),
            timeout: hook.timeout,
        })
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, outcome: &RawOutcome) -> HookVerdict {
        if !outcome.succeeded() {
            return HookVerdict { failure: outcome.failure_label(), ..HookVerdict::default() };
        }
        let decision = serde_json::from_slice::<Value>(&outcome.stdout.bytes)
            .ok()
            .and_then(|v| v.get("decision").and_then(Value::as_str).map(str::to_owned));
        match decision.as_deref() {
            Some("allow") => HookVerdict::decided(Decision::Allow, None),
            Some("deny") => HookVerdict::decided(Decision::Deny, None),
            _ => HookVerdict::no_opinion(),
        }
    }
}

fn binding(id: &str, event: HookEvent, argv: &[&str]) -> Binding {
    let def = HookDefinition {
        id: HookId::new(id).expect("valid id"),
        event,
        native_event: event.as_str().to_owned(),
        matcher: Matcher::all(),
        command: HookCommand::Exec {
            program: argv[0].to_owned(),
            args: argv[1..].iter().map(|s| (*s).to_owned()).collect(),
        },
        cwd: None,
        env: Vec::new(),
        timeout: Duration::from_secs(30),
        on_failure: OnFailure::Warn,
        mode: ExecutionMode::Blocking,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(BenchCodec),
        order: 0,
        line: None,
        column: None,
        description: None,
        native: Map::new(),
    };
    Binding {
        source: HookSourceId::new(
            hooks_testing::kinds::PROJECT_CURSOR_FILE,
            AbsPathBuf::new(PathBuf::from("/bench/hooks.json")).expect("absolute"),
        ),
        definition: Arc::new(def),
        working_dir: AbsPathBuf::new(PathBuf::from("/")).expect("absolute"),
        project_root: None,
    }
}

/// A PreToolUse envelope whose JSON is at least 1 KiB.
fn envelope(event: HookEvent) -> Envelope {
    let mut e = Envelope::new(event);
    e.session_id = Some("bench-session-0001".to_owned());
    e.cwd = Some(PathBuf::from("/home/user/project"));
    e.tool = Some(ToolCall {
        name: "Edit".to_owned(),
        kind: ToolKind::FileWrite,
        native_kind: None,
        call_id: Some("call-1".to_owned()),
        mcp_server: None,
        args: json!({
            "file_path": "/home/user/project/src/main.rs",
            "old_string": "fn main() {}",
            "new_string": "fn main() { println!(\"hello\"); }",
            "padding": "x".repeat(850),
        }),
    });
    e
}

/// std's spawn of `argv` with stdin and stdout piped, `payload` written to its stdin and the
/// stdin closed.
fn spawn_with_payload(argv: &[&str], payload: &[u8], stderr: Stdio) -> std::process::Child {
    let mut child = Command::new(argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(payload);
    child
}

/// std spawn + write + read + wait: the floor the engine is compared with.
fn bare_round_trip(argv: &[&str], payload: &[u8]) -> Vec<u8> {
    let mut child = spawn_with_payload(argv, payload, Stdio::null());
    let mut out = Vec::new();
    child.stdout.take().expect("stdout").read_to_end(&mut out).expect("read");
    child.wait().expect("wait");
    out
}

/// The bare round trip with the engine's process setup but none of its logic: tokio's
/// `Command` (pidfd wait, non-blocking pipes), stdout and stderr piped and read concurrently,
/// its own process group, one environment variable (std then copies the environment).
async fn bare_tokio_round_trip(argv: &[&str], payload: &[u8]) -> Vec<u8> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut child = tokio::process::Command::new(argv[0])
        .args(&argv[1..])
        .env("AGENT_HOOKS_BENCH", "1")
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let _ = tokio::join!(
        async move {
            let _ = stdin.write_all(payload).await;
        },
        stdout.read_to_end(&mut out),
        stderr.read_to_end(&mut err),
    );
    child.wait().await.expect("wait");
    out
}

/// std's spawn, write and pipes as [`bare_round_trip`] (stderr piped too), then the two pipes
/// read to their end and a pid file descriptor waited on through tokio's reactor
/// (`AsyncFd`), and nothing else: what waiting through tokio costs by itself.
async fn bare_asyncfd_round_trip(argv: &[&str], payload: &[u8]) -> Vec<u8> {
    use std::os::fd::{AsFd, OwnedFd};
    use tokio::io::unix::AsyncFd;
    #[allow(unsafe_code, reason = "tokio's registration of a descriptor is unsafe")]
    fn register(fd: OwnedFd) -> AsyncFd<OwnedFd> {
        // SAFETY: an `OwnedFd` is an open descriptor that only it closes, and its
        // `as_raw_fd` returns that same descriptor while the `AsyncFd` owns it.
        unsafe { AsyncFd::register(fd) }.map_err(|e| e.into_parts().0).expect("register")
    }
    async fn drain(fd: &AsyncFd<OwnedFd>, into: &mut Vec<u8>) {
        let mut buf = [0u8; 8192];
        loop {
            let mut ready = fd.readable().await.expect("readable");
            match rustix::io::read(fd.get_ref(), &mut buf) {
                Ok(0) => return,
                Ok(n) => into.extend_from_slice(&buf[..n]),
                Err(rustix::io::Errno::AGAIN) => ready.clear_ready(),
                Err(e) => panic!("read: {e}"),
            }
        }
    }
    let mut child = spawn_with_payload(argv, payload, Stdio::piped());
    let ([out, err], pidfd) = nonblocking_pipes_and_pidfd(&mut child);
    let (out, err, pidfd) = (register(out), register(err), register(pidfd));
    let (mut o, mut e) = (Vec::new(), Vec::new());
    tokio::join!(drain(&out, &mut o), drain(&err, &mut e));
    loop {
        let mut ready = pidfd.readable().await.expect("readable");
        if reaped(pidfd.get_ref().as_fd()) {
            break;
        }
        ready.clear_ready();
    }
    // Reaped by `waitid` above: std's handle only forgets the pid.
    drop(child);
    o
}

/// The child's stdout and stderr, made non-blocking, and a pid file descriptor for it: what
/// the bare `AsyncFd` and epoll waits wait on.
fn nonblocking_pipes_and_pidfd(
    child: &mut std::process::Child,
) -> ([std::os::fd::OwnedFd; 2], std::os::fd::OwnedFd) {
    let pipes: [std::os::fd::OwnedFd; 2] =
        [child.stdout.take().expect("stdout").into(), child.stderr.take().expect("stderr").into()];
    for p in &pipes {
        rustix::io::ioctl_fionbio(p, true).expect("non-blocking");
    }
    let pid = rustix::process::Pid::from_raw(child.id().try_into().expect("pid")).expect("pid");
    let pidfd =
        rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).expect("pidfd");
    (pipes, pidfd)
}

/// Whether the child behind `pidfd` has exited, reaping it if so (`waitid`, not blocking).
fn reaped(pidfd: std::os::fd::BorrowedFd<'_>) -> bool {
    let options = rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOHANG;
    let id = rustix::process::WaitId::PidFd(pidfd);
    rustix::process::waitid(id, options).expect("waitid").is_some()
}

/// std's spawn, write and pipes as [`bare_asyncfd_round_trip`], the two pipes (non-blocking)
/// and a pid file descriptor waited on by an epoll instance of its own, with a blocking
/// `epoll_wait` and no tokio: the kernel's epoll path by itself, so that the `AsyncFd` wait's
/// cost over std splits into the kernel's (this over std) and tokio's reactor (the `AsyncFd`
/// wait over this).
fn bare_epoll_round_trip(argv: &[&str], payload: &[u8]) -> Vec<u8> {
    use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};

    use nix::libc;
    #[allow(unsafe_code, reason = "epoll through the C library")]
    fn add(ep: &OwnedFd, fd: &OwnedFd, token: u64) {
        let mut ev = libc::epoll_event {
            events: (libc::EPOLLIN | libc::EPOLLRDHUP | libc::EPOLLET) as u32,
            u64: token,
        };
        // SAFETY: two open descriptors and an event on the stack.
        let r = unsafe {
            libc::epoll_ctl(ep.as_raw_fd(), libc::EPOLL_CTL_ADD, fd.as_raw_fd(), &raw mut ev)
        };
        assert_eq!(r, 0, "epoll_ctl");
    }
    #[allow(unsafe_code, reason = "epoll through the C library")]
    fn wait(ep: &OwnedFd) {
        let mut evs = [libc::epoll_event { events: 0, u64: 0 }; 4];
        // SAFETY: an open epoll descriptor and a buffer of four events.
        let n = unsafe { libc::epoll_wait(ep.as_raw_fd(), evs.as_mut_ptr(), 4, 60_000) };
        assert!(n > 0, "epoll_wait: {n}");
    }
    let mut child = spawn_with_payload(argv, payload, Stdio::piped());
    let (pipes, pidfd) = nonblocking_pipes_and_pidfd(&mut child);
    #[allow(unsafe_code, reason = "epoll through the C library")]
    // SAFETY: a new descriptor owned by nobody else, or -1 (checked).
    let ep = unsafe {
        let fd = libc::epoll_create1(libc::EPOLL_CLOEXEC);
        assert!(fd >= 0, "epoll_create1");
        OwnedFd::from_raw_fd(fd)
    };
    for (i, p) in pipes.iter().enumerate() {
        add(&ep, p, i as u64);
    }
    add(&ep, &pidfd, 2);
    let mut out = [Vec::new(), Vec::new()];
    let mut open = [true, true];
    let mut buf = [0u8; 8192];
    loop {
        // Edge-triggered: every open pipe read until it would block, or to its end.
        for i in 0..2 {
            while open[i] {
                match rustix::io::read(&pipes[i], &mut buf) {
                    Ok(0) => open[i] = false,
                    Ok(n) => out[i].extend_from_slice(&buf[..n]),
                    Err(rustix::io::Errno::AGAIN) => break,
                    Err(e) => panic!("read: {e}"),
                }
            }
        }
        if open == [false, false] && reaped(pidfd.as_fd()) {
            break;
        }
        wait(&ep);
    }
    // Reaped by `waitid` above: std's handle only forgets the pid.
    drop(child);
    let [o, _] = out;
    o
}

/// The same, for 16 commands spawned together.
fn bare_parallel(argv: &[&str], payload: &[u8], n: usize) {
    let children: Vec<_> = (0..n)
        .map(|_| {
            Command::new(argv[0])
                .args(&argv[1..])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for mut child in children {
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(payload);
        drop(stdin);
        let mut out = Vec::new();
        child.stdout.take().expect("stdout").read_to_end(&mut out).expect("read");
        child.wait().expect("wait");
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Pair {
    name: &'static str,
    engine_ms: f64,
    bare_ms: f64,
    /// The tokio round trip's median, when measured.
    tokio_ms: Option<f64>,
    /// The bare `AsyncFd` wait's median, when measured.
    asyncfd_ms: Option<f64>,
    /// The bare epoll wait's median, when measured.
    epoll_ms: Option<f64>,
    /// The medians of the blocks' first samples (each after another side's sample).
    engine_after_other_ms: f64,
    bare_after_other_ms: f64,
}

impl Pair {
    fn ratio(&self) -> f64 {
        self.engine_ms / self.bare_ms
    }

    /// The ratio of the blocks' first samples: each side measured mostly right after another's.
    fn ratio_after_other_side(&self) -> f64 {
        self.engine_after_other_ms / self.bare_after_other_ms
    }
}

/// Takes at least `n` samples of each side (engine, bare, then the others given: the tokio
/// round trip, the bare `AsyncFd` wait, the bare epoll wait) that follow a sample of their own side, after a
/// warm-up, in the order of [`Order::interleave`] (a new `Order` per case, so every run takes
/// the same orders); returns the medians of the samples that follow their own side, and of the
/// blocks' first samples apart.
fn side_by_side(
    name: &'static str,
    n: usize,
    mut engine: impl FnMut() -> Duration,
    mut bare: impl FnMut() -> Duration,
    mut others: Vec<&mut dyn FnMut() -> Duration>,
) -> Pair {
    let k = 2 + others.len();
    let mut sample = |side: usize| match side {
        0 => engine(),
        1 => bare(),
        other => others[other - 2](),
    };
    for _ in 0..10 {
        for side in 0..k {
            sample(side);
        }
    }
    let Interleaved { own: mut samples, after_other: mut firsts } =
        Order::default().interleave(k, n, |side| ms(sample(side)));
    let mut firsts = firsts.iter_mut().map(|s| median(s));
    let engine_after_other_ms = firsts.next().unwrap_or(f64::NAN);
    let bare_after_other_ms = firsts.next().unwrap_or(f64::NAN);
    let mut medians = samples.iter_mut().map(|s| median(s));
    let engine_ms = medians.next().unwrap_or(f64::NAN);
    let bare_ms = medians.next().unwrap_or(f64::NAN);
    Pair {
        name,
        engine_ms,
        bare_ms,
        tokio_ms: medians.next(),
        asyncfd_ms: medians.next(),
        epoll_ms: medians.next(),
        engine_after_other_ms,
        bare_after_other_ms,
    }
}

/// The pause before each sample of the spaced case: longer than an RCU grace period on a
/// loaded machine.
const SPACING: Duration = Duration::from_millis(30);

fn write_script(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("check.sh");
    std::fs::write(&path, "#!/bin/sh\ncat >/dev/null\necho '{\"decision\":\"allow\"}'\n")
        .expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

fn main() {
    let json_out = std::env::args().any(|a| a == "--json");
    // Removed when dropped, on every way out (the profile loop's early return included).
    let tmp =
        tempfile::Builder::new().prefix("hooks-dispatch-bench-").tempdir().expect("bench dir");
    let dir = tmp.path();
    let script = write_script(dir);
    let script = script.to_str().expect("utf-8 path");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let ctx = FireContext::default();
    let tool_env = envelope(HookEvent::PreToolUse);
    let payload = serde_json::to_vec(&tool_env).expect("payload");
    assert!(payload.len() >= 1024, "payload is {} bytes", payload.len());

    let load_before = load_average();
    let base = bench_config();
    let single = Dispatcher::new(base.clone());
    // The mechanism measured (`containment` in the JSON).
    let containment = single.containment();
    #[allow(clippy::disallowed_methods, reason = "the bench's own switch")]
    if let Some(n) = std::env::var("HOOKS_BENCH_PROFILE").ok().and_then(|v| v.parse().ok()) {
        profile(&rt, &single, &tool_env, &ctx, n);
        return;
    }
    let unlimited = Dispatcher::new(DispatchConfig {
        limits_via: hooks_dispatch::LimitsVia::Off,
        ..base.clone()
    });
    let limits_off = {
        let argv = vec!["/bin/true"];
        let b = [binding("h", HookEvent::PreToolUse, &argv)];
        side_by_side(
            "single hook, /bin/true, limits off",
            300,
            || {
                let t = Instant::now();
                let r = rt.block_on(unlimited.fire(&b, &tool_env, &ctx));
                let d = t.elapsed();
                assert!(r.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()));
                d
            },
            || {
                let t = Instant::now();
                let r = rt.block_on(single.fire(&b, &tool_env, &ctx));
                let d = t.elapsed();
                assert!(r.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()));
                d
            },
            vec![],
        )
    };
    let mut pairs = Vec::new();
    for (name, argv, n) in [
        ("single hook, /bin/true", vec!["/bin/true"], 300),
        ("single hook, script reading 1 KiB", vec![script], 200),
    ] {
        let b = [binding("h", HookEvent::PreToolUse, &argv)];
        pairs.push(side_by_side(
            name,
            n,
            || {
                let t = Instant::now();
                let r = rt.block_on(single.fire(&b, &tool_env, &ctx));
                let d = t.elapsed();
                assert!(r.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()));
                d
            },
            || {
                let t = Instant::now();
                bare_round_trip(&argv, &payload);
                t.elapsed()
            },
            vec![&mut || {
                let t = Instant::now();
                rt.block_on(bare_tokio_round_trip(&argv, &payload));
                t.elapsed()
            }],
        ));
    }

    // Hooks an agent fires are seconds apart, not back to back: the same script case with a
    // pause before every sample, so whatever the kernel amortises over quick successive spawns
    // (a cgroup migration's RCU grace period, above all) is paid by every sample here.
    {
        let argv = vec![script];
        let b = [binding("h", HookEvent::PreToolUse, &argv)];
        let pause = || std::thread::sleep(SPACING);
        pairs.push(side_by_side(
            "single hook, script, 30 ms apart",
            300,
            || {
                pause();
                let t = Instant::now();
                let r = rt.block_on(single.fire(&b, &tool_env, &ctx));
                let d = t.elapsed();
                assert!(r.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()));
                d
            },
            || {
                pause();
                let t = Instant::now();
                bare_round_trip(&argv, &payload);
                t.elapsed()
            },
            vec![
                &mut || {
                    pause();
                    let t = Instant::now();
                    rt.block_on(bare_tokio_round_trip(&argv, &payload));
                    t.elapsed()
                },
                &mut || {
                    pause();
                    let t = Instant::now();
                    rt.block_on(bare_asyncfd_round_trip(&argv, &payload));
                    t.elapsed()
                },
                &mut || {
                    pause();
                    let t = Instant::now();
                    bare_epoll_round_trip(&argv, &payload);
                    t.elapsed()
                },
            ],
        ));
    }

    // The parallel cases run 16 hooks at once: the limit is raised to 16 for them (the
    // default, 4, is the core-count-sized bound the research recommends).
    let wide = Dispatcher::new(DispatchConfig { max_parallel_hooks: 16, ..base.clone() });
    let observer_env = envelope(HookEvent::TurnEnd);
    let waiters: Vec<Binding> = (0..16)
        .map(|i| binding(&format!("w{i}"), HookEvent::TurnEnd, &["/bin/sleep", "0.1"]))
        .collect();
    let mut waits = Vec::new();
    for i in 0..12 {
        let t = Instant::now();
        rt.block_on(wide.fire(&waiters, &observer_env, &ctx));
        if i >= 2 {
            waits.push(ms(t.elapsed()));
        }
    }
    let parallel_wait_16_ms = median(&mut waits);

    let light: Vec<Binding> =
        (0..16).map(|i| binding(&format!("c{i}"), HookEvent::TurnEnd, &[script])).collect();
    let cpu = side_by_side(
        "16 parallel CPU-light hooks",
        30,
        || {
            let t = Instant::now();
            rt.block_on(wide.fire(&light, &observer_env, &ctx));
            t.elapsed()
        },
        || {
            let t = Instant::now();
            bare_parallel(&[script], &payload, 16);
            t.elapsed()
        },
        vec![],
    );

    // One durable job: three synced writes (pending, pending again, done) and an unlink.
    let outbox = Outbox::new(dir.join("outbox"));
    let durable = binding("d", HookEvent::TurnEnd, &["/bin/true"]);
    let mut jobs = Vec::new();
    for i in 0..25 {
        let t = Instant::now();
        let mut job = OutboxJob::new(&durable, &observer_env);
        outbox.write_pending(&job).expect("write pending");
        outbox.mark_started(&mut job).expect("mark started");
        outbox.finish(&mut job, JobState::Done, None).expect("finish");
        if i >= 5 {
            jobs.push(ms(t.elapsed()));
        }
    }
    let outbox_job_ms = median(&mut jobs);

    let single_ratio = pairs.iter().map(Pair::ratio).fold(0.0, f64::max);
    if json_out {
        let obj = json!({
            "single_hook_overhead_ratio": single_ratio,
            "single_hook_true_ratio": pairs[0].ratio(),
            "single_hook_script_ratio": pairs[1].ratio(),
            "single_hook_true_engine_ms": pairs[0].engine_ms,
            "single_hook_true_bare_ms": pairs[0].bare_ms,
            "single_hook_script_engine_ms": pairs[1].engine_ms,
            "single_hook_script_bare_ms": pairs[1].bare_ms,
            "single_hook_spaced_ratio": pairs[2].ratio(),
            "single_hook_true_ratio_after_other_side": pairs[0].ratio_after_other_side(),
            "single_hook_script_ratio_after_other_side": pairs[1].ratio_after_other_side(),
            "single_hook_spaced_ratio_after_other_side": pairs[2].ratio_after_other_side(),
            "single_hook_spaced_engine_ms": pairs[2].engine_ms,
            "single_hook_spaced_bare_ms": pairs[2].bare_ms,
            "single_hook_spaced_bare_tokio_ms": pairs[2].tokio_ms,
            "single_hook_true_bare_tokio_ms": pairs[0].tokio_ms,
            "single_hook_script_bare_tokio_ms": pairs[1].tokio_ms,
            "single_hook_true_engine_over_tokio": pairs[0].tokio_ms.map(|t| pairs[0].engine_ms / t),
            "single_hook_script_engine_over_tokio": pairs[1].tokio_ms.map(|t| pairs[1].engine_ms / t),
            "single_hook_spaced_engine_over_tokio": pairs[2].tokio_ms.map(|t| pairs[2].engine_ms / t),
            "single_hook_spaced_tokio_over_bare": pairs[2].tokio_ms.map(|t| t / pairs[2].bare_ms),
            "single_hook_spaced_bare_asyncfd_ms": pairs[2].asyncfd_ms,
            "single_hook_spaced_engine_over_asyncfd": pairs[2].asyncfd_ms.map(|t| pairs[2].engine_ms / t),
            "single_hook_spaced_asyncfd_over_bare": pairs[2].asyncfd_ms.map(|t| t / pairs[2].bare_ms),
            "single_hook_spaced_bare_epoll_ms": pairs[2].epoll_ms,
            "single_hook_spaced_epoll_over_bare": pairs[2].epoll_ms.map(|t| t / pairs[2].bare_ms),
            "single_hook_spaced_asyncfd_over_epoll": pairs[2].asyncfd_ms.zip(pairs[2].epoll_ms).map(|(a, e)| a / e),
            "parallel_wait_16_ms": parallel_wait_16_ms,
            "parallel_cpu_16_ratio": cpu.ratio(),
            "parallel_cpu_16_engine_ms": cpu.engine_ms,
            "parallel_cpu_16_bare_ms": cpu.bare_ms,
            "outbox_durable_job_ms": outbox_job_ms,
            "single_hook_true_limits_off_ms": limits_off.engine_ms,
            "single_hook_true_limits_on_ms": limits_off.bare_ms,
            "containment_mechanism": containment.mechanism.as_str(),
            "containment_limits": limit_names(&containment),
            "load_average": [load_before, load_average()],
        });
        println!("{obj}");
        return;
    }
    println!(
        "{:<40} {:>12} {:>12} {:>8}  target   {:>13} {:>15}",
        "case (medians)", "engine ms", "bare ms", "ratio", "bare tokio ms", "engine / tokio"
    );
    for p in pairs.iter().chain(std::iter::once(&cpu)) {
        let (tokio, over) = match p.tokio_ms {
            Some(t) => (format!("{t:.3}"), format!("{:.3}", p.engine_ms / t)),
            None => ("-".to_owned(), "-".to_owned()),
        };
        println!(
            "{:<40} {:>12.3} {:>12.3} {:>8.3}  <= 1.05 {:>13} {:>15}",
            p.name,
            p.engine_ms,
            p.bare_ms,
            p.ratio(),
            tokio,
            over
        );
        println!(
            "{:<40} {:>12.3} {:>12.3} {:>8.3}  (mostly right after another side's)",
            "  the same, blocks' first samples",
            p.engine_after_other_ms,
            p.bare_after_other_ms,
            p.ratio_after_other_side()
        );
        if let Some(a) = p.asyncfd_ms {
            println!(
                "{:<40} {:>12} {:>12.3} {:>8.3}  std's spawn, tokio's wait alone (engine / it {:.3})",
                "  the same, bare AsyncFd wait",
                "-",
                a,
                a / p.bare_ms,
                p.engine_ms / a
            );
        }
        if let Some(e) = p.epoll_ms {
            println!(
                "{:<40} {:>12} {:>12.3} {:>8.3}  std's spawn, a blocking epoll_wait (AsyncFd / it {:.3})",
                "  the same, bare epoll wait",
                "-",
                e,
                e / p.bare_ms,
                p.asyncfd_ms.map_or(f64::NAN, |a| a / e)
            );
        }
    }
    println!(
        "{:<40} {:>12.1} {:>12} {:>8}  < 150 ms",
        "16 parallel 100 ms waiters", parallel_wait_16_ms, "-", "-"
    );
    println!(
        "{:<40} {:>12.3} {:>12} {:>8}  (reported)",
        "durable outbox job (3 synced writes)", outbox_job_ms, "-", "-"
    );
    println!(
        "single_hook_overhead_ratio (worst of the three single-hook cases) = {single_ratio:.3}"
    );
    println!(
        "single hook /bin/true: limits off {:.3} ms, on {:.3} ms",
        limits_off.engine_ms, limits_off.bare_ms
    );
    println!(
        "containment measured: {} (limits: {:?}); load average {load_before:.1} → {:.1}",
        containment.mechanism,
        limit_names(&containment),
        load_average()
    );
}

/// The dispatcher's settings: defaults, with the containment and the way of enforcing limits
/// `HOOKS_BENCH_CONTAINMENT` and `HOOKS_BENCH_LIMITS_VIA` name.
fn bench_config() -> DispatchConfig {
    #[allow(clippy::disallowed_methods, reason = "the bench's own switches")]
    let var = |k: &str| std::env::var(k).ok();
    let mut cfg = DispatchConfig::default();
    if let Some(c) = var("HOOKS_BENCH_CONTAINMENT") {
        cfg.containment = hooks_dispatch::Containment::parse(&c).expect("a containment name");
    }
    if let Some(l) = var("HOOKS_BENCH_LIMITS_VIA") {
        cfg.limits_via = hooks_dispatch::LimitsVia::parse(&l).expect("a way of enforcing limits");
    }
    cfg
}

/// `HOOKS_BENCH_PROFILE=N`: only `N` fires of one `/bin/true` hook, back to back, for a
/// profiler (`perf record`, `perf stat`, `strace -c`) to attribute the engine's time; prints
/// the mean and median wall time of a fire (the pauses of `HOOKS_BENCH_PROFILE_SPACING_MS`
/// not counted) and the engine's own CPU time (user, system) per fire, from
/// `/proc/self/stat`. `HOOKS_BENCH_PROFILE_SIDE=bare` (std's round trip) or `tokio` (the
/// tokio round trip) runs the baselines the same way, for the counters of both sides.
fn profile(
    rt: &tokio::runtime::Runtime,
    d: &Dispatcher,
    env: &Envelope,
    ctx: &FireContext,
    n: u32,
) {
    #[allow(clippy::disallowed_methods, reason = "the bench's own switch")]
    let side = std::env::var("HOOKS_BENCH_PROFILE_SIDE").unwrap_or_default();
    // `HOOKS_BENCH_PROFILE_SPACING_MS=M`: a pause of `M` ms before each fire, as in the spaced
    // case (caches, CPU idle states and the kernel's deferred work as a hook seconds apart
    // finds them).
    #[allow(clippy::disallowed_methods, reason = "the bench's own switch")]
    let spacing = std::env::var("HOOKS_BENCH_PROFILE_SPACING_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis);
    let b = [binding("h", HookEvent::PreToolUse, &["/bin/true"])];
    let payload = serde_json::to_vec(env).expect("payload");
    // Each fire is timed alone (not the pause before it).
    let once = || {
        if let Some(p) = spacing {
            std::thread::sleep(p);
        }
        let t = Instant::now();
        match side.as_str() {
            "bare" => {
                bare_round_trip(&["/bin/true"], &payload);
            }
            "tokio" => {
                rt.block_on(bare_tokio_round_trip(&["/bin/true"], &payload));
            }
            _ => {
                rt.block_on(d.fire(&b, env, ctx));
            }
        }
        t.elapsed()
    };
    for _ in 0..50 {
        once();
    }
    let before = cpu_ticks();
    let mut fires: Vec<f64> = (0..n.max(1)).map(|_| once().as_secs_f64() * 1e6).collect();
    let wall = Duration::from_secs_f64(fires.iter().sum::<f64>() / 1e6);
    let after = cpu_ticks();
    // Clock ticks are 10 ms (`USER_HZ` 100).
    let per = |a: u64, b: u64| (b.saturating_sub(a)) as f64 * 10_000.0 / f64::from(n.max(1));
    println!(
        "{}",
        json!({
            "fires": n.max(1),
            "wall_us_per_fire": wall.as_secs_f64() * 1e6 / f64::from(n.max(1)),
            "median_us_per_fire": median(&mut fires),
            "engine_user_us_per_fire": per(before.0, after.0),
            "engine_system_us_per_fire": per(before.1, after.1),
            "load_average": load_average(),
        })
    );
}

/// This process's user and system CPU time in clock ticks (`/proc/self/stat` fields 14, 15).
fn cpu_ticks() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, a)| a);
    // After the command: the state (field 3), then ppid (4) … utime (14) and stime (15).
    let f: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| f.get(i).and_then(|w| w.parse().ok()).unwrap_or(0);
    (field(11), field(12))
}

/// `resource:way` for each limit in force.
fn limit_names(r: &hooks_dispatch::ContainmentReport) -> Vec<String> {
    r.limits.iter().map(|l| format!("{}:{}", l.resource, l.via)).collect()
}

/// The 1-minute load average (0 where unreadable).
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0.0)
}
