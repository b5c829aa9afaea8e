//! Claude Code's `disableAllHooks` and `allowManagedHooksOnly` across sources: which bindings
//! run where, what `hooks list` says, and that a settings edit republishes.

use std::path::Path;

use hooks_schema::{
    FormatId, HookDiagnostic, HookSourceId, HookSourceKind as K, ParseResult, ParsedSource,
    PolicySwitch, Severity, SourcePolicy, SwitchRule,
};
use serde_json::{Value, json};

use super::p;
use crate::{
    HookRegistry, RegistrySnapshot,
    test_support::{abs, active, defs, inert, names, ok, sid, update},
};

/// A parse with `definitions` named `hooks`, the top-level `settings` and the policy Claude
/// Code's adapter types from them (`disableAllHooks: v` is a hooks switch `on: !v`,
/// `allowManagedHooksOnly: v` a managed-only switch `on: v`; a value that is not a boolean is
/// no switch).
fn settings(hooks: &[&str], settings: Value) -> ParseResult {
    let Value::Object(settings) = settings else { return ok(defs(hooks)) };
    let mut switches = Vec::new();
    if let Some(v) = settings.get("disableAllHooks").and_then(Value::as_bool) {
        switches.push(PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: !v });
    }
    if let Some(v) = settings.get("allowManagedHooksOnly").and_then(Value::as_bool) {
        switches.push(PolicySwitch {
            key: "allowManagedHooksOnly",
            rule: SwitchRule::ManagedOnly,
            on: v,
        });
    }
    let policy = SourcePolicy { switches, ..SourcePolicy::default() };
    Ok(ParsedSource { definitions: defs(hooks), settings, policy, ..ParsedSource::default() })
}

fn notes(snap: &RegistrySnapshot, id: &HookSourceId) -> Vec<String> {
    snap.source(id)
        .map(|v| {
            v.diagnostics
                .iter()
                .filter(|d| d.code.as_deref() == Some("hooks_disabled"))
                .map(|d: &HookDiagnostic| d.message.clone())
                .collect()
        })
        .unwrap_or_default()
}

struct World {
    r: HookRegistry,
    managed: HookSourceId,
    user: HookSourceId,
    user_cursor: HookSourceId,
    project: HookSourceId,
    other_project: HookSourceId,
}

/// A managed file (`m`), the user's Claude settings (`u`) and Cursor file (`uc`), a project
/// `repo` with Claude settings (`pr`) and a project `other` with Claude settings (`o`).
fn world(user_settings: Value, project_settings: Value) -> World {
    let mut r = HookRegistry::new();
    let managed =
        sid(hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS, p("etc/managed-settings.json"));
    let user = sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, p("home/.claude/settings.json"));
    let user_cursor = sid(hooks_testing::kinds::USER_CURSOR_FILE, p("home/.cursor/hooks.json"));
    let project =
        sid(hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, p("repo/.claude/settings.json"));
    let other_project =
        sid(hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, p("other/.claude/settings.json"));
    r.upsert_source(update(&managed, settings(&["m"], json!({})), None, active()));
    r.upsert_source(update(&user, settings(&["u"], user_settings), None, active()));
    r.upsert_source(update(&user_cursor, ok(defs(&["uc"])), None, active()));
    r.upsert_source(update(
        &project,
        settings(&["pr"], project_settings),
        Some(&abs(p("repo"))),
        active(),
    ));
    r.upsert_source(update(
        &other_project,
        settings(&["o"], json!({})),
        Some(&abs(p("other"))),
        active(),
    ));
    World { r, managed, user, user_cursor, project, other_project }
}

fn at(snap: &RegistrySnapshot, rel: &str) -> Vec<String> {
    names(&snap.bindings_for(Path::new(&p(rel))))
}

#[test]
fn without_the_settings_everything_runs() {
    let w = world(json!({}), json!({}));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo"), ["m", "pr", "uc", "u"]);
    assert_eq!(at(&snap, "elsewhere"), ["m", "uc", "u"]);
    assert!(notes(&snap, &w.user).is_empty());
}

#[test]
fn a_user_disable_switches_off_user_and_project_claude_hooks_but_not_managed_or_cursor_ones() {
    let w = world(json!({"disableAllHooks": true}), json!({}));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo/src"), ["m", "uc"]);
    assert_eq!(at(&snap, "other"), ["m", "uc"]);
    assert_eq!(at(&snap, "elsewhere"), ["m", "uc"]);
    assert_eq!(snap.global_bindings().len(), 2);
    let reason = format!("disabled by disableAllHooks in {}", p("home/.claude/settings.json"));
    for id in [&w.user, &w.project, &w.other_project] {
        let view = snap.source(id).expect("listed");
        assert!(!view.runs, "{id}");
        assert_eq!(notes(&snap, id), std::slice::from_ref(&reason), "{id}");
    }
    assert!(snap.source(&w.managed).expect("listed").runs);
    assert!(snap.source(&w.user_cursor).expect("listed").runs);
    assert!(notes(&snap, &w.managed).is_empty());
    assert!(!snap.is_empty());
}

#[test]
fn a_project_false_overrides_a_user_true_under_its_own_root_only() {
    let w = world(json!({"disableAllHooks": true}), json!({"disableAllHooks": false}));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo/src"), ["m", "pr", "uc", "u"]);
    assert_eq!(at(&snap, "other"), ["m", "uc"]);
    assert_eq!(at(&snap, "elsewhere"), ["m", "uc"]);
    assert_eq!(names(&snap.global_bindings()), ["m", "uc"]);
    // The user's file runs somewhere, and says where it does not.
    let user = snap.source(&w.user).expect("listed");
    assert!(user.runs);
    let reason = format!("disabled by disableAllHooks in {}", p("home/.claude/settings.json"));
    assert_eq!(
        notes(&snap, &w.user),
        [
            format!("outside project roots: {reason}"),
            format!("under project root {}: {reason}", p("other")),
        ]
    );
    assert!(snap.source(&w.project).expect("listed").runs);
    assert!(notes(&snap, &w.project).is_empty());
    // Every binding that runs somewhere is counted once.
    assert_eq!(names(&snap.bindings()), ["m", "uc", "u", "pr"]);
}

#[test]
fn a_managed_disable_switches_off_every_claude_hook_and_names_the_managed_file() {
    let mut w = world(json!({"disableAllHooks": false}), json!({"disableAllHooks": false}));
    w.r.upsert_source(update(
        &w.managed,
        settings(&["m"], json!({"disableAllHooks": true})),
        None,
        active(),
    ));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo"), ["uc"]);
    assert_eq!(at(&snap, "elsewhere"), ["uc"]);
    let reason = format!("disabled by disableAllHooks in {}", p("etc/managed-settings.json"));
    assert_eq!(notes(&snap, &w.managed), std::slice::from_ref(&reason));
    assert_eq!(notes(&snap, &w.project), [reason]);
    assert!(!snap.source(&w.managed).expect("listed").runs);
}

#[test]
fn allow_managed_hooks_only_keeps_managed_hooks_and_is_ignored_outside_managed_files() {
    let mut w = world(json!({"allowManagedHooksOnly": true}), json!({}));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo"), ["m", "pr", "uc", "u"], "a user file cannot set it");
    let user = snap.source(&w.user).expect("listed");
    assert!(user.diagnostics.iter().any(|d| d.severity == Severity::Warning
        && d.code.as_deref() == Some("managed_only_setting")
        && d.message.contains("allowManagedHooksOnly")));

    let fragment = sid(
        hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
        p("etc/managed-settings.d/50-only.json"),
    );
    w.r.upsert_source(update(
        &fragment,
        settings(&["f"], json!({"allowManagedHooksOnly": true})),
        None,
        active(),
    ));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "repo"), ["m", "f", "uc"]);
    let reason = format!(
        "disabled by allowManagedHooksOnly in {}",
        p("etc/managed-settings.d/50-only.json")
    );
    assert_eq!(notes(&snap, &w.project), std::slice::from_ref(&reason));
    assert_eq!(notes(&snap, &w.user), [reason]);
    assert!(
        snap.source(&fragment)
            .expect("listed")
            .diagnostics
            .iter()
            .all(|d| d.code.as_deref() != Some("managed_only_setting"))
    );
}

#[test]
fn a_settings_edit_republishes_with_a_new_revision() {
    let mut w = world(json!({"disableAllHooks": true}), json!({}));
    let before = w.r.revision();
    assert_eq!(at(&w.r.snapshot(), "repo"), ["m", "uc"]);
    // Same definitions, the setting flipped: what runs changes, so the revision moves.
    let after = w.r.upsert_source(update(
        &w.user,
        settings(&["u"], json!({"disableAllHooks": false})),
        None,
        active(),
    ));
    assert!(after > before);
    assert_eq!(at(&w.r.snapshot(), "repo"), ["m", "pr", "uc", "u"]);
    assert!(notes(&w.r.snapshot(), &w.user).is_empty());
    // And back.
    let again = w.r.upsert_source(update(
        &w.user,
        settings(&["u"], json!({"disableAllHooks": true})),
        None,
        active(),
    ));
    assert!(again > after);
    assert_eq!(at(&w.r.snapshot(), "repo"), ["m", "uc"]);
}

#[test]
fn an_inert_source_has_no_say() {
    let mut w = world(json!({"disableAllHooks": true}), json!({}));
    w.r.upsert_source(update(
        &w.project,
        settings(&["pr"], json!({"disableAllHooks": false})),
        Some(&abs(p("repo"))),
        inert(),
    ));
    let snap = w.r.snapshot();
    assert_eq!(
        at(&snap, "repo"),
        ["m", "uc"],
        "an untrusted project cannot turn the user's hooks back on"
    );
    // Nor can an inert user file switch anything off.
    w.r.set_trust(&w.user, inert());
    assert_eq!(at(&w.r.snapshot(), "elsewhere"), ["m", "uc"]);
    assert!(notes(&w.r.snapshot(), &w.user).is_empty(), "an inert source is reported as inert");
}

#[test]
fn an_explicit_claude_source_is_the_command_lines_settings() {
    let mut w = world(json!({}), json!({"disableAllHooks": true}));
    // Explicit sources carry their file's format (hooks-sources reads them in one).
    let run = sid(K::RUN_DELIVERED.in_format(FormatId::new("claude")), p("run/settings.json"));
    w.r.upsert_source(update(
        &run,
        settings(&[], json!({"disableAllHooks": false})),
        None,
        active(),
    ));
    assert_eq!(
        at(&w.r.snapshot(), "repo"),
        ["m", "pr", "uc", "u"],
        "explicit false over project true"
    );
    w.r.upsert_source(update(
        &run,
        settings(&[], json!({"disableAllHooks": true})),
        None,
        active(),
    ));
    let snap = w.r.snapshot();
    assert_eq!(at(&snap, "elsewhere"), ["m", "uc"]);
    assert_eq!(
        notes(&snap, &w.user),
        [format!("disabled by disableAllHooks in {}", p("run/settings.json"))]
    );
}
