//! Tests of the recorded-session readers on a transcript faithful to Claude Code's format.

use super::*;

const CLAUDE: &str = include_str!("../../test_data/claude-session.jsonl");

fn summary(s: &Session) -> Vec<String> {
    s.steps
        .iter()
        .map(|step| match step {
            ReplayStep::Prompt(e) => format!("prompt {:?}", e.prompt.as_ref().unwrap().text),
            ReplayStep::ToolCall { pre, post } => {
                let t = pre.tool.as_ref().unwrap();
                format!(
                    "{} {} {:?} {} -> {}",
                    t.call_id.as_deref().unwrap_or("-"),
                    t.name,
                    t.kind,
                    t.args,
                    post.as_ref().map_or("no result".to_owned(), |p| format!(
                        "{} {:?}",
                        p.event,
                        p.result.as_ref().and_then(|r| r.text.as_deref())
                    ))
                )
            }
            ReplayStep::Event(e) => format!("event {}", e.event),
        })
        .collect()
}

#[test]
fn a_claude_transcript_reads_prompts_tool_calls_and_results_in_order() {
    let s = parse_session(CLAUDE);
    assert_eq!(s.format, SessionFormat::ClaudeTranscript);
    expect_test::expect![[r#"
        [
            "prompt \"clean the build folder and fix the lint config\"",
            "toolu_01 Bash Shell {\"command\":\"ls -la build\",\"description\":\"List build folder\"} -> post_tool_use Some(\"total 0\\n\")",
            "toolu_02 Bash Shell {\"command\":\"rm -rf build\",\"description\":\"Remove build folder\"} -> post_tool_use Some(\"(no output)\")",
            "toolu_03 Edit FileWrite {\"file_path\":\"/work/demo/.cursor/hooks.json\",\"old_string\":\"\\\"failClosed\\\": true\",\"new_string\":\"\\\"failClosed\\\": false\"} -> post_tool_use Some(\"File has been edited\")",
            "toolu_04 Read FileRead {\"file_path\":\"/work/demo/.env\"} -> tool_failure Some(\"permission denied\")",
            "prompt \"thanks\"",
        ]
    "#]]
    .assert_debug_eq(&summary(&s));
    assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    assert!(s.warnings[0].starts_with("line 12: not JSON"), "{:?}", s.warnings);
    assert!(s.warnings[1].contains("unknown tool_use `toolu_zz`"), "{:?}", s.warnings);
}

/// A Bash command that exited 3, as Claude Code 2.1.328 recorded it (`tool_result` with
/// `is_error` and "Exit code 3" then the output; `test_data/claude-exit3.jsonl`, the prompt,
/// the call and its result from a real-agent harness run): a post-tool firing with the status,
/// as the bridge decodes the same command's `PostToolUseFailure`; a failed read stays a
/// failure (above).
#[test]
fn a_shell_command_s_non_zero_exit_replays_as_a_post_tool_firing_with_its_status() {
    let s = parse_session(include_str!("../../test_data/claude-exit3.jsonl"));
    assert_eq!(s.format, SessionFormat::ClaudeTranscript);
    let Some(ReplayStep::ToolCall { post: Some(post), .. }) = s.steps.get(1) else {
        panic!("{:?}", s.steps)
    };
    assert_eq!(post.event, HookEvent::PostToolUse);
    assert_eq!(post.failed_shell_exit(), Some(3));
    assert_eq!(post.result.as_ref().and_then(|r| r.text.as_deref()), Some("out\nerr"));
    assert_eq!(post.event_for(true), HookEvent::ToolFailure);
}

#[test]
fn envelopes_carry_session_cwd_model_and_timestamp() {
    let s = parse_claude_transcript(CLAUDE);
    let ReplayStep::ToolCall { pre, .. } = &s.steps[1] else { panic!("not a tool call") };
    assert_eq!(pre.session_id.as_deref(), Some("6f1c2a9e-3b7d-4c21-9f0e-2d5b8a7c41e3"));
    assert_eq!(pre.cwd.as_deref(), Some(std::path::Path::new("/work/demo")));
    assert_eq!(pre.model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(pre.timestamp.as_deref(), Some("2026-11-20T10:00:01.000Z"));
    let ReplayStep::ToolCall { pre, .. } = &s.steps[3] else { panic!("not a tool call") };
    assert_eq!(edited_paths(pre.tool.as_ref().unwrap()), ["/work/demo/.cursor/hooks.json"]);
}

#[test]
fn an_event_log_pairs_results_with_calls_by_call_id() {
    let log = r#"{"schema":1,"event":"prompt_submit","prompt":{"text":"go"}}
{"schema":1,"event":"pre_tool_use","tool":{"name":"run","kind":"shell","call_id":"c1","args":{"command":"ls"}}}
{"schema":1,"event":"pre_tool_use","tool":{"name":"edit","kind":"file_write","call_id":"c2","args":{"path":"a"}}}
{"schema":1,"event":"post_tool_use","tool":{"name":"run","kind":"shell","call_id":"c1","args":{}},"result":{"text":"x"}}
{"schema":1,"event":"stop"}
garbage
"#;
    let s = parse_session(log);
    assert_eq!(s.format, SessionFormat::EventLog);
    expect_test::expect![[r#"
        [
            "prompt \"go\"",
            "c1 run Shell {\"command\":\"ls\"} -> post_tool_use Some(\"x\")",
            "c2 edit FileWrite {\"path\":\"a\"} -> no result",
            "event stop",
        ]
    "#]]
    .assert_debug_eq(&summary(&s));
    assert_eq!(s.warnings.len(), 1);
}

#[test]
fn tool_names_map_to_kinds() {
    assert_eq!(tool_kind("Bash"), ToolKind::Shell);
    assert_eq!(tool_kind("MultiEdit"), ToolKind::FileWrite);
    assert_eq!(tool_kind("mcp__memory__store"), ToolKind::Mcp);
    assert_eq!(mcp_server("mcp__memory__store").as_deref(), Some("memory"));
    assert_eq!(tool_kind("Whatever"), ToolKind::Other);
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "\n\n",
        "[]",
        "{}",
        "{\"type\":\"user\"}",
        "{\"type\":\"user\",\"message\":{\"content\":[1,{}]}}",
        "\u{0}",
    ] {
        let _ = parse_session(text);
    }
}
