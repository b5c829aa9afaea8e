//! File-system changes as the watcher sees them: notify's events reduced to what decides a reload.

use std::path::{Path, PathBuf};

use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};

use crate::layout::{Layout, Touch};

/// What happened to the paths of one change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChangeKind {
    /// A file or folder was created.
    Create,
    /// A file or folder was removed.
    Remove,
    /// A file's content changed.
    Modify,
    /// A file or folder was renamed (either side of the rename).
    Rename,
    /// A file opened for writing was closed.
    CloseWrite,
    /// A file or folder was opened (the watcher's own reads cause these).
    Open,
    /// A file opened for reading was closed.
    CloseRead,
    /// Permissions, timestamps or other metadata changed.
    Metadata,
    /// Anything else the platform reports.
    Other,
}

impl ChangeKind {
    /// Whether a change of this kind can alter what a hook file holds or whether it exists.
    ///
    /// Opens and read-closes are ignored because reloading a file opens it, and a reload must
    /// not trigger another; metadata-only changes (a `touch`, a `chmod`) do not change the
    /// definitions either.
    pub(crate) fn may_change_content(self) -> bool {
        !matches!(self, ChangeKind::Open | ChangeKind::CloseRead | ChangeKind::Metadata)
    }
}

/// One change reported by the platform watcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FsChange {
    /// What happened.
    pub(crate) kind: ChangeKind,
    /// The paths it happened to (a rename may name both sides).
    pub(crate) paths: Vec<PathBuf>,
    /// The platform dropped events (queue overflow): every root must be read again.
    pub(crate) rescan: bool,
}

impl From<&notify::Event> for FsChange {
    fn from(event: &notify::Event) -> FsChange {
        let kind = match event.kind {
            EventKind::Create(_) => ChangeKind::Create,
            EventKind::Remove(_) => ChangeKind::Remove,
            EventKind::Modify(ModifyKind::Name(_)) => ChangeKind::Rename,
            EventKind::Modify(ModifyKind::Metadata(_)) => ChangeKind::Metadata,
            EventKind::Modify(_) => ChangeKind::Modify,
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => ChangeKind::CloseWrite,
            EventKind::Access(AccessKind::Close(_)) => ChangeKind::CloseRead,
            EventKind::Access(_) => ChangeKind::Open,
            EventKind::Any | EventKind::Other => ChangeKind::Other,
        };
        FsChange { kind, paths: event.paths.clone(), rescan: event.need_rescan() }
    }
}

/// A path of a change that matters to a watched root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Routed {
    /// The root whose hooks may have changed.
    pub(crate) root: PathBuf,
    /// The changed path.
    pub(crate) path: PathBuf,
    /// What the path is to the root.
    pub(crate) touch: Touch,
}

/// The paths of `change` that can alter a watched root's hooks, each with its root.
/// Changes of a kind that cannot alter a file's content, and paths that are not the root, a
/// hook folder or a hook file of a watched root, are dropped here, before debouncing, so they
/// neither cause nor delay a reload.
pub(crate) fn route(
    layout: &Layout,
    change: &FsChange,
    is_root: impl Fn(&Path) -> bool,
) -> Vec<Routed> {
    if !change.kind.may_change_content() {
        return Vec::new();
    }
    change
        .paths
        .iter()
        .filter_map(|path| {
            layout.owning_root(path, &is_root).map(|(root, touch)| Routed {
                root,
                path: path.clone(),
                touch,
            })
        })
        .collect()
}
