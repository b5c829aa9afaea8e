//! Explicit hook sources (WARP_HOOK_DIRS, run configuration), the registered formats' files on disk, and the table of environment variables the engine reads.
//!
//! This crate knows no format: it reads the [`FormatSet`](hooks_schema::FormatSet) whoever
//! builds the runtime registers, and each descriptor's file locations.
//!
//! - [`EnvVars`]: every environment variable the engine reads, declared once, read by one
//!   function ([`EnvVars::from_process_with`]; the formats' own folder overrides such as
//!   `CODEX_HOME` come from their descriptors); everything else takes the captured values.
//! - [`parse_hook_dirs_value`] and [`resolve_hook_dirs`]: the `WARP_HOOK_DIRS` grammar
//!   (comma-separated, trimmed, blanks skipped, `~` expanded, relative entries resolved
//!   against a base), pure.
//! - [`find_files`], [`project_files`], [`user_files`], [`managed_files`], [`candidates`]:
//!   the descriptors' locations resolved against a project root, the user's folders
//!   ([`UserDirs`]) or the administrator's ([`ManagedDirs`]), and looked up; [`candidates`]
//!   names every path whether or not a file is there. [`ManagedDirs::system_from_env`]
//!   finds the administrator's files where the formats' variables put them, and
//!   [`administrator_only`] is the check a location that reads only the administrator's
//!   files is read under (Gemini CLI's system files).
//! - [`sources_for_hook_dirs`]: which hook file a folder named as an explicit source holds.
//! - [`read_source`]: the one function that reads a hook file (checks before opening, a size
//!   cap, then the format's parser), shared with the watcher.
//! - [`load_explicit_sources`]: loads explicit sources into the registry, active without
//!   consulting the trust policy, and returns every error recorded for them.
//! - [`load_user_sources`] and [`load_managed_sources`]: load the user's own files and the
//!   administrator's with the trust policy's decision; [`read_user_sources`] and
//!   [`read_managed_sources`] read the same files without applying them, for the watcher.
//! - [`found_paths`]: where a loaded file must be protected besides its canonical path.
//! - [`advisories`]: each format's advisories about its sources in a snapshot.
//! - [`read_user_policy`]: the user's policy-only files (Chrys's opt-in to project hooks).
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod advisories;
mod env;
mod explicit;
mod found;
mod hook_dirs;
mod load;
mod locate;
mod ownership;
mod policy_files;
mod read;

pub use crate::{
    advisories::advisories,
    env::{EnvVarSpec, EnvVars},
    explicit::{ExplicitHookSource, hook_file_candidates, sources_for_hook_dirs},
    found::found_paths,
    hook_dirs::{parse_hook_dirs_value, resolve_hook_dirs},
    load::{
        ReadSources, load_explicit_sources, load_managed_sources, load_user_sources,
        read_managed_sources, read_user_sources, read_with, read_with_bytes,
    },
    locate::{
        Candidate, FoundFile, MAX_AGENT_FOLDER_ENTRIES, MAX_FOLDER_FILES, MAX_FOLDER_SCAN,
        MAX_FOLLOW_DEPTH, MAX_FOLLOWED_FOLDERS, ManagedDirs, NESTED_MAX_DEPTH, NESTED_MAX_FOLDERS,
        NestedFolders, Place, ScopeDirs, UserDirs, candidates, expected_files, files_below,
        files_in, find_files, find_session_files, linked_folders, locations_in, managed_files,
        nested_project_folders, project_files, session_project_files, subfolders, user_files,
    },
    ownership::{NotAdministratorOnly, administrator_only},
    policy_files::{UserPolicy, read_user_policy},
    read::{
        MAX_SOURCE_BYTES, ReadError, decide_read, read_capped, read_capped_to, read_source,
        read_source_bytes,
    },
};
