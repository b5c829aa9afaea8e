//! Tests for the formats' advisories about their sources in a snapshot, and for the
//! warnings a loaded file gets about the files it shadows (Chrys's rules, through its
//! descriptor).

use std::{fs, path::Path};

use hooks_registry::{HookRegistry, SourceUpdate};
use hooks_registry::RegistrySnapshot;
use hooks_schema::{
    AbsPathBuf, ExplicitScope, FileScope, FormatSet, HookDiagnostic, HookSourceId,
    HookSourceKind as K, ParseContext,
};
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs, TrustPolicy};

use crate::{
    ScopeDirs, UserDirs, advisories, find_files, load_user_sources, read_with,
    sources_for_hook_dirs,
};

fn f() -> FormatSet {
    hooks_testing::workspace_formats()
}

fn dormant_diagnostics(
    snap: &RegistrySnapshot,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
) -> Vec<HookDiagnostic> {
    let all = advisories(&f(), snap, policy, inputs);
    all.into_iter().filter(|d| d.code.as_deref() == Some("project_hooks_dormant")).collect()
}

fn duplicate_id_diagnostics(snap: &RegistrySnapshot) -> Vec<HookDiagnostic> {
    let inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    let all = advisories(&f(), snap, &StaticTrustPolicy, &inputs);
    all.into_iter().filter(|d| d.code.as_deref() == Some("duplicate_hook_id")).collect()
}

/// The warnings a Chrys file in a project's `.chrys/hooks/` gets when it is read as found.
fn read_project_chrys(root: &Path) -> Vec<HookDiagnostic> {
    let found = find_files(&f(), FileScope::Project, root, &ScopeDirs::new());
    let file = found.iter().find(|x| x.kind == hooks_testing::kinds::PROJECT_CHRYS_FILE).unwrap();
    let ctx = ParseContext { shadows: &file.shadows, ..ParseContext::new(&file.path, file.kind) };
    read_with(&f(), &ctx).unwrap().unwrap().diagnostics
}

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
    let warnings: Vec<HookDiagnostic> = read_project_chrys(tmp.path())
        .into_iter()
        .filter(|d| d.code.as_deref() == Some("shadowed_file"))
        .collect();
    let files: Vec<_> = warnings.iter().map(|d| d.source.clone().unwrap()).collect();
    assert_eq!(files, [dir.join("hooks.yml"), dir.join("hooks.json")]);
    assert!(warnings.iter().all(|d| d.message.contains("hooks.yaml in the same folder is read instead")));
    // A file named directly that is itself shadowed warns about nothing.
    let s = sources_for_hook_dirs(&f(), &[dir.join("hooks.json")], ExplicitScope::RunDelivered);
    assert!(s[0].shadows.is_empty());
    // Named directly and read first, it warns as it does when found.
    let s = sources_for_hook_dirs(&f(), &[dir.join("hooks.yaml")], ExplicitScope::RunDelivered);
    assert_eq!(s[0].shadows, ["hooks.yml", "hooks.json"]);
}

#[test]
fn a_lone_chrys_file_or_one_outside_a_hooks_folder_gets_no_shadowed_file_warning() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join(".chrys/hooks/hooks.yml"), "version: 1\nhooks: []\n");
    assert_eq!(codes(&read_project_chrys(tmp.path()), "shadowed_file"), 0);
    let other = tmp.path().join("b/config");
    write(&other.join("hooks.yaml"), "version: 1\nhooks: []\n");
    write(&other.join("hooks.json"), "{}");
    let s = sources_for_hook_dirs(&f(), &[other.join("hooks.yaml")], ExplicitScope::RunDelivered);
    assert!(s[0].shadows.is_empty(), "hooks.json there is Cursor's, not a Chrys name");
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
        &f(),
        &UserDirs::under_home(&f(), &home),
        &StaticTrustPolicy,
        &inputs,
        false,
        &mut registry,
    );
    let snap = registry.snapshot();
    let view = snap.source(&ids[0]).unwrap();
    assert_eq!(view.id.kind, hooks_testing::kinds::USER_CHRYS_FILE);
    assert_eq!(codes(&view.diagnostics, "shadowed_file"), 1, "{:#?}", view.diagnostics);
}

/// Loads Chrys `text` at `path` as `kind` under `root`, decided by the static table, with the
/// registry told the user's opt-in as `inputs` has it (as the app does).
fn load(
    registry: &mut HookRegistry,
    kind: K,
    path: &Path,
    text: &str,
    root: Option<&AbsPathBuf>,
    inputs: &TrustInputs,
) -> HookSourceId {
    let id = HookSourceId::new(kind, AbsPathBuf::new(path.to_path_buf()).unwrap());
    registry.set_user_opt_in(inputs.user_enables_project_hooks);
    registry.upsert_source(SourceUpdate {
        source: id.clone(),
        parsed: f().get(hooks_testing::ids::CHRYS).unwrap().parse(text.as_bytes(), &ParseContext::new(path, kind)),
        project_root: root.cloned(), project_dir: None,
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
    let cli_auto = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    // Dormant on an interactive surface (kept inert by the table for want of the opt-in),
    // and on a headless run that auto-approves (trusted by the table, held back by the
    // registry for want of the opt-in).
    for inputs in [desktop, cli_auto] {
        let mut registry = HookRegistry::new();
        load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, file, HOOKS, Some(&root), &inputs);
        let snap = registry.snapshot();
        let dormant = dormant_diagnostics(&snap, &StaticTrustPolicy, &inputs);
        assert_eq!(dormant.len(), 1, "{inputs:?}");
        assert_eq!(dormant[0].code.as_deref(), Some("project_hooks_dormant"));
        assert_eq!(dormant[0].source.as_deref(), Some(file));
        // The user opts in: it runs, nothing is dormant.
        registry.set_user_opt_in(true);
        let inputs = TrustInputs { user_enables_project_hooks: true, ..inputs };
        registry.set_trust(
            &HookSourceId::new(hooks_testing::kinds::PROJECT_CHRYS_FILE, abs(file.to_str().unwrap())),
            StaticTrustPolicy.decide(hooks_testing::kinds::PROJECT_CHRYS_FILE, &inputs),
        );
        let snap = registry.snapshot();
        assert!(snap.sources()[0].runs, "{inputs:?}");
        assert!(dormant_diagnostics(&snap, &StaticTrustPolicy, &inputs).is_empty(), "{inputs:?}");
    }
    // In strict mode, or in a headless run kept inert by its posture, the opt-in is not what
    // keeps it off.
    let strict = TrustInputs { strict_project_scopes: true, ..desktop };
    let cli_asks = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::RequiresApproval);
    for inputs in [strict, cli_asks] {
        let mut registry = HookRegistry::new();
        load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, file, HOOKS, Some(&root), &inputs);
        let snap = registry.snapshot();
        assert!(dormant_diagnostics(&snap, &StaticTrustPolicy, &inputs).is_empty(), "{inputs:?}");
    }
}

#[test]
fn a_project_chrys_file_that_is_the_users_own_file_is_not_reported_dormant() {
    let home = abs("/nonexistent-sources-test/home");
    let file = Path::new("/nonexistent-sources-test/home/.chrys/hooks/hooks.yaml");
    let desktop = TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown);
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, file, HOOKS, Some(&home), &desktop);
    load(&mut registry, hooks_testing::kinds::USER_CHRYS_FILE, file, HOOKS, None, &desktop);
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
    load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, project, HOOKS, Some(&root), &opted_in);
    load(&mut registry, hooks_testing::kinds::USER_CHRYS_FILE, global, GLOBAL, None, &opted_in);
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
    load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, project, HOOKS, Some(&root), &desktop);
    load(&mut registry, hooks_testing::kinds::USER_CHRYS_FILE, global, HOOKS, None, &desktop);
    assert!(duplicate_id_diagnostics(&registry.snapshot()).is_empty());
    // The session started in the home folder: the project file is the global file.
    let home = abs("/nonexistent-sources-test/home");
    let mut registry = HookRegistry::new();
    load(&mut registry, hooks_testing::kinds::PROJECT_CHRYS_FILE, global, HOOKS, Some(&home), &opted_in);
    load(&mut registry, hooks_testing::kinds::USER_CHRYS_FILE, global, HOOKS, None, &opted_in);
    assert!(duplicate_id_diagnostics(&registry.snapshot()).is_empty());
}
