//! Cursor's tool type names (`Shell`, `Read`, `Write`, `Grep`, `Delete`, `Task`,
//! `MCP:<tool>`) derived from a canonical tool call, for matchers and `tool_name`.

use hooks_schema::{ToolCall, ToolKind};

/// Tool type names Cursor itself uses; a host's `native_kind` with one of these is taken as is.
const CURSOR_TYPES: [&str; 11] = [
    "Shell",
    "Read",
    "Write",
    "Grep",
    "Delete",
    "Task",
    "WebFetch",
    "WebSearch",
    "TabRead",
    "TabWrite",
    "Glob",
];

/// Other agents' tool names and the Cursor type they correspond to.
const ALIASES: [(&str, &str); 20] = [
    ("Bash", "Shell"),
    ("bash", "Shell"),
    ("shell", "Shell"),
    ("run_shell_command", "Shell"),
    ("run_terminal_cmd", "Shell"),
    ("read_file", "Read"),
    ("read", "Read"),
    ("Edit", "Write"),
    ("MultiEdit", "Write"),
    ("NotebookEdit", "Write"),
    ("edit_file", "Write"),
    ("write_file", "Write"),
    ("search_replace", "Write"),
    ("write", "Write"),
    ("edit", "Write"),
    ("delete_file", "Delete"),
    ("grep", "Grep"),
    ("grep_search", "Grep"),
    ("codebase_search", "Grep"),
    ("Agent", "Task"),
];

/// The Cursor tool type of a canonical tool call.
///
/// In order: an MCP tool is `MCP:<tool>` (the tool's own name, without a Claude-style
/// `mcp__<server>__` prefix); a `native_kind` that is one of Cursor's type names is used
/// as is; a known tool name of another agent is mapped (`Bash` → `Shell`, `Edit` →
/// `Write`, …); a name that already is a Cursor type is kept; otherwise the kind decides
/// (`shell` → `Shell`, `file_read` → `Read`, `file_write` → `Write`, `search` → `Grep`,
/// `subagent` → `Task`) and `web`/`other` keep the tool's own name.
pub fn tool_type(tool: &ToolCall) -> String {
    if tool.kind == ToolKind::Mcp {
        if let Some(nk) = tool.native_kind.as_deref()
            && nk.starts_with("MCP:")
        {
            return nk.to_owned();
        }
        return format!("MCP:{}", mcp_tool_name(tool));
    }
    if let Some(nk) = tool.native_kind.as_deref()
        && CURSOR_TYPES.contains(&nk)
    {
        return nk.to_owned();
    }
    if let Some((_, t)) = ALIASES.iter().find(|(alias, _)| *alias == tool.name) {
        return (*t).to_owned();
    }
    if CURSOR_TYPES.contains(&tool.name.as_str()) {
        return tool.name.clone();
    }
    match tool.kind {
        ToolKind::Shell => "Shell".to_owned(),
        ToolKind::FileRead => "Read".to_owned(),
        ToolKind::FileWrite => "Write".to_owned(),
        ToolKind::Search => "Grep".to_owned(),
        ToolKind::Subagent => "Task".to_owned(),
        ToolKind::Mcp | ToolKind::Web | ToolKind::Other => tool.name.clone(),
    }
}

/// The Cursor tool type of the envelope's tool call; `None` when it carries none.
pub fn envelope_tool_type(envelope: &hooks_schema::Envelope) -> Option<String> {
    envelope.tool.as_ref().map(tool_type)
}

/// The MCP tool's own name: `tool` for `mcp__server__tool`, the name itself otherwise.
pub fn mcp_tool_name(tool: &ToolCall) -> &str {
    let name = tool.name.as_str();
    if let Some(rest) = name.strip_prefix("mcp__")
        && let Some((_, t)) = rest.split_once("__")
        && !t.is_empty()
    {
        return t;
    }
    name
}

/// The Cursor tool type another agent's tool name corresponds to (`Bash` → `Shell`).
pub(crate) fn alias(name: &str) -> Option<&'static str> {
    ALIASES.iter().find(|(a, _)| *a == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests;
