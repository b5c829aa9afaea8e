//! Tests for `matcher`: narrowing, targets, unanchored regexes, texts and explanations.

use hooks_schema::{Envelope, HookEvent, Matcher, Subagent, ToolKind};
use serde_json::json;

use super::{Compiled, compile, shell_command};
use crate::events::lookup;

fn matcher(event: &str, pattern: Option<&str>) -> Matcher {
    match compile(lookup(event).expect("known event"), pattern) {
        Compiled::Matcher(m) => m,
        Compiled::Invalid(why) => panic!("{why}"),
    }
}

use hooks_schema::testing::pre_tool_use as tool_env;

#[test]
fn narrowed_events_only_match_their_tool_kind() {
    let shell = tool_env("Bash", ToolKind::Shell, json!({ "command": "rm -rf /" }));
    let read = tool_env("Read", ToolKind::FileRead, json!({ "file_path": "/a" }));
    let m = matcher("beforeShellExecution", None);
    assert_eq!(m.text(), Some("tool.kind=shell"));
    assert!(m.matches(&shell));
    assert!(!m.matches(&read));
    assert_eq!(
        m.mismatch(&read).as_deref(),
        Some("the tool `Read` is a file_read tool, not a shell tool")
    );
    assert!(!m.matches(&Envelope::new(HookEvent::PreToolUse)));
    let r = matcher("beforeReadFile", None);
    assert!(r.matches(&read) && !r.matches(&shell));
}

#[test]
fn command_matchers_are_unanchored_regexes_over_the_full_command() {
    let m = matcher("beforeShellExecution", Some("curl|wget|nc "));
    assert_eq!(m.text(), Some("tool.kind=shell command=~/curl|wget|nc /"));
    assert!(m.matches(&tool_env(
        "Shell",
        ToolKind::Shell,
        json!({ "command": "cd x && curl -s y" })
    )));
    assert!(m.matches(&tool_env("Shell", ToolKind::Shell, json!("nc -l 80"))));
    let ls = tool_env("Shell", ToolKind::Shell, json!({ "command": "ls" }));
    assert_eq!(m.mismatch(&ls).as_deref(), Some("command `ls` does not match /curl|wget|nc /"));
}

#[test]
fn tool_type_matchers_see_cursor_names() {
    let m = matcher("preToolUse", Some("Shell|Read"));
    assert!(m.matches(&tool_env("Bash", ToolKind::Shell, json!({}))));
    assert!(m.matches(&tool_env("read_file", ToolKind::FileRead, json!({}))));
    assert!(!m.matches(&tool_env("Edit", ToolKind::FileWrite, json!({}))));
    let mcp = matcher("preToolUse", Some("^MCP:create_"));
    assert!(mcp.matches(&tool_env("mcp__gh__create_issue", ToolKind::Mcp, json!({}))));
    let bm = matcher("beforeMCPExecution", Some("create_issue"));
    assert!(bm.matches(&tool_env("create_issue", ToolKind::Mcp, json!({}))));
    assert!(!bm.matches(&tool_env("create_issue", ToolKind::Other, json!({}))));
}

#[test]
fn subagent_and_constant_targets() {
    let m = matcher("subagentStart", Some("explore|shell"));
    let mut e = Envelope::new(HookEvent::SubagentStart);
    assert!(!m.matches(&e));
    e.subagent = Some(Subagent { agent_type: Some("explore".into()), ..Subagent::default() });
    assert!(m.matches(&e));
    assert!(matcher("stop", Some("Stop")).matches(&Envelope::new(HookEvent::Stop)));
    assert!(!matcher("stop", Some("Other")).matches(&Envelope::new(HookEvent::Stop)));
    assert!(matcher("stop", None).is_all());
}

#[test]
fn invalid_and_oversized_patterns_are_rejected() {
    let ev = lookup("preToolUse").expect("known");
    assert!(matches!(compile(ev, Some("(")), Compiled::Invalid(_)));
    assert!(matches!(
        compile(ev, Some(&"a".repeat(super::MAX_MATCHER_LEN + 1))),
        Compiled::Invalid(_)
    ));
    // A pattern that compiles to more than the size limit is an error, not an allocation.
    assert!(matches!(compile(ev, Some(r"\w{1000}\w{1000}\w{1000}")), Compiled::Invalid(_)));
}

#[test]
fn shell_command_reads_strings_objects_and_argv() {
    assert_eq!(shell_command(&json!("ls")).as_deref(), Some("ls"));
    assert_eq!(shell_command(&json!({ "cmd": "ls -l" })).as_deref(), Some("ls -l"));
    assert_eq!(shell_command(&json!({ "command": ["git", "push"] })).as_deref(), Some("git push"));
    assert_eq!(shell_command(&json!({ "command": 1 })), None);
    assert_eq!(shell_command(&json!(null)), None);
}
