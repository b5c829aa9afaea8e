//! Tests of the bridge with real hook processes: a Cursor hook denies a Claude Code tool call
//! in Claude Code's own words with provenance; the host's own files and bridge calls never
//! run; the pin holds across events; the guard refuses edits of every format's hook files;
//! the gate keeps untrusted project files inert.

use std::{os::unix::fs::PermissionsExt, path::Path, sync::Arc};

use serde_json::{Value, json};

use super::*;

struct Project {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let p = Project {
            dir: tempfile::tempdir().expect("tmp"),
            home: tempfile::tempdir().expect("tmp"),
            state: tempfile::tempdir().expect("tmp"),
        };
        std::fs::create_dir(p.root().join(".git")).expect(".git");
        p
    }

    fn root(&self) -> PathBuf {
        hooks_registry::canonicalize(self.dir.path()).expect("canonical").into_path_buf()
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        path
    }

    fn script(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.write(rel, text);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// A Cursor hook that denies `rm -rf` (and records every call in `calls.log`).
    fn cursor_deny_rm(&self) {
        self.script(
            ".cursor/hooks/no-rm.sh",
            "#!/bin/sh\ninput=$(cat)\necho call >> \"$(dirname \"$0\")/calls.log\"\ncase \"$input\" in\n  *'rm -rf'*) echo '{\"permission\":\"deny\",\"agent_message\":\"rm -rf is not allowed here\"}' ;;\n  *) echo '{\"permission\":\"allow\"}' ;;\nesac\n",
        );
        self.write(
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/no-rm.sh" } ] } }"#,
        );
    }

    fn calls(&self) -> usize {
        std::fs::read_to_string(self.root().join(".cursor/hooks/calls.log"))
            .map_or(0, |s| s.lines().count())
    }

    fn config(&self, host: &str, gate: Gate) -> BridgeConfig {
        let formats = crate::formats::workspace_formats();
        let user_dirs = UserDirs::under_home(&formats, self.home.path());
        // The runtime's gate: open leaves project files to the table (a CLI run that
        // auto-approves: active); closed asks the store, here none, for every project file.
        let trust = crate::trust::StoreGatedPolicy::new(
            Arc::new(hooks_trust::StaticTrustPolicy),
            formats.clone(),
            None,
            hooks_registry::UserPaths::default(),
            Some(user_dirs.clone()),
        );
        let trust = match gate {
            Gate::Open => trust,
            Gate::Closed => trust.with_need(crate::trust::StoreNeed::ProjectFiles),
        };
        BridgeConfig {
            host: host.to_owned(),
            user_dirs: Some(user_dirs),
            managed_dirs: None,
            pins: Some(PinStore::new(self.state.path().join("pins"))),
            trust: Arc::new(trust),
            process_cwd: self.root(),
            home_dir: Some(self.home.path().to_path_buf()),
            shell_startup: crate::trust::ShellStartupDirs::default(),
            config_dir: None,
            user_shell: None,
            dispatch: DispatchConfig::default(),
            drain_grace: Duration::from_secs(2),
            trust_store: None,
            user_opt_in: false,
            formats,
        }
    }
}

/// The trust gate a test runs the bridge with.
#[derive(Debug, Clone, Copy)]
enum Gate {
    Open,
    Closed,
}

/// Cursor's `preToolUse` for a shell `ls` in `p`, in the conversation `session`.
fn cursor_ls_input(p: &Project, session: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "conversation_id": session, "generation_id": "g", "hook_event_name": "preToolUse",
        "workspace_roots": [p.root()], "cwd": p.root(),
        "tool_name": "Shell", "tool_input": {"command": "ls"},
    }))
    .expect("json")
}

fn claude_input(p: &Project, session: &str, tool: &str, args: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": session,
        "transcript_path": "/tmp/t.jsonl",
        "cwd": p.root(),
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": args,
        "tool_use_id": "toolu_1",
    }))
    .expect("json")
}

fn stdout_json(o: &BridgeOutcome) -> Value {
    if o.answer.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&o.answer.stdout).expect("the answer is JSON")
}

#[test]
fn a_cursor_hook_denies_a_claude_code_tool_call_with_provenance() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("claude", Gate::Open);
    let out =
        run_event(&c, &claude_input(&p, "s1", "Bash", json!({"command": "rm -rf build"})), None);
    assert_eq!(out.answer.exit_code, 0);
    let v = stdout_json(&out);
    let specific = &v["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert_eq!(specific["permissionDecision"], "deny");
    let reason = specific["permissionDecisionReason"].as_str().expect("reason");
    let file = p.root().join(".cursor/hooks.json");
    assert!(reason.starts_with("rm -rf is not allowed here (hook "), "{reason}");
    assert!(reason.contains(&format!("{}:1)", file.display())), "file and line: {reason}");
    assert_eq!(out.ran, 1);

    // A harmless command: the hook runs and allows; Claude Code gets no decision.
    let out = run_event(&c, &claude_input(&p, "s1", "Bash", json!({"command": "ls"})), None);
    assert_eq!(out.answer.stdout, b"", "nothing to say: {:?}", out.answer);
    assert_eq!(out.ran, 1);
    assert_eq!(p.calls(), 2);
}

#[test]
fn the_hosts_own_files_and_bridge_calls_never_run() {
    let p = Project::new();
    p.script(".claude/record.sh", "#!/bin/sh\necho claude >> \"$CLAUDE_PROJECT_DIR/claude.log\"\n");
    p.write(
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
            {"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/record.sh"},
            {"type":"command","command":"/usr/local/bin/hooks bridge --host claude --event PreToolUse"}]}]}}"#,
    );
    // Under Claude Code, its own file is Claude Code's business.
    let input = claude_input(&p, "s", "Bash", json!({"command": "ls"}));
    let out = run_event(&p.config("claude", Gate::Open), &input, None);
    assert_eq!(out.ran, 0);
    let claude = out.files.iter().find(|f| f.kind == "project_claude_settings").expect("loaded");
    assert!(!claude.active && claude.reason.contains("claude runs this file itself"));
    assert!(!p.root().join("claude.log").exists());

    // Under Codex the same file runs, but never its bridge call (it would start the bridge
    // again, for Claude Code, from inside a Codex event).
    let codex_input = serde_json::to_vec(&json!({
        "session_id": "c", "cwd": p.root(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t",
        "turn_id": "u", "model": "m", "permission_mode": "default", "transcript_path": null,
    }))
    .expect("json");
    let out = run_event(&p.config("codex", Gate::Open), &codex_input, None);
    assert_eq!(out.ran, 1, "the record hook only: {:?}", out.answer);
    assert_eq!(std::fs::read_to_string(p.root().join("claude.log")).expect("ran"), "claude\n");
}

#[test]
fn cursor_as_host_skips_claude_code_files_it_runs_itself() {
    let p = Project::new();
    p.script(".claude/record.sh", "#!/bin/sh\necho claude >> claude.log\n");
    p.write(
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":".claude/record.sh"}]}]}}"#,
    );
    let out = run_event(&p.config("cursor", Gate::Open), &cursor_ls_input(&p, "conv"), None);
    let claude = out.files.iter().find(|f| f.kind == "project_claude_settings").expect("loaded");
    assert!(!claude.active, "Cursor runs Claude Code's files itself");
    assert_eq!(out.ran, 0);
}

/// Cursor runs Claude Code's settings files itself, not the hooks of the subagent they make
/// the main thread's agent (`agent`): the bridge runs those, the settings' `agent` deciding
/// which, and not the settings' own hooks (before, it left every Claude Code project file to
/// the host, and this gate ran under none of them).
#[test]
fn cursor_as_host_leaves_claude_code_settings_to_cursor_and_runs_the_main_thread_s_agent() {
    let p = Project::new();
    p.script(".claude/record.sh", "#!/bin/sh\necho agent >> agent.log\n");
    p.script(".claude/settings-hook.sh", "#!/bin/sh\necho settings >> settings.log\n");
    p.write(
        ".claude/settings.json",
        r#"{"agent":"gate","hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":".claude/settings-hook.sh"}]}]}}"#,
    );
    p.write(
        ".claude/agents/reviewer.md",
        "---\nname: gate\ndescription: Reviews.\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: .claude/record.sh\n---\n",
    );
    let out = run_event(&p.config("cursor", Gate::Open), &cursor_ls_input(&p, "conv"), None);
    let kind = |k: &str| out.files.iter().find(|f| f.kind == k).unwrap_or_else(|| panic!("{k}"));
    let settings = kind("project_claude_settings");
    assert!(settings.active, "for its settings: {:?}", settings.reason);
    assert!(
        settings.reason.starts_with("cursor runs this file's hooks itself; its settings apply"),
        "{}",
        settings.reason
    );
    assert!(kind("project_claude_agents").active, "{:?}", out.files);
    assert_eq!(out.ran, 1);
    assert_eq!(std::fs::read_to_string(p.root().join("agent.log")).expect("ran"), "agent\n");
    assert!(!p.root().join("settings.log").exists(), "the settings' own hook is Cursor's");
    // Not trusted: neither runs, and both files are named for `hooks trust`, the settings too
    // (their `agent` decides which subagent runs), though their hooks are Cursor's.
    let out = run_event(&p.config("cursor", Gate::Closed), &cursor_ls_input(&p, "new"), None);
    assert_eq!(out.ran, 0);
    let kind = |k: &str| out.files.iter().find(|f| f.kind == k).unwrap_or_else(|| panic!("{k}"));
    for k in ["project_claude_settings", "project_claude_agents"] {
        let f = kind(k);
        assert!(!f.active && f.needs_trust, "{k}: {}", f.reason);
    }
}

/// Bridged into Claude Code, its own settings' `agent` is Claude Code's business (every file a
/// Claude Code setting reaches is its own): the file is left to it, trusted or not, and the
/// user is not asked to review it with `hooks trust`.
#[test]
fn claude_code_s_own_settings_with_agent_are_left_to_it_without_a_trust_request() {
    let p = Project::new();
    p.write(".claude/settings.json", r#"{"agent":"gate"}"#);
    let input = claude_input(&p, "s", "Bash", json!({"command": "ls"}));
    let out = run_event(&p.config("claude", Gate::Closed), &input, None);
    let f = out.files.iter().find(|f| f.kind == "project_claude_settings").expect("loaded");
    assert!(!f.active && !f.needs_trust, "{}", f.reason);
    assert_eq!(f.reason, "claude runs this file itself");
}

#[test]
fn later_events_of_a_session_run_the_pinned_set() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("claude", Gate::Open);
    let rm = |s: &str| claude_input(&p, s, "Bash", json!({"command": "rm -rf build"}));
    let first = run_event(&c, &rm("pinned"), None);
    assert!(!first.from_pin);
    assert_eq!(stdout_json(&first)["hookSpecificOutput"]["permissionDecision"], "deny");
    // The file is emptied of hooks on disk: the session goes on with its pin, a new session
    // sees the change.
    p.write(".cursor/hooks.json", r#"{ "version": 1, "hooks": {} }"#);
    let later = run_event(&c, &rm("pinned"), None);
    assert!(later.from_pin);
    assert_eq!(stdout_json(&later)["hookSpecificOutput"]["permissionDecision"], "deny");
    let fresh = run_event(&c, &rm("another"), None);
    assert!(!fresh.from_pin);
    assert_eq!(fresh.answer.stdout, b"");
    // Without a session id nothing is pinned.
    let mut v: Value = serde_json::from_slice(&rm("x")).expect("json");
    v.as_object_mut().expect("object").remove("session_id");
    let unpinned = run_event(&c, &serde_json::to_vec(&v).expect("json"), None);
    assert!(!unpinned.from_pin);
}

#[test]
fn an_untrusted_project_file_stays_inert() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("claude", Gate::Closed);
    let input = claude_input(&p, "s", "Bash", json!({"command": "rm -rf build"}));
    let out = run_event(&c, &input, None);
    assert_eq!(out.ran, 0);
    let f = out.files.iter().find(|f| f.kind == "project_cursor_file").expect("loaded");
    assert!(!f.active && f.needs_trust && f.reason.contains("hooks trust"), "{}", f.reason);
    assert_eq!(p.calls(), 0);
    // Claude Code is told in its own words, at the session's first event: a system message
    // naming the file and `hooks trust`, and no decision.
    let v = stdout_json(&out);
    let message = v["systemMessage"].as_str().expect("a system message");
    assert!(message.contains("run `hooks trust`"), "{message}");
    assert!(message.contains(".cursor/hooks.json"), "{message}");
    assert!(v.get("hookSpecificOutput").is_none(), "{v}");
    // Once per session: later events run the pin and say nothing more.
    let again = run_event(&c, &input, None);
    assert!(again.from_pin);
    assert_eq!(again.answer.stdout, b"");
}

/// Codex's own review counts under the bridge as in the runtime: a user Codex hook the user
/// trusted in Codex (`[hooks.state]` in `config.toml`, Codex's hash) runs without `hooks
/// trust`, and stops running once it changes.
#[test]
fn a_codex_hook_the_user_trusted_in_codex_runs_under_another_host() {
    let p = Project::new();
    let script = p.home.path().join(".codex/no-rm.sh");
    std::fs::create_dir_all(script.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &script,
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"decision\":\"block\",\"reason\":\"codex says no\"}' ;; esac\n",
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let hooks_json = p.home.path().join(".codex/hooks.json");
    let write_hooks = |timeout: u64| {
        let doc = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": script.display().to_string(), "timeout": timeout}]}]}});
        std::fs::write(&hooks_json, doc.to_string()).expect("hooks.json");
    };
    write_hooks(30);
    // Trust it as Codex would: its key and hash into [hooks.state].
    let canonical = hooks_registry::canonicalize(&hooks_json).expect("canonical");
    let key = hooks_format_codex::hook_key(
        canonical.as_path(),
        hooks_format_codex::CodexEvent::PreToolUse,
        0,
        0,
    );
    let hash = hooks_format_codex::hook_hash(&hooks_format_codex::HandlerIdentity {
        event: hooks_format_codex::CodexEvent::PreToolUse,
        matcher: Some("Bash"),
        command: &script.display().to_string(),
        timeout_secs: 30,
        async_: false,
        status_message: None,
        additional_context_limit: None,
    });
    std::fs::write(
        p.home.path().join(".codex/config.toml"),
        format!("[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"),
    )
    .expect("config.toml");
    let c = p.config("claude", Gate::Closed);
    let out = run_event(&c, &claude_input(&p, "s1", "Bash", json!({"command": "rm -rf b"})), None);
    let f = out.files.iter().find(|f| f.kind == "user_codex_hooks").expect("loaded");
    assert!(f.active, "Codex's own review counts: {}", f.reason);
    assert_eq!(stdout_json(&out)["hookSpecificOutput"]["permissionDecision"], "deny");
    // Changed since Codex trusted it: inert in a new session, and the user is told.
    write_hooks(31);
    let out = run_event(&c, &claude_input(&p, "s2", "Bash", json!({"command": "rm -rf b"})), None);
    let f = out.files.iter().find(|f| f.kind == "user_codex_hooks").expect("loaded");
    assert!(!f.active && f.needs_trust, "{}", f.reason);
    let v = stdout_json(&out);
    assert!(v.get("hookSpecificOutput").is_none(), "{v}");
    assert!(v["systemMessage"].as_str().is_some_and(|m| m.contains("hooks trust")), "{v}");
}

#[test]
fn the_guard_refuses_edits_of_every_formats_hook_files_and_scripts() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("claude", Gate::Closed);
    let root = p.root();
    let refused = [
        root.join(".cursor/hooks.json"),
        root.join(".cursor/hooks/no-rm.sh"),
        // Files that do not exist yet, of other formats.
        root.join(".codex/hooks.json"),
        root.join(".gemini/settings.json"),
        root.join(".claude/settings.local.json"),
    ];
    for path in &refused {
        let out = run_event(
            &c,
            &claude_input(&p, "g", "Write", json!({"file_path": path, "content": "{}"})),
            None,
        );
        let v = stdout_json(&out);
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{}", path.display());
        let why = v["hookSpecificOutput"]["permissionDecisionReason"].as_str().expect("reason");
        assert!(why.starts_with("GUARD: "), "{why}");
    }
    // Relative and roundabout spellings, through Edit.
    let out = run_event(
        &c,
        &claude_input(
            &p,
            "g",
            "Edit",
            json!({"file_path": "src/../.cursor/./hooks.json", "old_string": "a", "new_string": "b"}),
        ),
        None,
    );
    assert_eq!(stdout_json(&out)["hookSpecificOutput"]["permissionDecision"], "deny");
    // An ordinary file is not the guard's business.
    let out = run_event(
        &c,
        &claude_input(&p, "g", "Write", json!({"file_path": root.join("a.txt"), "content": ""})),
        None,
    );
    assert_eq!(out.answer.stdout, b"");
}

/// An event that edits no file never asks the guard, so its engine computes no protection
/// (reads no script, no folder above the project for it); an edit's does, and a protected
/// file is refused as before.
#[test]
fn only_an_event_that_edits_a_file_computes_the_protection() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("claude", Gate::Open);
    let computed = |out: &BridgeOutcome| {
        let (runtime, _) = out.engine.0.as_ref().expect("the engine comes back");
        runtime.fire_handle().snapshot().protection_computed()
    };
    let shell = run_event(&c, &claude_input(&p, "q", "Bash", json!({"command": "ls"})), None);
    assert!(!computed(&shell));
    let rm = run_event(&c, &claude_input(&p, "q", "Bash", json!({"command": "rm -rf x"})), None);
    assert!(!computed(&rm));
    assert_eq!(stdout_json(&rm)["hookSpecificOutput"]["permissionDecision"], "deny");
    let a = p.root().join("a.txt");
    let write = run_event(&c, &claude_input(&p, "q", "Write", json!({"file_path": a})), None);
    assert!(computed(&write));
    assert_eq!(write.answer.stdout, b"");
    let hook = p.root().join(".cursor/hooks/no-rm.sh");
    let edit = run_event(&c, &claude_input(&p, "q", "Write", json!({"file_path": hook})), None);
    assert!(computed(&edit));
    assert_eq!(stdout_json(&edit)["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn codex_apply_patch_of_a_hook_file_is_refused() {
    let p = Project::new();
    p.cursor_deny_rm();
    let c = p.config("codex", Gate::Closed);
    let input = |patch: &str| {
        serde_json::to_vec(&json!({
            "session_id": "p", "cwd": p.root(), "hook_event_name": "PreToolUse",
            "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_use_id": "t",
            "turn_id": "u", "model": "m", "permission_mode": "default", "transcript_path": null,
        }))
        .expect("json")
    };
    let out = run_event(
        &c,
        &input(
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** Update File: .cursor/hooks.json\n@@\n-a\n+b\n*** End Patch\n",
        ),
        None,
    );
    let v = stdout_json(&out);
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    assert_eq!(v.as_object().map(|o| o.len()), Some(1), "Codex takes no other key: {v}");
    let out = run_event(
        &c,
        &input("*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** End Patch\n"),
        None,
    );
    assert_eq!(out.answer.stdout, b"");
}

#[test]
fn bad_input_is_answered_with_nothing_and_exit_zero() {
    let p = Project::new();
    let c = p.config("claude", Gate::Open);
    for input in [&b"not json"[..], b"[]", b"{\"hook_event_name\": \"PostToolBatch\"}", b""] {
        let out = run_event(&c, input, None);
        assert_eq!(out.answer.exit_code, 0);
        assert_eq!(out.answer.stdout, b"");
    }
    let out = run_event(&p.config("nope", Gate::Open), b"{}", None);
    assert_eq!((out.answer.exit_code, out.answer.stdout.len()), (0, 0));
    assert!(String::from_utf8_lossy(&out.answer.stderr).contains("nope"));
}

#[test]
fn bridge_calls_are_recognised_in_every_spelling() {
    let sh = |s: &str| HookCommand::Shell { script: s.into(), shell: None };
    let exec = |p: &str, a: &[&str]| HookCommand::Exec {
        program: p.into(),
        args: a.iter().map(|s| (*s).to_owned()).collect(),
    };
    assert!(is_bridge_call(&sh("hooks bridge --host codex")));
    assert!(is_bridge_call(&sh("\"/opt/my tools/hooks\" bridge --event E --host=gemini")));
    assert!(is_bridge_call(&exec("/bin/hooks", &["bridge", "--host", "copilot"])));
    assert!(!is_bridge_call(&sh("hooks fire --host x bridge")));
    assert!(!is_bridge_call(&exec("bridge", &[])));
    assert!(!is_bridge_call(&sh("./bridge.sh")));
}

#[test]
fn the_project_root_is_the_nearest_git_folder() {
    let p = Project::new();
    let sub = p.root().join("a/b");
    std::fs::create_dir_all(&sub).expect("mkdir");
    assert_eq!(project_root_of(&sub), p.root());
    let bare = tempfile::tempdir().expect("tmp");
    assert_eq!(project_root_of(bare.path()), bare.path());
    let _ = Path::new("");
}

/// Whether `pid` lives and was not sent SIGKILL (a zombie counts as gone: this machine's PID
/// 1 does not reap orphans; a SIGKILL pending is read from `/proc/<pid>/status`).
fn lives(pid: i32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    let field = |name: &str| {
        status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default()
    };
    let kill_pending = ["SigPnd:", "ShdPnd:"]
        .iter()
        .any(|f| u64::from_str_radix(field(f), 16).is_ok_and(|m| m & (1 << 8) != 0));
    !field("State:").starts_with(['Z', 'X']) && !kill_pending
}

/// The bridge hands its engine back with the outcome, so that a one-shot writes its answer
/// before the engine's teardown (`hooks bridge` then leaves it to its exit and the reaper):
/// what a hook left running in its run lives while the outcome is kept, and ends when it is
/// dropped. Before, the engine was torn down before the answer was returned.
#[test]
fn the_engine_comes_back_with_the_answer_and_ends_what_hooks_left_when_dropped() {
    let p = Project::new();
    p.script(
        ".cursor/hooks/bg.sh",
        "#!/bin/sh\ncat > /dev/null\nsleep 30 < /dev/null > /dev/null 2>&1 &\necho $! > \"$(dirname \"$0\")/bg.pid\"\necho '{\"permission\":\"allow\"}'\n",
    );
    p.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/bg.sh" } ] } }"#,
    );
    let c = p.config("claude", Gate::Open);
    let out = run_event(&c, &claude_input(&p, "s1", "Bash", json!({"command": "ls"})), None);
    assert_eq!(out.ran, 1, "{out:?}");
    let pid: i32 = std::fs::read_to_string(p.root().join(".cursor/hooks/bg.pid"))
        .expect("the hook's background pid")
        .trim()
        .parse()
        .expect("a pid");
    assert!(lives(pid), "what the hook left runs while the engine is kept");
    drop(out);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while lives(pid) {
        assert!(std::time::Instant::now() < deadline, "{pid} outlived the engine");
        std::thread::sleep(Duration::from_millis(5));
    }
}
