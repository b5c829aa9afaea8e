//! End-to-end tests through the platform watcher (inotify on Linux). Each test waits for the
//! attach future before it writes, and waits for the watcher's events with a timeout; none
//! sleeps. "Nothing happened" is shown with a marker: a change under a root that sorts after
//! the one under test, whose reload cannot be reported before an earlier root's.

use std::{fs, sync::Arc, time::Duration};

use hooks_registry::RegistryHandle;
use hooks_schema::AbsPathBuf;
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
use tempfile::TempDir;

use super::support::{
    commands, cursor_file, cursor_id, id, make_root, reloads_of, running_in, wait_for, wait_reload,
    write,
};
use crate::{HookConfigWatcher, WatchedPlace, WatcherConfig};

mod managed;
mod user;

const HOOKS: &str = ".cursor/hooks.json";
const WINDOW: Duration = Duration::from_millis(200);

struct Setup {
    dir: TempDir,
    registry: RegistryHandle,
    watcher: HookConfigWatcher,
}

fn setup() -> Setup {
    let registry = RegistryHandle::default();
    let config = WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats())
        .with_debounce_window(WINDOW);
    let watcher = HookConfigWatcher::new(registry.clone(), Arc::new(StaticTrustPolicy), config)
        .expect("start watcher");
    Setup { dir: tempfile::tempdir().expect("temp dir"), registry, watcher }
}

impl Setup {
    fn root(&self, name: &str) -> AbsPathBuf {
        make_root(self.dir.path(), name)
    }

    /// Adds `root` and waits until its watch is attached.
    fn add(&self, root: &AbsPathBuf) {
        let attached = self
            .watcher
            .add_root(root.as_path())
            .wait_timeout(Duration::from_secs(10))
            .expect("attached within 10 s")
            .expect("attached");
        assert_eq!(&attached, root);
    }

    fn activate(&self) {
        self.watcher.set_trust_inputs(TrustInputs::new(
            Surface::CliRun,
            CommandExecutionPosture::AutoApproves,
        ));
    }
}

fn text(commands: Option<Vec<String>>) -> Vec<String> {
    commands.unwrap_or_default()
}

#[test]
fn creating_a_hook_file_loads_it() {
    let s = setup();
    let a = s.root("a");
    s.add(&a);
    let events = s.watcher.subscribe();
    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    // The folder and the file may land in one window or two; wait for the load that has it.
    loop {
        let (sources, _) = wait_reload(&events, &a);
        if sources.contains(&cursor_id(&a)) {
            break;
        }
    }
    assert_eq!(text(commands(&s.registry, &cursor_id(&a))), ["./new.sh"]);
}

#[test]
fn modifying_a_hook_file_reloads_it() {
    let s = setup();
    let a = s.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    s.add(&a);
    let events = s.watcher.subscribe();
    write(a.as_path(), HOOKS, &cursor_file(&["./two.sh"]));
    wait_reload(&events, &a);
    assert_eq!(text(commands(&s.registry, &cursor_id(&a))), ["./two.sh"]);
}

#[test]
fn deleting_a_hook_file_withdraws_it() {
    let s = setup();
    let a = s.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    s.add(&a);
    let events = s.watcher.subscribe();
    fs::remove_file(a.as_path().join(HOOKS)).expect("rm");
    let (sources, _) = wait_reload(&events, &a);
    assert!(sources.is_empty());
    assert_eq!(commands(&s.registry, &cursor_id(&a)), None);
    assert_eq!(s.registry.snapshot().project_roots(), &[a]);
}

#[test]
fn an_atomic_rename_over_the_file_loads_once() {
    let s = setup();
    let (a, marker) = (s.root("a"), s.root("z-marker"));
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    s.add(&a);
    s.add(&marker);
    let events = s.watcher.subscribe();
    let tmp = a.as_path().join(".cursor/.hooks.json.tmp");
    fs::write(&tmp, cursor_file(&["./two.sh"])).expect("write tmp");
    fs::rename(&tmp, a.as_path().join(HOOKS)).expect("rename over");
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert_eq!(reloads_of(&before, &a), 1, "{before:#?}");
    assert_eq!(text(commands(&s.registry, &cursor_id(&a))), ["./two.sh"]);
}

#[test]
fn a_burst_of_writes_loads_once() {
    let s = setup();
    let (a, marker) = (s.root("a"), s.root("z-marker"));
    write(a.as_path(), HOOKS, &cursor_file(&["./v0.sh"]));
    s.add(&a);
    s.add(&marker);
    let events = s.watcher.subscribe();
    for i in 1..=20 {
        write(a.as_path(), HOOKS, &cursor_file(&[&format!("./v{i}.sh")]));
    }
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert_eq!(reloads_of(&before, &a), 1, "{before:#?}");
    assert_eq!(s.watcher.loads(&WatchedPlace::from(&a)), Some(2));
    assert_eq!(text(commands(&s.registry, &cursor_id(&a))), ["./v20.sh"]);
}

#[test]
fn unrelated_files_change_nothing() {
    let s = setup();
    let (a, marker) = (s.root("a"), s.root("z-marker"));
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    // A hook folder appearing is a change that matters; one that exists already is watched.
    fs::create_dir(a.as_path().join(".claude")).expect("mkdir .claude");
    s.add(&a);
    s.add(&marker);
    let events = s.watcher.subscribe();
    let generation = s.registry.snapshot().generation();
    for rel in ["README.md", ".cursor/rules.json", "src/.cursor/hooks.json", ".claude/notes.md"] {
        write(a.as_path(), rel, "unrelated");
    }
    fs::read(a.as_path().join(HOOKS)).expect("read the hook file");
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert_eq!(reloads_of(&before, &a), 0, "{before:#?}");
    assert_eq!(s.watcher.loads(&WatchedPlace::from(&a)), Some(1));
    // The marker's load is the only change since.
    assert_eq!(s.registry.snapshot().generation().get(), generation.get() + 1);
}

#[test]
fn two_roots_are_independent() {
    let s = setup();
    let (a, b) = (s.root("a"), s.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(b.as_path(), HOOKS, &cursor_file(&["./b.sh"]));
    s.add(&a);
    s.add(&b);
    let events = s.watcher.subscribe();
    write(b.as_path(), HOOKS, &cursor_file(&["./b2.sh"]));
    let (_, before) = wait_reload(&events, &b);
    assert_eq!(reloads_of(&before, &a), 0, "{before:#?}");
    assert_eq!(s.watcher.loads(&WatchedPlace::from(&a)), Some(1));
    assert_eq!(text(commands(&s.registry, &cursor_id(&a))), ["./a.sh"]);
    assert_eq!(text(commands(&s.registry, &cursor_id(&b))), ["./b2.sh"]);
}

#[test]
fn a_nested_root_without_a_hook_file_is_its_own_project_until_removed() {
    let s = setup();
    s.activate();
    let outer = s.root("outer");
    write(outer.as_path(), HOOKS, &cursor_file(&["./outer.sh"]));
    let inner = s.root("outer/inner");
    s.add(&outer);
    assert_eq!(running_in(&s.registry, inner.as_path()), ["./outer.sh"]);
    s.add(&inner);
    assert!(running_in(&s.registry, inner.as_path()).is_empty());
    let events = s.watcher.subscribe();
    write(inner.as_path(), HOOKS, &cursor_file(&["./inner.sh"]));
    loop {
        let (sources, _) = wait_reload(&events, &inner);
        if !sources.is_empty() {
            break;
        }
    }
    assert_eq!(running_in(&s.registry, inner.as_path()), ["./inner.sh"]);
    assert_eq!(running_in(&s.registry, outer.as_path()), ["./outer.sh"]);
    assert_eq!(s.watcher.loads(&WatchedPlace::from(&outer)), Some(1));
    fs::remove_dir_all(inner.as_path().join(".cursor")).expect("rm -r");
    loop {
        let (sources, _) = wait_reload(&events, &inner);
        if sources.is_empty() {
            break;
        }
    }
    assert!(running_in(&s.registry, inner.as_path()).is_empty(), "still its own project");
    assert!(s.watcher.remove_root(inner.as_path()));
    assert_eq!(running_in(&s.registry, inner.as_path()), ["./outer.sh"]);
}

#[test]
fn adding_a_missing_root_is_an_error_and_touches_nothing() {
    let s = setup();
    let missing = s.dir.path().join("missing");
    let result = s.watcher.add_root(&missing).wait_timeout(Duration::from_secs(10));
    assert!(matches!(result, Some(Err(crate::WatcherError::Root { .. }))), "{result:?}");
    assert!(s.registry.snapshot().project_roots().is_empty());
    assert!(s.watcher.roots().is_empty());
}

#[test]
fn platform_watches_grow_with_roots_not_files() {
    let s = setup();
    let a = s.root("a");
    for i in 0..50 {
        write(a.as_path(), &format!("src/dir{i}/file.rs"), "fn main() {}");
    }
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    s.add(&a);
    assert_eq!(s.watcher.platform_watches(), 2, "the root and .cursor");
    let b = s.root("b");
    s.add(&b);
    assert_eq!(s.watcher.platform_watches(), 3);
}

#[tokio::test]
async fn the_attach_future_resolves_in_an_async_runtime() {
    let s = setup();
    let a = s.root("a");
    let attached = tokio::time::timeout(Duration::from_secs(10), s.watcher.add_root(a.as_path()))
        .await
        .expect("attached within 10 s")
        .expect("attached");
    assert_eq!(attached, a);
    // A second add, even through a symlink, resolves at once with the same root and loads
    // nothing.
    let link = s.dir.path().join("link-to-a");
    std::os::unix::fs::symlink(a.as_path(), &link).expect("symlink");
    let again = s.watcher.add_root(&link).await.expect("attached");
    assert_eq!(again, a);
    assert_eq!(s.watcher.loads(&WatchedPlace::from(&a)), Some(1));
    assert_eq!(s.watcher.roots(), [a]);
}

#[test]
fn a_root_deleted_while_watched_is_a_diagnostic_and_the_others_keep_working() {
    let s = setup();
    let (a, b) = (s.root("a"), s.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(b.as_path(), HOOKS, &cursor_file(&["./b.sh"]));
    s.add(&a);
    s.add(&b);
    let events = s.watcher.subscribe();
    fs::remove_dir_all(a.as_path()).expect("rm -r root");
    loop {
        let (sources, _) = wait_reload(&events, &a);
        if sources.is_empty() && !s.watcher.diagnostics(&WatchedPlace::from(&a)).is_empty() {
            break;
        }
    }
    let codes: Vec<_> =
        s.watcher.diagnostics(&WatchedPlace::from(&a)).into_iter().filter_map(|d| d.code).collect();
    assert_eq!(codes, ["root_missing"]);
    assert_eq!(commands(&s.registry, &cursor_id(&a)), None);
    assert_eq!(s.watcher.platform_watches(), 3, "b, its .cursor, and the parent a waits on");
    write(b.as_path(), HOOKS, &cursor_file(&["./b2.sh"]));
    wait_reload(&events, &b);
    assert_eq!(text(commands(&s.registry, &cursor_id(&b))), ["./b2.sh"]);
}

/// Waits until `root` is withdrawn with `root_missing` after its deletion.
fn wait_missing(
    s: &Setup,
    events: &std::sync::mpsc::Receiver<crate::WatcherEvent>,
    root: &AbsPathBuf,
) {
    loop {
        let (sources, _) = wait_reload(events, root);
        if sources.is_empty() && !s.watcher.diagnostics(&WatchedPlace::from(root)).is_empty() {
            return;
        }
    }
}

/// Waits for `root` to be attached again, returning the events before it.
fn wait_attached(
    events: &std::sync::mpsc::Receiver<crate::WatcherEvent>,
    root: &AbsPathBuf,
) -> Vec<crate::WatcherEvent> {
    let ((), before) = wait_for(events, |e| match e {
        crate::WatcherEvent::Attached { place: WatchedPlace::Root(r), result: Ok(()) }
            if r == root =>
        {
            Some(())
        }
        _ => None,
    });
    before
}

#[test]
fn a_root_deleted_and_recreated_with_another_hook_file_is_loaded_without_an_add() {
    let s = setup();
    let a = s.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    s.add(&a);
    let events = s.watcher.subscribe();
    fs::remove_dir_all(a.as_path()).expect("rm -r root");
    wait_missing(&s, &events, &a);
    assert_eq!(commands(&s.registry, &cursor_id(&a)), None);

    // `git clone` into the same path: the folder, then the files.
    fs::create_dir(a.as_path()).expect("mkdir root");
    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    wait_attached(&events, &a);
    // The file may have been written before or after the root's watch attached; either way
    // it is loaded, at once or one window later. So may `.cursor` have been made: when after,
    // its watch is added as its creation is seen, and a reload follows.
    while text(commands(&s.registry, &cursor_id(&a))) != ["./new.sh"]
        || s.watcher.platform_watches() != 2
    {
        wait_reload(&events, &a);
    }
    assert!(s.watcher.diagnostics(&WatchedPlace::from(&a)).is_empty());
    assert_eq!(s.watcher.roots(), std::slice::from_ref(&a));
    assert_eq!(s.watcher.platform_watches(), 2, "a and its .cursor; the parent is released");
    // Watched again.
    write(a.as_path(), HOOKS, &cursor_file(&["./newer.sh"]));
    while text(commands(&s.registry, &cursor_id(&a))) != ["./newer.sh"] {
        wait_reload(&events, &a);
    }
}

#[test]
fn a_root_whose_parents_were_deleted_too_is_found_when_they_come_back() {
    let s = setup();
    let base = s.root("base");
    let repo = make_root(base.as_path(), "x/y/repo");
    write(repo.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    s.add(&repo);
    let events = s.watcher.subscribe();
    fs::remove_dir_all(base.as_path().join("x")).expect("rm -r x");
    wait_missing(&s, &events, &repo);
    assert_eq!(s.watcher.platform_watches(), 1, "only base, which the root waits on");

    write(repo.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    wait_attached(&events, &repo);
    // As when a root is recreated: `.cursor` may have been made after the root's folders were
    // listed and its file read before its watch; then the watch is added as its creation is
    // seen, and a reload follows.
    while text(commands(&s.registry, &cursor_id(&repo))) != ["./new.sh"]
        || s.watcher.platform_watches() != 2
    {
        wait_reload(&events, &repo);
    }
    assert!(s.watcher.diagnostics(&WatchedPlace::from(&repo)).is_empty());
    assert_eq!(s.watcher.platform_watches(), 2, "repo and its .cursor");
}

#[test]
fn a_root_removed_while_missing_is_not_watched_when_its_folder_reappears() {
    let s = setup();
    let (a, marker) = (s.root("a"), s.root("z-marker"));
    write(a.as_path(), HOOKS, &cursor_file(&["./old.sh"]));
    s.add(&a);
    s.add(&marker);
    let events = s.watcher.subscribe();
    fs::remove_dir_all(a.as_path()).expect("rm -r root");
    wait_missing(&s, &events, &a);
    assert!(s.watcher.remove_root(a.as_path()));

    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    // The marker's reload comes after anything the watcher would have done for `a`.
    write(marker.as_path(), HOOKS, &cursor_file(&["./marker.sh"]));
    let (_, before) = wait_reload(&events, &marker);
    assert!(
        before.iter().all(|e| !matches!(
            e,
            crate::WatcherEvent::Attached { place: WatchedPlace::Root(root), .. } | crate::WatcherEvent::Reloaded { place: WatchedPlace::Root(root), .. }
                if root == &a
        )),
        "{before:#?}"
    );
    assert_eq!(commands(&s.registry, &cursor_id(&a)), None);
    assert_eq!(
        s.watcher.platform_watches(),
        2,
        "the marker and its .cursor; the parent is released"
    );
    assert_eq!(s.watcher.roots(), [marker]);
}

#[test]
fn the_watcher_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<HookConfigWatcher>();
    shareable::<crate::AttachFuture>();
}

/// A Copilot CLI hook file with one `preToolUse` hook running `command`.
fn copilot_file(command: &str) -> String {
    format!(
        "{{ \"version\": 1, \"hooks\": {{ \"preToolUse\": [{{ \"type\": \"command\", \"bash\": \"{command}\" }}] }} }}"
    )
}

/// Copilot CLI reads `.github/hooks` with its subfolders (a recursive `FilePattern::EachIn`):
/// a file written into subfolders created after the root was attached loads; the new
/// subfolders are then watched, so a second file there loads too; removing them withdraws
/// both and lets their watches go.
#[test]
fn a_new_file_in_a_new_subfolder_of_a_recursive_folder_loads() {
    let registry = RegistryHandle::default();
    let config = WatcherConfig::new(Surface::CliRun, hooks_testing::copilot_formats())
        .with_debounce_window(WINDOW);
    let watcher = HookConfigWatcher::new(registry.clone(), Arc::new(StaticTrustPolicy), config)
        .expect("start watcher");
    let s = Setup { dir: tempfile::tempdir().expect("temp dir"), registry, watcher };
    let a = s.root("a");
    s.add(&a);
    let events = s.watcher.subscribe();
    let kind = hooks_testing::kinds::PROJECT_COPILOT_HOOKS;
    let (x, y) = (".github/hooks/new/deeper/x.json", ".github/hooks/new/deeper/y.json");
    write(a.as_path(), x, &copilot_file("./x.sh"));
    while commands(&s.registry, &id(kind, &a, x)).is_none() {
        wait_reload(&events, &a);
    }
    assert_eq!(text(commands(&s.registry, &id(kind, &a, x))), ["./x.sh"]);

    write(a.as_path(), y, &copilot_file("./y.sh"));
    while commands(&s.registry, &id(kind, &a, y)).is_none() {
        wait_reload(&events, &a);
    }
    assert_eq!(text(commands(&s.registry, &id(kind, &a, y))), ["./y.sh"]);
    let watched = s.watcher.platform_watches();
    assert_eq!(watched, 5, "the root, .github, .github/hooks, new, new/deeper");

    fs::remove_dir_all(a.as_path().join(".github/hooks/new")).expect("rm -r new");
    // The folders' removal reaches the watcher as several events; the reload that follows
    // the last one comes after its watches were let go.
    while commands(&s.registry, &id(kind, &a, x)).is_some()
        || commands(&s.registry, &id(kind, &a, y)).is_some()
        || s.watcher.platform_watches() != 3
    {
        wait_reload(&events, &a);
    }
    assert_eq!(s.watcher.platform_watches(), 3, "the root, .github, .github/hooks");
}

#[test]
fn a_loader_loads_roots_and_decides_trust_but_watches_nothing() {
    let registry = RegistryHandle::default();
    let config = WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats());
    let loader = HookConfigWatcher::loader(registry.clone(), Arc::new(StaticTrustPolicy), config);
    let dir = tempfile::tempdir().expect("temp dir");
    let a = make_root(dir.path(), "a");
    write(a.as_path(), HOOKS, &cursor_file(&["./hook.sh"]));
    // Loaded on the spot; the future says at once that nothing is watched.
    let attached = loader.add_root(a.as_path()).wait_timeout(Duration::from_secs(10));
    assert!(
        matches!(attached, Some(Err(crate::WatcherError::LoadedOnly { ref path })) if path == a.as_path()),
        "{attached:?}"
    );
    assert_eq!(text(commands(&registry, &cursor_id(&a))), ["./hook.sh"]);
    assert_eq!(loader.platform_watches(), 0);
    assert_eq!(loader.loads(&WatchedPlace::from(&a)), Some(1));
    // Inert until the run's posture is known, then active, as under a watcher.
    assert!(running_in(&registry, a.as_path()).is_empty());
    loader
        .set_trust_inputs(TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves));
    assert_eq!(running_in(&registry, a.as_path()), ["./hook.sh"]);
    // A change is not seen, but an explicit reload reads it.
    write(a.as_path(), HOOKS, &cursor_file(&["./other.sh"]));
    assert_eq!(text(commands(&registry, &cursor_id(&a))), ["./hook.sh"]);
    loader.reload(&WatchedPlace::from(&a)).expect("reload");
    assert_eq!(text(commands(&registry, &cursor_id(&a))), ["./other.sh"]);
    // Adding it again loads nothing and still resolves at once.
    let again = loader.add_root(a.as_path()).wait_timeout(Duration::from_secs(10));
    assert!(matches!(again, Some(Err(crate::WatcherError::LoadedOnly { .. }))), "{again:?}");
    assert_eq!(loader.loads(&WatchedPlace::from(&a)), Some(2));
}
