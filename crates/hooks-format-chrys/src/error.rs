//! Why a Chrys hooks file was rejected as a whole.

use std::path::PathBuf;

/// A whole-file rejection. The messages reproduce Chrys 0.32.0's `HooksConfigError` texts
/// (capitalized, as Chrys writes them), so a file fails with the same words under both.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChrysError {
    /// The bytes are not text in an encoding we accept.
    #[error("Cannot decode hooks config file {}: {source}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// What failed, in Python's `UnicodeDecodeError` wording.
        source: crate::DecodeError,
    },
    /// The text is not YAML/JSON, or a YAML value does not construct.
    #[error("Failed to parse {}: {detail}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        detail: String,
    },
    /// Python raised an error of its own while reading the file (the `ValueError` of an
    /// integer longer than Python converts), which Chrys does not turn into a parse error: its
    /// message is Python's alone.
    #[error("{message}")]
    Python {
        /// The file.
        path: PathBuf,
        /// Python's message.
        message: String,
    },
    /// The file exceeds the size cap (ours; Chrys has none).
    #[error("hooks config file {} is {size} bytes, above the {cap} byte cap", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: usize,
        /// The cap.
        cap: usize,
    },
    /// The first schema error, with Chrys's text (`hooks[<i>]: …` for an entry).
    #[error("{message}")]
    Config {
        /// Chrys's message.
        message: String,
        /// The index of the entry it is about.
        entry: Option<usize>,
    },
}
