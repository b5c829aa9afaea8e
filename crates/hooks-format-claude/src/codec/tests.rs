//! Tests of the protocol codec: golden encode and decode tables, focused rules, properties.

use std::{fmt::Write as _, path::Path, time::Duration};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, ArgRewrite, CapturedOutput, Decision, EncodeContext, Envelope, ExitInfo,
    HookDefinition, HookEvent, HookSourceId, HookVerdict, Program, RawOutcome, SpawnFailure,
    SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use hooks_schema::testing::{raw_outcome as outcome, render_verdict};

use crate::{ClaudeMode, MAX_TEXT_CHARS, parse};

fn data(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/codec").join(name);
    serde_json::from_slice(&std::fs::read(p).expect("read table")).expect("table is JSON")
}

/// One definition parsed from a one-handler settings document.
pub(crate) fn definition(native: &str, handler: Value, mode: ClaudeMode) -> HookDefinition {
    let doc = json!({"hooks": {"version": 1, native: [{"hooks": [handler]}]}});
    let bytes = serde_json::to_vec(&doc).expect("encode");
    let parsed = parse(&bytes, Path::new("/home/u/.claude/settings.json"), mode).expect("parses");
    assert!(parsed.diagnostics.iter().all(|d| !d.is_error()), "{:?}", parsed.diagnostics);
    parsed.definitions.into_iter().next().expect("one definition")
}

fn source() -> HookSourceId {
    HookSourceId::new(
        crate::PROJECT_SETTINGS,
        AbsPathBuf::new("/proj/.claude/settings.json".into()).expect("abs"),
    )
}

fn ctx<'a>(source: &'a HookSourceId, project: Option<&'a Path>) -> EncodeContext<'a> {
    EncodeContext {
        source,
        working_dir: Path::new("/proj"),
        project_dir: project,
        config_dir: None,
        user_shell: None,
        agent_version: None,
        session_env: &[],
    }
}

fn case_outcome(case: &Value) -> RawOutcome {
    let s = |k: &str| case.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let exit = if let Some(msg) = case.get("not_started").and_then(Value::as_str) {
        ExitInfo::NotStarted(SpawnFailure {
            kind: SpawnFailureKind::ProgramNotFound,
            message: msg.to_owned(),
        })
    } else if let Some(sig) = case.get("signal").and_then(Value::as_i64) {
        ExitInfo::Signaled(i32::try_from(sig).expect("signal"))
    } else if case.get("timed_out") == Some(&Value::Bool(true)) {
        ExitInfo::Signaled(9)
    } else {
        ExitInfo::Exited(
            i32::try_from(case.get("exit").and_then(Value::as_i64).unwrap_or(0)).expect("code"),
        )
    };
    let mut o = outcome(exit, &s("stdout"), &s("stderr"));
    o.timed_out = case.get("timed_out") == Some(&Value::Bool(true));
    o.stdout.truncated = case.get("stdout_truncated") == Some(&Value::Bool(true));
    o
}

fn case_definition(case: &Value) -> HookDefinition {
    let native = case["event"].as_str().expect("event");
    let mut handler = json!({"type": "command", "command": "./hook.sh", "timeout": 7});
    if let Some(f) = case.get("on_failure") {
        handler["onFailure"] = f.clone();
    }
    if let Some(a) = case.get("async") {
        handler["async"] = a.clone();
    }
    let strict = case.get("strict") == Some(&Value::Bool(true));
    definition(native, handler, if strict { ClaudeMode::Strict } else { ClaudeMode::Default })
}

#[test]
fn golden_decode_table() {
    let cases = data("decode.json");
    let mut out = String::new();
    for case in cases.as_array().expect("array") {
        let def = case_definition(case);
        let env = Envelope::new(def.event);
        let v = def.codec.decode(&def, &env, &case_outcome(case));
        let _ = writeln!(out, "{}:{}", case["name"].as_str().expect("name"), render_verdict(&v));
    }
    expect_file!["../../test_data/output/codec/decode.txt"].assert_eq(&out);
}

#[test]
fn golden_encode_table() {
    let cases = data("encode.json");
    let src = source();
    let mut out = String::new();
    for case in cases.as_array().expect("array") {
        let def = definition(
            case["event"].as_str().expect("event"),
            case["handler"].clone(),
            ClaudeMode::Default,
        );
        let env: Envelope = serde_json::from_value(case["envelope"].clone()).expect("envelope");
        let _ = writeln!(out, "== {}", case["name"].as_str().expect("name"));
        match def.codec.encode(&def, &env, &ctx(&src, Some(Path::new("/proj")))) {
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
            Ok(inv) => {
                let _ = writeln!(out, "program: {:?}", inv.program);
                let _ = writeln!(out, "cwd: {:?} timeout: {:?}", inv.cwd, inv.timeout);
                let _ = writeln!(out, "env: {:?}", inv.env);
                let stdin: Value = serde_json::from_slice(&inv.stdin).expect("stdin is JSON");
                let _ = writeln!(out, "stdin: {stdin}");
            }
        }
    }
    expect_file!["../../test_data/output/codec/encode.txt"].assert_eq(&out);
}

fn pre_tool(mode: ClaudeMode) -> HookDefinition {
    definition("PreToolUse", json!({"type": "command", "command": "./h.sh"}), mode)
}

#[test]
fn strict_binary_output_denies_even_inside_a_json_string() {
    let def = pre_tool(ClaudeMode::Strict);
    let env = Envelope::new(HookEvent::PreToolUse);
    for stdout in [&b"\x00\xff\xfe"[..], &b"{\"systemMessage\": \"\xff\"}"[..]] {
        let mut o = outcome(ExitInfo::Exited(0), "", "");
        o.stdout = CapturedOutput::whole(stdout.to_vec());
        let v = def.codec.decode(&def, &env, &o);
        assert_eq!(v.decision, Some(Decision::Deny), "{stdout:?}: {v:?}");
        assert_eq!(v.failure.as_deref(), Some("the output is not UTF-8 text"));
    }
    // In default mode the same bytes are read lossily, as Claude Code reads them.
    let def = pre_tool(ClaudeMode::Default);
    let mut o = outcome(ExitInfo::Exited(0), "", "");
    o.stdout = CapturedOutput::whole(b"\x00\xff\xfe".to_vec());
    assert_eq!(def.codec.decode(&def, &env, &o).decision, None);
}

#[test]
fn exit_two_blocks_even_when_json_allows() {
    let def = pre_tool(ClaudeMode::Default);
    let allow =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let v = def.codec.decode(
        &def,
        &Envelope::new(HookEvent::PreToolUse),
        &outcome(ExitInfo::Exited(2), allow, "no"),
    );
    assert_eq!(v.decision, Some(Decision::Deny));
    assert_eq!(v.reason.as_deref(), Some("no"));
}

#[test]
fn timeout_fails_open_by_default_and_closed_when_strict_or_blocking() {
    let env = Envelope::new(HookEvent::PreToolUse);
    let mut o = outcome(ExitInfo::Signaled(9), "", "");
    o.timed_out = true;
    let def = pre_tool(ClaudeMode::Default);
    let v = def.codec.decode(&def, &env, &o);
    assert_eq!(v.decision, None);
    assert!(v.failure.as_deref().is_some_and(|f| f.contains("timed out")));
    let def = pre_tool(ClaudeMode::Strict);
    assert_eq!(def.codec.decode(&def, &env, &o).decision, Some(Decision::Deny));
    let def = definition(
        "PreToolUse",
        json!({"type": "command", "command": "./h.sh", "onFailure": "block"}),
        ClaudeMode::Default,
    );
    assert_eq!(def.codec.decode(&def, &env, &o).decision, Some(Decision::Deny));
}

#[test]
fn strict_allow_never_relaxes_and_rewrites_are_dropped() {
    let def = pre_tool(ClaudeMode::Strict);
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}"#;
    let v = def.codec.decode(
        &def,
        &Envelope::new(HookEvent::PreToolUse),
        &outcome(ExitInfo::Exited(0), out, ""),
    );
    assert_eq!(v.decision, None);
    assert_eq!(v.rewrite, None);
}

#[test]
fn updated_input_replaces_the_arguments() {
    let def = pre_tool(ClaudeMode::Default);
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"}}}"#;
    let v = def.codec.decode(
        &def,
        &Envelope::new(HookEvent::PreToolUse),
        &outcome(ExitInfo::Exited(0), out, ""),
    );
    assert_eq!(v.rewrite, Some(ArgRewrite::Replace(json!({"command": "ls -la"}))));
    assert_eq!(v.decision, None);
}

fn post_tool(envelope_tool: Option<Value>, stdout: &str) -> HookVerdict {
    let def = definition(
        "PostToolUse",
        json!({"type": "command", "command": "./h.sh"}),
        ClaudeMode::Default,
    );
    let mut env = Envelope::new(HookEvent::PostToolUse);
    env.tool = envelope_tool.map(|t| serde_json::from_value(t).expect("tool call"));
    def.codec.decode(&def, &env, &outcome(ExitInfo::Exited(0), stdout, ""))
}

#[test]
fn updated_mcp_tool_output_replaces_an_mcp_tools_output() {
    let mcp = json!({"name": "get_secret", "kind": "mcp", "mcp_server": "vault", "args": {}});
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"type":"text","text":"password=[REDACTED]"}]}}"#;
    let v = post_tool(Some(mcp.clone()), out);
    assert_eq!(v.updated_output, Some(json!([{"type": "text", "text": "password=[REDACTED]"}])));
    assert!(v.notes.is_empty(), "{:?}", v.notes);
    let bash = json!({"name": "Bash", "kind": "shell", "args": {"command": "env"}});
    let v = post_tool(Some(bash), out);
    assert_eq!(v.updated_output, None);
    assert_eq!(v.notes, ["`updatedMCPToolOutput` is ignored: the tool is not an MCP tool"]);
    let both = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"a","updatedMCPToolOutput":"b"}}"#;
    let v = post_tool(Some(mcp), both);
    assert_eq!(v.updated_output, Some(json!("a")));
    assert_eq!(
        v.notes,
        ["`updatedMCPToolOutput` is ignored: `updatedToolOutput` replaces the output"]
    );
}

#[test]
fn updated_tool_output_survives_a_block_and_exit_two_reads_no_json() {
    let bash = json!({"name": "Bash", "kind": "shell", "args": {"command": "cat .env"}});
    let out = r#"{"decision":"block","reason":"a secret was printed","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"TOKEN=[REDACTED]","stderr":"","interrupted":false}}}"#;
    let v = post_tool(Some(bash), out);
    assert_eq!(v.decision, None);
    assert_eq!(v.context, ["a secret was printed"]);
    assert_eq!(
        v.updated_output,
        Some(json!({"stdout": "TOKEN=[REDACTED]", "stderr": "", "interrupted": false}))
    );
}

#[test]
fn long_texts_are_capped() {
    let def = definition(
        "UserPromptSubmit",
        json!({"type": "command", "command": "./h.sh"}),
        ClaudeMode::Default,
    );
    let long = "é".repeat(MAX_TEXT_CHARS + 5);
    let v = def.codec.decode(
        &def,
        &Envelope::new(HookEvent::PromptSubmit),
        &outcome(ExitInfo::Exited(0), &long, ""),
    );
    let c = &v.context[0];
    assert!(c.starts_with(&"é".repeat(MAX_TEXT_CHARS)));
    assert!(c.ends_with("[… 5 more characters truncated]"));
}

#[test]
fn exec_form_runs_without_a_shell_and_expands_the_project_dir() {
    let def = definition(
        "PreToolUse",
        json!({"type": "command", "command": "${CLAUDE_PROJECT_DIR}/gate", "args": ["${CLAUDE_PROJECT_DIR}", "$HOME"]}),
        ClaudeMode::Default,
    );
    let mut env = Envelope::new(HookEvent::PreToolUse);
    env.tool = Some(
        serde_json::from_value(json!({"name": "Bash", "kind": "shell", "args": {}})).expect("tool"),
    );
    let src = source();
    let inv =
        def.codec.encode(&def, &env, &ctx(&src, Some(Path::new("/my proj")))).expect("encodes");
    assert_eq!(
        inv.program,
        Program::Exec { argv: vec!["/my proj/gate".into(), "/my proj".into(), "$HOME".into()] }
    );
    assert!(inv.env.contains(&("CLAUDE_PROJECT_DIR".to_owned(), "/my proj".to_owned())));
}

#[test]
fn shell_form_never_pastes_the_project_dir_into_the_script() {
    // Claude Code 2.1.x sets `CLAUDE_PROJECT_DIR` and lets the shell expand it: the script is
    // handed over as written, whatever the directory is called.
    let def = definition(
        "Stop",
        json!({"type": "command", "command": "cat ${CLAUDE_PROJECT_DIR}/x; echo \"${CLAUDE_PROJECT_DIR}\""}),
        ClaudeMode::Default,
    );
    let src = source();
    let env = Envelope::new(HookEvent::Stop);
    for dir in ["/p/proj;touch X;", "/p/$(reboot)", "/p q", "/plain"] {
        let inv = def.codec.encode(&def, &env, &ctx(&src, Some(Path::new(dir)))).expect("encodes");
        assert_eq!(
            inv.program,
            Program::Shell {
                script: "cat ${CLAUDE_PROJECT_DIR}/x; echo \"${CLAUDE_PROJECT_DIR}\"".into(),
                shell: None
            },
            "{dir}"
        );
        assert!(inv.env.contains(&("CLAUDE_PROJECT_DIR".to_owned(), dir.to_owned())), "{dir}");
    }
}

#[test]
fn powershell_reads_the_project_dir_from_its_environment() {
    let def = definition(
        "Stop",
        json!({"type": "command", "command": "& \"${CLAUDE_PROJECT_DIR}/x.ps1\"", "shell": "powershell"}),
        ClaudeMode::Default,
    );
    let src = source();
    let inv = def
        .codec
        .encode(&def, &Envelope::new(HookEvent::Stop), &ctx(&src, Some(Path::new("/p';x;'"))))
        .expect("encodes");
    assert_eq!(
        inv.program,
        Program::Shell {
            script: "& \"${env:CLAUDE_PROJECT_DIR}/x.ps1\"".into(),
            shell: Some("powershell".into())
        }
    );
}

#[test]
fn project_dir_falls_back_to_the_working_dir() {
    let def =
        definition("Stop", json!({"type": "command", "command": "./x.sh"}), ClaudeMode::Default);
    let src = source();
    let inv =
        def.codec.encode(&def, &Envelope::new(HookEvent::Stop), &ctx(&src, None)).expect("encodes");
    assert_eq!(inv.env[0], ("CLAUDE_PROJECT_DIR".to_owned(), "/proj".to_owned()));
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/proj")));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_output_never_panics(
        native in prop::sample::select(crate::NativeEvent::ALL.to_vec()),
        strict in any::<bool>(),
        code in -3i32..260,
        stdout in prop_oneof![".{0,64}", Just("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\"}}".to_owned()), "\\{.{0,40}"],
        stderr in ".{0,32}",
        timed_out in any::<bool>(),
    ) {
        let mode = if strict { ClaudeMode::Strict } else { ClaudeMode::Default };
        let handler = json!({"type": "command", "command": "./h.sh"});
        let def = definition(native.as_str(), handler, mode);
        let mut o = outcome(ExitInfo::Exited(code), &stdout, &stderr);
        o.timed_out = timed_out;
        let v = def.codec.decode(&def, &Envelope::new(def.event), &o);
        if strict && def.event.is_gated() {
            // Deny-only: a strict hook never allows or rewrites.
            prop_assert_ne!(v.decision, Some(Decision::Allow));
            prop_assert!(v.rewrite.is_none());
            // Every failure denies: a timeout, any exit code but 0, and at exit 0 any output
            // that is neither silence nor one JSON object.
            if timed_out || code != 0 || !(stdout.trim().is_empty() || stdout.trim_start().starts_with('{')) {
                prop_assert_eq!(v.decision, Some(Decision::Deny));
            }
        }
        if code == 2 && !timed_out && native == crate::NativeEvent::PreToolUse {
            prop_assert_eq!(v.decision, Some(Decision::Deny));
        }
    }
}

fn http_pre_tool(mode: ClaudeMode, extra: Value) -> HookDefinition {
    let mut handler = json!({"type": "http", "url": "http://127.0.0.1:9/pre"});
    if let (Some(h), Some(e)) = (handler.as_object_mut(), extra.as_object()) {
        h.extend(e.clone());
    }
    definition("PreToolUse", handler, mode)
}

/// The outcomes Claude Code 2.1.328 was seen to read (specs/formats/claude.md "HTTP hooks"):
/// only a 2xx JSON answer decides; every other outcome is a non-blocking failure.
#[test]
fn http_answers_are_read_as_claude_code_reads_them() {
    let env = Envelope::new(HookEvent::PreToolUse);
    let def = http_pre_tool(ClaudeMode::Default, json!({}));
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"H00"}}"#;
    let legacy = r#"{"decision":"block","reason":"H04"}"#;
    let cases: [(ExitInfo, &str, Option<Decision>, bool); 8] = [
        (ExitInfo::Responded(200), deny, Some(Decision::Deny), false),
        (ExitInfo::Responded(200), legacy, Some(Decision::Deny), false),
        (ExitInfo::Responded(200), "", None, false),
        (ExitInfo::Responded(204), "  ", None, false),
        (ExitInfo::Responded(200), "H03 not json", None, true),
        (ExitInfo::Responded(500), deny, None, true),
        (ExitInfo::Responded(302), "", None, true),
        (ExitInfo::Responded(403), "forbidden", None, true),
    ];
    for (exit, body, decision, failed) in cases {
        let v = def.codec.decode(&def, &env, &outcome(exit.clone(), body, ""));
        assert_eq!(v.decision, decision, "{exit:?} {body}: {v:?}");
        assert_eq!(v.failure.is_some(), failed, "{exit:?} {body}: {v:?}");
    }
    let v = def.codec.decode(&def, &env, &outcome(ExitInfo::Responded(200), deny, ""));
    assert_eq!(v.reason.as_deref(), Some("H00"));
    // No connection, no answer in time: failures that decide nothing.
    let refused = ExitInfo::NotStarted(hooks_schema::SpawnFailure {
        kind: hooks_schema::SpawnFailureKind::Unreachable,
        message: "connection refused".to_owned(),
    });
    let v = def.codec.decode(&def, &env, &outcome(refused.clone(), "", ""));
    assert_eq!(v.decision, None);
    assert!(v.failure.as_deref().is_some_and(|f| f.contains("connection refused")), "{v:?}");
    let mut late = outcome(refused.clone(), "", "");
    late.timed_out = true;
    let v = def.codec.decode(&def, &env, &late);
    assert_eq!(v.decision, None);
    assert!(v.failure.as_deref().is_some_and(|f| f.contains("no response within")), "{v:?}");
    // A truncated JSON body is no answer.
    let mut cut = outcome(ExitInfo::Responded(200), deny, "");
    cut.stdout.truncated = true;
    assert_eq!(def.codec.decode(&def, &env, &cut).decision, None);
    // Failing closed: strict sources and `onFailure: block` deny on every failure.
    for def in [
        http_pre_tool(ClaudeMode::Strict, json!({})),
        http_pre_tool(ClaudeMode::Default, json!({"onFailure": "block"})),
    ] {
        for o in [
            outcome(ExitInfo::Responded(500), "", ""),
            outcome(refused.clone(), "", ""),
            late.clone(),
        ] {
            assert_eq!(def.codec.decode(&def, &env, &o).decision, Some(Decision::Deny), "{o:?}");
        }
        let ok = outcome(ExitInfo::Responded(200), "", "");
        assert_eq!(def.codec.decode(&def, &env, &ok).decision, None);
    }
}

#[test]
fn http_hooks_post_the_command_hooks_stdin() {
    let def = http_pre_tool(ClaudeMode::Default, json!({"timeout": 3}));
    let cmd = pre_tool(ClaudeMode::Default);
    let mut env = Envelope::new(HookEvent::PreToolUse);
    env.session_id = Some("s1".to_owned());
    env.tool = Some(
        serde_json::from_value(json!({"name": "Bash", "kind": "shell", "args": {"command": "ls"}}))
            .expect("tool"),
    );
    let source = source();
    let http = def.codec.encode(&def, &env, &ctx(&source, None)).expect("encodes");
    let command = cmd.codec.encode(&cmd, &env, &ctx(&source, None)).expect("encodes");
    assert_eq!(http.stdin, command.stdin);
    assert_eq!(http.timeout, Duration::from_secs(3));
    let hooks_schema::Program::Http(h) = &http.program else { panic!("{http:?}") };
    assert_eq!(h.url, "http://127.0.0.1:9/pre");
    assert!(http.env.is_empty() && http.cwd.is_none());
}
