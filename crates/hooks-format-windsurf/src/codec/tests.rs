//! Tests of the protocol codec: the payload shapes of the documentation and of third-party
//! integrations (no Windsurf build could be run: they are not recordings) reproduced from
//! the envelope the host codec decodes, the exit-code rule, and the command line.

use std::{path::Path, time::Duration};

use expect_test::expect_file;
use hooks_schema::{
    AbsPathBuf, CapturedOutput, Decision, Envelope, ExitInfo, HookCodec, HookDefinition,
    HookSourceId, HostCodec, LaunchDir, Program, RawOutcome,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use hooks_schema::testing::encode_context;

use super::*;
use crate::{WindsurfHost, parse};

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

fn definition(event: &str, entry: Value) -> HookDefinition {
    let doc = json!({"hooks": {event: [entry]}});
    let parsed =
        parse(&serde_json::to_vec(&doc).expect("json"), Path::new("/proj/.windsurf/hooks.json"))
            .expect("ok");
    parsed.definitions.into_iter().next().expect("one")
}

fn source() -> HookSourceId {
    HookSourceId::new(
        crate::PROJECT_HOOKS,
        AbsPathBuf::new("/proj/.windsurf/hooks.json".into()).expect("abs"),
    )
}

#[test]
fn documented_payloads_are_reproduced() {
    let mut files: Vec<_> = std::fs::read_dir(data_dir().join("payloads"))
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "one per mapped event");
    let src = source();
    for file in files {
        let recorded: Value =
            serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("json");
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        let input = WindsurfHost
            .decode_input(&serde_json::to_vec(&recorded).expect("json"), None)
            .expect("decodes");
        let pretty = serde_json::to_string_pretty(&input.envelope).expect("envelope");
        expect_file![data_dir().join(format!("output/host/{stem}.txt"))]
            .assert_eq(&format!("{pretty}\n"));
        let event = WindsurfEvent::from_name(&input.native_event).expect("event");
        let rebuilt = payload(event, &input.envelope, &encode_context(&src, Path::new("/proj")))
            .expect("payload");
        assert_eq!(rebuilt, recorded, "{stem}");
    }
}

fn outcome(exit: ExitInfo, stdout: &str, stderr: &str, timed_out: bool) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out,
        stdout: CapturedOutput::whole(stdout.as_bytes().to_vec()),
        stderr: CapturedOutput::whole(stderr.as_bytes().to_vec()),
        result_file: None,
        duration: Duration::from_millis(1),
    }
}

#[test]
fn exit_2_blocks_pre_events_only_with_stderr_as_the_reason() {
    let pre = definition("pre_run_command", json!({"command": "x"}));
    let env = Envelope::new(pre.event);
    let v = WindsurfCodec.decode(
        &pre,
        &env,
        &outcome(ExitInfo::Exited(2), "out", "no rm -rf here", false),
    );
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("no rm -rf here")));
    assert_eq!(v.user_message, None, "output is shown only with show_output");
    let v =
        WindsurfCodec.decode(&pre, &env, &outcome(ExitInfo::Exited(2), "from stdout", "", false));
    assert_eq!(v.reason.as_deref(), Some("from stdout"));
    let v = WindsurfCodec.decode(&pre, &env, &outcome(ExitInfo::Exited(2), "", "", false));
    assert_eq!(v.reason.as_deref(), Some(BLOCKED));
    for other in
        [ExitInfo::Exited(0), ExitInfo::Exited(1), ExitInfo::Exited(3), ExitInfo::Signaled(9)]
    {
        let v = WindsurfCodec.decode(
            &pre,
            &env,
            &outcome(other, "{\"decision\":\"deny\"}", "x", false),
        );
        assert_eq!(v.decision, None, "only exit 2 blocks; Windsurf reads no JSON");
    }
    let v = WindsurfCodec.decode(&pre, &env, &outcome(ExitInfo::Signaled(9), "", "", true));
    assert!(v.decision.is_none() && v.failure.is_some());
    let post = definition("post_run_command", json!({"command": "x", "show_output": true}));
    let v = WindsurfCodec.decode(
        &post,
        &Envelope::new(post.event),
        &outcome(ExitInfo::Exited(2), "a", "b", false),
    );
    assert_eq!(v.decision, None);
    assert_eq!(v.user_message.as_deref(), Some("a\nb"));
    let prompt = definition("pre_user_prompt", json!({"command": "x"}));
    let v = WindsurfCodec.decode(
        &prompt,
        &Envelope::new(prompt.event),
        &outcome(ExitInfo::Exited(2), "", "not this", false),
    );
    assert_eq!(v.decision, Some(Decision::Deny));
}

#[test]
fn the_command_runs_in_the_workspace_or_its_working_directory() {
    let src = source();
    let hook = definition(
        "pre_run_command",
        json!({"command": "./check.sh", "working_directory": "tools"}),
    );
    let mut env = Envelope::new(hook.event);
    env.tool = Some(hooks_schema::ToolCall {
        name: "Bash".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    env.cwd = Some("/proj/sub".into());
    let inv = WindsurfCodec
        .encode(&hook, &env, &encode_context(&src, Path::new("/proj")))
        .expect("encodes");
    assert_eq!(
        inv.program,
        Program::Shell { script: "./check.sh".into(), shell: Some("bash".into()) }
    );
    assert_eq!(inv.cwd.as_deref(), Some(Path::new("/proj/tools")));
    let stdin: Value = serde_json::from_slice(&inv.stdin).expect("json");
    assert_eq!(
        stdin["tool_info"],
        json!({"command_line": "ls", "cwd": "/proj/sub"}),
        "a Claude-style call in Windsurf's terms"
    );
    assert_eq!(stdin["execution_id"], "c1");
    assert_eq!(
        WindsurfCodec.launch(&hook).run_dir,
        LaunchDir::Under(Box::new(LaunchDir::Project), "tools".into())
    );
    let other = Envelope::new(hooks_schema::HookEvent::Stop);
    assert!(
        WindsurfCodec.encode(&hook, &other, &encode_context(&src, Path::new("/proj"))).is_err()
    );
}

#[test]
fn edits_are_built_from_other_formats_argument_names() {
    assert_eq!(
        edits(&json!({"old_string": "a", "new_string": "b"})),
        json!([{"old_string": "a", "new_string": "b"}])
    );
    assert_eq!(
        edits(&json!({"old_str": "a", "new_str": "b"})),
        json!([{"old_string": "a", "new_string": "b"}])
    );
    assert_eq!(edits(&json!({"content": "all"})), json!([{"old_string": "", "new_string": "all"}]));
    assert_eq!(edits(&json!({})), json!([]));
}

proptest! {
    #[test]
    fn decode_never_panics(code in -2i32..300, out in "\\PC{0,40}", err in "\\PC{0,40}", timed_out in any::<bool>()) {
        for e in ["pre_run_command", "post_write_code", "pre_user_prompt"] {
            let hook = definition(e, json!({"command": "x", "show_output": true}));
            let v = WindsurfCodec.decode(&hook, &Envelope::new(hook.event), &outcome(ExitInfo::Exited(code), &out, &err, timed_out));
            prop_assert_eq!(v.decision.is_some(), code == 2 && !timed_out && e.starts_with("pre_"));
        }
    }
}
