//! Canonical lifecycle events: the closed set every format's native event names map onto.
//!
//! The mapping from each format's native names lives in the adapters and is written down
//! in `specs/events.md`. A native event with no canonical counterpart is a capability gap:
//! the adapter reports a warning and skips the definition, it never drops it silently.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::SchemaError;

/// A canonical lifecycle point at which hooks fire.
///
/// Invariant: the set is closed. Adding a variant is a breaking change that every adapter's
/// mapping table and `specs/events.md` must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookEvent {
    /// The application opened a workspace (before any session exists).
    WorkspaceOpen,
    /// A new session started and the agent is ready for input.
    SessionStart,
    /// A persisted session was restored (resumed).
    SessionRestored,
    /// The session is ending.
    SessionEnd,
    /// An admitted workflow run is about to execute.
    WorkflowRunStart,
    /// A workflow run finished.
    WorkflowRunEnd,
    /// The user submitted a prompt, before the agent sees it. Gated.
    PromptSubmit,
    /// A user-initiated turn is about to run.
    TurnStart,
    /// A user-initiated turn finished, was interrupted or failed.
    TurnEnd,
    /// A tool call is about to execute. Gated: hooks may deny, ask or rewrite arguments.
    PreToolUse,
    /// A tool call completed.
    PostToolUse,
    /// A tool call failed.
    ToolFailure,
    /// A tool waits for a human approval decision.
    ApprovalRequested,
    /// A human approval wait ended.
    ApprovalResolved,
    /// A subagent started.
    SubagentStart,
    /// A subagent stopped.
    SubagentStop,
    /// Context compaction is about to run.
    PreCompact,
    /// Context compaction finished.
    PostCompact,
    /// The agent is about to stop answering; hooks may ask it to continue.
    Stop,
    /// The turn ended because of an error.
    StopFailure,
    /// The user interrupted the agent mid-turn.
    Interrupt,
    /// The agent notifies the user (needs input, permission prompt, idle, …).
    Notification,
    /// The agent produced a response message.
    AgentResponse,
    /// The agent produced a thinking block.
    AgentThought,
}

/// How the host treats the hooks of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventClass {
    /// The host waits for the folded verdict before it proceeds; hooks may deny.
    Gated,
    /// The host may wait for hooks (for context or a follow-up), but hooks cannot deny.
    Advisory,
    /// The host does not need an answer.
    Observer,
}

impl HookEvent {
    /// Every canonical event, in declaration order.
    pub const ALL: [HookEvent; 24] = [
        HookEvent::WorkspaceOpen,
        HookEvent::SessionStart,
        HookEvent::SessionRestored,
        HookEvent::SessionEnd,
        HookEvent::WorkflowRunStart,
        HookEvent::WorkflowRunEnd,
        HookEvent::PromptSubmit,
        HookEvent::TurnStart,
        HookEvent::TurnEnd,
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::ToolFailure,
        HookEvent::ApprovalRequested,
        HookEvent::ApprovalResolved,
        HookEvent::SubagentStart,
        HookEvent::SubagentStop,
        HookEvent::PreCompact,
        HookEvent::PostCompact,
        HookEvent::Stop,
        HookEvent::StopFailure,
        HookEvent::Interrupt,
        HookEvent::Notification,
        HookEvent::AgentResponse,
        HookEvent::AgentThought,
    ];

    /// The snake_case name used on the wire and in diagnostics.
    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::WorkspaceOpen => "workspace_open",
            HookEvent::SessionStart => "session_start",
            HookEvent::SessionRestored => "session_restored",
            HookEvent::SessionEnd => "session_end",
            HookEvent::WorkflowRunStart => "workflow_run_start",
            HookEvent::WorkflowRunEnd => "workflow_run_end",
            HookEvent::PromptSubmit => "prompt_submit",
            HookEvent::TurnStart => "turn_start",
            HookEvent::TurnEnd => "turn_end",
            HookEvent::PreToolUse => "pre_tool_use",
            HookEvent::PostToolUse => "post_tool_use",
            HookEvent::ToolFailure => "tool_failure",
            HookEvent::ApprovalRequested => "approval_requested",
            HookEvent::ApprovalResolved => "approval_resolved",
            HookEvent::SubagentStart => "subagent_start",
            HookEvent::SubagentStop => "subagent_stop",
            HookEvent::PreCompact => "pre_compact",
            HookEvent::PostCompact => "post_compact",
            HookEvent::Stop => "stop",
            HookEvent::StopFailure => "stop_failure",
            HookEvent::Interrupt => "interrupt",
            HookEvent::Notification => "notification",
            HookEvent::AgentResponse => "agent_response",
            HookEvent::AgentThought => "agent_thought",
        }
    }

    /// How the host treats this event's hooks. Formats may honour less than this (Chrys only
    /// gates `before_tool_call` and `user_prompt_submit`); the codec decides what a native
    /// output means, the class decides what the host waits for.
    pub fn class(self) -> EventClass {
        match self {
            HookEvent::PreToolUse
            | HookEvent::PromptSubmit
            | HookEvent::ApprovalRequested
            | HookEvent::SubagentStart
            | HookEvent::PreCompact => EventClass::Gated,
            HookEvent::SessionStart
            | HookEvent::SessionRestored
            | HookEvent::PostToolUse
            | HookEvent::ToolFailure
            | HookEvent::Stop
            | HookEvent::SubagentStop
            | HookEvent::WorkspaceOpen => EventClass::Advisory,
            HookEvent::SessionEnd
            | HookEvent::WorkflowRunStart
            | HookEvent::WorkflowRunEnd
            | HookEvent::TurnStart
            | HookEvent::TurnEnd
            | HookEvent::ApprovalResolved
            | HookEvent::PostCompact
            | HookEvent::StopFailure
            | HookEvent::Interrupt
            | HookEvent::Notification
            | HookEvent::AgentResponse
            | HookEvent::AgentThought => EventClass::Observer,
        }
    }

    /// Whether hooks of this event may deny what the host is about to do.
    pub fn is_gated(self) -> bool {
        self.class() == EventClass::Gated
    }

    /// Whether this event carries a tool call in its envelope.
    pub fn carries_tool(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::ToolFailure
                | HookEvent::ApprovalRequested
                | HookEvent::ApprovalResolved
        )
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for HookEvent {
    type Err = SchemaError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookEvent::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| SchemaError::UnknownEvent { name: s.to_owned() })
    }
}

#[cfg(test)]
mod tests;
