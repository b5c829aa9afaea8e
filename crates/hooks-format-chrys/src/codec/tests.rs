//! Tests for the codec: the payload file and invocation Chrys's runner builds, and
//! `manager.py`'s rules for the result file and failures.

use std::{path::Path, time::Duration};

use expect_test::expect;
use hooks_schema::{
    AbsPathBuf, ArgRewrite, CapturedOutput, Decision, EncodeContext, Envelope, ExitInfo, HookCodec,
    HookDefinition, HookEvent, HookSourceId, Program, Prompt, ProvidedFileRole, RawOutcome,
    SpawnFailure, SpawnFailureKind, ToolCall, ToolKind, ToolResult,
};
use serde_json::json;

use crate::{ChrysCodec, codec::format_utc, codec::python_json, interpreter_candidates, parse};

fn hooks(yaml: &str) -> Vec<HookDefinition> {
    parse(yaml.as_bytes(), Path::new("/proj/.chrys/hooks/hooks.yaml")).expect("loads").definitions
}

fn hook(yaml_entry: &str) -> HookDefinition {
    hooks(&format!("hooks:\n  - {yaml_entry}\n")).remove(0)
}

fn source() -> HookSourceId {
    HookSourceId::new(
        crate::PROJECT_FILE,
        AbsPathBuf::new("/proj/.chrys/hooks/hooks.yaml".into()).expect("abs"),
    )
}

fn ctx<'a>(src: &'a HookSourceId) -> EncodeContext<'a> {
    EncodeContext {
        source: src,
        working_dir: Path::new("/proj"),
        project_dir: Some(Path::new("/proj")),
        config_dir: Some(Path::new("/home/u/.chrys")),
        user_shell: Some("/bin/zsh"),
        agent_version: None,
        session_env: &[],
    }
}

fn pre_tool(args: serde_json::Value) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("S1".into());
    e.profile = Some("Code".into());
    e.cwd = Some("/work/ws".into());
    e.timestamp = Some("2026-03-01T10:20:30.123Z".into());
    e.tool = Some(ToolCall {
        name: "edit_file".into(),
        kind: ToolKind::FileWrite,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args,
    });
    e
}

fn outcome(exit: ExitInfo, result: Option<&str>, stderr: &str) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out: false,
        stdout: CapturedOutput::default(),
        stderr: CapturedOutput::whole(stderr.as_bytes().to_vec()),
        result_file: result.map(|r| CapturedOutput::whole(r.as_bytes().to_vec())),
        duration: Duration::from_millis(5),
    }
}

#[test]
fn encode_builds_chrys_payload_env_and_program() {
    let h = hook(
        r#"{id: "deny etc", event: before_tool_call, match: {tool_name: edit_file}, run: {type: script, path: scripts/deny.py, args: ["--strict"], cwd: "${workspace_cwd}/sub", env: {X_T: "${workspace_cwd}|${chrys_home}|${session_id}|${profile}|${nope}|$HOME", CHRYS_HOOK_ID: overridden}}, execution: {mode: blocking, timeout_seconds: 5}}"#,
    );
    let src = source();
    let inv = ChrysCodec
        .encode(&h, &pre_tool(json!({"path": "/etc/hosts", "n": 1.5, "u": "é"})), &ctx(&src))
        .expect("encodes");
    assert_eq!(inv.stdin, Vec::<u8>::new());
    assert_eq!(inv.timeout, Duration::from_secs(5));
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/work/ws/sub")));
    assert_eq!(inv.env_remove, vec!["PYTHONHOME".to_owned(), "PYTHONPATH".to_owned()]);
    expect![[r#"
        [
            (
                "PYTHONUTF8",
                "1",
            ),
            (
                "PYTHONIOENCODING",
                "utf-8",
            ),
            (
                "CHRYS_HOOK_ID",
                "deny etc",
            ),
            (
                "CHRYS_HOOK_EVENT",
                "before_tool_call",
            ),
            (
                "X_T",
                "/work/ws|/home/u/.chrys|S1|Code|${nope}|$HOME",
            ),
            (
                "CHRYS_HOOK_ID",
                "overridden",
            ),
        ]
    "#]]
    .assert_debug_eq(&inv.env);
    assert_eq!(
        inv.program,
        Program::FirstAvailable {
            candidates: vec![
                vec![
                    "uv".into(),
                    "run".into(),
                    "/proj/.chrys/hooks/scripts/deny.py".into(),
                    "--strict".into()
                ],
                vec![
                    "python3".into(),
                    "/proj/.chrys/hooks/scripts/deny.py".into(),
                    "--strict".into()
                ],
                vec![
                    "python".into(),
                    "/proj/.chrys/hooks/scripts/deny.py".into(),
                    "--strict".into()
                ],
            ]
        }
    );
    assert_eq!(inv.files.len(), 2);
    assert_eq!(inv.files[0].env_var, "CHRYS_HOOK_PAYLOAD_FILE");
    assert_eq!(inv.files[0].name_hint, "deny_etc-payload");
    assert_eq!(inv.files[1].env_var, "CHRYS_HOOK_RESULT");
    assert_eq!(inv.files[1].role, ProvidedFileRole::Output);
    let ProvidedFileRole::Input(bytes) = &inv.files[0].role else { panic!("input") };
    expect![[r#"{"session_id": "S1", "profile": "Code", "cwd": "/work/ws", "tool": {"name": "edit_file", "kind": "filesystem.write", "call_id": "c1", "args": {"path": "/etc/hosts", "n": 1.5, "u": "\u00e9"}}, "schema": 1, "event": "before_tool_call", "timestamp": "2026-03-01T10:20:30Z"}"#]]
        .assert_eq(std::str::from_utf8(bytes).expect("ascii"));
}

#[test]
fn encode_command_and_shell() {
    let src = source();
    let cmd = hook(
        r#"{id: c, event: user_prompt_submit, run: {type: command, argv: [uv, run, ruff], args: [--fix]}}"#,
    );
    let mut env = Envelope::new(HookEvent::PromptSubmit);
    env.prompt = Some(Prompt { text: "hi".into(), injected: true, attachments: vec![] });
    let inv = ChrysCodec.encode(&cmd, &env, &ctx(&src)).expect("encodes");
    assert_eq!(
        inv.program,
        Program::Exec { argv: vec!["uv".into(), "run".into(), "ruff".into(), "--fix".into()] }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/proj")));
    let ProvidedFileRole::Input(bytes) = &inv.files[0].role else { panic!("input") };
    let text = std::str::from_utf8(bytes).expect("ascii");
    assert!(text.contains(r#""text": "hi", "injected": true"#), "{text}");

    let sh = hook(
        r#"{id: s, event: after_turn, run: {type: shell, shell: "echo hi", args: [ignored]}}"#,
    );
    let inv =
        ChrysCodec.encode(&sh, &Envelope::new(HookEvent::TurnEnd), &ctx(&src)).expect("encodes");
    assert_eq!(
        inv.program,
        Program::Shell { script: "echo hi".into(), shell: Some("/bin/zsh".into()) }
    );
    let mut no_shell = ctx(&src);
    no_shell.user_shell = None;
    let inv =
        ChrysCodec.encode(&sh, &Envelope::new(HookEvent::TurnEnd), &no_shell).expect("encodes");
    assert_eq!(inv.program, Program::Shell { script: "echo hi".into(), shell: None });
}

#[test]
fn encode_refuses_a_missing_tool_or_another_event() {
    let src = source();
    let h = hook("{id: t, event: before_tool_call, run: {type: shell, shell: x}}");
    let err = ChrysCodec
        .encode(&h, &Envelope::new(HookEvent::PreToolUse), &ctx(&src))
        .expect_err("no tool");
    assert_eq!(err.to_string(), "before_tool_call needs a tool call in the envelope");
    let err = ChrysCodec
        .encode(&h, &Envelope::new(HookEvent::SessionStart), &ctx(&src))
        .expect_err("event");
    assert_eq!(
        err.to_string(),
        "envelope event session_start is not the hook's event before_tool_call"
    );
}

#[test]
fn after_tool_call_payload_carries_the_result() {
    let src = source();
    let h = hook("{id: t, event: after_tool_call, run: {type: shell, shell: x}}");
    let mut env = pre_tool(json!({"a": [1, true, null]}));
    env.event = HookEvent::PostToolUse;
    env.result = Some(ToolResult {
        text: Some("ok".into()),
        duration_ms: Some(12),
        ..ToolResult::default()
    });
    env.extra.insert("workflow_id".into(), json!("w1"));
    env.extra.insert("event".into(), json!("spoofed"));
    let inv = ChrysCodec.encode(&h, &env, &ctx(&src)).expect("encodes");
    let ProvidedFileRole::Input(bytes) = &inv.files[0].role else { panic!("input") };
    expect![[r#"{"session_id": "S1", "profile": "Code", "cwd": "/work/ws", "tool": {"name": "edit_file", "kind": "filesystem.write", "call_id": "c1", "args": {"a": [1, true, null]}}, "result": {"text": "ok", "duration_ms": 12, "error": null, "failed": false, "approval_rejected": false}, "schema": 1, "event": "after_tool_call", "timestamp": "2026-03-01T10:20:30Z", "workflow_id": "w1"}"#]]
        .assert_eq(std::str::from_utf8(bytes).expect("ascii"));
}

#[test]
fn interpreters_by_extension() {
    let first = |p: &str| {
        interpreter_candidates(Path::new(p))
            .into_iter()
            .map(|c| c[..c.len() - 1].join(" "))
            .collect::<Vec<_>>()
    };
    assert_eq!(first("a.py"), ["uv run", "python3", "python"]);
    assert_eq!(first("a"), ["uv run", "python3", "python"]);
    assert_eq!(first("a.SH"), ["bash", "sh"]);
    assert_eq!(first("a.zsh"), ["bash", "sh"]);
    assert_eq!(first("a.mjs"), ["node"]);
    assert_eq!(first("a.ts"), ["npx tsx"]);
    assert_eq!(first("a.rb"), ["ruby"]);
    assert_eq!(first("a.pl"), ["perl"]);
    assert_eq!(first("a.ps1"), ["pwsh -NoProfile -File", "powershell -NoProfile -File"]);
}

#[test]
fn decode_block_modify_and_context() {
    let gate = hook(
        "{id: g, event: before_tool_call, match: {tool_name: x}, run: {type: shell, shell: x}, execution: {mode: blocking}}",
    );
    let env = pre_tool(json!({}));
    let v = ChrysCodec.decode(
        &gate,
        &env,
        &outcome(ExitInfo::Exited(0), Some(r#"{"action": "BLOCK", "reason": "no"}"#), ""),
    );
    assert_eq!(v.decision, Some(Decision::Deny));
    assert_eq!(v.reason.as_deref(), Some("hook 'g' blocked: no"));
    let v = ChrysCodec.decode(
        &gate,
        &env,
        &outcome(ExitInfo::Exited(0), Some(r#"{"action": "block", "reason": 0}"#), ""),
    );
    assert_eq!(v.reason.as_deref(), Some("hook 'g' blocked"));
    let v = ChrysCodec.decode(
        &gate,
        &env,
        &outcome(ExitInfo::Exited(0), Some(r#"{"action": "block", "reason": ["a"]}"#), ""),
    );
    assert_eq!(v.reason.as_deref(), Some("hook 'g' blocked: ['a']"));
    let v = ChrysCodec.decode(
        &gate,
        &env,
        &outcome(
            ExitInfo::Exited(0),
            Some(r#"{"action": "Modify", "args_override": {"path": "/tmp/x"}}"#),
            "",
        ),
    );
    assert_eq!(v.decision, None);
    assert_eq!(
        v.rewrite,
        Some(ArgRewrite::Merge(json!({"path": "/tmp/x"}).as_object().cloned().expect("obj")))
    );
    // args_override without modify is ignored; so is a non-string action.
    let v = ChrysCodec.decode(
        &gate,
        &env,
        &outcome(ExitInfo::Exited(0), Some(r#"{"args_override": {"p": 1}}"#), ""),
    );
    assert_eq!(v.rewrite, None);
    let v =
        ChrysCodec.decode(&gate, &env, &outcome(ExitInfo::Exited(0), Some(r#"{"action": 1}"#), ""));
    assert_eq!(v, hooks_schema::HookVerdict::no_opinion());
    // A blocking hook on a non-gated event cannot block; extra_context counts there.
    let post = hook(
        "{id: p, event: after_tool_call, run: {type: shell, shell: x}, execution: {mode: blocking}}",
    );
    let v = ChrysCodec.decode(
        &post,
        &env,
        &outcome(
            ExitInfo::Exited(0),
            Some(r#"{"action": "block", "extra_context": "lint: ok", "system_reminder": "x"}"#),
            "",
        ),
    );
    assert_eq!(v.decision, None);
    assert_eq!(v.context, vec!["lint: ok".to_owned()]);
    assert_eq!(
        v.notes,
        vec!["action=block ignored: after_tool_call is not a gated event".to_owned()]
    );
    let prompt = hook(
        "{id: u, event: user_prompt_submit, run: {type: shell, shell: x}, execution: {mode: blocking}}",
    );
    let v = ChrysCodec.decode(&prompt, &env, &outcome(ExitInfo::Exited(0), Some(r#"{"system_reminder": "remember", "extra_context": "no", "action": "modify", "args_override": {"a": 1}}"#), ""));
    assert_eq!(v.context, vec!["remember".to_owned()]);
    assert_eq!(v.rewrite, None);
}

#[test]
fn decode_only_blocking_hooks_decide() {
    let env = pre_tool(json!({}));
    for mode in ["async", "fire_and_forget"] {
        let h = hook(&format!(
            "{{id: n, event: before_tool_call, match: {{tool_name: x}}, run: {{type: shell, shell: x}}, execution: {{mode: {mode}, on_error: block}}}}"
        ));
        let v = ChrysCodec.decode(
            &h,
            &env,
            &outcome(ExitInfo::Exited(0), Some(r#"{"action": "block"}"#), ""),
        );
        assert_eq!(v.decision, None, "{mode}");
        let v = ChrysCodec.decode(&h, &env, &outcome(ExitInfo::Exited(1), None, "boom"));
        assert_eq!(v.decision, None, "{mode}");
        assert_eq!(v.failure.as_deref(), Some("exit_code=1"));
    }
}

#[test]
fn decode_result_file_edge_cases() {
    let gate = hook(
        "{id: g, event: before_tool_call, match: {tool_name: x}, run: {type: shell, shell: x}, execution: {mode: blocking}}",
    );
    let env = pre_tool(json!({}));
    let notes = |r: &RawOutcome| ChrysCodec.decode(&gate, &env, r).notes;
    assert!(notes(&outcome(ExitInfo::Exited(0), Some("  \n"), "")).is_empty());
    assert!(notes(&outcome(ExitInfo::Exited(0), None, "")).is_empty());
    assert_eq!(
        notes(&outcome(ExitInfo::Exited(0), Some("[1]"), "")),
        ["result file is not a JSON object; ignored"]
    );
    assert!(
        notes(&outcome(ExitInfo::Exited(0), Some("{nope"), ""))[0]
            .starts_with("result file is not valid JSON")
    );
    let mut big = outcome(ExitInfo::Exited(0), Some(r#"{"action": "block"}"#), "");
    if let Some(f) = &mut big.result_file {
        f.total_len = 2 * 1024 * 1024;
        f.truncated = true;
    }
    let v = ChrysCodec.decode(&gate, &env, &big);
    assert_eq!(v.decision, None);
    assert_eq!(v.notes, ["result file larger than 1 MiB ignored"]);
    let mut bad = outcome(ExitInfo::Exited(0), None, "");
    bad.result_file = Some(CapturedOutput::whole(vec![b'{', 0xff, b'}']));
    assert_eq!(ChrysCodec.decode(&gate, &env, &bad).notes, ["result file is not UTF-8; ignored"]);
}

#[test]
fn decode_failures_follow_on_error() {
    let env = pre_tool(json!({}));
    let block = hook(
        "{id: b, event: before_tool_call, match: {tool_name: x}, run: {type: shell, shell: x}, execution: {mode: blocking, on_error: block}}",
    );
    let long = format!("  {}  ", "e".repeat(300));
    let v = ChrysCodec.decode(
        &block,
        &env,
        &outcome(
            ExitInfo::Exited(3),
            Some(r#"{"action": "modify", "args_override": {"a": 1}}"#),
            &long,
        ),
    );
    assert_eq!(v.decision, Some(Decision::Deny));
    assert_eq!(v.reason, Some(format!("hook 'b' failed (exit_code=3): {}", "e".repeat(200))));
    assert_eq!(v.rewrite, None, "a failed hook's result file is ignored");
    let mut timeout = outcome(ExitInfo::Signaled(9), None, "");
    timeout.timed_out = true;
    assert_eq!(
        ChrysCodec.decode(&block, &env, &timeout).reason.as_deref(),
        Some("hook 'b' failed (timeout): ")
    );
    let v = ChrysCodec.decode(&block, &env, &outcome(ExitInfo::Signaled(15), None, "x"));
    assert_eq!(v.reason.as_deref(), Some("hook 'b' failed (exit_code=-15): x"));
    let launch = ExitInfo::NotStarted(SpawnFailure {
        kind: SpawnFailureKind::ProgramNotFound,
        message: "nope".into(),
    });
    assert_eq!(
        ChrysCodec.decode(&block, &env, &outcome(launch, None, "")).failure.as_deref(),
        Some("launch_error")
    );
    for policy in ["warn", "ignore"] {
        let h = hook(&format!(
            "{{id: w, event: before_tool_call, match: {{tool_name: x}}, run: {{type: shell, shell: x}}, execution: {{mode: blocking, on_error: {policy}}}}}"
        ));
        let v = ChrysCodec.decode(&h, &env, &outcome(ExitInfo::Exited(1), None, "x"));
        assert_eq!((v.decision, v.failure.as_deref()), (None, Some("exit_code=1")), "{policy}");
    }
    let not_gated = hook(
        "{id: n, event: session_start, run: {type: shell, shell: x}, execution: {mode: blocking, on_error: block}}",
    );
    let v = ChrysCodec.decode(&not_gated, &env, &outcome(ExitInfo::Exited(1), None, "x"));
    assert_eq!(v.decision, None);
    assert_eq!(v.notes, ["on_error=block on non-gated event session_start; treated as warn"]);
}

#[test]
fn python_json_and_time_formatting() {
    assert_eq!(
        python_json(&json!({"a": [1, 2.0, "x\"y\u{1F600}"], "b": null})),
        r#"{"a": [1, 2.0, "x\"y\ud83d\ude00"], "b": null}"#
    );
    assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
    assert_eq!(format_utc(1_772_360_430), "2026-03-01T10:20:30Z");
    assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
}

mod fire {
    //! End to end with real processes: the hooks of `test_data/fire/hooks.yaml` run through
    //! `sh` with the invocations the codec builds, their outcomes are decoded and folded in
    //! chain order, and the result must be what Chrys 0.32.0's own `HookManager.fire`
    //! decided for the same payloads (`test_data/fire/expected.json`, recorded with the
    //! oracle's `--fire`).

    use std::{
        io::Read,
        path::{Path, PathBuf},
        process::{Command, Stdio},
        sync::mpsc,
        time::Duration,
    };

    use hooks_schema::{
        CapturedOutput, ChainFold, ChainStep, Decision, Envelope, ExitInfo, HookCodec,
        HookDefinition, HookEvent, Invocation, Program, Prompt, ProvidedFileRole, RawOutcome,
        ToolCall, ToolKind, ToolResult,
    };
    use serde_json::{Map, Value};

    use super::{ctx, source};
    use crate::{ChrysCodec, canonical_event, parse};

    /// The canonical envelope for a Chrys payload of the test.
    fn envelope(p: &Value) -> Envelope {
        let native = p["event"].as_str().expect("event");
        let mut e = Envelope::new(canonical_event(native).expect("known"));
        e.session_id = p["session_id"].as_str().map(str::to_owned);
        e.profile = p["profile"].as_str().map(str::to_owned);
        e.cwd = p["cwd"].as_str().map(PathBuf::from);
        if let Some(t) = p.get("tool") {
            e.tool = Some(ToolCall {
                name: t["name"].as_str().expect("name").to_owned(),
                kind: ToolKind::FileWrite,
                native_kind: t["kind"].as_str().map(str::to_owned),
                call_id: t["call_id"].as_str().map(str::to_owned),
                mcp_server: None,
                args: t["args"].clone(),
            });
        }
        if let Some(text) = p.get("text") {
            e.prompt = Some(Prompt {
                text: text.as_str().unwrap_or_default().to_owned(),
                injected: false,
                attachments: vec![],
            });
        }
        if let Some(r) = p.get("result") {
            e.result = Some(ToolResult {
                text: r["text"].as_str().map(str::to_owned),
                ..ToolResult::default()
            });
        }
        e
    }

    /// Runs an invocation the way the dispatcher would, with a 10 s bound on the wait.
    fn run(inv: &Invocation, dir: &Path) -> RawOutcome {
        let Program::Shell { script, shell } = &inv.program else { panic!("shell hooks only") };
        let mut cmd = Command::new(shell.as_deref().unwrap_or("/bin/sh"));
        cmd.arg("-c")
            .arg(script)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut result_path = None;
        for (i, f) in inv.files.iter().enumerate() {
            let path = dir.join(format!("{i}-{}.json", f.name_hint));
            match &f.role {
                ProvidedFileRole::Input(bytes) => std::fs::write(&path, bytes).expect("payload"),
                ProvidedFileRole::Output => {
                    std::fs::write(&path, b"").expect("result");
                    result_path = Some(path.clone());
                }
            }
            cmd.env(&f.env_var, &path);
        }
        for k in &inv.env_remove {
            cmd.env_remove(k);
        }
        for (k, v) in &inv.env {
            cmd.env(k, v);
        }
        if let Some(c) = &inv.cwd {
            cmd.current_dir(c);
        }
        let mut child = cmd.spawn().expect("spawn sh");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut err = Vec::new();
            let _ = stderr.read_to_end(&mut err);
            let status = child.wait();
            let _ = tx.send((status, err));
        });
        let (status, err) =
            rx.recv_timeout(Duration::from_secs(10)).expect("hook finished in time");
        let code = status.expect("wait").code().unwrap_or(-1);
        let result =
            result_path.map(|p| CapturedOutput::whole(std::fs::read(p).expect("result file")));
        RawOutcome {
            exit: ExitInfo::Exited(code),
            timed_out: false,
            stdout: CapturedOutput::default(),
            stderr: CapturedOutput::whole(err),
            result_file: result,
            duration: Duration::ZERO,
        }
    }

    /// Chrys's `fire` on our types: blocking hooks in order, each matched and encoded against
    /// the envelope as rewritten so far.
    fn fire(
        hooks: &[HookDefinition],
        env: &Envelope,
        dir: &Path,
    ) -> (hooks_schema::FoldedVerdict, usize) {
        let src = source();
        let mut fold = ChainFold::new(env.tool_args().cloned());
        let mut ran = 0;
        for h in hooks.iter().filter(|h| h.enabled && h.event == env.event) {
            let mut current = env.clone();
            if let (Some(t), Some(args)) = (&mut current.tool, fold.current_args()) {
                t.args = args.clone();
            }
            if !h.matcher.matches(&current) {
                continue;
            }
            // The user's shell of `ctx` may not exist here; the platform shell runs them.
            let mut c = ctx(&src);
            c.user_shell = None;
            let inv = ChrysCodec.encode(h, &current, &c).expect("encodes");
            let outcome = run(&inv, dir);
            ran += 1;
            let verdict = ChrysCodec.decode(h, &current, &outcome);
            if h.mode != hooks_schema::ExecutionMode::Blocking {
                assert_eq!(verdict.decision, None);
                assert!(
                    verdict.context.is_empty() && verdict.rewrite.is_none(),
                    "{}: non-blocking output counts",
                    h.id
                );
                continue;
            }
            let provenance = hooks_schema::Provenance {
                hook_id: h.id.clone(),
                source: src.clone(),
                line: h.line,
            };
            if fold.push(verdict, &provenance) == ChainStep::ShortCircuit {
                break;
            }
        }
        (fold.finish(), ran)
    }

    #[test]
    fn real_hooks_decide_as_chrys_decides() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/fire");
        let hooks = parse(
            &std::fs::read(base.join("hooks.yaml")).expect("hooks"),
            &base.join("hooks.yaml"),
        )
        .expect("loads")
        .definitions;
        let cases: Vec<Value> = serde_json::from_str(
            &std::fs::read_to_string(base.join("expected.json")).expect("expected"),
        )
        .expect("json");
        let dir = std::env::temp_dir().join(format!("chrys-fire-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for (i, case) in cases.iter().enumerate() {
            let env = envelope(&case["payload"]);
            let chrys = &case["chrys"];
            let (folded, ran) = fire(&hooks, &env, &dir);
            assert!(ran > 0, "case {i}: nothing ran");
            let blocked = folded.decision == Some(Decision::Deny);
            assert_eq!(blocked, chrys["blocked"].as_bool().expect("blocked"), "case {i}");
            assert_eq!(
                folded.reason.unwrap_or_default(),
                chrys["block_reason"].as_str().expect("reason"),
                "case {i}"
            );
            let expected_args = match &chrys["args_override"] {
                Value::Object(o) => {
                    let mut args: Map<String, Value> =
                        env.tool_args().and_then(Value::as_object).cloned().unwrap_or_default();
                    args.extend(o.clone());
                    Some(Value::Object(args))
                }
                _ => None,
            };
            assert_eq!(folded.updated_args, expected_args, "case {i}");
            let context: Vec<String> = folded.context.into_iter().map(|(_, c)| c).collect();
            let want: Vec<String> = if env.event == HookEvent::PromptSubmit {
                &chrys["system_reminders"]
            } else {
                &chrys["extra_context"]
            }
            .as_array()
            .expect("list")
            .iter()
            .map(|v| v.as_str().expect("str").to_owned())
            .collect();
            assert_eq!(context, want, "case {i}");
        }
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
