//! The pin across the bridge's processes: the first event of a session records which hook
//! files apply, their contents (with SHA-256) and whether each may run, in a per-session
//! state file; later events of the session run exactly that set, as the in-process runtime
//! runs the set it pinned at the first exchange.
//!
//! One file per (host, session id, project root), named by a SHA-256 of the three (a session
//! id from the agent never becomes a path). Files are written to a temporary file in the same
//! folder and linked into place only if no file is there yet, so concurrent first events of
//! one session agree on one pin: the loser reads the winner's. The folder is bounded: a pin
//! older than [`PinStore::max_age`] is stale (replaced at the next event), and each new pin
//! sweeps stale pins and the oldest beyond [`PinStore::max_files`].

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use hooks_schema::AbsPathBuf;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The largest pin file read (a pin holds hook files, each capped by the reader).
pub const MAX_PIN_BYTES: u64 = 8 * 1024 * 1024;

/// The format version of a pin file; another version is not read (the next event pins anew).
pub const PIN_VERSION: u32 = 1;

/// One hook file as pinned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedFile {
    /// Its kind's name (`project_cursor_file`).
    pub kind: String,
    /// Its canonical path.
    pub path: PathBuf,
    /// Where the guard protects it besides its canonical path.
    #[serde(default)]
    pub found_at: Vec<PathBuf>,
    /// Whether it is a project file (of the pin's root).
    pub project: bool,
    /// For a project file found below the root (in the session's folder, or between the two
    /// for Codex), that folder: its hooks' project directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_dir: Option<PathBuf>,
    /// The SHA-256 of its content, hex.
    pub sha256: Option<String>,
    /// Its content when it was read.
    pub content: Option<String>,
    /// For a hook file an agent folder's index led to (a plugin's): the folder its hooks
    /// belong to, given to its parser
    /// ([`ParseContext::base`](hooks_schema::ParseContext::base)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<PathBuf>,
    /// Why it could not be read.
    pub error: Option<String>,
    /// Whether its hooks run.
    pub active: bool,
    /// Why they run or not.
    pub reason: String,
    /// Inert only because the user has not trusted it as it is (`hooks trust`): the host is
    /// told at the session's first event.
    #[serde(default)]
    pub needs_trust: bool,
}

/// The set a session runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedSet {
    /// When it was pinned (seconds since the Unix epoch).
    pub created: u64,
    /// The files, in precedence order.
    pub files: Vec<PinnedFile>,
}

#[derive(Serialize, Deserialize)]
struct PinDocument {
    version: u32,
    host: String,
    session: String,
    root: PathBuf,
    set: PinnedSet,
}

/// Why a pin could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PinError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The file is not a pin.
    #[error("{path}: not a pin file: {why}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

/// The folder of session pins, bounded in number and age.
#[derive(Debug, Clone)]
pub struct PinStore {
    dir: PathBuf,
    /// The most pins kept; the oldest beyond it are removed when a new one is written.
    pub max_files: usize,
    /// How long a pin holds; an older one is stale.
    pub max_age: Duration,
}

/// Seconds since the Unix epoch now.
pub fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The SHA-256 of `text`, lower-case hex.
pub fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

impl PinStore {
    /// Pins kept in `dir` (created on the first write), at most 256, for at most 7 days.
    pub fn new(dir: impl Into<PathBuf>) -> PinStore {
        PinStore { dir: dir.into(), max_files: 256, max_age: Duration::from_secs(7 * 24 * 3600) }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The pin file of a session.
    pub fn path_for(&self, host: &str, session: &str, root: &AbsPathBuf) -> PathBuf {
        let mut h = Sha256::new();
        for part in
            [host.as_bytes(), session.as_bytes(), root.as_path().as_os_str().as_encoded_bytes()]
        {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        self.dir.join(format!("{}.json", &hex(&h.finalize())[..32]))
    }

    /// The session's pinned set, when there is a current one (`None`: none, stale, or of
    /// another version or session).
    ///
    /// # Errors
    /// A pin that exists but cannot be read.
    pub fn load(
        &self,
        host: &str,
        session: &str,
        root: &AbsPathBuf,
    ) -> Result<Option<PinnedSet>, PinError> {
        let path = self.path_for(host, session, root);
        let bytes = match hooks_sources::read_capped_to(&path, MAX_PIN_BYTES) {
            Ok(b) => b,
            Err(hooks_sources::ReadError::Missing { .. }) => return Ok(None),
            Err(e) => {
                return Err(PinError::Malformed { path, why: e.to_string() });
            }
        };
        let doc: PinDocument = match serde_json::from_slice(&bytes) {
            Ok(d) => d,
            Err(e) => return Err(PinError::Malformed { path, why: e.to_string() }),
        };
        if doc.version != PIN_VERSION
            || doc.host != host
            || doc.session != session
            || doc.root != root.as_path()
            || self.is_stale(doc.set.created)
        {
            return Ok(None);
        }
        Ok(Some(doc.set))
    }

    fn is_stale(&self, created: u64) -> bool {
        now_secs().saturating_sub(created) > self.max_age.as_secs()
    }

    /// Pins `set` for the session unless another process pinned first; returns the set the
    /// session runs (this one, or the one already there). Sweeps stale and surplus pins.
    ///
    /// # Errors
    /// The pin could not be written; the set is handed back to run unpinned.
    pub fn save(
        &self,
        host: &str,
        session: &str,
        root: &AbsPathBuf,
        set: PinnedSet,
    ) -> Result<PinnedSet, (PinnedSet, PinError)> {
        let path = self.path_for(host, session, root);
        let io_err = |path: &Path, source| PinError::Io { path: path.to_path_buf(), source };
        if let Err(e) = create_private_dir(&self.dir) {
            return Err((set, io_err(&self.dir, e)));
        }
        let doc = PinDocument {
            version: PIN_VERSION,
            host: host.to_owned(),
            session: session.to_owned(),
            root: root.as_path().to_path_buf(),
            set,
        };
        let bytes = match serde_json::to_vec(&doc) {
            Ok(b) => b,
            Err(e) => return Err((doc.set, io_err(&path, io::Error::other(e)))),
        };
        let written = tempfile::NamedTempFile::new_in(&self.dir).and_then(|mut tmp| {
            tmp.write_all(&bytes)?;
            tmp.as_file().sync_data()?;
            Ok(tmp)
        });
        let tmp = match written {
            Ok(t) => t,
            Err(e) => return Err((doc.set, io_err(&self.dir, e))),
        };
        // Writers of this folder take turns (a stale pin is checked and replaced as one
        // step); readers never wait, since a pin appears whole or not at all.
        let _lock = match lock_dir(&self.dir) {
            Ok(l) => l,
            Err(e) => return Err((doc.set, io_err(&self.dir, e))),
        };
        // A stale (or unreadable) pin of this session gives way to the new one.
        if path.symlink_metadata().is_ok() && !matches!(self.load(host, session, root), Ok(Some(_)))
        {
            let _ = fs::remove_file(&path);
        }
        match tmp.persist_noclobber(&path) {
            Ok(_) => {
                self.sweep();
                Ok(doc.set)
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                // Another event of the session pinned first: its set is the session's.
                match self.load(host, session, root) {
                    Ok(Some(theirs)) => Ok(theirs),
                    Ok(None) => Ok(doc.set),
                    Err(err) => Err((doc.set, err)),
                }
            }
            Err(e) => Err((doc.set, io_err(&path, e.error))),
        }
    }

    /// Removes stale pins and, beyond [`PinStore::max_files`], the oldest (by modification
    /// time). Temporary files a crashed writer left are removed after an hour.
    pub fn sweep(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else { return };
        let now = SystemTime::now();
        let mut pins: Vec<(SystemTime, PathBuf)> = Vec::new();
        for entry in entries.flatten().take(100_000) {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(UNIX_EPOCH);
            let age = now.duration_since(modified).unwrap_or_default();
            if path.file_name().is_some_and(|n| n == ".lock") {
                continue;
            }
            let is_pin = path.extension().is_some_and(|e| e == "json");
            if (is_pin && age > self.max_age) || (!is_pin && age > Duration::from_secs(3600)) {
                let _ = fs::remove_file(&path);
            } else if is_pin {
                pins.push((modified, path));
            }
        }
        if pins.len() > self.max_files {
            pins.sort();
            let surplus = pins.len() - self.max_files;
            for (_, p) in pins.into_iter().take(surplus) {
                let _ = fs::remove_file(p);
            }
        }
    }
}

/// An exclusive lock on the folder's lock file, released when dropped.
fn lock_dir(dir: &Path) -> io::Result<nix::fcntl::Flock<fs::File>> {
    let file =
        fs::OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(".lock"))?;
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, errno)| io::Error::from(errno))
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir)
    }
}

#[cfg(test)]
mod tests;
