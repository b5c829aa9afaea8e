//! Tests of Codex matchers: the cases observed with the real CLI (`Bas` does not match
//! `Bash`, `^Bash` matches `BashOutput`, `Edit`/`Write` match `apply_patch`) and the rest of
//! Codex's rules.

use hooks_schema::{Compaction, HookEvent, SessionInfo, Subagent};
use serde_json::json;

use super::*;

fn tool(name: &str, kind: ToolKind) -> Envelope {
    hooks_schema::testing::pre_tool_use(name, kind, json!({}))
}

fn m(event: CodexEvent, text: &str) -> Matcher {
    build(event, Some(text)).expect("valid")
}

#[test]
fn observed_with_the_real_cli() {
    let bash = tool("Bash", ToolKind::Shell);
    let patch = tool("apply_patch", ToolKind::FileWrite);
    let pre = CodexEvent::PreToolUse;
    for (text, on_bash, on_patch) in [
        ("*", true, true),
        ("", true, true),
        ("Bash", true, false),
        ("Bas", false, false),
        ("bash", false, false),
        ("^Bash$", true, false),
        ("Edit", false, true),
        ("Write", false, true),
        ("Edit|Write", false, true),
        ("apply_patch", false, true),
        ("exec_command", false, false),
    ] {
        assert_eq!(m(pre, text).matches(&bash), on_bash, "{text:?} on Bash");
        assert_eq!(m(pre, text).matches(&patch), on_patch, "{text:?} on apply_patch");
    }
    assert!(m(pre, "^Bash").matches(&tool("BashOutput", ToolKind::Other)));
}

#[test]
fn other_agents_tools_get_codex_names() {
    assert!(m(CodexEvent::PreToolUse, "Bash").matches(&tool("run_terminal_cmd", ToolKind::Shell)));
    assert!(m(CodexEvent::PreToolUse, "Bash").matches(&tool("exec_command", ToolKind::Other)));
    assert!(m(CodexEvent::PreToolUse, "Write").matches(&tool("edit_file", ToolKind::FileWrite)));
    let mut mcp = tool("create_entities", ToolKind::Mcp);
    if let Some(t) = &mut mcp.tool {
        t.mcp_server = Some("memory".to_owned());
    }
    assert!(m(CodexEvent::PreToolUse, "mcp__memory__create_entities").matches(&mcp));
    assert!(!m(CodexEvent::PreToolUse, "mcp__memory").matches(&mcp));
    assert!(m(CodexEvent::PreToolUse, "mcp__memory__.*").matches(&mcp));
}

#[test]
fn lifecycle_events_test_their_own_field() {
    let mut start = Envelope::new(HookEvent::SessionStart);
    start.session = Some(SessionInfo { source: Some("resume".into()), ..SessionInfo::default() });
    assert!(m(CodexEvent::SessionStart, "startup|resume").matches(&start));
    assert!(!m(CodexEvent::SessionStart, "clear").matches(&start));
    let mut compact = Envelope::new(HookEvent::PreCompact);
    compact.compaction = Some(Compaction { trigger: Some("auto".into()), ..Compaction::default() });
    assert!(m(CodexEvent::PreCompact, "auto").matches(&compact));
    assert!(!m(CodexEvent::PreCompact, "manual").matches(&compact));
    let mut sub = Envelope::new(HookEvent::SubagentStart);
    sub.subagent = Some(Subagent { agent_type: Some("explore".into()), ..Subagent::default() });
    assert!(m(CodexEvent::SubagentStart, "explore").matches(&sub));
    let none = Envelope::new(HookEvent::SessionStart);
    assert!(!m(CodexEvent::SessionStart, "startup").matches(&none));
    assert!(m(CodexEvent::SessionStart, "*").matches(&none));
    assert!(m(CodexEvent::SessionStart, "startup").mismatch(&none).is_some());
}

#[test]
fn events_without_matchers_drop_them_even_invalid_ones() {
    for ev in [
        CodexEvent::UserPromptSubmit,
        CodexEvent::Stop,
        CodexEvent::Interrupt,
        CodexEvent::PreModelRequest,
    ] {
        let kept = build(ev, Some("[")).expect("dropped, not checked");
        assert!(kept.is_all());
    }
}

#[test]
fn invalid_and_oversized_regexes_are_rejected() {
    assert!(build(CodexEvent::PreToolUse, Some("[")).is_err());
    assert!(build(CodexEvent::PreToolUse, Some(&"(a)".repeat(2000))).is_err());
    // Exact lists have no length limit: they are not compiled.
    assert!(build(CodexEvent::PreToolUse, Some(&"a|".repeat(5000))).is_ok());
}
