//! Helpers for the tests of a format's codec (feature `testing`, for dev-dependencies only):
//! an encode context for a project, a pre-tool envelope, an outcome from captured text, and a
//! verdict rendered as one line for golden tables.
//!
//! They live here, not in `hooks-testing`, because the adapter crates sit below
//! `hooks-testing` in the layering (`cargo xtask check-layers`: edges point down, and
//! `hooks-testing` depends on adapters), and every codec test needs the same three.

use std::{fmt::Write as _, path::Path, time::Duration};

use crate::{
    CapturedOutput, EncodeContext, Envelope, ExitInfo, HookEvent, HookSourceId, HookVerdict,
    RawOutcome, ToolCall, ToolKind,
};

/// An encode context for `source` placed in the project `dir` (its working directory and
/// project directory), with nothing else set.
pub fn encode_context<'a>(source: &'a HookSourceId, dir: &'a Path) -> EncodeContext<'a> {
    EncodeContext {
        source,
        working_dir: dir,
        project_dir: Some(dir),
        config_dir: None,
        user_shell: None,
        agent_version: None,
        session_env: &[],
    }
}

/// A `PreToolUse` envelope of the tool `name` of `kind` called with `args`, with nothing else
/// set (no call id, no MCP server).
pub fn pre_tool_use(name: &str, kind: ToolKind, args: serde_json::Value) -> Envelope {
    let mut e = Envelope::new(HookEvent::PreToolUse);
    e.tool = Some(ToolCall {
        name: name.to_owned(),
        kind,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args,
    });
    e
}

/// An outcome that ended with `exit`, with `stdout` and `stderr` captured whole, not timed
/// out, 5 ms long.
pub fn raw_outcome(exit: ExitInfo, stdout: &str, stderr: &str) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out: false,
        stdout: CapturedOutput::whole(stdout.as_bytes().to_vec()),
        stderr: CapturedOutput::whole(stderr.as_bytes().to_vec()),
        result_file: None,
        duration: Duration::from_millis(5),
    }
}

/// A verdict as one line for a golden table: each field that is set, in a fixed order
/// (` decision=deny reason="…" … note="…"`), or ` no opinion`.
pub fn render_verdict(v: &HookVerdict) -> String {
    let mut out = String::new();
    if let Some(d) = v.decision {
        let _ = write!(out, " decision={}", d.as_str());
    }
    if let Some(r) = &v.reason {
        let _ = write!(out, " reason={r:?}");
    }
    if let Some(r) = &v.rewrite {
        let _ = write!(out, " rewrite={r:?}");
    }
    if let Some(o) = &v.updated_output {
        let _ = write!(out, " updated_output={o}");
    }
    for c in &v.context {
        let _ = write!(out, " context={c:?}");
    }
    for (k, m) in [
        ("user_message", &v.user_message),
        ("followup", &v.followup),
        ("halt", &v.halt),
        ("failure", &v.failure),
    ] {
        if let Some(m) = m {
            let _ = write!(out, " {k}={m:?}");
        }
    }
    for n in &v.notes {
        let _ = write!(out, " note={n:?}");
    }
    if out.is_empty() { " no opinion".to_owned() } else { out }
}
