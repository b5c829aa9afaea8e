//! A bounded line reader: splits a byte stream at newlines without ever holding more than the
//! cap, so an oversized line is measured and skipped instead of buffered.

use std::io::{self, BufRead};

/// One line read from the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A newline-terminated line within the cap (the newline and a trailing `\r` removed).
    Complete(Vec<u8>),
    /// A line longer than the cap; it was read to its end (or to end of input) and dropped.
    TooLong {
        /// Its length in bytes, without the newline.
        len: u64,
    },
    /// The input ended in the middle of a line (no newline after it).
    Unterminated(Vec<u8>),
}

/// Reads lines of at most `cap` bytes from a buffered reader.
pub(crate) struct LineReader<R> {
    inner: R,
    cap: usize,
    /// The line read so far: kept across an error (a reader that would block answers
    /// [`io::ErrorKind::WouldBlock`] and is asked again once it is readable).
    buf: Vec<u8>,
    len: u64,
    overflow: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `cap` bytes of one line.
    pub(crate) fn new(inner: R, cap: usize) -> LineReader<R> {
        LineReader { inner, cap, buf: Vec::new(), len: 0, overflow: false }
    }

    /// The next line; `None` at the end of input. After an error the line read so far is
    /// kept, and the next call goes on with it.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line>> {
        let line = self.read_line();
        if line.is_ok() {
            self.buf = Vec::new();
            self.len = 0;
            self.overflow = false;
        }
        line
    }

    fn read_line(&mut self) -> io::Result<Option<Line>> {
        let Self { inner, cap, buf, len, overflow } = self;
        let cap = *cap;
        loop {
            let chunk = match inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(match (*len, *overflow) {
                    (0, _) => None,
                    (len, true) => Some(Line::TooLong { len }),
                    (_, false) => Some(Line::Unterminated(std::mem::take(buf))),
                });
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(chunk.len());
            *len += take as u64;
            if !*overflow {
                if buf.len() + take > cap {
                    *overflow = true;
                    *buf = Vec::new();
                } else {
                    buf.extend_from_slice(&chunk[..take]);
                }
            }
            inner.consume(take + usize::from(newline.is_some()));
            if newline.is_some() {
                if *overflow {
                    return Ok(Some(Line::TooLong { len: *len }));
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Some(Line::Complete(std::mem::take(buf))));
            }
        }
    }
}
