//! Issue 17, "Guard": everything a hook executes or reads as configuration is protected,
//! however it is spelled. Each scenario drives the real `hooks` tool (`hooks guard`,
//! `hooks list`) as a child process, the way an attacker-controlled repository meets it.

use std::path::Path;

use serde_json::Value;

use crate::{cli::hooks_in_env, support::TestDir};

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
    let lines = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    (o.status.code().expect("exited"), lines)
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
