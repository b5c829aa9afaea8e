//! Tests of the protocol codec: the recorded payloads of Gemini CLI 0.61.0 reproduced
//! exactly, the recorded `BeforeTool` matrix decoded as Gemini CLI decided it, golden decode
//! tables for every event, and the command line and environment Gemini CLI builds.

use std::{fmt::Write as _, path::Path, time::Duration};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, ArgRewrite, CapturedOutput, Decision, Envelope, ExitInfo, HookCodec,
    HookDefinition, HookSourceId, HostCodec, Program, RawOutcome, SpawnFailure, SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use hooks_schema::testing::{encode_context, render_verdict as render};

use super::*;
use crate::{GeminiHost, parse};

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON")
}

/// One definition of `event` parsed from a one-handler settings document.
pub(crate) fn definition(event: &str, command: &str) -> HookDefinition {
    let doc = json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}});
    let bytes = serde_json::to_vec(&doc).expect("encode");
    let parsed = parse(&bytes, Path::new("/proj/.gemini/settings.json")).expect("parses");
    parsed.definitions.into_iter().next().expect("one definition")
}

fn source() -> HookSourceId {
    HookSourceId::new(
        crate::PROJECT_SETTINGS,
        AbsPathBuf::new("/proj/.gemini/settings.json".into()).expect("abs"),
    )
}

#[test]
fn recorded_payloads_are_reproduced() {
    let dir = data_dir().join("payloads");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    files.sort();
    assert!(files.len() >= 14);
    let src = source();
    for file in files {
        let recorded = read_json(&file);
        let stdin = serde_json::to_vec(&recorded).expect("encode");
        let name = recorded["hook_event_name"].as_str().expect("event").to_owned();
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        let decoded = GeminiHost.decode_input(&stdin, None);
        let golden = data_dir().join(format!("output/host/{stem}.txt"));
        let Ok(input) = decoded else {
            expect_file![golden].assert_eq(&format!("{decoded:?}\n"));
            assert!(GeminiEvent::from_name(&name).and_then(GeminiEvent::canonical).is_none());
            continue;
        };
        let pretty = serde_json::to_string_pretty(&input.envelope).expect("envelope");
        expect_file![golden].assert_eq(&format!("{pretty}\n"));
        let native = GeminiEvent::from_name(&name).expect("event");
        let rebuilt = payload(native, &input.envelope, &encode_context(&src, Path::new("/proj")))
            .expect("payload");
        assert_eq!(rebuilt, recorded, "{stem}: the hook input Gemini CLI sent is reproduced");
    }
}

#[test]
fn payload_fields_are_in_gemini_order() {
    let mut env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    env.session_id = Some("s1".into());
    env.cwd = Some("/proj".into());
    env.timestamp = Some("2026-12-01T20:11:50.721Z".into());
    env.tool = Some(hooks_schema::ToolCall {
        name: "Bash".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    let src = source();
    let p = payload(GeminiEvent::BeforeTool, &env, &encode_context(&src, Path::new("/proj")))
        .expect("payload");
    assert_eq!(
        serde_json::to_string(&p).expect("json"),
        r#"{"session_id":"s1","transcript_path":"","cwd":"/proj","hook_event_name":"BeforeTool","timestamp":"2026-12-01T20:11:50.721Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#
    );
}

fn outcome(case: &Value) -> RawOutcome {
    let s = |k: &str| case.get(k).and_then(Value::as_str).unwrap_or_default().as_bytes().to_vec();
    let code = |k: &str| case.get(k).and_then(Value::as_i64).and_then(|c| i32::try_from(c).ok());
    let timed_out = case.get("timed_out") == Some(&Value::Bool(true));
    let exit = if let Some(msg) = case.get("not_started").and_then(Value::as_str) {
        ExitInfo::NotStarted(SpawnFailure {
            kind: SpawnFailureKind::ProgramNotFound,
            message: msg.to_owned(),
        })
    } else if let Some(sig) = code("signal") {
        ExitInfo::Signaled(sig)
    } else if timed_out {
        ExitInfo::Signaled(15)
    } else {
        ExitInfo::Exited(code("exit").or_else(|| code("rc")).unwrap_or(0))
    };
    RawOutcome {
        exit,
        timed_out,
        stdout: CapturedOutput::whole(s("stdout")),
        stderr: CapturedOutput::whole(s("stderr")),
        result_file: None,
        duration: Duration::from_millis(5),
    }
}

#[test]
fn recorded_before_tool_matrix_decodes_as_gemini_decided() {
    let cases = read_json(&data_dir().join("pre-matrix.json"));
    let hook = definition("BeforeTool", "answer");
    let env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    let mut golden = String::new();
    for case in cases.as_array().expect("cases") {
        let v = GeminiCodec.decode(&hook, &env, &outcome(case));
        let name = case["name"].as_str().expect("name");
        let want = case["decision"]
            .as_str()
            .map(|d| if d == "deny" { Decision::Deny } else { Decision::Ask });
        assert_eq!(v.decision, want, "{name}");
        if want.is_some() {
            assert_eq!(v.reason.as_deref(), case["reason"].as_str(), "{name}");
        }
        let _ = writeln!(
            golden,
            "{name} (Gemini CLI: {}):{}",
            case["observed"].as_str().unwrap_or_default(),
            render(&v)
        );
    }
    expect_file![data_dir().join("output/pre-matrix.txt")].assert_eq(&golden);
}

#[test]
fn rewrite_and_stop_of_the_matrix() {
    let hook = definition("BeforeTool", "answer");
    let env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    let v = GeminiCodec.decode(
        &hook,
        &env,
        &outcome(
            &json!({"stdout": r#"{"hookSpecificOutput":{"tool_input":{"command":"touch b"}}}"#}),
        ),
    );
    let mut keys = serde_json::Map::new();
    keys.insert("command".into(), json!("touch b"));
    assert_eq!(v.rewrite, Some(ArgRewrite::Merge(keys)));
    let v = GeminiCodec.decode(
        &hook,
        &env,
        &outcome(&json!({"stdout": r#"{"continue":false,"stopReason":"G04-stop"}"#})),
    );
    assert_eq!(v.halt.as_deref(), Some("G04-stop"));
}

#[test]
fn decode_table() {
    let cases = read_json(&data_dir().join("decode.json"));
    let mut golden = String::new();
    for case in cases.as_array().expect("cases") {
        let event = case["event"].as_str().expect("event");
        let hook = definition(event, "x");
        let env = Envelope::new(hook.event);
        let v = GeminiCodec.decode(&hook, &env, &outcome(case));
        let _ = writeln!(
            golden,
            "{event} / {}:{}",
            case["name"].as_str().unwrap_or_default(),
            render(&v)
        );
    }
    expect_file![data_dir().join("output/decode.txt")].assert_eq(&golden);
}

#[test]
fn encode_runs_bash_in_the_session_directory_with_geminis_variables() {
    let mut hook = definition(
        "BeforeTool",
        "$GEMINI_PROJECT_DIR/.gemini/hooks/check.sh --sid $GEMINI_SESSION_ID ${GEMINI_CWD}",
    );
    hook.env = vec![("GEMINI_CWD".into(), "overridden".into()), ("MODE".into(), "x".into())];
    let mut env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    env.cwd = Some("/work/my proj".into());
    env.session_id = Some("abc".into());
    env.tool = Some(hooks_schema::ToolCall {
        name: "run_shell_command".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    let src = source();
    let inv = GeminiCodec
        .encode(&hook, &env, &encode_context(&src, Path::new("/proj")))
        .expect("encodes");
    assert_eq!(
        inv.program,
        Program::Shell {
            // `${GEMINI_CWD}` is not Gemini CLI's literal name: the shell expands it.
            script: "'/work/my proj'/.gemini/hooks/check.sh --sid abc ${GEMINI_CWD}".into(),
            shell: Some("bash".into()),
        }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/work/my proj")));
    assert_eq!(
        inv.env,
        vec![
            ("GEMINI_PROJECT_DIR".to_owned(), "/work/my proj".to_owned()),
            ("CLAUDE_PROJECT_DIR".to_owned(), "/work/my proj".to_owned()),
            ("GEMINI_SESSION_ID".to_owned(), "abc".to_owned()),
            ("GEMINI_CWD".to_owned(), "overridden".to_owned()),
            ("MODE".to_owned(), "x".to_owned()),
        ]
    );
    assert_eq!(inv.timeout, Duration::from_secs(60));
    let stdin: Value = serde_json::from_slice(&inv.stdin).expect("stdin JSON");
    assert_eq!(stdin["tool_name"], "run_shell_command");
    assert_eq!(stdin["cwd"], "/work/my proj");
    // Gemini CLI has no http hooks: a definition of one (from an embedder) never runs.
    hook.command = hooks_schema::HookCommand::Http(hooks_schema::HttpHook {
        url: "http://127.0.0.1:9/hook".into(),
        headers: Vec::new(),
        allowed_env_vars: Vec::new(),
    });
    let refused = GeminiCodec.encode(&hook, &env, &encode_context(&src, Path::new("/proj")));
    assert!(
        matches!(refused, Err(hooks_schema::EncodeError::NoHttpHooks { agent: "Gemini CLI" })),
        "{refused:?}"
    );
}

#[test]
fn launch_names_the_session_directory_and_a_pinned_cwd_wins() {
    let mut hook = definition("BeforeTool", "./check.sh");
    let launch = GeminiCodec.launch(&hook);
    assert_eq!(launch.run_dir, hooks_schema::LaunchDir::Session);
    for v in PROJECT_DIR_VARS {
        assert_eq!(launch.var(v), Some(&hooks_schema::LaunchDir::Session), "{v}");
    }
    hook.cwd = Some("/home/u/.gemini".into());
    hook.env = vec![("TOOLS".into(), "tools".into())];
    let launch = GeminiCodec.launch(&hook);
    assert_eq!(launch.run_dir, hooks_schema::LaunchDir::Fixed("/home/u/.gemini".into()));
    assert_eq!(
        launch.var("TOOLS"),
        Some(&hooks_schema::LaunchDir::Under(
            Box::new(hooks_schema::LaunchDir::Session),
            "tools".into()
        ))
    );
    let mut start = definition("SessionStart", "./start.sh");
    start.cwd = hook.cwd.clone();
    let mut env = Envelope::new(hooks_schema::HookEvent::SessionStart);
    env.cwd = Some("/work/p".into());
    let src = source();
    let inv = GeminiCodec
        .encode(&start, &env, &encode_context(&src, Path::new("/proj")))
        .expect("encodes");
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/home/u/.gemini")));
    let stdin: Value = serde_json::from_slice(&inv.stdin).expect("json");
    assert_eq!(stdin["cwd"], "/work/p", "the input still names the session's directory");
}

#[test]
fn expand_command_follows_gemini() {
    assert_eq!(expand_command("$CLAUDE_PROJECT_DIR/x $GEMINI_SESSION_ID", "/p", ""), "/p/x ");
    assert_eq!(expand_command("$GEMINI_PROJECT_DIRx", "/p", "s"), "/px");
    assert_eq!(expand_command("$GEMINI_PLANS_DIR", "/p", "s"), "$GEMINI_PLANS_DIR");
}

#[test]
fn encode_refuses_mismatched_and_toolless_envelopes() {
    let hook = definition("BeforeTool", "x");
    let src = source();
    let env = Envelope::new(hooks_schema::HookEvent::Stop);
    assert!(GeminiCodec.encode(&hook, &env, &encode_context(&src, Path::new("/proj"))).is_err());
    let env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    assert!(GeminiCodec.encode(&hook, &env, &encode_context(&src, Path::new("/proj"))).is_err());
}

#[test]
fn identical_hooks_run_once() {
    let hook = definition("BeforeTool", "x");
    assert!(GeminiCodec.runs_once_per_command(&hook));
    // `getHookKey` is `<name>:<command>`: the name tells equal commands apart.
    assert_eq!(GeminiCodec.run_once_name(&hook), "");
    let mut named = hook.clone();
    named.native.insert(crate::NATIVE_NAME.to_owned(), Value::String("gate".to_owned()));
    assert_eq!(GeminiCodec.run_once_name(&named), "gate");
}

proptest! {
    #[test]
    fn decode_never_panics(stdout in "\\PC{0,60}", stderr in "\\PC{0,30}", code in -3i32..300, event in prop::sample::select(vec!["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "SessionEnd", "PreCompress", "Notification"])) {
        let hook = definition(event, "x");
        let env = Envelope::new(hook.event);
        let v = GeminiCodec.decode(&hook, &env, &outcome(&json!({"exit": code, "stdout": stdout, "stderr": stderr})));
        // Only BeforeTool and BeforeAgent decide.
        if v.decision.is_some() {
            prop_assert!(matches!(event, "BeforeTool" | "BeforeAgent"));
        }
    }
}

/// An extension's hook that keeps a `${NAME}` is completed from the workspace's `.env`: its
/// launch names that file in the session's folder; other hooks read nothing.
#[test]
fn an_extension_hook_with_a_setting_reads_the_workspace_env() {
    let plain = definition("BeforeTool", "./check.sh");
    assert!(GeminiCodec.launch(&plain).reads.is_empty());
    let text = br#"{"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "sh ${extensionPath}/gate.sh ${GATE_MODE}"},
        {"type": "command", "command": "sh ${extensionPath}/gate.sh", "env": {"M": "${GATE_MODE}"}},
        {"type": "command", "command": "sh ${extensionPath}/gate.sh $GATE_MODE ${unclosed"}
    ]}]}}"#;
    let path = Path::new("/home/u/.gemini/extensions/x/hooks/hooks.json");
    let parsed = crate::parse_extension_hooks(text, path).expect("parses");
    let reads: Vec<Vec<(String, hooks_schema::LaunchDir)>> =
        parsed.definitions.iter().map(|d| GeminiCodec.launch(d).reads).collect();
    let env = vec![(crate::WORKSPACE_ENV_FILE.to_owned(), hooks_schema::LaunchDir::Session)];
    assert_eq!(reads, [env.clone(), env, Vec::new()]);
}
