//! Claude Code's native event names and how each maps onto a canonical event.
//!
//! The table follows `specs/events.md` exactly: fourteen native events map, twenty are
//! capability gaps (warning, skipped), anything else is an unknown event.

use std::time::Duration;

use hooks_schema::HookEvent;

/// A Claude Code event that has a canonical counterpart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NativeEvent {
    /// `PreToolUse`.
    PreToolUse,
    /// `PostToolUse`.
    PostToolUse,
    /// `PostToolUseFailure`.
    PostToolUseFailure,
    /// `PermissionRequest`.
    PermissionRequest,
    /// `UserPromptSubmit`.
    UserPromptSubmit,
    /// `Notification`.
    Notification,
    /// `SessionStart`.
    SessionStart,
    /// `SessionEnd`.
    SessionEnd,
    /// `Stop`.
    Stop,
    /// `StopFailure`.
    StopFailure,
    /// `SubagentStart`.
    SubagentStart,
    /// `SubagentStop`.
    SubagentStop,
    /// `PreCompact`.
    PreCompact,
    /// `PostCompact`.
    PostCompact,
}

/// Claude Code events with no canonical counterpart (`specs/events.md`, "Gaps").
pub const GAP_EVENTS: [&str; 20] = [
    "PostToolBatch",
    "UserPromptExpansion",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
    "PreModelSwitch",
    "PostModelSwitch",
];

/// Which envelope field a matcher tests for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MatchField {
    /// The Claude tool name derived from the envelope's tool call.
    ToolName,
    /// `session.source`.
    SessionSource,
    /// `session.reason`.
    SessionReason,
    /// `notification.kind`.
    NotificationType,
    /// `subagent.agent_type`.
    AgentType,
    /// `compaction.trigger`.
    CompactionTrigger,
    /// `stop.status` (Claude's error type).
    StopStatus,
    /// The event has no matcher support; a matcher is ignored.
    None,
}

impl NativeEvent {
    /// Every mapped native event.
    pub const ALL: [NativeEvent; 14] = [
        NativeEvent::PreToolUse,
        NativeEvent::PostToolUse,
        NativeEvent::PostToolUseFailure,
        NativeEvent::PermissionRequest,
        NativeEvent::UserPromptSubmit,
        NativeEvent::Notification,
        NativeEvent::SessionStart,
        NativeEvent::SessionEnd,
        NativeEvent::Stop,
        NativeEvent::StopFailure,
        NativeEvent::SubagentStart,
        NativeEvent::SubagentStop,
        NativeEvent::PreCompact,
        NativeEvent::PostCompact,
    ];

    /// The native name.
    pub const fn as_str(self) -> &'static str {
        match self {
            NativeEvent::PreToolUse => "PreToolUse",
            NativeEvent::PostToolUse => "PostToolUse",
            NativeEvent::PostToolUseFailure => "PostToolUseFailure",
            NativeEvent::PermissionRequest => "PermissionRequest",
            NativeEvent::UserPromptSubmit => "UserPromptSubmit",
            NativeEvent::Notification => "Notification",
            NativeEvent::SessionStart => "SessionStart",
            NativeEvent::SessionEnd => "SessionEnd",
            NativeEvent::Stop => "Stop",
            NativeEvent::StopFailure => "StopFailure",
            NativeEvent::SubagentStart => "SubagentStart",
            NativeEvent::SubagentStop => "SubagentStop",
            NativeEvent::PreCompact => "PreCompact",
            NativeEvent::PostCompact => "PostCompact",
        }
    }

    /// The native event with this name.
    pub fn from_name(name: &str) -> Option<NativeEvent> {
        NativeEvent::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The canonical event.
    pub const fn canonical(self) -> HookEvent {
        match self {
            NativeEvent::PreToolUse => HookEvent::PreToolUse,
            NativeEvent::PostToolUse => HookEvent::PostToolUse,
            NativeEvent::PostToolUseFailure => HookEvent::ToolFailure,
            NativeEvent::PermissionRequest => HookEvent::ApprovalRequested,
            NativeEvent::UserPromptSubmit => HookEvent::PromptSubmit,
            NativeEvent::Notification => HookEvent::Notification,
            NativeEvent::SessionStart => HookEvent::SessionStart,
            NativeEvent::SessionEnd => HookEvent::SessionEnd,
            NativeEvent::Stop => HookEvent::Stop,
            NativeEvent::StopFailure => HookEvent::StopFailure,
            NativeEvent::SubagentStart => HookEvent::SubagentStart,
            NativeEvent::SubagentStop => HookEvent::SubagentStop,
            NativeEvent::PreCompact => HookEvent::PreCompact,
            NativeEvent::PostCompact => HookEvent::PostCompact,
        }
    }

    /// The native event a canonical event maps back to, when one does.
    pub fn from_canonical(event: HookEvent) -> Option<NativeEvent> {
        NativeEvent::ALL.into_iter().find(|e| e.canonical() == event)
    }

    /// Claude Code's default timeout for command hooks of this event.
    pub fn default_timeout(self) -> Duration {
        match self {
            NativeEvent::UserPromptSubmit => Duration::from_secs(30),
            _ => Duration::from_secs(600),
        }
    }

    /// What the matcher tests.
    pub(crate) fn match_field(self) -> MatchField {
        match self {
            NativeEvent::PreToolUse
            | NativeEvent::PostToolUse
            | NativeEvent::PostToolUseFailure
            | NativeEvent::PermissionRequest => MatchField::ToolName,
            NativeEvent::SessionStart => MatchField::SessionSource,
            NativeEvent::SessionEnd => MatchField::SessionReason,
            NativeEvent::Notification => MatchField::NotificationType,
            NativeEvent::SubagentStart | NativeEvent::SubagentStop => MatchField::AgentType,
            NativeEvent::PreCompact | NativeEvent::PostCompact => MatchField::CompactionTrigger,
            NativeEvent::StopFailure => MatchField::StopStatus,
            NativeEvent::UserPromptSubmit | NativeEvent::Stop => MatchField::None,
        }
    }

    /// Whether the event carries a tool call (the `if` field applies only to these).
    pub(crate) fn is_tool_event(self) -> bool {
        self.match_field() == MatchField::ToolName
    }

    /// Whether `onFailure` is honoured (Claude ignores it on `Stop` and `SubagentStop`).
    pub(crate) fn honours_on_failure(self) -> bool {
        !matches!(self, NativeEvent::Stop | NativeEvent::SubagentStop)
    }
}

/// How the adapter classifies a key of the `hooks` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventName {
    Mapped(NativeEvent),
    Gap,
    Unknown,
}

/// Classifies a key of the `hooks` object.
pub(crate) fn classify(name: &str) -> EventName {
    if let Some(e) = NativeEvent::from_name(name) {
        EventName::Mapped(e)
    } else if GAP_EVENTS.contains(&name) {
        EventName::Gap
    } else {
        EventName::Unknown
    }
}
