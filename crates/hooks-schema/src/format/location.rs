//! Where a format's files live: the folders its user and managed files are relative to, and
//! each file location with its role, scope and name pattern.
//!
//! Locations are declarations, not paths: `hooks-sources` resolves them against a project
//! root, the user's folders (home, environment overrides such as `CODEX_HOME`) and the
//! platform's system folders, and it is the only crate that looks at the disk for them.

use crate::{FileRole, FileScope};

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileContent {
    /// Hook definitions, and possibly a policy ([`SourcePolicy`](crate::SourcePolicy)) too
    /// (Claude Code's `disableAllHooks` sits beside its hooks).
    Hooks,
    /// Only a policy that changes which hooks of the format run (Chrys's user
    /// `settings.yaml` with `project.hooks_enabled`, Codex's managed `requirements.toml`).
    /// Read, watched and protected like a hook file; it never binds a hook.
    PolicyOnly,
    /// Files that may carry hooks among other things (Claude Code's subagents, skills and
    /// commands, whose front matter may have `hooks:`): read and watched like hook files, but
    /// one that parses to nothing (no definition, no diagnostic) is not a source. Such a
    /// location must lie in a folder protected whole (an [`AgentFolder`]), which keeps its
    /// files out of the agent's reach whether or not they are sources.
    HooksIfAny,
}

impl FileContent {
    /// Whether a file of this content that parsed to `parsed` is left out of the sources
    /// ([`FileContent::HooksIfAny`] with nothing in it).
    pub fn leaves_out(self, parsed: &crate::ParseResult) -> bool {
        self == FileContent::HooksIfAny
            && parsed.as_ref().is_ok_and(|p| p.definitions.is_empty() && p.diagnostics.is_empty())
    }
}

/// The name pattern of a location, relative to its base folder (the project root for a
/// project location, the format's user or managed folder otherwise). Paths use `/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilePattern {
    /// One file (`.cursor/hooks.json`).
    File(&'static str),
    /// The first of `names` present in folder `dir` is the file; the others are shadowed
    /// (Chrys's `hooks.yaml` > `hooks.yml` > `hooks.json`). `dir` may be empty for the base
    /// folder itself.
    FirstOf {
        /// The folder.
        dir: &'static str,
        /// The names, first wins.
        names: &'static [&'static str],
    },
    /// Every regular file in folder `dir` whose name ends with `suffix` and does not start
    /// with `.`, each its own source, in name order (Claude Code's `managed-settings.d/*.json`).
    /// With `recursive`, the files in its subfolders too, at any depth down to
    /// [`FilePattern::MAX_NESTING`] folders below `dir`, in path order, skipping folders whose
    /// name starts with `.` (Copilot CLI's `.github/hooks/**/*.json`). The loader caps how
    /// many it reads.
    EachIn {
        /// The folder.
        dir: &'static str,
        /// The name suffix (`.json`).
        suffix: &'static str,
        /// Whether the files of its subfolders count too.
        recursive: bool,
    },
}

impl FilePattern {
    /// How many folders below its `dir` a recursive [`FilePattern::EachIn`] reaches: the
    /// loaders and the watcher go no deeper, so a deep tree costs a bounded walk.
    pub const MAX_NESTING: usize = 8;

    /// Whether the pattern reaches into the subfolders of its folder.
    pub fn is_recursive(&self) -> bool {
        matches!(*self, FilePattern::EachIn { recursive: true, .. })
    }

    /// The folder the file or files are in, relative to the base (`""` for the base itself).
    pub fn dir(&self) -> &'static str {
        match *self {
            FilePattern::File(path) => path.rsplit_once('/').map_or("", |(dir, _)| dir),
            FilePattern::FirstOf { dir, .. } | FilePattern::EachIn { dir, .. } => dir,
        }
    }

    /// The fixed file names of the pattern, in order (none for [`FilePattern::EachIn`]).
    pub fn file_names(&self) -> Vec<&'static str> {
        match *self {
            FilePattern::File(path) => vec![path.rsplit_once('/').map_or(path, |(_, name)| name)],
            FilePattern::FirstOf { names, .. } => names.to_vec(),
            FilePattern::EachIn { .. } => Vec::new(),
        }
    }

    /// The folders between the base and the file's folder, outermost first, the file's
    /// folder included (`.chrys`, `.chrys/hooks`); empty when the files are in the base.
    /// Watching these, never recursively, is enough to see a file of the pattern appear,
    /// except below a recursive pattern's folder, whose subfolders are watched as they are
    /// found ([`FilePattern::is_recursive`]).
    pub fn folders(&self) -> Vec<&'static str> {
        let dir = self.dir();
        if dir.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<&'static str> =
            dir.match_indices('/').map(|(i, _)| dir.get(..i).unwrap_or(dir)).collect();
        out.push(dir);
        out
    }

    /// Whether `rel` (a path relative to the base, with `/`) names a file of the pattern,
    /// whether it exists or not. A shadowed name of a [`FilePattern::FirstOf`] group counts:
    /// creating it changes which file is read.
    pub fn matches(&self, rel: &str) -> bool {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        match *self {
            FilePattern::File(path) => path == rel,
            FilePattern::FirstOf { dir: d, names } => d == dir && names.contains(&name),
            FilePattern::EachIn { dir: d, suffix, recursive } => {
                let named = name.ends_with(suffix) && !name.starts_with('.');
                if !recursive {
                    return named && d == dir;
                }
                let below = if d.is_empty() {
                    Some(dir)
                } else if dir == d {
                    Some("")
                } else {
                    dir.strip_prefix(d).and_then(|r| r.strip_prefix('/'))
                };
                let Some(below) = below else { return false };
                let folders: Vec<&str> = below.split('/').filter(|f| !f.is_empty()).collect();
                named
                    && folders.len() <= FilePattern::MAX_NESTING
                    && folders.iter().all(|f| !f.starts_with('.'))
            }
        }
    }

    /// Whether `rel` (relative to the base, with `/`) is a folder below a recursive pattern's
    /// folder that can hold its files: at most [`FilePattern::MAX_NESTING`] levels down, no
    /// name starting with `.` on the way. Always `false` for other patterns.
    pub fn holds_subfolder(&self, rel: &str) -> bool {
        let FilePattern::EachIn { dir, recursive: true, .. } = *self else { return false };
        let below = if dir.is_empty() {
            rel
        } else {
            match rel.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) {
                Some(below) => below,
                None => return false,
            }
        };
        let folders: Vec<&str> = below.split('/').collect();
        !below.is_empty()
            && folders.len() <= FilePattern::MAX_NESTING
            && folders.iter().all(|f| !f.is_empty() && !f.starts_with('.'))
    }
}

/// Which folders' project files a format's agent reads for a session started in a folder
/// below the repository's root (the nearest folder holding `.git`): the bridge and
/// `hooks trust` read a session's project files the way its agent would. A session started
/// at the root reads the root's in every case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ProjectFolders {
    /// The repository's root only (an editor's workspace folder).
    #[default]
    Root,
    /// The session's own folder only (Claude Code, Gemini CLI and Copilot CLI, observed:
    /// started in a subfolder, they do not read the root's files).
    Session,
    /// Every folder from the repository's root down to the session's, each one's files
    /// (Codex's project layers, observed).
    RootToSession,
}

impl ProjectFolders {
    /// Whether a session started in `session` reads this format's project files in
    /// `folder`, where `folder` lies between the repository's `root` and `session` (both
    /// included).
    pub fn reads(
        self,
        folder: &std::path::Path,
        root: &std::path::Path,
        session: &std::path::Path,
    ) -> bool {
        match self {
            ProjectFolders::Root => folder == root,
            ProjectFolders::Session => folder == session,
            ProjectFolders::RootToSession => {
                folder.starts_with(root) && session.starts_with(folder)
            }
        }
    }
}

/// Who must own a file, and every folder above it, for its agent to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ownership {
    /// Anyone: the agent reads the file wherever it is and whoever may write it.
    #[default]
    Anyone,
    /// The administrator alone (Gemini CLI's system settings): on Unix the file, the file it
    /// links to, and every folder above either belong to `root` and no one else may write
    /// them (no group or other write bit, a symbolic link on the way owned by `root` too).
    /// A file that is not so is not read; a warning says why. Not checked on Windows.
    Administrator,
}

/// One place a format's files live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileLocation {
    /// The role of the files found there (their kind is the scope with the role).
    pub role: FileRole,
    /// Whose files they are.
    pub scope: FileScope,
    /// Their names relative to the scope's base folder.
    pub pattern: FilePattern,
    /// What they hold.
    pub content: FileContent,
    /// For a [`FilePattern::File`] location of the user or managed scope: an environment
    /// variable that names the file itself, in place of the pattern under the scope's
    /// folder, when it is set to an absolute path (Gemini CLI's
    /// `GEMINI_CLI_SYSTEM_SETTINGS_PATH`). Ignored for other patterns and in a project.
    pub env: Option<&'static str>,
    /// Who must own the files for the agent to read them.
    pub ownership: Ownership,
}

impl FileLocation {
    /// A location of hook files.
    pub const fn hooks(role: FileRole, scope: FileScope, pattern: FilePattern) -> FileLocation {
        FileLocation {
            role,
            scope,
            pattern,
            content: FileContent::Hooks,
            env: None,
            ownership: Ownership::Anyone,
        }
    }

    /// A location of files that may carry hooks among other things
    /// ([`FileContent::HooksIfAny`]).
    pub const fn hooks_if_any(
        role: FileRole,
        scope: FileScope,
        pattern: FilePattern,
    ) -> FileLocation {
        FileLocation {
            content: FileContent::HooksIfAny,
            ..FileLocation::hooks(role, scope, pattern)
        }
    }

    /// A location of files that carry only a policy.
    pub const fn policy(role: FileRole, scope: FileScope, pattern: FilePattern) -> FileLocation {
        FileLocation {
            content: FileContent::PolicyOnly,
            ..FileLocation::hooks(role, scope, pattern)
        }
    }

    /// The same location, its file named instead by `var` when that is set to an absolute
    /// path ([`FileLocation::env`]).
    #[must_use]
    pub const fn or_env(self, var: &'static str) -> FileLocation {
        FileLocation { env: Some(var), ..self }
    }

    /// The same location, read only when the administrator alone can write its file
    /// ([`Ownership::Administrator`]).
    #[must_use]
    pub const fn administrator_only(self) -> FileLocation {
        FileLocation { ownership: Ownership::Administrator, ..self }
    }
}

/// A folder whose files the agent loads and runs by itself and the engine does not read:
/// Claude Code's installed plugins (`~/.claude/plugins/`), Gemini CLI's extensions
/// (`~/.gemini/extensions/`), Codex's plugins (`$CODEX_HOME/plugins/`), each of which carries
/// hook files and the scripts they run. The guard protects the folder as a whole, whether or
/// not it exists, so an agent cannot switch off or rewrite a hook it runs natively; the
/// loader and the watcher never look at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgentFolder {
    /// The role the guard reports the folder under (`claude_plugins`: kind
    /// `user_claude_plugins`).
    pub role: FileRole,
    /// Whose folder it is: relative to the project root, or to the format's user or managed
    /// folder ([`FormatDirs`]).
    pub scope: FileScope,
    /// The folder relative to that base, with `/`.
    pub dir: &'static str,
    /// For a project folder: the folder of that relative path is also read below the
    /// project root at any depth (Claude Code loads the skills of a monorepo's
    /// `packages/web/.claude/skills/`), and protected there too.
    pub nested: bool,
    /// Each entry of the folder may instead stand for a folder elsewhere, which the agent
    /// loads in its place (Gemini CLI's linked extensions): see [`AgentLink`].
    pub link: Option<AgentLink>,
    /// The hook file of each entry of the folder (or of the folder an entry links to),
    /// relative to it (Gemini CLI's `hooks/hooks.json`): read by the format's
    /// [`parse`](crate::FormatDescriptor::parse) as a source of this folder's role whose
    /// hooks the agent runs itself, so the engine lists them and protects the scripts they
    /// name, and never runs them (the format's parse disables them). Only user and managed
    /// folders' entries are read.
    pub entry_hooks: Option<&'static str>,
    /// Files of the folder that name folders elsewhere the agent loads hooks from, each read
    /// by the format's [`follow`](crate::FormatDescriptor::follow) (Claude Code's
    /// `plugins/known_marketplaces.json`): see [`AgentIndex`]. Only user and managed folders'
    /// indexes are read.
    pub indexes: &'static [AgentIndex],
}

/// A file of an [`AgentFolder`] that names folders elsewhere the agent loads hooks from, and
/// how to read it: Claude Code's `~/.claude/plugins/known_marketplaces.json` names the folder
/// of each marketplace added from a local path (`claude plugin marketplace add <path>`, or a
/// settings file's `extraKnownMarketplaces`), and Claude Code 2.1 runs that marketplace's
/// plugins, hooks included, where they are, not from its copy under `plugins/cache/`. The
/// descriptor reads the file ([`FormatDescriptor::follow`](crate::FormatDescriptor::follow)),
/// and each file what it names leads to in turn (the marketplace's manifest, each plugin's):
/// every folder so named is protected like a linked folder ([`AgentLink`]: whole, or its
/// parts when it is part of a project), and the hook files named are read as sources of the
/// agent folder's role whose hooks the agent runs itself (as [`AgentFolder::entry_hooks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgentIndex {
    /// The file, relative to the scope's folder of the format (`~/.claude`): in the agent
    /// folder (`plugins/known_marketplaces.json`) or beside it (Copilot CLI's `settings.json`).
    pub file: &'static str,
    /// How the descriptor reads it.
    pub step: FollowStep,
}

/// What kind of file [`FormatDescriptor::follow`](crate::FormatDescriptor::follow) is given:
/// a name of the descriptor's own choosing (`claude_marketplaces`), which only it interprets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FollowStep(pub &'static str);

/// A folder named by a file that [`FormatDescriptor::follow`](crate::FormatDescriptor::follow)
/// reads ([`AgentIndex`]), with what decides what the agent runs from it. Every path is as
/// written: absolute, or relative to the folder of the place that led to the file (for an
/// [`AgentIndex`], the scope's folder of the format).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Followed {
    /// The folder.
    pub folder: String,
    /// Relative to the folder, what decides what the agent runs from it (its hook files and
    /// their folder, its manifest): protected when the folder is part of a project; the folder
    /// is protected whole otherwise. Empty: the folder is protected whole wherever it is.
    pub parts: Vec<String>,
    /// Files relative to the folder to read in turn, each with its step (a marketplace's
    /// `.claude-plugin/marketplace.json`, naming its plugins' folders relative to it). A `*`
    /// component stands for each entry of the folder before it, and what the file names is
    /// then relative to that entry (Codex's `*/.codex-plugin/plugin.json`, one per version).
    pub next: Vec<(String, FollowStep)>,
    /// Hook files relative to the folder, read as sources of the agent folder's role whose
    /// hooks the agent runs itself (the format's parse disables them), each with the folder as
    /// its [`base`](crate::ParseContext::base). A `*` component stands for each entry of the
    /// folder before it (Codex's `plugins/cache/<market>/<plugin>/*/`, one folder per
    /// version), and that entry is then the file's base.
    pub hooks: Vec<String>,
}

/// How an entry of an [`AgentFolder`] stands for a folder elsewhere that the agent loads in
/// its place: Gemini CLI's `gemini extensions link <path>` writes
/// `~/.gemini/extensions/<name>/.gemini-extension-install.json` naming `<path>`, and loads
/// the extension's hooks from there. The folder a link file names is read by the descriptor
/// ([`FormatDescriptor::linked_folder`](crate::FormatDescriptor::linked_folder)) and protected
/// whole, like the agent folder, unless it is part of a project (it holds a project root or
/// lies under one: an extension developed in the repository the agent works in) or holds the
/// format's user folder: then only its `parts`, so that the agent may still edit the rest of
/// its project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgentLink {
    /// The name of the link file in each entry of the agent folder.
    pub file: &'static str,
    /// The files and folders, relative to the linked folder, that decide what the agent runs
    /// from it (its hook files and their folder, its manifest).
    pub parts: &'static [&'static str],
}

impl AgentFolder {
    /// A folder under the scope's base, read there only.
    pub const fn at(role: FileRole, scope: FileScope, dir: &'static str) -> AgentFolder {
        AgentFolder { role, scope, dir, nested: false, link: None, entry_hooks: None, indexes: &[] }
    }

    /// A project folder also read below the project root at any depth.
    pub const fn nested(role: FileRole, dir: &'static str) -> AgentFolder {
        AgentFolder { nested: true, ..AgentFolder::at(role, FileScope::Project, dir) }
    }

    /// The same folder, each entry of which may be a link to a folder elsewhere
    /// ([`AgentLink`]): a file named `file` in the entry, whose folder the descriptor reads,
    /// with the `parts` of that folder that decide what runs.
    #[must_use]
    pub const fn with_links(
        self,
        file: &'static str,
        parts: &'static [&'static str],
    ) -> AgentFolder {
        AgentFolder { link: Some(AgentLink { file, parts }), ..self }
    }

    /// The same folder, each entry's hook file at `file` relative to it (or to the folder it
    /// links to) read as a source whose hooks the agent runs itself
    /// ([`AgentFolder::entry_hooks`]).
    #[must_use]
    pub const fn with_entry_hooks(self, file: &'static str) -> AgentFolder {
        AgentFolder { entry_hooks: Some(file), ..self }
    }

    /// The same folder, with files that name folders elsewhere the agent loads hooks from
    /// ([`AgentIndex`]).
    #[must_use]
    pub const fn with_indexes(self, indexes: &'static [AgentIndex]) -> AgentFolder {
        AgentFolder { indexes, ..self }
    }

    /// Whether the engine reads hook files the agent loads through this folder (its entries'
    /// or those its indexes lead to), as sources of its role.
    pub const fn reads_hooks(&self) -> bool {
        self.entry_hooks.is_some() || !self.indexes.is_empty()
    }

    /// Where a format's agent keeps its hook scripts by convention: `project_dir` relative to
    /// a project (`.claude/hooks`), at any depth, and `hooks` in the format's user folder
    /// (`~/.claude/hooks`). Protected whole, existing or not, whether or not a hook the
    /// engine has read names a script there: a session started in a subfolder runs that
    /// folder's hooks, whose scripts the engine, reading another folder's files, never saw
    /// (finding F35, `specs/hardening.md`).
    pub const fn hook_scripts(role: FileRole, project_dir: &'static str) -> [AgentFolder; 2] {
        [AgentFolder::nested(role, project_dir), AgentFolder::at(role, FileScope::User, "hooks")]
    }
}

/// The user's configuration folder of a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserDir {
    /// The folder relative to the home folder (`.cursor`, `.codeium/windsurf`).
    pub under_home: &'static str,
    /// An environment variable that names the folder instead, when set to an absolute path
    /// (`CODEX_HOME`).
    pub env: Option<&'static str>,
    /// An environment variable that names the home folder to put `under_home` in instead of
    /// the user's, when set to an absolute path (Gemini CLI's `GEMINI_CLI_HOME`).
    pub home_env: Option<&'static str>,
    /// On Windows, the folder under `%APPDATA%` instead of the home folder (Chrys's
    /// `%APPDATA%\chrys`).
    pub windows_appdata: Option<&'static str>,
}

impl UserDir {
    /// The folder `rel` under the home folder.
    pub const fn under_home(rel: &'static str) -> UserDir {
        UserDir { under_home: rel, env: None, home_env: None, windows_appdata: None }
    }

    /// The same folder, named instead by `var` when it is set.
    #[must_use]
    pub const fn or_env(self, var: &'static str) -> UserDir {
        UserDir { env: Some(var), ..self }
    }

    /// The same folder, under the home folder `var` names when it is set.
    #[must_use]
    pub const fn or_home_env(self, var: &'static str) -> UserDir {
        UserDir { home_env: Some(var), ..self }
    }

    /// The same folder, under `%APPDATA%` as `name` on Windows.
    #[must_use]
    pub const fn windows_appdata(self, name: &'static str) -> UserDir {
        UserDir { windows_appdata: Some(name), ..self }
    }
}

/// The administrator's folder of a format, per platform (absolute paths).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ManagedDir {
    /// On Linux (and other Unix systems but macOS).
    pub linux: &'static str,
    /// On macOS.
    pub macos: &'static str,
    /// On Windows.
    pub windows: &'static str,
    /// An environment variable naming a file whose folder is the administrator's folder
    /// instead, when it is set to an absolute path (Gemini CLI finds its system defaults
    /// beside the file `GEMINI_CLI_SYSTEM_SETTINGS_PATH` names).
    pub folder_of_env: Option<&'static str>,
}

impl ManagedDir {
    /// The folder `linux`, `macos` or `windows` on each platform.
    pub const fn per_platform(
        linux: &'static str,
        macos: &'static str,
        windows: &'static str,
    ) -> ManagedDir {
        ManagedDir { linux, macos, windows, folder_of_env: None }
    }

    /// The same folder, or the folder of the file `var` names when it is set
    /// ([`ManagedDir::folder_of_env`]).
    #[must_use]
    pub const fn or_folder_of_env(self, var: &'static str) -> ManagedDir {
        ManagedDir { folder_of_env: Some(var), ..self }
    }

    /// The folder for the platform this was compiled for.
    pub fn this_platform(&self) -> &'static str {
        if cfg!(target_os = "macos") {
            self.macos
        } else if cfg!(windows) {
            self.windows
        } else {
            self.linux
        }
    }
}

/// The folders a format's user and managed locations are relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FormatDirs {
    /// The user's folder; `None` when the format has no user files.
    pub user: Option<UserDir>,
    /// The administrator's folder; `None` when the format has no managed files.
    pub managed: Option<ManagedDir>,
}
