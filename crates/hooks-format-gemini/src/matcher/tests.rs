//! Tests of matchers: regexes on Gemini tool names, exact triggers, ignored matchers, tool names.

use hooks_schema::{Compaction, HookEvent, SessionInfo};
use serde_json::json;

use super::*;

fn tool(name: &str, kind: ToolKind) -> Envelope {
    hooks_schema::testing::pre_tool_use(name, kind, json!({}))
}

fn matcher(event: GeminiEvent, text: &str) -> Matcher {
    let (p, _) = Pattern::compile(event, text);
    build(event, text, p)
}

#[test]
fn tool_matchers_are_unanchored_regexes_on_gemini_names() {
    let m = matcher(GeminiEvent::BeforeTool, "write_file|replace");
    assert!(m.matches(&tool("write_file", ToolKind::FileWrite)));
    // A Claude host's `Edit` is Gemini's `replace`.
    assert!(m.matches(&tool("Edit", ToolKind::FileWrite)));
    assert!(!m.matches(&tool("Bash", ToolKind::Shell)));
    assert!(matcher(GeminiEvent::BeforeTool, "shell").matches(&tool("Bash", ToolKind::Shell)));
    assert_eq!(
        matcher(GeminiEvent::BeforeTool, "^read")
            .mismatch(&tool("Bash", ToolKind::Shell))
            .as_deref(),
        Some("the tool name `run_shell_command` does not match")
    );
}

#[test]
fn invalid_regexes_compare_exactly() {
    let m = matcher(GeminiEvent::BeforeTool, "(");
    assert!(!m.matches(&tool("run_shell_command", ToolKind::Shell)));
    assert!(m.matches(&tool("(", ToolKind::Other)));
}

#[test]
fn trigger_matchers_are_exact_and_trimmed() {
    let mut e = Envelope::new(HookEvent::SessionStart);
    e.session = Some(SessionInfo { source: Some("startup".into()), ..SessionInfo::default() });
    assert!(matcher(GeminiEvent::SessionStart, " startup ").matches(&e));
    assert!(!matcher(GeminiEvent::SessionStart, "startup|resume").matches(&e));
    assert!(!matcher(GeminiEvent::SessionStart, "start").matches(&e));
    let mut c = Envelope::new(HookEvent::PreCompact);
    c.compaction = Some(Compaction { trigger: Some("manual".into()), ..Compaction::default() });
    assert!(!matcher(GeminiEvent::PreCompress, "auto").matches(&c));
    assert!(matcher(GeminiEvent::PreCompress, "manual").matches(&c));
    // No trigger in the envelope: the codec sends `auto`, and the matcher tests that.
    assert!(
        matcher(GeminiEvent::PreCompress, "auto").matches(&Envelope::new(HookEvent::PreCompact))
    );
}

#[test]
fn other_events_ignore_matchers() {
    let (p, remark) = Pattern::compile(GeminiEvent::BeforeAgent, "anything");
    assert!(matches!(p, Pattern::All));
    assert_eq!(remark, Some(Remark::Ignored));
    for t in ["", "  ", "*", " * "] {
        assert!(matches!(Pattern::compile(GeminiEvent::BeforeTool, t).0, Pattern::All), "{t:?}");
    }
}

#[test]
fn gemini_tool_names() {
    assert_eq!(
        gemini_tool_name(&ToolCall {
            name: "Write".into(),
            kind: ToolKind::FileWrite,
            native_kind: None,
            call_id: None,
            mcp_server: None,
            args: json!({"file_path": "a"})
        }),
        "write_file"
    );
    assert_eq!(mcp_tool_name("my server", "do it"), "mcp_my_server_do_it");
    assert_eq!(mcp_tool_name("1srv", "t"), "mcp_1srv_t");
    let long = mcp_tool_name(&"s".repeat(40), &"t".repeat(40));
    assert_eq!(long.len(), 63);
    assert!(long.contains("..."));
}
