//! Compiled Cursor matchers: a regex tested (unanchored, like JavaScript's `RegExp.test`)
//! against the event's target, plus the tool-kind narrowing of events such as
//! `beforeShellExecution`.

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolKind};
use regex::Regex;
use serde_json::Value;

use crate::events::{NativeEvent, Target};

/// The longest matcher accepted, in bytes.
pub const MAX_MATCHER_LEN: usize = 4096;
/// The compiled size limit handed to the regex engine.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A compiled matcher for one definition.
#[derive(Debug)]
pub(crate) struct CursorMatch {
    narrowing: Option<ToolKind>,
    target: Target,
    regex: Option<Regex>,
}

/// What compiling a matcher produced.
pub(crate) enum Compiled {
    /// The matcher to store.
    Matcher(Matcher),
    /// The regex does not compile.
    Invalid(String),
}

/// Builds the matcher of a definition of `event` whose `matcher` field is `pattern`
/// (`None` when absent, empty, `*`, or ignored for the event).
pub(crate) fn compile(event: &NativeEvent, pattern: Option<&str>) -> Compiled {
    let regex = match pattern {
        None => None,
        Some(p) => {
            if p.len() > MAX_MATCHER_LEN {
                return Compiled::Invalid(format!(
                    "matcher is longer than {MAX_MATCHER_LEN} bytes"
                ));
            }
            match regex::RegexBuilder::new(p).size_limit(REGEX_SIZE_LIMIT).build() {
                Ok(r) => Some(r),
                Err(e) => return Compiled::Invalid(regex_error(&e)),
            }
        }
    };
    if event.narrowing.is_none() && regex.is_none() {
        return Compiled::Matcher(Matcher::all());
    }
    let text = text(event.narrowing, event.target, pattern);
    let predicate = CursorMatch { narrowing: event.narrowing, target: event.target, regex };
    Compiled::Matcher(Matcher::new(text, Arc::new(predicate)))
}

/// The matcher's text: the narrowing and the regex with what it is tested against, so
/// equal texts mean equal behaviour.
fn text(narrowing: Option<ToolKind>, target: Target, pattern: Option<&str>) -> String {
    let mut parts = Vec::new();
    if let Some(k) = narrowing {
        parts.push(format!("tool.kind={}", k.as_str()));
    }
    if let Some(p) = pattern {
        match target {
            Target::Constant(c) => parts.push(format!("{c:?}=~/{p}/")),
            _ => parts.push(format!("{}=~/{p}/", target.label())),
        }
    }
    parts.join(" ")
}

fn regex_error(e: &regex::Error) -> String {
    let detail = e.to_string();
    let last = detail.lines().last().unwrap_or("").trim();
    let first = last.strip_prefix("error: ").unwrap_or(last).to_owned();
    let hint = if detail.contains("look-around") || detail.contains("backreferences") {
        " (look-around and backreferences are not supported)"
    } else {
        ""
    };
    format!("matcher is not a valid regular expression: {first}{hint}")
}

impl CursorMatch {
    /// The value the regex is tested against, `None` when the envelope has none.
    fn subject(&self, envelope: &Envelope) -> Option<String> {
        match self.target {
            Target::ToolType => envelope.tool.as_ref().map(crate::tool_type),
            Target::Command => envelope.tool.as_ref().and_then(|t| shell_command(&t.args)),
            Target::SubagentType => Some(
                envelope.subagent.as_ref().and_then(|s| s.agent_type.clone()).unwrap_or_default(),
            ),
            Target::Constant(c) => Some(c.to_owned()),
            Target::Ignored => None,
        }
    }

    fn explain(&self, envelope: &Envelope) -> Option<String> {
        if let Some(kind) = self.narrowing {
            match &envelope.tool {
                None => {
                    return Some(format!(
                        "the envelope has no tool call (needs a {} tool)",
                        kind.as_str()
                    ));
                }
                Some(t) if t.kind != kind => {
                    return Some(format!(
                        "the tool `{}` is a {} tool, not a {} tool",
                        t.name,
                        t.kind.as_str(),
                        kind.as_str()
                    ));
                }
                Some(_) => {}
            }
        }
        let regex = self.regex.as_ref()?;
        match self.subject(envelope) {
            None => Some(format!("the envelope has no {} to match", self.target.label())),
            Some(s) if regex.is_match(&s) => None,
            Some(s) => {
                Some(format!("{} `{}` does not match /{}/", self.target.label(), s, regex.as_str()))
            }
        }
    }
}

impl MatchPredicate for CursorMatch {
    fn matches(&self, envelope: &Envelope) -> bool {
        self.explain(envelope).is_none()
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        self.explain(envelope)
    }
}

/// The shell command of a shell tool call: `args.command` (or `args.cmd`), or the arguments
/// themselves when they are a string.
pub(crate) fn shell_command(args: &Value) -> Option<String> {
    match args {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("command").or_else(|| o.get("cmd")).and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Array(parts) => {
                Some(parts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "))
            }
            _ => None,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
