//! Reading, pinning and checking real project files through their formats.

use std::path::Path;

use hooks_testing::kinds::PROJECT_CURSOR_FILE;

use super::*;

#[test]
fn a_project_file_is_read_pinned_and_checked_through_its_format() {
    let dir = tempfile::tempdir().unwrap();
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(
        dir.path().join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"preToolUse":[{"command":"./deny.sh"}]}}"#,
    )
    .unwrap();
    let formats = crate::formats::workspace_formats();
    let files = files_to_trust(&formats, &root, &[]);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].kind, PROJECT_CURSOR_FILE);
    let user = user_paths(None, None);
    let pin = files[0].pin(&user, 0).unwrap().unwrap();
    assert!(pin.scripts.iter().any(|s| s.path.as_path().ends_with("deny.sh")));
    let mut store = StoreContents::default();
    let untrusted = Ok(store.clone());
    assert_eq!(files[0].status(&untrusted, &user, None), PinStatus::NotTrusted);
    store.insert(pin);
    assert!(files[0].status(&Ok(store), &user, None).is_trusted());
    assert_eq!(kind_named(&formats, "project_cursor_file"), Some(PROJECT_CURSOR_FILE));
    assert_eq!(kind_named(&formats, "nope"), None);
    let _ = Path::new("");
}

#[test]
fn a_file_that_does_not_parse_is_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(dir.path().join(".cursor/hooks.json"), "{ nope").unwrap();
    let formats = crate::formats::workspace_formats();
    let files = files_to_trust(&formats, &root, &[]);
    let user = user_paths(None, None);
    assert!(files[0].pin(&user, 0).unwrap().is_none());
    assert!(!files[0].status(&Ok(StoreContents::default()), &user, None).is_trusted());
}

#[test]
fn the_project_root_is_the_nearest_folder_with_git_else_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    assert_eq!(project_root_of(&sub), sub);
    std::fs::create_dir(dir.path().join("a/.git")).unwrap();
    assert_eq!(project_root_of(&sub), dir.path().join("a"));
    assert_eq!(project_root_of(&dir.path().join("a")), dir.path().join("a"));
}
