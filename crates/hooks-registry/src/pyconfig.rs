//! What the configuration of Python's linters and type checkers has them load (finding F79):
//! mypy's `plugins`, flake8's `[flake8:local-plugins]` `paths`, ruff's `extend`.
//!
//! A configuration where a hook runs mypy, flake8 or ruff is protected
//! ([`crate::scripts`]'s `CODE_CONFIGS`), but the files it names are code the tool imports
//! (a mypy plugin, a flake8 local plugin's folder) or configuration it reads in turn (ruff's
//! `extend`): the agent writing those had its code run by the next event's hook, or turned
//! the gate off, without touching the protected file. Read as the tools read them (checked
//! with mypy 2.4, flake8 7.5 and ruff 0.17): INI files through sections and indented
//! continuation lines, `pyproject.toml` and `ruff.toml` as TOML; each name relative to the
//! configuration's folder.

use std::path::Path;

#[cfg(test)]
mod tests;

/// The file names that may hold such names, read where the hook runs.
pub(crate) const PLUGIN_CONFIGS: &[&str] = &[
    "pyproject.toml",
    "setup.cfg",
    "tox.ini",
    "mypy.ini",
    ".mypy.ini",
    ".flake8",
    "ruff.toml",
    ".ruff.toml",
];

/// At most this many names are taken from one file.
const MAX_NAMES: usize = 64;

/// What one configuration file names, relative to its folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Loads {
    /// Files the tool imports or reads (a mypy plugin's module, ruff's `extend`).
    pub(crate) files: Vec<String>,
    /// Folders the tool imports from (flake8's local plugins' `paths`).
    pub(crate) folders: Vec<String>,
}

/// What the configuration file named `file_name` (one of [`PLUGIN_CONFIGS`]) holding `text`
/// has mypy, flake8 or ruff load. Names that are no relative or absolute path a tool would
/// take as it is (`~/x`, `$VAR/x`) are left out.
pub(crate) fn loads(file_name: &str, text: &str) -> Loads {
    let mut out = Loads::default();
    match file_name {
        "pyproject.toml" | "ruff.toml" | ".ruff.toml" => {
            let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return out };
            let root = document.as_item();
            let (mypy, ruff) = match file_name {
                "pyproject.toml" => {
                    let tool = root.get("tool");
                    (tool.and_then(|t| t.get("mypy")), tool.and_then(|t| t.get("ruff")))
                }
                _ => (None, Some(root)),
            };
            if let Some(plugins) = mypy.and_then(|m| m.get("plugins")) {
                let entries: Vec<&str> = match plugins.as_array() {
                    Some(array) => array.iter().filter_map(|v| v.as_str()).collect(),
                    None => plugins.as_str().map(|s| s.split(',').collect()).unwrap_or_default(),
                };
                for entry in entries {
                    mypy_plugin(entry, &mut out.files);
                }
            }
            if let Some(extend) = ruff.and_then(|r| r.get("extend")).and_then(|e| e.as_str()) {
                push_path(extend, &mut out.files);
            }
        }
        _ => {
            for (section, key, value) in ini_values(text) {
                match (section.as_str(), key.as_str()) {
                    ("mypy", "plugins") => {
                        for entry in value.split([',', '\n']) {
                            mypy_plugin(entry, &mut out.files);
                        }
                    }
                    ("flake8:local-plugins", "paths") => {
                        for entry in value.split([',', '\n', ' ', '\t']) {
                            push_path(entry, &mut out.folders);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out.files.truncate(MAX_NAMES);
    out.folders.truncate(MAX_NAMES);
    out
}

/// A mypy `plugins` entry: a file (`tools/plugin.py`, with an optional `:entry_point`) or a
/// module (`pkg.plugin`, found from the configuration's folder as `pkg/plugin.py` or
/// `pkg/plugin/__init__.py`).
fn mypy_plugin(entry: &str, files: &mut Vec<String>) {
    let entry = entry.trim();
    let entry = entry.rsplit_once(':').map_or(entry, |(path, _)| path).trim();
    if entry.is_empty() {
        return;
    }
    if entry.ends_with(".py") || entry.contains('/') {
        push_path(entry, files);
    } else if entry.split('.').all(|part| !part.is_empty() && is_identifier(part)) {
        let module = entry.replace('.', "/");
        push_path(&format!("{module}.py"), files);
        push_path(&format!("{module}/__init__.py"), files);
    }
}

/// Whether `part` is a Python identifier of ASCII letters, digits and `_`.
fn is_identifier(part: &str) -> bool {
    part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !part.starts_with(|c: char| c.is_ascii_digit())
}

fn push_path(entry: &str, into: &mut Vec<String>) {
    let entry = entry.trim().trim_matches(['"', '\'']);
    if entry.is_empty() || entry.starts_with(['~', '$']) || entry.contains('\0') {
        return;
    }
    if into.len() < MAX_NAMES && !into.iter().any(|e| e == entry) {
        into.push(entry.to_owned());
    }
}

/// The `(section, key, value)` entries of an INI file as Python's `configparser` reads them:
/// `[section]` headers, `key = value` or `key: value` (keys lowercased), indented lines
/// continuing the value before them (joined with `\n`, blank lines between allowed), `#` and
/// `;` lines ignored.
fn ini_values(text: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut section = String::new();
    let mut continuing = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            // Neither a blank line nor a comment ends a value (`empty_lines_in_values`).
            continue;
        }
        if line.starts_with([' ', '\t']) && continuing {
            if let Some(last) = out.last_mut() {
                last.2.push('\n');
                last.2.push_str(trimmed);
            }
            continue;
        }
        continuing = false;
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            section = name.trim().to_owned();
            continue;
        }
        let split = trimmed.find(['=', ':']);
        if let Some(at) = split {
            let (key, value) = (&trimmed[..at], &trimmed[at + 1..]);
            if out.len() < 4 * MAX_NAMES {
                out.push((section.clone(), key.trim().to_lowercase(), value.trim().to_owned()));
                continuing = true;
            }
        }
    }
    out
}

/// Whether `path`'s file name is one of [`PLUGIN_CONFIGS`].
pub(crate) fn is_plugin_config(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| PLUGIN_CONFIGS.contains(&n))
}
