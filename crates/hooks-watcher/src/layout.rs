//! Where project hook files live under a project root, user hook files in the user's folders
//! and managed hook files in the administrator's, and which paths a change must touch to matter.

use std::path::{Component, Path, PathBuf};

use hooks_sources::{MANAGED_FRAGMENT_DIR, ManagedDirs, UserDirs};

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

/// The names of Chrys's hook file in its `hooks/` folder, in search order.
pub const CHRYS_FILE_NAMES: [&str; 3] = ["hooks.yaml", "hooks.yml", "hooks.json"];

/// The user-scope folders that can hold a user hook file, or a folder that does: Cursor's
/// user directory, Claude Code's, Chrys's config directory and its `hooks/` folder. Relative
/// directories are left out (they are not loaded either).
pub fn user_folders(dirs: &UserDirs) -> Vec<PathBuf> {
    let mut out = Vec::with_capacity(4);
    out.extend(absolute(&dirs.cursor_dir).map(Path::to_path_buf));
    out.extend(absolute(&dirs.claude_dir).map(Path::to_path_buf));
    if let Some(chrys) = absolute(&dirs.chrys_config_dir) {
        out.push(chrys.to_path_buf());
        out.push(chrys.join("hooks"));
    }
    out
}

/// What `path` is to the user-scope files in `dirs`: one of [`user_folders`]
/// ([`Touch::Folder`]), one of the user hook files ([`Touch::HookFile`]: `hooks.json` in
/// Cursor's folder, `settings.json` in Claude Code's, [`CHRYS_FILE_NAMES`] in Chrys's
/// `hooks/`), or `None` when a change to it cannot change the user's hooks.
pub fn user_touch(dirs: &UserDirs, path: &Path) -> Option<Touch> {
    let chrys_hooks = absolute(&dirs.chrys_config_dir).map(|c| c.join("hooks"));
    let folders =
        [absolute(&dirs.cursor_dir), absolute(&dirs.claude_dir), absolute(&dirs.chrys_config_dir)];
    if folders.iter().flatten().any(|f| *f == path) || chrys_hooks.as_deref() == Some(path) {
        return Some(Touch::Folder);
    }
    let (parent, name) = (path.parent()?, path.file_name()?.to_str()?);
    let is_file = (absolute(&dirs.cursor_dir) == Some(parent) && name == "hooks.json")
        || (absolute(&dirs.claude_dir) == Some(parent) && name == "settings.json")
        || (chrys_hooks.as_deref() == Some(parent) && CHRYS_FILE_NAMES.contains(&name));
    is_file.then_some(Touch::HookFile)
}

/// The managed folders that can hold a managed hook file, or a folder that does: Cursor's
/// enterprise directory, Claude Code's managed settings directory and its
/// `managed-settings.d/` folder of fragments. Relative directories are left out (they are not
/// loaded either).
pub fn managed_folders(dirs: &ManagedDirs) -> Vec<PathBuf> {
    let mut out = Vec::with_capacity(3);
    out.extend(absolute(&dirs.cursor_dir).map(Path::to_path_buf));
    if let Some(claude) = absolute(&dirs.claude_dir) {
        out.push(claude.to_path_buf());
        out.push(claude.join(MANAGED_FRAGMENT_DIR));
    }
    out
}

/// What `path` is to the managed files in `dirs`: one of [`managed_folders`]
/// ([`Touch::Folder`]), one of the managed hook files ([`Touch::HookFile`]: `hooks.json` in
/// Cursor's folder, `managed-settings.json` in Claude Code's, and any name
/// `hooks_sources::managed_claude_fragments` could read in `managed-settings.d/`: a `*.json`
/// not starting with `.`), or `None` when a change to it cannot change the managed hooks.
pub fn managed_touch(dirs: &ManagedDirs, path: &Path) -> Option<Touch> {
    let (cursor, claude) = (absolute(&dirs.cursor_dir), absolute(&dirs.claude_dir));
    let fragments = claude.map(|c| c.join(MANAGED_FRAGMENT_DIR));
    let fragments = fragments.as_deref();
    if [cursor, claude, fragments].contains(&Some(path)) {
        return Some(Touch::Folder);
    }
    let (parent, name) = (path.parent()?, path.file_name()?.to_str()?);
    let is_file = (cursor == Some(parent) && name == "hooks.json")
        || (claude == Some(parent) && name == "managed-settings.json")
        || (fragments == Some(parent) && name.ends_with(".json") && !name.starts_with('.'));
    is_file.then_some(Touch::HookFile)
}

/// `d` when it is absolute: a relative folder is neither loaded nor watched.
fn absolute(d: &Option<PathBuf>) -> Option<&Path> {
    d.as_deref().filter(|p| p.is_absolute())
}

/// A scope of hook files that apply everywhere and are watched as one debounce key: the
/// user's own files or the administrator's managed files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Scope {
    /// Managed (administrator) files.
    Managed,
    /// The user's own files.
    User,
}

/// The folders a [`Scope`] reads its files from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScopeDirs {
    /// The user's folders.
    User(UserDirs),
    /// The administrator's folders.
    Managed(ManagedDirs),
}

impl ScopeDirs {
    /// The scope these folders belong to.
    pub(crate) fn scope(&self) -> Scope {
        match self {
            ScopeDirs::User(_) => Scope::User,
            ScopeDirs::Managed(_) => Scope::Managed,
        }
    }

    /// The folders to watch ([`user_folders`], [`managed_folders`]).
    pub(crate) fn folders(&self) -> Vec<PathBuf> {
        match self {
            ScopeDirs::User(d) => user_folders(d),
            ScopeDirs::Managed(d) => managed_folders(d),
        }
    }

    /// What `path` is to the scope's files ([`user_touch`], [`managed_touch`]).
    pub(crate) fn touch(&self, path: &Path) -> Option<Touch> {
        match self {
            ScopeDirs::User(d) => user_touch(d, path),
            ScopeDirs::Managed(d) => managed_touch(d, path),
        }
    }
}
