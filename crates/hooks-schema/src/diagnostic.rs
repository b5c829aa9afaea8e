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
}

impl HookDiagnostic {
    /// A diagnostic with no location.
    pub fn new(severity: Severity, message: impl Into<String>) -> HookDiagnostic {
        HookDiagnostic {
            severity,
            message: message.into(),
            source: None,
            line: None,
            column: None,
            code: None,
            hook_id: None,
        }
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
