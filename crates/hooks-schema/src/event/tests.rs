//! Tests of the canonical event set.

use super::*;

#[test]
fn names_round_trip_through_from_str_and_serde() {
    for e in HookEvent::ALL {
        assert_eq!(e.as_str().parse::<HookEvent>().unwrap(), e);
        assert_eq!(serde_json::to_value(e).unwrap(), serde_json::json!(e.as_str()));
        assert_eq!(e.to_string(), e.as_str());
    }
    assert!("PreToolUse".parse::<HookEvent>().is_err());
}

#[test]
fn all_lists_every_variant_once() {
    let mut names: Vec<&str> = HookEvent::ALL.iter().map(|e| e.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), HookEvent::ALL.len());
}

#[test]
fn gated_events_are_the_ones_a_hook_may_deny() {
    let gated: Vec<HookEvent> = HookEvent::ALL.into_iter().filter(|e| e.is_gated()).collect();
    assert_eq!(
        gated,
        [
            HookEvent::PromptSubmit,
            HookEvent::PreToolUse,
            HookEvent::ApprovalRequested,
            HookEvent::SubagentStart,
            HookEvent::PreCompact
        ]
    );
    assert!(HookEvent::PreToolUse.carries_tool());
    assert!(!HookEvent::Stop.carries_tool());
}
