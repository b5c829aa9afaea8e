//! Tests of the outputs' writes that never wait: a full pipe takes nothing and does not block,
//! a nearly full one takes part, and the descriptor's own flags are left alone.

use std::io::{Read, Write};

use super::ServeOutput;

#[cfg(target_os = "linux")]
#[test]
fn a_full_pipe_takes_nothing_without_waiting_and_everything_taken_arrives_in_order() {
    use std::os::fd::AsFd;

    use nix::fcntl::{FcntlArg, OFlag, fcntl};

    let (mut r, mut w) = std::io::pipe().unwrap();
    let blocking_before = fcntl(w.as_fd(), FcntlArg::F_GETFL).unwrap();
    // Fill the pipe through `write_now` alone: were it a blocking write, this loop would hang
    // at the pipe's capacity instead of being told there is no room.
    let chunk: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
    let mut taken = Vec::new();
    let mut rounds = 0;
    loop {
        let n = w.write_now(&chunk).expect("a pipe supports writes that never wait");
        taken.extend_from_slice(&chunk[..n]);
        if n < chunk.len() {
            break;
        }
        rounds += 1;
        assert!(rounds < 100_000, "the pipe never filled");
    }
    // The last page may still take a few bytes.
    while w.write_now(b"z").unwrap() == 1 {
        taken.push(b'z');
        assert!(taken.len() < 64 * 1024 * 1024, "the pipe never filled");
    }
    assert!(taken.len() >= 4096, "a pipe holds at least a page: {}", taken.len());
    // Full: nothing more is taken, and the call returns.
    assert_eq!(w.write_now(b"x").unwrap(), 0);
    // The descriptor (shared with whoever else holds it) is still a blocking one.
    assert_eq!(fcntl(w.as_fd(), FcntlArg::F_GETFL).unwrap(), blocking_before);
    assert!(!OFlag::from_bits_truncate(blocking_before).contains(OFlag::O_NONBLOCK));

    // Room again after the reader reads: a buffer larger than the room is taken in part.
    let mut some = vec![0u8; 8192];
    r.read_exact(&mut some).unwrap();
    let big = vec![b'y'; 64 * 1024];
    let n = w.write_now(&big).unwrap();
    assert!(n > 0 && n < big.len(), "part of a large write is taken: {n}");
    drop(w);
    let mut rest = Vec::new();
    r.read_to_end(&mut rest).unwrap();
    let mut all = some;
    all.extend_from_slice(&rest);
    let mut expected = taken;
    expected.extend_from_slice(&big[..n]);
    assert_eq!(all, expected, "every byte taken arrives once, in order");
}

#[cfg(target_os = "linux")]
#[test]
fn a_pipe_whose_reader_is_gone_is_an_error_not_a_full_pipe() {
    let (r, mut w) = std::io::pipe().unwrap();
    drop(r);
    let e = w.write_now(b"hello\n").expect_err("no reader");
    assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
}

#[test]
fn a_writer_without_write_now_is_unsupported_and_memory_always_has_room() {
    struct Plain;
    impl Write for Plain {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl ServeOutput for Plain {}
    let e = Plain.write_now(b"x").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::Unsupported);
    let mut boxed: Box<dyn ServeOutput> = Box::new(Vec::new());
    assert_eq!(boxed.write_now(b"abc").unwrap(), 3);
    boxed.write_all(b"d").unwrap();
}
