//! Tests for the protected-path rule: the main script a command names, and where a named
//! file that may not exist yet is protected.

use std::path::PathBuf;

use hooks_schema::{AbsPathBuf, HookCommand};

use hooks_schema::HookSourceKind;

use crate::{
    ExpectedFiles, canonicalize, canonicalize_lenient,
    protect::{Resolver, locations, locations_with},
    script_candidate,
};

fn shell(s: &str) -> Option<PathBuf> {
    script_candidate(&HookCommand::Shell { script: s.to_owned(), shell: None })
}

fn exec(program: &str, args: &[&str]) -> Option<PathBuf> {
    script_candidate(&HookCommand::Exec {
        program: program.to_owned(),
        args: args.iter().map(|s| (*s).to_owned()).collect(),
    })
}

#[test]
fn the_first_word_is_the_script() {
    assert_eq!(shell("./check.sh --strict"), Some("check.sh".into()));
    assert_eq!(shell("/opt/hooks/a.sh"), Some("/opt/hooks/a.sh".into()));
    assert_eq!(shell("FOO=1 ./check.sh"), Some("check.sh".into()));
    assert_eq!(shell("\"./my hooks/check.sh\""), Some("my hooks/check.sh".into()));
}

#[test]
fn the_script_an_interpreter_or_a_wrapper_runs_comes_before_the_program() {
    assert_eq!(shell("bash scripts/check.sh"), Some("scripts/check.sh".into()));
    assert_eq!(shell("node ./hooks/format.js"), Some("hooks/format.js".into()));
    assert_eq!(shell("python3 hooks/audit.py arg"), Some("hooks/audit.py".into()));
    assert_eq!(shell("python -u hooks/audit.py"), Some("hooks/audit.py".into()));
    assert_eq!(shell("uv run hooks/a.py"), Some("hooks/a.py".into()));
    assert_eq!(shell("deno run x.ts"), Some("x.ts".into()));
    assert_eq!(shell("/usr/bin/env python3 x.py"), Some("x.py".into()));
    assert_eq!(shell("timeout 5 bash -e x.sh"), Some("x.sh".into()));
    assert_eq!(shell("npx tsx hooks/x.ts"), Some("hooks/x.ts".into()));
    assert_eq!(shell("./venv/bin/python3 hook.py"), Some("hook.py".into()));
}

#[test]
fn programs_from_path_inline_code_and_variables_name_no_script() {
    assert_eq!(shell("npx foo"), None);
    assert_eq!(shell("python3 -c 'print(1)'"), None);
    assert_eq!(shell("uv pip list"), None);
    assert_eq!(shell(""), None);
    assert_eq!(shell("bash"), None);
    assert_eq!(shell("\"$CLAUDE_PROJECT_DIR\"/hooks/x.sh"), None);
}

#[test]
fn exec_uses_the_program_or_the_script_after_an_interpreter() {
    assert_eq!(exec("./bin/check", &["--x"]), Some("bin/check".into()));
    assert_eq!(exec("node", &["--no-warnings", "hooks/f.js"]), Some("hooks/f.js".into()));
    // An argument vector has no quoting, so a space is part of the path.
    assert_eq!(exec("node", &["my file.js"]), Some("my file.js".into()));
}

#[test]
fn a_script_command_names_its_path() {
    let c = HookCommand::Script { path: "/p/hooks/run.py".into(), args: vec![] };
    assert_eq!(script_candidate(&c), Some("/p/hooks/run.py".into()));
}

#[test]
fn a_missing_file_is_located_where_an_edit_would_create_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(root.as_path().join("real")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.as_path().join("real"), root.as_path().join("link"))
            .unwrap();
        std::os::unix::fs::symlink(
            root.as_path().join("real/target.sh"),
            root.as_path().join("dangling.sh"),
        )
        .unwrap();
    }
    let at = |rel: &str| AbsPathBuf::new(root.as_path().join(rel)).unwrap();
    assert_eq!(locations(&at("link/new.sh")), [at("real/new.sh")]);
    assert_eq!(locations(&at("dangling.sh")), [at("dangling.sh"), at("real/target.sh")]);
    std::fs::write(root.as_path().join("real/there.sh"), "").unwrap();
    assert_eq!(locations(&at("link/there.sh")), [at("real/there.sh")]);
}

#[test]
fn an_expected_file_is_looked_up_once_per_protected_set() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let kind = HookSourceKind::FACTORY_AGENT;
    let expected = ExpectedFiles {
        under_roots: vec![
            (kind, ".cursor/hooks.json".into()),
            (kind, ".chrys/hooks/hooks.yaml".into()),
            (kind, ".chrys/hooks/hooks.yml".into()),
        ],
        ..Default::default()
    };
    let mut resolver = Resolver::default();
    let (paths, patterns) = expected.protect_with([&root], &mut resolver);
    let at = |rel: &str| AbsPathBuf::new(root.as_path().join(rel)).unwrap();
    let protected: Vec<AbsPathBuf> = paths.iter().map(|p| p.path.clone()).collect();
    assert_eq!(
        protected,
        [at(".cursor/hooks.json"), at(".chrys/hooks/hooks.yaml"), at(".chrys/hooks/hooks.yml")]
    );
    assert!(patterns.is_empty());
    // The three files, `.cursor`, `.chrys/hooks`, `.chrys` and the root: one `lstat` each
    // (a missing file was looked up twice: for its canonical form, then for a dangling link).
    assert_eq!(resolver.lstats(), 7);
}

/// Files missing under one missing folder deep in the tree: each file after the first costs
/// the same few lookups, however deep the folder (its ancestors are walked once), and comes
/// out as `canonicalize_lenient` gives it, through a symlinked ancestor too.
#[test]
fn a_missing_folder_s_ancestors_are_walked_once_per_resolver() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.as_path().join("real")).unwrap();
    std::os::unix::fs::symlink(root.as_path().join("real"), root.as_path().join("link")).unwrap();
    let folder = root.as_path().join("link/a/b/c/d/e/f/g/h");
    let file = |i: usize| AbsPathBuf::new(folder.join(format!("f{i}.sh"))).unwrap();
    let probes = |files: usize| {
        let mut resolver = Resolver::default();
        for i in 0..files {
            let located = locations_with(&mut resolver, &file(i));
            assert_eq!(located, [canonicalize_lenient(file(i).as_path(), &root)]);
            assert!(located[0].as_path().starts_with(root.as_path().join("real/a/b")));
        }
        resolver.probes()
    };
    let (one, eleven) = (probes(1), probes(11));
    // Per file: its own lookups (canonical form, `lstat`, lenient form, dangling link) and
    // its folder's lenient form; walking the folder's eight missing ancestors again for
    // each file would cost at least as many lookups more.
    assert!((eleven - one) / 10 <= 6, "{one} lookups for one file, {eleven} for eleven");
}

proptest::proptest! {
    #[test]
    fn the_rule_never_panics(s in "\\PC{0,80}") {
        let _ = shell(&s);
    }
}

/// Every role, so that [`crate::definition_files`] reads the scripts as the guard does.
const ALL_ROLES: [crate::PathRole; 8] = [
    crate::PathRole::Program,
    crate::PathRole::Script,
    crate::PathRole::Loaded,
    crate::PathRole::Argument,
    crate::PathRole::Tree,
    crate::PathRole::Beside,
    crate::PathRole::Sourced,
    crate::PathRole::Modules,
];

fn placement(root: &std::path::Path) -> crate::Placement {
    crate::Placement {
        working_dir: AbsPathBuf::new(root.to_path_buf()).unwrap(),
        project_root: Some(AbsPathBuf::new(root.to_path_buf()).unwrap()),
        user: crate::UserPaths::default(),
    }
}

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Asserts that each of `names` (relative to `root`) is among `files`' paths, or, with
/// `present` false, that none is.
#[track_caller]
fn assert_paths(
    files: &crate::DefinitionFiles,
    root: &std::path::Path,
    names: &[&str],
    present: bool,
) {
    for name in names {
        let path = root.join(name);
        let found = files.paths.iter().any(|p| p.as_path() == path);
        assert_eq!(found, present, "{name}: {:?}", files.paths);
    }
}

/// The files a hook's shell script sources or runs are protected with it, through as many
/// levels as they source each other (a loop ends), whether they exist or not; a script that
/// is no shell script is not read for them, and `hooks trust` pins none of them.
#[test]
fn what_a_hook_s_shell_script_sources_is_protected_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let root = root.as_path();
    write(
        root,
        "scripts/gate.sh",
        "#!/bin/sh\n. ./scripts/lib.sh\n. \"$(dirname \"$0\")/missing.sh\"\n",
    );
    write(root, "scripts/lib.sh", "# sourced\nsource \"${BASH_SOURCE%/*}/deeper/two.sh\"\n");
    write(root, "scripts/deeper/two.sh", ". ./scripts/gate.sh\npython3 tools/check.py\n");
    write(root, "tools/check.py", ". ./tools/not-read.sh\n");
    write(root, "tools/run.py", "#!/usr/bin/env python3\n. ./tools/never.sh\n");
    let def = crate::test_support::def("h", 0, "bash scripts/gate.sh && python3 tools/run.py");
    let files = crate::definition_files(&def, &placement(root), &ALL_ROLES);
    let expected = [
        "scripts/gate.sh",
        "scripts/lib.sh",
        "scripts/missing.sh",
        "scripts/deeper/two.sh",
        "tools/check.py",
        "tools/run.py",
    ];
    assert_paths(&files, root, &expected, true);
    assert_paths(&files, root, &["tools/not-read.sh", "tools/never.sh"], false);
    let pinned = crate::definition_files(
        &def,
        &placement(root),
        &[crate::PathRole::Program, crate::PathRole::Script, crate::PathRole::Loaded],
    );
    assert!(
        !pinned.paths.iter().any(|p| p.as_path() == root.join("scripts/lib.sh")),
        "{:?}",
        pinned.paths
    );
}

/// Every POSIX-like shell the command analysis knows is one the script reader knows too, and
/// the other way round (one list since session 22): a hook run by `posh`, and a script whose
/// `#!` names `busybox`, have what they source protected. Before, the two lists differed by
/// these two names, and what the `posh` hook's script sources was not protected.
#[test]
fn every_shell_the_analysis_knows_the_script_reader_knows() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let root = root.as_path();
    write(root, "a/gate.sh", ". ./a/lib.sh\n");
    write(root, "b/gate", "#!/bin/busybox sh\n. ./b/lib.sh\n");
    for (command, expected) in
        [("posh a/gate.sh", ["a/gate.sh", "a/lib.sh"]), ("./b/gate", ["b/gate", "b/lib.sh"])]
    {
        let def = crate::test_support::def("h", 0, command);
        let files = crate::definition_files(&def, &placement(root), &ALL_ROLES);
        assert_paths(&files, root, &expected, true);
    }
}

/// A chain of scripts each sourcing the next is followed a bounded number of levels, and a
/// script larger than the read cap is read up to it: bad input costs a bounded read.
#[test]
fn sourced_scripts_are_followed_a_bounded_depth_and_read_up_to_a_cap() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let root = root.as_path();
    for i in 0..10 {
        write(root, &format!("s{i}.sh"), &format!("#!/bin/sh\n. ./s{}.sh\n", i + 1));
    }
    let mut big = String::from("#!/bin/sh\n");
    while big.len() < 300 * 1024 {
        big.push_str("echo padding padding padding padding padding padding\n");
    }
    big.push_str(". ./beyond-the-cap.sh\n");
    write(root, "big.sh", &big);
    let def = crate::test_support::def("h", 0, "./s0.sh; ./big.sh");
    let files = crate::definition_files(&def, &placement(root), &ALL_ROLES);
    let has = |name: &str| files.paths.iter().any(|p| p.as_path() == root.join(name));
    assert!(has("s3.sh") && has("s4.sh"), "{:?}", files.paths);
    assert!(!has("s6.sh"), "{:?}", files.paths);
    assert!(!has("beyond-the-cap.sh"), "{:?}", files.paths);
    // Where a cap stops the reading, a note says so.
    let noted = |text: &str| files.uncertain.iter().any(|u| u.contains(text));
    assert!(noted("levels deep (`") && noted("s4.sh`)"), "{:?}", files.uncertain);
    assert!(noted("big.sh` is larger than 256 KiB"), "{:?}", files.uncertain);
    // Within the caps, no note.
    let small = crate::test_support::def("h", 0, "./s8.sh");
    let files = crate::definition_files(&small, &placement(root), &ALL_ROLES);
    assert!(files.uncertain.is_empty(), "{:?}", files.uncertain);
    // More files than the cap: a note.
    for i in 0..40 {
        write(root, &format!("w{i}.sh"), "#!/bin/sh\ntrue\n");
    }
    let wide: Vec<String> = (0..40).map(|i| format!("./w{i}.sh")).collect();
    let def = crate::test_support::def("h", 0, &wide.join("; "));
    let files = crate::definition_files(&def, &placement(root), &ALL_ROLES);
    assert!(
        files.uncertain.iter().any(|u| u.contains("load more than 32 files")),
        "{:?}",
        files.uncertain
    );
}

/// A Python hook's local imports (its folder is first on the module path, so a new
/// `json.py` there would shadow the standard module) and a JavaScript hook's relative
/// imports are protected with it, and what those import in turn.
#[test]
fn what_a_python_or_javascript_hook_imports_locally_is_protected_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap();
    let root = root.as_path();
    write(
        root,
        "scripts/gate.py",
        "import json\nfrom helpers import deny\nfrom policy.rules import r\n",
    );
    write(root, "scripts/helpers.py", "import second_level\n");
    write(
        root,
        "web/gate.mjs",
        "#!/usr/bin/env node\nimport { allow } from '../shared/lib.mjs';\n",
    );
    write(root, "shared/lib.mjs", "export * from './deep.mjs';\n");
    let def = crate::test_support::def("h", 0, "python3 scripts/gate.py; node web/gate.mjs");
    let files = crate::definition_files(&def, &placement(root), &ALL_ROLES);
    let expected = [
        "scripts/json.py",
        "scripts/helpers.py",
        "scripts/second_level.py",
        "shared/lib.mjs",
        "shared/deep.mjs",
    ];
    assert_paths(&files, root, &expected, true);
    let package = root.join("scripts/policy");
    assert!(files.folders.iter().any(|p| p.as_path() == package), "{:?}", files.folders);
}

/// A FIFO (or a device) where a hook's script is named is not read: building the protection
/// returns at once instead of waiting for a writer, and the path is still protected.
#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_hook_s_script_is_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = canonicalize(dir.path()).unwrap().into_path_buf();
    let fifo = root.join("gate.sh");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let at = root.clone();
    std::thread::spawn(move || {
        let def = crate::test_support::def("h", 0, "bash gate.sh; /dev/zero");
        let files = crate::definition_files(&def, &placement(&at), &ALL_ROLES);
        let _ = tx.send(files);
    });
    let files = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the protection is built without waiting on the FIFO");
    assert!(files.paths.iter().any(|p| p.as_path() == fifo), "{:?}", files.paths);
}

#[test]
fn a_git_file_names_the_repository_whose_configuration_git_reads() {
    let dir = tempfile::tempdir().unwrap();
    let d = crate::canonicalize(dir.path()).unwrap();
    let d = d.as_path();
    let abs = |p: &str| AbsPathBuf::new(d.join(p)).unwrap();
    // A worktree: its folder in the main repository, whose `commondir` leads back to it.
    std::fs::create_dir_all(d.join("repo/.git/worktrees/wt")).unwrap();
    std::fs::write(d.join("repo/.git/worktrees/wt/commondir"), "../..\n").unwrap();
    std::fs::create_dir_all(d.join("wt")).unwrap();
    std::fs::write(
        d.join("wt/.git"),
        format!("gitdir: {}\n", d.join("repo/.git/worktrees/wt").display()),
    )
    .unwrap();
    assert_eq!(
        super::linked_git_configs(&d.join("wt"), &mut Resolver::default()),
        [
            abs("repo/.git/worktrees/wt/config"),
            abs("repo/.git/worktrees/wt/config.worktree"),
            abs("repo/.git/config"),
        ]
    );
    // A submodule, named relatively; no `commondir`.
    std::fs::create_dir_all(d.join("repo/sub")).unwrap();
    std::fs::write(d.join("repo/sub/.git"), "gitdir: ../.git/modules/sub\n").unwrap();
    assert_eq!(
        super::linked_git_configs(&d.join("repo/sub"), &mut Resolver::default()),
        [abs("repo/.git/modules/sub/config"), abs("repo/.git/modules/sub/config.worktree")]
    );
    // A repository's own `.git` folder, no `.git`, an empty line: nothing.
    assert!(super::linked_git_configs(&d.join("repo"), &mut Resolver::default()).is_empty());
    assert!(super::linked_git_configs(d, &mut Resolver::default()).is_empty());
    std::fs::write(d.join("repo/sub/.git"), "gitdir:   \n").unwrap();
    assert!(super::linked_git_configs(&d.join("repo/sub"), &mut Resolver::default()).is_empty());
}

/// The files whose includes are followed (F56) are those git reads as its configuration:
/// every place the registry protects one (a repository's, a worktree's, a submodule's, a
/// bare repository's, the user's, an installation's), and no other file named `config`.
#[test]
fn git_configuration_files_are_told_by_their_names() {
    for yes in [
        "/r/.git/config",
        "/r/.git/worktrees/wt/config",
        "/r/.git/modules/sub/config",
        "/r/.git/worktrees/wt/config.worktree",
        "/srv/repo.git/config",
        "/h/.gitconfig",
        "/h/.config/git/config",
        "/usr/local/etc/gitconfig",
        "/etc/gitconfig",
    ] {
        assert!(super::is_git_config(std::path::Path::new(yes)), "{yes}");
    }
    for no in
        ["/r/config", "/r/.cargo/config", "/h/.ssh/config", "/r/.git/HEAD", "/", "/r/.gitconfig/x"]
    {
        assert!(!super::is_git_config(std::path::Path::new(no)), "{no}");
    }
}

/// The top folder of the repository of a configuration file (where git runs its hooks,
/// F57): above `.git/config`'s `.git`; for a linked worktree's folder in the main repository,
/// the folder of the `.git` file its `gitdir` names; nothing otherwise.
#[test]
fn a_configuration_s_repository_top_is_where_its_hooks_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(super::repository_top(&d.join("r/.git/config")), Some(d.join("r")));
    std::fs::create_dir_all(d.join("r/.git/worktrees/wt")).unwrap();
    std::fs::write(
        d.join("r/.git/worktrees/wt/gitdir"),
        format!("{}\n", d.join("wt/.git").display()),
    )
    .unwrap();
    assert_eq!(super::repository_top(&d.join("r/.git/worktrees/wt/config")), Some(d.join("wt")));
    std::fs::write(d.join("r/.git/worktrees/wt/gitdir"), "relative/.git\n").unwrap();
    assert_eq!(super::repository_top(&d.join("r/.git/worktrees/wt/config")), None);
    assert_eq!(super::repository_top(&d.join("h/.gitconfig")), None);
    assert_eq!(super::repository_top(&d.join("r/.git/config.worktree")), None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever a `.git` file and a `commondir` hold, reading them ends and names absolute
    /// paths only, each a `config` or `config.worktree`; a file that names a folder names its
    /// `config`.
    #[test]
    fn any_git_file_names_absolute_configuration_files_only(
        git in "(?s).{0,120}",
        names_g in proptest::prelude::any::<bool>(),
        common in "(?s).{0,80}",
    ) {
        let dir = tempfile::tempdir().unwrap();
        let d = crate::canonicalize(dir.path()).unwrap();
        let d = d.as_path();
        std::fs::create_dir_all(d.join("g")).unwrap();
        std::fs::create_dir_all(d.join("w")).unwrap();
        let git = if names_g { format!("gitdir: ../g\n{git}") } else { git };
        std::fs::write(d.join("w/.git"), &git).unwrap();
        std::fs::write(d.join("g/commondir"), &common).unwrap();
        let found = super::linked_git_configs(&d.join("w"), &mut Resolver::default());
        for config in &found {
            proptest::prop_assert!(config.as_path().is_absolute());
            let name = config.as_path().file_name().and_then(|n| n.to_str());
            proptest::prop_assert!(matches!(name, Some("config" | "config.worktree")), "{config:?}");
        }
        if names_g {
            proptest::prop_assert!(found.iter().any(|c| c.as_path() == d.join("g/config")));
        }
    }
}

/// What a program looks for in the folders above where it runs is protected in each of them
/// (finding F53), for the names where the hook runs only: the home's own files (`~/.npmrc`,
/// `~/.npm/_npx`) are not looked for above the home.
#[test]
fn what_is_found_upward_is_protected_above_where_the_hook_runs_only() {
    let dir = tempfile::tempdir().unwrap();
    let base = canonicalize(dir.path()).unwrap();
    let base = base.as_path();
    let project = base.join("work/repo/app");
    let home = base.join("users/u");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let def = crate::test_support::def("h", 0, "npm run lint && git diff --quiet");
    let mut at = placement(&project);
    at.user.home = Some(AbsPathBuf::new(home.clone()).unwrap());
    let files = crate::definition_files(&def, &at, &ALL_ROLES);
    for above in ["work/repo", "work", ""] {
        for name in [".npmrc", "package.json", ".git/config"] {
            let path = base.join(above).join(name);
            assert!(files.paths.iter().any(|p| p.as_path() == path), "{path:?}: {files:?}");
        }
        let modules = base.join(above).join("node_modules");
        assert!(files.folders.iter().any(|p| p.as_path() == modules), "{modules:?}: {files:?}");
    }
    // The home's own: where they are, not above.
    // (Protected as what a module folder is, whole: not pinned.)
    for own in [".npmrc", ".npm/_npx"] {
        assert!(files.folders.iter().any(|p| p.as_path() == home.join(own)), "{files:?}");
    }
    for above in ["users/.npmrc", "users/.npm/_npx", "users/.gitconfig"] {
        let path = base.join(above);
        let named = files.paths.iter().chain(&files.folders).any(|p| p.as_path() == path);
        assert!(!named, "{path:?}: {files:?}");
    }
}
