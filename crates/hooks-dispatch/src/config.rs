//! The dispatcher's settings and their defaults.

use std::{path::PathBuf, sync::OnceLock, time::Duration};

use hooks_schema::{FormatId, HookId, HookSourceId};

use crate::contain::Containment;

/// How the dispatcher runs hooks. Every size has a cap and every wait a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchConfig {
    /// How many hook processes (blocking and background, not detached) run at once.
    pub max_parallel_hooks: usize,
    /// stdout kept per run, head third and tail two thirds (256 KiB by default).
    pub stdout_cap: usize,
    /// stderr kept per run, head third and tail two thirds (256 KiB by default).
    pub stderr_cap: usize,
    /// The largest stdin plus input files a run may receive; above it nothing is spawned.
    pub payload_cap: usize,
    /// The largest result file read back (1 MiB by default); above it the result is marked
    /// truncated and only its head is kept.
    pub result_file_cap: usize,
    /// On timeout the group gets SIGTERM, then SIGKILL after this grace; zero sends SIGKILL
    /// at once.
    pub kill_grace: Duration,
    /// After the direct child exits, how long to keep reading pipes that something else in
    /// its group still holds open; then that group is killed and reading stops.
    pub pipe_grace: Duration,
    /// Where provided files (`tmp/`), detached hooks' logs (`logs/`) and the durable outbox
    /// (`outbox/`) live. `None`: provided files go to a private folder under the system
    /// temporary directory, and durable delivery is best effort.
    pub runtime_dir: Option<PathBuf>,
    /// Formats whose hooks may run concurrently on gated events (their own semantics run
    /// hooks in parallel). The fold stays in binding order. Empty by default: gated events
    /// run their blocking hooks one after the other, each seeing earlier rewrites.
    pub parallel_gated_formats: Vec<FormatId>,
    /// How long a pending outbox job must have waited since its last start before
    /// `recover_outbox` retries it.
    pub outbox_retry_age: Duration,
    /// How many starts a durable job gets before it is moved to `failed/`.
    pub outbox_max_retries: u32,
    /// Which containment runs use (`Auto`: the strongest the machine allows; see
    /// `specs/dispatch.md`, "Containment").
    pub containment: Containment,
    /// The cgroup v2 directory the engine's cgroup tree is made in; `None`: the engine's own
    /// cgroup. Point it at a delegated cgroup with the memory, pids and cpu controllers
    /// enabled in its `cgroup.subtree_control` to get limits where the engine's own cgroup
    /// cannot delegate them. Only the first dispatcher of a process decides it.
    pub cgroup_parent: Option<PathBuf>,
    /// The resource limits of every hook run (cgroup mechanisms with the controllers
    /// delegated); [`HookLimits::default`] by default.
    pub limits: HookLimits,
    /// Limits for particular hooks, instead of `limits`; the first rule that matches wins.
    pub hook_limits: Vec<HookLimitRule>,
}

/// Resource limits of one hook run, applied through its cgroup (`memory.max`, `pids.max`,
/// `cpu.max`). `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookLimits {
    /// Memory, in bytes (`memory.max`; swap is not allowed around it).
    pub memory_max: Option<u64>,
    /// Processes and threads (`pids.max`).
    pub pids_max: Option<u64>,
    /// CPU time per period (`cpu.max`).
    pub cpu_max: Option<CpuMax>,
}

/// A CPU bandwidth limit: `quota_us` of CPU time per `period_us` of wall time (a quota of
/// twice the period is two full cores).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuMax {
    /// CPU time allowed per period, in microseconds.
    pub quota_us: u64,
    /// The period, in microseconds (100 000 is the kernel's default).
    pub period_us: u64,
}

impl Default for HookLimits {
    /// The defaults (`specs/dispatch.md`, "Limits"): at most 4096 processes and threads, which
    /// stops a fork bomb long before it exhausts the machine's process table (32 768 by
    /// default) yet leaves room for a parallel build; at most half of the machine's memory,
    /// so a runaway hook is stopped before it takes the agent down with it; no CPU cap, since
    /// a hook's timeout already bounds its CPU time and a cap would only slow honest hooks.
    fn default() -> HookLimits {
        HookLimits { memory_max: half_of_memory(), pids_max: Some(4096), cpu_max: None }
    }
}

impl HookLimits {
    /// No limit at all.
    pub const UNLIMITED: HookLimits =
        HookLimits { memory_max: None, pids_max: None, cpu_max: None };
}

/// Half of `MemTotal` in `/proc/meminfo`, read once; `None` where it cannot be read.
fn half_of_memory() -> Option<u64> {
    static HALF: OnceLock<Option<u64>> = OnceLock::new();
    *HALF.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let kib: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib * 1024 / 2)
    })
}

/// Limits for the hooks a rule names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookLimitRule {
    /// The hook's id.
    pub hook: HookId,
    /// The hook file it must come from; `None`: any source.
    pub source: Option<HookSourceId>,
    /// Its limits, instead of the defaults.
    pub limits: HookLimits,
}

impl DispatchConfig {
    /// The limits of the hook `id` from `source`: the first matching rule's, else `limits`.
    pub fn limits_for(&self, id: &HookId, source: &HookSourceId) -> HookLimits {
        self.hook_limits
            .iter()
            .find(|r| &r.hook == id && r.source.as_ref().is_none_or(|s| s == source))
            .map_or(self.limits, |r| r.limits)
    }
}

impl Default for DispatchConfig {
    fn default() -> DispatchConfig {
        DispatchConfig {
            max_parallel_hooks: 4,
            stdout_cap: 256 * 1024,
            stderr_cap: 256 * 1024,
            payload_cap: 16 * 1024 * 1024,
            result_file_cap: 1024 * 1024,
            kill_grace: Duration::from_millis(100),
            pipe_grace: Duration::from_millis(100),
            runtime_dir: None,
            parallel_gated_formats: Vec::new(),
            outbox_retry_age: Duration::from_secs(60),
            outbox_max_retries: 3,
            containment: Containment::Auto,
            cgroup_parent: None,
            limits: HookLimits::default(),
            hook_limits: Vec::new(),
        }
    }
}
