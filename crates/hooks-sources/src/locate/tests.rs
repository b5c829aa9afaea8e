//! Tests for finding the registered formats' files in explicit folders, project roots and
//! the user's and administrator's folders.

use std::{
    fs,
    path::{Path, PathBuf},
};

use hooks_schema::{ExplicitScope, FilePattern, FileScope, FormatId, FormatSet, HookSourceKind};
use hooks_testing::ids::{CHRYS, CLAUDE, CURSOR};

use crate::{
    Candidate, MAX_FOLDER_FILES, ManagedDirs, UserDirs, candidates, files_below, files_in,
    find_files, hook_file_candidates, managed_files, project_files, sources_for_hook_dirs,
    subfolders, user_files,
};

fn f() -> FormatSet {
    hooks_testing::workspace_formats()
}

fn touch(path: &Path) {
    write(path, "{}");
}

/// Writes `text` to `path`, making its folder.
fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn one(dir: &Path) -> (PathBuf, FormatId) {
    let s = sources_for_hook_dirs(&f(), &[dir.to_path_buf()], ExplicitScope::RunDelivered);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].scope, ExplicitScope::RunDelivered);
    (s[0].path.clone(), s[0].format)
}

#[test]
fn explicit_sources_load_as_their_scope_in_their_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    touch(&dir.join("settings.json"));
    for scope in
        [ExplicitScope::FactoryAgent, ExplicitScope::FactoryWide, ExplicitScope::RunDelivered]
    {
        let s = sources_for_hook_dirs(&f(), std::slice::from_ref(&dir), scope);
        let kind = s[0].kind();
        assert!(kind.is_explicit());
        assert_eq!(kind, HookSourceKind::explicit(scope, Some(CLAUDE)));
    }
}

#[test]
fn a_cursor_directory_holds_hooks_json() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".cursor");
    touch(&dir.join("hooks.json"));
    assert_eq!(one(&dir), (dir.join("hooks.json"), CURSOR));
}

#[test]
fn each_format_is_found_alone() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, format) in [("hooks.yaml", CHRYS), ("hooks.yml", CHRYS), ("settings.json", CLAUDE)] {
        let dir = tmp.path().join(name.replace('.', "_"));
        touch(&dir.join(name));
        assert_eq!(one(&dir), (dir.join(name), format), "{name}");
    }
}

#[test]
fn in_an_ordinary_directory_cursor_json_wins_then_yaml_then_yml_then_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("delivered");
    let order = ["hooks.json", "hooks.yaml", "hooks.yml", "settings.json"];
    for name in order {
        touch(&dir.join(name));
    }
    for name in order {
        let (path, _) = one(&dir);
        assert_eq!(path, dir.join(name));
        fs::remove_file(dir.join(name)).unwrap();
    }
}

#[test]
fn in_a_folder_named_hooks_chrys_order_applies_and_json_is_chrys() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".chrys").join("hooks");
    touch(&dir.join("hooks.json"));
    touch(&dir.join("hooks.yml"));
    assert_eq!(one(&dir), (dir.join("hooks.yml"), CHRYS));
    fs::remove_file(dir.join("hooks.yml")).unwrap();
    assert_eq!(one(&dir), (dir.join("hooks.json"), CHRYS));
    assert_eq!(hook_file_candidates(&f(), &dir)[0].0, dir.join("hooks.yaml"));
}

#[test]
fn a_directory_without_a_hook_file_still_names_one_so_loading_reports_it() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    assert_eq!(one(&empty), (empty.join("hooks.json"), CURSOR));
    let absent = tmp.path().join("absent");
    assert_eq!(one(&absent), (absent.join("hooks.json"), CURSOR));
}

#[test]
fn sources_keep_the_order_of_the_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = ["b", "a", "c"].iter().map(|n| tmp.path().join(n)).collect();
    let got = sources_for_hook_dirs(&f(), &dirs, ExplicitScope::FactoryWide);
    let parents: Vec<PathBuf> =
        got.iter().map(|s| s.path.parent().unwrap().to_path_buf()).collect();
    assert_eq!(parents, dirs);
    assert!(got.iter().all(|s| s.scope == ExplicitScope::FactoryWide));
}

#[test]
fn project_files_lists_what_exists_in_priority_order() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    assert!(project_files(&f(), root).is_empty());
    touch(&root.join(".claude/settings.json"));
    touch(&root.join(".claude/settings.local.json"));
    touch(&root.join(".chrys/hooks/hooks.json"));
    touch(&root.join(".chrys/hooks/hooks.yml"));
    touch(&root.join(".cursor/hooks.json"));
    assert_eq!(
        project_files(&f(), root),
        vec![
            (hooks_testing::kinds::PROJECT_CURSOR_FILE, root.join(".cursor/hooks.json")),
            (hooks_testing::kinds::PROJECT_CHRYS_FILE, root.join(".chrys/hooks/hooks.yml")),
            (
                hooks_testing::kinds::PROJECT_CLAUDE_LOCAL_SETTINGS,
                root.join(".claude/settings.local.json")
            ),
            (hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, root.join(".claude/settings.json")),
        ]
    );
    touch(&root.join(".chrys/hooks/hooks.yaml"));
    assert!(project_files(&f(), root).contains(&(
        hooks_testing::kinds::PROJECT_CHRYS_FILE,
        root.join(".chrys/hooks/hooks.yaml")
    )));
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_counts_as_present_so_the_reader_reports_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join(".cursor")).unwrap();
    std::os::unix::fs::symlink(root.join("nowhere"), root.join(".cursor/hooks.json")).unwrap();
    assert_eq!(
        project_files(&f(), root),
        vec![(hooks_testing::kinds::PROJECT_CURSOR_FILE, root.join(".cursor/hooks.json"))]
    );
}

#[cfg(unix)]
#[test]
fn a_hook_folder_that_cannot_be_looked_into_counts_as_present_so_the_reader_reports_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // `.cursor` and `.claude` are symlink loops: looking up a file inside fails with ELOOP,
    // which is not "nothing there" (permission denied on the folder is the same case)
    std::os::unix::fs::symlink(".cursor", root.join(".cursor")).unwrap();
    std::os::unix::fs::symlink(".claude", root.join(".claude")).unwrap();
    assert_eq!(
        project_files(&f(), root),
        vec![
            (hooks_testing::kinds::PROJECT_CURSOR_FILE, root.join(".cursor/hooks.json")),
            (
                hooks_testing::kinds::PROJECT_CLAUDE_LOCAL_SETTINGS,
                root.join(".claude/settings.local.json")
            ),
            (hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, root.join(".claude/settings.json")),
        ]
    );
    let path = root.join(".cursor/hooks.json");
    let ctx = hooks_schema::ParseContext::new(&path, hooks_testing::kinds::PROJECT_CURSOR_FILE);
    let err = crate::read_with(&f(), &ctx).expect_err("a loop is not a hook file");
    assert_eq!(err.code(), "symlink_loop", "{err}");
}

#[test]
fn a_hook_folder_that_is_a_file_holds_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::write(root.join(".cursor"), b"not a folder").unwrap();
    fs::create_dir_all(root.join(".chrys")).unwrap();
    fs::write(root.join(".chrys/hooks"), b"not a folder").unwrap();
    assert_eq!(project_files(&f(), root), vec![]);
}

#[test]
fn user_files_use_the_directories_passed_in() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let dirs = UserDirs::under_home(&f(), &home);
    assert!(user_files(&f(), &dirs).is_empty());
    touch(&home.join(".claude/settings.json"));
    touch(&home.join(".chrys/hooks/hooks.yaml"));
    touch(&home.join(".cursor/hooks.json"));
    assert_eq!(
        user_files(&f(), &dirs),
        vec![
            (hooks_testing::kinds::USER_CURSOR_FILE, home.join(".cursor/hooks.json")),
            (hooks_testing::kinds::USER_CHRYS_FILE, home.join(".chrys/hooks/hooks.yaml")),
            (hooks_testing::kinds::USER_CLAUDE_SETTINGS, home.join(".claude/settings.json")),
        ]
    );
    // A custom Chrys config directory is honored, and absent directories give nothing.
    let custom = tmp.path().join("cfg");
    touch(&custom.join("hooks/hooks.json"));
    let only_chrys = UserDirs::new().with(CHRYS, custom.clone());
    assert_eq!(
        user_files(&f(), &only_chrys),
        vec![(hooks_testing::kinds::USER_CHRYS_FILE, custom.join("hooks/hooks.json"))]
    );
    assert!(user_files(&f(), &UserDirs::default()).is_empty());
}

#[cfg(unix)]
#[test]
fn user_dirs_come_from_the_captured_environment() {
    use std::ffi::OsStr;
    let env = crate::EnvVars::from_pairs([(crate::EnvVars::HOME, OsStr::new("/h"))]);
    assert_eq!(UserDirs::from_env(&f(), &env), UserDirs::under_home(&f(), Path::new("/h")));
    assert_eq!(UserDirs::from_env(&f(), &crate::EnvVars::default()), UserDirs::default());
}

#[test]
fn an_entry_naming_a_file_is_that_file_in_the_format_its_name_says() {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, format) in [
        ("a/hooks.json", CURSOR),
        ("b/custom.yml", CHRYS),
        ("c/settings.local.json", CLAUDE),
        ("d/hooks/hooks.json", CHRYS),
    ] {
        let file = tmp.path().join(rel);
        touch(&file);
        assert_eq!(one(&file), (file.clone(), format), "{rel}");
        assert_eq!(f().format_for_file(&file).map(|d| d.id()), Some(format));
    }
}

#[test]
fn managed_files_use_the_directories_passed_in() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = ManagedDirs::new()
        .with(CURSOR, tmp.path().join("cursor"))
        .with(CLAUDE, tmp.path().join("claude-code"));
    assert!(managed_files(&f(), &dirs).is_empty());
    touch(&tmp.path().join("claude-code/managed-settings.json"));
    touch(&tmp.path().join("cursor/hooks.json"));
    assert_eq!(
        managed_files(&f(), &dirs),
        vec![
            (hooks_testing::kinds::MANAGED_CURSOR_FILE, tmp.path().join("cursor/hooks.json")),
            (
                hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                tmp.path().join("claude-code/managed-settings.json")
            ),
        ]
    );
    let system = ManagedDirs::system(&f());
    let folders: Vec<FormatId> = system.iter().map(|(id, _)| id).collect();
    assert!(folders.contains(&CURSOR) && folders.contains(&CLAUDE));
    assert_eq!(folders.len(), 2, "Chrys has no managed folder");
    assert!(system.iter().all(|(_, d)| d.is_absolute()));
}

#[test]
fn managed_fragments_are_the_visible_json_files_in_name_order_after_the_base_file() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join("claude-code");
    let d = claude.join("managed-settings.d");
    for name in ["20-b.json", "10-a.json", "99-z.json", "A-upper.json"] {
        touch(&d.join(name));
    }
    // Left out: hidden, not `.json`, a folder named like a fragment, a fragment one level down.
    touch(&d.join(".hidden.json"));
    touch(&d.join("notes.txt"));
    touch(&d.join("30-c.json.bak"));
    touch(&d.join("40-dir.json/inner.json"));
    let (fragments, warnings) = files_in(&d, ".json");
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<String> =
        fragments.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["10-a.json", "20-b.json", "99-z.json", "A-upper.json"]);
    assert!(fragments.iter().all(|f| f.parent() == Some(d.as_path())));

    // Without the base file the fragments still load; with it they come after it.
    let dirs = ManagedDirs::new().with(CLAUDE, claude.clone());
    let kinds_and_names = |dirs: &ManagedDirs| -> Vec<(HookSourceKind, String)> {
        managed_files(&f(), dirs)
            .into_iter()
            .map(|(k, p)| (k, p.strip_prefix(&claude).unwrap().display().to_string()))
            .collect()
    };
    assert_eq!(kinds_and_names(&dirs).len(), 4);
    touch(&claude.join("managed-settings.json"));
    let listed = kinds_and_names(&dirs);
    assert!(listed.iter().all(|(k, _)| *k == hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS));
    let listed: Vec<&str> = listed.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        listed,
        [
            "managed-settings.json",
            "managed-settings.d/10-a.json",
            "managed-settings.d/20-b.json",
            "managed-settings.d/99-z.json",
            "managed-settings.d/A-upper.json",
        ]
    );
}

/// A recursive folder (Copilot CLI's `.github/hooks`, which Copilot 1.0.102 reads with its
/// subfolders): every visible file at any depth down to the nesting cap, in path order;
/// hidden folders and links to the folder or above it are not entered.
#[test]
fn a_recursive_folder_gives_its_subfolders_files_in_path_order() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("hooks");
    for name in ["z.json", "a.json", "sub/b.json", "sub/deeper/c.json", "m/x.json"] {
        touch(&d.join(name));
    }
    touch(&d.join(".hidden/h.json"));
    touch(&d.join("sub/.h.json"));
    touch(&d.join("sub/notes.txt"));
    let deep = (0..=FilePattern::MAX_NESTING).fold(d.clone(), |p, i| p.join(format!("d{i}")));
    touch(&deep.join("too-deep.json"));
    touch(&deep.parent().unwrap().join("deepest.json"));
    #[cfg(unix)]
    std::os::unix::fs::symlink(tmp.path(), d.join("loop")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&d, d.join("sub/self")).unwrap();
    let (files, warnings) = files_below(&d, ".json", FilePattern::MAX_NESTING);
    assert!(warnings.is_empty(), "{warnings:?}");
    let rel: Vec<String> =
        files.iter().map(|p| p.strip_prefix(&d).unwrap().display().to_string()).collect();
    let deepest = format!(
        "{}/deepest.json",
        (0..FilePattern::MAX_NESTING).map(|i| format!("d{i}")).collect::<Vec<_>>().join("/")
    );
    assert_eq!(
        rel,
        ["a.json", deepest.as_str(), "m/x.json", "sub/b.json", "sub/deeper/c.json", "z.json"]
    );
    // One level: the folder's own files only, as files_in gives them.
    assert_eq!(files_below(&d, ".json", 0), files_in(&d, ".json"));
    assert_eq!(files_in(&d, ".json").0, [d.join("a.json"), d.join("z.json")]);
    // The folders the watcher watches for it: the same rules.
    let folders: Vec<String> = subfolders(&d)
        .iter()
        .map(|p| p.strip_prefix(&d).unwrap().display().to_string())
        .filter(|p| !p.starts_with("d0"))
        .collect();
    assert_eq!(folders, ["m", "sub", "sub/deeper"]);
    assert_eq!(
        subfolders(&d).iter().filter(|p| p.starts_with(d.join("d0"))).count(),
        FilePattern::MAX_NESTING
    );

    // Through the descriptor: a project's Copilot files in a subfolder are found.
    let copilot = hooks_testing::copilot_formats();
    touch(&tmp.path().join(".github/hooks/sub/nested.json"));
    touch(&tmp.path().join(".github/hooks/top.json"));
    let found = project_files(&copilot, tmp.path());
    let rel: Vec<String> = found
        .iter()
        .map(|(_, p)| p.strip_prefix(tmp.path()).unwrap().display().to_string())
        .collect();
    assert_eq!(rel, [".github/hooks/sub/nested.json", ".github/hooks/top.json"]);
}

#[test]
fn no_fragment_folder_or_a_file_in_its_place_gives_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("managed-settings.d");
    assert_eq!(files_in(&d, ".json"), (Vec::new(), Vec::new()));
    touch(&d);
    assert_eq!(files_in(&d, ".json"), (Vec::new(), Vec::new()));
}

#[cfg(unix)]
#[test]
fn fragment_symlinks_count_when_they_reach_a_regular_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("managed-settings.d");
    touch(&tmp.path().join("real.json"));
    fs::create_dir_all(&d).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("real.json"), d.join("10-link.json")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("gone.json"), d.join("20-dangling.json")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), d.join("30-folder.json")).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(d.join("40-fifo.json")).status().unwrap();
    assert!(fifo.success());
    let (fragments, _) = files_in(&d, ".json");
    assert_eq!(fragments, [d.join("10-link.json")]);
}

#[test]
fn at_most_the_first_fragments_by_name_are_read_and_a_warning_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join("claude-code");
    let d = claude.join("managed-settings.d");
    fs::create_dir_all(&d).unwrap();
    let total = MAX_FOLDER_FILES + 3;
    // Written in reverse so the listing order is not the name order.
    for i in (0..total).rev() {
        fs::write(d.join(format!("{i:04}.json")), b"{}").unwrap();
    }
    let (fragments, warnings) = files_in(&d, ".json");
    assert_eq!(fragments.len(), MAX_FOLDER_FILES);
    assert_eq!(fragments.first(), Some(&d.join("0000.json")));
    assert_eq!(fragments.last(), Some(&d.join(format!("{:04}.json", MAX_FOLDER_FILES - 1))));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code.as_deref(), Some("too_many_files"));
    assert!(
        warnings[0].message.contains(&format!("holds {total} files")),
        "{}",
        warnings[0].message
    );
    assert_eq!(warnings[0].source.as_deref(), Some(d.as_path()));
    let dirs = ManagedDirs::new().with(CLAUDE, claude);
    let files = find_files(&f(), FileScope::Managed, Path::new(""), &dirs);
    assert_eq!(files.len(), MAX_FOLDER_FILES);
    let warned: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.folder_warnings.is_empty())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(warned, [MAX_FOLDER_FILES - 1], "the folder's warning rides on its last file");
}

#[cfg(unix)]
#[test]
fn a_fragment_folder_that_cannot_be_listed_gives_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("managed-settings.d");
    // A symlink loop: listing fails with ELOOP, which is not "no folder".
    std::os::unix::fs::symlink("managed-settings.d", &d).unwrap();
    let (fragments, warnings) = files_in(&d, ".json");
    assert!(fragments.is_empty());
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code.as_deref(), Some("folder_unreadable"));
    assert_eq!(warnings[0].source.as_deref(), Some(d.as_path()));
}

#[test]
fn a_chrys_file_knows_what_it_shadows_and_what_would_replace_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    touch(&root.join(".chrys/hooks/hooks.yml"));
    touch(&root.join(".chrys/hooks/hooks.json"));
    let found = find_files(&f(), FileScope::Project, root, &UserDirs::new());
    let [chrys] = found.as_slice() else { panic!("{found:?}") };
    assert_eq!(chrys.path, root.join(".chrys/hooks/hooks.yml"));
    assert_eq!(chrys.shadows, ["hooks.json"]);
    assert_eq!(chrys.replaced_by, ["hooks.yaml"]);
}

#[test]
fn candidates_name_every_path_of_a_scope_whether_or_not_it_exists() {
    let root = Path::new("/r");
    let paths: Vec<String> = candidates(&f(), FileScope::Project, root, &UserDirs::new())
        .into_iter()
        .map(|c| match c {
            Candidate::File { path, .. } => path.display().to_string(),
            Candidate::EachIn { dir, suffix, .. } => format!("{}/*{suffix}", dir.display()),
        })
        .collect();
    assert_eq!(
        paths,
        [
            "/r/.cursor/hooks.json",
            "/r/.chrys/hooks/hooks.yaml",
            "/r/.chrys/hooks/hooks.yml",
            "/r/.chrys/hooks/hooks.json",
            "/r/.claude/settings.local.json",
            "/r/.claude/settings.json",
            "/r/.claude/agents/*.md",
            "/r/.claude/skills/*SKILL.md",
            "/r/.claude/commands/*.md",
        ]
    );
    let home = Path::new("/h");
    let user = candidates(&f(), FileScope::User, Path::new(""), &UserDirs::under_home(&f(), home));
    assert!(
        user.contains(&Candidate::File {
            kind: hooks_testing::kinds::USER_CHRYS_SETTINGS,
            path: home.join(".chrys/settings.yaml"),
        }),
        "the policy-only settings file is a candidate too: {user:?}"
    );
    let managed =
        candidates(&f(), FileScope::Managed, Path::new(""), &ManagedDirs::new().with(CLAUDE, "/m"));
    assert!(managed.contains(&Candidate::EachIn {
        kind: hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
        dir: PathBuf::from("/m/managed-settings.d"),
        suffix: ".json",
    }));
}

#[test]
fn a_relative_folder_is_neither_found_nor_named() {
    let dirs = UserDirs::new().with(CURSOR, "relative/.cursor");
    assert!(candidates(&f(), FileScope::User, Path::new(""), &dirs).is_empty());
}

/// The folders an agent loads hooks from by itself (plugins, extensions) are protected whole
/// under the user's folder of their format, wherever that folder is (an environment override
/// moves it), and only where it is known.
#[test]
fn the_agents_own_plugin_folders_are_expected_under_their_user_folders() {
    let formats = f();
    let named = |expected: &hooks_registry::ExpectedFiles| {
        expected
            .folders
            .iter()
            .filter(|(kind, _)| kind.name() == "user_claude_plugins")
            .map(|(_, p)| p.clone())
            .collect::<Vec<_>>()
    };
    let user = UserDirs::under_home(&formats, Path::new("/home/u"));
    let expected = crate::expected_files(&formats, Some(&user), None);
    assert_eq!(named(&expected), [PathBuf::from("/home/u/.claude/plugins")]);
    let moved = user.with(CLAUDE, "/opt/claude");
    assert_eq!(
        named(&crate::expected_files(&formats, Some(&moved), None)),
        [PathBuf::from("/opt/claude/plugins")]
    );
    // Without user folders nothing of the user's is named, and nothing under project roots.
    let none = crate::expected_files(&formats, None, None);
    assert!(named(&none).is_empty(), "{none:?}");
    assert!(!none.folders_under_roots.iter().any(|(k, _)| k.name().contains("plugin")));
    // Folders under every project root: Claude Code's subagents, skills and commands.
    for (kind, dir) in [
        ("project_claude_agents", ".claude/agents"),
        ("project_claude_skills", ".claude/skills"),
        ("project_claude_commands", ".claude/commands"),
    ] {
        assert!(
            none.folders_under_roots.iter().any(|(k, p)| k.name() == kind && *p == Path::new(dir)),
            "{kind}: {:?}",
            none.folders_under_roots
        );
    }
    assert!(
        expected
            .folders
            .iter()
            .any(|(k, p)| k.name() == "user_claude_skills"
                && *p == Path::new("/home/u/.claude/skills")),
        "{:?}",
        expected.folders
    );
    // Every project folder of hook files is protected below a root at any depth too (a
    // session started in a package reads that package's), Claude Code's skills once, and so
    // is each agent's folder of hook scripts (since session 22).
    let nested: Vec<(String, PathBuf)> =
        none.nested_folders.iter().map(|(k, p)| (k.name(), p.clone())).collect();
    let named = |k: &str, p: &str| (k.to_owned(), PathBuf::from(p));
    assert_eq!(
        nested,
        [
            named("project_claude_agents", ".claude/agents"),
            named("project_claude_skills", ".claude/skills"),
            named("project_claude_commands", ".claude/commands"),
            named("project_cursor_hook_scripts", ".cursor/hooks"),
            named("project_chrys_hook_scripts", ".chrys/hooks"),
            named("project_claude_hook_scripts", ".claude/hooks"),
        ]
    );
    let files: Vec<(String, PathBuf)> =
        none.nested_files.iter().map(|(k, p)| (k.name(), p.clone())).collect();
    assert!(
        files.contains(&named("project_claude_settings", ".claude/settings.json")),
        "{files:?}"
    );
    assert_eq!(files.len(), none.under_roots.len(), "every project file: {files:?}");
}

/// The environment `pairs` as the engine captures it for `formats` (their own variables
/// included).
fn env_of(formats: &FormatSet, pairs: &[(&str, &str)]) -> crate::EnvVars {
    crate::EnvVars::from_lookup_with(formats, |name| {
        pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| std::ffi::OsString::from(v))
    })
}

/// The managed candidates of `formats` in `dirs`, as paths.
fn managed_candidates(formats: &FormatSet, dirs: &ManagedDirs) -> Vec<PathBuf> {
    candidates(formats, FileScope::Managed, Path::new(""), dirs)
        .into_iter()
        .map(|c| match c {
            Candidate::File { path, .. } => path,
            Candidate::EachIn { dir, .. } => dir,
        })
        .collect()
}

/// Gemini CLI reads its system settings from the file `GEMINI_CLI_SYSTEM_SETTINGS_PATH` names
/// and its system defaults from `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else beside the settings:
/// the engine looks (and protects, and watches) where the agent reads. An empty value is left
/// out; a relative one names a file from the process's working directory, as Gemini CLI
/// opens it, and is left out where that is not known.
#[test]
fn the_variables_that_name_a_system_file_move_it_and_the_folder_beside_it() {
    let g = hooks_testing::gemini_formats();
    let (settings, defaults) =
        ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH");
    assert_eq!(crate::EnvVars::format_var_names(&g), ["GEMINI_CLI_HOME", settings, defaults]);
    let system = ManagedDirs::system(&g);
    assert_eq!(ManagedDirs::system_from_env(&g, &env_of(&g, &[])), system);
    if cfg!(target_os = "linux") {
        assert_eq!(
            managed_candidates(&g, &system),
            [
                PathBuf::from("/etc/gemini-cli/system-defaults.json"),
                PathBuf::from("/etc/gemini-cli/settings.json")
            ]
        );
    }

    let moved =
        ManagedDirs::system_from_env(&g, &env_of(&g, &[(settings, "/opt/corp/gemini.json")]));
    assert_eq!(
        managed_candidates(&g, &moved),
        [PathBuf::from("/opt/corp/system-defaults.json"), PathBuf::from("/opt/corp/gemini.json")]
    );
    let both = ManagedDirs::system_from_env(
        &g,
        &env_of(&g, &[(settings, "/opt/corp/gemini.json"), (defaults, "/srv/defaults.json")]),
    );
    assert_eq!(
        managed_candidates(&g, &both),
        [PathBuf::from("/srv/defaults.json"), PathBuf::from("/opt/corp/gemini.json")]
    );
    for ignored in ["corp/gemini.json", ""] {
        let dirs = ManagedDirs::system_from_env(&g, &env_of(&g, &[(settings, ignored)]));
        assert_eq!(dirs, system, "{ignored:?}");
    }
    // Before session 22 a relative value was left out even with the working directory known:
    // the file Gemini CLI reads as the system's settings was then neither read nor protected.
    let relative = env_of(&g, &[(settings, "corp/gemini.json")]).with_cwd("/work/proj");
    assert_eq!(
        managed_candidates(&g, &ManagedDirs::system_from_env(&g, &relative)),
        [
            PathBuf::from("/work/proj/corp/system-defaults.json"),
            PathBuf::from("/work/proj/corp/gemini.json")
        ]
    );
    let empty = env_of(&g, &[(settings, "")]).with_cwd("/work/proj");
    assert_eq!(ManagedDirs::system_from_env(&g, &empty), system);

    // Found where it is named, and under its own kind.
    let tmp = tempfile::tempdir().unwrap();
    let named = tmp.path().join("corp/gemini.json");
    touch(&named);
    let found = find_files(
        &g,
        FileScope::Managed,
        Path::new(""),
        &ManagedDirs::system_from_env(&g, &env_of(&g, &[(settings, named.to_str().unwrap())])),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].path, named);
    assert_eq!(found[0].kind, hooks_testing::kinds::MANAGED_GEMINI_SETTINGS);
}

/// A system file someone else than root can write is found (so it is protected, and a
/// listing says why nothing of it runs) but marked not to be read, with the reason; loaded,
/// it brings no hook, and its hooks do not run.
#[test]
fn a_system_file_others_can_write_is_found_but_not_read() {
    let g = hooks_testing::gemini_formats();
    let tmp = tempfile::tempdir().unwrap();
    let etc = tmp.path().join("gemini-cli");
    let file = etc.join("settings.json");
    fs::create_dir_all(&etc).unwrap();
    fs::write(
        &file,
        r#"{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command", "command": "./gate.sh"}]}]}}"#,
    )
    .unwrap();
    fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o664)).unwrap();
    let dirs = ManagedDirs::new().with(hooks_testing::ids::GEMINI, &etc);
    let found = find_files(&g, FileScope::Managed, Path::new(""), &dirs);
    assert_eq!(found.len(), 1, "{found:?}");
    let why = found[0].not_read.as_ref().expect("not read");
    assert_eq!(why.code.as_deref(), Some("not_administrator_only"));
    assert!(
        why.message.starts_with(
            "not read: Gemini CLI reads this file only when no one but root can write it"
        ),
        "{}",
        why.message
    );
    assert!(
        why.message.contains("can be written by its group or by others")
            || why.message.contains("does not belong to root"),
        "{}",
        why.message
    );
    assert_eq!(why.source.as_deref(), Some(file.as_path()));

    let mut registry = hooks_registry::HookRegistry::new();
    let policy = hooks_trust::StaticTrustPolicy;
    let inputs = hooks_trust::TrustInputs::new(
        hooks_trust::Surface::CliRun,
        hooks_trust::CommandExecutionPosture::AutoApproves,
    );
    let ids = crate::load_managed_sources(&g, &dirs, &policy, &inputs, false, &mut registry);
    assert_eq!(ids.len(), 1);
    let snapshot = registry.snapshot();
    let view = snapshot.source(&ids[0]).expect("loaded");
    assert!(view.definitions.is_empty(), "{:?}", view.definitions);
    assert!(view.diagnostics.iter().any(|d| d.code.as_deref() == Some("not_administrator_only")));
}

/// Copilot CLI reads a `policy.d` file only when root owns it and no one else may write it:
/// one that its group or others can write (here, under a temporary folder anyone can write)
/// is found, protected and listed, but not read, with the reason. Before, the engine ran its
/// hooks as the administrator's.
#[test]
fn a_copilot_policy_file_others_can_write_is_found_but_not_read() {
    let c = hooks_testing::copilot_formats();
    let tmp = tempfile::tempdir().unwrap();
    let etc = tmp.path().join("github-copilot");
    let file = etc.join("policy.d/00-gate.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(
        &file,
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./gate.sh"}]}}"#,
    )
    .unwrap();
    fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o664)).unwrap();
    let dirs = ManagedDirs::new().with(hooks_testing::ids::COPILOT, &etc);
    let found = find_files(&c, FileScope::Managed, Path::new(""), &dirs);
    assert_eq!(found.len(), 1, "{found:?}");
    let why = found[0].not_read.as_ref().expect("not read");
    assert_eq!(why.code.as_deref(), Some("not_administrator_only"));
    assert!(
        why.message.starts_with(
            "not read: Copilot CLI reads this file only when no one but root can write it"
        ),
        "{}",
        why.message
    );
}

/// A session started in a subfolder of a repository reads each format's project files where
/// its agent does (observed with the real CLIs, `specs/bridge.md`): Claude Code's, Gemini
/// CLI's and Copilot CLI's in the session's folder only, Codex's in every folder from the
/// root down, Cursor's and Chrys's at the root; a session at the root reads the root's files
/// of every format, as `project_files` does.
#[test]
fn a_session_in_a_subfolder_reads_each_format_s_project_files_where_its_agent_does() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    let session = root.join("pkg/app");
    for base in [&root, &root.join("pkg"), &session] {
        for rel in [
            ".claude/settings.json",
            ".gemini/settings.json",
            ".github/hooks/a.json",
            ".codex/hooks.json",
            ".cursor/hooks.json",
            ".chrys/hooks/hooks.yaml",
        ] {
            touch(&base.join(rel));
        }
    }
    let formats = hooks_testing::every_format();
    let found = crate::session_project_files(&formats, &root, &session);
    let seen: Vec<(String, PathBuf)> = found
        .iter()
        .map(|(kind, path, folder)| {
            assert!(path.starts_with(folder), "{path:?} is found in {folder:?}");
            (kind.name(), path.strip_prefix(tmp.path()).unwrap().to_path_buf())
        })
        .collect();
    let want = |kind: &str, rel: &str| (kind.to_owned(), PathBuf::from(rel));
    for expected in [
        want("project_claude_settings", "repo/pkg/app/.claude/settings.json"),
        want("project_gemini_settings", "repo/pkg/app/.gemini/settings.json"),
        want("project_copilot_hooks", "repo/pkg/app/.github/hooks/a.json"),
        want("project_codex_hooks", "repo/.codex/hooks.json"),
        want("project_codex_hooks", "repo/pkg/.codex/hooks.json"),
        want("project_codex_hooks", "repo/pkg/app/.codex/hooks.json"),
        want("project_cursor_file", "repo/.cursor/hooks.json"),
    ] {
        assert!(seen.contains(&expected), "{expected:?} in {seen:#?}");
    }
    assert_eq!(seen.iter().filter(|(k, _)| k.contains("chrys")).count(), 1, "{seen:#?}");
    for (kind, _, folder) in &found {
        let (kind, codex) = (kind.name(), kind.name() == "project_codex_hooks");
        let session_format = ["claude", "gemini", "copilot"].iter().any(|f| kind.contains(f));
        match (codex, session_format) {
            (true, _) => assert!(session.starts_with(folder) && folder.starts_with(&root)),
            (false, true) => assert_eq!(folder, &session, "{kind}"),
            (false, false) => assert_eq!(folder, &root, "{kind}"),
        }
    }
    // The Codex files from the session's folder up, so that the deeper ranks higher, as in
    // Codex.
    let codex: Vec<&PathBuf> =
        seen.iter().filter(|(k, _)| k == "project_codex_hooks").map(|(_, p)| p).collect();
    assert_eq!(
        codex,
        [
            &PathBuf::from("repo/pkg/app/.codex/hooks.json"),
            &PathBuf::from("repo/pkg/.codex/hooks.json"),
            &PathBuf::from("repo/.codex/hooks.json")
        ]
    );
    // At the root, and for a folder outside it: the root's files, as `project_files` finds
    // them.
    let at_root: Vec<(HookSourceKind, PathBuf)> =
        crate::session_project_files(&formats, &root, &root)
            .into_iter()
            .map(|(k, p, folder)| {
                assert_eq!(folder, root);
                (k, p)
            })
            .collect();
    assert_eq!(at_root, project_files(&formats, &root));
    let outside: Vec<(HookSourceKind, PathBuf)> =
        crate::session_project_files(&formats, &root, tmp.path())
            .into_iter()
            .map(|(k, p, _)| (k, p))
            .collect();
    assert_eq!(outside, at_root);
}

/// A variable that moves a user folder (`GEMINI_CLI_HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`),
/// set to a relative path, names the folder from the process's working directory, as the
/// agents open it. Before session 22 it was left out and the home's folder used instead, so
/// the folder the agent reads was neither read nor protected.
#[test]
fn a_relative_user_folder_variable_names_the_folder_from_the_working_directory() {
    let g = hooks_testing::gemini_formats();
    let gemini = hooks_testing::ids::GEMINI;
    let env = env_of(&g, &[("HOME", "/home/u"), ("GEMINI_CLI_HOME", "alt")]);
    assert_eq!(
        UserDirs::from_env(&g, &env).folder(gemini),
        Some(Path::new("/home/u/.gemini")),
        "without a working directory, as before"
    );
    let env = env.with_cwd("/work/proj");
    assert_eq!(
        UserDirs::from_env(&g, &env).folder(gemini),
        Some(Path::new("/work/proj/alt/.gemini"))
    );
    let every = hooks_testing::every_format();
    let env = env_of(&every, &[("HOME", "/home/u"), ("CLAUDE_CONFIG_DIR", "cfg/claude")])
        .with_cwd("/work/proj");
    assert_eq!(
        UserDirs::from_env(&every, &env).folder(CLAUDE),
        Some(Path::new("/work/proj/cfg/claude"))
    );
}

/// The folders below a root that hold project hook files of their own, found by a bounded
/// walk that enters no hidden folder, no `node_modules` and no link, and says when it stopped
/// short.
#[test]
fn nested_project_folders_are_found_below_the_root_within_bounds() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    for rel in [
        ".claude/settings.json",
        "packages/api/.claude/settings.json",
        "packages/api/src/deep/.gemini/settings.json",
        "packages/web/.github/hooks/a.json",
        "tools/.codex/hooks.json",
        "docs/readme.md",
        ".hidden/pkg/.claude/settings.json",
        "node_modules/dep/.claude/settings.json",
        "elsewhere/.cursor/hooks.json",
        "target/debug/pkg/.claude/settings.json",
        "out/keep/.claude/settings.json",
        "out/gen/.claude/settings.json",
        "excluded/.claude/settings.json",
    ] {
        touch(&root.join(rel));
    }
    // Ignored by the root's `.gitignore` (`out/keep` too: git takes nothing back below an
    // ignored folder) and by `.git/info/exclude`; `packages/api` ignores its own `.claude/`,
    // which still counts.
    std::fs::write(root.join(".gitignore"), "/target\nout/\n").unwrap();
    std::fs::write(root.join("packages/api/.gitignore"), ".claude/\n").unwrap();
    touch(&root.join(".git/info/exclude"));
    std::fs::write(root.join(".git/info/exclude"), "excluded\n").unwrap();
    std::os::unix::fs::symlink(root.join("packages"), root.join("link")).unwrap();
    // A folder whose name is not UTF-8 is looked through like any other.
    let odd = root.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"odd\xff"));
    touch(&odd.join("inner/.claude/settings.json"));
    let formats = hooks_testing::every_format();
    let found = super::nested_project_folders(&formats, &root);
    assert!(found.folders.contains(&odd.join("inner")), "{found:?}");
    let rel: Vec<PathBuf> = found
        .folders
        .iter()
        .filter(|f| !f.starts_with(&odd))
        .map(|f| f.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        rel,
        ["elsewhere", "packages/api", "packages/api/src/deep", "packages/web", "tools"]
            .map(PathBuf::from)
    );
    assert!(found.complete);
    // Two folders read (the root and the first below it): the walk stops and says so.
    let short = super::nested_within(&formats, &root, 2, super::NESTED_MAX_DEPTH);
    assert!(!short.complete);
    assert!(short.folders.len() < found.folders.len(), "{short:?}");
    // Depth 2 reaches `packages/api`, not `packages/api/src/deep`.
    let shallow = super::nested_within(&formats, &root, super::NESTED_MAX_FOLDERS, 2);
    assert!(shallow.complete);
    assert!(shallow.folders.contains(&root.join("packages/api")));
    assert!(!shallow.folders.contains(&root.join("packages/api/src/deep")));
    // No format, nothing looked for.
    let none = super::nested_project_folders(&FormatSet::new(Vec::new()), &root);
    assert!(none.folders.is_empty() && none.complete);
}

/// The folders the agents load in place of an entry of their own user folders: a Gemini CLI
/// extension's install file of type `link` names one, an entry that is a symbolic link to a
/// folder is one; copies, broken or non-folder links, files and a FIFO where the install file
/// should be (never waited on) name none.
#[test]
fn linked_folders_are_read_from_link_files_and_symbolic_links() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let src = tmp.path().join("src");
    let extensions = home.join(".gemini/extensions");
    let install = |name: &str, text: &str| {
        let path = extensions.join(name).join(".gemini-extension-install.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    install("linked", &format!(r#"{{"type": "link", "source": "{}/my-ext"}}"#, src.display()));
    install("relative", r#"{"type": "link", "source": "in-repo/ext"}"#);
    install("copied", r#"{"type": "local", "source": "/elsewhere"}"#);
    install("broken", "{");
    fs::create_dir_all(extensions.join("fifo")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(extensions.join("fifo/.gemini-extension-install.json"))
        .status()
        .unwrap();
    assert!(status.success());
    fs::create_dir_all(src.join("sym-ext")).unwrap();
    std::os::unix::fs::symlink(src.join("sym-ext"), extensions.join("sym")).unwrap();
    std::os::unix::fs::symlink(src.join("missing"), extensions.join("dangling")).unwrap();
    fs::write(src.join("file"), b"").unwrap();
    std::os::unix::fs::symlink(src.join("file"), extensions.join("to-a-file")).unwrap();
    fs::write(extensions.join("extension-enablement.json"), b"{}").unwrap();
    // A skill folder of Claude Code's that is a link, under another agent folder.
    fs::create_dir_all(home.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(src.join("sym-ext"), home.join(".claude/skills/shared")).unwrap();

    let formats = hooks_testing::every_format();
    let user = UserDirs::under_home(&formats, &home);
    let mut found: Vec<(String, PathBuf, Option<PathBuf>, usize)> =
        crate::linked_folders(&formats, Some(&user), None)
            .into_iter()
            .map(|l| (l.kind.name().to_owned(), l.folder, l.holder, l.parts.len()))
            .collect();
    found.sort();
    let gemini = Some(home.join(".gemini"));
    assert_eq!(
        found,
        [
            (
                "user_claude_skills".to_owned(),
                home.join(".claude/skills/shared"),
                Some(home.join(".claude")),
                0
            ),
            ("user_gemini_extensions".to_owned(), extensions.join("sym"), gemini.clone(), 3),
            ("user_gemini_extensions".to_owned(), src.join("my-ext"), gemini.clone(), 3),
            ("user_gemini_extensions".to_owned(), PathBuf::from("in-repo/ext"), gemini, 3),
        ]
    );
    assert!(crate::linked_folders(&formats, None, None).is_empty());
}

/// The user scope's files include the hook files of Gemini CLI's extensions: an installed
/// extension's, a linked one's where it lives (an absolute `source`; a relative one is taken
/// from wherever Gemini CLI runs and is not read), under the extensions' kind, as files that
/// may carry hooks.
#[test]
fn the_extensions_hook_files_are_found_where_gemini_cli_loads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let extensions = home.join(".gemini/extensions");
    touch(&extensions.join("installed/hooks/hooks.json"));
    fs::create_dir_all(extensions.join("no-hooks")).unwrap();
    let linked = tmp.path().join("src/linked");
    touch(&linked.join("hooks/hooks.json"));
    let install = |name: &str, source: &str| {
        let path = extensions.join(name).join(".gemini-extension-install.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, format!(r#"{{"type": "link", "source": "{source}"}}"#)).unwrap();
    };
    install("dev", linked.to_str().unwrap());
    install("relative", "src/linked");
    // A linked extension's own folder under `extensions/` is not where its hooks are read.
    touch(&extensions.join("dev/hooks/hooks.json"));

    let formats = hooks_testing::every_format();
    let user = UserDirs::under_home(&formats, &home);
    let found: Vec<(String, PathBuf)> = find_files(&formats, FileScope::User, Path::new(""), &user)
        .into_iter()
        .filter(|f| f.kind.name() == "user_gemini_extensions")
        .inspect(|f| assert_eq!(f.content, hooks_schema::FileContent::HooksIfAny))
        .map(|f| (f.kind.name().to_owned(), f.path))
        .collect();
    let kind = "user_gemini_extensions".to_owned();
    assert_eq!(
        found,
        [
            (kind.clone(), linked.join("hooks/hooks.json")),
            (kind, extensions.join("installed/hooks/hooks.json"))
        ]
    );
    assert!(user_files(&formats, &user).iter().any(|(k, _)| k.name() == "user_gemini_extensions"));
    assert!(
        find_files(&formats, FileScope::Project, &home, &crate::ScopeDirs::new())
            .iter()
            .all(|f| f.kind.name() != "user_gemini_extensions")
    );
    assert_eq!(
        formats.kind_named("user_gemini_extensions").map(|k| k.name()),
        Some("user_gemini_extensions".to_owned())
    );
}

/// A link to a folder elsewhere is entered, as the agents read through it (a skill linked from
/// a shared folder), once per folder it leads to; a dangling one, or one to a file named like
/// a folder, gives nothing more.
#[cfg(unix)]
#[test]
fn a_recursive_folder_enters_links_to_folders_elsewhere_once() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("repo/.claude/skills");
    touch(&d.join("own/SKILL.md"));
    touch(&tmp.path().join("repo/shared/skills/deploy/SKILL.md"));
    touch(&tmp.path().join("repo/shared/skills/deploy/nested/SKILL.md"));
    std::os::unix::fs::symlink("../../shared/skills/deploy", d.join("deploy")).unwrap();
    std::os::unix::fs::symlink("../../shared/skills/deploy", d.join("again")).unwrap();
    std::os::unix::fs::symlink("../../shared/missing", d.join("dangling")).unwrap();
    let (files, warnings) = files_below(&d, "SKILL.md", FilePattern::MAX_NESTING);
    assert!(warnings.is_empty(), "{warnings:?}");
    let rel: Vec<String> =
        files.iter().map(|p| p.strip_prefix(&d).unwrap().display().to_string()).collect();
    let once = rel.iter().filter(|r| r.ends_with("nested/SKILL.md")).count();
    assert_eq!(once, 1, "{rel:?}");
    assert!(rel.contains(&"own/SKILL.md".to_owned()), "{rel:?}");
    assert_eq!(rel.len(), 3, "{rel:?}");
}

/// Claude Code's plugins' folder's indexes are followed: a marketplace added from a local
/// folder leads to its manifest and each plugin's folder in it, a plugin's manifest to the
/// hook files it names; the installed plugins lead to their copies. Each folder is a linked
/// folder of the plugins' kind (whole, or its parts in a project); the plugins' default hook
/// files are sources of that kind, found once each. A FIFO, a broken file or a missing one
/// leads nowhere, and nothing is found without the user's folders.
#[cfg(unix)]
#[test]
fn claude_code_s_local_marketplaces_are_followed_to_their_plugins() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let plugins = home.join(".claude/plugins");
    let market = tmp.path().join("work/market");
    write(
        &plugins.join("known_marketplaces.json"),
        &format!(
            r#"{{"dev": {{"source": {{"source": "directory", "path": "{m}"}}, "installLocation": "{m}"}},
                "gone": {{"source": {{"source": "directory", "path": "{t}/gone"}}}},
                "fifo": {{"source": {{"source": "directory", "path": "{t}/fifo"}}}},
                "remote": {{"source": {{"source": "github", "repo": "o/r"}}, "installLocation": "{p}/marketplaces/o-r"}}}}"#,
            m = market.display(),
            t = tmp.path().display(),
            p = plugins.display()
        ),
    );
    write(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name": "dev", "plugins": [{"name": "p", "source": "./p"}, {"name": "q", "source": "./q"}]}"#,
    );
    write(
        &market.join("p/.claude-plugin/plugin.json"),
        r#"{"name": "p", "hooks": "./config/gate.json"}"#,
    );
    write(&market.join("p/hooks/hooks.json"), r#"{"hooks": {}}"#);
    write(&market.join("p/config/gate.json"), r#"{"hooks": {}}"#);
    // `q` has no hook file.
    fs::create_dir_all(market.join("q")).unwrap();
    fs::create_dir_all(tmp.path().join("fifo/.claude-plugin")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(tmp.path().join("fifo/.claude-plugin/marketplace.json"))
        .status()
        .unwrap();
    assert!(status.success());
    let cached = plugins.join("cache/dev/p/1.0.0");
    write(&cached.join("hooks/hooks.json"), r#"{"hooks": {}}"#);
    write(
        &plugins.join("installed_plugins.json"),
        &format!(
            r#"{{"version": 2, "plugins": {{"p@dev": [{{"scope": "user", "installPath": "{}"}}]}}}}"#,
            cached.display()
        ),
    );

    let formats = hooks_testing::every_format();
    let user = UserDirs::under_home(&formats, &home);
    let mut found: Vec<(String, PathBuf, Vec<PathBuf>)> =
        crate::linked_folders(&formats, Some(&user), None)
            .into_iter()
            .filter(|l| l.kind.name() == "user_claude_plugins")
            .inspect(|l| assert_eq!(l.holder.as_deref(), Some(home.join(".claude").as_path())))
            .map(|l| (l.kind.name().to_owned(), l.folder, l.parts))
            .collect();
    found.sort();
    let kind = "user_claude_plugins".to_owned();
    let parts = |p: &[&str]| p.iter().map(PathBuf::from).collect::<Vec<_>>();
    let plugin_parts = parts(&["hooks", ".claude-plugin"]);
    assert_eq!(
        found,
        [
            (kind.clone(), tmp.path().join("fifo"), parts(&[".claude-plugin"])),
            (kind.clone(), tmp.path().join("gone"), parts(&[".claude-plugin"])),
            (kind.clone(), cached.clone(), plugin_parts.clone()),
            (kind.clone(), market.clone(), parts(&[".claude-plugin"])),
            (kind.clone(), market.join("p"), parts(&["./config/gate.json"])),
            (kind.clone(), market.join("p"), plugin_parts.clone()),
            (kind.clone(), market.join("q"), plugin_parts),
        ]
    );
    let hook_files: Vec<(PathBuf, Option<PathBuf>)> =
        find_files(&formats, FileScope::User, Path::new(""), &user)
            .into_iter()
            .filter(|f| f.kind.name() == "user_claude_plugins")
            .inspect(|f| assert_eq!(f.content, hooks_schema::FileContent::HooksIfAny))
            .map(|f| (f.path, f.base))
            .collect();
    // Breadth first: the marketplaces' manifests (their entries may hold hooks), the installed
    // plugins' hook files, then the plugins of the marketplace's manifest, and the file the
    // plugin's manifest names; each with the folder its hooks belong to. The FIFO is listed,
    // and refused by the reader without blocking.
    let at = |file: PathBuf, base: &Path| (file, Some(base.to_path_buf()));
    let fifo = tmp.path().join("fifo");
    assert_eq!(
        hook_files,
        [
            at(market.join(".claude-plugin/marketplace.json"), &market),
            at(fifo.join(".claude-plugin/marketplace.json"), &fifo),
            at(cached.join("hooks/hooks.json"), &cached),
            at(market.join("p/hooks/hooks.json"), &market.join("p")),
            at(market.join("p/.claude-plugin/plugin.json"), &market.join("p")),
            at(market.join("p/config/gate.json"), &market.join("p")),
        ]
    );
    assert_eq!(
        formats.kind_named("user_claude_plugins").map(|k| k.name()),
        Some("user_claude_plugins".to_owned())
    );
    assert!(crate::linked_folders(&formats, None, None).is_empty());
}

/// Following is bounded: a format whose every file names a folder holding the same file again
/// is read [`crate::MAX_FOLLOW_DEPTH`] files deep, and one whose index names thousands of
/// folders gives [`crate::MAX_FOLLOWED_FOLDERS`].
#[test]
fn following_indexes_is_bounded() {
    use hooks_schema::{
        AgentFolder, AgentIndex, FileLocation, FileRole, FollowStep, Followed, FormatDescriptor,
        FormatDirs, FormatId, UserDir,
    };
    const ROLE: FileRole = FileRole::new(FormatId::new("chain"), "chain_things", 1);
    const STEP: FollowStep = FollowStep("chain");
    const FOLDERS: [AgentFolder; 1] = [AgentFolder::at(ROLE, FileScope::User, "things")
        .with_indexes(&[AgentIndex { file: "index", step: STEP }])];
    #[derive(Debug)]
    struct Chain;
    impl FormatDescriptor for Chain {
        fn id(&self) -> FormatId {
            FormatId::new("chain")
        }
        fn agent(&self) -> &'static str {
            "Chain"
        }
        fn dirs(&self) -> FormatDirs {
            FormatDirs { user: Some(UserDir::under_home(".chain")), managed: None }
        }
        fn locations(&self) -> &[FileLocation] {
            &[]
        }
        fn agent_folders(&self) -> &[AgentFolder] {
            &FOLDERS
        }
        /// Each line of the file names a folder, and the same file in it is read next.
        fn follow(&self, _: FileRole, _: FollowStep, bytes: &[u8]) -> Vec<Followed> {
            String::from_utf8_lossy(bytes)
                .lines()
                .map(|l| Followed {
                    folder: l.to_owned(),
                    next: vec![("index".to_owned(), STEP)],
                    ..Followed::default()
                })
                .collect()
        }
        fn parse(&self, _: &[u8], _: &hooks_schema::ParseContext<'_>) -> hooks_schema::ParseResult {
            Ok(hooks_schema::ParsedSource::default())
        }
        fn events(&self) -> &[hooks_schema::NativeEvent] {
            &[]
        }
        fn codec(&self) -> std::sync::Arc<dyn hooks_schema::HookCodec> {
            std::sync::Arc::new(hooks_testing::InertCodec)
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    // The index is the format's folder's own `index`.
    let things = home.join(".chain");
    fs::create_dir_all(&things).unwrap();
    // `.` leads back to the same folder and file: without a bound, forever.
    fs::write(things.join("index"), ".\n").unwrap();
    let formats = FormatSet::new(vec![std::sync::Arc::new(Chain)]);
    let user = UserDirs::under_home(&formats, &home);
    let found = crate::linked_folders(&formats, Some(&user), None);
    assert_eq!(found.len(), 1, "the same folder each time, listed once");
    // Each level one folder deeper: one folder per file read.
    let mut deep = things.clone();
    for _ in 0..10 {
        fs::write(deep.join("index"), "d\n").unwrap();
        deep = deep.join("d");
        fs::create_dir_all(&deep).unwrap();
    }
    assert_eq!(crate::linked_folders(&formats, Some(&user), None).len(), crate::MAX_FOLLOW_DEPTH);
    let many: Vec<String> = (0..3000).map(|i| format!("f{i}")).collect();
    fs::write(things.join("index"), many.join("\n")).unwrap();
    assert_eq!(
        crate::linked_folders(&formats, Some(&user), None).len(),
        crate::MAX_FOLLOWED_FOLDERS
    );
}

/// Codex's plugins' index leads to each version's manifest (a `*` in a file to read next), and
/// what a manifest names is found in that version's folder, which is each file's base.
#[test]
fn a_star_in_a_file_to_read_next_leads_from_each_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let copy = home.join(".codex/plugins/cache/m/p");
    write(&home.join(".codex/config.toml"), "[plugins.\"p@m\"]\nenabled = true\n");
    for (version, named) in [("1.0.0", "./gate.json"), ("2.0.0", "./a/b/deep.json")] {
        write(
            &copy.join(version).join(".codex-plugin/plugin.json"),
            &format!(r#"{{"name": "p", "hooks": "{named}"}}"#),
        );
        write(&copy.join(version).join(named), r#"{"hooks": {}}"#);
    }
    let formats = hooks_testing::every_format();
    let user = UserDirs::under_home(&formats, &home);
    let found: Vec<(PathBuf, Option<PathBuf>)> =
        find_files(&formats, FileScope::User, Path::new(""), &user)
            .into_iter()
            .filter(|f| f.kind.name() == "user_codex_plugins")
            .map(|f| (f.path, f.base))
            .collect();
    let at = |v: &str, file: &str| (copy.join(v).join(file), Some(copy.join(v)));
    assert_eq!(
        found,
        [
            at("1.0.0", ".codex-plugin/plugin.json"),
            at("2.0.0", ".codex-plugin/plugin.json"),
            at("1.0.0", "gate.json"),
            at("2.0.0", "a/b/deep.json"),
        ]
    );
}

/// A followed hook file's `*` component stands for each entry of its folder, in name order,
/// and that entry is the file's base; a path without one is taken as it is (`.` components
/// dropped), with the folder as its base, and a missing folder gives nothing.
#[test]
fn a_star_in_a_followed_hook_file_stands_for_each_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("cache/m/p");
    touch(&p.join("1.1.0/hooks/hooks.json"));
    touch(&p.join("1.0.0/hooks/hooks.json"));
    fs::write(p.join("stray-file"), b"").unwrap();
    let each = |folder: &Path, rel: &str| crate::locate::each_entry(folder, rel);
    let at = |v: &str, base: &str| (p.join(v).join("hooks/hooks.json"), p.join(base));
    assert_eq!(
        each(&p, "*/hooks/hooks.json"),
        [at("1.0.0", "1.0.0"), at("1.1.0", "1.1.0"), at("stray-file", "stray-file")]
    );
    assert_eq!(each(&p, "hooks/hooks.json"), [at("", "")]);
    assert_eq!(each(&p, "./a/./gate.json"), [(p.join("a/gate.json"), p.clone())]);
    assert_eq!(each(&p, "./a/./gate.json")[0].0.to_str(), p.join("a/gate.json").to_str());
    assert!(each(&tmp.path().join("gone"), "*/h.json").is_empty());
    assert_eq!(
        each(tmp.path(), "cache/*/p/1.0.0/hooks/hooks.json"),
        [(p.join("1.0.0/hooks/hooks.json"), tmp.path().join("cache/m"))]
    );
}
