//! Where a hook file was found, beyond its canonical path: the path through which the loader
//! reached it and the names that would replace it, which the registry protects as well.

use std::{ffi::OsStr, path::Path};

use hooks_format_chrys::merge::FILE_NAMES;
use hooks_schema::{AbsPathBuf, HookSourceKind};

use crate::discover::candidate_names;
#[cfg(doc)]
use crate::hook_file_candidates;

/// The names in `dir` that a loader would read instead of `name` if they existed, for a
/// source of `kind`, in precedence order.
///
/// - A Chrys file (`ProjectChrysFile`, `UserChrysFile`): the Chrys names before it
///   (`hooks.yaml` before `hooks.yml` before `hooks.json`).
/// - An explicit source: the [`hook_file_candidates`] of `dir` before it. A file named
///   directly rather than through its directory gets them too, which over-protects names
///   that would not replace it.
/// - Any other kind: nothing; Cursor and Claude Code read one fixed name per source
///   (`.claude/settings.local.json` and `settings.json` are two sources, not a precedence).
pub fn shadowing_names(kind: HookSourceKind, dir: &Path, name: &OsStr) -> Vec<&'static str> {
    let before = |names: &[&'static str]| -> Vec<&'static str> {
        match names.iter().position(|n| OsStr::new(n) == name) {
            Some(i) => names.get(..i).unwrap_or_default().to_vec(),
            None => Vec::new(),
        }
    };
    if kind.is_explicit() {
        return before(&candidate_names(dir).map(|(name, _)| name));
    }
    if kind == hooks_format_chrys::PROJECT_FILE || kind == hooks_format_chrys::USER_FILE {
        return before(&FILE_NAMES);
    }
    Vec::new()
}

/// The paths to protect for a file a loader found at `path` (absolute, as found, before
/// canonicalization) for a source of `kind`, to pass to
/// `hooks_registry::HookRegistry::set_found_paths`:
///
/// - the path it was found at, with its folder resolved and its own name kept, so a symlink
///   such as `<root>/.cursor/hooks.json` is protected as well as its target (replacing the
///   link swaps the policy);
/// - each name in the same folder that would replace it ([`shadowing_names`]), which need
///   not exist (an agent creating `hooks.yaml` beside a loaded `hooks.json` replaces the
///   policy).
///
/// Folders are resolved with `hooks_registry::canonicalize_lenient`, which is how the guard
/// resolves an edited path that does not exist yet. A relative path, or one without a file
/// name, gives nothing. When the file is not a symlink, the first path is its canonical
/// path, which the registry already protects and leaves out.
pub fn found_paths(kind: HookSourceKind, path: &Path) -> Vec<AbsPathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return Vec::new() };
    let Some(base) = path.ancestors().last().and_then(|r| AbsPathBuf::new(r.to_path_buf()).ok())
    else {
        return Vec::new();
    };
    let folder = hooks_registry::canonicalize_lenient(dir, &base);
    let mut out = Vec::new();
    out.extend(folder.join(Path::new(name)).ok());
    // The folder's name as found decides the order, as it did for the loader.
    for shadow in shadowing_names(kind, dir, name) {
        out.extend(folder.join(Path::new(shadow)).ok());
    }
    out
}

#[cfg(test)]
mod tests;
