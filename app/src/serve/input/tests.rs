//! Tests of reads that never wait: a pipe's bytes come through whole, an empty pipe says
//! "would block" instead of waiting, its end is seen, and the `FIONREAD` way reads the same.

use std::io::{self, Write};

use super::{ServeInput, is_pipe_or_socket, read_fd_now, readable_now};

#[test]
fn an_empty_pipe_would_block_and_bytes_and_the_end_come_through_both_ways() {
    for fionread in [false, true] {
        let (r, mut w) = io::pipe().expect("pipe");
        let (fd, window) = r.nowait_source().expect("a pipe is a source");
        assert!(window.is_zero());
        assert!(is_pipe_or_socket(fd));
        let mut way = fionread;
        let mut buf = [0u8; 64];
        let e = read_fd_now(fd, &mut buf, &mut way).expect_err("nothing there");
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "fionread {fionread}");
        assert!(!readable_now(fd));
        w.write_all(b"one line\n").expect("write");
        assert!(readable_now(fd));
        let n = read_fd_now(fd, &mut buf[..4], &mut way).expect("read");
        assert_eq!(&buf[..n], b"one ");
        let n = read_fd_now(fd, &mut buf, &mut way).expect("read");
        assert_eq!(&buf[..n], b"line\n");
        drop(w);
        assert!(readable_now(fd));
        assert_eq!(read_fd_now(fd, &mut buf, &mut way).expect("the end"), 0, "fionread {fionread}");
    }
}

#[test]
fn a_regular_file_or_memory_is_read_on_a_thread() {
    let file = tempfile::tempfile().expect("file");
    let (fd, _) = file.nowait_source().expect("a file has a descriptor");
    assert!(!is_pipe_or_socket(fd), "a regular file is not watched by the reactor");
    assert!(io::Cursor::new(Vec::<u8>::new()).nowait_source().is_none());
}
