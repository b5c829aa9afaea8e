//! The immutable snapshot readers see: bindings indexed by project root, protected paths,
//! per-source views and diagnostics.

use std::{
    collections::HashMap,
    ffi::OsStr,
    path::Path,
    sync::{Arc, OnceLock},
};

use hooks_schema::{
    AbsPathBuf, Binding, Generation, HookDefinition, HookDiagnostic, HookSourceId, Revision,
    TrustDecision,
};
use hooks_trust::CommandExecutionPosture;
use serde_json::{Map, Value};

use crate::{
    paths::{PathHashing, canonicalize, clean_cow, is_normal, normalize_absolute},
    policy::{PolicyTable, RunSettingsIndex},
    protect::{ProtectedPath, ProtectedPaths},
};

/// The run's pin: the posture read when the run started and the revision then in effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinnedRun {
    /// The posture read once, at pin time.
    pub posture: CommandExecutionPosture,
    /// The revision pinned.
    pub revision: Revision,
}

/// What applies at one working directory (see [`RegistrySnapshot::scope_for`]).
#[derive(Debug, Clone, Default)]
pub struct CwdScope {
    /// The bindings that apply, in precedence order (shared: every lookup at the same place
    /// in the same snapshot gets the same list).
    pub bindings: Arc<[Binding]>,
    /// The deepest known project root containing the working directory, if any.
    pub project_root: Option<AbsPathBuf>,
}

/// Where a source's load stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoadStateKind {
    /// Known (a root was announced for it) but never read.
    NeverLoaded,
    /// The last read parsed.
    Loaded,
    /// The last read failed; the last valid parse stays in effect.
    Stale,
    /// Every read so far failed; nothing is in effect.
    Failed,
}

impl LoadStateKind {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            LoadStateKind::NeverLoaded => "never_loaded",
            LoadStateKind::Loaded => "loaded",
            LoadStateKind::Stale => "stale",
            LoadStateKind::Failed => "failed",
        }
    }
}

/// One source as `hooks list` shows it.
#[derive(Debug, Clone)]
pub struct SourceView {
    /// The source.
    pub id: HookSourceId,
    /// Its load state.
    pub load_state: LoadStateKind,
    /// The trust decision in effect (a source found after pinning is inert whatever it was
    /// given).
    pub trust: TrustDecision,
    /// Whether its definitions contribute bindings.
    pub runs: bool,
    /// The project roots it applies under (project kinds only).
    pub roots: Vec<AbsPathBuf>,
    /// The directories its hooks run in (one per root for a project file, the file's folder
    /// otherwise).
    pub working_dirs: Vec<AbsPathBuf>,
    /// Every accepted definition, enabled or not, of the parse in effect.
    pub definitions: Vec<Arc<HookDefinition>>,
    /// File-level settings of the parse in effect.
    pub settings: Arc<Map<String, Value>>,
    /// Whether it was known when the run was pinned.
    pub present_at_pin: bool,
    /// The opt-in key it requires and that is off (`SourcePolicy::requires`, Chrys's
    /// `project.hooks_enabled` for a project Chrys file): then none of its hooks binds and its
    /// run settings count nowhere, whatever its trust. `None` when it requires none or the
    /// user turned it on.
    pub held_back_by: Option<&'static str>,
    /// Its diagnostics: parse and activation warnings, rejected definitions, an info line
    /// when inert, the latest load failure, and changes seen after pinning.
    pub diagnostics: Vec<HookDiagnostic>,
}

/// A run of bindings from one source, with the key that orders it.
#[derive(Debug, Clone)]
pub(crate) struct Contribution {
    /// `(kind priority, source sequence number)`.
    pub(crate) key: (u32, u64),
    pub(crate) bindings: Arc<[Binding]>,
}

/// The known project roots: sorted, and indexed by their clean spelling.
///
/// Each root has an id that stays the same while the root is known (a source caches the
/// ids of its roots, [`RootKeys::id`]); the index maps a spelling to the id and the id to
/// the root's position in the sorted list. A change of a few roots makes the next keys from
/// the previous ones ([`RootKeys::with_changes`]): the spellings are shared, only the changed
/// roots are cleaned and hashed, and the positions are renumbered as integers.
#[derive(Debug, Default, Clone)]
pub(crate) struct RootKeys {
    map: HashMap<Arc<OsStr>, u32, PathHashing>,
    pub(crate) list: Vec<AbsPathBuf>,
    /// The id of the root at each position of `list`.
    ids: Vec<u32>,
    /// Each id's position in `list` (`u32::MAX` for an id no root has).
    positions: Vec<u32>,
    /// Ids no root has, for reuse.
    free: Vec<u32>,
    /// How many roots' spellings making these keys cleaned and hashed (for tests).
    #[cfg(test)]
    pub(crate) keyed: usize,
}

impl RootKeys {
    /// Keys for `roots` (sorted, no duplicate), numbered in order.
    pub(crate) fn new(roots: impl IntoIterator<Item = AbsPathBuf>) -> RootKeys {
        let list: Vec<AbsPathBuf> = roots.into_iter().collect();
        let map = (0u32..).zip(&list).map(|(i, r)| (key(r), i)).collect();
        let ids: Vec<u32> = (0u32..).take(list.len()).collect();
        RootKeys {
            map,
            positions: ids.clone(),
            #[cfg(test)]
            keyed: list.len(),
            ids,
            list,
            free: Vec::new(),
        }
    }

    /// The keys after `added` roots came (none of them known) and `removed` ones went (all
    /// known): the other roots keep their ids.
    pub(crate) fn with_changes(&self, added: &[AbsPathBuf], removed: &[AbsPathBuf]) -> RootKeys {
        let mut next = self.clone();
        let mut ids = next.positions.len() as u32;
        for root in removed {
            let Some(id) = next.map.remove(clean_cow(root.as_path()).as_os_str()) else { continue };
            if let Ok(at) = next.list.binary_search(root) {
                next.list.remove(at);
                next.ids.remove(at);
            }
            next.free.push(id);
        }
        for root in added {
            let key = key(root);
            if next.map.contains_key(&key) {
                continue;
            }
            let id = next.free.pop().unwrap_or_else(|| {
                ids += 1;
                ids - 1
            });
            next.map.insert(key, id);
            let at = next.list.binary_search(root).unwrap_or_else(|at| at);
            next.list.insert(at, root.clone());
            next.ids.insert(at, id);
        }
        #[cfg(test)]
        {
            next.keyed = added.len() + removed.len();
        }
        next.positions = vec![u32::MAX; ids as usize];
        for (at, &id) in next.ids.iter().enumerate() {
            if let Some(p) = next.positions.get_mut(id as usize) {
                *p = at as u32;
            }
        }
        next
    }

    /// The id of `root`, looked up by its clean spelling.
    pub(crate) fn id(&self, root: &AbsPathBuf) -> Option<u32> {
        self.map.get(clean_cow(root.as_path()).as_os_str()).copied()
    }

    /// The position in `list` of the root with id `id`.
    pub(crate) fn position(&self, id: u32) -> Option<usize> {
        self.positions.get(id as usize).filter(|&&p| p != u32::MAX).map(|&p| p as usize)
    }

    /// The position of `root` in `list`, looked up by its clean spelling.
    pub(crate) fn index(&self, root: &AbsPathBuf) -> Option<usize> {
        self.id(root).and_then(|id| self.position(id))
    }

    /// The position of the root spelled `clean` exactly, if it is one.
    fn index_of_clean(&self, clean: &OsStr) -> Option<usize> {
        self.map.get(clean).and_then(|&id| self.position(id))
    }

    /// Whether no root is known.
    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// The clean spelling of `root`, as [`RootKeys`] indexes it.
fn key(root: &AbsPathBuf) -> Arc<OsStr> {
    Arc::from(clean_cow(root.as_path()).as_os_str())
}

/// The runnable bindings, indexed by project root; rebuilt only when the revision moves.
///
/// What a lookup hands out is merged once per place and then shared: the first lookup under
/// a root with project bindings of its own merges them with the global ones and keeps the
/// list; every other place (outside every project, or under a root without bindings of its
/// own) shares the list of its policy variant. So a lookup costs the root search and one
/// reference count, whatever the number of bindings, and the lists kept grow only with the
/// places looked up (`specs/registry.md`, "Lookups").
#[derive(Debug, Default)]
pub(crate) struct BindingIndex {
    /// Bindings that apply everywhere, in precedence order, once per variant of the source
    /// policy's cuts ([`PolicyTable::variants`]): what is left of them where that variant
    /// applies.
    pub(crate) global: Vec<Vec<Contribution>>,
    /// Bindings that apply everywhere and run in at least one place.
    pub(crate) anywhere: Vec<Contribution>,
    /// The source policy's cuts outside every project and under each root.
    pub(crate) policy: Arc<PolicyTable>,
    /// The known roots.
    pub(crate) roots: Arc<RootKeys>,
    /// Each root's project bindings, by the root's position in `roots.list`, with the
    /// root's policy applied.
    pub(crate) scoped: Vec<Vec<Contribution>>,
    /// The merged list under each root that has project bindings, by position, once looked
    /// up.
    merged_at_root: Box<[OnceLock<Arc<[Binding]>>]>,
    /// The merged list of each policy variant's global bindings, once looked up.
    merged_at_variant: Box<[OnceLock<Arc<[Binding]>>]>,
}

impl BindingIndex {
    /// An index of these parts, with no list merged yet.
    pub(crate) fn new(
        global: Vec<Vec<Contribution>>,
        anywhere: Vec<Contribution>,
        policy: Arc<PolicyTable>,
        roots: Arc<RootKeys>,
        scoped: Vec<Vec<Contribution>>,
    ) -> BindingIndex {
        let merged_at_root = scoped.iter().map(|_| OnceLock::new()).collect();
        let merged_at_variant = (0..global.len().max(1)).map(|_| OnceLock::new()).collect();
        BindingIndex { global, anywhere, policy, roots, scoped, merged_at_root, merged_at_variant }
    }

    /// The bindings that apply under the root at position `root` (or outside every project),
    /// merged on the first lookup of the place and shared after.
    pub(crate) fn merged_at(&self, root: Option<usize>) -> Arc<[Binding]> {
        let scoped: &[Contribution] =
            root.and_then(|i| self.scoped.get(i)).map_or(&[], Vec::as_slice);
        let cell = match root {
            Some(i) if !scoped.is_empty() => self.merged_at_root.get(i),
            Some(_) | None => self.merged_at_variant.get(self.policy.variant_at(root)),
        };
        let merged = || Arc::from(merge(self.global_at(root), scoped));
        match cell {
            Some(cell) => cell.get_or_init(merged).clone(),
            None => merged(),
        }
    }

    /// How many places have a merged list kept (for tests).
    #[cfg(test)]
    pub(crate) fn merged_places(&self) -> usize {
        self.merged_at_root
            .iter()
            .chain(&self.merged_at_variant)
            .filter(|c| c.get().is_some())
            .count()
    }

    /// The global contributions that apply under the root at `root` (or outside every
    /// project).
    pub(crate) fn global_at(&self, root: Option<usize>) -> &[Contribution] {
        self.global.get(self.policy.variant_at(root)).map_or(&[], Vec::as_slice)
    }
}

/// An immutable view of the registry at one generation.
#[derive(Debug, Default)]
pub struct RegistrySnapshot {
    pub(crate) revision: Revision,
    pub(crate) generation: Generation,
    pub(crate) bindings: Arc<BindingIndex>,
    pub(crate) protected: Arc<ProtectedPaths>,
    pub(crate) sources: Vec<Arc<SourceView>>,
    pub(crate) source_index: Arc<HashMap<HookSourceId, usize>>,
    pub(crate) registry_diagnostics: Vec<HookDiagnostic>,
    pub(crate) pinned: Option<PinnedRun>,
    pub(crate) run_settings: Arc<RunSettingsIndex>,
    /// `HookRegistry::set_protection` was off when it was published.
    pub(crate) protection_skipped: bool,
}

impl RegistrySnapshot {
    /// Moves when the runnable bindings or the project roots change.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Moves on every published snapshot.
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// The run's pin, once pinned.
    pub fn pinned(&self) -> Option<PinnedRun> {
        self.pinned
    }

    /// Each format's run settings per place (Chrys's `settings:`), merged per field across
    /// the format's sources that run there, the highest-precedence source that sets a field
    /// winning; the dispatcher applies them to the format's hooks.
    pub fn run_settings(&self) -> &RunSettingsIndex {
        &self.run_settings
    }

    /// Whether no binding can run anywhere.
    pub fn is_empty(&self) -> bool {
        self.bindings.anywhere.is_empty() && self.bindings.scoped.iter().all(Vec::is_empty)
    }

    /// The bindings that apply in `cwd`, in precedence order.
    ///
    /// `cwd` is canonicalized when it exists (roots are canonical) and normalized lexically
    /// otherwise; a relative `cwd` belongs to no project. Explicit, managed and user
    /// bindings apply everywhere; a project's bindings apply when its root is the deepest
    /// known root containing `cwd`.
    ///
    /// The list is shared: lookups at places under the same root (or under no root with the
    /// same source policy) in one snapshot get the same list, merged on the first of them.
    pub fn bindings_for(&self, cwd: &Path) -> Arc<[Binding]> {
        self.scope_for(cwd).bindings
    }

    /// The bindings that apply in `cwd` and the project root they are scoped to, from one
    /// resolution of `cwd` (see [`RegistrySnapshot::bindings_for`]): the root is the deepest
    /// known root containing the resolved `cwd`, so a symlinked working directory finds the
    /// same root for both.
    ///
    /// A snapshot that knows no project root resolves nothing: every working directory is
    /// then outside every project, so the answer cannot depend on where `cwd` leads (a fire
    /// of an embedder or of `hooks serve` with explicit, user or managed files only touches
    /// no file system here).
    pub fn scope_for(&self, cwd: &Path) -> CwdScope {
        if self.bindings.roots.is_empty() {
            return CwdScope { bindings: self.bindings_at(None), project_root: None };
        }
        let resolved = canonicalize(cwd).ok().or_else(|| normalize_absolute(cwd));
        let cwd = resolved.as_ref().map_or(Path::new(""), AbsPathBuf::as_path);
        let root = self.nearest_root(cwd);
        CwdScope {
            bindings: self.bindings_at(root),
            project_root: root.and_then(|i| self.bindings.roots.list.get(i)).cloned(),
        }
    }

    /// [`RegistrySnapshot::bindings_for`] for a working directory the caller already
    /// canonicalized: no file system access.
    pub fn bindings_for_canonical(&self, cwd: &Path) -> Arc<[Binding]> {
        self.bindings_at(self.nearest_root(cwd))
    }

    /// The bindings that apply under the root at position `root` (or outside every project):
    /// the global ones left by that place's policy merged with the root's own.
    fn bindings_at(&self, root: Option<usize>) -> Arc<[Binding]> {
        self.bindings.merged_at(root)
    }

    /// The deepest known project root containing `cwd` (canonical), if any.
    pub fn project_root_for(&self, cwd: &Path) -> Option<&AbsPathBuf> {
        self.nearest_root(cwd).and_then(|i| self.bindings.roots.list.get(i))
    }

    /// The position of the deepest known root containing `cwd`: one hash lookup per
    /// ancestor, so the cost grows with the path's depth, not the number of roots.
    fn nearest_root(&self, cwd: &Path) -> Option<usize> {
        let roots = &self.bindings.roots;
        if !cwd.is_absolute() || roots.is_empty() {
            return None;
        }
        #[cfg(unix)]
        if is_normal(cwd) {
            // A working directory spelled as `canonicalize` gives it (the usual case): its
            // ancestors are the prefixes of its bytes before each separator, which spares
            // `Path::parent`'s parse of the components at every step.
            use std::os::unix::ffi::OsStrExt;
            let bytes = cwd.as_os_str().as_bytes();
            let mut end = bytes.len();
            loop {
                let ancestor = bytes.get(..end.max(1))?;
                if let Some(i) = roots.index_of_clean(OsStr::from_bytes(ancestor)) {
                    return Some(i);
                }
                if end <= 1 {
                    return None;
                }
                end = ancestor.iter().rposition(|&b| b == b'/')?;
            }
        }
        clean_cow(cwd).ancestors().find_map(|a| roots.index_of_clean(a.as_os_str()))
    }

    /// The bindings that apply in a working directory under no known project root (or
    /// with no working directory at all): explicit, managed and user bindings, with the
    /// source policy outside every project applied.
    pub fn global_bindings(&self) -> Arc<[Binding]> {
        self.bindings_at(None)
    }

    /// Every runnable binding, global ones first, then each project's, each group in
    /// precedence order. A global binding counts when it runs in at least one place (a
    /// format's hooks switch, such as Claude Code's `disableAllHooks`, can switch it off
    /// outside a project but not under it).
    pub fn bindings(&self) -> Vec<Binding> {
        let mut out = merge(&self.bindings.anywhere, &[]);
        for contributions in &self.bindings.scoped {
            for c in contributions {
                out.extend(c.bindings.iter().cloned());
            }
        }
        out
    }

    /// The known project roots, sorted.
    pub fn project_roots(&self) -> &[AbsPathBuf] {
        &self.bindings.roots.list
    }

    /// Whether [`RegistrySnapshot::protected_paths`] holds what the sources' hooks run and
    /// read (`HookRegistry::set_protection`); when not, it holds the hook files only, and a
    /// guard must not decide from it.
    pub fn protection_computed(&self) -> bool {
        !self.protection_skipped
    }

    /// Hook files and the scripts they run.
    pub fn protected_paths(&self) -> &ProtectedPaths {
        &self.protected
    }

    /// Whether `path` (canonical, or resolved with `canonicalize_lenient`) is protected.
    pub fn is_protected(&self, path: &Path) -> Option<&ProtectedPath> {
        self.protected.get(path)
    }

    /// Every known source, in precedence order.
    pub fn sources(&self) -> &[Arc<SourceView>] {
        &self.sources
    }

    /// One source.
    pub fn source(&self, id: &HookSourceId) -> Option<&SourceView> {
        self.source_index.get(id).and_then(|&i| self.sources.get(i)).map(|v| &**v)
    }

    /// Each source with its diagnostics, in precedence order.
    pub fn diagnostics(&self) -> impl Iterator<Item = (&HookSourceId, &[HookDiagnostic])> {
        self.sources.iter().map(|s| (&s.id, s.diagnostics.as_slice()))
    }

    /// Diagnostics about the registry as a whole (a project root found after pinning).
    pub fn registry_diagnostics(&self) -> &[HookDiagnostic] {
        &self.registry_diagnostics
    }

    /// Every error recorded for `sources`: a missing or unreadable file, a file that does not
    /// parse, a rejected definition, a load after the run was pinned. A source the registry
    /// does not know is an error too. Warnings are left out.
    pub fn errors_for(&self, sources: &[HookSourceId]) -> Vec<HookDiagnostic> {
        let mut out = Vec::new();
        for id in sources {
            match self.source(id) {
                Some(view) => {
                    out.extend(view.diagnostics.iter().filter(|d| d.is_error()).cloned());
                }
                None => out.push(
                    HookDiagnostic::error(format!("hook source {id} is not known to the registry"))
                        .in_file(id.path.as_path()),
                ),
            }
        }
        out
    }
}

/// Merges two runs of contributions sorted by key into one list of bindings.
fn merge(a: &[Contribution], b: &[Contribution]) -> Vec<Binding> {
    let total: usize = a.iter().chain(b).map(|c| c.bindings.len()).sum();
    let mut out = Vec::with_capacity(total);
    let (mut i, mut j) = (0, 0);
    loop {
        let next = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.key <= y.key => {
                i += 1;
                x
            }
            (Some(_), Some(y)) | (None, Some(y)) => {
                j += 1;
                y
            }
            (Some(x), None) => {
                i += 1;
                x
            }
            (None, None) => break,
        };
        out.extend(next.bindings.iter().cloned());
    }
    out
}
