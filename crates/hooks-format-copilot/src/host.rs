//! Copilot CLI as the host: the engine runs as Copilot's own hook command
//! (`hooks bridge --host copilot --event <name>`), decoding Copilot's hook input into the
//! canonical envelope and answering with Copilot's output protocol.
//!
//! A camelCase payload does not name its event (only `permissionRequest`'s `hookName` does),
//! so the event comes from the command line; a PascalCase payload carries
//! `hook_event_name`. Fields the envelope has no place for are kept in
//! [`Envelope::extra`], so a Copilot hook run by the bridge receives what Copilot sent.
//! The answer is always exit code 0 with one JSON object on stdout, which Copilot reads the
//! same on every event (`specs/formats/copilot.md`, "Host").

use hooks_schema::{
    Compaction, Decision, Envelope, FoldedVerdict, HostAnswer, HostCodec, HostError, HostInput,
    Notification, Prompt, Provenance, SessionInfo, StopInfo, Subagent, ToolCall, ToolResult,
    get_str, reason_with_provenance,
};
use serde_json::{Map, Value};

use crate::{
    events::{CopilotEvent, Dialect},
    matcher::tool_kind,
};

/// Copilot CLI's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CopilotHost;

/// The event named by the input or the command line, and its dialect.
fn event_of(
    obj: &Map<String, Value>,
    event_arg: Option<&str>,
) -> Result<(CopilotEvent, Dialect, String), HostError> {
    let named = get_str(obj, "hook_event_name")?.or(get_str(obj, "hookName")?);
    let resolve =
        |n: &str| CopilotEvent::from_name(n).ok_or_else(|| HostError::UnknownEvent(n.to_owned()));
    let (event, dialect, name) = match (named.as_deref(), event_arg) {
        (Some(a), Some(b)) => {
            let (ea, _) = resolve(a)?;
            let (eb, db) = resolve(b)?;
            if ea != eb {
                return Err(HostError::Malformed(format!(
                    "the input is for `{a}` but the command line names `{b}`"
                )));
            }
            (eb, db, b.to_owned())
        }
        (Some(a), None) | (None, Some(a)) => {
            let (e, d) = resolve(a)?;
            (e, d, a.to_owned())
        }
        (None, None) => {
            return Err(HostError::Malformed(
                "no event: a camelCase Copilot payload does not name it; pass it on the command line".to_owned(),
            ));
        }
    };
    if event.canonical().is_none() {
        return Err(HostError::UnknownEvent(name));
    }
    Ok((event, dialect, name))
}

impl HostCodec for CopilotHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        let obj = hooks_schema::json_object(stdin)?;
        let (event, _, native) = event_of(&obj, event_arg)?;
        // What the payload itself is, whatever the command line says (`PermissionRequest`
        // hooks get the camelCase payload).
        let d = if obj.contains_key("hook_event_name") || obj.contains_key("session_id") {
            Dialect::Pascal
        } else {
            Dialect::Camel
        };
        let k = |camel: &'static str, snake: &'static str| {
            if d == Dialect::Camel { camel } else { snake }
        };
        let canonical = event.canonical().ok_or_else(|| HostError::UnknownEvent(native.clone()))?;
        let mut env = Envelope::new(canonical);
        let mut taken: Vec<&str> =
            vec!["hook_event_name", "cwd", "timestamp", k("sessionId", "session_id")];
        let session_id = get_str(&obj, k("sessionId", "session_id"))?.filter(|s| !s.is_empty());
        env.session_id.clone_from(&session_id);
        env.cwd = get_str(&obj, "cwd")?.filter(|s| !s.is_empty()).map(Into::into);
        env.timestamp = match obj.get("timestamp") {
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let tool = |name_key: &str, args_key: &str| -> Result<ToolCall, HostError> {
            let name = get_str(&obj, name_key)?
                .ok_or_else(|| HostError::Malformed(format!("no `{name_key}`")))?;
            Ok(ToolCall {
                kind: tool_kind(&name),
                name,
                native_kind: None,
                call_id: None,
                mcp_server: None,
                args: obj.get(args_key).cloned().unwrap_or(Value::Object(Map::new())),
            })
        };
        match event {
            CopilotEvent::SessionStart => {
                env.session = Some(SessionInfo {
                    source: get_str(&obj, "source")?,
                    ..SessionInfo::default()
                });
                let ip = k("initialPrompt", "initial_prompt");
                env.prompt = get_str(&obj, ip)?.map(|text| Prompt { text, ..Prompt::default() });
                taken.extend(["source", ip]);
            }
            CopilotEvent::SessionEnd => {
                env.session = Some(SessionInfo {
                    reason: get_str(&obj, "reason")?,
                    ..SessionInfo::default()
                });
                taken.push("reason");
            }
            CopilotEvent::UserPromptSubmitted => {
                env.prompt = Some(Prompt {
                    text: get_str(&obj, "prompt")?.unwrap_or_default(),
                    ..Prompt::default()
                });
                taken.push("prompt");
            }
            CopilotEvent::PreToolUse
            | CopilotEvent::PostToolUse
            | CopilotEvent::PostToolUseFailure => {
                let (nk, ak) = (k("toolName", "tool_name"), k("toolArgs", "tool_input"));
                env.tool = Some(tool(nk, ak)?);
                taken.extend([nk, ak]);
                if event == CopilotEvent::PostToolUse {
                    let rk = k("toolResult", "tool_result");
                    let r = obj.get(rk).cloned().unwrap_or(Value::Null);
                    let text = r
                        .get(k("textResultForLlm", "text_result_for_llm"))
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    let failed = r
                        .get(k("resultType", "result_type"))
                        .and_then(Value::as_str)
                        .is_some_and(|t| t != "success");
                    // A shell command's status, at the end of the text Copilot CLI gives the
                    // model (`<shellId: 0 completed with exit code 3>`, observed with 1.0.102,
                    // whose `resultType` stays `success`): no failure for Copilot CLI, but one
                    // for Claude Code.
                    let exit_code = text.as_deref().and_then(shell_exit);
                    env.result = Some(ToolResult {
                        text,
                        failed,
                        exit_code,
                        output: Some(r),
                        ..ToolResult::default()
                    });
                    taken.push(rk);
                }
                if event == CopilotEvent::PostToolUseFailure {
                    let error = get_str(&obj, "error")?;
                    env.result = Some(ToolResult { error, failed: true, ..ToolResult::default() });
                    taken.push("error");
                }
            }
            CopilotEvent::PermissionRequest => {
                env.tool = Some(tool("toolName", "toolInput")?);
                taken.extend(["toolName", "toolInput", "hookName"]);
            }
            CopilotEvent::AgentStop | CopilotEvent::SubagentStop => {
                let (tk, sk) =
                    (k("transcriptPath", "transcript_path"), k("stopReason", "stop_reason"));
                env.transcript_path = get_str(&obj, tk)?.filter(|s| !s.is_empty()).map(Into::into);
                env.stop = Some(StopInfo {
                    status: get_str(&obj, sk)?,
                    stop_hook_active: obj.get("stop_hook_active") == Some(&Value::Bool(true)),
                    ..StopInfo::default()
                });
                taken.extend([tk, sk, "stop_hook_active"]);
                if event == CopilotEvent::SubagentStop {
                    let ak = k("agentName", "agent_name");
                    env.subagent = get_str(&obj, ak)?
                        .map(|n| Subagent { name: Some(n), ..Subagent::default() });
                    taken.push(ak);
                }
            }
            CopilotEvent::SubagentStart => {
                env.subagent =
                    Some(Subagent { name: get_str(&obj, "agentName")?, ..Subagent::default() });
                taken.push("agentName");
            }
            CopilotEvent::PreCompact => {
                let ck = k("customInstructions", "custom_instructions");
                env.compaction = Some(Compaction {
                    trigger: get_str(&obj, "trigger")?,
                    custom_instructions: get_str(&obj, ck)?,
                    ..Compaction::default()
                });
                taken.extend(["trigger", ck]);
            }
            CopilotEvent::Notification => {
                env.notification = Some(Notification {
                    kind: get_str(&obj, "notification_type")?,
                    message: get_str(&obj, "message")?,
                    title: get_str(&obj, "title")?,
                });
                taken.extend(["notification_type", "message", "title"]);
            }
            CopilotEvent::UserPromptTransformed
            | CopilotEvent::ErrorOccurred
            | CopilotEvent::PreMcpToolCall => {
                return Err(HostError::UnknownEvent(native));
            }
        }
        for (key, v) in obj {
            if !taken.contains(&key.as_str()) {
                env.extra.insert(key, v);
            }
        }
        Ok(HostInput { envelope: env, native_event: native, session_id })
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        let Some((event, dialect)) = CopilotEvent::from_name(&input.native_event) else {
            return HostAnswer::default();
        };
        let out = answer(event, dialect, verdict);
        HostAnswer::json_object(out)
    }
}

/// Copilot's answer for a folded verdict on `event` in `dialect`.
fn answer(event: CopilotEvent, dialect: Dialect, verdict: &FoldedVerdict) -> Map<String, Value> {
    let mut out = Map::new();
    let mut nested = Map::new();
    let join = |items: &[(Provenance, String)]| -> Option<String> {
        (!items.is_empty())
            .then(|| items.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>().join("\n"))
    };
    let reason = verdict.reason.as_deref().map_or_else(
        || "blocked by a hook".to_owned(),
        |r| reason_with_provenance(Some(r), verdict.decided_by.as_ref()),
    );
    let pascal = dialect == Dialect::Pascal && event != CopilotEvent::PermissionRequest;
    let context = join(&verdict.context);
    match event {
        CopilotEvent::PreToolUse => {
            let target = if pascal { &mut nested } else { &mut out };
            match verdict.decision {
                Some(Decision::Deny) => {
                    target.insert("permissionDecision".into(), "deny".into());
                    target.insert("permissionDecisionReason".into(), Value::String(reason));
                }
                Some(Decision::Ask) => {
                    target.insert("permissionDecision".into(), "ask".into());
                    target.insert("permissionDecisionReason".into(), Value::String(reason));
                }
                Some(Decision::Allow) | None if verdict.updated_args.is_some() => {
                    target.insert("permissionDecision".into(), "allow".into());
                    let key = if pascal { "updatedInput" } else { "modifiedArgs" };
                    target.insert(key.into(), verdict.updated_args.clone().unwrap_or_default());
                }
                _ => {}
            }
            if let Some(c) = context {
                target.insert("additionalContext".into(), Value::String(c));
            }
            if pascal && !nested.is_empty() {
                nested.insert("hookEventName".into(), "PreToolUse".into());
            }
        }
        CopilotEvent::PermissionRequest => match verdict.decision {
            Some(Decision::Deny | Decision::Ask) => {
                // `ask` becomes a deny: the permission request is the question itself.
                out.insert("behavior".into(), "deny".into());
                out.insert("message".into(), Value::String(reason));
                if verdict.halt.is_some() {
                    out.insert("interrupt".into(), Value::Bool(true));
                }
            }
            Some(Decision::Allow) => {
                out.insert("behavior".into(), "allow".into());
            }
            _ => {}
        },
        CopilotEvent::AgentStop | CopilotEvent::SubagentStop => {
            if let Some(f) = join(&verdict.followups) {
                out.insert("decision".into(), "block".into());
                out.insert("reason".into(), Value::String(f));
            }
        }
        CopilotEvent::PostToolUse => {
            if let Some(o) = &verdict.updated_output {
                let r = if o.get("resultType").is_some() {
                    o.clone()
                } else {
                    let text = o.as_str().map_or_else(|| o.to_string(), str::to_owned);
                    serde_json::json!({"resultType": "success", "textResultForLlm": text})
                };
                out.insert("modifiedResult".into(), r);
            }
            if let Some(c) = context {
                out.insert("additionalContext".into(), Value::String(c));
            }
        }
        CopilotEvent::SessionStart
        | CopilotEvent::UserPromptSubmitted
        | CopilotEvent::PostToolUseFailure
        | CopilotEvent::SubagentStart
        | CopilotEvent::Notification => {
            if let Some(c) = context {
                out.insert("additionalContext".into(), Value::String(c));
            }
        }
        _ => {}
    }
    if !nested.is_empty() {
        out.insert("hookSpecificOutput".into(), Value::Object(nested));
    }
    out
}

/// The exit status at the end of the text Copilot CLI gives the model for a shell command
/// (observed with 1.0.102: `<shellId: 0 completed with exit code 3>`), found as Copilot CLI
/// finds that line itself (its `cli-main.js`): the last line that is not empty, after any of
/// its sandbox notes, must be `<shellId: ID completed with exit code N>` or `<detached command
/// with shellId: ID …>`, spaces and tabs after it allowed. A line of the command's own output
/// (`x <shellId: 9 completed with exit code 5>`, or such a line before Copilot CLI's) is not.
fn shell_exit(text: &str) -> Option<i32> {
    /// The notes Copilot CLI may add after the status line.
    const SANDBOX_NOTES: [&str; 3] = [
        "<sandbox is active ",
        "<this failure may be caused by the active sandbox policy.",
        "<This command was retried outside the Copilot sandbox with user approval and still failed.",
    ];
    // Copilot CLI turns `\r\n` and `\r` into `\n` before it splits; splitting at either
    // gives the same lines that are not empty, without copying the output twice.
    let line = text
        .split(['\r', '\n'])
        .rev()
        .filter(|l| !l.is_empty())
        .find(|l| !SANDBOX_NOTES.iter().any(|n| l.starts_with(n)))?;
    let line = line.trim_end_matches([' ', '\t']).strip_suffix('>')?;
    let (head, code) = line.rsplit_once(" completed with exit code ")?;
    let id = head
        .strip_prefix("<shellId: ")
        .or_else(|| head.strip_prefix("<detached command with shellId: "))?;
    let digits = code.strip_prefix('-').unwrap_or(code);
    let number = !id.is_empty() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    number.then(|| code.parse().ok()).flatten()
}

#[cfg(test)]
mod tests;
