//! Tests for loading explicit and user sources into the registry.

use std::{fs, path::Path};

use hooks_registry::{HookRegistry, LoadStateKind};
use hooks_schema::{HookSourceId, HookSourceKind};
use hooks_trust::{
    CommandExecutionPosture, DenyAllTrustPolicy, StaticTrustPolicy, Surface, TrustInputs,
};

use hooks_schema::{ExplicitScope, FormatSet};
use hooks_testing::ids::{CLAUDE, CURSOR};

use crate::{
    ExplicitHookSource, ManagedDirs, UserDirs, load_explicit_sources, load_managed_sources,
    load_user_sources, sources_for_hook_dirs,
};

fn f() -> FormatSet {
    hooks_testing::workspace_formats()
}

const VALID: &str = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./check.sh"}], "afterFileEdit": [{"command": "./fmt.sh"}]}}"#;

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn run_delivered(path: &Path) -> ExplicitHookSource {
    ExplicitHookSource::new(ExplicitScope::RunDelivered, path, CURSOR)
}

fn id(kind: HookSourceKind, path: &Path) -> HookSourceId {
    HookSourceId::new(kind, hooks_registry::canonicalize(path).unwrap())
}

#[test]
fn a_valid_file_loads_active_without_the_trust_policy_and_returns_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("run/hooks.json");
    write(&file, VALID);
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(errors.is_empty(), "{errors:#?}");
    let snap = registry.snapshot();
    let view = snap.source(&id(HookSourceKind::RUN_DELIVERED.in_format(CURSOR), &file)).unwrap();
    assert_eq!(view.load_state, LoadStateKind::Loaded);
    assert!(view.runs);
    assert!(view.trust.is_active());
    assert!(view.trust.reason().contains("named explicitly"), "{}", view.trust.reason());
    assert_eq!(snap.bindings().len(), 2);
}

#[test]
fn a_missing_file_is_a_returned_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("absent/hooks.json");
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(!errors.is_empty());
    assert!(errors.iter().all(|d| d.is_error()));
    assert!(
        errors.iter().any(|d| d.message.contains("does not exist")
            && d.message.contains(&file.display().to_string())),
        "{errors:#?}"
    );
    assert!(registry.snapshot().bindings().is_empty());
}

#[test]
fn a_hook_dir_without_a_hook_file_is_a_returned_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("empty");
    fs::create_dir(&dir).unwrap();
    let sources =
        sources_for_hook_dirs(&f(), std::slice::from_ref(&dir), ExplicitScope::RunDelivered);
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &sources, false, &mut registry);
    assert!(errors.iter().any(|d| d.message.contains("does not exist")), "{errors:#?}");
}

#[test]
fn a_directory_where_the_file_should_be_is_a_returned_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    fs::create_dir(&file).unwrap();
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(errors.iter().any(|d| d.message.contains("is a directory")), "{errors:#?}");
}

#[test]
fn a_file_that_does_not_parse_is_a_returned_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    write(&file, "{ \"version\": 1, \"hooks\": ");
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(errors.len() >= 2, "the adapter's error and the load failure: {errors:#?}");
    assert!(errors.iter().all(|d| d.is_error()));
    assert!(errors.iter().any(|d| d.code.as_deref() == Some("load_failed")), "{errors:#?}");
    let view_state = registry
        .snapshot()
        .source(&id(HookSourceKind::RUN_DELIVERED.in_format(CURSOR), &file))
        .map(|v| v.load_state);
    assert_eq!(view_state, Some(LoadStateKind::Failed));
}

#[test]
fn a_rejected_definition_is_a_returned_error_and_the_rest_loads() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    write(
        &file,
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./slow.sh", "timeout": 0}, {"command": "./ok.sh"}]}}"#,
    );
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].message.contains("timeout"), "{errors:#?}");
    assert_eq!(registry.snapshot().bindings().len(), 1);
}

#[test]
fn a_load_after_the_run_was_pinned_is_a_returned_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    write(&file, VALID);
    let mut registry = HookRegistry::new();
    registry.pin(CommandExecutionPosture::AutoApproves);
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(
        errors.iter().any(|d| d.message == "explicit sources must be loaded before the run starts"),
        "{errors:#?}"
    );
    assert!(registry.snapshot().bindings().is_empty());
}

#[test]
fn a_valid_file_with_warnings_returns_no_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    write(
        &file,
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./a.sh"}], "notAnEvent": [{"command": "./b.sh"}]}}"#,
    );
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &[run_delivered(&file)], false, &mut registry);
    assert!(errors.is_empty(), "{errors:#?}");
    let snap = registry.snapshot();
    let view = snap.source(&id(HookSourceKind::RUN_DELIVERED.in_format(CURSOR), &file)).unwrap();
    assert!(
        view.diagnostics.iter().any(|d| !d.is_error() && d.message.contains("notAnEvent")),
        "the warning stays in the snapshot: {:#?}",
        view.diagnostics
    );
}

#[cfg(unix)]
#[test]
fn a_directory_named_twice_through_a_symlink_loads_once() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    write(&real.join("hooks.json"), VALID);
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let sources =
        sources_for_hook_dirs(&f(), &[real.clone(), link.clone()], ExplicitScope::RunDelivered);
    assert_eq!(sources.len(), 2);
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &sources, false, &mut registry);
    assert!(errors.is_empty(), "{errors:#?}");
    let snap = registry.snapshot();
    assert_eq!(snap.sources().len(), 1);
    assert_eq!(snap.bindings().len(), 2, "each definition once");
}

#[test]
fn one_file_under_two_scopes_loads_once_under_the_higher_precedence() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    write(&file, VALID);
    let sources =
        [run_delivered(&file), ExplicitHookSource::new(ExplicitScope::FactoryAgent, &file, CURSOR)];
    let mut registry = HookRegistry::new();
    assert!(load_explicit_sources(&f(), &sources, false, &mut registry).is_empty());
    let snap = registry.snapshot();
    let kinds: Vec<HookSourceKind> = snap.sources().iter().map(|v| v.id.kind).collect();
    assert_eq!(kinds, [HookSourceKind::FACTORY_AGENT.in_format(CURSOR)]);
    assert_eq!(snap.bindings().len(), 2);
}

#[test]
fn explicit_sources_run_in_priority_order() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a/hooks.json");
    let b = tmp.path().join("b/hooks.json");
    write(&a, r#"{"version": 1, "hooks": {"stop": [{"command": "./a.sh"}]}}"#);
    write(&b, r#"{"version": 1, "hooks": {"stop": [{"command": "./b.sh"}]}}"#);
    let sources =
        [run_delivered(&a), ExplicitHookSource::new(ExplicitScope::FactoryWide, &b, CURSOR)];
    let mut registry = HookRegistry::new();
    assert!(load_explicit_sources(&f(), &sources, false, &mut registry).is_empty());
    let kinds: Vec<HookSourceKind> =
        registry.snapshot().bindings().iter().map(|b| b.source.kind).collect();
    assert_eq!(
        kinds,
        [
            HookSourceKind::FACTORY_WIDE.in_format(CURSOR),
            HookSourceKind::RUN_DELIVERED.in_format(CURSOR)
        ]
    );
}

#[test]
fn a_relative_path_is_a_returned_error_and_not_loaded() {
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(
        &f(),
        &[run_delivered(Path::new("rel/hooks.json"))],
        false,
        &mut registry,
    );
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code.as_deref(), Some("relative_path"));
    assert!(registry.snapshot().sources().is_empty());
}

#[test]
fn errors_of_several_files_are_all_returned_and_good_files_still_load() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good/hooks.json");
    write(&good, VALID);
    let bad = tmp.path().join("bad/hooks.json");
    write(&bad, "[]");
    let missing = tmp.path().join("missing/hooks.json");
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(
        &f(),
        &[run_delivered(&bad), run_delivered(&good), run_delivered(&missing)],
        false,
        &mut registry,
    );
    let files: std::collections::BTreeSet<_> =
        errors.iter().filter_map(|d| d.source.clone()).collect();
    assert_eq!(files.len(), 2, "{errors:#?}");
    assert_eq!(registry.snapshot().bindings().len(), 2);
}

#[test]
fn user_files_load_with_the_policys_decision() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    write(&home.join(".cursor/hooks.json"), VALID);
    let dirs = UserDirs::under_home(&f(), home);
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);

    let mut registry = HookRegistry::new();
    let ids = load_user_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    assert_eq!(ids, [id(hooks_testing::kinds::USER_CURSOR_FILE, &home.join(".cursor/hooks.json"))]);
    assert!(registry.errors_for(&ids).is_empty());
    assert_eq!(registry.snapshot().bindings().len(), 2);

    let mut denied = HookRegistry::new();
    let ids = load_user_sources(&f(), &dirs, &DenyAllTrustPolicy, &inputs, false, &mut denied);
    assert_eq!(ids.len(), 1);
    assert!(denied.snapshot().bindings().is_empty());
}

#[test]
fn a_broken_user_file_is_recorded_and_its_errors_are_reachable() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    write(&home.join(".claude/settings.json"), "{ nope");
    write(&home.join(".chrys/hooks/hooks.yaml"), "version: 1\nhooks: []\n");
    let inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    let mut registry = HookRegistry::new();
    let ids = load_user_sources(
        &f(),
        &UserDirs::under_home(&f(), home),
        &StaticTrustPolicy,
        &inputs,
        false,
        &mut registry,
    );
    let kinds: Vec<HookSourceKind> = ids.iter().map(|i| i.kind).collect();
    assert_eq!(
        kinds,
        [hooks_testing::kinds::USER_CHRYS_FILE, hooks_testing::kinds::USER_CLAUDE_SETTINGS]
    );
    let errors = registry.errors_for(&ids);
    assert!(!errors.is_empty());
    let settings = hooks_registry::canonicalize(&home.join(".claude/settings.json")).unwrap();
    assert!(errors.iter().all(|d| d.source.as_deref() == Some(settings.as_path())), "{errors:#?}");
}

#[test]
fn managed_files_load_with_the_policys_decision() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("cursor/hooks.json"), VALID);
    let dirs = ManagedDirs::new().with(CURSOR, tmp.path().join("cursor"));
    let inputs = TrustInputs::new(Surface::Web, CommandExecutionPosture::RequiresApproval);
    let mut registry = HookRegistry::new();
    let ids = load_managed_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    assert_eq!(ids.len(), 1);
    assert_eq!(ids[0].kind, hooks_testing::kinds::MANAGED_CURSOR_FILE);
    let snap = registry.snapshot();
    assert!(snap.source(&ids[0]).unwrap().trust.reason().contains("administrator"));
    assert_eq!(snap.bindings().len(), 2);
}

#[cfg(unix)]
#[test]
fn a_symlinked_user_file_is_protected_at_the_link_and_at_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let target = tmp.path().join("dotfiles/cursor-hooks.json");
    write(&target, VALID);
    fs::create_dir_all(home.join(".cursor")).unwrap();
    std::os::unix::fs::symlink(&target, home.join(".cursor/hooks.json")).unwrap();
    let mut registry = HookRegistry::new();
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let dirs = UserDirs::under_home(&f(), &home);
    load_user_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    let snap = registry.snapshot();
    let protected = snap.protected_paths();
    let link = hooks_registry::canonicalize(&home.join(".cursor")).unwrap();
    let link = link.as_path().join("hooks.json");
    assert!(protected.contains(&link), "{:#?}", protected.as_slice());
    assert!(protected.contains(hooks_registry::canonicalize(&target).unwrap().as_path()));
    let entry = snap.is_protected(&link).unwrap();
    assert_eq!(entry.source, id(hooks_testing::kinds::USER_CURSOR_FILE, &target));
}

#[test]
fn a_loaded_chrys_json_file_protects_the_names_that_would_shadow_it() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = home.join(".chrys/hooks/hooks.json");
    write(&file, r#"{"version": 1, "hooks": []}"#);
    let mut registry = HookRegistry::new();
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let dirs = UserDirs::under_home(&f(), &home);
    load_user_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    let snap = registry.snapshot();
    let folder = hooks_registry::canonicalize(file.parent().unwrap()).unwrap();
    for name in ["hooks.yaml", "hooks.yml"] {
        let shadow = folder.as_path().join(name);
        assert!(!shadow.exists());
        assert!(snap.protected_paths().contains(&shadow), "{name}");
    }
}

#[test]
fn an_explicit_directory_protects_the_candidates_that_would_replace_its_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    write(&dir.join("hooks.yml"), r#"{"version": 1, "hooks": []}"#);
    let sources =
        sources_for_hook_dirs(&f(), std::slice::from_ref(&dir), ExplicitScope::RunDelivered);
    let mut registry = HookRegistry::new();
    let errors = load_explicit_sources(&f(), &sources, false, &mut registry);
    assert!(errors.is_empty(), "{errors:#?}");
    let folder = hooks_registry::canonicalize(&dir).unwrap();
    let snap = registry.snapshot();
    for name in ["hooks.json", "hooks.yaml"] {
        assert!(snap.protected_paths().contains(&folder.as_path().join(name)), "{name}");
    }
    assert!(!snap.protected_paths().contains(&folder.as_path().join("settings.json")));
}

fn claude_settings(hook_id: &str, extra: &str) -> String {
    format!(
        r#"{{{extra}"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "./{hook_id}.sh"}}]}}]}}}}"#
    )
}

#[test]
fn managed_fragments_load_after_the_base_file_each_as_its_own_source() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join("claude-code");
    write(&claude.join("managed-settings.json"), &claude_settings("base", ""));
    write(&claude.join("managed-settings.d/20-b.json"), &claude_settings("b", ""));
    write(
        &claude.join("managed-settings.d/10-a.json"),
        &claude_settings("a", r#""allowManagedHooksOnly": true, "#),
    );
    write(&claude.join("managed-settings.d/.hidden.json"), &claude_settings("hidden", ""));
    let home = tmp.path().join("home");
    write(&home.join(".claude/settings.json"), &claude_settings("user", ""));
    let dirs = ManagedDirs::new().with(CLAUDE, claude.clone());
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let mut registry = HookRegistry::new();
    let ids = load_managed_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    let users = load_user_sources(
        &f(),
        &UserDirs::under_home(&f(), &home),
        &StaticTrustPolicy,
        &inputs,
        false,
        &mut registry,
    );
    let expected: Vec<HookSourceId> =
        ["managed-settings.json", "managed-settings.d/10-a.json", "managed-settings.d/20-b.json"]
            .iter()
            .map(|n| id(hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS, &claude.join(n)))
            .collect();
    assert_eq!(ids, expected);
    let snap = registry.snapshot();
    // Every managed file's hooks add up, in load order; the fragment's allowManagedHooksOnly
    // switches the user's Claude Code hooks off.
    let commands: Vec<String> = snap
        .bindings_for(tmp.path())
        .iter()
        .map(|b| format!("{:?}", b.definition.command))
        .collect();
    assert_eq!(commands.len(), 3, "{commands:?}");
    for (c, name) in commands.iter().zip(["base", "a", "b"]) {
        assert!(c.contains(&format!("./{name}.sh")), "{c}");
    }
    let user = snap.source(&users[0]).unwrap();
    assert!(!user.runs);
    assert!(user.diagnostics.iter().any(|d| d.message
        == format!(
            "disabled by allowManagedHooksOnly in {}",
            hooks_registry::canonicalize(&claude.join("managed-settings.d/10-a.json")).unwrap()
        )));
}

#[test]
fn the_fragment_folder_warning_goes_to_the_last_file_of_the_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join("claude-code");
    let d = claude.join("managed-settings.d");
    fs::create_dir_all(&d).unwrap();
    for i in 0..=crate::MAX_FOLDER_FILES {
        fs::write(d.join(format!("{i:04}.json")), "{}").unwrap();
    }
    let dirs = ManagedDirs::new().with(CLAUDE, claude);
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let mut registry = HookRegistry::new();
    let ids = load_managed_sources(&f(), &dirs, &StaticTrustPolicy, &inputs, false, &mut registry);
    assert_eq!(ids.len(), crate::MAX_FOLDER_FILES);
    let snap = registry.snapshot();
    let warned: Vec<&HookSourceId> = ids
        .iter()
        .filter(|id| {
            snap.source(id)
                .unwrap()
                .diagnostics
                .iter()
                .any(|d| d.code.as_deref() == Some("too_many_files"))
        })
        .collect();
    assert_eq!(warned, [ids.last().unwrap()]);
}
