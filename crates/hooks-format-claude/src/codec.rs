//! Claude Code's hook protocol: JSON on stdin; exit code 2, or JSON on stdout, decides.
//!
//! [`ClaudeCodec`] encodes an envelope into the stdin document Claude Code sends and decodes
//! the run's exit code and output per Claude Code's rules, with the definition's failure
//! policy and the strict (deny-only) contract applied. [`FailClosedCodec`] stands in for the
//! hooks of a strict source whose configuration is invalid: it never runs anything and
//! denies with the reason.

use std::path::Path;

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, ExecutionMode, ExitInfo, FormatId,
    HookCodec, HookCommand, HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir,
    OnFailure, PayloadError, Program, RawOutcome, ToolKind, checked_native, json_stdin,
};
use serde_json::{Map, Value};

use crate::{events::NativeEvent, matcher::claude_tool_name, parse::NATIVE_STRICT};

/// The most characters of `additionalContext`, `systemMessage` or plain stdout kept, as in
/// Claude Code; the rest is replaced by a marker.
pub const MAX_TEXT_CHARS: usize = 10_000;

/// The environment variable naming the project root.
pub const PROJECT_DIR_VAR: &str = "CLAUDE_PROJECT_DIR";

/// Claude Code's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClaudeCodec;

/// The codec of a strict source that failed its contract: encoding fails with the reason, and
/// decoding any outcome denies with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailClosedCodec {
    reason: String,
}

impl FailClosedCodec {
    /// A codec that denies with `reason`.
    pub fn new(reason: impl Into<String>) -> FailClosedCodec {
        FailClosedCodec { reason: reason.into() }
    }

    /// The deny reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl HookCodec for FailClosedCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    fn encode(
        &self,
        _: &HookDefinition,
        _: &Envelope,
        _: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        Err(EncodeError::Refused(self.reason.clone()))
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        HookVerdict {
            failure: Some(self.reason.clone()),
            ..HookVerdict::decided(Decision::Deny, Some(self.reason.clone()))
        }
    }
}

fn native_of(hook: &HookDefinition) -> Option<NativeEvent> {
    NativeEvent::from_name(&hook.native_event).or_else(|| NativeEvent::from_canonical(hook.event))
}

fn is_strict(hook: &HookDefinition) -> bool {
    hook.native.get(NATIVE_STRICT) == Some(&Value::Bool(true))
}

/// The placeholder for the project directory in commands.
pub(crate) const PROJECT_DIR_PLACEHOLDER: &str = "${CLAUDE_PROJECT_DIR}";

/// A shell command as it is handed to its shell: never with the project directory pasted in.
///
/// Claude Code 2.1.x leaves `${CLAUDE_PROJECT_DIR}` in a shell command as written and sets
/// the variable in the hook's environment, so the shell expands it (checked with the real CLI:
/// `'${CLAUDE_PROJECT_DIR}'` in single quotes reaches the hook literally, and a project root
/// named `proj;touch X;` runs no `touch`). A directory name can therefore never become shell
/// code. PowerShell reads `${NAME}` as its own variable, so there the placeholder becomes
/// `${env:CLAUDE_PROJECT_DIR}`, as Claude Code rewrites it.
fn shell_script(script: &str, shell: Option<&str>) -> String {
    let powershell = shell.is_some_and(|s| {
        let name = Path::new(s).file_name().and_then(|n| n.to_str()).unwrap_or(s);
        let name = name.strip_suffix(".exe").unwrap_or(name).to_ascii_lowercase();
        name == "powershell" || name == "pwsh"
    });
    if powershell {
        script.replace(PROJECT_DIR_PLACEHOLDER, "${env:CLAUDE_PROJECT_DIR}")
    } else {
        script.to_owned()
    }
}

/// Builds the stdin document Claude Code sends for `envelope`.
pub fn payload(
    native: NativeEvent,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Value, PayloadError> {
    let mut p = Map::new();
    let s = |v: &Option<String>| Value::String(v.clone().unwrap_or_default());
    p.insert("session_id".into(), s(&envelope.session_id));
    p.insert(
        "transcript_path".into(),
        Value::String(
            envelope
                .transcript_path
                .as_deref()
                .map(|t| t.display().to_string())
                .unwrap_or_default(),
        ),
    );
    let cwd = envelope.cwd.as_deref().unwrap_or(ctx.working_dir);
    p.insert("cwd".into(), Value::String(cwd.display().to_string()));
    p.insert(
        "permission_mode".into(),
        Value::String(envelope.permission_mode.clone().unwrap_or_else(|| "default".to_owned())),
    );
    p.insert("hook_event_name".into(), Value::String(native.as_str().to_owned()));
    let need_tool = || {
        envelope.tool.as_ref().ok_or_else(|| PayloadError::Missing {
            event: native.as_str().to_owned(),
            part: "tool call",
        })
    };
    let tool_fields = |p: &mut Map<String, Value>| -> Result<(), PayloadError> {
        let tool = need_tool()?;
        p.insert("tool_name".into(), Value::String(claude_tool_name(tool)));
        p.insert("tool_input".into(), tool.args.clone());
        p.insert("tool_use_id".into(), s(&tool.call_id));
        if let Some(server) = &tool.mcp_server {
            p.insert("mcp_server".into(), Value::String(server.clone()));
        }
        Ok(())
    };
    match native {
        NativeEvent::PreToolUse => tool_fields(&mut p)?,
        NativeEvent::PermissionRequest => {
            tool_fields(&mut p)?;
            p.insert("permission_suggestions".into(), Value::Array(Vec::new()));
        }
        NativeEvent::PostToolUse => {
            tool_fields(&mut p)?;
            let result = envelope.result.clone().unwrap_or_default();
            let response = match (result.output, result.text) {
                (Some(o), _) => o,
                (None, Some(t)) => Value::String(t),
                (None, None) => Value::Null,
            };
            p.insert("tool_response".into(), response);
            if let Some(ms) = result.duration_ms {
                p.insert("duration_ms".into(), Value::from(ms));
            }
        }
        NativeEvent::PostToolUseFailure => {
            tool_fields(&mut p)?;
            let result = envelope.result.clone().unwrap_or_default();
            // A shell command that exited non-zero (a post-tool firing with its status) is a
            // failure for Claude Code, worded as Claude Code words it.
            let error = match (result.error, envelope.failed_shell_exit()) {
                (Some(error), _) => error,
                (None, Some(code)) => {
                    crate::host::shell_exit_error(code, result.text.as_deref().unwrap_or(""))
                }
                (None, None) => result.text.unwrap_or_default(),
            };
            p.insert("error".into(), Value::String(error));
            p.insert("is_interrupt".into(), Value::Bool(result.interrupted));
            if let Some(ms) = result.duration_ms {
                p.insert("duration_ms".into(), Value::from(ms));
            }
        }
        NativeEvent::UserPromptSubmit => {
            let prompt = envelope.prompt.as_ref().map(|pr| pr.text.clone()).unwrap_or_default();
            p.insert("prompt".into(), Value::String(prompt));
        }
        NativeEvent::SessionStart => {
            let source = envelope.session.as_ref().and_then(|si| si.source.clone());
            p.insert(
                "source".into(),
                Value::String(source.unwrap_or_else(|| "startup".to_owned())),
            );
            if let Some(model) = &envelope.model {
                p.insert("model".into(), Value::String(model.clone()));
            }
        }
        NativeEvent::SessionEnd => {
            let reason = envelope.session.as_ref().and_then(|si| si.reason.clone());
            p.insert("reason".into(), Value::String(reason.unwrap_or_else(|| "other".to_owned())));
        }
        NativeEvent::Stop | NativeEvent::StopFailure => {
            let stop = envelope.stop.clone().unwrap_or_default();
            if native == NativeEvent::Stop {
                p.insert("stop_hook_active".into(), Value::Bool(stop.stop_hook_active));
            } else {
                p.insert(
                    "error".into(),
                    Value::String(stop.status.unwrap_or_else(|| "unknown".to_owned())),
                );
            }
            if let Some(m) = stop.last_message {
                p.insert("last_assistant_message".into(), Value::String(m));
            }
        }
        NativeEvent::SubagentStart | NativeEvent::SubagentStop => {
            let sub = envelope.subagent.clone().unwrap_or_default();
            p.insert("agent_id".into(), s(&sub.id));
            p.insert("agent_type".into(), s(&sub.agent_type));
            if native == NativeEvent::SubagentStop {
                let active = envelope.stop.as_ref().is_some_and(|st| st.stop_hook_active);
                p.insert("stop_hook_active".into(), Value::Bool(active));
                if let Some(summary) = sub.summary {
                    p.insert("last_assistant_message".into(), Value::String(summary));
                }
            }
        }
        NativeEvent::PreCompact | NativeEvent::PostCompact => {
            let c = envelope.compaction.clone().unwrap_or_default();
            p.insert(
                "trigger".into(),
                Value::String(c.trigger.unwrap_or_else(|| "auto".to_owned())),
            );
            if native == NativeEvent::PreCompact {
                p.insert("custom_instructions".into(), s(&c.custom_instructions));
            }
        }
        NativeEvent::Notification => {
            let n = envelope.notification.clone().unwrap_or_default();
            p.insert("message".into(), s(&n.message));
            if let Some(t) = n.title {
                p.insert("title".into(), Value::String(t));
            }
            p.insert("notification_type".into(), s(&n.kind));
        }
    }
    envelope.fill_in_extra(&mut p);
    Ok(Value::Object(p))
}

impl HookCodec for ClaudeCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    /// "If you define the same handler in more than one settings file, it runs once";
    /// async handlers are never deduplicated.
    /// Claude Code runs every command hook in the session's directory (the input's `cwd`)
    /// and sets `CLAUDE_PROJECT_DIR` to the project root; `${CLAUDE_PROJECT_DIR}` is
    /// substituted in an argument vector too.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let template = PROJECT_DIR_PLACEHOLDER.to_owned();
        let dir = |text: &str| match text.strip_prefix(template.as_str()) {
            Some(rest) => {
                LaunchDir::Under(Box::new(LaunchDir::Project), rest.trim_start_matches('/').into())
            }
            None if Path::new(text).is_absolute() => LaunchDir::Fixed(text.into()),
            None => LaunchDir::Under(Box::new(LaunchDir::Session), text.into()),
        };
        let mut dir_vars = vec![(PROJECT_DIR_VAR.to_owned(), LaunchDir::Project)];
        dir_vars.extend(hook.env.iter().map(|(k, v)| (k.clone(), dir(v))));
        HookLaunch {
            run_dir: hook.cwd.as_deref().map_or(LaunchDir::Session, dir),
            dir_vars,
            argv_templates: vec![(template.clone(), LaunchDir::Project)],
            ..HookLaunch::default()
        }
    }

    fn runs_once_per_command(&self, hook: &HookDefinition) -> bool {
        hook.mode == ExecutionMode::Blocking
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let native =
            checked_native("Claude Code", hook, envelope, native_of(hook), crate::EVENT_RULE)?;
        let body = payload(native, envelope, ctx)?;
        let stdin = json_stdin(&body)?;
        let project_dir: &Path = ctx.project_dir.unwrap_or(ctx.working_dir);
        let pd = project_dir.display().to_string();
        // Exec-form words are substituted as plain strings: no shell ever parses them.
        let expand = |s: &str| s.replace(PROJECT_DIR_PLACEHOLDER, &pd);
        let program = match &hook.command {
            HookCommand::Exec { program, args } => Program::Exec {
                argv: std::iter::once(program).chain(args).map(|a| expand(a)).collect(),
            },
            HookCommand::Shell { script, shell } => Program::Shell {
                script: shell_script(script, shell.as_deref()),
                shell: shell.clone(),
            },
            HookCommand::Script { path, args } => Program::Exec {
                argv: std::iter::once(path.display().to_string())
                    .chain(args.iter().map(|a| expand(a)))
                    .collect(),
            },
            // Claude Code POSTs the same JSON a command hook reads on stdin; header variables
            // come from its own environment, so the invocation sets none.
            HookCommand::Http(h) => {
                return Ok(Invocation {
                    program: Program::Http(h.clone()),
                    cwd: None,
                    env_remove: Vec::new(),
                    env: Vec::new(),
                    stdin,
                    files: Vec::new(),
                    timeout: hook.timeout,
                });
            }
        };
        // "Handlers run in the current directory": the session's, which the `cwd` input
        // field reports, for every settings file (a user's hook runs in the project, not in
        // `~/.claude`); the binding's folder only when the envelope has none.
        let base = envelope.cwd.as_deref().filter(|c| c.is_absolute()).unwrap_or(ctx.working_dir);
        let cwd = match &hook.cwd {
            Some(dir) => base.join(expand(dir)),
            None => base.to_path_buf(),
        };
        let mut env = vec![(PROJECT_DIR_VAR.to_owned(), pd.clone())];
        env.extend(hook.env.iter().map(|(k, v)| (k.clone(), expand(v))));
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
        envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        let Some(native) = native_of(hook) else {
            return HookVerdict::unknown_event("Claude Code", &hook.native_event);
        };
        let policy = Policy {
            native,
            strict: is_strict(hook),
            gated: hook.event.is_gated(),
            block_on_failure: hook.on_failure == OnFailure::Block
                && hook.mode == ExecutionMode::Blocking
                && native.honours_on_failure(),
            mcp: envelope
                .tool
                .as_ref()
                .is_some_and(|t| t.kind == ToolKind::Mcp || t.mcp_server.is_some()),
        };
        policy.decode(hook, outcome)
    }
}

/// How one hook's outcome is read.
struct Policy {
    native: NativeEvent,
    strict: bool,
    gated: bool,
    block_on_failure: bool,
    /// The tool is an MCP tool (`updatedMCPToolOutput` applies).
    mcp: bool,
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

/// The parsed JSON output of a hook.
#[derive(Default)]
struct Output {
    continue_: Option<bool>,
    stop_reason: Option<String>,
    system_message: Option<String>,
    decision: Option<String>,
    reason: Option<String>,
    specific: Map<String, Value>,
    notes: Vec<String>,
}

impl Output {
    /// Whether the answer blocks on its own (`decision: block`, or `permissionDecision: deny`),
    /// the test Claude Code applies to a JSON answer given with exit code 2.
    fn blocks(&self) -> bool {
        self.decision.as_deref() == Some("block")
            || self.specific.get("permissionDecision").and_then(Value::as_str) == Some("deny")
    }

    /// The answer as Claude Code rewrites it for exit code 2: a block with `reason`, the
    /// answer's other fields kept (on `PreToolUse` only `additionalContext` of its
    /// `hookSpecificOutput`).
    fn into_block(mut self, native: NativeEvent, reason: String) -> Output {
        if native == NativeEvent::PreToolUse {
            let mut specific = Map::new();
            specific.insert("hookEventName".into(), Value::String(native.as_str().to_owned()));
            specific.insert("permissionDecision".into(), Value::String("deny".to_owned()));
            specific.insert("permissionDecisionReason".into(), Value::String(reason));
            if self.specific.get("hookEventName").and_then(Value::as_str) == Some(native.as_str())
                && let Some(c) = self.specific.get("additionalContext")
            {
                specific.insert("additionalContext".into(), c.clone());
            }
            self.specific = specific;
        } else {
            self.decision = Some("block".to_owned());
            self.reason = Some(reason);
        }
        self
    }
}

const TOP_KEYS: [&str; 9] = [
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
    "terminalSequence",
    "async",
];

/// Why a hook's stdout is not Claude Code's JSON output.
#[derive(Debug, thiserror::Error)]
enum OutputError {
    /// Not JSON.
    #[error("invalid JSON output: {0}")]
    Json(#[source] serde_json::Error),
    /// JSON, but not an object.
    #[error("invalid JSON output: not an object")]
    NotAnObject,
    /// A field of the wrong type.
    #[error("invalid JSON output: `{field}` must be {expected}")]
    FieldType {
        /// The field (`hookSpecificOutput.permissionDecision`).
        field: String,
        /// What it must be (`a string`).
        expected: &'static str,
    },
    /// `decision` is neither `approve` nor `block`.
    #[error("invalid JSON output: `decision` must be `approve` or `block`, found `{0}`")]
    Decision(String),
}

fn read_output(text: &str) -> Result<Output, OutputError> {
    let value: Value = serde_json::from_str(text.trim()).map_err(OutputError::Json)?;
    let Value::Object(obj) = value else {
        return Err(OutputError::NotAnObject);
    };
    let mut out = Output::default();
    let string = |k: &str| -> Result<Option<String>, OutputError> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(OutputError::FieldType { field: k.to_owned(), expected: "a string" }),
        }
    };
    out.continue_ = match obj.get("continue") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            let field = "continue".to_owned();
            return Err(OutputError::FieldType { field, expected: "a boolean" });
        }
    };
    out.stop_reason = string("stopReason")?;
    out.system_message = string("systemMessage")?;
    out.decision = string("decision")?;
    out.reason = string("reason")?;
    if let Some(d) = &out.decision
        && d != "approve"
        && d != "block"
    {
        return Err(OutputError::Decision(d.clone()));
    }
    match obj.get("hookSpecificOutput") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => out.specific = m.clone(),
        Some(_) => {
            let field = "hookSpecificOutput".to_owned();
            return Err(OutputError::FieldType { field, expected: "an object" });
        }
    }
    for k in obj.keys() {
        if !TOP_KEYS.contains(&k.as_str()) {
            out.notes.push(format!("output field `{k}` is not part of the protocol; ignored"));
        }
    }
    for k in ["suppressOutput", "terminalSequence"] {
        if obj.contains_key(k) {
            out.notes.push(format!("output field `{k}` has no effect in this engine"));
        }
    }
    Ok(out)
}

impl Policy {
    /// An `http` handler's outcome (Claude Code 2.1.328, specs/formats/claude.md "HTTP
    /// hooks"): a 2xx response's body is read as a command's stdout at exit 0 when it is
    /// empty or one JSON object; any other body, any other status, no connection and no
    /// answer in time are failures (non-blocking unless the hook fails closed). A status code
    /// never blocks by itself.
    fn decode_http(&self, hook: &HookDefinition, outcome: &RawOutcome) -> HookVerdict {
        if outcome.timed_out {
            return self.failure(format!("no response within {} s", hook.timeout.as_secs_f64()));
        }
        match &outcome.exit {
            ExitInfo::Responded(status) if (200..300).contains(status) => {
                let body = outcome.stdout.lossy();
                let text = body.trim();
                if text.is_empty() {
                    return HookVerdict::no_opinion();
                }
                if !text.starts_with('{') {
                    return self.failure(format!(
                        "the response (HTTP {status}) is not a JSON object; ignored"
                    ));
                }
                if outcome.stdout.truncated {
                    return self.failure(
                        "invalid JSON output: the response body was truncated".to_owned(),
                    );
                }
                if self.strict && self.gated && std::str::from_utf8(&outcome.stdout.bytes).is_err()
                {
                    return self.failure("the response body is not UTF-8 text".to_owned());
                }
                match read_output(text) {
                    Ok(out) => self.apply(out),
                    Err(e) => self.failure(e),
                }
            }
            ExitInfo::Responded(status) => {
                self.failure(format!("the hook's URL answered HTTP {status}"))
            }
            ExitInfo::NotStarted(f) => self.failure(format!("no response: {}", f.message)),
            ExitInfo::Exited(c) => self.failure(format!("an http hook exited with code {c}")),
            ExitInfo::Signaled(s) => self.failure(format!("an http hook was killed by signal {s}")),
        }
    }

    fn decode(&self, hook: &HookDefinition, outcome: &RawOutcome) -> HookVerdict {
        if matches!(hook.command, HookCommand::Http(_)) {
            return self.decode_http(hook, outcome);
        }
        if outcome.timed_out {
            return self.failure(format!("timed out after {} s", hook.timeout.as_secs_f64()));
        }
        let stdout = outcome.stdout.lossy();
        let stderr = outcome.stderr.lossy();
        let json_out = stdout.trim_start().starts_with('{');
        if self.strict
            && self.gated
            && matches!(outcome.exit, ExitInfo::Exited(0))
            && std::str::from_utf8(&outcome.stdout.bytes).is_err()
        {
            // Read lossily, binary bytes inside a JSON string would pass unnoticed.
            return self.failure("the output is not UTF-8 text".to_owned());
        }
        match &outcome.exit {
            ExitInfo::NotStarted(f) => self.failure(format!("could not start: {}", f.message)),
            ExitInfo::Signaled(s) => self.failure(format!("killed by signal {s}")),
            ExitInfo::Responded(s) => self.failure(format!("a command hook answered HTTP {s}")),
            ExitInfo::Exited(2) => {
                // Claude Code 2.1.x reads a valid JSON answer on exit code 2 too: when the
                // answer itself blocks, it stands as written (its reason wins); otherwise the
                // answer is turned into a block whose reason is stderr.
                let answer = if json_out && !outcome.stdout.truncated {
                    read_output(&stdout).ok()
                } else {
                    None
                };
                let reason = Some(stderr.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "blocked by hook (exit code 2)".to_owned());
                // An answer that fails validation is no answer: the exit code alone blocks.
                let valid = |v: HookVerdict| {
                    if v.failure.is_some() { self.block(cap_text(&reason)) } else { v }
                };
                match answer {
                    Some(out) if out.blocks() => valid(self.apply(out)),
                    Some(out) => valid(self.apply(out.into_block(self.native, cap_text(&reason)))),
                    None => self.block(cap_text(&reason)),
                }
            }
            ExitInfo::Exited(code) if self.strict && self.gated && *code != 0 => {
                // The deny-only contract speaks through exit codes 0 and 2 only: any other
                // code is a failure, whatever the hook printed.
                let detail = stderr.trim();
                self.failure(if detail.is_empty() {
                    format!("exited with status code {code}")
                } else {
                    format!("exited with status code {code}: {}", cap_text(detail))
                })
            }
            ExitInfo::Exited(code) => {
                if json_out && !outcome.stdout.truncated {
                    match read_output(&stdout) {
                        Ok(out) => return self.apply(out),
                        Err(e) if *code == 0 => return self.failure(e),
                        Err(_) => {}
                    }
                } else if json_out && *code == 0 {
                    return self
                        .failure("invalid JSON output: the output was truncated".to_owned());
                }
                if *code != 0 {
                    let detail = stderr.trim();
                    let msg = if detail.is_empty() {
                        format!("exited with status code {code}")
                    } else {
                        format!("exited with status code {code}: {}", cap_text(detail))
                    };
                    return self.failure(msg);
                }
                let text = stdout.trim();
                let mut v = HookVerdict::no_opinion();
                if text.is_empty() {
                    return v;
                }
                if self.strict && self.gated {
                    // Under the deny-only contract an answer is silence or one JSON object:
                    // plain text, an array, text before the JSON or binary output is not one.
                    return self.failure(
                        "the output is not a valid response (silence or one JSON object)"
                            .to_owned(),
                    );
                }
                if matches!(self.native, NativeEvent::UserPromptSubmit | NativeEvent::SessionStart)
                {
                    v.context.push(cap_text(text));
                } else {
                    v.notes.push(format!(
                        "plain stdout is not used on `{}`; ignored",
                        self.native.as_str()
                    ));
                }
                v
            }
        }
    }

    /// A failed run: fails closed on gated events of a strict source, acts as exit code 2
    /// under `onFailure: block`, and fails open otherwise.
    fn failure(&self, message: impl std::fmt::Display) -> HookVerdict {
        let message = message.to_string();
        if self.strict && self.gated {
            let reason = format!("hook failed closed under the strict contract: {message}");
            return HookVerdict {
                failure: Some(message),
                ..HookVerdict::decided(Decision::Deny, Some(reason))
            };
        }
        if self.block_on_failure {
            let mut v = self.block(format!("hook failed with onFailure: block: {message}"));
            v.failure = Some(message);
            return v;
        }
        HookVerdict::failed(message)
    }

    /// Exit code 2 (or `decision: block`): what blocking means on this event.
    fn block(&self, reason: String) -> HookVerdict {
        let mut v = HookVerdict::no_opinion();
        if self.strict && self.gated {
            return HookVerdict::decided(Decision::Deny, Some(reason));
        }
        match self.native {
            NativeEvent::PreToolUse | NativeEvent::UserPromptSubmit | NativeEvent::PreCompact => {
                return HookVerdict::decided(Decision::Deny, Some(reason));
            }
            NativeEvent::Stop | NativeEvent::SubagentStop => v.followup = Some(reason),
            NativeEvent::PostToolUse | NativeEvent::PostToolUseFailure => v.context.push(reason),
            NativeEvent::SessionStart
            | NativeEvent::SessionEnd
            | NativeEvent::SubagentStart
            | NativeEvent::PostCompact => v.user_message = Some(reason),
            NativeEvent::PermissionRequest => {
                v.notes.push("exit code 2 is not honoured on `PermissionRequest`".to_owned());
            }
            NativeEvent::Notification | NativeEvent::StopFailure => {
                v.notes.push(format!("the exit code is ignored on `{}`", self.native.as_str()));
            }
        }
        v
    }

    fn apply(&self, out: Output) -> HookVerdict {
        let mut v = HookVerdict { notes: out.notes, ..HookVerdict::default() };
        if out.continue_ == Some(false) {
            v.halt =
                Some(out.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".to_owned()));
        }
        v.user_message = out.system_message.as_deref().map(cap_text);
        let specific = &out.specific;
        if let Some(name) = specific.get("hookEventName")
            && name.as_str() != Some(self.native.as_str())
        {
            return self.failure(format!(
                "invalid JSON output: `hookSpecificOutput.hookEventName` is {name}, expected \"{}\"",
                self.native.as_str()
            ));
        }
        let get_str = |k: &str| -> Result<Option<String>, OutputError> {
            match specific.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(OutputError::FieldType {
                    field: format!("hookSpecificOutput.{k}"),
                    expected: "a string",
                }),
            }
        };
        let mut decision = None;
        let mut reason = out.reason.clone();
        match out.decision.as_deref() {
            Some("approve") if self.native == NativeEvent::PreToolUse => {
                decision = Some(Decision::Allow)
            }
            Some("block") => {
                let r = out.reason.clone().unwrap_or_else(|| "blocked by hook".to_owned());
                let b = self.block(r);
                decision = b.decision;
                reason = b.reason.or(reason);
                v.followup = b.followup;
                v.context.extend(b.context);
                if b.user_message.is_some() {
                    v.user_message = b.user_message;
                }
                v.notes.extend(b.notes);
            }
            Some(d) => {
                v.notes.push(format!("`decision: {d}` is not used on `{}`", self.native.as_str()))
            }
            None => {}
        }
        let mut known: Vec<&str> = vec!["hookEventName"];
        let context = match get_str("additionalContext") {
            Ok(c) => c,
            Err(e) => return self.failure(e),
        };
        known.push("additionalContext");
        if let Some(c) = context {
            let c = cap_text(&c);
            match self.native {
                NativeEvent::Stop | NativeEvent::SubagentStop => v.followup = Some(c),
                _ => v.context.push(c),
            }
        }
        match self.native {
            NativeEvent::PreToolUse => {
                known.extend(["permissionDecision", "permissionDecisionReason", "updatedInput"]);
                let (pd, pr) =
                    match (get_str("permissionDecision"), get_str("permissionDecisionReason")) {
                        (Ok(a), Ok(b)) => (a, b),
                        (Err(e), _) | (_, Err(e)) => return self.failure(e),
                    };
                match pd.as_deref() {
                    None => {}
                    Some("allow") => decision = Some(Decision::Allow),
                    Some("deny") => decision = Some(Decision::Deny),
                    Some("ask") => decision = Some(Decision::Ask),
                    Some("defer") => {
                        decision = None;
                        v.notes.push(
                            "`permissionDecision: defer` is treated as no opinion".to_owned(),
                        );
                    }
                    Some(other) => {
                        return self.failure(format!(
                            "invalid JSON output: `permissionDecision` must be allow, deny, ask or defer, found `{other}`"
                        ));
                    }
                }
                if pr.is_some() {
                    reason = pr;
                }
                match specific.get("updatedInput") {
                    None | Some(Value::Null) => {}
                    Some(input @ Value::Object(_)) => {
                        v.rewrite = Some(ArgRewrite::Replace(input.clone()))
                    }
                    Some(_) => {
                        return self.failure(
                            "invalid JSON output: `updatedInput` must be an object".to_owned(),
                        );
                    }
                }
            }
            NativeEvent::PermissionRequest => {
                known.push("decision");
                match specific.get("decision") {
                    None | Some(Value::Null) => {}
                    Some(Value::Object(d)) => {
                        match d.get("behavior").and_then(Value::as_str) {
                            Some("allow") => decision = Some(Decision::Allow),
                            Some("deny") => decision = Some(Decision::Deny),
                            _ => {
                                return self.failure(
                                    "invalid JSON output: `decision.behavior` must be allow or deny".to_owned(),
                                );
                            }
                        }
                        if let Some(m) = d.get("message").and_then(Value::as_str) {
                            reason = Some(m.to_owned());
                        }
                        if let Some(input @ Value::Object(_)) = d.get("updatedInput") {
                            v.rewrite = Some(ArgRewrite::Replace(input.clone()));
                        }
                        if d.get("interrupt") == Some(&Value::Bool(true)) && v.halt.is_none() {
                            v.halt = Some(
                                reason
                                    .clone()
                                    .unwrap_or_else(|| "interrupted by a hook".to_owned()),
                            );
                        }
                        if d.contains_key("updatedPermissions") {
                            v.notes
                                .push("`updatedPermissions` is not supported; ignored".to_owned());
                        }
                    }
                    Some(_) => {
                        return self.failure(
                            "invalid JSON output: `decision` must be an object".to_owned(),
                        );
                    }
                }
            }
            NativeEvent::PostToolUse => {
                known.extend(["updatedToolOutput", "updatedMCPToolOutput"]);
                let present = |k: &str| specific.get(k).filter(|o| !o.is_null());
                match (present("updatedToolOutput"), present("updatedMCPToolOutput")) {
                    (Some(out), mcp_out) => {
                        v.updated_output = Some(out.clone());
                        if mcp_out.is_some() {
                            v.notes.push(
                                "`updatedMCPToolOutput` is ignored: `updatedToolOutput` replaces the output"
                                    .to_owned(),
                            );
                        }
                    }
                    (None, Some(out)) if self.mcp => v.updated_output = Some(out.clone()),
                    (None, Some(_)) => v.notes.push(
                        "`updatedMCPToolOutput` is ignored: the tool is not an MCP tool".to_owned(),
                    ),
                    (None, None) => {}
                }
            }
            NativeEvent::SessionStart => {
                known.push("initialUserMessage");
                match get_str("initialUserMessage") {
                    Ok(m) => v.followup = m.or(v.followup.take()),
                    Err(e) => return self.failure(e),
                }
            }
            _ => {}
        }
        for k in specific.keys() {
            if !known.contains(&k.as_str()) {
                v.notes.push(format!(
                    "`hookSpecificOutput.{k}` is not supported on `{}`; ignored",
                    self.native.as_str()
                ));
            }
        }
        if self.strict {
            // The deny-only contract: an allow never relaxes, and no rewrite is applied.
            if decision == Some(Decision::Allow) {
                decision = None;
                v.notes.push("`allow` carries no weight under the deny-only contract".to_owned());
            }
            if v.rewrite.take().is_some() {
                v.notes.push("`updatedInput` is ignored under the deny-only contract".to_owned());
            }
        }
        if decision == Some(Decision::Deny) && v.rewrite.take().is_some() {
            v.notes.push("`updatedInput` is ignored on a deny".to_owned());
        }
        v.decision = decision;
        if decision.is_some() {
            v.reason = reason;
        }
        v
    }
}

#[cfg(test)]
mod tests;
