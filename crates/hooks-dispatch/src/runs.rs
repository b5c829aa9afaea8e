//! The run cgroups a tree keeps between hooks, in cgroup v2 and in each v1 hierarchy alike:
//! empty ones pooled for the next hook, and ones that were killed or kept members retired
//! until they empty and their folders can be removed.

use std::{
    fs,
    path::Path,
    sync::{Mutex, PoisonError},
};

/// A run cgroup as its tree's pool sees it.
pub(crate) trait RunDir {
    /// Its folder.
    fn dir(&self) -> &Path;
    /// Whether a process still counts in it (anything unreadable counts as one).
    fn populated(&self) -> bool;
}

/// A tree's pooled and retired runs.
#[derive(Debug)]
pub(crate) struct Runs<R> {
    pool: Mutex<Vec<R>>,
    retired: Mutex<Vec<R>>,
}

impl<R> Default for Runs<R> {
    fn default() -> Runs<R> {
        Runs { pool: Mutex::default(), retired: Mutex::default() }
    }
}

// Used by the cgroup code, which is Linux's alone.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
impl<R: RunDir> Runs<R> {
    /// An empty run from the pool, after the retired runs that emptied are removed.
    pub(crate) fn pooled(&self) -> Option<R> {
        self.collect_retired();
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).pop()
    }

    /// A run a hook has finished with: back to the pool when `reusable` (empty, never killed),
    /// else retired.
    pub(crate) fn give_back(&self, run: R, reusable: bool) {
        if reusable { self.pool(run) } else { self.retire(run) }
    }

    /// Back to the pool: it is empty and may be used again.
    pub(crate) fn pool(&self, run: R) {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).push(run);
    }

    /// Set aside until it empties; then its folder is removed.
    pub(crate) fn retire(&self, run: R) {
        self.retired.lock().unwrap_or_else(PoisonError::into_inner).push(run);
    }

    /// Removes the retired runs that have emptied (a folder the kernel refuses to remove
    /// stays retired).
    fn collect_retired(&self) {
        let mut r = self.retired.lock().unwrap_or_else(PoisonError::into_inner);
        if r.is_empty() {
            return;
        }
        r.retain(|run| run.populated() || fs::remove_dir(run.dir()).is_err());
    }

    /// Forgets every run, pooled and retired (their files close; the folders stay).
    pub(crate) fn clear(&self) {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.retired.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    /// Takes the pooled runs out, the retired ones left as they are.
    pub(crate) fn drain_pool(&self) -> Vec<R> {
        std::mem::take(&mut *self.pool.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// How many runs are retired.
    #[cfg(test)]
    pub(crate) fn retired_len(&self) -> usize {
        self.retired.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}
