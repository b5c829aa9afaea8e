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
    // Two hooks name the same script and `prettier` names no file: two entries.
    assert_eq!(set.entries(), tree.entries().as_slice());
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
