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
    let files = files_to_trust(&formats, &root, &root, &[]);
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
    assert_eq!(formats.kind_named("project_cursor_file"), Some(PROJECT_CURSOR_FILE));
    assert_eq!(formats.kind_named("nope"), None);
    let _ = Path::new("");
}

#[test]
fn a_file_that_does_not_parse_is_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(dir.path().join(".cursor/hooks.json"), "{ nope").unwrap();
    let formats = crate::formats::workspace_formats();
    let files = files_to_trust(&formats, &root, &root, &[]);
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

/// The trust table's decision for `kind` on a terminal, posture unknown.
fn table(kind: HookSourceKind) -> TrustDecision {
    use hooks_trust::{
        CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs, TrustPolicy,
    };
    StaticTrustPolicy
        .decide(kind, &TrustInputs::new(Surface::Tui, CommandExecutionPosture::Unknown))
}

fn parsed(file: &ReadHookFile) -> &ParsedSource {
    match &file.read {
        Ok((_, Ok(p))) => p,
        other => panic!("{}: {other:?}", file.path),
    }
}

/// Issue 20 with Codex's own review: a user Codex file is inert until the user trusts it, in
/// the store or in Codex's `config.toml`; trusted in Codex, it runs; changed afterwards, it is
/// inert again; trusted in the store, it runs until it changes.
#[test]
fn a_user_codex_file_is_inert_until_trusted_in_codex_or_the_store_and_again_once_changed() {
    use hooks_format_codex::{USER_CONFIG, USER_HOOKS};
    let home = tempfile::tempdir().unwrap();
    let codex = hooks_registry::canonicalize(home.path()).unwrap().as_path().join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    let hooks_json = codex.join("hooks.json");
    let config = codex.join("config.toml");
    let text = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo checked"}]}]}}"#;
    std::fs::write(&hooks_json, text).unwrap();
    let formats = crate::formats::workspace_formats();
    let user = user_paths(Some(home.path()), None);
    let empty: Result<StoreContents, StoreError> = Ok(StoreContents::default());
    let read = |kind, path: &Path| ReadHookFile::read(&formats, kind, path, None);
    let gate_of = |file: &ReadHookFile,
                   store: &Result<StoreContents, StoreError>,
                   others: &[&ParsedSource]| {
        gate(&formats, file, table(file.kind), store, &user, None, others, StoreNeed::Reviewed)
    };
    assert!(table(USER_HOOKS).is_active(), "the table alone runs the user's files");

    let file = read(USER_HOOKS, &hooks_json);
    let d = gate_of(&file, &empty, &[]);
    assert!(!d.is_active(), "{d:?}");
    assert!(d.reason().contains("run `hooks trust`"), "{d:?}");

    // Trusted in Codex itself: `[hooks.state]` in the user's config.toml with the hook's hash.
    let entries =
        hooks_format_codex::hook_entries(text.as_bytes(), file.path.as_path(), USER_HOOKS).unwrap();
    let state: String = entries
        .iter()
        .map(|e| format!("[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n", e.key, e.hash))
        .collect();
    std::fs::write(&config, &state).unwrap();
    let cfg = read(USER_CONFIG, &config);
    let d = gate_of(&file, &empty, &[parsed(&cfg)]);
    assert!(d.is_active(), "{d:?}");
    assert!(d.reason().contains("Codex itself trusted"), "{d:?}");
    // The config.toml (no hooks of its own) is reviewed too: nothing in it runs unreviewed.
    assert!(gate_of(&cfg, &empty, &[parsed(&file)]).is_active());

    // Modified: its hash is no longer the trusted one.
    std::fs::write(&hooks_json, text.replace("echo checked", "echo changed")).unwrap();
    let changed = read(USER_HOOKS, &hooks_json);
    assert!(!gate_of(&changed, &empty, &[parsed(&cfg)]).is_active());

    // Trusted in the store instead: active until it changes again.
    let mut store = StoreContents::default();
    store.insert(changed.pin(&user, 0).unwrap().unwrap());
    let store = Ok(store);
    assert!(gate_of(&changed, &store, &[]).is_active());
    std::fs::write(&hooks_json, text.replace("echo checked", "echo third")).unwrap();
    let third = read(USER_HOOKS, &hooks_json);
    let d = gate_of(&third, &store, &[parsed(&cfg)]);
    assert!(!d.is_active(), "{d:?}");
    assert!(d.reason().contains("changed since it was trusted"), "{d:?}");
    // A store that cannot be read vouches for nothing.
    let broken = Err(StoreError::Full);
    assert!(!gate_of(&changed, &broken, &[]).is_active());
}

/// Files of formats that do not review keep the table's decision, unless the caller needs the
/// store for project files (the bridge); the table's inert decision is never widened.
#[test]
fn the_store_gates_project_files_when_asked_and_never_widens_the_table() {
    use hooks_format_claude::USER_SETTINGS;
    let dir = tempfile::tempdir().unwrap();
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(
        dir.path().join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"preToolUse":[{"command":"true"}]}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    )
    .unwrap();
    let formats = crate::formats::workspace_formats();
    let user = user_paths(None, None);
    let project = ReadHookFile::read(
        &formats,
        PROJECT_CURSOR_FILE,
        &dir.path().join(".cursor/hooks.json"),
        Some(&root),
    );
    let claude_user =
        ReadHookFile::read(&formats, USER_SETTINGS, &dir.path().join("settings.json"), None);
    let empty: Result<StoreContents, StoreError> = Ok(StoreContents::default());
    let active = TrustDecision::Active { reason: "active: the table".into() };
    let inert = TrustDecision::Inert { reason: "inert: the table".into() };
    let g = |f: &ReadHookFile, t: &TrustDecision, s: &Result<StoreContents, StoreError>, need| {
        gate(&formats, f, t.clone(), s, &user, None, &[], need)
    };
    // The user's Claude file: Claude Code does not review, so the table decides.
    assert_eq!(g(&claude_user, &active, &empty, StoreNeed::ProjectFiles), active);
    // A project file: the table decides in-process; the bridge needs the store.
    assert_eq!(g(&project, &active, &empty, StoreNeed::Reviewed), active);
    assert!(!g(&project, &active, &empty, StoreNeed::ProjectFiles).is_active());
    let mut store = StoreContents::default();
    store.insert(project.pin(&user, 0).unwrap().unwrap());
    let store = Ok(store);
    assert!(g(&project, &active, &store, StoreNeed::ProjectFiles).is_active());
    // Trusted in the store, but the table keeps it inert: inert.
    assert_eq!(g(&project, &inert, &store, StoreNeed::ProjectFiles), inert);
}

/// What the variables of the hooks' environment make their interpreters load, as the
/// interpreters split them: absolute paths only, each once, `file://` URLs as paths, options
/// with their value after a blank, after `=` or attached.
#[test]
fn the_hook_environment_names_what_interpreters_load_as_they_split_it() {
    let env = EnvVars::from_pairs(
        [
            ("BASH_ENV", "/h/.bash_env"),
            ("ENV", "relative/env.sh"),
            ("LD_PRELOAD", "/l/a.so /l/b.so:/l/c.so"),
            (
                "NODE_OPTIONS",
                "--max-old-space-size=100 -r /n/pre.js --require=/n/req.js --import file:///n/imp.mjs --loader=./rel.mjs --env-file /n/.env",
            ),
            ("RUBYOPT", "-r/r/x.rb -I /r/lib -W0"),
            ("PERL5OPT", "-Mstrict -I/p/lib"),
            ("PYTHONPATH", "/py/a:relative:/py/b::/py/a"),
            ("PYTHONUSERBASE", "/ub"),
            ("PYTHONHOME", "/ph:/phx"),
            ("GEM_PATH", "/g/1:/g/2"),
            ("PERL5LIB", "/r/lib"),
            ("UNRELATED", "/u/x"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let dirs = ShellStartupDirs::from_env(&env);
    let paths = |v: &[&str]| v.iter().map(PathBuf::from).collect::<Vec<_>>();
    assert_eq!(
        dirs.loaded,
        paths(&[
            "/h/.bash_env",
            "/l/a.so",
            "/l/b.so",
            "/l/c.so",
            "/n/pre.js",
            "/n/req.js",
            "/n/imp.mjs",
            "/n/.env",
            "/r/x.rb",
        ])
    );
    assert_eq!(
        dirs.modules,
        // In the variables' order by name, each folder once.
        paths(&[
            "/g/1", "/g/2", "/r/lib", "/p/lib", "/ph/lib", "/phx/lib", "/py/a", "/py/b", "/ub/lib"
        ])
    );
    // A folder that holds the session's directory is left out, as `$PATH`'s are.
    let held = dirs.without_path_folders_holding(&[Path::new("/py/a/project")]);
    assert!(!held.modules.contains(&PathBuf::from("/py/a")));
    assert!(held.modules.contains(&PathBuf::from("/py/b")));
}

/// What the variables name by a relative path is kept for each hook's run folder (finding
/// F145): files, the cache folders, the configurations that name more (ripgrep's whatever its
/// path); a library's or package's name, a bare `LD_PRELOAD` entry and search paths are not.
/// A TypeScript configuration's quoted or `file://` absolute value is read as the loaders'
/// are.
#[test]
fn the_hook_environment_s_relative_paths_are_kept_for_the_run_folder() {
    use hooks_registry::{RunRelative, RunRelativeKind};
    let env = EnvVars::from_pairs(
        [
            ("BASH_ENV", ".bashenv"),
            ("ENV", "/abs/env.sh"),
            ("NODE_OPTIONS", "-r ./pre.js --require dotenv/config --import x --env-file=.env"),
            ("RUBYOPT", "-rjson -r./r.rb"),
            ("LD_PRELOAD", "./l/a.so libc.so.6"),
            ("CURL_HOME", "cfg"),
            ("PYTHONPYCACHEPREFIX", "'.pyc'"),
            ("RIPGREP_CONFIG_PATH", "\"/etc/rg.conf\""),
            ("TS_NODE_PROJECT", "file:///t/ts.json"),
            ("TSX_TSCONFIG_PATH", "cfg/ts.json"),
            ("PYTHONPATH", "src"),
            ("LD_LIBRARY_PATH", "lib"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let dirs = ShellStartupDirs::from_env(&env);
    let entry = |path: &str, kind| RunRelative { path: PathBuf::from(path), kind };
    let mut got: Vec<String> =
        dirs.run_relative.iter().map(|e| format!("{:?} {}", e.kind, e.path.display())).collect();
    got.sort();
    let mut want: Vec<String> = [
        entry(".bashenv", RunRelativeKind::File),
        entry("cfg/.curlrc", RunRelativeKind::File),
        entry("./l/a.so", RunRelativeKind::File),
        entry("./pre.js", RunRelativeKind::File),
        entry("dotenv/config", RunRelativeKind::File),
        entry(".env", RunRelativeKind::File),
        entry("./r.rb", RunRelativeKind::File),
        entry(".pyc", RunRelativeKind::Folder),
        entry("/etc/rg.conf", RunRelativeKind::RipgrepConfig),
        entry("cfg/ts.json", RunRelativeKind::TypescriptConfig),
    ]
    .iter()
    .map(|e| format!("{:?} {}", e.kind, e.path.display()))
    .collect();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(dirs.typescript_configs, [PathBuf::from("/t/ts.json")]);
}

proptest::proptest! {
    /// Whatever the variables hold, splitting them ends, names absolute paths only, each once.
    #[test]
    fn any_hook_environment_names_absolute_paths_only(
        values in proptest::collection::vec("[ -~]{0,80}", EnvVars::HOOK_LOADERS.len()),
    ) {
        let env = EnvVars::from_lookup(|name| {
            let i = EnvVars::HOOK_LOADERS.iter().position(|n| *n == name)?;
            Some(values[i].clone().into())
        });
        let dirs = ShellStartupDirs::from_env(&env);
        proptest::prop_assert!(dirs.loaded.iter().chain(&dirs.modules).all(|p| p.is_absolute()));
        // What is kept for the run folder is relative (ripgrep's configuration may be not).
        let ripgrep = hooks_registry::RunRelativeKind::RipgrepConfig;
        let kept = dirs.run_relative.iter();
        proptest::prop_assert!(kept.clone().all(|e| e.path.is_relative() || e.kind == ripgrep));
        proptest::prop_assert!(kept.clone().all(|e| !e.path.as_os_str().is_empty()));
        let unique: BTreeSet<&PathBuf> = dirs.modules.iter().collect();
        proptest::prop_assert_eq!(unique.len(), dirs.modules.len());
    }
}

/// The variables that move the start-up files of the programs gates use (finding F50) name
/// those files; `$XDG_CONFIG_HOME` moves the ones the registry knows under `~/.config/`.
#[test]
fn the_variables_that_move_programs_start_up_files_name_them() {
    let env = EnvVars::from_pairs(
        [
            ("GIT_CONFIG_GLOBAL", "/g/gitconfig"),
            ("CURL_HOME", "/c"),
            ("npm_config_userconfig", "/n/rc"),
            ("UV_CONFIG_FILE", "/u/uv.toml"),
            ("WGETRC", "relative/wgetrc"),
            ("XDG_CONFIG_HOME", "/x"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let loaded = ShellStartupDirs::from_env(&env).loaded;
    for file in [
        "/g/gitconfig",
        "/c/.curlrc",
        "/n/rc",
        "/u/uv.toml",
        "/x/git/config",
        "/x/uv/uv.toml",
        "/x/.curlrc",
        "/x/pnpm/rc",
        "/x/mise/config.toml",
    ] {
        assert!(loaded.contains(&PathBuf::from(file)), "{file}: {loaded:?}");
    }
    assert!(!loaded.iter().any(|p| p.ends_with("wgetrc")), "{loaded:?}");
    // The repository `GIT_DIR` names is protected whole, and its configuration is read for
    // what it includes with the others' (F56, F59); a relative one names nothing.
    let git = EnvVars::from_pairs(
        [
            ("GIT_DIR", "/r/dotfiles"),
            ("GIT_COMMON_DIR", "relative/.git"),
            ("XDG_CONFIG_HOME", "/x"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let dirs = ShellStartupDirs::from_env(&git);
    assert_eq!(dirs.modules, [PathBuf::from("/r/dotfiles")]);
    assert_eq!(
        dirs.git_configs,
        ["/r/dotfiles/config", "/r/dotfiles/config.worktree", "/x/git/config"].map(PathBuf::from)
    );
    // The environments runners run hooks in, and the folders that hold them.
    let runners = EnvVars::from_pairs(
        [
            ("VIRTUAL_ENV", "/p/.venv"),
            ("UV_PROJECT_ENVIRONMENT", "relative/env"),
            ("POETRY_VIRTUALENVS_PATH", "/poetry/envs"),
            ("WORKON_HOME", "/w"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let dirs = ShellStartupDirs::from_env(&runners);
    assert_eq!(dirs.loaded, [PathBuf::from("/p/.venv/pyvenv.cfg")]);
    assert_eq!(
        dirs.modules,
        ["/poetry/envs", "/p/.venv/lib", "/p/.venv/lib64", "/w"].map(PathBuf::from)
    );
    // The caches runners run code from, wherever the variables move them (F54).
    let caches = EnvVars::from_pairs(
        [
            ("XDG_CACHE_HOME", "/xc"),
            ("UV_CACHE_DIR", "/uvc"),
            ("npm_config_cache", "/npmc"),
            ("PIPX_HOME", "relative/pipx"),
            ("DENO_DIR", "/deno"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let modules = ShellStartupDirs::from_env(&caches).modules;
    for folder in ["/xc/uv", "/xc/pnpm", "/xc/yarn", "/xc/deno", "/uvc", "/npmc/_npx", "/deno"] {
        assert!(modules.contains(&PathBuf::from(folder)), "{folder}: {modules:?}");
    }
    assert!(!modules.iter().any(|p| p.ends_with("pipx")), "{modules:?}");
    // What a runner that builds a hook from source reads (F55).
    let builders = EnvVars::from_pairs(
        [
            ("GOMODCACHE", "/gm"),
            ("GOCACHE", "/gc"),
            ("GOENV", "/ge/env"),
            ("CARGO_HOME", "/ch"),
            ("CARGO_TARGET_DIR", "/ct"),
        ]
        .map(|(n, v)| (n, std::ffi::OsStr::new(v))),
    );
    let dirs = ShellStartupDirs::from_env(&builders);
    assert_eq!(dirs.loaded, ["/ch/config.toml", "/ch/config", "/ge/env"].map(PathBuf::from));
    assert_eq!(dirs.modules, ["/ch/registry", "/ch/git", "/ct", "/gc", "/gm"].map(PathBuf::from));
    // Without `$XDG_CONFIG_HOME`, the registry's own `~/.config/` names are enough.
    let plain = EnvVars::from_pairs([("HOME", std::ffi::OsStr::new("/h"))]);
    assert!(ShellStartupDirs::from_env(&plain).loaded.is_empty());
}

/// The password database's home of a user: its first line for the id, the sixth field, when
/// absolute; other users, short or broken lines and a relative home give nothing.
#[test]
fn the_password_database_gives_the_home_ssh_reads_from() {
    let text = "root:x:0:0:root:/root:/bin/bash\nbroken\nshort:x:1000\n\
                u:x:1001:1001:U,,,:/home/u:/bin/zsh\nagain:x:1001:1001::/elsewhere:/bin/sh\n\
                rel:x:1002:1002::home/rel:/bin/sh\n";
    assert_eq!(super::password_home(text, 0), Some(PathBuf::from("/root")));
    assert_eq!(super::password_home(text, 1001), Some(PathBuf::from("/home/u")));
    assert_eq!(super::password_home(text, 1000), None);
    assert_eq!(super::password_home(text, 1002), None);
    assert_eq!(super::password_home(text, 7), None);
    assert_eq!(super::password_home("", 0), None);
}
