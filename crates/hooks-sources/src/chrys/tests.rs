//! Tests for Chrys's warnings about its hooks files.

use std::{fs, path::Path};

use hooks_registry::{HookRegistry, SourceUpdate};
use hooks_schema::{AbsPathBuf, HookDiagnostic, HookSourceId, HookSourceKind as K};
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs, TrustPolicy};

use crate::{
    SourceFormat, UserDirs, dormant_diagnostics, duplicate_id_diagnostics, load_user_sources,
    parse_bytes, read_source, shadowed_file_warnings,
};

const HOOKS: &str = "version: 1\nhooks:\n  - id: shared\n    event: session_start\n    run: {type: command, argv: [./a.sh]}\n  - id: mine\n    event: session_start\n    run: {type: command, argv: [./b.sh]}\n";
const GLOBAL: &str = "version: 1\nhooks:\n  - id: shared\n    event: session_start\n    run: {type: command, argv: [./c.sh]}\n  - id: other\n    event: session_start\n    run: {type: command, argv: [./d.sh]}\n";

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn codes<'a>(diagnostics: impl IntoIterator<Item = &'a HookDiagnostic>, code: &str) -> usize {
    diagnostics.into_iter().filter(|d| d.code.as_deref() == Some(code)).count()
}

#[test]
fn a_chrys_file_gets_a_shadowed_file_warning_for_each_other_hooks_file_in_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".chrys/hooks");
    for name in ["hooks.yaml", "hooks.yml", "hooks.json"] {
        write(&dir.join(name), "version: 1\nhooks: []\n");
    }
    let warnings = shadowed_file_warnings(&dir.join("hooks.yaml"));
    let files: Vec<_> = warnings.iter().map(|d| d.source.clone().unwrap()).collect();
    assert_eq!(files, [dir.join("hooks.yml"), dir.join("hooks.json")]);
    assert!(warnings.iter().all(|d| d.code.as_deref() == Some("shadowed_file")
        && d.message.contains("hooks.yaml in the same folder is read instead")));
    // A file that is itself shadowed warns about nothing.
    assert!(shadowed_file_warnings(&dir.join("hooks.json")).is_empty());
    // `read_source` attaches them to the file it reads.
    let parsed = read_source(&dir.join("hooks.yaml"), SourceFormat::Chrys).unwrap().unwrap();
    assert_eq!(codes(&parsed.diagnostics, "shadowed_file"), 2);
}

#[test]
fn a_lone_chrys_file_or_one_outside_a_hooks_folder_gets_no_shadowed_file_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let lone = tmp.path().join("a/hooks/hooks.yml");
    write(&lone, "version: 1\nhooks: []\n");
    assert!(shadowed_file_warnings(&lone).is_empty());
    let other = tmp.path().join("b/config");
    write(&other.join("hooks.yaml"), "version: 1\nhooks: []\n");
    write(&other.join("hooks.json"), "{}");
    assert!(shadowed_file_warnings(&other.join("hooks.yaml")).is_empty());
}

#[test]
fn the_users_chrys_file_carries_the_shadowed_file_warning_in_the_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    write(&home.join(".chrys/hooks/hooks.yml"), "version: 1\nhooks: []\n");
    write(&home.join(".chrys/hooks/hooks.json"), "{}");
    let mut registry = HookRegistry::new();
    let inputs = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let ids = load_user_sources(
        &UserDirs::under_home(&home),
        &StaticTrustPolicy,
        &inputs,
        false,
        &mut registry,
    );
    let snap = registry.snapshot();
    let view = snap.source(&ids[0]).unwrap();
    assert_eq!(view.id.kind, hooks_format_chrys::USER_FILE);
    assert_eq!(codes(&view.diagnostics, "shadowed_file"), 1, "{:#?}", view.diagnostics);
}

/// Loads Chrys `text` at `path` as `kind` under `root`, decided by the static table.
fn load(
    registry: &mut HookRegistry,
    kind: K,
    path: &Path,
    text: &str,
    root: Option<&AbsPathBuf>,
    inputs: &TrustInputs,
) -> HookSourceId {
    let id = HookSourceId::new(kind, AbsPathBuf::new(path.to_path_buf()).unwrap());
    registry.upsert_source(SourceUpdate {
        source: id.clone(),
        parsed: parse_bytes(text.as_bytes(), path, SourceFormat::Chrys),
        project_root: root.cloned(),
        trust: StaticTrustPolicy.decide(kind, inputs),
    });
    id
}

fn abs(p: &str) -> AbsPathBuf {
    AbsPathBuf::new(p.into()).unwrap()
}

#[test]
fn a_project_chrys_file_inert_only_for_want_of_the_opt_in_is_reported_dormant() {
    let root = abs("/nonexistent-sources-test/repo");
    let file = Path::new("/nonexistent-sources-test/repo/.chrys/hooks/hooks.yaml");
    let desktop = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_format_chrys::PROJECT_FILE, file, HOOKS, Some(&root), &desktop);
    let snap = registry.snapshot();
    let dormant = dormant_diagnostics(&snap, &StaticTrustPolicy, &desktop);
    assert_eq!(dormant.len(), 1);
    assert_eq!(dormant[0].code.as_deref(), Some("project_hooks_dormant"));
    assert_eq!(dormant[0].source.as_deref(), Some(file));
    // With the opt-in, in strict mode, or in a headless run kept inert by its posture,
    // the opt-in is not what keeps it off.
    let opted_in = TrustInputs { user_enables_project_hooks: true, ..desktop };
    let strict = TrustInputs { strict_project_scopes: true, ..desktop };
    let cli = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::RequiresApproval);
    for inputs in [opted_in, strict, cli] {
        assert!(dormant_diagnostics(&snap, &StaticTrustPolicy, &inputs).is_empty(), "{inputs:?}");
    }
}

#[test]
fn a_project_chrys_file_that_is_the_users_own_file_is_not_reported_dormant() {
    let home = abs("/nonexistent-sources-test/home");
    let file = Path::new("/nonexistent-sources-test/home/.chrys/hooks/hooks.yaml");
    let desktop = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_format_chrys::PROJECT_FILE, file, HOOKS, Some(&home), &desktop);
    load(&mut registry, hooks_format_chrys::USER_FILE, file, HOOKS, None, &desktop);
    assert!(dormant_diagnostics(&registry.snapshot(), &StaticTrustPolicy, &desktop).is_empty());
}

#[test]
fn an_id_in_both_the_project_and_the_global_chrys_file_is_warned_about_once() {
    let root = abs("/nonexistent-sources-test/repo");
    let project = Path::new("/nonexistent-sources-test/repo/.chrys/hooks/hooks.yaml");
    let global = Path::new("/nonexistent-sources-test/home/.chrys/hooks/hooks.yaml");
    let opted_in = TrustInputs {
        user_enables_project_hooks: true,
        ..TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown)
    };
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_format_chrys::PROJECT_FILE, project, HOOKS, Some(&root), &opted_in);
    load(&mut registry, hooks_format_chrys::USER_FILE, global, GLOBAL, None, &opted_in);
    let warnings = duplicate_id_diagnostics(&registry.snapshot());
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!(warnings[0].code.as_deref(), Some("duplicate_hook_id"));
    assert_eq!(warnings[0].hook_id.as_deref(), Some("shared"));
    assert!(warnings[0].message.contains(&project.display().to_string()));
    assert!(warnings[0].message.contains(&global.display().to_string()));
}

#[test]
fn no_duplicate_id_warning_when_the_project_file_is_dormant_or_is_the_global_file() {
    let desktop = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let opted_in = TrustInputs { user_enables_project_hooks: true, ..desktop };
    let global = Path::new("/nonexistent-sources-test/home/.chrys/hooks/hooks.yaml");
    // Dormant project file.
    let root = abs("/nonexistent-sources-test/repo");
    let project = Path::new("/nonexistent-sources-test/repo/.chrys/hooks/hooks.yaml");
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_format_chrys::PROJECT_FILE, project, HOOKS, Some(&root), &desktop);
    load(&mut registry, hooks_format_chrys::USER_FILE, global, HOOKS, None, &desktop);
    assert!(duplicate_id_diagnostics(&registry.snapshot()).is_empty());
    // The session started in the home folder: the project file is the global file.
    let home = abs("/nonexistent-sources-test/home");
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_format_chrys::PROJECT_FILE, global, HOOKS, Some(&home), &opted_in);
    load(&mut registry, hooks_format_chrys::USER_FILE, global, HOOKS, None, &opted_in);
    assert!(duplicate_id_diagnostics(&registry.snapshot()).is_empty());
}
