//! The bridge from the registry's snapshot to the guard's protected entries.

use hooks_registry::{ProtectedKind, ProtectedPath, RegistrySnapshot};

use crate::{ProtectedEntry, ProtectedRole};

/// The protected entries of `snapshot`: every hook file and script it lists.
pub(crate) fn entries_of(snapshot: &RegistrySnapshot) -> impl Iterator<Item = ProtectedEntry> + '_ {
    snapshot.protected_paths().iter().map(ProtectedEntry::from)
}

impl From<&ProtectedPath> for ProtectedEntry {
    fn from(protected: &ProtectedPath) -> ProtectedEntry {
        ProtectedEntry {
            path: protected.path.clone(),
            source: protected.source.clone(),
            role: match protected.what {
                ProtectedKind::File => ProtectedRole::HookFile,
                ProtectedKind::Script => ProtectedRole::Script,
            },
        }
    }
}

#[cfg(test)]
mod tests;
