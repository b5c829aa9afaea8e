//! Provided files: created (mode 0600) before a run, named in environment variables, read
//! back and deleted after it (off the run's critical path), even when the run is cancelled.

use std::{
    fs::{self, DirBuilder, OpenOptions},
    io::{Read, Write},
    os::unix::fs::{DirBuilderExt, OpenOptionsExt},
    path::{Path, PathBuf},
    sync::{
        Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use hooks_schema::{CapturedOutput, ProvidedFile, ProvidedFileRole};

/// Why a run's provided files could not be made; the hook then does not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FilesError {
    /// A folder or file could not be created.
    #[error("cannot create `{}`: {source}", path.display())]
    Create {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An input file could not be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Every name tried in `dir` was taken.
    #[error("cannot create a unique file in `{}`: {source}", dir.display())]
    NoUniqueName {
        /// The folder.
        dir: PathBuf,
        /// The last attempt's error.
        #[source]
        source: std::io::Error,
    },
    /// Every private folder name tried under `base` was taken.
    #[error("cannot create a private folder in `{}`", base.display())]
    NoPrivateDir {
        /// The system temporary folder.
        base: PathBuf,
    },
}

/// The files of one run. Dropping it deletes them (and the private folder, if one was made).
#[derive(Debug, Default)]
pub(crate) struct ProvidedFiles {
    env: Vec<(String, PathBuf)>,
    output: Option<PathBuf>,
    private_dir: Option<PathBuf>,
    keep: bool,
}

impl ProvidedFiles {
    /// Creates the files in `<runtime_dir>/tmp`, or in a private folder under the system
    /// temporary directory when there is no runtime directory.
    pub(crate) fn create(
        specs: &[ProvidedFile],
        runtime_dir: Option<&Path>,
    ) -> Result<ProvidedFiles, FilesError> {
        let mut files = ProvidedFiles::default();
        if specs.is_empty() {
            return Ok(files);
        }
        let dir = match runtime_dir {
            Some(r) => {
                let dir = r.join("tmp");
                ensure_private_dir(&dir)
                    .map_err(|source| FilesError::Create { path: dir.clone(), source })?;
                dir
            }
            None => {
                let dir = private_temp_dir()?;
                files.private_dir = Some(dir.clone());
                dir
            }
        };
        for spec in specs {
            let (path, mut file) = create_unique(&dir, &sanitize(&spec.name_hint))?;
            files.env.push((spec.env_var.clone(), path.clone()));
            match &spec.role {
                ProvidedFileRole::Input(bytes) => {
                    file.write_all(bytes)
                        .map_err(|source| FilesError::Write { path: path.clone(), source })?;
                }
                ProvidedFileRole::Output => {
                    if files.output.is_none() {
                        files.output = Some(path);
                    }
                }
            }
        }
        Ok(files)
    }

    /// The variables naming the files, in the order the invocation listed them.
    pub(crate) fn env(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.env.iter().map(|(k, p)| (k.as_str(), p.as_path()))
    }

    /// Deletes the files off the run's critical path: on the async runtime's blocking pool
    /// when one is at hand, now otherwise. Removing a file a process has just written waits
    /// for the file system (about 100 µs per file on ext4 here, milliseconds while other
    /// processes write), and nothing needs a finished run's files gone before its answer: no
    /// name is ever reused. The files wait in a process-wide list that the pool's task
    /// empties; a task the pool has not started when the runtime ends is dropped, which
    /// empties the list then, and a process that leaves its runtime to its exit empties it
    /// with [`finish_deletions`] first.
    pub(crate) fn delete_later(self) {
        if self.keep || (self.env.is_empty() && self.private_dir.is_none()) {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => {
                PENDING.lock().unwrap_or_else(PoisonError::into_inner).push(self);
                let drain = Drain;
                drop(rt.spawn_blocking(move || drop(drain)));
            }
            Err(_) => drop(self),
        }
    }

    /// Whether dropping leaves the files in place (a detached process still uses them).
    pub(crate) fn set_keep(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// The output file's bytes, up to `cap` (`truncated` above it); `None` when there is no
    /// output file or the hook removed it.
    ///
    /// The hook may have replaced the file with anything: it is opened without following a
    /// link and without blocking (a FIFO would otherwise wait forever for a writer, with the
    /// hook already gone and no timeout left to apply), and only a regular file is read.
    pub(crate) fn read_output(&self, cap: usize) -> Option<CapturedOutput> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = self.output.as_ref()?;
        let flags = nix::fcntl::OFlag::O_NONBLOCK | nix::fcntl::OFlag::O_NOFOLLOW;
        let file = fs::OpenOptions::new().read(true).custom_flags(flags.bits()).open(path).ok()?;
        if !file.metadata().ok()?.file_type().is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
        file.take(limit).read_to_end(&mut bytes).ok()?;
        if bytes.len() > cap {
            let total = fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
            bytes.truncate(cap);
            return Some(CapturedOutput { bytes, total_len: total, truncated: true });
        }
        Some(CapturedOutput::whole(bytes))
    }
}

impl Drop for ProvidedFiles {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        for (_, p) in &self.env {
            let _ = fs::remove_file(p);
        }
        if let Some(d) = &self.private_dir {
            let _ = fs::remove_dir(d);
        }
    }
}

/// Runs' files handed to a blocking pool by [`ProvidedFiles::delete_later`], not deleted yet.
static PENDING: Mutex<Vec<ProvidedFiles>> = Mutex::new(Vec::new());

/// Held while files taken from [`PENDING`] are deleted, so that [`finish_deletions`] also
/// waits for a deletion under way on a pool thread.
static DELETING: Mutex<()> = Mutex::new(());

/// Empties [`PENDING`] when dropped: run by the pool's task, or dropped with it when the
/// runtime ends before the task started.
struct Drain;

impl Drop for Drain {
    fn drop(&mut self) {
        finish_deletions();
    }
}

/// Deletes now the provided files of finished runs whose deletion was left to an async
/// runtime's blocking pool and has not happened yet, and waits for one under way.
///
/// A process that answers and then leaves its runtimes to its exit (a one-shot `hooks fire`
/// or `hooks bridge`, which skip the teardown the agent would wait for) calls this first:
/// the pool's threads die with the process, and a deletion they had not made would leave a
/// run's payload, which holds the agent's tool input, on disk. Costs two uncontended locks
/// when there is nothing to delete.
///
/// ```
/// // Nothing is pending in a process that ran no hook with provided files.
/// hooks_dispatch::finish_deletions();
/// ```
pub fn finish_deletions() {
    let _deleting = DELETING.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        let next = PENDING.lock().unwrap_or_else(PoisonError::into_inner).pop();
        match next {
            Some(files) => drop(files),
            None => break,
        }
    }
}

/// Creates `dir` (and its parents) with mode 0700 when missing.
pub(crate) fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// An anonymous file (mode 0600, readable and writable) in `dir`: `O_TMPFILE`, or where that
/// flag is unsupported a file created with `O_EXCL` and unlinked at once. No other process
/// can open it by name; it lives as long as a descriptor does.
pub(crate) fn anonymous_file(dir: &Path) -> std::io::Result<fs::File> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).mode(0o600);
    if let Ok(f) = o.clone().custom_flags(nix::libc::O_TMPFILE).open(dir) {
        return Ok(f);
    }
    let path = dir.join(format!(".agent-hooks-{}", unique_token()));
    let f = o.create_new(true).custom_flags(nix::libc::O_NOFOLLOW).open(&path)?;
    fs::remove_file(&path)?;
    Ok(f)
}

/// Keeps ASCII letters, digits, `-` and `_`; maps everything else to `_`; at most 64 chars.
pub(crate) fn sanitize(hint: &str) -> String {
    let s: String = hint
        .chars()
        .take(64)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if s.is_empty() { "hook".to_owned() } else { s }
}

/// A short token unique within this process and unlikely across processes.
pub(crate) fn unique_token() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    format!("{:x}{:x}{:x}", std::process::id(), nanos, n)
}

/// Creates `<dir>/<stem>-<token>.json` with `O_EXCL` and mode 0600.
fn create_unique(dir: &Path, stem: &str) -> Result<(PathBuf, fs::File), FilesError> {
    let mut last = std::io::Error::from(std::io::ErrorKind::AlreadyExists);
    for _ in 0..8 {
        let path = dir.join(format!("{stem}-{}.json", unique_token()));
        match OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = e,
            Err(source) => return Err(FilesError::Create { path, source }),
        }
    }
    Err(FilesError::NoUniqueName { dir: dir.to_path_buf(), source: last })
}

fn private_temp_dir() -> Result<PathBuf, FilesError> {
    let base = std::env::temp_dir();
    for _ in 0..8 {
        let dir = base.join(format!("agent-hooks-{}", unique_token()));
        match DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(source) => return Err(FilesError::Create { path: dir, source }),
        }
    }
    Err(FilesError::NoPrivateDir { base })
}

#[cfg(test)]
mod tests;
