//! Tests for the bridge from a real registry snapshot to the guard.

use std::path::PathBuf;

use hooks_registry::RegistrySnapshot;

use crate::{
    GuardDecision, HitReason, ProtectedRole, ProtectedSet, can_write_files, test_tree::Tree,
};

#[test]
fn the_snapshot_protects_the_hook_file_and_its_script_once() {
    let tree = Tree::new();
    let set = ProtectedSet::from_snapshot(&tree.snapshot());
    // Two hooks name the same script and `cowsay` names no file: two entries.
    assert_eq!(set.entries(), tree.entries().as_slice());
}

/// A snapshot whose registry computed no protection of the hooks' files (a bridge event that
/// edits no file) cannot answer the guard: every path is refused, unresolved, the hook file
/// itself and a file no hook names alike, so a guard asked by mistake fails closed.
#[test]
fn a_snapshot_without_protection_refuses_every_path() {
    let tree = Tree::new();
    let snapshot = tree.snapshot_with(false);
    assert!(!snapshot.protection_computed());
    let set = ProtectedSet::from_snapshot(&snapshot);
    for path in ["hooks/check.sh", "src/main.rs", "/elsewhere/notes.txt"] {
        let decision = set.check(&[PathBuf::from(path)], &tree.cwd);
        match &decision {
            GuardDecision::Unresolved(u) => assert!(
                matches!(u[0].error, crate::GuardError::ProtectionNotComputed { .. }),
                "{path}: {decision:?}"
            ),
            other => panic!("{path}: {other:?}"),
        }
        assert!(!decision.is_allowed(), "{path}");
    }
    // The same tree with protection: the script is protected, the rest allowed.
    let set = ProtectedSet::from_snapshot(&tree.snapshot_with(true));
    assert!(!set.check(&[PathBuf::from("hooks/check.sh")], &tree.cwd).is_allowed());
    assert!(set.check(&[PathBuf::from("src/main.rs")], &tree.cwd).is_allowed());
}

#[test]
fn a_set_knows_the_generation_it_was_built_from() {
    let tree = Tree::new();
    let snapshot = tree.snapshot();
    let set = ProtectedSet::from_snapshot(&snapshot);
    assert_eq!(set.generation(), Some(snapshot.generation()));
    assert!(set.is_current_for(&snapshot));
    assert!(!set.is_current_for(&RegistrySnapshot::default()));
    assert_eq!(ProtectedSet::new(tree.entries()).generation(), None);
}

#[test]
fn can_write_files_checks_against_the_snapshot() {
    let tree = Tree::new();
    let snapshot = tree.snapshot();
    let decision = can_write_files(
        &[PathBuf::from("./hooks/check.sh"), PathBuf::from("src/main.rs")],
        &tree.cwd,
        &snapshot,
    );
    let hits = decision.hits();
    assert_eq!(hits.len(), 1, "{decision:?}");
    assert_eq!(hits[0].protected, tree.script);
    assert_eq!(hits[0].source, tree.source);
    assert_eq!(hits[0].role, ProtectedRole::Script);
    assert_eq!(hits[0].why, HitReason::SamePath);
    assert_eq!(
        can_write_files(&[PathBuf::from("src/main.rs")], &tree.cwd, &snapshot),
        GuardDecision::Allowed
    );
}

#[test]
fn an_empty_snapshot_protects_nothing() {
    let tree = Tree::new();
    let snapshot = RegistrySnapshot::default();
    assert_eq!(
        can_write_files(&[PathBuf::from(".cursor/hooks.json")], &tree.cwd, &snapshot),
        GuardDecision::Allowed
    );
}
