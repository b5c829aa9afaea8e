//! End to end: a Gemini CLI project's `.gemini/settings.json` and hook scripts written the
//! way Gemini CLI's documentation writes them (read the JSON input on stdin, answer with
//! `{"decision": "deny", "reason": …}` or exit 2 with the reason on stderr), parsed by
//! `hooks-format-gemini` and run as real processes by `hooks-dispatch`, and the same file
//! checked through the `hooks` tool.

use hooks_schema::{Binding, Decision};
use serde_json::Value;

use crate::{
    cli::{fire_auto_approved, hooks_in},
    support::{TestDir, WatchedRepo, fire_default, project_bindings, shell_call},
};

/// The documentation's example, with the security script it names.
const SETTINGS: &str = r#"{
  // Gemini CLI allows comments in settings files.
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          {
            "name": "security-check",
            "type": "command",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh",
            "timeout": 5000
          },
          {
            "name": "no-network",
            "type": "command",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/no-network.sh"
          }
        ]
      }
    ]
  }
}"#;

/// Denies `rm -rf` with JSON on stdout, and records what it was given.
const SECURITY: &str = r#"#!/usr/bin/env bash
input=$(cat)
printf '%s' "$input" > "$GEMINI_PROJECT_DIR/seen-input.json"
printf '%s|%s|%s' "$GEMINI_PROJECT_DIR" "$GEMINI_CWD" "$PWD" > "$GEMINI_PROJECT_DIR/seen-env.txt"
case "$input" in
  *'"tool_name":"run_shell_command"'*'rm -rf'*)
    echo '{"decision": "deny", "reason": "Dangerous command blocked by security policy"}'
    exit 0
    ;;
esac
echo '{"decision": "allow"}'
"#;

/// Blocks `curl` with exit code 2 and the reason on stderr.
const NO_NETWORK: &str = r#"#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *curl*) echo "Network access is not allowed" >&2; exit 2 ;;
esac
exit 0
"#;

fn project() -> TestDir {
    let d = TestDir::new();
    d.write(".gemini/settings.json", SETTINGS);
    d.script(".gemini/hooks/security.sh", SECURITY);
    d.script(".gemini/hooks/no-network.sh", NO_NETWORK);
    d
}

fn bindings(d: &TestDir) -> Vec<Binding> {
    let path = d.path().join(".gemini/settings.json");
    let bytes = std::fs::read(&path).expect("read settings.json");
    let parsed = hooks_format_gemini::parse(&bytes, &path).expect("settings parse");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    project_bindings(hooks_format_gemini::PROJECT_SETTINGS, &path, d.path(), parsed.definitions)
}

#[tokio::test]
async fn a_documented_deny_blocks_and_the_hook_sees_geminis_input() {
    let d = project();
    let b = bindings(&d);
    let root = hooks_registry::canonicalize(d.path()).expect("root");
    let report =
        fire_default(&b, &shell_call(root.as_path(), "rm -rf build && touch ran.txt")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
    assert_eq!(
        report.verdict.reason.as_deref(),
        Some("Dangerous command blocked by security policy")
    );
    assert_eq!(
        report.verdict.decided_by.as_ref().map(|p| p.hook_id.to_string()).as_deref(),
        Some("BeforeTool[0][0]")
    );
    let input: Value =
        serde_json::from_slice(&std::fs::read(d.path().join("seen-input.json")).expect("input"))
            .expect("json");
    assert_eq!(input["hook_event_name"], "BeforeTool");
    assert_eq!(input["tool_name"], "run_shell_command");
    assert_eq!(input["tool_input"]["command"], "rm -rf build && touch ran.txt");
    assert_eq!(input["cwd"], root.as_path().display().to_string());
    let env = std::fs::read_to_string(d.path().join("seen-env.txt")).expect("env");
    let dir = root.as_path().display().to_string();
    assert_eq!(env, format!("{dir}|{dir}|{dir}"));
}

#[tokio::test]
async fn exit_2_with_stderr_blocks_and_a_harmless_command_passes() {
    let d = project();
    let b = bindings(&d);
    let root = hooks_registry::canonicalize(d.path()).expect("root");
    let report =
        fire_default(&b, &shell_call(root.as_path(), "curl https://example.invalid")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("Network access is not allowed"));
    let report = fire_default(&b, &shell_call(root.as_path(), "ls")).await;
    // `{"decision": "allow"}` is Gemini CLI's default: it approves nothing.
    assert_eq!(report.verdict.decision, None, "{report:?}");
}

#[test]
fn hooks_fire_runs_the_projects_gemini_hooks_with_geminis_decision() {
    let d = project();
    let cfg = TestDir::new();
    let cfgp = cfg.path().to_str().expect("utf-8");
    let fire = |command: &str| {
        let payload = format!(
            r#"{{"tool": {{"name": "run_shell_command", "kind": "shell", "args": {{"command": "{command}"}}}}}}"#
        );
        fire_auto_approved(d.path(), cfgp, "BeforeTool", &payload, &["--json"])
    };
    let deny = fire("rm -rf build && touch ran.txt");
    let out = String::from_utf8_lossy(&deny.stdout).into_owned();
    assert_eq!(deny.status.code(), Some(2), "{out}{}", String::from_utf8_lossy(&deny.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["verdict"]["decision"], "deny", "{v}");
    assert_eq!(v["verdict"]["reason"], "Dangerous command blocked by security policy", "{v}");
    assert_eq!(v["verdict"]["decided_by"]["hook_id"], "BeforeTool[0][0]", "{v}");
    let blocked = fire("curl https://example.invalid");
    assert_eq!(blocked.status.code(), Some(2), "{}", String::from_utf8_lossy(&blocked.stdout));
    let allow = fire("ls");
    assert_eq!(allow.status.code(), Some(0), "{}", String::from_utf8_lossy(&allow.stdout));
}

#[test]
fn the_guard_protects_gemini_settings_and_their_scripts_even_before_they_exist() {
    let d = project();
    let cfg = TestDir::new();
    let cfgp = cfg.path().to_str().expect("utf-8");
    let guard = |dir: &std::path::Path, paths: &[&str]| {
        let args = [&["guard", "--root", ".", "--config-dir", cfgp, "--json"][..], paths].concat();
        hooks_in(dir, &args, "")
    };
    let o = guard(d.path(), &[".gemini/settings.json", ".gemini/hooks/security.sh", "src/main.rs"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let allowed: Vec<_> = lines.iter().map(|l| l["allowed"].as_bool()).collect();
    assert_eq!(allowed, [Some(false), Some(false), Some(true)], "{out}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_gemini_settings", "{out}");
    // A project without any Gemini file: creating one would add hooks, so it is refused too.
    let empty = TestDir::new();
    let o = guard(empty.path(), &[".gemini/settings.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn hooks_check_reads_the_settings_file_as_gemini() {
    let d = project();
    let o = hooks_in(d.path(), &["check", "--json", ".gemini/settings.json"], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["format"], "gemini", "{v}");
    assert_eq!(v["hooks"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["ok"], true, "{v}");
}

/// The project's settings with `hooksConfig.enabled` set to `enabled` (none when `None`) and
/// the documented hooks.
fn settings_with_switch(enabled: Option<bool>) -> String {
    let mut doc: Value = serde_json::from_str(
        &SETTINGS.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<String>(),
    )
    .expect("the example is JSON once its comment is gone");
    if let Some(on) = enabled {
        doc["hooksConfig"] = serde_json::json!({ "enabled": on });
    }
    doc.to_string()
}

/// `hooks fire` of `rm -rf` in `d` with the user's folder `home` (`--config-dir`, where
/// Gemini CLI's user `.gemini/settings.json` lives): its exit code and JSON report.
fn fire_rm_rf(d: &TestDir, home: &TestDir) -> (Option<i32>, Value) {
    let payload = r#"{"tool": {"name": "run_shell_command", "kind": "shell", "args": {"command": "rm -rf build"}}}"#;
    let args = [
        "fire",
        "BeforeTool",
        "--root",
        ".",
        "--config-dir",
        home.path().to_str().expect("utf-8"),
        "--posture",
        "auto-approves",
        "--payload",
        "-",
        "--json",
    ];
    let o = hooks_in(d.path(), &args, payload);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let v = serde_json::from_str(out.lines().next().unwrap_or("null"))
        .unwrap_or_else(|e| panic!("{e}: {out}{}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), v)
}

/// Gemini CLI's `hooksConfig.enabled: false` switches its hooks off through the engine's
/// generic source policy (`specs/formats.md`, "Source policy"): in the project's own file the
/// documented deny no longer runs; in the user's file it switches the project's hooks off too
/// unless the project's file (higher precedence) turns them back on; `true` changes nothing.
#[test]
fn hooks_config_enabled_false_switches_gemini_hooks_off() {
    let no_home = TestDir::new();
    let d = project();
    d.write(".gemini/settings.json", &settings_with_switch(None));
    let (code, v) = fire_rm_rf(&d, &no_home);
    assert_eq!(code, Some(2), "the hooks run without a switch: {v}");

    d.write(".gemini/settings.json", &settings_with_switch(Some(false)));
    let (code, v) = fire_rm_rf(&d, &no_home);
    assert_eq!(code, Some(0), "the project's own false: {v}");
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(0), "{v}");

    d.write(".gemini/settings.json", &settings_with_switch(Some(true)));
    assert_eq!(fire_rm_rf(&d, &no_home).0, Some(2), "true changes nothing");

    let home = TestDir::new();
    home.write(".gemini/settings.json", r#"{"hooksConfig": {"enabled": false}}"#);
    d.write(".gemini/settings.json", &settings_with_switch(None));
    let (code, v) = fire_rm_rf(&d, &home);
    assert_eq!(code, Some(0), "the user's false switches the project's hooks off: {v}");
    d.write(".gemini/settings.json", &settings_with_switch(Some(true)));
    let (code, v) = fire_rm_rf(&d, &home);
    assert_eq!(code, Some(2), "the project's true outranks the user's false: {v}");
}

/// A Gemini CLI settings file with one `BeforeTool` hook named `name` that blocks every shell
/// command (exit 2), and `hooksConfig.disabled` listing `disabled`.
fn gate_settings(name: &str, disabled: &[&str]) -> String {
    serde_json::json!({
        "hooksConfig": {"disabled": disabled},
        "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"name": name, "type": "command", "command": format!("echo '{name} says no' >&2; exit 2")}
        ]}]}
    })
    .to_string()
}

/// Gemini CLI merges `hooksConfig.disabled` of every settings layer by union (its schema's
/// `mergeStrategy: union`) and skips every hook whose name (else command) is listed, in any
/// layer: the user's list switches a repository's hook off, and a repository's list a user's
/// hook, and `hooks list` says which file did. (A non-managed list never switches off the
/// system settings' hooks, as for `hooksConfig.enabled`: `hooks_registry`'s
/// `policy::tests::hook_names_listed_by_running_files_switch_those_hooks_off_where_they_apply`;
/// the system files are read only where root alone can write them.) Before, a list applied
/// to its own file only.
#[test]
fn hooks_config_disabled_names_hooks_off_across_the_settings_files() {
    let d = project();
    let home = TestDir::new();
    assert_eq!(fire_rm_rf(&d, &home).0, Some(2), "the project's security-check denies");

    home.write(".gemini/settings.json", r#"{"hooksConfig": {"disabled": ["security-check"]}}"#);
    let (code, v) = fire_rm_rf(&d, &home);
    assert_eq!(code, Some(0), "the user's list switches the project's hook off: {v}");
    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "no-network still runs: {v}");
    let cfg = home.path().to_str().expect("utf-8");
    let args = ["list", "--root", ".", "--config-dir", cfg, "--posture", "auto-approves"];
    let list = hooks_in(d.path(), &args, "");
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(
        list.contains(
            "hook `security-check` (line 8) does not run: disabled by hooksConfig.disabled in "
        ) && list.contains(".gemini/settings.json"),
        "{list}"
    );

    // The repository's list switches the user's hook off.
    home.write(".gemini/settings.json", &gate_settings("user-gate", &[]));
    d.write(".gemini/settings.json", &gate_settings("repo-hook", &[]));
    let (code, v) = fire_rm_rf(&d, &home);
    assert_eq!(code, Some(2), "both hooks run: {v}");
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(2), "{v}");
    d.write(".gemini/settings.json", &gate_settings("repo-hook", &["user-gate", "repo-hook"]));
    let (code, v) = fire_rm_rf(&d, &home);
    assert_eq!((code, v["runs"].as_array().map(Vec::len)), (Some(0), Some(0)), "{v}");
}

/// Gemini CLI runs a hook once per event when another settings file has one with the same
/// name and command (`getHookKey` is `<name>:<command>`); with the same command under another
/// name, or one named and one not, both run. Before, the engine compared the command alone and
/// ran such hooks once.
#[test]
fn equal_commands_run_once_only_under_the_same_name() {
    let d = TestDir::new();
    let home = TestDir::new();
    let log = d.path().join("count");
    let settings = |name: Option<&str>| {
        let mut hook = serde_json::json!({"type": "command", "command": format!("echo x >> '{}'", log.display())});
        if let Some(n) = name {
            hook["name"] = Value::from(n);
        }
        serde_json::json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [hook]}]}}).to_string()
    };
    for (project, user, runs) in [
        (Some("count"), Some("count"), 1),
        (None, None, 1),
        (Some("count"), Some("other"), 2),
        (Some("count"), None, 2),
    ] {
        let _ = std::fs::remove_file(&log);
        d.write(".gemini/settings.json", &settings(project));
        home.write(".gemini/settings.json", &settings(user));
        let (code, v) = fire_rm_rf(&d, &home);
        assert_eq!(code, Some(0), "{v}");
        let lines = std::fs::read_to_string(&log).unwrap_or_default().lines().count();
        assert_eq!(lines, runs, "names {project:?} and {user:?}: {v}");
    }
}

#[test]
fn hooks_list_shows_the_project_and_user_gemini_settings() {
    let d = project();
    let cfg = TestDir::new();
    cfg.write(
        ".gemini/settings.json",
        r#"{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let cfgp = cfg.path().to_str().expect("utf-8");
    let o = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp, "--json"], "");
    let inv: Value = serde_json::from_slice(&o.stdout).expect("json");
    let sources = inv["sources"].as_array().expect("sources");
    let count = |kind: &str| sources.iter().filter(|s| s["kind"] == kind).count();
    assert_eq!(count("project_gemini_settings"), 1, "{inv}");
    assert_eq!(count("user_gemini_settings"), 1, "{inv}");
    let text = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp], "");
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(text.contains("BeforeTool[0][0]") && text.contains("AfterAgent[0][0]"), "{text}");
}

/// The watcher sees `.gemini/settings.json` appear under a watched repository (the folder
/// included), change and go, and the registry runs what it now says.
#[test]
fn the_watcher_loads_gemini_settings_as_they_appear_and_change() {
    let repo =
        WatchedRepo::start(hooks_schema::FormatSet::new(vec![hooks_format_gemini::descriptor()]));
    let settings = |cmd: &str| {
        format!(
            "{{\n  // a comment, as Gemini CLI allows\n  \"hooks\": {{\"BeforeTool\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"{cmd}\"}}]}}]}}\n}}"
        )
    };
    assert!(repo.running().is_empty());
    repo.write(".gemini/settings.json", &settings("./first.sh"));
    repo.wait_for(&["./first.sh"]);
    repo.write(".gemini/settings.json", &settings("./second.sh"));
    repo.wait_for(&["./second.sh"]);
    std::fs::remove_file(repo.dir.path().join("repo/.gemini/settings.json")).expect("rm");
    repo.wait_for(&[]);
}

/// `hooks fire --dry-run` names the Gemini source and the hook that would run, and runs
/// nothing.
#[test]
fn hooks_fire_dry_run_explains_the_gemini_binding_and_runs_nothing() {
    let d = TestDir::new();
    d.write(
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "touch ran.txt"}]}]}}"#,
    );
    let cfg = TestDir::new();
    let cfgp = cfg.path().to_str().expect("utf-8");
    let payload =
        r#"{"tool": {"name": "run_shell_command", "kind": "shell", "args": {"command": "ls"}}}"#;
    let args = [
        "fire",
        "BeforeTool",
        "--root",
        ".",
        "--config-dir",
        cfgp,
        "--posture",
        "auto-approves",
        "--payload",
        "-",
        "--dry-run",
    ];
    let o = hooks_in(d.path(), &args, payload);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("[project_gemini_settings]"), "{out}");
    assert!(out.contains("BeforeTool[0][0]"), "{out}");
    assert!(!d.path().join("ran.txt").exists(), "a dry run ran the hook");
}

/// `hooks fire --from AGENT` of the agent's own `input` in the project `d`, the window
/// auto-approving (the project's hooks run), with the JSON report.
fn fire_from(agent: &str, d: &TestDir, home: &TestDir, input: &Value) -> std::process::Output {
    let config = home.path().to_str().expect("utf-8");
    let args = ["fire", "--from", agent, "--root", ".", "--config-dir", config];
    let args = [&args[..], &["--posture", "auto-approves", "--json"]].concat();
    hooks_in(d.path(), &args, &input.to_string())
}

/// A repository whose Claude Code `PostToolUse` and `PostToolUseFailure` hooks and Gemini CLI
/// `AfterTool` hook each write their input to a mark (`claude-post`, `claude-failure`,
/// `gemini-after`), with a home and the marks' folder.
fn post_tool_marks() -> (TestDir, TestDir, TestDir) {
    let (d, home, marks) = (TestDir::new(), TestDir::new(), TestDir::new());
    std::fs::create_dir_all(d.path().join(".git")).expect(".git");
    let mark = |name: &str| mark_command(&marks, name);
    let claude = serde_json::json!({"hooks": {
        "PostToolUse": [{"hooks": [{"type": "command", "command": mark("claude-post")}]}],
        "PostToolUseFailure": [{"hooks": [{"type": "command", "command": mark("claude-failure")}]}],
    }});
    d.write(".claude/settings.json", &claude.to_string());
    let gemini = serde_json::json!({"hooks": {"AfterTool": [{"hooks": [
        {"type": "command", "name": "after", "command": mark("gemini-after")}]}]}});
    d.write(".gemini/settings.json", &gemini.to_string());
    (d, home, marks)
}

/// A hook command that writes its input to the mark `name` in `marks`.
fn mark_command(marks: &TestDir, name: &str) -> String {
    format!("cat > '{}'", marks.path().join(name).display())
}

/// A tool failure runs each format's hooks as its own agent runs them (`specs/events.md`,
/// "What counts as a tool failure"): Gemini CLI has no failure event and runs its `AfterTool`
/// hooks for a failed tool; Claude Code runs `PostToolUseFailure` and not `PostToolUse`.
/// From Gemini CLI's own input for a failed read (recorded from 0.61.0) and from Claude Code's
/// (recorded from 2.1.328), the same three hooks: Claude Code's failure hook and Gemini CLI's
/// post-tool hook run, Claude Code's post-tool hook does not. Before, under Gemini CLI the
/// failure was a `post_tool_use` (Claude Code's post-tool hook ran, its failure hook did not),
/// and under Claude Code Gemini CLI's hook did not run.
#[test]
fn a_tool_failure_runs_each_format_s_hooks_as_its_own_agent_does() {
    let (d, home, marks) = post_tool_marks();
    let cwd = d.path().to_str().expect("utf-8");
    let inputs = [
        (
            "gemini",
            serde_json::json!({
            "cwd": cwd, "hook_event_name": "AfterTool", "session_id": "s",
            "timestamp": "2026-12-04T19:53:46.940Z",
            "tool_input": {"file_path": format!("{cwd}/no/such/file.txt")}, "tool_name": "read_file",
            "tool_response": {"error": {"message": "File not found", "type": "file_not_found"},
                "llmContent": "Could not read file because no file was found at the specified path.",
                "returnDisplay": "File not found."},
            "transcript_path": "/tmp/t.jsonl"}),
        ),
        (
            "claude",
            serde_json::json!({
            "cwd": cwd, "duration_ms": 8, "error": "File does not exist.",
            "hook_event_name": "PostToolUseFailure", "is_interrupt": false,
            "permission_mode": "default", "session_id": "s",
            "tool_input": {"file_path": format!("{cwd}/no/such/file.txt")}, "tool_name": "Read",
            "tool_use_id": "t", "transcript_path": "/tmp/t.jsonl"}),
        ),
    ];
    for (agent, input) in inputs {
        for f in ["claude-post", "claude-failure", "gemini-after"] {
            let _ = std::fs::remove_file(marks.path().join(f));
        }
        let o = fire_from(agent, &d, &home, &input);
        assert_eq!(o.status.code(), Some(0), "{agent}: {o:?}");
        let seen = |f: &str| std::fs::read_to_string(marks.path().join(f)).ok();
        let failure = seen("claude-failure").unwrap_or_else(|| panic!("{agent}: {o:?}"));
        let failure: Value = serde_json::from_str(&failure).expect("Claude Code's input");
        assert_eq!(failure["hook_event_name"], "PostToolUseFailure", "{agent}");
        assert!(failure["error"].as_str().is_some_and(|e| !e.is_empty()), "{agent}: {failure}");
        let after = seen("gemini-after").unwrap_or_else(|| panic!("{agent}: {o:?}"));
        let after: Value = serde_json::from_str(&after).expect("Gemini CLI's input");
        assert_eq!(after["hook_event_name"], "AfterTool", "{agent}");
        assert!(after["tool_response"]["error"]["message"].is_string(), "{agent}: {after}");
        assert_eq!(seen("claude-post"), None, "{agent}: Claude Code runs no PostToolUse here");
    }
}

/// A shell command that ran and exited non-zero runs each format's hooks as its own agent
/// does (`specs/events.md`, "A shell command's non-zero exit"): Claude Code takes it for a
/// failure of the tool (its `PostToolUseFailure` hooks run, with `error` "Exit code 3" and the
/// output, and not its `PostToolUse` hooks), Gemini CLI and Copilot CLI do not (their post-tool
/// hooks run, Copilot CLI's `postToolUseFailure` hooks do not). From each agent's own input for
/// `exit 3` (recorded from Claude Code 2.1.328, Gemini CLI 0.61.0 and Copilot CLI 1.0.102, which
/// behaved so themselves), the same hooks run. Before, under Claude Code the command was a
/// `tool_failure` (Copilot CLI's failure hook ran, its post-tool hook did not), and under Gemini
/// CLI and Copilot CLI a success (Claude Code's `PostToolUse` hook ran, its failure hook not).
#[test]
fn a_shell_command_s_non_zero_exit_runs_each_format_s_hooks_as_its_own_agent_does() {
    let (d, home, marks) = post_tool_marks();
    let mark = |name: &str| mark_command(&marks, name);
    let copilot = serde_json::json!({"version": 1, "hooks": {
        "postToolUse": [{"type": "command", "bash": mark("copilot-post")}],
        "postToolUseFailure": [{"type": "command", "bash": mark("copilot-failure")}],
    }});
    d.write(".github/hooks/marks.json", &copilot.to_string());
    let cwd = d.path().to_str().expect("utf-8");
    let command = "touch ran.txt; echo out; echo err >&2; exit 3";
    let inputs = [
        (
            "claude",
            serde_json::json!({
            "cwd": cwd, "duration_ms": 36, "error": "Exit code 3\nout\nerr",
            "hook_event_name": "PostToolUseFailure", "is_interrupt": false,
            "permission_mode": "default", "session_id": "s",
            "tool_input": {"command": command, "description": "Run the scripted command"},
            "tool_name": "Bash", "tool_use_id": "toolu_mock_01", "transcript_path": "/tmp/t.jsonl"}),
        ),
        (
            "gemini",
            serde_json::json!({
            "cwd": cwd, "hook_event_name": "AfterTool", "session_id": "s",
            "timestamp": "2026-12-05T12:23:51.032Z",
            "tool_input": {"command": command, "description": "Run the scripted command"},
            "tool_name": "run_shell_command",
            "tool_response": {
                "llmContent": "<untrusted_context>\nOutput: out\nerr\nExit Code: 3\nProcess Group PGID: 2649\n</untrusted_context>",
                "returnDisplay": "out\nerr"},
            "transcript_path": "/tmp/t.jsonl"}),
        ),
        (
            "copilot",
            serde_json::json!({
            "cwd": cwd, "sessionId": "s", "timestamp": 1796155950546_u64,
            "toolArgs": {"command": command, "description": "Run the scripted command"},
            "toolName": "bash",
            "toolResult": {"resultType": "success",
                "textResultForLlm": "out\nerr\n<shellId: 0 completed with exit code 3>"}}),
        ),
    ];
    let all = ["claude-post", "claude-failure", "gemini-after", "copilot-post", "copilot-failure"];
    for (agent, input) in inputs {
        for f in all {
            let _ = std::fs::remove_file(marks.path().join(f));
        }
        let o = if agent == "copilot" {
            // Copilot CLI names a camelCase input's event on the hook's command line only.
            let config = home.path().to_str().expect("utf-8");
            let args = ["fire", "postToolUse", "--from", agent, "--root", ".", "--config-dir"];
            let args = [&args[..], &[config, "--posture", "auto-approves", "--json"]].concat();
            hooks_in(d.path(), &args, &input.to_string())
        } else {
            fire_from(agent, &d, &home, &input)
        };
        assert_eq!(o.status.code(), Some(0), "{agent}: {o:?}");
        let seen = |f: &str| std::fs::read_to_string(marks.path().join(f)).ok();
        let ran: Vec<&str> = all.into_iter().filter(|f| seen(f).is_some()).collect();
        assert_eq!(ran, ["claude-failure", "gemini-after", "copilot-post"], "{agent}: {o:?}");
        let failure: Value =
            serde_json::from_str(&seen("claude-failure").unwrap_or_default()).expect("input");
        assert_eq!(failure["hook_event_name"], "PostToolUseFailure", "{agent}");
        assert_eq!(failure["tool_name"], "Bash", "{agent}");
        let error = failure["error"].as_str().unwrap_or_default();
        assert!(error.starts_with("Exit code 3\n"), "{agent}: {failure}");
        assert!(error.contains("out\nerr"), "{agent}: {failure}");
        // Each agent's hook reads the status where its agent puts it.
        let after: Value =
            serde_json::from_str(&seen("gemini-after").unwrap_or_default()).expect("input");
        let llm = after["tool_response"]["llmContent"].as_str().unwrap_or_default();
        assert!(llm.contains("Exit Code: 3"), "{agent}: {after}");
        let post: Value =
            serde_json::from_str(&seen("copilot-post").unwrap_or_default()).expect("input");
        let text = post["toolResult"]["textResultForLlm"].as_str().unwrap_or_default();
        assert!(text.ends_with("completed with exit code 3>"), "{agent}: {post}");
        assert_eq!(post["toolResult"]["resultType"], "success", "{agent}");
    }
}

/// Under Gemini CLI a hook's block of a failed tool's result still replaces it, as Gemini CLI
/// does: the failure is a `tool_failure` now, on which an output rewrite is honoured as on
/// `post_tool_use` (without that, decoding the failure so would have dropped the block).
#[test]
fn a_gemini_block_of_a_failed_tool_s_result_replaces_it() {
    let d = TestDir::new();
    let home = TestDir::new();
    std::fs::create_dir_all(d.path().join(".git")).expect(".git");
    d.script(
        ".gemini/hooks/block.sh",
        "#!/bin/sh\ncat >/dev/null\necho '{\"decision\": \"deny\", \"reason\": \"not shown\"}'\n",
    );
    let gemini = serde_json::json!({"hooks": {"AfterTool": [{"hooks": [{"type": "command",
        "name": "block", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/block.sh"}]}]}});
    d.write(".gemini/settings.json", &gemini.to_string());
    let cwd = d.path().to_str().expect("utf-8");
    let input = serde_json::json!({
        "cwd": cwd, "hook_event_name": "AfterTool", "session_id": "s",
        "tool_input": {"file_path": format!("{cwd}/missing.txt")}, "tool_name": "read_file",
        "tool_response": {"error": {"message": "File not found", "type": "file_not_found"},
            "llmContent": "Could not read file.", "returnDisplay": "File not found."}});
    let o = fire_from("gemini", &d, &home, &input);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    assert_eq!(v["runs"][0]["status"], "ran", "{o:?}");
    assert!(v["verdict"]["updated_output"].is_string(), "{v}");
}
