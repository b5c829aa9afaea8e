//! Windsurf Cascade's hook protocol, as documented: the action as JSON on stdin, the answer
//! in the exit code alone.
//!
//! [`payload`] builds `{agent_action_name, trajectory_id, execution_id, timestamp,
//! tool_info}`, `tool_info` holding the event's fields (`file_path` and `edits`,
//! `command_line` and `cwd`, `mcp_server_name`, `mcp_tool_name` and `mcp_tool_arguments`,
//! `user_prompt`, `response`); the command runs with `bash -c` in the workspace root or the
//! entry's `working_directory`. [`decode_outcome`] applies the documented rule: exit code 2
//! from a `pre_` hook blocks the action; anything else lets it proceed. Windsurf reads no
//! JSON answer, so the reason of a block is what the hook wrote on stderr (else stdout), and
//! output is shown to the user only for a hook with `show_output: true`.

use hooks_schema::{
    Decision, EncodeContext, EncodeError, Envelope, EventRule, ExitInfo, FormatId, HookCodec,
    HookDefinition, HookLaunch, HookVerdict, Invocation, LaunchDir, PayloadError, Program,
    RawOutcome, checked_native, json_stdin,
};
use serde_json::{Map, Value, json};

use crate::{
    events::WindsurfEvent,
    parse::{NATIVE_SHOW_OUTPUT, SHELL},
};

/// Windsurf's hook protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindsurfCodec;

/// The reason of a block whose hook wrote nothing.
pub const BLOCKED: &str = "blocked by a Windsurf hook (exit code 2)";

fn native_of(hook: &HookDefinition) -> Option<WindsurfEvent> {
    WindsurfEvent::from_name(&hook.native_event).filter(|e| e.canonical() == Some(hook.event))
}

fn first_str<'a>(args: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| args.get(k).and_then(Value::as_str))
}

/// `edits` as Windsurf lists them: the envelope's own list, else one edit from the usual
/// argument names (`old_string`/`new_string`, `old_str`/`new_str`), else the whole new
/// content (`content`, `file_text`) replacing nothing.
fn edits(args: &Value) -> Value {
    if let Some(e @ Value::Array(_)) = args.get("edits") {
        return e.clone();
    }
    let old = first_str(args, &["old_string", "old_str"]);
    let new = first_str(args, &["new_string", "new_str", "content", "file_text", "contents"]);
    match (old, new) {
        (None, None) => Value::Array(Vec::new()),
        (o, n) => {
            json!([{"old_string": o.unwrap_or_default(), "new_string": n.unwrap_or_default()}])
        }
    }
}

/// Builds the stdin document Windsurf sends for `envelope` on `event`.
pub fn payload(
    event: WindsurfEvent,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Value, PayloadError> {
    let mut p = Map::new();
    p.insert("agent_action_name".into(), Value::String(event.as_str().into()));
    p.insert(
        "trajectory_id".into(),
        Value::String(envelope.session_id.clone().unwrap_or_default()),
    );
    let execution = envelope
        .tool
        .as_ref()
        .and_then(|t| t.call_id.clone())
        .or_else(|| envelope.extra.get("execution_id").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default();
    p.insert("execution_id".into(), Value::String(execution));
    if let Some(ts) = &envelope.timestamp {
        p.insert("timestamp".into(), Value::String(ts.clone()));
    }
    let tool = || {
        envelope.tool.as_ref().ok_or_else(|| PayloadError::Missing {
            event: event.as_str().to_owned(),
            part: "tool call",
        })
    };
    let result = envelope.result.clone().unwrap_or_default();
    let mut info = Map::new();
    match event {
        WindsurfEvent::PreReadCode | WindsurfEvent::PostReadCode => {
            let t = tool()?;
            let path = first_str(&t.args, &["file_path", "path", "target_file", "file"])
                .unwrap_or_default();
            info.insert("file_path".into(), Value::String(path.into()));
            if event == WindsurfEvent::PostReadCode
                && let Some(c) = &result.text
            {
                info.insert("content".into(), Value::String(c.clone()));
            }
        }
        WindsurfEvent::PreWriteCode | WindsurfEvent::PostWriteCode => {
            let t = tool()?;
            let path = first_str(&t.args, &["file_path", "path", "target_file", "file"])
                .unwrap_or_default();
            info.insert("file_path".into(), Value::String(path.into()));
            info.insert("edits".into(), edits(&t.args));
        }
        WindsurfEvent::PreRunCommand | WindsurfEvent::PostRunCommand => {
            let t = tool()?;
            let line = first_str(&t.args, &["command_line", "command", "cmd"]).unwrap_or_default();
            info.insert("command_line".into(), Value::String(line.into()));
            let cwd = first_str(&t.args, &["cwd"]).map(str::to_owned).unwrap_or_else(|| {
                envelope.cwd.as_deref().unwrap_or(ctx.working_dir).display().to_string()
            });
            info.insert("cwd".into(), Value::String(cwd));
            if event == WindsurfEvent::PostRunCommand {
                let code = result.output.as_ref().and_then(|o| o.get("exit_code").cloned());
                info.insert(
                    "exit_code".into(),
                    code.unwrap_or_else(|| Value::from(i32::from(result.failed))),
                );
                if let Some(o) = &result.text {
                    info.insert("output".into(), Value::String(o.clone()));
                }
            }
        }
        WindsurfEvent::PreMcpToolUse | WindsurfEvent::PostMcpToolUse => {
            let t = tool()?;
            info.insert(
                "mcp_server_name".into(),
                Value::String(t.mcp_server.clone().unwrap_or_default()),
            );
            info.insert("mcp_tool_name".into(), Value::String(t.name.clone()));
            info.insert("mcp_tool_arguments".into(), t.args.clone());
            if event == WindsurfEvent::PostMcpToolUse {
                let r = result
                    .output
                    .clone()
                    .or_else(|| result.text.clone().map(Value::String))
                    .unwrap_or(Value::Null);
                info.insert("mcp_result".into(), r);
            }
        }
        WindsurfEvent::PreUserPrompt => {
            let text = envelope.prompt.as_ref().map(|pr| pr.text.clone()).unwrap_or_default();
            info.insert("user_prompt".into(), Value::String(text));
        }
        WindsurfEvent::PostCascadeResponse => {
            let text = envelope.text.as_ref().map(|t| t.text.clone()).unwrap_or_default();
            info.insert("response".into(), Value::String(text));
        }
        WindsurfEvent::PostCascadeResponseWithTranscript | WindsurfEvent::PostSetupWorktree => {
            return Err(PayloadError::NoCanonical { event: event.as_str().to_owned() });
        }
    }
    p.insert("tool_info".into(), Value::Object(info));
    envelope.fill_in_extra(&mut p);
    Ok(Value::Object(p))
}

impl HookCodec for WindsurfCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    /// A hook runs in its `working_directory` (taken from the workspace root when relative)
    /// or in the workspace root; Windsurf documents no variables.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let run_dir = LaunchDir::with_cwd(LaunchDir::Project, hook.cwd.as_deref());
        HookLaunch { run_dir, ..HookLaunch::default() }
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let event = checked_native("Windsurf", hook, envelope, native_of(hook), EventRule::OWN)?;
        let body = payload(event, envelope, ctx)?;
        let stdin = json_stdin(&body)?;
        let root = ctx.project_dir.unwrap_or(ctx.working_dir);
        let program = Program::of(&hook.command, "Windsurf", |script, shell| Program::Shell {
            script: script.clone(),
            shell: shell.clone().or_else(|| Some(SHELL.to_owned())),
        })?;
        let cwd = match &hook.cwd {
            Some(dir) => root.join(dir),
            None => root.to_path_buf(),
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

    fn decode(
        &self,
        hook: &HookDefinition,
        _envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        let Some(event) = native_of(hook) else {
            return HookVerdict::unknown_event("Windsurf", &hook.native_event);
        };
        let show = hook.native.get(NATIVE_SHOW_OUTPUT) == Some(&Value::Bool(true));
        decode_outcome(event, show, outcome)
    }
}

/// Reads one run's outcome with Windsurf's documented rule.
pub fn decode_outcome(
    event: WindsurfEvent,
    show_output: bool,
    outcome: &RawOutcome,
) -> HookVerdict {
    let mut v = HookVerdict::default();
    if outcome.timed_out {
        v.failure = Some("the hook timed out; the action proceeds".to_owned());
        return v;
    }
    let stdout = outcome.stdout.lossy().trim().to_owned();
    let stderr = outcome.stderr.lossy().trim().to_owned();
    if show_output {
        let shown = [stdout.as_str(), stderr.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        if !shown.is_empty() {
            v.user_message = Some(shown);
        }
    }
    match &outcome.exit {
        ExitInfo::Exited(0) => {}
        ExitInfo::Exited(2) if event.can_block() => {
            v.decision = Some(Decision::Deny);
            let why = if stderr.is_empty() { stdout } else { stderr };
            v.reason = Some(if why.is_empty() { BLOCKED.to_owned() } else { why });
        }
        ExitInfo::Exited(2) => {
            v.notes.push(format!(
                "exit code 2 blocks nothing on `{}`; the action proceeds",
                event.as_str()
            ));
        }
        ExitInfo::Exited(c) => {
            v.failure = Some(format!("exited with code {c}; the action proceeds"))
        }
        ExitInfo::Signaled(s) => {
            v.failure = Some(format!("killed by signal {s}; the action proceeds"))
        }
        ExitInfo::Responded(s) => {
            v.failure = Some(format!("answered HTTP {s}; Windsurf has no http hooks"))
        }
        ExitInfo::NotStarted(f) => v.failure = Some(format!("could not start: {}", f.message)),
    }
    v
}

#[cfg(test)]
mod tests;
