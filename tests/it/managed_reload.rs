//! Managed hook files are hot-reloaded like user files: a `managed-settings.d/` fragment added
//! while the runtime runs takes effect at the next fire, and deleting it removes its hook
//! (before the pin; after it, the registry's pin rules apply as for user files).

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use hooks_app::runtime::{HookRuntime, RuntimeConfig};
use hooks_schema::Decision;
use hooks_sources::ManagedDirs;
use hooks_trust::Surface;

use crate::support::{TestDir, detect_root, shell_call, wait_until};

fn deny_fragment(script: &Path) -> String {
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("'{}'", script.display()), "timeout": 10}
    ]}]}})
    .to_string()
}

/// A runtime with the managed folders in `managed`, a project detected, and the managed
/// folders' watches attached.
fn runtime(managed: &TestDir, project: &TestDir) -> HookRuntime {
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.debounce_window = Duration::from_millis(50);
    config.managed_dirs = Some(
        ManagedDirs::new()
            .with(hooks_testing::ids::CURSOR, managed.path().join("cursor"))
            .with(hooks_testing::ids::CLAUDE, managed.path().join("claude-code")),
    );
    let mut rt = HookRuntime::new(config);
    detect_root(&mut rt, project.path());
    rt.take_managed_watch()
        .expect("managed folders watched with the first root")
        .wait_timeout(Duration::from_secs(10))
        .expect("in time")
        .expect("attached");
    rt
}

fn fragments(rt: &HookRuntime) -> Vec<PathBuf> {
    rt.snapshot()
        .sources()
        .iter()
        .filter(|s| s.id.kind == hooks_format_claude::MANAGED_SETTINGS)
        .map(|s| s.id.path.as_path().to_path_buf())
        .collect()
}

#[tokio::test]
async fn a_managed_fragment_added_then_deleted_applies_at_the_next_fire() {
    let (managed, project) = (TestDir::new(), TestDir::new());
    project.write("src/main.rs", "fn main() {}\n");
    managed.write("claude-code/managed-settings.json", "{}");
    let script = managed.script(
        "scripts/deny.sh",
        "#!/bin/sh\ncat > /dev/null\necho 'the administrator says no' >&2\nexit 2\n",
    );
    let rt = runtime(&managed, &project);
    let cwd = project.path().join("src");
    let before = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_ne!(before.verdict.decision, Some(Decision::Deny));
    assert_eq!(fragments(&rt).len(), 1, "the base file only");

    let events = rt.subscribe();
    // The fragment folder does not exist yet: it appears with the fragment.
    managed.write("claude-code/managed-settings.d/50-deny.json", &deny_fragment(&script));
    wait_until(&rt, &events, |rt| fragments(rt).len() == 2);
    let denied = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_eq!(denied.verdict.decision, Some(Decision::Deny), "{:?}", denied.runs);
    let view = rt.snapshot();
    let fragment = view
        .sources()
        .iter()
        .find(|s| s.id.path.as_path().ends_with("managed-settings.d/50-deny.json"))
        .map(|s| (s.trust.is_active(), s.runs))
        .expect("the fragment is a source");
    assert_eq!(fragment, (true, true), "managed trust: active and running");
    drop(view);

    std::fs::remove_file(managed.path().join("claude-code/managed-settings.d/50-deny.json"))
        .unwrap();
    wait_until(&rt, &events, |rt| fragments(rt).len() == 1);
    let after = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_ne!(after.verdict.decision, Some(Decision::Deny), "{:?}", after.runs);
    assert!(after.runs.is_empty(), "the fragment's hook is gone: {:?}", after.runs);
}

#[tokio::test]
async fn after_the_pin_managed_fragments_follow_the_pin_rules_of_user_files() {
    let (managed, project) = (TestDir::new(), TestDir::new());
    project.write("src/main.rs", "fn main() {}\n");
    let script = managed.script(
        "scripts/deny.sh",
        "#!/bin/sh\ncat > /dev/null\necho 'the administrator says no' >&2\nexit 2\n",
    );
    managed.write("claude-code/managed-settings.d/10-pinned.json", &deny_fragment(&script));
    let mut rt = runtime(&managed, &project);
    rt.pin_for_run().unwrap().expect("pinned");
    let cwd = project.path().join("src");
    let events = rt.subscribe();
    let generation = rt.snapshot().generation();

    // A fragment first seen after the pin is loaded and protected, but inert.
    managed.write("claude-code/managed-settings.d/20-late.json", &deny_fragment(&script));
    wait_until(&rt, &events, |rt| fragments(rt).len() == 2);
    let snapshot = rt.snapshot();
    let late = snapshot
        .sources()
        .iter()
        .find(|s| s.id.path.as_path().ends_with("20-late.json"))
        .expect("the late fragment is a source");
    assert!(!late.runs);
    assert!(late.diagnostics.iter().any(|d| d.code.as_deref() == Some("found_after_pin")));
    drop(snapshot);
    let report = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_eq!(report.runs.len(), 1, "only the pinned fragment runs: {:?}", report.runs);

    // A fragment known at the pin keeps its hook when it is deleted; the removal is reported.
    std::fs::remove_file(managed.path().join("claude-code/managed-settings.d/10-pinned.json"))
        .unwrap();
    wait_until(&rt, &events, |rt| {
        rt.snapshot().sources().iter().any(|s| {
            s.id.path.as_path().ends_with("10-pinned.json")
                && s.diagnostics.iter().any(|d| d.message.contains("removed after the run started"))
        })
    });
    assert!(rt.snapshot().generation() > generation);
    let report = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
}
