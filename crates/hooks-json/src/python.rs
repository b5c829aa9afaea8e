//! Python's `json.loads` (CPython 3.13's C scanner, which Chrys reads its JSON hook files
//! with): `NaN`, `Infinity` and `-Infinity` are values, integers are unbounded up to Python's
//! digit limit, a duplicate key keeps the first key's place and the last value (read the
//! object with [`Node::entries`]), and a refusal is worded as `json.JSONDecodeError` words it,
//! with its line, column and character offset.
//!
//! ```
//! let root = hooks_json::python_loads("{\"a\": NaN, \"b\": 123456789012345678901234567890}")
//!     .unwrap();
//! assert!(matches!(&root.get("a").unwrap().value.kind, hooks_json::Kind::NumberText(t) if t == "NaN"));
//! let e = hooks_json::python_loads("[1,]").unwrap_err();
//! assert_eq!(e.to_string(), "Illegal trailing comma before end of array: line 1 column 3 (char 2)");
//! ```

use crate::{
    Node,
    reader::{Fault, Pos, Reader, Rules, Stop},
};

/// The most decimal digits Python converts to an integer (`sys.get_int_max_str_digits()`'s
/// default); a longer integer fails with its `ValueError`.
pub const PYTHON_INT_MAX_DIGITS: usize = 4300;

/// The deepest nesting of arrays and objects [`python_loads`] reads. CPython 3.13 stops near
/// 10 000 levels (its C recursion limit, less what its caller used) and 3.14 where its stack
/// ends; this reader recurses, so it stops at a depth every thread's stack holds, with an
/// error of its own (`specs/formats/chrys.md`, deviations).
pub const PYTHON_MAX_DEPTH: usize = 200;

/// Why [`python_loads`] refused a text: the `str()` of the exception Python raises.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PythonError {
    /// `json.JSONDecodeError`.
    #[error("{message}: line {line} column {column} (char {offset})")]
    Decode {
        /// Python's message (`Expecting value`, `Extra data`, …).
        message: &'static str,
        /// 1-based line.
        line: u32,
        /// 1-based column, in characters.
        column: u32,
        /// 0-based offset in characters.
        offset: usize,
    },
    /// Nesting deeper than [`PYTHON_MAX_DEPTH`] (ours: see there).
    #[error("nesting deeper than {limit} levels: line {line} column {column} (char {offset})")]
    TooDeep {
        /// [`PYTHON_MAX_DEPTH`].
        limit: usize,
        /// 1-based line of the container that is one too many.
        line: u32,
        /// 1-based column, in characters.
        column: u32,
        /// 0-based offset in characters.
        offset: usize,
    },
    /// The `ValueError` of `int()` for an integer longer than [`PYTHON_INT_MAX_DIGITS`].
    #[error(
        "Exceeds the limit ({PYTHON_INT_MAX_DIGITS} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
    )]
    IntTooLong {
        /// The integer's digits.
        digits: usize,
        /// 1-based line of the integer (Python's message has no position).
        line: u32,
        /// 1-based column, in characters.
        column: u32,
    },
}

impl PythonError {
    /// The 1-based line and column the error is about.
    pub fn position(&self) -> (u32, u32) {
        match *self {
            PythonError::Decode { line, column, .. }
            | PythonError::TooDeep { line, column, .. }
            | PythonError::IntTooLong { line, column, .. } => (line, column),
        }
    }
}

/// Reads `text` as Python's `json.loads(text)` does (see the module docs). Numbers are
/// [`Kind::NumberText`](crate::Kind::NumberText), as written.
pub fn python_loads(text: &str) -> Result<Node, PythonError> {
    let at_start = Pos { line: 1, column: 1, byte: 0 };
    if text.starts_with('\u{feff}') {
        return Err(decode("Unexpected UTF-8 BOM (decode using utf-8-sig)", at_start, text));
    }
    let rules = Rules { max_depth: PYTHON_MAX_DEPTH, big_numbers_are_null: false, python: true };
    Reader::new(text.as_bytes(), text.as_bytes(), rules).document().map_err(|stop| word(stop, text))
}

fn decode(message: &'static str, at: Pos, text: &str) -> PythonError {
    PythonError::Decode { message, line: at.line, column: at.column, offset: offset(text, at) }
}

/// Python counts positions in characters.
fn offset(text: &str, at: Pos) -> usize {
    text.get(..at.byte).map_or(0, |s| s.chars().count())
}

/// Python's wording, at the place Python names.
fn word(stop: Stop, text: &str) -> PythonError {
    let Stop { fault, at } = stop;
    let (message, at) = match fault {
        Fault::ExtraData => ("Extra data", at),
        Fault::EndOfInput | Fault::ExpectedValue | Fault::InvalidNumber => ("Expecting value", at),
        Fault::ExpectedKey => ("Expecting property name enclosed in double quotes", at),
        Fault::ExpectedColon => ("Expecting ':' delimiter", at),
        Fault::ExpectedComma { .. } => ("Expecting ',' delimiter", at),
        Fault::TrailingComma { object: true, comma } => {
            ("Illegal trailing comma before end of object", comma)
        }
        Fault::TrailingComma { object: false, comma } => {
            ("Illegal trailing comma before end of array", comma)
        }
        Fault::Unterminated { open } => ("Unterminated string starting at", open),
        Fault::InvalidEscape { backslash } => ("Invalid \\escape", backslash),
        Fault::InvalidUnicodeEscape { u } => ("Invalid \\uXXXX escape", u),
        Fault::ControlCharacter => ("Invalid control character at", at),
        // Not produced for text (a `&str`) or under Python's rules; worded as a failed value.
        Fault::NotUtf8 | Fault::NumberOutOfRange { .. } => ("Expecting value", at),
        Fault::TooDeep => {
            return PythonError::TooDeep {
                limit: PYTHON_MAX_DEPTH,
                line: at.line,
                column: at.column,
                offset: offset(text, at),
            };
        }
        Fault::IntTooLong { digits, start } => {
            return PythonError::IntTooLong { digits, line: start.line, column: start.column };
        }
    };
    decode(message, at, text)
}

#[cfg(test)]
mod tests;
