//! Tests of the protocol codec: the payloads Copilot CLI 1.0.102 sent (recorded in the
//! harness) reproduced exactly from the envelope the host codec decodes, the recorded
//! `preToolUse` / `PreToolUse` matrices decoded as Copilot decided them, the decode rules of
//! the other events, and the command line, directory and environment Copilot builds.

use std::{fmt::Write as _, path::Path, time::Duration};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, ArgRewrite, CapturedOutput, Decision, Envelope, ExitInfo, HookCodec,
    HookDefinition, HookSourceId, HostCodec, LaunchDir, Program, RawOutcome, SpawnFailure,
    SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use hooks_schema::testing::{encode_context, render_verdict as render};

use super::*;
use crate::{CopilotHost, parse};

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON")
}

/// One definition of `event` parsed from a one-entry hook file.
pub(crate) fn definition(event: &str, entry: Value) -> HookDefinition {
    let doc = json!({"version": 1, "hooks": {event: [entry]}});
    let bytes = serde_json::to_vec(&doc).expect("encode");
    let parsed = parse(&bytes, Path::new("/proj/.github/hooks/a.json")).expect("parses");
    parsed.definitions.into_iter().next().expect("one definition")
}

fn source() -> HookSourceId {
    HookSourceId::new(
        crate::PROJECT_HOOKS,
        AbsPathBuf::new("/proj/.github/hooks/a.json".into()).expect("abs"),
    )
}

#[test]
fn recorded_payloads_are_reproduced() {
    let dir = data_dir().join("payloads");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    files.sort();
    assert!(files.len() >= 30);
    let src = source();
    for file in files {
        let rec = read_json(&file);
        let event = rec["event"].as_str().expect("event");
        let recorded = rec["stdin"].clone();
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        let stdin = serde_json::to_vec(&recorded).expect("encode");
        let input = CopilotHost.decode_input(&stdin, Some(event)).expect("decodes");
        let pretty = serde_json::to_string_pretty(&input.envelope).expect("envelope");
        expect_file![data_dir().join(format!("output/host/{stem}.txt"))]
            .assert_eq(&format!("{pretty}\n"));
        let (native, dialect) = CopilotEvent::from_name(event).expect("event");
        let rebuilt =
            payload(native, dialect, &input.envelope, &encode_context(&src, Path::new("/proj")))
                .expect("payload");
        assert_eq!(rebuilt, recorded, "{stem}: the hook input Copilot sent is reproduced");
    }
}

#[test]
fn an_envelope_from_another_host_gets_copilots_names_in_each_dialect() {
    let mut env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    env.session_id = Some("s1".into());
    env.cwd = Some("/proj".into());
    env.timestamp = Some("2026-12-01T20:12:54.053Z".into());
    env.tool = Some(hooks_schema::ToolCall {
        name: "run_shell_command".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    let src = source();
    let camel = payload(
        CopilotEvent::PreToolUse,
        Dialect::Camel,
        &env,
        &encode_context(&src, Path::new("/proj")),
    )
    .expect("camel");
    assert_eq!(
        camel,
        json!({"sessionId": "s1", "timestamp": 1_796_155_974_053_i64, "cwd": "/proj", "toolName": "bash", "toolArgs": {"command": "ls"}})
    );
    let pascal = payload(
        CopilotEvent::PreToolUse,
        Dialect::Pascal,
        &env,
        &encode_context(&src, Path::new("/proj")),
    )
    .expect("pascal");
    assert_eq!(
        pascal,
        json!({"hook_event_name": "PreToolUse", "session_id": "s1", "timestamp": "2026-12-01T20:12:54.053Z", "cwd": "/proj", "tool_name": "Bash", "tool_input": {"command": "ls"}})
    );
    let perm = payload(
        CopilotEvent::PermissionRequest,
        Dialect::Pascal,
        &env,
        &encode_context(&src, Path::new("/proj")),
    )
    .expect("perm");
    assert_eq!(perm["hookName"], "permissionRequest", "always the camelCase payload");
    assert_eq!(perm["toolInput"], json!({"command": "ls"}));
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
        ExitInfo::Signaled(9)
    } else {
        ExitInfo::Exited(code("exit").unwrap_or(0))
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
fn recorded_pre_tool_matrices_decode_as_copilot_decided() {
    let cases = read_json(&data_dir().join("pre-matrix.json"));
    let mut golden = String::new();
    for case in cases.as_array().expect("cases") {
        let event = case["event"].as_str().expect("event");
        let hook = definition(event, json!({"type": "command", "command": "answer"}));
        let env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
        let v = CopilotCodec.decode(&hook, &env, &outcome(case));
        let name = case["name"].as_str().expect("name");
        let want = case["decision"].as_str().map(|d| match d {
            "deny" => Decision::Deny,
            "ask" => Decision::Ask,
            _ => Decision::Allow,
        });
        assert_eq!(v.decision, want, "{event} {name}");
        if let Some(r) = case.get("reason").and_then(Value::as_str) {
            assert_eq!(v.reason.as_deref(), Some(r), "{event} {name}");
        }
        let observed = case["observed"].as_str().unwrap_or_default();
        if observed.contains("new args") || observed.contains("new input") {
            assert!(matches!(v.rewrite, Some(ArgRewrite::Replace(_))), "{name}");
        }
        if observed.contains("context") {
            assert_eq!(v.context.len(), 1, "{name}");
        }
        let _ = writeln!(golden, "{event} {name} (Copilot CLI: {observed}):{}", render(&v));
    }
    expect_file![data_dir().join("output/pre-matrix.txt")].assert_eq(&golden);
}

#[test]
fn decode_rules_of_every_event() {
    let cases = [
        ("preToolUse", json!({"timed_out": true})),
        ("preToolUse", json!({"not_started": "no such file"})),
        ("preToolUse", json!({"signal": 9})),
        ("preToolUse", json!({"stdout": "\"just a string\""})),
        (
            "preToolUse",
            json!({"stdout": "{\"permissionDecision\":\"deny\",\"modifiedArgs\":{\"a\":1}}"}),
        ),
        ("preToolUse", json!({"stdout": "{\"permissionDecision\":\"maybe\"}"})),
        (
            "PreToolUse",
            json!({"exit": 2, "stdout": "{\"hookSpecificOutput\":{\"permissionDecisionReason\":\"nested\"}}"}),
        ),
        ("permissionRequest", json!({"stdout": "{\"behavior\":\"allow\"}"})),
        (
            "permissionRequest",
            json!({"stdout": "{\"behavior\":\"deny\",\"message\":\"no\",\"interrupt\":true}"}),
        ),
        ("permissionRequest", json!({"exit": 2})),
        ("permissionRequest", json!({"exit": 1, "stderr": "boom"})),
        ("agentStop", json!({"stdout": "{\"decision\":\"block\",\"reason\":\"run the tests\"}"})),
        ("agentStop", json!({"stdout": "{\"decision\":\"block\"}"})),
        ("Stop", json!({"stdout": "{\"decision\":\"block\",\"reason\":\"again\"}"})),
        (
            "subagentStop",
            json!({"stdout": "{\"decision\":\"block\",\"reason\":\"more\",\"modifiedResponse\":\"x\"}"}),
        ),
        (
            "postToolUse",
            json!({"stdout": "{\"modifiedResult\":{\"resultType\":\"success\",\"textResultForLlm\":\"[redacted]\"},\"additionalContext\":\"ctx\"}"}),
        ),
        ("postToolUseFailure", json!({"exit": 2, "stdout": "retry with --force"})),
        ("sessionStart", json!({"stdout": "{\"additionalContext\":\"repo rules\"}"})),
        ("sessionStart", json!({"exit": 2, "stderr": "careful"})),
        ("sessionStart", json!({"exit": 1, "stderr": "boom"})),
        (
            "userPromptSubmitted",
            json!({"stdout": "{\"additionalContext\":\"c\",\"modifiedPrompt\":\"p\"}"}),
        ),
        (
            "SessionStart",
            json!({"stdout": "{\"hookSpecificOutput\":{\"additionalContext\":\"nested ctx\"}}"}),
        ),
        ("sessionEnd", json!({"stdout": "{\"additionalContext\":\"late\"}"})),
        (
            "notification",
            json!({"stdout": "{\"type\":\"progress\",\"message\":\"working\"}\n{\"additionalContext\":\"n\"}"}),
        ),
    ];
    let mut golden = String::new();
    for (event, case) in cases {
        let hook =
            definition(event, json!({"type": "command", "command": "answer", "timeoutSec": 5}));
        let v = CopilotCodec.decode(&hook, &Envelope::new(hook.event), &outcome(&case));
        let _ = writeln!(golden, "{event} {case}:{}", render(&v));
    }
    expect_file![data_dir().join("output/decode.txt")].assert_eq(&golden);
}

#[test]
fn a_timeout_never_denies_and_an_error_denies_only_pre_tool_use() {
    for event in ["preToolUse", "PreToolUse", "permissionRequest", "agentStop"] {
        let hook = definition(event, json!({"bash": "x"}));
        let env = Envelope::new(hook.event);
        let t = CopilotCodec.decode(&hook, &env, &outcome(&json!({"timed_out": true})));
        assert_eq!(t.decision, None, "{event}: Copilot fails open on a timeout");
        assert_eq!(t.failure.as_deref(), Some("Hook command timed out after 30 seconds"));
        let e = CopilotCodec.decode(&hook, &env, &outcome(&json!({"exit": 1})));
        let denies = event.eq_ignore_ascii_case("pretooluse");
        assert_eq!(e.decision == Some(Decision::Deny), denies, "{event}");
    }
}

#[test]
fn the_command_runs_in_the_root_with_copilots_variables() {
    let hook = definition(
        "preToolUse",
        json!({"type": "command", "bash": "./check.sh", "cwd": "tools", "env": {"A": "1", "COPILOT_HOOK_DIR": "/mine"}, "timeoutSec": 3}),
    );
    let mut env = Envelope::new(hooks_schema::HookEvent::PreToolUse);
    env.cwd = Some("/proj/sub".into());
    env.tool = Some(hooks_schema::ToolCall {
        name: "bash".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    let src = source();
    let inv = CopilotCodec
        .encode(&hook, &env, &encode_context(&src, Path::new("/proj")))
        .expect("encodes");
    assert_eq!(
        inv.program,
        Program::Shell { script: "./check.sh".into(), shell: Some("bash".into()) }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/proj/tools")));
    assert_eq!(inv.timeout, Duration::from_secs(3));
    let get = |k: &str| inv.env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(get("COPILOT_PROJECT_DIR"), Some("/proj"));
    assert_eq!(get("CLAUDE_PROJECT_DIR"), Some("/proj"));
    assert_eq!(get("COPILOT_HOOK_DIR"), Some("/mine"), "the entry's env wins");
    assert_eq!(get("A"), Some("1"));
    let stdin: Value = serde_json::from_slice(&inv.stdin).expect("json");
    assert_eq!(stdin["cwd"], "/proj/sub", "the payload keeps the session's cwd");
    let launch = CopilotCodec.launch(&hook);
    assert_eq!(launch.run_dir, LaunchDir::Under(Box::new(LaunchDir::Project), "tools".into()));
    assert_eq!(
        launch.var("COPILOT_HOOK_DIR"),
        Some(&LaunchDir::Fixed("/proj/.github/hooks".into()))
    );
    assert_eq!(launch.var("COPILOT_PROJECT_DIR"), Some(&LaunchDir::Project));
    let exec = definition("sessionEnd", json!({"exec": "/bin/echo", "args": ["a b"]}));
    let inv = CopilotCodec
        .encode(&exec, &Envelope::new(exec.event), &encode_context(&src, Path::new("/proj")))
        .expect("encodes");
    assert_eq!(inv.program, Program::Exec { argv: vec!["/bin/echo".into(), "a b".into()] });
}

#[test]
fn encode_refuses_an_envelope_of_another_event_or_without_a_tool() {
    let hook = definition("preToolUse", json!({"bash": "x"}));
    let src = source();
    assert!(
        CopilotCodec
            .encode(
                &hook,
                &Envelope::new(hooks_schema::HookEvent::Stop),
                &encode_context(&src, Path::new("/proj"))
            )
            .is_err()
    );
    assert!(
        CopilotCodec
            .encode(
                &hook,
                &Envelope::new(hooks_schema::HookEvent::PreToolUse),
                &encode_context(&src, Path::new("/proj"))
            )
            .is_err()
    );
}

proptest! {
    #[test]
    fn decoding_any_output_never_panics(
        code in -3i32..300,
        stdout in "\\PC{0,80}",
        json_like in prop::sample::select(vec![
            "{\"permissionDecision\":\"deny\"}", "{\"behavior\":1}", "{\"modifiedArgs\":[]}",
            "{\"decision\":\"block\",\"reason\":7}", "{\"hookSpecificOutput\":null}", "{\"type\":\"progress\"}",
        ]),
        event in prop::sample::select(vec!["preToolUse", "PreToolUse", "permissionRequest", "agentStop", "postToolUse", "sessionStart"]),
    ) {
        let hook = definition(event, json!({"bash": "x"}));
        let env = Envelope::new(hook.event);
        for out in [stdout.as_str(), json_like] {
            let _ = CopilotCodec.decode(&hook, &env, &outcome(&json!({"exit": code, "stdout": out})));
        }
    }
}
