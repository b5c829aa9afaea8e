//! Tests of matchers: the cases observed with Copilot CLI 1.0.102 and the documented rules of
//! each dialect.

use hooks_schema::{Envelope, HookEvent};
use proptest::prelude::*;
use serde_json::json;

use super::*;

fn call(name: &str, kind: ToolKind) -> Envelope {
    hooks_schema::testing::pre_tool_use(name, kind, json!({"command": "ls"}))
}

fn matches(dialect: Dialect, text: &str, env: &Envelope) -> bool {
    let p = Pattern::compile(CopilotEvent::PreToolUse, dialect, text).expect("compiles");
    build(CopilotEvent::PreToolUse, text, p).matches(env)
}

#[test]
fn camel_matchers_observed_with_copilot() {
    let bash = call("bash", ToolKind::Shell);
    // Observed in two runs: `ba` ✗, `bas` ✗, `bash` ✓, `b.*` ✓, `Bash` ✗, `BASH` ✗,
    // `bash|edit` ✓; `(` skips the entry.
    for (text, want) in [
        ("ba", false),
        ("bas", false),
        ("bash", true),
        ("b.*", true),
        ("Bash", false),
        ("BASH", false),
        ("bash|edit", true),
    ] {
        assert_eq!(matches(Dialect::Camel, text, &bash), want, "{text}");
    }
    assert!(matches!(
        Pattern::compile(CopilotEvent::PreToolUse, Dialect::Camel, "("),
        Err(MatcherProblem::Invalid(_))
    ));
}

#[test]
fn a_claude_named_envelope_is_matched_by_its_copilot_name() {
    // A call fired from another host under the Claude name `Bash` is `bash` to a camelCase
    // matcher, as Copilot would name it.
    assert!(matches(Dialect::Camel, "bash", &call("Bash", ToolKind::Shell)));
    assert!(matches(Dialect::Camel, "bash", &call("run_shell_command", ToolKind::Shell)));
    let mut write = call("Write", ToolKind::FileWrite);
    assert!(matches(Dialect::Camel, "create", &write));
    write.tool.as_mut().expect("tool").name = "write_file".into();
    write.tool.as_mut().expect("tool").args = json!({"path": "a", "old_str": "x"});
    assert!(matches(Dialect::Camel, "edit", &write));
}

#[test]
fn pascal_matchers_follow_claude_rules() {
    let bash = call("bash", ToolKind::Shell);
    // Observed: `Bash` matched the `bash` tool in a PascalCase file.
    assert!(matches(Dialect::Pascal, "Bash", &bash));
    assert!(matches(Dialect::Pascal, "bash", &bash), "the runtime name too");
    assert!(matches(Dialect::Pascal, "*", &bash));
    assert!(matches(Dialect::Pascal, "", &bash));
    assert!(matches(Dialect::Pascal, "Edit|Bash", &bash));
    assert!(!matches(Dialect::Pascal, "Edit|Write", &bash));
    assert!(matches(Dialect::Pascal, "B.*", &bash));
    assert!(!matches(Dialect::Pascal, "b.*", &bash), "a regex sees the Claude name");
    let create = call("create", ToolKind::FileWrite);
    assert!(matches(Dialect::Pascal, "Write", &create));
}

#[test]
fn other_fields_and_ignored_events() {
    assert_eq!(
        Pattern::compile(CopilotEvent::SessionStart, Dialect::Camel, "nomatch").err(),
        Some(MatcherProblem::Ignored)
    );
    let mut env = Envelope::new(HookEvent::PreCompact);
    env.compaction =
        Some(hooks_schema::Compaction { trigger: Some("auto".into()), ..Default::default() });
    let p = Pattern::compile(CopilotEvent::PreCompact, Dialect::Camel, "auto|manual").expect("ok");
    assert!(build(CopilotEvent::PreCompact, "auto|manual", p).matches(&env));
    let p = Pattern::compile(CopilotEvent::PreCompact, Dialect::Camel, "manual").expect("ok");
    let m = build(CopilotEvent::PreCompact, "manual", p);
    assert!(!m.matches(&env));
    assert_eq!(m.mismatch(&env).as_deref(), Some("the trigger `auto` does not match"));
}

#[test]
fn tool_names_and_kinds() {
    for (runtime, claude) in TOOL_NAMES {
        assert_eq!(claude_tool_name(runtime), claude);
        assert_ne!(tool_kind(runtime), ToolKind::Other, "{runtime}");
    }
    assert_eq!(claude_tool_name("my_mcp_tool"), "my_mcp_tool");
    assert_eq!(tool_kind("my_mcp_tool"), ToolKind::Other);
}

proptest! {
    #[test]
    fn compiling_any_matcher_never_panics(text in "\\PC{0,40}") {
        for dialect in [Dialect::Camel, Dialect::Pascal] {
            if let Ok(p) = Pattern::compile(CopilotEvent::PreToolUse, dialect, &text) {
                let _ = build(CopilotEvent::PreToolUse, &text, p).matches(&call("bash", ToolKind::Shell));
            }
        }
    }
}
