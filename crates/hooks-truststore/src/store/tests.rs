//! The store document: round trip, hostile documents, permissions, the lock, concurrent writers.

use std::path::PathBuf;

use proptest::prelude::*;

use super::*;
use crate::pin::{FilePin, PathStateKey, PinnedScript};

fn abs(p: &str) -> AbsPathBuf {
    AbsPathBuf::new(PathBuf::from(p)).unwrap()
}

fn sample_pin(path: &str) -> FilePin {
    FilePin {
        path: abs(path),
        kind: "project_cursor_file".to_owned(),
        root: Some(abs("/r")),
        digest: Digest::of(path.as_bytes()),
        scripts: vec![
            PinnedScript {
                path: abs("/r/a.sh"),
                session: Some(PathBuf::from("a.sh")),
                folder: false,
                state: PathStateKey::File(Digest::of(b"a")),
            },
            PinnedScript {
                path: abs("/r/b.sh"),
                session: None,
                folder: false,
                state: PathStateKey::Absent,
            },
            PinnedScript {
                path: abs("/r/hooks"),
                session: None,
                folder: true,
                state: PathStateKey::Folder(Digest::of(b"f")),
            },
        ],
        uncertain: vec!["a note".to_owned()],
        trusted_at: 7,
    }
}

#[test]
fn a_store_reads_back_what_was_written() {
    let mut contents = StoreContents::default();
    contents.insert(sample_pin("/r/.cursor/hooks.json"));
    contents.insert(FilePin { root: None, scripts: Vec::new(), ..sample_pin("/u/hooks.json") });
    let bytes = encode(&contents);
    assert_eq!(decode(&bytes).unwrap(), contents);
    expect_test::expect_file!["../../test_data/store_v1.json"]
        .assert_eq(std::str::from_utf8(&bytes).unwrap());
}

/// Every hostile document is refused with a reason, never a panic, never an empty store
/// that would look like "nothing trusted, all fine to overwrite".
#[test]
fn hostile_documents_are_refused() {
    let good = std::str::from_utf8(&encode(&{
        let mut c = StoreContents::default();
        c.insert(sample_pin("/r/.cursor/hooks.json"));
        c
    }))
    .unwrap()
    .to_owned();
    let deep = format!(r#"{{"version":1,"files":[{}"#, "{\"path\":[".repeat(50_000));
    let many_files = format!(
        r#"{{"version":1,"files":[{}]}}"#,
        vec![r#"{"path":"/x","kind":"k","root":null,"sha256":"00","trusted_at":0}"#; MAX_FILES + 1]
            .join(",")
    );
    let long = format!(
        r#"{{"version":1,"files":[{{"path":"/{}","kind":"k","root":null,"sha256":"{}","trusted_at":0}}]}}"#,
        "a".repeat(MAX_TEXT_BYTES),
        Digest::of(b"")
    );
    let cases: Vec<(&str, String)> = vec![
        ("empty", String::new()),
        ("not json", "trust me".to_owned()),
        ("deep nesting", deep),
        ("another version", good.replace("\"version\": 1", "\"version\": 2")),
        ("an unknown field", good.replace("\"version\": 1", "\"version\": 1, \"trust_all\": true")),
        ("a relative path", good.replace("\"/r/.cursor/hooks.json\"", "\"r/.cursor/hooks.json\"")),
        ("a dotted path", good.replace("\"/r/.cursor/hooks.json\"", "\"/r/../etc/hooks.json\"")),
        (
            "a short digest",
            good.replacen(&Digest::of(b"/r/.cursor/hooks.json").to_string(), "abc", 1),
        ),
        (
            "an upper-case digest",
            good.replacen(
                &Digest::of(b"a").to_string(),
                &Digest::of(b"a").to_string().to_uppercase(),
                1,
            ),
        ),
        ("a NUL in a path", good.replace("/r/a.sh", "/r/a\\u0000.sh")),
        (
            "an absolute session path",
            good.replace("\"session\": \"a.sh\"", "\"session\": \"/etc/a.sh\""),
        ),
        ("a bad kind", good.replace("project_cursor_file", "Project Cursor")),
        ("a negative time", good.replace("\"trusted_at\": 7", "\"trusted_at\": -1")),
        (
            "a duplicate",
            good.replace(
                "\"files\": [",
                &format!("\"files\": [{},", {
                    let start = good.find("    {").unwrap();
                    let end = good.rfind("  ]").unwrap();
                    good[start..end].trim_end().trim_end_matches(',').to_owned()
                }),
            ),
        ),
        ("too many files", many_files),
        ("a text over the limit", long),
        ("files is not a list", r#"{"version":1,"files":{}}"#.to_owned()),
        ("a missing field", r#"{"version":1,"files":[{"path":"/x"}]}"#.to_owned()),
    ];
    for (what, text) in cases {
        assert!(decode(text.as_bytes()).is_err(), "{what} was accepted");
    }
    assert!(decode(good.as_bytes()).is_ok());
}

proptest! {
    #[test]
    fn any_bytes_decode_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode(&bytes);
    }

    #[test]
    fn any_json_like_text_decodes_without_panicking(
        text in r#"\{"version":1,"files":\[\{"path":"[/a-z.]{0,12}","kind":"[a-z_]{0,8}","root":(null|"/[a-z]{0,4}"),"sha256":"[0-9a-f]{0,66}","trusted_at":[0-9]{1,3}(,"scripts":\[\{"path":"/[a-z]{1,4}","sha256":"(absent|[0-9a-f]{64})"\}\])?\}\]\}"#
    ) {
        if let Ok(contents) = decode(text.as_bytes()) {
            prop_assert_eq!(decode(&encode(&contents)).unwrap(), contents);
        }
    }
}

#[test]
fn no_file_is_an_empty_store_and_update_creates_it_privately() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(&dir.path().join("state/agent-hooks"));
    assert!(store.load().unwrap().is_empty());
    store.update(|s| s.insert(sample_pin("/r/.cursor/hooks.json"))).unwrap();
    assert_eq!(store.load().unwrap().len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(store.path()), 0o600);
        assert_eq!(mode(store.path().parent().unwrap()), 0o700);
    }
    let removed = store.update(|s| s.remove_where(|p| p.root == Some(abs("/r")))).unwrap();
    assert_eq!(removed.len(), 1);
    assert!(store.load().unwrap().is_empty());
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(store.path().parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn an_invalid_store_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(dir.path());
    std::fs::write(store.path(), "{ not a store").unwrap();
    assert!(matches!(store.load(), Err(StoreError::Invalid { .. })));
    let err = store.update(|s| s.insert(sample_pin("/r/.cursor/hooks.json"))).unwrap_err();
    assert!(matches!(err, StoreError::Invalid { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(store.path()).unwrap(), "{ not a store");
}

/// A change that would make the store larger than any reader reads is refused, and the store
/// stays as it was: written, it would have undone every trust the user gave.
#[test]
fn a_change_that_would_make_the_store_unreadable_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(dir.path());
    store.update(|s| s.insert(sample_pin("/r/.cursor/hooks.json"))).unwrap();
    let before = std::fs::read(store.path()).unwrap();
    let long = "d".repeat(200);
    let big = |n: usize| FilePin {
        scripts: (0..MAX_SCRIPTS_PER_FILE)
            .map(|i| PinnedScript {
                path: abs(&format!("/r/{long}/{n}/{i}.sh")),
                session: None,
                folder: false,
                state: PathStateKey::File(Digest::of(b"x")),
            })
            .collect(),
        ..sample_pin(&format!("/r/{n}/hooks.json"))
    };
    let err = store
        .update(|s| {
            for n in 0..20 {
                s.insert(big(n));
            }
        })
        .unwrap_err();
    assert!(matches!(err, StoreError::TooLarge { bytes } if bytes > MAX_STORE_BYTES), "{err}");
    assert!(err.to_string().contains("revoke some files first"), "{err}");
    assert_eq!(std::fs::read(store.path()).unwrap(), before);
    assert_eq!(store.load().unwrap().len(), 1);
    // One such entry fits.
    store.update(|s| s.insert(big(0))).unwrap();
    assert_eq!(store.load().unwrap().len(), 2);
}

#[cfg(unix)]
#[test]
fn a_store_others_may_write_or_that_is_not_a_file_is_not_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(dir.path());
    store.update(|s| s.insert(sample_pin("/r/.cursor/hooks.json"))).unwrap();
    std::fs::set_permissions(store.path(), std::fs::Permissions::from_mode(0o666)).unwrap();
    let err = store.load().unwrap_err();
    assert!(err.to_string().contains("others may write it"), "{err}");

    std::fs::remove_file(store.path()).unwrap();
    rustix::fs::mkfifoat(rustix::fs::CWD, store.path(), rustix::fs::Mode::from_raw_mode(0o600))
        .unwrap();
    // Nobody writes the FIFO: reading it would hang.
    assert!(matches!(store.load(), Err(StoreError::Invalid { .. })));
}

#[test]
fn a_writer_that_cannot_get_the_lock_gives_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(dir.path());
    let held = Lock::take(&store.lock_path(), LOCK_WAIT).unwrap();
    let err = Lock::take(&store.lock_path(), Duration::from_millis(20)).err().unwrap();
    assert!(matches!(err, StoreError::Locked { .. }), "{err}");
    drop(held);
    assert!(Lock::take(&store.lock_path(), Duration::from_millis(20)).is_ok());
}

#[test]
fn concurrent_writers_in_threads_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::in_state_dir(dir.path());
    std::thread::scope(|s| {
        for t in 0..8 {
            let store = store.clone();
            s.spawn(move || {
                for i in 0..10 {
                    store.update(|c| c.insert(sample_pin(&format!("/r/{t}/{i}.json")))).unwrap();
                }
            });
        }
    });
    assert_eq!(store.load().unwrap().len(), 80);
}
