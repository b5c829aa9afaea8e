//! Tests of the reaper script and of the engine's side of it, with real processes.

use std::{
    io::Write,
    os::unix::{fs::FileExt, process::CommandExt, process::ExitStatusExt},
    process::{Child, Command, ExitStatus, Stdio},
    sync::mpsc,
    time::Duration,
};

use nix::{sys::signal::killpg, unistd::Pid};

use super::{AHEAD, BLANK, Reaper, SHELL, SLOT, registration_file, script, slot_line};

/// How long a reaper or a killed process may take to end: a failure bound only (these tests
/// check what is killed and what is spared, not how fast). A tag sweep reads every process's
/// environment a few times; on a shared 2-core machine under a load of 15–20, with the rest of
/// the suite running, that took more than 10 s now and then.
const BOUND: Duration = Duration::from_secs(30);

/// A `sleep` leading its own process group; killed when dropped.
struct Group(Child);

impl Group {
    fn new() -> Group {
        Group(
            Command::new("sleep")
                .arg("60")
                .stdin(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("spawn sleep"),
        )
    }

    fn pgid(&self) -> Pid {
        Pid::from_raw(i32::try_from(self.0.id()).expect("pid"))
    }

    /// Waits (on the process's exit, at most [`BOUND`]) for it to end.
    fn wait_end(&mut self) -> Option<ExitStatus> {
        wait_child(&mut self.0)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_child(c: &mut Child) -> Option<ExitStatus> {
    let pid = c.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let st = nix::sys::wait::waitpid(Pid::from_raw(i32::try_from(pid).expect("pid")), None);
        let _ = tx.send(st);
    });
    match rx.recv_timeout(BOUND) {
        Ok(Ok(nix::sys::wait::WaitStatus::Signaled(_, sig, _))) => {
            Some(ExitStatus::from_raw(sig as i32))
        }
        Ok(Ok(nix::sys::wait::WaitStatus::Exited(_, code))) => {
            Some(ExitStatus::from_raw(code << 8))
        }
        _ => None,
    }
}

/// The header line of a registration file whose engine handed out tags.
const TAGGED_HEADER: &str = "T         \n";

/// Runs the reaper script with a registration file holding only the tagged header and
/// `token`, in an empty environment, closes its liveness pipe at once, and waits for it to
/// end.
fn sweep_with_token(token: &str) -> Option<ExitStatus> {
    sweep(token, "", super::REAPER_PATH)
}

/// [`sweep_with_token`] with the cgroup tree `tree` and the reaper's `PATH`.
fn sweep(token: &str, tree: &str, path: &str) -> Option<ExitStatus> {
    run_to_end(TAGGED_HEADER.as_bytes(), &["0", token, tree, path])
}

/// Runs the script with no environment and `args` after its name, a registration file that
/// holds only `header`, and its stdin closed at once (the engine gone); how it ended.
fn run_to_end(header: &[u8], args: &[&str]) -> Option<ExitStatus> {
    let file = registration_file().expect("registration file");
    file.write_all_at(header, 0).expect("header");
    let mut reaper = Command::new(SHELL)
        .args(["-c", script(), "hooks-reaper"])
        .args(args)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(file.try_clone().expect("clone"))
        .process_group(0)
        .spawn()
        .expect("spawn the reaper");
    drop(reaper.stdin.take());
    wait_child(&mut reaper)
}

/// Four groups, and registration lines naming two of them well-formed (one padded as a slot),
/// the engine's own group, and the fourth only in malformed lines: what the script and the
/// engine's reaper process must kill and spare alike.
struct Registered {
    target: Group,
    padded: Group,
    decoy_self: Group,
    unlisted: Group,
}

impl Registered {
    fn new() -> Registered {
        Registered {
            target: Group::new(),
            padded: Group::new(),
            decoy_self: Group::new(),
            unlisted: Group::new(),
        }
    }

    /// The lines after the header.
    fn lines(&self) -> String {
        let u = self.unlisted.pgid();
        format!(
            "{}\ngarbage\n0\n-5\n+{u}\n{u} {u}\n123456789012\n{}\n{:>10}\n",
            self.target.pgid(),
            self.decoy_self.pgid(),
            self.padded.pgid(),
        )
    }

    /// Checks that the well-formed groups were killed and the others spared.
    fn check(mut self, what: &str) {
        assert_eq!(self.target.wait_end().and_then(|s| s.signal()), Some(9), "{what}");
        assert_eq!(self.padded.wait_end().and_then(|s| s.signal()), Some(9), "{what}");
        assert!(killpg(self.decoy_self.pgid(), None).is_ok(), "{what}: the engine's own group");
        assert!(killpg(self.unlisted.pgid(), None).is_ok(), "{what}: malformed lines ignored");
    }
}

#[test]
fn the_script_kills_well_formed_registered_groups_at_end_of_file_and_ignores_the_rest() {
    let groups = Registered::new();
    let file = registration_file().expect("registration file");
    // The script reads its header as a line (here an empty one).
    file.write_all_at(format!("\n{}", groups.lines()).as_bytes(), 0).expect("write");
    let mut reaper = Command::new(SHELL)
        .args([
            "-c",
            script(),
            "hooks-reaper",
            &groups.decoy_self.pgid().as_raw().to_string(),
            "",
            "",
            super::REAPER_PATH,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(file.try_clone().expect("clone"))
        .process_group(0)
        .spawn()
        .expect("spawn the reaper");
    // Lines on stdin are read and ignored; only its end matters.
    let mut pipe = reaper.stdin.take().expect("stdin");
    pipe.write_all(format!("{}\n", groups.unlisted.pgid()).as_bytes()).expect("write");
    drop(pipe);
    let st = wait_child(&mut reaper).expect("the reaper ends at end-of-file");
    assert!(st.success(), "{st:?}");
    groups.check("the script");
}

#[test]
fn registered_groups_die_when_the_engine_side_closes_and_released_ones_do_not() {
    // The script, and the engine's own process.
    for by_fork in [false, true] {
        registered_groups_die_when_the_engine_side_closes(by_fork);
    }
}

fn registered_groups_die_when_the_engine_side_closes(by_fork: bool) {
    let reaper = Reaper::default();
    reaper.trees_by_fork.set(by_fork).expect("decided here");
    let mut kept = Group::new();
    let released = Group::new();
    reaper.register(kept.pgid());
    reaper.register(released.pgid());
    reaper.register(released.pgid());
    assert!(reaper.is_registered(kept.pgid()) && reaper.is_registered(released.pgid()));
    reaper.release(released.pgid());
    assert!(!reaper.is_registered(released.pgid()));
    let pid = reaper.pid().expect("a reaper runs");
    {
        let file = reaper.file.get().expect("file");
        let mut buf = vec![0u8; usize::try_from(3 * SLOT).expect("size")];
        file.read_exact_at(&mut buf, 0).expect("read the slots");
        let text = String::from_utf8(buf).expect("text");
        assert_eq!(text.matches(&kept.pgid().to_string()).count(), 1, "{text:?}");
        assert!(!text.contains(&released.pgid().to_string()), "{text:?}");
    }
    // A released slot is reused.
    let other = Group::new();
    reaper.register(other.pgid());
    // The header slot, then the two groups.
    assert_eq!(reaper.state.lock().expect("lock").len, 3);
    reaper.release(other.pgid());
    // What the engine's death does: the write end of the pipe closes.
    drop(reaper);
    assert_eq!(kept.wait_end().and_then(|s| s.signal()), Some(9));
    assert!(killpg(released.pgid(), None).is_ok(), "a released group is left alone");
    assert!(killpg(other.pgid(), None).is_ok(), "a released group is left alone");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(nix::sys::wait::waitpid(pid, None));
    });
    assert!(rx.recv_timeout(BOUND).is_ok(), "the reaper exits");
}

/// The reaper leaves the engine's folder for `/` (the script's first `cd /`, with std not
/// asked to change folders, which would make it spawn by `fork` in a binary linked with glibc
/// built in; the engine's own process by `chdir`), so an engine's folder is never held busy by
/// a reaper that outlives it: the script, and the engine's process that takes the
/// registrations.
#[cfg(target_os = "linux")]
#[test]
fn the_reaper_waits_in_the_root_folder() {
    assert_ne!(std::env::current_dir().expect("cwd"), std::path::Path::new("/"));
    for by_fork in [false, true] {
        let reaper = Reaper::default();
        reaper.trees_by_fork.set(by_fork).expect("decided here");
        let pid = reaper.pid().expect("a reaper runs").as_raw();
        wait_blocked_in_read(pid);
        assert_eq!(
            std::fs::read_link(format!("/proc/{pid}/cwd")).expect("cwd"),
            std::path::Path::new("/"),
            "by the engine's process: {by_fork}"
        );
        let is_shell = std::fs::read_link(format!("/proc/{pid}/exe"))
            .is_ok_and(|e| e != std::env::current_exe().expect("test binary"));
        assert_eq!(is_shell, !by_fork, "the script runs a shell, the engine's process none");
        drop(reaper);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(nix::sys::wait::waitpid(Pid::from_raw(pid), None));
        });
        assert!(rx.recv_timeout(BOUND).is_ok(), "the reaper exits");
    }
}

#[test]
fn a_reaper_that_died_is_replaced_and_knows_every_registered_group() {
    for by_fork in [false, true] {
        a_reaper_that_died_is_replaced(by_fork);
    }
}

fn a_reaper_that_died_is_replaced(by_fork: bool) {
    let reaper = Reaper::default();
    reaper.trees_by_fork.set(by_fork).expect("decided here");
    let mut g = Group::new();
    reaper.register(g.pgid());
    let first = reaper.pid().expect("a reaper runs");
    nix::sys::signal::kill(first, nix::sys::signal::Signal::SIGKILL).expect("kill the reaper");
    // `pid` reaps the dead one and starts another once it is gone.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(nix::sys::wait::waitpid(first, None));
    });
    assert!(rx.recv_timeout(BOUND).is_ok(), "the first reaper dies");
    let second = reaper.pid().expect("a new reaper runs");
    assert_ne!(first, second);
    drop(reaper);
    assert_eq!(g.wait_end().and_then(|s| s.signal()), Some(9));
}

/// A `sleep` in its own process group with `AGENT_HOOKS_RUN` set to `tag` (unset when `None`).
fn tagged(tag: Option<&str>) -> Group {
    let mut c = Command::new("sleep");
    c.arg("60").stdin(Stdio::null()).process_group(0);
    match tag {
        Some(t) => c.env(crate::tag::VAR, t),
        None => c.env_remove(crate::tag::VAR),
    };
    Group(c.spawn().expect("spawn sleep"))
}

/// Processes tagged for a made-up engine token (so no other test's processes match): two
/// with the engine's tags, and four to spare, with another engine's tag, a partial one, a
/// longer one, or none.
struct TaggedSet {
    first: Group,
    loose: Group,
    spared: [(&'static str, Group); 4],
}

impl TaggedSet {
    fn new(token: &str) -> TaggedSet {
        TaggedSet {
            first: tagged(Some(&format!("{token}-1"))),
            loose: tagged(Some(&format!("{token}-0"))),
            spared: [
                ("another engine's", tagged(Some(&format!("{token}9-1")))),
                ("a partial", tagged(Some(token))),
                ("a longer", tagged(Some(&format!("{token}-1x")))),
                ("no", tagged(None)),
            ],
        }
    }

    /// Checks that the engine's tagged processes were killed and the others spared.
    fn check(mut self, by: &str) {
        assert_eq!(self.first.wait_end().and_then(|s| s.signal()), Some(9), "{by}");
        assert_eq!(self.loose.wait_end().and_then(|s| s.signal()), Some(9), "{by}");
        for (what, g) in &self.spared {
            assert!(killpg(g.pgid(), None).is_ok(), "{by}: a process with {what} tag is spared");
        }
    }
}

#[test]
fn at_end_of_file_the_script_kills_the_engine_s_tagged_processes_outside_any_registered_group() {
    let token = format!("{}-{}", std::process::id(), 424_242);
    let set = TaggedSet::new(&token);
    let st = sweep_with_token(&token).expect("the reaper ends at end-of-file");
    assert!(st.success(), "{st:?}");
    set.check("the script");
}

#[test]
fn a_malformed_token_sweeps_nothing() {
    for token in ["", "-", "1-", "-1", "1.*", "1 2"] {
        let spared = tagged(Some(&format!("{token}-1")));
        let st = sweep_with_token(token).expect("the reaper ends");
        assert!(st.success(), "{token:?}: {st:?}");
        assert!(killpg(spared.pgid(), None).is_ok(), "{token:?}");
    }
}

#[test]
fn a_slot_line_is_the_id_right_aligned_in_ten_columns() {
    for g in [2, 9, 10, 12_345, 99_999, 4_194_304, 999_999_999, 1_000_000_000, i32::MAX] {
        assert_eq!(slot_line(g), format!("{g:>10}\n").as_bytes(), "{g}");
    }
    assert_eq!(slot_line(2).len() as u64, SLOT);
}

/// A folder whose commands log each call to `log` and run the real command, to be the
/// reaper's `PATH`: every command the script can start (`grep` and `rmdir`, and `tr`, `cat`
/// and `ls`, which it must not start).
fn spy_path(dir: &std::path::Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let log = dir.join("log");
    for cmd in ["grep", "rmdir", "tr", "cat", "ls"] {
        let real = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| std::path::Path::new(d).join(cmd))
            .find(|p| p.is_file())
            .expect("the real command");
        let spy = dir.join(cmd);
        std::fs::write(
            &spy,
            format!(
                "#!/bin/sh\necho {cmd} >> '{}'\nexec '{}' \"$@\"\n",
                log.display(),
                real.display()
            ),
        )
        .expect("write spy");
        std::fs::set_permissions(&spy, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    dir.to_str().expect("utf-8").to_owned()
}

fn spy_calls(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Issue 23: the exit sweep's cost must not grow with the number of processes on the machine.
/// With 500 idle processes around (and three of the engine's, tagged), the tag sweep starts
/// one `grep` per pass, never a process per process. (The sweep it replaced ran `tr` and
/// `grep` for each readable `/proc/<pid>/environ`, with a `PATH` of its own: more than a
/// thousand processes here, none of them through the spies, so this test fails on it.)
#[test]
fn the_exit_sweep_starts_no_process_per_process_on_the_machine() {
    let token = format!("{}-{}", std::process::id(), 515_151);
    let idle: Vec<Group> = (0..500).map(|_| tagged(None)).collect();
    let mut mine: Vec<Group> = (0..3).map(|i| tagged(Some(&format!("{token}-{i}")))).collect();
    let dir = tempfile::tempdir().expect("dir");
    let path = spy_path(dir.path());
    let st = sweep(&token, "", &path).expect("the reaper ends");
    assert!(st.success(), "{st:?}");
    for g in &mut mine {
        assert_eq!(g.wait_end().and_then(|s| s.signal()), Some(9), "a tagged process is killed");
    }
    assert!(idle.iter().all(|g| killpg(g.pgid(), None).is_ok()), "untagged processes are spared");
    let calls = spy_calls(dir.path());
    assert!(calls.iter().all(|c| c == "grep"), "{calls:?}");
    // A pass that kills, then two that find nothing; a tagged process still dying when a
    // later pass reads it, or any process caught in `execve` then, adds a pass.
    assert!((3..=6).contains(&calls.len()), "one grep per pass: {calls:?}");
}

/// With the cgroup mechanisms the sweep reads no process at all: one write to the tree's
/// `cgroup.kill`, then one `rmdir` once the tree is empty. Needs a writable cgroup v2 tree
/// (the probe's); where the machine has none, this test reports why and checks nothing else.
#[test]
fn with_a_cgroup_tree_the_exit_sweep_kills_the_tree_without_scanning_processes() {
    let cfg = crate::DispatchConfig::default();
    let report = crate::contain::report(&cfg);
    let Some(engine_tree) = report.cgroup else {
        eprintln!("cgroup containment unavailable here: {:?}", report.unavailable);
        return;
    };
    // A tree of its own next to the engine's, so the engine's runs are left alone.
    let parent = engine_tree.parent().expect("parent");
    let tree = parent.join(format!("agent-hooks-test.{}.{}", std::process::id(), 777));
    std::fs::create_dir(&tree).expect("tree");
    let run = tree.join("run.0");
    std::fs::create_dir(&run).expect("run cgroup");
    let mut inside = Command::new("sleep").arg("60").stdin(Stdio::null()).spawn().expect("sleep");
    std::fs::write(run.join("cgroup.procs"), inside.id().to_string()).expect("move into the run");
    let idle: Vec<Group> = (0..50).map(|_| tagged(None)).collect();
    let dir = tempfile::tempdir().expect("dir");
    let path = spy_path(dir.path());
    let st = run_to_end(BLANK, &["0", "1-1", tree.to_str().expect("utf-8"), &path])
        .expect("the reaper ends");
    assert!(st.success(), "{st:?}");
    assert_eq!(wait_child(&mut inside).and_then(|s| s.signal()), Some(9), "the tree was killed");
    assert!(idle.iter().all(|g| killpg(g.pgid(), None).is_ok()));
    assert_eq!(spy_calls(dir.path()), ["rmdir"], "no grep: no process is scanned");
    assert!(!tree.exists(), "the tree is removed");
}

/// The engine's cgroup v1 trees (limits) are emptied and removed when the engine ends:
/// whatever of its hooks is still in a run cgroup there gets SIGKILL, whatever its group.
/// Needs a writable cgroup v1 hierarchy (the limits probe's); where the machine has none, this
/// test reports why and checks nothing else.
#[test]
fn the_exit_sweep_empties_and_removes_the_cgroup_v1_trees() {
    let Some(v1) = crate::limits::available().v1.as_ref() else {
        eprintln!("no cgroup v1 hierarchy usable here");
        return;
    };
    let Some(engine_tree) = v1.dirs().into_iter().next() else { return };
    let parent = engine_tree.parent().expect("parent");
    let tree = parent.join(format!("agent-hooks-test.{}.{}", std::process::id(), 778));
    std::fs::create_dir(&tree).expect("tree");
    let run = tree.join("run.0");
    std::fs::create_dir(&run).expect("run cgroup");
    let mut inside = Command::new("sleep").arg("60").stdin(Stdio::null()).spawn().expect("sleep");
    std::fs::write(run.join("cgroup.procs"), inside.id().to_string()).expect("move into the run");
    let dir = tempfile::tempdir().expect("dir");
    let path = spy_path(dir.path());
    let trees = format!("/nonexistent/tree\n{}", tree.display());
    let st = run_to_end(BLANK, &["0", "1-1", "", &path, &trees]).expect("the reaper ends");
    assert!(st.success(), "{st:?}");
    assert_eq!(wait_child(&mut inside).and_then(|s| s.signal()), Some(9), "its member was killed");
    assert!(!tree.exists(), "the v1 tree is removed");
}

/// Every tree the engine made, cgroup v2 and v1 alike, is removed by one `rmdir` at the
/// engine's exit (the shell becomes it): with cgroup v1 limits there used to be one `rmdir`
/// per tree, four processes after every engine's exit on a machine with three v1 hierarchies.
/// Needs a writable cgroup v2 tree and a writable cgroup v1 hierarchy; where the machine lacks
/// either, this test reports why and checks nothing else.
#[test]
fn every_tree_is_removed_by_one_rmdir_at_exit() {
    let report = crate::contain::report(&crate::DispatchConfig::default());
    let (Some(v2_engine), Some(v1)) = (report.cgroup, crate::limits::available().v1.as_ref())
    else {
        eprintln!("needs cgroup v2 and v1 trees: {:?}", report.unavailable);
        return;
    };
    // Trees of their own next to the engine's, so the engine's runs are left alone; the
    // cgroup v2 one first.
    let parents: Vec<std::path::PathBuf> = std::iter::once(v2_engine)
        .chain(v1.dirs())
        .filter_map(|d| d.parent().map(std::path::Path::to_owned))
        .collect();
    let name = format!("agent-hooks-test.{}.{}", std::process::id(), 779);
    let mut made = Vec::new();
    for t in &parents {
        let tree = t.join(&name);
        std::fs::create_dir(&tree).expect("tree");
        std::fs::create_dir(tree.join("run.0")).expect("run cgroup");
        std::fs::create_dir(tree.join("run.1")).expect("run cgroup");
        made.push(tree);
    }
    let v1_trees =
        made.iter().skip(1).map(|t| t.display().to_string()).collect::<Vec<_>>().join("\n");
    let dir = tempfile::tempdir().expect("dir");
    let path = spy_path(dir.path());
    let st = run_to_end(BLANK, &["0", "1-1", made[0].to_str().expect("utf-8"), &path, &v1_trees])
        .expect("the reaper ends");
    assert!(st.success(), "{st:?}");
    for t in &made {
        assert!(!t.exists(), "{} is removed", t.display());
    }
    assert_eq!(spy_calls(dir.path()), ["rmdir"], "one rmdir for every tree");
}

/// Waits (bounded) until `pid` is blocked in `read` (system call 0 in `/proc/<pid>/syscall`):
/// the trees' fork has set itself up and waits for the engine's end.
#[cfg(target_os = "linux")]
fn wait_blocked_in_read(pid: i32) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let s = std::fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
        if s.starts_with("0 ") {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "the fork never blocked in read: {s:?}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The trees' reaper is a process of the engine's that runs no program, sharing the engine's
/// memory where the kernel allows it or else a fork: either way it leads its own group, holds
/// no descriptor but its liveness pipe (so it keeps no pipe of the engine's, such as the
/// agent's stdout, open), and when the engine side closes it kills what the cgroup v2 tree and
/// the v1 trees' run cgroups hold, whatever their group, and removes every tree. Needs cgroup
/// v2 and v1 trees the engine may make; where the machine lacks them, this test reports why
/// and checks nothing else.
#[cfg(target_os = "linux")]
#[test]
fn the_trees_fork_runs_no_program_holds_only_its_pipe_and_ends_every_tree() {
    for (n, share) in [(780, true), (785, false)] {
        let Some((made, mut inside)) = test_trees(n) else { return };
        let mut paths = tree_paths(made.first(), &made[1..], None);
        paths.v1.push(std::ffi::CString::new("/nonexistent/tree").expect("c"));
        let (pid, pipe) = crate::sys::fork_tree_reaper(&paths, share).expect("fork");
        // Already when the call returns, the fork holds no descriptor of the engine's (such as
        // the agent's stdout) but its pipe.
        let fds = || -> Vec<String> {
            std::fs::read_dir(format!("/proc/{pid}/fd"))
                .expect("fds")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        };
        assert_eq!(fds(), ["0"], "only the pipe, from the start (sharing: {share})");
        wait_blocked_in_read(pid);
        assert_eq!(
            std::fs::read_link(format!("/proc/{pid}/exe")).expect("exe"),
            std::env::current_exe().expect("test binary"),
            "no program started"
        );
        assert_eq!(fds(), ["0"], "only the pipe");
        assert_eq!(nix::unistd::getpgid(Some(Pid::from_raw(pid))), Ok(Pid::from_raw(pid)));
        for c in &mut inside {
            assert_eq!(
                c.try_wait().expect("try_wait"),
                None,
                "the members live while the engine does"
            );
        }
        end_and_check(pid, pipe, &mut inside, &made);
    }
}

/// Where the kernel allows it the trees' reaper shares the engine's memory rather than
/// being a fork (no page table copied at its start, none torn down at the engine's end): a
/// mapping the engine makes after the reaper started is in the reaper's map too, which a
/// fork's copy would not have.
#[cfg(target_os = "linux")]
#[test]
fn the_trees_reaper_shares_the_engine_s_memory_where_the_kernel_allows_it() {
    if !crate::sys::reaper_shares_memory() {
        eprintln!("the kernel lacks close_range: the trees' reaper is a fork here");
        return;
    }
    let maps_of = |pid: i32| std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("maps");
    let holds = |maps: &str, at: usize| {
        maps.lines().any(|l| {
            let range = l.split(' ').next().unwrap_or_default();
            let (lo, hi) = range.split_once('-').unwrap_or_default();
            let (lo, hi) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16));
            matches!((lo, hi), (Ok(lo), Ok(hi)) if lo <= at && at < hi)
        })
    };
    for share in [true, false] {
        let (pid, pipe) =
            crate::sys::fork_tree_reaper(&crate::sys::TreePaths::default(), share).expect("start");
        wait_blocked_in_read(pid);
        // Larger than glibc's largest `mmap` threshold: a mapping of its own, made now.
        let later = vec![1u8; 64 << 20];
        let at = later.as_ptr() as usize;
        assert!(holds(&maps_of(std::process::id() as i32), at));
        assert_eq!(holds(&maps_of(pid), at), share, "the reaper maps it (sharing: {share})");
        drop(pipe);
        let st = nix::sys::wait::waitpid(Pid::from_raw(pid), None).expect("wait the reaper");
        assert_eq!(st, nix::sys::wait::WaitStatus::Exited(Pid::from_raw(pid), 0));
        drop(later);
    }
}

/// A reaper that shares the engine's memory also shares the thread pointer of the engine
/// thread that started it. Started here from a thread with a stack too large for the C
/// library's cache of stacks, which is unmapped when that thread ends (its thread block with
/// it), the reaper still ends every tree once the pipe closes: it reaches no thread block
/// (through the C library's wrappers it died of a segmentation fault at its first `openat`).
#[cfg(target_os = "linux")]
#[test]
fn a_reaper_started_by_a_thread_that_ended_still_ends_every_tree() {
    let Some((made, mut inside)) = test_trees(787) else { return };
    let paths = tree_paths(made.first(), &made[1..], None);
    let (pid, pipe) = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || crate::sys::fork_tree_reaper(&paths, true).expect("start"))
        .expect("thread")
        .join()
        .expect("joined");
    wait_blocked_in_read(pid);
    end_and_check(pid, pipe, &mut inside, &made);
}

/// The trees' fork is woken by the engine's end; as a batch task it does not preempt the
/// ending engine on its CPU (the agent waits for that exit), and keeps the engine's nice
/// value, so its kills get the normal share of the CPU.
#[cfg(target_os = "linux")]
#[test]
fn the_trees_fork_is_a_batch_task_at_the_engine_s_priority() {
    // `/proc/<pid>/stat`: after the command's closing parenthesis, field 19 (nice) is the
    // 17th and field 41 (policy) the 39th.
    let fields = |p: &str| -> (String, String) {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).expect("stat");
        let rest: Vec<String> =
            stat[stat.rfind(')').expect(")") + 2..].split(' ').map(str::to_owned).collect();
        (rest[19 - 3].clone(), rest[41 - 3].clone())
    };
    for share in [true, false] {
        let (pid, pipe) =
            crate::sys::fork_tree_reaper(&crate::sys::TreePaths::default(), share).expect("fork");
        wait_blocked_in_read(pid);
        let (nice, policy) = fields(&pid.to_string());
        let (own_nice, own_policy) = fields("self");
        // An engine that itself runs as SCHED_IDLE (5) has a reaper that may not leave it.
        let expected = if own_policy == "5" { "5" } else { "3" };
        assert_eq!(policy, expected, "its scheduling policy (SCHED_BATCH is 3; sharing: {share})");
        assert_eq!(nice, own_nice, "its nice value is the engine's (sharing: {share})");
        drop(pipe);
        let st = nix::sys::wait::waitpid(Pid::from_raw(pid), None).expect("wait the fork");
        assert_eq!(st, nix::sys::wait::WaitStatus::Exited(Pid::from_raw(pid), 0));
    }
}

/// A `sleep` in a session of its own, moved into the cgroup `dir` (its `cgroup.procs`).
#[cfg(target_os = "linux")]
fn sleeper_in(dir: &std::path::Path) -> Child {
    let c =
        Command::new("setsid").args(["sleep", "60"]).stdin(Stdio::null()).spawn().expect("sleep");
    std::fs::write(dir.join("cgroup.procs"), c.id().to_string()).expect("move");
    c
}

/// Trees of their own next to the engine's (the cgroup v2 one first, then one per v1
/// hierarchy), each with two run cgroups and, in the first, a `sleep` in its own session (only
/// the cgroup finds it). `None` (with the reason on stderr) where the machine lacks cgroup v2
/// or v1 trees.
#[cfg(target_os = "linux")]
fn test_trees(n: u32) -> Option<(Vec<std::path::PathBuf>, Vec<Child>)> {
    let report = crate::contain::report(&crate::DispatchConfig::default());
    let (Some(v2_engine), Some(v1)) = (report.cgroup, crate::limits::available().v1.as_ref())
    else {
        eprintln!("needs cgroup v2 and v1 trees: {:?}", report.unavailable);
        return None;
    };
    let parents: Vec<std::path::PathBuf> = std::iter::once(v2_engine)
        .chain(v1.dirs())
        .filter_map(|d| d.parent().map(std::path::Path::to_owned))
        .collect();
    let name = format!("agent-hooks-test.{}.{n}", std::process::id());
    let mut made = Vec::new();
    let mut inside = Vec::new();
    for t in &parents {
        let tree = t.join(&name);
        std::fs::create_dir(&tree).expect("tree");
        std::fs::create_dir(tree.join("run.0")).expect("run cgroup");
        std::fs::create_dir(tree.join("run.1")).expect("run cgroup");
        inside.push(sleeper_in(&tree.join("run.0")));
        made.push(tree);
    }
    Some((made, inside))
}

/// The trees as the trees' reaper takes them: the cgroup v2 one `v2` and the v1 ones `v1`
/// (from [`test_trees`], whose first is the v2 one), with the engine's run prefix `runs` in
/// shared trees.
#[cfg(target_os = "linux")]
fn tree_paths(
    v2: Option<&std::path::PathBuf>,
    v1: &[std::path::PathBuf],
    runs: Option<&str>,
) -> crate::sys::TreePaths {
    let c = |p: &str| std::ffi::CString::new(p).expect("no NUL");
    let path = |t: &std::path::PathBuf| c(t.to_str().expect("utf-8"));
    crate::sys::TreePaths {
        v2: v2.map(path),
        v1: v1.iter().map(path).collect(),
        runs: runs.map(c),
        registrations: None,
    }
}

/// Closes the engine's side of the trees' reaper `pid`'s pipe, as the engine's end does, and
/// checks what the reaper did: it exited with 0, every member in `inside` was SIGKILLed, and
/// every tree in `made` is gone.
#[cfg(target_os = "linux")]
fn end_and_check(
    pid: i32,
    pipe: std::os::fd::OwnedFd,
    inside: &mut [Child],
    made: &[std::path::PathBuf],
) {
    drop(pipe);
    let st = nix::sys::wait::waitpid(Pid::from_raw(pid), None).expect("wait the reaper");
    assert_eq!(st, nix::sys::wait::WaitStatus::Exited(Pid::from_raw(pid), 0));
    for c in inside {
        assert_eq!(wait_child(c).and_then(|s| s.signal()), Some(9), "a member was killed");
    }
    for t in made {
        assert!(!t.exists(), "{} is removed", t.display());
    }
}

/// The script started for the trees `made` alone (the cgroup v2 tree first, then the v1
/// ones, as [`test_trees`] gives them), as where no fork is allowed; `runs` is the engine's
/// run prefix in shared trees (empty: every run).
#[cfg(target_os = "linux")]
fn trees_script(made: &[std::path::PathBuf], runs: &str) -> (Pid, std::os::fd::OwnedFd) {
    let reaper = Reaper {
        tree: Some(made[0].clone()),
        v1_trees: made
            .iter()
            .skip(1)
            .map(|t| t.display().to_string())
            .collect::<Vec<_>>()
            .join("\n"),
        runs: runs.to_owned(),
        ..Reaper::default()
    };
    reaper.trees_shell().expect("the script")
}

/// Where no fork is allowed, the trees are left to the script, for the trees only (no
/// registration file, no token): it kills and removes them all the same when the engine side
/// closes. Needs cgroup v2 and v1 trees the engine may make (see [`test_trees`]).
#[cfg(target_os = "linux")]
#[test]
fn without_a_fork_the_script_ends_every_tree() {
    let Some((made, mut inside)) = test_trees(781) else { return };
    let (pid, pipe) = trees_script(&made, "");
    for c in &mut inside {
        assert_eq!(c.try_wait().expect("try_wait"), None, "the members live while the engine does");
    }
    drop(pipe);
    let st = nix::sys::wait::waitpid(pid, None).expect("wait the script");
    assert_eq!(st, nix::sys::wait::WaitStatus::Exited(pid, 0));
    for c in &mut inside {
        assert_eq!(wait_child(c).and_then(|s| s.signal()), Some(9), "a member was killed");
    }
    for t in &made {
        assert!(!t.exists(), "{} is removed", t.display());
    }
}

/// The trees and the registrations go to a process of the engine's only while the engine is
/// small (a fork holds the engine's pages copy-on-write; one that shares them dies with an
/// engine the out-of-memory killer picks, the likelier the larger the engine): above
/// `FORK_MAX_RSS` resident at the first start, to the script. The decision is made once per
/// reaper, with a tree or without (the registrations of the mechanisms without a cgroup).
#[cfg(target_os = "linux")]
#[test]
fn an_engine_above_the_bound_leaves_its_trees_to_the_script() {
    let with_tree = || Reaper {
        tree: Some(std::path::PathBuf::from("/nonexistent/tree")),
        ..Reaper::default()
    };
    let without_tree = Reaper::default();
    let small = with_tree();
    if super::resident_bytes() > super::FORK_MAX_RSS {
        eprintln!("this test process is already above the bound");
        return;
    }
    assert!(small.forks_trees(), "a small engine forks");
    assert!(without_tree.forks_trees(), "a small engine forks for its registrations");
    let big = vec![1u8; usize::try_from(super::FORK_MAX_RSS).expect("fits") + (16 << 20)];
    assert!(super::resident_bytes() > super::FORK_MAX_RSS, "{} resident", super::resident_bytes());
    assert!(!with_tree().forks_trees(), "a large engine keeps the script");
    assert!(small.forks_trees(), "decided once");
    drop(big);
}

/// A member that is slow to die does not make the script give up before its `rmdir`: a
/// process that held 256 MiB stays listed in its cgroup after its `SIGKILL` while the kernel
/// frees its pages (tens of milliseconds), longer than the hundred passes the script makes
/// without sleeping. With one such process in a run cgroup of every tree (v2 and v1), the
/// script still kills every member and removes every tree.
#[cfg(target_os = "linux")]
#[test]
fn the_script_waits_for_members_that_are_slow_to_die() {
    use std::io::BufRead;
    let Some((made, mut inside)) = test_trees(782) else { return };
    for t in &made {
        let mut hog = Command::new("python3")
            .args([
                "-c",
                "import sys, time\nb = b'x' * (256 << 20)\nprint('ready', flush=True)\ntime.sleep(60)",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3");
        let mut line = String::new();
        std::io::BufReader::new(hog.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("ready line");
        assert_eq!(line.trim(), "ready", "the hog holds its memory");
        std::fs::write(t.join("run.1/cgroup.procs"), hog.id().to_string()).expect("move");
        inside.push(hog);
    }
    let (pid, pipe) = trees_script(&made, "");
    drop(pipe);
    let st = nix::sys::wait::waitpid(pid, None).expect("wait the script");
    let left: Vec<_> = made.iter().filter(|t| t.exists()).collect();
    assert_eq!(st, nix::sys::wait::WaitStatus::Exited(pid, 0), "trees left: {left:?}");
    for c in &mut inside {
        assert_eq!(wait_child(c).and_then(|s| s.signal()), Some(9), "a member was killed");
    }
    assert!(left.is_empty(), "trees left: {left:?}");
}

/// Trees shared with other engines beside the engine's (the cgroup v2 one first, then one per
/// v1 hierarchy): in each, two runs of the engine whose names start with `ours` (a `sleep` in
/// its own session in the first) and one run of another engine (`333.444.0`, a `sleep` in
/// it). `None` where the machine lacks cgroup v2 or v1 trees.
#[cfg(target_os = "linux")]
#[allow(clippy::type_complexity)]
fn shared_test_trees(
    n: u32,
    ours: &str,
) -> Option<(Vec<std::path::PathBuf>, Vec<Child>, Vec<Child>)> {
    let (made, mut inside) = test_trees(n)?;
    let mut others = Vec::new();
    for t in &made {
        std::fs::create_dir(t.join(format!("{ours}0"))).expect("run cgroup");
        std::fs::create_dir(t.join(format!("{ours}1"))).expect("run cgroup");
        std::fs::create_dir(t.join("333.444.0")).expect("run cgroup");
        others.push(sleeper_in(&t.join("333.444.0")));
    }
    for (t, c) in made.iter().zip(&inside) {
        std::fs::write(t.join(format!("{ours}0/cgroup.procs")), c.id().to_string()).expect("move");
    }
    for t in &made {
        let _ = std::fs::remove_dir(t.join("run.0"));
        let _ = std::fs::remove_dir(t.join("run.1"));
    }
    inside.truncate(made.len());
    Some((made, inside, others))
}

/// In trees shared with the user's other engines, the trees' fork and the script end only the
/// engine's runs (names starting with its prefix): their members are killed and the runs
/// removed (the reaper hands the cgroup v1 ones back to the next engine instead, as `free.<i>`),
/// while another engine's run, its member and the trees stay. Needs cgroup v2 and v1
/// trees the engine may make (see [`test_trees`]).
#[cfg(target_os = "linux")]
#[test]
fn in_shared_trees_the_fork_and_the_script_end_only_the_engine_s_runs() {
    for (n, by_fork, share) in [(783, true, true), (786, true, false), (784, false, false)] {
        let ours = "111.222.";
        let Some((made, mut inside, mut others)) = shared_test_trees(n, ours) else { return };
        let (pid, pipe) = if by_fork {
            let paths = tree_paths(made.first(), &made[1..], Some(ours));
            let (pid, pipe) = crate::sys::fork_tree_reaper(&paths, share).expect("fork");
            (Pid::from_raw(pid), pipe)
        } else {
            trees_script(&made, ours)
        };
        drop(pipe);
        let st = nix::sys::wait::waitpid(pid, None).expect("wait the reaper");
        assert_eq!(st, nix::sys::wait::WaitStatus::Exited(pid, 0), "by fork: {by_fork} {share}");
        for c in &mut inside {
            assert_eq!(wait_child(c).and_then(|s| s.signal()), Some(9), "our member was killed");
        }
        for c in &mut others {
            assert_eq!(c.try_wait().expect("try_wait"), None, "another engine's member lives");
        }
        for (i, t) in made.iter().enumerate() {
            assert!(t.is_dir(), "{} stays", t.display());
            assert!(!t.join(format!("{ours}0")).exists() && !t.join(format!("{ours}1")).exists());
            assert!(t.join("333.444.0").is_dir(), "another engine's run stays");
            // The reaper (not the script) hands the emptied v1 runs back to the next engine
            // (the first tree is the cgroup v2 one, whose runs cannot be renamed).
            let handed = by_fork && i > 0;
            assert_eq!(t.join("free.0").is_dir(), handed, "{} by fork: {by_fork}", t.display());
            assert_eq!(t.join("free.1").is_dir(), handed, "{} by fork: {by_fork}", t.display());
            assert!(!t.join("free.2").exists());
        }
        for c in &mut others {
            let _ = c.kill();
            let _ = c.wait();
        }
        for t in &made {
            for _ in 0..1000 {
                if std::fs::remove_dir(t.join("333.444.0")).is_ok() {
                    break;
                }
                std::thread::yield_now();
            }
            let _ = std::fs::remove_dir(t.join("free.0"));
            let _ = std::fs::remove_dir(t.join("free.1"));
            let _ = std::fs::remove_dir(t);
        }
    }
}

/// The trees' reaper hands at most [`crate::limits::FREE_RUNS`] empty v1 runs back per tree,
/// in the free names not taken, and removes the others; a run that lists a process when it is
/// looked at is not handed back. Needs cgroup v2 and v1 trees the engine may make.
#[cfg(target_os = "linux")]
#[test]
fn the_reaper_hands_back_at_most_four_empty_v1_runs_per_tree_and_removes_the_rest() {
    let ours = "111.222.";
    let Some((made, mut inside)) = test_trees(788) else { return };
    for c in &mut inside {
        let _ = c.kill();
        let _ = c.wait();
    }
    let v1 = &made[1..];
    for t in v1 {
        // One name taken already (another engine's hand-back), six runs of this engine's.
        std::fs::create_dir(t.join("free.1")).expect("a free run");
        for n in 0..6 {
            std::fs::create_dir(t.join(format!("{ours}{n}"))).expect("run cgroup");
        }
    }
    let paths = tree_paths(None, v1, Some(ours));
    let (pid, pipe) = crate::sys::fork_tree_reaper(&paths, true).expect("start");
    drop(pipe);
    let st = nix::sys::wait::waitpid(Pid::from_raw(pid), None).expect("wait the reaper");
    assert_eq!(st, nix::sys::wait::WaitStatus::Exited(Pid::from_raw(pid), 0));
    for t in v1 {
        let mut left: Vec<String> = std::fs::read_dir(t)
            .expect("the tree")
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["free.0", "free.1", "free.2", "free.3", "run.0", "run.1"], "{t:?}");
        for d in left {
            let _ = std::fs::remove_dir(t.join(d));
        }
    }
    for t in &made {
        for d in ["run.0", "run.1"] {
            let _ = std::fs::remove_dir(t.join(d));
        }
        let _ = std::fs::remove_dir(t);
    }
}

/// The tag sweep's ids-ahead list, written out as one assignment of arithmetic expansions,
/// is the list the loop builds (the same ids, in the same order) where no id wraps at
/// `pid_max`; the script keeps the loop for the pass that would wrap.
#[test]
fn the_written_out_ids_ahead_are_the_loop_s_list() {
    let text = script();
    assert!(!text.contains("@AHEAD@"));
    let start = text.find("ahead=\" /proc/$((l + 1))/environ").expect("the written-out list");
    let len = text[start + 8..].find('"').expect("its closing quote");
    let assignment = &text[start..start + 8 + len + 1];
    assert_eq!(assignment.matches("/proc/$((l + ").count(), AHEAD as usize);
    // The wrap test and the loop read as many ids.
    assert!(text.contains(&format!("$((last + {AHEAD}))")));
    assert_eq!(AHEAD, 32 * 32);
    assert!(text.contains("while [ \"$c\" -lt 32 ]") && text.contains("while [ \"$n\" -lt 32 ]"));
    let run = |script: String| -> String {
        let out = Command::new(SHELL).args(["-c", &script]).output().expect("sh");
        assert!(out.status.success());
        String::from_utf8(out.stdout).expect("utf-8")
    };
    for last in [300, 123_456, 4_194_304 - 1025] {
        let written = run(format!("l={last}; {assignment}; printf '%s' \"$ahead\""));
        let looped = run(format!(
            "pid_max=4194304; i={last}; ahead=; n=0; while [ \"$n\" -lt {AHEAD} ]; do \
             n=$((n + 1)); i=$((i + 1)); [ \"$i\" -lt \"$pid_max\" ] || i=300; \
             ahead=\"$ahead /proc/$i/environ\"; done; printf '%s' \"$ahead\""
        ));
        assert_eq!(written, looped, "after {last}");
        assert!(written.ends_with(&format!(" /proc/{}/environ", last + AHEAD)));
    }
}

/// Starts the trees' process (sharing the engine's memory or forked, as `share` says) with no
/// tree and the registration file holding `text`, the engine's group being `own_group` and its
/// tags starting with `tag_prefix`; closes its liveness pipe at once (the engine gone) and
/// waits for it to end: how it ended.
#[cfg(target_os = "linux")]
fn end_registrations(text: &[u8], own_group: Pid, token: &str, share: bool) -> Option<ExitStatus> {
    use std::os::fd::AsRawFd;
    let file = registration_file().expect("registration file");
    file.write_all_at(text, 0).expect("write");
    let paths = crate::sys::TreePaths {
        registrations: Some(crate::sys::Registrations {
            file: file.as_raw_fd(),
            own_group: own_group.as_raw(),
            tag_prefix: super::tag_prefix(token),
        }),
        ..crate::sys::TreePaths::default()
    };
    let (pid, pipe) = crate::sys::fork_tree_reaper(&paths, share).expect("start");
    // Its own copy of the registration file, and its pipe: nothing else of the engine's.
    let fds: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("fds")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert_eq!(fds.len(), 2, "{fds:?} (sharing: {share})");
    drop(file);
    drop(pipe);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(nix::sys::wait::waitpid(Pid::from_raw(pid), None));
    });
    match rx.recv_timeout(BOUND) {
        Ok(Ok(nix::sys::wait::WaitStatus::Exited(_, code))) => {
            Some(ExitStatus::from_raw(code << 8))
        }
        _ => None,
    }
}

/// The trees' process ends the registered groups as the script does, with system calls only:
/// well-formed slots are killed, blank slots, malformed lines and the engine's own group are
/// not (the lines of the script's own test).
#[cfg(target_os = "linux")]
#[test]
fn the_trees_process_kills_well_formed_registered_groups_and_ignores_the_rest() {
    for share in [true, false] {
        let groups = Registered::new();
        // The header is a slot of its own.
        let text = format!("{}{}", String::from_utf8_lossy(BLANK), groups.lines());
        let st = end_registrations(text.as_bytes(), groups.decoy_self.pgid(), "", share)
            .expect("it ends at end-of-file");
        assert!(st.success(), "{st:?}");
        groups.check(&format!("the engine's process, sharing its memory: {share}"));
    }
}

/// A registered group's first process is stopped and killed with its whole tree: a child that
/// left the group for a session of its own (and carries no tag) is found through the first
/// process's children and killed too.
#[cfg(target_os = "linux")]
#[test]
fn the_trees_process_kills_a_registered_tree_with_what_left_the_group() {
    for share in [true, false] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pidfile = dir.path().join("pid");
        let leader = Group(
            Command::new("/bin/sh")
                .arg("-c")
                .arg("setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! > \"$1\"; wait")
                .arg("sh")
                .arg(&pidfile)
                .env_remove(crate::tag::VAR)
                .stdin(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("spawn"),
        );
        let deadline = std::time::Instant::now() + BOUND;
        let left: i32 = loop {
            if let Some(p) =
                std::fs::read_to_string(&pidfile).ok().and_then(|t| t.trim().parse().ok())
            {
                break p;
            }
            assert!(std::time::Instant::now() < deadline, "the child never started");
            std::thread::yield_now();
        };
        // It left the group (setsid), so only the walk of the leader's children finds it.
        let left_group = || nix::unistd::getpgid(Some(Pid::from_raw(left)));
        let deadline = std::time::Instant::now() + BOUND;
        while left_group() == Ok(leader.pgid()) {
            assert!(std::time::Instant::now() < deadline, "the child never left the group");
            std::thread::yield_now();
        }
        assert!(left_group().is_ok(), "the child lives in a group of its own");
        let mut leader = leader;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(BLANK),
            String::from_utf8_lossy(&slot_line(leader.pgid().as_raw()))
        );
        let st = end_registrations(text.as_bytes(), nix::unistd::getpgrp(), "", share)
            .expect("it ends at end-of-file");
        assert!(st.success(), "{st:?}");
        assert_eq!(leader.wait_end().and_then(|s| s.signal()), Some(9), "sharing: {share}");
        // Its parent (the leader) is gone: the orphan's end is seen as its id going away.
        let deadline = std::time::Instant::now() + BOUND;
        while nix::sys::signal::kill(Pid::from_raw(left), None).is_ok()
            && !std::fs::read_to_string(format!("/proc/{left}/stat"))
                .is_ok_and(|s| s.rsplit_once(") ").is_some_and(|(_, r)| r.starts_with('Z')))
        {
            assert!(std::time::Instant::now() < deadline, "what left the group lives on");
            std::thread::yield_now();
        }
    }
}

/// With the header saying tags were handed out, the trees' process kills every process that
/// carries one of the engine's tags, whatever its group, and spares other engines' tags,
/// partial and longer ones and untagged processes (the cases of the script's own test).
#[cfg(target_os = "linux")]
#[test]
fn the_trees_process_kills_the_engine_s_tagged_processes_outside_any_registered_group() {
    for share in [true, false] {
        let token = format!("{}-{}", std::process::id(), if share { 424_243 } else { 424_244 });
        let set = TaggedSet::new(&token);
        let st = end_registrations(TAGGED_HEADER.as_bytes(), nix::unistd::getpgrp(), &token, share)
            .expect("it ends at end-of-file");
        assert!(st.success(), "{st:?}");
        set.check(&format!("the engine's process, sharing its memory: {share}"));
    }
}

/// A malformed token gives no tag prefix, so the trees' process sweeps nothing.
#[cfg(target_os = "linux")]
#[test]
fn with_a_malformed_token_the_trees_process_sweeps_nothing() {
    for token in ["", "-", "1-", "-1", "1.*", "1 2"] {
        assert!(super::tag_prefix(token).is_empty(), "{token:?}");
        let spared = tagged(Some(&format!("{token}-1")));
        let st = end_registrations(TAGGED_HEADER.as_bytes(), nix::unistd::getpgrp(), token, true)
            .expect("it ends");
        assert!(st.success(), "{token:?}: {st:?}");
        assert!(killpg(spared.pgid(), None).is_ok(), "{token:?}");
    }
    assert_eq!(super::tag_prefix("12-34"), b"AGENT_HOOKS_RUN=12-34-");
}

/// A trees' process started for the trees only, at the first run, before any registration (a
/// cgroup was planned), is replaced by one that takes the registrations too when a run without
/// a cgroup registers its group (as where `auto` finds the cgroup read-only, in a container,
/// and falls back to `subreaper`): no shell starts, the old process is gone, and the registered
/// group dies with the engine side.
#[cfg(target_os = "linux")]
#[test]
fn a_trees_process_started_for_the_trees_only_is_replaced_to_take_the_registrations() {
    let reaper = Reaper {
        tree: Some(std::path::PathBuf::from("/nonexistent/agent-hooks-test-tree")),
        ..Reaper::default()
    };
    reaper.trees_by_fork.set(true).expect("decided here");
    reaper.start_early(false);
    let first = {
        let st = reaper.state.lock().expect("lock");
        let (pid, t) = st.trees.as_ref().expect("a trees' process runs");
        assert!(!t.registrations, "started for the trees only");
        *pid
    };
    let mut g = Group::new();
    reaper.register(g.pgid());
    let second = reaper.pid().expect("a reaper runs");
    assert_ne!(first, second, "replaced");
    {
        let st = reaper.state.lock().expect("lock");
        assert!(st.running.is_none(), "no shell");
        assert!(st.trees.as_ref().is_some_and(|(p, t)| *p == second && t.registrations));
    }
    assert_eq!(
        nix::sys::wait::waitpid(first, Some(nix::sys::wait::WaitPidFlag::WNOHANG)),
        Err(nix::errno::Errno::ECHILD),
        "the first one was killed and reaped"
    );
    assert_eq!(
        std::fs::read_link(format!("/proc/{second}/exe")).expect("exe"),
        std::env::current_exe().expect("test binary"),
        "no program started"
    );
    drop(reaper);
    assert_eq!(g.wait_end().and_then(|s| s.signal()), Some(9));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(nix::sys::wait::waitpid(second, None));
    });
    assert!(rx.recv_timeout(BOUND).is_ok(), "the reaper exits");
}

/// A stat line of the kernel's shape (52 fields) for a process named `name` in `state`, whose
/// parent is `ppid`, its environment between `env_start` and `env_end` (the 50th and 51st
/// fields); every other field is its own number.
#[cfg(target_os = "linux")]
fn stat_line(name: &str, state: &str, ppid: u64, env_start: u64, env_end: u64) -> String {
    let rest: String = (4..=52)
        .map(|i| match i {
            4 => format!(" {ppid}"),
            50 => format!(" {env_start}"),
            51 => format!(" {env_end}"),
            _ => format!(" {i}"),
        })
        .collect();
    format!("4242 ({name}) {state}{rest}\n")
}

/// Whether the script's `grep` lists the stat file `file` as that of a process caught in
/// `execve` ([`super::MID_EXEC`], with the options the script reads it with).
#[cfg(target_os = "linux")]
fn listed_mid_exec(file: &std::path::Path) -> bool {
    Command::new("grep")
        .args(["-s", "-lzx", "-e", super::MID_EXEC])
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .expect("grep")
        .stdout
        .starts_with(file.as_os_str().as_encoded_bytes())
}

/// The rule [`super::MID_EXEC`] spells, read plainly from a line with no `)` in its command:
/// the fields after `) `, fifty of them, the state none of `Z`, `X`, `x`, the parent neither
/// 0 nor 2 (written without a leading zero), the fields up to the 49th numbers, the 50th and
/// 51st both 0, the 52nd a number, one newline after it.
#[cfg(target_os = "linux")]
fn mid_exec_reference(line: &str) -> bool {
    let Some(body) = line.strip_suffix('\n') else { return false };
    let Some((head, rest)) = body.split_once(") ") else { return false };
    let number = |f: &str| {
        let digits = f.strip_prefix('-').unwrap_or(f);
        (f.starts_with('-') || !digits.is_empty()) && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let fields: Vec<&str> = rest.split(' ').collect();
    let pid_ok = head
        .split_once(" (")
        .is_some_and(|(pid, _)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
    pid_ok
        && fields.len() == 50
        && ["R", "S", "D", "T", "t", "W", "P", "I", "K"].contains(&fields[0])
        && !fields[1].starts_with('0')
        && fields[1] != "2"
        && !fields[1].is_empty()
        && fields[1].bytes().all(|b| b.is_ascii_digit())
        && fields[2..47].iter().all(|f| number(f))
        && fields[47] == "0"
        && fields[48] == "0"
        && number(fields[49])
}

/// The script's pattern lists the stat line of a process caught in `execve` (alive, not a
/// kernel thread, both bounds of its environment 0), whatever its command holds, and nothing
/// else: not a process whose environment is laid out, nor one started with none (`env -i`:
/// the bounds equal, not 0), a zombie, a kernel thread, or a line of another shape; nor the
/// processes here.
#[cfg(target_os = "linux")]
#[test]
fn the_script_lists_the_stat_line_of_a_process_caught_in_exec_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("stat");
    let cases = [
        (stat_line("sh", "R", 77, 0, 0), true),
        (stat_line("sh", "D", 1, 0, 0), true),
        (stat_line("a) R 1 (b", "S", 310, 0, 0), true),
        (stat_line("sleep", "S", 77, 140_731_973_877_741, 140_731_973_877_754), false),
        (stat_line("sleep", "S", 77, 140_731_973_877_741, 140_731_973_877_741), false),
        (stat_line("sleep", "Z", 77, 0, 0), false),
        (stat_line("sleep", "X", 77, 0, 0), false),
        (stat_line("kworker/0:1", "I", 2, 0, 0), false),
        (stat_line("kthreadd", "S", 0, 0, 0), false),
        (String::new(), false),
        ("4242 (sh) R 77 1 2 3 0 0 5\n".to_owned(), false),
        (stat_line("sh", "R", 77, 0, 0).trim_end().to_owned(), false),
    ];
    for (line, want) in &cases {
        std::fs::write(&file, line).expect("write");
        assert_eq!(listed_mid_exec(&file), *want, "{line:?}");
    }
    let me = std::path::PathBuf::from(format!("/proc/{}/stat", std::process::id()));
    assert!(!listed_mid_exec(&me));
    assert!(!listed_mid_exec(std::path::Path::new("/proc/2/stat")));
    let mut child = Command::new("sleep")
        .arg("60")
        .env_clear()
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn sleep");
    let deadline = std::time::Instant::now() + BOUND;
    while std::fs::read_to_string(format!("/proc/{}/cmdline", child.id()))
        .is_ok_and(|c| !c.starts_with("sleep"))
        && std::time::Instant::now() < deadline
    {
        std::thread::yield_now();
    }
    assert!(!listed_mid_exec(std::path::Path::new(&format!("/proc/{}/stat", child.id()))));
    child.kill().expect("kill");
    child.wait().expect("wait");
}

/// The stat-line pattern against its rule, read plainly.
#[cfg(target_os = "linux")]
mod mid_exec_rule {
    use proptest::prelude::*;

    use super::{listed_mid_exec, mid_exec_reference, stat_line};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// On lines of the kernel's shape (any name without `)`, state, parent and bounds),
        /// the script's pattern lists exactly the lines its rule, read plainly, names.
        #[test]
        fn the_script_s_pattern_agrees_with_its_rule_on_stat_lines(
            name in "[a-z (]{0,16}",
            state in "[RSDZXxTtIKWP]",
            ppid in prop_oneof![Just(0u64), Just(2u64), any::<u32>().prop_map(u64::from)],
            start in prop_oneof![Just(0u64), any::<u64>()],
            end in prop_oneof![Just(0u64), any::<u64>()],
        ) {
            let dir = tempfile::tempdir().expect("temp dir");
            let file = dir.path().join("stat");
            let line = stat_line(&name, &state, ppid, start, end);
            std::fs::write(&file, &line).expect("write");
            prop_assert_eq!(listed_mid_exec(&file), mid_exec_reference(&line), "{:?}", line);
        }
    }
}

/// A tagged process that keeps starting its program again reads an empty environment for a
/// moment at each `exec`: the script's sweep must not end on it (as the engine's does not,
/// `tag::tests::a_sweep_kills_a_tagged_process_that_keeps_starting_its_program_again`). Each
/// round waits until the process started its program three times. (Before each process's
/// `stat` was read beside its environment, the script's sweep missed it in 1 round of 20 in a
/// loaded fresh-clone CI run.)
#[cfg(target_os = "linux")]
#[test]
fn the_script_kills_a_tagged_process_that_keeps_starting_its_program_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let again = dir.path().join("again.sh");
    std::fs::write(&again, "echo >> \"$0.count\"\nexec /bin/sh \"$0\"\n").expect("write");
    let count = dir.path().join("again.sh.count");
    for round in 0..20 {
        let _ = std::fs::remove_file(&count);
        let token = format!("{}-{}", std::process::id(), 515_000 + round);
        let mut g = Group(
            Command::new("/bin/sh")
                .arg(&again)
                .env(crate::tag::VAR, format!("{token}-1"))
                .stdin(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("spawn"),
        );
        let deadline = std::time::Instant::now() + BOUND;
        while std::fs::read(&count).map_or(0, |c| c.len()) < 3
            && std::time::Instant::now() < deadline
        {
            std::thread::yield_now();
        }
        let st = sweep_with_token(&token).expect("the reaper ends at end-of-file");
        assert!(st.success(), "round {round}: {st:?}");
        assert_eq!(g.wait_end().and_then(|s| s.signal()), Some(9), "round {round}");
    }
}
