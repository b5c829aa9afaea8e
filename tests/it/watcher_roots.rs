//! A project root deleted and recreated at the same path, end to end through the public
//! watcher API with the platform watcher: it is watched again without a new add, unless it was
//! removed while missing.

use std::{
    fs,
    sync::mpsc::Receiver,
    time::{Duration, Instant},
};

use hooks_registry::{RegistryHandle, canonicalize};
use hooks_schema::{AbsPathBuf, HookCommand, HookSourceId};
use hooks_watcher::{HookConfigWatcher, WatchedPlace, WatcherEvent};

use crate::support::{TestDir, auto_approving_watcher};

const LIMIT: Duration = Duration::from_secs(20);
const CURSOR: &str = ".cursor/hooks.json";

fn cursor_file(script: &str) -> String {
    format!(r#"{{"version": 1, "hooks": {{"beforeShellExecution": [{{"command": "{script}"}}]}}}}"#)
}

struct Setup {
    dir: TestDir,
    registry: RegistryHandle,
    watcher: HookConfigWatcher,
    events: Receiver<WatcherEvent>,
}

impl Setup {
    fn new() -> Setup {
        let registry = RegistryHandle::default();
        let watcher = auto_approving_watcher(&registry);
        let events = watcher.subscribe();
        Setup { dir: TestDir::new(), registry, watcher, events }
    }

    /// A root folder holding a Cursor hook file running `script`, canonical.
    fn root(&self, name: &str, script: &str) -> AbsPathBuf {
        self.dir.write(&format!("{name}/{CURSOR}"), &cursor_file(script));
        canonicalize(&self.dir.path().join(name)).expect("canonical root")
    }

    fn add(&self, root: &AbsPathBuf) {
        let attached = self.watcher.add_root(root.as_path()).wait_timeout(LIMIT);
        assert_eq!(attached.expect("attached in time").expect("attached"), *root);
    }

    /// The commands the snapshot runs in `root`.
    fn running_in(&self, root: &AbsPathBuf) -> Vec<String> {
        self.registry
            .snapshot()
            .bindings_for(root.as_path())
            .iter()
            .map(|b| match &b.definition.command {
                HookCommand::Shell { script, .. } => script.clone(),
                HookCommand::Exec { program, .. } => program.clone(),
                HookCommand::Script { path, .. } => path.display().to_string(),
                HookCommand::Http(h) => h.url.clone(),
            })
            .collect()
    }

    fn has_source(&self, root: &AbsPathBuf) -> bool {
        let file = root.join(std::path::Path::new(CURSOR)).expect("absolute");
        let id = HookSourceId::new(hooks_format_cursor::PROJECT_FILE, file);
        self.registry.snapshot().source(&id).is_some()
    }

    /// Waits for the first event `pick` accepts, returning the events before it.
    fn wait(&self, what: &str, mut pick: impl FnMut(&WatcherEvent) -> bool) -> Vec<WatcherEvent> {
        let deadline = Instant::now() + LIMIT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(e) if pick(&e) => return before,
                Ok(e) => before.push(e),
                Err(e) => panic!("{what}: {e}; received {before:#?}"),
            }
        }
    }

    /// Deletes `root` and waits until its sources are withdrawn with `root_missing`.
    fn delete(&self, root: &AbsPathBuf) {
        fs::remove_dir_all(root.as_path()).expect("rm -r root");
        self.wait("the root withdrawn", |e| {
            matches!(e, WatcherEvent::Diagnostic { place: WatchedPlace::Root(r), diagnostic }
                if r == root && diagnostic.code.as_deref() == Some("root_missing"))
        });
        assert!(!self.has_source(root), "its sources are withdrawn");
        assert!(self.running_in(root).is_empty());
    }
}

#[test]
fn a_project_root_deleted_and_recreated_runs_its_new_hook_without_a_new_add() {
    let s = Setup::new();
    let repo = s.root("repo", "./old.sh");
    s.add(&repo);
    assert_eq!(s.running_in(&repo), ["./old.sh"]);

    s.delete(&repo);

    // `rm -rf repo && git clone … repo`, with a different hook file.
    s.dir.write(&format!("repo/{CURSOR}"), &cursor_file("./new.sh"));
    s.wait(
        "the root attached again",
        |e| matches!(e, WatcherEvent::Attached { place: WatchedPlace::Root(root), result: Ok(()) } if root == &repo),
    );
    // Loaded at once when it was complete before the watch attached, else a window later.
    while s.running_in(&repo) != ["./new.sh"] {
        s.wait(
            "the new hook file loaded",
            |e| matches!(e, WatcherEvent::Reloaded { place: WatchedPlace::Root(root), .. } if root == &repo),
        );
    }
    assert!(
        s.watcher.diagnostics(&WatchedPlace::from(&repo)).is_empty(),
        "root_missing is cleared"
    );
    assert_eq!(s.watcher.roots(), std::slice::from_ref(&repo));
    assert!(s.registry.snapshot().project_roots().contains(&repo));
}

#[test]
fn a_project_root_removed_while_missing_is_not_resurrected_when_its_folder_reappears() {
    let s = Setup::new();
    let repo = s.root("repo", "./old.sh");
    let marker = s.root("z-marker", "./marker.sh");
    s.add(&repo);
    s.add(&marker);
    s.delete(&repo);
    assert!(s.watcher.remove_root(repo.as_path()));
    assert!(!s.registry.snapshot().project_roots().contains(&repo));

    s.dir.write(&format!("repo/{CURSOR}"), &cursor_file("./new.sh"));
    // The watcher handles changes in order, so by the time the marker's change is loaded,
    // anything it would have done for the recreated folder is done.
    s.dir.write(&format!("z-marker/{CURSOR}"), &cursor_file("./marker2.sh"));
    let before = s.wait(
        "the marker reloaded",
        |e| matches!(e, WatcherEvent::Reloaded { place: WatchedPlace::Root(root), .. } if root == &marker),
    );
    assert!(
        before.iter().all(|e| !matches!(e,
            WatcherEvent::Attached { place: WatchedPlace::Root(root), .. } | WatcherEvent::Reloaded { place: WatchedPlace::Root(root), .. }
                if root == &repo)),
        "{before:#?}"
    );
    assert!(!s.has_source(&repo));
    assert!(s.running_in(&repo).is_empty());
    assert!(!s.registry.snapshot().project_roots().contains(&repo));
    assert_eq!(s.watcher.roots(), [marker]);
}
