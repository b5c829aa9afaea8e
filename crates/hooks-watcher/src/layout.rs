//! Where the registered formats' files live, seen from the watcher: the folders to watch
//! under a project root and in the user's or administrator's folders, and which paths a
//! change must touch to matter. Everything comes from the descriptors' locations
//! ([`hooks_schema::FileLocation`]); nothing here names a format.

use std::path::{Component, Path, PathBuf};

use hooks_schema::{FilePattern, FileScope, FormatSet};
use hooks_sources::{Place, ScopeDirs};

#[cfg(test)]
mod tests;

/// What a path is to the place it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Touch {
    /// The project root itself (deleted or moved while watched).
    Root,
    /// A folder that holds, or leads to, a hook file.
    Folder,
    /// A hook file, or a name that would be one if created.
    HookFile,
}

/// The project side of the formats' locations: the folders under a root that lead to a hook
/// file, and the relative names of the hook files. Built once per watcher.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    formats: FormatSet,
    /// Every folder under a root that holds a project hook file or leads to one, relative,
    /// outermost first, each once (`.cursor`, `.chrys`, `.chrys/hooks`, `.claude`).
    folders: Vec<&'static str>,
    /// The folders of recursive project locations ([`FilePattern::is_recursive`]), relative:
    /// their subfolders are watched too, as they are found.
    nested: Vec<&'static str>,
    /// How many components the deepest project hook file has below its root.
    depth: usize,
}

impl Layout {
    pub(crate) fn new(formats: FormatSet) -> Layout {
        let mut folders: Vec<&'static str> = Vec::new();
        let mut nested: Vec<&'static str> = Vec::new();
        let mut depth = 1;
        for f in formats.iter() {
            for l in f.locations().iter().filter(|l| l.scope == FileScope::Project) {
                for folder in l.pattern.folders() {
                    if !folders.contains(&folder) {
                        folders.push(folder);
                    }
                }
                let dir = l.pattern.dir();
                let mut below = dir.split('/').filter(|p| !p.is_empty()).count() + 1;
                if l.pattern.is_recursive() {
                    below += FilePattern::MAX_NESTING;
                    if !nested.contains(&dir) {
                        nested.push(dir);
                    }
                }
                depth = depth.max(below);
            }
        }
        Layout { formats, folders, nested, depth }
    }

    /// Whether a location of `scope` reads its folder recursively, so new subfolders must be
    /// looked for after watching one.
    pub(crate) fn has_nested(&self, scope: FileScope) -> bool {
        match scope {
            FileScope::Project => !self.nested.is_empty(),
            FileScope::User | FileScope::Managed => self
                .formats
                .iter()
                .flat_map(|f| f.locations())
                .any(|l| l.scope == scope && l.pattern.is_recursive()),
        }
    }

    /// The formats.
    pub(crate) fn formats(&self) -> &FormatSet {
        &self.formats
    }

    /// What `path` is to `root`, or `None` when a change to it cannot change the root's hooks.
    pub(crate) fn touch(&self, root: &Path, path: &Path) -> Option<Touch> {
        if path == root {
            return Some(Touch::Root);
        }
        let rel = relative(root, path, self.depth)?;
        if self.folders.contains(&rel.as_str()) {
            return Some(Touch::Folder);
        }
        let project = || {
            self.formats
                .iter()
                .flat_map(|f| f.locations())
                .filter(|l| l.scope == FileScope::Project)
        };
        classify(path, project().any(|l| l.pattern.matches(&rel)), || {
            project().any(|l| l.pattern.holds_subfolder(&rel))
        })
    }

    /// The watched root `path` belongs to and what it is to it, looking at `path` and its
    /// nearest ancestors up to the depth of the deepest hook file, so the cost does not grow
    /// with the number of roots. The nearest root wins when roots are nested.
    pub(crate) fn owning_root(
        &self,
        path: &Path,
        is_root: impl Fn(&Path) -> bool,
    ) -> Option<(PathBuf, Touch)> {
        path.ancestors()
            .take(self.depth + 1)
            .filter(|candidate| is_root(candidate))
            .find_map(|root| self.touch(root, path).map(|t| (root.to_path_buf(), t)))
    }

    /// The folders to watch for `root` besides the root itself, absolute: the fixed ones,
    /// then the subfolders a recursive location's folder has now.
    pub(crate) fn folder_paths<'a>(&'a self, root: &'a Path) -> impl Iterator<Item = PathBuf> + 'a {
        self.folders.iter().map(move |rel| join(root, rel)).chain(
            self.nested.iter().flat_map(move |rel| hooks_sources::subfolders(&join(root, rel))),
        )
    }

    /// The folders that can hold a user or managed hook file of `scope`, or a folder that
    /// does: each format's folder in `dirs` and the folders its locations lead through.
    /// Relative folders are left out (they are not loaded either).
    pub(crate) fn scope_folders(&self, scope: FileScope, dirs: &ScopeDirs) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (location, place) in
            hooks_sources::locations_in(&self.formats, scope, Path::new(""), dirs)
        {
            for dir in place.folders(&location) {
                if !out.contains(&dir) {
                    out.push(dir);
                }
            }
        }
        out
    }

    /// The subfolders the recursive locations of `scope` in `dirs` have now, absolute
    /// (watched besides [`Layout::scope_folders`]).
    pub(crate) fn scope_subfolders(&self, scope: FileScope, dirs: &ScopeDirs) -> Vec<PathBuf> {
        hooks_sources::locations_in(&self.formats, scope, Path::new(""), dirs)
            .filter_map(|(l, place)| match place {
                Place::Under(base) if l.pattern.is_recursive() => Some((l, base)),
                _ => None,
            })
            .flat_map(|(l, base)| hooks_sources::subfolders(&join(&base, l.pattern.dir())))
            .collect()
    }

    /// What `path` is to the user or managed files of `scope` in `dirs`: one of
    /// [`Layout::scope_folders`] ([`Touch::Folder`]), a name one of their locations matches
    /// ([`Touch::HookFile`]), or `None` when a change to it cannot change those hooks.
    pub(crate) fn scope_touch(
        &self,
        scope: FileScope,
        dirs: &ScopeDirs,
        path: &Path,
    ) -> Option<Touch> {
        if self.scope_folders(scope, dirs).iter().any(|f| f == path) {
            return Some(Touch::Folder);
        }
        let rel_to = |base: &Path| relative(base, path, SCOPE_DEPTH);
        let locations = || hooks_sources::locations_in(&self.formats, scope, Path::new(""), dirs);
        let is_file = locations().any(|(location, place)| match place {
            Place::Under(base) => rel_to(&base).is_some_and(|rel| location.pattern.matches(&rel)),
            Place::At(file) => file == path,
        });
        classify(path, is_file, || {
            locations().any(|(location, place)| match place {
                Place::Under(base) => {
                    rel_to(&base).is_some_and(|rel| location.pattern.holds_subfolder(&rel))
                }
                Place::At(_) => false,
            })
        })
    }
}

/// How many components below a user or managed base folder a hook file can be.
const SCOPE_DEPTH: usize = 8 + FilePattern::MAX_NESTING;

/// What a path is, given whether a location's name pattern matches it and (asked only when
/// needed) whether it names a subfolder a recursive location reads: a matching name is a hook
/// file unless it is a folder now; a subfolder name is a folder unless it is a file now (a
/// path that is gone counts as a folder, so its watches are dropped).
fn classify(path: &Path, matches: bool, subfolder: impl FnOnce() -> bool) -> Option<Touch> {
    if matches {
        let folder = subfolder() && path.symlink_metadata().is_ok_and(|m| m.is_dir());
        return Some(if folder { Touch::Folder } else { Touch::HookFile });
    }
    let folder = subfolder() && !path.symlink_metadata().is_ok_and(|m| m.is_file());
    folder.then_some(Touch::Folder)
}

/// `path` relative to `base`, with `/` separators, when it is below it by at most `depth`
/// normal components (all UTF-8).
fn relative(base: &Path, path: &Path, depth: usize) -> Option<String> {
    let rel = path.strip_prefix(base).ok()?;
    let mut parts = Vec::with_capacity(depth);
    for c in rel.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?),
            _ => return None,
        }
        if parts.len() > depth {
            return None;
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `base` joined with a `/`-separated relative path.
fn join(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').filter(|p| !p.is_empty()).fold(base.to_path_buf(), |p, part| p.join(part))
}
