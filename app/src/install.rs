//! `hooks install`: the bridge written into an agent's own configuration as its hook
//! command, for every event the agent supports, keeping the rest of the file as it was.
//!
//! What to write comes from the agent's format descriptor: the files
//! ([`FormatDescriptor::install_targets`]), what a new file starts as
//! ([`FormatDescriptor::install_new_file`]) and the entry for each event
//! ([`FormatDescriptor::install_entry`]), appended to the event's list under the file's
//! `hooks` object. The file is edited as a concrete syntax tree (`jsonc-parser`'s CST), so
//! key order, comments and formatting of everything else stay byte for byte. An entry is the
//! engine's when one of its strings is a bridge command for this host
//! (`… bridge --host <host> --event <event>`); installing replaces stale ones, uninstalling
//! removes exactly those (and the lists and `hooks` object it leaves empty).

use std::path::Path;

use hooks_schema::{FormatDescriptor, FormatId, HookSourceKind, NativeEvent, ParseContext};
use jsonc_parser::{
    ParseOptions,
    cst::{CstArray, CstInputValue, CstObject, CstRootNode},
};
use serde_json::Value;

/// Why a file cannot be edited.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The file is not JSON (with comments) at all.
    #[error("{path}: cannot parse it ({reason}); nothing was written")]
    Syntax {
        /// The file.
        path: String,
        /// The parser's message.
        reason: String,
    },
    /// The file parses, but not as the agent reads it.
    #[error("{path}: {agent} would not read it ({reason}); nothing was written")]
    Format {
        /// The file.
        path: String,
        /// The agent.
        agent: &'static str,
        /// The format's first error.
        reason: String,
    },
    /// A value install must extend has another type.
    #[error("{path}: `{key}` is not {expected}; nothing was written")]
    Shape {
        /// The file.
        path: String,
        /// Where (`hooks`, `hooks.PreToolUse`).
        key: String,
        /// What it should be.
        expected: &'static str,
    },
}

/// The result of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The new content; `None`: delete the file (it holds nothing but what a new file starts
    /// as).
    pub after: Option<String>,
    /// Entries added.
    pub added: usize,
    /// Entries removed.
    pub removed: usize,
}

impl Edit {
    /// Whether the edit changes nothing.
    pub fn is_noop(&self, before: Option<&str>) -> bool {
        self.after.as_deref() == before
    }
}

/// Quotes `word` for a POSIX shell when it needs it.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%=".contains(c));
    if plain { word.to_owned() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// The command an agent runs for `event`: `<hooks> bridge --host <host> --event <event>`.
pub fn bridge_command(hooks: &Path, host: FormatId, event: &str) -> String {
    format!("{} {}", shell_word(&hooks.to_string_lossy()), bridge_args(host, event))
}

fn bridge_args(host: FormatId, event: &str) -> String {
    format!("bridge --host {host} --event {event}")
}

/// Whether `v` holds a bridge command for `host` in one of its strings.
fn is_ours(v: &Value, host: FormatId) -> bool {
    let marker = format!(" bridge --host {host} --event ");
    fn walk(v: &Value, marker: &str) -> bool {
        match v {
            Value::String(s) => s.contains(marker),
            Value::Array(a) => a.iter().any(|v| walk(v, marker)),
            Value::Object(m) => m.values().any(|v| walk(v, marker)),
            _ => false,
        }
    }
    walk(v, &marker)
}

/// The entries `descriptor` registers the bridge with, per native event, `hooks` being the
/// bridge executable.
pub fn entries(descriptor: &dyn FormatDescriptor, hooks: &Path) -> Vec<(&'static str, Value)> {
    descriptor
        .events()
        .iter()
        .filter_map(|e: &NativeEvent| {
            let command = bridge_command(hooks, descriptor.id(), e.name);
            descriptor.install_entry(e, &command).map(|v| (e.name, v))
        })
        .collect()
}

fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(m) => {
            CstInputValue::Object(m.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

/// The target file parsed as a CST, or a new one.
fn parse(path: &str, before: Option<&str>, new_file: &str) -> Result<CstRootNode, InstallError> {
    let text = before.unwrap_or(new_file);
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|e| InstallError::Syntax { path: path.to_owned(), reason: e.to_string() })?;
    if root.value().is_none() || root.object_value().is_none() {
        return Err(InstallError::Shape {
            path: path.to_owned(),
            key: "the document".to_owned(),
            expected: "a JSON object",
        });
    }
    Ok(root)
}

/// Checks that the agent's own parser accepts `text` as a `kind` file at `path`.
pub fn validate(
    descriptor: &dyn FormatDescriptor,
    kind: HookSourceKind,
    path: &Path,
    text: &str,
) -> Result<(), InstallError> {
    let ctx = ParseContext::new(path, kind);
    match descriptor.parse(text.as_bytes(), &ctx) {
        Ok(_) => Ok(()),
        Err(diagnostics) => Err(InstallError::Format {
            path: path.display().to_string(),
            agent: descriptor.agent(),
            reason: diagnostics.first().map_or_else(String::new, |d| d.message.clone()),
        }),
    }
}

/// Removes the host's entries from every list under `hooks`; returns how many.
fn remove_ours(hooks: &CstObject, host: FormatId) -> usize {
    let mut removed = 0;
    for prop in hooks.properties() {
        let Some(list) = prop.array_value() else { continue };
        let mut took = 0;
        for element in list.elements() {
            if element.to_serde_value().is_some_and(|v| is_ours(&v, host)) {
                element.remove();
                took += 1;
            }
        }
        if took > 0 && list.elements().is_empty() {
            prop.remove();
        }
        removed += took;
    }
    removed
}

/// The file `before` (`None`: absent) with the bridge installed for `descriptor`'s host:
/// every entry of [`entries`] present once, stale ones of this host replaced.
pub fn install(
    descriptor: &dyn FormatDescriptor,
    path: &Path,
    before: Option<&str>,
    hooks: &Path,
) -> Result<Edit, InstallError> {
    let shown = path.display().to_string();
    let host = descriptor.id();
    let wanted = entries(descriptor, hooks);
    let root = parse(&shown, before, descriptor.install_new_file())?;
    let object = root.object_value_or_set();
    let shape = |key: String, expected| InstallError::Shape { path: shown.clone(), key, expected };
    let hooks_obj =
        object.object_value_or_create("hooks").ok_or_else(|| shape("hooks".into(), "an object"))?;
    // Already exactly installed: change nothing.
    let present = |event: &str, v: &Value| -> bool {
        hooks_obj.array_value(event).is_some_and(|list: CstArray| {
            let ours: Vec<Value> = list
                .elements()
                .iter()
                .filter_map(|e| e.to_serde_value())
                .filter(|e| is_ours(e, host))
                .collect();
            ours.len() == 1 && &ours[0] == v
        })
    };
    let ours_total: usize = hooks_obj
        .properties()
        .iter()
        .filter_map(|p| p.array_value())
        .flat_map(|l| l.elements())
        .filter(|e| e.to_serde_value().is_some_and(|v| is_ours(&v, host)))
        .count();
    if before.is_some() && ours_total == wanted.len() && wanted.iter().all(|(e, v)| present(e, v)) {
        return Ok(Edit { after: before.map(str::to_owned), added: 0, removed: 0 });
    }
    let removed = remove_ours(&hooks_obj, host);
    for (event, value) in &wanted {
        let list = hooks_obj
            .array_value_or_create(event)
            .ok_or_else(|| shape(format!("hooks.{event}"), "a list"))?;
        list.append(input(value));
    }
    Ok(Edit { after: Some(root.to_string()), added: wanted.len(), removed })
}

/// The file `before` without the host's entries; [`Edit::after`] is `None` when what is
/// left is what a new file starts as.
pub fn uninstall(
    descriptor: &dyn FormatDescriptor,
    path: &Path,
    before: &str,
) -> Result<Edit, InstallError> {
    let shown = path.display().to_string();
    let root = parse(&shown, Some(before), descriptor.install_new_file())?;
    let object = root.object_value_or_set();
    let Some(hooks_obj) = object.object_value("hooks") else {
        return Ok(Edit { after: Some(before.to_owned()), added: 0, removed: 0 });
    };
    let removed = remove_ours(&hooks_obj, descriptor.id());
    if removed == 0 {
        return Ok(Edit { after: Some(before.to_owned()), added: 0, removed: 0 });
    }
    if hooks_obj.properties().is_empty()
        && let Some(p) = object.get("hooks")
    {
        p.remove();
    }
    let new_file = serde_json::from_str::<Value>(descriptor.install_new_file()).ok();
    let after = root.to_string();
    let left = object.to_serde_value();
    if left.is_some() && left == new_file {
        return Ok(Edit { after: None, added: 0, removed });
    }
    Ok(Edit { after: Some(after), added: 0, removed })
}

#[cfg(test)]
mod tests;
