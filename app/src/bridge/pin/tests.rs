//! Tests of the session pins: round trip, one pin per session under concurrent first
//! events, stale pins replaced, the folder bounded, hostile files refused.

use std::sync::{Arc, Barrier};

use super::*;

fn root(dir: &Path) -> AbsPathBuf {
    AbsPathBuf::new(dir.to_path_buf()).expect("absolute")
}

fn set(tag: &str) -> PinnedSet {
    PinnedSet {
        created: now_secs(),
        files: vec![PinnedFile {
            kind: "project_cursor_file".into(),
            path: "/p/.cursor/hooks.json".into(),
            found_at: vec![],
            project: true,
            project_dir: None,
            sha256: Some(sha256_hex(tag)),
            content: Some(tag.into()),
            base: None,
            error: None,
            active: true,
            reason: "trusted".into(),
            needs_trust: false,
        }],
    }
}

#[test]
fn a_saved_pin_is_loaded_for_its_session_only() {
    let dir = tempfile::tempdir().expect("tmp");
    let store = PinStore::new(dir.path().join("pins"));
    let r = root(dir.path());
    assert!(store.load("claude", "s1", &r).expect("reads").is_none());
    // One value: `created` is the clock's second, which may tick between two `set` calls.
    let one = set("one");
    let kept = store.save("claude", "s1", &r, one.clone()).expect("saved");
    assert_eq!(kept, one);
    assert_eq!(store.load("claude", "s1", &r).expect("reads"), Some(one.clone()));
    assert!(store.load("claude", "s2", &r).expect("reads").is_none(), "another session");
    assert!(store.load("codex", "s1", &r).expect("reads").is_none(), "another host");
    let other = root(&dir.path().join("elsewhere"));
    assert!(store.load("claude", "s1", &other).expect("reads").is_none(), "another root");
    // A second save of the same session keeps the first pin.
    assert_eq!(store.save("claude", "s1", &r, set("two")).expect("saved"), one);
    assert_eq!(store.load("claude", "s1", &r).expect("reads"), Some(one.clone()));
}

#[test]
fn the_session_id_never_becomes_a_path() {
    let dir = tempfile::tempdir().expect("tmp");
    let store = PinStore::new(dir.path().join("pins"));
    let r = root(dir.path());
    let p = store.path_for("claude", "../../etc/passwd", &r);
    assert_eq!(p.parent(), Some(store.dir()));
    let name = p.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(name.len() == 37 && name.ends_with(".json"), "{name}");
}

#[test]
fn concurrent_first_events_agree_on_one_pin() {
    let dir = tempfile::tempdir().expect("tmp");
    let store = Arc::new(PinStore::new(dir.path().join("pins")));
    let r = root(dir.path());
    let n = 8;
    let barrier = Arc::new(Barrier::new(n));
    let threads: Vec<_> = (0..n)
        .map(|i| {
            let (store, r, barrier) = (Arc::clone(&store), r.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                store.save("gemini", "s", &r, set(&format!("v{i}"))).expect("saved")
            })
        })
        .collect();
    let kept: Vec<PinnedSet> = threads.into_iter().map(|t| t.join().expect("thread")).collect();
    assert!(kept.iter().all(|k| *k == kept[0]), "every event runs the same set: {kept:?}");
    assert_eq!(store.load("gemini", "s", &r).expect("reads"), Some(kept[0].clone()));
    let files: Vec<_> = std::fs::read_dir(store.dir())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .filter(|n| n != ".lock")
        .collect();
    assert_eq!(files.len(), 1, "one pin, no temporary file left: {files:?}");
}

#[test]
fn a_stale_pin_is_replaced() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = PinStore::new(dir.path().join("pins"));
    store.max_age = Duration::from_secs(60);
    let r = root(dir.path());
    let mut old = set("old");
    old.created = now_secs() - 3600;
    // Written directly: a pin made an hour ago.
    store.save("claude", "s", &r, old).expect("saved");
    assert!(store.load("claude", "s", &r).expect("reads").is_none(), "stale");
    let new = set("new");
    assert_eq!(store.save("claude", "s", &r, new.clone()).expect("saved"), new);
    assert_eq!(store.load("claude", "s", &r).expect("reads"), Some(new));
}

#[test]
fn the_folder_is_bounded_in_number() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = PinStore::new(dir.path().join("pins"));
    store.max_files = 3;
    let r = root(dir.path());
    for i in 0..10 {
        store.save("claude", &format!("s{i}"), &r, set("x")).expect("saved");
    }
    let pins = std::fs::read_dir(store.dir())
        .expect("dir")
        .filter(|e| e.as_ref().expect("entry").file_name() != ".lock")
        .count();
    assert_eq!(pins, 3);
    assert!(store.load("claude", "s9", &r).expect("reads").is_some(), "the newest is kept");
}

#[test]
fn hostile_pin_files_are_errors_not_pins() {
    let dir = tempfile::tempdir().expect("tmp");
    let store = PinStore::new(dir.path().join("pins"));
    let r = root(dir.path());
    std::fs::create_dir_all(store.dir()).expect("dir");
    let p = store.path_for("claude", "s", &r);
    std::fs::write(&p, b"{not json").expect("write");
    assert!(matches!(store.load("claude", "s", &r), Err(PinError::Malformed { .. })));
    std::fs::remove_file(&p).expect("rm");
    std::fs::create_dir(&p).expect("a folder in its place");
    assert!(store.load("claude", "s", &r).is_err());
    // A pin naming another session under this file name is not this session's.
    std::fs::remove_dir(&p).expect("rm");
    store.save("claude", "other", &r, set("x")).expect("saved");
    std::fs::copy(store.path_for("claude", "other", &r), &p).expect("copy");
    assert!(store.load("claude", "s", &r).expect("reads").is_none());
}
