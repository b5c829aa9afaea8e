//! End to end: a repository's `.github/hooks/*.json` and hook scripts written the way Copilot
//! CLI's documentation writes them (read the JSON input on stdin, answer
//! `{"permissionDecision": "deny", "permissionDecisionReason": …}` or exit 2), parsed by
//! `hooks-format-copilot` and run as real processes by `hooks-dispatch`, and the same files
//! fired, listed, guarded, checked and watched through the `hooks` tool.

use std::path::Path;

use hooks_schema::{Binding, Decision, Envelope, HookEvent, ToolCall, ToolKind};
use serde_json::{Value, json};

use crate::{
    cli::{fire_auto_approved, hooks_in},
    support::{TestDir, WatchedRepo, fire_default, project_bindings},
};

/// The documented shape: version 1, camelCase events, `bash` entries with `timeoutSec`.
const POLICY: &str = r#"{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {
        "type": "command",
        "bash": "./.github/hooks/scripts/policy.py",
        "cwd": ".",
        "env": { "POLICY_LEVEL": "strict" },
        "timeoutSec": 10
      },
      {
        "type": "command",
        "matcher": "bash",
        "bash": ".github/hooks/scripts/no-network.sh"
      }
    ]
  }
}"#;

/// Denies `rm -rf` with JSON on stdout (exit 0), and records what it was given.
const POLICY_PY: &str = r#"#!/usr/bin/env python3
import json, os, sys
payload = json.load(sys.stdin)
root = os.environ["COPILOT_PROJECT_DIR"]
with open(os.path.join(root, "seen-input.json"), "w") as f:
    json.dump(payload, f)
with open(os.path.join(root, "seen-env.txt"), "w") as f:
    f.write("|".join([os.environ.get("COPILOT_HOOK_DIR", ""), os.environ.get("CLAUDE_PROJECT_DIR", ""), os.getcwd(), os.environ.get("POLICY_LEVEL", "")]))
args = payload.get("toolArgs") or {}
if payload.get("toolName") == "bash" and "rm -rf" in args.get("command", ""):
    print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "Destructive command blocked by policy"}))
sys.exit(0)
"#;

/// Blocks `curl` with exit code 2 (Copilot reads no stderr then).
const NO_NETWORK: &str = r#"#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *curl*) echo "Network access is not allowed" >&2; exit 2 ;;
esac
exit 0
"#;

/// A Claude Code style file in the same folder: PascalCase event, nested group, Claude tool
/// name; Copilot sends it the snake_case payload.
const PASCAL: &str = r#"{"version": 1, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "cat > \"$COPILOT_PROJECT_DIR/seen-pascal.json\""}
]}]}}"#;

fn project() -> TestDir {
    let d = TestDir::new();
    d.write(".github/hooks/policy.json", POLICY);
    d.write(".github/hooks/pascal.json", PASCAL);
    d.script(".github/hooks/scripts/policy.py", POLICY_PY);
    d.script(".github/hooks/scripts/no-network.sh", NO_NETWORK);
    d
}

fn bindings(d: &TestDir) -> Vec<Binding> {
    let mut out = Vec::new();
    for name in ["pascal.json", "policy.json"] {
        let path = d.path().join(".github/hooks").join(name);
        let bytes = std::fs::read(&path).expect("read the hook file");
        let parsed = hooks_format_copilot::parse(&bytes, &path).expect("accepted");
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        out.extend(project_bindings(
            hooks_format_copilot::PROJECT_HOOKS,
            &path,
            d.path(),
            parsed.definitions,
        ));
    }
    out
}

fn bash(cwd: &Path, command: &str) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("6a2c2e82-f1e1-45fd-ab8a-bbb6465a6d01".into());
    e.timestamp = Some("1796155950095".into());
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(ToolCall {
        name: "bash".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({"command": command, "description": "Run it"}),
    });
    e
}

#[tokio::test]
async fn a_documented_deny_blocks_and_each_hook_gets_its_dialects_payload() {
    let d = project();
    let b = bindings(&d);
    let root = hooks_registry::canonicalize(d.path()).expect("root");
    let report = fire_default(&b, &bash(root.as_path(), "rm -rf build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("Destructive command blocked by policy"));
    assert_eq!(
        report.verdict.decided_by.as_ref().map(|p| p.hook_id.to_string()).as_deref(),
        Some("preToolUse[0]")
    );
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(d.path().join(name)).expect(name)).expect("json")
    };
    let input = read("seen-input.json");
    assert_eq!(
        input,
        json!({"sessionId": "6a2c2e82-f1e1-45fd-ab8a-bbb6465a6d01", "timestamp": 1_796_155_950_095_i64,
               "cwd": root.as_path().display().to_string(), "toolName": "bash",
               "toolArgs": {"command": "rm -rf build", "description": "Run it"}})
    );
    let pascal = read("seen-pascal.json");
    assert_eq!(pascal["hook_event_name"], "PreToolUse");
    assert_eq!(pascal["tool_name"], "Bash");
    assert_eq!(pascal["tool_input"]["command"], "rm -rf build");
    assert_eq!(pascal["timestamp"], "2026-12-01T20:12:30.095Z");
    let env = std::fs::read_to_string(d.path().join("seen-env.txt")).expect("env");
    let dir = root.as_path().display().to_string();
    assert_eq!(env, format!("{dir}/.github/hooks|{dir}|{dir}|strict"));
}

#[tokio::test]
async fn exit_2_denies_with_copilots_reason_and_a_harmless_command_passes() {
    let d = project();
    let b = bindings(&d);
    let root = hooks_registry::canonicalize(d.path()).expect("root");
    let report = fire_default(&b, &bash(root.as_path(), "curl https://example.invalid")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
    assert_eq!(report.verdict.reason.as_deref(), Some(hooks_format_copilot::EXIT_2_REASON));
    let report = fire_default(&b, &bash(root.as_path(), "ls")).await;
    assert_eq!(report.verdict.decision, None, "{report:?}");
}

#[test]
fn the_hooks_tool_fires_lists_checks_and_guards_copilot_files() {
    let d = project();
    let cfg = TestDir::new();
    cfg.write(
        ".copilot/hooks/user.json",
        r#"{"version": 1, "hooks": {"agentStop": [{"bash": "true"}]}}"#,
    );
    // Copilot CLI 1.0.102 reads the user's folder with its subfolders too (session 22; the
    // engine read it one level deep before, and this file's deny did not run).
    cfg.write(
        ".copilot/hooks/mine/reboot.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"bash": "if grep -q reboot; then exit 2; fi"}]}}"#,
    );
    let cfgp = cfg.path().to_str().expect("utf-8");
    // Copilot CLI 1.0.102 reads `.github/hooks` with its subfolders.
    d.write(
        ".github/hooks/team/audit/extra.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"bash": "if grep -q shutdown; then exit 2; fi"}]}}"#,
    );
    let fire = |command: &str, extra: &[&str]| {
        let payload =
            json!({"tool": {"name": "bash", "kind": "shell", "args": {"command": command}}});
        fire_auto_approved(d.path(), cfgp, "preToolUse", &payload.to_string(), extra)
    };
    let deny = fire("rm -rf build", &["--json"]);
    let out = String::from_utf8_lossy(&deny.stdout).into_owned();
    assert_eq!(deny.status.code(), Some(2), "{out}{}", String::from_utf8_lossy(&deny.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["verdict"]["decision"], "deny", "{v}");
    assert_eq!(v["verdict"]["reason"], "Destructive command blocked by policy", "{v}");
    let blocked = fire("curl https://example.invalid", &[]);
    assert_eq!(blocked.status.code(), Some(2), "{}", String::from_utf8_lossy(&blocked.stdout));
    let nested = fire("shutdown now", &[]);
    assert_eq!(nested.status.code(), Some(2), "{}", String::from_utf8_lossy(&nested.stdout));
    let user_nested = fire("reboot", &[]);
    assert_eq!(
        user_nested.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&user_nested.stdout)
    );
    let allow = fire("ls", &[]);
    assert_eq!(allow.status.code(), Some(0), "{}", String::from_utf8_lossy(&allow.stdout));
    let dry = fire("ls", &["--dry-run"]);
    let dry = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        dry.contains("[project_copilot_hooks]") && dry.contains("matcher=bash: matches"),
        "{dry}"
    );

    let list = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp, "--json"], "");
    let inv: Value = serde_json::from_slice(&list.stdout).expect("json");
    let kinds: Vec<&str> = inv["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["kind"].as_str())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "project_copilot_hooks").count(),
        3,
        "each file of .github/hooks and its subfolders is its own source: {inv}"
    );
    assert_eq!(kinds.iter().filter(|k| **k == "user_copilot_hooks").count(), 2, "{inv}");

    let check = hooks_in(d.path(), &["check", "--json", ".github/hooks/policy.json"], "");
    let out = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&check.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["format"], "copilot", "{v}");
    assert_eq!(v["hooks"].as_array().map(Vec::len), Some(2), "{v}");
    let bad = d.write(".github/hooks/bad.json", r#"{"version": 2, "hooks": {}}"#);
    let check = hooks_in(d.path(), &["check", bad.to_str().expect("utf-8")], "");
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(out.contains("Invalid hook config version"), "{out}");
    std::fs::remove_file(&bad).expect("rm");

    let user = cfg.path().join(".copilot/hooks/user.json");
    let user = user.to_str().expect("utf-8");
    let guarded = [
        ".github/hooks/policy.json",
        ".github/hooks/scripts/no-network.sh",
        ".github/hooks/new.json",
        ".github/hooks/team/audit/extra.json",
        ".github/hooks/new-team/not-yet.json",
        ".github/copilot/settings.json",
        user,
    ];
    let args = [
        &["guard", "--root", ".", "--cwd", ".", "--config-dir", cfgp][..],
        &guarded,
        &["notes.txt"],
    ]
    .concat();
    let g = hooks_in(d.path(), &args, "");
    let out = String::from_utf8_lossy(&g.stdout).into_owned();
    for p in guarded {
        assert!(out.contains(&format!("{p}: protected")), "{p}: {out}");
    }
    assert!(out.contains("notes.txt: allowed"), "{out}");
}

/// The watcher sees a file appear in `.github/hooks` (the folder included), an edit, and a
/// second file, and the registry runs what they now say.
#[test]
fn the_watcher_loads_copilot_files_as_they_appear_and_change() {
    let repo = WatchedRepo::start(hooks_testing::copilot_formats());
    assert!(repo.running().is_empty());
    let file =
        |cmd: &str| json!({"version": 1, "hooks": {"preToolUse": [{"bash": cmd}]}}).to_string();
    repo.write(".github/hooks/a.json", &file("./first.sh"));
    repo.wait_for(&["./first.sh"]);
    repo.write(".github/hooks/b.json", &file("./second.sh"));
    repo.wait_for(&["./first.sh", "./second.sh"]);
    repo.write(".github/hooks/a.json", &file("./edited.sh"));
    repo.wait_for(&["./edited.sh", "./second.sh"]);
    std::fs::remove_file(repo.dir.path().join("repo/.github/hooks/b.json")).expect("rm");
    repo.wait_for(&["./edited.sh"]);
}

/// `disableAllHooks: true` in the repository's `.github/copilot/settings.json` switches the
/// repository's Copilot hooks off (the generic source policy, `SwitchRule::Hooks`); the same
/// key in a hook file skips only that file.
#[test]
fn disable_all_hooks_in_the_settings_file_switches_the_repositorys_hooks_off() {
    let d = project();
    let cfg = TestDir::new();
    let cfgp = cfg.path().to_str().expect("utf-8");
    let fire = || {
        let payload =
            json!({"tool": {"name": "bash", "kind": "shell", "args": {"command": "rm -rf build"}}});
        let args = [
            "fire",
            "preToolUse",
            "--root",
            ".",
            "--config-dir",
            cfgp,
            "--posture",
            "auto-approves",
            "--payload",
            "-",
            "--json",
        ];
        let o = hooks_in(d.path(), &args, &payload.to_string());
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let v: Value = serde_json::from_str(out.lines().next().unwrap_or("null"))
            .unwrap_or_else(|e| panic!("{e}: {out}{}", String::from_utf8_lossy(&o.stderr)));
        (o.status.code(), v)
    };
    assert_eq!(fire().0, Some(2), "the policy hook denies");
    // The user's settings file skips only its own hooks (observed with Copilot CLI 1.0.102;
    // before session 22 it switched the repository's off too).
    cfg.write(
        ".copilot/settings.json",
        r#"{"disableAllHooks": true, "hooks": {"preToolUse": [{"bash": "echo mine; exit 0"}]}}"#,
    );
    let (code, v) = fire();
    assert_eq!(code, Some(2), "the repository's hook still denies: {v}");
    std::fs::remove_file(cfg.path().join(".copilot/settings.json")).expect("rm");
    d.write(".github/copilot/settings.json", r#"{"disableAllHooks": true}"#);
    let (code, v) = fire();
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(0), "{v}");
    d.write(".github/copilot/settings.json", r#"{"disableAllHooks": false}"#);
    assert_eq!(fire().0, Some(2));
    // The personal `settings.local.json` wins over `settings.json`, both ways (observed with
    // Copilot CLI 1.0.102; before session 22 `settings.json` won).
    d.write(".github/copilot/settings.local.json", r#"{"disableAllHooks": true}"#);
    let (code, v) = fire();
    assert_eq!(code, Some(0), "the local file's true wins: {v}");
    d.write(".github/copilot/settings.json", r#"{"disableAllHooks": true}"#);
    d.write(".github/copilot/settings.local.json", r#"{"disableAllHooks": false}"#);
    let (code, v) = fire();
    assert_eq!(code, Some(2), "the local file's false wins: {v}");
    std::fs::remove_file(d.path().join(".github/copilot/settings.local.json")).expect("rm");
    std::fs::remove_file(d.path().join(".github/copilot/settings.json")).expect("rm");
    let policy = d.path().join(".github/hooks/policy.json");
    let text = std::fs::read_to_string(&policy).expect("read");
    std::fs::write(
        &policy,
        text.replacen("\"version\": 1,", "\"version\": 1, \"disableAllHooks\": true,", 1),
    )
    .expect("write");
    let (code, v) = fire();
    assert_eq!(code, Some(0), "the policy file skips itself: {v}");
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(1), "pascal.json still runs: {v}");
}
