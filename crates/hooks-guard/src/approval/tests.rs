//! Tests for the approval order: the guard first, then the auto-approval shortcut; the mode
//! never changes the guard's decision.

use std::path::PathBuf;

use crate::{EditApproval, EditContext, GuardDecision, approve_edit, test_tree::Tree};

/// Every combination of the three mode flags.
fn every_context() -> Vec<EditContext> {
    let mut out = Vec::new();
    for bits in 0..8u8 {
        out.push(EditContext {
            sandboxed: bits & 1 != 0,
            auto_approve_writes: bits & 2 != 0,
            conversation_auto_approves_all: bits & 4 != 0,
        });
    }
    out
}

#[test]
fn no_context_changes_the_decision_or_auto_applies_a_protected_path() {
    let tree = Tree::new();
    let set = tree.set();
    let protected = [PathBuf::from(".cursor/hooks.json")];
    let decision = set.check(&protected, &tree.cwd);
    assert!(matches!(decision, GuardDecision::Protected(_)));
    for context in every_context() {
        assert_eq!(
            approve_edit(&set, &protected, &tree.cwd, context),
            EditApproval::Guarded(decision.clone()),
            "{context:?}"
        );
    }
}

#[test]
fn an_allowed_edit_follows_the_mode() {
    let tree = Tree::new();
    let set = tree.set();
    let beside = [PathBuf::from("src/main.rs")];
    for context in every_context() {
        let expected = if context.auto_approve_writes || context.conversation_auto_approves_all {
            EditApproval::AutoApply
        } else {
            EditApproval::AskUser
        };
        assert_eq!(approve_edit(&set, &beside, &tree.cwd, context), expected, "{context:?}");
    }
}

#[test]
fn sandboxing_alone_does_not_auto_approve() {
    let context = EditContext { sandboxed: true, ..EditContext::default() };
    assert!(!context.auto_approves());
}

#[test]
fn an_unresolvable_edit_is_guarded_in_every_mode() {
    let set = Tree::new().set();
    for context in every_context() {
        let approval = approve_edit(&set, &["a.txt"], std::path::Path::new("relative"), context);
        assert!(
            matches!(approval, EditApproval::Guarded(GuardDecision::Unresolved(_))),
            "{context:?}: {approval:?}"
        );
    }
}
