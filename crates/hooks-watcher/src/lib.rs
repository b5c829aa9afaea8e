//! Discovers and hot-reloads project hook files under each project root (the only crate that uses notify).
//!
//! For every project root it is given, `HookConfigWatcher` watches the root directory and the
//! few folders that can hold a project hook file (`.cursor/`, `.chrys/`, `.chrys/hooks/`,
//! `.claude/`), never recursively into the repository, and reloads the root's hook files from
//! the state on disk after a debounced change. The user-scope hook files (`~/.cursor/hooks.json`,
//! Chrys's global file, `~/.claude/settings.json`) are watched and reloaded the same way once
//! `HookConfigWatcher::watch_user_dirs` is called, and the managed (administrator) files once
//! `HookConfigWatcher::watch_managed_dirs` is called.
//! This crate parses nothing itself (`hooks-sources` reads and parses the files) and decides no
//! trust itself (`hooks-trust` does); it applies both through the registry's single writer.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod backend;
mod debounce;
mod error;
mod event;
mod layout;
mod matrix;
mod missing;
mod shared;
mod watcher;
mod worker;

pub use crate::{
    debounce::{Batch, DEFAULT_DEBOUNCE_WINDOW, Debouncer, MAX_DEBOUNCE_WINDOW},
    error::{WatchError, WatcherError},
    event::{ChangeKind, FsChange, Routed, route},
    layout::{
        CHRYS_FILE_NAMES, HOOK_FILES, Touch, WATCHED_FOLDERS, managed_folders, managed_touch,
        owning_root, touch, user_folders, user_touch,
    },
    matrix::{RootOrigin, watch_matrix},
    shared::{ManagedReloadReport, ReloadReport, UserReloadReport, WatcherEvent},
    watcher::{AttachFuture, HookConfigWatcher, UserWatchFuture, WatcherConfig},
};
