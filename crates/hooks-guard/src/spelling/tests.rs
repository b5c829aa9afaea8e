//! Tests for the spellings a file tool reads differently: NUL, `file:` URLs, `~`, and names
//! of the opening process.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::{
    GuardError,
    spelling::{is_process_relative, process_relative_link, spellings},
    test_tree::{Tree, symlink},
};

#[test]
fn a_nul_byte_is_an_error_even_inside_a_file_url() {
    let err = spellings(Path::new("/p/.cursor/hooks.json\0x"), None).expect_err("NUL");
    assert!(matches!(err, GuardError::NulByte { .. }), "{err:?}");
    let err = spellings(Path::new("file:///p/.cursor/hooks.json%00x"), None).expect_err("NUL");
    assert!(matches!(err, GuardError::NulByte { .. }), "{err:?}");
}

#[test]
fn a_local_file_url_is_read_as_its_decoded_path_too() {
    let cases = [
        ("file:///p/.cursor/hooks.json", "/p/.cursor/hooks.json"),
        ("FILE://localhost/p/a%20b/hooks.json", "/p/a b/hooks.json"),
        ("file:/p/%2Ecursor/hooks.json", "/p/.cursor/hooks.json"),
        ("file://", "/"),
    ];
    for (url, path) in cases {
        let got = spellings(Path::new(url), None).expect(url);
        assert_eq!(got, [PathBuf::from(url), PathBuf::from(path)], "{url}");
    }
}

#[test]
fn a_file_url_the_guard_cannot_read_is_refused() {
    for url in [
        "file://example.com/p/hooks.json",
        "file:relative/hooks.json",
        "file:///p/hooks.json?x",
        "file:///p/hooks.json#x",
        "file:///p/%zzhooks.json",
        "file:///p/%2",
    ] {
        let err = spellings(Path::new(url), None).expect_err(url);
        assert!(matches!(err, GuardError::UnsupportedUrl { .. }), "{url}: {err:?}");
    }
}

#[test]
fn a_tilde_is_the_home_and_the_literal_name() {
    let home = Path::new("/home/u");
    let got = spellings(Path::new("~/.claude/settings.json"), Some(home)).expect("home");
    assert_eq!(
        got,
        [PathBuf::from("~/.claude/settings.json"), PathBuf::from("/home/u/.claude/settings.json")]
    );
    assert_eq!(spellings(Path::new("~"), Some(home)).expect("home")[1], PathBuf::from("/home/u"));
    // Only a leading `~` is the home.
    assert_eq!(spellings(Path::new("a/~/b"), Some(home)).expect("plain").len(), 1);
}

#[test]
fn a_tilde_without_a_home_or_of_another_user_is_refused() {
    for (path, home) in [
        ("~/.claude/settings.json", None),
        ("~", None),
        ("~root/.claude/settings.json", Some("/h")),
    ] {
        let err = spellings(Path::new(path), home.map(Path::new)).expect_err(path);
        assert!(matches!(err, GuardError::HomeRelative { .. }), "{path}: {err:?}");
    }
}

#[test]
fn names_of_the_opening_process_are_process_relative() {
    let own = format!("/proc/{}/cwd/x", std::process::id());
    for path in [
        "/proc/self/cwd/.claude/settings.json",
        "/proc/self",
        "/proc/thread-self/cwd/x",
        "/dev/fd/3",
        "/dev/stdout",
        "/dev/stdin",
        "/dev/stderr",
        own.as_str(),
    ] {
        assert!(is_process_relative(Path::new(path)), "{path}");
    }
    for path in ["/proc/1/cwd/x", "/proc", "/dev/null", "/p/proc/self", "proc/self/x", "/"] {
        assert!(!is_process_relative(Path::new(path)), "{path}");
    }
}

#[test]
fn a_symlink_to_the_process_is_found_behind_a_chain_of_links() {
    let tree = Tree::new();
    symlink(Path::new("/proc/self/cwd"), &tree.cwd.join("here"));
    symlink(&tree.cwd.join("here"), &tree.cwd.join("chain"));
    symlink(Path::new("/proc"), &tree.cwd.join("procfs"));
    symlink(Path::new("/dev/fd/0"), &tree.cwd.join("stdin"));
    for (path, link) in [
        ("here/.claude/settings.json", tree.cwd.join("here")),
        ("chain/.claude/settings.json", tree.cwd.join("here")),
        // The kernel's own `/proc/self` link names the guard's pid.
        ("procfs/self/cwd/x", PathBuf::from("/proc/self")),
        ("stdin", tree.cwd.join("stdin")),
    ] {
        let path = tree.cwd.join(path);
        // The canonical reading the guard hands over makes no difference to what is found.
        let physical = nearest_canonical(&path);
        for trusted in [vec![], vec![physical.as_path()]] {
            let found = process_relative_link(&path, &trusted);
            assert_eq!(found.as_ref(), Some(&link), "{} {trusted:?}", path.display());
        }
    }
    for path in [tree.cwd.join("src/main.rs"), tree.at("link_proj/src/missing/x")] {
        let physical = nearest_canonical(&path);
        assert_eq!(process_relative_link(&path, &[]), None);
        assert_eq!(process_relative_link(&path, &[physical.as_path()]), None);
    }
}

/// A link to the process found behind a folder the canonical reading already went through:
/// the walk reads the links off that reading, not only the ones on it.
#[test]
fn a_canonical_reading_does_not_hide_a_link_beside_it() {
    let tree = Tree::new();
    symlink(Path::new("/proc/self/cwd"), &tree.cwd.join("here"));
    let path = tree.cwd.join("here/x");
    let cwd = nearest_canonical(&tree.cwd);
    assert_eq!(process_relative_link(&path, &[cwd.as_path()]), Some(tree.cwd.join("here")));
}

/// The canonical path of `path`, or of its nearest ancestor that exists.
fn nearest_canonical(path: &Path) -> PathBuf {
    path.ancestors()
        .find_map(|a| crate::resolve::canonicalize(a).ok())
        .expect("the root exists")
        .into_path_buf()
}

proptest! {
    #[test]
    fn spellings_never_panic_and_keep_the_path_as_written(text in "\\PC{0,40}") {
        if let Ok(found) = spellings(Path::new(&text), Some(Path::new("/h"))) {
            prop_assert_eq!(&found[0], Path::new(&text));
            prop_assert!(found.len() <= 2);
        }
    }
}
