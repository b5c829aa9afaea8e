//! Resolution of a requested edit path: join to the session's working directory, normalize,
//! and canonicalize through the registry's one helper, leniently when the path does not exist.

use std::{
    borrow::Cow,
    io,
    path::{Component, Path, PathBuf},
};

use hooks_schema::AbsPathBuf;

use crate::{
    GuardError,
    file_key::{FileKey, file_key},
    spelling::{is_process_relative, process_relative_link, spellings},
};

#[cfg(test)]
mod tests;

/// How many dangling symlinks a lenient resolution follows before it stops (a loop, or a
/// chain longer than any real layout).
const MAX_DANGLING_HOPS: u32 = 16;

/// One reading of a requested path, resolved to where an edit would land on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute path, symlinks resolved as far as the path exists.
    pub path: AbsPathBuf,
    /// Whether the whole path exists (it was canonicalized in one piece).
    pub exists: bool,
    /// The device and inode of the file, when it exists and the platform exposes them.
    pub(crate) key: Option<FileKey>,
    /// Whether it exists and is a folder.
    pub(crate) dir: bool,
}

/// Canonicalizes `path` through the registry's helper: every path comparison of the engine
/// goes through that one function.
pub(crate) fn canonicalize(path: &Path) -> io::Result<AbsPathBuf> {
    hooks_registry::canonicalize(path)
}

/// Removes `.` components, folds each `..` into its parent and drops trailing separators.
///
/// This is lexical: `link/..` becomes the folder holding `link`, not the parent of its
/// target. At the root, `..` is the root. Leading `..` of a relative path are kept.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    let mut normal_depth = 0usize;
    let mut rooted = false;
    for component in path.components() {
        match component {
            Component::Prefix(_) => out.push(component.as_os_str()),
            Component::RootDir => {
                rooted = true;
                out.push(component.as_os_str());
            }
            Component::CurDir => {}
            Component::ParentDir => {
                if normal_depth > 0 {
                    out.pop();
                    normal_depth -= 1;
                } else if !rooted {
                    out.push("..");
                }
            }
            Component::Normal(name) => {
                out.push(name);
                normal_depth += 1;
            }
        }
    }
    out
}

/// Resolves a path the agent asked to edit, as the guard compares it.
///
/// A relative `requested` is joined to `session_cwd`. The result is normalized lexically and
/// resolved on disk (see [`crate`] for the rule). When the joined path has a `..` component
/// it is also resolved the way the operating system reads it, and both readings are returned
/// when they differ; the guard protects a path when either reading hits.
///
/// Other spellings are read as a file tool may read them, and every reading is returned: a
/// `file:` URL as its path, and a leading `~` as `home` (besides the literal reading of
/// both). A path with a NUL byte, `~` without a `home` (or `~user`), a `file:` URL that is
/// not local, and a path that names the opening process (`/proc/self`, `/dev/fd`, …),
/// directly or through a symlink, are errors: the guard fails closed on them.
pub fn resolve_edit_path(
    requested: &Path,
    session_cwd: &Path,
    home: Option<&Path>,
) -> Result<Vec<Resolved>, GuardError> {
    let mut readings: Vec<Resolved> = Vec::new();
    for spelling in spellings(requested, home)? {
        let joined: Cow<'_, Path> = if spelling.is_absolute() {
            Cow::Borrowed(&spelling)
        } else if session_cwd.is_absolute() {
            Cow::Owned(session_cwd.join(&spelling))
        } else {
            return Err(GuardError::RelativeSessionCwd {
                path: requested.to_path_buf(),
                cwd: session_cwd.to_path_buf(),
            });
        };
        let lexical = normalize_lexically(&joined);
        let process = |via: &Path| GuardError::ProcessRelative {
            path: requested.to_path_buf(),
            via: via.to_path_buf(),
        };
        if is_process_relative(&joined) || is_process_relative(&lexical) {
            return Err(process(&joined));
        }
        let two_readings = has_parent_component(&joined);
        let mut found = vec![resolve_reading(&lexical)?];
        if two_readings {
            found.push(resolve_reading(&joined)?);
        }
        // A reading that moved went through a symlink, which may point at the guard's own
        // process; one that did not cannot have. Without `..` the joined path is the lexical
        // one (`.` and doubled separators aside), so one walk reads both.
        if found.iter().any(|r| r.path.as_path() != lexical) {
            let physical: Vec<&Path> =
                found.iter().filter(|r| r.exists).map(|r| r.path.as_path()).collect();
            let walks: &[&Path] = if two_readings { &[&lexical, &joined] } else { &[&lexical] };
            for path in walks {
                if let Some(link) = process_relative_link(path, &physical) {
                    return Err(process(&link));
                }
            }
        }
        for reading in found {
            if readings.iter().all(|r| r.path != reading.path) {
                readings.push(reading);
            }
        }
    }
    Ok(readings)
}

/// Canonicalizes `path` when it exists, and leniently otherwise.
fn resolve_reading(path: &Path) -> Result<Resolved, GuardError> {
    match canonicalize(path) {
        Ok(canonical) => {
            let meta = std::fs::metadata(canonical.as_path()).ok();
            let key = meta.as_ref().and_then(file_key);
            let dir = meta.is_some_and(|m| m.is_dir());
            Ok(Resolved { path: canonical, exists: true, key, dir })
        }
        Err(_) => {
            // One `lstat` per component down to the first missing one: with or without `..`,
            // that reads the nearest existing ancestor canonicalized with the rest appended
            // (following a dangling symlink), as canonicalizing each shorter prefix in turn
            // did, at a cost of one call per component instead of a `realpath` per prefix.
            let path = resolve_physically(path, MAX_DANGLING_HOPS)?;
            Ok(Resolved { path, exists: false, key: None, dir: false })
        }
    }
}

fn has_parent_component(path: &Path) -> bool {
    path.components().any(|c| c == Component::ParentDir)
}

/// Resolves `path` component by component the way the operating system would once the
/// missing folders are created: an existing component is followed physically (symlinks
/// resolved, `..` is the parent of the resolved folder), a missing one is kept as written,
/// and a `..` after a missing folder cancels it. Dangling symlinks are followed up to `hops`
/// times; past that, they are kept as written.
///
/// Used only for paths that do not exist, where it costs one `lstat` per component.
fn resolve_physically(path: &Path, hops: u32) -> Result<AbsPathBuf, GuardError> {
    let mut current = PathBuf::new();
    let mut missing: Vec<&std::ffi::OsStr> = Vec::new();
    let mut components = path.components();
    while let Some(component) = components.next() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                current.push(component.as_os_str());
                missing.clear();
            }
            Component::CurDir => {}
            Component::ParentDir => {
                if missing.pop().is_none() {
                    current.pop();
                }
            }
            Component::Normal(name) => {
                if !missing.is_empty() {
                    missing.push(name);
                    continue;
                }
                let candidate = current.join(name);
                match std::fs::symlink_metadata(&candidate) {
                    Err(_) => {
                        missing.push(name);
                        continue;
                    }
                    Ok(meta) if !meta.file_type().is_symlink() => {
                        current = candidate;
                        continue;
                    }
                    Ok(_) => {}
                }
                if let Ok(resolved) = canonicalize(&candidate) {
                    current = resolved.into_path_buf();
                    continue;
                }
                match std::fs::read_link(&candidate) {
                    Ok(target) if hops > 0 => {
                        let mut followed = current.join(target);
                        followed.extend(components);
                        return resolve_physically(&followed, hops - 1);
                    }
                    _ => missing.push(name),
                }
            }
        }
    }
    current.extend(missing);
    to_abs(current)
}

fn to_abs(path: PathBuf) -> Result<AbsPathBuf, GuardError> {
    AbsPathBuf::new(path.clone()).map_err(|source| GuardError::InvalidPath { path, source })
}
