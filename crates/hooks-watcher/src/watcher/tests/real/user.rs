//! End-to-end tests of the user-scope files through the platform watcher, in a fake home
//! directory. "Nothing else happened" is shown with a marker root written after the change
//! under test: the user files' reload, pending since earlier, is reported before the marker's.

use std::sync::mpsc::Receiver;

use hooks_schema::{HookSourceId, HookSourceKind};
use hooks_sources::UserDirs;

use super::*;
use crate::{
    WatcherEvent,
    watcher::tests::support::{id, wait_for},
};

fn claude_file(command: &str) -> String {
    format!(
        r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[{{"type":"command","command":"{command}"}}]}}]}}}}"#
    )
}

fn user_cursor(home: &AbsPathBuf) -> HookSourceId {
    id(hooks_testing::kinds::USER_CURSOR_FILE, home, ".cursor/hooks.json")
}

fn user_claude(home: &AbsPathBuf) -> HookSourceId {
    id(hooks_testing::kinds::USER_CLAUDE_SETTINGS, home, ".claude/settings.json")
}

impl Setup {
    /// Watches the user files under `home` and waits until the watches are attached.
    fn watch_home(&self, home: &AbsPathBuf) {
        self.watcher
            .watch_user_dirs(
                UserDirs::under_home(&hooks_testing::workspace_formats(), home.as_path()),
                false,
            )
            .wait_timeout(Duration::from_secs(10))
            .expect("attached within 10 s")
            .expect("attached");
    }
}

/// Waits for the next reload of the user files, returning its sources and the events before.
fn wait_user_reload(rx: &Receiver<WatcherEvent>) -> (Vec<HookSourceId>, Vec<WatcherEvent>) {
    wait_for(rx, |e| match e {
        WatcherEvent::Reloaded { place: WatchedPlace::User, sources, .. } => Some(sources.clone()),
        _ => None,
    })
}

fn user_reloads(events: &[WatcherEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, WatcherEvent::Reloaded { place: WatchedPlace::User, .. }))
        .count()
}

#[test]
fn user_files_load_on_watch_with_user_kinds_and_are_not_project_roots() {
    let s = setup();
    let home = s.root("home");
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    write(home.as_path(), ".chrys/hooks/hooks.json", r#"{"version": 1, "hooks": []}"#);
    let future = s.watcher.watch_user_dirs(
        UserDirs::under_home(&hooks_testing::workspace_formats(), home.as_path()),
        false,
    );
    // Loaded on the caller's thread, before the watches are attached.
    assert_eq!(s.watcher.loads(&WatchedPlace::User), Some(1));
    assert_eq!(text(commands(&s.registry, &user_cursor(&home))), ["./k.sh"]);
    future.wait_timeout(Duration::from_secs(10)).expect("within 10 s").expect("attached");
    let snapshot = s.registry.snapshot();
    assert!(snapshot.project_roots().is_empty());
    let mut kinds: Vec<HookSourceKind> = snapshot.sources().iter().map(|v| v.id.kind).collect();
    kinds.sort_by_key(|k| k.priority());
    assert_eq!(
        kinds,
        [
            hooks_testing::kinds::USER_CURSOR_FILE,
            hooks_testing::kinds::USER_CHRYS_FILE,
            hooks_testing::kinds::USER_CLAUDE_SETTINGS
        ]
    );
    for view in snapshot.sources() {
        assert!(view.roots.is_empty(), "{:?}", view.id);
        assert!(view.trust.is_active(), "{:?}", view.id);
    }
    assert_eq!(s.watcher.platform_watches(), 4, ".cursor, .claude, .chrys and .chrys/hooks");
}

#[test]
fn creating_the_user_cursor_file_later_loads_it() {
    let s = setup();
    let home = s.root("home");
    s.watch_home(&home);
    let events = s.watcher.subscribe();
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./late.sh"]));
    // The folder and the file may land in one window or two; wait for the load that has it.
    loop {
        let (sources, _) = wait_user_reload(&events);
        if sources.contains(&user_cursor(&home)) {
            break;
        }
    }
    assert_eq!(text(commands(&s.registry, &user_cursor(&home))), ["./late.sh"]);
    assert!(s.registry.snapshot().project_roots().is_empty());
}

#[test]
fn modifying_claude_settings_reloads_once() {
    let s = setup();
    let (home, marker) = (s.root("home"), s.root("z-marker"));
    write(home.as_path(), ".claude/settings.json", &claude_file("./one.sh"));
    s.watch_home(&home);
    s.add(&marker);
    let events = s.watcher.subscribe();
    write(home.as_path(), ".claude/settings.json", &claude_file("./two.sh"));
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert_eq!(user_reloads(&before), 1, "{before:#?}");
    assert_eq!(s.watcher.loads(&WatchedPlace::User), Some(2));
    assert_eq!(text(commands(&s.registry, &user_claude(&home))), ["./two.sh"]);
}

#[test]
fn deleting_a_user_file_withdraws_it() {
    let s = setup();
    let home = s.root("home");
    write(home.as_path(), ".claude/settings.json", &claude_file("./c.sh"));
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    s.watch_home(&home);
    let events = s.watcher.subscribe();
    fs::remove_file(home.as_path().join(".claude/settings.json")).expect("rm");
    let (sources, _) = wait_user_reload(&events);
    assert_eq!(sources, [user_cursor(&home)]);
    assert_eq!(commands(&s.registry, &user_claude(&home)), None);
}

#[test]
fn a_burst_of_writes_to_a_user_file_loads_once() {
    let s = setup();
    let (home, marker) = (s.root("home"), s.root("z-marker"));
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./v0.sh"]));
    s.watch_home(&home);
    s.add(&marker);
    let events = s.watcher.subscribe();
    for i in 1..=20 {
        write(home.as_path(), ".cursor/hooks.json", &cursor_file(&[&format!("./v{i}.sh")]));
    }
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert_eq!(user_reloads(&before), 1, "{before:#?}");
    assert_eq!(s.watcher.loads(&WatchedPlace::User), Some(2));
    assert_eq!(text(commands(&s.registry, &user_cursor(&home))), ["./v20.sh"]);
}

#[test]
fn after_the_pin_a_change_to_a_user_file_is_reported_and_not_applied() {
    let s = setup();
    let (home, elsewhere) = (s.root("home"), s.root("elsewhere"));
    write(home.as_path(), ".claude/settings.json", &claude_file("./one.sh"));
    s.watch_home(&home);
    s.activate();
    s.registry.change(|reg| reg.pin(CommandExecutionPosture::AutoApproves));
    let events = s.watcher.subscribe();
    write(home.as_path(), ".claude/settings.json", &claude_file("./two.sh"));
    wait_user_reload(&events);
    assert_eq!(running_in(&s.registry, elsewhere.as_path()), ["./one.sh"]);
    let snapshot = s.registry.snapshot();
    let view = snapshot.source(&user_claude(&home)).expect("kept");
    assert!(
        view.diagnostics
            .iter()
            .any(|d| !d.is_error() && d.message.contains("after the run started")),
        "{:?}",
        view.diagnostics
    );
}

/// One place type for every place: the user files are reloaded, counted and reported through
/// the same calls as a root, and a place not watched is `NotWatched`, never another place.
#[test]
fn the_user_files_are_one_watched_place_among_the_roots() {
    let s = setup();
    let (home, repo) = (s.root("home"), s.root("repo"));
    assert!(matches!(
        s.watcher.reload(&WatchedPlace::User),
        Err(crate::WatcherError::NotWatched { .. })
    ));
    assert_eq!(s.watcher.loads(&WatchedPlace::User), None);
    write(home.as_path(), ".cursor/hooks.json", &cursor_file(&["./k.sh"]));
    s.watch_home(&home);
    s.watcher
        .add_root(repo.as_path())
        .wait_timeout(Duration::from_secs(10))
        .expect("in time")
        .expect("attached");
    let report = s.watcher.reload(&WatchedPlace::User).expect("watched");
    assert_eq!(report.place, WatchedPlace::User);
    assert_eq!((report.loads, report.sources.clone()), (2, vec![user_cursor(&home)]));
    let root = s.watcher.reload(&WatchedPlace::from(&repo)).expect("watched");
    assert_eq!((root.place, root.loads), (WatchedPlace::from(&repo), 2));
    assert_eq!(s.watcher.loads(&WatchedPlace::User), Some(2));
    assert_eq!(s.watcher.loads(&WatchedPlace::Managed), None, "the managed files are not watched");
    assert!(s.watcher.reload(&WatchedPlace::Managed).is_err());
}

/// Copilot CLI reads the user's `~/.copilot/hooks` with its subfolders (observed with Copilot
/// CLI 1.0.102): a file written into a subfolder created after the user folders were watched
/// loads, as in a repository's `.github/hooks`.
#[test]
fn a_new_file_in_a_new_subfolder_of_the_user_s_copilot_hooks_loads() {
    let registry = RegistryHandle::default();
    let formats = hooks_testing::copilot_formats();
    let config = WatcherConfig::new(Surface::CliRun, formats.clone()).with_debounce_window(WINDOW);
    let watcher = HookConfigWatcher::new(registry.clone(), Arc::new(StaticTrustPolicy), config)
        .expect("start watcher");
    let s = Setup { dir: tempfile::tempdir().expect("temp dir"), registry, watcher };
    let home = s.root("home");
    write(home.as_path(), ".copilot/hooks/top.json", &copilot_file("./top.sh"));
    let events = s.watcher.subscribe();
    s.watcher
        .watch_user_dirs(UserDirs::under_home(&formats, home.as_path()), false)
        .wait_timeout(Duration::from_secs(10))
        .expect("attached within 10 s")
        .expect("attached");
    let kind = hooks_testing::kinds::USER_COPILOT_HOOKS;
    assert_eq!(
        text(commands(&s.registry, &id(kind, &home, ".copilot/hooks/top.json"))),
        ["./top.sh"]
    );
    let nested = ".copilot/hooks/mine/deeper/gate.json";
    write(home.as_path(), nested, &copilot_file("./gate.sh"));
    while commands(&s.registry, &id(kind, &home, nested)).is_none() {
        wait_user_reload(&events);
    }
    assert_eq!(text(commands(&s.registry, &id(kind, &home, nested))), ["./gate.sh"]);
}
