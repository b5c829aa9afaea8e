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
    // An installed extension's hook file, by its folders and name together.
    let ext = Path::new("/home/u/.gemini/extensions/safety/hooks/hooks.json");
    assert_eq!(d.claim(ext), Claim::Path);
    assert_eq!(d.claim(Path::new("/home/u/.gemini/extensions/hooks/hooks.json")), Claim::No);
    assert_eq!(d.claim(Path::new("/p/extensions/safety/hooks/hooks.json")), Claim::No);
    // Named so, it is read as one even given another kind (`hooks check`).
    let text = br#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    let parsed = d.parse(text, &ParseContext::new(ext, USER_SETTINGS)).expect("parses");
    assert!(parsed.definitions.iter().all(|h| !h.enabled), "{parsed:?}");
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

/// A linked extension's install file names the folder Gemini CLI loads it from; other
/// install types, other roles and files Gemini CLI cannot read as a link name none.
#[test]
fn a_link_file_names_the_folder_gemini_cli_loads_the_extension_from() {
    let d = GeminiFormat;
    let linked = |bytes: &[u8]| d.linked_folder(EXTENSIONS, bytes);
    let link = br#"{"source": "/home/u/src/my-ext", "type": "link"}"#;
    assert_eq!(linked(link).as_deref(), Some("/home/u/src/my-ext"));
    assert_eq!(linked(br#"{"type": "link", "source": "rel/ext"}"#).as_deref(), Some("rel/ext"));
    // The last of two keys wins, as with `JSON.parse`.
    let twice = br#"{"type": "local", "source": "/a", "type": "link", "source": "/b"}"#;
    assert_eq!(linked(twice).as_deref(), Some("/b"));
    assert_eq!(linked(br#"{"type": "link", "source": "/a", "type": "local"}"#), None);
    // A copy (`local`, `git`) lives in the extensions folder itself.
    assert_eq!(linked(br#"{"type": "local", "source": "/home/u/src/my-ext"}"#), None);
    assert_eq!(linked(br#"{"type": "git", "source": "https://example.invalid/x"}"#), None);
    for not_a_link in
        [&b""[..], b"{", b"[]", br#"{"type": "link"}"#, br#"{"type": "link", "source": 3}"#]
    {
        assert_eq!(linked(not_a_link), None, "{}", String::from_utf8_lossy(not_a_link));
    }
    // Comments are blanked first (Gemini CLI would not read this one: more protected, not less).
    assert_eq!(linked(b"// x\n{\"type\": \"link\", \"source\": \"/c\"}").as_deref(), Some("/c"));
    assert_eq!(d.linked_folder(HOOK_SCRIPTS, link), None, "not the extensions folder");
    let folder = &d.agent_folders()[0];
    assert_eq!(folder.role, EXTENSIONS);
    assert_eq!(folder.link.map(|l| l.file), Some(LINK_FILE));
    assert_eq!(folder.link.map(|l| l.parts), Some(&LINKED_PARTS[..]));
    assert!(d.agent_folders()[1..].iter().all(|f| f.link.is_none()));
}

proptest::proptest! {
    /// Any bytes as a link file: no panic; where strict JSON reads them too, the folder is
    /// the last `source` string of an object whose last `type` is `link`, and nothing else.
    #[test]
    fn any_link_file_is_read_without_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..256)) {
        let linked = GeminiFormat.linked_folder(EXTENSIONS, &bytes);
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&String::from_utf8_lossy(&bytes)) {
            let expected = (v["type"] == "link").then(|| v["source"].as_str().map(str::to_owned));
            proptest::prop_assert_eq!(linked, expected.flatten());
        }
    }

    /// Link files made of the keys that matter, in any order and repetition.
    #[test]
    fn link_files_of_the_keys_that_matter_name_the_last_source(
        members in proptest::collection::vec((0..3usize, 0..3usize), 0..6)
    ) {
        let keys = ["type", "source", "other"];
        let values = ["\"link\"", "\"/a/b\"", "3"];
        let body: Vec<String> =
            members.iter().map(|&(k, v)| format!("\"{}\": {}", keys[k], values[v])).collect();
        let text = format!("{{{}}}", body.join(", "));
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let expected = (v["type"] == "link").then(|| v["source"].as_str().map(str::to_owned));
        proptest::prop_assert_eq!(GeminiFormat.linked_folder(EXTENSIONS, text.as_bytes()), expected.flatten());
    }
}
