//! Tests of settings parsing: golden files for both modes, one test per strict rejection,
//! and properties over arbitrary input.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use expect_test::expect_file;
use hooks_schema::testing::{GoldenParse, TimeoutUnit};
use hooks_schema::{
    Decision, EncodeContext, Envelope, ExecutionMode, ExitInfo, HookCommand, HookEvent,
    HookSourceId, OnFailure, ParseResult, RawOutcome, SpawnFailure, SpawnFailureKind,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::{ClaudeMode, parse};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// Renders a parse result for golden files.
pub(crate) fn render(result: &ParseResult) -> String {
    let golden = GoldenParse {
        all_matcher: "*",
        policy: false,
        revealed: false,
        run_line: Some(TimeoutUnit::Seconds),
    };
    golden.render(result, |d, out| {
        let _ = writeln!(out, "  codec: {:?}", d.codec);
        if !d.native.is_empty() {
            let _ = writeln!(out, "  native: {}", Value::Object(d.native.clone()));
        }
    })
}

/// The fixtures of `test_data/<dir>` with extension `ext`, in name order (at least six).
fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir().join(dir))
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(files.len() > 5, "fixtures missing in {dir}");
    files
}

fn golden(dir: &str, mode: ClaudeMode) {
    for file in fixtures(dir, "json") {
        let bytes = std::fs::read(&file).expect("read fixture");
        let name = file.file_name().expect("name").to_string_lossy().into_owned();
        let shown = PathBuf::from(format!("/settings/{dir}/{name}"));
        let rendered = render(&parse(&bytes, &shown, mode));
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        expect_file![data_dir().join(format!("output/{dir}/{stem}.txt"))].assert_eq(&rendered);
    }
}

#[test]
fn golden_default_mode() {
    golden("default", ClaudeMode::Default);
}

#[test]
fn golden_strict_mode() {
    golden("strict", ClaudeMode::Strict);
}

/// The front matter of subagents, skills and commands: their `hooks:` read as a settings
/// file's, with the Markdown file's lines, settings keys ignored; a file without front
/// matter or hooks has none. A subagent Claude Code loads (a `name` and a `description`) is
/// picked as its name by settings' `agent` and its definitions are enabled (the registry runs
/// them only where it is picked); a skill's, and a subagent's Claude Code does not load, are
/// disabled (the engine lists them and protects their scripts).
#[test]
fn golden_front_matter() {
    for file in fixtures("front_matter", "md") {
        let bytes = std::fs::read(&file).expect("read fixture");
        let name = file.file_name().expect("name").to_string_lossy().into_owned();
        let (shown, of) = if name == "skill.md" {
            ("/repo/.claude/skills/deploy/SKILL.md".into(), crate::FrontMatterOf::Skill)
        } else {
            (format!("/repo/.claude/agents/{name}"), crate::FrontMatterOf::Subagent)
        };
        let result = crate::parse_front_matter(&bytes, Path::new(&shown), of);
        if let Ok(parsed) = &result {
            let picked = parsed.policy.picked_as.as_ref().map(|p| (p.key, p.name.as_str()));
            let loaded = ["subagent.md", "settings-keys-typed-otherwise.md"];
            let expected = loaded.contains(&name.as_str()).then_some(("agent", "gate"));
            assert_eq!(picked, expected, "{name}: picked as its name only when loaded");
            let enabled = picked.is_some();
            assert!(parsed.definitions.iter().all(|d| d.enabled == enabled), "{name}");
            assert_eq!(parsed.policy.picks, None, "{name}: front matter picks nothing");
            assert!(parsed.policy.switches.is_empty(), "{name}: settings keys are not read");
            if name.starts_with("settings-keys") {
                let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
                assert!(errors.is_empty(), "{name}: keys named like settings: {errors:#?}");
            }
        }
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        expect_file![data_dir().join(format!("output/front_matter/{stem}.txt"))]
            .assert_eq(&render(&result));
    }
}

/// A plugin's hook file: its `hooks` read as a settings file's, other keys not read,
/// `${CLAUDE_PLUGIN_ROOT}` (and the variable in a shell command) replaced by the plugin's
/// folder, every definition disabled with a note; one bad entry leaves the others.
#[test]
fn golden_plugin_hooks() {
    for file in fixtures("plugins", "json") {
        let bytes = std::fs::read(&file).expect("read fixture");
        let result =
            crate::parse_plugin_hooks(&bytes, Path::new("/work/market/p/hooks/hooks.json"), None);
        if let Ok(parsed) = &result {
            assert!(parsed.definitions.iter().all(|d| !d.enabled));
            assert!(parsed.policy.switches.is_empty(), "settings keys are not read");
            let noted =
                parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("plugin_hooks"));
            assert_eq!(noted, !parsed.definitions.is_empty());
        }
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        expect_file![data_dir().join(format!("output/plugins/{stem}.txt"))]
            .assert_eq(&render(&result));
    }
}

/// The other files of a plugin's that hold hooks, each read with the folder it belongs to: a
/// plugin's manifest (`plugin-*`: its inline `hooks`; a path or a list of paths there holds
/// none, and no error; anything else, `true` or a list holding a number, is a warning where it
/// stands, not silence), a marketplace's manifest (`marketplace-*`: each entry's `hooks`, named
/// as that entry's, with its plugin's folder from its source, `metadata.pluginRoot` for a bare
/// one, and the variable kept for a source that is no path), and a hook file its manifest
/// names (`named-*`, at the plugin's root: the base, not the file's folder's folder).
#[test]
fn golden_plugin_files() {
    for file in fixtures("plugin_files", "json") {
        let bytes = std::fs::read(&file).expect("read fixture");
        let stem = file.file_stem().expect("stem").to_string_lossy().into_owned();
        let (path, base) = match stem.split('-').next() {
            Some("plugin") => ("/work/market/p/.claude-plugin/plugin.json", None),
            Some("marketplace") => ("/work/market/.claude-plugin/marketplace.json", None),
            _ => ("/work/market/p/gate.json", Some(Path::new("/work/market/p"))),
        };
        let result = crate::parse_plugin_hooks(&bytes, Path::new(path), base);
        let parsed = result.as_ref().expect("reads");
        assert!(parsed.definitions.iter().all(|d| !d.enabled));
        let ids: std::collections::BTreeSet<&str> =
            parsed.definitions.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids.len(), parsed.definitions.len(), "{stem}: every hook named once");
        assert!(!parsed.diagnostics.iter().any(|d| d.is_error() && stem.starts_with("plugin")));
        expect_file![data_dir().join(format!("output/plugin_files/{stem}.txt"))]
            .assert_eq(&render(&result));
    }
}

/// `$CLAUDE_PLUGIN_ROOT` is the plugin's folder only as a whole name: a longer name that
/// starts with it is another variable.
#[test]
fn the_plugin_root_variable_is_replaced_as_a_whole_name() {
    let cases = [
        ("$CLAUDE_PLUGIN_ROOT/x", "/p/x"),
        ("\"$CLAUDE_PLUGIN_ROOT\"/x", "\"/p\"/x"),
        ("$CLAUDE_PLUGIN_ROOT_2/x", "$CLAUDE_PLUGIN_ROOT_2/x"),
        ("$CLAUDE_PLUGIN_ROOTx $CLAUDE_PLUGIN_ROOT", "$CLAUDE_PLUGIN_ROOTx /p"),
        ("${CLAUDE_PLUGIN_ROOT}${CLAUDE_PLUGIN_ROOT}", "/p/p"),
        ("$$CLAUDE_PLUGIN_ROOT", "$/p"),
    ];
    for (script, expected) in cases {
        assert_eq!(super::plugin_root_in_shell(script, "/p"), expected, "{script}");
    }
}

proptest! {
    /// Any bytes as a plugin's hook file never panic, and what reads has every definition
    /// disabled.
    #[test]
    fn plugin_hooks_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(parsed) = crate::parse_plugin_hooks(&bytes, Path::new("/m/p/hooks/hooks.json"), None) {
            prop_assert!(parsed.definitions.iter().all(|d| !d.enabled));
        }
    }
}

fn fixture(dir: &str, name: &str, mode: ClaudeMode) -> ParseResult {
    let bytes = std::fs::read(data_dir().join(dir).join(name)).expect("read fixture");
    parse(&bytes, Path::new("/home/u/.claude/settings.json"), mode)
}

fn outcome(exit: ExitInfo) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out: false,
        stdout: Default::default(),
        stderr: Default::default(),
        result_file: None,
        duration: std::time::Duration::ZERO,
    }
}

/// Asserts that a strict fixture fails closed on exactly `events`, that each deny names the
/// problem, and that the deny happens before anything runs (encoding fails).
#[track_caller]
fn assert_fails_closed(name: &str, events: &[HookEvent], needle: &str) {
    let parsed = fixture("strict", name, ClaudeMode::Strict).expect("strict sources load");
    let got: Vec<HookEvent> = parsed.definitions.iter().map(|d| d.event).collect();
    assert_eq!(got, events, "fail-closed events of {name}");
    assert!(
        parsed.diagnostics.iter().any(|d| d.is_error() && d.message.contains(needle)),
        "{name}: no error mentions {needle:?}: {:#?}",
        parsed.diagnostics
    );
    assert!(parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("fail_closed")));
    let source = HookSourceId::new(
        crate::USER_SETTINGS,
        hooks_schema::AbsPathBuf::new(PathBuf::from("/home/u/.claude/settings.json")).expect("abs"),
    );
    let ctx = EncodeContext {
        source: &source,
        working_dir: Path::new("/work"),
        project_dir: None,
        config_dir: None,
        user_shell: None,
        agent_version: None,
        session_env: &[],
    };
    for def in &parsed.definitions {
        assert!(def.event.is_gated());
        assert_eq!(def.on_failure, OnFailure::Block);
        assert_eq!(def.mode, ExecutionMode::Blocking);
        let env = Envelope::new(def.event);
        let err = def.codec.encode(def, &env, &ctx).expect_err("a fail-closed hook never runs");
        let err = err.to_string();
        assert!(err.contains(needle), "{name}: reason {err:?} lacks {needle:?}");
        let failure = SpawnFailure { kind: SpawnFailureKind::EncodeFailed, message: err };
        let v = def.codec.decode(def, &env, &outcome(ExitInfo::NotStarted(failure)));
        assert_eq!(v.decision, Some(Decision::Deny));
        assert!(v.reason.as_deref().is_some_and(|r| r.contains(needle)));
    }
}

const ALL_GATED: [HookEvent; 5] = [
    HookEvent::PromptSubmit,
    HookEvent::PreToolUse,
    HookEvent::ApprovalRequested,
    HookEvent::SubagentStart,
    HookEvent::PreCompact,
];

#[test]
fn strict_rejects_missing_version() {
    assert_fails_closed(
        "missing-version.json",
        &[HookEvent::PreToolUse],
        "requires `hooks.version`",
    );
}

#[test]
fn strict_rejects_unknown_version_naming_the_supported_one() {
    // A contract of another version may mean anything: every gated event is denied.
    assert_fails_closed("version-2.json", &ALL_GATED, "supports version 1");
    assert_fails_closed(
        "version-string.json",
        &ALL_GATED,
        "unsupported hooks contract version <a string>",
    );
}

#[test]
fn strict_rejects_unknown_event_key_and_denies_every_gated_event() {
    assert_fails_closed("unknown-event.json", &ALL_GATED, "unknown key `PreToolUze`");
}

#[test]
fn strict_rejects_unknown_group_key() {
    assert_fails_closed(
        "unknown-key-group.json",
        &[HookEvent::PreToolUse],
        "unknown key `priority`",
    );
}

#[test]
fn strict_rejects_unknown_handler_key() {
    assert_fails_closed(
        "unknown-key-handler.json",
        &[HookEvent::PromptSubmit],
        "unknown key `retries`",
    );
}

#[test]
fn strict_rejects_credential_keys() {
    assert_fails_closed(
        "credential-apikey.json",
        &[HookEvent::PreToolUse],
        "credential-looking key `apiKey`",
    );
}

#[test]
fn strict_rejects_credential_keys_in_any_case_and_depth() {
    assert_fails_closed(
        "credential-nested.json",
        &[HookEvent::PreCompact],
        "credential-looking key `AUTHORIZATION`",
    );
    let parsed = fixture("strict", "credential-nested.json", ClaudeMode::Strict).expect("loads");
    assert!(parsed.diagnostics.iter().any(|d| d.message.contains("`Github_Token`")));
}

#[test]
fn strict_rejects_invalid_matcher() {
    assert_fails_closed(
        "invalid-matcher.json",
        &[HookEvent::PreToolUse],
        "not a valid regular expression",
    );
}

#[test]
fn strict_rejects_invalid_if_rule() {
    // The rule itself is not quoted in the reason (it may name what it looks for).
    assert_fails_closed("invalid-if.json", &[HookEvent::PreToolUse], "`if` rule <a string>");
}

#[test]
fn strict_rejects_invalid_json_and_denies_every_gated_event() {
    assert_fails_closed("invalid-json.json", &ALL_GATED, "invalid JSON");
}

#[test]
fn strict_rejects_non_object_hooks() {
    assert_fails_closed("hooks-not-object.json", &ALL_GATED, "`hooks` is a string, not an object");
}

#[test]
fn strict_rejects_unsupported_handler_type() {
    assert_fails_closed(
        "prompt-handler.json",
        &[HookEvent::ApprovalRequested],
        "handler type `prompt`",
    );
}

#[test]
fn strict_rejects_async_gates() {
    assert_fails_closed("async-gate.json", &[HookEvent::PreToolUse], "an async hook cannot gate");
}

#[test]
fn strict_rejects_a_timeout_that_is_not_positive() {
    assert_fails_closed("bad-timeout.json", &[HookEvent::SubagentStart], "timeout of 0 s");
}

#[test]
fn strict_rejects_duplicate_keys() {
    assert_fails_closed(
        "duplicate-key.json",
        &[HookEvent::PreToolUse],
        "duplicate key `PreToolUse`",
    );
}

#[test]
fn strict_violation_in_a_section_without_gated_events_runs_nothing() {
    let bytes = br#"{"hooks": {"version": 1, "Stop": [{"hooks": [{"type": "command", "command": "x", "colour": 1}]}]}}"#;
    let parsed = parse(bytes, Path::new("/s.json"), ClaudeMode::Strict).expect("loads");
    assert!(parsed.definitions.is_empty());
    let last = parsed.diagnostics.last().expect("summary");
    assert_eq!(last.code.as_deref(), Some("fail_closed"));
    assert!(last.message.contains("none of its hooks run"));
}

#[test]
fn strict_violations_win_over_disable_all_hooks() {
    // A valid strict source keeps its definitions and its setting: whether the setting
    // applies is decided across settings files by the registry.
    let parsed = fixture("strict", "disabled.json", ClaudeMode::Strict).expect("loads");
    assert_eq!(parsed.definitions.len(), 1);
    assert_eq!(parsed.settings.get("disableAllHooks"), Some(&Value::Bool(true)));
    let bytes = br#"{"disableAllHooks": true, "hooks": {"PreToolUse": []}}"#;
    let parsed = parse(bytes, Path::new("/s.json"), ClaudeMode::Strict).expect("loads");
    assert_eq!(
        parsed.definitions.len(),
        1,
        "a broken strict source fails closed even when disabled"
    );
    assert!(parsed.settings.is_empty(), "a source that fails closed has no say in the policy");
}

#[test]
fn strict_rejects_oversized_hooks_section() {
    let pad = "x".repeat(crate::STRICT_MAX_HOOKS_BYTES);
    let doc = json!({"hooks": {"version": 1, "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./deny.sh", "statusMessage": pad}]}
    ]}});
    let bytes = serde_json::to_vec(&doc).expect("encode");
    let parsed = parse(&bytes, Path::new("/s.json"), ClaudeMode::Strict).expect("loads");
    let events: Vec<HookEvent> = parsed.definitions.iter().map(|d| d.event).collect();
    assert_eq!(events, ALL_GATED);
    assert!(parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("too_large")));
    assert!(parsed.definitions.iter().all(|d| d.native.get("failClosed").is_some_and(|r| {
        r.as_str().is_some_and(|r| r.contains("above the strict contract's cap"))
    })));
    // The same document loads in default mode: the strict cap is the contract's.
    let parsed = parse(&bytes, Path::new("/s.json"), ClaudeMode::Default).expect("loads");
    assert_eq!(parsed.definitions.len(), 1);
}

#[test]
fn documents_above_the_cap_are_rejected_in_both_modes() {
    let bytes = vec![b' '; crate::MAX_DOCUMENT_BYTES + 1];
    let err = parse(&bytes, Path::new("/s.json"), ClaudeMode::Default).expect_err("too large");
    assert_eq!(err[0].code.as_deref(), Some("too_large"));
    let parsed = parse(&bytes, Path::new("/s.json"), ClaudeMode::Strict).expect("fails closed");
    assert_eq!(parsed.definitions.len(), ALL_GATED.len());
}

#[test]
fn strict_valid_source_loads_with_fail_closed_failure_policy() {
    let parsed = fixture("strict", "valid.json", ClaudeMode::Strict).expect("loads");
    assert!(parsed.diagnostics.iter().all(|d| !d.is_error()), "{:#?}", parsed.diagnostics);
    let pre = &parsed.definitions[0];
    assert_eq!(pre.event, HookEvent::PreToolUse);
    assert_eq!(pre.on_failure, OnFailure::Block);
    assert_eq!(
        pre.command,
        HookCommand::Exec {
            program: "/usr/local/bin/deny-rm".into(),
            args: vec!["--mode".into(), "strict".into()]
        }
    );
    assert_eq!(pre.native.get("strict"), Some(&Value::Bool(true)));
}

#[test]
fn strict_source_without_hooks_is_empty() {
    let parsed = fixture("strict", "no-hooks.json", ClaudeMode::Strict).expect("loads");
    assert!(parsed.definitions.is_empty());
    assert!(parsed.diagnostics.is_empty());
}

#[test]
fn default_mode_rejects_unreadable_documents() {
    for name in ["invalid-json.json", "hooks-not-object.json", "root-array.json", "version-2.json"]
    {
        let err = fixture("default", name, ClaudeMode::Default).expect_err(name);
        assert!(err.iter().all(|d| d.line.is_some() && d.column.is_some()), "{name}: {err:?}");
    }
}

#[test]
fn syntax_errors_point_at_the_offending_character() {
    let err = fixture("default", "invalid-json.json", ClaudeMode::Default).expect_err("syntax");
    assert_eq!((err[0].line, err[0].column), (Some(4), Some(26)));
}

#[test]
fn disable_all_hooks_is_a_setting_and_keeps_the_definitions() {
    let parsed = fixture("default", "disabled.json", ClaudeMode::Default).expect("loads");
    assert_eq!(parsed.definitions.len(), 1);
    assert_eq!(parsed.settings.get("disableAllHooks"), Some(&Value::Bool(true)));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn allow_managed_hooks_only_is_a_setting_and_must_be_a_boolean() {
    let bytes = br#"{"allowManagedHooksOnly": true, "disableAllHooks": false}"#;
    let parsed = parse(bytes, Path::new("/m.json"), ClaudeMode::Default).expect("loads");
    assert_eq!(parsed.settings.get("allowManagedHooksOnly"), Some(&Value::Bool(true)));
    assert_eq!(parsed.settings.get("disableAllHooks"), Some(&Value::Bool(false)));
    // Claude Code 2.1.x skips a file whose `allowManagedHooksOnly` or `disableAllHooks` is not
    // a boolean whole, hooks included ("allowManagedHooksOnly: Expected boolean, but
    // received string").
    for key in ["allowManagedHooksOnly", "disableAllHooks"] {
        let doc = json!({key: "yes", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}});
        let diagnostics =
            parse(doc.to_string().as_bytes(), Path::new("/m.json"), ClaudeMode::Default)
                .expect_err("the file is skipped");
        let d = diagnostics.first().expect("wrong type");
        assert_eq!(d.code.as_deref(), Some("invalid_value"));
        assert!(d.message.contains(key), "{}", d.message);
        assert!(
            diagnostics.iter().any(|d| d.code.as_deref() == Some("file_skipped")),
            "{diagnostics:?}"
        );
    }
}

/// `agent` (the subagent the main thread runs as, whose front matter's hooks then run for
/// the whole session) is a setting and picks that name; an empty name picks none. Checked
/// with the real CLI 2.1.328: a local settings file with `"agent": 5` or `"agent": null` is
/// skipped whole (its own `SessionStart` hook did not run, the project's `agent` held), one
/// with `"agent": ""` is read and picks no subagent.
#[test]
fn agent_is_a_setting_that_picks_a_subagent_and_must_be_a_string() {
    let bytes = br#"{"agent": "gate"}"#;
    let parsed =
        parse(bytes, Path::new("/p/.claude/settings.json"), ClaudeMode::Default).expect("loads");
    assert_eq!(parsed.settings.get("agent"), Some(&json!("gate")));
    let pick = parsed.policy.picks.expect("picks");
    assert_eq!((pick.key, pick.name.as_str()), ("agent", "gate"));
    assert_eq!(parsed.policy.picked_as, None);
    let parsed =
        parse(br#"{"agent": ""}"#, Path::new("/s.json"), ClaudeMode::Default).expect("loads");
    assert_eq!(parsed.policy.picks.map(|p| p.name), Some(String::new()), "picks none");
    for wrong in [json!(5), Value::Null, json!(["gate"]), json!({"name": "gate"})] {
        let doc = json!({"agent": wrong, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}});
        for mode in [ClaudeMode::Default, ClaudeMode::Strict] {
            let result = parse(doc.to_string().as_bytes(), Path::new("/s.json"), mode);
            match (mode, result) {
                (ClaudeMode::Default, Err(diagnostics)) => {
                    let d = diagnostics.first().expect("wrong type");
                    assert_eq!(d.code.as_deref(), Some("invalid_value"), "{wrong}");
                    assert!(d.message.contains("`agent` must be a string"), "{}", d.message);
                    assert!(
                        diagnostics.iter().any(|d| d.code.as_deref() == Some("file_skipped")),
                        "{diagnostics:?}"
                    );
                }
                (ClaudeMode::Strict, Ok(parsed)) => {
                    // Fails closed: its hooks deny, and it picks nothing.
                    assert_eq!(parsed.policy.picks, None, "{wrong}");
                    assert!(
                        parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("fail_closed")),
                        "{wrong}: {:?}",
                        parsed.diagnostics
                    );
                }
                (mode, other) => panic!("{wrong} in {mode:?}: {other:?}"),
            }
        }
    }
}

/// What Claude Code 2.1.328 does with a settings file that fails validation, probed with the
/// real CLI (`specs/formats/claude.md`, "Checked against the real CLI"): an invalid
/// `PreToolUse` or `PermissionRequest` entry skips the whole file; an invalid entry of another
/// event is skipped alone; unknown keys and events, regexes that do not compile and `if` rules
/// that do not parse never skip the file.
#[test]
fn an_invalid_gate_entry_skips_the_whole_file_as_claude_code_does() {
    let ok_stop = json!([{"hooks": [{"type": "command", "command": "./stop.sh"}]}]);
    let pre = |handler: Value| json!([{"matcher": "Bash", "hooks": [handler]}]);
    let h = |extra: Value| {
        let mut v = json!({"type": "command", "command": "./gate.sh"});
        v.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
        v
    };
    let skipped = [
        ("PreToolUse", pre(h(json!({"timeout": "abc"})))),
        ("PreToolUse", pre(h(json!({"timeout": -5})))),
        ("PreToolUse", pre(h(json!({"shell": "zsh"})))),
        ("PreToolUse", pre(h(json!({"onFailure": "bogus"})))),
        ("PreToolUse", pre(h(json!({"async": "yes"})))),
        ("PreToolUse", pre(h(json!({"args": [1]})))),
        ("PreToolUse", pre(json!({"type": "bogus", "command": "x"}))),
        ("PreToolUse", pre(json!({"type": "command"}))),
        ("PreToolUse", json!([{"matcher": {"type": "always"}, "hooks": []}])),
        ("PreToolUse", json!([{"matcher": "Bash"}])),
        ("PreToolUse", json!([5])),
        ("PreToolUse", json!(5)),
        ("PermissionRequest", pre(h(json!({"timeout": "x"})))),
    ];
    for (event, entry) in skipped {
        let doc = json!({"hooks": {event: entry, "Stop": ok_stop}});
        let result = parse(
            doc.to_string().as_bytes(),
            Path::new("/p/.claude/settings.json"),
            ClaudeMode::Default,
        );
        let diagnostics = result.expect_err(&format!("{doc} skips the file"));
        let summary = diagnostics
            .iter()
            .find(|d| d.code.as_deref() == Some("file_skipped"))
            .unwrap_or_else(|| panic!("{doc}: {diagnostics:?}"));
        assert!(summary.message.contains(event), "{}", summary.message);
        assert!(summary.line.is_some(), "{summary:?}");
    }
    let kept = [
        ("Stop", json!(5)),
        ("Stop", json!([{"matcher": {}, "hooks": []}])),
        ("UserPromptSubmit", json!([{"hooks": [h(json!({"timeout": "x"}))]}])),
        ("PreCompact", json!([{"hooks": [h(json!({"timeout": "x"}))]}])),
        ("PostToolUse", json!([{"hooks": [h(json!({"timeout": "x"}))]}])),
        ("PreToolUse", json!([{"matcher": "Bash|(", "hooks": [h(json!({}))]}])),
        ("PreToolUse", pre(h(json!({"if": "Bash(("})))),
        ("PreToolUse", pre(h(json!({"fooBar": 1})))),
        ("PreToolUse", json!([{"matcher": "Bash", "fooBar": 1, "hooks": [h(json!({}))]}])),
        ("PreToolUsee", pre(h(json!({})))),
        ("PermissionDenied", json!([{"hooks": [h(json!({"timeout": "x"}))]}])),
    ];
    for (event, entry) in kept {
        let doc = json!({"fooBar": 1, "hooks": {event: entry, "Stop": ok_stop}});
        let parsed = parse(
            doc.to_string().as_bytes(),
            Path::new("/p/.claude/settings.json"),
            ClaudeMode::Default,
        )
        .unwrap_or_else(|d| panic!("{doc} loads: {d:?}"));
        assert!(
            parsed.definitions.iter().any(|d| d.native_event == "Stop" && format!("{:?}", d.command).contains("stop.sh")),
            "{doc}: {:?}",
            parsed.definitions
        );
    }
}

#[test]
fn every_mapped_event_loads_and_gaps_are_reported() {
    let parsed = fixture("default", "all-events.json", ClaudeMode::Default).expect("loads");
    let natives: Vec<&str> = parsed.definitions.iter().map(|d| d.native_event.as_str()).collect();
    assert_eq!(natives.len(), crate::NativeEvent::ALL.len());
    for n in crate::NativeEvent::ALL {
        assert!(natives.contains(&n.as_str()), "{n:?} missing");
    }
    let gaps: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.code.as_deref() == Some("capability_gap")).collect();
    assert_eq!(gaps.len(), 2);
    assert!(gaps.iter().all(|d| d.severity == hooks_schema::Severity::Warning));
    assert!(parsed.diagnostics.iter().any(|d| d.code.as_deref() == Some("unknown_event")));
}

#[test]
fn gap_event_names_are_never_mapped() {
    for name in crate::GAP_EVENTS {
        let doc = json!({"hooks": {name: [{"hooks": [{"type": "command", "command": "x"}]}]}});
        let bytes = serde_json::to_vec(&doc).expect("encode");
        let parsed = parse(&bytes, Path::new("/s.json"), ClaudeMode::Default).expect("loads");
        assert!(parsed.definitions.is_empty(), "{name}");
        assert_eq!(parsed.diagnostics.len(), 1, "{name}");
        assert_eq!(parsed.diagnostics[0].code.as_deref(), Some("capability_gap"));
    }
}

#[test]
fn user_prompt_submit_defaults_to_thirty_seconds() {
    let parsed = fixture("default", "all-events.json", ClaudeMode::Default).expect("loads");
    for d in &parsed.definitions {
        let want = if d.native_event == "UserPromptSubmit" { 30 } else { 600 };
        assert_eq!(d.timeout.as_secs(), want, "{}", d.id);
    }
}

#[test]
fn invalid_matcher_is_an_error_for_its_group_only() {
    let parsed = fixture("default", "matchers.json", ClaudeMode::Default).expect("loads");
    let bad: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code.as_deref() == Some("invalid_matcher"))
        .collect();
    assert_eq!(bad.len(), 1);
    assert!(bad[0].is_error());
    assert!(
        !parsed
            .definitions
            .iter()
            .any(|d| d.command == HookCommand::Shell { script: "invalid".into(), shell: None })
    );
    assert_eq!(parsed.definitions.len(), 9);
}

// ---- properties ----

fn arb_key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("hooks".to_owned()),
        Just("version".to_owned()),
        Just("PreToolUse".to_owned()),
        Just("UserPromptSubmit".to_owned()),
        Just("SessionStart".to_owned()),
        Just("PostToolBatch".to_owned()),
        Just("matcher".to_owned()),
        Just("type".to_owned()),
        Just("command".to_owned()),
        Just("args".to_owned()),
        Just("timeout".to_owned()),
        Just("async".to_owned()),
        Just("onFailure".to_owned()),
        Just("if".to_owned()),
        Just("disableAllHooks".to_owned()),
        "[a-zA-Z_]{0,8}",
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1000.0f64..1000.0).prop_map(Value::from),
        prop_oneof![
            Just("command".to_owned()),
            Just("block".to_owned()),
            Just("Bash|Write".to_owned()),
            Just("(".to_owned()),
            Just("Bash(rm *)".to_owned()),
            ".{0,12}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((arb_key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_json_never_panics(v in arb_json()) {
        let bytes = serde_json::to_vec(&v).expect("encode");
        for mode in [ClaudeMode::Default, ClaudeMode::Strict] {
            let result = parse(&bytes, Path::new("/s.json"), mode);
            let diags = match &result { Ok(p) => &p.diagnostics, Err(d) => d };
            for d in diags {
                prop_assert!(d.line.is_some() && d.column.is_some(), "{d:?}");
            }
            if let Ok(p) = &result {
                for d in &p.definitions {
                    prop_assert!(d.timeout > std::time::Duration::ZERO);
                }
            }
            let _ = crate::inventory(&bytes, Path::new("/s.json"), mode, crate::Reveal::Yes);
        }
    }

    #[test]
    fn arbitrary_json_under_hooks_never_panics(v in arb_json()) {
        let bytes = serde_json::to_vec(&json!({"hooks": v})).expect("encode");
        for mode in [ClaudeMode::Default, ClaudeMode::Strict] {
            let result = parse(&bytes, Path::new("/s.json"), mode);
            if mode == ClaudeMode::Strict && let Ok(p) = &result {
                // A strict source either loads cleanly or fails closed: never half-loads.
                let failed = p.diagnostics.iter().any(|d| d.code.as_deref() == Some("fail_closed"));
                let errors = p.diagnostics.iter().any(|d| d.is_error());
                prop_assert_eq!(failed, errors);
                // Every strict definition is spawned directly, never through a shell.
                let direct = p.definitions.iter().all(|d| matches!(d.command, HookCommand::Exec { .. }));
                prop_assert!(direct, "a strict definition names a shell");
            }
        }
    }

    /// A strict command is split into argv only when every word is plain; any shell syntax
    /// makes the source fail closed instead of running.
    #[test]
    fn a_strict_command_runs_directly_or_fails_closed(command in "[a-z./${}A-Z_|;&<>()'\"`*?~= \t-]{0,24}") {
        let doc = json!({"hooks": {"version": 1, "PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}});
        let parsed = parse(doc.to_string().as_bytes(), Path::new("/s.json"), ClaudeMode::Strict).expect("strict parses");
        let plain = |w: &str| w.replace("${CLAUDE_PROJECT_DIR}", "").chars().all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
        let words: Vec<&str> = command.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
        let direct = !words.is_empty() && words.iter().all(|w| plain(w)) && !words[0].contains('=');
        let def = parsed.definitions.first().expect("a definition");
        if direct {
            prop_assert_eq!(
                &def.command,
                &HookCommand::Exec { program: words[0].to_owned(), args: words[1..].iter().map(|w| (*w).to_owned()).collect() }
            );
        } else {
            prop_assert!(def.id.as_str().ends_with("[fail-closed]"), "{command:?}: {def:?}");
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse(&bytes, Path::new("/s.json"), ClaudeMode::Default);
        let _ = parse(&bytes, Path::new("/s.json"), ClaudeMode::Strict);
    }
}

/// One command handler on `PreToolUse` with this `timeout` (JSON text), parsed in default mode.
fn with_timeout(timeout: &str) -> hooks_schema::ParsedSource {
    let doc = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "./gate.sh", "timeout": {timeout}}}]}}]}}}}"#
    );
    parse(doc.as_bytes(), Path::new("/s.json"), ClaudeMode::Default).expect("loads")
}

#[test]
fn timeouts_have_no_engine_ceiling_and_stop_where_claude_codes_timer_does() {
    use std::time::Duration;
    for (written, want) in [
        ("601", Duration::from_secs(601)),
        ("1200", Duration::from_secs(1200)),
        ("3600", Duration::from_secs(3600)),
        ("86400", Duration::from_secs(86_400)),
        ("0.25", Duration::from_millis(250)),
        // Claude Code clamps the timer at 2^31-1 ms.
        ("2147483.647", Duration::from_millis(2_147_483_647)),
        ("3000000", Duration::from_millis(2_147_483_647)),
        ("1e300", Duration::from_millis(2_147_483_647)),
    ] {
        let parsed = with_timeout(written);
        assert_eq!(parsed.definitions.len(), 1, "{written}: {:?}", parsed.diagnostics);
        assert_eq!(parsed.definitions[0].timeout, want, "{written}");
        assert!(parsed.diagnostics.iter().all(|d| !d.is_error()), "{written}");
    }
    for refused in ["0", "-1", "\"5\""] {
        // Claude Code's schema refuses it, and on `PreToolUse` that skips the whole file.
        let doc = format!(
            r#"{{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "./gate.sh", "timeout": {refused}}}]}}]}}}}"#
        );
        assert!(
            parse(doc.as_bytes(), Path::new("/s.json"), ClaudeMode::Default).is_err(),
            "{refused}"
        );
    }
}

#[test]
fn a_timeout_of_a_thousand_seconds_or_more_hints_at_milliseconds_and_still_runs() {
    let hint = |parsed: &hooks_schema::ParsedSource| {
        parsed
            .diagnostics
            .iter()
            .filter(|d| d.code.as_deref() == Some("timeout_milliseconds"))
            .map(|d| (d.severity, d.message.clone(), d.line))
            .collect::<Vec<_>>()
    };
    assert!(hint(&with_timeout("999")).is_empty());
    let parsed = with_timeout("5000");
    assert_eq!(parsed.definitions[0].timeout, std::time::Duration::from_secs(5000));
    assert_eq!(
        hint(&parsed),
        [(
            hooks_schema::Severity::Warning,
            "Claude Code reads seconds: this hook may run for 83 minutes; did you mean milliseconds?"
                .to_owned(),
            Some(1)
        )]
    );
    assert_eq!(hint(&with_timeout("1000")).len(), 1);
    // Strict mode takes the hint as a hint, not a violation.
    let doc = r#"{"hooks": {"version": 1, "PreToolUse": [{"hooks": [{"type": "command", "command": "./gate.sh", "timeout": 30000}]}]}}"#;
    let strict = parse(doc.as_bytes(), Path::new("/s.json"), ClaudeMode::Strict).expect("loads");
    assert_eq!(strict.definitions.len(), 1, "{:?}", strict.diagnostics);
    assert!(strict.diagnostics.iter().all(|d| !d.is_error()), "{:?}", strict.diagnostics);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any positive JSON number is a timeout Claude Code runs, up to its timer's maximum.
    #[test]
    fn any_positive_timeout_loads_within_the_timer_maximum(secs in 1e-300f64..1e300) {
        let parsed = with_timeout(&format!("{secs:e}"));
        prop_assert_eq!(parsed.definitions.len(), 1);
        let t = parsed.definitions[0].timeout;
        prop_assert!(t <= crate::parse::CLAUDE_TIMER_MAX);
        prop_assert!(t > std::time::Duration::ZERO);
    }
}
