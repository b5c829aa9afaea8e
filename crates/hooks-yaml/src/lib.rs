//! The one YAML event reader of the format adapters: saphyr-parser's events of a text, with
//! their positions, behind one non-generic iterator.
//!
//! saphyr-parser's `Parser` is generic over its input, so every crate that iterates it gets a
//! copy of the scanner and the parser (about 80 KiB of code each) in the binary. The adapters
//! that read YAML (Chrys's hook files, the front matter of Claude Code's subagents and skills)
//! iterate [`Events`] instead, whose [`Iterator::next`] is compiled here, once. Each adapter
//! resolves the events with its own agent's rules (PyYAML's YAML 1.1 for Chrys, the YAML 1.2
//! core schema for Claude Code); this crate only reads.
//!
//! Positions are saphyr-parser's: [`Marker::index`] counts characters, not bytes; lines count
//! from 1 and columns from 0.
//!
//! ```
//! use hooks_yaml::{Event, Events};
//!
//! let scalars: Vec<(String, usize)> = Events::new("hooks:\n  - id: gate\n")
//!     .filter_map(|item| match item {
//!         Ok((Event::Scalar(value, ..), span)) => Some((value.into_owned(), span.start.line())),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(scalars, [("hooks".into(), 1), ("id".into(), 2), ("gate".into(), 2)]);
//! ```
#![warn(missing_docs)]

pub use saphyr_parser::{Event, Marker, ScalarStyle, ScanError, Span, Tag};
use saphyr_parser::{Parser, StrInput};

/// The events of one YAML text, in order, each with its span, up to the first syntax error:
/// an `Err` is the last item. (saphyr-parser's own iterator goes on after some errors and
/// repeats others forever; a reader that collected it would never return.)
pub struct Events<'a> {
    parser: Parser<'a, StrInput<'a>>,
    failed: bool,
}

impl<'a> Events<'a> {
    /// The events of `text` (the whole stream: every document).
    pub fn new(text: &'a str) -> Events<'a> {
        Events { parser: Parser::new_from_str(text), failed: false }
    }
}

impl std::fmt::Debug for Events<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // saphyr-parser's input type has no `Debug`.
        f.debug_struct("Events").field("failed", &self.failed).finish_non_exhaustive()
    }
}

impl<'a> Iterator for Events<'a> {
    type Item = Result<(Event<'a>, Span), ScanError>;

    // Not inlined into the adapters: this call is where the parser is instantiated, once.
    #[inline(never)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let item = self.parser.next();
        self.failed = matches!(item, Some(Err(_)));
        item
    }
}

#[cfg(test)]
mod tests;
