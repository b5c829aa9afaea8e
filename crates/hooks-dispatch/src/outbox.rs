//! The durable outbox: one JSON file per job in `pending/`, `done/` or `failed/`, each
//! write atomic (temporary file, then rename), mode 0600, and durable: the temporary file is
//! `fsync`ed before the rename and the folder after it, so a written job survives a power
//! loss, not only a crash of the engine.
//!
//! Lifecycle: `write_pending` before the spawn; `mark_started` when a slot is taken
//! (`retries += 1`); `finish` writes the job into `done/` or `failed/` and only then
//! removes it from `pending/`. A crash between any two steps leaves the job in `pending/`
//! (or in both folders, which recovery resolves as finished), so no job is lost and a job
//! runs at least once.

use std::{
    fs::{self, File, OpenOptions},
    io::Write,
    os::unix::fs::OpenOptionsExt,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use hooks_schema::{Binding, Envelope, HookEvent, HookId, RawOutcome, SourceKey};
use serde::{Deserialize, Serialize};

use crate::{DispatchError, files::ensure_private_dir};

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Waiting to run, running, or interrupted by a crash.
    Pending,
    /// Exited 0.
    Done,
    /// Failed (non-zero exit, timeout, launch error) or gave up (retry limit, hook gone).
    Failed,
}

impl JobState {
    /// The folder name.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Pending => "pending",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }
}

/// One durable delivery of one hook on one envelope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxJob {
    /// 16 hex digits, unique per job.
    pub job_id: String,
    /// The hook.
    pub hook_id: HookId,
    /// The source file and kind the hook came from, so same-id hooks of two files stay
    /// distinguishable (the kind by name, as it is stored).
    pub source: SourceKey,
    /// The event.
    pub event: HookEvent,
    /// The envelope as the hook was to see it (after rewrites).
    pub envelope: Envelope,
    /// Milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// Where the job is.
    pub state: JobState,
    /// How many times it was started.
    pub retries: u32,
    /// When it was last started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_started_at_ms: Option<u64>,
    /// When it last finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_finished_at_ms: Option<u64>,
    /// The exit code of the last run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The last KiB of the last run's stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
}

impl OutboxJob {
    /// A new pending job for `binding` on `envelope`.
    pub fn new(binding: &Binding, envelope: &Envelope) -> OutboxJob {
        OutboxJob {
            job_id: job_id(),
            hook_id: binding.definition.id.clone(),
            source: binding.source.key(),
            event: binding.definition.event,
            envelope: envelope.clone(),
            created_at_ms: now_ms(),
            state: JobState::Pending,
            retries: 0,
            last_started_at_ms: None,
            last_finished_at_ms: None,
            exit_code: None,
            error: None,
            stderr_tail: None,
        }
    }

    /// Whether `binding` is the hook this job was recorded for (same id, same source).
    pub fn is_for(&self, binding: &Binding) -> bool {
        binding.definition.id == self.hook_id && self.source.names(&binding.source)
    }
}

/// Finds the binding a job was recorded for: the same id from the same source (kind and
/// canonical path). `None` when that hook is gone, even if another file (another project's,
/// or the user's) defines a hook with the same id: a job recorded for one file must never
/// run another file's hook, whose command, owner and trust are not the ones the job was
/// queued under. Recovery then moves the job to `failed/` with the reason.
///
/// Chrys resolves by `(hook_id, hook_source, hook_source_path)` too and falls back to the
/// id alone only for legacy jobs that recorded no source; every job here records its
/// source, so there is no fallback.
pub fn find_binding<'a>(bindings: &'a [Binding], job: &OutboxJob) -> Option<&'a Binding> {
    bindings.iter().find(|b| job.is_for(b))
}

/// The outbox folders under a root (`<runtime_dir>/outbox`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbox {
    root: PathBuf,
}

impl Outbox {
    /// An outbox rooted at `root`; folders are created on first write.
    pub fn new(root: PathBuf) -> Outbox {
        Outbox { root }
    }

    /// The root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file a job has in a state's folder.
    pub fn job_path(&self, state: JobState, job_id: &str) -> PathBuf {
        self.root.join(state.as_str()).join(format!("{job_id}.json"))
    }

    /// Records a new job in `pending/`.
    pub fn write_pending(&self, job: &OutboxJob) -> Result<(), DispatchError> {
        self.write(JobState::Pending, job)
    }

    /// Counts a start: `retries += 1`, `last_started_at` now, rewritten in `pending/`.
    pub fn mark_started(&self, job: &mut OutboxJob) -> Result<(), DispatchError> {
        job.retries = job.retries.saturating_add(1);
        job.last_started_at_ms = Some(now_ms());
        self.write(JobState::Pending, job)
    }

    /// Moves a job to `done/` (exit 0) or `failed/`, recording the outcome.
    pub fn finish_with(
        &self,
        job: &mut OutboxJob,
        outcome: &RawOutcome,
    ) -> Result<(), DispatchError> {
        let (state, why) = record_outcome(job, outcome);
        self.finish(job, state, why)
    }

    /// Moves a job to `done/` or `failed/`: writes it there first, then removes it from
    /// `pending/`.
    pub fn finish(
        &self,
        job: &mut OutboxJob,
        state: JobState,
        error: Option<String>,
    ) -> Result<(), DispatchError> {
        job.state = state;
        job.last_finished_at_ms = Some(now_ms());
        if error.is_some() {
            job.error = error;
        }
        self.write(state, job)?;
        #[cfg(test)]
        crate::testing::crash_point("after_finish_write", 0);
        self.remove_pending(&job.job_id)
    }

    /// Removes a job's file from `pending/` (missing is fine).
    pub fn remove_pending(&self, job_id: &str) -> Result<(), DispatchError> {
        let path = self.job_path(JobState::Pending, job_id);
        match fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(DispatchError::io("remove", path, e)),
        }
    }

    /// Whether a job is recorded as finished (in `done/` or `failed/`).
    pub fn is_finished(&self, job_id: &str) -> bool {
        self.job_path(JobState::Done, job_id).is_file()
            || self.job_path(JobState::Failed, job_id).is_file()
    }

    /// The jobs of a state's folder, oldest first, plus the files that could not be read.
    pub fn list(&self, state: JobState) -> (Vec<OutboxJob>, Vec<DispatchError>) {
        let dir = self.root.join(state.as_str());
        let mut jobs = Vec::new();
        let mut errors = Vec::new();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (jobs, errors),
            Err(e) => return (jobs, vec![DispatchError::io("read", dir, e)]),
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_job = path.extension().is_some_and(|x| x == "json")
                && !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if !is_job {
                continue;
            }
            match fs::read(&path) {
                Ok(bytes) => match serde_json::from_slice::<OutboxJob>(&bytes) {
                    Ok(job) => jobs.push(job),
                    Err(e) => errors.push(DispatchError::InvalidJob { path, source: e }),
                },
                Err(e) => errors.push(DispatchError::io("read", path, e)),
            }
        }
        jobs.sort_by(|a, b| (a.created_at_ms, &a.job_id).cmp(&(b.created_at_ms, &b.job_id)));
        (jobs, errors)
    }

    /// Writes `job` into a state's folder: a temporary file, `fsync`ed, renamed over the job's
    /// file, then the folder `fsync`ed so the new name is on disk when this returns.
    fn write(&self, state: JobState, job: &OutboxJob) -> Result<(), DispatchError> {
        let dir = self.root.join(state.as_str());
        ensure_durable_dir(&dir)?;
        let path = dir.join(format!("{}.json", job.job_id));
        let tmp = dir.join(format!(".{}.{}.tmp", job.job_id, crate::files::unique_token()));
        let bytes = serde_json::to_vec_pretty(job)
            .map_err(|e| DispatchError::InvalidJob { path: path.clone(), source: e })?;
        let file = OpenOptions::new().write(true).create_new(true).mode(0o600).open(&tmp);
        let (action, result) = match file {
            Err(e) => ("write", Err(e)),
            Ok(mut f) => match f.write_all(&bytes) {
                Err(e) => ("write", Err(e)),
                // Without this, a power loss after the rename could leave an empty or
                // partial file under the job's name (the data may reach the disk after the
                // rename does).
                Ok(()) => ("sync", f.sync_all()),
            },
        };
        if let Err(e) = result {
            let _ = fs::remove_file(&tmp);
            return Err(DispatchError::io(action, tmp, e));
        }
        fs::rename(&tmp, &path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            DispatchError::io("rename", &path, e)
        })?;
        // The rename is a change of the folder: it is durable once the folder is synced.
        sync_dir(&dir)
    }
}

/// `fsync`s a folder, so that the entries created, renamed or removed in it are on disk.
fn sync_dir(dir: &Path) -> Result<(), DispatchError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| DispatchError::io("sync", dir, e))
}

/// Creates `dir` (and missing parents, mode 0700) unless it exists; each folder created is
/// made durable by syncing its parent, so a job written into it cannot vanish with its folder.
fn ensure_durable_dir(dir: &Path) -> Result<(), DispatchError> {
    if dir.is_dir() {
        return Ok(());
    }
    // The folders missing now, deepest first: each gets its entry synced once created.
    let mut missing = Vec::new();
    let mut cur = dir;
    while !cur.as_os_str().is_empty() && !cur.is_dir() {
        missing.push(cur);
        let Some(parent) = cur.parent() else { break };
        cur = parent;
    }
    ensure_private_dir(dir).map_err(|e| DispatchError::io("create folder", dir, e))?;
    for m in missing {
        let parent = m.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        sync_dir(parent)?;
    }
    Ok(())
}

/// Records an outcome in `job` (exit code, stderr tail) and says where it goes: `done/` for
/// exit 0, else `failed/` with the reason.
pub(crate) fn record_outcome(
    job: &mut OutboxJob,
    outcome: &RawOutcome,
) -> (JobState, Option<String>) {
    job.exit_code = outcome.exit_code();
    let tail = outcome.stderr.lossy();
    let cut = tail.len().saturating_sub(1024);
    let cut = (cut..tail.len()).find(|i| tail.is_char_boundary(*i)).unwrap_or(tail.len());
    job.stderr_tail = tail.get(cut..).filter(|s| !s.is_empty()).map(str::to_owned);
    if outcome.succeeded() {
        (JobState::Done, None)
    } else {
        let why = match &outcome.exit {
            hooks_schema::ExitInfo::NotStarted(f) => f.message.clone(),
            _ => outcome.failure_label().unwrap_or_else(|| "failed".to_owned()),
        };
        (JobState::Failed, Some(why))
    }
}

/// Runs a synced outbox write (about a millisecond of `fsync`s here) on tokio's blocking
/// pool, so that a durable job does not stall the other hooks the same runtime supervises.
/// `None` when the write could not run (the runtime is shutting down): the job then stays in
/// `pending/` for the next start, as after a crash.
pub(crate) async fn write_off_runtime(
    outbox: &Outbox,
    mut job: OutboxJob,
    write: impl FnOnce(&Outbox, &mut OutboxJob) -> Result<(), DispatchError> + Send + 'static,
) -> Option<OutboxJob> {
    let outbox = outbox.clone();
    tokio::task::spawn_blocking(move || {
        // A failed write leaves the job where it was: in `pending/`, retried at the next start.
        let _ = write(&outbox, &mut job);
        job
    })
    .await
    .ok()
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn job_id() -> String {
    let token = crate::files::unique_token();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in token.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests;
