//! Claude Code as a host: the engine runs as Claude Code's own hook command (`hooks bridge
//! --host claude`), decoding the hook input Claude Code sends into the canonical envelope and
//! encoding the folded verdict of every hook that ran as the answer Claude Code reads.
//!
//! The answer is always exit code 0 with nothing on stdout or one JSON object: Claude Code
//! 2.1.328 shows a JSON deny's reason to the model as written, while an exit-2 answer
//! prefixes it with the whole hook command line (checked with the real CLI,
//! `specs/bridge.md`). Every field of the input the envelope has no place for is kept in
//! [`Envelope::extra`], so a Claude Code hook the bridge runs receives what Claude Code sent.

use std::path::PathBuf;

use hooks_schema::{
    Decision, Envelope, FoldedVerdict, HookEvent, HostAnswer, HostCodec, HostError, HostInput,
    Notification, Prompt, SessionInfo, StopInfo, ToolCall, ToolKind, ToolResult, claude_shaped,
    joined_texts as joined, json_answer, object_naming_its_event, reason_with_provenance,
    take_bool, take_str, take_u64,
};
use serde_json::{Map, Value, json};

use crate::NativeEvent;

/// The result of a shell command that ran to its end with a non-zero status, when `tool` is
/// a shell tool and `error` is how Claude Code words that in a `PostToolUseFailure`'s `error`
/// and in its transcript's `tool_result` (`Exit code N`, then the output); `None` for any
/// other failure. Such a firing is a `post_tool_use` with this result: only the formats that
/// take a non-zero exit for a failure run their failure hooks for it
/// (`FormatDescriptor::event_rule`).
///
/// ```
/// use hooks_schema::{ToolCall, ToolKind};
///
/// let bash = ToolCall {
///     name: "Bash".into(),
///     kind: ToolKind::Shell,
///     native_kind: None,
///     call_id: None,
///     mcp_server: None,
///     args: serde_json::json!({"command": "exit 3"}),
/// };
/// let r = hooks_format_claude::shell_exit_result(Some(&bash), "Exit code 3\nout\nerr");
/// assert_eq!(r.as_ref().and_then(|r| r.exit_code), Some(3));
/// assert_eq!(r.and_then(|r| r.text).as_deref(), Some("out\nerr"));
/// assert!(hooks_format_claude::shell_exit_result(Some(&bash), "Command timed out").is_none());
/// assert!(hooks_format_claude::shell_exit_result(None, "Exit code 3").is_none());
/// ```
pub fn shell_exit_result(tool: Option<&ToolCall>, error: &str) -> Option<ToolResult> {
    if !tool.is_some_and(|t| t.kind == ToolKind::Shell) {
        return None;
    }
    let (code, output) = shell_exit(error)?;
    Some(ToolResult {
        text: Some(output.to_owned()),
        exit_code: Some(code),
        ..ToolResult::default()
    })
}

/// The status and output of a shell command that ran to its end and failed, as Claude Code
/// words them: `Exit code 3`, then the command's output on the next lines (observed with
/// 2.1.328); `None` for any other error (a status of 0 is no failure).
pub(crate) fn shell_exit(error: &str) -> Option<(i32, &str)> {
    let (first, output) = error.split_once('\n').unwrap_or((error, ""));
    let code: i32 = first.strip_prefix("Exit code ")?.parse().ok()?;
    (code != 0).then_some((code, output))
}

/// The `error` Claude Code gives a `PostToolUseFailure` for a shell command that exited with
/// `code` after printing `output` ([`shell_exit`] reads it back).
pub(crate) fn shell_exit_error(code: i32, output: &str) -> String {
    let output = output.trim_end_matches('\n');
    if output.is_empty() {
        format!("Exit code {code}")
    } else {
        format!("Exit code {code}\n{output}")
    }
}

/// Claude Code's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClaudeHost;

/// The canonical kind of a Claude Code tool.
pub fn tool_kind(name: &str) -> ToolKind {
    match name {
        "Bash" | "BashOutput" | "KillShell" | "PowerShell" => ToolKind::Shell,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::FileWrite,
        "Read" | "NotebookRead" => ToolKind::FileRead,
        "Glob" | "Grep" | "LS" | "ToolSearch" => ToolKind::Search,
        "WebFetch" | "WebSearch" => ToolKind::Web,
        "Task" | "Agent" => ToolKind::Subagent,
        n if n.starts_with("mcp__") => ToolKind::Mcp,
        _ => ToolKind::Other,
    }
}

/// Decodes Claude Code's hook input (the stdin document of any event) into an envelope.
///
/// # Errors
/// Input that is not a JSON object of Claude Code's field types, an event named neither in
/// the input nor on the command line, two different event names, or an event with no
/// canonical counterpart (Claude Code's capability gaps, `PostToolBatch` among them:
/// [`HostError::UnknownEvent`]).
pub fn decode_input(stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
    let (mut m, name) = object_naming_its_event(stdin, event_arg)?;
    // A gap (`PostToolBatch`, `PermissionDenied`, …: [`GAP_EVENTS`]) or a newer event: no
    // hook of the engine is for it.
    let Some(native) = NativeEvent::from_name(&name) else {
        return Err(HostError::UnknownEvent(name));
    };
    let mut e = Envelope::new(native.canonical());
    e.session_id = take_str(&mut m, "session_id")?.filter(|s| !s.is_empty());
    e.transcript_path =
        take_str(&mut m, "transcript_path")?.filter(|s| !s.is_empty()).map(PathBuf::from);
    e.cwd = take_str(&mut m, "cwd")?.filter(|s| !s.is_empty()).map(PathBuf::from);
    e.permission_mode = take_str(&mut m, "permission_mode")?;
    // `prompt_id` names the user prompt a tool call belongs to: the turn.
    e.turn_id = take_str(&mut m, "prompt_id")?;
    e.model = match m.get("model") {
        Some(Value::String(_)) => take_str(&mut m, "model")?,
        _ => None,
    };
    match native {
        NativeEvent::PreToolUse
        | NativeEvent::PermissionRequest
        | NativeEvent::PostToolUse
        | NativeEvent::PostToolUseFailure => {
            e.tool = Some(claude_shaped::tool_call(&mut m, tool_kind)?);
            if native == NativeEvent::PostToolUse {
                let duration_ms = take_u64(&mut m, "duration_ms");
                e.result = Some(claude_shaped::tool_response(&mut m, duration_ms));
            } else if native == NativeEvent::PostToolUseFailure {
                // `duration_ms` on a failure too (observed with Claude Code 2.1.328).
                let error = take_str(&mut m, "error")?;
                let interrupted = take_bool(&mut m, "is_interrupt")?;
                let duration_ms = take_u64(&mut m, "duration_ms");
                let ran = error
                    .as_deref()
                    .filter(|_| !interrupted)
                    .and_then(|error| shell_exit_result(e.tool.as_ref(), error));
                match ran {
                    // A command that ran to its end with a non-zero status.
                    Some(result) => {
                        e.event = HookEvent::PostToolUse;
                        e.result = Some(ToolResult { duration_ms, ..result });
                    }
                    None => {
                        e.result = Some(ToolResult {
                            error,
                            interrupted,
                            failed: true,
                            duration_ms,
                            ..ToolResult::default()
                        });
                    }
                }
            }
        }
        NativeEvent::UserPromptSubmit => {
            let text = take_str(&mut m, "prompt")?.unwrap_or_default();
            e.prompt = Some(Prompt { text, ..Prompt::default() });
        }
        NativeEvent::SessionStart => {
            e.session =
                Some(SessionInfo { source: take_str(&mut m, "source")?, ..SessionInfo::default() });
        }
        NativeEvent::SessionEnd => {
            e.session =
                Some(SessionInfo { reason: take_str(&mut m, "reason")?, ..SessionInfo::default() });
        }
        NativeEvent::Stop => e.stop = Some(claude_shaped::stop(&mut m)?),
        NativeEvent::StopFailure => {
            e.stop = Some(StopInfo {
                status: take_str(&mut m, "error")?,
                last_message: take_str(&mut m, "last_assistant_message")?,
                ..StopInfo::default()
            });
        }
        NativeEvent::SubagentStart | NativeEvent::SubagentStop => {
            let (subagent, stop) =
                claude_shaped::subagent(&mut m, native == NativeEvent::SubagentStop)?;
            e.subagent = Some(subagent);
            if stop.is_some() {
                e.stop = stop;
            }
        }
        NativeEvent::PreCompact | NativeEvent::PostCompact => {
            e.compaction = Some(claude_shaped::compaction(&mut m)?);
        }
        NativeEvent::Notification => {
            e.notification = Some(Notification {
                kind: take_str(&mut m, "notification_type")?,
                message: take_str(&mut m, "message")?,
                title: take_str(&mut m, "title")?,
            });
        }
    }
    e.extra = m;
    Ok(HostInput { session_id: e.session_id.clone(), envelope: e, native_event: name })
}

/// Encodes the folded verdict as Claude Code's answer for `native`, the JSON form Claude
/// Code reads on exit code 0.
pub fn encode_answer(native: NativeEvent, verdict: &FoldedVerdict) -> HostAnswer {
    let mut out = Map::new();
    let mut specific = Map::new();
    let context = joined(&verdict.context);
    if let Some(m) = joined(&verdict.user_messages) {
        out.insert("systemMessage".into(), Value::String(m));
    }
    let reason = || reason_with_provenance(verdict.reason.as_deref(), verdict.decided_by.as_ref());
    let refused = matches!(verdict.decision, Some(Decision::Deny | Decision::Ask));
    match native {
        NativeEvent::PreToolUse => {
            match verdict.decision {
                Some(Decision::Deny) => {
                    specific.insert("permissionDecision".into(), json!("deny"));
                    specific.insert("permissionDecisionReason".into(), Value::String(reason()));
                }
                Some(Decision::Ask) => {
                    specific.insert("permissionDecision".into(), json!("ask"));
                    specific.insert("permissionDecisionReason".into(), Value::String(reason()));
                }
                Some(Decision::Allow) | None => {
                    // A rewrite goes with the decision that carried it: a hook's `allow`
                    // passes on as Claude Code's (it skips the permission prompt, as the
                    // hook would have under Claude Code); without one only the input changes.
                    if let Some(args) = &verdict.updated_args {
                        if verdict.decision == Some(Decision::Allow) {
                            specific.insert("permissionDecision".into(), json!("allow"));
                        }
                        specific.insert("updatedInput".into(), args.clone());
                    }
                }
            }
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        NativeEvent::PermissionRequest => match verdict.decision {
            Some(Decision::Deny | Decision::Ask) => {
                specific
                    .insert("decision".into(), json!({"behavior": "deny", "message": reason()}));
            }
            Some(Decision::Allow) => {
                let mut d = Map::new();
                d.insert("behavior".into(), json!("allow"));
                if let Some(args) = &verdict.updated_args {
                    d.insert("updatedInput".into(), args.clone());
                }
                specific.insert("decision".into(), Value::Object(d));
            }
            None => {}
        },
        NativeEvent::UserPromptSubmit | NativeEvent::PreCompact => {
            if refused {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(reason()));
            }
            if native == NativeEvent::UserPromptSubmit
                && let Some(c) = context
            {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        NativeEvent::PostToolUse | NativeEvent::PostToolUseFailure => {
            if refused {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(reason()));
            }
            if native == NativeEvent::PostToolUse
                && let Some(o) = &verdict.updated_output
                && !o.is_null()
            {
                specific.insert("updatedToolOutput".into(), o.clone());
            }
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        NativeEvent::Stop | NativeEvent::SubagentStop => {
            if let Some(f) = joined(&verdict.followups) {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(f));
            }
        }
        NativeEvent::SessionStart | NativeEvent::SubagentStart => {
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        NativeEvent::SessionEnd
        | NativeEvent::StopFailure
        | NativeEvent::Notification
        | NativeEvent::PostCompact => {}
    }
    if let Some((by, why)) = &verdict.halt {
        out.insert("continue".into(), json!(false));
        out.insert("stopReason".into(), Value::String(reason_with_provenance(Some(why), Some(by))));
    }
    json_answer(native.as_str(), out, specific)
}

impl HostCodec for ClaudeHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        decode_input(stdin, event_arg)
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        match NativeEvent::from_name(&input.native_event)
            .or_else(|| NativeEvent::from_canonical(input.envelope.event))
        {
            Some(native) => encode_answer(native, verdict),
            None => HostAnswer::default(),
        }
    }
}

#[cfg(test)]
mod tests;
