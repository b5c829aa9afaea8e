//! Tests of `hooks check`: format detection and the per-file report.

use std::path::Path;

use super::*;

#[test]
fn formats_are_detected_by_name_then_content() {
    let formats = hooks_app::formats::workspace_formats();
    let d = |p: &str, text: &str| detect_format(&formats, Path::new(p), text.as_bytes()).unwrap();
    assert_eq!(d("/r/.chrys/hooks/hooks.json", "{}"), hooks_format_chrys::FORMAT);
    assert_eq!(d("/r/x/hooks.yml", ""), hooks_format_chrys::FORMAT);
    assert_eq!(d("/r/.claude/settings.local.json", "{}"), hooks_format_claude::FORMAT);
    assert_eq!(d("/etc/claude-code/managed-settings.json", "{}"), hooks_format_claude::FORMAT);
    assert_eq!(d("/r/.cursor/hooks.json", "{}"), hooks_format_cursor::FORMAT);
    assert_eq!(d("/tmp/a.json", r#"{"hooks": [{"id": "x"}]}"#), hooks_format_chrys::FORMAT);
    assert_eq!(d("/tmp/a.json", r#"{"hooks": {"PreToolUse": []}}"#), hooks_format_claude::FORMAT);
    assert_eq!(
        d("/tmp/a.json", r#"{"version": 1, "hooks": {"preToolUse": []}}"#),
        hooks_format_cursor::FORMAT
    );
    assert_eq!(d("/tmp/a.json", "not json"), hooks_format_cursor::FORMAT);
}

#[test]
fn a_valid_cursor_file_lists_its_hooks() {
    let text = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./x.sh", "timeout": 5, "failClosed": true}]}}"#;
    let r = check_bytes(
        &hooks_app::formats::workspace_formats(),
        "hooks.json",
        Path::new("/r/.cursor/hooks.json"),
        text.as_bytes(),
        FormatChoice::Auto,
    );
    assert!(r.ok(), "{:?}", r.diagnostics);
    let j = r.to_json();
    assert_eq!(j["format"], "cursor");
    assert_eq!(j["ok"], true);
    let h = &j["hooks"][0];
    assert_eq!(h["event"], "pre_tool_use");
    assert_eq!(h["native_event"], "beforeShellExecution");
    assert_eq!(h["timeout_ms"], 5000);
    assert_eq!(h["on_failure"], "block");
    assert_eq!(h["mode"], "blocking");
    assert_eq!(h["enabled"], true);
}

#[test]
fn a_chrys_file_reports_chrys_own_first_error() {
    let text = "hooks:\n  - id: a\n    event: session_start\n    run: { type: shell, shell: \"true\" }\n    timeout: 10\n";
    let r = check_bytes(
        &hooks_app::formats::workspace_formats(),
        "hooks.yaml",
        Path::new("/r/.chrys/hooks/hooks.yaml"),
        text.as_bytes(),
        FormatChoice::Auto,
    );
    assert!(!r.ok());
    assert_eq!(r.format, Some(hooks_format_chrys::FORMAT));
    assert!(
        r.diagnostics[0].message.contains("hooks[0]: unknown keys: ['timeout']"),
        "{:?}",
        r.diagnostics
    );
    assert!(r.to_json()["hooks"].as_array().unwrap().is_empty());
}

#[test]
fn errors_come_first_and_carry_lines() {
    let text = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"command\": \"a\", \"bogus\": 1}, {\"command\": \"b\", \"timeout\": 0}]}}";
    let r = check_bytes(
        &hooks_app::formats::workspace_formats(),
        "h",
        Path::new("/r/.cursor/hooks.json"),
        text.as_bytes(),
        FormatChoice::Fixed(hooks_format_cursor::FORMAT),
    );
    assert!(!r.ok());
    assert!(r.diagnostics[0].is_error(), "{:?}", r.diagnostics);
    assert!(r.diagnostics.iter().all(|d| d.line.is_some()), "{:?}", r.diagnostics);
    assert_eq!(r.hooks.len(), 1);
}

#[test]
fn a_chrys_settings_file_is_checked_for_the_project_hooks_setting() {
    let check = |text: &str| {
        check_bytes(
            &hooks_app::formats::workspace_formats(),
            "settings.yaml",
            Path::new("/home/u/.chrys/settings.yaml"),
            text.as_bytes(),
            FormatChoice::Auto,
        )
    };
    let r = check("ui: {theme: dark}\nproject:\n  hooks_enabled: yes\n");
    assert!(r.ok(), "{:?}", r.diagnostics);
    assert_eq!(r.format, Some(hooks_format_chrys::FORMAT));
    assert!(r.hooks.is_empty());
    let [d] = r.diagnostics.as_slice() else { panic!("{:?}", r.diagnostics) };
    assert_eq!(d.severity, Severity::Info);
    assert!(d.message.starts_with("project.hooks_enabled is on"), "{}", d.message);

    // A malformed file is an error on its line, as for a hooks file.
    let r = check("project:\n  hooks_enabled: [true\n");
    assert!(!r.ok());
    let e = &r.diagnostics[0];
    assert!(e.is_error());
    assert_eq!(e.source.as_deref(), Some(Path::new("/home/u/.chrys/settings.yaml")));
    assert!(e.line.is_some(), "{e:?}");
    assert_eq!(r.to_json()["diagnostics"][0]["line"], json!(e.line));

    // A value of the wrong type is a warning: the file is usable, the setting stays off.
    let r = check("project.hooks_enabled: maybe\n");
    assert!(r.ok());
    assert!(r.diagnostics.iter().any(|d| d.severity == Severity::Warning && d.line == Some(1)));
    assert!(
        r.diagnostics.iter().any(|d| d.message.starts_with("project.hooks_enabled is not set"))
    );

    // A hooks file is still a hooks file.
    let r = check_bytes(
        &hooks_app::formats::workspace_formats(),
        "hooks.yaml",
        Path::new("/home/u/.chrys/hooks/hooks.yaml"),
        b"project: {hooks_enabled: true}\n",
        FormatChoice::Auto,
    );
    assert!(!r.ok(), "{:?}", r.diagnostics);
}
