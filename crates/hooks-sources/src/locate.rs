//! Where the registered formats' files are on disk: each descriptor's locations resolved
//! against a project root, the user's folders or the administrator's, and looked up.
//!
//! This module is the only place that turns a [`FileLocation`] into paths: the loaders
//! read what it finds, the watcher watches the folders it names, and the guard protects
//! every path it names whether or not a file is there yet.

use std::{
    collections::{BTreeMap, VecDeque},
    path::{Path, PathBuf},
};

use hooks_schema::{
    AbsPathBuf, AgentFolder, FileContent, FileLocation, FilePattern, FileRole, FileScope,
    FollowStep, FormatId, FormatSet, HookDiagnostic, HookSourceKind, Ownership,
};

use crate::EnvVars;

/// The most files of one [`FilePattern::EachIn`] folder read; the rest (by name) are left
/// out with a warning.
pub const MAX_FOLDER_FILES: usize = 256;

/// The most entries of one [`FilePattern::EachIn`] folder looked at, whatever they are; a
/// folder with more is read as far as that and a warning says so.
pub const MAX_FOLDER_SCAN: usize = 4096;

/// The folders a scope's locations are relative to, one per format: the user's own, or the
/// administrator's. A format without a folder here has no files in the scope. A location
/// whose file an environment variable names ([`FileLocation::env`]) has that file here
/// instead.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeDirs {
    folders: BTreeMap<FormatId, PathBuf>,
    files: BTreeMap<FileRole, PathBuf>,
}

/// The user's own folders, one per format (`~/.cursor`, `~/.claude`, `~/.chrys`).
pub type UserDirs = ScopeDirs;

/// The administrator's folders, one per format (`/etc/cursor`, `/etc/claude-code`).
pub type ManagedDirs = ScopeDirs;

impl ScopeDirs {
    /// No folder for any format.
    pub fn new() -> ScopeDirs {
        ScopeDirs::default()
    }

    /// The same folders, with `format`'s set to `dir`.
    #[must_use]
    pub fn with(mut self, format: FormatId, dir: impl Into<PathBuf>) -> ScopeDirs {
        self.folders.insert(format, dir.into());
        self
    }

    /// The same folders, with the file of the [`FilePattern::File`] location of role `role`
    /// set to `file` in place of its pattern under the format's folder (what
    /// [`FileLocation::env`] names); the role's other locations stay where they are.
    #[must_use]
    pub fn with_file(mut self, role: FileRole, file: impl Into<PathBuf>) -> ScopeDirs {
        self.files.insert(role, file.into());
        self
    }

    /// The folder of `format`, if it has one.
    pub fn folder(&self, format: FormatId) -> Option<&Path> {
        self.folders.get(&format).map(PathBuf::as_path)
    }

    /// The file set in place of the pattern of the location of role `role`, if any.
    pub fn file(&self, role: FileRole) -> Option<&Path> {
        self.files.get(&role).map(PathBuf::as_path)
    }

    /// Every format's folder.
    pub fn iter(&self) -> impl Iterator<Item = (FormatId, &Path)> {
        self.folders.iter().map(|(f, d)| (*f, d.as_path()))
    }

    /// The user folders of `formats` under `home`, by each format's convention
    /// ([`hooks_schema::UserDir::under_home`]); no environment override applies.
    pub fn under_home(formats: &FormatSet, home: &Path) -> UserDirs {
        let mut out = ScopeDirs::new();
        for f in formats.iter() {
            if let Some(user) = f.dirs().user {
                out = out.with(f.id(), home.join(user.under_home));
            }
        }
        out
    }

    /// The user folders of `formats` for the environment in `env`: a format's override
    /// variable when it is set ([`EnvVars::format_path`]: a relative value from the process's
    /// working directory), else its folder under the home its home variable names, else on
    /// Windows the folder under `%APPDATA%` a format names, else the folder under the home
    /// folder. No home gives no folder (but an override still does).
    pub fn from_env(formats: &FormatSet, env: &EnvVars) -> UserDirs {
        let home = env.home_dir();
        let appdata = env.appdata.as_ref().map(PathBuf::from).filter(|p| p.is_absolute());
        let mut out = ScopeDirs::new();
        for f in formats.iter() {
            let Some(user) = f.dirs().user else { continue };
            let var = |v: Option<&'static str>| v.and_then(|v| env.format_path(v));
            let overridden =
                var(user.env).or_else(|| var(user.home_env).map(|h| h.join(user.under_home)));
            let dir = match (overridden, user.windows_appdata) {
                (Some(dir), _) => Some(dir),
                (None, Some(name)) if cfg!(windows) => appdata.as_ref().map(|a| a.join(name)),
                (None, _) => home.as_ref().map(|h| h.join(user.under_home)),
            };
            if let Some(dir) = dir {
                out = out.with(f.id(), dir);
            }
        }
        out.with_files_from_env(formats, FileScope::User, env)
    }

    /// The documented system folders of `formats` for this platform
    /// ([`hooks_schema::ManagedDir::this_platform`]), whatever the environment says.
    pub fn system(formats: &FormatSet) -> ManagedDirs {
        ScopeDirs::system_from_env(formats, &EnvVars::default())
    }

    /// The administrator's folders of `formats` as their agents find them in the
    /// environment `env`: [`ScopeDirs::system`], but a format's folder is that of the file
    /// its [`ManagedDir::folder_of_env`](hooks_schema::ManagedDir::folder_of_env) names, and
    /// a location's file the one its [`FileLocation::env`] names, when they are set
    /// ([`EnvVars::format_path`]; Gemini CLI's `GEMINI_CLI_SYSTEM_SETTINGS_PATH` and
    /// `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`).
    pub fn system_from_env(formats: &FormatSet, env: &EnvVars) -> ManagedDirs {
        let mut out = ScopeDirs::new();
        for f in formats.iter() {
            let Some(managed) = f.dirs().managed else { continue };
            let moved = managed
                .folder_of_env
                .and_then(|v| env.format_path(v))
                .and_then(|file| file.parent().map(Path::to_path_buf));
            out = match moved {
                Some(dir) => out.with(f.id(), dir),
                None => out.with(f.id(), managed.this_platform()),
            };
        }
        out.with_files_from_env(formats, FileScope::Managed, env)
    }

    /// The same folders, with the file of each location of `scope` whose variable is set
    /// in `env`.
    fn with_files_from_env(mut self, formats: &FormatSet, scope: FileScope, env: &EnvVars) -> Self {
        for f in formats.iter() {
            for l in f.locations().iter().filter(|l| l.scope == scope) {
                if let (FilePattern::File(_), Some(file)) =
                    (l.pattern, l.env.and_then(|v| env.format_path(v)))
                {
                    self = self.with_file(l.role, file);
                }
            }
        }
        self
    }
}

/// A file of a format's location, as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFile {
    /// The kind it loads as (the location's scope and role).
    pub kind: HookSourceKind,
    /// Its path as found (not canonicalized).
    pub path: PathBuf,
    /// What it holds.
    pub content: FileContent,
    /// For a file of a [`FilePattern::FirstOf`] group: the later names of the group present
    /// in its folder, which it shadows.
    pub shadows: Vec<&'static str>,
    /// For a file of a [`FilePattern::FirstOf`] group: the earlier names of the group, which
    /// would replace it if created (protected though they do not exist).
    pub replaced_by: Vec<&'static str>,
    /// Warnings about its location's folder (an [`FilePattern::EachIn`] folder with too many
    /// files, or one that cannot be listed), to add to its diagnostics.
    pub folder_warnings: Vec<HookDiagnostic>,
    /// Why the file is not read though it is there: its location reads only the
    /// administrator's files ([`Ownership::Administrator`]) and someone else can write this
    /// one. The loaders load it as a file without hooks, with this warning.
    pub not_read: Option<HookDiagnostic>,
    /// For a hook file an agent folder's index led to: the folder its hooks belong to (a
    /// plugin's), given to its parser ([`ParseContext::base`](hooks_schema::ParseContext::base)).
    pub base: Option<PathBuf>,
}

impl FoundFile {
    /// Whether the file, parsed to `parsed`, is left out of the sources: a file that may
    /// carry hooks and carries none ([`FileContent::HooksIfAny`]), unless its folder's
    /// warnings ride on it.
    pub fn left_out(&self, parsed: &hooks_schema::ParseResult) -> bool {
        self.folder_warnings.is_empty() && self.content.leaves_out(parsed)
    }
}

/// A path a location names in one place, whether or not a file is there: what the guard
/// protects ahead of time and what the watcher's folders must show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidate {
    /// One file (every name of a [`FilePattern::FirstOf`] group counts).
    File {
        /// The kind a file there would load as.
        kind: HookSourceKind,
        /// The path.
        path: PathBuf,
    },
    /// Every file of a folder whose name ends with `suffix` and does not start with `.`.
    EachIn {
        /// The kind a file there would load as.
        kind: HookSourceKind,
        /// The folder.
        dir: PathBuf,
        /// The name suffix.
        suffix: &'static str,
    },
}

/// The base folder of `format`'s locations in `scope`: `root` for a project, the format's
/// folder in `dirs` otherwise (only absolute folders count: a relative one is neither loaded
/// nor watched).
fn base(scope: FileScope, format: FormatId, root: &Path, dirs: &ScopeDirs) -> Option<PathBuf> {
    match scope {
        FileScope::Project => Some(root.to_path_buf()),
        FileScope::User | FileScope::Managed => {
            dirs.folder(format).filter(|d| d.is_absolute()).map(Path::to_path_buf)
        }
    }
}

/// Where one location's files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Its pattern under this folder.
    Under(PathBuf),
    /// This one file, named in place of the pattern ([`ScopeDirs::file`]).
    At(PathBuf),
}

impl Place {
    /// The folders to watch to see a file of the location appear: the base folder and the
    /// folders of the pattern, or the named file's folder.
    pub fn folders(&self, location: &FileLocation) -> Vec<PathBuf> {
        match self {
            Place::Under(base) => std::iter::once(base.clone())
                .chain(location.pattern.folders().into_iter().map(|f| join(base, f)))
                .collect(),
            Place::At(file) => file.parent().map(Path::to_path_buf).into_iter().collect(),
        }
    }

    /// The fixed files the location names here, existing or not (none for
    /// [`FilePattern::EachIn`] under a folder).
    pub fn files(&self, location: &FileLocation) -> Vec<PathBuf> {
        match self {
            Place::Under(base) => {
                let dir = join(base, location.pattern.dir());
                location.pattern.file_names().into_iter().map(|n| dir.join(n)).collect()
            }
            Place::At(file) => vec![file.clone()],
        }
    }
}

/// Every location of `formats` in `scope` with where its files are, in registration
/// order and each format's declaration order. For a project scope `root` is the root and
/// `dirs` is unused; otherwise `dirs` holds the folders, and the files named in place of a
/// pattern (only absolute ones count).
pub fn locations_in<'a>(
    formats: &'a FormatSet,
    scope: FileScope,
    root: &'a Path,
    dirs: &'a ScopeDirs,
) -> impl Iterator<Item = (FileLocation, Place)> + 'a {
    formats.iter().flat_map(move |f| {
        let base = base(scope, f.id(), root, dirs);
        f.locations().iter().filter(move |l| l.scope == scope).filter_map(move |l| {
            let named = match (scope, l.pattern) {
                (FileScope::User | FileScope::Managed, FilePattern::File(_)) => dirs.file(l.role),
                _ => None,
            };
            match named.filter(|p| p.is_absolute()) {
                Some(file) => Some((*l, Place::At(file.to_path_buf()))),
                None => base.clone().map(|b| (*l, Place::Under(b))),
            }
        })
    })
}

/// The files of `formats` found in `scope` (see [`locations_in`] for `root` and `dirs`), in
/// precedence order (kind priority; within a kind, declaration order, and an
/// [`FilePattern::EachIn`] folder's files in name order). In the user and managed scopes,
/// also the hook files of the entries of the agents' own folders
/// ([`AgentFolder::entry_hooks`]: Gemini CLI's extensions' `hooks/hooks.json`, a linked
/// extension's where it lives), under the agent folder's kind, whose hooks the format's parse
/// disables.
///
/// "Found" includes a dangling symlink, or a path that cannot be looked at because a folder
/// above it denies access, so the reader reports it instead of the file being silently
/// absent.
pub fn find_files(
    formats: &FormatSet,
    scope: FileScope,
    root: &Path,
    dirs: &ScopeDirs,
) -> Vec<FoundFile> {
    let mut out = Vec::new();
    for (location, place) in locations_in(formats, scope, root, dirs) {
        let mut found = match &place {
            Place::Under(base) => find_at(&location, base),
            Place::At(file) if exists(file) => vec![found_file(&location, file.clone())],
            Place::At(_) => Vec::new(),
        };
        if location.ownership == Ownership::Administrator {
            for f in &mut found {
                f.not_read = crate::ownership::administrator_only(&f.path).err().map(|why| {
                    HookDiagnostic::warning(format!(
                        "not read: {} reads this file only when no one but root can write it or a folder above it, and {why}",
                        agent_of(formats, f.kind)
                    ))
                    .in_file(&f.path)
                    .with_code("not_administrator_only")
                });
            }
        }
        out.extend(found);
    }
    if scope != FileScope::Project {
        out.extend(agent_hook_files(formats, scope, dirs));
    }
    out.sort_by_key(|f| f.kind.priority());
    out
}

/// The agent whose file a kind is, for messages.
fn agent_of(formats: &FormatSet, kind: HookSourceKind) -> &'static str {
    kind.format().and_then(|f| formats.get(f)).map_or("its agent", |d| d.agent())
}

/// A file of `location` found at `path`, read as it is.
fn found_file(location: &FileLocation, path: PathBuf) -> FoundFile {
    FoundFile {
        kind: HookSourceKind::file(location.scope, location.role),
        path,
        content: location.content,
        shadows: Vec::new(),
        replaced_by: Vec::new(),
        folder_warnings: Vec::new(),
        not_read: None,
        base: None,
    }
}

/// Every path `formats` name in `scope`, existing or not, in the same order as
/// [`find_files`] would find them.
pub fn candidates(
    formats: &FormatSet,
    scope: FileScope,
    root: &Path,
    dirs: &ScopeDirs,
) -> Vec<Candidate> {
    let mut out: Vec<(u32, Candidate)> = Vec::new();
    for (l, place) in locations_in(formats, scope, root, dirs) {
        let kind = HookSourceKind::file(scope, l.role);
        let base = match place {
            Place::Under(base) => base,
            Place::At(path) => {
                out.push((kind.priority(), Candidate::File { kind, path }));
                continue;
            }
        };
        let dir = join(&base, l.pattern.dir());
        match l.pattern {
            FilePattern::File(_) | FilePattern::FirstOf { .. } => {
                for name in l.pattern.file_names() {
                    out.push((kind.priority(), Candidate::File { kind, path: dir.join(name) }));
                }
            }
            FilePattern::EachIn { suffix, .. } => {
                out.push((kind.priority(), Candidate::EachIn { kind, dir, suffix }));
            }
        }
    }
    out.sort_by_key(|(p, _)| *p);
    out.into_iter().map(|(_, c)| c).collect()
}

/// Every hook file that would be loaded if it existed, and every file that changes which
/// hooks run, for the registry to protect whether or not it exists
/// (`hooks_registry::HookRegistry::set_expected_files`): the [`candidates`] of every project
/// location (under every root), of the user's folders `user` and of the administrator's
/// `managed`, policy-only files included (Chrys's `settings.yaml`: its
/// `project.hooks_enabled` switches project hooks on; Claude Code's `disableAllHooks` lives
/// in its settings files, which are candidates anyway). An [`FilePattern::EachIn`] folder is
/// protected whole, and so is each format's [`AgentFolder`](hooks_schema::AgentFolder)
/// (plugins and extensions, which the agent loads itself), and the folders the entries of the
/// user's and managed agent folders stand for ([`linked_folders`]: the one part of this that
/// reads the file system).
pub fn expected_files(
    formats: &FormatSet,
    user: Option<&UserDirs>,
    managed: Option<&ManagedDirs>,
) -> hooks_registry::ExpectedFiles {
    let mut out = hooks_registry::ExpectedFiles::default();
    let none = ScopeDirs::new();
    // A session started in any folder reads that folder's project files (Gemini CLI its
    // `<cwd>/.gemini/settings.json`, Codex each `.codex/` up to the root, Claude Code the
    // `.claude/` of the folder it starts in): they are protected wherever they are too.
    for c in candidates(formats, FileScope::Project, Path::new(""), &none) {
        match c {
            Candidate::File { kind, path } => {
                out.nested_files.push((kind, path.clone()));
                out.under_roots.push((kind, path));
            }
            Candidate::EachIn { kind, dir, .. } => {
                out.nested_folders.push((kind, dir.clone()));
                out.folders_under_roots.push((kind, dir));
            }
        }
    }
    for (scope, dirs) in [(FileScope::User, user), (FileScope::Managed, managed)] {
        let Some(dirs) = dirs else { continue };
        for c in candidates(formats, scope, Path::new(""), dirs) {
            match c {
                Candidate::File { kind, path } => out.fixed.push((kind, path)),
                Candidate::EachIn { kind, dir, .. } => out.folders.push((kind, dir)),
            }
        }
    }
    for format in formats.iter() {
        for folder in format.agent_folders() {
            // Relative to every project root, or under the scope's folder of the format.
            let (dirs, into) = match folder.scope {
                FileScope::Project => (Some(&none), &mut out.folders_under_roots),
                FileScope::User => (user, &mut out.folders),
                FileScope::Managed => (managed, &mut out.folders),
            };
            if let Some(b) = dirs.and_then(|d| base(folder.scope, format.id(), Path::new(""), d)) {
                let kind = HookSourceKind::file(folder.scope, folder.role);
                let dir = join(&b, folder.dir);
                if folder.nested
                    && folder.scope == FileScope::Project
                    && !out.nested_folders.contains(&(kind, dir.clone()))
                {
                    out.nested_folders.push((kind, dir.clone()));
                }
                into.push((kind, dir));
            }
        }
    }
    out.linked = linked_folders(formats, user, managed);
    out
}

/// The most entries of one agent folder [`linked_folders`] looks at.
pub const MAX_AGENT_FOLDER_ENTRIES: usize = 1024;

/// The folders elsewhere that the agents load in place of an entry of their own user and
/// managed folders ([`hooks_schema::AgentFolder`]), for the registry to protect
/// ([`hooks_registry::ExpectedFiles::linked`], which [`expected_files`] fills with them);
/// reads the file system. Two ways an entry stands for another folder, and a third way in:
/// - a link file ([`hooks_schema::AgentLink`]: Gemini CLI's
///   `extensions/<name>/.gemini-extension-install.json` written by `gemini extensions link`)
///   naming a folder, as the descriptor reads it
///   ([`FormatDescriptor::linked_folder`](hooks_schema::FormatDescriptor::linked_folder));
///   protected whole, or only the link's parts when it is part of a project or holds the
///   format's folder;
/// - the entry itself a symbolic link to a folder (`~/.gemini/extensions/my-ext ->
///   ~/src/my-ext`, `~/.claude/skills/x -> ~/work/skills/x`): the agent reads the files
///   through it, the guard resolves an edited path to where it really is, so the target is
///   protected as a linked folder too (whole, unless the folder declares parts and it is part
///   of a project);
/// - and, beside its entries, the agent folder's indexes ([`AgentFolder::indexes`]: Claude
///   Code's `known_marketplaces.json`) name folders the agent loads hooks from where they are
///   (a marketplace added from a local folder, and its plugins), each with its own parts.
///
/// At most [`MAX_AGENT_FOLDER_ENTRIES`] entries of each folder are looked at, each link file
/// read up to [`MAX_SOURCE_BYTES`](crate::MAX_SOURCE_BYTES), without blocking on a FIFO.
/// Project agent folders are not looked at (they lie under roots the caller does not know
/// yet). An agent folder that does not exist yields nothing.
pub fn linked_folders(
    formats: &FormatSet,
    user: Option<&UserDirs>,
    managed: Option<&ManagedDirs>,
) -> Vec<hooks_registry::LinkedFolder> {
    let mut out = Vec::new();
    for (scope, dirs) in [(FileScope::User, user), (FileScope::Managed, managed)] {
        let Some(dirs) = dirs else { continue };
        for e in agent_entries(formats, scope, dirs) {
            let parts: Vec<PathBuf> =
                e.folder.link.iter().flat_map(|l| l.parts.iter().map(PathBuf::from)).collect();
            let linked = |path: PathBuf| hooks_registry::LinkedFolder {
                kind: e.kind,
                folder: path,
                holder: Some(e.holder.clone()),
                parts: parts.clone(),
            };
            if e.symlink_to_folder {
                out.push(linked(e.path.clone()));
            }
            if let Some(named) = e.linked {
                out.push(linked(named));
            }
        }
        for place in followed_places(formats, scope, dirs) {
            let linked = hooks_registry::LinkedFolder {
                kind: place.kind,
                folder: place.folder,
                holder: Some(place.holder),
                parts: place.parts,
            };
            if !out.contains(&linked) {
                out.push(linked);
            }
        }
    }
    out
}

/// The most folders the indexes of one agent folder lead to
/// ([`AgentFolder::indexes`], followed by [`linked_folders`] and the user and managed scopes'
/// [`find_files`]).
pub const MAX_FOLLOWED_FOLDERS: usize = 1024;

/// How many files deep the indexes of an agent folder are followed: the index, the files the
/// folders it names lead to, and theirs (Claude Code: the marketplaces, each marketplace's
/// manifest, each plugin's).
pub const MAX_FOLLOW_DEPTH: usize = 4;

/// A folder that an index of an agent folder leads to ([`AgentFolder::indexes`]).
struct FollowedPlace {
    /// The kind of the agent folder.
    kind: HookSourceKind,
    /// The format's folder the agent folder lies in (`~/.claude`).
    holder: PathBuf,
    /// The folder, absolute.
    folder: PathBuf,
    /// What decides what the agent runs from it, relative to it.
    parts: Vec<PathBuf>,
    /// The hook files the agent loads from it, absolute, each with its base (the folder, or
    /// the entry a `*` of its path stands for).
    hooks: Vec<(PathBuf, PathBuf)>,
}

/// The folders that the indexes of `formats`' agent folders in `scope` (user or managed)
/// lead to, each file read by the descriptor
/// ([`FormatDescriptor::follow`](hooks_schema::FormatDescriptor::follow)) and what it names
/// read in turn, breadth first: at most [`MAX_FOLLOWED_FOLDERS`] folders per agent folder,
/// [`MAX_FOLLOW_DEPTH`] files deep, each file up to
/// [`MAX_SOURCE_BYTES`](crate::MAX_SOURCE_BYTES) and without blocking on a FIFO; a file that
/// cannot be read leads nowhere. An index is relative to the scope's folder of the format, and
/// a relative folder is taken from the folder of the place that led to its file (an index's:
/// that folder; a file whose path has a `*`: the entry it stands for). Reads the file system.
fn followed_places(formats: &FormatSet, scope: FileScope, dirs: &ScopeDirs) -> Vec<FollowedPlace> {
    let mut out = Vec::new();
    for format in formats.iter() {
        for folder in format.agent_folders().iter().filter(|f| f.scope == scope) {
            if folder.indexes.is_empty() {
                continue;
            }
            let Some(holder) = base(scope, format.id(), Path::new(""), dirs) else { continue };
            let mut queue: VecDeque<(PathBuf, PathBuf, FollowStep, usize)> = folder
                .indexes
                .iter()
                .map(|i| (holder.clone(), PathBuf::from(i.file), i.step, 1))
                .collect();
            let mut count = 0;
            while let Some((from, file, step, depth)) = queue.pop_front() {
                let Ok(bytes) = crate::read_capped(&from.join(&file)) else { continue };
                for followed in format.follow(folder.role, step, &bytes) {
                    if count == MAX_FOLLOWED_FOLDERS {
                        queue.clear();
                        break;
                    }
                    count += 1;
                    // `.` components dropped, `..` left to the guard's resolution.
                    let place: PathBuf = from.join(&followed.folder).components().collect();
                    if depth < MAX_FOLLOW_DEPTH {
                        // A `*` stands for each entry, which is then where the file leads from.
                        for (next, step) in followed.next {
                            for (file, from) in each_entry(&place, &next) {
                                queue.push_back((from, file, step, depth + 1));
                            }
                        }
                    }
                    out.push(FollowedPlace {
                        kind: HookSourceKind::file(scope, folder.role),
                        holder: holder.clone(),
                        parts: followed.parts.iter().map(PathBuf::from).collect(),
                        hooks: followed.hooks.iter().flat_map(|h| each_entry(&place, h)).collect(),
                        folder: place,
                    });
                }
            }
        }
    }
    out
}

/// One entry of an agent's own user or managed folder ([`agent_entries`]).
struct AgentEntry<'a> {
    /// The agent folder's declaration.
    folder: &'a AgentFolder,
    /// The kind of the agent folder.
    kind: HookSourceKind,
    /// The format's folder the agent folder lies in (`~/.gemini`).
    holder: PathBuf,
    /// The entry's path.
    path: PathBuf,
    /// Whether the entry is a symbolic link to a folder.
    symlink_to_folder: bool,
    /// The folder its link file names ([`AgentFolder::link`]), as written.
    linked: Option<PathBuf>,
}

/// The entries of `formats`' agent folders in `scope` (user or managed) under `dirs`, in name
/// order, at most [`MAX_AGENT_FOLDER_ENTRIES`] per folder; reads the file system.
fn agent_entries<'a>(
    formats: &'a FormatSet,
    scope: FileScope,
    dirs: &ScopeDirs,
) -> Vec<AgentEntry<'a>> {
    let mut out = Vec::new();
    for format in formats.iter() {
        for folder in format.agent_folders().iter().filter(|f| f.scope == scope) {
            let Some(holder) = base(scope, format.id(), Path::new(""), dirs) else { continue };
            let Ok(entries) = std::fs::read_dir(join(&holder, folder.dir)) else { continue };
            let mut paths: Vec<(PathBuf, bool)> = entries
                .take(MAX_AGENT_FOLDER_ENTRIES)
                .filter_map(Result::ok)
                .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_symlink())))
                .collect();
            paths.sort();
            for (path, is_symlink) in paths {
                let symlink_to_folder =
                    is_symlink && std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
                let linked = folder.link.and_then(|link| {
                    let bytes = crate::read_capped(&path.join(link.file)).ok()?;
                    format.linked_folder(folder.role, &bytes).map(PathBuf::from)
                });
                out.push(AgentEntry {
                    folder,
                    kind: HookSourceKind::file(scope, folder.role),
                    holder: holder.clone(),
                    path,
                    symlink_to_folder,
                    linked,
                });
            }
        }
    }
    out
}

/// `rel` under `folder`, its first `*` component standing for each entry of the folder before
/// it (at most [`MAX_AGENT_FOLDER_ENTRIES`], in name order), each with its base: `folder`, or
/// the entry the `*` stands for. Reads the file system when there is a `*`.
pub(crate) fn each_entry(folder: &Path, rel: &str) -> Vec<(PathBuf, PathBuf)> {
    let parts: Vec<&str> = rel.split('/').collect();
    let Some(star) = parts.iter().position(|p| *p == "*") else {
        // `.` components dropped, as for the folder.
        return vec![(folder.join(rel).components().collect(), folder.to_path_buf())];
    };
    let dir = join(folder, &parts[..star].join("/"));
    let rest = parts[star + 1..].join("/");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> =
        entries.take(MAX_AGENT_FOLDER_ENTRIES).filter_map(Result::ok).map(|e| e.path()).collect();
    found.sort();
    found.into_iter().map(|entry| (join(&entry, &rest), entry)).collect()
}

/// The hook files of the agent folders in `scope` that the agent loads: each entry's
/// ([`AgentFolder::entry_hooks`]; for an entry whose link file names an absolute folder, that
/// folder's) and those the folders' indexes lead to ([`AgentFolder::indexes`]); those that
/// exist, once each, as files that may carry hooks.
fn agent_hook_files(formats: &FormatSet, scope: FileScope, dirs: &ScopeDirs) -> Vec<FoundFile> {
    let mut paths: Vec<(HookSourceKind, PathBuf, Option<PathBuf>)> = Vec::new();
    for e in agent_entries(formats, scope, dirs) {
        let Some(file) = e.folder.entry_hooks else { continue };
        let folder = match &e.linked {
            Some(named) if named.is_absolute() => named.as_path(),
            // A relative folder is taken from wherever the agent runs: not read here.
            Some(_) => continue,
            None => e.path.as_path(),
        };
        paths.push((e.kind, join(folder, file), None));
    }
    for place in followed_places(formats, scope, dirs) {
        paths.extend(place.hooks.into_iter().map(|(h, base)| (place.kind, h, Some(base))));
    }
    let mut out: Vec<FoundFile> = Vec::new();
    for (kind, path, base) in paths {
        if exists(&path) && !out.iter().any(|f| f.path == path) {
            out.push(FoundFile {
                kind,
                path,
                content: FileContent::HooksIfAny,
                shadows: Vec::new(),
                replaced_by: Vec::new(),
                folder_warnings: Vec::new(),
                not_read: None,
                base,
            });
        }
    }
    out
}

/// The project files under `root`, as `(kind, path)`, in precedence order.
pub fn project_files(formats: &FormatSet, root: &Path) -> Vec<(HookSourceKind, PathBuf)> {
    pairs(find_files(formats, FileScope::Project, root, &ScopeDirs::new()))
}

/// The project files a session started in `session` reads, each with the folder it was
/// found in (the folder its agent takes as the project): every format's files in the folders
/// its agent reads for a session there ([`hooks_schema::ProjectFolders`]: the repository's
/// `root`, the session's folder, or each folder from one down to the other), the session's
/// folder first and the root's last: of two files of one kind, the one in the deeper folder
/// ranks higher, as Codex ranks its project layers (a subfolder's `[features] hooks` over the
/// root's, observed). A `session` that is `root`, or not below it, reads the root's files of
/// every format, as [`find_files`] finds them. Both paths are compared as given (canonical
/// ones, usually).
///
/// ```
/// # use hooks_schema::FormatSet;
/// let formats = FormatSet::new(Vec::new());
/// let found = hooks_sources::find_session_files(&formats, "/repo".as_ref(), "/repo/pkg".as_ref());
/// assert!(found.is_empty());
/// ```
pub fn find_session_files(
    formats: &FormatSet,
    root: &Path,
    session: &Path,
) -> Vec<(FoundFile, PathBuf)> {
    let session = if session.starts_with(root) { session } else { root };
    let folders: Vec<&Path> = session.ancestors().take_while(|a| a.starts_with(root)).collect();
    let mut out = Vec::new();
    for folder in folders {
        let here: Vec<_> = formats
            .iter()
            .filter(|f| f.project_folders().reads(folder, root, session))
            .cloned()
            .collect();
        if here.is_empty() {
            continue;
        }
        let found = if here.len() == formats.len() {
            find_files(formats, FileScope::Project, folder, &ScopeDirs::new())
        } else {
            find_files(&FormatSet::new(here), FileScope::Project, folder, &ScopeDirs::new())
        };
        out.extend(found.into_iter().map(|f| (f, folder.to_path_buf())));
    }
    out
}

/// How many folders [`nested_project_folders`] reads at most.
pub const NESTED_MAX_FOLDERS: usize = 10_000;

/// How deep below the root [`nested_project_folders`] looks.
pub const NESTED_MAX_DEPTH: usize = 16;

/// The folders below a repository's root that hold project hook files of their own
/// ([`nested_project_folders`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NestedFolders {
    /// The folders, in path order; never the root itself.
    pub folders: Vec<PathBuf>,
    /// Whether the whole tree was looked at: `false` when it holds more than
    /// [`NESTED_MAX_FOLDERS`] folders (the rest is not looked at).
    pub complete: bool,
}

/// The folders below `root` (not `root`) holding an entry named like the first folder of a
/// project file location of one of `formats` (`.claude`, `.gemini`, `.github`, …): where a
/// session started there finds project hook files of its own, which a session started
/// elsewhere in the repository does not read, but whose scripts it must not be able to
/// rewrite. A bounded walk: at most [`NESTED_MAX_FOLDERS`] folders read, [`NESTED_MAX_DEPTH`]
/// deep, links not followed; it enters no folder whose name starts with `.` (`.git`, `.venv`:
/// the agents' own folders are looked for by name in each folder's entries, not entered), no
/// `node_modules`, and no folder the repository's `.gitignore` files (and
/// `.git/info/exclude`) ignore (build output, vendored trees). An ignored or hidden agent
/// folder still counts where its folder is read (`.claude/` is often ignored).
///
/// ```
/// # use hooks_schema::FormatSet;
/// let found = hooks_sources::nested_project_folders(&FormatSet::new(Vec::new()), "/nonexistent".as_ref());
/// assert!(found.folders.is_empty());
/// ```
pub fn nested_project_folders(formats: &FormatSet, root: &Path) -> NestedFolders {
    nested_within(formats, root, NESTED_MAX_FOLDERS, NESTED_MAX_DEPTH)
}

/// [`nested_project_folders`] with its bounds given.
fn nested_within(
    formats: &FormatSet,
    root: &Path,
    max_folders: usize,
    max_depth: usize,
) -> NestedFolders {
    let mut anchors: Vec<&'static str> = formats
        .iter()
        .flat_map(|f| f.locations().iter())
        .filter(|l| l.scope == FileScope::Project)
        .map(|l| match l.pattern {
            FilePattern::File(path) => path,
            p => p.dir(),
        })
        .filter_map(|p| p.split('/').next().filter(|first| !first.is_empty()))
        .collect();
    anchors.sort_unstable();
    anchors.dedup();
    let mut walk = NestedWalk {
        anchors,
        max_folders,
        max_depth,
        read: 0,
        found: NestedFolders { folders: Vec::new(), complete: true },
        ignores: Vec::new(),
    };
    if walk.anchors.is_empty() {
        return walk.found;
    }
    let exclude = root.join(".git/info/exclude");
    if exists(&exclude) {
        let mut b = ignore::gitignore::GitignoreBuilder::new(root);
        // A line the matcher cannot read is left out; the rest of the file still applies.
        let _ = b.add(&exclude);
        if let Ok(gi) = b.build() {
            walk.ignores.push(gi);
        }
    }
    walk.folder(root, 0);
    walk.found.folders.sort_unstable();
    walk.found
}

/// The state of [`nested_within`]'s depth-first walk.
struct NestedWalk {
    anchors: Vec<&'static str>,
    max_folders: usize,
    max_depth: usize,
    read: usize,
    found: NestedFolders,
    /// The `.gitignore` files of the folders from the root down to the current one.
    ignores: Vec<ignore::gitignore::Gitignore>,
}

impl NestedWalk {
    fn folder(&mut self, dir: &Path, depth: usize) {
        if self.read == self.max_folders {
            self.found.complete = false;
            return;
        }
        self.read += 1;
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut holds = false;
        let mut gitignore = false;
        let mut below: Vec<PathBuf> = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            // Compared as bytes: a folder whose name is not UTF-8 is still looked through.
            let name = name.as_encoded_bytes();
            if self.anchors.binary_search_by(|a| a.as_bytes().cmp(name)).is_ok() {
                holds = true;
            } else if name == b".gitignore" {
                gitignore = true;
            } else if !name.starts_with(b".")
                && name != b"node_modules"
                && depth < self.max_depth
                // The entry's own type: a link to a folder is not followed.
                && entry.file_type().is_ok_and(|t| t.is_dir())
            {
                below.push(entry.path());
            }
        }
        if holds && depth > 0 {
            self.found.folders.push(dir.to_path_buf());
        }
        let pushed = gitignore && {
            let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
            let _ = b.add(dir.join(".gitignore"));
            b.build().map(|gi| self.ignores.push(gi)).is_ok()
        };
        below.sort_unstable();
        for sub in below {
            if !self.ignored(&sub) {
                self.folder(&sub, depth + 1);
            }
        }
        if pushed {
            self.ignores.pop();
        }
    }

    /// Whether the folder `dir` is ignored: the deepest `.gitignore` with a rule for it
    /// decides (a later `!` rule takes it back).
    fn ignored(&self, dir: &Path) -> bool {
        for gi in self.ignores.iter().rev() {
            match gi.matched(dir, true) {
                ignore::Match::Ignore(_) => return true,
                ignore::Match::Whitelist(_) => return false,
                ignore::Match::None => {}
            }
        }
        false
    }
}

/// [`find_session_files`] as `(kind, path, project folder)`, in the same order.
pub fn session_project_files(
    formats: &FormatSet,
    root: &Path,
    session: &Path,
) -> Vec<(HookSourceKind, PathBuf, PathBuf)> {
    find_session_files(formats, root, session)
        .into_iter()
        .map(|(f, folder)| (f.kind, f.path, folder))
        .collect()
}

/// The user's own files in `dirs`, as `(kind, path)`, in precedence order.
pub fn user_files(formats: &FormatSet, dirs: &UserDirs) -> Vec<(HookSourceKind, PathBuf)> {
    pairs(find_files(formats, FileScope::User, Path::new(""), dirs))
}

/// The managed files in `dirs`, as `(kind, path)`, in precedence order.
pub fn managed_files(formats: &FormatSet, dirs: &ManagedDirs) -> Vec<(HookSourceKind, PathBuf)> {
    pairs(find_files(formats, FileScope::Managed, Path::new(""), dirs))
}

fn pairs(found: Vec<FoundFile>) -> Vec<(HookSourceKind, PathBuf)> {
    found.into_iter().map(|f| (f.kind, f.path)).collect()
}

/// `base` joined with a `/`-separated relative path (`""` is `base` itself).
fn join(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').filter(|p| !p.is_empty()).fold(base.to_path_buf(), |p, part| p.join(part))
}

/// The files of one location under `base`.
fn find_at(location: &FileLocation, base: &Path) -> Vec<FoundFile> {
    let dir = join(base, location.pattern.dir());
    let file = |path: PathBuf| found_file(location, path);
    match location.pattern {
        FilePattern::File(rel) => {
            let path = join(base, rel);
            if exists(&path) { vec![file(path)] } else { Vec::new() }
        }
        FilePattern::FirstOf { names, .. } => {
            let present: Vec<&'static str> =
                names.iter().copied().filter(|n| exists(&dir.join(n))).collect();
            let Some((&chosen, shadowed)) = present.split_first() else { return Vec::new() };
            let at = names.iter().position(|n| *n == chosen).unwrap_or(0);
            vec![FoundFile {
                shadows: shadowed.to_vec(),
                replaced_by: names.get(..at).unwrap_or_default().to_vec(),
                ..file(dir.join(chosen))
            }]
        }
        FilePattern::EachIn { suffix, recursive, .. } => {
            let depth = if recursive { FilePattern::MAX_NESTING } else { 0 };
            let (paths, warnings) = files_below(&dir, suffix, depth);
            let mut out: Vec<FoundFile> = paths.into_iter().map(file).collect();
            if let Some(last) = out.last_mut() {
                last.folder_warnings = warnings;
            }
            out
        }
    }
}

/// The files of folder `dir` whose name ends with `suffix` and does not start with `.`, in
/// name order ([`FilePattern::EachIn`]).
///
/// Only names that resolve to a regular file count (a symlink to one included); folders,
/// FIFOs, sockets, devices, dangling links and names that are not UTF-8 are left out. At most
/// [`MAX_FOLDER_FILES`] are returned (the first by name) and at most [`MAX_FOLDER_SCAN`]
/// entries are looked at; going over either, or a folder that exists but cannot be listed,
/// gives a warning naming the folder. No folder gives nothing.
pub fn files_in(dir: &Path, suffix: &str) -> (Vec<PathBuf>, Vec<HookDiagnostic>) {
    files_below(dir, suffix, 0)
}

/// [`files_in`] for `dir` and its subfolders down to `depth` levels below it (a recursive
/// [`FilePattern::EachIn`]), in path order. A subfolder whose name starts with `.` is not
/// entered. A symbolic link to a folder is entered once per folder it leads to, as the agents
/// read through it (a skill linked from a shared folder, `.claude/skills/deploy ->
/// ../../shared/skills/deploy`), unless it leads to the walked folder or above it (a loop);
/// the caps count over the whole tree, and a subfolder that cannot be listed gives a warning
/// naming it while the rest is read.
pub fn files_below(dir: &Path, suffix: &str, depth: usize) -> (Vec<PathBuf>, Vec<HookDiagnostic>) {
    let mut diagnostics = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = 0usize;
    let mut pending: Vec<(PathBuf, usize)> = vec![(dir.to_path_buf(), 0)];
    // The walked folder's real path, once a link asks, and the folders links led to.
    let mut top: Option<PathBuf> = None;
    let mut linked: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    'walk: while let Some((folder, level)) = pending.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                continue;
            }
            Err(e) => {
                diagnostics.push(
                    HookDiagnostic::warning(format!(
                        "hook folder cannot be listed ({e}); its files are not read"
                    ))
                    .in_file(&folder)
                    .with_code("folder_unreadable"),
                );
                continue;
            }
        };
        for entry in entries {
            if seen >= MAX_FOLDER_SCAN {
                diagnostics.push(
                    HookDiagnostic::warning(format!(
                        "hook folder has more than {MAX_FOLDER_SCAN} entries; only the first {MAX_FOLDER_SCAN} listed are considered"
                    ))
                    .in_file(dir)
                    .with_code("too_many_files"),
                );
                break 'walk;
            }
            seen += 1;
            let Ok(entry) = entry else { continue };
            let Ok(name) = entry.file_name().into_string() else { continue };
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            let file_type = entry.file_type().ok();
            if level < depth && file_type.is_some_and(|t| t.is_dir()) {
                pending.push((path, level + 1));
                continue;
            }
            // A link to a folder elsewhere is entered once (`.claude/skills/deploy ->
            // ../../shared/skills/deploy`: the agents read through it); one to the walked
            // folder or above it would loop, and is not.
            if level < depth
                && file_type.is_some_and(|t| t.is_symlink())
                && let Ok(target) = hooks_registry::canonicalize(&path)
                && target.as_path().is_dir()
            {
                let top = top.get_or_insert_with(|| {
                    hooks_registry::canonicalize(dir)
                        .map_or_else(|_| dir.to_path_buf(), AbsPathBuf::into_path_buf)
                });
                if !top.starts_with(target.as_path()) && linked.insert(target.into_path_buf()) {
                    pending.push((path, level + 1));
                }
                continue;
            }
            // Follows a symlink: what counts is what the reader would open.
            if name.ends_with(suffix) && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                files.push(path);
            }
        }
    }
    files.sort();
    if files.len() > MAX_FOLDER_FILES {
        diagnostics.push(
            HookDiagnostic::warning(format!(
                "hook folder holds {} files; only the first {MAX_FOLDER_FILES} by name are read",
                files.len()
            ))
            .in_file(dir)
            .with_code("too_many_files"),
        );
        files.truncate(MAX_FOLDER_FILES);
    }
    (files, diagnostics)
}

/// The subfolders of `dir` a recursive [`FilePattern::EachIn`] would enter, down to
/// [`FilePattern::MAX_NESTING`] levels ([`files_below`]'s rules: no hidden folder, no link),
/// for the watcher to watch; at most [`MAX_FOLDER_SCAN`] entries are looked at. `dir`
/// itself is not listed.
pub fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut pending: Vec<(PathBuf, usize)> = vec![(dir.to_path_buf(), 0)];
    'walk: while let Some((folder, level)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries {
            if seen >= MAX_FOLDER_SCAN {
                break 'walk;
            }
            seen += 1;
            let Ok(entry) = entry else { continue };
            let hidden = entry.file_name().as_encoded_bytes().first() == Some(&b'.');
            if hidden || !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let path = entry.path();
            if level + 1 < FilePattern::MAX_NESTING {
                pending.push((path.clone(), level + 1));
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Whether anything is, or may be, at `path`: a dangling symlink counts, and so does a path
/// that cannot be looked at (a folder above it denies access), so the reader reports the
/// failure instead of the file being silently absent and its last valid parse withdrawn.
/// Only "nothing there" (`ENOENT`, or a parent that is not a folder) is absent.
pub(crate) fn exists(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(_) => true,
        Err(e) => {
            !matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
        }
    }
}

#[cfg(test)]
mod tests;
