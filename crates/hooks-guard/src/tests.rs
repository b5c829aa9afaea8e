//! Scenario tests on a real tree: every spelling the issue lists, in every mode, and a
//! proptest over random spellings of the same protected file.

use std::{
    fs,
    path::{Path, PathBuf},
};

use proptest::{prelude::*, test_runner::TestRunner};

use crate::{
    CaseDetection, CaseSensitivity, EditApproval, GuardDecision, HitReason, ProtectedHit,
    ProtectedRole, ProtectedSet, approve_edit, probe_case_sensitivity,
    test_tree::{MODES, Tree, symlink},
};

/// What a scenario expects.
enum Expect {
    /// Protected: the hit names this file, in this role, for this reason.
    Hit(&'static str, ProtectedRole, HitReason),
    /// Goes through.
    Allowed,
}

/// Checks `requested` against `set` in every mode and asserts `expect`.
fn check_in_every_mode(tree: &Tree, set: &ProtectedSet, requested: PathBuf, expect: &Expect) {
    let decision = set.check(std::slice::from_ref(&requested), &tree.cwd);
    for (mode, context) in MODES {
        let approval = approve_edit(set, std::slice::from_ref(&requested), &tree.cwd, context);
        match expect {
            Expect::Hit(protected, role, why) => {
                let EditApproval::Guarded(guarded) = &approval else {
                    panic!("{mode}: `{}` was not guarded: {approval:?}", requested.display());
                };
                assert_eq!(guarded, &decision, "{mode}: the context changed the decision");
                let hit = the_hit(&decision, &requested);
                let expected_path = match role {
                    ProtectedRole::HookFile => &tree.hook_file,
                    ProtectedRole::Script => &tree.script,
                };
                assert_eq!(&hit.protected, expected_path, "{mode}: {protected}");
                assert_eq!(hit.role, *role, "{mode}: {protected}");
                assert_eq!(hit.why, *why, "{mode}: `{}`", requested.display());
                assert_eq!(hit.source, tree.source, "{mode}");
                assert_eq!(hit.requested, requested, "{mode}");
            }
            Expect::Allowed => {
                assert_eq!(decision, GuardDecision::Allowed, "`{}`", requested.display());
                assert_eq!(approval, EditApproval::AutoApply, "{mode}: `{}`", requested.display());
            }
        }
    }
}

fn the_hit<'d>(decision: &'d GuardDecision, requested: &Path) -> &'d ProtectedHit {
    let GuardDecision::Protected(hits) = decision else {
        panic!("`{}` is not protected: {decision:?}", requested.display());
    };
    assert_eq!(hits.len(), 1, "one hit expected: {hits:?}");
    &hits[0]
}

const HOOK: &str = "hooks.json";
const SCRIPT: &str = "check.sh";

#[test]
fn a_path_relative_to_the_session_cwd_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor/hooks.json"), &expect);
}

#[test]
fn a_dot_slash_prefix_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from("./.cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("./././.cursor/./hooks.json"), &expect);
}

#[test]
fn a_parent_detour_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    // `x` does not exist: only the lexical reading resolves, and it hits.
    check_in_every_mode(&tree, &set, PathBuf::from("../x/../proj/.cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("src/../.cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor/../.cursor/hooks.json"), &expect);
}

#[test]
fn a_trailing_slash_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let file = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor/hooks.json/"), &file);
    let folder = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::HoldingFolder);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor/"), &folder);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor//"), &folder);
}

#[test]
fn a_symlink_to_the_hook_file_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, tree.at("link_hooks.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("../link_hooks.json"), &expect);
}

#[test]
fn a_symlinked_parent_folder_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, tree.at("link_proj/.cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, tree.at("link_cursor/hooks.json"), &expect);
    let script = Expect::Hit(SCRIPT, ProtectedRole::Script, HitReason::SamePath);
    check_in_every_mode(&tree, &set, tree.at("link_proj/hooks/check.sh"), &script);
}

#[test]
fn a_path_that_does_not_exist_yet_under_a_symlinked_folder_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    // The hook file is removed after the snapshot was taken (the registry keeps a removed
    // project file protected until the run ends); recreating it through a link is caught.
    fs::remove_file(tree.hook_file.as_path()).expect("remove");
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, tree.at("link_proj/.cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, tree.at("link_cursor/hooks.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("../link_cursor/hooks.json"), &expect);
}

#[test]
fn a_dangling_symlink_to_a_removed_hook_file_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    fs::remove_file(tree.hook_file.as_path()).expect("remove");
    // Writing through a dangling link creates its target.
    symlink(tree.hook_file.as_path(), &tree.at("proj/src/innocent.json"));
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from("src/innocent.json"), &expect);
}

#[cfg(unix)]
#[test]
fn a_hard_link_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SameFile);
    check_in_every_mode(&tree, &set, tree.at("hard.json"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("../hard.json"), &expect);
}

#[cfg(unix)]
#[test]
fn a_hard_link_made_after_the_set_was_built_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    fs::hard_link(tree.script.as_path(), tree.at("proj/src/later.sh")).expect("hard link");
    let expect = Expect::Hit(SCRIPT, ProtectedRole::Script, HitReason::SameFile);
    check_in_every_mode(&tree, &set, PathBuf::from("src/later.sh"), &expect);
}

#[cfg(unix)]
#[test]
fn a_former_hard_link_goes_through_once_the_hook_file_was_replaced() {
    let tree = Tree::new();
    let set = tree.set();
    // The hook file is replaced by a new file (a new inode); `hard.json` keeps the old one
    // alive and is no longer the hook file.
    fs::remove_file(tree.hook_file.as_path()).expect("remove");
    fs::write(tree.hook_file.as_path(), "{}").expect("write");
    check_in_every_mode(&tree, &set, tree.at("hard.json"), &Expect::Allowed);
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor/hooks.json"), &expect);
}

#[test]
fn renaming_or_deleting_the_folder_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let hook = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::HoldingFolder);
    check_in_every_mode(&tree, &set, PathBuf::from(".cursor"), &hook);
    check_in_every_mode(&tree, &set, tree.at("link_cursor"), &hook);
    check_in_every_mode(&tree, &set, tree.at("link_proj/.cursor"), &hook);
    // The project folder holds the hook file too (the hook file sorts before the script).
    check_in_every_mode(&tree, &set, PathBuf::from("."), &hook);
    check_in_every_mode(&tree, &set, PathBuf::from(""), &hook);
    let script = Expect::Hit(SCRIPT, ProtectedRole::Script, HitReason::HoldingFolder);
    check_in_every_mode(&tree, &set, PathBuf::from("hooks"), &script);
}

#[test]
fn a_script_named_by_a_hook_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let expect = Expect::Hit(SCRIPT, ProtectedRole::Script, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from("hooks/check.sh"), &expect);
    check_in_every_mode(&tree, &set, PathBuf::from("./hooks//check.sh"), &expect);
    check_in_every_mode(&tree, &set, tree.script.as_path().to_path_buf(), &expect);
}

#[test]
fn files_beside_them_go_through() {
    let tree = Tree::new();
    let set = tree.set();
    for beside in [
        PathBuf::from(".cursor/notes.md"),
        PathBuf::from(".cursor/new-file.json"),
        PathBuf::from("hooks/other.sh"),
        PathBuf::from("hooks/new.sh"),
        PathBuf::from("src/main.rs"),
        PathBuf::from("src/deep/new/file.rs"),
        PathBuf::from(".cursor/hooks.json.bak"),
        PathBuf::from(".cursor/hooks.jso"),
        tree.at("link_cursor/new.json"),
        tree.at("link_proj/src/main.rs"),
        tree.at("other-project/.cursor/hooks.json"),
    ] {
        check_in_every_mode(&tree, &set, beside, &Expect::Allowed);
    }
}

#[test]
fn a_protected_path_among_allowed_ones_guards_the_whole_edit() {
    let tree = Tree::new();
    let set = tree.set();
    let paths = [PathBuf::from("src/main.rs"), PathBuf::from(".cursor/hooks.json")];
    for (mode, context) in MODES {
        let approval = approve_edit(&set, &paths, &tree.cwd, context);
        let EditApproval::Guarded(GuardDecision::Protected(hits)) = approval else {
            panic!("{mode}: not guarded: {approval:?}");
        };
        assert_eq!(hits.len(), 1, "{mode}");
        assert_eq!(hits[0].requested, PathBuf::from(".cursor/hooks.json"), "{mode}");
    }
}

/// One way to reach the hook file from the root or the session cwd, as path components.
/// `None` stands for the absolute root.
fn routes() -> Vec<Vec<Option<&'static str>>> {
    vec![
        vec![None, Some("proj"), Some(".cursor"), Some("hooks.json")],
        vec![None, Some("link_proj"), Some(".cursor"), Some("hooks.json")],
        vec![None, Some("link_cursor"), Some("hooks.json")],
        vec![None, Some("link_hooks.json")],
        vec![Some(".cursor"), Some("hooks.json")],
        vec![Some(".."), Some("link_proj"), Some(".cursor"), Some("hooks.json")],
        vec![Some(".."), Some("link_cursor"), Some("hooks.json")],
        // A symlink hop followed by `..`: only the operating system's reading reaches it.
        vec![None, Some("link_cursor"), Some(".."), Some(".cursor"), Some("hooks.json")],
        vec![Some(".."), Some("link_cursor"), Some(".."), Some(".cursor"), Some("hooks.json")],
        vec![
            Some(".."),
            Some("proj"),
            Some(".."),
            Some("proj"),
            Some(".cursor"),
            Some("hooks.json"),
        ],
        // A hard link (same device and inode) where the platform tells.
        #[cfg(unix)]
        vec![None, Some("hard.json")],
        #[cfg(unix)]
        vec![Some(".."), Some("hard.json")],
    ]
}

/// What goes between two components.
const DETOURS: [&str; 8] =
    ["", ".", "./.", "zz/..", "src/..", ".cursor/..", "zz/yy/../..", "link_proj/.."];

#[test]
fn random_spellings_of_the_hook_file_are_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let routes = routes();
    let strategy = (
        0..routes.len(),
        prop::collection::vec((0..DETOURS.len(), any::<bool>()), 8),
        any::<bool>(),
    );
    let config =
        ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&strategy, |(route, gaps, trailing)| {
        let route = &routes[route];
        let mut spelling = String::new();
        // A relative route may start with a detour too.
        let (lead, _) = gaps.last().copied().unwrap_or((0, false));
        if route.first().is_some_and(Option::is_some) && !DETOURS[lead].is_empty() {
            spelling.push_str(DETOURS[lead]);
        }
        for (i, component) in route.iter().enumerate() {
            let (detour, doubled) = gaps.get(i).copied().unwrap_or((0, false));
            match component {
                None => spelling.push_str(&tree.root.to_string_lossy()),
                Some(name) => {
                    if !spelling.is_empty() {
                        spelling.push_str(if doubled { "//" } else { "/" });
                    }
                    spelling.push_str(name);
                }
            }
            let last = i + 1 == route.len();
            if !last && !DETOURS[detour].is_empty() {
                spelling.push('/');
                spelling.push_str(DETOURS[detour]);
            }
        }
        if trailing {
            spelling.push('/');
        }
        let requested = PathBuf::from(&spelling);
        let decision = set.check(std::slice::from_ref(&requested), &tree.cwd);
        let reached = decision
            .hits()
            .iter()
            .any(|hit| hit.protected == tree.hook_file && hit.why != HitReason::HoldingFolder);
        prop_assert!(reached, "`{}` slipped past: {:?}", spelling, decision);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

#[test]
fn a_path_with_a_nul_byte_is_not_allowed() {
    let tree = Tree::new();
    let set = tree.set();
    for path in [".cursor/hooks.json\0", "src/new.rs\0.txt"] {
        let decision = set.check(&[PathBuf::from(path)], &tree.cwd);
        assert!(
            matches!(&decision, GuardDecision::Unresolved(u) if matches!(u[0].error, crate::GuardError::NulByte { .. })),
            "{path:?}: {decision:?}"
        );
    }
}

#[test]
fn a_file_url_of_a_hook_file_is_protected() {
    let tree = Tree::new();
    let set = tree.set();
    let url = format!("file://{}", tree.cwd.join(".cursor/hooks.json").display());
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from(url), &expect);
}

#[test]
fn a_tilde_path_reaches_the_home_or_is_refused() {
    let tree = Tree::new();
    // The project plays the home.
    let set = tree.set().with_home(Some(tree.cwd.clone()));
    let expect = Expect::Hit(HOOK, ProtectedRole::HookFile, HitReason::SamePath);
    check_in_every_mode(&tree, &set, PathBuf::from("~/.cursor/hooks.json"), &expect);
    let elsewhere = tree.at("link_proj/src");
    let decision = set.check(&[PathBuf::from("~/.cursor/hooks.json")], &elsewhere);
    assert!(!decision.is_allowed(), "{decision:?}");
    let without_home = tree.set();
    let decision = without_home.check(&[PathBuf::from("~/.cursor/hooks.json")], &elsewhere);
    assert!(matches!(decision, GuardDecision::Unresolved(_)), "{decision:?}");
}

#[test]
fn process_relative_paths_are_not_resolved_in_the_guards_process() {
    let tree = Tree::new();
    let set = tree.set();
    // The guard's own process sits elsewhere: what `/proc/self/cwd` means for it says
    // nothing about the agent's process.
    symlink(Path::new("/proc/self/cwd"), &tree.cwd.join("src/here"));
    for path in [
        PathBuf::from("/proc/self/cwd/.cursor/hooks.json"),
        PathBuf::from("/proc/thread-self/cwd/x"),
        PathBuf::from("/dev/fd/3"),
        PathBuf::from(format!("/proc/{}/cwd/.cursor/hooks.json", std::process::id())),
        PathBuf::from("src/here/.cursor/hooks.json"),
        PathBuf::from("src/here/new-file"),
    ] {
        let decision = set.check(std::slice::from_ref(&path), &tree.cwd);
        assert!(
            matches!(&decision, GuardDecision::Unresolved(u) if matches!(u[0].error, crate::GuardError::ProcessRelative { .. })),
            "{}: {decision:?}",
            path.display()
        );
    }
    let decision = set.check(&[PathBuf::from("src/main.rs")], &PathBuf::from("/proc/self/cwd"));
    assert!(matches!(decision, GuardDecision::Unresolved(_)), "{decision:?}");
}

fn pattern(
    tree: &Tree,
    scope: &Path,
    tail: &str,
    session: Option<&str>,
) -> hooks_registry::ProtectedPattern {
    hooks_registry::ProtectedPattern {
        scope: hooks_schema::AbsPathBuf::new(scope.to_path_buf()).expect("absolute"),
        tail: PathBuf::from(tail),
        session: session.map(PathBuf::from),
        source: tree.source.clone(),
        what: hooks_registry::ProtectedKind::Script,
        nested: false,
        nested_file: false,
        stem: false,
    }
}

fn why(decision: &GuardDecision) -> Vec<HitReason> {
    decision.hits().iter().map(|h| h.why).collect()
}

#[test]
fn patterns_protect_a_folder_a_name_under_any_folder_and_the_session_copy() {
    let tree = Tree::new();
    fs::create_dir_all(tree.cwd.join("src/sub")).expect("mkdir");
    symlink(&tree.cwd.join("hooks"), &tree.cwd.join("src/linked"));
    let set = ProtectedSet::new(Vec::new()).with_patterns([
        pattern(&tree, &tree.cwd.join("hooks"), "", None),
        pattern(&tree, &tree.cwd, "gate.sh", Some("gate.sh")),
        pattern(&tree, &tree.cwd, "linked/run.sh", Some("linked/run.sh")),
    ]);
    let check = |path: &str, cwd: &Path| set.check(&[PathBuf::from(path)], cwd);
    assert_eq!(why(&check("hooks/new.sh", &tree.cwd)), [HitReason::InsideFolder]);
    // The session's own folder is the protected folder and holds the session's copies.
    assert!(why(&check(".", &tree.cwd.join("hooks"))).contains(&HitReason::InsideFolder));
    assert_eq!(why(&check("src/sub/gate.sh", &tree.cwd)), [HitReason::NamedCopy]);
    assert_eq!(why(&check("gate.sh", &tree.cwd.join("src/sub"))), [HitReason::SessionCopy]);
    // Removing the session's folder removes the copy a hook runs from it.
    assert!(why(&check("../sub", &tree.cwd.join("src/sub"))).contains(&HitReason::HoldingFolder));
    // The session copy through a symlinked folder lands in `hooks/`, where it is found as
    // the session's copy even though its path does not end with `linked/run.sh`.
    let d = check(&tree.cwd.join("hooks/run.sh").display().to_string(), &tree.cwd.join("src"));
    assert!(why(&d).contains(&HitReason::SessionCopy), "{d:?}");
    assert!(check("src/main.rs", &tree.cwd).is_allowed());
    // The session's folder is resolved only for readings that may reach a copy: a folder on
    // the way that does not exist yet, or a file standing where that folder would be, is
    // found by its name; any folder holding the session's folder is found as a folder.
    let nested = ProtectedSet::new(Vec::new()).with_patterns([pattern(
        &tree,
        &tree.cwd,
        "tools/t.sh",
        Some("tools/t.sh"),
    )]);
    let sub = tree.cwd.join("src/sub");
    let nested_check = |path: &str| nested.check(&[PathBuf::from(path)], &sub);
    assert_eq!(why(&nested_check("tools")), [HitReason::HoldingFolder]);
    assert_eq!(why(&nested_check("tools/t.sh")), [HitReason::SessionCopy]);
    assert_eq!(why(&nested_check("..")), [HitReason::HoldingFolder]);
    fs::write(sub.join("tools"), "not a folder").expect("write");
    assert_eq!(why(&nested_check("tools")), [HitReason::HoldingFolder]);
    fs::write(sub.join("notes.txt"), "").expect("write");
    assert!(nested_check("notes.txt").is_allowed());
    // Outside the scope, a same-named file is another project's business.
    assert!(check(&tree.at("gate.sh").display().to_string(), &tree.cwd).is_allowed());
}

/// A Python module's other forms: every file directly in its folder (or its `__pycache__/`)
/// whose name is the module's followed by a dot, which the import system takes before or in
/// place of the source (finding F118), whatever the interpreter's tag; a folder holding
/// them; nothing else.
#[test]
fn a_module_s_compiled_and_extension_forms_are_protected_by_its_name() {
    let tree = Tree::new();
    let scripts = tree.cwd.join("scripts");
    fs::create_dir_all(scripts.join("sub")).expect("mkdir");
    symlink(&scripts, &tree.cwd.join("linked"));
    let stem = |folder: &Path| {
        let mut p = pattern(&tree, folder, "helper", None);
        p.stem = true;
        p
    };
    let set = ProtectedSet::new(Vec::new())
        .with_patterns([stem(&scripts), stem(&scripts.join("__pycache__"))]);
    let check = |path: &str| set.check(&[PathBuf::from(path)], &tree.cwd);
    for form in [
        "scripts/helper.so",
        "scripts/helper.abi3.so",
        "scripts/helper.cpython-311-x86_64-linux-gnu.so",
        "scripts/helper.cpython-313t-darwin.so",
        "scripts/helper.pyc",
        "scripts/helper.cp313-win_amd64.pyd",
        "scripts/__pycache__/helper.cpython-311.pyc",
        "scripts/__pycache__/helper.cpython-311.opt-1.pyc",
        // Through a symlinked folder, and by a detour.
        "linked/helper.so",
        "scripts/sub/../helper.so",
    ] {
        let d = check(form);
        assert_eq!(why(&d), [HitReason::ModuleForm], "{form}: {d:?}");
        assert!(d.to_string().contains("a form of a Python module"), "{form}: {d}");
    }
    // The module's folder, its cache folder and any folder above them hold its forms.
    for folder in ["scripts", "scripts/__pycache__", "."] {
        assert!(why(&check(folder)).contains(&HitReason::HoldingFolder), "{folder}");
    }
    // Another module, a name that only starts alike, another folder, the bare name, a file
    // Python does not import.
    for other in [
        "scripts/helpers.so",
        "scripts/helper_x.pyc",
        "scripts/other.helper.so",
        "scripts/helper",
        "scripts/helper.md",
        "scripts/helper.so.txt",
        "scripts/sub/helper.so",
        "helper.so",
        "scripts/sub",
    ] {
        assert!(check(other).is_allowed(), "{other}");
    }
    // A module imported from a folder that varies: its forms in any folder of the scope
    // whose path ends as the module's does, and in such a folder's cache.
    let nested = |tail: &str| {
        let mut p = pattern(&tree, &tree.cwd, tail, None);
        p.stem = true;
        p.nested = true;
        p
    };
    let set = ProtectedSet::new(Vec::new())
        .with_patterns([nested("tools/gate"), nested("tools/__pycache__/gate")]);
    let check = |path: &str| set.check(&[PathBuf::from(path)], &tree.cwd);
    for form in
        ["tools/gate.so", "src/tools/gate.pyc", "src/tools/__pycache__/gate.cpython-311.pyc"]
    {
        assert_eq!(why(&check(form)), [HitReason::ModuleForm], "{form}");
    }
    for other in ["gate.so", "src/gate.pyc", "tools/gates.so", "tools", "src/tools/gate.txt"] {
        assert!(check(other).is_allowed(), "{other}");
    }
    assert!(check(&tree.at("tools/gate.so").display().to_string()).is_allowed());
}

/// Folders protected as a whole are found by the edited path's ancestors and the folders
/// below it, not by a scan: with thousands of them (a runtime with many roots, each with its
/// agents' folders) an edit inside one, of a folder holding some, or beside them is told
/// apart exactly, siblings whose names only start alike (`agents2`, `agents!`) included.
#[test]
fn many_protected_folders_are_told_apart_by_ancestors_and_descendants() {
    let tree = Tree::new();
    let root = tree.cwd.clone();
    let mut patterns = Vec::new();
    for i in 0..1_500 {
        patterns.push(pattern(&tree, &root.join(format!("p{i}/.claude/agents")), "", None));
        patterns.push(pattern(&tree, &root.join(format!("p{i}/.claude/skills")), "", None));
    }
    let set = ProtectedSet::new(Vec::new()).with_patterns(patterns);
    let check = |path: &str| set.check(&[root.join(path)], &root);
    assert_eq!(why(&check("p7/.claude/agents/x.md")), [HitReason::InsideFolder]);
    assert_eq!(why(&check("p1499/.claude/skills/s/SKILL.md")), [HitReason::InsideFolder]);
    assert_eq!(why(&check("p7/.claude/agents")), [HitReason::InsideFolder]);
    // A folder holding both of one project's, and one holding every project's.
    assert_eq!(why(&check("p7/.claude")), [HitReason::HoldingFolder, HitReason::HoldingFolder]);
    // `p7` holds `p7/…` only, not `p70/…`, which sorts right after it.
    assert_eq!(check("p7").hits().len(), 2, "{:?}", check("p7"));
    assert_eq!(set.check(std::slice::from_ref(&root), &root).hits().len(), 3_000);
    for beside in
        ["p7/.claude/agents2/x.md", "p7/.claude/agents!", "p7/.claude/settings.json", "p7-notes"]
    {
        assert!(check(beside).is_allowed(), "{beside}: {:?}", check(beside));
    }
}

/// On a case-insensitive file system `.Claude/SKILLS/x/SKILL.md` is the protected folder's
/// file: folders protected as a whole are compared by their folded text there, as files are
/// (here forced with `CaseDetection::AlwaysInsensitive`); on a case-sensitive one (this
/// machine's temporary folder, probed) the other spelling is another folder.
#[test]
fn a_protected_folder_is_matched_in_any_case_on_a_case_insensitive_file_system() {
    let tree = Tree::new();
    let root = tree.cwd.clone();
    let folders = || {
        [
            pattern(&tree, &root.join(".claude/skills"), "", None),
            pattern(&tree, &root.join("Lib"), "", None),
        ]
    };
    let folded = ProtectedSet::with_case_detection(Vec::new(), CaseDetection::AlwaysInsensitive)
        .with_patterns(folders());
    let check = |set: &ProtectedSet, path: &str| set.check(&[root.join(path)], &root);
    assert_eq!(why(&check(&folded, ".Claude/SKILLS/deploy/SKILL.md")), [HitReason::InsideFolder]);
    assert_eq!(why(&check(&folded, "lib/x.py")), [HitReason::InsideFolder]);
    assert_eq!(why(&check(&folded, ".CLAUDE")), [HitReason::HoldingFolder]);
    assert!(check(&folded, ".claude/skills2/x").is_allowed());
    assert!(check(&folded, "libs/x.py").is_allowed());
    let probed = ProtectedSet::new(Vec::new()).with_patterns(folders());
    assert_eq!(probe_case_sensitivity(&root), CaseSensitivity::Sensitive, "this test's folder");
    assert!(check(&probed, ".Claude/SKILLS/deploy/SKILL.md").is_allowed());
    assert_eq!(why(&check(&probed, ".claude/skills/deploy/SKILL.md")), [HitReason::InsideFolder]);
}

/// A folder protected at any depth below a scope (`ProtectedPattern::nested`): every folder
/// below the scope whose path ends with the relative path, and everything under it, not a
/// folder that only ends alike, not the scope itself, not outside the scope.
#[test]
fn a_nested_folder_is_protected_at_any_depth_below_its_scope_only() {
    let tree = Tree::new();
    let root = tree.cwd.clone();
    let mut nested = pattern(&tree, &root, ".claude/skills", None);
    nested.nested = true;
    nested.what = hooks_registry::ProtectedKind::File;
    let set = ProtectedSet::new(Vec::new()).with_patterns([nested]);
    let check = |path: &Path| set.check(&[path.to_path_buf()], &root);
    let d = check(&root.join("a/b/.claude/skills/x/SKILL.md"));
    assert_eq!(why(&d), [HitReason::InsideFolder]);
    assert_eq!(d.hits()[0].protected.as_path(), root.join("a/b/.claude/skills"));
    assert_eq!(why(&check(&root.join(".claude/skills/x/SKILL.md"))), [HitReason::InsideFolder]);
    for allowed in ["a/.claude/skills2/x", "a/claude/skills/x", "a/.claude/x/skills/y", "skills"] {
        assert!(check(&root.join(allowed)).is_allowed(), "{allowed}");
    }
    assert!(check(&tree.at("elsewhere/.claude/skills/x")).is_allowed());
    // A name under any folder (`NamedCopy`) is not what a nested pattern means.
    assert!(
        check(&root.join("a/.claude/skills"))
            .hits()
            .iter()
            .all(|h| h.why == HitReason::InsideFolder)
    );
}
