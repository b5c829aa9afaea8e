//! Tests for path resolution: lexical normalization, joining, both readings of `..`, and the
//! lenient walk for paths that do not exist.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::{
    GuardError,
    resolve::{normalize_lexically, resolve_edit_path},
    test_tree::{Tree, symlink},
};

#[test]
fn normalization_removes_dots_parents_and_trailing_separators() {
    let cases = [
        ("/a/./b/../c/", "/a/c"),
        ("/a//b///c", "/a/b/c"),
        ("/..", "/"),
        ("/../../a", "/a"),
        ("/a/b/../../..", "/"),
        ("a/../../b", "../b"),
        ("./a/.", "a"),
        ("", ""),
    ];
    for (input, expected) in cases {
        assert_eq!(normalize_lexically(Path::new(input)), PathBuf::from(expected), "{input}");
    }
}

proptest! {
    #[test]
    fn normalization_is_idempotent_and_leaves_no_dot_components(
        parts in prop::collection::vec(prop_oneof!["a", "b", r"\.", r"\.\.", "", "c.d"], 0..12),
        rooted in any::<bool>(),
    ) {
        let text = format!("{}{}", if rooted { "/" } else { "" }, parts.join("/"));
        let once = normalize_lexically(Path::new(&text));
        prop_assert_eq!(normalize_lexically(&once), once.clone());
        if rooted {
            prop_assert!(once.is_absolute());
            prop_assert!(once.components().all(|c| !matches!(
                c,
                std::path::Component::CurDir | std::path::Component::ParentDir
            )));
        }
    }
}

#[test]
fn a_relative_path_is_joined_to_the_session_cwd() {
    let tree = Tree::new();
    let readings = resolve_edit_path(Path::new("src/main.rs"), &tree.cwd, None).expect("resolves");
    assert_eq!(readings.len(), 1);
    assert_eq!(readings[0].path.as_path(), tree.cwd.join("src/main.rs"));
    assert!(readings[0].exists);
    assert!(readings[0].key.is_some() || cfg!(not(unix)));
}

#[test]
fn a_relative_path_with_a_relative_session_cwd_does_not_resolve() {
    let err = resolve_edit_path(Path::new("a.txt"), Path::new("proj"), None).expect_err("relative");
    assert_eq!(
        err,
        GuardError::RelativeSessionCwd { path: PathBuf::from("a.txt"), cwd: PathBuf::from("proj") }
    );
    assert_eq!(
        err.to_string(),
        "cannot resolve `a.txt`: the session working directory `proj` is not absolute"
    );
}

#[test]
fn an_absolute_path_ignores_a_relative_session_cwd() {
    let tree = Tree::new();
    let requested = tree.cwd.join("src/main.rs");
    let readings = resolve_edit_path(&requested, Path::new("relative"), None).expect("resolves");
    assert_eq!(readings[0].path.as_path(), requested);
}

#[test]
fn a_missing_path_resolves_through_its_nearest_existing_ancestor() {
    let tree = Tree::new();
    let readings = resolve_edit_path(&tree.at("link_proj/src/new/deeper/file.rs"), &tree.cwd, None)
        .expect("ok");
    assert_eq!(readings.len(), 1);
    assert_eq!(readings[0].path.as_path(), tree.cwd.join("src/new/deeper/file.rs"));
    assert!(!readings[0].exists);
    assert_eq!(readings[0].key, None);
}

#[test]
fn a_parent_after_a_symlink_is_read_both_ways() {
    let tree = Tree::new();
    // Lexically `link_cursor/..` is the root; the operating system reads it as `proj`.
    let readings =
        resolve_edit_path(&tree.at("link_cursor/../.cursor/hooks.json"), &tree.cwd, None)
            .expect("ok");
    let paths: Vec<&Path> = readings.iter().map(|r| r.path.as_path()).collect();
    assert_eq!(paths, [tree.at(".cursor/hooks.json"), tree.at("proj/.cursor/hooks.json")]);
    assert!(!readings[0].exists);
    assert!(readings[1].exists);
}

#[test]
fn a_parent_without_symlinks_reads_once() {
    let tree = Tree::new();
    let readings = resolve_edit_path(Path::new("src/../src/main.rs"), &tree.cwd, None).expect("ok");
    assert_eq!(readings.len(), 1);
    assert_eq!(readings[0].path.as_path(), tree.cwd.join("src/main.rs"));
}

#[test]
fn a_dangling_symlink_resolves_to_its_target() {
    let tree = Tree::new();
    symlink(&tree.cwd.join("src/not-yet.rs"), &tree.cwd.join("dangling"));
    let readings = resolve_edit_path(Path::new("dangling"), &tree.cwd, None).expect("ok");
    assert_eq!(readings[0].path.as_path(), tree.cwd.join("src/not-yet.rs"));
    // Relative targets are read from the link's folder.
    symlink(Path::new("../hooks/new.sh"), &tree.cwd.join("src/rel"));
    let readings = resolve_edit_path(Path::new("src/rel"), &tree.cwd, None).expect("ok");
    assert_eq!(readings[0].path.as_path(), tree.cwd.join("hooks/new.sh"));
}

#[test]
fn a_symlink_loop_stops_and_resolves_lexically() {
    let tree = Tree::new();
    symlink(&tree.cwd.join("loop-b"), &tree.cwd.join("loop-a"));
    symlink(&tree.cwd.join("loop-a"), &tree.cwd.join("loop-b"));
    let readings = resolve_edit_path(Path::new("loop-a"), &tree.cwd, None).expect("ok");
    assert!(!readings[0].exists);
    let landed = readings[0].path.as_path();
    assert!(landed == tree.cwd.join("loop-a") || landed == tree.cwd.join("loop-b"), "{landed:?}");
}

#[test]
fn a_missing_folder_cancelled_by_a_parent_is_read_physically() {
    let tree = Tree::new();
    // `zz` does not exist; once created, `zz/..` is the root again, and `link_cursor/..` is
    // the parent of the link's target.
    let requested = tree.at("zz/../link_cursor/../.cursor/hooks.json");
    let readings = resolve_edit_path(&requested, &tree.cwd, None).expect("ok");
    let paths: Vec<&Path> = readings.iter().map(|r| r.path.as_path()).collect();
    assert_eq!(paths, [tree.at(".cursor/hooks.json"), tree.at("proj/.cursor/hooks.json")]);
    assert!(!readings[1].exists, "the operating system cannot open it before `zz` exists");
}

#[test]
fn a_dangling_symlink_behind_a_parent_is_followed_physically() {
    let tree = Tree::new();
    symlink(&tree.cwd.join("hooks/later.sh"), &tree.cwd.join("src/dangling"));
    let readings = resolve_edit_path(Path::new("src/zz/../dangling"), &tree.cwd, None).expect("ok");
    let paths: Vec<&Path> = readings.iter().map(|r| r.path.as_path()).collect();
    assert_eq!(paths, [tree.cwd.join("hooks/later.sh")]);
}

/// The per-prefix reading the physical walk replaced for paths without `..`: the longest
/// prefix that canonicalizes, then a dangling link in the first missing component followed,
/// else the rest appended as written.
fn per_prefix_reading(path: &Path) -> PathBuf {
    let components: Vec<std::path::Component<'_>> = path.components().collect();
    for cut in (1..components.len()).rev() {
        let prefix: PathBuf = components.iter().take(cut).collect();
        let Ok(base) = crate::resolve::canonicalize(&prefix) else { continue };
        let mut rest = components.iter().skip(cut);
        let mut joined = base.into_path_buf();
        if let Some(first) = rest.next() {
            let candidate = joined.join(first);
            if std::fs::symlink_metadata(&candidate).is_ok_and(|m| m.file_type().is_symlink())
                && let Ok(target) = std::fs::read_link(&candidate)
            {
                let mut followed = joined.join(target);
                followed.extend(rest);
                return resolve_edit_path(&followed, Path::new("/"), None).expect("ok")[0]
                    .path
                    .as_path()
                    .to_path_buf();
            }
            joined = candidate;
        }
        joined.extend(rest);
        return normalize_lexically(&joined);
    }
    normalize_lexically(path)
}

/// A missing path without `..` reads as the per-prefix walk read it: under a symlinked
/// folder, through a dangling link, below a file, below a missing folder, at any depth.
#[test]
fn a_missing_path_reads_as_the_per_prefix_walk_read_it() {
    let tree = Tree::new();
    symlink(&tree.at("proj/nowhere/file.sh"), &tree.at("proj/dangling"));
    let cases = [
        "link_proj/src/new/file.rs",
        "link_proj/src/new/deeper/still/file.rs",
        "proj/src/newfile.rs",
        "proj/src/main.rs/below/a/file",
        "proj/dangling",
        "proj/dangling/below",
        "link_proj/dangling",
        "missing/entirely/x",
    ];
    for case in cases {
        let path = tree.at(case);
        let readings = resolve_edit_path(&path, &tree.cwd, None).expect("ok");
        assert_eq!(readings.len(), 1, "{case}");
        assert!(!readings[0].exists, "{case}");
        assert_eq!(readings[0].path.as_path(), per_prefix_reading(&path), "{case}");
    }
}
