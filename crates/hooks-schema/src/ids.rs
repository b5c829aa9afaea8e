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
///
/// The path is shared: a clone (every binding a snapshot hands out carries three) counts a
/// reference instead of copying the path.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsPathBuf(Arc<Path>);

impl AbsPathBuf {
    /// Checks that `path` is absolute and has no `.` or `..` component.
    pub fn new(path: PathBuf) -> Result<AbsPathBuf, SchemaError> {
        if !path.is_absolute() {
            return Err(SchemaError::RelativePath { path });
        }
        if has_dot_component(&path) {
            return Err(SchemaError::UnnormalizedPath { path });
        }
        Ok(AbsPathBuf(Arc::from(path)))
    }

    /// The path.
    pub fn as_path(&self) -> &Path {
        &self.0
    }

    /// The path, owned.
    pub fn into_path_buf(self) -> PathBuf {
        self.0.to_path_buf()
    }

    /// The parent folder, if any.
    pub fn parent(&self) -> Option<AbsPathBuf> {
        self.0.parent().map(|p| AbsPathBuf(Arc::from(p)))
    }

    /// Appends a relative path made only of normal components.
    pub fn join(&self, rel: &Path) -> Result<AbsPathBuf, SchemaError> {
        AbsPathBuf::new(self.0.join(rel))
    }
}

/// Whether an absolute `path` has a `.` or `..` component. On Unix, where a path's components
/// of an absolute path are its bytes between `/` separators and `.` is never one of them,
/// that is a `..` between separators: one scan of the bytes, not a parse of the components
/// (every canonical path the engine makes comes through here).
fn has_dot_component(path: &Path) -> bool {
    if cfg!(unix) {
        path.as_os_str().as_encoded_bytes().split(|b| *b == b'/').any(|part| part == b"..")
    } else {
        path.components().any(|c| matches!(c, Component::CurDir | Component::ParentDir))
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

impl Serialize for AbsPathBuf {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for AbsPathBuf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        AbsPathBuf::new(PathBuf::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Who owns a source, which is what the trust policy decides on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceOwner {
    /// Named by whoever started the run (factory definitions, `WARP_HOOK_DIRS`, run config).
    Explicit,
    /// Installed by an administrator (managed settings, enterprise files).
    Managed,
    /// Files found inside a repository, which anyone who can push to it controls.
    Project,
    /// The user's own files in their home or config directory.
    User,
}

impl SourceOwner {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceOwner::Explicit => "explicit",
            SourceOwner::Managed => "managed",
            SourceOwner::Project => "project",
            SourceOwner::User => "user",
        }
    }
}

/// Who named an explicit source; the three scopes run in this order, before every file
/// found on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExplicitScope {
    /// Hooks defined by the agent factory for one agent.
    FactoryAgent,
    /// Hooks defined by the agent factory for every agent.
    FactoryWide,
    /// Hook files delivered with the run (`WARP_HOOK_DIRS`, run configuration).
    RunDelivered,
}

/// Where a format keeps a file: in the administrator's folders, inside a repository, or in
/// the user's own folders. Files found this way run after every explicit source, managed
/// first, then project, then user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileScope {
    /// Installed by an administrator (managed settings, enterprise and system files).
    Managed,
    /// Found under a project root.
    Project,
    /// The user's own configuration folder.
    User,
}

impl FileScope {
    /// Who owns files of this scope.
    pub fn owner(self) -> SourceOwner {
        match self {
            FileScope::Managed => SourceOwner::Managed,
            FileScope::Project => SourceOwner::Project,
            FileScope::User => SourceOwner::User,
        }
    }

    /// The snake_case name (`managed`, `project`, `user`).
    pub fn as_str(self) -> &'static str {
        self.owner().as_str()
    }
}

/// Where a source comes from: an explicit scope, or the scope a format's file was found in.
/// The scope orders sources: the three explicit scopes, then managed, project and user files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceScope {
    /// Named explicitly by whoever started the run.
    Explicit(ExplicitScope),
    /// Found on disk where a format keeps its files.
    File(FileScope),
}

impl SourceScope {
    /// Who owns sources of this scope.
    pub fn owner(self) -> SourceOwner {
        match self {
            SourceScope::Explicit(_) => SourceOwner::Explicit,
            SourceScope::File(s) => s.owner(),
        }
    }

    fn index(self) -> u32 {
        match self {
            SourceScope::Explicit(ExplicitScope::FactoryAgent) => 0,
            SourceScope::Explicit(ExplicitScope::FactoryWide) => 1,
            SourceScope::Explicit(ExplicitScope::RunDelivered) => 2,
            SourceScope::File(FileScope::Managed) => 3,
            SourceScope::File(FileScope::Project) => 4,
            SourceScope::File(FileScope::User) => 5,
        }
    }
}

/// One kind of file a format reads (Cursor's `hooks.json`, Claude Code's
/// `settings.local.json`), declared by the format's descriptor.
///
/// `name` is the role's snake_case name without the scope (`cursor_file`,
/// `claude_local_settings`); a source's kind name prefixes it with the scope
/// (`project_cursor_file`). `rank` orders the roles of one scope: sources of a lower rank run
/// first. The workspace's formats use 100 (Cursor), 200 (Chrys) and 300/310 (Claude Code's
/// local and shared settings); a new format picks a free rank (`specs/formats.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileRole {
    format: FormatId,
    name: &'static str,
    rank: u16,
}

impl FileRole {
    /// A role of `format` named `name` (snake_case) with precedence `rank`.
    ///
    /// # Panics
    /// In a `const` context, compilation fails when `name` is empty or holds anything but
    /// lowercase ASCII letters, digits and `_`.
    pub const fn new(format: FormatId, name: &'static str, rank: u16) -> FileRole {
        assert!(valid_name(name, b'_'), "a role name is snake_case ASCII");
        FileRole { format, name, rank }
    }

    /// The format whose files these are.
    pub fn format(self) -> FormatId {
        self.format
    }

    /// The role's name without the scope (`cursor_file`).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Its precedence among the roles of one scope (lower runs first).
    pub fn rank(self) -> u16 {
        self.rank
    }
}

/// The identity of a hook format: a short lowercase name (`cursor`, `chrys`, `claude`).
///
/// Formats are data: each adapter declares its id as a constant and registers a
/// [`FormatDescriptor`](crate::FormatDescriptor); nothing in the engine's core matches on it.
/// Two ids are equal when their names are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId(&'static str);

impl FormatId {
    /// The id named `name`: 1 to 32 lowercase ASCII letters, digits, `_` or `-`.
    ///
    /// # Panics
    /// In a `const` context, compilation fails when `name` breaks that rule.
    pub const fn new(name: &'static str) -> FormatId {
        assert!(
            valid_name(name, b'-'),
            "a format id is 1 to 32 lowercase ASCII letters, digits, `_` or `-`"
        );
        FormatId(name)
    }

    /// The name.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Debug for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for FormatId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// Whether `name` is 1 to 32 bytes of lowercase ASCII letters, digits, `_` and `extra`.
const fn valid_name(name: &str, extra: u8) -> bool {
    let b = name.as_bytes();
    if b.is_empty() || b.len() > 32 {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == extra) {
            return false;
        }
        i += 1;
    }
    true
}

/// The kind of a hook source: the scope it came from and, for a file found on disk, the
/// format's [`FileRole`]. Its precedence comes from the scope and the role's rank; its name
/// from both (`project_cursor_file`, `managed_claude_settings`, `run_delivered`).
///
/// Kinds are data declared by the formats' descriptors, not a closed list: a new format adds
/// its own roles without touching this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HookSourceKind {
    scope: SourceScope,
    role: Option<FileRole>,
    format: Option<FormatId>,
}

impl HookSourceKind {
    /// A file of `role` found in `scope`.
    pub const fn file(scope: FileScope, role: FileRole) -> HookSourceKind {
        HookSourceKind {
            scope: SourceScope::File(scope),
            role: Some(role),
            format: Some(role.format),
        }
    }

    /// An explicit source named under `scope`, in `format` when it is known.
    pub const fn explicit(scope: ExplicitScope, format: Option<FormatId>) -> HookSourceKind {
        HookSourceKind { scope: SourceScope::Explicit(scope), role: None, format }
    }

    /// Hooks defined by the agent factory for one agent.
    pub const FACTORY_AGENT: HookSourceKind =
        HookSourceKind::explicit(ExplicitScope::FactoryAgent, None);
    /// Hooks defined by the agent factory for every agent.
    pub const FACTORY_WIDE: HookSourceKind =
        HookSourceKind::explicit(ExplicitScope::FactoryWide, None);
    /// Hook files delivered with the run (`WARP_HOOK_DIRS`, run configuration).
    pub const RUN_DELIVERED: HookSourceKind =
        HookSourceKind::explicit(ExplicitScope::RunDelivered, None);

    /// The same kind in `format` (explicit kinds only; a file kind keeps its role's format).
    #[must_use]
    pub const fn in_format(self, format: FormatId) -> HookSourceKind {
        match self.role {
            Some(_) => self,
            None => HookSourceKind { format: Some(format), ..self },
        }
    }

    /// Where the source came from.
    pub fn scope(self) -> SourceScope {
        self.scope
    }

    /// The file role, for a file found on disk.
    pub fn role(self) -> Option<FileRole> {
        self.role
    }

    /// The format the source is read in, when known.
    pub fn format(self) -> Option<FormatId> {
        self.format
    }

    /// Precedence: bindings run in ascending priority, each source's declared order kept.
    ///
    /// Explicit sources first (the seed's FactoryAgent, FactoryWide, RunDelivered), then
    /// managed files, then project files, then the user's own files; within one scope, by
    /// the role's rank (Chrys runs project hooks before global ones because project files
    /// rank above user files; Cursor ranks project above user likewise).
    pub fn priority(self) -> u32 {
        (self.scope.index() << 16) | u32::from(self.role.map_or(0, FileRole::rank))
    }

    /// Who owns sources of this kind.
    pub fn owner(self) -> SourceOwner {
        self.scope.owner()
    }

    /// Whether sources of this kind are found inside a repository.
    pub fn is_project(self) -> bool {
        self.owner() == SourceOwner::Project
    }

    /// Whether sources of this kind are named explicitly by whoever started the run.
    pub fn is_explicit(self) -> bool {
        self.owner() == SourceOwner::Explicit
    }

    /// The snake_case name: the explicit scope's (`run_delivered`), or the file scope's
    /// followed by the role's (`project_cursor_file`).
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl PartialOrd for HookSourceKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for HookSourceKind {
    /// Precedence first, then the names, so equal kinds compare equal and no two differ.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |k: &HookSourceKind| (k.priority(), k.role.map(|r| (r.format, r.name)), k.format);
        key(self).cmp(&key(other))
    }
}

impl fmt::Display for HookSourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.scope, self.role) {
            (SourceScope::Explicit(ExplicitScope::FactoryAgent), _) => f.write_str("factory_agent"),
            (SourceScope::Explicit(ExplicitScope::FactoryWide), _) => f.write_str("factory_wide"),
            (SourceScope::Explicit(ExplicitScope::RunDelivered), _) => f.write_str("run_delivered"),
            (SourceScope::File(scope), Some(role)) => write!(f, "{}_{}", scope.as_str(), role.name),
            (SourceScope::File(scope), None) => f.write_str(scope.as_str()),
        }
    }
}

impl Serialize for HookSourceKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The identity of a hook source: its canonical file path and the kind it was loaded as.
///
/// A symlink and its target are one source (the path is canonical); two files with the same
/// text are two. The same file may be loaded under two kinds (delivered with the run and
/// found as a project file); the registry then runs it once, as the explicit kind.
///
/// It serializes as `{"kind": "<kind name>", "path": "<path>"}`; a record read back from
/// disk compares by that name ([`HookSourceId::key`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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

    /// The source as a persistable key: its kind's name and its path.
    pub fn key(&self) -> SourceKey {
        SourceKey { kind: self.kind.name(), path: self.path.clone() }
    }
}

/// A source identity as it is stored on disk (the durable outbox): the kind by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceKey {
    /// The kind's name (`project_chrys_file`).
    pub kind: String,
    /// The file's canonical path.
    pub path: AbsPathBuf,
}

impl fmt::Display for SourceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path, self.kind)
    }
}

impl SourceKey {
    /// Whether this key names `id`.
    pub fn names(&self, id: &HookSourceId) -> bool {
        self.path == id.path && self.kind == id.kind.name()
    }
}

impl fmt::Display for HookSourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path, self.kind)
    }
}

#[cfg(test)]
mod tests;
