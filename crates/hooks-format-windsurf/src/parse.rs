//! Reads a Windsurf `hooks.json` into hook definitions.
//!
//! Sans-IO: bytes in, definitions and diagnostics out; the path only names the file. The
//! documented shape is `{"hooks": {"<event>": [{"command": …, "show_output"?: bool,
//! "working_directory"?: …, "powershell"?: …}]}}`: flat lists, no matcher, no timeout, no
//! `type`. What Windsurf does with an invalid file is not documented; this adapter refuses a
//! document that is not a JSON object with a `hooks` object, and skips with a warning what
//! it cannot run (an entry without a `command`, an unknown event, a gap event).

use std::{path::Path, sync::Arc, time::Duration};

use hooks_json::{Kind, Node};
use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookId, OnFailure,
    ParseResult, ParsedSource, Severity,
};
use serde_json::{Map, Value};

use crate::{WindsurfCodec, events::WindsurfEvent, matcher};

/// The largest document read.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// Windsurf documents no hook timeout; the engine bounds every run by this one (the bound
/// Claude Code uses for tool events).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The shell a `command` runs with.
pub const SHELL: &str = "bash";

/// The `native` key set when `show_output` is true.
pub const NATIVE_SHOW_OUTPUT: &str = "show_output";

/// Keys of an entry Windsurf documents.
const ENTRY_KEYS: [&str; 4] = ["command", "powershell", "show_output", "working_directory"];

struct Reader<'a> {
    path: &'a Path,
    diagnostics: Vec<HookDiagnostic>,
    definitions: Vec<HookDefinition>,
    hook: Option<String>,
    order: u32,
}

/// Parses a Windsurf `hooks.json` (workspace, user or system).
///
/// ```
/// use std::path::Path;
/// let text = br#"{"hooks": {"pre_run_command": [{"command": "./check.sh", "show_output": true}]}}"#;
/// let parsed = hooks_format_windsurf::parse(text, Path::new("/repo/.windsurf/hooks.json")).unwrap();
/// assert_eq!(parsed.definitions[0].native_event, "pre_run_command");
/// ```
pub fn parse(bytes: &[u8], path: &Path) -> ParseResult {
    let mut r =
        Reader { path, diagnostics: Vec::new(), definitions: Vec::new(), hook: None, order: 0 };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        let msg = format!(
            "the file is {} bytes, above the cap of {MAX_DOCUMENT_BYTES} bytes",
            bytes.len()
        );
        r.note(Severity::Error, msg, "too_large", 1, 1);
        return Err(r.diagnostics);
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        r.note(
            Severity::Error,
            "invalid JSON: the file is not UTF-8".to_owned(),
            "invalid_json",
            1,
            1,
        );
        return Err(r.diagnostics);
    };
    let root = match hooks_json::parse_as(text, hooks_json::Dialect::SerdeJson) {
        Ok(root) => root,
        Err(e) => {
            r.note(
                Severity::Error,
                format!("invalid JSON: {}", e.message),
                "invalid_json",
                e.line,
                e.column,
            );
            return Err(r.diagnostics);
        }
    };
    if root.members().is_none() {
        let msg = format!("the file is {}, not a JSON object", root.type_name());
        r.note(Severity::Error, msg, "invalid_hooks", root.line, root.column);
        return Err(r.diagnostics);
    }
    for m in root.members().unwrap_or_default() {
        if m.key != "hooks" {
            let msg = format!("`{}` is not a Windsurf hook file key; it is ignored", m.key);
            r.note(Severity::Info, msg, "unknown_key", m.line, m.column);
        }
    }
    match root.get("hooks") {
        None => r.note(
            Severity::Info,
            "the file has no `hooks`".to_owned(),
            "no_hooks",
            root.line,
            root.column,
        ),
        Some(m) if m.value.members().is_none() => {
            let msg = format!("`hooks` is {}, not an object", m.value.type_name());
            r.note(Severity::Error, msg, "invalid_hooks", m.value.line, m.value.column);
            return Err(r.diagnostics);
        }
        Some(m) => r.hooks(&m.value),
    }
    Ok(ParsedSource {
        definitions: r.definitions,
        diagnostics: r.diagnostics,
        settings: Map::new(),
        policy: hooks_schema::SourcePolicy::default(),
    })
}

impl Reader<'_> {
    fn note(&mut self, severity: Severity, message: String, code: &str, line: u32, column: u32) {
        let d = HookDiagnostic::new(severity, message)
            .in_file(self.path)
            .at(line, column)
            .with_code(code);
        let d = match &self.hook {
            Some(id) => d.for_hook(id.clone()),
            None => d,
        };
        self.diagnostics.push(d);
    }

    fn hooks(&mut self, node: &Node) {
        for m in node.entries() {
            let Some(event) = WindsurfEvent::from_name(&m.key) else {
                let msg =
                    format!("`{}` is not a Windsurf hook event; its hooks are skipped", m.key);
                self.note(Severity::Warning, msg, "unknown_event", m.line, m.column);
                continue;
            };
            if event.canonical().is_none() {
                let msg = format!(
                    "event `{}` has no canonical counterpart in this engine; its hooks are skipped",
                    m.key
                );
                self.note(Severity::Warning, msg, "capability_gap", m.line, m.column);
                continue;
            }
            let Some(items) = m.value.items() else {
                let msg = format!(
                    "`{}` must be an array of hooks, found {}; its hooks are skipped",
                    m.key,
                    m.value.type_name()
                );
                self.note(Severity::Warning, msg, "invalid_hooks", m.value.line, m.value.column);
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let id = format!("{}[{i}]", m.key);
                self.hook = Some(id.clone());
                let def = self.entry(event, &id, item);
                self.hook = None;
                self.definitions.extend(def);
            }
        }
    }

    fn entry(&mut self, event: WindsurfEvent, id: &str, node: &Node) -> Option<HookDefinition> {
        if node.members().is_none() {
            let msg =
                format!("the hook must be an object, found {}; it is skipped", node.type_name());
            self.note(Severity::Warning, msg, "invalid_handler", node.line, node.column);
            return None;
        }
        for m in node.members().unwrap_or_default() {
            if !ENTRY_KEYS.contains(&m.key.as_str()) {
                let msg =
                    format!("`{}` is not a documented Windsurf hook field; it is ignored", m.key);
                self.note(Severity::Info, msg, "unknown_key", m.line, m.column);
            }
        }
        let text = |key: &str| node.get(key).map(|m| (&m.value.kind, &m.value));
        let command = match text("command") {
            Some((Kind::String(c), _)) if !c.trim().is_empty() => c.clone(),
            Some((Kind::String(_), n)) | Some((_, n)) if node.get("command").is_some() => {
                let msg = "`command` must be a non-empty string; the hook is skipped".to_owned();
                self.note(Severity::Warning, msg, "invalid_handler", n.line, n.column);
                return None;
            }
            _ if node.get("powershell").is_some() => {
                let msg = "the hook has only a `powershell` command, which Windsurf runs on Windows only; the hook is skipped here".to_owned();
                self.note(Severity::Warning, msg, "platform", node.line, node.column);
                return None;
            }
            _ => {
                let msg = "the hook has no `command`; it is skipped".to_owned();
                self.note(Severity::Warning, msg, "invalid_handler", node.line, node.column);
                return None;
            }
        };
        let show_output = match text("show_output") {
            None | Some((Kind::Null, _)) => false,
            Some((Kind::Bool(b), _)) => *b,
            Some((_, n)) => {
                let msg = format!(
                    "`show_output` should be a boolean, found {}; it is ignored",
                    n.type_name()
                );
                self.note(Severity::Warning, msg, "invalid_value", n.line, n.column);
                false
            }
        };
        let cwd = match text("working_directory") {
            None | Some((Kind::Null, _)) => None,
            Some((Kind::String(s), _)) if !s.is_empty() => Some(s.clone()),
            Some((_, n)) => {
                let msg = format!(
                    "`working_directory` should be a non-empty string, found {}; the hook is skipped",
                    n.type_name()
                );
                self.note(Severity::Warning, msg, "invalid_value", n.line, n.column);
                return None;
            }
        };
        if command.contains('\0') || cwd.as_deref().is_some_and(|c| c.contains('\0')) {
            let msg = "the hook holds a NUL byte; it is skipped".to_owned();
            self.note(Severity::Warning, msg, "invalid_handler", node.line, node.column);
            return None;
        }
        let mut native = Map::new();
        if show_output {
            native.insert(NATIVE_SHOW_OUTPUT.to_owned(), Value::Bool(true));
        }
        let hook_id = HookId::new(id).ok()?;
        let order = self.order;
        self.order = self.order.saturating_add(1);
        Some(HookDefinition {
            id: hook_id,
            event: event.canonical()?,
            native_event: event.as_str().to_owned(),
            matcher: matcher::narrowed(event.narrowing()),
            command: HookCommand::Shell { script: command, shell: Some(SHELL.to_owned()) },
            cwd,
            env: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            on_failure: OnFailure::Warn,
            mode: ExecutionMode::Blocking,
            delivery: Delivery::BestEffort,
            detach: false,
            enabled: true,
            codec: Arc::new(WindsurfCodec),
            order,
            line: Some(node.line),
            column: Some(node.column),
            description: None,
            native,
        })
    }
}

#[cfg(test)]
mod tests;
