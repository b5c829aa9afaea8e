//! Reads Windsurf Cascade hooks.json files and speaks Windsurf's hook protocol, as a hook runner and as its host (sans-IO).
//!
//! - [`parse`] turns a Windsurf `hooks.json` (a workspace's `.windsurf/hooks.json`, the
//!   user's `~/.codeium/windsurf/hooks.json`, the system file) into canonical
//!   [`HookDefinition`](hooks_schema::HookDefinition)s with located diagnostics.
//! - Windsurf has no matchers; its `pre_`/`post_` events narrow the canonical tool events
//!   to one kind of tool ([`WindsurfEvent::narrowing`]).
//! - [`WindsurfCodec`] encodes an envelope into Windsurf's stdin document and decodes the
//!   exit code (2 blocks a `pre_` action).
//! - [`WindsurfHost`] is the host codec (`hooks bridge --host windsurf`).
//! - [`descriptor`] registers the format with the engine.
//!
//! No Windsurf build runs here: the crate follows the documentation and third-party
//! integrations, and `specs/formats/windsurf.md` says which fact comes from where.
#![warn(missing_docs)]

mod codec;
mod descriptor;
mod events;
mod host;
mod matcher;
mod parse;

pub use crate::{
    codec::{BLOCKED, WindsurfCodec, decode_outcome, payload},
    descriptor::{
        FORMAT, HOOKS_FILE, MANAGED_HOOKS, PROJECT_FILE, PROJECT_HOOKS, USER_HOOKS, WindsurfFormat,
        descriptor,
    },
    events::WindsurfEvent,
    host::{WindsurfHost, tool_name},
    parse::{DEFAULT_TIMEOUT, MAX_DOCUMENT_BYTES, NATIVE_SHOW_OUTPUT, SHELL, parse},
};
