//! Benchmark of the serve protocol's own cost (area `serve`).
//!
//! Measured side by side in one run, over in-process stdio pipes (the same byte path a child
//! process's stdin and stdout take, without the process):
//! - the round trip of one `fire` that matches no hook: write the request line, read the
//!   answer line (the protocol's own overhead: framing, parsing, the fire, rendering), with
//!   the threads wherever the kernel puts them, then forced onto two vCPUs (every wake-up
//!   crosses) and onto one; next to it a bare echo over the same pipes (the floor);
//! - the same request's work on one thread without pipes (parse, plan, fire, render,
//!   encode), which is what the server adds to the floor;
//! - 1 000 pipelined `fire` requests that each run one cheap hook (`true` from a Cursor
//!   file named as an explicit source), against the same 1 000 fires through the Rust API
//!   (`FireHandle::fire`, all in flight at once on a runtime of the same size).
//!
//! `--json` prints one JSON object; otherwise a table of medians and the ratio.

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use hooks_app::{
    runtime::{HookRuntime, RuntimeConfig},
    serve::{
        PolledInput, Request, ServeOptions, parse_request, protocol::response, render,
        run_stdio_with,
    },
};
use hooks_schema::ExplicitScope;
use hooks_schema::{Envelope, HookEvent, ToolCall, ToolKind};
use hooks_sources::ExplicitHookSource;
use hooks_trust::Surface;
use nix::{
    sched::{CpuSet, sched_setaffinity},
    unistd::Pid,
};
use serde_json::json;

const ROUNDTRIPS: usize = 3_000;
const PIPELINED: usize = 1_000;
const PIPELINE_ROUNDS: usize = 3;

fn runtime(hooks: Option<&Path>) -> HookRuntime {
    let mut config = RuntimeConfig::new(Surface::CliRun);
    if let Some(file) = hooks {
        config.explicit_sources = vec![ExplicitHookSource::new(
            ExplicitScope::RunDelivered,
            file,
            hooks_format_cursor::FORMAT,
        )];
    }
    let mut rt = HookRuntime::new(config);
    let errors = rt.load_explicit_sources();
    assert!(errors.is_empty(), "{errors:?}");
    rt
}

fn envelope(cwd: &Path) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(ToolCall {
        name: "Shell".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({ "command": "ls" }),
    });
    e
}

/// A server over pipes: the request writer, the answer lines, the server thread.
struct Pipes {
    input: std::io::PipeWriter,
    output: BufReader<std::io::PipeReader>,
    server: thread::JoinHandle<()>,
}

/// Where the client and the server run: wherever the kernel puts them, or pinned (the
/// server's threads inherit the CPU of the thread that starts it).
#[derive(Debug, Clone, Copy)]
enum Placement {
    Free,
    /// Client on one vCPU, every server thread on another: each wake-up crosses vCPUs.
    Split,
    /// Client and server on the same vCPU.
    Shared,
}

impl Placement {
    fn cpus(self) -> Option<(usize, usize)> {
        match self {
            Placement::Free => None,
            Placement::Split => Some((0, 1)),
            Placement::Shared => Some((0, 0)),
        }
    }
}

/// Pins the calling thread to `cpu`; false when the machine or the kernel says no.
fn pin_to(cpu: usize) -> bool {
    let mut set = CpuSet::new();
    set.set(cpu).is_ok() && sched_setaffinity(Pid::from_raw(0), &set).is_ok()
}

/// Lets the calling thread run anywhere again.
fn unpin() {
    let mut set = CpuSet::new();
    for cpu in 0..CpuSet::count() {
        let _ = set.set(cpu);
    }
    let _ = sched_setaffinity(Pid::from_raw(0), &set);
}

fn start(rt: HookRuntime, server_cpu: Option<usize>) -> Pipes {
    let (in_r, in_w) = std::io::pipe().expect("pipe");
    let (out_r, out_w) = std::io::pipe().expect("pipe");
    let server = thread::spawn(move || {
        if let Some(cpu) = server_cpu {
            assert!(pin_to(cpu), "cannot pin the server to cpu {cpu}");
        }
        let input = PolledInput::new(in_r);
        run_stdio_with(rt, input, out_w, ServeOptions::default()).expect("serve");
    });
    let mut output = BufReader::new(out_r);
    let mut hello = String::new();
    output.read_line(&mut hello).expect("hello");
    assert!(hello.contains("\"hello\""), "{hello}");
    Pipes { input: in_w, output, server }
}

fn stop(p: Pipes) {
    drop(p.input);
    let mut rest = String::new();
    let mut out = p.output;
    while out.read_line(&mut rest).map(|n| n > 0).unwrap_or(false) {}
    p.server.join().expect("server thread");
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or(f64::NAN)
}

fn roundtrips(cwd: &Path, placement: Placement) -> Vec<f64> {
    let (client_cpu, server_cpu) = placement.cpus().unzip();
    let mut p = start(runtime(None), server_cpu);
    if let Some(cpu) = client_cpu {
        assert!(pin_to(cpu), "cannot pin the client to cpu {cpu}");
    }
    let mut samples = Vec::with_capacity(ROUNDTRIPS);
    let mut line = String::new();
    let env = serde_json::to_string(&envelope(cwd)).expect("envelope");
    for i in 0..ROUNDTRIPS + 200 {
        let req = format!("{{\"id\":{i},\"method\":\"fire\",\"params\":{{\"envelope\":{env}}}}}\n");
        let t = Instant::now();
        p.input.write_all(req.as_bytes()).expect("write");
        line.clear();
        p.output.read_line(&mut line).expect("read");
        let dt = t.elapsed();
        assert!(line.contains("\"result\""), "{line}");
        if i >= 200 {
            samples.push(dt.as_secs_f64() * 1e6);
        }
    }
    unpin();
    stop(p);
    samples
}

/// The floor: the same request and pipes answered by a one-thread echo server that parses
/// nothing. On an idle virtual machine each cross-thread wake-up costs tens of microseconds,
/// so this floor moves with the machine's state; the serve figure is reported next to it.
fn echo_roundtrips(cwd: &Path) -> Vec<f64> {
    let (in_r, mut in_w) = std::io::pipe().expect("pipe");
    let (out_r, mut out_w) = std::io::pipe().expect("pipe");
    let server = thread::spawn(move || {
        let mut reader = BufReader::new(in_r);
        let mut line = String::new();
        while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
            out_w.write_all(b"{\"id\":0,\"result\":{}}\n").expect("echo");
            line.clear();
        }
    });
    let mut output = BufReader::new(out_r);
    let env = serde_json::to_string(&envelope(cwd)).expect("envelope");
    let mut samples = Vec::with_capacity(ROUNDTRIPS);
    let mut line = String::new();
    for i in 0..ROUNDTRIPS + 200 {
        let req = format!("{{\"id\":{i},\"method\":\"fire\",\"params\":{{\"envelope\":{env}}}}}\n");
        let t = Instant::now();
        in_w.write_all(req.as_bytes()).expect("write");
        line.clear();
        output.read_line(&mut line).expect("read");
        if i >= 200 {
            samples.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    drop(in_w);
    server.join().expect("echo thread");
    samples
}

/// The server's own work for one request, on this thread: parse, plan, fire (no hook),
/// render and encode, in microseconds per request (median of batches).
fn work(cwd: &Path) -> f64 {
    let rt = runtime(None);
    let fire = rt.fire_handle();
    let tokio_rt =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
    let env = serde_json::to_string(&envelope(cwd)).expect("envelope");
    let line = format!("{{\"id\":7,\"method\":\"fire\",\"params\":{{\"envelope\":{env}}}}}");
    let mut batches = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        for _ in 0..1_000 {
            let (id, request) = parse_request(line.as_bytes()).expect("request");
            let Request::Fire { envelope, .. } = request else { panic!("not a fire") };
            let plan = fire.plan(&envelope);
            assert!(plan.is_idle());
            let report = tokio_rt.block_on(fire.fire_planned(plan, &envelope));
            let bytes = serde_json::to_vec(&response(id, render::fire_report(&report, None)));
            std::hint::black_box(bytes.expect("encode"));
        }
        batches.push(t.elapsed().as_secs_f64() * 1e6 / 1_000.0);
    }
    median(&mut batches)
}

fn pipelined(hooks: &Path, cwd: &Path) -> Duration {
    let mut p = start(runtime(Some(hooks)), None);
    let env = serde_json::to_string(&envelope(cwd)).expect("envelope");
    let mut batch = String::new();
    for i in 0..PIPELINED {
        batch.push_str(&format!(
            "{{\"id\":{i},\"method\":\"fire\",\"params\":{{\"envelope\":{env}}}}}\n"
        ));
    }
    let (done_tx, done_rx) = mpsc::channel();
    let t = Instant::now();
    let mut input = p.input;
    let writer = thread::spawn(move || {
        input.write_all(batch.as_bytes()).expect("write batch");
        let _ = done_rx.recv();
        input
    });
    let mut line = String::new();
    let mut answered = 0;
    while answered < PIPELINED {
        line.clear();
        if p.output.read_line(&mut line).expect("read") == 0 {
            panic!("the server closed stdout after {answered} answers");
        }
        if line.contains("\"id\"") {
            assert!(line.contains("\"status\":\"ran\""), "{line}");
            answered += 1;
        }
    }
    let elapsed = t.elapsed();
    let _ = done_tx.send(());
    p.input = writer.join().expect("writer");
    stop(p);
    elapsed
}

fn through_api(hooks: &Path, cwd: &Path) -> Duration {
    let rt = runtime(Some(hooks));
    let fire = rt.fire_handle();
    let env = envelope(cwd);
    let tokio_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(ServeOptions::default().worker_threads)
        .enable_all()
        .build()
        .expect("tokio");
    tokio_rt.block_on(async move {
        let t = Instant::now();
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..PIPELINED {
            let (fire, env) = (fire.clone(), env.clone());
            set.spawn(async move {
                let report = fire.fire(&env).await;
                assert_eq!(report.runs.len(), 1);
            });
        }
        while let Some(r) = set.join_next().await {
            r.expect("fire task");
        }
        t.elapsed()
    })
}

fn main() {
    let json_out = std::env::args().any(|a| a == "--json");
    let dir = tempfile::tempdir().expect("temp dir");
    let hooks = dir.path().join("hooks.json");
    std::fs::write(
        &hooks,
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "true" } ] } }"#,
    )
    .expect("write hooks.json");
    let cwd = dir.path();

    let mut echo_samples = echo_roundtrips(cwd);
    let mut rt_samples = roundtrips(cwd, Placement::Free);
    echo_samples.extend(echo_roundtrips(cwd));
    // The two placements the free run lands in, forced: a machine with one CPU has no split.
    let two_cpus = thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
    let mut split = if two_cpus { roundtrips(cwd, Placement::Split) } else { Vec::new() };
    let mut shared = roundtrips(cwd, Placement::Shared);
    let work_us = work(cwd);
    let mut serve_ms = Vec::new();
    let mut api_ms = Vec::new();
    for _ in 0..PIPELINE_ROUNDS {
        api_ms.push(through_api(&hooks, cwd).as_secs_f64() * 1e3);
        serve_ms.push(pipelined(&hooks, cwd).as_secs_f64() * 1e3);
    }
    let fire_rt = median(&mut rt_samples);
    let fire_p90 = percentile(&mut rt_samples, 0.9);
    let echo_rt = median(&mut echo_samples);
    let split_rt = median(&mut split);
    let split_p90 = percentile(&mut split, 0.9);
    let shared_rt = median(&mut shared);
    let serve = median(&mut serve_ms);
    let api = median(&mut api_ms);
    let ratio = serve / api;
    if json_out {
        println!(
            "{}",
            json!({
                "fire_roundtrip_us": (fire_rt * 10.0).round() / 10.0,
                "fire_roundtrip_p90_us": (fire_p90 * 10.0).round() / 10.0,
                "echo_roundtrip_us": (echo_rt * 10.0).round() / 10.0,
                "fire_roundtrip_over_echo_us": ((fire_rt - echo_rt) * 10.0).round() / 10.0,
                "fire_roundtrip_split_us": (split_rt * 10.0).round() / 10.0,
                "fire_roundtrip_split_p90_us": (split_p90 * 10.0).round() / 10.0,
                "fire_roundtrip_shared_us": (shared_rt * 10.0).round() / 10.0,
                "protocol_work_us": (work_us * 100.0).round() / 100.0,
                "pipelined_1000_ms": (serve * 10.0).round() / 10.0,
                "api_1000_ms": (api * 10.0).round() / 10.0,
                "pipelined_1000_ratio": (ratio * 1000.0).round() / 1000.0,
            })
        );
    } else {
        println!("{:<48} {:>12}", "measure", "median");
        println!("{:<48} {:>10.1}µs", "fire round trip, no matching hook", fire_rt);
        println!("{:<48} {:>10.1}µs", "  (p90)", fire_p90);
        println!("{:<48} {:>10.1}µs", "bare echo over the same pipes (the floor)", echo_rt);
        println!("{:<48} {:>10.1}µs", "protocol overhead above the floor", fire_rt - echo_rt);
        println!("{:<48} {:>10.1}µs", "fire round trip, client and server split", split_rt);
        println!("{:<48} {:>10.1}µs", "  (p90)", split_p90);
        println!("{:<48} {:>10.1}µs", "fire round trip, client and server on one vCPU", shared_rt);
        println!("{:<48} {:>10.2}µs", "the server's work per request, no pipes", work_us);
        println!("{:<48} {:>10.1}ms", "1 000 pipelined fires over stdio, one hook each", serve);
        println!("{:<48} {:>10.1}ms", "1 000 concurrent fires through the Rust API", api);
        println!("{:<48} {:>11.3}x", "ratio (target <= 1.2)", ratio);
    }
}
