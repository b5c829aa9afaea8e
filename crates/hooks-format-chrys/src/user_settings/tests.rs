//! Tests for reading `project.hooks_enabled` from the user's settings document.

use std::path::Path;

use hooks_schema::Severity;
use proptest::prelude::*;

use crate::user_settings::{MAX_SETTINGS_BYTES, UserSettings, parse_user_settings};

const PATH: &str = "/home/u/.chrys/settings.yaml";

fn read(text: &str) -> UserSettings {
    parse_user_settings(text.as_bytes(), Path::new(PATH))
}

#[track_caller]
fn value(text: &str) -> Option<bool> {
    let s = read(text);
    assert!(s.diagnostics.is_empty(), "unexpected diagnostics for {text:?}: {:?}", s.diagnostics);
    s.project_hooks_enabled
}

#[test]
fn nested_and_dotted_spellings_both_set_it() {
    assert_eq!(value("project:\n  hooks_enabled: true\n"), Some(true));
    assert_eq!(value("project: {hooks_enabled: false}\n"), Some(false));
    assert_eq!(value("project.hooks_enabled: true\n"), Some(true));
    assert_eq!(value("'project.hooks_enabled': false\n"), Some(false));
    assert_eq!(
        value(
            "schema_version: 1\nui:\n  theme: dark\nproject:\n  skills_enabled: true\n  hooks_enabled: yes\n"
        ),
        Some(true)
    );
}

#[test]
fn the_last_spelling_in_file_order_wins() {
    assert_eq!(
        value("project:\n  hooks_enabled: true\nproject.hooks_enabled: false\n"),
        Some(false)
    );
    assert_eq!(
        value("project.hooks_enabled: false\nproject:\n  hooks_enabled: true\n"),
        Some(true)
    );
    // A duplicate key: the last value wins (PyYAML), at the first key's place.
    assert_eq!(
        value(
            "project: {hooks_enabled: false}\nproject.hooks_enabled: false\nproject: {hooks_enabled: true}\n"
        ),
        Some(false)
    );
    assert_eq!(
        value("project: {hooks_enabled: true}\nproject: {hooks_enabled: false}\n"),
        Some(false)
    );
}

#[test]
fn absent_null_and_blank_say_nothing() {
    assert_eq!(value(""), None);
    assert_eq!(value("# only a comment\n"), None);
    assert_eq!(value("~\n"), None);
    assert_eq!(value("ui:\n  theme: dark\n"), None);
    assert_eq!(value("project:\n  hooks_enabled:\n"), None);
    assert_eq!(value("project: {hooks_enabled: null}\n"), None);
    assert_eq!(value("project: {hooks_enabled: '  '}\n"), None);
    // Not under `project`, or under a housekeeping key: another setting, or none.
    assert_eq!(value("hooks_enabled: true\n"), None);
    assert_eq!(value("project: {hooks: {enabled: true}}\n"), None);
    assert_eq!(value("migrations: {project.hooks_enabled: true}\n"), None);
    // A scalar where the mapping should be is an unknown key for Chrys, not this setting.
    assert_eq!(value("project: true\n"), None);
}

#[test]
fn an_empty_key_adds_nothing_to_the_path() {
    // Chrys joins with `if prefix`, so an empty name is transparent.
    assert_eq!(value("'': {project: {hooks_enabled: true}}\n"), Some(true));
}

#[test]
fn string_and_integer_spellings_follow_chrys_grammar() {
    for t in [
        "'yes'", "'on'", "'1'", "'true'", "' TRUE '", "'Yes'", "\"On\"", "yes", "on", "ON", "1",
        "True",
    ] {
        assert_eq!(value(&format!("project.hooks_enabled: {t}\n")), Some(true), "{t}");
    }
    for f in ["'no'", "'off'", "'0'", "'false'", "'FALSE'", "no", "off", "Off", "0", "false"] {
        assert_eq!(value(&format!("project.hooks_enabled: {f}\n")), Some(false), "{f}");
    }
    // YAML 1.1 octal: `01` is the integer 1.
    assert_eq!(value("project.hooks_enabled: 01\n"), Some(true));
}

#[test]
fn wrong_types_warn_on_their_line_and_set_nothing() {
    for (v, ty) in [
        ("2", "int"),
        ("1.0", "float"),
        ("'enabled'", "str"),
        ("'y'", "str"),
        ("[true]", "list"),
        ("{on: true}", "dict"),
        ("2024-01-01", "date"),
    ] {
        let s = read(&format!("ui: {{theme: dark}}\nproject:\n  hooks_enabled: {v}\n"));
        assert_eq!(s.project_hooks_enabled, None, "{v}");
        let [d] = s.diagnostics.as_slice() else {
            panic!("one diagnostic for {v}: {:?}", s.diagnostics)
        };
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.code.as_deref(), Some("user_setting_invalid"));
        assert_eq!(d.source.as_deref(), Some(Path::new(PATH)));
        assert_eq!(d.line, Some(3), "{v}");
        assert!(d.message.contains(&format!("got <{ty}>")), "{v}: {}", d.message);
        assert!(d.text(true).contains(&format!("got {ty}")), "{v}: {}", d.text(true));
        assert!(d.message.contains("project.hooks_enabled"), "{}", d.message);
    }
}

#[test]
fn a_malformed_document_is_an_error_with_its_line() {
    let s = read("ui:\n  theme: dark\nproject:\n  hooks_enabled: [true\n");
    assert_eq!(s.project_hooks_enabled, None);
    let [d] = s.diagnostics.as_slice() else { panic!("{:?}", s.diagnostics) };
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.code.as_deref(), Some("user_settings_invalid"));
    assert_eq!(d.source.as_deref(), Some(Path::new(PATH)));
    assert!(d.line.is_some_and(|l| l >= 4), "{d:?}");
    assert!(d.message.starts_with("cannot parse the settings file"), "{}", d.message);
    // The rest of the document does not count either, as under Chrys.
    let s = read("project:\n  hooks_enabled: true\n bad: [\n");
    assert_eq!(s.project_hooks_enabled, None);
    assert_eq!(s.diagnostics.len(), 1);
}

#[test]
fn a_root_that_is_not_a_mapping_is_an_error() {
    for (text, ty) in
        [("- project.hooks_enabled\n", "list"), ("true\n", "bool"), ("hello\n", "str")]
    {
        let s = read(text);
        assert_eq!(s.project_hooks_enabled, None);
        let [d] = s.diagnostics.as_slice() else { panic!("{:?}", s.diagnostics) };
        assert_eq!(d.severity, Severity::Error);
        assert!(d.message.contains(&format!("must be a mapping, got {ty}")), "{}", d.message);
        assert_eq!(d.line, Some(1));
    }
}

#[test]
fn constructor_errors_and_bad_encodings_are_errors() {
    let s = read("project: {hooks_enabled: true}\nwhen: 2026-13-01\n");
    assert_eq!(s.project_hooks_enabled, None);
    assert_eq!(s.diagnostics.len(), 1);
    assert!(s.diagnostics[0].message.contains("2026-13-01"));

    let s = parse_user_settings(b"project: {hooks_enabled: \xff}\n", Path::new(PATH));
    assert_eq!(s.project_hooks_enabled, None);
    assert!(s.diagnostics[0].message.starts_with("cannot decode"), "{}", s.diagnostics[0].message);

    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(b"project.hooks_enabled: on\n");
    assert_eq!(parse_user_settings(&bom, Path::new(PATH)).project_hooks_enabled, Some(true));
}

#[test]
fn oversized_documents_are_refused_unread() {
    let mut text = "project.hooks_enabled: true\n".to_owned();
    text.push_str(&"#".repeat(MAX_SETTINGS_BYTES));
    let s = read(&text);
    assert_eq!(s.project_hooks_enabled, None);
    assert!(s.diagnostics[0].message.contains("byte cap"), "{}", s.diagnostics[0].message);
}

#[test]
fn deep_alias_expansion_stops_at_chrys_depth_bound() {
    // Each level nests the one before under an empty key, which the walk follows: the
    // setting sits about 150 mappings deep once expanded, beyond the 100 Chrys accepts.
    let mut text = String::from("defs:\n  a0: &a0 {'': {project: {hooks_enabled: true}}}\n");
    for i in 1..150 {
        text.push_str(&format!("  a{i}: &a{i} {{'': *a{}}}\n", i - 1));
    }
    let shallow = format!("{text}'': *a3\n");
    assert_eq!(value(&shallow), Some(true));
    let deep = format!("{text}'': *a149\n");
    assert_eq!(value(&deep), None);
}

proptest! {
    #[test]
    fn never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = read(&text);
    }

    #[test]
    fn never_panics_on_yaml_like_text(
        text in "(project|hooks_enabled|project\\.hooks_enabled|[:{}\\[\\],&*'\" \n-]|yes|no|~|1|0|x){0,60}"
    ) {
        let s = read(&text);
        // A value is only ever reported without an error about the document.
        if s.project_hooks_enabled.is_some() {
            prop_assert!(s.diagnostics.iter().all(|d| d.severity != Severity::Error));
        }
    }

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_user_settings(&bytes, Path::new(PATH));
    }
}
