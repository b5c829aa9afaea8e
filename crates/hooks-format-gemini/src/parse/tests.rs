//! Tests of settings parsing: golden files with Gemini CLI's acceptance rules, the policy a
//! file carries, and properties over arbitrary input.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    time::Duration,
};

use expect_test::expect_file;
use hooks_schema::testing::{GoldenParse, TimeoutUnit};
use hooks_schema::{HookEvent, ParseResult, SwitchRule};
use proptest::prelude::*;
use serde_json::Value;

use crate::parse;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// Renders a parse result for golden files.
pub(crate) fn render(result: &ParseResult) -> String {
    let golden = GoldenParse {
        all_matcher: "*",
        policy: true,
        revealed: false,
        run_line: Some(TimeoutUnit::Millis),
    };
    golden.render(result, |d, out| {
        if !d.env.is_empty() {
            let _ = writeln!(out, "  env: {:?}", d.env);
        }
        if let Some(desc) = &d.description {
            let _ = writeln!(out, "  description: {desc}");
        }
        if !d.native.is_empty() {
            let _ = writeln!(out, "  native: {}", Value::Object(d.native.clone()));
        }
    })
}

/// The `.json` fixtures of `test_data/<folder>`, in name order, at least `min` of them.
fn fixtures(folder: &str, min: usize) -> Vec<PathBuf> {
    let dir = data_dir().join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= min, "fixtures missing in {}", dir.display());
    files
}

#[test]
fn golden_settings() {
    for file in fixtures("settings", 11) {
        let bytes = std::fs::read(&file).expect("read fixture");
        let name = file.file_name().expect("name").to_string_lossy().into_owned();
        let shown = PathBuf::from(format!("/p/.gemini/{name}"));
        let rendered = render(&parse(&bytes, &shown));
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        expect_file![data_dir().join(format!("output/settings/{stem}.txt"))].assert_eq(&rendered);
    }
}

fn parse_str(text: &str) -> ParseResult {
    parse(text.as_bytes(), Path::new("/p/.gemini/settings.json"))
}

#[test]
fn documented_example_loads_as_documented() {
    let parsed = parse_str(
        r#"{"hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [{"name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000}]}]}}"#,
    )
    .expect("parses");
    let [d] = parsed.definitions.as_slice() else { panic!("one definition") };
    assert_eq!(d.event, HookEvent::PreToolUse);
    assert_eq!(d.timeout, Duration::from_millis(5000));
    assert_eq!(d.native.get("name"), Some(&Value::from("security-check")));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn default_timeout_is_sixty_seconds() {
    let parsed = parse_str(
        r#"{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
    )
    .expect("parses");
    assert_eq!(parsed.definitions[0].timeout, Duration::from_secs(60));
}

#[test]
fn hooks_enabled_is_the_hooks_switch() {
    for (text, on) in [("false", false), ("true", true), ("0", false), ("\"no\"", true)] {
        let parsed =
            parse_str(&format!(r#"{{"hooksConfig": {{"enabled": {text}}}}}"#)).expect("parses");
        let s = parsed.policy.switch(SwitchRule::Hooks).expect("a switch");
        assert_eq!(s.on, on, "{text}");
        assert_eq!(s.key, "hooksConfig.enabled");
    }
    // Not set, or null: no voice.
    for text in [r#"{}"#, r#"{"hooksConfig": {}}"#, r#"{"hooksConfig": {"enabled": null}}"#] {
        assert!(parse_str(text).expect("parses").policy.is_empty(), "{text}");
    }
}

#[test]
fn disabled_names_switch_hooks_off_by_name_or_command() {
    let parsed = parse_str(
        r#"{"hooksConfig": {"disabled": ["guard", "./b.sh"]}, "hooks": {"BeforeTool": [{"hooks": [
            {"name": "guard", "type": "command", "command": "./a.sh"},
            {"type": "command", "command": "./b.sh"},
            {"name": "./b.sh-not", "type": "command", "command": "./b.sh"}]}]}}"#,
    )
    .expect("parses");
    let enabled: Vec<bool> = parsed.definitions.iter().map(|d| d.enabled).collect();
    assert_eq!(enabled, [false, false, true]);
    // The list is the file's policy too (it reaches the other settings files' hooks), and
    // each hook is named as `getHookName` names it: its `name`, else its command.
    let disables = parsed.policy.disables.as_ref().expect("a list");
    assert_eq!(
        (disables.key, disables.names.as_slice()),
        ("hooksConfig.disabled", &["guard".to_owned(), "./b.sh".to_owned()][..])
    );
    let names: Vec<Option<String>> =
        parsed.definitions.iter().map(|d| d.codec.disable_name(d)).collect();
    assert_eq!(
        names,
        [Some("guard".to_owned()), Some("./b.sh".to_owned()), Some("./b.sh-not".to_owned())]
    );
    let none = parse_str(r#"{"hooksConfig": {"disabled": []}}"#).expect("parses");
    assert!(none.policy.is_empty(), "an empty list says nothing");
}

#[test]
fn rejected_documents() {
    for text in ["{", "[]", "null", "\u{feff}{}", "{\"a\": 1,}"] {
        assert!(parse_str(text).is_err(), "{text:?}");
    }
    let big = vec![b' '; crate::MAX_DOCUMENT_BYTES + 1];
    assert!(parse(&big, Path::new("/x")).is_err());
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse(&bytes, Path::new("/p/.gemini/settings.json"));
    }

    #[test]
    fn structured_settings_never_panic(
        event in prop::sample::select(vec!["BeforeTool", "AfterTool", "SessionStart", "BeforeModel", "Nope", "enabled"]),
        matcher in prop_oneof![Just(Value::Null), Just(Value::from(3)), "[a-z|()*.^$\\\\]{0,10}".prop_map(Value::from)],
        command in prop_oneof![Just(Value::Null), Just(Value::from("")), Just(Value::from(1)), "[a-z./ ]{1,10}".prop_map(Value::from)],
        timeout in prop_oneof![Just(Value::Null), any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)), "[0-9a-z]{0,5}".prop_map(Value::from)],
        kind in prop::sample::select(vec!["command", "plugin", "runtime", "http", ""]),
    ) {
        let doc = serde_json::json!({"hooks": {event: [{"matcher": matcher, "hooks": [{"type": kind, "command": command, "timeout": timeout}]}]}});
        let text = doc.to_string();
        let result = parse(text.as_bytes(), Path::new("/p/.gemini/settings.json"));
        let parsed = result.expect("a JSON object always parses");
        for d in &parsed.definitions {
            prop_assert!(d.line.is_some() && d.column.is_some());
            prop_assert!(d.timeout >= Duration::from_millis(1));
        }
        for d in &parsed.diagnostics {
            prop_assert!(d.line.is_some(), "{d}");
        }
    }
}

/// An extension's hook file: its hooks as a settings file's, Gemini CLI's extension
/// variables replaced in what runs, nothing else of a settings file applied, every hook
/// disabled (Gemini CLI runs them itself) with a note saying so.
#[test]
fn an_extension_s_hooks_are_listed_disabled_with_its_variables_replaced() {
    let text = r#"{
      "hooksConfig": {"enabled": false},
      "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
        {"type": "command", "command": "node ${extensionPath}${/}dist/gate.js --root ${workspacePath}"},
        {"type": "command", "command": "${MODE_SETTING} ${extensionPath", "env": {"CFG": "${extensionPath}/cfg.json"}}
      ]}]}
    }"#;
    let path = Path::new("/home/u/.gemini/extensions/safety/hooks/hooks.json");
    let parsed = crate::parse_extension_hooks(text.as_bytes(), path).expect("parses");
    let scripts: Vec<String> = parsed
        .definitions
        .iter()
        .map(|d| match &d.command {
            hooks_schema::HookCommand::Shell { script, .. } => script.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        scripts,
        [
            "node /home/u/.gemini/extensions/safety/dist/gate.js --root $GEMINI_PROJECT_DIR",
            "${MODE_SETTING} ${extensionPath",
        ]
    );
    assert_eq!(
        parsed.definitions[1].env,
        [("CFG".to_owned(), "/home/u/.gemini/extensions/safety/cfg.json".to_owned())]
    );
    assert!(parsed.definitions.iter().all(|d| !d.enabled));
    assert!(parsed.settings.is_empty(), "no hooksConfig from an extension: {:?}", parsed.settings);
    assert_eq!(parsed.policy, hooks_schema::SourcePolicy::default());
    let note = parsed.diagnostics.last().expect("a note");
    assert_eq!(note.code.as_deref(), Some("extension_hooks"));
    assert!(note.message.contains("/home/u/.gemini/extensions/safety"), "{}", note.message);
    // Through the descriptor, by the extensions' role.
    let kind = hooks_schema::HookSourceKind::file(hooks_schema::FileScope::User, crate::EXTENSIONS);
    let ctx = hooks_schema::ParseContext::new(path, kind);
    use hooks_schema::FormatDescriptor as _;
    let through = crate::GeminiFormat.parse(text.as_bytes(), &ctx).expect("parses");
    assert!(through.definitions.iter().all(|d| !d.enabled));
    // A file without hooks has none and no note; one Gemini CLI cannot read is rejected.
    let none = crate::parse_extension_hooks(b"{}", path).expect("parses");
    assert!(none.definitions.is_empty() && none.diagnostics.is_empty());
    assert!(crate::parse_extension_hooks(b"{", path).is_err());
}

/// `${key}` is replaced as JavaScript's `/\${(.*?)}/g` finds it: the shortest key on one
/// line; an unknown key, an unclosed one, or one across a line break is left as written.
#[test]
fn extension_variables_are_found_as_gemini_cli_s_pattern_finds_them() {
    let h = |t: &str| super::hydrate(t, "/x");
    assert_eq!(h("${extensionPath}/a ${extensionPath}"), "/x/a /x");
    assert_eq!(h("${/}${pathSeparator}"), "//");
    assert_eq!(h("${workspacePath}/s.sh"), "$GEMINI_PROJECT_DIR/s.sh");
    assert_eq!(h("${HOME}/${extensionPath}"), "${HOME}//x");
    assert_eq!(h("${}${extension\nPath}${extensionPath}"), "${}${extension\nPath}/x");
    assert_eq!(h("$${extensionPath}}"), "$/x}");
    assert_eq!(h("${${extensionPath}}"), "${${extensionPath}}", "the key is `${{extensionPath`");
    assert_eq!(h("é${extensionPath}é${"), "é/xé${");
}

proptest! {
    /// Any text: no panic, and text without `${` is unchanged.
    #[test]
    fn hydrating_any_text_never_panics(text in "\\PC{0,64}") {
        let out = super::hydrate(&text, "/ext");
        if !text.contains("${") {
            prop_assert_eq!(out, text);
        }
    }
}

/// Golden files for extensions (`test_data/extensions/*.json`, output in
/// `test_data/output/extensions/`): each file read as an extension's hook file (its hooks
/// disabled, its variables replaced) and as an extension's install file (the folder a link
/// names).
#[test]
fn golden_extensions() {
    use hooks_schema::FormatDescriptor as _;
    for file in fixtures("extensions", 5) {
        let bytes = std::fs::read(&file).expect("read fixture");
        let shown = Path::new("/home/u/.gemini/extensions/safety/hooks/hooks.json");
        let mut rendered = render(&crate::parse_extension_hooks(&bytes, shown));
        let linked = crate::GeminiFormat.linked_folder(crate::EXTENSIONS, &bytes);
        let _ = writeln!(rendered, "as an install file, links to: {linked:?}");
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        expect_file![data_dir().join(format!("output/extensions/{stem}.txt"))].assert_eq(&rendered);
    }
}
