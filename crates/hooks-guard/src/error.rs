//! Errors of the guard: a requested path that cannot be resolved to an absolute path.

use std::path::PathBuf;

use hooks_schema::SchemaError;

/// Why a requested path could not be resolved. The guard fails closed on it: an edit with an
/// unresolved path is never allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GuardError {
    /// A relative path was requested and the session's working directory is relative too.
    #[error(
        "cannot resolve `{}`: the session working directory `{}` is not absolute",
        path.display(),
        cwd.display()
    )]
    RelativeSessionCwd {
        /// The requested path.
        path: PathBuf,
        /// The session's working directory as given.
        cwd: PathBuf,
    },
    /// The joined and normalized path is still not a valid absolute path.
    #[error("cannot resolve `{}`: {source}", path.display())]
    InvalidPath {
        /// The path after joining and normalizing.
        path: PathBuf,
        /// Why it is not a valid absolute path.
        source: SchemaError,
    },
}
