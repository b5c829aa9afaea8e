//! Identifiers: hook ids, absolute paths, and the identity and kind of a hook source.

use std::{
    fmt,
    path::{Component, Path, PathBuf},
    str::FromStr,
    sync::Arc,
};

use serde::{Deserialize, Serialize};

use crate::SchemaError;

/// The longest hook id accepted, in characters.
pub const HOOK_ID_MAX_CHARS: usize = 512;

/// A validated hook id: 1 to 512 characters, none of them a control character.
///
/// Formats without ids (Cursor, Claude Code) get ids their adapter derives from the event
/// and position, so every definition can be named in diagnostics and verdicts.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId(Arc<str>);

impl HookId {
    /// Validates `id`.
    pub fn new(id: &str) -> Result<HookId, SchemaError> {
        if id.is_empty() {
            return Err(SchemaError::InvalidHookId { id: id.to_owned(), why: "it is empty" });
        }
        if id.chars().count() > HOOK_ID_MAX_CHARS {
            return Err(SchemaError::InvalidHookId {
                id: id.chars().take(40).collect(),
                why: "it is longer than 512 characters",
            });
        }
        if id.chars().any(char::is_control) {
            return Err(SchemaError::InvalidHookId {
                id: id.to_owned(),
                why: "it contains a control character",
            });
        }
        Ok(HookId(Arc::from(id)))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for HookId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for HookId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for HookId {
    type Err = SchemaError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookId::new(s)
    }
}

impl Serialize for HookId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for HookId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        HookId::new(&s).map_err(serde::de::Error::custom)
    }
}

/// An absolute path without `.` or `..` components.
///
/// Invariant: it cannot hold a relative path. Paths that name files on disk are expected
/// to be canonical (symlinks resolved) when they identify a source; the one function that
/// canonicalizes is `hooks_registry::canonicalize`, which returns this type.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct AbsPathBuf(PathBuf);

impl AbsPathBuf {
    /// Checks that `path` is absolute and has no `.` or `..` component.
    pub fn new(path: PathBuf) -> Result<AbsPathBuf, SchemaError> {
        if !path.is_absolute() {
            return Err(SchemaError::RelativePath { path });
        }
        if path.components().any(|c| matches!(c, Component::CurDir | Component::ParentDir)) {
            return Err(SchemaError::UnnormalizedPath { path });
        }
        Ok(AbsPathBuf(path))
    }

    /// The path.
    pub fn as_path(&self) -> &Path {
        &self.0
    }

    /// The path, owned.
    pub fn into_path_buf(self) -> PathBuf {
        self.0
    }

    /// The parent folder, if any.
    pub fn parent(&self) -> Option<AbsPathBuf> {
        self.0.parent().map(|p| AbsPathBuf(p.to_path_buf()))
    }

    /// Appends a relative path made only of normal components.
    pub fn join(&self, rel: &Path) -> Result<AbsPathBuf, SchemaError> {
        AbsPathBuf::new(self.0.join(rel))
    }
}

impl AsRef<Path> for AbsPathBuf {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl TryFrom<PathBuf> for AbsPathBuf {
    type Error = SchemaError;
    fn try_from(path: PathBuf) -> Result<Self, Self::Error> {
        AbsPathBuf::new(path)
    }
}

impl fmt::Debug for AbsPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for AbsPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.display(), f)
    }
}

impl<'de> Deserialize<'de> for AbsPathBuf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        AbsPathBuf::new(PathBuf::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Who owns a source, which is what the trust policy decides on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceOwner {
    /// Named by whoever started the run (factory definitions, `WARP_HOOK_DIRS`, run config).
    Explicit,
    /// Installed by an administrator (managed settings, enterprise files).
    Managed,
    /// The user's own files in their home or config directory.
    User,
    /// Files found inside a repository, which anyone who can push to it controls.
    Project,
}

/// The kind of a hook source: where it came from and which format it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookSourceKind {
    /// Hooks defined by the agent factory for one agent.
    FactoryAgent,
    /// Hooks defined by the agent factory for every agent.
    FactoryWide,
    /// Hook files delivered with the run (`WARP_HOOK_DIRS`, run configuration).
    RunDelivered,
    /// Cursor's enterprise file (`/etc/cursor/hooks.json` and its platform equivalents).
    ManagedCursorFile,
    /// Claude Code's managed settings (`managed-settings.json`).
    ManagedClaudeSettings,
    /// A repository's `.cursor/hooks.json`.
    ProjectCursorFile,
    /// A repository's `.chrys/hooks/hooks.{yaml,yml,json}`.
    ProjectChrysFile,
    /// A repository's `.claude/settings.local.json`.
    ProjectClaudeLocalSettings,
    /// A repository's `.claude/settings.json`.
    ProjectClaudeSettings,
    /// The user's `~/.cursor/hooks.json`.
    UserCursorFile,
    /// The user's Chrys global file, `<config_dir>/hooks/hooks.{yaml,yml,json}`.
    UserChrysFile,
    /// The user's `~/.claude/settings.json`.
    UserClaudeSettings,
}

impl HookSourceKind {
    /// Every kind, in priority order.
    pub const ALL: [HookSourceKind; 12] = [
        HookSourceKind::FactoryAgent,
        HookSourceKind::FactoryWide,
        HookSourceKind::RunDelivered,
        HookSourceKind::ManagedCursorFile,
        HookSourceKind::ManagedClaudeSettings,
        HookSourceKind::ProjectCursorFile,
        HookSourceKind::ProjectChrysFile,
        HookSourceKind::ProjectClaudeLocalSettings,
        HookSourceKind::ProjectClaudeSettings,
        HookSourceKind::UserCursorFile,
        HookSourceKind::UserChrysFile,
        HookSourceKind::UserClaudeSettings,
    ];

    /// Precedence: bindings run in ascending priority, each source's declared order kept.
    ///
    /// Explicit sources first (the seed's FactoryAgent, FactoryWide, RunDelivered), then
    /// managed files, then project files (Chrys runs project hooks before global ones; Cursor
    /// ranks project above user), then the user's own files.
    pub fn priority(self) -> u8 {
        match self {
            HookSourceKind::FactoryAgent => 0,
            HookSourceKind::FactoryWide => 1,
            HookSourceKind::RunDelivered => 2,
            HookSourceKind::ManagedCursorFile => 3,
            HookSourceKind::ManagedClaudeSettings => 4,
            HookSourceKind::ProjectCursorFile => 5,
            HookSourceKind::ProjectChrysFile => 6,
            HookSourceKind::ProjectClaudeLocalSettings => 7,
            HookSourceKind::ProjectClaudeSettings => 8,
            HookSourceKind::UserCursorFile => 9,
            HookSourceKind::UserChrysFile => 10,
            HookSourceKind::UserClaudeSettings => 11,
        }
    }

    /// Who owns sources of this kind.
    pub fn owner(self) -> SourceOwner {
        match self {
            HookSourceKind::FactoryAgent
            | HookSourceKind::FactoryWide
            | HookSourceKind::RunDelivered => SourceOwner::Explicit,
            HookSourceKind::ManagedCursorFile | HookSourceKind::ManagedClaudeSettings => {
                SourceOwner::Managed
            }
            HookSourceKind::ProjectCursorFile
            | HookSourceKind::ProjectChrysFile
            | HookSourceKind::ProjectClaudeLocalSettings
            | HookSourceKind::ProjectClaudeSettings => SourceOwner::Project,
            HookSourceKind::UserCursorFile
            | HookSourceKind::UserChrysFile
            | HookSourceKind::UserClaudeSettings => SourceOwner::User,
        }
    }

    /// Whether sources of this kind are found inside a repository.
    pub fn is_project(self) -> bool {
        self.owner() == SourceOwner::Project
    }

    /// Whether sources of this kind are named explicitly by whoever started the run.
    pub fn is_explicit(self) -> bool {
        self.owner() == SourceOwner::Explicit
    }

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            HookSourceKind::FactoryAgent => "factory_agent",
            HookSourceKind::FactoryWide => "factory_wide",
            HookSourceKind::RunDelivered => "run_delivered",
            HookSourceKind::ManagedCursorFile => "managed_cursor_file",
            HookSourceKind::ManagedClaudeSettings => "managed_claude_settings",
            HookSourceKind::ProjectCursorFile => "project_cursor_file",
            HookSourceKind::ProjectChrysFile => "project_chrys_file",
            HookSourceKind::ProjectClaudeLocalSettings => "project_claude_local_settings",
            HookSourceKind::ProjectClaudeSettings => "project_claude_settings",
            HookSourceKind::UserCursorFile => "user_cursor_file",
            HookSourceKind::UserChrysFile => "user_chrys_file",
            HookSourceKind::UserClaudeSettings => "user_claude_settings",
        }
    }
}

impl fmt::Display for HookSourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The identity of a hook source: its canonical file path and the kind it was loaded as.
///
/// A symlink and its target are one source (the path is canonical); two files with the same
/// text are two. The same file may be loaded under two kinds (delivered with the run and
/// found as a project file); the registry then runs it once, as the explicit kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HookSourceId {
    /// The kind the file was loaded as.
    pub kind: HookSourceKind,
    /// The file's canonical path.
    pub path: AbsPathBuf,
}

impl HookSourceId {
    /// A source id.
    pub fn new(kind: HookSourceKind, path: AbsPathBuf) -> HookSourceId {
        HookSourceId { kind, path }
    }
}

impl fmt::Display for HookSourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path, self.kind)
    }
}

#[cfg(test)]
mod tests;
