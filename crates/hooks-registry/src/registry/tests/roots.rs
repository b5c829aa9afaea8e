//! Tests for what a root coming or going costs the registry: the root keys follow from the
//! previous ones (only the changed root is keyed), and no other project source's roots are
//! looked up again, while every lookup and the source policy per root stay what they were.

use hooks_schema::{
    AbsPathBuf, HookSourceId, ParsedSource, PolicySwitch, SourcePolicy, SwitchRule,
};

use crate::{
    HookRegistry,
    test_support::{abs, active, defs, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-roots";

fn root(name: &str) -> AbsPathBuf {
    abs(format!("{P}/{name}"))
}

fn project(root: &AbsPathBuf) -> HookSourceId {
    sid(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.as_path().join(".cursor/hooks.json"))
}

/// Twenty projects `p00`..`p19` with one hook each, the user's Claude hook `u`, and under
/// `p07` a Claude project file with no hook that turns the user's Claude hooks off there.
fn world() -> HookRegistry {
    let mut r = HookRegistry::new();
    for i in 0..20 {
        let root = root(&format!("p{i:02}"));
        r.upsert_source(update(
            &project(&root),
            ok(defs(&[&format!("d{i}")])),
            Some(&root),
            active(),
        ));
    }
    let user = sid(hooks_testing::kinds::USER_CLAUDE_SETTINGS, format!("{P}/home/settings.json"));
    r.upsert_source(update(&user, ok(defs(&["u"])), None, active()));
    let off = sid(
        hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        root("p07").as_path().join(".claude/settings.json"),
    );
    let switch = PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false };
    let policy = SourcePolicy { switches: vec![switch], ..SourcePolicy::default() };
    let parsed = Ok(ParsedSource { policy, ..ParsedSource::default() });
    r.upsert_source(update(&off, parsed, Some(&root("p07")), active()));
    r
}

/// Every lookup is what the projects and the policy say, and the roots are the plain set.
fn check(r: &HookRegistry, extra: &[&str]) {
    let snap = r.snapshot();
    for i in 0..20 {
        let got =
            names(&snap.bindings_for_canonical(&root(&format!("p{i:02}/src")).into_path_buf()));
        let want: Vec<String> =
            if i == 7 { vec!["d7".to_owned()] } else { vec![format!("d{i}"), "u".to_owned()] };
        assert_eq!(got, want, "under p{i:02}");
    }
    for name in extra {
        let got = names(&snap.bindings_for_canonical(root(name).as_path()));
        assert_eq!(got, ["u"], "under the bare root {name}");
        assert_eq!(snap.project_root_for(root(name).as_path()), Some(&root(name)));
    }
    let mut want: Vec<AbsPathBuf> = (0..20).map(|i| root(&format!("p{i:02}"))).collect();
    want.extend(extra.iter().map(|n| root(n)));
    want.sort();
    assert_eq!(snap.project_roots(), want.as_slice());
}

#[test]
fn a_root_coming_or_going_keys_only_that_root_and_looks_up_no_other_sources_roots() {
    let mut r = world();
    check(&r, &[]);
    let looked_up = r.root_lookups;

    // A bare root sorting between two others: every later root moves one position.
    r.add_project_root(root("p05x"));
    assert_eq!(r.root_keys.keyed, 1, "only the new root is keyed");
    assert_eq!(r.root_lookups, looked_up, "no project source's roots are looked up again");
    check(&r, &["p05x"]);

    r.add_project_root(root("a-first"));
    assert_eq!((r.root_keys.keyed, r.root_lookups), (1, looked_up));
    check(&r, &["p05x", "a-first"]);

    r.remove_project_root(&root("p05x"));
    assert_eq!((r.root_keys.keyed, r.root_lookups), (1, looked_up));
    check(&r, &["a-first"]);

    // A project file under a new root: that root keyed, that source's roots looked up.
    let new = root("p20");
    r.upsert_source(update(&project(&new), ok(defs(&["d20"])), Some(&new), active()));
    assert_eq!((r.root_keys.keyed, r.root_lookups), (1, looked_up + 1));
    r.remove_source(&project(&new));
    assert_eq!((r.root_keys.keyed, r.root_lookups), (1, looked_up + 1));
    check(&r, &["a-first"]);
}

#[test]
fn many_roots_at_once_are_numbered_afresh_and_every_lookup_stays_right() {
    let mut r = world();
    check(&r, &[]);
    let names: Vec<String> = (0..super::super::FEW_ROOTS + 1).map(|i| format!("m{i:02}")).collect();
    r.batch(|r| {
        for n in &names {
            r.add_project_root(root(n));
        }
    });
    assert_eq!(r.root_keys.keyed, 20 + names.len(), "every root keyed afresh");
    let extra: Vec<&str> = names.iter().map(String::as_str).collect();
    check(&r, &extra);
    // The next single root follows from these keys again.
    r.remove_project_root(&root("m03"));
    assert_eq!(r.root_keys.keyed, 1);
    let extra: Vec<&str> = extra.into_iter().filter(|n| *n != "m03").collect();
    check(&r, &extra);
}
