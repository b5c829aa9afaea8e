//! Codex matchers: match-all, exact names, or an unanchored regular expression.
//!
//! A group's `matcher` is read as Codex 0.169.0 reads it: absent, `""` or `"*"` matches
//! everything; a string made only of ASCII letters, digits, `_` and `|` is a list of exact
//! names; anything else is an unanchored regular expression of the `regex` crate (the engine
//! Codex uses, so the syntax and the "invalid matcher" cases are the same). On tool events
//! the tool's name and its aliases are tested: `apply_patch` is also matched by `Edit` and by
//! `Write`. Codex drops the matcher on events without matcher support (see
//! [`CodexEvent::keeps_matcher`]).

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolCall, ToolKind};

use crate::{CodexEvent, events::MatchField};

/// The longest matcher accepted, in bytes; a longer one is an invalid matcher.
pub const MAX_MATCHER_LEN: usize = 4096;

/// The name Codex gives its file-editing tool.
pub const APPLY_PATCH: &str = "apply_patch";

/// The name Codex gives its shell tools in hook payloads.
pub const SHELL_TOOL: &str = "Bash";

/// Codex's own tool names for the shell, which hooks see as [`SHELL_TOOL`].
const SHELL_NATIVE: [&str; 4] = ["exec_command", "shell_command", "shell", "local_shell"];

/// A matcher string as Codex reads it.
#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    /// Absent, `""` or `"*"`.
    All,
    /// `|`-separated exact names.
    Exact(Vec<String>),
    /// An unanchored regular expression.
    Regex(Arc<regex::Regex>),
}

/// A matcher Codex rejects: the group is skipped with a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{why}")]
pub struct MatcherError {
    /// The regex engine's message (Codex prints it after the matcher).
    pub why: String,
}

fn is_exact(text: &str) -> bool {
    text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
}

impl Pattern {
    /// Reads a matcher string.
    pub(crate) fn compile(text: &str) -> Result<Pattern, MatcherError> {
        if text.is_empty() || text == "*" {
            return Ok(Pattern::All);
        }
        if is_exact(text) {
            return Ok(Pattern::Exact(text.split('|').map(str::to_owned).collect()));
        }
        if text.len() > MAX_MATCHER_LEN {
            return Err(MatcherError {
                why: format!("the matcher is longer than {MAX_MATCHER_LEN} bytes"),
            });
        }
        regex::Regex::new(text)
            .map(|r| Pattern::Regex(Arc::new(r)))
            .map_err(|e| MatcherError { why: e.to_string() })
    }

    fn matches(&self, value: &str) -> bool {
        match self {
            Pattern::All => true,
            Pattern::Exact(names) => names.iter().any(|n| n == value),
            Pattern::Regex(r) => r.is_match(value),
        }
    }
}

/// The tool name a Codex hook sees for the envelope's tool: `Bash` for a shell, `apply_patch`
/// for a file edit, `mcp__<server>__<tool>` for an MCP tool, the host's own name otherwise.
pub fn codex_tool_name(tool: &ToolCall) -> String {
    let name = tool.name.as_str();
    if name == SHELL_TOOL || name == APPLY_PATCH || name.starts_with("mcp__") {
        return name.to_owned();
    }
    if SHELL_NATIVE.contains(&name) {
        return SHELL_TOOL.to_owned();
    }
    match tool.kind {
        ToolKind::Shell => SHELL_TOOL.to_owned(),
        ToolKind::FileWrite => APPLY_PATCH.to_owned(),
        ToolKind::Mcp => match &tool.mcp_server {
            Some(server) => format!("mcp__{server}__{name}"),
            None => name.to_owned(),
        },
        _ => name.to_owned(),
    }
}

/// The other names a matcher may use for a tool (`Edit` and `Write` for `apply_patch`).
pub fn tool_aliases(name: &str) -> &'static [&'static str] {
    if name == APPLY_PATCH { &["Edit", "Write"] } else { &[] }
}

/// A compiled matcher with what it tests.
#[derive(Debug)]
struct Predicate {
    pattern: Pattern,
    field: MatchField,
}

impl Predicate {
    /// The values tested, the first being the one shown in explanations.
    fn inputs(&self, envelope: &Envelope) -> Vec<String> {
        let one = |v: Option<&String>| v.cloned().into_iter().collect::<Vec<_>>();
        match self.field {
            MatchField::ToolName => match &envelope.tool {
                Some(tool) => {
                    let name = codex_tool_name(tool);
                    let aliases = tool_aliases(&name).iter().map(|a| (*a).to_owned());
                    std::iter::once(name.clone()).chain(aliases).collect()
                }
                None => Vec::new(),
            },
            MatchField::SessionSource => {
                one(envelope.session.as_ref().and_then(|s| s.source.as_ref()))
            }
            MatchField::SessionReason => {
                one(envelope.session.as_ref().and_then(|s| s.reason.as_ref()))
            }
            MatchField::CompactionTrigger => {
                one(envelope.compaction.as_ref().and_then(|c| c.trigger.as_ref()))
            }
            MatchField::AgentType => {
                one(envelope.subagent.as_ref().and_then(|s| s.agent_type.as_ref()))
            }
            MatchField::None => Vec::new(),
        }
    }

    fn what(&self) -> &'static str {
        match self.field {
            MatchField::ToolName => "tool name",
            MatchField::SessionSource => "session source",
            MatchField::SessionReason => "session end reason",
            MatchField::CompactionTrigger => "compaction trigger",
            MatchField::AgentType => "subagent type",
            MatchField::None => "nothing",
        }
    }
}

impl MatchPredicate for Predicate {
    fn matches(&self, envelope: &Envelope) -> bool {
        if matches!(self.pattern, Pattern::All) {
            return true;
        }
        self.inputs(envelope).iter().any(|v| self.pattern.matches(v))
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        if self.matches(envelope) {
            return None;
        }
        let inputs = self.inputs(envelope);
        Some(match inputs.first() {
            None => format!("the envelope has no {} to match", self.what()),
            Some(_) => format!("the {} {:?} does not match", self.what(), inputs.join(" / ")),
        })
    }
}

/// The matcher of a group of `event` with text `text` as Codex keeps it: `None` for an
/// event that drops matchers or a match-all text, otherwise the compiled predicate.
///
/// # Errors
/// A matcher Codex rejects (the group is skipped).
pub(crate) fn build(event: CodexEvent, text: Option<&str>) -> Result<Matcher, MatcherError> {
    let Some(text) = text.filter(|_| event.keeps_matcher()) else {
        return Ok(Matcher::all());
    };
    let pattern = Pattern::compile(text)?;
    Ok(Matcher::new(text, Arc::new(Predicate { pattern, field: event.match_field() })))
}

#[cfg(test)]
mod tests;
