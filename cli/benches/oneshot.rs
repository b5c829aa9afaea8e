//! Whole-process benchmark of a one-shot `hooks fire` (area `oneshot`, issue 23): the release
//! `hooks` binary spawned the way an agent spawns a hook, payload on stdin, answer read from
//! stdout, exit waited for.
//!
//! Measured side by side, interleaved (rounds; in each round a batch of every case in turn):
//! - `floor`: `/bin/true` spawned the same way (the same stdin, stdout read, exit waited for):
//!   what any process costs on this machine;
//! - `hook_alone`: the project's hook script spawned by hand as Cursor spawns it (`/bin/sh -c`
//!   the command in the project folder, the same payload on stdin);
//! - `no_hook`: `hooks fire beforeShellExecution` in a project with no hook file (start-up,
//!   discovery of every format's files, the fire that matches nothing, exit);
//! - `one_hook`: the same in a project whose `.cursor/hooks.json` runs that script;
//! - with `HOOKS_BENCH_STATIC` naming another `hooks` binary (`cargo xtask bench oneshot` sets
//!   it to the release build linked with glibc built in, what `cargo xtask dist` hands out):
//!   `no_hook_static` and `one_hook_static`, the same two events through that binary;
//! - `one_hook_subreaper`: the one-hook event with `--containment subreaper` (through the
//!   binary of `HOOKS_BENCH_STATIC` when set), what `auto` falls back to where no cgroup is
//!   delegated (a container): no cgroup, the run's group registered with the engine's reaper
//!   and its processes tagged, so that every engine's end sweeps `/proc` for them (the sweep
//!   runs after the engine's exit, beside the next sample: back to back, as an agent's events
//!   can come).
//!
//! Each case reports the median over rounds of each round's median, wall clock and CPU (user +
//! system of the process and everything it waited for, from `wait4`'s resource usage), with
//! the range over rounds. The targets of issue 23: `no_hook` at most 2 ms, `one_hook` at most
//! `hook_alone` + 2 ms.
//!
//! `--json` prints one JSON object; otherwise a table.

use std::{
    io::{Read, Write},
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use nix::sys::resource::{UsageWho, getrusage};
use serde_json::{Value, json};

const ROUNDS: usize = 5;
const PER_ROUND: usize = 40;

const HOOK: &str = "#!/bin/sh\ncat > /dev/null\necho '{\"permission\":\"allow\"}'\n";

/// The canonical envelope `hooks fire --payload -` reads (every case gets the same bytes).
const PAYLOAD: &str =
    r#"{"session_id":"s1","tool":{"name":"Shell","kind":"shell","args":{"command":"ls -la"}}}"#;

/// What `cmd` prints with the payload on its stdin.
fn answer(mut cmd: Command) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(PAYLOAD.as_bytes()).expect("payload");
    let out = child.wait_with_output().expect("output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One sample: wall-clock time and the CPU time of the children reaped meanwhile.
fn sample(mut cmd: Command) -> (Duration, Duration) {
    let cpu_before = children_cpu();
    let t0 = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // `/bin/true` may exit before reading: a broken pipe is part of the floor, not an error.
    let _ = child.stdin.take().expect("stdin").write_all(PAYLOAD.as_bytes());
    let mut out = String::new();
    child.stdout.take().expect("stdout").read_to_string(&mut out).expect("stdout");
    let st = child.wait().expect("wait");
    let wall = t0.elapsed();
    assert!(st.success(), "{st:?}: {out}");
    (wall, children_cpu().saturating_sub(cpu_before))
}

fn children_cpu() -> Duration {
    let u = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage");
    let tv = |t: nix::sys::time::TimeVal| {
        Duration::from_secs(u64::try_from(t.tv_sec()).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec()).unwrap_or(0))
    };
    tv(u.user_time()) + tv(u.system_time())
}

fn fire(exe: &str, root: &Path, config: &Path) -> Command {
    let mut c = Command::new(exe);
    c.args(["fire", "beforeShellExecution", "--posture", "auto-approves", "--payload", "-"])
        .arg("--root")
        .arg(root)
        .arg("--config-dir")
        .arg(config)
        .env("XDG_CONFIG_HOME", config)
        .env("XDG_STATE_HOME", config.join("state"))
        .env_remove("WARP_HOOK_DIRS")
        .current_dir(root);
    c
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median of the round medians and their range, in ms.
fn summary(rounds: &[f64]) -> Value {
    let mut r = rounds.to_vec();
    let med = median(&mut r);
    let round3 = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "median_ms": round3(med),
        "range_ms": [round3(r.first().copied().unwrap_or(0.0)), round3(r.last().copied().unwrap_or(0.0))],
    })
}

fn main() {
    let json_out = std::env::args().any(|a| a == "--json");
    let exe = env!("CARGO_BIN_EXE_hooks");
    let tmp = tempfile::tempdir().expect("temp dir");
    let empty = tmp.path().join("empty");
    let project = tmp.path().join("project");
    let config = tmp.path().join("config");
    for d in [&empty, &project, &config] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let script = project.join("hook.sh");
    std::fs::write(&script, HOOK).expect("hook");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    std::fs::create_dir_all(project.join(".cursor")).expect("mkdir");
    std::fs::write(
        project.join(".cursor/hooks.json"),
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./hook.sh"}]}}"#,
    )
    .expect("hooks.json");
    // The hook must really run through the engine, and not in the empty project.
    let mut check = fire(exe, &project, &config);
    check.arg("--json");
    let out = answer(check);
    assert!(out.contains(r#""status":"ran""#), "the one-hook case runs the hook: {out}");
    let mut check = fire(exe, &empty, &config);
    check.arg("--json");
    let out = answer(check);
    assert!(!out.contains(r#""status":"ran""#), "the no-hook case runs nothing: {out}");

    #[allow(clippy::disallowed_methods, reason = "the bench's own switch")]
    let static_exe = std::env::var("HOOKS_BENCH_STATIC").ok();
    let mut cases = vec!["floor", "hook_alone", "no_hook", "one_hook"];
    if let Some(exe) = &static_exe {
        let mut check = fire(exe, &project, &config);
        check.arg("--json");
        let out = answer(check);
        assert!(out.contains(r#""status":"ran""#), "{exe} runs the hook: {out}");
        cases.extend(["no_hook_static", "one_hook_static"]);
    }
    cases.push("one_hook_subreaper");
    let static_or_exe = static_exe.as_deref().unwrap_or(exe);
    let mut wall: Vec<Vec<f64>> = vec![Vec::new(); cases.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); cases.len()];
    for _ in 0..ROUNDS {
        for (i, case) in cases.iter().enumerate() {
            let (mut w, mut c): (Vec<f64>, Vec<f64>) = (0..PER_ROUND)
                .map(|_| {
                    let cmd = match *case {
                        "floor" => Command::new("/bin/true"),
                        "hook_alone" => {
                            let mut c = Command::new("/bin/sh");
                            c.args(["-c", "./hook.sh"]).current_dir(&project);
                            c
                        }
                        "no_hook" => fire(exe, &empty, &config),
                        "one_hook" => fire(exe, &project, &config),
                        "no_hook_static" => fire(static_or_exe, &empty, &config),
                        "one_hook_subreaper" => {
                            let mut c = fire(static_or_exe, &project, &config);
                            c.args(["--containment", "subreaper"]);
                            c
                        }
                        _ => fire(static_or_exe, &project, &config),
                    };
                    let (w, c) = sample(cmd);
                    (ms(w), ms(c))
                })
                .unzip();
            wall[i].push(median(&mut w));
            cpu[i].push(median(&mut c));
        }
    }
    let mut out = serde_json::Map::new();
    for (i, case) in cases.iter().enumerate() {
        out.insert(format!("{case}_wall"), summary(&wall[i]));
        out.insert(format!("{case}_cpu"), summary(&cpu[i]));
    }
    // Each one-hook case over the hook alone, round by round.
    let wall_of = |name: &str| cases.iter().position(|c| *c == name).map(|i| &wall[i]);
    let alone = wall_of("hook_alone").expect("hook_alone");
    for case in ["one_hook", "one_hook_static", "one_hook_subreaper"] {
        if let Some(one) = wall_of(case) {
            let over: Vec<f64> = one.iter().zip(alone).map(|(o, h)| o - h).collect();
            out.insert(format!("{case}_minus_hook_alone_wall"), summary(&over));
        }
    }
    out.insert("rounds".into(), json!(ROUNDS));
    out.insert("samples_per_round".into(), json!(PER_ROUND));
    out.insert(
        "load_average".into(),
        json!(std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()),
    );
    let out = Value::Object(out);
    if json_out {
        println!("{out}");
        return;
    }
    for (k, v) in out.as_object().expect("object") {
        println!("{k:34} {v}");
    }
    println!("targets: no_hook_wall <= 2 ms; one_hook_minus_hook_alone_wall <= 2 ms");
}
