//! Codex's native event names, their trust-key labels, defaults and canonical events.
//!
//! The table follows `specs/events.md` (column "Codex"): twelve of the fourteen events Codex
//! 0.169.0 accepts in a hook file map onto canonical events; `PreModelRequest` and
//! `PostModelRequest` are capability gaps. Anything else under `hooks` is ignored, as Codex
//! ignores it.

use std::time::Duration;

use hooks_schema::HookEvent;

/// An event Codex accepts in `hooks.json` and `[hooks]`, in Codex's own listing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CodexEvent {
    /// `PreModelRequest`: before each model call (observe only).
    PreModelRequest,
    /// `PostModelRequest`: after each model call (observe only).
    PostModelRequest,
    /// `PreToolUse`.
    PreToolUse,
    /// `PermissionRequest`.
    PermissionRequest,
    /// `PostToolUse`.
    PostToolUse,
    /// `PreCompact`.
    PreCompact,
    /// `PostCompact`.
    PostCompact,
    /// `SessionStart`.
    SessionStart,
    /// `SessionEnd`.
    SessionEnd,
    /// `UserPromptSubmit`.
    UserPromptSubmit,
    /// `SubagentStart`.
    SubagentStart,
    /// `SubagentStop`.
    SubagentStop,
    /// `Stop`.
    Stop,
    /// `Interrupt`: the user interrupted an active turn.
    Interrupt,
}

/// What a matcher is tested against on an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MatchField {
    /// The tool name and its aliases.
    ToolName,
    /// `session.source` (`startup`, `resume`, `clear`).
    SessionSource,
    /// `session.reason`.
    SessionReason,
    /// `compaction.trigger` (`manual`, `auto`).
    CompactionTrigger,
    /// `subagent.agent_type`.
    AgentType,
    /// Codex drops the matcher on this event.
    None,
}

impl CodexEvent {
    /// Every event, in Codex's listing order.
    pub const ALL: [CodexEvent; 14] = [
        CodexEvent::PreModelRequest,
        CodexEvent::PostModelRequest,
        CodexEvent::PreToolUse,
        CodexEvent::PermissionRequest,
        CodexEvent::PostToolUse,
        CodexEvent::PreCompact,
        CodexEvent::PostCompact,
        CodexEvent::SessionStart,
        CodexEvent::SessionEnd,
        CodexEvent::UserPromptSubmit,
        CodexEvent::SubagentStart,
        CodexEvent::SubagentStop,
        CodexEvent::Stop,
        CodexEvent::Interrupt,
    ];

    /// The name as files and payloads spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            CodexEvent::PreModelRequest => "PreModelRequest",
            CodexEvent::PostModelRequest => "PostModelRequest",
            CodexEvent::PreToolUse => "PreToolUse",
            CodexEvent::PermissionRequest => "PermissionRequest",
            CodexEvent::PostToolUse => "PostToolUse",
            CodexEvent::PreCompact => "PreCompact",
            CodexEvent::PostCompact => "PostCompact",
            CodexEvent::SessionStart => "SessionStart",
            CodexEvent::SessionEnd => "SessionEnd",
            CodexEvent::UserPromptSubmit => "UserPromptSubmit",
            CodexEvent::SubagentStart => "SubagentStart",
            CodexEvent::SubagentStop => "SubagentStop",
            CodexEvent::Stop => "Stop",
            CodexEvent::Interrupt => "Interrupt",
        }
    }

    /// The snake_case label Codex uses in trust keys and hashes (`pre_tool_use`).
    pub const fn label(self) -> &'static str {
        match self {
            CodexEvent::PreModelRequest => "pre_model_request",
            CodexEvent::PostModelRequest => "post_model_request",
            CodexEvent::PreToolUse => "pre_tool_use",
            CodexEvent::PermissionRequest => "permission_request",
            CodexEvent::PostToolUse => "post_tool_use",
            CodexEvent::PreCompact => "pre_compact",
            CodexEvent::PostCompact => "post_compact",
            CodexEvent::SessionStart => "session_start",
            CodexEvent::SessionEnd => "session_end",
            CodexEvent::UserPromptSubmit => "user_prompt_submit",
            CodexEvent::SubagentStart => "subagent_start",
            CodexEvent::SubagentStop => "subagent_stop",
            CodexEvent::Stop => "stop",
            CodexEvent::Interrupt => "interrupt",
        }
    }

    /// The event named `name`, if Codex accepts it.
    pub fn from_name(name: &str) -> Option<CodexEvent> {
        CodexEvent::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The canonical event; `None` for a capability gap.
    pub const fn canonical(self) -> Option<HookEvent> {
        Some(match self {
            CodexEvent::PreModelRequest | CodexEvent::PostModelRequest => return None,
            CodexEvent::PreToolUse => HookEvent::PreToolUse,
            CodexEvent::PermissionRequest => HookEvent::ApprovalRequested,
            CodexEvent::PostToolUse => HookEvent::PostToolUse,
            CodexEvent::PreCompact => HookEvent::PreCompact,
            CodexEvent::PostCompact => HookEvent::PostCompact,
            CodexEvent::SessionStart => HookEvent::SessionStart,
            CodexEvent::SessionEnd => HookEvent::SessionEnd,
            CodexEvent::UserPromptSubmit => HookEvent::PromptSubmit,
            CodexEvent::SubagentStart => HookEvent::SubagentStart,
            CodexEvent::SubagentStop => HookEvent::SubagentStop,
            CodexEvent::Stop => HookEvent::Stop,
            CodexEvent::Interrupt => HookEvent::Interrupt,
        })
    }

    /// The Codex event a canonical event maps back to, when one does.
    pub fn from_canonical(event: HookEvent) -> Option<CodexEvent> {
        CodexEvent::ALL.into_iter().find(|e| e.canonical() == Some(event))
    }

    /// Whether Codex bounds the event's timeout to 1–3 s with a default of 1 s (the session
    /// is ending or the turn was interrupted, so nobody waits long).
    pub const fn short_timeout(self) -> bool {
        matches!(self, CodexEvent::SessionEnd | CodexEvent::Interrupt)
    }

    /// The effective timeout in seconds for a handler's `timeout` as written: 600 by default
    /// and at least 1; 1 by default and 1 to 3 on [`CodexEvent::short_timeout`] events. The
    /// second value is whether a larger value was clamped (Codex warns).
    pub fn timeout_secs(self, written: Option<u64>) -> (u64, bool) {
        if self.short_timeout() {
            let t = written.unwrap_or(1).max(1);
            (t.min(3), t > 3)
        } else {
            (written.unwrap_or(600).max(1), false)
        }
    }

    /// [`CodexEvent::timeout_secs`] as a duration.
    pub fn timeout(self, written: Option<u64>) -> Duration {
        Duration::from_secs(self.timeout_secs(written).0)
    }

    /// What a matcher is tested against.
    pub(crate) const fn match_field(self) -> MatchField {
        match self {
            CodexEvent::PreToolUse | CodexEvent::PermissionRequest | CodexEvent::PostToolUse => {
                MatchField::ToolName
            }
            CodexEvent::SessionStart => MatchField::SessionSource,
            CodexEvent::SessionEnd => MatchField::SessionReason,
            CodexEvent::PreCompact | CodexEvent::PostCompact => MatchField::CompactionTrigger,
            CodexEvent::SubagentStart | CodexEvent::SubagentStop => MatchField::AgentType,
            CodexEvent::PreModelRequest
            | CodexEvent::PostModelRequest
            | CodexEvent::UserPromptSubmit
            | CodexEvent::Stop
            | CodexEvent::Interrupt => MatchField::None,
        }
    }

    /// Whether Codex keeps a group's matcher on this event (it drops it, unchecked, on the
    /// others: an invalid regex there is not even reported).
    pub const fn keeps_matcher(self) -> bool {
        !matches!(self.match_field(), MatchField::None)
    }

    /// Whether plain (non-JSON) stdout of a successful run becomes context for the model.
    pub(crate) const fn plain_stdout_is_context(self) -> bool {
        matches!(self, CodexEvent::SessionStart | CodexEvent::UserPromptSubmit)
    }
}

#[cfg(test)]
mod tests;
