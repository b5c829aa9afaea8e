//! Diagnostics: what parsing, loading and activating hook files found, with location.

use std::{fmt, path::PathBuf};

use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something did not load or will not run.
    Error,
    /// Something loaded differently from what the author may expect.
    Warning,
    /// For the record.
    Info,
}

impl Severity {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about a hook file or definition.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct HookDiagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// Lowercase, no trailing period (except where a format's own message is reproduced).
    pub message: String,
    /// The file it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<PathBuf>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// A stable machine-readable code (`capability_gap`, `unknown_key`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The hook it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_id: Option<String>,
    /// The message with the values it quotes, when `message` leaves them out (a mistyped
    /// value, an `if` rule: see [`quoted_value`]). Shown only when the user asks to reveal
    /// values (`--reveal`); never serialized.
    /// (Boxed: the diagnostic travels in `Result`s and stays small.)
    #[serde(skip)]
    pub detail: Option<Box<String>>,
}

/// Marks the start, the end of the kind and the end of a value quoted with [`quoted_value`].
const QUOTE_OPEN: char = '\u{e000}';
const QUOTE_KIND: char = '\u{e001}';
const QUOTE_CLOSE: char = '\u{e002}';

/// Quotes a value from a hook file in a diagnostic message, so that the message names only
/// `kind` (the value's type, or what it is: `str`, "a string", "`if` rule") unless the user
/// asks to reveal values: [`HookDiagnostic::new`] turns a message holding quoted values into
/// `message` with `<kind>` in their place and `detail` with the values.
///
/// ```
/// use hooks_schema::{HookDiagnostic, quoted_value};
///
/// let d = HookDiagnostic::error(format!("mode must be blocking, got {}", quoted_value("str", "'tok3n'")));
/// assert_eq!(d.message, "mode must be blocking, got <str>");
/// assert_eq!(d.text(true), "mode must be blocking, got 'tok3n'");
/// assert_eq!(d.text(true), "mode must be blocking, got 'tok3n'");
/// ```
pub fn quoted_value(kind: &str, value: &str) -> String {
    let clean = |s: &str| s.replace([QUOTE_OPEN, QUOTE_KIND, QUOTE_CLOSE], "\u{fffd}");
    format!("{QUOTE_OPEN}{}{QUOTE_KIND}{}{QUOTE_CLOSE}", clean(kind), clean(value))
}

/// The message without and with the quoted values; `None` for the second when none is quoted.
pub(crate) fn split_quotes(text: &str) -> (String, Option<String>) {
    if !text.contains(QUOTE_OPEN) {
        return (text.to_owned(), None);
    }
    let mut shown = String::with_capacity(text.len());
    let mut full = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(QUOTE_OPEN) {
        shown.push_str(&rest[..open]);
        full.push_str(&rest[..open]);
        let after = &rest[open + QUOTE_OPEN.len_utf8()..];
        let (Some(k), Some(c)) = (after.find(QUOTE_KIND), after.find(QUOTE_CLOSE)) else {
            rest = after;
            continue;
        };
        if k > c {
            rest = after;
            continue;
        }
        shown.push('<');
        shown.push_str(&after[..k]);
        shown.push('>');
        full.push_str(&after[k + QUOTE_KIND.len_utf8()..c]);
        rest = &after[c + QUOTE_CLOSE.len_utf8()..];
    }
    shown.push_str(rest);
    full.push_str(rest);
    (shown, Some(full))
}

impl HookDiagnostic {
    /// A diagnostic with no location.
    ///
    /// Values quoted with [`quoted_value`] are left out of `message` and kept in `detail`.
    pub fn new(severity: Severity, message: impl Into<String>) -> HookDiagnostic {
        let (message, detail) = split_quotes(&message.into());
        let detail = detail.map(Box::new);
        HookDiagnostic {
            severity,
            message,
            source: None,
            line: None,
            column: None,
            code: None,
            hook_id: None,
            detail,
        }
    }

    /// The message to show: with the quoted values when `reveal`, else without them.
    pub fn text(&self, reveal: bool) -> &str {
        match &self.detail {
            Some(d) if reveal => d.as_str(),
            _ => &self.message,
        }
    }

    /// The diagnostic as shown when values are revealed (`detail` in place of `message`),
    /// or unchanged.
    #[must_use]
    pub fn revealed(mut self, reveal: bool) -> HookDiagnostic {
        if reveal && let Some(d) = self.detail.take() {
            self.message = *d;
        }
        self
    }

    /// An error.
    pub fn error(message: impl Into<String>) -> HookDiagnostic {
        HookDiagnostic::new(Severity::Error, message)
    }

    /// A warning.
    pub fn warning(message: impl Into<String>) -> HookDiagnostic {
        HookDiagnostic::new(Severity::Warning, message)
    }

    /// An info line.
    pub fn info(message: impl Into<String>) -> HookDiagnostic {
        HookDiagnostic::new(Severity::Info, message)
    }

    /// Sets line and column.
    #[must_use]
    pub fn at(mut self, line: u32, column: u32) -> HookDiagnostic {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Sets the file.
    #[must_use]
    pub fn in_file(mut self, path: impl Into<PathBuf>) -> HookDiagnostic {
        self.source = Some(path.into());
        self
    }

    /// Sets the code.
    #[must_use]
    pub fn with_code(mut self, code: impl Into<String>) -> HookDiagnostic {
        self.code = Some(code.into());
        self
    }

    /// Sets the hook id.
    #[must_use]
    pub fn for_hook(mut self, id: impl Into<String>) -> HookDiagnostic {
        self.hook_id = Some(id.into());
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `path:line:column: severity: message`, leaving out what is unknown.
impl fmt::Display for HookDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.source {
            write!(f, "{}:", p.display())?;
            if let Some(l) = self.line {
                write!(f, "{l}:")?;
                if let Some(c) = self.column {
                    write!(f, "{c}:")?;
                }
            }
            f.write_str(" ")?;
        } else if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        write!(f, "{}: {}", self.severity.as_str(), self.message)
    }
}

#[cfg(test)]
mod tests;
