//! Shared fixtures for the integration tests: temporary project trees and helpers.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A temporary directory tree that is removed when dropped.
pub struct TestDir {
    dir: tempfile::TempDir,
}

impl TestDir {
    /// A new empty directory.
    pub fn new() -> TestDir {
        TestDir { dir: tempfile::tempdir().expect("create temp dir") }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `rel` under the directory, as text (a command's argument).
    pub fn text_path(&self, rel: &str) -> String {
        self.dir.path().join(rel).to_str().expect("utf-8").to_owned()
    }

    /// Writes `text` to `rel`, creating parent folders.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("create parent");
        std::fs::write(&p, text).expect("write file");
        p
    }

    /// Writes an executable script to `rel`.
    pub fn script(&self, rel: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = self.write(rel, text);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        p
    }
}

/// A folder holding a git repository: `.git/HEAD`, and `.git/config` holding `config`.
pub fn git_repository(config: &str) -> TestDir {
    let repo = TestDir::new();
    repo.write(".git/HEAD", "ref: refs/heads/main\n");
    repo.write(".git/config", config);
    repo
}

/// Places parsed definitions as bindings of one source scoped to the project `root`: the
/// source is `file` (canonical) of `kind`, and its hooks run in `root`.
pub fn project_bindings(
    kind: hooks_schema::HookSourceKind,
    file: &Path,
    root: &Path,
    definitions: Vec<hooks_schema::HookDefinition>,
) -> Vec<hooks_schema::Binding> {
    let source = hooks_schema::HookSourceId::new(
        kind,
        hooks_registry::canonicalize(file).expect("canonical hook file"),
    );
    let root = hooks_registry::canonicalize(root).expect("canonical root");
    definitions
        .into_iter()
        .map(|d| hooks_schema::Binding {
            source: source.clone(),
            definition: std::sync::Arc::new(d),
            working_dir: root.clone(),
            project_root: Some(root.clone()),
        })
        .collect()
}

/// Fires `envelope` at `bindings` through a dispatcher with the default configuration and
/// context: what the formats' end-to-end tests of real hook processes share.
pub async fn fire_default(
    bindings: &[hooks_schema::Binding],
    envelope: &hooks_schema::Envelope,
) -> hooks_dispatch::FireReport {
    hooks_dispatch::Dispatcher::new(hooks_dispatch::DispatchConfig::default())
        .fire(bindings, envelope, &hooks_dispatch::FireContext::default())
        .await
}

/// A pre-tool-use envelope for a shell call (`run_shell_command`, call id `c1`) of `command`
/// in `cwd`.
pub fn shell_call(cwd: &Path, command: &str) -> hooks_schema::Envelope {
    let mut e = hooks_schema::Envelope::new(hooks_schema::HookEvent::PreToolUse);
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(hooks_schema::ToolCall {
        name: "run_shell_command".into(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args: serde_json::json!({ "command": command }),
    });
    e
}

/// A watcher over `registry` for a command-line run that auto-approves (so project files
/// run), with a 50 ms debounce window.
pub fn auto_approving_watcher(
    registry: &hooks_registry::RegistryHandle,
) -> hooks_watcher::HookConfigWatcher {
    use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
    let mut config =
        hooks_watcher::WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats())
            .with_debounce_window(std::time::Duration::from_millis(50));
    config.trust_inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    hooks_watcher::HookConfigWatcher::new(
        registry.clone(),
        std::sync::Arc::new(StaticTrustPolicy),
        config,
    )
    .expect("start the watcher")
}

/// One repository (`<dir>/repo`) under a real watcher that reads only `formats`, feeding a
/// registry, on a command-line run whose commands auto-approve: what the formats' watcher
/// tests share (write a file, wait until the registry runs what it says).
pub struct WatchedRepo {
    /// The temporary folder holding `repo/`.
    pub dir: TestDir,
    /// The repository's canonical root.
    pub root: hooks_schema::AbsPathBuf,
    registry: hooks_registry::RegistryHandle,
    _watcher: hooks_watcher::HookConfigWatcher,
    events: std::sync::mpsc::Receiver<hooks_watcher::WatcherEvent>,
}

impl WatchedRepo {
    /// How long [`WatchedRepo::wait_for`] and the attach wait at most.
    pub const LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

    /// Starts the watcher (50 ms debounce window) and waits until the repository is attached.
    pub fn start(formats: hooks_schema::FormatSet) -> WatchedRepo {
        use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
        let registry = hooks_registry::RegistryHandle::default();
        let mut config = hooks_watcher::WatcherConfig::new(Surface::CliRun, formats)
            .with_debounce_window(std::time::Duration::from_millis(50));
        config.trust_inputs =
            TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
        let watcher = hooks_watcher::HookConfigWatcher::new(
            registry.clone(),
            std::sync::Arc::new(StaticTrustPolicy),
            config,
        )
        .expect("start the watcher");
        let events = watcher.subscribe();
        let dir = TestDir::new();
        dir.write("repo/README", "");
        let root = hooks_registry::canonicalize(&dir.path().join("repo")).expect("canonical root");
        watcher
            .add_root(root.as_path())
            .wait_timeout(Self::LIMIT)
            .expect("in time")
            .expect("attached");
        WatchedRepo { dir, root, registry, _watcher: watcher, events }
    }

    /// Writes `text` to `rel` under the repository.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.dir.write(&format!("repo/{rel}"), text)
    }

    /// The commands bound at the repository's root, sorted.
    pub fn running(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .registry
            .snapshot()
            .bindings_for(self.root.as_path())
            .iter()
            .map(|b| match &b.definition.command {
                hooks_schema::HookCommand::Shell { script, .. } => script.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        v.sort();
        v
    }

    /// Waits (up to [`WatchedRepo::LIMIT`]) on the watcher's events until the commands bound
    /// at the root are `want` (sorted).
    pub fn wait_for(&self, want: &[&str]) {
        let deadline = std::time::Instant::now() + Self::LIMIT;
        while self.running() != want {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if let Err(e) = self.events.recv_timeout(left) {
                panic!("waiting for {want:?}: {e}; running {:?}", self.running());
            }
        }
    }
}

/// The process's peak resident set (`VmHWM`), in KiB.
pub fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status")
}

/// A copy of the first source of `kind` in `snapshot`.
pub fn source_of(
    snapshot: &hooks_registry::RegistrySnapshot,
    kind: hooks_schema::HookSourceKind,
) -> Option<hooks_registry::SourceView> {
    // `sources()` may hand out views behind shared handles: read through them.
    snapshot
        .sources()
        .iter()
        .find(|s| s.id.kind == kind)
        .map(|s| hooks_registry::SourceView::clone(s))
}

/// Waits (up to ten seconds) on the registry's `events` until `done` holds for `rt`.
pub fn wait_until(
    rt: &hooks_app::runtime::HookRuntime,
    events: &std::sync::mpsc::Receiver<hooks_registry::RegistryEvent>,
    done: impl Fn(&hooks_app::runtime::HookRuntime) -> bool,
) {
    use std::time::{Duration, Instant};
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done(rt) {
        let left = deadline.saturating_duration_since(Instant::now());
        events.recv_timeout(left).expect("a snapshot is published in time");
    }
}

/// Detects `root` as a repository the user navigated to in `rt` and waits (up to ten seconds)
/// for its watch to attach.
pub fn detect_root(rt: &mut hooks_app::runtime::HookRuntime, root: &Path) {
    use hooks_app::runtime::{RuntimeEffect, RuntimeEvent};
    let RuntimeEffect::RootAdded(attach) = rt
        .handle(RuntimeEvent::RepositoryDetected {
            root: root.to_path_buf(),
            origin: hooks_watcher::RootOrigin::TerminalNavigation,
        })
        .unwrap()
    else {
        panic!("the project root was not added")
    };
    let in_time = std::time::Duration::from_secs(10);
    attach.wait_timeout(in_time).expect("attached in time").expect("attached");
}
