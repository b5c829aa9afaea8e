//! Tests of hook-file parsing: golden files, the loading rules observed with Copilot CLI
//! 1.0.102 (which hooks of each file ran), settings files, and properties over arbitrary
//! input.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use expect_test::expect_file;
use hooks_schema::testing::GoldenParse;
use hooks_schema::{Envelope, HookCommand, HookEvent, ParseResult, SwitchRule, ToolCall, ToolKind};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// Renders a parse result for golden files.
pub(crate) fn render(result: &ParseResult) -> String {
    let golden = GoldenParse { all_matcher: "*", policy: true, revealed: false, run_line: None };
    golden.render(result, |d, out| {
        let _ = writeln!(out, "  timeout={}ms cwd={:?}", d.timeout.as_millis(), d.cwd);
        if !d.env.is_empty() {
            let _ = writeln!(out, "  env: {:?}", d.env);
        }
    })
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir().join(dir))
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    v.sort();
    v
}

/// The file as Copilot would find it in a repository.
fn repo_path(name: &str) -> PathBuf {
    PathBuf::from("/repo/.github/hooks").join(name)
}

#[test]
fn golden_hook_files() {
    for f in files("files") {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let bytes = std::fs::read(&f).expect("read");
        let got = render(&parse(&bytes, &repo_path(&name)));
        let golden = data_dir().join("output/files").join(name.replace(".json", ".txt"));
        expect_file![golden].assert_eq(&got);
    }
}

#[test]
fn golden_settings_files() {
    for f in files("settings") {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let bytes = std::fs::read(&f).expect("read");
        let got = render(&parse(&bytes, Path::new("/repo/.github/copilot/settings.json")));
        let golden = data_dir().join("output/settings").join(name.replace(".json", ".txt"));
        expect_file![golden].assert_eq(&got);
    }
}

/// The label a test file's hook logs (`./log.sh LABEL`, or `exec` with the label as its
/// argument).
fn label(cmd: &HookCommand) -> String {
    match cmd {
        HookCommand::Shell { script, .. } => {
            script.rsplit(' ').next().unwrap_or_default().to_owned()
        }
        HookCommand::Exec { args, .. } => args.last().cloned().unwrap_or_default(),
        HookCommand::Script { .. } | HookCommand::Http(_) => String::new(),
    }
}

fn bash_call(event: HookEvent) -> Envelope {
    let mut env = Envelope::new(event);
    env.tool = Some(ToolCall {
        name: "bash".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": "touch ran.txt"}),
    });
    env
}

#[test]
fn the_hooks_copilot_ran_are_the_hooks_that_load_and_match() {
    // `observed-loading.json`: per file, the hooks Copilot CLI 1.0.102 ran in two harness
    // runs with one `bash` tool call (null: the file was refused and nothing of it ran).
    let observed: Value = serde_json::from_slice(
        &std::fs::read(data_dir().join("observed-loading.json")).expect("read"),
    )
    .expect("json");
    let observed = observed.as_object().expect("object");
    assert_eq!(
        observed.len(),
        files("files").len() - 1,
        "every observed file but the docs example"
    );
    for (name, ran) in observed {
        let bytes = std::fs::read(data_dir().join("files").join(name)).expect("read");
        let parsed = parse(&bytes, &repo_path(name));
        let Some(ran) = ran.as_array() else {
            assert!(parsed.is_err(), "{name}: Copilot refused the file: {parsed:?}");
            continue;
        };
        let parsed = parsed.unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let mut got: Vec<String> = parsed
            .definitions
            .iter()
            .filter(|d| d.enabled && d.matcher.matches(&bash_call(d.event)))
            .map(|d| label(&d.command))
            .collect();
        let mut want: Vec<String> =
            ran.iter().map(|v| v.as_str().expect("label").to_owned()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn settings_files_are_strict_and_carry_the_switch() {
    let bad = std::fs::read(data_dir().join("settings/bad-entry.json")).expect("read");
    let parsed =
        parse(&bad, Path::new("/repo/.github/copilot/settings.json")).expect("not refused");
    assert!(parsed.definitions.is_empty(), "one bad entry rejects the whole hooks field");
    let sw = parsed.policy.switches.first().expect("switch");
    assert_eq!((sw.key, sw.rule, sw.on), (DISABLE_ALL_HOOKS, SwitchRule::Hooks, false));
    // The same entries in a hook file: the bad one is skipped, its sibling loads, and
    // `disableAllHooks` skips the file itself rather than switching anything else.
    let as_file = parse_as(&bad, &repo_path("x.json"), DocumentKind::HookFile).expect("parses");
    assert!(as_file.definitions.is_empty());
    assert!(as_file.policy.switches.is_empty());
    let ok = std::fs::read(data_dir().join("settings/ok.json")).expect("read");
    let parsed = parse(&ok, Path::new("/home/u/.copilot/settings.json")).expect("ok");
    assert_eq!(parsed.definitions.len(), 1);
    assert!(parsed.diagnostics.is_empty(), "no version needed inline: {:?}", parsed.diagnostics);
}

/// The user's settings file keeps the strict inline reading, but its `disableAllHooks` skips
/// only its own hooks, as Copilot CLI 1.0.102 does (observed in session 22: with it set there,
/// a hook in `~/.copilot/hooks/` and one in `.github/hooks/` still denied, the file's own
/// inline hook did not run); the project's settings file switches every hook off.
#[test]
fn the_user_settings_file_s_disable_all_hooks_skips_its_own_hooks_only() {
    let text = br#"{"disableAllHooks": true, "hooks": {"preToolUse": [{"type": "command", "bash": "exit 2"}]}}"#;
    let user = parse_as(text, Path::new("/h/.copilot/settings.json"), DocumentKind::UserSettings)
        .expect("parses");
    assert!(user.definitions.is_empty(), "its own hooks are skipped");
    assert!(user.policy.switches.is_empty(), "and nothing else is switched: {:?}", user.policy);
    assert!(user.diagnostics.iter().any(|d| d.code.as_deref() == Some("disabled")));
    let project =
        parse_as(text, Path::new("/r/.github/copilot/settings.json"), DocumentKind::Settings)
            .expect("parses");
    let sw = project.policy.switches.first().expect("the project's switch");
    assert_eq!((sw.key, sw.rule, sw.on), (DISABLE_ALL_HOOKS, SwitchRule::Hooks, false));
    let strict =
        br#"{"hooks": {"preToolUse": [{"type": "command", "bash": "a"}, {"type": "nope"}]}}"#;
    let user = parse_as(strict, Path::new("/h/.copilot/settings.json"), DocumentKind::UserSettings)
        .expect("parses");
    assert!(user.definitions.is_empty(), "strict like a settings file");
}

#[test]
fn document_kinds_by_name() {
    assert_eq!(
        DocumentKind::of(Path::new("/r/.github/copilot/settings.json")),
        DocumentKind::Settings
    );
    assert_eq!(
        DocumentKind::of(Path::new("/h/.copilot/settings.local.json")),
        DocumentKind::Settings
    );
    assert_eq!(
        DocumentKind::of(Path::new("/r/.github/hooks/settings.json")),
        DocumentKind::HookFile
    );
    assert_eq!(DocumentKind::of(Path::new("/r/.github/hooks/a.json")), DocumentKind::HookFile);
}

#[test]
fn timeouts_are_seconds_with_the_alias_and_defaults() {
    let doc = json!({"version": 1, "hooks": {"sessionEnd": [
        {"bash": "a", "timeoutSec": 5},
        {"bash": "b", "timeout": 7},
        {"bash": "c", "timeoutSec": 2, "timeout": 9},
        {"bash": "d"},
        {"bash": "e", "timeoutSec": 0.5},
        {"bash": "f", "timeoutSec": -1},
        {"bash": "g", "timeoutSec": 1e12}
    ]}});
    let parsed = parse(&serde_json::to_vec(&doc).expect("json"), &repo_path("t.json")).expect("ok");
    let secs: Vec<f64> = parsed.definitions.iter().map(|d| d.timeout.as_secs_f64()).collect();
    assert_eq!(secs, [5.0, 7.0, 2.0, 30.0, 0.5, 30.0, MAX_TIMEOUT_SECS]);
}

#[test]
fn the_hook_dir_is_the_files_folder() {
    let doc = br#"{"version": 1, "hooks": {"preToolUse": [{"bash": "x"}]}}"#;
    let parsed = parse(doc, &repo_path("a.json")).expect("ok");
    assert_eq!(
        parsed.definitions[0].native.get(NATIVE_HOOK_DIR),
        Some(&json!("/repo/.github/hooks"))
    );
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        "[a-zA-Z.*|()$ ]{0,8}".prop_map(Value::String),
        prop_oneof![
            Just("preToolUse"),
            Just("PreToolUse"),
            Just("sessionStart"),
            Just("bash"),
            Just("matcher"),
            Just("hooks"),
            Just("timeoutSec"),
            Just("env"),
            Just("cwd"),
            Just("exec"),
            Just("type"),
            Just("command")
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("version"),
                        Just("hooks"),
                        Just("preToolUse"),
                        Just("PreToolUse"),
                        Just("sessionStart"),
                        Just("agentStop"),
                        Just("bash"),
                        Just("command"),
                        Just("matcher"),
                        Just("timeoutSec"),
                        Just("timeout"),
                        Just("env"),
                        Just("cwd"),
                        Just("type"),
                        Just("exec"),
                        Just("args"),
                        Just("disableAllHooks")
                    ],
                    inner
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse(&bytes, &repo_path("x.json"));
        let _ = parse_as(&bytes, &repo_path("x.json"), DocumentKind::Settings);
    }

    #[test]
    fn arbitrary_documents_parse_with_located_diagnostics(doc in arb_json()) {
        let bytes = serde_json::to_vec_pretty(&serde_json::json!({"version": 1, "hooks": doc})).expect("json");
        for kind in [
            DocumentKind::HookFile,
            DocumentKind::Settings,
            DocumentKind::UserSettings,
            DocumentKind::PluginManifest,
        ] {
            match parse_as(&bytes, &repo_path("x.json"), kind) {
                Ok(p) => {
                    for d in &p.diagnostics {
                        prop_assert!(d.line.is_some_and(|l| l >= 1));
                    }
                    for d in &p.definitions {
                        prop_assert!(d.line.is_some());
                    }
                }
                Err(diags) => prop_assert!(!diags.is_empty()),
            }
        }
    }
}

/// A plugin's hook file: a hook file's entries, every one disabled with a note, run in the
/// plugin's folder (a relative `cwd` under it), with the plugin's folder in place of both
/// variables Copilot CLI sets to it (as whole names only); `hooks/hooks.json` and `hooks.json`
/// both lead to the plugin's folder.
#[test]
fn a_plugin_s_hooks_run_in_its_folder_and_never_through_the_engine() {
    let file = br#"{"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "./scripts/gate.sh $COPILOT_PLUGIN_ROOT/x ${CLAUDE_PLUGIN_ROOT}/y $COPILOT_PLUGIN_ROOTS"},
        {"type": "command", "bash": "./check.sh", "cwd": "tools"},
        {"type": "command", "bash": "./abs.sh", "cwd": "/elsewhere"}
    ]}}"#;
    for (path, folder) in [("/m/p/hooks/hooks.json", "/m/p"), ("/m/q/hooks.json", "/m/q")] {
        let parsed = crate::parse_plugin_hooks(file, Path::new(path), None).expect("reads");
        assert_eq!(parsed.definitions.len(), 3);
        assert!(parsed.definitions.iter().all(|d| !d.enabled));
        let first = &parsed.definitions[0];
        let HookCommand::Shell { script, .. } = &first.command else { panic!("a shell hook") };
        assert_eq!(
            *script,
            format!("./scripts/gate.sh {folder}/x {folder}/y $COPILOT_PLUGIN_ROOTS")
        );
        let cwds: Vec<Option<&str>> = parsed.definitions.iter().map(|d| d.cwd.as_deref()).collect();
        let tools = format!("{folder}/tools");
        assert_eq!(cwds, [Some(folder), Some(tools.as_str()), Some("/elsewhere")]);
        assert!(parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("plugin_hooks")));
        assert!(parsed.policy.is_empty());
    }
    assert!(crate::parse_plugin_hooks(b"{", Path::new("/m/p/hooks.json"), None).is_err());
}

/// The other files of a plugin that hold its hooks (observed with Copilot CLI 1.0.102): a
/// file its manifest names, anywhere in the plugin, whose hooks run in the plugin's folder
/// (its base), not in the file's; and its manifest, in any of its places, whose `hooks` may be
/// inline as an object of events (no `version` needed; a path or a list of paths there holds
/// no hooks and is no error; a hook file's `{version, hooks}` there holds no event Copilot CLI
/// knows). Without a base, a manifest's place gives the plugin's folder.
#[test]
fn a_plugin_s_named_files_and_inline_hooks_run_in_its_folder() {
    let file =
        br#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./gate.sh"}]}}"#;
    let base = Some(Path::new("/m/p"));
    let named = crate::parse_plugin_hooks(file, Path::new("/m/p/a/b/gate.json"), base).unwrap();
    assert_eq!(named.definitions[0].cwd.as_deref(), Some("/m/p"));
    assert!(!named.definitions[0].enabled);
    // Without the base, a file is taken for a hook file of the plugin in its own folder.
    let guessed = crate::parse_plugin_hooks(file, Path::new("/m/p/a/b/gate.json"), None).unwrap();
    assert_eq!(guessed.definitions[0].cwd.as_deref(), Some("/m/p/a/b"));

    let inline = br#"{"name": "p", "version": "1.0.0", "hooks": {"preToolUse": [{"type": "command", "bash": "sh $COPILOT_PLUGIN_ROOT/gate.sh"}]}}"#;
    for manifest in [
        ".plugin/plugin.json",
        "plugin.json",
        ".github/plugin/plugin.json",
        ".claude-plugin/plugin.json",
    ] {
        let path = Path::new("/m/p").join(manifest);
        for base in [base, None] {
            let parsed = crate::parse_plugin_hooks(inline, &path, base).expect(manifest);
            assert_eq!(parsed.definitions.len(), 1, "{manifest}");
            let d = &parsed.definitions[0];
            assert!(
                matches!(&d.command, HookCommand::Shell { script, .. } if script == "sh /m/p/gate.sh")
            );
            assert_eq!(d.cwd.as_deref(), Some("/m/p"), "{manifest}");
            assert!(!parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("no_version")));
        }
    }
    for names in [
        &br#"{"name": "p", "hooks": "./gate.json"}"#[..],
        br#"{"name": "p", "hooks": ["./a.json", "./b.json"]}"#,
        br#"{"name": "p"}"#,
    ] {
        let parsed =
            crate::parse_plugin_hooks(names, Path::new("/m/p/plugin.json"), base).expect("reads");
        assert!(parsed.definitions.is_empty());
        assert!(
            parsed.diagnostics.iter().all(|d| d.severity == Severity::Info),
            "{:?}",
            parsed.diagnostics
        );
    }
    // Anything else in `hooks` is said, where it stands, instead of reading as no hooks.
    for (wrong, found) in [
        (&br#"{"name": "p", "hooks": true}"#[..], "a boolean"),
        (br#"{"name": "p", "hooks": ["./a.json", 3]}"#, "an array"),
        (br#"{"name": "p", "hooks": null}"#, "null"),
    ] {
        let parsed =
            crate::parse_plugin_hooks(wrong, Path::new("/m/p/plugin.json"), base).expect("reads");
        assert!(parsed.definitions.is_empty());
        let d = parsed.diagnostics.iter().find(|d| d.code.as_deref() == Some("invalid_value"));
        let d = d.unwrap_or_else(|| panic!("{:?}", parsed.diagnostics));
        assert_eq!((d.severity, d.line, d.column), (Severity::Warning, Some(1), Some(24)));
        assert!(d.message.contains(found), "{}", d.message);
    }
    let wrapped = br#"{"name": "p", "hooks": {"version": 1, "hooks": {"preToolUse": []}}}"#;
    let parsed = crate::parse_plugin_hooks(wrapped, Path::new("/m/p/plugin.json"), base);
    assert!(parsed.is_ok_and(|p| p.definitions.is_empty()));
}
