//! The dispatcher's settings and their defaults.

use std::{path::PathBuf, sync::OnceLock, time::Duration};

use hooks_schema::{Envelope, EventRule, FormatId, HookDefinition, HookId, HookSourceId};

use crate::{contain::Containment, limits::LimitsVia};

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
    /// Per format, which firings its hooks run for besides their own event's
    /// (`FormatDescriptor::event_rule`: events they also run on, a shell command's non-zero
    /// exit taken for a failure). A format not listed has [`EventRule::OWN`]; empty by
    /// default: every hook runs for its own event only.
    pub event_rules: Vec<(FormatId, EventRule<'static>)>,
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
    /// How limits are enforced (`Auto`: per resource, cgroup v2 where delegated, else a
    /// cgroup v1 hierarchy, else rlimits; see `specs/dispatch.md`, "Limits").
    pub limits_via: LimitsVia,
    /// The resource limits of every hook run; [`HookLimits::default`] by default.
    pub limits: HookLimits,
    /// Limits for particular hooks, instead of `limits`; the first rule that matches wins.
    pub hook_limits: Vec<HookLimitRule>,
}

/// Resource limits of one hook run, enforced as [`DispatchConfig::limits_via`] says (its
/// cgroup, a cgroup v1 hierarchy or rlimits). `None` is no limit.
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
    /// The defaults (`specs/dispatch.md`, "Limits"): at most 1024 processes and threads, which
    /// stops a fork bomb long before it exhausts the machine's process table (32 768 by
    /// default) yet leaves room for a parallel build; at most half of the machine's memory,
    /// so a runaway hook is stopped before it takes the agent down with it; no CPU cap, since
    /// a hook's timeout already bounds its CPU time and a cap would only slow honest hooks.
    fn default() -> HookLimits {
        HookLimits { memory_max: half_of_memory(), pids_max: Some(1024), cpu_max: None }
    }
}

impl HookLimits {
    /// No limit at all.
    pub const UNLIMITED: HookLimits =
        HookLimits { memory_max: None, pids_max: None, cpu_max: None };
}

/// Half of `MemTotal` in `/proc/meminfo`, read once; `None` where it cannot be read.
///
/// `MemTotal` is the file's first line, so one read of a small buffer has it: every
/// dispatcher's configuration asks (a one-shot `hooks fire` too, hook or not), and reading
/// the whole file took eleven system calls where three do.
fn half_of_memory() -> Option<u64> {
    static HALF: OnceLock<Option<u64>> = OnceLock::new();
    *HALF.get_or_init(|| {
        use std::io::Read;
        let mut buf = [0u8; 256];
        let n = std::fs::File::open("/proc/meminfo").ok()?.read(&mut buf).ok()?;
        let text = String::from_utf8_lossy(buf.get(..n)?);
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

#[cfg(test)]
mod tests;

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
            event_rules: Vec::new(),
            outbox_retry_age: Duration::from_secs(60),
            outbox_max_retries: 3,
            containment: Containment::Auto,
            cgroup_parent: None,
            limits_via: LimitsVia::Auto,
            limits: HookLimits::default(),
            hook_limits: Vec::new(),
        }
    }
}

/// One limit set on the command line or in a configuration: `[HOOK_ID:]RESOURCE=VALUE`, where
/// `RESOURCE` is `memory` (bytes, with an optional `K`, `M`, `G` suffix of powers of 1024),
/// `pids` (a count) or `cpu` (cores, `0.5`, or a percentage of one core, `50%`), and `VALUE`
/// may be `max` (no limit). Without `HOOK_ID:` it sets the default of every hook.
///
/// ```
/// use hooks_dispatch::{DispatchConfig, LimitSetting, Resource};
/// let s: LimitSetting = "pids=64".parse().unwrap();
/// assert_eq!((s.hook.as_ref(), s.resource), (None, Resource::Pids));
/// let mut cfg = DispatchConfig::default();
/// cfg.apply_limits(&[s, "lint:memory=256M".parse().unwrap()]);
/// assert_eq!(cfg.limits.pids_max, Some(64));
/// assert_eq!(cfg.hook_limits[0].limits.memory_max, Some(256 << 20));
/// assert_eq!(cfg.hook_limits[0].limits.pids_max, Some(64));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitSetting {
    /// The hook it applies to; `None`: every hook's default.
    pub hook: Option<HookId>,
    /// The resource.
    pub resource: crate::limits::Resource,
    /// The value: bytes, processes, or for CPU the quota per 100 ms period in microseconds;
    /// `None` is no limit.
    pub value: Option<u64>,
}

/// A limit setting that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid limit `{spec}`: {why} (expected [HOOK_ID:]memory|pids|cpu=VALUE, e.g. pids=256, memory=512M, cpu=50%)"
)]
pub struct LimitSettingError {
    /// The text.
    pub spec: String,
    /// What is wrong.
    pub why: &'static str,
}

/// The CPU period limits are set with (the kernel's default), in microseconds.
const CPU_PERIOD_US: u64 = 100_000;

impl std::str::FromStr for LimitSetting {
    type Err = LimitSettingError;

    fn from_str(spec: &str) -> Result<LimitSetting, LimitSettingError> {
        use crate::limits::Resource;
        let bad = |why| LimitSettingError { spec: spec.chars().take(200).collect(), why };
        let (left, value) = spec.rsplit_once('=').ok_or_else(|| bad("no `=`"))?;
        let (hook, name) = match left.rsplit_once(':') {
            Some((id, name)) => (Some(HookId::new(id).map_err(|_| bad("invalid hook id"))?), name),
            None => (None, left),
        };
        let resource = Resource::ALL
            .into_iter()
            .find(|r| r.as_str() == name.trim())
            .ok_or_else(|| bad("unknown resource"))?;
        let value = value.trim();
        if value == "max" {
            return Ok(LimitSetting { hook, resource, value: None });
        }
        let v = match resource {
            Resource::Memory => {
                let (digits, unit) = match value.char_indices().last() {
                    Some((i, c)) if c.is_ascii_alphabetic() => (&value[..i], Some(c)),
                    _ => (value, None),
                };
                let shift = match unit.map(|c| c.to_ascii_uppercase()) {
                    None => 0,
                    Some('K') => 10,
                    Some('M') => 20,
                    Some('G') => 30,
                    Some(_) => return Err(bad("unknown size suffix (K, M or G)")),
                };
                let n: u64 = digits.parse().map_err(|_| bad("not a whole number"))?;
                n.checked_shl(shift).filter(|b| b >> shift == n).ok_or_else(|| bad("too large"))?
            }
            Resource::Pids => value.parse().map_err(|_| bad("not a whole number"))?,
            Resource::Cpu => {
                let cores = match value.strip_suffix('%') {
                    Some(p) => p.parse::<f64>().map_err(|_| bad("not a number"))? / 100.0,
                    None => value.parse::<f64>().map_err(|_| bad("not a number"))?,
                };
                if !cores.is_finite() || cores <= 0.0 || cores > 1024.0 {
                    return Err(bad("CPU must be above 0 and at most 1024 cores"));
                }
                // The kernel's smallest quota is 1 ms.
                ((cores * CPU_PERIOD_US as f64).round() as u64).max(1000)
            }
        };
        if v == 0 {
            return Err(bad("zero would stop every hook; use a positive value or `max`"));
        }
        Ok(LimitSetting { hook, resource, value: Some(v) })
    }
}

impl HookLimits {
    /// These limits with `s`'s resource set to its value.
    pub fn with(mut self, s: &LimitSetting) -> HookLimits {
        use crate::limits::Resource;
        match s.resource {
            Resource::Memory => self.memory_max = s.value,
            Resource::Pids => self.pids_max = s.value,
            Resource::Cpu => {
                self.cpu_max = s.value.map(|q| CpuMax { quota_us: q, period_us: CPU_PERIOD_US });
            }
        }
        self
    }
}

impl DispatchConfig {
    /// Whether `hook` runs for `envelope`, by its format's rule
    /// ([`DispatchConfig::event_rules`], [`EventRule::fires`]), the one its codec checks.
    pub fn runs_on(&self, hook: &HookDefinition, envelope: &Envelope) -> bool {
        let format = hook.wire_format();
        let rule = self.event_rules.iter().find(|(f, _)| *f == format).map(|(_, r)| *r);
        rule.unwrap_or(EventRule::OWN).fires(hook.event, envelope)
    }
}

impl DispatchConfig {
    /// Applies `settings`: those without a hook change [`DispatchConfig::limits`], then each
    /// hook's settings make (or change) its rule, which starts from those defaults.
    pub fn apply_limits(&mut self, settings: &[LimitSetting]) {
        for s in settings.iter().filter(|s| s.hook.is_none()) {
            self.limits = self.limits.with(s);
        }
        for s in settings {
            let Some(id) = &s.hook else { continue };
            match self.hook_limits.iter_mut().find(|r| &r.hook == id && r.source.is_none()) {
                Some(rule) => rule.limits = rule.limits.with(s),
                None => self.hook_limits.push(HookLimitRule {
                    hook: id.clone(),
                    source: None,
                    limits: self.limits.with(s),
                }),
            }
        }
    }
}
