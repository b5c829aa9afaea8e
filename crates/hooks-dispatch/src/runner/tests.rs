//! Real-process tests of the runner: one per fault, each bounded, each checking that the
//! hook's process group is gone afterwards.

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use hooks_schema::{
    ExitInfo, Invocation, Program, ProvidedFile, ProvidedFileRole, RawOutcome, SpawnFailureKind,
};

use super::run_invocation;
use crate::{
    DispatchConfig,
    testing::{assert_group_gone, inv, sh},
};

const BOUND: Duration = Duration::from_secs(2);

/// A script that first records its pid (= its process group) in `dir/pid`.
fn sh_pid(dir: &Path, script: &str) -> Invocation {
    sh(&format!("echo $$ > '{}'; {script}", dir.join("pid").display()))
}

fn pgid(dir: &Path) -> i32 {
    let text = std::fs::read_to_string(dir.join("pid")).expect("the hook wrote its pid");
    text.trim().parse().expect("a pid")
}

async fn run(i: &Invocation, cfg: &DispatchConfig) -> (RawOutcome, Duration) {
    let t0 = Instant::now();
    let out = run_invocation(i, cfg).await;
    (out, t0.elapsed())
}

/// Waits until `path` is gone (provided files are deleted off the run's critical path).
fn wait_gone(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while path.exists() {
        assert!(Instant::now() < deadline, "{} was not deleted", path.display());
        std::thread::yield_now();
    }
}

fn cfg() -> DispatchConfig {
    DispatchConfig::default()
}

#[tokio::test]
async fn never_reads_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh_pid(dir.path(), "echo ok");
    i.stdin = vec![b'x'; 1024 * 1024];
    let (out, took) = run(&i, &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.lossy(), "ok\n");
    assert!(!out.timed_out);
    assert!(took < BOUND, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn stdin_is_delivered_and_closed() {
    let mut i = inv(Program::Exec { argv: vec!["cat".to_owned()] });
    i.stdin = b"{\"a\":1}".to_vec();
    let (out, _) = run(&i, &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.bytes, b"{\"a\":1}");
}

#[tokio::test]
async fn stdin_of_every_size_is_delivered_whole_then_closed() {
    // Up to PIPE_BUF the bytes are in the pipe before the spawn; above it they are written
    // while the run is supervised. Both paths must give the same bytes, then end-of-file.
    for len in [1, 4095, 4096, 4097, 65_536, 65_537, 200_000] {
        let mut i = inv(Program::Exec { argv: vec!["cat".to_owned()] });
        i.stdin = (0..len).map(|n| (n % 251) as u8).collect();
        let (out, took) = run(&i, &cfg()).await;
        assert_eq!(out.exit, ExitInfo::Exited(0), "{len} bytes");
        assert!(out.stdout.bytes == i.stdin, "{len} bytes: got {}", out.stdout.bytes.len());
        assert!(took < BOUND, "{len} bytes took {took:?}");
    }
}

#[tokio::test]
async fn a_small_payload_the_hook_never_reads_does_not_hold_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh_pid(dir.path(), "echo ok");
    i.stdin = vec![b'x'; 1024];
    let (out, took) = run(&i, &cfg()).await;
    assert_eq!((out.exit, out.stdout.lossy().as_ref()), (ExitInfo::Exited(0), "ok\n"));
    assert!(took < BOUND, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn first_available_gives_the_candidate_that_starts_the_whole_payload() {
    let mut i = inv(Program::FirstAvailable {
        candidates: vec![vec!["no-such-interpreter-xyz".to_owned()], vec!["cat".to_owned()]],
    });
    i.stdin = b"{\"tool\":\"ls\"}".to_vec();
    let (out, _) = run(&i, &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.bytes, i.stdin);
}

#[tokio::test]
async fn floods_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let i = sh_pid(dir.path(), "head -c 10000000 /dev/zero; echo tail");
    let mut c = cfg();
    c.stdout_cap = 3000;
    let (out, took) = run(&i, &c).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert!(out.stdout.truncated);
    assert_eq!(out.stdout.total_len, 10_000_005);
    assert!(out.stdout.bytes.len() < 3100);
    assert!(out.stdout.bytes.ends_with(b"tail\n"));
    assert!(out.stdout.lossy().contains("bytes omitted"));
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = run(&sh_pid(dir.path(), "echo blocked >&2; exit 2"), &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(2));
    assert_eq!(out.exit_code(), Some(2));
    assert_eq!(out.stderr.lossy(), "blocked\n");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn crashes_by_signal() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = run(&sh_pid(dir.path(), "kill -SEGV $$"), &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Signaled(11));
    assert!(!out.timed_out);
    assert_eq!(out.failure_label().as_deref(), Some("signal=11"));
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn hangs_until_killed_at_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh_pid(dir.path(), "sleep 30");
    i.timeout = Duration::from_millis(300);
    let (out, took) = run(&i, &cfg()).await;
    assert!(out.timed_out);
    assert!(matches!(out.exit, ExitInfo::Signaled(15 | 9)), "{:?}", out.exit);
    assert_eq!(out.failure_label().as_deref(), Some("timeout"));
    assert!(took >= Duration::from_millis(300));
    assert!(took < Duration::from_millis(300) + BOUND, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn timeouts_beyond_any_deadline_neither_overflow_nor_fire() {
    // No engine ceiling: a timeout that cannot be added to an instant means no deadline.
    for timeout in [
        hooks_schema::NO_TIMEOUT,
        Duration::from_secs(u64::MAX),
        Duration::from_secs(i64::MAX as u64),
        Duration::from_secs(86_400 * 365 * 1000),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut i = sh_pid(dir.path(), "sleep 0.1; echo done");
        i.timeout = timeout;
        let (out, took) = run(&i, &cfg()).await;
        assert_eq!(out.exit, ExitInfo::Exited(0), "{timeout:?}");
        assert!(!out.timed_out, "{timeout:?}");
        assert_eq!(out.stdout.lossy(), "done\n");
        assert!(took < BOUND, "took {took:?}");
        assert_group_gone(pgid(dir.path()), BOUND);
    }
}

#[tokio::test]
async fn a_zero_timeout_times_out_at_once() {
    // Chrys's NaN timeout becomes zero: the hook is killed before it can finish.
    let mut i = sh("sleep 30");
    i.timeout = Duration::ZERO;
    let (out, took) = run(&i, &cfg()).await;
    assert!(out.timed_out);
    assert!(took < BOUND, "took {took:?}");
}

#[tokio::test]
async fn timeout_without_grace_sends_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh_pid(dir.path(), "trap '' TERM; sleep 30");
    i.timeout = Duration::from_millis(200);
    let mut c = cfg();
    c.kill_grace = Duration::ZERO;
    let (out, took) = run(&i, &c).await;
    assert!(out.timed_out);
    assert_eq!(out.exit, ExitInfo::Signaled(9));
    assert!(took < Duration::from_millis(200) + BOUND, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn grandchild_ignoring_sigterm_holding_the_pipe_while_the_hook_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh_pid(dir.path(), "(trap '' TERM; sleep 30) & trap '' TERM; sleep 30");
    i.timeout = Duration::from_millis(300);
    let (out, took) = run(&i, &cfg()).await;
    assert!(out.timed_out);
    let bound = Duration::from_millis(300) + cfg().kill_grace + cfg().pipe_grace + BOUND;
    assert!(took < bound, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn grandchild_holding_the_pipe_after_the_hook_exits() {
    let dir = tempfile::tempdir().unwrap();
    let i = sh_pid(dir.path(), "(trap '' TERM; sleep 30) & echo done");
    let (out, took) = run(&i, &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert!(!out.timed_out);
    assert_eq!(out.stdout.lossy(), "done\n");
    assert!(took < cfg().pipe_grace * 2 + BOUND, "took {took:?}");
    assert_group_gone(pgid(dir.path()), BOUND);
}

#[tokio::test]
async fn background_work_that_closed_the_pipes_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("bg");
    let script = format!(
        "(sleep 1; echo ran > '{}') >/dev/null 2>&1 </dev/null & echo started",
        marker.display()
    );
    let (out, _) = run(&sh_pid(dir.path(), &script), &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.lossy(), "started\n");
    // The background job is still alive, in the hook's group, until it finishes.
    assert!(!crate::testing::live_group_members(pgid(dir.path())).is_empty());
    assert_group_gone(pgid(dir.path()), Duration::from_secs(5));
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "ran\n");
}

#[tokio::test]
async fn missing_program() {
    for argv0 in ["/nonexistent/hook-program", "no-such-hook-program-xyz"] {
        let (out, took) = run(&inv(Program::Exec { argv: vec![argv0.to_owned()] }), &cfg()).await;
        let ExitInfo::NotStarted(f) = &out.exit else { panic!("started: {out:?}") };
        assert_eq!(f.kind, SpawnFailureKind::ProgramNotFound, "{f:?}");
        assert!(f.message.contains(argv0));
        assert_eq!(out.failure_label().as_deref(), Some("launch_error"));
        assert!(took < BOUND);
    }
}

#[tokio::test]
async fn missing_shell_is_a_missing_program() {
    let i =
        inv(Program::Shell { script: "true".to_owned(), shell: Some("/no/such/shell".to_owned()) });
    let (out, _) = run(&i, &cfg()).await;
    assert!(
        matches!(&out.exit, ExitInfo::NotStarted(f) if f.kind == SpawnFailureKind::ProgramNotFound)
    );
}

#[tokio::test]
async fn permission_denied() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hook.sh");
    std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let i = inv(Program::Exec { argv: vec![script.display().to_string()] });
    let (out, _) = run(&i, &cfg()).await;
    let ExitInfo::NotStarted(f) = &out.exit else { panic!("started: {out:?}") };
    assert_eq!(f.kind, SpawnFailureKind::PermissionDenied, "{f:?}");
}

#[tokio::test]
async fn missing_cwd() {
    let mut i = sh("echo hi");
    i.cwd = Some(PathBuf::from("/nonexistent/working/dir"));
    let (out, took) = run(&i, &cfg()).await;
    let ExitInfo::NotStarted(f) = &out.exit else { panic!("started: {out:?}") };
    assert_eq!(f.kind, SpawnFailureKind::MissingCwd, "{f:?}");
    assert!(f.message.contains("/nonexistent/working/dir"));
    assert!(took < BOUND);
}

#[tokio::test]
async fn cwd_and_env_are_applied() {
    let dir = tempfile::tempdir().unwrap();
    let mut i = sh("pwd; echo \"$A-$B\"");
    i.cwd = Some(dir.path().to_path_buf());
    i.env = vec![("A".to_owned(), "1".to_owned()), ("B".to_owned(), "2".to_owned())];
    i.env_remove = vec!["B".to_owned()];
    let (out, _) = run(&i, &cfg()).await;
    let real = std::fs::read_link(dir.path()).unwrap_or_else(|_| dir.path().to_path_buf());
    assert_eq!(out.stdout.lossy(), format!("{}\n1-2\n", real.display()));
}

#[tokio::test]
async fn non_utf8_output() {
    let (out, _) = run(&sh("printf '\\377\\376ok'; printf '\\200' >&2"), &cfg()).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.bytes, b"\xff\xfeok");
    assert_eq!(out.stderr.bytes, b"\x80");
    assert_eq!(out.stdout.lossy(), "\u{fffd}\u{fffd}ok");
}

#[tokio::test]
async fn payload_above_the_cap_is_refused_before_spawning() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let mut i = sh(&format!("touch '{}'", marker.display()));
    i.stdin = vec![b'x'; 2048];
    let mut c = cfg();
    c.payload_cap = 1024;
    let (out, _) = run(&i, &c).await;
    assert!(
        matches!(&out.exit, ExitInfo::NotStarted(f) if f.kind == SpawnFailureKind::PayloadTooLarge)
    );
    assert!(!marker.exists());
}

#[tokio::test]
async fn provided_files_are_private_read_back_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = cfg();
    c.runtime_dir = Some(dir.path().to_path_buf());
    let mut i = sh(
        "stat -c %a \"$IN\" \"$OUT\"; cat \"$IN\"; echo; echo \"$IN\"; echo \"$OUT\"; printf '{\"r\":1}' > \"$OUT\"",
    );
    i.files = vec![
        ProvidedFile {
            env_var: "IN".to_owned(),
            name_hint: "my hook/1-payload".to_owned(),
            role: ProvidedFileRole::Input(b"payload!".to_vec()),
        },
        ProvidedFile {
            env_var: "OUT".to_owned(),
            name_hint: "h".to_owned(),
            role: ProvidedFileRole::Output,
        },
    ];
    let (out, _) = run(&i, &c).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    let text = out.stdout.lossy().into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..3], ["600", "600", "payload!"]);
    assert!(
        lines[3]
            .starts_with(&dir.path().join("tmp").join("my_hook_1-payload-").display().to_string())
    );
    assert_eq!(out.result_file.unwrap().bytes, b"{\"r\":1}");
    // Deleted off the run's critical path: the outcome does not wait for it.
    wait_gone(Path::new(lines[3]));
    wait_gone(Path::new(lines[4]));
}

#[tokio::test]
async fn provided_files_without_runtime_dir_use_a_private_temp_folder() {
    let mut i = sh("cat \"$IN\"; dirname \"$IN\"");
    i.files = vec![ProvidedFile {
        env_var: "IN".to_owned(),
        name_hint: "h".to_owned(),
        role: ProvidedFileRole::Input(b"x\n".to_vec()),
    }];
    let (out, _) = run(&i, &cfg()).await;
    let text = out.stdout.lossy().into_owned();
    let folder = text.lines().nth(1).unwrap();
    assert!(folder.contains("agent-hooks-"), "{folder}");
    wait_gone(Path::new(folder));
}

#[tokio::test]
async fn result_file_above_the_cap_is_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = cfg();
    c.runtime_dir = Some(dir.path().to_path_buf());
    c.result_file_cap = 1000;
    let mut i = sh("head -c 2000 /dev/zero > \"$OUT\"");
    i.files = vec![ProvidedFile {
        env_var: "OUT".to_owned(),
        name_hint: "h".to_owned(),
        role: ProvidedFileRole::Output,
    }];
    let (out, _) = run(&i, &c).await;
    let r = out.result_file.unwrap();
    assert!(r.truncated);
    assert_eq!(r.bytes.len(), 1000);
    assert_eq!(r.total_len, 2000);
}

#[tokio::test]
async fn first_available_skips_missing_candidates() {
    let i = inv(Program::FirstAvailable {
        candidates: vec![
            vec!["no-such-interpreter-xyz".to_owned(), "-c".to_owned()],
            vec!["/nonexistent/python".to_owned()],
            vec!["echo".to_owned(), "second".to_owned()],
        ],
    });
    let (out, _) = run(&i, &cfg()).await;
    assert_eq!(out.stdout.lossy(), "second\n");
    let none = inv(Program::FirstAvailable {
        candidates: vec![vec!["no-such-a".to_owned()], vec!["no-such-b".to_owned()]],
    });
    let (out, _) = run(&none, &cfg()).await;
    let ExitInfo::NotStarted(f) = &out.exit else { panic!("started") };
    assert_eq!(f.kind, SpawnFailureKind::ProgramNotFound);
    assert!(f.message.contains("no-such-a") && f.message.contains("no-such-b"));
}

#[tokio::test]
async fn dropping_the_run_kills_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let i = sh(&format!("(trap '' TERM; sleep 30) & echo $$ > '{}'; sleep 30", fifo.display()));
    // Opened for reading and writing, the FIFO never waits for a writer, and a failed test can
    // end the read with a line of its own (the runtime waits for its blocking tasks).
    let reader = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
    let read = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(reader), &mut line).map(|_| line)
    });
    let unblock = || {
        use std::io::Write;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo)
            .and_then(|mut f| f.write_all(b"\n"));
    };
    let c = cfg();
    let pid = tokio::select! {
        out = run_invocation(&i, &c) => {
            unblock();
            panic!("the hook ended on its own: {out:?}")
        }
        pid = tokio::time::timeout(Duration::from_secs(10), read) => match pid {
            Ok(pid) => pid.unwrap().unwrap(),
            Err(_) => {
                unblock();
                panic!("the hook wrote no pid within 10 s")
            }
        },
    };
    // The run future is dropped here.
    assert_group_gone(pid.trim().parse().unwrap(), BOUND);
}

#[tokio::test]
async fn with_the_process_group_mechanism_every_hook_process_carries_the_engine_tag_and_the_invocation_cannot_change_it()
 {
    let cfg = DispatchConfig { containment: crate::Containment::ProcessGroup, ..cfg() };
    let mut i = inv(Program::Shell {
        script: format!("printf '%s' \"${}\"", crate::tag::VAR),
        shell: None,
    });
    i.env.push((crate::tag::VAR.to_owned(), "forged".to_owned()));
    let (out, _) = run(&i, &cfg).await;
    assert_eq!(out.exit, ExitInfo::Exited(0));
    assert_eq!(out.stdout.lossy(), crate::tag::loose_tag());
    i.env.clear();
    i.env_remove.push(crate::tag::VAR.to_owned());
    let (out, _) = run(&i, &cfg).await;
    assert_eq!(out.stdout.lossy(), crate::tag::loose_tag());
}

#[tokio::test]
async fn a_hook_after_a_killed_run_starts_normally() {
    // With the cgroup mechanisms, a run killed at its timeout leaves a cgroup that was killed;
    // Linux SIGKILLs a process born by `CLONE_INTO_CGROUP` into such a cgroup, so it must never
    // start the next hook.
    for _ in 0..3 {
        let mut i = sh("sleep 30");
        i.timeout = Duration::from_millis(50);
        let (out, _) = run(&i, &cfg()).await;
        assert!(out.timed_out, "{out:?}");
        let (out, _) = run(&sh("echo ok"), &cfg()).await;
        assert_eq!(out.exit, ExitInfo::Exited(0), "{out:?}");
        assert_eq!(out.stdout.lossy(), "ok\n");
    }
}

/// The variable naming the containment mechanism the registration crash child runs with.
const CRASH_MECHANISM_VAR: &str = "HOOKS_DISPATCH_TEST_CRASH_MECHANISM";

/// Not a test by itself: the child half of
/// [`a_hook_is_registered_with_the_reaper_before_it_runs`]. Does nothing unless
/// `HOOKS_DISPATCH_TEST_CRASH_MECHANISM` is set; then it runs a hook that clears its
/// environment (no tag to sweep) and stops at the crash point right after the start.
#[tokio::test]
async fn registration_crash_child_entry() {
    let Some(m) = crate::testing::test_env(CRASH_MECHANISM_VAR) else { return };
    let containment = crate::Containment::parse(&m).expect("a mechanism name");
    let cfg = DispatchConfig { containment, ..cfg() };
    let _ = run(&sh("exec env -i sleep 60"), &cfg).await;
    unreachable!("the crash point blocks until the parent kills this process");
}

/// An engine killed right after a hook started, before the runner's next line, leaves nothing
/// of it with the mechanisms that register groups with the reaper (the cgroup ones kill the
/// engine's tree): the child writes its group into its registration slot before its `exec`.
/// The runner used to register it after the start, so a hook that cleared its environment
/// outlived an engine killed in between (`hostile_hooks::a_hook_running_when_the_engine_
/// process_dies_is_killed_with_its_group` failed that way under load, subreaper mechanism).
#[test]
fn a_hook_is_registered_with_the_reaper_before_it_runs() {
    for mechanism in ["process-group", "subreaper"] {
        let exe = std::env::current_exe().expect("test binary");
        let mut child = std::process::Command::new(exe)
            .args([
                "runner::tests::registration_crash_child_entry",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(crate::testing::CRASH_AT_VAR, "after_spawn")
            .env(CRASH_MECHANISM_VAR, mechanism)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the child engine");
        let marker = crash_point(&mut child);
        child.kill().expect("SIGKILL the child engine");
        child.wait().expect("reap it");
        let pgid: i32 = marker
            .expect("the child engine reached the crash point")
            .parse()
            .expect("the hook's pid");
        assert!(pgid > 1, "{mechanism}");
        // A failure bound: the reaper runs at the engine's death.
        assert_group_gone(pgid, Duration::from_secs(30));
    }
}

/// The descriptors above 2 this process holds without close-on-exec: what it inherited from
/// whoever started it, which every child inherits alike (std's spawn too).
fn inherited_descriptors() -> Vec<String> {
    let mut fds: Vec<String> = std::fs::read_dir("/proc/self/fdinfo")
        .expect("fdinfo")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{name}")).ok()?;
            let flags = info.lines().find_map(|l| l.strip_prefix("flags:"))?.trim();
            let flags = u32::from_str_radix(flags, 8).ok()?;
            // O_CLOEXEC is 02000000 in the flags fdinfo shows.
            (name.parse::<i32>().ok()? > 2 && flags & 0o2_000_000 == 0).then_some(name)
        })
        .collect();
    fds.sort();
    fds
}

/// The hook's process gets stdin, stdout and stderr and no other descriptor of the engine's
/// (cgroup files, the reaper's registration file, the poller, other hooks' pipes), whatever
/// the mechanism and however its stdin is fed.
#[tokio::test]
async fn a_hook_sees_only_its_three_standard_streams() {
    // `ls` lists the folder through a descriptor of its own: 0, 1, 2, that one (the lowest
    // free number) and whatever the test process itself inherited open across `exec`.
    let inherited = inherited_descriptors();
    for containment in
        [crate::Containment::Auto, crate::Containment::Subreaper, crate::Containment::ProcessGroup]
    {
        let cfg = DispatchConfig { containment, ..cfg() };
        for stdin in [Vec::new(), vec![b'x'; 100], vec![b'x'; 100_000]] {
            let mut i = inv(Program::Exec { argv: vec!["ls".into(), "/proc/self/fd".into()] });
            i.stdin = stdin;
            let (out, _) = run(&i, &cfg).await;
            assert_eq!(out.exit, ExitInfo::Exited(0), "{containment:?}: {out:?}");
            let mut fds: Vec<&str> =
                std::str::from_utf8(&out.stdout.bytes).expect("utf-8").split_whitespace().collect();
            fds.retain(|f| !inherited.iter().any(|i| i == f));
            fds.sort_by_key(|f| f.parse::<i32>().unwrap_or(i32::MAX));
            assert_eq!(fds.len(), 4, "{containment:?}, {} bytes of stdin: {fds:?}", i.stdin.len());
            assert_eq!(fds[..3], ["0", "1", "2"], "{containment:?}: {fds:?}");
        }
    }
}

/// Not a test by itself: the child half of
/// [`an_engine_killed_mid_run_leaves_nothing_and_no_tree_with_the_cgroup_mechanism`]. Does
/// nothing unless `HOOKS_DISPATCH_TEST_CRASH_TREES` is set; then it runs a hook that leaves its
/// group and session and stops at the crash point right after the start.
#[tokio::test]
async fn trees_crash_child_entry() {
    if crate::testing::test_env("HOOKS_DISPATCH_TEST_CRASH_TREES").is_none() {
        return;
    }
    let cfg = DispatchConfig { containment: crate::Containment::CgroupKill, ..cfg() };
    let _ = run(&sh("setsid sleep 60 </dev/null >/dev/null 2>&1 & exec sleep 60"), &cfg).await;
    unreachable!("the crash point blocks until the parent kills this process");
}

/// The engine SIGKILLed while a hook runs, with the cgroup mechanism: its reaper, a fork of
/// the engine (no shell), kills the hook and what it started in another session, and removes
/// the engine's trees. Where cgroup containment is unavailable, this test reports why and
/// checks nothing else.
#[test]
fn an_engine_killed_mid_run_leaves_nothing_and_no_tree_with_the_cgroup_mechanism() {
    let report = crate::contain::report(&DispatchConfig::default());
    if report.cgroup.is_none() {
        eprintln!("cgroup containment unavailable here: {:?}", report.unavailable);
        return;
    }
    let exe = std::env::current_exe().expect("test binary");
    let mut child = std::process::Command::new(&exe)
        .args([
            "runner::tests::trees_crash_child_entry",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(crate::testing::CRASH_AT_VAR, "after_spawn")
        .env("HOOKS_DISPATCH_TEST_CRASH_TREES", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the child engine");
    let engine = child.id();
    let marker = crash_point(&mut child);
    let hook: i32 = marker.expect("the crash point").parse().expect("the hook's pid");
    // The engine's children now, but the hook: the reaper, which must be a fork of the engine.
    let kids: Vec<i32> = std::fs::read_dir(format!("/proc/{engine}/task"))
        .expect("the engine's threads")
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| c.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<i32>>())
        .filter(|p| *p != hook)
        .collect();
    let exes: Vec<PathBuf> =
        kids.iter().filter_map(|p| std::fs::read_link(format!("/proc/{p}/exe")).ok()).collect();
    child.kill().expect("SIGKILL the child engine");
    child.wait().expect("reap it");
    assert_eq!(exes, [exe], "the reaper is a fork of the engine, and no shell");
    // The hook's group, and the whole tree (the `setsid` sleep is in no group of the hook's).
    assert_group_gone(hook, Duration::from_secs(30));
    // Its runs in the user's shared trees (`<pid>.<start>.<n>`), and a tree of its own in
    // their parents as engines made before.
    let shared: Vec<PathBuf> = std::iter::once(report.cgroup.clone())
        .flatten()
        .chain(crate::limits::available().v1.as_ref().map(|v| v.dirs()).unwrap_or_default())
        .collect();
    let trees: Vec<PathBuf> = shared
        .iter()
        .map(|d| d.join(format!("{engine}.")))
        .chain(
            shared
                .iter()
                .filter_map(|d| d.parent().map(|p| p.join(format!("agent-hooks.{engine}.")))),
        )
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left: Vec<String> = trees
            .iter()
            .filter_map(|prefix| {
                let parent = prefix.parent()?;
                let name = prefix.file_name()?.to_str()?.to_owned();
                std::fs::read_dir(parent)
                    .ok()?
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .find(|n| n.starts_with(&name))
            })
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "the dead engine's trees are left: {left:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What a child engine started with `CRASH_AT_VAR=after_spawn` prints at its crash point (the
/// hook's pid), read from its piped stdout, waiting at most 60 s.
fn crash_point(
    child: &mut std::process::Child,
) -> Result<String, std::sync::mpsc::RecvTimeoutError> {
    use std::io::{BufRead, BufReader};
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // libtest prints `test <name> ... ` without a newline before the test runs.
            if let Some((_, rest)) = line.split_once("CRASHPOINT after_spawn ") {
                let _ = tx.send(rest.trim().to_owned());
                return;
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60))
}

/// A hook's stdout and stderr are registered with the poller at the first read while it runs;
/// once it is reaped (it ended before the engine first waited, as when it ran first on a
/// shared CPU), its pipes are read to their end without any registration (nor removal).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_reaped_hooks_pipes_are_read_without_registering_them() {
    use tokio::io::AsyncReadExt;

    use crate::{child::testing::registered, spawner::Proc};
    let files = crate::files::ProvidedFiles::create(&[], None).expect("no files");
    let piped = || super::SpawnStdio::Piped {
        tag: None,
        cgroup: None,
        subreaper: false,
        register: None,
        limits: crate::spawner::ChildLimits::default(),
    };
    let read_all = |r: Option<Box<dyn tokio::io::AsyncRead + Unpin + Send>>| async move {
        let mut v = Vec::new();
        r.expect("piped").read_to_end(&mut v).await.expect("read");
        v
    };

    let ended = super::spawn(&sh("echo out; echo err >&2"), &files, piped()).expect("spawn");
    let Proc::Own(child) = &ended.proc else { panic!("not the crate's spawner") };
    child.wait_exited_unreaped();
    // Reaped first, as the runner's first poll of the process does.
    let mut proc = ended.proc;
    let st = proc.wait().await.expect("wait");
    assert!(st.success(), "{st:?}");
    let before = registered();
    let (out, err) = (read_all(ended.stdout).await, read_all(ended.stderr).await);
    assert_eq!((out.as_slice(), err.as_slice()), (&b"out\n"[..], &b"err\n"[..]));
    assert_eq!(registered(), before, "an ended hook's pipes were registered");

    // More output than a few reads take (eight 8 KiB reads): read directly a few times, then
    // registered, so reads that never wait are bounded (a descendant keeping the pipe full
    // would otherwise keep the run's task from ever yielding).
    let much = super::spawn(&sh("head -c 65536 /dev/zero"), &files, piped()).expect("spawn");
    let Proc::Own(child) = &much.proc else { panic!("not the crate's spawner") };
    child.wait_exited_unreaped();
    let mut proc = much.proc;
    assert!(proc.wait().await.expect("wait").success());
    let before = registered();
    let mut out = much.stdout.expect("piped");
    let (mut all, mut buf) = (0, vec![0u8; 8192]);
    loop {
        match out.read(&mut buf).await.expect("read") {
            0 => break,
            n => all += n,
        }
    }
    assert_eq!(all, 65536);
    assert_eq!(registered(), before + 1, "reads of a reaped hook's pipe were not bounded");
    drop(read_all(much.stderr).await);

    // A payload above `PIPE_BUF` is fed by the engine: the hook waits for it, so the first
    // read finds nothing.
    let mut waiting = sh("read x; echo \"${#x}\"; echo late >&2");
    waiting.stdin = [vec![b'a'; 5000], b"\n".to_vec()].concat();
    let running = super::spawn(&waiting, &files, piped()).expect("spawn");
    let before = registered();
    let mut out = running.stdout.expect("piped");
    let mut first = [0u8; 16];
    let read = out.read(&mut first);
    let mut read = std::pin::pin!(read);
    let once = std::future::poll_fn(|cx| std::task::Poll::Ready(read.as_mut().poll(cx))).await;
    assert!(once.is_pending(), "the hook wrote before its stdin was fed");
    assert!(registered() > before, "a running hook's pipes were never registered");
    {
        use tokio::io::AsyncWriteExt;
        let mut stdin = running.stdin.expect("fed by the engine");
        stdin.write_all(&waiting.stdin).await.expect("feed");
    }
    let n = read.await.expect("read");
    let mut rest = Vec::new();
    out.read_to_end(&mut rest).await.expect("read");
    let err = read_all(running.stderr).await;
    let mut proc = running.proc;
    assert!(proc.wait().await.expect("wait").success());
    assert_eq!([&first[..n], &rest].concat(), b"5000\n");
    assert_eq!(err, b"late\n");
}

/// A payload that fits `PIPE_BUF` is written into the hook's stdin pipe once the child is
/// started (while it `exec`s), not on the path before the spawn; the hook still reads all of
/// it and then end-of-file. Several programs to try get it written before, each attempt a
/// duplicate of the filled pipe.
#[tokio::test]
async fn a_small_payload_goes_into_the_pipe_after_the_start_and_the_hook_reads_it_whole() {
    let payload = b"{\"tool\":\"Bash\"}".repeat(100);
    let mut i = sh("cat; echo; echo done");
    i.stdin.clone_from(&payload);
    let (out, _) = run(&i, &cfg()).await;
    assert!(matches!(out.exit, ExitInfo::Exited(0)), "{:?}", out.exit);
    assert_eq!(crate::spawner::testing::queued_at_start(), Some(0), "written before the start");
    let mut want = payload.clone();
    want.extend_from_slice(b"\ndone\n");
    assert_eq!(out.stdout.bytes, want);

    let mut first = sh("");
    first.program = Program::FirstAvailable {
        candidates: vec![
            vec!["/nonexistent/hooks-test-program".into()],
            vec!["/bin/sh".into(), "-c".into(), "cat; echo; echo done".into()],
        ],
    };
    first.stdin.clone_from(&payload);
    let (out, _) = run(&first, &cfg()).await;
    assert!(matches!(out.exit, ExitInfo::Exited(0)), "{:?}", out.exit);
    let queued = crate::spawner::testing::queued_at_start();
    assert_eq!(queued, Some(payload.len() as u64), "each attempt gets the filled pipe");
    assert_eq!(out.stdout.bytes, want);
}

/// A run's stdin, stdout and stderr are pipes made ahead (by the run before it, while its
/// child started), so none is made on the run's critical path.
#[tokio::test]
async fn a_run_uses_the_pipes_made_ahead() {
    crate::spawner::make_spare_pipes();
    let spare = crate::spawner::spare_pipe_inodes();
    assert_eq!(spare.len(), 3);
    let mut i = sh("for f in 0 1 2; do readlink /proc/self/fd/$f; done");
    i.stdin = b"payload".to_vec();
    let (out, _) = run(&i, &cfg()).await;
    assert!(matches!(out.exit, ExitInfo::Exited(0)), "{:?}", out.exit);
    let text = String::from_utf8_lossy(&out.stdout.bytes).into_owned();
    let used: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("pipe:[")?.strip_suffix(']')?.parse().ok())
        .collect();
    assert_eq!(used.len(), 3, "{text}");
    for ino in used {
        assert!(spare.contains(&ino), "pipe {ino} was not made ahead: {spare:?}");
    }
}
