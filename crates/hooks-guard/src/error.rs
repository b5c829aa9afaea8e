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
    /// The path holds a NUL byte: no file has that name, and a C string would end there.
    #[error("cannot resolve `{}`: the path contains a NUL byte", path.display())]
    NulByte {
        /// The requested path.
        path: PathBuf,
    },
    /// The path names something relative to the process that opens it (`/proc/self`,
    /// `/proc/thread-self`, `/dev/fd`, `/dev/stdin`, …), directly or through a symlink, which
    /// the guard cannot read for the agent's process.
    #[error(
        "cannot resolve `{}`: `{}` is relative to the process that opens it (/proc/self, /dev/fd), which is not the guard's",
        path.display(),
        via.display()
    )]
    ProcessRelative {
        /// The requested path.
        path: PathBuf,
        /// The path or the symlink on it that names the process.
        via: PathBuf,
    },
    /// The path starts with `~` and the user's home is not known, or it names another user's
    /// home (`~user/…`).
    #[error("cannot resolve `{}`: `~` cannot be expanded here", path.display())]
    HomeRelative {
        /// The requested path.
        path: PathBuf,
    },
    /// The snapshot the set was built from holds no protection of the hooks' files (its
    /// registry computed none, `HookRegistry::set_protection`): the guard cannot decide, and
    /// refuses.
    #[error(
        "cannot decide `{}`: the engine did not compute which files its hooks run and read",
        path.display()
    )]
    ProtectionNotComputed {
        /// The requested path.
        path: PathBuf,
    },
    /// A `file:` URL the guard does not read: another host than `localhost`, a query or a
    /// fragment, a relative form, or a malformed escape.
    #[error("cannot resolve `{}`: not a local `file:` URL the guard can read", path.display())]
    UnsupportedUrl {
        /// The requested path.
        path: PathBuf,
    },
}
