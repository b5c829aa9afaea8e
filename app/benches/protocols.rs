//! Benchmark of every registered format's hook protocol against the same protocol done by
//! hand (area `protocols`).
//!
//! For each format's codec one blocking pre-tool-use hook (a shell script that reads its
//! payload and answers "allow" the way its format says) is fired three ways, in interleaved
//! rounds so machine noise hits all alike (each round a block of
//! [`BLOCK`](hooks_testing::bench::BLOCK) samples per side, the sides in an order shuffled from
//! round to round, [`hooks_testing::bench`]; a block's first sample, which mostly follows
//! another side's, is kept apart, so every median is of samples that follow their own side, as
//! an agent's hook follows its previous one: `specs/dispatch.md`, "The side before a sample
//! (session 26)"):
//! - **in-process**: [`FireHandle::fire`] of a [`HookRuntime`] that loaded the format's file;
//! - **serve**: a `fire` request over OS pipes to [`run_stdio_with`] (the code `hooks serve
//!   --stdio` runs), JSON lines both ways;
//! - **by hand**: what an agent of that format does, written directly with `std::process`:
//!   the same command spawned the way that agent spawns it (its shell with `-c` for a command
//!   string, `-lc` for Codex, direct exec for an argv), the same payload bytes built from a
//!   JSON value each round and delivered the same way (stdin, or Chrys's payload and result
//!   files named in its variables), the same variables, then stdout, stderr and the exit
//!   status read and the answer parsed as JSON. The payload, variables and command are taken
//!   from the format's codec once, before timing, so both sides run exactly the same thing.
//!
//! Next to them, a bare echo over the same kind of pipes gives the serve round trip the serve
//! target allows. Reported per format and run: medians, `in_process_ratio` = in-process / by
//! hand (target ≤ 1.05) and `serve_ratio` = serve / (by hand + echo round trip) (target
//! ≤ 1.05). Then a breakdown: the engine's phases (the `hooks.*` spans of `hooks-dispatch`
//! and the runtime, timed by a subscriber of this bench) and the by-hand phases, medians in
//! microseconds, so every extra 100 µs has a name, and `extra_over_hand_us`: each engine phase
//! against the by-hand phase doing the same work (payload and files before the spawn, the
//! spawn, the process and its pipes, answer and files after, and the engine's glue that has no
//! by-hand counterpart: the runtime's plan and context, the fold and the report).
//!
//! `--json` prints one JSON object; otherwise a table. `--rounds N` (default 150) and `--runs N`
//! (default 3) set the samples per side and run (following their own side's) and the runs per
//! format; format names (`chrys claude`)
//! measure only those.
//!
//! `HOOKS_BENCH_CONTAINMENT` (`cgroup-kill`, `process-group`, …) and `HOOKS_BENCH_LIMITS_VIA`
//! (`cgroup-v1`, `rlimit`, `off`, …) set the engine's containment and limits, as in the
//! dispatch bench, to see their share; `HOOKS_BENCH_LIMITS` (comma-separated settings as
//! `hooks` takes them, `memory=max,pids=256`) changes the default limits themselves, to see
//! one resource's share (`memory=max` lifts the memory limit alone).
//!
//! `--side in-process|serve|by-hand|echo --fires N` fires only that side, N times per format
//! after the warm-up, and prints nothing but the wall time: the run to wrap in `perf stat` or
//! `strace -f -c` for counts per fire (instructions and system calls do not depend on the
//! machine's load, so they show a cut where loaded wall times cannot).

use std::{
    collections::HashMap,
    io::{BufRead, BufReader, Read, Write},
    os::unix::fs::{OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use hooks_app::{
    runtime::{FireHandle, HookRuntime, RuntimeConfig},
    serve::{PolledInput, ServeOptions, run_stdio_with},
};
use hooks_dispatch::FireContext;
use hooks_schema::{
    Envelope, ExplicitScope, FormatId, HookEvent, Program, ProvidedFileRole, ToolCall, ToolKind,
};
use hooks_sources::ExplicitHookSource;
use hooks_testing::bench::{Interleaved, Order};
use hooks_trust::Surface;
use serde_json::{Value, json};

/// How an agent starts the hook's command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spawn {
    /// `sh -c COMMAND` (a command string).
    Shell,
    /// The user's shell as a login shell, `-lc COMMAND` (Codex).
    LoginShell,
    /// The argv, executed directly.
    Argv,
}

/// One format's case: its hooks file, the hook script, and how its agent runs it.
struct Case {
    name: &'static str,
    format: FormatId,
    file_name: &'static str,
    /// The hooks file; `SCRIPT` stands for the script's path.
    file: &'static str,
    /// The script's body after `#!/bin/sh`.
    script: &'static str,
    spawn: Spawn,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "cursor",
            format: hooks_format_cursor::FORMAT,
            file_name: "hooks.json",
            file: r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "SCRIPT"}]}}"#,
            script: "cat >/dev/null\necho '{\"permission\":\"allow\"}'\n",
            spawn: Spawn::Shell,
        },
        Case {
            name: "chrys",
            format: hooks_format_chrys::FORMAT,
            file_name: "hooks.yaml",
            file: "version: 1\nhooks:\n  - id: gate\n    event: before_tool_call\n    run: {type: command, argv: [SCRIPT]}\n    execution: {mode: blocking, timeout_seconds: 5}\n",
            script: "cat \"$CHRYS_HOOK_PAYLOAD_FILE\" >/dev/null\necho '{\"action\":\"allow\"}' > \"$CHRYS_HOOK_RESULT\"\n",
            spawn: Spawn::Argv,
        },
        Case {
            name: "claude",
            format: hooks_format_claude::FORMAT,
            file_name: "settings.json",
            file: r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "SCRIPT"}]}]}}"#,
            script: "cat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n",
            spawn: Spawn::Shell,
        },
        Case {
            name: "codex",
            format: hooks_format_codex::FORMAT,
            file_name: "hooks.json",
            file: r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "SCRIPT"}]}]}}"#,
            // Codex reads an empty answer as "no objection" (it supports no explicit allow).
            script: "cat >/dev/null\n",
            spawn: Spawn::LoginShell,
        },
        Case {
            name: "gemini",
            format: hooks_format_gemini::FORMAT,
            file_name: "settings.json",
            file: r#"{"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [{"type": "command", "command": "SCRIPT"}]}]}}"#,
            script: "cat >/dev/null\necho '{\"decision\":\"allow\"}'\n",
            spawn: Spawn::Shell,
        },
        Case {
            name: "copilot",
            format: hooks_format_copilot::FORMAT,
            file_name: "hooks.json",
            file: r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "SCRIPT", "timeoutSec": 30}]}}"#,
            script: "cat >/dev/null\necho '{\"permissionDecision\":\"allow\"}'\n",
            spawn: Spawn::Shell,
        },
        Case {
            name: "windsurf",
            format: hooks_format_windsurf::FORMAT,
            file_name: "hooks.json",
            file: r#"{"hooks": {"pre_run_command": [{"command": "SCRIPT"}]}}"#,
            script: "cat >/dev/null\n",
            spawn: Spawn::Shell,
        },
    ]
}

/// A shell tool call whose command is about 1 KiB, as in `fire_bench.py`.
fn envelope(cwd: &Path) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("bench-session-0001".to_owned());
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(ToolCall {
        name: "Shell".to_owned(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("call-1".to_owned()),
        mcp_server: None,
        args: json!({ "command": format!("ls {}", "x".repeat(900)) }),
    });
    e
}

/// The runtime an embedder (or `hooks serve`) builds: the format's file as an explicit source,
/// provided files in `<runtime_dir>/tmp` as the hooks tool does with its state folder.
fn runtime(case: &Case, file: &Path, runtime_dir: &Path) -> HookRuntime {
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.dispatch.runtime_dir = Some(runtime_dir.to_path_buf());
    #[allow(clippy::disallowed_methods, reason = "the bench's own switches")]
    let var = |k: &str| std::env::var(k).ok();
    if let Some(c) = var("HOOKS_BENCH_CONTAINMENT") {
        config.dispatch.containment =
            hooks_dispatch::Containment::parse(&c).expect("a containment name");
    }
    if let Some(l) = var("HOOKS_BENCH_LIMITS_VIA") {
        config.dispatch.limits_via =
            hooks_dispatch::LimitsVia::parse(&l).expect("a way of enforcing limits");
    }
    if let Some(l) = var("HOOKS_BENCH_LIMITS") {
        let settings: Vec<hooks_dispatch::LimitSetting> =
            l.split(',').map(|s| s.parse().expect("a limit")).collect();
        config.dispatch.apply_limits(&settings);
    }
    config.explicit_sources =
        vec![ExplicitHookSource::new(ExplicitScope::RunDelivered, file, case.format)];
    let mut rt = HookRuntime::new(config);
    let errors = rt.load_explicit_sources();
    assert!(errors.is_empty(), "{}: {errors:?}", case.name);
    rt
}

// ---------------------------------------------------------------------------------------
// By hand

/// The protocol of one case as an agent runs it, from the codec's invocation.
struct ByHand {
    argv: Vec<String>,
    cwd: Option<PathBuf>,
    env: Vec<(String, String)>,
    env_remove: Vec<String>,
    /// The stdin payload, rebuilt into bytes each round.
    stdin: Option<Value>,
    /// Provided files: variable, and the input payload (`None`: an output file).
    files: Vec<(String, Option<Value>)>,
    /// Where the provided files go.
    dir: PathBuf,
}

/// The by-hand phases of one round, in microseconds.
#[derive(Default)]
struct HandPhases {
    samples: HashMap<&'static str, Vec<f64>>,
}

impl HandPhases {
    fn add(&mut self, name: &'static str, since: &mut Instant) {
        let now = Instant::now();
        self.samples.entry(name).or_default().push((now - *since).as_secs_f64() * 1e6);
        *since = now;
    }
}

fn payload_value(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("the codec's payload is JSON")
}

impl ByHand {
    fn new(case: &Case, fire: &FireHandle, env: &Envelope, dir: &Path) -> ByHand {
        let plan = fire.plan(env);
        let [binding] = plan.bindings() else {
            panic!("{}: {} bindings, expected one", case.name, plan.bindings().len())
        };
        let def = &binding.definition;
        let ctx = FireContext::default();
        let inv = def.codec.encode(def, env, &ctx.encode_context(binding)).expect("encode");
        let (argv, spawn) = match &inv.program {
            Program::Shell { script, shell } => (
                vec![
                    shell.clone().unwrap_or_else(|| "/bin/sh".to_owned()),
                    "-c".into(),
                    script.clone(),
                ],
                Spawn::Shell,
            ),
            Program::Exec { argv } if argv.get(1).is_some_and(|a| a == "-lc") => {
                (argv.clone(), Spawn::LoginShell)
            }
            Program::Exec { argv } => (argv.clone(), Spawn::Argv),
            Program::FirstAvailable { .. } => panic!("{}: interpreter choice", case.name),
            Program::Http(_) => panic!("{}: an HTTP hook has no process to spawn", case.name),
        };
        assert_eq!(spawn, case.spawn, "{}: the codec spawns {spawn:?}", case.name);
        ByHand {
            argv,
            cwd: inv.cwd.clone(),
            env: inv.env.clone(),
            env_remove: inv.env_remove.clone(),
            stdin: (!inv.stdin.is_empty()).then(|| payload_value(&inv.stdin)),
            files: inv
                .files
                .iter()
                .map(|f| {
                    let input = match &f.role {
                        ProvidedFileRole::Input(b) => Some(payload_value(b)),
                        ProvidedFileRole::Output => None,
                    };
                    (f.env_var.clone(), input)
                })
                .collect(),
            dir: dir.to_path_buf(),
        }
    }

    /// One round; the answer (stdout's or the result file's JSON, if any) is checked.
    fn run(&self, round: usize, mut phases: Option<&mut HandPhases>) -> Duration {
        let t = Instant::now();
        let mut mark = t;
        let mut note = |name, mark: &mut Instant| {
            if let Some(p) = phases.as_deref_mut() {
                p.add(name, mark);
            }
        };
        let stdin = self.stdin.as_ref().map(|v| serde_json::to_vec(v).expect("payload"));
        let mut cmd = Command::new(&self.argv[0]);
        cmd.args(&self.argv[1..]);
        if let Some(cwd) = &self.cwd {
            cmd.current_dir(cwd);
        }
        for k in &self.env_remove {
            cmd.env_remove(k);
        }
        let mut paths = Vec::new();
        let mut result = None;
        for (i, (var, input)) in self.files.iter().enumerate() {
            let path = self.dir.join(format!("hand-{round}-{i}.json"));
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path)
                .expect("provided file");
            match input {
                Some(v) => f.write_all(&serde_json::to_vec(v).expect("payload")).expect("write"),
                None => result = Some(path.clone()),
            }
            cmd.env(var, &path);
            paths.push(path);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        note("build", &mut mark);
        let mut child = cmd
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        note("spawn", &mut mark);
        if let (Some(bytes), Some(mut w)) = (&stdin, child.stdin.take()) {
            let _ = w.write_all(bytes);
        }
        note("stdin", &mut mark);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        child.stdout.take().expect("stdout").read_to_end(&mut out).expect("stdout");
        child.stderr.take().expect("stderr").read_to_end(&mut err).expect("stderr");
        note("read", &mut mark);
        let status = child.wait().expect("wait");
        note("wait", &mut mark);
        let answer = match &result {
            Some(p) => std::fs::read(p).expect("result file"),
            None => out,
        };
        for p in &paths {
            let _ = std::fs::remove_file(p);
        }
        assert!(status.success(), "by hand: {status}");
        let trimmed = answer.trim_ascii();
        if !trimmed.is_empty() {
            let v: Value = serde_json::from_slice(trimmed).expect("the answer is JSON");
            std::hint::black_box(v);
        }
        note("answer", &mut mark);
        t.elapsed()
    }
}

// ---------------------------------------------------------------------------------------
// Serve over pipes

struct Server {
    input: std::io::PipeWriter,
    output: BufReader<std::io::PipeReader>,
    thread: thread::JoinHandle<()>,
}

impl Server {
    fn start(rt: HookRuntime) -> Server {
        let (in_r, in_w) = std::io::pipe().expect("pipe");
        let (out_r, out_w) = std::io::pipe().expect("pipe");
        let thread = thread::spawn(move || {
            run_stdio_with(rt, PolledInput::new(in_r), out_w, ServeOptions::default())
                .expect("serve");
        });
        let mut output = BufReader::new(out_r);
        let mut hello = String::new();
        output.read_line(&mut hello).expect("hello");
        assert!(hello.contains("\"hello\""), "{hello}");
        Server { input: in_w, output, thread }
    }

    fn fire(&mut self, request: &str, line: &mut String) -> Duration {
        let t = Instant::now();
        self.input.write_all(request.as_bytes()).expect("write");
        line.clear();
        self.output.read_line(line).expect("read");
        let d = t.elapsed();
        assert!(line.contains("\"status\":\"ran\"") && !line.contains("\"failure\":\""), "{line}");
        d
    }

    fn stop(self) {
        drop(self.input);
        let mut out = self.output;
        let mut rest = String::new();
        while out.read_line(&mut rest).map(|n| n > 0).unwrap_or(false) {}
        self.thread.join().expect("server thread");
    }
}

/// A one-thread server that answers each line without parsing it: the pipes' own round trip.
struct Echo {
    input: std::io::PipeWriter,
    output: BufReader<std::io::PipeReader>,
    thread: thread::JoinHandle<()>,
}

impl Echo {
    fn start() -> Echo {
        let (in_r, input) = std::io::pipe().expect("pipe");
        let (out_r, mut out_w) = std::io::pipe().expect("pipe");
        let thread = thread::spawn(move || {
            let mut reader = BufReader::new(in_r);
            let mut line = String::new();
            while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                out_w.write_all(b"{\"id\":0,\"result\":{}}\n").expect("echo");
                line.clear();
            }
        });
        Echo { input, output: BufReader::new(out_r), thread }
    }

    fn round_trip(&mut self, request: &str, line: &mut String) -> Duration {
        let t = Instant::now();
        self.input.write_all(request.as_bytes()).expect("write");
        line.clear();
        self.output.read_line(line).expect("read");
        t.elapsed()
    }

    fn stop(self) {
        drop(self.input);
        self.thread.join().expect("echo thread");
    }
}

// ---------------------------------------------------------------------------------------
// Span timing

/// A `tracing` subscriber that times the `hooks.*` spans from creation to close, while on.
struct SpanTimer {
    on: AtomicBool,
    next: AtomicU64,
    /// Open spans: name, start, handles.
    live: Mutex<HashMap<u64, (&'static str, Instant, usize)>>,
    done: Mutex<HashMap<&'static str, Vec<f64>>>,
}

impl SpanTimer {
    fn take(&self) -> HashMap<&'static str, Vec<f64>> {
        std::mem::take(&mut *self.done.lock().expect("lock"))
    }
}

impl tracing::Subscriber for SpanTimer {
    fn register_callsite(
        &self,
        _: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }

    fn enabled(&self, meta: &tracing::Metadata<'_>) -> bool {
        meta.is_span() && meta.name().starts_with("hooks.") && self.on.load(Ordering::Relaxed)
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.live.lock().expect("lock").insert(id, (span.metadata().name(), Instant::now(), 1));
        tracing::span::Id::from_u64(id)
    }

    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, _: &tracing::Event<'_>) {}

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}

    fn clone_span(&self, id: &tracing::span::Id) -> tracing::span::Id {
        if let Some(s) = self.live.lock().expect("lock").get_mut(&id.into_u64()) {
            s.2 += 1;
        }
        id.clone()
    }

    fn try_close(&self, id: tracing::span::Id) -> bool {
        let mut live = self.live.lock().expect("lock");
        let Some(s) = live.get_mut(&id.into_u64()) else { return false };
        s.2 -= 1;
        if s.2 > 0 {
            return false;
        }
        let (name, start, _) = live.remove(&id.into_u64()).expect("live span");
        drop(live);
        let us = start.elapsed().as_secs_f64() * 1e6;
        self.done.lock().expect("lock").entry(name).or_default().push(us);
        true
    }
}

// ---------------------------------------------------------------------------------------

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn load_avg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The number after `--flag` on the command line, or `default`.
fn arg_usize(args: &[String], flag: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One run's medians for one case (milliseconds).
struct Run {
    in_process: f64,
    serve: f64,
    by_hand: f64,
    echo: f64,
    /// The medians of the blocks' first samples, each after another side's sample.
    in_process_after_other: f64,
    by_hand_after_other: f64,
}

impl Run {
    fn in_process_ratio(&self) -> f64 {
        self.in_process / self.by_hand
    }

    /// In-process over by hand, of the blocks' first samples.
    fn in_process_ratio_after_other_side(&self) -> f64 {
        self.in_process_after_other / self.by_hand_after_other
    }

    fn serve_ratio(&self) -> f64 {
        self.serve / (self.by_hand + self.echo)
    }
}

struct Measured {
    case: &'static str,
    spawn: Spawn,
    delivery: &'static str,
    runs: Vec<Run>,
    engine_phases: Vec<(&'static str, f64)>,
    hand_phases: Vec<(&'static str, f64)>,
}

const WARMUP: usize = 15;

/// The one side `--side` fires (for counts per fire).
#[derive(Debug, Clone, Copy)]
enum Side {
    InProcess,
    Serve,
    ByHand,
    Echo,
}

impl Side {
    fn parse(s: &str) -> Option<Side> {
        Some(match s {
            "in-process" => Side::InProcess,
            "serve" => Side::Serve,
            "by-hand" => Side::ByHand,
            "echo" => Side::Echo,
            _ => return None,
        })
    }
}

fn measure(
    case: &Case,
    dir: &Path,
    tokio_rt: &tokio::runtime::Runtime,
    (rounds, runs): (usize, usize),
    profile: Option<(Side, usize)>,
    timer: &SpanTimer,
) -> Measured {
    let cdir = dir.join(case.name);
    std::fs::create_dir_all(&cdir).expect("case dir");
    let script = cdir.join("hook.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{}", case.script)).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = cdir.join(case.file_name);
    std::fs::write(&file, case.file.replace("SCRIPT", script.to_str().expect("utf-8")))
        .expect("hooks file");
    let files_dir = cdir.join("files");
    std::fs::create_dir_all(&files_dir).expect("files dir");
    let env = envelope(&cdir);

    let runtime_dir = cdir.join("runtime");
    let rt = runtime(case, &file, &runtime_dir);
    let fire = rt.fire_handle();
    let hand = ByHand::new(case, &fire, &env, &files_dir);
    let delivery = if hand.files.is_empty() { "stdin" } else { "files" };
    let mut server = Server::start(runtime(case, &file, &runtime_dir));
    let mut echo = Echo::start();
    let env_json = serde_json::to_string(&env).expect("envelope");
    let request =
        format!("{{\"id\":1,\"method\":\"fire\",\"params\":{{\"envelope\":{env_json}}}}}\n");
    let mut line = String::new();

    let in_process = || {
        let t = Instant::now();
        let r = tokio_rt.block_on(fire.fire(&env));
        let d = t.elapsed();
        assert!(
            r.runs.len() == 1 && r.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()),
            "{}: {r:?}",
            case.name
        );
        d
    };
    let mut round = 0usize;
    if let Some((side, fires)) = profile {
        for _ in 0..WARMUP + fires {
            match side {
                Side::InProcess => {
                    in_process();
                }
                Side::Serve => {
                    server.fire(&request, &mut line);
                }
                Side::ByHand => {
                    hand.run(round, None);
                    round += 1;
                }
                Side::Echo => {
                    echo.round_trip(&request, &mut line);
                }
            }
        }
        server.stop();
        echo.stop();
        return Measured {
            case: case.name,
            spawn: case.spawn,
            delivery,
            runs: Vec::new(),
            engine_phases: Vec::new(),
            hand_phases: Vec::new(),
        };
    }
    for _ in 0..WARMUP {
        in_process();
        server.fire(&request, &mut line);
        hand.run(round, None);
        round += 1;
        echo.round_trip(&request, &mut line);
    }
    let mut all = Vec::new();
    // One sequence of shuffles for this format's runs (the same on every run of the bench).
    let mut order = Order::default();
    for _ in 0..runs {
        // Per side (in-process, serve, by hand, echo): the samples that follow their own
        // side's, and the blocks' first samples.
        let Interleaved { mut own, mut after_other } = order.interleave(4, rounds, |side| {
            ms(match side {
                0 => in_process(),
                1 => server.fire(&request, &mut line),
                2 => {
                    round += 1;
                    hand.run(round - 1, None)
                }
                _ => echo.round_trip(&request, &mut line),
            })
        });
        all.push(Run {
            in_process: median(&mut own[0]),
            serve: median(&mut own[1]),
            by_hand: median(&mut own[2]),
            echo: median(&mut own[3]),
            in_process_after_other: median(&mut after_other[0]),
            by_hand_after_other: median(&mut after_other[2]),
        });
    }

    // Where the time goes: the engine's spans (on only now) and the by-hand phases.
    timer.take();
    let mut hand_phases = HandPhases::default();
    timer.on.store(true, Ordering::Relaxed);
    let mut totals = Vec::new();
    for _ in 0..rounds.min(100) {
        totals.push(in_process().as_secs_f64() * 1e6);
        let t = hand.run(round, Some(&mut hand_phases));
        hand_phases.samples.entry("total").or_default().push(t.as_secs_f64() * 1e6);
        round += 1;
    }
    timer.on.store(false, Ordering::Relaxed);
    let mut spans = timer.take();
    spans.insert("total", totals);
    let mut engine: Vec<(&'static str, f64)> =
        spans.into_iter().map(|(k, mut v)| (k, median(&mut v))).collect();
    engine.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut hand_p: Vec<(&'static str, f64)> =
        hand_phases.samples.into_iter().map(|(k, mut v)| (k, median(&mut v))).collect();
    hand_p.sort_by(|a, b| b.1.total_cmp(&a.1));

    server.stop();
    echo.stop();
    Measured {
        case: case.name,
        spawn: case.spawn,
        delivery,
        runs: all,
        engine_phases: engine,
        hand_phases: hand_p,
    }
}

/// Where the in-process fire's time over the same protocol by hand goes, in microseconds:
/// each engine phase against the by-hand phase that does the same work (medians of the
/// breakdown rounds, so the parts need not add up to `total` exactly).
fn extra_over_hand(
    engine: &[(&'static str, f64)],
    hand: &[(&'static str, f64)],
) -> Vec<(&'static str, f64)> {
    let e = |k: &str| engine.iter().find(|(n, _)| *n == k).map_or(0.0, |(_, v)| *v);
    let h = |k: &str| hand.iter().find(|(n, _)| *n == k).map_or(0.0, |(_, v)| *v);
    let phases = e("hooks.encode")
        + e("hooks.prepare")
        + e("hooks.spawn")
        + e("hooks.wait")
        + e("hooks.finish")
        + e("hooks.decode");
    vec![
        ("payload_and_files_before", e("hooks.encode") + e("hooks.prepare") - h("build")),
        ("spawn", e("hooks.spawn") - h("spawn")),
        ("process_and_pipes", e("hooks.wait") - (h("stdin") + h("read") + h("wait"))),
        ("answer_and_files_after", e("hooks.finish") + e("hooks.decode") - h("answer")),
        ("engine_glue", e("total") - phases),
        ("total", e("total") - h("total")),
    ]
}

fn range(v: impl Iterator<Item = f64>) -> [f64; 2] {
    let v: Vec<f64> = v.collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [round3(lo), round3(hi)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_out = args.iter().any(|a| a == "--json");
    let rounds = arg_usize(&args, "--rounds", 150);
    let runs = arg_usize(&args, "--runs", 3);
    let known = |a: &&String| cases().iter().any(|c| c.name == a.as_str());
    let only: Vec<String> = args.iter().filter(known).cloned().collect();
    let profile = args.iter().position(|a| a == "--side").map(|i| {
        let side = args.get(i + 1).and_then(|s| Side::parse(s));
        let side = side.expect("--side in-process|serve|by-hand|echo");
        (side, arg_usize(&args, "--fires", 1000))
    });
    let timer = Arc::new(SpanTimer {
        on: AtomicBool::new(false),
        next: AtomicU64::new(0),
        live: Mutex::default(),
        done: Mutex::default(),
    });
    tracing::subscriber::set_global_default(Arc::clone(&timer)).expect("subscriber");
    let dir = tempfile::tempdir().expect("temp dir");
    let tokio_rt =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
    let load_before = load_avg();
    let mechanism = HookRuntime::new(RuntimeConfig::new(Surface::CliRun))
        .fire_handle()
        .containment()
        .mechanism
        .as_str()
        .to_owned();
    let mut measured = Vec::new();
    for case in cases() {
        if !only.is_empty() && !only.iter().any(|o| o == case.name) {
            continue;
        }
        let t = Instant::now();
        measured.push(measure(&case, dir.path(), &tokio_rt, (rounds, runs), profile, &timer));
        if let Some((side, fires)) = profile {
            println!("{} {side:?}: {fires} fires in {:.3} s", case.name, t.elapsed().as_secs_f64());
        }
    }
    if profile.is_some() {
        return;
    }
    let load_after = load_avg();

    if json_out {
        let mut formats = serde_json::Map::new();
        for m in &measured {
            let phases = |p: &[(&'static str, f64)]| {
                Value::Object(p.iter().map(|(k, v)| ((*k).to_owned(), json!(round3(*v)))).collect())
            };
            formats.insert(
                m.case.to_owned(),
                json!({
                    "spawn": format!("{:?}", m.spawn).to_lowercase(),
                    "delivery": m.delivery,
                    "in_process_ms": m.runs.iter().map(|r| round3(r.in_process)).collect::<Vec<_>>(),
                    "serve_ms": m.runs.iter().map(|r| round3(r.serve)).collect::<Vec<_>>(),
                    "by_hand_ms": m.runs.iter().map(|r| round3(r.by_hand)).collect::<Vec<_>>(),
                    "echo_round_trip_us": m.runs.iter().map(|r| round3(r.echo * 1e3)).collect::<Vec<_>>(),
                    "in_process_ratio": m.runs.iter().map(|r| round3(r.in_process_ratio())).collect::<Vec<_>>(),
                    "in_process_ratio_range": range(m.runs.iter().map(Run::in_process_ratio)),
                    "in_process_ratio_after_other_side": m.runs.iter().map(|r| round3(r.in_process_ratio_after_other_side())).collect::<Vec<_>>(),
                    "serve_ratio": m.runs.iter().map(|r| round3(r.serve_ratio())).collect::<Vec<_>>(),
                    "serve_ratio_range": range(m.runs.iter().map(Run::serve_ratio)),
                    "engine_phases_us": phases(&m.engine_phases),
                    "by_hand_phases_us": phases(&m.hand_phases),
                    "extra_over_hand_us": phases(&extra_over_hand(&m.engine_phases, &m.hand_phases)),
                }),
            );
        }
        println!(
            "{}",
            json!({
                "rounds": rounds,
                "runs": runs,
                "containment_mechanism": mechanism,
                "load_avg_before": load_before,
                "load_avg_after": load_after,
                "formats": formats,
            })
        );
        return;
    }
    println!(
        "rounds {rounds} × runs {runs}; containment {mechanism}; load {load_before} → {load_after}"
    );
    println!(
        "{:<9} {:>6} {:>6} {:>11} {:>9} {:>9} {:>8} {:>12} {:>12}",
        "format",
        "spawn",
        "input",
        "in-proc ms",
        "serve ms",
        "hand ms",
        "echo µs",
        "in-proc/hand",
        "serve/(h+e)"
    );
    for m in &measured {
        for r in &m.runs {
            println!(
                "{:<9} {:>6} {:>6} {:>11.3} {:>9.3} {:>9.3} {:>8.1} {:>12.3} {:>12.3}",
                m.case,
                format!("{:?}", m.spawn).to_lowercase(),
                m.delivery,
                r.in_process,
                r.serve,
                r.by_hand,
                r.echo * 1e3,
                r.in_process_ratio(),
                r.serve_ratio()
            );
        }
    }
    for m in &measured {
        let show = |p: &[(&'static str, f64)]| {
            p.iter().map(|(k, v)| format!("{k} {v:.0}")).collect::<Vec<_>>().join(", ")
        };
        println!("{} engine µs: {}", m.case, show(&m.engine_phases));
        println!("{} by hand µs: {}", m.case, show(&m.hand_phases));
        println!(
            "{} extra over by hand µs: {}",
            m.case,
            show(&extra_over_hand(&m.engine_phases, &m.hand_phases))
        );
    }
}
