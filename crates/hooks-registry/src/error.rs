//! Errors of the registry crate.

use std::path::PathBuf;

/// A registry operation that could not be carried out.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// A source file could not be canonicalized, so it has no identity.
    #[error("cannot resolve hook source `{}`: {source}", path.display())]
    Canonicalize {
        /// The path as given.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
