//! Tests of Codex's event table.

use super::*;

#[test]
fn names_round_trip_and_labels_are_snake_case() {
    for e in CodexEvent::ALL {
        assert_eq!(CodexEvent::from_name(e.as_str()), Some(e));
        let snake: String = e
            .as_str()
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let lower = c.to_ascii_lowercase();
                if c.is_ascii_uppercase() && i > 0 { vec!['_', lower] } else { vec![lower] }
            })
            .collect();
        assert_eq!(e.label(), snake);
    }
    assert_eq!(CodexEvent::from_name("pretooluse"), None);
}

#[test]
fn two_gaps_and_every_canonical_event_maps_back_once() {
    let gaps: Vec<_> = CodexEvent::ALL.into_iter().filter(|e| e.canonical().is_none()).collect();
    assert_eq!(gaps, [CodexEvent::PreModelRequest, CodexEvent::PostModelRequest]);
    for e in CodexEvent::ALL {
        if let Some(c) = e.canonical() {
            assert_eq!(CodexEvent::from_canonical(c), Some(e));
        }
    }
}

#[test]
fn timeouts_as_codex_computes_them() {
    assert_eq!(CodexEvent::PreToolUse.timeout_secs(None), (600, false));
    assert_eq!(CodexEvent::PreToolUse.timeout_secs(Some(0)), (1, false));
    assert_eq!(CodexEvent::PreToolUse.timeout_secs(Some(u64::MAX)), (u64::MAX, false));
    assert_eq!(CodexEvent::SessionEnd.timeout_secs(None), (1, false));
    assert_eq!(CodexEvent::SessionEnd.timeout_secs(Some(2)), (2, false));
    assert_eq!(CodexEvent::SessionEnd.timeout_secs(Some(30)), (3, true));
    assert_eq!(CodexEvent::Interrupt.timeout_secs(Some(0)), (1, false));
    assert_eq!(CodexEvent::Interrupt.timeout(Some(9)), Duration::from_secs(3));
}
