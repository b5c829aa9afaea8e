//! Tests of a registry that computes no protection (`HookRegistry::set_protection`): the
//! same bindings, the hook files alone protected, no file read, and every source protected
//! once it is turned on, after the pin too.

use std::path::Path;

use super::session_def;
use crate::{
    HookRegistry, canonicalize,
    test_support::{active, ok, sid, update},
};
use hooks_trust::CommandExecutionPosture;

/// A project source whose hook runs a script and git, and a user source whose hook names a
/// script relative to the session's directory (which the registry places in the user's
/// folder): on and off give the same bindings.
#[test]
fn without_protection_the_bindings_are_the_same_and_only_the_hook_files_are_protected() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(root.as_path().join(".claude/hooks")).unwrap();
    std::fs::write(
        root.as_path().join(".claude/hooks/gate.sh"),
        ". \"$(dirname \"$0\")/lib.sh\"\n",
    )
    .unwrap();
    let project = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        root.as_path().join(".claude/settings.json"),
    );
    let user_dir = root.as_path().join("home/.claude");
    let user = sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, user_dir.join("settings.json"));
    let build = |protection: bool| {
        let mut r = HookRegistry::new();
        r.batch(|r| {
            r.set_protection(protection);
            r.upsert_source(update(
                &project,
                ok(vec![
                    session_def("gate", 0, r#""$PROJECT_DIR"/.claude/hooks/gate.sh"#),
                    session_def("git", 1, "git diff --quiet || exit 2"),
                ]),
                Some(&root),
                active(),
            ));
            r.upsert_source(update(
                &user,
                ok(vec![session_def("mine", 0, "sh hooks/m.sh")]),
                None,
                active(),
            ));
        });
        r
    };
    let (on, mut off) = (build(true), build(false));
    let (a, b) = (on.snapshot(), off.snapshot());
    assert!(a.protection_computed());
    assert!(!b.protection_computed());
    assert_eq!(a.bindings(), b.bindings(), "the same bindings, the user's script placed alike");
    let mine = b.bindings().into_iter().find(|x| x.definition.id.as_str() == "mine").unwrap();
    assert_eq!(mine.definition.cwd.as_deref(), Some(user_dir.to_str().unwrap()));
    // On: the scripts, what they source, git's files; off: the two hook files alone.
    let gate = root.as_path().join(".claude/hooks/gate.sh");
    for path in
        [&gate, &root.as_path().join(".claude/hooks/lib.sh"), &root.as_path().join(".git/config")]
    {
        assert!(a.protected_paths().contains(path), "{}", path.display());
        assert!(!b.protected_paths().contains(path), "{}", path.display());
    }
    let mut files: Vec<&Path> = b.protected_paths().iter().map(|p| p.path.as_path()).collect();
    files.sort();
    assert_eq!(files, [project.path.as_path(), user.path.as_path()]);
    assert!(b.protected_paths().patterns().is_empty());
    // Turned on after the pin: every source protected, the bindings as pinned.
    off.pin(CommandExecutionPosture::AutoApproves);
    let pinned = off.snapshot().bindings();
    off.set_protection(true);
    let c = off.snapshot();
    assert!(c.protection_computed());
    assert_eq!(c.bindings(), pinned);
    for path in [&gate, &root.as_path().join(".git/config")] {
        assert!(c.protected_paths().contains(path), "{}", path.display());
    }
    assert!(c.protected_paths().patterns().iter().any(|p| p.tail == Path::new("hooks/m.sh")));
}
