//! Tests of the descriptor: events, locations, kinds and precedence, claims, parse and host.

use std::path::Path;

use hooks_schema::{FileContent, FormatSet, HookEvent, ParseContext};

use super::*;

#[test]
fn events_are_mapped_or_gaps() {
    let d = GeminiFormat;
    assert_eq!(d.events().len(), 11);
    assert_eq!(d.canonical_event("BeforeTool"), Some(HookEvent::PreToolUse));
    assert_eq!(d.canonical_event("AfterAgent"), Some(HookEvent::Stop));
    assert_eq!(d.canonical_event("BeforeModel"), None);
    assert_eq!(d.native_events(HookEvent::PromptSubmit), vec!["BeforeAgent"]);
    let gaps: Vec<_> =
        d.events().iter().filter(|e| e.canonical.is_none()).map(|e| e.name).collect();
    assert_eq!(gaps, ["BeforeModel", "AfterModel", "BeforeToolSelection"]);
}

#[test]
fn locations_cover_every_scope() {
    let d = GeminiFormat;
    let project: Vec<_> = d.locations().iter().filter(|l| l.scope == FileScope::Project).collect();
    assert_eq!(project.len(), 1);
    assert!(project[0].pattern.matches(".gemini/settings.json"));
    assert_eq!(project[0].pattern.folders(), [".gemini"]);
    assert!(d.locations().iter().all(|l| l.content == FileContent::Hooks));
    let managed: Vec<_> =
        d.locations().iter().filter(|l| l.scope == FileScope::Managed).map(|l| l.pattern).collect();
    assert_eq!(
        managed,
        [FilePattern::File("system-defaults.json"), FilePattern::File("settings.json")]
    );
    assert_eq!(d.dirs().managed.map(|m| m.linux), Some("/etc/gemini-cli"));
    assert_eq!(d.dirs().user.map(|u| u.under_home), Some(".gemini"));
    assert_eq!(PROJECT_SETTINGS.to_string(), "project_gemini_settings");
    assert!(MANAGED_SETTINGS.priority() < PROJECT_SETTINGS.priority());
    assert!(PROJECT_SETTINGS.priority() < USER_SETTINGS.priority());
    assert!(MANAGED_SYSTEM_DEFAULTS.priority() < MANAGED_SETTINGS.priority());
}

#[test]
fn claims() {
    let d = GeminiFormat;
    assert_eq!(d.claim(Path::new("/p/.gemini/settings.json")), Claim::Name);
    assert_eq!(d.claim(Path::new("/etc/gemini-cli/system-defaults.json")), Claim::Name);
    assert_eq!(d.claim(Path::new("/p/.claude/settings.json")), Claim::No);
    assert_eq!(d.claim_content(br#"{"hooks": {"BeforeTool": []}}"#), Claim::Name);
    assert_eq!(d.claim_content(b"// c\n{\"hooksConfig\": {}}"), Claim::Name);
    assert_eq!(
        d.claim_content(br#"{"hooks": {"SessionStart": []}}"#),
        Claim::No,
        "Claude Code's too"
    );
    assert_eq!(d.claim_content(br#"{"hooks": {"PreToolUse": [], "BeforeTool": []}}"#), Claim::No);
    let set = FormatSet::new(vec![descriptor()]);
    assert_eq!(set.canonical_event("PreCompress"), Some(HookEvent::PreCompact));
}

#[test]
fn parse_goes_through_the_context_path_and_host_is_declared() {
    let d = GeminiFormat;
    let path = Path::new("/p/.gemini/settings.json");
    let parsed = d
        .parse(
            br#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
            &ParseContext::new(path, PROJECT_SETTINGS),
        )
        .expect("parses");
    assert_eq!(parsed.definitions.len(), 1);
    assert!(d.host().is_some());
    assert_eq!(d.install_targets().len(), 2);
    assert_eq!(d.codec().wire_format(), FORMAT);
    assert!(d.project_dir_vars().contains(&"GEMINI_PROJECT_DIR"));
}
