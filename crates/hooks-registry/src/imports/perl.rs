//! The files a Perl hook script loads, read from its text (finding F143).
//!
//! Checked with Perl 5.36: a gate `hooks/gate.pl` that does `use FindBin; use lib
//! "$FindBin::Bin/lib"; use Policy;` runs `hooks/lib/Policy.pm`; `use lib "lib"` adds a folder
//! taken from where Perl runs; `require "./x.pl"` and `do "./x.pl"` load a file from there
//! too (a bare `do "x.pl"` looks in `@INC` alone since Perl 5.26, in the run folder before:
//! both are protected). A module (`use A::B`, `require A::B`, `use parent "A::B"`) is
//! `A/B.pm` in each folder of `@INC`: those the script adds, the environment's `PERL5LIB`
//! and the line's `-I`. Editing any of them turns a gate's exit 2 into 0; each is protected
//! existing or not, pragmas' names too (a `strict.pm` in a folder added first would be
//! loaded in place of Perl's).
//!
//! The scan is textual: a statement in a string, a comment or POD counts (protect more); a
//! path built at run time with no literal in its statement is not seen.

use std::path::{Path, PathBuf};

use super::{add_folder, python_string_literals, relative_target, ruby::calls};
use crate::scripts::{NamedPath, PathBase, PathRole};

/// The spellings of the script's own folder in a path (`FindBin`'s variables).
const OWN_FOLDER: [&str; 6] = [
    "${FindBin::RealBin}",
    "${FindBin::Bin}",
    "$FindBin::RealBin",
    "$FindBin::Bin",
    "$RealBin",
    "$Bin",
];

/// The files `text` (a Perl script in `script_dir`) loads, as [`PathRole::Sourced`] files:
/// from its own folder ([`PathBase::Root`]), from the folder it runs in
/// ([`PathBase::RunDir`]), and each module in every folder its own `use lib` and `@INC`
/// additions name and in `searched` (the environment's and the line's, as (base, folder)).
pub(crate) fn imports(
    text: &str,
    script_dir: &Path,
    searched: &[(PathBase, PathBuf)],
) -> Vec<NamedPath> {
    let statements: Vec<&str> = text.split(';').collect();
    let mut folders: Vec<(PathBase, PathBuf)> = Vec::new();
    for statement in &statements {
        for folder in added_folders(statement, script_dir) {
            add_folder(&mut folders, folder);
        }
    }
    folders.extend(searched.iter().cloned());
    let mut out = Vec::new();
    let mut add = |base: PathBase, path: PathBuf| {
        out.push(NamedPath { base, path, role: PathRole::Sourced });
    };
    for statement in &statements {
        for (keyword, rest) in calls(statement, &["use", "require", "do"]) {
            let rest = rest.trim_start().trim_start_matches('(').trim_start();
            // `do { … }` is a block, not a file.
            if keyword == "do" && rest.starts_with('{') {
                continue;
            }
            let literals = python_string_literals(rest);
            let modules: Vec<String> = match module_name(rest) {
                Some(pragma @ ("parent" | "base")) => (std::iter::once(pragma.to_owned()))
                    .chain(literals.iter().cloned())
                    .chain(quoted_words(rest))
                    .filter(|w| !w.starts_with('-'))
                    .collect(),
                Some(name) if keyword != "do" => vec![name.to_owned()],
                _ => Vec::new(),
            };
            for module in modules {
                let file = module_file(&module);
                for (base, folder) in &folders {
                    add(base.clone(), folder.join(&file));
                }
            }
            if keyword == "use" || rest.starts_with(|c: char| c.is_alphabetic() || c == '_') {
                continue;
            }
            // `require "file"`, `do "file"`.
            let Some(literal) = literals.first() else { continue };
            if let Some(own) = from_own_folder(literal) {
                if let Some(file) = relative_target(script_dir, own) {
                    add(PathBase::Root, file);
                }
            } else if literal.starts_with('/') {
                add(PathBase::Root, PathBuf::from(literal));
            } else if !literal.contains('$') {
                add(PathBase::RunDir, PathBuf::from(literal));
                if !literal.starts_with("./") && !literal.starts_with("../") {
                    for (base, folder) in &folders {
                        add(base.clone(), folder.join(literal));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The folders one statement adds to `@INC` (`use lib LIST`, `unshift @INC, …`,
/// `push @INC, …`): each literal or `qw` word its own folder, from the script's own folder
/// when it starts with `FindBin`'s variable, absolute, or from the run folder; for a
/// statement that builds one folder from the script's place (`File::Spec->catdir(
/// $FindBin::Bin, "lib")`, `dirname(__FILE__) . "/lib"`), its literals joined there.
fn added_folders(statement: &str, script_dir: &Path) -> Vec<(PathBase, PathBuf)> {
    let rest = match (statement.find("use lib"), statement.find("@INC")) {
        (Some(at), _) => &statement[at + "use lib".len()..],
        (None, Some(at)) if ["unshift", "push", "splice"].iter().any(|m| statement.contains(m)) => {
            &statement[at + "@INC".len()..]
        }
        _ => return Vec::new(),
    };
    let words: Vec<String> =
        python_string_literals(rest).into_iter().chain(quoted_words(rest)).collect();
    let mut out = Vec::new();
    let own_words = words.iter().any(|w| from_own_folder(w).is_some());
    let builds_own =
        !own_words && (OWN_FOLDER.iter().any(|v| rest.contains(v)) || rest.contains("__FILE__"));
    if builds_own {
        let ups = rest.matches("dirname(").count().saturating_sub(1);
        let mut dir = script_dir.to_path_buf();
        for _ in 0..ups {
            dir.pop();
        }
        for word in &words {
            match relative_target(&dir, word.trim_start_matches('/')) {
                Some(next) => dir = next,
                None => return out,
            }
        }
        out.push((PathBase::Root, dir));
        return out;
    }
    for word in words {
        if let Some(own) = from_own_folder(&word) {
            out.extend(relative_target(script_dir, own).map(|d| (PathBase::Root, d)));
        } else if word.starts_with('/') {
            out.push((PathBase::Root, PathBuf::from(word)));
        } else if !word.contains('$') && !word.starts_with('-') {
            out.push((PathBase::RunDir, PathBuf::from(word)));
        }
    }
    out
}

/// The rest of `word` after `FindBin`'s variable that starts it (`lib` of
/// `$FindBin::Bin/lib`), `.` for the variable alone.
fn from_own_folder(word: &str) -> Option<&str> {
    let rest = OWN_FOLDER.iter().find_map(|v| word.strip_prefix(v))?;
    // `$Bin` must not be the start of another name (`$Binary`).
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim_start_matches('/');
    Some(if rest.is_empty() { "." } else { rest })
}

/// The module a `use` or `require` names first in `rest` (`A::B` of `use A::B qw(x);`).
fn module_name(rest: &str) -> Option<&str> {
    let end =
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
    let name = &rest[..end];
    // `use v5.36` asks for a version of Perl.
    let version =
        name.strip_prefix('v').is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
    let valid = !version
        && name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && name.split("::").all(|part| !part.is_empty());
    valid.then_some(name)
}

/// `A/B.pm` for the module `A::B`.
fn module_file(module: &str) -> PathBuf {
    let mut path: PathBuf = module.split("::").collect();
    path.set_extension("pm");
    path
}

/// The words of the `qw` lists in `text` (`qw(a b)`, `qw[a b]`, `qw{…}`, `qw/…/`, `qw<…>`).
fn quoted_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("qw") {
        rest = rest[at + 2..].trim_start();
        let Some(open) = rest.chars().next() else { break };
        let close = match open {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            '<' => '>',
            c if c.is_ascii_punctuation() => c,
            _ => continue,
        };
        let body = &rest[open.len_utf8()..];
        let end = body.find(close).unwrap_or(body.len());
        out.extend(body[..end].split_whitespace().map(str::to_owned));
        rest = body.get(end + close.len_utf8()..).unwrap_or_default();
    }
    out
}
