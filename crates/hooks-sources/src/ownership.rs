//! Whether only the administrator can write a file: the check a location declared
//! [`Ownership::Administrator`](hooks_schema::Ownership) is read under.
//!
//! Gemini CLI 0.61 reads its system settings and system defaults only when the file, the file
//! it links to, and every folder above either belong to `root` (uid 0) and no one else may
//! write them (`isFileAndDirectorySecureSync`): otherwise it prints a security warning and
//! skips the file. The engine makes the same check, so it never runs the hooks of a
//! "system" file another user could have written, and reads what the agent reads.

use std::{
    io,
    path::{Component, Path, PathBuf},
};

/// What the check needs to know of one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    /// The owner's uid.
    pub(crate) uid: u32,
    /// The permission bits (`st_mode & 0o7777`).
    pub(crate) mode: u32,
    /// What it is.
    pub(crate) kind: Kind,
}

/// A path's type, as the check tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Folder,
    Link,
    Other,
}

/// The file system as the check looks at it: the disk ([`Disk`]), or a table in tests.
pub(crate) trait Inspect {
    /// The path's own metadata (a symbolic link is not followed).
    fn lstat(&self, path: &Path) -> io::Result<Meta>;
    /// The metadata of what the path leads to (links followed).
    fn stat(&self, path: &Path) -> io::Result<Meta>;
    /// The path with every link resolved.
    fn realpath(&self, path: &Path) -> io::Result<PathBuf>;
}

/// The disk.
pub(crate) struct Disk;

#[cfg(unix)]
impl Inspect for Disk {
    fn lstat(&self, path: &Path) -> io::Result<Meta> {
        std::fs::symlink_metadata(path).map(|m| meta(&m))
    }

    fn stat(&self, path: &Path) -> io::Result<Meta> {
        std::fs::metadata(path).map(|m| meta(&m))
    }

    fn realpath(&self, path: &Path) -> io::Result<PathBuf> {
        hooks_registry::canonicalize(path).map(hooks_schema::AbsPathBuf::into_path_buf)
    }
}

#[cfg(unix)]
fn meta(m: &std::fs::Metadata) -> Meta {
    use std::os::unix::fs::MetadataExt;
    let t = m.file_type();
    let kind = if t.is_symlink() {
        Kind::Link
    } else if t.is_dir() {
        Kind::Folder
    } else if t.is_file() {
        Kind::File
    } else {
        Kind::Other
    };
    Meta { uid: m.uid(), mode: m.mode() & 0o7777, kind }
}

/// Why a file is not one only the administrator can write ([`administrator_only`]): the path
/// that fails the check (the file, a folder above it, a link on the way or what it leads to)
/// and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum NotAdministratorOnly {
    /// The path exists but its metadata cannot be read.
    #[error("`{}` cannot be looked at ({source})", path.display())]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// Why it cannot be.
        source: io::Error,
    },
    /// A path above the file is not a folder.
    #[error("`{}` is not a folder", path.display())]
    NotAFolder {
        /// The path.
        path: PathBuf,
    },
    /// The file, or what a link to it leads to, is not a regular file.
    #[error("`{}` is not a regular file", path.display())]
    NotARegularFile {
        /// The path.
        path: PathBuf,
    },
    /// A symbolic link on the way belongs to another user than root.
    #[error("the symbolic link `{}` does not belong to root (its owner is uid {uid})", path.display())]
    LinkNotRoots {
        /// The link.
        path: PathBuf,
        /// Its owner.
        uid: u32,
    },
    /// The path belongs to another user than root.
    #[error("`{}` does not belong to root (its owner is uid {uid})", path.display())]
    NotRoots {
        /// The path.
        path: PathBuf,
        /// Its owner.
        uid: u32,
    },
    /// The path's group or others may write it.
    #[error("`{}` can be written by its group or by others (mode {mode:o})", path.display())]
    WritableByOthers {
        /// The path.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
}

impl NotAdministratorOnly {
    /// The path that fails the check.
    pub fn path(&self) -> &Path {
        match self {
            Self::Unreadable { path, .. }
            | Self::NotAFolder { path }
            | Self::NotARegularFile { path }
            | Self::LinkNotRoots { path, .. }
            | Self::NotRoots { path, .. }
            | Self::WritableByOthers { path, .. } => path,
        }
    }
}

/// Why `path` is not a file only the administrator can write, or `Ok` when it is (or when
/// there is no file there: nothing is read then anyway). On Windows nothing is checked
/// (Gemini CLI asks PowerShell for the ACLs there; the engine does not).
///
/// ```
/// use std::path::Path;
///
/// // A file that is not there passes: nothing would be read from it.
/// assert!(hooks_sources::administrator_only(Path::new("/nowhere/settings.json")).is_ok());
/// ```
pub fn administrator_only(path: &Path) -> Result<(), NotAdministratorOnly> {
    #[cfg(unix)]
    {
        check(&Disk, path)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// Write by the group or by others.
const GROUP_OR_OTHER_WRITE: u32 = 0o022;

/// [`administrator_only`] against `fs`.
pub(crate) fn check(fs: &dyn Inspect, path: &Path) -> Result<(), NotAdministratorOnly> {
    let file = normalize(path);
    match fs.stat(&file) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(NotAdministratorOnly::Unreadable { path: file, source }),
        Ok(_) => {}
    }
    let canonical = fs.realpath(&file).map_or_else(|_| file.clone(), |p| normalize(&p));
    for dir in folders_above(&file) {
        one(fs, dir, Kind::Folder)?;
    }
    one(fs, &file, Kind::File)?;
    if canonical != file {
        one(fs, &canonical, Kind::File)?;
        for dir in folders_above(&canonical) {
            one(fs, dir, Kind::Folder)?;
        }
    }
    Ok(())
}

/// One path of the check: what it leads to is of `kind`, belongs to root and is not
/// writable by its group or others; a link on the way belongs to root too. A path that is
/// not there passes (as in Gemini CLI: only what exists can be written).
fn one(fs: &dyn Inspect, path: &Path, kind: Kind) -> Result<(), NotAdministratorOnly> {
    use NotAdministratorOnly as Not;
    let path_buf = || path.to_path_buf();
    let target = match fs.stat(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(Not::Unreadable { path: path_buf(), source }),
    };
    match (kind, target.kind) {
        (Kind::Folder, Kind::Folder) | (Kind::File, Kind::File) => {}
        (Kind::Folder, _) => return Err(Not::NotAFolder { path: path_buf() }),
        _ => return Err(Not::NotARegularFile { path: path_buf() }),
    }
    if let Ok(link) = fs.lstat(path)
        && link.kind == Kind::Link
        && link.uid != 0
    {
        return Err(Not::LinkNotRoots { path: path_buf(), uid: link.uid });
    }
    if target.uid != 0 {
        return Err(Not::NotRoots { path: path_buf(), uid: target.uid });
    }
    if target.mode & GROUP_OR_OTHER_WRITE != 0 {
        return Err(Not::WritableByOthers { path: path_buf(), mode: target.mode });
    }
    Ok(())
}

/// The folders above `file`, nearest first, the root included.
fn folders_above(file: &Path) -> impl Iterator<Item = &Path> {
    file.ancestors().skip(1).filter(|p| !p.as_os_str().is_empty())
}

/// `path` with `.` left out and `..` taking off the name before it, as Node's
/// `path.resolve` does (lexically: a link before a `..` is not followed).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests;
