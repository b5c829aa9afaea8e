//! Reads Chrys hooks.yaml/.yml/.json with Chrys 0.32.0's exact rules and speaks its file-based protocol (sans-IO).
//!
//! - [`parse`] turns the bytes of one Chrys hooks file into [`hooks_schema`] definitions: the
//!   same files load and fail as under Chrys 0.32.0, with the same error texts
//!   (`specs/formats/chrys.md` lists the rules and the few deliberate deviations).
//! - [`ChrysCodec`] encodes an envelope as Chrys's payload file and decodes the result file.
//! - [`merge`] holds the pure rules for combining the project and the global file.
//! - [`ChrysFormat`] ([`descriptor`]) is the format's descriptor: its hooks folders and the
//!   user's settings document, its events and its codec, for the engine's core.
//! - [`parse_user_settings`] reads the user's opt-in to project hooks
//!   (`project.hooks_enabled`) from the bytes of their `settings.yaml`.
//!
//! YAML is read with saphyr-parser events and resolved here with PyYAML's YAML 1.1 rules.
#![warn(missing_docs)]

mod codec;
mod descriptor;
mod error;
mod json;
mod load;
mod matcher;
pub mod merge;
mod pyre;
mod pysyntax;
mod pyval;
mod text;
mod user_settings;
mod yaml;

use std::{
    path::{Component, Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookId,
    OnFailure, ParseResult, ParsedSource, RunSettings, SourcePolicy,
};
use serde_json::{Map, Value};

pub use crate::{
    codec::{
        ChrysCodec, PAYLOAD_FILE_ENV, RESULT_FILE_CAP, RESULT_FILE_ENV, interpreter_candidates,
    },
    descriptor::{
        ChrysFormat, FILE, FORMAT, PROJECT_FILE, SETTINGS, USER_FILE, USER_SETTINGS, descriptor,
    },
    error::ChrysError,
    load::{NATIVE_EVENTS, TOOL_KINDS},
    matcher::{ChrysMatch, chrys_tool_kind},
    text::DecodeError,
    user_settings::{
        MAX_SETTINGS_BYTES, PROJECT_HOOKS_ENABLED_KEY, USER_SETTINGS_FILE, UserSettings,
        parse_user_settings,
    },
};
use crate::{
    load::{HookSpec, LoadWarning, RunKind},
    pyval::PyValue,
};

/// The largest hooks file read (Chrys has no cap; a real file is a few KiB).
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Chrys's native event name for a canonical event, when Chrys has one.
pub fn native_event_name(event: HookEvent) -> Option<&'static str> {
    NATIVE_TO_CANONICAL.iter().find(|(_, e)| *e == event).map(|(n, _)| *n)
}

/// The canonical event of a Chrys event name.
pub fn canonical_event(native: &str) -> Option<HookEvent> {
    NATIVE_TO_CANONICAL.iter().find(|(n, _)| *n == native).map(|(_, e)| *e)
}

const NATIVE_TO_CANONICAL: [(&str, HookEvent); 17] = [
    ("session_start", HookEvent::SessionStart),
    ("session_restored", HookEvent::SessionRestored),
    ("session_end", HookEvent::SessionEnd),
    ("workflow_run_start", HookEvent::WorkflowRunStart),
    ("workflow_run_end", HookEvent::WorkflowRunEnd),
    ("before_turn", HookEvent::TurnStart),
    ("after_turn", HookEvent::TurnEnd),
    ("user_prompt_submit", HookEvent::PromptSubmit),
    ("approval_requested", HookEvent::ApprovalRequested),
    ("approval_resolved", HookEvent::ApprovalResolved),
    ("before_tool_call", HookEvent::PreToolUse),
    ("after_tool_call", HookEvent::PostToolUse),
    ("tool_error", HookEvent::ToolFailure),
    ("sub_agent_start", HookEvent::SubagentStart),
    ("sub_agent_end", HookEvent::SubagentStop),
    ("pre_compact", HookEvent::PreCompact),
    ("user_interrupt", HookEvent::Interrupt),
];

/// Parses one Chrys hooks file. `path` names the file (its suffix picks JSON or YAML, its
/// folder is the base of relative script paths); nothing is read from disk.
///
/// A file Chrys rejects gives `Err` with the error first (Chrys's text, with the entry's
/// line when known) followed by the warnings Chrys logged before failing. A loaded file
/// gives its definitions (disabled ones included), the explicitly set `settings`, the load
/// warnings, and an error for each enabled hook left out because its regex does not compile.
pub fn parse(bytes: &[u8], path: &Path) -> ParseResult {
    let mut warnings = Vec::new();
    match load_file(bytes, path, &mut warnings) {
        Ok(source) => Ok(source),
        Err((err, mark)) => {
            let mut d = HookDiagnostic::error(err.to_string()).in_file(path).with_code("schema");
            if let Some((l, c)) = mark {
                d = d.at(l, c);
            }
            let mut out = vec![d];
            out.extend(warnings.into_iter().map(|w| warning_diagnostic(w, path)));
            Err(out)
        }
    }
}

/// The typed form of the `settings:` a file sets explicitly (validated by the loader), which
/// the engine merges per field, the project's over the global file's.
///
/// Values keep what Chrys does with them (checked with the differential oracle,
/// `test_data/merge/settings/`): counts above `u32::MAX` (Python's integers are unbounded)
/// saturate, which no queue or retry count reaches; a grace or an age too long for a
/// `Duration`, or infinite, is `Duration::MAX` (wait for ever, never retry); a NaN grace is
/// zero (`asyncio.wait_for(…, timeout=nan)` times out at once) and a NaN age is
/// `Duration::MAX` (`now - started >= nan` is never true, so the job is never retried).
fn run_settings(explicit: &Map<String, Value>) -> RunSettings {
    let count = |k: &str| {
        explicit.get(k).map(|v| match v {
            Value::Number(n) => {
                n.as_u64().map_or(u32::MAX, |n| u32::try_from(n).unwrap_or(u32::MAX))
            }
            // An integer beyond i64, kept as its digits (validated as non-negative).
            _ => u32::MAX,
        })
    };
    let secs = |k: &str, nan: Duration| {
        explicit.get(k).map(|v| {
            let f = match v {
                Value::Number(n) => n.as_f64().unwrap_or(f64::INFINITY),
                Value::String(s) if s == "nan" => f64::NAN,
                _ => f64::INFINITY,
            };
            if f.is_nan() { nan } else { Duration::try_from_secs_f64(f).unwrap_or(Duration::MAX) }
        })
    };
    RunSettings {
        max_parallel: count("max_parallel_hooks"),
        shutdown_grace: secs("shutdown_grace_seconds", Duration::ZERO),
        outbox_max_retries: count("outbox_max_retries"),
        outbox_retry_age: secs("outbox_retry_age_seconds", Duration::MAX),
    }
}

fn warning_diagnostic(w: LoadWarning, path: &Path) -> HookDiagnostic {
    let mut d = HookDiagnostic::warning(w.message).in_file(path).with_code(w.code);
    if let Some(id) = w.hook_id {
        d = d.for_hook(id);
    }
    if let Some((l, c)) = w.mark {
        d = d.at(l, c);
    }
    d
}

type Mark = Option<(u32, u32)>;

fn load_file(
    bytes: &[u8],
    path: &Path,
    warnings: &mut Vec<LoadWarning>,
) -> Result<ParsedSource, (ChrysError, Mark)> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err((
            ChrysError::TooLarge { path: path.to_owned(), size: bytes.len(), cap: MAX_FILE_BYTES },
            None,
        ));
    }
    let text = text::decode(bytes)
        .map_err(|source| (ChrysError::Decode { path: path.to_owned(), source }, None))?;
    let parse_err = |detail: String| (ChrysError::Parse { path: path.to_owned(), detail }, None);
    let is_json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let root = if is_json {
        if load::py_strip(&text).is_empty() {
            None
        } else {
            let root = json::load(&text).map_err(|e| match e {
                // Python's `ValueError` for a long integer escapes Chrys's parse error.
                hooks_json::PythonError::IntTooLong { .. } => (
                    ChrysError::Python { path: path.to_owned(), message: e.to_string() },
                    Some(e.position()),
                ),
                e => parse_err(e.to_string()),
            })?;
            Some(root).filter(|n| n.value != PyValue::None)
        }
    } else {
        match yaml::load(&text) {
            // `yaml.safe_load(text) or {}`: every falsy document means "no hooks".
            Ok(node) => node.filter(|n| n.value.truthy()),
            Err(yaml::YamlError::Syntax(detail)) => return Err(parse_err(detail)),
            Err(yaml::YamlError::Constructor) => {
                return Err(parse_err(yaml::CONSTRUCTOR_ERROR.to_owned()));
            }
        }
    };
    let spec = load::validate(root.as_ref(), warnings)
        .map_err(|e| (ChrysError::Config { message: e.message, entry: e.entry }, e.mark))?;
    let policy = SourcePolicy { run: run_settings(&spec.settings), ..SourcePolicy::default() };
    let mut out = ParsedSource { settings: spec.settings, policy, ..ParsedSource::default() };
    out.diagnostics.extend(warnings.drain(..).map(|w| warning_diagnostic(w, path)));
    let base = path.parent().unwrap_or(Path::new(""));
    for (i, hook) in spec.hooks.into_iter().enumerate() {
        match definition(hook, i, base) {
            Ok(def) => out.definitions.push(def),
            Err(d) => out.diagnostics.push(d.in_file(path)),
        }
    }
    Ok(out)
}

/// Joins `rel` to `base` and removes `.` and `..` lexically (Chrys calls `resolve()`, which
/// also follows symlinks; the registry canonicalizes the result where it protects files).
pub fn resolve_script_path(base: &Path, rel: &str) -> PathBuf {
    let p = Path::new(rel);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let mut out = PathBuf::new();
    for c in base.join(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `execution.timeout_seconds` (already checked `> 0` or NaN) as Chrys enforces it: the
/// value goes to `asyncio.wait(timeout=…)` unchanged, so there is no ceiling, `.inf` (or a
/// number too large for a [`Duration`]) never times out, and NaN times out at once (the
/// event loop schedules a NaN deadline as already due; checked against Chrys's own
/// `HookManager.fire` with the oracle).
pub(crate) fn timeout(secs: f64) -> Duration {
    if secs.is_nan() {
        Duration::ZERO
    } else {
        hooks_schema::timeout_from_secs(secs).unwrap_or(Duration::ZERO)
    }
}

/// One validated hook as a definition, or the error that skips it (boxed: rare, and large).
fn definition(
    hook: HookSpec,
    index: usize,
    base: &Path,
) -> Result<HookDefinition, Box<HookDiagnostic>> {
    let located = |d: HookDiagnostic| {
        Box::new(match hook.mark {
            Some((l, c)) => d.at(l, c).for_hook(hook.id.clone()),
            None => d.for_hook(hook.id.clone()),
        })
    };
    let (matcher, regex_error) = matcher::build(&hook.matcher);
    if hook.enabled
        && let Some(reason) = regex_error
    {
        return Err(located(HookDiagnostic::error(reason).with_code("regex_invalid")));
    }
    let timeout = timeout(hook.execution.timeout_seconds);
    let id = HookId::new(&hook.id)
        .map_err(|e| located(HookDiagnostic::error(e.to_string()).with_code("schema")))?;
    let event = canonical_event(hook.event).unwrap_or(HookEvent::SessionStart);
    let run = hook.run;
    let (command, run_type) = match run.kind {
        RunKind::Script => (
            HookCommand::Script { path: resolve_script_path(base, &run.path), args: run.args },
            "script",
        ),
        RunKind::Command => {
            let mut argv = run.argv.into_iter();
            let program = argv.next().unwrap_or_default();
            (HookCommand::Exec { program, args: argv.chain(run.args).collect() }, "command")
        }
        RunKind::Shell => (HookCommand::Shell { script: run.shell, shell: None }, "shell"),
    };
    let mut native = Map::new();
    native.insert("run_type".into(), Value::String(run_type.into()));
    Ok(HookDefinition {
        id,
        event,
        native_event: hook.event.to_owned(),
        matcher,
        command,
        cwd: (!run.cwd.is_empty()).then_some(run.cwd),
        env: run.env,
        timeout,
        on_failure: match hook.execution.on_error {
            "block" => OnFailure::Block,
            "ignore" => OnFailure::Ignore,
            _ => OnFailure::Warn,
        },
        mode: match hook.execution.mode {
            "blocking" => ExecutionMode::Blocking,
            "async" => ExecutionMode::Async,
            _ => ExecutionMode::FireAndForget,
        },
        delivery: if hook.execution.delivery == "durable" {
            Delivery::Durable
        } else {
            Delivery::BestEffort
        },
        detach: hook.execution.detach,
        enabled: hook.enabled,
        codec: Arc::new(ChrysCodec),
        order: u32::try_from(index).unwrap_or(u32::MAX),
        line: hook.mark.map(|m| m.0),
        column: hook.mark.map(|m| m.1),
        description: (!hook.description.is_empty()).then_some(hook.description),
        native,
    })
}

#[cfg(test)]
mod tests;
