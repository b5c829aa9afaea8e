//! Tests of the capped input readers: special files are refused at once, streams are capped.

use std::time::{Duration, Instant};

use super::{read_file, read_stream};

#[test]
fn special_files_are_refused_before_they_are_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let started = Instant::now();
    for (path, kind) in [
        (fifo.as_path(), "a fifo"),
        (std::path::Path::new("/dev/zero"), "a device"),
        (dir.path(), "a directory"),
    ] {
        let e = read_file(path, 1024, "the payload").unwrap_err().to_string();
        assert!(e.contains(kind) && e.contains("not a regular file"), "{e}");
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    let missing = read_file(&dir.path().join("nope"), 1024, "the payload").unwrap_err();
    assert!(missing.to_string().contains("does not exist"), "{missing}");
}

#[test]
fn a_stream_is_read_up_to_its_cap_and_no_further() {
    assert_eq!(read_stream(&b"{}"[..], 2, "the payload from stdin").unwrap(), "{}");
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let e = read_stream(zero, 1024 * 1024, "the payload from stdin").unwrap_err();
    assert!(e.to_string().contains("more than the 1048576 byte limit"), "{e}");
}
