//! The runtime through the seed's scenarios: posture through windows, pinning on the first
//! exchange, detected roots, the watch matrix, the daemon, the feature switch, denies under
//! auto-approval, and the guard before auto-approved edits.

use std::{path::PathBuf, time::Duration};

use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEffect, RuntimeEvent, WindowId};
use hooks_guard::{EditApproval, EditContext};
use hooks_registry::LoadStateKind;
use hooks_schema::ExplicitScope;
use hooks_schema::{Decision, Envelope, HookEvent};
use hooks_sources::ExplicitHookSource;
use hooks_trust::{CommandExecutionPosture as Posture, Surface};
use hooks_watcher::RootOrigin;
use serde_json::json;

use crate::support::{TestDir, shell_call, source_of, wait_until};

const DENY_RM: &str = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny-rm.sh", "timeout": 5}]}}"#;
const DENY_RM_SH: &str = r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo '{"permission":"deny","user_message":"no rm -rf here"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
"#;

/// A project with a Cursor hook denying `rm -rf`.
fn project() -> TestDir {
    let dir = TestDir::new();
    dir.write(".cursor/hooks.json", DENY_RM);
    dir.script(".cursor/deny-rm.sh", DENY_RM_SH);
    dir.write("src/main.rs", "fn main() {}\n");
    dir
}

fn runtime(surface: Surface) -> HookRuntime {
    HookRuntime::new(RuntimeConfig::new(surface))
}

fn add_root(rt: &mut HookRuntime, dir: &TestDir, origin: RootOrigin) -> RuntimeEffect {
    rt.handle(RuntimeEvent::RepositoryDetected { root: dir.path().to_path_buf(), origin }).unwrap()
}

fn window(rt: &mut HookRuntime, id: u64, posture: Posture) {
    rt.handle(RuntimeEvent::WindowPosture { window: WindowId(id), posture }).unwrap();
}

fn cursor_source(rt: &HookRuntime) -> hooks_registry::SourceView {
    source_of(&rt.snapshot(), hooks_format_cursor::PROJECT_FILE)
        .expect("the project file is a source")
}

#[test]
fn the_posture_is_read_through_open_windows_and_is_unknown_without_one() {
    let mut rt = runtime(Surface::CliRun);
    assert_eq!(rt.command_execution_posture(), Posture::Unknown);
    window(&mut rt, 1, Posture::AutoApproves);
    assert_eq!(rt.command_execution_posture(), Posture::AutoApproves);
    window(&mut rt, 2, Posture::RequiresApproval);
    assert_eq!(rt.command_execution_posture(), Posture::RequiresApproval, "the strictest wins");
    rt.handle(RuntimeEvent::WindowClosed { window: WindowId(2) }).unwrap();
    assert_eq!(rt.command_execution_posture(), Posture::AutoApproves);
}

#[tokio::test]
async fn the_first_appended_exchange_pins_once_and_records_the_posture() {
    let dir = project();
    let mut rt = runtime(Surface::CliRun);
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    assert!(rt.snapshot().pinned().is_none());
    let (pin, _) =
        rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pins");
    assert_eq!(pin.posture, Posture::AutoApproves);
    assert_eq!(rt.pinned_revision(), Some(pin.revision));
    // a later posture change and a second exchange change nothing
    window(&mut rt, 1, Posture::RequiresApproval);
    assert!(rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().is_none());
    assert_eq!(rt.pin_for_run().unwrap().map(|p| p.posture), Some(Posture::AutoApproves));
    assert!(cursor_source(&rt).runs, "active on a CLI run that auto-approves");
}

#[tokio::test]
async fn a_detected_root_feeds_its_file_to_the_registry_inert_on_the_desktop_with_the_file_protected()
 {
    let dir = project();
    let mut rt = runtime(Surface::Desktop);
    window(&mut rt, 1, Posture::AutoApproves);
    let effect = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    assert!(matches!(effect, RuntimeEffect::RootAdded(_)), "{effect:?}");
    rt.pin_for_run().unwrap();
    let src = cursor_source(&rt);
    assert_eq!(src.load_state, LoadStateKind::Loaded);
    assert!(!src.runs, "project files are inert on interactive surfaces");
    assert!(!src.trust.is_active(), "{:?}", src.trust);
    let hooks_json = dir.path().join(".cursor/hooks.json");
    assert!(
        !rt.can_write_files(&[hooks_json], dir.path()).is_allowed(),
        "the inert file is protected"
    );
    let report = rt.fire(&shell_call(dir.path(), "rm -rf /")).await;
    assert!(report.runs.is_empty(), "nothing inert runs");
    assert_eq!(report.verdict.decision, None);
}

#[test]
fn roots_the_surface_does_not_watch_load_nothing() {
    let dir = project();
    for (surface, origin) in [
        (Surface::CliRun, RootOrigin::ProjectRulesIndexing),
        (Surface::OzRun, RootOrigin::CodeReview),
        (Surface::Desktop, RootOrigin::CloudPrepared),
    ] {
        let mut rt = runtime(surface);
        let effect = add_root(&mut rt, &dir, origin);
        assert!(matches!(effect, RuntimeEffect::Ignored(_)), "{surface:?} {origin:?}: {effect:?}");
        assert!(rt.watcher().is_none(), "no watcher starts");
        assert!(rt.snapshot().sources().is_empty());
    }
}

#[tokio::test]
async fn the_remote_server_daemon_neither_watches_nor_pins() {
    let dir = project();
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.remote_server_daemon = true;
    let mut rt = HookRuntime::new(config);
    window(&mut rt, 1, Posture::AutoApproves);
    assert!(matches!(
        add_root(&mut rt, &dir, RootOrigin::TerminalNavigation),
        RuntimeEffect::Ignored(_)
    ));
    assert!(rt.watcher().is_none());
    assert!(rt.pin_for_run().unwrap().is_none());
    assert!(rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().is_none());
    assert!(rt.snapshot().pinned().is_none());
    assert!(rt.snapshot().sources().is_empty());
}

#[tokio::test]
async fn with_the_switch_off_nothing_is_watched_pinned_protected_or_fired() {
    let dir = project();
    let explicit = TestDir::new();
    explicit.write("hooks.json", DENY_RM);
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.enabled = false;
    config.explicit_sources = vec![ExplicitHookSource::new(
        ExplicitScope::RunDelivered,
        explicit.path().join("hooks.json"),
        hooks_format_cursor::FORMAT,
    )];
    let mut rt = HookRuntime::new(config);
    window(&mut rt, 1, Posture::AutoApproves);
    assert!(matches!(
        add_root(&mut rt, &dir, RootOrigin::TerminalNavigation),
        RuntimeEffect::Ignored(_)
    ));
    assert!(rt.load_explicit_sources().is_empty());
    assert!(rt.pin_for_run().unwrap().is_none());
    assert!(rt.watcher().is_none());
    assert!(rt.snapshot().sources().is_empty());
    let hooks_json = dir.path().join(".cursor/hooks.json");
    assert!(rt.can_write_files(&[hooks_json], dir.path()).is_allowed());
    let report = rt.fire(&shell_call(dir.path(), "rm -rf /")).await;
    assert!(report.runs.is_empty());
}

#[tokio::test]
async fn a_hooks_deny_holds_even_when_the_host_auto_approves_every_action() {
    let dir = project();
    let mut rt = runtime(Surface::CliRun);
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    rt.pin_for_run().unwrap();
    let handle = rt.fire_handle();
    let report = handle.fire(&shell_call(dir.path(), "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(handle.decide(Decision::Allow, &report), Decision::Deny);
    assert_eq!(
        report.verdict.decided_by.as_ref().map(|p| p.hook_id.as_str()),
        Some("beforeShellExecution[0]")
    );
    let ok = handle.fire(&shell_call(dir.path(), "ls")).await;
    assert_eq!(handle.decide(Decision::Allow, &ok), Decision::Allow);
    // a hook allow never relaxes the host's ask
    assert_eq!(handle.decide(Decision::Ask, &ok), Decision::Ask);
}

/// Names the project it was told about, as a deny reason.
const SAY_PROJECT_DIR: &str =
    "#!/bin/sh\ncat > /dev/null\nprintf '%s' \"$CLAUDE_PROJECT_DIR\" >&2\nexit 2\n";

#[cfg(unix)]
#[tokio::test]
async fn a_working_directory_reached_through_a_symlink_tells_every_hook_its_project_root() {
    let project = TestDir::new();
    project.write("src/main.rs", "fn main() {}\n");
    let elsewhere = TestDir::new();
    let link = elsewhere.path().join("src-link");
    std::os::unix::fs::symlink(project.path().join("src"), &link).unwrap();
    // A hook from outside the project (delivered with the run) asks where the project is.
    let script = elsewhere.script("hooks/say-project.sh", SAY_PROJECT_DIR);
    let settings = elsewhere.write(
        "hooks/settings.json",
        &json!({ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [
            { "type": "command", "command": script.display().to_string() } ] } ] } })
        .to_string(),
    );
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.explicit_sources = vec![ExplicitHookSource::new(
        ExplicitScope::RunDelivered,
        &settings,
        hooks_format_claude::FORMAT,
    )];
    let mut rt = HookRuntime::new(config);
    assert!(rt.load_explicit_sources().is_empty());
    let _ = add_root(&mut rt, &project, RootOrigin::TerminalNavigation);
    rt.pin_for_run().unwrap();

    let mut envelope = shell_call(&link, "ls");
    if let Some(tool) = envelope.tool.as_mut() {
        tool.name = "Bash".into();
    }
    let report = rt.fire_handle().fire(&envelope).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:#?}", report.runs);
    let root = hooks_registry::canonicalize(project.path()).unwrap();
    assert_eq!(report.verdict.reason.as_deref(), root.as_path().to_str());
}

#[test]
fn a_hook_file_edit_relative_to_the_session_cwd_waits_for_confirmation_in_every_mode() {
    let dir = project();
    let mut rt = runtime(Surface::CliRun);
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    rt.pin_for_run().unwrap();
    let handle = rt.fire_handle();
    let contexts = [
        EditContext {
            sandboxed: false,
            auto_approve_writes: true,
            conversation_auto_approves_all: false,
        },
        EditContext {
            sandboxed: true,
            auto_approve_writes: true,
            conversation_auto_approves_all: false,
        },
        EditContext {
            sandboxed: false,
            auto_approve_writes: false,
            conversation_auto_approves_all: true,
        },
        EditContext {
            sandboxed: true,
            auto_approve_writes: false,
            conversation_auto_approves_all: true,
        },
    ];
    for ctx in contexts {
        for protected in [".cursor/hooks.json", "./.cursor/deny-rm.sh", "src/../.cursor/hooks.json"]
        {
            let got = handle.approve_edit(&[PathBuf::from(protected)], dir.path(), ctx);
            assert!(matches!(got, EditApproval::Guarded(_)), "{protected} in {ctx:?}: {got:?}");
        }
        let beside = handle.approve_edit(&[PathBuf::from("src/main.rs")], dir.path(), ctx);
        assert_eq!(beside, EditApproval::AutoApply, "a file beside them goes through in {ctx:?}");
    }
}

#[tokio::test]
async fn session_start_fires_at_the_barrier_right_after_the_pin() {
    let dir = TestDir::new();
    let marker = dir.path().join("started.txt");
    dir.write(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"sessionStart": [{"command": "./.cursor/start.sh", "timeout": 5}]}}"#,
    );
    dir.script(
        ".cursor/start.sh",
        "#!/bin/sh\ncat >/dev/null\necho started > started.txt\necho '{}'\n",
    );
    let mut rt = runtime(Surface::CliRun);
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    let mut env = Envelope::new(HookEvent::SessionStart);
    env.cwd = Some(dir.path().to_path_buf());
    let (_, report) = rt.exchange_appended(env).await.unwrap().expect("first exchange");
    assert_eq!(report.runs.len(), 1, "{:?}", report.runs);
    assert!(marker.exists(), "the project's session start hook ran for the first conversation");
}

#[test]
fn a_run_that_fails_closed_refuses_to_start_when_explicit_sources_fail() {
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.fail_closed_on_source_errors = true;
    config.explicit_sources = vec![ExplicitHookSource::new(
        ExplicitScope::RunDelivered,
        "/nonexistent/agent-hooks/hooks.json",
        hooks_format_cursor::FORMAT,
    )];
    let mut rt = HookRuntime::new(config);
    let errors = rt.load_explicit_sources();
    assert!(!errors.is_empty());
    assert!(rt.pin_for_run().is_err());
    assert!(rt.snapshot().pinned().is_none());
}

#[tokio::test]
async fn a_root_added_before_the_pin_waits_for_its_watch_and_reloads_on_change() {
    let dir = project();
    let mut rt = runtime(Surface::CliRun);
    window(&mut rt, 1, Posture::AutoApproves);
    let RuntimeEffect::RootAdded(attach) = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation)
    else {
        panic!("root not added")
    };
    attach.wait_timeout(Duration::from_secs(10)).expect("attached in time").expect("attached");
    let events = rt.subscribe();
    dir.write(".cursor/hooks.json", r#"{"version": 1, "hooks": {"stop": [{"command": "true"}]}}"#);
    wait_until(&rt, &events, |rt| {
        cursor_source(rt).definitions.iter().any(|d| d.event == HookEvent::Stop)
    });
}

#[tokio::test]
async fn a_durable_job_left_pending_by_a_dead_process_is_retried_at_the_next_run_start() {
    let home = TestDir::new();
    let state = TestDir::new();
    let marker = home.path().join("delivered.txt");
    let gate = home.path().join("hold");
    let script = format!(
        "if [ -e '{}' ]; then sleep 30; fi; echo delivered >> '{}'",
        gate.display(),
        marker.display()
    );
    home.write(
        ".chrys/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: audit\n    event: after_turn\n    run: {{ type: shell, shell: \"{script}\" }}\n    execution: {{ mode: async, delivery: durable, timeout_seconds: 60 }}\n"
        ),
    );
    let config = || {
        let mut c = RuntimeConfig::new(Surface::CliRun);
        c.user_dirs = Some(hooks_sources::UserDirs::under_home(
            &hooks_testing::workspace_formats(),
            home.path(),
        ));
        c.dispatch.runtime_dir = Some(state.path().to_path_buf());
        c.dispatch.outbox_retry_age = Duration::ZERO;
        c
    };
    // First process: the job is written and started, and the process dies before it ends.
    std::fs::write(&gate, "").unwrap();
    {
        let mut rt = HookRuntime::new(config());
        rt.exchange_appended(Envelope::new(HookEvent::SessionStart))
            .await
            .unwrap()
            .expect("pinned");
        let report = rt.fire(&Envelope::new(HookEvent::TurnEnd)).await;
        assert_eq!(report.runs.len(), 1, "{:?}", report.runs);
        let pending = state.path().join("outbox/pending");
        assert_eq!(
            std::fs::read_dir(&pending).unwrap().count(),
            1,
            "the job is recorded before it runs"
        );
        // Dropped without draining, as when the process dies: the hook is killed (it must
        // not start late on this test's async runtime) and its job stays pending.
    }
    assert!(!marker.exists());
    // Next process: the run start retries the job once and it lands in done/.
    std::fs::remove_file(&gate).unwrap();
    let mut rt = HookRuntime::new(config());
    rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pinned");
    let drained = rt.drain(Duration::from_secs(10)).await;
    assert_eq!(drained.finished.len(), 1, "{drained:?}");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "delivered\n");
    assert_eq!(std::fs::read_dir(state.path().join("outbox/done")).unwrap().count(), 1);
    assert_eq!(std::fs::read_dir(state.path().join("outbox/pending")).unwrap().count(), 0);
}

/// Chrys's stale project-source rejection: a durable job recorded for a project file that
/// was deleted before the next run is moved to `failed/` with the reason, and another
/// project's hook with the same id and event never runs with the first project's envelope.
#[tokio::test]
async fn a_pending_job_of_a_deleted_project_file_never_runs_another_projects_same_id_hook() {
    let (repo_a, repo_b, state) = (TestDir::new(), TestDir::new(), TestDir::new());
    let gate = state.path().join("hold");
    let ran_b = state.path().join("b-ran.txt");
    let audit = |script: &str| {
        format!(
            "hooks:\n  - id: audit\n    event: after_turn\n    run: {{ type: shell, shell: \"{script}\" }}\n    execution: {{ mode: async, delivery: durable, timeout_seconds: 60 }}\n"
        )
    };
    let a_file = repo_a.write(
        ".chrys/hooks/hooks.yaml",
        &audit(&format!("if [ -e '{}' ]; then sleep 30; fi", gate.display())),
    );
    repo_b.write(".chrys/hooks/hooks.yaml", &audit(&format!("echo ran >> '{}'", ran_b.display())));
    let config = || {
        let mut c = RuntimeConfig::new(Surface::CliRun);
        c.user_enables_project_hooks = true;
        c.dispatch.runtime_dir = Some(state.path().to_path_buf());
        c.dispatch.outbox_retry_age = Duration::ZERO;
        c
    };
    let turn_end_in = |root: &TestDir| {
        let mut env = Envelope::new(HookEvent::TurnEnd);
        env.cwd = Some(root.path().to_path_buf());
        env
    };
    // First process, in repo A: the job is recorded and started; the process dies first.
    std::fs::write(&gate, "").unwrap();
    {
        let mut rt = HookRuntime::new(config());
        window(&mut rt, 1, Posture::AutoApproves);
        let _ = add_root(&mut rt, &repo_a, RootOrigin::TerminalNavigation);
        rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pin");
        let report = rt.fire(&turn_end_in(&repo_a)).await;
        assert_eq!(report.runs.len(), 1, "{:?}", report.runs);
    }
    let pending = state.path().join("outbox/pending");
    assert_eq!(std::fs::read_dir(&pending).unwrap().count(), 1, "the job is pending");
    // Repo A's hook file is deleted; the next process works in repo B, whose file defines a
    // hook with the same id and event.
    std::fs::remove_file(&a_file).unwrap();
    std::fs::remove_file(&gate).unwrap();
    let mut rt = HookRuntime::new(config());
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &repo_b, RootOrigin::TerminalNavigation);
    rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pin");
    assert!(
        source_of(&rt.snapshot(), hooks_format_chrys::PROJECT_FILE).is_some_and(|s| s.runs),
        "repo B's file runs"
    );
    let drained = rt.drain(Duration::from_secs(10)).await;
    assert!(drained.finished.is_empty(), "nothing was retried: {drained:?}");
    assert!(!ran_b.exists(), "repo B's hook ran for repo A's job");
    assert_eq!(std::fs::read_dir(&pending).unwrap().count(), 0);
    let failed: Vec<_> = std::fs::read_dir(state.path().join("outbox/failed"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(failed.len(), 1);
    let job: serde_json::Value = serde_json::from_str(&failed[0]).unwrap();
    let error = job["error"].as_str().unwrap();
    assert!(error.contains("hook `audit` of ") && error.contains("no longer exists"), "{error}");
    let a_file = repo_a.path().canonicalize().unwrap().join(".chrys/hooks/hooks.yaml");
    assert!(error.contains(&a_file.display().to_string()), "{error}");
    // A hook of repo B's own still runs when repo B fires.
    let report = rt.fire(&turn_end_in(&repo_b)).await;
    assert_eq!(report.runs.len(), 1);
    assert_eq!(rt.drain(Duration::from_secs(10)).await.finished.len(), 1);
    assert_eq!(std::fs::read_to_string(&ran_b).unwrap(), "ran\n");
}

const CHRYS_NOTIFY: &str =
    "hooks:\n  - id: notify\n    event: after_turn\n    run: {type: shell, shell: 'true'}\n";

/// Chrys's opt-in and the surface × posture table combine as the strictest of both: a
/// repository's Chrys file runs only where the table trusts project files *and* the user's
/// own settings enable project hooks (`project.hooks_enabled`), on every surface, whatever
/// the posture; a Cursor file beside it follows the table alone. Where the opt-in alone keeps
/// the Chrys file off, the runtime reports it dormant.
#[tokio::test]
async fn a_project_chrys_file_runs_only_where_the_table_and_the_users_opt_in_both_allow_it() {
    let dir = project();
    dir.write(
        ".chrys/hooks/hooks.yaml",
        "hooks:\n  - id: chrys-audit\n    event: before_tool_call\n    run: {type: shell, shell: 'true'}\n    execution: {mode: blocking}\n",
    );
    let chrys_file = dir.path().canonicalize().unwrap().join(".chrys/hooks/hooks.yaml");
    // The rule, written out: the table trusts project files on interactive surfaces under the
    // opt-in, and on headless runs whose commands auto-approve; a local child never.
    let table = |surface: Surface, posture: Posture, opt_in: bool| match surface {
        Surface::Desktop | Surface::Tui | Surface::Ide | Surface::Web => opt_in,
        Surface::OzRun | Surface::CliRun => posture == Posture::AutoApproves,
        Surface::LocalChild => false,
    };
    let mut cells = 0;
    for surface in Surface::ALL {
        for posture in [Posture::AutoApproves, Posture::RequiresApproval, Posture::Unknown] {
            for opt_in in [false, true] {
                let mut config = RuntimeConfig::new(surface);
                config.user_enables_project_hooks = opt_in;
                let mut rt = HookRuntime::new(config);
                if posture != Posture::Unknown {
                    window(&mut rt, 1, posture);
                }
                let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
                rt.pin_for_run().unwrap();
                let plan = rt.fire_handle().plan(&shell_call(dir.path(), "ls"));
                let ids: Vec<&str> =
                    plan.bindings().iter().map(|b| b.definition.id.as_str()).collect();
                let cell = format!("{surface:?} {posture:?} opt-in {opt_in}");
                let chrys_runs = table(surface, posture, opt_in) && opt_in;
                assert_eq!(ids.contains(&"chrys-audit"), chrys_runs, "chrys: {cell}: {ids:?}");
                let cursor_runs = table(surface, posture, opt_in);
                assert_eq!(
                    plan.bindings()
                        .iter()
                        .any(|b| b.source.kind == hooks_format_cursor::PROJECT_FILE),
                    cursor_runs,
                    "cursor: {cell}: {ids:?}"
                );
                // Dormant exactly where the opt-in alone keeps it off.
                let dormant = !opt_in && table(surface, posture, true);
                assert_eq!(
                    dormant_files(&rt.advisories()) == [chrys_file.clone()],
                    dormant,
                    "dormant: {cell}: {:?}",
                    rt.advisories()
                );
                cells += 1;
            }
        }
    }
    assert_eq!(cells, 42);
}

/// The issue's case, with real processes: on a command-line run that auto-approves, a
/// repository's Chrys hook does not run until the user opts in.
#[tokio::test]
async fn on_a_cli_run_that_auto_approves_a_chrys_project_hook_waits_for_the_users_opt_in() {
    let dir = TestDir::new();
    let ran = dir.path().join("ran");
    dir.write(
        ".chrys/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: mark\n    event: before_tool_call\n    run: {{type: shell, shell: 'touch {}'}}\n    execution: {{mode: blocking}}\n",
            ran.display()
        ),
    );
    for opt_in in [false, true] {
        let mut config = RuntimeConfig::new(Surface::CliRun);
        config.user_enables_project_hooks = opt_in;
        let mut rt = HookRuntime::new(config);
        window(&mut rt, 1, Posture::AutoApproves);
        let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
        rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pin");
        let source = source_of(&rt.snapshot(), hooks_format_chrys::PROJECT_FILE).unwrap();
        assert!(source.trust.is_active(), "the table trusts it: {:?}", source.trust);
        assert_eq!(source.runs, opt_in);
        assert_eq!(source.held_back_by, (!opt_in).then_some("project.hooks_enabled"));
        rt.fire(&shell_call(dir.path(), "ls")).await;
        assert_eq!(ran.exists(), opt_in, "opt-in {opt_in}");
    }
}

/// A Chrys hooks file with two blocking `after_turn` hooks, `a` and `b`, that log `start`,
/// `end` and (when the other is running meanwhile) `saw` lines to `log`; each waits up to two
/// seconds for the other to run too, unless the other already finished.
fn chrys_overlap_probes(log: &std::path::Path, settings: &str) -> String {
    let d = log.parent().unwrap().display();
    let l = log.display();
    let probe = |id: &str, other: &str| {
        format!(
            "  - id: {id}\n    event: after_turn\n    execution: {{mode: blocking, timeout_seconds: 30}}\n    run:\n      type: shell\n      shell: |\n        touch '{d}/running-{id}'; echo start {id} >> '{l}'; i=0\n        while [ ! -e '{d}/running-{other}' ] && [ ! -e '{d}/done-{other}' ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done\n        if [ -e '{d}/running-{other}' ]; then echo saw {id} >> '{l}'; fi\n        echo end {id} >> '{l}'; rm '{d}/running-{id}'; touch '{d}/done-{id}'\n"
        )
    };
    format!("{settings}hooks:\n{}{}", probe("a", "b"), probe("b", "a"))
}

/// Fires `after_turn` in a project whose Chrys file is `project` (none when `None`), with the
/// user's global Chrys file holding the two probes under `global_settings`, on a command-line
/// run that auto-approves (with the user's opt-in as given), and returns the probes' log.
async fn probe_turn_end(global_settings: &str, project: Option<&str>, opt_in: bool) -> Vec<String> {
    let (home, dir, state) = (TestDir::new(), TestDir::new(), TestDir::new());
    let log = state.path().join("log");
    home.write(".chrys/hooks/hooks.yaml", &chrys_overlap_probes(&log, global_settings));
    if let Some(p) = project {
        dir.write(".chrys/hooks/hooks.yaml", p);
    }
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.user_dirs =
        Some(hooks_sources::UserDirs::under_home(&hooks_testing::workspace_formats(), home.path()));
    config.user_enables_project_hooks = opt_in;
    let mut rt = HookRuntime::new(config);
    window(&mut rt, 1, Posture::AutoApproves);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    rt.pin_for_run().unwrap();
    let mut env = Envelope::new(HookEvent::TurnEnd);
    env.cwd = Some(dir.path().to_path_buf());
    let report = rt.fire(&env).await;
    assert_eq!(report.runs.len(), 2, "{:?}", report.runs);
    std::fs::read_to_string(&log).unwrap().lines().map(str::to_owned).collect()
}

/// Chrys's `settings:` take effect: `max_parallel_hooks: 1` runs two blocking hooks of an
/// event whose blocking hooks run at once otherwise (the order of their start and end lines
/// shows it, without the test sleeping); fields merge per field with the project's winning,
/// an explicit project default included; a settings-only project file counts; and a project
/// file held back for want of the user's opt-in sets nothing.
#[tokio::test]
async fn chrys_settings_bound_its_hooks_with_the_project_file_winning_per_field() {
    let serial = ["start a", "end a", "start b", "end b"];
    let overlapped = |log: &[String]| log.iter().any(|l| l.starts_with("saw "));
    let one = "settings:\n  max_parallel_hooks: 1\n";
    // The global file alone: `max_parallel_hooks: 1` bounds them (before, they ran at once).
    assert_eq!(probe_turn_end(one, None, false).await, serial);
    // No settings: they run at once.
    let log = probe_turn_end("", None, false).await;
    assert!(overlapped(&log), "{log:?}");
    // A settings-only project file sets it, over a global file that leaves it unset.
    let other = "settings:\n  outbox_max_retries: 5\n";
    assert_eq!(probe_turn_end(other, Some(one), true).await, serial);
    // ... unless the user has not opted in: the held-back file sets nothing.
    let log = probe_turn_end(other, Some(one), false).await;
    assert!(overlapped(&log), "{log:?}");
    // The project's explicit default (4) wins over the global 1, field by field.
    let log = probe_turn_end(one, Some("settings:\n  max_parallel_hooks: 4\n"), true).await;
    assert!(overlapped(&log), "{log:?}");
}

/// The paths named by the `project_hooks_dormant` advisories in `advisories`.
fn dormant_files(advisories: &[hooks_schema::HookDiagnostic]) -> Vec<PathBuf> {
    advisories
        .iter()
        .filter(|d| d.code.as_deref() == Some("project_hooks_dormant"))
        .map(|d| d.source.clone().expect("the advisory names the file"))
        .collect()
}

/// Chrys shows its `project_hooks_dormant` notice at start-up, on reload and on a workspace
/// change; the runtime hands each such advisory to its caller once, through
/// `new_advisories`, and prints nothing itself.
#[test]
fn dormant_project_files_reach_the_caller_at_start_up_on_reload_and_on_a_workspace_change() {
    let (a, b, c) = (TestDir::new(), TestDir::new(), TestDir::new());
    let a_file = a.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    c.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    let canonical = |p: &std::path::Path| p.canonicalize().unwrap();
    let mut rt = runtime(Surface::Desktop);
    crate::support::detect_root(&mut rt, a.path());
    // Start-up: the file found while the runtime was built.
    assert_eq!(dormant_files(&rt.new_advisories()), [canonical(&a_file)]);
    assert!(rt.new_advisories().is_empty(), "each advisory is handed out once");
    assert_eq!(dormant_files(&rt.advisories()), [canonical(&a_file)], "it still holds");
    // A workspace change to a repository without a Chrys file brings nothing.
    crate::support::detect_root(&mut rt, b.path());
    assert!(rt.new_advisories().is_empty());
    // A reload: the file appears in the watched repository.
    let events = rt.subscribe();
    let b_file = b.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    wait_until(&rt, &events, |rt| rt.advisories().len() == 2);
    assert_eq!(dormant_files(&rt.new_advisories()), [canonical(&b_file)]);
    // A workspace change to a repository that has one.
    crate::support::detect_root(&mut rt, c.path());
    let c_file = canonical(&c.path().join(".chrys/hooks/hooks.yaml"));
    assert_eq!(dormant_files(&rt.new_advisories()), [c_file]);
    // Gone, then back: reported again.
    std::fs::remove_file(&b_file).unwrap();
    wait_until(&rt, &events, |rt| rt.advisories().len() == 2);
    assert!(rt.new_advisories().is_empty());
    b.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    wait_until(&rt, &events, |rt| rt.advisories().len() == 3);
    assert_eq!(dormant_files(&rt.new_advisories()), [canonical(&b_file)]);
    // With the user's opt-in nothing is dormant.
    let mut config = RuntimeConfig::new(Surface::Desktop);
    config.user_enables_project_hooks = true;
    let mut opted_in = HookRuntime::new(config);
    crate::support::detect_root(&mut opted_in, a.path());
    assert!(opted_in.new_advisories().is_empty());
}

#[test]
fn user_scope_files_are_watched_and_reloaded_like_project_files() {
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let dir = project();
    let mut config = RuntimeConfig::new(Surface::Desktop);
    config.user_dirs =
        Some(hooks_sources::UserDirs::under_home(&hooks_testing::workspace_formats(), home.path()));
    let mut rt = HookRuntime::new(config);
    let user_source =
        |rt: &HookRuntime| source_of(&rt.snapshot(), hooks_format_claude::USER_SETTINGS);
    let loaded = user_source(&rt).expect("user settings load at start");
    assert!(loaded.runs, "the user's own file is active on every surface");
    assert!(rt.watcher().is_none(), "no repository visited, no watcher");
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    rt.take_user_watch()
        .expect("user folders watched with the first root")
        .wait_timeout(Duration::from_secs(10))
        .expect("in time")
        .expect("attached");
    let events = rt.subscribe();
    home.write(
        ".claude/settings.json",
        r#"{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    wait_until(&rt, &events, |rt| {
        let defs = user_source(rt).expect("still there").definitions;
        defs.iter().any(|d| d.event == HookEvent::SessionEnd)
    });
    let defs = user_source(&rt).expect("still there").definitions;
    assert!(defs.iter().all(|d| d.event != HookEvent::Stop), "the new file replaces the old");
}

/// A runtime that does not watch (a one-shot `hooks fire`) reads the user's files once, at
/// start: its first root does not hand them to its loader to be read again (the second read
/// is what a change made in between would show), and they stay active through the pin.
#[test]
fn a_one_shot_runtime_reads_the_user_files_once_and_keeps_them_active_through_the_pin() {
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let dir = project();
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.watch = false;
    config.user_dirs =
        Some(hooks_sources::UserDirs::under_home(&hooks_testing::workspace_formats(), home.path()));
    let mut rt = HookRuntime::new(config);
    home.write(
        ".claude/settings.json",
        r#"{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    assert!(rt.take_user_watch().is_none(), "nothing watches the user's folders");
    window(&mut rt, 1, Posture::AutoApproves);
    rt.pin_for_run().unwrap().expect("pinned");
    let user = source_of(&rt.snapshot(), hooks_format_claude::USER_SETTINGS).expect("loaded");
    assert!(user.runs, "the user's own file stays active after the pin");
    let events: Vec<HookEvent> = user.definitions.iter().map(|d| d.event).collect();
    assert_eq!(events, [HookEvent::Stop], "the file as read at start, read once");
    assert!(cursor_source(&rt).runs, "the root's files are loaded and active");
}

#[test]
fn the_path_a_hook_file_was_found_at_and_the_names_that_would_shadow_it_are_protected() {
    let outside = TestDir::new();
    let target = outside.write("policy/hooks.json", DENY_RM);
    let dir = TestDir::new();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join(".cursor/hooks.json")).unwrap();
    dir.write(".chrys/hooks/hooks.json", r#"{"hooks": []}"#);
    let mut rt = runtime(Surface::CliRun);
    let _ = add_root(&mut rt, &dir, RootOrigin::TerminalNavigation);
    let handle = rt.fire_handle();
    for p in [
        ".cursor/hooks.json",
        ".cursor",
        ".chrys/hooks/hooks.yaml",
        ".chrys/hooks/hooks.yml",
        ".chrys/hooks/hooks.json",
    ] {
        assert!(
            !handle.can_write_files(&[PathBuf::from(p)], dir.path()).is_allowed(),
            "{p} must be protected"
        );
    }
    assert!(!handle.can_write_files(&[target], dir.path()).is_allowed(), "the link's target too");
    // Chrys keeps a project's hook scripts beside its file (`.chrys/hooks/scripts/`): the
    // folder is protected whole (since session 22); the rest of `.chrys/` is not.
    assert!(
        !handle
            .can_write_files(&[PathBuf::from(".chrys/hooks/notes.txt")], dir.path())
            .is_allowed()
    );
    assert!(handle.can_write_files(&[PathBuf::from(".chrys/notes.txt")], dir.path()).is_allowed());
}

/// The runtime prints nothing: a pending outbox job it cannot read at the first exchange is
/// handed to the caller once, through `new_advisories`, with the file's path.
#[tokio::test]
async fn an_unreadable_outbox_job_reaches_the_caller_once_not_stderr() {
    let (home, state) = (TestDir::new(), TestDir::new());
    let pending = state.path().join("outbox/pending");
    std::fs::create_dir_all(&pending).unwrap();
    std::fs::write(pending.join("broken.json"), "{ not json").unwrap();
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.user_dirs =
        Some(hooks_sources::UserDirs::under_home(&hooks_testing::workspace_formats(), home.path()));
    config.dispatch.runtime_dir = Some(state.path().to_path_buf());
    let mut rt = HookRuntime::new(config);
    assert!(rt.new_advisories().is_empty(), "nothing before the first exchange");
    rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap().expect("pinned");
    let messages = rt.new_advisories();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(messages[0].code.as_deref(), Some("outbox_job_unreadable"), "{messages:?}");
    assert!(messages[0].message.contains("broken.json"), "{messages:?}");
    assert!(rt.new_advisories().is_empty(), "handed out once");
}
