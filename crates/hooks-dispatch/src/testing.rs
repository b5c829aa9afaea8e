//! Test support: helpers to build bindings of the shared test protocol
//! (`hooks_testing::ScriptCodec`), and the crash points the outbox crash tests stop a child
//! process at.

use std::{path::PathBuf, sync::Arc, time::Duration};

use hooks_schema::{
    AbsPathBuf, Binding, Envelope, HookCommand, HookDefinition, HookEvent, HookSourceId,
};

/// An invocation of `program` with nothing else set and a 10 s timeout.
pub(crate) fn inv(program: hooks_schema::Program) -> hooks_schema::Invocation {
    hooks_schema::Invocation {
        program,
        cwd: None,
        env_remove: Vec::new(),
        env: Vec::new(),
        stdin: Vec::new(),
        files: Vec::new(),
        timeout: Duration::from_secs(10),
    }
}

/// An invocation of `script` through `/bin/sh` ([`inv`]).
pub(crate) fn sh(script: &str) -> hooks_schema::Invocation {
    inv(hooks_schema::Program::Shell { script: script.to_owned(), shell: None })
}

/// A blocking pre-tool-use definition running `script` through `/bin/sh`.
pub(crate) fn sh_def(id: &str, script: &str) -> HookDefinition {
    def(id, HookCommand::Shell { script: script.to_owned(), shell: None })
}

/// A blocking pre-tool-use definition with the test protocol's codec and a 10 s timeout.
pub(crate) fn def(id: &str, command: HookCommand) -> HookDefinition {
    hooks_testing::script_definition(id, command)
}

/// A binding of `def` from a project file at `source`, running in `/tmp`.
pub(crate) fn binding(def: HookDefinition, source: &str) -> Binding {
    Binding {
        source: HookSourceId::new(
            hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
            AbsPathBuf::new(PathBuf::from(source)).expect("absolute test path"),
        ),
        definition: Arc::new(def),
        working_dir: AbsPathBuf::new(std::env::temp_dir()).expect("absolute temp dir"),
        project_root: None,
    }
}

/// A pre-tool-use envelope for a `Bash` call with `{"command": cmd}`.
pub(crate) fn tool_envelope(cmd: &str) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("s1".to_owned());
    e.tool = Some(hooks_schema::ToolCall {
        name: "Bash".to_owned(),
        kind: hooks_schema::ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: serde_json::json!({ "command": cmd }),
    });
    e
}

/// The variable naming the crash point a child test process stops at.
pub(crate) const CRASH_AT_VAR: &str = "HOOKS_DISPATCH_TEST_CRASH_AT";

/// In a child test process started with [`CRASH_AT_VAR`] = `name`: announces the point on
/// the real stdout (`CRASHPOINT <name> <pid>`) and blocks until the parent kills it.
/// Elsewhere: does nothing.
pub(crate) fn crash_point(name: &str, pid: u32) {
    let wanted = test_env(CRASH_AT_VAR);
    if wanted.as_deref() != Some(name) {
        return;
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "CRASHPOINT {name} {pid}");
    let _ = out.flush();
    drop(out);
    loop {
        std::thread::park();
    }
}

/// The processes of group `pgid` that are alive (not zombies), from `/proc`.
pub(crate) fn live_group_members(pgid: i32) -> Vec<i32> {
    let mut live = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return live };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // `pid (comm) state ppid pgrp ...`; comm may hold spaces, so split after the last ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { continue };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("");
        let pgrp = fields.nth(1).and_then(|s| s.parse::<i32>().ok());
        if pgrp == Some(pgid) && state != "Z" && state != "X" {
            live.push(pid);
        }
    }
    live
}

/// Asserts that no live process is left in group `pgid`, allowing `bound` for the kernel
/// to finish delivering SIGKILL (there is no event to wait on for that, so this polls).
#[track_caller]
pub(crate) fn assert_group_gone(pgid: i32, bound: Duration) {
    let deadline = std::time::Instant::now() + bound;
    loop {
        let live = live_group_members(pgid);
        if live.is_empty() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "process group {pgid} still has live members {live:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The variable naming the runtime folder a crash child test process uses.
pub(crate) const RUNTIME_VAR: &str = "HOOKS_DISPATCH_TEST_RUNTIME_DIR";

/// A test-only environment switch (set by a parent test for its child process).
pub(crate) fn test_env(name: &str) -> Option<String> {
    #[expect(clippy::disallowed_methods, reason = "test-only switch for the crash child")]
    std::env::var(name).ok()
}

/// The variable that tells a test binary it was started for one test alone
/// ([`ran_in_own_process`]).
const OWN_PROCESS_VAR: &str = "HOOKS_DISPATCH_TEST_OWN_PROCESS";

/// For a test about what an engine process does first (its probe, its first hook's start),
/// which no earlier test of the same process may have done: whether the test already ran,
/// in a process of its own, so the caller returns at once.
///
/// Under nextest every test has a process of its own, and a test started by this function
/// runs in the child: `false`, the caller goes on. Under `cargo test`, where the tests share
/// one process (and one of them may have started a hook first), the test binary is started
/// again for `test` alone, its success asserted (one test passed, so a mistyped name cannot
/// pass), and `true` returned.
pub(crate) fn ran_in_own_process(test: &str) -> bool {
    if test_env(OWN_PROCESS_VAR).as_deref() == Some(test) || test_env("NEXTEST").is_some() {
        return false;
    }
    let exe = std::env::current_exe().expect("test binary");
    let out = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(OWN_PROCESS_VAR, test)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("start the test binary");
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{test} in its own process:\n{text}"
    );
    true
}
