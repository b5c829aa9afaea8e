//! Tests of the redacted listing and the command fingerprint.

use std::path::Path;

use expect_test::expect;
use hooks_schema::HookCommand;
use serde_json::json;

use super::{Reveal, entries, fingerprint, inventory, sha256};
use crate::{ClaudeMode, parse};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn sha256_test_vectors() {
    assert_eq!(
        hex(&sha256(b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(
        hex(&sha256(&vec![b'a'; 1_000_000])),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    );
}

const DOC: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/opt/gate", "args": ["--token-file", "/secret/t"]},
        {"type": "command", "command": "curl -H 'Authorization: Bearer s3cr3t' https://example.invalid", "shell": "bash"}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh", "async": true}]}]
  }
}"#;

#[test]
fn listing_is_redacted_unless_revealed() {
    let path = Path::new("/home/u/.claude/settings.json");
    let listed = inventory(DOC.as_bytes(), path, ClaudeMode::Default, Reveal::No).expect("lists");
    let text: Vec<String> = listed.iter().map(ToString::to_string).collect();
    expect![[r#"
        [
            "PreToolUse[0][0] pre_tool_use (PreToolUse) matcher=Bash source=/home/u/.claude/settings.json:5 enabled blocking on_failure=warn timeout=600000ms exec sha256:417175fb615d68e2ecab545ad350d698 command=<redacted>",
            "PreToolUse[0][1] pre_tool_use (PreToolUse) matcher=Bash source=/home/u/.claude/settings.json:6 enabled blocking on_failure=warn timeout=600000ms shell sha256:cd61ca389d4674280366b61a2cda0502 command=<redacted>",
            "Stop[0][0] stop (Stop) matcher=* source=/home/u/.claude/settings.json:9 enabled async on_failure=warn timeout=600000ms shell sha256:6434e3ec8fa7e7e1aa9cf9f8e689f18d command=<redacted>",
        ]
    "#]]
    .assert_debug_eq(&text);
    for e in &listed {
        let shown = format!("{e} {}", serde_json::to_string(e).expect("serializes"));
        for secret in ["s3cr3t", "/opt/gate", "token-file", "stop.sh"] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
    }
    let revealed =
        inventory(DOC.as_bytes(), path, ClaudeMode::Default, Reveal::Yes).expect("lists");
    expect![[r#"
        "PreToolUse[0][0] pre_tool_use (PreToolUse) matcher=Bash source=/home/u/.claude/settings.json:5 enabled blocking on_failure=warn timeout=600000ms exec sha256:417175fb615d68e2ecab545ad350d698 command=\"/opt/gate\" args=[\"--token-file\", \"/secret/t\"]"
    "#]]
    .assert_debug_eq(&revealed[0].to_string());
    assert_eq!(revealed[1].shell.as_deref(), Some("bash"));
    assert!(revealed[1].command.as_deref().is_some_and(|c| c.contains("s3cr3t")));
}

#[test]
fn absent_hooks_section_is_an_empty_inventory() {
    let listed =
        inventory(br#"{"model": "opus"}"#, Path::new("/s.json"), ClaudeMode::Default, Reveal::No);
    assert_eq!(listed, Ok(vec![]));
    let listed =
        inventory(br#"{"model": "opus"}"#, Path::new("/s.json"), ClaudeMode::Strict, Reveal::No);
    assert_eq!(listed, Ok(vec![]));
}

#[test]
fn malformed_documents_are_errors() {
    for doc in [&b"{"[..], br#"{"hooks": []}"#, br#"{"hooks": {"version": 9}}"#] {
        let err = inventory(doc, Path::new("/s.json"), ClaudeMode::Default, Reveal::No)
            .expect_err("malformed");
        assert!(err.iter().any(|d| d.is_error()));
    }
    let strict = br#"{"hooks": {"PreToolUse": []}}"#;
    let err = inventory(strict, Path::new("/s.json"), ClaudeMode::Strict, Reveal::No)
        .expect_err("violation");
    assert_eq!(err[0].code.as_deref(), Some("missing_version"));
}

#[test]
fn disabled_hooks_are_listed_as_disabled() {
    let doc = br#"{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    let listed =
        inventory(doc, Path::new("/s.json"), ClaudeMode::Default, Reveal::No).expect("lists");
    assert_eq!(listed.len(), 1);
    assert!(!listed[0].enabled);
}

#[test]
fn fail_closed_entries_reveal_their_reason_only_when_asked() {
    let doc = br#"{"hooks": {"version": 1, "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "password": "hunter2"}]}]}}"#;
    let parsed = parse(doc, Path::new("/s.json"), ClaudeMode::Strict).expect("fails closed");
    let hidden = entries(&parsed, Path::new("/s.json"), Some(crate::USER_SETTINGS), Reveal::No);
    assert_eq!(hidden.len(), 1);
    assert!(hidden[0].fails_closed);
    assert_eq!(hidden[0].deny_reason, None);
    assert_eq!(hidden[0].scope, Some(crate::USER_SETTINGS));
    let shown = entries(&parsed, Path::new("/s.json"), None, Reveal::Yes);
    let reason = shown[0].deny_reason.as_deref().expect("revealed");
    assert!(reason.contains("credential-looking key `password`"));
    assert!(!reason.contains("hunter2"), "values of credential keys never appear");
}

#[test]
fn fingerprints_depend_only_on_the_command() {
    let a = parse(DOC.as_bytes(), Path::new("/a.json"), ClaudeMode::Default).expect("parses");
    let mut other = a.definitions[0].clone();
    other.env = vec![("K".into(), "V".into())];
    other.order = 9;
    assert_eq!(fingerprint(&a.definitions[0]), fingerprint(&other));
    other.command =
        HookCommand::Exec { program: "/opt/gate".into(), args: vec!["--token-file".into()] };
    assert_ne!(fingerprint(&a.definitions[0]), fingerprint(&other));
    // Length prefixes keep argument boundaries: ["ab"] and ["a", "b"] differ.
    let mut x = other.clone();
    x.command = HookCommand::Exec { program: "p".into(), args: vec!["ab".into()] };
    let mut y = other.clone();
    y.command = HookCommand::Exec { program: "p".into(), args: vec!["a".into(), "b".into()] };
    assert_ne!(fingerprint(&x), fingerprint(&y));
    // A shell command and the same text executed directly differ.
    let mut z = other;
    z.command = HookCommand::Shell { script: "p".into(), shell: None };
    x.command = HookCommand::Exec { program: "p".into(), args: vec![] };
    assert_ne!(fingerprint(&x), fingerprint(&z));
}

#[test]
fn fingerprint_is_stable() {
    let doc = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}});
    let parsed = parse(doc.to_string().as_bytes(), Path::new("/s.json"), ClaudeMode::Default)
        .expect("parses");
    // Pinned: a change here changes every fingerprint users have recorded.
    expect!["sha256:cec40aaa2900eea11fb0b4b254deab16"]
        .assert_eq(&fingerprint(&parsed.definitions[0]));
}
