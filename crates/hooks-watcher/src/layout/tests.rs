//! Tests for the project layout and path classification.

use std::path::{Path, PathBuf};

use super::{Touch, owning_root, touch};

#[track_caller]
fn check(rel: &str, expected: Option<Touch>) {
    let root = Path::new("/p");
    let path = if rel.is_empty() { root.to_path_buf() } else { root.join(rel) };
    assert_eq!(touch(root, &path), expected, "{rel}");
}

#[test]
fn the_root_itself() {
    check("", Some(Touch::Root));
}

#[test]
fn hook_folders() {
    for rel in [".cursor", ".chrys", ".chrys/hooks", ".claude"] {
        check(rel, Some(Touch::Folder));
    }
}

#[test]
fn hook_files_of_every_format() {
    for rel in [
        ".cursor/hooks.json",
        ".chrys/hooks/hooks.yaml",
        ".chrys/hooks/hooks.yml",
        ".chrys/hooks/hooks.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    ] {
        check(rel, Some(Touch::HookFile));
    }
}

#[test]
fn unrelated_paths() {
    for rel in [
        "README.md",
        ".cursor/hooks.json.tmp",
        ".cursor/hooks.json~",
        ".cursor/rules",
        ".chrys/config.yaml",
        ".chrys/hooks/hooks.toml",
        ".claude/commands",
        ".claude/commands/settings.json",
        "src/.cursor/hooks.json",
        ".cursor/hooks.json/deeper",
        ".git",
    ] {
        check(rel, None);
    }
}

#[test]
fn a_path_outside_the_root_is_unrelated() {
    assert_eq!(touch(Path::new("/p"), Path::new("/q/.cursor/hooks.json")), None);
    assert_eq!(touch(Path::new("/p"), Path::new("/p2/.cursor/hooks.json")), None);
}

#[test]
fn the_nearest_root_owns_a_path() {
    let roots = [PathBuf::from("/a"), PathBuf::from("/a/b")];
    let is_root = |p: &Path| roots.iter().any(|r| r == p);
    assert_eq!(
        owning_root(Path::new("/a/b/.cursor/hooks.json"), is_root),
        Some((PathBuf::from("/a/b"), Touch::HookFile))
    );
    assert_eq!(
        owning_root(Path::new("/a/.cursor/hooks.json"), is_root),
        Some((PathBuf::from("/a"), Touch::HookFile))
    );
    assert_eq!(owning_root(Path::new("/a/b"), is_root), Some((PathBuf::from("/a/b"), Touch::Root)));
    assert_eq!(owning_root(Path::new("/a/c"), is_root), None);
    assert_eq!(owning_root(Path::new("/elsewhere/.cursor/hooks.json"), is_root), None);
}

#[test]
fn the_hook_files_are_the_ones_hooks_sources_reads() {
    // Every name the event filter treats as a hook file is a file `project_files` reads when it
    // is alone, and every file `project_files` returns is one the filter reacts to.
    for rel in super::HOOK_FILES {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, "{}").expect("write");
        let found = hooks_sources::project_files(dir.path());
        assert_eq!(found.len(), 1, "{rel}: {found:?}");
        assert_eq!(found[0].1, path, "{rel}");
        assert_eq!(touch(dir.path(), &found[0].1), Some(Touch::HookFile), "{rel}");
        for ancestor in path.ancestors().skip(1).take_while(|a| *a != dir.path()) {
            assert_eq!(touch(dir.path(), ancestor), Some(Touch::Folder), "{}", ancestor.display());
        }
    }
}
