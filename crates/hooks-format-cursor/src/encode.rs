//! Encoding: a canonical envelope becomes Cursor's stdin JSON for the hook's native event,
//! run through the platform shell in the hook's working directory with Cursor's variables.

use std::path::Path;

use hooks_schema::{
    EncodeContext, Envelope, HookCommand, HookDefinition, Invocation, PayloadError, Program,
};
use serde_json::{Map, Value, json};

use crate::{CursorError, events, matcher::shell_command, tool_type};

fn path_str(p: &Path) -> Value {
    Value::String(p.to_string_lossy().into_owned())
}

fn opt_str(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_owned()))
}

/// The compact JSON text of `v`.
fn json_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Builds the invocation of `hook` for `envelope`.
pub(crate) fn encode(
    hook: &HookDefinition,
    envelope: &Envelope,
    ctx: &EncodeContext<'_>,
) -> Result<Invocation, CursorError> {
    let fail = |why: String| CursorError::Encode {
        hook: hook.id.to_string(),
        event: hook.native_event.clone(),
        why,
    };
    let Some(native) = events::lookup(&hook.native_event) else {
        return Err(fail("it is not a Cursor event".to_owned()));
    };
    if envelope.event != hook.event {
        return Err(fail(format!(
            "the envelope is a {} event, the hook is for {}",
            envelope.event, hook.event
        )));
    }
    let script = match &hook.command {
        HookCommand::Shell { script, .. } => script.clone(),
        HookCommand::Exec { .. } | HookCommand::Script { .. } | HookCommand::Http(_) => {
            return Err(fail("Cursor hooks run shell commands only".to_owned()));
        }
    };
    let mut p = Map::new();
    let project = ctx
        .project_dir
        .or_else(|| envelope.workspace_roots.first().map(std::path::PathBuf::as_path))
        .unwrap_or(ctx.working_dir);
    let user_email = envelope.extra.get("user_email").and_then(Value::as_str);
    let roots: Vec<Value> = if envelope.workspace_roots.is_empty() {
        vec![path_str(project)]
    } else {
        envelope.workspace_roots.iter().map(|r| path_str(r)).collect()
    };
    if native.name != "workspaceOpen" {
        p.insert("conversation_id".into(), opt_str(envelope.session_id.as_deref()));
        p.insert("generation_id".into(), opt_str(envelope.turn_id.as_deref()));
        p.insert("model".into(), opt_str(envelope.model.as_deref()));
    }
    p.insert("hook_event_name".into(), Value::String(native.name.to_owned()));
    p.insert("cursor_version".into(), opt_str(ctx.agent_version));
    p.insert("workspace_roots".into(), Value::Array(roots));
    p.insert("user_email".into(), opt_str(user_email));
    if native.name != "workspaceOpen" {
        p.insert(
            "transcript_path".into(),
            envelope.transcript_path.as_deref().map_or(Value::Null, path_str),
        );
    }
    event_fields(native.name, envelope, &mut p).map_err(|e| fail(e.to_string()))?;
    envelope.fill_in_extra(&mut p);
    let mut stdin = serde_json::to_vec(&Value::Object(p)).unwrap_or_default();
    stdin.push(b'\n');

    let mut env: Vec<(String, String)> = ctx.session_env.to_vec();
    let project_s = project.to_string_lossy().into_owned();
    env.push(("CURSOR_PROJECT_DIR".into(), project_s.clone()));
    env.push(("CLAUDE_PROJECT_DIR".into(), project_s));
    if let Some(v) = ctx.agent_version {
        env.push(("CURSOR_VERSION".into(), v.to_owned()));
    }
    if let Some(e) = user_email {
        env.push(("CURSOR_USER_EMAIL".into(), e.to_owned()));
    }
    if let Some(t) = &envelope.transcript_path {
        env.push(("CURSOR_TRANSCRIPT_PATH".into(), t.to_string_lossy().into_owned()));
    }
    if envelope.extra.get("cursor_code_remote").and_then(Value::as_bool) == Some(true) {
        env.push(("CURSOR_CODE_REMOTE".into(), "true".into()));
    }
    env.extend(hook.env.iter().cloned());
    Ok(Invocation {
        program: Program::Shell { script, shell: None },
        cwd: Some(ctx.working_dir.to_path_buf()),
        env_remove: Vec::new(),
        env,
        stdin,
        files: Vec::new(),
        timeout: hook.timeout,
    })
}

/// Adds the native event's own fields.
#[allow(clippy::too_many_lines)]
fn event_fields(
    name: &str,
    env: &Envelope,
    p: &mut Map<String, Value>,
) -> Result<(), PayloadError> {
    let lacks = |whole, part| PayloadError::Lacks { whole, part };
    let cwd = env.cwd.as_deref().map_or(Value::Null, path_str);
    let tool = || env.tool.as_ref().ok_or_else(|| lacks("envelope", "tool call"));
    let result = env.result.clone().unwrap_or_default();
    let duration = result.duration_ms.map_or(Value::Null, |d| json!(d));
    let arg = |key: &str| env.tool.as_ref().and_then(|t| t.args.get(key)).cloned();
    let result_text = || match (&result.output, &result.text) {
        (Some(o), _) => json_text(o),
        (None, Some(t)) => t.clone(),
        (None, None) => String::new(),
    };
    match name {
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            let t = tool()?;
            p.insert("tool_name".into(), Value::String(tool_type(t)));
            p.insert("tool_input".into(), t.args.clone());
            p.insert("tool_use_id".into(), opt_str(t.call_id.as_deref()));
            p.insert("cwd".into(), cwd);
            if name == "postToolUse" {
                let out = match (&result.output, &result.text) {
                    (Some(o), _) => json_text(o),
                    (None, Some(t)) => json_text(&Value::String(t.clone())),
                    (None, None) => "null".to_owned(),
                };
                p.insert("tool_output".into(), Value::String(out));
                p.insert("duration".into(), duration);
            } else if name == "postToolUseFailure" {
                let kind = if result.approval_rejected { "permission_denied" } else { "error" };
                p.insert("error_message".into(), opt_str(result.error.as_deref()));
                p.insert("failure_type".into(), Value::String(kind.into()));
                p.insert("duration".into(), duration);
                p.insert("is_interrupt".into(), Value::Bool(result.interrupted));
            }
        }
        "beforeShellExecution" | "afterShellExecution" => {
            let t = tool()?;
            let command =
                shell_command(&t.args).ok_or_else(|| lacks("shell tool call", "command"))?;
            p.insert("command".into(), Value::String(command));
            let dir = arg("working_directory").or_else(|| arg("cwd")).unwrap_or(cwd);
            p.insert("cwd".into(), dir);
            if name == "afterShellExecution" {
                p.insert("output".into(), Value::String(result_text()));
                p.insert("duration".into(), duration);
            }
            p.insert(
                "sandbox".into(),
                Value::Bool(arg("sandbox").and_then(|v| v.as_bool()) == Some(true)),
            );
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let t = tool()?;
            p.insert("tool_name".into(), Value::String(crate::mcp_tool_name(t).to_owned()));
            p.insert("tool_input".into(), Value::String(json_text(&t.args)));
            if name == "afterMCPExecution" {
                p.insert("result_json".into(), Value::String(result_text()));
                p.insert("duration".into(), duration);
            }
        }
        "beforeReadFile" => {
            let t = tool()?;
            let path = file_path(&t.args).ok_or_else(|| lacks("read", "file path"))?;
            p.insert("file_path".into(), Value::String(path));
            if let Some(c) = arg("content") {
                p.insert("content".into(), c);
            }
        }
        "afterFileEdit" => {
            let t = tool()?;
            let path = file_path(&t.args).ok_or_else(|| lacks("edit", "file path"))?;
            p.insert("file_path".into(), Value::String(path));
            let edits = match (arg("edits"), arg("old_string"), arg("new_string")) {
                (Some(Value::Array(e)), _, _) => Value::Array(e),
                (_, old, new) if old.is_some() || new.is_some() => json!([{
                    "old_string": old.unwrap_or(Value::String(String::new())),
                    "new_string": new.unwrap_or(Value::String(String::new())),
                }]),
                _ => match arg("content") {
                    Some(c) => json!([{ "old_string": "", "new_string": c }]),
                    None => json!([]),
                },
            };
            p.insert("edits".into(), edits);
        }
        "beforeSubmitPrompt" => {
            let pr = env.prompt.as_ref().ok_or_else(|| lacks("envelope", "prompt"))?;
            p.insert("prompt".into(), Value::String(pr.text.clone()));
            p.insert("attachments".into(), Value::Array(pr.attachments.clone()));
        }
        "afterAgentResponse" | "afterAgentThought" => {
            let t = env.text.as_ref().ok_or_else(|| lacks("envelope", "agent text"))?;
            p.insert("text".into(), Value::String(t.text.clone()));
            if name == "afterAgentThought" {
                p.insert("duration_ms".into(), t.duration_ms.map_or(Value::Null, |d| json!(d)));
            }
        }
        "stop" => {
            let s = env.stop.clone().unwrap_or_default();
            p.insert(
                "status".into(),
                Value::String(s.status.unwrap_or_else(|| "completed".into())),
            );
            p.insert("loop_count".into(), json!(s.loop_count.unwrap_or(0)));
        }
        "subagentStart" | "subagentStop" => {
            let s = env.subagent.clone().unwrap_or_default();
            p.insert("subagent_type".into(), opt_str(s.agent_type.as_deref()));
            p.insert("task".into(), opt_str(s.task.as_deref()));
            if name == "subagentStart" {
                p.insert("subagent_id".into(), opt_str(s.id.as_deref()));
                p.insert("parent_conversation_id".into(), opt_str(env.session_id.as_deref()));
                p.insert("tool_call_id".into(), opt_str(s.parent_call_id.as_deref()));
            } else {
                p.insert(
                    "status".into(),
                    Value::String(s.status.unwrap_or_else(|| "completed".into())),
                );
                p.insert("description".into(), opt_str(s.name.as_deref()));
                p.insert("summary".into(), opt_str(s.summary.as_deref()));
                let loops = env.stop.as_ref().and_then(|st| st.loop_count).unwrap_or(0);
                p.insert("loop_count".into(), json!(loops));
            }
        }
        "sessionStart" | "sessionEnd" => {
            let s = env.session.clone().unwrap_or_default();
            p.insert("session_id".into(), opt_str(env.session_id.as_deref()));
            p.insert("is_background_agent".into(), Value::Bool(s.is_background == Some(true)));
            if name == "sessionEnd" {
                p.insert("reason".into(), opt_str(s.reason.as_deref()));
                p.insert("duration_ms".into(), s.duration_ms.map_or(Value::Null, |d| json!(d)));
            }
        }
        "preCompact" => {
            let c = env.compaction.clone().unwrap_or_default();
            p.insert("trigger".into(), opt_str(c.trigger.as_deref()));
            p.insert("context_usage_percent".into(), c.usage_pct.map_or(Value::Null, |u| json!(u)));
            p.insert("context_tokens".into(), c.tokens_before.map_or(Value::Null, |t| json!(t)));
        }
        _ => {}
    }
    Ok(())
}

/// The file path of a read or write: `file_path`, `path`, `target_file` or `file`.
fn file_path(args: &Value) -> Option<String> {
    ["file_path", "path", "target_file", "file"]
        .iter()
        .find_map(|k| args.get(k).and_then(Value::as_str).map(str::to_owned))
}

#[cfg(test)]
mod tests;
