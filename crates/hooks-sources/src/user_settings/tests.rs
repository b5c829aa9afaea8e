//! Tests for reading the user's Chrys settings document from disk.

use std::fs;

use hooks_schema::Severity;

use crate::{MAX_SOURCE_BYTES, UserDirs, read_user_settings, user_settings_path};

fn dirs(home: &std::path::Path) -> UserDirs {
    UserDirs::under_home(home)
}

fn write(home: &std::path::Path, text: &str) -> std::path::PathBuf {
    let path = home.join(".chrys/settings.yaml");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_path_is_in_the_chrys_config_dir() {
    let home = tempfile::tempdir().unwrap();
    assert_eq!(
        user_settings_path(&dirs(home.path())),
        Some(home.path().join(".chrys/settings.yaml"))
    );
    assert_eq!(user_settings_path(&UserDirs::default()), None);
}

#[test]
fn a_missing_file_or_dir_sets_nothing_and_says_nothing() {
    let home = tempfile::tempdir().unwrap();
    let s = read_user_settings(&dirs(home.path()));
    assert_eq!(s.project_hooks_enabled, None);
    assert!(s.diagnostics.is_empty());
    let s = read_user_settings(&UserDirs::default());
    assert_eq!(s.project_hooks_enabled, None);
    assert!(s.diagnostics.is_empty());
}

#[test]
fn both_spellings_are_read_from_the_file() {
    let home = tempfile::tempdir().unwrap();
    write(home.path(), "project:\n  hooks_enabled: true\n");
    assert_eq!(read_user_settings(&dirs(home.path())).project_hooks_enabled, Some(true));
    write(home.path(), "project.hooks_enabled: 'off'\n");
    assert_eq!(read_user_settings(&dirs(home.path())).project_hooks_enabled, Some(false));
}

#[test]
fn a_malformed_file_is_an_error_on_the_file_with_its_line() {
    let home = tempfile::tempdir().unwrap();
    let path = write(home.path(), "project:\n  hooks_enabled: {true\n");
    let s = read_user_settings(&dirs(home.path()));
    assert_eq!(s.project_hooks_enabled, None);
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
    let s = read_user_settings(&dirs(home.path()));
    assert_eq!(s.project_hooks_enabled, None);
    assert_eq!(s.diagnostics.len(), 1);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("not_a_file"));
    assert!(s.diagnostics[0].message.contains("a directory"), "{}", s.diagnostics[0].message);

    fs::remove_dir(&path).unwrap();
    let f = fs::File::create(&path).unwrap();
    f.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    let s = read_user_settings(&dirs(home.path()));
    assert_eq!(s.project_hooks_enabled, None);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("file_too_large"));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(".chrys/settings.yaml");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    nix_mkfifo(&path);
    let s = read_user_settings(&dirs(home.path()));
    assert_eq!(s.project_hooks_enabled, None);
    assert_eq!(s.diagnostics[0].code.as_deref(), Some("not_a_file"));
}

#[cfg(unix)]
fn nix_mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}
