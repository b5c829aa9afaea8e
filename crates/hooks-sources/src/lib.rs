//! Explicit hook sources (WARP_HOOK_DIRS, run configuration), user-scope files, and the table of environment variables the engine reads.
//!
//! - [`EnvVars`]: every environment variable the engine reads, declared once, read by one
//!   function ([`EnvVars::from_process`]); everything else takes the captured values.
//! - [`parse_hook_dirs_value`] and [`resolve_hook_dirs`]: the `WARP_HOOK_DIRS` grammar
//!   (comma-separated, trimmed, blanks skipped, `~` expanded, relative entries resolved
//!   against a base), pure.
//! - [`sources_for_hook_dirs`], [`project_files`], [`user_files`]: which hook file a
//!   directory, a project root or the user's own directories hold, in every supported format.
//! - [`read_source`]: the one function that reads a hook file (checks before opening, a size
//!   cap, then the format's adapter), shared with the watcher.
//! - [`load_explicit_sources`]: loads explicit sources into the registry, active without
//!   consulting the trust policy, and returns every error recorded for them.
//! - [`shadowed_file_warnings`], [`dormant_diagnostics`], [`duplicate_id_diagnostics`]:
//!   Chrys's warnings about its hooks files.
//! - [`found_paths`]: where a loaded file must be protected besides its canonical path.
//! - [`load_user_sources`] and [`load_managed_sources`]: load the user's own files and the
//!   administrator's with the trust policy's decision; Claude Code's managed settings are the
//!   base file and each `managed-settings.d/*.json` fragment, in name order
//!   ([`managed_claude_fragments`]); [`read_user_sources`] and [`read_managed_sources`] read
//!   the same files without applying them, for the watcher's reloads.
//! - [`read_user_settings`]: the user's opt-in to Chrys project hooks (`project.hooks_enabled`
//!   in their own `<chrys config dir>/settings.yaml`).
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod chrys;
mod discover;
mod env;
mod found;
mod hook_dirs;
mod load;
mod read;
mod user_settings;

pub use crate::{
    chrys::{dormant_diagnostics, duplicate_id_diagnostics, shadowed_file_warnings},
    discover::{
        ExplicitHookSource, ExplicitSourceScope, MANAGED_FRAGMENT_DIR, MAX_MANAGED_FRAGMENT_SCAN,
        MAX_MANAGED_FRAGMENTS, ManagedDirs, SourceFormat, UserDirs, expected_files,
        format_for_file, hook_file_candidates, managed_claude_fragments, managed_files,
        managed_files_with_diagnostics, project_file_candidates, project_files,
        sources_for_hook_dirs, user_file_candidates, user_files,
    },
    env::{EnvVarSpec, EnvVars},
    found::{found_paths, shadowing_names},
    hook_dirs::{parse_hook_dirs_value, resolve_hook_dirs},
    load::{
        ReadSources, load_explicit_sources, load_managed_sources, load_user_sources,
        read_managed_sources, read_user_sources,
    },
    read::{MAX_SOURCE_BYTES, ReadError, parse_bytes, read_capped, read_capped_to, read_source},
    user_settings::{read_user_settings, user_settings_path},
};
