//! Scripted-event tests: the engine driven by hand-written platform events at fake times, with
//! a fake platform watch, against real files in a temporary directory and a real registry.
//! Nothing sleeps; time only moves when a test says so.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    sync::{
        Arc,
        mpsc::{self, Receiver},
    },
    time::{Duration, Instant},
};

use hooks_registry::{LoadStateKind, RegistryEvent, RegistryHandle};
use hooks_schema::{AbsPathBuf, HookSourceKind};
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind, RemoveKind};
use tempfile::TempDir;

use super::support::{
    commands, cursor_file, cursor_id, id, load_state, make_root, paths, running_in, write,
};
use crate::{
    WatchError, WatchedPlace, WatcherEvent,
    backend::WatchBackend,
    shared::{AttachOutcome, Shared},
    worker::{Engine, Msg},
};

/// A platform watch that records what is watched and fails the way platforms do.
#[derive(Default)]
struct FakeBackend {
    watched: BTreeSet<PathBuf>,
    /// Refuses a new watch once this many are held (inotify's `max_user_watches`).
    limit: Option<usize>,
    /// Directories this process may not read.
    denied: BTreeSet<PathBuf>,
    /// When set, the number of platform watches the watcher shows, read at every watch and
    /// unwatch.
    probe: Option<(Arc<Shared>, Vec<usize>)>,
}

impl FakeBackend {
    fn probe(&mut self) {
        if let Some((shared, seen)) = &mut self.probe {
            seen.push(shared.platform_watches());
        }
    }
}

impl WatchBackend for FakeBackend {
    fn watch(&mut self, dir: &Path) -> Result<(), WatchError> {
        self.probe();
        if self.denied.contains(dir) {
            return Err(WatchError::PermissionDenied { path: dir.to_path_buf() });
        }
        if !self.watched.contains(dir) && self.limit.is_some_and(|l| self.watched.len() >= l) {
            return Err(WatchError::TooManyWatches { path: dir.to_path_buf() });
        }
        self.watched.insert(dir.to_path_buf());
        Ok(())
    }

    fn unwatch(&mut self, dir: &Path) {
        self.probe();
        self.watched.remove(dir);
    }
}

struct Harness {
    dir: TempDir,
    registry: RegistryHandle,
    shared: Arc<Shared>,
    engine: Engine<FakeBackend>,
    events: Receiver<WatcherEvent>,
    now: Instant,
}

fn desktop_unknown() -> TrustInputs {
    TrustInputs::new(Surface::Desktop, CommandExecutionPosture::Unknown)
}

fn cli_auto() -> TrustInputs {
    TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves)
}

impl Harness {
    fn new() -> Harness {
        Harness::with(desktop_unknown(), FakeBackend::default())
    }

    fn with(inputs: TrustInputs, backend: FakeBackend) -> Harness {
        let registry = RegistryHandle::default();
        let shared = Arc::new(Shared::new(
            registry.clone(),
            hooks_testing::workspace_formats(),
            Arc::new(StaticTrustPolicy),
            inputs,
        ));
        let (tx, events) = mpsc::channel();
        shared.subscribe(tx);
        let engine = Engine::new(Arc::clone(&shared), backend, Duration::from_millis(500));
        let dir = tempfile::tempdir().expect("temp dir");
        Harness { dir, registry, shared, engine, events, now: Instant::now() }
    }

    fn root(&self, name: &str) -> AbsPathBuf {
        make_root(self.dir.path(), name)
    }

    /// Adds a root the way `HookConfigWatcher::add_root` does and lets the worker attach it.
    fn add(&mut self, root: &AbsPathBuf) -> Option<AttachOutcome> {
        let (new, attach) = self.shared.add_root(root);
        if new {
            self.engine.handle(Msg::Attach(WatchedPlace::from(root)), self.now);
        }
        match attach {
            Ok(mut rx) => rx.try_recv().ok(),
            Err(outcome) => Some(outcome),
        }
    }

    fn remove(&mut self, root: &AbsPathBuf) {
        assert!(self.shared.remove_root(root));
        self.engine.handle(Msg::Detach(root.clone()), self.now);
    }

    /// Delivers one platform event about `rels` (relative to `root`) now.
    fn event(&mut self, kind: EventKind, root: &AbsPathBuf, rels: &[&str]) {
        let mut event = notify::Event::new(kind);
        for rel in rels {
            event = event.add_path(if rel.is_empty() {
                root.as_path().to_path_buf()
            } else {
                root.as_path().join(rel)
            });
        }
        self.engine.handle(Msg::Fs(Ok(event)), self.now);
    }

    /// Moves the clock forward, reloading at each deadline passed, as the worker loop does.
    fn advance(&mut self, ms: u64) {
        let until = self.now + Duration::from_millis(ms);
        while let Some(deadline) = self.engine.next_deadline().filter(|d| *d <= until) {
            self.now = self.now.max(deadline);
            self.engine.flush(self.now);
        }
        self.now = until;
    }

    fn loads(&self, root: &AbsPathBuf) -> u64 {
        self.shared.loads(&WatchedPlace::from(root)).expect("a watched root")
    }

    fn watched(&self, root: &AbsPathBuf) -> Vec<String> {
        paths(&self.engine.watched_dirs(root.as_path()), root)
    }

    fn codes(&self, root: &AbsPathBuf) -> Vec<String> {
        self.shared
            .diagnostics(&WatchedPlace::from(root))
            .into_iter()
            .filter_map(|d| d.code)
            .collect()
    }
}

mod managed;
mod missing;
mod user;

const CREATE: EventKind = EventKind::Create(CreateKind::File);
const CREATE_DIR: EventKind = EventKind::Create(CreateKind::Folder);
const REMOVE: EventKind = EventKind::Remove(RemoveKind::File);
const REMOVE_DIR: EventKind = EventKind::Remove(RemoveKind::Folder);
const RENAME: EventKind = EventKind::Modify(ModifyKind::Name(notify::event::RenameMode::Any));
const MODIFY: EventKind = EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Any));
const CLOSE_WRITE: EventKind = EventKind::Access(AccessKind::Close(AccessMode::Write));
const OPEN: EventKind = EventKind::Access(AccessKind::Open(AccessMode::Any));

const HOOKS: &str = ".cursor/hooks.json";

/// `fs::write` as the platform reports it.
fn written(h: &mut Harness, root: &AbsPathBuf, rel: &str) {
    h.event(OPEN, root, &[rel]);
    h.event(MODIFY, root, &[rel]);
    h.event(CLOSE_WRITE, root, &[rel]);
}

#[test]
fn adding_a_root_loads_its_file_scoped_to_that_root_and_watches_its_folders() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    assert_eq!(h.add(&a), Some(AttachOutcome::Attached));
    assert_eq!(h.loads(&a), 1);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./one.sh".to_owned()]));
    let snapshot = h.registry.snapshot();
    assert_eq!(snapshot.project_roots(), std::slice::from_ref(&a));
    let view = snapshot.source(&cursor_id(&a)).expect("source");
    assert_eq!(view.roots, vec![a.clone()]);
    // Before the run starts the posture is unknown: loaded, protected, inert.
    assert!(!view.trust.is_active());
    assert!(running_in(&h.registry, a.as_path()).is_empty());
    assert!(snapshot.is_protected(&a.as_path().join(HOOKS)).is_some());
    assert_eq!(h.watched(&a), [".", ".cursor"]);
}

const CLAUDE: &str = ".claude/settings.json";
const CLAUDE_STOP: &str =
    r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./stop.sh"}]}]}}"#;
const CHRYS_JSON: &str = ".chrys/hooks/hooks.json";
const CHRYS_HOOK: &str = r#"{"version":1,"hooks":[{"id":"c","event":"before_tool_call","run":{"type":"shell","shell":"./chrys.sh"}}]}"#;

/// The registry events received so far.
fn registry_events(rx: &Receiver<RegistryEvent>) -> Vec<RegistryEvent> {
    rx.try_iter().collect()
}

#[test]
fn adding_a_root_publishes_one_snapshot_and_subscribers_hear_one_event() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    // The user opted in to project Chrys hooks, which they require on every surface.
    h.registry.change(|r| r.set_user_opt_in(true));
    // An enclosing project, whose hooks a directory under the new root runs until it is added.
    let outer = h.root("outer");
    write(outer.as_path(), HOOKS, &cursor_file(&["./outer.sh"]));
    h.add(&outer);
    let a = make_root(outer.as_path(), "a");
    write(a.as_path(), HOOKS, &cursor_file(&["./cursor.sh"]));
    write(a.as_path(), CLAUDE, CLAUDE_STOP);
    // A Chrys `hooks.json` adds found paths (the `hooks.yaml` and `hooks.yml` that would
    // replace it), one more operation of the load.
    write(a.as_path(), CHRYS_JSON, CHRYS_HOOK);
    assert_eq!(running_in(&h.registry, a.as_path()), ["./outer.sh"]);
    let registry_events_rx = h.registry.subscribe();
    let before = h.registry.snapshot();
    assert_eq!(h.add(&a), Some(AttachOutcome::Attached));
    let after = h.registry.snapshot();
    assert_eq!(after.generation(), before.generation().next(), "one snapshot for the add");
    assert_eq!(
        registry_events(&registry_events_rx),
        [RegistryEvent::SnapshotChanged {
            generation: after.generation(),
            revision: after.revision()
        }]
    );
    let mut running = running_in(&h.registry, a.as_path());
    running.sort();
    assert_eq!(running, ["./chrys.sh", "./cursor.sh", "./stop.sh"]);
    assert!(after.project_roots().contains(&a));
    assert!(after.protected_paths().contains(&a.as_path().join(".chrys/hooks/hooks.yaml")));
    let reloaded: Vec<_> = h
        .events
        .try_iter()
        .filter_map(|e| match e {
            WatcherEvent::Reloaded {
                place: WatchedPlace::Root(root), generation, sources, ..
            } if root == a => Some((generation, sources.len())),
            _ => None,
        })
        .collect();
    assert_eq!(reloaded, [(after.generation(), 3)]);
}

#[test]
fn removing_a_root_with_several_files_publishes_one_snapshot() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./cursor.sh"]));
    write(a.as_path(), CLAUDE, CLAUDE_STOP);
    h.add(&a);
    let rx = h.registry.subscribe();
    let before = h.registry.snapshot().generation();
    h.remove(&a);
    let after = h.registry.snapshot();
    assert_eq!(after.generation(), before.next());
    assert!(after.sources().is_empty());
    assert!(after.project_roots().is_empty());
    assert_eq!(registry_events(&rx).len(), 1);
}

#[test]
fn adding_a_root_twice_loads_once() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    let generation = h.registry.snapshot().generation();
    assert_eq!(h.add(&a), Some(AttachOutcome::Attached));
    assert_eq!(h.loads(&a), 1);
    assert_eq!(h.registry.snapshot().generation(), generation);
}

#[test]
fn a_plain_write_reloads_once_a_window_after_its_last_event() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    write(a.as_path(), HOOKS, &cursor_file(&["./two.sh"]));
    written(&mut h, &a, HOOKS);
    h.advance(499);
    assert_eq!(h.loads(&a), 1);
    h.advance(1);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./two.sh".to_owned()]));
    h.advance(10_000);
    assert_eq!(h.loads(&a), 2);
}

#[test]
fn creating_the_folder_and_file_watches_the_folder_at_once_and_loads_once() {
    let mut h = Harness::new();
    let a = h.root("a");
    h.add(&a);
    assert_eq!(h.watched(&a), ["."]);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    fs::create_dir(a.as_path().join(".cursor")).expect("mkdir");
    h.event(CREATE_DIR, &a, &[".cursor"]);
    assert_eq!(h.watched(&a), [".", ".cursor"], "watched before the debounce ends");
    write(a.as_path(), HOOKS, &cursor_file(&["./new.sh"]));
    h.event(CREATE, &a, &[HOOKS]);
    written(&mut h, &a, HOOKS);
    h.advance(500);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./new.sh".to_owned()]));
}

#[test]
fn a_folder_s_creation_seen_after_it_was_watched_never_shows_it_unwatched() {
    // A root recreated (`git clone`): its `.cursor` made after the root's watch attached
    // and before the root's folders were listed, so it is watched at once and its creation
    // event comes after. That event forgets the folder's watch and watches it again; nobody
    // reading the count in between sees one watch fewer (a test did, under load).
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    assert_eq!(h.watched(&a), [".", ".cursor"]);
    assert_eq!(h.shared.platform_watches(), 2);
    let shared = Arc::clone(&h.shared);
    h.engine.backend().probe = Some((shared, Vec::new()));
    h.event(CREATE_DIR, &a, &[".cursor"]);
    let (_, seen) = h.engine.backend().probe.take().expect("probe");
    assert!(!seen.is_empty(), "the folder is watched again");
    assert!(seen.iter().all(|n| *n == 2), "counts seen while handling: {seen:?}");
    assert_eq!(h.shared.platform_watches(), 2);
    assert_eq!(h.watched(&a), [".", ".cursor"]);
}

#[test]
fn deleting_the_file_withdraws_it_and_the_root_stays_a_project() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    fs::remove_file(a.as_path().join(HOOKS)).expect("rm");
    h.event(REMOVE, &a, &[HOOKS]);
    h.advance(500);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert_eq!(h.registry.snapshot().project_roots(), std::slice::from_ref(&a));
}

#[test]
fn an_editor_safe_save_loads_once() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    let (file, backup) = (a.as_path().join(HOOKS), a.as_path().join(".cursor/hooks.json~"));
    fs::rename(&file, &backup).expect("backup");
    h.event(RENAME, &a, &[HOOKS, ".cursor/hooks.json~"]);
    h.advance(2);
    write(a.as_path(), HOOKS, &cursor_file(&["./two.sh"]));
    h.event(CREATE, &a, &[HOOKS]);
    written(&mut h, &a, HOOKS);
    h.advance(8);
    fs::remove_file(&backup).expect("rm backup");
    h.event(REMOVE, &a, &[".cursor/hooks.json~"]);
    h.advance(10_000);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./two.sh".to_owned()]));
}

#[test]
fn an_atomic_replacement_reported_as_delete_and_create_loads_once() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    fs::remove_file(a.as_path().join(HOOKS)).expect("rm");
    h.event(REMOVE, &a, &[HOOKS]);
    h.advance(3);
    write(a.as_path(), HOOKS, &cursor_file(&["./two.sh"]));
    h.event(CREATE, &a, &[HOOKS]);
    written(&mut h, &a, HOOKS);
    h.advance(10_000);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./two.sh".to_owned()]));
    assert_eq!(load_state(&h.registry, &cursor_id(&a)), Some(LoadStateKind::Loaded));
}

#[test]
fn writing_a_temporary_file_and_renaming_it_over_loads_once() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    let tmp = ".cursor/.hooks.json.tmp";
    write(a.as_path(), tmp, &cursor_file(&["./two.sh"]));
    h.event(CREATE, &a, &[tmp]);
    written(&mut h, &a, tmp);
    h.advance(300);
    assert_eq!(h.loads(&a), 1, "the temporary file alone changes nothing");
    fs::rename(a.as_path().join(tmp), a.as_path().join(HOOKS)).expect("rename");
    h.event(RENAME, &a, &[tmp]);
    h.event(RENAME, &a, &[HOOKS]);
    h.event(RENAME, &a, &[tmp, HOOKS]);
    h.advance(10_000);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./two.sh".to_owned()]));
}

#[test]
fn a_burst_of_writes_loads_once_with_the_last_content() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./v0.sh"]));
    h.add(&a);
    for i in 1..=10 {
        write(a.as_path(), HOOKS, &cursor_file(&[&format!("./v{i}.sh")]));
        written(&mut h, &a, HOOKS);
        h.advance(100);
    }
    h.advance(10_000);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./v10.sh".to_owned()]));
}

#[test]
fn unrelated_files_change_nothing() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    let generation = h.registry.snapshot().generation();
    for rel in
        ["README.md", ".cursor/rules.json", "src/.cursor/hooks.json", ".claude/output-styles/x.md"]
    {
        write(a.as_path(), rel, "x");
        h.event(CREATE, &a, &[rel]);
        written(&mut h, &a, rel);
    }
    // The watcher's own reads.
    h.event(OPEN, &a, &[HOOKS]);
    h.event(OPEN, &a, &[".cursor"]);
    h.advance(10_000);
    assert_eq!(h.loads(&a), 1);
    assert_eq!(h.registry.snapshot().generation(), generation);
}

#[test]
fn removing_the_cursor_folder_withdraws_that_source_only() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    write(
        a.as_path(),
        ".claude/settings.json",
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./stop.sh"}]}]}}"#,
    );
    h.add(&a);
    let claude = id(hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, &a, ".claude/settings.json");
    assert!(commands(&h.registry, &claude).is_some());
    fs::remove_dir_all(a.as_path().join(".cursor")).expect("rm -r");
    h.event(REMOVE, &a, &[HOOKS]);
    h.event(REMOVE_DIR, &a, &[".cursor"]);
    assert_eq!(h.watched(&a), [".", ".claude"]);
    h.advance(500);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert_eq!(commands(&h.registry, &claude), Some(vec!["./stop.sh".to_owned()]));
}

#[test]
fn a_rewrite_that_does_not_parse_keeps_the_previous_bindings() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    assert_eq!(running_in(&h.registry, a.as_path()), ["./one.sh"]);
    write(a.as_path(), HOOKS, "{ \"version\": 1, \"hooks\": ");
    written(&mut h, &a, HOOKS);
    h.advance(500);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(load_state(&h.registry, &cursor_id(&a)), Some(LoadStateKind::Stale));
    assert_eq!(running_in(&h.registry, a.as_path()), ["./one.sh"]);
}

#[test]
fn two_roots_are_independent() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(b.as_path(), HOOKS, &cursor_file(&["./b.sh"]));
    h.add(&a);
    h.add(&b);
    write(a.as_path(), HOOKS, &cursor_file(&["./a2.sh"]));
    written(&mut h, &a, HOOKS);
    h.advance(400);
    write(b.as_path(), HOOKS, &cursor_file(&["./b2.sh"]));
    written(&mut h, &b, HOOKS);
    h.advance(100);
    assert_eq!((h.loads(&a), h.loads(&b)), (2, 1), "b's change does not delay a");
    h.advance(400);
    assert_eq!((h.loads(&a), h.loads(&b)), (2, 2));
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./a2.sh".to_owned()]));
    assert_eq!(commands(&h.registry, &cursor_id(&b)), Some(vec!["./b2.sh".to_owned()]));
}

#[test]
fn a_nested_root_without_a_hook_file_is_its_own_project_until_removed() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    let outer = h.root("outer");
    write(outer.as_path(), HOOKS, &cursor_file(&["./outer.sh"]));
    let inner = h.root("outer/inner");
    h.add(&outer);
    assert_eq!(running_in(&h.registry, inner.as_path()), ["./outer.sh"]);
    h.add(&inner);
    assert!(running_in(&h.registry, inner.as_path()).is_empty());
    assert_eq!(running_in(&h.registry, outer.as_path()), ["./outer.sh"]);
    // A hook file of the nested root reloads the nested root only.
    write(inner.as_path(), HOOKS, &cursor_file(&["./inner.sh"]));
    h.event(CREATE_DIR, &inner, &[".cursor"]);
    written(&mut h, &inner, HOOKS);
    h.advance(500);
    assert_eq!((h.loads(&outer), h.loads(&inner)), (1, 2));
    assert_eq!(running_in(&h.registry, inner.as_path()), ["./inner.sh"]);
    h.remove(&inner);
    assert_eq!(running_in(&h.registry, inner.as_path()), ["./outer.sh"]);
}

#[test]
fn removing_a_root_withdraws_its_sources_the_project_and_its_watches() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    written(&mut h, &a, HOOKS);
    h.remove(&a);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert!(h.registry.snapshot().project_roots().is_empty());
    assert!(h.engine.backend().watched.is_empty());
    let generation = h.registry.snapshot().generation();
    h.advance(10_000);
    written(&mut h, &a, HOOKS);
    h.advance(10_000);
    assert_eq!(h.registry.snapshot().generation(), generation, "a removed root is not reloaded");
    assert!(h.events.try_iter().any(|e| matches!(e, WatcherEvent::Removed { root } if root == a)));
}

#[test]
fn a_root_removed_before_its_watch_attached_resolves_as_removed() {
    let mut h = Harness::new();
    let a = h.root("a");
    let (new, attach) = h.shared.add_root(&a);
    assert!(new);
    let mut rx = attach.expect("pending");
    h.remove(&a);
    assert_eq!(rx.try_recv().ok(), Some(AttachOutcome::Removed));
    h.engine.handle(Msg::Attach(WatchedPlace::from(&a)), h.now);
    assert!(h.engine.backend().watched.is_empty());
}

#[test]
fn trust_is_decided_again_for_every_root() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(
        b.as_path(),
        ".chrys/hooks/hooks.yaml",
        "version: 1\nhooks:\n  - id: b\n    event: before_tool_call\n    run: { type: shell, shell: ./b.sh }\n",
    );
    h.add(&a);
    h.add(&b);
    assert!(running_in(&h.registry, a.as_path()).is_empty());
    assert!(running_in(&h.registry, b.as_path()).is_empty());
    h.shared.set_trust_inputs(cli_auto());
    assert_eq!(running_in(&h.registry, a.as_path()), ["./a.sh"]);
    // The Chrys file is trusted now, but needs the user's opt-in as well.
    assert!(running_in(&h.registry, b.as_path()).is_empty());
    h.registry.change(|r| r.set_user_opt_in(true));
    assert_eq!(running_in(&h.registry, b.as_path()), ["./b.sh"]);
    // An interactive surface never activates a project file, whatever the posture.
    h.shared.set_trust_inputs(TrustInputs::new(
        Surface::Desktop,
        CommandExecutionPosture::AutoApproves,
    ));
    assert!(running_in(&h.registry, a.as_path()).is_empty());
    h.shared.set_trust_inputs(TrustInputs::new(
        Surface::OzRun,
        CommandExecutionPosture::RequiresApproval,
    ));
    assert!(running_in(&h.registry, a.as_path()).is_empty());
}

#[test]
fn a_root_added_after_the_posture_is_known_uses_it() {
    let mut h = Harness::new();
    h.shared.set_trust_inputs(cli_auto());
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    h.add(&a);
    assert_eq!(running_in(&h.registry, a.as_path()), ["./a.sh"]);
}

#[test]
fn every_project_format_is_loaded_in_priority_order() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./cursor.sh"]));
    write(a.as_path(), ".chrys/hooks/hooks.yml", "version: 1\nhooks: []\n");
    write(a.as_path(), ".claude/settings.json", r#"{"hooks":{}}"#);
    write(a.as_path(), ".claude/settings.local.json", r#"{"hooks":{}}"#);
    h.add(&a);
    let (sources, _) = super::support::wait_reload(&h.events, &a);
    let kinds: Vec<HookSourceKind> = sources.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            hooks_testing::kinds::PROJECT_CURSOR_FILE,
            hooks_testing::kinds::PROJECT_CHRYS_FILE,
            hooks_testing::kinds::PROJECT_CLAUDE_LOCAL_SETTINGS,
            hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
        ]
    );
    assert_eq!(h.watched(&a), [".", ".chrys", ".chrys/hooks", ".claude", ".cursor"]);
}

#[test]
fn chrys_folders_appearing_one_inside_the_other_are_both_watched() {
    let mut h = Harness::new();
    let a = h.root("a");
    h.add(&a);
    fs::create_dir_all(a.as_path().join(".chrys/hooks")).expect("mkdir -p");
    // The platform reports `.chrys`; `.chrys/hooks` was created before `.chrys` was watched.
    h.event(CREATE_DIR, &a, &[".chrys"]);
    assert_eq!(h.watched(&a), [".", ".chrys", ".chrys/hooks"]);
    write(a.as_path(), ".chrys/hooks/hooks.yaml", "version: 1\nhooks: []\n");
    written(&mut h, &a, ".chrys/hooks/hooks.yaml");
    h.advance(500);
    let chrys = id(hooks_testing::kinds::PROJECT_CHRYS_FILE, &a, ".chrys/hooks/hooks.yaml");
    assert_eq!(commands(&h.registry, &chrys), Some(vec![]));
}

#[test]
fn too_many_watches_is_a_diagnostic_on_that_root_and_the_others_keep_working() {
    let backend = FakeBackend { limit: Some(2), ..FakeBackend::default() };
    let mut h = Harness::with(desktop_unknown(), backend);
    let (a, b) = (h.root("a"), h.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(b.as_path(), HOOKS, &cursor_file(&["./b.sh"]));
    assert_eq!(h.add(&a), Some(AttachOutcome::Attached));
    let outcome = h.add(&b);
    assert!(
        matches!(outcome, Some(AttachOutcome::Failed(WatchError::TooManyWatches { .. }))),
        "{outcome:?}"
    );
    assert_eq!(h.codes(&b), ["too_many_watches"]);
    assert!(h.codes(&a).is_empty());
    // b was still loaded on the spot; a keeps reloading.
    assert_eq!(commands(&h.registry, &cursor_id(&b)), Some(vec!["./b.sh".to_owned()]));
    write(a.as_path(), HOOKS, &cursor_file(&["./a2.sh"]));
    written(&mut h, &a, HOOKS);
    h.advance(500);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), Some(vec!["./a2.sh".to_owned()]));
}

#[test]
fn permission_denied_on_a_folder_is_a_diagnostic_and_the_root_is_still_watched() {
    let mut h = Harness::new();
    let a = h.root("a");
    write(a.as_path(), ".claude/settings.json", r#"{"hooks":{}}"#);
    h.engine.backend().denied.insert(a.as_path().join(".claude"));
    assert_eq!(h.add(&a), Some(AttachOutcome::Attached));
    assert_eq!(h.codes(&a), ["watch_permission_denied"]);
    assert_eq!(h.watched(&a), ["."]);
}

#[test]
fn a_root_deleted_while_watched_is_a_diagnostic_and_the_others_keep_working() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    write(a.as_path(), HOOKS, &cursor_file(&["./a.sh"]));
    write(b.as_path(), HOOKS, &cursor_file(&["./b.sh"]));
    h.add(&a);
    h.add(&b);
    fs::remove_dir_all(a.as_path()).expect("rm -r root");
    h.event(REMOVE, &a, &[HOOKS]);
    h.event(REMOVE_DIR, &a, &[".cursor"]);
    h.event(EventKind::Remove(RemoveKind::Other), &a, &[""]);
    assert!(h.watched(&a).is_empty());
    write(b.as_path(), HOOKS, &cursor_file(&["./b2.sh"]));
    written(&mut h, &b, HOOKS);
    h.advance(500);
    assert_eq!(h.codes(&a), ["root_missing"]);
    assert_eq!(commands(&h.registry, &cursor_id(&a)), None);
    assert_eq!(commands(&h.registry, &cursor_id(&b)), Some(vec!["./b2.sh".to_owned()]));
    assert!(h.codes(&b).is_empty());
}

#[test]
fn a_platform_error_is_a_diagnostic_on_the_root_it_names() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    h.add(&a);
    h.add(&b);
    let error =
        notify::Error::new(notify::ErrorKind::MaxFilesWatch).add_path(b.as_path().join(".claude"));
    h.engine.handle(Msg::Fs(Err(error)), h.now);
    assert!(h.codes(&a).is_empty());
    assert_eq!(h.codes(&b), ["too_many_watches"]);
    // The same error again is recorded once.
    let error =
        notify::Error::new(notify::ErrorKind::MaxFilesWatch).add_path(b.as_path().join(".claude"));
    h.engine.handle(Msg::Fs(Err(error)), h.now);
    assert_eq!(h.codes(&b).len(), 1);
}

#[test]
fn a_dropped_event_queue_reloads_every_root_once() {
    let mut h = Harness::new();
    let (a, b) = (h.root("a"), h.root("b"));
    h.add(&a);
    h.add(&b);
    let rescan = notify::Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
    h.engine.handle(Msg::Fs(Ok(rescan)), h.now);
    h.advance(500);
    assert_eq!((h.loads(&a), h.loads(&b)), (2, 2));
}

#[test]
fn after_the_pin_a_change_is_reported_and_not_applied() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    let a = h.root("a");
    write(a.as_path(), HOOKS, &cursor_file(&["./one.sh"]));
    h.add(&a);
    h.registry.change(|reg| reg.pin(CommandExecutionPosture::AutoApproves));
    write(a.as_path(), HOOKS, &cursor_file(&["./two.sh"]));
    written(&mut h, &a, HOOKS);
    h.advance(500);
    assert_eq!(h.loads(&a), 2);
    assert_eq!(running_in(&h.registry, a.as_path()), ["./one.sh"]);
    let snapshot = h.registry.snapshot();
    let view = snapshot.source(&cursor_id(&a)).expect("source");
    assert!(
        view.diagnostics.iter().any(|d| !d.is_error() && d.message.contains("after")),
        "{:?}",
        view.diagnostics
    );
}

#[test]
fn a_hook_file_found_after_the_pin_is_protected_and_inert() {
    let mut h = Harness::with(cli_auto(), FakeBackend::default());
    let a = h.root("a");
    h.add(&a);
    h.registry.change(|reg| reg.pin(CommandExecutionPosture::AutoApproves));
    fs::create_dir(a.as_path().join(".cursor")).expect("mkdir");
    write(a.as_path(), HOOKS, &cursor_file(&["./late.sh"]));
    h.event(CREATE_DIR, &a, &[".cursor"]);
    written(&mut h, &a, HOOKS);
    h.advance(500);
    let snapshot = h.registry.snapshot();
    let view = snapshot.source(&cursor_id(&a)).expect("a late file is known");
    assert!(!view.runs);
    assert!(running_in(&h.registry, a.as_path()).is_empty());
    assert!(snapshot.is_protected(&a.as_path().join(HOOKS)).is_some());
}
