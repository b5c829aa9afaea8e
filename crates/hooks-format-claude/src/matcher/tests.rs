//! Tests of matcher forms, the field each event's matcher tests, tool names and `if` rules.

use expect_test::expect;
use hooks_schema::{Envelope, HookEvent, ToolCall};
use serde_json::{Value, json};

use super::{IfRule, Pattern, build, claude_tool_name, glob, subcommands};
use crate::events::NativeEvent;

fn tool(v: Value) -> ToolCall {
    serde_json::from_value(v).expect("tool call")
}

fn envelope(v: Value) -> Envelope {
    serde_json::from_value(v).expect("envelope")
}

fn pre(name: &str, kind: &str, args: Value) -> Envelope {
    envelope(json!({"event": "pre_tool_use", "tool": {"name": name, "kind": kind, "args": args}}))
}

#[track_caller]
fn check(event: NativeEvent, matcher: &str, env: &Envelope, want: bool) {
    let m = build(event, Some(matcher), Pattern::compile(matcher).expect("compiles"), None);
    assert_eq!(m.matches(env), want, "{matcher:?} on {env:?}");
}

#[test]
fn match_all_forms() {
    let env = pre("Bash", "shell", json!({}));
    for m in ["", "*", "  "] {
        let built =
            build(NativeEvent::PreToolUse, Some(m), Pattern::compile(m).expect("compiles"), None);
        assert!(built.is_all(), "{m:?}");
        assert!(built.matches(&env));
    }
}

#[test]
fn exact_names_and_lists() {
    let bash = pre("Bash", "shell", json!({}));
    let write = pre("Write", "file_write", json!({}));
    check(NativeEvent::PreToolUse, "Bash", &bash, true);
    check(NativeEvent::PreToolUse, "Bas", &bash, false);
    check(NativeEvent::PreToolUse, "bash", &bash, false);
    check(NativeEvent::PreToolUse, "Write|Edit", &write, true);
    check(NativeEvent::PreToolUse, "Write|Edit", &bash, false);
    check(NativeEvent::PreToolUse, "Read, Write", &write, true);
    check(NativeEvent::PreToolUse, "Read , Bash ,", &bash, true);
    // `mcp__memory` is an exact name: it does not match the server's tools.
    let mcp = pre("mcp__memory__create", "mcp", json!({}));
    check(NativeEvent::PreToolUse, "mcp__memory", &mcp, false);
}

#[test]
fn regexes_are_unanchored() {
    let mcp = pre("mcp__memory__create", "mcp", json!({}));
    check(NativeEvent::PreToolUse, "mcp__memory__.*", &mcp, true);
    check(NativeEvent::PreToolUse, "memory.", &mcp, true);
    check(NativeEvent::PreToolUse, "^memory", &mcp, false);
    let edit = pre("MultiEdit", "file_write", json!({}));
    check(NativeEvent::PreToolUse, "^Edit$", &edit, false);
    check(NativeEvent::PreToolUse, "Edit$", &edit, true);
    check(NativeEvent::PreToolUse, "(?i)multiedit", &edit, true);
    // Look-around, as in JavaScript regexes.
    check(NativeEvent::PreToolUse, "^(?!Multi).*Edit", &edit, false);
}

#[test]
fn invalid_and_oversized_matchers_are_rejected() {
    expect![[r#"
        Err(
            Regex {
                text: "Bash(",
                why: "Parsing error at position 5: Opening parenthesis without closing parenthesis",
            },
        )
    "#]]
    .assert_debug_eq(&Pattern::compile("Bash(").map(|_| ()));
    let long = "a".repeat(crate::MAX_MATCHER_LEN + 1);
    assert!(matches!(Pattern::compile(&long), Err(super::MatcherError::TooLong)));
}

#[test]
fn each_event_tests_its_own_field() {
    let start = envelope(json!({"event": "session_start", "session": {"source": "resume"}}));
    check(NativeEvent::SessionStart, "startup|resume", &start, true);
    check(NativeEvent::SessionStart, "startup", &start, false);
    let end = envelope(json!({"event": "session_end", "session": {"reason": "logout"}}));
    check(NativeEvent::SessionEnd, "logout", &end, true);
    check(NativeEvent::SessionEnd, "clear", &end, false);
    let note = envelope(json!({"event": "notification", "notification": {"kind": "idle_prompt"}}));
    check(NativeEvent::Notification, "idle_prompt", &note, true);
    check(NativeEvent::Notification, "permission_.*", &note, false);
    let sub = envelope(json!({"event": "subagent_start", "subagent": {"agent_type": "Explore"}}));
    check(NativeEvent::SubagentStart, "Explore", &sub, true);
    let sub_stop = envelope(json!({"event": "subagent_stop", "subagent": {"agent_type": "Plan"}}));
    check(NativeEvent::SubagentStop, "Explore", &sub_stop, false);
    let compact = envelope(json!({"event": "pre_compact", "compaction": {"trigger": "manual"}}));
    check(NativeEvent::PreCompact, "manual", &compact, true);
    let post_compact =
        envelope(json!({"event": "post_compact", "compaction": {"trigger": "auto"}}));
    check(NativeEvent::PostCompact, "manual", &post_compact, false);
    let failure = envelope(json!({"event": "stop_failure", "stop": {"status": "rate_limit"}}));
    check(NativeEvent::StopFailure, "rate_limit", &failure, true);
    let post = envelope(
        json!({"event": "post_tool_use", "tool": {"name": "x", "kind": "shell", "args": {}}}),
    );
    check(NativeEvent::PostToolUse, "Bash", &post, true);
    let perm = envelope(
        json!({"event": "approval_requested", "tool": {"name": "Read", "kind": "file_read", "args": {}}}),
    );
    check(NativeEvent::PermissionRequest, "Read", &perm, true);
    let fail = envelope(
        json!({"event": "tool_failure", "tool": {"name": "Read", "kind": "file_read", "args": {}}}),
    );
    check(NativeEvent::PostToolUseFailure, "Bash", &fail, false);
}

#[test]
fn a_missing_field_does_not_match_a_specific_matcher() {
    let start = Envelope::new(HookEvent::SessionStart);
    check(NativeEvent::SessionStart, "startup", &start, false);
    let m = build(
        NativeEvent::SessionStart,
        Some("startup"),
        Pattern::compile("startup").expect("ok"),
        None,
    );
    expect![[r#"
        Some(
            "the envelope has no value for the SessionStart matcher",
        )
    "#]]
    .assert_debug_eq(&m.mismatch(&start));
}

#[test]
fn events_without_matcher_support_ignore_the_matcher() {
    let prompt = Envelope::new(HookEvent::PromptSubmit);
    let m = build(
        NativeEvent::UserPromptSubmit,
        Some("Bash"),
        Pattern::compile("Bash").expect("ok"),
        None,
    );
    assert!(m.is_all());
    assert!(m.matches(&prompt));
    let stop = Envelope::new(HookEvent::Stop);
    check(NativeEvent::Stop, "nothing", &stop, true);
}

#[test]
fn tool_names_from_the_canonical_envelope() {
    let cases = [
        (json!({"name": "run_shell_command", "kind": "shell"}), "Bash"),
        (json!({"name": "read_file", "kind": "file_read"}), "Read"),
        (json!({"name": "write_file", "kind": "file_write"}), "Write"),
        (json!({"name": "edit_file", "kind": "file_write"}), "Edit"),
        (json!({"name": "apply", "kind": "file_write", "args": {"old_string": "a"}}), "Edit"),
        (json!({"name": "str_replace", "kind": "file_write"}), "Edit"),
        (json!({"name": "search_files", "kind": "search"}), "Grep"),
        (json!({"name": "glob", "kind": "search"}), "Glob"),
        (json!({"name": "fetch", "kind": "web"}), "WebFetch"),
        (json!({"name": "web_search", "kind": "web"}), "WebSearch"),
        (json!({"name": "spawn", "kind": "subagent"}), "Task"),
        (json!({"name": "create", "kind": "mcp", "mcp_server": "memory"}), "mcp__memory__create"),
        (json!({"name": "create", "kind": "mcp"}), "create"),
        (json!({"name": "mcp__gh__issue", "kind": "mcp", "mcp_server": "gh"}), "mcp__gh__issue"),
        (json!({"name": "MultiEdit", "kind": "other"}), "MultiEdit"),
        (json!({"name": "todo", "kind": "other"}), "todo"),
    ];
    for (t, want) in cases {
        let mut t = t;
        if t.get("args").is_none() {
            t["args"] = json!({});
        }
        assert_eq!(claude_tool_name(&tool(t.clone())), want, "{t}");
    }
}

#[test]
fn if_rules_parse() {
    assert!(IfRule::parse("Bash(git *)").is_ok());
    assert!(IfRule::parse("Bash").is_ok());
    assert!(IfRule::parse("mcp__x__y").is_ok());
    for bad in ["", "Bash(", "(x)", "Ba sh(x)", "Bash(x) extra"] {
        assert!(IfRule::parse(bad).is_err(), "{bad:?}");
    }
}

#[track_caller]
fn check_if(rule: &str, t: Value, want: bool) {
    let r = IfRule::parse(rule).expect("parses");
    assert_eq!(r.matches(&tool(t.clone())), want, "{rule} on {t}");
}

#[test]
fn if_rules_on_bash_check_each_subcommand() {
    let bash = |c: &str| json!({"name": "Bash", "kind": "shell", "args": {"command": c}});
    check_if("Bash(rm *)", bash("rm -rf /tmp/x"), true);
    check_if("Bash(rm *)", bash("ls && rm -rf x"), true);
    check_if("Bash(rm *)", bash("FOO=1 BAR=2 rm x"), true);
    check_if("Bash(rm *)", bash("echo $(rm x)"), true);
    check_if("Bash(rm *)", bash("echo `rm x`"), true);
    check_if("Bash(rm *)", bash("echo 'rm x'"), false);
    check_if("Bash(rm *)", bash("ls | grep rm"), false);
    check_if("Bash(git push:*)", bash("git push origin main"), true);
    check_if("Bash(git push:*)", bash("git pushy"), false);
    check_if("Bash(git push:*)", bash("git push"), true);
    // Unbalanced quotes cannot be read: the rule fails open and the hook runs.
    check_if("Bash(rm *)", bash("echo 'oops"), true);
    check_if("Bash(rm *)", json!({"name": "Read", "kind": "file_read", "args": {}}), false);
    check_if("Bash", bash("anything"), true);
}

#[test]
fn if_rules_on_files_and_urls() {
    let edit = |p: &str| json!({"name": "Edit", "kind": "file_write", "args": {"file_path": p}});
    check_if("Edit(*.ts)", edit("/p/src/a.ts"), true);
    check_if("Edit(*.ts)", edit("/p/src/a.rs"), false);
    check_if("Edit(src/**)", edit("/p/src/deep/a.rs"), true);
    check_if("Edit(//etc/*)", edit("/etc/passwd"), true);
    let fetch = |u: &str| json!({"name": "WebFetch", "kind": "web", "args": {"url": u}});
    check_if("WebFetch(domain:example.com)", fetch("https://api.example.com/x"), true);
    check_if("WebFetch(domain:example.com)", fetch("https://user@example.com:8080/"), true);
    check_if("WebFetch(domain:example.com)", fetch("https://notexample.com/"), false);
}

#[test]
fn the_if_rule_is_part_of_the_matcher() {
    let rule = IfRule::parse("Bash(rm *)").expect("parses");
    let m = build(
        NativeEvent::PreToolUse,
        Some("Bash"),
        Pattern::compile("Bash").expect("ok"),
        Some(rule),
    );
    assert_eq!(m.text(), Some("Bash if Bash(rm *)"));
    assert!(m.matches(&pre("Bash", "shell", json!({"command": "rm -rf x"}))));
    assert!(!m.matches(&pre("Bash", "shell", json!({"command": "ls"}))));
    expect![[r#"
        Some(
            "the `if` rule `Bash(rm *)` does not match",
        )
    "#]]
    .assert_debug_eq(&m.mismatch(&pre("Bash", "shell", json!({"command": "ls"}))));
}

#[test]
fn glob_basics() {
    assert!(glob(b"*", b""));
    assert!(glob(b"a*c", b"abbbc"));
    assert!(!glob(b"a*c", b"abbb"));
    assert!(glob(b"a?c", b"abc"));
    assert!(glob(b"**x", b"yyx"));
    assert_eq!(
        subcommands("a; b && c | d"),
        Some(vec!["a".into(), "b".into(), "c".into(), "d".into()])
    );
}
