//! State shared by the watcher's API and its worker: the watched places (roots, the user's
//! files, the managed files), the trust inputs, and the one place a place's hook files are
//! read and applied to the registry.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicUsize, Ordering},
        mpsc::Sender,
    },
};

use hooks_registry::{RegistryHandle, RegistrySnapshot, SourceUpdate, source_id};
use hooks_schema::{
    AbsPathBuf, FileContent, FileScope, FormatSet, Generation, HookDiagnostic, HookSourceId,
    HookSourceKind, ParseContext, TrustDecision,
};
use hooks_sources::{
    ScopeDirs, decide_read, find_files, found_paths, read_managed_sources, read_user_sources,
    read_with_bytes,
};
use hooks_trust::{TrustInputs, TrustPolicy};
use tokio::sync::oneshot;

use crate::{
    WatchError, WatchedPlace,
    layout::Layout,
    missing::{Presence, presence},
};

/// What the watcher tells its subscribers, about one [`WatchedPlace`] each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatcherEvent {
    /// A place's platform watches were attached, or one failed to attach: after `add_root`
    /// (and again when a root that went missing is back), `watch_user_dirs` or
    /// `watch_managed_dirs` (the user or managed folders that could be watched are).
    Attached {
        /// The place.
        place: WatchedPlace,
        /// Whether it is watched.
        result: Result<(), WatchError>,
    },
    /// A place's hook files were read from disk and applied to the registry.
    Reloaded {
        /// The place.
        place: WatchedPlace,
        /// How many times the place has been loaded, this load included.
        loads: u64,
        /// The registry generation after the load.
        generation: Generation,
        /// The sources found there, in priority order (managed fragments in name order).
        sources: Vec<HookSourceId>,
    },
    /// A watch error, or a root gone missing, recorded as a diagnostic of the place.
    Diagnostic {
        /// The place.
        place: WatchedPlace,
        /// The diagnostic.
        diagnostic: HookDiagnostic,
    },
    /// A root was removed and its sources withdrawn.
    Removed {
        /// The root.
        root: AbsPathBuf,
    },
}

/// What one load of a place found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadReport {
    /// The place.
    pub place: WatchedPlace,
    /// How many times the place has been loaded, this load included.
    pub loads: u64,
    /// The registry generation after the load.
    pub generation: Generation,
    /// The sources found there, in priority order.
    pub sources: Vec<HookSourceId>,
    /// Sources loaded before and gone now: withdrawn from the root, or removed from the
    /// registry for the user and managed files (after the pin, the registry keeps a pinned
    /// source and reports the removal).
    pub withdrawn: Vec<HookSourceId>,
}

/// How a root's attachment ended, for the futures waiting on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AttachOutcome {
    Attached,
    Failed(WatchError),
    Removed,
}

#[derive(Debug)]
enum AttachState {
    Pending(Vec<oneshot::Sender<AttachOutcome>>),
    Done(AttachOutcome),
}

impl AttachState {
    /// Marks the attachment done with `outcome` and returns the waiters to tell.
    fn finish(&mut self, outcome: &AttachOutcome) -> Vec<oneshot::Sender<AttachOutcome>> {
        match std::mem::replace(self, AttachState::Done(outcome.clone())) {
            AttachState::Pending(waiters) => waiters,
            AttachState::Done(_) => Vec::new(),
        }
    }
}

impl AttachOutcome {
    /// Tells `waiters`, and gives the result subscribers hear of; `None` for a removal,
    /// which subscribers learn of otherwise.
    fn announce(
        self,
        waiters: Vec<oneshot::Sender<AttachOutcome>>,
    ) -> Option<Result<(), WatchError>> {
        for tx in waiters {
            let _ = tx.send(self.clone());
        }
        match self {
            AttachOutcome::Attached => Some(Ok(())),
            AttachOutcome::Failed(e) => Some(Err(e)),
            AttachOutcome::Removed => None,
        }
    }
}

/// One watched place: what was loaded there, its attachment and its diagnostics.
#[derive(Debug)]
struct PlaceEntry {
    /// The user or managed folders (empty for a root, whose files are under it).
    dirs: ScopeDirs,
    /// Whether the user or managed files are read under their format's strict contract (a
    /// root's files never are).
    strict: bool,
    /// The sources loaded there, sorted, each once: a boxed slice, as a place holds one to a
    /// few (a B-tree set's smallest node is ten times the size of one id).
    sources: Box<[HookSourceId]>,
    attach: AttachState,
    loads: u64,
    watch_diagnostics: Vec<HookDiagnostic>,
    /// A root that is not on disk as the directory it was added as (`root_missing`); boxed,
    /// as it is rare and every place would carry its size.
    missing: Option<Box<HookDiagnostic>>,
}

impl PlaceEntry {
    fn new(dirs: ScopeDirs, strict: bool, tx: oneshot::Sender<AttachOutcome>) -> PlaceEntry {
        PlaceEntry {
            dirs,
            strict,
            sources: Box::default(),
            attach: AttachState::Pending(vec![tx]),
            loads: 0,
            watch_diagnostics: Vec::new(),
            missing: None,
        }
    }
}

#[derive(Debug)]
struct State {
    inputs: TrustInputs,
    /// The roots, the user's files and the managed files being watched.
    places: BTreeMap<WatchedPlace, PlaceEntry>,
}

pub(crate) struct Shared {
    registry: RegistryHandle,
    layout: Layout,
    policy: Arc<dyn TrustPolicy>,
    state: Mutex<State>,
    subscribers: Mutex<Vec<Sender<WatcherEvent>>>,
    platform_watches: AtomicUsize,
}

impl Shared {
    pub(crate) fn new(
        registry: RegistryHandle,
        formats: FormatSet,
        policy: Arc<dyn TrustPolicy>,
        inputs: TrustInputs,
    ) -> Shared {
        Shared {
            registry,
            layout: Layout::new(formats),
            policy,
            state: Mutex::new(State { inputs, places: BTreeMap::new() }),
            subscribers: Mutex::new(Vec::new()),
            platform_watches: AtomicUsize::new(0),
        }
    }

    /// Where the formats' files live.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    pub(crate) fn subscribe(&self, tx: Sender<WatcherEvent>) {
        lock(&self.subscribers).push(tx);
    }

    pub(crate) fn emit(&self, event: WatcherEvent) {
        match &event {
            WatcherEvent::Attached { place, result } => crate::trace::attached(place, result),
            WatcherEvent::Diagnostic { place, diagnostic } => {
                crate::trace::watch_diagnostic(place, diagnostic);
            }
            WatcherEvent::Removed { root } => crate::trace::removed(root),
            // Traced with what the event leaves out, by `emit_reloaded`.
            WatcherEvent::Reloaded { .. } => {}
        }
        lock(&self.subscribers).retain(|tx| tx.send(event.clone()).is_ok());
    }

    /// Registers `root` and loads it, unless it is already registered. Returns whether it was
    /// new, and a receiver for its attachment unless that already ended (then its outcome).
    pub(crate) fn add_root(
        &self,
        root: &AbsPathBuf,
    ) -> (bool, Result<oneshot::Receiver<AttachOutcome>, AttachOutcome>) {
        let mut state = lock(&self.state);
        let (tx, rx) = oneshot::channel();
        let place = WatchedPlace::from(root);
        if let Some(entry) = state.places.get_mut(&place) {
            return match &mut entry.attach {
                AttachState::Pending(waiters) => {
                    waiters.push(tx);
                    (false, Ok(rx))
                }
                AttachState::Done(outcome) => (false, Err(outcome.clone())),
            };
        }
        state.places.insert(place.clone(), PlaceEntry::new(ScopeDirs::new(), false, tx));
        // Announcing the root and loading its files publish one snapshot, so no reader sees
        // the root announced without its hooks.
        let report = self.reload_locked(&mut state, &place, true);
        drop(state);
        if let Some(report) = report {
            self.emit_reloaded(report);
        }
        (true, Ok(rx))
    }

    /// Forgets `root`, withdraws its sources and the project, and ends pending attachments.
    pub(crate) fn remove_root(&self, root: &AbsPathBuf) -> bool {
        let mut state = lock(&self.state);
        let Some(entry) = state.places.remove(&WatchedPlace::from(root)) else { return false };
        self.registry.change(|reg| {
            reg.batch(|reg| {
                for source in &entry.sources {
                    reg.remove_source_root(source, root);
                }
                reg.remove_project_root(root);
            })
        });
        drop(state);
        if let AttachState::Pending(waiters) = entry.attach {
            for tx in waiters {
                let _ = tx.send(AttachOutcome::Removed);
            }
        }
        self.emit(WatcherEvent::Removed { root: root.clone() });
        true
    }

    /// The watched root spelled `path`, if any (a map lookup, not a scan).
    pub(crate) fn find_root(&self, path: &Path) -> Option<AbsPathBuf> {
        let key = WatchedPlace::Root(AbsPathBuf::new(path.to_path_buf()).ok()?);
        let found = lock(&self.state).places.contains_key(&key);
        found.then(|| key.root().cloned()).flatten()
    }

    pub(crate) fn roots(&self) -> Vec<AbsPathBuf> {
        lock(&self.state).places.keys().filter_map(|p| p.root().cloned()).collect()
    }

    /// How many times `place` has been loaded, or `None` when it is not watched.
    pub(crate) fn loads(&self, place: &WatchedPlace) -> Option<u64> {
        lock(&self.state).places.get(place).map(|e| e.loads)
    }

    /// The diagnostics of `place`: a root gone missing, then its watch errors.
    pub(crate) fn diagnostics(&self, place: &WatchedPlace) -> Vec<HookDiagnostic> {
        let state = lock(&self.state);
        let Some(entry) = state.places.get(place) else { return Vec::new() };
        entry.missing.as_deref().into_iter().chain(&entry.watch_diagnostics).cloned().collect()
    }

    /// Ends a place's attachment and tells the futures waiting on it.
    pub(crate) fn attach_done(&self, place: &WatchedPlace, outcome: AttachOutcome) {
        let mut state = lock(&self.state);
        let Some(entry) = state.places.get_mut(place) else { return };
        let waiters = entry.attach.finish(&outcome);
        drop(state);
        if let Some(result) = outcome.announce(waiters) {
            self.emit(WatcherEvent::Attached { place: place.clone(), result });
        }
    }

    /// Records a watch error on `place` (once per distinct message) and tells subscribers.
    pub(crate) fn watch_error(&self, place: &WatchedPlace, error: &WatchError) {
        let diagnostic = error.to_diagnostic();
        let mut state = lock(&self.state);
        let Some(entry) = state.places.get_mut(place) else { return };
        if entry.watch_diagnostics.contains(&diagnostic) {
            return;
        }
        entry.watch_diagnostics.push(diagnostic.clone());
        drop(state);
        self.emit(WatcherEvent::Diagnostic { place: place.clone(), diagnostic });
    }

    /// Forgets the watch diagnostics of `place`, as for a root added afresh (a root that came
    /// back after it was deleted is a new directory).
    pub(crate) fn clear_watch_diagnostics(&self, place: &WatchedPlace) {
        if let Some(entry) = lock(&self.state).places.get_mut(place) {
            entry.watch_diagnostics.clear();
        }
    }

    pub(crate) fn set_platform_watches(&self, n: usize) {
        self.platform_watches.store(n, Ordering::Relaxed);
    }

    pub(crate) fn platform_watches(&self) -> usize {
        self.platform_watches.load(Ordering::Relaxed)
    }

    /// Reads the hook files of `place` from disk and applies them, or `None` when it is not
    /// watched.
    pub(crate) fn reload(&self, place: &WatchedPlace) -> Option<ReloadReport> {
        let mut state = lock(&self.state);
        let report = self.reload_locked(&mut state, place, false)?;
        let missing = state.places.get(place).and_then(|e| e.missing.as_deref().cloned());
        drop(state);
        self.emit_reloaded(report.clone());
        if let Some(diagnostic) = missing {
            self.emit(WatcherEvent::Diagnostic { place: place.clone(), diagnostic });
        }
        Some(report)
    }

    /// Decides trust again for every loaded source with `inputs`, and keeps them for later
    /// loads.
    pub(crate) fn set_trust_inputs(&self, inputs: TrustInputs) {
        let mut state = lock(&self.state);
        state.inputs = inputs;
        // Each source once, with the root it is loaded under (the first) and whether its
        // format's rules are strict.
        let mut sources: BTreeMap<&HookSourceId, (Option<&AbsPathBuf>, bool)> = BTreeMap::new();
        for (place, entry) in &state.places {
            for source in &entry.sources {
                sources.entry(source).or_insert((place.root(), entry.strict));
            }
        }
        let snapshot = self.registry.snapshot();
        self.registry.change(|reg| {
            reg.batch(|reg| {
                for (source, (root, strict)) in sources {
                    let mut trust = self.policy.decide(source.kind, &inputs);
                    if trust.is_active() && self.policy.reads_files_of(source.kind) {
                        trust = self.decide_again(&snapshot, source, root, strict, &inputs);
                    }
                    reg.set_trust(source, trust);
                }
            })
        });
    }

    /// Decides a source whose policy reads its file by its content again: the file is read
    /// anew and decided if it still holds the definitions the registry has loaded; otherwise
    /// it is inert until the reload its change brings decides it (never active on content
    /// that is not the content loaded).
    fn decide_again(
        &self,
        snapshot: &RegistrySnapshot,
        source: &HookSourceId,
        root: Option<&AbsPathBuf>,
        strict: bool,
        inputs: &TrustInputs,
    ) -> TrustDecision {
        let ctx = ParseContext { strict, ..ParseContext::new(source.path.as_path(), source.kind) };
        let loaded = snapshot.source(source).map(|v| &v.definitions);
        match read_with_bytes(self.layout.formats(), &ctx) {
            Ok(read @ (Some(_), Ok(_)))
                if loaded.is_some_and(|defs| {
                    read.1.as_ref().is_ok_and(|p| {
                        p.definitions.len() == defs.len()
                            && p.definitions.iter().zip(defs).all(|(a, b)| a == &**b)
                    })
                }) =>
            {
                decide_read(&*self.policy, &ctx, root, &read, inputs)
            }
            _ => TrustDecision::Inert {
                reason: format!(
                    "inert: {} changed since it was loaded; it is decided again when it is reloaded",
                    source.path
                ),
            },
        }
    }

    pub(crate) fn trust_inputs(&self) -> TrustInputs {
        lock(&self.state).inputs
    }

    /// Starts (or restarts, with new folders) watching the user-scope or managed files
    /// (`place` is [`WatchedPlace::User`] or [`WatchedPlace::Managed`]): records `dirs` and
    /// loads the files on the spot. Returns a receiver for the attachment of the folder
    /// watches the worker is about to make.
    pub(crate) fn watch_scope(
        &self,
        place: &WatchedPlace,
        dirs: ScopeDirs,
        strict: bool,
    ) -> oneshot::Receiver<AttachOutcome> {
        debug_assert!(place.root().is_none(), "roots are added with add_root");
        let mut state = lock(&self.state);
        let (tx, rx) = oneshot::channel();
        match state.places.get_mut(place) {
            Some(entry) => {
                entry.dirs = dirs;
                entry.strict = strict;
                entry.watch_diagnostics.clear();
                match &mut entry.attach {
                    AttachState::Pending(waiters) => waiters.push(tx),
                    AttachState::Done(_) => entry.attach = AttachState::Pending(vec![tx]),
                }
            }
            None => {
                state.places.insert(place.clone(), PlaceEntry::new(dirs, strict, tx));
            }
        }
        let report = self.reload_locked(&mut state, place, false);
        drop(state);
        if let Some(report) = report {
            self.emit_reloaded(report);
        }
        rx
    }

    /// The user or managed folders of `place` being watched, if any.
    pub(crate) fn scope_dirs(&self, place: &WatchedPlace) -> Option<ScopeDirs> {
        let state = lock(&self.state);
        state.places.get(place).filter(|_| place.root().is_none()).map(|u| u.dirs.clone())
    }

    /// Loads `place` under the state lock: its files as on disk, applied as one batch.
    fn reload_locked(
        &self,
        state: &mut State,
        place: &WatchedPlace,
        announce: bool,
    ) -> Option<ReloadReport> {
        match place {
            WatchedPlace::Root(root) => self.reload_root_locked(state, root, announce),
            WatchedPlace::User | WatchedPlace::Managed => self.reload_scope_locked(state, place),
        }
    }

    /// The state on disk decides, as for a root: every file of the scope present is read
    /// (by `hooks_sources`, exactly as the runtime's first load reads it: for managed files
    /// the fragment list in name order, capped, with the folder warnings) and upserted (not
    /// scoped to any root, trust decided by the policy for its kind), a file that cannot be
    /// read is recorded as a read failure, and every source of the scope loaded before but
    /// absent now is removed (after the pin, the registry keeps a pinned source and reports
    /// the removal). The files are read before the registry's lock is taken; everything is
    /// applied as one batch.
    fn reload_scope_locked(&self, state: &mut State, place: &WatchedPlace) -> Option<ReloadReport> {
        let inputs = state.inputs;
        let entry = state.places.get_mut(place)?;
        let formats = self.layout.formats();
        let read = if *place == WatchedPlace::Managed {
            read_managed_sources(formats, &entry.dirs, &*self.policy, &inputs, entry.strict)
        } else {
            read_user_sources(formats, &entry.dirs, &*self.policy, &inputs, entry.strict)
        };
        let mut sources = read.ids();
        let loaded: BTreeSet<HookSourceId> = sources.iter().cloned().collect();
        let withdrawn = withdrawn(&entry.sources, &loaded);
        let generation = self.registry.change(|reg| {
            reg.batch(|reg| {
                read.apply(reg);
                for id in &withdrawn {
                    reg.remove_source(id);
                }
            });
            reg.generation()
        });
        entry.loads += 1;
        // Load order is priority order, fragments in name order; the sort is stable.
        sources.sort_by_key(|s| s.kind.priority());
        entry.sources = loaded.into_iter().collect();
        Some(ReloadReport {
            place: place.clone(),
            loads: entry.loads,
            generation,
            sources,
            withdrawn,
        })
    }

    fn emit_reloaded(&self, report: ReloadReport) {
        crate::trace::reloaded(&report, || self.registry.snapshot());
        let ReloadReport { place, loads, generation, sources, .. } = report;
        self.emit(WatcherEvent::Reloaded { place, loads, generation, sources });
    }

    /// The state on disk decides: every project file present is read and upserted (a read
    /// failure or a parse failure keeps the previous configuration, which the registry marks
    /// stale), and every source loaded before but absent now is withdrawn from this root.
    /// With `announce`, the root is announced to the registry too (a root being added).
    /// Everything is applied as one registry batch, so the load publishes one snapshot (none
    /// when nothing changed) and subscribers hear one event.
    /// Runs under the state lock, so a reload and a removal of the same root never interleave.
    fn reload_root_locked(
        &self,
        state: &mut State,
        root: &AbsPathBuf,
        announce: bool,
    ) -> Option<ReloadReport> {
        let inputs = state.inputs;
        let formats = self.layout.formats();
        let entry = state.places.get_mut(&WatchedPlace::from(root))?;
        let present = match presence(root.as_path()) {
            Presence::Present => {
                entry.missing = None;
                find_files(formats, FileScope::Project, root.as_path(), &ScopeDirs::new())
            }
            gone => {
                entry.missing = Some(Box::new(missing_diagnostic(root, &gone)));
                Vec::new()
            }
        };
        let mut loaded = BTreeSet::new();
        let mut ops = Vec::with_capacity(present.len());
        for file in present {
            if file.content == FileContent::PolicyOnly {
                continue;
            }
            let (kind, path) = (file.kind, &file.path);
            // A project's files are read by their formats' own rules even when the user's are
            // strict: the deny-only contract is the user's own file's, and a project can
            // neither opt into it nor break it (`specs/formats/claude.md`).
            let ctx = ParseContext {
                shadows: &file.shadows,
                base: file.base.as_deref(),
                ..ParseContext::new(path, kind)
            };
            let read = read_with_bytes(formats, &ctx);
            // A file that may carry hooks and carries none is not a source
            // (`FileContent::HooksIfAny`): read before it is identified, it costs no path
            // resolution.
            if let Ok((_, parsed)) = &read
                && file.left_out(parsed)
            {
                continue;
            }
            let id = identify(kind, path, root);
            let op = match read {
                Ok(read) => Op::Upsert(Box::new(SourceUpdate {
                    source: id.clone(),
                    trust: decide_read(&*self.policy, &ctx, Some(root), &read, &inputs),
                    parsed: read.1,
                    project_root: Some(root.clone()),
                    project_dir: None,
                })),
                Err(e) => Op::ReadFailure(id.clone(), e.to_diagnostic()),
            };
            ops.push(op);
            ops.push(Op::Found(id.clone(), found_paths(path, &file.replaced_by)));
            loaded.insert(id);
        }
        let withdrawn = withdrawn(&entry.sources, &loaded);
        let generation = self.registry.change(|reg| {
            reg.batch(|reg| {
                if announce {
                    reg.add_project_root(root.clone());
                }
                for op in ops {
                    match op {
                        Op::Upsert(update) => reg.upsert_source(*update),
                        Op::ReadFailure(id, d) => {
                            reg.record_read_failure(&id, Some(root.clone()), d)
                        }
                        Op::Found(id, paths) => reg.set_found_paths(&id, Some(root), paths),
                    };
                }
                for id in &withdrawn {
                    reg.remove_source_root(id, root);
                }
            });
            reg.generation()
        });
        entry.loads += 1;
        let mut sources: Vec<HookSourceId> = loaded.iter().cloned().collect();
        sources.sort_by_key(|s| s.kind.priority());
        entry.sources = loaded.into_iter().collect();
        Some(ReloadReport {
            place: WatchedPlace::from(root),
            loads: entry.loads,
            generation,
            sources,
            withdrawn,
        })
    }
}

/// The sources of `before` (sorted) that `now` does not have, in order.
fn withdrawn(before: &[HookSourceId], now: &BTreeSet<HookSourceId>) -> Vec<HookSourceId> {
    before.iter().filter(|id| !now.contains(*id)).cloned().collect()
}

/// The `root_missing` diagnostic of a root that is not on disk as the directory it was added as.
fn missing_diagnostic(root: &AbsPathBuf, presence: &Presence) -> HookDiagnostic {
    let message = match presence {
        Presence::Elsewhere(target) => format!(
            "project root `{root}` was replaced by a link to `{}`; its hook files were withdrawn (add that directory as a root to watch it)",
            target.display()
        ),
        Presence::Present | Presence::Missing => {
            format!("project root `{root}` no longer exists; its hook files were withdrawn")
        }
    };
    HookDiagnostic::error(message).in_file(root.as_path()).with_code("root_missing")
}

/// One change of a root's load, applied to the registry in one batch (the update boxed: it
/// is several times the size of the others).
enum Op {
    Upsert(Box<SourceUpdate>),
    ReadFailure(HookSourceId, HookDiagnostic),
    Found(HookSourceId, Vec<AbsPathBuf>),
}

/// A file's identity: its canonical path, or, when it cannot be resolved (a dangling
/// symlink), the path under the canonical root, so the failure is still recorded on it.
fn identify(kind: HookSourceKind, path: &Path, root: &AbsPathBuf) -> HookSourceId {
    source_id(kind, path).unwrap_or_else(|_| {
        let rel = path.strip_prefix(root.as_path()).unwrap_or(path);
        let abs = root.join(rel).unwrap_or_else(|_| root.clone());
        HookSourceId::new(kind, abs)
    })
}

/// Locks, recovering from poisoning: every critical section leaves the state consistent.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
