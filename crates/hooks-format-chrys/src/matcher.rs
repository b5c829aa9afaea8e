//! Chrys's matcher: an AND of exact clauses and argument tests, evaluated on the envelope as
//! Chrys's payload would carry it.

use std::sync::Arc;

use fancy_regex::Regex;
use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolKind};
use serde_json::Value;

use crate::{load::MatchSpec, pyre, pyval::json_py_str};

/// One compiled `match.args.<name>` test.
#[derive(Debug, Clone)]
struct ArgTest {
    name: String,
    equals: Option<String>,
    contains: Option<String>,
    /// `Err` for a pattern that does not compile: it never matches (Chrys logs it and treats
    /// it as a miss; only disabled hooks keep such a pattern).
    regex: Option<Result<Regex, pyre::CompileError>>,
}

/// A compiled `match` block.
///
/// Semantics (Chrys `matcher.py`): every set clause must hold. `profile` equals the payload's
/// profile; `profiles` (when non-empty) contains it; `tool_kind` and `tool_name` equal the
/// tool's kind and name exactly (events without a tool never match them); each named
/// argument must be present and not null, and after Python `str()` must equal `equals`,
/// contain `contains` and `re.search` `regex`.
#[derive(Debug, Clone)]
pub struct ChrysMatch {
    profile: Option<String>,
    profiles: Vec<String>,
    tool_kind: Option<String>,
    tool_name: Option<String>,
    args: Vec<ArgTest>,
}

/// The kind string Chrys's envelope carries for a tool: the host's `native_kind` when it
/// gives one, otherwise the Chrys kind closest to the canonical kind (`None` for
/// [`ToolKind::Other`], which has no Chrys counterpart).
pub fn chrys_tool_kind(tool: &hooks_schema::ToolCall) -> Option<String> {
    if let Some(k) = &tool.native_kind {
        return Some(k.clone());
    }
    let k = match tool.kind {
        ToolKind::Shell => "shell",
        ToolKind::FileRead => "filesystem.read",
        ToolKind::FileWrite => "filesystem.write",
        ToolKind::Search => "search",
        ToolKind::Web => "web_search",
        ToolKind::Mcp => "mcp",
        ToolKind::Subagent => "sub_agent",
        ToolKind::Other => return None,
    };
    Some(k.to_owned())
}

impl ChrysMatch {
    /// Compiles a validated `match` block, with the reason the first regex that does not
    /// compile gives, in Chrys's words.
    pub(crate) fn compile(spec: &MatchSpec) -> (ChrysMatch, Option<String>) {
        let mut args = Vec::with_capacity(spec.args.len());
        let mut first_error = None;
        for a in &spec.args {
            let regex = a.regex.as_ref().map(|p| pyre::compile(p));
            if let Some(Err(e)) = &regex
                && first_error.is_none()
            {
                first_error = Some(format!(
                    "match.args.{}.regex is not a valid regular expression: {e}",
                    a.name
                ));
            }
            args.push(ArgTest {
                name: a.name.clone(),
                equals: a.equals.clone(),
                contains: a.contains.clone(),
                regex,
            });
        }
        let m = ChrysMatch {
            profile: spec.profile.clone(),
            profiles: spec.profiles.clone(),
            tool_kind: spec.tool_kind.clone(),
            tool_name: spec.tool_name.clone(),
            args,
        };
        (m, first_error)
    }

    /// The first clause that fails, described; `None` when every clause holds.
    fn first_mismatch(&self, env: &Envelope) -> Option<String> {
        // Chrys's payload always carries a profile string; an envelope without one is "".
        let profile = env.profile.as_deref().unwrap_or("");
        if let Some(p) = &self.profile
            && p != profile
        {
            return Some(format!("profile {profile:?} is not {p:?}"));
        }
        if !self.profiles.is_empty() && !self.profiles.iter().any(|p| p == profile) {
            return Some(format!("profile {profile:?} is not one of {:?}", self.profiles));
        }
        let tool = env.tool.as_ref();
        if let Some(k) = &self.tool_kind {
            let kind = tool.and_then(chrys_tool_kind);
            if kind.as_deref() != Some(k.as_str()) {
                return Some(format!("tool kind {kind:?} is not {k:?}"));
            }
        }
        if let Some(n) = &self.tool_name {
            let name = tool.map(|t| t.name.as_str());
            if name != Some(n.as_str()) {
                return Some(format!("tool name {name:?} is not {n:?}"));
            }
        }
        if self.args.is_empty() {
            return None;
        }
        let args = tool.map(|t| &t.args);
        let obj = match args {
            Some(Value::Object(o)) => Some(o),
            // `tool.get("args") or {}`: a falsy value is an empty mapping, anything else
            // that is not a mapping never matches.
            None | Some(Value::Null | Value::Bool(false)) => None,
            Some(Value::Array(a)) if a.is_empty() => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::Number(n)) if n.as_f64() == Some(0.0) => None,
            Some(_) => return Some("the tool arguments are not a mapping".to_owned()),
        };
        for a in &self.args {
            let value = obj.and_then(|o| o.get(&a.name)).filter(|v| !v.is_null());
            let Some(value) = value else {
                return Some(format!("argument {:?} is missing", a.name));
            };
            let text = json_py_str(value);
            if let Some(e) = &a.equals
                && &text != e
            {
                return Some(format!("argument {:?} does not equal {e:?}", a.name));
            }
            if let Some(c) = &a.contains
                && !text.contains(c.as_str())
            {
                return Some(format!("argument {:?} does not contain {c:?}", a.name));
            }
            match &a.regex {
                Some(Ok(r)) if !pyre::search(r, &text) => {
                    return Some(format!("argument {:?} does not match /{}/", a.name, r.as_str()));
                }
                Some(Err(e)) => return Some(format!("argument {:?}: invalid regex ({e})", a.name)),
                _ => {}
            }
        }
        None
    }
}

impl MatchPredicate for ChrysMatch {
    fn matches(&self, envelope: &Envelope) -> bool {
        self.first_mismatch(envelope).is_none()
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        self.first_mismatch(envelope)
    }
}

/// The canonical text of a `match` block: compact JSON of the set clauses in a fixed key
/// order, arguments in file order. Two blocks with equal text match the same envelopes.
pub(crate) fn match_text(spec: &MatchSpec) -> String {
    let mut m = serde_json::Map::new();
    if let Some(p) = &spec.profile {
        m.insert("profile".into(), Value::String(p.clone()));
    }
    if !spec.profiles.is_empty() {
        m.insert("profiles".into(), Value::from(spec.profiles.clone()));
    }
    if let Some(k) = &spec.tool_kind {
        m.insert("tool_kind".into(), Value::String(k.clone()));
    }
    if let Some(n) = &spec.tool_name {
        m.insert("tool_name".into(), Value::String(n.clone()));
    }
    if !spec.args.is_empty() {
        let mut args = serde_json::Map::new();
        for a in &spec.args {
            let mut ops = serde_json::Map::new();
            for (k, v) in [("equals", &a.equals), ("contains", &a.contains), ("regex", &a.regex)] {
                if let Some(v) = v {
                    ops.insert(k.into(), Value::String(v.clone()));
                }
            }
            args.insert(a.name.clone(), Value::Object(ops));
        }
        m.insert("args".into(), Value::Object(args));
    }
    Value::Object(m).to_string()
}

/// The definition's [`Matcher`] (everything for an empty block, else the compiled
/// predicate) and the reason its first regex does not compile, if one does not.
pub(crate) fn build(spec: &MatchSpec) -> (Matcher, Option<String>) {
    if spec.is_empty() {
        return (Matcher::all(), None);
    }
    let (compiled, error) = ChrysMatch::compile(spec);
    (Matcher::new(match_text(spec), Arc::new(compiled)), error)
}

#[cfg(test)]
mod tests;
