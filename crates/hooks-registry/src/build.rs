//! The pure step of a publish: from what each source contributes, in precedence order, to
//! the snapshot's binding index and protected paths.
//!
//! Nothing here reads or changes the registry's state: [`HookRegistry`](crate::HookRegistry)
//! keeps the per-source state machine (loads, trust, roots, the pin) and decides which
//! sources run; these functions only assemble what a snapshot holds from that, so the same
//! inputs always give the same snapshot parts (`specs/registry.md`, "Publishing").

use std::{collections::BTreeMap, sync::Arc};

use hooks_schema::{AbsPathBuf, Binding, HookSourceId};

use crate::{
    policy::{PolicyTable, Subject},
    protect::{ExpectedPlaces, ProtectedKind, ProtectedPath, ProtectedPaths, ProtectedPattern},
    snapshot::{BindingIndex, Contribution, RootKeys},
};

/// A source's bindings at one place: under a project root, or everywhere (`None`), with the
/// directory its hooks run in there.
#[derive(Debug)]
pub(crate) struct PlacedBindings {
    pub(crate) project_root: Option<AbsPathBuf>,
    pub(crate) working_dir: AbsPathBuf,
    pub(crate) bindings: Arc<[Binding]>,
}

/// One source that runs, as the binding index sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Running<'a> {
    /// `(kind priority, source sequence number)`: orders its bindings among the others'.
    pub(crate) key: (u32, u64),
    /// What the source policy's switches see of it.
    pub(crate) subject: Subject,
    /// Its bindings per place.
    pub(crate) places: &'a [PlacedBindings],
}

/// The binding index of the sources that run (given in precedence order) under the
/// switches of `policy`, for the project roots `roots`.
///
/// A source outside every project contributes to each policy variant that does not cut it,
/// and to the "runs somewhere" list when one variant keeps it; a project source contributes
/// under its root unless that root's policy cuts it. Where files of its format list hook
/// names ([`hooks_schema::SourcePolicy::disables`]), only its bindings not named there
/// contribute (the "runs somewhere" list keeps those some variant keeps). A place without
/// bindings, and a root `roots` does not know, contribute nothing.
pub(crate) fn binding_index<'a>(
    running: impl IntoIterator<Item = Running<'a>>,
    policy: &Arc<PolicyTable>,
    roots: &Arc<RootKeys>,
) -> BindingIndex {
    let variants = policy.variants();
    let mut global: Vec<Vec<Contribution>> = vec![Vec::new(); variants.len()];
    let mut anywhere: Vec<Contribution> = Vec::new();
    let mut scoped: Vec<Vec<Contribution>> = vec![Vec::new(); roots.list.len()];
    for source in running {
        for place in source.places.iter().filter(|p| !p.bindings.is_empty()) {
            let c = Contribution { key: source.key, bindings: place.bindings.clone() };
            match &place.project_root {
                None => {
                    let mut kept_anywhere = vec![false; c.bindings.len()];
                    for (cuts, list) in variants.iter().zip(global.iter_mut()) {
                        if cuts.removes(source.subject).is_some() {
                            continue;
                        }
                        match cuts.kept(source.subject, &c.bindings) {
                            None => {
                                list.push(c.clone());
                                kept_anywhere.fill(true);
                            }
                            Some(kept) => {
                                for (k, a) in kept.iter().zip(kept_anywhere.iter_mut()) {
                                    *a |= *k;
                                }
                                list.extend(only(&c, &kept));
                            }
                        }
                    }
                    anywhere.extend(only(&c, &kept_anywhere));
                }
                Some(root) => {
                    let Some(i) = roots.index(root) else { continue };
                    let cuts = policy.at(Some(i));
                    if cuts.removes(source.subject).is_some() {
                        continue;
                    }
                    let Some(list) = scoped.get_mut(i) else { continue };
                    match cuts.kept(source.subject, &c.bindings) {
                        None => list.push(c),
                        Some(kept) => list.extend(only(&c, &kept)),
                    }
                }
            }
        }
    }
    BindingIndex::new(global, anywhere, policy.clone(), roots.clone(), scoped)
}

/// The bindings of `c` that `kept` keeps (shared when all are), or `None` when none is.
fn only(c: &Contribution, kept: &[bool]) -> Option<Contribution> {
    if kept.iter().all(|k| *k) {
        return Some(c.clone());
    }
    let bindings: Vec<Binding> =
        c.bindings.iter().zip(kept).filter(|(_, k)| **k).map(|(b, _)| b.clone()).collect();
    (!bindings.is_empty()).then(|| Contribution { key: c.key, bindings: bindings.into() })
}

/// What one source asks to protect, run or not.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Guarded<'a> {
    /// The source.
    pub(crate) id: &'a HookSourceId,
    /// Its file and the scripts of the parse in effect (shared with the snapshot as is).
    pub(crate) paths: &'a Arc<[ProtectedPath]>,
    /// The patterns of the parse in effect.
    pub(crate) patterns: &'a [ProtectedPattern],
    /// What a change seen after the pin names (protected at once, run from the next run).
    pub(crate) late_paths: &'a [ProtectedPath],
    /// The patterns of that change.
    pub(crate) late_patterns: &'a [ProtectedPattern],
    /// The paths the loader found the file at, and names that would replace it, per root.
    pub(crate) found: &'a BTreeMap<Option<AbsPathBuf>, Vec<AbsPathBuf>>,
}

/// The protected paths of the sources (in precedence order), the expected files of
/// `expected`'s places (under each project root and outside them), and their folder
/// patterns.
///
/// Each path is listed once per source (the parse in effect first, then a late change's,
/// then the paths the file was found at); an expected file is listed only when no source
/// lists its path. A source's paths of the parse in effect are shared, not copied, and so
/// are the places' expected files (resolved once for every set that shares a place).
pub(crate) fn protected_paths<'a>(
    sources: impl IntoIterator<Item = Guarded<'a>>,
    expected: ExpectedPlaces,
) -> ProtectedPaths {
    let mut parts: Vec<Arc<[ProtectedPath]>> = Vec::new();
    let mut patterns = Vec::new();
    for source in sources {
        parts.push(source.paths.clone());
        patterns.extend(source.patterns.iter().cloned());
        for p in source.late_patterns {
            if !source.patterns.contains(p) {
                patterns.push(p.clone());
            }
        }
        let mut extra: Vec<ProtectedPath> = Vec::new();
        for p in source.late_paths {
            if !source.paths.contains(p) {
                extra.push(p.clone());
            }
        }
        let mut found: Vec<&AbsPathBuf> = source.found.values().flatten().collect();
        found.sort();
        found.dedup();
        for path in found {
            if !source.paths.iter().any(|p| p.path == *path) {
                extra.push(ProtectedPath {
                    path: path.clone(),
                    source: source.id.clone(),
                    what: ProtectedKind::File,
                });
            }
        }
        if !extra.is_empty() {
            parts.push(Arc::from(extra));
        }
    }
    ProtectedPaths::with_expected(parts, patterns, expected)
}

#[cfg(test)]
mod tests;
