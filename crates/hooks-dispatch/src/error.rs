//! Errors of the dispatcher's own IO (the outbox, runtime folders).

use std::path::PathBuf;

/// A failure of the dispatcher's own file operations. Hook failures are never errors: they
/// are outcomes, decoded by the hook's codec.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// A file or folder of the runtime directory could not be read, written or moved.
    #[error("cannot {action} `{}`", path.display())]
    Io {
        /// What was attempted (`write`, `sync`, `read`, `rename`, `create folder`, `remove`).
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// An outbox job file does not hold a valid job.
    #[error("invalid outbox job `{}`", path.display())]
    InvalidJob {
        /// The job file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
    /// Durable delivery needs a runtime directory.
    #[error("no runtime directory is configured for the outbox")]
    NoRuntimeDir,
}

impl DispatchError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        DispatchError::Io { action, path: path.into(), source }
    }
}
