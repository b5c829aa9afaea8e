//! Tests of the limit plan, its report and the rlimit arithmetic.

use std::time::Duration;

use super::{Available, Enforcement, LimitsVia, Plan, Resource, cpu_seconds};

fn without_v1(root: bool) -> Available {
    Available {
        v1: None,
        v1_note: "no v1 here".to_owned(),
        spawner: true,
        root,
        user_processes: std::sync::OnceLock::new(),
    }
}

#[test]
fn auto_takes_cgroup_v2_where_delegated_and_rlimits_for_the_rest() {
    let a = without_v1(false);
    let p = Plan::resolve(LimitsVia::Auto, Some([true, false, false]), &a, [true; 3]);
    assert_eq!(p.of(Resource::Memory), Some(Enforcement::CgroupV2));
    assert_eq!(p.of(Resource::Pids), Some(Enforcement::Rlimit));
    assert_eq!(p.of(Resource::Cpu), Some(Enforcement::Rlimit));
    let (on, note) = p.report(LimitsVia::Auto, None, &a);
    assert_eq!(on.len(), 3);
    assert_eq!(on[0].control, "memory.max");
    assert_eq!(on[1].control, "RLIMIT_NPROC");
    assert_eq!(note, None);
}

#[test]
fn root_gets_no_process_rlimit_and_the_report_says_why_for_each_way() {
    let a = without_v1(true);
    let p = Plan::resolve(LimitsVia::Auto, None, &a, [true; 3]);
    assert_eq!(p.of(Resource::Pids), None);
    assert_eq!(p.of(Resource::Memory), Some(Enforcement::Rlimit));
    let (on, note) = p.report(LimitsVia::Auto, Some("not delegated"), &a);
    assert_eq!(on.len(), 2);
    let note = note.expect("pids is not limited");
    assert!(note.contains("pids is not limited"), "{note}");
    assert!(note.contains("cgroup-v2: not delegated"), "{note}");
    assert!(note.contains("cgroup-v1: no v1 here"), "{note}");
    assert!(note.contains("RLIMIT_NPROC for root"), "{note}");
}

#[test]
fn a_forced_enforcement_is_used_alone_and_off_limits_nothing() {
    let a = without_v1(false);
    let p = Plan::resolve(LimitsVia::Only(Enforcement::CgroupV1), Some([true; 3]), &a, [true; 3]);
    assert!(!p.any());
    let (on, note) = p.report(LimitsVia::Only(Enforcement::CgroupV1), None, &a);
    assert!(on.is_empty());
    let note = note.expect("nothing is limited");
    assert!(!note.contains("rlimit:"), "only the forced way is explained: {note}");
    let off = Plan::resolve(LimitsVia::Off, Some([true; 3]), &a, [true; 3]);
    assert!(!off.any());
    assert_eq!(
        off.report(LimitsVia::Off, None, &a).1.as_deref(),
        Some("limits are off (asked for)")
    );
}

#[test]
fn names_round_trip() {
    for e in Enforcement::ALL {
        assert_eq!(LimitsVia::parse(e.as_str()), Some(LimitsVia::Only(e)));
    }
    assert_eq!(LimitsVia::parse("auto"), Some(LimitsVia::Auto));
    assert_eq!(LimitsVia::parse("off"), Some(LimitsVia::Off));
    assert_eq!(LimitsVia::parse("cgroup"), None);
}

#[test]
fn the_cpu_rlimit_is_the_quota_share_of_the_timeout_rounded_up() {
    assert_eq!(cpu_seconds(50_000, 100_000, Duration::from_secs(10)), 5);
    assert_eq!(cpu_seconds(50_000, 100_000, Duration::from_millis(100)), 1);
    assert_eq!(cpu_seconds(200_000, 100_000, Duration::from_millis(1500)), 3);
    assert_eq!(cpu_seconds(1, 0, Duration::from_secs(1)), 1);
}

/// A run cgroup's v1 memory limit moves both ways with swap held to it (`memory.memsw` equal
/// to the limit after every change), and a new cgroup's first limit needs no lift of `memsw`
/// first (a new cgroup's is unlimited): two writes, where there were three. Needs a v1 memory
/// hierarchy with swap accounting; where the machine lacks it, this test says so and checks
/// nothing else.
#[cfg(target_os = "linux")]
#[test]
fn a_memory_limit_moves_both_ways_with_swap_held_to_it_and_a_new_cgroup_needs_no_lift() {
    use crate::config::HookLimits;
    let Some(tree) = private_tree(Resource::Memory, "memsw", "1.1.") else {
        eprintln!("no usable cgroup v1 memory hierarchy here");
        return;
    };
    if !tree.memsw {
        eprintln!("no swap accounting (memory.memsw) here");
        remove_tree(&tree.dir);
        return;
    }
    let limit = |m: Option<u64>| HookLimits { memory_max: m, ..HookLimits::UNLIMITED };
    let before = super::WRITES.get();
    let run = tree.take(&limit(Some(64 << 20))).expect("a new run cgroup with a limit");
    assert_eq!(super::WRITES.get() - before, 2, "the limit, then memsw");
    assert_eq!(limit_file(&run, "memory.limit_in_bytes"), (64u64 << 20).to_string());
    assert_eq!(limit_file(&run, "memory.memsw.limit_in_bytes"), (64u64 << 20).to_string());
    tree.finish(run);
    for m in [Some(256 << 20), Some(32 << 20), None, Some(128 << 20)] {
        let run = tree.take(&limit(m)).expect("the limit moves");
        let now = limit_file(&run, "memory.limit_in_bytes");
        if let Some(m) = m {
            assert_eq!(now, m.to_string());
        }
        assert_eq!(limit_file(&run, "memory.memsw.limit_in_bytes"), now, "swap held to the limit");
        tree.finish(run);
    }
    tree.runs.drain_pool();
    remove_tree(&tree.dir);
}

/// A run handed back by another engine, taken at the engine's first run before any hook
/// (`V1::prepare`), keeps the limits it came with until the first hook's take writes that
/// hook's: above the old ones, swap is lifted first, whatever it was.
#[cfg(target_os = "linux")]
#[test]
fn a_run_claimed_before_the_first_hook_gets_only_that_hook_s_limits_written() {
    use crate::config::HookLimits;
    let Some(tree) = private_tree(Resource::Memory, "claim-unwritten", "1.5.") else {
        eprintln!("no usable cgroup v1 memory hierarchy here");
        return;
    };
    let dir = tree.dir.clone();
    let old = (8u64 << 20).to_string();
    std::fs::create_dir(dir.join("free.0")).expect("a free run");
    std::fs::write(dir.join("free.0/memory.limit_in_bytes"), &old).expect("its old limit");
    if tree.memsw {
        std::fs::write(dir.join("free.0/memory.memsw.limit_in_bytes"), &old).expect("its swap");
    }
    let before = super::WRITES.get();
    let run = tree.take_unwritten().expect("the free run");
    assert_eq!(run.dir, dir.join("1.5.0"), "taken, not made");
    assert_eq!(super::WRITES.get(), before, "nothing written before a hook");
    assert_eq!(limit_file(&run, "memory.limit_in_bytes"), old);
    tree.runs.pool(run);

    let before = super::WRITES.get();
    let run = tree
        .take(&HookLimits { memory_max: Some(64 << 20), ..HookLimits::UNLIMITED })
        .expect("the hook's limits written");
    assert_eq!(run.dir, dir.join("1.5.0"), "the same run");
    let writes = super::WRITES.get() - before;
    assert_eq!(writes, if tree.memsw { 3 } else { 1 }, "swap lifted, the limit, swap held to it");
    assert_eq!(limit_file(&run, "memory.limit_in_bytes"), (64u64 << 20).to_string());
    if tree.memsw {
        assert_eq!(limit_file(&run, "memory.memsw.limit_in_bytes"), (64u64 << 20).to_string());
    }
    tree.finish(run);
    tree.runs.drain_pool();
    remove_tree(&dir);
}

/// A run whose CPU quota was lifted for a kill gets its quota written again when it is used
/// next, even for the same limits.
#[cfg(target_os = "linux")]
#[test]
fn a_cpu_quota_lifted_for_a_kill_is_written_again_at_the_next_use() {
    use crate::config::{CpuMax, HookLimits};
    let Some(tree) = private_tree(Resource::Cpu, "lift", "1.6.") else {
        eprintln!("no usable cgroup v1 cpu hierarchy here");
        return;
    };
    let limits = HookLimits {
        cpu_max: Some(CpuMax { quota_us: 20_000, period_us: 100_000 }),
        ..HookLimits::UNLIMITED
    };
    let run = tree.take(&limits).expect("a run");
    assert_eq!(limit_file(&run, "cpu.cfs_quota_us"), "20000");
    run.lift_cpu();
    assert_eq!(limit_file(&run, "cpu.cfs_quota_us"), "-1", "lifted");
    let dir = run.dir.clone();
    tree.finish(run);
    let run = tree.take(&limits).expect("the same run again");
    assert_eq!(run.dir, dir);
    assert_eq!(limit_file(&run, "cpu.cfs_quota_us"), "20000", "the same limits, written again");
    tree.finish(run);
    // Not lifted: the same limits are not written again.
    let before = super::WRITES.get();
    let run = tree.take(&limits).expect("the same run again");
    assert_eq!(super::WRITES.get(), before);
    tree.finish(run);
    tree.runs.drain_pool();
    remove_tree(&tree.dir);
}

/// The text of the limit file `file` of `run`, trimmed.
#[cfg(target_os = "linux")]
fn limit_file(run: &super::V1Run, file: &str) -> String {
    std::fs::read_to_string(run.dir.join(file)).expect("a limit file").trim().to_owned()
}

/// A tree of the test's own named `name`, next to the user's shared tree in `r`'s v1
/// hierarchy, as an engine with run prefix `prefix` would use it (no run handed back by
/// another engine is in it, whatever other test processes' engines do meanwhile); `None` where
/// the machine has no usable hierarchy for `r`. The caller removes it ([`remove_tree`]).
#[cfg(target_os = "linux")]
fn private_tree(r: Resource, name: &str, prefix: &str) -> Option<super::V1Tree> {
    let shared = super::available().v1.as_ref().and_then(|v| v.tree(r))?;
    let parent = shared.dir.parent().expect("the shared tree's parent");
    let dir = parent.join(format!("agent-hooks-test.{}.{name}", std::process::id()));
    let _ = std::fs::create_dir(&dir);
    Some(tree_at(r, &dir, prefix, shared.memsw))
}

/// An engine's view, with run prefix `prefix`, of the v1 tree at `dir` in `r`'s hierarchy.
#[cfg(target_os = "linux")]
fn tree_at(r: Resource, dir: &std::path::Path, prefix: &str, memsw: bool) -> super::V1Tree {
    super::V1Tree {
        resource: r,
        memsw,
        dir: dir.to_owned(),
        prefix: prefix.to_owned(),
        proof: crate::contain::Proof::default(),
        runs: crate::runs::Runs::default(),
        next: std::sync::atomic::AtomicU64::new(0),
    }
}

/// Removes a tree of [`private_tree`]'s with every run in it (their members gone).
#[cfg(target_os = "linux")]
fn remove_tree(dir: &std::path::Path) {
    let runs: Vec<_> = std::fs::read_dir(dir)
        .expect("the test's tree")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    for d in runs {
        for _ in 0..1000 {
            if std::fs::remove_dir(&d).is_ok() {
                break;
            }
            std::thread::yield_now();
        }
    }
    std::fs::remove_dir(dir).expect("the test's tree removed");
}

/// A pids run cgroup counts as populated while a member lives and, once that member exited,
/// until it is reaped: `pids.current` alone answers both (an exited, unreaped process is no
/// longer in `cgroup.procs` but still holds its slot), so it is the only file read.
#[cfg(target_os = "linux")]
#[test]
fn a_pids_run_is_populated_until_its_last_member_is_reaped() {
    use rustix::process::{Pid, WaitId, WaitIdOptions};

    use crate::config::HookLimits;
    let Some(tree) = super::available().v1.as_ref().and_then(|v| v.tree(Resource::Pids)) else {
        eprintln!("no usable cgroup v1 pids hierarchy here");
        return;
    };
    let run = tree
        .take(&HookLimits { pids_max: Some(64), ..HookLimits::UNLIMITED })
        .expect("a run cgroup");
    assert!(!run.populated(), "a new run cgroup is empty");
    let mut child = std::process::Command::new("sleep").arg("30").spawn().expect("sleep");
    std::fs::write(run.dir.join("cgroup.procs"), child.id().to_string()).expect("move into it");
    assert!(run.populated(), "a live member");
    child.kill().expect("kill");
    let pid = Pid::from_raw(i32::try_from(child.id()).expect("a pid")).expect("a pid");
    rustix::process::waitid(WaitId::Pid(pid), WaitIdOptions::EXITED | WaitIdOptions::NOWAIT)
        .expect("wait for the exit without reaping");
    let listed = std::fs::read_to_string(run.dir.join("cgroup.procs")).expect("cgroup.procs");
    assert!(listed.trim().is_empty(), "cgroup.procs no longer lists it: {listed:?}");
    assert!(run.populated(), "an unreaped member still holds its slot");
    child.wait().expect("reap");
    assert!(!run.populated(), "empty once reaped");
    tree.finish(run);
}

/// A run cgroup another engine handed back when it ended (`free.<i>`, [`super::FREE_RUNS`]) is
/// what the next run takes: renamed to this engine's run (no `mkdir`), its limits written
/// anew since they are unknown. One that a process moved itself into is set aside (this
/// engine's reaper ends it) and the run is made; with none free, the run is made. Uses a tree
/// of its own next to the user's shared one in the pids hierarchy.
#[cfg(target_os = "linux")]
#[test]
fn a_run_handed_back_by_another_engine_is_taken_unless_a_process_moved_in() {
    use crate::config::HookLimits;
    let Some(a) = private_tree(Resource::Pids, "claim", "1.2.") else {
        eprintln!("no usable cgroup v1 pids hierarchy here");
        return;
    };
    let dir = a.dir.clone();
    let tree = |prefix: &str| tree_at(Resource::Pids, &dir, prefix, false);
    let limits = HookLimits { pids_max: Some(64), ..HookLimits::UNLIMITED };
    let read = |d: &std::path::Path| std::fs::read_to_string(d.join("pids.max")).expect("pids.max");

    // Handed back with another hook's limit: taken, the limit written anew.
    std::fs::create_dir(dir.join("free.0")).expect("a free run");
    std::fs::write(dir.join("free.0/pids.max"), "5").expect("its old limit");
    let claims = super::CLAIMS.get();
    let run = a.take(&limits).expect("a run");
    assert_eq!(super::CLAIMS.get() - claims, 1, "taken, not made");
    assert_eq!(run.dir, dir.join("1.2.0"));
    assert!(!dir.join("free.0").exists());
    assert_eq!(read(&run.dir), "64\n");
    a.finish(run);

    // Handed back, and a process moved in since: set aside, the run made.
    std::fs::create_dir(dir.join("free.0")).expect("a free run");
    let mut squatter = std::process::Command::new("sleep").arg("30").spawn().expect("sleep");
    std::fs::write(dir.join("free.0/cgroup.procs"), squatter.id().to_string()).expect("move in");
    let b = tree("1.3.");
    let claims = super::CLAIMS.get();
    let run = b.take(&limits);
    squatter.kill().expect("kill");
    squatter.wait().expect("reap");
    let run = run.expect("a run");
    assert_eq!(super::CLAIMS.get() - claims, 1, "renamed, then set aside");
    assert!(dir.join("1.3.0").is_dir(), "the one set aside is this engine's now");
    assert_ne!(run.dir, dir.join("1.3.0"), "the run is made");
    assert!(!dir.join("free.0").exists());
    assert_eq!(b.runs.retired_len(), 1);
    assert_eq!(read(&run.dir), "64\n");

    // None free: made.
    let c = tree("1.4.");
    let claims = super::CLAIMS.get();
    let made = c.take(&limits).expect("a run");
    assert_eq!(super::CLAIMS.get(), claims, "nothing to take");
    assert!(made.dir.starts_with(&dir) && made.dir.is_dir());
    assert!(made.dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("1.4.")));

    drop((run, made));
    remove_tree(&dir);
}
