//! The dispatcher's settings and their defaults.

use std::{path::PathBuf, time::Duration};

use hooks_schema::WireFormat;

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
    pub parallel_gated_formats: Vec<WireFormat>,
    /// How long a pending outbox job must have waited since its last start before
    /// `recover_outbox` retries it.
    pub outbox_retry_age: Duration,
    /// How many starts a durable job gets before it is moved to `failed/`.
    pub outbox_max_retries: u32,
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
        }
    }
}
