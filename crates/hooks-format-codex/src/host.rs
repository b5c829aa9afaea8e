//! Codex as a host: the engine runs as Codex's own hook command (`hooks bridge --host codex`),
//! decoding the hook input Codex sends into the canonical envelope and encoding the folded
//! verdict of every hook that ran as the answer Codex reads.
//!
//! The answer is always exit code 0 with either nothing on stdout or exactly one JSON object
//! of the keys Codex's output schema allows for the event (any other key makes Codex ignore
//! the answer). What Codex cannot express is mapped to the closest stricter answer:
//! an `ask` becomes a deny (Codex fails open on `ask`), a request to stop the agent on a tool
//! event becomes a deny of the tool. `specs/formats/codex.md` ("Codex as a host") has the table.

use std::path::PathBuf;

use hooks_schema::{
    Decision, Envelope, FoldedVerdict, HostAnswer, HostCodec, HostError, HostInput, Prompt,
    SessionInfo, ToolKind, claude_shaped, joined_texts as joined, json_answer,
    object_naming_its_event, reason_with_provenance, take_str,
};
use serde_json::{Map, Value, json};

use crate::{
    CodexEvent,
    matcher::{APPLY_PATCH, SHELL_TOOL},
};

/// Codex's host codec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodexHost;

/// The canonical kind of a tool as Codex names it in hook input.
pub fn tool_kind(name: &str) -> ToolKind {
    match name {
        SHELL_TOOL | "exec_command" | "shell" | "shell_command" | "local_shell" => ToolKind::Shell,
        APPLY_PATCH => ToolKind::FileWrite,
        "view_image" | "read_file" => ToolKind::FileRead,
        "web_search" | "web_fetch" => ToolKind::Web,
        "grep_files" | "list_dir" => ToolKind::Search,
        "spawn_agent" => ToolKind::Subagent,
        n if n.starts_with("mcp__") => ToolKind::Mcp,
        _ => ToolKind::Other,
    }
}

/// The files an `apply_patch` input touches: [`hooks_schema::patch_paths`], which every
/// host's file-writing tools are read with too.
pub use hooks_schema::patch_paths;

/// Decodes Codex's hook input (the stdin document of any event) into an envelope.
///
/// # Errors
/// Input that is not a JSON object of Codex's field types, an event named neither in the
/// input nor on the command line, two different event names, or an event with no canonical
/// counterpart.
pub fn decode_input(stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
    let (mut m, name) = object_naming_its_event(stdin, event_arg)?;
    let native =
        CodexEvent::from_name(&name).ok_or_else(|| HostError::UnknownEvent(name.clone()))?;
    let event = native.canonical().ok_or_else(|| HostError::UnknownEvent(name.clone()))?;
    let mut e = Envelope::new(event);
    e.session_id = take_str(&mut m, "session_id")?;
    e.turn_id = take_str(&mut m, "turn_id")?;
    e.cwd = take_str(&mut m, "cwd")?.map(PathBuf::from);
    e.model = take_str(&mut m, "model")?;
    e.transcript_path = take_str(&mut m, "transcript_path")?.map(PathBuf::from);
    e.permission_mode = take_str(&mut m, "permission_mode")?;
    match native {
        CodexEvent::PreToolUse | CodexEvent::PermissionRequest | CodexEvent::PostToolUse => {
            e.tool = Some(claude_shaped::tool_call(&mut m, tool_kind)?);
            if native == CodexEvent::PostToolUse {
                e.result = Some(claude_shaped::tool_response(&mut m, None));
            }
        }
        CodexEvent::UserPromptSubmit => {
            let text = take_str(&mut m, "prompt")?.unwrap_or_default();
            e.prompt = Some(Prompt { text, ..Prompt::default() });
        }
        CodexEvent::SessionStart => {
            e.session =
                Some(SessionInfo { source: take_str(&mut m, "source")?, ..SessionInfo::default() });
        }
        CodexEvent::SessionEnd => {
            e.session =
                Some(SessionInfo { reason: take_str(&mut m, "reason")?, ..SessionInfo::default() });
        }
        CodexEvent::Stop => e.stop = Some(claude_shaped::stop(&mut m)?),
        CodexEvent::SubagentStart | CodexEvent::SubagentStop => {
            let (subagent, stop) =
                claude_shaped::subagent(&mut m, native == CodexEvent::SubagentStop)?;
            e.subagent = Some(subagent);
            if stop.is_some() {
                e.stop = stop;
            }
        }
        CodexEvent::PreCompact | CodexEvent::PostCompact => {
            e.compaction = Some(claude_shaped::compaction(&mut m)?);
        }
        CodexEvent::Interrupt | CodexEvent::PreModelRequest | CodexEvent::PostModelRequest => {}
    }
    e.extra = m;
    Ok(HostInput { session_id: e.session_id.clone(), envelope: e, native_event: name })
}

/// Encodes the folded verdict as Codex's answer for `native`.
pub fn encode_answer(native: CodexEvent, verdict: &FoldedVerdict) -> HostAnswer {
    let ev = native.as_str();
    let mut out = Map::new();
    let mut specific = Map::new();
    let context = joined(&verdict.context);
    if let Some(m) = joined(&verdict.user_messages) {
        out.insert("systemMessage".into(), Value::String(m));
    }
    let deny_reason = || {
        let mut r = reason_with_provenance(verdict.reason.as_deref(), verdict.decided_by.as_ref());
        if verdict.decision == Some(Decision::Ask) {
            r = format!("{r} [asks for approval, which Codex cannot express: denied]");
        }
        r
    };
    let refused = matches!(verdict.decision, Some(Decision::Deny | Decision::Ask));
    match native {
        CodexEvent::PreToolUse => {
            if refused || verdict.halt.is_some() {
                let reason = if refused {
                    deny_reason()
                } else {
                    let (p, h) = verdict.halt.as_ref().map(|(p, h)| (p, h.as_str())).unzip();
                    format!(
                        "{} [a hook asked to stop the agent, which Codex cannot express on a tool call: denied]",
                        reason_with_provenance(h, p)
                    )
                };
                specific.insert("permissionDecision".into(), json!("deny"));
                specific.insert("permissionDecisionReason".into(), Value::String(reason));
            } else if let Some(args) = &verdict.updated_args {
                specific.insert("permissionDecision".into(), json!("allow"));
                specific.insert("updatedInput".into(), args.clone());
            }
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        CodexEvent::PermissionRequest => match verdict.decision {
            Some(Decision::Deny | Decision::Ask) => {
                specific.insert(
                    "decision".into(),
                    json!({"behavior": "deny", "message": deny_reason()}),
                );
            }
            Some(Decision::Allow) => {
                specific.insert("decision".into(), json!({"behavior": "allow"}));
            }
            None => {}
        },
        CodexEvent::UserPromptSubmit => {
            if refused {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(deny_reason()));
            }
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        CodexEvent::PostToolUse => {
            let replaced = match &verdict.updated_output {
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            };
            if let Some(r) = replaced.or_else(|| refused.then(deny_reason)) {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(r));
            }
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        CodexEvent::Stop | CodexEvent::SubagentStop => {
            if let Some(f) = joined(&verdict.followups).or(context) {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), Value::String(f));
            }
        }
        CodexEvent::SessionStart | CodexEvent::SubagentStart => {
            if let Some(c) = context {
                specific.insert("additionalContext".into(), Value::String(c));
            }
        }
        _ => {}
    }
    let halts = !matches!(
        native,
        CodexEvent::PreToolUse
            | CodexEvent::PermissionRequest
            | CodexEvent::PreModelRequest
            | CodexEvent::PostModelRequest
    );
    if halts && let Some((_, h)) = &verdict.halt {
        out.insert("continue".into(), json!(false));
        out.insert("stopReason".into(), Value::String(h.clone()));
    }
    json_answer(ev, out, specific)
}

impl HostCodec for CodexHost {
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError> {
        decode_input(stdin, event_arg)
    }

    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer {
        match CodexEvent::from_name(&input.native_event)
            .or_else(|| CodexEvent::from_canonical(input.envelope.event))
        {
            Some(native) => encode_answer(native, verdict),
            None => HostAnswer::default(),
        }
    }
}

#[cfg(test)]
mod tests;
