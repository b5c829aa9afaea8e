//! Tests of Codex's trust hash and key against the values Codex 0.169.0 itself reported
//! (`codex app-server`, `hooks/list`, `currentHash`) for `test_data/trust/`.

use std::path::{Path, PathBuf};

use super::*;
use crate::{PROJECT_CONFIG, PROJECT_HOOKS, hook_entries};

fn data(name: &str) -> (PathBuf, Vec<u8>) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/trust").join(name);
    let bytes = std::fs::read(&p).expect("fixture");
    (p, bytes)
}

/// `<file>:<label>:<group>:<handler> <timeout> <hash>` lines recorded from the real CLI.
fn expected() -> Vec<(String, u64, String)> {
    let (_, bytes) = data("expected-hashes.txt");
    String::from_utf8(bytes)
        .expect("utf-8")
        .lines()
        .map(|l| {
            let mut it = l.split(' ');
            let key = it.next().expect("key").to_owned();
            let timeout = it.next().expect("timeout").parse().expect("number");
            (key, timeout, it.next().expect("hash").to_owned())
        })
        .collect()
}

#[test]
fn hashes_and_keys_equal_what_codex_reports() {
    let want = expected();
    let mut got = Vec::new();
    for (name, kind) in [("hooks.json", PROJECT_HOOKS), ("config.toml", PROJECT_CONFIG)] {
        let (path, bytes) = data(name);
        let dir = path.parent().expect("dir").display().to_string();
        for e in hook_entries(&bytes, &path, kind).expect("accepted") {
            let key = e.key.strip_prefix(&format!("{dir}/")).expect("key starts with the path");
            got.push((key.to_owned(), e.timeout_secs, e.hash));
        }
    }
    assert_eq!(got.len(), 18);
    assert_eq!(got, want);
}

#[test]
fn the_same_handler_hashes_alike_in_json_and_toml() {
    let want = expected();
    let json = want.iter().find(|(k, ..)| k == "hooks.json:pre_tool_use:0:0").expect("json");
    let toml = want.iter().find(|(k, ..)| k == "config.toml:pre_tool_use:0:0").expect("toml");
    assert_eq!(json.2, toml.2);
}

#[test]
fn each_identity_field_changes_the_hash() {
    let base = HandlerIdentity {
        event: CodexEvent::PreToolUse,
        matcher: Some("Bash"),
        command: "x",
        timeout_secs: 600,
        async_: false,
        status_message: None,
        additional_context_limit: None,
    };
    let h = hook_hash(&base);
    let variants = [
        HandlerIdentity { event: CodexEvent::PostToolUse, ..base },
        HandlerIdentity { matcher: None, ..base },
        HandlerIdentity { matcher: Some("*"), ..base },
        HandlerIdentity { command: "y", ..base },
        HandlerIdentity { timeout_secs: 30, ..base },
        HandlerIdentity { async_: true, ..base },
        HandlerIdentity { status_message: Some("s"), ..base },
        HandlerIdentity { additional_context_limit: Some(100), ..base },
    ];
    for v in variants {
        assert_ne!(hook_hash(&v), h, "{v:?}");
    }
    assert!(h.starts_with("sha256:") && h.len() == 7 + 64);
}

#[test]
fn hook_states_reads_the_user_table_and_codex_trust_compares() {
    let text = r#"
model = "gpt-5"
[projects."/p"]
trust_level = "trusted"
[hooks.state."/p/.codex/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:aa"
[hooks.state."/p/.codex/hooks.json:stop:0:0"]
enabled = false
trusted_hash = "sha256:bb"
"#;
    let states = hook_states(text).expect("parses");
    assert_eq!(states.len(), 2);
    let k = "/p/.codex/hooks.json:pre_tool_use:0:0";
    assert_eq!(codex_trust(&states, k, "sha256:aa"), CodexTrust::Trusted);
    assert_eq!(codex_trust(&states, k, "sha256:cc"), CodexTrust::Modified);
    assert_eq!(codex_trust(&states, "other", "sha256:aa"), CodexTrust::Untrusted);
    assert_eq!(
        codex_trust(&states, "/p/.codex/hooks.json:stop:0:0", "sha256:bb"),
        CodexTrust::Disabled
    );
    assert!(hook_states("[hooks.state.x]\nenabled = \"no\"").is_err());
    assert!(hook_states("not toml =").is_err());
    assert!(hook_states("").expect("empty").is_empty());
}

#[test]
fn key_is_path_label_group_handler() {
    assert_eq!(
        hook_key(Path::new("/r/.codex/hooks.json"), CodexEvent::SessionEnd, 2, 1),
        "/r/.codex/hooks.json:session_end:2:1"
    );
}

#[test]
fn a_source_is_reviewed_when_codex_trusts_every_enabled_hook() {
    let text = br#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"a"},{"type":"command","command":"b"}]}]}}"#;
    let path = Path::new("/r/.codex/hooks.json");
    let parsed = crate::parse(text, path, PROJECT_HOOKS).expect("accepted");
    let entries = hook_entries(text, path, PROJECT_HOOKS).expect("accepted");
    let user_config = |trusted: &[&crate::HookEntry]| {
        let mut t = String::new();
        for e in trusted {
            t.push_str(&format!("[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n", e.key, e.hash));
        }
        let parsed =
            crate::parse(t.as_bytes(), Path::new("/u/.codex/config.toml"), crate::USER_CONFIG)
                .expect("accepted");
        states_from_settings(&parsed.settings)
    };
    let all = user_config(&[&entries[0], &entries[1]]);
    assert_eq!(review_of(&parsed.definitions, &all), SourceReview::Reviewed);
    let one = user_config(&[&entries[0]]);
    assert_eq!(review_of(&parsed.definitions, &one), SourceReview::NotReviewed);
    // A hook Codex disables needs no review: it never runs.
    let mut defs = parsed.definitions.clone();
    defs[1].enabled = false;
    assert_eq!(review_of(&defs, &one), SourceReview::Reviewed);
    // A changed command changes the hash: reviewed no more.
    let changed = crate::parse(
        String::from_utf8_lossy(text).replace("\"a\"", "\"a2\"").as_bytes(),
        path,
        PROJECT_HOOKS,
    );
    assert_eq!(review_of(&changed.expect("accepted").definitions, &all), SourceReview::NotReviewed);
    assert_eq!(review_of(&parsed.definitions, &BTreeMap::new()), SourceReview::NotReviewed);
}

#[test]
fn recording_trust_keeps_the_rest_of_config_toml_and_forgetting_gives_it_back() {
    let before = "# my settings\nmodel = \"o3\" # the default\n\n[hooks.state.\"/u/h.json:stop:0:0\"]\nenabled = false\n\n[features]\nhooks = true\n";
    let trust =
        [("/p/.codex/hooks.json:pre_tool_use:0:0", "sha256:aa"), ("/p/x:stop:0:0", "sha256:bb")];
    let after = record_trusted(Some(before), &trust, &[]).expect("records");
    assert!(after.starts_with("# my settings\nmodel = \"o3\" # the default\n"), "{after}");
    let states = hook_states(&after).expect("Codex reads it");
    assert_eq!(
        states["/p/.codex/hooks.json:pre_tool_use:0:0"].trusted_hash.as_deref(),
        Some("sha256:aa")
    );
    assert_eq!(states["/u/h.json:stop:0:0"].enabled, Some(false), "the user's record is kept");
    assert_eq!(record_trusted(Some(&after), &trust, &[]).expect("again"), after, "idempotent");
    assert_eq!(record_trusted(Some(&after), &[], &trust).expect("forgets"), before);
    // Only what install wrote is taken out: a hash the user recorded since stays.
    let other = record_trusted(Some(before), &[("/p/x:stop:0:0", "sha256:cc")], &[]).expect("x");
    assert_eq!(record_trusted(Some(&other), &[], &trust).expect("forgets"), other);
    // No file yet, and back to nothing.
    let new = record_trusted(None, &trust, &[]).expect("creates");
    assert_eq!(hook_states(&new).expect("reads").len(), 2, "{new}");
    assert_eq!(record_trusted(Some(&new), &[], &trust).expect("forgets").trim(), "");
    // What it cannot extend is refused.
    assert!(record_trusted(Some("hooks = 1\n"), &trust, &[]).is_err());
    assert!(record_trusted(Some("[hooks\n"), &trust, &[]).is_err());
}
