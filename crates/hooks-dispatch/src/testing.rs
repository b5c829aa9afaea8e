//! Test support: a tiny codec speaking a made-up protocol, helpers to build bindings, and
//! the crash points the outbox crash tests stop a child process at.
//!
//! The protocol: the envelope as JSON on stdin (or in `$TEST_PAYLOAD` when the definition's
//! native `payload_file` is true, with the answer in `$TEST_RESULT`); exit 0 with an empty
//! stdout is no opinion; exit 0 with `{"decision", "reason", "merge", "context"}` JSON is a
//! verdict; exit 2 denies with stderr as the reason; any other failure follows `on_failure`.
//! A blocking definition whose native `once_per_command` is true runs its command once per
//! firing, as Claude Code does.

use std::{path::PathBuf, sync::Arc, time::Duration};

use hooks_schema::{
    AbsPathBuf, ArgRewrite, Binding, Decision, Delivery, EncodeContext, Envelope, ExecutionMode,
    HookCodec, HookCommand, HookDefinition, HookEvent, HookId, HookSourceId, HookSourceKind,
    HookVerdict, Invocation, Matcher, OnFailure, Program, ProvidedFile, ProvidedFileRole,
    RawOutcome, WireFormat,
};
use serde_json::{Map, Value};

/// The test protocol's codec.
#[derive(Debug)]
pub(crate) struct TestCodec;

impl HookCodec for TestCodec {
    fn wire_format(&self) -> WireFormat {
        WireFormat::Claude
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, String> {
        if hook.native.get("fail_encode") == Some(&Value::Bool(true)) {
            return Err("the test codec refuses this envelope".to_owned());
        }
        let program = match &hook.command {
            HookCommand::Shell { script, shell } => {
                Program::Shell { script: script.clone(), shell: shell.clone() }
            }
            HookCommand::Exec { program, args } => {
                let mut argv = vec![program.clone()];
                argv.extend(args.iter().cloned());
                Program::Exec { argv }
            }
            HookCommand::Script { path, args } => {
                let mut argv = vec![path.display().to_string()];
                argv.extend(args.iter().cloned());
                Program::FirstAvailable {
                    candidates: vec![
                        std::iter::once("no-such-interpreter-x".to_owned())
                            .chain(argv.iter().cloned())
                            .collect(),
                        std::iter::once("sh".to_owned()).chain(argv).collect(),
                    ],
                }
            }
        };
        let payload = serde_json::to_vec(envelope).map_err(|e| e.to_string())?;
        let file_mode = hook.native.get("payload_file") == Some(&Value::Bool(true));
        let (stdin, files) = if file_mode {
            (
                Vec::new(),
                vec![
                    ProvidedFile {
                        env_var: "TEST_PAYLOAD".to_owned(),
                        name_hint: hook.id.as_str().to_owned(),
                        role: ProvidedFileRole::Input(payload),
                    },
                    ProvidedFile {
                        env_var: "TEST_RESULT".to_owned(),
                        name_hint: hook.id.as_str().to_owned(),
                        role: ProvidedFileRole::Output,
                    },
                ],
            )
        } else {
            (payload, Vec::new())
        };
        Ok(Invocation {
            program,
            cwd: Some(
                hook.cwd.as_ref().map_or_else(|| ctx.working_dir.to_path_buf(), PathBuf::from),
            ),
            env_remove: Vec::new(),
            env: hook.env.clone(),
            stdin,
            files,
            timeout: hook.timeout,
        })
    }

    fn decode(&self, hook: &HookDefinition, _: &Envelope, outcome: &RawOutcome) -> HookVerdict {
        if outcome.exit_code() == Some(2) {
            let reason = outcome.stderr.lossy().trim().to_owned();
            return HookVerdict::decided(Decision::Deny, Some(reason));
        }
        if let Some(label) = outcome.failure_label() {
            let mut v = match hook.on_failure {
                OnFailure::Block => HookVerdict::decided(
                    Decision::Deny,
                    Some(format!("hook '{}' failed ({label})", hook.id)),
                ),
                OnFailure::Warn | OnFailure::Ignore => HookVerdict::no_opinion(),
            };
            v.failure = Some(label);
            return v;
        }
        let bytes = match &outcome.result_file {
            Some(r) if !r.bytes.is_empty() => &r.bytes,
            _ => &outcome.stdout.bytes,
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return HookVerdict::no_opinion();
        }
        let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(bytes) else {
            let mut v = HookVerdict::no_opinion();
            v.notes.push("output is not a JSON object".to_owned());
            return v;
        };
        let decision = match obj.get("decision").and_then(Value::as_str) {
            Some("allow") => Some(Decision::Allow),
            Some("ask") => Some(Decision::Ask),
            Some("deny") => Some(Decision::Deny),
            _ => None,
        };
        HookVerdict {
            decision,
            reason: obj.get("reason").and_then(Value::as_str).map(str::to_owned),
            rewrite: obj.get("merge").and_then(Value::as_object).cloned().map(ArgRewrite::Merge),
            context: obj
                .get("context")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect(),
            ..HookVerdict::default()
        }
    }

    fn runs_once_per_command(&self, hook: &HookDefinition) -> bool {
        hook.native.get("once_per_command") == Some(&Value::Bool(true))
            && hook.mode == ExecutionMode::Blocking
    }
}

/// A blocking pre-tool-use definition running `script` through `/bin/sh`.
pub(crate) fn sh_def(id: &str, script: &str) -> HookDefinition {
    def(id, HookCommand::Shell { script: script.to_owned(), shell: None })
}

/// A blocking pre-tool-use definition with the test codec and a 10 s timeout.
pub(crate) fn def(id: &str, command: HookCommand) -> HookDefinition {
    HookDefinition {
        id: HookId::new(id).expect("valid test id"),
        event: HookEvent::PreToolUse,
        native_event: "PreToolUse".to_owned(),
        matcher: Matcher::all(),
        command,
        cwd: None,
        env: Vec::new(),
        timeout: Duration::from_secs(10),
        on_failure: OnFailure::Warn,
        mode: ExecutionMode::Blocking,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(TestCodec),
        order: 0,
        line: Some(1),
        column: None,
        description: None,
        native: Map::new(),
    }
}

/// A binding of `def` from a project file at `source`, running in `/tmp`.
pub(crate) fn binding(def: HookDefinition, source: &str) -> Binding {
    Binding {
        source: HookSourceId::new(
            HookSourceKind::ProjectClaudeSettings,
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
