//! Codex's hook protocol: JSON on stdin; exit code 2 with a reason on stderr, or exactly the
//! JSON Codex's output schema allows on stdout, decides.
//!
//! [`CodexCodec`] encodes an envelope into the stdin document Codex 0.169.0 sends (field for
//! field as recorded from the real CLI) and runs the command as Codex does, through the
//! user's shell as a login shell (`$SHELL -lc`). It decodes the run the way Codex reads it,
//! including the quirks that make Codex ignore an answer and let the action proceed: JSON is
//! read only on exit 0; any key the event's output schema does not allow, a missing or wrong
//! `hookEventName`, a deny without a non-empty reason, an explicit `allow` without
//! `updatedInput`, `ask`, and exit 2 with an empty stderr all make the hook *failed*, which
//! fails open. The table with the evidence is in `specs/formats/codex.md`.

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, EventRule, ExitInfo, FormatId,
    HookCodec, HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir, Program, RawOutcome,
    checked_native, json_stdin,
};
use serde_json::{Map, Value};

use crate::{
    CodexEvent,
    matcher::{APPLY_PATCH, codex_tool_name},
};

/// The shell Codex falls back to when `$SHELL` is unset.
pub const DEFAULT_SHELL: &str = "/bin/sh";

/// The most characters of a reason or context kept; the rest is replaced by a marker.
pub const MAX_TEXT_CHARS: usize = 10_000;

/// Codex's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodexCodec;

fn native_of(hook: &HookDefinition) -> Option<CodexEvent> {
    CodexEvent::from_name(&hook.native_event).or_else(|| CodexEvent::from_canonical(hook.event))
}

fn cap_text(s: &str) -> String {
    let count = s.chars().count();
    if count <= MAX_TEXT_CHARS {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(MAX_TEXT_CHARS).collect();
    out.push_str(&format!("\n[… {} more characters truncated]", count - MAX_TEXT_CHARS));
    out
}

/// The `tool_input` a Codex hook sees: the arguments as they are, except that a file edit
/// from another agent (`file_path` with `content`, or with `old_string`/`new_string`) becomes
/// the `apply_patch` input Codex sends, `{"command": "<patch>"}`.
pub fn codex_tool_input(tool: &hooks_schema::ToolCall) -> Value {
    let is_patch = codex_tool_name(tool) == APPLY_PATCH;
    let has_command = tool.args.get("command").is_some_and(Value::is_string);
    if !is_patch || has_command {
        return tool.args.clone();
    }
    let s = |k: &str| tool.args.get(k).and_then(Value::as_str);
    let Some(path) = s("file_path").or_else(|| s("path")) else { return tool.args.clone() };
    let mut patch = String::from("*** Begin Patch\n");
    let lines = |prefix: char, text: &str, out: &mut String| {
        for line in text.split_inclusive('\n') {
            out.push(prefix);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push('\n');
            }
        }
    };
    if let Some(content) = s("content").or_else(|| s("file_text")) {
        patch.push_str(&format!("*** Add File: {path}\n"));
        lines('+', content, &mut patch);
    } else {
        patch.push_str(&format!("*** Update File: {path}\n@@\n"));
        lines('-', s("old_string").or_else(|| s("old_str")).unwrap_or_default(), &mut patch);
        lines('+', s("new_string").or_else(|| s("new_str")).unwrap_or_default(), &mut patch);
    }
    patch.push_str("*** End Patch\n");
    let mut m = Map::new();
    m.insert("command".into(), Value::String(patch));
    Value::Object(m)
}

/// Builds the stdin document Codex sends for `envelope` on `native`.
///
/// # Errors
/// When a tool event's envelope carries no tool call.
pub fn payload(
    native: CodexEvent,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Value, EncodeError> {
    let mut p = Map::new();
    let opt = |v: &Option<String>| v.clone().map_or(Value::Null, Value::String);
    p.insert("session_id".into(), Value::String(envelope.session_id.clone().unwrap_or_default()));
    p.insert(
        "transcript_path".into(),
        envelope
            .transcript_path
            .as_deref()
            .map_or(Value::Null, |t| Value::String(t.display().to_string())),
    );
    let cwd = envelope.cwd.as_deref().unwrap_or(ctx.working_dir);
    p.insert("cwd".into(), Value::String(cwd.display().to_string()));
    p.insert("hook_event_name".into(), Value::String(native.as_str().to_owned()));
    if native != CodexEvent::SessionEnd
        && let Some(m) = &envelope.model
    {
        p.insert("model".into(), Value::String(m.clone()));
    }
    let permission_mode = !matches!(
        native,
        CodexEvent::SessionEnd | CodexEvent::PreModelRequest | CodexEvent::PostModelRequest
    );
    if permission_mode {
        p.insert(
            "permission_mode".into(),
            Value::String(envelope.permission_mode.clone().unwrap_or_else(|| "default".to_owned())),
        );
    }
    let turn_scoped = !matches!(native, CodexEvent::SessionStart | CodexEvent::SessionEnd);
    if turn_scoped && let Some(t) = &envelope.turn_id {
        p.insert("turn_id".into(), Value::String(t.clone()));
    }
    let tool = || {
        envelope.tool.as_ref().ok_or_else(|| {
            EncodeError::Payload(format!(
                "the envelope of a {} firing has no tool call",
                native.as_str()
            ))
        })
    };
    match native {
        CodexEvent::PreToolUse | CodexEvent::PermissionRequest | CodexEvent::PostToolUse => {
            let t = tool()?;
            p.insert("tool_name".into(), Value::String(codex_tool_name(t)));
            p.insert("tool_input".into(), codex_tool_input(t));
            p.insert("tool_use_id".into(), Value::String(t.call_id.clone().unwrap_or_default()));
            if native == CodexEvent::PostToolUse {
                let r = envelope.result.clone().unwrap_or_default();
                // Codex sends the tool's output as one string.
                let text = match (r.text, r.output, r.error) {
                    (Some(t), _, _) => t,
                    (None, Some(Value::String(s)), _) => s,
                    (None, Some(o), _) => o.to_string(),
                    (None, None, Some(e)) => e,
                    (None, None, None) => String::new(),
                };
                p.insert("tool_response".into(), Value::String(text));
            }
        }
        CodexEvent::UserPromptSubmit => {
            let prompt = envelope.prompt.as_ref().map(|pr| pr.text.clone()).unwrap_or_default();
            p.insert("prompt".into(), Value::String(prompt));
        }
        CodexEvent::SessionStart => {
            let source = envelope.session.as_ref().and_then(|s| s.source.clone());
            p.insert("source".into(), Value::String(source.unwrap_or_else(|| "startup".into())));
        }
        CodexEvent::SessionEnd => {
            let reason = envelope.session.as_ref().and_then(|s| s.reason.clone());
            p.insert("reason".into(), Value::String(reason.unwrap_or_else(|| "other".into())));
        }
        CodexEvent::Stop => {
            let stop = envelope.stop.clone().unwrap_or_default();
            p.insert("last_assistant_message".into(), opt(&stop.last_message));
            p.insert("stop_hook_active".into(), Value::Bool(stop.stop_hook_active));
        }
        CodexEvent::SubagentStart | CodexEvent::SubagentStop => {
            let sub = envelope.subagent.clone().unwrap_or_default();
            p.insert("agent_id".into(), Value::String(sub.id.unwrap_or_default()));
            p.insert("agent_type".into(), Value::String(sub.agent_type.unwrap_or_default()));
            if native == CodexEvent::SubagentStop {
                let active = envelope.stop.as_ref().is_some_and(|s| s.stop_hook_active);
                p.insert("stop_hook_active".into(), Value::Bool(active));
                p.insert("last_assistant_message".into(), opt(&sub.summary));
            }
        }
        CodexEvent::PreCompact | CodexEvent::PostCompact => {
            let c = envelope.compaction.clone().unwrap_or_default();
            p.insert("trigger".into(), Value::String(c.trigger.unwrap_or_else(|| "auto".into())));
            if native == CodexEvent::PreCompact {
                p.insert("custom_instructions".into(), opt(&c.custom_instructions));
            }
        }
        CodexEvent::Interrupt | CodexEvent::PreModelRequest | CodexEvent::PostModelRequest => {}
    }
    envelope.fill_in_extra(&mut p);
    Ok(Value::Object(p))
}

impl HookCodec for CodexCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let native = checked_native("Codex", hook, envelope, native_of(hook), EventRule::OWN)?;
        let body = payload(native, envelope, ctx)?;
        let stdin = json_stdin(&body)?;
        // Codex runs every command through the user's shell as a login shell.
        let program = Program::of(&hook.command, "Codex", |script, shell| {
            if cfg!(windows) {
                return Program::Shell { script: script.clone(), shell: shell.clone() };
            }
            let shell = shell
                .clone()
                .or_else(|| ctx.user_shell.filter(|s| !s.is_empty()).map(str::to_owned))
                .unwrap_or_else(|| DEFAULT_SHELL.to_owned());
            Program::Exec { argv: vec![shell, "-lc".to_owned(), script.clone()] }
        })?;
        // Codex runs hooks in the session's directory, whichever file they come from.
        let base = envelope.cwd.as_deref().filter(|c| c.is_absolute()).unwrap_or(ctx.working_dir);
        let cwd = match &hook.cwd {
            Some(dir) => base.join(dir),
            None => base.to_path_buf(),
        };
        Ok(Invocation {
            program,
            cwd: Some(cwd),
            env_remove: Vec::new(),
            env: hook.env.clone(),
            stdin,
            files: Vec::new(),
            timeout: hook.timeout,
        })
    }

    /// Codex runs every hook in the session's directory, whichever file it comes from, and
    /// sets no variable naming a directory.
    /// The hook's key in `[hooks.state]` (`<file>:<event>:<group>:<handler>`), which
    /// `enabled = false` in the user's `config.toml` switches off.
    fn disable_name(&self, hook: &HookDefinition) -> Option<String> {
        hook.native
            .get(crate::NATIVE_TRUST_KEY)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    }

    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let run_dir = LaunchDir::with_cwd(LaunchDir::Session, hook.cwd.as_deref());
        HookLaunch { run_dir, ..HookLaunch::default() }
    }

    fn decode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        let Some(native) = native_of(hook) else {
            return HookVerdict::unknown_event("Codex", &hook.native_event);
        };
        let _ = envelope;
        decode_outcome(native, outcome)
    }
}

/// Reads one run the way Codex reads it for `native`.
pub fn decode_outcome(native: CodexEvent, outcome: &RawOutcome) -> HookVerdict {
    let ev = native.as_str();
    if outcome.timed_out {
        return HookVerdict::failed("timed out");
    }
    let stdout = outcome.stdout.lossy();
    let stderr = outcome.stderr.lossy();
    match &outcome.exit {
        ExitInfo::NotStarted(f) => HookVerdict::failed(format!("could not start: {}", f.message)),
        ExitInfo::Signaled(s) => HookVerdict::failed(format!("killed by signal {s}")),
        ExitInfo::Responded(s) => {
            HookVerdict::failed(format!("answered HTTP {s}; Codex has no http hooks"))
        }
        ExitInfo::Exited(2) => {
            let reason = stderr.trim();
            if reason.is_empty() {
                let what = match native {
                    CodexEvent::Stop | CodexEvent::SubagentStop => "a continuation prompt",
                    _ => "a denial reason",
                };
                return HookVerdict::failed(format!(
                    "{ev} hook exited with code 2 but did not write {what} to stderr"
                ));
            }
            block(native, cap_text(reason)).unwrap_or_else(|| {
                HookVerdict::failed(format!("exit code 2 is not a decision on {ev}"))
            })
        }
        ExitInfo::Exited(0) => {
            let text = stdout.trim();
            if text.is_empty() {
                return HookVerdict::no_opinion();
            }
            if text.starts_with('{') {
                if outcome.stdout.truncated {
                    return HookVerdict::failed(format!(
                        "hook returned invalid {ev} JSON output: truncated"
                    ));
                }
                return match serde_json::from_str::<Value>(text) {
                    Ok(Value::Object(obj)) => apply_json(native, &obj),
                    _ => HookVerdict::failed(format!("hook returned invalid {ev} JSON output")),
                };
            }
            let mut v = HookVerdict::no_opinion();
            if native.plain_stdout_is_context() {
                v.context.push(cap_text(text));
            } else {
                v.notes.push(format!("plain stdout is not used on {ev}; ignored"));
            }
            v
        }
        ExitInfo::Exited(code) => {
            let detail = stderr.trim();
            if detail.is_empty() {
                HookVerdict::failed(format!("exited with code {code}"))
            } else {
                HookVerdict::failed(format!("exited with code {code}: {}", cap_text(detail)))
            }
        }
    }
}

/// What blocking (exit 2, or `decision: "block"`) means on `native`; `None` where it means
/// nothing.
fn block(native: CodexEvent, reason: String) -> Option<HookVerdict> {
    let mut v = HookVerdict::no_opinion();
    match native {
        CodexEvent::PreToolUse | CodexEvent::UserPromptSubmit | CodexEvent::PermissionRequest => {
            return Some(HookVerdict::decided(Decision::Deny, Some(reason)));
        }
        // The model sees the reason instead of the tool's output.
        CodexEvent::PostToolUse => v.updated_output = Some(Value::String(reason)),
        // Another model turn, with the reason as its prompt.
        CodexEvent::Stop | CodexEvent::SubagentStop => v.followup = Some(reason),
        _ => return None,
    }
    Some(v)
}

const TOP_KEYS: [&str; 7] = [
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
];

/// The keys of `hookSpecificOutput` an event's output schema allows (besides
/// `hookEventName`); `None` when the event has no `hookSpecificOutput`.
fn specific_keys(native: CodexEvent) -> Option<&'static [&'static str]> {
    Some(match native {
        CodexEvent::PreToolUse => {
            &["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"]
        }
        CodexEvent::PermissionRequest => &["decision"],
        CodexEvent::PostToolUse => &["additionalContext", "updatedMCPToolOutput"],
        CodexEvent::SessionStart | CodexEvent::SubagentStart | CodexEvent::UserPromptSubmit => {
            &["additionalContext"]
        }
        _ => return None,
    })
}

fn non_empty(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
}

fn apply_json(native: CodexEvent, obj: &Map<String, Value>) -> HookVerdict {
    let ev = native.as_str();
    let invalid =
        |why: String| HookVerdict::failed(format!("hook returned invalid {ev} JSON output: {why}"));
    if let Some(k) = obj.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
        return invalid(format!("unknown field `{k}`"));
    }
    let string = |k: &str| -> Result<Option<String>, String> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{k}` must be a string")),
        }
    };
    let strings = (|| {
        Ok::<_, String>((
            string("systemMessage")?,
            string("decision")?,
            string("reason")?,
            string("stopReason")?,
        ))
    })();
    let (system_message, decision, reason, stop_reason) = match strings {
        Ok(v) => v,
        Err(why) => return invalid(why),
    };
    let continue_ = match obj.get("continue") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return invalid("`continue` must be a boolean".to_owned()),
    };
    let mut v = HookVerdict {
        user_message: system_message.map(|m| cap_text(&m)),
        ..HookVerdict::default()
    };
    let observe_only = matches!(
        native,
        CodexEvent::PreToolUse
            | CodexEvent::PermissionRequest
            | CodexEvent::PreModelRequest
            | CodexEvent::PostModelRequest
    );
    if continue_ == Some(false) {
        if observe_only {
            return HookVerdict::failed(format!("{ev} hook returned unsupported continue:false"));
        }
        v.halt = Some(stop_reason.unwrap_or_else(|| "stopped by a hook".to_owned()));
    }
    if obj.get("suppressOutput").is_some_and(|s| s != &Value::Bool(false)) {
        if matches!(native, CodexEvent::PreToolUse | CodexEvent::PostToolUse) {
            return HookVerdict::failed(format!("{ev} hook returned unsupported suppressOutput"));
        }
        v.notes.push("`suppressOutput` has no effect in this engine".to_owned());
    }
    match decision.as_deref() {
        None => {
            if reason.is_some() && native == CodexEvent::PostToolUse {
                return HookVerdict::failed(format!(
                    "{ev} hook returned reason without decision:block"
                ));
            }
        }
        Some("block") => {
            let Some(r) = non_empty(obj.get("reason")) else {
                return HookVerdict::failed(format!(
                    "{ev} hook returned decision:block without a non-empty reason"
                ));
            };
            let Some(b) = block(native, cap_text(&r)) else {
                return HookVerdict::failed(format!(
                    "{ev} hook returned unsupported decision:block"
                ));
            };
            // `continue: false` wins over a block.
            if v.halt.is_none() {
                v.decision = b.decision;
                v.reason = b.reason;
                v.followup = b.followup;
                v.updated_output = b.updated_output;
            }
        }
        Some(other) => {
            return HookVerdict::failed(format!("{ev} hook returned unsupported decision:{other}"));
        }
    }
    let specific = match obj.get("hookSpecificOutput") {
        None | Some(Value::Null) => return v,
        Some(Value::Object(m)) => m,
        Some(_) => return invalid("`hookSpecificOutput` must be an object".to_owned()),
    };
    let Some(allowed) = specific_keys(native) else {
        return HookVerdict::failed(format!("{ev} hook returned unsupported hookSpecificOutput"));
    };
    match specific.get("hookEventName") {
        Some(Value::String(n)) if n == ev => {}
        Some(other) => {
            return invalid(format!(
                "`hookSpecificOutput.hookEventName` is {other}, expected \"{ev}\""
            ));
        }
        None => return invalid("`hookSpecificOutput.hookEventName` is missing".to_owned()),
    }
    if let Some(k) =
        specific.keys().find(|k| *k != "hookEventName" && !allowed.contains(&k.as_str()))
    {
        return invalid(format!("unknown field `hookSpecificOutput.{k}`"));
    }
    match specific.get("additionalContext") {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) => {
            if !c.trim().is_empty() {
                v.context.push(cap_text(c));
            }
        }
        Some(_) => return invalid("`additionalContext` must be a string".to_owned()),
    }
    match native {
        CodexEvent::PreToolUse => pre_tool_use(specific, v),
        CodexEvent::PermissionRequest => permission_request(specific, v),
        CodexEvent::PostToolUse if specific.contains_key("updatedMCPToolOutput") => {
            HookVerdict::failed(format!("{ev} hook returned unsupported updatedMCPToolOutput"))
        }
        _ => v,
    }
}

fn pre_tool_use(specific: &Map<String, Value>, mut v: HookVerdict) -> HookVerdict {
    let decision = specific.get("permissionDecision").and_then(Value::as_str);
    let updated = specific.get("updatedInput").filter(|u| !u.is_null());
    match (decision, updated) {
        (None, None) => v,
        (Some("deny"), _) => {
            let Some(reason) = non_empty(specific.get("permissionDecisionReason")) else {
                return HookVerdict::failed(
                    "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason",
                );
            };
            if updated.is_some() {
                v.notes.push("`updatedInput` is ignored on a deny".to_owned());
            }
            v.decision = Some(Decision::Deny);
            v.reason = Some(cap_text(&reason));
            v
        }
        (Some("allow"), Some(Value::Object(input))) => {
            // Codex runs the tool with the new input; an allow relaxes nothing.
            v.rewrite = Some(ArgRewrite::Replace(Value::Object(input.clone())));
            v
        }
        (Some("allow"), Some(_)) => {
            HookVerdict::failed("PreToolUse hook returned updatedInput that is not an object")
        }
        (None, Some(_)) => HookVerdict::failed(
            "PreToolUse hook returned updatedInput without permissionDecision:allow",
        ),
        (Some(other), _) => HookVerdict::failed(format!(
            "PreToolUse hook returned unsupported permissionDecision:{other}"
        )),
    }
}

fn permission_request(specific: &Map<String, Value>, mut v: HookVerdict) -> HookVerdict {
    let Some(d) = specific.get("decision").filter(|d| !d.is_null()) else { return v };
    let Some(d) = d.as_object() else {
        return HookVerdict::failed(
            "PermissionRequest hook returned a decision that is not an object",
        );
    };
    // Codex fails closed on what it cannot honour in a permission decision.
    for k in ["updatedInput", "interrupt"] {
        if d.get(k).is_some_and(|x| !x.is_null() && x != &Value::Bool(false)) {
            let reason = format!("PermissionRequest hook returned unsupported {k}");
            return HookVerdict {
                failure: Some(reason.clone()),
                ..HookVerdict::decided(Decision::Deny, Some(reason))
            };
        }
    }
    match d.get("behavior").and_then(Value::as_str) {
        Some("allow") => v.decision = Some(Decision::Allow),
        Some("deny") => {
            v.decision = Some(Decision::Deny);
            v.reason = Some(
                non_empty(d.get("message"))
                    .unwrap_or_else(|| "denied by a PermissionRequest hook".to_owned()),
            );
        }
        _ => {
            return HookVerdict::failed(
                "PermissionRequest hook returned a decision without behavior allow or deny",
            );
        }
    }
    for k in ["updatedPermissions", "addDirectories"] {
        if d.contains_key(k) {
            v.notes.push(format!("`decision.{k}` is not supported by this engine; ignored"));
        }
    }
    v
}

#[cfg(test)]
pub(crate) mod tests;
