//! Benchmark of `hooks bridge` as an agent runs it (area `bridge`): one process per event,
//! spawned with the agent's hook input on stdin, waited for, whole (start-up, reading the
//! pin or the files, the hooks, the answer).
//!
//! Interleaved in rounds, each round a batch of each case in turn:
//! - `floor`: `/bin/true` spawned the same way (what any process costs here);
//! - `bare_hook`: the hook script alone, spawned the way the agent would spawn it;
//! - `no_hook`: the bridge for Claude Code with no hook file anywhere (the session's pin read
//!   after the first event);
//! - `no_hook_first_event`: the same with a new session id each time (every event pins);
//! - `one_hook`: the bridge with one matching Cursor hook (the bare hook's script) in the
//!   user's folder;
//! - with `HOOKS_BENCH_STATIC` naming another `hooks` binary (`cargo xtask bench bridge` sets it
//!   to the release build linked with glibc built in, what `cargo xtask dist` hands out):
//!   `no_hook_static` and `one_hook_static`, the same events through that binary.
//!
//! `--json` prints one JSON object: per case the median of each round's median (µs) and the
//! range over rounds, and the one-hook overhead over the bare hook.

use std::{
    io::Write,
    os::unix::fs::PermissionsExt,
    path::Path,
    process::{Command, Stdio},
    time::Instant,
};

use serde_json::{Value, json};

const ROUNDS: usize = 5;
const PER_ROUND: usize = 40;

struct Env {
    home: tempfile::TempDir,
    project: tempfile::TempDir,
}

fn spawn(program: &str, args: &[&str], env: &Env, stdin: &[u8]) -> f64 {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(env.project.path())
        .env("HOME", env.home.path())
        .env("XDG_CONFIG_HOME", env.home.path().join(".config"))
        .env("XDG_STATE_HOME", env.home.path().join(".local/state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // `/bin/true` may exit before reading: a broken pipe is part of the floor.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success(), "{program} failed: {status}");
    started.elapsed().as_secs_f64() * 1e6
}

fn input(project: &Path, session: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": session,
        "transcript_path": "/tmp/t.jsonl",
        "cwd": project,
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "list"},
        "tool_use_id": "toolu_1",
    }))
    .expect("json")
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn summary(rounds: &[f64]) -> Value {
    let mut r = rounds.to_vec();
    let med = median(&mut r);
    json!({
        "median_us": med.round(),
        "range_us": [r.first().copied().unwrap_or(0.0).round(), r.last().copied().unwrap_or(0.0).round()],
    })
}

fn main() {
    let json_out = std::env::args().any(|a| a == "--json");
    let bin = env!("CARGO_BIN_EXE_hooks");
    let bare =
        Env { home: tempfile::tempdir().expect("tmp"), project: tempfile::tempdir().expect("tmp") };
    let one =
        Env { home: tempfile::tempdir().expect("tmp"), project: tempfile::tempdir().expect("tmp") };
    for e in [&bare, &one] {
        std::fs::create_dir(e.project.path().join(".git")).expect(".git");
    }
    let script = one.home.path().join(".cursor/allow.sh");
    std::fs::create_dir_all(script.parent().expect("parent")).expect("mkdir");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"allow\"}'\n")
        .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(
        one.home.path().join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"./allow.sh"}]}}"#,
    )
    .expect("hooks.json");
    let script_s = script.to_str().expect("utf-8").to_owned();
    let args = ["bridge", "--host", "claude"];

    #[allow(clippy::disallowed_methods, reason = "the bench's own switch")]
    let static_bin = std::env::var("HOOKS_BENCH_STATIC").ok();
    let mut names = vec!["floor", "bare_hook", "no_hook", "no_hook_first_event", "one_hook"];
    let bare_in = input(bare.project.path(), "bench-session");
    let one_in = input(one.project.path(), "bench-session");
    // Warm-up: the page cache, and each session's pin.
    spawn(bin, &args, &bare, &bare_in);
    spawn(bin, &args, &one, &one_in);
    if let Some(s) = &static_bin {
        names.extend(["no_hook_static", "one_hook_static"]);
        spawn(s, &args, &bare, &bare_in);
        spawn(s, &args, &one, &one_in);
    }
    let mut cases: Vec<(&str, Vec<f64>)> = names.into_iter().map(|n| (n, Vec::new())).collect();
    let static_bin = static_bin.as_deref().unwrap_or(bin);
    let mut n = 0u64;
    for _ in 0..ROUNDS {
        for (name, medians) in &mut cases {
            let mut samples: Vec<f64> = (0..PER_ROUND)
                .map(|_| match *name {
                    "floor" => spawn("/bin/true", &[], &one, &one_in),
                    "bare_hook" => spawn(&script_s, &[], &one, &one_in),
                    "no_hook" => spawn(bin, &args, &bare, &bare_in),
                    "no_hook_first_event" => {
                        n += 1;
                        spawn(bin, &args, &bare, &input(bare.project.path(), &format!("s{n}")))
                    }
                    "no_hook_static" => spawn(static_bin, &args, &bare, &bare_in),
                    "one_hook_static" => spawn(static_bin, &args, &one, &one_in),
                    _ => spawn(bin, &args, &one, &one_in),
                })
                .collect();
            medians.push(median(&mut samples));
        }
    }
    let get = |name: &str| cases.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
    let mut out = serde_json::Map::new();
    for (name, medians) in &cases {
        out.insert((*name).to_owned(), summary(medians));
    }
    // Each one-hook case over the bare hook, round by round.
    let bare = get("bare_hook").expect("bare_hook");
    for case in ["one_hook", "one_hook_static"] {
        if let Some(one) = get(case) {
            let overhead: Vec<f64> = one.iter().zip(bare).map(|(o, b)| o - b).collect();
            out.insert(format!("{case}_overhead_over_bare"), summary(&overhead));
        }
    }
    out.insert("rounds".into(), json!(ROUNDS));
    out.insert(
        "load_average".into(),
        json!(std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()),
    );
    out.insert("samples_per_round".into(), json!(PER_ROUND));
    let out = Value::Object(out);
    if json_out {
        println!("{out}");
    } else {
        for (k, v) in out.as_object().expect("object") {
            println!("{k:30} {v}");
        }
    }
}
