//! Digests of bytes, files and folders; reads that never block or run without end.

use std::path::Path;

use proptest::prelude::*;

use super::*;

#[test]
fn a_digest_reads_back_from_its_hex_and_nothing_else_parses() {
    let d = Digest::of(b"hello");
    assert_eq!(d.to_string(), "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    assert_eq!(d.to_string().parse::<Digest>(), Ok(d));
    for bad in ["", "2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824", "zz", "é"]
    {
        assert_eq!(bad.parse::<Digest>(), Err(BadDigest), "{bad:?}");
    }
    let long = format!("{d}0");
    assert_eq!(long.parse::<Digest>(), Err(BadDigest));
}

proptest! {
    #[test]
    fn parsing_any_text_as_a_digest_never_panics(s in "\\PC{0,80}") {
        let _ = s.parse::<Digest>();
    }

    #[test]
    fn every_digest_round_trips(bytes in proptest::array::uniform32(any::<u8>())) {
        let d = Digest(bytes);
        prop_assert_eq!(d.to_string().parse::<Digest>(), Ok(d));
    }
}

#[test]
fn a_path_is_absent_a_file_or_a_folder_and_a_folder_s_digest_covers_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert_eq!(path_state(&p.join("none"), false).unwrap(), PathState::Absent);
    std::fs::write(p.join("a.sh"), "echo a").unwrap();
    assert_eq!(path_state(&p.join("a.sh"), false).unwrap(), PathState::File(Digest::of(b"echo a")));
    assert!(matches!(path_state(p, false), Err(HashError::NotRegular { .. })));

    let before = path_state(p, true).unwrap();
    assert!(matches!(before, PathState::Folder(_)));
    std::fs::create_dir(p.join("sub")).unwrap();
    std::fs::write(p.join("sub/b.sh"), "echo b").unwrap();
    let with_b = path_state(p, true).unwrap();
    assert_ne!(before, with_b, "a new file in a sub-folder changes the folder");
    std::fs::write(p.join("sub/b.sh"), "echo B").unwrap();
    assert_ne!(with_b, path_state(p, true).unwrap(), "a changed file changes the folder");
    std::fs::write(p.join("sub/b.sh"), "echo b").unwrap();
    assert_eq!(with_b, path_state(p, true).unwrap(), "the same files give the same digest");
}

#[test]
fn a_file_over_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big");
    std::fs::write(&f, vec![b'x'; 101]).unwrap();
    assert!(matches!(read_regular(&f, 100), Err(HashError::TooLarge { .. })));
    assert_eq!(read_regular(&f, 101).unwrap().map(|b| b.len()), Some(101));
}

#[test]
fn a_folder_with_too_many_files_cannot_be_pinned() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..=MAX_FOLDER_ENTRIES {
        std::fs::write(dir.path().join(format!("f{i}")), "").unwrap();
    }
    assert!(matches!(path_state(dir.path(), true), Err(HashError::TooLarge { .. })));
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_is_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
    // Nobody writes the FIFO: a blocking open or read would hang this test.
    assert!(matches!(read_regular(&fifo, 100), Err(HashError::NotRegular { .. })));
    assert!(matches!(path_state(&fifo, true), Err(HashError::NotRegular { .. })));
    assert!(matches!(path_state(Path::new("/dev/zero"), false), Err(HashError::NotRegular { .. })));
}

#[cfg(unix)]
#[test]
fn a_symlink_is_read_through_and_a_dangling_one_is_absent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.sh"), "echo t").unwrap();
    std::os::unix::fs::symlink("t.sh", dir.path().join("l.sh")).unwrap();
    std::os::unix::fs::symlink("gone.sh", dir.path().join("d.sh")).unwrap();
    assert_eq!(
        path_state(&dir.path().join("l.sh"), false).unwrap(),
        PathState::File(Digest::of(b"echo t"))
    );
    assert_eq!(path_state(&dir.path().join("d.sh"), false).unwrap(), PathState::Absent);
}
