//! Claude Code's settings-level hook policies through the runtime: a user's `disableAllHooks`
//! switches a project's Claude Code deny hook off, the project's own `false` switches it back
//! on, an edit to the user's settings republishes, and a managed `managed-settings.d/` fragment
//! with `allowManagedHooksOnly` keeps its own hook while the project's stops running.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId};
use hooks_dispatch::FireReport;
use hooks_registry::SourceView;
use hooks_schema::{Decision, HookSourceKind};
use hooks_sources::{ManagedDirs, UserDirs};
use hooks_trust::{CommandExecutionPosture as Posture, Surface};
use serde_json::{Value, json};

use crate::support::{TestDir, detect_root, shell_call, source_of, wait_until};

/// A Claude Code deny hook: exit code 2 with `who` on stderr.
fn deny_script(dir: &TestDir, rel: &str, who: &str) -> PathBuf {
    dir.script(rel, &format!("#!/bin/sh\ncat > /dev/null\necho '{who} says no' >&2\nexit 2\n"))
}

/// Settings with `extra` keys and a `PreToolUse` hook on Bash running `script`.
fn settings_with_deny(script: &Path, extra: Value) -> String {
    let mut doc = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("'{}'", script.display()), "timeout": 10}
    ]}]}});
    if let (Some(doc), Value::Object(extra)) = (doc.as_object_mut(), extra) {
        doc.extend(extra);
    }
    doc.to_string()
}

struct Setup {
    home: TestDir,
    project: TestDir,
    managed: TestDir,
}

impl Setup {
    fn new() -> Setup {
        let s = Setup { home: TestDir::new(), project: TestDir::new(), managed: TestDir::new() };
        s.project.write("src/main.rs", "fn main() {}\n");
        s
    }

    /// The project's `.claude/settings.json` with its deny hook and `extra` keys.
    fn project_settings(&self, extra: Value) {
        let script = deny_script(&self.project, ".claude/deny.sh", "the project");
        self.project.write(".claude/settings.json", &settings_with_deny(&script, extra));
    }

    /// A runtime on the CLI with an auto-approving window, the user's and the managed folders
    /// in temporary directories, and the project detected (its watch attached).
    fn runtime(&self) -> HookRuntime {
        let mut config = RuntimeConfig::new(Surface::CliRun);
        config.user_dirs =
            Some(UserDirs::under_home(&hooks_testing::workspace_formats(), self.home.path()));
        config.managed_dirs = Some(
            ManagedDirs::new()
                .with(hooks_testing::ids::CURSOR, self.managed.path().join("cursor"))
                .with(hooks_testing::ids::CLAUDE, self.managed.path().join("claude-code")),
        );
        let mut rt = HookRuntime::new(config);
        rt.handle(RuntimeEvent::WindowPosture {
            window: WindowId(1),
            posture: Posture::AutoApproves,
        })
        .unwrap();
        detect_root(&mut rt, self.project.path());
        rt
    }

    /// [`Setup::runtime`] once the user's folders are watched.
    fn watched_runtime(&self) -> HookRuntime {
        let mut rt = self.runtime();
        rt.take_user_watch()
            .expect("user folders watched with the first root")
            .wait_timeout(Duration::from_secs(10))
            .expect("in time")
            .expect("attached");
        rt
    }
}

fn source(rt: &HookRuntime, kind: HookSourceKind) -> SourceView {
    source_of(&rt.snapshot(), kind).unwrap_or_else(|| panic!("no {kind} source"))
}

/// The `hooks_disabled` notes of a source's view.
fn notes(view: &SourceView) -> Vec<String> {
    view.diagnostics
        .iter()
        .filter(|d| d.code.as_deref() == Some("hooks_disabled"))
        .map(|d| d.message.clone())
        .collect()
}

fn ran_from(report: &FireReport, kind: HookSourceKind) -> usize {
    report.runs.iter().filter(|r| r.provenance.source.kind == kind).count()
}

fn canonical(path: PathBuf) -> String {
    hooks_registry::canonicalize(&path).expect("canonical").to_string()
}

#[tokio::test]
async fn a_users_disable_all_hooks_keeps_a_projects_claude_deny_from_running() {
    let s = Setup::new();
    s.home.write(".claude/settings.json", r#"{"disableAllHooks": true}"#);
    s.project_settings(json!({}));
    let mut rt = s.runtime();
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    assert_ne!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(ran_from(&report, hooks_format_claude::PROJECT_SETTINGS), 0);
    let view = source(&rt, hooks_format_claude::PROJECT_SETTINGS);
    assert!(!view.runs);
    assert_eq!(
        notes(&view),
        [format!(
            "disabled by disableAllHooks in {}",
            canonical(s.home.path().join(".claude/settings.json"))
        )]
    );
}

#[tokio::test]
async fn a_projects_own_false_overrides_the_users_true() {
    let s = Setup::new();
    s.home.write(".claude/settings.json", r#"{"disableAllHooks": true}"#);
    s.project_settings(json!({"disableAllHooks": false}));
    let mut rt = s.runtime();
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(report.verdict.reason.as_deref(), Some("the project says no"));
    assert!(notes(&source(&rt, hooks_format_claude::PROJECT_SETTINGS)).is_empty());
}

#[tokio::test]
async fn an_edit_to_the_users_settings_switches_the_projects_hooks_off_before_the_run() {
    let s = Setup::new();
    s.home.write(".claude/settings.json", "{}");
    s.project_settings(json!({}));
    let mut rt = s.watched_runtime();
    assert!(notes(&source(&rt, hooks_format_claude::USER_SETTINGS)).is_empty());
    let events = rt.subscribe();
    s.home.write(".claude/settings.json", r#"{"disableAllHooks": true}"#);
    wait_until(&rt, &events, |rt| {
        !notes(&source(rt, hooks_format_claude::USER_SETTINGS)).is_empty()
    });
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(s.project.path(), "rm -rf build")).await;
    assert_ne!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(ran_from(&report, hooks_format_claude::PROJECT_SETTINGS), 0);
}

#[tokio::test]
async fn a_managed_fragment_with_allow_managed_hooks_only_runs_its_hook_and_not_the_projects() {
    let s = Setup::new();
    s.project_settings(json!({}));
    let managed_script = deny_script(&s.managed, "scripts/deny.sh", "the administrator");
    s.managed.write("claude-code/managed-settings.json", "{}");
    let fragment = s.managed.write(
        "claude-code/managed-settings.d/50-policy.json",
        &settings_with_deny(&managed_script, json!({"allowManagedHooksOnly": true})),
    );
    // A hidden file in the folder is not a fragment.
    s.managed.write("claude-code/managed-settings.d/.00-off.json", r#"{"disableAllHooks": true}"#);
    let mut rt = s.runtime();
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(s.project.path(), "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(report.verdict.reason.as_deref(), Some("the administrator says no"));
    assert_eq!(ran_from(&report, hooks_format_claude::MANAGED_SETTINGS), 1);
    assert_eq!(ran_from(&report, hooks_format_claude::PROJECT_SETTINGS), 0);
    let project = source(&rt, hooks_format_claude::PROJECT_SETTINGS);
    assert_eq!(
        notes(&project),
        [format!("disabled by allowManagedHooksOnly in {}", canonical(fragment))]
    );
    let managed: Vec<String> = rt
        .snapshot()
        .sources()
        .iter()
        .filter(|v| v.id.kind == hooks_format_claude::MANAGED_SETTINGS)
        .map(|v| v.id.path.to_string())
        .collect();
    assert_eq!(managed.len(), 2, "the base file and one fragment: {managed:?}");
}

/// A subagent file under `dir` (`<folder>/.claude/agents/<file>.md`) whose front matter is
/// `name: <name>` with a `PreToolUse` hook on Bash running a deny script that says `who`.
fn subagent(dir: &TestDir, file: &str, name: &str, who: &str) {
    let script = deny_script(dir, &format!(".claude/agents/{file}.sh"), who);
    dir.write(
        &format!(".claude/agents/{file}.md"),
        &format!(
            "---\nname: {name}\ndescription: Reviews shell commands.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: \"'{}'\"\n---\nReview every command.\n",
            script.display()
        ),
    );
}

/// Pins `s`'s runtime and fires a shell call in its project.
async fn fire_in_project(s: &Setup) -> (HookRuntime, FireReport) {
    let mut rt = s.runtime();
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    (rt, report)
}

fn agents(scope: hooks_schema::FileScope) -> HookSourceKind {
    HookSourceKind::file(scope, hooks_format_claude::AGENTS)
}

/// Claude Code's `agent` setting makes a subagent the main thread's, and the hooks of its
/// front matter then run for the whole session (the real CLI 2.1.328: a `PreToolUse` exit-2
/// hook there blocked the `Bash` call with the project's `{"agent": "gate"}`, whatever the
/// file is called, and did not without the key, with another name, or with the local
/// settings' `"agent": ""` above it). The engine runs them exactly there: before this, it
/// listed them and never ran them, so a gate Claude Code enforced was not enforced.
#[tokio::test]
async fn the_main_thread_s_agent_runs_its_front_matter_hooks_for_the_whole_session() {
    let project_agents = agents(hooks_schema::FileScope::Project);
    // Picked by name (the front matter's, not the file's).
    let s = Setup::new();
    subagent(&s.project, "reviewer", "gate", "the subagent");
    s.project.write(".claude/settings.json", r#"{"agent": "gate"}"#);
    let (rt, report) = fire_in_project(&s).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{:?}", report.runs);
    assert_eq!(report.verdict.reason.as_deref(), Some("the subagent says no"));
    assert!(source(&rt, project_agents).runs);
    // Not picked: no key, the file's name, or an empty name in the local settings above.
    for (settings, local) in [
        ("{}", None),
        (r#"{"agent": "reviewer"}"#, None),
        (r#"{"agent": "gate"}"#, Some(r#"{"agent": ""}"#)),
    ] {
        let s = Setup::new();
        subagent(&s.project, "reviewer", "gate", "the subagent");
        s.project.write(".claude/settings.json", settings);
        if let Some(local) = local {
            s.project.write(".claude/settings.local.json", local);
        }
        let (rt, report) = fire_in_project(&s).await;
        assert_ne!(report.verdict.decision, Some(Decision::Deny), "{settings} {local:?}");
        assert_eq!(ran_from(&report, project_agents), 0);
        let view = source(&rt, project_agents);
        assert!(!view.runs, "{settings} {local:?}");
        let note = notes(&view).join("\n");
        assert!(note.contains("runs only where a file's `agent` names it"), "{note}");
    }
}

/// Of the subagents of the picked name, the project's runs and the user's of the same name
/// does not (the real CLI: only the project's hooks ran), wherever the name is picked from;
/// outside the project the user's runs. An untrusted project hides nothing: a repository
/// cannot switch off the user's gate by shipping a subagent of its name, nor by naming no
/// agent (or every hook off) in its settings.
#[tokio::test]
async fn a_project_subagent_hides_the_user_s_of_the_same_name_only_when_it_may_run() {
    let s = Setup::new();
    subagent(&s.home, "gate", "gate", "the user subagent");
    subagent(&s.project, "gate", "gate", "the project subagent");
    s.home.write(".claude/settings.json", r#"{"agent": "gate"}"#);
    let mut rt = s.runtime();
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("the project subagent says no"));
    assert_eq!(ran_from(&report, agents(hooks_schema::FileScope::User)), 0, "{:?}", report.runs);
    let outside = TestDir::new();
    let report = rt.fire(&shell_call(outside.path(), "rm -rf build")).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("the user subagent says no"));
    let user_view = source(&rt, agents(hooks_schema::FileScope::User));
    assert!(user_view.runs, "it runs outside the project");
    let note = notes(&user_view).join("\n");
    assert!(
        note.contains(&canonical(s.project.path().join(".claude/agents/gate.md"))),
        "the note names the subagent that runs instead: {note}"
    );

    // The project untrusted (the window asks before running project files): the user's runs,
    // whatever the repository's own settings say to switch it off.
    s.project.write(".claude/settings.local.json", r#"{"agent": "", "disableAllHooks": true}"#);
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.user_dirs =
        Some(UserDirs::under_home(&hooks_testing::workspace_formats(), s.home.path()));
    let mut rt = HookRuntime::new(config);
    detect_root(&mut rt, s.project.path());
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("the user subagent says no"));
    assert!(!source(&rt, agents(hooks_schema::FileScope::Project)).runs);
}

/// An edit of `agent` in the user's watched settings file republishes: the subagent it names
/// runs from the next pin, and naming another one switches it off again.
#[tokio::test]
async fn an_edit_to_the_user_s_agent_setting_picks_the_subagent_before_the_run() {
    let s = Setup::new();
    subagent(&s.home, "reviewer", "gate", "the subagent");
    s.home.write(".claude/settings.json", "{}");
    let mut rt = s.watched_runtime();
    let user_agents = agents(hooks_schema::FileScope::User);
    assert!(!source(&rt, user_agents).runs);
    let events = rt.subscribe();
    s.home.write(".claude/settings.json", r#"{"agent": "gate"}"#);
    wait_until(&rt, &events, |rt| source(rt, user_agents).runs);
    s.home.write(".claude/settings.json", r#"{"agent": "other"}"#);
    wait_until(&rt, &events, |rt| !source(rt, user_agents).runs);
    s.home.write(".claude/settings.json", r#"{"agent": "gate"}"#);
    wait_until(&rt, &events, |rt| source(rt, user_agents).runs);
    rt.pin_for_run().unwrap();
    let report = rt.fire(&shell_call(&s.project.path().join("src"), "rm -rf build")).await;
    assert_eq!(report.verdict.reason.as_deref(), Some("the subagent says no"));
}
