//! Loading sources into the registry: explicit sources (active without the trust policy)
//! and the user's own files (with it).

use std::{collections::HashMap, path::Path};

use hooks_registry::{HookRegistry, SourceUpdate};
use hooks_schema::{
    AbsPathBuf, FileContent, FileScope, FormatSet, HookDiagnostic, HookSourceId, ParseContext,
    ParseResult, ParsedSource,
};
use hooks_trust::{TrustInputs, TrustPolicy, explicit_source_decision};

use crate::{
    ExplicitHookSource, FoundFile, ManagedDirs, ReadError, UserDirs, find_files, found_paths,
    read::extend_diagnostics,
};

/// Loads explicit sources into `registry` and returns every error the registry recorded for
/// them.
///
/// Each file is read with [`read_source`](crate::read_source) and identified by its canonical path
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
    formats: &FormatSet,
    sources: &[ExplicitHookSource],
    strict: bool,
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
        let kind = source.kind();
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
        let ctx = ParseContext {
            strict,
            shadows: &source.shadows,
            ..ParseContext::new(&source.path, id.kind)
        };
        let result = match read_with(formats, &ctx) {
            Ok(parsed) => Ok(SourceUpdate {
                source: id.clone(),
                parsed,
                project_root: None,
                project_dir: None,
                trust: explicit_source_decision(id.kind),
            }),
            Err(e) => Err(e.to_diagnostic()),
        };
        let found = found_paths(&source.path, &source.replaced_by);
        ids.push(ReadFile { id, result, found }.apply(registry));
    }
    errors.extend(registry.errors_for(&ids));
    errors
}

/// Loads the user's own files of `formats` found in `dirs` into `registry` (see
/// [`read_user_sources`]). Returns the sources it loaded or tried to, so the caller can ask
/// `registry.errors_for` about them.
pub fn load_user_sources(
    formats: &FormatSet,
    dirs: &UserDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    strict: bool,
    registry: &mut HookRegistry,
) -> Vec<HookSourceId> {
    read_user_sources(formats, dirs, policy, inputs, strict).apply(registry)
}

/// Loads the managed files of `formats` found in `dirs` the way [`load_user_sources`] loads
/// the user's (see [`read_managed_sources`]).
pub fn load_managed_sources(
    formats: &FormatSet,
    dirs: &ManagedDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    strict: bool,
    registry: &mut HookRegistry,
) -> Vec<HookSourceId> {
    read_managed_sources(formats, dirs, policy, inputs, strict).apply(registry)
}

/// The user's own files of `formats` in `dirs` ([`find_files`] in the user scope), read from
/// disk with the decision `policy` gives each kind under `inputs`, not yet applied to a
/// registry (so a caller can read them before taking the registry's lock). A file that
/// cannot be read is kept as a read failure. `strict` reads each file under its format's
/// strict contract, where it has one. Each file is also protected where it was found and
/// under the names that would replace it ([`found_paths`]).
pub fn read_user_sources(
    formats: &FormatSet,
    dirs: &UserDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    strict: bool,
) -> ReadSources {
    read_files(
        formats,
        find_files(formats, FileScope::User, Path::new(""), dirs),
        policy,
        inputs,
        strict,
    )
}

/// The managed files of `formats` in `dirs`, read as [`read_user_sources`] reads the user's:
/// in precedence order, a folder of files (Claude Code's `managed-settings.d/`) in name order
/// and capped, its folder's warnings on the last file read from it.
pub fn read_managed_sources(
    formats: &FormatSet,
    dirs: &ManagedDirs,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    strict: bool,
) -> ReadSources {
    let found = find_files(formats, FileScope::Managed, Path::new(""), dirs);
    read_files(formats, found, policy, inputs, strict)
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
    formats: &FormatSet,
    files: Vec<FoundFile>,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
    strict: bool,
) -> ReadSources {
    let mut out: Vec<ReadFile> = Vec::new();
    for mut file in files {
        // Policy-only files are read when the runtime is built (`read_user_policy`); they are
        // not sources (yet) and bind nothing.
        if file.content == FileContent::PolicyOnly {
            continue;
        }
        let ctx = ParseContext {
            strict,
            shadows: &file.shadows,
            base: file.base.as_deref(),
            ..ParseContext::new(&file.path, file.kind)
        };
        // Read before it is identified: a file that may carry hooks and carries none is not
        // a source (`FileContent::HooksIfAny`), and costs no path resolution. A file its
        // agent would not read is not read (`Err`: why).
        let read = match file.not_read.take() {
            Some(why) => Err(why),
            None => Ok(read_with_bytes(formats, &ctx)),
        };
        if let Ok(Ok((_, parsed))) = &read
            && file.left_out(parsed)
        {
            continue;
        }
        let Some(canonical) = identity(&file.path) else { continue };
        let id = HookSourceId::new(file.kind, canonical);
        if out.iter().any(|f| f.id == id) {
            continue;
        }
        let result = match read {
            // Loaded without its hooks (and without its policy): its agent skips it too. Its
            // trust is its kind's, as every re-decision of the kind gives it; with no hook it
            // runs nothing either way, and the warning says why.
            Err(why) => Ok(SourceUpdate {
                source: id.clone(),
                trust: policy.decide(file.kind, inputs),
                parsed: Ok(ParsedSource { diagnostics: vec![why], ..ParsedSource::default() }),
                project_root: None,
                project_dir: None,
            }),
            Ok(read) => read.map_err(|e| e.to_diagnostic()).map(|read| {
                let trust = crate::decide_read(policy, &ctx, None, &read, inputs);
                let mut parsed = read.1;
                extend_diagnostics(&mut parsed, std::mem::take(&mut file.folder_warnings));
                SourceUpdate {
                    source: id.clone(),
                    parsed,
                    project_root: None,
                    project_dir: None,
                    trust,
                }
            }),
        };
        out.push(ReadFile { id, result, found: found_paths(&file.path, &file.replaced_by) });
    }
    ReadSources { files: out }
}

/// Reads `ctx.path` with the descriptor of `ctx.kind`'s format; a format that is not
/// registered rejects the file with an error naming it.
pub fn read_with(formats: &FormatSet, ctx: &ParseContext<'_>) -> Result<ParseResult, ReadError> {
    read_with_bytes(formats, ctx).map(|(_, parsed)| parsed)
}

/// [`read_with`], also handing back the bytes parsed ([`crate::read_source_bytes`]).
pub fn read_with_bytes(
    formats: &FormatSet,
    ctx: &ParseContext<'_>,
) -> Result<(Option<Vec<u8>>, ParseResult), ReadError> {
    match ctx.kind.format().and_then(|f| formats.get(f)) {
        Some(descriptor) => crate::read_source_bytes(&**descriptor, ctx),
        None => {
            let name = ctx.kind.format().map_or_else(|| "unknown".to_owned(), |f| f.to_string());
            let d = HookDiagnostic::error(format!(
                "the hook file's format `{name}` is not registered; it is not read"
            ))
            .in_file(ctx.path)
            .with_code("format_not_registered");
            Ok((None, Err(vec![d])))
        }
    }
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

#[cfg(test)]
mod tests;
