//! End to end: Claude Code settings and hook scripts written the way Claude Code users write
//! them, parsed by `hooks-format-claude` (default and strict mode) and run by
//! `hooks-dispatch` as real processes.

use std::{
    path::Path,
    time::{Duration, Instant},
};

use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext, RunStatus};
use hooks_format_claude::ClaudeMode;
use hooks_schema::{Binding, Decision, Envelope, HookEvent, ToolCall, ToolKind};
use serde_json::{Value, json};

use crate::support::{TestDir, fire_default, project_bindings};

/// Writes `~/.claude/settings.json` inside `dir` and parses it into user bindings.
fn load(dir: &TestDir, settings: &Value, mode: ClaudeMode) -> Vec<Binding> {
    let path = dir.write(".claude/settings.json", &settings.to_string());
    let bytes = std::fs::read(&path).expect("read settings.json");
    let parsed = hooks_format_claude::parse(&bytes, &path, mode).expect("settings parse");
    project_bindings(hooks_format_claude::USER_SETTINGS, &path, dir.path(), parsed.definitions)
}

fn bash(command: &str) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("sess-1".into());
    e.tool = Some(ToolCall {
        name: "run_shell_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("toolu_1".into()),
        mcp_server: None,
        args: json!({ "command": command }),
    });
    e
}

fn pre_tool_use(hooks: Value) -> Value {
    json!({"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}})
}

/// Denies `rm -rf` with JSON, without jq: the input is matched as text.
const DENY_RM: &str = r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'"tool_name":"Bash"'*'rm -rf'*)
    printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed here"}}'
    ;;
esac
exit 0
"#;

#[tokio::test]
async fn a_jq_free_shell_hook_denies_rm_rf_and_stays_silent_otherwise() {
    let dir = TestDir::new();
    dir.script("hooks/deny-rm.sh", DENY_RM);
    let settings = pre_tool_use(json!([
        {"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/hooks/deny-rm.sh"}
    ]));
    let bindings = load(&dir, &settings, ClaudeMode::Default);

    let report = fire_default(&bindings, &bash("rm -rf /tmp/build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("rm -rf is not allowed here"));
    assert_eq!(
        report.verdict.decided_by.as_ref().map(|p| p.hook_id.as_str()),
        Some("PreToolUse[0][0]")
    );

    let report = fire_default(&bindings, &bash("ls -la")).await;
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    assert_eq!(report.verdict.effective(), Decision::Allow);
    assert_eq!(report.runs[0].status, RunStatus::Ran);
}

/// Rewrites `tool_input` and reports what it saw in `additionalContext`.
const REWRITE: &str = r#"import json, sys
data = json.load(sys.stdin)
cmd = data["tool_input"]["command"]
out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "saw " + cmd}}
if cmd.startswith("git push") and "--dry-run" not in cmd:
    out["hookSpecificOutput"]["updatedInput"] = {"command": cmd + " --dry-run"}
print(json.dumps(out))
"#;

#[tokio::test]
async fn a_python_hook_rewrites_tool_input_and_the_next_hook_sees_it() {
    let dir = TestDir::new();
    let script = dir.write("hooks/rewrite.py", REWRITE);
    let python =
        if Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
    // Two handlers with different arguments: identical ones would run once, as in Claude Code.
    let settings = pre_tool_use(json!([
        {"type": "command", "command": python, "args": [script.display().to_string(), "first"]},
        {"type": "command", "command": python, "args": [script.display().to_string(), "second"]}
    ]));
    let bindings = load(&dir, &settings, ClaudeMode::Default);

    let report = fire_default(&bindings, &bash("git push origin main")).await;
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    assert_eq!(
        report.verdict.updated_args,
        Some(json!({"command": "git push origin main --dry-run"}))
    );
    assert_eq!(
        report.verdict.rewritten_by.len(),
        1,
        "the second hook sees the rewrite and leaves it"
    );
    let context: Vec<&str> = report.verdict.context.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(context, ["saw git push origin main", "saw git push origin main --dry-run"]);
}

#[tokio::test]
async fn an_exit_two_hook_blocks_with_its_stderr() {
    let dir = TestDir::new();
    dir.script(
        "hooks/block.sh",
        "#!/bin/sh\ncat > /dev/null\necho 'blocked by policy: no shell today' >&2\nexit 2\n",
    );
    let settings = pre_tool_use(json!([{"type": "command", "command": "./hooks/block.sh"}]));
    let bindings = load(&dir, &settings, ClaudeMode::Default);
    let report = fire_default(&bindings, &bash("echo hello")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("blocked by policy: no shell today"));
}

const HANG: &str = "#!/bin/sh\nexec sleep 30\n";

fn hung_settings(version: bool) -> Value {
    let mut s =
        pre_tool_use(json!([{"type": "command", "command": "./hooks/hang.sh", "timeout": 1}]));
    if version {
        s["hooks"]["version"] = json!(1);
    }
    s
}

#[tokio::test]
async fn a_hung_hook_is_denied_at_the_timeout_under_the_strict_contract() {
    let dir = TestDir::new();
    dir.script("hooks/hang.sh", HANG);
    let bindings = load(&dir, &hung_settings(true), ClaudeMode::Strict);
    let started = Instant::now();
    let report = fire_default(&bindings, &bash("ls")).await;
    let took = started.elapsed();
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert!(
        report.verdict.reason.as_deref().is_some_and(|r| r.contains("timed out after 1 s")),
        "{:?}",
        report.verdict.reason
    );
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(report.runs[0].outcome.as_ref().map(|o| o.timed_out), Some(true));
}

#[tokio::test]
async fn a_hung_hook_fails_open_at_the_timeout_by_default() {
    let dir = TestDir::new();
    dir.script("hooks/hang.sh", HANG);
    let bindings = load(&dir, &hung_settings(false), ClaudeMode::Default);
    let started = Instant::now();
    let report = fire_default(&bindings, &bash("ls")).await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    assert_eq!(report.verdict.effective(), Decision::Allow);
    let failure = report.runs[0].verdict.as_ref().and_then(|v| v.failure.clone());
    assert!(failure.is_some_and(|f| f.contains("timed out")));
}

#[tokio::test]
async fn a_broken_strict_contract_denies_before_anything_runs() {
    let dir = TestDir::new();
    let marker = dir.path().join("ran");
    dir.script("hooks/touch.sh", &format!("#!/bin/sh\ntouch '{}'\n", marker.display()));
    let settings = json!({"hooks": {"version": 1, "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./hooks/touch.sh", "apiToken": "x"}]}
    ]}});
    let bindings = load(&dir, &settings, ClaudeMode::Strict);
    let report = fire_default(&bindings, &bash("ls")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert!(
        report
            .verdict
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("credential-looking key `apiToken`"))
    );
    assert!(!marker.exists(), "no hook process ran");
}

#[tokio::test]
async fn the_same_handler_in_user_and_project_settings_runs_once() {
    let dir = TestDir::new();
    let log = dir.path().join("ran.log");
    dir.script(
        "hooks/log.sh",
        &format!("#!/bin/sh\ncat > /dev/null\necho ran >> '{}'\n", log.display()),
    );
    let handler = json!([{"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/hooks/log.sh"}]);
    let mut bindings = load(&dir, &pre_tool_use(handler.clone()), ClaudeMode::Default);
    // The project's settings file has the same handler under the same matcher, and an async
    // copy, which Claude Code never deduplicates.
    let mut project = pre_tool_use(handler);
    project["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .expect("handlers")
        .push(json!({"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/hooks/log.sh", "async": true}));
    let path = dir.write("project/.claude/settings.json", &project.to_string());
    let parsed = hooks_format_claude::parse(
        &std::fs::read(&path).expect("read"),
        &path,
        ClaudeMode::Default,
    )
    .expect("project settings parse");
    bindings.extend(project_bindings(
        hooks_format_claude::PROJECT_SETTINGS,
        &path,
        dir.path(),
        parsed.definitions,
    ));

    let dispatcher = Dispatcher::new(DispatchConfig::default());
    let report = dispatcher.fire(&bindings, &bash("ls"), &FireContext::default()).await;
    let statuses: Vec<&RunStatus> = report.runs.iter().map(|r| &r.status).collect();
    assert_eq!(statuses[0], &RunStatus::Ran, "{report:#?}");
    assert_eq!(statuses[1], &RunStatus::Skipped(hooks_dispatch::SkipReason::Duplicate));
    assert!(matches!(statuses[2], RunStatus::Background { .. }), "{statuses:?}");
    dispatcher.drain(Duration::from_secs(10)).await;
    assert_eq!(
        std::fs::read_to_string(&log).expect("log").lines().count(),
        2,
        "once, plus the async copy"
    );
}

/// Redacts API keys from a Bash tool's output: `updatedToolOutput` is the tool's response
/// with every `sk-…` token replaced. With an argument, replaces the output with it instead.
const REDACT: &str = r#"import json, re, sys
data = json.load(sys.stdin)
if len(sys.argv) > 1:
    out = sys.argv[1]
else:
    out = dict(data["tool_response"])
    out["stdout"] = re.sub(r"sk-[A-Za-z0-9]+", "[REDACTED]", out["stdout"])
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": out}}))
"#;

#[tokio::test]
async fn a_post_tool_hook_redacts_a_secret_from_the_tool_output() {
    let dir = TestDir::new();
    let script = dir.write("hooks/redact.py", REDACT);
    let python =
        if Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
    let settings = json!({"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": python, "args": [script.display().to_string()]},
        {"type": "command", "command": python, "args": [script.display().to_string(), "late"]}
    ]}]}});
    let bindings = load(&dir, &settings, ClaudeMode::Default);
    let mut envelope = bash("cat .env");
    envelope.event = HookEvent::PostToolUse;
    envelope.result = Some(hooks_schema::ToolResult {
        output: Some(json!({
            "stdout": "API_KEY=sk-live4f9a2b\nDEBUG=1\n",
            "stderr": "",
            "interrupted": false
        })),
        duration_ms: Some(12),
        ..hooks_schema::ToolResult::default()
    });

    let report = fire_default(&bindings, &envelope).await;
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    assert_eq!(
        report.verdict.updated_output,
        Some(
            json!({"stdout": "API_KEY=[REDACTED]\nDEBUG=1\n", "stderr": "", "interrupted": false})
        ),
        "{report:#?}"
    );
    assert_eq!(
        report.verdict.output_rewritten_by.as_ref().map(|p| p.hook_id.as_str()),
        Some("PostToolUse[0][0]"),
        "the first rewrite in binding order wins"
    );
    assert_eq!(report.verdict.updated_args, None);
    let late = report.runs[1].verdict.as_ref().expect("the second hook ran");
    assert_eq!(late.updated_output, None);
    assert_eq!(
        late.notes,
        [
            "the output rewrite is ignored: hook PostToolUse[0][0], earlier in chain order, rewrote the output first"
        ]
    );
}

#[tokio::test]
async fn a_users_hook_runs_in_the_sessions_current_directory_not_in_its_settings_folder() {
    let dir = TestDir::new();
    let project = dir.write("work/repo/README", "");
    let cwd = project.parent().expect("repo").to_path_buf();
    let settings = pre_tool_use(json!([{"type": "command", "command": "pwd >&2; exit 2"}]));
    let bindings = load(&dir, &settings, ClaudeMode::Default);
    let mut envelope = bash("ls");
    envelope.cwd = Some(cwd.clone());
    let report = fire_default(&bindings, &envelope).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    let canonical = hooks_registry::canonicalize(&cwd).expect("canonical cwd");
    assert_eq!(report.verdict.reason.as_deref(), canonical.as_path().to_str());
}
