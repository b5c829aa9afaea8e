//! `hooks replay`: a recorded session through the runtime, call by call.
//!
//! The first exchange pins the run (and fires session start at that barrier); each prompt
//! fires prompt submit; each tool call fires pre-tool-use hooks, and when they allow it, file
//! edits go through the guard and the recorded result fires post-tool-use hooks. The replay
//! assumes the host itself allowed every call (it was recorded as executed), so every
//! refusal in the table comes from a hook or from the guard.

use std::{
    io::{IsTerminal, Write},
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::Result;
use hooks_dispatch::FireReport;
use hooks_guard::{EditApproval, EditContext};
use hooks_schema::{Decision, Envelope, HookEvent, SessionInfo};
use serde_json::{Value, json};

use hooks_app::runtime::FireHandle;

use crate::{
    cli::ReplayArgs,
    setup,
    transcript::{ReplayStep, edited_paths, parse_session},
};

/// What happened to one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CallOutcome {
    /// Hooks allowed it (or had no opinion).
    Allowed,
    /// Hooks allowed it after rewriting its arguments.
    Rewritten,
    /// A hook asked for the user's approval.
    Ask,
    /// A hook denied it.
    Denied,
    /// The guard refused the file edit.
    Guarded,
}

impl CallOutcome {
    fn as_str(&self) -> &'static str {
        match self {
            CallOutcome::Allowed => "allowed",
            CallOutcome::Rewritten => "rewritten",
            CallOutcome::Ask => "ask",
            CallOutcome::Denied => "denied",
            CallOutcome::Guarded => "guarded",
        }
    }
}

/// One row of the replay table.
#[derive(Debug, Clone)]
pub struct CallRow {
    /// 1-based position among the tool calls.
    pub index: usize,
    /// The tool's name.
    pub tool: String,
    /// A one-line summary of its arguments.
    pub args: String,
    /// What happened.
    pub outcome: CallOutcome,
    /// Who decided, and why.
    pub decided_by: Option<String>,
    /// The reason given.
    pub reason: Option<String>,
    /// The rewritten arguments, when rewritten.
    pub rewritten: Option<Value>,
    /// Hook processes run for this call (pre and post).
    pub hooks_run: usize,
    /// Time spent in hooks for this call.
    pub elapsed: Duration,
}

/// Replaces the recorded working directory with the replay's in `value`, wherever a string
/// is that directory or lies under it.
pub fn rebase_value(value: &mut Value, from: &Path, to: &Path) {
    match value {
        Value::String(s) => {
            if let Some(new) = rebase_str(s, from, to) {
                *s = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rebase_value(v, from, to)),
        Value::Object(map) => map.values_mut().for_each(|v| rebase_value(v, from, to)),
        _ => {}
    }
}

fn rebase_str(s: &str, from: &Path, to: &Path) -> Option<String> {
    let from = from.to_str()?;
    let rest = s.strip_prefix(from)?;
    (rest.is_empty() || rest.starts_with('/')).then(|| format!("{}{rest}", to.display()))
}

fn rebase_envelope(e: &mut Envelope, from: Option<&Path>, to: &Path) {
    if let Some(from) = from {
        if let Some(cwd) = &e.cwd
            && let Some(new) = cwd.to_str().and_then(|c| rebase_str(c, from, to))
        {
            e.cwd = Some(PathBuf::from(new));
        }
        if let Some(t) = &mut e.tool {
            rebase_value(&mut t.args, from, to);
        }
    }
    if e.cwd.as_deref().is_none_or(|c| !c.exists()) {
        e.cwd = Some(to.to_path_buf());
    }
}

fn summarize_args(args: &Value) -> String {
    let text = ["command", "file_path", "path", "pattern", "url", "query"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| args.to_string());
    let one_line = text.replace('\n', " ");
    if one_line.chars().count() > 48 {
        format!("{}…", one_line.chars().take(47).collect::<String>())
    } else {
        one_line
    }
}

fn hooks_ran(r: &FireReport) -> usize {
    r.runs.iter().filter(|r| r.outcome.is_some()).count()
}

async fn replay_call(
    handle: &FireHandle,
    index: usize,
    mut pre: Envelope,
    post: Option<Envelope>,
    cwd: &Path,
) -> CallRow {
    let started = Instant::now();
    let tool = pre.tool.clone().unwrap_or_else(|| hooks_schema::ToolCall {
        name: "?".into(),
        kind: hooks_schema::ToolKind::Other,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: Value::Null,
    });
    let report = handle.fire(&pre).await;
    let mut hooks_run = hooks_ran(&report);
    let decision = handle.decide(Decision::Allow, &report);
    let v = &report.verdict;
    let who = |p: &hooks_schema::Provenance| {
        let file = p.source.path.as_path();
        let file = file.strip_prefix(cwd).unwrap_or(file);
        format!(
            "{} ({}{})",
            p.hook_id,
            file.display(),
            p.line.map(|l| format!(":{l}")).unwrap_or_default()
        )
    };
    let mut row = CallRow {
        index,
        tool: tool.name.clone(),
        args: summarize_args(&tool.args),
        outcome: CallOutcome::Allowed,
        decided_by: v.decided_by.as_ref().map(who),
        reason: v.reason.clone(),
        rewritten: v.updated_args.clone(),
        hooks_run,
        elapsed: Duration::ZERO,
    };
    match decision {
        Decision::Deny => row.outcome = CallOutcome::Denied,
        Decision::Ask => row.outcome = CallOutcome::Ask,
        Decision::Allow => {
            if let (Some(args), Some(t)) = (&v.updated_args, &mut pre.tool) {
                t.args = args.clone();
                row.outcome = CallOutcome::Rewritten;
                row.decided_by = v.rewritten_by.last().map(who);
            }
            let paths: Vec<PathBuf> = pre
                .tool
                .as_ref()
                .map(edited_paths)
                .unwrap_or_default()
                .into_iter()
                .map(PathBuf::from)
                .collect();
            let edit = EditContext {
                sandboxed: false,
                auto_approve_writes: true,
                conversation_auto_approves_all: true,
            };
            if !paths.is_empty()
                && let EditApproval::Guarded(d) = handle.approve_edit(&paths, cwd, edit)
            {
                row.outcome = CallOutcome::Guarded;
                row.decided_by = d.hits().first().map(|h| {
                    let file = h.protected.as_path();
                    format!(
                        "guard: {} is protected",
                        file.strip_prefix(cwd).unwrap_or(file).display()
                    )
                });
                row.reason = Some(d.hits().first().map_or_else(|| d.to_string(), |h| {
                    format!("protected by {} ({}); the agent may not edit hook files or their scripts", h.source.path, h.source.kind)
                }));
            } else if let Some(mut post) = post {
                post.tool.clone_from(&pre.tool);
                let r = handle.fire(&post).await;
                hooks_run += hooks_ran(&r);
            }
        }
    }
    row.hooks_run = hooks_run;
    row.elapsed = started.elapsed();
    row
}

/// Runs `hooks replay`.
pub fn run(a: &ReplayArgs, colour: bool) -> Result<u8> {
    let text = super::input::read_file(&a.session, super::input::MAX_SESSION_BYTES, "the session")?;
    let session = parse_session(&text);
    let mut built = setup::build(&a.runtime, setup::Watch::Watched)?;
    setup::warn_new_advisories(&mut built.runtime);
    let recorded_cwd = session.steps.iter().find_map(|s| match s {
        ReplayStep::Prompt(e) | ReplayStep::Event(e) | ReplayStep::ToolCall { pre: e, .. } => {
            e.cwd.clone()
        }
    });
    let cwd = a
        .cwd
        .as_ref()
        .map(|c| setup::absolute(c, &built.process_cwd))
        .or_else(|| built.roots.first().cloned())
        .or_else(|| recorded_cwd.clone())
        .unwrap_or_else(|| built.process_cwd.clone());
    let from = recorded_cwd.as_deref().filter(|r| *r != cwd);
    let total = session.steps.iter().filter(|s| matches!(s, ReplayStep::ToolCall { .. })).count();
    let progress = std::io::stderr().is_terminal() && !a.json;
    let mut out = std::io::stdout().lock();
    for w in &session.warnings {
        eprintln!("warning: {}: {w}", a.session.display());
    }
    for e in &built.explicit_errors {
        eprintln!("error: {e}");
    }
    for d in &built.settings_diagnostics {
        eprintln!("{d}");
    }

    let rt = setup::tokio_runtime()?;
    let (pin, start_report, rows, prompts_blocked) = rt.block_on(async {
        let mut start = Envelope::new(HookEvent::SessionStart);
        start.cwd = Some(cwd.clone());
        start.session =
            Some(SessionInfo { source: Some("startup".into()), ..SessionInfo::default() });
        start.session_id = session.steps.iter().find_map(|s| match s {
            ReplayStep::Prompt(e) | ReplayStep::Event(e) | ReplayStep::ToolCall { pre: e, .. } => {
                e.session_id.clone()
            }
        });
        let pinned = built.runtime.exchange_appended(start).await?;
        // What the first exchange ran into (an outbox it could not recover).
        setup::warn_new_advisories(&mut built.runtime);
        let handle = built.runtime.fire_handle();
        let mut rows = Vec::new();
        let mut prompts_blocked = 0usize;
        for step in session.steps.clone() {
            match step {
                ReplayStep::Prompt(mut e) | ReplayStep::Event(mut e) => {
                    rebase_envelope(&mut e, from, &cwd);
                    let r = handle.fire(&e).await;
                    if e.event == HookEvent::PromptSubmit
                        && r.verdict.decision == Some(Decision::Deny)
                    {
                        prompts_blocked += 1;
                    }
                }
                ReplayStep::ToolCall { mut pre, post } => {
                    rebase_envelope(&mut pre, from, &cwd);
                    let post = post.map(|p| {
                        let mut p = *p;
                        rebase_envelope(&mut p, from, &cwd);
                        p
                    });
                    if progress {
                        eprint!("\rreplaying call {}/{total}", rows.len() + 1);
                    }
                    rows.push(replay_call(&handle, rows.len() + 1, pre, post, &cwd).await);
                }
            }
        }
        if progress {
            eprint!("\r\x1b[K");
        }
        built.runtime.drain(Duration::from_secs(5)).await;
        let (pin, report) = match pinned {
            Some((p, r)) => (Some(p), Some(r)),
            None => (None, None),
        };
        anyhow::Ok((pin, report, rows, prompts_blocked))
    })?;

    let count = |o: CallOutcome| rows.iter().filter(|r| r.outcome == o).count();
    let hook_runs: usize = rows.iter().map(|r| r.hooks_run).sum();
    let hook_time: Duration = rows.iter().map(|r| r.elapsed).sum();
    if a.json {
        for r in &rows {
            let line = json!({
                "index": r.index, "tool": r.tool, "args": r.args, "outcome": r.outcome.as_str(),
                "decided_by": r.decided_by, "reason": r.reason, "rewritten_args": r.rewritten,
                "hooks_run": r.hooks_run, "elapsed_ms": r.elapsed.as_millis(),
            });
            writeln!(out, "{line}")?;
        }
        let summary = json!({
            "summary": {
                "pinned": pin.as_ref().map(hooks_app::serve::render::pin),
                "session_start_hooks": start_report.as_ref().map_or(0, hooks_ran),
                "calls": rows.len(),
                "allowed": count(CallOutcome::Allowed),
                "rewritten": count(CallOutcome::Rewritten),
                "ask": count(CallOutcome::Ask),
                "denied": count(CallOutcome::Denied),
                "guarded": count(CallOutcome::Guarded),
                "prompts_blocked": prompts_blocked,
                "hook_runs": hook_runs,
                "hook_time_ms": hook_time.as_millis(),
                "warnings": session.warnings,
            }
        });
        writeln!(out, "{summary}")?;
        return Ok(0);
    }

    match pin {
        Some(p) => writeln!(
            out,
            "pinned run: surface {}, posture {}, revision {}; session start ran {} hook(s)",
            built.runtime.config().surface.as_str(),
            p.posture.as_str(),
            p.revision,
            start_report.as_ref().map_or(0, hooks_ran)
        )?,
        None => writeln!(out, "run not pinned: hooks are switched off")?,
    }
    for s in built.runtime.snapshot().sources() {
        writeln!(out, "{} ({}): {}", s.id.path, s.id.kind, s.trust.reason())?;
    }
    writeln!(
        out,
        "{:>3}  {:<8} {:<48}  {:<9}  {:<48}  {:>6}",
        "#", "tool", "arguments", "decision", "decided by", "time"
    )?;
    for r in &rows {
        let paint_code = match r.outcome {
            CallOutcome::Allowed => "32",
            CallOutcome::Rewritten => "36",
            CallOutcome::Ask => "33",
            CallOutcome::Denied | CallOutcome::Guarded => "31",
        };
        let decision = super::paint(colour, paint_code, &format!("{:<9}", r.outcome.as_str()));
        let by = r.decided_by.clone().unwrap_or_else(|| "-".to_owned());
        writeln!(
            out,
            "{:>3}  {:<8} {:<48}  {decision}  {:<48}  {:>4} ms",
            r.index,
            r.tool,
            r.args,
            shorten(&by, 48),
            r.elapsed.as_millis()
        )?;
        if let Some(reason) = &r.reason
            && r.outcome != CallOutcome::Allowed
        {
            writeln!(out, "       reason: {reason}")?;
        }
        if let (CallOutcome::Rewritten, Some(args)) = (&r.outcome, &r.rewritten) {
            writeln!(out, "       now: {}", summarize_args(args))?;
        }
    }
    writeln!(
        out,
        "summary: {} tool call(s): {} allowed, {} rewritten, {} ask, {} denied, {} guarded; {} prompt(s) blocked; {} hook run(s) in {} ms",
        rows.len(),
        count(CallOutcome::Allowed),
        count(CallOutcome::Rewritten),
        count(CallOutcome::Ask),
        count(CallOutcome::Denied),
        count(CallOutcome::Guarded),
        prompts_blocked,
        hook_runs,
        hook_time.as_millis()
    )?;
    Ok(0)
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::*;

    #[test]
    fn rebasing_maps_the_recorded_directory_and_only_at_a_path_boundary() {
        let mut v = json!({"file_path": "/home/dev/demo/.cursor/hooks.json", "other": "/home/dev/demo2/x", "n": 1, "list": ["/home/dev/demo"]});
        rebase_value(&mut v, Path::new("/home/dev/demo"), Path::new("/tmp/r"));
        assert_eq!(
            v,
            json!({"file_path": "/tmp/r/.cursor/hooks.json", "other": "/home/dev/demo2/x", "n": 1, "list": ["/tmp/r"]})
        );
    }

    #[test]
    fn argument_summaries_fit_one_short_line() {
        assert_eq!(summarize_args(&json!({"command": "ls\n-la"})), "ls -la");
        assert_eq!(summarize_args(&json!({"x": 1})), "{\"x\":1}");
        assert_eq!(summarize_args(&json!({"command": "a".repeat(100)})).chars().count(), 48);
    }
}
