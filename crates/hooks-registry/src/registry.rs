//! The single-writer registry: one state per source, rebuilt into an immutable snapshot and
//! published on every change.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    sync::Arc,
};

use arc_swap::ArcSwap;
use hooks_schema::{
    AbsPathBuf, Binding, Generation, HookDefinition, HookDiagnostic, HookSourceId, ParseResult,
    ParsedSource, Revision, SourceOwner, SourcePolicy, SwitchRule, TrustDecision,
};
use hooks_trust::CommandExecutionPosture;
use serde_json::{Map, Value};

use crate::{
    build::{self, Guarded, PlacedBindings, Running},
    handle::RegistryReader,
    policy::{self, PolicyInput, PolicyTable, Resolved, RunSettingsIndex, Subject},
    protect::{
        Analysed, ExpectedCache, ExpectedFiles, Placed, ProtectedKind, ProtectedPath,
        ProtectedPattern, Resolver, UserPaths, protect_definition,
    },
    snapshot::{BindingIndex, LoadStateKind, PinnedRun, RegistrySnapshot, RootKeys, SourceView},
};

/// One file's parse as the adapter produced it, with the project root it was found under and
/// the trust decision for it.
#[derive(Debug, Clone)]
pub struct SourceUpdate {
    /// The source (its canonical path and kind).
    pub source: HookSourceId,
    /// The adapter's result.
    pub parsed: ParseResult,
    /// For a project kind, the root the file was found under, which is also the directory
    /// its hooks run in; ignored for other kinds, whose hooks run in the file's folder.
    pub project_root: Option<AbsPathBuf>,
    /// For a project kind found in a folder of the project other than its root, that folder:
    /// the one its agent takes as the project for a session started there (Claude Code's
    /// `.claude/` in the session's subfolder, `hooks_sources::find_session_files`). Its hooks
    /// are bound at `project_root` as any project file's, but placed at this folder: it is
    /// their project directory (`CLAUDE_PROJECT_DIR`) and where they run when they run at
    /// the project. `None` (what every loader but the bridge gives): the root.
    pub project_dir: Option<AbsPathBuf>,
    /// Whether its hooks may run.
    pub trust: TrustDecision,
}

/// A parse after the registry's own checks.
#[derive(Debug)]
pub(crate) struct Accepted {
    definitions: Vec<Arc<HookDefinition>>,
    diagnostics: Vec<HookDiagnostic>,
    settings: Arc<Map<String, Value>>,
    /// The typed policy the file carries (`specs/formats.md`, "Source policy").
    policy: SourcePolicy,
}

#[derive(Debug)]
enum LoadState {
    NeverLoaded,
    Loaded(Arc<Accepted>),
    Stale { last: Arc<Accepted>, failure: Vec<HookDiagnostic> },
    Failed(Vec<HookDiagnostic>),
}

impl LoadState {
    fn accepted(&self) -> Option<&Arc<Accepted>> {
        match self {
            LoadState::Loaded(a) | LoadState::Stale { last: a, .. } => Some(a),
            LoadState::NeverLoaded | LoadState::Failed(_) => None,
        }
    }

    fn kind(&self) -> LoadStateKind {
        match self {
            LoadState::NeverLoaded => LoadStateKind::NeverLoaded,
            LoadState::Loaded(_) => LoadStateKind::Loaded,
            LoadState::Stale { .. } => LoadStateKind::Stale,
            LoadState::Failed(_) => LoadStateKind::Failed,
        }
    }
}

/// What a source contributes, computed when its parse or roots change.
#[derive(Debug)]
struct Compiled {
    placements: Vec<PlacedBindings>,
    /// Its file and the scripts it runs, shared with every snapshot that protects them.
    protected: Arc<[ProtectedPath]>,
    patterns: Vec<ProtectedPattern>,
    /// One warning per hook whose command could not be analysed with confidence.
    analysis: Vec<HookDiagnostic>,
    placement_error: Option<HookDiagnostic>,
    /// What the source policy sees of it (its format, whether it is managed, and its number
    /// when it waits to be picked).
    subject: Subject,
    /// Each definition with its command's analysis, for the next compile: a definition
    /// that comes back unchanged is not analysed again (not compared by [`Compiled::same_as`]:
    /// it follows from the definitions).
    analysed: Vec<(Arc<HookDefinition>, Arc<Analysed>)>,
}

impl Compiled {
    /// The placements that bind something.
    fn binding_placements(&self) -> impl Iterator<Item = &PlacedBindings> {
        self.placements.iter().filter(|p| !p.bindings.is_empty())
    }

    fn same_bindings(&self, other: &Compiled) -> bool {
        self.binding_placements().count() == other.binding_placements().count()
            && self.binding_placements().zip(other.binding_placements()).all(|(a, b)| {
                a.project_root == b.project_root
                    && (Arc::ptr_eq(&a.bindings, &b.bindings) || a.bindings == b.bindings)
            })
    }

    fn contributes(&self) -> bool {
        self.binding_placements().next().is_some()
    }

    /// Whether `other` places, protects and reports exactly what `self` does: then the
    /// source keeps `self`, so a reload that changed nothing leaves every snapshot part that
    /// points at it (its published contribution, its view) as it was.
    fn same_as(&self, other: &Compiled) -> bool {
        self.placements.len() == other.placements.len()
            && self.placements.iter().zip(&other.placements).all(|(a, b)| {
                a.project_root == b.project_root
                    && a.working_dir == b.working_dir
                    && (Arc::ptr_eq(&a.bindings, &b.bindings) || a.bindings == b.bindings)
            })
            && self.protected == other.protected
            && self.patterns == other.patterns
            && self.analysis == other.analysis
            && self.placement_error == other.placement_error
            && self.subject == other.subject
    }
}

/// Whether what a source contributes differs between two publishes.
fn contribution_changed(before: Option<&Arc<Compiled>>, now: Option<&Arc<Compiled>>) -> bool {
    match (before, now) {
        (None, None) => false,
        (Some(a), Some(b)) => !(Arc::ptr_eq(a, b) || a.same_bindings(b)),
        (Some(x), None) | (None, Some(x)) => x.contributes(),
    }
}

/// What a source's view depends on besides its own state: whether it runs, the source that
/// runs its file instead, and why the source policy's switches turn it off, where they do.
/// `(runs, suppressed by, switch notes, held back by the opt-in key)`.
type ViewKey = (bool, Option<HookSourceId>, Vec<String>, Option<&'static str>);

#[derive(Debug)]
struct SourceState {
    id: HookSourceId,
    /// A hash of the path's bytes, so a publish can match a project file with an explicit
    /// source of the same path without hashing every path.
    path_key: u64,
    seq: u64,
    load: LoadState,
    /// Whether the parse in effect carries a source policy (kept with `load`, so a publish
    /// asks each source one flag).
    has_policy: bool,
    trust: TrustDecision,
    roots: BTreeSet<AbsPathBuf>,
    /// The folder its hooks are placed at instead of each root ([`SourceUpdate::project_dir`]).
    project_dir: Option<AbsPathBuf>,
    /// The ids of `roots` in [`HookRegistry::root_keys`], for the keys of that epoch
    /// ([`HookRegistry::root_keys_epoch`]); cleared when `roots` changes. Ids stay the same
    /// while other roots come and go, so a publish looks a source's roots up only after its
    /// own roots changed (or the keys were numbered afresh).
    root_ids: Option<(u64, Vec<u32>)>,
    /// The positions of those ids in the sorted root list, for the keys of that version
    /// ([`HookRegistry::root_keys_version`]): renumbered from the ids without a lookup.
    root_positions: Option<(u64, Vec<usize>)>,
    present_at_pin: bool,
    /// First seen after the run was pinned: parsed and protected, never run.
    late: bool,
    after_pin: Vec<HookDiagnostic>,
    late_protected: Vec<ProtectedPath>,
    late_patterns: Vec<ProtectedPattern>,
    /// The user's directories hooks are placed with.
    user_paths: Arc<UserPaths>,
    /// The registry's [`HookRegistry::set_protection`].
    protection: bool,
    /// Paths the loader found the file at and names that would replace it, per project root
    /// (`None` for other kinds); see [`HookRegistry::set_found_paths`].
    found: BTreeMap<Option<AbsPathBuf>, Vec<AbsPathBuf>>,
    compiled: Arc<Compiled>,
    /// What it contributed to the last published snapshot.
    published: Option<Arc<Compiled>>,
    /// Its view in the last published snapshot, with the `(runs, suppressed by, policy
    /// notes)` it was built for; cleared by every change to the state.
    view_cache: Option<(ViewKey, Arc<SourceView>)>,
}

impl SourceState {
    /// Recomputes placements and protected paths; returns whether the protected paths changed.
    ///
    /// The file system is read again every time (a script's symlink may point elsewhere now,
    /// a script may have been created): a reload that changed nothing in the file can still
    /// change what is protected. When nothing changed at all, the source keeps its compiled
    /// state (the same `Arc`).
    fn recompile(&mut self) -> bool {
        let accepted = self.load.accepted().map(|a| &**a);
        let mut compiled = compile(
            &self.id,
            accepted,
            &self.roots,
            self.project_dir.as_ref(),
            &self.user_paths,
            self.protection,
            Some(&self.compiled),
        );
        // Numbered when it waits to be picked (`hooks_schema::SourcePolicy::picked_as`), so
        // a place's cut can name the one source that runs.
        compiled.subject = compiled.subject.of_source(self.seq, accepted.map(|a| &a.policy));
        let protected_changed = compiled.protected != self.compiled.protected
            || compiled.patterns != self.compiled.patterns;
        if !self.compiled.same_as(&compiled) {
            self.compiled = Arc::new(compiled);
        }
        self.view_cache = None;
        protected_changed
    }

    /// Withdraws `root` and the paths found under it. `None` when no root is left (the
    /// caller forgets the source); otherwise whether its protected paths changed.
    fn withdraw_root(&mut self, root: &AbsPathBuf) -> Option<bool> {
        self.roots.remove(root);
        self.root_ids = None;
        self.root_positions = None;
        let found_changed = self.found.remove(&Some(root.clone())).is_some();
        if self.roots.is_empty() {
            return None;
        }
        Some(self.recompile() | found_changed)
    }

    fn frozen(&self, pinned: bool) -> bool {
        pinned && self.present_at_pin
    }

    fn effective_trust(&self) -> TrustDecision {
        if self.late {
            TrustDecision::Inert {
                reason: "found after the run started; it stays inert until the next run start"
                    .to_owned(),
            }
        } else {
            self.trust.clone()
        }
    }

    fn can_run(&self) -> bool {
        !self.late
            && self.trust.is_active()
            && self.load.accepted().is_some()
            && self.compiled.placement_error.is_none()
    }

    fn note_after_pin(&mut self, diagnostic: HookDiagnostic) {
        self.view_cache = None;
        let diagnostic = diagnostic.in_file(self.id.path.as_path());
        if !self.after_pin.iter().any(|d| d.message == diagnostic.message) {
            self.after_pin.push(diagnostic);
        }
    }
}

/// The hook registry: one source state per source, a single writer, and an
/// immutable [`RegistrySnapshot`] published through arc-swap after every change.
///
/// Every mutating call rebuilds the snapshot, moves its generation, and returns the
/// revision, which moves only when the runnable bindings or the project roots differ from
/// the previous snapshot. Calls that change nothing (an unknown source, an unchanged trust
/// decision, a second pin) publish nothing and return the current revision. Inside
/// [`HookRegistry::batch`] the calls publish nothing and the batch publishes once.
pub struct HookRegistry {
    /// Source states in stable slots; `index` maps ids to slots and `order` lists occupied
    /// slots in precedence order, so a publish walks the sources without hashing paths.
    slots: Vec<Option<SourceState>>,
    free: Vec<usize>,
    index: HashMap<HookSourceId, usize>,
    order: Vec<usize>,
    membership_changed: bool,
    runnable_removed: bool,
    roots_dirty: bool,
    protected_dirty: bool,
    next_seq: u64,
    announced_roots: BTreeSet<AbsPathBuf>,
    /// Every project root with how many hold it: its announcement, and each project source
    /// placed under it. Kept as they come and go, so a publish does not gather the roots of
    /// every source again.
    root_holds: BTreeMap<AbsPathBuf, usize>,
    /// A root came or went in `root_holds` since the last publish.
    roots_moved: bool,
    /// The roots that came or went in `root_holds` since the last publish (a root may be
    /// listed twice, or have come and gone).
    moved_roots: Vec<AbsPathBuf>,
    pinned: Option<PinnedRun>,
    pinned_roots: Option<BTreeSet<AbsPathBuf>>,
    registry_diagnostics: Vec<HookDiagnostic>,
    last_roots: BTreeSet<AbsPathBuf>,
    root_keys: Arc<RootKeys>,
    /// Moves whenever `root_keys` is numbered afresh (see [`SourceState::root_ids`]).
    root_keys_epoch: u64,
    /// Moves whenever `root_keys` changes (see [`SourceState::root_positions`]).
    root_keys_version: u64,
    /// How many project sources had their roots looked up in `root_keys` (for tests).
    #[cfg(test)]
    root_lookups: usize,
    /// The source policy's switches in the last published snapshot.
    policy: Arc<PolicyTable>,
    /// The user turned every opt-in on outside any hook file ([`HookRegistry::set_user_opt_in`]).
    user_opt_in: bool,
    /// Each format's run settings per place in the last published snapshot.
    run_settings: Arc<RunSettingsIndex>,
    /// How many [`HookRegistry::batch`] calls are running (nested batches count).
    batch_depth: u32,
    /// Whether an operation inside the running batch asked to publish.
    batch_pending: bool,
    /// The run was pinned since the last publish: the pin takes the revision of the snapshot
    /// that first carries it.
    pin_unsettled: bool,
    revision: Revision,
    generation: Generation,
    current: Arc<ArcSwap<RegistrySnapshot>>,
    /// The user's directories hooks are placed with (`~`, `${chrys_home}`).
    user_paths: Arc<UserPaths>,
    /// Hook files that would be loaded if they existed, by place, with each place's
    /// resolution kept until something changes there.
    expected: ExpectedCache,
    /// Whether each source's protection is computed ([`HookRegistry::set_protection`]).
    protection: bool,
}

impl Default for HookRegistry {
    fn default() -> Self {
        HookRegistry {
            slots: Vec::new(),
            free: Vec::new(),
            index: HashMap::new(),
            order: Vec::new(),
            membership_changed: false,
            runnable_removed: false,
            roots_dirty: false,
            protected_dirty: false,
            next_seq: 0,
            announced_roots: BTreeSet::new(),
            root_holds: BTreeMap::new(),
            roots_moved: false,
            moved_roots: Vec::new(),
            pinned: None,
            pinned_roots: None,
            registry_diagnostics: Vec::new(),
            last_roots: BTreeSet::new(),
            root_keys: Arc::new(RootKeys::default()),
            root_keys_epoch: 0,
            root_keys_version: 0,
            #[cfg(test)]
            root_lookups: 0,
            policy: Arc::new(PolicyTable::default()),
            user_opt_in: false,
            run_settings: Arc::new(RunSettingsIndex::default()),
            batch_depth: 0,
            batch_pending: false,
            pin_unsettled: false,
            revision: Revision::ZERO,
            generation: Generation::ZERO,
            current: Arc::new(ArcSwap::from_pointee(RegistrySnapshot::default())),
            user_paths: Arc::new(UserPaths::default()),
            expected: ExpectedCache::default(),
            protection: true,
        }
    }
}

impl std::fmt::Debug for HookRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookRegistry")
            .field("sources", &self.index.len())
            .field("revision", &self.revision)
            .field("generation", &self.generation)
            .field("pinned", &self.pinned)
            .finish_non_exhaustive()
    }
}

impl HookRegistry {
    /// An empty registry at revision 0, generation 0.
    pub fn new() -> HookRegistry {
        HookRegistry::default()
    }

    /// The current revision.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The current generation.
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// The run's pin, once pinned.
    pub fn pinned(&self) -> Option<PinnedRun> {
        self.pinned
    }

    /// The snapshot last published.
    pub fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.current.load_full()
    }

    /// A cheap, cloneable reader of the published snapshots.
    pub fn reader(&self) -> RegistryReader {
        RegistryReader::new(self.current.clone())
    }

    /// Every error recorded for `sources` (see [`RegistrySnapshot::errors_for`]).
    pub fn errors_for(&self, sources: &[HookSourceId]) -> Vec<HookDiagnostic> {
        self.snapshot().errors_for(sources)
    }

    /// Applies every operation `f` makes on the registry and publishes once: the snapshot
    /// readers see goes from the state before the batch to the state after it, with one
    /// generation step (none when no operation changed anything), so no reader ever sees a
    /// batch half applied.
    ///
    /// Inside the batch the operations apply to the registry's state at once (a later
    /// operation sees what an earlier one did), but nothing is published until the batch
    /// ends, so what reads the published snapshot is provisional: each mutating call returns
    /// the revision of the last published snapshot, and [`revision`](Self::revision),
    /// [`generation`](Self::generation), [`pinned`](Self::pinned),
    /// [`snapshot`](Self::snapshot), [`errors_for`](Self::errors_for) and every reader still
    /// show the snapshot from before the batch. Read them after `batch` returns. A pin inside
    /// a batch records the revision of the batch's snapshot, which carries everything applied
    /// before it.
    ///
    /// Batches nest: only the outermost one publishes.
    ///
    /// If `f` panics, the batch ends as the panic unwinds and the operations applied before
    /// it are published, as one snapshot: each operation is applied whole, so the state is
    /// consistent, and the published snapshot never lags the state nor leaves the registry
    /// stuck deferring. Such a snapshot may hold part of what the batch meant to do; nothing
    /// is rolled back.
    pub fn batch<R>(&mut self, f: impl FnOnce(&mut HookRegistry) -> R) -> R {
        /// Ends the batch however `f` leaves, unwinding included.
        struct Batch<'a>(&'a mut HookRegistry);
        impl Drop for Batch<'_> {
            fn drop(&mut self) {
                self.0.end_batch();
            }
        }
        self.batch_depth += 1;
        let guard = Batch(self);
        f(&mut *guard.0)
    }

    /// Loads or reloads one file.
    ///
    /// A parse that fails keeps the last valid parse in effect (the source turns stale) or,
    /// on a first load, leaves the source failed; either way its file is protected and a
    /// project file's root counts as a project. After the run is pinned, a source known at
    /// pin time keeps what it had and the change is reported; a new source is parsed and
    /// protected but inert (a new explicit source is an error).
    pub fn upsert_source(&mut self, update: SourceUpdate) -> Revision {
        let SourceUpdate { source, parsed, project_root, project_dir, trust } = update;
        self.apply(source, parsed, project_root, Some(project_dir), Some(trust));
        self.publish()
    }

    /// Loads several files and publishes once: one new generation for the whole batch (a
    /// loader naming many files, or a watcher adding many roots). Each update is applied as
    /// [`HookRegistry::upsert_source`] would; an empty batch publishes nothing.
    pub fn upsert_sources(&mut self, updates: impl IntoIterator<Item = SourceUpdate>) -> Revision {
        let mut any = false;
        for SourceUpdate { source, parsed, project_root, project_dir, trust } in updates {
            self.apply(source, parsed, project_root, Some(project_dir), Some(trust));
            any = true;
        }
        if any { self.publish() } else { self.revision }
    }

    /// Records that a file could not be read, which behaves like a failed parse.
    pub fn record_read_failure(
        &mut self,
        source: &HookSourceId,
        project_root: Option<AbsPathBuf>,
        error: HookDiagnostic,
    ) -> Revision {
        self.apply(source.clone(), Err(vec![error]), project_root, None, None);
        self.publish()
    }

    /// Forgets a source; after pinning, a source known at pin time keeps its hooks until the
    /// run ends and the removal is reported. An unknown source changes nothing.
    pub fn remove_source(&mut self, source: &HookSourceId) -> Revision {
        let pinned = self.pinned.is_some();
        let Some(state) = self.get_mut(source) else { return self.revision };
        if state.frozen(pinned) {
            state.note_after_pin(HookDiagnostic::warning(
                "hook file removed after the run started; its hooks stay in effect until the run ends",
            ));
            if let Some(&slot) = self.index.get(source)
                && let Some(state) = self.slots.get(slot).and_then(Option::as_ref)
            {
                changed_at_places_of(&mut self.expected, state);
            }
        } else {
            self.forget(source);
        }
        self.publish()
    }

    /// Withdraws one root of a project source; the source is forgotten with its last root.
    /// After pinning, a source known at pin time keeps its roots and the change is reported.
    pub fn remove_source_root(&mut self, source: &HookSourceId, root: &AbsPathBuf) -> Revision {
        let pinned = self.pinned.is_some();
        let Some(state) = self.get_mut(source) else { return self.revision };
        if !state.roots.contains(root) {
            return self.revision;
        }
        let frozen = state.frozen(pinned);
        self.expected.changed_at(Some(root));
        let Some(state) = self.get_mut(source) else { return self.revision };
        if frozen {
            state.note_after_pin(HookDiagnostic::warning(format!(
                "project root {root} withdrawn after the run started; its hooks stay in effect until the run ends"
            )));
        } else {
            let withdrawn = state.withdraw_root(root);
            self.release_root(root);
            match withdrawn {
                Some(protected_changed) => self.protected_dirty |= protected_changed,
                None => self.forget(source),
            }
            self.roots_dirty = true;
        }
        self.publish()
    }

    /// Records where the loader found a source's file, which the registry cannot know from
    /// the canonical path alone: the path it was found at (a symlink such as
    /// `<root>/.cursor/hooks.json`, whose replacement would swap the policy) and the names
    /// that would replace it if created (Chrys's `hooks.yaml` beside a loaded `hooks.json`).
    /// Every path is protected as a hook file of `source`, whether or not it exists; pass
    /// each resolved the way the guard resolves an edited path (`canonicalize`, or the
    /// lenient resolution of its folder plus its name), as `hooks_sources::found_paths` does.
    ///
    /// For a project source the paths belong to `project_root` (the root the file was found
    /// under) and go with it; for other kinds `project_root` is ignored. A new call replaces
    /// the paths recorded for that root; after pinning, a source known at pin time only
    /// gains paths, so its file stays protected until the run ends. An unknown source, a
    /// project source not placed under `project_root`, or the paths already recorded change
    /// nothing.
    pub fn set_found_paths(
        &mut self,
        source: &HookSourceId,
        project_root: Option<&AbsPathBuf>,
        paths: Vec<AbsPathBuf>,
    ) -> Revision {
        let pinned = self.pinned.is_some();
        let Some(state) = self.get_mut(source) else { return self.revision };
        let key = if state.id.kind.is_project() {
            match project_root {
                Some(root) if state.roots.contains(root) => Some(root.clone()),
                Some(_) | None => return self.revision,
            }
        } else {
            None
        };
        let mut paths: Vec<AbsPathBuf> =
            paths.into_iter().filter(|p| *p != state.id.path).collect();
        if state.frozen(pinned)
            && let Some(before) = state.found.get(&key)
        {
            for p in before {
                if !paths.contains(p) {
                    paths.push(p.clone());
                }
            }
        }
        paths.sort();
        paths.dedup();
        let before = state.found.get(&key).map_or(&[][..], Vec::as_slice);
        if before == paths.as_slice() {
            return self.revision;
        }
        let place = key.clone();
        if paths.is_empty() {
            state.found.remove(&key);
        } else {
            state.found.insert(key, paths);
        }
        self.expected.changed_at(place.as_ref());
        self.protected_dirty = true;
        self.publish()
    }

    /// Sets the user's directories that hooks' commands are read with: the home for `~` and
    /// `$HOME`, the configuration directory for Chrys's `${chrys_home}`. Without them such
    /// paths are protected by name under any folder. Every source's protected paths are
    /// computed again; after pinning, a source known at pin time only gains paths.
    pub fn set_user_paths(&mut self, paths: UserPaths) -> Revision {
        if *self.user_paths == paths {
            return self.revision;
        }
        self.user_paths = Arc::new(paths);
        self.expected.changed_everywhere();
        self.protect_again()
    }

    /// Whether the registry computes what each source's hooks run and read, for the guard
    /// (on by default). Off, a source protects its own file only, no script or folder is read
    /// for it, and the snapshots say so ([`RegistrySnapshot::protection_computed`]): for a
    /// process that never asks the guard (a bridge event that edits no file), which a
    /// project whose hooks run git, npm or uv otherwise pays for at every event. Turned on,
    /// every source's protection is computed, after the pin too (as
    /// [`HookRegistry::set_user_paths`] does it).
    pub fn set_protection(&mut self, on: bool) -> Revision {
        if self.protection == on {
            return self.revision;
        }
        self.protection = on;
        self.protect_again()
    }

    /// Computes every source's protected paths again (the user's paths or
    /// [`HookRegistry::set_protection`] changed), then publishes; after the pin, a source
    /// known at pin time only gains paths.
    fn protect_again(&mut self) -> Revision {
        let pinned = self.pinned.is_some();
        for state in self.slots.iter_mut().flatten() {
            state.user_paths = self.user_paths.clone();
            state.protection = self.protection;
            if state.frozen(pinned) {
                let compiled = compile(
                    &state.id,
                    state.load.accepted().map(|a| &**a),
                    &state.roots,
                    state.project_dir.as_ref(),
                    &state.user_paths,
                    state.protection,
                    None,
                );
                state.late_protected = compiled.protected.to_vec();
                state.late_patterns = compiled.patterns;
            } else {
                state.recompile();
            }
        }
        self.protected_dirty = true;
        self.publish()
    }

    /// Sets the hook files that would be loaded if they existed (under every project root,
    /// and outside projects); they are protected whether or not they exist, so the agent
    /// cannot create one (a first `.cursor/hooks.json`, a `.claude/settings.local.json` with
    /// `disableAllHooks`). Each is protected as the source it would be.
    pub fn set_expected_files(&mut self, expected: ExpectedFiles) -> Revision {
        if *self.expected.expected() == expected {
            return self.revision;
        }
        self.expected.set(expected);
        self.protected_dirty = true;
        self.publish()
    }

    /// Records a new trust decision. An unknown source or an unchanged decision changes
    /// nothing; after pinning, a source known at pin time keeps its decision and the change
    /// is reported.
    pub fn set_trust(&mut self, source: &HookSourceId, trust: TrustDecision) -> Revision {
        let pinned = self.pinned.is_some();
        let Some(state) = self.get_mut(source) else { return self.revision };
        if state.trust == trust {
            return self.revision;
        }
        if state.frozen(pinned) {
            state.note_after_pin(trust_change_warning(&trust));
        } else {
            crate::trace::trust(source, &trust);
            state.trust = trust;
            state.view_cache = None;
        }
        self.publish()
    }

    /// Whether the user turned every opt-in on outside any hook file: the command-line flag
    /// that enables project hooks, or the user's own settings document the embedder read
    /// (`specs/formats.md`, "Source policy"). A source that `requires` a key then runs where
    /// its trust lets it, whatever the voices of its format say. Off by default. After
    /// pinning it is only reported: the run keeps what it started with.
    pub fn set_user_opt_in(&mut self, on: bool) -> Revision {
        if on == self.user_opt_in {
            return self.revision;
        }
        if self.pinned.is_some() {
            let d = HookDiagnostic::warning(format!(
                "the user's opt-in to project hooks changed to {} after the run started; it applies at the next run start",
                if on { "on" } else { "off" }
            ))
            .with_code("changed_after_pin");
            if self.registry_diagnostics.iter().any(|x| x.message == d.message) {
                return self.revision;
            }
            self.registry_diagnostics.push(d);
            return self.publish();
        }
        self.user_opt_in = on;
        for state in self.slots.iter_mut().flatten() {
            state.view_cache = None;
        }
        self.publish()
    }

    /// Pins the run: the bindings, the project roots and the posture stay as they are until
    /// the process ends. A second pin changes nothing.
    pub fn pin(&mut self, posture: CommandExecutionPosture) -> Revision {
        if self.pinned.is_some() {
            return self.revision;
        }
        crate::trace::pinned(posture, self.revision);
        self.pinned = Some(PinnedRun { posture, revision: self.revision });
        self.pin_unsettled = true;
        self.pinned_roots = Some(self.current_roots());
        self.roots_dirty = true;
        for state in self.slots.iter_mut().flatten() {
            state.present_at_pin = true;
            state.view_cache = None;
        }
        self.publish()
    }

    /// Announces a project root (a directory the agent works in), with or without a hook
    /// file. The caller passes a canonical path. After pinning, a new root is only reported.
    pub fn add_project_root(&mut self, root: AbsPathBuf) -> Revision {
        if let Some(pinned_roots) = &self.pinned_roots {
            if pinned_roots.contains(&root) {
                return self.revision;
            }
            let d = HookDiagnostic::warning(format!(
                "project root {root} found after the run started; the set of projects stays as it was until the next run"
            ));
            if self.registry_diagnostics.iter().any(|x| x.message == d.message) {
                return self.revision;
            }
            self.registry_diagnostics.push(d);
            return self.publish();
        }
        if !self.announced_roots.insert(root.clone()) {
            return self.revision;
        }
        self.roots_moved |= hold(&mut self.root_holds, &mut self.moved_roots, &root);
        self.roots_dirty = true;
        self.publish()
    }

    /// Withdraws a project root: the announcement and every project source's placement under
    /// it (a source left with no root is forgotten). Does nothing after pinning.
    pub fn remove_project_root(&mut self, root: &AbsPathBuf) -> Revision {
        if self.pinned.is_some() {
            return self.revision;
        }
        let mut changed = self.announced_roots.remove(root);
        if changed {
            self.release_root(root);
        }
        let mut emptied = Vec::new();
        // Every hold left on the root is a project source's: without one, no source to visit.
        let held_by_sources = self.root_holds.contains_key(root);
        for state in self.slots.iter_mut().flatten().filter(|_| held_by_sources) {
            if state.roots.contains(root) {
                changed = true;
                self.roots_moved |= release(&mut self.root_holds, &mut self.moved_roots, root);
                match state.withdraw_root(root) {
                    Some(protected_changed) => self.protected_dirty |= protected_changed,
                    None => emptied.push(state.id.clone()),
                }
            }
        }
        for id in emptied {
            self.forget(&id);
        }
        if !changed {
            return self.revision;
        }
        self.roots_dirty = true;
        self.publish()
    }

    fn get_mut(&mut self, id: &HookSourceId) -> Option<&mut SourceState> {
        let slot = *self.index.get(id)?;
        self.slots.get_mut(slot).and_then(Option::as_mut)
    }

    fn forget(&mut self, id: &HookSourceId) {
        let Some(slot) = self.index.remove(id) else { return };
        if let Some(state) = self.slots.get_mut(slot).and_then(Option::take) {
            changed_at_places_of(&mut self.expected, &state);
            if state.published.as_ref().is_some_and(|c| c.contributes()) {
                self.runnable_removed = true;
            }
            if state.id.kind.is_project() {
                for root in &state.roots {
                    self.roots_moved |= release(&mut self.root_holds, &mut self.moved_roots, root);
                }
            }
            self.free.push(slot);
            self.membership_changed = true;
            self.roots_dirty = true;
            self.protected_dirty = true;
        }
    }

    fn insert(&mut self, state: SourceState) -> usize {
        let id = state.id.clone();
        let slot = match self.free.pop() {
            Some(slot) => {
                if let Some(s) = self.slots.get_mut(slot) {
                    *s = Some(state);
                }
                slot
            }
            None => {
                self.slots.push(Some(state));
                self.slots.len() - 1
            }
        };
        self.index.insert(id, slot);
        self.membership_changed = true;
        self.roots_dirty = true;
        self.protected_dirty = true;
        slot
    }

    /// `project_dir`: `Some` sets the source's project folder ([`SourceUpdate::project_dir`]),
    /// `None` keeps it.
    fn apply(
        &mut self,
        id: HookSourceId,
        parsed: ParseResult,
        project_root: Option<AbsPathBuf>,
        project_dir: Option<Option<AbsPathBuf>>,
        trust: Option<TrustDecision>,
    ) {
        let pinned = self.pinned.is_some();
        if let Some(&slot) = self.index.get(&id)
            && let Some(state) = self.slots.get_mut(slot).and_then(Option::as_mut)
            && state.frozen(pinned)
        {
            changed_at_places_of(&mut self.expected, state);
            let before = (state.late_protected.clone(), state.late_patterns.clone());
            note_frozen_change(state, parsed, project_root.as_ref(), trust.as_ref());
            let changed = (&state.late_protected, &state.late_patterns) != (&before.0, &before.1);
            self.protected_dirty |= changed;
            return;
        }
        let slot = match self.index.get(&id) {
            Some(&slot) => slot,
            None => {
                let seq = self.next_seq;
                self.next_seq += 1;
                let mut state = SourceState {
                    id: id.clone(),
                    path_key: path_key(id.path.as_path()),
                    seq,
                    load: LoadState::NeverLoaded,
                    has_policy: false,
                    trust: TrustDecision::Inert { reason: "the file has not loaded".to_owned() },
                    roots: BTreeSet::new(),
                    project_dir: None,
                    root_ids: None,
                    root_positions: None,
                    present_at_pin: false,
                    late: pinned,
                    after_pin: Vec::new(),
                    late_protected: Vec::new(),
                    late_patterns: Vec::new(),
                    user_paths: self.user_paths.clone(),
                    protection: self.protection,
                    found: BTreeMap::new(),
                    compiled: Arc::new(Compiled {
                        placements: Vec::new(),
                        protected: Arc::from(Vec::new()),
                        patterns: Vec::new(),
                        analysis: Vec::new(),
                        placement_error: None,
                        subject: Subject::default(),
                        analysed: Vec::new(),
                    }),
                    published: None,
                    view_cache: None,
                };
                if pinned {
                    state.note_after_pin(if id.kind.is_explicit() {
                        HookDiagnostic::error("explicit sources must be loaded before the run starts")
                            .with_code("loaded_after_pin")
                    } else {
                        HookDiagnostic::warning(
                            "hook file found after the run started; it stays inert until the next run start",
                        )
                        .with_code("found_after_pin")
                    });
                }
                self.insert(state)
            }
        };
        let Some(state) = self.slots.get_mut(slot).and_then(Option::as_mut) else { return };
        if let Some(trust) = trust {
            if state.trust != trust {
                crate::trace::trust(&id, &trust);
            }
            state.trust = trust;
        }
        if id.kind.is_project()
            && let Some(dir) = project_dir
        {
            state.project_dir = dir;
        }
        if id.kind.is_project()
            && let Some(root) = project_root
            && state.roots.insert(root.clone())
        {
            state.root_ids = None;
            state.root_positions = None;
            self.roots_moved |= hold(&mut self.root_holds, &mut self.moved_roots, &root);
            self.roots_dirty = true;
        }
        let previous = std::mem::replace(&mut state.load, LoadState::NeverLoaded);
        state.load = match parsed {
            Ok(p) => LoadState::Loaded(Arc::new(accept(&id, p))),
            Err(diagnostics) => match previous {
                LoadState::Loaded(last) | LoadState::Stale { last, .. } => {
                    LoadState::Stale { last, failure: failure_diagnostics(&id, diagnostics, true) }
                }
                LoadState::NeverLoaded | LoadState::Failed(_) => {
                    LoadState::Failed(failure_diagnostics(&id, diagnostics, false))
                }
            },
        };
        state.has_policy = state.load.accepted().is_some_and(|a| !a.policy.is_empty());
        self.protected_dirty |= state.recompile();
        changed_at_places_of(&mut self.expected, state);
    }

    fn current_roots(&self) -> BTreeSet<AbsPathBuf> {
        if let Some(r) = &self.pinned_roots {
            return r.clone();
        }
        self.root_holds.keys().cloned().collect()
    }

    /// Lets go of one hold on `root`.
    fn release_root(&mut self, root: &AbsPathBuf) {
        self.roots_moved |= release(&mut self.root_holds, &mut self.moved_roots, root);
    }

    /// Publishes now, or, inside a batch, when the outermost batch ends; returns the current
    /// revision (provisional inside a batch).
    fn publish(&mut self) -> Revision {
        if self.batch_depth > 0 {
            self.batch_pending = true;
            return self.revision;
        }
        self.publish_now()
    }

    /// Ends one level of batching; the outermost level publishes what the batch changed.
    fn end_batch(&mut self) {
        self.batch_depth = self.batch_depth.saturating_sub(1);
        if self.batch_depth == 0 && std::mem::take(&mut self.batch_pending) {
            self.publish_now();
        }
    }

    /// Rebuilds the snapshot, moves the counters and publishes it.
    ///
    /// Work is proportional to the number of sources only for pointer copies; the binding
    /// index, the protected-path index, the source index and each source's view are rebuilt
    /// only when something they depend on changed.
    fn publish_now(&mut self) -> Revision {
        let previous = self.current.load_full();
        let first = previous.generation == Generation::ZERO;

        if self.membership_changed || first {
            let slots = &self.slots;
            let mut order: Vec<usize> =
                (0..slots.len()).filter(|&i| slots.get(i).is_some_and(Option::is_some)).collect();
            order.sort_by_key(|&i| {
                slots.get(i).and_then(Option::as_ref).map(|s| (s.id.kind.priority(), s.seq))
            });
            self.order = order;
        }

        let mut roots_changed = false;
        if std::mem::take(&mut self.roots_dirty) {
            // Unpinned, the roots are the keys of `root_holds`, and the roots that came or
            // went there since the last publish say what changed; pinned, the pinned set
            // (compared, as a pin is rare).
            let moved = std::mem::take(&mut self.roots_moved);
            let mut moved_roots = std::mem::take(&mut self.moved_roots);
            match &self.pinned_roots {
                Some(pinned) if *pinned != self.last_roots => {
                    roots_changed = true;
                    self.last_roots = pinned.clone();
                    self.root_keys = Arc::new(RootKeys::new(self.last_roots.iter().cloned()));
                    self.root_keys_epoch += 1;
                    self.root_keys_version += 1;
                    self.expected.set_roots(self.last_roots.iter());
                }
                Some(_) => {}
                None if moved => {
                    moved_roots.sort();
                    moved_roots.dedup();
                    let (mut added, mut removed) = (Vec::new(), Vec::new());
                    for root in moved_roots {
                        let held = self.root_holds.contains_key(&root);
                        if held && self.last_roots.insert(root.clone()) {
                            added.push(root);
                        } else if !held && self.last_roots.remove(&root) {
                            removed.push(root);
                        }
                    }
                    if !added.is_empty() || !removed.is_empty() {
                        roots_changed = true;
                        // A few roots: the keys follow from the previous ones, and every
                        // other root keeps its id; many (a batch of new roots): numbered
                        // afresh, which costs no more than following each change.
                        let keys = if added.len() + removed.len() <= FEW_ROOTS {
                            for root in &removed {
                                self.expected.root_removed(root);
                            }
                            for root in &added {
                                self.expected.root_added(root);
                            }
                            self.root_keys.with_changes(&added, &removed)
                        } else {
                            self.root_keys_epoch += 1;
                            self.expected.set_roots(self.last_roots.iter());
                            RootKeys::new(self.last_roots.iter().cloned())
                        };
                        self.root_keys = Arc::new(keys);
                        self.root_keys_version += 1;
                    }
                }
                None => {}
            }
        }

        // One file loaded under several kinds runs once, as the kind with the highest
        // precedence that can run. Explicit, managed and user sources are few; each source
        // is matched against those that run before it by a cached path hash.
        let mut bindings_changed = std::mem::take(&mut self.runnable_removed);
        // Project kinds rank above user kinds, so the sources that apply everywhere are
        // collected first.
        let mut running_global: Vec<(u64, HookSourceId)> = Vec::new();
        // The same walk sees whether any file carries a source policy at all.
        let mut any_policy = false;
        for &slot in &self.order {
            let Some(state) = self.slots.get(slot).and_then(Option::as_ref) else { continue };
            any_policy |= state.has_policy;
            if state.id.kind.is_project() || !state.can_run() {
                continue;
            }
            if !running_global
                .iter()
                .any(|(key, id)| *key == state.path_key && id.path == state.id.path)
            {
                running_global.push((state.path_key, state.id.clone()));
            }
        }
        // The source that runs `state`'s file instead, as its place in `running_global`.
        let suppressor = |state: &SourceState| {
            running_global
                .iter()
                .position(|(key, id)| *key == state.path_key && id.path == state.id.path)
                .filter(|&i| running_global.get(i).is_some_and(|(_, id)| *id != state.id))
        };
        // The source policy (`specs/registry.md`, "Source policy"): which sources are held
        // back by an opt-in (decided for every source, trusted or not, so a listing can say
        // why), the switches per place and the run settings, from the sources that can run.
        // When no file carries a policy nothing is held back, switched off or set.
        let (suppression, held, table, run_settings) = if any_policy {
            // Each project source's positions in the sorted root list (only when a policy
            // needs them): its roots are looked up only when they changed or the keys were
            // numbered afresh, and renumbered from their ids when other roots came or went.
            let (epoch, version) = (self.root_keys_epoch, self.root_keys_version);
            for &slot in &self.order {
                let Some(state) = self.slots.get_mut(slot).and_then(Option::as_mut) else {
                    continue;
                };
                if !state.id.kind.is_project() {
                    continue;
                }
                if state.root_ids.as_ref().is_none_or(|(e, _)| *e != epoch) {
                    let ids = state.roots.iter().filter_map(|r| self.root_keys.id(r)).collect();
                    state.root_ids = Some((epoch, ids));
                    state.root_positions = None;
                    #[cfg(test)]
                    {
                        self.root_lookups += 1;
                    }
                }
                if state.root_positions.as_ref().is_none_or(|(v, _)| *v != version) {
                    let ids = state.root_ids.as_ref().map_or(&[][..], |(_, ids)| ids.as_slice());
                    let positions =
                        ids.iter().filter_map(|&id| self.root_keys.position(id)).collect();
                    state.root_positions = Some((version, positions));
                }
            }
            let no_policy = SourcePolicy::default();
            let mut suppression = Vec::with_capacity(self.order.len());
            let mut inputs = Vec::with_capacity(self.order.len());
            for &slot in &self.order {
                let Some(state) = self.slots.get(slot).and_then(Option::as_ref) else { continue };
                let suppressed_by = suppressor(state);
                let roots = match &state.root_positions {
                    Some((_, positions)) if state.id.kind.is_project() => positions.as_slice(),
                    Some(_) | None => &[],
                };
                inputs.push(PolicyInput {
                    id: &state.id,
                    subject: state.compiled.subject,
                    can_run: state.can_run() && suppressed_by.is_none(),
                    roots,
                    policy: state.load.accepted().map_or(&no_policy, |a| &a.policy),
                });
                suppression.push(suppressed_by);
            }
            let Resolved { held, table, run_settings } =
                policy::resolve_sources(&inputs, &self.root_keys.list, self.user_opt_in);
            (Some(suppression), Some(held), table, run_settings)
        } else {
            // Nothing held back: no list to make.
            (None, None, PolicyTable::default(), RunSettingsIndex::default())
        };
        let held_at = |i: usize| held.as_ref().and_then(|h| h.get(i).copied().flatten());
        // Per slot of `order`: whether the source runs, and the place in `running_global` of
        // the source that runs its file instead.
        let mut runs: Vec<(bool, Option<usize>)> = Vec::with_capacity(self.order.len());
        for (i, &slot) in self.order.iter().enumerate() {
            let Some(state) = self.slots.get_mut(slot).and_then(Option::as_mut) else { continue };
            let suppressed_by = match suppression.as_ref() {
                Some(computed) => computed.get(i).copied().flatten(),
                None => suppressor(state),
            };
            let can = state.can_run() && suppressed_by.is_none() && held_at(i).is_none();
            let same = match &state.published {
                Some(published) => can && Arc::ptr_eq(published, &state.compiled),
                None => !can,
            };
            if !same {
                let now = can.then(|| state.compiled.clone());
                if contribution_changed(state.published.as_ref(), now.as_ref()) {
                    bindings_changed = true;
                }
                state.published = now;
            }
            runs.push((can, suppressed_by));
        }
        let policy_changed = table != *self.policy;
        if policy_changed {
            self.policy = Arc::new(table);
        }
        if run_settings != *self.run_settings {
            self.run_settings = Arc::new(run_settings);
        }

        let bindings = if bindings_changed || roots_changed || policy_changed || first {
            if bindings_changed || roots_changed || policy_changed {
                self.revision = self.revision.next();
            }
            Arc::new(self.build_index(&runs))
        } else {
            previous.bindings.clone()
        };

        let policy_cuts = self.policy.cuts_anything();
        let mut views = Vec::with_capacity(self.order.len());
        for (i, (&slot, &(can, suppressed_by))) in self.order.iter().zip(&runs).enumerate() {
            let Some(state) = self.slots.get_mut(slot).and_then(Option::as_mut) else { continue };
            let held = held_at(i);
            let (notes, off_everywhere) = if policy_cuts
                && can
                && suppressed_by.is_none()
                && self.policy.may_cut(state.compiled.subject)
            {
                policy_notes(state, &self.policy, &self.root_keys)
            } else {
                (Vec::new(), false)
            };
            let runner = suppressed_by.and_then(|r| running_global.get(r)).map(|(_, id)| id);
            let runs = can && !off_everywhere;
            // Compared in place: the key is made (the runner's id copied) only for a new view.
            let cached = state
                .view_cache
                .as_ref()
                .filter(|(k, _)| {
                    k.0 == runs && k.1.as_ref() == runner && k.2 == notes && k.3 == held
                })
                .map(|(_, v)| v.clone());
            let v = match cached {
                Some(v) => v,
                None => {
                    let key: ViewKey = (runs, runner.cloned(), notes, held);
                    let v = Arc::new(view(state, &key));
                    state.view_cache = Some((key, v.clone()));
                    v
                }
            };
            views.push(v);
        }

        let source_index = if std::mem::take(&mut self.membership_changed) || first {
            Arc::new(views.iter().enumerate().map(|(i, v)| (v.id.clone(), i)).collect())
        } else {
            previous.source_index.clone()
        };

        let protected = if std::mem::take(&mut self.protected_dirty) || first || roots_changed {
            let slots = &self.slots;
            let sources = self.order.iter().filter_map(|&slot| {
                let state = slots.get(slot).and_then(Option::as_ref)?;
                Some(Guarded {
                    id: &state.id,
                    paths: &state.compiled.protected,
                    patterns: &state.compiled.patterns,
                    late_paths: &state.late_protected,
                    late_patterns: &state.late_patterns,
                    found: &state.found,
                })
            });
            let expected = self.expected.places();
            Arc::new(build::protected_paths(sources, expected))
        } else {
            previous.protected.clone()
        };

        if std::mem::take(&mut self.pin_unsettled)
            && let Some(pinned) = &mut self.pinned
        {
            pinned.revision = self.revision;
        }
        self.generation = self.generation.next();
        crate::trace::published(crate::trace::Published {
            generation: self.generation,
            revision: self.revision,
            previous: previous.revision,
            sources: views.len(),
            first,
            bindings: bindings_changed,
            roots: roots_changed,
            policy: policy_changed,
            pinned: self.pinned.is_some(),
        });
        let snapshot = RegistrySnapshot {
            revision: self.revision,
            generation: self.generation,
            bindings,
            protected,
            sources: views,
            source_index,
            registry_diagnostics: self.registry_diagnostics.clone(),
            pinned: self.pinned,
            run_settings: self.run_settings.clone(),
            protection_skipped: !self.protection,
        };
        self.current.store(Arc::new(snapshot));
        self.revision
    }

    /// The binding index of the sources `runs` marks as running (one entry per slot of
    /// `order`), built by the pure [`build::binding_index`].
    fn build_index(&self, runs: &[(bool, Option<usize>)]) -> BindingIndex {
        let slots = &self.slots;
        let running =
            self.order.iter().zip(runs).filter(|(_, (can, _))| *can).filter_map(|(&slot, _)| {
                let state = slots.get(slot).and_then(Option::as_ref)?;
                Some(Running {
                    key: (state.id.kind.priority(), state.seq),
                    subject: state.compiled.subject,
                    places: &state.compiled.placements,
                })
            });
        build::binding_index(running, &self.policy, &self.root_keys)
    }
}

/// Something changed at `state`'s places (a load, a removal, a path it was found at): the
/// expected files there are resolved again at the next protected set (under each of its
/// roots for a project source, outside every project otherwise).
fn changed_at_places_of(expected: &mut ExpectedCache, state: &SourceState) {
    if state.id.kind.is_project() {
        for root in &state.roots {
            expected.changed_at(Some(root));
        }
    } else {
        expected.changed_at(None);
    }
}

fn path_key(path: &std::path::Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.as_os_str().hash(&mut h);
    h.finish()
}

fn trust_change_warning(trust: &TrustDecision) -> HookDiagnostic {
    let now = if trust.is_active() { "active" } else { "inert" };
    HookDiagnostic::warning(format!(
        "trust changed after the run started (now {now}: {}); it applies at the next run start",
        trust.reason()
    ))
    .with_code("changed_after_pin")
}

/// Records a change to a source that was pinned; nothing that runs changes.
fn note_frozen_change(
    state: &mut SourceState,
    parsed: ParseResult,
    project_root: Option<&AbsPathBuf>,
    trust: Option<&TrustDecision>,
) {
    match parsed {
        Ok(p) => {
            let accepted = accept(&state.id, p);
            let same = state.load.accepted().is_some_and(|a| a.definitions == accepted.definitions);
            let mut roots = state.roots.clone();
            if state.id.kind.is_project()
                && let Some(r) = project_root
            {
                roots.insert(r.clone());
            }
            let compiled = compile(
                &state.id,
                Some(&accepted),
                &roots,
                state.project_dir.as_ref(),
                &state.user_paths,
                state.protection,
                None,
            );
            state.late_protected = compiled.protected.to_vec();
            state.late_patterns = compiled.patterns;
            if !same {
                state.note_after_pin(
                    HookDiagnostic::warning(
                        "hook file changed after the run started; the change applies at the next run start",
                    )
                    .with_code("changed_after_pin"),
                );
            }
        }
        Err(diagnostics) => {
            let first = diagnostics
                .iter()
                .find(|d| d.is_error())
                .or(diagnostics.first())
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "the file could not be loaded".to_owned());
            state.note_after_pin(
                HookDiagnostic::warning(format!(
                    "hook file failed to load after the run started ({first}); the configuration pinned at run start stays in effect"
                ))
                .with_code("changed_after_pin"),
            );
        }
    }
    if let Some(trust) = trust
        && *trust != state.trust
    {
        state.note_after_pin(trust_change_warning(trust));
    }
    if let Some(root) = project_root
        && state.id.kind.is_project()
        && !state.roots.contains(root)
    {
        state.note_after_pin(HookDiagnostic::warning(format!(
            "hook file found under project root {root} after the run started; it applies there from the next run start"
        )));
    }
}

/// Takes a parse in: every definition the adapter accepted, with any timeout (the engine
/// has no ceiling: a hook the agent would run is never dropped for its timeout), and the
/// diagnostics located in the file.
fn accept(id: &HookSourceId, parsed: ParsedSource) -> Accepted {
    let ParsedSource { definitions, diagnostics, settings, policy } = parsed;
    // Sized to what they hold: a `collect` from the parser's vectors would reuse their
    // buffers in place, and a source would keep room for four definitions (1.4 KiB) to hold
    // one pointer.
    let mut accepted = Vec::with_capacity(definitions.len());
    accepted.extend(definitions.into_iter().map(Arc::new));
    let mut diagnostics: Vec<HookDiagnostic> =
        diagnostics.into_iter().map(|d| locate(d, id)).collect();
    diagnostics.shrink_to_fit();
    Accepted { definitions: accepted, diagnostics, settings: Arc::new(settings), policy }
}

/// One more hold on `root`; `true` when the root is new.
fn hold(
    holds: &mut BTreeMap<AbsPathBuf, usize>,
    moved: &mut Vec<AbsPathBuf>,
    root: &AbsPathBuf,
) -> bool {
    match holds.get_mut(root) {
        Some(n) => {
            *n += 1;
            false
        }
        None => {
            holds.insert(root.clone(), 1);
            moved.push(root.clone());
            true
        }
    }
}

/// One hold less on `root`; `true` when that was its last.
fn release(
    holds: &mut BTreeMap<AbsPathBuf, usize>,
    moved: &mut Vec<AbsPathBuf>,
    root: &AbsPathBuf,
) -> bool {
    let Some(n) = holds.get_mut(root) else { return false };
    *n = n.saturating_sub(1);
    if *n > 0 {
        return false;
    }
    holds.remove(root);
    moved.push(root.clone());
    true
}

/// How many roots coming or going at one publish the root keys follow one by one; more are
/// numbered afresh.
const FEW_ROOTS: usize = 16;

fn locate(d: HookDiagnostic, id: &HookSourceId) -> HookDiagnostic {
    if d.source.is_some() { d } else { d.in_file(id.path.as_path()) }
}

fn failure_diagnostics(
    id: &HookSourceId,
    diagnostics: Vec<HookDiagnostic>,
    keeps_previous: bool,
) -> Vec<HookDiagnostic> {
    let mut out: Vec<HookDiagnostic> = diagnostics.into_iter().map(|d| locate(d, id)).collect();
    let summary = if keeps_previous {
        "the hook file did not load; the previous configuration stays in effect"
    } else {
        "the hook file did not load; no configuration from it is in effect"
    };
    out.push(HookDiagnostic::error(summary).in_file(id.path.as_path()).with_code("load_failed"));
    out
}

/// Places a parse: under each root for a project file, in the file's folder otherwise, and
/// resolves the protected paths. A definition that `previous` (the source's last compile)
/// holds unchanged keeps its command's analysis; every path is resolved again.
fn compile(
    id: &HookSourceId,
    accepted: Option<&Accepted>,
    roots: &BTreeSet<AbsPathBuf>,
    project_dir: Option<&AbsPathBuf>,
    user_paths: &UserPaths,
    protection: bool,
    previous: Option<&Compiled>,
) -> Compiled {
    let analysed: Vec<(Arc<HookDefinition>, Arc<Analysed>)> = accepted
        .map(|a| {
            a.definitions
                .iter()
                .enumerate()
                .map(|(index, def)| {
                    let kept = previous
                        .and_then(|p| p.analysed.get(index))
                        .filter(|(before, _)| Arc::ptr_eq(before, def) || **before == **def)
                        .map(|(_, analysed)| analysed.clone());
                    (def.clone(), kept.unwrap_or_else(|| Arc::new(Analysed::of(def))))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut placement_error = None;
    // `(place, project directory, working directory)`: a project file is bound at each of its
    // roots and placed there, or at its own project folder.
    let dirs: Vec<(Option<AbsPathBuf>, Option<AbsPathBuf>, AbsPathBuf)> = if id.kind.is_project() {
        if roots.is_empty() {
            placement_error = Some(
                HookDiagnostic::error(
                    "a project hook file needs the project root it was found under; its hooks are not activated",
                )
                .in_file(id.path.as_path())
                .with_code("no_working_directory"),
            );
        }
        roots
            .iter()
            .map(|r| {
                let dir = project_dir.unwrap_or(r);
                (Some(r.clone()), Some(dir.clone()), dir.clone())
            })
            .collect()
    } else {
        match id.path.parent() {
            Some(dir) => vec![(None, None, dir)],
            None => {
                placement_error = Some(
                    HookDiagnostic::error(
                        "the hook source has no directory to run in; its hooks are not activated",
                    )
                    .in_file(id.path.as_path())
                    .with_code("no_working_directory"),
                );
                Vec::new()
            }
        }
    };
    let subject = Subject::of(
        id,
        accepted.into_iter().flat_map(|a| a.definitions.iter().map(|d| d.wire_format())),
    );
    let mut protected = vec![ProtectedPath {
        path: id.path.clone(),
        source: id.clone(),
        what: ProtectedKind::File,
    }];
    let mut patterns: Vec<ProtectedPattern> = Vec::new();
    // What `protected` and `patterns` hold, to keep each once without comparing every pair
    // (a hook whose programs look above the project names hundreds, finding F53).
    let mut protected_seen: std::collections::HashSet<AbsPathBuf> =
        std::iter::once(id.path.clone()).collect();
    let mut patterns_seen: std::collections::HashSet<ProtectedPattern> =
        std::collections::HashSet::new();
    let mut uncertain: Vec<(usize, Vec<String>)> = Vec::new();
    let mut relocated: Vec<usize> = Vec::new();
    let mut placements = Vec::with_capacity(dirs.len());
    // The scripts of one file lie under the same few folders: each is resolved once.
    let mut resolver = Resolver::default();
    for (place, project_root, working_dir) in dirs {
        let mut bindings = Vec::new();
        if accepted.is_some() {
            for (index, (def, analysis)) in analysed.iter().enumerate() {
                let placed = Placed {
                    working_dir: &working_dir,
                    project_root: project_root.as_ref(),
                    home: user_paths.home.as_ref(),
                    config_dir: user_paths.config_dir.as_ref(),
                    program_path: &user_paths.program_path,
                    ssh_home: user_paths.ssh_home.as_ref(),
                    session_dirs: &user_paths.session_dirs,
                    typescript_configs: &user_paths.typescript_configs,
                    python_path: &user_paths.python_path,
                    node_path: &user_paths.node_path,
                    ruby_lib: &user_paths.ruby_lib,
                    perl_lib: &user_paths.perl_lib,
                    run_relative: &user_paths.run_relative,
                };
                let protect = |analysis: &Analysed, resolver: &mut Resolver| {
                    if protection {
                        protect_definition(analysis, placed, resolver)
                    } else {
                        crate::protect::unprotected(analysis)
                    }
                };
                let mut found = protect(analysis, &mut resolver);
                let mut def = def.clone();
                if project_root.is_none() && found.session_relative {
                    // A hook of the user's (or any source outside a project) that names a
                    // script relative to the session's directory would run a repository's
                    // copy: the engine runs it in its own folder instead (specs/guard.md).
                    // The agent runs its own hooks where it runs them, in the session's
                    // directory (Codex its user's `hooks.json`, every agent its plugins'):
                    // the session's copy stays protected beside the engine's (finding F43).
                    let mut pinned = (*def).clone();
                    pinned.cwd = Some(working_dir.as_path().display().to_string());
                    def = Arc::new(pinned);
                    let session_copy = found;
                    found = protect(&Analysed::of(&def), &mut resolver);
                    found.paths.extend(session_copy.paths);
                    found.patterns.extend(session_copy.patterns);
                    found.stems.extend(session_copy.stems);
                    if !relocated.contains(&index) {
                        relocated.push(index);
                    }
                }
                for path in found.paths {
                    if protected_seen.insert(path.clone()) {
                        protected.push(ProtectedPath {
                            path,
                            source: id.clone(),
                            what: ProtectedKind::Script,
                        });
                    }
                }
                // (scope, tail, session copy, nested, a module's forms)
                let by_place = found.patterns.into_iter().map(|(s, t, c)| (s, t, c, false, false));
                let stems = found.stems.into_iter().map(|(s, t, n)| (s, t, None, n, true));
                for (scope, tail, session, nested, stem) in by_place.chain(stems) {
                    let pattern = ProtectedPattern {
                        scope,
                        tail,
                        session,
                        source: id.clone(),
                        what: ProtectedKind::Script,
                        nested,
                        nested_file: false,
                        stem,
                    };
                    if patterns_seen.insert(pattern.clone()) {
                        patterns.push(pattern);
                    }
                }
                if !found.uncertain.is_empty() && !uncertain.iter().any(|(i, _)| *i == index) {
                    uncertain.push((index, found.uncertain));
                }
                if def.enabled {
                    bindings.push(Binding {
                        source: id.clone(),
                        definition: def.clone(),
                        working_dir: working_dir.clone(),
                        project_root: project_root.clone(),
                    });
                }
            }
        }
        placements.push(PlacedBindings {
            project_root: place,
            working_dir,
            bindings: Arc::from(bindings),
        });
    }
    let relocated_notes: Vec<HookDiagnostic> = accepted
        .map(|a| {
            relocated
                .iter()
                .filter_map(|&index| {
                    let def = a.definitions.get(index)?;
                    let dir = id.path.parent().map(|p| p.to_string()).unwrap_or_default();
                    let mut d = HookDiagnostic::info(format!(
                        "hook `{}` names a script relative to the directory it runs in; as a hook outside every project the engine runs it in {dir}, not in the session's directory, so the engine never runs a repository's copy; the agent that reads this file runs it in the session's directory, and the guard keeps that copy out of the agent's reach too",
                        def.id
                    ))
                    .in_file(id.path.as_path())
                    .for_hook(def.id.as_str())
                    .with_code("relative_script_pinned");
                    if let Some(line) = def.line {
                        d = d.at(line, def.column.unwrap_or(1));
                    }
                    Some(d)
                })
                .collect()
        })
        .unwrap_or_default();
    let analysis: Vec<HookDiagnostic> = accepted
        .map(|a| {
            uncertain
                .into_iter()
                .filter_map(|(index, why)| {
                    let def = a.definitions.get(index)?;
                    let mut d = HookDiagnostic::warning(format!(
                        "the guard cannot tell every file hook `{}` runs or reads ({}); it protects more instead: the folders and names it can read, under any folder",
                        def.id,
                        why.join("; ")
                    ))
                    .in_file(id.path.as_path())
                    .for_hook(def.id.as_str())
                    .with_code("command_not_analysed");
                    if let Some(line) = def.line {
                        d = d.at(line, def.column.unwrap_or(1));
                    }
                    Some(d)
                })
                .collect()
        })
        .unwrap_or_default();
    let analysis = analysis.into_iter().chain(relocated_notes).collect();
    Compiled {
        placements,
        protected: Arc::from(protected),
        patterns,
        analysis,
        placement_error,
        subject,
        analysed,
    }
}

/// The info line of a source whose file runs as another, higher-precedence source.
fn also_loaded_as(runner: &HookSourceId) -> HookDiagnostic {
    match runner.kind.owner() {
        SourceOwner::Explicit => HookDiagnostic::info(format!(
            "this file is also delivered with the run as {runner}; it runs once, as the explicit source"
        ))
        .with_code("also_explicit"),
        SourceOwner::Managed => HookDiagnostic::info(format!(
            "this file is also a managed hook file ({runner}); it runs once, as the managed source"
        ))
        .with_code("also_managed"),
        SourceOwner::User | SourceOwner::Project => HookDiagnostic::info(format!(
            "this file is also the user's own hook file ({runner}); it runs once, as the user source"
        ))
        .with_code("also_user"),
    }
}

/// The info line of an inert source: its policy reason, prefixed with `inert: ` unless the
/// reason already says so (the static trust table's reasons do).
fn inert_message(reason: &str) -> String {
    if reason.starts_with("inert:") { reason.to_owned() } else { format!("inert: {reason}") }
}

/// Why the source policy's switches turn a running source off, where they do, and whether
/// that is everywhere it applies.
///
/// A source switched off in every place it applies gets one note naming the setting (and
/// file) that decided, when one decided everywhere; otherwise each place gets its own note
/// (`outside project roots: …`, `under project root <root>: …`).
fn policy_notes(
    state: &SourceState,
    policy: &PolicyTable,
    root_keys: &RootKeys,
) -> (Vec<String>, bool) {
    let subject = state.compiled.subject;
    if subject.format.is_none() {
        return (Vec::new(), false);
    }
    // The places the source applies: its roots for a project source; outside every project
    // and under every root otherwise.
    let mut places: Vec<(Option<&AbsPathBuf>, Option<usize>)> = Vec::new();
    if state.id.kind.is_project() {
        for root in &state.roots {
            if let Some(i) = root_keys.index(root) {
                places.push((Some(root), Some(i)));
            }
        }
    } else {
        places.push((None, None));
        places.extend(root_keys.list.iter().enumerate().map(|(i, root)| (Some(root), Some(i))));
    }
    let off: Vec<(Option<&AbsPathBuf>, &policy::Reason)> = places
        .iter()
        .filter_map(|&(root, i)| policy.at(i).removes(subject).map(|r| (root, r)))
        .collect();
    let named = named_notes(state, policy, &places);
    if off.is_empty() {
        return (named, false);
    }
    let everywhere = off.len() == places.len();
    let one_reason = off.windows(2).all(|w| match w {
        [a, b] => a.1 == b.1,
        _ => true,
    });
    if everywhere && one_reason {
        let reason = off.first().map(|(_, r)| r.text()).unwrap_or_default();
        return (vec![reason], true);
    }
    let mut notes: Vec<String> = off.iter().map(|(root, r)| at_place(*root, &r.text())).collect();
    notes.extend(named);
    (notes, everywhere)
}

/// `text` prefixed with the place it holds in (`None`: outside every project).
fn at_place(root: Option<&AbsPathBuf>, text: &str) -> String {
    match root {
        Some(root) => format!("under project root {root}: {text}"),
        None => format!("outside project roots: {text}"),
    }
}

/// One note per hook of the source that files of its format switch off by name
/// ([`hooks_schema::SourcePolicy::disables`]) in the places it applies and is not switched
/// off as a whole: without a place when it is off by the same file in all of them.
fn named_notes(
    state: &SourceState,
    policy: &PolicyTable,
    places: &[(Option<&AbsPathBuf>, Option<usize>)],
) -> Vec<String> {
    let subject = state.compiled.subject;
    let mut notes = Vec::new();
    for (def, _) in state.compiled.analysed.iter().filter(|(d, _)| d.enabled) {
        let off: Vec<(Option<&AbsPathBuf>, Option<&policy::Reason>)> = places
            .iter()
            .filter(|&&(_, i)| policy.at(i).removes(subject).is_none())
            .map(|&(root, i)| (root, policy.at(i).disables(subject, def)))
            .collect();
        if off.iter().all(|(_, r)| r.is_none()) {
            continue;
        }
        let name = def.codec.disable_name(def).unwrap_or_default();
        let line = def.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        let text = |r: &policy::Reason| format!("hook `{name}`{line} does not run: {}", r.text());
        let first = off.first().and_then(|(_, r)| *r);
        if off.len() == places.len() && off.iter().all(|(_, r)| *r == first) {
            notes.extend(first.map(text));
            continue;
        }
        notes.extend(off.iter().filter_map(|(root, r)| r.map(|r| at_place(*root, &text(r)))));
    }
    notes
}

fn view(state: &SourceState, key: &ViewKey) -> SourceView {
    let (runs, suppressed_by, notes, held_back_by) = key;
    let (runs, suppressed_by) = (*runs, suppressed_by.as_ref());
    let accepted = state.load.accepted();
    let trust = state.effective_trust();
    let mut diagnostics = Vec::new();
    if let Some(a) = accepted {
        diagnostics.extend(a.diagnostics.iter().cloned());
    }
    match &state.load {
        LoadState::Stale { failure, .. } | LoadState::Failed(failure) => {
            diagnostics.extend(failure.iter().cloned());
        }
        LoadState::NeverLoaded | LoadState::Loaded(_) => {}
    }
    if let Some(e) = &state.compiled.placement_error {
        diagnostics.push(e.clone());
    }
    diagnostics.extend(state.compiled.analysis.iter().cloned());
    if let Some(runner) = suppressed_by {
        diagnostics.push(also_loaded_as(runner).in_file(state.id.path.as_path()));
    } else if !state.late && !trust.is_active() {
        diagnostics.push(
            HookDiagnostic::info(inert_message(trust.reason()))
                .in_file(state.id.path.as_path())
                .with_code("inert"),
        );
    }
    if let Some(key) = held_back_by
        && !state.late
    {
        diagnostics.push(
            HookDiagnostic::info(format!(
                "held back: this file needs the user's own opt-in `{key}`, which is off; none of its hooks runs and its settings do not apply"
            ))
            .in_file(state.id.path.as_path())
            .with_code("opt_in_off"),
        );
    }
    for note in notes {
        diagnostics.push(
            HookDiagnostic::info(note.clone())
                .in_file(state.id.path.as_path())
                .with_code("hooks_disabled"),
        );
    }
    if state.id.kind.owner() != SourceOwner::Managed
        && state.compiled.subject.format.is_some()
        && let Some(switch) = accepted.and_then(|a| a.policy.switch(SwitchRule::ManagedOnly))
    {
        diagnostics.push(
            HookDiagnostic::warning(format!(
                "`{}` is honoured only in managed settings; it is ignored in this file",
                switch.key
            ))
            .in_file(state.id.path.as_path())
            .with_code("managed_only_setting"),
        );
    }
    diagnostics.extend(state.after_pin.iter().cloned());
    // A view lives as long as its snapshot: no spare room for diagnostics.
    diagnostics.shrink_to_fit();
    SourceView {
        id: state.id.clone(),
        load_state: state.load.kind(),
        trust,
        runs,
        roots: state.roots.iter().cloned().collect(),
        working_dirs: state.compiled.placements.iter().map(|p| p.working_dir.clone()).collect(),
        definitions: accepted.map(|a| a.definitions.clone()).unwrap_or_default(),
        settings: accepted.map(|a| a.settings.clone()).unwrap_or_default(),
        present_at_pin: state.present_at_pin,
        held_back_by: *held_back_by,
        diagnostics,
    }
}

#[cfg(test)]
mod state_machine;
#[cfg(test)]
mod tests;
