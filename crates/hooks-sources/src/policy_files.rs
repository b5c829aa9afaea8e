//! Reading the user's policy-only files (Chrys's `settings.yaml`) when a runtime is built,
//! for the opt-in to project hooks.

use std::path::Path;

use hooks_schema::{
    FileContent, FileScope, FormatSet, HookDiagnostic, HookSourceKind, ParseContext, SwitchRule,
};

use crate::{ReadError, UserDirs, locate::locations_in, read_capped};

/// What the user's policy-only files say about project hooks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserPolicy {
    /// The opt-in to project hooks ([`SwitchRule::OptIn`]): the first file, in registration
    /// order, that sets one decides; `None` when no file sets it.
    pub opt_in: Option<bool>,
    /// Why a file or a value was not usable, each on its file (and line when known).
    pub diagnostics: Vec<HookDiagnostic>,
}

/// Reads every policy-only file of `formats` in the user's folders `dirs` (Chrys's
/// `<config_dir>/settings.yaml`, `project.hooks_enabled`).
///
/// Only the user's own files count: a project's copy can never turn project hooks on, so none
/// is read here (nor anywhere). A file is read like a hook file ([`read_capped`]: a regular
/// file only, never blocking on a FIFO, at most [`crate::MAX_SOURCE_BYTES`]) and parsed by
/// its format. No folder, or no file there (a dangling symlink included), says nothing; a
/// file that cannot be read says nothing and gives an error naming it.
pub fn read_user_policy(formats: &FormatSet, dirs: &UserDirs) -> UserPolicy {
    let mut out = UserPolicy::default();
    for (location, place) in locations_in(formats, FileScope::User, Path::new(""), dirs) {
        if location.content != FileContent::PolicyOnly {
            continue;
        }
        let Some(format) = formats.get(location.role.format()) else { continue };
        let kind = HookSourceKind::file(FileScope::User, location.role);
        for path in place.files(&location) {
            let bytes = match read_capped(&path) {
                Ok(bytes) => bytes,
                // No file there (a dangling symlink included) sets nothing and says nothing.
                Err(ReadError::Missing { .. } | ReadError::DanglingSymlink { .. }) => continue,
                Err(e) => {
                    out.diagnostics.push(unreadable(&e));
                    continue;
                }
            };
            match format.parse(&bytes, &ParseContext::new(&path, kind)) {
                Ok(parsed) => {
                    if out.opt_in.is_none() {
                        out.opt_in = parsed.policy.switch(SwitchRule::OptIn).map(|s| s.on);
                    }
                    out.diagnostics.extend(parsed.diagnostics);
                }
                Err(diagnostics) => out.diagnostics.extend(diagnostics),
            }
        }
    }
    out
}

/// The error for a policy file that cannot be read: its settings are ignored.
fn unreadable(e: &ReadError) -> HookDiagnostic {
    let why = match e {
        ReadError::Missing { .. } => "does not exist".to_owned(),
        ReadError::DanglingSymlink { .. } => "is a symlink to nothing".to_owned(),
        ReadError::SymlinkLoop { .. } => "is a symlink loop".to_owned(),
        ReadError::NotAFile { what, .. } => format!("is {what}, not a regular file"),
        ReadError::TooLarge { size, cap, .. } => {
            format!("is {size} bytes, more than the {cap} byte limit")
        }
        ReadError::Io { source, .. } => format!("cannot be read: {source}"),
    };
    HookDiagnostic::error(format!("settings file {why}; its settings are ignored"))
        .in_file(e.path())
        .with_code(e.code())
}

#[cfg(test)]
mod tests;
