//! Tests for `encode`: one golden file per native event (and the envelopes that cannot be
//! encoded), plus properties of every invocation.

use std::{fmt::Write as _, path::Path};

use expect_test::expect_file;
use hooks_schema::{AbsPathBuf, EncodeContext, Envelope, HookCodec, HookSourceId, Invocation};
use serde_json::{Value, json};

use crate::{
    CursorCodec,
    testing::{fixtures, hook_from},
};

fn show(inv: &Invocation) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "program: {:?}", inv.program);
    let _ = writeln!(out, "cwd: {:?}", inv.cwd);
    let _ = writeln!(out, "timeout: {:?}", inv.timeout);
    let _ = writeln!(out, "files: {:?} env_remove: {:?}", inv.files, inv.env_remove);
    out.push_str("env:\n");
    for (k, v) in &inv.env {
        let _ = writeln!(out, "  {k}={v}");
    }
    assert_eq!(inv.stdin.last(), Some(&b'\n'), "stdin ends with a newline");
    let payload: Value = serde_json::from_slice(&inv.stdin).expect("stdin is JSON");
    out.push_str("stdin:\n");
    out.push_str(&serde_json::to_string_pretty(&payload).expect("pretty"));
    out.push('\n');
    out
}

fn source() -> HookSourceId {
    let path = AbsPathBuf::new("/repo/.cursor/hooks.json".into()).expect("absolute");
    HookSourceId::new(crate::PROJECT_FILE, path)
}

fn encode_case(case: &Value) -> String {
    let event = case["event"].as_str().expect("event");
    let entry = case.get("entry").cloned().unwrap_or_else(|| json!({ "command": "./hook.sh" }));
    let hook = hook_from(event, &entry);
    let envelope: Envelope =
        serde_json::from_value(case["envelope"].clone()).expect("the case's envelope is valid");
    let source = source();
    let session_env = [("FROM_SESSION".to_owned(), "1".to_owned())];
    let project = case.get("no_project").is_none().then(|| Path::new("/repo"));
    let ctx = EncodeContext {
        source: &source,
        working_dir: Path::new("/repo"),
        project_dir: project,
        config_dir: None,
        user_shell: Some("/bin/zsh"),
        agent_version: Some("2.1.0"),
        session_env: &session_env,
    };
    match CursorCodec.encode(&hook, &envelope, &ctx) {
        Ok(inv) => show(&inv),
        Err(e) => format!("ERROR {e}\n"),
    }
}

#[test]
fn golden_files() {
    for (stem, bytes) in fixtures("encode") {
        let case: Value = serde_json::from_slice(&bytes).expect("case is JSON");
        expect_file![format!("../../test_data/encode/output/{stem}.txt")]
            .assert_eq(&encode_case(&case));
    }
}

#[test]
fn every_mapped_event_has_a_golden_case() {
    let cases: Vec<String> = fixtures("encode")
        .into_iter()
        .filter_map(|(_, b)| {
            let v: Value = serde_json::from_slice(&b).ok()?;
            v["event"].as_str().map(str::to_owned)
        })
        .collect();
    for name in crate::native_event_names() {
        if crate::canonical_event(name).is_some() {
            assert!(cases.iter().any(|c| c == name), "no encode case for {name}");
        }
    }
}

#[test]
fn extra_fields_never_replace_the_codec_own() {
    let case = json!({
        "event": "beforeShellExecution",
        "envelope": {
            "event": "pre_tool_use",
            "tool": { "name": "Shell", "kind": "shell", "args": { "command": "ls" } },
            "extra": { "command": "rm -rf /", "hook_event_name": "stop", "custom": 1 }
        }
    });
    let out = encode_case(&case);
    assert!(out.contains("\"command\": \"ls\""), "{out}");
    assert!(out.contains("\"hook_event_name\": \"beforeShellExecution\""), "{out}");
    assert!(out.contains("\"custom\": 1"), "{out}");
}
