//! File identity: the device and inode of a file, where the platform exposes them.

use std::fs::Metadata;

/// The identity of a file on disk: two paths with the same key are the same file (hard links,
/// bind mounts, case variants on a case-insensitive file system).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
}

/// The key of `meta`, on platforms where the standard library exposes device and inode.
#[cfg(unix)]
pub(crate) fn file_key(meta: &Metadata) -> Option<FileKey> {
    use std::os::unix::fs::MetadataExt;
    Some(FileKey { dev: meta.dev(), ino: meta.ino() })
}

/// The key of `meta`: stable Rust exposes no file index off Unix, so there is none and hard
/// links are not detected there.
#[cfg(not(unix))]
pub(crate) fn file_key(_meta: &Metadata) -> Option<FileKey> {
    None
}

/// The key of the file at `path`, following symlinks; `None` when it cannot be read.
pub(crate) fn key_of(path: &std::path::Path) -> Option<FileKey> {
    std::fs::metadata(path).ok().as_ref().and_then(file_key)
}
