//! Tests for the paths a found hook file is protected at, and the names that would replace
//! it as discovery records them.

use std::{fs, path::Path};

use hooks_schema::{AbsPathBuf, ExplicitScope, FileScope};

use crate::{ScopeDirs, find_files, found_paths, sources_for_hook_dirs};

fn canonical(path: &Path) -> AbsPathBuf {
    hooks_registry::canonicalize(path).unwrap()
}

fn under(dir: &AbsPathBuf, name: &str) -> AbsPathBuf {
    dir.join(Path::new(name)).unwrap()
}

fn touch(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, b"{}").unwrap();
}

#[test]
fn a_chrys_file_would_be_replaced_by_the_chrys_names_before_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let replaced = |name: &str| {
        let _ = fs::remove_dir_all(root.join(".chrys"));
        touch(&root.join(".chrys/hooks").join(name));
        let found = find_files(
            &hooks_testing::workspace_formats(),
            FileScope::Project,
            root,
            &ScopeDirs::new(),
        );
        found.into_iter().next().map(|f| f.replaced_by).unwrap_or_default()
    };
    assert_eq!(replaced("hooks.json"), ["hooks.yaml", "hooks.yml"]);
    assert_eq!(replaced("hooks.yml"), ["hooks.yaml"]);
    assert!(replaced("hooks.yaml").is_empty());
}

#[test]
fn an_explicit_file_would_be_replaced_by_the_candidates_before_it_in_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let formats = hooks_testing::workspace_formats();
    let rd = |dir: &Path, n: &str| {
        let _ = fs::remove_dir_all(dir);
        touch(&dir.join(n));
        let s = sources_for_hook_dirs(&formats, &[dir.to_path_buf()], ExplicitScope::RunDelivered);
        s[0].replaced_by.clone()
    };
    let hooks = tmp.path().join("x/hooks");
    let other = tmp.path().join("x/.cursor");
    assert_eq!(rd(&hooks, "settings.json"), ["hooks.yaml", "hooks.yml", "hooks.json"]);
    assert!(rd(&other, "hooks.json").is_empty());
    assert_eq!(rd(&other, "hooks.yml"), ["hooks.json", "hooks.yaml"]);
    let custom = other.join("custom.json");
    touch(&custom);
    let s = sources_for_hook_dirs(&formats, &[custom], ExplicitScope::RunDelivered);
    assert!(s[0].replaced_by.is_empty(), "a file named directly under another name");
}

#[test]
fn cursor_and_claude_files_would_be_replaced_by_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for rel in [".cursor/hooks.json", ".claude/settings.json", ".claude/settings.local.json"] {
        touch(&root.join(rel));
    }
    let found = find_files(
        &hooks_testing::workspace_formats(),
        FileScope::Project,
        root,
        &ScopeDirs::new(),
    );
    assert_eq!(found.len(), 3);
    assert!(found.iter().all(|f| f.replaced_by.is_empty()), "{found:?}");
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
    let paths = found_paths(&found, &[]);
    assert_eq!(paths, [canonical(&real).join(Path::new(".cursor/hooks.json")).unwrap()]);
}

#[test]
fn a_chrys_json_file_protects_the_yaml_names_that_would_replace_it_though_they_do_not_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".chrys/hooks");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("hooks.json"), "{}").unwrap();
    let folder = canonical(&dir);
    let paths = found_paths(&dir.join("hooks.json"), &["hooks.yaml", "hooks.yml"]);
    assert_eq!(
        paths,
        [under(&folder, "hooks.json"), under(&folder, "hooks.yaml"), under(&folder, "hooks.yml")]
    );
}

#[test]
fn a_relative_path_gives_nothing() {
    assert!(found_paths(Path::new("hooks/hooks.json"), &[]).is_empty());
}
