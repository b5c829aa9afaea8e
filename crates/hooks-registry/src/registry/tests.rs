//! Tests for the registry, one per behaviour the design names.

use std::{path::Path, time::Duration};

use hooks_schema::{
    AbsPathBuf, HookCommand, HookDiagnostic, HookSourceId, HookSourceKind as K, ParsedSource,
    Severity, TrustDecision,
};
use hooks_trust::CommandExecutionPosture;

use crate::{
    HookRegistry, LoadStateKind, ProtectedKind, canonicalize, source_id,
    test_support::{abs, active, def, defs, inert, malformed, names, ok, session_def, sid, update},
};

/// A prefix no machine has, for tests that never touch the disk.
const P: &str = "/nonexistent-hooks-registry-test";

fn p(rel: &str) -> String {
    format!("{P}/{rel}")
}

fn has(diags: &[HookDiagnostic], severity: Severity, needle: &str) -> bool {
    diags.iter().any(|d| d.severity == severity && d.message.contains(needle))
}

#[test]
fn valid_then_malformed_then_valid_publishes_three_snapshots_and_the_malformed_step_keeps_the_bindings_and_the_revision_and_marks_the_source_stale()
 {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    let g0 = r.generation();

    let r1 = r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    let snap1 = r.snapshot();
    assert_eq!(snap1.generation(), g0.next());
    assert_eq!(names(&snap1.bindings_for(Path::new(&p("repo/src")))), ["a"]);

    let r2 = r.upsert_source(update(&s, malformed(), Some(&root), active()));
    let snap2 = r.snapshot();
    assert_eq!(r2, r1, "a failed reload keeps the revision");
    assert_eq!(snap2.generation(), snap1.generation().next());
    assert_eq!(snap2.bindings(), snap1.bindings());
    let view = snap2.source(&s).unwrap();
    assert_eq!(view.load_state, LoadStateKind::Stale);
    assert!(has(&view.diagnostics, Severity::Error, "expected `,` or `}`"));
    assert!(has(&view.diagnostics, Severity::Error, "previous configuration stays in effect"));

    let r3 = r.upsert_source(update(&s, ok(defs(&["a", "b"])), Some(&root), active()));
    let snap3 = r.snapshot();
    assert!(r3 > r2);
    assert_eq!(snap3.generation(), snap2.generation().next());
    assert_eq!(snap3.source(&s).unwrap().load_state, LoadStateKind::Loaded);
    assert!(!has(&snap3.source(&s).unwrap().diagnostics, Severity::Error, ""));
    assert_eq!(names(&snap3.bindings_for(Path::new(&p("repo")))), ["a", "b"]);
}

#[test]
fn a_reload_with_the_same_definitions_keeps_the_revision() {
    let mut r = HookRegistry::new();
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let r1 = r.upsert_source(update(&s, ok(defs(&["a", "b"])), None, active()));
    let g1 = r.generation();
    let r2 = r.upsert_source(update(&s, ok(defs(&["a", "b"])), None, active()));
    assert_eq!(r2, r1);
    assert_eq!(r.generation(), g1.next());
}

#[test]
fn the_generation_moves_on_every_change_and_the_revision_only_with_the_active_set() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    let mut last_gen = r.generation();
    let mut step = |r: &mut HookRegistry, moved: bool, what: &str, rev_before| {
        let rev = r.revision();
        assert_eq!(r.generation(), last_gen.next(), "{what}: generation");
        assert_eq!(rev != rev_before, moved, "{what}: revision");
        last_gen = r.generation();
    };
    let rev = r.revision();
    r.add_project_root(root.clone());
    step(&mut r, true, "a new root", rev);
    let rev = r.revision();
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), inert()));
    step(&mut r, false, "an inert load", rev);
    let rev = r.revision();
    r.set_trust(&s, active());
    step(&mut r, true, "activation", rev);
    let rev = r.revision();
    r.upsert_source(update(&s, malformed(), Some(&root), active()));
    step(&mut r, false, "a failed reload", rev);
    let rev = r.revision();
    r.upsert_source(update(&s, ok(defs(&["a", "c"])), Some(&root), active()));
    step(&mut r, true, "a changed definition", rev);
    let rev = r.revision();
    r.pin(CommandExecutionPosture::AutoApproves);
    step(&mut r, false, "the pin", rev);
}

#[test]
fn a_first_load_that_fails_is_inactive_with_an_error_still_counts_as_a_project_and_its_file_is_protected()
 {
    let mut r = HookRegistry::new();
    let outer = abs(p("outer"));
    let inner = abs(p("outer/inner"));
    let so = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/.cursor/hooks.json"));
    let si = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/inner/.cursor/hooks.json"));
    r.upsert_source(update(&so, ok(defs(&["outer"])), Some(&outer), active()));
    r.upsert_source(update(&si, malformed(), Some(&inner), active()));
    let snap = r.snapshot();
    let view = snap.source(&si).unwrap();
    assert_eq!(view.load_state, LoadStateKind::Failed);
    assert!(!view.runs);
    assert!(has(&view.diagnostics, Severity::Error, "no configuration from it is in effect"));
    assert!(snap.project_roots().contains(&inner));
    assert!(names(&snap.bindings_for(Path::new(&p("outer/inner/x")))).is_empty());
    assert_eq!(snap.is_protected(si.path.as_path()).map(|pp| pp.what), Some(ProtectedKind::File));
}

#[test]
fn a_read_failure_behaves_like_a_failed_parse() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    // A first read that fails: failed, a project, protected.
    r.record_read_failure(&s, Some(root.clone()), HookDiagnostic::error("permission denied"));
    let snap = r.snapshot();
    assert_eq!(snap.source(&s).unwrap().load_state, LoadStateKind::Failed);
    assert!(snap.project_roots().contains(&root));
    assert!(snap.protected_paths().contains(s.path.as_path()));
    // A read that fails after a good load: stale, same bindings and revision.
    let rev = r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    let rev2 =
        r.record_read_failure(&s, Some(root.clone()), HookDiagnostic::error("permission denied"));
    assert_eq!(rev, rev2);
    let snap = r.snapshot();
    let view = snap.source(&s).unwrap();
    assert_eq!(view.load_state, LoadStateKind::Stale);
    assert!(has(&view.diagnostics, Severity::Error, "permission denied"));
    assert_eq!(names(&snap.bindings_for(Path::new(&p("repo")))), ["a"]);
}

#[test]
fn a_known_root_without_a_hook_file_is_its_own_project_a_broken_inner_file_does_not_hand_the_directory_back_and_removing_the_root_does()
 {
    let mut r = HookRegistry::new();
    let outer = abs(p("outer"));
    let inner = abs(p("outer/inner"));
    let so = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/.cursor/hooks.json"));
    r.upsert_source(update(&so, ok(defs(&["outer"])), Some(&outer), active()));
    let cwd = p("outer/inner/src");
    assert_eq!(names(&r.snapshot().bindings_for(Path::new(&cwd))), ["outer"]);

    // A root with no hook file is its own project.
    let rev = r.revision();
    assert!(r.add_project_root(inner.clone()) > rev);
    assert!(names(&r.snapshot().bindings_for(Path::new(&cwd))).is_empty());

    // A broken inner file does not hand the directory back either.
    let si = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/inner/.cursor/hooks.json"));
    r.upsert_source(update(&si, malformed(), Some(&inner), active()));
    assert!(names(&r.snapshot().bindings_for(Path::new(&cwd))).is_empty());

    // Removing the root does.
    let rev = r.revision();
    assert!(r.remove_project_root(&inner) > rev);
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(Path::new(&cwd))), ["outer"]);
    assert!(snap.source(&si).is_none(), "a source left with no root is forgotten");
    assert!(!snap.project_roots().contains(&inner));
}

#[test]
fn a_root_found_after_pinning_is_reported_and_the_project_set_does_not_change() {
    let mut r = HookRegistry::new();
    let outer = abs(p("outer"));
    let so = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/.cursor/hooks.json"));
    r.upsert_source(update(&so, ok(defs(&["outer"])), Some(&outer), active()));
    r.pin(CommandExecutionPosture::AutoApproves);
    let rev = r.revision();
    let g = r.generation();
    let late = abs(p("outer/cloned"));
    assert_eq!(r.add_project_root(late.clone()), rev);
    let snap = r.snapshot();
    assert_eq!(snap.generation(), g.next());
    assert!(has(snap.registry_diagnostics(), Severity::Warning, "found after the run started"));
    assert_eq!(snap.project_roots(), std::slice::from_ref(&outer));
    assert_eq!(names(&snap.bindings_for(Path::new(&p("outer/cloned/x")))), ["outer"]);
    // Removing a root after the pin does nothing.
    assert_eq!(r.remove_project_root(&outer), rev);
    assert_eq!(r.snapshot().project_roots(), [outer]);
}

#[test]
fn after_pinning_a_changed_file_a_removal_and_a_trust_change_each_publish_a_snapshot_keep_the_revision_and_are_reported_but_not_applied()
 {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    r.pin(CommandExecutionPosture::AutoApproves);
    let rev = r.revision();
    let before = r.snapshot().bindings();
    let cwd = p("repo");

    let g = r.generation();
    assert_eq!(r.upsert_source(update(&s, ok(defs(&["a", "b"])), Some(&root), active())), rev);
    assert_eq!(r.generation(), g.next());
    assert_eq!(r.snapshot().bindings(), before);

    let g = r.generation();
    assert_eq!(r.remove_source(&s), rev);
    assert_eq!(r.generation(), g.next());
    assert_eq!(
        names(&r.snapshot().bindings_for(Path::new(&cwd))),
        ["a"],
        "a removed file keeps its hooks until the run ends"
    );

    let g = r.generation();
    assert_eq!(r.set_trust(&s, inert()), rev);
    assert_eq!(r.generation(), g.next());
    assert_eq!(r.snapshot().bindings(), before);

    let g = r.generation();
    assert_eq!(r.remove_source_root(&s, &root), rev);
    assert_eq!(r.generation(), g.next());
    assert_eq!(r.snapshot().bindings(), before);

    let snap = r.snapshot();
    let d = &snap.source(&s).unwrap().diagnostics;
    assert!(has(d, Severity::Warning, "changed after the run started"));
    assert!(has(d, Severity::Warning, "removed after the run started"));
    assert!(has(d, Severity::Warning, "trust changed after the run started"));
    assert!(has(d, Severity::Warning, "withdrawn after the run started"));

    // One warning per distinct message.
    r.upsert_source(update(&s, ok(defs(&["a", "c"])), Some(&root), active()));
    let n = r.snapshot().source(&s).unwrap().diagnostics.len();
    assert_eq!(n, d.len());
}

#[test]
fn after_pinning_a_new_project_file_is_parsed_and_protected_but_inert() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.as_path().join(".cursor")).unwrap();
    std::fs::write(root.as_path().join(".cursor/hooks.json"), "{}").unwrap();
    std::fs::write(root.as_path().join("late.sh"), "#!/bin/sh\n").unwrap();
    let s = source_id(
        hooks_testing::kinds::PROJECT_CURSOR_FILE,
        &root.as_path().join(".cursor/hooks.json"),
    )
    .unwrap();

    let mut r = HookRegistry::new();
    r.add_project_root(root.clone());
    r.pin(CommandExecutionPosture::AutoApproves);
    let rev = r.revision();
    assert_eq!(r.upsert_source(update(&s, ok(defs(&["late"])), Some(&root), active())), rev);
    let snap = r.snapshot();
    let view = snap.source(&s).unwrap();
    assert!(!view.runs);
    assert!(!view.trust.is_active());
    assert_eq!(view.definitions.len(), 1);
    assert!(has(&view.diagnostics, Severity::Warning, "found after the run started"));
    assert!(snap.bindings_for(root.as_path()).is_empty());
    assert!(snap.protected_paths().contains(s.path.as_path()));
    let script = canonicalize(&root.as_path().join("late.sh")).unwrap();
    assert_eq!(snap.is_protected(script.as_path()).map(|pp| pp.what), Some(ProtectedKind::Script));
}

#[test]
fn after_pinning_a_new_explicit_source_is_an_error() {
    let mut r = HookRegistry::new();
    r.pin(CommandExecutionPosture::AutoApproves);
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let rev = r.revision();
    assert_eq!(r.upsert_source(update(&s, ok(defs(&["a"])), None, active())), rev);
    let errors = r.errors_for(std::slice::from_ref(&s));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "explicit sources must be loaded before the run starts");
    assert!(r.snapshot().bindings_for(Path::new(P)).is_empty());
}

#[test]
fn a_second_pin_changes_nothing() {
    let mut r = HookRegistry::new();
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
    let rev = r.pin(CommandExecutionPosture::AutoApproves);
    let g = r.generation();
    assert_eq!(r.pin(CommandExecutionPosture::RequiresApproval), rev);
    assert_eq!(r.generation(), g);
    assert_eq!(
        r.snapshot().pinned().map(|p| (p.posture, p.revision)),
        Some((CommandExecutionPosture::AutoApproves, rev))
    );
}

#[test]
fn the_pinned_run_records_its_posture_and_revision() {
    let mut r = HookRegistry::new();
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let rev = r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
    assert_eq!(r.snapshot().pinned(), None);
    r.pin(CommandExecutionPosture::RequiresApproval);
    let pinned = r.snapshot().pinned().unwrap();
    assert_eq!(pinned.posture, CommandExecutionPosture::RequiresApproval);
    assert_eq!(pinned.revision, rev);
    assert!(r.snapshot().source(&s).unwrap().present_at_pin);
}

#[test]
fn the_revision_only_moves_forward() {
    let mut r = HookRegistry::new();
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let mut last = r.revision();
    type Step<'a> = Box<dyn Fn(&mut HookRegistry) + 'a>;
    let steps: Vec<Step<'_>> = vec![
        Box::new(|r| {
            r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
        }),
        Box::new(|r| {
            r.upsert_source(update(&s, ok(defs(&["b"])), None, active()));
        }),
        Box::new(|r| {
            r.set_trust(&s, inert());
        }),
        Box::new(|r| {
            r.upsert_source(update(&s, malformed(), None, inert()));
        }),
        Box::new(|r| {
            r.remove_source(&s);
        }),
        Box::new(|r| {
            r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
        }),
    ];
    for step in steps {
        step(&mut r);
        assert!(r.revision() >= last);
        assert_eq!(r.snapshot().revision(), r.revision());
        last = r.revision();
    }
}

#[test]
fn unknown_sources_do_not_move_it() {
    let mut r = HookRegistry::new();
    let known = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    r.upsert_source(update(&known, ok(defs(&["a"])), None, active()));
    let (rev, g) = (r.revision(), r.generation());
    let unknown = sid(K::RUN_DELIVERED, p("other/hooks.json"));
    assert_eq!(r.remove_source(&unknown), rev);
    assert_eq!(r.set_trust(&unknown, inert()), rev);
    assert_eq!(r.remove_source_root(&unknown, &abs(P)), rev);
    assert_eq!(r.remove_project_root(&abs(p("never"))), rev);
    assert_eq!(r.generation(), g, "nothing was published");
}

#[test]
fn precedence_is_factory_agent_factory_wide_run_delivered_then_project_cursor_file() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    // Loaded in the reverse of precedence.
    let sources = [
        (hooks_testing::kinds::PROJECT_CURSOR_FILE, "repo/.cursor/hooks.json", "project"),
        (hooks_testing::kinds::USER_CURSOR_FILE, "home/.cursor/hooks.json", "user"),
        (K::RUN_DELIVERED, "run/hooks.json", "run"),
        (K::FACTORY_WIDE, "factory/wide.json", "wide"),
        (K::FACTORY_AGENT, "factory/agent.json", "agent"),
    ];
    for (kind, path, name) in sources {
        let s = sid(kind, p(path));
        let root = kind.is_project().then_some(&root);
        r.upsert_source(update(&s, ok(defs(&[name])), root, active()));
    }
    assert_eq!(
        names(&r.snapshot().bindings_for(Path::new(&p("repo/a")))),
        ["agent", "wide", "run", "project", "user"]
    );
}

#[test]
fn the_nearest_root_wins_and_a_cwd_outside_every_root_gets_only_the_bindings_that_apply_everywhere()
{
    let mut r = HookRegistry::new();
    let outer = abs(p("w"));
    let inner = abs(p("w/libs/inner"));
    let run = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    r.upsert_source(update(&run, ok(defs(&["run"])), None, active()));
    let so = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("w/.cursor/hooks.json"));
    let si = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("w/libs/inner/.cursor/hooks.json"));
    r.upsert_source(update(&so, ok(defs(&["outer"])), Some(&outer), active()));
    r.upsert_source(update(&si, ok(defs(&["inner"])), Some(&inner), active()));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(Path::new(&p("w/libs")))), ["run", "outer"]);
    assert_eq!(names(&snap.bindings_for(Path::new(&p("w/libs/inner/src/x")))), ["run", "inner"]);
    assert_eq!(names(&snap.bindings_for(Path::new(&p("w/libs/inner")))), ["run", "inner"]);
    assert_eq!(names(&snap.bindings_for(Path::new(&p("w/libs/inner/../x")))), ["run", "outer"]);
    assert_eq!(names(&snap.bindings_for(Path::new(&p("elsewhere")))), ["run"]);
    assert_eq!(names(&snap.bindings_for(Path::new(&p("w-sibling")))), ["run"]);
    assert_eq!(names(&snap.bindings_for(Path::new("relative/dir"))), ["run"]);
    assert_eq!(snap.project_root_for(Path::new(&p("w/libs/inner/a"))), Some(&inner));
}

/// A temporary folder (kept while the first value lives), its canonical path, and its
/// `repo/src` folder's parent `repo`.
fn temp_repo() -> (tempfile::TempDir, AbsPathBuf, AbsPathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = canonicalize(dir.path()).unwrap();
    let repo = base.join(Path::new("repo")).unwrap();
    std::fs::create_dir_all(repo.as_path().join("src")).unwrap();
    (dir, base, repo)
}

/// Adds `repo`'s Cursor file, with one definition `a`, as a project source rooted at `repo`.
fn add_project_cursor_file(r: &mut HookRegistry, repo: &AbsPathBuf) {
    let s =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, repo.as_path().join(".cursor/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(repo), active()));
}

#[test]
fn the_working_directory_is_canonicalized_when_it_exists() {
    let (_dir, base, repo) = temp_repo();
    let mut r = HookRegistry::new();
    add_project_cursor_file(&mut r, &repo);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(repo.as_path().join("src"), base.as_path().join("link"))
            .unwrap();
        assert_eq!(names(&r.snapshot().bindings_for(&base.as_path().join("link"))), ["a"]);
        // The scope resolves the directory once: the root is found through the link too.
        let scope = r.snapshot().scope_for(&base.as_path().join("link"));
        assert_eq!(names(&scope.bindings), ["a"]);
        assert_eq!(scope.project_root.as_ref(), Some(&repo));
    }
    assert_eq!(names(&r.snapshot().bindings_for(&repo.as_path().join("src/../src"))), ["a"]);
    let scope = r.snapshot().scope_for(&repo.as_path().join("src/../src"));
    assert_eq!(scope.project_root.as_ref(), Some(&repo));
    let outside = r.snapshot().scope_for(base.as_path());
    assert!(outside.bindings.is_empty() && outside.project_root.is_none());
}

#[test]
fn the_working_directory_is_resolved_only_when_a_project_root_is_known() {
    let (_dir, _, repo) = temp_repo();
    let calls = || crate::paths::CANONICALIZED.with(std::cell::Cell::get);
    let mut r = HookRegistry::new();
    let user = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    r.upsert_source(update(&user, ok(defs(&["u"])), None, active()));
    // No project root: every place is outside every project, and nothing is resolved.
    let before = calls();
    let scope = r.snapshot().scope_for(&repo.as_path().join("src"));
    assert_eq!(calls(), before);
    assert_eq!(names(&scope.bindings), ["u"]);
    assert!(scope.project_root.is_none());
    // With a root, the working directory is resolved (once) to find it.
    add_project_cursor_file(&mut r, &repo);
    let before = calls();
    let scope = r.snapshot().scope_for(&repo.as_path().join("src"));
    assert_eq!(calls(), before + 1);
    assert_eq!(names(&scope.bindings), ["u", "a"]);
    assert_eq!(scope.project_root.as_ref(), Some(&repo));
}

/// A working directory swapped for a symlink between two fires (or back) resolves where it
/// leads at each fire: nothing about a path is remembered from one lookup to the next.
#[cfg(unix)]
#[test]
fn a_working_directory_swapped_for_a_symlink_between_two_fires_resolves_anew() {
    let (_dir, base, repo) = temp_repo();
    let mut r = HookRegistry::new();
    add_project_cursor_file(&mut r, &repo);
    let cwd = base.as_path().join("work");
    std::fs::create_dir(&cwd).unwrap();
    let snap = r.snapshot();
    let outside = snap.scope_for(&cwd);
    assert!(outside.bindings.is_empty() && outside.project_root.is_none());
    std::fs::remove_dir(&cwd).unwrap();
    std::os::unix::fs::symlink(repo.as_path().join("src"), &cwd).unwrap();
    let inside = snap.scope_for(&cwd);
    assert_eq!(names(&inside.bindings), ["a"]);
    assert_eq!(inside.project_root.as_ref(), Some(&repo));
    std::fs::remove_file(&cwd).unwrap();
    std::fs::create_dir(&cwd).unwrap();
    let back = snap.scope_for(&cwd);
    assert!(back.bindings.is_empty() && back.project_root.is_none());
}

#[test]
fn the_declared_order_within_a_source_is_kept() {
    let mut r = HookRegistry::new();
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["z", "a", "m"])), None, active()));
    let t = sid(K::RUN_DELIVERED, p("run2/hooks.json"));
    r.upsert_source(update(&t, ok(defs(&["b"])), None, active()));
    assert_eq!(names(&r.snapshot().bindings_for(Path::new(P))), ["z", "a", "m", "b"]);
}

#[test]
fn a_project_file_runs_in_its_root_and_an_explicit_file_in_its_folder() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    let e = sid(K::RUN_DELIVERED, p("run/dir/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    r.upsert_source(update(&e, ok(defs(&["e"])), None, active()));
    let b = r.snapshot().bindings_for(Path::new(&p("repo/x")));
    assert_eq!(b[0].working_dir, abs(p("run/dir")));
    assert_eq!(b[0].project_root, None);
    assert_eq!(b[1].working_dir, root);
    assert_eq!(b[1].project_root, Some(root.clone()));
}

#[test]
fn an_inert_source_is_reported_and_still_counts_as_a_project_root() {
    let mut r = HookRegistry::new();
    let outer = abs(p("outer"));
    let inner = abs(p("outer/inner"));
    let so = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/.cursor/hooks.json"));
    let si = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("outer/inner/.cursor/hooks.json"));
    r.upsert_source(update(&so, ok(defs(&["outer"])), Some(&outer), active()));
    r.upsert_source(update(&si, ok(defs(&["inner"])), Some(&inner), inert()));
    let snap = r.snapshot();
    let view = snap.source(&si).unwrap();
    assert!(!view.runs);
    assert!(
        view.diagnostics.iter().any(|d| d.severity == Severity::Info
            && d.message == "inert: test: commands require approval")
    );
    assert!(snap.project_roots().contains(&inner));
    assert!(snap.bindings_for(Path::new(&p("outer/inner/x"))).is_empty());
}

#[test]
fn disabled_definitions_are_listed_and_protected_but_not_bound() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::write(root.as_path().join("off.sh"), "").unwrap();
    let mut d = defs(&["on", "off"]);
    d[1].enabled = false;
    let s =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(d), Some(&root), active()));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(root.as_path())), ["on"]);
    assert_eq!(snap.source(&s).unwrap().definitions.len(), 2);
    assert!(snap.protected_paths().contains(&root.as_path().join("off.sh")));
}

#[test]
fn a_symlink_and_its_target_are_one_source_and_two_files_with_the_same_text_are_two() {
    let dir = tempfile::tempdir().unwrap();
    let base = canonicalize(dir.path()).unwrap();
    let a = base.as_path().join("a.json");
    let b = base.as_path().join("b.json");
    std::fs::write(&a, "{}").unwrap();
    std::fs::write(&b, "{}").unwrap();
    let mut r = HookRegistry::new();
    let ia = source_id(K::RUN_DELIVERED, &a).unwrap();
    r.upsert_source(update(&ia, ok(defs(&["x"])), None, active()));
    #[cfg(unix)]
    {
        let link = base.as_path().join("link.json");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        let il = source_id(K::RUN_DELIVERED, &link).unwrap();
        assert_eq!(il, ia);
        r.upsert_source(update(&il, ok(defs(&["x"])), None, active()));
        assert_eq!(r.snapshot().sources().len(), 1);
    }
    let ib = source_id(K::RUN_DELIVERED, &b).unwrap();
    r.upsert_source(update(&ib, ok(defs(&["x"])), None, active()));
    assert_eq!(r.snapshot().sources().len(), 2);
    assert_eq!(names(&r.snapshot().bindings_for(base.as_path())), ["x", "x"]);
}

#[test]
fn a_file_delivered_with_the_run_and_found_as_a_project_file_runs_once_as_the_explicit_source() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let file = p("repo/.cursor/hooks.json");
    let explicit = sid(K::RUN_DELIVERED, &file);
    let project = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, &file);
    r.upsert_source(update(&project, ok(defs(&["a"])), Some(&root), active()));
    r.upsert_source(update(&explicit, ok(defs(&["a"])), None, active()));
    let snap = r.snapshot();
    let b = snap.bindings_for(Path::new(&p("repo")));
    assert_eq!(names(&b), ["a"]);
    assert_eq!(b[0].source, explicit);
    let pv = snap.source(&project).unwrap();
    assert!(!pv.runs);
    assert!(
        pv.diagnostics.iter().any(|d| d.severity == Severity::Info
            && d.message.contains("runs once, as the explicit source"))
    );
    assert!(snap.project_roots().contains(&root), "the project load still scopes the root");
    // Without the explicit source, the project load runs.
    r.remove_source(&explicit);
    let b = r.snapshot().bindings_for(Path::new(&p("repo")));
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].source, project);
}

#[test]
fn a_file_reached_from_two_roots_applies_under_each_and_is_forgotten_with_its_last_root() {
    let mut r = HookRegistry::new();
    let r1 = abs(p("one"));
    let r2 = abs(p("two"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("shared/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&r1), active()));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&r2), active()));
    let snap = r.snapshot();
    assert_eq!(snap.sources().len(), 1);
    let b1 = snap.bindings_for(Path::new(&p("one/x")));
    let b2 = snap.bindings_for(Path::new(&p("two/x")));
    assert_eq!((b1.len(), b2.len()), (1, 1));
    assert_eq!(b1[0].working_dir, r1);
    assert_eq!(b2[0].working_dir, r2);
    let rev = r.revision();
    assert!(r.remove_source_root(&s, &r1) > rev);
    assert!(r.snapshot().bindings_for(Path::new(&p("one/x"))).is_empty());
    assert_eq!(r.snapshot().bindings_for(Path::new(&p("two/x"))).len(), 1);
    r.remove_source_root(&s, &r2);
    assert!(r.snapshot().source(&s).is_none());
    assert!(r.snapshot().project_roots().is_empty());
}

#[test]
fn protected_paths_cover_the_file_and_every_script_existing_or_not_in_first_word_and_interpreter_forms()
 {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    for f in ["check.sh", "scripts/check.sh", "hooks/format.js", "hooks/audit.py", "my hooks/x.sh"]
    {
        let path = root.as_path().join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }
    let d = vec![
        def("first", 0, "./check.sh --strict"),
        def("bash", 1, "bash scripts/check.sh"),
        def("node", 2, "node ./hooks/format.js"),
        def("py", 3, "python3 hooks/audit.py"),
        def("npx", 4, "npx foo"),
        def("quoted", 5, "bash \"my hooks/x.sh\""),
        def("missing", 6, "./not-there.sh"),
    ];
    let s =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(d), Some(&root), active()));
    let snap = r.snapshot();
    let (under, above): (Vec<_>, Vec<_>) = snap
        .protected_paths()
        .as_slice()
        .iter()
        .partition(|pp| pp.path.as_path().starts_with(root.as_path()));
    let mut got: Vec<_> = under
        .iter()
        .map(|pp| (pp.path.as_path().strip_prefix(root.as_path()).unwrap().to_path_buf(), pp.what))
        .collect();
    got.sort();
    // Above the project, the `.npmrc` npm would find there instead (finding F53), and, with
    // no `package.json` on the way, the one that would decide how Node reads `format.js`
    // (finding F119), and, with no Deno configuration on the way, the ones whose import map
    // would send its imports elsewhere (finding F131).
    let mut above: Vec<_> =
        above.iter().map(|pp| (pp.path.as_path().to_path_buf(), pp.what)).collect();
    above.sort();
    let mut want_above: Vec<_> = root
        .as_path()
        .ancestors()
        .skip(1)
        .flat_map(|a| {
            [a.join(".npmrc"), a.join("package.json"), a.join("deno.json"), a.join("deno.jsonc")]
        })
        .map(|p| (p, ProtectedKind::Script))
        .collect();
    want_above.sort();
    assert_eq!(above, want_above);
    let want: Vec<(std::path::PathBuf, ProtectedKind)> = vec![
        (".cursor/hooks.json".into(), ProtectedKind::File),
        // `npx` reads the project's `.npmrc` (its `node-options`; finding F49).
        (".npmrc".into(), ProtectedKind::Script),
        ("check.sh".into(), ProtectedKind::Script),
        // The Deno configurations whose import map would send `format.js`'s imports
        // elsewhere, from its folder up (finding F131).
        ("deno.json".into(), ProtectedKind::Script),
        ("deno.jsonc".into(), ProtectedKind::Script),
        ("hooks/audit.py".into(), ProtectedKind::Script),
        ("hooks/deno.json".into(), ProtectedKind::Script),
        ("hooks/deno.jsonc".into(), ProtectedKind::Script),
        ("hooks/format.js".into(), ProtectedKind::Script),
        // What decides whether Node reads `format.js` as an ES module (finding F119).
        ("hooks/package.json".into(), ProtectedKind::Script),
        // A quoted word is a word; a script that does not exist yet is protected, so the
        // agent cannot create it.
        ("my hooks/x.sh".into(), ProtectedKind::Script),
        ("not-there.sh".into(), ProtectedKind::Script),
        ("package.json".into(), ProtectedKind::Script),
        ("scripts/check.sh".into(), ProtectedKind::Script),
    ];
    assert_eq!(got, want);
    assert_eq!(snap.is_protected(&root.as_path().join("check.sh")).unwrap().source, s);
}

#[test]
fn chrys_script_paths_and_exec_commands_are_protected_by_the_same_rule() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(root.as_path().join(".chrys/hooks")).unwrap();
    std::fs::write(root.as_path().join(".chrys/hooks/guard.py"), "").unwrap();
    std::fs::write(root.as_path().join("tool.js"), "").unwrap();
    let mut script = def("script", 0, "");
    script.command =
        HookCommand::Script { path: root.as_path().join(".chrys/hooks/guard.py"), args: vec![] };
    let mut exec = def("exec", 1, "");
    exec.command = HookCommand::Exec { program: "node".into(), args: vec!["tool.js".into()] };
    let s = sid(
        hooks_testing::kinds::PROJECT_CHRYS_FILE,
        root.as_path().join(".chrys/hooks/hooks.yaml"),
    );
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(vec![script, exec]), Some(&root), active()));
    let snap = r.snapshot();
    assert!(snap.protected_paths().contains(&root.as_path().join(".chrys/hooks/guard.py")));
    assert!(snap.protected_paths().contains(&root.as_path().join("tool.js")));
}

#[test]
fn protected_paths_resolve_explicit_scripts_against_the_declaring_directory() {
    let dir = tempfile::tempdir().unwrap();
    let base = canonicalize(dir.path()).unwrap();
    let hooks_dir = base.as_path().join("delivered");
    std::fs::create_dir_all(&hooks_dir).unwrap();
    std::fs::write(hooks_dir.join("gate.sh"), "").unwrap();
    std::fs::write(base.as_path().join("gate.sh"), "").unwrap();
    let s = sid(K::RUN_DELIVERED, hooks_dir.join("hooks.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(vec![def("g", 0, "sh gate.sh")]), None, active()));
    let snap = r.snapshot();
    assert!(snap.protected_paths().contains(&hooks_dir.join("gate.sh")));
    assert!(!snap.protected_paths().contains(&base.as_path().join("gate.sh")));
}

#[test]
fn protected_paths_include_inert_and_stale_sources_and_are_recomputed_on_removal() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::write(root.as_path().join("a.sh"), "").unwrap();
    std::fs::write(root.as_path().join("b.sh"), "").unwrap();
    let inert_src =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"));
    let stale_src = sid(K::RUN_DELIVERED, root.as_path().join("run.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&inert_src, ok(vec![def("a", 0, "./a.sh")]), Some(&root), inert()));
    r.upsert_source(update(&stale_src, ok(vec![def("b", 0, "./b.sh")]), None, active()));
    r.upsert_source(update(&stale_src, malformed(), None, active()));
    let snap = r.snapshot();
    for f in [".cursor/hooks.json", "a.sh", "run.json", "b.sh"] {
        assert!(snap.protected_paths().contains(&root.as_path().join(f)), "{f}");
    }
    r.remove_source(&inert_src);
    let snap = r.snapshot();
    assert!(!snap.protected_paths().contains(&root.as_path().join("a.sh")));
    assert!(!snap.protected_paths().contains(inert_src.path.as_path()));
    assert!(snap.protected_paths().contains(&root.as_path().join("b.sh")));
}

#[test]
fn a_script_that_does_not_exist_yet_is_protected_before_and_after_it_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let s =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(vec![def("a", 0, "./later.sh")]), Some(&root), active()));
    // Creating it would turn a failing (or fail-closed) hook into one the agent wrote.
    assert!(r.snapshot().protected_paths().contains(&root.as_path().join("later.sh")));
    std::fs::write(root.as_path().join("later.sh"), "").unwrap();
    r.upsert_source(update(&s, ok(vec![def("a", 0, "./later.sh")]), Some(&root), active()));
    assert!(r.snapshot().protected_paths().contains(&root.as_path().join("later.sh")));
}

#[test]
fn a_named_explicit_source_with_no_directory_does_not_activate() {
    let mut r = HookRegistry::new();
    // The file system root has no parent folder to run in.
    let s = sid(K::FACTORY_AGENT, "/");
    r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
    let snap = r.snapshot();
    assert!(snap.bindings_for(Path::new(P)).is_empty());
    let errors = snap.errors_for(std::slice::from_ref(&s));
    assert!(has(&errors, Severity::Error, "no directory to run in"));
    // A project file loaded without its root does not activate either.
    let q = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    r.upsert_source(update(&q, ok(defs(&["q"])), None, active()));
    assert!(!r.snapshot().source(&q).unwrap().runs);
    assert!(has(&r.errors_for(&[q]), Severity::Error, "needs the project root"));
}

#[test]
fn no_timeout_ceiling_every_definition_loads_whatever_its_timeout() {
    let mut d = defs(&["ok1", "slow", "day", "never"]);
    d[1].timeout = Duration::from_secs(601);
    d[2].timeout = Duration::from_secs(86_400);
    d[3].timeout = hooks_schema::NO_TIMEOUT;
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(d), None, active()));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(Path::new(P))), ["ok1", "slow", "day", "never"]);
    assert!(snap.errors_for(std::slice::from_ref(&s)).is_empty());
    let timeouts: Vec<Duration> =
        snap.bindings_for(Path::new(P)).iter().map(|b| b.definition.timeout).collect();
    assert_eq!(timeouts[3], hooks_schema::NO_TIMEOUT);
}

#[test]
fn errors_for_returns_failures_and_rejections_but_not_warnings() {
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let missing = sid(K::RUN_DELIVERED, p("missing/hooks.json"));
    let mut r = HookRegistry::new();
    let parsed = ParsedSource {
        definitions: defs(&["a"]),
        diagnostics: vec![HookDiagnostic::warning("unknown event `fooBar`")],
        ..ParsedSource::default()
    };
    r.upsert_source(update(&s, Ok(parsed), None, active()));
    assert!(r.errors_for(std::slice::from_ref(&s)).is_empty());
    assert!(has(&r.snapshot().source(&s).unwrap().diagnostics, Severity::Warning, "fooBar"));
    r.record_read_failure(&missing, None, HookDiagnostic::error("no such file"));
    let errors = r.errors_for(&[s.clone(), missing.clone()]);
    assert!(has(&errors, Severity::Error, "no such file"));
    assert!(errors.iter().all(|d| d.source.as_deref() == Some(missing.path.as_path())));
    let never = sid(K::RUN_DELIVERED, p("never/hooks.json"));
    assert!(has(&r.errors_for(&[never]), Severity::Error, "not known to the registry"));
}

#[test]
fn a_trust_change_before_the_pin_applies() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), inert()));
    assert!(r.snapshot().bindings_for(Path::new(&p("repo"))).is_empty());
    let rev = r.revision();
    let g = r.generation();
    assert_eq!(r.set_trust(&s, inert()), rev, "the same decision changes nothing");
    assert_eq!(r.generation(), g);
    assert!(r.set_trust(&s, active()) > rev);
    assert_eq!(names(&r.snapshot().bindings_for(Path::new(&p("repo")))), ["a"]);
    assert_eq!(
        r.snapshot().source(&s).unwrap().trust,
        TrustDecision::Active { reason: "test: active".into() }
    );
}

#[test]
fn a_canonical_cwd_spelled_with_a_trailing_separator_still_finds_its_root() {
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    let snap = r.snapshot();
    for cwd in [p("repo/"), p("repo/src/"), p("repo//src"), p("repo/./src")] {
        assert_eq!(names(&snap.bindings_for_canonical(Path::new(&cwd))), ["a"], "{cwd}");
    }
}

#[test]
fn an_inert_source_whose_reason_already_says_inert_reads_it_once() {
    use hooks_trust::{StaticTrustPolicy, Surface, TrustInputs, TrustPolicy};
    let mut r = HookRegistry::new();
    let root = abs(p("repo"));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("repo/.cursor/hooks.json"));
    let inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::RequiresApproval);
    let decision = StaticTrustPolicy.decide(hooks_testing::kinds::PROJECT_CURSOR_FILE, &inputs);
    assert!(decision.reason().starts_with("inert:"), "the table's reason: {}", decision.reason());
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), decision.clone()));
    let snap = r.snapshot();
    let info: Vec<&str> = snap
        .source(&s)
        .unwrap()
        .diagnostics
        .iter()
        .filter(|d| d.code.as_deref() == Some("inert"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(info, [decision.reason()]);
    assert!(!info[0].starts_with("inert: inert:"));
}

/// A home folder whose `~/.cursor/hooks.json` is both the user's file and, with the session
/// started in the home folder, that project's file.
fn home_file() -> (AbsPathBuf, HookSourceId, HookSourceId) {
    let home = abs(p("home"));
    let file = p("home/.cursor/hooks.json");
    (
        home,
        sid(hooks_testing::kinds::USER_CURSOR_FILE, &file),
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, &file),
    )
}

fn sources_of(snap: &crate::RegistrySnapshot, cwd: &str) -> Vec<HookSourceId> {
    snap.bindings_for(Path::new(cwd)).iter().map(|b| b.source.clone()).collect()
}

fn says_also_user(snap: &crate::RegistrySnapshot, id: &HookSourceId) -> bool {
    snap.source(id).unwrap().diagnostics.iter().any(|d| {
        d.severity == Severity::Info
            && d.code.as_deref() == Some("also_user")
            && d.message.contains("runs once, as the user source")
    })
}

#[test]
fn a_user_file_also_found_as_a_project_file_runs_once_as_the_user_source_in_either_load_order() {
    let (home, user, project) = home_file();
    for user_first in [true, false] {
        let mut r = HookRegistry::new();
        let load_user =
            |r: &mut HookRegistry| r.upsert_source(update(&user, ok(defs(&["a"])), None, active()));
        let load_project = |r: &mut HookRegistry| {
            r.upsert_source(update(&project, ok(defs(&["a"])), Some(&home), active()))
        };
        if user_first {
            load_user(&mut r);
            load_project(&mut r);
        } else {
            load_project(&mut r);
            load_user(&mut r);
        }
        let snap = r.snapshot();
        assert_eq!(sources_of(&snap, &p("home")), vec![user.clone()], "user first: {user_first}");
        assert_eq!(sources_of(&snap, &p("elsewhere")), vec![user.clone()]);
        assert!(snap.source(&user).unwrap().runs);
        assert!(!snap.source(&project).unwrap().runs);
        assert!(says_also_user(&snap, &project));
        assert!(!has(&snap.source(&user).unwrap().diagnostics, Severity::Info, "runs once"));
        assert!(snap.project_roots().contains(&home), "the project load still scopes its root");
    }
}

#[test]
fn removing_either_load_of_a_user_file_found_as_a_project_file_leaves_the_other_running() {
    let (home, user, project) = home_file();
    let mut r = HookRegistry::new();
    r.upsert_source(update(&user, ok(defs(&["a"])), None, active()));
    r.upsert_source(update(&project, ok(defs(&["a"])), Some(&home), active()));
    // Without the user source, the project load runs in its root.
    r.remove_source(&user);
    let snap = r.snapshot();
    assert_eq!(sources_of(&snap, &p("home")), vec![project.clone()]);
    assert!(sources_of(&snap, &p("elsewhere")).is_empty());
    assert!(!says_also_user(&snap, &project));
    // The user file back: it runs once again, as the user source.
    r.upsert_source(update(&user, ok(defs(&["a"])), None, active()));
    assert_eq!(sources_of(&r.snapshot(), &p("home")), vec![user.clone()]);
    // Without the project load, the user source still runs once.
    r.remove_source(&project);
    let snap = r.snapshot();
    assert_eq!(sources_of(&snap, &p("home")), vec![user.clone()]);
    assert!(snap.source(&project).is_none());
}

#[test]
fn a_user_file_that_cannot_run_does_not_silence_the_project_load_of_the_same_file() {
    let (home, user, project) = home_file();
    let mut r = HookRegistry::new();
    r.upsert_source(update(&project, ok(defs(&["a"])), Some(&home), active()));
    r.record_read_failure(&user, None, HookDiagnostic::error("permission denied"));
    let snap = r.snapshot();
    assert_eq!(sources_of(&snap, &p("home")), vec![project.clone()]);
    assert!(!says_also_user(&snap, &project));
}

#[test]
fn after_pinning_a_user_file_also_found_as_a_project_file_keeps_running_once() {
    let (home, user, project) = home_file();
    // Both loaded before the pin: removing either after it changes nothing that runs.
    for remove_user in [true, false] {
        let mut r = HookRegistry::new();
        r.upsert_source(update(&user, ok(defs(&["a"])), None, active()));
        r.upsert_source(update(&project, ok(defs(&["a"])), Some(&home), active()));
        let rev = r.pin(CommandExecutionPosture::AutoApproves);
        let gone = if remove_user { &user } else { &project };
        assert_eq!(r.remove_source(gone), rev);
        let snap = r.snapshot();
        assert_eq!(sources_of(&snap, &p("home")), vec![user.clone()], "remove user: {remove_user}");
        assert!(says_also_user(&snap, &project));
    }
    // Only the project load before the pin: a user load found after it is inert, so the
    // project load keeps running and the revision stays.
    let mut r = HookRegistry::new();
    r.upsert_source(update(&project, ok(defs(&["a"])), Some(&home), active()));
    let rev = r.pin(CommandExecutionPosture::AutoApproves);
    assert_eq!(r.upsert_source(update(&user, ok(defs(&["a"])), None, active())), rev);
    let snap = r.snapshot();
    assert_eq!(sources_of(&snap, &p("home")), vec![project.clone()]);
    assert!(!snap.source(&user).unwrap().runs);
    assert!(!says_also_user(&snap, &project));
}

#[test]
fn a_file_delivered_with_the_run_and_also_the_users_file_runs_once_as_the_explicit_source() {
    let file = p("home/.cursor/hooks.json");
    let explicit = sid(K::RUN_DELIVERED, &file);
    let user = sid(hooks_testing::kinds::USER_CURSOR_FILE, &file);
    let mut r = HookRegistry::new();
    r.upsert_source(update(&user, ok(defs(&["a"])), None, active()));
    r.upsert_source(update(&explicit, ok(defs(&["a"])), None, active()));
    let snap = r.snapshot();
    assert_eq!(sources_of(&snap, &p("anywhere")), vec![explicit.clone()]);
    assert!(
        snap.source(&user)
            .unwrap()
            .diagnostics
            .iter()
            .any(|d| d.code.as_deref() == Some("also_explicit"))
    );
}

#[test]
fn the_paths_a_source_was_found_at_are_protected_as_its_hook_file_and_go_with_its_root() {
    let mut r = HookRegistry::new();
    let (one, two) = (abs(p("one")), abs(p("two")));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p("shared/hooks.json"));
    let (link1, link2) = (abs(p("one/.cursor/hooks.json")), abs(p("two/.cursor/hooks.json")));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&one), active()));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&two), active()));
    let generation = r.generation();
    r.set_found_paths(&s, Some(&one), vec![link1.clone(), s.path.clone()]);
    r.set_found_paths(&s, Some(&two), vec![link2.clone()]);
    let snap = r.snapshot();
    let entry = snap.is_protected(link1.as_path()).unwrap();
    assert_eq!((&entry.source, entry.what), (&s, ProtectedKind::File));
    assert!(snap.is_protected(link2.as_path()).is_some());
    let listed = snap.protected_paths().as_slice().iter().filter(|p| p.path == s.path).count();
    assert_eq!(listed, 1, "the canonical path is listed once");
    assert_eq!(snap.generation().get(), generation.get() + 2);
    // The same paths again change nothing.
    let generation = r.generation();
    r.set_found_paths(&s, Some(&one), vec![link1.clone()]);
    assert_eq!(r.generation(), generation);
    // A root the source is not placed under, or an unknown source, changes nothing.
    r.set_found_paths(&s, Some(&abs(p("three"))), vec![abs(p("three/x"))]);
    r.set_found_paths(
        &sid(hooks_testing::kinds::USER_CURSOR_FILE, p("u.json")),
        None,
        vec![abs(p("u"))],
    );
    assert_eq!(r.generation(), generation);
    // Withdrawing a root withdraws what was found under it.
    r.remove_source_root(&s, &one);
    let snap = r.snapshot();
    assert!(!snap.protected_paths().contains(link1.as_path()));
    assert!(snap.protected_paths().contains(link2.as_path()));
    // A new call replaces the root's paths.
    r.set_found_paths(&s, Some(&two), Vec::new());
    assert!(!r.snapshot().protected_paths().contains(link2.as_path()));
}

#[test]
fn after_pinning_the_paths_a_source_was_found_at_only_grow() {
    let mut r = HookRegistry::new();
    let s = sid(hooks_testing::kinds::USER_CHRYS_FILE, p("home/.chrys/hooks/hooks.json"));
    let yaml = abs(p("home/.chrys/hooks/hooks.yaml"));
    let yml = abs(p("home/.chrys/hooks/hooks.yml"));
    r.upsert_source(update(&s, ok(defs(&["a"])), None, active()));
    r.set_found_paths(&s, None, vec![yaml.clone()]);
    let rev = r.pin(CommandExecutionPosture::AutoApproves);
    assert_eq!(r.set_found_paths(&s, None, vec![yml.clone()]), rev);
    let snap = r.snapshot();
    assert!(snap.protected_paths().contains(yaml.as_path()));
    assert!(snap.protected_paths().contains(yml.as_path()));
    // Removed after the pin: still protected until the run ends.
    r.remove_source(&s);
    assert!(r.snapshot().protected_paths().contains(yaml.as_path()));
}

mod batch;
mod claude;
mod expected;
mod lookup;
mod protection;
mod recompile;
mod roots;

/// A project file found in a session's subfolder ([`crate::SourceUpdate::project_dir`]) is
/// bound at its root like any project file, but placed at its folder: its bindings name that
/// folder as their project directory and run there, and the scripts it names through the
/// project directory are protected there, not at the root.
#[test]
fn a_project_file_placed_at_a_subfolder_is_bound_at_the_root_and_placed_at_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(root.as_path().join("pkg/.claude")).unwrap();
    let pkg = canonicalize(&root.as_path().join("pkg")).unwrap();
    let id = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        pkg.as_path().join(".claude/settings.json"),
    );
    let mut r = HookRegistry::new();
    r.add_project_root(root.clone());
    let mut placed = update(
        &id,
        ok(vec![session_def("var", 0, r#""$PROJECT_DIR"/.claude/hooks/gate.sh"#)]),
        Some(&root),
        active(),
    );
    placed.project_dir = Some(pkg.clone());
    r.upsert_source(placed);
    let snap = r.snapshot();
    // Bound for sessions anywhere under the root (the place), the subfolder included.
    for at in [root.as_path().to_path_buf(), pkg.as_path().join("src")] {
        let bindings = snap.bindings_for(&at);
        assert_eq!(names(&bindings), ["var"], "{at:?}");
        assert_eq!(bindings[0].project_root.as_ref(), Some(&pkg));
        assert_eq!(bindings[0].working_dir, pkg);
    }
    let p = snap.protected_paths();
    assert!(p.contains(&pkg.as_path().join(".claude/hooks/gate.sh")));
    assert!(!p.contains(&root.as_path().join(".claude/hooks/gate.sh")));
    // The same file loaded again without a folder is placed at the root, as before.
    r.upsert_source(update(
        &id,
        ok(vec![session_def("var", 0, r#""$PROJECT_DIR"/.claude/hooks/gate.sh"#)]),
        Some(&root),
        active(),
    ));
    let snap = r.snapshot();
    assert_eq!(snap.bindings_for(root.as_path())[0].project_root.as_ref(), Some(&root));
    assert!(snap.protected_paths().contains(&root.as_path().join(".claude/hooks/gate.sh")));
}

#[test]
fn scripts_of_a_session_directory_format_are_protected_where_any_session_would_run_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let project = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        root.as_path().join(".claude/settings.json"),
    );
    let user_dir = root.as_path().join("home/.claude");
    let user = sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, user_dir.join("settings.json"));
    let mut r = HookRegistry::new();
    r.upsert_source(update(
        &project,
        ok(vec![
            session_def("var", 0, r#""$PROJECT_DIR"/.claude/hooks/gate.sh"#),
            session_def("rel", 1, "./x.sh"),
        ]),
        Some(&root),
        active(),
    ));
    r.upsert_source(update(
        &user,
        ok(vec![
            session_def("any", 0, "$PROJECT_DIR/.claude/hooks/u.sh"),
            session_def("mine", 1, "sh hooks/m.sh"),
        ]),
        None,
        active(),
    ));
    let snap = r.snapshot();
    let p = snap.protected_paths();
    // The project's variable is its root; the session's directory is any folder under it,
    // and the root itself.
    assert!(p.contains(&root.as_path().join(".claude/hooks/gate.sh")));
    assert!(p.contains(&root.as_path().join("x.sh")));
    let rel = p.patterns().iter().find(|x| x.tail == Path::new("x.sh")).expect("x.sh pattern");
    assert_eq!((&rel.scope, rel.session.as_deref()), (&root, Some(Path::new("x.sh"))));
    // A user hook's project directory is any project's: protected by name anywhere.
    let any =
        p.patterns().iter().find(|x| x.tail == Path::new(".claude/hooks/u.sh")).expect("u.sh");
    assert_eq!(any.scope.as_path(), Path::new("/"));
    assert_eq!(any.source, user);
    // A user hook's relative script runs from the user's folder when the engine runs it,
    // never a session's; the agent runs its own hook in the session's directory, whose copy
    // is protected too, by its name under any session's directory (F43).
    assert!(p.contains(&user_dir.join("hooks/m.sh")));
    let session = p.patterns().iter().find(|x| x.tail == Path::new("hooks/m.sh")).expect("m.sh");
    assert_eq!(session.session.as_deref(), Some(Path::new("hooks/m.sh")));
    assert_eq!(session.source, user);
    let view = snap.source(&user).unwrap();
    let mine = view.definitions.iter().find(|d| d.id.as_str() == "mine").unwrap();
    assert_eq!(mine.cwd, None, "the listed definition is as written");
    let bound = snap.bindings().into_iter().find(|b| b.definition.id.as_str() == "mine").unwrap();
    assert_eq!(bound.definition.cwd.as_deref(), Some(user_dir.to_str().unwrap()));
    assert!(view.diagnostics.iter().any(|d| d.code.as_deref() == Some("relative_script_pinned")));
}

#[test]
fn a_loaded_source_keeps_no_spare_room_from_its_parse() {
    // A parser's vectors grow by doubling: one definition and one diagnostic pushed into
    // them leave room for several more, which a loaded source must not keep.
    let mut definitions = Vec::with_capacity(8);
    definitions.push(def("a", 0, "./a.sh"));
    let mut diagnostics = Vec::with_capacity(8);
    diagnostics.push(HookDiagnostic::warning("w"));
    let parsed = ParsedSource { definitions, diagnostics, ..ParsedSource::default() };
    let s = sid(K::RUN_DELIVERED, p("run/hooks.json"));
    let accepted = super::accept(&s, parsed);
    assert_eq!((accepted.definitions.len(), accepted.definitions.capacity()), (1, 1));
    assert_eq!((accepted.diagnostics.len(), accepted.diagnostics.capacity()), (1, 1));
    let mut r = HookRegistry::new();
    r.upsert_source(update(&s, ok(defs(&["a", "b", "c"])), None, active()));
    let snapshot = r.snapshot();
    let view = snapshot.source(&s).expect("loaded");
    assert_eq!(view.diagnostics.capacity(), view.diagnostics.len());
}

#[test]
fn the_project_roots_are_the_announced_ones_and_every_project_sources_after_any_sequence() {
    use std::collections::{BTreeMap, BTreeSet};
    // The registry counts who holds each root instead of gathering them at every publish;
    // a fixed pseudo-random walk checks it against the plain union after every step.
    let roots: Vec<AbsPathBuf> = ["a", "b", "a/c", "d"].iter().map(|r| abs(p(r))).collect();
    let sources: Vec<HookSourceId> =
        ["a/.cursor/hooks.json", "x/.cursor/hooks.json", "a/c/.cursor/hooks.json"]
            .iter()
            .map(|f| sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, p(f)))
            .collect();
    let mut r = HookRegistry::new();
    let mut announced: BTreeSet<AbsPathBuf> = BTreeSet::new();
    let mut placed: BTreeMap<HookSourceId, BTreeSet<AbsPathBuf>> = BTreeMap::new();
    let mut x: u32 = 11;
    for step in 0..600 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let root = &roots[(x >> 8) as usize % roots.len()];
        let source = &sources[(x >> 12) as usize % sources.len()];
        let batch = (x >> 20).is_multiple_of(4);
        let mut op = |r: &mut HookRegistry| match (x >> 16) % 5 {
            0 => {
                r.add_project_root(root.clone());
                announced.insert(root.clone());
            }
            1 => {
                r.remove_project_root(root);
                announced.remove(root);
                placed.values_mut().for_each(|s| {
                    s.remove(root);
                });
                placed.retain(|_, s| !s.is_empty());
            }
            2 => {
                r.upsert_source(update(source, ok(defs(&["h"])), Some(root), active()));
                placed.entry(source.clone()).or_default().insert(root.clone());
            }
            3 => {
                r.remove_source_root(source, root);
                if let Some(s) = placed.get_mut(source) {
                    s.remove(root);
                    if s.is_empty() {
                        placed.remove(source);
                    }
                }
            }
            _ => {
                r.remove_source(source);
                placed.remove(source);
            }
        };
        if batch {
            r.batch(|r| op(r));
        } else {
            op(&mut r);
        }
        let want: BTreeSet<&AbsPathBuf> =
            announced.iter().chain(placed.values().flatten()).collect();
        let snap = r.snapshot();
        let got: BTreeSet<&AbsPathBuf> = snap.project_roots().iter().collect();
        assert_eq!(got, want, "step {step}");
    }
}
