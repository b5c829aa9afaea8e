//! The `WARP_HOOK_DIRS` grammar: comma-separated directories, trimmed, `~` expanded.

use std::{
    ffi::OsStr,
    path::{Path, PathBuf},
};

use crate::EnvVars;

/// Parses a hook-directories value into directories, in the order written.
///
/// - Entries are separated by commas and trimmed of ASCII whitespace; blank entries are
///   skipped, so `""`, `","` and `" , ,"` give nothing.
/// - `~` alone is `home`, and `~/rest` is `home/rest`. `~user` is not expanded. Without a
///   home, a `~` entry stays as written and is resolved against `base` like any relative
///   entry, so the loader reports the directory as missing instead of dropping it.
/// - A relative entry is joined to `base`; an absolute one is kept.
/// - On Unix the value is split as bytes, so entries that are not UTF-8 survive intact. On
///   other platforms a value that is not Unicode is read lossily.
/// - Duplicates are kept: the loader identifies files by canonical path and loads each once.
///
/// Pure: it reads neither the environment nor the file system.
pub fn parse_hook_dirs_value(value: &OsStr, home: Option<&Path>, base: &Path) -> Vec<PathBuf> {
    split_entries(value).into_iter().map(|entry| resolve_entry(entry, home, base)).collect()
}

/// The directories named by [`EnvVars::HOOK_DIRS`] in `env`, resolved against `base` (the
/// process's working directory, for a variable set when it was started). Unset gives none.
pub fn resolve_hook_dirs(env: &EnvVars, base: &Path) -> Vec<PathBuf> {
    match &env.hook_dirs {
        Some(value) => parse_hook_dirs_value(value, env.home_dir().as_deref(), base),
        None => Vec::new(),
    }
}

fn resolve_entry(entry: PathBuf, home: Option<&Path>, base: &Path) -> PathBuf {
    let expanded = match (home, entry.strip_prefix("~")) {
        (Some(home), Ok(rest)) => {
            if rest.as_os_str().is_empty() {
                home.to_path_buf()
            } else {
                home.join(rest)
            }
        }
        _ => entry,
    };
    if expanded.is_absolute() { expanded } else { base.join(expanded) }
}

#[cfg(unix)]
fn split_entries(value: &OsStr) -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    value
        .as_bytes()
        .split(|b| *b == b',')
        .map(<[u8]>::trim_ascii)
        .filter(|entry| !entry.is_empty())
        .map(|entry| PathBuf::from(OsStr::from_bytes(entry)))
        .collect()
}

#[cfg(not(unix))]
fn split_entries(value: &OsStr) -> Vec<PathBuf> {
    value
        .to_string_lossy()
        .split(',')
        .map(|entry| entry.trim_matches(|c: char| c.is_ascii_whitespace()))
        .filter(|entry| !entry.is_empty())
        .map(PathBuf::from)
        .collect()
}

#[cfg(test)]
mod tests;
