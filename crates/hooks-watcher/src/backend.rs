//! The platform watch behind a two-method trait, so the watcher's logic runs against a fake in tests.

use std::path::Path;

use notify::{RecursiveMode, Watcher as _};

use crate::WatchError;

/// Attaches and detaches non-recursive directory watches.
///
/// The production backend is [`NotifyBackend`] (inotify on Linux, FSEvents on macOS); tests use
/// a scripted one that can fail the way a platform does (too many watches, permission denied).
pub(crate) trait WatchBackend: Send {
    /// Watches `dir` (not recursively). Watching a directory that is already watched again is
    /// allowed and re-attaches it (a folder deleted and recreated is a new directory).
    fn watch(&mut self, dir: &Path) -> Result<(), WatchError>;
    /// Stops watching `dir`; a directory that is not watched (the platform dropped the watch
    /// when it was deleted) is not an error.
    fn unwatch(&mut self, dir: &Path);
}

/// One `notify` watcher for every root.
pub(crate) struct NotifyBackend {
    watcher: notify::RecommendedWatcher,
}

impl NotifyBackend {
    pub(crate) fn new(handler: impl notify::EventHandler) -> Result<NotifyBackend, notify::Error> {
        let watcher = notify::RecommendedWatcher::new(handler, notify::Config::default())?;
        Ok(NotifyBackend { watcher })
    }
}

impl WatchBackend for NotifyBackend {
    fn watch(&mut self, dir: &Path) -> Result<(), WatchError> {
        self.watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .map_err(|e| WatchError::from_notify(&e, dir.to_path_buf()))
    }

    fn unwatch(&mut self, dir: &Path) {
        // Deleted directories lose their watch on their own; nothing to report.
        let _ = self.watcher.unwatch(dir);
    }
}
