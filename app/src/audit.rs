//! The audit log: an append-only JSON-lines file with one record per fire and per guard
//! decision (`specs/audit-log.md`).
//!
//! Every record is serialized whole in memory and appended with one `write` on a file opened
//! with `O_APPEND`, under an exclusive `flock` that every writer takes, so records of several
//! engines sharing a file never interleave. A crash in the middle of a write (SIGKILL, power
//! loss) can leave at most one torn line at the end of the file; the next writer that opens
//! the file cuts it off before appending, and [`read_records`] skips a torn line it meets, so
//! readers only ever see whole records. The file rotates by size: `audit.jsonl` becomes
//! `audit.jsonl.1`, `.1` becomes `.2`, and so on up to [`AuditConfig::keep`].

use std::{
    fs::{File, OpenOptions},
    io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write},
    os::unix::fs::MetadataExt,
    path::{Path, PathBuf},
    sync::Mutex,
    time::SystemTime,
};

use hooks_dispatch::{FireReport, RunStatus, SkipReason};
use hooks_guard::GuardDecision;
use hooks_schema::{Decision, Envelope, ExitInfo, Provenance};
use serde::{Deserialize, Serialize};

/// The schema version every record carries in its `audit` field.
pub const AUDIT_SCHEMA: u32 = 1;

/// The longest line [`read_records`] reads; a longer line is counted as unreadable.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// Where the audit log goes and when it rotates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditConfig {
    /// The log file.
    pub path: PathBuf,
    /// Rotate before a record would take the file past this many bytes (64 MiB by default).
    pub max_bytes: u64,
    /// How many rotated files to keep (`path.1` … `path.N`; 3 by default, at least 1).
    pub keep: u32,
}

impl AuditConfig {
    /// An audit log at `path` with the default rotation.
    pub fn new(path: impl Into<PathBuf>) -> AuditConfig {
        AuditConfig { path: path.into(), max_bytes: 64 << 20, keep: 3 }
    }
}

/// Why the audit log could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The file could not be opened, repaired, rotated or written.
    #[error("audit log {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AuditRecord {
    /// An event was fired.
    Fire(FireRecord),
    /// The guard decided on an agent file edit.
    Guard(GuardRecord),
}

/// What a fire decided and how each hook ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FireRecord {
    /// The record schema ([`AUDIT_SCHEMA`]).
    pub audit: u32,
    /// When the fire ended, RFC 3339 UTC with milliseconds.
    pub time: String,
    /// The session id, when the envelope had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The turn id, when the envelope had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The canonical event.
    pub event: String,
    /// The session's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "lossy::opt_path")]
    pub cwd: Option<PathBuf>,
    /// The snapshot revision the fire ran under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// The folded decision; `None` when no hook expressed one.
    pub decision: Option<Decision>,
    /// The deciding hook's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The deciding hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<HookRef>,
    /// Whether a deny ended the chain early.
    pub short_circuited: bool,
    /// Wall time of the blocking part, milliseconds.
    pub duration_ms: f64,
    /// Every binding of the event, in the order of the fire report.
    pub hooks: Vec<HookRecord>,
}

/// A hook, by id, file and line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HookRef {
    /// The hook's id.
    pub hook: String,
    /// Its hook file.
    #[serde(serialize_with = "lossy::path")]
    pub file: PathBuf,
    /// Its line in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl HookRef {
    fn of(p: &Provenance) -> HookRef {
        HookRef {
            hook: p.hook_id.as_str().to_owned(),
            file: p.source.path.as_path().to_owned(),
            line: p.line,
        }
    }
}

/// One hook's part in a fire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookRecord {
    /// Which hook.
    #[serde(flatten)]
    pub hook: HookRef,
    /// The source kind of its file (`project_cursor_file`).
    pub source_kind: String,
    /// `blocking`, `async` or `fire_and_forget`.
    pub mode: String,
    /// `ran`, `skipped` or `background`.
    pub status: String,
    /// Why it was skipped: `disabled`, `no_match`, `short_circuited`, `duplicate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Whether its verdict entered the fold.
    pub counted: bool,
    /// Its own decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Its reason, when it denied or asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether its codec reported a failure (spawn error, timeout, unreadable output).
    pub failed: bool,
    /// Its exit code, when it exited on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The signal that ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Whether it never started.
    pub not_started: bool,
    /// Whether it was killed at its timeout.
    pub timed_out: bool,
    /// Whether its output exceeded a cap and was cut.
    pub capped: bool,
    /// Wall time from spawn to exit, milliseconds (hooks that ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

/// What the guard decided on an edit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardRecord {
    /// The record schema ([`AUDIT_SCHEMA`]).
    pub audit: u32,
    /// When it decided, RFC 3339 UTC with milliseconds.
    pub time: String,
    /// The session's working directory the paths were resolved against.
    #[serde(serialize_with = "lossy::path")]
    pub cwd: PathBuf,
    /// The edited paths as the agent named them.
    #[serde(serialize_with = "lossy::paths")]
    pub paths: Vec<PathBuf>,
    /// `allowed`, `protected` or `unresolved`.
    pub decision: String,
    /// The snapshot generation whose protected paths were used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<u64>,
    /// For a protected edit, each path that reaches a protected file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<GuardHit>,
    /// For an unresolved edit, the paths that could not be resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty", serialize_with = "lossy::paths")]
    pub unresolved: Vec<PathBuf>,
}

/// One requested path that reaches one protected file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardHit {
    /// The path as the agent asked for it.
    #[serde(serialize_with = "lossy::path")]
    pub requested: PathBuf,
    /// The protected file it reaches.
    #[serde(serialize_with = "lossy::path")]
    pub protected: PathBuf,
    /// The hook file that makes it protected.
    #[serde(serialize_with = "lossy::path")]
    pub file: PathBuf,
    /// `hook_file` or `script`.
    pub role: String,
    /// How the path reaches it (`same_path`, `same_file`, `holding_folder`, …).
    pub why: String,
}

/// Paths written as text with U+FFFD where their bytes are not UTF-8 (serde refuses such a
/// path, which cost the whole record), as the listings show them.
mod lossy {
    use std::path::{Path, PathBuf};

    use serde::Serializer;

    pub(super) fn path<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.to_string_lossy())
    }

    #[allow(clippy::ref_option, reason = "the field's type, as serde hands it over")]
    pub(super) fn opt_path<S: Serializer>(p: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.serialize_some(&*p.to_string_lossy()),
            None => s.serialize_none(),
        }
    }

    pub(super) fn paths<S: Serializer>(ps: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(ps.iter().map(|p| p.to_string_lossy()))
    }
}

impl FireRecord {
    /// The record of `report`, a fire of `envelope` under `revision`.
    pub fn new(envelope: &Envelope, report: &FireReport, revision: Option<u64>) -> FireRecord {
        let v = &report.verdict;
        FireRecord {
            audit: AUDIT_SCHEMA,
            time: now(),
            session: envelope.session_id.clone(),
            turn: envelope.turn_id.clone(),
            event: envelope.event.as_str().to_owned(),
            cwd: envelope.cwd.clone(),
            revision,
            decision: v.decision,
            reason: v.reason.clone(),
            decided_by: v.decided_by.as_ref().map(HookRef::of),
            short_circuited: v.short_circuited,
            duration_ms: report.duration.as_secs_f64() * 1e3,
            hooks: report
                .runs
                .iter()
                .map(|run| {
                    let (status, skipped) = match &run.status {
                        RunStatus::Ran => ("ran", None),
                        RunStatus::Skipped(why) => ("skipped", Some(skip_name(why))),
                        RunStatus::Background { .. } => ("background", None),
                    };
                    let verdict = run.verdict.as_ref();
                    let decision = verdict.and_then(|v| v.decision);
                    let out = run.outcome.as_ref();
                    HookRecord {
                        hook: HookRef::of(&run.provenance),
                        source_kind: run.provenance.source.kind.name(),
                        mode: run.mode.as_str().to_owned(),
                        status: status.to_owned(),
                        skipped: skipped.map(str::to_owned),
                        counted: run.counted,
                        decision,
                        reason: verdict
                            .filter(|_| matches!(decision, Some(Decision::Deny | Decision::Ask)))
                            .and_then(|v| v.reason.clone()),
                        failed: verdict.is_some_and(|v| v.failure.is_some()),
                        exit_code: out.and_then(|o| match o.exit {
                            ExitInfo::Exited(c) => Some(c),
                            _ => None,
                        }),
                        signal: out.and_then(|o| match o.exit {
                            ExitInfo::Signaled(s) => Some(s),
                            _ => None,
                        }),
                        not_started: out.is_some_and(|o| matches!(o.exit, ExitInfo::NotStarted(_))),
                        timed_out: out.is_some_and(|o| o.timed_out),
                        capped: out.is_some_and(|o| {
                            o.stdout.truncated
                                || o.stderr.truncated
                                || o.result_file.as_ref().is_some_and(|f| f.truncated)
                        }),
                        duration_ms: out
                            .filter(|o| !matches!(o.exit, ExitInfo::NotStarted(_)))
                            .map(|o| o.duration.as_secs_f64() * 1e3),
                    }
                })
                .collect(),
        }
    }
}

impl GuardRecord {
    /// The record of the guard's `decision` on `paths`, resolved against `cwd`.
    pub fn new(
        paths: &[PathBuf],
        cwd: &Path,
        decision: &GuardDecision,
        generation: Option<u64>,
    ) -> GuardRecord {
        let (name, hits, unresolved) = match decision {
            GuardDecision::Allowed => ("allowed", Vec::new(), Vec::new()),
            GuardDecision::Protected(hits) => (
                "protected",
                hits.iter()
                    .map(|h| GuardHit {
                        requested: h.requested.clone(),
                        protected: h.protected.as_path().to_owned(),
                        file: h.source.path.as_path().to_owned(),
                        role: h.role.as_str().to_owned(),
                        why: h.why.as_str().to_owned(),
                    })
                    .collect(),
                Vec::new(),
            ),
            GuardDecision::Unresolved(u) => {
                ("unresolved", Vec::new(), u.iter().map(|p| p.requested.clone()).collect())
            }
        };
        GuardRecord {
            audit: AUDIT_SCHEMA,
            time: now(),
            cwd: cwd.to_owned(),
            paths: paths.to_vec(),
            decision: name.to_owned(),
            generation,
            hits,
            unresolved,
        }
    }
}

/// The target of the decision records as `tracing` events (`specs/observability.md`).
pub const RECORD_TARGET: &str = "hooks::audit";

/// Whether a subscriber wants the decision records as `tracing` events; the runtime builds a
/// record only when it does or an audit log is open.
pub fn records_traced() -> bool {
    tracing::enabled!(target: RECORD_TARGET, tracing::Level::INFO)
}

impl AuditRecord {
    /// The record without the reasons hooks gave (their output, which can hold anything): what
    /// a `tracing` field may carry. The audit file, the operator's, keeps them.
    pub fn without_reasons(&self) -> AuditRecord {
        let mut record = self.clone();
        if let AuditRecord::Fire(fire) = &mut record {
            fire.reason = None;
            for hook in &mut fire.hooks {
                hook.reason = None;
            }
        }
        record
    }

    /// Emits the record as the INFO event `decision record` (target [`RECORD_TARGET`]): the
    /// record without its reasons as JSON in `record`, and its key facts as fields of their
    /// own (`kind`, `event`, `decision`, `decided_by`, `file`, `line`, `session`, `revision`,
    /// `duration_ms`, `hooks`; for the guard `decision`, `generation`, `hits`). This is how
    /// the decision records reach an OpenTelemetry collector (as log records).
    pub fn trace(&self) {
        if !records_traced() {
            return;
        }
        let record = serde_json::to_string(&self.without_reasons()).unwrap_or_default();
        match self {
            AuditRecord::Fire(f) => {
                let by = f.decided_by.as_ref();
                tracing::info!(
                    target: RECORD_TARGET,
                    kind = "fire",
                    event = f.event.as_str(),
                    decision = f.decision.map_or("none", Decision::as_str),
                    decided_by = by.map(|b| b.hook.as_str()),
                    file = by.map(|b| tracing::field::display(b.file.display())),
                    line = by.and_then(|b| b.line),
                    session = f.session.as_deref(),
                    revision = f.revision,
                    duration_ms = f.duration_ms,
                    hooks = f.hooks.len(),
                    record = record.as_str(),
                    "decision record"
                );
            }
            AuditRecord::Guard(g) => tracing::info!(
                target: RECORD_TARGET,
                kind = "guard",
                decision = g.decision.as_str(),
                generation = g.generation,
                hits = g.hits.len(),
                record = record.as_str(),
                "decision record"
            ),
        }
    }
}

fn skip_name(why: &SkipReason) -> &'static str {
    match why {
        SkipReason::Disabled => "disabled",
        SkipReason::NoMatch => "no_match",
        SkipReason::ShortCircuited => "short_circuited",
        SkipReason::Duplicate => "duplicate",
    }
}

fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// An open audit log; share it (`Arc`) between everything that records.
#[derive(Debug)]
pub struct AuditLog {
    config: AuditConfig,
    file: Mutex<File>,
    failures: std::sync::atomic::AtomicU64,
}

impl AuditLog {
    /// Opens (creating it and its folder when missing) the log for appending, and cuts off a
    /// torn last line a crashed writer left.
    ///
    /// ```no_run
    /// use hooks_app::audit::{AuditConfig, AuditLog};
    ///
    /// let log = AuditLog::open(AuditConfig::new("/var/log/agent-hooks/audit.jsonl"))?;
    /// # let _ = log;
    /// # Ok::<(), hooks_app::audit::AuditError>(())
    /// ```
    pub fn open(config: AuditConfig) -> Result<AuditLog, AuditError> {
        let io = |source| AuditError::Io { path: config.path.clone(), source };
        if let Some(dir) = config.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = open_append(&config.path).map_err(io)?;
        {
            let _lock = Flock::exclusive(&file).map_err(io)?;
            repair(&file).map_err(io)?;
        }
        Ok(AuditLog { config, file: Mutex::new(file), failures: Default::default() })
    }

    /// The configuration.
    pub fn config(&self) -> &AuditConfig {
        &self.config
    }

    /// How many records could not be written (each also logged as a `tracing` error).
    pub fn failures(&self) -> u64 {
        self.failures.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Appends `record` whole, rotating first when it would take the file past
    /// [`AuditConfig::max_bytes`]. A failure is counted and logged, never raised: the audit
    /// log must not stop an agent's tool call.
    pub fn append(&self, record: &AuditRecord) {
        if let Err(e) = self.try_append(record) {
            self.failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::error!(target: "hooks::audit", error = %e, "an audit record was not written");
        }
    }

    /// [`AuditLog::append`], with the error.
    pub fn try_append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let io = |source| AuditError::Io { path: self.config.path.clone(), source };
        let mut line = serde_json::to_vec(record).map_err(|e| io(e.into()))?;
        line.push(b'\n');
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            let lock = Flock::exclusive(&file).map_err(io)?;
            // Another writer may have rotated the file since we opened it: follow the path.
            let current = std::fs::metadata(&self.config.path).ok();
            let ours = file.metadata().map_err(io)?;
            if current.as_ref().is_some_and(|m| m.ino() == ours.ino() && m.dev() == ours.dev()) {
                let mut len = ours.len();
                // A writer killed mid-write (another engine sharing the file) left a torn
                // line: cut it off, so this record starts a line of its own.
                if len > 0 && !ends_with_newline(&file, len).map_err(io)? {
                    repair(&file).map_err(io)?;
                    len = file.metadata().map_err(io)?.len();
                }
                if len > 0 && len + line.len() as u64 > self.config.max_bytes {
                    rotate(&self.config).map_err(io)?;
                } else {
                    // One write: the kernel appends it whole at the end of the file.
                    (&*file).write_all(&line).map_err(io)?;
                    drop(lock);
                    return Ok(());
                }
            }
            drop(lock);
            *file = open_append(&self.config.path).map_err(io)?;
        }
    }
}

fn open_append(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new().append(true).read(true).create(true).mode(0o600).open(path)
}

fn ends_with_newline(file: &File, len: u64) -> io::Result<bool> {
    use std::os::unix::fs::FileExt;
    let mut last = [0u8; 1];
    file.read_exact_at(&mut last, len - 1)?;
    Ok(last[0] == b'\n')
}

/// Cuts the file back to its last newline, when a crashed writer left a partial line.
fn repair(file: &File) -> io::Result<()> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut r = file;
    let mut end = len;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..usize::try_from(end - start).unwrap_or(0)];
        r.seek(SeekFrom::Start(start))?;
        r.read_exact(chunk)?;
        if end == len && chunk.last() == Some(&b'\n') {
            return Ok(());
        }
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return file.set_len(start + i as u64 + 1);
        }
        if start == 0 {
            return file.set_len(0);
        }
        end = start;
    }
}

/// Shifts `path.N-1` to `path.N`, …, `path` to `path.1` (dropping the oldest).
fn rotate(config: &AuditConfig) -> io::Result<()> {
    let keep = config.keep.max(1);
    let numbered = |n: u32| {
        let mut p = config.path.clone().into_os_string();
        p.push(format!(".{n}"));
        PathBuf::from(p)
    };
    for n in (1..keep).rev() {
        match std::fs::rename(numbered(n), numbered(n + 1)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    std::fs::rename(&config.path, numbered(1))
}

/// An exclusive `flock` on a file, released on drop (and by the kernel if the process dies).
struct Flock<'a>(&'a File);

impl<'a> Flock<'a> {
    fn exclusive(file: &'a File) -> io::Result<Flock<'a>> {
        rustix::fs::flock(file, rustix::fs::FlockOperation::LockExclusive)?;
        Ok(Flock(file))
    }
}

impl Drop for Flock<'_> {
    fn drop(&mut self) {
        let _ = rustix::fs::flock(self.0, rustix::fs::FlockOperation::Unlock);
    }
}

/// Skips to the end of the current line without holding it in memory.
fn skip_line(r: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                r.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                r.consume(n);
            }
        }
    }
}

/// What [`read_records`] found.
#[derive(Debug, Default)]
pub struct AuditRead {
    /// The whole records, in file order.
    pub records: Vec<AuditRecord>,
    /// Lines that are not a record: a torn line a crash left, or a line longer than
    /// [`MAX_RECORD_BYTES`], or one written by a newer schema this reader does not know.
    pub unreadable: usize,
}

/// Reads an audit log, skipping (and counting) lines that are not whole records.
pub fn read_records(path: &Path) -> Result<AuditRead, AuditError> {
    let io = |source| AuditError::Io { path: path.to_owned(), source };
    let mut r = BufReader::new(File::open(path).map_err(io)?);
    let mut out = AuditRead::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n =
            (&mut r).take(MAX_RECORD_BYTES as u64 + 1).read_until(b'\n', &mut line).map_err(io)?;
        if n == 0 {
            return Ok(out);
        }
        if line.last() != Some(&b'\n') {
            if n > MAX_RECORD_BYTES {
                skip_line(&mut r).map_err(io)?;
            }
            out.unreadable += 1;
            continue;
        }
        match serde_json::from_slice::<AuditRecord>(&line) {
            Ok(rec) => out.records.push(rec),
            Err(_) => out.unreadable += 1,
        }
    }
}

pub mod summary;

#[cfg(test)]
mod tests;
