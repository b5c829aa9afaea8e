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
