//! Tests of Codex as a host: decoding its recorded hook input and encoding folded verdicts
//! as answers the real Codex 0.169.0 honours (each answer is re-read by the hook codec, which
//! reproduces Codex's reading of hook output, so an answer Codex would ignore fails here).

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use expect_test::expect_file;
use hooks_schema::{AbsPathBuf, HookEvent, HookId, HookSourceId, Provenance};
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::{PROJECT_HOOKS, codec::tests::outcome, decode_outcome};

fn prov(id: &str, line: u32) -> Provenance {
    Provenance {
        hook_id: HookId::new(id).expect("id"),
        source: HookSourceId::new(
            PROJECT_HOOKS,
            AbsPathBuf::new(PathBuf::from("/repo/.cursor/hooks.json")).expect("abs"),
        ),
        line: Some(line),
    }
}

fn deny(reason: &str) -> FoldedVerdict {
    FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some(reason.to_owned()),
        decided_by: Some(prov("preToolUse[0]", 4)),
        ..FoldedVerdict::default()
    }
}

/// What Codex makes of an answer: the hook codec reads it as Codex reads hook output.
fn codex_reads(native: CodexEvent, a: &HostAnswer) -> hooks_schema::HookVerdict {
    decode_outcome(
        native,
        &outcome(
            a.exit_code,
            &String::from_utf8_lossy(&a.stdout),
            &String::from_utf8_lossy(&a.stderr),
        ),
    )
}

#[test]
fn answers() {
    let mut out = String::new();
    let ask = FoldedVerdict { decision: Some(Decision::Ask), ..deny("needs a human") };
    let rewrite = FoldedVerdict {
        updated_args: Some(json!({"command": "git push --force-with-lease"})),
        context: vec![(prov("a", 1), "rewritten".to_owned())],
        ..FoldedVerdict::default()
    };
    let halt = FoldedVerdict {
        halt: Some((prov("h", 2), "stop now".to_owned())),
        ..FoldedVerdict::default()
    };
    let follow = FoldedVerdict {
        followups: vec![(prov("f", 3), "run the tests".to_owned())],
        ..FoldedVerdict::default()
    };
    let ctx = FoldedVerdict {
        context: vec![(prov("c", 5), "branch is main".to_owned())],
        user_messages: vec![(prov("c", 5), "note".to_owned())],
        ..FoldedVerdict::default()
    };
    let output =
        FoldedVerdict { updated_output: Some(json!("[redacted]")), ..FoldedVerdict::default() };
    let cases: Vec<(&str, CodexEvent, FoldedVerdict)> = vec![
        ("no hook had an opinion", CodexEvent::PreToolUse, FoldedVerdict::default()),
        ("deny", CodexEvent::PreToolUse, deny("rm -rf is not allowed")),
        (
            "deny without a reason",
            CodexEvent::PreToolUse,
            FoldedVerdict { reason: None, ..deny("") },
        ),
        ("ask", CodexEvent::PreToolUse, ask.clone()),
        ("rewrite", CodexEvent::PreToolUse, rewrite),
        ("halt on a tool call", CodexEvent::PreToolUse, halt.clone()),
        ("context", CodexEvent::PreToolUse, ctx.clone()),
        ("deny", CodexEvent::PermissionRequest, deny("no")),
        (
            "allow",
            CodexEvent::PermissionRequest,
            FoldedVerdict { decision: Some(Decision::Allow), ..FoldedVerdict::default() },
        ),
        ("deny", CodexEvent::UserPromptSubmit, deny("no secrets in prompts")),
        ("context", CodexEvent::UserPromptSubmit, ctx.clone()),
        ("halt", CodexEvent::UserPromptSubmit, halt.clone()),
        ("output rewrite", CodexEvent::PostToolUse, output),
        ("context", CodexEvent::PostToolUse, ctx.clone()),
        ("follow-up", CodexEvent::Stop, follow),
        ("halt", CodexEvent::Stop, halt),
        ("context", CodexEvent::SessionStart, ctx.clone()),
        ("context", CodexEvent::SessionEnd, ctx),
    ];
    for (name, ev, verdict) in cases {
        let a = encode_answer(ev, &verdict);
        assert_eq!(a.exit_code, 0);
        let read = codex_reads(ev, &a);
        assert!(
            read.failure.is_none(),
            "{name} on {ev:?}: Codex would ignore {:?}: {:?}",
            String::from_utf8_lossy(&a.stdout),
            read.failure
        );
        if matches!(verdict.decision, Some(Decision::Deny | Decision::Ask))
            && matches!(
                ev,
                CodexEvent::PreToolUse
                    | CodexEvent::PermissionRequest
                    | CodexEvent::UserPromptSubmit
            )
        {
            assert_eq!(read.decision, Some(Decision::Deny), "{name}");
        }
        let _ = writeln!(
            out,
            "{} / {name}: {}",
            ev.as_str(),
            String::from_utf8_lossy(&a.stdout).trim_end()
        );
    }
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/host/answers.txt")]
        .assert_eq(&out);
}

#[test]
fn recorded_inputs_decode_into_envelopes() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/codec/payloads.json");
    let all: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p).expect("fixture")).expect("json");
    let mut out = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in all.as_array().expect("list") {
        let bytes = serde_json::to_vec(&p["stdin"]).expect("bytes");
        let name = p["stdin"]["hook_event_name"].as_str().expect("name").to_owned();
        let tool = p["stdin"]["tool_name"].as_str().unwrap_or("").to_owned();
        if !seen.insert((name.clone(), tool)) {
            continue;
        }
        match decode_input(&bytes, Some(&name)) {
            Ok(i) => {
                assert_eq!(i.session_id.as_deref(), p["stdin"]["session_id"].as_str());
                let _ =
                    writeln!(out, "{name}: {}", serde_json::to_string(&i.envelope).expect("json"));
            }
            Err(e) => {
                let _ = writeln!(out, "{name}: {e}");
            }
        }
    }
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/output/host/inputs.txt")]
        .assert_eq(&out);
}

#[test]
fn malformed_inputs_are_errors() {
    assert!(matches!(decode_input(b"nope", None), Err(HostError::Malformed(_))));
    assert!(matches!(decode_input(b"[]", None), Err(HostError::Malformed(_))));
    assert!(matches!(decode_input(b"{}", None), Err(HostError::Malformed(_))));
    let stop = br#"{"hook_event_name":"Stop"}"#;
    assert!(decode_input(stop, Some("Stop")).is_ok());
    assert!(matches!(decode_input(stop, Some("PreToolUse")), Err(HostError::Malformed(_))));
    assert!(matches!(
        decode_input(br#"{"hook_event_name":"Nope"}"#, None),
        Err(HostError::UnknownEvent(_))
    ));
    assert!(matches!(
        decode_input(br#"{"hook_event_name":"PreToolUse"}"#, None),
        Err(HostError::Malformed(_))
    ));
    assert!(matches!(
        decode_input(br#"{"hook_event_name":"Stop","cwd":5}"#, None),
        Err(HostError::Malformed(_))
    ));
    let from_arg =
        decode_input(br#"{"session_id":"s"}"#, Some("SessionStart")).expect("event from argv");
    assert_eq!(from_arg.envelope.event, HookEvent::SessionStart);
}

#[test]
fn the_host_trait_dispatches_on_the_native_event() {
    let input = decode_input(
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        None,
    )
    .expect("ok");
    let a = CodexHost.encode_answer(&input, &deny("x"));
    assert!(String::from_utf8_lossy(&a.stdout).contains("\"permissionDecision\":\"deny\""));
    assert_eq!(input.envelope.tool.as_ref().map(|t| t.kind), Some(ToolKind::Shell));
}

#[test]
fn patch_paths_cover_every_marker() {
    let patch = "*** Begin Patch\n*** Add File: new.txt\n+x\n*** Delete File: /abs/old.txt\n*** Update File: .codex/hooks.json\n*** Move to: moved.json\n@@\n-a\n+b\n*** End Patch\n";
    assert_eq!(patch_paths(patch), ["new.txt", "/abs/old.txt", ".codex/hooks.json", "moved.json"]);
    assert!(patch_paths("*** Add File: \n").is_empty());
}

/// The guard's view of Codex's recorded tool calls: `apply_patch` names its files in the
/// patch, a shell call edits none the host codec knows of.
#[test]
fn recorded_apply_patch_calls_name_their_files() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/codec/payloads.json");
    let all: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p).expect("fixture")).expect("json");
    let mut patches = 0;
    for p in all.as_array().expect("list") {
        if p["stdin"]["hook_event_name"] != "PreToolUse" {
            continue;
        }
        let input =
            decode_input(&serde_json::to_vec(&p["stdin"]).expect("bytes"), None).expect("ok");
        let edited = CodexHost.edited_paths(&input);
        match p["stdin"]["tool_name"].as_str() {
            Some("apply_patch") => {
                patches += 1;
                let patch = p["stdin"]["tool_input"]["command"].as_str().expect("patch");
                assert_eq!(edited, Some(patch_paths(patch)));
                assert!(!edited.unwrap_or_default().is_empty());
            }
            _ => assert_eq!(edited, None),
        }
    }
    assert!(patches > 0, "the fixture has apply_patch calls");
    let post = decode_input(
        br#"{"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Add File: a\n"}}"#,
        None,
    )
    .expect("ok");
    assert_eq!(CodexHost.edited_paths(&post), None, "only before the tool runs");
}

/// `apply_patch` run through the shell tool (a heredoc, or the argument vector Codex's own
/// models write) is a file edit to the guard: the patch's files.
#[test]
fn a_patch_applied_through_the_shell_tool_names_its_files() {
    let edited = |command: serde_json::Value| {
        let stdin = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}});
        let input = decode_input(&serde_json::to_vec(&stdin).expect("bytes"), None).expect("ok");
        CodexHost.edited_paths(&input)
    };
    let patch = "*** Begin Patch\n*** Update File: .codex/hooks.json\n@@\n-a\n+b\n*** End Patch\n";
    let want = Some(vec![".codex/hooks.json".to_owned()]);
    assert_eq!(edited(serde_json::json!(format!("apply_patch <<'EOF'\n{patch}EOF\n"))), want);
    assert_eq!(edited(serde_json::json!(["apply_patch", patch])), want);
    assert_eq!(edited(serde_json::json!("ls -la")), None);
}

proptest! {
    #[test]
    fn arbitrary_input_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300), ev in 0usize..14) {
        let name = CodexEvent::ALL[ev].as_str();
        let _ = decode_input(&bytes, Some(name));
        let text = format!("{{\"hook_event_name\":\"{name}\",\"tool_name\":\"Bash\",\"x\":{}}}", String::from_utf8_lossy(&bytes));
        let _ = decode_input(text.as_bytes(), None);
    }
}
