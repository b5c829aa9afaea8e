//! Tests of matcher equality and evaluation.

use std::sync::Arc;

use super::*;
use crate::HookEvent;

#[derive(Debug)]
struct ToolNamed(&'static str);

impl MatchPredicate for ToolNamed {
    fn matches(&self, e: &Envelope) -> bool {
        e.tool.as_ref().is_some_and(|t| t.name == self.0)
    }
}

#[test]
fn all_matches_everything_and_predicates_decide_otherwise() {
    let e = Envelope::new(HookEvent::PreToolUse);
    assert!(Matcher::all().matches(&e));
    assert!(Matcher::all().is_all());
    assert_eq!(Matcher::all().mismatch(&e), None);
    let m = Matcher::new("Bash", Arc::new(ToolNamed("Bash")));
    assert!(!m.matches(&e));
    assert_eq!(m.mismatch(&e).as_deref(), Some("the matcher does not match"));
    assert_eq!(m.text(), Some("Bash"));
}

#[test]
fn equality_follows_the_text() {
    let a = Matcher::new("Bash", Arc::new(ToolNamed("Bash")));
    let b = Matcher::new("Bash", Arc::new(ToolNamed("Bash")));
    assert_eq!(a, b);
    assert_ne!(a, Matcher::all());
    assert_eq!(format!("{a:?}"), "Matcher(\"Bash\")");
}
