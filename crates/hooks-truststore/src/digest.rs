//! SHA-256 digests of files and folders, read without blocking and within bounds.

use std::{
    fmt,
    io::Read,
    path::{Path, PathBuf},
    str::FromStr,
};

use sha2::{Digest as _, Sha256};

/// The largest file whose content is pinned (a larger script cannot be trusted).
pub const MAX_PINNED_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// The most files a pinned folder may hold (all levels together).
pub const MAX_FOLDER_ENTRIES: usize = 1024;
/// How deep a pinned folder is walked.
pub const MAX_FOLDER_DEPTH: usize = 8;

/// A SHA-256 digest, shown and stored as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// Why a text is not a digest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a SHA-256 digest (64 lowercase hex digits)")]
pub struct BadDigest;

impl FromStr for Digest {
    type Err = BadDigest;

    /// Exactly 64 lowercase hex digits.
    fn from_str(s: &str) -> Result<Digest, BadDigest> {
        let bytes = s.as_bytes();
        if bytes.len() != 64 {
            return Err(BadDigest);
        }
        let nibble = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            _ => Err(BadDigest),
        };
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            out[i] = (nibble(pair[0])? << 4) | nibble(pair[1])?;
        }
        Ok(Digest(out))
    }
}

/// What a pinned path held when it was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathState {
    /// Nothing there (a script a hook names that does not exist yet: creating it changes
    /// what runs).
    Absent,
    /// A regular file (through symlinks) with this content.
    File(Digest),
    /// A folder whose files (names and contents, all levels) hash to this.
    Folder(Digest),
}

impl fmt::Display for PathState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathState::Absent => f.write_str("absent"),
            PathState::File(d) => write!(f, "file {d}"),
            PathState::Folder(d) => write!(f, "folder {d}"),
        }
    }
}

/// Why a path's content cannot be pinned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HashError {
    /// It is neither a regular file nor a folder (a FIFO, a socket, a device).
    #[error("{path} is not a regular file")]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// Over [`MAX_PINNED_FILE_BYTES`], or a folder over [`MAX_FOLDER_ENTRIES`] files or
    /// [`MAX_FOLDER_DEPTH`] levels.
    #[error("{path} is too large to pin ({what})")]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// What is over the limit.
        what: String,
    },
    /// It could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> HashError + '_ {
    move |source| HashError::Io { path: path.to_path_buf(), source }
}

/// Reads a regular file at `path` (following symlinks), at most `limit` bytes: `Ok(None)` when
/// nothing is there. The file is opened without blocking and checked to be a regular file
/// before a byte is read, so a FIFO or a device never blocks or streams forever.
pub fn read_regular(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, HashError> {
    let file = match hooks_registry::open_nonblocking(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            // A dangling symlink opens as NotFound above; a folder cannot be opened for
            // reading on some platforms: say what it is.
            if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
                return Err(HashError::NotRegular { path: path.to_path_buf() });
            }
            return Err(io(path)(e));
        }
    };
    let meta = file.metadata().map_err(io(path))?;
    if !meta.is_file() {
        return Err(HashError::NotRegular { path: path.to_path_buf() });
    }
    if meta.len() > limit {
        return Err(HashError::TooLarge {
            path: path.to_path_buf(),
            what: format!("{} bytes, the limit is {limit}", meta.len()),
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io(path))?;
    if bytes.len() as u64 > limit {
        return Err(HashError::TooLarge {
            path: path.to_path_buf(),
            what: format!("it grew past {limit} bytes while being read"),
        });
    }
    Ok(Some(bytes))
}

/// What `path` holds now: absent, a regular file's digest, or (when `folder` is allowed and
/// it is one) a folder's digest. Anything else, or anything over the limits, is an error:
/// such a path cannot be pinned.
pub fn path_state(path: &Path, folder: bool) -> Result<PathState, HashError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(PathState::Absent),
        Err(e) => return Err(io(path)(e)),
        Ok(m) if m.is_dir() => {
            return if folder {
                folder_digest(path).map(PathState::Folder)
            } else {
                Err(HashError::NotRegular { path: path.to_path_buf() })
            };
        }
        Ok(_) => {}
    }
    Ok(match read_regular(path, MAX_PINNED_FILE_BYTES)? {
        Some(bytes) => PathState::File(Digest::of(&bytes)),
        None => PathState::Absent,
    })
}

/// The digest of every file under `dir`: each entry's path relative to `dir` and its
/// content's digest (or `link` and the target of a symlink to a folder, which is not
/// followed), sorted by path.
fn folder_digest(dir: &Path) -> Result<Digest, HashError> {
    let mut lines: Vec<(PathBuf, String)> = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((current, depth)) = stack.pop() {
        if depth > MAX_FOLDER_DEPTH {
            return Err(HashError::TooLarge {
                path: dir.to_path_buf(),
                what: format!("more than {MAX_FOLDER_DEPTH} levels"),
            });
        }
        for entry in std::fs::read_dir(&current).map_err(io(&current))? {
            let entry = entry.map_err(io(&current))?;
            seen += 1;
            if seen > MAX_FOLDER_ENTRIES {
                return Err(HashError::TooLarge {
                    path: dir.to_path_buf(),
                    what: format!("more than {MAX_FOLDER_ENTRIES} entries"),
                });
            }
            let path = entry.path();
            let rel = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
            let kind = entry.file_type().map_err(io(&path))?;
            if kind.is_dir() {
                stack.push((path, depth + 1));
                continue;
            }
            if kind.is_symlink() && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                let target = std::fs::read_link(&path).map_err(io(&path))?;
                lines.push((rel, format!("link {}", target.display())));
                continue;
            }
            let state = path_state(&path, false)?;
            lines.push((rel, state.to_string()));
        }
    }
    lines.sort();
    let mut hasher = Sha256::new();
    for (rel, state) in lines {
        hasher.update(rel.as_os_str().as_encoded_bytes());
        hasher.update([0]);
        hasher.update(state.as_bytes());
        hasher.update([b'\n']);
    }
    Ok(Digest(hasher.finalize().into()))
}

#[cfg(test)]
mod tests;
