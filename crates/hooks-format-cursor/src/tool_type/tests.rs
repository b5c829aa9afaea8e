//! Tests for `tool_type`: Cursor type names from kinds, native kinds and other agents' names.

use hooks_schema::{ToolCall, ToolKind};
use serde_json::Value;

use super::{mcp_tool_name, tool_type};

fn call(name: &str, kind: ToolKind, native_kind: Option<&str>) -> ToolCall {
    ToolCall {
        name: name.to_owned(),
        kind,
        native_kind: native_kind.map(str::to_owned),
        call_id: None,
        mcp_server: None,
        args: Value::Null,
    }
}

#[test]
fn maps_every_documented_type() {
    let cases = [
        (call("Bash", ToolKind::Shell, None), "Shell"),
        (call("run_terminal_cmd", ToolKind::Shell, None), "Shell"),
        (call("anything", ToolKind::Shell, None), "Shell"),
        (call("read_file", ToolKind::FileRead, None), "Read"),
        (call("Edit", ToolKind::FileWrite, None), "Write"),
        (call("apply_patch", ToolKind::FileWrite, None), "Write"),
        (call("delete_file", ToolKind::FileWrite, None), "Delete"),
        (call("remove", ToolKind::FileWrite, Some("Delete")), "Delete"),
        (call("grep", ToolKind::Search, None), "Grep"),
        (call("find", ToolKind::Search, None), "Grep"),
        (call("Task", ToolKind::Subagent, None), "Task"),
        (call("spawn", ToolKind::Subagent, None), "Task"),
        (call("WebFetch", ToolKind::Web, None), "WebFetch"),
        (call("fetch_url", ToolKind::Web, None), "fetch_url"),
        (call("custom", ToolKind::Other, None), "custom"),
        (call("write", ToolKind::FileWrite, Some("filesystem.write")), "Write"),
        (call("create_issue", ToolKind::Mcp, None), "MCP:create_issue"),
        (call("mcp__github__create_issue", ToolKind::Mcp, None), "MCP:create_issue"),
        (call("x", ToolKind::Mcp, Some("MCP:native")), "MCP:native"),
    ];
    for (c, expected) in cases {
        assert_eq!(tool_type(&c), expected, "{c:?}");
    }
}

#[test]
fn envelopes_without_a_tool_have_no_type() {
    let mut e = hooks_schema::Envelope::new(hooks_schema::HookEvent::PreToolUse);
    assert_eq!(super::envelope_tool_type(&e), None);
    e.tool = Some(call("Bash", ToolKind::Shell, None));
    assert_eq!(super::envelope_tool_type(&e).as_deref(), Some("Shell"));
}

#[test]
fn mcp_names_without_a_tool_part_are_kept() {
    assert_eq!(mcp_tool_name(&call("mcp__server", ToolKind::Mcp, None)), "mcp__server");
    assert_eq!(mcp_tool_name(&call("mcp__server__", ToolKind::Mcp, None)), "mcp__server__");
    assert_eq!(mcp_tool_name(&call("mcp__a__b__c", ToolKind::Mcp, None)), "b__c");
}
