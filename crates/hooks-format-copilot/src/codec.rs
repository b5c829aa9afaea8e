//! Copilot CLI's hook protocol, as its native hook engine (1.0.102) speaks it: the input as
//! one JSON document on stdin, then the exit code and stdout.
//!
//! [`CopilotCodec::encode`] builds the payload in the hook's [`Dialect`] (camelCase fields
//! and an epoch-millisecond `timestamp` for a camelCase event; `hook_event_name`, snake_case
//! fields, Claude tool names and an ISO `timestamp` for a PascalCase one, except
//! `PermissionRequest`, which always gets the camelCase payload) and runs the command with
//! `bash -c` in the project root (or the entry's `cwd` under it) with `COPILOT_PROJECT_DIR`,
//! `CLAUDE_PROJECT_DIR` and `COPILOT_HOOK_DIR` set.
//!
//! [`CopilotCodec::decode`] reads the outcome with the rules observed in the harness
//! (`specs/formats/copilot.md` has the matrix):
//!
//! 1. a timeout is a failure without a decision, on every event (Copilot always fails open
//!    on a timeout, even on `preToolUse`);
//! 2. stdout lines that are single-line `{"type":"progress",…}` objects are dropped; the rest,
//!    trimmed, is one JSON object or no output;
//! 3. on `preToolUse`: exit 0 applies the output; exit 2 denies, with the output's
//!    `permissionDecisionReason` when it has one (stderr is not read); any other exit (and a
//!    crash) denies as "hook errored";
//! 4. on `permissionRequest`: exit 2 denies (the output merged);
//! 5. elsewhere exit 2 is a warning with stderr for the user, other exits are failures; the
//!    action goes on.

use std::path::{Path, PathBuf};

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, EventRule, ExitInfo, FormatId,
    HookCodec, HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir, PayloadError,
    Program, RawOutcome, checked_native, json_stdin,
};
use serde_json::{Map, Value};

use crate::{
    events::{CopilotEvent, Dialect},
    matcher::{claude_tool_name, copilot_tool_name},
    parse::{NATIVE_HOOK_DIR, SHELL},
    time,
};

/// Copilot CLI's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CopilotCodec;

/// The variables Copilot sets to the project root for every hook (observed).
pub const PROJECT_DIR_VARS: [&str; 2] = ["COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

/// The variable Copilot sets to the folder of the hook's file (observed).
pub const HOOK_DIR_VAR: &str = "COPILOT_HOOK_DIR";

/// The reason of a deny by exit code 2 without a reason in the output (Copilot's wording).
pub const EXIT_2_REASON: &str = "hook exited with code 2";

/// The reason of a deny without one (Copilot's wording).
pub const NO_REASON: &str = "No reason provided";

/// The event and dialect of a definition.
pub(crate) fn native_of(hook: &HookDefinition) -> Option<(CopilotEvent, Dialect)> {
    CopilotEvent::from_name(&hook.native_event)
        .filter(|(e, _)| e.canonical() == Some(hook.event))
        .or_else(|| CopilotEvent::from_canonical(hook.event).map(|e| (e, Dialect::Camel)))
}

fn project_dir(envelope: &Envelope, ctx: &EncodeContext<'_>) -> PathBuf {
    ctx.project_dir
        .map(Path::to_path_buf)
        .or_else(|| envelope.cwd.clone().filter(|c| c.is_absolute()))
        .unwrap_or_else(|| ctx.working_dir.to_path_buf())
}

fn session_cwd(envelope: &Envelope, ctx: &EncodeContext<'_>) -> String {
    envelope
        .cwd
        .as_deref()
        .filter(|c| c.is_absolute())
        .unwrap_or(ctx.working_dir)
        .display()
        .to_string()
}

/// Renames between the dialects for fields kept in `extra` by the host codec.
const FIELD_NAMES: [(&str, &str); 6] = [
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("stopReason", "stop_reason"),
    ("initialPrompt", "initial_prompt"),
    ("agentName", "agent_name"),
    ("customInstructions", "custom_instructions"),
];

/// `key` as `dialect` spells it.
fn key(dialect: Dialect, camel: &'static str) -> &'static str {
    match dialect {
        Dialect::Camel => camel,
        Dialect::Pascal => FIELD_NAMES.iter().find(|(c, _)| *c == camel).map_or(camel, |(_, s)| s),
    }
}

/// The tool result as Copilot sends it: `{resultType, textResultForLlm}` (snake_case in the
/// PascalCase dialect); an envelope carrying Copilot's own object passes it through.
fn tool_result(envelope: &Envelope, dialect: Dialect) -> Value {
    let result = envelope.result.clone().unwrap_or_default();
    let (rt, text) = match dialect {
        Dialect::Camel => ("resultType", "textResultForLlm"),
        Dialect::Pascal => ("result_type", "text_result_for_llm"),
    };
    if let Some(out @ Value::Object(o)) = &result.output
        && o.contains_key(rt)
    {
        return out.clone();
    }
    let body = result
        .text
        .clone()
        .or_else(|| {
            result.output.as_ref().map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_owned))
        })
        .or_else(|| result.error.clone())
        .unwrap_or_default();
    // A shell command's status ends the text as Copilot CLI words it (observed with 1.0.102;
    // the id of the shell is not known here).
    let body = match result.exit_code {
        Some(code) => format!("{body}\n<shellId: 0 completed with exit code {code}>"),
        None => body,
    };
    let mut r = Map::new();
    let kind = if result.failed { "failure" } else { "success" };
    r.insert(rt.into(), Value::String(kind.into()));
    r.insert(text.into(), Value::String(body));
    Value::Object(r)
}

/// Builds the stdin document Copilot sends to a hook of `event` in `dialect`.
pub fn payload(
    event: CopilotEvent,
    dialect: Dialect,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Value, PayloadError> {
    let d = event.payload_dialect(dialect);
    let mut p = Map::new();
    let s = |v: Option<String>| Value::String(v.unwrap_or_default());
    if d == Dialect::Pascal {
        p.insert("hook_event_name".into(), Value::String(event.name(Dialect::Pascal).into()));
    }
    if event == CopilotEvent::PermissionRequest {
        p.insert("hookName".into(), Value::String(event.camel().into()));
    }
    p.insert(key(d, "sessionId").into(), s(envelope.session_id.clone()));
    if let Some(ts) = &envelope.timestamp {
        let v = match (d, time::epoch_millis(ts)) {
            (Dialect::Camel, Some(ms)) => Value::from(ms),
            (Dialect::Pascal, Some(ms)) if ts.parse::<i64>().is_ok() => {
                Value::String(time::iso(ms))
            }
            _ => Value::String(ts.clone()),
        };
        p.insert("timestamp".into(), v);
    }
    p.insert("cwd".into(), Value::String(session_cwd(envelope, ctx)));
    let tool = || {
        envelope.tool.as_ref().ok_or_else(|| PayloadError::Missing {
            event: event.camel().to_owned(),
            part: "tool call",
        })
    };
    let tool_name = |t: &hooks_schema::ToolCall| {
        let runtime = copilot_tool_name(t);
        match d {
            Dialect::Camel => runtime,
            Dialect::Pascal => claude_tool_name(&runtime).to_owned(),
        }
    };
    let (name_key, args_key) = match d {
        Dialect::Camel => ("toolName", "toolArgs"),
        Dialect::Pascal => ("tool_name", "tool_input"),
    };
    match event {
        CopilotEvent::SessionStart => {
            let src = envelope.session.as_ref().and_then(|si| si.source.clone());
            p.insert("source".into(), Value::String(src.unwrap_or_else(|| "new".into())));
            if let Some(pr) = &envelope.prompt {
                p.insert(key(d, "initialPrompt").into(), Value::String(pr.text.clone()));
            }
        }
        CopilotEvent::SessionEnd => {
            let reason = envelope.session.as_ref().and_then(|si| si.reason.clone());
            p.insert("reason".into(), Value::String(reason.unwrap_or_else(|| "complete".into())));
        }
        CopilotEvent::UserPromptSubmitted => {
            p.insert("prompt".into(), s(envelope.prompt.as_ref().map(|pr| pr.text.clone())));
        }
        CopilotEvent::PreToolUse | CopilotEvent::PostToolUse | CopilotEvent::PostToolUseFailure => {
            let t = tool()?;
            p.insert(name_key.into(), Value::String(tool_name(t)));
            p.insert(args_key.into(), t.args.clone());
            if event == CopilotEvent::PostToolUse {
                let rk = if d == Dialect::Camel { "toolResult" } else { "tool_result" };
                p.insert(rk.into(), tool_result(envelope, d));
            }
            if event == CopilotEvent::PostToolUseFailure {
                let r = envelope.result.clone().unwrap_or_default();
                p.insert("error".into(), s(r.error.or(r.text)));
            }
        }
        CopilotEvent::PermissionRequest => {
            let t = tool()?;
            p.insert("toolName".into(), Value::String(copilot_tool_name(t)));
            p.insert("toolInput".into(), t.args.clone());
            let sugg = envelope.extra.get("permissionSuggestions").cloned();
            p.insert(
                "permissionSuggestions".into(),
                sugg.unwrap_or_else(|| Value::Array(Vec::new())),
            );
        }
        CopilotEvent::AgentStop | CopilotEvent::SubagentStop => {
            if let Some(t) = &envelope.transcript_path {
                p.insert(key(d, "transcriptPath").into(), Value::String(t.display().to_string()));
            }
            let stop = envelope.stop.clone().unwrap_or_default();
            let reason = stop.status.unwrap_or_else(|| "end_turn".into());
            p.insert(key(d, "stopReason").into(), Value::String(reason));
            p.insert("stop_hook_active".into(), Value::Bool(stop.stop_hook_active));
            if event == CopilotEvent::SubagentStop
                && let Some(name) =
                    envelope.subagent.as_ref().and_then(|a| a.name.clone().or(a.agent_type.clone()))
            {
                p.insert(key(d, "agentName").into(), Value::String(name));
            }
        }
        CopilotEvent::SubagentStart => {
            let a = envelope.subagent.clone().unwrap_or_default();
            p.insert("agentName".into(), s(a.name.or(a.agent_type)));
        }
        CopilotEvent::PreCompact => {
            let c = envelope.compaction.clone().unwrap_or_default();
            p.insert("trigger".into(), Value::String(c.trigger.unwrap_or_else(|| "auto".into())));
            if let Some(ci) = c.custom_instructions {
                p.insert(key(d, "customInstructions").into(), Value::String(ci));
            }
        }
        CopilotEvent::Notification => {
            let n = envelope.notification.clone().unwrap_or_default();
            p.insert("notification_type".into(), s(n.kind));
            p.insert("message".into(), s(n.message));
            if let Some(t) = n.title {
                p.insert("title".into(), Value::String(t));
            }
        }
        CopilotEvent::UserPromptTransformed
        | CopilotEvent::ErrorOccurred
        | CopilotEvent::PreMcpToolCall => {
            return Err(PayloadError::NoCanonical { event: event.camel().to_owned() });
        }
    }
    for (k, v) in &envelope.extra {
        // A field the host kept in the other dialect's spelling is renamed.
        let k = FIELD_NAMES
            .iter()
            .find(|(c, sn)| k == c || k == sn)
            .map_or(k.as_str(), |(c, sn)| if d == Dialect::Camel { c } else { sn });
        if !p.contains_key(k) {
            p.insert(k.to_owned(), v.clone());
        }
    }
    Ok(Value::Object(p))
}

impl HookCodec for CopilotCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    /// Copilot runs a hook in the project root, or in its `cwd` taken from the repository
    /// root; `COPILOT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` name the root and
    /// `COPILOT_HOOK_DIR` the hook file's folder.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let run_dir = LaunchDir::with_cwd(LaunchDir::Project, hook.cwd.as_deref());
        let mut dir_vars: Vec<(String, LaunchDir)> =
            PROJECT_DIR_VARS.iter().map(|v| ((*v).to_owned(), LaunchDir::Project)).collect();
        if let Some(dir) = hook.native.get(NATIVE_HOOK_DIR).and_then(Value::as_str) {
            dir_vars.push((HOOK_DIR_VAR.to_owned(), LaunchDir::Fixed(dir.into())));
        }
        HookLaunch { run_dir, dir_vars, ..HookLaunch::default() }
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let (event, dialect) =
            checked_native("Copilot CLI", hook, envelope, native_of(hook), EventRule::OWN)?;
        let body = payload(event, dialect, envelope, ctx)?;
        let stdin = json_stdin(&body)?;
        let root = project_dir(envelope, ctx);
        let program = Program::of(&hook.command, "Copilot CLI", |script, shell| Program::Shell {
            script: script.clone(),
            shell: shell.clone().or_else(|| Some(SHELL.to_owned())),
        })?;
        let root_text = root.display().to_string();
        let mut env: Vec<(String, String)> =
            PROJECT_DIR_VARS.iter().map(|v| ((*v).to_owned(), root_text.clone())).collect();
        let hook_dir = hook
            .native
            .get(NATIVE_HOOK_DIR)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| ctx.source.path.as_path().parent().map(|p| p.display().to_string()));
        if let Some(dir) = hook_dir {
            env.push((HOOK_DIR_VAR.to_owned(), dir));
        }
        for (k, v) in &hook.env {
            env.retain(|(ek, _)| ek != k);
            env.push((k.clone(), v.clone()));
        }
        let cwd = match &hook.cwd {
            Some(dir) => root.join(dir),
            None => root,
        };
        Ok(Invocation {
            program,
            cwd: Some(cwd),
            env_remove: Vec::new(),
            env,
            stdin,
            files: Vec::new(),
            timeout: hook.timeout,
        })
    }

    fn decode(
        &self,
        hook: &HookDefinition,
        _envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        let Some((event, dialect)) = native_of(hook) else {
            return HookVerdict::unknown_event("Copilot CLI", &hook.native_event);
        };
        decode_outcome(event, dialect, hook.timeout.as_secs(), outcome)
    }
}

/// Stdout without Copilot's progress lines (single-line `{"type":"progress","message":…}`
/// objects), trimmed, and the progress messages.
pub(crate) fn strip_progress(stdout: &str) -> (String, Vec<String>) {
    let mut kept = Vec::new();
    let mut progress = Vec::new();
    for line in stdout.lines() {
        let t = line.trim();
        if t.starts_with('{')
            && let Ok(Value::Object(o)) = serde_json::from_str::<Value>(t)
            && o.get("type").and_then(Value::as_str) == Some("progress")
            && let Some(m) = o.get("message").and_then(Value::as_str)
        {
            progress.push(m.to_owned());
            continue;
        }
        kept.push(line);
    }
    (kept.join("\n").trim().to_owned(), progress)
}

/// Reads one run's outcome with Copilot CLI's rules.
pub fn decode_outcome(
    event: CopilotEvent,
    dialect: Dialect,
    timeout_secs: u64,
    outcome: &RawOutcome,
) -> HookVerdict {
    let mut v = HookVerdict::default();
    if outcome.timed_out {
        v.failure = Some(format!("Hook command timed out after {timeout_secs} seconds"));
        return v;
    }
    let code = match &outcome.exit {
        ExitInfo::Exited(c) => Some(*c),
        ExitInfo::Signaled(_) | ExitInfo::NotStarted(_) | ExitInfo::Responded(_) => None,
    };
    let (text, progress) = strip_progress(&outcome.stdout.lossy());
    for p in progress {
        v.notes.push(format!("progress: {p}"));
    }
    if outcome.stdout.truncated {
        v.notes.push(
            "the hook's output exceeded the capture limit and was cut; it is read as captured"
                .into(),
        );
    }
    let obj = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(o)) => Some(o),
        _ if text.is_empty() => None,
        _ => {
            v.notes.push(
                "the output is not one JSON object; Copilot CLI reads it as no output".into(),
            );
            None
        }
    };
    let stderr = outcome.stderr.lossy().trim().to_owned();
    let failed = match &outcome.exit {
        ExitInfo::Exited(0) => None,
        ExitInfo::Exited(c) => Some(format!("exited with code {c}")),
        ExitInfo::Signaled(s) => Some(format!("killed by signal {s}")),
        ExitInfo::Responded(s) => Some(format!("answered HTTP {s}; Copilot CLI has no http hooks")),
        ExitInfo::NotStarted(f) => Some(format!("could not start: {}", f.message)),
    };
    match (event, code) {
        (_, Some(0)) => {}
        (CopilotEvent::PreToolUse, Some(2)) => {
            let mut o = obj.unwrap_or_default();
            o.insert("permissionDecision".into(), "deny".into());
            if !o.contains_key("permissionDecisionReason") {
                o.insert("permissionDecisionReason".into(), EXIT_2_REASON.into());
            }
            if !stderr.is_empty() {
                v.notes.push(
                    "Copilot CLI does not read stderr on exit 2; the reason comes from stdout"
                        .into(),
                );
            }
            return apply(event, dialect, &o, v);
        }
        (CopilotEvent::PreToolUse, _) => {
            let why = failed.unwrap_or_default();
            v.decision = Some(Decision::Deny);
            v.reason =
                Some(format!("the preToolUse hook errored ({why}); Copilot CLI denies the tool"));
            v.failure = Some(why);
            return v;
        }
        (CopilotEvent::PermissionRequest, Some(2)) => {
            let mut o = obj.unwrap_or_default();
            o.insert("behavior".into(), "deny".into());
            return apply(event, dialect, &o, v);
        }
        (CopilotEvent::PostToolUseFailure, Some(2)) => {
            if !text.is_empty() {
                v.context.push(text);
            }
            return v;
        }
        (_, Some(2)) => {
            if !stderr.is_empty() {
                v.user_message = Some(stderr);
            }
            v.notes.push("exit code 2 is a warning on this event; the action goes on".into());
            return v;
        }
        _ => {
            v.failure = failed;
            return v;
        }
    }
    match obj {
        Some(o) => apply(event, dialect, &o, v),
        None => v,
    }
}

fn text_of(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned)
}

/// Applies one output object as Copilot does for `event`.
fn apply(
    event: CopilotEvent,
    dialect: Dialect,
    obj: &Map<String, Value>,
    mut v: HookVerdict,
) -> HookVerdict {
    // The PascalCase dialect also reads Claude Code's nested `hookSpecificOutput`.
    let nested = match (dialect, obj.get("hookSpecificOutput")) {
        (Dialect::Pascal, Some(Value::Object(m))) => m.clone(),
        (Dialect::Camel, Some(_)) => {
            v.notes.push("`hookSpecificOutput` is Claude Code's; Copilot CLI ignores it on a camelCase event".into());
            Map::new()
        }
        _ => Map::new(),
    };
    let field = |k: &str| nested.get(k).or_else(|| obj.get(k)).cloned();
    let text =
        |k: &str| field(k).and_then(|x| x.as_str().filter(|s| !s.is_empty()).map(str::to_owned));
    if let Some(c) = text("additionalContext") {
        if matches!(event, CopilotEvent::SessionEnd | CopilotEvent::PreCompact) {
            v.notes.push(format!("`additionalContext` has no effect on `{}`", event.camel()));
        } else {
            v.context.push(c);
        }
    }
    match event {
        CopilotEvent::PreToolUse => {
            match field("permissionDecision").as_ref().and_then(Value::as_str) {
                Some("deny") => {
                    v.decision = Some(Decision::Deny);
                    v.reason =
                        Some(text("permissionDecisionReason").unwrap_or_else(|| NO_REASON.into()));
                }
                Some("ask") => {
                    v.decision = Some(Decision::Ask);
                    v.reason = text("permissionDecisionReason");
                }
                Some("allow") => {
                    v.decision = Some(Decision::Allow);
                    v.reason = text("permissionDecisionReason");
                }
                Some(other) => v.notes.push(format!(
                    "`permissionDecision: {other}` is not one Copilot CLI knows; ignored"
                )),
                None => {}
            }
            let rewrite_key = if dialect == Dialect::Pascal && nested.contains_key("updatedInput") {
                "updatedInput"
            } else {
                "modifiedArgs"
            };
            if let Some(Value::Object(args)) = field(rewrite_key) {
                if v.decision == Some(Decision::Deny) {
                    v.notes.push(format!("`{rewrite_key}` is ignored on a deny"));
                } else {
                    v.rewrite = Some(ArgRewrite::Replace(Value::Object(args)));
                }
            }
            for k in ["decision", "continue"] {
                if obj.contains_key(k) {
                    v.notes.push(format!("`{k}` is not a Copilot CLI preToolUse field; ignored"));
                }
            }
        }
        CopilotEvent::PermissionRequest => match obj.get("behavior").and_then(Value::as_str) {
            Some("deny") => {
                v.decision = Some(Decision::Deny);
                v.reason = Some(text_of(obj, "message").unwrap_or_else(|| NO_REASON.into()));
                if obj.get("interrupt") == Some(&Value::Bool(true)) {
                    v.halt = v.reason.clone();
                }
            }
            Some("allow") => v.decision = Some(Decision::Allow),
            _ => {}
        },
        CopilotEvent::AgentStop | CopilotEvent::SubagentStop => {
            if obj.get("decision").and_then(Value::as_str) == Some("block") {
                match text_of(obj, "reason") {
                    Some(r) => v.followup = Some(r),
                    None => v.notes.push("`decision: block` without a `reason` has nothing to continue with; ignored".into()),
                }
            }
            if obj.contains_key("modifiedResponse") {
                v.notes.push("`modifiedResponse` is not supported by this engine; ignored".into());
            }
        }
        CopilotEvent::PostToolUse => {
            if let Some(r) = obj.get("modifiedResult").filter(|r| r.is_object()) {
                v.updated_output = Some(r.clone());
            }
        }
        CopilotEvent::UserPromptSubmitted if obj.contains_key("modifiedPrompt") => {
            v.notes.push(
                "`modifiedPrompt` is honoured only for SDK hooks by Copilot CLI; ignored".into(),
            );
        }
        _ => {}
    }
    v
}

#[cfg(test)]
mod tests;
