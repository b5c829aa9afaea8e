//! The one JSON reader of the format adapters: it keeps the line and column of every value
//! and key, so a diagnostic about a well-formed but invalid hook file names the offending key.
//!
//! `serde_json` reports positions only for syntax errors. [`parse`] accepts exactly
//! RFC 8259 JSON (plus a leading UTF-8 byte order mark), caps nesting depth, counts columns
//! in characters, and converts to [`serde_json::Value`] on demand; [`parse_as`] reads the
//! dialect an agent reads (see [`Dialect`]) with the same positions. Duplicate keys are kept in
//! the tree, in document order; [`Node::get`] answers as `JSON.parse` and `serde_json` do (the
//! last one wins) and readers that warn about duplicates see them all. `specs/formats.md`
//! ("Reading JSON") says why this is a small reader of our own rather than a crate.
//!
//! ```
//! let root = hooks_json::parse(b"{\n  \"hooks\": {\"stop\": 1}\n}").unwrap();
//! let hooks = root.get("hooks").unwrap();
//! assert_eq!((hooks.line, hooks.column), (2, 3));
//! assert_eq!(hooks.value.get("stop").unwrap().value.as_f64(), Some(1.0));
//! ```
#![warn(missing_docs)]

use serde_json::{Map, Number, Value};

mod de;
mod dialect;

pub use de::{At, Checked, DeError, Entries, Field, Keyed, from_node};
pub use dialect::{Dialect, is_js_space, parse_as, strip_comments};

/// The deepest nesting accepted; deeper documents are rejected, never overflow the stack.
pub const MAX_DEPTH: usize = 64;

/// A parsed value with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub kind: Kind,
    /// 1-based line of its first character.
    pub line: u32,
    /// 1-based column (in characters) of its first character.
    pub column: u32,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
}

/// The shape of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (checked by `serde_json`: out-of-range numbers are a syntax error).
    Number(Number),
    /// A string, escapes resolved (a lone surrogate becomes U+FFFD).
    String(String),
    /// An array's items.
    Array(Vec<Node>),
    /// An object's members, in document order, duplicates kept.
    Object(Vec<Member>),
}

/// One `"key": value` pair of an object, in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, escapes resolved.
    pub key: String,
    /// 1-based line of the key's opening quote.
    pub line: u32,
    /// 1-based column (in characters) of the key's opening quote.
    pub column: u32,
    /// The value.
    pub value: Node,
}

/// A syntax error with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong, lowercase (`expected `,` or `}``).
    pub message: String,
    /// 1-based line where reading stopped.
    pub line: u32,
    /// 1-based column (in characters) where reading stopped.
    pub column: u32,
}

impl Node {
    /// The object's members, when it is one.
    pub fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The array's items, when it is one.
    pub fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(v) => Some(v),
            _ => None,
        }
    }

    /// The string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.kind {
            Kind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as a float, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match &self.kind {
            Kind::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The last member named `key` (JSON.parse semantics: the last duplicate wins).
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.members()?.iter().rev().find(|m| m.key == key)
    }

    /// The object's members with only the last of each key, in the order `Object.entries`
    /// gives them (first appearance of each key); empty when it is not an object.
    pub fn entries(&self) -> Vec<&Member> {
        let Some(members) = self.members() else { return Vec::new() };
        let mut out: Vec<&Member> = Vec::new();
        for m in members {
            if let Some(slot) = out.iter_mut().find(|o| o.key == m.key) {
                *slot = m;
            } else {
                out.push(m);
            }
        }
        out
    }

    /// The members whose key an earlier member of this object already has (the later
    /// occurrences, in document order); empty when it is not an object.
    pub fn duplicate_keys(&self) -> Vec<&Member> {
        let members = self.members().unwrap_or_default();
        let mut seen = std::collections::HashSet::with_capacity(members.len());
        members.iter().filter(|m| !seen.insert(m.key.as_str())).collect()
    }

    /// A short name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::String(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }

    /// The value as `serde_json`'s type (the last duplicate key wins).
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number(n) => Value::Number(n.clone()),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Array(v) => Value::Array(v.iter().map(Node::to_value).collect()),
            Kind::Object(members) => {
                let mut map = Map::new();
                for m in members {
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

/// Parses one JSON document as [`Dialect::Strict`] reads it: RFC 8259, a leading UTF-8 byte
/// order mark skipped, nesting capped at [`MAX_DEPTH`], this crate's messages.
pub fn parse(bytes: &[u8]) -> Result<Node, SyntaxError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Err(e) = std::str::from_utf8(bytes) {
        let mut r = Reader::new(bytes, bytes, Rules::STRICT);
        while r.pos < e.valid_up_to() {
            r.bump();
        }
        return Err(r.error("the file is not valid UTF-8"));
    }
    Reader::new(bytes, bytes, Rules::STRICT).document()
}

/// What the reader accepts beyond RFC 8259's grammar, which it always checks.
#[derive(Debug, Clone, Copy)]
struct Rules {
    /// The deepest nesting accepted.
    max_depth: usize,
    /// A number too large for `f64` reads as `null` (the caller's checker accepted it, as
    /// `JSON.parse` does, reading `Infinity`) instead of being an error.
    big_numbers_are_null: bool,
}

impl Rules {
    const STRICT: Rules = Rules { max_depth: MAX_DEPTH, big_numbers_are_null: false };
}

struct Reader<'a> {
    /// The bytes parsed.
    bytes: &'a [u8],
    /// The bytes columns are counted in: the original text when comments were blanked (as
    /// long as `bytes`, with the same line breaks).
    shown: &'a [u8],
    pos: usize,
    line: u32,
    column: u32,
    rules: Rules,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], shown: &'a [u8], rules: Rules) -> Reader<'a> {
        Reader { bytes, shown, pos: 0, line: 1, column: 1, rules }
    }

    /// The one value of the whole input, surrounded by whitespace only.
    fn document(mut self) -> Result<Node, SyntaxError> {
        self.skip_ws();
        let node = self.value(0)?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return Err(self.error("unexpected text after the JSON value"));
        }
        Ok(node)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Moves one byte forward, keeping line and character column.
    fn bump(&mut self) {
        let Some(b) = self.peek() else { return };
        let shown = self.shown.get(self.pos).copied().unwrap_or(b);
        self.pos += 1;
        if b == b'\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else if shown & 0xC0 != 0x80 {
            // Count characters, not bytes: continuation bytes do not move the column.
            self.column = self.column.saturating_add(1);
        }
    }

    fn error(&self, message: &str) -> SyntaxError {
        SyntaxError { message: message.to_owned(), line: self.line, column: self.column }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    fn expect_word(&mut self, word: &[u8]) -> Result<(), SyntaxError> {
        if self.bytes.get(self.pos..self.pos + word.len()) == Some(word) {
            for _ in 0..word.len() {
                self.bump();
            }
            Ok(())
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if depth > self.rules.max_depth {
            return Err(self.error("the document is nested too deeply"));
        }
        let (line, column, start) = (self.line, self.column, self.pos);
        let kind = match self.peek() {
            None => return Err(self.error("unexpected end of the document")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => {
                self.expect_word(b"true")?;
                Kind::Bool(true)
            }
            Some(b'f') => {
                self.expect_word(b"false")?;
                Kind::Bool(false)
            }
            Some(b'n') => {
                self.expect_word(b"null")?;
                Kind::Null
            }
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.error("expected a JSON value")),
        };
        Ok(Node { kind, line, column, start, end: self.pos })
    }

    fn object(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.bump();
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.bump();
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key"));
            }
            let (line, column) = (self.line, self.column);
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:` after the key"));
            }
            self.bump();
            self.skip_ws();
            let value = self.value(depth + 1)?;
            members.push(Member { key, line, column, value });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b'}') => {
                    self.bump();
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.bump();
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.bump();
            return Ok(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b']') => {
                    self.bump();
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => u32::from(b - b'0'),
                Some(b @ b'a'..=b'f') => u32::from(b - b'a' + 10),
                Some(b @ b'A'..=b'F') => u32::from(b - b'A' + 10),
                _ => return Err(self.error("expected four hex digits after `\\u`")),
            };
            v = v * 16 + d;
            self.bump();
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.bump();
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.bump();
                    // The input is valid UTF-8 and escapes produce valid UTF-8.
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                Some(b'\\') => {
                    self.bump();
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.bump();
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u")
                            {
                                let save = (self.pos, self.line, self.column);
                                self.bump();
                                self.bump();
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    (self.pos, self.line, self.column) = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // A lone surrogate (valid in JavaScript strings) becomes U+FFFD.
                            let c = c.unwrap_or('\u{FFFD}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => return Err(self.error("invalid escape sequence")),
                    };
                    self.bump();
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(b) if b < 0x20 => {
                    return Err(self.error("control character inside a string"));
                }
                Some(b) => {
                    out.push(b);
                    self.bump();
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let mut n = 0;
        while let Some(b'0'..=b'9') = self.peek() {
            self.bump();
            n += 1;
        }
        n
    }

    fn number(&mut self) -> Result<Kind, SyntaxError> {
        let (start, line, column) = (self.pos, self.line, self.column);
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => self.bump(),
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.bump();
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        let text = std::str::from_utf8(self.bytes.get(start..self.pos).unwrap_or_default())
            .unwrap_or_default();
        match serde_json::from_str::<Number>(text) {
            Ok(n) => Ok(Kind::Number(n)),
            Err(_) if self.rules.big_numbers_are_null => Ok(Kind::Null),
            Err(_) => Err(SyntaxError { message: "number out of range".to_owned(), line, column }),
        }
    }
}

#[cfg(test)]
mod tests;
