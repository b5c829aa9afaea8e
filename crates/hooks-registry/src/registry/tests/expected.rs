//! Tests for the expected files across publishes: a protected set resolves only the places
//! no earlier set resolved (a new root's, and those something changed at), and what it holds
//! is what resolving every place afresh gives.

use std::path::PathBuf;

use hooks_schema::{AbsPathBuf, HookSourceId};

use crate::{
    ExpectedFiles, HookRegistry, ProtectedPath, ProtectedPattern, RegistrySnapshot, UserPaths,
    protect::Resolver,
    test_support::{abs, active, defs, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-expected";

fn root(name: &str) -> AbsPathBuf {
    abs(format!("{P}/{name}"))
}

fn expected(fixed_name: &str) -> ExpectedFiles {
    ExpectedFiles {
        under_roots: vec![
            (hooks_testing::kinds::PROJECT_CURSOR_FILE, ".cursor/hooks.json".into()),
            (hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, ".claude/settings.json".into()),
        ],
        fixed: vec![(
            hooks_testing::kinds::USER_CURSOR_FILE,
            PathBuf::from(format!("{P}/home/{fixed_name}")),
        )],
        folders: Vec::new(),
        folders_under_roots: vec![(
            hooks_testing::kinds::PROJECT_CURSOR_FILE,
            ".github/hooks".into(),
        )],
        nested_folders: Vec::new(),
        nested_files: Vec::new(),
        linked: Vec::new(),
    }
}

/// What resolving every place of `r`'s current roots afresh gives, as the snapshot lists
/// expected files (no source lists any of these paths in these tests).
fn afresh(
    snap: &RegistrySnapshot,
    e: &ExpectedFiles,
) -> (Vec<ProtectedPath>, Vec<ProtectedPattern>) {
    e.protect_with(snap.project_roots(), &mut Resolver::default())
}

/// The expected entries of `snap` (those no source names) and its patterns.
fn listed(
    snap: &RegistrySnapshot,
    sources: &[HookSourceId],
) -> (Vec<ProtectedPath>, Vec<ProtectedPattern>) {
    let p = snap.protected_paths();
    let named = |s: &HookSourceId| sources.contains(s);
    (
        p.iter().filter(|x| !named(&x.source)).cloned().collect(),
        p.patterns().iter().filter(|x| !named(&x.source)).cloned().collect(),
    )
}

#[test]
fn a_protected_set_resolves_only_a_new_roots_place_and_the_places_something_changed_at() {
    let mut r = HookRegistry::new();
    let e = expected("hooks.json");
    r.set_expected_files(e.clone());
    r.add_project_root(root("a"));
    r.add_project_root(root("b"));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 3, "a, b and outside every project");
    assert_eq!(listed(&snap, &[]), afresh(&snap, &e));

    // A new root: only its place.
    r.add_project_root(root("c"));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 1);
    assert_eq!(listed(&snap, &[]), afresh(&snap, &e));

    // A project file loaded under `a`: only `a`.
    let cursor_a =
        sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, format!("{P}/a/.cursor/hooks.json"));
    r.upsert_source(update(&cursor_a, ok(defs(&["x"])), Some(&root("a")), active()));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 1);
    assert!(
        snap.protected_paths().contains(&PathBuf::from(format!("{P}/a/.claude/settings.json")))
    );

    // A user file: only outside every project.
    let user =
        sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, format!("{P}/home/.claude/settings.json"));
    r.upsert_source(update(&user, ok(defs(&["u"])), None, active()));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 1);

    // A root withdrawn: nothing to resolve, and its files are no longer expected.
    r.remove_project_root(&root("b"));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 0);
    assert!(!snap.protected_paths().contains(&PathBuf::from(format!("{P}/b/.cursor/hooks.json"))));
    let sources = [cursor_a.clone(), user.clone()];
    let (paths, patterns) = listed(&snap, &sources);
    let (want_paths, want_patterns) = afresh(&snap, &e);
    // The file `a`'s source names is listed as that source's, not as an expected one.
    let want_paths: Vec<ProtectedPath> =
        want_paths.into_iter().filter(|p| p.path != cursor_a.path).collect();
    assert_eq!((paths, patterns), (want_paths, want_patterns));

    // Where the loader found the file: only that place.
    r.set_found_paths(&cursor_a, Some(&root("a")), vec![abs(format!("{P}/a/.cursor/alt.json"))]);
    assert_eq!(r.snapshot().protected_paths().places_resolved(), 1);

    // The source removed: its place again.
    r.remove_source(&cursor_a);
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 1);
    assert_eq!(listed(&snap, std::slice::from_ref(&user)), afresh(&snap, &e));

    // Other expected files, or other user directories: every place.
    let e = expected("other.json");
    r.set_expected_files(e.clone());
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 3, "a, c and outside every project");
    assert_eq!(listed(&snap, std::slice::from_ref(&user)), afresh(&snap, &e));
    r.set_user_paths(UserPaths { home: Some(root("home")), ..UserPaths::default() });
    assert_eq!(r.snapshot().protected_paths().places_resolved(), 3);
}

#[test]
fn a_set_never_read_leaves_its_places_to_the_next_set() {
    let mut r = HookRegistry::new();
    r.set_expected_files(expected("hooks.json"));
    r.add_project_root(root("a"));
    let unread = r.snapshot();
    r.add_project_root(root("b"));
    let snap = r.snapshot();
    assert_eq!(snap.protected_paths().places_resolved(), 3, "nothing was resolved before");
    assert_eq!(unread.protected_paths().places_resolved(), 0, "the older set shares a and outside");
}

/// The folders of a linked folder's patterns in `snap`, as `(folder, tail)`.
fn linked_in(snap: &RegistrySnapshot) -> Vec<String> {
    let mut out: Vec<String> = snap
        .protected_paths()
        .patterns()
        .iter()
        .filter(|p| p.source.kind == hooks_testing::kinds::USER_CURSOR_FILE)
        .map(|p| p.scope.as_path().display().to_string())
        .collect();
    out.sort();
    out
}

/// A folder an agent loads in place of an entry of its own folder (a linked extension) is
/// protected whole, unless it is part of a project (it holds a project root or lies under
/// one) or holds its holder (the agent's folder): then only its parts. A relative one is
/// placed under every root. Whether it is part of a project is decided again when roots come
/// and go.
#[test]
fn a_linked_folder_is_protected_whole_unless_it_is_part_of_a_project_or_holds_its_holder() {
    let kind = hooks_testing::kinds::USER_CURSOR_FILE;
    let link = |folder: &str, parts: &[&str]| crate::LinkedFolder {
        kind,
        folder: PathBuf::from(folder),
        holder: Some(PathBuf::from(format!("{P}/home/.agent"))),
        parts: parts.iter().map(PathBuf::from).collect(),
    };
    let parts = ["hooks", "manifest.json"];
    let e = ExpectedFiles {
        linked: vec![
            link(&format!("{P}/src/ext"), &parts),
            link(&format!("{P}/work"), &parts),
            link(&format!("{P}/home"), &parts),
            link(&format!("{P}/work/no-parts"), &[]),
            link(&format!("{P}/work/repo/packages/ext"), &parts),
            link("rel-ext", &parts),
        ],
        ..ExpectedFiles::default()
    };
    let mut r = HookRegistry::new();
    r.set_expected_files(e.clone());
    let snap = r.snapshot();
    assert_eq!(
        linked_in(&snap),
        [
            format!("{P}/home/hooks"),
            format!("{P}/home/manifest.json"),
            format!("{P}/src/ext"),
            format!("{P}/work"),
            format!("{P}/work/no-parts"),
            format!("{P}/work/repo/packages/ext"),
        ],
        "no root: only the folder holding the agent's own is protected in parts"
    );
    assert_eq!(listed(&snap, &[]), afresh(&snap, &e));
    // A project under `work` (`work` holds it) and holding `packages/ext` and the relative
    // folder (extensions developed in the repository): each in parts; without parts declared,
    // `no-parts` is whole all the same.
    r.add_project_root(root("work/repo"));
    let snap = r.snapshot();
    assert_eq!(
        linked_in(&snap),
        [
            format!("{P}/home/hooks"),
            format!("{P}/home/manifest.json"),
            format!("{P}/src/ext"),
            format!("{P}/work/hooks"),
            format!("{P}/work/manifest.json"),
            format!("{P}/work/no-parts"),
            format!("{P}/work/repo/packages/ext/hooks"),
            format!("{P}/work/repo/packages/ext/manifest.json"),
            format!("{P}/work/repo/rel-ext/hooks"),
            format!("{P}/work/repo/rel-ext/manifest.json"),
        ]
    );
    assert_eq!(listed(&snap, &[]), afresh(&snap, &e));
    // The root gone, `work` is whole again.
    r.remove_project_root(&root("work/repo"));
    assert!(linked_in(&r.snapshot()).contains(&format!("{P}/work")));
}
