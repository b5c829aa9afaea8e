//! Embedding the runtime: build a `HookRuntime` with a chosen set of formats (Cursor only
//! here), hand it a project root, pin the run, fire a shell tool call and print the verdict.
//!
//! `cargo run -p hooks-app --example embed` creates a throw-away project whose
//! `.cursor/hooks.json` runs a script that denies `rm -rf`, and fires two tool calls.

use std::{os::unix::fs::PermissionsExt, path::Path};

use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId};
use hooks_schema::{Envelope, FormatSet, HookEvent, ToolCall, ToolKind};
use hooks_sources::UserDirs;
use hooks_trust::{CommandExecutionPosture, Surface};
use hooks_watcher::RootOrigin;

const HOOKS_JSON: &str = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny-rm.sh", "timeout": 5}]}}"#;
const DENY_RM_SH: &str = "#!/bin/sh\ncase \"$(cat)\" in\n  *'rm -rf'*) echo '{\"permission\":\"deny\",\"user_message\":\"no rm -rf here\"}' ;;\n  *) echo '{\"permission\":\"allow\"}' ;;\nesac\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A project with one Cursor hook, and an empty home (no user hook files).
    let project = tempfile::tempdir()?;
    let home = tempfile::tempdir()?;
    std::fs::create_dir(project.path().join(".cursor"))?;
    std::fs::write(project.path().join(".cursor/hooks.json"), HOOKS_JSON)?;
    let script = project.path().join(".cursor/deny-rm.sh");
    std::fs::write(&script, DENY_RM_SH)?;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))?;

    // The formats this product reads: Cursor's alone (the workspace registers all of them in
    // `hooks_app::formats::workspace_formats`).
    let formats = FormatSet::new(vec![hooks_format_cursor::descriptor()]);
    let mut config = RuntimeConfig::with_formats(Surface::CliRun, formats.clone());
    config.user_dirs = Some(UserDirs::under_home(&formats, home.path()));
    let mut runtime = HookRuntime::new(config);

    // The product tells the runtime what it sees: a repository, a window's posture.
    let root = project.path().to_path_buf();
    runtime.handle(RuntimeEvent::RepositoryDetected {
        root: root.clone(),
        origin: RootOrigin::TerminalNavigation,
    })?;
    runtime.handle(RuntimeEvent::WindowPosture {
        window: WindowId(1),
        posture: CommandExecutionPosture::AutoApproves,
    })?;
    // The runtime prints nothing: what it has to say comes back to the caller.
    for advisory in runtime.new_advisories() {
        eprintln!("advisory: {advisory}");
    }
    runtime.pin_for_run()?;

    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let fire = runtime.fire_handle();
    for command in ["cargo test", "rm -rf target"] {
        let report = tokio.block_on(fire.fire(&shell_call(&root, command)));
        let verdict = &report.verdict;
        let decision =
            verdict.decision.map_or("allow (no decision)".to_owned(), |d| format!("{d:?}"));
        println!("{command:<14} -> {decision} ({} hook run(s))", report.runs.len());
        if let Some(by) = &verdict.decided_by {
            println!("{:14}    decided by {} in {}", "", by.hook_id, by.source.path);
        }
    }
    tokio.block_on(runtime.drain(std::time::Duration::from_secs(5)));
    Ok(())
}

/// The canonical envelope of a shell tool call in `cwd`.
fn shell_call(cwd: &Path, command: &str) -> Envelope {
    let mut envelope = Envelope::new(HookEvent::PreToolUse);
    envelope.cwd = Some(cwd.to_path_buf());
    envelope.tool = Some(ToolCall {
        name: "run_shell_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("call-1".into()),
        mcp_server: None,
        args: serde_json::json!({ "command": command }),
    });
    envelope
}
