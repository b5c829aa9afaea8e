//! Reads Cursor's `.cursor/hooks.json` and speaks Cursor's hook protocol (sans-IO).
//!
//! - [`parse`] turns a file's bytes into [`hooks_schema::HookDefinition`]s and located
//!   [`hooks_schema::HookDiagnostic`]s, mapping Cursor's 21 native events onto canonical
//!   events as `specs/events.md` says (narrowed events carry the narrowing in their matcher).
//! - [`CursorCodec`] encodes an envelope as Cursor's stdin JSON and decodes a run's outcome
//!   into a verdict by Cursor's exit-code and output rules.
//! - [`tool_type`] names a canonical tool call the way Cursor's matchers see it.
//! - [`CursorHost`] is Cursor as a host: it decodes the hook input Cursor sends the engine's
//!   bridge (`hooks bridge --host cursor`) and encodes the answer Cursor reads.
//! - [`render`] writes definitions back as a Cursor file.
//! - [`CursorFormat`] ([`descriptor`]) is the format's descriptor: where Cursor's files live,
//!   its events and its codec, for the engine's core.
//!
//! `specs/formats/cursor.md` documents the mapping, the defaults and every deliberate
//! difference from Cursor.
#![warn(missing_docs)]

use std::time::Duration;

mod codec;
mod decode;
mod descriptor;
mod encode;
mod error;
mod events;
mod host;
mod matcher;
mod parse;
mod render;
mod tool_type;

pub use crate::{
    codec::CursorCodec,
    descriptor::{CursorFormat, FILE, FORMAT, MANAGED_FILE, PROJECT_FILE, USER_FILE, descriptor},
    error::CursorError,
    host::{CursorHost, tool_kind},
    matcher::MAX_MATCHER_LEN,
    parse::parse,
    render::render,
    tool_type::{envelope_tool_type, mcp_tool_name, tool_type},
};

/// The largest hook file accepted, checked before anything is parsed: 1 MiB.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// The timeout of a definition without `timeout`. Cursor documents only "platform default";
/// 60 s is the middle of what other agents use (30 s to 600 s), short enough that a hung gate
/// does not hold a tool call for minutes.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Cursor's default `loop_limit` for `stop` and `subagentStop` follow-ups.
pub const DEFAULT_LOOP_LIMIT: u32 = 5;

/// Every native event name Cursor documents, in the order of its documentation.
pub fn native_event_names() -> impl Iterator<Item = &'static str> {
    events::NATIVE_EVENTS.iter().map(|e| e.name)
}

/// The canonical event of a Cursor native event; `None` for an unknown name or a capability
/// gap (`beforeTabFileRead`, `afterTabFileEdit`).
pub fn canonical_event(native: &str) -> Option<hooks_schema::HookEvent> {
    events::lookup(native).and_then(|e| e.canonical)
}

#[cfg(test)]
mod testing;
