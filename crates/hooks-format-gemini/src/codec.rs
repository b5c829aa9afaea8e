//! Gemini CLI's hook protocol, as its `HookRunner` speaks it: the input as JSON on stdin,
//! then stdout (or, when stdout is empty, stderr) read as JSON whatever the exit code, or
//! as plain text whose meaning the exit code decides.
//!
//! [`GeminiCodec::encode`] builds the stdin document in Gemini CLI's field order, runs the
//! command with `bash -c` in the session's directory with `GEMINI_PROJECT_DIR`,
//! `GEMINI_CWD`, `CLAUDE_PROJECT_DIR` and `GEMINI_SESSION_ID` set, after substituting those
//! names in the command line as Gemini CLI does. [`GeminiCodec::decode`] applies the rules
//! of `HookRunner.executeCommandHook` and `convertPlainTextToHookOutput`:
//!
//! 1. the text is `stdout.trim() || stderr.trim()`; none means no output;
//! 2. JSON that parses to an object (a JSON string is parsed once more) is the output,
//!    whatever the exit code; JSON that is no object is no output;
//! 3. plain text: exit 0 shows it to the user, exit 1 shows it as a warning, any other exit
//!    code denies with the text as the reason;
//! 4. a timeout or a failed start is a failure without output (the action proceeds).

use std::path::Path;

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, ExecutionMode, ExitInfo, FormatId,
    HookCodec, HookCommand, HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir,
    PayloadError, Program, RawOutcome, checked_native, json_stdin,
};
use serde_json::{Map, Value};

use crate::{
    events::GeminiEvent,
    js::{self, ParsedOutput},
    matcher::gemini_tool_name,
    parse::SHELL,
};

/// Gemini CLI's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeminiCodec;

/// The variables Gemini CLI sets for a hook, each the session's working directory, except
/// the session id.
pub const PROJECT_DIR_VARS: [&str; 3] = ["GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"];

/// The file in the session's folder whose keys Gemini CLI gives an extension's hooks as
/// settings ([`crate::NATIVE_WORKSPACE_ENV`]).
pub const WORKSPACE_ENV_FILE: &str = ".env";

/// The files Gemini CLI loads into its environment from its working directory and each
/// folder above, in the order it looks in each folder (`findEnvFile`; `.gemini/.env` only in a
/// trusted folder): every hook inherits what the first one found sets.
pub const ENVIRONMENT_FILES: &[&str] = &[".gemini/.env", ".env"];

/// The files under the home Gemini CLI falls back to when no folder from its working
/// directory up has one.
pub const HOME_ENVIRONMENT_FILES: &[&str] = &[".gemini/.env", ".env"];

/// What the model sees of a tool Gemini CLI's `AfterTool` hooks blocked.
pub const RESULT_BLOCKED: &str = "Tool result blocked: ";

fn native_of(hook: &HookDefinition) -> Option<GeminiEvent> {
    GeminiEvent::from_name(&hook.native_event)
        .filter(|e| e.canonical().is_some())
        .or_else(|| GeminiEvent::from_canonical(hook.event))
}

/// The session's working directory as the hook input reports it: the envelope's, else the
/// binding's folder.
fn session_cwd(envelope: &Envelope, ctx: &EncodeContext<'_>) -> String {
    envelope
        .cwd
        .as_deref()
        .filter(|c| c.is_absolute())
        .unwrap_or(ctx.working_dir)
        .display()
        .to_string()
}

/// Builds the stdin document Gemini CLI sends for `envelope` (`createBaseInput` and the
/// event's fields, in Gemini CLI's order).
pub fn payload(
    native: GeminiEvent,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Value, PayloadError> {
    let mut p = Map::new();
    let s = |v: Option<String>| Value::String(v.unwrap_or_default());
    p.insert("session_id".into(), s(envelope.session_id.clone()));
    p.insert(
        "transcript_path".into(),
        s(envelope.transcript_path.as_deref().map(|t| t.display().to_string())),
    );
    p.insert("cwd".into(), Value::String(session_cwd(envelope, ctx)));
    p.insert("hook_event_name".into(), Value::String(native.as_str().to_owned()));
    if let Some(ts) = &envelope.timestamp {
        p.insert("timestamp".into(), Value::String(ts.clone()));
    }
    let extra = |p: &mut Map<String, Value>, key: &str| {
        if let Some(v) = envelope.extra.get(key) {
            p.insert(key.to_owned(), v.clone());
        }
    };
    match native {
        GeminiEvent::BeforeTool | GeminiEvent::AfterTool => {
            let tool = envelope.tool.as_ref().ok_or_else(|| PayloadError::Missing {
                event: native.as_str().to_owned(),
                part: "tool call",
            })?;
            p.insert("tool_name".into(), Value::String(gemini_tool_name(tool)));
            p.insert("tool_input".into(), tool.args.clone());
            if native == GeminiEvent::AfterTool {
                p.insert("tool_response".into(), tool_response(envelope));
            }
            extra(&mut p, "mcp_context");
            extra(&mut p, "original_request_name");
        }
        GeminiEvent::BeforeAgent => {
            p.insert("prompt".into(), s(envelope.prompt.as_ref().map(|pr| pr.text.clone())));
        }
        GeminiEvent::AfterAgent => {
            let prompt = envelope.prompt.as_ref().map(|pr| pr.text.clone()).or_else(|| {
                envelope.extra.get("prompt").and_then(Value::as_str).map(str::to_owned)
            });
            p.insert("prompt".into(), s(prompt));
            let stop = envelope.stop.clone().unwrap_or_default();
            p.insert("prompt_response".into(), s(stop.last_message));
            p.insert("stop_hook_active".into(), Value::Bool(stop.stop_hook_active));
        }
        GeminiEvent::SessionStart => {
            let source = envelope.session.as_ref().and_then(|si| si.source.clone());
            p.insert(
                "source".into(),
                Value::String(source.unwrap_or_else(|| "startup".to_owned())),
            );
        }
        GeminiEvent::SessionEnd => {
            let reason = envelope.session.as_ref().and_then(|si| si.reason.clone());
            p.insert("reason".into(), Value::String(reason.unwrap_or_else(|| "other".to_owned())));
        }
        GeminiEvent::PreCompress => {
            let trigger = envelope.compaction.as_ref().and_then(|c| c.trigger.clone());
            p.insert("trigger".into(), Value::String(trigger.unwrap_or_else(|| "auto".to_owned())));
        }
        GeminiEvent::Notification => {
            let n = envelope.notification.clone().unwrap_or_default();
            p.insert("notification_type".into(), s(n.kind));
            p.insert("message".into(), s(n.message));
            let details = envelope.extra.get("details").cloned().unwrap_or_else(|| {
                let mut d = Map::new();
                if let Some(t) = n.title {
                    d.insert("title".into(), Value::String(t));
                }
                Value::Object(d)
            });
            p.insert("details".into(), details);
        }
        GeminiEvent::BeforeModel | GeminiEvent::AfterModel | GeminiEvent::BeforeToolSelection => {
            return Err(PayloadError::NoCanonical { event: native.as_str().to_owned() });
        }
    }
    envelope.fill_in_extra(&mut p);
    Ok(Value::Object(p))
}

/// `tool_response` as Gemini CLI sends it: `{llmContent, returnDisplay, error?}`; an
/// envelope that carries Gemini CLI's own object passes it through.
fn tool_response(envelope: &Envelope) -> Value {
    let result = envelope.result.clone().unwrap_or_default();
    if let Some(out @ Value::Object(o)) = &result.output
        && o.contains_key("llmContent")
    {
        return out.clone();
    }
    let text = result
        .text
        .clone()
        .or_else(|| {
            result.output.as_ref().map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_owned))
        })
        .unwrap_or_default();
    // A shell command that exited non-zero: its status in the text for the model, as Gemini
    // CLI words it (observed with 0.61.0, which names no status 0).
    let llm = match envelope.failed_shell_exit() {
        Some(code) if text.is_empty() => format!("Output: (empty)\nExit Code: {code}"),
        Some(code) => format!("Output: {text}\nExit Code: {code}"),
        None => text.clone(),
    };
    let mut r = Map::new();
    r.insert("llmContent".into(), Value::String(llm));
    r.insert("returnDisplay".into(), Value::String(text));
    if let Some(e) = result.error {
        let mut err = Map::new();
        err.insert("message".into(), Value::String(e));
        r.insert("error".into(), Value::Object(err));
    }
    Value::Object(r)
}

/// Gemini CLI's `expandCommand`: the literal names `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD`,
/// `$GEMINI_SESSION_ID` and `$CLAUDE_PROJECT_DIR` replaced, in that order, by the quoted
/// values (an empty value by nothing). `$GEMINI_PLANS_DIR` is left to the shell.
pub fn expand_command(command: &str, cwd: &str, session_id: &str) -> String {
    let quote = |v: &str| if v.is_empty() { String::new() } else { js::shell_quote(v) };
    let cwd_q = quote(cwd);
    let sid_q = quote(session_id);
    command
        .replace("$GEMINI_PROJECT_DIR", &cwd_q)
        .replace("$GEMINI_CWD", &cwd_q)
        .replace("$GEMINI_SESSION_ID", &sid_q)
        .replace("$CLAUDE_PROJECT_DIR", &cwd_q)
}

impl HookCodec for GeminiCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    /// Gemini CLI runs hooks with the same name and command once per event
    /// (`HookPlanner.deduplicateHooks`), across every settings file (its name too: `run_once_name`).
    fn runs_once_per_command(&self, hook: &HookDefinition) -> bool {
        hook.mode == ExecutionMode::Blocking
    }

    /// `getHookKey`: `<name>:<command>`, so equal commands under other names (or one named,
    /// one not) both run.
    fn run_once_name<'h>(&self, hook: &'h HookDefinition) -> &'h str {
        hook.native.get(crate::NATIVE_NAME).and_then(Value::as_str).unwrap_or_default()
    }

    /// `getHookName`: the hook's `name`, else its command, which `hooksConfig.disabled` lists
    /// (in any settings layer, for the hooks of every layer).
    fn disable_name(&self, hook: &HookDefinition) -> Option<String> {
        if let Some(Value::String(name)) = hook.native.get(crate::NATIVE_NAME) {
            return Some(name.clone());
        }
        match &hook.command {
            HookCommand::Shell { script, .. } => Some(script.clone()),
            _ => None,
        }
    }

    /// Gemini CLI runs every hook in its working directory (the input's `cwd`), with
    /// `GEMINI_PROJECT_DIR`, `GEMINI_CWD` and `CLAUDE_PROJECT_DIR` naming it; a definition's
    /// `cwd` (the registry pins a user hook to its own folder) overrides the directory.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let dir = |text: &str| LaunchDir::with_cwd(LaunchDir::Session, Some(text));
        let mut dir_vars: Vec<(String, LaunchDir)> =
            PROJECT_DIR_VARS.iter().map(|v| ((*v).to_owned(), LaunchDir::Session)).collect();
        dir_vars.extend(hook.env.iter().map(|(k, v)| (k.clone(), dir(v))));
        // An extension's hook with a `${NAME}` Gemini CLI fills from the workspace's `.env`
        // (`crate::parse_extension_hooks`).
        let reads = if hook.native.get(crate::NATIVE_WORKSPACE_ENV) == Some(&Value::Bool(true)) {
            vec![(WORKSPACE_ENV_FILE.to_owned(), LaunchDir::Session)]
        } else {
            Vec::new()
        };
        // Gemini CLI loads the first `.gemini/.env` or `.env` from its working directory up
        // (in a trusted folder), else the home's, into its environment, which every hook
        // inherits (`loadEnvironment`, checked with Gemini CLI 0.61: a variable of the
        // project's `.gemini/.env` reached every hook; finding F125).
        let environment = ENVIRONMENT_FILES
            .iter()
            .map(|f| ((*f).to_owned(), LaunchDir::Session))
            .chain(HOME_ENVIRONMENT_FILES.iter().map(|f| (format!("~/{f}"), LaunchDir::Session)))
            .collect();
        HookLaunch {
            run_dir: LaunchDir::with_cwd(LaunchDir::Session, hook.cwd.as_deref()),
            dir_vars,
            argv_templates: Vec::new(),
            reads,
            environment,
        }
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        // An `AfterTool` hook also runs for a failed tool (`FormatDescriptor::event_rule`).
        let native =
            checked_native("Gemini CLI", hook, envelope, native_of(hook), crate::EVENT_RULE)?;
        let body = payload(native, envelope, ctx)?;
        let stdin = json_stdin(&body)?;
        let cwd = session_cwd(envelope, ctx);
        let session = envelope.session_id.clone().unwrap_or_default();
        let program = Program::of(&hook.command, "Gemini CLI", |script, shell| Program::Shell {
            script: expand_command(script, &cwd, &session),
            shell: shell.clone().or_else(|| Some(SHELL.to_owned())),
        })?;
        let mut env: Vec<(String, String)> =
            PROJECT_DIR_VARS.iter().map(|v| ((*v).to_owned(), cwd.clone())).collect();
        env.push(("GEMINI_SESSION_ID".to_owned(), session));
        // The handler's `env` comes last and wins.
        for (k, v) in &hook.env {
            env.retain(|(ek, _)| ek != k);
            env.push((k.clone(), v.clone()));
        }
        // The definition's own directory (a user hook pinned to its folder) wins over the
        // session's.
        let run_dir = match &hook.cwd {
            Some(dir) => Path::new(&cwd).join(dir),
            None => cwd.clone().into(),
        };
        Ok(Invocation {
            program,
            cwd: Some(run_dir),
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
        let Some(native) = native_of(hook) else {
            return HookVerdict::unknown_event("Gemini CLI", &hook.native_event);
        };
        decode_outcome(native, hook, outcome)
    }
}

/// Reads one run's outcome with Gemini CLI's rules.
pub(crate) fn decode_outcome(
    native: GeminiEvent,
    hook: &HookDefinition,
    outcome: &RawOutcome,
) -> HookVerdict {
    if outcome.timed_out {
        let failure = format!("Hook timed out after {}ms", hook.timeout.as_millis());
        return HookVerdict::failed(failure);
    }
    // Node reports a process killed by a signal with a null exit code, which the runner
    // reads as 0 (`exitCode || 0`); the run still counts as failed.
    let (code, failure) = match &outcome.exit {
        ExitInfo::NotStarted(f) => {
            return HookVerdict::failed(format!("could not start: {}", f.message));
        }
        ExitInfo::Signaled(s) => (0, Some(format!("killed by signal {s}"))),
        ExitInfo::Responded(s) => {
            (1, Some(format!("answered HTTP {s}; Gemini CLI has no http hooks")))
        }
        ExitInfo::Exited(0) => (0, None),
        ExitInfo::Exited(c) => (*c, Some(format!("exited with status code {c}"))),
    };
    let stdout = outcome.stdout.lossy();
    let stderr = outcome.stderr.lossy();
    let out = js::trim(&stdout);
    let text = if out.is_empty() { js::trim(&stderr) } else { out };
    let mut v = HookVerdict { failure, ..HookVerdict::default() };
    if outcome.stdout.truncated || (out.is_empty() && outcome.stderr.truncated) {
        v.notes.push(
            "the hook's output exceeded the capture limit and was cut; it is read as captured"
                .to_owned(),
        );
    }
    if text.is_empty() {
        return v;
    }
    match js::parse_output(text) {
        ParsedOutput::Object(obj) => apply(native, &obj, v),
        ParsedOutput::NotObject => {
            v.notes.push("the output is JSON but not an object; Gemini CLI ignores it".to_owned());
            v
        }
        ParsedOutput::Text => {
            let mut obj = Map::new();
            match code {
                0 => {
                    obj.insert("systemMessage".into(), Value::String(text.to_owned()));
                }
                1 => {
                    obj.insert("systemMessage".into(), Value::String(format!("Warning: {text}")));
                }
                _ => {
                    obj.insert("decision".into(), Value::String("deny".to_owned()));
                    obj.insert("reason".into(), Value::String(text.to_owned()));
                }
            }
            apply(native, &obj, v)
        }
    }
}

/// A string field with JavaScript truthiness (`""` counts as absent).
fn text_field(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(true) => Some("true".to_owned()),
        _ => None,
    }
}

/// Applies one hook's output object as Gemini CLI's event handling does.
fn apply(native: GeminiEvent, obj: &Map<String, Value>, mut v: HookVerdict) -> HookVerdict {
    let specific = match obj.get("hookSpecificOutput") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    // `getEffectiveReason`: the stop reason, else the reason, else a fixed text.
    let effective = text_field(obj, "stopReason")
        .or_else(|| text_field(obj, "reason"))
        .unwrap_or_else(|| "No reason provided".to_owned());
    v.user_message = text_field(obj, "systemMessage");
    let stops = obj.get("continue") == Some(&Value::Bool(false));
    let decision = obj.get("decision").and_then(Value::as_str);
    let blocks = matches!(decision, Some("deny" | "block"));
    let asks = decision == Some("ask");
    let context = match specific.get("additionalContext") {
        Some(Value::String(c)) => Some(c.clone()),
        _ => None,
    };
    let honours_stop = matches!(
        native,
        GeminiEvent::BeforeTool
            | GeminiEvent::AfterTool
            | GeminiEvent::BeforeAgent
            | GeminiEvent::AfterAgent
    );
    if stops {
        if honours_stop {
            v.halt = Some(effective.clone());
        } else {
            v.notes.push(format!("`continue: false` has no effect on `{}`", native.as_str()));
        }
    }
    if decision == Some("allow") {
        v.notes.push("`decision: allow` is Gemini CLI's default; it approves nothing".to_owned());
    }
    match native {
        GeminiEvent::BeforeTool => {
            if blocks {
                v.decision = Some(Decision::Deny);
                v.reason = Some(effective);
            } else if asks {
                v.decision = Some(Decision::Ask);
                v.reason = text_field(obj, "reason");
            }
            if let Some(Value::Object(input)) = specific.get("tool_input") {
                if blocks {
                    v.notes.push("`hookSpecificOutput.tool_input` is ignored on a deny".to_owned());
                } else {
                    v.rewrite = Some(ArgRewrite::Merge(input.clone()));
                }
            }
            if context.is_some() {
                v.notes.push(
                    "Gemini CLI does not deliver `additionalContext` on `BeforeTool`; ignored"
                        .to_owned(),
                );
            }
        }
        GeminiEvent::AfterTool => {
            if blocks {
                v.updated_output = Some(Value::String(format!("{RESULT_BLOCKED}{effective}")));
            }
            v.context.extend(context);
            if specific.contains_key("tailToolCallRequest") {
                v.notes.push("`tailToolCallRequest` is not supported; ignored".to_owned());
            }
        }
        GeminiEvent::BeforeAgent => {
            if blocks {
                v.decision = Some(Decision::Deny);
                v.reason = Some(effective);
            }
            v.context.extend(context);
        }
        GeminiEvent::AfterAgent => {
            if blocks {
                v.followup = Some(effective);
            }
            if specific.get("clearContext") == Some(&Value::Bool(true)) {
                v.notes.push("`clearContext` is not supported; ignored".to_owned());
            }
        }
        GeminiEvent::SessionStart => {
            v.context.extend(context);
            if blocks || asks {
                v.notes.push("a decision has no effect on `SessionStart`".to_owned());
            }
        }
        GeminiEvent::SessionEnd | GeminiEvent::PreCompress | GeminiEvent::Notification => {
            if blocks || asks {
                v.notes.push(format!("a decision has no effect on `{}`", native.as_str()));
            }
        }
        GeminiEvent::BeforeModel | GeminiEvent::AfterModel | GeminiEvent::BeforeToolSelection => {}
    }
    if obj.get("suppressOutput") == Some(&Value::Bool(true)) {
        v.notes.push("`suppressOutput` has no effect in this engine".to_owned());
    }
    v
}

#[cfg(test)]
mod tests;
