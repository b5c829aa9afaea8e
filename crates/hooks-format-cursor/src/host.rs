//! Cursor as a host: the engine runs as Cursor's own hook command (`hooks bridge --host
//! cursor`), decoding the hook input Cursor sends into the canonical envelope and encoding the
//! folded verdict of every hook that ran as the answer Cursor reads.
//!
//! Cursor's hooks run here from its documentation only (no Cursor CLI runs in the real-agent
//! harness): the input fields are the ones [`crate::CursorCodec`] sends Cursor hooks, which
//! follow Cursor's documentation, and the answer is the documented JSON on stdout with exit
//! code 0, always a JSON object (an answer that printed nothing was read as invalid output
//! under `cursor-agent`, `specs/bridge.md`). What Cursor cannot express is mapped to the
//! closest stricter answer: `ask` on `preToolUse` (accepted but not enforced by Cursor)
//! becomes a deny.

use std::path::PathBuf;

use hooks_schema::{
    AgentText, Compaction, Decision, Envelope, FoldedVerdict, HostAnswer, HostCodec, HostError,
    HostInput, Prompt, SessionInfo, StopInfo, Subagent, ToolCall, ToolKind, ToolResult,
    joined_texts as joined, object_naming_its_event, reason_with_provenance, take_str, take_u64,
};
use serde_json::{Map, Value, json};

use crate::events::{self, AskRule};

/// Cursor's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorHost;

/// The canonical kind of a Cursor tool type (`Shell`, `Read`, `Write`, `Delete`, `Grep`,
/// `Task`, `MCP:<tool>`, …).
pub fn tool_kind(tool_type: &str) -> ToolKind {
    match tool_type {
        "Shell" => ToolKind::Shell,
        "Read" | "TabRead" => ToolKind::FileRead,
        "Write" | "Delete" | "TabWrite" => ToolKind::FileWrite,
        "Grep" | "Glob" => ToolKind::Search,
        "Task" => ToolKind::Subagent,
        "WebFetch" | "WebSearch" => ToolKind::Web,
        t if t.starts_with("MCP:") => ToolKind::Mcp,
        _ => ToolKind::Other,
    }
}

fn take_bool(m: &mut Map<String, Value>, k: &str) -> bool {
    match m.get(k) {
        Some(Value::Bool(b)) => {
            let b = *b;
            m.remove(k);
            b
        }
        _ => false,
    }
}

/// A JSON document Cursor sends as a string (`tool_input` of `beforeMCPExecution`,
/// `tool_output`), parsed when it is one.
fn json_string(v: Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        other => other,
    }
}

fn tool_call(tool_type: String, args: Value, call_id: Option<String>) -> ToolCall {
    let kind = tool_kind(&tool_type);
    let name = match tool_type.strip_prefix("MCP:") {
        Some(tool) => tool.to_owned(),
        None => tool_type.clone(),
    };
    ToolCall { name, kind, native_kind: Some(tool_type), call_id, mcp_server: None, args }
}

/// Decodes Cursor's hook input (the stdin document of any event) into an envelope.
///
/// # Errors
/// Input that is not a JSON object of Cursor's field types, an event named neither in the
/// input nor on the command line, two different event names, or an event with no canonical
/// counterpart (the Tab events).
pub fn decode_input(stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
    let (mut m, name) = object_naming_its_event(stdin, event_arg)?;
    let native = events::lookup(&name).ok_or_else(|| HostError::UnknownEvent(name.clone()))?;
    let event = native.canonical.ok_or_else(|| HostError::UnknownEvent(name.clone()))?;
    let mut e = Envelope::new(event);
    let conversation = take_str(&mut m, "conversation_id")?.filter(|s| !s.is_empty());
    let session = match m.get("session_id") {
        Some(Value::String(_)) => take_str(&mut m, "session_id")?.filter(|s| !s.is_empty()),
        _ => None,
    };
    e.session_id = conversation.or(session);
    e.turn_id = take_str(&mut m, "generation_id")?;
    e.model = take_str(&mut m, "model")?;
    e.transcript_path = take_str(&mut m, "transcript_path")?.map(PathBuf::from);
    match m.remove("workspace_roots") {
        Some(Value::Array(roots)) => {
            e.workspace_roots =
                roots.into_iter().filter_map(|r| r.as_str().map(PathBuf::from)).collect();
        }
        None | Some(Value::Null) => {}
        Some(_) => return Err(HostError::Malformed("`workspace_roots` must be an array".into())),
    }
    let cwd = match m.get("cwd") {
        Some(Value::String(_)) => take_str(&mut m, "cwd")?,
        _ => None,
    };
    let arg = |m: &mut Map<String, Value>, k: &str| m.remove(k).unwrap_or(Value::Null);
    match native.name {
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            let tool_type = take_str(&mut m, "tool_name")?
                .ok_or_else(|| HostError::Malformed("`tool_name` is missing".to_owned()))?;
            let args = match m.remove("tool_input") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(v) => v,
            };
            e.tool = Some(tool_call(tool_type, args, take_str(&mut m, "tool_use_id")?));
            let duration_ms = take_u64(&mut m, "duration");
            if native.name == "postToolUse" {
                let output = json_string(arg(&mut m, "tool_output"));
                e.result = Some(match output {
                    Value::Null => ToolResult { duration_ms, ..ToolResult::default() },
                    Value::String(s) => {
                        ToolResult { text: Some(s), duration_ms, ..ToolResult::default() }
                    }
                    o => ToolResult { output: Some(o), duration_ms, ..ToolResult::default() },
                });
            } else if native.name == "postToolUseFailure" {
                let kind = take_str(&mut m, "failure_type")?;
                e.result = Some(ToolResult {
                    error: take_str(&mut m, "error_message")?,
                    failed: true,
                    interrupted: take_bool(&mut m, "is_interrupt"),
                    approval_rejected: kind.as_deref() == Some("permission_denied"),
                    duration_ms,
                    ..ToolResult::default()
                });
            }
        }
        "beforeShellExecution" | "afterShellExecution" => {
            let command = take_str(&mut m, "command")?
                .ok_or_else(|| HostError::Malformed("`command` is missing".to_owned()))?;
            let mut args = Map::new();
            args.insert("command".into(), Value::String(command));
            if let Some(dir) = &cwd {
                args.insert("cwd".into(), Value::String(dir.clone()));
            }
            if take_bool(&mut m, "sandbox") {
                args.insert("sandbox".into(), Value::Bool(true));
            }
            e.tool = Some(tool_call("Shell".to_owned(), Value::Object(args), None));
            if native.name == "afterShellExecution" {
                e.result = Some(ToolResult {
                    text: take_str(&mut m, "output")?,
                    duration_ms: take_u64(&mut m, "duration"),
                    ..ToolResult::default()
                });
            }
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let tool = take_str(&mut m, "tool_name")?
                .ok_or_else(|| HostError::Malformed("`tool_name` is missing".to_owned()))?;
            let args = json_string(arg(&mut m, "tool_input"));
            let tool_type = if tool.starts_with("MCP:") { tool } else { format!("MCP:{tool}") };
            e.tool = Some(tool_call(tool_type, args, None));
            if native.name == "afterMCPExecution" {
                let result = json_string(arg(&mut m, "result_json"));
                e.result = Some(ToolResult {
                    output: (!result.is_null()).then_some(result),
                    duration_ms: take_u64(&mut m, "duration"),
                    ..ToolResult::default()
                });
            }
        }
        "beforeReadFile" | "afterFileEdit" => {
            let path = take_str(&mut m, "file_path")?
                .ok_or_else(|| HostError::Malformed("`file_path` is missing".to_owned()))?;
            let mut args = Map::new();
            args.insert("file_path".into(), Value::String(path));
            let (tool_type, key) = if native.name == "beforeReadFile" {
                ("Read", "content")
            } else {
                ("Write", "edits")
            };
            if let Some(v) = m.remove(key) {
                args.insert(key.into(), v);
            }
            e.tool = Some(tool_call(tool_type.to_owned(), Value::Object(args), None));
            if native.name == "afterFileEdit" {
                e.result = Some(ToolResult::default());
            }
        }
        "beforeSubmitPrompt" => {
            let text = take_str(&mut m, "prompt")?.unwrap_or_default();
            let attachments = match m.remove("attachments") {
                Some(Value::Array(a)) => a,
                _ => Vec::new(),
            };
            e.prompt = Some(Prompt { text, attachments, ..Prompt::default() });
        }
        "afterAgentResponse" | "afterAgentThought" => {
            e.text = Some(AgentText {
                text: take_str(&mut m, "text")?.unwrap_or_default(),
                duration_ms: take_u64(&mut m, "duration_ms"),
            });
        }
        "stop" => {
            e.stop = Some(StopInfo {
                status: take_str(&mut m, "status")?,
                loop_count: take_u64(&mut m, "loop_count")
                    .map(|n| n.min(u64::from(u32::MAX)) as u32),
                ..StopInfo::default()
            });
        }
        "subagentStart" | "subagentStop" => {
            let mut s = Subagent {
                agent_type: take_str(&mut m, "subagent_type")?,
                task: take_str(&mut m, "task")?,
                ..Subagent::default()
            };
            if native.name == "subagentStart" {
                s.id = take_str(&mut m, "subagent_id")?;
                s.parent_call_id = take_str(&mut m, "tool_call_id")?;
            } else {
                s.status = take_str(&mut m, "status")?;
                s.name = take_str(&mut m, "description")?;
                s.summary = take_str(&mut m, "summary")?;
                e.stop = Some(StopInfo {
                    loop_count: take_u64(&mut m, "loop_count")
                        .map(|n| n.min(u64::from(u32::MAX)) as u32),
                    ..StopInfo::default()
                });
            }
            e.subagent = Some(s);
        }
        "sessionStart" | "sessionEnd" => {
            let mut s = SessionInfo {
                is_background: Some(take_bool(&mut m, "is_background_agent")),
                ..SessionInfo::default()
            };
            if native.name == "sessionEnd" {
                s.reason = take_str(&mut m, "reason")?;
                s.duration_ms = take_u64(&mut m, "duration_ms");
            }
            e.session = Some(s);
        }
        "preCompact" => {
            e.compaction = Some(Compaction {
                trigger: take_str(&mut m, "trigger")?,
                usage_pct: m.remove("context_usage_percent").and_then(|v| v.as_f64()),
                tokens_before: take_u64(&mut m, "context_tokens"),
                ..Compaction::default()
            });
        }
        _ => {}
    }
    // The session's directory: the event's `cwd`, else the first workspace root.
    e.cwd = cwd.map(PathBuf::from).or_else(|| e.workspace_roots.first().cloned());
    e.extra = m;
    Ok(HostInput { session_id: e.session_id.clone(), envelope: e, native_event: name })
}

/// Encodes the folded verdict as Cursor's answer for the native event `name`: one JSON object
/// on stdout (`{}` when there is nothing to say), exit code 0.
pub fn encode_answer(name: &str, verdict: &FoldedVerdict) -> HostAnswer {
    let Some(native) = events::lookup(name) else { return HostAnswer::default() };
    let out = native.outputs;
    let mut o = Map::new();
    let reason = || reason_with_provenance(verdict.reason.as_deref(), verdict.decided_by.as_ref());
    let decision = match (verdict.decision, out.permission) {
        // Cursor cannot ask here: the stricter answer.
        (Some(Decision::Ask), Some(AskRule::NotEnforced | AskRule::AsDeny)) => Some(Decision::Deny),
        (d, _) => d,
    };
    let user_messages = joined(&verdict.user_messages);
    if out.permission.is_some() {
        match decision {
            Some(d @ (Decision::Deny | Decision::Ask)) => {
                let mut r = reason();
                if verdict.decision == Some(Decision::Ask) && d == Decision::Deny {
                    r = format!(
                        "{r} [asks for approval, which Cursor cannot express here: denied]"
                    );
                }
                o.insert("permission".into(), json!(d.as_str()));
                o.insert("user_message".into(), Value::String(r.clone()));
                if out.agent_message {
                    o.insert("agent_message".into(), Value::String(r));
                }
            }
            Some(Decision::Allow) => {
                o.insert("permission".into(), json!("allow"));
            }
            None => {}
        }
        if decision != Some(Decision::Deny)
            && out.updated_input
            && let Some(args) = &verdict.updated_args
        {
            o.insert("updated_input".into(), args.clone());
        }
    } else if out.continue_blocks && matches!(decision, Some(Decision::Deny | Decision::Ask)) {
        o.insert("continue".into(), json!(false));
        o.insert("user_message".into(), Value::String(reason()));
    }
    if out.user_message
        && !o.contains_key("user_message")
        && let Some(m) = user_messages
    {
        o.insert("user_message".into(), Value::String(m));
    }
    if out.additional_context
        && let Some(c) = joined(&verdict.context)
    {
        o.insert("additional_context".into(), Value::String(c));
    }
    if out.followup
        && let Some(f) = joined(&verdict.followups)
    {
        o.insert("followup_message".into(), Value::String(f));
    }
    if out.updated_mcp_output
        && let Some(v) = &verdict.updated_output
        && !v.is_null()
    {
        o.insert("updated_mcp_tool_output".into(), v.clone());
    }
    if out.env && !verdict.env.is_empty() {
        let env: Map<String, Value> =
            verdict.env.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        o.insert("env".into(), Value::Object(env));
    }
    let mut stdout = serde_json::to_vec(&Value::Object(o)).unwrap_or_else(|_| b"{}".to_vec());
    stdout.push(b'\n');
    HostAnswer { stdout, stderr: Vec::new(), exit_code: 0 }
}

impl HostCodec for CursorHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        decode_input(stdin, event_arg)
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        encode_answer(&input.native_event, verdict)
    }
}

#[cfg(test)]
mod tests;
