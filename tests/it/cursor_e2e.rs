//! End to end: Cursor hook files and shell scripts written the way Cursor users write them,
//! parsed by `hooks-format-cursor` and run by `hooks-dispatch` as real processes.

use std::path::Path;

use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext, FireReport, RunStatus, SkipReason};
use hooks_schema::{Binding, Decision, Envelope, HookEvent, ToolCall, ToolKind};
use serde_json::{Value, json};

use crate::support::{TestDir, project_bindings};

/// Parses `.cursor/hooks.json` of `dir` (written from `text`) into project bindings.
fn load(dir: &TestDir, text: &str) -> Vec<Binding> {
    let path = dir.write(".cursor/hooks.json", text);
    let bytes = std::fs::read(&path).expect("read hooks.json");
    let parsed = hooks_format_cursor::parse(&bytes, &path).expect("hooks.json parses");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    project_bindings(hooks_format_cursor::PROJECT_FILE, &path, dir.path(), parsed.definitions)
}

fn tool(name: &str, kind: ToolKind, args: Value) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.session_id = Some("conv-1".into());
    e.tool = Some(ToolCall {
        name: name.into(),
        kind,
        native_kind: None,
        call_id: Some("tc-1".into()),
        mcp_server: None,
        args,
    });
    e
}

fn shell(command: &str) -> Envelope {
    tool("Shell", ToolKind::Shell, json!({ "command": command }))
}

async fn fire(bindings: &[Binding], envelope: &Envelope) -> FireReport {
    let dispatcher = Dispatcher::new(DispatchConfig::default());
    let ctx = FireContext { agent_version: Some("2.1.0".into()), ..FireContext::default() };
    dispatcher.fire(bindings, envelope, &ctx).await
}

const BLOCK_RM: &str = r#"#!/bin/bash
# Block destructive deletes; allow everything else.
input=$(cat)
if echo "$input" | grep -q 'rm -rf'; then
  cat << EOF
{
  "permission": "deny",
  "user_message": "Destructive command blocked",
  "agent_message": "rm -rf is not allowed in this repository"
}
EOF
  exit 0
fi
echo '{ "permission": "allow" }'
"#;

#[tokio::test]
async fn a_shell_hook_blocks_rm_rf_and_allows_the_rest() {
    let dir = TestDir::new();
    dir.script(".cursor/hooks/block-rm.sh", BLOCK_RM);
    let bindings = load(
        &dir,
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/block-rm.sh" } ] } }"#,
    );

    let report = fire(&bindings, &shell("rm -rf /tmp/build")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("rm -rf is not allowed in this repository"));
    let decided = report.verdict.decided_by.as_ref().expect("a deciding hook");
    assert_eq!(decided.hook_id.as_str(), "beforeShellExecution[0]");
    assert_eq!(decided.line, Some(1));
    let messages: Vec<&str> =
        report.verdict.user_messages.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(messages, ["Destructive command blocked"]);

    let report = fire(&bindings, &shell("ls -la")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Allow), "{report:#?}");

    // The shell hook does not run for a file read: the narrowing is in the matcher.
    let read = tool("Read", ToolKind::FileRead, json!({ "file_path": "/etc/hosts" }));
    let report = fire(&bindings, &read).await;
    assert_eq!(report.verdict.decision, None);
    assert_eq!(report.runs[0].status, RunStatus::Skipped(SkipReason::NoMatch));
}

#[tokio::test]
async fn a_read_hook_denies_dot_env_files() {
    let dir = TestDir::new();
    dir.script(
        ".cursor/hooks/no-env.sh",
        r#"#!/bin/bash
input=$(cat)
if echo "$input" | grep -Eq '"file_path": *"[^"]*\.env"'; then
  echo '{"permission": "deny", "user_message": "Reading .env files is blocked"}'
else
  echo '{"permission": "allow"}'
fi
"#,
    );
    let bindings = load(
        &dir,
        r#"{
  "version": 1,
  "hooks": {
    "beforeReadFile": [
      { "command": ".cursor/hooks/no-env.sh", "failClosed": true }
    ]
  }
}"#,
    );
    let read = |p: &Path| tool("read_file", ToolKind::FileRead, json!({ "target_file": p }));

    let report = fire(&bindings, &read(&dir.path().join(".env"))).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("Reading .env files is blocked"));

    let report = fire(&bindings, &read(&dir.path().join("README.md"))).await;
    assert_eq!(report.verdict.decision, Some(Decision::Allow), "{report:#?}");
}

#[tokio::test]
async fn a_pre_tool_hook_rewrites_the_command_for_later_hooks() {
    let dir = TestDir::new();
    dir.script(
        ".cursor/hooks/npm-ci.sh",
        r#"#!/bin/bash
input=$(cat)
if echo "$input" | grep -q '"command":"npm install"'; then
  echo '{"permission": "allow", "updated_input": {"command": "npm ci"}}'
fi
exit 0
"#,
    );
    // A second hook records what it was given, and where it ran.
    dir.script(
        ".cursor/hooks/record.sh",
        "#!/bin/bash\ncat > \"$CURSOR_PROJECT_DIR/seen.json\"\npwd > seen-cwd.txt\n",
    );
    let bindings = load(
        &dir,
        r#"{
  "version": 1,
  "hooks": {
    "preToolUse": [ { "command": ".cursor/hooks/npm-ci.sh", "matcher": "Shell" } ],
    "beforeShellExecution": [ { "command": ".cursor/hooks/record.sh" } ]
  }
}"#,
    );
    let report = fire(&bindings, &shell("npm install")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Allow), "{report:#?}");
    assert_eq!(report.verdict.updated_args, Some(json!({ "command": "npm ci" })));
    let rewriters: Vec<&str> =
        report.verdict.rewritten_by.iter().map(|p| p.hook_id.as_str()).collect();
    assert_eq!(rewriters, ["preToolUse[0]"]);

    let seen = std::fs::read_to_string(dir.path().join("seen.json")).expect("the second hook ran");
    let seen: Value = serde_json::from_str(&seen).expect("its stdin was JSON");
    assert_eq!(seen["hook_event_name"], "beforeShellExecution");
    assert_eq!(seen["command"], "npm ci");
    assert_eq!(seen["conversation_id"], "conv-1");
    assert_eq!(seen["cursor_version"], "2.1.0");
    let cwd = std::fs::read_to_string(dir.path().join("seen-cwd.txt")).expect("cwd recorded");
    assert_eq!(Path::new(cwd.trim()), dir.path());
}

#[tokio::test]
async fn exit_code_two_denies_with_the_stderr_reason() {
    let dir = TestDir::new();
    dir.script(
        ".cursor/hooks/no-push.sh",
        "#!/bin/bash\ncat > /dev/null\necho \"Pushing to main is not allowed\" >&2\nexit 2\n",
    );
    let bindings = load(
        &dir,
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/no-push.sh", "matcher": "git push" } ] } }"#,
    );
    let report = fire(&bindings, &shell("git push origin main")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("Pushing to main is not allowed"));

    // The matcher keeps the hook from running at all for other commands.
    let report = fire(&bindings, &shell("git status")).await;
    assert_eq!(report.runs[0].status, RunStatus::Skipped(SkipReason::NoMatch));
}

#[tokio::test]
async fn a_hook_past_its_timeout_fails_open_unless_fail_closed() {
    let dir = TestDir::new();
    dir.script(
        ".cursor/hooks/slow.sh",
        "#!/bin/bash\ncat > /dev/null\nsleep 30\necho '{\"permission\": \"allow\"}'\n",
    );
    let open = load(
        &dir,
        r#"{ "version": 1, "hooks": { "preToolUse": [ { "command": ".cursor/hooks/slow.sh", "timeout": 0.5 } ] } }"#,
    );
    let started = std::time::Instant::now();
    let report = fire(&open, &shell("ls")).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "the hook was killed");
    assert_eq!(report.verdict.decision, None, "{report:#?}");
    let run = report.runs.first().expect("one run");
    assert!(run.outcome.as_ref().is_some_and(|o| o.timed_out), "{run:#?}");
    let verdict = run.verdict.as_ref().expect("decoded");
    assert_eq!(verdict.failure.as_deref(), Some("timed out after 0.5 s"));

    let closed = load(
        &dir,
        r#"{ "version": 1, "hooks": { "preToolUse": [ { "command": ".cursor/hooks/slow.sh", "timeout": 0.5, "failClosed": true } ] } }"#,
    );
    let report = fire(&closed, &shell("ls")).await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(
        report.verdict.reason.as_deref(),
        Some("hook preToolUse[0] failed (timed out after 0.5 s) and is failClosed")
    );
}

/// Redacts passwords from an MCP tool's output. Cursor sends `tool_output` as a JSON string;
/// the hook answers with the parsed output, every `password=…` value replaced.
const REDACT_MCP: &str = r#"import json, re, sys
data = json.load(sys.stdin)
output = json.loads(data["tool_output"])
text = re.sub(r'password=[^"\s]+', "password=[REDACTED]", json.dumps(output))
print(json.dumps({"updated_mcp_tool_output": json.loads(text), "additional_context": "redacted"}))
"#;

#[tokio::test]
async fn a_post_tool_hook_redacts_a_secret_from_an_mcp_tools_output() {
    let dir = TestDir::new();
    let script = dir.write("hooks/redact.py", REDACT_MCP);
    let python =
        if Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
    let hooks = json!({"version": 1, "hooks": {"postToolUse": [
        {"command": format!("{python} {}", script.display())}
    ]}});
    let bindings = load(&dir, &hooks.to_string());
    let secret_output = json!({"content": [{"type": "text", "text": "user=ci password=hunter2"}]});
    let post = |mut e: Envelope| {
        e.event = HookEvent::PostToolUse;
        e.result = Some(hooks_schema::ToolResult {
            output: Some(secret_output.clone()),
            ..hooks_schema::ToolResult::default()
        });
        e
    };
    let mut mcp = tool("get_credentials", ToolKind::Mcp, json!({"name": "ci"}));
    if let Some(t) = mcp.tool.as_mut() {
        t.mcp_server = Some("vault".into());
    }

    let report = fire(&bindings, &post(mcp)).await;
    assert_eq!(
        report.verdict.updated_output,
        Some(json!({"content": [{"type": "text", "text": "user=ci password=[REDACTED]"}]})),
        "{report:#?}"
    );
    assert_eq!(
        report.verdict.output_rewritten_by.as_ref().map(|p| p.hook_id.as_str()),
        report.runs.first().map(|r| r.provenance.hook_id.as_str())
    );
    assert_eq!(report.verdict.context.len(), 1);

    // Cursor rewrites only MCP tools' output: for a shell tool the rewrite is noted and dropped.
    let report = fire(&bindings, &post(shell("cat .env"))).await;
    assert_eq!(report.verdict.updated_output, None, "{report:#?}");
    assert_eq!(report.verdict.output_rewritten_by, None);
    let run = report.runs[0].verdict.as_ref().expect("the hook ran");
    assert!(run.notes.iter().any(|n| n.contains("the tool is not an MCP tool")), "{:?}", run.notes);
}
