//! Scripted-event tests of the user-scope files: `~/.cursor/hooks.json`, Chrys's global file
//! and `~/.claude/settings.json`, in a fake home directory, with the fake platform watch.

use hooks_schema::HookSourceId;
use hooks_sources::UserDirs;

use super::*;

/// Claude Code settings with one `PreToolUse` hook on `Bash` running `command`.
fn claude_file(command: &str) -> String {
    format!(
        r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[{{"type":"command","command":"{command}"}}]}}]}}}}"#
    )
}

/// A fake home directory and the user directories under it (none created yet).
fn home(h: &Harness) -> (AbsPathBuf, UserDirs) {
    let home = h.root("home");
    let dirs = UserDirs::under_home(&hooks_testing::workspace_formats(), home.as_path());
    (home, dirs)
}

fn user_id(kind: HookSourceKind, home: &AbsPathBuf, rel: &str) -> HookSourceId {
    id(kind, home, rel)
}

fn user_cursor(home: &AbsPathBuf) -> HookSourceId {
    user_id(hooks_testing::kinds::USER_CURSOR_FILE, home, ".cursor/hooks.json")
}

fn user_claude(home: &AbsPathBuf) -> HookSourceId {
    user_id(hooks_testing::kinds::USER_CLAUDE_SETTINGS, home, ".claude/settings.json")
}

impl Harness {
    /// Watches the user files the way `HookConfigWatcher::watch_user_dirs` does and lets the
    /// worker attach the watches.
    fn watch_user(&mut self, dirs: &UserDirs) -> Option<AttachOutcome> {
        let mut rx = self.shared.watch_scope(&WatchedPlace::User, dirs.clone(), false);
        self.engine.handle(Msg::Attach(WatchedPlace::User), self.now);
        rx.try_recv().ok()
    }

    /// Delivers one platform event about `rels` (relative to the home directory) now.
    fn home_event(&mut self, kind: EventKind, home: &AbsPathBuf, rels: &[&str]) {
        self.event(kind, home, rels);
    }

    fn user_loads(&self) -> u64 {
        self.shared.loads(&WatchedPlace::User).expect("user files watched")
    }

    fn user_watched(&self, home: &AbsPathBuf) -> Vec<String> {
        paths(&self.engine.scope_watched_dirs(&WatchedPlace::User), home)
    }

    /// The reloads of the user files among the events received so far.
    fn user_reloads(&self) -> Vec<Vec<HookSourceId>> {
        self.events
            .try_iter()
            .filter_map(|e| match e {
                WatcherEvent::Reloaded { place: WatchedPlace::User, sources, .. } => Some(sources),
                _ => None,
            })
            .collect()
    }
}

#[test]
fn user_files_load_on_the_spot_with_user_kinds_and_are_not_project_roots() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./user-cursor.sh"]));
    write(home.as_path(), ".chrys/hooks/hooks.yaml", "version: 1\nhooks: []\n");
    write(home.as_path(), ".claude/settings.json", &claude_file("./user-claude.sh"));
    // Loaded before the worker attaches anything: in the registry before a pin.
    let _rx = h.shared.watch_scope(&WatchedPlace::User, dirs.clone(), false);
    assert_eq!(h.shared.loads(&WatchedPlace::User), Some(1));
    let reloads = h.user_reloads();
    let kinds: Vec<Vec<HookSourceKind>> =
        reloads.iter().map(|s| s.iter().map(|id| id.kind).collect()).collect();
    assert_eq!(
        kinds,
        [[
            hooks_testing::kinds::USER_CURSOR_FILE,
            hooks_testing::kinds::USER_CHRYS_FILE,
            hooks_testing::kinds::USER_CLAUDE_SETTINGS
        ]]
    );
    let snapshot = h.registry.snapshot();
    assert!(snapshot.project_roots().is_empty(), "user folders are not projects");
    for id in [user_cursor(&home), user_claude(&home)] {
        let view = snapshot.source(&id).expect("user source");
        assert!(view.roots.is_empty(), "{id:?} is scoped to no root");
        // Owned by the user: active whatever the posture.
        assert!(view.trust.is_active(), "{id:?}");
    }
    let chrys = user_id(hooks_testing::kinds::USER_CHRYS_FILE, &home, ".chrys/hooks/hooks.yaml");
    assert!(snapshot.source(&chrys).is_some());
    // Global: they run in any directory, with the working directory at the file's folder.
    let elsewhere = h.root("elsewhere");
    assert_eq!(
        running_in(&h.registry, elsewhere.as_path()),
        ["./user-cursor.sh", "./user-claude.sh"]
    );
    let bindings = snapshot.bindings_for(elsewhere.as_path());
    let cursor_binding = bindings.iter().find(|b| b.source == user_cursor(&home)).expect("binding");
    assert_eq!(cursor_binding.working_dir.as_path(), home.as_path().join(".cursor"));
    assert_eq!(cursor_binding.project_root, None);
    drop(snapshot);
    // The worker then watches each folder that exists.
    h.engine.handle(Msg::Attach(WatchedPlace::User), h.now);
    assert_eq!(h.user_watched(&home), [".chrys", ".chrys/hooks", ".claude", ".cursor"]);
}

#[test]
fn watching_resolves_once_attached_and_missing_folders_are_watched_through_their_parent() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    assert_eq!(h.watch_user(&dirs), Some(AttachOutcome::Attached));
    // `.cursor` and `.chrys` do not exist: the home directory is watched for them.
    assert_eq!(h.user_watched(&home), [".", ".claude"]);
    assert_eq!(h.shared.platform_watches(), 2);
}

#[test]
fn creating_the_cursor_file_later_loads_it_once() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    h.watch_user(&dirs);
    h.user_reloads();
    fs::create_dir(home.as_path().join(".cursor")).expect("mkdir");
    h.home_event(CREATE_DIR, &home, &[".cursor"]);
    // The folder is watched as soon as it is reported, before the window ends.
    assert_eq!(h.user_watched(&home), [".", ".cursor"]);
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./late.sh"]));
    h.home_event(CREATE, &home, &[".cursor/hooks.json"]);
    written(&mut h, &home, ".cursor/hooks.json");
    h.advance(499);
    assert_eq!(h.user_loads(), 1, "not before the window");
    h.advance(1);
    assert_eq!(h.user_loads(), 2);
    assert_eq!(h.user_reloads(), [vec![user_cursor(&home)]]);
    assert_eq!(commands(&h.registry, &user_cursor(&home)), Some(vec!["./late.sh".to_owned()]));
    assert!(h.registry.snapshot().project_roots().is_empty());
}

#[test]
fn modifying_claude_settings_reloads_once() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./one.sh"));
    h.watch_user(&dirs);
    write(home.as_path(), ".claude/settings.json", &claude_file("./two.sh"));
    written(&mut h, &home, ".claude/settings.json");
    h.advance(2_000);
    assert_eq!(h.user_loads(), 2);
    assert_eq!(commands(&h.registry, &user_claude(&home)), Some(vec!["./two.sh".to_owned()]));
}

#[test]
fn a_burst_of_writes_loads_once_with_the_last_content() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./zero.sh"));
    h.watch_user(&dirs);
    for i in 0..10 {
        write(home.as_path(), ".claude/settings.json", &claude_file(&format!("./{i}.sh")));
        written(&mut h, &home, ".claude/settings.json");
        h.advance(100);
    }
    h.advance(2_000);
    assert_eq!(h.user_loads(), 2);
    assert_eq!(commands(&h.registry, &user_claude(&home)), Some(vec!["./9.sh".to_owned()]));
}

#[test]
fn deleting_a_user_file_withdraws_it() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    h.watch_user(&dirs);
    fs::remove_file(home.as_path().join(".claude/settings.json")).expect("rm");
    h.home_event(REMOVE, &home, &[".claude/settings.json"]);
    h.advance(500);
    assert_eq!(h.user_loads(), 2);
    assert_eq!(commands(&h.registry, &user_claude(&home)), None);
    assert_eq!(commands(&h.registry, &user_cursor(&home)), Some(vec!["./k.sh".to_owned()]));
}

#[test]
fn removing_a_user_folder_withdraws_its_file_and_watches_the_parent_again() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    write(home.as_path(), ".chrys/hooks/hooks.yaml", "version: 1\nhooks: []\n");
    h.watch_user(&dirs);
    assert_eq!(h.user_watched(&home), [".chrys", ".chrys/hooks", ".claude", ".cursor"]);
    fs::remove_dir_all(home.as_path().join(".cursor")).expect("rm -r");
    h.home_event(REMOVE, &home, &[".cursor/hooks.json"]);
    h.home_event(REMOVE_DIR, &home, &[".cursor"]);
    assert_eq!(h.user_watched(&home), [".", ".chrys", ".chrys/hooks", ".claude"]);
    fs::remove_dir_all(home.as_path().join(".chrys")).expect("rm -r");
    h.home_event(REMOVE_DIR, &home, &[".chrys"]);
    assert_eq!(h.user_watched(&home), [".", ".claude"]);
    h.advance(500);
    assert_eq!(h.user_loads(), 2);
    assert_eq!(h.user_reloads().last(), Some(&vec![user_claude(&home)]));
}

#[test]
fn unrelated_files_in_the_home_directory_change_nothing() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    h.watch_user(&dirs);
    write(home.as_path(), ".bashrc", "export A=1");
    written(&mut h, &home, ".bashrc");
    write(home.as_path(), ".claude/projects.json", "{}");
    written(&mut h, &home, ".claude/projects.json");
    // Reading the file (the reload itself) does not count either.
    h.home_event(OPEN, &home, &[".claude/settings.json"]);
    assert_eq!(h.engine.next_deadline(), None);
    h.advance(2_000);
    assert_eq!(h.user_loads(), 1);
}

#[test]
fn the_chrys_hooks_folder_created_with_its_parent_is_watched_and_loaded() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    h.watch_user(&dirs);
    write(home.as_path(), ".chrys/hooks/hooks.yml", "version: 1\nhooks: []\n");
    // Only `.chrys` is reported: `.chrys/hooks` was created before `.chrys` was watched.
    h.home_event(CREATE_DIR, &home, &[".chrys"]);
    assert_eq!(h.user_watched(&home), [".", ".chrys", ".chrys/hooks"]);
    h.advance(500);
    let chrys = user_id(hooks_testing::kinds::USER_CHRYS_FILE, &home, ".chrys/hooks/hooks.yml");
    assert_eq!(h.user_reloads().last(), Some(&vec![chrys]));
}

#[test]
fn a_user_folder_that_is_also_under_a_project_root_keeps_its_watch_for_the_other_owner() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    h.add(&home);
    h.watch_user(&dirs);
    assert_eq!(h.shared.platform_watches(), 2, "the home directory and .claude, each once");
    h.remove(&home);
    assert_eq!(h.engine.backend().watched.len(), 2, "the user files still need both");
    // A change is still seen for the user files.
    write(home.as_path(), ".claude/settings.json", &claude_file("./d.sh"));
    written(&mut h, &home, ".claude/settings.json");
    h.advance(500);
    assert_eq!(commands(&h.registry, &user_claude(&home)), Some(vec!["./d.sh".to_owned()]));
}

#[test]
fn a_file_that_cannot_be_read_is_a_read_failure_on_its_source() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    fs::create_dir_all(home.as_path().join(".cursor/hooks.json")).expect("a directory at the name");
    h.watch_user(&dirs);
    assert_eq!(load_state(&h.registry, &user_cursor(&home)), Some(LoadStateKind::Failed));
}

#[test]
fn after_the_pin_a_change_or_removal_is_reported_and_not_applied() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./one.sh"));
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    h.watch_user(&dirs);
    h.registry.change(|reg| reg.pin(CommandExecutionPosture::AutoApproves));
    let elsewhere = h.root("elsewhere");
    write(home.as_path(), ".claude/settings.json", &claude_file("./two.sh"));
    written(&mut h, &home, ".claude/settings.json");
    fs::remove_file(home.as_path().join(".cursor/hooks.json")).expect("rm");
    h.home_event(REMOVE, &home, &[".cursor/hooks.json"]);
    h.advance(500);
    assert_eq!(h.user_loads(), 2, "the change is read");
    let reloads = h.user_reloads();
    assert_eq!(reloads, [vec![user_cursor(&home), user_claude(&home)], vec![user_claude(&home)]]);
    // The registry keeps the pinned configuration and reports both.
    assert_eq!(running_in(&h.registry, elsewhere.as_path()), ["./k.sh", "./one.sh"]);
    let snapshot = h.registry.snapshot();
    for id in [user_claude(&home), user_cursor(&home)] {
        let view = snapshot.source(&id).expect("kept");
        assert!(
            view.diagnostics
                .iter()
                .any(|d| !d.is_error() && d.message.contains("after the run started")),
            "{id:?}: {:?}",
            view.diagnostics
        );
    }
}

#[test]
fn a_platform_error_on_a_user_folder_is_a_user_diagnostic() {
    let backend = FakeBackend { limit: Some(1), ..FakeBackend::default() };
    let mut h = Harness::with(desktop_unknown(), backend);
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    let outcome = h.watch_user(&dirs);
    assert!(
        matches!(outcome, Some(AttachOutcome::Failed(WatchError::TooManyWatches { .. }))),
        "{outcome:?}"
    );
    // The home directory (watched for the missing `.chrys`) took the one watch; `.claude` and
    // `.cursor` did not.
    assert_eq!(h.user_watched(&home), ["."]);
    let failed: Vec<(String, String)> = h
        .shared
        .diagnostics(&WatchedPlace::User)
        .into_iter()
        .map(|d| {
            (
                d.code.unwrap_or_default(),
                d.source.map(|f| f.display().to_string()).unwrap_or_default(),
            )
        })
        .collect();
    let claude_dir = home.as_path().join(".claude").display().to_string();
    let cursor_dir = home.as_path().join(".cursor").display().to_string();
    assert_eq!(
        failed,
        [("too_many_watches".to_owned(), claude_dir), ("too_many_watches".to_owned(), cursor_dir)]
    );
    // The files were loaded anyway.
    assert!(commands(&h.registry, &user_claude(&home)).is_some());
    assert!(commands(&h.registry, &user_cursor(&home)).is_some());
}

#[test]
fn watching_other_folders_replaces_the_user_files() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    h.watch_user(&dirs);
    let other = h.root("other");
    write(other.as_path(), ".cursor/hooks.json", &cursor_file(&["./o.sh"]));
    h.watch_user(&UserDirs::under_home(&hooks_testing::workspace_formats(), other.as_path()));
    assert_eq!(commands(&h.registry, &user_claude(&home)), None);
    assert_eq!(commands(&h.registry, &user_cursor(&other)), Some(vec!["./o.sh".to_owned()]));
    assert_eq!(h.user_watched(&other), [".", ".cursor"]);
    assert_eq!(h.shared.platform_watches(), 2);
}

#[test]
fn trust_is_decided_again_for_user_files_too() {
    let mut h = Harness::new();
    let (home, dirs) = home(&h);
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    h.watch_user(&dirs);
    let before = h.registry.snapshot().source(&user_claude(&home)).map(|v| v.trust.clone());
    h.shared.set_trust_inputs(cli_auto());
    let after = h.registry.snapshot().source(&user_claude(&home)).map(|v| v.trust.clone());
    assert!(before.is_some_and(|t| t.is_active()));
    assert!(after.is_some_and(|t| t.is_active()));
}

#[test]
fn claude_strict_mode_applies_to_the_users_settings_and_never_to_a_projects() {
    use hooks_schema::OnFailure;
    let on_failure = |registry: &RegistryHandle, id: &HookSourceId| -> Vec<OnFailure> {
        let snapshot = registry.snapshot();
        let view = snapshot.source(id).expect("source");
        view.definitions.iter().map(|d| d.on_failure).collect()
    };
    for strict in [false, true] {
        let registry = RegistryHandle::default();
        let shared = Shared::new(
            registry.clone(),
            hooks_testing::workspace_formats(),
            Arc::new(StaticTrustPolicy),
            desktop_unknown(),
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let home = make_root(dir.path(), "home");
        let project = make_root(dir.path(), "project");
        write(home.as_path(), ".claude/settings.json", &claude_file("./u.sh"));
        write(project.as_path(), ".claude/settings.json", &claude_file("./p.sh"));
        let _rx = shared.watch_scope(
            &WatchedPlace::User,
            UserDirs::under_home(&hooks_testing::workspace_formats(), home.as_path()),
            strict,
        );
        let _ = shared.add_root(&project);
        let project_id =
            id(hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, &project, ".claude/settings.json");
        // The strict contract fails closed on a gated event; the default reading warns. A
        // project's file is read in default mode even when the user's is strict.
        let expected = if strict { OnFailure::Block } else { OnFailure::Warn };
        assert_eq!(on_failure(&registry, &user_claude(&home)), [expected], "strict {strict}");
        assert_eq!(on_failure(&registry, &project_id), [OnFailure::Warn], "strict {strict}");
        let project_view = registry.snapshot().source(&project_id).map(|v| v.definitions.clone());
        let strict_marks = project_view
            .unwrap_or_default()
            .iter()
            .filter(|d| d.native.get("strict").is_some())
            .count();
        assert_eq!(strict_marks, 0, "strict {strict}");
    }
}
