//! What a recipe file that is code has its task runner load and run (finding F95): rake's
//! `Rakefile` (Ruby), invoke's `tasks.py` and nox's `noxfile.py` (Python).
//!
//! Each is a program the runner executes whatever the task: what it loads is protected with
//! it, and the command lines its tasks run are read from its string literals. Checked with
//! rake 13.0 and Ruby 3.1 (the distribution's packages), invoke 3.0 and nox 2026.10 (their
//! packages), each loaded file and each script writing a marker: rake loaded every
//! `rakelib/*.rake`, the files `require_relative`, `load` and `import` named and those a
//! `Dir.glob("lib/tasks/*.rake")` listed, and ran the scripts of `sh "sh tools/lint.sh"`,
//! `ruby "tools/check.rb"`, `system("sh", "tools/sys.sh")`, a backtick command and a
//! dependency task's `%w[…]` line, from the `Rakefile`'s folder (also when started in a
//! subfolder); invoke imported the modules `tasks.py` imports from its folder and ran each
//! `c.run(…)` line where invoke was started; nox ran `session.run("sh", "tools/lint.sh")`
//! from the `noxfile.py`'s folder.
//!
//! The scan is textual, as F88's is for JavaScript: every string literal that is not a file
//! the code loads is taken as a command line, and so are the literals of one argument list
//! (`"sh", "tools/lint.sh"`) joined by blanks; a string the code holds for another purpose
//! (`desc "Run the linter"`) is read as a line too (protect more, never less), a command built
//! at run time is not seen.

use std::path::{Path, PathBuf};

use super::{MAX_LINES, RECIPE_CAP, RecipeRead, note_once};

/// The language of a recipe file that is code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    /// A `Rakefile` and what it loads.
    Ruby,
    /// invoke's `tasks.py`, nox's `noxfile.py` and the modules they import.
    Python,
}

/// At most this many files are read through what a recipe file loads.
const MAX_LOADED: usize = 16;

/// What the code recipe file at `path` in `language` has its runner load and run: its
/// command lines ([`lines`]) and those of each file it loads that exists, read in turn (at
/// most 16); the files it loads, existing or not ([`RecipeRead::included`]); the folders
/// whose files it loads whatever their names ([`RecipeRead::folders`]). `cwd` is where the
/// runner loads relative names from (rake: the `Rakefile`'s folder).
pub(crate) fn read(path: &Path, language: Language, cwd: &Path) -> RecipeRead {
    let mut read = RecipeRead::default();
    if language == Language::Ruby {
        // rake loads every `.rake` file of `rakelib/` beside the `Rakefile` before the tasks run.
        read.folders.push(cwd.join("rakelib"));
    }
    // An invoke collection that is a package (`tasks/__init__.py`) is its folder's modules.
    if path.file_name().is_some_and(|n| n == "__init__.py")
        && let Some(package) = path.parent()
    {
        read.folders.push(package.to_path_buf());
    }
    let mut pending = vec![path.to_path_buf()];
    let mut done: Vec<PathBuf> = Vec::new();
    while let Some(file) = pending.pop() {
        if !note_once(&mut done, &file, MAX_LOADED) {
            continue;
        }
        let Some(text) = crate::installations::read_capped(&file, RECIPE_CAP) else { continue };
        let dir = file.parent().unwrap_or(cwd);
        read.lines.extend(lines(&text, language));
        let found = loads(&text, language, dir, cwd);
        for loaded in found.files {
            if !read.included.contains(&loaded) {
                pending.push(loaded.clone());
                read.included.push(loaded);
            }
        }
        for folder in found.folders {
            if !read.folders.contains(&folder) {
                read.folders.push(folder);
            }
        }
        for module in found.compiled {
            if !read.compiled.contains(&module) {
                read.compiled.push(module);
            }
        }
    }
    read.lines.retain(|l| !l.trim().is_empty());
    read.lines.dedup();
    read.lines.truncate(MAX_LINES);
    read
}

/// The command lines of a code recipe file's text: each string literal that is not a file
/// the code loads (`require_relative "x"`, `load "x"`, `import "x"`, `require "./x"`), a
/// Ruby `%w[…]` list's words, and the literals of one argument list joined by blanks (`sh
/// "sh", "tools/x.sh"`, `session.run("sh", "tools/x.sh")`); an interpolation (`#{…}` in Ruby,
/// `{…}` in a Python f-string) read as a variable's value.
///
/// ```text
/// task :lint do
///   sh "sh tools/lint.sh"        -> sh tools/lint.sh
///   system("sh", "tools/x.sh")   -> sh, tools/x.sh, sh tools/x.sh
/// end
/// ```
pub(crate) fn lines(text: &str, language: Language) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The argument list being joined: its text and where its last literal ends.
    let mut joined: Option<(String, usize, usize)> = None;
    for (at, literal) in crate::imports::string_literals(text) {
        let before = text.get(..at).unwrap_or_default();
        if language == Language::Ruby && ruby_load(before).is_some() {
            continue;
        }
        let f_string = language == Language::Python
            && before.trim_end_matches(['r', 'R']).ends_with(['f', 'F'])
            && !before.trim_end_matches(['f', 'F', 'r', 'R']).ends_with(char::is_alphanumeric);
        let line = placeholders(literal, language, f_string);
        let end = at + 1 + literal.len() + 1;
        joined = match joined.take() {
            Some((mut so_far, last_end, parts))
                if text.get(last_end..at).is_some_and(|between| between.trim() == ",") =>
            {
                so_far.push(' ');
                so_far.push_str(&line);
                Some((so_far, end, parts + 1))
            }
            previous => {
                if let Some((so_far, _, parts)) = previous
                    && parts > 1
                {
                    out.push(so_far);
                }
                Some((line.clone(), end, 1))
            }
        };
        out.push(line);
        if out.len() >= MAX_LINES {
            return out;
        }
    }
    if let Some((so_far, _, parts)) = joined
        && parts > 1
    {
        out.push(so_far);
    }
    if language == Language::Ruby {
        out.extend(ruby_word_lists(text));
    }
    out.truncate(MAX_LINES);
    out
}

/// How a Ruby text loads the literal after `before` (its text up to the literal's quote).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RubyLoad {
    /// `require_relative`: from the file's own folder, `.rb` added when it has no extension.
    Relative,
    /// `load`, rake's `import`, `require "./x"`: from the folder the runner runs in.
    FromCwd,
    /// `require "x"`: a library from Ruby's load path, not a file of the project.
    Library,
}

fn ruby_load(before: &str) -> Option<RubyLoad> {
    let trimmed = before.trim_end();
    let trimmed = trimmed.strip_suffix('(').unwrap_or(trimmed).trim_end();
    let word_end = |w: &str| {
        trimmed.strip_suffix(w).is_some_and(|rest| {
            !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
        })
    };
    if word_end("require_relative") {
        Some(RubyLoad::Relative)
    } else if word_end("load") || word_end("import") {
        Some(RubyLoad::FromCwd)
    } else if word_end("require") {
        Some(RubyLoad::Library)
    } else {
        None
    }
}

/// `literal` with each interpolation (`#{…}` in Ruby, `{…}` in a Python f-string, whose `{{`
/// and `}}` are braces) as the word `"$X"`.
fn placeholders(literal: &str, language: Language, f_string: bool) -> String {
    let open = match language {
        Language::Ruby => "#{",
        Language::Python if f_string => "{",
        Language::Python => return literal.to_owned(),
    };
    let mut out = String::with_capacity(literal.len());
    let mut rest = literal;
    loop {
        let next = match open {
            "{" => rest.find(['{', '}']),
            _ => rest.find(open),
        };
        let Some(at) = next else { break };
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        if open == "{" && (here.starts_with("{{") || here.starts_with("}}")) {
            out.push_str(&here[..1]);
            rest = &here[2..];
            continue;
        }
        if let Some(after) = here.strip_prefix('}') {
            out.push('}');
            rest = after;
            continue;
        }
        out.push_str("\"$X\"");
        match here.find('}') {
            Some(end) => rest = &here[end + 1..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The words of each Ruby `%w[…]`, `%w(…)` or `%W{…}` list, as one line each (`sh %w[sh
/// tools/x.sh].join(" ")`).
fn ruby_word_lists(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['%']) {
        let after = &rest[at + 1..];
        let mut chars = after.chars();
        let (Some(kind), Some(open)) = (chars.next(), chars.next()) else { break };
        let close = match open {
            '[' => ']',
            '(' => ')',
            '{' => '}',
            '<' => '>',
            _ => {
                rest = after;
                continue;
            }
        };
        if !matches!(kind, 'w' | 'W') {
            rest = after;
            continue;
        }
        let body = &after[2..];
        let Some(end) = body.find(close) else { break };
        let words: Vec<&str> = body[..end].split_whitespace().collect();
        if !words.is_empty() {
            out.push(words.join(" "));
        }
        rest = &body[end..];
    }
    out
}

/// What a code recipe file loads ([`loads`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Loads {
    /// Files it loads, existing or not.
    pub(crate) files: Vec<PathBuf>,
    /// Folders whose files it loads by a pattern (`Dir.glob("lib/tasks/*.rake")`), or a Python
    /// package it imports.
    pub(crate) folders: Vec<PathBuf>,
    /// The Python modules it imports, whose compiled and extension forms Python may load
    /// instead (F118).
    pub(crate) compiled: Vec<PathBuf>,
}

/// What the code recipe text `text` of a file in `dir` loads, relative names from `dir` or
/// from `cwd` as the language does. Ruby: what `require_relative`, `load`, rake's `import` and
/// `require "./x"` name, any other literal that is a relative path to a `.rb` or `.rake` file,
/// the folder before a pattern's first wildcard for one that lists such files, and Rails'
/// `lib/tasks` for a `load_tasks` call. Python: the modules it imports from its own folder
/// (F31's reader: the module file and the package folder, existing or not) and from the
/// folders it adds to its search path (F132, F136: relative ones from `cwd`).
pub(crate) fn loads(text: &str, language: Language, dir: &Path, cwd: &Path) -> Loads {
    let mut out = Loads::default();
    match language {
        Language::Python => {
            for named in crate::imports::local_imports(crate::imports::Language::Python, text, dir)
            {
                // A module from a folder its search path names relative to where it runs
                // (F136), from `cwd`.
                let path = match named.base {
                    crate::scripts::PathBase::Root => named.path,
                    crate::scripts::PathBase::RunDir => {
                        let Some(path) = named.path.to_str().and_then(|p| relative(cwd, p)) else {
                            continue;
                        };
                        path
                    }
                    _ => continue,
                };
                match named.role {
                    crate::scripts::PathRole::Tree => out.folders.push(path),
                    crate::scripts::PathRole::Compiled => out.compiled.push(path),
                    _ => out.files.push(path),
                }
            }
        }
        Language::Ruby => {
            for (at, literal) in crate::imports::string_literals(text) {
                if literal.contains("#{") || literal.contains('$') {
                    continue;
                }
                let load = ruby_load(text.get(..at).unwrap_or_default());
                let ruby_file = literal.ends_with(".rb") || literal.ends_with(".rake");
                if literal.contains(['*', '?', '[', '{']) {
                    if ruby_file && let Some(folder) = pattern_folder(cwd, literal) {
                        out.folders.push(folder);
                    }
                    continue;
                }
                // `require` and `require_relative` add `.rb` to a name without an extension.
                let required = || match Path::new(literal).extension() {
                    Some(_) => literal.to_owned(),
                    None => format!("{literal}.rb"),
                };
                let path = match load {
                    Some(RubyLoad::Relative) => relative(dir, &required()),
                    Some(RubyLoad::FromCwd) => relative(cwd, literal),
                    Some(RubyLoad::Library)
                        if literal.starts_with("./") || literal.starts_with("../") =>
                    {
                        relative(cwd, &required())
                    }
                    Some(RubyLoad::Library) => None,
                    None if ruby_file && !literal.contains(char::is_whitespace) => {
                        relative(cwd, literal)
                    }
                    None => None,
                };
                out.files.extend(path);
            }
            if text.contains("load_tasks") {
                out.folders.push(cwd.join("lib").join("tasks"));
            }
        }
    }
    out.files.sort();
    out.files.dedup();
    out.folders.sort();
    out.folders.dedup();
    out
}

/// `base` joined with the relative `name` ([`crate::imports::relative_target`]); `None` for an
/// absolute name or one that starts with `~` (the home, not a folder of `base`).
pub(crate) fn relative(base: &Path, name: &str) -> Option<PathBuf> {
    match name.starts_with('~') {
        true => None,
        false => crate::imports::relative_target(base, name),
    }
}

/// The folder of a relative pattern before its first part with a wildcard (`lib/tasks` for
/// `lib/tasks/**/*.rake`), from `cwd`.
fn pattern_folder(cwd: &Path, pattern: &str) -> Option<PathBuf> {
    let fixed: Vec<&str> =
        (pattern.split('/')).take_while(|part| !part.contains(['*', '?', '[', '{'])).collect();
    relative(cwd, &fixed.join("/"))
}

/// The shell invoke's configuration file `text` (`invoke.yaml`, `.yml`, `.json`) names for
/// every command (`run: {shell: …}`), if any: a program it runs each line with.
pub(crate) fn invoke_shell(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let line = line.trim().trim_start_matches(['{', ',']).trim_start();
        let rest = line.strip_prefix("shell").or_else(|| line.strip_prefix("\"shell\""))?;
        let value = rest.trim_start().strip_prefix(':')?.trim();
        let value = value.trim_end_matches([',', '}']).trim();
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        (!value.is_empty()).then(|| value.to_owned())
    })
}

#[cfg(test)]
mod tests;
