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
