//! Codex's hook configuration as serde types with Codex 0.169.0's own acceptance rules.
//!
//! Both spellings deserialize into these types, exactly as Codex does it: `hooks.json` with
//! `serde_json` ([`HooksFile`]: only `description` and `hooks` at the root), the inline
//! `[hooks]` table of a `config.toml` with `toml_edit`'s serde support ([`HooksTable`]: the
//! events plus `state`). What refuses a whole file is whatever makes these types fail to
//! deserialize (an unknown root key, a wrong type anywhere, an unknown handler `type`, a
//! duplicate key); unknown event names, unknown group and handler fields are ignored, as in
//! Codex. What is skipped with a warning (empty commands, prompt and agent handlers, invalid
//! matchers) is decided later, in `parse`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::CodexEvent;

/// A `hooks.json` document.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HooksFile {
    /// A free description.
    #[serde(default)]
    #[allow(dead_code)]
    pub description: Option<String>,
    /// The events.
    #[serde(default)]
    pub hooks: EventTable,
}

/// The inline `[hooks]` table of a `config.toml` (and of `requirements.toml`): the events
/// and, in the user's `config.toml`, per-hook `state`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct HooksTable {
    /// The events.
    #[serde(flatten)]
    pub events: EventTable,
    /// `[hooks.state."<key>"]`.
    #[serde(default)]
    pub state: BTreeMap<String, HookState>,
}

/// `[hooks.state."<key>"]`: what the user decided about one non-managed hook in Codex.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct HookState {
    /// `enabled = false` turns the hook off.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// The hash the user trusted (`sha256:<hex>`).
    #[serde(default)]
    pub trusted_hash: Option<String>,
}

/// The events of a hook file: one list of matcher groups per event Codex knows. Unknown
/// names are ignored; a known one must be a list.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct EventTable {
    #[serde(rename = "PreModelRequest", default)]
    pre_model_request: Vec<MatcherGroup>,
    #[serde(rename = "PostModelRequest", default)]
    post_model_request: Vec<MatcherGroup>,
    #[serde(rename = "PreToolUse", default)]
    pre_tool_use: Vec<MatcherGroup>,
    #[serde(rename = "PermissionRequest", default)]
    permission_request: Vec<MatcherGroup>,
    #[serde(rename = "PostToolUse", default)]
    post_tool_use: Vec<MatcherGroup>,
    #[serde(rename = "PreCompact", default)]
    pre_compact: Vec<MatcherGroup>,
    #[serde(rename = "PostCompact", default)]
    post_compact: Vec<MatcherGroup>,
    #[serde(rename = "SessionStart", default)]
    session_start: Vec<MatcherGroup>,
    #[serde(rename = "SessionEnd", default)]
    session_end: Vec<MatcherGroup>,
    #[serde(rename = "UserPromptSubmit", default)]
    user_prompt_submit: Vec<MatcherGroup>,
    #[serde(rename = "SubagentStart", default)]
    subagent_start: Vec<MatcherGroup>,
    #[serde(rename = "SubagentStop", default)]
    subagent_stop: Vec<MatcherGroup>,
    #[serde(rename = "Stop", default)]
    stop: Vec<MatcherGroup>,
    #[serde(rename = "Interrupt", default)]
    interrupt: Vec<MatcherGroup>,
}

impl EventTable {
    /// The groups of every event, in Codex's listing order.
    pub(crate) fn into_events(self) -> [(CodexEvent, Vec<MatcherGroup>); 14] {
        [
            (CodexEvent::PreModelRequest, self.pre_model_request),
            (CodexEvent::PostModelRequest, self.post_model_request),
            (CodexEvent::PreToolUse, self.pre_tool_use),
            (CodexEvent::PermissionRequest, self.permission_request),
            (CodexEvent::PostToolUse, self.post_tool_use),
            (CodexEvent::PreCompact, self.pre_compact),
            (CodexEvent::PostCompact, self.post_compact),
            (CodexEvent::SessionStart, self.session_start),
            (CodexEvent::SessionEnd, self.session_end),
            (CodexEvent::UserPromptSubmit, self.user_prompt_submit),
            (CodexEvent::SubagentStart, self.subagent_start),
            (CodexEvent::SubagentStop, self.subagent_stop),
            (CodexEvent::Stop, self.stop),
            (CodexEvent::Interrupt, self.interrupt),
        ]
    }
}

/// One matcher group.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct MatcherGroup {
    /// The matcher as written.
    #[serde(default)]
    pub matcher: Option<String>,
    /// Its handlers.
    #[serde(default)]
    pub hooks: Vec<Handler>,
}

/// One handler, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type")]
pub(crate) enum Handler {
    /// A command run through the user's shell.
    #[serde(rename = "command")]
    Command(CommandHandler),
    /// A call of an MCP server's tool.
    #[serde(rename = "mcp_tool")]
    McpTool(McpToolHandler),
    /// A prompt handler (Codex skips it: not supported yet).
    #[serde(rename = "prompt")]
    Prompt {},
    /// An agent handler (Codex skips it: not supported yet).
    #[serde(rename = "agent")]
    Agent {},
}

/// A `type: "command"` handler.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct CommandHandler {
    /// The command line.
    pub command: String,
    /// The command line used instead on Windows.
    #[serde(default, rename = "commandWindows", alias = "command_windows")]
    pub command_windows: Option<String>,
    /// Seconds.
    #[serde(default)]
    pub timeout: Option<u64>,
    /// Run detached.
    #[serde(default, rename = "async")]
    pub async_: bool,
    /// Shown while the hook runs.
    #[serde(default, rename = "statusMessage")]
    pub status_message: Option<String>,
    /// How much of the hook's context reaches the model.
    #[serde(default, rename = "additionalContextLimit")]
    pub additional_context_limit: Option<usize>,
}

/// A `type: "mcp_tool"` handler.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct McpToolHandler {
    /// The MCP server.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// The tool's input; Codex requires it to be representable as TOML (no `null`).
    #[serde(default, deserialize_with = "toml_representable")]
    #[allow(dead_code)]
    pub input: Option<serde_json::Value>,
    /// Seconds.
    #[serde(default)]
    #[allow(dead_code)]
    pub timeout: Option<u64>,
    /// Shown while the hook runs.
    #[serde(default, rename = "statusMessage")]
    #[allow(dead_code)]
    pub status_message: Option<String>,
}

fn toml_representable<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    fn ok(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Null => false,
            serde_json::Value::Array(a) => a.iter().all(ok),
            serde_json::Value::Object(m) => m.values().all(ok),
            _ => true,
        }
    }
    let v = serde_json::Value::deserialize(d)?;
    if ok(&v) {
        Ok(Some(v))
    } else {
        Err(serde::de::Error::custom("MCP hook input must be representable as TOML"))
    }
}
