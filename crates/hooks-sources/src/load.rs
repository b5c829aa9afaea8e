//! Loading sources into the registry: explicit sources (active without the trust policy)
//! and the user's own files (with it).

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
};

use hooks_registry::{HookRegistry, SourceUpdate};
use hooks_schema::{AbsPathBuf, HookDiagnostic, HookSourceId, HookSourceKind};
use hooks_trust::{TrustInputs, TrustPolicy, explicit_source_decision};

#[cfg(doc)]
use crate::managed_files;
use crate::{
    ExplicitHookSource, ManagedDirs, SourceFormat, UserDirs, found_paths,
    managed_files_with_diagnostics, read::extend_diagnostics, read_source, user_files,
};

/// Loads explicit sources into `registry` and returns every error the registry recorded for
/// them.
///
/// Each file is read with [`read_source`] and identified by its canonical path
/// (`hooks_registry::canonicalize`), so a file named twice, directly or through a symlinked
/// directory, loads once; when one file is named under several scopes it loads once, under the
/// scope with the highest precedence. A file that does not exist is identified by its path
/// resolved as far as it exists (`hooks_registry::canonicalize_lenient`).
///
/// Explicit sources activate without consulting the trust policy
/// ([`hooks_trust::explicit_source_decision`]).
///
/// Besides its canonical path, each file is protected at the path it was named by and under
/// the names in its folder that would replace it ([`found_paths`]).
///
/// The result holds every [`Severity::Error`](hooks_schema::Severity::Error) diagnostic the
/// registry recorded for these files: a file that is missing or unreadable, a file that does
/// not parse, a definition the registry rejected (a timeout above the ceiling, say), and a
/// load after the run was pinned ("explicit sources must be loaded before the run starts"),
/// plus an error for a path that is not absolute (such a path is not loaded). Warnings stay
/// in the snapshot's diagnostics. An empty result means every named file loaded and its
/// definitions may run; a run that wants fail-closed behavior does not start otherwise.
///
/// Call it before the registry is pinned.
pub fn load_explicit_sources(
    sources: &[ExplicitHookSource],
    registry: &mut HookRegistry,
) -> Vec<HookDiagnostic> {
    let mut errors = Vec::new();
    // Canonical path -> (index into `planned`), so each file loads once, under the scope
    // with the highest precedence, at the position it was first named.
    let mut by_path: HashMap<AbsPathBuf, usize> = HashMap::new();
    let mut planned: Vec<(HookSourceId, &ExplicitHookSource)> = Vec::new();
    for source in sources {
        let Some(path) = identity(&source.path) else {
            errors.push(
                HookDiagnostic::error(format!(
                    "explicit hook source `{}` is not an absolute path; it is not loaded",
                    source.path.display()
                ))
                .in_file(&source.path)
                .with_code("relative_path"),
            );
            continue;
        };
        let kind = source.scope.kind();
        match by_path.get(&path) {
            Some(&i) => {
                if let Some(entry) = planned.get_mut(i)
                    && kind.priority() < entry.0.kind.priority()
                {
                    *entry = (HookSourceId::new(kind, path), source);
                }
            }
            None => {
                by_path.insert(path.clone(), planned.len());
                planned.push((HookSourceId::new(kind, path), source));
            }
        }
    }

    let mut ids = Vec::with_capacity(planned.len());
    for (id, source) in planned {
        let result = match read_source(&source.path, source.format) {
            Ok(parsed) => Ok(SourceUpdate {
                source: id.clone(),
                parsed,
                project_root: None,
                trust: explicit_source_decision(id.kind),
            }),
            Err(e) => Err(e.to_diagnostic()),
        };
        let found = found_paths(id.kind, &source.path);
        ids.push(ReadFile { id, result, found }.apply(registry));
    }
    errors.extend(registry.errors_for(&ids));
    errors
}

/// Loads the user's own hook files found in `dirs` ([`user_files`]) into `registry`, each
/// with the decision `policy` gives its kind under `inputs` (the static table activates them
/// everywhere). Returns the sources it loaded or tried to, so the caller can ask
/// `registry.errors_for` about them; a file that cannot be read is recorded as a read
/// failure. `claude_strict` reads Claude Code settings under the deny-only strict contract.
/// Each file is also protected where it was found and under the names that would replace it
/// ([`found_paths`]).
pub fn load_user_sources(
    dirs: &UserDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    claude_strict: bool,
    registry: &mut HookRegistry,
) -> Vec<HookSourceId> {
    read_user_sources(dirs, policy, inputs, claude_strict).apply(registry)
}

/// Loads the managed hook files found in `dirs` ([`managed_files`]) the way
/// [`load_user_sources`] loads the user's. Claude Code's base `managed-settings.json` loads
/// first, then each `managed-settings.d/` fragment as its own source, in name order (the
/// order in which its settings override the ones before). Warnings about the fragment folder
/// (too many fragments, a folder that cannot be listed) are added to the last Claude Code
/// managed file loaded.
pub fn load_managed_sources(
    dirs: &ManagedDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    claude_strict: bool,
    registry: &mut HookRegistry,
) -> Vec<HookSourceId> {
    read_managed_sources(dirs, policy, inputs, claude_strict).apply(registry)
}

/// The user's hook files read from disk as [`load_user_sources`] reads them, not yet applied
/// to a registry (so a caller can read them before taking the registry's lock).
pub fn read_user_sources(
    dirs: &UserDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    claude_strict: bool,
) -> ReadSources {
    read_files(user_files(dirs), policy, inputs, claude_strict, |_| None)
}

/// The managed hook files read from disk as [`load_managed_sources`] reads them (the fragment
/// list re-read in name order, capped, with the same folder warnings), not yet applied to a
/// registry.
pub fn read_managed_sources(
    dirs: &ManagedDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    claude_strict: bool,
) -> ReadSources {
    let (files, folder_warnings) = managed_files_with_diagnostics(dirs);
    let last_claude =
        files.iter().rposition(|(kind, _)| *kind == hooks_format_claude::MANAGED_SETTINGS);
    let mut extra = Some(folder_warnings).filter(|w| !w.is_empty());
    read_files(files, policy, inputs, claude_strict, |i| {
        if Some(i) == last_claude { extra.take() } else { None }
    })
}

/// Hook files read from disk with their trust decided, ready to apply to a registry
/// ([`read_user_sources`], [`read_managed_sources`]).
#[derive(Debug)]
pub struct ReadSources {
    files: Vec<ReadFile>,
}

#[derive(Debug)]
struct ReadFile {
    id: HookSourceId,
    result: Result<SourceUpdate, HookDiagnostic>,
    found: Vec<AbsPathBuf>,
}

impl ReadSources {
    /// The sources read (or that failed to read), in load order.
    pub fn ids(&self) -> Vec<HookSourceId> {
        self.files.iter().map(|f| f.id.clone()).collect()
    }

    /// Applies them to `registry`: each file that read is upserted (not scoped to any root),
    /// each that did not is recorded as a read failure, and each is protected where it was
    /// found. Returns the sources, in load order.
    pub fn apply(self, registry: &mut HookRegistry) -> Vec<HookSourceId> {
        self.files.into_iter().map(|file| file.apply(registry)).collect()
    }
}

impl ReadFile {
    /// Loads the file into `registry` (or records why it could not be read) with the paths
    /// it was found at; returns its id.
    fn apply(self, registry: &mut HookRegistry) -> HookSourceId {
        let ReadFile { id, result, found } = self;
        match result {
            Ok(update) => {
                registry.upsert_source(update);
            }
            Err(d) => {
                registry.record_read_failure(&id, None, d);
            }
        }
        registry.set_found_paths(&id, None, found);
        id
    }
}

fn read_files(
    files: Vec<(HookSourceKind, PathBuf)>,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    claude_strict: bool,
    mut extra: impl FnMut(usize) -> Option<Vec<HookDiagnostic>>,
) -> ReadSources {
    let mut out: Vec<ReadFile> = Vec::new();
    for (i, (kind, path)) in files.into_iter().enumerate() {
        let extra = extra(i).unwrap_or_default();
        let Some(canonical) = identity(&path) else { continue };
        let id = HookSourceId::new(kind, canonical);
        if out.iter().any(|f| f.id == id) {
            continue;
        }
        let format = format_of(kind).with_claude_strict(claude_strict);
        let result = match read_source(&path, format) {
            Ok(mut parsed) => {
                extend_diagnostics(&mut parsed, extra);
                Ok(SourceUpdate {
                    source: id.clone(),
                    parsed,
                    project_root: None,
                    trust: policy.decide(kind, inputs),
                })
            }
            Err(e) => Err(e.to_diagnostic()),
        };
        out.push(ReadFile { id, result, found: found_paths(kind, &path) });
    }
    ReadSources { files: out }
}

/// The canonical path of an absolute `path`, or, when it does not exist, the path resolved
/// as far as it exists. `None` for a relative path.
fn identity(path: &Path) -> Option<AbsPathBuf> {
    if !path.is_absolute() {
        return None;
    }
    if let Ok(p) = hooks_registry::canonicalize(path) {
        return Some(p);
    }
    // The base only matters for relative paths; an absolute path's own root will do.
    let root = AbsPathBuf::new(path.ancestors().last()?.to_path_buf()).ok()?;
    Some(hooks_registry::canonicalize_lenient(path, &root))
}

fn format_of(kind: HookSourceKind) -> SourceFormat {
    // User and managed kinds always have a format; explicit kinds never reach here.
    SourceFormat::of_kind(kind).unwrap_or(SourceFormat::Cursor)
}

#[cfg(test)]
mod tests;
