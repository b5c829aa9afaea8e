//! Tests of the containment choice and of the cgroup helpers.

use super::{Containment, Mechanism, Probe, read_proc_file, unescape};

fn probe_without_cgroups() -> Probe {
    Probe {
        tree: None,
        cgroup_unavailable: Some("no cgroup here".to_owned()),
        kill_unavailable: Some("no cgroup here".to_owned()),
        subreaper_unavailable: Some("no subreaper here".to_owned()),
    }
}

#[test]
fn auto_takes_the_strongest_available_and_a_forced_mechanism_falls_back_with_its_reason() {
    let p = probe_without_cgroups();
    assert_eq!(p.resolve(Containment::Auto), (Mechanism::ProcessGroup, None));
    let (m, why) = p.resolve(Containment::CgroupKill);
    assert_eq!(m, Mechanism::ProcessGroup);
    assert!(why.is_some_and(|w| w.contains("cgroup-kill is not available (no cgroup here)")));
    let r = p.report(Containment::CgroupFreeze);
    assert_eq!(r.mechanism, Mechanism::ProcessGroup);
    assert_eq!(r.unavailable.len(), 3, "{r:?}");
    assert!(r.cgroup.is_none());
}

#[test]
fn mechanism_names_round_trip() {
    for m in Mechanism::ALL {
        assert_eq!(Containment::parse(m.as_str()).map(p_of), Some(m));
    }
    assert_eq!(Containment::parse("auto"), Some(Containment::Auto));
    assert_eq!(Containment::parse("cgroup"), None);
}

fn p_of(c: Containment) -> Mechanism {
    match c {
        Containment::CgroupKill => Mechanism::CgroupKill,
        Containment::CgroupFreeze => Mechanism::CgroupFreeze,
        Containment::Subreaper => Mechanism::Subreaper,
        Containment::ProcessGroup | Containment::Auto => Mechanism::ProcessGroup,
    }
}

#[test]
fn mountinfo_escapes_are_decoded() {
    assert_eq!(unescape("/sys/fs/cgroup"), "/sys/fs/cgroup");
    assert_eq!(unescape("/mnt/a\\040b"), "/mnt/a b");
    assert_eq!(unescape("/x\\"), "/x\\");
}

/// The probe children this process started so far.
#[cfg(target_os = "linux")]
fn probes() -> usize {
    crate::spawner::PROBES.load(std::sync::atomic::Ordering::Relaxed)
}

/// At the first run of a process the cgroup v2 tree and the cgroup v1 trees of the resources
/// the dispatcher limits are made, and no process checks them: the first hook's own start
/// does (there was one probe child, and before it one per tree: four here, with v1 memory,
/// pids and cpu hierarchies). A resource no rule limits (the CPU by default) gets no tree
/// until a dispatcher limits it, and that tree is not checked by a child either. Needs cgroup
/// v2 and v1 trees the engine may make; where the machine lacks them, this test reports why
/// and checks nothing else.
#[cfg(target_os = "linux")]
#[test]
fn no_child_checks_the_trees_before_the_first_hook_and_an_unlimited_resource_gets_none() {
    if crate::testing::ran_in_own_process(
        "contain::tests::no_child_checks_the_trees_before_the_first_hook_and_an_unlimited_resource_gets_none",
    ) {
        return;
    }
    use crate::limits::{Enforcement, Resource};
    let cfg = crate::DispatchConfig::default();
    assert!(cfg.limits.cpu_max.is_none() && cfg.limits.memory_max.is_some());
    let c = super::Contain::resolve(&cfg);
    let Some(v1) = crate::limits::available().v1.as_ref() else {
        eprintln!("no cgroup v1 hierarchy here");
        return;
    };
    let Some(tree) = c.tree.filter(|_| v1.is_made(Resource::Memory)) else {
        eprintln!("needs a cgroup v2 tree and a v1 memory tree: {:?}", super::report(&cfg));
        return;
    };
    assert_eq!(probes(), 0, "no child checked the trees");
    assert!(tree.dir.is_dir() && !tree.proof.proven());
    assert_eq!(c.plan.of(Resource::Memory), Some(Enforcement::CgroupV1));
    assert!(!v1.is_made(Resource::Cpu), "no cpu tree without a cpu limit");
    assert!(v1.dirs().iter().all(|d| v1.tree_dirs().contains(d)));
    // A dispatcher that limits the CPU gets its tree then, unchecked too.
    let mut cpu = crate::DispatchConfig::default();
    cpu.limits.cpu_max = Some(crate::config::CpuMax { quota_us: 50_000, period_us: 100_000 });
    let c = super::Contain::resolve(&cpu);
    if v1.is_made(Resource::Cpu) {
        assert_eq!(c.plan.of(Resource::Cpu), Some(Enforcement::CgroupV1));
    }
    assert_eq!(probes(), 0, "no child checked the cpu tree");
}

/// The first hook's start is the check: its first process is born in its run cgroup of the
/// v2 tree and joins its v1 cgroups before its `exec` (so it runs in all of them), no probe
/// child is started, and the trees it joined count as proven (a later failed start checks
/// nothing). Needs cgroup v2 and v1 trees (see above).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_first_hook_s_start_proves_the_trees_in_place_of_a_probe_child() {
    if crate::testing::ran_in_own_process(
        "contain::tests::the_first_hook_s_start_proves_the_trees_in_place_of_a_probe_child",
    ) {
        return;
    }
    use crate::limits::Resource;
    let cfg = crate::DispatchConfig::default();
    let inv = crate::testing::sh("cat /proc/self/cgroup");
    let out = crate::runner::run_invocation(&inv, &cfg).await;
    assert!(matches!(out.exit, hooks_schema::ExitInfo::Exited(0)), "{out:?}");
    let c = super::Contain::resolve(&cfg);
    let Some(v1) = crate::limits::available().v1.as_ref() else {
        eprintln!("no cgroup v1 hierarchy here");
        return;
    };
    let Some(tree) = c.tree.filter(|_| v1.is_made(Resource::Memory)) else {
        eprintln!("needs a cgroup v2 tree and a v1 memory tree: {:?}", super::report(&cfg));
        return;
    };
    assert_eq!(probes(), 0, "no probe child");
    assert!(tree.proof.proven(), "the hook proved the tree");
    let text = String::from_utf8_lossy(&out.stdout.bytes);
    let run = format!("/{}/{}", super::shared_name(), super::run_prefix());
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(&run)).collect();
    assert!(lines.iter().any(|l| l.starts_with("0::")), "born in its v2 run cgroup: {text}");
    assert!(
        lines
            .iter()
            .any(|l| l.split(':').nth(1).is_some_and(|c| c.split(',').any(|c| c == "memory"))),
        "joined its v1 memory run cgroup: {text}"
    );
    // Proven: a failed start with these trees checks nothing and changes nothing.
    assert!(c.after_failed_start(&cfg, true, [true; 3]).is_none());
    assert_eq!(probes(), 0, "still no probe child");
}

/// A tree the first hook cannot be started in (here every start in a run cgroup of the v2
/// tree fails, as where the engine may make a cgroup but not use it): the failed start has the
/// tree checked (one probe child, which fails too), the tree is removed, the mechanism falls
/// back with the reason, and the hook, whose process never ran, is started once with the
/// fallback. Later runs and the report use the fallback.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_tree_the_first_hook_cannot_join_is_checked_and_the_hook_runs_once_with_the_fallback() {
    if crate::testing::ran_in_own_process(
        "contain::tests::a_tree_the_first_hook_cannot_join_is_checked_and_the_hook_runs_once_with_the_fallback",
    ) {
        return;
    }
    super::BREAK_JOIN.store(true, std::sync::atomic::Ordering::Relaxed);
    let cfg = crate::DispatchConfig::default();
    let first = super::Contain::resolve(&cfg);
    let Some(tree) = first.tree else {
        eprintln!("no cgroup v2 tree here: {:?}", super::report(&cfg));
        return;
    };
    assert!(first.mechanism.is_cgroup());
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("runs");
    let inv = crate::testing::sh(&format!("echo ran >> '{}'", log.display()));
    let out = crate::runner::run_tracked(&inv, &cfg, None, first, &cfg.limits).await;
    assert!(matches!(out.exit, hooks_schema::ExitInfo::Exited(0)), "{out:?}");
    assert_eq!(std::fs::read_to_string(&log).expect("the hook ran"), "ran\n", "exactly once");
    // The v2 tree's check, and one for each v1 tree the run used (those work: proven).
    let v1_trees = crate::limits::available().v1.as_ref().map_or(0, |v| v.dirs().len());
    assert_eq!(probes(), 1 + v1_trees, "the failed start had each tree it used checked once");
    assert!(tree.proof.failed().is_some(), "the tree failed its check");
    assert!(super::own_runs(&tree.dir, &tree.prefix).is_empty(), "its runs are removed");
    assert!(first.stale(), "a dispatcher resolves again");
    let now = super::Contain::resolve(&cfg);
    assert_eq!(now.mechanism, Mechanism::Subreaper);
    assert!(now.tree.is_none() && !now.stale());
    let r = super::report(&cfg);
    assert_eq!(r.mechanism, Mechanism::Subreaper);
    assert!(r.cgroup.is_none());
    let why = r.unavailable.iter().find(|(m, _)| *m == Mechanism::CgroupKill).map(|(_, w)| w);
    assert!(
        why.is_some_and(|w| w.contains("cannot start a process in a cgroup")),
        "{:?}",
        r.unavailable
    );
}

/// A small file is read whole with one `read` into the caller's buffer; one longer than the
/// buffer is read whole all the same (the rest after it).
#[test]
fn a_small_file_is_read_whole_into_the_buffer_and_a_longer_one_whole_all_the_same() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("f");
    let text: String = (0..40).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&path, &text).expect("write");
    let path = path.to_str().expect("utf-8");
    let mut big = [0u8; 4096];
    let got = read_proc_file(path, &mut big).expect("read");
    assert!(matches!(got, std::borrow::Cow::Borrowed(_)), "in the buffer");
    assert_eq!(got, text);
    let mut small = [0u8; 16];
    assert_eq!(read_proc_file(path, &mut small).expect("read"), text);
    assert!(read_proc_file("/nonexistent/file", &mut big).is_none());
    let mut buf = [0u8; 4096];
    let status = read_proc_file("/proc/self/status", &mut buf).expect("status");
    assert!(status.lines().any(|l| l.starts_with("VmRSS:")), "{status}");
}

/// `/proc/self/mountinfo` and `/proc/self/cgroup` are read once per process: the v2 probe and
/// the v1 hierarchies' discovery get the same text.
#[cfg(target_os = "linux")]
#[test]
fn the_proc_files_of_the_cgroup_set_up_are_read_once_per_process() {
    use super::{SelfFile, self_file};
    for f in [SelfFile::Mountinfo, SelfFile::Cgroup] {
        let (Ok(a), Ok(b)) = (self_file(f), self_file(f)) else {
            eprintln!("{f:?} is unreadable here");
            continue;
        };
        assert!(std::ptr::eq(a, b), "{f:?} read once");
        assert!(!a.is_empty());
    }
}

/// A run cgroup of `tree` named `name` with a `sleep` in it (moved in by its `cgroup.procs`).
#[cfg(target_os = "linux")]
fn run_with_member(tree: &std::path::Path, name: &str) -> std::process::Child {
    let run = tree.join(name);
    std::fs::create_dir(&run).expect("run cgroup");
    let c = std::process::Command::new("sleep")
        .arg("60")
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("sleep");
    std::fs::write(run.join("cgroup.procs"), c.id().to_string()).expect("move into the run");
    c
}

/// A new cgroup beside the engine's, as the parent of test engines' trees (`tag` keeps tests
/// apart); `None` (with the reason on stderr) where the machine has no cgroup v2 tree the
/// engine may make.
#[cfg(target_os = "linux")]
fn engines_parent(tag: u32) -> Option<std::path::PathBuf> {
    let report = super::report(&crate::DispatchConfig::default());
    let Some(engine_tree) = report.cgroup else {
        eprintln!("cgroup containment unavailable here: {:?}", report.unavailable);
        return None;
    };
    let parent = engine_tree
        .parent()
        .expect("parent")
        .join(format!("agent-hooks-test.{}.{tag}", std::process::id()));
    std::fs::create_dir(&parent).expect("parent cgroup");
    Some(parent)
}

/// The user's cgroup tree is made once and shared by the user's engines: a later engine that
/// finds it made makes no folder for it (it was a `mkdir` per engine and hierarchy, and an
/// `rmdir` at its end), and removes the runs of engines that are gone (pid dead, or started
/// at another time), killing their members, while the runs of a live engine and their members
/// stay. Needs a cgroup v2 tree the engine may make; where the machine has none, this test
/// reports why and checks nothing else.
#[cfg(target_os = "linux")]
#[test]
fn a_later_engine_reuses_the_user_s_tree_and_sweeps_only_the_runs_of_engines_that_are_gone() {
    use std::sync::atomic::Ordering::Relaxed;
    // A cgroup of its own as the engines' parent, beside the engine's.
    let Some(parent) = engines_parent(790) else { return };
    let before = super::TREE_MKDIRS.load(Relaxed);
    let first = super::Tree::create_in(parent.clone(), false).expect("the tree");
    assert_eq!(super::TREE_MKDIRS.load(Relaxed) - before, 1, "the first engine makes it");
    assert_eq!(first.dir, parent.join(super::shared_name()));
    // A live engine's run (this `sleep`'s own pid and start time), and a gone engine's.
    let mut live_engine = std::process::Command::new("sleep").arg("60").spawn().expect("sleep");
    let live_start = super::start_time_of(&live_engine.id().to_string()).expect("start time");
    let live_name = format!("{}.{live_start}.0", live_engine.id());
    let mut live_member = run_with_member(&first.dir, &live_name);
    let mut gone = std::process::Command::new("true").spawn().expect("true");
    gone.wait().expect("reap");
    let gone_name = format!("{}.1.3", gone.id());
    let mut gone_member = run_with_member(&first.dir, &gone_name);
    // Another engine finds the tree made.
    let second = super::Tree::create_in(parent.clone(), false).expect("the tree found made");
    assert_eq!(super::TREE_MKDIRS.load(Relaxed) - before, 1, "no folder made for it again");
    assert_eq!(second.dir, first.dir);
    // The sweep waits for the first hook's start, or for this.
    super::sweep_pending();
    // Killed by then: bounded, in case it was not.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(st) = gone_member.try_wait().expect("try_wait") {
            break Some(st);
        }
        if std::time::Instant::now() > deadline {
            let _ = gone_member.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let signal = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s));
    assert_eq!(signal, Some(9), "the gone engine's member was killed");
    // Removed then, or (its member slow to die) by the next engine's sweep.
    if first.dir.join(&gone_name).exists() {
        super::sweep_dead_runs(&first.dir, Some(first.has_kill));
    }
    assert!(!first.dir.join(&gone_name).exists(), "the gone engine's run is removed");
    assert_eq!(live_member.try_wait().expect("try_wait"), None, "a live engine's member lives");
    assert!(first.dir.join(&live_name).is_dir(), "and its run stays");
    for c in [&mut live_member, &mut live_engine] {
        let _ = c.kill();
        let _ = c.wait();
    }
    let _ = std::fs::remove_dir(first.dir.join(&live_name));
    let _ = std::fs::remove_dir(&first.dir);
    let _ = std::fs::remove_dir(&parent);
}

/// A shared tree found made but owned by another user is not used (its owner could change our
/// runs' limits or end them): the engine falls back with the reason. Needs a cgroup v2 tree
/// the engine may make and a user allowed to give a folder away (root); elsewhere this test
/// reports why and checks nothing else.
#[cfg(target_os = "linux")]
#[test]
fn a_shared_tree_of_another_owner_is_refused_with_the_reason() {
    let Some(parent) = engines_parent(791) else { return };
    let shared = parent.join(super::shared_name());
    std::fs::create_dir(&shared).expect("shared tree");
    let me = rustix::process::geteuid().as_raw();
    if std::os::unix::fs::chown(&shared, Some(me + 1), None).is_err() {
        eprintln!("cannot give a folder to another user here");
        let _ = std::fs::remove_dir(&shared);
        let _ = std::fs::remove_dir(&parent);
        return;
    }
    let err = super::Tree::create_in(parent.clone(), false).expect_err("refused");
    let text = err.to_string();
    assert!(text.contains(&format!("owned by uid {}", me + 1)), "{text}");
    assert!(super::own_runs(&shared, &super::run_prefix()).is_empty(), "no run made in it");
    let _ = std::fs::remove_dir(&shared);
    let _ = std::fs::remove_dir(&parent);
}

/// A `/proc` file of the cgroup set-up is read whole, however long: one longer than the first
/// buffer (8 KiB) is read on past it.
#[cfg(target_os = "linux")]
#[test]
fn a_proc_file_is_read_whole_past_the_first_buffer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("long");
    let text: String = (0..3000).map(|i| format!("line {i}\n")).collect();
    assert!(text.len() > 16 << 10);
    std::fs::write(&path, &text).expect("write");
    assert_eq!(super::read_whole(path.to_str().expect("utf-8")).expect("read"), text);
    let mounts = super::read_whole("/proc/self/mountinfo").expect("mountinfo");
    assert_eq!(mounts, std::fs::read_to_string("/proc/self/mountinfo").expect("mountinfo"));
}

/// A reader that hands out at most `step` bytes per read and counts what it handed out.
#[cfg(target_os = "linux")]
struct Trickle<'a> {
    text: &'a [u8],
    step: usize,
    given: usize,
}

#[cfg(target_os = "linux")]
impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.text.len() - self.given);
        buf[..n].copy_from_slice(&self.text[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

#[cfg(target_os = "linux")]
const HYBRID_OWN: &str = "9:name=systemd:/\n8:pids:/\n4:memory:/a b/c\n1:cpu,cpuacct:/\n0::/user\n";

#[cfg(target_os = "linux")]
fn mount_line(id: usize, root: &str, point: &str, fstype: &str, options: &str) -> String {
    format!("{id} 31 0:{id} {root} {point} rw,relatime - {fstype} {fstype} {options}\n")
}

/// The engine reads `mountinfo` only as far as the last hierarchy it is in: on a machine with
/// ten thousand more mounts after them (container layers, snaps), it reads one chunk, and
/// finds in it what it finds in the whole file.
#[cfg(target_os = "linux")]
#[test]
fn mountinfo_is_read_only_as_far_as_the_hierarchies_the_engine_is_in() {
    use super::{Wanted, read_mounts, v1_mount, v2_mount};
    let mut text = mount_line(20, "/", "/sys/fs/cgroup", "tmpfs", "rw,mode=755");
    text += &mount_line(21, "/", "/sys/fs/cgroup/cpu,cpuacct", "cgroup", "rw,cpu,cpuacct");
    text += &mount_line(22, "/a\\040b", "/sys/fs/cgroup/memory", "cgroup", "rw,memory");
    text += &mount_line(23, "/", "/sys/fs/cgroup/pids", "cgroup", "rw,pids");
    text += &mount_line(24, "/", "/sys/fs/cgroup/unified", "cgroup2", "rw");
    let head = text.len();
    for i in 0..10_000 {
        text += &mount_line(100 + i, "/", &format!("/var/lib/layers/{i}"), "overlay", "rw");
    }
    // A second cgroup2 mount after the first: the first is the one looked up.
    text += &mount_line(99_999, "/", "/mnt/other", "cgroup2", "rw");
    let mut r = Trickle { text: text.as_bytes(), step: usize::MAX, given: 0 };
    let read = read_mounts(&mut r, Wanted::of(Some(HYBRID_OWN))).expect("read");
    assert_eq!(read, text[..head], "whole lines up to the last wanted mount");
    assert!(r.given <= 4096, "one chunk read of {} bytes, not {}", text.len(), r.given);
    assert_eq!(v2_mount(&read), v2_mount(&text));
    assert_eq!(v2_mount(&read).map(|m| m.point), Some("/sys/fs/cgroup/unified"));
    for c in ["memory", "pids", "cpu"] {
        assert_eq!(v1_mount(&read, c), v1_mount(&text, c), "{c}");
        assert!(v1_mount(&read, c).is_some(), "{c}");
    }
    // A pure cgroup v2 machine: the cgroup2 line is enough.
    let mut r = Trickle { text: text.as_bytes(), step: 7, given: 0 };
    let read = read_mounts(&mut r, Wanted::of(Some("0::/user.slice\n"))).expect("read");
    assert!(read.ends_with("cgroup2 cgroup2 rw\n") && read.len() == head, "{read}");
    assert!(r.given < head + 7, "reads of 7 bytes stop at the line: {}", r.given);
}

/// A hierarchy the engine is in but whose mount is missing from the file makes the engine read
/// to its end (as before), and an unreadable `/proc/self/cgroup` asks for everything.
#[cfg(target_os = "linux")]
#[test]
fn a_missing_mount_or_an_unknown_membership_reads_mountinfo_to_its_end() {
    use super::{Wanted, read_mounts, v1_mount};
    let mut text = mount_line(24, "/", "/sys/fs/cgroup", "cgroup2", "rw");
    for i in 0..500 {
        text += &mount_line(100 + i, "/", &format!("/m/{i}"), "tmpfs", "rw");
    }
    // No newline at the end: the last line still counts.
    text += "600 31 0:600 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids";
    for wanted in [Wanted::of(Some("8:pids:/\n0::/\n")), Wanted::of(None)] {
        let mut r = Trickle { text: text.as_bytes(), step: 1000, given: 0 };
        let read = read_mounts(&mut r, wanted).expect("read");
        assert_eq!(read, text, "{wanted:?}");
        assert_eq!(v1_mount(&read, "pids").map(|m| m.point), Some("/sys/fs/cgroup/pids"));
    }
}

/// On this machine, what the engine kept of `/proc/self/mountinfo` gives the same mount for
/// every hierarchy `/proc/self/cgroup` names as the whole file does.
#[cfg(target_os = "linux")]
#[test]
fn the_mounts_the_engine_keeps_here_are_those_of_the_whole_file() {
    use super::{SelfFile, self_file, v1_membership, v1_mount, v2_mount};
    let (Ok(kept), Ok(own), Ok(whole)) = (
        self_file(SelfFile::Mountinfo),
        self_file(SelfFile::Cgroup),
        std::fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        eprintln!("/proc is unreadable here");
        return;
    };
    assert!(whole.starts_with(kept), "a prefix of the file");
    if own.lines().any(|l| l.starts_with("0::")) {
        assert_eq!(v2_mount(kept), v2_mount(&whole));
    }
    for c in ["memory", "pids", "cpu"] {
        if v1_membership(own, c).is_some() {
            assert_eq!(v1_mount(kept, c), v1_mount(&whole, c), "{c}");
        }
    }
}

#[cfg(target_os = "linux")]
proptest::proptest! {
    /// Whatever the lines, their order and the size of each read, the kept text is a prefix of
    /// the file made of whole lines (or all of it), and every mount wanted is found in it as in
    /// the whole file.
    #[test]
    fn the_kept_mounts_find_what_the_whole_file_finds(
        kinds in proptest::collection::vec(0usize..8, 0..60),
        own_bits in 0u8..16,
        step in 1usize..300,
    ) {
        use super::{Wanted, read_mounts, v1_mount, v2_mount};
        const KINDS: [(&str, &str); 8] = [
            ("cgroup2", "rw"),
            ("cgroup", "rw,memory"),
            ("cgroup", "rw,pids"),
            ("cgroup", "rw,cpu,cpuacct"),
            ("cgroup", "rw,cpuset"),
            ("cgroup", "rw,name=systemd"),
            ("tmpfs", "rw,memory"),
            ("overlay", "rw"),
        ];
        let mut text = String::new();
        for (i, k) in kinds.iter().enumerate() {
            let (fstype, options) = KINDS[*k];
            text += &mount_line(i, if i % 3 == 0 { "/x" } else { "/" }, &format!("/m/{i}"), fstype, options);
        }
        let mut own = String::new();
        for (bit, line) in ["0::/u", "4:memory:/u", "8:pids:/", "1:cpu,cpuacct:/"].iter().enumerate() {
            if own_bits & (1 << bit) != 0 {
                own += line;
                own.push('\n');
            }
        }
        let mut r = Trickle { text: text.as_bytes(), step, given: 0 };
        let read = read_mounts(&mut r, Wanted::of(Some(&own))).expect("read");
        proptest::prop_assert!(text.starts_with(&read));
        proptest::prop_assert!(read.is_empty() || read.ends_with('\n') || read == text);
        if own_bits & 1 != 0 {
            proptest::prop_assert_eq!(v2_mount(&read), v2_mount(&text));
        }
        for (bit, c) in [(2, "memory"), (4, "pids"), (8, "cpu")] {
            if own_bits & bit != 0 {
                proptest::prop_assert_eq!(v1_mount(&read, c), v1_mount(&text, c), "{}", c);
            }
        }
    }
}

/// A cgroup's folder under a mount: the mount's root (a sub-tree's, without a cgroup
/// namespace) is stripped from the path `/proc/self/cgroup` gives, the mount point unescaped.
#[cfg(target_os = "linux")]
#[test]
fn a_cgroup_s_folder_is_its_path_under_the_mount_point_less_the_mount_s_root() {
    use super::Mount;
    let line = "35 31 0:32 /docker/ab /sys/fs/cgroup/mem\\040ory rw - cgroup cgroup rw,memory";
    let m = Mount::of(line).expect("a mount line");
    assert_eq!(m.dir_of("/docker/ab/x"), std::path::Path::new("/sys/fs/cgroup/mem ory/x"));
    assert_eq!(m.dir_of("/docker/ab"), std::path::Path::new("/sys/fs/cgroup/mem ory"));
    // A path outside the mount's root is taken as it is, from the mount point.
    assert_eq!(m.dir_of("/other"), std::path::Path::new("/sys/fs/cgroup/mem ory/other"));
    let root = Mount::of("41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw").expect("line");
    assert_eq!(root.dir_of("/user.slice"), std::path::Path::new("/sys/fs/cgroup/user.slice"));
    assert_eq!(root.dir_of("/"), std::path::Path::new("/sys/fs/cgroup"));
}
