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
    assert!(v1.tree_dirs().iter().all(|d| v1.dirs().contains(d) || !d.exists()));
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
    let name = super::tree_name();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(&format!("/{name}/run."))).collect();
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
    assert!(tree.proof.failed().is_some() && !tree.dir.exists(), "the tree is removed");
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
