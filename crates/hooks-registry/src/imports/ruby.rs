//! The files a Ruby hook script loads, read from its text (finding F142).
//!
//! Checked with Ruby 3.1: a gate `hooks/gate.rb` that does `require_relative "policy"` runs
//! `hooks/policy.rb`; `require "./x"` and `load "x.rb"` take the file from the folder Ruby
//! runs in (`load` after the load path); a bare `require "policy"` looks in each folder of
//! `$LOAD_PATH`, to which the script adds its own (`$LOAD_PATH.unshift(File.join(__dir__,
//! "lib"))`, or `"lib"`, taken from the run folder at each `require`), besides the
//! environment's `RUBYLIB` and the line's `-I`. Editing any of them turns a gate's exit 2 into
//! 0. Each is protected existing or not, as a Python module is, with the compiled extension
//! Ruby takes for a name without one (`policy.so`, macOS's `policy.bundle`).
//!
//! The scan is textual: a load in a string or a comment counts (protect more); a path built
//! at run time with no literal on its line (`require LIB`) is not seen.

use std::path::{Path, PathBuf};

use super::{add_folder, python_string_literals, relative_target};
use crate::scripts::{NamedPath, PathBase, PathRole};

/// What Ruby tries for a feature named without one of its extensions: the source, then a
/// compiled extension.
const FEATURE_EXTENSIONS: [&str; 3] = ["rb", "so", "bundle"];

/// The methods that load a file, longest first (`require_relative` before `require`).
const LOADS: [&str; 4] = ["require_relative", "require", "autoload", "load"];

/// The methods that add a folder to `$LOAD_PATH` (or `$:`).
const ADDS: [&str; 8] = ["unshift", "<<", "push", "insert", "prepend", "concat", "+=", "append"];

/// The files `text` (a Ruby script in `script_dir`) loads, as [`PathRole::Sourced`] files:
/// from its own folder ([`PathBase::Root`]), from the folder it runs in ([`PathBase::RunDir`]),
/// and for a bare `require`, in each folder its own `$LOAD_PATH` additions name and in
/// `searched` (the environment's and the line's load path, as (base, folder)).
pub(crate) fn imports(
    text: &str,
    script_dir: &Path,
    searched: &[(PathBase, PathBuf)],
) -> Vec<NamedPath> {
    let mut folders = load_path_additions(text, script_dir);
    folders.extend(searched.iter().cloned());
    let mut out = Vec::new();
    for statement in text.lines().flat_map(|l| l.split(';')) {
        for (method, rest) in calls(statement, &LOADS) {
            let literals = python_string_literals(rest);
            if names_own_folder(rest) {
                for dir in own_folder_targets(rest, &literals, script_dir) {
                    features(&mut out, PathBase::Root, dir);
                }
                continue;
            }
            let Some(literal) = literals.first() else { continue };
            if literal.starts_with('/') {
                features(&mut out, PathBase::Root, PathBuf::from(literal));
            } else if method == "require_relative" {
                if let Some(target) = relative_target(script_dir, literal) {
                    features(&mut out, PathBase::Root, target);
                }
            } else if literal.starts_with("./") || literal.starts_with("../") {
                features(&mut out, PathBase::RunDir, PathBuf::from(literal));
            } else if !literal.starts_with('~') {
                for (base, folder) in &folders {
                    features(&mut out, base.clone(), folder.join(literal));
                }
                // `load` takes a name its load path does not have from the run folder.
                if method == "load" {
                    features(&mut out, PathBase::RunDir, PathBuf::from(literal));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a Ruby text sets Bundler up (`require "bundler/setup"`, `Bundler.setup`,
/// `Bundler.require`): Bundler then evaluates the `Gemfile` (or `gems.rb`) it finds from the
/// folder Ruby runs in up, which is Ruby code (finding F146; checked with Ruby 3.1 and
/// Bundler 2.3: `exit!(0)` there turned a gate's exit 2 into 0).
pub(crate) fn sets_up_bundler(text: &str) -> bool {
    text.contains("bundler/setup")
        || text.contains("Bundler.setup")
        || text.contains("Bundler.require")
}

/// The folders a Ruby text adds to `$LOAD_PATH` (`$:`), each from its own folder
/// (`__dir__`, `File.dirname(__FILE__)`, `"#{__dir__}/lib"`), absolute, or from the folder it
/// runs in (`"lib"`, `Dir.pwd`), at most `MAX_ADDED_PATHS`. A relative folder is also
/// taken from the script's own (`File.join(HERE, "lib")`: protect more).
pub(crate) fn load_path_additions(text: &str, script_dir: &Path) -> Vec<(PathBase, PathBuf)> {
    let mut out: Vec<(PathBase, PathBuf)> = Vec::new();
    let mut add = |base: PathBase, dir: PathBuf| add_folder(&mut out, (base, dir));
    for statement in text.lines().flat_map(|l| l.split(';')) {
        let Some(at) = statement.find("$LOAD_PATH").or_else(|| statement.find("$:")) else {
            continue;
        };
        let rest = &statement[at..];
        if !ADDS.iter().any(|m| rest.contains(m)) {
            continue;
        }
        let literals = python_string_literals(rest);
        if names_own_folder(rest) {
            for dir in own_folder_targets(rest, &literals, script_dir) {
                add(PathBase::Root, dir);
            }
            continue;
        }
        match literals.first() {
            Some(first) if first.starts_with('/') => {
                add(PathBase::Root, literals.iter().collect());
            }
            _ if literals.is_empty() && !rest.contains("Dir.pwd") => {}
            _ => {
                let from_run: PathBuf = literals.iter().collect();
                match from_run.is_absolute() {
                    true => add(PathBase::Root, from_run),
                    false => add(PathBase::RunDir, from_run),
                }
                if let Some(beside) = climbed(script_dir.to_path_buf(), &literals) {
                    add(PathBase::Root, beside);
                }
            }
        }
    }
    out
}

/// Whether `text` builds a path from the script's own place.
fn names_own_folder(text: &str) -> bool {
    text.contains("__dir__") || text.contains("__FILE__")
}

/// The places `text` names from the script's own folder `script_dir` with `literals`
/// (interpolations such as `#{__dir__}` dropped from them): the folder joined with them, and
/// for `File.expand_path("../lib", __FILE__)`, whose first `..` leaves the file's name, the
/// same without that `..`; each of the two readings is kept (protect more).
fn own_folder_targets(text: &str, literals: &[String], script_dir: &Path) -> Vec<PathBuf> {
    let literals: Vec<String> = literals.iter().map(|l| without_interpolation(l)).collect();
    let ups = text.matches("dirname(").count().saturating_sub(1);
    let mut start = script_dir.to_path_buf();
    for _ in 0..ups {
        start.pop();
    }
    let mut out: Vec<PathBuf> = climbed(start.clone(), &literals).into_iter().collect();
    if text.contains("__FILE__")
        && let Some((first, rest)) = literals.split_first()
        && let Some(shorter) = first.strip_prefix("..")
    {
        let mut fewer = vec![shorter.trim_start_matches('/').to_owned()];
        fewer.extend(rest.iter().cloned());
        out.extend(climbed(start, &fewer));
    }
    out.dedup();
    out
}

/// `#{…}` interpolations dropped from a literal, and the `/` after one at its start.
fn without_interpolation(literal: &str) -> String {
    let mut out = String::new();
    let mut rest = literal;
    while let Some(at) = rest.find("#{") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('}').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.trim_start_matches('/').to_owned()
}

/// `dir` joined with each relative literal in turn (`..` climbing); `None` when one is
/// absolute.
fn climbed(dir: PathBuf, literals: &[String]) -> Option<PathBuf> {
    let mut dir = dir;
    for literal in literals {
        dir = relative_target(&dir, literal)?;
    }
    Some(dir)
}

/// The calls of one of `methods` in `statement`, each with the text after its name: a name
/// that starts a word (not a part of another name, a symbol or a variable) followed by a
/// blank or `(`.
pub(crate) fn calls<'a>(
    statement: &'a str,
    methods: &[&'static str],
) -> Vec<(&'static str, &'a str)> {
    let mut out = Vec::new();
    let bytes = statement.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // A method's name is ASCII: it starts at a character's first byte.
        if !statement.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let starts_word = i == 0 || {
            let b = bytes[i - 1];
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'$' || b == b'@')
        };
        let found = starts_word
            .then(|| methods.iter().find(|m| statement[i..].starts_with(**m)))
            .flatten()
            .filter(|m| matches!(bytes.get(i + m.len()), Some(b' ' | b'\t' | b'(')));
        match found {
            Some(method) => {
                out.push((*method, &statement[i + method.len()..]));
                i += method.len();
            }
            None => i += 1,
        }
    }
    out
}

/// The files Ruby may load for the feature `path`: the path as written, and for one without
/// Ruby's extensions, with each of them.
fn features(out: &mut Vec<NamedPath>, base: PathBase, path: PathBuf) {
    let known =
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| FEATURE_EXTENSIONS.contains(&e));
    if !known {
        for ext in FEATURE_EXTENSIONS {
            let mut with = path.clone().into_os_string();
            with.push(format!(".{ext}"));
            out.push(NamedPath { base: base.clone(), path: with.into(), role: PathRole::Sourced });
        }
    }
    out.push(NamedPath { base, path, role: PathRole::Sourced });
}
