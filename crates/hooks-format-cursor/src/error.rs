//! The crate's error type: why a whole file is rejected, or why an envelope cannot be
//! encoded for a hook.

/// A whole-file rejection or an encoding failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CursorError {
    /// The file is larger than [`crate::MAX_FILE_BYTES`].
    #[error("file is {size} bytes, above the {cap} byte cap for hook files")]
    TooLarge {
        /// The file's size.
        size: usize,
        /// The cap.
        cap: usize,
    },
    /// The file starts with a UTF-16 byte order mark.
    #[error("file is UTF-16 encoded; save it as UTF-8")]
    Utf16,
    /// The file is not UTF-8.
    #[error("file is not valid UTF-8 (invalid byte at offset {offset})")]
    InvalidUtf8 {
        /// The offset of the first invalid byte.
        offset: usize,
    },
    /// The file is not JSON.
    #[error("invalid JSON: {message}")]
    Syntax {
        /// serde_json's message, without its position suffix.
        message: String,
    },
    /// The top level is not an object.
    #[error("the top level must be an object, found {found}")]
    NotAnObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// `version` is not 1.
    #[error("unsupported version {found}: Cursor reads version 1 only")]
    UnsupportedVersion {
        /// The version as written.
        found: String,
    },
    /// `hooks` is not an object.
    #[error("`hooks` must be an object mapping event names to arrays, found {found}")]
    HooksNotAnObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// The envelope lacks what the native event needs.
    #[error("cannot encode {event} for hook {hook}: {why}")]
    Encode {
        /// The hook id.
        hook: String,
        /// The native event.
        event: String,
        /// What is missing.
        why: String,
    },
}
