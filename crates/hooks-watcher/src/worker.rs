//! The watcher's worker: receives platform events, debounces them per [`WatchedPlace`] (a
//! root, the user-scope files, the managed files), keeps the folder watches in step with the
//! disk, and reloads through the shared state. Roots and the user/managed files differ only
//! in how their folders are followed (a root can go missing and come back; a user or
//! managed folder that does not exist is waited for in its parent).
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

use hooks_schema::{AbsPathBuf, FilePattern, FileScope};
use hooks_sources::ScopeDirs;

use crate::{
    WatchError, WatchedPlace,
    backend::WatchBackend,
    debounce::Debouncer,
    dirs::DirSet,
    event::{ChangeKind, FsChange, route},
    layout::Touch,
    missing::{Presence, nearest_existing_ancestor, presence},
    shared::{AttachOutcome, Shared},
};

/// How many levels a missing root's follow moves in one go before it waits for the next event
/// (a path is rarely deeper; a tree flapping faster than this is caught at its next event).
const MAX_FOLLOW_STEPS: usize = 64;

/// How many times one reconciliation lists a place's folders while each listing finds new
/// folders to watch (below a recursive location, a folder can appear while its parent's
/// watch is being attached; deeper than this in one go is caught at its next event).
const MAX_LISTINGS: usize = FilePattern::MAX_NESTING + 2;

/// What the worker receives.
pub(crate) enum Msg {
    /// A platform event or error.
    Fs(notify::Result<notify::Event>),
    /// Attach the platform watches of a place: a root that was just loaded, or (again, for
    /// new folders) the user-scope or managed files.
    Attach(WatchedPlace),
    /// Detach a removed root.
    Detach(AbsPathBuf),
    /// Stop the thread.
    Shutdown,
}

struct RootWatch {
    root: AbsPathBuf,
    /// Directories watched for this root: the root itself and the hook folders that exist.
    dirs: DirSet,
    /// The root was seen gone (deleted, moved away, replaced by a file or a symlink): `dirs`
    /// is empty and the root waits on `ancestor` to come back.
    missing: bool,
    /// While missing, the nearest existing ancestor it waits on (`None` when that could not
    /// be watched).
    ancestor: Option<PathBuf>,
}

/// The watches of the user-scope or managed files.
struct ScopeWatch {
    dirs: ScopeDirs,
    /// The folders that hold a hook file of the scope, or a folder that does.
    folders: Vec<PathBuf>,
    /// Directories watched for them: each folder that exists, and the parent of each that
    /// does not (so its creation is seen).
    held: DirSet,
}

/// The platform watches, counted per directory: a directory can be watched for several
/// owners (a project root at the home directory and the user's `~/.claude/`), and is only
/// unwatched when its last owner lets go.
struct Watches<B> {
    backend: B,
    held: BTreeMap<PathBuf, usize>,
}

impl<B: WatchBackend> Watches<B> {
    /// Watches `dir` for one more owner. The platform watch is attached again even when the
    /// directory is already held: a folder deleted and recreated is a new directory.
    fn hold(&mut self, dir: &Path) -> Result<(), WatchError> {
        self.backend.watch(dir)?;
        *self.held.entry(dir.to_path_buf()).or_default() += 1;
        Ok(())
    }

    /// Lets go of `dir` for one owner; the platform watch goes with the last one.
    /// Watches `dir` and records it in `held`; a folder that vanished in between is simply
    /// not there, and not an error.
    fn hold_into(&mut self, dir: PathBuf, held: &mut DirSet) -> Result<(), WatchError> {
        match self.hold(&dir) {
            Ok(()) => {
                held.insert(dir);
                Ok(())
            }
            Err(WatchError::NotFound { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn release(&mut self, dir: &Path) {
        let Some(n) = self.held.get_mut(dir) else { return };
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.held.remove(dir);
            self.backend.unwatch(dir);
        }
    }
}

pub(crate) struct Engine<B> {
    shared: Arc<Shared>,
    watches: Watches<B>,
    /// Changes are collected per place; the managed files sort first, then the user files,
    /// so when they and a root become ready together they are loaded in that order.
    debouncer: Debouncer<WatchedPlace>,
    watched: BTreeMap<PathBuf, RootWatch>,
    /// Missing roots by the ancestor directory they wait on. Each ancestor is held once,
    /// however many roots wait on it.
    waiting: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    /// The user's files and the managed files, once asked to watch them.
    scopes: BTreeMap<WatchedPlace, ScopeWatch>,
}

impl<B: WatchBackend> Engine<B> {
    pub(crate) fn new(shared: Arc<Shared>, backend: B, window: Duration) -> Engine<B> {
        Engine {
            shared,
            watches: Watches { backend, held: BTreeMap::new() },
            debouncer: Debouncer::new(window),
            watched: BTreeMap::new(),
            waiting: BTreeMap::new(),
            scopes: BTreeMap::new(),
        }
    }

    /// Handles one message at `now`; `false` means stop.
    pub(crate) fn handle(&mut self, msg: Msg, now: Instant) -> bool {
        match msg {
            Msg::Fs(Ok(event)) => self.on_change(&FsChange::from(&event), now),
            Msg::Fs(Err(error)) => self.on_error(&error),
            Msg::Attach(WatchedPlace::Root(root)) => self.attach(root),
            Msg::Attach(scope) => self.attach_scope(&scope),
            Msg::Detach(root) => self.detach(&root),
            Msg::Shutdown => return false,
        }
        self.count_watches();
        true
    }

    /// Reloads every root whose debounce window has passed at `now`.
    pub(crate) fn flush(&mut self, now: Instant) {
        while let Some(batch) = self.debouncer.drain_ready(now) {
            for place in batch.keys {
                let key = match &place {
                    WatchedPlace::Root(root) => root.as_path().to_path_buf(),
                    WatchedPlace::User | WatchedPlace::Managed => {
                        self.reconcile_scope(&place);
                        self.shared.reload(&place);
                        continue;
                    }
                };
                let Some(w) = self.watched.get(&key) else { continue };
                if w.missing {
                    self.revisit(&key);
                    continue;
                }
                let root = w.root.clone();
                // Watches first, then the read: a file written before a new folder's watch
                // attached is read now, one written after is seen by the watch.
                if self.reconcile(&key) {
                    // Gone: it waits on its nearest existing ancestor before the load below
                    // withdraws it, so whoever hears of the withdrawal can recreate it at
                    // once. Back already by then, it was loaded as it is now.
                    if let Some(w) = self.watched.get_mut(&key) {
                        w.missing = true;
                    }
                    self.revisit(&key);
                    if !self.is_missing(&key) {
                        continue;
                    }
                }
                self.shared.reload(&WatchedPlace::Root(root));
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

    /// The ancestor a missing root waits on, if any.
    #[cfg(test)]
    pub(crate) fn waiting_on(&self, root: &Path) -> Option<PathBuf> {
        self.watched.get(root).and_then(|w| w.ancestor.clone())
    }

    #[cfg(test)]
    pub(crate) fn scope_watched_dirs(&self, scope: &WatchedPlace) -> Vec<PathBuf> {
        self.scopes.get(scope).map(|u| u.held.iter().cloned().collect()).unwrap_or_default()
    }

    #[cfg(test)]
    pub(crate) fn backend(&mut self) -> &mut B {
        &mut self.watches.backend
    }

    fn attach(&mut self, root: AbsPathBuf) {
        if self.shared.find_root(root.as_path()).is_none() {
            return;
        }
        let key = root.as_path().to_path_buf();
        let place = WatchedPlace::from(&root);
        if self.watched.contains_key(&key) {
            self.shared.attach_done(&place, AttachOutcome::Attached);
            return;
        }
        if let Err(e) = self.watches.hold(&key) {
            self.shared.watch_error(&place, &e);
            self.shared.attach_done(&place, AttachOutcome::Failed(e));
            return;
        }
        let mut dirs = DirSet::default();
        dirs.insert(key.clone());
        self.watched.insert(
            key.clone(),
            RootWatch { root: root.clone(), dirs, missing: false, ancestor: None },
        );
        self.reconcile(&key);
        self.count_watches();
        self.shared.attach_done(&place, AttachOutcome::Attached);
    }

    fn detach(&mut self, root: &AbsPathBuf) {
        let key = root.as_path();
        self.debouncer.forget(&WatchedPlace::from(root));
        self.unwait(key);
        if let Some(w) = self.watched.remove(key) {
            for dir in w.dirs {
                self.watches.release(&dir);
            }
        }
        self.count_watches();
    }

    /// Watches the folders of `scope` (the user's or the managed files) the shared state
    /// names, replacing earlier ones.
    fn attach_scope(&mut self, scope: &WatchedPlace) {
        let Some(dirs) = self.shared.scope_dirs(scope) else { return };
        if let Some(old) = self.scopes.remove(scope) {
            for dir in old.held {
                self.watches.release(&dir);
            }
        }
        let folders = self.shared.layout().scope_folders(scope.scope(), &dirs);
        self.scopes.insert(scope.clone(), ScopeWatch { folders, dirs, held: DirSet::default() });
        let outcome = match self.reconcile_scope(scope).into_iter().next() {
            Some(e) => AttachOutcome::Failed(e),
            None => AttachOutcome::Attached,
        };
        self.shared.attach_done(scope, outcome);
    }

    /// Makes the watches of `scope` match the disk: each folder that is a directory now, and
    /// the parent of each that is not (when the parent is a directory). Returns the watch
    /// errors, which are also recorded as diagnostics of the scope.
    fn reconcile_scope(&mut self, scope: &WatchedPlace) -> Vec<WatchError> {
        let Some(u) = self.scopes.get_mut(scope) else { return Vec::new() };
        let mut errors = Vec::new();
        // Listed again after new folders are watched, as for a root (`reconcile`).
        for _ in 0..MAX_LISTINGS {
            let mut desired = BTreeSet::new();
            for folder in &u.folders {
                if folder.is_dir() {
                    desired.insert(folder.clone());
                } else if let Some(parent) = folder.parent().filter(|p| p.is_dir()) {
                    desired.insert(parent.to_path_buf());
                }
            }
            desired.extend(self.shared.layout().scope_subfolders(scope.scope(), &u.dirs));
            let stale: Vec<PathBuf> =
                u.held.iter().filter(|d| !desired.contains(*d)).cloned().collect();
            for dir in stale {
                u.held.remove(&dir);
                self.watches.release(&dir);
            }
            let mut added = false;
            for dir in desired {
                if u.held.contains(&dir) {
                    continue;
                }
                match self.watches.hold_into(dir, &mut u.held) {
                    Ok(()) => added = true,
                    Err(e) => errors.push(e),
                }
            }
            if !added || !self.shared.layout().has_nested(scope.scope()) {
                break;
            }
        }
        for e in &errors {
            self.shared.watch_error(scope, e);
        }
        self.count_watches();
        errors
    }

    /// Drops the watches of `scope` at or below `path`.
    fn forget_scope_under(&mut self, scope: &WatchedPlace, path: &Path) {
        let Some(u) = self.scopes.get_mut(scope) else { return };
        let gone: Vec<PathBuf> = u.held.iter().filter(|d| d.starts_with(path)).cloned().collect();
        for dir in gone {
            u.held.remove(&dir);
            self.watches.release(&dir);
        }
    }

    /// Sends the changes of `change` that concern the files of `scope` to the debouncer;
    /// a folder of the scope that appears or goes has its watches made to match first.
    fn on_scope_change(&mut self, scope: &WatchedPlace, change: &FsChange, now: Instant) {
        let Some(u) = self.scopes.get_mut(scope) else { return };
        if change.rescan {
            for dir in std::mem::take(&mut u.held) {
                self.watches.release(&dir);
            }
            self.reconcile_scope(scope);
            self.debouncer.push(scope.clone(), now);
            return;
        }
        // A managed file's owner or mode decides whether it is read at all (a location that
        // reads only the administrator's files, `Ownership::Administrator`): a `chmod` or
        // `chown` of one reloads the scope, as a write would. Elsewhere metadata changes
        // nothing.
        let metadata_only = !change.kind.may_change_content();
        if metadata_only
            && !(change.kind == ChangeKind::Metadata && *scope == WatchedPlace::Managed)
        {
            return;
        }
        let touches: Vec<(PathBuf, Touch)> = change
            .paths
            .iter()
            .filter_map(|p| {
                self.shared.layout().scope_touch(scope.scope(), &u.dirs, p).map(|t| (p.clone(), t))
            })
            .filter(|(_, t)| !metadata_only || *t == Touch::HookFile)
            .collect();
        if touches.is_empty() {
            return;
        }
        let mut folders = false;
        for (path, touch) in touches {
            if touch == Touch::Folder {
                self.forget_scope_under(scope, &path);
                folders = true;
            }
        }
        if folders {
            self.reconcile_scope(scope);
        }
        self.debouncer.push(scope.clone(), now);
    }

    fn on_change(&mut self, change: &FsChange, now: Instant) {
        let scopes: Vec<WatchedPlace> = self.scopes.keys().cloned().collect();
        for scope in &scopes {
            self.on_scope_change(scope, change, now);
        }
        if change.rescan {
            // Events were dropped: a folder may have been deleted and recreated unseen, so
            // every folder watch is attached afresh, and every root is read again; a missing
            // root may be back, or its ancestor gone.
            let ancestors: Vec<PathBuf> = self.waiting.keys().cloned().collect();
            for ancestor in ancestors {
                self.abandon(&ancestor);
            }
            let keys: Vec<PathBuf> = self.watched.keys().cloned().collect();
            for key in keys {
                if self.is_missing(&key) {
                    self.revisit(&key);
                    continue;
                }
                self.forget_dirs_under(&key, &key, false);
                self.reconcile(&key);
                self.push_root(&key, now);
            }
            return;
        }
        let mut revisit = self.waiters_touched(change);
        let watched = &self.watched;
        let routed = route(self.shared.layout(), change, |p| watched.contains_key(p));
        for r in routed {
            if self.is_missing(&r.root) {
                // Nothing under a missing root is watched: what names it comes through the
                // ancestor it waits on, and is followed at once rather than debounced.
                revisit.insert(r.root);
                continue;
            }
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
            self.push_root(&r.root, now);
        }
        for key in revisit {
            self.revisit(&key);
        }
    }

    /// Collects a change of the watched root `key` for its next load.
    fn push_root(&mut self, key: &Path, now: Instant) {
        if let Some(w) = self.watched.get(key) {
            self.debouncer.push(WatchedPlace::from(&w.root), now);
        }
    }

    fn is_missing(&self, key: &Path) -> bool {
        self.watched.get(key).is_some_and(|w| w.missing)
    }

    /// The missing roots a change seen through an ancestor's watch may concern: those under a
    /// path created, removed or renamed in the ancestor they wait on, and every root waiting
    /// on an ancestor that was itself removed or moved (its watch is dropped here; the
    /// platform drops it too, and a directory recreated there is a new one).
    fn waiters_touched(&mut self, change: &FsChange) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        if self.waiting.is_empty() || !change.kind.may_change_content() {
            return out;
        }
        for path in &change.paths {
            if self.waiting.contains_key(path) {
                out.extend(self.abandon(path));
            }
            let Some(keys) = path.parent().and_then(|p| self.waiting.get(p)) else { continue };
            // Paths under `path` sort right after it, so this is a range, not a scan.
            out.extend(keys.range(path.clone()..).take_while(|k| k.starts_with(path)).cloned());
        }
        out
    }

    /// Follows a missing root: when it is back, attaches it as a freshly added root; otherwise
    /// makes it wait on its nearest existing ancestor, looking at the disk again after each
    /// new watch so a level created meanwhile is not missed (walking up when the ancestor
    /// went, down as levels reappear). Does nothing for a root that is not missing.
    fn revisit(&mut self, key: &Path) {
        for _ in 0..MAX_FOLLOW_STEPS {
            let Some(w) = self.watched.get(key) else { break };
            if !w.missing {
                break;
            }
            let (root, current) = (w.root.clone(), w.ancestor.clone());
            if presence(key) == Presence::Present {
                if self.reappear(key, &root) {
                    break;
                }
                continue;
            }
            let target = nearest_existing_ancestor(key);
            if target == current {
                break;
            }
            self.unwait(key);
            let Some(target) = target else { break };
            match self.wait_on(key, target) {
                // Look again now that the watch is attached.
                Ok(()) | Err(WatchError::NotFound { .. }) => {}
                Err(e) => {
                    self.shared.watch_error(&WatchedPlace::Root(root), &e);
                    break;
                }
            }
        }
        self.count_watches();
    }

    /// Attaches a root that is back exactly as `add_root` and the attach message do: fresh
    /// watch diagnostics, the root and its hook folders watched, its files loaded (which clears
    /// `root_missing`), then `Attached`. `false` when it vanished again before its watches
    /// were attached.
    fn reappear(&mut self, key: &Path, root: &AbsPathBuf) -> bool {
        let place = WatchedPlace::from(root);
        self.shared.clear_watch_diagnostics(&place);
        let held = self.watches.hold(key);
        if let Err(WatchError::NotFound { .. }) = held {
            return false;
        }
        self.unwait(key);
        let Some(w) = self.watched.get_mut(key) else { return true };
        w.missing = false;
        let outcome = match held {
            Ok(()) => {
                w.dirs.insert(key.to_path_buf());
                if self.reconcile(key) {
                    // Gone again before its folders were watched, and its own watch released
                    // with them: missing still, and followed from its ancestor again.
                    if let Some(w) = self.watched.get_mut(key) {
                        w.missing = true;
                    }
                    return false;
                }
                AttachOutcome::Attached
            }
            // Loaded and not watched, as an added root whose watch fails.
            Err(e) => {
                self.shared.watch_error(&place, &e);
                AttachOutcome::Failed(e)
            }
        };
        self.count_watches();
        self.shared.reload(&place);
        self.shared.attach_done(&place, outcome);
        true
    }

    /// Makes `key` wait on `ancestor`, watching it unless another root already waits there.
    fn wait_on(&mut self, key: &Path, ancestor: PathBuf) -> Result<(), WatchError> {
        if !self.waiting.contains_key(&ancestor) {
            self.watches.hold(&ancestor)?;
        }
        self.waiting.entry(ancestor.clone()).or_default().insert(key.to_path_buf());
        if let Some(w) = self.watched.get_mut(key) {
            w.ancestor = Some(ancestor);
        }
        Ok(())
    }

    /// Stops `key` waiting on its ancestor; the ancestor's watch goes with its last waiter.
    fn unwait(&mut self, key: &Path) {
        let Some(ancestor) = self.watched.get_mut(key).and_then(|w| w.ancestor.take()) else {
            return;
        };
        let Some(keys) = self.waiting.get_mut(&ancestor) else { return };
        keys.remove(key);
        if keys.is_empty() {
            self.waiting.remove(&ancestor);
            self.watches.release(&ancestor);
        }
    }

    /// Drops the watch of an ancestor roots wait on, and returns those roots, now waiting on
    /// nothing until they are revisited.
    fn abandon(&mut self, ancestor: &Path) -> Vec<PathBuf> {
        let Some(keys) = self.waiting.remove(ancestor) else { return Vec::new() };
        self.watches.release(ancestor);
        for key in &keys {
            if let Some(w) = self.watched.get_mut(key) {
                w.ancestor = None;
            }
        }
        keys.into_iter().collect()
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
            self.shared.watch_error(&WatchedPlace::Root(root), &e);
        }
        for (scope, u) in &self.scopes {
            let mine = |p: &Path| u.folders.iter().chain(&u.held).any(|d| p.starts_with(d));
            let first = u.folders.first().cloned();
            let errors: Vec<WatchError> = if error.paths.is_empty() {
                first.map(|f| WatchError::from_notify(error, f)).into_iter().collect()
            } else {
                error
                    .paths
                    .iter()
                    .filter(|p| mine(p))
                    .map(|p| WatchError::from_notify(error, p.clone()))
                    .collect()
            };
            for e in errors {
                self.shared.watch_error(scope, &e);
            }
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
            self.watches.release(&dir);
        }
    }

    /// Makes the watches of one root match the disk: the root directory while it exists, and
    /// each hook folder that is a directory now. A root found gone loses its watches, and
    /// `true` says so (the caller marks it missing, and `revisit` follows it); a root already
    /// missing is left to `revisit`.
    fn reconcile(&mut self, key: &Path) -> bool {
        let Some(w) = self.watched.get_mut(key) else { return false };
        if w.missing {
            return false;
        }
        let root = w.root.clone();
        let mut errors = Vec::new();
        if presence(key) != Presence::Present {
            for dir in std::mem::take(&mut w.dirs) {
                self.watches.release(&dir);
            }
            self.count_watches();
            return true;
        }
        // A folder created below a recursive location's folder between the listing and the
        // watch of its parent sends no event: list again after watching new folders, until a
        // listing finds nothing new.
        for _ in 0..MAX_LISTINGS {
            let desired: BTreeSet<PathBuf> = std::iter::once(key.to_path_buf())
                .chain(self.shared.layout().folder_paths(key))
                .filter(|dir| dir.is_dir())
                .collect();
            let stale: Vec<PathBuf> =
                w.dirs.iter().filter(|d| !desired.contains(*d)).cloned().collect();
            for dir in stale {
                w.dirs.remove(&dir);
                self.watches.release(&dir);
            }
            let mut added = false;
            for dir in desired {
                if w.dirs.contains(&dir) {
                    continue;
                }
                match self.watches.hold_into(dir, &mut w.dirs) {
                    Ok(()) => added = true,
                    Err(e) => errors.push(e),
                }
            }
            if !added || !self.shared.layout().has_nested(FileScope::Project) {
                break;
            }
        }
        let place = WatchedPlace::Root(root);
        for e in errors {
            self.shared.watch_error(&place, &e);
        }
        self.count_watches();
        false
    }

    /// Publishes how many platform watches are held. Only where the watches match what was
    /// handled so far (before an event is emitted, at the end of a message): a folder
    /// forgotten and watched again within one message (its creation seen after it was
    /// watched) is never seen as unwatched in between.
    fn count_watches(&self) {
        self.shared.set_platform_watches(self.watches.held.len());
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
