//! Claude Code's hook protocol as the real `hooks` tool runs it, checked against what Claude
//! Code 2.1.x itself does (the evidence is in `specs/formats/claude.md`, "Checked against the
//! real CLI").

use std::path::Path;

use serde_json::Value;

use crate::{cli::hooks_in, support::TestDir};

/// `hooks fire pre_tool_use` for a Bash call of `command` in the project `root`, with the
/// project's files trusted (an auto-approving command-line run) and no user files.
fn fire_bash(root: &Path, command: &str) -> (i32, Value, String) {
    let cfg = TestDir::new();
    let root_s = root.to_str().expect("utf-8 root");
    let args = [
        "fire",
        "pre_tool_use",
        "--root",
        root_s,
        "--config-dir",
        cfg.path().to_str().expect("utf-8"),
        "--posture",
        "auto-approves",
        "--payload",
        "-",
        "--json",
    ];
    let payload = serde_json::json!({
        "cwd": root,
        "tool": {"name": "Bash", "kind": "shell", "args": {"command": command}}
    });
    let out = hooks_in(root, &args, &payload.to_string());
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = stdout
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .unwrap_or_else(|| panic!("no JSON report: {stdout}\n{stderr}"));
    (out.status.code().expect("exited"), json, stderr)
}

/// A project root named like shell code: `${CLAUDE_PROJECT_DIR}` in a hook command must reach
/// the shell as a variable, never as text, so the `touch` inside the name never runs.
#[test]
fn a_project_root_named_like_shell_code_never_runs_as_shell_code() {
    let dir = TestDir::new();
    let root = dir.path().join("proj;touch X;");
    std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
    let seen = dir.path().join("seen.txt");
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        // Unquoted, quoted, and in single quotes (which must stay literal, as in Claude Code).
        {"type": "command", "command": format!(
            "cat ${{CLAUDE_PROJECT_DIR}}/nothing 2>/dev/null; echo \"${{CLAUDE_PROJECT_DIR}}\" > '{0}'; printf '%s\\n' '${{CLAUDE_PROJECT_DIR}}' >> '{0}'; exit 0",
            seen.display()
        )}
    ]}]}});
    std::fs::write(root.join(".claude/settings.json"), settings.to_string()).expect("write");

    let (code, report, stderr) = fire_bash(&root, "ls");
    assert_eq!(code, 0, "{report}\n{stderr}");
    assert_eq!(report["runs"][0]["status"], "ran", "{report}");
    for place in [&root, &dir.path().to_path_buf()] {
        assert!(!place.join("X").exists(), "the directory name ran as shell code in {place:?}");
    }
    let seen = std::fs::read_to_string(&seen).expect("the hook ran");
    let canonical = hooks_registry::canonicalize(&root).expect("canonical").into_path_buf();
    assert_eq!(seen, format!("{}\n${{CLAUDE_PROJECT_DIR}}\n", canonical.display()));
}

/// Answers by the command it gates, the way the real CLI was probed (see the spec).
const PROBE: &str = r#"#!/bin/sh
input=$(cat)
deny='{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json reason"}}'
case "$input" in
  *exit1json*) echo "$deny"; echo "stderr text" >&2; exit 1 ;;
  *exit3json*) echo "$deny"; exit 3 ;;
  *exit2json*) echo "$deny"; echo "stderr reason" >&2; exit 2 ;;
  *exit2plain*) echo "stderr reason" >&2; exit 2 ;;
  *exit1plain*) echo "stderr text" >&2; exit 1 ;;
  *noise*) echo "noise first"; echo "$deny"; exit 0 ;;
  *array*) echo "[$deny]"; exit 0 ;;
esac
exit 0
"#;

/// Exit codes and JSON answers read as Claude Code 2.1.x reads them: a valid JSON answer
/// counts on every exit code, exit code 2 keeps a blocking answer's own reason, and stdout
/// that does not start with `{` is plain text (never a deny).
#[test]
fn exit_codes_and_json_answers_are_read_as_claude_code_reads_them() {
    let dir = TestDir::new();
    let root = dir.path();
    dir.script("hooks/probe.sh", PROBE);
    dir.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/probe.sh"}]}]}}"#,
    );
    for (command, code, reason) in [
        ("exit1json", 2, Some("json reason")),
        ("exit3json", 2, Some("json reason")),
        ("exit2json", 2, Some("json reason")),
        ("exit2plain", 2, Some("stderr reason")),
        ("exit1plain", 0, None),
        ("noise", 0, None),
        ("array", 0, None),
    ] {
        let (got, report, stderr) = fire_bash(root, command);
        assert_eq!(got, code, "{command}: {report}\n{stderr}");
        assert_eq!(report["verdict"]["reason"].as_str(), reason, "{command}: {report}");
    }
}

/// A settings file with an invalid `PreToolUse` entry is skipped whole, its valid deny hook
/// included, as Claude Code 2.1.x skips it; an invalid entry of another event is skipped
/// alone.
#[test]
fn an_invalid_pre_tool_use_entry_skips_the_whole_settings_file_as_claude_code_does() {
    let dir = TestDir::new();
    let root = dir.path();
    let deny = serde_json::json!({"type": "command", "command": "echo blocked >&2; exit 2"});
    let write = |bad_event: &str| {
        let settings = serde_json::json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [deny]}],
            bad_event: [{"hooks": [{"type": "command", "command": "true", "timeout": "abc"}]}],
        }});
        dir.write(".claude/settings.json", &settings.to_string());
    };
    write("Stop");
    let (code, report, stderr) = fire_bash(root, "ls");
    assert_eq!(code, 2, "an invalid Stop entry is skipped alone: {report}\n{stderr}");
    write("PermissionRequest");
    let (code, report, stderr) = fire_bash(root, "ls");
    assert_eq!(code, 0, "the whole file is skipped: {report}\n{stderr}");
    assert_eq!(report["runs"].as_array().map(Vec::len), Some(0), "{report}");
}
