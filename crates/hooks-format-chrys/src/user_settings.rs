//! The user's own Chrys settings document (`<config_dir>/settings.yaml`): the one setting the
//! engine reads from it, `project.hooks_enabled`, with Chrys 0.32.0's flattening and
//! boolean coercion (sans-IO).
//!
//! Chrys reads the document with PyYAML (YAML 1.1), flattens nested mappings into dotted keys
//! (`project: {hooks_enabled: true}` and a literal `project.hooks_enabled: true` are the same
//! setting) and coerces the value with its boolean grammar: a YAML boolean, the integers `0`
//! and `1`, or a string that, stripped and lowercased, is one of `1 true yes on` or
//! `0 false no off`. A null or blank value says nothing; anything else is invalid and leaves
//! the setting at its default (off), with a warning.

use std::path::Path;

use hooks_schema::HookDiagnostic;

use crate::{
    load::py_strip,
    pyval::{Node, PyInt, PyValue},
    text, yaml,
};

/// The name of the settings document in Chrys's config directory.
pub const USER_SETTINGS_FILE: &str = "settings.yaml";

/// The dotted key of the project-hooks opt-in.
pub const PROJECT_HOOKS_ENABLED_KEY: &str = "project.hooks_enabled";

/// The largest settings document parsed. Chrys caps a settings document it does not own at
/// 1 MiB (a real one is a few hundred bytes); the engine reads hook files with the same cap.
pub const MAX_SETTINGS_BYTES: usize = 1024 * 1024;

/// Top-level housekeeping keys Chrys never reads as settings.
const RESERVED_DOC_KEYS: [&str; 2] = ["schema_version", "migrations"];

/// Chrys's boolean grammar (`foundation/config/coercion.py`), after strip and lowercase.
const TRUTHY: [&str; 4] = ["1", "true", "yes", "on"];
const FALSY: [&str; 4] = ["0", "false", "no", "off"];

/// What the user's settings document says about project hooks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserSettings {
    /// `project.hooks_enabled`: `None` when the document does not set it (absent, null or
    /// blank), when its value is invalid, or when the document cannot be read as settings.
    pub project_hooks_enabled: Option<bool>,
    /// Why the document or the value was not usable, each on the file (and line when known).
    pub diagnostics: Vec<HookDiagnostic>,
}

/// Reads `project.hooks_enabled` from the bytes of the user's Chrys settings document.
/// `path` names the file in diagnostics; nothing is read from disk.
///
/// Bytes rather than text because the encoding rules are those of the hooks file (a
/// byte-order mark is honoured, otherwise strict UTF-8). An empty document, one of only
/// comments or an explicit null sets nothing. A document that does not decode, does not parse
/// or is not a mapping sets nothing and gives an error (Chrys loads it as empty); a value
/// outside the boolean grammar gives a warning on its line and sets nothing (Chrys falls back
/// to the default, off). Never panics.
pub fn parse_user_settings(bytes: &[u8], path: &Path) -> UserSettings {
    let mut out = UserSettings::default();
    let error = |message: String| {
        HookDiagnostic::error(message).in_file(path).with_code("user_settings_invalid")
    };
    if bytes.len() > MAX_SETTINGS_BYTES {
        out.diagnostics.push(error(format!(
            "settings file is {} bytes, above the {MAX_SETTINGS_BYTES} byte cap; its settings are ignored",
            bytes.len()
        )));
        return out;
    }
    let text = match text::decode(bytes) {
        Ok(t) => t,
        Err(detail) => {
            out.diagnostics.push(error(format!(
                "cannot decode the settings file: {detail}; its settings are ignored"
            )));
            return out;
        }
    };
    let root = match yaml::load(&text) {
        Ok(root) => root,
        Err(yaml::YamlError::Syntax(detail)) => {
            let mut d = error(format!(
                "cannot parse the settings file: {detail}\nits settings are ignored"
            ));
            if let Some((l, c)) = syntax_mark(&detail) {
                d = d.at(l, c);
            }
            out.diagnostics.push(d);
            return out;
        }
        Err(yaml::YamlError::Constructor) => {
            out.diagnostics.push(error(format!(
                "cannot parse the settings file: {}; its settings are ignored",
                yaml::CONSTRUCTOR_ERROR
            )));
            return out;
        }
    };
    let Some(root) = root.filter(|n| n.value != PyValue::None) else {
        return out;
    };
    if !matches!(root.value, PyValue::Dict(_)) {
        let mut d = error(format!(
            "the settings file must be a mapping, got {}; its settings are ignored",
            root.value.type_name()
        ));
        if let Some((l, c)) = root.mark {
            d = d.at(l, c);
        }
        out.diagnostics.push(d);
        return out;
    }
    let Some(node) = find_setting(&root, PROJECT_HOOKS_ENABLED_KEY) else {
        return out;
    };
    match coerce_bool(&node.value) {
        Coerced::Missing => {}
        Coerced::Valid(b) => out.project_hooks_enabled = Some(b),
        Coerced::Invalid => {
            let mut d = HookDiagnostic::warning(format!(
                "{PROJECT_HOOKS_ENABLED_KEY} must be a boolean (true/false, yes/no, on/off, 1/0), got {}; project hooks stay off",
                hooks_schema::quoted_value(
                    node.value.type_name(),
                    &format!("{} {}", node.value.type_name(), shorten(&node.value.repr())),
                ),
            ))
            .in_file(path)
            .with_code("user_setting_invalid");
            if let Some((l, c)) = node.mark {
                d = d.at(l, c);
            }
            out.diagnostics.push(d);
        }
    }
    out
}

/// The value Chrys would take for the dotted `key` from the document `root`.
///
/// Chrys's `flatten_user_doc` walks the document depth first in file order, joining keys
/// with `.` (`str()` of each key), so a dotted literal at any depth (`project.hooks_enabled`
/// at the top, or `project: {hooks_enabled: …}`) names the same setting, and every spelling
/// found overwrites the one before: **the last spelling in file order wins**. We keep that
/// rule rather than preferring one spelling, so a document means the same thing to both.
/// A known key is a leaf even when its value is a mapping (that is an invalid value), and
/// the top-level housekeeping keys are skipped.
///
/// The walk stops at [`MAX_WALK_DEPTH`] nested mappings: Chrys refuses a document that
/// expands deeper than that, and aliases can expand a short text very deep.
fn find_setting<'a>(root: &'a Node, key: &str) -> Option<&'a Node> {
    let mut found = None;
    walk(root, "", key, 0, &mut found);
    found
}

/// How deep the walk goes (Chrys's `_MAX_EXPANDED_CONTAINER_DEPTH`).
const MAX_WALK_DEPTH: usize = 100;

fn walk<'a>(node: &'a Node, prefix: &str, key: &str, depth: usize, found: &mut Option<&'a Node>) {
    let PyValue::Dict(pairs) = &node.value else { return };
    if depth >= MAX_WALK_DEPTH {
        return;
    }
    for (k, v) in pairs {
        let name = k.value.py_str();
        let dotted = if prefix.is_empty() { name } else { format!("{prefix}.{name}") };
        if prefix.is_empty() && RESERVED_DOC_KEYS.contains(&dotted.as_str()) {
            continue;
        }
        if dotted == key {
            *found = Some(v);
        } else if dotted.is_empty() || key.starts_with(&format!("{dotted}.")) {
            // Only a prefix of the key can lead to it; other subtrees are other settings. An
            // empty name adds nothing to the prefix (Python's `if prefix` is false for "").
            walk(v, &dotted, key, depth + 1, found);
        }
    }
}

/// The outcome of Chrys's `bool_coercer` on one raw value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coerced {
    /// Null or a blank string: this layer says nothing.
    Missing,
    /// A usable value.
    Valid(bool),
    /// Anything else.
    Invalid,
}

fn coerce_bool(v: &PyValue) -> Coerced {
    match v {
        PyValue::None => Coerced::Missing,
        PyValue::Bool(b) => Coerced::Valid(*b),
        PyValue::Str(s) => {
            let normalized = py_strip(s).to_lowercase();
            if normalized.is_empty() {
                Coerced::Missing
            } else if TRUTHY.contains(&normalized.as_str()) {
                Coerced::Valid(true)
            } else if FALSY.contains(&normalized.as_str()) {
                Coerced::Valid(false)
            } else {
                Coerced::Invalid
            }
        }
        PyValue::Int(PyInt::Small(0)) => Coerced::Valid(false),
        PyValue::Int(PyInt::Small(1)) => Coerced::Valid(true),
        _ => Coerced::Invalid,
    }
}

/// The problem position of a PyYAML-style message: its last `line N, column M`.
fn syntax_mark(detail: &str) -> Option<(u32, u32)> {
    let at = detail.rfind("line ")?;
    let rest = detail.get(at + "line ".len()..)?;
    let (line, rest) = rest.split_once(", column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// A value's repr cut to a length fit for one diagnostic line.
fn shorten(repr: &str) -> String {
    const MAX: usize = 80;
    if repr.chars().count() <= MAX {
        return repr.to_owned();
    }
    let mut s: String = repr.chars().take(MAX).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests;
