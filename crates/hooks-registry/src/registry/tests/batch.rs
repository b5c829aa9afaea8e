//! Tests for `HookRegistry::batch`: several operations, one published snapshot.

use std::{
    collections::BTreeSet,
    panic::{AssertUnwindSafe, catch_unwind},
    path::Path,
    sync::{
        Arc, Barrier,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use hooks_schema::{AbsPathBuf, HookSourceId, Revision};
use hooks_trust::CommandExecutionPosture;

use crate::{
    HookRegistry, RegistryEvent, RegistryHandle, RegistrySnapshot,
    test_support::{abs, active, defs, inert, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-batch-test";

fn p(rel: &str) -> String {
    format!("{P}/{rel}")
}

/// The names bound in `dir`, sorted (two project files of one root have no order to test).
fn bound(snap: &RegistrySnapshot, dir: &Path) -> Vec<String> {
    let mut n = names(&snap.bindings_for_canonical(dir));
    n.sort();
    n
}

/// A root `outer/inner{i}` with a Cursor and a Claude Code file, as a watcher's load has it.
struct Inner {
    root: AbsPathBuf,
    cursor: HookSourceId,
    claude: HookSourceId,
    expected: Vec<String>,
}

fn inner(i: usize) -> Inner {
    let root = abs(p(&format!("outer/inner{i}")));
    let cursor = sid(
        hooks_testing::kinds::PROJECT_CURSOR_FILE,
        p(&format!("outer/inner{i}/.cursor/hooks.json")),
    );
    let claude = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        p(&format!("outer/inner{i}/.claude/settings.json")),
    );
    let mut expected = vec![format!("c{i}"), format!("k{i}")];
    expected.sort();
    Inner { root, cursor, claude, expected }
}

/// An outer project with one hook, published before any batch.
fn with_outer() -> (HookRegistry, AbsPathBuf) {
    let mut r = HookRegistry::new();
    let outer = abs(p("outer"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/.cursor/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["outer"])), Some(&outer), active()));
    (r, outer)
}

/// A root announced, its two files loaded and its found paths recorded, as one batch.
fn add_inner(r: &mut HookRegistry, x: &Inner, i: usize) {
    r.batch(|r| {
        r.add_project_root(x.root.clone());
        r.upsert_source(update(&x.cursor, ok(defs(&[&format!("c{i}")])), Some(&x.root), active()));
        r.upsert_source(update(&x.claude, ok(defs(&[&format!("k{i}")])), Some(&x.root), active()));
        let link = abs(p(&format!("outer/inner{i}/.cursor/hooks.link")));
        r.set_found_paths(&x.cursor, Some(&x.root), vec![link]);
    });
}

#[test]
fn a_batch_of_several_operations_publishes_one_generation_and_readers_see_the_old_snapshot_until_it_ends()
 {
    let (mut r, _) = with_outer();
    let reader = r.reader();
    let before = reader.snapshot();
    let (g0, rev0) = (r.generation(), r.revision());
    let x = inner(0);
    let link = abs(p("outer/inner0/.cursor/hooks.link"));
    let returned = r.batch(|r| {
        // Each step applies to the state at once; the published snapshot stays as it was.
        let steps = [
            r.add_project_root(x.root.clone()),
            r.upsert_source(update(&x.cursor, ok(defs(&["c0"])), Some(&x.root), inert())),
            r.upsert_source(update(&x.claude, ok(defs(&["k0"])), Some(&x.root), active())),
            r.set_found_paths(&x.cursor, Some(&x.root), vec![link.clone()]),
            // A later step sees an earlier one: the Cursor source is known, so this counts.
            r.set_trust(&x.cursor, active()),
        ];
        for (n, rev) in steps.iter().enumerate() {
            assert_eq!(*rev, rev0, "step {n} returns the last published revision");
        }
        assert_eq!((r.generation(), r.revision()), (g0, rev0));
        let snap = reader.snapshot();
        assert!(Arc::ptr_eq(&snap, &before), "nothing is published inside the batch");
        assert_eq!(bound(&snap, x.root.as_path()), ["outer"]);
        "done"
    });
    assert_eq!(returned, "done");
    let snap = reader.snapshot();
    assert_eq!(snap.generation(), g0.next(), "five operations, one generation");
    assert_eq!(snap.revision(), rev0.next());
    assert_eq!((r.generation(), r.revision()), (g0.next(), rev0.next()));
    assert_eq!(bound(&snap, x.root.as_path()), x.expected);
    assert!(snap.project_roots().contains(&x.root));
    assert!(snap.protected_paths().contains(link.as_path()));
}

#[test]
fn a_batch_that_changes_nothing_publishes_nothing_and_nested_batches_publish_once() {
    let (mut r, outer) = with_outer();
    r.add_project_root(outer.clone());
    let g0 = r.generation();
    r.batch(|_| {});
    r.batch(|r| {
        // An announced root, an unknown source: nothing to publish.
        r.add_project_root(outer.clone());
        r.remove_source(&sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("nowhere/hooks.json")));
    });
    assert_eq!(r.generation(), g0);
    let (x, y) = (inner(1), inner(2));
    r.batch(|r| {
        add_inner(r, &x, 1);
        assert_eq!(r.generation(), g0, "an inner batch does not publish");
        add_inner(r, &y, 2);
    });
    assert_eq!(r.generation(), g0.next());
    let snap = r.snapshot();
    assert_eq!(bound(&snap, x.root.as_path()), x.expected);
    assert_eq!(bound(&snap, y.root.as_path()), y.expected);
    // Outside a batch every operation publishes again.
    r.remove_project_root(&x.root);
    assert_eq!(r.generation(), g0.next().next());
}

/// A reader thread loads snapshots in a loop while batches each add a nested root and its
/// two hook files. Every snapshot it loaded is checked: a root it lists has both files'
/// bindings, and a directory under a root not added yet still finds the enclosing project.
#[test]
fn a_reader_never_sees_a_root_without_its_bindings() {
    const ROOTS: usize = 150;
    let (mut r, outer) = with_outer();
    let reader = r.reader();
    let g0 = r.generation().get();
    let last = g0 + ROOTS as u64;
    let inners: Arc<Vec<Inner>> = Arc::new((0..ROOTS).map(inner).collect());
    let start = Arc::new(Barrier::new(2));
    let checked = Arc::new(AtomicU64::new(0));
    let t = {
        let (inners, start, checked) = (inners.clone(), start.clone(), checked.clone());
        std::thread::spawn(move || {
            start.wait();
            let mut previous: Option<Arc<RegistrySnapshot>> = None;
            let mut generations = BTreeSet::new();
            loop {
                let snap = reader.snapshot();
                if previous.as_ref().is_some_and(|s| Arc::ptr_eq(s, &snap)) {
                    continue;
                }
                let added = (snap.generation().get() - g0) as usize;
                for (i, x) in inners.iter().enumerate() {
                    let listed = snap.project_roots().contains(&x.root);
                    assert_eq!(listed, i < added, "generation {}: root {i}", snap.generation());
                    let want = if listed { x.expected.clone() } else { vec!["outer".to_owned()] };
                    assert_eq!(bound(&snap, x.root.as_path()), want, "root {i}");
                }
                checked.fetch_add(1, Ordering::Relaxed);
                generations.insert(snap.generation().get());
                if snap.generation().get() == last {
                    return generations;
                }
                previous = Some(snap);
            }
        })
    };
    start.wait();
    for (i, x) in inners.iter().enumerate() {
        add_inner(&mut r, x, i);
    }
    assert_eq!(r.generation().get(), last, "one generation per added root");
    let generations = t.join().expect("the reader found no intermediate state");
    assert!(generations.iter().all(|g| (g0..=last).contains(g)));
    assert!(checked.load(Ordering::Relaxed) >= 1);
    assert!(r.snapshot().project_roots().contains(&outer));
}

#[test]
fn a_panic_inside_a_batch_publishes_what_was_applied_once_and_leaves_the_registry_usable() {
    let (mut r, _) = with_outer();
    let reader = r.reader();
    let g0 = r.generation();
    let x = inner(3);
    let result = catch_unwind(AssertUnwindSafe(|| {
        r.batch(|r| {
            r.add_project_root(x.root.clone());
            r.upsert_source(update(&x.cursor, ok(defs(&["c3"])), Some(&x.root), active()));
            panic!("a caller's bug inside a batch");
        })
    }));
    assert!(result.is_err());
    let snap = reader.snapshot();
    assert_eq!(snap.generation(), g0.next(), "the applied operations are published, once");
    assert_eq!(bound(&snap, x.root.as_path()), ["c3"]);
    assert_eq!(r.generation(), g0.next());
    // Not stuck deferring: the next operation publishes at once.
    r.upsert_source(update(&x.claude, ok(defs(&["k3"])), Some(&x.root), active()));
    assert_eq!(reader.snapshot().generation(), g0.next().next());
    assert_eq!(bound(&reader.snapshot(), x.root.as_path()), x.expected);
}

#[test]
fn a_pin_inside_a_batch_records_the_revision_of_the_batch_snapshot() {
    let (mut r, _) = with_outer();
    let x = inner(4);
    r.batch(|r| {
        add_inner(r, &x, 4);
        r.pin(CommandExecutionPosture::AutoApproves);
        // Found after the pin, in the same batch: inert, and the revision does not move.
        let late = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("late/.cursor/hooks.json"));
        r.upsert_source(update(&late, ok(defs(&["late"])), Some(&abs(p("late"))), active()));
    });
    let snap = r.snapshot();
    let pinned = snap.pinned().expect("pinned");
    assert_eq!(pinned.revision, snap.revision());
    assert_eq!(r.pinned(), Some(pinned));
    assert_eq!(bound(&snap, x.root.as_path()), x.expected, "what came before the pin runs");
    assert_eq!(bound(&snap, Path::new(&p("late"))), Vec::<String>::new(), "found after the pin");
}

#[test]
fn a_change_that_batches_sends_one_event_and_a_panicking_change_still_reports_its_publish() {
    let handle = RegistryHandle::default();
    let events = handle.subscribe();
    let x = inner(5);
    let generation = handle.change(|r| {
        r.batch(|r| add_inner(r, &x, 5));
        r.generation()
    });
    let RegistryEvent::SnapshotChanged { generation: g, revision } =
        events.recv_timeout(Duration::from_secs(5)).expect("one event");
    assert_eq!((g, revision), (generation, handle.snapshot().revision()));
    assert_eq!(generation.get(), 1);
    assert!(events.try_recv().is_err(), "one event for the batch");
    let y = inner(6);
    let h = handle.clone();
    let result = catch_unwind(AssertUnwindSafe(|| {
        h.change(|r| {
            r.batch(|r| {
                r.upsert_source(update(&y.cursor, ok(defs(&["c6"])), Some(&y.root), active()));
                panic!("a caller's bug inside a change");
            })
        })
    }));
    assert!(result.is_err());
    let RegistryEvent::SnapshotChanged { generation: g, .. } =
        events.recv_timeout(Duration::from_secs(5)).expect("the publish is reported");
    assert_eq!(g, handle.snapshot().generation());
    assert_eq!(g.get(), 2);
    assert_ne!(handle.change(|r| r.revision()), Revision::ZERO);
}
