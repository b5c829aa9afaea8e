//! Protected paths: hook files and the scripts their definitions run, which the agent's
//! file edits must not change without asking.

use std::{
    collections::{HashMap, HashSet},
    ffi::OsString,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use hooks_schema::{
    AbsPathBuf, HookCommand, HookDefinition, HookLaunch, HookSourceId, HookSourceKind, LaunchDir,
};

use crate::{
    paths::{PathHashing, canonicalize, is_normal, normalize_lexically},
    scripts::{
        CommandAnalysis, NamedPath, PathBase, PathRole, analyse, analyse_with_templates,
        installation_matters, loads_its_installation, normalize_relative,
    },
    toolconfig::TOOL_CONFIG_CAP,
};
use std::path::Component;

/// What a protected path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProtectedKind {
    /// A hook source file.
    File,
    /// A script a definition runs.
    Script,
}

/// One protected path and the source it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProtectedPath {
    /// The canonical path (the file as given when it no longer exists).
    pub path: AbsPathBuf,
    /// The source that names it.
    pub source: HookSourceId,
    /// A hook file or a script.
    pub what: ProtectedKind,
}

/// The protected paths of a snapshot, with a hash index for one-path lookups.
///
/// The entries are kept in parts, one per source (and one for the expected files), each
/// shared with the registry's state of that source: a publish after one source changed copies
/// a pointer per source, not every path, and dropping a snapshot frees no path. The index by
/// path and the entries as one list are built the first time something asks for them (the
/// guard builds its own index from [`ProtectedPaths::iter`]; most snapshots are never asked).
///
/// The expected files ([`ExpectedFiles`]) are resolved on the file system the first time
/// anything is asked too: a process that only fires (a one-shot `hooks fire`) never reads the
/// protected set, and resolving every format's expected files under every root at each
/// publish was most of its `statx` calls. They are resolved as the file system is when first
/// asked, at the latest when the guard reads the snapshot (`specs/guard.md`).
#[derive(Debug, Clone, Default)]
pub struct ProtectedPaths {
    /// What is left to resolve on first use (`None`: everything is in `resolved`).
    deferred: Option<Arc<Deferred>>,
    resolved: OnceLock<Resolved>,
    /// Each path's first entry, as `(part, position in the part)`.
    index: OnceLock<HashMap<PathBuf, (u32, u32)>>,
    /// Every entry in order, for [`ProtectedPaths::as_slice`].
    flat: OnceLock<Vec<ProtectedPath>>,
}

/// The sources' parts and patterns, with the expected files still to resolve.
#[derive(Debug)]
struct Deferred {
    parts: Vec<Arc<[ProtectedPath]>>,
    patterns: Vec<ProtectedPattern>,
    expected: ExpectedPlaces,
}

/// Every part and pattern, the expected files resolved.
#[derive(Debug, Clone, Default)]
struct Resolved {
    parts: Vec<Arc<[ProtectedPath]>>,
    len: usize,
    patterns: Vec<ProtectedPattern>,
    /// How many places' expected files this set resolved itself (the others were resolved
    /// by an earlier set that shares them).
    #[cfg(test)]
    places_resolved: usize,
}

impl Resolved {
    fn new(parts: Vec<Arc<[ProtectedPath]>>, patterns: Vec<ProtectedPattern>) -> Resolved {
        let parts: Vec<Arc<[ProtectedPath]>> =
            parts.into_iter().filter(|p| !p.is_empty()).collect();
        let len = parts.iter().map(|p| p.len()).sum();
        Resolved {
            parts,
            len,
            patterns,
            #[cfg(test)]
            places_resolved: 0,
        }
    }
}

impl Deferred {
    /// The parts, then the expected files no part lists (the places not resolved yet
    /// resolved now), then the patterns and the expected folders.
    fn resolve(&self) -> Resolved {
        let (expected, folders, fresh) = self.expected.resolve();
        let mut parts = self.parts.clone();
        if !expected.is_empty() {
            let mut listed: HashSet<&Path> =
                parts.iter().flat_map(|p| p.iter()).map(|p| p.path.as_path()).collect();
            let first: Vec<bool> =
                expected.iter().map(|p| listed.insert(p.path.as_path())).collect();
            let unlisted: Vec<ProtectedPath> = expected
                .into_iter()
                .zip(first)
                .filter_map(|(p, first)| first.then_some(p))
                .collect();
            parts.push(Arc::from(unlisted));
        }
        let mut patterns = self.patterns.clone();
        patterns.extend(folders);
        let resolved = Resolved::new(parts, patterns);
        #[cfg(test)]
        let resolved = Resolved { places_resolved: fresh, ..resolved };
        #[cfg(not(test))]
        let _ = fresh;
        resolved
    }
}

impl ProtectedPaths {
    /// The entries of `parts`, in order, then the expected files of `expected`'s places
    /// (under each root, then outside every project) that no part lists; `patterns`, then
    /// the expected folders. The expected files are resolved when something first asks, each
    /// place once for every set that shares it.
    pub(crate) fn with_expected(
        parts: Vec<Arc<[ProtectedPath]>>,
        patterns: Vec<ProtectedPattern>,
        expected: ExpectedPlaces,
    ) -> ProtectedPaths {
        let deferred = Deferred { parts, patterns, expected };
        ProtectedPaths { deferred: Some(Arc::new(deferred)), ..Default::default() }
    }

    fn resolved(&self) -> &Resolved {
        self.resolved
            .get_or_init(|| self.deferred.as_ref().map(|d| d.resolve()).unwrap_or_default())
    }

    /// Whether the expected files were resolved (something asked for the entries).
    #[cfg(test)]
    pub(crate) fn is_resolved(&self) -> bool {
        self.resolved.get().is_some()
    }

    /// How many places' expected files reading this set resolved (the others it shares with
    /// an earlier set that resolved them); resolves the set.
    #[cfg(test)]
    pub(crate) fn places_resolved(&self) -> usize {
        self.resolved().places_resolved
    }

    fn index(&self) -> &HashMap<PathBuf, (u32, u32)> {
        self.index.get_or_init(|| {
            let resolved = self.resolved();
            let mut index = HashMap::with_capacity(resolved.len);
            for (i, part) in resolved.parts.iter().enumerate() {
                for (j, p) in part.iter().enumerate() {
                    index.entry(p.path.as_path().to_path_buf()).or_insert((i as u32, j as u32));
                }
            }
            index
        })
    }

    /// The protected patterns: scripts named relative to a directory that varies, and
    /// folders protected as a whole (see [`ProtectedPattern`]).
    pub fn patterns(&self) -> &[ProtectedPattern] {
        &self.resolved().patterns
    }

    /// Whether `path` (already resolved by the caller, see `canonicalize_lenient`) is protected.
    pub fn contains(&self, path: &Path) -> bool {
        self.index().contains_key(path)
    }

    /// The first entry protecting `path`.
    pub fn get(&self, path: &Path) -> Option<&ProtectedPath> {
        let &(i, j) = self.index().get(path)?;
        self.resolved().parts.get(i as usize)?.get(j as usize)
    }

    /// Every entry in order (a path named by two sources appears twice), without copying.
    pub fn iter(&self) -> impl Iterator<Item = &ProtectedPath> {
        self.resolved().parts.iter().flat_map(|p| p.iter())
    }

    /// Every entry in order (a path named by two sources appears twice), as one list (made
    /// on first use; [`ProtectedPaths::iter`] copies nothing).
    pub fn as_slice(&self) -> &[ProtectedPath] {
        self.flat.get_or_init(|| self.iter().cloned().collect())
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.resolved().len
    }

    /// Whether nothing is protected.
    pub fn is_empty(&self) -> bool {
        let resolved = self.resolved();
        resolved.len == 0 && resolved.patterns.is_empty()
    }
}

/// Files protected by where they sit rather than by one path: a script named relative to a
/// directory that varies (the session's, any project's), or every file under a folder.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProtectedPattern {
    /// Only paths under this folder match (`/` for anywhere).
    pub scope: AbsPathBuf,
    /// The last components a matching path ends with; empty: every path under `scope`.
    pub tail: PathBuf,
    /// The path relative to the session's directory, when the hook runs there: the guard
    /// also resolves it against the session directory of each check.
    pub session: Option<PathBuf>,
    /// The source that names it.
    pub source: HookSourceId,
    /// A hook file or a script.
    pub what: ProtectedKind,
    /// With a `tail`: every path under any folder below `scope` whose path ends with `tail`
    /// (Claude Code's `.claude/skills/` at any depth), instead of the paths that end with it.
    pub nested: bool,
    /// With `nested`: `tail` names a file, protected wherever a path ends with it below
    /// `scope` (a project's `.gemini/settings.json` in a package), not a folder.
    pub nested_file: bool,
    /// `tail` names a Python module: the files named by its last component, a dot and more,
    /// ending in `.so`, `.pyd` or `.pyc` (`helper.so`, `helper.cpython-313-x86_64-linux-gnu.so`,
    /// `helper.pyc`), which Python's import system loads before or in place of the module's
    /// source (finding F118): directly in the folder `scope` (`tail` is then the name alone,
    /// and a folder holding `scope` holds them), or with `nested`, in any folder below `scope`
    /// whose path ends with the rest of `tail` (a hook run from a folder that varies).
    pub stem: bool,
}

impl ProtectedPattern {
    /// Every file under `scope` (or `scope` itself, a file), for a source of kind `kind`
    /// named by that path.
    pub(crate) fn whole(kind: HookSourceKind, scope: AbsPathBuf) -> ProtectedPattern {
        ProtectedPattern {
            source: HookSourceId::new(kind, scope.clone()),
            scope,
            tail: PathBuf::new(),
            session: None,
            what: ProtectedKind::File,
            nested: false,
            nested_file: false,
            stem: false,
        }
    }
}

/// Hook files that would be loaded if they existed, which the registry protects whether or
/// not they exist: creating one changes which hooks run (a project's first
/// `.cursor/hooks.json`, `.claude/settings.local.json` with `{"disableAllHooks": true}`).
/// The loaders' discovery tables fill it (`hooks_sources::expected_files`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedFiles {
    /// Under every project root: the kind of source and the path relative to the root.
    pub under_roots: Vec<(HookSourceKind, PathBuf)>,
    /// Outside every project (the user's and the managed files, the settings that switch
    /// hooks on or off): absolute paths.
    pub fixed: Vec<(HookSourceKind, PathBuf)>,
    /// Folders every file in which would be loaded (Claude Code's `managed-settings.d/`).
    pub folders: Vec<(HookSourceKind, PathBuf)>,
    /// The same under every project root, relative to it (Copilot's `.github/hooks/`).
    pub folders_under_roots: Vec<(HookSourceKind, PathBuf)>,
    /// Folders of hook files, by their path relative to the folder an agent's session starts
    /// in, protected wherever they are (a session started in any folder reads that folder's:
    /// Claude Code's `.claude/skills/` in a monorepo's packages, Copilot's `.github/hooks/`):
    /// every file under any folder whose path ends with this one.
    pub nested_folders: Vec<(HookSourceKind, PathBuf)>,
    /// Hook files, by their path relative to the folder an agent's session starts in,
    /// protected wherever they are (Gemini CLI reads `<cwd>/.gemini/settings.json`, Codex
    /// every `.codex/` from the session's folder up to the root, Claude Code the `.claude/`
    /// of the folder it starts in): every path that ends with this one.
    pub nested_files: Vec<(HookSourceKind, PathBuf)>,
    /// Folders an agent loads in place of an entry of its own folders (Gemini CLI's linked
    /// extensions): each protected whole, or only its parts when it is part of a project (it
    /// holds a project root, or lies under one) or holds the agent's own folder.
    pub linked: Vec<LinkedFolder>,
}

/// A folder that an agent loads in place of an entry of one of its own folders: a Gemini CLI
/// extension linked from where it is developed (`hooks_schema::AgentLink`). The registry
/// protects it whole, existing or not, unless it declares parts and is part of a project the
/// agent works in (it holds a project root, or lies under one: an extension developed in the
/// repository) or holds [`LinkedFolder::holder`]: then only [`LinkedFolder::parts`], so the
/// agent may still edit the rest of the project, but not what decides what the agent runs
/// from there (the scripts its hooks name are protected as the hooks' own, when the format
/// reads them: `hooks_schema::AgentFolder::entry_hooks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedFolder {
    /// The kind the guard reports it under (the agent folder's: `user_gemini_extensions`).
    pub kind: HookSourceKind,
    /// The folder as the link names it: absolute, or relative to the folder the agent runs in
    /// (then protected under every project root).
    pub folder: PathBuf,
    /// The agent's own folder the link was found under (`~/.gemini`): a linked folder that
    /// holds it holds the user's home or more.
    pub holder: Option<PathBuf>,
    /// Relative to the folder, what decides what the agent runs from it (`hooks`,
    /// `gemini-extension.json`): each protected whole, as a file or a folder.
    pub parts: Vec<PathBuf>,
}

impl LinkedFolder {
    /// The protected patterns of the folder placed at `at` (resolved through `resolver`):
    /// the folder whole, or its parts when it holds one of `roots` or lies under one, or holds
    /// the holder.
    fn patterns(
        &self,
        at: &AbsPathBuf,
        roots: &[&AbsPathBuf],
        resolver: &mut Resolver,
    ) -> Vec<ProtectedPattern> {
        let located = locations_with(resolver, at);
        let holder = self.holder.as_ref().and_then(|h| AbsPathBuf::new(h.clone()).ok());
        let held: Vec<AbsPathBuf> =
            holder.iter().flat_map(|h| locations_with(resolver, h)).collect();
        let holds = located.iter().any(|l| {
            let l = l.as_path();
            held.iter().any(|h| h.as_path().starts_with(l))
                || roots.iter().any(|r| r.as_path().starts_with(l) || l.starts_with(r.as_path()))
        });
        let whole = |scope: AbsPathBuf| ProtectedPattern::whole(self.kind, scope);
        if !holds || self.parts.is_empty() {
            return located.into_iter().map(whole).collect();
        }
        let mut out = Vec::new();
        for part in &self.parts {
            let Ok(part) = at.join(part) else { continue };
            out.extend(locations_with(resolver, &part).into_iter().map(whole));
        }
        out
    }
}

impl ExpectedFiles {
    /// The patterns of the linked folders ([`LinkedFolder`]) with the project roots `roots`:
    /// an absolute folder where it is, a relative one under each root.
    fn linked_patterns(
        &self,
        roots: &[&AbsPathBuf],
        resolver: &mut Resolver,
    ) -> Vec<ProtectedPattern> {
        let mut out = Vec::new();
        for link in &self.linked {
            match AbsPathBuf::new(link.folder.clone()) {
                Ok(at) => out.extend(link.patterns(&at, roots, resolver)),
                Err(_) => {
                    for root in roots {
                        let Ok(at) = root.join(&link.folder) else { continue };
                        out.extend(link.patterns(&at, roots, resolver));
                    }
                }
            }
        }
        out
    }

    /// The protected paths and folder patterns for the project roots `roots`: the files
    /// under each root, then the fixed files; the fixed folders, then the folders under each
    /// root. Every path is resolved through `resolver`.
    #[cfg(test)]
    pub(crate) fn protect_with<'a>(
        &self,
        roots: impl IntoIterator<Item = &'a AbsPathBuf>,
        resolver: &mut Resolver,
    ) -> (Vec<ProtectedPath>, Vec<ProtectedPattern>) {
        let roots: Vec<&AbsPathBuf> = roots.into_iter().collect();
        let places: Vec<(Vec<ProtectedPath>, Vec<ProtectedPattern>)> =
            roots.iter().map(|root| self.protect_place(Some(root), resolver)).collect();
        let (fixed_paths, fixed_folders) = self.protect_place(None, resolver);
        let mut paths: Vec<ProtectedPath> = places.iter().flat_map(|r| r.0.clone()).collect();
        paths.extend(fixed_paths);
        let mut patterns = fixed_folders;
        patterns.extend(places.into_iter().flat_map(|r| r.1));
        patterns.extend(self.linked_patterns(&roots, resolver));
        (paths, patterns)
    }

    /// The protected paths and folder patterns of one place: the files and folders under the
    /// project root `root`, or, for `None`, the fixed files and folders outside every project.
    /// Every path is resolved through `resolver`.
    fn protect_place(
        &self,
        root: Option<&AbsPathBuf>,
        resolver: &mut Resolver,
    ) -> (Vec<ProtectedPath>, Vec<ProtectedPattern>) {
        let place = |list: &[(HookSourceKind, PathBuf)]| -> Vec<(HookSourceKind, PathBuf)> {
            list.iter()
                .map(|(kind, path)| {
                    (*kind, root.map_or_else(|| path.clone(), |r| r.as_path().join(path)))
                })
                .collect()
        };
        let (files, folders) = match root {
            Some(_) => (place(&self.under_roots), place(&self.folders_under_roots)),
            None => (place(&self.fixed), place(&self.folders)),
        };
        let mut paths = Vec::new();
        for (kind, path) in files {
            let Ok(path) = AbsPathBuf::new(path) else { continue };
            for located in locations_with(resolver, &path) {
                paths.push(ProtectedPath {
                    source: HookSourceId::new(kind, located.clone()),
                    path: located,
                    what: ProtectedKind::File,
                });
            }
        }
        let mut patterns = Vec::new();
        let whole = ProtectedPattern::whole;
        for (kind, folder) in folders {
            let Ok(folder) = AbsPathBuf::new(folder) else { continue };
            for located in locations_with(resolver, &folder) {
                // Under a root, what the folder's entries link to (`.claude/skills/deploy ->
                // ../../.agents/skills/deploy`): the agent reads it through the link, the
                // guard resolves an edited path to where it really is.
                if let Some(root) = root {
                    for target in linked_entries(&located, root, resolver) {
                        patterns.push(whole(kind, target));
                    }
                }
                patterns.push(whole(kind, located));
            }
        }
        // Outside every project, each folder and file of hook files read wherever a session
        // starts: one pattern each, for the whole file system.
        if root.is_none() {
            let nested = (self.nested_folders.iter().map(|(k, p)| (k, p, false)))
                .chain(self.nested_files.iter().map(|(k, p)| (k, p, true)));
            let anywhere = crate::protect::root();
            for (kind, rel, file) in nested {
                let Ok(at) = anywhere.join(rel) else { continue };
                patterns.push(ProtectedPattern {
                    scope: anywhere.clone(),
                    tail: rel.clone(),
                    session: None,
                    source: HookSourceId::new(*kind, at),
                    what: ProtectedKind::File,
                    nested: true,
                    nested_file: file,
                    stem: false,
                });
            }
        }
        (paths, patterns)
    }
}

/// The most entries of one protected folder [`linked_entries`] looks at.
const MAX_LINKED_ENTRIES: usize = 1024;

/// Where the entries of the protected folder `folder` under the project `root` that are
/// symbolic links lead (resolved through `resolver`, a dangling link's chain too), outside the
/// folder: a skill folder linked from a shared one, a subagent's file kept elsewhere. A target
/// that holds the root is left out (a link to the repository or above it would protect the
/// whole project). At most [`MAX_LINKED_ENTRIES`] entries are looked at; nothing is read but
/// the folder's listing and the links.
fn linked_entries(
    folder: &AbsPathBuf,
    root: &AbsPathBuf,
    resolver: &mut Resolver,
) -> Vec<AbsPathBuf> {
    let Ok(entries) = std::fs::read_dir(folder.as_path()) else { return Vec::new() };
    let mut out = Vec::new();
    for entry in entries.take(MAX_LINKED_ENTRIES).filter_map(Result::ok) {
        if !entry.file_type().is_ok_and(|t| t.is_symlink()) {
            continue;
        }
        let Ok(link) = AbsPathBuf::new(entry.path()) else { continue };
        for target in locations_with(resolver, &link) {
            let t = target.as_path();
            if !t.starts_with(folder.as_path()) && !root.as_path().starts_with(t) {
                out.push(target);
            }
        }
    }
    out.sort();
    out
}

/// One place's expected files (under one project root, or outside every project) as
/// protected paths and folder patterns, resolved the first time a protected set holding the
/// place is read, and shared by every later set that keeps the place.
#[derive(Debug, Default)]
pub(crate) struct ExpectedPlace(OnceLock<(Vec<ProtectedPath>, Vec<ProtectedPattern>)>);

impl ExpectedPlace {
    /// The place's files and folders, once resolved.
    fn resolved(&self) -> Option<(&[ProtectedPath], &[ProtectedPattern])> {
        self.0.get().map(|(p, f)| (p.as_slice(), f.as_slice()))
    }
}

/// The expected files of one protected set, by place: outside every project and under each
/// known root (sorted). Places are shared between sets, so a set resolves only the places no
/// earlier set resolved: a new root's, and those something changed at since
/// ([`ExpectedCache`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct ExpectedPlaces {
    expected: Arc<ExpectedFiles>,
    fixed: Arc<ExpectedPlace>,
    roots: Arc<Vec<(AbsPathBuf, Arc<ExpectedPlace>)>>,
}

impl ExpectedPlaces {
    /// `expected` under `roots` and outside them, nothing resolved yet.
    #[cfg(test)]
    pub(crate) fn fresh<'a>(
        expected: &ExpectedFiles,
        roots: impl IntoIterator<Item = &'a AbsPathBuf>,
    ) -> ExpectedPlaces {
        ExpectedPlaces {
            expected: Arc::new(expected.clone()),
            fixed: Arc::default(),
            roots: Arc::new(roots.into_iter().map(|r| (r.clone(), Arc::default())).collect()),
        }
    }

    /// The files under each root then the fixed files; the fixed folders then the folders
    /// under each root (the order [`ExpectedFiles::protect_with`] gives); and how many places
    /// were resolved now. The places not resolved yet share one resolver.
    fn resolve(&self) -> (Vec<ProtectedPath>, Vec<ProtectedPattern>, usize) {
        let mut resolver = Resolver::default();
        let mut fresh = 0;
        let mut at = |place: &ExpectedPlace, root: Option<&AbsPathBuf>| {
            place.0.get_or_init(|| {
                fresh += 1;
                self.expected.protect_place(root, &mut resolver)
            });
        };
        for (root, place) in self.roots.iter() {
            at(place, Some(root));
        }
        at(&self.fixed, None);
        let roots: Vec<(&[ProtectedPath], &[ProtectedPattern])> =
            self.roots.iter().filter_map(|(_, place)| place.resolved()).collect();
        let (fixed_paths, fixed_folders) = self.fixed.resolved().unwrap_or((&[], &[]));
        let mut paths: Vec<ProtectedPath> =
            roots.iter().flat_map(|r| r.0.iter().cloned()).collect();
        paths.extend(fixed_paths.iter().cloned());
        let mut patterns = fixed_folders.to_vec();
        patterns.extend(roots.iter().flat_map(|r| r.1.iter().cloned()));
        // Whether a linked folder holds a root depends on every root: they are placed anew
        // for each set (there are few).
        let roots: Vec<&AbsPathBuf> = self.roots.iter().map(|(r, _)| r).collect();
        patterns.extend(self.expected.linked_patterns(&roots, &mut resolver));
        (paths, patterns, fresh)
    }
}

/// The registry's expected files by place, kept between publishes: a place is resolved
/// again only after something changed there (a source under that root, or outside every
/// project, was loaded, removed or found elsewhere) or the expected files changed, and a
/// new root's place is resolved when first read (`specs/registry.md`, "Protected paths").
///
/// The places under roots follow the registry's roots one by one as they come and go
/// ([`ExpectedCache::root_added`], [`ExpectedCache::root_removed`]), sorted like them, so a
/// protected set takes them without looking any root up. The list is shared with the sets
/// and copied only when a root comes or goes or a place already resolved must be resolved
/// again (a place no set resolved yet is as good as a fresh one).
#[derive(Debug, Default)]
pub(crate) struct ExpectedCache(ExpectedPlaces);

impl ExpectedCache {
    /// The expected files in effect.
    pub(crate) fn expected(&self) -> &ExpectedFiles {
        &self.0.expected
    }

    /// Replaces the expected files; every place is resolved again.
    pub(crate) fn set(&mut self, expected: ExpectedFiles) {
        self.0.expected = Arc::new(expected);
        self.changed_everywhere();
    }

    /// Something changed under `root` (`None`: outside every project): its place is
    /// resolved again.
    pub(crate) fn changed_at(&mut self, root: Option<&AbsPathBuf>) {
        match root {
            Some(root) => {
                let Ok(at) = self.0.roots.binary_search_by(|(r, _)| r.cmp(root)) else { return };
                if self.0.roots.get(at).is_some_and(|(_, place)| place.0.get().is_some())
                    && let Some((_, place)) = Arc::make_mut(&mut self.0.roots).get_mut(at)
                {
                    *place = Arc::default();
                }
            }
            None => self.0.fixed = Arc::default(),
        }
    }

    /// Every place is resolved again.
    pub(crate) fn changed_everywhere(&mut self) {
        self.0.fixed = Arc::default();
        if self.0.roots.iter().any(|(_, place)| place.0.get().is_some()) {
            for (_, place) in Arc::make_mut(&mut self.0.roots).iter_mut() {
                *place = Arc::default();
            }
        }
    }

    /// A root came: its place, to resolve.
    pub(crate) fn root_added(&mut self, root: &AbsPathBuf) {
        if let Err(at) = self.0.roots.binary_search_by(|(r, _)| r.cmp(root)) {
            Arc::make_mut(&mut self.0.roots).insert(at, (root.clone(), Arc::default()));
        }
    }

    /// A root went, and its place with it.
    pub(crate) fn root_removed(&mut self, root: &AbsPathBuf) {
        if let Ok(at) = self.0.roots.binary_search_by(|(r, _)| r.cmp(root)) {
            Arc::make_mut(&mut self.0.roots).remove(at);
        }
    }

    /// The roots are `roots` (sorted) from now on: the places of those that stay are kept.
    pub(crate) fn set_roots<'a>(&mut self, roots: impl Iterator<Item = &'a AbsPathBuf>) {
        let before = std::mem::take(&mut self.0.roots);
        let roots = roots
            .map(|root| {
                let kept = before.binary_search_by(|(r, _)| r.cmp(root)).ok();
                let place = kept.and_then(|at| before.get(at)).map(|(_, p)| p.clone());
                (root.clone(), place.unwrap_or_default())
            })
            .collect();
        self.0.roots = Arc::new(roots);
    }

    /// The places of a protected set: those kept shared, the others fresh.
    pub(crate) fn places(&self) -> ExpectedPlaces {
        self.0.clone()
    }
}

/// The user's directories the registry reads hooks' commands with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserPaths {
    /// The user's home (`~`, `$HOME`).
    pub home: Option<AbsPathBuf>,
    /// The user's configuration directory (Chrys's `${chrys_home}`).
    pub config_dir: Option<AbsPathBuf>,
    /// The folders of the `PATH` hooks run with (the agent's, which the engine inherits), in
    /// order: where an interpreter a hook runs by name is found, whose installation is then
    /// protected ([`crate::CommandAnalysis::programs_on_path`]). Empty: nothing is
    /// looked up.
    pub program_path: Vec<AbsPathBuf>,
    /// The home ssh reads its user's files from (`~/.ssh/config`), when it is not
    /// [`UserPaths::home`]: ssh takes it from the password database, whatever `$HOME` says
    /// (OpenSSH's `pw_dir`), so an agent run with another `$HOME` would otherwise leave
    /// ssh's configuration out of the protection. `None`: the same as `home`.
    pub ssh_home: Option<AbsPathBuf>,
    /// The directories the caller knows the session runs in (a bridged event's, `hooks
    /// guard --cwd`): a hook its format runs in the session's directory (a user's Claude Code
    /// hook) has what it names there protected as exact paths in each of them too, so that
    /// what its programs read there is read as for a project's hook (a repository's
    /// `.git/config`, what it includes and has git run, its hooks, what lies above: findings
    /// F53, F56, F57, F60). Empty: such names are patterns the guard resolves against the
    /// session's directory at each check, and nothing is read there.
    pub session_dirs: Vec<AbsPathBuf>,
    /// The TypeScript configurations the hooks' runners take in place of the nearest
    /// `tsconfig.json` (the files `TSX_TSCONFIG_PATH` and `TS_NODE_PROJECT` name, finding
    /// F137): a TypeScript script's bare imports are read through their `paths` and
    /// `baseUrl` too. Empty: only the nearest `tsconfig.json` is read.
    pub typescript_configs: Vec<AbsPathBuf>,
    /// The folders the environment's `PYTHONPATH` adds to Python's module search path relative
    /// to where Python starts (`PYTHONPATH=src`; an empty entry is that folder itself, an
    /// empty path here), as written: a Python hook's absolute imports are looked for there
    /// too, from each hook's run folder (finding F140). Absolute entries are protected whole by
    /// the caller instead.
    pub python_path: Vec<PathBuf>,
    /// The relative folders of the environment's `NODE_PATH`, where `require` looks for a
    /// package after the `node_modules` folders, from where Node starts (finding F141): as
    /// [`UserPaths::python_path`]'s for a JavaScript hook's packages.
    pub node_path: Vec<PathBuf>,
    /// The relative folders of the environment's `RUBYLIB`, on Ruby's load path from where
    /// Ruby starts: as [`UserPaths::python_path`]'s for a Ruby hook's `require`s (finding
    /// F142).
    pub ruby_lib: Vec<PathBuf>,
    /// The relative folders of the environment's `PERL5LIB` (or `PERLLIB`), in `@INC` from
    /// where Perl starts: as [`UserPaths::python_path`]'s for a Perl hook's modules (finding
    /// F143).
    pub perl_lib: Vec<PathBuf>,
    /// What the environment's variables name by a relative path, which each hook's program
    /// takes from where the hook runs (`BASH_ENV=.bashenv`, `NODE_OPTIONS="--require
    /// ./pre.js"`, `RIPGREP_CONFIG_PATH=.ripgreprc`: finding F145): protected under each
    /// hook's run folder, existing or not. Absolute values are protected whole by the caller;
    /// ripgrep's configuration is given here whatever its path, for the relative programs and
    /// files it names, which ripgrep takes from where it runs.
    pub run_relative: Vec<RunRelative>,
}

/// A file or folder a variable of the environment hooks inherit names by a relative path
/// ([`UserPaths::run_relative`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRelative {
    /// The path, as the variable gives it.
    pub path: PathBuf,
    /// What the program reads there.
    pub kind: RunRelativeKind,
}

/// What a program reads at a [`RunRelative`] path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunRelativeKind {
    /// A file it loads or reads as configuration (`BASH_ENV`, `NODE_OPTIONS`' `--require`,
    /// `PYLINTRC`): protected.
    File,
    /// A folder it loads code from (`PYTHONPYCACHEPREFIX`, `BLACK_CACHE_DIR`): protected whole.
    Folder,
    /// ripgrep's configuration: protected, with the programs its `--pre` options run and the
    /// files its `--ignore-file` options read ([`crate::ripgrep_config_files`]).
    RipgrepConfig,
    /// A TypeScript configuration tsx or ts-node reads in the nearest one's place: protected,
    /// with its `extends` chain and ts-node's `require`d modules
    /// ([`crate::typescript_config_files`]).
    TypescriptConfig,
}

/// Where a hook's paths start from once its launch is placed: one directory, or any folder
/// under a scope (with a path prefix below it).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Loc {
    Dir(AbsPathBuf),
    Any { scope: AbsPathBuf, prefix: PathBuf, session: bool },
}

/// What the registry knows about where a source's hooks are placed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed<'a> {
    /// The directory the registry places the source in.
    pub working_dir: &'a AbsPathBuf,
    /// The project root, for a project source.
    pub project_root: Option<&'a AbsPathBuf>,
    /// The user's home, for `~` and `$HOME`.
    pub home: Option<&'a AbsPathBuf>,
    /// The user's configuration directory (Chrys's `${chrys_home}`).
    pub config_dir: Option<&'a AbsPathBuf>,
    /// The folders of the hooks' `PATH` ([`UserPaths::program_path`]).
    pub program_path: &'a [AbsPathBuf],
    /// Where ssh finds `~/.ssh` when it is not `home` ([`UserPaths::ssh_home`]).
    pub ssh_home: Option<&'a AbsPathBuf>,
    /// The directories the session runs in, when known ([`UserPaths::session_dirs`]).
    pub session_dirs: &'a [AbsPathBuf],
    /// The TypeScript configurations the environment names ([`UserPaths::typescript_configs`]).
    pub typescript_configs: &'a [AbsPathBuf],
    /// The environment's relative `PYTHONPATH` folders ([`UserPaths::python_path`]).
    pub python_path: &'a [PathBuf],
    /// The environment's relative `NODE_PATH` folders ([`UserPaths::node_path`]).
    pub node_path: &'a [PathBuf],
    /// The environment's relative `RUBYLIB` folders ([`UserPaths::ruby_lib`]).
    pub ruby_lib: &'a [PathBuf],
    /// The environment's relative `PERL5LIB` folders ([`UserPaths::perl_lib`]).
    pub perl_lib: &'a [PathBuf],
    /// What the environment names from each hook's run folder ([`UserPaths::run_relative`]).
    pub run_relative: &'a [RunRelative],
}

/// The files one definition runs or reads, placed: exact paths, patterns, and why the
/// analysis is not sure (empty when it is).
#[derive(Debug, Default)]
pub(crate) struct DefinitionProtection {
    pub paths: Vec<AbsPathBuf>,
    pub patterns: Vec<(AbsPathBuf, PathBuf, Option<PathBuf>)>,
    /// Python modules whose other forms are protected ([`PathRole::Compiled`],
    /// [`ProtectedPattern::stem`]): (scope, the module's name or its path under any folder
    /// of the scope, whether under any folder).
    pub stems: Vec<(AbsPathBuf, PathBuf, bool)>,
    pub uncertain: Vec<String>,
    /// The command names a path relative to the directory it runs in, and the format runs
    /// it in the session's directory: for a source outside every project, that would be a
    /// repository's copy.
    pub session_relative: bool,
    /// The files the hook's `ssh -F` (`scp`, `sftp`) lines name where they are known
    /// ([`crate::scripts::CommandAnalysis::ssh_configs`]), for
    /// [`protect_ssh_configuration`] to read.
    pub ssh_configs: Vec<AbsPathBuf>,
    /// The files the hook's lines have git read as configuration whatever their names
    /// ([`crate::scripts::CommandAnalysis::git_configs`]), for [`protect_git_configuration`]
    /// to read.
    pub git_configs: Vec<AbsPathBuf>,
    /// The hooks folders the hook's lines give git
    /// ([`crate::scripts::CommandAnalysis::git_hooks_folders`]), for
    /// [`protect_git_configuration`] to read for hook managers.
    pub git_hooks_folders: Vec<AbsPathBuf>,
    /// The recipe files and manifests the hook's lines have a task runner or a package
    /// manager read, with the targets they name ([`crate::scripts::CommandAnalysis::recipes`]),
    /// for [`protect_recipes`] to read.
    pub recipes: Vec<(AbsPathBuf, String, Vec<String>)>,
    /// The folders where the hook's lines run a Node.js linter or formatter, with the tool
    /// ([`crate::scripts::CommandAnalysis::node_tool_folders`]), for
    /// [`protect_config_imports`] to read its configurations there and above.
    pub node_tool_folders: Vec<(AbsPathBuf, &'static str)>,
    /// The JavaScript configurations a hook's line names to a Node.js tool by its option, and
    /// those a package manager's configuration names (`pnpm-workspace.yaml`'s `pnpmfile`),
    /// with the tool ([`crate::scripts::CommandAnalysis::node_tool_files`]), for
    /// [`protect_config_imports`] to read (finding F107).
    pub node_tool_files: Vec<(AbsPathBuf, &'static str)>,
    /// The TypeScript configurations a hook's line gives its runner by an option
    /// ([`crate::scripts::CommandAnalysis::typescript_configs`]), for [`protect_sourced`] to
    /// read its TypeScript scripts' imports through and protect what they name (F138).
    pub typescript_configs: Vec<AbsPathBuf>,
}

/// Notes in `out` the files and folders `analysis` has ssh and git read whatever their names
/// (`ssh -F`, finding F67; `GIT_CONFIG_GLOBAL=…`, `git -c include.path=…`, `-c
/// core.hooksPath=…`, finding F69) where `locs_of` places them in one folder, for
/// [`protect_ssh_configuration`] and [`protect_git_configuration`] to read. One placed
/// under any folder is protected by name, and read nowhere.
fn note_read_files(
    out: &mut DefinitionProtection,
    analysis: &CommandAnalysis,
    locs_of: impl Fn(&NamedPath) -> Option<Vec<Loc>>,
) {
    // `CommandAnalysis::read_as_configuration`, each list to its own.
    let lists = [
        (&analysis.ssh_configs, &mut out.ssh_configs),
        (&analysis.git_configs, &mut out.git_configs),
        (&analysis.git_hooks_folders, &mut out.git_hooks_folders),
        (&analysis.typescript_configs, &mut out.typescript_configs),
    ];
    for (named_list, found) in lists {
        for named in named_list {
            for full in exact_places(named, &locs_of) {
                if !found.contains(&full) {
                    found.push(full);
                }
            }
        }
    }
    for run in &analysis.recipes {
        for full in exact_places(&run.file, &locs_of) {
            note_recipe(out, full, &run.program, &run.targets);
        }
    }
    // The Node.js tools' folders and named configurations, each list to its own.
    let lists = [
        (&analysis.node_tool_folders, &mut out.node_tool_folders),
        (&analysis.node_tool_files, &mut out.node_tool_files),
    ];
    for (named_list, found) in lists {
        for (named, tool) in named_list {
            for full in exact_places(named, &locs_of) {
                if !found.contains(&(full.clone(), *tool)) {
                    found.push((full, tool));
                }
            }
        }
    }
}

/// Notes in `out` that `program` reads the recipe file `file` for `targets`, for
/// [`protect_recipes`]: with the targets noted for the same file and program before.
fn note_recipe(
    out: &mut DefinitionProtection,
    file: AbsPathBuf,
    program: &str,
    targets: &[String],
) {
    let same = |(f, p, _): &&mut (AbsPathBuf, String, Vec<String>)| *f == file && p == program;
    match out.recipes.iter_mut().find(same) {
        Some((.., noted)) => {
            for target in targets {
                if !noted.contains(target) {
                    noted.push(target.clone());
                }
            }
        }
        None => out.recipes.push((file, program.to_owned(), targets.to_vec())),
    }
}

/// Where `locs_of` places `named` in one folder (not under any folder).
fn exact_places(
    named: &NamedPath,
    locs_of: &impl Fn(&NamedPath) -> Option<Vec<Loc>>,
) -> Vec<AbsPathBuf> {
    let mut out = Vec::new();
    for loc in locs_of(named).unwrap_or_default() {
        let Loc::Dir(dir) = loc else { continue };
        let Ok(full) = dir.join(&named.path) else { continue };
        out.push(normalize_abs(&full));
    }
    out
}

/// Whether `dir` is the session's directory or under it.
fn in_session(dir: &LaunchDir) -> bool {
    match dir {
        LaunchDir::Session => true,
        LaunchDir::Under(base, _) => in_session(base),
        LaunchDir::Placement
        | LaunchDir::Project
        | LaunchDir::Config
        | LaunchDir::Fixed(_)
        | LaunchDir::Unknown => false,
    }
}

fn root() -> AbsPathBuf {
    AbsPathBuf::new(PathBuf::from(std::path::MAIN_SEPARATOR_STR)).unwrap_or_else(|_| {
        // Unreachable: the separator alone is an absolute path on every platform we build.
        AbsPathBuf::new(std::env::temp_dir()).expect("an absolute temp dir")
    })
}

/// Where a path named from the user's home is: the home, or any folder when it is unknown.
fn home_loc(home: Option<&AbsPathBuf>) -> Loc {
    match home {
        Some(home) => Loc::Dir(home.clone()),
        None => any(root(), false),
    }
}

fn any(scope: AbsPathBuf, session: bool) -> Loc {
    Loc::Any { scope, prefix: PathBuf::new(), session }
}

/// Where `dir` may be for a hook placed as `placed`.
fn locate(dir: &LaunchDir, placed: Placed<'_>) -> Vec<Loc> {
    match dir {
        LaunchDir::Placement => vec![Loc::Dir(placed.working_dir.clone())],
        LaunchDir::Project => match placed.project_root {
            Some(r) => vec![Loc::Dir(r.clone())],
            // A hook of the user's runs for any project, or in its own folder outside one.
            None => vec![any(root(), false), Loc::Dir(placed.working_dir.clone())],
        },
        LaunchDir::Session => {
            let (scope, mut locs) = match placed.project_root {
                Some(r) => (r, vec![any(r.clone(), true), Loc::Dir(r.clone())]),
                None => {
                    let here = Loc::Dir(placed.working_dir.clone());
                    (&root(), vec![any(root(), true), here])
                }
            };
            // The session's directories the caller knows, under the scope.
            for dir in placed.session_dirs.iter().filter(|d| d.as_path().starts_with(scope)) {
                let dir = Loc::Dir(dir.clone());
                if !locs.contains(&dir) {
                    locs.push(dir);
                }
            }
            locs
        }
        LaunchDir::Config => match placed.config_dir {
            Some(d) => vec![Loc::Dir(d.clone())],
            None => vec![any(root(), false)],
        },
        LaunchDir::Fixed(p) => match AbsPathBuf::new(p.clone()) {
            Ok(p) => vec![Loc::Dir(p)],
            Err(_) => vec![any(root(), false)],
        },
        LaunchDir::Under(base, rel) => locate(base, placed)
            .into_iter()
            .map(|loc| match loc {
                Loc::Dir(d) => {
                    d.join(rel).map_or_else(|_| any(root(), false), |p| Loc::Dir(normalize_abs(&p)))
                }
                Loc::Any { scope, prefix, session } => {
                    Loc::Any { scope, prefix: prefix.join(rel), session }
                }
            })
            .collect(),
        LaunchDir::Unknown => vec![any(root(), false)],
    }
}

fn normalize_abs(p: &AbsPathBuf) -> AbsPathBuf {
    crate::paths::normalize_absolute(p.as_path()).unwrap_or_else(|| p.clone())
}

/// Where a source's hooks are placed, for [`definition_files`]: what the registry knows when
/// it binds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The directory the hooks are placed in: the project root for a project file, the
    /// file's folder otherwise.
    pub working_dir: AbsPathBuf,
    /// The project root, for a project file.
    pub project_root: Option<AbsPathBuf>,
    /// The user's directories.
    pub user: UserPaths,
}

/// The files a definition runs or loads, placed as the registry places it (the same analysis
/// and placement as the guard's protection, restricted to the roles asked for).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DefinitionFiles {
    /// Files at one known path (a dangling symlink gives the link and where it points).
    pub paths: Vec<AbsPathBuf>,
    /// Folders every file under which counts ([`PathRole::Tree`]).
    pub folders: Vec<AbsPathBuf>,
    /// Files named relative to the session's directory: the path under the session's
    /// directory (the copy in [`DefinitionFiles::paths`] is the one at the placement).
    pub session_relative: Vec<PathBuf>,
    /// Files that can only be named by their last components, under a scope (a directory
    /// the command does not name).
    pub unplaced: Vec<(AbsPathBuf, PathBuf)>,
    /// Why the analysis is not sure it found every file (empty when it is).
    pub uncertain: Vec<String>,
}

/// The files `def` runs or loads in one of `roles`, placed as `placement`: the guard's command
/// analysis ([`crate::analyse`]) with the format's launch ([`hooks_schema::HookCodec::launch`]),
/// placed exactly as the registry places the definition (a hook outside every project that
/// names a script relative to the session's directory runs in its own folder). The trust store
/// pins these files' contents. No file is read unless `roles` holds [`PathRole::Sourced`]:
/// then the scripts the command runs are read for what they source, run or import.
pub fn definition_files(
    def: &HookDefinition,
    placement: &Placement,
    roles: &[PathRole],
) -> DefinitionFiles {
    let placed = Placed {
        working_dir: &placement.working_dir,
        project_root: placement.project_root.as_ref(),
        home: placement.user.home.as_ref(),
        config_dir: placement.user.config_dir.as_ref(),
        program_path: &placement.user.program_path,
        ssh_home: placement.user.ssh_home.as_ref(),
        session_dirs: &placement.user.session_dirs,
        typescript_configs: &placement.user.typescript_configs,
        python_path: &placement.user.python_path,
        node_path: &placement.user.node_path,
        ruby_lib: &placement.user.ruby_lib,
        perl_lib: &placement.user.perl_lib,
        run_relative: &placement.user.run_relative,
    };
    let keep = |role: PathRole| roles.contains(&role);
    let mut resolver = Resolver::default();
    let mut found = protect_definition_roles(&Analysed::of(def), placed, &keep, &mut resolver);
    if placement.project_root.is_none() && found.session_relative {
        let mut relocated = def.clone();
        relocated.cwd = Some(placement.working_dir.as_path().display().to_string());
        found = protect_definition_roles(&Analysed::of(&relocated), placed, &keep, &mut resolver);
    }
    let mut out = DefinitionFiles { uncertain: found.uncertain, ..Default::default() };
    out.paths = found.paths;
    for (scope, tail, session) in found.patterns {
        match session {
            Some(rel) => out.session_relative.push(rel),
            None if tail.as_os_str().is_empty() => out.folders.push(scope),
            None => out.unplaced.push((scope, tail)),
        }
    }
    out.session_relative.sort();
    out.session_relative.dedup();
    out
}

/// A definition's command analysis with its format's launch: what its protection is made
/// from apart from where it is placed and what the file system holds. A pure function of
/// the definition, so a reload that leaves a definition as it was keeps it (the command is
/// not analysed again; its paths are resolved again).
#[derive(Debug)]
pub(crate) struct Analysed {
    launch: HookLaunch,
    analysis: CommandAnalysis,
}

#[cfg(test)]
thread_local! {
    /// How many definitions this thread analysed (for tests).
    pub(crate) static ANALYSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Analysed {
    /// Analyses `def`'s command with its format's launch.
    pub(crate) fn of(def: &HookDefinition) -> Analysed {
        #[cfg(test)]
        ANALYSED.with(|n| n.set(n.get() + 1));
        let launch = def.codec.launch(def);
        let templates: Vec<String> = launch.argv_templates.iter().map(|(t, _)| t.clone()).collect();
        let analysis = analyse_with_templates(&def.command, &templates);
        Analysed { launch, analysis }
    }
}

/// The files `def`'s command runs or reads, placed as `placed` (see [`crate::scripts`] for
/// the analysis and `specs/guard.md` for the rules), the paths resolved through `resolver`;
/// `analysed` is `def`'s [`Analysed`].
pub(crate) fn protect_definition(
    analysed: &Analysed,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) -> DefinitionProtection {
    protect_definition_roles(analysed, placed, &|_| true, resolver)
}

/// What [`protect_definition`] finds of `analysed` without reading anything, for a registry
/// that computes no protection (`HookRegistry::set_protection`): whether its command names
/// a path relative to a directory that is the session's (which places the hook), and the
/// analysis's own doubts; no path.
pub(crate) fn unprotected(analysed: &Analysed) -> DefinitionProtection {
    let Analysed { launch, analysis } = analysed;
    DefinitionProtection {
        uncertain: analysis.uncertain.clone(),
        session_relative: session_relative(launch, analysis),
        ..Default::default()
    }
}

/// Whether `analysis` names a path relative to the directory the hook runs in, and `launch`
/// runs it in the session's directory.
fn session_relative(launch: &HookLaunch, analysis: &CommandAnalysis) -> bool {
    in_session(&launch.run_dir) && analysis.paths.iter().any(|p| p.base == PathBase::RunDir)
}

/// [`protect_definition`] for the named paths whose role `keep` accepts.
fn protect_definition_roles(
    analysed: &Analysed,
    placed: Placed<'_>,
    keep: &dyn Fn(PathRole) -> bool,
    resolver: &mut Resolver,
) -> DefinitionProtection {
    let Analysed { launch, analysis } = analysed;
    let mut out =
        DefinitionProtection { uncertain: analysis.uncertain.clone(), ..Default::default() };
    out.session_relative = session_relative(launch, analysis);
    // The scripts the command runs, whose own text says what else they run (`. ./lib.sh`):
    // read when the caller keeps that role (the guard's protection, what `hooks trust` pins).
    let read_scripts = keep(PathRole::Sourced);
    let mut ran = Ran::default();
    for named in analysis.paths.iter().filter(|p| keep(p.role)) {
        let Some(locs) = locs_of(named, launch, placed, Some(&mut out.uncertain)) else {
            continue;
        };
        protect_named_at(&mut out, named, &locs, &mut ran, resolver);
    }
    if keep(PathRole::Argument) {
        note_read_files(&mut out, analysis, |named| locs_of(named, launch, placed, None));
    }
    let Ran { scripts, modules, mut interpreters } = ran;
    // The files the agent reads to complete the command (Gemini CLI's workspace `.env` for an
    // extension's `${NAME}`): protected as what an option loads.
    if keep(PathRole::Loaded) {
        for (rel, dir) in &launch.reads {
            for loc in &locate(dir, placed) {
                protect_at(&mut out, loc, Path::new(rel), PathRole::Loaded, resolver);
            }
        }
    }
    // What the environment's variables name from where the hook runs (F145).
    if keep(PathRole::Argument) {
        protect_run_relative(&mut out, &locate(&launch.run_dir, placed), placed, resolver);
    }
    // What the agent loads into every hook's environment (Gemini CLI's `.env`, finding
    // F125): where it would be found, from the directory given up, and under the home.
    if keep(PathRole::Argument) {
        for (rel, dir) in &launch.environment {
            match rel.strip_prefix("~/") {
                Some(home_rel) => {
                    let loc = home_loc(placed.home);
                    protect_at(&mut out, &loc, Path::new(home_rel), PathRole::Argument, resolver);
                }
                None => protect_nearest(&mut out, [rel.as_str()], &locate(dir, placed), resolver),
            }
        }
    }
    if keep(PathRole::Modules) {
        interpreters.extend(
            analysis
                .programs_on_path
                .iter()
                .filter_map(|name| crate::installations::find_program(name, placed.program_path)),
        );
        let runs_in = locate(&launch.run_dir, placed);
        for interpreter in &interpreters {
            protect_installation(&mut out, interpreter, placed, resolver);
            protect_version_files(&mut out, interpreter, &runs_in, placed, resolver);
        }
    }
    if read_scripts {
        let line_search = &analysis.search_folders;
        protect_sourced(&mut out, scripts, modules, line_search, launch, placed, resolver);
        if keep(PathRole::Argument) {
            protect_recipes(&mut out, launch, placed, resolver);
            protect_tool_plugins(&mut out, resolver);
            protect_config_imports(&mut out, placed.home, resolver);
            protect_git_configuration(&mut out, launch, placed, resolver);
            protect_ssh_configuration(&mut out, launch, placed, resolver);
        }
    }
    out.paths.sort();
    out.paths.dedup();
    out.patterns.sort();
    out.patterns.dedup();
    out.stems.sort();
    out.stems.dedup();
    out.uncertain.sort();
    out.uncertain.dedup();
    out
}

/// What the paths a command line names run, found while they are protected
/// ([`protect_named_at`]).
#[derive(Debug, Default)]
struct Ran {
    /// The programs and scripts it runs from a known folder, whose own text says what else
    /// they load (`. ./lib.sh`).
    scripts: Vec<AbsPathBuf>,
    /// The modules `python -m` runs (and the packages it imports on the way), with the folder
    /// Python finds them from, the first on its module search path: where the modules'
    /// absolute imports are found too (F117).
    modules: Vec<(AbsPathBuf, AbsPathBuf)>,
    /// The interpreters it runs by a path: what each starts from is found on the file system
    /// (F47).
    interpreters: Vec<PathBuf>,
}

/// Protects what `named` names from each of `locs` ([`protect_named`]) and notes in `ran`,
/// where the folder is known, the program or script it runs and the interpreter it is.
fn protect_named_at(
    out: &mut DefinitionProtection,
    named: &NamedPath,
    locs: &[Loc],
    ran: &mut Ran,
    resolver: &mut Resolver,
) {
    for loc in locs {
        protect_named(out, loc, named, resolver);
        let Loc::Dir(dir) = loc else { continue };
        let Ok(full) = dir.join(&named.path) else { continue };
        if matches!(named.role, PathRole::Program | PathRole::Script) {
            ran.scripts.push(normalize_abs(&full));
        }
        if named.role == PathRole::Module {
            ran.modules.push((normalize_abs(&full), dir.clone()));
        }
        if named.role == PathRole::Program
            && (named.path.file_name().and_then(|n| n.to_str())).is_some_and(installation_matters)
        {
            ran.interpreters.push(normalize_abs(&full).into_path_buf());
        }
    }
}

/// Where the paths starting from `named`'s base may be for a hook launched as `launch` and
/// placed as `placed`; `None` for a path that names nothing (a relative path from the root).
/// A variable the format does not set is noted in `uncertain` when given.
fn locs_of(
    named: &NamedPath,
    launch: &HookLaunch,
    placed: Placed<'_>,
    uncertain: Option<&mut Vec<String>>,
) -> Option<Vec<Loc>> {
    Some(match &named.base {
        PathBase::Root => {
            if !named.path.is_absolute() {
                return None;
            }
            vec![Loc::Dir(root())]
        }
        PathBase::RunDir => locate(&launch.run_dir, placed),
        PathBase::Home => {
            let mut locs = vec![home_loc(placed.home)];
            // ssh's own files are where ssh takes the home from.
            if named.path.starts_with(".ssh")
                && let Some(ssh_home) = placed.ssh_home.filter(|s| Some(*s) != placed.home)
            {
                locs.push(Loc::Dir(ssh_home.clone()));
            }
            locs
        }
        PathBase::Var(name) => {
            match launch
                .var(name)
                .or_else(|| launch.argv_templates.iter().find(|(t, _)| t == name).map(|(_, d)| d))
            {
                Some(dir) => locate(dir, placed),
                None => {
                    if let Some(uncertain) = uncertain {
                        uncertain.push(format!("`${name}` is not set by the hook's format"));
                    }
                    vec![any(root(), false)]
                }
            }
        }
        PathBase::Unknown => vec![any(root(), false)],
    })
}

/// How many files one definition's scripts are read through: the scripts its command runs,
/// what they source or run by path, and theirs.
const MAX_SCRIPTS_READ: usize = 32;

/// How many folders the lines of one definition and of its scripts add to their interpreters'
/// search paths are searched for the scripts' imports.
const MAX_SEARCH_FOLDERS: usize = 32;

/// How many levels of scripts sourcing scripts are followed.
const MAX_SCRIPT_DEPTH: u32 = 4;

/// How much of a script is read (a hook script is a few KiB; what lies beyond is not read).
const SCRIPT_READ_CAP: u64 = 256 * 1024;

/// How much of a file is read to tell whether it is a shell script (its `#!` line).
const SCRIPT_HEAD: u64 = 512;

/// Protects what the scripts among `scripts` (the files a definition's command runs) load,
/// as their own text says: what a shell script sources or runs by path
/// ([`crate::scripts::analyse_script_text`]), the local modules a Python or JavaScript script
/// imports ([`crate::imports::local_imports`]); and what those load in turn: an agent that
/// may not edit `gate.sh` must not edit the `lib.sh` it sources either (`specs/guard.md`).
/// Read once per file, at most [`MAX_SCRIPTS_READ`] files and [`MAX_SCRIPT_DEPTH`] levels,
/// [`SCRIPT_READ_CAP`] bytes each; what cannot be read (a missing file, a folder, another
/// program) adds nothing. The analysis's doubts are not reported: a script is full of
/// constructs a command line rarely has, and the hook's command line is what `hooks list`
/// describes. Where a cap stops the reading, a note says so (the files beyond it are neither
/// protected nor pinned by `hooks trust`).
fn protect_sourced(
    out: &mut DefinitionProtection,
    scripts: Vec<AbsPathBuf>,
    modules: Vec<(AbsPathBuf, AbsPathBuf)>,
    line_search: &[(crate::imports::Language, NamedPath)],
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    // (the file, its depth, the folder of the script it was reached from: what `$0` names in
    // a file that is sourced; for a Python module, the folder first on Python's module search
    // path, where its absolute imports are found: the script's own for a script, the one it
    // runs in for `python -m`'s module)
    type Queued = (AbsPathBuf, u32, Option<PathBuf>, Option<PathBuf>);
    let mut queue: std::collections::VecDeque<Queued> = scripts
        .into_iter()
        .map(|s| (s, 0, None, None))
        .chain(modules.into_iter().map(|(m, from)| (m, 0, None, Some(from.into_path_buf()))))
        .collect();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    // The search paths the hook's line sets, and those its shell scripts' lines set for the
    // programs they run (F144).
    let mut line_search = line_search.to_vec();
    // Where the scripts run: the hook's folder, which they inherit.
    let runs_in = locate(&launch.run_dir, placed);
    while let Some((script, depth, caller_dir, first_dir)) = queue.pop_front() {
        if seen.len() >= MAX_SCRIPTS_READ {
            if !seen.contains(script.as_path()) {
                out.uncertain.push(format!(
                    "its scripts load more than {MAX_SCRIPTS_READ} files; what the rest load is neither protected nor pinned"
                ));
            }
            break;
        }
        let Some(read) = read_script(script.as_path()) else { continue };
        if !seen.insert(read.path.clone()) {
            continue;
        }
        if read.truncated {
            out.uncertain.push(format!(
                "`{}` is larger than {} KiB; what it loads past that is neither protected nor pinned",
                read.path.display(),
                SCRIPT_READ_CAP / 1024
            ));
        }
        let own_dir = read.path.parent().map(Path::to_path_buf);
        let mut named = Vec::new();
        // Where the absolute imports of the modules it imports are found.
        let mut imports_from: Option<PathBuf> = None;
        match read.language {
            ScriptLanguage::Shell => {
                let mut dirs = vec![own_dir.clone()];
                if caller_dir.is_some() && caller_dir != own_dir {
                    dirs.push(caller_dir.clone());
                }
                // The interpreters its lines run by name are the same from either folder:
                // each is looked up on `PATH` once.
                let mut interpreters = std::collections::BTreeSet::new();
                for dir in dirs {
                    let analysis = crate::scripts::analyse_script_text(&read.text, dir.as_deref());
                    // What its lines have ssh, git and task runners read whatever the names.
                    note_read_files(out, &analysis, |n| locs_of(n, launch, placed, None));
                    named.extend(analysis.paths);
                    for folder in analysis.search_folders {
                        if !line_search.contains(&folder) && line_search.len() < MAX_SEARCH_FOLDERS
                        {
                            line_search.push(folder);
                        }
                    }
                    interpreters.extend(analysis.programs_on_path);
                }
                for name in &interpreters {
                    if let Some(program) =
                        crate::installations::find_program(name, placed.program_path)
                    {
                        protect_installation(out, &program, placed, resolver);
                        protect_version_files(out, &program, &runs_in, placed, resolver);
                    }
                }
            }
            ScriptLanguage::Other(language) => {
                if let (Some(dir), Some(language)) = (&own_dir, language) {
                    let first = first_dir.clone().unwrap_or_else(|| dir.clone());
                    // The environment's relative `PYTHONPATH` folders, from where the hook runs
                    // (F140), its relative `NODE_PATH` (F141), `RUBYLIB` (F142) and
                    // `PERL5LIB` (F143) folders.
                    let folders = match language {
                        crate::imports::Language::Python => placed.python_path,
                        crate::imports::Language::JavaScript => placed.node_path,
                        crate::imports::Language::Ruby => placed.ruby_lib,
                        crate::imports::Language::Perl => placed.perl_lib,
                    };
                    // And the folders the hook's line adds (F144).
                    let searched: Vec<(PathBase, PathBuf)> = (folders.iter())
                        .map(|d| (PathBase::RunDir, d.clone()))
                        .chain(
                            (line_search.iter())
                                .filter(|(l, _)| *l == language)
                                .map(|(_, f)| (f.base.clone(), f.path.clone())),
                        )
                        .collect();
                    named.extend(crate::imports::local_imports_from(
                        language, &read.text, dir, &first, &searched,
                    ));
                    if language == crate::imports::Language::Python {
                        imports_from = Some(first);
                    }
                    // A Ruby script that sets Bundler up has it evaluate the `Gemfile` found
                    // from where it runs, as `bundle exec` does (F146): what that line reads,
                    // from the hook's run folder.
                    if language == crate::imports::Language::Ruby
                        && crate::imports::sets_up_bundler(&read.text)
                    {
                        let bundle = analyse(&HookCommand::Shell {
                            script: "bundle exec ruby".to_owned(),
                            shell: None,
                        });
                        note_read_files(out, &bundle, |n| locs_of(n, launch, placed, None));
                        named.extend(bundle.paths);
                    }
                    if language == crate::imports::Language::JavaScript {
                        let mains = package_mains(&named);
                        named.extend(mains);
                        protect_module_type(out, &read.path, resolver);
                        // What its import maps send its specifiers to (F127, F128, F131),
                        // its import literals read once for all of them.
                        let literals = crate::imports::import_literals(&read.text);
                        let given = out.typescript_configs.clone();
                        named.extend(typescript_imports(
                            out, &read.path, &literals, &given, placed, resolver,
                        ));
                        named.extend(package_imports(out, &read.path, &literals, resolver));
                        named.extend(deno_imports(out, &read.path, &literals, resolver));
                    }
                }
                if read.starts_python {
                    // Run by its `#!` line, it starts from the user's site as `python3` does.
                    named.extend(crate::scripts::python_user_site());
                }
                // And from the installation its `#!` line names, by its path or by a name
                // `env` finds on `PATH`.
                let program = match read.interpreter.as_deref() {
                    Some(word) if word.starts_with('/') => Some(PathBuf::from(word)),
                    Some(name) => crate::installations::find_program(name, placed.program_path),
                    None => None,
                };
                if let Some(program) = program {
                    protect_installation(out, &program, placed, resolver);
                    protect_version_files(out, &program, &runs_in, placed, resolver);
                }
            }
        }
        for named in &named {
            let Some(locs) = locs_of(named, launch, placed, None) else { continue };
            for loc in &locs {
                protect_named(out, loc, named, resolver);
                if matches!(named.role, PathRole::Sourced | PathRole::Module)
                    && let Loc::Dir(base) = loc
                    && let Ok(full) = base.join(&named.path)
                {
                    let full = normalize_abs(&full);
                    if depth + 1 < MAX_SCRIPT_DEPTH {
                        let top = caller_dir.clone().or_else(|| own_dir.clone());
                        // A module a Python file imports is found as its importer's are; what
                        // a shell script's `python -m` runs, from where the script runs.
                        let first = match named.role {
                            PathRole::Module => Some(base.as_path().to_path_buf()),
                            _ => imports_from.clone(),
                        };
                        queue.push_back((full, depth + 1, top, first));
                    } else if full.as_path().is_file() {
                        out.uncertain.push(format!(
                            "its scripts load files more than {MAX_SCRIPT_DEPTH} levels deep (`{}`); what those load is neither protected nor pinned",
                            full.as_path().display()
                        ));
                    }
                }
            }
        }
    }
    // What the TypeScript configurations the hook's lines give their runners name: the
    // configurations their `extends` chains name and the modules ts-node's `require` entries
    // run first (F138), as the environment's are (F137).
    let given = out.typescript_configs.clone();
    for config in &given {
        for file in crate::toolconfig::typescript_config_files(config.as_path()) {
            protect_at(out, &Loc::Dir(root()), &file, PathRole::Loaded, resolver);
        }
    }
}

/// Protects what the environment's variables name by a relative path
/// ([`UserPaths::run_relative`]) in each of `runs_in`, the places a hook runs in, existing or
/// not, as an argument is (protected, not pinned: the environment is not the hook's); a
/// configuration that names more (ripgrep's, a TypeScript one) is read where the place is
/// known (anywhere for an absolute one), and what it names protected as a loaded file:
/// ripgrep's relative `--pre` programs and `--ignore-file` files from where it runs (F145).
fn protect_run_relative(
    out: &mut DefinitionProtection,
    runs_in: &[Loc],
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    for entry in placed.run_relative {
        let role = match entry.kind {
            RunRelativeKind::Folder => PathRole::Modules,
            _ => PathRole::Argument,
        };
        for loc in runs_in {
            if entry.path.is_relative() {
                protect_at(out, loc, &entry.path, role, resolver);
            }
            let full = match loc {
                _ if entry.path.is_absolute() => entry.path.clone(),
                Loc::Dir(dir) => match dir.join(&entry.path) {
                    Ok(full) => full.into_path_buf(),
                    Err(_) => continue,
                },
                Loc::Any { .. } => continue,
            };
            // (A program named without a folder is found on `PATH`, whose folders are
            // protected whole.)
            let named: Vec<PathBuf> = match entry.kind {
                RunRelativeKind::RipgrepConfig => {
                    let (programs, files) = crate::toolconfig::ripgrep_config_names(&full);
                    (programs.into_iter())
                        .filter(|p| p.is_absolute() || p.components().count() > 1)
                        .chain(files)
                        .collect()
                }
                RunRelativeKind::TypescriptConfig => crate::typescript_config_files(&full),
                RunRelativeKind::File | RunRelativeKind::Folder => continue,
            };
            for file in named {
                // A relative path is taken from where the program runs.
                let at = if file.is_absolute() { Loc::Dir(root()) } else { loc.clone() };
                protect_at(out, &at, &file, PathRole::Loaded, resolver);
            }
        }
    }
}

/// Protects the `package.json` files Node reads to decide whether the JavaScript or
/// TypeScript file `script` is an ES module or CommonJS (finding F119): for a `.js` or `.ts`
/// file, or one without an extension, the nearest `package.json` from its folder up decides
/// by its `type` (`"module"` makes a CommonJS gate that calls `require` fail, an ES module
/// gate fails under `"commonjs"`, and a gate that fails is an allow for most agents), so
/// each one from the file's folder up to the first that exists is protected, existing or
/// not (one created nearer would take over), as an argument is: protected, not pinned (a
/// project's manifest changes at every install). `.mjs`, `.cjs`, `.mts` and `.cts` files
/// are what their extension says whatever the manifest, and name none.
fn protect_module_type(out: &mut DefinitionProtection, script: &Path, resolver: &mut Resolver) {
    let by_manifest = match script.extension().and_then(|e| e.to_str()) {
        None => true,
        Some(ext) => matches!(ext, "js" | "ts" | "jsx" | "tsx"),
    };
    if by_manifest {
        protect_to_first(out, script, &["package.json"], resolver);
    }
}

/// Protects each of `names` in the folder of `file` and in each folder above, up to the first
/// folder that holds one of them, as an argument is (protected, not pinned): a file a
/// program takes from the nearest folder that has one, existing or not (one created nearer
/// would take over). Returns the first of them found.
fn protect_to_first(
    out: &mut DefinitionProtection,
    file: &Path,
    names: &[&str],
    resolver: &mut Resolver,
) -> Option<PathBuf> {
    for folder in file.ancestors().skip(1) {
        let mut found = None;
        for name in names {
            let path = folder.join(name);
            protect_at(out, &Loc::Dir(root()), &path, PathRole::Argument, resolver);
            if found.is_none() && path.is_file() {
                found = Some(path);
            }
        }
        if found.is_some() {
            return found;
        }
    }
    None
}

/// How many configurations a `tsconfig.json`'s `extends` chain is followed through for its
/// `paths` and `baseUrl`.
const MAX_TSCONFIG_HOPS: usize = 8;

/// What a TypeScript runner (tsx, ts-node, Bun) takes from a `tsconfig.json` for the
/// TypeScript file `script` (`.ts`, `.mts`, `.cts`, `.tsx`) whose text is `text` (finding
/// F127; checked with tsx 4 and ts-node 10): the nearest `tsconfig.json` from the script's
/// folder up, each one on the way to the first that exists protected, existing or not, as an
/// argument is (protected, not pinned; [`protect_tool_plugins`] reads it for its `extends`
/// and ts-node's `require`); and the files its `paths` and `baseUrl`, or those of the
/// configurations it extends, send the script's bare specifiers to (`@/lib/policy` with
/// `"@/*": ["./src/*"]`), returned as the script's own modules, protected, pinned and read in
/// turn: tsx ran `src/lib/policy.ts` for `import { deny } from "@/lib/policy"`, which no
/// rule named before. And the same through each configuration the environment gives the
/// runners in that one's place ([`Placed::typescript_configs`]: `TSX_TSCONFIG_PATH`, finding
/// F137; checked with tsx 4: its `paths` sent the gate's `policy` import to a file beside
/// it), which the engine protects with what it names wherever hooks run; and through each
/// configuration the hook's line gives its runner (`given`: `tsx --tsconfig`, `ts-node
/// --project`, finding F138).
fn typescript_imports(
    out: &mut DefinitionProtection,
    script: &Path,
    literals: &[String],
    given: &[AbsPathBuf],
    placed: Placed<'_>,
    resolver: &mut Resolver,
) -> Vec<NamedPath> {
    let typescript = (script.extension().and_then(|e| e.to_str()))
        .is_some_and(|e| matches!(e, "ts" | "mts" | "cts" | "tsx"));
    if !typescript {
        return Vec::new();
    }
    let nearest = protect_to_first(out, script, &["tsconfig.json"], resolver);
    let mut named = Vec::new();
    let given =
        (given.iter().chain(placed.typescript_configs)).map(|c| Some(c.as_path().to_path_buf()));
    for first in std::iter::once(nearest).chain(given) {
        named.extend(mapped_through(first, literals));
    }
    named.sort();
    named.dedup();
    named
}

/// The files a TypeScript configuration (`first`, then what it extends) sends `literals` to
/// through its `paths` and `baseUrl` ([`typescript_imports`]).
fn mapped_through(first: Option<PathBuf>, literals: &[String]) -> Vec<NamedPath> {
    let mut map = crate::imports::ImportMap::default();
    let mut paths_dir: Option<PathBuf> = None;
    let mut current = first;
    for _ in 0..MAX_TSCONFIG_HOPS {
        let Some(config) = current.take() else { break };
        let Some(text) = crate::installations::read_capped(&config, TOOL_CONFIG_CAP) else { break };
        let Some(dir) = config.parent() else { break };
        let read = crate::toolconfig::typescript_paths(&text);
        if map.base_url.is_none() {
            // An absolute `baseUrl` is that folder (tsx took `"/abs"` as written).
            map.base_url = read.base_url.and_then(|b| match b.starts_with('/') {
                true => Some(PathBuf::from(b)),
                false => crate::imports::relative_target(dir, &b),
            });
        }
        if paths_dir.is_none()
            && let Some(paths) = read.paths
        {
            map.paths = paths;
            paths_dir = Some(dir.to_path_buf());
        }
        if paths_dir.is_some() && map.base_url.is_some() {
            break;
        }
        current = read.extends.iter().map(|e| dir.join(e)).find(|e| e.is_file());
    }
    let Some(paths_base) = map.base_url.clone().or(paths_dir) else { return Vec::new() };
    map.paths_base = paths_base;
    crate::imports::mapped_imports(literals, &map)
}

/// The files Deno finds for the JavaScript or TypeScript file `script`'s (whose text is
/// `text`) specifiers through the import map of the nearest Deno configuration from its
/// folder up (finding F131; checked with Deno 2.9: `"imports": {"policy":
/// "./src/policy.ts"}` of `deno.json` (or `deno.jsonc`, or the file its `importMap` names) ran
/// `src/policy.ts` for the gate's `import { deny } from "policy"`, from any folder it ran in,
/// and editing that file turned the gate into an allow): returned as the script's own
/// modules, protected, pinned and read in turn. `deno.json` and `deno.jsonc` of each folder
/// on the way to the first that holds one, and the import map file it names, are protected,
/// existing or not.
fn deno_imports(
    out: &mut DefinitionProtection,
    script: &Path,
    literals: &[String],
    resolver: &mut Resolver,
) -> Vec<NamedPath> {
    let mut named = Vec::new();
    // One file's `imports`, from its folder; and the file its `importMap` names.
    let mut map_through = |file: &Path| -> Option<PathBuf> {
        let json = crate::installations::read_capped(file, TOOL_CONFIG_CAP)?;
        let dir = file.parent()?;
        let (paths, import_map) = crate::toolconfig::deno_import_map(&json);
        let map =
            crate::imports::ImportMap { paths_base: dir.to_path_buf(), paths, base_url: None };
        named.extend(crate::imports::mapped_imports(literals, &map));
        import_map.and_then(|m| crate::imports::relative_target(dir, &m))
    };
    let config = protect_to_first(out, script, &["deno.json", "deno.jsonc"], resolver);
    // An import map file's own `importMap` is not Deno's to follow.
    if let Some(file) = config.and_then(|c| map_through(&c)) {
        protect_at(out, &Loc::Dir(root()), &file, PathRole::Argument, resolver);
        map_through(&file);
    }
    named
}

/// The files the `main` of each existing folder manifest among `named` (the `package.json`
/// of a folder a relative `require` names, F124) sends Node to (finding F130; checked with
/// Node 20: `require("./lib")` ran `lib/impl.js` for `"main": "impl"`, which no rule named
/// while the unused `lib/index.js` was protected, so editing it turned the gate into an
/// allow), as more of the script's own modules: protected, pinned, read in turn.
fn package_mains(named: &[NamedPath]) -> Vec<NamedPath> {
    let mut out = Vec::new();
    for manifest in named.iter().filter(|n| n.base == crate::scripts::PathBase::Root) {
        if manifest.role != PathRole::Sourced
            || manifest.path.file_name().is_none_or(|n| n != "package.json")
        {
            continue;
        }
        let Some(text) = crate::installations::read_capped(&manifest.path, TOOL_CONFIG_CAP) else {
            continue;
        };
        if let Some(main) = crate::toolconfig::package_main(&text) {
            out.extend(crate::imports::package_main_files(&manifest.path, &main));
        }
    }
    out
}

/// The files Node finds for the JavaScript or TypeScript file `script`'s (whose text is
/// `text`) subpath imports (`#policy`) and its imports of its own package by name, through
/// the `imports` and `exports` of the nearest `package.json` from its folder up (finding
/// F128; checked with Node 20: `import { deny } from "#policy"` ran the `src/policy.js` the
/// manifest's `imports` names, which no rule named, so editing it turned the gate into an
/// allow; `import … from "p/policy"` in package `p` went through its `exports` the same way),
/// with the names Node and the runners try, returned as the script's own modules: protected,
/// pinned and read in turn. The manifest they come from is protected too (F119 protects it for
/// most scripts already; this adds it for `.mjs` and `.cjs` ones that use it).
fn package_imports(
    out: &mut DefinitionProtection,
    script: &Path,
    literals: &[String],
    resolver: &mut Resolver,
) -> Vec<NamedPath> {
    let Some(manifest) =
        script.ancestors().skip(1).map(|f| f.join("package.json")).find(|m| m.is_file())
    else {
        return Vec::new();
    };
    let Some(dir) = manifest.parent() else { return Vec::new() };
    let Some(json) = crate::installations::read_capped(&manifest, TOOL_CONFIG_CAP) else {
        return Vec::new();
    };
    let paths: Vec<(String, Vec<String>)> = crate::toolconfig::package_import_map(&json)
        .into_iter()
        .map(|(key, targets)| (key, targets.into_iter().filter(|t| t.starts_with("./")).collect()))
        .collect();
    let map = crate::imports::ImportMap { paths_base: dir.to_path_buf(), paths, base_url: None };
    let found = crate::imports::mapped_imports(literals, &map);
    if !found.is_empty() {
        protect_at(out, &Loc::Dir(root()), &manifest, PathRole::Argument, resolver);
    }
    found
}

/// The language of a script whose text is read for what it loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScriptLanguage {
    Shell,
    /// Python or JavaScript, whose imports are read; or (`None`) another interpreter that
    /// loads its installation's library at every start (Ruby, Perl), read for that alone.
    Other(Option<crate::imports::Language>),
}

/// A script read for what it loads.
struct ReadScript {
    /// Its canonical path.
    path: PathBuf,
    /// Its text, read lossily, at most [`SCRIPT_READ_CAP`] bytes.
    text: String,
    /// Whether the file holds more than [`SCRIPT_READ_CAP`] bytes.
    truncated: bool,
    language: ScriptLanguage,
    /// Whether its `#!` line starts a Python interpreter that loads the user's site (not
    /// turned off there with `-s`, `-I` or `-S`).
    starts_python: bool,
    /// The interpreter its `#!` line runs, as written there, when it loads its installation's
    /// library at every start ([`loads_its_installation`]): a path (`#!/usr/bin/python3`),
    /// or the name `env` looks up (`#!/usr/bin/env node`).
    interpreter: Option<String>,
}

/// `path` read when it is a script whose loads are followed: a regular file whose first line
/// is a `#!` naming a shell (`/bin/sh`, `/usr/bin/env bash`, …), Python or a JavaScript
/// runtime (or Ruby or Perl, for the installation that line starts from alone), or without a
/// `#!` one named `*.sh`, `*.bash`, `*.zsh`, `*.ksh`, `*.py`, `*.js`,
/// `*.mjs`, `*.cjs`, `*.ts` (…) and holding no NUL byte in its first [`SCRIPT_HEAD`] bytes.
fn read_script(path: &Path) -> Option<ReadScript> {
    use std::io::Read;
    let canonical = canonicalize(path).ok()?.into_path_buf();
    // Opened without blocking: a FIFO put where the script is named (or swapped in after a
    // check) would hold the open until a writer came; its handle's metadata then refuses it.
    let mut file = crate::paths::open_nonblocking(&canonical).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    // The first line decides; a program (an interpreter named by its path) is not read on.
    let mut bytes = Vec::new();
    (&mut file).take(SCRIPT_HEAD).read_to_end(&mut bytes).ok()?;
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let mut starts_python = false;
    let mut interpreter = None;
    let language = match first.strip_prefix(b"#!") {
        Some(line) => {
            let line = String::from_utf8_lossy(line);
            let program = interpreter_of(&line)?;
            if is_shell(&program) {
                ScriptLanguage::Shell
            } else {
                let language = crate::imports::Language::of(Some(&program), &canonical);
                if language.is_none() && !loads_its_installation(&program) {
                    return None;
                }
                if language == Some(crate::imports::Language::Python) {
                    let options: Vec<crate::shell::Word> = line
                        .split_whitespace()
                        .skip_while(|w| crate::scripts::basename(w) != program)
                        .skip(1)
                        .map(crate::shell::Word::lit)
                        .collect();
                    starts_python = !crate::scripts::python_skips_user_site(&options);
                }
                if loads_its_installation(&program) {
                    interpreter = shebang_program(&line);
                }
                ScriptLanguage::Other(language)
            }
        }
        None if bytes.contains(&0) => return None,
        None => match canonical.extension().and_then(|e| e.to_str()) {
            Some("sh" | "bash" | "zsh" | "ksh") => ScriptLanguage::Shell,
            _ => ScriptLanguage::Other(Some(crate::imports::Language::of(None, &canonical)?)),
        },
    };
    if language == ScriptLanguage::Other(None) {
        // Read for its `#!` line alone: what it loads is not read.
        return Some(ReadScript {
            path: canonical,
            text: String::new(),
            truncated: false,
            language,
            starts_python,
            interpreter,
        });
    }
    // One byte past the cap tells a longer file.
    file.take(SCRIPT_READ_CAP.saturating_sub(SCRIPT_HEAD) + 1).read_to_end(&mut bytes).ok()?;
    let truncated = bytes.len() as u64 > SCRIPT_READ_CAP;
    bytes.truncate(SCRIPT_READ_CAP as usize);
    Some(ReadScript {
        path: canonical,
        text: String::from_utf8_lossy(&bytes).into_owned(),
        truncated,
        language,
        starts_python,
        interpreter,
    })
}

/// The program a `#!` line's text runs, as written: its first word, or the word `env` runs.
fn shebang_program(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if crate::scripts::basename(first) == "env" {
        return words.find(|w| !w.starts_with('-') && !w.contains('=')).map(str::to_owned);
    }
    Some(first.to_owned())
}

/// Protects what the interpreter at `program` starts from
/// ([`crate::installations::installation`]), each folder or file whole and not pinned (an
/// installation changes with every package installed): a folder that holds the home, the
/// directory hooks run in or the project would refuse every edit there, and is left out.
fn protect_installation(
    out: &mut DefinitionProtection,
    program: &Path,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let held = [placed.home, Some(placed.working_dir), placed.project_root];
    let name = program.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let family = crate::scripts::family(name);
    // A program that is no interpreter is looked up for its configuration alone (F52).
    let mut found = if family == crate::scripts::Family::Other
        && crate::scripts::system_configs_of(name).is_some()
    {
        Vec::new()
    } else {
        crate::installations::installation(program, family)
    };
    found.extend(crate::installations::system_configs(program));
    for found in found {
        if held.iter().flatten().any(|h| h.as_path().starts_with(&found)) {
            continue;
        }
        protect_at(out, &Loc::Dir(root()), &found, PathRole::Modules, resolver);
    }
}

/// Protects the files the version manager whose shim `program` is reads to pick the version
/// it runs ([`crate::installations::version_files`], finding F120): where it runs (`runs_in`)
/// and in every folder above, existing or not, and the manager's files under the
/// home; protected, not pinned.
fn protect_version_files(
    out: &mut DefinitionProtection,
    program: &Path,
    runs_in: &[Loc],
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let Some(files) = crate::installations::version_files(program) else { return };
    protect_nearest(out, files.here, runs_in, resolver);
    for name in files.home {
        protect_at(out, &home_loc(placed.home), Path::new(name), PathRole::Argument, resolver);
    }
}

/// What the programs of the command analysis look for in the folder they run in and, when it
/// holds none, in each folder above it, or merge from every folder above (finding F53): git's
/// repository (`.git/config` of the repository a monorepo's package is in, and its hooks,
/// F57), npm's project
/// (the nearest folder with a `package.json`, its `.npmrc`), yarn's `.yarnrc.yml` (every
/// folder up to the root), pnpm's workspace, Deno's `deno.json`, uv's project, configuration,
/// `.python-version` and `.venv`, Poetry's, PDM's, Hatch's and Pixi's project, Pipenv's
/// `Pipfile` and `.env`, Bundler's `Gemfile`, Maven's `.mvn` (its launcher takes the nearest
/// folder above that has one, finding F100), mise's files, direnv's `.envrc`; and, besides
/// these, the recipe files of the task runners that look upward for theirs (finding F96:
/// [`crate::scripts::recipes_found_upward`]).
const FOUND_UPWARD: &[&str] = &[
    // Before `.env`, which it ends with: Gemini CLI looks for both in each folder (F125).
    ".gemini/.env",
    ".git/config",
    ".git/info/attributes",
    ".git/info/exclude",
    ".git/hooks",
    ".npmrc",
    "package.json",
    ".yarnrc.yml",
    ".yarnrc",
    "pnpm-workspace.yaml",
    "bunfig.toml",
    "deno.json",
    "deno.jsonc",
    "uv.toml",
    "pyproject.toml",
    ".python-version",
    ".venv",
    "poetry.toml",
    "pdm.toml",
    ".pdm-python",
    "hatch.toml",
    "pixi.toml",
    ".pixi/envs",
    "Pipfile",
    ".env",
    "Gemfile",
    ".bundle/config",
    ".mvn",
    ".envrc",
    "node_modules",
    "go.mod",
    "go.work",
    ".cargo/config.toml",
    ".cargo/config",
    "rust-toolchain.toml",
    "rust-toolchain",
    // TypeScript's, which tsc and tsx look for from where they run up (F80, F127).
    "tsconfig.json",
    // asdf's and mise's version file (F120), with the other managers' ([`upward_names`]).
    ".tool-versions",
];

/// Every name [`protect_above`] looks for above where it is named: [`FOUND_UPWARD`], mise's
/// configurations, the version managers' files and the task runners' recipe files.
fn upward_names() -> impl Iterator<Item = &'static str> {
    FOUND_UPWARD
        .iter()
        .chain(crate::scripts::MISE_CONFIGS)
        .chain(crate::installations::VERSION_FILES)
        .copied()
        .chain(crate::scripts::upward_recipe_names())
}

/// Protects each of `names` where the program looking for it runs (`runs_in`) and in every
/// folder above ([`protect_above`]): a file a program takes from the nearest folder that has
/// one. As an argument is: protected, not pinned.
fn protect_nearest<'a>(
    out: &mut DefinitionProtection,
    names: impl IntoIterator<Item = &'a str>,
    runs_in: &[Loc],
    resolver: &mut Resolver,
) {
    for name in names {
        let named = NamedPath {
            base: PathBase::RunDir,
            path: PathBuf::from(name),
            role: PathRole::Argument,
        };
        for loc in runs_in {
            protect_named(out, loc, &named, resolver);
        }
    }
}

/// Protects what `named` names from `loc` ([`protect_at`]) and, for a path named where the
/// hook runs (its run directory, or a folder a variable of its format names), what its program
/// would find in the folders above instead ([`protect_above`]).
fn protect_named(
    out: &mut DefinitionProtection,
    loc: &Loc,
    named: &NamedPath,
    resolver: &mut Resolver,
) {
    protect_at(out, loc, &named.path, named.role, resolver);
    if matches!(named.base, PathBase::RunDir | PathBase::Var(_)) {
        protect_above(out, loc, &named.path, named.role, resolver);
    }
}

/// Protects, in every folder above the one where `rel` is named from `loc`, what its program
/// would find there instead ([`FOUND_UPWARD`]): a project hook's `git diff` run at a
/// monorepo's package reads the repository's `.git/config` two folders up. Only for a path
/// named where the hook runs (its run directory, or a folder a variable of its format names);
/// a file of the home (`~/.npmrc`) is not looked for above it. A location that varies names
/// it anywhere already.
fn protect_above(
    out: &mut DefinitionProtection,
    loc: &Loc,
    rel: &Path,
    role: PathRole,
    resolver: &mut Resolver,
) {
    let Loc::Dir(dir) = loc else { return };
    let Some(entry) = upward_names().map(Path::new).find(|e| rel.ends_with(e)) else {
        return;
    };
    let Ok(full) = dir.join(rel) else { return };
    let full = normalize_abs(&full);
    let Some(named_in) = full.as_path().ancestors().nth(entry.components().count()) else {
        return;
    };
    for above in named_in.ancestors().skip(1) {
        if let Ok(above) = AbsPathBuf::new(above.to_path_buf()) {
            protect_at(out, &Loc::Dir(above), entry, role, resolver);
        }
    }
    // A worktree's or a submodule's `.git` is a file naming the repository git reads.
    if entry == Path::new(".git/config") {
        for folder in named_in.ancestors() {
            for config in linked_git_configs(folder, resolver) {
                protect_at(out, &Loc::Dir(root()), config.as_path(), role, resolver);
                // The hooks git runs there (F57): the main repository's, a submodule's.
                if config.as_path().file_name().is_some_and(|n| n == "config")
                    && let Some(dir) = config.as_path().parent()
                {
                    let hooks = dir.join("hooks");
                    protect_at(out, &Loc::Dir(root()), &hooks, PathRole::Modules, resolver);
                }
            }
        }
    }
}

/// The configuration files git reads for the repository that the file `folder/.git` names
/// (`gitdir: <folder>`, relative to `folder` or absolute, as `git worktree add` and submodules
/// write it), existing or not: that folder's `config` and `config.worktree`, and the `config`
/// of the repository its `commondir` file names (a worktree's main repository, where a
/// `core.fsmonitor` line runs a program during every `git status` in the worktree; checked
/// with git 2 here). Nothing when `.git` is no small regular file or names no folder; where
/// the resolver found nothing at `.git` (most folders above a project, already looked up for
/// `.git/config`), nothing is opened.
fn linked_git_configs(folder: &Path, resolver: &mut Resolver) -> Vec<AbsPathBuf> {
    let Ok(base) = AbsPathBuf::new(folder.to_path_buf()) else { return Vec::new() };
    let dot_git = folder.join(".git");
    if resolver.entry(&dot_git).is_none() {
        return Vec::new();
    }
    let Some(text) = crate::installations::read_small(&dot_git) else {
        return Vec::new();
    };
    let Some(gitdir) = text.lines().find_map(|l| l.strip_prefix("gitdir:")).map(str::trim) else {
        return Vec::new();
    };
    if gitdir.is_empty() {
        return Vec::new();
    }
    let gitdir = normalize_lexically(Path::new(gitdir), &base);
    let mut found: Vec<AbsPathBuf> = ["config", "config.worktree"]
        .iter()
        .filter_map(|f| gitdir.join(Path::new(f)).ok())
        .collect();
    if let Some(common) = crate::installations::read_small(&gitdir.as_path().join("commondir"))
        && let Some(common) = common.lines().next().map(str::trim)
        && !common.is_empty()
    {
        let common = normalize_lexically(Path::new(common), &gitdir);
        found.extend(common.join(Path::new("config")).ok());
    }
    found
}

/// Whether git reads `path` as a configuration file, by its name: a repository's `config`
/// (in a folder named `.git` or `*.git`, or below one: a worktree's, a submodule's),
/// `config.worktree`, the user's `.gitconfig` or `git/config`, an installation's
/// `gitconfig`.
fn is_git_config(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    match name {
        "config" => {
            path.parent().and_then(Path::file_name).is_some_and(|n| n == "git")
                || path.ancestors().skip(1).any(|a| {
                    a.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".git"))
                })
        }
        "config.worktree" | ".gitconfig" | "gitconfig" => true,
        _ => false,
    }
}

/// Protects what the git configuration files among `out`'s paths and folders include
/// (finding F56): git reads an included file as part of the file that includes it, so a
/// `core.fsmonitor` line in the `../.gitconfig` a repository's `.git/config` includes runs a
/// program during a gate's `git status` as one in `.git/config` would. Followed as git
/// follows them ([`crate::read_git_configuration`]; `~/` under the home), whatever an
/// `[includeIf]`'s condition, and whether or not the file exists yet. And the folder these
/// files send git to for the repository's hooks (`core.hooksPath`, finding F57), whole:
/// absolute, from the home, or relative to each repository's top folder these files belong
/// to; husky's (`.husky/_`, whose scripts run the files of the folder above with `sh`, after
/// the user's `~/.config/husky/init.sh`, one of git's start-up files) with the folder above.
/// And what the commands these
/// files have git run name (finding F60: `core.fsmonitor`, a filter's `clean`, a diff
/// driver's `textconv`, `diff.external`, `core.sshCommand`, a credential helper…), each
/// analysed as a hook's own line run from each of those repositories' top folders (where
/// git runs them; a relative path of the user's configuration names a file of every
/// repository): the programs and scripts, what they source, the installations of the
/// interpreters they run.
fn protect_git_configuration(
    out: &mut DefinitionProtection,
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let folders = out.patterns.iter().filter(|(_, rel, _)| rel.as_os_str().is_empty());
    let mut configs: Vec<AbsPathBuf> = (out.paths.iter())
        .chain(folders.map(|(base, ..)| base))
        .filter(|p| is_git_config(p.as_path()))
        .cloned()
        .collect();
    // The files a hook's line has git read whatever their names (F69).
    for config in &out.git_configs {
        if !configs.contains(config) {
            configs.push(config.clone());
        }
    }
    let home = placed.home.map(AbsPathBuf::as_path);
    let tops: Vec<PathBuf> = configs.iter().filter_map(|c| repository_top(c.as_path())).collect();
    let mut hooks_folders: Vec<PathBuf> =
        out.git_hooks_folders.iter().map(|f| f.as_path().to_path_buf()).collect();
    let mut commands: Vec<String> = Vec::new();
    for config in &configs {
        let read = crate::gitconfig::read_git_configuration(config.as_path(), home);
        for included in read.included() {
            if let Ok(included) = AbsPathBuf::new(included) {
                out.paths.extend(locations_with(resolver, &included));
            }
        }
        let (absolute, relative) = read.hooks_paths();
        hooks_folders.extend(absolute);
        for folder in relative {
            hooks_folders.extend(tops.iter().map(|top| top.join(&folder)));
        }
        // The files it has git (ripgrep, fd) read attributes and ignore patterns from (F126).
        let (absolute, relative) = read.pattern_files();
        let relative = relative.iter().flat_map(|file| tops.iter().map(move |top| top.join(file)));
        for file in absolute.into_iter().chain(relative) {
            let Some(file) = crate::paths::normalize_absolute(&file) else { continue };
            out.paths.extend(locations_with(resolver, &file));
        }
        for command in read.commands() {
            if !commands.contains(command) {
                commands.push(command.clone());
            }
        }
    }
    // husky's `init.sh` is among git's start-up files under the home (`PROGRAM_CONFIGS`).
    for folder in &hooks_folders {
        let Some(folder) = crate::paths::normalize_absolute(folder) else { continue };
        let whole = crate::gitconfig::hooks_folder_whole(folder.as_path());
        protect_at(out, &Loc::Dir(root()), &whole, PathRole::Modules, resolver);
    }
    // The hook managers whose scripts are in those hooks folders (F65).
    let mut scripts_folders: Vec<PathBuf> = (configs.iter())
        .filter_map(|c| c.as_path().parent().map(|dir| dir.join("hooks")))
        .collect();
    scripts_folders.extend(hooks_folders);
    let tops: Vec<AbsPathBuf> = tops.into_iter().filter_map(|t| AbsPathBuf::new(t).ok()).collect();
    protect_hook_managers(out, &scripts_folders, &tops, launch, placed, resolver);
    let tops: Vec<Loc> = tops.into_iter().map(Loc::Dir).collect();
    let tops = if tops.is_empty() { vec![any(root(), false)] } else { tops };
    protect_commands(out, commands, &tops, launch, placed, resolver);
}

/// Protects what the git hook managers whose scripts are in `folders` read and run when git
/// runs those scripts (finding F65), in each repository top folder of `tops` (where git runs
/// its hooks): pre-commit's and prek's configuration (the one their scripts name, else their
/// defaults; prek's in every folder below the top too), their caches under the home, the
/// installation of the Python pre-commit's scripts run it with and prek's binary; lefthook's thirty
/// configuration names, its script and remote folders, the project's lefthook packages and
/// the binary its scripts name; existing or not. The configurations that exist are read
/// ([`crate::hookmanagers::read_config`]): what their commands name, analysed as hooks' own
/// lines run from the top folder (or from the folder a lefthook command's `root:` names), the
/// files they extend with (read in turn, once) and the folders they run scripts from.
fn protect_hook_managers(
    out: &mut DefinitionProtection,
    folders: &[PathBuf],
    tops: &[AbsPathBuf],
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let found = crate::hookmanagers::installed(folders);
    if found.is_empty() {
        return;
    }
    for cache in &found.caches {
        match placed.home {
            Some(home) => {
                protect_at(out, &Loc::Dir(home.clone()), Path::new(cache), PathRole::Modules, resolver);
            }
            None => out.uncertain.push(format!(
                "git runs a hook manager whose hooks run from its cache `~/{cache}`; no home is known, so the cache is not protected"
            )),
        }
    }
    for python in &found.pythons {
        protect_installation(out, python, placed, resolver);
    }
    for program in &found.programs {
        protect_at(out, &Loc::Dir(root()), program, PathRole::Program, resolver);
    }
    if let Some(home) = placed.home {
        for file in crate::hookmanagers::home_sourced(&found) {
            protect_at(out, &Loc::Dir(home.clone()), Path::new(file), PathRole::Loaded, resolver);
        }
    }
    for top in tops {
        // prek's workspace projects: its configuration in any folder below the top.
        for name in &found.nested {
            protect_at(
                out,
                &any(top.clone(), false),
                Path::new(name),
                PathRole::Argument,
                resolver,
            );
        }
        let at = Loc::Dir(top.clone());
        for folder in found.folders() {
            protect_at(out, &at, &folder, PathRole::Modules, resolver);
        }
        let mut configs = found.config_files();
        let mut commands: Vec<String> = Vec::new();
        let mut rooted: Vec<(String, String)> = Vec::new();
        let mut read = 0;
        while let Some(config) = configs.get(read).cloned() {
            read += 1;
            protect_at(out, &at, &config, PathRole::Argument, resolver);
            let values = crate::hookmanagers::read_config(&top.as_path().join(&config));
            for command in values.commands {
                if !commands.contains(&command) {
                    commands.push(command);
                }
            }
            rooted.extend(values.rooted);
            for folder in values.folders {
                protect_at(out, &at, Path::new(&folder), PathRole::Modules, resolver);
            }
            for file in values.files.into_iter().map(PathBuf::from) {
                if configs.len() < MAX_MANAGER_CONFIGS && !configs.contains(&file) {
                    configs.push(file);
                }
            }
        }
        if !commands.is_empty() {
            protect_commands(out, commands, &[at], launch, placed, resolver);
        }
        // husky 4's and yorkie's configuration, in the package's folder their scripts `cd` to
        // and, as husky 4's cosmiconfig goes on looking there when the package's has none, in
        // each folder above it up to the top; its commands run in the package's folder.
        let (files, folders) = found.package_files();
        for dir in found.package_dirs() {
            let Some(package) = crate::paths::normalize_absolute(&top.as_path().join(dir)) else {
                continue;
            };
            let at = Loc::Dir(package.clone());
            for folder in &folders {
                protect_at(out, &at, Path::new(folder), PathRole::Modules, resolver);
            }
            let above = package.as_path().ancestors().skip(1);
            let up_to_top = std::iter::once(package.as_path())
                .chain(above.take_while(|a| a.starts_with(top.as_path())));
            let mut commands: Vec<String> = Vec::new();
            for folder in up_to_top.filter_map(|a| AbsPathBuf::new(a.to_path_buf()).ok()) {
                for file in &files {
                    let here = Loc::Dir(folder.clone());
                    protect_at(out, &here, Path::new(file), PathRole::Argument, resolver);
                    for command in
                        crate::hookmanagers::read_package_commands(folder.as_path(), file)
                    {
                        if !commands.contains(&command) {
                            commands.push(command);
                        }
                    }
                }
            }
            if !commands.is_empty() {
                protect_commands(out, commands, &[at], launch, placed, resolver);
            }
        }
        // lefthook's commands with a `root:` run in that folder.
        for (root, run) in rooted {
            let Some(dir) = crate::paths::normalize_absolute(&top.as_path().join(root)) else {
                continue;
            };
            protect_commands(out, vec![run], &[Loc::Dir(dir)], launch, placed, resolver);
        }
    }
}

/// At most this many configuration files of the hook managers are read in one repository:
/// their own names (lefthook's thirty) and the files they extend with.
const MAX_MANAGER_CONFIGS: usize = 64;

/// Protects what the command lines `lines` a configuration has a program run name (findings
/// F60, F61), each analysed as a hook's own line run from `run_dirs`: what the analysis names
/// (the program, the script an interpreter runs, what an option loads, an argument; with what
/// those programs find above where they run), what the programs and scripts named source,
/// and the installations of the interpreters they run. The analysis's doubts are not
/// reported (the lines are the configuration's, not the hook's).
fn protect_commands(
    out: &mut DefinitionProtection,
    lines: Vec<String>,
    run_dirs: &[Loc],
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let mut ran = Ran::default();
    // The folders the lines add to their interpreters' search paths (F144), those named from
    // where they run placed in each of `run_dirs`.
    let mut search: Vec<(crate::imports::Language, NamedPath)> = Vec::new();
    for line in lines {
        let analysis = analyse(&HookCommand::Shell { script: line, shell: None });
        for (language, folder) in &analysis.search_folders {
            if folder.base != PathBase::RunDir {
                search.push((*language, folder.clone()));
                continue;
            }
            for loc in run_dirs {
                if let Loc::Dir(dir) = loc
                    && let Ok(full) = dir.join(&folder.path)
                {
                    let path = full.into_path_buf();
                    search.push((*language, NamedPath { base: PathBase::Root, path, ..*folder }));
                }
            }
        }
        let locs_of = |named: &NamedPath| match &named.base {
            PathBase::Root if named.path.is_absolute() => Some(vec![Loc::Dir(root())]),
            PathBase::Root => None,
            PathBase::Home => Some(vec![home_loc(placed.home)]),
            PathBase::RunDir => Some(run_dirs.to_vec()),
            PathBase::Var(_) | PathBase::Unknown => Some(vec![any(root(), false)]),
        };
        for named in &analysis.paths {
            let Some(locs) = locs_of(named) else { continue };
            protect_named_at(out, named, &locs, &mut ran, resolver);
        }
        note_read_files(out, &analysis, locs_of);
        ran.interpreters.extend(
            (analysis.programs_on_path.iter())
                .filter_map(|name| crate::installations::find_program(name, placed.program_path)),
        );
    }
    let Ran { scripts, modules, mut interpreters } = ran;
    interpreters.sort();
    interpreters.dedup();
    for interpreter in &interpreters {
        protect_installation(out, interpreter, placed, resolver);
        protect_version_files(out, interpreter, run_dirs, placed, resolver);
    }
    protect_sourced(out, scripts, modules, &search, launch, placed, resolver);
}

/// Protects what the configuration of the linters, type checkers and formatters where the
/// hook runs has them load ([`crate::toolconfig`]): the plugins a `.prettierrc` names as
/// files (finding F71: prettier loads each of its `plugins`, checked with prettier 3.10 here;
/// a plugin given as a package's name is in `node_modules`, protected where a runner runs
/// the tool from it, F54), mypy's plugins and rubocop's `require`d
/// files (loaded files), flake8's local plugins' folders (protected whole; finding F79), and
/// the files ruff's `extend`, biome's and TypeScript's `extends` and rubocop's `inherit_from`
/// name, which are read in turn for what they name (finding F80), the modules pylint's
/// `load-plugins` names, by their paths under any folder (finding F86), what a package
/// manager's or build tool's own configuration has it run (npm's `script-shell`, yarn's
/// `yarnPath`, cargo's `rustc-wrapper`, a JVM's agents: finding F106), the packages cargo's
/// `[patch]` tables and `paths` overrides build, as cargo reaches them (their manifests and
/// build scripts, and what those name, existing or not: finding F111), at most [`MAX_RECIPES`]
/// files read in all (a missing one is not counted). Each name is relative to its configuration's folder. A configuration is read
/// whichever tool named it (a `pyproject.toml` a `uv run` hook names too): what mypy would
/// load is protected for a hook that runs uv alone, which is more than needed, never less.
fn protect_tool_plugins(out: &mut DefinitionProtection, resolver: &mut Resolver) {
    use crate::toolconfig::config_named;
    // Each file with the name it is read as: its own, or, for a file another one extends,
    // that one's (`extends: "./base.json"` of a `tsconfig.json` is read as one).
    let mut pending: Vec<(AbsPathBuf, &'static str)> = (out.paths.iter())
        .filter_map(|p| config_named(p.as_path()).map(|n| (p.clone(), n)))
        .collect();
    // And those in a folder protected whole (Maven's `.mvn/jvm.config`, F106), and those
    // protected whole themselves: the user's (`~/.npmrc`, `~/.cargo/config.toml`), which are
    // protected, not pinned (finding F112: F106 read the project's only).
    for (folder, tail, _) in &out.patterns {
        let Some(name) = folder.as_path().file_name().filter(|_| tail.as_os_str().is_empty())
        else {
            continue;
        };
        if let Some(read_as) = config_named(folder.as_path()) {
            pending.push((folder.clone(), read_as));
        }
        for config in crate::toolconfig::PLUGIN_CONFIGS {
            let inside = config.split_once('/').filter(|(dir, _)| name == *dir);
            if let Some(file) = inside.and_then(|(_, file)| folder.join(Path::new(file)).ok()) {
                pending.push((file, config));
            }
        }
    }
    // Only the files read count: most places named (each tool's files where it runs and in
    // the folders above) do not exist.
    let mut read: Vec<AbsPathBuf> = Vec::new();
    while let Some((config, read_as)) = pending.pop() {
        if read.len() >= MAX_RECIPES || read.contains(&config) {
            continue;
        }
        let Some(text) = crate::installations::read_capped(config.as_path(), TOOL_CONFIG_CAP)
        else {
            continue;
        };
        read.push(config.clone());
        // Cargo's and Maven's names are relative to the folder above theirs (F106).
        let mut folder = config.as_path().parent();
        if crate::toolconfig::names_from_parent(read_as) {
            folder = folder.and_then(Path::parent);
        }
        let Some(folder) = folder else { continue };
        let Ok(folder) = AbsPathBuf::new(folder.to_path_buf()) else { continue };
        let at = Loc::Dir(folder.clone());
        let loads = crate::toolconfig::loads(read_as, &text);
        // The JavaScript a package manager's configuration has it load (a `pnpmfile`, a
        // `--require` of `node-options`) is read for its imports too, as that manager's (F107).
        let loader = crate::toolconfig::javascript_loader(read_as);
        for file in &loads.files {
            // npm takes a relative `script-shell` or `--require` from the folder of the
            // package whose script runs, wherever the `.npmrc` is (the user's too), and Maven
            // 3.8 a relative agent from where `mvn` runs, a subfolder too (finding F112): by
            // its path under any folder as well.
            if crate::toolconfig::names_from_where_it_runs(read_as)
                && let Some(tail) = relative_tail(Path::new(file))
            {
                protect_at(out, &any(root(), false), &tail, PathRole::Loaded, resolver);
            }
            let before = out.paths.len();
            protect_at(out, &at, Path::new(file), PathRole::Loaded, resolver);
            if let Some(tool) = loader.filter(|_| crate::scripts::is_javascript_file(file)) {
                let named: Vec<AbsPathBuf> = out.paths.get(before..).unwrap_or_default().to_vec();
                out.node_tool_files.extend(named.into_iter().map(|p| (p, tool)));
            }
        }
        for dir in &loads.folders {
            protect_at(out, &at, Path::new(dir), PathRole::Modules, resolver);
        }
        // The packages cargo builds in place of a dependency (F111): read as cargo reaches
        // them, their build scripts and the path dependencies and members they name.
        for package in &loads.packages {
            let Some(place) = crate::recipes::place(folder.as_path(), package) else { continue };
            let manifest = place.join("Cargo.toml");
            let found = crate::recipes::read(&manifest, crate::recipes::Recipe::Cargo, &[], &[]);
            protect_recipe_files(out, &found, resolver);
        }
        // A module found through a `sys.path` the configuration's own code sets (pylint's
        // `init-hook`): its file and its package by their paths under any folder (F86).
        for module in &loads.modules {
            let path = PathBuf::from(module.replace('.', "/"));
            let anywhere = any(root(), false);
            protect_at(out, &anywhere, &path.with_extension("py"), PathRole::Loaded, resolver);
            protect_at(out, &anywhere, &path.join("__init__.py"), PathRole::Loaded, resolver);
        }
        for file in &loads.extends {
            let before = out.paths.len();
            protect_at(out, &at, Path::new(file), PathRole::Loaded, resolver);
            for extended in out.paths.get(before..).unwrap_or_default() {
                let own = config_named(extended.as_path());
                pending.push((extended.clone(), own.unwrap_or(read_as)));
            }
        }
    }
}

/// Protects what the configurations of the Node.js linters and formatters the hook runs
/// load ([`crate::scripts::CommandAnalysis::node_tool_folders`]): `eslint .` runs
/// `eslint.config.js`, which the guard protects by name in any folder (F71), and with it the
/// `./rules.js` it imports and what that imports in turn (finding F85); stylelint loads the
/// plugins a `.stylelintrc.json` names (`plugins: ["./plug.js"]`), markdownlint-cli2 the
/// `customRules` of its `.markdownlint-cli2.jsonc`, cspell the configuration a `cspell.json`
/// imports, commitlint the file a `.commitlintrc.json` extends (finding F87); checked with
/// eslint 9, prettier 3, stylelint 17, markdownlint-cli2, cspell 9 and commitlint 20 here,
/// each ran the code of every such file. The configurations read are the tool's where it runs
/// and in each folder above it (where these tools look for theirs), found by listing each
/// folder once per computation ([`Resolver::files_named`]). A JavaScript one is read for its
/// relative imports and requires ([`crate::imports::local_imports`]: the file with Node's
/// extensions and `index` files, existing or not, and the packages it imports by name in the
/// `node_modules/` folders above it); every one for the JavaScript, JSON and YAML files any of
/// its strings names by a relative path ([`crate::imports::configuration_paths`]); each file
/// named is protected, and read in turn when it exists, at most [`MAX_CONFIGURATION_FILES`]
/// files in all (a note says so where the cap stops it). Not followed: a configuration in a
/// folder below where the tool runs (prettier's for the files of a subfolder; protected by
/// name, what it names not read, which would take a walk of the project), a package a data
/// configuration names by its name (in `node_modules/`, protected where a runner runs the
/// tool, F54), and a name built at run time.
fn protect_config_imports(
    out: &mut DefinitionProtection,
    home: Option<&AbsPathBuf>,
    resolver: &mut Resolver,
) {
    use crate::imports::ConfigurationFile;
    // Each file with whether its strings that name files name code (F104: a bundler's name
    // the sources it builds).
    let mut found: Vec<(PathBuf, bool)> = Vec::new();
    let mut listed: Vec<(&Path, &'static str)> = Vec::new();
    let tool_folders = std::mem::take(&mut out.node_tool_folders);
    // The configurations named by an option or by another configuration (F107).
    for (file, tool) in std::mem::take(&mut out.node_tool_files) {
        let strings = crate::scripts::configuration_strings_name_code(tool);
        found.push((file.as_path().to_path_buf(), strings));
    }
    for (folder, tool) in &tool_folders {
        let names = crate::scripts::node_tool_configurations(tool);
        let strings = crate::scripts::configuration_strings_name_code(tool);
        for folder in folder.as_path().ancestors() {
            if listed.contains(&(folder, *tool)) {
                break;
            }
            listed.push((folder, tool));
            found.extend(resolver.files_named(folder, names).into_iter().map(|f| (f, strings)));
        }
    }
    found.sort();
    found.dedup();
    // Extension-less spellings (`.eslintrc`) are JSON or YAML.
    let kind_of =
        |p: &Path| p.to_str().and_then(ConfigurationFile::of).unwrap_or(ConfigurationFile::Data);
    let mut pending: Vec<(PathBuf, ConfigurationFile, bool)> =
        found.into_iter().rev().map(|(p, strings)| (p.clone(), kind_of(&p), strings)).collect();
    let mut read: Vec<PathBuf> = Vec::new();
    while let Some((file, kind, strings)) = pending.pop() {
        if read.contains(&file) {
            continue;
        }
        if read.len() >= MAX_CONFIGURATION_FILES {
            out.uncertain.push(format!(
                "its tools' configurations load more than {MAX_CONFIGURATION_FILES} files; what the rest load is not protected"
            ));
            break;
        }
        let Some(text) = crate::installations::read_capped(&file, TOOL_CONFIG_CAP) else {
            continue;
        };
        read.push(file.clone());
        let Some(dir) = file.parent() else { continue };
        let mut next = match strings {
            true => crate::imports::configuration_paths(&text, dir),
            false => Vec::new(),
        };
        for (path, _) in &next {
            protect_at(out, &Loc::Dir(root()), path, PathRole::Loaded, resolver);
        }
        if kind == ConfigurationFile::Code {
            let imports =
                crate::imports::local_imports(crate::imports::Language::JavaScript, &text, dir);
            for named in imports {
                match named.base {
                    PathBase::Root => {
                        let role = match named.role {
                            PathRole::Sourced => PathRole::Loaded,
                            role => role,
                        };
                        protect_at(out, &Loc::Dir(root()), &named.path, role, resolver);
                        if role == PathRole::Loaded
                            && let Some(kind) = named.path.to_str().and_then(ConfigurationFile::of)
                        {
                            next.push((named.path, kind));
                        }
                    }
                    PathBase::Home => {
                        protect_at(out, &home_loc(home), &named.path, named.role, resolver);
                    }
                    _ => {}
                }
            }
        }
        let next = next.into_iter().filter(|(p, _)| p.is_file() && !read.contains(p));
        pending.extend(next.map(|(p, kind)| (p, kind, strings)));
    }
}

/// At most this many files are read for what the Node.js tools' configurations load
/// ([`protect_config_imports`]).
const MAX_CONFIGURATION_FILES: usize = 32;

/// How many entries of one folder [`protect_config_imports`] lists when it looks for the
/// tools' configurations there; past that it asks for each name.
const MAX_FOLDER_ENTRIES: usize = 4096;

/// At most this many recipe files are read per definition ([`protect_recipes`]).
const MAX_RECIPES: usize = 16;

/// How many folders above a run directory a task runner's recipe file is looked for in.
const MAX_FOLDERS_ABOVE: usize = 64;

/// The recipe files `program` runs from a folder above `missing`'s (a file of its names that
/// does not exist where it runs; [`crate::scripts::recipes_found_upward`]): none when
/// `missing`'s folder has a file of those names, else those of the nearest folder above
/// that has one (each of them: which one the runner prefers is its own order).
fn recipes_above(program: &str, missing: &Path) -> Vec<AbsPathBuf> {
    let names = crate::scripts::recipes_found_upward(program);
    let Some(folder) = missing.parent() else { return Vec::new() };
    let named = missing.file_name().and_then(|n| n.to_str()).is_some_and(|n| names.contains(&n));
    let here = |dir: &Path| -> Vec<AbsPathBuf> {
        (names.iter())
            .map(|n| dir.join(n))
            .filter(|p| p.is_file())
            .filter_map(|p| AbsPathBuf::new(p).ok())
            .collect()
    };
    if !named || !here(folder).is_empty() {
        return Vec::new();
    }
    (folder.ancestors().skip(1).take(MAX_FOLDERS_ABOVE))
        .map(here)
        .find(|found| !found.is_empty())
        .unwrap_or_default()
}

/// Protects what the recipe files and manifests the hook's lines have a task runner or a
/// package manager read run, for the targets they name (finding F72): a hook that runs `npm
/// run lint`, `make check`, `just lint`, `task lint` or `pre-commit run` has its recipe file
/// protected (F15), but the script a recipe runs (`"lint": "sh tools/lint.sh"`) was the
/// agent's to write. Each such file that exists (at most [`MAX_RECIPES`]) is read
/// ([`crate::recipes`]: the named scripts of a `package.json` with their `pre`/`post`
/// scripts, the named tasks of a `deno.json`, the named recipes of a makefile or a justfile
/// with those they depend on, every command of a Taskfile, a `tox.ini` or pre-commit's,
/// prek's and lefthook's configuration), and each line is analysed as a hook's own line run
/// from the file's folder, where these tools run them ([`protect_commands`]). A makefile is
/// read as make reads it (finding F73): with the files it includes, which are protected too
/// (existing or not), what make runs while it reads it (`$(shell …)`, `!=`, its `SHELL`), and
/// the rules it remakes them by; a justfile likewise (finding F74): with what it imports
/// and the modules it declares (protected, existing or not; each module read in turn from its
/// folder), the `.env` files it loads, what just runs while it reads it (backticks,
/// `shell(…)`, its `set shell`); a recipe file a recipe's line has a task runner read
/// (`$(MAKE) -C sub`) is read in turn.
fn protect_recipes(
    out: &mut DefinitionProtection,
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    use crate::recipes::Recipe;
    // A recipe's line may have a task runner read another recipe file (`$(MAKE) -C sub`), or
    // the same one for other targets (`"lint": "npm run lint:js && npm run lint:css"`): those
    // are noted in `out.recipes` as they are analysed, and read in turn for the targets not
    // read yet, up to `MAX_RECIPES` readings in all.
    let mut done: Vec<(AbsPathBuf, String, Vec<String>)> = Vec::new();
    // The folder a runner was started in, for a recipe file it found above that folder (F96):
    // what it runs from where it was started (make's lines, a justfile's `[no-cd]` recipes,
    // invoke's) runs there, which a `cd` on the line may have made another folder than the
    // hook's (finding F103).
    let mut started_in: Vec<(AbsPathBuf, AbsPathBuf)> = Vec::new();
    let mut read = 0;
    loop {
        let pending = out.recipes.iter().find_map(|(file, program, targets)| {
            let seen = done.iter().find(|(f, p, _)| f == file && p == program);
            let new: Vec<String> = match seen {
                None => targets.clone(),
                Some((.., read)) => targets.iter().filter(|t| !read.contains(t)).cloned().collect(),
            };
            (seen.is_none() || !new.is_empty()).then(|| (file.clone(), program.clone(), new))
        });
        let Some((file, program, targets)) = pending else { break };
        match done.iter_mut().find(|(f, p, _)| *f == file && *p == program) {
            Some((.., read)) => read.extend(targets.iter().cloned()),
            None => done.push((file.clone(), program.clone(), targets.clone())),
        }
        let Some(kind) = Recipe::read_by(&program, file.as_path()) else { continue };
        if !file.as_path().is_file() {
            // A runner that finds no recipe file where it runs takes the first it finds in a
            // folder above (F96): read in turn, from its own folder.
            for above in recipes_above(&program, file.as_path()) {
                if let Some(start) = file.parent()
                    && !started_in.contains(&(above.clone(), start.clone()))
                {
                    started_in.push((above.clone(), start));
                    // Read again if it was read already: from this folder too.
                    done.retain(|(f, p, _)| !(*f == above && *p == program));
                }
                note_recipe(out, above, &program, &targets);
            }
            continue;
        }
        if read >= MAX_RECIPES {
            break;
        }
        read += 1;
        let Some(folder) = file.parent() else { continue };
        // make runs a recipe where make runs, which is the makefile's folder unless `-f`
        // named one elsewhere: there, from where the hook runs too.
        let starts: Vec<AbsPathBuf> = (started_in.iter())
            .filter(|(f, _)| *f == file)
            .map(|(_, start)| start.clone())
            .chain([placed.working_dir.clone()])
            .collect();
        let mut folders = vec![folder.clone()];
        if matches!(kind, Recipe::Make | Recipe::PipRequirements) {
            folders.extend(starts.iter().filter(|s| **s != folder).cloned());
        }
        // pip takes a requirements file's projects from where it runs (F109): the folder its
        // name on the line was written from.
        if kind == Recipe::PipRequirements {
            let written = targets.iter().filter_map(|t| written_from(file.as_path(), t));
            for start in written {
                if !folders.contains(&start) {
                    folders.push(start);
                }
            }
        }
        let run_dirs: Vec<Loc> = folders.iter().cloned().map(Loc::Dir).collect();
        let dirs: Vec<PathBuf> = folders.iter().map(|d| d.as_path().to_path_buf()).collect();
        let found = crate::recipes::read(file.as_path(), kind, &targets, &dirs);
        protect_recipe_files(out, &found, resolver);
        // A run in a package manager's workspaces reads their packages' manifests (F78).
        if program == crate::scripts::WORKSPACES_READER {
            for manifest in crate::recipes::workspace_manifests(file.as_path()) {
                let Some(manifest) = crate::paths::normalize_absolute(&manifest) else { continue };
                protect_at(out, &Loc::Dir(root()), manifest.as_path(), PathRole::Loaded, resolver);
                if !out.recipes.iter().any(|(f, p, _)| *f == manifest && p == "npm") {
                    out.recipes.push((manifest, "npm".to_owned(), targets.clone()));
                }
            }
        }
        // Turborepo's tasks are the scripts of the workspaces' packages (F92), whose own
        // `turbo.json` may change a task's `dependsOn`: every one under the workspace's
        // folder, by name.
        if !found.scripts.is_empty()
            && let Ok(manifest) = folder.join(Path::new("package.json"))
        {
            for name in ["turbo.json", "turbo.jsonc"] {
                let under = any(folder.clone(), false);
                protect_at(out, &under, Path::new(name), PathRole::Loaded, resolver);
            }
            note_recipe(out, manifest, crate::scripts::WORKSPACES_READER, &found.scripts);
        }
        // A justfile's modules are justfiles just reads too, from their own folder (F74); a
        // Gradle build's included builds' settings, Gradle (F98).
        for module in &found.modules {
            let Some(module) = crate::paths::normalize_absolute(module) else { continue };
            note_recipe(out, module, &program, &targets);
        }
        // Where a justfile has its recipes run besides its folder (F90).
        let mut run_dirs = run_dirs;
        for dir in &found.run_dirs {
            if let Some(dir) = crate::paths::normalize_absolute(dir) {
                run_dirs.push(Loc::Dir(dir));
            }
        }
        if found.from_caller {
            for start in starts.iter().filter(|s| **s != folder && !folders.contains(s)) {
                run_dirs.push(Loc::Dir(start.clone()));
            }
        }
        if !found.lines.is_empty() {
            protect_commands(out, found.lines, &run_dirs, launch, placed, resolver);
        }
    }
}

/// A relative name without its `.` parts (`./tools/sh.sh` as `tools/sh.sh`); `None` for an
/// absolute one or one that goes up.
fn relative_tail(name: &Path) -> Option<PathBuf> {
    let mut tail = PathBuf::new();
    for component in name.components() {
        match component {
            std::path::Component::Normal(part) => tail.push(part),
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    (!tail.as_os_str().is_empty()).then_some(tail)
}

/// The folder `file`'s name was written from on a line (`reqs/r.txt` for `/p/reqs/r.txt`:
/// `/p`); `None` for an absolute name, or one that goes up (`../r.txt`) or is not `file`'s.
fn written_from(file: &Path, written: &str) -> Option<AbsPathBuf> {
    let tail = relative_tail(Path::new(written))?;
    if !file.ends_with(&tail) {
        return None;
    }
    AbsPathBuf::new(file.ancestors().nth(tail.components().count())?.to_path_buf()).ok()
}

/// Protects the files a recipe file's reading names ([`crate::recipes::RecipeRead`]): what a
/// makefile includes is part of it (finding F73), the folders whose files a recipe file that
/// is code loads (F95, whole), a Cargo workspace's members by pattern (F100: their manifests
/// and build scripts by name under the pattern's folder); out of the agent's reach, existing
/// or not.
fn protect_recipe_files(
    out: &mut DefinitionProtection,
    found: &crate::recipes::RecipeRead,
    resolver: &mut Resolver,
) {
    for included in &found.included {
        protect_at(out, &Loc::Dir(root()), included, PathRole::Loaded, resolver);
    }
    for folder in &found.folders {
        let Some(folder) = crate::paths::normalize_absolute(folder) else { continue };
        protect_at(out, &Loc::Dir(root()), folder.as_path(), PathRole::Modules, resolver);
    }
    for module in &found.compiled {
        let Some(module) = crate::paths::normalize_absolute(module) else { continue };
        protect_at(out, &Loc::Dir(root()), module.as_path(), PathRole::Compiled, resolver);
    }
    for (folder, names) in &found.names_under {
        let Some(folder) = crate::paths::normalize_absolute(folder) else { continue };
        for name in *names {
            let under = any(folder.clone(), false);
            protect_at(out, &under, Path::new(name), PathRole::Loaded, resolver);
        }
    }
}

/// Protects what the ssh configuration files among `out`'s paths include (`Include` lines,
/// finding F58): the user's `~/.ssh/config` and the system's `/etc/ssh/ssh_config`, read
/// for the files their includes name ([`crate::sshconfig::read_ssh_configuration`], relative
/// ones from `~/.ssh` or `/etc/ssh`), protected as they are, and the folders an included
/// wildcard reads from (`Include config.d/*`), whole; existing or not. And what their lines
/// have ssh run or load (finding F61): the commands of `ProxyCommand`, `KnownHostsCommand`,
/// `LocalCommand` and `Match exec`, analysed as a hook's own line run where the hook runs
/// (ssh gives them to the shell from there), and the libraries `PKCS11Provider` and
/// `SecurityKeyProvider` name.
fn protect_ssh_configuration(
    out: &mut DefinitionProtection,
    launch: &HookLaunch,
    placed: Placed<'_>,
    resolver: &mut Resolver,
) {
    let mut configs: Vec<(AbsPathBuf, PathBuf)> = (out.paths.iter())
        .filter_map(|p| {
            let path = p.as_path();
            let folder = path.parent()?;
            let user = path.file_name()? == "config" && folder.file_name()? == ".ssh";
            let system = path == Path::new(crate::scripts::SSH_SYSTEM_CONFIG);
            (user || system).then(|| (p.clone(), folder.to_path_buf()))
        })
        .collect();
    // A file `ssh -F` names is read as the user's configuration: its relative `Include`s
    // from `~/.ssh` of the home ssh takes (checked with OpenSSH 9.2 here), `~` that home.
    // Where that home is not `$HOME` (finding F63), from both: which one a user's ssh takes is
    // the system's to say.
    let ssh_folders: Vec<PathBuf> = (placed.ssh_home.into_iter().chain(placed.home))
        .map(|h| h.as_path().join(".ssh"))
        .collect();
    for config in &out.ssh_configs {
        let fallback = config.as_path().parent().map(Path::to_path_buf).unwrap_or_default();
        let folders = match ssh_folders.is_empty() {
            true => vec![fallback],
            false => ssh_folders.clone(),
        };
        for folder in folders {
            if !configs.iter().any(|(c, f)| c == config && *f == folder) {
                configs.push((config.clone(), folder));
            }
        }
    }
    let mut commands: Vec<String> = Vec::new();
    // ssh's `%d` is always the home it takes from the password database.
    let ssh_home = placed.ssh_home.map(AbsPathBuf::as_path);
    for (config, folder) in configs {
        // ssh's `~` is the home it reads the file from.
        let home = match ssh_home {
            Some(ssh_home) if folder.parent() == Some(ssh_home) => Some(ssh_home),
            _ => placed.home.map(AbsPathBuf::as_path),
        };
        let read =
            crate::sshconfig::read_ssh_configuration(config.as_path(), &folder, home, ssh_home);
        for place in read.included {
            let (path, role) = match place {
                crate::sshconfig::Included::File(f) => (f, PathRole::Argument),
                crate::sshconfig::Included::Folder(f) => (f, PathRole::Modules),
            };
            let Some(path) = crate::paths::normalize_absolute(&path) else { continue };
            protect_at(out, &Loc::Dir(root()), path.as_path(), role, resolver);
        }
        for run in read.runs {
            match run {
                crate::sshconfig::Runs::Command(line) => {
                    if !commands.contains(&line) {
                        commands.push(line);
                    }
                }
                crate::sshconfig::Runs::Library(library) => {
                    let path = crate::paths::home_or_absolute(&library, home);
                    let Some(path) = path.and_then(|p| crate::paths::normalize_absolute(&p)) else {
                        continue;
                    };
                    protect_at(out, &Loc::Dir(root()), path.as_path(), PathRole::Loaded, resolver);
                }
            }
        }
    }
    if !commands.is_empty() {
        let run_dirs = locate(&launch.run_dir, placed);
        protect_commands(out, commands, &run_dirs, launch, placed, resolver);
    }
}

/// The top folder of the repository whose configuration is `config`, where git runs its
/// hooks: the folder holding `.git/config`'s `.git`, or the worktree a linked worktree's
/// folder in the main repository names (its `gitdir` file: the worktree's `.git` file).
fn repository_top(config: &Path) -> Option<PathBuf> {
    let dir = config.parent()?;
    if config.file_name()? != "config" {
        return None;
    }
    if dir.file_name()? == ".git" {
        return dir.parent().map(Path::to_path_buf);
    }
    let text = crate::installations::read_small(&dir.join("gitdir"))?;
    let dot_git = PathBuf::from(text.lines().next()?.trim());
    dot_git.is_absolute().then(|| dot_git.parent().map(Path::to_path_buf)).flatten()
}

/// The program a `#!` line's text runs: its first word's name, or the program `env` runs.
fn interpreter_of(line: &str) -> Option<String> {
    shebang_program(line).map(|word| crate::scripts::basename(&word).to_owned())
}

/// Whether a program's name is a POSIX-like shell's.
fn is_shell(name: &str) -> bool {
    crate::scripts::POSIX_SHELLS.contains(&name)
}

fn protect_at(
    out: &mut DefinitionProtection,
    loc: &Loc,
    rel: &Path,
    role: PathRole,
    resolver: &mut Resolver,
) {
    match loc {
        Loc::Dir(dir) if role == PathRole::Compiled => {
            for full in joined_places(dir, rel, resolver) {
                let path = full.as_path();
                let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
                    continue;
                };
                // Beside the source, and in the folder Python caches it in.
                for folder in [folder.to_path_buf(), folder.join("__pycache__")] {
                    let Ok(folder) = AbsPathBuf::new(folder) else { continue };
                    for located in locations_with(resolver, &folder) {
                        out.stems.push((located, PathBuf::from(name), false));
                    }
                }
            }
        }
        Loc::Dir(dir) => {
            for full in joined_places(dir, rel, resolver) {
                if matches!(role, PathRole::Tree | PathRole::Beside | PathRole::Modules) {
                    for located in locations_with(resolver, &full) {
                        out.patterns.push((located, PathBuf::new(), None));
                    }
                } else {
                    out.paths.extend(locations_with(resolver, &full));
                }
            }
        }
        Loc::Any { scope, prefix, session } => {
            let joined = normalize_relative(&prefix.join(rel));
            // A leading `..` climbs out of the folder that varies: any folder will do.
            let ups = joined.components().take_while(|c| *c == Component::ParentDir).count();
            let tail: PathBuf = joined.components().skip(ups).collect();
            let scope = if ups > 0 { root() } else { scope.clone() };
            if tail.as_os_str().is_empty() {
                return;
            }
            if role == PathRole::Beside {
                // Only the script itself can be named under a folder that varies; its
                // helpers' folder is protected where the run directory is known.
                return;
            }
            if matches!(role, PathRole::Tree | PathRole::Modules) {
                out.uncertain.push(format!(
                    "the folder `{}` under a directory that varies cannot be protected as a whole",
                    tail.display()
                ));
                return;
            }
            if role == PathRole::Compiled {
                // Under any folder whose path ends as the module's does, and in its cache.
                if let Some(name) = tail.file_name() {
                    let cache = tail.with_file_name("__pycache__").join(name);
                    out.stems.push((scope.clone(), tail.clone(), true));
                    out.stems.push((scope, cache, true));
                }
                return;
            }
            out.patterns.push((scope, tail, session.then_some(joined)));
        }
    }
}

/// How many symlinks [`locations_with`] follows from a path that does not exist.
const MAX_DANGLING_HOPS: u32 = 16;

/// [`locations_with`] through a resolver of its own.
#[cfg(test)]
pub(crate) fn locations(path: &AbsPathBuf) -> Vec<AbsPathBuf> {
    locations_with(&mut Resolver::default(), path)
}

/// Canonical forms of paths, each asked of the file system once: the expected files of every
/// format lie under the same few folders, and resolving each of them from scratch (`realpath`
/// reads every component of the path, twice for a file that does not exist) cost a one-shot
/// `hooks fire` about a thousand `readlink` calls; a source's scripts lie under the same few
/// folders too. Kept for one computation only (the expected files of one publish, the
/// scripts of one source's compile), so it never outlives the file system state it saw.
///
/// The `lstat` of each path is remembered too: a missing expected file is looked up once for
/// its canonical form and once more to ask whether it is a dangling symlink, which doubled
/// the `statx` calls of a one-shot `hooks fire` (`Resolver::lstats` counts them).
///
/// What is known is kept per path in one map keyed by the path's bytes (hashing a `Path`
/// walks its components, which cost an unchanged source's reload more than the `lstat`s the
/// map saves), and a path's lenient form is kept with it: a missing file's is its folder's
/// with its name appended, so the folder's ancestors are walked once per computation, not
/// once per file (`Resolver::probes` counts the lookups).
#[derive(Debug, Default)]
pub(crate) struct Resolver {
    known: HashMap<OsString, Known, PathHashing>,
    /// The names in each folder listed ([`Resolver::files_named`]); `None`: it could not be
    /// listed, or had more than [`MAX_FOLDER_ENTRIES`] entries.
    listings: HashMap<PathBuf, Option<HashSet<OsString>>>,
    /// How many `lstat` calls reached the file system.
    lstats: usize,
    /// How many times a path was looked up in `known`.
    #[cfg(test)]
    probes: std::cell::Cell<usize>,
}

/// What a [`Resolver`] learnt of one path.
#[derive(Debug, Default)]
struct Known {
    /// What `lstat` found there (`Some(None)`: nothing), once asked.
    entry: Option<Option<Entry>>,
    /// Its canonical form (`Some(None)`: it does not resolve), once asked.
    canonical: Option<Option<AbsPathBuf>>,
    /// Its lenient form ([`Resolver::lenient`]), once asked.
    lenient: Option<AbsPathBuf>,
}

/// What `lstat` found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A symbolic link.
    Symlink,
    /// Anything else, or something `lstat` could not read (but that may exist).
    Other,
}

impl Resolver {
    /// The files among `names` in `folder`: the folder is listed once per computation (a
    /// tool's configurations are looked for in the same folders above each hook that runs
    /// it), and a folder that cannot be listed whole (more than [`MAX_FOLDER_ENTRIES`]
    /// entries) is asked for each name.
    fn files_named(&mut self, folder: &Path, names: &[&str]) -> Vec<PathBuf> {
        if !self.listings.contains_key(folder) {
            let listing = std::fs::read_dir(folder).ok().and_then(|entries| {
                let mut seen = HashSet::new();
                for entry in entries.flatten() {
                    if seen.len() >= MAX_FOLDER_ENTRIES {
                        return None;
                    }
                    seen.insert(entry.file_name());
                }
                Some(seen)
            });
            self.listings.insert(folder.to_path_buf(), listing);
        }
        let listing = self.listings.get(folder).and_then(Option::as_ref);
        (names.iter())
            .filter(|name| match listing {
                Some(seen) => seen.contains(std::ffi::OsStr::new(name)),
                None => folder.join(name).is_file(),
            })
            .map(|name| folder.join(name))
            .collect()
    }

    /// What is known of `path`, if it was asked before.
    fn get(&self, path: &Path) -> Option<&Known> {
        #[cfg(test)]
        self.probes.set(self.probes.get() + 1);
        self.known.get(path.as_os_str())
    }

    /// What is known of `path`, made room for.
    fn slot(&mut self, path: &Path) -> &mut Known {
        // Not `entry`, which would copy the key when it is there already.
        let key = path.as_os_str();
        if !self.known.contains_key(key) {
            self.known.insert(key.to_owned(), Known::default());
        }
        self.known.get_mut(key).expect("inserted above")
    }

    /// `lstat` of `path`, remembered: `None` when nothing is there.
    fn entry(&mut self, path: &Path) -> Option<Entry> {
        if let Some(entry) = self.get(path).and_then(|k| k.entry) {
            return entry;
        }
        self.lstats += 1;
        let entry = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(_) => Some(Entry::Other),
            Ok(m) if m.file_type().is_symlink() => Some(Entry::Symlink),
            Ok(_) => Some(Entry::Other),
        };
        self.slot(path).entry = Some(entry);
        entry
    }

    /// How many `lstat` calls this resolver made.
    #[cfg(test)]
    pub(crate) fn lstats(&self) -> usize {
        self.lstats
    }

    /// How many times this resolver looked a path up.
    #[cfg(test)]
    pub(crate) fn probes(&self) -> usize {
        self.probes.get()
    }

    /// [`canonicalize`], remembered; `None` when it fails. A path whose `lstat` finds nothing
    /// cannot be resolved either (some component of it is missing), so it costs one call.
    fn canonical(&mut self, path: &Path) -> Option<AbsPathBuf> {
        if let Some(known) = self.get(path).and_then(|k| k.canonical.as_ref()) {
            return known.clone();
        }
        let resolved = match self.entry(path) {
            None => None,
            Some(_) => canonicalize(path).ok(),
        };
        self.slot(path).canonical = Some(resolved.clone());
        resolved
    }

    /// `canonicalize_lenient`, its ancestors resolved through [`Resolver::canonical`]: the
    /// nearest ancestor that resolves, with the rest appended as written.
    fn lenient(&mut self, path: &Path, base: &AbsPathBuf) -> AbsPathBuf {
        if path.is_absolute()
            && is_normal(path)
            && let Ok(path) = AbsPathBuf::new(path.to_path_buf())
        {
            return self.lenient_normal(&path);
        }
        self.lenient_normal(&normalize_lexically(path, base))
    }

    /// [`Resolver::lenient`] of a path with no `.`, `..` or empty component: the path's
    /// canonical form when it resolves; otherwise its folder's lenient form with its name
    /// appended (the nearest ancestor that resolves, with the rest appended), remembered.
    fn lenient_normal(&mut self, path: &AbsPathBuf) -> AbsPathBuf {
        if let Some(known) = self.get(path.as_path()).and_then(|k| k.lenient.as_ref()) {
            return known.clone();
        }
        let resolved = match self.canonical(path.as_path()) {
            Some(resolved) => resolved,
            None => match (path.parent(), path.as_path().file_name()) {
                (Some(folder), Some(name)) => self
                    .lenient_normal(&folder)
                    .join(Path::new(name))
                    .unwrap_or_else(|_| path.clone()),
                _ => path.clone(),
            },
        };
        self.slot(path.as_path()).lenient = Some(resolved.clone());
        resolved
    }
}

/// Where a named file is, as the guard resolves an edited path: its canonical path when it
/// exists; otherwise its nearest existing folder canonicalized with the rest appended, and,
/// when that is a dangling symlink, where the link points (writing through it creates that).
/// Paths are resolved through `resolver`.
/// Where `rel` under `dir` is: one place, normalized; for a `rel` with `..` in it as a
/// configuration writes it (a formatter's plugin `../shared/p.mjs`, a makefile's `include
/// ../common.mk`), both the place without them lexically and the one the system takes (a
/// symlinked folder's `..` is its target's parent), so that neither is the agent's to write.
fn joined_places(dir: &AbsPathBuf, rel: &Path, resolver: &mut Resolver) -> Vec<AbsPathBuf> {
    if let Ok(full) = dir.join(rel) {
        return vec![normalize_abs(&full)];
    }
    let joined = dir.as_path().join(rel);
    let mut out: Vec<AbsPathBuf> = crate::paths::normalize_absolute(&joined).into_iter().collect();
    let physical = (joined.parent().zip(joined.file_name()))
        .and_then(|(parent, name)| Some(resolver.canonical(parent)?.as_path().join(name)))
        .and_then(|p| AbsPathBuf::new(p).ok());
    out.extend(physical.filter(|p| !out.contains(p)));
    out
}

pub(crate) fn locations_with(resolver: &mut Resolver, path: &AbsPathBuf) -> Vec<AbsPathBuf> {
    if let Some(canonical) = resolver.canonical(path.as_path()) {
        return vec![canonical];
    }
    let mut out = Vec::new();
    let mut current = if is_normal(path.as_path()) {
        resolver.lenient_normal(path)
    } else {
        resolver.lenient(path.as_path(), path)
    };
    for _ in 0..MAX_DANGLING_HOPS {
        out.push(current.clone());
        let is_link = resolver.entry(current.as_path()) == Some(Entry::Symlink);
        let Some(target) = is_link.then(|| std::fs::read_link(current.as_path()).ok()).flatten()
        else {
            break;
        };
        let base = current.parent().unwrap_or_else(|| current.clone());
        let Ok(next) = base.join(&target) else { break };
        if let Some(canonical) = resolver.canonical(next.as_path()) {
            out.push(canonical);
            break;
        }
        current = resolver.lenient(next.as_path(), &base);
        if out.contains(&current) {
            break;
        }
    }
    out
}

/// The path a command runs, as written (relative or absolute), when it names one: the
/// program when it is a path, or the script an interpreter or a runner runs (`bash x.sh`,
/// `uv run x.py`, `npx tsx x.ts`), found through wrappers and compound commands
/// ([`crate::scripts::analyse`]). Relative to the directory the command runs in; `None`
/// when the command runs a program from `PATH` with no script, or names its script through
/// a variable.
pub fn script_candidate(command: &HookCommand) -> Option<PathBuf> {
    let analysis = analyse(command);
    let main = |role: PathRole| {
        analysis
            .paths
            .iter()
            .find(|p| p.role == role && matches!(p.base, PathBase::Root | PathBase::RunDir))
    };
    main(PathRole::Script).or_else(|| main(PathRole::Program)).map(|p| p.path.clone())
}

/// Resolves the command's script ([`script_candidate`]) against `working_dir` and
/// canonicalizes it; `None` unless it names an existing regular file.
pub fn resolve_script(command: &HookCommand, working_dir: &AbsPathBuf) -> Option<AbsPathBuf> {
    let candidate = script_candidate(command)?;
    let joined =
        if candidate.is_absolute() { candidate } else { working_dir.as_path().join(candidate) };
    let resolved = canonicalize(&joined).ok()?;
    std::fs::metadata(resolved.as_path()).ok().filter(|m| m.is_file()).map(|_| resolved)
}

#[cfg(test)]
mod tests;
