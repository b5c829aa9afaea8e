//! Strict mode (`--strict`, `RuntimeConfig::strict`): the seed's deny-only contract, driven
//! through the real `hooks` tool and a real `hooks serve --stdio`.
//!
//! The user's `~/.claude/settings.json` (here `--config-dir`) is read under the strict
//! contract: every failure denies a gated event, whether the hook fails or the file does.

use std::{
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    sync::mpsc,
    time::Duration,
};

use serde_json::{Value, json};

use crate::support::TestDir;

/// `hooks <args>` as a child process (`crate::cli::hooks_argv`: the binary `HOOKS_IT_BIN`
/// names, or this test binary re-executed into `main_entry`), in `cwd`. With `unprivileged`, a
/// run as root drops every capability first (`setpriv`), so file modes apply to it as to any
/// user.
fn hooks_command(cwd: &Path, args: &[&str], state: &Path, unprivileged: bool) -> Command {
    let (exe, argv, var) = crate::cli::hooks_argv(args);
    let mut cmd = if unprivileged && running_as_root() {
        let mut c = Command::new("setpriv");
        c.args([
            "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--",
        ])
        .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    if let Some(v) = var {
        cmd.env(crate::cli::ARGS_VAR, v);
    }
    cmd.args(argv)
        .env("NO_COLOR", "1")
        .env_remove("WARP_HOOK_DIRS")
        .env("XDG_CONFIG_HOME", state)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .map(|v| v.split_whitespace().next() == Some("0"))
        })
        .unwrap_or(false)
}

/// A user's home with a Claude Code settings file, and a project folder to fire in.
struct Setup {
    home: TestDir,
    project: TestDir,
    state: TestDir,
}

impl Setup {
    fn new() -> Setup {
        Setup { home: TestDir::new(), project: TestDir::new(), state: TestDir::new() }
    }

    fn settings_path(&self) -> PathBuf {
        self.home.path().join(".claude/settings.json")
    }

    /// A strict `PreToolUse` hook on Bash running `command`, with a 2 s timeout.
    fn strict_hook(&self, command: &str) {
        let settings = json!({"hooks": {"version": 1, "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 2}]}
        ]}});
        self.home.write(".claude/settings.json", &settings.to_string());
    }

    /// `hooks fire [--strict] pre_tool_use --json` for a Bash call of `command`.
    fn fire(&self, strict: bool, command: &str) -> (i32, Value, String) {
        self.fire_as(strict, command, false)
    }

    fn fire_as(&self, strict: bool, command: &str, unprivileged: bool) -> (i32, Value, String) {
        let home = self.home.path().to_str().expect("utf-8");
        let mut args = vec!["fire", "pre_tool_use", "--config-dir", home, "--payload", "-"];
        args.push("--json");
        if strict {
            args.push("--strict");
        }
        let payload = json!({
            "cwd": self.project.path(),
            "tool": {"name": "Bash", "kind": "shell", "args": {"command": command}}
        });
        let mut child = hooks_command(self.project.path(), &args, self.state.path(), unprivileged)
            .spawn()
            .expect("spawn hooks");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(payload.to_string().as_bytes())
            .expect("payload");
        let out = child.wait_with_output().expect("hooks output");
        parse(&out)
    }
}

fn parse(out: &Output) -> (i32, Value, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = stdout
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .unwrap_or_else(|| panic!("no JSON report: {stdout}\n{stderr}"));
    (out.status.code().expect("exited"), report, stderr)
}

#[test]
fn strict_help_says_what_the_mode_does() {
    let dir = TestDir::new();
    for command in ["fire", "serve"] {
        let out = hooks_command(dir.path(), &[command, "--help"], dir.path(), false)
            .output()
            .expect("help");
        let help =
            String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
        for promise in [
            "deny-only contract",
            "`hooks.version` must be 1",
            "commands that need a shell are violations",
            "cannot be read (a FIFO, a directory, a dangling symlink, no permission) denies every gated event",
            "spawned directly, without a shell",
            "Project hook files never activate",
            "No hook can relax the host's decision",
            "any failure of a blocking hook of any format denies",
        ] {
            assert!(help.contains(promise), "`hooks {command} --help` lacks {promise:?}:\n{help}");
        }
    }
}

/// Answers by the command it gates.
const PROBE: &str = r#"#!/bin/sh
input=$(cat)
allow='{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
case "$input" in
  *crash*) kill -SEGV $$ ;;
  *hang*) sleep 30 ;;
  *exit1allow*) echo "$allow"; exit 1 ;;
  *exit1*) exit 1 ;;
  *binary*) printf '\000\377\376' ;;
  *array*) echo '[]' ;;
  *prose*) echo 'checked'; echo '{}' ;;
  *deny2*) echo 'not this one' >&2; exit 2 ;;
  *allow*) echo "$allow" ;;
esac
exit 0
"#;

/// Under `--strict` every failure of the user's Claude hook denies; silence and an allow
/// leave the decision to the host. Without `--strict` the same hook fails open.
#[test]
fn every_failure_of_a_strict_hook_denies() {
    let s = Setup::new();
    let probe = s.home.script("probe.sh", PROBE);
    s.strict_hook(probe.to_str().expect("utf-8"));
    for (command, code) in [
        ("crash", 2),
        ("hang", 2),
        ("exit1", 2),
        ("exit1allow", 2),
        ("binary", 2),
        ("array", 2),
        ("prose", 2),
        ("deny2", 2),
        ("allow", 0),
        ("quiet", 0),
    ] {
        let (got, report, stderr) = s.fire(true, command);
        assert_eq!(got, code, "{command}: {report}\n{stderr}");
        if code == 0 {
            assert_eq!(report["verdict"]["decision"], Value::Null, "{command}: {report}");
        }
    }
    // The same hook, read by Claude Code's own rules, fails open on a crash.
    let (got, report, stderr) = s.fire(false, "crash");
    assert_eq!(got, 0, "{report}\n{stderr}");
}

/// Under `--strict` a handler runs directly (argv), never through a shell; a command that
/// needs a shell breaks the contract and is never run.
#[test]
fn a_strict_hook_runs_without_a_shell_and_a_command_needing_one_denies_unrun() {
    let s = Setup::new();
    let argv =
        s.home.script("argv.sh", "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' \"$@\" > \"$0.out\"\n");
    let argv_s = argv.to_str().expect("utf-8");
    s.strict_hook(&format!("{argv_s} a=b  --flag=x,y"));
    let (got, report, stderr) = s.fire(true, "ls");
    assert_eq!(got, 0, "{report}\n{stderr}");
    let seen = std::fs::read_to_string(format!("{argv_s}.out")).expect("the hook ran");
    assert_eq!(seen, "a=b\n--flag=x,y\n");

    let marker = s.home.path().join("ran-through-a-shell");
    for command in [
        format!("{argv_s} x; touch {}", marker.display()),
        format!("{argv_s} $(touch {})", marker.display()),
        format!("touch {} && {argv_s}", marker.display()),
        format!("{argv_s} *"),
        format!("{argv_s} \"quoted\""),
        format!("{argv_s} ~/x"),
        format!("X=1 {argv_s}"),
    ] {
        std::fs::remove_file(format!("{argv_s}.out")).ok();
        s.strict_hook(&command);
        let (got, report, stderr) = s.fire(true, "ls");
        assert_eq!(got, 2, "{command}: {report}\n{stderr}");
        let reason = report["verdict"]["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("needs one"), "{command}: {reason}");
        assert!(!marker.exists(), "{command} ran through a shell");
        assert!(!Path::new(&format!("{argv_s}.out")).exists(), "{command} ran");
    }
    // A `shell` key asks for a shell: a violation too.
    let settings = json!({"hooks": {"version": 1, "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": argv_s, "shell": "bash"}]}
    ]}});
    s.home.write(".claude/settings.json", &settings.to_string());
    let (got, report, stderr) = s.fire(true, "ls");
    assert_eq!(got, 2, "{report}\n{stderr}");
}

/// Puts something at the settings file's path.
type MakeFile<'a> = Box<dyn Fn() + 'a>;

/// Under `--strict` a settings file the reader refuses, or that is not what the contract
/// reads, denies every gated event instead of reading as "no file".
#[test]
fn a_strict_settings_file_that_cannot_be_read_denies() {
    use std::os::unix::fs::symlink;
    let s = Setup::new();
    let path = s.settings_path();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir .claude");
    let reset = || {
        if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path).expect("remove dir");
        } else {
            std::fs::remove_file(&path).ok();
        }
    };
    let cases: Vec<(&str, MakeFile<'_>)> = vec![
        (
            "oversized",
            Box::new(|| {
                let f = std::fs::File::create(&path).expect("create");
                f.set_len(hooks_sources::MAX_SOURCE_BYTES + 1).expect("grow");
            }),
        ),
        (
            "a FIFO",
            Box::new(|| {
                let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
                assert!(made.success());
            }),
        ),
        ("a directory", Box::new(|| std::fs::create_dir(&path).expect("mkdir"))),
        (
            "a dangling symlink",
            Box::new(|| symlink(s.home.path().join("gone.json"), &path).expect("symlink")),
        ),
        ("a symlink loop", Box::new(|| symlink(&path, &path).expect("symlink"))),
        (
            "not UTF-8",
            Box::new(|| {
                std::fs::write(&path, b"{\"hooks\": {\"version\": 1, \"PreToolUse\": [{\"matcher\": \"B\xe4sh\", \"hooks\": []}]}}")
                    .expect("write")
            }),
        ),
        ("invalid JSON", Box::new(|| std::fs::write(&path, "{\"hooks\": ").expect("write"))),
        (
            "no contract version",
            Box::new(|| std::fs::write(&path, r#"{"hooks": {"PreToolUse": []}}"#).expect("write")),
        ),
    ];
    for (name, make) in cases {
        reset();
        make();
        let (got, report, stderr) = s.fire(true, "ls");
        assert_eq!(got, 2, "{name}: {report}\n{stderr}");
        let reason = report["verdict"]["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("violates the strict contract"), "{name}: {reason}");
        // Read by Claude Code's own rules, the same file runs nothing and denies nothing.
        let (got, report, stderr) = s.fire(false, "ls");
        assert_eq!(got, 0, "{name} without --strict: {report}\n{stderr}");
    }
    // No file at all is no hook, strict or not.
    reset();
    let (got, report, stderr) = s.fire(true, "ls");
    assert_eq!(got, 0, "{report}\n{stderr}");
}

/// A settings file the user cannot read denies under `--strict` (as root the check runs in a
/// child without capabilities, so the file's mode applies).
#[test]
fn a_strict_settings_file_without_read_permission_denies() {
    use std::os::unix::fs::PermissionsExt;
    let s = Setup::new();
    s.strict_hook("/bin/true");
    let path = s.settings_path();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // The unprivileged child must not be able to read it, or the test proves nothing.
    let (got, report, stderr) = s.fire_as(true, "ls", true);
    assert_eq!(got, 2, "{report}\n{stderr}");
    let reason = report["verdict"]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("cannot read hook file"), "{reason}");
    let (got, report, stderr) = s.fire_as(false, "ls", true);
    assert_eq!(got, 0, "without --strict: {report}\n{stderr}");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
}

/// `hooks serve --strict`: the same contract over the protocol.
#[test]
fn hooks_serve_strict_denies_on_a_hook_failure_and_on_an_unreadable_file() {
    let s = Setup::new();
    let probe = s.home.script("probe.sh", PROBE);
    s.strict_hook(probe.to_str().expect("utf-8"));
    let home = s.home.path().to_str().expect("utf-8");
    let mut child = hooks_command(
        s.project.path(),
        &["serve", "--stdio", "--strict", "--config-dir", home],
        s.state.path(),
        false,
    )
    .spawn()
    .expect("spawn hooks serve");
    let mut input = child.stdin.take().expect("stdin");
    let (tx, lines) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && tx.send(v).is_err()
            {
                return;
            }
        }
    });
    let mut answer = |id: u64, command: &str| -> Value {
        let request = json!({"id": id, "method": "fire", "params": {"envelope": {
            "event": "pre_tool_use",
            "cwd": s.project.path(),
            "tool": {"name": "Bash", "kind": "shell", "args": {"command": command}}
        }}});
        writeln!(input, "{request}").expect("request");
        input.flush().expect("flush");
        loop {
            let m = lines.recv_timeout(Duration::from_secs(20)).expect("an answer");
            if m["id"] == id {
                return m;
            }
        }
    };
    let crash = answer(1, "crash");
    assert_eq!(crash["result"]["verdict"]["decision"], "deny", "{crash}");
    let quiet = answer(2, "quiet");
    assert_eq!(quiet["result"]["verdict"]["decision"], Value::Null, "{quiet}");
    drop(input);
    let status = child.wait().expect("serve exits on stdin close");
    assert!(status.success(), "{status}");
    // A server started with the settings file turned into a FIFO reads it as malformed.
    std::fs::remove_file(s.settings_path()).expect("rm");
    let made = Command::new("mkfifo").arg(s.settings_path()).status().expect("mkfifo");
    assert!(made.success());
    let mut child = hooks_command(
        s.project.path(),
        &["serve", "--stdio", "--strict", "--config-dir", home],
        s.state.path(),
        false,
    )
    .spawn()
    .expect("spawn hooks serve");
    let mut input = child.stdin.take().expect("stdin");
    let request = json!({"id": 3, "method": "fire", "params": {"envelope": {
        "event": "pre_tool_use",
        "cwd": s.project.path(),
        "tool": {"name": "Bash", "kind": "shell", "args": {"command": "quiet"}}
    }}});
    writeln!(input, "{request}").expect("request");
    drop(input);
    let out = child.wait_with_output().expect("serve output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let fire = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|m| m["id"] == 3)
        .unwrap_or_else(|| panic!("no answer: {stdout}"));
    assert_eq!(fire["result"]["verdict"]["decision"], "deny", "{fire}");
}

/// Strict mode covers every format's hooks on gated events: a user Cursor hook that crashes
/// denies under `--strict` (its own rule, without `failClosed`, fails open).
#[test]
fn under_strict_mode_a_failing_hook_of_another_format_denies_too() {
    let s = Setup::new();
    let crash = s.home.script(
        "crash.sh",
        "#!/bin/sh
cat >/dev/null
kill -SEGV $$
",
    );
    let cursor = json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": crash}]}});
    s.home.write(".cursor/hooks.json", &cursor.to_string());
    let (got, report, stderr) = s.fire(true, "ls");
    assert_eq!(got, 2, "{report}\n{stderr}");
    let reason = report["verdict"]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("denies under strict mode"), "{reason}");
    let (got, report, stderr) = s.fire(false, "ls");
    assert_eq!(got, 0, "{report}\n{stderr}");
}

/// `RuntimeConfig::strict` turns on the whole contract, not only project-scope strictness:
/// the user's Claude settings are read strictly, a project's hooks stay inert on a run that
/// would activate them, and a hook's allow never relaxes the host's decision even when the
/// embedder chose a relaxing policy.
#[tokio::test]
async fn runtime_config_strict_turns_on_the_whole_contract() {
    use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId};
    use hooks_schema::{Decision, HookEvent, RelaxPolicy};
    use hooks_trust::{CommandExecutionPosture, Surface};

    let home = TestDir::new();
    let allow =
        home.script("allow.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"allow\"}'\n");
    let cursor = json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": allow}]}});
    home.write(".cursor/hooks.json", &cursor.to_string());
    let user_claude = json!({"hooks": {"version": 1, "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/true"}]}
    ]}});
    home.write(".claude/settings.json", &user_claude.to_string());
    let project = TestDir::new();
    project.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo project >&2; exit 2"}]}]}}"#,
    );

    for strict in [false, true] {
        let mut config = RuntimeConfig::new(Surface::CliRun);
        config.user_dirs = Some(hooks_sources::UserDirs::under_home(&config.formats, home.path()));
        config.relax = RelaxPolicy::AllowOverridesAll;
        config.strict = strict;
        let mut rt = HookRuntime::new(config);
        rt.handle(RuntimeEvent::WindowPosture {
            window: WindowId(1),
            posture: CommandExecutionPosture::AutoApproves,
        })
        .expect("posture");
        crate::support::detect_root(&mut rt, project.path());
        rt.pin_for_run().expect("pins");

        let snapshot = rt.snapshot();
        let user = crate::support::source_of(&snapshot, hooks_format_claude::USER_SETTINGS)
            .expect("the user's Claude settings");
        let read_strictly = user.definitions.iter().all(|d| d.native.get("strict").is_some());
        assert_eq!(read_strictly, strict, "strict {strict}");

        let envelope = crate::support::shell_call(project.path(), "ls");
        assert_eq!(envelope.event, HookEvent::PreToolUse);
        let report = rt.fire(&envelope).await;
        let handle = rt.fire_handle();
        if strict {
            // The project's deny is inert; the Cursor allow cannot relax the host's ask.
            assert_eq!(report.verdict.decision, Some(Decision::Allow), "{report:?}");
            assert_eq!(handle.decide(Decision::Ask, &report), Decision::Ask);
        } else {
            assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:?}");
        }
    }
}
