//! Scripted-event tests of a root deleted while watched and recreated later: the nearest
//! existing ancestor is watched while it is missing, and it is attached again when it is back.

use super::*;

impl Harness {
    /// Delivers one platform event about absolute `paths` now.
    fn event_at(&mut self, kind: EventKind, paths: &[&Path]) {
        let mut event = notify::Event::new(kind);
        for path in paths {
            event = event.add_path(path.to_path_buf());
        }
        self.engine.handle(Msg::Fs(Ok(event)), self.now);
    }

    /// Deletes `root` as `rm -rf` does and lets the debounce window pass: its sources are
    /// withdrawn and it is missing.
    fn delete(&mut self, root: &AbsPathBuf) {
        fs::remove_dir_all(root.as_path()).expect("rm -r root");
        self.event(REMOVE_DIR, root, &[""]);
        self.advance(500);
        assert_eq!(self.codes(root), ["root_missing"]);
    }

    fn waiting_on(&self, root: &AbsPathBuf) -> Option<PathBuf> {
        self.engine.waiting_on(root.as_path())
    }

    /// Whether the fake platform watch holds `dir`.
    fn platform_watches_dir(&mut self, dir: &Path) -> bool {
        self.engine.backend().watched.contains(dir)
    }

    fn drain_events(&self) -> Vec<WatcherEvent> {
        self.events.try_iter().collect()
    }
}

fn parent(root: &AbsPathBuf) -> PathBuf {
    root.as_path().parent().expect("a parent").to_path_buf()
}

fn attached(events: &[WatcherEvent], root: &AbsPathBuf) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, WatcherEvent::Attached { place: WatchedPlace::Root(r), result: Ok(()) } if r == root))
        .count()
}

#[test]
fn a_deleted_root_waits_on_its_parent_and_is_attached_again_when_recreated() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    h.add(&a);
    h.delete(&a);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert!(h.watched(&a).is_empty());
    assert_eq!(h.waiting_on(&a), Some(parent(&a)));
    assert!(h.platform_watches_dir(&parent(&a)));
    assert!(h.registry.snapshot().project_roots().contains(&a), "the project stays announced");
    let loads = h.loads(&a);
    h.drain_events();

    fs::create_dir(a.as_path()).expect("mkdir root");
    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    h.event(CREATE_DIR, &a, &[""]);

    // At once, not after a window: as an added root is loaded on the spot.
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./new.sh".to_owned()]));
    assert!(h.codes(&a).is_empty(), "{:?}", h.codes(&a));
    assert_eq!(h.watched(&a), [".", ".cursor"]);
    assert_eq!(h.waiting_on(&a), None);
    assert!(!h.platform_watches_dir(&parent(&a)), "the parent's watch is released");
    assert_eq!(h.loads(&a), loads + 1);
    let events = h.drain_events();
    assert_eq!(attached(&events, &a), 1, "{events:#?}");
    assert!(
        matches!(
            events.as_slice(),
            [WatcherEvent::Reloaded { place: WatchedPlace::Root(root), sources, .. }, WatcherEvent::Attached { .. }]
                if root == &a && sources == &[cursor_id(&a)]
        ),
        "the same events as an added root, in the same order: {events:#?}"
    );
    // And it is watched again: a later change reloads it.
    write(a.as_path(), HOOKS, &cursor_file(&["./newer.sh"]));
    written(&mut h, &a, HOOKS);
    h.advance(500);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./newer.sh".to_owned()]));
}

#[test]
fn unrelated_changes_in_the_parent_do_nothing() {
    let mut h = Harness::new();
    let a = h.root("a");
    h.add(&a);
    h.delete(&a);
    let loads = h.loads(&a);
    h.drain_events();
    let other = parent(&a).join("other");
    fs::create_dir(&other).expect("mkdir");
    h.event_at(CREATE_DIR, &[&other]);
    // A sibling whose name extends the root's is not the root either.
    let longer = parent(&a).join("a-b");
    fs::create_dir(&longer).expect("mkdir");
    h.event_at(CREATE_DIR, &[&longer]);
    h.advance(500);
    assert_eq!(h.loads(&a), loads);
    assert!(h.drain_events().is_empty());
    assert_eq!(h.waiting_on(&a), Some(parent(&a)));
}

#[test]
fn many_roots_missing_under_one_parent_share_one_watch() {
    let mut h = Harness::new();
    let group = h.root("group");
    let roots: Vec<AbsPathBuf> =
        ["r1", "r2", "r3"].iter().map(|n| make_root(group.as_path(), n)).collect();
    for r in &roots {
        h.add(r);
    }
    let before = h.shared.platform_watches();
    assert_eq!(before, 3);
    for r in &roots {
        fs::remove_dir_all(r.as_path()).expect("rm -r");
        h.event(REMOVE_DIR, r, &[""]);
    }
    h.advance(500);
    for r in &roots {
        assert_eq!(h.waiting_on(r).as_deref(), Some(group.as_path()));
    }
    assert_eq!(h.shared.platform_watches(), 1, "one watch for the shared parent");

    fs::create_dir(roots[1].as_path()).expect("mkdir");
    h.event(CREATE_DIR, &roots[1], &[""]);
    assert_eq!(h.watched(&roots[1]), ["."]);
    assert_eq!(h.waiting_on(&roots[0]).as_deref(), Some(group.as_path()));
    assert_eq!(h.waiting_on(&roots[2]).as_deref(), Some(group.as_path()));
    assert_eq!(h.shared.platform_watches(), 2);

    for r in [&roots[0], &roots[2]] {
        fs::create_dir(r.as_path()).expect("mkdir");
        h.event(CREATE_DIR, r, &[""]);
    }
    assert_eq!(h.shared.platform_watches(), 3, "the parent is released with its last waiter");
    assert!(!h.platform_watches_dir(group.as_path()));
    for r in &roots {
        assert!(h.codes(r).is_empty());
    }
}

#[test]
fn a_deleted_parent_is_followed_up_and_back_down_level_by_level() {
    let mut h = Harness::new();
    let base = h.root("base");
    let repo = make_root(base.as_path(), "x/y/repo");
    write(repo.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    h.add(&repo);
    let x = base.as_path().join("x");
    fs::remove_dir_all(&x).expect("rm -r x");
    h.event(REMOVE_DIR, &repo, &[""]);
    h.advance(500);
    assert_eq!(h.codes(&repo), ["root_missing"]);
    assert_eq!(h.waiting_on(&repo).as_deref(), Some(base.as_path()));

    // One level back: the watch moves down to it.
    fs::create_dir(&x).expect("mkdir x");
    h.event_at(CREATE_DIR, &[&x]);
    assert_eq!(h.waiting_on(&repo), Some(x.clone()));
    assert!(!h.platform_watches_dir(base.as_path()));
    assert!(h.platform_watches_dir(&x));
    assert_eq!(h.codes(&repo), ["root_missing"]);

    // The rest at once (`mkdir -p`): one event for the next level finds the root, because
    // the disk is looked at again after each new watch.
    write(repo.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    h.event_at(CREATE_DIR, &[&x.join("y")]);
    assert_eq!(commands(&h.registry, &cursor_id(&repo)), Some(vec!["./new.sh".to_owned()]));
    assert!(h.codes(&repo).is_empty());
    assert_eq!(h.waiting_on(&repo), None);
    assert!(!h.platform_watches_dir(&x));
    assert_eq!(h.watched(&repo), [".", ".cursor"]);
}

#[test]
fn an_ancestor_deleted_while_waited_on_is_followed_up() {
    let mut h = Harness::new();
    let base = h.root("base");
    let repo = make_root(base.as_path(), "x/repo");
    h.add(&repo);
    let x = base.as_path().join("x");
    fs::remove_dir_all(repo.as_path()).expect("rm -r repo");
    h.event(REMOVE_DIR, &repo, &[""]);
    h.advance(500);
    assert_eq!(h.waiting_on(&repo), Some(x.clone()));

    fs::remove_dir(&x).expect("rmdir x");
    // Reported by x's own watch, with x's path.
    h.event_at(REMOVE_DIR, &[&x]);
    assert_eq!(h.waiting_on(&repo).as_deref(), Some(base.as_path()));
    assert!(!h.platform_watches_dir(&x));

    // Recreated at the same name: a new directory, watched afresh when the root's level
    // appears under it.
    fs::create_dir_all(repo.as_path()).expect("mkdir -p");
    h.event_at(CREATE_DIR, &[&x]);
    assert_eq!(h.waiting_on(&repo), None);
    assert_eq!(h.watched(&repo), ["."]);
    assert!(h.codes(&repo).is_empty());
}

#[test]
fn a_root_recreated_as_a_file_stays_missing_until_it_is_a_directory() {
    let mut h = Harness::new();
    let a = h.root("a");
    h.add(&a);
    h.delete(&a);
    let loads = h.loads(&a);
    fs::write(a.as_path(), "not a directory").expect("write");
    h.event(CREATE, &a, &[""]);
    h.event(CLOSE_WRITE, &a, &[""]);
    h.advance(500);
    assert_eq!(h.loads(&a), loads);
    assert_eq!(h.codes(&a), ["root_missing"]);
    assert_eq!(h.waiting_on(&a), Some(parent(&a)));

    fs::remove_file(a.as_path()).expect("rm");
    h.event(REMOVE, &a, &[""]);
    fs::create_dir(a.as_path()).expect("mkdir");
    h.event(CREATE_DIR, &a, &[""]);
    assert!(h.codes(&a).is_empty());
    assert_eq!(h.watched(&a), ["."]);
}

#[cfg(unix)]
#[test]
fn a_root_recreated_as_a_symlink_is_not_read_through_the_link() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    h.add(&a);
    h.delete(&a);
    let elsewhere = h.root("elsewhere");
    write(elsewhere.as_path(), HOOKS, &cursor_file(&["./linked.sh"]));
    std::os::unix::fs::symlink(elsewhere.as_path(), a.as_path()).expect("symlink");
    h.event(CREATE, &a, &[""]);
    assert_eq!(h.waiting_on(&a), Some(parent(&a)), "still waiting for a directory");
    assert!(h.watched(&a).is_empty());
    // A load now says why: the root is another directory, which the embedder adds if it
    // wants it.
    let report = h.shared.reload(&WatchedPlace::from(&a)).expect("a root");
    assert!(report.sources.is_empty());
    assert_eq!(commands(&h.registry, &cursor_id(&elsewhere)), None);
    let diagnostics = h.shared.diagnostics(&WatchedPlace::from(&a));
    assert_eq!(diagnostics.len(), 1);
    assert!(diagnostics[0].message.contains("link"), "{diagnostics:?}");
    assert_eq!(diagnostics[0].code.as_deref(), Some("root_missing"));

    // Replaced by a directory: back.
    fs::remove_file(a.as_path()).expect("rm link");
    h.event(REMOVE, &a, &[""]);
    fs::create_dir(a.as_path()).expect("mkdir");
    h.event(CREATE_DIR, &a, &[""]);
    assert!(h.codes(&a).is_empty());
    assert_eq!(h.watched(&a), ["."]);
}

#[test]
fn a_root_removed_while_missing_releases_its_ancestor_and_stays_removed() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    h.add(&a);
    h.delete(&a);
    h.remove(&a);
    assert!(!h.platform_watches_dir(&parent(&a)));
    assert_eq!(h.shared.platform_watches(), 0);
    h.drain_events();

    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    h.event(CREATE_DIR, &a, &[""]);
    h.advance(500);
    assert!(h.drain_events().is_empty());
    assert!(h.shared.roots().is_empty());
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert!(!h.registry.snapshot().project_roots().contains(&a));
}

#[test]
fn a_dropped_event_queue_finds_a_root_that_came_back_unseen() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    h.add(&a);
    h.add(&b);
    h.delete(&a);
    h.drain_events();
    write(a.as_path(), HOOKS, &cursor_file(&["./back.sh"]));
    let rescan = notify::Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
    h.engine.handle(Msg::Fs(Ok(rescan)), h.now);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./back.sh".to_owned()]));
    assert_eq!(h.watched(&a), [".", ".cursor"]);
    assert!(!h.platform_watches_dir(&parent(&a)));
    assert_eq!(attached(&h.drain_events(), &a), 1);
}

#[test]
fn a_watch_error_on_the_ancestor_is_a_diagnostic_on_the_root() {
    let mut backend = FakeBackend::default();
    let mut h = Harness::with(desktop_unknown(), FakeBackend::default());
    let a = h.root("a");
    backend.denied.insert(parent(&a));
    h.engine = Engine::new(Arc::clone(&h.shared), backend, Duration::from_millis(500));
    h.add(&a);
    fs::remove_dir_all(a.as_path()).expect("rm -r root");
    h.event(REMOVE_DIR, &a, &[""]);
    h.advance(500);
    assert_eq!(h.codes(&a), ["root_missing", "watch_permission_denied"]);
    assert_eq!(h.waiting_on(&a), None);
}

#[test]
fn a_nested_root_waits_on_its_outer_root_and_follows_it_when_that_goes_too() {
    let mut h = Harness::new();
    let outer = h.root("outer");
    let inner = make_root(outer.as_path(), "inner");
    h.add(&outer);
    h.add(&inner);
    h.delete(&inner);
    // The outer root's own directory, held for both.
    assert_eq!(h.waiting_on(&inner).as_deref(), Some(outer.as_path()));
    assert_eq!(h.watched(&outer), ["."]);

    fs::remove_dir_all(outer.as_path()).expect("rm -r outer");
    // Reported by the outer root's own watch.
    h.event(REMOVE_DIR, &outer, &[""]);
    assert_eq!(h.waiting_on(&inner), Some(parent(&outer)));
    h.advance(500);
    assert_eq!(h.codes(&outer), ["root_missing"]);
    assert_eq!(h.waiting_on(&outer), Some(parent(&outer)));
    assert_eq!(h.shared.platform_watches(), 1, "one watch for both");

    write(inner.as_path(), HOOKS, &cursor_file(&["./inner.sh"]));
    h.event(CREATE_DIR, &outer, &[""]);
    assert!(h.codes(&outer).is_empty());
    assert!(h.codes(&inner).is_empty());
    assert_eq!(h.watched(&outer), ["."]);
    assert_eq!(h.watched(&inner), [".", ".cursor"]);
    assert_eq!(commands(&h.registry, &cursor_id(&inner)), Some(vec!["./inner.sh".to_owned()]));
    assert!(!h.platform_watches_dir(&parent(&outer)));
}

#[test]
fn a_root_withdrawn_and_attached_again_publishes_one_snapshot_each_time() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    write(a.as_path(), CLAUDE, CLAUDE_STOP);
    h.add(&a);
    let rx = h.registry.subscribe();
    let before = h.registry.snapshot().generation();
    h.delete(&a);
    // Both sources withdrawn, one snapshot.
    assert_eq!(h.registry.snapshot().generation(), before.next());
    assert!(h.registry.snapshot().sources().is_empty());
    assert_eq!(registry_events(&rx).len(), 1);

    fs::create_dir(a.as_path()).expect("mkdir root");
    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    write(a.as_path(), CLAUDE, CLAUDE_STOP);
    h.event(CREATE_DIR, &a, &[""]);
    let after = h.registry.snapshot();
    assert_eq!(after.generation(), before.next().next(), "one snapshot for the re-attachment");
    assert_eq!(
        registry_events(&rx),
        [RegistryEvent::SnapshotChanged {
            generation: after.generation(),
            revision: after.revision()
        }]
    );
    assert_eq!(after.sources().len(), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./new.sh".to_owned()]));
}
