//! Issue 17, "Guard": everything a hook executes or reads as configuration is protected,
//! however it is spelled. Each scenario drives the real `hooks` tool (`hooks guard`,
//! `hooks list`) as a child process, the way an attacker-controlled repository meets it.

use std::path::Path;

use serde_json::Value;

use crate::{
    cli::hooks_in_env,
    support::{TestDir, git_repository},
};

/// A project whose Cursor hook runs `.cursor/gate.sh`.
fn cursor_project() -> TestDir {
    let d = TestDir::new();
    d.write(
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/gate.sh"}]}}"#,
    );
    d.script(".cursor/gate.sh", "#!/bin/sh\necho '{\"permission\":\"deny\"}'\n");
    d
}

/// Runs `hooks guard --json` over `paths` for the project `root`, from the process directory
/// `process_cwd`, with an empty user configuration in `home` (also `$HOME`); returns the exit
/// code and one JSON line per path.
fn guard(root: &Path, process_cwd: &Path, home: &Path, paths: &[&str]) -> (i32, Vec<Value>) {
    let root = root.to_str().expect("utf-8");
    let cfg = home.to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend_from_slice(paths);
    let o = hooks_in_env(process_cwd, &args, "", &[("HOME", home)]);
    let lines = json_lines(&o.stdout);
    (o.status.code().expect("exited"), lines)
}

/// Runs `hooks guard` in `project` (its root and the session's directory) with `home`, and
/// checks that the first `refused` of `paths` were refused and the others allowed; returns
/// the report's lines.
fn guard_refusing(project: &Path, home: &Path, paths: &[&str], refused: usize) -> Vec<Value> {
    let (code, lines) = guard(project, project, home, paths);
    assert_eq!(code, 2, "{lines:?}");
    let expected: Vec<bool> = (0..paths.len()).map(|i| i >= refused).collect();
    assert_eq!(allowed(&lines), expected, "{lines:#?}");
    lines
}

/// With `settings` (a `.claude/settings.json` under `owner`, the project or the home)
/// holding one hook that runs none of the programs a test's hooks ran (`jq`), `hooks guard`
/// in `project` allows every one of `paths`: what the test saw refused was that program's.
fn all_allowed_with_a_hook_that_runs_none_of_them(
    owner: &TestDir,
    project: &Path,
    home: &Path,
    paths: &[&str],
) {
    owner.write(".claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let (code, lines) = guard(project, project, home, paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// One JSON value per non-empty line of `hooks guard --json`'s output.
fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// `hooks list --json` for the project `root` with the user configuration in `home` (also
/// `$HOME`), as one JSON document.
fn list_json(root: &Path, home: &Path) -> Value {
    let (r, cfg) = (root.to_str().expect("utf-8"), home.to_str().expect("utf-8"));
    let args = ["list", "--json", "--root", r, "--config-dir", cfg];
    let o = hooks_in_env(root, &args, "", &[("HOME", home)]);
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

/// Checks that every path but the last was refused and the last allowed.
fn all_refused_but_the_last(lines: &[Value], paths: usize) {
    let mut expected = vec![false; paths - 1];
    expected.push(true);
    assert_eq!(allowed(lines), expected, "{lines:#?}");
}

fn allowed(lines: &[Value]) -> Vec<bool> {
    lines.iter().map(|l| l["allowed"].as_bool().expect("allowed")).collect()
}

#[test]
fn process_relative_paths_are_refused_not_read_in_the_guards_own_process() {
    let project = cursor_project();
    let elsewhere = TestDir::new();
    let home = TestDir::new();
    // The agent's session is in the project; the guard's process is elsewhere, where
    // `/proc/self/cwd` leads to a folder without hook files.
    #[cfg(unix)]
    std::os::unix::fs::symlink("/proc/self/cwd", project.path().join("here")).expect("symlink");
    let (code, lines) = guard(
        project.path(),
        elsewhere.path(),
        home.path(),
        &["/proc/self/cwd/.cursor/hooks.json", "/dev/fd/0", "here/.cursor/gate.sh"],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(allowed(&lines), [false, false, false], "{lines:?}");
    for line in &lines {
        let why = line["unresolved"].as_str().expect("unresolved");
        assert!(why.contains("relative to the process that opens it"), "{line}");
    }
}

#[test]
fn tilde_and_file_urls_reach_the_files_they_name() {
    let project = cursor_project();
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    let url = format!("file://{}/.cursor/hooks.json", project.path().display());
    let escaped = format!("file://{}/%2Ecursor/gate.sh", project.path().display());
    let (code, lines) = guard(
        project.path(),
        project.path(),
        home.path(),
        &["~/.claude/settings.json", &url, &escaped, "~/notes.txt"],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(allowed(&lines), [false, false, false, true], "{lines:?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_claude_settings", "{lines:?}");
    assert_eq!(lines[1]["hits"][0]["role"], "hook_file", "{lines:?}");
    assert_eq!(lines[2]["hits"][0]["role"], "script", "{lines:?}");
}

/// Runs [`guard_refusing`] with `lines` as hooks of a Claude Code settings file (whose run
/// folder varies, so a script's name is protected in any folder) and of a Cursor hook file
/// (run from the project's root, which names each file where it is), then checks that every
/// path is allowed once both files hold a hook that runs none of the programs.
fn refusing_under_both_hooks(
    repo: &TestDir,
    home: &TestDir,
    lines: &[&str],
    paths: &[&str],
    refused: usize,
) {
    repo.write(".claude/settings.json", &claude_settings(lines));
    guard_refusing(repo.path(), home.path(), paths, refused);
    repo.write(".claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    repo.write(".cursor/hooks.json", &cursor_hooks(lines));
    guard_refusing(repo.path(), home.path(), paths, refused);
    repo.write(".cursor/hooks.json", &cursor_hooks(&["jq -e .tool_input"]));
    let (code, lines) = guard(repo.path(), repo.path(), home.path(), paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// Claude Code settings with one `PreToolUse` command hook per command.
fn claude_settings(commands: &[&str]) -> String {
    let hooks: Vec<Value> =
        commands.iter().map(|c| serde_json::json!({"type": "command", "command": c})).collect();
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": hooks}]}}).to_string()
}

/// A Cursor hook file with one `beforeShellExecution` hook per command.
fn cursor_hooks(commands: &[&str]) -> String {
    let hooks: Vec<Value> = commands.iter().map(|c| serde_json::json!({"command": c})).collect();
    serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": hooks}}).to_string()
}

#[test]
fn scripts_named_through_the_formats_variables_are_protected_existing_or_not() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#""$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh"#,
            "${CLAUDE_PROJECT_DIR}/.claude/hooks/braces.sh --strict",
            "$CLAUDE_PROJECT_DIR/.claude/hooks/bare.sh",
            r#"python3 "${CLAUDE_PROJECT_DIR}/.claude/hooks/check.py""#,
        ]),
    );
    project.script(".claude/hooks/gate.sh", "#!/bin/sh\nexit 2\n");
    project.write(".cursor/hooks.json", &cursor_hooks(&[r#""$CURSOR_PROJECT_DIR"/tools/c.sh"#]));
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        &claude_settings(&["~/.claude/hooks/mine.sh", "bash $HOME/h.sh"]),
    );
    let (code, lines) = guard(
        project.path(),
        project.path(),
        home.path(),
        &[
            ".claude/hooks/gate.sh",
            ".claude/hooks/braces.sh",
            ".claude/hooks/bare.sh",
            ".claude/hooks/check.py",
            "tools/c.sh",
            &format!("{}/.claude/hooks/mine.sh", home.path().display()),
            &format!("{}/h.sh", home.path().display()),
            "src/ok.rs",
        ],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(
        allowed(&lines),
        [false, false, false, false, false, false, false, true],
        "{lines:#?}"
    );
    assert_eq!(lines[0]["hits"][0]["role"], "script", "{lines:?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_settings", "{lines:?}");
}

/// A hook that first `cd`s into a folder named from a base (a format's variable, `~`,
/// `$HOME`) and then runs a script by a relative name: the script is the file under that
/// folder, and it is protected there (the analysis once made such paths absolute, so the
/// guard protected `/.claude/hooks/mine.sh` and let the real script be rewritten; found by
/// the `command_analysis` fuzz target). Likewise a script under a variable assigned from
/// `~` on the line (the shell expands a `~` that starts an assignment's value).
#[test]
fn a_script_run_after_a_cd_into_a_folder_under_a_base_is_protected() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[r#"cd "$CLAUDE_PROJECT_DIR"/.claude/hooks && ./gate.sh"#]),
    );
    project.script(".claude/hooks/gate.sh", "#!/bin/sh\nexit 2\n");
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        &claude_settings(&[
            "cd ~/.claude/hooks && ./mine.sh",
            "cd $HOME/bin; bash h.sh",
            "K=~/lib; sh $K/k.sh",
        ]),
    );
    let (code, lines) = guard(
        project.path(),
        project.path(),
        home.path(),
        &[
            ".claude/hooks/gate.sh",
            &format!("{}/.claude/hooks/mine.sh", home.path().display()),
            &format!("{}/bin/h.sh", home.path().display()),
            &format!("{}/lib/k.sh", home.path().display()),
            "src/ok.rs",
        ],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(allowed(&lines), [false, false, false, false, true], "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["role"], "script", "{lines:?}");
}

#[test]
fn scripts_named_through_chrys_run_directories_and_variables_are_protected() {
    // Chrys's own variables: `run.cwd` and `run.env` values name folders through
    // `${workspace_cwd}` (the session's folder) and `${chrys_home}` (the user's Chrys folder).
    let project = TestDir::new();
    project.write(
        ".chrys/hooks/hooks.yaml",
        concat!(
            "version: 1\nhooks:\n",
            "  - id: in-tools\n    event: before_tool_call\n",
            "    run: {type: shell, shell: ./gate.sh, cwd: '${workspace_cwd}/tools'}\n",
            "  - id: through-env\n    event: before_tool_call\n",
            "    run: {type: shell, shell: 'bash \"$HOOKS/check.sh\"', env: {HOOKS: '${workspace_cwd}/lib'}}\n",
            "  - id: in-home\n    event: before_tool_call\n",
            "    run: {type: shell, shell: 'sh $DATA/c.sh', env: {DATA: '${chrys_home}/bin'}}\n",
        ),
    );
    let home = TestDir::new();
    let in_home = format!("{}/.chrys/bin/c.sh", home.path().display());
    let (code, lines) = guard(
        project.path(),
        project.path(),
        home.path(),
        &["tools/gate.sh", "lib/check.sh", &in_home, "gate.sh", "src/ok.rs"],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(allowed(&lines), [false, false, false, true, true], "{lines:#?}");
    for line in &lines[..3] {
        assert_eq!(line["hits"][0]["role"], "script", "{line}");
        assert_eq!(line["hits"][0]["source_kind"], "project_chrys_file", "{line}");
    }
}

#[test]
fn script_forms_behind_wrappers_options_and_compound_commands_are_protected() {
    let project = TestDir::new();
    project.write(
        ".cursor/hooks.json",
        &cursor_hooks(&[
            "bash -e .cursor/a.sh",
            "timeout 5 python3 -u .cursor/b.py",
            "env A=b nice -n 5 ./c.sh",
            "cd tools && ./d.sh",
            "e.sh; ./f.sh | ./g.sh",
            "node --require ./pre.js main.js",
            "./venv/bin/python3 hook.py",
            "uv run h.py",
            "npx tsx i.ts",
            "exec ./j.sh",
        ]),
    );
    let home = TestDir::new();
    // None of the scripts exists: creating any of them is refused as well.
    let paths = [
        ".cursor/a.sh",
        ".cursor/b.py",
        "c.sh",
        "tools/d.sh",
        "f.sh",
        "g.sh",
        "pre.js",
        "main.js",
        "venv/bin/python3",
        "hook.py",
        "h.py",
        "i.ts",
        "j.sh",
        "README.md",
    ];
    guard_refusing(project.path(), home.path(), &paths, paths.len() - 1);
}

/// Finding F15: a hook that runs a package script or a task runner's recipe
/// (`make -C tools check`, `npm --prefix web run lint`, `yarn lint`, `just check`) runs what
/// the `Makefile`, `package.json` or `justfile` says, and a hook whose variable makes the
/// shell load a file (`BASH_ENV`) runs that file: the agent must not be able to rewrite any
/// of them, in the folder the tool reads them from, whether they exist yet or not.
#[test]
fn the_files_a_package_script_or_a_task_runner_runs_are_protected() {
    let project = TestDir::new();
    project.write(
        ".cursor/hooks.json",
        &cursor_hooks(&[
            "make -C tools check",
            "npm --prefix web run lint",
            "yarn lint",
            "timeout 60 just check",
            "deno task check",
            "BASH_ENV=.cursor/env.sh bash -c gate",
            "direnv exec ci ./gate.sh",
        ]),
    );
    project.write("tools/Makefile", "check:\n\t./lint.sh\n");
    project.write("web/package.json", r#"{"scripts":{"lint":"eslint ."}}"#);
    let home = TestDir::new();
    let paths = [
        "tools/Makefile",
        "tools/GNUmakefile",
        "web/package.json",
        "package.json",
        "justfile",
        "deno.json",
        ".cursor/env.sh",
        "ci/.envrc",
        "ci/gate.sh",
        "src/ok.rs",
    ];
    guard_refusing(project.path(), home.path(), &paths, paths.len() - 1);
}

/// A hook script kept in a subfolder of a configuration folder loads its helpers from beside
/// itself (`import './lib.mjs'`, `source ./common.sh`): an agent that may not edit the script
/// must not edit, or create, what it loads either, in the project or in the user's folder.
#[test]
fn the_helpers_beside_a_hook_script_are_protected_existing_or_not() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#"node "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.mjs"#,
            "python3 ~/.claude/hooks/check.py",
        ]),
    );
    project.write(".claude/hooks/gate.mjs", "import './lib.mjs';\n");
    project.write(".claude/hooks/lib.mjs", "export {};\n");
    let home = TestDir::new();
    let paths = [
        ".claude/hooks/lib.mjs",
        ".claude/hooks/sub/util.mjs",
        "./.claude/hooks/../hooks/new.mjs",
        "~/.claude/hooks/helpers.py",
        "~/.claude/hooks/pkg/__init__.py",
        ".cursor/rules/style.mdc",
        "~/.claude/notes.md",
        "src/ok.rs",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 5);
    // `lib.mjs` is also imported by name (finding F31); a new file in a subfolder is refused
    // by the folder's protection alone.
    assert_eq!(lines[1]["hits"][0]["why"], "inside_folder", "{lines:#?}");
}

/// A hook's shell script that sources helpers (or runs other scripts) from anywhere, not only
/// from beside itself: an agent that may not edit the script must not edit, or create, what
/// the script's own text loads either, however the script names it (its own folder through
/// `$0` or `BASH_SOURCE`, the directory it runs in, the format's variable), nor what those
/// load in turn. Before, only the script itself was protected: rewriting `scripts/lib.sh` to
/// `exit 0` emptied the hook.
#[test]
fn what_a_hook_s_shell_script_sources_or_runs_is_protected_existing_or_not() {
    let project = TestDir::new();
    project.write(".claude/settings.json", &claude_settings(&["bash scripts/gate.sh"]));
    project.script(
        "scripts/gate.sh",
        "#!/bin/sh\nset -e\n. \"$(dirname \"$0\")/lib.sh\"\n\
         [ -f ./scripts/policy.sh ] && . ./scripts/policy.sh\n\
         \"$CLAUDE_PROJECT_DIR/tools/verify.sh\" \"$@\"\ncat <<EOF\n. ./scripts/in-a-heredoc.sh\nEOF\n",
    );
    project.write("scripts/lib.sh", "deny() { echo \"$1\" >&2; exit 2; }\n");
    project.script("tools/verify.sh", "#!/bin/bash\nsource \"${BASH_SOURCE%/*}/common.sh\"\n");
    let home = TestDir::new();
    let paths = [
        "scripts/lib.sh",
        "./scripts/../scripts/lib.sh",
        "scripts/policy.sh",
        "tools/verify.sh",
        "tools/common.sh",
        "scripts/other.sh",
        "scripts/in-a-heredoc.sh",
        "src/ok.rs",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 5);
    assert_eq!(lines[0]["hits"][0]["role"], "script", "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_settings", "{lines:#?}");
    // The script's own constructs raise no doubt about the hook's command line.
    let listed = hooks_in_env(
        project.path(),
        &["list", "--root", project.path().to_str().expect("utf-8"), "--json"],
        "",
        &[("HOME", home.path())],
    );
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains("command_not_analysed"),
        "{}",
        String::from_utf8_lossy(&listed.stdout)
    );
}

/// The scripts the guard now reads for what they source are a repository's files: a FIFO
/// where a hook's script is named, a sourced "script" that is a link to `/dev/urandom`, and
/// one that is a link to `/dev/zero` are not waited on nor read without end; the guard answers
/// (each path still protected) within a bound.
#[test]
fn a_hook_script_that_is_a_fifo_or_a_device_does_not_hang_the_guard() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&["./scripts/gate.sh", "bash scripts/ok.sh"]),
    );
    std::fs::create_dir_all(project.path().join("scripts")).expect("scripts folder");
    let made = std::process::Command::new("mkfifo")
        .arg(project.path().join("scripts/gate.sh"))
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    project.script("scripts/ok.sh", "#!/bin/sh\n. ./scripts/rand.sh\n. ./scripts/zero.sh\n");
    std::os::unix::fs::symlink("/dev/urandom", project.path().join("scripts/rand.sh"))
        .expect("symlink");
    std::os::unix::fs::symlink("/dev/zero", project.path().join("scripts/zero.sh"))
        .expect("symlink");
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8").to_owned();
    let cfg = home.path().to_str().expect("utf-8").to_owned();
    let (tx, rx) = std::sync::mpsc::channel();
    let cwd = project.path().to_path_buf();
    let home_path = home.path().to_path_buf();
    std::thread::spawn(move || {
        let args = [
            "guard",
            "--root",
            &root,
            "--cwd",
            &root,
            "--config-dir",
            &cfg,
            "--json",
            "scripts/gate.sh",
            "scripts/rand.sh",
            "src/ok.rs",
        ];
        let _ = tx.send(hooks_in_env(&cwd, &args, "", &[("HOME", home_path.as_path())]));
    });
    let out = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("hooks guard answers without waiting on the FIFO or reading a device");
    assert_eq!(allowed(&json_lines(&out.stdout)), [false, false, true], "{out:?}");
}

/// A Python hook in the project's `scripts/` folder imports `helpers` from beside itself, and
/// a JavaScript hook imports `../shared/policy.mjs`: neither helper, nor a new `json.py` that
/// would shadow the standard module the Python hook imports, may be written by the agent.
#[test]
fn what_a_python_or_javascript_hook_imports_locally_is_protected_existing_or_not() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#"python3 "$CLAUDE_PROJECT_DIR/scripts/gate.py""#,
            "node web/gate.mjs",
        ]),
    );
    project.write("scripts/gate.py", "import json, sys\nfrom helpers import deny\n");
    project.write("scripts/helpers.py", "def deny():\n    raise SystemExit(2)\n");
    project.write("web/gate.mjs", "import { allow } from '../shared/policy.mjs';\n");
    project.write("shared/policy.mjs", "export const allow = () => false;\n");
    let home = TestDir::new();
    let paths = [
        "scripts/helpers.py",
        "scripts/json.py",
        "shared/policy.mjs",
        "scripts/notes.md",
        "shared/other.mjs",
    ];
    guard_refusing(project.path(), home.path(), &paths, 3);
}

/// A program written into a folder of `$PATH` runs in place of the one found later the next
/// time the user starts an agent by name (`~/.local/bin/claude` starting Claude Code with an
/// empty settings folder) or a hook runs a program by name (a `jq` that prints "allow"); and
/// the engine's own executable answers for every bridged hook. None may be written by the
/// agent, existing or not; a relative `$PATH` entry names no folder, a `$PATH` folder that
/// holds the home or the project is not protected whole, and other files stay writable.
#[test]
fn the_folders_of_path_and_the_engine_s_own_program_are_protected_existing_or_not() {
    let project = TestDir::new();
    let home = TestDir::new();
    let local_bin = home.path().join(".local/bin");
    let tools = TestDir::new();
    // The home and the project on `$PATH` too: such folders are not protected whole, or every
    // edit under them would be refused.
    let path = format!(
        "{}:{}:relative/bin:{}:{}",
        local_bin.display(),
        tools.path().display(),
        home.path().display(),
        project.path().display()
    );
    let engine = crate::cli::engine_program();
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let paths = [
        format!("{}/claude", local_bin.display()),
        format!("{}/jq", local_bin.display()),
        format!("{}/../bin/git", local_bin.display()),
        format!("{}/hooks", tools.path().display()),
        engine.display().to_string(),
        "relative/bin/jq".to_owned(),
        format!("{}/.local/share/notes.md", home.path().display()),
        "src/ok.rs".to_owned(),
    ];
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend(paths.iter().map(String::as_str));
    let o = hooks_in_env(
        project.path(),
        &args,
        "",
        &[("HOME", home.path()), ("PATH", Path::new(&path))],
    );
    let lines = json_lines(&o.stdout);
    assert_eq!(
        allowed(&lines),
        [false, false, false, false, false, true, true, true],
        "{lines:#?}"
    );
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_path_folder", "{lines:#?}");
    assert_eq!(lines[4]["hits"][0]["source_kind"], "user_engine_program", "{lines:#?}");
}

/// Claude Code also loads the skills of `.claude/skills/` folders below the folder it started
/// in (a monorepo's `packages/web/.claude/skills/`), front-matter hooks and all: those are
/// protected at any depth under a project root, existing or not; a folder that only looks
/// alike, or one outside every project, is not.
#[test]
fn claude_s_nested_skills_folders_are_protected_at_any_depth() {
    let project = TestDir::new();
    project.write("packages/web/.claude/skills/deploy/SKILL.md", "---\nname: deploy\n---\n");
    let home = TestDir::new();
    let outside = TestDir::new();
    let elsewhere = outside.path().join("x/.claude/skills/s/SKILL.md");
    // Since F33 the skills of a folder outside the project are protected too: a session
    // started there reads them.
    let paths = [
        "packages/web/.claude/skills/deploy/SKILL.md",
        "packages/web/.claude/skills/deploy/scripts/gate.sh",
        "a/b/c/.claude/skills/new/SKILL.md",
        "./packages/../packages/api/.claude/skills/x/SKILL.md",
        elsewhere.to_str().expect("utf-8"),
        "packages/web/.claude/skills2/x.md",
        "packages/web/skills/deploy/SKILL.md",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 5);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_skills", "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["why"], "inside_folder", "{lines:#?}");
}

/// A session started in any folder reads that folder's project hook files: Gemini CLI its
/// `<cwd>/.gemini/settings.json`, Codex each `.codex/` from the session's folder up to the
/// root, Claude Code the `.claude/` of the folder it starts in. Every format's project files
/// are protected wherever they are (below the root, in another project), existing or not, so
/// an agent cannot rewrite (or plant) the hook file of another folder's next session. Before,
/// only the root's were: all ten below were writable.
#[test]
fn project_hook_files_below_the_root_are_protected_at_any_depth_existing_or_not() {
    let project = TestDir::new();
    let other = TestDir::new();
    let other_project = other.path().join("service/.gemini/settings.json");
    project.write(
        "packages/api/.gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"name": "gate", "type": "command", "command": "exit 2"}]}]}}"#,
    );
    let home = TestDir::new();
    let paths = [
        "packages/api/.gemini/settings.json",
        "packages/web/.gemini/settings.json",
        "a/b/.codex/hooks.json",
        "a/.codex/config.toml",
        "packages/api/.claude/settings.local.json",
        "packages/api/.cursor/hooks.json",
        "packages/api/.github/hooks/gate.json",
        "packages/api/.windsurf/hooks.json",
        "packages/api/.chrys/hooks/hooks.yaml",
        other_project.to_str().expect("utf-8"),
        "packages/api/.gemini/GEMINI.md",
        "packages/api/.cursor/rules/style.mdc",
        "packages/api/src/settings.json",
        "packages/api/hooks.json",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 10);
    let hit = &lines[0]["hits"][0];
    assert_eq!(hit["source_kind"], "project_gemini_settings", "{lines:#?}");
    assert_eq!(hit["why"], "same_path", "{lines:#?}");
    let source = hit["source"].as_str().unwrap_or_default();
    assert!(source.ends_with("packages/api/.gemini/settings.json"), "{lines:#?}");
    assert_eq!(lines[6]["hits"][0]["why"], "inside_folder", "{lines:#?}");
}

/// Each agent's folder of hook scripts (`.claude/hooks/`, `.gemini/hooks/`, `.codex/hooks/`,
/// `.cursor/hooks/`, `.windsurf/hooks/`, `.chrys/hooks/`; and the user's) is protected whole,
/// in the project at any depth, existing or not, whether or not a hook the engine has read
/// names a script there: a session started in a subfolder runs that folder's hooks, which the
/// engine reading the root's never saw, and a rewritten gate script would decide nothing
/// there. A project's own `hooks/` folders (`src/hooks/`, React's) stay editable, as do the
/// other files of the agents' folders. Before session 22, all nine were writable.
#[test]
fn every_agent_s_hook_script_folder_is_protected_at_any_depth_existing_or_not() {
    let project = TestDir::new();
    project.script("packages/api/.claude/hooks/gate.sh", "#!/bin/sh\nexit 2\n");
    let home = TestDir::new();
    let paths = [
        "packages/api/.claude/hooks/gate.sh",
        ".claude/hooks/new.sh",
        "a/b/.gemini/hooks/check.py",
        "a/.codex/hooks/x/deep.sh",
        "packages/web/.cursor/hooks/format.sh",
        ".windsurf/hooks/gate.sh",
        "packages/api/.chrys/hooks/scripts/foo.py",
        "~/.claude/hooks/audit.sh",
        "~/.gemini/hooks/audit.sh",
        "src/hooks/useThing.ts",
        "hooks/readme.md",
        "packages/api/.claude/CLAUDE.md",
        "packages/api/.cursor/rules/style.mdc",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 9);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_hook_scripts", "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["why"], "inside_folder", "{lines:#?}");
    assert_eq!(lines[7]["hits"][0]["source_kind"], "user_claude_hook_scripts", "{lines:#?}");
}

/// A hook that sets a module search path imports from it: the folders of `PYTHONPATH`,
/// `NODE_PATH`, … kept in a configuration folder are protected whole, existing files or not;
/// the project's own code on the same path is not.
#[test]
fn the_module_folders_a_hook_imports_from_are_protected() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#"PYTHONPATH="$CLAUDE_PROJECT_DIR/.claude/lib:$CLAUDE_PROJECT_DIR/src" python3 "$CLAUDE_PROJECT_DIR"/.claude/gate.py"#,
            "NODE_PATH=~/.hooks/node_modules node ~/.hooks/check.js",
        ]),
    );
    project.write(".claude/lib/policy.py", "ALLOW = False\n");
    let home = TestDir::new();
    let paths = [
        ".claude/lib/policy.py",
        ".claude/lib/extra/__init__.py",
        "~/.hooks/node_modules/gate/index.js",
        "src/app.py",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 3);
    assert_eq!(lines[0]["hits"][0]["why"], "inside_folder", "{lines:#?}");
}

/// Every Python interpreter loads the user's site at start (`~/.local/lib/python3.X/
/// site-packages`, macOS's `~/Library/Python/`): one `.pth` file there with `import os;
/// os._exit(0)` ends every Python hook with an allow's exit code before the hook's first line
/// (checked with the real Claude Code: the user's `python3 ~/.claude/hooks/gate.py` gate
/// stopped blocking). For a Python hook, run by `python3` or by its `#!` line, the folder is
/// out of the agent's reach for every version, existing or not, through a `..` spelling too;
/// the rest of `~/.local` is not, nor is the site of a hook that turns it off (`-I`).
#[test]
fn the_user_s_python_site_is_protected_for_python_hooks() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(".claude/hooks/gate.py", "import sys\nsys.exit(2)\n");
    home.write(".claude/settings.json", &claude_settings(&["python3 ~/.claude/hooks/gate.py"]));
    let paths = [
        "~/.local/lib/python3.11/site-packages/zz-agent.pth",
        "~/.local/lib/python3.14/site-packages/usercustomize.py",
        "~/.local/lib/python3.11/site-packages/yaml/__init__.py",
        "~/.local/share/../lib/python3.12/site-packages/a.pth",
        "~/Library/Python/3.12/lib/python/site-packages/b.pth",
        "~/.local/share/notes.txt",
        "src/app.py",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 5);
    assert_eq!(lines[0]["hits"][0]["why"], "inside_folder", "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_claude_settings", "{lines:#?}");

    // A project hook run by its `#!` line.
    let other = TestDir::new();
    other.write(".claude/hooks/check.py", "#!/usr/bin/env python3\nimport sys\nsys.exit(2)\n");
    other.write(".claude/settings.json", &claude_settings(&[".claude/hooks/check.py"]));
    let bare = TestDir::new();
    guard_refusing(other.path(), bare.path(), &paths[..2], 2);

    // A hook whose Python turns the user's site off, and a shell hook: nothing of it.
    let isolated = TestDir::new();
    isolated.write(".claude/hooks/gate.py", "import sys\nsys.exit(2)\n");
    isolated.write(".claude/hooks/iso.py", "#!/usr/bin/python3 -s\nimport sys\nsys.exit(2)\n");
    isolated.write(
        ".claude/settings.json",
        &claude_settings(&[
            "python3 -I ~/.claude/hooks/gate.py",
            "~/.claude/hooks/iso.py",
            "bash ~/.claude/hooks/gate.sh",
        ]),
    );
    let (code, lines) = guard(project.path(), project.path(), isolated.path(), &paths[..5]);
    assert_eq!(code, 0, "{lines:#?}");
}

/// A hook that runs the Python of an environment by its path (a project's `.venv`, a venv of
/// the user's) starts from that environment's `site-packages` and `pyvenv.cfg`: out of the
/// agent's reach, existing or not; the environment's other files are not. Under a run
/// directory that varies (a Claude Code hook's relative `.venv/bin/python3`), the folder
/// cannot be protected whole, but `pyvenv.cfg` is, by name.
#[test]
fn a_python_environment_a_hook_runs_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#""$CLAUDE_PROJECT_DIR"/.venv/bin/python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.py"#,
            "~/.venvs/hooks/bin/python ~/.claude/hooks/audit.py",
            "tools/env/bin/python3 tools/check.py",
        ]),
    );
    let paths = [
        ".venv/lib/python3.12/site-packages/zz-agent.pth",
        ".venv/pyvenv.cfg",
        "~/.venvs/hooks/lib/python3.11/site-packages/usercustomize.py",
        "~/.venvs/hooks/pyvenv.cfg",
        "tools/env/pyvenv.cfg",
        ".venv/share/x.txt",
        "tools/env/share/x.txt",
        "src/app.py",
    ];
    guard_refusing(project.path(), home.path(), &paths, 5);
}

/// `hooks guard --json` over `paths` for the project `root` with `home`, the hooks' `PATH`
/// being `path`: whether each was allowed.
fn guard_with_path(root: &Path, home: &Path, path: &str, paths: &[&str]) -> Vec<bool> {
    let (r, cfg) = (root.to_str().expect("utf-8"), home.to_str().expect("utf-8"));
    let mut args = vec!["guard", "--root", r, "--cwd", r, "--config-dir", cfg, "--json"];
    args.extend_from_slice(paths);
    let o = hooks_in_env(root, &args, "", &[("HOME", home), ("PATH", Path::new(path))]);
    allowed(&json_lines(&o.stdout))
}

/// A hook that runs Python by name runs the first `python3` on its `PATH`, and that
/// interpreter's installation starts every run (finding F47): an activated project `.venv`
/// (its `site-packages`, its `pyvenv.cfg`, the base installation it links to), a pyenv shim
/// (the whole `~/.pyenv`: every version it may pick, its `pyenv.d` hooks). Out of the agent's
/// reach, existing or not, however the hook names Python (a name with a version, `env`, a
/// `#!` line, a line of a shell script it runs); the installation not found first, and the
/// venv of a hook that runs no Python, are not.
#[test]
fn the_installation_of_a_python_found_on_path_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let tools = TestDir::new();
    let base = tools.script("base/bin/python3.12", "#!/bin/sh\n");
    std::fs::create_dir_all(project.path().join(".venv/bin")).expect("venv");
    std::os::unix::fs::symlink(&base, project.path().join(".venv/bin/python3")).expect("link");
    let home_line = format!("home = {}\n", tools.path().join("base/bin").display());
    project.write(".venv/pyvenv.cfg", &home_line);
    let pyenv = home.path().join(".pyenv");
    let shim = format!("#!/usr/bin/env bash\nexport PYENV_ROOT=\"{}\"\n", pyenv.display());
    home.script(".pyenv/shims/python3", &shim);
    home.script(".pyenv/shims/python3.12", &shim);
    home.write(".claude/hooks/gate.py", "import sys\nsys.exit(2)\n");
    home.write(".claude/settings.json", &claude_settings(&["python3 ~/.claude/hooks/gate.py"]));
    let venv_first = format!(
        "{}:{}:/usr/bin:/bin",
        project.path().join(".venv/bin").display(),
        pyenv.join("shims").display()
    );
    let text = |p: std::path::PathBuf| p.to_str().expect("utf-8").to_owned();
    let site_pth = text(pyenv.join("versions/3.12.1/lib/python3.12/site-packages/zz-agent.pth"));
    let venv_paths = [
        ".venv/lib/python3.12/site-packages/zz-agent.pth".to_owned(),
        ".venv/pyvenv.cfg".to_owned(),
        text(tools.path().join("base/lib/python3.12/os.py")),
        text(tools.path().join("base/pyvenv.cfg")),
        site_pth.clone(),
        ".venv/share/notes.txt".to_owned(),
        "src/app.py".to_owned(),
    ];
    let venv_paths: Vec<&str> = venv_paths.iter().map(String::as_str).collect();
    let found = guard_with_path(project.path(), home.path(), &venv_first, &venv_paths);
    assert_eq!(found, [false, false, false, false, true, true, true]);

    // A pyenv shim first: the whole of `~/.pyenv`.
    let shims_first = format!("{}:/usr/bin:/bin", pyenv.join("shims").display());
    let pyenv_paths = [
        site_pth,
        text(pyenv.join("pyenv.d/exec/zz.bash")),
        text(pyenv.join("version")),
        text(home.path().join(".pyenv-notes.txt")),
        ".venv/lib/python3.12/site-packages/zz-agent.pth".to_owned(),
    ];
    let pyenv_paths: Vec<&str> = pyenv_paths.iter().map(String::as_str).collect();
    let found = guard_with_path(project.path(), home.path(), &shims_first, &pyenv_paths);
    assert_eq!(found, [false, false, false, true, true]);

    // However the hook names Python: a name with a version through `env`, with options that
    // turn the user's site off (not the installation's), a project hook's `#!` line, a line
    // of the shell script a hook runs.
    for (script, text) in [
        ("", ""),
        (".claude/hooks/check.py", "#!/usr/bin/env python3\nimport sys\nsys.exit(2)\n"),
        (".claude/hooks/gate.sh", "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/check.py\"\n"),
    ] {
        let repo = TestDir::new();
        let bare = TestDir::new();
        if script.is_empty() {
            bare.write(".claude/settings.json", &claude_settings(&["env python3.12 -I x.py"]));
        } else {
            repo.script(script, text);
            repo.write(".claude/settings.json", &claude_settings(&[script]));
        }
        let found = guard_with_path(repo.path(), bare.path(), &shims_first, &pyenv_paths[..4]);
        assert_eq!(found, [false, false, false, true], "{script}");
    }

    // A hook that runs no interpreter: the venv on `PATH` stays the agent's to edit.
    let shell_only = TestDir::new();
    shell_only.write(".claude/settings.json", &claude_settings(&["bash ~/.claude/hooks/gate.sh"]));
    let found = guard_with_path(project.path(), shell_only.path(), &venv_first, &venv_paths[..4]);
    assert_eq!(found, [true, true, true, true]);
}

/// A hook a runner runs in a project's environment (`uv run`, `poetry run`) starts from that
/// environment: the project's `.venv` whole where the runner runs (a Cursor hook's project
/// root), and Poetry's environments under the home; so do the runner's own configuration
/// files (`pyproject.toml`, F49); the project's own code is not.
#[test]
fn the_environment_a_runner_runs_a_hook_in_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(".cursor/gate.py", "import sys\nsys.exit(2)\n");
    project.write(".cursor/hooks.json", &cursor_hooks(&["uv run .cursor/gate.py"]));
    home.write(".claude/settings.json", &claude_settings(&["poetry run python ~/gate.py"]));
    let paths = [
        ".venv/lib/python3.12/site-packages/zz-agent.pth",
        ".venv/pyvenv.cfg",
        "~/.cache/pypoetry/virtualenvs/p-Ab12-py3.12/lib/python3.12/site-packages/zz.pth",
        "pyproject.toml",
        "src/app.py",
    ];
    guard_refusing(project.path(), home.path(), &paths, 4);
}

/// A runner's own configuration decides what it runs (finding F49): a project `.npmrc` with
/// `script-shell=/bin/true` makes `npm run gate` exit 0 without running the gate, its
/// `node-options=--require …` runs code before every `npx` tool (both checked with npm 9);
/// `.yarnrc.yml`'s `yarnPath` replaces yarn itself, `bunfig.toml`'s `preload` and
/// `deno.json`'s import map run code in every Bun and Deno hook, uv's `.python-version`
/// picks its interpreter. Protected where the runner runs (its `--prefix` too) and under the
/// home, existing or not; the project's other files are not.
#[test]
fn a_runner_s_own_configuration_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(
        ".cursor/hooks.json",
        &cursor_hooks(&[
            "npm run gate",
            "npm --prefix web run lint",
            "yarn gate",
            "bunx eslint .",
            "uv run .cursor/gate.py",
            "deno run .cursor/gate.ts",
            "bun .cursor/gate.ts",
        ]),
    );
    let paths = [
        ".npmrc",
        "./web/.npmrc",
        ".yarnrc.yml",
        "bunfig.toml",
        ".python-version",
        "deno.json",
        "~/.npmrc",
        "~/.config/uv/uv.toml",
        "~/.bunfig.toml",
        ".editorconfig",
        "web/src/index.ts",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 9);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_cursor_file", "{lines:#?}");
}

/// The start-up files of the programs gates are made of (finding F50): a `~/.jq` file's
/// definitions come before every jq program's, so `def test($re): false;` there turns a
/// gate's `jq -e '.tool_input.command | test("rm -rf")'` into an allow (checked with jq
/// 1.6); git reads the repository's `.git/config` and the user's at every command. Protected
/// for a hook's line and for a line of the script it runs (where the user's Python site is
/// now named too), existing or not; not for a hook that runs neither.
#[test]
fn the_start_up_files_of_the_programs_a_gate_runs_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        &claude_settings(&["jq -e '.tool_input.command | test(\"rm -rf\")' && exit 2 || exit 0"]),
    );
    project.write(".cursor/hooks.json", &cursor_hooks(&["git diff --quiet || exit 2"]));
    let paths = ["~/.jq", ".git/config", "~/.gitconfig", "~/.jq.bak", "src/app.py"];
    guard_refusing(project.path(), home.path(), &paths, 3);

    // A line of the script a hook runs.
    let repo = TestDir::new();
    repo.script(
        ".claude/hooks/gate.sh",
        "#!/bin/sh\ncmd=$(jq -r .tool_input.command)\npython3 \"$(dirname \"$0\")/check.py\" \"$cmd\"\n",
    );
    repo.write(".claude/settings.json", &claude_settings(&[".claude/hooks/gate.sh"]));
    let bare = TestDir::new();
    let paths = ["~/.jq", "~/.local/lib/python3.12/site-packages/zz.pth", "~/.gitconfig"];
    guard_refusing(repo.path(), bare.path(), &paths, 2);

    // Neither.
    let other = TestDir::new();
    other.write(".claude/settings.json", &claude_settings(&["grep -q rm && exit 2"]));
    let (code, lines) = guard(project.path(), project.path(), other.path(), &["~/.jq"]);
    assert_eq!(code, 0, "{lines:#?}");
}

/// The same for Ruby (RubyGems loads from its installation at every start), Perl and Node
/// found on the hooks' `PATH`: an rbenv shim's whole `~/.rbenv`, an nvm Node's `lib/`; a
/// Ruby script's `#!` line too.
#[test]
fn the_installation_of_another_interpreter_found_on_path_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.script(".rbenv/shims/ruby", "#!/usr/bin/env bash\nexec rbenv exec ruby \"$@\"\n");
    home.script(".nvm/versions/node/v22.1.0/bin/node", "#!/bin/sh\n");
    home.script("perl5/perlbrew/perls/perl-5.38.0/bin/perl", "#!/bin/sh\n");
    home.write(
        ".claude/settings.json",
        &claude_settings(&["ruby ~/gate.rb", "node ~/gate.mjs", "perl -w ~/gate.pl"]),
    );
    let path = format!(
        "{}:{}:{}:/usr/bin:/bin",
        home.path().join(".rbenv/shims").display(),
        home.path().join(".nvm/versions/node/v22.1.0/bin").display(),
        home.path().join("perl5/perlbrew/perls/perl-5.38.0/bin").display(),
    );
    let h = home.path();
    let paths = [
        h.join(".rbenv/versions/3.3.0/lib/ruby/3.3.0/rubygems.rb"),
        h.join(".rbenv/plugins/ruby-build/bin/ruby-build"),
        h.join(".nvm/versions/node/v22.1.0/lib/node/shell-quote/index.js"),
        h.join("perl5/perlbrew/perls/perl-5.38.0/lib/5.38.0/strict.pm"),
        h.join(".nvm/versions/node/v22.1.0/share/doc/node/README.md"),
        h.join("perl5/notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(|p| p.to_str().expect("utf-8")).collect();
    let found = guard_with_path(project.path(), home.path(), &path, &paths);
    assert_eq!(found, [false, false, false, false, true, true]);

    // A project hook run by its `#!` line: Ruby's installation through `env`.
    let repo = TestDir::new();
    repo.script(".claude/hooks/gate.rb", "#!/usr/bin/env ruby\nexit 2\n");
    repo.write(".claude/settings.json", &claude_settings(&[".claude/hooks/gate.rb"]));
    let bare = TestDir::new();
    let found = guard_with_path(repo.path(), bare.path(), &path, &paths[..2]);
    assert_eq!(found, [false, false]);
}

/// A system build of an interpreter loads modules from folders of its prefix beyond `lib/`
/// (finding F51): Debian's `/usr/bin/python3` runs the `.pth` files of
/// `/usr/local/lib/python3.11/dist-packages` at every start, Debian's Perl takes `strict.pm`
/// from `/etc/perl` or `/usr/local/share/perl` before its own (both checked on this machine's
/// Debian 12 as root: the gate exited 0), Fedora's keep modules in `lib64/`, Debian's Node
/// looks in `share/nodejs`. Out of the agent's reach for a hook that runs the interpreter by
/// name, by path or by its `#!` line; the prefix's other folders are not.
#[test]
fn a_system_interpreter_s_module_folders_beyond_lib_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let sys = TestDir::new();
    sys.script("bin/python3.11", "#!/bin/sh\n");
    std::os::unix::fs::symlink("python3.11", sys.path().join("bin/python3")).expect("link");
    sys.script("bin/perl", "#!/bin/sh\n");
    sys.script("bin/node", "#!/bin/sh\n");
    let bin = sys.path().join("bin");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let s = |rel: &str| sys.text_path(rel);
    let paths = [
        s("local/lib/python3.11/dist-packages/zz-agent.pth"),
        s("local/lib64/python3.11/site-packages/zz-agent.pth"),
        s("lib64/python3.11/site-packages/zz-agent.pth"),
        s("local/share/perl/5.36.0/strict.pm"),
        s("local/lib/x86_64-linux-gnu/perl/5.36.0/strict.pm"),
        s("share/perl5/strict.pm"),
        s("share/nodejs/shell-quote/index.js"),
        s("share/doc/readme.txt"),
        s("local/bin/tool"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    home.write(
        ".claude/settings.json",
        &claude_settings(&["python3 ~/gate.py", "perl ~/gate.pl", "node ~/gate.js"]),
    );
    let found = guard_with_path(project.path(), home.path(), &path, &paths);
    assert_eq!(found, [false, false, false, false, false, false, false, true, true]);

    // Each interpreter guards its own: a Python hook alone leaves Perl's and Node's folders.
    let python_only = TestDir::new();
    python_only.write(".claude/settings.json", &claude_settings(&["python3 ~/gate.py"]));
    let found = guard_with_path(project.path(), python_only.path(), &path, &paths);
    assert_eq!(found, [false, false, false, true, true, true, true, true, true]);

    // By path, and by a project hook's `#!` line.
    let by_path = TestDir::new();
    let line = format!("{}/perl ~/gate.pl", bin.display());
    by_path.write(".claude/settings.json", &claude_settings(&[line.as_str()]));
    let found = guard_with_path(project.path(), by_path.path(), "/usr/bin:/bin", &paths[3..6]);
    assert_eq!(found, [false, false, false]);
    let repo = TestDir::new();
    repo.script(".claude/hooks/gate.py", "#!/usr/bin/env python3\nimport sys\nsys.exit(2)\n");
    repo.write(".claude/settings.json", &claude_settings(&[".claude/hooks/gate.py"]));
    let found = guard_with_path(repo.path(), TestDir::new().path(), &path, &paths[..3]);
    assert_eq!(found, [false, false, false]);

    // This machine's own Perl, where it is the system's (`/etc/perl` first in Debian's `@INC`).
    if std::path::Path::new("/usr/bin/perl").is_file() {
        let found = guard_with_path(
            project.path(),
            home.path(),
            "/usr/bin:/bin",
            &["/etc/perl/strict.pm", "/etc/perlio.conf"],
        );
        assert_eq!(found, [false, true]);
    }
}

/// What runners run a tool from is code the hook runs (finding F54): `npx` runs the copy of a
/// tool in `~/.npm/_npx/` with no check of its content (checked with npm 11 here: a file
/// written into the cached `semver`'s `bin/` answered in its place), and the project's
/// `node_modules/.bin/` first; `uvx` its environments in `~/.cache/uv`, `pipx run` its in
/// `~/.local/share/pipx`, `bunx` Bun's cache, Deno the modules it downloaded. Out of the
/// agent's reach; the caches' logs and other tools' caches are not.
#[test]
fn what_runners_run_a_tool_from_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        &claude_settings(&[
            "npx prettier --check .",
            "uvx ruff check",
            "deno run ~/gate.ts",
            "pipx run black --check .",
            "bunx eslint .",
        ]),
    );
    project.write(".cursor/hooks.json", &cursor_hooks(&["npm run lint"]));
    let h = |rel: &str| home.text_path(rel);
    let p = |rel: &str| project.text_path(rel);
    let paths = [
        h(".npm/_npx/a9bef924e4cb6cdb/node_modules/prettier/bin/prettier.cjs"),
        h(".cache/uv/archive-v0/x1/lib/python3.12/site-packages/zz-agent.pth"),
        h(".cache/deno/remote/https/deno.land/std/path/mod.ts"),
        h(".local/share/pipx/.cache/b1/lib/python3.12/site-packages/zz-agent.pth"),
        h(".bun/install/cache/eslint@9.0.0/bin/eslint.js"),
        p("node_modules/.bin/eslint"),
        p("node_modules/eslint/bin/eslint.js"),
        h(".npm/_logs/debug-0.log"),
        h(".cache/pip/http/x"),
        p("src/index.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let lines = guard_refusing(project.path(), home.path(), &paths, 7);
    assert_eq!(lines[1]["hits"][0]["source_kind"], "user_claude_settings", "{lines:#?}");
    assert_eq!(lines[5]["hits"][0]["source_kind"], "project_cursor_file", "{lines:#?}");
}

/// A hook whose program its runner builds from source (finding F55): `cargo run --bin gate`
/// ran the program `.cargo/config.toml`'s `runner` named instead (`runner = "/bin/true"` made
/// a gate exiting 2 exit 0, with cargo 1 here), and ran a file written over
/// `target/debug/gate` as it was, being newer than the sources; `go run ./tools/gate` compiles
/// every file of the package's folder. Out of the agent's reach; the project's other code is
/// not (it is the project the agent works on).
#[test]
fn a_program_its_runner_builds_from_source_is_protected_with_what_builds_it() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(
        ".cursor/hooks.json",
        &cursor_hooks(&["cargo run -q --bin gate", "go run ./tools/gate"]),
    );
    let paths = [
        "src/bin/gate.rs",
        "Cargo.toml",
        "build.rs",
        ".cargo/config.toml",
        "rust-toolchain.toml",
        "target/debug/gate",
        "~/.cargo/registry/src/index.crates.io-x/serde-1.0.0/src/lib.rs",
        "tools/gate/main.go",
        "tools/gate/rules.go",
        "go.mod",
        "~/.config/go/env",
        "src/lib.rs",
        "src/main.rs",
        "tools/other/main.go",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 11);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_cursor_file", "{lines:#?}");
}

/// A project that is a package of a monorepo: its hooks' programs find their configuration in
/// the folders above it (finding F53): `git diff` reads the repository's `.git/config` (and a
/// `core.fsmonitor` there runs a program), `uv run` the workspace's `pyproject.toml` and its
/// `.venv`, yarn merges every `.yarnrc.yml` up to the root, npm's project is the nearest
/// folder with a `package.json`. Out of the agent's reach in every folder above the project,
/// existing or not; a sibling package's and the repository's other files are not.
#[test]
fn what_a_project_hook_s_programs_find_above_the_project_is_protected() {
    let repo = TestDir::new();
    let home = TestDir::new();
    repo.write(".git/HEAD", "ref: refs/heads/main\n");
    repo.write(
        "packages/app/.claude/settings.json",
        &claude_settings(&[
            "git diff --quiet || exit 2",
            "npm run gate",
            "uv run .claude/gate.py",
            "yarn gate",
        ]),
    );
    let app = repo.path().join("packages/app");
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r(".git/config"),
        r(".npmrc"),
        r("package.json"),
        r(".yarnrc.yml"),
        r("packages/.yarnrc.yml"),
        r("pyproject.toml"),
        r(".python-version"),
        r(".venv/lib/python3.12/site-packages/zz-agent.pth"),
        r("packages/other/.npmrc"),
        r("packages/other/.git/config"),
        r("src/main.py"),
        r("README.md"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let (code, lines) = guard(&app, &app, home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(
        allowed(&lines),
        [false, false, false, false, false, false, false, false, true, true, true, true],
        "{lines:#?}"
    );
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_settings", "{lines:#?}");
}

/// A session in a git worktree (a folder whose `.git` is a file naming the repository, as
/// `git worktree add` writes it; agents run parallel sessions so): a hook's `git` reads the
/// main repository's `.git/config` wherever the worktree is (a `core.fsmonitor` line there ran
/// a program during `git status` in the worktree with git 2 here), and the worktree's own
/// `config.worktree`; a submodule's `.git` names its repository under the superproject's
/// `.git/modules/`. Out of the agent's reach, however the `gitdir:` line names the folder.
#[test]
fn the_repository_a_worktree_s_git_file_names_keeps_its_configuration_protected() {
    let main = TestDir::new();
    let home = TestDir::new();
    main.write(".git/HEAD", "ref: refs/heads/main\n");
    main.write(".git/worktrees/wt/commondir", "../..\n");
    // Hooks from a folder of each worktree (F57).
    main.write(".git/config", "[core]\n\thooksPath = .githooks\n");
    let trees = TestDir::new();
    let gitdir = main.path().join(".git/worktrees/wt");
    trees.write("wt/.git", &format!("gitdir: {}\n", gitdir.display()));
    main.write(
        ".git/worktrees/wt/gitdir",
        &format!("{}\n", trees.path().join("wt/.git").display()),
    );
    trees.write("wt/.claude/settings.json", &claude_settings(&["git diff --quiet || exit 2"]));
    // A submodule of the worktree, named relatively.
    main.write(".git/modules/sub/HEAD", "ref: refs/heads/main\n");
    let up = "../".repeat(trees.path().join("wt/sub").components().count() - 1);
    let relative = format!("gitdir: {up}{}\n", main.path().join(".git/modules/sub").display());
    trees.write("wt/sub/.git", &relative);
    trees.write("wt/sub/.claude/settings.json", &claude_settings(&["git status --porcelain"]));
    let m = |rel: &str| main.text_path(rel);
    let t = |rel: &str| trees.text_path(rel);
    let paths = [
        m(".git/config"),
        m(".git/worktrees/wt/config.worktree"),
        m(".git/worktrees/wt/config"),
        m(".git/hooks/post-index-change"),
        t("wt/.githooks/pre-commit"),
        m(".git/HEAD"),
        m("src/main.rs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let wt = trees.path().join("wt");
    let (code, lines) = guard(&wt, &wt, home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, false, false, false, true, true], "{lines:#?}");
    let sub = trees.path().join("wt/sub");
    let (code, lines) = guard(
        &sub,
        &sub,
        home.path(),
        &[
            &m(".git/modules/sub/config"),
            &m(".git/modules/sub/hooks/pre-commit"),
            &m(".git/modules/sub/HEAD"),
        ],
    );
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, true], "{lines:#?}");
}

/// git reads what a configuration file includes as part of it (finding F56): a repository's
/// `.git/config` that includes the project's `.gitconfig` (the usual way to share a
/// repository's settings, since `.git/config` is not versioned), which includes a file of its
/// own, and under a condition a file of the home; the user's `~/.gitconfig` including
/// `~/.gitconfig.local`. A `core.fsmonitor` line in an included file ran a program during `git
/// status` with git 2.47 here, as one in `.git/config` does. Out of the agent's reach for a
/// hook that runs git, whether or not they exist yet; the same files are ordinary ones when no
/// hook runs git.
#[test]
fn what_a_git_configuration_includes_is_protected_with_it() {
    let project = git_repository(
        "[core]\n\tbare = false\n[include]\n\tpath = ../.gitconfig\n\
         [includeIf \"gitdir:/\"]\n\tpath = ~/work.inc\n",
    );
    let home = TestDir::new();
    project.write(".gitconfig", "[include]\n\tpath = shared/more.inc\n");
    home.write(".gitconfig", "[user]\n\tname = u\n[Include] path = \".gitconfig.local\" # mine\n");
    project.write(".claude/settings.json", &claude_settings(&["git diff --quiet || exit 2"]));
    let p = |rel: &str| project.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        p(".gitconfig"),
        p("shared/more.inc"),
        h("work.inc"),
        h(".gitconfig.local"),
        p("README.md"),
        p("shared/other.inc"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(project.path(), home.path(), &paths, 4);
    all_allowed_with_a_hook_that_runs_none_of_them(&project, project.path(), home.path(), &paths);
}

/// git runs the repository's hooks from many commands (finding F57): `git status` runs
/// `.git/hooks/post-index-change` once the index needs a refresh (checked with git 2.47 here:
/// after a tracked file's change, `git status` ran it), a commit `pre-commit`, a checkout
/// `post-checkout`; a configuration's `core.hooksPath` moves them, and husky's (`.husky/_`,
/// set by `husky` 9) runs `.husky/<hook>`, a plain file it starts with `sh`, after
/// `~/.config/husky/init.sh`. Out of the agent's reach for a hook that runs git, from a
/// monorepo's package too (the repository's hooks are above it); the project's other files
/// are not.
#[test]
fn the_hooks_git_runs_are_protected_for_a_hook_that_runs_git() {
    let repo = git_repository("[core]\n\tbare = false\n\thooksPath = .husky/_\n");
    let home = TestDir::new();
    repo.write(".husky/_/h", "#!/usr/bin/env sh\n");
    home.write(".gitconfig", "[core]\n\thooksPath = ~/githooks\n");
    repo.write(
        "packages/app/.claude/settings.json",
        &claude_settings(&["git status --porcelain | grep -q . && exit 2 || exit 0"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        r(".git/hooks/post-index-change"),
        r(".husky/pre-commit"),
        r(".husky/_/h"),
        h(".config/husky/init.sh"),
        h("githooks/post-index-change"),
        r("packages/app/.git/hooks/pre-commit"),
        r("packages/app/src/index.ts"),
        r(".github/workflows/ci.yml"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(&repo.path().join("packages/app"), home.path(), &paths, 6);
    // No hook runs git: the same files are the project's.
    repo.write("packages/app/.claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let app = repo.path().join("packages/app");
    let (code, lines) = guard(&app, &app, home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// git runs the scripts pre-commit and lefthook install in a repository's hooks folder, and
/// those run what their configuration says (finding F65; checked with pre-commit 4.7 and
/// lefthook 2.2 here: a commit ran a local hook's `entry` script from `.pre-commit-config.yaml`,
/// lefthook looked up its thirty configuration names): for a hook that runs git, the
/// managers' configurations (existing or not), what their commands run, the files lefthook's
/// extends with and its script folders, pre-commit's cache and the Python it was installed
/// with, and the lefthook binary its script names are out of the agent's reach; the
/// project's other files are not.
#[test]
fn what_the_git_hook_managers_run_is_protected_for_a_hook_that_runs_git() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    home.write("pcv/bin/python3", "");
    home.write("pcv/pyvenv.cfg", "home = /usr/bin\n");
    home.write("pcv/lib/python3.13/site-packages/pre_commit/main.py", "");
    repo.write(
        ".git/hooks/pre-commit",
        &format!(
            "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n\
             INSTALL_PYTHON={}\nARGS=(hook-impl --config=.pre-commit-config.yaml \
             --hook-type=pre-commit)\nexec \"$INSTALL_PYTHON\" -mpre_commit \"${{ARGS[@]}}\"\n",
            h("pcv/bin/python3")
        ),
    );
    repo.write(
        ".git/hooks/post-checkout",
        &format!(
            "#!/bin/sh\ncall_lefthook()\n{{\n  if {0} -h >/dev/null 2>&1\n  then\n    {0} \"$@\"\n  \
             fi\n}}\ncall_lefthook run \"post-checkout\" \"$@\"\n",
            r("node_modules/lefthook-linux-x64/bin/lefthook")
        ),
    );
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n- repo: local\n  hooks:\n  - id: check\n    name: check\n    \
         entry: ./tools/check.sh\n    language: script\n  - id: lint\n    name: lint\n    \
         entry: bash\n    args: [tools/lint.sh]\n    language: system\n",
    );
    repo.write(
        "lefthook.yml",
        "extends:\n  - ci/base.yml\npost-checkout:\n  commands:\n    deps:\n      run: ./scripts/deps.sh\n    \
         web:\n      root: web/\n      run: ./scripts/web.sh\n",
    );
    repo.write("ci/base.yml", "pre-push:\n  jobs:\n    - run: sh scripts/base.sh\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["git commit -qam checkpoint >/dev/null 2>&1 || true"]),
    );
    let paths = [
        r(".pre-commit-config.yaml"),
        r("tools/check.sh"),
        r("tools/lint.sh"),
        h(".cache/pre-commit/repoabc123/hooks/fmt.py"),
        h("pcv/lib/python3.13/site-packages/pre_commit/main.py"),
        r("lefthook.yml"),
        r(".lefthook.toml"),
        r(".config/lefthook-local.yml"),
        r("ci/base.yml"),
        r("scripts/deps.sh"),
        r("scripts/base.sh"),
        r("web/scripts/web.sh"),
        r(".lefthook/post-checkout/fmt.sh"),
        r("node_modules/lefthook-linux-x64/bin/lefthook"),
        r("scripts/other.sh"),
        r("src/main.py"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 14);
    // No hook runs git: the same files are the project's and the user's.
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// prek, pre-commit's rewrite, installs a script of its own and reads `prek.toml` or
/// `.pre-commit-config.yaml` at the top and in every folder below it, each a project of its
/// workspace (checked with prek 0.5 here: a commit's `prek run` ran a subfolder's
/// configuration's local hook and `prek.toml`'s): for a hook that runs git, those files in any
/// folder of the repository, existing or not, what the top's commands run, prek's cache and
/// its binary are out of the agent's reach (finding F65); the project's other files are not.
#[test]
fn what_prek_runs_is_protected_for_a_hook_that_runs_git() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    repo.write(
        ".git/hooks/pre-commit",
        &format!(
            "#!/bin/sh\n# File generated by prek: https://github.com/j178/prek\nPREK=\"{}\"\n\
             exec \"$PREK\" hook-impl --hook-dir=\"$HERE\" --script-version=4 \
             --hook-type=pre-commit -- \"$@\"\n",
            h("bin/prek")
        ),
    );
    repo.write(
        "prek.toml",
        "[[repos]]\nrepo = \"local\"\n[[repos.hooks]]\nid = \"z\"\nname = \"z\"\n\
         entry = \"./tools/z.sh\"\nlanguage = \"script\"\n",
    );
    repo.write("packages/api/.pre-commit-config.yaml", "repos: []\n");
    repo.write(".claude/settings.json", &claude_settings(&["git commit -qm wip || true"]));
    let paths = [
        r("prek.toml"),
        r("tools/z.sh"),
        r(".pre-commit-config.yml"),
        r("packages/api/.pre-commit-config.yaml"),
        r("packages/web/prek.toml"),
        h(".cache/prek/repos/abc/hook.py"),
        h("bin/prek"),
        r("tools/other.sh"),
        r("packages/api/src/app.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// husky 4's scripts (`Created by Husky v4…`) run the commands of the package's `package.json`
/// (`husky.hooks`) or `.huskyrc` through `husky-run` in the package's folder their
/// `husky.local.sh` names (checked with husky 4.3.8 here: a commit ran `sh tools/h4.sh` from
/// `package.json`), after sourcing `~/.huskyrc`; yorkie's do the same with `gitHooks`: for a
/// hook that runs git, those configurations in the package and the folders above it, existing
/// or not, what their commands run, the runner's package and `~/.huskyrc` are out of the
/// agent's reach (finding F65); the package's other files are not.
#[test]
fn what_husky_4_runs_is_protected_for_a_hook_that_runs_git() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let r = |rel: &str| repo.text_path(rel);
    let banner = "# Created by Husky v4.3.8 (https://github.com/typicode/husky#readme)\n";
    repo.write(
        ".git/hooks/pre-commit",
        &format!("#!/bin/sh\n# husky\n{banner}. \"$(dirname \"$0\")/husky.sh\"\n"),
    );
    repo.write(
        ".git/hooks/husky.local.sh",
        &format!("{banner}packageManager=npm\ncd \"packages/web\"\n"),
    );
    repo.write(
        "packages/web/package.json",
        r#"{"name": "web", "husky": {"hooks": {"pre-commit": "sh tools/h4.sh"}}}"#,
    );
    repo.write(".claude/settings.json", &claude_settings(&["git commit -qam wip || true"]));
    let paths = [
        r("packages/web/package.json"),
        r("packages/web/tools/h4.sh"),
        r("packages/web/.huskyrc.json"),
        r("packages/.huskyrc"),
        r("package.json"),
        r("packages/web/node_modules/husky/lib/runner/index.js"),
        home.text_path(".huskyrc"),
        r("packages/web/src/app.js"),
        r("packages/api/package.json"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// git runs the commands its configuration names (finding F60; checked with git 2.47 here:
/// `git status` ran `core.fsmonitor`'s program, `git diff --quiet` a filter's `clean`, `git
/// diff` `diff.external`, each from the repository's top folder, a relative path from there):
/// for a hook that runs git, what those commands run is out of the agent's reach as a hook's
/// own line's is (the programs and scripts, from the repository's top or the home, what a
/// script sources, an option's file), from the repository's configuration and the user's;
/// the project's other files are not.
#[test]
fn what_the_commands_a_git_configuration_names_run_is_protected() {
    let repo = git_repository(
        "[core]\n\tbare = false\n\tfsmonitor = tools/fsmon.sh\n\
         [filter \"nb\"]\n\tclean = python3 tools/clean.py %f\n\trequired\n\
         [diff \"nb\"]\n\ttextconv = tools/tc.sh\n",
    );
    let home = TestDir::new();
    repo.write("tools/fsmon.sh", "#!/bin/sh\n. \"$(dirname \"$0\")/common.sh\"\n");
    home.write(
        ".gitconfig",
        "[diff]\n\texternal = ~/bin/ext.sh\n[credential]\n\thelper = \"!sh ~/bin/cred.sh\"\n\
         [core]\n\tsshCommand = ~/bin/myssh -F ~/.ssh/alt_config\n\tpager = less -R\n",
    );
    repo.write(".claude/settings.json", &claude_settings(&["git diff --quiet || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        r("tools/fsmon.sh"),
        r("tools/common.sh"),
        r("tools/clean.py"),
        r("tools/tc.sh"),
        h("bin/ext.sh"),
        h("bin/cred.sh"),
        h("bin/myssh"),
        h(".ssh/alt_config"),
        r("tools/other.sh"),
        r("src/main.py"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 8);
    // No hook runs git: the same files are the project's and the user's.
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// git-lfs runs the extensions and the transfer agents git's configuration names (finding
/// F66; checked with git-lfs 3.3 here: `git diff --quiet` of a changed tracked file ran an
/// extension's `clean` from the repository's top folder, even from a subfolder, and a push ran
/// a custom transfer agent's `path` with its `args`): for a hook that runs git, the scripts
/// they name, from the repository's configuration, what it includes and the user's, are out
/// of the agent's reach; the project's other files are not.
#[test]
fn what_git_lfs_runs_is_protected_for_a_hook_that_runs_git() {
    let repo = git_repository(
        "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tprocess = git-lfs filter-process\n\
         [lfs \"extension.enc\"]\n\tclean = sh tools/enc.sh clean %f\n\tpriority = 0\n\
         [include]\n\tpath = ../lfs.inc\n",
    );
    let home = TestDir::new();
    repo.write(
        "lfs.inc",
        "[lfs \"customtransfer.up\"]\n\tpath = sh\n\targs = tools/up.sh --fast\n\
         [lfs]\n\tstandalonetransferagent = up\n",
    );
    home.write(".gitconfig", "[lfs \"extension.zip\"]\n\tsmudge = python3 ~/bin/unzip.py %f\n");
    repo.write(".claude/settings.json", &claude_settings(&["git diff --quiet || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/enc.sh"),
        r("tools/up.sh"),
        home.text_path("bin/unzip.py"),
        r("tools/other.sh"),
        r("src/main.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 3);
    // No hook runs git: the same files are the project's and the user's.
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// ssh's `-F` names the whole configuration of that run, which ssh reads as `~/.ssh/config`
/// (finding F67; checked with OpenSSH 9.2 here: with `-F alt_config`, `ssh -G` ran its `Match
/// exec` command and that of the file its relative `Include` names under `~/.ssh`), and its
/// `-o` options are lines of configuration (`-o 'ProxyCommand=sh tools/p.sh'` ran the script
/// from where ssh ran): what they have ssh run is out of the agent's reach for a hook whose
/// line, script or git configuration (`core.sshCommand`) runs ssh so; the project's other
/// files are not, nor anything of it where no hook runs ssh.
#[test]
fn what_an_ssh_option_s_configuration_runs_is_protected() {
    let repo = git_repository("[core]\n\tsshCommand = ssh -F tools/git_ssh\n");
    let home = TestDir::new();
    repo.write(
        "deploy/ssh_config",
        "Include extra\nHost build\n  ProxyCommand sh deploy/jump.sh %h\n\
         Match exec \"~/bin/check-vpn.sh\"\n  User ci\n",
    );
    repo.write("tools/deploy.sh", "#!/bin/sh\nscp -F tools/scp_config dist/app.tgz build:/srv\n");
    repo.write("tools/scp_config", "Host build\n  KnownHostsCommand tools/khc.sh %H\n");
    repo.write("tools/git_ssh", "Host *\n  ProxyCommand tools/git-jump.sh %h %p\n");
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        r("deploy/ssh_config"),
        r("deploy/jump.sh"),
        h("bin/check-vpn.sh"),
        h(".ssh/extra"),
        r("tools/p.sh"),
        r("tools/scp_config"),
        r("tools/khc.sh"),
        r("tools/git_ssh"),
        r("tools/git-jump.sh"),
        r("tools/other.sh"),
        r("deploy/notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "ssh -F deploy/ssh_config -o 'ProxyCommand=sh tools/p.sh %h' build true || exit 2",
            "sh tools/deploy.sh",
            "git fetch -q origin",
        ]),
    );
    guard_refusing(repo.path(), home.path(), &paths, 9);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook's `git -c name=value` has git run what the same entry in a configuration file does,
/// and a hook's line can give git, ssh and rsync command lines in variables it sets and in
/// rsync's `-e` (finding F68; checked with git 2.47 and rsync 3.2 here: `git -c
/// core.fsmonitor=tools/m.sh status` ran the script from the repository's top folder,
/// `GIT_SSH_COMMAND=…` for an ssh remote and `rsync -e …`, `--rsh …`, `RSYNC_RSH=…` ran
/// theirs): what they name is out of the agent's reach, with the `-F` file of an `ssh`
/// command they give and what that file runs (F67); the project's other files are not, nor
/// any of these where no hook runs them.
#[test]
fn what_a_hook_s_line_gives_git_ssh_and_rsync_to_run_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("tools/ssh_cfg", "Host *\n  ProxyCommand sh tools/jump.sh %h %p\n");
    repo.write("deploy/cfg", "Host *\n  ProxyCommand deploy/bastion.sh %h\n");
    repo.write("deploy/gcfg", "Match exec \"sh deploy/vpn.sh\"\n  User ci\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "git -c core.fsmonitor=tools/fsmon.sh -c 'core.sshCommand=ssh -F tools/ssh_cfg' \
             fetch -q && git diff --quiet || exit 2",
            "GIT_SSH_COMMAND='ssh -F deploy/gcfg' GIT_EXTERNAL_DIFF=tools/difft.sh git fetch",
            "rsync -a dist/ build:/srv --rsh 'ssh -F deploy/cfg'",
        ]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/fsmon.sh"),
        r("tools/ssh_cfg"),
        r("tools/jump.sh"),
        r("tools/difft.sh"),
        r("deploy/gcfg"),
        r("deploy/vpn.sh"),
        r("deploy/cfg"),
        r("deploy/bastion.sh"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook's line can have git read configuration other than the repository's own, and
/// take its hooks from elsewhere (finding F69; each checked with git 2.47 here:
/// `GIT_CONFIG_GLOBAL=tools/gc git status` ran the `core.fsmonitor` of `tools/gc`, `git -c
/// include.path=~/.gitx` that of the included file, `git -C sub status` the nested
/// repository's, `GIT_CONFIG_KEY_0`/`GIT_CONFIG_VALUE_0` and `--config-env` the command they
/// give, `git -c core.hooksPath=tools/hk commit` the folder's `pre-commit`): what those files
/// include and have git run, the repositories' hooks, and what the scripts the entries run
/// source are out of the agent's reach; the project's other files are not, nor any of these
/// where no hook runs git so.
#[test]
fn the_git_configuration_a_hook_s_line_names_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("tools/gc", "[core]\n\tfsmonitor = tools/m.sh\n\tpager = tools/pg.sh\n");
    home.write(".gitx", "[include]\n\tpath = ~/inc2\n[core]\n\tfsmonitor = ~/bin/hm.sh\n");
    repo.write("sub/.git/HEAD", "ref: refs/heads/main\n");
    repo.write("sub/.git/config", "[core]\n\tfsmonitor = tools/sm.sh\n");
    repo.write("tools/d.sh", "#!/bin/sh\n. tools/dlib.sh\n");
    repo.write("tools/e.sh", "#!/bin/sh\n. tools/elib.sh\n");
    repo.write("alt.git/config", "[core]\n\tfsmonitor = tools/am.sh\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "GIT_CONFIG_GLOBAL=tools/gc git status --short",
            "git -c include.path=~/.gitx status && git -C sub status",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='sh tools/d.sh' \
             git diff --quiet",
            "MON='sh tools/e.sh' git --config-env=core.fsmonitor=MON status",
            "GIT_DIR=alt.git git log -1",
            "git -c core.hooksPath=tools/hk commit -qam checkpoint",
        ]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r("tools/m.sh"),
        r("tools/pg.sh"),
        h("bin/hm.sh"),
        h("inc2"),
        r("sub/tools/sm.sh"),
        r("sub/.git/hooks/pre-commit"),
        r("tools/dlib.sh"),
        r("tools/elib.sh"),
        r("tools/am.sh"),
        r("alt.git/hooks/pre-commit"),
        r("tools/hk/pre-commit"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 11);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// The JavaScript formatters and linters hooks commonly run load their configuration as
/// code, or load the plugins it names, from each checked file's folder upward (finding F71;
/// checked with prettier 3 and eslint 9 here: a `prettier.config.js` in a subfolder ran when
/// a file there was formatted, a `.prettierrc.json`'s plugin ran, an `eslint.config.js` ran):
/// for a hook that runs them, their configuration files are out of the agent's reach in every
/// folder and the home, with the `package.json` where they run and the plugin files a
/// configuration there names; the project's code is not,
/// nor any of these where no hook runs them.
#[test]
fn what_javascript_formatters_and_linters_load_is_protected() {
    let repo = TestDir::new();
    let home = TestDir::new();
    repo.write("src/deep/a.js", "const a = 1\n");
    repo.write(
        ".prettierrc.json",
        r#"{"plugins": ["./tools/pl.js", "./tools/../lib/pl2.js", "prettier-plugin-x"]}"#,
    );
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            // The example of Claude Code's hooks guide.
            r#"jq -r '.tool_input.file_path' | { read file_path; if echo "$file_path" | grep -q '\.js$'; then npx prettier --write "$file_path"; fi; }"#,
            "npx eslint --max-warnings 0 src || exit 2",
        ]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r("src/deep/prettier.config.js"),
        r(".prettierrc.json"),
        r(".prettierignore"),
        r("eslint.config.mjs"),
        r("src/.eslintrc.js"),
        r("package.json"),
        h(".prettierrc.js"),
        // The plugins the configuration names as files (one through `..`).
        r("tools/pl.js"),
        r("lib/pl2.js"),
        r("src/deep/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 9);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs Python's linters, type checkers or formatters has them load their
/// configuration (finding F79; checked with pylint 4.1, mypy 2.4, flake8 7.5, ruff 0.17,
/// black 26 and isort 9 here: pylint ran a `.pylintrc`'s, a `pyproject.toml`'s, a
/// `setup.cfg`'s and a `tox.ini`'s `init-hook`, mypy a `mypy.ini`'s and `pyproject.toml`'s
/// plugin, flake8 a `.flake8`'s local plugin, and ruff, black and isort exited 0 on a file
/// they had refused once a configuration, a subfolder's `ruff.toml` or the user's among them,
/// excluded it): those files are out of the agent's reach, in every folder for the files
/// only these tools read, with what the configuration where the hook runs has them load (a
/// mypy plugin, a flake8 local plugin's folder, the files ruff's `extend` chains to); the
/// project's code is not, nor any of these where no hook runs them.
#[test]
fn what_python_linters_and_formatters_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("src/pkg/m.py", "import os\n");
    repo.write("mypy.ini", "[mypy]\nstrict = True\nplugins = tools/mplug.py\n");
    repo.write(".flake8", "[flake8:local-plugins]\nextension =\n    XP = xp:P\npaths = ./lint\n");
    repo.write("ruff.toml", "extend = \"cfg/base.toml\"\n");
    repo.write("cfg/base.toml", "extend = \"more.toml\"\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#"jq -r '.tool_input.file_path' | { read f; case "$f" in *.py) ruff format "$f" && ruff check --fix "$f";; esac; }"#,
            "python3 -m mypy src || exit 2",
            "pylint src && flake8 src && black --check -q . && isort --check-only .",
        ]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r(".pylintrc"),
        r("src/pylintrc.toml"),
        r("pyproject.toml"),
        r("setup.cfg"),
        r("tox.ini"),
        r("mypy.ini"),
        r(".flake8"),
        r("src/ruff.toml"),
        r(".isort.cfg"),
        h(".config/ruff/ruff.toml"),
        h(".config/mypy/config"),
        h(".pylintrc"),
        r("tools/mplug.py"),
        r("lint/xp.py"),
        r("cfg/base.toml"),
        r("cfg/more.toml"),
        r("src/pkg/m.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 16);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// The configuration files a hook's tools may read are named where it runs and in every
/// folder above, for each tool: most of them do not exist, and reading what the ones that do
/// exist load is not cut short by the others (a project deep in folders, six Python tools:
/// the mypy plugin its `mypy.ini` names stays out of the agent's reach).
#[test]
fn a_tool_s_plugins_are_read_however_many_of_its_configurations_are_missing() {
    let top = TestDir::new();
    let home = TestDir::new();
    let project = top.path().join("a/b/c/d/e/proj");
    std::fs::create_dir_all(project.join("tools")).expect("mkdir");
    std::fs::write(project.join("mypy.ini"), "[mypy]\nplugins = tools/p.py\n").expect("mypy.ini");
    std::fs::create_dir_all(project.join(".claude")).expect("mkdir");
    std::fs::write(
        project.join(".claude/settings.json"),
        claude_settings(&["ruff check && mypy . && pylint src && flake8 && black . && isort ."]),
    )
    .expect("settings");
    let plugin = project.join("tools/p.py");
    guard_refusing(&project, home.path(), &[plugin.to_str().expect("utf-8")], 1);
}

/// A hook that runs the other linters and formatters gates are commonly made of has them load
/// their configuration (finding F80; checked with biome 2.6, TypeScript 7.0,
/// markdownlint-cli2, shellcheck, yamllint, clang-format, clang-tidy, rubocop 1.39, and cargo's
/// `fmt` and `clippy` here:
/// each passed a file it had refused once a configuration, a subfolder's or the user's among
/// them, turned its rules off or excluded the file, through an `extends` or `inherit_from`
/// chain too; markdownlint-cli2 ran a subfolder's `.markdownlint.cjs`, rubocop the file a
/// `require:` named): those files are out of the agent's reach, with the files the
/// configuration where the hook runs extends or requires; the project's code is not, nor any
/// of these where no hook runs them.
#[test]
fn what_other_linters_and_formatters_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("src/a.c", "int main(void) { return 0; }\n");
    repo.write(
        "biome.json",
        "{\n  // shared rules\n  \"extends\": [\"./cfg/biome-base.json\"],\n}\n",
    );
    repo.write("tsconfig.json", "{\"extends\": \"./tsconfig.base\", \"include\": [\"src\"]}\n");
    repo.write(".rubocop.yml", "inherit_from: .rubocop_todo.yml\nrequire:\n  - ./tools/cop.rb\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            r#"jq -r '.tool_input.file_path' | { read f; npx biome check --write "$f"; }"#,
            "npx tsc --noEmit || exit 2",
            "markdownlint-cli2 '**/*.md' && shellcheck -x hooks/*.sh && yamllint -s .",
            "clang-format-18 --dry-run -Werror src/a.c && clang-tidy src/a.c -- && bundle exec rubocop",
            "cargo fmt --check && cargo clippy -q -- -D warnings || exit 2",
        ]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r("biome.json"),
        r("packages/web/biome.jsonc"),
        r("cfg/biome-base.json"),
        h(".config/biome/biome.json"),
        r("tsconfig.json"),
        r("tsconfig.base.json"),
        r("docs/deep/.markdownlint.cjs"),
        r(".shellcheckrc"),
        h(".config/shellcheckrc"),
        r(".yamllint.yml"),
        r("src/.clang-format"),
        r("src/.clang-tidy"),
        r("lib/.rubocop.yml"),
        r(".rubocop_todo.yml"),
        r("tools/cop.rb"),
        h(".config/rubocop/config.yml"),
        r("rustfmt.toml"),
        r("crates/core/.clippy.toml"),
        r("src/b.c"),
        r("docs/deep/a.md"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 18);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs pre-commit runs the hooks of other repositories the configuration lists,
/// which run their tools from the repository's top folder, where those read their
/// configuration (finding F81; checked with pre-commit 4.7 here: a hook `ruff` of another
/// repository passed a file it had refused once the project's `ruff.toml`, or a subfolder's,
/// ignored every rule): that configuration is out of the agent's reach, as for a hook that
/// runs the tool itself, with what it loads; the project's code is not, nor any of these
/// where no hook runs pre-commit.
#[test]
fn what_pre_commit_s_remote_hooks_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("src/m.py", "import os\n");
    repo.write("mypy.ini", "[mypy]\nplugins = tools/mplug.py\n");
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n\
         - repo: https://example.invalid/ruff-pre-commit\n  rev: v0.17.6\n  hooks:\n\
         \x20 - id: ruff-check\n    args: [--fix]\n  - id: ruff-format\n\
         - repo: https://example.invalid/mirrors-mypy\n  rev: v2.4.1\n  hooks:\n  - id: mypy\n\
         - repo: https://example.invalid/biome-pre-commit\n  rev: v2.6.9\n  hooks:\n  - id: biome-check\n",
    );
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["pre-commit run --all-files || exit 2"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("ruff.toml"),
        r("src/.ruff.toml"),
        r("pyproject.toml"),
        r("mypy.ini"),
        r("tools/mplug.py"),
        r("biome.json"),
        r("src/m.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 6);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs pyright, ty, cspell, commitlint, golangci-lint or gitleaks has it read its
/// configuration (finding F84; checked with pyright and ty here: a `pyrightconfig.json`, the
/// file its `extends` names, a `ty.toml` or the user's `~/.config/ty/ty.toml` turned the check
/// off; cspell and commitlint ran their JavaScript configurations; golangci-lint's and
/// gitleaks' files from their documentation): out of the agent's reach; the project's code
/// is not, nor any of these where no hook runs them.
#[test]
fn what_type_checkers_spell_checkers_and_scanners_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("pyrightconfig.json", r#"{"extends": "./cfg/pyright-base.json"}"#);
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "npx pyright src && uvx ty check src",
            "npx cspell --no-progress '**/*.md' && npx commitlint --from HEAD~1",
            "golangci-lint run ./... && gitleaks git --staged || exit 2",
        ]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r("pyrightconfig.json"),
        r("cfg/pyright-base.json"),
        r("ty.toml"),
        h(".config/ty/ty.toml"),
        r("docs/cspell.config.cjs"),
        r("commitlint.config.js"),
        r(".golangci.yml"),
        r(".gitleaks.toml"),
        r("src/m.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs Gradle or Maven runs the build's code and options (finding F82; checked
/// with Gradle 4.4 and Maven 3.8 here: Gradle ran a `build.gradle`'s, a `settings.gradle`'s,
/// a script `gradle/` held that the build applied, `buildSrc/`'s and an init script's code
/// at `gradle check`; Maven's `.mvn/maven.config` holding `--version` made a failing build
/// exit 0, `.mvn/jvm.config` set the JVM's options, and `mvn` sourced `~/.mavenrc`): the build
/// files, the folders of build logic and the user's init scripts, settings and wrappers are
/// out of the agent's reach; the project's sources are not, nor any of these where no hook
/// runs Gradle or Maven.
#[test]
fn what_gradle_and_maven_run_of_a_build_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["./gradlew -q spotlessCheck || exit 2", "mvn -q -o verify"]),
    );
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r("build.gradle.kts"),
        r("settings.gradle"),
        r("gradle.properties"),
        r("gradle/wrapper/gradle-wrapper.properties"),
        r("gradle/libs.versions.toml"),
        r("buildSrc/src/main/kotlin/Conventions.kt"),
        h(".gradle/init.d/ci.gradle"),
        r("pom.xml"),
        r(".mvn/maven.config"),
        r(".mvn/jvm.config"),
        h(".mavenrc"),
        h(".m2/settings.xml"),
        r("src/main/java/App.java"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 12);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// Gradle runs the build logic of the builds its settings include (`includeBuild`, in
/// `pluginManagement { }` or not; `--include-build`): their settings and build scripts,
/// `buildSrc/` and the plugins they build; and it loads its init scripts and caches from the
/// user home `-g` or `GRADLE_USER_HOME` gives (finding F98; checked with Gradle 4.4 here,
/// each script writing a marker). Those folders are out of the agent's reach, whole; the
/// project's sources are not, nor any of these where no hook runs Gradle.
#[test]
fn what_gradle_runs_of_included_builds_and_a_moved_user_home_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "settings.gradle.kts",
        "pluginManagement {\n    includeBuild(\"build-logic\")\n}\nincludeBuild(\"../shared\")\n",
    );
    repo.write("build-logic/settings.gradle.kts", "includeBuild(\"conventions\")\n");
    repo.write("src/main/java/App.java", "class App {}\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "./gradlew -g ci/gradle-home check || exit 2",
            "GRADLE_USER_HOME=ci/gh2 gradle --include-build tools/plugins build",
        ]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let shared = repo.path().parent().expect("parent").join("shared/src/main/kotlin/S.kt");
    let shared = shared.to_str().expect("utf-8").to_owned();
    let paths = [
        r("build-logic/src/main/kotlin/conventions.gradle.kts"),
        r("build-logic/conventions/build.gradle.kts"),
        shared,
        r("ci/gradle-home/init.d/ci.gradle"),
        r("ci/gradle-home/init.gradle"),
        r("ci/gh2/init.gradle.kts"),
        r("tools/plugins/src/main/groovy/P.groovy"),
        r("src/main/java/App.java"),
        r("ci/other.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// PDM, poe, Hatch, Rye and Pixi run a project's scripts by name from its TOML file, with the
/// scripts those run by name (finding F99; checked with PDM 2, poe and Hatch 1 here, each
/// script writing a marker: a composite's and a `cmd` list's, a sequence's, a Hatch list's
/// first word naming another script, PDM's `pre_` script): what the named scripts run is out
/// of the agent's reach, and poe's `pyproject.toml`; what a script no hook names runs is not,
/// nor any of these where no hook runs these tools.
#[test]
fn what_python_projects_scripts_run_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "pyproject.toml",
        "[tool.pdm.scripts]\npre_lint = \"sh tools/pdm-pre.sh\"\nlint = {composite = [\"sub\", \"sh tools/pdm.sh\"]}\nsub = {cmd = [\"sh\", \"tools/pdm-sub.sh\"]}\nstart = \"sh tools/start.sh\"\n[tool.poe.tasks]\nlint = {sequence = [\"psub\", {cmd = \"sh tools/poe.sh\"}]}\npsub = {shell = \"sh tools/poe-sub.sh\"}\n[tool.hatch.envs.default.scripts]\nlint = [\"hsub\", \"sh tools/hatch.sh\"]\nhsub = \"sh tools/hatch-sub.sh\"\n",
    );
    repo.write("pixi.toml", "[tasks]\nlint = {cmd = \"sh tools/pixi.sh\", depends-on = [\"xpre\"]}\nxpre = \"sh tools/pixi-pre.sh\"\n");
    let lines = ["pdm run lint", "poe lint", "hatch run lint", "pixi run lint"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/pdm-pre.sh"),
        r("tools/pdm.sh"),
        r("tools/pdm-sub.sh"),
        r("tools/poe.sh"),
        r("tools/poe-sub.sh"),
        r("tools/hatch.sh"),
        r("tools/hatch-sub.sh"),
        r("tools/pixi.sh"),
        r("tools/pixi-pre.sh"),
        r("tools/start.sh"),
        r("src/app.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 9);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs lint-staged runs the commands of its configuration on the staged files
/// (finding F83; checked with lint-staged 16.4 here: the root's `.lintstagedrc.json`, a
/// `.lintstagedrc.yml`, a `package.json`'s `lint-staged` key and a subfolder's
/// `.lintstagedrc.json` each had their command run, the last from its own folder): its
/// configurations, in any folder, and what the commands of those where the hook runs run
/// are out of the agent's reach; the project's code is not, nor any of these where no hook
/// runs lint-staged.
#[test]
fn what_lint_staged_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(".lintstagedrc.json", r#"{"*.js": "sh tools/x.sh", "*.py": ["ruff check"]}"#);
    repo.write("src/a.js", "let a = 1\n");
    repo.write(".claude/settings.json", &claude_settings(&["npx lint-staged || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r(".lintstagedrc.json"),
        r("tools/x.sh"),
        r("ruff.toml"),
        r("pkg/web/.lintstagedrc.yml"),
        r("lint-staged.config.mjs"),
        r("src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 5);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// pylint imports the modules its configuration's `load-plugins` names from wherever the
/// `sys.path` its `init-hook` sets finds them (finding F86; checked with pylint 4.1 here: a
/// `.pylintrc` with `init-hook` adding the project's folder and `load-plugins=tools.plug`
/// ran `tools/plug.py`, and `[tool.pylint.main]` of `pyproject.toml` with `init-hook` adding
/// `tools` and `load-plugins = ["plug"]` ran `tools/plug.py` too): each such module's file and
/// package are out of the agent's reach under any folder; the project's other code is not, nor
/// any of these where no hook runs pylint.
#[test]
fn what_pylint_s_plugins_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        ".pylintrc",
        "[MAIN]\ninit-hook=import sys; sys.path.insert(0, '.')\nload-plugins=tools.plug,\n    localplug\n",
    );
    repo.write("pyproject.toml", "[tool.pylint.MASTER]\nload-plugins = [\"pyproj_plug\"]\n");
    repo.write("setup.cfg", "[pylint.main]\nload-plugins = cfgplug\n");
    repo.write("src/a.py", "x = 1\n");
    repo.write(".claude/settings.json", &claude_settings(&["pylint src || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/plug.py"),
        r("tools/plug/__init__.py"),
        r("localplug.py"),
        r("src/localplug.py"),
        r("pyproj_plug.py"),
        r("tools/cfgplug/__init__.py"),
        r("tools/other.py"),
        r("src/a.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 6);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// hadolint passes a Dockerfile it refused once a `.hadolint.yaml` where it runs, or the
/// user's `~/.config/hadolint.yaml` or `~/.hadolint.yaml`, lists the rules it broke as
/// `ignored` (finding F94; checked with hadolint 2.15 here): those files are out of the
/// agent's reach for a hook that runs hadolint; the Dockerfile is not, nor those files where
/// no hook runs it.
#[test]
fn what_turns_hadolint_s_rules_off_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("Dockerfile", "FROM debian\n");
    repo.write(".claude/settings.json", &claude_settings(&["hadolint Dockerfile || exit 2"]));
    let (r, h) = (|rel: &str| repo.text_path(rel), |rel: &str| home.text_path(rel));
    let paths = [
        r(".hadolint.yaml"),
        r("docker/.hadolint.yml"),
        h(".config/hadolint.yaml"),
        h(".hadolint.yaml"),
        r("Dockerfile"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 4);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// An `.editorconfig` decides the indentation prettier and shfmt check and write, from each
/// file's folder upward (finding F89; checked with prettier 3.10 and shfmt 3.6 here: a
/// `prettier --check` and an `shfmt -d` that refused a file passed once an `.editorconfig`
/// where it lay, or above, matched its indentation): every `.editorconfig` is out of the
/// agent's reach for a hook that runs either; the project's code is not, nor an
/// `.editorconfig` where no hook runs them.
#[test]
fn what_decides_a_formatter_s_indentation_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("src/a.js", "let a = 1\n");
    let r = |rel: &str| repo.text_path(rel);
    let paths = [r(".editorconfig"), r("src/deep/.editorconfig"), r("src/a.js")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    for hook in
        ["jq -r .tool_input.file_path | xargs npx prettier --check", "shfmt -d hooks || exit 2"]
    {
        repo.write(".claude/settings.json", &claude_settings(&[hook]));
        guard_refusing(repo.path(), home.path(), &paths, 2);
    }
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A JSON or YAML configuration of a Node.js linter a hook runs names the code the tool loads
/// by relative paths (finding F87; checked here: stylelint 16 ran the plugin a
/// `.stylelintrc.json` named, markdownlint-cli2 the `customRules` of its
/// `.markdownlint-cli2.jsonc`, cspell 9 the configuration a `cspell.json` imported, commitlint
/// 20 the file a `.commitlintrc.json` extended): each such file, the configuration files it
/// names, read in turn, and what the code imports are out of the agent's reach; the project's
/// other code is not, nor any of these where no hook runs these tools.
#[test]
fn what_node_tools_json_and_yaml_configurations_name_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        ".stylelintrc.json",
        r#"{"extends": ["./cfg/base.json"], "plugins": ["./plug/p.js"], "rules": {}}"#,
    );
    repo.write("cfg/base.json", r#"{"plugins": ["./basep.mjs"]}"#);
    repo.write(
        ".markdownlint-cli2.jsonc",
        "{\n  // local rules\n  \"customRules\": [\"./rules/r.js\"],\n}\n",
    );
    repo.write("cspell.json", r#"{"version": "0.2", "import": ["./cfg/more.cjs"]}"#);
    repo.write("cfg/more.cjs", "const d = require('./deeper');\nmodule.exports = d;\n");
    repo.write(".commitlintrc.yml", "extends:\n  - ./cfg/cl.cjs\n");
    repo.write("src/a.css", "a { color: red; }\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "stylelint '**/*.css' || exit 2",
            "markdownlint-cli2 '**/*.md' && cspell . && commitlint --from HEAD~1",
        ]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("plug/p.js"),
        r("cfg/base.json"),
        r("cfg/basep.mjs"),
        r("rules/r.js"),
        r("cfg/more.cjs"),
        r("cfg/deeper.js"),
        r("cfg/cl.cjs"),
        r("cfg/other.js"),
        r("src/a.css"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A JavaScript configuration of a linter or formatter a hook runs is code the tool runs, and
/// so is what it imports and the plugins it names (finding F85; checked with eslint 9 and
/// prettier 3 here: `eslint` ran an `eslint.config.js`'s `./cfg/rules.js` and what that
/// imported, prettier a `.prettierrc.cjs`'s required file and its `plugins: ["./p.js"]`): each
/// file such a configuration where the tool runs, or in a folder above, imports or names
/// (with Node's extensions and `index` files, existing or not), what those import in turn,
/// and the packages it imports by name are out of the agent's reach; the project's other
/// files are not, nor any of these where no hook runs these tools.
#[test]
fn what_javascript_configurations_import_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "eslint.config.js",
        "import rules from './cfg/rules.js';\nimport local from './cfg/plugin';\nimport p from 'eslint-plugin-local';\nexport default [{ rules }];\n",
    );
    repo.write(
        "cfg/rules.js",
        "import './deeper.mjs';\nimport '../shared/policy.js';\nexport default {};\n",
    );
    repo.write("cfg/deeper.mjs", "export default {};\n");
    repo.write("shared/policy.js", "export default {};\n");
    repo.write("cfg/other.js", "export default {};\n");
    repo.write(
        "web/.prettierrc.cjs",
        "const base = require('./cfg/pbase.cjs');\nmodule.exports = { ...base, plugins: ['./cfg/plug.js'] };\n",
    );
    repo.write("web/cfg/pbase.cjs", "module.exports = {};\n");
    repo.write("src/a.js", "let a = 1\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["eslint . || exit 2", "cd web && prettier --check . || exit 2"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("cfg/rules.js"),
        r("cfg/plugin.js"),
        r("cfg/plugin/index.js"),
        r("cfg/deeper.mjs"),
        r("shared/policy.js"),
        r("node_modules/eslint-plugin-local/index.js"),
        r("web/cfg/pbase.cjs"),
        r("web/cfg/plug.js"),
        r("cfg/other.js"),
        r("src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// lint-staged runs the commands its JavaScript configuration gives each glob, as a string, a
/// list or what a function returns (finding F88; checked with lint-staged 16.4 here): what
/// those commands run is out of the agent's reach; the project's other code is not, nor any
/// of these where no hook runs lint-staged.
#[test]
fn what_lint_staged_s_javascript_configuration_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "lint-staged.config.mjs",
        "export default {\n  '*.js': 'sh tools/x.sh',\n  '*.ts': (files) => `sh tools/y.sh ${files.join(' ')}`,\n  '*.md': ['sh tools/z.sh', 'true'],\n};\n",
    );
    repo.write("src/a.js", "let a = 1\n");
    repo.write(".claude/settings.json", &claude_settings(&["npx lint-staged || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths =
        [r("tools/x.sh"), r("tools/y.sh"), r("tools/z.sh"), r("tools/other.sh"), r("src/a.js")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// just runs a justfile's recipes in its `set working-directory`, a recipe's
/// `[working-directory: …]` under that, and a `[no-cd]` recipe where just was started
/// (finding F90; checked with just 1.59 here, from another folder with `--justfile`): what
/// those recipes run there is out of the agent's reach; the project's other scripts are not,
/// nor any of these where no hook runs just.
#[test]
fn what_a_justfile_s_recipes_run_in_their_working_directories_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "ci/justfile",
        "set working-directory := 'tools'\n\ncheck:\n    sh gate.sh\n\n[private, working-directory: 'sub']\nother:\n    sh sgate.sh\n\n[no-cd]\nthird:\n    sh ngate.sh\n",
    );
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["just --justfile ci/justfile check other third"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths =
        [r("ci/tools/gate.sh"), r("ci/tools/sub/sgate.sh"), r("ngate.sh"), r("ci/tools/other.sh")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// task runs a task's commands in its `dir:` (finding F91; checked with task 3.54 here: `task
/// check`, whose `check` runs the task `lint` with `dir: web`, ran `sh scripts/lint.sh` as
/// `web/scripts/lint.sh`): what they run there is out of the agent's reach; the project's
/// other scripts are not, nor any of these where no hook runs task.
#[test]
fn what_a_taskfile_s_tasks_run_in_their_folders_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "Taskfile.yml",
        "version: '3'\ntasks:\n  lint:\n    dir: web\n    cmds:\n      - sh scripts/lint.sh\n  check:\n    cmds:\n      - task: lint\n      - sh tools/check.sh\n",
    );
    repo.write(".claude/settings.json", &claude_settings(&["task check || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [r("web/scripts/lint.sh"), r("tools/check.sh"), r("web/other.sh")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 2);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// Turborepo runs the scripts of the workspaces' packages for the tasks its line names, and
/// those their `dependsOn` name first (finding F92; checked with turbo 2 here: `turbo run lint`
/// ran package `a`'s `lint` script and, for `lint`'s `dependsOn: ["build"]`, package `b`'s
/// `build`): what those scripts run, the packages' manifests and `turbo.json`s are out of the
/// agent's reach; the packages' other scripts are not, nor any of these where no hook runs
/// turbo.
#[test]
fn what_turborepo_runs_in_the_workspaces_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "package.json",
        r#"{"name": "root", "private": true, "workspaces": ["packages/*"]}"#,
    );
    repo.write("turbo.json", r#"{"tasks": {"lint": {"dependsOn": ["build"]}, "build": {}}}"#);
    repo.write(
        "packages/a/package.json",
        r#"{"name": "a", "scripts": {"lint": "sh tools/a-lint.sh", "start": "sh tools/serve.sh"}}"#,
    );
    repo.write(
        "packages/b/package.json",
        r#"{"name": "b", "scripts": {"build": "sh tools/b-build.sh"}}"#,
    );
    repo.write(".claude/settings.json", &claude_settings(&["npx turbo run lint || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("packages/a/tools/a-lint.sh"),
        r("packages/b/tools/b-build.sh"),
        r("turbo.json"),
        r("packages/a/package.json"),
        r("packages/b/turbo.json"),
        r("packages/a/tools/serve.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 5);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// Nx runs the commands of the workspace's `project.json` targets and the scripts of its
/// packages for the targets its line names (finding F93; checked with nx 21 here: `nx
/// run-many -t lint` ran an npm workspace package's `lint` script and a `project.json`'s
/// `nx:run-commands` command): what those run, the `project.json` files and `nx.json` are out
/// of the agent's reach; the packages' other scripts are not, nor any of these where no hook
/// runs nx.
#[test]
fn what_nx_runs_in_the_workspace_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "package.json",
        r#"{"name": "root", "private": true, "workspaces": ["packages/*"]}"#,
    );
    repo.write("nx.json", "{}");
    repo.write(
        "packages/a/package.json",
        r#"{"name": "a", "scripts": {"lint": "sh tools/a-lint.sh"}}"#,
    );
    repo.write(
        "libs/c/project.json",
        r#"{"targets": {"lint": {"executor": "nx:run-commands", "options": {"command": "sh libs/c/tools/c-lint.sh"}}}}"#,
    );
    repo.write(".claude/settings.json", &claude_settings(&["npx nx run-many -t lint || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("packages/a/tools/a-lint.sh"),
        r("libs/c/tools/c-lint.sh"),
        r("libs/c/project.json"),
        r("nx.json"),
        r("packages/a/tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 4);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// rake runs its `Rakefile` as Ruby whatever the task (finding F95; checked with rake 13.0
/// here, each file writing a marker): it loads every `rakelib/*.rake`, the files
/// `require_relative`, `load` and `import` name and those a `Dir.glob` lists, each read in
/// turn, and its tasks run the commands of `sh`, `ruby`, `system`, backticks and `%w[…]` from
/// the `Rakefile`'s folder. Those files (existing or not, in the folders it loads whole) and
/// what those commands run are out of the agent's reach; the project's other files are not,
/// nor any of these where no hook runs rake.
#[test]
fn what_a_rakefile_loads_and_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "Rakefile",
        "require_relative \"tools/req\"\nload \"tools/loaded.rb\"\nimport \"tools/imported.rake\"\nDir.glob(\"lib/tasks/*.rake\").each { |f| load f }\ndesc \"Run the linter\"\ntask :lint => [:pre] do\n  sh \"sh tools/lint.sh\"\n  ruby \"tools/check.rb\"\n  system(\"sh\", \"tools/sys.sh\")\n  `sh tools/bt.sh`\nend\ntask :pre do\n  sh %w[sh tools/pre.sh].join(\" \")\nend\n",
    );
    repo.write("tools/req.rb", "def deep\n  sh \"sh tools/deep.sh\"\nend\n");
    repo.write("rakelib/auto.rake", "task :auto\n");
    repo.write("src/a.rb", "puts 1\n");
    repo.write(".claude/settings.json", &claude_settings(&["rake lint || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/req.rb"),
        r("tools/loaded.rb"),
        r("tools/imported.rake"),
        r("rakelib/auto.rake"),
        r("rakelib/new.rake"),
        r("lib/tasks/new.rake"),
        r("tools/check.rb"),
        r("tools/lint.sh"),
        r("tools/sys.sh"),
        r("tools/bt.sh"),
        r("tools/pre.sh"),
        r("tools/deep.sh"),
        r("tools/other.sh"),
        r("src/a.rb"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 12);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// invoke imports its `tasks.py` with the modules beside it and runs each `c.run(…)` line
/// where it was started, after loading its project's configuration beside the tasks
/// (`invoke.yaml`, `invoke.py`, which is Python) and the user's (`~/.invoke.py`); nox runs its
/// sessions' `session.run(…)` arguments from the `noxfile.py`'s folder (finding F95; checked
/// with invoke 3.0 and nox 2026.10 here, each file writing a marker). Those files (existing or
/// not) and what those lines run are out of the agent's reach; the project's other files are
/// not, nor any of these where no hook runs invoke or nox.
#[test]
fn what_invoke_s_and_nox_s_python_loads_and_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "tasks.py",
        "from invoke import task\nimport helpers\n\n@task\ndef lint(c):\n    c.run(\"sh tools/lint.sh\")\n    helpers.more(c)\n",
    );
    repo.write("helpers.py", "def more(c):\n    c.run(\"sh tools/helped.sh\")\n");
    repo.write("invoke.yaml", "run:\n  shell: tools/myshell\n");
    repo.write(
        "noxfile.py",
        "import nox\n\n@nox.session(venv_backend=\"none\")\ndef lint(session):\n    session.run(\"sh\", \"tools/nox.sh\", external=True)\n",
    );
    repo.write("src/app.py", "print(1)\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["inv lint || exit 2", "python3 -m nox -s lint || exit 2"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        r("helpers.py"),
        r("helpers/__init__.py"),
        r("tools/lint.sh"),
        r("tools/helped.sh"),
        r("invoke.yaml"),
        r("invoke.py"),
        r("tools/myshell"),
        h(".invoke.py"),
        r("tools/nox.sh"),
        r("tools/other.sh"),
        r("src/app.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 9);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// just, task, npm, rake, tox and PDM look for their recipe file in the folders above the one
/// they run in when it has none, and run its lines from the folder they find it in (finding
/// F96; checked with just 1.59, task 3.54, npm 11, rake 13.0, tox 4 and PDM 2.29 here, from a
/// package folder of a repository whose top folder held the files): for a project in such a folder, the files
/// above, the same names in the folders between, and what those files' lines run are out of
/// the agent's reach; the repository's other scripts are not, nor any of these where the
/// project's hooks run none of these tools.
#[test]
fn what_a_task_runner_finds_above_where_it_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("justfile", "lint:\n    sh tools/j.sh\n");
    repo.write("Taskfile.yml", "version: '3'\ntasks:\n  lint:\n    cmds:\n      - sh tools/t.sh\n");
    repo.write("package.json", r#"{"scripts": {"lint": "sh tools/n.sh"}}"#);
    repo.write("Rakefile", "task(:lint) { sh 'sh tools/r.sh' }\n");
    repo.write("tox.ini", "[testenv:lint]\ncommands = sh tools/x.sh\n");
    repo.write("pyproject.toml", "[tool.pdm.scripts]\nlint = \"sh tools/p.sh\"\n");
    repo.write("packages/web/src/a.js", "let a = 1\n");
    let lines =
        ["just lint", "task lint", "npm run lint", "rake lint", "tox -e lint", "pdm run lint"];
    repo.write("packages/web/.claude/settings.json", &claude_settings(&lines));
    let project = repo.path().join("packages/web");
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("justfile"),
        r("Taskfile.yml"),
        r("Rakefile"),
        r("packages/justfile"),
        r("packages/Taskfile.yml"),
        r("tools/j.sh"),
        r("tools/t.sh"),
        r("tools/n.sh"),
        r("tools/r.sh"),
        r("tox.ini"),
        r("tools/x.sh"),
        r("tools/p.sh"),
        r("tools/other.sh"),
        r("packages/web/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(&project, home.path(), &paths, 12);
    repo.write("packages/web/.claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let (code, lines) = guard(&project, &project, home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// pnpm, yarn, bun and Deno take the manifest (or Deno's configuration) of the nearest folder
/// above where they run that has one, cargo the nearest `Cargo.toml`, Gradle the nearest
/// settings script (with its build's scripts and `buildSrc/`), Maven's launcher the nearest
/// `.mvn/`; and cargo builds, with the package it runs for, the build scripts of the
/// workspace's members and of the path dependencies (finding F100; checked here from a
/// package folder with pnpm 12, yarn 1.22, bun 1.4, Deno 2.9, cargo 1, Gradle 4.4 and Maven
/// 3.8, each script and build script writing a marker, Maven's `--version` in
/// `.mvn/maven.config` ending `mvn validate` with 0). Those files are out of the agent's
/// reach, a member the agent would add under the members' pattern too; the project's other
/// files are not, nor any of these where no hook runs those tools.
#[test]
fn what_a_build_tool_finds_above_where_it_runs_and_builds_with_it_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("package.json", r#"{"scripts": {"lint": "sh tools/n.sh"}}"#);
    repo.write("deno.json", r#"{"tasks": {"check": "sh tools/d.sh"}}"#);
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"top\"\nversion = \"0.1.0\"\nbuild = \"tools/gen.rs\"\n[workspace]\nmembers = [\"crates/*\"]\n[dependencies]\nx = { path = \"libs/x\" }\n",
    );
    repo.write("crates/a/Cargo.toml", "[package]\nname = \"a\"\nversion = \"0.1.0\"\n");
    repo.write("crates/a/src/lib.rs", "\n");
    repo.write("libs/x/Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n");
    repo.write(".mvn/maven.config", "-q\n");
    repo.write("settings.gradle", "rootProject.name = 'top'\n");
    repo.write("packages/web/src/a.js", "let a = 1\n");
    let lines = [
        "pnpm run lint",
        "yarn lint",
        "bun run lint",
        "deno task check",
        "cargo clippy",
        "mvn -o validate",
        "gradle -q help",
    ];
    repo.write("packages/web/.claude/settings.json", &claude_settings(&lines));
    let project = repo.path().join("packages/web");
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/n.sh"),
        r("tools/d.sh"),
        r("Cargo.toml"),
        r("tools/gen.rs"),
        r("crates/a/build.rs"),
        r("crates/new/Cargo.toml"),
        r("libs/x/build.rs"),
        r(".mvn/maven.config"),
        r("settings.gradle"),
        r("build.gradle"),
        r("buildSrc/src/main/groovy/P.groovy"),
        r("tools/other.sh"),
        r("crates/a/src/lib.rs"),
        r("src/main.rs"),
        r("packages/web/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(&project, home.path(), &paths, 11);
    repo.write("packages/web/.claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let (code, lines) = guard(&project, &project, home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// A Python project's manager builds the project into its environment when it syncs it, and
/// the build backend runs the project's build code: `setup.py`, Hatch's custom hook, the hook
/// files the configuration names, an in-tree backend (finding F105; checked with uv and Hatch
/// 1.18 here: `uv run true` ran `setup.py`, again after it changed, and `hatch run lint` the
/// `hatch_build.py` hook). Those files are out of the agent's reach, existing or not; the
/// project's own code is not, nor any of these where no hook runs a project manager.
#[test]
fn what_a_python_project_s_build_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"p\"\nversion = \"0.1.0\"\n[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\nbackend-path = [\"_backend\"]\n[tool.hatch.build.hooks.custom]\npath = \"tools/hook.py\"\n",
    );
    repo.write("src/p/__init__.py", "\n");
    let lines = ["uv run ruff check .", "hatch run lint"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("setup.py"),
        r("hatch_build.py"),
        r("pdm_build.py"),
        r("tools/hook.py"),
        r("_backend/b.py"),
        r("src/p/__init__.py"),
        r("tools/other.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 5);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A JavaScript bundler runs its configuration, which is code, at every build, with what it
/// imports, and loads the configurations of the tools it builds with: PostCSS's (which loads
/// Tailwind's), Babel's (finding F104; checked with Vite 8, webpack 5 and Rollup 4 here, each
/// configuration writing a marker: `vite build` ran `vite.config.js` and `postcss.config.cjs`,
/// `webpack` its `webpack.config.js`, `rollup -c` its `rollup.config.mjs`). Those files are out
/// of the agent's reach, existing or not; the code they bundle is not, nor any of these where
/// no hook builds.
#[test]
fn what_a_bundler_s_configuration_loads_and_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("package.json", r#"{"scripts": {"build": "vite build"}}"#);
    repo.write(
        "vite.config.ts",
        "import plugin from './tools/vite-plugin.js'\nexport default { plugins: [plugin()] }\n",
    );
    repo.write("tools/vite-plugin.js", "export default () => ({ name: 'x' })\n");
    repo.write("postcss.config.cjs", "module.exports = { plugins: {} }\n");
    repo.write("webpack.config.js", "module.exports = { entry: './src/main.js' }\n");
    repo.write("rollup.config.mjs", "export default { input: 'src/main.js' }\n");
    repo.write("src/main.js", "console.log(1)\n");
    let lines = ["npm run build", "npx webpack", "rollup -c"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("vite.config.ts"),
        r("tools/vite-plugin.js"),
        r("postcss.config.cjs"),
        r("tailwind.config.js"),
        r("webpack.config.js"),
        r("babel.config.json"),
        r("rollup.config.mjs"),
        r("src/main.js"),
        r("tools/other.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A package manager's or build tool's own configuration names code it runs besides the
/// project's scripts (finding F106; checked here, each file writing a marker): npm 11 ran
/// `.npmrc`'s `script-shell` and the `--require` of its `node-options`; yarn 1.22 the
/// `yarn-path` and `script-shell` of `.yarnrc` and the `yarnPath` of `.yarnrc.yml`, yarn 4
/// that `yarnPath` and the `plugins` there; pnpm 12, at `pnpm lint` too, its `.pnpmfile.cjs`
/// (from a member's folder, the workspace root's), the `pnpmfile` `pnpm-workspace.yaml`
/// names and its `scriptShell` and `nodeOptions`; cargo a `.cargo/config.toml`'s
/// `rustc-wrapper` and `runner`, named from the folder holding `.cargo/`, from a subfolder
/// too; Maven 3.8 the `-javaagent:` of `.mvn/jvm.config`. Those files, and what the
/// `.pnpmfile.cjs` requires, are out of the agent's reach; the project's other files are not,
/// nor any of these where no hook runs these tools.
#[test]
fn what_a_package_manager_s_own_configuration_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("package.json", r#"{"scripts": {"lint": "node -e 1"}}"#);
    repo.write(".npmrc", "script-shell=./tools/sh.sh\nnode-options=--require ./tools/pre.js\n");
    repo.write(".yarnrc.yml", "yarnPath: tools/yarn.cjs\nplugins:\n  - path: tools/plugin.cjs\n");
    repo.write(".yarnrc", "script-shell \"./tools/ysh.sh\"\n");
    repo.write(
        "pnpm-workspace.yaml",
        "packages:\n  - web\npnpmfile: tools/pnpmfile.cjs\nscriptShell: tools/psh.sh\n",
    );
    repo.write(".pnpmfile.cjs", "require('./tools/pnpm-helper.js')\nmodule.exports = {}\n");
    repo.write("web/package.json", r#"{"scripts": {"lint": "true"}}"#);
    repo.write("web/src/a.js", "let a = 1\n");
    repo.write(
        ".cargo/config.toml",
        "[build]\nrustc-wrapper = \"tools/wrap.sh\"\n[target.'cfg(unix)']\nrunner = \"tools/run.sh -q\"\n",
    );
    repo.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n");
    repo.write(".mvn/jvm.config", "-Xmx1g -javaagent:tools/agent.jar=debug\n");
    repo.write("pom.xml", "<project/>\n");
    let lines = [
        "npm run lint",
        "yarn lint",
        "cd web && pnpm lint",
        "cd src && cargo build",
        "mvn -q validate",
    ];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/sh.sh"),
        r("tools/pre.js"),
        r("tools/yarn.cjs"),
        r("tools/plugin.cjs"),
        r("tools/ysh.sh"),
        r("tools/pnpmfile.cjs"),
        r("tools/psh.sh"),
        r(".pnpmfile.cjs"),
        r("tools/pnpm-helper.js"),
        r("tools/wrap.sh"),
        r("tools/run.sh"),
        r("tools/agent.jar"),
        r("tools/other.sh"),
        r("web/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 12);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A Node.js tool's configuration given by its option elsewhere than where the tool looks
/// (`vite build --config cfg/vite.mjs`, `rollup -c cfg/rollup.mjs`) is code the tool runs
/// with what it imports, as is the `pnpmfile` `pnpm-workspace.yaml` names (finding F107;
/// checked with Vite 8 and Rollup 4 here: the plugin beside the configuration, which it
/// imports, wrote its marker at each build). What those import is out of the agent's reach,
/// existing or not; the sources a bundler's configuration names are not, nor what a file no
/// hook's tool loads imports.
#[test]
fn what_a_configuration_named_by_an_option_imports_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "cfg/vite.mjs",
        "import plugin from './plugin.mjs'\nexport default { plugins: [plugin()] }\n",
    );
    repo.write(
        "cfg/rollup.mjs",
        "import p from './rplug.mjs'\nexport default { input: '../src/main.js', plugins: [p()] }\n",
    );
    repo.write("cfg/unused.mjs", "import u from './uplug.mjs'\n");
    repo.write("package.json", r#"{"scripts": {"lint": "true"}}"#);
    repo.write("pnpm-workspace.yaml", "pnpmfile: tools/pf.cjs\n");
    repo.write("tools/pf.cjs", "require('./lib/helper.js')\nmodule.exports = {}\n");
    repo.write("src/main.js", "console.log(1)\n");
    let lines = ["npx vite build --config cfg/vite.mjs", "rollup -c=cfg/rollup.mjs", "pnpm lint"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("cfg/plugin.mjs"),
        r("cfg/rplug.mjs"),
        r("tools/lib/helper.js"),
        r("src/main.js"),
        r("cfg/uplug.mjs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// pip's `install` of a local project builds it, which runs the project's `setup.py` and the
/// hooks its `pyproject.toml` names (finding F108; checked with pip 24 and setuptools here:
/// `pip install --no-build-isolation .` and `-e .` ran `setup.py`). Those files are out of the
/// agent's reach, existing or not, for `pip install -e .`, `python -m pip install ./lib` and
/// `pip3 install vendor/d/`; the project's code is not, nor any of these where no hook
/// installs it.
#[test]
fn what_pip_builds_when_it_installs_a_local_project_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "pyproject.toml",
        "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n\
         [tool.hatch.build.hooks.custom]\npath = \"tools/hook.py\"\n",
    );
    repo.write("lib/setup.py", "from setuptools import setup\nsetup()\n");
    repo.write("src/p/__init__.py", "X = 1\n");
    let lines =
        ["pip install -q -e .", "python3 -m pip install ./lib", "pip3 install --no-deps vendor/d/"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("setup.py"),
        r("tools/hook.py"),
        r("lib/setup.py"),
        r("vendor/d/setup.py"),
        r("src/p/__init__.py"),
        r("tools/other.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 4);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// pip installs what a requirements file lists, and builds each local project there: `-e .`,
/// `./lib`, `vendor/d` (a path without `./`, which F108 read as a package's name) and a
/// `file://` URL, from where pip runs, with the files `-r` includes from the file's folder;
/// pipx and uvx build a local project they install or run from (finding F109; checked with
/// pip 24 and pipx 1.18 here, each `setup.py` writing a marker). Those projects' build files,
/// the requirements files and a source archive installed are out of the agent's reach,
/// existing or not; the project's code is not, nor any of these where no hook installs.
#[test]
fn what_pip_s_requirements_and_python_tools_build_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let ext = repo.text_path("ext/x");
    repo.write("reqs/requirements.txt", "# dev\n-e .\n./lib\n-r more.txt\n");
    repo.write("reqs/more.txt", &format!("vendor/d\nx @ file://{ext} ; python_version > \"3\"\n"));
    repo.write("lib/setup.py", "from setuptools import setup\nsetup()\n");
    repo.write("src/p/__init__.py", "X = 1\n");
    let lines = [
        "pip install -q -r reqs/requirements.txt",
        "pipx install ./tools/cli",
        "uvx --from tools/fmt fmt src",
        "pip install dist/pkg-1.0.tar.gz",
    ];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("reqs/requirements.txt"),
        r("reqs/more.txt"),
        r("setup.py"),
        r("lib/setup.py"),
        r("vendor/d/setup.py"),
        r("ext/x/setup.py"),
        r("tools/cli/setup.py"),
        r("tools/fmt/pyproject.toml"),
        r("dist/pkg-1.0.tar.gz"),
        r("src/p/__init__.py"),
        r("tools/other.py"),
        r("src/setup.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 9);
}

/// pip's configuration decides what it installs as its options do: the user's
/// `~/.config/pip/pip.conf`, a file `PIP_CONFIG_FILE` names and the `PIP_REQUIREMENT` variable
/// had `pip install ./lib` build what their requirements files list (finding F113; checked
/// with pip 24 here). Those configurations, the files and projects they name, the local
/// `find-links` folders pip installs archives from, are out of the agent's reach, existing
/// or not; the project's code is not, nor any of these where no hook runs pip.
#[test]
fn what_pip_s_configuration_has_it_install_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    home.write(
        ".config/pip/pip.conf",
        "[install]\nrequirement = extra/r.txt\nfind-links = ./wheels\n",
    );
    repo.write("extra/r.txt", "./vendor/e\n");
    repo.write("ci/pip.ini", "[global]\neditable = tools/t\n");
    repo.write("src/p/__init__.py", "X = 1\n");
    let lines = [
        "pip install -q -e .",
        "PIP_CONFIG_FILE=ci/pip.ini pip install ./lib",
        "PIP_REQUIREMENT=more.txt python3 -m pip install ./lib",
        "pip install -f ./dist2 --no-index x",
    ];
    let r = |rel: &str| repo.text_path(rel);
    let h = |rel: &str| home.path().join(rel).to_string_lossy().into_owned();
    let paths = [
        h(".config/pip/pip.conf"),
        h(".pip/pip.conf"),
        r("extra/r.txt"),
        r("vendor/e/setup.py"),
        r("wheels/x-1.0-py3-none-any.whl"),
        r("ci/pip.ini"),
        r("tools/t/setup.py"),
        r("more.txt"),
        r("dist2/y-1.0.tar.gz"),
        r("src/p/__init__.py"),
        r("tools/other.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 9);
}

/// A Python project's manager builds the local projects the project depends on when it syncs
/// its environment: uv's `path` sources and workspace members, Poetry's `path` dependencies,
/// a `file:` URL of the dependency lists (finding F110; checked with uv 0.13 here: `uv run
/// true` ran the `setup.py` of the project, of its path source and of its workspace member).
/// Those projects' build files are out of the agent's reach, existing or not, a member the
/// agent adds under the members' pattern too; their code is not, nor any of these where no
/// hook runs a project manager.
#[test]
fn what_a_python_project_s_path_dependencies_build_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"app\"\nversion = \"0.1\"\n\
         dependencies = [\"lib\", \"m\", \"x @ file:///${PROJECT_ROOT}/ext/x\"]\n\
         [tool.uv.sources]\nlib = { path = \"lib\" }\nm = { workspace = true }\n\
         [tool.uv.workspace]\nmembers = [\"packages/*\"]\n\
         [tool.poetry.group.dev.dependencies]\nplib = { path = \"../plib\", develop = true }\n",
    );
    repo.write(
        "lib/pyproject.toml",
        "[build-system]\nbuild-backend = \"hatchling.build\"\n\
         [tool.hatch.build.hooks.custom]\npath = \"hooks/build.py\"\n",
    );
    repo.write("packages/m/pyproject.toml", "[project]\nname = \"m\"\n");
    repo.write("packages/m/src/m/__init__.py", "X = 1\n");
    let lines = ["uv run ruff check ."];
    let r = |rel: &str| repo.text_path(rel);
    let plib = repo.path().parent().expect("parent").join("plib/setup.py");
    let plib = plib.to_string_lossy().into_owned();
    let paths = [
        r("lib/setup.py"),
        r("lib/hooks/build.py"),
        r("packages/m/setup.py"),
        r("packages/new/pyproject.toml"),
        r("ext/x/setup.py"),
        plib,
        r("packages/m/src/m/__init__.py"),
        r("src/app.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 6);
}

/// An install runs the install scripts of the local packages it installs: npm 11's `npm
/// install` and `npm ci` ran the `preinstall`, `install`, `postinstall` and `prepare` scripts
/// of a `file:./x` dependency and of a `file:y` development one (finding F114; checked here).
/// Those packages' manifests, what their install scripts run, and a local tarball installed,
/// are out of the agent's reach, existing or not; the packages' other code is not, nor any of
/// these where no hook installs.
#[test]
fn what_an_install_runs_of_local_packages_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "package.json",
        r#"{"dependencies": {"x": "file:./x"}, "devDependencies": {"y": "file:y", "t": "file:vendor/t.tgz"}}"#,
    );
    repo.write(
        "x/package.json",
        r#"{"scripts": {"install": "node inst.js", "prepare": "sh tools/prep.sh"}}"#,
    );
    repo.write("x/lib.js", "module.exports = 1\n");
    let lines = ["npm ci", "cd web && pnpm install ../z"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("x/package.json"),
        r("x/inst.js"),
        r("x/tools/prep.sh"),
        r("y/package.json"),
        r("vendor/t.tgz"),
        r("z/package.json"),
        r("x/lib.js"),
        r("src/app.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 6);
}

/// Bundler evaluates the `Gemfile` at every `bundle exec`, with the file its `eval_gemfile`
/// names, the project's gemspec and the gemspecs of its local gems, with what those require
/// (finding F115; checked with Bundler 2.4 and Ruby 3.1 here, each file writing a marker).
/// Those files are out of the agent's reach, existing or not, from a subfolder too; the gems'
/// other code is not, nor any of these where no hook runs Bundler.
#[test]
fn what_bundler_evaluates_with_the_gemfile_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "Gemfile",
        "source \"https://rubygems.org\"\neval_gemfile \"gemfiles/extra.rb\"\ngemspec\n\
         gem \"x\", path: \"vendor/x\"\npath \"components\" do\n  gem \"a\"\nend\n",
    );
    repo.write("app.gemspec", "Gem::Specification.new { |s| s.name = \"app\" }\n");
    repo.write("vendor/x/x.gemspec", "require_relative \"lib/x_version\"\n");
    repo.write("vendor/x/lib/x.rb", "module X; end\n");
    let lines = ["bundle exec rubocop", "cd src && bundle exec rake"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("gemfiles/extra.rb"),
        r("app.gemspec"),
        r("vendor/x/x.gemspec"),
        r("vendor/x/lib/x_version.rb"),
        r("components/a/a.gemspec"),
        r("vendor/x/lib/x.rb"),
        r("src/app.rb"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// A cargo subcommand that is an alias of its configuration runs what the alias says: `cargo
/// xtask check` with `[alias] xtask = "run --package xtask --"` built and ran the `xtask`
/// package's program, `cargo lint` with `lint = "run --manifest-path tools/lint/Cargo.toml
/// --"` the one of `tools/lint` (finding F116; checked with cargo here). Those programs and the
/// manifest are out of the agent's reach, from a subfolder and through the user's alias too;
/// the packages' other modules and the project's own program are not, nor any of these where no
/// hook runs cargo.
#[test]
fn what_cargo_s_aliases_run_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        ".cargo/config.toml",
        "[alias]\nxtask = \"run --package xtask --\"\nlint = \"run --manifest-path tools/lint/Cargo.toml --\"\n",
    );
    home.write(".cargo/config.toml", "[alias]\ngate = [\"run\", \"-p\", \"gate\"]\n");
    repo.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"xtask\", \"crates/*\"]\n[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
    );
    repo.write("xtask/Cargo.toml", "[package]\nname = \"xtask\"\nversion = \"0.1.0\"\n");
    repo.write("crates/g/Cargo.toml", "[package]\nname = \"gate\"\nversion = \"0.1.0\"\n");
    let lines = ["cargo xtask check", "cd src && cargo lint", "cargo gate"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("xtask/src/main.rs"),
        r("tools/lint/src/main.rs"),
        r("tools/lint/Cargo.toml"),
        r("crates/g/src/main.rs"),
        r("xtask/src/util.rs"),
        r("src/main.rs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 4);
}

/// cargo builds the packages its configuration's `[patch]` tables and `paths` overrides name
/// in place of a dependency, and so runs their build scripts (finding F111; checked with
/// cargo here: each build script wrote its marker at `cargo check`, from the package's `src/`
/// too). Those packages' manifests and build scripts, and what their own manifests reach, are
/// out of the agent's reach, existing or not, for the project's `.cargo/config.toml` and the
/// user's `~/.cargo/config.toml`; the packages' sources are not, nor any of these where no
/// hook runs cargo.
#[test]
fn what_cargo_s_configuration_patches_in_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n[dependencies]\nitoa = \"1\"\n",
    );
    repo.write("app/src/main.rs", "fn main() {}\n");
    repo.write(
        "app/.cargo/config.toml",
        "paths = [\"../bar\"]\n[patch.crates-io]\nitoa = { path = \"../foo\" }\n",
    );
    repo.write("foo/Cargo.toml", "[package]\nname = \"itoa\"\nversion = \"1.0.99\"\n");
    repo.write("foo/src/lib.rs", "\n");
    repo.write(
        "bar/Cargo.toml",
        "[package]\nname = \"bar\"\nversion = \"0.1.0\"\nbuild = \"gen/b.rs\"\n\
         [dependencies]\nbaz = { path = \"../baz\" }\n",
    );
    let vendored = repo.text_path("vendored/serde");
    home.write(
        ".cargo/config.toml",
        &format!("[patch.crates-io]\nserde = {{ path = {vendored:?} }}\n"),
    );
    let lines = ["cd app && cargo check -q"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("foo/build.rs"),
        r("foo/Cargo.toml"),
        r("bar/Cargo.toml"),
        r("bar/gen/b.rs"),
        r("baz/build.rs"),
        r("vendored/serde/build.rs"),
        r("vendored/serde/Cargo.toml"),
        r("foo/src/lib.rs"),
        r("app/src/main.rs"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 7);
}

/// npm takes a relative name of `.npmrc` (the user's too) from the folder of the package whose
/// script runs, and Maven 3.8 a relative Java agent of `.mvn/jvm.config` from where `mvn`
/// runs, a subfolder too (finding F112; checked with npm 11 and Maven 3.8 in session 47).
/// Those files are out of the agent's reach wherever they are taken from, existing or not;
/// another file is not, nor any of these where no hook runs npm or Maven.
#[test]
fn what_npm_s_and_maven_s_relative_names_load_from_where_they_run_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    home.write(".npmrc", "script-shell=./tools/hsh.sh\n");
    repo.write("package.json", r#"{"workspaces": ["web"], "scripts": {"lint": "true"}}"#);
    repo.write(".npmrc", "node-options=--require ./tools/pre.js\n");
    repo.write("web/package.json", r#"{"scripts": {"lint": "true"}}"#);
    repo.write("web/src/a.js", "let a = 1\n");
    repo.write(".mvn/jvm.config", "-javaagent:tools/agent.jar\n");
    repo.write("pom.xml", "<project/>\n");
    repo.write("sub/pom.xml", "<project/>\n");
    let lines = ["npm run lint", "npm run lint -w web", "cd sub && mvn -q validate"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/hsh.sh"),
        r("web/tools/pre.js"),
        r("sub/tools/agent.jar"),
        r("tools/other.sh"),
        r("web/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 3);
}

/// A task runner started in a subfolder that has no recipe file takes the one above (F96);
/// what it runs from where it was started (a justfile's `[no-cd]` recipe, a task's `dir:
/// '{{.USER_WORKING_DIR}}'`, invoke's lines) runs in that subfolder, which a `cd` on the hook's
/// line makes another folder than the hook's (finding F103; checked with just 1.59, task 3.54
/// and invoke here, each script writing the folder it ran in). Those scripts are out of the
/// agent's reach; the subfolder's other files are not, nor any of these where no hook runs
/// these tools.
#[test]
fn what_a_runner_started_in_a_subfolder_runs_from_there_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("justfile", "[no-cd]\nlint:\n    sh tools/j.sh\n");
    repo.write(
        "Taskfile.yml",
        "version: '3'\ntasks:\n  lint:\n    dir: '{{.USER_WORKING_DIR}}'\n    cmds:\n      - sh tools/t.sh\n",
    );
    repo.write(
        "tasks.py",
        "from invoke import task\n@task\ndef lint(c):\n    c.run(\"sh tools/i.sh\")\n",
    );
    repo.write("pkg/src/a.js", "let a = 1\n");
    let lines = ["cd pkg && just lint", "cd pkg && task lint", "cd pkg && invoke lint"];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("pkg/tools/j.sh"),
        r("pkg/tools/t.sh"),
        r("pkg/tools/i.sh"),
        r("pkg/tools/other.sh"),
        r("pkg/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// Fabric imports its `fabfile.py` (found in the folders above as invoke finds `tasks.py`)
/// with the modules beside it, reads `fabric.yaml` beside it and runs each `c.run(…)` line
/// where it was started; doit (`-k` seeks `dodo.py` above) runs its tasks' actions from the
/// `dodo.py`'s folder and loads the plugins `doit.cfg` names (finding F101; checked with Fabric
/// 3.2 and doit 0.37 here, each file writing a marker). Those files (existing or not), the
/// names in the folders between and what the lines run are out of the agent's reach; the
/// project's other files are not, nor any of these where no hook runs Fabric or doit.
#[test]
fn what_fabric_and_doit_load_and_run_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "fabfile.py",
        "from fabric import task\nimport helpers\n@task\ndef lint(c):\n    c.run(\"sh tools/f.sh\")\n",
    );
    repo.write("helpers.py", "X = 1\n");
    repo.write("fabric.yaml", "run:\n  echo: true\n");
    repo.write(
        "dodo.py",
        "def task_lint():\n    return {\"actions\": [\"sh tools/d.sh\", [\"sh\", \"tools/d2.sh\"]]}\n",
    );
    repo.write("doit.cfg", "[GLOBAL]\nverbosity = 2\n");
    repo.write("packages/web/src/a.js", "let a = 1\n");
    let lines = ["fab lint", "python3 -m doit -k lint"];
    repo.write("packages/web/.claude/settings.json", &claude_settings(&lines));
    let project = repo.path().join("packages/web");
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("fabfile.py"),
        r("helpers.py"),
        r("fabric.yaml"),
        r("tools/f.sh"),
        r("packages/fabfile.py"),
        r("packages/web/tools/f.sh"),
        r("dodo.py"),
        r("tools/d.sh"),
        r("tools/d2.sh"),
        r("packages/dodo.py"),
        r("tools/other.sh"),
        r("packages/web/src/a.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(&project, home.path(), &paths, 10);
    repo.write("packages/web/.claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let (code, lines) = guard(&project, &project, home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// ruby and perl load the libraries their options name from the folders the line gives
/// them, and the same options in `RUBYOPT` and `PERL5OPT` (finding F97; checked with Ruby 3.1
/// and Perl 5.36 here, each library writing a marker: `RUBYOPT=-r./tools/setup.rb`,
/// `RUBYOPT="-Itools -rsetup"`, `PERL5OPT="-Itools -MSetup"`, `-MT::S`); `python -m` runs a
/// module from the line's `PYTHONPATH`; rake takes ruby's `-I` and `-r` (also as `--libdir`
/// and `--require`) and loads the `.rake` files of its `--rakelibdir` (finding F102; checked
/// with rake 13.0). Those files are out of the agent's reach; the
/// project's other code is not, nor any of these where no hook loads them.
#[test]
fn what_library_options_and_their_variables_load_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("x.rb", "puts 1\n");
    let lines = [
        "RUBYOPT=-r./tools/setup.rb ruby x.rb",
        "RUBYOPT='-Ilib -rhelper' ruby x.rb",
        "ruby -Ici -rcheck x.rb",
        "PERL5OPT='-Itools -MT::S' perl x.pl",
        "perl -Iperl -MGate=strict x.pl",
        "PYTHONPATH=tools python3 -m gate",
        "rake --rakelibdir=ci/tasks --libdir ci --require=pre lint",
    ];
    repo.write(".claude/settings.json", &claude_settings(&lines));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/setup.rb"),
        r("lib/helper.rb"),
        r("ci/check.rb"),
        r("tools/T/S.pm"),
        r("perl/Gate.pm"),
        r("tools/gate.py"),
        r("ci/tasks/lint.rake"),
        r("ci/pre.rb"),
        r("tools/other.rb"),
        r("x.rb.bak"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}

/// A hook that runs a manifest's script or a task runner's recipe runs the command lines
/// that file holds (finding F72; checked with npm 11 and GNU make 4.3 here: `npm run lint`
/// and `make check` ran the scripts their lines name): what those lines run is out of the
/// agent's reach, as for the hook's own line, for npm's scripts, a makefile's, a justfile's
/// and a Taskfile's recipes, tox's commands, and pre-commit's and lefthook's configuration
/// run directly; the
/// project's other files are not, nor what the recipes no hook names run (a manifest's
/// `start` script's server, a makefile's other target's script), nor any of these where no
/// hook runs them.
#[test]
fn what_a_recipe_a_hook_runs_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    repo.write(
        "package.json",
        r#"{"scripts": {"lint": "sh tools/lint.sh --strict", "start": "node src/server.js"}}"#,
    );
    repo.write(
        "Makefile",
        "check: build\n\t@sh tools/check.sh\nbuild:\n\t$(MAKE) -C sub\nserve:\n\tsh tools/serve.sh\n",
    );
    repo.write("justfile", "check:\n    sh tools/just.sh\n");
    repo.write("Taskfile.yml", "version: '3'\ntasks:\n  t:\n    cmds:\n      - sh tools/task.sh\n");
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n- repo: local\n  hooks:\n  - id: c\n    name: c\n    entry: ./tools/pc.sh\n    language: script\n",
    );
    repo.write("lefthook.yml", "pre-commit:\n  commands:\n    l:\n      run: sh tools/lh.sh\n");
    repo.write("tox.ini", "[testenv:lint]\ncommands =\n    sh tools/tox.sh {posargs}\n");
    repo.write("ci/build.rules", "check-ci:\n\tsh tools/ci.sh\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "npm run lint",
            "make check && just check",
            "task t",
            "pre-commit run --all-files || exit 2",
            "lefthook run pre-commit",
            "tox -e lint",
            "make -f ci/build.rules check-ci",
        ]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/lint.sh"),
        r("tools/check.sh"),
        r("tools/just.sh"),
        r("tools/task.sh"),
        r("tools/pc.sh"),
        r("tools/lh.sh"),
        r("tools/tox.sh"),
        r("tools/ci.sh"),
        r("tools/other.sh"),
        // What the recipes the hooks do not name run stays the agent's to edit.
        r("src/server.js"),
        r("tools/serve.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// make runs more of a makefile than its target's recipe (finding F73; checked with GNU make
/// 4.3 here, each with a logging script): the commands of its `$(shell …)` and `!=` lines
/// while it reads it, whatever the target; every recipe line through the program its `SHELL`
/// names; the makefiles it `include`s, which it reads as part of it (one that does not exist
/// yet too: `-include local.mk` reads the agent's new file), and the recipes its variables
/// hold (`$(LINT) src`) or another makefile's a recipe runs (`$(MAKE) -C sub test`). For a
/// hook that runs `make check`, all of that is out of the agent's reach; what the other
/// targets run is not, nor any of it where no hook runs make.
#[test]
fn what_make_runs_while_it_reads_a_makefile_is_protected() {
    let repo = TestDir::new();
    repo.write(
        "Makefile",
        "include mk/rules.mk\n-include local.mk\nLINT = sh tools/lint.sh\nV := $(shell sh tools/v.sh)\nW != sh tools/w.sh\nSHELL := ./tools/mysh.sh\ncheck:\n\t$(LINT) src\n\t$(MAKE) -C sub test\ndeploy:\n\tsh tools/deploy.sh\n",
    );
    repo.write("mk/rules.mk", "R := $(shell sh tools/inc.sh)\n");
    repo.write("sub/Makefile", "test:\n\tsh ../tools/sub.sh\n");
    repo.write(".claude/settings.json", &claude_settings(&["make check || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/v.sh"),
        r("tools/w.sh"),
        r("tools/mysh.sh"),
        r("tools/lint.sh"),
        r("mk/rules.mk"),
        r("tools/inc.sh"),
        r("local.mk"),
        r("tools/sub.sh"),
        // What the target the hook does not make runs stays the agent's to edit.
        r("tools/deploy.sh"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 8);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// just runs more of a justfile than its recipe's lines (finding F74; checked with just 1.59
/// here, each with a logging script): every backtick and `shell(…)` of its assignments at
/// each run, whatever the recipe, through the program its `set shell` names; the files it
/// `import`s (`import?` one that does not exist yet) and the modules it declares, whose own
/// assignments it evaluates from their folder; the `.env` it loads with `set dotenv-load`
/// (into every line's environment); and its string variables in the recipe lines (`{{LINT}}
/// src`). For a hook that runs `just check`, all of that is out of the agent's reach; what the
/// other recipes run is not, nor any of it where no hook runs just.
#[test]
fn what_just_runs_while_it_reads_a_justfile_is_protected() {
    let repo = TestDir::new();
    repo.write(
        "justfile",
        "import 'tools/common.just'\nimport? 'local.just'\nmod ci\nset dotenv-load\nv := `sh tools/bt.sh`\nset shell := [\"./tools/mysh.sh\", \"-c\"]\nLINT := \"sh tools/lint.sh\"\n\ncheck:\n    {{LINT}} src\n\ndeploy:\n    sh tools/deploy.sh\n",
    );
    repo.write("tools/common.just", "w := shell('sh tools/fn.sh')\n");
    repo.write("ci/mod.just", "z := `sh ci-check.sh`\n");
    repo.write(".claude/settings.json", &claude_settings(&["just check || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/bt.sh"),
        r("tools/mysh.sh"),
        r("tools/lint.sh"),
        r("tools/common.just"),
        r("tools/fn.sh"),
        r("local.just"),
        r("ci/mod.just"),
        r("ci/ci-check.sh"),
        r(".env"),
        // What the recipe the hook does not run runs stays the agent's to edit.
        r("tools/deploy.sh"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 9);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// A manifest's script often runs others (finding F75; checked with npm 11 and npm-run-all
/// 4.1 and concurrently 9 here): `npm run lint:js` in the `lint` script runs that script too,
/// npm-run-all's `run-p lint:css:*` every script its pattern matches, with their `pre`
/// scripts, and concurrently each of its command arguments (`npm:test:*` the scripts that
/// match, across `:` too) and its `--teardown`. For a hook that runs `npm run lint` or `npm
/// run check`, what those run is out of the agent's reach; what the scripts the pattern does
/// not match run is not (`lint:css` itself, the `start` script's server).
#[test]
fn what_the_scripts_a_manifest_s_script_runs_run_is_protected() {
    let repo = TestDir::new();
    repo.write(
        "package.json",
        r#"{"scripts": {"lint": "npm run lint:js && run-p -l lint:css:*", "lint:js": "sh tools/js.sh", "lint:css:a": "sh tools/css.sh", "prelint:css:b": "sh tools/pre.sh", "lint:css:b": "true", "lint:css": "sh tools/whole.sh", "check": "concurrently -n t,d \"npm:test:*\" \"sh tools/direct.sh\" --teardown \"sh tools/down.sh\"", "test:unit:fast": "sh tools/unit.sh", "start": "node src/server.js"}}"#,
    );
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["npm run -s lint || exit 2", "npm run check"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/js.sh"),
        r("tools/css.sh"),
        r("tools/pre.sh"),
        // concurrently's commands, its `npm:` pattern across `:` too, and its teardown.
        r("tools/unit.sh"),
        r("tools/direct.sh"),
        r("tools/down.sh"),
        r("tools/whole.sh"),
        r("src/server.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 6);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// tox reads its configuration from `tox.toml`, `pyproject.toml`'s `[tool.tox]` or
/// `setup.cfg` as well as `tox.ini` (finding F76; checked with tox 4.67 here, each alone
/// in a project: `tox -e lint` ran the scripts their commands name): for a hook that runs tox,
/// what their commands run is out of the agent's reach, whichever of them tox takes; the
/// project's other scripts are not, nor these where no hook runs tox.
#[test]
fn what_tox_s_other_configurations_run_is_protected() {
    let repo = TestDir::new();
    repo.write("tox.toml", "[env.lint]\ncommands = [[\"sh\", \"tools/toml.sh\", \"{posargs}\"]]\n");
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"x\"\n[tool.tox.env.lint]\ncommands_pre = [[\"sh\", \"tools/py.sh\"]]\n",
    );
    repo.write(
        "setup.cfg",
        "[tox:tox]\nenvlist = lint\n[testenv:lint]\ncommands = sh tools/cfg.sh\n",
    );
    repo.write(".claude/settings.json", &claude_settings(&["tox -e lint || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [r("tools/toml.sh"), r("tools/py.sh"), r("tools/cfg.sh"), r("tools/other.sh")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// task runs more of a Taskfile than its tasks' `cmds` (finding F77; checked with task 3.54
/// here, from its Python package's binary): the `sh` of the root's dynamic variables and
/// environment at every run, a task's `preconditions` and `status` commands, the tasks and
/// variables of the Taskfiles it `includes` (a folder's Taskfile, or a file, one that does not
/// exist yet included), and the environment files its `dotenv` names. For a hook that runs
/// `task check`, all of that is out of the agent's reach; the project's other scripts are
/// not, nor any of it where no hook runs task.
#[test]
fn what_task_runs_while_it_reads_a_taskfile_is_protected() {
    let repo = TestDir::new();
    repo.write(
        "Taskfile.yml",
        "version: '3'\nincludes:\n  docs: ./docs\n  local:\n    taskfile: ./local.yml\n    optional: true\ndotenv: ['.env']\nvars:\n  DYN:\n    sh: sh tools/dyn.sh\ntasks:\n  check:\n    preconditions:\n      - sh: sh tools/pre.sh\n    status:\n      - sh tools/status.sh\n    cmds:\n      - sh tools/lint.sh\n",
    );
    repo.write("docs/Taskfile.yml", "version: '3'\ntasks:\n  b:\n    cmds: [sh tools/docs.sh]\n");
    repo.write(".claude/settings.json", &claude_settings(&["task check || exit 2"]));
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/dyn.sh"),
        r("tools/pre.sh"),
        r("tools/status.sh"),
        r("docs/Taskfile.yml"),
        r("tools/docs.sh"),
        r("local.yml"),
        r(".env"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 7);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// A package manager run in its workspaces runs their packages' scripts (finding F78; checked
/// with npm 11 and pnpm 9 here: `npm run lint --workspaces`, `-w packages/a`, `-w a` and
/// `pnpm -r run lint`, `pnpm --filter web run lint` ran each package's `lint` script from its
/// folder): for a hook that runs one of them, what those scripts run is out of the agent's
/// reach, the packages found by the root manifest's `workspaces` and `pnpm-workspace.yaml`;
/// what the packages' other scripts run is not, nor any of it where the hook runs in the root
/// package alone.
#[test]
fn what_the_workspaces_scripts_run_is_protected() {
    let repo = TestDir::new();
    repo.write("package.json", r#"{"private": true, "workspaces": ["packages/*"]}"#);
    repo.write("pnpm-workspace.yaml", "packages:\n  - 'apps/*'\n");
    repo.write(
        "packages/a/package.json",
        r#"{"name": "a", "scripts": {"lint": "sh tools/a.sh", "start": "node server.js"}}"#,
    );
    repo.write(
        "apps/web/package.json",
        r#"{"name": "web", "scripts": {"lint": "sh tools/web.sh"}}"#,
    );
    repo.write(
        ".claude/settings.json",
        &claude_settings(&["npm run -s lint --workspaces || exit 2", "pnpm --filter web run lint"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("packages/a/tools/a.sh"),
        r("apps/web/tools/web.sh"),
        r("packages/a/server.js"),
        r("tools/other.sh"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 2);
    // In the root package alone, the packages' scripts are not run.
    repo.write(".claude/settings.json", &claude_settings(&["npm run -s lint || exit 2"]));
    let (code, lines) = guard(repo.path(), repo.path(), repo.path(), &paths[..2]);
    assert_eq!(code, 0, "{lines:#?}");
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// scp's and sftp's options can name the program they run instead of ssh (`-S`) or of a
/// remote server (`-D`), and rsync runs `RSYNC_CONNECT_PROG` for a daemon connection
/// (finding F70; checked with OpenSSH 9.2 and rsync 3.2 here: each ran its program): those
/// programs are the hook's own, so what their scripts source is out of the agent's reach too;
/// the project's other files are not, nor any of these where no hook runs them.
#[test]
fn what_the_programs_ssh_s_options_name_load_is_protected() {
    let repo = TestDir::new();
    repo.write("tools/ssh-wrap.sh", "#!/bin/sh\n. tools/wrap-lib.sh\nexec ssh \"$@\"\n");
    repo.write("tools/conn.sh", "#!/bin/sh\n. tools/conn-lib.sh\n");
    repo.write(
        ".claude/settings.json",
        &claude_settings(&[
            "scp -qS tools/ssh-wrap.sh dist/app.tgz build:/srv || exit 2",
            "sftp -D 'sh tools/srv.sh -e' -b tools/batch build",
            "RSYNC_CONNECT_PROG='sh tools/conn.sh %H' rsync -a rsync://build/m/ out/",
        ]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths =
        [r("tools/wrap-lib.sh"), r("tools/srv.sh"), r("tools/conn-lib.sh"), r("tools/other.sh")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), repo.path(), &paths, 3);
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), repo.path(), &paths);
}

/// ssh reads the user's `~/.ssh/config` and the system's at every start, with the files their
/// `Include` lines name, and runs the command of a `Match exec "…"` line there while it reads
/// it (finding F58; checked with OpenSSH 9.2 here: `ssh -G` and `git ls-remote` of an ssh
/// remote ran it, from an included file too): out of the agent's reach for a
/// hook that runs ssh, scp, sftp, rsync or git; the home's other ssh files are not, and
/// neither is the configuration where no hook runs one of them.
#[test]
fn the_ssh_configuration_is_protected_for_a_hook_that_runs_ssh() {
    let project = TestDir::new();
    let home = TestDir::new();
    let h = |rel: &str| home.text_path(rel);
    // What its `Include` lines name is read as part of it (as OrbStack's and Colima's lines).
    home.write(".ssh/config", "Host *\n  Include cfg.d/*\nInclude \"~/.orbstack/ssh/config\"\n");
    home.write(".orbstack/ssh/config", "Include ~/.orbstack/ssh/more\n");
    let paths = [
        h(".ssh/config"),
        "/etc/ssh/ssh_config".to_owned(),
        "/etc/ssh/ssh_config.d/50-agent.conf".to_owned(),
        h(".ssh/cfg.d/agent"),
        h(".orbstack/ssh/config"),
        h(".orbstack/ssh/more"),
        h(".ssh/known_hosts"),
        h(".orbstack/ssh/id_ed25519.pub"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    for command in [
        "git fetch -q origin && git status -sb | grep -q behind && exit 2 || exit 0",
        "rsync -a dist/ deploy@build:/srv/app",
        "ssh build true || exit 2",
    ] {
        project.write(".claude/settings.json", &claude_settings(&[command]));
        guard_refusing(project.path(), home.path(), &paths, 6);
    }
    all_allowed_with_a_hook_that_runs_none_of_them(&project, project.path(), home.path(), &paths);
}

/// A user's hook that runs git in the session's directory (the usual place for a gate of
/// one's own, `~/.claude/settings.json`) reads the session's repository as a project's hook
/// does: what that repository's `.git/config` includes and has git run (F56, F60), its
/// `.git/hooks` (F57), and, for a session in a monorepo's package, the repository's files
/// above (F53); the session's other files are not protected, and without a hook that runs
/// git nothing of this is.
#[test]
fn a_user_hook_that_runs_git_in_the_session_reads_the_session_s_repository() {
    let repo = git_repository(
        "[core]\n\tbare = false\n\tfsmonitor = tools/fsmon.sh\n[include]\n\tpath = ../team.gitconfig\n",
    );
    let home = TestDir::new();
    repo.write("team.gitconfig", "[diff]\n\texternal = tools/ext.sh\n");
    home.write(
        ".claude/settings.json",
        &claude_settings(&["git status --porcelain >/dev/null 2>&1 || true"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/fsmon.sh"),
        r("team.gitconfig"),
        r("tools/ext.sh"),
        r(".git/hooks/post-index-change"),
        r("tools/other.sh"),
        r("src/main.rs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(repo.path(), home.path(), &paths, 4);
    // A session in a package of the repository: the repository's files above it.
    let app = repo.path().join("packages/app");
    std::fs::create_dir_all(&app).expect("mkdir");
    let (code, lines) = guard(&app, &app, home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, false, false, true, true], "{lines:#?}");
    all_allowed_with_a_hook_that_runs_none_of_them(&home, repo.path(), home.path(), &paths);
}

/// ssh runs the commands its configuration names (finding F61; checked with OpenSSH 9.2
/// here: a `Match exec` command ran for `ssh -G` and for `git ls-remote` of an ssh remote, a
/// host's `ProxyCommand` for the connection), and loads the libraries it names: for a hook
/// that runs ssh or git, what they name is out of the agent's reach as a hook's own line's
/// is, from the user's configuration and what it includes; the home's other files are not.
#[test]
fn what_the_commands_an_ssh_configuration_names_run_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let h = |rel: &str| home.text_path(rel);
    home.write(
        ".ssh/config",
        "Include extra.conf cfg.d/*\nMatch exec \"sh ~/bin/on-vpn.sh\"\n  User me\n\
         Host build\n  ProxyCommand %d/bin/proxy.sh %h %p\n  KnownHostsCommand /opt/khc/run %H\n",
    );
    // A file a wildcard includes is read too.
    home.write(".ssh/cfg.d/work", "Host work-*\n  ProxyCommand ~/bin/work-proxy.sh %h\n");
    home.write(".ssh/extra.conf", "Host *\n  PKCS11Provider ~/lib/pkcs11.so\n");
    home.write("bin/proxy.sh", "#!/bin/sh\n. ~/bin/proxy-lib.sh\n");
    let paths = [
        h("bin/on-vpn.sh"),
        h("bin/proxy.sh"),
        h("bin/proxy-lib.sh"),
        "/opt/khc/run".to_owned(),
        h("lib/pkcs11.so"),
        h("bin/work-proxy.sh"),
        h("bin/other.sh"),
        h("notes.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    for command in ["git fetch -q origin || exit 2", "ssh build true || exit 2"] {
        project.write(".claude/settings.json", &claude_settings(&[command]));
        guard_refusing(project.path(), home.path(), &paths, 6);
    }
    all_allowed_with_a_hook_that_runs_none_of_them(&project, project.path(), home.path(), &paths);
}

/// ssh reads `~/.ssh/config` from the home of the password database, whatever `$HOME` says
/// (OpenSSH's `pw_dir`): an agent run with another `$HOME` (a test's, a sandbox's) keeps that
/// file out of its reach too, for a hook that runs ssh or git; not for one that runs neither.
#[test]
fn ssh_s_configuration_is_protected_where_ssh_takes_the_home_from() {
    let project = TestDir::new();
    let home = TestDir::new();
    // The home of this user in the password database, as the system's own lookup gives it.
    let out = std::process::Command::new("sh")
        .args(["-c", "getent passwd \"$(id -u)\" | cut -d: -f6"])
        .output()
        .expect("sh runs");
    let password_home = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(password_home.starts_with('/'), "a home for this user: {out:?}");
    let config = format!("{password_home}/.ssh/config");
    let other = format!("{password_home}/.ssh/known_hosts");
    let mine = home.text_path(".ssh/config");
    let paths = [config.as_str(), mine.as_str(), other.as_str()];
    project.write(".claude/settings.json", &claude_settings(&["git fetch -q origin || exit 2"]));
    guard_refusing(project.path(), home.path(), &paths, 2);
    all_allowed_with_a_hook_that_runs_none_of_them(&project, project.path(), home.path(), &paths);
}

/// A hook's shell script that runs git or ssh protects what they read at every start as the
/// hook's own line would (findings F57, F58): the repository's hooks, ssh's configuration,
/// the user's and the system's; the project's other files are not.
#[test]
fn what_git_and_ssh_read_is_protected_for_a_script_that_runs_them() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(".git/HEAD", "ref: refs/heads/main\n");
    project.write(
        ".claude/hooks/fresh.sh",
        "#!/bin/sh\ngit fetch -q origin\ngit status -sb | grep -q behind && exit 2\nexit 0\n",
    );
    project.write(
        ".claude/settings.json",
        &claude_settings(&[r#"sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/fresh.sh"#]),
    );
    let p = |rel: &str| project.text_path(rel);
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        p(".git/config"),
        p(".git/hooks/post-index-change"),
        h(".ssh/config"),
        "/etc/ssh/ssh_config".to_owned(),
        "/etc/ssh/ssh_config.d/50-agent.conf".to_owned(),
        p("src/main.rs"),
        h(".ssh/known_hosts"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    guard_refusing(project.path(), home.path(), &paths, 5);
}

/// The programs gates are made of read their installation's configuration at every start
/// (finding F52): `<prefix>/etc/gitconfig` (`core.fsmonitor` ran a program during `git status`
/// with git 2 built into `/usr/local` here), npm's global `<prefix>/etc/npmrc`
/// (`script-shell=/bin/true` made `npm run gate` exit 0 with npm 9 here), wget's
/// `<prefix>/etc/wgetrc`. Out of the agent's reach for the program the hook's `PATH` finds, on
/// the hook's line or its script's; the prefix's other files are not, and neither is anything
/// of an installation found later on `PATH`.
#[test]
fn the_configuration_of_the_installation_of_a_program_a_gate_runs_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let tools = TestDir::new();
    for program in ["git", "npm", "wget"] {
        tools.script(&format!("first/bin/{program}"), "#!/bin/sh\n");
        tools.script(&format!("later/bin/{program}"), "#!/bin/sh\n");
    }
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        tools.path().join("first/bin").display(),
        tools.path().join("later/bin").display()
    );
    let t = |rel: &str| tools.text_path(rel);
    let paths = [
        t("first/etc/gitconfig"),
        t("first/etc/npmrc"),
        t("first/lib/node_modules/npm/npmrc"),
        t("first/etc/wgetrc"),
        t("first/etc/hosts.conf"),
        t("first/lib/git-notes.txt"),
        t("later/etc/gitconfig"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    home.write(
        ".claude/settings.json",
        &claude_settings(&["git diff --quiet || exit 2", "npm run gate", "wget -qO- x"]),
    );
    let found = guard_with_path(project.path(), home.path(), &path, &paths);
    assert_eq!(found, [false, false, false, false, true, true, true]);

    // A line of the shell script a hook runs.
    let by_script = TestDir::new();
    by_script.script(
        ".claude/hooks/gate.sh",
        "#!/bin/sh\ngit status --porcelain | grep -q . && exit 2\n",
    );
    by_script.write(".claude/settings.json", &claude_settings(&["bash ~/.claude/hooks/gate.sh"]));
    let found = guard_with_path(project.path(), by_script.path(), &path, &paths[..2]);
    assert_eq!(found, [false, true]);

    // A hook that runs none of them leaves them to the agent.
    let other = TestDir::new();
    other.write(".claude/settings.json", &claude_settings(&["jq -e .tool_input"]));
    let found = guard_with_path(project.path(), other.path(), &path, &paths[..4]);
    assert_eq!(found, [true, true, true, true]);
}

/// What the variables of the environment hooks inherit from the agent make their
/// interpreters load (finding F48): a `sitecustomize.py` in a folder of `PYTHONPATH` runs
/// before every Python hook's first line (checked with the real Claude Code), `BASH_ENV`'s
/// file before every bash hook's command, `NODE_OPTIONS`' `--require` before every Node
/// hook; and the variables that move the start-up files of the programs gates use
/// (`GIT_CONFIG_GLOBAL`, `$XDG_CONFIG_HOME`'s `git/config`, finding F50) with what they
/// include (F56), and the repository `GIT_DIR` names (F59). Out of the agent's
/// reach, existing or not, with or without any hook; a module folder that holds the home or
/// the project is not protected whole, and relative entries name nothing.
#[test]
fn what_the_hooks_environment_makes_them_load_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    let at = |rel: &str| t.text_path(rel);
    let node_options = format!(
        "--max-old-space-size=64 --require {} --import=file://{}",
        at("node/pre.js"),
        at("node/imp.mjs")
    );
    let python_path =
        format!("{}:src:{}:{}", at("py"), home.path().display(), project.path().display());
    let (base, perl5opt) = (at("ub"), format!("-Mstrict -I{}", at("perl")));
    let ssh_command = format!("ssh -F {} -o BatchMode=yes", at("ssh/alt_config"));
    let parameters = format!("'core.fsmonitor'='{}' 'user.name'='u'", at("parammon.sh"));
    let env = [
        ("PYTHONPATH", python_path.as_str()),
        ("BASH_ENV", &at("bash_env.sh")),
        ("NODE_OPTIONS", &node_options),
        ("PYTHONUSERBASE", &base),
        ("PERL5OPT", &perl5opt),
        ("GEM_HOME", &at("gems")),
        ("GIT_CONFIG_GLOBAL", &at("gitconfig")),
        // A bare dotfiles repository every git command uses (F59).
        ("GIT_DIR", &at("dotfiles")),
        // The environments `poetry run` and `uv run` run hooks in, and Poetry's folder of them.
        ("VIRTUAL_ENV", &at("venv")),
        ("UV_PROJECT_ENVIRONMENT", &at("uvenv")),
        ("POETRY_VIRTUALENVS_PATH", &at("poetry")),
        // The programs git and ssh run for a fetch, a diff, a password (F62).
        ("GIT_SSH_COMMAND", &ssh_command),
        ("GIT_EXTERNAL_DIFF", &at("difft.sh")),
        ("GIT_ASKPASS", "sh ~/bin/askpass.sh"),
        ("GIT_SSH", &at("plink")),
        // Configuration given in the environment (F62), as `git -c` passes it on, and counted.
        ("GIT_CONFIG_PARAMETERS", &parameters),
        ("GIT_CONFIG_COUNT", "2"),
        ("GIT_CONFIG_KEY_0", "include.path"),
        ("GIT_CONFIG_VALUE_0", &at("env.inc")),
        ("GIT_CONFIG_KEY_1", "diff.external"),
        ("GIT_CONFIG_VALUE_1", "~/bin/envdiff.sh"),
        // pre-commit's cache, wherever it is, and the lefthook the environment names (F65).
        ("PRE_COMMIT_HOME", &at("pchome")),
        ("PREK_HOME", &at("prekhome")),
        ("XDG_CACHE_HOME", &at("cache")),
        ("LEFTHOOK_CONFIG", &at("lh/lefthook.yml")),
        ("LEFTHOOK_BIN", &at("lhbin/lefthook")),
    ];
    let paths = [
        at("venv/lib/python3.12/site-packages/zz-agent.pth"),
        at("venv/pyvenv.cfg"),
        at("uvenv/lib64/python3.12/site-packages/zz-agent.pth"),
        at("poetry/gate-x1-py3.12/pyvenv.cfg"),
        at("py/sitecustomize.py"),
        at("py/json/__init__.py"),
        at("bash_env.sh"),
        at("node/pre.js"),
        at("node/imp.mjs"),
        at("ub/lib/python3.12/site-packages/zz-agent.pth"),
        at("perl/strict.pm"),
        at("gems/gems/json-2.7.1/lib/json.rb"),
        "/etc/ld.so.preload".to_owned(),
        at("gitconfig"),
        at("xdg/git/config"),
        at("xdg/uv/uv.toml"),
        // husky's `init.sh`, which the hooks git runs in a husky project source (F57).
        at("xdg/husky/init.sh"),
        // What those git configuration files include (F56), the hooks folder they name (F57).
        at("inc/global.inc"),
        home.text_path("xdg.inc"),
        at("githooks/pre-commit"),
        at("dotfiles/config"),
        at("dotfiles/hooks/post-index-change"),
        at("dotfiles.inc"),
        // The programs they have git run (F60).
        at("fsmon.sh"),
        home.text_path("bin/cred.sh"),
        // And those the environment has git and ssh run (F62).
        at("ssh/alt_config"),
        // What the `-F` file includes and has ssh run (F67).
        home.text_path(".ssh/work.conf"),
        at("sshproxy.sh"),
        home.text_path("bin/sshmatch.sh"),
        at("difft.sh"),
        home.text_path("bin/askpass.sh"),
        at("plink"),
        at("parammon.sh"),
        at("env.inc"),
        home.text_path("bin/envdiff.sh"),
        at("envinc/fsmon.sh"),
        at("pchome/repo1a2b/hooks/fmt.py"),
        at("cache/pre-commit/repo3c4d/hooks/fmt.py"),
        at("prekhome/repos/x/hook.py"),
        at("cache/prek/repos/y/hook.py"),
        at("lh/lefthook.yml"),
        home.text_path("bin/lh.sh"),
        at("lhrun.sh"),
        at("lh/base.yml"),
        at("lhbin/lefthook"),
        at("ub/share/notes.txt"),
        at("venv/share/notes.txt"),
        at("node/other.js"),
        "~/notes.txt".to_owned(),
        "src/app.py".to_owned(),
    ];
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend(paths.iter().map(String::as_str));
    let mut vars: Vec<(&str, &Path)> = vec![("HOME", home.path())];
    vars.extend(env.iter().map(|(n, v)| (*n, Path::new(*v))));
    // `$XDG_CONFIG_HOME` (the run's state folder here) moves git's and uv's configuration.
    let xdg = t.path().join("xdg");
    let hooks_path = at("githooks");
    t.write("dotfiles/config", "[include]\n\tpath = ../dotfiles.inc\n");
    t.write(
        "gitconfig",
        &format!(
            "[include]\n\tpath = inc/global.inc\n[core]\n\thooksPath = {hooks_path}\n\
             \tfsmonitor = {}\n[credential]\n\thelper = \"!sh ~/bin/cred.sh\"\n",
            at("fsmon.sh")
        ),
    );
    t.write("xdg/git/config", "[includeIf \"gitdir:/\"]\n\tpath = ~/xdg.inc\n");
    t.write(
        "ssh/alt_config",
        &format!(
            "Include work.conf\nHost *\n  ProxyCommand sh {} %h\nMatch exec \"~/bin/sshmatch.sh\"\n",
            at("sshproxy.sh")
        ),
    );
    t.write("env.inc", &format!("[core]\n\tfsmonitor = {}\n", at("envinc/fsmon.sh")));
    t.write(
        "lh/lefthook.yml",
        &format!(
            "extends: [{}]\npre-commit:\n  commands:\n    a:\n      run: sh ~/bin/lh.sh\n    \
             b:\n      run: {} {{staged_files}}\n",
            at("lh/base.yml"),
            at("lhrun.sh")
        ),
    );
    let o = crate::cli::hooks_in_state_env(project.path(), &args, "", &xdg, &vars);
    let lines = json_lines(&o.stdout);
    let mut refused = vec![false; 45];
    refused.extend([true; 5]);
    assert_eq!(allowed(&lines), refused, "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_hook_environment", "{lines:#?}");
}

/// `hooks guard --json` of `paths` in `project`, which has no hook, with `home` as the home and
/// `vars` added to the environment (the run's state under `state`): each path's line.
fn guard_in_environment(
    project: &TestDir,
    home: &TestDir,
    state: &Path,
    paths: &[String],
    vars: &[(&str, &Path)],
) -> Vec<Value> {
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend(paths.iter().map(String::as_str));
    let mut env: Vec<(&str, &Path)> = vec![("HOME", home.path())];
    env.extend(vars.iter().copied());
    let o = crate::cli::hooks_in_state_env(project.path(), &args, "", state, &env);
    json_lines(&o.stdout)
}

/// Runs [`guard_in_environment`] of `paths` with `vars` and without: with them, the paths
/// `expected` marks `false` are refused as the hook environment's and the others allowed;
/// without them, nothing of it is protected.
fn refused_only_with_the_variables(
    (project, home, state): (&TestDir, &TestDir, &Path),
    paths: &[String],
    vars: &[(&str, &Path)],
    expected: &[bool],
) {
    let lines = guard_in_environment(project, home, state, paths, vars);
    assert_eq!(allowed(&lines), expected, "{lines:#?}");
    let first = expected.iter().position(|a| !a).expect("a refused path");
    assert_eq!(lines[first]["hits"][0]["source_kind"], "user_hook_environment", "{lines:#?}");
    let without = guard_in_environment(project, home, state, paths, &[]);
    assert!(allowed(&without).iter().all(|a| *a), "{without:#?}");
}

/// ripgrep reads one configuration, the file `RIPGREP_CONFIG_PATH` names, at every run: a
/// `--glob=!*.py` there has a gate's `rg -q AKIA .` find nothing, a `--pre=` program runs on
/// every file it searches (finding F133, checked with ripgrep 15.1). Hooks inherit the
/// variable: the file and the absolute programs and ignore files it names are out of the
/// agent's reach, whatever the hooks are; a relative name (taken from wherever ripgrep runs)
/// and a bare program (found on `PATH`, protected whole) name nothing here.
#[test]
fn the_ripgrep_configuration_the_environment_names_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    let at = |rel: &str| t.text_path(rel);
    t.write(
        "rg/config",
        &format!(
            "# the user's\n--smart-case\n--pre={}\n  --ignore-file  \n{}\n--ignore-file=rel.ignore\n--pre=pdftotext-wrap\n",
            at("rg/pre.sh"),
            at("rg/ignore"),
        ),
    );
    let paths = [
        at("rg/config"),
        at("rg/pre.sh"),
        at("rg/ignore"),
        at("rg/other.txt"),
        project.text_path("rel.ignore"),
        "src/app.py".to_owned(),
    ];
    let config = t.path().join("rg/config");
    let xdg = t.path().join("xdg");
    let vars: [(&str, &Path); 1] = [("RIPGREP_CONFIG_PATH", &config)];
    let expected = [false, false, false, true, true, true];
    refused_only_with_the_variables((&project, &home, &xdg), &paths, &vars, &expected);
}

/// pylint reads the file `PYLINTRC` names where the project has no configuration of its own,
/// and its `init-hook` is Python it runs first: `import os; os._exit(0)` there ended a gate's
/// `pylint -E` with 0 (finding F134, checked with pylint 4.1.5). Hooks inherit the variable:
/// the file is out of the agent's reach, existing or not, whatever the hooks are.
#[test]
fn the_pylint_configuration_the_environment_names_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    let paths = [t.text_path("pylint/rc"), t.text_path("pylint/other"), "src/app.py".to_owned()];
    // Not written yet: the agent would create it.
    let rc = t.path().join("pylint/rc");
    let xdg = t.path().join("xdg");
    let vars: [(&str, &Path); 1] = [("PYLINTRC", &rc)];
    refused_only_with_the_variables((&project, &home, &xdg), &paths, &vars, &[false, true, true]);
}

/// tsx and ts-node read the TypeScript configuration `TSX_TSCONFIG_PATH` and `TS_NODE_PROJECT`
/// name in place of the nearest `tsconfig.json`: ts-node runs the modules of its `require`
/// entries (and of the configurations it extends) before the script, and tsx sends a gate's
/// imports where its `paths` say (finding F137, checked with tsx 4 and ts-node 10: each
/// turned a gate's exit 2 into 0). Hooks inherit the variables: the files, what their
/// `extends` chains name (existing or not) and the `require`d modules are out of the agent's
/// reach whatever the hooks are; the folder's other files are not, nor anything without
/// the variables.
#[test]
fn the_typescript_configurations_the_environment_names_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    t.write(
        "ts/tsconfig.hooks.json",
        "{\n  // the user's\n  \"extends\": \"./base\",\n  \"ts-node\": {\"require\": [\"./pre.js\"]},\n}\n",
    );
    t.write("ts/base.json", r#"{"ts-node": {"require": ["./base-pre.js", "dotenv/config"]}}"#);
    let paths = [
        t.text_path("ts/tsconfig.hooks.json"),
        t.text_path("ts/base.json"),
        t.text_path("ts/base"),
        t.text_path("ts/pre.js"),
        t.text_path("ts/base-pre.js"),
        t.text_path("tsx/tsconfig.json"),
        t.text_path("ts/other.js"),
        "tsconfig.json".to_owned(),
    ];
    let ts_node = t.path().join("ts/tsconfig.hooks.json");
    // Not written yet: the agent would create it.
    let tsx = t.path().join("tsx/tsconfig.json");
    let xdg = t.path().join("xdg");
    let vars: [(&str, &Path); 2] = [("TS_NODE_PROJECT", &ts_node), ("TSX_TSCONFIG_PATH", &tsx)];
    let expected = [false, false, false, false, false, false, true, true];
    refused_only_with_the_variables((&project, &home, &xdg), &paths, &vars, &expected);
}

/// tsx resolves a gate's bare imports through the `paths` of the configuration
/// `TSX_TSCONFIG_PATH` names, from that file's folder: `"policy": ["./alt/policy.ts"]` there
/// ran `alt/policy.ts` beside it in place of the project's policy (finding F137, checked with
/// tsx 4). For a project hook that runs a TypeScript gate, the file it maps the gate's import
/// to is the gate's own module, out of the agent's reach, existing or not; what the map does
/// not name is not, nor the mapped file where no hook runs the gate.
#[test]
fn what_the_environment_s_typescript_configuration_maps_a_gate_s_imports_to_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    project.write(
        "tools/gate.ts",
        "import { deny } from \"policy\";\nprocess.exit(deny() ? 2 : 0);\n",
    );
    project.write(".cursor/hooks.json", &cursor_hooks(&["tsx tools/gate.ts"]));
    t.write(
        "ts/tsconfig.json",
        r#"{"compilerOptions": {"paths": {"policy": ["./alt/policy.ts"]}}}"#,
    );
    let paths = [t.text_path("ts/alt/policy.ts"), t.text_path("ts/alt/other.ts")];
    let config = t.path().join("ts/tsconfig.json");
    let xdg = t.path().join("xdg");
    let vars: [(&str, &Path); 1] = [("TSX_TSCONFIG_PATH", &config)];
    let lines = guard_in_environment(&project, &home, &xdg, &paths, &vars);
    assert_eq!(allowed(&lines), [false, true], "{lines:#?}");
    project.write(".cursor/hooks.json", &cursor_hooks(&["jq -e .tool_input"]));
    let lines = guard_in_environment(&project, &home, &xdg, &paths, &vars);
    assert_eq!(allowed(&lines), [true, true], "{lines:#?}");
}

/// A hook's line can give its TypeScript runner a configuration in the nearest one's place:
/// `tsx --tsconfig cfg/hooks.json tools/gate.ts` sent the gate's `policy` import where that
/// file's `paths` say, and `ts-node -P cfg/node.json` ran the module its `"ts-node":
/// {"require": […]}` names (and those of the configuration it extends) before the gate, each
/// turning the gate's exit 2 into 0 (finding F138, checked with tsx 4 and ts-node 10). Those
/// files are out of the agent's reach, existing or not; the folder's other files are not, nor
/// these where no hook runs a gate.
#[test]
fn what_a_typescript_runner_s_configuration_option_names_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "tools/gate.ts",
        "import { deny } from \"policy\";\nprocess.exit(deny() ? 2 : 0);\n",
    );
    repo.write(
        "cfg/hooks.json",
        r#"{"compilerOptions": {"paths": {"policy": ["./alt/policy.ts"]}}}"#,
    );
    repo.write(
        "cfg/node.json",
        r#"{"extends": "./base.json", "ts-node": {"require": ["./pre.js"]}}"#,
    );
    repo.write("cfg/base.json", r#"{"ts-node": {"require": ["./base-pre.js"]}}"#);
    let lines =
        ["tsx --tsconfig cfg/hooks.json tools/gate.ts", "ts-node -P cfg/node.json tools/gate.ts"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("cfg/alt/policy.ts"),
        r("cfg/pre.js"),
        r("cfg/base.json"),
        r("cfg/base-pre.js"),
        r("cfg/node.json"),
        r("cfg/other.ts"),
        r("alt/policy.ts"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    repo.write(".cursor/hooks.json", &cursor_hooks(&lines));
    guard_refusing(repo.path(), home.path(), &paths, 5);
    repo.write(".cursor/hooks.json", &cursor_hooks(&["jq -e .tool_input"]));
    let (code, lines) = guard(repo.path(), repo.path(), home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// black unpickles its grammar tables and its cache of formatted files from its cache folder
/// at every start: a `Grammar*.pickle` there whose unpickling calls `os._exit(0)` turned
/// `black --check` of a file it would reformat into a silent exit 0 (finding F139, checked
/// with black 26.10). For a hook that runs black, that folder under the home (and macOS's)
/// is out of the agent's reach, whole; other caches are not, nor black's where no hook runs
/// it.
#[test]
fn black_s_cache_is_protected_for_a_hook_that_runs_black() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let lines = ["black --check . || exit 2"];
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        h(".cache/black/26.10.1/Grammar3.11.7.final.0.pickle"),
        h(".cache/black/26.10.1/cache.3f2a.pickle"),
        h("Library/Caches/black/26.10.1/PatternGrammar3.12.final.0.pickle"),
        h(".cache/other/x.pickle"),
        h(".cache/blackish"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 3);
}

/// The folder `BLACK_CACHE_DIR` names is black's cache in place of `~/.cache/black`, and
/// `$XDG_CACHE_HOME/black` where that variable is set (F139): hooks inherit both, so both are
/// out of the agent's reach whatever the hooks are; nothing is without the variables.
#[test]
fn black_s_cache_the_environment_names_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    let paths = [
        t.text_path("bc/26.10.1/Grammar3.11.7.final.0.pickle"),
        t.text_path("xdg/black/26.10.1/cache.3f2a.pickle"),
        t.text_path("other/x.pickle"),
    ];
    let (cache, xdg) = (t.path().join("bc"), t.path().join("xdg"));
    let state = t.path().join("state");
    let vars: [(&str, &Path); 2] = [("BLACK_CACHE_DIR", &cache), ("XDG_CACHE_HOME", &xdg)];
    let expected = [false, false, true];
    refused_only_with_the_variables((&project, &home, &state), &paths, &vars, &expected);
}

/// Python makes a relative `PYTHONPATH` entry absolute from the folder it starts in (an empty
/// entry is that folder): with `PYTHONPATH=tools` inherited, a gate `hooks/gate.py` run from
/// the project's root imported `policy` from `tools/policy.py`, and editing it turned the
/// gate's exit 2 into 0 (finding F140, checked with CPython 3.11). For a hook that runs a
/// Python gate, the modules it imports are out of the agent's reach in each such folder under
/// where the hook runs, as packages and compiled forms too, existing or not; the folders'
/// other files are not, nor these without the variable.
#[test]
fn what_a_python_gate_imports_from_the_environment_s_relative_search_path_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    project
        .write("hooks/gate.py", "import sys\nimport policy\nsys.exit(2 if policy.deny() else 0)\n");
    project.write(".cursor/hooks.json", &cursor_hooks(&["python3 hooks/gate.py"]));
    let p = |rel: &str| project.text_path(rel);
    let paths = [
        p("tools/policy.py"),
        p("tools/policy/__init__.py"),
        p("tools/__pycache__/policy.cpython-311.pyc"),
        p("lib/policy.py"),
        p("policy.py"),
        p("tools/other.py"),
        p("src/app.py"),
    ];
    let state = t.path().join("state");
    let vars: [(&str, &Path); 1] = [("PYTHONPATH", Path::new("tools::lib:/abs/elsewhere"))];
    let lines = guard_in_environment(&project, &home, &state, &paths, &vars);
    let expected = [false, false, false, false, false, true, true];
    assert_eq!(allowed(&lines), expected, "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_cursor_file", "{lines:#?}");
    let without = guard_in_environment(&project, &home, &state, &paths, &[]);
    assert!(allowed(&without).iter().all(|a| *a), "{without:#?}");
}

/// Node's `require` looks for a bare specifier in the folders of `NODE_PATH` after the
/// `node_modules` ones, a relative entry from where Node starts: with `NODE_PATH=libs`
/// inherited, a gate `hooks/gate.js` run from the project's root required `policy` from
/// `libs/policy/index.js`, and editing it turned the gate's exit 2 into 0 (finding F141,
/// checked with Node 20). For a hook that runs a JavaScript gate, that package is out of the
/// agent's reach there, as a folder and as the files `require` tries for its name; the
/// folder's other files are not, nor these without the variable.
#[test]
fn what_a_node_gate_requires_from_the_environment_s_relative_node_path_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    project.write(
        "hooks/gate.js",
        "const { deny } = require(\"policy\");\nprocess.exit(deny() ? 2 : 0);\n",
    );
    project.write(".cursor/hooks.json", &cursor_hooks(&["node hooks/gate.js"]));
    let p = |rel: &str| project.text_path(rel);
    let paths = [p("libs/policy/index.js"), p("libs/policy.js"), p("libs/other.js")];
    let state = t.path().join("state");
    let vars: [(&str, &Path); 1] = [("NODE_PATH", Path::new("libs"))];
    let lines = guard_in_environment(&project, &home, &state, &paths, &vars);
    assert_eq!(allowed(&lines), [false, false, true], "{lines:#?}");
    let without = guard_in_environment(&project, &home, &state, &paths, &[]);
    assert!(allowed(&without).iter().all(|a| *a), "{without:#?}");
}

/// A Ruby gate's own files: `require_relative "policy"` in `hooks/gate.rb` runs
/// `hooks/policy.rb` (or a compiled `policy.so` in its place), a bare `require` the file in
/// each folder the script adds to `$LOAD_PATH`, `require "./x"` the file from where Ruby runs;
/// editing any of them turned the gate's exit 2 into 0 (finding F142, checked with Ruby 3.1).
/// Each is out of the agent's reach, existing or not, and what they require in turn; the
/// folders' other files are not, nor these where no hook runs the gate.
#[test]
fn what_a_ruby_gate_requires_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "hooks/gate.rb",
        "$LOAD_PATH.unshift(File.join(__dir__, \"lib\"))\nrequire_relative \"policy\"\n\
         require \"rules\"\nrequire \"./tools/check\"\nexit(Policy.ok ? 0 : 2)\n",
    );
    repo.write(
        "hooks/policy.rb",
        "require_relative 'deep'\nmodule Policy; def self.ok = false; end\n",
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("hooks/policy.rb"),
        r("hooks/policy.so"),
        r("hooks/deep.rb"),
        r("hooks/lib/rules.rb"),
        r("tools/check.rb"),
        r("hooks/other.rb"),
        r("hooks/lib/other.rb"),
        r("tools/other.rb"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &["ruby hooks/gate.rb"], &paths, 5);
}

/// A Ruby gate that sets Bundler up (`require "bundler/setup"`) has it evaluate the `Gemfile`
/// found from where Ruby runs, which is Ruby code, and the files it `eval_gemfile`s: `exit!(0)`
/// in either turned the gate's exit 2 into 0 (finding F146, checked with Ruby 3.1 and Bundler
/// 2.3). They are out of the agent's reach as for `bundle exec`, in the folders above too,
/// existing or not; other files are not, nor these where the gate does not use Bundler.
#[test]
fn what_bundler_evaluates_for_a_ruby_gate_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("hooks/gate.rb", "require \"bundler/setup\"\nrequire \"policy\"\nexit 2\n");
    repo.write("hooks/plain.rb", "require_relative \"policy\"\nexit 2\n");
    repo.write("Gemfile", "source \"https://rubygems.org\"\neval_gemfile \"gems/extra.rb\"\n");
    let r = |rel: &str| repo.text_path(rel);
    let paths =
        [r("Gemfile"), r("gems/extra.rb"), r("gems.rb"), r(".bundle/config"), r("gems/other.rb")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &["ruby hooks/gate.rb"], &paths, 4);
    repo.write(".cursor/hooks.json", &cursor_hooks(&["ruby hooks/plain.rb"]));
    let (code, lines) = guard(repo.path(), repo.path(), home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// A Perl gate's own modules: `use FindBin; use lib "$FindBin::Bin/lib"; use Policy::Rules;`
/// in `hooks/gate.pl` runs `hooks/lib/Policy/Rules.pm`, `use lib "vendor"` adds a folder
/// from where Perl runs, `require "./tools/extra.pl"` loads a file from there; editing any
/// of them turned the gate's exit 2 into 0 (finding F143, checked with Perl 5.36). Each is
/// out of the agent's reach, existing or not; the folders' other files are not, nor these
/// where no hook runs the gate.
#[test]
fn what_a_perl_gate_loads_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "hooks/gate.pl",
        "use strict;\nuse FindBin;\nuse lib \"$FindBin::Bin/lib\";\nuse lib 'vendor';\n\
         use Policy::Rules;\nrequire \"./tools/extra.pl\";\nexit(Policy::Rules::ok() ? 0 : 2);\n",
    );
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("hooks/lib/Policy/Rules.pm"),
        r("hooks/lib/strict.pm"),
        r("vendor/Policy/Rules.pm"),
        r("tools/extra.pl"),
        r("hooks/lib/Other.pm"),
        r("vendor/Other.pm"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &["perl hooks/gate.pl"], &paths, 4);
}

/// A hook's own line that adds a folder to its interpreter's search path has the gate import
/// from there: `PYTHONPATH=lib python3 hooks/g.py` ran `lib/policy.py`, `ruby -Irlib`,
/// `PERL5LIB=plib perl` and `NODE_PATH=nlib node` theirs, and so does a variable a hook's
/// shell script exports before it runs the gate (finding F144, checked with CPython 3.11,
/// Ruby 3.1, Perl 5.36 and Node 20). What each gate imports there is out of the agent's
/// reach; the folders' other files are not, nor these where no hook runs the gates.
#[test]
fn what_a_gate_imports_from_the_search_path_its_line_sets_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("hooks/g.py", "import sys\nimport policy\nsys.exit(2)\n");
    repo.write("hooks/g.rb", "require 'rpolicy'\nexit 2\n");
    repo.write("hooks/g.pl", "use PPolicy;\nexit 2;\n");
    repo.write("hooks/g.js", "require('npolicy');\nprocess.exit(2);\n");
    repo.write("hooks/run.sh", "#!/bin/sh\nexport RUBYLIB=slib\nruby hooks/g.rb\n");
    let lines = [
        "PYTHONPATH=lib python3 hooks/g.py",
        "ruby -Irlib hooks/g.rb",
        "PERL5LIB=plib perl hooks/g.pl",
        "NODE_PATH=nlib node hooks/g.js",
        "sh hooks/run.sh",
    ];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("lib/policy.py"),
        r("rlib/rpolicy.rb"),
        r("plib/PPolicy.pm"),
        r("nlib/npolicy/index.js"),
        r("slib/rpolicy.rb"),
        r("lib/other.py"),
        r("rlib/policy.py"),
        r("nlib/other/index.js"),
        r("slib/other.rb"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// Ruby and Perl take a relative entry of the inherited `RUBYLIB` and `PERL5LIB` from where
/// they start, as Python does `PYTHONPATH`'s (F140): with `RUBYLIB=rlib` a gate
/// `hooks/gate.rb` run from the project's root required `policy` from `rlib/policy.rb`, with
/// `PERL5LIB=plib` a Perl gate used `plib/Policy.pm`; editing either turned the gate's exit 2
/// into 0 (findings F142, F143). For hooks that run such gates, those files are out of the
/// agent's reach; the folders' other files are not, nor these without the variables.
#[test]
fn what_ruby_and_perl_gates_load_from_the_environment_s_relative_library_paths_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    project.write("hooks/gate.rb", "require 'policy'\nexit(Policy.ok ? 0 : 2)\n");
    project.write("hooks/gate.pl", "use Policy;\nexit(Policy::ok() ? 0 : 2);\n");
    project
        .write(".cursor/hooks.json", &cursor_hooks(&["ruby hooks/gate.rb", "perl hooks/gate.pl"]));
    let p = |rel: &str| project.text_path(rel);
    let paths = [
        p("rlib/policy.rb"),
        p("rlib/policy.so"),
        p("plib/Policy.pm"),
        p("rlib/other.rb"),
        p("plib/Other.pm"),
    ];
    let state = t.path().join("state");
    let vars: [(&str, &Path); 2] =
        [("RUBYLIB", Path::new("rlib")), ("PERL5LIB", Path::new("plib"))];
    let lines = guard_in_environment(&project, &home, &state, &paths, &vars);
    assert_eq!(allowed(&lines), [false, false, false, true, true], "{lines:#?}");
    let without = guard_in_environment(&project, &home, &state, &paths, &[]);
    assert!(allowed(&without).iter().all(|a| *a), "{without:#?}");
}

/// A variable hooks inherit may name its file by a relative path, which the program takes
/// from where it runs: `BASH_ENV=.bashenv` had `bash hooks/gate.sh` run the project's
/// `.bashenv` first, `NODE_OPTIONS="--require ./pre.js"` had Node run `pre.js`,
/// `RIPGREP_CONFIG_PATH=.rgrc` had ripgrep read the project's `.rgrc` (whose `--pre` program
/// it runs), each turning a gate's exit 2 into 0 (finding F145). Under where each hook runs,
/// those files are out of the agent's reach, existing or not, with what such a configuration
/// names; a library's or package's name (`-rjson`, `libc.so.6`) and other files are not, nor
/// any of them without the variables.
#[test]
fn what_the_environment_names_from_where_hooks_run_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    project.write("hooks/gate.sh", "#!/bin/sh\nexit 2\n");
    project.write(".rgrc", "--pre=./tools/pre.sh\n");
    project.write("cfg/ts.json", r#"{"extends": "./base.json"}"#);
    project.write(".cursor/hooks.json", &cursor_hooks(&["sh hooks/gate.sh"]));
    let p = |rel: &str| project.text_path(rel);
    let paths = [
        p(".bashenv"),
        p("pre.js"),
        p(".env.hooks"),
        p(".rgrc"),
        p("tools/pre.sh"),
        p("cfg/ts.json"),
        p("cfg/base.json"),
        p(".pyc/usr/lib/python3.11/json/__init__.cpython-311.pyc"),
        p("lib/x.so"),
        p("json"),
        p("libc.so.6"),
        p("tools/other.sh"),
        p("cfg/other.json"),
    ];
    let state = t.path().join("state");
    let vars: [(&str, &Path); 7] = [
        ("BASH_ENV", Path::new(".bashenv")),
        ("NODE_OPTIONS", Path::new("--require ./pre.js --env-file=.env.hooks")),
        ("RIPGREP_CONFIG_PATH", Path::new(".rgrc")),
        ("TSX_TSCONFIG_PATH", Path::new("cfg/ts.json")),
        ("PYTHONPYCACHEPREFIX", Path::new(".pyc")),
        ("LD_PRELOAD", Path::new("./lib/x.so:libc.so.6")),
        ("RUBYOPT", Path::new("-rjson")),
    ];
    let lines = guard_in_environment(&project, &home, &state, &paths, &vars);
    let expected: Vec<bool> = (0..paths.len()).map(|i| i >= 9).collect();
    assert_eq!(allowed(&lines), expected, "{lines:#?}");
    let without = guard_in_environment(&project, &home, &state, &paths, &[]);
    assert!(allowed(&without).iter().all(|a| *a), "{without:#?}");
    // ripgrep's configuration elsewhere: the relative program it names is the run folder's.
    // A program named without a folder is found on `PATH`; an ignore file is a path.
    t.write("rg.conf", "--pre=./tools/pre.sh\n--pre=cat\n--ignore-file=.rgignore2\n");
    let config = t.path().join("rg.conf");
    let vars: [(&str, &Path); 1] = [("RIPGREP_CONFIG_PATH", &config)];
    let paths = [p("tools/pre.sh"), p(".rgignore2"), p("cat"), p("tools/other.sh")];
    let lines = guard_in_environment(&project, &home, &state, &paths, &vars);
    assert_eq!(allowed(&lines), [false, false, true, true], "{lines:#?}");
}

/// With `PYTHONPYCACHEPREFIX` set, Python reads every module's compiled form from that folder
/// (under the source's absolute path), the standard library's too: a `.pyc` there whose header
/// carries the source's time and size replaced a gate's `policy.py` (finding F135, checked with
/// CPython 3.11). Hooks inherit the variable: the folder is out of the agent's reach, whole.
#[test]
fn the_compiled_modules_folder_the_environment_names_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let t = TestDir::new();
    let mirrored = format!("pyc{}/tools/policy.cpython-311.pyc", project.path().display());
    let paths = [
        t.text_path(&mirrored),
        t.text_path("pyc/usr/lib/python3.11/json/__init__.cpython-311.pyc"),
        t.text_path("other/x.pyc"),
        "tools/policy.py".to_owned(),
    ];
    let prefix = t.path().join("pyc");
    let xdg = t.path().join("xdg");
    let vars: [(&str, &Path); 1] = [("PYTHONPYCACHEPREFIX", &prefix)];
    let expected = [false, false, true, true];
    refused_only_with_the_variables((&project, &home, &xdg), &paths, &vars, &expected);
}

/// A JavaScript hook's bare imports come from `node_modules/` of its folder or of a folder
/// above it, the nearest winning: the packages it imports are out of the agent's reach in
/// each (the project's copy in use, and one created nearer that would shadow it) and in
/// CommonJS's global folders of the home; other packages, and Node's own modules, are not.
#[test]
fn the_packages_a_javascript_hook_imports_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(
        ".claude/hooks/gate.mjs",
        "import quote from 'shell-quote';\nimport { rules } from '@acme/policy/rules.js';\nimport fs from 'node:fs';\n",
    );
    project.write(
        ".claude/settings.json",
        &claude_settings(&[r#"node "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.mjs"#]),
    );
    project.write("node_modules/shell-quote/index.js", "module.exports = {};\n");
    let paths = [
        "node_modules/shell-quote/index.js",
        "node_modules/shell-quote/package.json",
        ".claude/node_modules/shell-quote/index.js",
        "node_modules/@acme/policy/rules.js",
        "~/.node_modules/shell-quote/index.js",
        "~/.node_libraries/@acme/policy/rules.js",
        "node_modules/left-pad/index.js",
        "~/.node_modules/left-pad/index.js",
        "node_modules/fs/index.js",
        "src/app.js",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 6);
    assert_eq!(lines[0]["hits"][0]["why"], "inside_folder", "{lines:#?}");
}

/// The shell's start-up files set the variables every agent finds its hook folders by
/// (`HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GEMINI_CLI_HOME`, `COPILOT_HOME`): an agent
/// that writes `export CLAUDE_CONFIG_DIR=/tmp/empty` into `~/.bashrc` starts its next
/// session without its user hooks, the engine's bridge entry among them. They are protected,
/// existing or not, as Claude Code's own sandbox protects them; other dotfiles are not.
#[test]
fn the_shell_start_up_files_that_move_the_agents_folders_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(".bashrc", "alias ll='ls -l'\n");
    let paths = [
        "~/.bashrc",
        "~/.zshrc",
        "~/.zshenv",
        "~/.profile",
        "~/.bash_profile",
        "~/.config/fish/config.fish",
        "~/.config/fish/conf.d/agent.fish",
        "~/.config/environment.d/10-agent.conf",
        "~/.config/fish/functions/claude.fish",
        "~/.vimrc",
        "~/.config/nvim/init.lua",
        "notes/.bashrc",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 9);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_shell_startup", "{lines:#?}");
}

/// zsh reads its start-up files from `$ZDOTDIR` when it is set, and fish and systemd read
/// theirs under `$XDG_CONFIG_HOME`: those are protected where the variables put them, as
/// well as in their default places.
#[test]
fn the_shell_start_up_files_are_protected_where_zdotdir_and_xdg_config_home_put_them() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let zdotdir = home.path().join("dots/zsh");
    let xdg = home.path().join("xdg");
    let paths = [
        "~/dots/zsh/.zshrc",
        "~/dots/zsh/.zshenv",
        "~/xdg/fish/config.fish",
        "~/xdg/environment.d/agent.conf",
        "~/.zshrc",
        "~/.config/fish/config.fish",
        "~/dots/zsh/notes.txt",
        "~/xdg/nvim/init.lua",
    ];
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend_from_slice(&paths);
    let env = [("HOME", home.path()), ("ZDOTDIR", zdotdir.as_path())];
    let o = crate::cli::hooks_in_state_env(project.path(), &args, "", &xdg, &env);
    let lines = json_lines(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{lines:#?}");
    assert_eq!(
        allowed(&lines),
        [false, false, false, false, false, false, true, true],
        "{lines:#?}"
    );
}

/// Gemini CLI opens `GEMINI_CLI_SYSTEM_SETTINGS_PATH` relative to its working directory when
/// the value is relative: the file it reads there as the system's settings (above every other
/// layer: `hooksConfig.enabled: false` there switches every hook off), and the defaults beside
/// it, are protected in the folder the engine runs in. Before, a relative value was ignored
/// and both were writable.
#[test]
fn a_relative_system_settings_path_is_protected_where_gemini_cli_reads_it() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let paths = ["corp/system.json", "corp/system-defaults.json", "corp/notes.txt"];
    // No --config-dir: the user's and the administrator's folders come from the environment.
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--json"];
    args.extend_from_slice(&paths);
    let env = [
        ("HOME", home.path()),
        ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", std::path::Path::new("corp/system.json")),
    ];
    let o = crate::cli::hooks_in_env(project.path(), &args, "", &env);
    let lines = json_lines(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, true], "{lines:#?}");
}

/// The agents load hooks by themselves from their plugins and extensions, which the engine
/// does not read: an agent that may not edit its hook files must not switch off a plugin's
/// gate either, existing or not, whatever the spelling.
#[test]
fn the_agents_plugin_and_extension_folders_are_protected_existing_or_not() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(".claude/plugins/cache/m/gate/1.0.0/hooks/hooks.json", "{}\n");
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let paths = [
        "~/.claude/plugins/cache/m/gate/1.0.0/hooks/hooks.json",
        "~/.claude/plugins/cache/m/gate/1.0.0/hooks/../scripts/gate.sh",
        "~/.claude/plugins/installed_plugins.json",
        "~/.gemini/extensions/safety/hooks/hooks.json",
        "~/.gemini/extensions/new/gemini-extension.json",
        "~/.codex/plugins/cache/m/gate/hooks/hooks.json",
        "~/.copilot/installed-plugins/_direct/gate/hooks.json",
        "~/.codex/config.toml.bak",
        "~/.claude/projects/p/session.jsonl",
        "~/.gemini/tmp/notes.txt",
    ];
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--config-dir", cfg, "--json"];
    args.extend_from_slice(&paths);
    let o = hooks_in_env(project.path(), &args, "", &[("HOME", home.path())]);
    let lines = json_lines(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{lines:#?}");
    assert_eq!(
        allowed(&lines),
        [false, false, false, false, false, false, false, true, true, true],
        "{lines:#?}"
    );
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_claude_plugins", "{lines:#?}");
    // `hooks list` shows the folders it protects.
    let env = [("HOME", home.path())];
    let o = hooks_in_env(project.path(), &["list", "--json", "--config-dir", cfg], "", &env);
    let list: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let folders = list["protected_folders"].as_array().expect("protected_folders");
    for (kind, end) in [
        ("user_claude_plugins", "/.claude/plugins"),
        ("user_gemini_extensions", "/.gemini/extensions"),
        ("user_codex_plugins", "/.codex/plugins"),
        ("user_copilot_plugins", "/.copilot/installed-plugins"),
    ] {
        assert!(
            folders.iter().any(|f| f["source"]["kind"] == kind
                && f["tail"] == ""
                && f["folder"].as_str().is_some_and(|p| p.ends_with(end))),
            "{kind}: {folders:#?}"
        );
    }
    assert_eq!(lines[3]["hits"][0]["source_kind"], "user_gemini_extensions", "{lines:#?}");
    assert_eq!(lines[5]["hits"][0]["source_kind"], "user_codex_plugins", "{lines:#?}");
}

/// Gemini CLI loads a linked extension (`gemini extensions link <path>`: the install file
/// `~/.gemini/extensions/<name>/.gemini-extension-install.json` with `"type": "link"`) from
/// where it is developed, and an extension folder that is a symbolic link from its target:
/// neither folder lies under the protected `~/.gemini/extensions/`, and the guard resolves an
/// edited path to where it really is. Each is protected whole, existing or not; one that is
/// part of the project the agent works in (it holds the project, or lies in it: an extension
/// developed in that repository) only in what decides what Gemini CLI runs from it (`hooks/`,
/// the manifest, `policies/`), so the rest of the project stays editable. A copied extension (`"type": "local"`) is not loaded from its
/// source, which stays editable.
#[test]
fn a_linked_extension_is_protected_where_it_lives() {
    let project = TestDir::new();
    let home = TestDir::new();
    let src = TestDir::new();
    let src_path = src.path().to_str().expect("utf-8");
    let root = project.path().to_str().expect("utf-8");
    let link = |name: &str, kind: &str, source: &str| {
        let install = serde_json::json!({"source": source, "type": kind});
        home.write(
            &format!(".gemini/extensions/{name}/.gemini-extension-install.json"),
            &install.to_string(),
        );
    };
    link("outside", "link", &format!("{src_path}/my-ext"));
    link("dev", "link", root);
    link("pkg", "link", &format!("{root}/packages/ext"));
    link("copied", "local", &format!("{src_path}/copied-src"));
    src.write("my-ext/hooks/hooks.json", "{\"hooks\": {}}\n");
    src.write("sym-ext/hooks/hooks.json", "{\"hooks\": {}}\n");
    std::os::unix::fs::symlink(
        src.path().join("sym-ext"),
        home.path().join(".gemini/extensions/sym"),
    )
    .expect("symlink");
    project.write("src/main.rs", "fn main() {}\n");
    let paths = [
        format!("{src_path}/my-ext/hooks/hooks.json"),
        format!("{src_path}/my-ext/scripts/gate.sh"),
        format!("{src_path}/my-ext/../my-ext/gemini-extension.json"),
        format!("{root}/hooks/hooks.json"),
        format!("{root}/gemini-extension.json"),
        format!("{root}/policies/allow-all.toml"),
        format!("{src_path}/sym-ext/hooks/gate.sh"),
        format!("{root}/packages/ext/hooks/hooks.json"),
        format!("{root}/src/main.rs"),
        format!("{root}/packages/ext/src/index.ts"),
        format!("{root}/README.md"),
        format!("{src_path}/copied-src/hooks/hooks.json"),
        format!("{src_path}/elsewhere.txt"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    let refused = 8;
    let expected: Vec<bool> = (0..paths.len()).map(|i| i >= refused).collect();
    assert_eq!(allowed(&lines), expected, "{lines:#?}");
    for line in &lines[..refused] {
        assert_eq!(line["hits"][0]["source_kind"], "user_gemini_extensions", "{line:#?}");
    }
    // Without the links, the same folders are not Gemini CLI's: every edit there is allowed.
    std::fs::remove_dir_all(home.path().join(".gemini")).expect("unlink the extensions");
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// Claude Code runs the plugins of a marketplace added from a local folder (`claude plugin
/// marketplace add <path>`, recorded in `~/.claude/plugins/known_marketplaces.json`) where they
/// are, not from its copy under `plugins/cache/` (observed: the folder's `hooks/hooks.json`
/// rewritten after the install is what ran). Such a marketplace outside the project is
/// protected whole; one in the project only in what decides what Claude Code runs from it: the
/// marketplace's manifest, each plugin's manifest and `hooks/`, the hook files a manifest
/// names, and the scripts the plugins' hooks name through `${CLAUDE_PLUGIN_ROOT}`; the rest of
/// the project stays editable. A marketplace fetched from elsewhere is Claude Code's own
/// folder, protected whole already; without the record, the same folders are nobody's.
#[test]
fn a_local_marketplace_s_plugins_are_protected_where_they_live() {
    let project = TestDir::new();
    let home = TestDir::new();
    let src = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let src_path = src.path().to_str().expect("utf-8");
    let marketplace = |folder: &str| serde_json::json!({"source": {"source": "directory", "path": folder}, "installLocation": folder});
    let known = serde_json::json!({
        "dev": marketplace(&format!("{root}/market")),
        "team": marketplace(&format!("{src_path}/team-market")),
        "remote": {"source": {"source": "github", "repo": "o/r"}, "installLocation": format!("{src_path}/clone")},
    });
    home.write(".claude/plugins/known_marketplaces.json", &known.to_string());
    let manifest = serde_json::json!({"name": "dev", "owner": {"name": "x"}, "plugins": [
        {"name": "gate", "source": "./gate"},
        {"name": "lint", "source": "./lint", "hooks": "./more/hooks.json"}
    ]});
    project.write("market/.claude-plugin/marketplace.json", &manifest.to_string());
    project.write(
        "market/gate/.claude-plugin/plugin.json",
        &serde_json::json!({"name": "gate", "hooks": "./config/extra.json"}).to_string(),
    );
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/gate.sh"},
        {"type": "command", "command": "python3 \"$CLAUDE_PLUGIN_ROOT\"/tools/audit.py"}
    ]}]}});
    project.write("market/gate/hooks/hooks.json", &hooks.to_string());
    project.write("src/main.rs", "fn main() {}\n");
    src.write("team-market/.claude-plugin/marketplace.json", "{\"plugins\": []}\n");
    let paths = [
        format!("{root}/market/.claude-plugin/marketplace.json"),
        format!("{root}/market/gate/hooks/hooks.json"),
        format!("{root}/market/gate/hooks/new-gate.sh"),
        format!("{root}/market/gate/.claude-plugin/plugin.json"),
        format!("{root}/market/gate/config/extra.json"),
        format!("{root}/market/gate/scripts/gate.sh"),
        format!("{root}/market/gate/tools/audit.py"),
        format!("{root}/market/lint/hooks/hooks.json"),
        format!("{root}/market/lint/more/hooks.json"),
        format!("{root}/market/./gate/../lint/.claude-plugin/plugin.json"),
        format!("{src_path}/team-market/anything/at/all.txt"),
        format!("{root}/market/gate/README.md"),
        format!("{root}/market/lint/src/lib.rs"),
        format!("{root}/src/main.rs"),
        format!("{src_path}/clone/p/hooks/hooks.json"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let lines = guard_refusing(project.path(), home.path(), &paths, 11);
    for line in &lines[..11] {
        assert_eq!(line["hits"][0]["source_kind"], "user_claude_plugins", "{line:#?}");
    }

    // `hooks list` shows the plugin's hooks, disabled: Claude Code runs them, never the engine.
    let list = list_json(project.path(), home.path());
    let plugins: Vec<&Value> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"] == "user_claude_plugins")
        .collect();
    assert_eq!(plugins.len(), 1, "{list:#}");
    let listed = plugins[0]["hooks"].as_array().expect("hooks");
    assert!(listed.len() == 2 && listed.iter().all(|h| h["enabled"] == false), "{list:#}");
    assert!(list.to_string().contains("plugin_hooks"), "{list:#}");

    // Without the record, the same folders are not Claude Code's: every edit there is allowed.
    std::fs::remove_file(home.path().join(".claude/plugins/known_marketplaces.json"))
        .expect("forget the marketplaces");
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 0, "{lines:#?}");
}

/// Claude Code runs a plugin's hooks from more than its `hooks/hooks.json` (observed with the
/// real CLI, each from the marketplace's folder with `${CLAUDE_PLUGIN_ROOT}` naming the
/// plugin's): a file its manifest names anywhere in the plugin (`./gate.json`,
/// `./a/b/deep.json`), its manifest's inline `hooks`, and a marketplace entry's own `hooks`
/// (`"strict": false`, no manifest). The scripts each runs are out of the agent's reach, found
/// through the plugin's folder (not the hook file's folder's folder) or, named relatively,
/// in the session's folder, where Claude Code runs them; the rest stays editable.
#[test]
fn the_scripts_of_a_plugin_s_named_inline_and_entry_hooks_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let market = format!("{root}/market");
    let known = serde_json::json!({"dev": {"source": {"source": "directory", "path": market}, "installLocation": market}});
    home.write(".claude/plugins/known_marketplaces.json", &known.to_string());
    let gate = |command: &str| serde_json::json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]});
    let manifest = serde_json::json!({"name": "dev", "owner": {"name": "x"}, "plugins": [
        {"name": "named", "source": "./named"},
        {"name": "deep", "source": "./deep"},
        {"name": "inline", "source": "./inline"},
        {"name": "entry", "source": "./entry", "strict": false, "hooks": gate("${CLAUDE_PLUGIN_ROOT}/entry.sh")},
    ]});
    project.write("market/.claude-plugin/marketplace.json", &manifest.to_string());
    let plugin = |name: &str, hooks: Value| {
        project.write(
            &format!("market/{name}/.claude-plugin/plugin.json"),
            &serde_json::json!({"name": name, "hooks": hooks}).to_string(),
        );
    };
    plugin("named", "./gate.json".into());
    project.write(
        "market/named/gate.json",
        &serde_json::json!({"hooks": gate("${CLAUDE_PLUGIN_ROOT}/scripts/named.sh && sh tools/named-check.sh")}).to_string(),
    );
    plugin("deep", serde_json::json!(["./a/b/deep.json"]));
    project.write(
        "market/deep/a/b/deep.json",
        &serde_json::json!({"hooks": gate("\"$CLAUDE_PLUGIN_ROOT\"/bin/deep.sh")}).to_string(),
    );
    plugin("inline", gate("sh tools/inline-gate.sh"));
    project.write("src/main.rs", "fn main() {}\n");
    let paths = [
        format!("{market}/named/scripts/named.sh"),
        format!("{root}/tools/named-check.sh"),
        format!("{market}/named/gate.json"),
        format!("{market}/deep/bin/deep.sh"),
        format!("{market}/deep/a/b/deep.json"),
        format!("{root}/tools/inline-gate.sh"),
        format!("{market}/entry/entry.sh"),
        // The hook files' folders' folders are not the plugins'.
        format!("{market}/scripts/named.sh"),
        format!("{market}/deep/a/bin/deep.sh"),
        format!("{market}/named/README.md"),
        format!("{root}/tools/other.sh"),
        format!("{root}/src/main.rs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let lines = guard_refusing(project.path(), home.path(), &paths, 7);
    for line in &lines[..7] {
        assert_eq!(line["hits"][0]["source_kind"], "user_claude_plugins", "{line:#?}");
    }

    // `hooks list` shows each file's hooks, disabled: Claude Code runs them, never the engine.
    let list = list_json(project.path(), home.path());
    let mut listed: Vec<(String, usize)> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"] == "user_claude_plugins")
        .map(|s| {
            let hooks = s["hooks"].as_array().expect("hooks");
            assert!(hooks.iter().all(|h| h["enabled"] == false), "{s:#}");
            let path = s["path"].as_str().expect("path");
            (path.strip_prefix(&market).unwrap_or(path).to_owned(), hooks.len())
        })
        .collect();
    listed.sort();
    let expected = [
        "/.claude-plugin/marketplace.json",
        "/deep/a/b/deep.json",
        "/inline/.claude-plugin/plugin.json",
        "/named/gate.json",
    ];
    assert_eq!(listed, expected.map(|p| (p.to_owned(), 1)), "{list:#}");
}

/// Copilot CLI runs the plugins of a marketplace the user added from a local folder
/// (`~/.copilot/settings.json`'s `extraKnownMarketplaces`) live from that folder, each hook in
/// the plugin's folder (observed with 1.0.102). In a project, what decides what runs there is
/// out of the agent's reach (the marketplace's and plugin's manifests in their four places,
/// the plugin's `hooks.json` and `hooks/`, the file its manifest names), and so are the
/// scripts its hooks run, relative to the plugin's folder or through `$COPILOT_PLUGIN_ROOT`;
/// an installed plugin's copy's hooks' scripts elsewhere too; the rest stays editable.
#[test]
fn a_copilot_cli_local_marketplace_s_plugins_are_protected_where_they_live() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let settings = serde_json::json!({
        "extraKnownMarketplaces": {"team": {"source": {"source": "directory", "path": format!("{root}/tools")}}},
        "enabledPlugins": {"lint@team": true},
    });
    home.write(".copilot/settings.json", &settings.to_string());
    project.write(
        "tools/.github/plugin/marketplace.json",
        &serde_json::json!({"name": "team", "plugins": [{"name": "lint", "source": "./lint"}]})
            .to_string(),
    );
    project.write("tools/lint/plugin.json", r#"{"name": "lint", "hooks": "./conf/hooks.json"}"#);
    let hooks = serde_json::json!({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "./scripts/lint-gate.sh"},
        {"type": "command", "bash": "sh \"$COPILOT_PLUGIN_ROOT/bin/check.sh\""},
    ]}});
    project.write("tools/lint/hooks.json", &hooks.to_string());
    project.write("src/main.rs", "fn main() {}\n");
    // An installed plugin's copy, whose hook runs a script of the user's.
    let copy = home.path().join(".copilot/installed-plugins/_direct/audit");
    let config = serde_json::json!({"installedPlugins": [{"name": "audit", "cache_path": copy}]});
    home.write(".copilot/config.json", &format!("// managed\n{config}"));
    home.write(
        ".copilot/installed-plugins/_direct/audit/hooks/hooks.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "$HOME/bin/audit.sh"}]}}"#,
    );
    let paths = [
        "tools/.github/plugin/marketplace.json",
        "tools/marketplace.json",
        "tools/lint/plugin.json",
        "tools/lint/.claude-plugin/plugin.json",
        "tools/lint/hooks.json",
        "tools/lint/hooks/hooks.json",
        "tools/lint/conf/hooks.json",
        "tools/lint/scripts/lint-gate.sh",
        "tools/lint/bin/check.sh",
        "~/bin/audit.sh",
        "tools/lint/src/rules.py",
        "tools/README.md",
        "src/main.rs",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 10);
    for line in &lines[..10] {
        assert_eq!(line["hits"][0]["source_kind"], "user_copilot_plugins", "{line:#?}");
    }
    let list = list_json(project.path(), home.path());
    let plugins: Vec<&Value> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"] == "user_copilot_plugins")
        .collect();
    assert_eq!(plugins.len(), 2, "{list:#}");
    assert!(
        plugins.iter().all(|p| p["hooks"]
            .as_array()
            .is_some_and(|h| h.iter().all(|h| h["enabled"] == false)))
    );
    // Without the records, the project's folders are nobody's.
    std::fs::remove_file(home.path().join(".copilot/settings.json")).expect("forget");
    std::fs::remove_file(home.path().join(".copilot/config.json")).expect("forget");
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths[..9]);
    assert_eq!(code, 0, "{lines:#?}");
}

/// Copilot CLI 1.0.102 also runs the hooks of a file a plugin's manifest names anywhere in the
/// plugin (`./conf/deep/hooks.json`) and its manifest's inline `hooks`, each in the plugin's
/// folder: the scripts they run relative to it are out of the agent's reach there, not under
/// the hook file's folder.
#[test]
fn a_copilot_cli_plugin_s_named_and_inline_hooks_run_scripts_that_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let settings = serde_json::json!({
        "extraKnownMarketplaces": {"team": {"source": {"source": "directory", "path": format!("{root}/tools")}}},
    });
    home.write(".copilot/settings.json", &settings.to_string());
    project.write(
        "tools/marketplace.json",
        &serde_json::json!({"name": "team", "plugins": [
            {"name": "deep", "source": "./deep"}, {"name": "inline", "source": "./inline"}]})
        .to_string(),
    );
    let gate = |bash: &str| serde_json::json!({"preToolUse": [{"type": "command", "bash": bash}]});
    project.write(
        "tools/deep/.github/plugin/plugin.json",
        r#"{"name": "deep", "hooks": "./conf/deep/hooks.json"}"#,
    );
    project.write(
        "tools/deep/conf/deep/hooks.json",
        &serde_json::json!({"version": 1, "hooks": gate("./scripts/deep-gate.sh")}).to_string(),
    );
    project.write(
        "tools/inline/plugin.json",
        &serde_json::json!({"name": "inline", "hooks": gate("sh ./inline-gate.sh")}).to_string(),
    );
    let paths = [
        "tools/deep/scripts/deep-gate.sh",
        "tools/deep/conf/deep/hooks.json",
        "tools/inline/inline-gate.sh",
        "tools/deep/conf/deep/scripts/deep-gate.sh",
        "tools/inline/README.md",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 3);
    for line in &lines[..3] {
        assert_eq!(line["hits"][0]["source_kind"], "user_copilot_plugins", "{line:#?}");
    }
}

/// A hook of the user's that names its script relative to the directory it runs in: the
/// engine runs it in the user's folder (never a repository's copy), but the agent runs its own
/// hook in the session's directory (Codex its `~/.codex/hooks.json`, Claude Code its
/// `~/.claude/settings.json`), so the session's copy is what a bridged agent could rewrite to
/// switch the user's gate off: the user's copy and every session's are out of its reach
/// (finding F43).
#[test]
fn the_session_s_copy_of_a_user_hook_s_relative_script_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "sh tools/codex-gate.sh"}
    ]}]}});
    home.write(".codex/hooks.json", &hooks.to_string());
    let claude = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "bash ci/claude-gate.sh"}
    ]}]}});
    home.write(".claude/settings.json", &claude.to_string());
    project.write("tools/codex-gate.sh", "exit 2\n");
    project.write("ci/claude-gate.sh", "exit 2\n");
    project.write("pkg/tools/codex-gate.sh", "exit 2\n");
    project.write("tools/other.sh", "exit 0\n");
    let paths = [
        "tools/codex-gate.sh",
        "ci/claude-gate.sh",
        "~/.codex/tools/codex-gate.sh",
        "tools/other.sh",
        "pkg/tools/codex-gate.sh",
    ];
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    // A session may start in `pkg/`, whose copy it would run too.
    assert_eq!(allowed(&lines), [false, false, false, true, false], "{lines:#?}");
}

/// Codex runs an installed plugin from its copy in `$CODEX_HOME/plugins/cache/<marketplace>/
/// <plugin>/<version>/` (protected whole), in the session's folder, with `PLUGIN_ROOT` and
/// `CLAUDE_PLUGIN_ROOT` naming the copy; the scripts its hooks run elsewhere (the project's
/// `tools/gate.sh`, the user's) are out of the agent's
/// reach, for each installed plugin `config.toml` names and each version's copy; `hooks list`
/// shows the hooks, disabled.
#[test]
fn the_scripts_a_codex_plugin_s_hooks_run_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(
        ".codex/config.toml",
        "[marketplaces.m]\nsource_type = \"local\"\nsource = \"/work/market\"\n\n[plugins.\"gate@m\"]\nenabled = true\n",
    );
    let hooks = |command: &str| {
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}})
            .to_string()
    };
    home.write(
        ".codex/plugins/cache/m/gate/1.0.0/hooks/hooks.json",
        &hooks("sh tools/gate.sh && sh \"$PLUGIN_ROOT\"/local.sh"),
    );
    home.write(".codex/plugins/cache/m/gate/1.1.0/hooks/hooks.json", &hooks("$HOME/bin/audit.sh"));
    // Not installed (no `[plugins]` entry): its copy is protected whole, not read.
    home.write(".codex/plugins/cache/m/other/1.0.0/hooks/hooks.json", &hooks("sh tools/other.sh"));
    project.write("src/main.rs", "fn main() {}\n");
    project.write("tools/gate.sh", "exit 2\n");
    project.write("tools/other.sh", "exit 2\n");
    let paths = ["tools/gate.sh", "~/bin/audit.sh", "tools/other.sh", "src/main.rs"];
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, true, true], "{lines:#?}");
    for line in &lines[..2] {
        assert_eq!(line["hits"][0]["source_kind"], "user_codex_plugins", "{line:#?}");
    }
    let list = list_json(project.path(), home.path());
    let plugins: Vec<&Value> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"] == "user_codex_plugins")
        .collect();
    assert_eq!(plugins.len(), 2, "{list:#}");
    assert!(list.to_string().contains("plugin_hooks"), "{list:#}");
}

/// Codex 0.169.0 also runs a plugin's hooks from a file its manifest
/// (`.codex-plugin/plugin.json`) names anywhere in the copy (`./gate.json`, `./a/b/deep.json`)
/// and from the manifest's own `hooks` when that is a `hooks.json` document
/// (`{"hooks": {…}}`; an object of events there did not run): the scripts those run outside
/// the copy are out of the agent's reach too, for every version's copy.
#[test]
fn the_scripts_of_a_codex_plugin_s_named_and_inline_hooks_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    home.write(".codex/config.toml", "[plugins.\"gate@m\"]\nenabled = true\n");
    let gate = |command: &str| serde_json::json!({"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]});
    let copy = ".codex/plugins/cache/m/gate";
    let manifest = |version: &str, hooks: serde_json::Value| {
        let text = serde_json::json!({"name": "gate", "version": version, "hooks": hooks});
        home.write(&format!("{copy}/{version}/.codex-plugin/plugin.json"), &text.to_string());
    };
    manifest("1.0.0", serde_json::json!(["./gate.json", "./a/b/deep.json"]));
    let hooks_file = |command: &str| serde_json::json!({"hooks": gate(command)}).to_string();
    home.write(&format!("{copy}/1.0.0/gate.json"), &hooks_file("sh tools/named.sh"));
    home.write(&format!("{copy}/1.0.0/a/b/deep.json"), &hooks_file("sh tools/deep.sh"));
    manifest("2.0.0", serde_json::json!({"hooks": gate("$HOME/bin/inline.sh")}));
    manifest("3.0.0", gate("sh tools/events-only.sh"));
    project.write("src/main.rs", "fn main() {}\n");
    let paths = [
        "tools/named.sh",
        "tools/deep.sh",
        "~/bin/inline.sh",
        "tools/events-only.sh",
        "src/main.rs",
    ];
    let (code, lines) = guard(project.path(), project.path(), home.path(), &paths);
    assert_eq!(code, 2, "{lines:#?}");
    assert_eq!(allowed(&lines), [false, false, false, true, true], "{lines:#?}");
    for line in &lines[..3] {
        assert_eq!(line["hits"][0]["source_kind"], "user_codex_plugins", "{line:#?}");
    }
}

/// Gemini CLI runs its extensions' hooks itself (`<extension>/hooks/hooks.json`, an installed
/// extension's under `~/.gemini/extensions/`, a linked one's where it lives), with
/// `${extensionPath}` and `${workspacePath}` replaced: the scripts they name outside the
/// extension's folder (the user's `~/bin/`, the project's `scripts/`), or inside a linked
/// project only partly protected (its `dist/`), are out of the agent's reach, existing or not;
/// `hooks list` shows the hooks, disabled (the engine never runs them).
#[test]
fn the_scripts_an_extension_s_hooks_run_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let hooks = |commands: &[&str]| {
        let hooks: Vec<Value> =
            commands.iter().map(|c| serde_json::json!({"type": "command", "command": c})).collect();
        serde_json::json!({"hooks": {"BeforeTool": [{"matcher": "*", "hooks": hooks}]}}).to_string()
    };
    home.write(
        ".gemini/extensions/safety/hooks/hooks.json",
        &hooks(&["bash $HOME/bin/ext-gate.sh", "${workspacePath}${/}scripts/ext-check.sh"]),
    );
    home.write(
        ".gemini/extensions/dev/.gemini-extension-install.json",
        &serde_json::json!({"source": root, "type": "link"}).to_string(),
    );
    project.write("hooks/hooks.json", &hooks(&["node ${extensionPath}/dist/gate.js"]));
    project.write("src/main.rs", "fn main() {}\n");
    let paths = ["~/bin/ext-gate.sh", "scripts/ext-check.sh", "dist/gate.js", "src/main.rs"];
    let lines = guard_refusing(project.path(), home.path(), &paths, 3);
    for line in &lines[..3] {
        assert_eq!(line["hits"][0]["source_kind"], "user_gemini_extensions", "{line:#?}");
    }

    let list = list_json(project.path(), home.path());
    let extensions: Vec<&Value> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"] == "user_gemini_extensions")
        .collect();
    assert_eq!(extensions.len(), 2, "{list:#}");
    for source in extensions {
        let hooks = source["hooks"].as_array().expect("hooks");
        assert!(!hooks.is_empty() && hooks.iter().all(|h| h["enabled"] == false), "{source:#}");
    }
    assert!(list.to_string().contains("extension_hooks"), "{list:#}");
}

/// An extension's hook whose command keeps a `${NAME}` after the extension variables is
/// completed by Gemini CLI from the extension's settings, which in a trusted workspace take
/// every key of the workspace's own `.env`: that file decides what the hook runs (`MODE=off;
/// exit 0 #`), so it is out of the agent's reach wherever a session starts. An extension whose
/// hooks have no such name protects it too since finding F125: Gemini CLI loads that `.env`
/// into every hook's environment.
#[test]
fn the_workspace_env_an_extension_s_hook_takes_its_settings_from_is_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let plain = serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "sh ${extensionPath}/gate.sh"}
    ]}]}});
    home.write(".gemini/extensions/plain/hooks/hooks.json", &plain.to_string());
    project.write(".env", "MODE=strict\n");
    project.write("pkg/.env", "MODE=strict\n");
    let (_, lines) = guard(project.path(), project.path(), home.path(), &[".env"]);
    assert_eq!(allowed(&lines), [false], "{lines:#?}");
    let settings = serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "sh ${extensionPath}/gate.sh --mode ${GATE_MODE}"}
    ]}]}});
    home.write(".gemini/extensions/gate/hooks/hooks.json", &settings.to_string());
    let lines = guard_refusing(project.path(), home.path(), &[".env", "src/.env.example"], 1);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "user_gemini_extensions", "{lines:#?}");
    // A session started in `pkg/` reads `pkg/.env`.
    let pkg = project.path().join("pkg");
    let root = project.path().to_str().expect("utf-8");
    let pkg_s = pkg.to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let o = hooks_in_env(
        &pkg,
        &["guard", "--root", root, "--cwd", pkg_s, "--config-dir", cfg, "--json", ".env"],
        "",
        &[("HOME", home.path())],
    );
    let at_pkg = json_lines(&o.stdout);
    assert_eq!(allowed(&at_pkg), [false], "{at_pkg:#?}");
}

/// Claude Code registers the hooks in its subagents' and skills' front matter (`hooks:` in
/// `.claude/agents/*.md`, `.claude/skills/*/SKILL.md`, `.claude/commands/*.md`, and the same
/// under the user's folder); a skill's hooks run the scripts beside it. An agent that may not
/// edit its hook files must not strip those hooks, rewrite their scripts, or shadow a user's
/// subagent with a project one of the same name (project subagents win): the three folders
/// are protected whole, existing or not, as Claude Code's own sandbox protects `agents/` and
/// `commands/` from writes.
#[test]
fn the_subagents_skills_and_commands_claude_code_reads_hooks_from_are_protected() {
    let project = TestDir::new();
    project.write(
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: ./gate.sh\n---\nReview.\n",
    );
    project.write(".claude/skills/deploy/SKILL.md", "---\nname: deploy\n---\n");
    let home = TestDir::new();
    home.write(".claude/agents/auditor.md", "---\nname: auditor\n---\n");
    let paths = [
        ".claude/agents/reviewer.md",
        "./.claude/agents/auditor.md",
        ".claude/skills/deploy/SKILL.md",
        ".claude/skills/deploy/scripts/check.sh",
        ".claude/skills/new/SKILL.md",
        ".claude/commands/ship.md",
        "~/.claude/agents/auditor.md",
        "~/.claude/skills/lint/SKILL.md",
        "~/.claude/commands/z.md",
        ".claude/rules/style.md",
        "docs/agents/reviewer.md",
        "~/.claude/projects/p/session.jsonl",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 9);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_agents", "{lines:#?}");
    assert_eq!(lines[2]["hits"][0]["source_kind"], "project_claude_skills", "{lines:#?}");
    assert_eq!(lines[5]["hits"][0]["source_kind"], "project_claude_commands", "{lines:#?}");
    assert_eq!(lines[6]["hits"][0]["source_kind"], "user_claude_agents", "{lines:#?}");
}

/// The scripts that the hooks in a subagent's, a skill's or a command's front matter run are
/// protected wherever they are, as the scripts of settings hooks are: Claude Code runs those
/// hooks while the subagent or skill is active, and an agent that rewrote the script would
/// escape them. The engine lists those hooks and does not run them.
/// A project's skill, subagent or command folder entry may be a symbolic link to a folder
/// elsewhere (`.claude/skills/deploy -> ../../shared/skills/deploy`, the usual way to share
/// skills between agents): Claude Code reads the skill through it, and the guard resolves an
/// edited path to where it really is. The linked folder is protected whole, existing files or
/// not, and the scripts its front matter's hooks run too; a link to the project itself or above
/// it protects nothing more (it would refuse every edit of the project).
#[cfg(unix)]
#[test]
fn a_skill_linked_from_elsewhere_in_the_project_is_protected_where_it_lives() {
    let project = TestDir::new();
    let home = TestDir::new();
    project.write(
        "shared/skills/deploy/SKILL.md",
        "---\nname: deploy\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: bash shared/tools/deploy-gate.sh\n---\nDeploy.\n",
    );
    project.write("src/main.rs", "fn main() {}\n");
    std::fs::create_dir_all(project.path().join(".claude/skills")).expect("skills");
    std::fs::create_dir_all(project.path().join(".claude/agents")).expect("agents");
    let link = |target: &str, at: &str| {
        std::os::unix::fs::symlink(target, project.path().join(at)).expect("symlink");
    };
    link("../../shared/skills/deploy", ".claude/skills/deploy");
    link("../..", ".claude/agents/everything");
    let paths = [
        "shared/skills/deploy/SKILL.md",
        "shared/skills/deploy/notes.md",
        "shared/tools/deploy-gate.sh",
        "src/main.rs",
        "shared/README.md",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 3);
    for line in &lines[..3] {
        assert_eq!(line["hits"][0]["source_kind"], "project_claude_skills", "{line:#?}");
    }
}

#[test]
fn the_scripts_that_front_matter_hooks_run_are_protected() {
    let project = TestDir::new();
    let home = TestDir::new();
    let hook = |event: &str, command: &str| {
        format!(
            "---\nname: x\nhooks:\n  {event}:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: {command}\n---\nBody.\n"
        )
    };
    project.write(
        ".claude/agents/gate.md",
        &hook("PreToolUse", "\"$CLAUDE_PROJECT_DIR/scripts/gate.sh\""),
    );
    project.write(".claude/skills/deploy/SKILL.md", &hook("PostToolUse", "python3 tools/check.py"));
    project.write(".claude/commands/ops/ship.md", &hook("PreToolUse", "bash ci/ship-guard.sh"));
    home.write(".claude/agents/auditor.md", &hook("PreToolUse", "~/bin/audit.sh"));
    let paths = [
        "scripts/gate.sh",
        "tools/check.py",
        "ci/ship-guard.sh",
        "~/bin/audit.sh",
        "scripts/other.sh",
        "~/bin/other.sh",
    ];
    let lines = guard_refusing(project.path(), home.path(), &paths, 4);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_agents", "{lines:#?}");
    assert_eq!(lines[1]["hits"][0]["source_kind"], "project_claude_skills", "{lines:#?}");
    assert_eq!(lines[2]["hits"][0]["source_kind"], "project_claude_commands", "{lines:#?}");
    assert_eq!(lines[3]["hits"][0]["source_kind"], "user_claude_agents", "{lines:#?}");

    // Listed, disabled: the engine runs none of them.
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let list = list_json(project.path(), home.path());
    let text = list.to_string();
    assert!(text.contains("front_matter_hooks"), "{list:#}");
    let agent = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .find(|s| s["path"].as_str().is_some_and(|p| p.ends_with(".claude/agents/gate.md")))
        .expect("the subagent is listed");
    let hooks = agent["hooks"].as_array().expect("hooks");
    assert_eq!(hooks.len(), 1, "{agent:#}");
    assert_eq!(hooks[0]["enabled"], false, "{agent:#}");

    // A command without front matter hooks is no source (its folder is protected whole), and
    // the listing for a person shows a hook file without hooks in one line at the end.
    project.write(".claude/commands/a.md", "---\ndescription: a\n---\nDo a.\n");
    project.write(".claude/commands/b.md", "Do b.\n");
    project.write(".cursor/hooks.json", r#"{"version": 1, "hooks": {}}"#);
    home.write(".claude/commands/z.md", "---\ndescription: z\n---\nDo z.\n");
    let o = hooks_in_env(
        project.path(),
        &["list", "--root", root, "--config-dir", cfg],
        "",
        &[("HOME", home.path())],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    let (blocks, quiet) = text.split_once("\nfiles without hooks:\n").expect("the section");
    assert!(blocks.contains(".claude/agents/gate.md [project_claude_agents]"), "{text}");
    let lines: Vec<&str> = quiet.lines().take_while(|l| l.starts_with("  ")).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].ends_with(".cursor/hooks.json [project_cursor_file] loaded"), "{text}");
    assert!(!text.contains("commands/a.md") && !text.contains("commands/b.md"), "{text}");
    assert!(!text.contains("commands/z.md"), "the user's too: {text}");
    let lines = guard_refusing(project.path(), home.path(), &[".claude/commands/a.md"], 1);
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_commands", "{lines:#?}");
}

#[test]
fn relative_scripts_of_hooks_that_run_in_the_session_directory_resolve_there() {
    let project = TestDir::new();
    project.write(".claude/settings.json", &claude_settings(&["./x.sh", "python3 tools/y.py"]));
    std::fs::create_dir_all(project.path().join("sub/deeper")).expect("mkdir");
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    // The session is in `sub`: Claude Code would run `sub/x.sh` and `sub/tools/y.py`.
    let sub = project.path().join("sub");
    let o = hooks_in_env(
        project.path(),
        &[
            "guard",
            "--root",
            root,
            "--cwd",
            sub.to_str().expect("utf-8"),
            "--config-dir",
            cfg,
            "--json",
            "x.sh",
            "tools/y.py",
            "../x.sh",
            "deeper/x.sh",
            "notes.txt",
        ],
        "",
        &[("HOME", home.path())],
    );
    let lines = json_lines(&o.stdout);
    assert_eq!(allowed(&lines), [false, false, false, false, true], "{lines:#?}");
    // The session's copy is matched by the pattern the guard resolves at each check (and,
    // the session's directory given, as an exact path too).
    let whys: Vec<&Value> =
        lines[0]["hits"].as_array().expect("hits").iter().map(|h| &h["why"]).collect();
    assert!(whys.contains(&&Value::from("session_copy")), "{lines:#?}");
}

#[test]
fn a_command_that_cannot_be_analysed_is_marked_in_hooks_list_and_protected_more() {
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        &claude_settings(&[r#"bash "$(dirname "$0")/gate.sh""#, "bash hooks/*.sh"]),
    );
    let home = TestDir::new();
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let o = hooks_in_env(
        project.path(),
        &["list", "--root", root, "--config-dir", cfg, "--json"],
        "",
        &[("HOME", home.path())],
    );
    let inv: Value = serde_json::from_slice(&o.stdout).expect("json inventory");
    let text = inv.to_string();
    assert!(text.contains("command_not_analysed"), "{inv:#}");
    assert!(text.contains("a command substitution"), "{inv:#}");
    let plain = hooks_in_env(
        project.path(),
        &["list", "--root", root, "--config-dir", cfg],
        "",
        &[("HOME", home.path())],
    );
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.contains("the guard cannot tell every file hook"), "{plain}");
    let (code, lines) = guard(
        project.path(),
        project.path(),
        home.path(),
        &["anywhere/gate.sh", "hooks/new.sh", "hooks", "other.sh"],
    );
    assert_eq!(code, 2, "{lines:?}");
    assert_eq!(allowed(&lines), [false, false, false, true], "{lines:#?}");
}

#[test]
fn a_user_hooks_relative_script_never_runs_the_repositorys_copy() {
    let project = TestDir::new();
    let home = TestDir::new();
    let marks = TestDir::new();
    let mark = |who: &str| format!("#!/bin/sh\necho {who} >> '{}/ran'\n", marks.path().display());
    home.write(".claude/settings.json", &claude_settings(&["sh hooks/check.sh"]));
    home.script(".claude/hooks/check.sh", &mark("user"));
    project.script("hooks/check.sh", &mark("repository"));
    let root = project.path().to_str().expect("utf-8");
    let cfg = home.path().to_str().expect("utf-8");
    let payload = r#"{"tool": {"name": "Bash", "kind": "shell", "args": {"command": "ls"}}}"#;
    let o = hooks_in_env(
        project.path(),
        &[
            "fire",
            "pre_tool_use",
            "--root",
            root,
            "--cwd",
            root,
            "--config-dir",
            cfg,
            "--posture",
            "auto-approves",
            "--payload",
            "-",
        ],
        payload,
        &[("HOME", home.path())],
    );
    let ran = std::fs::read_to_string(marks.path().join("ran")).unwrap_or_default();
    assert_eq!(
        ran,
        "user\n",
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn hook_files_that_do_not_exist_yet_but_would_be_loaded_are_protected() {
    // A project with Claude settings only: creating `.claude/settings.local.json` with
    // `{"disableAllHooks": true}`, or a first Cursor or Chrys file, changes which hooks run.
    let project = TestDir::new();
    project.write(".claude/settings.json", &claude_settings(&["true"]));
    let bare = TestDir::new();
    let home = TestDir::new();
    let h = home.path().display().to_string();
    let user = |rel: &str| format!("{h}/{rel}");
    let paths = [
        ".claude/settings.local.json".to_owned(),
        ".cursor/hooks.json".to_owned(),
        ".chrys/hooks/hooks.yaml".to_owned(),
        ".chrys/hooks/hooks.yml".to_owned(),
        ".chrys/hooks/hooks.json".to_owned(),
        user(".cursor/hooks.json"),
        user(".claude/settings.json"),
        user(".chrys/hooks/hooks.yaml"),
        user(".chrys/settings.yaml"),
        format!("{}/.cursor/hooks.json", bare.path().display()),
        ".claude/notes.md".to_owned(),
    ];
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let root = project.path().to_str().expect("utf-8");
    let bare_root = bare.path().to_str().expect("utf-8");
    let mut args = vec![
        "guard",
        "--root",
        root,
        "--root",
        bare_root,
        "--cwd",
        root,
        "--config-dir",
        &h,
        "--json",
    ];
    args.extend(refs.iter().copied());
    let o = hooks_in_env(project.path(), &args, "", &[("HOME", home.path())]);
    let lines = json_lines(&o.stdout);
    all_refused_but_the_last(&lines, paths.len());
    assert_eq!(lines[0]["hits"][0]["source_kind"], "project_claude_local_settings", "{lines:#?}");
    assert_eq!(lines[1]["hits"][0]["source_kind"], "project_cursor_file", "{lines:#?}");
    assert_eq!(lines[8]["hits"][0]["source_kind"], "user_chrys_settings", "{lines:#?}");
}

/// Checks a user folder moved by a format's variable (in `env`): the one file `hooks list`
/// loads ends with `loaded`, and of `paths` (under the moved folder) through `hooks guard`
/// the first two are refused, the first as a file of `kind`, and the third is allowed.
fn moved_user_folder(
    project: &Path,
    env: &[(&str, &Path)],
    loaded: &str,
    paths: [&str; 3],
    kind: &str,
) {
    let o = hooks_in_env(project, &["list", "--json"], "", env);
    let list: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let sources: Vec<&str> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["load_state"] == "loaded")
        .filter_map(|s| s["path"].as_str())
        .collect();
    assert_eq!(sources.len(), 1, "{list:#}");
    assert!(sources[0].ends_with(loaded), "{list:#}");
    let root = project.to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--json"];
    args.extend(paths);
    let o = hooks_in_env(project, &args, "", env);
    let lines = json_lines(&o.stdout);
    assert_eq!(allowed(&lines), [false, false, true], "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], kind, "{lines:#?}");
}

/// `CLAUDE_CONFIG_DIR` moves Claude Code's user folder, as the real CLI does: the settings
/// there are loaded and protected with the plugins beside them, and `~/.claude/settings.json`
/// is not read.
#[test]
fn claude_s_config_dir_variable_moves_its_user_settings() {
    let project = TestDir::new();
    let home = TestDir::new();
    let moved = home.path().join("cfg");
    home.write("cfg/settings.json", &claude_settings(&["./moved.sh"]));
    home.write(".claude/settings.json", &claude_settings(&["./unread.sh"]));
    moved_user_folder(
        project.path(),
        &[("HOME", home.path()), ("CLAUDE_CONFIG_DIR", moved.as_path())],
        "/cfg/settings.json",
        ["~/cfg/settings.json", "~/cfg/plugins/cache/m/p/hooks/hooks.json", "~/cfg/notes.md"],
        "user_claude_settings",
    );
}

/// `GEMINI_CLI_HOME` replaces the home folder Gemini CLI keeps `.gemini` in, as the real CLI
/// reads it: the user settings and the extensions there are loaded and protected.
#[test]
fn gemini_s_home_variable_moves_its_user_settings() {
    let project = TestDir::new();
    let home = TestDir::new();
    let moved = home.path().join("gh");
    let hook = |cmd: &str| {
        serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": cmd}]}]}})
            .to_string()
    };
    home.write("gh/.gemini/settings.json", &hook("./moved.sh"));
    home.write(".gemini/settings.json", &hook("./unread.sh"));
    moved_user_folder(
        project.path(),
        &[("HOME", home.path()), ("GEMINI_CLI_HOME", moved.as_path())],
        "/gh/.gemini/settings.json",
        [
            "~/gh/.gemini/settings.json",
            "~/gh/.gemini/extensions/x/hooks/hooks.json",
            "~/gh/notes.md",
        ],
        "user_gemini_settings",
    );
}

/// Gemini CLI reads its system settings from the file `GEMINI_CLI_SYSTEM_SETTINGS_PATH`
/// names and its system defaults from `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, and only when no one
/// but root can write them and the folders above them (`isFileAndDirectorySecureSync`): the
/// engine lists and protects them there, and loads none of their hooks when someone else could
/// have written them (here, files under the world-writable temporary folder, or group-writable),
/// saying why.
#[test]
fn gemini_s_system_files_are_where_its_variables_name_them_and_read_only_if_root_alone_can_write_them()
 {
    let project = TestDir::new();
    let home = TestDir::new();
    let sys = TestDir::new();
    let hook = |cmd: &str| {
        serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": cmd}]}]}})
            .to_string()
    };
    sys.write("corp/gemini.json", &hook("./system.sh"));
    sys.write("corp/defaults.json", &hook("./defaults.sh"));
    for f in ["corp/gemini.json", "corp/defaults.json"] {
        std::fs::set_permissions(
            sys.path().join(f),
            std::os::unix::fs::PermissionsExt::from_mode(0o664),
        )
        .expect("chmod");
    }
    let settings = sys.path().join("corp/gemini.json");
    let defaults = sys.path().join("corp/defaults.json");
    let env = [
        ("HOME", home.path()),
        ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings.as_path()),
        ("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", defaults.as_path()),
    ];
    let o = hooks_in_env(project.path(), &["list", "--json"], "", &env);
    let list: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let managed: Vec<&Value> = list["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter(|s| s["kind"].as_str().is_some_and(|k| k.starts_with("managed_gemini")))
        .collect();
    let paths: Vec<&str> = managed.iter().filter_map(|s| s["path"].as_str()).collect();
    let shown = |p: &Path| p.canonicalize().expect("canonical").to_string_lossy().into_owned();
    assert_eq!(paths, [shown(&defaults), shown(&settings)], "{list:#}");
    for s in &managed {
        assert_eq!(s["hooks"].as_array().map(Vec::len), Some(0), "{s:#}");
        let text = s.to_string();
        assert!(text.contains("not_administrator_only"), "{s:#}");
        assert!(
            text.contains("Gemini CLI reads this file only when no one but root can write it"),
            "{s:#}"
        );
    }
    let root = project.path().to_str().expect("utf-8");
    let mut args = vec!["guard", "--root", root, "--cwd", root, "--json"];
    let (s, d, n) = (
        settings.to_str().expect("utf-8"),
        defaults.to_str().expect("utf-8"),
        sys.path().join("corp/notes.md"),
    );
    args.extend([s, d, n.to_str().expect("utf-8")]);
    let o = hooks_in_env(project.path(), &args, "", &env);
    let lines = json_lines(&o.stdout);
    assert_eq!(allowed(&lines), [false, false, true], "{lines:#?}");
    assert_eq!(lines[0]["hits"][0]["source_kind"], "managed_gemini_settings", "{lines:#?}");
    assert_eq!(lines[1]["hits"][0]["source_kind"], "managed_gemini_system_defaults", "{lines:#?}");
}

/// A project folder whose name is not UTF-8 is listed and guarded: the JSON names it with
/// U+FFFD where the bytes are invalid, and nothing panics (serde refuses such a path; the
/// listing did so by panicking).
#[test]
fn a_project_folder_whose_name_is_not_utf8_is_listed_and_guarded() {
    use std::os::unix::ffi::OsStrExt;
    let base = TestDir::new();
    let root = base.path().join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    std::fs::create_dir_all(root.join(".cursor")).expect("mkdir");
    std::fs::write(root.join(".cursor/hooks.json"), cursor_hooks(&["./gate.sh"])).expect("write");
    let home = TestDir::new();
    // The folder is named relative to the working directory: the test binary that stands in
    // for `hooks` reads its arguments as UTF-8.
    let o = crate::cli::hooks_command(&["list", "--json", "--root", "."])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .env("XDG_STATE_HOME", home.path())
        .current_dir(&root)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("hooks list");
    let o = crate::cli::output(o);
    assert!(o.status.success(), "{o:?}");
    let list: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let roots = list["project_roots"].as_array().expect("roots");
    assert!(roots.iter().any(|r| r.as_str().is_some_and(|r| r.ends_with("bad\u{fffd}"))), "{list}");
    let o = crate::cli::hooks_command(&[
        "guard",
        "--json",
        "--root",
        ".",
        "--cwd",
        ".",
        ".cursor/hooks.json",
    ])
    .env("HOME", home.path())
    .env("XDG_CONFIG_HOME", home.path())
    .env("XDG_STATE_HOME", home.path())
    .current_dir(&root)
    .output()
    .expect("hooks guard");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(allowed(&lines), [false], "{text}");
}

/// Python finds what `python -c` imports and what `python -m` runs from the folder it runs in
/// first: `python3 -c "import json, sys; …"` ran a `json.py` there, and `python3 -m
/// tools.gate` ran `tools/__init__.py` and the `policy.py` its module imports from there
/// (finding F117; checked with CPython 3.11 here). Python's import system loads a module's
/// compiled and extension forms before or in place of its source: an unchecked-hash
/// `__pycache__/helper.cpython-311.pyc` replaced an unchanged, protected `helper.py`, a
/// `helper.so` beside it was imported instead, and a sourceless `policy.pyc` (or `json.pyc`
/// where `python3 -c` runs) stood for a module with no source there (finding F118). Those files are out of the agent's reach,
/// existing or not; the project's code and a note beside the scripts are not, nor any of
/// these where no hook runs Python.
#[test]
fn what_python_imports_from_where_it_runs_and_in_its_other_forms_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "scripts/gate.py",
        "import sys\nimport helper\nimport policy\nhelper.check(sys.stdin)\n",
    );
    repo.write("scripts/helper.py", "def check(stdin):\n    pass\n");
    repo.write("tools/__init__.py", "");
    repo.write("tools/gate.py", "import policy\nfrom . import rules\n");
    repo.write("src/app.py", "print('app')\n");
    let lines = [
        "python3 scripts/gate.py",
        "python3 -m tools.gate",
        r#"python3 -c "import json, sys; json.load(sys.stdin)""#,
    ];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("scripts/helper.so"),
        r("scripts/helper.cpython-311-x86_64-linux-gnu.so"),
        r("scripts/__pycache__/helper.cpython-311.pyc"),
        r("scripts/policy.pyc"),
        r("tools/__init__.py"),
        r("tools/__pycache__/gate.cpython-311.pyc"),
        r("tools/gate.abi3.so"),
        r("tools/rules.py"),
        r("policy.py"),
        r("json.py"),
        r("json/__init__.py"),
        r("json.pyc"),
        r("src/app.py"),
        r("scripts/README.md"),
        r("src/helper.so"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 12);
    // The user's own hooks, which the agent runs in the session's folder: the session's
    // copies, read there (F43).
    home.write(".claude/settings.json", &claude_settings(&lines));
    guard_refusing(repo.path(), home.path(), &paths, 12);
}

/// Node decides whether a `.js` file is an ES module or CommonJS by the `type` of the nearest
/// `package.json` above it: `{"type": "module"}` in the project's `package.json` (or a new
/// one nearer the script) made a CommonJS gate that calls `require` fail with exit code 1,
/// which Claude Code takes for a non-blocking error, so the tool call it denied went on
/// (finding F119; checked with Node 20 here). Those manifests, from the script's folder up to
/// the first that exists, are out of the agent's reach, existing or not; a `.mjs` script's
/// are not (its extension decides), nor the project's other manifests, nor any where no hook
/// runs Node.
#[test]
fn what_decides_a_node_script_s_module_type_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write("package.json", "{\"name\": \"app\"}\n");
    let gate = "const fs = require(\"fs\");\nif (fs.readFileSync(0, \"utf8\").includes(\"rm\")) process.exit(2);\n";
    repo.write("scripts/gate.js", gate);
    repo.write(".claude/hooks/check.js", gate);
    repo.write("tools/esm.mjs", "export default 1;\n");
    let lines = ["node scripts/gate.js", "node .claude/hooks/check.js", "node tools/esm.mjs"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("package.json"),
        r("scripts/package.json"),
        r(".claude/package.json"),
        r("tools/package.json"),
        r("src/package.json"),
        r("src/index.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 3);
}

/// A version manager's shim runs the version the nearest version file names, looked for from
/// where the hook runs up to the root: with pyenv here, a `.python-version` naming 3.8 in the
/// folder above the one a gate ran in had it run under Python 3.8, where its `match` failed to
/// parse (exit code 1, a non-blocking error: the tool call went on; finding F120). For a
/// Python, Ruby or Node hook found on the hooks' `PATH` as pyenv's, rbenv's, asdf's or mise's
/// shim, those files, where the hook runs and above, and asdf's and mise's under the home,
/// are out of the agent's reach, existing or not; another manager's files, the same name in a
/// subfolder (never where the hook runs), and all with a hook that runs no shim, are not.
#[test]
fn the_files_a_version_manager_picks_the_interpreter_by_are_protected() {
    let home = TestDir::new();
    let repo = git_repository("[core]\n\tbare = false\n");
    for shim in [".pyenv/shims/python3", ".rbenv/shims/ruby", ".asdf/shims/node"] {
        home.script(shim, "#!/bin/sh\n");
    }
    let path = format!(
        "{}:{}:{}:/usr/bin:/bin",
        home.path().join(".pyenv/shims").display(),
        home.path().join(".rbenv/shims").display(),
        home.path().join(".asdf/shims").display(),
    );
    repo.write("scripts/gate.py", "import sys\n");
    repo.write(
        ".cursor/hooks.json",
        &cursor_hooks(&["python3 scripts/gate.py", "ruby scripts/gate.rb", "node scripts/gate.js"]),
    );
    let r = |rel: &str| repo.text_path(rel);
    let above = repo.path().parent().expect("parent").join(".python-version");
    let paths = [
        r(".python-version"),
        above.to_str().expect("utf-8").to_owned(),
        r(".ruby-version"),
        r(".tool-versions"),
        r(".nvmrc"),
        home.text_path(".tool-versions"),
        r("scripts/.python-version"),
        r(".go-version.txt"),
        home.text_path(".python-version"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let found = guard_with_path(repo.path(), home.path(), &path, &paths);
    assert_eq!(found, [false, false, false, false, false, false, true, true, true]);
    // Found on `PATH` as no shim, the same interpreters pick nothing by these files.
    let plain = format!("{}:/usr/bin:/bin", home.path().join("bin").display());
    for program in ["python3", "ruby", "node"] {
        home.script(&format!("bin/{program}"), "#!/bin/sh\n");
    }
    let found = guard_with_path(repo.path(), home.path(), &plain, &paths[..6]);
    assert_eq!(found, [true; 6]);
    // A shim a recipe's line runs (`make lint` running `python3`) picks its version the same
    // way, from where the recipe runs.
    repo.write("Makefile", "lint:\n\tpython3 scripts/gate.py\n");
    repo.write(".cursor/hooks.json", &cursor_hooks(&["make lint"]));
    let found = guard_with_path(repo.path(), home.path(), &path, &paths[..2]);
    assert_eq!(found, [false, false]);
}

/// What git shows of a path follows its attributes: with `* -diff` in the repository's
/// `.git/info/attributes`, the user's `~/.config/git/attributes` or a `.gitattributes` of
/// the work tree, `git diff --cached` printed "Binary files … differ" for a staged file
/// holding a key, and a gate that greps the diff for keys let the commit go on (finding F121;
/// checked with git here). Those files are out of the agent's reach, existing or not, for a
/// hook that runs git (a `.gitattributes` in any folder, where it runs or above); the
/// project's other files are not, nor these where no hook runs git.
#[test]
fn what_decides_what_git_shows_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let lines = ["git diff --cached | grep -q AKIA && exit 2 || exit 0"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r(".gitattributes"),
        r("src/deep/.gitattributes"),
        r(".git/info/attributes"),
        home.text_path(".config/git/attributes"),
        r("src/main.rs"),
        r(".gitignore"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 4);
}

/// The searches gates grep the project with skip what their ignore files say: checked with
/// ripgrep 15 here, `*` in a `.rgignore` (in any folder it walks) or a `.ignore`, `*.py` in
/// the repository's `.git/info/exclude` or the user's `~/.config/git/ignore` had `rg -q AKIA
/// .` find nothing in a file holding a key, and the gate let the call go on (finding F122).
/// Spell checkers pass once their configuration skips every file or allows the word: checked
/// with codespell 2.4 and typos 1.52 here, codespell's `.codespellrc`, `setup.cfg` and
/// `pyproject.toml` where it runs, typos' `_typos.toml`, `typos.toml` and `.typos.toml`, in a
/// checked folder too (finding F123). Those files are out of the agent's reach, existing or
/// not, for a hook that runs these tools; the project's code and `.gitignore` are not, nor any
/// of these where no hook runs them.
#[test]
fn what_searches_and_spell_checkers_skip_by_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let lines = ["rg -q AKIA . && exit 2 || exit 0", "codespell src", "npx typos src"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r(".rgignore"),
        r("src/deep/.rgignore"),
        r("src/.ignore"),
        r(".git/info/exclude"),
        home.text_path(".config/git/ignore"),
        r(".codespellrc"),
        r("setup.cfg"),
        r("pyproject.toml"),
        r("src/_typos.toml"),
        r(".typos.toml"),
        r("src/main.rs"),
        r(".gitignore"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 10);
}

/// ripgrep (and fd, through the same ignore rules) skips what the file an `excludesfile` line
/// of the user's git configuration names says, whatever the line's section: checked with
/// ripgrep 15 here, `*.py` in that file, or a new `~/.gitconfig` or `~/.config/git/config`
/// naming another, had `rg -q AKIA .` find nothing (finding F126). Those configurations and
/// the files they name are out of the agent's reach, existing or not; another file of the
/// home is not, nor these where no hook runs a search.
#[test]
fn the_excludes_file_git_s_configuration_names_to_a_search_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let elsewhere = home.text_path("elsewhere/ignore");
    home.write(
        ".gitconfig",
        &format!(
            "[core]\n\texcludesFile = ~/.gitignore_global\n[x]\n\texcludesfile = {elsewhere}\n"
        ),
    );
    let lines = ["rg -q AKIA . && exit 2 || exit 0"];
    let h = |rel: &str| home.text_path(rel);
    let paths = [
        h(".gitconfig"),
        h(".config/git/config"),
        h(".gitignore_global"),
        elsewhere.clone(),
        h(".gitignore_other"),
        repo.text_path("src/main.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 4);
}

/// The TypeScript runners take a `tsconfig.json` from the script's folder or where they run
/// up: tsx 4 ran `src/lib/policy.ts` for the gate's `import { deny } from "@/lib/policy"`
/// through its `paths` (so editing that file, or the mapping, turned the gate into an allow),
/// and ts-node 10 ran the file its `"ts-node": {"require": [...]}` names before the gate,
/// whose `process.exit(0)` ended the hook first (finding F127). The configurations on the
/// way, the one `extends` names, the files `paths` and `baseUrl` send the gate's imports to
/// and what ts-node requires are out of the agent's reach, existing or not; the project's
/// other code is not, nor these where no hook runs the gate.
#[test]
fn what_a_typescript_runner_takes_from_tsconfig_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "tsconfig.json",
        "{\n  // the project's\n  \"extends\": \"./tsconfig.base.json\",\n  \"ts-node\": {\"require\": [\"./tools/pre.js\", \"tsconfig-paths/register\"]},\n}\n",
    );
    repo.write(
        "tsconfig.base.json",
        r#"{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}"#,
    );
    repo.write(
        "tools/gate.ts",
        "import { deny } from \"@/lib/policy\";\nimport { x } from \"lib/util\";\nimport fs from \"node:fs\";\nprocess.exit(deny() ? 2 : 0);\n",
    );
    repo.write("src/lib/policy.ts", "export function deny(): boolean { return true; }\n");
    let lines = ["npx tsx tools/gate.ts"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("src/lib/policy.ts"),
        r("src/lib/policy/index.ts"),
        r("lib/util.ts"),
        r("tsconfig.json"),
        r("tsconfig.base.json"),
        r("tools/pre.js"),
        r("tools/tsconfig.json"),
        r("src/other.ts"),
        r("tools/other.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 7);
}

/// Node finds a script's subpath imports (`#policy`) through the nearest `package.json`'s
/// `imports`, and the package's own name through its `exports`: checked with Node 20, the
/// gate's `import { deny } from "#policy"` ran the `src/policy.js` the manifest names, and
/// `"p/policy"` in package `p` the file its `exports` names, so editing either turned the
/// gate into an allow (finding F128). Those files (every condition's), and the manifest of an
/// `.mjs` gate that uses them, are out of the agent's reach, existing or not; the package's
/// other files are not, nor these where no hook runs the gate.
#[test]
fn what_a_package_s_imports_and_exports_send_a_gate_to_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "package.json",
        r##"{"name": "p", "imports": {"#policy": "./src/policy.js", "#lib/*": {"node": "./src/lib/*.js", "default": "./dist/lib/*.js"}, "#ext": "zod"}, "exports": {".": "./src/main.js", "./checks": "./src/checks.js"}}"##,
    );
    repo.write(
        "tools/gate.mjs",
        "import { deny } from \"#policy\";\nimport { x } from \"#lib/util\";\nimport { c } from \"p/checks\";\nprocess.exit(deny() ? 2 : 0);\n",
    );
    let lines = ["node tools/gate.mjs"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("src/policy.js"),
        r("src/lib/util.js"),
        r("dist/lib/util.js"),
        r("src/checks.js"),
        r("package.json"),
        r("src/main.js"),
        r("src/lib/other.js"),
        r("zod"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// Bun runs what the top-level `preload` of the `bunfig.toml` where it runs names before the
/// script: checked with Bun 1.4, `preload = ["./tools/setup.ts"]` (or without `./`, or a
/// package's name) ran that code first, and its `process.exit(0)` ended the hook with an
/// allow (finding F129). The preloaded files, what they import and the package are out of the
/// agent's reach, existing or not; the project's other code is not, nor these where no hook
/// runs Bun.
#[test]
fn what_bun_preloads_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "bunfig.toml",
        "preload = [\"./tools/setup.ts\", \"tools/more.ts\", \"setup-pkg\"]\n",
    );
    repo.write("tools/setup.ts", "import { note } from \"./lib/helper\";\nnote();\n");
    repo.write("tools/gate.ts", "process.exit(2);\n");
    let lines = ["bun tools/gate.ts"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("bunfig.toml"),
        r("tools/setup.ts"),
        r("tools/more.ts"),
        r("tools/lib/helper.ts"),
        r("node_modules/setup-pkg/index.js"),
        r("tools/other.ts"),
        r("src/app.ts"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// `require("./lib")` of a folder with a `package.json` loads the file its `main` names:
/// checked with Node 20, `"main": "impl"` ran `lib/impl.js` (and `"./dist/"` ran
/// `lib/dist/index.js`), which no rule named while the unused `lib/index.js` was protected, so
/// editing it turned the gate into an allow (finding F130). That file, with the names Node
/// tries, and what it requires in turn, are out of the agent's reach, existing or not; the
/// folder's other files are not, nor these where no hook runs the gate.
#[test]
fn the_file_a_required_folder_s_main_names_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "tools/gate.js",
        "const lib = require(\"./lib\");\nprocess.exit(lib.deny() ? 2 : 0);\n",
    );
    repo.write("tools/lib/package.json", r#"{"name": "lib", "main": "impl"}"#);
    repo.write("tools/lib/impl.js", "module.exports = require(\"./rules\");\n");
    let lines = ["node tools/gate.js"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/lib/impl.js"),
        r("tools/lib/impl/index.js"),
        r("tools/lib/rules.js"),
        r("tools/lib/other.js"),
        r("src/app.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 3);
}

/// Deno finds a script's specifiers through the import map of the nearest `deno.json` (or
/// `deno.jsonc`, or the file its `importMap` names): checked with Deno 2.9, `"policy":
/// "./src/policy.ts"` and `"@/": "./src/"` sent the gate's imports there from any folder Deno
/// ran in, and editing `src/policy.ts` turned the gate into an allow (finding F131). Those
/// files, the configurations on the way and the import map file are out of the agent's reach,
/// existing or not; the project's other code is not, nor these where no hook runs the gate.
#[test]
fn what_deno_s_import_map_sends_a_gate_to_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "deno.jsonc",
        "{\n  // the project's\n  \"importMap\": \"./maps/import_map.json\",\n}\n",
    );
    repo.write(
        "maps/import_map.json",
        r#"{"imports": {"policy": "../src/policy.ts", "@/": "../src/", "std/": "https://x/std/"}}"#,
    );
    repo.write(
        "tools/gate.ts",
        "import { deny } from \"policy\";\nimport { x } from \"@/util.ts\";\nDeno.exit(deny() ? 2 : 0);\n",
    );
    let lines = ["deno run tools/gate.ts"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("src/policy.ts"),
        r("src/util.ts"),
        r("maps/import_map.json"),
        r("deno.jsonc"),
        r("tools/deno.json"),
        r("src/other.ts"),
        r("maps/other.json"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// A Python gate that adds a folder beside it to its module search path imports from there:
/// checked with CPython 3.11, `sys.path.insert(0, os.path.join(os.path.dirname(
/// os.path.abspath(__file__)), "lib"))` then `import policy` ran `hooks/lib/policy.py`, and
/// `sys.path.append(str(Path(__file__).resolve().parent.parent / "shared"))` a module of
/// `shared/`; editing either turned the gate into an allow (finding F132). Those modules, as
/// packages and in their compiled forms, are out of the agent's reach, existing or not; the
/// folders' other files are not, nor these where no hook runs the gate.
#[test]
fn what_a_python_gate_imports_from_the_folders_it_adds_to_its_path_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "hooks/gate.py",
        "import os, sys\nfrom pathlib import Path\n\
         sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), \"lib\"))\n\
         sys.path.append(str(Path(__file__).resolve().parent.parent / \"shared\"))  # shared code\n\
         import policy\nimport common\nsys.exit(2 if policy.deny() and common.ok() else 0)\n",
    );
    let lines = ["python3 hooks/gate.py"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("hooks/lib/policy.py"),
        r("hooks/lib/policy/__init__.py"),
        r("hooks/lib/__pycache__/policy.cpython-311.pyc"),
        r("shared/common.py"),
        r("hooks/lib/other.py"),
        r("shared/other.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 4);
}

/// A Python gate that adds a folder relative to where it runs to its module search path
/// imports from there: checked with CPython 3.11, a gate run from the project's root that did
/// `sys.path.insert(0, "tools")` then `import policy` ran `tools/policy.py`, and one that did
/// `sys.path.append(os.getcwd())` a module of the root; editing either turned the gate into an
/// allow (finding F136: Python resolves a relative entry against the current folder at each
/// import). Those modules, as packages and in their compiled forms, are out of the agent's
/// reach, existing or not (the folder named from the script's own folder too: a name on the
/// line may hold it); the folders' other files are not, nor these where no hook runs the gate.
#[test]
fn what_a_python_gate_imports_from_folders_relative_to_where_it_runs_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "hooks/gate.py",
        "import os, sys\nsys.path.insert(0, \"tools\")\nsys.path.append(os.getcwd())\n\
         import policy\nimport common\nsys.exit(2 if policy.deny() and common.ok() else 0)\n",
    );
    repo.write("tools/policy.py", "def deny():\n    return True\n");
    let lines = ["python3 hooks/gate.py"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("tools/policy.py"),
        r("tools/policy/__init__.py"),
        r("tools/__pycache__/policy.cpython-311.pyc"),
        r("common.py"),
        r("hooks/tools/policy.py"),
        r("tools/other.py"),
        r("other.py"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// git reads attributes from the file `core.attributesFile` names instead of
/// `~/.config/git/attributes`, from the home, absolutely or from the repository's top folder:
/// checked with git 2.47 here, `* -diff` in the file the user's `~/.gitconfig` named, or in
/// the one a `git -c core.attributesFile=…` of the line named, had `git diff --cached` print
/// "Binary files differ" for a staged key, and the gate allowed (finding F126). Those files
/// (and `core.excludesFile`'s, which decides what `git status` lists) are out of the agent's
/// reach, existing or not; others are not, nor these where no hook runs git.
#[test]
fn the_pattern_files_git_s_configuration_names_are_protected() {
    let repo = git_repository("[core]\n\tbare = false\n\tattributesFile = ci/attrs\n");
    let home = TestDir::new();
    home.write(
        ".gitconfig",
        "[core]\n\tattributesFile = ~/.gitattributes_global\n\texcludesFile = ~/.gitignore_global\n",
    );
    let given = home.text_path("given/attributes");
    let line = format!("git -c core.attributesFile={given} diff --cached | grep -q AKIA && exit 2");
    let lines = ["git diff --cached | grep -q AKIA && exit 2 || exit 0", line.as_str()];
    let paths = [
        repo.text_path("ci/attrs"),
        home.text_path(".gitattributes_global"),
        home.text_path(".gitignore_global"),
        given.clone(),
        repo.text_path("ci/other"),
        home.text_path(".gitattributes_other"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 4);
}

/// `require("./lib")` tries `lib`, `lib.js`, `lib.json` and `lib.node` before the folder
/// `lib/` (its `package.json`'s `main`, then its `index`): a native addon `scripts/lib.node`
/// built from a few lines of C was loaded in place of `scripts/lib/index.js` and its `deny`
/// answered false, so the gate allowed (finding F124; checked with Node 20 and gcc here).
/// Those files, beside the folder and in it, are out of the agent's reach, existing or not;
/// the project's code is not, nor these where no hook runs the script.
#[test]
fn what_require_tries_before_a_package_folder_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    repo.write(
        "scripts/gate.js",
        "const lib = require(\"./lib\");\nprocess.exit(lib.deny() ? 2 : 0);\n",
    );
    repo.write("scripts/lib/index.js", "module.exports = { deny: () => true };\n");
    let lines = ["node scripts/gate.js"];
    let r = |rel: &str| repo.text_path(rel);
    let paths = [
        r("scripts/lib.node"),
        r("scripts/lib.json"),
        r("scripts/lib/package.json"),
        r("scripts/lib/index.node"),
        r("scripts/lib/index.js"),
        r("scripts/other.node"),
        r("src/index.js"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    refusing_under_both_hooks(&repo, &home, &lines, &paths, 5);
}

/// Gemini CLI loads the first `.gemini/.env` or `.env` from its working directory up (in a
/// trusted folder), else the home's, into its environment, and every hook it runs (the
/// engine's bridge among them) inherits it: checked with Gemini CLI 0.61 in the real-agent
/// harness, a variable of the project's `.gemini/.env` reached every hook's environment, so a
/// `NODE_OPTIONS`, `LD_PRELOAD` or `BASH_ENV` there loads the agent's code into them (finding
/// F125). Where a Gemini CLI hook is configured, those files in every folder a session may
/// start in and above it, and the home's, are out of the agent's reach, existing or not; other
/// files are not, nor these where no Gemini CLI hook is.
#[test]
fn what_gemini_cli_loads_into_its_hooks_environment_is_protected() {
    let repo = git_repository("[core]\n\tbare = false\n");
    let home = TestDir::new();
    let gemini = |command: &str| {
        serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "name": "gate", "command": command}]}]}})
            .to_string()
    };
    let r = |rel: &str| repo.text_path(rel);
    let above = repo.path().parent().expect("parent").join(".env");
    let paths = [
        r(".gemini/.env"),
        r(".env"),
        r("packages/web/.env"),
        r("packages/web/.gemini/.env"),
        above.to_str().expect("utf-8").to_owned(),
        home.text_path(".gemini/.env"),
        home.text_path(".env"),
        r("config/app.env"),
        r("src/main.rs"),
    ];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    // The project's hook, and the user's.
    repo.write(".gemini/settings.json", &gemini("node .gemini/hooks/gate.js"));
    guard_refusing(repo.path(), home.path(), &paths, 7);
    std::fs::remove_file(repo.path().join(".gemini/settings.json")).expect("rm");
    home.write(".gemini/settings.json", &gemini("jq -e .tool_input"));
    guard_refusing(repo.path(), home.path(), &paths, 7);
    // Another agent's hook only.
    std::fs::remove_file(home.path().join(".gemini/settings.json")).expect("rm");
    all_allowed_with_a_hook_that_runs_none_of_them(&repo, repo.path(), home.path(), &paths);
}
