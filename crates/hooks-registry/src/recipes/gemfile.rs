//! What Bundler evaluates with a `Gemfile` (finding F115): the `Gemfile` is Ruby, and so are
//! the files its `eval_gemfile` lines name, the project's gemspec its `gemspec` line loads and
//! the gemspecs of the gems it takes from a local folder (`gem "x", path: "vendor/x"`, a `path
//! "components" do … end` block), with what those require.
//!
//! Checked with Bundler 2.4 and Ruby 3.1 (the distribution's packages) here, each file writing
//! a marker: `bundle exec ruby -e 1` (and `bundle install --local`) evaluated the `Gemfile`,
//! the file `eval_gemfile "gemfiles/extra.rb"` names, the project's `app.gemspec` for
//! `gemspec`, `vendor/x/x.gemspec` for `gem "x", path: "vendor/x"` with the file it
//! `require_relative`s, and `components/a/a.gemspec` for `gem "a"` in a `path "components"`
//! block, at every run. The scan is textual, as F95's of a `Rakefile`: the string literals are
//! read as command lines too (a gemspec's `` `git ls-files -z` `` runs git).

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use super::code::{self, Language};
use super::{MAX_LINES, RECIPE_CAP, RecipeRead, note_once};

/// At most this many files are read through what a `Gemfile` evaluates.
const MAX_FILES: usize = 32;

/// At most this many entries of a folder are looked at for its gemspecs.
const MAX_ENTRIES: usize = 256;

/// What Bundler evaluates from the `Gemfile` at `path` ([`RecipeRead::included`]: every file,
/// existing or not; [`RecipeRead::lines`]: their string literals' command lines).
pub(crate) fn read(path: &Path) -> RecipeRead {
    let mut read = RecipeRead::default();
    let Some(root) = path.parent() else { return read };
    let mut pending: Vec<PathBuf> = vec![path.to_path_buf()];
    let mut done: Vec<PathBuf> = Vec::new();
    while let Some(file) = pending.pop() {
        if !note_once(&mut done, &file, MAX_FILES) {
            continue;
        }
        let Some(text) = crate::installations::read_capped(&file, RECIPE_CAP) else { continue };
        let dir = file.parent().unwrap_or(root);
        read.lines.extend(code::lines(&text, Language::Ruby));
        let mut evaluated = code::loads(&text, Language::Ruby, dir, root).files;
        evaluated.extend(evaluates(&text, dir));
        for loaded in evaluated {
            if note_once(&mut read.included, &loaded, MAX_FILES * 2) {
                pending.push(loaded);
            }
        }
    }
    read.lines.retain(|l| !l.trim().is_empty());
    read.lines.dedup();
    read.lines.truncate(MAX_LINES);
    read
}

/// The Ruby files the Bundler text `text` of a file in `dir` has Bundler evaluate: what its
/// `eval_gemfile` lines name (from `dir`), the gemspecs of its `gemspec` line (`path:` and
/// `name:` read) and of its local gems (`gem "x", path: "vendor/x"`, and the gems of a `path
/// "dir" do … end` block): the gemspecs such a folder holds, and `NAME.gemspec` by the gem's
/// name, existing or not.
pub(crate) fn evaluates(text: &str, dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    // The folder of the `path … do` block a line is in.
    let mut block: Option<PathBuf> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        let literals = crate::imports::string_literals(trimmed);
        let first = literals.first().map(|(_, l)| *l);
        let method = trimmed.split(|c: char| !(c.is_alphanumeric() || c == '_')).next();
        let option = |name: &str| option_literal(trimmed, name);
        match method.unwrap_or_default() {
            "eval_gemfile" => out.extend(first.and_then(|f| code::relative(dir, f))),
            "gemspec" => {
                let folder =
                    option("path").map_or(Some(dir.to_path_buf()), |p| code::relative(dir, p));
                out.extend(folder.map(|f| gemspecs(&f, option("name"))).unwrap_or_default());
            }
            "gem" => {
                let name = first.unwrap_or_default();
                let folder = match option("path") {
                    Some(path) => code::relative(dir, path),
                    None => block.as_ref().map(|b| b.join(name)),
                };
                if let Some(folder) = folder.filter(|_| !name.is_empty()) {
                    out.extend(gemspecs(&folder, Some(name)));
                    // A `path` block's gem may be the block's own gemspec.
                    if option("path").is_none()
                        && let Some(b) = &block
                    {
                        out.extend(gemspecs(b, Some(name)));
                    }
                }
            }
            "path" if trimmed.ends_with(" do") || trimmed.contains(" do ") => {
                block = first.and_then(|f| code::relative(dir, f));
            }
            "end" if trimmed == "end" => block = None,
            _ => {}
        }
    }
    // A folder (`eval_gemfile ".."`) is no file Bundler evaluates.
    out.retain(|f| f.file_name().is_some());
    out.sort();
    out.dedup();
    out.truncate(MAX_FILES);
    out
}

/// The literal the option `name` of a Ruby call's line has (`path: "x"`, `:path => "x"`,
/// `path: 'x'`).
fn option_literal<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    for spelling in [format!("{name}:"), format!(":{name} =>"), format!(":{name}=>")] {
        let Some(at) = line.find(&spelling) else { continue };
        let rest = line.get(at + spelling.len()..).unwrap_or_default();
        if let Some((_, literal)) = crate::imports::string_literals(rest).first() {
            return Some(literal);
        }
    }
    None
}

/// The gemspecs Bundler evaluates in `folder`: `NAME.gemspec` when the gem's name is known
/// (existing or not), and every `.gemspec` file the folder holds.
fn gemspecs(folder: &Path, name: Option<&str>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    if let Some(name) = name.filter(|n| !n.contains(['/', '\0']) && !n.is_empty()) {
        out.push(folder.join(format!("{name}.gemspec")));
    }
    let entries = std::fs::read_dir(folder).into_iter().flatten().take(MAX_ENTRIES);
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "gemspec") && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}
