//! Round-trip tests for every serde type of the envelope.

use proptest::prelude::*;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::json;

use super::*;

#[track_caller]
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
    let text = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, value, "{text}");
}

fn full() -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("s1".into());
    e.turn_id = Some("g7".into());
    e.cwd = Some("/repo/sub".into());
    e.workspace_roots = vec!["/repo".into()];
    e.profile = Some("Code".into());
    e.model = Some("m-1".into());
    e.transcript_path = Some("/tmp/t.jsonl".into());
    e.permission_mode = Some("default".into());
    e.timestamp = Some("2026-11-30T01:02:03Z".into());
    e.tool = Some(ToolCall {
        name: "Bash".into(),
        kind: ToolKind::Shell,
        native_kind: Some("shell".into()),
        call_id: Some("c1".into()),
        mcp_server: None,
        args: json!({"command": "rm -rf /", "timeout": 30.0, "flags": [true, null]}),
    });
    e.result = Some(ToolResult {
        text: Some("ok".into()),
        output: Some(json!({"stdout": "x"})),
        error: Some("boom".into()),
        duration_ms: Some(12),
        exit_code: Some(3),
        failed: true,
        interrupted: true,
        approval_rejected: true,
    });
    e.prompt = Some(Prompt {
        text: "hi".into(),
        injected: true,
        attachments: vec![json!({"type": "file"})],
    });
    e.session = Some(SessionInfo {
        source: Some("resume".into()),
        reason: Some("exit".into()),
        restored_session_id: Some("s0".into()),
        is_background: Some(false),
        duration_ms: Some(5),
    });
    e.turn = Some(TurnInfo {
        number: Some(2),
        status: Some("ok".into()),
        user_text: Some("u".into()),
        is_retry: Some(true),
    });
    e.approval = Some(Approval {
        request_id: Some("r".into()),
        caller_name: Some("c".into()),
        approved: Some(true),
    });
    e.subagent = Some(Subagent {
        id: Some("a".into()),
        agent_type: Some("explore".into()),
        name: Some("n".into()),
        task: Some("t".into()),
        parent_call_id: Some("p".into()),
        status: Some("completed".into()),
        summary: Some("s".into()),
    });
    e.compaction = Some(Compaction {
        trigger: Some("auto".into()),
        usage_pct: Some(91.5),
        tokens_before: Some(1000),
        custom_instructions: Some("keep".into()),
    });
    e.stop = Some(StopInfo {
        status: Some("completed".into()),
        loop_count: Some(1),
        last_message: Some("bye".into()),
        stop_hook_active: true,
    });
    e.notification = Some(Notification {
        kind: Some("idle_prompt".into()),
        message: Some("m".into()),
        title: Some("t".into()),
    });
    e.text = Some(AgentText { text: "answer".into(), duration_ms: Some(3) });
    e.workflow = Some(WorkflowRun {
        run_id: Some("w".into()),
        input_text: Some("i".into()),
        outcome: Some("ok".into()),
        reason: Some("r".into()),
    });
    e.extra.insert("cursor_version".into(), json!("1.7"));
    e
}

#[test]
fn a_minimal_envelope_round_trips() {
    for event in HookEvent::ALL {
        round_trip(&Envelope::new(event));
    }
}

#[test]
fn a_full_envelope_round_trips() {
    round_trip(&full());
}

#[test]
fn every_group_round_trips_on_its_own() {
    let e = full();
    round_trip(e.tool.as_ref().unwrap());
    round_trip(e.result.as_ref().unwrap());
    round_trip(e.prompt.as_ref().unwrap());
    round_trip(e.session.as_ref().unwrap());
    round_trip(e.turn.as_ref().unwrap());
    round_trip(e.approval.as_ref().unwrap());
    round_trip(e.subagent.as_ref().unwrap());
    round_trip(e.compaction.as_ref().unwrap());
    round_trip(e.stop.as_ref().unwrap());
    round_trip(e.notification.as_ref().unwrap());
    round_trip(e.text.as_ref().unwrap());
    round_trip(e.workflow.as_ref().unwrap());
    for kind in [
        ToolKind::Shell,
        ToolKind::FileRead,
        ToolKind::FileWrite,
        ToolKind::Mcp,
        ToolKind::Search,
        ToolKind::Web,
        ToolKind::Subagent,
        ToolKind::Other,
    ] {
        round_trip(&kind);
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.as_str()));
    }
}

#[test]
fn the_wire_shape_is_stable() {
    let mut e = Envelope::new(HookEvent::PromptSubmit);
    e.prompt = Some(Prompt { text: "hi".into(), ..Prompt::default() });
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"schema": 1, "event": "prompt_submit", "prompt": {"text": "hi", "injected": false}})
    );
}

#[test]
fn schema_defaults_to_one_and_unknown_fields_are_rejected() {
    let e: Envelope = serde_json::from_value(json!({"event": "stop"})).unwrap();
    assert_eq!(e.schema, ENVELOPE_SCHEMA);
    let err = serde_json::from_value::<Envelope>(json!({"event": "stop", "sesion_id": "typo"}))
        .unwrap_err();
    assert!(err.to_string().contains("sesion_id"), "{err}");
    let err = serde_json::from_value::<Envelope>(json!({"event": "nope"})).unwrap_err();
    assert!(err.to_string().contains("nope"), "{err}");
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = serde_json::from_str::<Envelope>(&text);
    }

    #[test]
    fn generated_envelopes_round_trip(
        event in prop::sample::select(HookEvent::ALL.to_vec()),
        session in proptest::option::of("[a-z0-9-]{0,12}"),
        name in "[A-Za-z_]{1,12}",
        cmd in ".{0,40}",
        n in any::<i64>(),
    ) {
        let mut e = Envelope::new(event);
        e.session_id = session;
        e.tool = Some(ToolCall {
            name,
            kind: ToolKind::Other,
            native_kind: None,
            call_id: None,
            mcp_server: None,
            args: json!({"command": cmd, "n": n}),
        });
        let text = serde_json::to_string(&e).unwrap();
        let back: Envelope = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, e);
    }
}
