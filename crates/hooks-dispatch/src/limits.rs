//! Per-hook resource limits (memory, processes, CPU), enforced by the strongest means the
//! machine allows, chosen per resource at run time (`specs/dispatch.md`, "Limits"):
//!
//! 1. **cgroup v2** (`memory.max`, `pids.max`, `cpu.max` on the run's own cgroup), when the
//!    run has one and the controller is delegated to the engine's tree;
//! 2. **cgroup v1** hierarchies (`memory.limit_in_bytes`, `pids.max`, `cpu.cfs_quota_us`) where
//!    the controller is mounted as a v1 hierarchy the engine may create cgroups in: each run
//!    gets a cgroup of its own there, which its first process joins before its `exec` by
//!    writing `0` to its `tasks` file (a single-thread move, which takes no global lock);
//! 3. **rlimits** set in the first process before its `exec` (`RLIMIT_DATA`, `RLIMIT_NPROC`,
//!    `RLIMIT_CPU`): inherited by every descendant, but counted per process (memory, CPU) or
//!    per user (processes), so they bound each process, not the run.
//!
//! Everything here is Linux; elsewhere no limit is enforced and the report says so.

use std::{
    fmt,
    fs::{self, File, OpenOptions},
    io::{self, Write},
    os::{fd::AsFd, unix::fs::OpenOptionsExt},
    path::{Path, PathBuf},
    sync::{
        OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

#[cfg(target_os = "linux")]
use crate::contain::CgroupSetupError;
use crate::contain::Proof;
use crate::{
    config::HookLimits,
    runs::{RunDir, Runs},
};

/// A limited resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// Memory ([`HookLimits::memory_max`]).
    Memory,
    /// Processes and threads ([`HookLimits::pids_max`]).
    Pids,
    /// CPU time ([`HookLimits::cpu_max`]).
    Cpu,
}

impl Resource {
    /// Every resource.
    pub const ALL: [Resource; 3] = [Resource::Memory, Resource::Pids, Resource::Cpu];

    /// Its name (`memory`, `pids`, `cpu`), also the cgroup controller's.
    pub fn as_str(self) -> &'static str {
        match self {
            Resource::Memory => "memory",
            Resource::Pids => "pids",
            Resource::Cpu => "cpu",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Resource::Memory => 0,
            Resource::Pids => 1,
            Resource::Cpu => 2,
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a limit is enforced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Enforcement {
    /// The run's cgroup v2 (the whole run, kernel-enforced).
    CgroupV2,
    /// A cgroup of the run in a cgroup v1 hierarchy (the whole run, kernel-enforced, unless a
    /// process may move itself out: root).
    CgroupV1,
    /// An rlimit of the run's first process, inherited by its descendants (per process, or
    /// per user for processes).
    Rlimit,
}

impl Enforcement {
    /// Every enforcement, strongest first.
    pub const ALL: [Enforcement; 3] =
        [Enforcement::CgroupV2, Enforcement::CgroupV1, Enforcement::Rlimit];

    /// Its name in reports and on the command line (`cgroup-v2`, `cgroup-v1`, `rlimit`).
    pub fn as_str(self) -> &'static str {
        match self {
            Enforcement::CgroupV2 => "cgroup-v2",
            Enforcement::CgroupV1 => "cgroup-v1",
            Enforcement::Rlimit => "rlimit",
        }
    }

    /// The file or rlimit that carries `resource`'s limit.
    pub fn control(self, resource: Resource) -> &'static str {
        match (self, resource) {
            (Enforcement::CgroupV2, Resource::Memory) => "memory.max",
            (Enforcement::CgroupV2, Resource::Pids) => "pids.max",
            (Enforcement::CgroupV2, Resource::Cpu) => "cpu.max",
            (Enforcement::CgroupV1, Resource::Memory) => "memory.limit_in_bytes",
            (Enforcement::CgroupV1, Resource::Pids) => "pids.max",
            (Enforcement::CgroupV1, Resource::Cpu) => "cpu.cfs_quota_us",
            (Enforcement::Rlimit, Resource::Memory) => "RLIMIT_DATA",
            (Enforcement::Rlimit, Resource::Pids) => "RLIMIT_NPROC",
            (Enforcement::Rlimit, Resource::Cpu) => "RLIMIT_CPU",
        }
    }

    /// What the enforcement guarantees for `resource` (`specs/dispatch.md`, "Limits").
    pub fn guarantee(self, resource: Resource) -> &'static str {
        match (self, resource) {
            (Enforcement::CgroupV2 | Enforcement::CgroupV1, Resource::Memory) => {
                "the whole run; the kernel's OOM killer ends a process of the run at the limit"
            }
            (Enforcement::CgroupV2 | Enforcement::CgroupV1, Resource::Pids) => {
                "the whole run; fork and clone fail at the limit"
            }
            (Enforcement::CgroupV2 | Enforcement::CgroupV1, Resource::Cpu) => {
                "the whole run; throttled to the quota per period"
            }
            (Enforcement::Rlimit, Resource::Memory) => {
                "per process (data segment and private writable mappings); a run of n processes may use n times the limit"
            }
            (Enforcement::Rlimit, Resource::Pids) => {
                "per user: counts every process of the hook's user, so it is set to the limit plus the user's processes when the engine started"
            }
            (Enforcement::Rlimit, Resource::Cpu) => {
                "per process: CPU seconds of the quota's share of the timeout (SIGXCPU, then SIGKILL a second later)"
            }
        }
    }
}

impl fmt::Display for Enforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which enforcement a dispatcher asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LimitsVia {
    /// For each resource, the strongest the machine allows: cgroup v2, else cgroup v1, else
    /// rlimits.
    #[default]
    Auto,
    /// Only this enforcement; resources it cannot enforce here are not limited (reported).
    Only(Enforcement),
    /// No limit at all.
    Off,
}

impl LimitsVia {
    /// Its name (`auto`, `off` or an enforcement's name).
    pub fn as_str(self) -> &'static str {
        match self {
            LimitsVia::Auto => "auto",
            LimitsVia::Only(e) => e.as_str(),
            LimitsVia::Off => "off",
        }
    }

    /// The choice a name stands for (`auto`, `cgroup-v2`, `cgroup-v1`, `rlimit`, `off`).
    pub fn parse(name: &str) -> Option<LimitsVia> {
        match name {
            "auto" => Some(LimitsVia::Auto),
            "off" => Some(LimitsVia::Off),
            other => {
                Enforcement::ALL.into_iter().find(|e| e.as_str() == other).map(LimitsVia::Only)
            }
        }
    }
}

/// One limit in force: the resource, how it is enforced and the file or rlimit carrying it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitInForce {
    /// The resource.
    pub resource: Resource,
    /// How.
    pub via: Enforcement,
    /// The cgroup file or the rlimit.
    pub control: &'static str,
}

/// For each resource, how this dispatcher enforces it (`None`: not limited).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    by: [Option<Enforcement>; 3],
}

impl Plan {
    pub(crate) fn of(&self, r: Resource) -> Option<Enforcement> {
        self.by[r.index()]
    }

    /// Resolves `via` for each resource against what is available (`v2` says which
    /// controllers the run's cgroup v2 has; `None` when runs have no v2 cgroup).
    ///
    /// `wanted` says which resources some run may limit: a cgroup v1 tree is made (a `mkdir`
    /// and a check that a process can join it) only for those.
    pub(crate) fn resolve(
        via: LimitsVia,
        v2: Option<[bool; 3]>,
        avail: &Available,
        wanted: [bool; 3],
    ) -> Plan {
        let mut by = [None; 3];
        for r in Resource::ALL {
            let can = |e: Enforcement| match e {
                Enforcement::CgroupV2 => v2.is_some_and(|c| c[r.index()]),
                Enforcement::CgroupV1 => {
                    wanted[r.index()] && avail.v1.as_ref().is_some_and(|v| v.has(r))
                }
                Enforcement::Rlimit => avail.rlimit_why_not(r).is_none(),
            };
            by[r.index()] = match via {
                LimitsVia::Off => None,
                LimitsVia::Only(e) => can(e).then_some(e),
                LimitsVia::Auto => Enforcement::ALL.into_iter().find(|e| can(*e)),
            };
        }
        Plan { by }
    }

    /// The limits in force, and why each other resource is not limited.
    pub(crate) fn report(
        &self,
        via: LimitsVia,
        v2_note: Option<&str>,
        avail: &Available,
    ) -> (Vec<LimitInForce>, Option<String>) {
        let mut on = Vec::new();
        let mut why = Vec::new();
        for r in Resource::ALL {
            match self.of(r) {
                Some(e) => on.push(LimitInForce { resource: r, via: e, control: e.control(r) }),
                None if via == LimitsVia::Off => {}
                None => {
                    let mut reasons = Vec::new();
                    let asked = |e| matches!(via, LimitsVia::Auto) || via == LimitsVia::Only(e);
                    if asked(Enforcement::CgroupV2) {
                        reasons.push(format!(
                            "cgroup-v2: {}",
                            v2_note.unwrap_or("the controller is not delegated")
                        ));
                    }
                    if asked(Enforcement::CgroupV1) {
                        reasons.push(format!("cgroup-v1: {}", avail.v1_why_not(r)));
                    }
                    if asked(Enforcement::Rlimit) {
                        reasons.push(format!(
                            "rlimit: {}",
                            avail.rlimit_why_not(r).unwrap_or("not asked for")
                        ));
                    }
                    why.push(format!("{r} is not limited ({})", reasons.join("; ")));
                }
            }
        }
        let note = match via {
            LimitsVia::Off => Some("limits are off (asked for)".to_owned()),
            _ if why.is_empty() => None,
            _ => Some(why.join("; ")),
        };
        (on, note)
    }

    /// Whether any resource is limited.
    pub(crate) fn any(&self) -> bool {
        self.by.iter().any(Option::is_some)
    }
}

/// What the machine allows besides cgroup v2, probed once per engine process.
#[derive(Debug)]
pub(crate) struct Available {
    /// The engine's cgroup v1 trees, where any controller is usable.
    pub(crate) v1: Option<V1>,
    /// Why cgroup v1 is not usable at all.
    v1_note: String,
    /// Whether the engine's own spawner runs (rlimits are set by its child).
    spawner: bool,
    /// Whether the hooks' real user is root, for which `RLIMIT_NPROC` is not enforced.
    root: bool,
    /// The processes of the engine's real user, counted at the first run that needs them
    /// (a scan of `/proc`, so never at start-up).
    user_processes: OnceLock<u64>,
}

impl Available {
    fn rlimit_why_not(&self, r: Resource) -> Option<&'static str> {
        if !self.spawner {
            return Some("rlimits are set by the engine's own spawner, which is not in use");
        }
        (r == Resource::Pids && self.root).then_some(
            "the kernel does not enforce RLIMIT_NPROC for root or a process with CAP_SYS_RESOURCE",
        )
    }

    fn v1_why_not(&self, r: Resource) -> String {
        match &self.v1 {
            Some(v) => v.note(r).unwrap_or_else(|| "in use".to_owned()),
            None => self.v1_note.clone(),
        }
    }
}

/// The probe of this engine process.
pub(crate) fn available() -> &'static Available {
    static AVAILABLE: OnceLock<Available> = OnceLock::new();
    AVAILABLE.get_or_init(Available::probe)
}

impl Available {
    fn probe() -> Available {
        #[cfg(target_os = "linux")]
        {
            let spawner = crate::spawner::own_available();
            let (v1, v1_note) = if spawner {
                match V1::discover() {
                    Ok(v) => (Some(v), String::new()),
                    Err(why) => (None, why.to_string()),
                }
            } else {
                (
                    None,
                    "cgroup v1 cgroups are joined by the engine's own spawner, which is not in use"
                        .to_owned(),
                )
            };
            let root = rustix::process::getuid().is_root() || rustix::process::geteuid().is_root();
            Available { v1, v1_note, spawner, root, user_processes: OnceLock::new() }
        }
        #[cfg(not(target_os = "linux"))]
        Available {
            v1: None,
            v1_note: "cgroups exist on Linux only".to_owned(),
            spawner: false,
            root: false,
            user_processes: OnceLock::new(),
        }
    }
}

/// The processes of this process's real user, from `/proc/<pid>/status` (`Uid:` line).
#[cfg(target_os = "linux")]
fn user_processes() -> u64 {
    let uid = rustix::process::getuid().as_raw().to_string();
    let Ok(d) = fs::read_dir("/proc") else { return 0 };
    let mut n = 0;
    for e in d.flatten() {
        if !e.file_name().to_str().is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit())) {
            continue;
        }
        if let Ok(st) = fs::read_to_string(e.path().join("status"))
            && st.lines().any(|l| {
                l.strip_prefix("Uid:").and_then(|v| v.split_whitespace().next()) == Some(&uid)
            })
        {
            n += 1;
        }
    }
    n
}

/// The engine's trees in the cgroup v1 hierarchies of the memory, pids and cpu controllers.
///
/// The hierarchies are found at once (two files of `/proc/self` read); a resource's tree is
/// made the first time a dispatcher may limit that resource ([`V1::prepare`], [`V1::has`]): a
/// process that never limits the CPU (the default) makes no tree in the cpu hierarchy.
#[derive(Debug)]
pub(crate) struct V1 {
    /// Per resource, the folder its tree is made in (the engine's own cgroup in that
    /// hierarchy), or why there is none.
    parents: [Result<PathBuf, String>; 3],
    /// Per resource, the engine's tree in its hierarchy once made, or why it could not be.
    trees: [OnceLock<Result<V1Tree, String>>; 3],
}

impl V1 {
    /// Whether runs can be limited through `r`'s hierarchy (making its tree if not made yet).
    fn has(&self, r: Resource) -> bool {
        self.tree(r).is_some()
    }

    /// `r`'s tree, made and checked at the first call (unless a failed start found it
    /// unusable since: [`V1::prove`]).
    fn tree(&self, r: Resource) -> Option<&V1Tree> {
        let i = r.index();
        let parents = self.parents.get(i)?;
        self.trees
            .get(i)?
            .get_or_init(|| match parents {
                #[cfg(target_os = "linux")]
                Ok(parent) => V1Tree::create(r, parent).map_err(|e| e.to_string()),
                #[cfg(not(target_os = "linux"))]
                Ok(_) => Err("cgroups exist on Linux only".to_owned()),
                Err(why) => Err(why.clone()),
            })
            .as_ref()
            .ok()
            .filter(|t| t.proof.failed().is_none())
    }

    /// `r`'s tree if it was made (and no failed start found it unusable since).
    fn made(&self, r: Resource) -> Option<&V1Tree> {
        self.trees.get(r.index())?.get()?.as_ref().ok().filter(|t| t.proof.failed().is_none())
    }

    /// Whether runs can be limited through `r`'s tree as made (none made yet, or one a
    /// failed start found unusable: not).
    pub(crate) fn usable(&self, r: Resource) -> bool {
        self.made(r).is_some()
    }

    /// Records that a process joined `r`'s tree (a hook's first process, before its `exec`).
    pub(crate) fn proven(&self, r: Resource) {
        if let Some(t) = self.made(r) {
            t.proof.set_proven();
        }
    }

    /// Checks `r`'s tree if no process has joined it yet (a probe child): whether it failed
    /// the check, in which case it is removed and no run uses it any more.
    #[cfg(target_os = "linux")]
    pub(crate) fn prove(&self, r: Resource) -> bool {
        self.made(r).is_some_and(|t| t.proof.prove(|| t.check()))
    }

    /// Whether `r`'s tree was made (and checked).
    #[cfg(test)]
    pub(crate) fn is_made(&self, r: Resource) -> bool {
        self.made(r).is_some()
    }

    /// Why `r` cannot be limited through cgroup v1, if it cannot (`None` also while its tree
    /// was not made yet).
    fn note(&self, r: Resource) -> Option<String> {
        match (&self.parents[r.index()], self.trees[r.index()].get()) {
            (Err(why), _) | (_, Some(Err(why))) => Some(why.clone()),
            (_, Some(Ok(t))) => t.proof.failed().cloned(),
            _ => None,
        }
    }

    /// The tree folders made, for the report.
    pub(crate) fn dirs(&self) -> Vec<PathBuf> {
        Resource::ALL.into_iter().filter_map(|r| self.made(r)).map(|t| t.dir.clone()).collect()
    }

    /// Every folder a tree of this engine may be made in (made or not), for the reaper, which
    /// removes those that exist when the engine ends.
    pub(crate) fn tree_dirs(&self) -> Vec<PathBuf> {
        self.parents.iter().flatten().map(|p| p.join(crate::contain::shared_name())).collect()
    }

    /// Finds the hierarchies of the three controllers and the engine's cgroup in each; no tree
    /// is made.
    #[cfg(target_os = "linux")]
    fn discover() -> Result<V1, CgroupSetupError> {
        let mounts = crate::contain::self_file(crate::contain::SelfFile::Mountinfo)?;
        let own = crate::contain::self_file(crate::contain::SelfFile::Cgroup)?;
        let found = Resource::ALL.map(|r| v1_parent(r, mounts, own));
        if found.iter().all(Result::is_err) {
            let failed =
                Resource::ALL.into_iter().zip(found).filter_map(|(r, f)| f.err().map(|e| (r, e)));
            return Err(CgroupSetupError::NoV1(failed.collect()));
        }
        Ok(V1 {
            parents: found.map(|f| f.map_err(|e| e.to_string())),
            trees: [OnceLock::new(), OnceLock::new(), OnceLock::new()],
        })
    }

    /// Makes the trees of the `wanted` resources not made yet, without checking that a process
    /// can join them: the caller checks them all with one process ([`V1::checked`]).
    #[cfg(target_os = "linux")]
    pub(crate) fn prepare(&self, wanted: [bool; 3]) -> Vec<Unchecked> {
        let mut out = Vec::new();
        for r in Resource::ALL {
            let i = r.index();
            let (Some(true), Some(Ok(parent)), Some(None)) =
                (wanted.get(i), self.parents.get(i), self.trees.get(i).map(OnceLock::get))
            else {
                continue;
            };
            match V1Tree::create_unchecked(r, parent) {
                // No limit is written to this run: the first hook's own writes its, and a check
                // ([`V1Tree::check`]) writes none (unlimited) first.
                Ok(tree) => match tree.take_unwritten() {
                    Ok(run) => out.push(Unchecked { tree, run }),
                    Err(source) => {
                        let dir = tree.dir.clone();
                        tree.remove_all();
                        let why = CgroupSetupError::Join { dir, source }.to_string();
                        let _ = self.trees[i].set(Err(why));
                    }
                },
                Err(why) => {
                    let _ = self.trees[i].set(Err(why.to_string()));
                }
            }
        }
        out
    }

    /// Takes the trees [`V1::prepare`] made without checking them: the first hook that joins
    /// one proves it ([`V1::proven`]); a start that fails has the unproven ones it used checked
    /// ([`V1::prove`]).
    #[cfg(target_os = "linux")]
    pub(crate) fn unchecked(&self, made: Vec<Unchecked>) {
        for Unchecked { tree, run } in made {
            let i = tree.resource.index();
            // No process was started in it since it was found empty.
            tree.runs.pool(run);
            let _ = self.trees[i].set(Ok(tree));
        }
    }
    /// A run's cgroups for the resources `plan` enforces through v1, with `limits` written.
    pub(crate) fn take(&self, plan: &Plan, limits: &HookLimits) -> io::Result<[Option<V1Run>; 3]> {
        let mut out: [Option<V1Run>; 3] = [None, None, None];
        for r in Resource::ALL {
            let set = match r {
                Resource::Memory => limits.memory_max.is_some(),
                Resource::Pids => limits.pids_max.is_some(),
                Resource::Cpu => limits.cpu_max.is_some(),
            };
            // A resource without a limit costs the run no cgroup (and its first process no
            // write).
            if plan.of(r) != Some(Enforcement::CgroupV1) || !set {
                continue;
            }
            let Some(t) = self.made(r) else { continue };
            match t.take(limits) {
                Ok(run) => out[r.index()] = Some(run),
                Err(e) => {
                    self.finish(out);
                    return Err(e);
                }
            }
        }
        Ok(out)
    }

    /// Ends a run's use of its v1 cgroups.
    pub(crate) fn finish(&self, runs: [Option<V1Run>; 3]) {
        for (i, run) in runs.into_iter().enumerate() {
            if let (Some(run), Some(t)) = (run, Resource::ALL.get(i).and_then(|r| self.made(*r))) {
                t.finish(run);
            }
        }
    }
}

/// A tree made but not checked yet ([`V1::prepare`]), with a run cgroup for the check.
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub(crate) struct Unchecked {
    tree: V1Tree,
    run: V1Run,
}

/// The engine's own cgroup in `r`'s v1 hierarchy, from `/proc/self/mountinfo` (`mounts`) and
/// `/proc/self/cgroup` (`own`).
#[cfg(target_os = "linux")]
fn v1_parent(r: Resource, mounts: &str, own: &str) -> Result<PathBuf, CgroupSetupError> {
    let name = r.as_str();
    let mount = crate::contain::v1_mount(mounts, name)
        .ok_or(CgroupSetupError::NoV1Hierarchy { controller: name })?;
    let rel = crate::contain::v1_membership(own, name)
        .ok_or(CgroupSetupError::NoV1Membership { controller: name })?;
    Ok(mount.dir_of(rel))
}

/// The user's tree in one v1 hierarchy, shared by the user's engine processes:
/// `<own cgroup there>/agent-hooks.u<uid>`; this engine's runs in it are `<pid>.<start>.<n>`.
#[derive(Debug)]
struct V1Tree {
    resource: Resource,
    dir: PathBuf,
    /// What this engine's run cgroups' names start with.
    prefix: String,
    /// Whether `memory.memsw.limit_in_bytes` exists (swap accounting on).
    memsw: bool,
    /// Whether it was found to work, or not.
    proof: Proof,
    /// Its runs: empty ones pooled, killed or populated ones retired until they empty.
    runs: Runs<V1Run>,
    next: AtomicU64,
}

/// One run's cgroup in a v1 hierarchy.
#[derive(Debug)]
pub(crate) struct V1Run {
    dir: PathBuf,
    /// `tasks`, open for writing: the first process writes `0` to it.
    tasks: File,
    /// What tells whether members remain: `cgroup.procs`, or in the pids hierarchy
    /// `pids.current`, which also counts processes that exited and were not reaped yet (an
    /// orphan whose new parent does not reap it holds its slot), which `cgroup.procs` does
    /// not list.
    members: Members,
    written: Option<HookLimits>,
    /// Whether its CPU quota was lifted for a kill ([`V1Run::lift_cpu`]): its limits are then
    /// written again at its next use.
    lifted: std::sync::atomic::AtomicBool,
}

/// The file a run cgroup's members are read from ([`V1Run::populated`]).
#[derive(Debug)]
enum Members {
    /// `cgroup.procs`: empty when no process is left.
    Procs(File),
    /// `pids.current`: `0` when no process is left, reaped or not.
    Current(File),
}

impl RunDir for V1Run {
    fn dir(&self) -> &Path {
        &self.dir
    }

    fn populated(&self) -> bool {
        V1Run::populated(self)
    }
}

impl V1Run {
    /// Lifts the run's CPU quota (`cpu.cfs_quota_us`, `-1`) once its members were sent
    /// SIGKILL: members the quota throttles would otherwise run (and die) only at the next
    /// period, tens of milliseconds later, up to a whole period. The run's limits are written
    /// again at its next use. For the CPU hierarchy's run.
    pub(crate) fn lift_cpu(&self) {
        self.lifted.store(true, Ordering::Relaxed);
        let _ = write_file(&self.dir.join("cpu.cfs_quota_us"), "-1");
    }

    /// The `tasks` file the first process joins through.
    pub(crate) fn tasks(&self) -> std::os::fd::BorrowedFd<'_> {
        self.tasks.as_fd()
    }

    /// Whether a process (or, in the pids hierarchy, an unreaped one) is still counted in it:
    /// such a cgroup is never reused, since the next run would start with fewer processes.
    ///
    /// In the pids hierarchy `pids.current` alone answers: every task attached to the cgroup
    /// is charged to it (at its fork or its move) until it is released, so a process that
    /// `cgroup.procs` lists is counted there too. One `pread` per run, where reading both was
    /// two (and the `cgroup.procs` one builds the kernel's pid list).
    fn populated(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 24];
        // Anything unreadable counts as populated (never reused, removed once empty).
        match &self.members {
            Members::Current(f) => {
                f.read_at(&mut buf, 0).map_or(true, |n| buf.get(..n) != Some(b"0\n"))
            }
            Members::Procs(f) => f.read_at(&mut buf, 0).map_or(true, |n| n > 0),
        }
    }
}

#[cfg(target_os = "linux")]
impl V1Tree {
    /// Makes `r`'s tree in `parent` and checks that a process can join a run cgroup of it.
    fn create(r: Resource, parent: &Path) -> Result<V1Tree, CgroupSetupError> {
        let tree = V1Tree::create_unchecked(r, parent)?;
        tree.check()?;
        tree.proof.set_proven();
        Ok(tree)
    }

    /// Makes the user's tree for `r` in `parent` unless another engine did (then checks it
    /// and removes the runs of engines that are gone).
    fn create_unchecked(r: Resource, parent: &Path) -> Result<V1Tree, CgroupSetupError> {
        use crate::contain::SharedError;
        let dir = parent.join(crate::contain::shared_name());
        let made = crate::contain::make_shared(&dir).map_err(|e| match e {
            SharedError::Create(source) => {
                CgroupSetupError::CreateV1 { parent: parent.to_owned(), source }
            }
            SharedError::Bad(e) => e,
        })?;
        if made {
            // The per-engine trees of engines that are gone, made before the shared tree:
            // swept once, by the engine that makes it.
            crate::contain::remove_stale_v1_trees(parent);
        } else {
            crate::contain::sweep_later(dir.clone(), None);
        }
        let tree = V1Tree {
            resource: r,
            // Only the memory hierarchy has it (one `statx` less for the others).
            memsw: r == Resource::Memory && dir.join("memory.memsw.limit_in_bytes").is_file(),
            prefix: crate::contain::run_prefix(),
            dir,
            proof: Proof::default(),
            runs: Runs::default(),
            next: AtomicU64::new(0),
        };
        // Turned on by the engine that made the tree (children inherit it; the kernel takes
        // no change once the tree has children, and since Linux 5.16 it is always on); a tree
        // found made is read (one read), and one without it is not used.
        if r == Resource::Memory {
            // One read into a small buffer (a `read_to_string` is five system calls).
            let on = |t: &V1Tree| {
                let mut buf = [0u8; 16];
                let path = t.dir.join("memory.use_hierarchy");
                path.to_str()
                    .and_then(|p| crate::contain::read_proc_file(p, &mut buf))
                    .is_some_and(|v| v == "1\n")
            };
            let set = if made {
                write_file(&tree.dir.join("memory.use_hierarchy"), "1")
            } else {
                Err(io::Error::other("the tree found made has it off"))
            };
            if let Err(source) = set
                && !on(&tree)
            {
                if made {
                    let _ = fs::remove_dir(&tree.dir);
                }
                return Err(CgroupSetupError::MemoryHierarchy { source });
            }
        }
        Ok(tree)
    }

    /// The check: a child that joins a run cgroup and exits before any exec. A tree that
    /// fails it is removed.
    fn check(&self) -> Result<(), CgroupSetupError> {
        let checked = self.take(&HookLimits::UNLIMITED).and_then(|run| {
            let ok = crate::spawner::probe_v1_join(run.tasks());
            self.finish(run);
            ok
        });
        checked.map_err(|source| {
            self.remove_all();
            CgroupSetupError::Join { dir: self.dir.clone(), source }
        })
    }

    /// A run cgroup, empty, its limits as they are: pooled, claimed from another engine or
    /// made.
    fn take_unwritten(&self) -> io::Result<V1Run> {
        match self.runs.pooled().or_else(|| self.claim()) {
            Some(r) => Ok(r),
            None => self.make(),
        }
    }

    fn take(&self, limits: &HookLimits) -> io::Result<V1Run> {
        let mut run = self.take_unwritten()?;
        if run.written.as_ref() != Some(limits) {
            if let Err(e) = self.write_limits(&run.dir, limits, run.written.as_ref()) {
                // A run handed over by another engine that does not take the limit (memory
                // charged to it that the kernel cannot reclaim below it): set aside, and the
                // run made anew.
                if run.written.is_some() {
                    return Err(e);
                }
                self.runs.retire(run);
                run = self.make()?;
                self.write_limits(&run.dir, limits, run.written.as_ref())?;
            }
            run.written = Some(*limits);
        }
        Ok(run)
    }

    /// A new run cgroup, made.
    fn make(&self) -> io::Result<V1Run> {
        let dir = self.next_dir();
        fs::create_dir(&dir)?;
        // A new cgroup has no limit (`-1`, `max`): the probe's unlimited run writes nothing,
        // the first hook's writes its limits.
        self.open_run(dir, Some(HookLimits::UNLIMITED))
    }

    /// The next name of a run of this engine's.
    fn next_dir(&self) -> PathBuf {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        self.dir.join(format!("{}{n}", self.prefix))
    }

    /// The run cgroup at `dir`, its files open; `written`: its limits, when known.
    fn open_run(&self, dir: PathBuf, written: Option<HookLimits>) -> io::Result<V1Run> {
        let tasks = OpenOptions::new()
            .write(true)
            .custom_flags(nix::libc::O_CLOEXEC)
            .open(dir.join("tasks"))?;
        let members = match self.resource {
            Resource::Pids => Members::Current(File::open(dir.join("pids.current"))?),
            _ => Members::Procs(File::open(dir.join("cgroup.procs"))?),
        };
        Ok(V1Run { dir, tasks, members, written, lifted: Default::default() })
    }

    /// A run cgroup another engine of the user handed back when it ended ([`FREE_RUNS`]),
    /// renamed to this engine's next run: a `rename` (7–8 µs here) where a `mkdir` is 41 µs
    /// in the memory hierarchy, and its removal and the kernel's offlining of it are spared
    /// too. `None` when none is free (the first name missing ends the search). One that holds
    /// a process (one of the user's moved itself in) is set aside as this engine's, ended with
    /// its runs; its limits are unknown, so every one is written.
    fn claim(&self) -> Option<V1Run> {
        for free in FREE_RUNS {
            let dir = self.next_dir();
            let from = self.dir.join(free.to_str().unwrap_or_default());
            match fs::rename(&from, &dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
                Err(_) => continue,
            }
            #[cfg(test)]
            CLAIMS.set(CLAIMS.get() + 1);
            let Ok(run) = self.open_run(dir, None) else { continue };
            if run.populated() {
                self.runs.retire(run);
                continue;
            }
            return Some(run);
        }
        None
    }

    /// Writes `l` to the run cgroup at `dir`, whose limits are `prev` (`None`: unknown).
    fn write_limits(
        &self,
        dir: &Path,
        l: &HookLimits,
        prev: Option<&HookLimits>,
    ) -> io::Result<()> {
        match self.resource {
            Resource::Memory => {
                let v = l.memory_max.map_or_else(|| "-1".to_owned(), |n| n.to_string());
                // memsw (memory + swap) may never be below the memory limit: lift it first
                // when the new limit is above it, set the limit, then hold swap to it (a hog
                // is stopped, not slowed by swap). Its value is the last memory limit written
                // (a new cgroup's is unlimited: no lift, one write less at a first run).
                let lift = match (prev.map(|p| p.memory_max), l.memory_max) {
                    (Some(None), _) => false,
                    (Some(Some(was)), Some(new)) => new > was,
                    (None, _) | (Some(Some(_)), None) => true,
                };
                if self.memsw && lift {
                    write_file(&dir.join("memory.memsw.limit_in_bytes"), "-1")?;
                }
                write_file(&dir.join("memory.limit_in_bytes"), &v)?;
                if self.memsw {
                    write_file(&dir.join("memory.memsw.limit_in_bytes"), &v)?;
                }
            }
            Resource::Pids => {
                let v = l.pids_max.map_or_else(|| "max".to_owned(), |n| n.to_string());
                write_file(&dir.join("pids.max"), &v)?;
            }
            Resource::Cpu => match l.cpu_max {
                Some(c) => {
                    write_file(&dir.join("cpu.cfs_quota_us"), "-1")?;
                    write_file(&dir.join("cpu.cfs_period_us"), &c.period_us.to_string())?;
                    write_file(&dir.join("cpu.cfs_quota_us"), &c.quota_us.to_string())?;
                }
                None => write_file(&dir.join("cpu.cfs_quota_us"), "-1")?,
            },
        }
        Ok(())
    }

    fn finish(&self, mut run: V1Run) {
        if *run.lifted.get_mut() {
            *run.lifted.get_mut() = false;
            run.written = None;
        }
        let reusable = !run.populated();
        self.runs.give_back(run, reusable);
    }

    /// Removes this engine's empty runs (a tree that failed its check); the shared tree stays.
    fn remove_all(&self) {
        for run in self.runs.drain_pool() {
            let _ = fs::remove_dir(&run.dir);
        }
    }
}

#[cfg(not(target_os = "linux"))]
impl V1Tree {
    fn take(&self, _: &HookLimits) -> io::Result<V1Run> {
        Err(io::Error::other("cgroups exist on Linux only"))
    }

    fn finish(&self, _: V1Run) {}
}

/// The rlimits the first process of a run sets before its `exec`: `(resource, value)` pairs,
/// soft and hard limit alike except for CPU (hard one second above: `SIGXCPU`, then
/// `SIGKILL`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Rlimits {
    pub(crate) list: [(i32, u64, u64); 3],
    pub(crate) len: usize,
}

impl Rlimits {
    /// The rlimits of a run with `limits` and `timeout` under `plan`.
    #[cfg(target_os = "linux")]
    #[allow(clippy::unnecessary_cast, reason = "the resources' type differs between C libraries")]
    pub(crate) fn of(plan: &Plan, limits: &HookLimits, timeout: Duration) -> Rlimits {
        use nix::libc;
        let mut out = Rlimits::default();
        let mut push = |r: u32, soft: u64, hard: u64| {
            if let Some(slot) = out.list.get_mut(out.len) {
                *slot = (r as i32, soft, hard);
                out.len += 1;
            }
        };
        if plan.of(Resource::Memory) == Some(Enforcement::Rlimit)
            && let Some(m) = limits.memory_max
        {
            push(libc::RLIMIT_DATA as u32, m, m);
        }
        if plan.of(Resource::Pids) == Some(Enforcement::Rlimit)
            && let Some(p) = limits.pids_max
        {
            let n = p.saturating_add(*available().user_processes.get_or_init(user_processes));
            push(libc::RLIMIT_NPROC as u32, n, n);
        }
        if plan.of(Resource::Cpu) == Some(Enforcement::Rlimit)
            && let Some(c) = limits.cpu_max
            && c.period_us > 0
        {
            let secs = cpu_seconds(c.quota_us, c.period_us, timeout);
            push(libc::RLIMIT_CPU as u32, secs, secs.saturating_add(1));
        }
        out
    }

    /// The pairs to set.
    pub(crate) fn as_slice(&self) -> &[(i32, u64, u64)] {
        self.list.get(..self.len).unwrap_or_default()
    }
}

/// CPU seconds a process may use: the quota's share of the timeout, rounded up, at least one.
pub(crate) fn cpu_seconds(quota_us: u64, period_us: u64, timeout: Duration) -> u64 {
    let share = timeout.as_secs_f64() * quota_us as f64 / period_us.max(1) as f64;
    if share.is_finite() { (share.ceil() as u64).max(1) } else { u64::MAX }
}

fn write_file(path: &Path, text: &str) -> io::Result<()> {
    #[cfg(test)]
    WRITES.set(WRITES.get() + 1);
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// The names under which an ended engine's trees' reaper hands its empty cgroup v1 runs back
/// to the user's next engine (`sys::end_runs`), at most this many per hierarchy; the rest are
/// removed. Names no engine's runs have (`<pid>.<start>.<n>`), so no sweep of dead engines'
/// runs takes them.
#[cfg(target_os = "linux")]
pub(crate) const FREE_RUNS: [&std::ffi::CStr; 4] = [c"free.0", c"free.1", c"free.2", c"free.3"];

#[cfg(test)]
thread_local! {
    /// How many runs this thread claimed from [`FREE_RUNS`] (tests; per thread, so that the
    /// tests running beside one do not count).
    pub(crate) static CLAIMS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many limit files this thread wrote (tests count a run's writes).
    static WRITES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests;
