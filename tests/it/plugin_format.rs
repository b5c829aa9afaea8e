//! The plug-in boundary, proven: a format defined outside every crate of the workspace (in
//! an example's file, included here) is registered with a runtime and its files are discovered, watched, trusted,
//! guarded and fired without any change to the engine's core.
//!
//! The "Acme" format is the one the `own_format` example of `hooks-schema` defines
//! (`crates/hooks-schema/examples/own_format/acme.rs`, included here by path: one definition).

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId};
use hooks_schema::{Decision, FormatSet, HookCommand, HookSourceKind};
use hooks_sources::UserDirs;
use hooks_trust::{CommandExecutionPosture, Surface};

use crate::support::{TestDir, detect_root, shell_call, wait_until};

#[path = "../../crates/hooks-schema/examples/own_format/acme.rs"]
mod acme;

use acme::{Acme, PROJECT_ACME, USER_ACME};

/// A runtime that reads only the Acme format, for a command-line run whose commands
/// auto-approve, with the user's folders under `home`.
fn runtime(home: &Path) -> HookRuntime {
    let formats = FormatSet::new(vec![Arc::new(Acme)]);
    let mut config = RuntimeConfig::with_formats(Surface::CliRun, formats.clone());
    config.user_dirs = Some(UserDirs::under_home(&formats, home));
    config.debounce_window = Duration::from_millis(50);
    let mut rt = HookRuntime::new(config);
    rt.handle(RuntimeEvent::WindowPosture {
        window: WindowId(1),
        posture: CommandExecutionPosture::AutoApproves,
    })
    .expect("posture");
    rt
}

fn deny_if(word: &str, reason: &str) -> String {
    let rule = format!("grep -q {word} && {{ echo '{reason}' >&2; exit 2; }}; exit 0");
    serde_json::json!({ "hooks": [{ "on": "before_tool", "run": rule }, { "on": "on_lint", "run": "true" }] })
        .to_string()
}

fn runs(rt: &HookRuntime, kind: HookSourceKind) -> Option<bool> {
    rt.snapshot().sources().iter().find(|s| s.id.kind == kind).map(|s| s.runs)
}

#[tokio::test]
async fn a_format_defined_in_a_test_is_discovered_watched_trusted_guarded_and_fired() {
    let home = TestDir::new();
    let repo = TestDir::new();
    let hooks_file = repo.write(".acme/hooks.json", &deny_if("rm", "acme says no"));
    let user_file = home.write(".acme/hooks.json", &deny_if("shutdown", "not today"));
    // A second project without an Acme file yet.
    let other = TestDir::new();
    let mut rt = runtime(home.path());

    // Discovered: the user's file at start, the project's when its root is detected.
    assert_eq!(runs(&rt, USER_ACME), Some(true), "the user's own file runs everywhere");
    detect_root(&mut rt, repo.path());
    detect_root(&mut rt, other.path());
    let project = rt.snapshot().sources().iter().find(|s| s.id.kind == PROJECT_ACME).cloned();
    let project = project.expect("the project's Acme file is a source");
    assert_eq!(project.id.kind.name(), "project_acme_file");
    assert_eq!(project.definitions.len(), 1, "{:?}", project.diagnostics);
    assert!(project.diagnostics.iter().any(|d| d.message.contains("on_lint")), "the gap is said");

    // Trusted: inert until the run starts, active once it is pinned with an auto-approving
    // posture (the static table, by owner: nothing about Acme).
    assert_eq!(runs(&rt, PROJECT_ACME), Some(false));
    rt.pin_for_run().expect("pinned");
    assert_eq!(runs(&rt, PROJECT_ACME), Some(true));

    // Fired: the project's and the user's hooks run, in precedence order, through the codec.
    let cwd = hooks_registry::canonicalize(repo.path()).expect("canonical").into_path_buf();
    let report = rt.fire(&shell_call(&cwd, "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("acme says no"));
    let report = rt.fire(&shell_call(&cwd, "sudo shutdown now")).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("not today"));
    let report = rt.fire(&shell_call(&cwd, "ls")).await;
    assert_eq!(report.verdict.decision, None, "{report:?}");

    // Guarded: the hook files, existing or not, are protected from agent edits.
    assert!(!rt.can_write_files(std::slice::from_ref(&hooks_file), repo.path()).is_allowed());
    assert!(!rt.can_write_files(&[user_file], repo.path()).is_allowed());
    let not_yet = other.path().join(".acme/hooks.json");
    assert!(!not_yet.exists());
    assert!(
        !rt.can_write_files(&[not_yet], other.path()).is_allowed(),
        "a file of the format that does not exist yet would be loaded: it is protected too"
    );
    assert!(rt.can_write_files(&[repo.path().join("README.md")], repo.path()).is_allowed());
    rt.drain(Duration::from_secs(5)).await;
}

#[test]
fn a_format_defined_in_a_test_is_reloaded_when_its_file_changes() {
    let home = TestDir::new();
    let repo = TestDir::new();
    repo.write(".acme/hooks.json", &deny_if("rm", "first"));
    let mut rt = runtime(home.path());
    let events = rt.subscribe();
    detect_root(&mut rt, repo.path());
    let commands = |rt: &HookRuntime| -> Vec<String> {
        let snap = rt.snapshot();
        let Some(s) = snap.sources().iter().find(|s| s.id.kind == PROJECT_ACME).cloned() else {
            return Vec::new();
        };
        s.definitions
            .iter()
            .map(|d| match &d.command {
                HookCommand::Shell { script, .. } => script.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert!(commands(&rt)[0].contains("first"));
    // Watched: an edit is picked up by the watcher (the folder came from the descriptor).
    repo.write(".acme/hooks.json", &deny_if("rm", "second"));
    wait_until(&rt, &events, |rt| commands(rt).first().is_some_and(|c| c.contains("second")));
    // A file the format names appears in a project that had none.
    let later = TestDir::new();
    detect_root(&mut rt, later.path());
    let path: PathBuf = later.write(".acme/hooks.json", &deny_if("rm", "third"));
    let canonical = hooks_registry::canonicalize(&path).expect("canonical");
    wait_until(&rt, &events, |rt| {
        rt.snapshot().sources().iter().any(|s| s.id.kind == PROJECT_ACME && s.id.path == canonical)
    });
}
