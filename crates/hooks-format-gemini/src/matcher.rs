//! Gemini CLI matchers, as its `HookPlanner.matchesContext` applies them.
//!
//! The matcher is trimmed (JavaScript `trim`); empty or `*` matches everything. On
//! `BeforeTool` and `AfterTool` it is an unanchored JavaScript regular expression tested
//! against the tool name ([`crate::jsregex`] says how it is reproduced), or, when JavaScript
//! rejects the pattern, compared with the tool name for equality. On `SessionStart`,
//! `SessionEnd` and `PreCompress` it is compared for equality with the source, reason or
//! trigger (`startup|resume` matches neither). Other events pass no context and ignore it.

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolCall, ToolKind};

use crate::{
    events::{GeminiEvent, MatchField},
    js,
    jsregex::{self, Compiled, JsRegex},
};

/// The longest matcher accepted, in bytes; a longer one is an error and its group is
/// skipped.
pub const MAX_MATCHER_LEN: usize = 4096;

/// A group's matcher, compiled for its event.
#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    /// Absent, empty or `*`, or an event that ignores matchers.
    All,
    /// A regex JavaScript accepts (tool events).
    Regex(Arc<fancy_regex::Regex>),
    /// An exact string: a trigger matcher, or a tool pattern JavaScript rejects.
    Exact(String),
}

/// What compiling a matcher found worth telling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Remark {
    /// JavaScript rejects the pattern; it is compared for equality instead.
    InvalidRegex(String),
    /// JavaScript accepts it but this engine cannot translate it; it matches every tool.
    Unsupported(String),
    /// The event ignores matchers.
    Ignored,
}

impl Pattern {
    /// Compiles a matcher for `event`, with anything worth a diagnostic.
    pub(crate) fn compile(event: GeminiEvent, text: &str) -> (Pattern, Option<Remark>) {
        let t = js::trim(text);
        if t.is_empty() || t == "*" {
            return (Pattern::All, None);
        }
        match event.match_field() {
            MatchField::None => (Pattern::All, Some(Remark::Ignored)),
            MatchField::Source | MatchField::Reason | MatchField::Trigger => {
                (Pattern::Exact(t.to_owned()), None)
            }
            MatchField::ToolName => match JsRegex::compile(t) {
                Compiled::Regex(r) => (Pattern::Regex(r), None),
                Compiled::Invalid(why) => {
                    (Pattern::Exact(t.to_owned()), Some(Remark::InvalidRegex(why)))
                }
                Compiled::Unsupported(why) => (Pattern::All, Some(Remark::Unsupported(why))),
            },
        }
    }

    fn matches(&self, value: &str) -> bool {
        match self {
            Pattern::All => true,
            Pattern::Exact(s) => s == value,
            Pattern::Regex(r) => jsregex::test(r, value),
        }
    }
}

/// Gemini CLI's built-in tool names (0.61.0), recognised as already native in an envelope.
pub const GEMINI_TOOLS: [&str; 25] = [
    "run_shell_command",
    "write_file",
    "replace",
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "grep_search",
    "web_fetch",
    "google_web_search",
    "write_todos",
    "save_memory",
    "get_internal_docs",
    "activate_skill",
    "ask_user",
    "enter_plan_mode",
    "exit_plan_mode",
    "update_topic",
    "complete_task",
    "read_mcp_resource",
    "list_mcp_resources",
    "invoke_agent",
    "tracker_create_task",
    "tracker_update_task",
    "tracker_list_tasks",
];

/// Gemini CLI's name for an MCP tool: `mcp_<server>_<tool>`, characters outside
/// `[A-Za-z0-9_.:-]` replaced by `_`, a leading non-letter prefixed with `_`, and names over
/// 63 characters shortened to their first and last 30 around `...`
/// (`generateValidName`).
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let joined = format!("{server}_{tool}");
    let base = if joined.starts_with("mcp_") { joined } else { format!("mcp_{joined}") };
    let mut name: String =
        base.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, '_');
    }
    // JavaScript lengths count UTF-16 units; the name is ASCII by now.
    if name.len() > 63 {
        let head = name.get(..30).unwrap_or_default();
        let tail = name.get(name.len() - 30..).unwrap_or_default();
        name = format!("{head}...{tail}");
    }
    name
}

/// The name a Gemini CLI hook sees for the envelope's tool: the host's own name when it is
/// already a Gemini tool name (or an `mcp_` name), otherwise the Gemini tool of the same
/// kind.
pub fn gemini_tool_name(tool: &ToolCall) -> String {
    if GEMINI_TOOLS.contains(&tool.name.as_str()) || tool.name.starts_with("mcp_") {
        return tool.name.clone();
    }
    let hint = format!("{} {}", tool.name, tool.native_kind.as_deref().unwrap_or_default())
        .to_ascii_lowercase();
    let has_arg = |k: &str| tool.args.get(k).is_some();
    match tool.kind {
        ToolKind::Shell => "run_shell_command".to_owned(),
        ToolKind::FileRead => {
            if hint.contains("many") || has_arg("include") {
                "read_many_files".to_owned()
            } else if hint.contains("list") || hint.contains("ls") {
                "list_directory".to_owned()
            } else {
                "read_file".to_owned()
            }
        }
        ToolKind::FileWrite => {
            if hint.contains("edit") || hint.contains("replace") || has_arg("old_string") {
                "replace".to_owned()
            } else {
                "write_file".to_owned()
            }
        }
        ToolKind::Search => {
            if hint.contains("glob") || hint.contains("find") {
                "glob".to_owned()
            } else {
                "grep_search".to_owned()
            }
        }
        ToolKind::Web => {
            if hint.contains("search") || has_arg("query") {
                "google_web_search".to_owned()
            } else {
                "web_fetch".to_owned()
            }
        }
        ToolKind::Subagent => "invoke_agent".to_owned(),
        ToolKind::Mcp => match &tool.mcp_server {
            Some(server) => mcp_tool_name(server, &tool.name),
            None => tool.name.clone(),
        },
        ToolKind::Other => tool.name.clone(),
    }
}

/// The value the event's matcher tests, with the defaults the codec sends when the envelope
/// has none.
pub(crate) fn field_value(field: MatchField, envelope: &Envelope) -> Option<String> {
    match field {
        MatchField::ToolName => envelope.tool.as_ref().map(gemini_tool_name),
        MatchField::Source => Some(
            envelope
                .session
                .as_ref()
                .and_then(|s| s.source.clone())
                .unwrap_or_else(|| "startup".to_owned()),
        ),
        MatchField::Reason => Some(
            envelope
                .session
                .as_ref()
                .and_then(|s| s.reason.clone())
                .unwrap_or_else(|| "other".to_owned()),
        ),
        MatchField::Trigger => Some(
            envelope
                .compaction
                .as_ref()
                .and_then(|c| c.trigger.clone())
                .unwrap_or_else(|| "auto".to_owned()),
        ),
        MatchField::None => None,
    }
}

/// The compiled predicate of one group.
#[derive(Debug)]
struct Predicate {
    field: MatchField,
    pattern: Pattern,
}

impl MatchPredicate for Predicate {
    fn matches(&self, envelope: &Envelope) -> bool {
        match field_value(self.field, envelope) {
            // Gemini CLI tests only a non-empty tool name or trigger (`if (context.toolName)`).
            Some(v) if !v.is_empty() => self.pattern.matches(&v),
            _ => true,
        }
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        if self.matches(envelope) {
            return None;
        }
        let what = match self.field {
            MatchField::ToolName => "tool name",
            MatchField::Source => "source",
            MatchField::Reason => "reason",
            MatchField::Trigger => "trigger",
            MatchField::None => "event",
        };
        let value = field_value(self.field, envelope).unwrap_or_default();
        Some(format!("the {what} `{value}` does not match"))
    }
}

/// The definition's matcher: everything, or the compiled pattern with its text.
pub(crate) fn build(event: GeminiEvent, text: &str, pattern: Pattern) -> Matcher {
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
