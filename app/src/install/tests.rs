//! Goldens per host (`test_data/install/<host>/`): install into the agent's own file as a
//! user keeps it, install again (nothing changes), uninstall (the file as it was), a new file,
//! and files that are refused.

use std::path::Path;

use expect_test::expect_file;

use super::*;

const HOOKS: &str = "/opt/agent hooks/bin/hooks";

fn descriptor(host: &str) -> std::sync::Arc<dyn FormatDescriptor> {
    crate::formats::workspace_formats().named(host).expect("registered").clone()
}

fn data(host: &str, name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/install").join(host).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Installs into the host's `existing` file and into no file, checks both against the
/// goldens, then that a second install changes nothing and that uninstall gives back the
/// file byte for byte (and deletes the new one).
fn round_trip(
    host: &str,
    file: &str,
    installed: expect_test::ExpectFile,
    created: expect_test::ExpectFile,
) {
    let d = descriptor(host);
    let path = Path::new("/project").join(file);
    let hooks = Path::new(HOOKS);
    let before = data(host, "existing.json");
    let edit = install(&*d, &path, Some(&before), hooks).expect("installs");
    let after = edit.after.clone().expect("a file");
    installed.assert_eq(&after);
    assert_eq!(edit.added, entries(&*d, hooks).len());
    assert!(edit.added > 0);

    let again = install(&*d, &path, Some(&after), hooks).expect("installs again");
    assert!(again.is_noop(Some(&after)), "{host}: a second install changes nothing");

    let removed = uninstall(&*d, &path, &after).expect("uninstalls");
    assert_eq!(removed.removed, edit.added);
    assert_eq!(
        removed.after.as_deref(),
        Some(before.as_str()),
        "{host}: uninstall restores the file"
    );

    let new = install(&*d, &path, None, hooks).expect("creates");
    let new_text = new.after.clone().expect("a file");
    created.assert_eq(&new_text);
    let gone = uninstall(&*d, &path, &new_text).expect("uninstalls");
    assert_eq!(gone.after, None, "{host}: a file that held only the bridge is removed");
}

#[test]
fn claude_settings_keep_their_keys_and_formatting() {
    round_trip(
        "claude",
        ".claude/settings.local.json",
        expect_file!["../../test_data/install/claude/installed.json"],
        expect_file!["../../test_data/install/claude/created.json"],
    );
}

#[test]
fn codex_hooks_json_keeps_the_users_groups_first() {
    round_trip(
        "codex",
        ".codex/hooks.json",
        expect_file!["../../test_data/install/codex/installed.json"],
        expect_file!["../../test_data/install/codex/created.json"],
    );
}

#[test]
fn cursor_hooks_json_keeps_its_version_and_hooks() {
    round_trip(
        "cursor",
        ".cursor/hooks.json",
        expect_file!["../../test_data/install/cursor/installed.json"],
        expect_file!["../../test_data/install/cursor/created.json"],
    );
}

#[test]
fn an_older_bridge_entry_is_replaced_not_doubled() {
    let d = descriptor("claude");
    let path = Path::new("/p/.claude/settings.local.json");
    let old = install(&*d, path, None, Path::new("/old/hooks")).unwrap().after.unwrap();
    let new = install(&*d, path, Some(&old), Path::new(HOOKS)).unwrap();
    let text = new.after.unwrap();
    assert!(!text.contains("/old/hooks"), "{text}");
    assert_eq!(text.matches("--event PreToolUse").count(), 1, "{text}");
    assert_eq!(new.removed, new.added);
}

#[test]
fn files_it_cannot_parse_or_extend_are_refused() {
    let d = descriptor("claude");
    let path = Path::new("/p/.claude/settings.json");
    let hooks = Path::new(HOOKS);
    for (text, want) in [
        ("{ \"hooks\": ", "cannot parse"),
        ("[1, 2]", "not a JSON object"),
        (r#"{"hooks": []}"#, "`hooks` is not an object"),
        (r#"{"hooks": {"PreToolUse": {}}}"#, "`hooks.PreToolUse` is not a list"),
    ] {
        let e = install(&*d, path, Some(text), hooks).expect_err(text);
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
}

#[test]
fn the_bridge_command_is_quoted_for_the_shell() {
    assert_eq!(
        bridge_command(Path::new("/usr/bin/hooks"), hooks_format_claude::FORMAT, "Stop"),
        "/usr/bin/hooks bridge --host claude --event Stop"
    );
    assert_eq!(
        bridge_command(Path::new("/o'k dir/hooks"), hooks_format_claude::FORMAT, "Stop"),
        r"'/o'\''k dir/hooks' bridge --host claude --event Stop"
    );
}

#[test]
fn gemini_settings_keep_their_comments_and_trailing_comma() {
    round_trip(
        "gemini",
        ".gemini/settings.json",
        expect_file!["../../test_data/install/gemini/installed.json"],
        expect_file!["../../test_data/install/gemini/created.json"],
    );
}

#[test]
fn copilot_hook_files_get_flat_bash_entries_under_camel_case_events_only() {
    round_trip(
        "copilot",
        ".github/hooks/agent-hooks.json",
        expect_file!["../../test_data/install/copilot/installed.json"],
        expect_file!["../../test_data/install/copilot/created.json"],
    );
    let d = descriptor("copilot");
    let names: Vec<&str> = entries(&*d, Path::new(HOOKS)).iter().map(|(n, _)| *n).collect();
    assert!(names.contains(&"preToolUse") && names.contains(&"sessionStart"), "{names:?}");
    assert!(!names.contains(&"PreToolUse"), "one dialect only, or the bridge runs twice");
}

#[test]
fn windsurf_hooks_json_gets_flat_command_entries() {
    round_trip(
        "windsurf",
        ".windsurf/hooks.json",
        expect_file!["../../test_data/install/windsurf/installed.json"],
        expect_file!["../../test_data/install/windsurf/created.json"],
    );
}
