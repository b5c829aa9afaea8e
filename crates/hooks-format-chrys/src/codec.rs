//! Chrys's protocol: the envelope as a payload file, the decision as a result file.
//!
//! Encode builds what Chrys's runner builds: the payload JSON (`json.dump(..., default=str)`:
//! ASCII-escaped, `", "` and `": "` separators), an empty result file, the `CHRYS_*` and
//! Python variables, `run.env` and `run.cwd` with their four templates expanded, and the
//! interpreter chosen by the script's extension. Decode applies `manager.py`'s rules: only a
//! blocking hook that exited 0 decides, only on `before_tool_call` and `user_prompt_submit`;
//! a failure follows `on_error`.

use std::{
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, ExecutionMode, ExitInfo, FormatId,
    HookCodec, HookCommand, HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir,
    OnFailure, PayloadError, Program, ProvidedFile, ProvidedFileRole, RawOutcome,
};
use serde_json::{Map, Value};

use crate::{
    matcher::chrys_tool_kind,
    native_event_name,
    pyval::{float_repr, json_py_str, json_truthy},
};

/// The variable naming the payload file.
pub const PAYLOAD_FILE_ENV: &str = "CHRYS_HOOK_PAYLOAD_FILE";
/// The variable naming the result file.
pub const RESULT_FILE_ENV: &str = "CHRYS_HOOK_RESULT";
/// A result file larger than this is ignored.
pub const RESULT_FILE_CAP: usize = 1024 * 1024;

/// Chrys's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChrysCodec;

/// The interpreters Chrys tries for a script, by extension, in order; each candidate ends
/// with the script. Chrys's last resort for Python (its own interpreter) has no equivalent
/// here.
pub fn interpreter_candidates(script: &Path) -> Vec<Vec<String>> {
    let p = script.display().to_string();
    let ext =
        script.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let c = |parts: &[&str]| -> Vec<String> {
        parts.iter().map(|s| (*s).to_owned()).chain([p.clone()]).collect()
    };
    match ext.as_str() {
        "ps1" => {
            vec![c(&["pwsh", "-NoProfile", "-File"]), c(&["powershell", "-NoProfile", "-File"])]
        }
        "sh" | "bash" | "zsh" => vec![c(&["bash"]), c(&["sh"])],
        "js" | "mjs" => vec![c(&["node"])],
        "ts" => vec![c(&["npx", "tsx"])],
        "rb" => vec![c(&["ruby"])],
        "pl" => vec![c(&["perl"])],
        _ => vec![c(&["uv", "run"]), c(&["python3"]), c(&["python"])],
    }
}

fn is_gated(native: &str) -> bool {
    matches!(native, "before_tool_call" | "user_prompt_submit")
}

/// The directory a `run.cwd` or `run.env` value names once its templates are expanded:
/// `${workspace_cwd}` is the session's directory, `${chrys_home}` the configuration
/// directory; another template, or a relative path (read from the engine's own directory),
/// is unknown.
fn template_dir(text: &str) -> LaunchDir {
    for (template, dir) in
        [("${workspace_cwd}", LaunchDir::Session), ("${chrys_home}", LaunchDir::Config)]
    {
        if let Some(rest) = text.strip_prefix(template) {
            if rest.contains("${") {
                return LaunchDir::Unknown;
            }
            return LaunchDir::Under(Box::new(dir), rest.trim_start_matches('/').into());
        }
    }
    if text.contains("${") || !Path::new(text).is_absolute() {
        LaunchDir::Unknown
    } else {
        LaunchDir::Fixed(text.into())
    }
}

impl HookCodec for ChrysCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    /// Chrys runs a hook in `run.cwd` (templates expanded) or in the session's directory
    /// (`${workspace_cwd}`); `run.env` values name directories through the same templates.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        HookLaunch {
            run_dir: hook
                .cwd
                .as_deref()
                .filter(|c| !c.is_empty())
                .map_or(LaunchDir::Session, template_dir),
            dir_vars: hook.env.iter().map(|(k, v)| (k.clone(), template_dir(v))).collect(),
            ..HookLaunch::default()
        }
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let payload = payload(hook, envelope, ctx)?;
        let workspace_cwd = payload_cwd(envelope, ctx);
        let session_id = envelope.session_id.clone().unwrap_or_default();
        let profile = envelope.profile.clone().unwrap_or_default();
        let chrys_home = ctx.config_dir.map(|p| p.display().to_string()).unwrap_or_default();
        let expand = |v: &str| {
            v.replace("${workspace_cwd}", &workspace_cwd)
                .replace("${chrys_home}", &chrys_home)
                .replace("${session_id}", &session_id)
                .replace("${profile}", &profile)
        };
        let program = match &hook.command {
            HookCommand::Http(_) => {
                return Err(EncodeError::NoHttpHooks { agent: "Chrys" });
            }
            HookCommand::Script { path, args } => Program::FirstAvailable {
                candidates: interpreter_candidates(path)
                    .into_iter()
                    .map(|mut c| {
                        c.extend(args.iter().cloned());
                        c
                    })
                    .collect(),
            },
            HookCommand::Exec { program, args } => Program::Exec {
                argv: std::iter::once(program.clone()).chain(args.iter().cloned()).collect(),
            },
            HookCommand::Shell { script, shell } => Program::Shell {
                script: script.clone(),
                shell: shell
                    .clone()
                    .or_else(|| ctx.user_shell.filter(|s| !s.is_empty()).map(str::to_owned)),
            },
        };
        let cwd = match &hook.cwd {
            Some(c) if !c.is_empty() => PathBuf::from(expand(c)),
            _ => PathBuf::from(&workspace_cwd),
        };
        let mut env = vec![
            ("PYTHONUTF8".to_owned(), "1".to_owned()),
            ("PYTHONIOENCODING".to_owned(), "utf-8".to_owned()),
            ("CHRYS_HOOK_ID".to_owned(), hook.id.to_string()),
            ("CHRYS_HOOK_EVENT".to_owned(), hook.native_event.clone()),
        ];
        env.extend(hook.env.iter().map(|(k, v)| (k.clone(), expand(v))));
        let safe_id: String = hook
            .id
            .as_str()
            .chars()
            .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        Ok(Invocation {
            program,
            cwd: Some(cwd),
            env_remove: vec!["PYTHONHOME".to_owned(), "PYTHONPATH".to_owned()],
            env,
            stdin: Vec::new(),
            files: vec![
                ProvidedFile {
                    env_var: PAYLOAD_FILE_ENV.to_owned(),
                    name_hint: format!("{safe_id}-payload"),
                    role: ProvidedFileRole::Input(
                        python_json(&Value::Object(payload)).into_bytes(),
                    ),
                },
                ProvidedFile {
                    env_var: RESULT_FILE_ENV.to_owned(),
                    name_hint: format!("{safe_id}-result"),
                    role: ProvidedFileRole::Output,
                },
            ],
            timeout: hook.timeout,
        })
    }

    fn decode(
        &self,
        hook: &HookDefinition,
        _envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        let native = hook.native_event.as_str();
        let decides = hook.mode == ExecutionMode::Blocking;
        let mut v = HookVerdict::no_opinion();
        if let Some(label) = failure_label(outcome) {
            v.failure = Some(label.clone());
            if decides && hook.on_failure == OnFailure::Block && is_gated(native) {
                let stderr = outcome.stderr.lossy();
                let cut: String = crate::load::py_strip(&stderr).chars().take(200).collect();
                v.decision = Some(Decision::Deny);
                v.reason = Some(format!("hook '{}' failed ({label}): {cut}", hook.id));
            } else if hook.on_failure == OnFailure::Block && !is_gated(native) {
                v.notes
                    .push(format!("on_error=block on non-gated event {native}; treated as warn"));
            }
            // A failed hook's result file is ignored.
            return v;
        }
        if !decides {
            return v;
        }
        let Some(file) = &outcome.result_file else { return v };
        if file.truncated
            || file.total_len > RESULT_FILE_CAP as u64
            || file.bytes.len() > RESULT_FILE_CAP
        {
            v.notes.push("result file larger than 1 MiB ignored".to_owned());
            return v;
        }
        let Ok(text) = std::str::from_utf8(&file.bytes) else {
            v.notes.push("result file is not UTF-8; ignored".to_owned());
            return v;
        };
        if crate::load::py_strip(text).is_empty() {
            return v;
        }
        let decision = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                v.notes.push("result file is not a JSON object; ignored".to_owned());
                return v;
            }
            Err(e) => {
                v.notes.push(format!("result file is not valid JSON ({e}); ignored"));
                return v;
            }
        };
        let action = match decision.get("action") {
            Some(Value::String(s)) if !s.is_empty() => s.to_lowercase(),
            _ => "allow".to_owned(),
        };
        if action == "block" {
            if is_gated(native) {
                let reason = decision
                    .get("reason")
                    .filter(|r| json_truthy(r))
                    .map(json_py_str)
                    .unwrap_or_default();
                v.decision = Some(Decision::Deny);
                v.reason = Some(if reason.is_empty() {
                    format!("hook '{}' blocked", hook.id)
                } else {
                    format!("hook '{}' blocked: {reason}", hook.id)
                });
                return v;
            }
            v.notes.push(format!("action=block ignored: {native} is not a gated event"));
        }
        if action == "modify"
            && native == "before_tool_call"
            && let Some(Value::Object(o)) = decision.get("args_override")
        {
            v.rewrite = Some(ArgRewrite::Merge(o.clone()));
        }
        if native == "user_prompt_submit"
            && let Some(Value::String(s)) = decision.get("system_reminder")
            && !s.is_empty()
        {
            v.context.push(s.clone());
        }
        if matches!(native, "after_tool_call" | "tool_error")
            && let Some(Value::String(s)) = decision.get("extra_context")
            && !s.is_empty()
        {
            v.context.push(s.clone());
        }
        v
    }
}

/// Chrys's failure label: `timeout`, `launch_error`, or `exit_code=N` (negative for a
/// signal); `None` for a run that exited 0 in time.
pub(crate) fn failure_label(outcome: &RawOutcome) -> Option<String> {
    if outcome.timed_out {
        return Some("timeout".to_owned());
    }
    match &outcome.exit {
        ExitInfo::Exited(0) => None,
        ExitInfo::Exited(c) => Some(format!("exit_code={c}")),
        ExitInfo::Signaled(s) => Some(format!("exit_code=-{s}")),
        ExitInfo::Responded(s) => Some(format!("http_status={s}")),
        ExitInfo::NotStarted(_) => Some("launch_error".to_owned()),
    }
}

fn payload_cwd(envelope: &Envelope, ctx: &EncodeContext<'_>) -> String {
    envelope.cwd.as_deref().unwrap_or(ctx.working_dir).display().to_string()
}

fn opt_str(v: Option<&String>) -> Value {
    v.map_or(Value::Null, |s| Value::String(s.clone()))
}

/// The envelope Chrys builds for `hook`'s event.
fn payload(
    hook: &HookDefinition,
    env: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Map<String, Value>, PayloadError> {
    let native = hook.native_event.as_str();
    if native_event_name(env.event) != Some(native) {
        return Err(PayloadError::OtherEvent {
            envelope: env.event.to_string(),
            hook: native.to_owned(),
        });
    }
    let mut p = Map::new();
    p.insert("session_id".into(), opt_str(env.session_id.as_ref()));
    p.insert("profile".into(), Value::String(env.profile.clone().unwrap_or_default()));
    p.insert("cwd".into(), Value::String(payload_cwd(env, ctx)));
    let need = |part: &'static str| PayloadError::Needs { event: native.to_owned(), part };
    let tool = || -> Result<Value, PayloadError> {
        let t = env.tool.as_ref().ok_or_else(|| need("a tool call"))?;
        let mut m = Map::new();
        m.insert("name".into(), Value::String(t.name.clone()));
        m.insert("kind".into(), chrys_tool_kind(t).map_or(Value::Null, Value::String));
        m.insert("call_id".into(), opt_str(t.call_id.as_ref()));
        m.insert("args".into(), t.args.clone());
        Ok(Value::Object(m))
    };
    match native {
        "session_restored" => {
            let id = env.session.as_ref().and_then(|s| s.restored_session_id.as_ref());
            p.insert("restored_session_id".into(), opt_str(id));
        }
        "workflow_run_start" | "workflow_run_end" => {
            let w = env.workflow.clone().unwrap_or_default();
            p.insert("run_id".into(), opt_str(w.run_id.as_ref()));
            if native == "workflow_run_start" {
                p.insert("input_text".into(), opt_str(w.input_text.as_ref()));
            } else {
                p.insert("outcome".into(), opt_str(w.outcome.as_ref()));
                p.insert("reason".into(), opt_str(w.reason.as_ref()));
            }
        }
        "before_turn" | "after_turn" => {
            let t = env.turn.clone().unwrap_or_default();
            p.insert("turn".into(), t.number.map_or(Value::Null, Value::from));
            if native == "before_turn" {
                p.insert("user_text".into(), opt_str(t.user_text.as_ref()));
                p.insert("is_retry".into(), Value::Bool(t.is_retry.unwrap_or(false)));
            } else {
                p.insert("failed".into(), Value::Bool(t.status.as_deref() == Some("failed")));
                p.insert("status".into(), opt_str(t.status.as_ref()));
            }
        }
        "user_prompt_submit" => {
            let pr = env.prompt.as_ref().ok_or_else(|| need("a prompt"))?;
            p.insert("text".into(), Value::String(pr.text.clone()));
            p.insert("injected".into(), Value::Bool(pr.injected));
        }
        "before_tool_call" => {
            p.insert("tool".into(), tool()?);
        }
        "after_tool_call" | "tool_error" => {
            p.insert("tool".into(), tool()?);
            let r = env.result.clone().unwrap_or_default();
            let mut m = Map::new();
            m.insert("text".into(), Value::String(r.text.unwrap_or_default()));
            m.insert("duration_ms".into(), r.duration_ms.map_or(Value::Null, Value::from));
            m.insert("error".into(), opt_str(r.error.as_ref()));
            m.insert("failed".into(), Value::Bool(r.failed));
            m.insert("approval_rejected".into(), Value::Bool(r.approval_rejected));
            p.insert("result".into(), Value::Object(m));
        }
        "approval_requested" | "approval_resolved" => {
            p.insert("tool".into(), tool()?);
            let a = env.approval.clone().unwrap_or_default();
            p.insert("request_id".into(), opt_str(a.request_id.as_ref()));
            p.insert("caller_name".into(), opt_str(a.caller_name.as_ref()));
            if native == "approval_resolved" {
                p.insert("approved".into(), a.approved.map_or(Value::Null, Value::Bool));
            }
        }
        "sub_agent_start" | "sub_agent_end" => {
            let s = env.subagent.clone().unwrap_or_default();
            let mut m = Map::new();
            m.insert("name".into(), opt_str(s.name.as_ref().or(s.agent_type.as_ref())));
            m.insert("tool_name".into(), opt_str(s.agent_type.as_ref()));
            m.insert("invocation_id".into(), opt_str(s.id.as_ref()));
            m.insert("parent_call_id".into(), opt_str(s.parent_call_id.as_ref()));
            p.insert("sub_agent".into(), Value::Object(m));
            if native == "sub_agent_end" {
                p.insert("status".into(), opt_str(s.status.as_ref()));
                let summary: Option<String> = s.summary.map(|t| t.chars().take(500).collect());
                p.insert("result_summary".into(), opt_str(summary.as_ref()));
            }
        }
        "pre_compact" => {
            let c = env.compaction.clone().unwrap_or_default();
            p.insert("trigger".into(), opt_str(c.trigger.as_ref()));
            p.insert(
                "usage_pct".into(),
                c.usage_pct
                    .and_then(serde_json::Number::from_f64)
                    .map_or(Value::Null, Value::Number),
            );
            p.insert("tokens_before".into(), c.tokens_before.map_or(Value::Null, Value::from));
        }
        _ => {}
    }
    p.insert("schema".into(), Value::from(1));
    p.insert("event".into(), Value::String(native.to_owned()));
    p.insert("timestamp".into(), Value::String(timestamp(env.timestamp.as_deref())));
    for (k, v) in &env.extra {
        if !p.contains_key(k) {
            p.insert(k.clone(), v.clone());
        }
    }
    Ok(p)
}

/// `YYYY-MM-DDTHH:MM:SSZ`: the envelope's RFC 3339 UTC time cut to seconds, or now.
fn timestamp(given: Option<&str>) -> String {
    if let Some(t) = given {
        let head = t.get(..19);
        let tail = t.get(19..).unwrap_or("");
        let utc = tail == "Z" || (tail.starts_with('.') && tail.ends_with('Z'));
        return match head {
            Some(h) if utc && h.as_bytes().get(10) == Some(&b'T') => format!("{h}Z"),
            _ => t.to_owned(),
        };
    }
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Formats Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn format_utc(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// JSON as Python's `json.dump` writes it by default.
pub(crate) fn python_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_f64() {
                let f = n.as_f64().unwrap_or(0.0);
                out.push_str(&float_repr(f));
            } else {
                out.push_str(&n.to_string());
            }
        }
        Value::String(s) => write_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(k, out);
                out.push_str(": ");
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (' '..='~').contains(&c) => out.push(c),
            c => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests;
