//! Where project hook files live under a project root, and which paths a change must touch to matter.

use std::path::{Component, Path, PathBuf};

#[cfg(test)]
mod tests;

/// The folders under a project root that can hold a project hook file, or a folder that does,
/// relative to the root. These, and the root itself, are the only directories watched.
pub const WATCHED_FOLDERS: [&str; 4] = [".cursor", ".chrys", ".chrys/hooks", ".claude"];

/// The project hook files, relative to the root (Cursor, Chrys in its search order, Claude Code).
pub const HOOK_FILES: [&str; 6] = [
    ".cursor/hooks.json",
    ".chrys/hooks/hooks.yaml",
    ".chrys/hooks/hooks.yml",
    ".chrys/hooks/hooks.json",
    ".claude/settings.local.json",
    ".claude/settings.json",
];

/// What a path is to the project root it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// The root directory itself (deleted or moved while watched).
    Root,
    /// One of [`WATCHED_FOLDERS`].
    Folder,
    /// One of [`HOOK_FILES`].
    HookFile,
}

/// What `path` is to `root`, or `None` when a change to it cannot change the root's hooks.
pub fn touch(root: &Path, path: &Path) -> Option<Touch> {
    if path == root {
        return Some(Touch::Root);
    }
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::with_capacity(3);
    for c in rel.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?),
            _ => return None,
        }
        if parts.len() > 3 {
            return None;
        }
    }
    let joined = parts.join("/");
    if WATCHED_FOLDERS.contains(&joined.as_str()) {
        Some(Touch::Folder)
    } else if HOOK_FILES.contains(&joined.as_str()) {
        Some(Touch::HookFile)
    } else {
        None
    }
}

/// The watched root `path` belongs to and what it is to it, looking at `path` and its three
/// nearest ancestors (the deepest a hook file sits) so the cost does not grow with the number
/// of roots. The nearest root wins when roots are nested.
pub fn owning_root(path: &Path, is_root: impl Fn(&Path) -> bool) -> Option<(PathBuf, Touch)> {
    path.ancestors()
        .take(4)
        .filter(|candidate| is_root(candidate))
        .find_map(|root| touch(root, path).map(|t| (root.to_path_buf(), t)))
}

/// The folders to watch for `root` besides the root itself, absolute.
pub fn folder_paths(root: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    WATCHED_FOLDERS.iter().map(move |rel| root.join(rel))
}
