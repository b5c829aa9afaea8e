//! Extension points for running the engine *under* an agent (issue 20): a per-agent host
//! codec and the places `hooks install` writes to. Declared here so descriptors can carry
//! them.
//!
//! A [`HostCodec`] is the mirror image of a [`HookCodec`](crate::HookCodec): the hook codec
//! speaks the format's protocol *to* a hook the engine runs, the host codec speaks it *to the
//! agent* that runs the engine as its own hook command (`hooks bridge --host <agent>`). Both
//! are pure.

use std::fmt;

use serde_json::Value;

use crate::{
    Envelope, FileScope, FoldedVerdict, FormatDescriptor, FormatId, HookEvent, HookSourceKind,
    Provenance, SourceScope, ToolKind,
};

/// Why an agent's hook input could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The input is not what the agent sends (not JSON, a field of the wrong type).
    #[error("the agent's hook input is malformed: {0}")]
    Malformed(String),
    /// The event is one the engine has no counterpart for.
    #[error("the agent's event `{0}` has no canonical counterpart")]
    UnknownEvent(String),
}

/// An agent's hook input decoded into the engine's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct HostInput {
    /// The canonical envelope.
    pub envelope: Envelope,
    /// The event as the agent named it.
    pub native_event: String,
    /// The agent's session id, which keys the pin across the bridge's processes.
    pub session_id: Option<String>,
}

/// What the engine answers the agent: the bytes on stdout and stderr and the exit code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostAnswer {
    /// Written to stdout.
    pub stdout: Vec<u8>,
    /// Written to stderr.
    pub stderr: Vec<u8>,
    /// The process exit code.
    pub exit_code: i32,
}

impl HostAnswer {
    /// An answer that exits 0 with `out` as one compact JSON object on stdout, or nothing
    /// at all when `out` is empty (an agent reads no output as "no opinion").
    ///
    /// ```
    /// use hooks_schema::HostAnswer;
    ///
    /// let mut out = serde_json::Map::new();
    /// assert!(HostAnswer::json_object(out.clone()).stdout.is_empty());
    /// out.insert("decision".into(), "deny".into());
    /// assert_eq!(HostAnswer::json_object(out).stdout, br#"{"decision":"deny"}"#);
    /// ```
    pub fn json_object(out: serde_json::Map<String, Value>) -> HostAnswer {
        let stdout = if out.is_empty() {
            Vec::new()
        } else {
            serde_json::to_vec(&Value::Object(out)).unwrap_or_default()
        };
        HostAnswer { stdout, stderr: Vec::new(), exit_code: 0 }
    }
}

/// How an agent runs the engine as its hook command (issue 20, `hooks bridge`).
pub trait HostCodec: Send + Sync + fmt::Debug {
    /// Decodes the agent's native hook input (`stdin`), with the event named on the command
    /// line for agents whose input does not carry it.
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError>;

    /// Encodes the folded verdict of the hooks that ran as the agent's native answer.
    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer;

    /// The files a pre-tool call would write, as the agent names them (relative to the
    /// session's directory or absolute), for the guard: `None` when the call writes no file
    /// the host codec knows of. By default [`edited_paths_from_args`] (a file-writing tool's
    /// `file_path`, `path`, `notebook_path`, `target_file` or `file` argument, and the files
    /// of an `apply_patch` patch it carries); a host whose edit tool names its files
    /// otherwise says so itself.
    fn edited_paths(&self, input: &HostInput) -> Option<Vec<String>> {
        edited_paths_from_args(&input.envelope)
    }
}

/// The argument names file-writing tools of the agents give their file in.
pub const EDITED_PATH_ARGS: [&str; 5] =
    ["file_path", "path", "notebook_path", "target_file", "file"];

/// The files an `apply_patch` input touches, as written in the patch (relative to the
/// session's directory or absolute): every `*** Add File: `, `*** Update File: `,
/// `*** Delete File: ` and `*** Move to: ` line.
///
/// ```
/// use hooks_schema::patch_paths;
///
/// let patch = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch\n";
/// assert_eq!(patch_paths(patch), ["a.txt", "b.txt"]);
/// ```
pub fn patch_paths(patch: &str) -> Vec<String> {
    const MARKERS: [&str; 4] =
        ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];
    patch
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            MARKERS.iter().find_map(|m| l.strip_prefix(m)).map(|p| p.trim().to_owned())
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// The files a pre-tool call of a file-writing tool ([`ToolKind::FileWrite`]) names in its
/// arguments ([`EDITED_PATH_ARGS`], and each `file_path`/`path` of an `edits` list), and the
/// files of a patch it carries as a string ([`patch_paths`]: the arguments themselves, or a
/// string among them, as an `apply_patch` tool takes it whatever the agent calls the field);
/// for a shell call, the files of a patch its command carries (`apply_patch` run through the
/// shell); for an MCP tool ([`ToolKind::Mcp`]: an MCP file server's `write_file`,
/// `edit_file`, `move_file`, …), the files its arguments name ([`EDITED_PATH_ARGS`] and
/// [`MCP_PATH_ARGS`]) unless its own name says it only reads ([`MCP_READ_VERBS`]); `None`
/// for any other event or tool.
///
/// ```
/// use hooks_schema::{Envelope, HookEvent, ToolCall, ToolKind, edited_paths_from_args};
/// use serde_json::json;
///
/// let mut e = Envelope::new(HookEvent::PreToolUse);
/// e.tool = Some(ToolCall { name: "Write".into(), kind: ToolKind::FileWrite, native_kind: None,
///     call_id: None, mcp_server: None, args: json!({"file_path": "a.txt", "content": "x"}) });
/// assert_eq!(edited_paths_from_args(&e), Some(vec!["a.txt".to_owned()]));
/// ```
pub fn edited_paths_from_args(envelope: &Envelope) -> Option<Vec<String>> {
    if envelope.event != HookEvent::PreToolUse {
        return None;
    }
    let tool = envelope.tool.as_ref()?;
    if tool.kind == ToolKind::Shell {
        // `apply_patch` run through the shell tool (Codex applies such a call as its file
        // tool): the patch's files, when the command carries one.
        let texts: Vec<&str> = match tool.args.get("command") {
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let paths: Vec<String> = texts
            .into_iter()
            .filter(|t| t.contains("*** Begin Patch"))
            .flat_map(patch_paths)
            .collect();
        return (!paths.is_empty()).then_some(paths);
    }
    if tool.kind == ToolKind::Mcp {
        return mcp_edited_paths(tool);
    }
    // A text-editor tool's `view` command (Copilot CLI's `str_replace_editor`) reads.
    if tool.kind != ToolKind::FileWrite
        || tool.args.get("command").and_then(Value::as_str) == Some("view")
    {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    named_paths(&tool.args, &[&EDITED_PATH_ARGS], false, &mut out);
    let strings: Vec<&str> = match &tool.args {
        Value::String(s) => vec![s.as_str()],
        Value::Object(m) => m.values().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    out.extend(strings.into_iter().flat_map(patch_paths));
    Some(first_of_each(out))
}

/// The argument names an MCP tool may give a file it writes in, beside [`EDITED_PATH_ARGS`]
/// (the reference file server's `move_file` takes `source` and `destination`; a resource's
/// `uri` is a file to the guard when it is a `file:` URL).
pub const MCP_PATH_ARGS: [&str; 8] =
    ["source", "destination", "target", "new_path", "old_path", "filename", "paths", "uri"];

/// The verbs an MCP tool's own name starts with when it only reads (`read_text_file`,
/// `list_directory`, `get_file_info`, `search_files`, `directory_tree`): its files are not
/// edits, unless a word of the name is also one of [`MCP_WRITE_VERBS`] (`find_and_replace`).
/// Any other MCP tool that names a file is taken as writing it, since the bridge cannot tell
/// what an unknown server does with a path.
pub const MCP_READ_VERBS: [&str; 12] = [
    "read",
    "list",
    "get",
    "search",
    "find",
    "view",
    "show",
    "stat",
    "describe",
    "directory",
    "query",
    "fetch",
];

/// The words that make an MCP tool's name one that writes, whatever verb it starts with
/// (`find_and_replace`, `get_or_create_file`).
pub const MCP_WRITE_VERBS: [&str; 20] = [
    "write", "edit", "create", "delete", "remove", "move", "rename", "replace", "insert", "append",
    "update", "save", "put", "patch", "apply", "copy", "set", "mkdir", "touch", "upload",
];

/// The files an MCP tool's arguments name, for the guard: `None` when its own name (after
/// `mcp__<server>__`) starts with a reading verb and holds no writing one, or it names none.
fn mcp_edited_paths(tool: &crate::ToolCall) -> Option<Vec<String>> {
    let own = match tool.name.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
        Some((_, own)) => own,
        None => tool.name.as_str(),
    };
    let own = own.to_ascii_lowercase();
    let words: Vec<&str> = own.split(['_', '-', '.']).filter(|w| !w.is_empty()).collect();
    let reads = words.first().is_some_and(|w| MCP_READ_VERBS.contains(w));
    if reads && !words.iter().any(|w| MCP_WRITE_VERBS.contains(w)) {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    named_paths(&tool.args, &[&EDITED_PATH_ARGS, &MCP_PATH_ARGS], true, &mut out);
    mcp_named_paths(&tool.args, &mut out);
    (!out.is_empty()).then(|| first_of_each(out))
}

/// `paths` with each kept once, at its first place (a hash set: an agent's input can hold
/// many).
fn first_of_each(paths: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::with_capacity(paths.len());
    paths.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// Parts of an argument's name that make its value a file or folder an MCP tool may write,
/// the name compared in lower case without `_` and `-`: what servers other than the
/// reference one call them (`filePath`, `output_file`, `targetDir`, `dest`, `newName`), at any
/// depth of the arguments (`{"file": {"path": …}}`).
pub const MCP_PATH_KEY_PARTS: [&str; 13] = [
    "path", "file", "dir", "folder", "dest", "target", "source", "src", "uri", "output",
    "location", "newname", "oldname",
];

/// Argument names (compared the same way) that name the folder a tool works in, not a file
/// it writes: their values are not edits (a folder that holds hook files would be refused).
pub const MCP_CONTEXT_KEYS: [&str; 15] = [
    "cwd",
    "workdir",
    "workingdir",
    "workingdirectory",
    "root",
    "rootdir",
    "rootpath",
    "basedir",
    "basepath",
    "projectdir",
    "projectpath",
    "projectroot",
    "repo",
    "repopath",
    "repository",
];

/// The longest text taken as a path (a longer one names no file the system can open).
const MCP_MAX_PATH_BYTES: usize = 4096;

/// Appends to `out` the strings under argument names that name a file
/// ([`MCP_PATH_KEY_PARTS`], not [`MCP_CONTEXT_KEYS`]), and the strings of lists under them,
/// searching nested objects and lists whatever their name. Neither depth nor count is capped
/// here (a cap would be a place to hide a path past): the hook input is capped in size, and
/// its JSON in depth, before it gets here.
fn mcp_named_paths(v: &Value, out: &mut Vec<String>) {
    let mut push = |p: &str| {
        if !p.trim().is_empty() && p.len() <= MCP_MAX_PATH_BYTES {
            out.push(p.to_owned());
        }
    };
    match v {
        Value::Object(members) => {
            let mut nested = Vec::new();
            for (key, value) in members {
                let key: String = key
                    .chars()
                    .filter(|c| *c != '_' && *c != '-')
                    .flat_map(char::to_lowercase)
                    .collect();
                let names_a_file = !MCP_CONTEXT_KEYS.contains(&key.as_str())
                    && MCP_PATH_KEY_PARTS.iter().any(|part| key.contains(part));
                match value {
                    Value::String(p) if names_a_file => push(p),
                    Value::Array(items) if names_a_file => {
                        items.iter().filter_map(Value::as_str).for_each(&mut push);
                    }
                    _ => {}
                }
                if value.is_object() || value.is_array() {
                    nested.push(value);
                }
            }
            for value in nested {
                mcp_named_paths(value, out);
            }
        }
        Value::Array(items) => {
            for item in items.iter().filter(|i| i.is_object() || i.is_array()) {
                mcp_named_paths(item, out);
            }
        }
        _ => {}
    }
}

/// Appends to `out`, in order, the paths a tool's arguments `args` give under
/// the argument names `keys`, then those each entry of their `edits` list gives; with
/// `lists`, an argument that is a list of strings gives each of them too.
fn named_paths(args: &Value, keys: &[&[&str]], lists: bool, out: &mut Vec<String>) {
    let edits = args.get("edits").and_then(Value::as_array).into_iter().flatten();
    for v in std::iter::once(args).chain(edits) {
        for k in keys.iter().flat_map(|k| k.iter()) {
            let found: Vec<&str> = match v.get(k) {
                Some(Value::String(p)) => vec![p.as_str()],
                Some(Value::Array(ps)) if lists => ps.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            out.extend(found.into_iter().map(str::to_owned));
        }
    }
}

/// Another format's hook files an agent runs itself ([`FormatDescriptor::host_also_runs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OtherFormatFiles {
    /// The other format.
    pub format: FormatId,
    /// The scopes whose files of that format the agent runs.
    pub scopes: &'static [FileScope],
    /// The names of the roles ([`crate::FileRole::name`]) of those files the agent runs
    /// (`claude_settings`): a format's other files (Claude Code's subagents, whose hooks run
    /// only where its settings make one the main thread's agent) are not the agent's.
    pub roles: &'static [&'static str],
}

/// Whether the agent of `host` runs sources of `kind` itself: every hook file of its own
/// format (project, user and managed), and the other formats' files it declares
/// ([`FormatDescriptor::host_also_runs`]). Explicit sources (named by whoever started the
/// engine) are never the agent's own.
pub fn host_runs(host: &dyn FormatDescriptor, kind: HookSourceKind) -> bool {
    let SourceScope::File(scope) = kind.scope() else { return false };
    let Some(format) = kind.format() else { return false };
    let role = kind.role().map(crate::FileRole::name);
    format == host.id()
        || host.host_also_runs().iter().any(|o| {
            o.format == format
                && o.scopes.contains(&scope)
                && role.is_some_and(|r| o.roles.contains(&r))
        })
}

/// A reason as an agent shows it, with the hook that gave it: `<reason> (hook <id>,
/// <file>:<line>)`; never empty (`denied by hook <id> (<file>:<line>)` without a reason).
///
/// ```
/// use hooks_schema::reason_with_provenance;
///
/// assert_eq!(reason_with_provenance(Some("no"), None), "no");
/// assert_eq!(reason_with_provenance(None, None), "denied by a hook");
/// ```
pub fn reason_with_provenance(reason: Option<&str>, by: Option<&Provenance>) -> String {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    let Some(p) = by else {
        return reason.unwrap_or("denied by a hook").to_owned();
    };
    let place = match p.line {
        Some(l) => format!("{}:{l}", p.source.path),
        None => p.source.path.to_string(),
    };
    match reason {
        Some(r) => format!("{r} (hook {}, {place})", p.hook_id),
        None => format!("denied by hook {} ({place})", p.hook_id),
    }
}

/// An agent's hook input as the JSON object every agent sends; text that is not JSON, or JSON
/// that is not an object, is [`HostError::Malformed`].
///
/// ```
/// use hooks_schema::{HostError, json_object};
/// assert_eq!(json_object(br#"{"a": 1}"#).unwrap()["a"], 1);
/// assert!(matches!(json_object(b"[1]"), Err(HostError::Malformed(m)) if m == "not a JSON object"));
/// ```
pub fn json_object(stdin: &[u8]) -> Result<serde_json::Map<String, Value>, HostError> {
    let value: Value = serde_json::from_slice(stdin)
        .map_err(|e| HostError::Malformed(format!("not JSON: {e}")))?;
    match value {
        Value::Object(m) => Ok(m),
        _ => Err(HostError::Malformed("not a JSON object".to_owned())),
    }
}

/// Reads an agent's hook input that names its event in `hook_event_name` (Claude Code and the
/// agents that copied its protocol: Codex, Cursor): the input as a JSON object, without that
/// field, and the event's native name, taken from the input or else from the command line.
///
/// Input that is not a JSON object, a `hook_event_name` that is not a string, no event named
/// in either place, or two different names are [`HostError::Malformed`].
pub fn object_naming_its_event(
    stdin: &[u8],
    event_arg: Option<&str>,
) -> Result<(serde_json::Map<String, Value>, String), HostError> {
    let mut m = json_object(stdin)?;
    let name = match (take_str(&mut m, "hook_event_name")?, event_arg) {
        (Some(n), Some(a)) if n != a => {
            return Err(HostError::Malformed(format!(
                "the input names event `{n}` but the command line says `{a}`"
            )));
        }
        (Some(n), _) => n,
        (None, Some(a)) => a.to_owned(),
        (None, None) => {
            return Err(HostError::Malformed("no `hook_event_name` and no event given".to_owned()));
        }
    };
    Ok((m, name))
}

/// Removes `key` from an agent's hook input and reads it as an optional string (absent or
/// `null` is `None`); any other type is [`HostError::Malformed`].
pub fn take_str(
    m: &mut serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, HostError> {
    match m.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(HostError::Malformed(format!("`{key}` must be a string"))),
    }
}

/// Removes `key` when it holds a number and reads it as a count (a duration in milliseconds,
/// a size): a fraction is cut off; a negative number, or anything but a number (left in
/// place), is `None`. Agents' optional counts are never worth failing an event for.
///
/// ```
/// use hooks_schema::take_u64;
///
/// let mut m = serde_json::json!({"a": 12, "b": 3.7, "c": -1, "d": "5"}).as_object().cloned().unwrap();
/// assert_eq!(take_u64(&mut m, "a"), Some(12));
/// assert_eq!(take_u64(&mut m, "b"), Some(3));
/// assert_eq!(take_u64(&mut m, "c"), None);
/// assert_eq!(take_u64(&mut m, "d"), None);
/// assert_eq!(m.keys().collect::<Vec<_>>(), ["d"]);
/// ```
pub fn take_u64(m: &mut serde_json::Map<String, Value>, key: &str) -> Option<u64> {
    let Some(Value::Number(n)) = m.get(key) else { return None };
    let v = n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64));
    m.remove(key);
    v
}

/// Reads `key` of an agent's hook input as an optional string without taking it out (absent
/// or `null` is `None`); any other type is [`HostError::Malformed`], as [`take_str`] says.
///
/// ```
/// use hooks_schema::get_str;
///
/// let m = serde_json::json!({"a": "x", "b": 1}).as_object().cloned().unwrap();
/// assert_eq!(get_str(&m, "a").unwrap().as_deref(), Some("x"));
/// assert_eq!(get_str(&m, "c").unwrap(), None);
/// assert!(get_str(&m, "b").is_err());
/// ```
pub fn get_str(m: &serde_json::Map<String, Value>, key: &str) -> Result<Option<String>, HostError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(HostError::Malformed(format!("`{key}` must be a string"))),
    }
}

/// Removes `key` and reads it as a flag (absent or `null` is `false`); any other type is
/// [`HostError::Malformed`].
pub fn take_bool(m: &mut serde_json::Map<String, Value>, key: &str) -> Result<bool, HostError> {
    match m.remove(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(HostError::Malformed(format!("`{key}` must be a boolean"))),
    }
}

/// The fields Claude Code's hook input gives a stop, a subagent's end and a compaction, which
/// agents that copied its protocol (Codex) send with the same names: read once here so every
/// such host decodes them alike.
pub mod claude_shaped {
    use serde_json::{Map, Value};

    use super::{take_bool, take_str};
    use crate::{Compaction, HostError, StopInfo, Subagent, ToolCall, ToolKind, ToolResult};

    /// A tool event's call: `tool_name` (required), `tool_input` (an empty object when
    /// absent), `tool_use_id`, and for a tool named `mcp__<server>__<tool>` of kind
    /// [`ToolKind::Mcp`], its server; `kind_of` is the host's own table of tool kinds.
    ///
    /// ```
    /// use hooks_schema::{ToolKind, claude_shaped};
    ///
    /// let mut m = serde_json::json!({
    ///     "tool_name": "mcp__github__create_issue",
    ///     "tool_use_id": "t1",
    /// })
    /// .as_object()
    /// .cloned()
    /// .unwrap();
    /// let call = claude_shaped::tool_call(&mut m, |_| ToolKind::Mcp).unwrap();
    /// assert_eq!(call.mcp_server.as_deref(), Some("github"));
    /// assert_eq!(call.args, serde_json::json!({}));
    /// assert!(m.is_empty(), "the fields read are taken out");
    /// ```
    pub fn tool_call(
        m: &mut Map<String, Value>,
        kind_of: impl Fn(&str) -> ToolKind,
    ) -> Result<ToolCall, HostError> {
        let name = take_str(m, "tool_name")?
            .ok_or_else(|| HostError::Malformed("`tool_name` is missing".to_owned()))?;
        let args = m.remove("tool_input").unwrap_or(Value::Object(Map::new()));
        let kind = kind_of(&name);
        let mcp_server = (kind == ToolKind::Mcp)
            .then(|| name.strip_prefix("mcp__").and_then(|r| r.split_once("__")))
            .flatten()
            .map(|(server, _)| server.to_owned());
        Ok(ToolCall {
            name,
            kind,
            native_kind: None,
            call_id: take_str(m, "tool_use_id")?,
            mcp_server,
            args,
        })
    }

    /// A finished tool's `tool_response` as its result: a string is its text, any other
    /// value its output, absent or `null` nothing; with the call's duration when the host
    /// gives one.
    ///
    /// ```
    /// use hooks_schema::claude_shaped;
    ///
    /// let mut m = serde_json::json!({"tool_response": "done"}).as_object().cloned().unwrap();
    /// let result = claude_shaped::tool_response(&mut m, Some(12));
    /// assert_eq!((result.text.as_deref(), result.duration_ms), (Some("done"), Some(12)));
    /// ```
    pub fn tool_response(m: &mut Map<String, Value>, duration_ms: Option<u64>) -> ToolResult {
        match m.remove("tool_response") {
            None | Some(Value::Null) => ToolResult { duration_ms, ..ToolResult::default() },
            Some(Value::String(s)) => {
                ToolResult { text: Some(s), duration_ms, ..ToolResult::default() }
            }
            Some(o) => ToolResult { output: Some(o), duration_ms, ..ToolResult::default() },
        }
    }

    /// `Stop`: `last_assistant_message`, `stop_hook_active`.
    pub fn stop(m: &mut Map<String, Value>) -> Result<StopInfo, HostError> {
        Ok(StopInfo {
            last_message: take_str(m, "last_assistant_message")?,
            stop_hook_active: take_bool(m, "stop_hook_active")?,
            ..StopInfo::default()
        })
    }

    /// `SubagentStart`/`SubagentStop`: `agent_id`, `agent_type`, `last_assistant_message`,
    /// and for the stop, `stop_hook_active`.
    pub fn subagent(
        m: &mut Map<String, Value>,
        stopping: bool,
    ) -> Result<(Subagent, Option<StopInfo>), HostError> {
        let subagent = Subagent {
            id: take_str(m, "agent_id")?,
            agent_type: take_str(m, "agent_type")?,
            summary: take_str(m, "last_assistant_message")?,
            ..Subagent::default()
        };
        let stop = if stopping {
            Some(StopInfo {
                stop_hook_active: take_bool(m, "stop_hook_active")?,
                ..StopInfo::default()
            })
        } else {
            None
        };
        Ok((subagent, stop))
    }

    /// `PreCompact`/`PostCompact`: `trigger`, `custom_instructions`.
    pub fn compaction(m: &mut Map<String, Value>) -> Result<Compaction, HostError> {
        Ok(Compaction {
            trigger: take_str(m, "trigger")?,
            custom_instructions: take_str(m, "custom_instructions")?,
            ..Compaction::default()
        })
    }
}

/// The non-empty texts of `items` (the folded verdict's context, messages or follow-ups),
/// joined by a blank line; `None` when there is none.
///
/// ```
/// use hooks_schema::joined_texts;
///
/// assert_eq!(joined_texts(&[]), None);
/// ```
pub fn joined_texts(items: &[(Provenance, String)]) -> Option<String> {
    let texts: Vec<&str> =
        items.iter().map(|(_, t)| t.as_str()).filter(|t| !t.trim().is_empty()).collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// The answer of an agent that reads one JSON object on stdout with exit code 0 (Claude
/// Code's shape, which Codex shares): the top-level fields `out`, and the event's own fields
/// `specific` under `hookSpecificOutput` with `hookEventName: <native_event>` first (left out
/// when there are none); no output at all when both are empty.
///
/// ```
/// use hooks_schema::json_answer;
/// use serde_json::{Map, json};
///
/// let mut specific = Map::new();
/// specific.insert("permissionDecision".into(), json!("deny"));
/// let answer = json_answer("PreToolUse", Map::new(), specific);
/// assert_eq!(
///     String::from_utf8(answer.stdout).unwrap(),
///     "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\"}}\n"
/// );
/// assert!(json_answer("Stop", Map::new(), Map::new()).stdout.is_empty());
/// ```
pub fn json_answer(
    native_event: &str,
    mut out: serde_json::Map<String, Value>,
    specific: serde_json::Map<String, Value>,
) -> HostAnswer {
    if !specific.is_empty() {
        let mut named = serde_json::Map::new();
        named.insert("hookEventName".into(), Value::String(native_event.to_owned()));
        named.extend(specific);
        out.insert("hookSpecificOutput".into(), Value::Object(named));
    }
    let mut answer = HostAnswer::json_object(out);
    if !answer.stdout.is_empty() {
        answer.stdout.push(b'\n');
    }
    answer
}

/// A file `hooks install` writes the bridge into (issue 20): the agent's own configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstallTarget {
    /// Whose configuration it is (project or user).
    pub scope: FileScope,
    /// The file, relative to the project root or the format's user folder.
    pub path: &'static str,
}

#[cfg(test)]
mod tests;
