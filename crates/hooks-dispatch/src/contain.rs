//! Containment: how the processes a hook starts are found and killed, chosen at run time by
//! what the machine allows (`specs/dispatch.md`, "Containment").
//!
//! - **cgroup v2** (`CgroupKill`, or `CgroupFreeze` on kernels without `cgroup.kill`): every run
//!   gets its own child cgroup of the engine's tree, joined by the hook's first process before
//!   its `exec`, so everything it starts is in it whatever it does to its session, group or
//!   environment; the run ends with `cgroup.kill` (or freeze, kill every member, thaw), and
//!   per-hook limits (`memory.max`, `pids.max`, `cpu.max`) apply where the controllers are
//!   delegated.
//! - **process group and tag** (`ProcessGroup`): the portable, weaker fallback: the hook's
//!   process group, plus an environment variable inherited by its descendants.
//!
//! The probe runs once per engine process. The cgroup tree is the user's, shared by every
//! engine process of the user: `<parent>/agent-hooks.u<uid>`, where `<parent>` is the engine's
//! own cgroup (or the one [`crate::DispatchConfig::cgroup_parent`] names), made by the first
//! engine and kept; an engine's runs are `<pid>.<start time>.<n>` in it, and the reaper kills
//! and removes those when the engine process ends, however it ends (`specs/dispatch.md`, "The
//! engine's cgroup tree").

use std::{
    fmt,
    fs::{self, File, OpenOptions},
    io::{self, Write},
    os::{
        fd::AsFd,
        unix::fs::{FileExt, OpenOptionsExt},
    },
    path::{Path, PathBuf},
    sync::{
        Mutex, OnceLock, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
};

use crate::{
    config::HookLimits,
    limits::{Enforcement, LimitInForce, LimitsVia, Plan, Resource, Rlimits, V1Run},
    runs::{RunDir, Runs},
};

/// Which containment a dispatcher asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Containment {
    /// The strongest mechanism the machine allows: cgroup v2, else the subreaper, else
    /// process group and tag.
    #[default]
    Auto,
    /// cgroup v2, runs ended with `cgroup.kill`.
    CgroupKill,
    /// cgroup v2, runs ended by freezing the cgroup, killing every member and thawing it
    /// (what kernels 5.2–5.13, which have no `cgroup.kill`, allow).
    CgroupFreeze,
    /// The hook's first process is a child subreaper (Linux), so what it starts stays in its
    /// process tree while it runs; plus the process group and tag.
    Subreaper,
    /// The hook's process group and an inherited environment variable.
    ProcessGroup,
}

/// The mechanism a dispatcher uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mechanism {
    /// cgroup v2 with `cgroup.kill`.
    CgroupKill,
    /// cgroup v2 with freeze, kill and thaw.
    CgroupFreeze,
    /// The run's first process as a child subreaper, with the process group and tag.
    Subreaper,
    /// Process group and environment tag (weaker: see `specs/hardening.md`, F4).
    ProcessGroup,
}

impl Mechanism {
    /// Every mechanism, strongest first.
    pub const ALL: [Mechanism; 4] = [
        Mechanism::CgroupKill,
        Mechanism::CgroupFreeze,
        Mechanism::Subreaper,
        Mechanism::ProcessGroup,
    ];

    /// The name used in reports and on the command line (`cgroup-kill`, `cgroup-freeze`,
    /// `subreaper`, `process-group`).
    pub fn as_str(self) -> &'static str {
        match self {
            Mechanism::CgroupKill => "cgroup-kill",
            Mechanism::CgroupFreeze => "cgroup-freeze",
            Mechanism::Subreaper => "subreaper",
            Mechanism::ProcessGroup => "process-group",
        }
    }

    /// Whether the run's first process is a child subreaper whose tree the engine kills
    /// (every mechanism but the portable one).
    pub fn walks_the_tree(self) -> bool {
        self != Mechanism::ProcessGroup
    }

    /// Whether runs live in a cgroup.
    pub fn is_cgroup(self) -> bool {
        matches!(self, Mechanism::CgroupKill | Mechanism::CgroupFreeze)
    }

    fn requested(self) -> Containment {
        match self {
            Mechanism::CgroupKill => Containment::CgroupKill,
            Mechanism::CgroupFreeze => Containment::CgroupFreeze,
            Mechanism::Subreaper => Containment::Subreaper,
            Mechanism::ProcessGroup => Containment::ProcessGroup,
        }
    }
}

impl fmt::Display for Mechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The containment one dispatcher uses: its mechanism and, for the cgroup mechanisms, the
/// engine's tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Contain {
    pub(crate) mechanism: Mechanism,
    tree: Option<&'static Tree>,
    /// How each resource is limited.
    plan: Plan,
}

/// A run's limits outside its cgroup v2: its cgroups in v1 hierarchies and the rlimits its
/// first process sets.
#[derive(Debug, Default)]
pub(crate) struct RunLimits {
    pub(crate) v1: [Option<V1Run>; 3],
    pub(crate) rlimits: Rlimits,
}

impl Contain {
    /// The containment `cfg` asks for, as far as the machine allows it.
    ///
    /// At the first call of the process, the cgroup v2 tree and the cgroup v1 trees of the
    /// resources `cfg` limits are made, and no process checks them: the first hook's start
    /// does ([`Contain::started`], [`Contain::after_failed_start`]). It was one probe child
    /// that was born in a run cgroup of the v2 tree and joined one of each v1 tree before it
    /// exited (and before that, one child per tree).
    pub(crate) fn resolve(cfg: &crate::DispatchConfig) -> Contain {
        let wanted = wanted_v1(cfg);
        #[cfg(target_os = "linux")]
        let p = {
            // At the first run of the process: the trees' folders are named first, so that
            // the reaper's fork starts before they are made and sets itself up beside the
            // engine's `mkdir`s and the hook's start (it used to start after them, and the
            // engine waited for its set-up before starting the hook).
            let mut parent = None;
            if PROBE.get().is_none() {
                let dir = parent_dir(cfg.cgroup_parent.as_deref());
                let _ = PLANNED.set(dir.as_ref().ok().map(|d| d.join(shared_name())));
                parent = Some(dir);
                // The mechanisms without a cgroup, asked for by name, register their runs:
                // the reaper's process takes the registration file from its start.
                let registers =
                    matches!(cfg.containment, Containment::Subreaper | Containment::ProcessGroup);
                crate::reaper::global().start_early(registers);
            }
            let v1 = crate::limits::available().v1.as_ref();
            let made = v1.map(|v| v.prepare(wanted)).unwrap_or_default();
            // No process checks the trees here: the first hook's own start does (born in its
            // run cgroup, joining the v1 ones before its `exec`), and a start that fails has
            // the trees it used checked, then runs with what works (`Contain::after_failed_start`).
            let p = PROBE.get_or_init(|| {
                let parent = parent.unwrap_or_else(|| parent_dir(cfg.cgroup_parent.as_deref()));
                Probe::run_in(parent, false)
            });
            if let Some(v) = v1 {
                v.unchecked(made);
            }
            p
        };
        #[cfg(not(target_os = "linux"))]
        let p = probe(cfg.cgroup_parent.as_deref());
        let (mechanism, _) = p.resolve(cfg.containment);
        let tree = p.tree.as_ref().filter(|_| mechanism.is_cgroup());
        let plan = limit_plan(cfg.limits_via, tree, wanted);
        Contain { mechanism, tree, plan }
    }

    /// A run's cgroup with the limits the plan enforces through cgroup v2 written, for the
    /// cgroup mechanisms.
    pub(crate) fn begin(&self, limits: &HookLimits) -> io::Result<Option<RunCgroup>> {
        let mask = Resource::ALL.map(|r| self.plan.of(r) == Some(Enforcement::CgroupV2));
        self.tree.map(|t| t.take(Some((limits, mask)))).transpose()
    }

    /// A run's limits outside cgroup v2 (`timeout` sizes the CPU rlimit).
    pub(crate) fn begin_limits(
        &self,
        limits: &HookLimits,
        timeout: std::time::Duration,
    ) -> io::Result<RunLimits> {
        if !self.plan.any() {
            return Ok(RunLimits::default());
        }
        let v1 = match &crate::limits::available().v1 {
            Some(v) => v.take(&self.plan, limits)?,
            None => [None, None, None],
        };
        #[cfg(target_os = "linux")]
        let rlimits = Rlimits::of(&self.plan, limits, timeout);
        #[cfg(not(target_os = "linux"))]
        let rlimits = {
            let _ = timeout;
            Rlimits::default()
        };
        Ok(RunLimits { v1, rlimits })
    }

    /// Records that a hook's first process was started in the run's cgroup (`cgroup`) and
    /// joined its v1 cgroups (`limits`): those trees are proven usable, no check is needed.
    pub(crate) fn started(&self, cgroup: bool, limits: &RunLimits) {
        if cgroup && let Some(t) = self.tree {
            t.proof.set_proven();
        }
        if let Some(v) = &crate::limits::available().v1 {
            for (r, run) in Resource::ALL.into_iter().zip(&limits.v1) {
                if run.is_some() {
                    v.proven(r);
                }
            }
        }
    }

    /// After a start that failed with a run cgroup of the tree (`cgroup`) and cgroups of the
    /// v1 trees (`v1`, per resource), both given back already:
    /// each tree it used that no process has joined yet is checked by a probe child (what
    /// the probe did for every engine before the first run). If one fails its check, it is
    /// removed, the mechanism falls back as the probe's failure would have made it, and the
    /// containment to start the hook with again is returned (its process never ran: it
    /// failed before its `exec`). `None` when every tree used works (the start failed for
    /// another reason) or none was unproven.
    #[cfg(target_os = "linux")]
    pub(crate) fn after_failed_start(
        &self,
        cfg: &crate::DispatchConfig,
        cgroup: bool,
        v1: [bool; 3],
    ) -> Option<Contain> {
        let mut failed = cgroup && self.tree.is_some_and(Tree::prove);
        if let Some(v) = &crate::limits::available().v1 {
            for (r, used) in Resource::ALL.into_iter().zip(v1) {
                failed |= used && v.prove(r);
            }
        }
        failed.then(|| Contain::resolve(cfg))
    }

    /// Without cgroups there is nothing to prove.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn after_failed_start(
        &self,
        _: &crate::DispatchConfig,
        _: bool,
        _: [bool; 3],
    ) -> Option<Contain> {
        None
    }

    /// Whether a tree this containment uses was found unusable since it was resolved (a
    /// start failed, [`Contain::after_failed_start`]): the dispatcher resolves it again.
    pub(crate) fn stale(&self) -> bool {
        self.tree.is_some_and(|t| t.proof.failed().is_some())
            || crate::limits::available().v1.as_ref().is_some_and(|v| {
                Resource::ALL
                    .into_iter()
                    .any(|r| self.plan.of(r) == Some(Enforcement::CgroupV1) && !v.usable(r))
            })
    }

    /// Ends a run's use of its limits' cgroups.
    pub(crate) fn finish_limits(&self, run: RunLimits) {
        if let Some(v) = &crate::limits::available().v1 {
            v.finish(run.v1);
        }
    }

    /// Ends a run's use of its cgroup.
    pub(crate) fn finish(&self, run: RunCgroup) {
        if let Some(t) = self.tree {
            t.finish(run);
        }
    }

    /// [`Contain::finish`] when the caller has just read whether the run is `populated` (one
    /// `pread` of `cgroup.events` per run, not two).
    pub(crate) fn finish_read(&self, run: RunCgroup, populated: bool) {
        if let Some(t) = self.tree {
            t.finish_read(run, populated);
        }
    }

    /// Kills everything in the run's cgroup with this mechanism's method.
    pub(crate) fn kill(&self, run: &RunCgroup) {
        run.kill(self.mechanism == Mechanism::CgroupKill);
    }
}

/// The containment `cfg` gets on this machine, and what the machine allows.
pub(crate) fn report(cfg: &crate::DispatchConfig) -> ContainmentReport {
    // What is reported was checked: trees a run made but no hook has joined yet are checked
    // now (a probe child each), as a failed start would have them.
    #[cfg(target_os = "linux")]
    {
        let p = probe(cfg.cgroup_parent.as_deref());
        if let Some(t) = &p.tree {
            t.prove();
        }
        if let Some(v) = &crate::limits::available().v1 {
            for r in Resource::ALL {
                v.prove(r);
            }
        }
    }
    let mut r = probe(cfg.cgroup_parent.as_deref()).report(cfg.containment);
    let tree = probe(None).tree.as_ref().filter(|_| r.mechanism.is_cgroup());
    let plan = limit_plan(cfg.limits_via, tree, [true; 3]);
    let v2_note = match tree {
        Some(t) => Some(t.controllers_note.as_str()).filter(|n| !n.is_empty()),
        None => Some("runs have no cgroup v2 of their own with this mechanism"),
    };
    let (limits, note) = plan.report(cfg.limits_via, v2_note, crate::limits::available());
    r.limits = limits;
    r.limits_note = note;
    r.limits_requested = cfg.limits_via;
    r.default_limits = cfg.limits;
    r.hook_limit_rules = cfg.hook_limits.len();
    r.limit_cgroups = crate::limits::available().v1.as_ref().map(|v| v.dirs()).unwrap_or_default();
    // No hook starts here: the trees found made are swept now.
    sweep_pending();
    r
}

/// How each resource is limited for runs with `tree` (the run's cgroup v2 tree, if any);
/// cgroup v1 is considered for the `wanted` resources only.
fn limit_plan(via: LimitsVia, tree: Option<&Tree>, wanted: [bool; 3]) -> Plan {
    let v2 = tree.map(|t| [t.controllers.memory, t.controllers.pids, t.controllers.cpu]);
    Plan::resolve(via, v2, crate::limits::available(), wanted)
}

/// The resources some run of `cfg` may limit through cgroup v1: those its default limits or a
/// per-hook rule set, unless `cfg` rules cgroup v1 out.
fn wanted_v1(cfg: &crate::DispatchConfig) -> [bool; 3] {
    if !matches!(cfg.limits_via, LimitsVia::Auto | LimitsVia::Only(Enforcement::CgroupV1)) {
        return [false; 3];
    }
    let mut wanted = [false; 3];
    for l in std::iter::once(&cfg.limits).chain(cfg.hook_limits.iter().map(|r| &r.limits)) {
        wanted[0] |= l.memory_max.is_some();
        wanted[1] |= l.pids_max.is_some();
        wanted[2] |= l.cpu_max.is_some();
    }
    wanted
}

/// The folder of the engine's cgroup v2 tree: the probe's, or, while the first run is
/// making it, the one it is being made as ([`Contain::resolve`]); `None` before either, or
/// without a cgroup v2 parent.
pub(crate) fn tree_dir() -> Option<PathBuf> {
    match static_probe() {
        Some(p) => p.tree.as_ref().map(|t| t.dir.clone()),
        None => PLANNED.get().cloned().flatten(),
    }
}

/// The folder the first run names for the engine's cgroup v2 tree before making it.
static PLANNED: OnceLock<Option<PathBuf>> = OnceLock::new();

/// What containment a dispatcher uses, and what the machine allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainmentReport {
    /// What was asked for.
    pub requested: Containment,
    /// What is used.
    pub mechanism: Mechanism,
    /// The engine's cgroup tree, for the cgroup mechanisms.
    pub cgroup: Option<PathBuf>,
    /// The resource limits runs get: each resource, how it is enforced and the file or
    /// rlimit that carries it (`specs/dispatch.md`, "Limits").
    pub limits: Vec<LimitInForce>,
    /// Why the other resources are not limited, when some are not.
    pub limits_note: Option<String>,
    /// How limits were asked to be enforced.
    pub limits_requested: LimitsVia,
    /// The limits of every hook without a rule of its own.
    pub default_limits: HookLimits,
    /// How many per-hook rules ([`crate::DispatchConfig::hook_limits`]) there are.
    pub hook_limit_rules: usize,
    /// The engine's trees in the cgroup v1 hierarchies it limits runs through.
    pub limit_cgroups: Vec<PathBuf>,
    /// Each mechanism this machine does not allow, with why (strongest first).
    pub unavailable: Vec<(Mechanism, String)>,
    /// Why the requested mechanism is not the one used, when it is not.
    pub fallback: Option<String>,
}

/// What the probe found, once per engine process.
#[derive(Debug)]
pub(crate) struct Probe {
    /// The engine's cgroup tree, when cgroup v2 is usable.
    pub(crate) tree: Option<Tree>,
    /// Why cgroup v2 is not usable.
    cgroup_unavailable: Option<String>,
    /// Why `cgroup.kill` is not (the kernel only has `cgroup.freeze`).
    kill_unavailable: Option<String>,
    /// Why a run's first process cannot be made a child subreaper.
    subreaper_unavailable: Option<String>,
}

/// The probe of this engine process. The first call creates the cgroup tree (when cgroup v2
/// allows it) and nothing else; `parent` is only honoured by the first call.
pub(crate) fn probe(parent: Option<&Path>) -> &'static Probe {
    PROBE.get_or_init(|| Probe::run(parent))
}

static PROBE: OnceLock<Probe> = OnceLock::new();

/// Makes every process started in a run cgroup of this process fail to join it (a cgroup v2
/// tree the engine may make but not use); for the tests of a failed first start.
#[cfg(test)]
pub(crate) static BREAK_JOIN: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The probe, if it has run.
fn static_probe() -> Option<&'static Probe> {
    PROBE.get()
}

impl Probe {
    fn run(parent: Option<&Path>) -> Probe {
        #[cfg(target_os = "linux")]
        return Probe::run_in(parent_dir(parent), true);
        #[cfg(not(target_os = "linux"))]
        {
            let _ = parent;
            let why = "cgroups exist on Linux only".to_owned();
            Probe {
                tree: None,
                cgroup_unavailable: Some(why.clone()),
                kill_unavailable: Some(why),
                subreaper_unavailable: Some("child subreapers exist on Linux only".to_owned()),
            }
        }
    }

    /// [`Probe::run`] in `parent`; the tree is checked by a probe child only with `check`
    /// (see [`Contain::resolve`]).
    #[cfg(target_os = "linux")]
    fn run_in(parent: Result<PathBuf, CgroupSetupError>, check: bool) -> Probe {
        match parent.and_then(|p| Tree::create_in(p, check)) {
            Ok(tree) => {
                let kill_unavailable = (!tree.has_kill).then(|| {
                    "this kernel has no cgroup.kill (Linux 5.14): runs are frozen, killed and thawed"
                        .to_owned()
                });
                Probe {
                    tree: Some(tree),
                    cgroup_unavailable: None,
                    kill_unavailable,
                    subreaper_unavailable: subreaper_unavailable(),
                }
            }
            Err(why) => Probe {
                tree: None,
                cgroup_unavailable: Some(why.to_string()),
                kill_unavailable: Some(why.to_string()),
                subreaper_unavailable: subreaper_unavailable(),
            },
        }
    }

    fn why_not(&self, m: Mechanism) -> Option<&str> {
        let failed = self.tree.as_ref().and_then(|t| t.proof.failed()).map(String::as_str);
        match m {
            Mechanism::CgroupKill => failed.or(self.kill_unavailable.as_deref()),
            Mechanism::CgroupFreeze => failed.or(self.cgroup_unavailable.as_deref()),
            Mechanism::Subreaper => self.subreaper_unavailable.as_deref(),
            Mechanism::ProcessGroup => None,
        }
    }

    /// The mechanism for `requested`, and why it differs from what was asked, if it does.
    pub(crate) fn resolve(&self, requested: Containment) -> (Mechanism, Option<String>) {
        let want = match requested {
            Containment::Auto => {
                let m = Mechanism::ALL
                    .into_iter()
                    .find(|m| self.why_not(*m).is_none())
                    .unwrap_or(Mechanism::ProcessGroup);
                return (m, None);
            }
            Containment::CgroupKill => Mechanism::CgroupKill,
            Containment::CgroupFreeze => Mechanism::CgroupFreeze,
            Containment::Subreaper => Mechanism::Subreaper,
            Containment::ProcessGroup => Mechanism::ProcessGroup,
        };
        match self.why_not(want) {
            None => (want, None),
            Some(why) => {
                let (m, _) = self.resolve(Containment::Auto);
                (m, Some(format!("{want} is not available ({why}); using {m}")))
            }
        }
    }

    /// The report for a dispatcher that asked for `requested`.
    pub(crate) fn report(&self, requested: Containment) -> ContainmentReport {
        let (mechanism, fallback) = self.resolve(requested);
        let tree = self.tree.as_ref().filter(|_| mechanism.is_cgroup());
        ContainmentReport {
            requested,
            mechanism,
            cgroup: tree.map(|t| t.dir.clone()),
            limits: Vec::new(),
            limits_note: None,
            limits_requested: LimitsVia::Auto,
            default_limits: HookLimits::UNLIMITED,
            hook_limit_rules: 0,
            limit_cgroups: Vec::new(),
            unavailable: Mechanism::ALL
                .into_iter()
                .filter_map(|m| self.why_not(m).map(|w| (m, w.to_owned())))
                .collect(),
            fallback,
        }
    }
}

/// Why the subreaper mechanism cannot be used: it needs the crate's own spawner (a kernel with
/// `CLONE_PIDFD`, 5.2) to set the flag before the `exec`.
#[cfg(target_os = "linux")]
fn subreaper_unavailable() -> Option<String> {
    (!crate::spawner::own_available()).then(|| {
        "the kernel refused CLONE_PIDFD (Linux 5.2), so the engine's spawner is off".to_owned()
    })
}

/// SIGSTOPs the run's first process `leader` (a child subreaper, so everything it started is in
/// its tree while it lives), then every process of its tree, pass after pass until a pass finds
/// none it had not stopped (stopped processes cannot fork; orphans of exiting ones are adopted
/// by the stopped leader), then SIGKILLs them all. Bounded: at most 64 passes.
#[cfg(target_os = "linux")]
pub(crate) fn kill_tree(leader: i32) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    if leader <= 1 || kill(Pid::from_raw(leader), Signal::SIGSTOP).is_err() {
        return;
    }
    let me = std::process::id() as i32;
    let mut stopped = vec![leader];
    let mut seen = std::collections::HashSet::from([leader]);
    for _ in 0..64 {
        let mut new = false;
        let mut i = 0;
        while i < stopped.len() {
            let p = stopped[i];
            i += 1;
            for child in children(p) {
                if child > 1 && child != me && seen.insert(child) {
                    let _ = kill(Pid::from_raw(child), Signal::SIGSTOP);
                    stopped.push(child);
                    new = true;
                }
            }
        }
        if !new {
            break;
        }
    }
    for p in stopped.iter().rev() {
        let _ = kill(Pid::from_raw(*p), Signal::SIGKILL);
    }
}

/// Every descendant of `leader` now (no signal sent).
#[cfg(target_os = "linux")]
pub(crate) fn tree_of(leader: i32) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut all = vec![leader];
    let mut seen = std::collections::HashSet::from([leader]);
    let mut i = 0;
    while i < all.len() && all.len() < 100_000 {
        let p = all[i];
        i += 1;
        for c in children(p) {
            if c > 1 && c != me && seen.insert(c) {
                all.push(c);
            }
        }
    }
    all.remove(0);
    all
}

/// The children of `pid`, from `/proc/<pid>/task/*/children`.
#[cfg(target_os = "linux")]
fn children(pid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else { return out };
    for t in tasks.flatten() {
        if let Ok(text) = fs::read_to_string(t.path().join("children")) {
            out.extend(text.split_whitespace().filter_map(|w| w.parse::<i32>().ok()));
        }
    }
    out
}

impl Containment {
    /// The name of the choice (`auto` or a mechanism's name).
    pub fn as_str(self) -> &'static str {
        match self {
            Containment::Auto => "auto",
            Containment::CgroupKill => "cgroup-kill",
            Containment::CgroupFreeze => "cgroup-freeze",
            Containment::Subreaper => "subreaper",
            Containment::ProcessGroup => "process-group",
        }
    }

    /// The choice a mechanism's name (`auto`, `cgroup-kill`, `cgroup-freeze`, `subreaper`,
    /// `process-group`) stands for.
    pub fn parse(name: &str) -> Option<Containment> {
        Some(match name {
            "auto" => Containment::Auto,
            other => Mechanism::ALL.into_iter().find(|m| m.as_str() == other)?.requested(),
        })
    }
}

/// The resource controllers delegated to the engine's tree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Controllers {
    pub(crate) memory: bool,
    pub(crate) pids: bool,
    pub(crate) cpu: bool,
}

/// The engine process's cgroup tree.
#[derive(Debug)]
pub(crate) struct Tree {
    /// `<parent>/agent-hooks.u<uid>`, shared by the user's engine processes.
    pub(crate) dir: PathBuf,
    /// What this engine's run cgroups' names start with ([`run_prefix`]).
    prefix: String,
    /// Whether the kernel has `cgroup.kill`.
    pub(crate) has_kill: bool,
    /// Which limits can be set on runs.
    controllers: Controllers,
    /// Why some controllers are missing.
    controllers_note: String,
    /// Run cgroups that are empty and may be used again, and those that were killed or left
    /// members behind, removed once empty.
    runs: Runs<RunCgroup>,
    next: AtomicU64,
    /// Whether it was found to work, or not.
    pub(crate) proof: Proof,
}

/// Whether a tree (the cgroup v2 one or a v1 one) made without a check works: proven once a
/// process joined one of its run cgroups (a check, or a hook's first process), or found
/// unusable by the check a failed start asks for.
#[derive(Debug, Default)]
pub(crate) struct Proof {
    proven: std::sync::atomic::AtomicBool,
    /// Why a start that failed found it unusable.
    failed: OnceLock<String>,
}

impl Proof {
    /// Whether a process joined one of its run cgroups.
    pub(crate) fn proven(&self) -> bool {
        self.proven.load(Ordering::Relaxed)
    }

    /// Records that a process joined one of its run cgroups.
    pub(crate) fn set_proven(&self) {
        self.proven.store(true, Ordering::Relaxed);
    }

    /// Why a failed start's check found it unusable, if one did.
    pub(crate) fn failed(&self) -> Option<&String> {
        self.failed.get()
    }

    /// Runs `check` unless the tree is proven or already failed: whether it failed now (its
    /// reason is then kept).
    pub(crate) fn prove<E: std::fmt::Display>(
        &self,
        check: impl FnOnce() -> Result<(), E>,
    ) -> bool {
        if self.proven() || self.failed().is_some() {
            return false;
        }
        match check() {
            Ok(()) => {
                self.set_proven();
                false
            }
            Err(why) => {
                let _ = self.failed.set(why.to_string());
                true
            }
        }
    }
}

/// One run's cgroup.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    dir: PathBuf,
    /// The folder, open: the hook's first process is born in it (`CLONE_INTO_CGROUP`).
    dir_fd: File,
    /// `cgroup.procs`, open for writing: where the process cannot be born in the cgroup, it
    /// writes `0` to it before its `exec`.
    procs: File,
    /// `cgroup.events`, read to learn whether members remain.
    events: File,
    /// The limits last written and which resources they were for, so an unchanged set is not
    /// written again.
    written: Option<(HookLimits, [bool; 3])>,
    /// Whether it was killed: it is then never used again (see [`Tree::finish`]).
    killed: std::sync::atomic::AtomicBool,
}

/// Why the engine could not set up a cgroup tree (cgroup v2, or a cgroup v1 hierarchy for a
/// limit): the text becomes the "unavailable because" of the containment report, and the
/// engine falls back to a weaker mechanism.
#[cfg(target_os = "linux")]
#[derive(Debug, thiserror::Error)]
pub(crate) enum CgroupSetupError {
    /// A file of `/proc/self` could not be read.
    #[error("cannot read {}: {source}", path.display())]
    ReadProc {
        /// `/proc/self/cgroup` or `/proc/self/mountinfo`.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// `/proc/self/cgroup` has no `0::` line.
    #[error("this process is in no cgroup v2 hierarchy")]
    NoV2Membership,
    /// `/proc/self/mountinfo` has no cgroup2 mount.
    #[error("cgroup v2 is not mounted")]
    V2NotMounted,
    /// The engine's cgroup folder, as computed, does not exist.
    #[error("{} does not exist", dir.display())]
    Missing {
        /// The folder.
        dir: PathBuf,
    },
    /// The parent given is no cgroup v2 folder.
    #[error("{} is not a cgroup v2 directory", dir.display())]
    NotV2Dir {
        /// The folder.
        dir: PathBuf,
    },
    /// The engine may not create a cgroup v2 folder in its own: not delegated to its user.
    #[error("cannot create a cgroup under {} ({source}): not delegated to this user", parent.display())]
    CreateV2 {
        /// The parent folder.
        parent: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The engine may not create a folder in its cgroup v1 cgroup.
    #[error("cannot create a cgroup under {} ({source})", parent.display())]
    CreateV1 {
        /// The parent folder.
        parent: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// cgroup v1's memory hierarchy cannot be switched on (limits would not reach children).
    #[error("cannot turn on memory.use_hierarchy ({source})")]
    MemoryHierarchy {
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The user's shared tree is not a folder this user owns.
    #[error("{} is not a cgroup folder of this user ({why}): runs are not put in it", dir.display())]
    SharedTree {
        /// The folder.
        dir: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Neither `cgroup.kill` nor `cgroup.freeze` exists.
    #[error("this kernel has neither cgroup.kill nor cgroup.freeze (Linux 5.2)")]
    NoKillNorFreeze,
    /// The probe child could not join a run cgroup.
    #[error("cannot start a process in a cgroup under {}: {source}", dir.display())]
    Join {
        /// The tree's folder.
        dir: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// No cgroup v1 hierarchy has the controller.
    #[error("no cgroup v1 hierarchy has the {controller} controller")]
    NoV1Hierarchy {
        /// The controller (`memory`, `pids`, `cpu`).
        controller: &'static str,
    },
    /// The engine is in no cgroup of the controller's v1 hierarchy.
    #[error("this process is in no {controller} cgroup v1 hierarchy")]
    NoV1Membership {
        /// The controller.
        controller: &'static str,
    },
    /// No cgroup v1 hierarchy could be used: each resource's reason.
    #[error("{}", .0.iter().map(|(r, e)| format!("{r}: {e}")).collect::<Vec<_>>().join("; "))]
    NoV1(Vec<(Resource, CgroupSetupError)>),
}

#[cfg(target_os = "linux")]
impl Tree {
    /// Creates the tree in `parent` (the engine's cgroup, or the one given: [`parent_dir`])
    /// and removes the trees of dead engines; with `check`, also checks that a process can be
    /// started inside a cgroup of the tree (a probe child). Without, the first hook's start
    /// proves it ([`Contain::started`], [`Contain::after_failed_start`]).
    fn create_in(parent: PathBuf, check: bool) -> Result<Tree, CgroupSetupError> {
        if !parent.join("cgroup.procs").is_file() {
            return Err(CgroupSetupError::NotV2Dir { dir: parent });
        }
        let dir = parent.join(shared_name());
        let made = make_shared(&dir).map_err(|source| match source {
            SharedError::Create(source) => {
                CgroupSetupError::CreateV2 { parent: parent.clone(), source }
            }
            SharedError::Bad(e) => e,
        })?;
        if made {
            // The trees engines made before the shared one, of engines that are gone: swept
            // once, by the engine that makes the shared tree (this version makes none).
            remove_stale_trees(&parent);
        }
        let has_kill = dir.join("cgroup.kill").is_file();
        if !has_kill && !dir.join("cgroup.freeze").is_file() {
            let _ = fs::remove_dir(&dir);
            return Err(CgroupSetupError::NoKillNorFreeze);
        }
        if !made {
            sweep_later(dir.clone(), Some(has_kill));
        }
        let (controllers, controllers_note) = enable_controllers(&dir, &parent);
        let tree = Tree {
            dir,
            prefix: run_prefix(),
            has_kill,
            controllers,
            controllers_note,
            runs: Runs::default(),
            next: AtomicU64::new(0),
            proof: Proof::default(),
        };
        if !check {
            return Ok(tree);
        }
        match tree.check() {
            Ok(()) => {
                tree.proof.set_proven();
                Ok(tree)
            }
            Err(source) => {
                let dir = tree.dir.clone();
                tree.remove_all();
                Err(CgroupSetupError::Join { dir, source })
            }
        }
    }

    /// The check: a child that is born in a run cgroup and exits before any exec.
    fn check(&self) -> io::Result<()> {
        self.take(None).and_then(|run| {
            let ok = crate::spawner::probe_join(run.fds(), &[]);
            self.finish(run);
            ok
        })
    }

    /// Checks the tree if no process was started in it yet: whether it failed the check, in
    /// which case it is killed and removed, and the cgroup mechanisms are unavailable from now
    /// on with the reason.
    fn prove(&self) -> bool {
        let failed = self.proof.prove(|| {
            self.check().map_err(|source| CgroupSetupError::Join { dir: self.dir.clone(), source })
        });
        if failed {
            self.remove_all();
        }
        failed
    }

    /// An empty run cgroup with `limits` written (none when `None`).
    pub(crate) fn take(
        &self,
        limits: Option<(&HookLimits, [bool; 3])>,
    ) -> Result<RunCgroup, io::Error> {
        let mut run = match self.runs.pooled() {
            Some(r) => r,
            None => {
                let n = self.next.fetch_add(1, Ordering::Relaxed);
                let dir = self.dir.join(format!("{}{n}", self.prefix));
                fs::create_dir(&dir)?;
                let dir_fd = OpenOptions::new()
                    .read(true)
                    .custom_flags(nix::libc::O_CLOEXEC | nix::libc::O_DIRECTORY)
                    .open(&dir)?;
                let procs = OpenOptions::new()
                    .write(true)
                    .custom_flags(nix::libc::O_CLOEXEC)
                    .open(dir.join("cgroup.procs"))?;
                let events = File::open(dir.join("cgroup.events"))?;
                RunCgroup { dir, dir_fd, procs, events, written: None, killed: Default::default() }
            }
        };
        if let Some((l, mask)) = limits
            && run.written.as_ref() != Some(&(*l, mask))
        {
            self.write_limits(&run.dir, l, mask)?;
            run.written = Some((*l, mask));
        }
        Ok(run)
    }

    /// Writes `l` for the resources `mask` selects (memory, pids, cpu), `max` for the others.
    fn write_limits(&self, dir: &Path, l: &HookLimits, mask: [bool; 3]) -> io::Result<()> {
        let c = self.controllers;
        let l = &HookLimits {
            memory_max: l.memory_max.filter(|_| mask[0]),
            pids_max: l.pids_max.filter(|_| mask[1]),
            cpu_max: l.cpu_max.filter(|_| mask[2]),
        };
        if c.memory {
            write_file(&dir.join("memory.max"), &limit_text(l.memory_max))?;
            // No swapping around the limit: a hog is stopped, not slowed to a crawl.
            let _ = write_file(&dir.join("memory.swap.max"), "0");
        }
        if c.pids {
            write_file(&dir.join("pids.max"), &limit_text(l.pids_max))?;
        }
        if c.cpu {
            let text = match l.cpu_max {
                Some(cpu) => format!("{} {}", cpu.quota_us, cpu.period_us),
                None => CPU_UNLIMITED.to_owned(),
            };
            write_file(&dir.join("cpu.max"), &text)?;
        }
        Ok(())
    }

    /// Ends a run's use of its cgroup: back to the pool when empty, else retired and removed
    /// once empty (killed members die shortly; the members a clean run left without a
    /// dispatcher live until the reaper kills the tree).
    ///
    /// A cgroup that was ever killed is retired too, even empty: Linux (seen on 6.18) SIGKILLs a
    /// process born by `CLONE_INTO_CGROUP` into a cgroup whose `cgroup.kill` was written
    /// before, as if that kill were still under way (the fork compares the kill count of the
    /// parent's cgroup with the destination's), so such a cgroup could never start a hook again.
    pub(crate) fn finish(&self, run: RunCgroup) {
        let populated = run.killed.load(Ordering::Relaxed) || run.populated();
        self.finish_read(run, populated);
    }

    /// [`Tree::finish`] when the caller has just read whether the run is `populated`.
    pub(crate) fn finish_read(&self, run: RunCgroup, populated: bool) {
        let reusable = !run.killed.load(Ordering::Relaxed) && !populated;
        self.runs.give_back(run, reusable);
    }

    /// Kills every run of this engine and removes them (a failed probe); the shared tree stays
    /// (other engines of the user may be using it).
    fn remove_all(&self) {
        self.runs.clear();
        for run in own_runs(&self.dir, &self.prefix) {
            kill_dir(&run, self.has_kill);
            let _ = fs::remove_dir(&run);
        }
    }
}

/// `cpu.max` without a limit (and the kernel's default period).
const CPU_UNLIMITED: &str = "max 100000";

impl RunDir for RunCgroup {
    fn dir(&self) -> &Path {
        &self.dir
    }

    fn populated(&self) -> bool {
        RunCgroup::populated(self)
    }
}

impl RunCgroup {
    /// The cgroup's folder.
    #[cfg(test)]
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The descriptors the hook's first process is started in the cgroup with.
    pub(crate) fn fds(&self) -> crate::spawner::CgroupFds<'_> {
        #[cfg(test)]
        if BREAK_JOIN.load(Ordering::Relaxed) {
            // No folder, and a descriptor that cannot be written: every start fails to join.
            return crate::spawner::CgroupFds {
                dir: self.events.as_fd(),
                procs: self.events.as_fd(),
            };
        }
        crate::spawner::CgroupFds { dir: self.dir_fd.as_fd(), procs: self.procs.as_fd() }
    }

    /// Whether a live process is in the cgroup.
    pub(crate) fn populated(&self) -> bool {
        let mut buf = [0u8; 128];
        let n = self.events.read_at(&mut buf, 0).unwrap_or(0);
        let text = buf.get(..n).unwrap_or_default();
        // `populated 0` when empty; anything unreadable counts as populated (kill it).
        !text.split(|b| *b == b'\n').any(|l| l == b"populated 0")
    }

    /// Kills every process in the cgroup: `cgroup.kill`, or freeze, kill each, thaw; then
    /// lifts its CPU limit, if it has one, so that members the limit throttles die now rather
    /// than at its next period (a killed run is never used again).
    pub(crate) fn kill(&self, has_kill: bool) {
        self.killed.store(true, Ordering::Relaxed);
        kill_dir(&self.dir, has_kill);
        if self.written.as_ref().is_some_and(|(l, mask)| mask[2] && l.cpu_max.is_some()) {
            let _ = write_file(&self.dir.join("cpu.max"), CPU_UNLIMITED);
        }
    }
}

/// Kills every process in the cgroup at `dir` and below.
fn kill_dir(dir: &Path, has_kill: bool) {
    if has_kill && write_file(&dir.join("cgroup.kill"), "1").is_ok() {
        return;
    }
    freeze_kill(dir);
}

/// Freezes the cgroup (no member can fork any more), sends SIGKILL to every member until
/// none is listed (a frozen process still dies of SIGKILL), then thaws it. Bounded.
fn freeze_kill(dir: &Path) {
    let frozen = write_file(&dir.join("cgroup.freeze"), "1").is_ok();
    let dirs: Vec<PathBuf> = std::iter::once(dir.to_owned()).chain(subdirs(dir)).collect();
    kill_listed_until_empty(&dirs, 64);
    if frozen {
        let _ = write_file(&dir.join("cgroup.freeze"), "0");
    }
}

/// SIGKILLs every process listed in the `cgroup.procs` of `dirs` (never PID 1 or this process),
/// again until a pass finds none or `passes` are done.
fn kill_listed_until_empty(dirs: &[PathBuf], passes: u32) {
    for pass in 0..passes {
        let mut any = false;
        for d in dirs {
            let Ok(list) = fs::read_to_string(d.join("cgroup.procs")) else { continue };
            for pid in list.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                if pid > 1 && pid != std::process::id() as i32 {
                    any = true;
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
            }
        }
        if !any {
            break;
        }
        pause(pass);
    }
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

fn limit_text(v: Option<u64>) -> String {
    v.map_or_else(|| "max".to_owned(), |n| n.to_string())
}

fn write_file(path: &Path, text: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// Enables the memory, pids and cpu controllers for the runs, as far as `parent` delegates
/// them (never changing `parent` itself, which is the embedding process's own cgroup).
#[cfg(target_os = "linux")]
fn enable_controllers(tree: &Path, parent: &Path) -> (Controllers, String) {
    // One read into a small buffer (three system calls, where `read_to_string` makes five).
    let mut buf = [0u8; 256];
    let path = tree.join("cgroup.controllers");
    let have = path.to_str().and_then(|p| read_proc_file(p, &mut buf)).unwrap_or_default();
    let has = |c: &str| have.split_whitespace().any(|w| w == c);
    let mut c = Controllers::default();
    for (name, slot) in [("memory", &mut c.memory), ("pids", &mut c.pids), ("cpu", &mut c.cpu)] {
        *slot = has(name)
            && write_file(&tree.join("cgroup.subtree_control"), &format!("+{name}")).is_ok();
    }
    let missing: Vec<&str> = [("memory", c.memory), ("pids", c.pids), ("cpu", c.cpu)]
        .into_iter()
        .filter(|(_, on)| !on)
        .map(|(n, _)| n)
        .collect();
    let note = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "the {} controller{} {} not delegated to {} (its cgroup.subtree_control); those limits are not applied",
            missing.join(", "),
            if missing.len() > 1 { "s" } else { "" },
            if missing.len() > 1 { "are" } else { "is" },
            parent.display()
        )
    };
    (c, note)
}

/// The folder the engine's cgroup v2 tree is made in: `parent` if given, else the engine's
/// own cgroup.
#[cfg(target_os = "linux")]
fn parent_dir(parent: Option<&Path>) -> Result<PathBuf, CgroupSetupError> {
    match parent {
        Some(p) => Ok(p.to_owned()),
        None => own_cgroup(),
    }
}

/// The engine's own cgroup v2 directory: the `0::` line of `/proc/self/cgroup` under the
/// cgroup2 mount of `/proc/self/mountinfo`.
#[cfg(target_os = "linux")]
fn own_cgroup() -> Result<PathBuf, CgroupSetupError> {
    let rel =
        v2_membership(self_file(SelfFile::Cgroup)?).ok_or(CgroupSetupError::NoV2Membership)?;
    let mounts = self_file(SelfFile::Mountinfo)?;
    let dir = v2_mount(mounts).ok_or(CgroupSetupError::V2NotMounted)?.dir_of(rel);
    if dir.is_dir() { Ok(dir) } else { Err(CgroupSetupError::Missing { dir }) }
}

/// A file of `/proc/self` the cgroup set-up reads.
#[cfg(target_os = "linux")]
#[derive(Debug, Clone, Copy)]
pub(crate) enum SelfFile {
    /// `/proc/self/mountinfo`: where the cgroup hierarchies are mounted.
    Mountinfo,
    /// `/proc/self/cgroup`: the engine's cgroup in each.
    Cgroup,
}

/// `file`, read once per process: the cgroup v2 probe and the cgroup v1 hierarchies' discovery
/// both read both, at the same first run. `/proc/self/cgroup` is read first and whole;
/// `/proc/self/mountinfo` only as far as the first mount of every hierarchy the engine is in
/// ([`read_mounts`]): the kernel formats each line of it at the read, and machines with
/// hundreds of mounts (one per container layer, snap or bind) made every engine pay for all of
/// them (`specs/dispatch.md`, "The engine's cgroup tree").
#[cfg(target_os = "linux")]
pub(crate) fn self_file(file: SelfFile) -> Result<&'static str, CgroupSetupError> {
    // A failed read is kept as its kind and text (an `io::Error` cannot be cloned) and given
    // back to each caller as an error of the same kind.
    static FILES: OnceLock<[Result<String, (io::ErrorKind, String)>; 2]> = OnceLock::new();
    const PATHS: [&str; 2] = ["/proc/self/mountinfo", "/proc/self/cgroup"];
    let files = FILES.get_or_init(|| {
        let own = read_whole(PATHS[1]);
        let wanted = Wanted::of(own.as_deref().ok());
        let mounts = File::open(PATHS[0]).and_then(|mut f| read_mounts(&mut f, wanted));
        [mounts, own].map(|r| r.map_err(|e| (e.kind(), e.to_string())))
    });
    let i = match file {
        SelfFile::Mountinfo => 0,
        SelfFile::Cgroup => 1,
    };
    match &files[i] {
        Ok(text) => Ok(text.as_str()),
        Err((kind, why)) => Err(CgroupSetupError::ReadProc {
            path: PathBuf::from(PATHS[i]),
            source: io::Error::new(*kind, why.clone()),
        }),
    }
}

/// The fields of one `mountinfo` line the cgroup set-up reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mount<'a> {
    /// The folder of the file system mounted here (`/`, or a sub-tree's).
    pub(crate) root: &'a str,
    /// Where it is mounted, escaped as `mountinfo` escapes it ([`unescape`]).
    pub(crate) point: &'a str,
    /// `cgroup2`, `cgroup`, `tmpfs`…
    pub(crate) fstype: &'a str,
    /// The file system's options (a cgroup v1 mount's controllers are among them).
    pub(crate) options: &'a str,
}

impl<'a> Mount<'a> {
    /// `line` read as a `mountinfo` line: `None` when it is none.
    pub(crate) fn of(line: &'a str) -> Option<Mount<'a>> {
        let (pre, post) = line.split_once(" - ")?;
        let mut post = post.split_whitespace();
        let fstype = post.next()?;
        let options = post.nth(1).unwrap_or("");
        let mut f = pre.split_whitespace();
        let root = f.nth(3)?;
        let point = f.next()?;
        Some(Mount { root, point, fstype, options })
    }

    /// Whether it is the cgroup v2 hierarchy.
    fn is_v2(&self) -> bool {
        self.fstype == "cgroup2"
    }

    /// Whether it is a cgroup v1 hierarchy with `controller`.
    fn is_v1_of(&self, controller: &str) -> bool {
        self.fstype == "cgroup" && self.options.split(',').any(|o| o == controller)
    }

    /// The folder of the cgroup `rel` (a path of `/proc/self/cgroup`, from the hierarchy's
    /// root) under this mount: a mount of a sub-tree (in a cgroup namespace the root is `/`)
    /// has its root stripped first.
    pub(crate) fn dir_of(&self, rel: &str) -> PathBuf {
        let rel = rel
            .strip_prefix(self.root.trim_end_matches('/'))
            .unwrap_or(rel)
            .trim_start_matches('/');
        Path::new(&unescape(self.point)).join(rel)
    }
}

/// The first cgroup2 mount of `mounts`.
pub(crate) fn v2_mount(mounts: &str) -> Option<Mount<'_>> {
    mounts.lines().filter_map(Mount::of).find(Mount::is_v2)
}

/// The first cgroup v1 mount of `mounts` with `controller`.
pub(crate) fn v1_mount<'a>(mounts: &'a str, controller: &str) -> Option<Mount<'a>> {
    mounts.lines().filter_map(Mount::of).find(|m| m.is_v1_of(controller))
}

/// The engine's cgroup in the v2 hierarchy, from its `/proc/self/cgroup` (`own`): the path of
/// its `0::` line.
pub(crate) fn v2_membership(own: &str) -> Option<&str> {
    own.lines().find_map(|l| l.strip_prefix("0::")).map(str::trim)
}

/// The engine's cgroup in the v1 hierarchy of `controller`, from its `/proc/self/cgroup`
/// (`own`): the path of the first `<id>:<controllers>:<path>` line that names it.
pub(crate) fn v1_membership<'a>(own: &'a str, controller: &str) -> Option<&'a str> {
    own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let _id = parts.next()?;
        let ctrls = parts.next()?;
        let path = parts.next()?;
        ctrls.split(',').any(|c| c == controller).then(|| path.trim())
    })
}

/// The mounts of `mountinfo` the set-up looks up, by the engine's `/proc/self/cgroup`: the
/// cgroup2 mount when it has a `0::` line, and the v1 mount of each controller of
/// [`Resource::ALL`] one of its lines names (a hierarchy it is in; one it is not in has no
/// mount either: `/proc/self/cgroup` lists every hierarchy of the kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wanted {
    v2: bool,
    v1: [bool; 3],
}

impl Wanted {
    /// What `own` (`/proc/self/cgroup`, `None` when unreadable: everything) asks for.
    pub(crate) fn of(own: Option<&str>) -> Wanted {
        let Some(own) = own else { return Wanted { v2: true, v1: [true; 3] } };
        let mut v1 = [false; 3];
        for r in Resource::ALL {
            v1[r.index()] = v1_membership(own, r.as_str()).is_some();
        }
        Wanted { v2: v2_membership(own).is_some(), v1 }
    }

    /// Crosses off what `line` gives.
    fn found(&mut self, line: &str) {
        let Some(m) = Mount::of(line) else { return };
        if m.is_v2() {
            self.v2 = false;
        }
        for r in Resource::ALL {
            if m.is_v1_of(r.as_str()) {
                self.v1[r.index()] = false;
            }
        }
    }

    fn all_found(&self) -> bool {
        !self.v2 && self.v1.iter().all(|w| !w)
    }
}

/// `mountinfo`, read from `r` in reads of 4 KiB up to the whole line that gives the last
/// mount `wanted` names, or to its end when one is missing: what [`v2_mount`] and
/// [`v1_mount`] find in it is what they find in the whole file, and the lines after it
/// (each formatted by the kernel at the read) are never asked for.
pub(crate) fn read_mounts(r: &mut impl io::Read, mut wanted: Wanted) -> io::Result<String> {
    const CHUNK: usize = 4 << 10;
    let mut buf = Vec::new();
    let mut scanned = 0;
    loop {
        if wanted.all_found() {
            buf.truncate(scanned);
            break;
        }
        let len = buf.len();
        buf.resize(len + CHUNK, 0);
        let n = loop {
            match r.read(buf.get_mut(len..).unwrap_or_default()) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        buf.truncate(len + n);
        if n == 0 {
            break;
        }
        // Only whole lines count: a read may end in the middle of one.
        while !wanted.all_found()
            && let Some(end) = buf.get(scanned..).and_then(|b| b.iter().position(|&c| c == b'\n'))
        {
            let line = buf.get(scanned..scanned + end).unwrap_or_default();
            wanted.found(std::str::from_utf8(line).unwrap_or(""));
            scanned += end + 1;
        }
    }
    String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// A `/proc` file read whole into a buffer of 8 KiB to start with (doubled while full): an
/// `open`, two `read`s (the second sees its end) and a `close` for files up to that size,
/// where `fs::read_to_string` makes a `statx` (which says 0 for `/proc` files) and a `read`
/// per doubling of its buffer from 32 bytes.
#[cfg(target_os = "linux")]
fn read_whole(path: &str) -> io::Result<String> {
    use std::io::Read;
    let mut f = File::open(path)?;
    // Not `read_to_end`: it asks for the size (`statx`) and the offset (`lseek`) first.
    let mut buf = vec![0u8; 8 << 10];
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        match f.read(buf.get_mut(len..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(len);
    String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// `mountinfo` escapes spaces and a few other bytes as `\ooo`.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 4 <= b.len()
            && let Ok(v) =
                u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 4]).unwrap_or("x"), 8)
        {
            out.push(v);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The name of the user's tree, cgroup v2 and v1 alike, shared by the user's engine processes:
/// `agent-hooks.u<uid>` (the effective uid: the one that owns the folders it makes).
pub(crate) fn shared_name() -> String {
    format!("agent-hooks.u{}", euid())
}

/// The effective uid, asked once per process.
fn euid() -> u32 {
    static EUID: OnceLock<u32> = OnceLock::new();
    *EUID.get_or_init(|| rustix::process::geteuid().as_raw())
}

/// What this engine's run cgroups' names start with in the shared trees: `<pid>.<start time>.`
/// (the start time tells this engine from a later process with the same pid).
pub(crate) fn run_prefix() -> String {
    format!("{}.{}.", std::process::id(), start_time())
}

/// Why the user's shared tree cannot be used.
#[cfg(target_os = "linux")]
pub(crate) enum SharedError {
    /// It could not be made.
    Create(io::Error),
    /// It was found made, and is not this user's folder.
    Bad(CgroupSetupError),
}

/// Makes the user's shared tree at `dir` unless it exists, in which case it is checked
/// ([`check_shared`]): whether it was made now. A tree found made is looked at first (one
/// `statx`), so a later engine makes no `mkdir`.
#[cfg(target_os = "linux")]
pub(crate) fn make_shared(dir: &Path) -> Result<bool, SharedError> {
    if let Ok(m) = fs::symlink_metadata(dir) {
        check_shared_meta(dir, &m).map_err(SharedError::Bad)?;
        return Ok(false);
    }
    match fs::create_dir(dir) {
        Ok(()) => {
            #[cfg(test)]
            TREE_MKDIRS.fetch_add(1, Ordering::Relaxed);
            Ok(true)
        }
        // Made meanwhile by another engine.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            check_shared(dir).map_err(SharedError::Bad)?;
            Ok(false)
        }
        Err(e) => Err(SharedError::Create(e)),
    }
}

/// Checks the user's shared tree found already made (by another engine of the user, or one
/// that is gone): a folder, not a link, owned by this user. A folder of another owner (made
/// there by someone who may write our cgroup) is not used: its owner could change our runs'
/// limits or kill them; the mechanism then falls back with the reason.
#[cfg(target_os = "linux")]
pub(crate) fn check_shared(dir: &Path) -> Result<(), CgroupSetupError> {
    let m = fs::symlink_metadata(dir)
        .map_err(|e| CgroupSetupError::SharedTree { dir: dir.to_owned(), why: e.to_string() })?;
    check_shared_meta(dir, &m)
}

/// [`check_shared`] on the folder's metadata, read with `lstat`.
#[cfg(target_os = "linux")]
fn check_shared_meta(dir: &Path, m: &fs::Metadata) -> Result<(), CgroupSetupError> {
    use std::os::unix::fs::MetadataExt;
    let bad = |why: String| CgroupSetupError::SharedTree { dir: dir.to_owned(), why };
    if !m.file_type().is_dir() {
        return Err(bad("not a folder".to_owned()));
    }
    let me = euid();
    if m.uid() != me {
        return Err(bad(format!("owned by uid {}, not {me}", m.uid())));
    }
    Ok(())
}

/// The run cgroups of this engine in the shared tree `dir` (names starting with `prefix`).
fn own_runs(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(prefix)))
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// The engine a run cgroup of a shared tree belongs to: `(pid, start time)` from its name
/// `<pid>.<start>.<n>`; `None` for any other name.
pub(crate) fn run_owner(name: &str) -> Option<(u32, u64)> {
    let mut parts = name.split('.');
    let pid = parts.next()?.parse().ok()?;
    let start = parts.next()?.parse().ok()?;
    let _n: u64 = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((pid, start))
}

/// Kills and removes the run cgroups of engines that are gone in the shared tree `dir` (an
/// engine and its reaper both killed, or a reaper that could not finish): one `getdents` of the
/// tree and one `/proc/<pid>/stat` read per other engine it holds runs of, whatever the number
/// of processes on the machine. `has_kill`: a cgroup v2 tree (with `cgroup.kill` or not);
/// `None`: a cgroup v1 tree (members SIGKILLed one by one). A run whose killed members have not
/// finished dying stays until a later sweep: the sweep waits for them [`SWEEP_WAIT`] yields in
/// all, never sleeps, so runs full of processes that die slowly (or never: uninterruptible
/// sleep) cannot hold up an engine's first hook.
#[cfg(target_os = "linux")]
pub(crate) fn sweep_dead_runs(dir: &Path, has_kill: Option<bool>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let me = std::process::id();
    let mut budget = SWEEP_WAIT;
    let mut alive: Vec<((u32, u64), bool)> = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some((pid, start)) = name.to_str().and_then(run_owner) else { continue };
        if pid == me {
            continue;
        }
        let live = match alive.iter().find(|(k, _)| *k == (pid, start)) {
            Some((_, l)) => *l,
            None => {
                let l = start_time_of(&pid.to_string()) == Some(start);
                alive.push(((pid, start), l));
                l
            }
        };
        if live {
            continue;
        }
        let run = e.path();
        match has_kill {
            Some(k) => kill_dir(&run, k),
            None => kill_listed_until_empty(std::slice::from_ref(&run), 8),
        }
        // Killed members stay listed while the kernel ends them. A run already gone (its
        // engine's reaper removed it meanwhile) is not waited for.
        while budget > 0 {
            match fs::remove_dir(&run) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {}
                _ => break,
            }
            budget -= 1;
            std::thread::yield_now();
        }
    }
}

/// The shared trees found made whose runs of engines that are gone are still to be swept
/// ([`sweep_later`], [`sweep_pending`]), with their kind as [`sweep_dead_runs`] takes it.
#[cfg(target_os = "linux")]
static SWEEPS: Mutex<Vec<(PathBuf, Option<bool>)>> = Mutex::new(Vec::new());

/// Leaves the sweep of the shared tree `dir` ([`sweep_dead_runs`]) to [`sweep_pending`]: the
/// first hook's start comes first. A one-shot engine (a process per agent event) found the
/// trees made at every event and listed each before its hook could start; the listing now
/// runs while the hook's first process `exec`s (`specs/dispatch.md`, "One-shot `hooks fire`
/// and `hooks bridge`", session 8). What it kills is no run of this engine's, and a run of a
/// gone engine ends a few hundred microseconds later than it did.
#[cfg(target_os = "linux")]
pub(crate) fn sweep_later(dir: PathBuf, has_kill: Option<bool>) {
    SWEEPS.lock().unwrap_or_else(PoisonError::into_inner).push((dir, has_kill));
}

/// Sweeps the trees left by [`sweep_later`]: called once a hook was started (or could not
/// be), and by the containment report, which starts none. One uncontended lock when none is
/// left.
pub(crate) fn sweep_pending() {
    #[cfg(target_os = "linux")]
    {
        let pending = std::mem::take(&mut *SWEEPS.lock().unwrap_or_else(PoisonError::into_inner));
        for (dir, has_kill) in pending {
            sweep_dead_runs(&dir, has_kill);
        }
    }
}

/// The yields a sweep of dead engines' runs waits for their killed members in all.
#[cfg(target_os = "linux")]
const SWEEP_WAIT: u32 = 200;

/// A short wait between passes: a yield for the first hundred, then a millisecond.
fn pause(pass: u32) {
    if pass < 100 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The tree folders made (a tree found made is not counted), for the tests of the shared tree.
#[cfg(test)]
pub(crate) static TREE_MKDIRS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// This process's start time in clock ticks since boot (field 22 of `/proc/self/stat`), so
/// that a tree's name identifies its engine even after its pid is reused.
pub(crate) fn start_time() -> u64 {
    // Read once: every tree name and the tag token need it.
    static START: OnceLock<u64> = OnceLock::new();
    *START.get_or_init(|| start_time_of("self").unwrap_or(0))
}

fn start_time_of(pid: &str) -> Option<u64> {
    let mut buf = [0u8; 1024];
    let stat = read_proc_file(&format!("/proc/{pid}/stat"), &mut buf)?;
    let after = stat.rsplit_once(')')?.1;
    after.split_whitespace().nth(19)?.parse().ok()
}

/// A small `/proc` file read whole with one `read` into `buf` (open, read, close: three system
/// calls, where `fs::read_to_string` makes a `statx` and a read per doubling of its buffer,
/// nine or ten for `/proc/self/stat` and `status`). `None` when unreadable or when it fills
/// `buf` (it may be longer: then the rest is read after it, into a copy).
pub(crate) fn read_proc_file<'b>(
    path: &str,
    buf: &'b mut [u8],
) -> Option<std::borrow::Cow<'b, str>> {
    use std::io::Read;
    let mut f = File::open(path).ok()?;
    let n = f.read(buf).ok()?;
    if n < buf.len() {
        return std::str::from_utf8(buf.get(..n)?).ok().map(std::borrow::Cow::Borrowed);
    }
    let mut rest = buf.to_vec();
    f.read_to_end(&mut rest).ok()?;
    String::from_utf8(rest).ok().map(std::borrow::Cow::Owned)
}

/// Kills and removes the trees of engines that are gone (a crashed engine whose reaper was
/// killed too): `agent-hooks.<pid>.<start>` whose pid is dead or started at another time.
#[cfg(target_os = "linux")]
fn remove_stale_trees(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("agent-hooks.")) else {
            continue;
        };
        let Some((pid, start)) = rest.split_once('.') else { continue };
        let (Ok(pid_n), Ok(start)) = (pid.parse::<u32>(), start.parse::<u64>()) else { continue };
        if pid_n == std::process::id() || start_time_of(pid) == Some(start) {
            continue;
        }
        let dir = e.path();
        kill_dir(&dir, dir.join("cgroup.kill").is_file());
        for d in subdirs(&dir) {
            let _ = fs::remove_dir(d);
        }
        let _ = fs::remove_dir(&dir);
    }
}

/// Removes the trees of engines that are gone from a cgroup v1 hierarchy's `parent`: their
/// members (a dead engine's hooks) are SIGKILLed, then the folders removed (v1 has no
/// `cgroup.kill`).
#[cfg(target_os = "linux")]
pub(crate) fn remove_stale_v1_trees(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("agent-hooks.")) else {
            continue;
        };
        let Some((pid, start)) = rest.split_once('.') else { continue };
        let (Ok(pid_n), Ok(start)) = (pid.parse::<u32>(), start.parse::<u64>()) else { continue };
        if pid_n == std::process::id() || start_time_of(pid) == Some(start) {
            continue;
        }
        let dir = e.path();
        let runs = subdirs(&dir);
        kill_listed_until_empty(&runs, 8);
        for d in runs {
            let _ = fs::remove_dir(d);
        }
        let _ = fs::remove_dir(&dir);
    }
}

#[cfg(test)]
mod tests;
