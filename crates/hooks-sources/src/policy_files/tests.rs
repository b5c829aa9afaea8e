//! Tests for reading the user's policy-only files from disk (Chrys's `settings.yaml`).

use std::fs;

use hooks_schema::{FormatSet, Severity};

use crate::{MAX_SOURCE_BYTES, UserDirs, read_user_policy};

fn f() -> FormatSet {
    hooks_testing::workspace_formats()
}

fn dirs(home: &std::path::Path) -> UserDirs {
    UserDirs::under_home(&f(), home)
}

fn write(home: &std::path::Path, text: &str) -> std::path::PathBuf {
    let path = home.join(".chrys/settings.yaml");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_missing_file_or_dir_sets_nothing_and_says_nothing() {
    let home = tempfile::tempdir().unwrap();
    let s = read_user_policy(&f(), &dirs(home.path()));
    assert_eq!(s.opt_in, None);
    assert!(s.diagnostics.is_empty());
    let s = read_user_policy(&f(), &UserDirs::default());
    assert_eq!(s.opt_in, None);
    assert!(s.diagnostics.is_empty());
}

#[test]
fn both_spellings_are_read_from_the_file() {
    let home = tempfile::tempdir().unwrap();
    write(home.path(), "project:\n  hooks_enabled: true\n");
    assert_eq!(read_user_policy(&f(), &dirs(home.path())).opt_in, Some(true));
    write(home.path(), "project.hooks_enabled: 'off'\n");
    assert_eq!(read_user_policy(&f(), &dirs(home.path())).opt_in, Some(false));
}

#[test]
fn a_malformed_file_is_an_error_on_the_file_with_its_line() {
    let home = tempfile::tempdir().unwrap();
    let path = write(home.path(), "project:\n  hooks_enabled: {true\n");
    let s = read_user_policy(&f(), &dirs(home.path()));
    assert_eq!(s.opt_in, None);
    let [d] = s.diagnostics.as_slice() else { panic!("{:?}", s.diagnostics) };
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.source.as_deref(), Some(path.as_path()));
    assert!(d.line.is_some(), "{d:?}");
}

#[test]
fn a_directory_or_an_oversized_file_is_an_error_not_a_read() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(".chrys/settings.yaml");
    fs::create_dir_all(&path).unwrap();
    let s = read_user_policy(&f(), &dirs(home.path()));
    assert_eq!(s.opt_in, None);
    assert_eq!(s.diagnostics.len(), 1);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("not_a_file"));
    assert!(s.diagnostics[0].message.contains("a directory"), "{}", s.diagnostics[0].message);

    fs::remove_dir(&path).unwrap();
    let file = fs::File::create(&path).unwrap();
    file.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    let s = read_user_policy(&f(), &dirs(home.path()));
    assert_eq!(s.opt_in, None);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("file_too_large"));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(".chrys/settings.yaml");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    nix_mkfifo(&path);
    let s = read_user_policy(&f(), &dirs(home.path()));
    assert_eq!(s.opt_in, None);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("not_a_file"));
}

#[cfg(unix)]
fn nix_mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}
