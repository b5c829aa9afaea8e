//! The protected set: the snapshot's protected paths, indexed for one-lookup comparison by
//! path, by case-folded path, and by device and inode, each with the folders that hold them.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    path::{Path, PathBuf},
};

use hooks_registry::{ProtectedKind, ProtectedPattern, RegistrySnapshot};
use hooks_schema::{AbsPathBuf, Generation, HookSourceId};

use crate::{
    CaseDetection, CaseSensitivity, GuardDecision, GuardError, HitReason, ProtectedHit, Resolved,
    UnresolvedPath,
    case::{fold, probe_case_sensitivity},
    file_key::{FileKey, key_of},
    resolve_edit_path,
};

#[cfg(test)]
mod tests;

/// What a protected path is to its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProtectedRole {
    /// The source's own hook file.
    HookFile,
    /// A script one of the source's hooks names.
    Script,
}

impl ProtectedRole {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtectedRole::HookFile => "hook_file",
            ProtectedRole::Script => "script",
        }
    }
}

/// One protected path and the source that protects it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtectedEntry {
    /// The protected file, canonical as the registry resolved it.
    pub path: AbsPathBuf,
    /// The source that names it.
    pub source: HookSourceId,
    /// Whether it is the source's hook file or a script.
    pub role: ProtectedRole,
}

/// What one lookup key leads to: the protected files it is, and one protected file it holds.
#[derive(Debug, Default, Clone)]
struct Slot {
    /// Entries whose file is this key.
    files: Vec<usize>,
    /// The first entry (in sorted order) whose file is inside this folder.
    holder: Option<usize>,
}

/// What a device and inode lead to: the protected files that had them when the set was
/// built, and the first entry held by the folder that had them.
#[derive(Debug, Default, Clone)]
struct KeySlot {
    /// Entries whose file had this key.
    files: Vec<usize>,
    /// A folder that had this key, and the first entry it holds.
    folder: Option<(PathBuf, usize)>,
}

/// The protected paths of one snapshot, indexed for fast checks.
///
/// Build it once per snapshot (the registry publishes a new snapshot on every change, which
/// is when the device and inode of the protected files must be read again) and check each
/// edit against it. Building stats every protected file and each folder above it once.
#[derive(Debug, Clone)]
pub struct ProtectedSet {
    generation: Option<Generation>,
    entries: Vec<ProtectedEntry>,
    insensitive: Vec<bool>,
    by_path: HashMap<PathBuf, Slot>,
    by_folded: HashMap<String, Slot>,
    by_key: HashMap<FileKey, KeySlot>,
    /// The user's home, for edited paths spelled with `~`.
    home: Option<PathBuf>,
    /// Scripts protected by where they sit (a name under a folder that varies, the copy in
    /// the session's folder, every file under a folder).
    patterns: Vec<ProtectedPattern>,
    /// The name patterns and session copies by the last component of their path.
    by_name: HashMap<std::ffi::OsString, Vec<usize>>,
    /// The Python modules whose other forms are protected ([`ProtectedPattern::stem`]), by
    /// module name: a check looks up the part of the edited file's name before its first
    /// dot.
    stems: HashMap<std::ffi::OsString, Vec<usize>>,
    /// The same patterns by their folder: a check looks up the range of folders below the
    /// edited path (a folder holding one).
    stem_folders: BTreeMap<PathBuf, Vec<usize>>,
    /// The folders protected as a whole, by folder: a check looks up the edited path's
    /// ancestors (a path inside one) and the range of paths below it (a folder holding one),
    /// not every folder, so that a runtime with many project roots (each with its agents'
    /// folders) checks an edit in time independent of their number.
    trees: BTreeMap<PathBuf, Vec<usize>>,
    /// The same folders on a case-insensitive file system, by their folded text
    /// ([`fold`]); a check folds the edited path's ancestors and looks them up too.
    folded_trees: BTreeMap<String, Vec<usize>>,
    /// How the set decides case sensitivity, for the patterns added after it is built.
    detection: CaseDetection,
    /// The folders protected at any depth below a scope ([`ProtectedPattern::nested`]), by
    /// the last name of their relative path: a check looks up the names of the edited
    /// path's ancestors.
    nested: HashMap<std::ffi::OsString, Vec<usize>>,
    /// The patterns with a copy in the session's folder.
    sessions: Vec<usize>,
    /// Every name on the way to a session copy (the folders and the file of each pattern's
    /// `session`): an edit of an existing file by another name cannot reach a copy, so the
    /// session's folder is not resolved for it.
    session_names: HashSet<std::ffi::OsString>,
    /// A session copy whose path ends in no name (`..`, empty): every reading needs the
    /// session's folder.
    session_unnamed: bool,
    /// Built from a snapshot without the hooks' protection
    /// (`RegistrySnapshot::protection_computed`): every path is refused, unresolved.
    unavailable: bool,
}

/// The module a file stands for when Python's import system may load it as one: the part of
/// its name before the first dot, for a name ending as a compiled module (`.pyc`) or an
/// extension module (`.so`, `.pyd`: `helper.cpython-313-x86_64-linux-gnu.so`) does. A module's
/// name is text: a name that is not names no module.
fn module_form(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    let (stem, _) = name.split_once('.')?;
    [".so", ".pyd", ".pyc"].iter().any(|s| name.ends_with(s)).then_some(stem)
}

/// The session's folder of one [`ProtectedSet::check`], canonicalized once and only when a
/// reading may reach a session copy.
struct SessionCwd<'a> {
    given: &'a Path,
    canonical: std::cell::OnceCell<Option<AbsPathBuf>>,
}

impl<'a> SessionCwd<'a> {
    fn new(given: &'a Path) -> SessionCwd<'a> {
        SessionCwd { given, canonical: std::cell::OnceCell::new() }
    }

    fn canonical(&self) -> Option<&AbsPathBuf> {
        self.canonical
            .get_or_init(|| {
                self.given
                    .is_absolute()
                    .then(|| crate::resolve::canonicalize(self.given).ok())
                    .flatten()
            })
            .as_ref()
    }
}

impl ProtectedSet {
    /// Indexes `entries`, probing each protected file's folder for case sensitivity.
    pub fn new(entries: impl IntoIterator<Item = ProtectedEntry>) -> ProtectedSet {
        ProtectedSet::with_case_detection(entries, CaseDetection::Probe)
    }

    /// Indexes the protected paths of `snapshot`, its patterns included. A snapshot whose
    /// registry computed no protection of the hooks' files
    /// (`RegistrySnapshot::protection_computed`) gives a set that refuses every path
    /// ([`GuardError::ProtectionNotComputed`]): the guard fails closed.
    pub fn from_snapshot(snapshot: &RegistrySnapshot) -> ProtectedSet {
        let mut set = ProtectedSet::new(crate::snapshot::entries_of(snapshot))
            .with_patterns(snapshot.protected_paths().patterns().iter().cloned());
        set.generation = Some(snapshot.generation());
        set.unavailable = !snapshot.protection_computed();
        set
    }

    /// The same set with `patterns` added: scripts protected by where they sit rather than
    /// by one path (`hooks_registry::ProtectedPattern`).
    #[must_use]
    pub fn with_patterns(
        mut self,
        patterns: impl IntoIterator<Item = ProtectedPattern>,
    ) -> ProtectedSet {
        let mut probed: HashMap<PathBuf, CaseSensitivity> = HashMap::new();
        // The patterns already in the set, by value: a thousand roots give thousands of
        // patterns, which a comparison with each one before would make quadratic.
        let mut known: HashSet<ProtectedPattern> = self.patterns.iter().cloned().collect();
        for pattern in patterns {
            if !known.insert(pattern.clone()) {
                continue;
            }
            let index = self.patterns.len();
            if pattern.stem {
                let Some(name) = pattern.tail.file_name() else { continue };
                self.stems.entry(name.to_os_string()).or_default().push(index);
                if !pattern.nested {
                    let folder = pattern.scope.as_path().to_path_buf();
                    self.stem_folders.entry(folder).or_default().push(index);
                }
            } else if pattern.tail.as_os_str().is_empty() {
                let scope = pattern.scope.as_path();
                self.trees.entry(scope.to_path_buf()).or_default().push(index);
                let insensitive = match self.detection {
                    CaseDetection::AlwaysInsensitive => true,
                    CaseDetection::Probe => {
                        // Folders side by side (a root's `.claude/agents`, `skills`,
                        // `commands`) are probed once.
                        let parent = scope.parent().unwrap_or(scope).to_path_buf();
                        *probed.entry(parent).or_insert_with(|| probe_case_sensitivity(scope))
                            == CaseSensitivity::Insensitive
                    }
                };
                if insensitive {
                    self.folded_trees.entry(fold(scope)).or_default().push(index);
                }
            } else if let Some(name) = pattern.tail.file_name() {
                let by_name = if pattern.nested { &mut self.nested } else { &mut self.by_name };
                by_name.entry(name.to_os_string()).or_default().push(index);
            }
            if let Some(session) = &pattern.session {
                self.sessions.push(index);
                let names = session.components().filter_map(|c| match c {
                    std::path::Component::Normal(name) => Some(name.to_os_string()),
                    _ => None,
                });
                self.session_names.extend(names);
                if !matches!(
                    session.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) {
                    self.session_unnamed = true;
                }
            }
            self.patterns.push(pattern);
        }
        self
    }

    /// The patterns the set checks besides its entries.
    pub fn patterns(&self) -> &[ProtectedPattern] {
        &self.patterns
    }

    /// The same set, reading a leading `~` of an edited path as `home` (without one, such a
    /// path is refused: the guard fails closed on it).
    #[must_use]
    pub fn with_home(mut self, home: Option<PathBuf>) -> ProtectedSet {
        self.home = home;
        self
    }

    /// The generation of the snapshot the set was built from; `None` when it was built from
    /// entries.
    pub fn generation(&self) -> Option<Generation> {
        self.generation
    }

    /// Whether the set was built from a snapshot of `snapshot`'s generation. A caller that
    /// keeps a set between edits rebuilds it when this is false.
    pub fn is_current_for(&self, snapshot: &RegistrySnapshot) -> bool {
        self.generation == Some(snapshot.generation())
    }

    /// Indexes `entries`, deciding case sensitivity as `detection` says.
    pub fn with_case_detection(
        entries: impl IntoIterator<Item = ProtectedEntry>,
        detection: CaseDetection,
    ) -> ProtectedSet {
        let mut entries: Vec<ProtectedEntry> = entries.into_iter().collect();
        entries.sort();
        entries.dedup();
        let mut set = ProtectedSet {
            generation: None,
            insensitive: Vec::with_capacity(entries.len()),
            entries: Vec::new(),
            by_path: HashMap::new(),
            by_folded: HashMap::new(),
            by_key: HashMap::new(),
            home: None,
            patterns: Vec::new(),
            by_name: HashMap::new(),
            stems: HashMap::new(),
            stem_folders: BTreeMap::new(),
            trees: BTreeMap::new(),
            folded_trees: BTreeMap::new(),
            detection,
            nested: HashMap::new(),
            sessions: Vec::new(),
            session_names: HashSet::new(),
            session_unnamed: false,
            unavailable: false,
        };
        let mut folder_case: HashMap<PathBuf, CaseSensitivity> = HashMap::new();
        let mut stated_folders: HashSet<PathBuf> = HashSet::new();
        for (index, entry) in entries.iter().enumerate() {
            let path = entry.path.as_path();
            let insensitive = match detection {
                CaseDetection::AlwaysInsensitive => true,
                CaseDetection::Probe => {
                    let folder = path.parent().unwrap_or(path);
                    let case = match folder_case.get(folder) {
                        Some(&case) => case,
                        None => {
                            let case = probe_case_sensitivity(path);
                            folder_case.insert(folder.to_path_buf(), case);
                            case
                        }
                    };
                    case == CaseSensitivity::Insensitive
                }
            };
            set.insensitive.push(insensitive);
            set.by_path.entry(path.to_path_buf()).or_default().files.push(index);
            if insensitive {
                set.by_folded.entry(fold(path)).or_default().files.push(index);
            }
            if let Some(key) = key_of(path) {
                set.by_key.entry(key).or_default().files.push(index);
            }
            // A folder is held (and stated) only with every folder above it, so the walk up
            // stops at the first folder an earlier entry held and stated: entries of one
            // folder cost one step each, not one per folder up to the root.
            let (mut held, mut stated) = (false, false);
            for folder in path.ancestors().skip(1) {
                if !held {
                    match set.by_path.get_mut(folder) {
                        Some(slot) if slot.holder.is_some() => held = true,
                        Some(slot) => hold(slot, index),
                        None => hold(set.by_path.entry(folder.to_path_buf()).or_default(), index),
                    }
                }
                if insensitive {
                    hold(set.by_folded.entry(fold(folder)).or_default(), index);
                }
                if !stated {
                    if stated_folders.contains(folder) {
                        stated = true;
                    } else {
                        stated_folders.insert(folder.to_path_buf());
                        if let Some(key) = key_of(folder) {
                            set.by_key
                                .entry(key)
                                .or_default()
                                .folder
                                .get_or_insert_with(|| (folder.to_path_buf(), index));
                        }
                    }
                }
                if held && stated && !insensitive {
                    break;
                }
            }
        }
        set.entries = entries;
        set
    }

    /// The protected entries, sorted and deduplicated.
    pub fn entries(&self) -> &[ProtectedEntry] {
        &self.entries
    }

    /// How many protected entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is protected.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.patterns.is_empty()
    }

    /// Whether `path`, a protected file, is compared case-insensitively.
    pub fn is_case_insensitive(&self, path: &Path) -> bool {
        self.entries.iter().zip(&self.insensitive).any(|(e, &i)| i && e.path.as_path() == path)
    }

    /// Decides whether the agent may write `paths`, relative ones resolved against
    /// `session_cwd`. Protected hits win over unresolved paths.
    pub fn check<P: AsRef<Path>>(&self, paths: &[P], session_cwd: &Path) -> GuardDecision {
        let mut hits = Vec::new();
        let mut unresolved = Vec::new();
        let session = SessionCwd::new(session_cwd);
        for requested in paths {
            let requested = requested.as_ref();
            match self.check_path_in(requested, &session) {
                Ok(found) => hits.extend(found),
                Err(error) => {
                    unresolved.push(UnresolvedPath { requested: requested.to_path_buf(), error })
                }
            }
        }
        let decision = if !hits.is_empty() {
            GuardDecision::Protected(hits)
        } else if !unresolved.is_empty() {
            GuardDecision::Unresolved(unresolved)
        } else {
            GuardDecision::Allowed
        };
        crate::trace::refused(&decision);
        decision
    }

    /// The protected files one requested path reaches, at most one hit per protected entry.
    pub fn check_path(
        &self,
        requested: &Path,
        session_cwd: &Path,
    ) -> Result<Vec<ProtectedHit>, GuardError> {
        self.check_path_in(requested, &SessionCwd::new(session_cwd))
    }

    fn check_path_in(
        &self,
        requested: &Path,
        session: &SessionCwd<'_>,
    ) -> Result<Vec<ProtectedHit>, GuardError> {
        if self.unavailable {
            return Err(GuardError::ProtectionNotComputed { path: requested.to_path_buf() });
        }
        let readings = resolve_edit_path(requested, session.given, self.home.as_deref())?;
        let mut found: Vec<(usize, HitReason, &Resolved)> = Vec::new();
        for reading in &readings {
            self.lookup(reading, &mut found);
        }
        let mut hits: Vec<ProtectedHit> = found
            .into_iter()
            .filter_map(|(index, why, reading)| {
                let entry = self.entries.get(index)?;
                Some(ProtectedHit {
                    requested: requested.to_path_buf(),
                    resolved: reading.path.clone(),
                    protected: entry.path.clone(),
                    source: entry.source.clone(),
                    role: entry.role,
                    why,
                })
            })
            .collect();
        if !self.patterns.is_empty() {
            self.match_patterns(requested, session, &readings, &mut hits);
        }
        Ok(hits)
    }

    /// Adds the hits of the patterns: a path under a protected folder, a path named like a
    /// script that runs from a folder that varies, and the copy of such a script in the
    /// session's folder (or a folder holding it).
    fn match_patterns(
        &self,
        requested: &Path,
        session_cwd: &SessionCwd<'_>,
        readings: &[Resolved],
        hits: &mut Vec<ProtectedHit>,
    ) {
        let mut seen: Vec<usize> = Vec::new();
        let mut nested_hits: Vec<ProtectedHit> = Vec::new();
        let role = |what: ProtectedKind| match what {
            ProtectedKind::File => ProtectedRole::HookFile,
            ProtectedKind::Script => ProtectedRole::Script,
        };
        let mut hit = |index: usize, reading: &Resolved, protected: AbsPathBuf, why: HitReason| {
            let Some(p) = self.patterns.get(index) else { return };
            if seen.contains(&index) {
                return;
            }
            seen.push(index);
            hits.push(ProtectedHit {
                requested: requested.to_path_buf(),
                resolved: reading.path.clone(),
                protected,
                source: p.source.clone(),
                role: role(p.what),
                why,
            });
        };
        // A hit of a pattern protected at any depth names the file or folder found there as
        // its source (of the pattern's kind), not the root's.
        let mut nested_hit = |index: usize,
                              reading: &Resolved,
                              found: AbsPathBuf,
                              why: HitReason| {
            let Some(p) = self.patterns.get(index) else { return };
            if nested_hits.iter().any(|h| h.protected == found && h.source.kind == p.source.kind) {
                return;
            }
            nested_hits.push(ProtectedHit {
                requested: requested.to_path_buf(),
                resolved: reading.path.clone(),
                protected: found.clone(),
                source: hooks_schema::HookSourceId::new(p.source.kind, found),
                role: role(p.what),
                why,
            });
        };
        // The session's folder and each protected script's copy in it, read lexically first
        // (no file system access), then resolved only for a copy of the same name. The
        // folder itself is resolved only for a reading that may reach a copy.
        for reading in readings {
            let session =
                if self.may_reach_session_copy(reading) { session_cwd.canonical() } else { None };
            let path = reading.path.as_path();
            // Inside a protected folder: the folder is one of the path's ancestors (or the
            // path itself), by its path, or on a case-insensitive file system by its folded
            // text too.
            let mut found: Vec<(usize, HitReason)> = Vec::new();
            for a in path.ancestors() {
                let folded = (!self.folded_trees.is_empty())
                    .then(|| self.folded_trees.get(&fold(a)))
                    .flatten();
                for &i in self.trees.get(a).into_iter().chain(folded).flatten() {
                    found.push((i, HitReason::InsideFolder));
                }
            }
            // Holding one: the folder is below the path, and the folders below a path are the
            // ones that follow it in the map's order (paths compare by component), up to the
            // first that is not below it; by folded text, those whose text goes on from the
            // path's with a separator.
            let below = self
                .trees
                .range::<Path, _>((std::ops::Bound::Excluded(path), std::ops::Bound::Unbounded))
                .take_while(|(scope, _)| scope.starts_with(path));
            found.extend(below.flat_map(|(_, v)| v.iter().map(|&i| (i, HitReason::HoldingFolder))));
            if !self.folded_trees.is_empty() {
                let mut prefix = fold(path);
                if !prefix.ends_with(std::path::MAIN_SEPARATOR) {
                    prefix.push(std::path::MAIN_SEPARATOR);
                }
                let below = self
                    .folded_trees
                    .range::<str, _>((
                        std::ops::Bound::Included(prefix.as_str()),
                        std::ops::Bound::Unbounded,
                    ))
                    .take_while(|(scope, _)| scope.starts_with(prefix.as_str()));
                found.extend(
                    below.flat_map(|(_, v)| v.iter().map(|&i| (i, HitReason::HoldingFolder))),
                );
            }
            // One reason per folder: inside before holding, in the patterns' order.
            found.sort_by_key(|&(i, why)| (i, why != HitReason::InsideFolder));
            found.dedup_by_key(|(i, _)| *i);
            for (index, why) in found {
                let Some(p) = self.patterns.get(index) else { continue };
                hit(index, reading, p.scope.clone(), why);
            }
            // Protected at any depth: the path, or an ancestor, under the pattern's scope whose
            // path ends with its relative path: a hook file a session started in a package
            // reads (`packages/web/.gemini/settings.json`), or a file inside such a folder
            // (`packages/web/.claude/skills`). The hit names that file or folder.
            for a in path.ancestors() {
                let Some(v) = a.file_name().and_then(|n| self.nested.get(n)) else { continue };
                for &index in v {
                    let Some(p) = self.patterns.get(index) else { continue };
                    if a != p.scope.as_path()
                        && a.starts_with(p.scope.as_path())
                        && a.ends_with(&p.tail)
                        && let Ok(found) = AbsPathBuf::new(a.to_path_buf())
                    {
                        let why = if p.nested_file && a == path {
                            HitReason::SamePath
                        } else {
                            HitReason::InsideFolder
                        };
                        nested_hit(index, reading, found, why);
                    }
                }
            }
            // Another form of a Python module a hook imports: a compiled or extension module
            // named as the module, in its folder (F118), or a folder holding that folder.
            if !self.stems.is_empty() {
                let modules =
                    module_form(path).and_then(|s| self.stems.get(std::ffi::OsStr::new(s)));
                let parent = path.parent().unwrap_or(path);
                for &index in modules.into_iter().flatten() {
                    let Some(p) = self.patterns.get(index) else { continue };
                    let folder = p.tail.parent().unwrap_or(Path::new(""));
                    let here = match p.nested {
                        false => parent == p.scope.as_path(),
                        true => parent.starts_with(p.scope.as_path()) && parent.ends_with(folder),
                    };
                    if here {
                        hit(index, reading, reading.path.clone(), HitReason::ModuleForm);
                    }
                }
                let below = self
                    .stem_folders
                    .range::<Path, _>((std::ops::Bound::Included(path), std::ops::Bound::Unbounded))
                    .take_while(|(folder, _)| folder.starts_with(path));
                for &index in below.flat_map(|(_, v)| v) {
                    if let Some(p) = self.patterns.get(index) {
                        hit(index, reading, p.scope.clone(), HitReason::HoldingFolder);
                    }
                }
            }
            let same_name = path.file_name().and_then(|n| self.by_name.get(n));
            // The copy in the session's folder first: it is the more precise reason.
            for &index in session.iter().flat_map(|_| &self.sessions) {
                let Some(session) = &session else { break };
                let Some(rel) = self.patterns.get(index).and_then(|p| p.session.as_ref()) else {
                    continue;
                };
                let copy = crate::normalize_lexically(&session.as_path().join(rel));
                if copy.as_path() == path || copy.starts_with(path) {
                    let why = if copy.as_path() == path {
                        HitReason::SessionCopy
                    } else {
                        HitReason::HoldingFolder
                    };
                    if let Ok(copy) = AbsPathBuf::new(copy) {
                        hit(index, reading, copy, why);
                    }
                    continue;
                }
                if copy.file_name() == path.file_name()
                    || same_name.is_some_and(|v| v.contains(&index))
                {
                    let Ok(resolved) = resolve_edit_path(rel, session.as_path(), None) else {
                        continue;
                    };
                    for c in resolved {
                        let same =
                            c.path == reading.path || (c.key.is_some() && c.key == reading.key);
                        if same {
                            hit(index, reading, c.path.clone(), HitReason::SessionCopy);
                        }
                    }
                }
            }
            for &index in same_name.into_iter().flatten() {
                let Some(p) = self.patterns.get(index) else { continue };
                if path.starts_with(p.scope.as_path()) && path.ends_with(&p.tail) {
                    hit(index, reading, reading.path.clone(), HitReason::NamedCopy);
                }
            }
        }
        // The root's own file or folder is protected by its path too: one hit for it.
        for h in nested_hits {
            if !hits.iter().any(|x| x.protected == h.protected && x.source == h.source) {
                hits.push(h);
            }
        }
    }

    /// Whether `reading` may be a session copy or a folder holding one, judged without the
    /// session's folder: a folder may hold it, and a file or a missing path only under a
    /// name on the way to a copy (or a pattern's name).
    fn may_reach_session_copy(&self, reading: &Resolved) -> bool {
        if self.sessions.is_empty() {
            return false;
        }
        self.session_unnamed
            || reading.dir
            || reading.path.as_path().file_name().is_none_or(|name| {
                self.session_names.contains(name) || self.by_name.contains_key(name)
            })
    }

    /// Adds the entries `reading` reaches to `found`, keeping the first reason per entry.
    fn lookup<'r>(&self, reading: &'r Resolved, found: &mut Vec<(usize, HitReason, &'r Resolved)>) {
        let mut add = |slot: &Slot, file_reason: HitReason| {
            let reasons = slot
                .files
                .iter()
                .map(|&index| (index, file_reason))
                .chain(slot.holder.map(|index| (index, HitReason::HoldingFolder)));
            for (index, why) in reasons {
                if unseen(found, index) {
                    found.push((index, why, reading));
                }
            }
        };
        if let Some(slot) = self.by_path.get(reading.path.as_path()) {
            add(slot, HitReason::SamePath);
        }
        if !self.by_folded.is_empty()
            && let Some(slot) = self.by_folded.get(&fold(reading.path.as_path()))
        {
            add(slot, HitReason::SamePath);
        }
        if let Some(key) = reading.key
            && let Some(slot) = self.by_key.get(&key)
        {
            self.lookup_key(key, slot, reading, found);
        }
    }

    /// Adds the entries a device and inode reach. The key was read when the set was built;
    /// it still counts only when the protected path has it now, so a file replaced since
    /// (a new inode, the old one kept alive by a link, or recycled) is not mistaken for it.
    fn lookup_key<'r>(
        &self,
        key: FileKey,
        slot: &KeySlot,
        reading: &'r Resolved,
        found: &mut Vec<(usize, HitReason, &'r Resolved)>,
    ) {
        for &index in &slot.files {
            let Some(entry) = self.entries.get(index) else { continue };
            if unseen(found, index) && key_of(entry.path.as_path()) == Some(key) {
                found.push((index, HitReason::SameFile, reading));
            }
        }
        if let Some((folder, index)) = &slot.folder
            && unseen(found, *index)
            && key_of(folder) == Some(key)
        {
            found.push((*index, HitReason::HoldingFolder, reading));
        }
    }
}

/// Whether entry `index` is not among the hits `found` so far.
fn unseen(found: &[(usize, HitReason, &Resolved)], index: usize) -> bool {
    found.iter().all(|(seen, _, _)| *seen != index)
}

/// Records `index` as the entry a folder holds, unless one is recorded already.
fn hold(slot: &mut Slot, index: usize) {
    slot.holder.get_or_insert(index);
}

/// Decides whether the agent may write `paths` under `snapshot`'s protected paths, relative
/// ones resolved against `session_cwd`.
///
/// This builds a [`ProtectedSet`] for the call; a caller that checks many edits against one
/// snapshot builds the set once with [`ProtectedSet::from_snapshot`] and calls
/// [`ProtectedSet::check`].
pub fn can_write_files<P: AsRef<Path>>(
    paths: &[P],
    session_cwd: &Path,
    snapshot: &RegistrySnapshot,
) -> GuardDecision {
    ProtectedSet::from_snapshot(snapshot).check(paths, session_cwd)
}
