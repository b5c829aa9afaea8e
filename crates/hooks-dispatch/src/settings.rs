//! Per-format run settings (Chrys's `settings:`), as the dispatcher applies them: how many of a
//! format's hooks run at once in one place, how long a drain waits for them, and how the
//! outbox retries their durable jobs.
//!
//! The registry resolves a format's [`RunSettings`] per place (outside every project, and
//! under each project root) from the sources that run there; the caller hands the result to
//! [`crate::Dispatcher::fire`] in [`crate::FireContext::run_settings`]. The dispatcher knows
//! no format: it looks a binding's settings up by its definition's format and the project
//! root of the firing.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex, Weak},
};

use hooks_schema::{Binding, FormatId, RunSettings};
use tokio::sync::Semaphore;

/// The run settings of each format in each place (`None`: outside every project). A format
/// and place without an entry runs with the dispatcher's own settings.
///
/// ```
/// use hooks_dispatch::RunSettingsTable;
/// use hooks_schema::{FormatId, RunSettings};
///
/// const CHRYS: FormatId = FormatId::new("chrys");
/// let mut table = RunSettingsTable::default();
/// table.set(CHRYS, Some("/repo".into()), RunSettings { max_parallel: Some(1), ..RunSettings::default() });
/// assert_eq!(table.get(CHRYS, Some(std::path::Path::new("/repo"))).max_parallel, Some(1));
/// assert_eq!(table.get(CHRYS, None), RunSettings::default());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSettingsTable {
    entries: Vec<(FormatId, Option<PathBuf>, RunSettings)>,
}

impl RunSettingsTable {
    /// Sets the settings of `format` in the place `root` (replacing what was there). Empty
    /// settings are not stored.
    pub fn set(&mut self, format: FormatId, root: Option<PathBuf>, settings: RunSettings) {
        self.entries.retain(|(f, r, _)| !(*f == format && *r == root));
        if !settings.is_empty() {
            self.entries.push((format, root, settings));
        }
    }

    /// The settings of `format` in the place `root`; empty when none were set.
    pub fn get(&self, format: FormatId, root: Option<&Path>) -> RunSettings {
        self.entries
            .iter()
            .find(|(f, r, _)| *f == format && r.as_deref() == root)
            .map_or_else(RunSettings::default, |(_, _, s)| *s)
    }

    /// Whether no format sets anything anywhere.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The place a binding runs in during a firing: the firing's project root, else the
/// binding's own (a recovered job has no firing).
pub(crate) fn place_of<'a>(
    binding: &'a Binding,
    project_dir: Option<&'a Path>,
) -> Option<&'a Path> {
    project_dir.or(binding.project_root.as_ref().map(|p| p.as_path()))
}

/// What a format's `max_parallel` limits: one semaphore per format, place and limit, shared
/// by every firing (blocking and background runs alike, detached ones excepted), as Chrys
/// shares one semaphore of `max_parallel_hooks` slots between the runs of its manager.
///
/// A limit that changes (the file was edited) gets a semaphore of its own: runs admitted
/// under the old limit finish under it, later ones wait under the new one, as a rebuilt Chrys
/// manager does. A semaphore no run holds is dropped.
#[derive(Debug, Default)]
pub(crate) struct FormatSlots {
    slots: Mutex<HashMap<SlotKey, Weak<Semaphore>>>,
}

/// A format, a place and a limit.
type SlotKey = (FormatId, Option<PathBuf>, u32);

impl FormatSlots {
    /// The semaphore that limits `format` in `place` to `limit` runs at once.
    pub(crate) fn semaphore(
        &self,
        format: FormatId,
        place: Option<&Path>,
        limit: u32,
    ) -> Arc<Semaphore> {
        let mut slots = self.slots.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = (format, place.map(Path::to_path_buf), limit);
        if let Some(s) = slots.get(&key).and_then(Weak::upgrade) {
            return s;
        }
        // Forget the semaphores nobody holds any more, so the map stays as small as the set
        // of limits in use.
        slots.retain(|_, s| s.strong_count() > 0);
        let limit = usize::try_from(limit).unwrap_or(usize::MAX).clamp(1, Semaphore::MAX_PERMITS);
        let s = Arc::new(Semaphore::new(limit));
        slots.insert(key, Arc::downgrade(&s));
        s
    }
}

#[cfg(test)]
mod tests;
