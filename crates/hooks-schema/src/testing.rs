//! Helpers for the tests of a format's codec and parser (feature `testing`, for
//! dev-dependencies only): an encode context for a project, a pre-tool envelope, an outcome
//! from captured text, a verdict rendered as one line for golden tables, and a parse result
//! rendered for golden files ([`GoldenParse`]).
//!
//! They live here, not in `hooks-testing`, because the adapter crates sit below
//! `hooks-testing` in the layering (`cargo xtask check-layers`: edges point down, and
//! `hooks-testing` depends on adapters), and every codec test needs the same three.

use std::{fmt::Write as _, path::Path, time::Duration};

use crate::{
    CapturedOutput, EncodeContext, Envelope, ExitInfo, HookDefinition, HookEvent, HookSourceId,
    HookVerdict, ParseResult, RawOutcome, ToolCall, ToolKind,
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

/// A `PostToolUse` envelope of a shell command (`Bash`, `{"command": command}`) that ran to
/// its end with `exit_code` after printing `output`, in session `s` in `/p`.
pub fn shell_ran(command: &str, output: &str, exit_code: i32) -> Envelope {
    let mut e = pre_tool_use("Bash", ToolKind::Shell, serde_json::json!({ "command": command }));
    e.event = HookEvent::PostToolUse;
    e.session_id = Some("s".to_owned());
    e.cwd = Some("/p".into());
    e.result = Some(crate::ToolResult {
        text: Some(output.to_owned()),
        exit_code: Some(exit_code),
        ..crate::ToolResult::default()
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

/// How a format's parse golden files write what every format's documents have; each format
/// writes its own fields of a definition itself ([`GoldenParse::render`]).
#[derive(Debug, Clone, Copy)]
pub struct GoldenParse {
    /// The text of a matcher that matches everything (`*`, `(all)`).
    pub all_matcher: &'static str,
    /// Whether the document's policy switches are written (`policy: <key> <rule> on=<bool>`).
    pub policy: bool,
    /// Whether a diagnostic's detail is written after it (`  revealed: <detail>`).
    pub revealed: bool,
    /// The unit of the line that gives a definition's timeout, failure policy, mode and whether
    /// it is enabled, written after its command; `None`: the format writes its own.
    pub run_line: Option<TimeoutUnit>,
}

/// How [`GoldenParse::run_line`] writes a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutUnit {
    /// Seconds, with a fraction when there is one (`timeout=1.5s`).
    Seconds,
    /// Whole milliseconds (`timeout=1500ms`).
    Millis,
}

impl GoldenParse {
    /// `result` as a golden file: `rejected` when the document was refused; else each
    /// definition's id, event, position, matcher and command (and its run line), then what
    /// `fields` writes for it, then the document's settings (and policy switches); last, one
    /// line per diagnostic with its code and hook.
    pub fn render(
        &self,
        result: &ParseResult,
        fields: impl Fn(&HookDefinition, &mut String),
    ) -> String {
        let mut out = String::new();
        let diags = match result {
            Err(diags) => {
                out.push_str("rejected\n");
                diags
            }
            Ok(parsed) => {
                for d in &parsed.definitions {
                    let _ = writeln!(
                        out,
                        "{} {} ({}) at {}:{} order={}",
                        d.id,
                        d.event,
                        d.native_event,
                        d.line.unwrap_or(0),
                        d.column.unwrap_or(0),
                        d.order
                    );
                    let _ = writeln!(
                        out,
                        "  matcher: {}",
                        d.matcher.text().unwrap_or(self.all_matcher)
                    );
                    let _ = writeln!(out, "  command: {:?}", d.command);
                    if let Some(unit) = self.run_line {
                        let timeout = match unit {
                            TimeoutUnit::Seconds => format!("{}s", d.timeout.as_secs_f64()),
                            TimeoutUnit::Millis => format!("{}ms", d.timeout.as_millis()),
                        };
                        let _ = writeln!(
                            out,
                            "  timeout={timeout} on_failure={} mode={} enabled={}",
                            d.on_failure.as_str(),
                            d.mode.as_str(),
                            d.enabled
                        );
                    }
                    fields(d, &mut out);
                }
                if !parsed.settings.is_empty() {
                    let settings = serde_json::Value::Object(parsed.settings.clone());
                    let _ = writeln!(out, "settings: {settings}");
                }
                if self.policy {
                    for s in &parsed.policy.switches {
                        let _ = writeln!(out, "policy: {} {:?} on={}", s.key, s.rule, s.on);
                    }
                }
                &parsed.diagnostics
            }
        };
        for d in diags {
            let _ = write!(out, "{d} [{}]", d.code.as_deref().unwrap_or("-"));
            if self.revealed
                && let Some(detail) = &d.detail
            {
                let _ = write!(out, "\n  revealed: {detail}");
            }
            if let Some(id) = &d.hook_id {
                let _ = write!(out, " ({id})");
            }
            out.push('\n');
        }
        out
    }
}
