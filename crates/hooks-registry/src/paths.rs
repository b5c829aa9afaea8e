//! Path helpers: the workspace's one canonicalization function and its lenient variant, and
//! its one way of opening a file that may be a FIFO.

use std::{
    borrow::Cow,
    io,
    path::{Component, Path, PathBuf},
};

use hooks_schema::AbsPathBuf;

/// Resolves `path` to its canonical absolute form (symlinks resolved, `.` and `..` gone).
///
/// This is the one place in the workspace that calls `dunce::canonicalize`; every path
/// comparison (source identity, project roots, protected paths, the guard) goes through it
/// so two spellings of one file compare equal. The path must exist.
#[allow(clippy::disallowed_methods)]
pub fn canonicalize(path: &Path) -> io::Result<AbsPathBuf> {
    #[cfg(test)]
    CANONICALIZED.with(|n| n.set(n.get() + 1));
    let resolved = dunce::canonicalize(path)?;
    AbsPathBuf::new(resolved).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
thread_local! {
    /// How many times this thread called [`canonicalize`] (for tests: each test has a thread).
    pub(crate) static CANONICALIZED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Makes `path` absolute against `base` and removes `.` and `..` lexically, touching nothing
/// on disk. A `..` at the root stays at the root.
pub fn normalize_lexically(path: &Path, base: &AbsPathBuf) -> AbsPathBuf {
    let joined = if path.is_absolute() { path.to_path_buf() } else { base.as_path().join(path) };
    normalize_absolute(&joined).unwrap_or_else(|| base.clone())
}

/// Removes `.` and `..` from an absolute path lexically; `None` for a relative path.
pub(crate) fn normalize_absolute(joined: &Path) -> Option<AbsPathBuf> {
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                // `pop` never removes the root, so `/..` stays `/`.
                if out.parent().is_some() {
                    out.pop();
                }
            }
            Component::Normal(name) => out.push(name),
        }
    }
    AbsPathBuf::new(out).ok()
}

/// The absolute path a configuration value names: `~/…` under `home`, an absolute path as
/// it is; `None` for anything else (a relative path, `~/` without a home, `~user/`). How ssh
/// takes a library's path and lefthook an `extends` file, and what a caller that knows no
/// working directory can place of a command line's files.
pub(crate) fn home_or_absolute(value: &str, home: Option<&Path>) -> Option<PathBuf> {
    match value.strip_prefix("~/") {
        Some(rest) => home.map(|home| home.join(rest)),
        None => Some(PathBuf::from(value)).filter(|p| p.is_absolute()),
    }
}

/// Resolves `path` for a comparison with canonical paths, whether or not it exists.
///
/// `path` is made absolute against `base` and normalized lexically, then the nearest
/// existing ancestor is canonicalized and the rest is appended as written. A path that
/// exists comes out exactly as [`canonicalize`] gives it; a file about to be created under a
/// symlinked directory comes out under the directory's target.
pub fn canonicalize_lenient(path: &Path, base: &AbsPathBuf) -> AbsPathBuf {
    let normalized = normalize_lexically(path, base);
    for ancestor in normalized.as_path().ancestors() {
        let Ok(resolved) = canonicalize(ancestor) else { continue };
        let Ok(rest) = normalized.as_path().strip_prefix(ancestor) else { continue };
        if rest.as_os_str().is_empty() {
            return resolved;
        }
        return resolved.join(rest).unwrap_or_else(|_| normalized.clone());
    }
    normalized
}

/// The same path with a clean spelling (no trailing separator, no doubled separators), so
/// it can key a map that the ancestors of another clean path are looked up in.
pub(crate) fn clean(path: &Path) -> PathBuf {
    path.components().collect()
}

/// [`clean`], without allocating when the path is clean already.
pub(crate) fn clean_cow(path: &Path) -> Cow<'_, Path> {
    if needs_clean(path) { Cow::Owned(clean(path)) } else { Cow::Borrowed(path) }
}

/// Whether `path` is spelled with a trailing separator, a doubled one or a `.` component,
/// which a map keyed by clean spellings would miss.
pub(crate) fn needs_clean(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    let sep = std::path::MAIN_SEPARATOR as u8;
    // One pass (a lookup walks a working directory's ancestors after it): where the last
    // bytes leave off, in a name, just after a separator, or at a `.` just after one.
    #[derive(PartialEq)]
    enum At {
        Name,
        Separator,
        Dot,
    }
    let mut at = At::Name;
    for &b in bytes {
        at = match at {
            At::Separator | At::Dot if b == sep => return true,
            _ if b == sep => At::Separator,
            At::Separator if b == b'.' => At::Dot,
            _ => At::Name,
        };
    }
    bytes.len() > 1 && at == At::Separator
}

/// Whether an absolute path is spelled the way [`normalize_lexically`] would give it back:
/// no `.` or `..` component, no doubled or trailing separator (then it need not be rebuilt).
pub(crate) fn is_normal(path: &Path) -> bool {
    if !cfg!(unix) {
        return false;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes == b"/" {
        return true;
    }
    bytes.first() == Some(&b'/')
        && bytes
            .split(|b| *b == b'/')
            .skip(1)
            .all(|part| !part.is_empty() && part != b"." && part != b"..")
}

/// The hasher of the registry's maps keyed by paths (a resolver's paths, the project roots
/// a lookup walks a working directory's ancestors through): foldhash, seeded at random per
/// map. SipHash over every path cost more than the rest of the work (an unchanged source's
/// reload, a nearest-root lookup); an unseeded hash would let a repository's hook file
/// choose script paths that collide and make a compile quadratic.
pub(crate) type PathHashing = foldhash::fast::RandomState;

#[cfg(test)]
mod tests;

/// Opens `path` for reading without waiting on a FIFO: with `O_NONBLOCK` the open of a FIFO
/// (put where a file is expected, or swapped in after a check) returns at once, and the
/// handle's own metadata then tells the caller it is no regular file. The workspace's readers
/// of hook files, scripts and pinned files all open through it.
pub fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    options.open(path)
}
