//! End to end: Codex hook files and hook scripts written the way Codex's documentation writes
//! them, parsed by `hooks-format-codex` and run by `hooks-dispatch` as real processes, with
//! Codex's decisions and quirks.

use std::path::Path;

use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext, FireReport};
use hooks_schema::{Binding, Decision, Envelope, HookEvent, HookSourceKind, ToolCall, ToolKind};
use serde_json::json;

use crate::support::{TestDir, WatchedRepo, project_bindings};

/// The documentation's example: a Python hook that reads the input on stdin and denies
/// destructive commands with `permissionDecision: "deny"`.
const BLOCK_RM: &str = r#"#!/usr/bin/env python3
import json
import sys

payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
if payload.get("tool_name") == "Bash" and "rm -rf" in command:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Destructive command blocked by hook.",
        }
    }))
sys.exit(0)
"#;

fn load(dir: &TestDir, rel: &str, kind: HookSourceKind, text: &str) -> Vec<Binding> {
    let path = dir.write(rel, text);
    let bytes = std::fs::read(&path).expect("read the hook file");
    let parsed = hooks_format_codex::parse(&bytes, &path, kind).expect("accepted");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    project_bindings(kind, &path, dir.path(), parsed.definitions)
}

fn bash(cwd: &Path, command: &str) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("01a2333b-8442-7691-9c5a-d34210aaf051".into());
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(ToolCall {
        name: "exec_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("call_1".into()),
        mcp_server: None,
        args: json!({ "command": command }),
    });
    e
}

async fn fire(bindings: &[Binding], envelope: &Envelope, cfg: DispatchConfig) -> FireReport {
    Dispatcher::new(cfg).fire(bindings, envelope, &FireContext::default()).await
}

#[tokio::test]
async fn the_documented_python_hook_denies_rm_rf_and_lets_the_rest_run() {
    let dir = TestDir::new();
    dir.script(".codex/hooks/block_rm.py", BLOCK_RM);
    let bindings = load(
        &dir,
        ".codex/hooks.json",
        hooks_format_codex::PROJECT_HOOKS,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 .codex/hooks/block_rm.py", "statusMessage": "Checking command"}
        ]}]}}"#,
    );
    let report =
        fire(&bindings, &bash(dir.path(), "rm -rf build"), DispatchConfig::default()).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("Destructive command blocked by hook."));
    let report = fire(&bindings, &bash(dir.path(), "ls -la"), DispatchConfig::default()).await;
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    assert!(report.runs[0].verdict.as_ref().is_some_and(|v| v.failure.is_none()), "{report:#?}");
}

#[tokio::test]
async fn exit_2_denies_and_the_answers_codex_ignores_let_the_tool_run() {
    let dir = TestDir::new();
    let bindings = load(
        &dir,
        ".codex/hooks.json",
        hooks_format_codex::PROJECT_HOOKS,
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "case \"$(cat)\" in *exit2*) echo 'no, via exit 2' >&2; exit 2;; esac"}]},
            {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "case \"$(cat)\" in *extra*) printf '%s' '{\"extra\":1,\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"x\"}}';; *empty*) echo >&2; exit 2;; *ask*) printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}';; esac"}]}
        ]}}"#,
    );
    let report = fire(&bindings, &bash(dir.path(), "echo exit2"), DispatchConfig::default()).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("no, via exit 2"));
    for quirk in ["extra", "empty", "ask"] {
        let report =
            fire(&bindings, &bash(dir.path(), &format!("echo {quirk}")), DispatchConfig::default())
                .await;
        assert_eq!(report.verdict.decision, None, "{quirk}: {report:#?}");
        let failed =
            report.runs.iter().filter_map(|r| r.verdict.as_ref()).any(|v| v.failure.is_some());
        assert!(failed, "{quirk}: Codex marks the hook failed: {report:#?}");
    }
}

/// Codex starts every matching hook of an event at once, from every file: each of these two
/// hooks (one in the project's `hooks.json`, one in the user's `config.toml`) waits for the
/// other to have started, so they only both finish when they ran concurrently.
#[tokio::test]
async fn matching_hooks_of_several_files_all_run_concurrently() {
    let dir = TestDir::new();
    let wait_for = |me: &str, other: &str| {
        format!(
            "cat >/dev/null; touch {me}.started; i=0; while [ ! -e {other}.started ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; [ -e {other}.started ] && echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"{me} saw {other}\"}}}}'"
        )
    };
    let mut bindings = load(
        &dir,
        ".codex/hooks.json",
        hooks_format_codex::PROJECT_HOOKS,
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": wait_for("a", "b")}]}]}})
            .to_string(),
    );
    bindings.extend(load(
        &dir,
        "home/.codex/config.toml",
        hooks_format_codex::USER_CONFIG,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Edit|Write|Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = '''{}'''\n",
            wait_for("b", "a")
        ),
    ));
    assert_eq!(bindings.len(), 2);
    let cfg = DispatchConfig {
        parallel_gated_formats: vec![hooks_format_codex::FORMAT],
        ..DispatchConfig::default()
    };
    let report = fire(&bindings, &bash(dir.path(), "ls"), cfg).await;
    let context: Vec<&str> = report.verdict.context.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(context, ["a saw b", "b saw a"], "{report:#?}");
}

#[tokio::test]
async fn stop_and_prompt_hooks_speak_codexs_protocol() {
    let dir = TestDir::new();
    let bindings = load(
        &dir,
        ".codex/hooks.json",
        hooks_format_codex::PROJECT_HOOKS,
        r#"{"hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo 'Repository rule: run the tests first.'"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "grep -q '\"stop_hook_active\":false' && echo '{\"decision\":\"block\",\"reason\":\"Run the tests before stopping.\"}'; exit 0"}]}]
        }}"#,
    );
    let mut prompt = Envelope::new(HookEvent::PromptSubmit);
    prompt.cwd = Some(dir.path().to_path_buf());
    prompt.prompt = Some(hooks_schema::Prompt { text: "hi".into(), ..Default::default() });
    let report = fire(&bindings, &prompt, DispatchConfig::default()).await;
    assert_eq!(report.verdict.context.len(), 1, "{report:#?}");
    assert_eq!(report.verdict.context[0].1, "Repository rule: run the tests first.");
    let mut stop = Envelope::new(HookEvent::Stop);
    stop.cwd = Some(dir.path().to_path_buf());
    let report = fire(&bindings, &stop, DispatchConfig::default()).await;
    assert_eq!(report.verdict.followups.len(), 1, "{report:#?}");
    assert_eq!(report.verdict.followups[0].1, "Run the tests before stopping.");
}

#[test]
fn hooks_check_reads_codex_files_with_codexs_rules() {
    use crate::cli::hooks_in;
    let dir = TestDir::new();
    dir.write(
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/block_rm.py"}]}],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye", "timeout": 30}]}]}}"#,
    );
    dir.write(".codex/config.toml", "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo stop\"\ntimeout = \"5\"\n");
    dir.write("schema.json", r#"{"$schema": "x", "hooks": {}}"#);
    let ok = hooks_in(dir.path(), &["check", "--json", ".codex/hooks.json"], "");
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let line: serde_json::Value = serde_json::from_slice(&ok.stdout).expect("one json line");
    assert_eq!(line["format"], "codex", "{line}");
    let text = line.to_string();
    assert!(text.contains("PreToolUse[0][0]"), "{text}");
    assert!(text.contains("clamping SessionEnd hook timeout to 3s"), "{text}");
    let bad = hooks_in(dir.path(), &["check", ".codex/config.toml"], "");
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&bad.stdout).contains("config.toml:1:3"),
        "{}",
        String::from_utf8_lossy(&bad.stdout)
    );
    let forced = hooks_in(dir.path(), &["check", "--format", "codex", "schema.json"], "");
    assert_eq!(forced.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&forced.stdout).contains("unknown field `$schema`"),
        "{}",
        String::from_utf8_lossy(&forced.stdout)
    );
}

/// The `hooks` tool on a repository that carries the documented Codex hook: `fire` runs it as
/// a real process and answers with its decision, `list` shows the Codex sources of both
/// scopes, `fire --dry-run` explains the binding, and the guard protects Codex's files and
/// the script, including a `config.toml` that does not exist yet.
#[test]
fn the_hooks_tool_fires_lists_and_guards_codex_files() {
    let d = TestDir::new();
    d.script(".codex/hooks/block_rm.py", BLOCK_RM);
    d.write(
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 .codex/hooks/block_rm.py", "statusMessage": "Checking command"}
        ]}]}}"#,
    );
    let cfg = TestDir::new();
    cfg.write(
        ".codex/config.toml",
        "model = \"gpt-5.5\"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n",
    );
    let cfgp = cfg.path().to_str().expect("utf-8");
    // Codex reviews every user and project hook before it runs it, and so does the engine:
    // the user trusts them first (their own trust store, in `state`).
    let state = TestDir::new();
    let hooks_in = |cwd: &std::path::Path, args: &[&str], stdin: &str| {
        crate::cli::hooks_in_state(cwd, args, stdin, state.path())
    };
    let untrusted = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp], "");
    assert!(
        String::from_utf8_lossy(&untrusted.stdout).contains("has not been trusted"),
        "{}",
        String::from_utf8_lossy(&untrusted.stdout)
    );
    let trusted = hooks_in(d.path(), &["trust", "--yes", "--root", ".", "--config-dir", cfgp], "");
    assert_eq!(trusted.status.code(), Some(0), "{}", String::from_utf8_lossy(&trusted.stdout));
    let fire = |command: &str, extra: &[&str]| {
        let payload = json!({"tool": {"name": "exec_command", "kind": "shell", "args": {"command": command}}});
        hooks_in(d.path(), &crate::cli::fire_args("PreToolUse", cfgp, extra), &payload.to_string())
    };
    let deny = fire("rm -rf build", &["--json"]);
    assert_eq!(
        deny.status.code(),
        Some(2),
        "{}{}",
        String::from_utf8_lossy(&deny.stdout),
        String::from_utf8_lossy(&deny.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&deny.stdout).expect("json");
    assert_eq!(v["verdict"]["decision"], "deny", "{v}");
    assert_eq!(v["verdict"]["reason"], "Destructive command blocked by hook.");
    assert_eq!(v["verdict"]["decided_by"]["hook_id"], "PreToolUse[0][0]");
    let allow = fire("ls", &[]);
    assert_eq!(allow.status.code(), Some(0), "{}", String::from_utf8_lossy(&allow.stdout));
    let dry = fire("ls", &["--dry-run"]);
    let dry = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        dry.contains("[project_codex_hooks]") && dry.contains("matcher=Bash: matches"),
        "{dry}"
    );

    let list = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp, "--json"], "");
    let inv: serde_json::Value = serde_json::from_slice(&list.stdout).expect("json");
    let kinds: Vec<&str> = inv["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"project_codex_hooks") && kinds.contains(&"user_codex_config"),
        "{inv}"
    );

    let guarded = [".codex/hooks.json", ".codex/config.toml", ".codex/hooks/block_rm.py"];
    let user_hooks = cfg.path().join(".codex/hooks.json");
    let user_hooks = user_hooks.to_str().expect("utf-8");
    let args = [
        &["guard", "--root", ".", "--cwd", ".", "--config-dir", cfgp][..],
        &guarded,
        &[user_hooks, "notes.txt"],
    ]
    .concat();
    let g = hooks_in(d.path(), &args, "");
    let out = String::from_utf8_lossy(&g.stdout).into_owned();
    for p in guarded.iter().chain(&[user_hooks]) {
        assert!(out.contains(&format!("{p}: protected")), "{p}: {out}");
    }
    assert!(out.contains("notes.txt: allowed"), "{out}");
}

/// The watcher sees Codex's files appear under a watched repository (the `.codex` folder
/// included) and edits of either spelling, and the registry runs what they now say.
#[test]
fn the_watcher_loads_codex_files_as_they_appear_and_change() {
    let repo =
        WatchedRepo::start(hooks_schema::FormatSet::new(vec![hooks_format_codex::descriptor()]));
    assert!(repo.running().is_empty());
    repo.write(
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./first.sh"}]}]}}"#,
    );
    repo.wait_for(&["./first.sh"]);
    repo.write(
        ".codex/config.toml",
        "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./second.sh\"\n",
    );
    repo.wait_for(&["./first.sh", "./second.sh"]);
    repo.write(".codex/hooks.json", r#"{"hooks": {}}"#);
    repo.wait_for(&["./second.sh"]);
}

/// Through the `hooks` tool: the runtime runs Codex's hooks of one gated event concurrently,
/// as Codex does (the descriptor's `concurrent_gated_hooks`), so two hooks of two files that
/// each wait for the other to have started both finish, and a deny of one does not keep the
/// other from running.
#[test]
fn the_runtime_runs_codex_hooks_of_one_event_concurrently() {
    let d = TestDir::new();
    let wait_for = |me: &str, other: &str, answer: &str| {
        format!(
            "cat >/dev/null; touch {me}.started; i=0; while [ ! -e {other}.started ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; [ -e {other}.started ] && {answer}"
        )
    };
    let deny = r#"printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a saw b and denies"}}'"#;
    d.write(
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": wait_for("a", "b", deny)}]}]}})
            .to_string(),
    );
    d.write(
        ".codex/config.toml",
        &format!(
            "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = '''{}'''\n",
            wait_for("b", "a", "touch b.finished")
        ),
    );
    let cfg = TestDir::new();
    // Both files are Codex's, which reviews them: the user trusts them first.
    let state = TestDir::new();
    let hooks_in = |cwd: &std::path::Path, args: &[&str], stdin: &str| {
        crate::cli::hooks_in_state(cwd, args, stdin, state.path())
    };
    let cfgp = cfg.path().to_str().expect("utf-8");
    let trusted = hooks_in(d.path(), &["trust", "--yes", "--root", ".", "--config-dir", cfgp], "");
    assert_eq!(trusted.status.code(), Some(0), "{}", String::from_utf8_lossy(&trusted.stdout));
    let payload =
        json!({"tool": {"name": "exec_command", "kind": "shell", "args": {"command": "ls"}}});
    let o = hooks_in(
        d.path(),
        &[
            "fire",
            "PreToolUse",
            "--root",
            ".",
            "--config-dir",
            cfg.path().to_str().expect("utf-8"),
            "--posture",
            "auto-approves",
            "--payload",
            "-",
            "--json",
        ],
        &payload.to_string(),
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["verdict"]["reason"], "a saw b and denies", "{v}");
    assert!(d.path().join("b.finished").exists(), "the other hook ran to its end: {v}");
}

/// Codex's `[features].hooks = false` switches Codex's hooks off through the engine's source
/// policy (`specs/formats/codex.md`, "requirements and switches"): the user's `config.toml`
/// keeps a repository's deny hook from running (`hooks list` says why), and the repository's
/// own `config.toml` with `hooks = true` outranks the user's `false`.
#[test]
fn features_hooks_false_in_the_users_config_switches_codex_hooks_off() {
    let d = TestDir::new();
    d.script(".codex/hooks/block_rm.py", BLOCK_RM);
    d.write(
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 .codex/hooks/block_rm.py"}
        ]}]}}"#,
    );
    let cfg = TestDir::new();
    let cfgp = cfg.path().to_str().expect("utf-8");
    // Codex reviews the repository's hook first, and so does the engine: trusted once here.
    let state = TestDir::new();
    let hooks_in = |cwd: &std::path::Path, args: &[&str], stdin: &str| {
        crate::cli::hooks_in_state(cwd, args, stdin, state.path())
    };
    let fire = || {
        let payload = json!({"tool": {"name": "exec_command", "kind": "shell", "args": {"command": "rm -rf build"}}});
        let args = [
            "fire",
            "PreToolUse",
            "--root",
            ".",
            "--config-dir",
            cfgp,
            "--posture",
            "auto-approves",
            "--payload",
            "-",
        ];
        let o = hooks_in(d.path(), &args, &payload.to_string());
        let text =
            format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        (o.status.code(), text)
    };
    let (code, out) = fire();
    assert_eq!(code, Some(0), "not reviewed yet, the hook is inert: {out}");
    let trusted = hooks_in(d.path(), &["trust", "--yes", "--root", ".", "--config-dir", cfgp], "");
    assert_eq!(trusted.status.code(), Some(0), "{}", String::from_utf8_lossy(&trusted.stdout));
    let (code, out) = fire();
    assert_eq!(code, Some(2), "the hook runs without a switch: {out}");

    cfg.write(".codex/config.toml", "[features]\nhooks = false\n");
    let (code, out) = fire();
    assert_eq!(code, Some(0), "the user's false: {out}");
    let list = hooks_in(
        d.path(),
        &["list", "--root", ".", "--config-dir", cfgp, "--posture", "auto-approves", "--json"],
        "",
    );
    let inv: serde_json::Value = serde_json::from_slice(&list.stdout).expect("json");
    let project = inv["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .find(|s| s["kind"] == "project_codex_hooks")
        .unwrap_or_else(|| panic!("no project_codex_hooks: {inv}"));
    assert_eq!(project["runs"], false, "{project}");
    assert!(project.to_string().contains("disabled by features.hooks in "), "{project}");

    d.write(".codex/config.toml", "[features]\nhooks = true\n");
    let (code, out) = fire();
    assert_eq!(code, Some(2), "the repository's true outranks the user's false: {out}");
}

/// A hook the user turned off in Codex (`enabled = false` under its key in `[hooks.state]`)
/// is skipped alone, as Codex skips it: the rest of its file, reviewed in Codex, runs. Before,
/// the disabled hook made the whole file "not reviewed" (inert), and had the file been trusted
/// with `hooks trust`, the hook the user disabled would have run. A hook is excused from review
/// only where the file that disables it surely runs: when the user's `config.toml` has hooks of
/// its own that are not reviewed, the file stays inert.
#[test]
fn a_hook_disabled_in_codex_is_skipped_alone_and_the_rest_of_its_file_runs() {
    let home = TestDir::new();
    let project = TestDir::new();
    let dir = project.path().display();
    let text = format!(
        r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[
        {{"type":"command","command":"touch '{dir}/first-ran'"}},
        {{"type":"command","command":"touch '{dir}/second-ran'; echo second says no >&2; exit 2"}}
    ]}}]}}}}"#
    );
    let text = text.as_str();
    home.write(".codex/hooks.json", text);
    let codex = home.path().join(".codex");
    let env =
        [("HOME", home.path()), ("CODEX_HOME", codex.as_path()), ("XDG_STATE_HOME", home.path())];
    let entries = hooks_format_codex::hook_entries(
        text.as_bytes(),
        &hooks_registry::canonicalize(&codex).expect("canonical").as_path().join("hooks.json"),
        hooks_format_codex::USER_HOOKS,
    )
    .expect("accepted");
    assert_eq!(entries.len(), 2);
    let state = format!(
        "[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n[hooks.state.\"{}\"]\nenabled = false\n",
        entries[0].key, entries[0].hash, entries[1].key
    );
    let fire = || {
        for f in ["first-ran", "second-ran"] {
            let _ = std::fs::remove_file(project.path().join(f));
        }
        let payload =
            json!({"tool": {"name": "exec_command", "kind": "shell", "args": {"command": "ls"}}});
        let args = ["fire", "PreToolUse", "--payload", "-"];
        let o = crate::cli::hooks_in_env(project.path(), &args, &payload.to_string(), &env);
        let out =
            format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        let ran = |f: &str| project.path().join(f).exists();
        (o.status.code(), ran("first-ran"), ran("second-ran"), out)
    };
    home.write(".codex/config.toml", &state);
    let (code, first, second, out) = fire();
    assert_eq!((code, first, second), (Some(0), true, false), "{out}");
    let list = crate::cli::hooks_in_env(project.path(), &["list"], "", &env);
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(list.contains("does not run: disabled by [hooks.state] enabled = false in "), "{list}");

    // The user's config.toml runs hooks of its own that Codex has not reviewed: it is inert,
    // so it switches nothing off, and the disabled hook is not excused from review.
    let own = "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo own\"\n";
    home.write(".codex/config.toml", &format!("{own}{state}"));
    let (code, first, second, out) = fire();
    assert_eq!((code, first, second), (Some(0), false, false), "{out}");
}
