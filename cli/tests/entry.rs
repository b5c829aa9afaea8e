//! The `hooks` binary's own entry point (`src/main.rs`), run as the built executable: on
//! Linux it is a C `main` of the tool's own rather than std's, so what std's start and end did
//! for a process is checked here on the real binary (the workspace tests run
//! `hooks_cli::main_entry` in a re-executed test binary, which has std's `main`).

use std::{
    io::Write,
    os::unix::process::ExitStatusExt,
    process::{Command, Stdio},
};

const HOOKS: &str = env!("CARGO_BIN_EXE_hooks");

/// What the tool prints reaches a pipe (stdout is flushed before the process ends), with the
/// command's exit code; a usage error exits 2 with its message on stderr.
#[test]
fn output_is_flushed_and_exit_codes_are_the_tool_s() {
    let o = Command::new(HOOKS).arg("--version").output().expect("run");
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("hooks "), "{o:?}");
    let o = Command::new(HOOKS).arg("no-such-command").output().expect("run");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-command"), "{o:?}");
}

/// A fire that runs a hook, through the real binary: the payload is read from stdin, the
/// hook's verdict printed, the exit code is the verdict's (2: deny).
#[test]
fn a_fire_through_the_binary_runs_its_hook() {
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".cursor")).expect("mkdir");
    std::fs::write(
        root.join(".cursor/hooks.json"),
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./deny.sh"}]}}"#,
    )
    .expect("hooks.json");
    let script = root.join("deny.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat > /dev/null\necho '{\"permission\":\"deny\",\"userMessage\":\"no\"}'\n",
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let config = root.join("config");
    std::fs::create_dir_all(&config).expect("mkdir");
    let mut child = Command::new(HOOKS)
        .args(["fire", "beforeShellExecution", "--posture", "auto-approves", "--payload", "-"])
        .args(["--json", "--root"])
        .arg(root)
        .arg("--config-dir")
        .arg(&config)
        .env("XDG_CONFIG_HOME", &config)
        .env("XDG_STATE_HOME", config.join("state"))
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(br#"{"tool": {"name": "Shell", "kind": "shell", "args": {"command": "ls"}}}"#)
        .expect("payload");
    let o = child.wait_with_output().expect("wait");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains(r#""status":"ran""#), "{out}");
}

/// A closed stdout does not become a file the tool opens: it is opened on `/dev/null` before
/// anything runs, so the tool's output goes nowhere and it exits normally (std's start did
/// this; the tool's own entry does it too).
#[test]
fn a_closed_stdout_is_opened_on_dev_null() {
    let o = Command::new("/bin/sh")
        .args(["-c", "exec \"$0\" --version >&-", HOOKS])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(o.stdout.is_empty());
}

/// A reader that went away makes a write fail (`SIGPIPE` is ignored), it does not kill the
/// process by signal: the tool reports the error and exits with a code.
#[test]
fn a_closed_pipe_is_an_error_not_a_signal() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    // Closed before the tool starts: its first write to stdout meets no reader.
    drop(reader);
    let st = Command::new(HOOKS)
        .arg("--version")
        .stdout(Stdio::from(writer))
        .stderr(Stdio::null())
        .status()
        .expect("run");
    assert_eq!(st.signal(), None, "{st:?}");
    assert!(st.code().is_some());
}
