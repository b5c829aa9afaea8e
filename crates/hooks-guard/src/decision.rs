//! The guard's answer: allowed, or which requested path reaches which protected file of which
//! source, and why.

use std::{fmt, path::PathBuf};

use hooks_schema::{AbsPathBuf, HookSourceId};

use crate::{GuardError, ProtectedRole};

/// How a requested path reaches a protected file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HitReason {
    /// The path resolves to the protected file (through symlinks, `..` detours, or a case
    /// variant on a case-insensitive file system).
    SamePath,
    /// The path is the protected file under another name: same device and inode (a hard
    /// link, or a bind mount).
    SameFile,
    /// The path is a folder that holds the protected file: deleting or renaming it removes
    /// the file.
    HoldingFolder,
    /// The path is inside a folder whose every file is protected (a hook runs a pattern such
    /// as `hooks/*.sh`, or names its script through a part the guard cannot read).
    InsideFolder,
    /// The path ends with the name of a script that a hook runs from a folder that varies
    /// (the session's folder, any project, a directory the command computes): a copy it
    /// may run.
    NamedCopy,
    /// The path is the copy of a script that a hook would run from the session's current
    /// folder.
    SessionCopy,
    /// The path is another form of a Python module a hook imports, in its folder or its
    /// `__pycache__/` (`helper.so`, `helper.cpython-313.pyc`): the import system loads it
    /// before or in place of the module's source.
    ModuleForm,
}

impl HitReason {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            HitReason::SamePath => "same_path",
            HitReason::SameFile => "same_file",
            HitReason::HoldingFolder => "holding_folder",
            HitReason::InsideFolder => "inside_folder",
            HitReason::NamedCopy => "named_copy",
            HitReason::SessionCopy => "session_copy",
            HitReason::ModuleForm => "module_form",
        }
    }
}

/// One requested path that reaches one protected file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedHit {
    /// The path as the agent asked for it.
    pub requested: PathBuf,
    /// Where it resolved.
    pub resolved: AbsPathBuf,
    /// The protected file it reaches.
    pub protected: AbsPathBuf,
    /// The source that makes the file protected.
    pub source: HookSourceId,
    /// Whether the protected file is the source's hook file or a script one of its hooks names.
    pub role: ProtectedRole,
    /// How the path reaches it.
    pub why: HitReason,
}

impl fmt::Display for ProtectedHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.role {
            ProtectedRole::HookFile => "the hook file",
            ProtectedRole::Script => "a script named by the hooks of",
        };
        let requested = self.requested.display();
        let protected = &self.protected;
        match self.why {
            HitReason::SamePath => write!(f, "`{requested}` is `{protected}`")?,
            HitReason::SameFile => {
                write!(f, "`{requested}` is `{protected}` under another name (same inode)")?
            }
            HitReason::HoldingFolder => write!(f, "`{requested}` holds `{protected}`")?,
            HitReason::InsideFolder => {
                write!(f, "`{requested}` is inside `{protected}`, a folder protected as a whole")?
            }
            HitReason::NamedCopy => write!(
                f,
                "`{requested}` is `{protected}`, named like a script a hook runs from a folder that varies"
            )?,
            HitReason::SessionCopy => write!(
                f,
                "`{requested}` is `{protected}`, the copy a hook runs from the session's folder"
            )?,
            HitReason::ModuleForm => write!(
                f,
                "`{requested}` is `{protected}`, a form of a Python module a hook imports, which Python loads before or in place of its source"
            )?,
        }
        write!(f, ", {what} {}; the agent may not edit it", self.source)
    }
}

/// A requested path the guard could not resolve. The edit is not allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct UnresolvedPath {
    /// The path as the agent asked for it.
    pub requested: PathBuf,
    /// Why it could not be resolved.
    pub error: GuardError,
}

/// The guard's answer for one edit (a set of paths).
#[derive(Debug, Clone, PartialEq)]
pub enum GuardDecision {
    /// No path reaches a protected file: the edit may follow the usual approval rules.
    Allowed,
    /// At least one path reaches a protected file: the edit must never be applied without the
    /// user's explicit confirmation. One hit per (path, protected file, source).
    Protected(Vec<ProtectedHit>),
    /// No path reached a protected file, but some could not be resolved: the guard fails
    /// closed and treats the edit like a protected one.
    Unresolved(Vec<UnresolvedPath>),
}

impl GuardDecision {
    /// Whether the edit may go on to the usual approval rules.
    pub fn is_allowed(&self) -> bool {
        matches!(self, GuardDecision::Allowed)
    }

    /// The hits, empty unless protected.
    pub fn hits(&self) -> &[ProtectedHit] {
        match self {
            GuardDecision::Protected(hits) => hits,
            GuardDecision::Allowed | GuardDecision::Unresolved(_) => &[],
        }
    }
}

impl fmt::Display for GuardDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuardDecision::Allowed => f.write_str("allowed"),
            GuardDecision::Protected(hits) => {
                f.write_str("protected: ")?;
                for (i, hit) in hits.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{hit}")?;
                }
                Ok(())
            }
            GuardDecision::Unresolved(paths) => {
                f.write_str("unresolved: ")?;
                for (i, path) in paths.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{}", path.error)?;
                }
                Ok(())
            }
        }
    }
}
