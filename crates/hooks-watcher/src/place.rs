//! The one kind of place the watcher watches: a project root, the user's own hook files or
//! the administrator's managed hook files. Loads, diagnostics, attachments, reloads and the
//! events subscribers hear are all keyed by it.

use hooks_schema::{AbsPathBuf, FileScope};

/// A place whose hook files are watched and reloaded as one: a project root (canonical), or
/// the user-scope or managed files, wherever their formats keep them.
///
/// The managed files sort first, then the user files, then the roots: when several become
/// ready together they are loaded in that order.
///
/// ```
/// use hooks_schema::AbsPathBuf;
/// use hooks_watcher::WatchedPlace;
///
/// let root = AbsPathBuf::new("/work/repo".into()).unwrap();
/// let place = WatchedPlace::from(root.clone());
/// assert_eq!(place.root(), Some(&root));
/// assert!(WatchedPlace::Managed < WatchedPlace::User && WatchedPlace::User < place);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WatchedPlace {
    /// The administrator's managed files (`HookConfigWatcher::watch_managed_dirs`).
    Managed,
    /// The user's own files (`HookConfigWatcher::watch_user_dirs`).
    User,
    /// A project root (`HookConfigWatcher::add_root`).
    Root(AbsPathBuf),
}

impl WatchedPlace {
    /// The project root, when the place is one.
    pub fn root(&self) -> Option<&AbsPathBuf> {
        match self {
            WatchedPlace::Root(root) => Some(root),
            WatchedPlace::Managed | WatchedPlace::User => None,
        }
    }

    /// The scope of the files found there.
    pub fn scope(&self) -> FileScope {
        match self {
            WatchedPlace::Managed => FileScope::Managed,
            WatchedPlace::User => FileScope::User,
            WatchedPlace::Root(_) => FileScope::Project,
        }
    }
}

impl From<AbsPathBuf> for WatchedPlace {
    fn from(root: AbsPathBuf) -> WatchedPlace {
        WatchedPlace::Root(root)
    }
}

impl From<&AbsPathBuf> for WatchedPlace {
    fn from(root: &AbsPathBuf) -> WatchedPlace {
        WatchedPlace::Root(root.clone())
    }
}
