//! Errors of the watcher: platform watch failures (diagnostics on a root) and API errors.

use std::{io, path::PathBuf};

use hooks_schema::HookDiagnostic;

/// A platform watch that failed; it becomes a diagnostic on the affected root and the watcher
/// keeps serving the other roots.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WatchError {
    /// The platform's limit on file watches is reached (inotify's `max_user_watches`).
    #[error(
        "too many file watches: the system limit was reached watching `{}`, so changes there are not seen",
        path.display()
    )]
    TooManyWatches {
        /// The directory that could not be watched.
        path: PathBuf,
    },
    /// The directory cannot be read by this process.
    #[error("permission denied watching `{}`", path.display())]
    PermissionDenied {
        /// The directory.
        path: PathBuf,
    },
    /// The directory does not exist (a root deleted while watched, or before it was attached).
    #[error("`{}` does not exist", path.display())]
    NotFound {
        /// The directory.
        path: PathBuf,
    },
    /// Any other platform failure, with the platform's description.
    #[error("cannot watch `{}`: {detail}", path.display())]
    Other {
        /// The directory (or the root it concerns).
        path: PathBuf,
        /// What the platform said.
        detail: String,
    },
}

impl WatchError {
    /// A stable code for diagnostics.
    pub fn code(&self) -> &'static str {
        match self {
            WatchError::TooManyWatches { .. } => "too_many_watches",
            WatchError::PermissionDenied { .. } => "watch_permission_denied",
            WatchError::NotFound { .. } => "watch_path_missing",
            WatchError::Other { .. } => "watch_failed",
        }
    }

    /// The path it is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            WatchError::TooManyWatches { path }
            | WatchError::PermissionDenied { path }
            | WatchError::NotFound { path }
            | WatchError::Other { path, .. } => path,
        }
    }

    /// The error as an error diagnostic.
    pub fn to_diagnostic(&self) -> HookDiagnostic {
        HookDiagnostic::error(self.to_string()).in_file(self.path()).with_code(self.code())
    }

    /// Maps a notify error about `path`.
    pub(crate) fn from_notify(err: &notify::Error, path: PathBuf) -> WatchError {
        match &err.kind {
            notify::ErrorKind::MaxFilesWatch => WatchError::TooManyWatches { path },
            notify::ErrorKind::PathNotFound => WatchError::NotFound { path },
            notify::ErrorKind::Io(io) => WatchError::from_io(io, path),
            other => WatchError::Other { path, detail: describe(other) },
        }
    }

    /// Maps an IO error about `path`.
    pub(crate) fn from_io(err: &io::Error, path: PathBuf) -> WatchError {
        match err.kind() {
            io::ErrorKind::PermissionDenied => WatchError::PermissionDenied { path },
            io::ErrorKind::NotFound => WatchError::NotFound { path },
            _ if err.raw_os_error() == Some(ENOSPC) => WatchError::TooManyWatches { path },
            _ => WatchError::Other { path, detail: err.to_string() },
        }
    }
}

#[cfg(target_os = "linux")]
const ENOSPC: i32 = 28;
#[cfg(not(target_os = "linux"))]
const ENOSPC: i32 = -1;

fn describe(kind: &notify::ErrorKind) -> String {
    match kind {
        notify::ErrorKind::Generic(s) => s.clone(),
        notify::ErrorKind::Io(e) => e.to_string(),
        notify::ErrorKind::PathNotFound => "path not found".to_owned(),
        notify::ErrorKind::WatchNotFound => "watch not found".to_owned(),
        notify::ErrorKind::InvalidConfig(c) => format!("invalid configuration {c:?}"),
        notify::ErrorKind::MaxFilesWatch => "too many file watches".to_owned(),
    }
}

/// Why the watcher could not do what it was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WatcherError {
    /// The platform file watcher could not be created.
    #[error("cannot start the file watcher")]
    Start {
        /// What the platform said.
        #[source]
        source: notify::Error,
    },
    /// The worker thread could not be spawned.
    #[error("cannot spawn the file watcher thread")]
    Thread {
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A project root that cannot be resolved to a canonical directory.
    #[error("project root `{}` cannot be resolved", path.display())]
    Root {
        /// The root as given.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A project root that is not a directory.
    #[error("project root `{}` is not a directory", path.display())]
    NotADirectory {
        /// The root.
        path: PathBuf,
    },
    /// A root that is not being watched.
    #[error("project root `{}` is not watched", path.display())]
    NotWatched {
        /// The root.
        path: PathBuf,
    },
    /// The platform watch for a root failed.
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// A loader ([`HookConfigWatcher::loader`](crate::HookConfigWatcher::loader)) reads the
    /// files of the places it is given once and watches none of them.
    #[error("`{}` is loaded once, not watched (a one-shot loader)", path.display())]
    LoadedOnly {
        /// The place's folder (a root), or empty for the user or managed files.
        path: PathBuf,
    },
    /// The watcher's thread has stopped.
    #[error("the file watcher has shut down")]
    ShutDown,
}
