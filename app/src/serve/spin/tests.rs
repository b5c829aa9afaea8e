//! Tests of the adaptive polling reader: bytes pass through unchanged, the end of input is
//! seen, and the window follows the gaps between requests.

use std::{
    io::{BufRead, BufReader, Read, Write},
    thread,
    time::Duration,
};

use super::{DEFAULT_SPIN, PolledInput};

#[test]
fn bytes_pass_through_unchanged_and_the_end_of_input_is_seen() {
    let (r, mut w) = std::io::pipe().expect("pipe");
    let writer = thread::spawn(move || {
        for i in 0..200 {
            w.write_all(format!("line {i}\n").as_bytes()).expect("write");
        }
    });
    let mut lines = BufReader::with_capacity(7, PolledInput::new(r)).lines();
    for i in 0..200 {
        assert_eq!(lines.next().expect("a line").expect("read"), format!("line {i}"));
    }
    writer.join().expect("writer");
    assert!(lines.next().is_none(), "the writer closed the pipe");
}

#[test]
fn a_zero_window_never_polls_and_still_reads() {
    let (r, mut w) = std::io::pipe().expect("pipe");
    w.write_all(b"abc").expect("write");
    drop(w);
    let mut input = PolledInput::with_window(r, Duration::ZERO);
    let mut got = String::new();
    input.read_to_string(&mut got).expect("read");
    assert_eq!(got, "abc");
    assert_eq!(input.window(), Duration::ZERO);
}

#[test]
fn the_window_halves_while_requests_come_late_and_is_whole_again_after_a_quick_one() {
    let (r, _w) = std::io::pipe().expect("pipe");
    let mut input = PolledInput::with_window(r, Duration::from_micros(200));
    let late = Duration::from_millis(5);
    let mut seen = Vec::new();
    for _ in 0..8 {
        input.adapt(late);
        seen.push(input.window().as_micros());
    }
    assert_eq!(seen, [100, 50, 25, 12, 6, 3, 0, 0]);
    input.adapt(Duration::from_micros(150));
    assert_eq!(input.window(), Duration::from_micros(200));
    input.adapt(Duration::from_micros(201));
    assert_eq!(input.window(), Duration::from_micros(100));
}

#[test]
fn a_request_that_arrives_while_blocked_is_read() {
    // With the window at zero the reader blocks at once; the request still arrives.
    let (r, mut w) = std::io::pipe().expect("pipe");
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = thread::spawn(move || {
        let mut input = BufReader::new(PolledInput::with_window(r, Duration::ZERO));
        let mut line = String::new();
        tx.send(()).expect("ready");
        input.read_line(&mut line).expect("read");
        line
    });
    rx.recv().expect("reader started");
    w.write_all(b"{\"id\":1}\n").expect("write");
    assert_eq!(reader.join().expect("reader"), "{\"id\":1}\n");
    assert!(DEFAULT_SPIN > Duration::ZERO);
}
