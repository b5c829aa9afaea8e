//! Decoding: the outcome of a Cursor hook's run becomes a verdict, by Cursor's rules (exit 0
//! reads the JSON, exit 2 denies, anything else fails open unless `failClosed`).

use hooks_schema::{
    ArgRewrite, Decision, ExitInfo, HookDefinition, HookVerdict, OnFailure, RawOutcome, ToolKind,
};
use serde_json::{Map, Value};

use crate::{
    DEFAULT_LOOP_LIMIT,
    events::{self, AskRule, NativeEvent},
};

/// The longest excerpt of stderr quoted in a reason or failure.
const MAX_EXCERPT_CHARS: usize = 1000;
/// At most this many line starts are tried when looking for the JSON object after noise.
const MAX_JSON_CANDIDATES: usize = 64;

/// Interprets `outcome` for `hook` on `envelope`.
pub(crate) fn decode(
    hook: &HookDefinition,
    envelope: &hooks_schema::Envelope,
    outcome: &RawOutcome,
) -> HookVerdict {
    let native = events::lookup(&hook.native_event);
    let can_deny = native.map_or(envelope.event.is_gated(), NativeEvent::can_deny);
    if outcome.timed_out {
        let what = format!("timed out after {} s", fmt_secs(hook.timeout.as_secs_f64()));
        return failed(hook, can_deny, what, Vec::new());
    }
    let code = match &outcome.exit {
        ExitInfo::NotStarted(f) => {
            return failed(hook, can_deny, format!("could not start: {}", f.message), Vec::new());
        }
        ExitInfo::Signaled(s) => {
            let what = with_stderr(format!("killed by signal {s}"), outcome);
            return failed(hook, can_deny, what, Vec::new());
        }
        ExitInfo::Exited(c) => *c,
        ExitInfo::Responded(s) => {
            let what = format!("answered HTTP {s}; Cursor has no http hooks");
            return failed(hook, can_deny, what, Vec::new());
        }
    };
    let Some(native) = native else {
        return failed(
            hook,
            can_deny,
            format!("`{}` is not a Cursor event", hook.native_event),
            Vec::new(),
        );
    };
    match code {
        0 => {}
        2 => return exit_two(hook, native, outcome),
        c => {
            let what = with_stderr(format!("exited with code {c}"), outcome);
            return failed(hook, can_deny, what, Vec::new());
        }
    }
    let mut notes = Vec::new();
    let obj = match extract_json(outcome) {
        Ok(Output::Empty) => return HookVerdict { notes, ..HookVerdict::no_opinion() },
        Ok(Output::Clean(o)) => o,
        Ok(Output::Noisy(objects)) => {
            return noisy(hook, native, envelope, can_deny, &objects, notes);
        }
        Err(why) => return failed(hook, can_deny, why.to_string(), notes),
    };
    match interpret(hook, native, envelope, &obj, &mut notes) {
        Ok(mut v) => {
            v.notes.extend(notes);
            v
        }
        Err(why) => failed(hook, can_deny, why.to_string(), notes),
    }
}

/// Noisy output (text around the JSON, or several objects): only a restriction is read.
///
/// Every candidate object is read by the event's rules; the strictest decision among them
/// (deny, then ask) is the verdict, with that object's reason and messages, and nothing else
/// (no allow, rewrite, context, env, follow-up or output replacement). A line the hook echoed
/// from the agent's own input can therefore add a restriction but never lift one. A
/// failClosed hook's noisy output that does not deny is a failure, so it denies, as Cursor
/// would for output that is not one JSON object.
fn noisy(
    hook: &HookDefinition,
    native: &NativeEvent,
    envelope: &hooks_schema::Envelope,
    can_deny: bool,
    objects: &[Map<String, Value>],
    mut notes: Vec<String>,
) -> HookVerdict {
    let rank = |d: Option<Decision>| match d {
        Some(Decision::Deny) => 2,
        Some(Decision::Ask) => 1,
        _ => 0,
    };
    let mut best: Option<HookVerdict> = None;
    for obj in objects {
        let mut ignored = Vec::new();
        let Ok(v) = interpret(hook, native, envelope, obj, &mut ignored) else { continue };
        if rank(v.decision) > best.as_ref().map_or(0, |b| rank(b.decision)) {
            best = Some(v);
        }
    }
    notes.push(format!(
        "the output is not one JSON object but {} object(s) among other text (shell profile noise?): only a deny or ask is read from it",
        objects.len()
    ));
    let fail_closed = hook.on_failure == OnFailure::Block && can_deny;
    match best {
        Some(v) if v.decision == Some(Decision::Deny) || (v.decision.is_some() && !fail_closed) => {
            HookVerdict {
                decision: v.decision,
                reason: v.reason,
                user_message: v.user_message,
                notes,
                ..HookVerdict::no_opinion()
            }
        }
        _ if fail_closed => failed(
            hook,
            can_deny,
            "invalid JSON output: the output is not one JSON object and does not deny".to_owned(),
            notes,
        ),
        _ => HookVerdict { notes, ..HookVerdict::no_opinion() },
    }
}

/// A failed run: no decision unless the hook fails closed on an event that can be denied.
fn failed(
    hook: &HookDefinition,
    can_deny: bool,
    what: String,
    mut notes: Vec<String>,
) -> HookVerdict {
    let mut v = HookVerdict::failed(what.clone());
    match hook.on_failure {
        OnFailure::Block if can_deny => {
            v.decision = Some(Decision::Deny);
            v.reason = Some(format!("hook {} failed ({what}) and is failClosed", hook.id));
        }
        OnFailure::Block => notes.push(format!(
            "failClosed has no effect on {}: there is nothing to block",
            hook.native_event
        )),
        OnFailure::Warn | OnFailure::Ignore => {}
    }
    v.notes = notes;
    v
}

/// Exit code 2: deny, with the JSON's message or stderr as the reason.
fn exit_two(hook: &HookDefinition, native: &NativeEvent, outcome: &RawOutcome) -> HookVerdict {
    let mut notes = Vec::new();
    if !native.can_deny() {
        notes.push(format!(
            "exit code 2 has no effect on {}: Cursor reads no decision there",
            native.name
        ));
        return HookVerdict { notes, ..HookVerdict::no_opinion() };
    }
    // Messages come only from clean output: an object among noise may be echoed input.
    let obj = match extract_json(outcome) {
        Ok(Output::Clean(o)) => o,
        _ => Map::new(),
    };
    let fields = Fields::read(&obj);
    let stderr = excerpt(&outcome.stderr.lossy());
    let reason = fields
        .agent_message
        .clone()
        .or_else(|| fields.user_message.clone())
        .or_else(|| (!stderr.is_empty()).then_some(stderr))
        .unwrap_or_else(|| format!("hook {} exited with code 2", hook.id));
    if fields.permission.as_deref().is_some_and(|p| p != "deny") {
        notes.push("exit code 2 denies whatever the JSON output's permission says".to_owned());
    }
    HookVerdict {
        decision: Some(Decision::Deny),
        reason: Some(reason),
        user_message: if native.outputs.user_message { fields.user_message } else { None },
        notes,
        ..HookVerdict::no_opinion()
    }
}

/// The output fields, flat (Cursor) or nested (Claude Code's `hookSpecificOutput`).
#[derive(Debug, Default)]
struct Fields {
    permission: Option<String>,
    user_message: Option<String>,
    agent_message: Option<String>,
    updated_input: Option<Value>,
    additional_context: Option<String>,
    followup: Option<String>,
    cont: Option<bool>,
    env: Option<Value>,
    nested: bool,
}

fn string_at(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key).and_then(Value::as_str).map(str::to_owned)
}

impl Fields {
    fn read(obj: &Map<String, Value>) -> Fields {
        let nested = obj.get("hookSpecificOutput").and_then(Value::as_object);
        let n = |k: &str| nested.and_then(|h| string_at(h, k));
        let block_reason = |o: &Map<String, Value>| {
            (o.get("decision").and_then(Value::as_str) == Some("block"))
                .then(|| string_at(o, "reason"))
                .flatten()
        };
        Fields {
            permission: string_at(obj, "permission").or_else(|| n("permissionDecision")),
            user_message: string_at(obj, "user_message").or_else(|| n("permissionDecisionReason")),
            agent_message: string_at(obj, "agent_message"),
            updated_input: obj
                .get("updated_input")
                .or_else(|| nested.and_then(|h| h.get("updatedInput")))
                .cloned(),
            additional_context: string_at(obj, "additional_context")
                .or_else(|| n("additionalContext")),
            followup: string_at(obj, "followup_message")
                .or_else(|| block_reason(obj))
                .or_else(|| nested.and_then(block_reason)),
            cont: obj.get("continue").and_then(Value::as_bool),
            env: obj.get("env").cloned(),
            nested: nested.is_some(),
        }
    }
}

/// Why a hook's stdout is not output Cursor reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum OutputError {
    /// No JSON object in it.
    #[error("invalid JSON output: stdout is not a JSON object{}: {excerpt}", if *.truncated { " (the output was truncated)" } else { "" })]
    NotJson {
        /// Whether the output was cut at the cap.
        truncated: bool,
        /// The start of it.
        excerpt: String,
    },
    /// `permission` is not a string.
    #[error("invalid output: permission must be a string, found {0}")]
    PermissionType(Value),
    /// `permission` is not a decision Cursor knows.
    #[error("invalid output: permission must be allow, deny or ask, found {0:?}")]
    PermissionValue(String),
}

/// Applies Cursor's per-event reading of an exit-0 JSON object.
fn interpret(
    hook: &HookDefinition,
    native: &NativeEvent,
    envelope: &hooks_schema::Envelope,
    obj: &Map<String, Value>,
    notes: &mut Vec<String>,
) -> Result<HookVerdict, OutputError> {
    let f = Fields::read(obj);
    let out = native.outputs;
    let mut v = HookVerdict::no_opinion();
    let ev = native.name;
    if f.nested {
        notes.push("read Claude Code's nested hookSpecificOutput shape".to_owned());
    }
    let raw_permission = obj.get("permission").filter(|p| !p.is_null());
    if let Some(p) = raw_permission.filter(|p| !p.is_string())
        && out.permission.is_some()
    {
        return Err(OutputError::PermissionType(p.clone()));
    }
    match (&f.permission, out.permission) {
        (Some(p), Some(rule)) => {
            v.decision = match (p.as_str(), rule) {
                ("allow", _) => Some(Decision::Allow),
                ("deny", _) => Some(Decision::Deny),
                ("ask", AskRule::Enforced) => Some(Decision::Ask),
                ("ask", AskRule::NotEnforced) => {
                    notes.push(format!(
                        "Cursor accepts `ask` on {ev} but does not enforce it: no decision"
                    ));
                    None
                }
                ("ask", AskRule::AsDeny) => {
                    notes.push(format!("Cursor treats `ask` on {ev} as `deny`"));
                    Some(Decision::Deny)
                }
                ("defer", _) => {
                    notes.push(
                        "`defer` is Claude Code's; Cursor has no such decision: no decision"
                            .to_owned(),
                    );
                    None
                }
                (other, _) => {
                    return Err(OutputError::PermissionValue(other.to_owned()));
                }
            };
        }
        (Some(_), None) => notes.push(format!("`permission` is ignored on {ev}")),
        (None, _) => {}
    }
    if out.continue_blocks {
        match f.cont {
            Some(false) => {
                v.decision = Some(Decision::Deny);
                if v.reason.is_none() {
                    v.reason = f.user_message.clone();
                }
            }
            Some(true) if v.decision.is_none() => v.decision = Some(Decision::Allow),
            _ => {}
        }
    } else if f.cont == Some(false) {
        notes.push(format!("`continue: false` is ignored on {ev}"));
    }
    if v.decision.is_some() && v.reason.is_none() {
        v.reason = if out.agent_message { f.agent_message.clone() } else { None }
            .or_else(|| f.user_message.clone());
    }
    if out.user_message {
        v.user_message = f.user_message.clone();
    }
    match (&f.updated_input, out.updated_input) {
        (Some(input), true) if v.decision != Some(Decision::Deny) => {
            if input.is_object() {
                v.rewrite = Some(ArgRewrite::Replace(input.clone()));
            } else {
                notes.push("`updated_input` is not an object and is ignored".to_owned());
            }
        }
        (Some(_), true) => {
            notes.push("`updated_input` is ignored because the hook denied".to_owned())
        }
        (Some(_), false) => notes.push(format!("`updated_input` is ignored on {ev}")),
        (None, _) => {}
    }
    match (&f.additional_context, out.additional_context) {
        (Some(c), true) if !c.is_empty() => v.context.push(c.clone()),
        (Some(_), false) => notes.push(format!("`additional_context` is ignored on {ev}")),
        _ => {}
    }
    if out.env {
        match &f.env {
            Some(Value::Object(m)) => {
                for (k, val) in m {
                    match val {
                        Value::String(s) => v.env.push((k.clone(), s.clone())),
                        Value::Number(_) | Value::Bool(_) => {
                            v.env.push((k.clone(), val.to_string()))
                        }
                        _ => notes.push(format!("env `{k}` is not a string and is ignored")),
                    }
                }
            }
            Some(Value::Null) | None => {}
            Some(_) => notes.push("`env` is not an object and is ignored".to_owned()),
        }
    } else if f.env.is_some() {
        notes.push(format!("`env` is ignored on {ev}"));
    }
    if let Some(msg) = f.followup.filter(|m| !m.is_empty()) {
        if out.followup {
            if let Some(why) = followup_blocked(hook, native, envelope) {
                notes.push(format!("followup_message dropped: {why}"));
            } else {
                v.followup = Some(msg);
            }
        } else {
            notes.push(format!("`followup_message` is ignored on {ev}"));
        }
    }
    match obj.get("updated_mcp_tool_output") {
        None | Some(Value::Null) => {}
        Some(_) if !out.updated_mcp_output => {
            notes.push(format!("`updated_mcp_tool_output` is ignored on {ev}"))
        }
        Some(_) if !is_mcp(envelope) => notes
            .push("`updated_mcp_tool_output` is ignored: the tool is not an MCP tool".to_owned()),
        Some(output) => v.updated_output = Some(output.clone()),
    }
    if obj.contains_key("pluginPaths") {
        notes.push("`pluginPaths` is ignored: plugins are not supported".to_owned());
    }
    Ok(v)
}

/// Whether the envelope's tool is an MCP tool (Cursor rewrites only their output).
fn is_mcp(envelope: &hooks_schema::Envelope) -> bool {
    envelope.tool.as_ref().is_some_and(|t| t.kind == ToolKind::Mcp || t.mcp_server.is_some())
}

/// Why a follow-up may not be submitted (loop limit reached, subagent not completed).
fn followup_blocked(
    hook: &HookDefinition,
    native: &NativeEvent,
    envelope: &hooks_schema::Envelope,
) -> Option<String> {
    if native.name == "subagentStop"
        && let Some(status) = envelope.subagent.as_ref().and_then(|s| s.status.as_deref())
        && status != "completed"
    {
        return Some(format!("the subagent's status is `{status}`, not `completed`"));
    }
    let limit = match hook.native.get("loop_limit") {
        None => Some(DEFAULT_LOOP_LIMIT),
        Some(Value::Null) => None,
        Some(v) => {
            Some(v.as_u64().map_or(DEFAULT_LOOP_LIMIT, |l| u32::try_from(l).unwrap_or(u32::MAX)))
        }
    };
    let count = envelope
        .stop
        .as_ref()
        .and_then(|s| s.loop_count)
        .or_else(|| {
            envelope
                .extra
                .get("loop_count")
                .and_then(Value::as_u64)
                .and_then(|c| u32::try_from(c).ok())
        })
        .unwrap_or(0);
    match limit {
        Some(l) if count >= l => Some(format!("loop_count {count} reached loop_limit {l}")),
        _ => None,
    }
}

/// What a hook printed on stdout.
enum Output {
    /// Nothing but whitespace.
    Empty,
    /// One JSON object and nothing else (a UTF-8 byte order mark and whitespace around it
    /// aside): the hook's answer, read in full.
    Clean(Map<String, Value>),
    /// Anything else that holds JSON objects: each object that starts a line (after spaces
    /// or tabs), and those that follow such an object directly, in order. Shell-profile noise
    /// cannot be told from a line echoed from the agent's input, so [`noisy`] reads only
    /// restrictions from these.
    Noisy(Vec<Map<String, Value>>),
}

/// Reads stdout. Output that is not one JSON object is searched for objects at the start of
/// a line (at most [`MAX_JSON_CANDIDATES`] line starts); none at all is an error.
fn extract_json(outcome: &RawOutcome) -> Result<Output, OutputError> {
    let text = outcome.stdout.lossy();
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if text.trim().is_empty() {
        return Ok(Output::Empty);
    }
    if let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(text.trim()) {
        return Ok(Output::Clean(obj));
    }
    let start = text.len() - text.trim_start().len();
    let mut candidates = vec![start];
    candidates.extend(
        text.match_indices('\n')
            .map(|(i, _)| i + 1)
            .filter(|i| {
                let rest = text.get(*i..).unwrap_or("");
                rest.trim_start_matches([' ', '\t', '\r']).starts_with('{')
            })
            .filter(|i| *i > start)
            .take(MAX_JSON_CANDIDATES),
    );
    let mut objects = Vec::new();
    let mut read_to = 0;
    for at in candidates {
        if at < read_to {
            continue;
        }
        let Some(rest) = text.get(at..) else { continue };
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        while let Some(Ok(Value::Object(obj))) = stream.next() {
            objects.push(obj);
            read_to = at + stream.byte_offset();
        }
    }
    if objects.is_empty() {
        return Err(OutputError::NotJson {
            truncated: outcome.stdout.truncated,
            excerpt: excerpt(text),
        });
    }
    Ok(Output::Noisy(objects))
}

fn with_stderr(what: String, outcome: &RawOutcome) -> String {
    let e = excerpt(&outcome.stderr.lossy());
    if e.is_empty() { what } else { format!("{what}: {e}") }
}

/// Trimmed text, cut to [`MAX_EXCERPT_CHARS`] characters.
fn excerpt(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() <= MAX_EXCERPT_CHARS {
        return t.to_owned();
    }
    let mut s: String = t.chars().take(MAX_EXCERPT_CHARS).collect();
    s.push('…');
    s
}

fn fmt_secs(s: f64) -> String {
    if s.fract() == 0.0 { format!("{s:.0}") } else { format!("{s}") }
}

#[cfg(test)]
mod tests;
