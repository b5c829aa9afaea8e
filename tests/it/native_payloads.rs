//! Every agent's own hook input, as it sent it (recorded from the real CLIs: Claude Code,
//! Codex, Gemini CLI, Copilot CLI) or as its documentation shows it (Cursor, Windsurf), fired
//! with `hooks fire --from <agent>` and with the serve `fire` request's `from`/`input`: decoded
//! by the agent's host codec, as `hooks bridge` decodes it (issue 20, "Native payloads
//! everywhere").

use std::path::Path;

use hooks_app::serve::{ErrorCode, Request, parse_request};
use serde_json::{Value, json};

use crate::{cli::hooks_in_env, support::TestDir};

/// The recorded or documented pre-tool shell call of each agent: the agent, the file (under
/// `crates/`), where in it the input is, where the command and the directory are in the
/// input, and the event for agents whose input names none.
pub struct Sample {
    agent: &'static str,
    file: &'static str,
    input_at: &'static str,
    command_at: &'static str,
    cwd_at: &'static str,
    event: Option<&'static str>,
}

pub const SAMPLES: [Sample; 6] = [
    Sample {
        agent: "claude",
        file: "hooks-format-claude/test_data/host/payloads/03_PreToolUse_Bash.json",
        input_at: "",
        command_at: "/tool_input/command",
        cwd_at: "/cwd",
        event: None,
    },
    Sample {
        agent: "codex",
        file: "hooks-format-codex/test_data/codec/payloads.json",
        input_at: "/4/stdin",
        command_at: "/tool_input/command",
        cwd_at: "/cwd",
        event: None,
    },
    Sample {
        agent: "gemini",
        file: "hooks-format-gemini/test_data/payloads/07_BeforeTool_run_shell_command.json",
        input_at: "",
        command_at: "/tool_input/command",
        cwd_at: "/cwd",
        event: None,
    },
    Sample {
        agent: "copilot",
        file: "hooks-format-copilot/test_data/payloads/03_camel_preToolUse_bash.json",
        input_at: "/stdin",
        command_at: "/toolArgs/command",
        cwd_at: "/cwd",
        event: Some("preToolUse"),
    },
    Sample {
        agent: "cursor",
        file: "hooks-format-cursor/test_data/host/before_shell_execution.json",
        input_at: "",
        command_at: "/command",
        cwd_at: "/cwd",
        event: None,
    },
    Sample {
        agent: "windsurf",
        file: "hooks-format-windsurf/test_data/payloads/05_pre_run_command.json",
        input_at: "",
        command_at: "/tool_info/command_line",
        cwd_at: "/tool_info/cwd",
        event: None,
    },
];

impl Sample {
    /// The agent's input with `command` run in `cwd`.
    pub fn input(&self, cwd: &Path, command: &str) -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates").join(self.file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let all: Value = serde_json::from_str(&text).expect("JSON");
        let mut input = all.pointer(self.input_at).cloned().expect("the input");
        *input.pointer_mut(self.command_at).expect("the command") = json!(command);
        *input.pointer_mut(self.cwd_at).expect("the directory") = json!(cwd);
        input
    }
}

/// A repository whose Cursor hook denies `rm -rf` with a reason, trusted by the run's posture.
fn repo() -> TestDir {
    let repo = TestDir::new();
    std::fs::create_dir(repo.path().join(".git")).expect(".git");
    repo.script(
        ".cursor/no-rm.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\",\"agent_message\":\"the repository forbids rm -rf\"}' ;; *) echo '{\"permission\":\"allow\"}' ;; esac\n",
    );
    repo.write(
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/no-rm.sh"}]}}"#,
    );
    repo
}

#[test]
fn hooks_fire_from_decodes_every_agents_own_input() {
    let repo = repo();
    let home = TestDir::new();
    let root = repo.path().to_str().expect("utf-8");
    for s in &SAMPLES {
        let fire = |command: &str| {
            let input = s.input(repo.path(), command);
            let mut args = vec!["fire", "--from", s.agent, "--posture", "auto-approves"];
            args.extend(["--root", root, "--json", "--payload", "-"]);
            args.extend(s.event);
            let out =
                hooks_in_env(repo.path(), &args, &input.to_string(), &[("HOME", home.path())]);
            let v: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{}: {e}: {out:?}", s.agent));
            (out.status.code(), v)
        };
        let (code, v) = fire("rm -rf build && touch ran.txt");
        assert_eq!(code, Some(2), "{}: {v}", s.agent);
        assert_eq!(v["verdict"]["decision"], "deny", "{}: {v}", s.agent);
        assert_eq!(v["verdict"]["reason"], "the repository forbids rm -rf", "{}: {v}", s.agent);
        let (code, v) = fire("touch ran.txt");
        assert_eq!(code, Some(0), "{}: {v}", s.agent);
        assert_eq!(v["runs"][0]["status"], "ran", "{}: the hook ran and allowed: {v}", s.agent);
    }
}

#[test]
fn hooks_fire_from_says_what_is_wrong_with_an_input() {
    let repo = repo();
    let claude = SAMPLES[0].input(repo.path(), "ls").to_string();
    let fire = |args: &[&str], stdin: &str| {
        let out = hooks_in_env(repo.path(), args, stdin, &[]);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // The envelope form still refuses an agent's input (what the issue saw), and says why.
    let (code, err) = fire(&["fire", "PreToolUse", "--payload", "-"], &claude);
    assert_ne!(code, Some(0));
    assert!(err.contains("not an envelope"), "{err}");
    let (code, err) = fire(&["fire", "Stop", "--from", "claude"], &claude);
    assert_ne!(code, Some(0));
    assert!(err.contains("is a `PreToolUse` event, not `Stop`"), "{err}");
    let (code, err) = fire(&["fire", "--from", "nope"], &claude);
    assert_ne!(code, Some(0));
    assert!(err.contains("unknown format `nope`"), "{err}");
    let (code, err) = fire(&["fire", "--from", "claude"], "{\"tool_name\": 1}");
    assert_ne!(code, Some(0));
    assert!(err.contains("not claude's hook input"), "{err}");
    // Copilot CLI's camelCase input names no event: it must be given.
    let copilot = SAMPLES[3].input(repo.path(), "ls").to_string();
    let (code, err) = fire(&["fire", "--from", "copilot"], &copilot);
    assert_ne!(code, Some(0));
    assert!(err.contains("not copilot's hook input"), "{err}");
    let (code, err) = fire(&["fire", "pre_tool_use", "--from", "copilot", "--dry-run"], &copilot);
    assert_eq!(code, Some(0), "a canonical event names the agent's own: {err}");
}

#[test]
fn the_serve_fire_request_takes_every_agents_own_input() {
    let repo = repo();
    for s in &SAMPLES {
        let input = s.input(repo.path(), "rm -rf build");
        let mut params = json!({ "from": s.agent, "input": input });
        if let Some(e) = s.event {
            params["event"] = json!(e);
        }
        let line = json!({ "id": 1, "method": "fire", "params": params }).to_string();
        let (_, req) =
            parse_request(line.as_bytes()).unwrap_or_else(|e| panic!("{}: {e:?}", s.agent));
        let Request::Fire { envelope, .. } = req else { panic!("{}: not a fire", s.agent) };
        assert_eq!(envelope.event.as_str(), "pre_tool_use", "{}", s.agent);
        assert_eq!(envelope.cwd.as_deref(), Some(repo.path()), "{}", s.agent);
        let tool = envelope.tool.as_ref().expect("a tool call");
        assert!(tool.args.to_string().contains("rm -rf build"), "{}: {tool:?}", s.agent);
    }
    let bad = [
        json!({ "from": "claude" }),
        json!({ "input": {} }),
        json!({ "envelope": { "event": "stop" }, "from": "claude", "input": {} }),
        json!({ "from": "nope", "input": {} }),
        json!({ "from": "claude", "input": { "hook_event_name": "PreToolUse", "cwd": 3 } }),
        json!({ "from": "copilot", "input": { "sessionId": "s", "toolName": "bash" } }),
    ];
    for params in bad {
        let line = json!({ "id": 2, "method": "fire", "params": params }).to_string();
        let e = parse_request(line.as_bytes()).expect_err("invalid");
        assert_eq!(e.code, ErrorCode::InvalidParams, "{params}: {e:?}");
        assert!(e.message.starts_with("invalid params for `fire`"), "{e:?}");
    }
}
