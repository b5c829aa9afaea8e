//! Benchmark of what `tracing` costs the engine (area `subscriber`): the same work with no
//! subscriber, with the `hooks` tool's default subscriber (stderr, filter `error`: every
//! span and event of the engine is disabled), and with everything the engine emits enabled
//! (`info` as JSON lines into a sink, the most a log reader asks for); with the `otel`
//! feature also with the OpenTelemetry exporter's layer posting to a discarding OTLP/HTTP
//! receiver on 127.0.0.1.
//!
//! A subscriber is process-wide (the serve protocol's threads must see it), so each variant
//! runs in a child process of this binary; the variants are interleaved over several rounds,
//! so drift hits them alike. Each child measures, after a warm-up:
//! - `serve_fire_no_hook_us`: the serve protocol's round trip of one `fire` that matches no
//!   hook, over in-process pipes (the `hooks.fire` span and the decision record are still
//!   made: the most sensitive figure);
//! - `serve_fire_one_hook_us`: the same with one hook (`true`) to run;
//! - `dispatch_fire_one_hook_us`: `FireHandle::fire` of that hook (runtime and dispatcher,
//!   spawn included) on the calling thread.
//!
//! `--json` prints one JSON object (per variant: the medians of each round, and their
//! range); otherwise a table.

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    process::Command,
    thread,
    time::Instant,
};

use hooks_app::{
    runtime::{HookRuntime, RuntimeConfig},
    serve::{PolledInput, ServeOptions, run_stdio_with},
};
use hooks_schema::{Envelope, ExplicitScope, HookEvent, ToolCall, ToolKind};
use hooks_sources::ExplicitHookSource;
use hooks_trust::Surface;
use serde_json::{Value, json};

const ROUNDS: usize = 3;
const NO_HOOK: usize = 2_000;
const ONE_HOOK: usize = 200;
const VARIANT_ARG: &str = "--variant";

fn runtime(hooks: &Path) -> HookRuntime {
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.explicit_sources = vec![ExplicitHookSource::new(
        ExplicitScope::RunDelivered,
        hooks,
        hooks_format_cursor::FORMAT,
    )];
    let mut rt = HookRuntime::new(config);
    let errors = rt.load_explicit_sources();
    assert!(errors.is_empty(), "{errors:?}");
    rt
}

fn envelope(cwd: &Path, event: HookEvent) -> Envelope {
    let mut e = Envelope::new(event);
    e.cwd = Some(cwd.to_path_buf());
    e.session_id = Some("bench".into());
    if event == HookEvent::PreToolUse {
        e.tool = Some(ToolCall {
            name: "Shell".into(),
            kind: ToolKind::Shell,
            native_kind: None,
            call_id: None,
            mcp_server: None,
            args: json!({ "command": "ls" }),
        });
    }
    e
}

/// The median of `n` serve round trips of a fire of `event`, in microseconds.
fn serve_roundtrips(hooks: &Path, cwd: &Path, event: HookEvent, n: usize) -> f64 {
    let (in_r, mut input) = std::io::pipe().expect("pipe");
    let (out_r, out_w) = std::io::pipe().expect("pipe");
    let rt = runtime(hooks);
    let server = thread::spawn(move || {
        run_stdio_with(rt, PolledInput::new(in_r), out_w, ServeOptions::default()).expect("serve");
    });
    let mut output = BufReader::new(out_r);
    let mut line = String::new();
    output.read_line(&mut line).expect("hello");
    let request = |id: usize| {
        let r =
            json!({ "id": id, "method": "fire", "params": { "envelope": envelope(cwd, event) } });
        format!("{r}\n")
    };
    let mut samples = Vec::with_capacity(n);
    for i in 0..n + n / 10 {
        let text = request(i);
        line.clear();
        let t = Instant::now();
        input.write_all(text.as_bytes()).expect("request");
        output.read_line(&mut line).expect("answer");
        let us = t.elapsed().as_secs_f64() * 1e6;
        assert!(line.contains("\"verdict\""), "{line}");
        // The first tenth warms up.
        if i >= n / 10 {
            samples.push(us);
        }
    }
    drop(input);
    while output.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {}
    server.join().expect("server thread");
    median(&mut samples)
}

/// The median of `n` fires of the one hook through the Rust API, in microseconds.
fn dispatch_fires(hooks: &Path, cwd: &Path, n: usize) -> f64 {
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
    let rt = runtime(hooks);
    let handle = rt.fire_handle();
    let e = envelope(cwd, HookEvent::PreToolUse);
    let mut samples = Vec::with_capacity(n);
    for i in 0..n + n / 10 {
        let t = Instant::now();
        let report = tokio.block_on(handle.fire(&e));
        let us = t.elapsed().as_secs_f64() * 1e6;
        assert_eq!(report.runs.len(), 1);
        if i >= n / 10 {
            samples.push(us);
        }
    }
    median(&mut samples)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Installs the variant's subscriber for the whole process; `Some(guard)` keeps an exporter
/// alive until the child ends.
fn install(variant: &str) -> Option<Box<dyn std::any::Any>> {
    use tracing_subscriber::{EnvFilter, prelude::*};
    match variant {
        "none" => None,
        "default" => {
            // What `hooks` installs by default: stderr, `error` only.
            let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
            tracing_subscriber::registry()
                .with(layer.with_ansi(false).with_filter(EnvFilter::new("error")))
                .init();
            None
        }
        "info-json" => {
            let layer = tracing_subscriber::fmt::layer().with_writer(std::io::sink);
            let layer = layer.json().flatten_event(true).with_current_span(true);
            tracing_subscriber::registry().with(layer.with_filter(EnvFilter::new("info"))).init();
            None
        }
        #[cfg(feature = "otel")]
        "otel" => {
            let url = otel::discarding_receiver();
            let config = hooks_app::otel::OtelConfig::from_base_url(&url).expect("config");
            let exporter = hooks_app::otel::OtelExporter::start(&config).expect("exporter");
            tracing_subscriber::registry().with(exporter.layer()).init();
            Some(Box::new(exporter))
        }
        other => panic!("unknown variant {other}"),
    }
}

#[cfg(feature = "otel")]
mod otel {
    //! A receiver on 127.0.0.1 that reads every OTLP/HTTP request and answers 200.
    use std::{
        io::{BufRead, BufReader, Read, Write},
        net::TcpListener,
    };

    pub fn discarding_receiver() -> String {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let Ok(mut w) = stream.try_clone() else { return };
                    let mut r = BufReader::new(stream);
                    loop {
                        let mut len = 0;
                        let mut line = String::new();
                        loop {
                            line.clear();
                            if r.read_line(&mut line).unwrap_or(0) == 0 {
                                return;
                            }
                            let l = line.trim_end().to_ascii_lowercase();
                            if l.is_empty() {
                                break;
                            }
                            if let Some(v) = l.strip_prefix("content-length:") {
                                len = v.trim().parse().unwrap_or(0);
                            }
                        }
                        let mut body = vec![0; len];
                        if r.read_exact(&mut body).is_err()
                            || w.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_err()
                        {
                            return;
                        }
                    }
                });
            }
        });
        format!("http://{addr}")
    }
}

/// One child: installs the variant's subscriber and prints its figures as JSON.
fn child(variant: &str) {
    let guard = install(variant);
    let dir = tempfile::tempdir().expect("temp dir");
    let hooks = dir.path().join("hooks.json");
    std::fs::write(
        &hooks,
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "true" } ] } }"#,
    )
    .expect("write hooks.json");
    let cwd = dir.path();
    let figures = json!({
        "serve_fire_no_hook_us": serve_roundtrips(&hooks, cwd, HookEvent::Stop, NO_HOOK),
        "serve_fire_one_hook_us": serve_roundtrips(&hooks, cwd, HookEvent::PreToolUse, ONE_HOOK),
        "dispatch_fire_one_hook_us": dispatch_fires(&hooks, cwd, ONE_HOOK),
    });
    drop(guard);
    println!("{figures}");
}

fn variants() -> Vec<&'static str> {
    let mut v = vec!["none", "default", "info-json"];
    if cfg!(feature = "otel") {
        v.push("otel");
    }
    v
}

const FIGURES: [&str; 3] =
    ["serve_fire_no_hook_us", "serve_fire_one_hook_us", "dispatch_fire_one_hook_us"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == VARIANT_ARG) {
        child(&args[i + 1]);
        return;
    }
    let json_out = args.iter().any(|a| a == "--json");
    let exe = std::env::current_exe().expect("bench binary");
    let variants = variants();
    // figures[variant][figure] = one median per round
    let mut figures = vec![vec![Vec::new(); FIGURES.len()]; variants.len()];
    for round in 0..ROUNDS {
        // Rotate the order each round: no variant always runs first.
        for k in 0..variants.len() {
            let v = (k + round) % variants.len();
            let out = Command::new(&exe).args([VARIANT_ARG, variants[v]]).output().expect("child");
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let line = String::from_utf8_lossy(&out.stdout);
            let value: Value = line
                .lines()
                .rev()
                .find_map(|l| serde_json::from_str(l).ok())
                .unwrap_or_else(|| panic!("no figures from {}: {line}", variants[v]));
            for (f, name) in FIGURES.iter().enumerate() {
                figures[v][f].push(value[name].as_f64().expect("a number"));
            }
        }
    }
    let round1 = |x: f64| (x * 10.0).round() / 10.0;
    let mut out = serde_json::Map::new();
    for (v, name) in variants.iter().enumerate() {
        let mut per = serde_json::Map::new();
        for (f, figure) in FIGURES.iter().enumerate() {
            let mut s = figures[v][f].clone();
            let lo = s.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            per.insert(
                (*figure).to_owned(),
                json!({ "median": round1(median(&mut s)), "min": round1(lo), "max": round1(hi), "rounds": figures[v][f].iter().copied().map(round1).collect::<Vec<_>>() }),
            );
        }
        out.insert((*name).to_owned(), Value::Object(per));
    }
    // Whether this build compiled the spans and events out (`--features tracing/max_level_off`).
    let static_max = tracing::level_filters::STATIC_MAX_LEVEL.to_string();
    out.insert("tracing_static_max_level".to_owned(), Value::String(static_max));
    if json_out {
        println!("{}", Value::Object(out));
    } else {
        println!("{:<12} {:>28} {:>28} {:>28}", "subscriber", FIGURES[0], FIGURES[1], FIGURES[2]);
        for name in &variants {
            let row: Vec<String> = FIGURES
                .iter()
                .map(|f| {
                    let x = &out[*name][*f];
                    format!("{} ({}-{})", x["median"], x["min"], x["max"])
                })
                .collect();
            println!("{:<12} {:>28} {:>28} {:>28}", name, row[0], row[1], row[2]);
        }
    }
}
