//! The store file: reading it (bounded, never trusting what it cannot read), and changing it
//! under a lock with an atomic replace.

use std::{
    collections::BTreeMap,
    io::Write,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use hooks_schema::AbsPathBuf;
use serde::{Deserialize, Serialize};

use crate::{
    digest::{BadDigest, Digest, HashError, read_regular},
    pin::{FilePin, PathStateKey, PinnedScript},
};

/// The store's file name in the engine's state directory.
pub const STORE_FILE_NAME: &str = "trust.json";
/// The largest store file read.
pub const MAX_STORE_BYTES: u64 = 16 * 1024 * 1024;
/// The most hook files one store holds.
pub const MAX_FILES: usize = 10_000;
/// The most scripts pinned for one hook file.
pub const MAX_SCRIPTS_PER_FILE: usize = 4_096;
/// The longest path or text field kept in the store, in bytes.
pub const MAX_TEXT_BYTES: usize = 4_096;
/// How long a writer waits for another writer's lock before it gives up.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);
/// The store format's version.
const VERSION: u32 = 1;

/// Why the store cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The file exists but is not a store this version can read (malformed, over a limit,
    /// another version, not a regular file, writable by others): nothing in it is trusted,
    /// and it is never overwritten.
    #[error("the trust store {path} is not valid: {reason}")]
    Invalid {
        /// The store file.
        path: PathBuf,
        /// Why.
        #[source]
        reason: InvalidStore,
    },
    /// Another writer held the lock for longer than [`LOCK_WAIT`].
    #[error("the trust store {path} is locked by another process (waited {waited:?})")]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// How long this writer waited.
        waited: Duration,
    },
    /// Reading, creating or replacing a file failed.
    #[error("trust store {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The change would put more than [`MAX_FILES`] files in the store.
    #[error("the trust store would hold more than {MAX_FILES} hook files; revoke some first")]
    Full,
    /// The change would make the store larger than [`MAX_STORE_BYTES`], which no reader
    /// would read again: it is refused and the store kept as it was.
    #[error(
        "the trust store would grow to {bytes} bytes, over {MAX_STORE_BYTES}; revoke some files first"
    )]
    TooLarge {
        /// The size it would have.
        bytes: u64,
    },
}

/// Why a store file is not a store this version trusts.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidStore {
    /// It is not a regular file, or it is over [`MAX_STORE_BYTES`].
    #[error(transparent)]
    Unreadable(HashError),
    /// Another user owns it.
    #[error("it is owned by user {owner} rather than {me}")]
    Owner {
        /// Its owner's id.
        owner: u32,
        /// This process's effective user id.
        me: u32,
    },
    /// Others may write it.
    #[error("others may write it (mode {mode:o}); only its owner may")]
    Writable {
        /// Its permission bits.
        mode: u32,
    },
    /// Its metadata cannot be read.
    #[error("{0}")]
    Metadata(#[source] std::io::Error),
    /// It is not the store's JSON document.
    #[error("{0}")]
    Json(#[source] serde_json::Error),
    /// Another version's document.
    #[error("version {found} (this build reads version {VERSION})")]
    Version {
        /// The version it says.
        found: u32,
    },
    /// More files than [`MAX_FILES`].
    #[error("more than {MAX_FILES} hook files")]
    TooManyFiles,
    /// One file's record is wrong.
    #[error("file {index}: {problem}")]
    File {
        /// Its position in the document.
        index: usize,
        /// What is wrong with it.
        #[source]
        problem: RecordError,
    },
}

/// What is wrong with one file's record in the store.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// More scripts (or notes) than [`MAX_SCRIPTS_PER_FILE`].
    #[error("more than {MAX_SCRIPTS_PER_FILE} {what}")]
    TooMany {
        /// `scripts` or `notes`.
        what: &'static str,
    },
    /// A text over [`MAX_TEXT_BYTES`].
    #[error("{what} is longer than {MAX_TEXT_BYTES} bytes")]
    TooLong {
        /// Which field.
        what: &'static str,
    },
    /// A text holding a NUL byte.
    #[error("{what} contains a NUL byte")]
    Nul {
        /// Which field.
        what: &'static str,
    },
    /// A path that is not absolute and clean.
    #[error("{what}: {source}")]
    Path {
        /// Which field.
        what: &'static str,
        /// Why.
        #[source]
        source: hooks_schema::SchemaError,
    },
    /// A digest that is not one.
    #[error("{what}: {source}")]
    Digest {
        /// Which field.
        what: &'static str,
        /// Why.
        #[source]
        source: BadDigest,
    },
    /// A kind that is no source kind name.
    #[error("kind is not a source kind name")]
    Kind,
    /// A session path that is absolute.
    #[error("a session path is absolute")]
    SessionPathAbsolute,
    /// The same hook file listed twice.
    #[error("{path} is listed twice")]
    Duplicate {
        /// The file.
        path: AbsPathBuf,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.to_path_buf(), source }
}

/// The trust store: which hook files the user trusted, at which content. Reads are lock-free
/// (the file is only ever replaced whole); writes take the lock file beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustStore {
    path: PathBuf,
}

/// What the store held when it was read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreContents {
    files: BTreeMap<AbsPathBuf, FilePin>,
}

impl StoreContents {
    /// The pin of the hook file at `path`.
    pub fn get(&self, path: &AbsPathBuf) -> Option<&FilePin> {
        self.files.get(path)
    }

    /// Every pin, by path.
    pub fn pins(&self) -> impl Iterator<Item = &FilePin> {
        self.files.values()
    }

    /// How many hook files are trusted.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether nothing is trusted.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Records `pin`, replacing what was pinned for its path.
    pub fn insert(&mut self, pin: FilePin) {
        self.files.insert(pin.path.clone(), pin);
    }

    /// Forgets the files `remove` selects; returns them.
    pub fn remove_where(&mut self, mut remove: impl FnMut(&FilePin) -> bool) -> Vec<FilePin> {
        let gone: Vec<AbsPathBuf> =
            self.files.values().filter(|p| remove(p)).map(|p| p.path.clone()).collect();
        gone.iter().filter_map(|p| self.files.remove(p)).collect()
    }
}

impl TrustStore {
    /// The store at `path` (a file; it need not exist).
    pub fn at(path: impl Into<PathBuf>) -> TrustStore {
        TrustStore { path: path.into() }
    }

    /// The store in the engine's state directory `dir` ([`STORE_FILE_NAME`]).
    pub fn in_state_dir(dir: &Path) -> TrustStore {
        TrustStore::at(dir.join(STORE_FILE_NAME))
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder that holds the store, its lock and its temporary files: the guard protects
    /// it as a whole (an agent that could write there could trust its own hooks).
    pub fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(&self.path)
    }

    /// The lock file writers take.
    pub fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        self.path.with_file_name(name)
    }

    /// Reads the store. No file is an empty store; anything that is not a valid store is
    /// [`StoreError::Invalid`], and then nothing is trusted.
    pub fn load(&self) -> Result<StoreContents, StoreError> {
        let invalid =
            |reason: InvalidStore| StoreError::Invalid { path: self.path.clone(), reason };
        let bytes = match read_regular(&self.path, MAX_STORE_BYTES) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Ok(StoreContents::default()),
            Err(crate::digest::HashError::Io { source, .. }) => {
                return Err(StoreError::Io { path: self.path.clone(), source });
            }
            Err(e) => return Err(invalid(InvalidStore::Unreadable(e))),
        };
        check_owner(&self.path).map_err(invalid)?;
        decode(&bytes).map_err(invalid)
    }

    /// Changes the store: takes the lock, reads the store, lets `change` edit it, and replaces
    /// the file atomically (a temporary file in the same folder, flushed to disk, renamed
    /// over the store, the folder flushed). A store that cannot be read is never replaced.
    /// Returns what `change` returned.
    pub fn update<T>(&self, change: impl FnOnce(&mut StoreContents) -> T) -> Result<T, StoreError> {
        let dir = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        create_private_dir(&dir)?;
        let _lock = Lock::take(&self.lock_path(), LOCK_WAIT)?;
        let mut contents = self.load()?;
        let out = change(&mut contents);
        if contents.files.len() > MAX_FILES {
            return Err(StoreError::Full);
        }
        let bytes = encode(&contents);
        if bytes.len() as u64 > MAX_STORE_BYTES {
            return Err(StoreError::TooLarge { bytes: bytes.len() as u64 });
        }
        let mut tmp = tempfile::Builder::new()
            .prefix(".trust-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(io(&dir))?;
        tmp.write_all(&bytes).map_err(io(tmp.path()))?;
        tmp.as_file().sync_all().map_err(io(tmp.path()))?;
        tmp.persist(&self.path)
            .map_err(|e| StoreError::Io { path: self.path.clone(), source: e.error })?;
        sync_dir(&dir)?;
        Ok(out)
    }
}

/// Creates `dir` (and its parents) readable by the user only.
fn create_private_dir(dir: &Path) -> Result<(), StoreError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(io(dir))
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// On Unix, a store another user owns, or that others may write, is not the user's own
/// record of what they trusted.
fn check_owner(path: &Path) -> Result<(), InvalidStore> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).map_err(InvalidStore::Metadata)?;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(InvalidStore::Owner { owner: meta.uid(), me });
        }
        if meta.mode() & 0o022 != 0 {
            return Err(InvalidStore::Writable { mode: meta.mode() & 0o777 });
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// An exclusive lock on the lock file, released when dropped (the lock file stays).
struct Lock {
    _file: std::fs::File,
}

impl Lock {
    fn take(path: &Path, wait: Duration) -> Result<Lock, StoreError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(io(path))?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match try_lock(&file) {
                Ok(true) => return Ok(Lock { _file: file }),
                Ok(false) => {}
                Err(e) => return Err(StoreError::Io { path: path.to_path_buf(), source: e }),
            }
            if start.elapsed() >= wait {
                return Err(StoreError::Locked {
                    path: path.to_path_buf(),
                    waited: start.elapsed(),
                });
            }
            // Writers hold the lock for one read and one small write; back off briefly.
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    use rustix::fs::{FlockOperation, flock};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK || e == rustix::io::Errno::INTR => Ok(false),
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(unix))]
#[allow(clippy::incompatible_msrv)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

// The document on disk. Unknown fields are refused: a store this version does not fully
// understand is not trusted.

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    files: Vec<FileRecord>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRecord {
    path: String,
    kind: String,
    root: Option<String>,
    sha256: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scripts: Vec<ScriptRecord>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    uncertain: Vec<String>,
    trusted_at: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptRecord {
    path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    session: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    folder: bool,
    /// `absent`, or the content's SHA-256 (a folder's for a folder).
    sha256: String,
}

fn encode(contents: &StoreContents) -> Vec<u8> {
    let text = |p: &Path| p.to_string_lossy().into_owned();
    let doc = Document {
        version: VERSION,
        files: contents
            .files
            .values()
            .map(|pin| FileRecord {
                path: text(pin.path.as_path()),
                kind: pin.kind.clone(),
                root: pin.root.as_ref().map(|r| text(r.as_path())),
                sha256: pin.digest.to_string(),
                scripts: pin
                    .scripts
                    .iter()
                    .map(|s| ScriptRecord {
                        path: text(s.path.as_path()),
                        session: s.session.as_deref().map(text),
                        folder: s.folder,
                        sha256: match s.state {
                            PathStateKey::Absent => "absent".to_owned(),
                            PathStateKey::File(d) | PathStateKey::Folder(d) => d.to_string(),
                        },
                    })
                    .collect(),
                uncertain: pin.uncertain.clone(),
                trusted_at: pin.trusted_at,
            })
            .collect(),
    };
    let mut bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Reads a store document; any deviation is an error naming it.
pub(crate) fn decode(bytes: &[u8]) -> Result<StoreContents, InvalidStore> {
    let doc: Document = serde_json::from_slice(bytes).map_err(InvalidStore::Json)?;
    if doc.version != VERSION {
        return Err(InvalidStore::Version { found: doc.version });
    }
    if doc.files.len() > MAX_FILES {
        return Err(InvalidStore::TooManyFiles);
    }
    let mut files = BTreeMap::new();
    for (index, record) in doc.files.into_iter().enumerate() {
        let pin = decode_file(record).map_err(|problem| InvalidStore::File { index, problem })?;
        if files.contains_key(&pin.path) {
            let problem = RecordError::Duplicate { path: pin.path };
            return Err(InvalidStore::File { index, problem });
        }
        files.insert(pin.path.clone(), pin);
    }
    Ok(StoreContents { files })
}

fn bounded(what: &'static str, text: String) -> Result<String, RecordError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(RecordError::TooLong { what });
    }
    if text.contains('\0') {
        return Err(RecordError::Nul { what });
    }
    Ok(text)
}

fn abs(what: &'static str, text: String) -> Result<AbsPathBuf, RecordError> {
    let text = bounded(what, text)?;
    AbsPathBuf::new(PathBuf::from(&text)).map_err(|source| RecordError::Path { what, source })
}

fn digest(what: &'static str, text: &str) -> Result<Digest, RecordError> {
    text.parse().map_err(|source| RecordError::Digest { what, source })
}

fn decode_file(r: FileRecord) -> Result<FilePin, RecordError> {
    if r.scripts.len() > MAX_SCRIPTS_PER_FILE {
        return Err(RecordError::TooMany { what: "scripts" });
    }
    if r.uncertain.len() > MAX_SCRIPTS_PER_FILE {
        return Err(RecordError::TooMany { what: "notes" });
    }
    let kind = bounded("kind", r.kind)?;
    if kind.is_empty()
        || !kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
    {
        return Err(RecordError::Kind);
    }
    let mut scripts = Vec::with_capacity(r.scripts.len());
    for s in r.scripts {
        let session = match s.session {
            Some(rel) => {
                let rel = PathBuf::from(bounded("session path", rel)?);
                if rel.is_absolute() {
                    return Err(RecordError::SessionPathAbsolute);
                }
                Some(rel)
            }
            None => None,
        };
        let state = match s.sha256.as_str() {
            "absent" => PathStateKey::Absent,
            hex if s.folder => PathStateKey::Folder(digest("script digest", hex)?),
            hex => PathStateKey::File(digest("script digest", hex)?),
        };
        scripts.push(PinnedScript {
            path: abs("script path", s.path)?,
            session,
            folder: s.folder,
            state,
        });
    }
    scripts.sort();
    let uncertain =
        r.uncertain.into_iter().map(|u| bounded("note", u)).collect::<Result<_, _>>()?;
    Ok(FilePin {
        path: abs("path", r.path)?,
        kind,
        root: r.root.map(|root| abs("root", root)).transpose()?,
        digest: digest("sha256", &r.sha256)?,
        scripts,
        uncertain,
        trusted_at: r.trusted_at,
    })
}

#[cfg(test)]
mod tests;
