//! Shared helpers: project files in a temporary directory, and registry lookups.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::mpsc::Receiver,
    time::{Duration, Instant},
};

use hooks_registry::{LoadStateKind, RegistryHandle, canonicalize};
use hooks_schema::{AbsPathBuf, HookCommand, HookSourceId, HookSourceKind};

use crate::{WatchedPlace, WatcherEvent};

/// A Cursor hook file with one `beforeShellExecution` hook per command.
pub(crate) fn cursor_file(commands: &[&str]) -> String {
    let entries: Vec<String> =
        commands.iter().map(|c| format!("{{ \"command\": \"{c}\" }}")).collect();
    format!(
        "{{ \"version\": 1, \"hooks\": {{ \"beforeShellExecution\": [{}] }} }}",
        entries.join(", ")
    )
}

/// Writes `text` to `root/rel`, creating folders.
pub(crate) fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create folders");
    }
    fs::write(&path, text).expect("write file");
}

/// A fresh directory `name` under `base`, canonical.
pub(crate) fn make_root(base: &Path, name: &str) -> AbsPathBuf {
    let path = base.join(name);
    fs::create_dir_all(&path).expect("create root");
    canonicalize(&path).expect("canonical root")
}

/// The id the watcher gives `root/rel` loaded as `kind`.
pub(crate) fn id(kind: HookSourceKind, root: &AbsPathBuf, rel: &str) -> HookSourceId {
    HookSourceId::new(kind, root.join(Path::new(rel)).expect("absolute"))
}

pub(crate) fn cursor_id(root: &AbsPathBuf) -> HookSourceId {
    id(hooks_testing::kinds::PROJECT_CURSOR_FILE, root, ".cursor/hooks.json")
}

/// The commands of a source's definitions in effect, or `None` when the registry does not
/// know it.
pub(crate) fn commands(registry: &RegistryHandle, id: &HookSourceId) -> Option<Vec<String>> {
    let snapshot = registry.snapshot();
    let view = snapshot.source(id)?;
    Some(view.definitions.iter().map(|d| command_text(d)).collect())
}

pub(crate) fn load_state(registry: &RegistryHandle, id: &HookSourceId) -> Option<LoadStateKind> {
    registry.snapshot().source(id).map(|v| v.load_state)
}

/// The commands of the bindings that run in `cwd`.
pub(crate) fn running_in(registry: &RegistryHandle, cwd: &Path) -> Vec<String> {
    registry.snapshot().bindings_for(cwd).iter().map(|b| command_text(&b.definition)).collect()
}

fn command_text(d: &hooks_schema::HookDefinition) -> String {
    match &d.command {
        HookCommand::Shell { script, .. } => script.clone(),
        HookCommand::Exec { program, .. } => program.clone(),
        HookCommand::Script { path, .. } => path.display().to_string(),
        HookCommand::Http(h) => h.url.clone(),
    }
}

/// Waits (up to ten seconds) for the first event `pick` accepts, returning it and the events
/// received before it.
pub(crate) fn wait_for<T>(
    rx: &Receiver<WatcherEvent>,
    mut pick: impl FnMut(&WatcherEvent) -> Option<T>,
) -> (T, Vec<WatcherEvent>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut before = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = rx.recv_timeout(left).unwrap_or_else(|_| {
            panic!("no matching watcher event within 10 s; received {before:#?}")
        });
        if let Some(found) = pick(&event) {
            return (found, before);
        }
        before.push(event);
    }
}

/// Waits for the next reload of `root`, returning its sources and the events before it.
pub(crate) fn wait_reload(
    rx: &Receiver<WatcherEvent>,
    root: &AbsPathBuf,
) -> (Vec<HookSourceId>, Vec<WatcherEvent>) {
    wait_for(rx, |e| match e {
        WatcherEvent::Reloaded { place: WatchedPlace::Root(r), sources, .. } if r == root => {
            Some(sources.clone())
        }
        _ => None,
    })
}

/// How many reloads of `root` are among `events`.
pub(crate) fn reloads_of(events: &[WatcherEvent], root: &AbsPathBuf) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, WatcherEvent::Reloaded { place: WatchedPlace::Root(r), .. } if r == root))
        .count()
}

pub(crate) fn paths(dirs: &[PathBuf], root: &AbsPathBuf) -> Vec<String> {
    dirs.iter()
        .map(|d| {
            let rel = d.strip_prefix(root.as_path()).expect("under root").display().to_string();
            if rel.is_empty() { ".".to_owned() } else { rel }
        })
        .collect()
}
