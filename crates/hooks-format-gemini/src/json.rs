//! Reads a settings document exactly as Gemini CLI accepts it, keeping the line and column
//! of every key and value.
//!
//! Gemini CLI reads settings files as UTF-8 (invalid bytes become U+FFFD), removes comments
//! with `strip-json-comments` (each comment character that is not whitespace becomes a
//! space) and hands the rest to `JSON.parse`. This module does the same three steps:
//! [`strip_comments`] reproduces the comment stripper, quirks included (a `//` comment ends
//! only at `\n`; an unterminated `/*` comment runs to the end of the file; a byte order mark
//! is not removed, so `JSON.parse` rejects the file), `serde_json` decides validity as
//! `JSON.parse` does (strict RFC 8259, no trailing commas), and `jsonc-parser`, with every
//! extension off, gives the positions. Stripping keeps byte offsets, so positions are those
//! of the original file.
//!
//! Known difference: `JSON.parse` accepts an escaped lone surrogate (`"\ud800"`) and
//! nesting deeper than 128 levels; this reader rejects both.

use serde_json::Value;

use crate::js::is_js_space;

/// A parsed value with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    /// 1-based line of its first character.
    pub(crate) line: u32,
    /// 1-based column (in characters) of its first character.
    pub(crate) column: u32,
}

/// The shape of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// One `"key": value` pair, in document order (duplicates kept; the last one counts).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    pub(crate) key: String,
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) value: Node,
}

/// Why a document is not what `JSON.parse` accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) message: String,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Node {
    pub(crate) fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(m) => Some(m),
            _ => None,
        }
    }

    pub(crate) fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(v) => Some(v),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The last member named `key` (`JSON.parse`: the last duplicate wins).
    pub(crate) fn get(&self, key: &str) -> Option<&Member> {
        self.members()?.iter().rev().find(|m| m.key == key)
    }

    /// The object's members with only the last of each key, in the order
    /// `Object.entries` gives them (first appearance of each key).
    pub(crate) fn entries(&self) -> Vec<&Member> {
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

    pub(crate) fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::String(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }

    pub(crate) fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number(n) => Value::Number(n.clone()),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Array(v) => Value::Array(v.iter().map(Node::to_value).collect()),
            Kind::Object(members) => {
                let mut map = serde_json::Map::new();
                for m in members {
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

/// `strip-json-comments` with its default options: comment characters that are not
/// whitespace become spaces (as many as the character has UTF-8 bytes, so byte offsets are
/// kept), strings are left alone, and a `"` preceded by an odd number of backslashes does
/// not open or close a string.
pub(crate) fn strip_comments(text: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        Code,
        Line,
        Block,
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut in_string = false;
    let blank = |out: &mut String, c: char| {
        if is_js_space(c) {
            out.push(c);
        } else {
            for _ in 0..c.len_utf8() {
                out.push(' ');
            }
        }
    };
    let mut i = 0;
    while let Some(&(_, c)) = chars.get(i) {
        let next = chars.get(i + 1).map(|&(_, n)| n);
        if state == State::Code && c == '"' {
            let backslashes = chars
                .get(..i)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|&&(_, b)| b == '\\')
                .count();
            if backslashes % 2 == 0 {
                in_string = !in_string;
            }
        }
        if in_string {
            out.push(c);
            i += 1;
            continue;
        }
        match state {
            State::Code if c == '/' && next == Some('/') => {
                state = State::Line;
                out.push_str("  ");
                i += 2;
            }
            State::Code if c == '/' && next == Some('*') => {
                state = State::Block;
                out.push_str("  ");
                i += 2;
            }
            State::Code => {
                out.push(c);
                i += 1;
            }
            State::Line if c == '\r' && next == Some('\n') => {
                state = State::Code;
                out.push_str("\r\n");
                i += 2;
            }
            State::Line if c == '\n' => {
                state = State::Code;
                out.push('\n');
                i += 1;
            }
            State::Block if c == '*' && next == Some('/') => {
                state = State::Code;
                out.push_str("  ");
                i += 2;
            }
            State::Line | State::Block => {
                blank(&mut out, c);
                i += 1;
            }
        }
    }
    out
}

/// Line starts of `text`, for positions.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    fn at(&self, offset: usize) -> (u32, u32) {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column =
            self.text.get(start..offset.min(self.text.len())).map_or(1, |s| s.chars().count() + 1);
        (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX))
    }

    /// The byte offset of 1-based `line` and 1-based byte `column`.
    fn offset(&self, line: usize, column: usize) -> usize {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        (start + column.saturating_sub(1)).min(self.text.len())
    }
}

/// Parses one settings document (already decoded) as Gemini CLI does.
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    let stripped = strip_comments(text);
    let lines = Lines::new(text);
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&stripped) {
        // serde_json counts the column in bytes; report it in characters.
        let off = lines.offset(e.line(), e.column());
        let (line, column) = lines.at(off);
        let message = e.to_string();
        let message =
            message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m).to_owned();
        return Err(SyntaxError { message, line, column });
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed =
        jsonc_parser::parse_to_ast(&stripped, &Default::default(), &options).map_err(|e| {
            let (line, column) = lines.at(e.range().start);
            SyntaxError { message: e.kind().to_string(), line, column }
        })?;
    let Some(value) = parsed.value else {
        return Err(SyntaxError {
            message: "the file holds no JSON value".to_owned(),
            line: 1,
            column: 1,
        });
    };
    Ok(convert(&value, &lines))
}

fn convert(v: &jsonc_parser::ast::Value<'_>, lines: &Lines<'_>) -> Node {
    use jsonc_parser::{ast::Value as V, common::Ranged};
    let (line, column) = lines.at(v.start());
    let kind = match v {
        V::NullKeyword(_) => Kind::Null,
        V::BooleanLit(b) => Kind::Bool(b.value),
        V::NumberLit(n) => match serde_json::from_str::<Value>(n.value) {
            Ok(Value::Number(num)) => Kind::Number(num),
            // serde_json already accepted the document; a number it reads otherwise is one
            // too large for f64, which JSON.parse reads as Infinity.
            _ => Kind::Null,
        },
        V::StringLit(s) => Kind::String(s.value.to_string()),
        V::Array(a) => Kind::Array(a.elements.iter().map(|e| convert(e, lines)).collect()),
        V::Object(o) => Kind::Object(
            o.properties
                .iter()
                .map(|p| {
                    let (line, column) = lines.at(p.range.start);
                    let key = match &p.name {
                        jsonc_parser::ast::ObjectPropName::String(s) => s.value.to_string(),
                        jsonc_parser::ast::ObjectPropName::Word(w) => w.value.to_owned(),
                    };
                    Member { key, line, column, value: convert(&p.value, lines) }
                })
                .collect(),
        ),
    };
    Node { kind, line, column }
}

#[cfg(test)]
mod tests;
