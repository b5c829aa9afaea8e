//! Tests for the protected set: indexing, several sources, case folding, unresolved paths,
//! and the messages the agent and the user see.

use std::path::{Path, PathBuf};

use hooks_schema::{AbsPathBuf, HookSourceId, HookSourceKind};

use crate::{
    CaseDetection, GuardDecision, GuardError, HitReason, ProtectedEntry, ProtectedRole,
    ProtectedSet, UnresolvedPath, test_tree::Tree,
};

#[test]
fn entries_are_sorted_and_deduplicated() {
    let tree = Tree::new();
    let mut entries = tree.entries();
    entries.reverse();
    entries.extend(tree.entries());
    let set = ProtectedSet::new(entries);
    assert_eq!(set.entries(), tree.entries().as_slice());
    assert_eq!(set.len(), 2);
    assert!(!set.is_empty());
}

#[test]
fn an_empty_set_allows_everything() {
    let tree = Tree::new();
    let set = ProtectedSet::new(Vec::new());
    assert!(set.is_empty());
    let decision = set.check(&[".cursor/hooks.json", "."], &tree.cwd);
    assert_eq!(decision, GuardDecision::Allowed);
}

#[test]
fn a_file_named_by_two_sources_reports_both() {
    let tree = Tree::new();
    let explicit = HookSourceId::new(HookSourceKind::RUN_DELIVERED, tree.hook_file.clone());
    let mut entries = tree.entries();
    entries.push(ProtectedEntry {
        path: tree.hook_file.clone(),
        source: explicit.clone(),
        role: ProtectedRole::HookFile,
    });
    let set = ProtectedSet::new(entries);
    let decision = set.check(&[".cursor/hooks.json"], &tree.cwd);
    let sources: Vec<&HookSourceId> = decision.hits().iter().map(|h| &h.source).collect();
    assert_eq!(sources, [&explicit, &tree.source]);
}

#[test]
fn each_protected_path_of_an_edit_is_reported() {
    let tree = Tree::new();
    let set = tree.set();
    let decision = set.check(&["hooks/check.sh", "src/main.rs", "../link_hooks.json"], &tree.cwd);
    let hits: Vec<(&Path, ProtectedRole)> =
        decision.hits().iter().map(|h| (h.requested.as_path(), h.role)).collect();
    assert_eq!(
        hits,
        [
            (Path::new("hooks/check.sh"), ProtectedRole::Script),
            (Path::new("../link_hooks.json"), ProtectedRole::HookFile),
        ]
    );
    assert_eq!(decision.hits()[1].resolved, tree.hook_file);
}

#[test]
fn a_case_variant_is_protected_when_the_file_system_folds_case() {
    let tree = Tree::new();
    let folding =
        ProtectedSet::with_case_detection(tree.entries(), CaseDetection::AlwaysInsensitive);
    assert!(folding.is_case_insensitive(tree.hook_file.as_path()));
    let decision = folding.check(&[".CURSOR/Hooks.JSON", "HOOKS"], &tree.cwd);
    let reasons: Vec<(HitReason, ProtectedRole)> =
        decision.hits().iter().map(|h| (h.why, h.role)).collect();
    assert_eq!(
        reasons,
        [
            (HitReason::SamePath, ProtectedRole::HookFile),
            (HitReason::HoldingFolder, ProtectedRole::Script)
        ]
    );
    assert_eq!(folding.check(&[".CURSOR/notes.md"], &tree.cwd), GuardDecision::Allowed);
}

#[cfg(target_os = "linux")]
#[test]
fn a_case_variant_goes_through_on_a_case_sensitive_file_system() {
    let tree = Tree::new();
    let set = tree.set();
    assert!(!set.is_case_insensitive(tree.hook_file.as_path()));
    // On a case-sensitive file system `.CURSOR/Hooks.JSON` is another file.
    assert_eq!(set.check(&[".CURSOR/Hooks.JSON"], &tree.cwd), GuardDecision::Allowed);
}

#[test]
fn an_unresolvable_path_fails_closed_and_a_hit_wins_over_it() {
    let set = Tree::new().set();
    let tree = Tree::new();
    let relative_cwd = Path::new("relative/cwd");
    let decision = set.check(&["a.txt"], relative_cwd);
    assert_eq!(
        decision,
        GuardDecision::Unresolved(vec![UnresolvedPath {
            requested: PathBuf::from("a.txt"),
            error: GuardError::RelativeSessionCwd {
                path: PathBuf::from("a.txt"),
                cwd: relative_cwd.to_path_buf(),
            },
        }])
    );
    assert!(!decision.is_allowed());
    assert!(decision.hits().is_empty());
    let own = tree.set();
    let mixed =
        own.check(&[PathBuf::from("a.txt"), tree.hook_file.as_path().to_path_buf()], relative_cwd);
    assert_eq!(mixed.hits().len(), 1);
}

#[test]
fn a_protected_file_that_does_not_exist_is_still_matched_by_path() {
    let tree = Tree::new();
    let gone = AbsPathBuf::new(tree.cwd.join(".chrys/hooks/hooks.yaml")).expect("abs");
    let set = ProtectedSet::new(vec![ProtectedEntry {
        path: gone.clone(),
        source: HookSourceId::new(hooks_testing::kinds::PROJECT_CHRYS_FILE, gone.clone()),
        role: ProtectedRole::HookFile,
    }]);
    let decision = set.check(&[".chrys/hooks/hooks.yaml"], &tree.cwd);
    assert_eq!(decision.hits().len(), 1);
    assert_eq!(decision.hits()[0].why, HitReason::SamePath);
    let folder = set.check(&[".chrys"], &tree.cwd);
    assert_eq!(folder.hits()[0].why, HitReason::HoldingFolder);
}

#[test]
fn the_decision_names_the_file_the_source_and_the_reason() {
    let tree = Tree::new();
    let set = tree.set();
    let decision = set.check(&[".cursor", "hooks/check.sh"], &tree.cwd);
    let hook = tree.hook_file.to_string();
    let script = tree.script.to_string();
    let source = tree.source.to_string();
    assert_eq!(
        decision.to_string(),
        format!(
            "protected: `.cursor` holds `{hook}`, the hook file {source}; the agent may not edit it; \
             `hooks/check.sh` is `{script}`, a script named by the hooks of {source}; the agent may not edit it"
        )
    );
    assert!(source.contains("project_cursor_file"));
}

#[cfg(unix)]
#[test]
fn a_hard_link_message_says_it_is_the_same_file() {
    let tree = Tree::new();
    let set = tree.set();
    let decision = set.check(&[tree.at("hard.json")], &tree.cwd);
    let text = decision.to_string();
    assert!(text.contains("under another name (same inode)"), "{text}");
    assert_eq!(decision.hits()[0].resolved.as_path(), tree.at("hard.json"));
}

/// Many files under a few folders: every folder above every protected file holds one, so
/// renaming or removing any of them is refused, however many files share it (the index stops
/// walking up at a folder an earlier file already holds).
#[test]
fn every_folder_above_every_protected_file_is_protected_when_files_share_folders() {
    let dir = tempfile::tempdir().unwrap();
    let root = crate::resolve::canonicalize(dir.path()).unwrap().into_path_buf();
    let source = HookSourceId::new(
        HookSourceKind::RUN_DELIVERED,
        AbsPathBuf::new(root.join("hooks.json")).unwrap(),
    );
    let files = ["a/b/one.sh", "a/b/two.sh", "a/c/three.sh", "a/c/d/four.sh", "e/five.sh"];
    let mut entries = Vec::new();
    for rel in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "").unwrap();
        entries.push(ProtectedEntry {
            path: AbsPathBuf::new(path).unwrap(),
            source: source.clone(),
            role: ProtectedRole::Script,
        });
    }
    let set = ProtectedSet::new(entries);
    for folder in ["a", "a/b", "a/c", "a/c/d", "e"] {
        let decision = set.check(&[root.join(folder)], &root);
        assert!(matches!(decision, GuardDecision::Protected(_)), "{folder}: {decision:?}");
    }
    assert!(matches!(set.check(&[&root], &root), GuardDecision::Protected(_)));
    std::fs::create_dir_all(root.join("a/free")).unwrap();
    assert_eq!(set.check(&[root.join("a/free")], &root), GuardDecision::Allowed);
}
