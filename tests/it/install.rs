//! `hooks install --host` driven as a process: a diff before anything is written, a backup,
//! idempotence, `--uninstall` giving the user's file back, refusal of a file it cannot
//! parse, and the guard protecting what install wrote (project and user files).

use std::path::Path;

use crate::{
    cli::{code, hooks_in_env, stderr, stdout},
    support::TestDir,
};

const BRIDGE: &str = "/opt/hooks/bin/hooks";

const CLAUDE_LOCAL: &str = r#"{
  "permissions": { "allow": ["Bash(make)"] },
  "model": "sonnet"
}
"#;

fn both(o: &std::process::Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// `hooks <args>` in `cwd` with `home` as `$HOME` (and Codex's folder under it).
fn hooks(cwd: &Path, home: &Path, args: &[&str]) -> std::process::Output {
    let codex = home.join(".codex");
    hooks_in_env(cwd, args, "", &[("HOME", home), ("CODEX_HOME", &codex), ("XDG_STATE_HOME", home)])
}

/// Whether `hooks guard` refuses an agent's edit of `path` in the project `root`.
fn guarded(root: &Path, home: &Path, path: &str) -> bool {
    let r = root.to_str().expect("utf-8");
    let out = hooks(root, home, &["guard", "--root", r, "--cwd", r, path]);
    code(&out) == 2
}

#[test]
fn install_shows_a_diff_backs_up_is_idempotent_and_uninstall_gives_the_file_back() {
    let project = TestDir::new();
    let home = TestDir::new();
    let file = project.write(".claude/settings.local.json", CLAUDE_LOCAL);
    let root = project.path().to_str().expect("utf-8");
    let install = ["install", "--host", "claude", "--root", root, "--bridge", BRIDGE];

    let dry = hooks(project.path(), home.path(), &[&install[..], &["--dry-run"]].concat());
    assert_eq!(code(&dry), 0, "{}", both(&dry));
    assert!(
        stdout(&dry).contains("+            \"command\": \"/opt/hooks/bin/hooks bridge --host claude --event PreToolUse\","),
        "{}",
        stdout(&dry)
    );
    assert!(stdout(&dry).contains("not written"), "{}", stdout(&dry));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CLAUDE_LOCAL, "a dry run writes nothing");

    let out = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&out), 0, "{}", both(&out));
    assert!(stdout(&out).contains("installed the bridge for 14 event(s)"), "{}", stdout(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("\"model\": \"sonnet\""), "{written}");
    assert!(written.contains("bridge --host claude --event Stop"), "{written}");
    let backup = project.path().join(".claude/settings.local.json.agent-hooks.bak");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), CLAUDE_LOCAL);

    let again = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&again), 0, "{}", both(&again));
    assert!(stdout(&again).contains("already installed"), "{}", stdout(&again));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);

    // The file install writes is one the guard protects from the agent.
    assert!(guarded(project.path(), home.path(), ".claude/settings.local.json"));

    let un = hooks(project.path(), home.path(), &[&install[..], &["--uninstall"]].concat());
    assert_eq!(code(&un), 0, "{}", both(&un));
    assert!(stdout(&un).contains("removed 14 bridge entries"), "{}", stdout(&un));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CLAUDE_LOCAL);
}

#[test]
fn a_user_install_creates_the_agent_s_file_and_uninstall_removes_it() {
    let project = TestDir::new();
    let home = TestDir::new();
    let hooks_json = home.path().join(".codex/hooks.json");
    // Before it exists, the guard already protects it (creating it changes what Codex runs).
    let shown = hooks_json.to_str().expect("utf-8");
    assert!(guarded(project.path(), home.path(), shown));
    let args = ["install", "--host", "codex", "--scope", "user", "--bridge", BRIDGE];
    let out = hooks(project.path(), home.path(), &args);
    assert_eq!(code(&out), 0, "{}", both(&out));
    assert!(stdout(&out).contains("--- /dev/null"), "{}", stdout(&out));
    let text = std::fs::read_to_string(&hooks_json).unwrap();
    assert!(text.contains("bridge --host codex --event SessionEnd"), "{text}");
    // Codex's own reader accepts what was written.
    let check = hooks(project.path(), home.path(), &["check", shown]);
    assert_eq!(code(&check), 0, "{}", both(&check));
    assert!(guarded(project.path(), home.path(), shown));

    let un = hooks(project.path(), home.path(), &[&args[..], &["--uninstall"]].concat());
    assert_eq!(code(&un), 0, "{}", both(&un));
    assert!(stdout(&un).contains("held nothing else: removed"), "{}", stdout(&un));
    assert!(!hooks_json.exists());
}

#[test]
fn a_file_it_cannot_parse_or_an_unknown_agent_is_refused_and_nothing_is_written() {
    let project = TestDir::new();
    let home = TestDir::new();
    let file = project.write(".cursor/hooks.json", "{ \"version\": 1, \"hooks\": ");
    let root = project.path().to_str().expect("utf-8");
    let out = hooks(project.path(), home.path(), &["install", "--host", "cursor", "--root", root]);
    assert_eq!(code(&out), 1, "{}", both(&out));
    assert!(stderr(&out).contains("nothing was written"), "{}", both(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ \"version\": 1, \"hooks\": ");
    assert!(!project.path().join(".cursor/hooks.json.agent-hooks.bak").exists());

    let out = hooks(project.path(), home.path(), &["install", "--host", "nope", "--root", root]);
    assert_eq!(code(&out), 1, "{}", both(&out));
    assert!(stderr(&out).contains("no such agent"), "{}", both(&out));
}

/// Copilot CLI gets its own hook file (`.github/hooks/agent-hooks.json`, `{"version": 1}`,
/// flat `bash` entries under the camelCase events), which Copilot's reader accepts, the guard
/// protects, a second install leaves alone and uninstall removes; in the user's folder too.
#[test]
fn copilot_gets_its_own_hook_file_in_the_project_and_the_user_folder() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let install = ["install", "--host", "copilot", "--root", root, "--bridge", BRIDGE];
    let out = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&out), 0, "{}", both(&out));
    assert!(stdout(&out).contains("--- /dev/null"), "{}", stdout(&out));
    let file = project.path().join(".github/hooks/agent-hooks.json");
    let text = std::fs::read_to_string(&file).expect("written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["version"], 1);
    assert_eq!(
        v["hooks"]["preToolUse"][0],
        serde_json::json!({"type": "command", "bash": format!("{BRIDGE} bridge --host copilot --event preToolUse"), "timeoutSec": 600})
    );
    assert!(v["hooks"].get("PreToolUse").is_none(), "{text}");
    let shown = file.to_str().expect("utf-8");
    let check = hooks(project.path(), home.path(), &["check", shown]);
    assert_eq!(code(&check), 0, "Copilot's reader accepts it: {}", both(&check));
    assert!(guarded(project.path(), home.path(), ".github/hooks/agent-hooks.json"));
    let again = hooks(project.path(), home.path(), &install);
    assert!(stdout(&again).contains("already installed"), "{}", stdout(&again));
    let un = hooks(project.path(), home.path(), &[&install[..], &["--uninstall"]].concat());
    assert_eq!(code(&un), 0, "{}", both(&un));
    assert!(!file.exists(), "a file that held only the bridge is removed");

    let user = ["install", "--host", "copilot", "--scope", "user", "--bridge", BRIDGE];
    let out = hooks(project.path(), home.path(), &user);
    assert_eq!(code(&out), 0, "{}", both(&out));
    let file = home.path().join(".copilot/hooks/agent-hooks.json");
    assert!(std::fs::read_to_string(&file).expect("written").contains("--event agentStop"));
    hooks(project.path(), home.path(), &[&user[..], &["--uninstall"]].concat());
    assert!(!file.exists());
}

/// Windsurf's `hooks.json` keeps the user's hooks, is backed up, gets flat `command` entries
/// and its file is given back by uninstall; a file it cannot parse is refused.
#[test]
fn windsurf_keeps_the_users_hooks_and_refuses_a_file_it_cannot_parse() {
    let project = TestDir::new();
    let home = TestDir::new();
    let mine = "{\n  \"hooks\": {\n    \"pre_run_command\": [\n      { \"command\": \"python3 check.py\", \"show_output\": true }\n    ]\n  }\n}\n";
    let file = project.write(".windsurf/hooks.json", mine);
    let root = project.path().to_str().expect("utf-8");
    let install = ["install", "--host", "windsurf", "--root", root, "--bridge", BRIDGE];
    let out = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&out), 0, "{}", both(&out));
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(text.contains("python3 check.py"), "{text}");
    assert!(text.contains("bridge --host windsurf --event pre_write_code"), "{text}");
    let backup = project.path().join(".windsurf/hooks.json.agent-hooks.bak");
    assert_eq!(std::fs::read_to_string(&backup).expect("backup"), mine);
    let check = hooks(project.path(), home.path(), &["check", file.to_str().expect("utf-8")]);
    assert_eq!(code(&check), 0, "{}", both(&check));
    let un = hooks(project.path(), home.path(), &[&install[..], &["--uninstall"]].concat());
    assert_eq!(code(&un), 0, "{}", both(&un));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), mine);

    std::fs::write(&file, "{ \"hooks\": { ").expect("break it");
    let out = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&out), 1, "{}", both(&out));
    assert!(stderr(&out).contains("nothing was written"), "{}", both(&out));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "{ \"hooks\": { ");
}

/// Codex runs a user or project hook only once its user reviewed it (`[hooks.state]` in
/// `$CODEX_HOME/config.toml`): install records the bridge entries it wrote there, at the
/// hash Codex computes, keeping the rest of the file; uninstall takes exactly those out.
#[test]
fn a_codex_install_records_the_bridge_as_reviewed_in_codex_s_own_config() {
    let project = TestDir::new();
    let home = TestDir::new();
    let mine = "# mine\nmodel = \"o3\" # keep\n\n[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\nenabled = false\n";
    let config = home.write(".codex/config.toml", mine);
    let root = project.path().to_str().expect("utf-8");
    let install = ["install", "--host", "codex", "--root", root, "--bridge", BRIDGE];
    let out = hooks(project.path(), home.path(), &install);
    assert_eq!(code(&out), 0, "{}", both(&out));
    assert!(stdout(&out).contains("as reviewed in Codex's own record"), "{}", stdout(&out));
    let text = std::fs::read_to_string(&config).expect("config.toml");
    assert!(text.starts_with("# mine\nmodel = \"o3\" # keep\n"), "{text}");
    assert!(text.contains("enabled = false"), "{text}");
    let backup = home.path().join(".codex/config.toml.agent-hooks.bak");
    assert_eq!(std::fs::read_to_string(&backup).expect("backup"), mine);
    // By Codex's own rule every hook of the installed file is now reviewed as it is.
    let formats = hooks_app::formats::workspace_formats();
    let codex = formats.named("codex").expect("codex");
    let hooks_json = hooks_registry::canonicalize(&project.path().join(".codex/hooks.json"))
        .expect("written")
        .into_path_buf();
    let parse = |path: &Path, kind| {
        let bytes = std::fs::read(path).expect("read");
        codex.parse(&bytes, &hooks_schema::ParseContext::new(path, kind)).expect("parses")
    };
    let installed = parse(&hooks_json, hooks_format_codex::PROJECT_HOOKS);
    assert!(installed.definitions.len() > 5, "{installed:?}");
    let user_config = parse(&config, hooks_format_codex::USER_CONFIG);
    assert!(codex.agent_reviewed(&hooks_json, &installed, &[&user_config]));
    assert!(!codex.agent_reviewed(&hooks_json, &installed, &[]), "not without the record");
    // A second install changes nothing; uninstall gives config.toml back byte for byte.
    let again = hooks(project.path(), home.path(), &install);
    assert!(stdout(&again).contains("already installed"), "{}", stdout(&again));
    assert_eq!(std::fs::read_to_string(&config).expect("config.toml"), text);
    let un = hooks(project.path(), home.path(), &[&install[..], &["--uninstall"]].concat());
    assert_eq!(code(&un), 0, "{}", both(&un));
    assert_eq!(std::fs::read_to_string(&config).expect("config.toml"), mine);
    assert!(!project.path().join(".codex/hooks.json").exists());
}

/// Without `--root`, install writes the file the agent reads for a session started in the
/// current folder: there for Claude Code, Gemini CLI and Copilot CLI, which read the folder
/// they start in (observed, `specs/bridge.md`), the repository's root for Codex, which reads
/// every folder's from the root down, and Cursor. Before, it always wrote the root's, which
/// Claude Code, Gemini CLI and Copilot CLI started in the subfolder do not read: the bridge
/// never ran there.
#[test]
fn install_in_a_subfolder_writes_the_file_a_session_started_there_reads() {
    let repo = TestDir::new();
    let home = TestDir::new();
    std::fs::create_dir(repo.path().join(".git")).expect(".git");
    let pkg = repo.path().join("pkg");
    std::fs::create_dir(&pkg).expect("pkg");
    for (host, at_session, at_root) in [
        ("claude", "pkg/.claude/settings.local.json", ".claude/settings.local.json"),
        ("gemini", "pkg/.gemini/settings.json", ".gemini/settings.json"),
        ("copilot", "pkg/.github/hooks/agent-hooks.json", ".github/hooks/agent-hooks.json"),
        ("codex", ".codex/hooks.json", "pkg/.codex/hooks.json"),
        ("cursor", ".cursor/hooks.json", "pkg/.cursor/hooks.json"),
    ] {
        let out = hooks(&pkg, home.path(), &["install", "--host", host, "--bridge", BRIDGE]);
        assert_eq!(code(&out), 0, "{host}: {}", both(&out));
        assert!(repo.path().join(at_session).is_file(), "{host}: {at_session} written");
        assert!(!repo.path().join(at_root).exists(), "{host}: {at_root} not written");
    }
}
