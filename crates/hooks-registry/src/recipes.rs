//! What a task runner's recipe file or a package manager's manifest has it run (finding F72).
//!
//! A hook that runs `npm run lint`, `make check`, `just check`, `task lint` or `pre-commit run`
//! runs the command lines its recipe file holds: the file is protected as what the hook loads
//! (F15), and these readers give the lines, which the registry analyses as the hook's own
//! lines run from the file's folder (F60's `protect_commands`), so a script a recipe runs
//! (`"lint": "sh tools/lint.sh"`) is protected as one the hook's line names would be. Only
//! what the line's targets run is read where the file says which lines belong to which target
//! (a manifest's scripts, with their `pre` and `post` scripts; a makefile's or a justfile's
//! recipes, with the recipes they depend on; the default one when the line names none): a
//! manifest's other scripts name the project's own code (`"start": "node src/server.js"`),
//! which the agent is there to edit. The other kinds are read whole.

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
    /// How `program` reads the recipe file at `path`: as its own kind whatever the file's name
    /// for the task runners (`make -f ci/Makefile.ci`, `task -t ci.yml`, `pre-commit -c
    /// ci.yaml`; tox's only when it is an INI file), by the file's name otherwise.
    pub(crate) fn read_by(program: &str, path: &Path) -> Option<Recipe> {
        let ini = path.extension().is_some_and(|e| e == "ini");
        match program {
            "make" | "gmake" => Some(Recipe::Make),
            "just" => Some(Recipe::Just),
            "task" | "go-task" | "pre-commit" | "prek" | "lefthook" => Some(Recipe::Manager),
            "tox" if ini => Some(Recipe::Tox),
            _ => Recipe::of(path),
        }
    }

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

/// The command lines the recipe file at `path` of kind `kind` runs for `targets` (the words of
/// the line that may name them; see [`lines`]), read up to 256 KiB without waiting on a FIFO;
/// nothing when it is no regular file or does not parse.
pub(crate) fn read(path: &Path, kind: Recipe, targets: &[String]) -> Vec<String> {
    if kind == Recipe::Manager {
        let values = crate::hookmanagers::read_config(path);
        let rooted = values.rooted.into_iter().map(|(_, run)| run);
        return values.commands.into_iter().chain(rooted).take(MAX_LINES).collect();
    }
    crate::installations::read_capped(path, RECIPE_CAP)
        .map(|text| lines(&text, kind, targets))
        .unwrap_or_default()
}

/// The command lines of a recipe file's text `text` of kind `kind` (not
/// [`Recipe::Manager`], read by its own reader) for `targets`, the words of the line that may
/// name them (a word that names none is passed over): a manifest's scripts of those names,
/// with their `pre` and `post` scripts (and the install scripts for `install`, `i`, `ci`,
/// `add` or no word); a `deno.json`'s tasks of those names; a makefile's or a justfile's
/// recipes of those names, or the first one when none is named, with the recipes they depend
/// on. A `tox.ini` is read whole.
pub(crate) fn lines(text: &str, kind: Recipe, targets: &[String]) -> Vec<String> {
    let mut out: Vec<String> = match kind {
        Recipe::PackageScripts => json_strings(text, "/scripts", None, &script_names(targets)),
        Recipe::DenoTasks => {
            let text = hooks_json::strip_comments(text);
            json_strings(&text, "/tasks", Some("command"), targets)
        }
        Recipe::Make => {
            let rules = rules(text, make_rule, |line| line.strip_prefix('\t'));
            recipe_lines(&rules, targets, true)
        }
        Recipe::Just => recipe_lines(&rules(text, just_rule, just_body), targets, false),
        Recipe::Tox => tox_commands(text),
        Recipe::Manager => Vec::new(),
    };
    out.retain(|line| !line.trim().is_empty());
    out.truncate(MAX_LINES);
    out
}

/// The scripts a package manager runs for the words `targets`: each word, with its `pre` and
/// `post` scripts, and the install scripts for an install (`install`, `i`, `ci`, `add`, or no
/// word: `yarn` alone installs).
fn script_names(targets: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for t in targets {
        names.extend([t.clone(), format!("pre{t}"), format!("post{t}")]);
    }
    let install = targets.is_empty()
        || targets.iter().any(|t| matches!(t.as_str(), "install" | "i" | "ci" | "add"));
    if install {
        let lifecycle = ["preinstall", "install", "postinstall", "prepublish", "prepare"];
        names.extend(lifecycle.map(str::to_owned));
    }
    names
}

/// The string values of the object at `pointer` of a JSON text whose keys are among `names`
/// (and, with `field`, that field of its object values).
fn json_strings(text: &str, pointer: &str, field: Option<&str>, names: &[String]) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let Some(map) = value.pointer(pointer).and_then(|m| m.as_object()) else { return Vec::new() };
    map.iter()
        .filter(|(name, _)| names.iter().any(|n| n == *name))
        .filter_map(|(_, v)| match (v, field) {
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

/// One rule of a makefile or a justfile: the targets it makes, those it depends on, the lines
/// of its recipe.
#[derive(Debug, Default)]
struct Rule {
    targets: Vec<String>,
    depends: Vec<String>,
    body: Vec<String>,
}

/// A makefile's rule line (`check build: lint test`; not a variable's `X := y` or `X = y`):
/// its targets and prerequisites (order-only ones too).
fn make_rule(line: &str) -> Option<(Vec<String>, Vec<String>)> {
    if line.starts_with(['\t', '#']) || line.trim().is_empty() {
        return None;
    }
    let colon = line.find(':')?;
    let (before, after) = (line.get(..colon)?, line.get(colon..)?);
    if before.contains('=') || after.starts_with(":=") {
        return None;
    }
    let targets = before.split_whitespace().map(str::to_owned).collect();
    let after = after.trim_start_matches(':');
    let after = after.split(';').next().unwrap_or_default();
    let depends = after.split_whitespace().filter(|w| *w != "|").map(str::to_owned).collect();
    Some((targets, depends))
}

/// A justfile's recipe header (`[@]name param='x': dep (dep2 "arg") && after`): its name and
/// the recipes it depends on, before and after it.
fn just_rule(line: &str) -> Option<(Vec<String>, Vec<String>)> {
    if line.starts_with([' ', '\t', '#', '[']) || line.trim().is_empty() {
        return None;
    }
    let first = line.split_whitespace().next()?;
    if matches!(first, "set" | "export" | "alias" | "import" | "mod" | "unexport") {
        return None;
    }
    let colon = line.find(':')?;
    if line.get(colon..)?.starts_with(":=") {
        return None;
    }
    let name = first.trim_start_matches('@').trim_end_matches(':');
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return None;
    }
    let is_name =
        |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let depends = (line.get(colon + 1..)?.split_whitespace())
        .map(|w| w.trim_start_matches('('))
        .filter(is_name)
        .map(str::to_owned)
        .collect();
    Some((vec![name.to_owned()], depends))
}

/// A justfile's recipe line (indented), without its indentation.
fn just_body(line: &str) -> Option<&str> {
    line.starts_with([' ', '\t']).then(|| line.trim_start())
}

/// The rules of a makefile's or a justfile's text: `header` reads a rule's line, `body` a line
/// of its recipe (its text after the indentation); the recipe lines lose the prefixes that
/// only change how a line is echoed or its failure handled (`@`, `-`, make's `+`), and a line
/// a trailing `\` continues is joined to the next. At most 256 rules.
fn rules<'a>(
    text: &'a str,
    header: impl Fn(&'a str) -> Option<(Vec<String>, Vec<String>)>,
    body: impl Fn(&'a str) -> Option<&'a str>,
) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        if pending.is_none()
            && let Some((targets, depends)) = header(line)
        {
            if out.len() >= MAX_LINES {
                break;
            }
            out.push(Rule { targets, depends, body: Vec::new() });
            continue;
        }
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
        } else if let Some(rule) = out.last_mut() {
            rule.body.push(joined);
        }
    }
    if let (Some(last), Some(rule)) = (pending, out.last_mut()) {
        rule.body.push(last);
    }
    out
}

/// The recipe lines `rules` run for `targets` (the words of the line that name a rule's
/// target; the first rule with a target that is not special, `.PHONY`, when none does), with
/// those of the rules they depend on, each rule once; for make (`make`), `$$` is the shell's
/// `$` (a variable of make's own, `$(CC)`, reads as a command substitution the analysis cannot
/// follow, as it should).
fn recipe_lines(rules: &[Rule], targets: &[String], make: bool) -> Vec<String> {
    let makes = |rule: &Rule, name: &str| rule.targets.iter().any(|t| t == name);
    let mut wanted: Vec<String> =
        targets.iter().filter(|t| rules.iter().any(|r| makes(r, t))).cloned().collect();
    if wanted.is_empty() {
        let first = rules.iter().flat_map(|r| &r.targets).find(|t| !t.starts_with('.'));
        wanted.extend(first.cloned());
    }
    let mut out: Vec<String> = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    let mut next = 0;
    while let Some(name) = wanted.get(next).cloned() {
        next += 1;
        for (index, rule) in rules.iter().enumerate() {
            if !makes(rule, &name) || done.contains(&index) {
                continue;
            }
            done.push(index);
            for line in &rule.body {
                out.push(if make { line.replace("$$", "$") } else { line.clone() });
            }
            for dep in &rule.depends {
                if !wanted.contains(dep) && wanted.len() < MAX_LINES {
                    wanted.push(dep.clone());
                }
            }
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests;
