//! The directories one watched place holds watches on: a sorted list sized to what it holds
//! (a root holds two or three), where a B-tree set would spend a whole node per place.

use std::path::{Path, PathBuf};

#[cfg(test)]
mod tests;

/// A set of directories, in path order, each once; its storage grows one slot at a time.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct DirSet(Vec<PathBuf>);

impl DirSet {
    /// Adds `dir`; `false` when it is there already.
    pub(crate) fn insert(&mut self, dir: PathBuf) -> bool {
        match self.0.binary_search(&dir) {
            Ok(_) => false,
            Err(i) => {
                self.0.reserve_exact(1);
                self.0.insert(i, dir);
                true
            }
        }
    }

    /// Removes `dir`; `false` when it was not there.
    pub(crate) fn remove(&mut self, dir: &Path) -> bool {
        match self.0.binary_search_by(|d| d.as_path().cmp(dir)) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    pub(crate) fn contains(&self, dir: &Path) -> bool {
        self.0.binary_search_by(|d| d.as_path().cmp(dir)).is_ok()
    }

    /// The directories, in path order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, PathBuf> {
        self.0.iter()
    }
}

impl IntoIterator for DirSet {
    type Item = PathBuf;
    type IntoIter = std::vec::IntoIter<PathBuf>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a DirSet {
    type Item = &'a PathBuf;
    type IntoIter = std::slice::Iter<'a, PathBuf>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
