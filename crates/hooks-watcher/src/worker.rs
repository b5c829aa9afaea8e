//! The watcher's worker: receives platform events, debounces them per root, keeps the folder
//! watches in step with the disk, and reloads roots through the shared state.
//!
//! [`Engine`] is the whole logic with time passed in, so tests drive it with scripted events
//! and a fake backend; [`run`] is the thread loop around it.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    sync::{
        Arc,
        mpsc::{Receiver, RecvTimeoutError},
    },
    time::{Duration, Instant},
};

use hooks_schema::AbsPathBuf;

use crate::{
    Debouncer, WatchError,
    backend::WatchBackend,
    event::{FsChange, route},
    layout::{Touch, folder_paths},
    shared::{AttachOutcome, Shared},
};

/// What the worker receives.
pub(crate) enum Msg {
    /// A platform event or error.
    Fs(notify::Result<notify::Event>),
    /// Attach the platform watch for a root that was just loaded.
    Attach(AbsPathBuf),
    /// Detach a removed root.
    Detach(AbsPathBuf),
    /// Stop the thread.
    Shutdown,
}

struct RootWatch {
    root: AbsPathBuf,
    /// Directories watched for this root: the root itself and the hook folders that exist.
    dirs: BTreeSet<PathBuf>,
}

pub(crate) struct Engine<B> {
    shared: Arc<Shared>,
    backend: B,
    debouncer: Debouncer<PathBuf>,
    watched: BTreeMap<PathBuf, RootWatch>,
}

impl<B: WatchBackend> Engine<B> {
    pub(crate) fn new(shared: Arc<Shared>, backend: B, window: Duration) -> Engine<B> {
        Engine { shared, backend, debouncer: Debouncer::new(window), watched: BTreeMap::new() }
    }

    /// Handles one message at `now`; `false` means stop.
    pub(crate) fn handle(&mut self, msg: Msg, now: Instant) -> bool {
        match msg {
            Msg::Fs(Ok(event)) => self.on_change(&FsChange::from(&event), now),
            Msg::Fs(Err(error)) => self.on_error(&error),
            Msg::Attach(root) => self.attach(root),
            Msg::Detach(root) => self.detach(&root),
            Msg::Shutdown => return false,
        }
        true
    }

    /// Reloads every root whose debounce window has passed at `now`.
    pub(crate) fn flush(&mut self, now: Instant) {
        while let Some(batch) = self.debouncer.drain_ready(now) {
            for key in batch.keys {
                let Some(root) = self.watched.get(&key).map(|w| w.root.clone()) else { continue };
                // Watches first, then the read: a file written before a new folder's watch
                // attached is read now, one written after is seen by the watch.
                self.reconcile(&key);
                self.shared.reload(&root);
            }
        }
    }

    /// When the next root becomes ready, if any is pending.
    pub(crate) fn next_deadline(&self) -> Option<Instant> {
        self.debouncer.next_deadline()
    }

    #[cfg(test)]
    pub(crate) fn watched_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.watched.get(root).map(|w| w.dirs.iter().cloned().collect()).unwrap_or_default()
    }

    #[cfg(test)]
    pub(crate) fn backend(&mut self) -> &mut B {
        &mut self.backend
    }

    fn attach(&mut self, root: AbsPathBuf) {
        if self.shared.find_root(root.as_path()).is_none() {
            return;
        }
        let key = root.as_path().to_path_buf();
        if self.watched.contains_key(&key) {
            self.shared.attach_done(&root, AttachOutcome::Attached);
            return;
        }
        if let Err(e) = self.backend.watch(&key) {
            self.shared.watch_error(&root, &e);
            self.shared.attach_done(&root, AttachOutcome::Failed(e));
            return;
        }
        let mut dirs = BTreeSet::new();
        dirs.insert(key.clone());
        self.watched.insert(key.clone(), RootWatch { root: root.clone(), dirs });
        self.reconcile(&key);
        self.count_watches();
        self.shared.attach_done(&root, AttachOutcome::Attached);
    }

    fn detach(&mut self, root: &AbsPathBuf) {
        let key = root.as_path();
        self.debouncer.forget(&key.to_path_buf());
        if let Some(w) = self.watched.remove(key) {
            for dir in w.dirs {
                self.backend.unwatch(&dir);
            }
        }
        self.count_watches();
    }

    fn on_change(&mut self, change: &FsChange, now: Instant) {
        if change.rescan {
            // Events were dropped: a folder may have been deleted and recreated unseen, so
            // every folder watch is attached afresh, and every root is read again.
            let keys: Vec<PathBuf> = self.watched.keys().cloned().collect();
            for key in keys {
                self.forget_dirs_under(&key, &key, false);
                self.reconcile(&key);
                self.debouncer.push(key, now);
            }
            return;
        }
        let watched = &self.watched;
        let routed = route(change, |p| watched.contains_key(p));
        for r in routed {
            match r.touch {
                // The platform drops the watch of a folder that is deleted or moved away, and a
                // folder created at that name is a new directory: forget what was watched at
                // or below the path and let `reconcile` watch what is there now.
                Touch::Folder => {
                    self.forget_dirs_under(&r.root, &r.path, false);
                    self.reconcile(&r.root);
                }
                Touch::Root => self.forget_dirs_under(&r.root, &r.path, true),
                Touch::HookFile => {}
            }
            self.debouncer.push(r.root, now);
        }
    }

    fn on_error(&mut self, error: &notify::Error) {
        let mut affected: Vec<(AbsPathBuf, WatchError)> = Vec::new();
        if error.paths.is_empty() {
            for w in self.watched.values() {
                affected.push((
                    w.root.clone(),
                    WatchError::from_notify(error, w.root.clone().into_path_buf()),
                ));
            }
        }
        for path in &error.paths {
            let owner = path.ancestors().find_map(|a| self.watched.get(a));
            if let Some(w) = owner {
                affected.push((w.root.clone(), WatchError::from_notify(error, path.clone())));
            }
        }
        for (root, e) in affected {
            self.shared.watch_error(&root, &e);
        }
    }

    /// Drops the recorded watches at or below `path` (the root's own watch only when `root_too`).
    fn forget_dirs_under(&mut self, key: &Path, path: &Path, root_too: bool) {
        let Some(w) = self.watched.get_mut(key) else { return };
        let gone: Vec<PathBuf> = w
            .dirs
            .iter()
            .filter(|d| d.starts_with(path) && (root_too || d.as_path() != key))
            .cloned()
            .collect();
        for dir in gone {
            w.dirs.remove(&dir);
            self.backend.unwatch(&dir);
        }
        self.count_watches();
    }

    /// Makes the watches of one root match the disk: the root directory while it exists, and
    /// each hook folder that is a directory now.
    fn reconcile(&mut self, key: &Path) {
        let Some(w) = self.watched.get_mut(key) else { return };
        let root = w.root.clone();
        let mut errors = Vec::new();
        if !key.is_dir() {
            for dir in std::mem::take(&mut w.dirs) {
                self.backend.unwatch(&dir);
            }
            self.count_watches();
            return;
        }
        for dir in std::iter::once(key.to_path_buf()).chain(folder_paths(key)) {
            let exists = dir.is_dir();
            let watched = w.dirs.contains(&dir);
            if exists && !watched {
                match self.backend.watch(&dir) {
                    Ok(()) => {
                        w.dirs.insert(dir);
                    }
                    // A folder that vanished in between is simply not there.
                    Err(WatchError::NotFound { .. }) => {}
                    Err(e) => errors.push(e),
                }
            } else if !exists && watched {
                w.dirs.remove(&dir);
                self.backend.unwatch(&dir);
            }
        }
        for e in errors {
            self.shared.watch_error(&root, &e);
        }
        self.count_watches();
    }

    fn count_watches(&self) {
        self.shared.set_platform_watches(self.watched.values().map(|w| w.dirs.len()).sum());
    }
}

/// The worker thread: waits for a message or the next debounce deadline, whichever comes
/// first, then reloads what is ready.
pub(crate) fn run<B: WatchBackend>(mut engine: Engine<B>, rx: &Receiver<Msg>) {
    loop {
        let msg = match engine.next_deadline() {
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match rx.recv_timeout(wait) {
                    Ok(msg) => Some(msg),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            None => match rx.recv() {
                Ok(msg) => Some(msg),
                Err(_) => return,
            },
        };
        if let Some(msg) = msg
            && !engine.handle(msg, Instant::now())
        {
            return;
        }
        engine.flush(Instant::now());
    }
}
