//! Discovers and hot-reloads project hook files under each project root (the only crate that uses notify).
//!
//! For every project root it is given, `HookConfigWatcher` watches the root directory and the
//! few folders that can hold a project hook file of a registered format (with the workspace's
//! formats `.cursor/`, `.chrys/`, `.chrys/hooks/`, `.claude/`: the folders the descriptors'
//! locations lead through), never recursively into the repository, and reloads the root's hook
//! files from the state on disk after a debounced change. The user-scope hook files are watched
//! and reloaded the same way once `HookConfigWatcher::watch_user_dirs` is called, and the
//! managed (administrator) files once `HookConfigWatcher::watch_managed_dirs` is called. It
//! names no format: the formats come with its `WatcherConfig`.
//! This crate parses nothing itself (`hooks-sources` reads and parses the files) and decides no
//! trust itself (`hooks-trust` does); it applies both through the registry's single writer.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod backend;
mod debounce;
mod dirs;
mod error;
mod event;
mod layout;
mod matrix;
mod missing;
mod place;
mod shared;
mod trace;
mod watcher;
mod worker;

pub use crate::{
    debounce::DEFAULT_DEBOUNCE_WINDOW,
    error::{WatchError, WatcherError},
    matrix::{RootOrigin, watch_matrix},
    place::WatchedPlace,
    shared::{ReloadReport, WatcherEvent},
    watcher::{AttachFuture, HookConfigWatcher, UserWatchFuture, WatcherConfig},
};
