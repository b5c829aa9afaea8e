//! `hooks trust` driven as a process: review, trust, list, revoke; concurrent writers; a
//! hostile store; a changed script.

use std::path::{Path, PathBuf};

use crate::{
    cli::{code, hooks_in_env, hooks_in_state_env, output, spawn_hooks, stderr, stdout},
    support::TestDir,
};

const CURSOR: &str = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny-rm.sh", "timeout": 5}]}}"#;
const DENY: &str = "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\"}' ;; *) echo '{\"permission\":\"allow\"}' ;; esac\n";

/// A project with a Cursor file and its script, and a state directory for the store.
struct Setup {
    project: TestDir,
    state: TestDir,
}

impl Setup {
    fn new() -> Setup {
        let project = TestDir::new();
        project.write(".cursor/hooks.json", CURSOR);
        project.script(".cursor/deny-rm.sh", DENY);
        Setup { project, state: TestDir::new() }
    }

    fn hooks(&self, args: &[&str]) -> std::process::Output {
        self.hooks_in(self.project.path(), args)
    }

    fn hooks_in(&self, cwd: &Path, args: &[&str]) -> std::process::Output {
        hooks_in_env(cwd, args, "", &self.env())
    }

    fn env(&self) -> [(&'static str, &Path); 2] {
        [("XDG_STATE_HOME", self.state.path()), ("HOME", self.state.path())]
    }

    fn store(&self) -> PathBuf {
        self.state.path().join("agent-hooks/trust.json")
    }
}

fn both(o: &std::process::Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

#[test]
fn trust_shows_what_it_would_trust_redacted_and_asks_or_takes_yes() {
    let s = Setup::new();
    // Standard input is not a terminal: nothing is trusted without --yes.
    let asked = s.hooks(&["trust"]);
    assert_eq!(code(&asked), 3, "{}", both(&asked));
    let text = stdout(&asked);
    assert!(text.contains(".cursor/hooks.json [project_cursor_file] not trusted yet"), "{text}");
    assert!(text.contains("runs .cursor/deny-rm.sh  sha256:"), "{text}");
    assert!(text.contains("(use --reveal)") && !text.contains("./.cursor/deny-rm.sh\""), "{text}");
    assert!(text.contains("pass --yes"), "{text}");
    assert!(!s.store().exists(), "nothing was written");

    let revealed = s.hooks(&["trust", "--reveal"]);
    assert!(stdout(&revealed).contains("./.cursor/deny-rm.sh"), "{}", stdout(&revealed));

    let yes = s.hooks(&["trust", "--yes"]);
    assert_eq!(code(&yes), 0, "{}", both(&yes));
    assert!(stdout(&yes).contains("trusted .cursor/hooks.json"), "{}", stdout(&yes));
    let again = s.hooks(&["trust", "--yes"]);
    assert_eq!(code(&again), 0, "{}", both(&again));
    assert!(stdout(&again).contains("trusted, unchanged"), "{}", stdout(&again));
    assert!(stdout(&again).contains("nothing new to trust"), "{}", stdout(&again));

    let list = s.hooks(&["trust", "--list"]);
    assert_eq!(code(&list), 0, "{}", both(&list));
    assert!(stdout(&list).contains("1 script(s): unchanged"), "{}", stdout(&list));
}

#[test]
fn a_changed_script_or_file_needs_trusting_again_and_revoke_forgets() {
    let s = Setup::new();
    let root = s.project.path().to_str().unwrap().to_owned();
    assert_eq!(code(&s.hooks(&["trust", "--yes"])), 0);

    s.project.script(".cursor/deny-rm.sh", "#!/bin/sh\necho '{\"permission\":\"allow\"}'\n");
    let list = s.hooks(&["trust", "--list"]);
    assert!(
        stdout(&list).contains("changed since it was trusted (the script"),
        "{}",
        stdout(&list)
    );
    assert!(stdout(&list).contains("run `hooks trust`"), "{}", stdout(&list));
    let review = s.hooks(&["trust"]);
    assert_eq!(code(&review), 3);
    assert!(
        stdout(&review).contains("changed since it was trusted: the script"),
        "{}",
        stdout(&review)
    );
    assert_eq!(code(&s.hooks(&["trust", "--yes"])), 0);
    assert!(stdout(&s.hooks(&["trust", "--list"])).contains(": unchanged"));

    s.project.write(".cursor/hooks.json", &CURSOR.replace("\"timeout\": 5", "\"timeout\": 6"));
    let list = s.hooks(&["trust", "--list"]);
    assert!(stdout(&list).contains("its content changed"), "{}", stdout(&list));

    // --root from elsewhere.
    let elsewhere = TestDir::new();
    let revoked = s.hooks_in(elsewhere.path(), &["trust", "--revoke", "--root", &root]);
    assert_eq!(code(&revoked), 0, "{}", both(&revoked));
    assert!(stdout(&revoked).contains("revoked "), "{}", stdout(&revoked));
    assert!(stdout(&s.hooks(&["trust", "--list"])).contains("nothing is trusted"));
}

/// Finding F15 through the trust store: a trusted hook that runs a task runner's recipe or a
/// package script (`make -C tools check`, `yarn lint`) or loads a file through a variable
/// (`BASH_ENV`) pins that file, so a repository update that rewrites it makes the hook file
/// inert until the user trusts it again (before the fix, each change kept it trusted).
#[test]
fn a_changed_recipe_manifest_or_loaded_file_needs_trusting_again() {
    let s = Setup::new();
    s.project.write(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [
            {"command": "make -C tools check"},
            {"command": "yarn lint"},
            {"command": "BASH_ENV=.cursor/env.sh bash -c gate"}]}}"#,
    );
    s.project.write("tools/Makefile", "check:\n\t./lint.sh\n");
    s.project.write("package.json", r#"{"scripts": {"lint": "eslint ."}}"#);
    s.project.write(".cursor/env.sh", "gate() { exit 2; }\n");
    for (file, text) in [
        ("tools/Makefile", "check:\n\ttrue\n"),
        ("package.json", r#"{"scripts": {"lint": "true"}}"#),
        (".cursor/env.sh", "gate() { exit 0; }\n"),
    ] {
        assert_eq!(code(&s.hooks(&["trust", "--yes"])), 0);
        assert!(stdout(&s.hooks(&["trust", "--list"])).contains(": unchanged"));
        s.project.write(file, text);
        let list = stdout(&s.hooks(&["trust", "--list"]));
        assert!(list.contains("changed since it was trusted (the script"), "{file}: {list}");
        assert!(list.contains(file), "{file}: {list}");
    }
}

/// The review tells what the hooks run from what their scripts load: a script the command
/// names "runs", the library it sources and a file it sources only when present "its scripts
/// load" (both pinned; before, the review said every one of them "runs").
#[test]
fn the_review_tells_what_a_hook_runs_from_what_its_scripts_load() {
    let s = Setup::new();
    s.project.write(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "sh scripts/gate.sh"}]}}"#,
    );
    s.project.script(
        "scripts/gate.sh",
        "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n[ -f scripts/policy.sh ] && . scripts/policy.sh\ndeny\n",
    );
    s.project.write("scripts/lib.sh", "deny() { exit 2; }\n");
    let review = s.hooks(&["trust"]);
    let text = stdout(&review);
    assert!(text.contains("\n  runs scripts/gate.sh  sha256:"), "{text}");
    assert!(text.contains("\n  its scripts load scripts/lib.sh  sha256:"), "{text}");
    assert!(text.contains("\n  its scripts load scripts/policy.sh  absent"), "{text}");
    assert!(!text.contains("runs scripts/lib.sh"), "{text}");
}

#[test]
fn a_file_that_does_not_parse_or_a_script_that_cannot_be_pinned_is_not_trusted() {
    let s = Setup::new();
    s.project.write(".claude/settings.json", "{ not json");
    let out = s.hooks(&["trust", "--yes"]);
    assert_eq!(code(&out), 1, "{}", both(&out));
    assert!(
        stdout(&out).contains(
            ".claude/settings.json [project_claude_settings]: cannot be trusted: it does not parse"
        ),
        "{}",
        stdout(&out)
    );
    // The file that can be trusted is.
    assert!(stdout(&out).contains("trusted .cursor/hooks.json"), "{}", stdout(&out));
}

/// Many `hooks trust` processes writing the same store at once lose nothing: each one's
/// read-change-replace runs under the store's lock.
#[test]
fn concurrent_trust_processes_lose_no_entry() {
    let state = TestDir::new();
    let projects: Vec<TestDir> = (0..8)
        .map(|_| {
            let p = TestDir::new();
            p.write(".cursor/hooks.json", CURSOR);
            p.script(".cursor/deny-rm.sh", DENY);
            p
        })
        .collect();
    let env = [("XDG_STATE_HOME", state.path()), ("HOME", state.path())];
    let children: Vec<_> = projects
        .iter()
        .map(|p| spawn_hooks(p.path(), &["trust", "--yes"], state.path(), &env))
        .collect();
    for child in children {
        let out = output(child);
        assert_eq!(code(&out), 0, "{}", both(&out));
    }
    let list = hooks_in_env(state.path(), &["trust", "--list"], "", &env);
    let lines = stdout(&list).lines().filter(|l| l.contains(": unchanged")).count();
    assert_eq!(lines, projects.len(), "{}", stdout(&list));
}

#[test]
fn a_hostile_store_is_neither_trusted_nor_overwritten() {
    let s = Setup::new();
    std::fs::create_dir_all(s.store().parent().unwrap()).unwrap();
    let hostile = format!(
        r#"{{"version":1,"files":[{{"path":"{}/.cursor/hooks.json","kind":"project_cursor_file","root":null,"sha256":"{}","trusted_at":0,"trust_everything":true}}]}}"#,
        s.project.path().display(),
        "0".repeat(64)
    );
    std::fs::write(s.store(), &hostile).unwrap();
    let out = s.hooks(&["trust", "--yes"]);
    assert_eq!(code(&out), 1, "{}", both(&out));
    assert!(stderr(&out).contains("is not valid"), "{}", both(&out));
    assert_eq!(std::fs::read_to_string(s.store()).unwrap(), hostile);
    let list = s.hooks(&["trust", "--list"]);
    assert_eq!(code(&list), 1, "{}", both(&list));
}

/// `hooks guard --json` over `paths` for the project, in the setup's environment: one JSON
/// line per path.
fn guard_lines(s: &Setup, paths: &[&str]) -> Vec<serde_json::Value> {
    let root = s.project.path().to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--json"];
    args.extend_from_slice(paths);
    let out = s.hooks(&args);
    stdout(&out)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// An agent that could edit the trust store could trust its own hooks: the guard protects the
/// store's folder whole (the store, its lock, the temporary file a write renames over it),
/// before the store exists and after, however the path is spelled.
#[test]
fn the_guard_protects_the_trust_store_its_lock_and_its_folder_however_spelled() {
    let s = Setup::new();
    let state = s.state.path().display().to_string();
    #[cfg(unix)]
    std::os::unix::fs::symlink(s.state.path(), s.project.path().join("st")).expect("symlink");
    let store = format!("{state}/agent-hooks/trust.json");
    let lock = format!("{state}/agent-hooks/trust.json.lock");
    let tmp = format!("{state}/agent-hooks/.trust-x.tmp");
    let folder = format!("{state}/agent-hooks");
    let dotted = format!("{state}/x/../agent-hooks/./trust.json");
    let url = format!("file://{state}/agent-hooks/trust%2Ejson");
    let outside = format!("{state}/notes.txt");
    let paths = [
        store.as_str(),
        lock.as_str(),
        tmp.as_str(),
        folder.as_str(),
        s.state.path().to_str().expect("utf-8"),
        dotted.as_str(),
        "~/agent-hooks/trust.json",
        "st/agent-hooks/trust.json",
        url.as_str(),
        outside.as_str(),
    ];
    let expected = [false, false, false, false, false, false, false, false, false, true];
    for when in ["before the store exists", "after `hooks trust --yes`"] {
        let lines = guard_lines(&s, &paths);
        let allowed: Vec<bool> = lines.iter().map(|l| l["allowed"].as_bool().unwrap()).collect();
        assert_eq!(allowed, expected, "{when}: {lines:#?}");
        assert_eq!(lines[0]["hits"][0]["source_kind"], "user_trust_store", "{lines:#?}");
        assert_eq!(code(&s.hooks(&["trust", "--yes"])), 0);
        assert!(s.store().exists());
    }
}

/// The engine's runtime folder holds a running hook's payload and result files (a Chrys
/// hook's decision is read from its result file after it exits), the detached hooks' logs and
/// the durable outbox's jobs: an agent whose file tool (a parallel tool call, a subagent)
/// could write there could answer for a gating hook or plant a job. The guard protects the
/// folder whole, before it exists and after, however spelled.
#[test]
fn the_guard_protects_the_engine_s_runtime_folder() {
    let s = Setup::new();
    // The runtime folder is `$XDG_CONFIG_HOME/agent-hooks`, here `~/.config/agent-hooks`.
    let config = s.state.path().join(".config");
    let runtime = format!("{}/agent-hooks", config.display());
    let result = format!("{runtime}/tmp/chrys-result-0123abcd.json");
    let job = format!("{runtime}/outbox/pending/00112233aabbccdd.json");
    let outside = format!("{}/.config/notes.txt", s.state.path().display());
    let paths = [
        result.as_str(),
        job.as_str(),
        runtime.as_str(),
        "~/.config/agent-hooks/tmp/x.json",
        outside.as_str(),
    ];
    let root = s.project.path().to_str().expect("utf-8");
    let args = [&["guard", "--root", root, "--cwd", root, "--json"][..], &paths[..]].concat();
    for when in ["before the folder exists", "after it exists"] {
        let out = hooks_in_state_env(s.project.path(), &args, "", &config, &s.env());
        let lines: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect();
        let allowed: Vec<bool> = lines.iter().map(|l| l["allowed"].as_bool().unwrap()).collect();
        assert_eq!(allowed, [false, false, false, false, true], "{when}: {lines:#?}");
        assert_eq!(lines[0]["hits"][0]["source_kind"], "user_engine_runtime", "{lines:#?}");
        std::fs::create_dir_all(format!("{runtime}/tmp")).expect("mkdir");
    }
}

/// Issue 20, the store in the runtime: Codex reviews every user hook before it runs it, and so
/// does the engine (`hooks list`): the user's Codex file is inert until trusted, in Codex's
/// own `[hooks.state]` or with `hooks trust`; changed afterwards, inert again.
#[test]
fn in_the_runtime_a_user_codex_file_is_inert_until_trusted_and_again_once_changed() {
    let home = TestDir::new();
    let project = TestDir::new();
    let text = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo stop"}]}]}}"#;
    home.write(".codex/hooks.json", text);
    let codex = home.path().join(".codex");
    let env =
        [("HOME", home.path()), ("CODEX_HOME", codex.as_path()), ("XDG_STATE_HOME", home.path())];
    let status = || {
        let out = hooks_in_env(project.path(), &["list", "--json"], "", &env);
        assert_eq!(code(&out), 0, "{}", both(&out));
        let inv: serde_json::Value =
            serde_json::from_str(stdout(&out).lines().next().expect("a line")).expect("json");
        let src = inv["sources"]
            .as_array()
            .expect("sources")
            .iter()
            .find(|s| s["kind"] == "user_codex_hooks")
            .cloned()
            .unwrap_or_else(|| panic!("listed: {inv}"));
        let trust = &src["trust"];
        (trust["decision"].as_str().expect("decision").to_owned(), trust["reason"].to_string())
    };
    let (decision, why) = status();
    assert_eq!(decision, "inert", "{why}");
    assert!(why.contains("run `hooks trust`"), "{why}");

    // Trusted in Codex itself: the hook's hash under its key in the user's config.toml.
    let entries = hooks_format_codex::hook_entries(
        text.as_bytes(),
        &codex.join("hooks.json"),
        hooks_format_codex::USER_HOOKS,
    )
    .expect("accepted");
    let state: String = entries
        .iter()
        .map(|e| format!("[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n", e.key, e.hash))
        .collect();
    home.write(".codex/config.toml", &state);
    let (decision, why) = status();
    assert_eq!(decision, "active", "{why}");
    assert!(why.contains("Codex itself trusted"), "{why}");

    // Changed since: inert again.
    home.write(".codex/hooks.json", &text.replace("echo stop", "echo changed"));
    assert_eq!(status().0, "inert");

    // Trusted with `hooks trust` (it reviews the user's Codex files too): active.
    let root = project.path().to_str().expect("utf-8");
    let trusted = hooks_in_env(project.path(), &["trust", "--yes", "--root", root], "", &env);
    assert_eq!(code(&trusted), 0, "{}", both(&trusted));
    let (decision, why) = status();
    assert_eq!(decision, "active", "{why}");
    assert!(why.contains("what the user trusted"), "{why}");
}
