//! Claude Code matchers: exact names, lists and unanchored regexes, plus the `if` rule.
//!
//! A group's `matcher` is read as Claude Code reads it: `*`, empty or absent matches
//! everything; a string made only of letters, digits, `_`, `-`, spaces, `,` and `|` is an
//! exact name or a list; anything else is an unanchored regular expression (JavaScript's
//! `RegExp.test`, here `fancy-regex`, which supports the same look-around and back-reference
//! syntax). Which envelope field the matcher tests depends on the event.

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolCall, ToolKind};
use serde_json::Value;

use crate::events::{MatchField, NativeEvent};

/// The longest matcher or `if` rule accepted, in bytes.
pub const MAX_MATCHER_LEN: usize = 4096;

/// Backtracking budget of a matcher regex; a match that exceeds it counts as a match, so a
/// gate hook still runs.
const BACKTRACK_LIMIT: usize = 100_000;

/// A matcher string as Claude Code reads it.
#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    /// `*`, empty or absent.
    All,
    /// One exact name or a `|`/`,` separated list.
    Exact(Vec<String>),
    /// An unanchored regular expression.
    Regex(Arc<fancy_regex::Regex>),
}

/// Why a matcher or `if` rule was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatcherError {
    /// A matcher that is neither an exact list nor a valid regular expression.
    #[error("matcher `{text}` is not a valid regular expression: {why}")]
    Regex {
        /// The matcher.
        text: String,
        /// The regex engine's message.
        why: String,
    },
    /// A matcher or rule above [`MAX_MATCHER_LEN`].
    #[error("matcher is longer than {MAX_MATCHER_LEN} bytes")]
    TooLong,
    /// An `if` rule that is not `Tool` or `Tool(pattern)`.
    #[error(
        "`if` rule {} is not of the form `Tool` or `Tool(pattern)`",
        hooks_schema::quoted_value("a string", &format!("`{text}`"))
    )]
    IfRule {
        /// The rule.
        text: String,
    },
}

fn is_exact_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|')
}

impl Pattern {
    /// Reads a matcher string.
    pub(crate) fn compile(text: &str) -> Result<Pattern, MatcherError> {
        if text.len() > MAX_MATCHER_LEN {
            return Err(MatcherError::TooLong);
        }
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Pattern::All);
        }
        if text.chars().all(is_exact_char) {
            let names: Vec<String> = text
                .split(['|', ','])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            return Ok(Pattern::Exact(names));
        }
        fancy_regex::RegexBuilder::new(text)
            .backtrack_limit(BACKTRACK_LIMIT)
            .build()
            .map(|r| Pattern::Regex(Arc::new(r)))
            .map_err(|e| MatcherError::Regex { text: text.to_owned(), why: e.to_string() })
    }

    fn matches(&self, value: &str) -> bool {
        match self {
            Pattern::All => true,
            Pattern::Exact(names) => names.iter().any(|n| n == value),
            // A regex that exhausts its budget counts as a match: the hook runs.
            Pattern::Regex(r) => r.is_match(value).unwrap_or(true),
        }
    }
}

/// Claude Code's tool names, recognised as already native in an envelope.
const CLAUDE_TOOLS: [&str; 16] = [
    "Bash",
    "BashOutput",
    "KillShell",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Grep",
    "Glob",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
];

/// The name a Claude Code hook sees for the envelope's tool: the host's own name when it is
/// already a Claude tool name or an `mcp__` name, otherwise a name derived from the kind.
pub fn claude_tool_name(tool: &ToolCall) -> String {
    if CLAUDE_TOOLS.contains(&tool.name.as_str()) || tool.name.starts_with("mcp__") {
        return tool.name.clone();
    }
    let hint = format!("{} {}", tool.name, tool.native_kind.as_deref().unwrap_or_default())
        .to_ascii_lowercase();
    let has_arg = |k: &str| tool.args.get(k).is_some();
    match tool.kind {
        ToolKind::Shell => "Bash".to_owned(),
        ToolKind::FileRead => "Read".to_owned(),
        ToolKind::FileWrite => {
            if hint.contains("edit") || hint.contains("replace") || has_arg("old_string") {
                "Edit".to_owned()
            } else {
                "Write".to_owned()
            }
        }
        ToolKind::Search => {
            if hint.contains("glob") || hint.contains("find") {
                "Glob".to_owned()
            } else {
                "Grep".to_owned()
            }
        }
        ToolKind::Web => {
            if hint.contains("search") || has_arg("query") {
                "WebSearch".to_owned()
            } else {
                "WebFetch".to_owned()
            }
        }
        ToolKind::Subagent => "Task".to_owned(),
        ToolKind::Mcp => match &tool.mcp_server {
            Some(server) => format!("mcp__{server}__{}", tool.name),
            None => tool.name.clone(),
        },
        ToolKind::Other => tool.name.clone(),
    }
}

/// The value a matcher of `field` tests, when the envelope carries it.
pub(crate) fn field_value(field: MatchField, envelope: &Envelope) -> Option<String> {
    match field {
        MatchField::ToolName => envelope.tool.as_ref().map(claude_tool_name),
        MatchField::SessionSource => envelope.session.as_ref()?.source.clone(),
        MatchField::SessionReason => envelope.session.as_ref()?.reason.clone(),
        MatchField::NotificationType => envelope.notification.as_ref()?.kind.clone(),
        MatchField::AgentType => envelope.subagent.as_ref()?.agent_type.clone(),
        MatchField::CompactionTrigger => envelope.compaction.as_ref()?.trigger.clone(),
        MatchField::StopStatus => envelope.stop.as_ref()?.status.clone(),
        MatchField::None => None,
    }
}

/// A permission rule in a handler's `if` field: `Tool` or `Tool(pattern)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IfRule {
    tool: String,
    pattern: Option<String>,
}

impl IfRule {
    /// Reads an `if` rule.
    pub(crate) fn parse(text: &str) -> Result<IfRule, MatcherError> {
        if text.len() > MAX_MATCHER_LEN {
            return Err(MatcherError::TooLong);
        }
        let bad = || MatcherError::IfRule { text: text.to_owned() };
        let t = text.trim();
        let (tool, pattern) = match t.find('(') {
            None => (t, None),
            Some(open) => {
                let inner = t.get(open + 1..).and_then(|r| r.strip_suffix(')')).ok_or_else(bad)?;
                (t.get(..open).unwrap_or_default(), Some(inner.to_owned()))
            }
        };
        let tool = tool.trim();
        if tool.is_empty() || !tool.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad());
        }
        Ok(IfRule { tool: tool.to_owned(), pattern })
    }

    /// Whether the rule selects this tool call. Fails open: when the arguments cannot be
    /// read, the rule matches and the hook runs.
    pub(crate) fn matches(&self, tool: &ToolCall) -> bool {
        if claude_tool_name(tool) != self.tool {
            return false;
        }
        let Some(pattern) = self.pattern.as_deref() else { return true };
        if pattern.is_empty() || pattern == "*" {
            return true;
        }
        let arg = |k: &str| tool.args.get(k).and_then(Value::as_str);
        match self.tool.as_str() {
            "Bash" => match arg("command") {
                Some(cmd) => match subcommands(cmd) {
                    Some(subs) => subs.iter().any(|s| command_glob(pattern, s)),
                    None => true,
                },
                None => true,
            },
            "Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => {
                match arg("file_path").or_else(|| arg("notebook_path")).or_else(|| arg("path")) {
                    Some(path) => path_glob(pattern, path),
                    None => true,
                }
            }
            "WebFetch" => match (pattern.strip_prefix("domain:"), arg("url")) {
                (Some(domain), Some(url)) => {
                    url_host(url).is_some_and(|h| h == domain || h.ends_with(&format!(".{domain}")))
                }
                _ => true,
            },
            _ => true,
        }
    }
}

impl std::fmt::Display for IfRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.pattern {
            None => f.write_str(&self.tool),
            Some(p) => write!(f, "{}({p})", self.tool),
        }
    }
}

/// Splits a shell command into simple commands at `;`, `&`, `|`, newlines, and inside `$(…)`
/// and backticks, dropping leading `VAR=value` assignments. `None` when quotes do not balance.
fn subcommands(cmd: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => {
                quote = None;
                cur.push(c);
            }
            (Some('"'), '$') if chars.peek() == Some(&'(') => {
                chars.next();
                out.push(std::mem::take(&mut cur));
            }
            (Some('"'), '`') => out.push(std::mem::take(&mut cur)),
            (Some(_), _) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '\\') => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (None, '$') if chars.peek() == Some(&'(') => {
                chars.next();
                out.push(std::mem::take(&mut cur));
            }
            (None, ';' | '&' | '|' | '\n' | '`' | '(' | ')') => out.push(std::mem::take(&mut cur)),
            (None, _) => cur.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    out.push(cur);
    Some(out.into_iter().map(|s| strip_assignments(s.trim())).filter(|s| !s.is_empty()).collect())
}

fn strip_assignments(s: &str) -> String {
    let mut rest = s;
    loop {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = rest.get(..word_end).unwrap_or_default();
        let is_assignment = word.find('=').is_some_and(|eq| {
            eq > 0
                && word
                    .get(..eq)
                    .is_some_and(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        });
        if !is_assignment || word_end == rest.len() {
            return rest.to_owned();
        }
        rest = rest.get(word_end..).unwrap_or_default().trim_start();
    }
}

/// Claude's command rule pattern: a trailing `:*` is a prefix match, `*` matches any text.
fn command_glob(pattern: &str, cmd: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return cmd == prefix || cmd.starts_with(&format!("{prefix} "));
    }
    glob(pattern.as_bytes(), cmd.as_bytes())
}

/// A path rule: a pattern without `/` tests the file name, otherwise the whole path.
fn path_glob(pattern: &str, path: &str) -> bool {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return glob(pattern.as_bytes(), name.as_bytes());
    }
    let pattern = pattern.strip_prefix("//").map_or(pattern.to_owned(), |p| format!("/{p}"));
    glob(pattern.as_bytes(), path.as_bytes())
        || (!pattern.starts_with('/') && glob(format!("*/{pattern}").as_bytes(), path.as_bytes()))
}

/// `*` matches any run of bytes (`**` too), `?` one byte; iterative, linear in practice.
fn glob(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        match p.get(pi) {
            Some(b'*') => {
                while p.get(pi) == Some(&b'*') {
                    pi += 1;
                }
                star = Some((pi, si));
            }
            Some(&c) if c == b'?' || Some(&c) == s.get(si) => {
                pi += 1;
                si += 1;
            }
            _ => match star {
                Some((sp, ss)) => {
                    pi = sp;
                    si = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|&c| c == b'*')
}

fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    Some(host.split(':').next().unwrap_or(host))
}

/// The compiled predicate of one Claude Code handler: its group's matcher on the event's
/// field, and its `if` rule on tool events.
#[derive(Debug)]
pub(crate) struct ClaudeMatcher {
    pub(crate) event: NativeEvent,
    pub(crate) pattern: Pattern,
    pub(crate) if_rule: Option<IfRule>,
}

impl MatchPredicate for ClaudeMatcher {
    fn matches(&self, envelope: &Envelope) -> bool {
        self.mismatch(envelope).is_none()
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        let field = self.event.match_field();
        if !matches!(self.pattern, Pattern::All) && field != MatchField::None {
            match field_value(field, envelope) {
                None => {
                    return Some(format!(
                        "the envelope has no value for the {} matcher",
                        self.event.as_str()
                    ));
                }
                Some(v) if !self.pattern.matches(&v) => {
                    return Some(format!("the matcher does not match `{v}`"));
                }
                Some(_) => {}
            }
        }
        if let (Some(rule), Some(tool)) = (&self.if_rule, envelope.tool.as_ref())
            && self.event.is_tool_event()
            && !rule.matches(tool)
        {
            return Some(format!("the `if` rule `{rule}` does not match"));
        }
        None
    }
}

/// Builds a definition's [`Matcher`]: the text is the group matcher, followed by ` if <rule>`
/// when the handler has one, so a change to either is a change of the definition.
pub(crate) fn build(
    event: NativeEvent,
    text: Option<&str>,
    pattern: Pattern,
    if_rule: Option<IfRule>,
) -> Matcher {
    let effective_pattern =
        if event.match_field() == MatchField::None { Pattern::All } else { pattern };
    let if_rule = if_rule.filter(|_| event.is_tool_event());
    let pattern_text = match effective_pattern {
        Pattern::All => None,
        _ => text,
    };
    if pattern_text.is_none() && if_rule.is_none() {
        return Matcher::all();
    }
    // The `if` rule is listed only with `--reveal`: it may quote what it looks for.
    let rule = |r: &IfRule| hooks_schema::quoted_value("`if` rule", &r.to_string());
    let display = match (pattern_text, &if_rule) {
        (Some(t), Some(r)) => format!("{t} if {}", rule(r)),
        (Some(t), None) => t.to_owned(),
        (None, Some(r)) => format!("* if {}", rule(r)),
        (None, None) => String::new(),
    };
    Matcher::new(display, Arc::new(ClaudeMatcher { event, pattern: effective_pattern, if_rule }))
}

#[cfg(test)]
mod tests;
