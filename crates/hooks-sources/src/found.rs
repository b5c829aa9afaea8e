//! Where a hook file was found, beyond its canonical path: the path through which the loader
//! reached it and the names that would replace it, which the registry protects as well.

use std::path::Path;

use hooks_schema::AbsPathBuf;

/// The paths to protect for a file a loader found at `path` (absolute, as found, before
/// canonicalization), to pass to `hooks_registry::HookRegistry::set_found_paths`:
///
/// - the path it was found at, with its folder resolved and its own name kept, so a symlink
///   such as `<root>/.cursor/hooks.json` is protected as well as its target (replacing the
///   link swaps the policy);
/// - each name in the same folder that would replace it (`replaced_by`: the earlier names of
///   its [`FilePattern::FirstOf`](hooks_schema::FilePattern::FirstOf) group, or the explicit
///   candidates before it), which need not exist (an agent creating `hooks.yaml` beside a
///   loaded `hooks.json` replaces the policy).
///
/// Folders are resolved with `hooks_registry::canonicalize_lenient`, which is how the guard
/// resolves an edited path that does not exist yet. A relative path, or one without a file
/// name, gives nothing. When the file is not a symlink, the first path is its canonical
/// path, which the registry already protects and leaves out.
pub fn found_paths(path: &Path, replaced_by: &[&str]) -> Vec<AbsPathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return Vec::new() };
    let Some(base) = path.ancestors().last().and_then(|r| AbsPathBuf::new(r.to_path_buf()).ok())
    else {
        return Vec::new();
    };
    let folder = hooks_registry::canonicalize_lenient(dir, &base);
    let mut out = Vec::new();
    out.extend(folder.join(Path::new(name)).ok());
    for name in replaced_by {
        out.extend(folder.join(Path::new(name)).ok());
    }
    out
}

#[cfg(test)]
mod tests;
