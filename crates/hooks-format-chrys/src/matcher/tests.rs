//! Tests for the matcher, against what Chrys 0.32.0's own `matcher.matches` answered for the
//! same file and payloads (recorded with the differential oracle).

use std::path::Path;

use hooks_schema::{Envelope, HookEvent, ToolCall, ToolKind};
use serde_json::{Value, json};

use crate::{chrys_tool_kind, parse};

fn envelope(profile: &str, tool: Option<(&str, &str, Value)>) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.profile = Some(profile.to_owned());
    e.tool = tool.map(|(name, kind, args)| ToolCall {
        name: name.to_owned(),
        kind: ToolKind::Other,
        native_kind: Some(kind.to_owned()),
        call_id: None,
        mcp_server: None,
        args,
    });
    e
}

#[test]
fn matches_what_chrys_matches() {
    let text = include_bytes!("../../test_data/match/hooks.yaml");
    let src = parse(text, Path::new("/p/hooks.yaml")).expect("loads");
    let cases: Vec<(Envelope, &[&str])> = vec![
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": true})))),
            &["bool-true", "present", "kind", "name", "profiles"],
        ),
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": 30.0})))),
            &["float", "present", "kind", "name", "profiles"],
        ),
        (
            envelope("QA", Some(("x", "shell", json!({"v": ["a", "b"]})))),
            &["list", "present", "contains", "profiles"],
        ),
        (
            envelope("", Some(("x", "shell", json!({"v": {"a": 1}})))),
            &["dict", "present", "contains", "profile-empty"],
        ),
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": null})))),
            &["kind", "name", "profiles"],
        ),
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!({})))),
            &["kind", "name", "profiles"],
        ),
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": "ab\n"})))),
            &["present", "contains", "regex-end", "kind", "name", "profiles"],
        ),
        (
            envelope("Code", Some(("edit_file", "filesystem.write", json!("str")))),
            &["kind", "name", "profiles"],
        ),
        (envelope("Code", None), &["profiles"]),
    ];
    for (i, (env, want)) in cases.iter().enumerate() {
        let got: Vec<&str> = src
            .definitions
            .iter()
            .filter(|d| d.matcher.matches(env))
            .map(|d| d.id.as_str())
            .collect();
        assert_eq!(&got, want, "payload {}", i + 1);
    }
}

#[test]
fn and_of_clauses_and_mismatch_reasons() {
    let text = include_bytes!("../../test_data/match/hooks.yaml");
    let src = parse(text, Path::new("/p/hooks.yaml")).expect("loads");
    let and = src.definitions.iter().find(|d| d.id.as_str() == "and").expect("and");
    let ok = envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": ["a"]}))));
    assert!(and.matcher.matches(&ok));
    assert_eq!(and.matcher.mismatch(&ok), None);
    let wrong = envelope("Code", Some(("edit_file", "filesystem.write", json!({"v": "a"}))));
    assert_eq!(
        and.matcher.mismatch(&wrong).as_deref(),
        Some("argument \"v\" does not match /^\\[/")
    );
    let other_profile =
        envelope("QA", Some(("edit_file", "filesystem.write", json!({"v": ["a"]}))));
    assert_eq!(
        and.matcher.mismatch(&other_profile).as_deref(),
        Some("profile \"QA\" is not \"Code\"")
    );
}

#[test]
fn canonical_kinds_map_to_chrys_kinds() {
    let kind = |k: ToolKind, native: Option<&str>| {
        chrys_tool_kind(&ToolCall {
            name: "t".into(),
            kind: k,
            native_kind: native.map(str::to_owned),
            call_id: None,
            mcp_server: None,
            args: Value::Null,
        })
    };
    assert_eq!(kind(ToolKind::Shell, None).as_deref(), Some("shell"));
    assert_eq!(kind(ToolKind::FileRead, None).as_deref(), Some("filesystem.read"));
    assert_eq!(kind(ToolKind::FileWrite, None).as_deref(), Some("filesystem.write"));
    assert_eq!(kind(ToolKind::Search, None).as_deref(), Some("search"));
    assert_eq!(kind(ToolKind::Web, None).as_deref(), Some("web_search"));
    assert_eq!(kind(ToolKind::Mcp, None).as_deref(), Some("mcp"));
    assert_eq!(kind(ToolKind::Subagent, None).as_deref(), Some("sub_agent"));
    assert_eq!(kind(ToolKind::Other, None), None);
    assert_eq!(kind(ToolKind::Web, Some("web_fetch")).as_deref(), Some("web_fetch"));
}

#[test]
fn matcher_text_is_canonical_and_decides_equality() {
    let a = parse(b"hooks: [{id: a, event: before_tool_call, run: {type: shell, shell: x}, match: {tool_name: t, profile: P}}]", Path::new("/p/hooks.yaml")).expect("a");
    let b = parse(b"{\"hooks\": [{\"id\": \"a\", \"event\": \"before_tool_call\", \"run\": {\"type\": \"shell\", \"shell\": \"x\"}, \"match\": {\"profile\": \"P\", \"tool_name\": \"t\"}}]}", Path::new("/p/hooks.json")).expect("b");
    assert_eq!(a.definitions[0].matcher.text(), Some(r#"{"profile":"P","tool_name":"t"}"#));
    assert_eq!(a.definitions[0].matcher, b.definitions[0].matcher);
}
