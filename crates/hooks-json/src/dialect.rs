//! The JSON dialects of the agents: what each agent's own parser accepts and how it words a
//! refusal, with positions from this crate's one reader.
//!
//! [`Dialect::Strict`] is [`parse`](crate::parse) (Claude Code, Cursor). The other dialects
//! reproduce a parser the agent runs: `serde_json` itself decides whether a document is valid
//! and words the error (its column converted from bytes to characters), then the crate's
//! reader, told to accept what that checker accepted, gives the positions. Comments are
//! blanked before both steps, keeping byte offsets and line breaks, and columns are counted
//! in the original text, so every position is one of the file as written.
//!
//! ```
//! use hooks_json::{Dialect, parse_as};
//! let e = parse_as("{\"a\": [1,]}", Dialect::SerdeJson).unwrap_err();
//! assert_eq!((e.message.as_str(), e.column), ("trailing comma", 10));
//! let root = parse_as("{ /* é */ \"a\": 1 }", Dialect::JsonParseAfterStripComments).unwrap();
//! assert_eq!(root.get("a").unwrap().column, 11);
//! ```

use crate::{Node, Reader, Rules, Stop, SyntaxError};

/// How an agent reads its JSON files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// RFC 8259 with a leading byte order mark skipped, nesting capped at
    /// [`MAX_DEPTH`](crate::MAX_DEPTH), this crate's messages: [`parse`](crate::parse).
    Strict,
    /// Rust's `serde_json`, as Copilot CLI reads hook files: RFC 8259, no byte order mark,
    /// no comments, no trailing commas, an empty document refused, an escaped lone surrogate
    /// and a number too large for `f64` refused (the document is read into a value, as the
    /// agent reads it into its types); messages are `serde_json`'s without its
    /// ` at line L column C` tail.
    SerdeJson,
    /// Node's `JSON.parse` after `strip-json-comments` (default options), as Gemini CLI reads
    /// settings: comments blanked (see [`strip_comments`]), then strict RFC 8259 with no byte
    /// order mark and no trailing commas, an escaped lone surrogate kept (as U+FFFD), a number
    /// too large for `f64` read as `null` (`JSON.parse` gives `Infinity`). Validity and
    /// messages come from `serde_json`, which agrees with `JSON.parse` on acceptance except
    /// for nesting deeper than 127 levels, which it refuses.
    JsonParseAfterStripComments,
}

/// Parses `text` as `dialect` reads it.
pub fn parse_as(text: &str, dialect: Dialect) -> Result<Node, SyntaxError> {
    let stripped;
    let (parsed, checked) = match dialect {
        Dialect::Strict => return crate::parse(text.as_bytes()),
        // Read into a value, as the agent reads into its types: strings and numbers checked.
        Dialect::SerdeJson => (text, serde_json::from_str::<serde_json::Value>(text).map(drop)),
        // Syntax only: JSON.parse keeps lone surrogates and reads huge numbers as Infinity.
        Dialect::JsonParseAfterStripComments => {
            stripped = strip_comments(text);
            (stripped.as_str(), serde_json::from_str::<serde::de::IgnoredAny>(&stripped).map(drop))
        }
    };
    if let Err(e) = checked {
        // serde_json counts the column in bytes; report it in characters of the original.
        let lines = Lines::new(text);
        let (line, column) = lines.at(lines.offset(e.line(), e.column()));
        let message = e.to_string();
        let message =
            message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m).to_owned();
        return Err(SyntaxError { message, line, column });
    }
    // serde_json stops past 127 levels of nesting, so this depth is never what refuses.
    let rules = Rules { max_depth: SERDE_JSON_DEPTH, big_numbers_are_null: true, python: false };
    Reader::new(parsed.as_bytes(), text.as_bytes(), rules).document().map_err(Stop::strict)
}

/// Deeper than `serde_json` ever lets a document through.
const SERDE_JSON_DEPTH: usize = 128;

/// JavaScript's `WhiteSpace` and `LineTerminator` characters (what `String.prototype.trim`
/// removes, and what `strip-json-comments` keeps inside a comment).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `strip-json-comments` with its default options: comment characters that are not
/// whitespace become spaces (as many as the character has UTF-8 bytes, so byte offsets are
/// kept), strings are left alone, and a `"` preceded by an odd number of backslashes does
/// not open or close a string. Its quirks are kept: a `//` comment ends only at `\n` (a lone
/// `\r` does not end it), an unterminated `/*` comment runs to the end of the text, and a
/// byte order mark is not removed.
pub fn strip_comments(text: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        Code,
        Line,
        Block,
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut in_string = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if state == State::Code && c == '"' {
            let before = chars.get(..i).unwrap_or_default();
            let backslashes = before.iter().rev().take_while(|&&b| b == '\\').count();
            if backslashes % 2 == 0 {
                in_string = !in_string;
            }
        }
        let (text, step) = match state {
            _ if in_string => (Keep, 1),
            State::Code if c == '/' && next == Some('/') => {
                state = State::Line;
                (Blank, 2)
            }
            State::Code if c == '/' && next == Some('*') => {
                state = State::Block;
                (Blank, 2)
            }
            State::Code => (Keep, 1),
            State::Line if c == '\r' && next == Some('\n') => {
                state = State::Code;
                (Keep, 2)
            }
            State::Line if c == '\n' => {
                state = State::Code;
                (Keep, 1)
            }
            State::Block if c == '*' && next == Some('/') => {
                state = State::Code;
                (Blank, 2)
            }
            State::Line | State::Block if is_js_space(c) => (Keep, 1),
            State::Line | State::Block => (Blank, 1),
        };
        for &c in chars.get(i..i + step).unwrap_or_default() {
            match text {
                Keep => out.push(c),
                Blank => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
            }
        }
        i += step;
    }
    out
}

use Stripped::{Blank, Keep};

/// What [`strip_comments`] writes for a character.
#[derive(Clone, Copy)]
enum Stripped {
    Keep,
    Blank,
}

/// Line starts of a text, for turning `serde_json`'s byte positions into characters.
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

#[cfg(test)]
mod tests;
