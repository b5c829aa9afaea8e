//! Case sensitivity of the file system a protected file lives on, detected by probing.
//!
//! Detection: take the protected file's name, flip the case of every letter, and look the
//! flipped name up in the same folder. When it exists and is the same file (same device and
//! inode), the folder is case-insensitive; when it does not exist, or is another file, the
//! folder is case-sensitive. A name without letters moves the probe to the folder's own name
//! in its parent. When nothing can be probed (no letters up to the root, an unreadable
//! folder, or a platform without inodes where the flipped name resolves) the platform's usual
//! default is assumed: insensitive on macOS and Windows, sensitive elsewhere.

use std::path::Path;

use crate::file_key::file_key;

#[cfg(test)]
mod tests;

/// Whether names on a file system differ by case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaseSensitivity {
    /// `Hooks.json` and `hooks.json` are two files.
    Sensitive,
    /// `Hooks.json` and `hooks.json` are one file.
    Insensitive,
}

impl CaseSensitivity {
    /// The usual default of the platform, used when probing cannot tell.
    pub fn platform_default() -> CaseSensitivity {
        if cfg!(any(target_os = "macos", target_os = "ios", windows)) {
            CaseSensitivity::Insensitive
        } else {
            CaseSensitivity::Sensitive
        }
    }
}

/// How a [`crate::ProtectedSet`] decides whether to compare a protected path case-insensitively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaseDetection {
    /// Probe the folder of each protected file with [`probe_case_sensitivity`].
    Probe,
    /// Compare every protected path case-insensitively, whatever the file system says. This
    /// protects more than needed on a case-sensitive file system and never less.
    AlwaysInsensitive,
}

/// Probes the file system holding `path` (an existing file or folder) for case sensitivity.
pub fn probe_case_sensitivity(path: &Path) -> CaseSensitivity {
    let mut current = path;
    loop {
        let (Some(parent), Some(name)) = (current.parent(), current.file_name()) else {
            return CaseSensitivity::platform_default();
        };
        let name = name.to_string_lossy();
        let flipped = flip_case(&name);
        let Ok(meta) = std::fs::metadata(current) else {
            // A protected path that does not exist (any more): probe the folder above it.
            current = parent;
            continue;
        };
        if flipped == name {
            current = parent;
            continue;
        }
        return match std::fs::metadata(parent.join(&flipped)) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => CaseSensitivity::Sensitive,
            Err(_) => CaseSensitivity::platform_default(),
            Ok(other) => match (file_key(&meta), file_key(&other)) {
                (Some(a), Some(b)) if a == b => CaseSensitivity::Insensitive,
                (Some(_), Some(_)) => CaseSensitivity::Sensitive,
                _ => CaseSensitivity::platform_default(),
            },
        };
    }
}

/// `name` with every lowercase letter made uppercase and every uppercase letter lowercase.
pub(crate) fn flip_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for ch in name.chars() {
        if ch.is_lowercase() {
            out.extend(ch.to_uppercase());
        } else if ch.is_uppercase() {
            out.extend(ch.to_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The comparison key of a path on a case-insensitive file system: its text, lowercased.
///
/// Unicode lowercasing approximates the file systems' own folding tables (APFS and NTFS fold
/// a little differently); a non-UTF-8 name is compared through its lossy text. Both err on
/// the side of matching more.
pub(crate) fn fold(path: &Path) -> String {
    path.to_string_lossy().to_lowercase()
}
