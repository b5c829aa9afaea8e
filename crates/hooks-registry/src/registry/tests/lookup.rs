//! Tests for what a lookup hands out: one list per place and binding index, merged on the
//! first lookup there and shared by every later one (`specs/registry.md`, "Lookups").

use std::sync::Arc;

use hooks_schema::{AbsPathBuf, HookSourceId, HookSourceKind as K, ParsedSource, PolicySwitch};
use hooks_schema::{SourcePolicy, SwitchRule};

use crate::{
    HookRegistry,
    test_support::{abs, active, defs, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-lookup";

fn project(root: &AbsPathBuf) -> HookSourceId {
    sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"))
}

/// Roots `a` (two bindings) and `b` (one), a bare root `bare`, and one explicit source.
fn world() -> (HookRegistry, AbsPathBuf, AbsPathBuf, AbsPathBuf) {
    let mut r = HookRegistry::new();
    let (a, b, bare) = (abs(format!("{P}/a")), abs(format!("{P}/b")), abs(format!("{P}/bare")));
    r.upsert_source(update(&project(&a), ok(defs(&["a1", "a2"])), Some(&a), active()));
    r.upsert_source(update(&project(&b), ok(defs(&["b1"])), Some(&b), active()));
    r.add_project_root(bare.clone());
    let run = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    r.upsert_source(update(&run, ok(defs(&["run"])), None, active()));
    (r, a, b, bare)
}

#[test]
fn lookups_under_one_root_share_one_list_merged_on_the_first() {
    let (r, a, b, _) = world();
    let snap = r.snapshot();
    assert_eq!(snap.bindings.merged_places(), 0, "nothing is merged before a lookup");

    let first = snap.bindings_for_canonical(&a.as_path().join("src/deep"));
    assert_eq!(names(&first), ["run", "a1", "a2"]);
    assert_eq!(snap.bindings.merged_places(), 1);
    for cwd in [a.as_path().to_path_buf(), a.as_path().join("src")] {
        let again = snap.bindings_for_canonical(&cwd);
        assert!(Arc::ptr_eq(&first, &again), "the same list, not a copy: {cwd:?}");
    }
    assert!(Arc::ptr_eq(&first, &snap.scope_for(a.as_path()).bindings));
    assert_eq!(snap.bindings.merged_places(), 1, "one list for every place under the root");

    let other = snap.bindings_for_canonical(b.as_path());
    assert_eq!(names(&other), ["run", "b1"]);
    assert!(!Arc::ptr_eq(&first, &other));
    assert_eq!(snap.bindings.merged_places(), 2);
}

#[test]
fn outside_every_project_and_under_a_root_without_bindings_one_global_list_is_shared() {
    let (r, _, _, bare) = world();
    let snap = r.snapshot();
    let outside = snap.bindings_for_canonical(&std::path::Path::new(P).join("elsewhere"));
    assert_eq!(names(&outside), ["run"]);
    let under_bare = snap.bindings_for_canonical(&bare.as_path().join("x"));
    let global = snap.global_bindings();
    assert!(Arc::ptr_eq(&outside, &under_bare) && Arc::ptr_eq(&outside, &global));
    assert_eq!(snap.bindings.merged_places(), 1);
}

#[test]
fn a_change_gives_a_new_list_and_the_old_snapshot_keeps_its_own() {
    let (mut r, a, _, _) = world();
    let before = r.snapshot();
    let old = before.bindings_for_canonical(a.as_path());
    r.upsert_source(update(&project(&a), ok(defs(&["a1", "a3"])), Some(&a), active()));
    let now = r.snapshot().bindings_for_canonical(a.as_path());
    assert_eq!(names(&now), ["run", "a1", "a3"]);
    assert_eq!(names(&old), ["run", "a1", "a2"]);
    assert_eq!(names(&before.bindings_for_canonical(a.as_path())), ["run", "a1", "a2"]);

    // A publish that keeps the binding index (a new root's announcement moves it; a trust
    // decision that changes nothing does not publish; the expected files do) keeps the lists.
    let kept = r.snapshot();
    let list = kept.bindings_for_canonical(a.as_path());
    let user_file = (hooks_testing::kinds::USER_CURSOR_FILE, format!("{P}/u/hooks.json").into());
    r.set_expected_files(crate::ExpectedFiles { fixed: vec![user_file], ..Default::default() });
    let later = r.snapshot();
    assert!(later.generation() > kept.generation());
    assert!(
        Arc::ptr_eq(&list, &later.bindings_for_canonical(a.as_path())),
        "kept across generations"
    );
}

#[test]
fn a_root_whose_policy_cuts_the_global_bindings_gets_the_list_of_its_own_variant() {
    let (mut r, a, b, bare) = world();
    let user = sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, format!("{P}/home/settings.json"));
    r.upsert_source(update(&user, ok(defs(&["u"])), None, active()));
    // `bare` gets a Claude project file with no hooks that turns hooks off there.
    let off = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        bare.as_path().join(".claude/settings.json"),
    );
    let switch = PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false };
    let policy = SourcePolicy { switches: vec![switch], ..SourcePolicy::default() };
    let parsed = Ok(ParsedSource { policy, ..ParsedSource::default() });
    r.upsert_source(update(&off, parsed, Some(&bare), active()));
    let snap = r.snapshot();
    let outside = snap.bindings_for_canonical(&std::path::Path::new(P).join("elsewhere"));
    let under_bare = snap.bindings_for_canonical(bare.as_path());
    assert_eq!(names(&outside), ["run", "u"]);
    assert_eq!(names(&under_bare), ["run"], "the user's Claude hooks are off under `bare`");
    assert!(!Arc::ptr_eq(&outside, &under_bare));
    assert_eq!(names(&snap.bindings_for_canonical(a.as_path())), ["run", "a1", "a2", "u"]);
    assert_eq!(names(&snap.bindings_for_canonical(b.as_path())), ["run", "b1", "u"]);
    assert!(Arc::ptr_eq(&under_bare, &snap.bindings_for_canonical(&bare.as_path().join("x"))));
}

proptest::proptest! {
    /// The nearest root of any spelling of a working directory (doubled, trailing or `.`
    /// separators, `..`, relative) is the deepest of the ancestors of its clean spelling
    /// that is a root: a canonical spelling's ancestors taken from its bytes give the root
    /// its components give.
    #[test]
    fn the_nearest_root_is_the_deepest_ancestor_that_is_a_root(cwd in "/?[ab/.]{0,10}") {
        let mut r = HookRegistry::new();
        let roots = ["/a", "/a/b", "/b/a", "/ab", "/a/b/b"];
        for root in roots {
            r.add_project_root(abs(root));
        }
        let cwd = std::path::Path::new(&cwd);
        let expected = if cwd.is_absolute() {
            crate::paths::clean_cow(cwd)
                .ancestors()
                .find(|a| roots.iter().any(|r| a.as_os_str() == std::ffi::OsStr::new(r)))
                .map(abs)
        } else {
            None
        };
        proptest::prop_assert_eq!(r.snapshot().project_root_for(cwd).cloned(), expected);
    }
}
