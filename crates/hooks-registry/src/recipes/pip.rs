//! What pip installs from a requirements or constraints file (finding F109): the local
//! projects it lists, which pip builds (their `setup.py`, their `pyproject.toml`'s backend),
//! and the files it includes with `-r` and `-c`, read in turn; and what its configuration
//! file has it install (finding F113, [`config_lines`]).
//!
//! Checked with pip 24 and setuptools here, each `setup.py` writing a marker: `pip install -r
//! reqs/requirements.txt` whose lines were `-e .`, `./lib` and `-r more.txt`, and whose
//! `more.txt` listed `vendor/d`, built the project where pip ran, its `lib/` and its
//! `vendor/d/` (a project's path is taken from where pip runs, not from the file's folder;
//! a nested file's name from the folder of the file that names it); `--requirement=r.txt` and
//! `-rr.txt` likewise. Each line is handed back as pip's own command line (`pip install -e
//! ./lib`), which the command analysis reads for its local project
//! ([`crate::scripts::pip_local_project`]).

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use super::{MAX_LINES, RECIPE_CAP, RecipeRead, note_once};

/// At most this many requirements and constraints files are read through `-r` and `-c`.
const MAX_FILES: usize = 16;

/// The lines pip installs from the requirements file at `path` and those it includes
/// ([`RecipeRead::included`]: each file, existing or not; [`RecipeRead::lines`]: `pip install`
/// with each requirement line's words, to be read from where pip runs).
pub(crate) fn read(path: &Path) -> RecipeRead {
    let mut read = RecipeRead::default();
    let mut pending: Vec<PathBuf> = vec![path.to_path_buf()];
    let mut seen: Vec<PathBuf> = Vec::new();
    while let Some(file) = pending.pop() {
        if seen.contains(&file) || seen.len() >= MAX_FILES {
            continue;
        }
        seen.push(file.clone());
        note_once(&mut read.included, &file, MAX_FILES * 2);
        let Some(text) = crate::installations::read_capped(&file, RECIPE_CAP) else { continue };
        let folder = file.parent().unwrap_or(Path::new("/"));
        let (lines, nested) = text_lines(&text);
        for name in nested {
            if let Some(place) = crate::paths::normalize_absolute(&folder.join(name)) {
                pending.push(place.as_path().to_path_buf());
            }
        }
        let room = MAX_LINES.saturating_sub(read.lines.len());
        read.lines.extend(lines.into_iter().take(room));
    }
    read
}

/// The options of pip's configuration that name what it installs, with the option each is
/// on pip's line.
const CONFIG_OPTIONS: &[(&str, &str)] = &[
    ("requirement", "-r"),
    ("constraint", "-c"),
    ("editable", "-e"),
    ("find-links", "--find-links"),
];

/// What a pip configuration file's text has pip install (finding F113; checked with pip 24
/// here: `[install] requirement = r.txt` in `~/.config/pip/pip.conf`, or in the file
/// `PIP_CONFIG_FILE` names, had `pip install ./lib` build what `r.txt` lists, relative to
/// where pip ran): each value of `requirement`, `constraint`, `editable` and `find-links`
/// (`_` read as `-`) in its `[global]` and `[install]` sections, split at blanks as pip splits
/// a list, as pip's own line (`pip install -r 'r.txt'`).
pub(crate) fn config_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for (section, key, value) in crate::toolconfig::ini_values(text) {
        if !matches!(section.as_str(), "global" | "install") {
            continue;
        }
        let key = key.replace('_', "-");
        let Some((_, flag)) = CONFIG_OPTIONS.iter().find(|(k, _)| *k == key) else { continue };
        for word in value.split_whitespace() {
            if lines.len() < MAX_LINES {
                let word = crate::hookmanagers::shell_quote(word);
                lines.push(format!("pip install {flag} {word}"));
            }
        }
    }
    lines
}

/// The lines pip installs from a requirements file's `text` (`pip install` with each
/// requirement or `-e` line's words, quoted; at most [`MAX_LINES`]) and the names of the files
/// its `-r` and `-c` lines include, as written.
pub(crate) fn text_lines(text: &str) -> (Vec<String>, Vec<&str>) {
    let mut lines = Vec::new();
    let mut nested = Vec::new();
    for (start, end) in logical_lines(text) {
        let Some(line) = text.get(start..end) else { continue };
        // A `\` that continued the line is no part of a word.
        let words: Vec<&str> = (line.split_whitespace())
            .map(|w| w.trim_end_matches('\\'))
            .filter(|w| !w.is_empty())
            .collect();
        match requirement_line(&words) {
            Line::Nested(name) if nested.len() < MAX_FILES => nested.push(name),
            Line::Install if lines.len() < MAX_LINES => {
                let quoted: Vec<String> =
                    words.iter().map(|w| crate::hookmanagers::shell_quote(w)).collect();
                lines.push(format!("pip install {}", quoted.join(" ")));
            }
            _ => {}
        }
    }
    (lines, nested)
}

/// What one requirements line is to pip.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    /// `-r`/`--requirement`/`-c`/`--constraint` with the file's name (not a URL).
    Nested(&'a str),
    /// A requirement or an `-e`/`--editable` line: what pip installs.
    Install,
    /// A global option (`-i`, `--hash` alone, `--pre`) or a URL's file.
    Other,
}

fn requirement_line<'a>(words: &[&'a str]) -> Line<'a> {
    let Some(first) = words.first() else { return Line::Other };
    for flag in ["--requirement", "--constraint", "-r", "-c"] {
        let Some(rest) = first.strip_prefix(flag) else { continue };
        let name = match rest.strip_prefix('=') {
            Some(value) => value,
            None if rest.is_empty() => words.get(1).copied().unwrap_or_default(),
            // `-rfile.txt`; `--requirementsx` is no option of pip's.
            None if !flag.starts_with("--") => rest,
            None => return Line::Other,
        };
        return match name.is_empty() || name.contains("://") {
            true => Line::Other,
            false => Line::Nested(name),
        };
    }
    let editable = first.starts_with("-e") || first.starts_with("--editable");
    match first.starts_with('-') && !editable {
        true => Line::Other,
        false => Line::Install,
    }
}

/// The file's logical lines as pip reads them, as spans of the text: a line ending with `\`
/// continues on the next (the span runs on over it; the `\` is left out as a word), a `#` at
/// the start or after a blank starts a comment, a `;` starts an environment marker (cut;
/// after a URL only where a blank comes before it, as pip requires).
fn logical_lines(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        // The comment and the marker end the line where they start.
        let end = line_start + cut(body);
        let begin = *start.get_or_insert(line_start);
        let continued = end == line_start + body.len() && body.trim_end().ends_with('\\');
        if continued {
            continue;
        }
        start = None;
        out.push((begin, end));
    }
    if let Some(begin) = start {
        out.push((begin, text.len()));
    }
    out
}

/// Where a physical line's requirement ends: at its comment or its marker.
fn cut(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut end = line.len();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'#' && (i == 0 || bytes.get(i - 1).is_some_and(u8::is_ascii_whitespace)) {
            end = i;
            break;
        }
    }
    let line = line.get(..end).unwrap_or_default();
    let marker = match line.contains("://") {
        true => line.find(" ;"),
        false => line.find(';'),
    };
    marker.unwrap_or(end)
}
