//! Tests for a root's presence and its nearest existing ancestor, on real files.

use std::fs;

use hooks_registry::canonicalize;

use super::{Presence, nearest_existing_ancestor, presence};

fn temp() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = canonicalize(dir.path()).expect("canonical").into_path_buf();
    (dir, base)
}

#[test]
fn a_directory_at_its_canonical_path_is_present() {
    let (_dir, base) = temp();
    let root = base.join("repo");
    fs::create_dir(&root).expect("mkdir");
    assert_eq!(presence(&root), Presence::Present);
}

#[test]
fn nothing_or_a_file_is_missing() {
    let (_dir, base) = temp();
    let root = base.join("repo");
    assert_eq!(presence(&root), Presence::Missing);
    fs::write(&root, "not a directory").expect("write");
    assert_eq!(presence(&root), Presence::Missing);
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_directory_is_elsewhere_and_a_dangling_one_is_missing() {
    let (_dir, base) = temp();
    let target = base.join("target");
    fs::create_dir(&target).expect("mkdir");
    let root = base.join("repo");
    std::os::unix::fs::symlink(&target, &root).expect("symlink");
    assert_eq!(presence(&root), Presence::Elsewhere(target.clone()));
    // A path through a linked parent is elsewhere too.
    fs::create_dir(target.join("sub")).expect("mkdir");
    assert_eq!(presence(&root.join("sub")), Presence::Elsewhere(target.join("sub")));
    fs::remove_dir_all(&target).expect("rm target");
    assert_eq!(presence(&root), Presence::Missing);
}

#[test]
fn the_nearest_existing_ancestor_skips_every_missing_level() {
    let (_dir, base) = temp();
    let root = base.join("a/b/c/repo");
    assert_eq!(nearest_existing_ancestor(&root), Some(base.clone()));
    fs::create_dir_all(base.join("a/b")).expect("mkdir");
    assert_eq!(nearest_existing_ancestor(&root), Some(base.join("a/b")));
    fs::create_dir_all(base.join("a/b/c")).expect("mkdir");
    assert_eq!(nearest_existing_ancestor(&root), Some(base.join("a/b/c")));
}

#[test]
fn a_file_in_the_way_is_not_an_ancestor() {
    let (_dir, base) = temp();
    fs::write(base.join("a"), "a file").expect("write");
    assert_eq!(nearest_existing_ancestor(&base.join("a/repo")), Some(base.clone()));
}

#[cfg(unix)]
#[test]
fn a_linked_ancestor_is_passed_over_for_the_real_directory_above_it() {
    let (_dir, base) = temp();
    fs::create_dir_all(base.join("elsewhere/b")).expect("mkdir");
    std::os::unix::fs::symlink(base.join("elsewhere"), base.join("a")).expect("symlink");
    assert_eq!(nearest_existing_ancestor(&base.join("a/b/repo")), Some(base.clone()));
}
