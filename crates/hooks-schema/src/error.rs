//! Errors raised when a value does not satisfy a schema invariant.

use std::path::PathBuf;

/// A value that does not satisfy a schema invariant.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// A hook id that is empty, too long or holds a control character.
    #[error("invalid hook id `{id}`: {why}")]
    InvalidHookId {
        /// The offending id (cut to 40 characters when too long).
        id: String,
        /// Why it is invalid.
        why: &'static str,
    },
    /// A path that must be absolute is relative.
    #[error("path `{}` is not absolute", path.display())]
    RelativePath {
        /// The path.
        path: PathBuf,
    },
    /// A path that must be normalized has a `.` or `..` component.
    #[error("path `{}` has a `.` or `..` component", path.display())]
    UnnormalizedPath {
        /// The path.
        path: PathBuf,
    },
    /// An event name that is not a canonical event.
    #[error("unknown canonical event `{name}`")]
    UnknownEvent {
        /// The name.
        name: String,
    },
    /// A timeout that is zero or above the ceiling.
    #[error("timeout of {seconds} s is outside 0 < timeout <= {ceiling} s")]
    TimeoutOutOfRange {
        /// The timeout in seconds.
        seconds: f64,
        /// The ceiling in seconds.
        ceiling: u64,
    },
}
