//! Tests of the pure snapshot-building step on hand-built inputs: no registry is involved.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::PathBuf,
    sync::Arc,
};

use hooks_schema::{
    Binding, FileRole, FileScope, FormatId, HookSourceKind as K, PolicySwitch, SourcePolicy,
    SwitchRule,
};

use super::{Guarded, PlacedBindings, Running, binding_index, protected_paths};
use crate::{
    policy::{PolicyInput, PolicyTable, Subject, resolve_sources},
    protect::{ExpectedFiles, ExpectedPlaces, ProtectedKind, ProtectedPath, ProtectedPattern},
    snapshot::{BindingIndex, Contribution, RootKeys},
    test_support::{abs, def, sid},
};

const P: &str = "/nonexistent-hooks-registry-build";
const F: FormatId = FormatId::new("f");
const G: FormatId = FormatId::new("g");
const ROLE_F: FileRole = FileRole::new(F, "f_file", 100);

/// One place with one binding named `name` of `source`.
fn place(root: Option<&str>, name: &str) -> PlacedBindings {
    let dir = abs(root.map_or_else(|| format!("{P}/home"), |r| format!("{P}/{r}")));
    let binding = Binding {
        source: sid(K::file(FileScope::User, ROLE_F), format!("{P}/{name}.f")),
        definition: Arc::new(def(name, 0, "true")),
        working_dir: dir.clone(),
        project_root: root.map(|_| dir.clone()),
    };
    PlacedBindings {
        project_root: root.map(|_| dir.clone()),
        working_dir: dir,
        bindings: Arc::from(vec![binding]),
    }
}

fn keys(list: &[Contribution]) -> Vec<u64> {
    list.iter().map(|c| c.key.1).collect()
}

/// The cuts a project file under root `a` switching F's hooks off gives.
fn f_off_under_a(roots: &[hooks_schema::AbsPathBuf]) -> PolicyTable {
    let id = sid(K::file(FileScope::Project, ROLE_F), format!("{P}/a/off.f"));
    let policy = SourcePolicy {
        switches: vec![PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false }],
        ..SourcePolicy::default()
    };
    let input = PolicyInput {
        id: &id,
        subject: Subject::of(&id, std::iter::empty()),
        can_run: true,
        roots: &[0],
        policy: &policy,
    };
    resolve_sources(&[input], roots, false).table
}

#[test]
fn the_binding_index_keeps_the_given_order_and_applies_each_places_cuts() {
    let roots = Arc::new(RootKeys::new([abs(format!("{P}/a")), abs(format!("{P}/b"))]));
    let policy = Arc::new(f_off_under_a(&roots.list));
    assert!(policy.cuts_anything());
    let user_f = Subject { format: Some(F), managed: false, picked_by: None };
    let managed_f = Subject { format: Some(F), managed: true, picked_by: None };
    let user_g = Subject { format: Some(G), managed: false, picked_by: None };
    let places = [
        vec![place(None, "managed")],
        vec![place(None, "user-f")],
        vec![place(None, "user-g")],
        vec![place(Some("a"), "project-a"), place(Some("b"), "project-ab")],
        vec![place(Some("c"), "unknown-root")],
        vec![PlacedBindings {
            project_root: None,
            working_dir: abs(P),
            bindings: Arc::from(Vec::new()),
        }],
    ];
    let subjects = [managed_f, user_f, user_g, user_f, user_f, user_g];
    let running: Vec<Running<'_>> = places
        .iter()
        .zip(subjects)
        .zip(1u64..)
        .map(|((places, subject), seq)| Running { key: (100, seq), subject, places })
        .collect();
    let index: BindingIndex = binding_index(running.iter().copied(), &policy, &roots);

    // Outside every project, and under /b, nothing is cut: every global source in order.
    assert_eq!(keys(&index.global[policy.variant_at(None)]), [1, 2, 3]);
    assert_eq!(keys(index.global_at(Some(1))), [1, 2, 3]);
    // Under /a, F's non-managed sources are off: the managed F file and G's file are left.
    assert_eq!(keys(index.global_at(Some(0))), [1, 3]);
    assert_eq!(keys(&index.anywhere), [1, 2, 3], "each runs somewhere");
    // A project source binds under each root it is placed at, unless the root's cuts remove
    // it; a root the index does not know and an empty place bind nowhere.
    assert!(index.scoped[0].is_empty(), "F is off under /a: {:?}", keys(&index.scoped[0]));
    assert_eq!(keys(&index.scoped[1]), [4]);
    assert_eq!(index.scoped.len(), 2);

    // The same inputs give the same index: nothing outside the arguments is read.
    let again = binding_index(running.iter().copied(), &policy, &roots);
    assert_eq!(keys(&again.anywhere), keys(&index.anywhere));
    assert_eq!(again.scoped.iter().map(|s| keys(s)).collect::<Vec<_>>(), [vec![], vec![4]]);
    // With no cuts, /a keeps its project source.
    let open = binding_index(running.iter().copied(), &Arc::new(PolicyTable::default()), &roots);
    assert_eq!(keys(&open.scoped[0]), [4]);
    assert_eq!(keys(open.global_at(Some(0))), [1, 2, 3]);
}

#[test]
fn a_global_source_every_variant_cuts_is_not_listed_as_running_anywhere() {
    // A user F file where every place is cut: outside projects too (an off switch of the
    // user's own, resolved by the policy as applying everywhere).
    let user = sid(K::file(FileScope::User, ROLE_F), format!("{P}/u.f"));
    let policy = SourcePolicy {
        switches: vec![PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false }],
        ..SourcePolicy::default()
    };
    let input = PolicyInput {
        id: &user,
        subject: Subject::of(&user, std::iter::empty()),
        can_run: true,
        roots: &[],
        policy: &policy,
    };
    let table = Arc::new(resolve_sources(&[input], &[], false).table);
    let places = [place(None, "user-f")];
    let running =
        Running { key: (100, 1), subject: Subject::of(&user, std::iter::empty()), places: &places };
    let index = binding_index([running], &table, &Arc::new(RootKeys::default()));
    assert!(index.anywhere.is_empty(), "{:?}", keys(&index.anywhere));
    assert!(index.global.iter().all(Vec::is_empty));
}

#[test]
fn protected_paths_list_each_path_once_per_source_then_the_expected_files_nobody_lists() {
    let kind = K::file(FileScope::Project, ROLE_F);
    let root = abs(format!("{P}/a"));
    let file = abs(format!("{P}/a/.f/hooks.f"));
    let id = sid(kind, file.as_path());
    let path = |p: &str, what| ProtectedPath { path: abs(p), source: id.clone(), what };
    let pattern = |tail: &str| ProtectedPattern {
        scope: abs("/"),
        tail: PathBuf::from(tail),
        session: None,
        source: id.clone(),
        what: ProtectedKind::Script,
        nested: false,
        nested_file: false,
        stem: false,
    };
    let paths = [
        ProtectedPath { path: file.clone(), source: id.clone(), what: ProtectedKind::File },
        path(&format!("{P}/a/run.sh"), ProtectedKind::Script),
    ];
    let patterns = [pattern("x.sh")];
    // A change seen after the pin repeats one script and names another; same for patterns.
    let late_paths = [paths[1].clone(), path(&format!("{P}/a/late.sh"), ProtectedKind::Script)];
    let late_patterns = [pattern("x.sh"), pattern("late.sh")];
    // Found at its own path and under a name that would replace it.
    let other = abs(format!("{P}/a/.f/hooks.alt.f"));
    let found = BTreeMap::from([(Some(root.clone()), vec![file.clone(), other.clone()])]);
    // Expected: the file itself (already listed) and a sibling nobody lists, under each
    // root; a fixed user file; a folder under each root.
    let user_file = PathBuf::from(format!("{P}/home/.f/hooks.f"));
    let expected = ExpectedFiles {
        under_roots: vec![(kind, ".f/hooks.f".into()), (kind, ".f/more.f".into())],
        fixed: vec![(K::file(FileScope::User, ROLE_F), user_file.clone())],
        folders: Vec::new(),
        folders_under_roots: vec![(kind, ".f/hooks.d".into())],
        nested_folders: Vec::new(),
        nested_files: Vec::new(),
        linked: Vec::new(),
    };
    let paths: Arc<[ProtectedPath]> = Arc::from(paths);
    let guarded = Guarded {
        id: &id,
        paths: &paths,
        patterns: &patterns,
        late_paths: &late_paths,
        late_patterns: &late_patterns,
        found: &found,
    };
    let roots = BTreeSet::from([root.clone()]);
    let protected = protected_paths([guarded], ExpectedPlaces::fresh(&expected, &roots));

    let listed: Vec<(String, ProtectedKind)> = protected
        .as_slice()
        .iter()
        .map(|p| (p.path.as_path().display().to_string(), p.what))
        .collect();
    let want = |p: &str, what| (format!("{P}/{p}"), what);
    assert_eq!(
        listed,
        [
            want("a/.f/hooks.f", ProtectedKind::File),
            want("a/run.sh", ProtectedKind::Script),
            want("a/late.sh", ProtectedKind::Script),
            want("a/.f/hooks.alt.f", ProtectedKind::File),
            want("a/.f/more.f", ProtectedKind::File),
            want("home/.f/hooks.f", ProtectedKind::File),
        ]
    );
    assert_eq!(protected.get(other.as_path()).map(|p| &p.source), Some(&id));
    assert_eq!(protected.len(), listed.len());
    assert!(protected.iter().eq(protected.as_slice().iter()), "iter and as_slice agree");
    let first = protected.iter().next().expect("an entry");
    assert!(std::ptr::eq(first, &paths[0]), "the source's paths are shared, not copied");
    let tails: Vec<String> =
        protected.patterns().iter().map(|p| p.tail.display().to_string()).collect();
    assert_eq!(tails, ["x.sh", "late.sh", ""], "the folder under the root last, whole");
    assert_eq!(protected.patterns()[2].scope, abs(format!("{P}/a/.f/hooks.d")));

    // Without roots, nothing under a root is expected; the fixed file still is.
    let alone = protected_paths([guarded], ExpectedPlaces::fresh(&expected, []));
    assert!(!alone.contains(&PathBuf::from(format!("{P}/a/.f/more.f"))));
    assert!(alone.contains(&user_file));
    assert_eq!(alone.patterns().len(), 2);
}

#[test]
fn expected_files_are_resolved_when_the_protected_set_is_first_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = crate::canonicalize(dir.path()).unwrap();
    let kind = K::file(FileScope::Project, ROLE_F);
    let expected =
        ExpectedFiles { under_roots: vec![(kind, ".f/hooks.f".into())], ..Default::default() };
    let roots = BTreeSet::from([root.clone()]);
    let protected = protected_paths([], ExpectedPlaces::fresh(&expected, &roots));
    // A process that never reads the set (a one-shot fire) never resolves the files.
    assert!(!protected.is_resolved());
    let shared = protected.clone();
    std::fs::create_dir(root.as_path().join("real")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.as_path().join("real"), root.as_path().join(".f")).unwrap();
    // Read: resolved as the file system is now (through the new link), once for every copy.
    let at = |rel: &str| root.as_path().join(rel);
    let want = if cfg!(unix) { at("real/hooks.f") } else { at(".f/hooks.f") };
    assert!(protected.contains(&want));
    assert!(protected.is_resolved());
    assert_eq!(protected.len(), 1);
    assert!(shared.contains(&want));
}
