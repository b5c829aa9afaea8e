//! Test doubles shared by the engine's crates, so no crate keeps its own copy.
//!
//! - [`InertCodec`]: a codec for definitions that are listed, bound and protected but never
//!   run (it refuses to encode).
//! - [`ScriptCodec`]: a tiny made-up protocol for tests that do run hooks (see its docs).
//! - [`bench`](mod@bench): the benches' order of samples (each side measured after its own).
//! - [`http_server`]: a 127.0.0.1 HTTP server that records requests and answers as scripted,
//!   for HTTP hooks.
//! - [`definition`] and [`script_definition`]: definitions with either codec.
//! - [`workspace_formats`] and [`WORKSPACE_KINDS`]: three of the workspace's formats (the
//!   first adapters) as a [`FormatSet`], and every source kind they declare in precedence
//!   order, for tests that exercise the core with real files; [`every_format`] has all seven.
//!
//! It depends on the schema and the adapters only, never on a core crate, so a core crate's
//! unit tests can use it without linking a second copy of themselves.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

pub mod bench;
mod codec;
pub mod http_server;

/// The ids of the workspace's formats, so a core crate's tests name them without depending
/// on an adapter.
pub mod ids {
    pub use hooks_format_chrys::FORMAT as CHRYS;
    pub use hooks_format_claude::FORMAT as CLAUDE;
    pub use hooks_format_copilot::FORMAT as COPILOT;
    pub use hooks_format_cursor::FORMAT as CURSOR;
    pub use hooks_format_gemini::FORMAT as GEMINI;
}

/// The source kinds of the workspace's formats under their seed names, so a core crate's
/// tests name them without depending on an adapter.
pub mod kinds {
    pub use hooks_format_chrys::{
        PROJECT_FILE as PROJECT_CHRYS_FILE, USER_FILE as USER_CHRYS_FILE,
        USER_SETTINGS as USER_CHRYS_SETTINGS,
    };
    pub use hooks_format_claude::{
        MANAGED_SETTINGS as MANAGED_CLAUDE_SETTINGS,
        PROJECT_LOCAL_SETTINGS as PROJECT_CLAUDE_LOCAL_SETTINGS,
        PROJECT_SETTINGS as PROJECT_CLAUDE_SETTINGS, USER_SETTINGS as USER_CLAUDE_SETTINGS,
    };
    pub use hooks_format_copilot::{
        PROJECT_HOOKS as PROJECT_COPILOT_HOOKS, USER_HOOKS as USER_COPILOT_HOOKS,
    };
    pub use hooks_format_cursor::{
        MANAGED_FILE as MANAGED_CURSOR_FILE, PROJECT_FILE as PROJECT_CURSOR_FILE,
        USER_FILE as USER_CURSOR_FILE,
    };
    pub use hooks_format_gemini::MANAGED_SETTINGS as MANAGED_GEMINI_SETTINGS;
}

use std::{sync::Arc, time::Duration};

use hooks_schema::{
    Delivery, ExecutionMode, FormatSet, HookCommand, HookDefinition, HookEvent, HookId,
    HookSourceKind, Matcher, OnFailure,
};

pub use crate::codec::{InertCodec, ScriptCodec, TEST_FORMAT};

/// A blocking pre-tool-use shell definition running `command`, with the [`InertCodec`], a
/// 30 s timeout, `order` as its position and line `order + 1`, column 1.
pub fn definition(id: &str, order: u32, command: &str) -> HookDefinition {
    HookDefinition {
        id: HookId::new(id).expect("a valid test id"),
        event: HookEvent::PreToolUse,
        native_event: "preToolUse".to_owned(),
        matcher: Matcher::all(),
        command: HookCommand::Shell { script: command.to_owned(), shell: None },
        cwd: None,
        env: Vec::new(),
        timeout: Duration::from_secs(30),
        on_failure: OnFailure::Warn,
        mode: ExecutionMode::Blocking,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(InertCodec),
        order,
        line: Some(order + 1),
        column: Some(1),
        description: None,
        native: serde_json::Map::new(),
    }
}

/// A blocking pre-tool-use definition running `command` with the [`ScriptCodec`] and a 10 s
/// timeout, at line 1.
pub fn script_definition(id: &str, command: HookCommand) -> HookDefinition {
    HookDefinition {
        native_event: "PreToolUse".to_owned(),
        command,
        timeout: Duration::from_secs(10),
        line: Some(1),
        column: None,
        codec: Arc::new(ScriptCodec),
        ..definition(id, 0, "")
    }
}

/// Three of the workspace's formats (Cursor, Chrys, Claude Code: the first adapters), in the
/// app's relative order: for the core's tests that need real formats but not all seven
/// ([`every_format`] has them all).
pub fn workspace_formats() -> FormatSet {
    FormatSet::new(vec![
        hooks_format_cursor::descriptor(),
        hooks_format_chrys::descriptor(),
        hooks_format_claude::descriptor(),
    ])
}

/// Every adapter of the workspace (the app registers the same seven): for the core's tests
/// of behaviour that differs between formats by their declarations (where each agent reads
/// a session's project files).
pub fn every_format() -> FormatSet {
    FormatSet::new(vec![
        hooks_format_cursor::descriptor(),
        hooks_format_chrys::descriptor(),
        hooks_format_claude::descriptor(),
        hooks_format_codex::descriptor(),
        hooks_format_gemini::descriptor(),
        hooks_format_copilot::descriptor(),
        hooks_format_windsurf::descriptor(),
    ])
}

/// Copilot CLI's format alone: the registered format whose project folder is read
/// recursively (`FilePattern::EachIn { recursive: true }`), for the core's tests of that.
pub fn copilot_formats() -> FormatSet {
    FormatSet::new(vec![hooks_format_copilot::descriptor()])
}

/// Gemini CLI's format alone: the registered format whose system files a variable can name
/// and that reads them only when no one but root can write them
/// (`FileLocation::env`, `Ownership::Administrator`), for the core's tests of those.
pub fn gemini_formats() -> FormatSet {
    FormatSet::new(vec![hooks_format_gemini::descriptor()])
}

/// Every kind of hook file the workspace's formats declare, with the explicit kinds, in
/// precedence order: the seed's twelve kinds (Chrys's policy-only settings document aside).
pub const WORKSPACE_KINDS: [HookSourceKind; 12] = [
    HookSourceKind::FACTORY_AGENT,
    HookSourceKind::FACTORY_WIDE,
    HookSourceKind::RUN_DELIVERED,
    hooks_format_cursor::MANAGED_FILE,
    hooks_format_claude::MANAGED_SETTINGS,
    hooks_format_cursor::PROJECT_FILE,
    hooks_format_chrys::PROJECT_FILE,
    hooks_format_claude::PROJECT_LOCAL_SETTINGS,
    hooks_format_claude::PROJECT_SETTINGS,
    hooks_format_cursor::USER_FILE,
    hooks_format_chrys::USER_FILE,
    hooks_format_claude::USER_SETTINGS,
];

#[cfg(test)]
mod tests;
