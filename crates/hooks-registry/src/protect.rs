//! Protected paths: hook files and the scripts their definitions run, which the agent's
//! file edits must not change without asking.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
};

use hooks_schema::{AbsPathBuf, HookCommand, HookSourceId};

use crate::paths::canonicalize;

/// What a protected path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProtectedKind {
    /// A hook source file.
    File,
    /// A script a definition runs.
    Script,
}

/// One protected path and the source it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProtectedPath {
    /// The canonical path (the file as given when it no longer exists).
    pub path: AbsPathBuf,
    /// The source that names it.
    pub source: HookSourceId,
    /// A hook file or a script.
    pub what: ProtectedKind,
}

/// The protected paths of a snapshot, with a hash index for one-path lookups.
#[derive(Debug, Clone, Default)]
pub struct ProtectedPaths {
    list: Vec<ProtectedPath>,
    index: HashMap<PathBuf, usize>,
}

impl ProtectedPaths {
    pub(crate) fn from_list(list: Vec<ProtectedPath>) -> ProtectedPaths {
        let mut index = HashMap::with_capacity(list.len());
        for (i, p) in list.iter().enumerate() {
            index.entry(p.path.as_path().to_path_buf()).or_insert(i);
        }
        ProtectedPaths { list, index }
    }

    /// Whether `path` (already resolved by the caller, see `canonicalize_lenient`) is protected.
    pub fn contains(&self, path: &Path) -> bool {
        self.index.contains_key(path)
    }

    /// The first entry protecting `path`.
    pub fn get(&self, path: &Path) -> Option<&ProtectedPath> {
        self.index.get(path).and_then(|&i| self.list.get(i))
    }

    /// Every entry (a path named by two sources appears twice).
    pub fn as_slice(&self) -> &[ProtectedPath] {
        &self.list
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether nothing is protected.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Programs whose first argument is the script they run.
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "node", "python", "python3", "ruby", "perl", "deno", "bun", "uv",
];

/// Options that make an interpreter run inline code or a module rather than a file.
const INLINE_FLAGS: &[&str] = &["-c", "-e", "-m", "--eval", "-p", "--print"];

/// The path a command runs, as written (relative or absolute), when the protected-path rule
/// finds one: the first word, or the script argument when the first word is an interpreter
/// (`bash`, `sh`, `node`, `python3`, `ruby`, `perl`, `deno run`, `bun run`, `uv run`, …).
///
/// Quoted words and words with shell expansions resolve to nothing, as does inline code
/// (`python3 -c …`). `npx foo` yields `npx`, which is then not found as a file.
pub fn script_candidate(command: &HookCommand) -> Option<PathBuf> {
    match command {
        HookCommand::Shell { script, .. } => {
            let words: Vec<&str> = script.split_whitespace().collect();
            let words = skip_assignments(&words);
            candidate_from_words(words)
        }
        HookCommand::Exec { program, args } => {
            let mut words: Vec<&str> = Vec::with_capacity(args.len() + 1);
            words.push(program);
            words.extend(args.iter().map(String::as_str));
            candidate_from_words(&words)
        }
        HookCommand::Script { path, .. } => Some(path.clone()),
    }
}

/// Resolves the command's script against `working_dir` and canonicalizes it; `None` unless
/// it names an existing regular file.
pub fn resolve_script(command: &HookCommand, working_dir: &AbsPathBuf) -> Option<AbsPathBuf> {
    let candidate = script_candidate(command)?;
    let joined =
        if candidate.is_absolute() { candidate } else { working_dir.as_path().join(candidate) };
    let resolved = canonicalize(&joined).ok()?;
    std::fs::metadata(resolved.as_path()).ok().filter(|m| m.is_file()).map(|_| resolved)
}

fn skip_assignments<'a, 'b>(words: &'b [&'a str]) -> &'b [&'a str] {
    let n = words
        .iter()
        .take_while(|w| {
            w.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
        .count();
    words.get(n..).unwrap_or(&[])
}

fn is_plain(word: &str) -> bool {
    !word.is_empty()
        && !word.contains(['"', '\'', '$', '`', '\\', ';', '|', '&', '<', '>', '(', ')', '*', '?'])
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn candidate_from_words(words: &[&str]) -> Option<PathBuf> {
    let (&first, mut rest) = words.split_first()?;
    if !is_plain(first) {
        return None;
    }
    let mut program = basename(first);
    if program == "env" {
        let (&next, after) = rest.split_first()?;
        if !is_plain(next) {
            return None;
        }
        program = basename(next);
        rest = after;
        if !INTERPRETERS.contains(&program) {
            return Some(PathBuf::from(next));
        }
    } else if !INTERPRETERS.contains(&program) {
        return Some(PathBuf::from(first));
    }
    // An interpreter: `uv` needs `run`; `deno` and `bun` may have it.
    if let Some((&sub, after)) = rest.split_first() {
        if sub == "run" && matches!(program, "uv" | "deno" | "bun") {
            rest = after;
        } else if program == "uv" {
            return None;
        }
    }
    for &word in rest {
        if INLINE_FLAGS.contains(&word) {
            return None;
        }
        if word.starts_with('-') {
            continue;
        }
        return is_plain(word).then(|| PathBuf::from(word));
    }
    None
}

#[cfg(test)]
mod tests;
