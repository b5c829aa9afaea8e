//! Copilot CLI matchers, in both dialects.
//!
//! - camelCase events: an entry's `matcher` is a regular expression compiled as
//!   `^(?:PATTERN)$` (a full, case-sensitive match) and tested against the tool name
//!   (`preToolUse`, `postToolUse`, `permissionRequest`), `trigger` (`preCompact`),
//!   `agentName` (`subagentStart`) or `notification_type` (`notification`); Copilot ignores
//!   it on other events (observed on `sessionStart`) and skips an entry whose pattern does
//!   not compile (observed: `Invalid matcher regex in preToolUse hook: '(' — hook will be
//!   skipped`). Copilot's hook engine is Rust; this module uses the `regex` crate, whose
//!   syntax the observed patterns follow (`ba` ✗, `bash` ✓, `b.*` ✓, `Bash` ✗, `bash|edit` ✓
//!   against `bash`).
//! - PascalCase events: Claude Code's rules, against Claude tool names: `*`, `**` or empty
//!   match everything; a name or a `|` list of names is compared with the Claude name and
//!   the runtime name; anything else is a regular expression anchored the same way and
//!   tested against the Claude name (observed: `Bash` matched the `bash` tool).

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolCall, ToolKind};
use regex::Regex;

use crate::events::{CopilotEvent, Dialect, MatchField};

/// The longest matcher accepted, in bytes; a longer one is an error and its entry is
/// skipped.
pub const MAX_MATCHER_LEN: usize = 4096;

/// Copilot's runtime tool names and the Claude Code names the PascalCase dialect shows for
/// them (the documentation's table; `bash`, `create`, `edit` and `view` observed).
pub const TOOL_NAMES: [(&str, &str); 11] = [
    ("bash", "Bash"),
    ("create", "Write"),
    ("edit", "Edit"),
    ("view", "Read"),
    ("str_replace_editor", "Edit"),
    ("apply_patch", "Edit"),
    ("grep", "Grep"),
    ("rg", "Grep"),
    ("glob", "Glob"),
    ("web_fetch", "WebFetch"),
    ("task", "Agent"),
];

/// The Claude Code name of a Copilot runtime tool (the name itself when it has none).
pub fn claude_tool_name(runtime: &str) -> &str {
    TOOL_NAMES.iter().find(|(r, _)| *r == runtime).map_or(runtime, |(_, c)| c)
}

/// The Copilot runtime name for the envelope's tool: the name itself when it is one, the
/// runtime tool of a Claude Code name, else the runtime tool of the same kind.
pub fn copilot_tool_name(tool: &ToolCall) -> String {
    let name = tool.name.as_str();
    if TOOL_NAMES.iter().any(|(r, _)| *r == name) {
        return name.to_owned();
    }
    let by_claude = match name {
        "Bash" => Some("bash"),
        "Write" => Some("create"),
        "Edit" | "MultiEdit" => Some("edit"),
        "Read" => Some("view"),
        "Grep" => Some("grep"),
        "Glob" => Some("glob"),
        "WebFetch" => Some("web_fetch"),
        "Agent" | "Task" => Some("task"),
        _ => None,
    };
    if let Some(n) = by_claude {
        return n.to_owned();
    }
    let has = |k: &str| tool.args.get(k).is_some();
    match tool.kind {
        ToolKind::Shell => "bash".to_owned(),
        ToolKind::FileWrite if has("old_str") || has("old_string") => "edit".to_owned(),
        ToolKind::FileWrite => "create".to_owned(),
        ToolKind::FileRead => "view".to_owned(),
        ToolKind::Search => "grep".to_owned(),
        ToolKind::Web => "web_fetch".to_owned(),
        ToolKind::Subagent => "task".to_owned(),
        ToolKind::Mcp | ToolKind::Other => name.to_owned(),
    }
}

/// The canonical kind of a Copilot tool, by runtime or Claude name.
pub fn tool_kind(name: &str) -> ToolKind {
    match claude_tool_name(name) {
        "Bash" | "powershell" => ToolKind::Shell,
        "Write" | "Edit" => ToolKind::FileWrite,
        "Read" => ToolKind::FileRead,
        "Grep" | "Glob" => ToolKind::Search,
        "WebFetch" => ToolKind::Web,
        "Agent" => ToolKind::Subagent,
        _ => ToolKind::Other,
    }
}

/// A compiled matcher.
#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    /// No matcher, or one the event ignores.
    All,
    /// camelCase: an anchored regular expression.
    Regex(Arc<Regex>),
    /// PascalCase: a name or `|` list compared with the Claude and runtime names.
    Names(Vec<String>),
    /// PascalCase: an anchored regular expression against the Claude name.
    ClaudeRegex(Arc<Regex>),
}

/// Why a matcher cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MatcherProblem {
    /// The pattern does not compile; Copilot skips the entry.
    Invalid(String),
    /// The event passes nothing to match; Copilot ignores the matcher.
    Ignored,
}

fn anchored(text: &str) -> Result<Arc<Regex>, MatcherProblem> {
    regex::RegexBuilder::new(&format!("^(?:{text})$"))
        .size_limit(1 << 20)
        .build()
        .map(Arc::new)
        .map_err(|e| {
            let msg = e.to_string();
            MatcherProblem::Invalid(msg.lines().last().unwrap_or_default().trim().to_owned())
        })
}

impl Pattern {
    /// Compiles `text` for `event` in `dialect`.
    pub(crate) fn compile(
        event: CopilotEvent,
        dialect: Dialect,
        text: &str,
    ) -> Result<Pattern, MatcherProblem> {
        if event.match_field() == MatchField::None {
            return Err(MatcherProblem::Ignored);
        }
        match dialect {
            Dialect::Camel => anchored(text).map(Pattern::Regex),
            Dialect::Pascal => {
                if text.is_empty() || text == "*" || text == "**" {
                    Ok(Pattern::All)
                } else if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') {
                    Ok(Pattern::Names(text.split('|').map(str::to_owned).collect()))
                } else {
                    anchored(text).map(Pattern::ClaudeRegex)
                }
            }
        }
    }

    fn matches(&self, field: MatchField, value: &str) -> bool {
        let claude = if field == MatchField::ToolName { claude_tool_name(value) } else { value };
        match self {
            Pattern::All => true,
            Pattern::Regex(r) => r.is_match(value),
            Pattern::Names(names) => names.iter().any(|n| n == value || n == claude),
            Pattern::ClaudeRegex(r) => r.is_match(claude),
        }
    }
}

/// The value the event's matcher tests.
pub(crate) fn field_value(field: MatchField, envelope: &Envelope) -> String {
    match field {
        MatchField::ToolName => envelope.tool.as_ref().map(copilot_tool_name).unwrap_or_default(),
        MatchField::Trigger => {
            envelope.compaction.as_ref().and_then(|c| c.trigger.clone()).unwrap_or_default()
        }
        MatchField::AgentName => envelope
            .subagent
            .as_ref()
            .and_then(|s| s.name.clone().or_else(|| s.agent_type.clone()))
            .unwrap_or_default(),
        MatchField::NotificationType => {
            envelope.notification.as_ref().and_then(|n| n.kind.clone()).unwrap_or_default()
        }
        MatchField::None => String::new(),
    }
}

#[derive(Debug)]
struct Predicate {
    field: MatchField,
    pattern: Pattern,
}

impl MatchPredicate for Predicate {
    fn matches(&self, envelope: &Envelope) -> bool {
        self.pattern.matches(self.field, &field_value(self.field, envelope))
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        if self.matches(envelope) {
            return None;
        }
        let what = match self.field {
            MatchField::ToolName => "tool name",
            MatchField::Trigger => "trigger",
            MatchField::AgentName => "agent name",
            MatchField::NotificationType => "notification type",
            MatchField::None => "event",
        };
        Some(format!("the {what} `{}` does not match", field_value(self.field, envelope)))
    }
}

/// The definition's matcher.
pub(crate) fn build(event: CopilotEvent, text: &str, pattern: Pattern) -> Matcher {
    match pattern {
        Pattern::All => Matcher::all(),
        pattern => Matcher::new(
            text.to_owned(),
            Arc::new(Predicate { field: event.match_field(), pattern }),
        ),
    }
}

#[cfg(test)]
mod tests;
