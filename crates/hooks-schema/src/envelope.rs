//! The envelope: the versioned, format-neutral description of one firing of one event.
//!
//! Hosts build an [`Envelope`]; each format's codec turns it into that format's native
//! payload (Cursor's stdin JSON, Claude Code's stdin JSON, Chrys's payload file).
//! Per-event data sits in optional groups so one type serves every event and round-trips
//! through JSON unchanged.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::HookEvent;

/// The envelope schema version this crate reads and writes.
pub const ENVELOPE_SCHEMA: u32 = 1;

fn schema_version() -> u32 {
    ENVELOPE_SCHEMA
}

/// One firing of one event, as the host describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// Envelope schema version; always [`ENVELOPE_SCHEMA`] for envelopes this crate builds.
    #[serde(default = "schema_version")]
    pub schema: u32,
    /// The canonical event.
    pub event: HookEvent,
    /// Session (conversation) id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Turn (generation) id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
    /// The session's working directory; bindings are chosen by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// The workspace roots open in the host.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workspace_roots: Vec<PathBuf>,
    /// The active agent profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The model in use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The transcript file of the session, when the host keeps one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<PathBuf>,
    /// The host's permission mode (`default`, `acceptEdits`, `bypassPermissions`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// When the event fired, RFC 3339 UTC, as the host states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// The tool call (tool events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolCall>,
    /// The tool result (post tool use, tool failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ToolResult>,
    /// The submitted prompt (prompt submit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Prompt>,
    /// Session details (session start, restore, end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionInfo>,
    /// Turn details (turn start and end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnInfo>,
    /// Approval details (approval requested and resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Approval>,
    /// Subagent details (subagent start and stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent: Option<Subagent>,
    /// Compaction details (pre and post compact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Compaction>,
    /// Stop details (stop, stop failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopInfo>,
    /// Notification details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notification: Option<Notification>,
    /// Agent text (agent response, agent thought).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<AgentText>,
    /// Workflow run details (workflow run start and end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<WorkflowRun>,
    /// Native fields a host passes through to hooks unchanged; codecs copy them last and
    /// never let them replace a field they set themselves.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

impl Envelope {
    /// Adds the native fields the host passed through ([`Envelope::extra`]) to a hook's input
    /// document `p`, each where `p` has no field of that name: a codec's last step, so a
    /// passed-through field never replaces one the codec set.
    ///
    /// ```
    /// use hooks_schema::{Envelope, HookEvent};
    /// use serde_json::{Map, Value, json};
    ///
    /// let mut e = Envelope::new(HookEvent::Stop);
    /// e.extra.insert("session_id".into(), json!("theirs"));
    /// e.extra.insert("agent_kind".into(), json!("x"));
    /// let mut p = Map::new();
    /// p.insert("session_id".into(), json!("ours"));
    /// e.fill_in_extra(&mut p);
    /// assert_eq!(Value::Object(p), json!({"session_id": "ours", "agent_kind": "x"}));
    /// ```
    pub fn fill_in_extra(&self, p: &mut Map<String, Value>) {
        for (k, v) in &self.extra {
            if !p.contains_key(k) {
                p.insert(k.clone(), v.clone());
            }
        }
    }

    /// An envelope for `event` with every optional field empty.
    pub fn new(event: HookEvent) -> Envelope {
        Envelope {
            schema: ENVELOPE_SCHEMA,
            event,
            session_id: None,
            turn_id: None,
            cwd: None,
            workspace_roots: Vec::new(),
            profile: None,
            model: None,
            transcript_path: None,
            permission_mode: None,
            timestamp: None,
            tool: None,
            result: None,
            prompt: None,
            session: None,
            turn: None,
            approval: None,
            subagent: None,
            compaction: None,
            stop: None,
            notification: None,
            text: None,
            workflow: None,
            extra: Map::new(),
        }
    }

    /// The tool call's arguments, when the envelope carries a tool call.
    pub fn tool_args(&self) -> Option<&Value> {
        self.tool.as_ref().map(|t| &t.args)
    }

    /// The shell command's non-zero exit status, when this is a [`HookEvent::PostToolUse`]
    /// firing for a command that ran to its end and failed.
    pub fn failed_shell_exit(&self) -> Option<i32> {
        let code = self.result.as_ref()?.exit_code.filter(|c| *c != 0)?;
        (self.event == HookEvent::PostToolUse).then_some(code)
    }

    /// The event this firing is for an agent that takes a shell command's non-zero exit
    /// status for a failure of the tool ([`EventRule::shell_exit_is_failure`](crate::EventRule::shell_exit_is_failure)):
    /// [`HookEvent::ToolFailure`] for such a command, the envelope's own event otherwise.
    ///
    /// ```
    /// use hooks_schema::{Envelope, HookEvent, ToolResult};
    ///
    /// let mut e = Envelope::new(HookEvent::PostToolUse);
    /// e.result = Some(ToolResult { exit_code: Some(3), ..ToolResult::default() });
    /// assert_eq!(e.event_for(true), HookEvent::ToolFailure); // Claude Code
    /// assert_eq!(e.event_for(false), HookEvent::PostToolUse); // Codex, Gemini CLI, ...
    /// ```
    pub fn event_for(&self, shell_exit_is_failure: bool) -> HookEvent {
        if shell_exit_is_failure && self.failed_shell_exit().is_some() {
            HookEvent::ToolFailure
        } else {
            self.event
        }
    }
}

/// The canonical kind of a tool, so a hook written for one agent's tool names matches the
/// same kind of tool in another agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Runs a shell command.
    Shell,
    /// Reads a file.
    FileRead,
    /// Writes, edits or deletes a file.
    FileWrite,
    /// Calls a tool of an MCP server.
    Mcp,
    /// Searches the workspace (grep, glob).
    Search,
    /// Searches or fetches the web.
    Web,
    /// Starts a subagent.
    Subagent,
    /// Anything else.
    Other,
}

impl ToolKind {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Shell => "shell",
            ToolKind::FileRead => "file_read",
            ToolKind::FileWrite => "file_write",
            ToolKind::Mcp => "mcp",
            ToolKind::Search => "search",
            ToolKind::Web => "web",
            ToolKind::Subagent => "subagent",
            ToolKind::Other => "other",
        }
    }
}

/// A tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// The host's own name for the tool (`Bash`, `edit_file`, `run_shell_command`, …).
    pub name: String,
    /// The canonical kind.
    pub kind: ToolKind,
    /// The host's own finer kind when it has one (Chrys's `web_fetch`, `filesystem.write`,
    /// Cursor's `Delete`); codecs prefer it over a name derived from `kind`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_kind: Option<String>,
    /// The call id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The MCP server, for MCP tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_server: Option<String>,
    /// The arguments, as JSON (normally an object).
    #[serde(default)]
    pub args: Value,
}

/// The outcome of a tool call.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolResult {
    /// The result as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The result as structured JSON, when the tool returns one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The error message when the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long the tool ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The exit status of the shell command the tool ran, when the host reports it. A
    /// command that ran to its end is a [`HookEvent::PostToolUse`] firing whatever its status:
    /// the agents that take a non-zero status for a failure of the tool (Claude Code) run
    /// their failure hooks for it instead
    /// ([`EventRule::shell_exit_is_failure`](crate::EventRule::shell_exit_is_failure),
    /// [`Envelope::event_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Whether the tool failed.
    #[serde(default)]
    pub failed: bool,
    /// Whether the failure was an interruption.
    #[serde(default)]
    pub interrupted: bool,
    /// Whether a human rejected the call at approval.
    #[serde(default)]
    pub approval_rejected: bool,
}

/// A submitted prompt.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prompt {
    /// The prompt text.
    pub text: String,
    /// Whether the prompt is injected into a running turn.
    #[serde(default)]
    pub injected: bool,
    /// Attachments as the host describes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Value>,
}

/// Session details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionInfo {
    /// Why the session started: `startup`, `resume`, `clear`, `compact`, `fork`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Why the session ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The restored session's id (session restored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restored_session_id: Option<String>,
    /// Whether the session runs in the background (a cloud agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_background: Option<bool>,
    /// How long the session lasted (session end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

/// Turn details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnInfo {
    /// 1-based turn number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u64>,
    /// `ok`, `interrupted` or `failed` (turn end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The user's text that started the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_text: Option<String>,
    /// Whether the turn is a retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_retry: Option<bool>,
}

/// Approval details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Approval {
    /// The approval request's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Who asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller_name: Option<String>,
    /// The human's answer (approval resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
}

/// Subagent details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subagent {
    /// The subagent's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The subagent's type (`explore`, `generalPurpose`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// The subagent's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The task it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The tool call that started it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_call_id: Option<String>,
    /// How it ended (subagent stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// A summary of its result (subagent stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// Compaction details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compaction {
    /// What triggered it: `manual`, `auto`, or a host's own phase name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Context usage in percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_pct: Option<f64>,
    /// Tokens before compaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_before: Option<u64>,
    /// The user's compaction instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
}

/// Stop details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopInfo {
    /// `completed`, `aborted` or `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// How many follow-ups hooks already caused in this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_count: Option<u32>,
    /// The agent's last message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
    /// Whether the agent is already continuing because of a stop hook.
    #[serde(default)]
    pub stop_hook_active: bool,
}

/// Notification details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notification {
    /// The notification type (`permission_prompt`, `idle_prompt`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Agent output text.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentText {
    /// The text.
    pub text: String,
    /// How long producing it took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

/// Workflow run details.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowRun {
    /// The run's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// The run's input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_text: Option<String>,
    /// How it ended (workflow run end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Why it ended that way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests;
