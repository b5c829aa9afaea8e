//! Shared access: a cloneable reader of published snapshots, and the model handle through
//! which the watcher and the app apply changes and learn of new snapshots.

use std::sync::{
    Arc, Mutex, MutexGuard,
    mpsc::{Receiver, Sender, channel},
};

use arc_swap::ArcSwap;
use hooks_schema::{Generation, Revision};

use crate::{registry::HookRegistry, snapshot::RegistrySnapshot};

/// A cheap, cloneable reader: one atomic load and one reference-count increment per call,
/// never blocked by the writer.
#[derive(Clone)]
pub struct RegistryReader {
    current: Arc<ArcSwap<RegistrySnapshot>>,
}

impl RegistryReader {
    pub(crate) fn new(current: Arc<ArcSwap<RegistrySnapshot>>) -> RegistryReader {
        RegistryReader { current }
    }

    /// The snapshot last published.
    pub fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.current.load_full()
    }
}

impl std::fmt::Debug for RegistryReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.current.load();
        f.debug_struct("RegistryReader")
            .field("revision", &s.revision())
            .field("generation", &s.generation())
            .finish()
    }
}

/// What observers of a [`RegistryHandle`] are told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryEvent {
    /// A change published a new snapshot (the generation moved).
    SnapshotChanged {
        /// The new snapshot's generation.
        generation: Generation,
        /// The new snapshot's revision (it may equal the previous one).
        revision: Revision,
    },
}

struct Shared {
    registry: Mutex<HookRegistry>,
    subscribers: Mutex<Vec<Sender<RegistryEvent>>>,
    reader: RegistryReader,
}

/// The model handle: shared single-writer access to a [`HookRegistry`].
///
/// [`RegistryHandle::change`] runs a closure on the registry under an internal lock (held
/// only for the closure, never across an await, since the closure is synchronous) and sends
/// [`RegistryEvent::SnapshotChanged`] to every subscriber when the generation moved.
#[derive(Clone)]
pub struct RegistryHandle {
    shared: Arc<Shared>,
}

impl Default for RegistryHandle {
    fn default() -> Self {
        RegistryHandle::new(HookRegistry::new())
    }
}

impl std::fmt::Debug for RegistryHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryHandle").field("reader", &self.shared.reader).finish()
    }
}

impl RegistryHandle {
    /// Wraps a registry.
    pub fn new(registry: HookRegistry) -> RegistryHandle {
        let reader = registry.reader();
        RegistryHandle {
            shared: Arc::new(Shared {
                registry: Mutex::new(registry),
                subscribers: Mutex::new(Vec::new()),
                reader,
            }),
        }
    }

    /// Applies a change and notifies subscribers when it published a snapshot: one
    /// [`RegistryEvent::SnapshotChanged`] per call, carrying the counters after the call.
    ///
    /// Each registry operation in `f` publishes its own snapshot; wrap them in
    /// [`HookRegistry::batch`] to publish once. If `f` panics, subscribers still hear of
    /// what it published before the panic (a batch publishes as it unwinds), and the lock is
    /// recovered by the next caller.
    pub fn change<R>(&self, f: impl FnOnce(&mut HookRegistry) -> R) -> R {
        /// Tells subscribers when the generation moved, however the closure leaves.
        struct Notify<'a> {
            registry: MutexGuard<'a, HookRegistry>,
            before: Generation,
            subscribers: &'a Mutex<Vec<Sender<RegistryEvent>>>,
        }
        impl Drop for Notify<'_> {
            fn drop(&mut self) {
                let (generation, revision) = (self.registry.generation(), self.registry.revision());
                if generation != self.before {
                    // Sent under the registry lock (released after this) so events arrive
                    // in generation order.
                    let event = RegistryEvent::SnapshotChanged { generation, revision };
                    lock(self.subscribers).retain(|tx| tx.send(event).is_ok());
                }
            }
        }
        let registry = lock(&self.shared.registry);
        let before = registry.generation();
        let mut notify = Notify { registry, before, subscribers: &self.shared.subscribers };
        f(&mut notify.registry)
    }

    /// A reader of the published snapshots.
    pub fn reader(&self) -> RegistryReader {
        self.shared.reader.clone()
    }

    /// The snapshot last published.
    pub fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.shared.reader.snapshot()
    }

    /// A channel that receives one event per published snapshot from now on. Dropping the
    /// receiver unsubscribes.
    pub fn subscribe(&self) -> Receiver<RegistryEvent> {
        let (tx, rx) = channel();
        lock(&self.shared.subscribers).push(tx);
        rx
    }
}

/// Locks, recovering the data from a poisoned lock: every registry operation leaves the
/// state consistent before it can panic, and a panic in a caller's closure must not wedge
/// the process.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests;
