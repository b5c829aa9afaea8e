//! Tests for the paths a found hook file is protected at.

use std::{ffi::OsStr, fs, path::Path};

use hooks_schema::{AbsPathBuf, HookSourceKind as K};

use crate::{found_paths, shadowing_names};

fn canonical(path: &Path) -> AbsPathBuf {
    hooks_registry::canonicalize(path).unwrap()
}

fn under(dir: &AbsPathBuf, name: &str) -> AbsPathBuf {
    dir.join(Path::new(name)).unwrap()
}

#[test]
fn a_chrys_file_is_shadowed_by_the_chrys_names_before_it() {
    let dir = Path::new("/x/.chrys/hooks");
    let names = |n: &str| shadowing_names(hooks_format_chrys::PROJECT_FILE, dir, OsStr::new(n));
    assert_eq!(names("hooks.json"), ["hooks.yaml", "hooks.yml"]);
    assert_eq!(names("hooks.yml"), ["hooks.yaml"]);
    assert!(names("hooks.yaml").is_empty());
    assert_eq!(
        shadowing_names(hooks_format_chrys::USER_FILE, dir, OsStr::new("hooks.json")),
        ["hooks.yaml", "hooks.yml"]
    );
}

#[test]
fn an_explicit_file_is_shadowed_by_the_candidates_before_it_in_its_folder() {
    let hooks = Path::new("/x/hooks");
    let other = Path::new("/x/.cursor");
    let rd = |dir: &Path, n: &str| shadowing_names(K::RUN_DELIVERED, dir, OsStr::new(n));
    assert_eq!(rd(hooks, "settings.json"), ["hooks.yaml", "hooks.yml", "hooks.json"]);
    assert!(rd(other, "hooks.json").is_empty());
    assert_eq!(rd(other, "hooks.yml"), ["hooks.json", "hooks.yaml"]);
    assert!(rd(other, "custom.json").is_empty(), "a file named directly under another name");
}

#[test]
fn cursor_and_claude_files_have_no_shadowing_names() {
    for (kind, dir, name) in [
        (hooks_format_cursor::PROJECT_FILE, "/x/.cursor", "hooks.json"),
        (hooks_format_claude::PROJECT_SETTINGS, "/x/.claude", "settings.json"),
        (hooks_format_claude::PROJECT_LOCAL_SETTINGS, "/x/.claude", "settings.local.json"),
        (hooks_format_claude::USER_SETTINGS, "/home/.claude", "settings.json"),
    ] {
        assert!(shadowing_names(kind, Path::new(dir), OsStr::new(name)).is_empty(), "{kind:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_hook_file_is_protected_where_it_was_found_with_its_folder_resolved() {
    let tmp = tempfile::tempdir().unwrap();
    let base = canonical(tmp.path());
    let target = base.as_path().join("elsewhere/policy.json");
    fs::create_dir_all(target.parent().unwrap()).unwrap();
    fs::write(&target, "{}").unwrap();
    // The project is reached through a symlinked folder, and its hook file is a link.
    let real = base.as_path().join("real");
    fs::create_dir_all(real.join(".cursor")).unwrap();
    std::os::unix::fs::symlink(&real, base.as_path().join("alias")).unwrap();
    std::os::unix::fs::symlink(&target, real.join(".cursor/hooks.json")).unwrap();
    let found = base.as_path().join("alias/.cursor/hooks.json");
    let paths = found_paths(hooks_format_cursor::PROJECT_FILE, &found);
    assert_eq!(paths, [canonical(&real).join(Path::new(".cursor/hooks.json")).unwrap()]);
}

#[test]
fn a_chrys_json_file_protects_the_yaml_names_that_would_replace_it_though_they_do_not_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".chrys/hooks");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("hooks.json"), "{}").unwrap();
    let folder = canonical(&dir);
    let paths = found_paths(hooks_format_chrys::PROJECT_FILE, &dir.join("hooks.json"));
    assert_eq!(
        paths,
        [under(&folder, "hooks.json"), under(&folder, "hooks.yaml"), under(&folder, "hooks.yml")]
    );
}

#[test]
fn a_relative_path_gives_nothing() {
    assert!(found_paths(K::RUN_DELIVERED, Path::new("hooks/hooks.json")).is_empty());
}
