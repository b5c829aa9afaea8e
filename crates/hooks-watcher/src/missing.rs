//! Whether a project root is on disk as the directory it was added as, and, while it is not,
//! the nearest ancestor whose watch will see it come back.

use std::path::{Path, PathBuf};

use hooks_registry::canonicalize;

#[cfg(test)]
mod tests;

/// What is at a root's path now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Presence {
    /// The directory the root names, at its own canonical path.
    Present,
    /// Nothing, or something that is not a directory (a file, a dangling link).
    Missing,
    /// A symlink (or a path through one) leading to this other directory: the root as added
    /// was canonical, so this is another root, which the embedder adds if it wants it.
    Elsewhere(PathBuf),
}

/// What is at `root` (a canonical path) now: present only when it is a directory and its own
/// canonical form, so a root replaced by a symlink is not read through the link.
pub(crate) fn presence(root: &Path) -> Presence {
    match canonicalize(root) {
        Ok(c) if c.as_path() == root => {
            if root.is_dir() {
                Presence::Present
            } else {
                Presence::Missing
            }
        }
        Ok(c) if c.as_path().is_dir() => Presence::Elsewhere(c.into_path_buf()),
        Ok(_) | Err(_) => Presence::Missing,
    }
}

/// The nearest proper ancestor of `root` that is a directory at its own canonical path: the
/// directory whose non-recursive watch reports the next level towards `root` appearing (or
/// itself going). `None` only when no ancestor qualifies (a relative path).
pub(crate) fn nearest_existing_ancestor(root: &Path) -> Option<PathBuf> {
    root.ancestors().skip(1).find(|a| presence(a) == Presence::Present).map(Path::to_path_buf)
}
