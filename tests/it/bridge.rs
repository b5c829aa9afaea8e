//! `hooks bridge` driven as a process, the way an agent runs it: the agent's hook input on
//! stdin, the answer on stdout in the agent's protocol, exit code 0 in every case the
//! protocol does not need another.

use std::path::Path;

use serde_json::{Value, json};

use crate::{
    cli::{hooks_in_env, hooks_in_state_env},
    support::TestDir,
};

/// A user with a Cursor hook that denies `rm -rf`, and a repository.
fn setup() -> (TestDir, TestDir) {
    let home = TestDir::new();
    home.script(
        ".cursor/no-rm.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\",\"agent_message\":\"no rm -rf\"}' ;; esac\n",
    );
    home.write(
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"./no-rm.sh"}]}}"#,
    );
    let repo = TestDir::new();
    std::fs::create_dir(repo.path().join(".git")).expect(".git");
    (home, repo)
}

fn claude_bash(repo: &TestDir, command: &str) -> String {
    json!({
        "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t",
    })
    .to_string()
}

/// Whether the bridge, hosted by Claude Code with `home`, denies a `Write` of `file` (relative
/// to `repo`).
fn claude_write_denied(home: &TestDir, repo: &TestDir, file: &str) -> bool {
    let config = home.path().to_str().expect("utf-8");
    let args = ["bridge", "--host", "claude", "--config-dir", config];
    let write = json!({
        "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": repo.path().join(file), "content": "x"},
        "tool_use_id": "t",
    });
    let out = hooks_in_env(repo.path(), &args, &write.to_string(), &[("HOME", home.path())]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    v["hookSpecificOutput"]["permissionDecision"] == "deny"
}

#[test]
fn the_bridge_answers_claude_code_in_its_protocol() {
    let (home, repo) = setup();
    let env = [("HOME", home.path())];
    let args = ["bridge", "--host", "claude", "--config-dir", home.path().to_str().expect("utf-8")];
    let out = hooks_in_env(repo.path(), &args, &claude_bash(&repo, "rm -rf build"), &env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"].as_str().expect("reason");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(reason.starts_with("no rm -rf (hook beforeShellExecution[0], "), "{reason}");
    assert!(reason.ends_with(".cursor/hooks.json:1)"), "{reason}");

    let out = hooks_in_env(repo.path(), &args, &claude_bash(&repo, "ls"), &env);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0), "{out:?}");

    // The agent's file tool may not rewrite the hook file.
    let write = json!({
        "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": "~/.cursor/hooks.json", "content": "{}"},
    });
    let out = hooks_in_env(repo.path(), &args, &write.to_string(), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
}

/// `hooks bridge` answers and then leaves its engine to its exit, whose pool threads die
/// with it: a user's Chrys hook's payload and result files (the payload holds the tool's
/// input) are deleted all the same, none is left in the engine's folder.
#[test]
fn the_bridge_leaves_no_provided_file_behind() {
    let (home, repo) = setup();
    home.write(
        ".chrys/hooks/hooks.yaml",
        "version: 1\nhooks:\n  - id: no-rm\n    event: before_tool_call\n    run: {type: script, path: block.sh}\n    execution: {mode: blocking}\n",
    );
    home.script(
        ".chrys/hooks/block.sh",
        "#!/bin/sh\ncat \"$CHRYS_HOOK_PAYLOAD_FILE\" > /dev/null\nprintf '{\"action\": \"block\", \"reason\": \"chrys says no\"}' > \"$CHRYS_HOOK_RESULT\"\n",
    );
    let state = TestDir::new();
    let env = [("HOME", home.path())];
    let args = ["bridge", "--host", "claude", "--config-dir", home.path().to_str().expect("utf-8")];
    for _ in 0..8 {
        let out =
            hooks_in_state_env(repo.path(), &args, &claude_bash(&repo, "ls"), state.path(), &env);
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
        let reason = v["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap_or("");
        assert!(reason.contains("chrys says no"), "the result file is read: {v}");
    }
    let tmp = state.path().join("agent-hooks/tmp");
    assert!(tmp.is_dir(), "the files are made under the engine's folder");
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("read").flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn bad_input_never_blocks_the_agent() {
    let (home, repo) = setup();
    let env = [("HOME", home.path())];
    for host in ["claude", "codex", "gemini", "cursor", "nope"] {
        let out = hooks_in_env(repo.path(), &["bridge", "--host", host], "{not json", &env);
        assert_eq!(out.status.code(), Some(0), "{host}: {out:?}");
        assert!(out.stdout.is_empty(), "{host}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("hooks bridge: "), "{out:?}");
    }
}

/// Claude Code's `PreToolUse` of `rm -rf build` in `repo` for `session`, through the bridge
/// with `config` and `env`: the decision it answers, if any, and its system message.
fn claude_rm_rf(
    repo: &TestDir,
    config: &[&str],
    env: &[(&str, &std::path::Path)],
    session: &str,
) -> (Option<String>, String) {
    let input = json!({
        "session_id": session, "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"},
    });
    let args = [&["bridge", "--host", "claude"][..], config].concat();
    let out = hooks_in_env(repo.path(), &args, &input.to_string(), env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let message = v["systemMessage"].as_str().unwrap_or_default().to_owned();
    (v["hookSpecificOutput"]["permissionDecision"].as_str().map(str::to_owned), message)
}

/// `hooks trust --yes` with `config`, run in `dir` with `env`, which must succeed; its output.
fn trust_yes(dir: &Path, config: &[&str], env: &[(&str, &Path)]) -> std::process::Output {
    let out = hooks_in_env(dir, &[&["trust", "--yes"][..], config].concat(), "", env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    out
}

/// A repository's Cursor hook runs under the bridge only once the user trusted it with
/// `hooks trust`, and a change to it (in a new session) makes it inert again.
#[test]
fn a_project_file_runs_once_trusted_and_not_after_it_changed() {
    let (home, repo) = setup();
    std::fs::remove_file(home.path().join(".cursor/hooks.json")).expect("no user hook");
    let state = TestDir::new();
    let env = [("HOME", home.path()), ("XDG_STATE_HOME", state.path())];
    let script = "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\",\"agent_message\":\"repo says no\"}' ;; esac\n";
    let path = repo.path().join(".cursor/no-rm.sh");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, script).expect("script");
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let hooks =
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/no-rm.sh"}]}}"#;
    std::fs::write(repo.path().join(".cursor/hooks.json"), hooks).expect("hooks.json");
    let config = ["--config-dir", home.path().to_str().expect("utf-8")];
    let told = std::cell::Cell::new(false);
    let bridge = |session: &str| {
        let (decision, message) = claude_rm_rf(&repo, &config, &env, session);
        told.set(message.contains("run `hooks trust`"));
        decision
    };
    assert_eq!(bridge("before-trust"), None, "not trusted yet: inert");
    assert!(told.get(), "Claude Code is told, in a system message, to run `hooks trust`");
    trust_yes(repo.path(), &config, &env);
    assert_eq!(bridge("after-trust").as_deref(), Some("deny"));
    // The session that pinned before the trust keeps its pin.
    assert_eq!(bridge("before-trust"), None);
    // Changed outside the agent: inert again for a new session, until trusted again.
    std::fs::write(repo.path().join(".cursor/hooks.json"), format!("{hooks}\n")).expect("edit");
    assert_eq!(bridge("after-change"), None);
    assert_eq!(bridge("after-trust").as_deref(), Some("deny"), "pinned as trusted");
    trust_yes(repo.path(), &config, &env);
    assert_eq!(bridge("trusted-again").as_deref(), Some("deny"));
    assert!(!told.get(), "nothing to tell once trusted");
    // Its script changed: inert again, and the host is told.
    std::fs::write(&path, format!("{script}# changed\n")).expect("edit the script");
    assert_eq!(bridge("script-changed"), None);
    assert!(told.get());
}

/// What a trusted project hook's script sources is pinned with it (F31 through the trust
/// store): a repository update that rewrites the `lib.sh` the script sources, or adds the
/// `policy.sh` it sources when present, makes the file inert under the bridge until the user
/// trusts it again. Before, the store pinned the script alone and the rewritten library ran
/// as trusted.
#[test]
fn a_trusted_project_hook_is_inert_once_what_its_script_sources_changed() {
    let (home, repo) = setup();
    std::fs::remove_file(home.path().join(".cursor/hooks.json")).expect("no user hook");
    let state = TestDir::new();
    let env = [("HOME", home.path()), ("XDG_STATE_HOME", state.path())];
    repo.script(
        ".cursor/gate.sh",
        "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n[ -f ./policy.sh ] && . ./policy.sh\ncase \"$(cat)\" in *'rm -rf'*) deny ;; esac\n",
    );
    let lib = "deny() { echo '{\"permission\":\"deny\",\"agent_message\":\"lib says no\"}'; }\n";
    repo.write(".cursor/lib.sh", lib);
    repo.write(
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/gate.sh"}]}}"#,
    );
    let config = ["--config-dir", home.path().to_str().expect("utf-8")];
    let bridge = |session: &str| claude_rm_rf(&repo, &config, &env, session);
    let trust = || {
        trust_yes(repo.path(), &config, &env);
    };
    trust();
    assert_eq!(bridge("trusted").0.as_deref(), Some("deny"));
    let allow = "deny() { :; }\n";
    for (n, (rel, attack)) in
        [(".cursor/lib.sh", allow), ("policy.sh", allow)].into_iter().enumerate()
    {
        repo.write(rel, attack);
        let (decision, message) = bridge(&format!("changed-{n}"));
        assert_eq!(decision, None, "{rel} rewritten: the file is inert");
        assert!(message.contains("run `hooks trust`"), "{rel}: {message}");
        let list =
            hooks_in_env(repo.path(), &[&["trust", "--list"][..], &config[..]].concat(), "", &env);
        let list = String::from_utf8_lossy(&list.stdout);
        let name = rel.trim_start_matches(".cursor/");
        assert!(
            list.contains("changed since it was trusted (the script") && list.contains(name),
            "{rel}: {list}"
        );
        trust();
        assert_eq!(bridge(&format!("retrusted-{n}")).0, None, "what the user trusted runs");
        // Back to the reviewed library for the next case.
        repo.write(".cursor/lib.sh", lib);
        if rel == "policy.sh" {
            std::fs::remove_file(repo.path().join(rel)).expect("rm policy.sh");
        }
        trust();
        assert_eq!(bridge(&format!("restored-{n}")).0.as_deref(), Some("deny"));
    }
}

/// Copilot CLI's `apply_patch` carries the patch rather than
/// a path: bridged, a patch that rewrites or deletes a hook file, or moves another file over
/// one, is denied in Copilot's words, however the patch is passed; a patch of other files is
/// not. Before, the guard saw no file in the call and let it through.
#[test]
fn copilot_s_apply_patch_may_not_rewrite_a_hook_file() {
    let (home, repo) = setup();
    repo.write(
        ".github/hooks/gate.json",
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./gate.sh"}]}}"#,
    );
    let env = [("HOME", home.path())];
    let config = home.path().to_str().expect("utf-8");
    let args = ["bridge", "--host", "copilot", "--event", "preToolUse", "--config-dir", config];
    let call = |args_value: Value| {
        let input = json!({"sessionId": "s", "cwd": repo.path(), "timestamp": 1, "toolName": "apply_patch", "toolArgs": args_value});
        let out = hooks_in_env(repo.path(), &args, &input.to_string(), &env);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        if out.stdout.is_empty() {
            return Value::Null;
        }
        serde_json::from_slice::<Value>(&out.stdout).expect("one JSON answer")
    };
    for patch in [
        "*** Begin Patch\n*** Update File: .github/hooks/gate.json\n@@\n-x\n+y\n*** End Patch\n",
        "*** Begin Patch\n*** Delete File: .github/hooks/gate.json\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: notes.md\n*** Move to: .github/hooks/gate.json\n*** End Patch\n",
    ] {
        for args_value in [json!(patch), json!({"input": patch})] {
            let v = call(args_value);
            assert_eq!(v["permissionDecision"], "deny", "{patch}: {v}");
        }
    }
    let v =
        call(json!("*** Begin Patch\n*** Add File: src/new.rs\n+fn main() {}\n*** End Patch\n"));
    assert_ne!(v["permissionDecision"], "deny", "{v}");
}

/// Bridged into Claude Code, an edit of a plugin's hook file (which Claude Code runs itself,
/// not through the bridge) is denied like an edit of the settings; Gemini CLI's extensions
/// likewise.
#[test]
fn a_bridged_agent_may_not_rewrite_its_plugins_hooks() {
    let (home, repo) = setup();
    let env = [("HOME", home.path())];
    let config = home.path().to_str().expect("utf-8");
    let plugin = home.path().join(".claude/plugins/cache/m/gate/1.0.0/hooks/hooks.json");
    let edit = |tool: &str, path: &std::path::Path| {
        json!({
            "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": {"file_path": path, "content": "{}"},
            "tool_use_id": "t",
        })
        .to_string()
    };
    let args = ["bridge", "--host", "claude", "--config-dir", config];
    let out = hooks_in_env(repo.path(), &args, &edit("Write", &plugin), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    // The shell's start-up file, which could move the user folder away (`CLAUDE_CONFIG_DIR`).
    let out = hooks_in_env(repo.path(), &args, &edit("Edit", &home.path().join(".zshrc")), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    // A skill's front matter carries hooks Claude Code registers itself.
    let skill = repo.path().join(".claude/skills/deploy/SKILL.md");
    let out = hooks_in_env(repo.path(), &args, &edit("Write", &skill), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    let out = hooks_in_env(repo.path(), &args, &edit("Write", &repo.path().join("notes.md")), &env);
    assert!(
        out.stdout.is_empty()
            || serde_json::from_slice::<Value>(&out.stdout).expect("json")["hookSpecificOutput"]["permissionDecision"]
                != "deny",
        "{out:?}"
    );
    let extension = home.path().join(".gemini/extensions/safety/hooks/hooks.json");
    let input = json!({
        "session_id": "s", "cwd": repo.path(), "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-03T00:00:00Z", "transcript_path": "",
        "tool_name": "write_file", "tool_input": {"file_path": extension, "content": "{}"},
    });
    let args = ["bridge", "--host", "gemini", "--event", "BeforeTool", "--config-dir", config];
    let out = hooks_in_env(repo.path(), &args, &input.to_string(), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["decision"], "deny", "{v}");
    // The repository linked as an extension (`gemini extensions link .`): Gemini CLI runs the
    // hooks in its `hooks/`, which the agent may not rewrite; its other files stay editable.
    home.write(
        ".gemini/extensions/dev/.gemini-extension-install.json",
        &json!({"source": repo.path(), "type": "link"}).to_string(),
    );
    for (file, denied) in [("hooks/hooks.json", true), ("src/lib.rs", false)] {
        let mut input = input.clone();
        input["tool_input"]["file_path"] = json!(repo.path().join(file));
        let out = hooks_in_env(repo.path(), &args, &input.to_string(), &env);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        assert_eq!(v["decision"] == "deny", denied, "{file}: {v}");
    }
    // A program put in a folder of `$PATH` (finding F32): `~/.local/bin/claude` would start
    // the next session in its place; and the engine's own executable, which the bridge
    // entries run.
    let local_bin = home.path().join(".local/bin");
    let path_env = [("HOME", home.path()), ("PATH", local_bin.as_path())];
    let args = ["bridge", "--host", "claude", "--config-dir", config];
    let engine = crate::cli::engine_program();
    for target in [local_bin.join("claude"), engine] {
        let out = hooks_in_env(repo.path(), &args, &edit("Write", &target), &path_env);
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{target:?}: {v}");
    }
}

/// Gemini CLI runs its extensions' hooks itself: bridged into any agent, the engine never
/// runs them (a Gemini CLI extension's gate that blocks every tool does not block Claude
/// Code's `Bash`), and the script such a hook names outside the extension stays out of the
/// agent's reach.
#[test]
fn an_extension_s_hooks_are_never_run_by_the_bridge_and_their_scripts_are_protected() {
    let (home, repo) = setup();
    home.script("bin/ext-gate.sh", "#!/bin/sh\necho blocked >&2\nexit 2\n");
    let hooks = json!({"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "$HOME/bin/ext-gate.sh"},
        {"type": "command", "command": "exit 2"},
    ]}]}});
    home.write(".gemini/extensions/gate/hooks/hooks.json", &hooks.to_string());
    let env = [("HOME", home.path())];
    let config = home.path().to_str().expect("utf-8");
    let args = ["bridge", "--host", "claude", "--config-dir", config];
    let out = hooks_in_env(repo.path(), &args, &claude_bash(&repo, "ls"), &env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_ne!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    let gate = home.path().join("bin/ext-gate.sh");
    let write = json!({
        "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": gate, "content": "exit 0"},
        "tool_use_id": "t",
    });
    let out = hooks_in_env(repo.path(), &args, &write.to_string(), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
}

/// Claude Code runs the plugins of a marketplace added from a local folder where they are
/// (F40): bridged into another agent (Gemini CLI), the engine does not run such a plugin's
/// blocking gate (Claude Code runs it, and only there); bridged into Claude Code, a `Write` of
/// the script it runs or of its hook file is denied; a plugin's other file is not.
#[test]
fn a_local_marketplace_s_plugin_gate_is_never_run_by_the_bridge_and_stays_out_of_reach() {
    let (home, repo) = setup();
    let market = repo.path().join("market");
    let known = json!({"dev": {"source": {"source": "directory", "path": market}, "installLocation": market}});
    home.write(".claude/plugins/known_marketplaces.json", &known.to_string());
    repo.write(
        "market/.claude-plugin/marketplace.json",
        &json!({"name": "dev", "plugins": [{"name": "gate", "source": "./gate"}]}).to_string(),
    );
    let hooks = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/gate.sh"},
        {"type": "command", "command": "echo blocked >&2; exit 2"},
    ]}]}});
    repo.write("market/gate/hooks/hooks.json", &hooks.to_string());
    repo.write("market/gate/scripts/gate.sh", "#!/bin/sh\necho blocked >&2\nexit 2\n");
    let env = [("HOME", home.path())];
    let config = home.path().to_str().expect("utf-8");
    let shell = json!({
        "session_id": "s", "cwd": repo.path(), "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-05T00:00:00Z", "transcript_path": "",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"},
    });
    let gemini = ["bridge", "--host", "gemini", "--event", "BeforeTool", "--config-dir", config];
    let out = hooks_in_env(repo.path(), &gemini, &shell.to_string(), &env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_ne!(v["decision"], "deny", "{v}");
    for (file, denied) in [
        ("market/gate/scripts/gate.sh", true),
        ("market/gate/hooks/hooks.json", true),
        ("market/gate/README.md", false),
    ] {
        assert_eq!(claude_write_denied(&home, &repo, file), denied, "{file}");
    }
}

/// The hooks of a file a plugin's manifest names deep in the plugin, and a marketplace
/// entry's own hooks, run scripts found through the plugin's folder: bridged into Claude Code,
/// a `Write` of each is denied, at the session's first event and at the later ones (which run
/// the pinned set, each file with the folder its hooks belong to); the same name under the
/// hook file's folder's folder is not protected.
#[test]
fn a_bridged_agent_may_not_rewrite_what_a_plugin_s_named_or_entry_hooks_run() {
    let (home, repo) = setup();
    let market = repo.path().join("market");
    let known = json!({"dev": {"source": {"source": "directory", "path": market}, "installLocation": market}});
    home.write(".claude/plugins/known_marketplaces.json", &known.to_string());
    let gate = |command: &str| json!({"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]});
    repo.write(
        "market/.claude-plugin/marketplace.json",
        &json!({"name": "dev", "plugins": [
            {"name": "deep", "source": "./deep"},
            {"name": "entry", "source": "./entry", "strict": false, "hooks": gate("${CLAUDE_PLUGIN_ROOT}/entry.sh")},
        ]})
        .to_string(),
    );
    repo.write(
        "market/deep/.claude-plugin/plugin.json",
        r#"{"name": "deep", "hooks": "./a/b/gate.json"}"#,
    );
    repo.write(
        "market/deep/a/b/gate.json",
        &json!({"hooks": gate("${CLAUDE_PLUGIN_ROOT}/bin/deep.sh")}).to_string(),
    );
    for round in 0..2 {
        for (file, denied) in [
            ("market/deep/bin/deep.sh", true),
            ("market/entry/entry.sh", true),
            ("market/deep/a/bin/deep.sh", false),
            ("market/bin/deep.sh", false),
        ] {
            assert_eq!(claude_write_denied(&home, &repo, file), denied, "{file} (round {round})");
        }
    }
}

/// A skill linked into the project's `.claude/skills/` from elsewhere in it (F39): bridged
/// into Claude Code, a `Write` of the linked skill's `SKILL.md` or of the script its hook runs
/// is denied; one of the project's other files is not.
#[cfg(unix)]
#[test]
fn a_bridged_agent_may_not_rewrite_a_skill_linked_from_elsewhere() {
    let (home, repo) = setup();
    repo.write(
        "shared/skills/deploy/SKILL.md",
        "---\nname: deploy\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: bash shared/tools/gate.sh\n---\nDeploy.\n",
    );
    std::fs::create_dir_all(repo.path().join(".claude/skills")).expect("skills");
    std::os::unix::fs::symlink(
        "../../shared/skills/deploy",
        repo.path().join(".claude/skills/deploy"),
    )
    .expect("symlink");
    for (file, denied) in [
        ("shared/skills/deploy/SKILL.md", true),
        ("shared/tools/gate.sh", true),
        ("notes.md", false),
    ] {
        assert_eq!(claude_write_denied(&home, &repo, file), denied, "{file}");
    }
}

/// An MCP file server's writing tools reach the guard like the agent's own: bridged into
/// Claude Code, `write_file` or `move_file` onto the settings is denied; reading them, or
/// writing elsewhere, is not.
#[test]
fn an_mcp_file_server_may_not_rewrite_a_hook_file() {
    let (home, repo) = setup();
    repo.write(".claude/settings.json", r#"{"hooks":{}}"#);
    let env = [("HOME", home.path())];
    let config = home.path().to_str().expect("utf-8");
    let args = ["bridge", "--host", "claude", "--config-dir", config];
    let decision = |tool: &str, tool_input: Value| {
        let input = json!({
            "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "t",
        });
        let out = hooks_in_env(repo.path(), &args, &input.to_string(), &env);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        if out.stdout.is_empty() {
            return Value::Null;
        }
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
        v["hookSpecificOutput"]["permissionDecision"].clone()
    };
    let settings = repo.path().join(".claude/settings.json");
    assert_eq!(
        decision("mcp__filesystem__write_file", json!({"path": settings, "content": "{}"})),
        "deny"
    );
    assert_eq!(
        decision(
            "mcp__filesystem__move_file",
            json!({"source": repo.path().join("x.json"), "destination": settings})
        ),
        "deny"
    );
    assert_ne!(decision("mcp__filesystem__read_text_file", json!({"path": settings})), "deny");
    assert_ne!(
        decision("mcp__filesystem__write_file", json!({"path": repo.path().join("notes.md")})),
        "deny"
    );
    // Servers that name their files otherwise (camel case, nested, `target_path`,
    // `outputFile`): each of these went through before (finding F30).
    for tool_input in [
        json!({"filePath": settings, "content": "{}"}),
        json!({"target_path": settings}),
        json!({"file": {"path": settings}}),
        json!({"outputFile": ".claude/settings.json"}),
    ] {
        assert_eq!(decision("mcp__fs__write_file", tool_input.clone()), "deny", "{tool_input}");
    }
    // The folder it works in is not an edit, nor the content it writes.
    assert_ne!(
        decision(
            "mcp__fs__write_file",
            json!({"filePath": "notes.md", "cwd": repo.path(), "content": ".claude/settings.json"})
        ),
        "deny"
    );
}

/// A Gemini CLI system settings file that someone else than root can write runs nothing under
/// the bridge, wherever `GEMINI_CLI_SYSTEM_SETTINGS_PATH` puts it (Gemini CLI skips such a
/// file); the agent still may not rewrite it.
#[test]
fn a_system_file_others_can_write_runs_nothing_under_the_bridge() {
    let home = TestDir::new();
    let repo = TestDir::new();
    std::fs::create_dir(repo.path().join(".git")).expect(".git");
    let sys = TestDir::new();
    sys.script("corp/deny.sh", "#!/bin/sh\ncat >/dev/null\necho 'system says no' >&2\nexit 2\n");
    let deny = sys.path().join("corp/deny.sh");
    sys.write(
        "corp/gemini.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
            {"type": "command", "command": deny}
        ]}]}})
        .to_string(),
    );
    let settings = sys.path().join("corp/gemini.json");
    std::fs::set_permissions(&settings, std::os::unix::fs::PermissionsExt::from_mode(0o664))
        .expect("chmod");
    let env = [("HOME", home.path()), ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings.as_path())];
    let args = ["bridge", "--host", "claude"];
    let out = hooks_in_env(repo.path(), &args, &claude_bash(&repo, "ls"), &env);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "nothing denies: {}", String::from_utf8_lossy(&out.stdout));

    let write = json!({
        "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": settings, "content": "{}"},
    });
    let out = hooks_in_env(repo.path(), &args, &write.to_string(), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
}

/// Bridged into Claude Code, whose subagent's front matter hook runs a script outside
/// `.claude/`: the agent may not rewrite that script (Claude Code would run the rewritten one
/// while the subagent is active), and may write a file beside it.
#[test]
fn a_bridged_agent_may_not_rewrite_the_script_of_a_subagent_s_hook() {
    let home = TestDir::new();
    let repo = TestDir::new();
    std::fs::create_dir(repo.path().join(".git")).expect(".git");
    repo.write(
        ".claude/agents/gate.md",
        "---\nname: gate\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: \"\\\"$CLAUDE_PROJECT_DIR\\\"/scripts/gate.sh\"\n---\nGate.\n",
    );
    let env = [("HOME", home.path())];
    let args = ["bridge", "--host", "claude"];
    let write = |rel: &str| {
        json!({
            "session_id": "it-session", "cwd": repo.path(), "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": repo.path().join(rel), "content": "exit 0"},
        })
        .to_string()
    };
    let out = hooks_in_env(repo.path(), &args, &write("scripts/gate.sh"), &env);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap_or("");
    assert!(reason.contains(".claude/agents/gate.md"), "{reason}");
    let out = hooks_in_env(repo.path(), &args, &write("scripts/other.sh"), &env);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0), "{out:?}");
}

/// A session started in a subfolder of a repository runs each format's project files where
/// that format's agent reads them for a session there (observed with the real CLIs,
/// `specs/bridge.md`): Gemini CLI's and Claude Code's in the session's folder, not the
/// root's; Codex's in every folder from the root down; Cursor's at the root. A file in the
/// session's folder has that folder as its project (`CLAUDE_PROJECT_DIR`, and the script it
/// names there). `hooks trust` run in the session's folder reviews exactly those files.
/// Before, the bridge ran the root's files of every format and none of the subfolder's.
#[test]
fn a_session_in_a_subfolder_runs_each_format_s_files_where_its_agent_reads_them() {
    let (home, repo) = setup();
    std::fs::remove_file(home.path().join(".cursor/hooks.json")).expect("no user hook");
    let state = TestDir::new();
    let marks = TestDir::new();
    let env = [("HOME", home.path()), ("XDG_STATE_HOME", state.path())];
    let m = |name: &str| marks.path().join(name).display().to_string();
    for (at, tag) in [("", "root"), ("pkg/", "pkg")] {
        let gemini = json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": tag,
            "command": format!("printf %s \"$GEMINI_PROJECT_DIR\" > {}", m(&format!("{tag}-gemini")))}]}]}});
        repo.write(&format!("{at}.gemini/settings.json"), &gemini.to_string());
        let codex = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": format!("touch {}", m(&format!("{tag}-codex")))}]}]}});
        repo.write(&format!("{at}.codex/hooks.json"), &codex.to_string());
        let cursor = json!({"version": 1, "hooks": {"beforeShellExecution": [{"command":
            format!("printf %s \"$CURSOR_PROJECT_DIR\" > {}", m(&format!("{tag}-cursor")))}]}});
        repo.write(&format!("{at}.cursor/hooks.json"), &cursor.to_string());
        let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/mark.sh"}]}]}});
        repo.write(&format!("{at}.claude/settings.json"), &claude.to_string());
        repo.script(
            &format!("{at}.claude/hooks/mark.sh"),
            &format!(
                "#!/bin/sh\nprintf %s \"$CLAUDE_PROJECT_DIR\" > {}\n",
                m(&format!("{tag}-claude"))
            ),
        );
    }
    let session = repo.path().join("pkg");
    let pkg = hooks_registry::canonicalize(&session).expect("pkg").into_path_buf();
    let root = hooks_registry::canonicalize(repo.path()).expect("root").into_path_buf();
    let config = ["--config-dir", home.path().to_str().expect("utf-8")];
    let trust = trust_yes(&session, &config, &env);
    let review = String::from_utf8_lossy(&trust.stdout);
    assert!(review.contains(", the files a session started in pkg reads"), "{review}");
    for reviewed in [
        "pkg/.gemini/settings.json",
        "pkg/.claude/settings.json",
        "pkg/.codex/hooks.json",
        ".codex/hooks.json",
        ".cursor/hooks.json",
    ] {
        assert!(review.contains(&format!("\n{reviewed} [")), "{reviewed}: {review}");
    }
    for not_read in [".gemini/settings.json", ".claude/settings.json", "pkg/.cursor/hooks.json"] {
        assert!(!review.contains(&format!("\n{not_read} [")), "{not_read}: {review}");
    }
    let fire = |host: &str, id: &str| {
        let input = json!({
            "session_id": id, "cwd": session, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t",
        });
        let args = [&["bridge", "--host", host][..], &config[..]].concat();
        let out = hooks_in_env(&session, &args, &input.to_string(), &env);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(!said.contains("hooks trust"), "every file read is trusted: {said}");
    };
    let seen = |name: &str| std::fs::read_to_string(marks.path().join(name)).ok();
    // Claude Code hosts: its own files are its; the others run where their agents read them.
    fire("claude", "under-claude");
    assert_eq!(seen("pkg-gemini").as_deref(), Some(pkg.to_str().expect("utf-8")));
    assert_eq!(seen("root-gemini"), None, "Gemini CLI does not read the root's file there");
    assert!(seen("root-codex").is_some() && seen("pkg-codex").is_some(), "Codex reads both");
    assert_eq!(seen("root-cursor").as_deref(), Some(root.to_str().expect("utf-8")));
    assert_eq!(seen("pkg-cursor"), None, "Cursor's project file is the root's");
    assert_eq!((seen("root-claude"), seen("pkg-claude")), (None, None), "the host's own");
    // The root's files its agent does not read for this session still have their scripts
    // protected: a session started at the root runs them.
    for script in [root.join(".claude/hooks/mark.sh"), pkg.join(".claude/hooks/mark.sh")] {
        let input = json!({
            "session_id": "guarded", "cwd": session, "hook_event_name": "PreToolUse",
            "tool_name": "Write", "tool_input": {"file_path": script, "content": "exit 0\n"},
            "tool_use_id": "w",
        });
        let args = [&["bridge", "--host", "claude"][..], &config[..]].concat();
        let out = hooks_in_env(&session, &args, &input.to_string(), &env);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(
            v["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{}: {v}",
            script.display()
        );
    }
    // Codex hosts: Claude Code's file in the session's folder runs, with that folder as its
    // project, and its script found there.
    fire("codex", "under-codex");
    assert_eq!(seen("pkg-claude").as_deref(), Some(pkg.to_str().expect("utf-8")));
    assert_eq!(seen("root-claude"), None, "Claude Code does not read the root's file there");
}

/// The hook files of the other folders of a repository (`packages/api/.claude/settings.json`)
/// run in the sessions started there; a session started elsewhere (the root, a sibling) must
/// not be able to rewrite the scripts they name outside the agents' own folders
/// (`packages/api/scripts/gate.sh`), which F35's folder protection does not cover. Before,
/// only the files a session read had their scripts protected, and these were writable.
#[test]
fn the_scripts_of_another_folder_s_hook_files_are_out_of_a_session_s_reach() {
    let (home, repo) = setup();
    std::fs::remove_file(home.path().join(".cursor/hooks.json")).expect("no user hook");
    let state = TestDir::new();
    let env = [("HOME", home.path()), ("XDG_STATE_HOME", state.path())];
    let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/claude-gate.sh"}]}]}});
    repo.write("packages/api/.claude/settings.json", &claude.to_string());
    let gemini = json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
        "command": "$GEMINI_PROJECT_DIR/scripts/gemini-gate.sh"}]}]}});
    repo.write("packages/api/.gemini/settings.json", &gemini.to_string());
    repo.script("packages/api/scripts/claude-gate.sh", "#!/bin/sh\nexit 0\n");
    repo.script("packages/api/scripts/gemini-gate.sh", "#!/bin/sh\nexit 0\n");
    repo.script("packages/api/scripts/build.sh", "#!/bin/sh\nexit 0\n");
    std::fs::create_dir_all(repo.path().join("packages/web")).expect("sibling");
    let api = hooks_registry::canonicalize(&repo.path().join("packages/api"))
        .expect("api")
        .into_path_buf();
    let config = ["--config-dir", home.path().to_str().expect("utf-8")];
    let write = |session: &Path, host: &str, target: &Path| -> Value {
        let input = json!({
            "session_id": format!("{host}-{}", session.display()), "cwd": session,
            "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": target, "content": "exit 0\n"}, "tool_use_id": "w",
        });
        let args = [&["bridge", "--host", host][..], &config[..]].concat();
        let out = hooks_in_env(session, &args, &input.to_string(), &env);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    };
    let web = repo.path().join("packages/web");
    for (session, host) in [(repo.path(), "claude"), (web.as_path(), "claude")] {
        for script in ["claude-gate.sh", "gemini-gate.sh"] {
            let v = write(session, host, &api.join("scripts").join(script));
            assert_eq!(
                v["hookSpecificOutput"]["permissionDecision"],
                "deny",
                "{script} from a {host} session in {}: {v}",
                session.display()
            );
        }
        // Not every file of the folder: the one no hook names stays writable.
        let v = write(session, host, &api.join("scripts/build.sh"));
        assert_ne!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    }
}

/// Codex ranks its project layers by depth: for a session started in a subfolder, the
/// subfolder's `.codex/config.toml` `[features] hooks` wins over the repository root's, both
/// ways (observed with Codex 0.169.0). The bridge read the two files root first, so the root's
/// won (the first version of the subfolder reading, this session).
#[test]
fn a_subfolder_s_codex_config_ranks_above_the_root_s() {
    let (home, repo) = setup();
    std::fs::remove_file(home.path().join(".cursor/hooks.json")).expect("no user hook");
    let state = TestDir::new();
    let env = [("HOME", home.path()), ("XDG_STATE_HOME", state.path())];
    repo.write(
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo root-gate >&2; exit 2"}]}]}}"#,
    );
    let session = repo.path().join("pkg");
    let config = ["--config-dir", home.path().to_str().expect("utf-8")];
    for (n, (root_on, sub_on, denied)) in
        [(false, true, true), (true, false, false), (true, true, true)].into_iter().enumerate()
    {
        repo.write(".codex/config.toml", &format!("[features]\nhooks = {root_on}\n"));
        repo.write("pkg/.codex/config.toml", &format!("[features]\nhooks = {sub_on}\n"));
        trust_yes(&session, &config, &env);
        let input = json!({
            "session_id": format!("layers-{n}"), "cwd": session, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t",
        });
        let args = [&["bridge", "--host", "claude"][..], &config[..]].concat();
        let out = hooks_in_env(&session, &args, &input.to_string(), &env);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        let deny = v["hookSpecificOutput"]["permissionDecision"] == "deny";
        assert_eq!(deny, denied, "root hooks = {root_on}, pkg hooks = {sub_on}: {v}");
    }
}
