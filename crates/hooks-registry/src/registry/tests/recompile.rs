//! Tests for what a reload recomputes: a reload that changes nothing keeps the source's
//! compiled state; a changed file, a changed trust decision, a script's symlink pointing
//! elsewhere and a new root each still take effect.

use std::{path::Path, sync::Arc};

use hooks_schema::{AbsPathBuf, HookSourceId};

use super::super::Compiled;
use crate::{
    HookRegistry, canonicalize,
    test_support::{abs, active, def, defs, inert, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-recompile";

/// The compiled state the registry holds for `id`.
fn compiled(r: &HookRegistry, id: &HookSourceId) -> Arc<Compiled> {
    let slot = *r.index.get(id).expect("a known source");
    r.slots[slot].as_ref().expect("an occupied slot").compiled.clone()
}

fn project(root: &AbsPathBuf) -> HookSourceId {
    sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"))
}

#[test]
fn a_reload_that_changes_nothing_keeps_the_compiled_state_the_bindings_and_the_revision() {
    let mut r = HookRegistry::new();
    let root = abs(format!("{P}/repo"));
    let s = project(&root);
    let rev = r.upsert_source(update(&s, ok(defs(&["a", "b"])), Some(&root), active()));
    let (before, snap) = (compiled(&r, &s), r.snapshot());

    assert_eq!(r.upsert_source(update(&s, ok(defs(&["a", "b"])), Some(&root), active())), rev);
    assert!(Arc::ptr_eq(&before, &compiled(&r, &s)), "the same compiled state, not a copy");
    let again = r.snapshot();
    assert!(Arc::ptr_eq(&snap.bindings, &again.bindings), "the binding index is kept");
    let (a, b) = (snap.protected_paths(), again.protected_paths());
    assert_eq!(a.len(), b.len());
    assert!(a.iter().zip(b.iter()).all(|(x, y)| std::ptr::eq(x, y)), "protected paths shared");
}

#[test]
fn a_changed_file_is_compiled_again() {
    let mut r = HookRegistry::new();
    let root = abs(format!("{P}/repo"));
    let s = project(&root);
    let rev = r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    let before = compiled(&r, &s);
    let now = r.upsert_source(update(&s, ok(defs(&["a", "b"])), Some(&root), active()));
    assert!(now > rev);
    assert!(!Arc::ptr_eq(&before, &compiled(&r, &s)));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(&root.as_path().join("src"))), ["a", "b"]);
    assert!(snap.protected_paths().contains(&root.as_path().join("b.sh")));
    // The same names with another command: the bindings and the protected script follow.
    r.upsert_source(update(&s, ok(vec![def("a", 0, "./c.sh")]), Some(&root), active()));
    let snap = r.snapshot();
    let bound = snap.bindings_for(root.as_path());
    assert_eq!(bound.len(), 1);
    assert_eq!(bound[0].definition.command, def("a", 0, "./c.sh").command);
    assert!(snap.protected_paths().contains(&root.as_path().join("c.sh")));
    assert!(!snap.protected_paths().contains(&root.as_path().join("a.sh")));
}

#[test]
fn a_reload_of_the_same_file_with_another_trust_decision_applies_it() {
    let mut r = HookRegistry::new();
    let root = abs(format!("{P}/repo"));
    let s = project(&root);
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    assert_eq!(names(&r.snapshot().bindings_for(root.as_path())), ["a"]);

    let rev = r.revision();
    assert!(r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), inert())) > rev);
    let snap = r.snapshot();
    assert!(snap.bindings_for(root.as_path()).is_empty());
    let view = snap.source(&s).unwrap();
    assert!(!view.runs && !view.trust.is_active(), "{view:?}");
    assert!(view.diagnostics.iter().any(|d| d.code.as_deref() == Some("inert")));

    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&root), active()));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(root.as_path())), ["a"]);
    let view = snap.source(&s).unwrap();
    assert!(view.runs && view.trust.is_active());
    assert!(!view.diagnostics.iter().any(|d| d.code.as_deref() == Some("inert")));
}

#[test]
fn the_same_file_found_under_a_new_root_is_placed_there_too() {
    let mut r = HookRegistry::new();
    let (one, two) = (abs(format!("{P}/one")), abs(format!("{P}/two")));
    let s = sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, format!("{P}/shared/hooks.json"));
    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&one), active()));
    let before = compiled(&r, &s);
    assert!(r.snapshot().bindings_for(two.as_path()).is_empty());

    r.upsert_source(update(&s, ok(defs(&["a"])), Some(&two), active()));
    assert!(!Arc::ptr_eq(&before, &compiled(&r, &s)));
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for(one.as_path())), ["a"]);
    assert_eq!(names(&snap.bindings_for(two.as_path())), ["a"]);
    assert_eq!(snap.bindings_for(two.as_path())[0].working_dir, two);
    assert!(snap.protected_paths().contains(&two.as_path().join("a.sh")));
}

#[cfg(unix)]
fn relink(link: &Path, target: &Path) {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// The watcher reloads a root when anything in a hook folder changes, a script's link
/// included: the file parses the same, but its script now resolves elsewhere.
#[cfg(unix)]
#[test]
fn a_reload_that_changes_nothing_in_the_file_still_follows_a_script_link_to_its_new_target() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let at = |rel: &str| root.as_path().join(rel);
    std::fs::create_dir_all(at(".cursor/hooks")).unwrap();
    std::fs::create_dir_all(at("x")).unwrap();
    std::fs::create_dir_all(at("y")).unwrap();
    std::fs::write(at("x/check.sh"), "").unwrap();
    std::fs::write(at("y/check.sh"), "").unwrap();
    relink(&at(".cursor/hooks/check.sh"), &at("x/check.sh"));
    // A folder link too: `tools` points at `x`, then at `y`.
    relink(&at("tools"), &at("x"));
    let s = project(&root);
    let parse = || ok(vec![def("a", 0, "./.cursor/hooks/check.sh"), def("b", 1, "./tools/new.sh")]);
    let reload = |r: &mut HookRegistry| {
        r.batch(|r| {
            r.upsert_source(update(&s, parse(), Some(&root), active()));
            r.set_found_paths(&s, Some(&root), Vec::new());
        })
    };

    let mut r = HookRegistry::new();
    reload(&mut r);
    let snap = r.snapshot();
    assert!(snap.protected_paths().contains(&at("x/check.sh")));
    assert!(snap.protected_paths().contains(&at("x/new.sh")));
    let before = compiled(&r, &s);

    relink(&at(".cursor/hooks/check.sh"), &at("y/check.sh"));
    relink(&at("tools"), &at("y"));
    reload(&mut r);
    let snap = r.snapshot();
    assert!(snap.protected_paths().contains(&at("y/check.sh")), "the link's new target");
    assert!(snap.protected_paths().contains(&at("y/new.sh")), "under the folder's new target");
    assert!(!snap.protected_paths().contains(&at("x/check.sh")));
    assert!(!snap.protected_paths().contains(&at("x/new.sh")));
    assert!(!Arc::ptr_eq(&before, &compiled(&r, &s)));
}

/// A project file's switch speaks under the roots it was found under: looked up again when
/// its own roots change, and when a new root moves the others in the sorted root list.
#[test]
fn a_project_switch_follows_its_roots_as_they_change_and_as_other_roots_arrive() {
    use hooks_schema::{ParsedSource, PolicySwitch, SourcePolicy, SwitchRule};
    let kind = hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS;
    let root = |name: &str| abs(format!("{P}/{name}"));
    let (a, b, c) = (root("a"), root("b"), root("c"));
    let at = |r: &HookRegistry, dir: &AbsPathBuf| names(&r.snapshot().bindings_for(dir.as_path()));
    let off = sid(kind, format!("{P}/shared/settings.json"));
    let switched_off = || {
        let switch = PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false };
        let policy = SourcePolicy { switches: vec![switch], ..SourcePolicy::default() };
        Ok(ParsedSource { policy, ..ParsedSource::default() })
    };
    let mut r = HookRegistry::new();
    for (dir, hook) in [(&b, "hb"), (&c, "hc")] {
        let id = sid(kind, dir.as_path().join(".claude/settings.json"));
        r.upsert_source(update(&id, ok(defs(&[hook])), Some(dir), active()));
    }
    r.upsert_source(update(&off, switched_off(), Some(&b), active()));
    assert!(at(&r, &b).is_empty());
    assert_eq!(at(&r, &c), ["hc"]);

    // `a` sorts before `b`: the switch stays with `b`.
    r.add_project_root(a.clone());
    assert!(at(&r, &b).is_empty());
    assert_eq!(at(&r, &c), ["hc"]);

    // Found under `c` too, then withdrawn from `b`.
    r.upsert_source(update(&off, switched_off(), Some(&c), active()));
    assert!(at(&r, &b).is_empty());
    assert!(at(&r, &c).is_empty());
    r.remove_source_root(&off, &b);
    assert_eq!(at(&r, &b), ["hb"]);
    assert!(at(&r, &c).is_empty());
}

/// A reload analyses only the definitions that changed (the analysis is a function of the
/// definition), under every root the source is placed at; the paths are resolved again
/// each time (the symlink tests above).
#[test]
fn a_reload_analyses_only_the_definitions_that_changed() {
    let analysed = || crate::protect::ANALYSED.with(std::cell::Cell::get);
    let mut r = HookRegistry::new();
    let (a, b) = (abs(format!("{P}/a")), abs(format!("{P}/b")));
    let src = project(&a);
    let start = analysed();
    r.upsert_source(update(&src, ok(defs(&["x", "y", "z"])), Some(&a), active()));
    r.upsert_source(update(&src, ok(defs(&["x", "y", "z"])), Some(&b), active()));
    assert_eq!(analysed() - start, 3, "one analysis per definition, not per root");
    for _ in 0..3 {
        r.upsert_source(update(&src, ok(defs(&["x", "y", "z"])), Some(&a), active()));
    }
    assert_eq!(analysed() - start, 3, "an unchanged definition is not analysed again");
    r.upsert_source(update(&src, ok(defs(&["x", "y2", "z"])), Some(&a), active()));
    assert_eq!(analysed() - start, 4, "only the changed definition");
    let snap = r.snapshot();
    assert_eq!(names(&snap.bindings_for_canonical(&a.as_path().join("src"))), ["x", "y2", "z"]);
    assert!(snap.protected_paths().contains(&a.as_path().join("y2.sh")));
    assert!(!snap.protected_paths().contains(&a.as_path().join("y.sh")));
}
