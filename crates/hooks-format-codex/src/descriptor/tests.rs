//! Tests of Codex's descriptor: locations, claims, events and the issue-20 extension points.

use std::path::Path;

use hooks_schema::{FileContent, FormatSet, HookSourceKind};

use super::*;

#[test]
fn locations_cover_every_layer() {
    let f = CodexFormat;
    let mut found: Vec<(FileScope, &str)> =
        f.locations().iter().map(|l| (l.scope, l.pattern.file_names()[0])).collect();
    found.sort();
    assert_eq!(
        found,
        [
            (FileScope::Managed, "config.toml"),
            (FileScope::Managed, "hooks.json"),
            (FileScope::Managed, "managed_config.toml"),
            (FileScope::Managed, "requirements.toml"),
            (FileScope::Project, "config.toml"),
            (FileScope::Project, "hooks.json"),
            (FileScope::User, "config.toml"),
            (FileScope::User, "hooks.json"),
        ]
    );
    assert!(f.locations().iter().all(|l| l.content == FileContent::Hooks));
    assert!(f.locations().iter().any(|l| l.pattern.matches(".codex/hooks.json")));
    let dirs = f.dirs();
    assert_eq!(dirs.user.and_then(|u| u.env), Some(CODEX_HOME_VAR));
    assert_eq!(dirs.user.map(|u| u.under_home), Some(".codex"));
}

#[test]
fn claims_do_not_take_other_formats_files() {
    let f = CodexFormat;
    assert_eq!(f.claim(Path::new("/r/.codex/hooks.json")), Claim::Path);
    assert_eq!(f.claim(Path::new("/r/.codex/config.toml")), Claim::Path);
    assert_eq!(f.claim(Path::new("/etc/codex/requirements.toml")), Claim::Name);
    assert_eq!(f.claim(Path::new("/r/.cursor/hooks.json")), Claim::No);
    assert_eq!(f.claim(Path::new("/r/hooks.json")), Claim::No);
    assert_eq!(
        f.claim_content(b"[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype='command'\ncommand='x'\n"),
        Claim::Name
    );
    assert_eq!(f.claim_content(b"{\"hooks\":{}}"), Claim::No);
}

#[test]
fn events_and_kinds() {
    let f = CodexFormat;
    assert_eq!(f.events().len(), 14);
    assert_eq!(f.canonical_event("UserPromptSubmit"), Some(HookEvent::PromptSubmit));
    assert_eq!(f.canonical_event("PreModelRequest"), None);
    assert_eq!(f.native_events(HookEvent::ApprovalRequested), ["PermissionRequest"]);
    assert_eq!(PROJECT_HOOKS.name(), "project_codex_hooks");
    assert_eq!(USER_CONFIG.name(), "user_codex_config");
    assert_eq!(MANAGED_REQUIREMENTS.name(), "managed_codex_requirements");
    assert!(PROJECT_HOOKS < PROJECT_CONFIG && PROJECT_CONFIG < USER_HOOKS);
    let _: HookSourceKind = MANAGED_HOOKS;
    assert!(f.host().is_some());
    assert!(f.concurrent_gated_hooks());
    assert_eq!(f.install_targets().len(), 2);
    assert_eq!(f.codec().wire_format(), FORMAT);
}

#[test]
fn registers_beside_the_other_formats() {
    let set = FormatSet::new(vec![descriptor()]);
    assert_eq!(set.named("codex").map(|d| d.agent()).ok(), Some("Codex"));
    assert_eq!(
        set.format_for_file(Path::new("/r/.codex/hooks.json")).map(|d| d.id()),
        Some(FORMAT)
    );
}

#[test]
fn codex_reviews_user_and_project_files_and_its_own_record_in_the_user_config_counts() {
    let f = CodexFormat;
    assert!(f.requires_review(FileScope::Project) && f.requires_review(FileScope::User));
    assert!(!f.requires_review(FileScope::Managed));
    let text = br#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}"#;
    let path = Path::new("/u/.codex/hooks.json");
    let parsed = crate::parse(text, path, USER_HOOKS).expect("accepted");
    let entries = crate::hook_entries(text, path, USER_HOOKS).expect("accepted");
    let state =
        format!("[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n", entries[0].key, entries[0].hash);
    let config = crate::parse(state.as_bytes(), Path::new("/u/.codex/config.toml"), USER_CONFIG)
        .expect("accepted");
    assert!(!f.agent_reviewed(path, &parsed, &[]));
    assert!(f.agent_reviewed(path, &parsed, &[&config]));
    // A project config.toml's [hooks.state] is not Codex's record.
    let project =
        crate::parse(state.as_bytes(), Path::new("/r/.codex/config.toml"), PROJECT_CONFIG)
            .expect("accepted");
    assert!(!f.agent_reviewed(path, &parsed, &[&project]));
    // Another hash (the file changed since): not reviewed.
    let changed_text = String::from_utf8_lossy(text).replace("\"x\"", "\"y\"");
    let changed = crate::parse(changed_text.as_bytes(), path, USER_HOOKS);
    assert!(!f.agent_reviewed(path, &changed.expect("accepted"), &[&config]));
}

/// A hook the user turned off in Codex is skipped alone, as Codex skips it: the user's
/// `config.toml` lists its key in its policy (the registry switches it off wherever that file
/// runs), and it needs no review for its file to count as reviewed, but only when the file
/// that turns it off is itself reviewed (so it surely runs); otherwise it must be reviewed like
/// any other, so that it never runs unreviewed.
#[test]
fn a_hook_codex_disables_is_off_by_the_user_config_s_policy_and_needs_no_review_where_that_runs() {
    let f = CodexFormat;
    let text = br#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"},{"type":"command","command":"y"}]}]}}"#;
    let path = Path::new("/u/.codex/hooks.json");
    let parsed = crate::parse(text, path, USER_HOOKS).expect("accepted");
    let entries = crate::hook_entries(text, path, USER_HOOKS).expect("accepted");
    let state = format!(
        "[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n[hooks.state.\"{}\"]\nenabled = false\n",
        entries[0].key, entries[0].hash, entries[1].key
    );
    let config = crate::parse(state.as_bytes(), Path::new("/u/.codex/config.toml"), USER_CONFIG)
        .expect("accepted");
    let disables = config.policy.disables.as_ref().expect("a list");
    assert_eq!(disables.names, [entries[1].key.clone()]);
    let names: Vec<Option<String>> =
        parsed.definitions.iter().map(|d| d.codec.disable_name(d)).collect();
    assert_eq!(names, [Some(entries[0].key.clone()), Some(entries[1].key.clone())]);
    assert!(f.agent_reviewed(path, &parsed, &[&config]));
    // The config that turns it off has an unreviewed hook of its own: it may not run, so the
    // disabled hook is not excused.
    let own = format!(
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"z\"\n{state}"
    );
    let config = crate::parse(own.as_bytes(), Path::new("/u/.codex/config.toml"), USER_CONFIG)
        .expect("accepted");
    assert!(!f.agent_reviewed(path, &parsed, &[&config]));
    // A project config.toml turns nothing off.
    let project =
        crate::parse(state.as_bytes(), Path::new("/r/.codex/config.toml"), PROJECT_CONFIG)
            .expect("accepted");
    assert!(project.policy.disables.is_none());
}

#[test]
fn the_bridge_is_installed_per_event_with_codex_s_matchers_and_timeouts() {
    let f = CodexFormat;
    let event = |name: &str| *f.events().iter().find(|e| e.name == name).expect("an event");
    assert_eq!(
        f.install_entry(&event("PreToolUse"), "h"),
        Some(
            serde_json::json!({"matcher": "*", "hooks": [{"type": "command", "command": "h", "timeout": 600}]})
        )
    );
    assert_eq!(
        f.install_entry(&event("SessionEnd"), "h"),
        Some(
            serde_json::json!({"matcher": "*", "hooks": [{"type": "command", "command": "h", "timeout": 3}]})
        )
    );
    assert_eq!(
        f.install_entry(&event("Stop"), "h"),
        Some(serde_json::json!({"hooks": [{"type": "command", "command": "h", "timeout": 600}]}))
    );
    assert_eq!(f.install_entry(&event("PreModelRequest"), "h"), None);
    assert_eq!(f.install_new_file(), "{}");
}
