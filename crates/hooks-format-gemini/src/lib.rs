//! Reads Gemini CLI settings.json hooks and speaks Gemini CLI's hook protocol, as a hook runner and as its host (sans-IO).
//!
//! - [`parse`] turns a settings document (`.gemini/settings.json`, `~/.gemini/settings.json`,
//!   the system `settings.json` and `system-defaults.json`) into canonical
//!   [`HookDefinition`](hooks_schema::HookDefinition)s, located diagnostics and the typed
//!   policy `hooksConfig.enabled` sets, with Gemini CLI 0.61.0's acceptance rules (comments
//!   allowed, what it discards skipped with a diagnostic, what it cannot start with
//!   rejected).
//! - Matchers are unanchored JavaScript regular expressions on tool events and exact strings
//!   on `SessionStart`, `SessionEnd` and `PreCompress` ([`jsregex`](crate) reproduces
//!   JavaScript's regex semantics with a backtracking budget).
//! - [`GeminiCodec`] encodes an envelope into Gemini CLI's stdin document and decodes
//!   stdout, stderr and the exit code as Gemini CLI's runner does.
//! - [`GeminiHost`] is the host codec (`hooks bridge --host gemini`): Gemini CLI's hook input
//!   into the canonical envelope, a folded verdict into Gemini CLI's answer.
//! - [`descriptor`] registers the format with the engine.
//!
//! The design and every deliberate difference from Gemini CLI are in
//! `specs/formats/gemini.md`.
#![warn(missing_docs)]

mod codec;
mod descriptor;
mod events;
mod host;
mod js;
mod jsregex;
mod matcher;
mod parse;
mod problem;

/// The canonical events Gemini CLI's hooks also run on, as `(bound, fired)`
/// (`FormatDescriptor::event_rule`): it has no failure event, and its `AfterTool` hooks run
/// for a failed tool (observed with 0.61.0), which the other agents report as a failure.
pub const ALSO_RUNS_ON: [(hooks_schema::HookEvent, hooks_schema::HookEvent); 1] =
    [(hooks_schema::HookEvent::PostToolUse, hooks_schema::HookEvent::ToolFailure)];

/// Which firings Gemini CLI's hooks run for: their own events, and [`ALSO_RUNS_ON`]; a shell
/// command's non-zero exit is no failure (its `AfterTool` hooks run, observed with 0.61.0).
pub const EVENT_RULE: hooks_schema::EventRule<'static> =
    hooks_schema::EventRule { also_runs_on: &ALSO_RUNS_ON, shell_exit_is_failure: false };

pub use crate::{
    codec::{
        GeminiCodec, PROJECT_DIR_VARS, RESULT_BLOCKED, WORKSPACE_ENV_FILE, expand_command, payload,
    },
    descriptor::{
        EXTENSION_HOOKS, EXTENSIONS, FORMAT, GeminiFormat, LINK_FILE, LINKED_PARTS,
        MANAGED_SETTINGS, MANAGED_SYSTEM_DEFAULTS, PROJECT_FILE, PROJECT_SETTINGS, SETTINGS,
        SYSTEM_DEFAULTS, USER_SETTINGS, descriptor,
    },
    events::{DEFAULT_TIMEOUT, GeminiEvent, MatchField},
    host::{GeminiHost, tool_kind, with_provenance},
    matcher::{GEMINI_TOOLS, MAX_MATCHER_LEN, gemini_tool_name, mcp_tool_name},
    parse::{
        FOLDER_TRUST, HOOKS_DISABLED, HOOKS_ENABLED, MAX_DOCUMENT_BYTES, NATIVE_NAME,
        NATIVE_SEQUENTIAL, NATIVE_WORKSPACE_ENV, SHELL, parse, parse_extension_hooks,
    },
    problem::ConfigProblem,
};
