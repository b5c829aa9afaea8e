//! End to end: a workspace's `.windsurf/hooks.json` and a hook script written the way
//! Windsurf's documentation writes them (read the action on stdin, exit 2 to block a `pre_`
//! action), parsed by `hooks-format-windsurf`, fired, listed, checked and guarded through the
//! `hooks` tool. No Windsurf build runs here: the payload is the documented shape.

use serde_json::{Value, json};

use crate::{
    cli::{fire_auto_approved, hooks_in},
    support::TestDir,
};

const HOOKS: &str = r#"{
  "hooks": {
    "pre_run_command": [
      { "command": "python3 .windsurf/hooks/block_rm.py", "show_output": true }
    ],
    "pre_read_code": [
      { "command": "cat > seen-read.json" }
    ]
  }
}"#;

/// Blocks `rm -rf` with exit code 2 and the reason on stderr, and records its input.
const BLOCK_RM: &str = r#"#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
with open("seen-input.json", "w") as f:
    json.dump(data, f)
if data.get("agent_action_name") == "pre_run_command" and "rm -rf" in data.get("tool_info", {}).get("command_line", ""):
    print("rm -rf is not allowed in this workspace", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;

#[test]
fn the_hooks_tool_fires_lists_checks_and_guards_windsurf_files() {
    let d = TestDir::new();
    d.write(".windsurf/hooks.json", HOOKS);
    d.script(".windsurf/hooks/block_rm.py", BLOCK_RM);
    let cfg = TestDir::new();
    cfg.write(
        ".codeium/windsurf/hooks.json",
        r#"{"hooks": {"post_cascade_response": [{"command": "true"}]}}"#,
    );
    let cfgp = cfg.path().to_str().expect("utf-8");
    let fire = |kind: &str, args: Value, extra: &[&str]| {
        let payload = json!({"tool": {"name": "run_command", "kind": kind, "args": args}});
        fire_auto_approved(d.path(), cfgp, "pre_tool_use", &payload.to_string(), extra)
    };
    let deny = fire("shell", json!({"command": "rm -rf build"}), &["--json"]);
    let out = String::from_utf8_lossy(&deny.stdout).into_owned();
    assert_eq!(deny.status.code(), Some(2), "{out}{}", String::from_utf8_lossy(&deny.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["verdict"]["decision"], "deny", "{v}");
    assert_eq!(v["verdict"]["reason"], "rm -rf is not allowed in this workspace", "{v}");
    assert_eq!(v["verdict"]["decided_by"]["hook_id"], "pre_run_command[0]", "{v}");
    let input: Value =
        serde_json::from_slice(&std::fs::read(d.path().join("seen-input.json")).expect("input"))
            .expect("json");
    assert_eq!(input["agent_action_name"], "pre_run_command");
    assert_eq!(input["tool_info"]["command_line"], "rm -rf build");
    let allow = fire("shell", json!({"command": "ls"}), &[]);
    assert_eq!(allow.status.code(), Some(0), "{}", String::from_utf8_lossy(&allow.stdout));
    // A file read fires the read hook only, with Windsurf's `tool_info`.
    let read = fire("file_read", json!({"file_path": "src/main.rs"}), &[]);
    assert_eq!(read.status.code(), Some(0), "{}", String::from_utf8_lossy(&read.stdout));
    let seen: Value = serde_json::from_slice(
        &std::fs::read(d.path().join("seen-read.json")).expect("read input"),
    )
    .expect("json");
    assert_eq!(seen["tool_info"], json!({"file_path": "src/main.rs"}));
    let dry = fire("shell", json!({"command": "ls"}), &["--dry-run"]);
    let dry = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(dry.contains("[project_windsurf_hooks]"), "{dry}");

    let list = hooks_in(d.path(), &["list", "--root", ".", "--config-dir", cfgp, "--json"], "");
    let inv: Value = serde_json::from_slice(&list.stdout).expect("json");
    let kinds: Vec<&str> = inv["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"project_windsurf_hooks") && kinds.contains(&"user_windsurf_hooks"),
        "{inv}"
    );

    let check = hooks_in(d.path(), &["check", "--json", ".windsurf/hooks.json"], "");
    let out = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&check.stderr));
    let v: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert_eq!(v["format"], "windsurf", "{v}");

    let user = cfg.path().join(".codeium/windsurf/hooks.json");
    let user = user.to_str().expect("utf-8");
    let guarded = [".windsurf/hooks.json", ".windsurf/hooks/block_rm.py", user];
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
    // A workspace without the file: creating it would add hooks, so it is protected too.
    let empty = TestDir::new();
    let g = hooks_in(
        empty.path(),
        &["guard", "--root", ".", "--cwd", ".", "--config-dir", cfgp, ".windsurf/hooks.json"],
        "",
    );
    assert!(
        String::from_utf8_lossy(&g.stdout).contains(".windsurf/hooks.json: protected"),
        "{}",
        String::from_utf8_lossy(&g.stdout)
    );
}

/// The watcher loads a workspace's `.windsurf/hooks.json` when it appears, follows an edit
/// and drops it when it is removed.
#[test]
fn the_watcher_loads_windsurf_hooks_as_they_appear_and_change() {
    use std::time::{Duration, Instant};

    use hooks_registry::{RegistryHandle, canonicalize};
    use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
    use hooks_watcher::{HookConfigWatcher, WatcherConfig};

    let formats = hooks_schema::FormatSet::new(vec![hooks_format_windsurf::descriptor()]);
    let registry = RegistryHandle::default();
    let mut config = WatcherConfig::new(Surface::CliRun, formats)
        .with_debounce_window(Duration::from_millis(50));
    config.trust_inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    let watcher =
        HookConfigWatcher::new(registry.clone(), std::sync::Arc::new(StaticTrustPolicy), config)
            .expect("start the watcher");
    let events = watcher.subscribe();
    let dir = TestDir::new();
    dir.write("repo/README", "");
    let root = canonicalize(&dir.path().join("repo")).expect("canonical root");
    let limit = Duration::from_secs(20);
    watcher.add_root(root.as_path()).wait_timeout(limit).expect("in time").expect("attached");
    let running = || -> Vec<String> {
        registry
            .snapshot()
            .bindings_for(root.as_path())
            .iter()
            .map(|b| match &b.definition.command {
                hooks_schema::HookCommand::Shell { script, .. } => script.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    };
    let wait_for = |want: &[&str]| {
        let deadline = Instant::now() + limit;
        while running() != want {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Err(e) = events.recv_timeout(left) {
                panic!("waiting for {want:?}: {e}; running {:?}", running());
            }
        }
    };
    let hooks = |cmd: &str| json!({"hooks": {"pre_run_command": [{"command": cmd}]}}).to_string();
    assert!(running().is_empty());
    dir.write("repo/.windsurf/hooks.json", &hooks("./first.sh"));
    wait_for(&["./first.sh"]);
    dir.write("repo/.windsurf/hooks.json", &hooks("./second.sh"));
    wait_for(&["./second.sh"]);
    std::fs::remove_file(dir.path().join("repo/.windsurf/hooks.json")).expect("rm");
    wait_for(&[]);
}
