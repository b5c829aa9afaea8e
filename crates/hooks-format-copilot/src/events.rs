//! GitHub Copilot CLI's hook events, in both spellings it accepts, and how each maps onto a
//! canonical event.
//!
//! Copilot CLI 1.0.102 reads an event under its camelCase name (`preToolUse`, its own
//! protocol: camelCase payload fields, epoch-millisecond timestamps) or under a Claude Code
//! style PascalCase name (`PreToolUse`, the "VS Code compatible" protocol: snake_case fields,
//! ISO timestamps, Claude tool names and matcher rules). The spelling in the file chooses the
//! [`Dialect`] of the payload the hook gets. `specs/events.md` (column "Copilot") lists the
//! mapping; `userPromptTransformed`, `errorOccurred` and `preMcpToolCall` are capability
//! gaps. Any other key of `hooks` is ignored, as Copilot ignores it.

use std::time::Duration;

use hooks_schema::HookEvent;

/// Copilot's default hook timeout (`timeoutSec`, 30 seconds), for every event.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Which protocol a hook speaks, chosen by the spelling of its event in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// camelCase event name: Copilot's own fields (`toolName`, `toolArgs`, numeric
    /// `timestamp`).
    Camel,
    /// PascalCase event name: snake_case fields (`tool_name`, `tool_input`,
    /// `hook_event_name`, ISO `timestamp`), Claude tool names.
    Pascal,
}

/// A Copilot CLI hook event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CopilotEvent {
    /// `sessionStart` / `SessionStart`.
    SessionStart,
    /// `sessionEnd` / `SessionEnd`.
    SessionEnd,
    /// `userPromptSubmitted` / `UserPromptSubmit`.
    UserPromptSubmitted,
    /// `userPromptTransformed` (gap: the prompt after Copilot's own expansion).
    UserPromptTransformed,
    /// `preToolUse` / `PreToolUse`: may allow, deny, ask or rewrite the arguments.
    PreToolUse,
    /// `postToolUse` / `PostToolUse`: may replace the result or add context.
    PostToolUse,
    /// `postToolUseFailure` / `PostToolUseFailure`.
    PostToolUseFailure,
    /// `permissionRequest` / `PermissionRequest`: may allow or deny the permission.
    PermissionRequest,
    /// `agentStop` / `Stop`: may block the stop with a reason (the next prompt).
    AgentStop,
    /// `subagentStart`.
    SubagentStart,
    /// `subagentStop` / `SubagentStop`.
    SubagentStop,
    /// `preCompact` / `PreCompact`.
    PreCompact,
    /// `errorOccurred` / `ErrorOccurred` (gap: the canonical model has no error event).
    ErrorOccurred,
    /// `notification` / `Notification`.
    Notification,
    /// `preMcpToolCall` (gap: MCP request metadata).
    PreMcpToolCall,
}

/// What an entry's `matcher` is tested against on an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchField {
    /// The tool name.
    ToolName,
    /// `trigger` (`preCompact`).
    Trigger,
    /// `agentName` (`subagentStart`).
    AgentName,
    /// `notification_type` (`notification`).
    NotificationType,
    /// Nothing: Copilot ignores the matcher (observed on `sessionStart`).
    None,
}

impl CopilotEvent {
    /// Every event, in the documentation's order.
    pub const ALL: [CopilotEvent; 15] = [
        CopilotEvent::SessionStart,
        CopilotEvent::SessionEnd,
        CopilotEvent::UserPromptSubmitted,
        CopilotEvent::UserPromptTransformed,
        CopilotEvent::PreToolUse,
        CopilotEvent::PostToolUse,
        CopilotEvent::PostToolUseFailure,
        CopilotEvent::PermissionRequest,
        CopilotEvent::AgentStop,
        CopilotEvent::SubagentStart,
        CopilotEvent::SubagentStop,
        CopilotEvent::PreCompact,
        CopilotEvent::ErrorOccurred,
        CopilotEvent::Notification,
        CopilotEvent::PreMcpToolCall,
    ];

    /// The camelCase name (Copilot's own).
    pub const fn camel(self) -> &'static str {
        match self {
            CopilotEvent::SessionStart => "sessionStart",
            CopilotEvent::SessionEnd => "sessionEnd",
            CopilotEvent::UserPromptSubmitted => "userPromptSubmitted",
            CopilotEvent::UserPromptTransformed => "userPromptTransformed",
            CopilotEvent::PreToolUse => "preToolUse",
            CopilotEvent::PostToolUse => "postToolUse",
            CopilotEvent::PostToolUseFailure => "postToolUseFailure",
            CopilotEvent::PermissionRequest => "permissionRequest",
            CopilotEvent::AgentStop => "agentStop",
            CopilotEvent::SubagentStart => "subagentStart",
            CopilotEvent::SubagentStop => "subagentStop",
            CopilotEvent::PreCompact => "preCompact",
            CopilotEvent::ErrorOccurred => "errorOccurred",
            CopilotEvent::Notification => "notification",
            CopilotEvent::PreMcpToolCall => "preMcpToolCall",
        }
    }

    /// The PascalCase name, for the events that have one.
    pub const fn pascal(self) -> Option<&'static str> {
        Some(match self {
            CopilotEvent::SessionStart => "SessionStart",
            CopilotEvent::SessionEnd => "SessionEnd",
            CopilotEvent::UserPromptSubmitted => "UserPromptSubmit",
            CopilotEvent::PreToolUse => "PreToolUse",
            CopilotEvent::PostToolUse => "PostToolUse",
            CopilotEvent::PostToolUseFailure => "PostToolUseFailure",
            CopilotEvent::PermissionRequest => "PermissionRequest",
            CopilotEvent::AgentStop => "Stop",
            CopilotEvent::SubagentStop => "SubagentStop",
            CopilotEvent::PreCompact => "PreCompact",
            CopilotEvent::ErrorOccurred => "ErrorOccurred",
            CopilotEvent::Notification => "Notification",
            CopilotEvent::UserPromptTransformed
            | CopilotEvent::SubagentStart
            | CopilotEvent::PreMcpToolCall => return None,
        })
    }

    /// The name in `dialect` (the camelCase one when the event has no PascalCase name).
    pub const fn name(self, dialect: Dialect) -> &'static str {
        match (dialect, self.pascal()) {
            (Dialect::Pascal, Some(p)) => p,
            _ => self.camel(),
        }
    }

    /// The event and dialect of a name as a file spells it.
    pub fn from_name(name: &str) -> Option<(CopilotEvent, Dialect)> {
        CopilotEvent::ALL.into_iter().find_map(|e| {
            if e.camel() == name {
                Some((e, Dialect::Camel))
            } else if e.pascal() == Some(name) {
                Some((e, Dialect::Pascal))
            } else {
                None
            }
        })
    }

    /// The canonical event; `None` for a capability gap.
    pub const fn canonical(self) -> Option<HookEvent> {
        Some(match self {
            CopilotEvent::SessionStart => HookEvent::SessionStart,
            CopilotEvent::SessionEnd => HookEvent::SessionEnd,
            CopilotEvent::UserPromptSubmitted => HookEvent::PromptSubmit,
            CopilotEvent::PreToolUse => HookEvent::PreToolUse,
            CopilotEvent::PostToolUse => HookEvent::PostToolUse,
            CopilotEvent::PostToolUseFailure => HookEvent::ToolFailure,
            CopilotEvent::PermissionRequest => HookEvent::ApprovalRequested,
            CopilotEvent::AgentStop => HookEvent::Stop,
            CopilotEvent::SubagentStart => HookEvent::SubagentStart,
            CopilotEvent::SubagentStop => HookEvent::SubagentStop,
            CopilotEvent::PreCompact => HookEvent::PreCompact,
            CopilotEvent::Notification => HookEvent::Notification,
            CopilotEvent::UserPromptTransformed
            | CopilotEvent::ErrorOccurred
            | CopilotEvent::PreMcpToolCall => return None,
        })
    }

    /// The Copilot event a canonical event maps back to, when one does.
    pub fn from_canonical(event: HookEvent) -> Option<CopilotEvent> {
        CopilotEvent::ALL.into_iter().find(|e| e.canonical() == Some(event))
    }

    /// What a camelCase entry's matcher is tested against (the documentation's list; a
    /// matcher on any other event is ignored, as observed on `sessionStart`).
    pub const fn match_field(self) -> MatchField {
        match self {
            CopilotEvent::PreToolUse
            | CopilotEvent::PostToolUse
            | CopilotEvent::PermissionRequest => MatchField::ToolName,
            CopilotEvent::PreCompact => MatchField::Trigger,
            CopilotEvent::SubagentStart => MatchField::AgentName,
            CopilotEvent::Notification => MatchField::NotificationType,
            _ => MatchField::None,
        }
    }

    /// The dialect of the payload a hook of this event and spelling receives: Copilot sends
    /// `permissionRequest`'s camelCase payload even to a `PermissionRequest` hook (observed).
    pub const fn payload_dialect(self, dialect: Dialect) -> Dialect {
        match self {
            CopilotEvent::PermissionRequest => Dialect::Camel,
            _ => dialect,
        }
    }
}

#[cfg(test)]
mod tests;
