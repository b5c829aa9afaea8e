//! Explicit hook sources: files named by whoever started the run, directly or through a
//! folder (`WARP_HOOK_DIRS`, run configuration, factory definitions).

use std::path::{Path, PathBuf};

use hooks_schema::{ExplicitScope, FormatId, FormatSet, HookSourceKind};

use crate::locate::exists;

/// A hook file named explicitly by whoever started the run. It activates without the trust
/// policy ([`crate::load_explicit_sources`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExplicitHookSource {
    /// Who named it.
    pub scope: ExplicitScope,
    /// The file, as named (canonicalized when loaded).
    pub path: PathBuf,
    /// The format it is read in.
    pub format: FormatId,
    /// The names in its folder that would replace it if created (the candidates before it,
    /// for a file found through its folder), protected though they do not exist.
    pub replaced_by: Vec<&'static str>,
    /// The other candidates of its format present in its folder, which it shadows.
    pub shadows: Vec<&'static str>,
}

impl ExplicitHookSource {
    /// A source for `path` in `format`.
    pub fn new(scope: ExplicitScope, path: impl Into<PathBuf>, format: FormatId) -> Self {
        ExplicitHookSource {
            scope,
            path: path.into(),
            format,
            replaced_by: Vec::new(),
            shadows: Vec::new(),
        }
    }

    /// The kind it loads as: its scope, in its format.
    pub fn kind(&self) -> HookSourceKind {
        HookSourceKind::explicit(self.scope, Some(self.format))
    }
}

/// The hook files a folder named as an explicit source is searched for, in order, each with
/// the format that reads it there ([`FormatSet::explicit_candidates`]); the first that
/// exists wins.
///
/// With the workspace's formats: in a folder named `hooks` (Chrys keeps its file in
/// `.chrys/hooks/` and `<config_dir>/hooks/`), `hooks.yaml`, `hooks.yml`, `hooks.json` (all
/// Chrys) then Claude Code's `settings.json`; in any other folder, Cursor's `hooks.json`
/// first (`.cursor/` is the seed's natural folder), then `hooks.yaml`, `hooks.yml`,
/// `settings.json`.
pub fn hook_file_candidates(formats: &FormatSet, dir: &Path) -> Vec<(PathBuf, FormatId)> {
    formats.explicit_candidates(dir).into_iter().map(|(name, f)| (dir.join(name), f)).collect()
}

/// One explicit source per entry of `dirs`: the first of [`hook_file_candidates`] that
/// exists.
///
/// An entry that names a file rather than a folder is that file, in the format that claims
/// it ([`FormatSet::format_for_file`]); a file no format claims is left out.
///
/// A folder with none of them (or that does not exist) still gives a source, for its first
/// candidate, so that loading reports the missing file as an error instead of the run
/// silently starting without the hooks it was given. Order is kept; duplicates are left for
/// the loader, which identifies files by canonical path.
pub fn sources_for_hook_dirs(
    formats: &FormatSet,
    dirs: &[PathBuf],
    scope: ExplicitScope,
) -> Vec<ExplicitHookSource> {
    dirs.iter()
        .filter_map(|dir| {
            if dir.is_file() {
                let format = formats.format_for_file(dir)?.id();
                let mut source = ExplicitHookSource::new(scope, dir.clone(), format);
                // A file named directly is still a name of its folder's search order: the
                // names before it would replace it, and it shadows the later ones of its
                // format (as it would if its folder had been named).
                if let (Some(folder), Some(name)) = (dir.parent(), dir.file_name()) {
                    let candidates = formats.explicit_candidates(folder);
                    if let Some(at) = candidates.iter().position(|(n, _)| name == *n) {
                        (source.replaced_by, source.shadows) = around(folder, &candidates, at);
                    }
                }
                return Some(source);
            }
            let candidates = formats.explicit_candidates(dir);
            let at = candidates.iter().position(|(n, _)| exists(&dir.join(n))).unwrap_or(0);
            let &(name, format) = candidates.get(at)?;
            let (replaced_by, shadows) = around(dir, &candidates, at);
            Some(ExplicitHookSource { scope, path: dir.join(name), format, replaced_by, shadows })
        })
        .collect()
}

/// The candidates before the one at `at` (which would replace it), and the later ones of
/// its format present in `dir` (which it shadows), unless an earlier one of its format is
/// present (then it is shadowed itself and shadows nothing).
fn around(
    dir: &Path,
    candidates: &[(&'static str, FormatId)],
    at: usize,
) -> (Vec<&'static str>, Vec<&'static str>) {
    let Some(&(_, format)) = candidates.get(at) else { return (Vec::new(), Vec::new()) };
    let before = candidates.get(..at).unwrap_or_default();
    let mine = |(n, f): &&(&'static str, FormatId)| *f == format && exists(&dir.join(n));
    let shadows = if before.iter().any(|c| mine(&c)) {
        Vec::new()
    } else {
        candidates.iter().skip(at + 1).filter(mine).map(|(n, _)| *n).collect()
    };
    (before.iter().map(|(n, _)| *n).collect(), shadows)
}
