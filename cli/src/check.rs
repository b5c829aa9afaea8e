//! `hooks check`: validate hook files in any supported format.

pub mod runnable;

use std::path::Path;

use hooks_schema::{
    Claim, FormatId, FormatSet, HookDefinition, HookDiagnostic, HookSourceKind, ParseContext,
    ParseResult, Severity,
};
use serde_json::{Value, json};

/// The format to read a file as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatChoice {
    /// Decide from the file's name and content.
    Auto,
    /// A fixed format.
    Fixed(FormatId),
}

/// The result of checking one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The file as named on the command line.
    pub path: String,
    /// The format it was read as; `None` when no registered format reads it.
    pub format: Option<FormatId>,
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

    /// The machine-readable form, without the values diagnostics quote.
    pub fn to_json(&self) -> Value {
        self.to_json_revealed(false)
    }

    /// The machine-readable form; with `reveal`, diagnostics quote the values they are about
    /// and matchers show Claude `if` rules.
    pub fn to_json_revealed(&self, reveal: bool) -> Value {
        json!({
            "path": self.path,
            "format": self.format.map(FormatId::as_str),
            "ok": self.ok(),
            "hooks": self.hooks.iter().map(|d| {
                let mut h = hooks_app::serve::render::hook(d, false);
                h["matcher"] = json!(d.matcher.shown(reveal));
                h
            }).collect::<Vec<_>>(),
            "diagnostics": self.diagnostics.iter().map(|d| json!({
                "severity": d.severity.as_str(),
                "message": d.text(reveal),
                "line": d.line,
                "column": d.column,
                "code": d.code,
                "hook_id": d.hook_id,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Decides a file's format from its name (a claim stronger than the fallback), then from
/// its content.
pub fn detect_format(formats: &FormatSet, path: &Path, bytes: &[u8]) -> Option<FormatId> {
    match formats.claim_for_file(path) {
        Some((claim, f)) if claim > Claim::Fallback => Some(f.id()),
        _ => formats.format_for_content(bytes).map(|f| f.id()),
    }
}

/// Parses `bytes` as `format`, as a file named directly (an explicit source) would be.
pub fn parse_as(formats: &FormatSet, format: FormatId, bytes: &[u8], path: &Path) -> ParseResult {
    match formats.get(format) {
        Some(f) => {
            let kind = HookSourceKind::RUN_DELIVERED.in_format(format);
            f.parse(bytes, &ParseContext::new(path, kind))
        }
        None => Err(vec![
            HookDiagnostic::error(format!("format `{format}` is not registered")).in_file(path),
        ]),
    }
}

/// Checks one file already read into memory.
pub fn check_bytes(
    formats: &FormatSet,
    display: &str,
    path: &Path,
    bytes: &[u8],
    choice: FormatChoice,
) -> FileReport {
    let format = match choice {
        FormatChoice::Auto => detect_format(formats, path, bytes),
        FormatChoice::Fixed(f) => Some(f),
    };
    let Some(format) = format else {
        let d = HookDiagnostic::error("no registered format reads this file").in_file(path);
        return FileReport {
            path: display.to_owned(),
            format: None,
            hooks: Vec::new(),
            diagnostics: vec![d],
        };
    };
    let (hooks, mut diagnostics) =
        if format == hooks_format_chrys::FORMAT && is_chrys_settings(path) {
            (Vec::new(), check_chrys_settings(bytes, path))
        } else {
            match parse_as(formats, format, bytes, path) {
                Ok(p) => (p.definitions, p.diagnostics),
                Err(d) => (Vec::new(), d),
            }
        };
    diagnostics.sort_by_key(|d| (d.severity != Severity::Error, d.line));
    FileReport { path: display.to_owned(), format: Some(format), hooks, diagnostics }
}

/// Checks one file already read into memory, then what its enabled hooks would run
/// ([`runnable::runnable_diagnostics`]: a missing or non-executable script, a program not on
/// `PATH`, as warnings).
pub fn check_file(
    formats: &FormatSet,
    display: &str,
    path: &Path,
    bytes: &[u8],
    choice: FormatChoice,
    ctx: &runnable::RunnableContext,
) -> FileReport {
    let mut report = check_bytes(formats, display, path, bytes, choice);
    let Some(format) = report.format.and_then(|f| formats.get(f)) else { return report };
    let found = runnable::runnable_diagnostics(&**format, path, &report.hooks, ctx);
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
