//! What a task runner's recipe file or a package manager's manifest has it run (finding F72).
//!
//! A hook that runs `npm run lint`, `make check`, `just check`, `task lint` or `pre-commit run`
//! runs the command lines its recipe file holds: the file is protected as what the hook loads
//! (F15), and these readers give the lines, which the registry analyses as the hook's own
//! lines run from the file's folder (F60's `protect_commands`), so a script a recipe runs
//! (`"lint": "sh tools/lint.sh"`) is protected as one the hook's line names would be. The
//! readers are deliberately broad (every script of a manifest, every recipe of a makefile):
//! which one runs depends on arguments and on the recipes' own dependencies.

use std::path::Path;

/// At most this many command lines are taken from one file.
const MAX_LINES: usize = 256;

/// At most this many bytes of a recipe file are read.
const RECIPE_CAP: u64 = 256 * 1024;

/// The kinds of recipe files, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recipe {
    /// `package.json`: its `scripts` (npm, pnpm, yarn, bun; `deno task` too).
    PackageScripts,
    /// `deno.json`, `deno.jsonc`: its `tasks`, a command line or `{"command": …}` each.
    DenoTasks,
    /// A makefile: its recipe lines (those that start with a tab).
    Make,
    /// A justfile: its recipes' body lines (those that start with a blank).
    Just,
    /// `tox.ini`: its environments' `commands`, `commands_pre` and `commands_post`, one per
    /// line.
    Tox,
    /// A configuration the hook managers' reader reads ([`crate::hookmanagers::read_config`]):
    /// pre-commit's and prek's (`entry` with its `args`), lefthook's (`run`), a Taskfile
    /// (`cmds`, `cmd`).
    Manager,
}

impl Recipe {
    /// The kind of recipe file `path` is, by its name; `None` for any other file.
    pub(crate) fn of(path: &Path) -> Option<Recipe> {
        let name = path.file_name()?.to_str()?;
        Some(match name {
            "package.json" => Recipe::PackageScripts,
            "deno.json" | "deno.jsonc" => Recipe::DenoTasks,
            "Makefile" | "makefile" | "GNUmakefile" => Recipe::Make,
            "justfile" | ".justfile" | "Justfile" | "JUSTFILE" => Recipe::Just,
            "tox.ini" => Recipe::Tox,
            ".pre-commit-config.yaml" | ".pre-commit-config.yml" | "prek.toml" => Recipe::Manager,
            _ if name.ends_with(".mk") => Recipe::Make,
            _ if name.to_ascii_lowercase().starts_with("taskfile.") => Recipe::Manager,
            _ if name.trim_start_matches('.').starts_with("lefthook") => Recipe::Manager,
            _ => return None,
        })
    }
}

/// The command lines the recipe file at `path` of kind `kind` runs, read up to 256 KiB
/// without waiting on a FIFO; nothing when it is no regular file or does not parse.
pub(crate) fn read(path: &Path, kind: Recipe) -> Vec<String> {
    if kind == Recipe::Manager {
        let values = crate::hookmanagers::read_config(path);
        let rooted = values.rooted.into_iter().map(|(_, run)| run);
        return values.commands.into_iter().chain(rooted).take(MAX_LINES).collect();
    }
    crate::installations::read_capped(path, RECIPE_CAP)
        .map(|text| lines(&text, kind))
        .unwrap_or_default()
}

/// The command lines of a recipe file's text `text` of kind `kind` (not
/// [`Recipe::Manager`], read by its own reader).
pub(crate) fn lines(text: &str, kind: Recipe) -> Vec<String> {
    let mut out: Vec<String> = match kind {
        Recipe::PackageScripts => json_strings(text, "/scripts", None),
        Recipe::DenoTasks => {
            json_strings(&hooks_json::strip_comments(text), "/tasks", Some("command"))
        }
        Recipe::Make => recipe_lines(text, |line| line.strip_prefix('\t'), true),
        Recipe::Just => recipe_lines(
            text,
            |line| line.starts_with([' ', '\t']).then(|| line.trim_start()),
            false,
        ),
        Recipe::Tox => tox_commands(text),
        Recipe::Manager => Vec::new(),
    };
    out.retain(|line| !line.trim().is_empty());
    out.truncate(MAX_LINES);
    out
}

/// The string values of the object at `pointer` of a JSON text (and, with `field`, that
/// field of its object values).
fn json_strings(text: &str, pointer: &str, field: Option<&str>) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let Some(map) = value.pointer(pointer).and_then(|m| m.as_object()) else { return Vec::new() };
    map.values()
        .filter_map(|v| match (v, field) {
            (serde_json::Value::String(s), _) => Some(s.clone()),
            (serde_json::Value::Object(o), Some(f)) => o.get(f)?.as_str().map(str::to_owned),
            _ => None,
        })
        .take(MAX_LINES)
        .collect()
}

/// The values of an INI text's `commands`, `commands_pre` and `commands_post` keys, in any
/// section (tox's environments), one command per line: the text after `=` and each
/// indented line that continues it.
fn tox_commands(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_commands = false;
    for line in text.lines() {
        let continued = line.starts_with([' ', '\t']);
        if continued && in_commands {
            out.push(line.trim().to_owned());
        } else if !continued {
            in_commands = false;
            if let Some((key, value)) = line.split_once('=')
                && matches!(key.trim(), "commands" | "commands_pre" | "commands_post")
            {
                in_commands = true;
                out.push(value.trim().to_owned());
            }
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out.retain(|line| !line.starts_with(['#', ';']));
    out
}

/// The body lines of a makefile's or a justfile's recipes: each line `body` accepts (its text
/// after the indentation), without the prefixes that only change how the line is echoed or
/// its failure handled (`@`, `-`, and make's `+`), joined with the lines a trailing `\`
/// continues. For make (`make`), `$$` is the shell's `$`; a variable of make's own (`$(CC)`)
/// reads as a command substitution the analysis cannot follow, as it should.
fn recipe_lines<'a>(
    text: &'a str,
    body: impl Fn(&'a str) -> Option<&'a str>,
    make: bool,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let part = match (&pending, body(line)) {
            (Some(_), _) => line.trim_start(),
            (None, Some(b)) if !b.trim_start().starts_with('#') => b,
            (None, _) => continue,
        };
        let (part, continued) = match part.strip_suffix('\\') {
            Some(p) => (p, true),
            None => (part, false),
        };
        let joined = match pending.take() {
            Some(mut before) => {
                before.push(' ');
                before.push_str(part);
                before
            }
            None => part.trim_start_matches(['@', '-', '+']).to_owned(),
        };
        if continued {
            pending = Some(joined);
            continue;
        }
        out.push(if make { joined.replace("$$", "$") } else { joined });
        if out.len() >= MAX_LINES {
            break;
        }
    }
    if let Some(last) = pending {
        out.push(last);
    }
    out
}

#[cfg(test)]
mod tests;
