//! Tests for the project layout and path classification.

use std::path::{Path, PathBuf};

use hooks_schema::FileScope;
use hooks_sources::{ManagedDirs, UserDirs};
use hooks_testing::ids::{CLAUDE, CURSOR};

use super::{Layout, Touch};

fn layout() -> Layout {
    Layout::new(hooks_testing::workspace_formats())
}

fn touch(root: &Path, path: &Path) -> Option<Touch> {
    layout().touch(root, path)
}

fn owning_root(path: &Path, is_root: impl Fn(&Path) -> bool) -> Option<(PathBuf, Touch)> {
    layout().owning_root(path, is_root)
}

fn user_folders(dirs: &UserDirs) -> Vec<PathBuf> {
    layout().scope_folders(FileScope::User, dirs)
}

fn user_touch(dirs: &UserDirs, path: &Path) -> Option<Touch> {
    layout().scope_touch(FileScope::User, dirs, path)
}

fn managed_folders(dirs: &ManagedDirs) -> Vec<PathBuf> {
    layout().scope_folders(FileScope::Managed, dirs)
}

fn managed_touch(dirs: &ManagedDirs, path: &Path) -> Option<Touch> {
    layout().scope_touch(FileScope::Managed, dirs, path)
}

/// Every project hook file of the workspace's formats, relative to the root.
const HOOK_FILES: [&str; 6] = [
    ".cursor/hooks.json",
    ".chrys/hooks/hooks.yaml",
    ".chrys/hooks/hooks.yml",
    ".chrys/hooks/hooks.json",
    ".claude/settings.local.json",
    ".claude/settings.json",
];

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
        ".claude/output-styles",
        ".claude/output-styles/settings.json",
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
    for rel in HOOK_FILES {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, "{}").expect("write");
        let found = hooks_sources::project_files(&hooks_testing::workspace_formats(), dir.path());
        assert_eq!(found.len(), 1, "{rel}: {found:?}");
        assert_eq!(found[0].1, path, "{rel}");
        assert_eq!(touch(dir.path(), &found[0].1), Some(Touch::HookFile), "{rel}");
        for ancestor in path.ancestors().skip(1).take_while(|a| *a != dir.path()) {
            assert_eq!(touch(dir.path(), ancestor), Some(Touch::Folder), "{}", ancestor.display());
        }
    }
}

#[test]
fn user_folders_and_files() {
    let dirs = UserDirs::under_home(&hooks_testing::workspace_formats(), Path::new("/home/u"));
    assert_eq!(
        user_folders(&dirs),
        [
            "/home/u/.cursor",
            "/home/u/.chrys",
            "/home/u/.chrys/hooks",
            "/home/u/.claude",
            "/home/u/.claude/agents",
            "/home/u/.claude/skills",
            "/home/u/.claude/commands"
        ]
        .map(PathBuf::from)
    );
    for folder in ["/home/u/.cursor", "/home/u/.claude", "/home/u/.chrys", "/home/u/.chrys/hooks"] {
        assert_eq!(user_touch(&dirs, Path::new(folder)), Some(Touch::Folder), "{folder}");
    }
    for file in [
        "/home/u/.cursor/hooks.json",
        "/home/u/.claude/settings.json",
        "/home/u/.chrys/hooks/hooks.yaml",
        "/home/u/.chrys/hooks/hooks.yml",
        "/home/u/.chrys/hooks/hooks.json",
        // Chrys's opt-in document: a policy-only file, watched like a hook file.
        "/home/u/.chrys/settings.yaml",
    ] {
        assert_eq!(user_touch(&dirs, Path::new(file)), Some(Touch::HookFile), "{file}");
    }
    for other in [
        "/home/u",
        "/home/u/.bashrc",
        // The user scope reads neither the local settings nor a Chrys file outside `hooks/`.
        "/home/u/.claude/settings.local.json",
        "/home/u/.chrys/hooks.yaml",
        "/home/u/.cursor/hooks.json.tmp",
        "/home/u/.cursor/x/hooks.json",
        "/home/v/.cursor/hooks.json",
    ] {
        assert_eq!(user_touch(&dirs, Path::new(other)), None, "{other}");
    }
}

#[test]
fn relative_and_missing_user_directories_are_left_out() {
    let dirs = UserDirs::new().with(hooks_testing::ids::CHRYS, "relative/chrys").with(CURSOR, "/c");
    assert_eq!(user_folders(&dirs), [PathBuf::from("/c")]);
    assert_eq!(user_touch(&dirs, Path::new("relative/chrys/hooks/hooks.yaml")), None);
    assert_eq!(user_touch(&dirs, Path::new("/c/hooks.json")), Some(Touch::HookFile));
}

#[test]
fn the_user_files_are_the_ones_hooks_sources_reads() {
    // Every file `user_files` returns is one the filter reacts to, inside a watched folder.
    for rel in [".cursor/hooks.json", ".claude/settings.json", ".chrys/hooks/hooks.yml"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let dirs = UserDirs::under_home(&hooks_testing::workspace_formats(), dir.path());
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, "{}").expect("write");
        let found = hooks_sources::user_files(&hooks_testing::workspace_formats(), &dirs);
        assert_eq!(found.len(), 1, "{rel}: {found:?}");
        assert_eq!(found[0].1, path, "{rel}");
        assert_eq!(user_touch(&dirs, &path), Some(Touch::HookFile), "{rel}");
        assert!(user_folders(&dirs).iter().any(|f| Some(f.as_path()) == path.parent()), "{rel}");
    }
}

#[test]
fn managed_folders_and_files() {
    let dirs = ManagedDirs::new().with(CURSOR, "/etc/cursor").with(CLAUDE, "/etc/claude-code");
    assert_eq!(
        managed_folders(&dirs),
        ["/etc/cursor", "/etc/claude-code", "/etc/claude-code/managed-settings.d"]
            .map(PathBuf::from)
    );
    for folder in managed_folders(&dirs) {
        assert_eq!(managed_touch(&dirs, &folder), Some(Touch::Folder), "{folder:?}");
    }
    for file in [
        "/etc/cursor/hooks.json",
        "/etc/claude-code/managed-settings.json",
        "/etc/claude-code/managed-settings.d/10-deny.json",
        "/etc/claude-code/managed-settings.d/z.json",
    ] {
        assert_eq!(managed_touch(&dirs, Path::new(file)), Some(Touch::HookFile), "{file}");
    }
    for other in [
        "/etc",
        "/etc/passwd",
        "/etc/cursor/settings.json",
        "/etc/claude-code/settings.json",
        "/etc/claude-code/managed-settings.d/.hidden.json",
        "/etc/claude-code/managed-settings.d/notes.txt",
        "/etc/claude-code/managed-settings.d/sub/a.json",
        "/etc/claude-code/hooks.json",
    ] {
        assert_eq!(managed_touch(&dirs, Path::new(other)), None, "{other}");
    }
    let relative = ManagedDirs::new().with(CURSOR, "cursor");
    assert!(managed_folders(&relative).is_empty());
    assert_eq!(managed_touch(&relative, Path::new("cursor/hooks.json")), None);
}

#[test]
fn the_managed_files_are_the_ones_hooks_sources_reads() {
    for rel in [
        "cursor/hooks.json",
        "claude-code/managed-settings.json",
        "claude-code/managed-settings.d/50-x.json",
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let dirs = ManagedDirs::new()
            .with(CURSOR, dir.path().join("cursor"))
            .with(CLAUDE, dir.path().join("claude-code"));
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, "{}").expect("write");
        let found = hooks_sources::managed_files(&hooks_testing::workspace_formats(), &dirs);
        assert_eq!(found.len(), 1, "{rel}: {found:?}");
        assert_eq!(found[0].1, path, "{rel}");
        assert_eq!(managed_touch(&dirs, &path), Some(Touch::HookFile), "{rel}");
        assert!(managed_folders(&dirs).iter().any(|f| Some(f.as_path()) == path.parent()), "{rel}");
    }
}
