//! Tests of the spawner's child side: what the started process gets (environment, streams,
//! signals, group, working directory) and how failures before the `exec` are reported.

use std::{
    ffi::CString,
    io::Read,
    os::fd::{AsFd, BorrowedFd, OwnedFd},
};

use super::{
    Cgroup, Env, Join, Request, Session, SpawnError, Spawned, Stage, TEST_HANDLED_SIGNAL,
    join_method, spawn, spawn_clearing, spawn_with,
};

fn c(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

/// A request to run `programs` with `argv` and `stdio`, in a new process group, with the
/// engine's environment and nothing else (a test sets the fields it is about).
pub(crate) fn request<'a>(
    programs: &'a [CString],
    argv: &'a [CString],
    stdio: [BorrowedFd<'a>; 3],
) -> Request<'a> {
    Request {
        programs,
        argv,
        env: Env::Inherit,
        cwd: None,
        stdio,
        cgroup: None,
        session: Session::NewGroup,
        subreaper: false,
        register: None,
        v1_tasks: &[],
        rlimits: &[],
        probe: false,
    }
}

/// Waits for `spawned` to exit; how it ended.
fn wait_exit(spawned: &Spawned) -> Option<rustix::process::WaitIdStatus> {
    rustix::process::waitid(
        rustix::process::WaitId::PidFd(spawned.pidfd.as_fd()),
        rustix::process::WaitIdOptions::EXITED,
    )
    .expect("waitid")
}

/// What `spawned` wrote to the pipe `r` (the caller has closed its own write end), read to the
/// end, and how it ended.
fn output(spawned: &Spawned, r: OwnedFd) -> (String, Option<rustix::process::WaitIdStatus>) {
    let mut out = String::new();
    std::fs::File::from(r).read_to_string(&mut out).expect("read");
    (out, wait_exit(spawned))
}

/// Runs `sh -c script` with `env` and `cwd`, returns its exit code and stdout.
fn run(script: &str, env: Env<'_>, cwd: Option<&str>) -> Result<(i32, String), SpawnError> {
    let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).expect("pipe");
    let null: OwnedFd = std::fs::File::open("/dev/null").expect("null").into();
    let cwd = cwd.map(c);
    let programs = [c("/bin/sh")];
    let argv = [c("sh"), c("-c"), c(script)];
    let req = Request {
        env,
        cwd: cwd.as_deref(),
        ..request(&programs, &argv, [null.as_fd(), w.as_fd(), w.as_fd()])
    };
    let spawned = spawn(&req)?;
    drop(w);
    let (out, st) = output(&spawned, r);
    Ok((st.expect("exited").exit_status().unwrap_or(-1), out))
}

#[test]
fn the_child_gets_the_engine_environment_uncopied_or_edited() {
    let (_, out) = run("echo \"[$HOME]\"", Env::Inherit, None).expect("runs");
    assert_ne!(out.trim(), "[]", "HOME is inherited");
    let set = [c("HOOKS_SYS_TEST=one"), c("HOME=/elsewhere")];
    let remove: [&[u8]; 1] = [b"PATH"];
    let (_, out) = run(
        "echo \"$HOOKS_SYS_TEST $HOME\"; exec /usr/bin/env",
        Env::Edit { remove: &remove, set: &set },
        None,
    )
    .expect("runs");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("one /elsewhere"));
    let env: Vec<&str> = lines.collect();
    assert!(!env.iter().any(|l| l.starts_with("PATH=")), "PATH removed: {env:?}");
    assert_eq!(env.iter().filter(|l| l.starts_with("HOME=")).count(), 1, "HOME once: {env:?}");
}

#[test]
fn the_child_leads_its_own_group_in_the_working_directory_with_default_signals() {
    // The mask is read by the process the child exec'd into (`exec grep`): a waiting dash
    // briefly blocks every signal itself.
    let script = "echo $$ $(cut -d' ' -f5 /proc/$$/stat); pwd; exec grep -E '^Sig(Blk|Ign)' /proc/self/status";
    let (code, out) = run(script, Env::Inherit, Some("/tmp")).expect("runs");
    assert_eq!(code, 0, "{out}");
    let mut lines = out.lines();
    let ids: Vec<&str> = lines.next().expect("ids").split_whitespace().collect();
    assert_eq!(ids[0], ids[1], "pid == pgid: {out}");
    assert_eq!(lines.next(), Some("/tmp"));
    let blocked = lines.next().expect("SigBlk");
    assert!(blocked.ends_with("0000000000000000"), "no signal blocked: {blocked}");
    // SIGPIPE (13, bit 12) is not ignored even though Rust programs ignore it.
    let ignored = lines.next().expect("SigIgn");
    let mask =
        u64::from_str_radix(ignored.rsplit('\t').next().unwrap_or("0").trim(), 16).expect("hex");
    assert_eq!(mask & (1 << 12), 0, "SIGPIPE is at its default: {ignored}");
}

#[test]
fn failures_before_the_exec_name_their_stage_and_errno() {
    match run("true", Env::Inherit, Some("/nonexistent/folder")) {
        Err(SpawnError::Child(Stage::Cwd, e)) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound),
        other => panic!("{other:?}"),
    }
    let null: OwnedFd = std::fs::File::open("/dev/null").expect("null").into();
    let programs = [c("/nonexistent/a"), c("/etc/passwd"), c("/nonexistent/b")];
    let argv = [c("x")];
    let req = request(&programs, &argv, [null.as_fd(), null.as_fd(), null.as_fd()]);
    match spawn(&req) {
        // A candidate that may not be run is remembered while the search goes on, as execvp.
        Err(SpawnError::Child(Stage::Exec, e)) => {
            assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_child_is_born_in_its_cgroup_by_clone3_or_joins_it_by_writing_to_it() {
    let Some(tree) = crate::contain::probe(None).tree.as_ref() else {
        eprintln!("no usable cgroup v2 tree on this machine: nothing to start a process in");
        return;
    };
    if cfg!(target_arch = "x86_64") {
        // The probe started a child in a cgroup: clone3 was not refused on this machine.
        assert_eq!(join_method(), Join::Clone3, "CLONE_INTO_CGROUP works on this kernel");
    }
    let run = tree.take(None).expect("a run cgroup");
    let fds = run.fds();
    let name = run.dir().strip_prefix(tree.dir.parent().expect("parent")).expect("below");
    for join in [Join::Clone3, Join::Write] {
        let (out, _) = cat_own_cgroup(&fds, join);
        let v2 = out.lines().find_map(|l| l.strip_prefix("0::")).expect("a cgroup v2 line");
        assert!(
            v2.ends_with(&format!("/{}", name.display())),
            "{join:?}: the process runs in {v2}, not in {}",
            name.display()
        );
    }
    tree.finish(run);
}

/// A child born by `CLONE_INTO_CGROUP` into a cgroup whose `cgroup.kill` was written before
/// is killed by Linux before its first instruction (seen on 6.18; see `Tree::finish`): it
/// never ran, so it is not reported as started but started again joining by the write, and
/// runs in its cgroup; later children join by the write too. (The probe child found this out
/// before the first hook; the first hook's own start does now.)
#[test]
fn a_child_killed_at_birth_in_its_cgroup_is_started_again_by_the_write() {
    let Some(tree) = crate::contain::probe(None).tree.as_ref() else {
        eprintln!("no usable cgroup v2 tree on this machine: nothing to start a process in");
        return;
    };
    if !tree.has_kill {
        eprintln!("no cgroup.kill on this kernel");
        return;
    }
    let run = tree.take(None).expect("a run cgroup");
    run.kill(true);
    let fds = run.fds();
    let name = run.dir().strip_prefix(tree.dir.parent().expect("parent")).expect("below");
    let (out, st) = cat_own_cgroup(&fds, Join::Clone3);
    let st = st.expect("exited");
    assert_eq!((st.exit_status(), st.terminating_signal()), (Some(0), None), "it ran: {out}");
    let v2 = out.lines().find_map(|l| l.strip_prefix("0::")).expect("a cgroup v2 line");
    assert!(v2.ends_with(&format!("/{}", name.display())), "runs in {v2}");
    tree.finish(run);
}

/// Starts `cat /proc/self/cgroup` in the run cgroup of `fds`, joining it by `join`, and
/// waits for it: what it printed (stdout and stderr) and how it ended.
fn cat_own_cgroup(
    fds: &crate::spawner::CgroupFds<'_>,
    join: Join,
) -> (String, Option<rustix::process::WaitIdStatus>) {
    let null: OwnedFd = std::fs::File::open("/dev/null").expect("null").into();
    let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).expect("pipe");
    let programs = [c("/bin/cat")];
    let argv = [c("cat"), c("/proc/self/cgroup")];
    let req = Request {
        cgroup: Some(Cgroup { dir: fds.dir, procs: fds.procs }),
        ..request(&programs, &argv, [null.as_fd(), w.as_fd(), w.as_fd()])
    };
    let spawned = spawn_with(&req, join).expect("spawns");
    drop(w);
    output(&spawned, r)
}

extern "C" fn ignore_signal(_: nix::libc::c_int) {}

/// Installs a handler for [`TEST_HANDLED_SIGNAL`] in this (test) process, as an embedding
/// agent may for any signal.
fn handle_test_signal() {
    // SAFETY: installs a handler that does nothing, for a signal nothing else in the test
    // binary uses; `sigaction` on a zeroed, then filled, local.
    unsafe {
        let mut sa: nix::libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = ignore_signal as extern "C" fn(nix::libc::c_int) as usize;
        nix::libc::sigemptyset(&raw mut sa.sa_mask);
        assert_eq!(
            nix::libc::sigaction(TEST_HANDLED_SIGNAL, &raw const sa, std::ptr::null_mut()),
            0
        );
    }
}

/// Waits for a probe child and returns its exit code.
fn probe_exit(spawned: Spawned) -> i32 {
    wait_exit(&spawned).and_then(|st| st.exit_status()).unwrap_or(-1)
}

#[test]
fn no_handler_of_the_engine_survives_into_the_child_whichever_way_it_is_made() {
    // The child shares the engine's memory until its `exec`: a handler left in place would run
    // engine code on the child's stack if a signal came in that window. The probe child exits
    // with 3 when the test signal still has the handler installed here.
    handle_test_signal();
    let null: OwnedFd = std::fs::File::open("/dev/null").expect("null").into();
    let programs = [c("/")];
    let mut req = Request {
        probe: true,
        ..request(&programs, &[], [null.as_fd(), null.as_fd(), null.as_fd()])
    };
    for clear in [true, false] {
        if clear && !cfg!(target_arch = "x86_64") {
            continue;
        }
        let spawned = spawn_clearing(&req, clear).expect("spawns");
        assert_eq!(probe_exit(spawned), 0, "clone3 with CLONE_CLEAR_SIGHAND: {clear}");
    }
    let Some(tree) = crate::contain::probe(None).tree.as_ref() else {
        eprintln!("no usable cgroup v2 tree on this machine: the ways into a cgroup are not run");
        return;
    };
    let run = tree.take(None).expect("a run cgroup");
    let fds = run.fds();
    req.cgroup = Some(Cgroup { dir: fds.dir, procs: fds.procs });
    for join in [Join::Clone3, Join::Write] {
        let spawned = spawn_with(&req, join).expect("spawns");
        assert_eq!(probe_exit(spawned), 0, "into the cgroup by {join:?}");
    }
    tree.finish(run);
}
