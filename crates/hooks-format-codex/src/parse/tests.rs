//! Tests of Codex file parsing: golden files per scope (`test_data/parse/<scope>/`, expected
//! output in `test_data/output/parse/`), the policy each file carries, and properties over
//! arbitrary input.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use expect_test::expect_file;
use hooks_schema::testing::{GoldenParse, TimeoutUnit};
use hooks_schema::{HookEvent, HookSourceKind, ParseResult, SwitchRule};
use proptest::prelude::*;
use serde_json::Value;

use crate::{MANAGED_REQUIREMENTS, PROJECT_CONFIG, PROJECT_HOOKS, USER_CONFIG, USER_HOOKS, parse};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// Renders a parse result for golden files.
pub(crate) fn render(result: &ParseResult) -> String {
    let golden = GoldenParse {
        all_matcher: "(all)",
        policy: true,
        revealed: true,
        run_line: Some(TimeoutUnit::Seconds),
    };
    golden.render(result, |d, out| {
        let _ = writeln!(out, "  native: {}", Value::Object(d.native.clone()));
    })
}

/// The kind a fixture is read as, and the path it pretends to have (shape by name).
fn kind_and_path(scope: &str, rel: &Path) -> (HookSourceKind, PathBuf) {
    let toml = rel.extension().is_some_and(|e| e == "toml");
    match scope {
        "project" => {
            (if toml { PROJECT_CONFIG } else { PROJECT_HOOKS }, Path::new("/repo/.codex").join(rel))
        }
        "user" => {
            (if toml { USER_CONFIG } else { USER_HOOKS }, Path::new("/home/u/.codex").join(rel))
        }
        _ => (MANAGED_REQUIREMENTS, Path::new("/etc/codex").join(rel)),
    }
}

fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("fixture dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(fixtures(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn golden_files() {
    for scope in ["project", "user", "managed"] {
        let base = data_dir().join("parse").join(scope);
        for file in fixtures(&base) {
            let rel = file.strip_prefix(&base).expect("under base");
            let (kind, path) = kind_and_path(scope, rel);
            let bytes = std::fs::read(&file).expect("read");
            let rendered = render(&parse(&bytes, &path, kind));
            let name = rel.display().to_string().replace('/', "-");
            expect_file![data_dir().join("output/parse").join(scope).join(format!("{name}.txt"))]
                .assert_eq(&rendered);
        }
    }
}

fn project(text: &str) -> ParseResult {
    parse(text.as_bytes(), Path::new("/repo/.codex/hooks.json"), PROJECT_HOOKS)
}

#[test]
fn every_event_codex_accepts_is_mapped_or_a_gap() {
    for e in crate::CodexEvent::ALL {
        let text = format!(
            r#"{{"hooks":{{"{}":[{{"hooks":[{{"type":"command","command":"x"}}]}}]}}}}"#,
            e.as_str()
        );
        let parsed = project(&text).expect("accepted");
        match e.canonical() {
            Some(c) => {
                assert_eq!(parsed.definitions.len(), 1, "{e:?}");
                assert_eq!(parsed.definitions[0].event, c);
            }
            None => {
                assert!(parsed.definitions.is_empty());
                assert_eq!(parsed.diagnostics[0].code.as_deref(), Some("capability_gap"));
            }
        }
    }
}

#[test]
fn defaults_match_codex() {
    let text = r#"{"hooks":{
        "PreToolUse":[{"hooks":[{"type":"command","command":"a"},{"type":"command","command":"b","timeout":0}]}],
        "SessionEnd":[{"hooks":[{"type":"command","command":"c"},{"type":"command","command":"d","timeout":30}]}]}}"#;
    let parsed = project(text).expect("accepted");
    let secs: Vec<u64> = parsed.definitions.iter().map(|d| d.timeout.as_secs()).collect();
    assert_eq!(secs, [600, 1, 1, 3]);
    assert_eq!(parsed.definitions[0].event, HookEvent::PreToolUse);
    assert!(
        parsed.diagnostics.iter().any(|d| d.message == "clamping SessionEnd hook timeout to 3s")
    );
}

#[test]
fn features_hooks_false_switches_hooks_off_and_requirements_can_restrict_to_managed() {
    let cfg = parse(
        b"[features]\nhooks = false\n",
        Path::new("/repo/.codex/config.toml"),
        PROJECT_CONFIG,
    )
    .expect("accepted");
    let s = cfg.policy.switch(SwitchRule::Hooks).expect("switch");
    assert!(!s.on);
    let alias = parse(
        b"[features]\ncodex_hooks = false\n",
        Path::new("/u/.codex/config.toml"),
        USER_CONFIG,
    )
    .expect("accepted");
    assert!(!alias.policy.switch(SwitchRule::Hooks).expect("switch").on);
    let req = parse(
        b"allow_managed_hooks_only = true\n",
        Path::new("/etc/codex/requirements.toml"),
        MANAGED_REQUIREMENTS,
    )
    .expect("accepted");
    assert!(req.policy.switch(SwitchRule::ManagedOnly).expect("switch").on);
    let none = parse(b"model = \"x\"\n", Path::new("/repo/.codex/config.toml"), PROJECT_CONFIG)
        .expect("accepted");
    assert!(none.policy.is_empty() && none.definitions.is_empty());
}

#[test]
fn hook_state_is_listed_only_for_the_user_config() {
    let text = "[hooks.state.\"/r/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:0\"\n";
    let user = parse(text.as_bytes(), Path::new("/u/.codex/config.toml"), USER_CONFIG).expect("ok");
    assert!(user.settings.contains_key(crate::SETTINGS_HOOK_STATE));
    let proj =
        parse(text.as_bytes(), Path::new("/r/.codex/config.toml"), PROJECT_CONFIG).expect("ok");
    assert!(proj.settings.is_empty());
    assert_eq!(proj.diagnostics[0].code.as_deref(), Some("hook_state_ignored"));
}

#[test]
fn values_from_the_file_are_quoted_only_when_revealed() {
    let secret = "sk-live-0123456789";
    for text in [
        format!(
            r#"{{"hooks":{{"Stop":[{{"hooks":[{{"type":"command","command":"x","timeout":"{secret}"}}]}}]}}}}"#
        ),
        format!(r#"{{"hooks":{{"Stop":[{{"hooks":[{{"type":"{secret}"}}]}}]}}}}"#),
        format!(r#"{{"hooks":{{"PreToolUse":[{{"matcher":"({secret}","hooks":[]}}]}}}}"#),
    ] {
        let diags = match project(&text) {
            Err(d) => d,
            Ok(p) => p.diagnostics,
        };
        assert!(!diags.is_empty(), "{text}");
        for d in &diags {
            assert!(!d.message.contains(secret), "{}", d.message);
            assert!(d.text(true).contains(secret), "{}", d.text(true));
        }
    }
    let toml = format!(
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = \"{secret}\"\n"
    );
    let err = parse(toml.as_bytes(), Path::new("/r/.codex/config.toml"), PROJECT_CONFIG)
        .expect_err("refused");
    assert!(!err[0].message.contains(secret) && err[0].text(true).contains(secret), "{err:?}");
}

#[test]
fn oversized_documents_are_refused() {
    let big = vec![b' '; crate::MAX_DOCUMENT_BYTES + 1];
    let err = project(std::str::from_utf8(&big).expect("ascii")).expect_err("refused");
    assert_eq!(err[0].code.as_deref(), Some("too_large"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for (path, kind) in [
            ("/r/.codex/hooks.json", PROJECT_HOOKS),
            ("/r/.codex/config.toml", PROJECT_CONFIG),
            ("/etc/codex/requirements.toml", MANAGED_REQUIREMENTS),
        ] {
            let _ = parse(&bytes, Path::new(path), kind);
        }
    }

    #[test]
    fn mutated_valid_files_never_panic(cut in 0usize..2000, insert in "[\\[\\]{}\":,= \\n#a-z0-9\\\\]{0,8}") {
        for (name, path, kind) in [
            ("parse/project/valid.json", "/r/.codex/hooks.json", PROJECT_HOOKS),
            ("parse/project/inline.toml", "/r/.codex/config.toml", PROJECT_CONFIG),
            ("parse/managed/requirements.toml", "/etc/codex/requirements.toml", MANAGED_REQUIREMENTS),
        ] {
            let text = std::fs::read_to_string(data_dir().join(name)).expect("fixture");
            let mut at = cut.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mutated = format!("{}{insert}{}", &text[..at], &text[at..]);
            if let Ok(p) = parse(mutated.as_bytes(), Path::new(path), kind) {
                for d in &p.definitions {
                    prop_assert!(d.line.is_some_and(|l| l >= 1));
                    prop_assert!(d.timeout.as_secs() >= 1);
                }
            }
        }
    }
}

/// A plugin's files that hold hooks (observed with Codex 0.169.0): its manifest's `hooks`, when
/// a `hooks.json` document, read at the manifest's own lines and columns, with the plugin's
/// folder in place of `$PLUGIN_ROOT`; an object of events there is refused as Codex refuses
/// such a document (it did not run); a path, a list, or no `hooks`, hold none; a file the
/// manifest names is read with the plugin's folder as its base, not its folder's folder.
#[test]
fn a_plugin_s_manifest_and_the_files_it_names_hold_its_hooks() {
    let kind = HookSourceKind::file(hooks_schema::FileScope::User, crate::PLUGINS);
    let root = Path::new("/h/.codex/plugins/cache/m/p/1.0.0");
    let manifest = root.join(crate::PLUGIN_MANIFEST);
    let inline = "{\n  \"name\": \"p\",\n  \"version\": \"1.0.0\",\n  \"hooks\": {\"hooks\": {\"PreToolUse\": [\n    {\"hooks\": [{\"type\": \"command\", \"command\": \"sh $PLUGIN_ROOT/gate.sh\"}]}]}}\n}\n";
    for base in [None, Some(root)] {
        let parsed = crate::parse_plugin_hooks(inline.as_bytes(), &manifest, kind, base)
            .expect("the inline document reads");
        assert_eq!(parsed.definitions.len(), 1);
        let d = &parsed.definitions[0];
        assert!(!d.enabled);
        assert_eq!(d.line, Some(5), "the manifest's own line");
        assert!(matches!(&d.command, hooks_schema::HookCommand::Shell { script, .. }
            if script == "sh /h/.codex/plugins/cache/m/p/1.0.0/gate.sh"));
    }
    // A multi-byte character before the document on its line is one column, as Codex's own
    // reader counts it: the same column as three ASCII characters in its place.
    let columns: Vec<Option<u32>> = ["é✓p", "abp"]
        .map(|name| {
            let text = format!(
                r#"{{"name": "{name}", "hooks": {{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "x"}}]}}]}}}}}}"#
            );
            let parsed = crate::parse_plugin_hooks(text.as_bytes(), &manifest, kind, None);
            parsed.expect("reads").definitions[0].column
        })
        .into();
    assert_eq!(columns[0], columns[1]);
    assert_eq!(columns[0], Some(63), "the handler object's column");
    let events = br#"{"name": "p", "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    assert!(crate::parse_plugin_hooks(events, &manifest, kind, None).is_err());
    for none in [
        &br#"{"name": "p", "hooks": "./gate.json"}"#[..],
        br#"{"name": "p", "hooks": ["./a.json"]}"#,
        br#"{"name": "p"}"#,
        b"{",
        b"\xEF\xBB\xBF{\"hooks\": {\"hooks\": {}}}",
    ] {
        let parsed = crate::parse_plugin_hooks(none, &manifest, kind, None).expect("reads");
        assert!(parsed.definitions.is_empty() && parsed.diagnostics.is_empty(), "{none:?}");
    }
    // Anything else in `hooks` is said, where it stands, instead of reading as no hooks
    // (`null` is no `hooks`, as Codex's own reader takes it).
    for (wrong, found, at) in [
        (&br#"{"name": "p", "hooks": true}"#[..], "a boolean", (1, 24)),
        (
            "{\n  \"name\": \"é\",\n  \"hooks\": [\"./a.json\", 3]\n}".as_bytes(),
            "an array",
            (3, 12),
        ),
    ] {
        let parsed = crate::parse_plugin_hooks(wrong, &manifest, kind, None).expect("reads");
        assert!(parsed.definitions.is_empty());
        let d = parsed.diagnostics.iter().find(|d| d.code.as_deref() == Some("invalid_value"));
        let d = d.unwrap_or_else(|| panic!("{:?}", parsed.diagnostics));
        assert_eq!(
            (d.severity, d.line, d.column),
            (hooks_schema::Severity::Warning, Some(at.0), Some(at.1))
        );
        assert!(d.message.contains(found), "{}", d.message);
    }
    let named = br#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "sh $PLUGIN_ROOT/x.sh"}]}]}}"#;
    let deep = root.join("a/b/gate.json");
    let parsed = crate::parse_plugin_hooks(named, &deep, kind, Some(root)).expect("reads");
    assert!(
        matches!(&parsed.definitions[0].command, hooks_schema::HookCommand::Shell { script, .. }
        if script == "sh /h/.codex/plugins/cache/m/p/1.0.0/x.sh")
    );
}

proptest! {
    /// Any bytes as a plugin's manifest never panic, and what reads is disabled.
    #[test]
    fn a_plugin_manifest_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let kind = HookSourceKind::file(hooks_schema::FileScope::User, crate::PLUGINS);
        let path = Path::new("/h/.codex/plugins/cache/m/p/1.0.0/.codex-plugin/plugin.json");
        if let Ok(parsed) = crate::parse_plugin_hooks(&bytes, path, kind, None) {
            prop_assert!(parsed.definitions.iter().all(|d| !d.enabled));
        }
    }
}
