//! Tests of the descriptor: locations, claims (against Cursor's look-alike `hooks.json`),
//! events in both spellings, and parsing by role.

use std::path::Path;

use hooks_schema::{Claim, FileScope, FormatDescriptor, HookEvent, ParseContext};

use super::*;

#[test]
fn claims_by_folder_and_name() {
    let f = CopilotFormat;
    for p in [
        "/r/.github/hooks/a.json",
        "/h/.copilot/hooks/x.json",
        "/etc/github-copilot/policy.d/00.json",
        "/r/.github/copilot/settings.json",
        "/r/.github/copilot/settings.local.json",
        "/h/.copilot/settings.json",
    ] {
        assert_eq!(f.claim(Path::new(p)), Claim::Path, "{p}");
    }
    for p in [
        "/r/.cursor/hooks.json",
        "/r/.github/hooks/.hidden.json",
        "/r/.claude/settings.json",
        "/r/hooks/a.json",
        "/r/.github/workflows/a.yml",
    ] {
        assert_eq!(f.claim(Path::new(p)), Claim::No, "{p}");
    }
}

#[test]
fn content_claims_tell_copilot_from_cursor() {
    let f = CopilotFormat;
    let copilot =
        br#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./a.sh"}]}}"#;
    assert_eq!(f.claim_content(copilot), Claim::Name);
    let copilot_event = br#"{"version": 1, "hooks": {"agentStop": [{"command": "./a.sh"}]}}"#;
    assert_eq!(f.claim_content(copilot_event), Claim::Name);
    let cursor = br#"{"version": 1, "hooks": {"preToolUse": [{"command": "./a.sh"}], "beforeShellExecution": [{"command": "x"}]}}"#;
    assert_eq!(f.claim_content(cursor), Claim::No);
    let ambiguous = br#"{"version": 1, "hooks": {"preToolUse": [{"command": "./a.sh"}]}}"#;
    assert_eq!(f.claim_content(ambiguous), Claim::No, "Cursor's shape: not claimed by content");
    assert_eq!(f.claim_content(b"not json"), Claim::No);
}

#[test]
fn locations_events_and_dirs() {
    let f = CopilotFormat;
    let project: Vec<_> = f
        .locations()
        .iter()
        .filter(|l| l.scope == FileScope::Project)
        .map(|l| l.pattern.dir())
        .collect();
    assert_eq!(project, [".github/hooks", ".github/copilot", ".github/copilot"]);
    assert_eq!(f.events().len(), 27, "15 camelCase names and 12 PascalCase ones");
    assert_eq!(f.canonical_event("agentStop"), Some(HookEvent::Stop));
    assert_eq!(f.canonical_event("Stop"), Some(HookEvent::Stop));
    assert_eq!(f.canonical_event("errorOccurred"), None);
    assert_eq!(f.native_events(HookEvent::PreToolUse), ["preToolUse", "PreToolUse"]);
    let dirs = f.dirs();
    assert_eq!(
        dirs.user.map(|u| (u.under_home, u.env)),
        Some((".copilot", Some(COPILOT_HOME_VAR)))
    );
    assert!(f.host().is_some());
    assert!(!f.concurrent_gated_hooks(), "Copilot runs an event's hooks in order");
}

#[test]
fn parse_by_role() {
    let f = CopilotFormat;
    // A settings file is strict and needs no version; read as a hook file, the same
    // document warns about the missing version.
    let doc = br#"{"hooks": {"sessionEnd": [{"bash": "a"}]}}"#;
    let path = Path::new("/h/.copilot/settings.json");
    let s = f.parse(doc, &ParseContext::new(path, USER_SETTINGS)).expect("ok");
    assert!(s.diagnostics.is_empty());
    let h = f
        .parse(doc, &ParseContext::new(Path::new("/h/.copilot/hooks/a.json"), USER_HOOKS))
        .expect("ok");
    assert_eq!(h.diagnostics.len(), 1);
}

#[test]
fn a_copilot_hosted_bridge_leaves_the_projects_claude_files_to_copilot() {
    let also = CopilotFormat.host_also_runs();
    assert_eq!(also.len(), 1);
    assert_eq!(also[0].format, FormatId::new("claude"));
    assert_eq!(also[0].scopes, &[FileScope::Project]);
    assert_eq!(also[0].roles, &["claude_settings", "claude_local_settings"]);
}
