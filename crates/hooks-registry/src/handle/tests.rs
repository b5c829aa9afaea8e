//! Tests for the reader and the model handle.

use std::{path::Path, sync::mpsc::TryRecvError, time::Duration};

use hooks_schema::{HookSourceKind as K, Revision};
use hooks_trust::CommandExecutionPosture;

use crate::{
    RegistryEvent, RegistryHandle,
    test_support::{active, defs, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-test";

#[test]
fn a_change_that_publishes_emits_snapshot_changed_with_the_new_counters() {
    let handle = RegistryHandle::default();
    let events = handle.subscribe();
    let s = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    let rev = handle.change(|r| r.upsert_source(update(&s, ok(defs(&["a"])), None, active())));
    let snap = handle.snapshot();
    assert_eq!(snap.revision(), rev);
    assert_eq!(
        events.recv_timeout(Duration::from_secs(5)).unwrap(),
        RegistryEvent::SnapshotChanged { generation: snap.generation(), revision: rev }
    );
    // The same definitions again: a new generation, the same revision.
    handle.change(|r| r.upsert_source(update(&s, ok(defs(&["a"])), None, active())));
    let RegistryEvent::SnapshotChanged { generation, revision } =
        events.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(revision, rev);
    assert_eq!(generation, snap.generation().next());
}

#[test]
fn a_change_that_publishes_nothing_emits_nothing() {
    let handle = RegistryHandle::default();
    let events = handle.subscribe();
    let unknown = sid(K::RUN_DELIVERED, format!("{P}/x.json"));
    assert_eq!(handle.change(|r| r.remove_source(&unknown)), Revision::ZERO);
    handle.change(|r| r.pin(CommandExecutionPosture::Unknown));
    assert!(matches!(events.try_recv(), Ok(RegistryEvent::SnapshotChanged { .. })));
    handle.change(|r| r.pin(CommandExecutionPosture::Unknown));
    assert_eq!(events.try_recv(), Err(TryRecvError::Empty));
}

#[test]
fn a_dropped_subscriber_does_not_stop_the_others() {
    let handle = RegistryHandle::default();
    let dropped = handle.subscribe();
    let kept = handle.subscribe();
    drop(dropped);
    let s = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    handle.change(|r| r.upsert_source(update(&s, ok(defs(&["a"])), None, active())));
    handle.change(|r| r.upsert_source(update(&s, ok(defs(&["b"])), None, active())));
    assert!(kept.recv_timeout(Duration::from_secs(5)).is_ok());
    assert!(kept.recv_timeout(Duration::from_secs(5)).is_ok());
}

#[test]
fn readers_on_other_threads_see_each_published_snapshot() {
    let handle = RegistryHandle::default();
    let reader = handle.reader();
    let events = handle.subscribe();
    let writer = handle.clone();
    let t = std::thread::spawn(move || {
        let s = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
        writer.change(|r| r.upsert_source(update(&s, ok(defs(&["a"])), None, active())))
    });
    let event = events.recv_timeout(Duration::from_secs(5)).unwrap();
    let rev = t.join().unwrap();
    assert_eq!(
        event,
        RegistryEvent::SnapshotChanged {
            generation: reader.snapshot().generation(),
            revision: rev
        }
    );
    assert_eq!(names(&reader.snapshot().bindings_for(Path::new(P))), ["a"]);
}

#[test]
fn a_panic_inside_a_change_does_not_wedge_the_handle() {
    let handle = RegistryHandle::default();
    let h = handle.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        h.change(|_| panic!("a caller's bug"));
    }));
    assert!(result.is_err());
    let s = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    let rev = handle.change(|r| r.upsert_source(update(&s, ok(defs(&["a"])), None, active())));
    assert_eq!(rev, Revision::ZERO.next());
}
