//! Permissions guard: hook files and the scripts they name cannot be edited by the agent.
//!
//! An agent that can rewrite its own hook files can switch off the policy that constrains
//! it. This crate answers one question before any file edit the agent asks for is applied:
//! does any of the edited paths reach a protected path of the registry snapshot (a hook file,
//! a script a hook names, a folder holding one of them, or the same file under another name)?
//!
//! Every requested path is resolved the same way:
//!
//! 1. a relative path is joined to the session's working directory, so it can never slip past;
//! 2. `.` and `..` are removed lexically, and trailing separators disappear;
//! 3. the path is canonicalized through `hooks_registry::canonicalize` when it exists, and
//!    otherwise its nearest existing ancestor is canonicalized and the rest appended, so a
//!    path that does not exist yet under a symlinked folder is still caught;
//! 4. a path with a `..` component is also resolved the way the operating system reads it
//!    (`link/..` is the parent of the link's target), and a hit under either reading counts.
//!
//! The resolved path is compared with a [`ProtectedSet`] built once per snapshot: exact
//! protected files, every folder that holds one (deleting or renaming `.cursor/` is an edit
//! of `.cursor/hooks.json`), the device and inode of each (a hard link is the same file), and
//! case-folded spellings where the protected file lives on a case-insensitive file system.
//!
//! The guard applies in every mode. [`approve_edit`] shows the order: the guard runs first and
//! a protected path is never auto-applied, whatever the [`EditContext`] says.
//!
//! Scope: this is an agent file-edit guard. Shell commands the agent runs can still change
//! these files; they are governed by the command-execution permission and by pre-tool-use
//! hooks, not by this crate.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod approval;
mod case;
mod decision;
mod error;
mod file_key;
mod protected;
mod resolve;
mod snapshot;
mod spelling;
mod trace;

#[cfg(test)]
mod test_tree;
#[cfg(test)]
mod tests;

pub use crate::{
    approval::{EditApproval, EditContext, approve_edit},
    case::{CaseDetection, CaseSensitivity, probe_case_sensitivity},
    decision::{GuardDecision, HitReason, ProtectedHit, UnresolvedPath},
    error::GuardError,
    protected::{ProtectedEntry, ProtectedRole, ProtectedSet, can_write_files},
    resolve::{Resolved, normalize_lexically, resolve_edit_path},
};
