//! Whole-process benchmark of a one-shot `hooks fire` (area `oneshot`, issue 23): the release
//! `hooks` binary spawned the way an agent spawns a hook, payload on stdin, answer read from
//! stdout, exit waited for.
//!
//! Measured side by side, interleaved (one sample of each case per round):
//! - `no_hook`: `hooks fire beforeShellExecution` in a project with no hook file (start-up,
//!   discovery of every format's files, the fire that matches nothing, exit);
//! - `one_hook`: the same in a project whose `.cursor/hooks.json` runs one script;
//! - `hook_alone`: that script spawned by hand as Cursor spawns it (`/bin/sh -c` the command
//!   in the project folder, the same payload on stdin, stdout read, exit waited for).
//!
//! Each case reports its wall-clock median and its median CPU time (user + system of the
//! process and everything it waited for, from `wait4`'s resource usage). The targets of
//! issue 23: `no_hook` at most 2 ms, `one_hook` at most `hook_alone` + 2 ms.
//!
//! `--json` prints one JSON object; otherwise a table.

use std::{
    io::{Read, Write},
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use nix::sys::resource::{UsageWho, getrusage};
use serde_json::json;

const ROUNDS: usize = 200;

const HOOK: &str = "#!/bin/sh\ncat > /dev/null\necho '{\"permission\":\"allow\"}'\n";

/// The canonical envelope `hooks fire --payload -` reads (the hook alone gets the same bytes).
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
    child.stdin.take().expect("stdin").write_all(PAYLOAD.as_bytes()).expect("payload");
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
        .env_remove("WARP_HOOK_DIRS")
        .current_dir(root);
    c
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default().as_secs_f64() * 1000.0
}

fn range(v: &[Duration]) -> (f64, f64) {
    let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
    let lo = v.iter().map(ms).fold(f64::INFINITY, f64::min);
    let hi = v.iter().map(ms).fold(0.0, f64::max);
    (lo, hi)
}

fn main() {
    let json_out = std::env::args().any(|a| a == "--json");
    // Cargo names the binary for a bench build; a check-only build (clippy) has none, and the
    // path beside the bench's own folder is then only a placeholder.
    let exe = option_env!("CARGO_BIN_EXE_hooks").map_or_else(
        || {
            let me = std::env::current_exe().expect("the bench's path");
            let dir = me.parent().and_then(Path::parent).expect("the target folder");
            dir.join("hooks").to_string_lossy().into_owned()
        },
        str::to_owned,
    );
    let exe = exe.as_str();
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
    // The hook must really run through the engine: its answer is the script's.
    let mut check = fire(exe, &project, &config);
    check.arg("--json");
    let out = answer(check);
    assert!(out.contains(r#""status":"ran""#), "the one-hook case runs the hook: {out}");
    let cases = ["no_hook", "one_hook", "hook_alone"];
    let mut wall: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut cpu: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    for _ in 0..ROUNDS {
        for (i, case) in cases.iter().enumerate() {
            let cmd = match *case {
                "no_hook" => fire(exe, &empty, &config),
                "one_hook" => fire(exe, &project, &config),
                _ => {
                    let mut c = Command::new("/bin/sh");
                    c.args(["-c", "./hook.sh"]).current_dir(&project);
                    c
                }
            };
            let (w, c) = sample(cmd);
            wall[i].push(w);
            cpu[i].push(c);
        }
    }
    let med: Vec<f64> = wall.iter().cloned().map(median).collect();
    let cpu_med: Vec<f64> = cpu.iter().cloned().map(median).collect();
    let over = med[1] - med[2];
    if json_out {
        let obj = json!({
            "oneshot_no_hook_ms": med[0],
            "oneshot_one_hook_ms": med[1],
            "oneshot_hook_alone_ms": med[2],
            "oneshot_one_hook_minus_hook_alone_ms": over,
            "oneshot_no_hook_cpu_ms": cpu_med[0],
            "oneshot_one_hook_cpu_ms": cpu_med[1],
            "oneshot_hook_alone_cpu_ms": cpu_med[2],
            "oneshot_no_hook_range_ms": range(&wall[0]),
            "oneshot_rounds": ROUNDS,
        });
        println!("{obj}");
        return;
    }
    println!("{:<12} {:>10} {:>10}", "case", "wall ms", "cpu ms");
    for (i, case) in cases.iter().enumerate() {
        println!("{case:<12} {:>10.3} {:>10.3}", med[i], cpu_med[i]);
    }
    println!("one_hook - hook_alone = {over:.3} ms (target <= 2 ms); no_hook target <= 2 ms");
}
