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
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `cap` bytes of one line.
    pub(crate) fn new(inner: R, cap: usize) -> LineReader<R> {
        LineReader { inner, cap }
    }

    /// The next line; `None` at the end of input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        let mut len: u64 = 0;
        let mut overflow = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(match (len, overflow) {
                    (0, _) => None,
                    (_, true) => Some(Line::TooLong { len }),
                    (_, false) => Some(Line::Unterminated(buf)),
                });
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(chunk.len());
            len += take as u64;
            if !overflow {
                if buf.len() + take > self.cap {
                    overflow = true;
                    buf = Vec::new();
                } else {
                    buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.inner.consume(take + usize::from(newline.is_some()));
            if newline.is_some() {
                if overflow {
                    return Ok(Some(Line::TooLong { len }));
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Some(Line::Complete(buf)));
            }
        }
    }
}
