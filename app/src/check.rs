//! `hooks check`: validate hook files in any supported format.

pub mod runnable;

use std::path::Path;

use hooks_schema::{HookDefinition, HookDiagnostic, ParseResult, Severity, WireFormat};
use serde_json::{Value, json};

/// The format to read a file as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatChoice {
    /// Decide from the file's name and content.
    Auto,
    /// A fixed format.
    Fixed(WireFormat),
}

/// The result of checking one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The file as named on the command line.
    pub path: String,
    /// The format it was read as.
    pub format: WireFormat,
    /// The definitions, when the file parsed.
    pub hooks: Vec<HookDefinition>,
    /// Everything found, errors first in file order.
    pub diagnostics: Vec<HookDiagnostic>,
}

impl FileReport {
    /// Whether the file has no error (warnings allowed).
    pub fn ok(&self) -> bool {
        !self.diagnostics.iter().any(HookDiagnostic::is_error)
    }

    /// The machine-readable form.
    pub fn to_json(&self) -> Value {
        json!({
            "path": self.path,
            "format": self.format.as_str(),
            "ok": self.ok(),
            "hooks": self.hooks.iter().map(|d| crate::serve::render::hook(d, false)).collect::<Vec<_>>(),
            "diagnostics": self.diagnostics.iter().map(|d| json!({
                "severity": d.severity.as_str(),
                "message": d.message,
                "line": d.line,
                "column": d.column,
                "code": d.code,
                "hook_id": d.hook_id,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Decides a file's format from its name, then from its content.
pub fn detect_format(path: &Path, bytes: &[u8]) -> WireFormat {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let in_dir = |d: &str| path.components().any(|c| c.as_os_str() == d);
    if name.ends_with(".yaml") || name.ends_with(".yml") || in_dir(".chrys") {
        return WireFormat::Chrys;
    }
    if name.starts_with("settings") || name.contains("managed-settings") || in_dir(".claude") {
        return WireFormat::Claude;
    }
    if in_dir(".cursor") {
        return WireFormat::Cursor;
    }
    // By content: Chrys keeps a list of hooks, Cursor a map of camelCase events, Claude a
    // map of PascalCase events.
    let text = String::from_utf8_lossy(bytes);
    match serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}')) {
        Ok(v) => match v.get("hooks") {
            Some(Value::Array(_)) => WireFormat::Chrys,
            Some(Value::Object(m))
                if m.keys()
                    .next()
                    .is_some_and(|k| k.starts_with(|c: char| c.is_ascii_uppercase())) =>
            {
                WireFormat::Claude
            }
            _ => WireFormat::Cursor,
        },
        Err(_) => WireFormat::Cursor,
    }
}

/// Parses `bytes` as `format`.
pub fn parse_as(format: WireFormat, bytes: &[u8], path: &Path) -> ParseResult {
    match format {
        WireFormat::Cursor => hooks_format_cursor::parse(bytes, path),
        WireFormat::Chrys => hooks_format_chrys::parse(bytes, path),
        WireFormat::Claude => {
            hooks_format_claude::parse(bytes, path, hooks_format_claude::ClaudeMode::Default)
        }
    }
}

/// Checks one file already read into memory.
pub fn check_bytes(display: &str, path: &Path, bytes: &[u8], choice: FormatChoice) -> FileReport {
    let format = match choice {
        FormatChoice::Auto => detect_format(path, bytes),
        FormatChoice::Fixed(f) => f,
    };
    let (hooks, mut diagnostics) = if format == WireFormat::Chrys && is_chrys_settings(path) {
        (Vec::new(), check_chrys_settings(bytes, path))
    } else {
        match parse_as(format, bytes, path) {
            Ok(p) => (p.definitions, p.diagnostics),
            Err(d) => (Vec::new(), d),
        }
    };
    diagnostics.sort_by_key(|d| (d.severity != Severity::Error, d.line));
    FileReport { path: display.to_owned(), format, hooks, diagnostics }
}

/// Checks one file already read into memory, then what its enabled hooks would run
/// ([`runnable::runnable_diagnostics`]: a missing or non-executable script, a program not on
/// `PATH`, as warnings).
pub fn check_file(
    display: &str,
    path: &Path,
    bytes: &[u8],
    choice: FormatChoice,
    ctx: &runnable::RunnableContext,
) -> FileReport {
    let mut report = check_bytes(display, path, bytes, choice);
    let found = runnable::runnable_diagnostics(report.format, path, &report.hooks, ctx);
    if !found.is_empty() {
        report.diagnostics.extend(found);
        report.diagnostics.sort_by_key(|d| (d.severity != Severity::Error, d.line));
    }
    report
}

/// Whether a file read as Chrys is the user's settings document rather than a hooks file:
/// Chrys names its hooks files `hooks.{yaml,yml,json}`, never `settings.yaml`.
fn is_chrys_settings(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == hooks_format_chrys::USER_SETTINGS_FILE)
}

/// Checks a Chrys settings document for the one setting the engine reads from it,
/// `project.hooks_enabled`: its diagnostics, then what it sets, as an info line.
fn check_chrys_settings(bytes: &[u8], path: &Path) -> Vec<HookDiagnostic> {
    let settings = hooks_format_chrys::parse_user_settings(bytes, path);
    let key = hooks_format_chrys::PROJECT_HOOKS_ENABLED_KEY;
    let said = match settings.project_hooks_enabled {
        Some(true) => format!("{key} is on: project Chrys hooks may run on interactive surfaces"),
        Some(false) => format!("{key} is off"),
        None => format!("{key} is not set (off)"),
    };
    let mut out = settings.diagnostics;
    out.push(
        HookDiagnostic::info(format!(
            "{said} (only the user's own settings file counts; a project's is never read for it)"
        ))
        .in_file(path)
        .with_code("project_hooks_setting"),
    );
    out
}

#[cfg(test)]
mod tests;
