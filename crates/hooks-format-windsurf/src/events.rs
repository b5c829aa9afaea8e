//! Windsurf Cascade's twelve hook events, how each maps onto a canonical event, and the tool
//! kind each narrows a canonical event to.
//!
//! The names are the documentation's (`docs.windsurf.com/windsurf/cascade/hooks`); no
//! Windsurf build could be run here, so nothing in this table is observed
//! (`specs/formats/windsurf.md`). Ten events map; `post_cascade_response_with_transcript`
//! and `post_setup_worktree` are capability gaps.

use hooks_schema::{HookEvent, ToolKind};

/// A Windsurf Cascade hook event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WindsurfEvent {
    /// `pre_read_code`: before Cascade reads a file; exit 2 blocks.
    PreReadCode,
    /// `post_read_code`.
    PostReadCode,
    /// `pre_write_code`: before Cascade writes or edits a file; exit 2 blocks.
    PreWriteCode,
    /// `post_write_code`.
    PostWriteCode,
    /// `pre_run_command`: before Cascade runs a terminal command; exit 2 blocks.
    PreRunCommand,
    /// `post_run_command`.
    PostRunCommand,
    /// `pre_mcp_tool_use`: before an MCP tool call; exit 2 blocks.
    PreMcpToolUse,
    /// `post_mcp_tool_use`.
    PostMcpToolUse,
    /// `pre_user_prompt`: before Cascade handles a prompt; exit 2 blocks.
    PreUserPrompt,
    /// `post_cascade_response`: Cascade's response, observed.
    PostCascadeResponse,
    /// `post_cascade_response_with_transcript` (gap: a transcript export).
    PostCascadeResponseWithTranscript,
    /// `post_setup_worktree` (gap: worktree set-up).
    PostSetupWorktree,
}

impl WindsurfEvent {
    /// Every event, in the documentation's order.
    pub const ALL: [WindsurfEvent; 12] = [
        WindsurfEvent::PreReadCode,
        WindsurfEvent::PostReadCode,
        WindsurfEvent::PreWriteCode,
        WindsurfEvent::PostWriteCode,
        WindsurfEvent::PreRunCommand,
        WindsurfEvent::PostRunCommand,
        WindsurfEvent::PreMcpToolUse,
        WindsurfEvent::PostMcpToolUse,
        WindsurfEvent::PreUserPrompt,
        WindsurfEvent::PostCascadeResponse,
        WindsurfEvent::PostCascadeResponseWithTranscript,
        WindsurfEvent::PostSetupWorktree,
    ];

    /// The native name.
    pub const fn as_str(self) -> &'static str {
        match self {
            WindsurfEvent::PreReadCode => "pre_read_code",
            WindsurfEvent::PostReadCode => "post_read_code",
            WindsurfEvent::PreWriteCode => "pre_write_code",
            WindsurfEvent::PostWriteCode => "post_write_code",
            WindsurfEvent::PreRunCommand => "pre_run_command",
            WindsurfEvent::PostRunCommand => "post_run_command",
            WindsurfEvent::PreMcpToolUse => "pre_mcp_tool_use",
            WindsurfEvent::PostMcpToolUse => "post_mcp_tool_use",
            WindsurfEvent::PreUserPrompt => "pre_user_prompt",
            WindsurfEvent::PostCascadeResponse => "post_cascade_response",
            WindsurfEvent::PostCascadeResponseWithTranscript => {
                "post_cascade_response_with_transcript"
            }
            WindsurfEvent::PostSetupWorktree => "post_setup_worktree",
        }
    }

    /// The event with this name.
    pub fn from_name(name: &str) -> Option<WindsurfEvent> {
        WindsurfEvent::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The canonical event; `None` for a capability gap.
    pub const fn canonical(self) -> Option<HookEvent> {
        Some(match self {
            WindsurfEvent::PreReadCode
            | WindsurfEvent::PreWriteCode
            | WindsurfEvent::PreRunCommand
            | WindsurfEvent::PreMcpToolUse => HookEvent::PreToolUse,
            WindsurfEvent::PostReadCode
            | WindsurfEvent::PostWriteCode
            | WindsurfEvent::PostRunCommand
            | WindsurfEvent::PostMcpToolUse => HookEvent::PostToolUse,
            WindsurfEvent::PreUserPrompt => HookEvent::PromptSubmit,
            WindsurfEvent::PostCascadeResponse => HookEvent::AgentResponse,
            WindsurfEvent::PostCascadeResponseWithTranscript | WindsurfEvent::PostSetupWorktree => {
                return None;
            }
        })
    }

    /// The tool kind the event narrows its canonical event to.
    pub const fn narrowing(self) -> Option<ToolKind> {
        match self {
            WindsurfEvent::PreReadCode | WindsurfEvent::PostReadCode => Some(ToolKind::FileRead),
            WindsurfEvent::PreWriteCode | WindsurfEvent::PostWriteCode => Some(ToolKind::FileWrite),
            WindsurfEvent::PreRunCommand | WindsurfEvent::PostRunCommand => Some(ToolKind::Shell),
            WindsurfEvent::PreMcpToolUse | WindsurfEvent::PostMcpToolUse => Some(ToolKind::Mcp),
            _ => None,
        }
    }

    /// The Windsurf event of a canonical event and tool kind, when one exists.
    pub fn from_canonical(event: HookEvent, kind: Option<ToolKind>) -> Option<WindsurfEvent> {
        WindsurfEvent::ALL.into_iter().find(|e| {
            e.canonical() == Some(event) && (e.narrowing().is_none() || e.narrowing() == kind)
        })
    }

    /// Whether exit code 2 blocks the action (the `pre_` events).
    pub const fn can_block(self) -> bool {
        matches!(
            self,
            WindsurfEvent::PreReadCode
                | WindsurfEvent::PreWriteCode
                | WindsurfEvent::PreRunCommand
                | WindsurfEvent::PreMcpToolUse
                | WindsurfEvent::PreUserPrompt
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_gaps() {
        for e in WindsurfEvent::ALL {
            assert_eq!(WindsurfEvent::from_name(e.as_str()), Some(e));
            if let Some(c) = e.canonical() {
                assert_eq!(WindsurfEvent::from_canonical(c, e.narrowing()), Some(e), "{e:?}");
            }
            assert_eq!(e.can_block(), e.as_str().starts_with("pre_"));
        }
        let gaps: Vec<_> =
            WindsurfEvent::ALL.into_iter().filter(|e| e.canonical().is_none()).collect();
        assert_eq!(
            gaps,
            [WindsurfEvent::PostCascadeResponseWithTranscript, WindsurfEvent::PostSetupWorktree]
        );
        assert_eq!(WindsurfEvent::from_name("PreRunCommand"), None);
        assert_eq!(WindsurfEvent::from_canonical(HookEvent::PreToolUse, Some(ToolKind::Web)), None);
    }
}
