//! Gemini CLI as the host: the engine runs as Gemini CLI's own hook command
//! (`hooks bridge --host gemini`), decoding Gemini CLI's hook input into the canonical
//! envelope and answering with Gemini CLI's output protocol.
//!
//! Decoding keeps every field the envelope has no place for in [`Envelope::extra`], so a
//! Gemini CLI hook run by the bridge receives what Gemini CLI sent. Encoding answers with
//! exit code 0 and one JSON object on stdout, the one form Gemini CLI reads the same on
//! every event (`specs/formats/gemini.md`, "Host").

use hooks_schema::{
    Compaction, Decision, Envelope, FoldedVerdict, HookEvent, HostAnswer, HostCodec, HostError,
    HostInput, Notification, Prompt, Provenance, SessionInfo, StopInfo, ToolCall, ToolKind,
    ToolResult,
};
use serde_json::{Map, Value};

use crate::events::GeminiEvent;

/// Gemini CLI's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeminiHost;

/// The canonical kind of a Gemini CLI tool.
pub fn tool_kind(name: &str) -> ToolKind {
    match name {
        "run_shell_command" => ToolKind::Shell,
        "write_file" | "replace" => ToolKind::FileWrite,
        "read_file" | "read_many_files" | "list_directory" => ToolKind::FileRead,
        "glob" | "grep_search" | "search_file_content" => ToolKind::Search,
        "web_fetch" | "google_web_search" => ToolKind::Web,
        "invoke_agent" => ToolKind::Subagent,
        n if n.starts_with("mcp_") => ToolKind::Mcp,
        _ => ToolKind::Other,
    }
}

/// The fields of the common input (`createBaseInput`) and of each event, which the envelope
/// holds itself; every other field goes to `extra`.
const TAKEN: [&str; 5] = ["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"];

fn string(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, HostError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(HostError::Malformed(format!("`{key}` is not a string"))),
    }
}

impl HostCodec for GeminiHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        let obj = hooks_schema::json_object(stdin)?;
        let named = string(&obj, "hook_event_name")?;
        let native = match (named.as_deref(), event_arg) {
            (Some(a), Some(b)) if a != b => {
                return Err(HostError::Malformed(format!(
                    "the input is for `{a}` but the command line names `{b}`"
                )));
            }
            (Some(a), _) | (None, Some(a)) => a.to_owned(),
            (None, None) => return Err(HostError::Malformed("no `hook_event_name`".to_owned())),
        };
        let event = GeminiEvent::from_name(&native)
            .ok_or_else(|| HostError::UnknownEvent(native.clone()))?;
        let canonical = event.canonical().ok_or_else(|| HostError::UnknownEvent(native.clone()))?;
        let mut env = Envelope::new(canonical);
        let session_id = string(&obj, "session_id")?.filter(|s| !s.is_empty());
        env.session_id.clone_from(&session_id);
        env.transcript_path =
            string(&obj, "transcript_path")?.filter(|s| !s.is_empty()).map(Into::into);
        env.cwd = string(&obj, "cwd")?.filter(|s| !s.is_empty()).map(Into::into);
        env.timestamp = string(&obj, "timestamp")?;
        let mut taken: Vec<&str> = TAKEN.to_vec();
        match event {
            GeminiEvent::BeforeTool | GeminiEvent::AfterTool => {
                let name = string(&obj, "tool_name")?
                    .ok_or_else(|| HostError::Malformed("no `tool_name`".to_owned()))?;
                let args = obj.get("tool_input").cloned().unwrap_or(Value::Object(Map::new()));
                let mut tool = ToolCall {
                    kind: tool_kind(&name),
                    name,
                    native_kind: None,
                    call_id: None,
                    mcp_server: None,
                    args,
                };
                if let Some(Value::Object(mcp)) = obj.get("mcp_context") {
                    if let Some(server) = mcp.get("server_name").and_then(Value::as_str) {
                        tool.mcp_server = Some(server.to_owned());
                        tool.kind = ToolKind::Mcp;
                    }
                    if let Some(t) = mcp.get("tool_name").and_then(Value::as_str) {
                        tool.name = t.to_owned();
                    }
                }
                taken.extend(["tool_name", "tool_input"]);
                if event == GeminiEvent::AfterTool {
                    let response = obj.get("tool_response").cloned().unwrap_or(Value::Null);
                    let text =
                        response.get("llmContent").and_then(Value::as_str).map(str::to_owned);
                    let error = response.get("error").filter(|e| !e.is_null()).map(|e| {
                        e.get("message")
                            .and_then(Value::as_str)
                            .map_or_else(|| e.to_string(), str::to_owned)
                    });
                    // A failed tool (observed: `tool_response.error`) is a tool failure, as
                    // the agents that have a failure event report it; Gemini CLI's own
                    // `AfterTool` hooks run on it too (`FormatDescriptor::event_rule`).
                    if error.is_some() {
                        env.event = HookEvent::ToolFailure;
                    }
                    // A shell command's status, in the text Gemini CLI gives the model
                    // (`Exit Code: 3`, observed with 0.61.0): a command that exited non-zero
                    // is no failure for Gemini CLI, but is for Claude Code.
                    let display = response.get("returnDisplay").and_then(Value::as_str);
                    let exit_code = text
                        .as_deref()
                        .filter(|_| error.is_none())
                        .and_then(|t| shell_exit(t, display));
                    env.result = Some(ToolResult {
                        text,
                        failed: error.is_some(),
                        error,
                        exit_code,
                        output: Some(response),
                        ..ToolResult::default()
                    });
                    taken.push("tool_response");
                }
                env.tool = Some(tool);
            }
            GeminiEvent::BeforeAgent => {
                env.prompt = Some(Prompt {
                    text: string(&obj, "prompt")?.unwrap_or_default(),
                    ..Prompt::default()
                });
                taken.push("prompt");
            }
            GeminiEvent::AfterAgent => {
                env.prompt =
                    string(&obj, "prompt")?.map(|text| Prompt { text, ..Prompt::default() });
                env.stop = Some(StopInfo {
                    last_message: string(&obj, "prompt_response")?,
                    stop_hook_active: obj.get("stop_hook_active") == Some(&Value::Bool(true)),
                    ..StopInfo::default()
                });
                taken.extend(["prompt", "prompt_response", "stop_hook_active"]);
            }
            GeminiEvent::SessionStart => {
                env.session =
                    Some(SessionInfo { source: string(&obj, "source")?, ..SessionInfo::default() });
                taken.push("source");
            }
            GeminiEvent::SessionEnd => {
                env.session =
                    Some(SessionInfo { reason: string(&obj, "reason")?, ..SessionInfo::default() });
                taken.push("reason");
            }
            GeminiEvent::PreCompress => {
                env.compaction =
                    Some(Compaction { trigger: string(&obj, "trigger")?, ..Compaction::default() });
                taken.push("trigger");
            }
            GeminiEvent::Notification => {
                let title = obj
                    .get("details")
                    .and_then(|d| d.get("title"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                env.notification = Some(Notification {
                    kind: string(&obj, "notification_type")?,
                    message: string(&obj, "message")?,
                    title,
                });
                taken.extend(["notification_type", "message"]);
            }
            GeminiEvent::BeforeModel
            | GeminiEvent::AfterModel
            | GeminiEvent::BeforeToolSelection => {
                return Err(HostError::UnknownEvent(native));
            }
        }
        for (k, v) in obj {
            if !taken.contains(&k.as_str()) {
                env.extra.insert(k, v);
            }
        }
        Ok(HostInput { envelope: env, native_event: native, session_id })
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        let Some(event) = GeminiEvent::from_name(&input.native_event) else {
            return HostAnswer::default();
        };
        let out = answer(event, verdict);
        HostAnswer::json_object(out)
    }
}

/// The hook, file and line that decided, appended to a reason the agent shows.
pub fn with_provenance(reason: &str, by: Option<&Provenance>) -> String {
    match by {
        None => reason.to_owned(),
        Some(p) => {
            let line = p.line.map_or_else(String::new, |l| format!(":{l}"));
            format!("{reason} [hook {} in {}{line}]", p.hook_id, p.source.path)
        }
    }
}

/// Gemini CLI's answer for a folded verdict on `event`.
fn answer(event: GeminiEvent, verdict: &FoldedVerdict) -> Map<String, Value> {
    let mut out = Map::new();
    let join = |items: &[(Provenance, String)]| -> Option<String> {
        (!items.is_empty())
            .then(|| items.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>().join("\n"))
    };
    let reason = verdict.reason.as_deref().map_or_else(
        || "blocked by a hook".to_owned(),
        |r| with_provenance(r, verdict.decided_by.as_ref()),
    );
    if let Some((by, why)) = &verdict.halt
        && matches!(
            event,
            GeminiEvent::BeforeTool
                | GeminiEvent::AfterTool
                | GeminiEvent::BeforeAgent
                | GeminiEvent::AfterAgent
        )
    {
        out.insert("continue".into(), Value::Bool(false));
        out.insert("stopReason".into(), Value::String(with_provenance(why, Some(by))));
    }
    let mut specific = Map::new();
    match event {
        GeminiEvent::BeforeTool => match verdict.decision {
            Some(Decision::Deny) => {
                out.insert("decision".into(), "deny".into());
                out.insert("reason".into(), Value::String(reason));
            }
            Some(Decision::Ask) => {
                out.insert("decision".into(), "ask".into());
                out.insert("reason".into(), Value::String(reason));
            }
            _ => {
                if let Some(Value::Object(args)) = &verdict.updated_args {
                    specific.insert("tool_input".into(), Value::Object(args.clone()));
                }
            }
        },
        GeminiEvent::BeforeAgent => {
            if verdict.decision == Some(Decision::Deny) {
                out.insert("decision".into(), "deny".into());
                out.insert("reason".into(), Value::String(reason));
            }
            if let Some(c) = join(&verdict.context) {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        GeminiEvent::AfterTool => {
            if let Some(o) = &verdict.updated_output {
                // Gemini CLI cannot replace a result; a block makes the model see the text.
                let text = o.as_str().map_or_else(|| o.to_string(), str::to_owned);
                let text = text
                    .strip_prefix(crate::codec::RESULT_BLOCKED)
                    .map_or(text.clone(), str::to_owned);
                out.insert("decision".into(), "deny".into());
                out.insert("reason".into(), Value::String(text));
            }
            if let Some(c) = join(&verdict.context) {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        GeminiEvent::AfterAgent => {
            if let Some(f) = join(&verdict.followups) {
                out.insert("decision".into(), "deny".into());
                out.insert("reason".into(), Value::String(f));
            }
        }
        GeminiEvent::SessionStart => {
            if let Some(c) = join(&verdict.context) {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        _ => {}
    }
    if let Some(m) = join(&verdict.user_messages) {
        out.insert("systemMessage".into(), Value::String(m));
    }
    if !specific.is_empty() {
        out.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    out
}

/// The exit status in the text Gemini CLI gives the model for a `run_shell_command`
/// (`llmContent`), with the text it displays (`returnDisplay`).
///
/// Gemini CLI 0.61.0 writes `Output: <the output, or (empty)>`, then only the lines that
/// apply of `Error: …`, `Exit Code: N` (never for 0), `Signal: …`, `Background PIDs: …` and
/// `Process Group PGID: …` (observed: `Output: out\nerr\nExit Code: 3\nProcess Group PGID:
/// 2649`, inside `<untrusted_context>` lines). The output is the command's own and may end
/// with an `Exit Code: 3` line of its own (a file it printed), which must not turn a command
/// that exited 0 into a failed one: so the status is read after the output, which
/// `returnDisplay` gives (the output itself when it is not blank and no colours or debug mode
/// change it) or which is `(empty)`. Where neither marks the output's end, the last `Exit
/// Code:` line is taken. A text that is not an `Output:` report (a cancelled or backgrounded
/// command) has no status.
fn shell_exit(llm_content: &str, return_display: Option<&str>) -> Option<i32> {
    let body = llm_content.strip_prefix("<untrusted_context>\n").unwrap_or(llm_content);
    let report = body.strip_prefix("Output: ")?;
    let ends = |output: &str| {
        report.strip_prefix(output).filter(|rest| rest.is_empty() || rest.starts_with('\n'))
    };
    let after = return_display
        .filter(|d| !d.trim().is_empty())
        .and_then(ends)
        .or_else(|| ends("(empty)"))
        .unwrap_or(report);
    after.lines().rev().find_map(|l| l.strip_prefix("Exit Code: ")?.trim().parse().ok())
}

#[cfg(test)]
mod tests;
