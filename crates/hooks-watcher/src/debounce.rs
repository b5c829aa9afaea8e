//! A trailing-edge debouncer with injectable time: plain logic, no clock, no IO, no threads.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

#[cfg(test)]
mod tests;

/// The default quiet period before a change is acted on.
pub const DEFAULT_DEBOUNCE_WINDOW: Duration = Duration::from_millis(500);

/// The longest window accepted; longer windows are clamped so deadlines never overflow.
pub const MAX_DEBOUNCE_WINDOW: Duration = Duration::from_secs(3600);

/// Collects changes per key (for the watcher, a project root) and releases each key once it
/// has been quiet for the window.
///
/// Contract: **trailing edge, per key.**
/// A key's window starts at its first event and is pushed back by every later event for the
/// same key, so the key becomes ready `window` after its *last* event: a burst of writes, an
/// editor's write-temp-rename-delete-backup dance, or a delete followed by a create is released
/// once, after the dust settles.
/// To keep a file that is rewritten without pause from starving, a key is also released once
/// `max_wait` has passed since its first event (default four windows).
/// Keys are independent: a change under one root never delays another root.
/// Time is whatever `now` the caller passes; a `now` earlier than a previous one is treated as
/// no time having passed.
#[derive(Debug, Clone)]
pub struct Debouncer<K> {
    window: Duration,
    max_wait: Duration,
    pending: BTreeMap<K, Pending>,
}

/// Keys released together by [`Debouncer::drain_ready`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch<K> {
    /// The keys that became ready, in key order, each once.
    pub keys: Vec<K>,
    /// How many events were folded into this batch.
    pub events: usize,
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    first: Instant,
    last: Instant,
    events: usize,
}

impl<K: Ord + Clone> Debouncer<K> {
    /// A debouncer with the given window (clamped to [`MAX_DEBOUNCE_WINDOW`]) and a maximum
    /// wait of four windows.
    pub fn new(window: Duration) -> Debouncer<K> {
        let window = window.min(MAX_DEBOUNCE_WINDOW);
        Debouncer { window, max_wait: window.saturating_mul(4), pending: BTreeMap::new() }
    }

    /// Sets the longest time a key may stay pending after its first event (at least the window).
    #[cfg(test)]
    #[must_use]
    pub fn with_max_wait(mut self, max_wait: Duration) -> Debouncer<K> {
        self.max_wait = max_wait.clamp(self.window, MAX_DEBOUNCE_WINDOW.saturating_mul(4));
        self
    }

    /// The quiet period.
    #[cfg(test)]
    pub fn window(&self) -> Duration {
        self.window
    }

    /// Records one event for `key` at `now`.
    pub fn push(&mut self, key: K, now: Instant) {
        self.pending
            .entry(key)
            .and_modify(|p| {
                p.last = p.last.max(now);
                p.events = p.events.saturating_add(1);
            })
            .or_insert(Pending { first: now, last: now, events: 1 });
    }

    /// Forgets a key's pending events (its root was removed).
    pub fn forget(&mut self, key: &K) {
        self.pending.remove(key);
    }

    /// Whether nothing is pending.
    #[cfg(test)]
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty()
    }

    /// The earliest moment a key becomes ready, if any is pending.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.pending.values().map(|p| self.deadline(p)).min()
    }

    /// Releases every key whose deadline is at or before `now`, or `None` when none is ready.
    pub fn drain_ready(&mut self, now: Instant) -> Option<Batch<K>> {
        let ready: Vec<K> = self
            .pending
            .iter()
            .filter(|(_, p)| self.deadline(p) <= now)
            .map(|(k, _)| k.clone())
            .collect();
        if ready.is_empty() {
            return None;
        }
        let mut events = 0usize;
        for key in &ready {
            if let Some(p) = self.pending.remove(key) {
                events = events.saturating_add(p.events);
            }
        }
        Some(Batch { keys: ready, events })
    }

    fn deadline(&self, p: &Pending) -> Instant {
        // Both additions are bounded by the clamped window, so they only fail on an `Instant`
        // near the end of the platform's range; then the key is due at once.
        let quiet = p.last.checked_add(self.window).unwrap_or(p.last);
        let cap = p.first.checked_add(self.max_wait).unwrap_or(p.first);
        quiet.min(cap)
    }
}
