//! A small position finder over JSON text that serde_json already accepted: it records where
//! each key and value of the first few nesting levels starts, so semantic diagnostics can
//! name a line and column.
//!
//! It is iterative (no recursion), only records paths up to [`MAX_DEPTH`] segments and at
//! most [`MAX_RECORDS`] of them, so its cost stays linear in the (capped) input.

use std::collections::{HashMap, HashSet};

/// How deep paths are recorded (`hooks.<event>[i].<field>` is 4 segments).
const MAX_DEPTH: usize = 4;
/// At most this many paths are recorded.
const MAX_RECORDS: usize = 200_000;

/// One step of a path into the document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A 1-based line and column (the column counts characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Pos {
    /// The start of the file.
    pub(crate) const START: Pos = Pos { line: 1, column: 1 };
}

/// Where one path's key (for object members) and value start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) key: Option<Pos>,
    pub(crate) value: Pos,
}

/// Positions of the recorded paths, and the object keys that appear more than once.
#[derive(Debug, Default)]
pub(crate) struct Spans {
    map: HashMap<Vec<Seg>, Span>,
    /// Paths of keys written twice (the later occurrence), in text order.
    pub(crate) duplicates: Vec<(Vec<Seg>, Pos)>,
}

impl Spans {
    /// Where the key of `path` starts, or its value when it has no key, or the nearest
    /// recorded ancestor, or the start of the file.
    pub(crate) fn key_pos(&self, path: &[Seg]) -> Pos {
        self.find(path, true)
    }

    /// Where the value of `path` starts, or the nearest recorded ancestor's.
    pub(crate) fn value_pos(&self, path: &[Seg]) -> Pos {
        self.find(path, false)
    }

    fn find(&self, path: &[Seg], key: bool) -> Pos {
        let mut len = path.len();
        loop {
            let Some(prefix) = path.get(..len) else { return Pos::START };
            if let Some(span) = self.map.get(prefix) {
                return if key { span.key.unwrap_or(span.value) } else { span.value };
            }
            if len == 0 {
                return Pos::START;
            }
            len -= 1;
        }
    }
}

enum Frame {
    Object { key: Option<(String, Pos)>, seen: HashSet<String> },
    Array { next: usize },
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u32,
    column: u32,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn pos(&self) -> Pos {
        Pos { line: self.line, column: self.column }
    }

    fn bump(&mut self) {
        if let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\n' {
                self.line = self.line.saturating_add(1);
                self.column = 1;
            } else if b & 0xC0 != 0x80 {
                self.column = self.column.saturating_add(1);
            }
        }
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    /// Skips a string starting at `"` and returns its raw text including quotes.
    fn string(&mut self) -> &str {
        let start = self.at;
        self.bump();
        while let Some(b) = self.peek() {
            self.bump();
            match b {
                b'\\' => self.bump(),
                b'"' => break,
                _ => {}
            }
        }
        std::str::from_utf8(self.bytes.get(start..self.at).unwrap_or_default()).unwrap_or("")
    }

    /// Skips a number or a literal.
    fn scalar(&mut self) {
        while let Some(b) = self.peek() {
            if matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            self.bump();
        }
    }
}

/// Records positions in `text`, which must be JSON serde_json accepted (anything else gives
/// partial but harmless results).
pub(crate) fn locate(text: &str) -> Spans {
    let mut spans = Spans::default();
    let mut cur = Cursor { bytes: text.as_bytes(), at: 0, line: 1, column: 1 };
    let mut path: Vec<Seg> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // The key of the value about to be read, when inside an object.
    let mut pending_key: Option<Pos> = None;
    let mut expect_value = true;
    let mut guard = 0usize;
    loop {
        guard += 1;
        if guard > text.len().saturating_mul(2).saturating_add(16) {
            break;
        }
        cur.skip_ws();
        let Some(b) = cur.peek() else { break };
        if expect_value {
            let value_pos = cur.pos();
            // Record the value's position for the current path.
            if path.len() <= MAX_DEPTH && spans.map.len() < MAX_RECORDS {
                let span = Span { key: pending_key, value: value_pos };
                spans.map.insert(path.clone(), span);
            }
            pending_key = None;
            expect_value = false;
            match b {
                b'{' => {
                    cur.bump();
                    stack.push(Frame::Object { key: None, seen: HashSet::new() });
                    continue;
                }
                b'[' => {
                    cur.bump();
                    stack.push(Frame::Array { next: 0 });
                    cur.skip_ws();
                    if cur.peek() == Some(b']') {
                        continue;
                    }
                    path.push(Seg::Index(0));
                    expect_value = true;
                    continue;
                }
                b'"' => {
                    cur.string();
                }
                _ => cur.scalar(),
            }
            continue;
        }
        match (b, stack.last_mut()) {
            (b'"', Some(Frame::Object { key, seen })) => {
                let pos = cur.pos();
                let raw = cur.string();
                let name = serde_json::from_str::<String>(raw).unwrap_or_default();
                if !seen.insert(name.clone()) && path.len() < MAX_DEPTH {
                    let mut dup = path.clone();
                    dup.push(Seg::Key(name.clone()));
                    spans.duplicates.push((dup, pos));
                }
                *key = Some((name, pos));
            }
            (b':', Some(Frame::Object { key, .. })) => {
                cur.bump();
                if let Some((name, pos)) = key.take() {
                    path.push(Seg::Key(name));
                    pending_key = Some(pos);
                }
                expect_value = true;
            }
            (b',', Some(Frame::Array { next })) => {
                cur.bump();
                *next += 1;
                let n = *next;
                path.pop();
                path.push(Seg::Index(n));
                expect_value = true;
            }
            (b',', Some(Frame::Object { .. })) => {
                cur.bump();
                path.pop();
            }
            (b'}', Some(Frame::Object { .. })) | (b']', Some(Frame::Array { .. })) => {
                cur.bump();
                // Invariant: inside a member of the container at depth d, `path` has d
                // segments; between members (or in an empty container) it has d - 1.
                if path.len() == stack.len() {
                    path.pop();
                }
                stack.pop();
            }
            _ => cur.bump(),
        }
    }
    spans
}

#[cfg(test)]
mod tests;
