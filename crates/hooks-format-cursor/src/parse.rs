//! Parsing `.cursor/hooks.json`: bytes in, definitions and located diagnostics out.

use std::{path::Path, sync::Arc};

use hooks_json::{At, Checked, Dialect, Entries, Field, Keyed, Member, Node};
use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookId,
    OnFailure, ParseResult, ParsedSource, Severity,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use crate::{
    CursorCodec, CursorError, DEFAULT_TIMEOUT, MAX_FILE_BYTES,
    events::{self, NativeEvent, TAB_GAP_REASON, Target},
    matcher::{self, Compiled},
};

/// A 1-based line and column (the column counts characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    line: u32,
    column: u32,
}

impl Pos {
    /// The start of the file.
    const START: Pos = Pos { line: 1, column: 1 };
}

/// Keys of one hook entry that Cursor documents.
const ENTRY_KEYS: [&str; 6] = ["command", "type", "timeout", "matcher", "failClosed", "loop_limit"];
/// Keys of a prompt hook, accepted without a warning (prompt hooks are skipped anyway).
const PROMPT_KEYS: [&str; 2] = ["prompt", "model"];
/// Top-level keys: Cursor's two, and `$schema` which editors use for validation.
const TOP_KEYS: [&str; 3] = ["version", "hooks", "$schema"];

struct Ctx<'a> {
    path: &'a Path,
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
    let root = match hooks_json::parse_as(text, Dialect::SerdeJson) {
        Ok(root) => root,
        Err(e) => {
            let pos = Pos { line: e.line, column: e.column };
            let err = CursorError::Syntax { message: e.message };
            return Err(file_error(path, &err, pos, "syntax"));
        }
    };
    let file = match hooks_json::from_node::<Keyed<CursorFile>>(&root) {
        Ok(file) if root.members().is_some() => file,
        _ => {
            let err = CursorError::NotAnObject { found: root.type_name() };
            return Err(file_error(path, &err, at(&root), "not_an_object"));
        }
    };
    let mut cx = Ctx { path, diagnostics: leading };
    let mut duplicates = Vec::new();
    duplicate_keys(&root, 0, &mut duplicates);
    for m in duplicates {
        cx.push(
            Severity::Warning,
            format!("duplicate key `{}`: the last one is used, as Cursor does", m.key),
            Pos { line: m.line, column: m.column },
            "duplicate_key",
            None,
        );
    }

    match &file.value.version {
        None => cx.push(
            Severity::Warning,
            "missing `version`: loaded as version 1, but Cursor itself refuses a file without `\"version\": 1`",
            Pos::START,
            "missing_version",
            None,
        ),
        Some(v) if v.value.as_f64() == Some(1.0) => {}
        Some(v) => {
            let err = CursorError::UnsupportedVersion { found: v.value.to_string() };
            return Err(file_error(path, &err, pos(v.at()), "unsupported_version"));
        }
    }
    for (k, key_at) in &file.keys {
        if !TOP_KEYS.contains(&k.as_str()) {
            cx.push(
                Severity::Warning,
                format!("unknown top-level key `{k}` is ignored"),
                pos(*key_at),
                "unknown_key",
                None,
            );
        }
    }
    let hooks = match &file.value.hooks {
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
        Some(At { value: Checked::Ok(Entries(events)), .. }) => events,
        Some(other) => {
            let err = CursorError::HooksNotAnObject { found: other.found };
            return Err(file_error(path, &err, pos(other.at()), "hooks_not_an_object"));
        }
    };

    let mut definitions = Vec::new();
    let mut order: u32 = 0;
    for (name, entries) in hooks {
        let Some(native) = events::lookup(name) else {
            let hint =
                events::suggest(name).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
            cx.push(
                Severity::Warning,
                format!("unknown event `{name}` is ignored{hint}"),
                pos(entries.key_at()),
                "unknown_event",
                None,
            );
            continue;
        };
        let Checked::Ok(list) = &entries.value else {
            cx.push(
                Severity::Error,
                format!("`{name}` must be an array of hooks, found {}", entries.found),
                pos(entries.at()),
                "invalid_event",
                None,
            );
            continue;
        };
        for (index, entry) in list.iter().enumerate() {
            if let Some(def) = parse_entry(&mut cx, native, index, entry, order) {
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

/// A Cursor hook file, as declared; [`parse`] validates it.
#[derive(Deserialize)]
struct CursorFile {
    version: Option<At<Value>>,
    hooks: Field<Entries<At<Checked<Vec<HookEntry>>>>>,
}

/// One hook entry where it stands, when it is an object, with its keys.
type HookEntry = At<Checked<Keyed<Entry>>>;

/// One hook entry, as declared (`null` is present: [`Checked::is_null`]).
#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "type")]
    kind: Field<String>,
    command: Field<String>,
    timeout: Field<Number>,
    #[serde(rename = "failClosed")]
    fail_closed: Field<bool>,
    loop_limit: Field<u32>,
    matcher: Field<String>,
}

/// Objects are searched for duplicate keys this deep (`hooks.<event>[i]` is 3).
const DUPLICATES_DEPTH: usize = 4;

/// The later occurrences of keys written twice in one object, in text order, in objects
/// less than [`DUPLICATES_DEPTH`] deep.
fn duplicate_keys<'a>(node: &'a Node, depth: usize, out: &mut Vec<&'a Member>) {
    if depth >= DUPLICATES_DEPTH {
        return;
    }
    let dups = node.duplicate_keys();
    for m in node.members().unwrap_or_default() {
        if dups.iter().any(|d| std::ptr::eq(*d, m)) {
            out.push(m);
        }
        duplicate_keys(&m.value, depth + 1, out);
    }
    for item in node.items().unwrap_or_default() {
        duplicate_keys(item, depth + 1, out);
    }
}

fn at(node: &Node) -> Pos {
    Pos { line: node.line, column: node.column }
}

fn pos((line, column): (u32, u32)) -> Pos {
    Pos { line, column }
}

/// The value of a checked field as JSON text, for a message quoting it.
fn json_text<T: Serialize>(field: &Checked<T>) -> String {
    match field {
        Checked::Ok(v) => serde_json::to_string(v).unwrap_or_default(),
        Checked::Wrong(v) => v.to_string(),
    }
}

/// A present, non-null field.
fn given<T>(field: &Field<T>) -> Option<&At<Checked<T>>> {
    field.as_ref().filter(|f| !f.value.is_null())
}

#[allow(clippy::too_many_lines)]
fn parse_entry(
    cx: &mut Ctx<'_>,
    native: &'static NativeEvent,
    index: usize,
    entry: &HookEntry,
    order: u32,
) -> Option<HookDefinition> {
    let id_text = format!("{}[{index}]", native.name);
    let id_ref = Some(id_text.as_str());
    let entry_pos = pos(entry.at());
    let Checked::Ok(Keyed { value: e, keys }) = &entry.value else {
        cx.push(
            Severity::Error,
            format!("hook {id_text} must be an object, found {}", entry.found),
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
    let kind = given(&e.kind);
    let is_prompt = kind.and_then(|k| k.value.ok()).map(String::as_str) == Some("prompt");
    for (k, key_at) in keys {
        let known =
            ENTRY_KEYS.contains(&k.as_str()) || (is_prompt && PROMPT_KEYS.contains(&k.as_str()));
        if !known {
            cx.push(
                Severity::Warning,
                format!("unknown key `{k}` in hook {id_text} is ignored"),
                pos(*key_at),
                "unknown_key",
                id_ref,
            );
        }
    }
    let mut ok = true;
    match kind.map(|k| (k, k.value.ok().map(String::as_str))) {
        None | Some((_, Some("command"))) => {}
        Some((k, Some("prompt"))) => {
            cx.push(
                Severity::Warning,
                format!("prompt hooks (`\"type\": \"prompt\"`) are evaluated by Cursor's model and are not supported; hook {id_text} is skipped"),
                pos(k.at()),
                "capability_gap",
                id_ref,
            );
            return None;
        }
        Some((k, _)) => {
            cx.push(
                Severity::Error,
                format!(
                    "`type` must be \"command\" or \"prompt\", found {}",
                    hooks_schema::quoted_value(k.found, &json_text(&k.value))
                ),
                pos(k.at()),
                "invalid_field",
                id_ref,
            );
            ok = false;
        }
    }

    let command = match &e.command {
        None => {
            cx.push(
                Severity::Error,
                format!("hook {id_text} has no `command`"),
                entry_pos,
                "missing_command",
                id_ref,
            );
            None
        }
        Some(c) => match c.value.ok() {
            Some(s) if s.trim().is_empty() => {
                cx.push(
                    Severity::Error,
                    format!("`command` of hook {id_text} is empty"),
                    pos(c.at()),
                    "invalid_field",
                    id_ref,
                );
                None
            }
            Some(s) if s.contains('\0') => {
                cx.push(
                    Severity::Error,
                    format!("`command` of hook {id_text} contains a NUL character"),
                    pos(c.at()),
                    "invalid_field",
                    id_ref,
                );
                None
            }
            Some(s) => Some(s.clone()),
            None => {
                cx.push(
                    Severity::Error,
                    format!("`command` must be a string, found {}", c.found),
                    pos(c.at()),
                    "invalid_field",
                    id_ref,
                );
                None
            }
        },
    };
    ok &= command.is_some();

    let timeout = match given(&e.timeout) {
        None => Some(DEFAULT_TIMEOUT),
        // Seconds, as Cursor documents, with no upper bound: a value beyond what a
        // `Duration` holds never times out.
        Some(t) => match t.value.ok().map(|n| (n, n.as_f64().unwrap_or(f64::NAN))) {
            Some((_, secs)) if secs > 0.0 => hooks_schema::timeout_from_secs(secs),
            Some((n, _)) => {
                cx.push(
                    Severity::Error,
                    format!(
                        "timeout must be a positive number of seconds, found {n}; hook {id_text} is skipped"
                    ),
                    pos(t.at()),
                    "timeout_out_of_range",
                    id_ref,
                );
                None
            }
            None => {
                cx.push(
                    Severity::Error,
                    format!("`timeout` must be a number of seconds, found {}", t.found),
                    pos(t.at()),
                    "invalid_field",
                    id_ref,
                );
                None
            }
        },
    };
    ok &= timeout.is_some();

    let fail_closed = match given(&e.fail_closed) {
        None => false,
        Some(At { value: Checked::Ok(b), .. }) => *b,
        Some(f) => {
            cx.push(
                Severity::Error,
                format!(
                    "`failClosed` must be true or false, found {}",
                    hooks_schema::quoted_value(f.found, &json_text(&f.value))
                ),
                pos(f.at()),
                "invalid_field",
                id_ref,
            );
            ok = false;
            false
        }
    };

    let loop_limit = match &e.loop_limit {
        None => None,
        Some(l) if l.value.is_null() => Some(Value::Null),
        Some(At { value: Checked::Ok(n), .. }) => Some(Value::from(*n)),
        Some(l) => {
            cx.push(
                Severity::Error,
                format!(
                    "`loop_limit` must be a whole number or null, found {}",
                    hooks_schema::quoted_value(l.found, &json_text(&l.value))
                ),
                pos(l.at()),
                "invalid_field",
                id_ref,
            );
            ok = false;
            None
        }
    };
    if let (Some(_), Some(l)) = (&loop_limit, &e.loop_limit)
        && !native.outputs.followup
    {
        cx.push(
            Severity::Warning,
            format!(
                "`loop_limit` only applies to stop and subagentStop; it has no effect on {}",
                native.name
            ),
            pos(l.key_at()),
            "ineffective_field",
            id_ref,
        );
    }

    let matcher_field = given(&e.matcher);
    let matcher_pos = matcher_field.map_or(entry_pos, |m| pos(m.at()));
    let raw_matcher = match matcher_field {
        None => None,
        Some(At { value: Checked::Ok(s), .. }) => Some(s.clone()),
        Some(m) => {
            cx.push(
                Severity::Error,
                format!("`matcher` must be a string, found {}", m.found),
                matcher_pos,
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
                matcher_pos,
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
                matcher_pos,
                "invalid_matcher",
                id_ref,
            );
            None
        }
    };
    if let (Some(p), Some(m)) = (pattern, &matcher) {
        lint_matcher(cx, native, p, m, canonical, matcher_pos, id_ref);
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

#[cfg(test)]
mod tests;
