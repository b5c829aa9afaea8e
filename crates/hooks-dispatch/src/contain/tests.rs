//! Tests of the containment choice and of the cgroup helpers.

use super::{Containment, Mechanism, Probe, unescape};

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

/// At the first run of a process, one child checks the cgroup v2 tree and the cgroup v1 trees
/// of the resources the dispatcher limits (it was one child per tree: four here, with v1
/// memory, pids and cpu hierarchies), and a resource no rule limits (the CPU by default) gets
/// no tree until a dispatcher limits it. Needs cgroup v2 and v1 trees the engine may make;
/// where the machine lacks them, this test reports why and checks nothing else.
#[cfg(target_os = "linux")]
#[test]
fn one_child_checks_every_tree_and_an_unlimited_resource_gets_none() {
    use crate::limits::{Enforcement, Resource};
    let cfg = crate::DispatchConfig::default();
    assert!(cfg.limits.cpu_max.is_none() && cfg.limits.memory_max.is_some());
    let c = super::Contain::resolve(&cfg);
    let Some(v1) = crate::limits::available().v1.as_ref() else {
        eprintln!("no cgroup v1 hierarchy here");
        return;
    };
    if c.tree.is_none() || !v1.is_made(Resource::Memory) {
        eprintln!("needs a cgroup v2 tree and a v1 memory tree: {:?}", super::report(&cfg));
        return;
    }
    assert_eq!(probes(), 1, "one child checked every tree");
    assert_eq!(c.plan.of(Resource::Memory), Some(Enforcement::CgroupV1));
    assert!(!v1.is_made(Resource::Cpu), "no cpu tree without a cpu limit");
    assert!(v1.tree_dirs().iter().all(|d| v1.dirs().contains(d) || !d.exists()));
    // A dispatcher that limits the CPU gets its tree then, checked on its own.
    let mut cpu = crate::DispatchConfig::default();
    cpu.limits.cpu_max = Some(crate::config::CpuMax { quota_us: 50_000, period_us: 100_000 });
    let c = super::Contain::resolve(&cpu);
    if v1.is_made(Resource::Cpu) {
        assert_eq!(c.plan.of(Resource::Cpu), Some(Enforcement::CgroupV1));
        assert_eq!(probes(), 2, "the cpu tree's own check");
    }
}

/// When the joint check fails (here a v1 `tasks` descriptor the child cannot write), the
/// cgroup v2 tree is checked again alone and each v1 tree on its own, so a tree that works is
/// still used: the result is what one probe per tree would have found.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_joint_check_falls_back_to_checking_each_tree_alone() {
    use std::os::fd::AsFd;

    use crate::limits::Resource;
    let Some(v1) = crate::limits::available().v1.as_ref() else {
        eprintln!("no cgroup v1 hierarchy here");
        return;
    };
    let made = v1.prepare([true, true, false]);
    let unwritable = std::fs::File::open("/dev/null").expect("/dev/null");
    let mut joined = true;
    let tree = super::Tree::create(None, &[unwritable.as_fd()], &mut joined);
    let Ok(tree) = tree else {
        eprintln!("no cgroup v2 tree here: {tree:?}");
        v1.checked(made, false);
        return;
    };
    assert!(!joined, "the joint check failed");
    assert_eq!(probes(), 2, "the joint check, then the v2 tree alone");
    let n = made.len();
    v1.checked(made, joined);
    assert_eq!(probes(), 2 + n, "each v1 tree on its own");
    assert!(n == 0 || v1.is_made(Resource::Memory) || v1.is_made(Resource::Pids));
    tree.remove_all();
}
