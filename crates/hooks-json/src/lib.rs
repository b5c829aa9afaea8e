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
mod python;
mod reader;

pub use de::{At, Both, Checked, DeError, Entries, Field, Keyed, Pairs, from_node};
pub use dialect::{Dialect, is_js_space, parse_as, strip_comments};
pub use python::{PYTHON_INT_MAX_DIGITS, PYTHON_MAX_DEPTH, PythonError, python_loads};

use reader::{Fault, Reader, Rules, Stop};

/// Objects up to this many members are searched for a key by a scan; larger ones by a map.
const SMALL_OBJECT: usize = 16;

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
    /// A number kept as written, in the dialect whose numbers `serde_json` cannot hold
    /// ([`python_loads`]: unbounded integers, `NaN`, `Infinity`, `-Infinity`); the reader
    /// checked its grammar, the caller reads it as its language does.
    NumberText(String),
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

    /// Whether it is a string, or an array of strings only (an empty one included): a path
    /// or a list of paths, as plugin manifests name other files.
    ///
    /// ```
    /// let node = hooks_json::parse(br#"{"a": "x", "b": ["x", "y"], "c": ["x", 3], "d": true}"#).unwrap();
    /// let is = |k: &str| node.get(k).unwrap().value.is_string_or_strings();
    /// assert!(is("a") && is("b") && !is("c") && !is("d"));
    /// ```
    pub fn is_string_or_strings(&self) -> bool {
        match &self.kind {
            Kind::String(_) => true,
            Kind::Array(items) => items.iter().all(|i| matches!(i.kind, Kind::String(_))),
            _ => false,
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
            Kind::NumberText(t) => t.parse().ok(),
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
        let mut out: Vec<&Member> = Vec::with_capacity(members.len());
        if members.len() <= SMALL_OBJECT {
            for m in members {
                if let Some(slot) = out.iter_mut().find(|o| o.key == m.key) {
                    *slot = m;
                } else {
                    out.push(m);
                }
            }
            return out;
        }
        // A large object is indexed by key: a document of many keys stays linear to read.
        let mut at: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(members.len());
        for m in members {
            match at.get(m.key.as_str()) {
                Some(&i) => {
                    if let Some(slot) = out.get_mut(i) {
                        *slot = m;
                    }
                }
                None => {
                    at.insert(&m.key, out.len());
                    out.push(m);
                }
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
            Kind::Number(_) | Kind::NumberText(_) => "a number",
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
            // What serde_json makes of the text; null where it holds no such number.
            Kind::NumberText(t) => serde_json::from_str(t).unwrap_or(Value::Null),
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
        return Err(r.stop(Fault::NotUtf8).strict());
    }
    Reader::new(bytes, bytes, Rules::STRICT).document().map_err(Stop::strict)
}

#[cfg(test)]
mod tests;
