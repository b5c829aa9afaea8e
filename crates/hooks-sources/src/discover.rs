//! Where hook files are: explicit directories, project roots and the user's own directories.

use std::path::{Path, PathBuf};

use hooks_format_chrys::merge::FILE_NAMES;
use hooks_schema::{HookDiagnostic, HookSourceKind};

use crate::EnvVars;

/// The file format of a hook source, which picks the adapter that parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    /// Cursor's `hooks.json` (`{version: 1, hooks: {event: [...]}}`).
    Cursor,
    /// Chrys's `hooks.yaml`, `hooks.yml` or `hooks.json` (`{version: 1, hooks: [...]}`); the
    /// adapter picks YAML or JSON from the file name.
    Chrys,
    /// Claude Code's `settings.json` (the `hooks` key), read the way Claude Code reads it.
    Claude,
    /// Claude Code's `settings.json` under the deny-only strict contract (see
    /// `hooks_format_claude`): a section the contract does not allow fails closed.
    ClaudeStrict,
}

impl SourceFormat {
    /// The format a source of `kind` is in, or `None` for explicit kinds, whose format comes
    /// from the file name (see [`sources_for_hook_dirs`]).
    pub fn of_kind(kind: HookSourceKind) -> Option<SourceFormat> {
        if kind.is_explicit() {
            return None;
        }
        match kind.format()?.as_str() {
            "cursor" => Some(SourceFormat::Cursor),
            "chrys" => Some(SourceFormat::Chrys),
            "claude" => Some(SourceFormat::Claude),
            _ => None,
        }
    }

    /// The same format, with Claude Code settings read under the strict contract when
    /// `strict` holds (other formats are unchanged).
    #[must_use]
    pub fn with_claude_strict(self, strict: bool) -> SourceFormat {
        match (self, strict) {
            (SourceFormat::Claude | SourceFormat::ClaudeStrict, true) => SourceFormat::ClaudeStrict,
            (SourceFormat::Claude | SourceFormat::ClaudeStrict, false) => SourceFormat::Claude,
            (SourceFormat::Cursor, _) => SourceFormat::Cursor,
            (SourceFormat::Chrys, _) => SourceFormat::Chrys,
        }
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceFormat::Cursor => "cursor",
            SourceFormat::Chrys => "chrys",
            SourceFormat::Claude => "claude",
            SourceFormat::ClaudeStrict => "claude_strict",
        }
    }
}

/// Who named an explicit source, which is its kind and precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExplicitSourceScope {
    /// Defined by the agent factory for one agent.
    FactoryAgent,
    /// Defined by the agent factory for every agent.
    FactoryWide,
    /// Delivered with the run (`WARP_HOOK_DIRS`, run configuration).
    RunDelivered,
}

impl ExplicitSourceScope {
    /// The source kind the scope loads as.
    pub fn kind(self) -> HookSourceKind {
        match self {
            ExplicitSourceScope::FactoryAgent => HookSourceKind::FACTORY_AGENT,
            ExplicitSourceScope::FactoryWide => HookSourceKind::FACTORY_WIDE,
            ExplicitSourceScope::RunDelivered => HookSourceKind::RUN_DELIVERED,
        }
    }
}

/// A hook file named explicitly by whoever started the run. It activates without the trust
/// policy ([`crate::load_explicit_sources`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExplicitHookSource {
    /// Who named it.
    pub scope: ExplicitSourceScope,
    /// The file, as named (canonicalized when loaded).
    pub path: PathBuf,
    /// Its format.
    pub format: SourceFormat,
}

impl ExplicitHookSource {
    /// A source for `path` in `format`.
    pub fn new(scope: ExplicitSourceScope, path: impl Into<PathBuf>, format: SourceFormat) -> Self {
        ExplicitHookSource { scope, path: path.into(), format }
    }
}

/// The hook file names a directory is searched for, in order; the first that exists wins.
///
/// In a folder named `hooks` (Chrys keeps its file in `.chrys/hooks/` and
/// `<config_dir>/hooks/`), the order is Chrys's own: `hooks.yaml`, `hooks.yml`, `hooks.json`,
/// then Claude's `settings.json`, and `hooks.json` is Chrys JSON. In any other folder,
/// Cursor's `hooks.json` comes first (`.cursor/` is the seed's natural directory), then
/// `hooks.yaml`, `hooks.yml`, `settings.json`.
pub fn hook_file_candidates(dir: &Path) -> [(PathBuf, SourceFormat); 4] {
    candidate_names(dir).map(|(name, format)| (dir.join(name), format))
}

/// The names [`hook_file_candidates`] searches `dir` for, in order.
pub(crate) fn candidate_names(dir: &Path) -> [(&'static str, SourceFormat); 4] {
    if dir.file_name().is_some_and(|n| n == "hooks") {
        [
            ("hooks.yaml", SourceFormat::Chrys),
            ("hooks.yml", SourceFormat::Chrys),
            ("hooks.json", SourceFormat::Chrys),
            ("settings.json", SourceFormat::Claude),
        ]
    } else {
        [
            ("hooks.json", SourceFormat::Cursor),
            ("hooks.yaml", SourceFormat::Chrys),
            ("hooks.yml", SourceFormat::Chrys),
            ("settings.json", SourceFormat::Claude),
        ]
    }
}

/// One explicit source per directory: the first of [`hook_file_candidates`] that exists.
///
/// An entry that names a file rather than a directory is that file, in the format its name
/// says ([`format_for_file`]).
///
/// A directory with none of them (or that does not exist) still gives a source, for its
/// first candidate, so that loading reports the missing file as an error instead of the run
/// silently starting without the hooks it was given. Order is kept; duplicates are left for
/// the loader, which identifies files by canonical path.
pub fn sources_for_hook_dirs(
    dirs: &[PathBuf],
    scope: ExplicitSourceScope,
) -> Vec<ExplicitHookSource> {
    dirs.iter()
        .map(|dir| {
            if dir.is_file() {
                return ExplicitHookSource {
                    scope,
                    path: dir.clone(),
                    format: format_for_file(dir),
                };
            }
            let candidates = hook_file_candidates(dir);
            let [first, ..] = &candidates;
            let (path, format) =
                candidates.iter().find(|(path, _)| exists(path)).unwrap_or(first).clone();
            ExplicitHookSource { scope, path, format }
        })
        .collect()
}

/// Every project hook file a loader reads under a root, relative to it, in priority order:
/// `.cursor/hooks.json`, `.chrys/hooks/hooks.{yaml,yml,json}` (Chrys's precedence: the first
/// that exists is the file), `.claude/settings.local.json`, `.claude/settings.json`. The one
/// table behind [`project_files`] and [`expected_files`].
pub fn project_file_candidates() -> Vec<(HookSourceKind, PathBuf)> {
    let mut out =
        vec![(hooks_format_cursor::PROJECT_FILE, Path::new(".cursor").join("hooks.json"))];
    let chrys = Path::new(".chrys").join("hooks");
    out.extend(FILE_NAMES.iter().map(|n| (hooks_format_chrys::PROJECT_FILE, chrys.join(n))));
    let claude = Path::new(".claude");
    out.push((hooks_format_claude::PROJECT_LOCAL_SETTINGS, claude.join("settings.local.json")));
    out.push((hooks_format_claude::PROJECT_SETTINGS, claude.join("settings.json")));
    out
}

/// Keeps the candidates that exist, and of a kind whose names compete (Chrys's) the first.
fn existing(candidates: Vec<(HookSourceKind, PathBuf)>) -> Vec<(HookSourceKind, PathBuf)> {
    let mut out: Vec<(HookSourceKind, PathBuf)> = Vec::new();
    for (kind, path) in candidates {
        let competes =
            kind == hooks_format_chrys::PROJECT_FILE || kind == hooks_format_chrys::USER_FILE;
        if competes && out.iter().any(|(k, _)| *k == kind) {
            continue;
        }
        if exists(&path) {
            out.push((kind, path));
        }
    }
    out
}

/// The project hook files that exist under `root`, in priority order
/// ([`project_file_candidates`]).
///
/// "Exists" includes a dangling symlink or a directory at that name, so the reader reports
/// it instead of the file being silently absent.
pub fn project_files(root: &Path) -> Vec<(HookSourceKind, PathBuf)> {
    existing(project_file_candidates().into_iter().map(|(k, rel)| (k, root.join(rel))).collect())
}

/// The user's own configuration directories, passed in rather than read from a fixed home.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserDirs {
    /// Chrys's config directory (`~/.chrys` on POSIX, `%APPDATA%\chrys` on Windows); its
    /// hook file is in `hooks/`.
    pub chrys_config_dir: Option<PathBuf>,
    /// Claude Code's user directory (`~/.claude`).
    pub claude_dir: Option<PathBuf>,
    /// Cursor's user directory (`~/.cursor`).
    pub cursor_dir: Option<PathBuf>,
}

impl UserDirs {
    /// The conventional directories under `home`.
    pub fn under_home(home: &Path) -> UserDirs {
        UserDirs {
            chrys_config_dir: Some(home.join(".chrys")),
            claude_dir: Some(home.join(".claude")),
            cursor_dir: Some(home.join(".cursor")),
        }
    }

    /// The conventional directories for the environment in `env`: under its home directory,
    /// with Chrys's in `%APPDATA%\chrys` on Windows. No home gives no directories.
    pub fn from_env(env: &EnvVars) -> UserDirs {
        let mut dirs = env.home_dir().map(|h| UserDirs::under_home(&h)).unwrap_or_default();
        if cfg!(windows) {
            dirs.chrys_config_dir = env
                .appdata
                .as_ref()
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|p| p.join("chrys"));
        }
        dirs
    }
}

/// Every user-scope hook file a loader reads in `dirs`, in priority order:
/// `~/.cursor/hooks.json`, Chrys's `<config_dir>/hooks/hooks.{yaml,yml,json}`,
/// `~/.claude/settings.json`.
pub fn user_file_candidates(dirs: &UserDirs) -> Vec<(HookSourceKind, PathBuf)> {
    let mut out = Vec::new();
    if let Some(d) = &dirs.cursor_dir {
        out.push((hooks_format_cursor::USER_FILE, d.join("hooks.json")));
    }
    if let Some(d) = &dirs.chrys_config_dir {
        let hooks = d.join("hooks");
        out.extend(FILE_NAMES.iter().map(|n| (hooks_format_chrys::USER_FILE, hooks.join(n))));
    }
    if let Some(d) = &dirs.claude_dir {
        out.push((hooks_format_claude::USER_SETTINGS, d.join("settings.json")));
    }
    out
}

/// The user-scope hook files that exist in `dirs`, in priority order
/// ([`user_file_candidates`]; Chrys's first existing name).
pub fn user_files(dirs: &UserDirs) -> Vec<(HookSourceKind, PathBuf)> {
    existing(user_file_candidates(dirs))
}

/// Where administrators install managed hook files, passed in like [`UserDirs`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManagedDirs {
    /// Cursor's enterprise directory, holding `hooks.json`.
    pub cursor_dir: Option<PathBuf>,
    /// Claude Code's managed settings directory, holding `managed-settings.json` and the
    /// `managed-settings.d/` folder of fragments.
    pub claude_dir: Option<PathBuf>,
}

impl ManagedDirs {
    /// The documented system locations for this platform: on macOS
    /// `/Library/Application Support/Cursor` and `/Library/Application Support/ClaudeCode`;
    /// on Linux `/etc/cursor` and `/etc/claude-code`; on Windows `C:\ProgramData\Cursor` and
    /// `C:\Program Files\ClaudeCode`.
    pub fn system() -> ManagedDirs {
        let (cursor, claude) = if cfg!(target_os = "macos") {
            ("/Library/Application Support/Cursor", "/Library/Application Support/ClaudeCode")
        } else if cfg!(windows) {
            (r"C:\ProgramData\Cursor", r"C:\Program Files\ClaudeCode")
        } else {
            ("/etc/cursor", "/etc/claude-code")
        };
        ManagedDirs {
            cursor_dir: Some(PathBuf::from(cursor)),
            claude_dir: Some(PathBuf::from(claude)),
        }
    }
}

/// The most `managed-settings.d/` fragments read; the rest (by name) are left out with a
/// warning.
pub const MAX_MANAGED_FRAGMENTS: usize = 256;

/// The most entries of `managed-settings.d/` looked at, whatever they are; a folder with more
/// is read as far as that and a warning says so.
pub const MAX_MANAGED_FRAGMENT_SCAN: usize = 4096;

/// The folder of settings fragments beside `managed-settings.json`.
pub const MANAGED_FRAGMENT_DIR: &str = "managed-settings.d";

/// Every hook file that would be loaded if it existed, and every file that changes which
/// hooks run, for the registry to protect whether or not it exists
/// (`hooks_registry::HookRegistry::set_expected_files`): the project files under every root
/// ([`project_file_candidates`]), the user's ([`user_file_candidates`]) and the user's Chrys
/// settings document (its `project.hooks_enabled` switches project hooks on), and the managed
/// files: Cursor's enterprise `hooks.json`, Claude Code's `managed-settings.json` and every
/// file of its `managed-settings.d/` folder. Claude Code's `disableAllHooks` lives in these
/// same settings files.
pub fn expected_files(
    user: Option<&UserDirs>,
    managed: Option<&ManagedDirs>,
) -> hooks_registry::ExpectedFiles {
    let mut fixed = Vec::new();
    let mut folders = Vec::new();
    if let Some(dirs) = user {
        fixed.extend(user_file_candidates(dirs));
        if let Some(settings) = crate::user_settings_path(dirs) {
            fixed.push((hooks_format_chrys::USER_SETTINGS, settings));
        }
    }
    if let Some(dirs) = managed {
        if let Some(d) = &dirs.cursor_dir {
            fixed.push((hooks_format_cursor::MANAGED_FILE, d.join("hooks.json")));
        }
        if let Some(d) = &dirs.claude_dir {
            fixed.push((hooks_format_claude::MANAGED_SETTINGS, d.join("managed-settings.json")));
            folders.push((hooks_format_claude::MANAGED_SETTINGS, d.join(MANAGED_FRAGMENT_DIR)));
        }
    }
    hooks_registry::ExpectedFiles { under_roots: project_file_candidates(), fixed, folders }
}

/// The managed hook files that exist in `dirs`, in priority order: Cursor's enterprise
/// `hooks.json`, then Claude Code's `managed-settings.json`, then its
/// `managed-settings.d/*.json` fragments in name order ([`managed_claude_fragments`]).
pub fn managed_files(dirs: &ManagedDirs) -> Vec<(HookSourceKind, PathBuf)> {
    managed_files_with_diagnostics(dirs).0
}

/// [`managed_files`], with the warnings about the fragment folder (too many fragments, a
/// folder that cannot be listed).
pub fn managed_files_with_diagnostics(
    dirs: &ManagedDirs,
) -> (Vec<(HookSourceKind, PathBuf)>, Vec<HookDiagnostic>) {
    let mut out = Vec::new();
    let mut diagnostics = Vec::new();
    if let Some(cursor) = dirs.cursor_dir.as_ref().map(|d| d.join("hooks.json"))
        && exists(&cursor)
    {
        out.push((hooks_format_cursor::MANAGED_FILE, cursor));
    }
    if let Some(dir) = &dirs.claude_dir {
        let base = dir.join("managed-settings.json");
        if exists(&base) {
            out.push((hooks_format_claude::MANAGED_SETTINGS, base));
        }
        let (fragments, warnings) = managed_claude_fragments(&dir.join(MANAGED_FRAGMENT_DIR));
        out.extend(fragments.into_iter().map(|f| (hooks_format_claude::MANAGED_SETTINGS, f)));
        diagnostics.extend(warnings);
    }
    (out, diagnostics)
}

/// The settings fragments in Claude Code's `managed-settings.d/` folder `dir`, in the order
/// Claude Code merges them: every `*.json` whose name does not start with `.`, sorted by name.
///
/// Only names that resolve to a regular file count (a symlink to one included); folders,
/// FIFOs, sockets, devices, dangling links and names that are not UTF-8 are left out. At most
/// [`MAX_MANAGED_FRAGMENTS`] are returned (the first by name) and at most
/// [`MAX_MANAGED_FRAGMENT_SCAN`] entries are looked at; going over either, or a folder that
/// exists but cannot be listed, gives a warning naming the folder. No folder gives nothing.
/// The files themselves are read later, like any hook file ([`crate::read_source`]).
pub fn managed_claude_fragments(dir: &Path) -> (Vec<PathBuf>, Vec<HookDiagnostic>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return (Vec::new(), Vec::new());
        }
        Err(e) => {
            let d = HookDiagnostic::warning(format!(
                "managed settings folder cannot be listed ({e}); its fragments are not read"
            ))
            .in_file(dir)
            .with_code("fragments_unreadable");
            return (Vec::new(), vec![d]);
        }
    };
    let mut diagnostics = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (seen, entry) in entries.enumerate() {
        if seen >= MAX_MANAGED_FRAGMENT_SCAN {
            diagnostics.push(
                HookDiagnostic::warning(format!(
                    "managed settings folder has more than {MAX_MANAGED_FRAGMENT_SCAN} entries; only the first {MAX_MANAGED_FRAGMENT_SCAN} listed are considered"
                ))
                .in_file(dir)
                .with_code("too_many_fragments"),
            );
            break;
        }
        let Ok(entry) = entry else { continue };
        let Ok(name) = entry.file_name().into_string() else { continue };
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        // Follows a symlink: what counts is what the reader would open.
        if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()) {
            names.push(name);
        }
    }
    names.sort();
    if names.len() > MAX_MANAGED_FRAGMENTS {
        diagnostics.push(
            HookDiagnostic::warning(format!(
                "managed settings folder holds {} fragments; only the first {MAX_MANAGED_FRAGMENTS} by name are read",
                names.len()
            ))
            .in_file(dir)
            .with_code("too_many_fragments"),
        );
        names.truncate(MAX_MANAGED_FRAGMENTS);
    }
    (names.into_iter().map(|n| dir.join(n)).collect(), diagnostics)
}

/// The format of a hook file named directly: `*.yaml` and `*.yml` are Chrys, `settings*.json`
/// is Claude Code, a `.json` in a folder named `hooks` is Chrys, and any other file is Cursor.
pub fn format_for_file(path: &Path) -> SourceFormat {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let in_hooks_folder = path.parent().and_then(Path::file_name).is_some_and(|n| n == "hooks");
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        SourceFormat::Chrys
    } else if name.starts_with("settings") && name.ends_with(".json") {
        SourceFormat::Claude
    } else if in_hooks_folder {
        SourceFormat::Chrys
    } else {
        SourceFormat::Cursor
    }
}

/// Whether anything is, or may be, at `path`: a dangling symlink counts, and so does a path
/// that cannot be looked at (a folder above it denies access), so the reader reports the
/// failure instead of the file being silently absent and its last valid parse withdrawn.
/// Only "nothing there" (`ENOENT`, or a parent that is not a folder) is absent.
fn exists(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(_) => true,
        Err(e) => {
            !matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
        }
    }
}

#[cfg(test)]
mod tests;
