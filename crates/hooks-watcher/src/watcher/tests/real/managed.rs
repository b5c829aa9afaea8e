//! End-to-end tests of the managed files through the platform watcher, in a fake system
//! folder: a `managed-settings.d/` folder that appears with a fragment, a fragment edited in
//! place, and the folder deleted. Each step waits on the watcher's `ManagedReloaded` event.

use std::sync::mpsc::Receiver;

use hooks_schema::HookSourceId;
use hooks_sources::ManagedDirs;

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

/// Waits for the next reload of the managed files, returning its sources.
fn wait_managed_reload(rx: &Receiver<WatcherEvent>) -> Vec<HookSourceId> {
    wait_for(rx, |e| match e {
        WatcherEvent::Reloaded { place: WatchedPlace::Managed, sources, .. } => {
            Some(sources.clone())
        }
        _ => None,
    })
    .0
}

/// Waits for managed reloads until one whose sources satisfy `done`.
fn wait_managed_until(rx: &Receiver<WatcherEvent>, done: impl Fn(&[HookSourceId]) -> bool) {
    while !done(&wait_managed_reload(rx)) {}
}

#[test]
fn managed_fragments_are_watched_through_inotify() {
    let s = setup();
    let etc = s.root("etc");
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    let dirs = ManagedDirs::new()
        .with(hooks_testing::ids::CURSOR, etc.as_path().join("cursor"))
        .with(hooks_testing::ids::CLAUDE, etc.as_path().join("claude-code"));
    let future = s.watcher.watch_managed_dirs(dirs, false);
    assert_eq!(s.watcher.loads(&WatchedPlace::Managed), Some(1), "loaded on the caller's thread");
    future.wait_timeout(Duration::from_secs(10)).expect("within 10 s").expect("attached");
    let events = s.watcher.subscribe();
    let fragment = id(
        hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
        &etc,
        "claude-code/managed-settings.d/10-a.json",
    );

    // The fragment folder appears with a fragment in it.
    write(etc.as_path(), "claude-code/managed-settings.d/10-a.json", &claude_file("./one.sh"));
    wait_managed_until(&events, |sources| sources.contains(&fragment));
    assert_eq!(text(commands(&s.registry, &fragment)), ["./one.sh"]);

    // Edited in place: reloaded with the new content.
    write(etc.as_path(), "claude-code/managed-settings.d/10-a.json", &claude_file("./two.sh"));
    wait_managed_until(&events, |_| text(commands(&s.registry, &fragment)) == ["./two.sh"]);

    // The whole folder removed: the fragment is withdrawn, the base file stays.
    fs::remove_dir_all(etc.as_path().join("claude-code/managed-settings.d")).expect("rm");
    wait_managed_until(&events, |sources| !sources.contains(&fragment));
    assert_eq!(commands(&s.registry, &fragment), None);
    let base = id(
        hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
        &etc,
        "claude-code/managed-settings.json",
    );
    assert_eq!(text(commands(&s.registry, &base)), ["./base.sh"]);

    // And recreated: a new directory, watched again.
    write(etc.as_path(), "claude-code/managed-settings.d/10-a.json", &claude_file("./three.sh"));
    wait_managed_until(&events, |sources| sources.contains(&fragment));
    assert_eq!(text(commands(&s.registry, &fragment)), ["./three.sh"]);
    assert!(s.watcher.diagnostics(&WatchedPlace::Managed).is_empty());
}

/// A `chmod` of a managed file reaches the watcher through inotify (`IN_ATTRIB`) and reloads
/// the managed files: whether such a file is read can depend on its mode (Gemini CLI's system
/// files, `Ownership::Administrator`).
#[test]
fn a_chmod_of_a_managed_file_reloads_it_through_inotify() {
    let s = setup();
    let etc = s.root("etc");
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    let dirs =
        ManagedDirs::new().with(hooks_testing::ids::CLAUDE, etc.as_path().join("claude-code"));
    let future = s.watcher.watch_managed_dirs(dirs, false);
    future.wait_timeout(Duration::from_secs(10)).expect("within 10 s").expect("attached");
    let events = s.watcher.subscribe();
    let file = etc.as_path().join("claude-code/managed-settings.json");
    fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).expect("chmod");
    let base = id(
        hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
        &etc,
        "claude-code/managed-settings.json",
    );
    assert_eq!(wait_managed_reload(&events), [base]);
    assert_eq!(s.watcher.loads(&WatchedPlace::Managed), Some(2));
}
