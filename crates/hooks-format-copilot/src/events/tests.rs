//! Tests of the event table: both spellings resolve, the gaps have no canonical event, and
//! every canonical event maps back to the event it came from.

use super::*;

#[test]
fn both_spellings_name_the_same_event() {
    for e in CopilotEvent::ALL {
        assert_eq!(CopilotEvent::from_name(e.camel()), Some((e, Dialect::Camel)));
        if let Some(p) = e.pascal() {
            assert_eq!(CopilotEvent::from_name(p), Some((e, Dialect::Pascal)));
            assert_eq!(e.name(Dialect::Pascal), p);
        }
        assert_eq!(e.name(Dialect::Camel), e.camel());
    }
    assert_eq!(CopilotEvent::from_name("Stop"), Some((CopilotEvent::AgentStop, Dialect::Pascal)));
    assert_eq!(CopilotEvent::from_name("stop"), None);
    assert_eq!(CopilotEvent::from_name("PreToolUSE"), None);
    assert_eq!(CopilotEvent::from_name("userPromptSubmit"), None);
}

#[test]
fn gaps_and_round_trips() {
    let gaps: Vec<_> = CopilotEvent::ALL
        .into_iter()
        .filter(|e| e.canonical().is_none())
        .map(|e| e.camel())
        .collect();
    assert_eq!(gaps, ["userPromptTransformed", "errorOccurred", "preMcpToolCall"]);
    for e in CopilotEvent::ALL {
        if let Some(c) = e.canonical() {
            assert_eq!(CopilotEvent::from_canonical(c), Some(e));
        }
    }
}

#[test]
fn permission_request_always_gets_the_camel_payload() {
    assert_eq!(CopilotEvent::PermissionRequest.payload_dialect(Dialect::Pascal), Dialect::Camel);
    assert_eq!(CopilotEvent::PreToolUse.payload_dialect(Dialect::Pascal), Dialect::Pascal);
}
