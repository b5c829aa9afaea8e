//! Parsing `.cursor/hooks.json`: bytes in, definitions and located diagnostics out.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookId,
    OnFailure, ParseResult, ParsedSource, Severity,
};
use serde_json::{Map, Value};

use crate::{
    CursorCodec, CursorError, DEFAULT_TIMEOUT, MAX_FILE_BYTES,
    error::type_name,
    events::{self, NativeEvent, TAB_GAP_REASON, Target},
    locate::{Pos, Seg, Spans, locate},
    matcher::{self, Compiled},
};

/// Keys of one hook entry that Cursor documents.
const ENTRY_KEYS: [&str; 6] = ["command", "type", "timeout", "matcher", "failClosed", "loop_limit"];
/// Keys of a prompt hook, accepted without a warning (prompt hooks are skipped anyway).
const PROMPT_KEYS: [&str; 2] = ["prompt", "model"];
/// Top-level keys: Cursor's two, and `$schema` which editors use for validation.
const TOP_KEYS: [&str; 3] = ["version", "hooks", "$schema"];

struct Ctx<'a> {
    path: &'a Path,
    spans: Spans,
    diagnostics: Vec<HookDiagnostic>,
}

impl Ctx<'_> {
    fn push(
        &mut self,
        severity: Severity,
        message: impl Into<String>,
        pos: Pos,
        code: &str,
        hook: Option<&str>,
    ) {
        let mut d = HookDiagnostic::new(severity, message)
            .in_file(self.path)
            .at(pos.line, pos.column)
            .with_code(code);
        if let Some(h) = hook {
            d = d.for_hook(h);
        }
        self.diagnostics.push(d);
    }
}

fn file_error(path: &Path, err: &CursorError, pos: Pos, code: &str) -> Vec<HookDiagnostic> {
    vec![
        HookDiagnostic::error(err.to_string())
            .in_file(path)
            .at(pos.line, pos.column)
            .with_code(code),
    ]
}

/// Parses the bytes of a Cursor `hooks.json`; `path` only names the file in diagnostics.
///
/// Whole-file problems (over [`MAX_FILE_BYTES`], not UTF-8, invalid JSON, not an object,
/// `version` other than 1, `hooks` not an object) return `Err`. Problems with one definition
/// are error diagnostics and the rest of the file loads. Every diagnostic has the file, a
/// line and a column.
pub fn parse(bytes: &[u8], path: &Path) -> ParseResult {
    if bytes.len() > MAX_FILE_BYTES {
        let err = CursorError::TooLarge { size: bytes.len(), cap: MAX_FILE_BYTES };
        return Err(file_error(path, &err, Pos::START, "too_large"));
    }
    let mut leading = Vec::new();
    let bytes = match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => {
            leading.push(
                HookDiagnostic::warning(
                    "the file starts with a UTF-8 byte order mark; it was skipped, but other tools may refuse the file",
                )
                .in_file(path)
                .at(1, 1)
                .with_code("byte_order_mark"),
            );
            rest
        }
        [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => {
            return Err(file_error(path, &CursorError::Utf16, Pos::START, "encoding"));
        }
        _ => bytes,
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let offset = e.valid_up_to();
            let pos = pos_of_offset(bytes, offset);
            return Err(file_error(path, &CursorError::InvalidUtf8 { offset }, pos, "encoding"));
        }
    };
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let pos = serde_pos(text, &e);
            let message = strip_position(&e.to_string());
            return Err(file_error(path, &CursorError::Syntax { message }, pos, "syntax"));
        }
    };
    let Value::Object(top) = root else {
        let err = CursorError::NotAnObject { found: type_name(&root) };
        return Err(file_error(path, &err, first_non_ws(text), "not_an_object"));
    };
    let mut cx = Ctx { path, spans: locate(text), diagnostics: leading };
    let dups = std::mem::take(&mut cx.spans.duplicates);
    for (dup_path, pos) in dups {
        let name = match dup_path.last() {
            Some(Seg::Key(k)) => k.clone(),
            _ => continue,
        };
        cx.push(
            Severity::Warning,
            format!("duplicate key `{name}`: the last one is used, as Cursor does"),
            pos,
            "duplicate_key",
            None,
        );
    }

    match top.get("version") {
        None => cx.push(
            Severity::Warning,
            "missing `version`: loaded as version 1, but Cursor itself refuses a file without `\"version\": 1`",
            Pos::START,
            "missing_version",
            None,
        ),
        Some(v) if v.as_f64() == Some(1.0) => {}
        Some(v) => {
            let pos = cx.spans.value_pos(&[key("version")]);
            let err = CursorError::UnsupportedVersion { found: v.to_string() };
            return Err(file_error(path, &err, pos, "unsupported_version"));
        }
    }
    for k in top.keys() {
        if !TOP_KEYS.contains(&k.as_str()) {
            let pos = cx.spans.key_pos(&[key(k)]);
            cx.push(
                Severity::Warning,
                format!("unknown top-level key `{k}` is ignored"),
                pos,
                "unknown_key",
                None,
            );
        }
    }
    let hooks = match top.get("hooks") {
        None => {
            cx.push(
                Severity::Warning,
                "no `hooks` object: the file defines no hooks",
                Pos::START,
                "no_hooks",
                None,
            );
            return Ok(ParsedSource { diagnostics: cx.diagnostics, ..ParsedSource::default() });
        }
        Some(Value::Object(h)) => h,
        Some(other) => {
            let pos = cx.spans.value_pos(&[key("hooks")]);
            let err = CursorError::HooksNotAnObject { found: type_name(other) };
            return Err(file_error(path, &err, pos, "hooks_not_an_object"));
        }
    };

    let mut definitions = Vec::new();
    let mut order: u32 = 0;
    for (name, entries) in hooks {
        let event_path = [key("hooks"), key(name)];
        let Some(native) = events::lookup(name) else {
            let hint =
                events::suggest(name).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
            let pos = cx.spans.key_pos(&event_path);
            cx.push(
                Severity::Warning,
                format!("unknown event `{name}` is ignored{hint}"),
                pos,
                "unknown_event",
                None,
            );
            continue;
        };
        let Value::Array(list) = entries else {
            let pos = cx.spans.value_pos(&event_path);
            cx.push(
                Severity::Error,
                format!("`{name}` must be an array of hooks, found {}", type_name(entries)),
                pos,
                "invalid_event",
                None,
            );
            continue;
        };
        for (index, entry) in list.iter().enumerate() {
            let entry_path = [key("hooks"), key(name), Seg::Index(index)];
            if let Some(def) = parse_entry(&mut cx, native, index, entry, &entry_path, order) {
                definitions.push(def);
                order = order.saturating_add(1);
            }
        }
    }
    let mut diagnostics = cx.diagnostics;
    // In file order (stable, so findings at one position keep the order they were made in).
    diagnostics.sort_by_key(|d| (d.line, d.column));
    Ok(ParsedSource { definitions, diagnostics, ..ParsedSource::default() })
}

fn key(k: &str) -> Seg {
    Seg::Key(k.to_owned())
}

fn field_path(entry_path: &[Seg], field: &str) -> Vec<Seg> {
    let mut p = entry_path.to_vec();
    p.push(key(field));
    p
}

#[allow(clippy::too_many_lines)]
fn parse_entry(
    cx: &mut Ctx<'_>,
    native: &'static NativeEvent,
    index: usize,
    entry: &Value,
    entry_path: &[Seg],
    order: u32,
) -> Option<HookDefinition> {
    let id_text = format!("{}[{index}]", native.name);
    let id_ref = Some(id_text.as_str());
    let entry_pos = cx.spans.value_pos(entry_path);
    let Value::Object(obj) = entry else {
        cx.push(
            Severity::Error,
            format!("hook {id_text} must be an object, found {}", type_name(entry)),
            entry_pos,
            "invalid_hook",
            id_ref,
        );
        return None;
    };
    let Some(canonical) = native.canonical else {
        cx.push(
            Severity::Warning,
            format!("`{}` has no counterpart in this engine ({TAB_GAP_REASON}); hook {id_text} is skipped", native.name),
            entry_pos,
            "capability_gap",
            id_ref,
        );
        return None;
    };
    let kind = obj.get("type");
    let is_prompt = kind.and_then(Value::as_str) == Some("prompt");
    for k in obj.keys() {
        let known =
            ENTRY_KEYS.contains(&k.as_str()) || (is_prompt && PROMPT_KEYS.contains(&k.as_str()));
        if !known {
            let pos = cx.spans.key_pos(&field_path(entry_path, k));
            cx.push(
                Severity::Warning,
                format!("unknown key `{k}` in hook {id_text} is ignored"),
                pos,
                "unknown_key",
                id_ref,
            );
        }
    }
    let mut ok = true;
    match kind {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if s == "command" => {}
        Some(Value::String(s)) if s == "prompt" => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "type"));
            cx.push(
                Severity::Warning,
                format!("prompt hooks (`\"type\": \"prompt\"`) are evaluated by Cursor's model and are not supported; hook {id_text} is skipped"),
                pos,
                "capability_gap",
                id_ref,
            );
            return None;
        }
        Some(other) => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "type"));
            cx.push(
                Severity::Error,
                format!(
                    "`type` must be \"command\" or \"prompt\", found {}",
                    hooks_schema::quoted_value(type_name(other), &other.to_string())
                ),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
        }
    }

    let command = match obj.get("command") {
        Some(Value::String(s)) if s.trim().is_empty() => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "command"));
            cx.push(
                Severity::Error,
                format!("`command` of hook {id_text} is empty"),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
        Some(Value::String(s)) if s.contains('\0') => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "command"));
            cx.push(
                Severity::Error,
                format!("`command` of hook {id_text} contains a NUL character"),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        None => {
            cx.push(
                Severity::Error,
                format!("hook {id_text} has no `command`"),
                entry_pos,
                "missing_command",
                id_ref,
            );
            ok = false;
            None
        }
        Some(other) => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "command"));
            cx.push(
                Severity::Error,
                format!("`command` must be a string, found {}", type_name(other)),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
    };

    let timeout = match obj.get("timeout") {
        None | Some(Value::Null) => Some(DEFAULT_TIMEOUT),
        Some(v) => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "timeout"));
            // Seconds, as Cursor documents, with no upper bound: a value beyond what a
            // `Duration` holds never times out.
            match v.as_f64() {
                Some(secs) if secs > 0.0 => hooks_schema::timeout_from_secs(secs),
                Some(_) => {
                    cx.push(
                        Severity::Error,
                        format!(
                            "timeout must be a positive number of seconds, found {v}; hook {id_text} is skipped"
                        ),
                        pos,
                        "timeout_out_of_range",
                        id_ref,
                    );
                    None
                }
                None => {
                    cx.push(
                        Severity::Error,
                        format!("`timeout` must be a number of seconds, found {}", type_name(v)),
                        pos,
                        "invalid_field",
                        id_ref,
                    );
                    None
                }
            }
        }
    };
    ok &= timeout.is_some();

    let fail_closed = match obj.get("failClosed") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "failClosed"));
            cx.push(
                Severity::Error,
                format!(
                    "`failClosed` must be true or false, found {}",
                    hooks_schema::quoted_value(type_name(other), &other.to_string())
                ),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
            false
        }
    };

    let loop_limit = match obj.get("loop_limit") {
        None => None,
        Some(v @ Value::Null) => Some(v.clone()),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|l| l <= u64::from(u32::MAX)) => {
            Some(Value::Number(n.clone()))
        }
        Some(other) => {
            let pos = cx.spans.value_pos(&field_path(entry_path, "loop_limit"));
            cx.push(
                Severity::Error,
                format!(
                    "`loop_limit` must be a whole number or null, found {}",
                    hooks_schema::quoted_value(type_name(other), &other.to_string())
                ),
                pos,
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
    };
    if loop_limit.is_some() && !native.outputs.followup {
        let pos = cx.spans.key_pos(&field_path(entry_path, "loop_limit"));
        cx.push(
            Severity::Warning,
            format!(
                "`loop_limit` only applies to stop and subagentStop; it has no effect on {}",
                native.name
            ),
            pos,
            "ineffective_field",
            id_ref,
        );
    }

    let matcher_path = field_path(entry_path, "matcher");
    let raw_matcher = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            cx.push(
                Severity::Error,
                format!("`matcher` must be a string, found {}", type_name(other)),
                cx.spans.value_pos(&matcher_path),
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
    };
    let pattern = match raw_matcher.as_deref() {
        None | Some("" | "*") => None,
        Some(p) if native.target == Target::Ignored => {
            cx.push(
                Severity::Warning,
                format!("Cursor documents no matcher for {}; the matcher `{p}` is ignored and the hook runs on every {} event", native.name, native.name),
                cx.spans.value_pos(&matcher_path),
                "ignored_matcher",
                id_ref,
            );
            None
        }
        Some(p) => Some(p),
    };
    let matcher = match matcher::compile(native, pattern) {
        Compiled::Matcher(m) => Some(m),
        Compiled::Invalid(why) => {
            cx.push(
                Severity::Error,
                format!("{why}; hook {id_text} is skipped"),
                cx.spans.value_pos(&matcher_path),
                "invalid_matcher",
                id_ref,
            );
            None
        }
    };
    if let (Some(p), Some(m)) = (pattern, &matcher) {
        let pos = cx.spans.value_pos(&matcher_path);
        lint_matcher(cx, native, p, m, canonical, pos, id_ref);
    }
    ok &= matcher.is_some();

    if !ok {
        return None;
    }
    let (Some(command), Some(timeout), Some(matcher)) = (command, timeout, matcher) else {
        return None;
    };
    let Ok(id) = HookId::new(&id_text) else { return None };

    let mut native_map = Map::new();
    native_map.insert("type".to_owned(), Value::String("command".to_owned()));
    native_map.insert("failClosed".to_owned(), Value::Bool(fail_closed));
    if let Some(l) = loop_limit {
        native_map.insert("loop_limit".to_owned(), l);
    }
    if let Some(m) = raw_matcher {
        native_map.insert("matcher".to_owned(), Value::String(m));
    }
    let mode = if native.name == "sessionEnd" {
        ExecutionMode::FireAndForget
    } else {
        ExecutionMode::Blocking
    };
    Some(HookDefinition {
        id,
        event: canonical,
        native_event: native.name.to_owned(),
        matcher,
        command: HookCommand::Shell { script: command, shell: None },
        cwd: None,
        env: Vec::new(),
        timeout,
        on_failure: if fail_closed { OnFailure::Block } else { OnFailure::Warn },
        mode,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(CursorCodec),
        order,
        line: Some(entry_pos.line),
        column: Some(entry_pos.column),
        description: None,
        native: native_map,
    })
}

/// Warnings for matchers that load but probably do not do what the author meant.
fn lint_matcher(
    cx: &mut Ctx<'_>,
    native: &NativeEvent,
    pattern: &str,
    matcher: &hooks_schema::Matcher,
    canonical: HookEvent,
    pos: Pos,
    hook: Option<&str>,
) {
    match native.target {
        Target::Constant(c) => {
            let env = hooks_schema::Envelope::new(canonical);
            if !matcher.matches(&env) {
                cx.push(
                    Severity::Warning,
                    format!("on {} the matcher is tested against `{c}`, which `{pattern}` never matches: this hook never runs", native.name),
                    pos,
                    "never_matches",
                    hook,
                );
            }
        }
        Target::ToolType => {
            for alt in pattern.split('|') {
                if let Some(t) = crate::tool_type::alias(alt.trim()) {
                    cx.push(
                        Severity::Warning,
                        format!(
                            "`{}` is not a Cursor tool type; Cursor calls this tool `{t}`",
                            alt.trim()
                        ),
                        pos,
                        "tool_type_alias",
                        hook,
                    );
                }
            }
        }
        Target::Command | Target::SubagentType | Target::Ignored => {}
    }
}

/// The line and column of a byte offset (columns count characters).
fn pos_of_offset(bytes: &[u8], offset: usize) -> Pos {
    let head = bytes.get(..offset).unwrap_or(bytes);
    let line = head.iter().filter(|b| **b == b'\n').count() + 1;
    let line_start = head.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let column =
        head.get(line_start..).unwrap_or_default().iter().filter(|b| **b & 0xC0 != 0x80).count()
            + 1;
    Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// serde_json's position (its column counts bytes) converted to a character column.
fn serde_pos(text: &str, e: &serde_json::Error) -> Pos {
    let line = e.line().max(1);
    let Some(line_text) = text.split('\n').nth(line - 1) else {
        return Pos { line: u32::try_from(line).unwrap_or(u32::MAX), column: 1 };
    };
    let byte_col = e.column().max(1);
    let prefix = line_text
        .as_bytes()
        .get(..byte_col.saturating_sub(1).min(line_text.len()))
        .unwrap_or_default();
    let chars = prefix.iter().filter(|b| **b & 0xC0 != 0x80).count();
    Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(chars + 1).unwrap_or(u32::MAX),
    }
}

/// serde_json's message without the " at line L column C" suffix (the diagnostic has it).
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg.get(..i).unwrap_or(msg).to_owned(),
        None => msg.to_owned(),
    }
}

fn first_non_ws(text: &str) -> Pos {
    let offset = text.len() - text.trim_start().len();
    pos_of_offset(text.as_bytes(), offset)
}

#[cfg(test)]
mod tests;
