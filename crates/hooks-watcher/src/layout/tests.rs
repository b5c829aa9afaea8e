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
