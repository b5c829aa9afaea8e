//! Gemini CLI's eleven hook events and how each maps onto a canonical event.
//!
//! The table follows `specs/events.md`: eight events map, the three model-level events
//! (`BeforeModel`, `AfterModel`, `BeforeToolSelection`) are capability gaps. Gemini CLI
//! 0.61.0 knows no other name: any other key of `hooks` is skipped with its warning
//! (`Invalid hook event name`).

use std::time::Duration;

use hooks_schema::HookEvent;

/// Gemini CLI's default hook timeout (`DEFAULT_HOOK_TIMEOUT = 6e4` ms), for every event.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A Gemini CLI hook event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiEvent {
    /// `BeforeTool`: before a tool runs; may deny, ask, rewrite the input or stop.
    BeforeTool,
    /// `AfterTool`: after a tool ran; may replace the result or add context.
    AfterTool,
    /// `BeforeAgent`: after the user's prompt, before planning; may drop the prompt.
    BeforeAgent,
    /// `AfterAgent`: the end of a turn; a deny starts another turn with the reason.
    AfterAgent,
    /// `SessionStart` (`startup`, `resume`, `clear`).
    SessionStart,
    /// `SessionEnd` (`exit`, `clear`, `logout`, `prompt_input_exit`, `other`).
    SessionEnd,
    /// `PreCompress` (`auto`, `manual`).
    PreCompress,
    /// `Notification` (`ToolPermission`).
    Notification,
    /// `BeforeModel` (gap).
    BeforeModel,
    /// `AfterModel` (gap).
    AfterModel,
    /// `BeforeToolSelection` (gap).
    BeforeToolSelection,
}

/// What a group's `matcher` is tested against on an event (Gemini CLI's
/// `HookPlanner.matchesContext`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchField {
    /// The tool name, as an unanchored JavaScript regular expression.
    ToolName,
    /// `source` (`SessionStart`), by exact string equality.
    Source,
    /// `reason` (`SessionEnd`), by exact string equality.
    Reason,
    /// `trigger` (`PreCompress`), by exact string equality.
    Trigger,
    /// Nothing: the event passes no context and the matcher is ignored.
    None,
}

impl GeminiEvent {
    /// Every event, in Gemini CLI's `HookEventName` order.
    pub const ALL: [GeminiEvent; 11] = [
        GeminiEvent::BeforeTool,
        GeminiEvent::AfterTool,
        GeminiEvent::BeforeAgent,
        GeminiEvent::Notification,
        GeminiEvent::AfterAgent,
        GeminiEvent::SessionStart,
        GeminiEvent::SessionEnd,
        GeminiEvent::PreCompress,
        GeminiEvent::BeforeModel,
        GeminiEvent::AfterModel,
        GeminiEvent::BeforeToolSelection,
    ];

    /// The native name.
    pub const fn as_str(self) -> &'static str {
        match self {
            GeminiEvent::BeforeTool => "BeforeTool",
            GeminiEvent::AfterTool => "AfterTool",
            GeminiEvent::BeforeAgent => "BeforeAgent",
            GeminiEvent::AfterAgent => "AfterAgent",
            GeminiEvent::SessionStart => "SessionStart",
            GeminiEvent::SessionEnd => "SessionEnd",
            GeminiEvent::PreCompress => "PreCompress",
            GeminiEvent::Notification => "Notification",
            GeminiEvent::BeforeModel => "BeforeModel",
            GeminiEvent::AfterModel => "AfterModel",
            GeminiEvent::BeforeToolSelection => "BeforeToolSelection",
        }
    }

    /// The event with this name.
    pub fn from_name(name: &str) -> Option<GeminiEvent> {
        GeminiEvent::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The canonical event; `None` for a capability gap.
    pub const fn canonical(self) -> Option<HookEvent> {
        match self {
            GeminiEvent::BeforeTool => Some(HookEvent::PreToolUse),
            GeminiEvent::AfterTool => Some(HookEvent::PostToolUse),
            GeminiEvent::BeforeAgent => Some(HookEvent::PromptSubmit),
            GeminiEvent::AfterAgent => Some(HookEvent::Stop),
            GeminiEvent::SessionStart => Some(HookEvent::SessionStart),
            GeminiEvent::SessionEnd => Some(HookEvent::SessionEnd),
            GeminiEvent::PreCompress => Some(HookEvent::PreCompact),
            GeminiEvent::Notification => Some(HookEvent::Notification),
            GeminiEvent::BeforeModel
            | GeminiEvent::AfterModel
            | GeminiEvent::BeforeToolSelection => None,
        }
    }

    /// The Gemini event a canonical event maps back to, when one does.
    pub fn from_canonical(event: HookEvent) -> Option<GeminiEvent> {
        GeminiEvent::ALL.into_iter().find(|e| e.canonical() == Some(event))
    }

    /// What the matcher is tested against.
    pub const fn match_field(self) -> MatchField {
        match self {
            GeminiEvent::BeforeTool | GeminiEvent::AfterTool => MatchField::ToolName,
            GeminiEvent::SessionStart => MatchField::Source,
            GeminiEvent::SessionEnd => MatchField::Reason,
            GeminiEvent::PreCompress => MatchField::Trigger,
            _ => MatchField::None,
        }
    }
}
