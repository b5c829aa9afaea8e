//! Reading the user's own Chrys settings document (`<config_dir>/settings.yaml`) for the
//! opt-in to project hooks (`project.hooks_enabled`).

use std::path::PathBuf;

use hooks_format_chrys::{USER_SETTINGS_FILE, UserSettings, parse_user_settings};
use hooks_schema::HookDiagnostic;

use crate::{ReadError, UserDirs, read_capped};

/// Where the user's Chrys settings document is: `<chrys config dir>/settings.yaml`, or `None`
/// without a Chrys config directory.
pub fn user_settings_path(dirs: &UserDirs) -> Option<PathBuf> {
    dirs.chrys_config_dir.as_ref().map(|d| d.join(USER_SETTINGS_FILE))
}

/// Reads `project.hooks_enabled` from the user's own Chrys settings document in `dirs`.
///
/// Only the user's file counts: a project's `.chrys/settings.yaml` can never turn project
/// hooks on, so it is not read here (nor anywhere). The file is read like a hook file
/// ([`read_capped`]: a regular file only, never blocking on a FIFO, at most
/// [`crate::MAX_SOURCE_BYTES`]) and parsed by [`parse_user_settings`]. No config directory, or
/// no file there (a dangling symlink included), sets nothing and says nothing; a file that
/// cannot be read sets nothing and gives an error naming it.
pub fn read_user_settings(dirs: &UserDirs) -> UserSettings {
    let Some(path) = user_settings_path(dirs) else { return UserSettings::default() };
    match read_capped(&path) {
        Ok(bytes) => parse_user_settings(&bytes, &path),
        Err(ReadError::Missing { .. }) => UserSettings::default(),
        Err(e) => {
            let why = match &e {
                ReadError::Missing { .. } => "does not exist".to_owned(),
                ReadError::SymlinkLoop { .. } => "is a symlink loop".to_owned(),
                ReadError::NotAFile { what, .. } => format!("is {what}, not a regular file"),
                ReadError::TooLarge { size, cap, .. } => {
                    format!("is {size} bytes, more than the {cap} byte limit")
                }
                ReadError::Io { source, .. } => format!("cannot be read: {source}"),
            };
            let d = HookDiagnostic::error(format!("settings file {why}; its settings are ignored"))
                .in_file(e.path())
                .with_code(e.code());
            UserSettings { project_hooks_enabled: None, diagnostics: vec![d] }
        }
    }
}

#[cfg(test)]
mod tests;
