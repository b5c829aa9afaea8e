//! Windsurf has no matchers: every hook of an event runs. An event that narrows a canonical
//! event to one kind of tool (`pre_run_command` is a pre-tool-use of a shell tool) gets a
//! matcher on the tool kind, so the definition fires only for that kind of tool.

use std::sync::Arc;

use hooks_schema::{Envelope, MatchPredicate, Matcher, ToolKind};

#[derive(Debug)]
struct Kind(ToolKind);

impl MatchPredicate for Kind {
    fn matches(&self, envelope: &Envelope) -> bool {
        envelope.tool.as_ref().is_some_and(|t| t.kind == self.0)
    }

    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        match &envelope.tool {
            None => {
                Some(format!("the envelope has no tool call (needs a {} tool)", self.0.as_str()))
            }
            Some(t) if t.kind != self.0 => Some(format!(
                "the tool `{}` is a {} tool, not a {} tool",
                t.name,
                t.kind.as_str(),
                self.0.as_str()
            )),
            Some(_) => None,
        }
    }
}

/// The matcher of a definition of an event narrowed to `kind` (everything without one).
pub(crate) fn narrowed(kind: Option<ToolKind>) -> Matcher {
    match kind {
        None => Matcher::all(),
        Some(k) => Matcher::new(format!("tool.kind={}", k.as_str()), Arc::new(Kind(k))),
    }
}
