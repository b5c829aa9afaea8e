//! Reads a Windsurf hook file as strict JSON, keeping the line and column of every key and
//! value.
//!
//! Windsurf's reader is not documented. This adapter reads hook files as RFC 8259 JSON with
//! `serde_json` (no comments, no trailing commas, no byte order mark; an empty file is
//! refused; the last of a duplicated key wins), which `specs/formats/windsurf.md` lists as an
//! assumption; `jsonc-parser`, with every extension off, gives the positions.

use serde_json::Value;

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

/// Why a document is not what serde_json accepts.
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

    /// The last member named `key` (`serde_json`: the last duplicate wins).
    pub(crate) fn get(&self, key: &str) -> Option<&Member> {
        self.members()?.iter().rev().find(|m| m.key == key)
    }

    /// The object's members with only the last of each key, in the order
    /// they first appear in.
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

    #[cfg(test)]
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

/// Parses one hook document.
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    let stripped = text;
    let lines = Lines::new(text);
    if let Err(e) = serde_json::from_str::<Value>(stripped) {
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
        jsonc_parser::parse_to_ast(stripped, &Default::default(), &options).map_err(|e| {
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
