//! The user's trust store: which hook files the user trusted, pinned by content.
//!
//! A repository's hook file runs arbitrary commands; once the user has reviewed it, what they
//! trusted is that file's exact content and the exact content of every script its hooks run.
//! [`pin`] records both for one file: the SHA-256 of the bytes that were parsed, and of every
//! file its commands run or load, found by the guard's command analysis and placed as the
//! registry places the hooks ([`hooks_registry::definition_files`], [`PINNED_ROLES`]).
//! [`TrustStore`] keeps the pins in one JSON file in the user's state directory
//! (`$XDG_STATE_HOME/agent-hooks/trust.json` on Linux; `specs/bridge.md`, "The trust
//! store"), written atomically under a lock, read within bounds, and never trusted when it
//! cannot be read. [`check`] says whether a file as loaded now is what the user trusted: a
//! changed file or script is [`PinStatus::Changed`], and its reason says to run
//! `hooks trust`.
//!
//! The crate knows no format: the caller parses the file with its format's descriptor and
//! hands over the definitions.
//!
//! # Example
//!
//! ```no_run
//! use hooks_registry::UserPaths;
//! use hooks_schema::AbsPathBuf;
//! use hooks_truststore::{Digest, HookFile, TrustStore, check, pin};
//!
//! # fn demo(path: AbsPathBuf, root: AbsPathBuf, bytes: &[u8],
//! #         defs: &[&hooks_schema::HookDefinition]) -> Result<(), Box<dyn std::error::Error>> {
//! let user = UserPaths::default();
//! let file = HookFile {
//!     path: &path,
//!     kind: "project_cursor_file",
//!     root: Some(&root),
//!     digest: Digest::of(bytes),
//!     definitions: defs,
//!     user: &user,
//! };
//! let store = TrustStore::at("/home/me/.local/state/agent-hooks/trust.json");
//! store.update(|s| s.insert(pin(&file, 0).expect("pinnable")))?;
//! assert!(check(store.load()?.get(&path), &file, None).is_trusted());
//! # Ok(()) }
//! ```
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod check;
mod digest;
mod pin;
mod store;

pub use crate::{
    check::{Change, PinStatus, check},
    digest::{
        Digest, HashError, MAX_FOLDER_DEPTH, MAX_FOLDER_ENTRIES, MAX_PINNED_FILE_BYTES, PathState,
        path_state, read_regular,
    },
    pin::{
        FilePin, HookFile, PINNED_ROLES, PathStateKey, PinError, PinnedScript, named_scripts, pin,
    },
    store::{
        InvalidStore, LOCK_WAIT, MAX_FILES, MAX_SCRIPTS_PER_FILE, MAX_STORE_BYTES, MAX_TEXT_BYTES,
        RecordError, STORE_FILE_NAME, StoreContents, StoreError, TrustStore,
    },
};

/// The engine's own files are not a hook format's; this id names them where a source kind is
/// needed (the guard's protected paths).
pub const ENGINE: hooks_schema::FormatId = hooks_schema::FormatId::new("agent-hooks");

/// The role of the trust store among the files the guard protects.
pub const TRUST_STORE_ROLE: hooks_schema::FileRole =
    hooks_schema::FileRole::new(ENGINE, "trust_store", 0);

/// The kind the guard reports the trust store's folder under (`user_trust_store`): an agent
/// that could edit the store could trust its own hooks.
pub const TRUST_STORE: hooks_schema::HookSourceKind =
    hooks_schema::HookSourceKind::file(hooks_schema::FileScope::User, TRUST_STORE_ROLE);

/// Checks `file` against whatever `store` holds: [`PinStatus::StoreUnreadable`] when the
/// store could not be read (nothing counts as trusted then).
pub fn check_in(
    store: &Result<StoreContents, StoreError>,
    file: &HookFile<'_>,
    session: Option<&hooks_schema::AbsPathBuf>,
) -> PinStatus {
    match store {
        Ok(contents) => check(contents.get(file.path), file, session),
        Err(e) => PinStatus::StoreUnreadable(e.to_string()),
    }
}
