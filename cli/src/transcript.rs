//! Recorded sessions for `hooks replay`: Claude Code transcripts and the engine's own
//! canonical event log, both read into the same list of replay steps.
//!
//! A Claude Code transcript is JSON lines; each record has a `type` (`user`, `assistant`,
//! `summary`, `system`, …), and conversation records carry `sessionId`, `cwd`, `timestamp`
//! and a `message` whose `content` is a string or a list of blocks (`text`, `tool_use`,
//! `tool_result`, `thinking`). The canonical event log is JSON lines of envelopes.

use std::collections::HashMap;

use hooks_schema::{Envelope, HookEvent, Prompt, ToolCall, ToolKind, ToolResult};
use serde_json::Value;

/// The longest transcript line read; longer lines are reported and skipped.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// One thing that happened in a recorded session, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayStep {
    /// The user submitted a prompt (the first one is the run's first exchange).
    Prompt(Envelope),
    /// A tool call, with its result when the transcript has one.
    ToolCall {
        /// The pre-tool-use envelope.
        pre: Envelope,
        /// The post-tool-use (or tool-failure) envelope, when a result was recorded.
        post: Option<Box<Envelope>>,
    },
    /// Any other canonical event from an event log.
    Event(Envelope),
}

/// A recorded session, read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Session {
    /// The steps, in order.
    pub steps: Vec<ReplayStep>,
    /// Problems with individual lines (`line N: …`); the rest was read.
    pub warnings: Vec<String>,
    /// Which format the file was in.
    pub format: SessionFormat,
}

/// The format of a recorded session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionFormat {
    /// Claude Code's `.jsonl` transcript.
    #[default]
    ClaudeTranscript,
    /// The engine's canonical event log (JSON lines of envelopes).
    EventLog,
}

/// Reads a recorded session, detecting its format from the first JSON line.
pub fn parse_session(text: &str) -> Session {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let is_log = first
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v.get("event").is_some() && v.get("type").is_none());
    if is_log { parse_event_log(text) } else { parse_claude_transcript(text) }
}

/// Reads the engine's canonical event log. Post-tool envelopes are paired with the pre-tool
/// envelope that has the same call id.
pub fn parse_event_log(text: &str) -> Session {
    let mut s = Session { format: SessionFormat::EventLog, ..Session::default() };
    let mut open: HashMap<String, usize> = HashMap::new();
    for (_, env) in json_lines::<Envelope>(text, "an envelope", &mut s.warnings) {
        let call_id = env.tool.as_ref().and_then(|t| t.call_id.clone());
        match env.event {
            HookEvent::PromptSubmit => s.steps.push(ReplayStep::Prompt(env)),
            HookEvent::PreToolUse => {
                if let Some(id) = call_id {
                    open.insert(id, s.steps.len());
                }
                s.steps.push(ReplayStep::ToolCall { pre: env, post: None });
            }
            HookEvent::PostToolUse | HookEvent::ToolFailure => {
                let slot = call_id.and_then(|id| open.remove(&id));
                match slot.and_then(|i| s.steps.get_mut(i)) {
                    Some(ReplayStep::ToolCall { post, .. }) => *post = Some(Box::new(env)),
                    _ => s.steps.push(ReplayStep::Event(env)),
                }
            }
            _ => s.steps.push(ReplayStep::Event(env)),
        }
    }
    s
}

/// Reads a Claude Code transcript.
pub fn parse_claude_transcript(text: &str) -> Session {
    let mut s = Session::default();
    let mut open: HashMap<String, usize> = HashMap::new();
    let mut warnings = Vec::new();
    for (i, rec) in json_lines::<Value>(text, "JSON", &mut warnings) {
        let kind = rec.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "user" && kind != "assistant" {
            continue; // summaries, system records, snapshots: nothing to replay
        }
        if rec.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            continue; // subagent transcripts interleaved in the main file
        }
        let base = base_envelope(&rec);
        let content = rec.pointer("/message/content");
        match (kind, content) {
            ("user", Some(Value::String(text))) => {
                s.steps.push(ReplayStep::Prompt(prompt(&base, text)));
            }
            ("user", Some(Value::Array(blocks))) => {
                for block in blocks {
                    match block.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                            s.steps.push(ReplayStep::Prompt(prompt(&base, text)));
                        }
                        Some("tool_result") => {
                            let id = block.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
                            let slot = open.remove(id).and_then(|i| s.steps.get_mut(i));
                            if let Some(ReplayStep::ToolCall { pre, post }) = slot {
                                *post = Some(Box::new(post_envelope(&base, pre, block)));
                            } else {
                                s.warnings.push(format!(
                                    "line {i}: tool_result for unknown tool_use `{id}`"
                                ));
                            }
                        }
                        _ => {}
                    }
                }
            }
            ("assistant", Some(Value::Array(blocks))) => {
                for block in blocks {
                    if block.get("type").and_then(Value::as_str) != Some("tool_use") {
                        continue;
                    }
                    let name = block.get("name").and_then(Value::as_str).unwrap_or("").to_owned();
                    let id = block.get("id").and_then(Value::as_str).map(str::to_owned);
                    let mut pre = base.clone();
                    pre.event = HookEvent::PreToolUse;
                    pre.tool = Some(ToolCall {
                        kind: tool_kind(&name),
                        mcp_server: mcp_server(&name),
                        name,
                        native_kind: None,
                        call_id: id.clone(),
                        args: block.get("input").cloned().unwrap_or(Value::Null),
                    });
                    if let Some(id) = id {
                        open.insert(id, s.steps.len());
                    }
                    s.steps.push(ReplayStep::ToolCall { pre, post: None });
                }
            }
            _ => {}
        }
    }
    // Parse warnings and pairing warnings, in line order.
    warnings.append(&mut s.warnings);
    warnings.sort_by_key(|w| {
        w.strip_prefix("line ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
    });
    s.warnings = warnings;
    s
}

/// The non-blank lines of `text` parsed as `T`, with their 1-based line numbers; a line that
/// is too long or does not parse is skipped with a warning naming it and saying it is not
/// `what`.
fn json_lines<'a, T: serde::de::DeserializeOwned>(
    text: &'a str,
    what: &'static str,
    warnings: &'a mut Vec<String>,
) -> impl Iterator<Item = (usize, T)> + 'a {
    text.lines().enumerate().filter_map(move |(i, line)| {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        if line.len() > MAX_LINE_BYTES {
            warnings.push(format!("line {}: longer than {MAX_LINE_BYTES} bytes, skipped", i + 1));
            return None;
        }
        match serde_json::from_str(line) {
            Ok(v) => Some((i + 1, v)),
            Err(e) => {
                warnings.push(format!("line {}: not {what}: {e}", i + 1));
                None
            }
        }
    })
}

/// The canonical kind of a Claude Code tool.
pub fn tool_kind(name: &str) -> ToolKind {
    match name {
        "Bash" | "BashOutput" | "KillShell" => ToolKind::Shell,
        "Read" | "NotebookRead" => ToolKind::FileRead,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::FileWrite,
        "Grep" | "Glob" | "LS" => ToolKind::Search,
        "WebFetch" | "WebSearch" => ToolKind::Web,
        "Task" | "Agent" => ToolKind::Subagent,
        n if n.starts_with("mcp__") => ToolKind::Mcp,
        _ => ToolKind::Other,
    }
}

/// The files a tool call would write, for the guard: `file_path` or `notebook_path`.
pub fn edited_paths(tool: &ToolCall) -> Vec<String> {
    if tool.kind != ToolKind::FileWrite {
        return Vec::new();
    }
    ["file_path", "notebook_path", "path"]
        .iter()
        .filter_map(|k| tool.args.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
        .take(1)
        .collect()
}

fn mcp_server(name: &str) -> Option<String> {
    let rest = name.strip_prefix("mcp__")?;
    rest.split_once("__").map(|(server, _)| server.to_owned())
}

fn base_envelope(rec: &Value) -> Envelope {
    let mut e = Envelope::new(HookEvent::PromptSubmit);
    let s = |k: &str| rec.get(k).and_then(Value::as_str).map(str::to_owned);
    e.session_id = s("sessionId");
    e.cwd = s("cwd").map(Into::into);
    e.timestamp = s("timestamp");
    e.turn_id = s("uuid");
    e.model = rec.pointer("/message/model").and_then(Value::as_str).map(str::to_owned);
    e
}

fn prompt(base: &Envelope, text: &str) -> Envelope {
    let mut e = base.clone();
    e.event = HookEvent::PromptSubmit;
    e.prompt = Some(Prompt { text: text.to_owned(), ..Prompt::default() });
    e
}

fn post_envelope(base: &Envelope, pre: &Envelope, block: &Value) -> Envelope {
    let failed = block.get("is_error").and_then(Value::as_bool).unwrap_or(false);
    let text = match block.get("content") {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(parts)) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    };
    let mut e = base.clone();
    e.tool.clone_from(&pre.tool);
    // A shell command that ran to its end with a non-zero status (`Exit code 3` and the
    // output, as Claude Code records it) is a post-tool firing with that status, as the
    // bridge decodes Claude Code's `PostToolUseFailure` for it (`specs/events.md`).
    if let Some(result) = text
        .as_deref()
        .filter(|_| failed)
        .and_then(|t| hooks_format_claude::shell_exit_result(pre.tool.as_ref(), t))
    {
        e.event = HookEvent::PostToolUse;
        e.result = Some(result);
        return e;
    }
    e.event = if failed { HookEvent::ToolFailure } else { HookEvent::PostToolUse };
    e.result = Some(ToolResult {
        error: if failed { text.clone() } else { None },
        text,
        failed,
        ..ToolResult::default()
    });
    e
}

#[cfg(test)]
mod tests;
