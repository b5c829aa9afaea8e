//! Windsurf as the host (`hooks bridge --host windsurf`): Windsurf's hook input decoded into
//! the canonical envelope, a folded verdict answered in the only form Windsurf reads: exit
//! code 2 with the reason on stderr blocks a `pre_` action, exit 0 lets it proceed.
//!
//! `tool_info` becomes the tool call (`read_code`, `write_code`, `run_command` or the MCP
//! tool) with `tool_info` as its arguments, plus `command` for a terminal command so hooks of
//! other formats find the command where they look for it; `trajectory_id` is the session.

use hooks_schema::{
    AgentText, Decision, Envelope, FoldedVerdict, HostAnswer, HostCodec, HostError, HostInput,
    Prompt, ToolCall, ToolKind, ToolResult, get_str, reason_with_provenance,
};
use serde_json::{Map, Value};

use crate::events::WindsurfEvent;

/// Windsurf's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindsurfHost;

/// The tool name the envelope gives a Windsurf action.
pub fn tool_name(event: WindsurfEvent) -> &'static str {
    match event.narrowing() {
        Some(ToolKind::FileRead) => "read_code",
        Some(ToolKind::FileWrite) => "write_code",
        Some(ToolKind::Shell) => "run_command",
        _ => "",
    }
}

impl HostCodec for WindsurfHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        let obj = hooks_schema::json_object(stdin)?;
        let named = get_str(&obj, "agent_action_name")?;
        let native = match (named.as_deref(), event_arg) {
            (Some(a), Some(b)) if a != b => {
                return Err(HostError::Malformed(format!(
                    "the input is for `{a}` but the command line names `{b}`"
                )));
            }
            (Some(a), _) | (None, Some(a)) => a.to_owned(),
            (None, None) => return Err(HostError::Malformed("no `agent_action_name`".to_owned())),
        };
        let event = WindsurfEvent::from_name(&native)
            .ok_or_else(|| HostError::UnknownEvent(native.clone()))?;
        let canonical = event.canonical().ok_or_else(|| HostError::UnknownEvent(native.clone()))?;
        let mut env = Envelope::new(canonical);
        let session_id = get_str(&obj, "trajectory_id")?.filter(|s| !s.is_empty());
        env.session_id.clone_from(&session_id);
        env.timestamp = get_str(&obj, "timestamp")?;
        let info = match obj.get("tool_info") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(_) => return Err(HostError::Malformed("`tool_info` is not an object".to_owned())),
        };
        let execution = get_str(&obj, "execution_id")?;
        let get = |k: &str| info.get(k).and_then(Value::as_str).map(str::to_owned);
        match (event, event.narrowing()) {
            (_, Some(ToolKind::Mcp)) => {
                env.tool = Some(ToolCall {
                    name: get("mcp_tool_name").unwrap_or_default(),
                    kind: ToolKind::Mcp,
                    native_kind: None,
                    call_id: execution.clone(),
                    mcp_server: get("mcp_server_name"),
                    args: info
                        .get("mcp_tool_arguments")
                        .cloned()
                        .unwrap_or(Value::Object(Map::new())),
                });
                if let Some(r) = info.get("mcp_result") {
                    env.result = Some(ToolResult {
                        output: Some(r.clone()),
                        text: r.as_str().map(str::to_owned),
                        ..ToolResult::default()
                    });
                }
            }
            (_, Some(kind)) => {
                let mut args = info.clone();
                let mut result = None;
                if kind == ToolKind::Shell {
                    if let Some(c) = get("command_line") {
                        args.insert("command".into(), Value::String(c));
                    }
                    if let Some(cwd) = get("cwd") {
                        env.cwd = Some(cwd.into());
                    }
                    if event == WindsurfEvent::PostRunCommand {
                        let code = args.remove("exit_code");
                        let output =
                            args.remove("output").and_then(|o| o.as_str().map(str::to_owned));
                        let failed = code.as_ref().and_then(Value::as_i64).is_some_and(|c| c != 0);
                        let mut o = Map::new();
                        if let Some(c) = code {
                            o.insert("exit_code".into(), c);
                        }
                        result = Some(ToolResult {
                            text: output,
                            failed,
                            output: Some(Value::Object(o)),
                            ..ToolResult::default()
                        });
                    }
                }
                if event == WindsurfEvent::PostReadCode
                    && let Some(Value::String(c)) = args.remove("content")
                {
                    result = Some(ToolResult { text: Some(c), ..ToolResult::default() });
                }
                env.tool = Some(ToolCall {
                    name: tool_name(event).to_owned(),
                    kind,
                    native_kind: Some(native.clone()),
                    call_id: execution.clone(),
                    mcp_server: None,
                    args: Value::Object(args),
                });
                env.result = result;
            }
            (WindsurfEvent::PreUserPrompt, None) => {
                env.prompt = Some(Prompt {
                    text: get("user_prompt").unwrap_or_default(),
                    ..Prompt::default()
                });
                if let Some(e) = execution {
                    env.extra.insert("execution_id".into(), Value::String(e));
                }
            }
            (WindsurfEvent::PostCascadeResponse, None) => {
                env.text = Some(AgentText {
                    text: get("response").unwrap_or_default(),
                    duration_ms: None,
                });
                if let Some(e) = execution {
                    env.extra.insert("execution_id".into(), Value::String(e));
                }
            }
            _ => return Err(HostError::UnknownEvent(native)),
        }
        for (k, v) in obj {
            if !["agent_action_name", "trajectory_id", "execution_id", "timestamp", "tool_info"]
                .contains(&k.as_str())
            {
                env.extra.insert(k, v);
            }
        }
        Ok(HostInput { envelope: env, native_event: native, session_id })
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        let blocks =
            WindsurfEvent::from_name(&input.native_event).is_some_and(WindsurfEvent::can_block);
        match verdict.decision {
            // Windsurf cannot ask: an engine `ask` blocks, naming the rule.
            Some(Decision::Deny | Decision::Ask) if blocks => {
                let reason = verdict.reason.as_deref().unwrap_or("blocked by a hook");
                let text = reason_with_provenance(Some(reason), verdict.decided_by.as_ref());
                HostAnswer {
                    stdout: Vec::new(),
                    stderr: format!("{text}\n").into_bytes(),
                    exit_code: 2,
                }
            }
            _ => HostAnswer::default(),
        }
    }
}

#[cfg(test)]
mod tests;
