//! The table of Cursor's 21 native events: canonical mapping, narrowing, matcher target and
//! which output fields Cursor reads for each.

use hooks_schema::{HookEvent, ToolKind};

/// What a definition's `matcher` is tested against for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// The Cursor tool type (`Shell`, `Read`, `MCP:<tool>`, …), see [`crate::tool_type`].
    ToolType,
    /// The full shell command string.
    Command,
    /// The subagent type (`explore`, `generalPurpose`, …).
    SubagentType,
    /// A fixed value (`Stop`, `UserPromptSubmit`, …).
    Constant(&'static str),
    /// Cursor documents no matcher for the event: a matcher is ignored with a warning.
    Ignored,
}

impl Target {
    /// The name used in matcher texts and messages.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Target::ToolType => "tool_type",
            Target::Command => "command",
            Target::SubagentType => "subagent_type",
            Target::Constant(c) => c,
            Target::Ignored => "nothing",
        }
    }
}

/// How Cursor treats `permission: "ask"` on an event that reads `permission`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AskRule {
    /// Ask is enforced: the user is asked.
    Enforced,
    /// Accepted by the schema but not enforced (`preToolUse`): no decision.
    NotEnforced,
    /// Not supported and treated as deny (`subagentStart`, `beforeReadFile`).
    AsDeny,
}

/// Which output fields Cursor reads for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outputs {
    /// `permission` is read, with this rule for `ask`; `None` when it is ignored.
    pub(crate) permission: Option<AskRule>,
    /// `continue: false` blocks (`beforeSubmitPrompt`).
    pub(crate) continue_blocks: bool,
    /// `updated_input` rewrites the tool input.
    pub(crate) updated_input: bool,
    /// `user_message` is shown.
    pub(crate) user_message: bool,
    /// `agent_message` is sent to the agent.
    pub(crate) agent_message: bool,
    /// `followup_message` is submitted, capped by `loop_limit`.
    pub(crate) followup: bool,
    /// `additional_context` is added.
    pub(crate) additional_context: bool,
    /// `env` is kept for later hooks of the session.
    pub(crate) env: bool,
    /// `updated_mcp_tool_output` replaces an MCP tool's output.
    pub(crate) updated_mcp_output: bool,
}

const NONE: Outputs = Outputs {
    permission: None,
    continue_blocks: false,
    updated_input: false,
    user_message: false,
    agent_message: false,
    followup: false,
    additional_context: false,
    env: false,
    updated_mcp_output: false,
};

const GATE: Outputs = Outputs {
    permission: Some(AskRule::Enforced),
    user_message: true,
    agent_message: true,
    ..NONE
};

/// One native Cursor event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NativeEvent {
    /// The name in `hooks.json`.
    pub(crate) name: &'static str,
    /// The canonical event; `None` for a capability gap.
    pub(crate) canonical: Option<HookEvent>,
    /// The tool kind the native event is narrowed to.
    pub(crate) narrowing: Option<ToolKind>,
    /// What the matcher is tested against.
    pub(crate) target: Target,
    /// The output fields Cursor reads.
    pub(crate) outputs: Outputs,
}

impl NativeEvent {
    /// Whether the event can deny (it reads `permission` or `continue`).
    pub(crate) fn can_deny(&self) -> bool {
        self.outputs.permission.is_some() || self.outputs.continue_blocks
    }
}

macro_rules! ev {
    ($name:literal, $canon:expr, $narrow:expr, $target:expr, $out:expr) => {
        NativeEvent {
            name: $name,
            canonical: $canon,
            narrowing: $narrow,
            target: $target,
            outputs: $out,
        }
    };
}

/// Every documented Cursor event, in the order of Cursor's documentation.
pub(crate) const NATIVE_EVENTS: [NativeEvent; 21] = [
    ev!(
        "sessionStart",
        Some(HookEvent::SessionStart),
        None,
        Target::Ignored,
        Outputs { additional_context: true, env: true, ..NONE }
    ),
    ev!("sessionEnd", Some(HookEvent::SessionEnd), None, Target::Ignored, NONE),
    ev!(
        "preToolUse",
        Some(HookEvent::PreToolUse),
        None,
        Target::ToolType,
        Outputs { permission: Some(AskRule::NotEnforced), updated_input: true, ..GATE }
    ),
    ev!(
        "postToolUse",
        Some(HookEvent::PostToolUse),
        None,
        Target::ToolType,
        Outputs { additional_context: true, updated_mcp_output: true, ..NONE }
    ),
    ev!("postToolUseFailure", Some(HookEvent::ToolFailure), None, Target::ToolType, NONE),
    ev!(
        "subagentStart",
        Some(HookEvent::SubagentStart),
        None,
        Target::SubagentType,
        Outputs { permission: Some(AskRule::AsDeny), agent_message: false, ..GATE }
    ),
    ev!(
        "subagentStop",
        Some(HookEvent::SubagentStop),
        None,
        Target::SubagentType,
        Outputs { followup: true, ..NONE }
    ),
    ev!(
        "beforeShellExecution",
        Some(HookEvent::PreToolUse),
        Some(ToolKind::Shell),
        Target::Command,
        GATE
    ),
    ev!(
        "afterShellExecution",
        Some(HookEvent::PostToolUse),
        Some(ToolKind::Shell),
        Target::Command,
        NONE
    ),
    ev!(
        "beforeMCPExecution",
        Some(HookEvent::PreToolUse),
        Some(ToolKind::Mcp),
        Target::ToolType,
        GATE
    ),
    ev!(
        "afterMCPExecution",
        Some(HookEvent::PostToolUse),
        Some(ToolKind::Mcp),
        Target::ToolType,
        NONE
    ),
    ev!(
        "beforeReadFile",
        Some(HookEvent::PreToolUse),
        Some(ToolKind::FileRead),
        Target::ToolType,
        Outputs { permission: Some(AskRule::AsDeny), agent_message: false, ..GATE }
    ),
    ev!(
        "afterFileEdit",
        Some(HookEvent::PostToolUse),
        Some(ToolKind::FileWrite),
        Target::ToolType,
        NONE
    ),
    ev!(
        "beforeSubmitPrompt",
        Some(HookEvent::PromptSubmit),
        None,
        Target::Constant("UserPromptSubmit"),
        Outputs { continue_blocks: true, user_message: true, ..NONE }
    ),
    ev!(
        "preCompact",
        Some(HookEvent::PreCompact),
        None,
        Target::Ignored,
        Outputs { user_message: true, ..NONE }
    ),
    ev!(
        "stop",
        Some(HookEvent::Stop),
        None,
        Target::Constant("Stop"),
        Outputs { followup: true, ..NONE }
    ),
    ev!(
        "afterAgentResponse",
        Some(HookEvent::AgentResponse),
        None,
        Target::Constant("AgentResponse"),
        NONE
    ),
    ev!(
        "afterAgentThought",
        Some(HookEvent::AgentThought),
        None,
        Target::Constant("AgentThought"),
        NONE
    ),
    ev!("beforeTabFileRead", None, None, Target::Ignored, NONE),
    ev!("afterTabFileEdit", None, None, Target::Ignored, NONE),
    ev!("workspaceOpen", Some(HookEvent::WorkspaceOpen), None, Target::Ignored, NONE),
];

/// Why the Tab events are gaps.
pub(crate) const TAB_GAP_REASON: &str =
    "Tab completions are not agent tool calls and no host fires them";

/// Claude Code event names (and one name third-party guides invented) people write in
/// Cursor files, with Cursor's name for them.
const CLAUDE_NAMES: [(&str, &str); 9] = [
    ("userPromptSubmit", "beforeSubmitPrompt"),
    ("PreToolUse", "preToolUse"),
    ("PostToolUse", "postToolUse"),
    ("UserPromptSubmit", "beforeSubmitPrompt"),
    ("Stop", "stop"),
    ("SubagentStop", "subagentStop"),
    ("SessionStart", "sessionStart"),
    ("SessionEnd", "sessionEnd"),
    ("PreCompact", "preCompact"),
];

/// The native event named `name`.
pub(crate) fn lookup(name: &str) -> Option<&'static NativeEvent> {
    NATIVE_EVENTS.iter().find(|e| e.name == name)
}

/// The known event nearest to an unknown name, for "did you mean" hints.
pub(crate) fn suggest(name: &str) -> Option<&'static str> {
    if let Some((_, cursor)) = CLAUDE_NAMES.iter().find(|(claude, _)| *claude == name) {
        return Some(cursor);
    }
    let lower = name.to_ascii_lowercase();
    NATIVE_EVENTS
        .iter()
        .map(|e| (e.name, strsim::jaro_winkler(&lower, &e.name.to_ascii_lowercase())))
        .filter(|(_, score)| *score >= 0.8)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n)
}
