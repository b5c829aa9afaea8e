//! Hook registry: per-source state, revisioned immutable snapshots, nearest-root bindings,
//! pinning, protected paths.
//!
//! The registry is format-agnostic: adapters parse files into [`hooks_schema::ParseResult`]s,
//! loaders (hooks-sources, hooks-watcher) hand them over as [`SourceUpdate`]s with a trust
//! decision, and the registry keeps one state per [`HookSourceId`]
//! (never loaded, loaded, stale with the last valid parse, or failed). Every change rebuilds
//! an immutable [`RegistrySnapshot`] and publishes it through arc-swap, so readers
//! ([`RegistryReader`]) never wait on the single writer. Two counters tag snapshots:
//! the generation moves on every publish; the revision moves only when the runnable
//! bindings or the project roots differ. [`HookRegistry::batch`] applies several changes and
//! publishes once, so readers never see a multi-step update half applied.
//!
//! [`RegistrySnapshot::bindings_for`] applies a project's bindings only under its nearest
//! root, explicit, managed and user bindings everywhere, in [`HookSourceKind::priority`]
//! order. [`HookRegistry::pin`] freezes the run: later changes are reported but not
//! applied. The snapshot's [`ProtectedPaths`] cover every hook file and the scripts it runs.
//!
//! This crate owns the workspace's one canonicalization helper, [`canonicalize`].
//!
//! [`HookSourceKind::priority`]: hooks_schema::HookSourceKind::priority
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod build;
mod error;
#[doc(hidden)]
pub mod fuzzing;
mod gitconfig;
mod handle;
mod hookmanagers;
mod imports;
mod includes;
mod installations;
mod paths;
mod policy;
mod protect;
mod recipes;
mod registry;
mod scripts;
mod shell;
mod snapshot;
mod sshconfig;
#[cfg(test)]
mod test_support;
mod toolconfig;
mod trace;

pub use crate::{
    error::RegistryError,
    gitconfig::{
        GitConfiguration, command_line_files, git_config_parameters, read_git_configuration,
        read_git_configuration_entries,
    },
    handle::{RegistryEvent, RegistryHandle, RegistryReader},
    hookmanagers::hook_manager_config_files,
    imports::{ConfigurationFile, Language as ImportLanguage, configuration_paths, local_imports},
    paths::{canonicalize, canonicalize_lenient, normalize_lexically, open_nonblocking},
    policy::RunSettingsIndex,
    protect::{
        DefinitionFiles, ExpectedFiles, LinkedFolder, Placement, ProtectedKind, ProtectedPath,
        ProtectedPaths, ProtectedPattern, RunRelative, RunRelativeKind, UserPaths,
        definition_files, resolve_script, script_candidate,
    },
    registry::{HookRegistry, SourceUpdate},
    scripts::{
        CommandAnalysis, NamedPath, PathBase, PathRole, RecipeRun, analyse, analyse_script_text,
        analyse_with_templates, home_cache_folders, home_start_up_files, loading_options,
    },
    snapshot::{CwdScope, LoadStateKind, PinnedRun, RegistrySnapshot, SourceView},
    toolconfig::{ripgrep_config_files, typescript_config_files},
};

use hooks_schema::{HookSourceId, HookSourceKind};

/// Identifies a hook file by its canonical path, so a symlink and its target are one source.
pub fn source_id(
    kind: HookSourceKind,
    path: &std::path::Path,
) -> Result<HookSourceId, RegistryError> {
    canonicalize(path)
        .map(|p| HookSourceId::new(kind, p))
        .map_err(|source| RegistryError::Canonicalize { path: path.to_path_buf(), source })
}
