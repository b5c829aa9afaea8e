//! Reads Claude Code settings.json hooks and speaks Claude Code's hook protocol, with the deny-only strict contract (sans-IO).
//!
//! - [`parse`] turns a settings document (`~/.claude/settings.json`, `.claude/settings.json`,
//!   `.claude/settings.local.json`, `managed-settings.json`) into canonical
//!   [`HookDefinition`](hooks_schema::HookDefinition)s and diagnostics with line and column.
//!   Native events map onto canonical ones as `specs/events.md` says; events without a
//!   counterpart are capability gaps (warning `capability_gap`, skipped).
//! - [`parse_front_matter`] reads the `hooks:` in the front matter of Claude Code's
//!   subagents, skills and commands (`.claude/agents/*.md`, `.claude/skills/*/SKILL.md`,
//!   `.claude/commands/*.md`) the same way, every definition disabled: Claude Code runs them
//!   while the subagent or skill is active; the engine lists them and protects their scripts.
//! - [`ClaudeCodec`] encodes an envelope into Claude Code's stdin document and decodes exit
//!   codes and JSON output into a [`HookVerdict`](hooks_schema::HookVerdict).
//! - [`ClaudeMode::Strict`] is the deny-only contract: `hooks.version: 1`, unknown keys,
//!   credential-looking keys, invalid matchers and oversized sections are violations that
//!   make the source fail closed ([`FailClosedCodec`]); failures of its hooks deny, an
//!   `allow` carries no weight and rewrites are ignored.
//! - [`ClaudeFormat`] ([`descriptor`]) is the format's descriptor: where Claude Code's
//!   settings files live, its events and its codec, for the engine's core.
//! - [`ClaudeHost`] is Claude Code as a host: it decodes the hook input Claude Code sends the
//!   engine's bridge (`hooks bridge --host claude`) and encodes the answer Claude Code reads.
//! - [`inventory`] and [`InventoryEntry`] give a redacted listing with [`fingerprint`]s.
//!
//! The design and every deliberate difference from Claude Code are in
//! `specs/formats/claude.md`.
#![warn(missing_docs)]

// The workspace's one position-keeping JSON reader, under the name this crate always used.
use hooks_json as json;

mod codec;
mod descriptor;
mod events;
mod frontmatter;
mod host;
mod inventory;
mod matcher;
mod parse;
mod plugins;
mod problem;

/// Which firings Claude Code's hooks run for: their own events, and a shell command that
/// exited non-zero is a failure of the tool (observed with 2.1.328: `PostToolUseFailure` with
/// `error` "Exit code 3" and the output, no `PostToolUse`).
pub const EVENT_RULE: hooks_schema::EventRule<'static> =
    hooks_schema::EventRule { also_runs_on: &[], shell_exit_is_failure: true };

pub use crate::{
    codec::{ClaudeCodec, FailClosedCodec, MAX_TEXT_CHARS, PROJECT_DIR_VAR, payload},
    descriptor::{
        AGENTS, ClaudeFormat, FORMAT, LOCAL_SETTINGS, MANAGED_FRAGMENT_DIR, MANAGED_SETTINGS,
        PROJECT_LOCAL_SETTINGS, PROJECT_SETTINGS, SETTINGS, USER_SETTINGS, descriptor,
    },
    events::{GAP_EVENTS, NativeEvent},
    host::{ClaudeHost, shell_exit_result, tool_kind},
    inventory::{InventoryEntry, Reveal, entries, fingerprint, inventory},
    matcher::{MAX_MATCHER_LEN, MatcherError, claude_tool_name},
    parse::{
        AGENT, ALLOW_MANAGED_HOOKS_ONLY, CONTRACT_VERSION, DISABLE_ALL_HOOKS, FrontMatterOf,
        MAX_DOCUMENT_BYTES, NATIVE_FAIL_CLOSED, STRICT_MAX_HOOKS_BYTES, fail_closed_unreadable,
        is_credential_key, parse, parse_front_matter, parse_plugin_hooks,
    },
    plugins::{
        INSTALLED, MARKETPLACE, MARKETPLACE_MANIFEST, MARKETPLACES, PLUGIN, PLUGIN_HOOKS,
        PLUGIN_MANIFEST, follow,
    },
    problem::ConfigProblem,
};

/// How a settings source is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClaudeMode {
    /// Claude Code's own rules: other settings keys are ignored, problems are diagnostics,
    /// a failing hook fails open unless it says `onFailure: block`.
    #[default]
    Default,
    /// The deny-only contract (`hooks.version: 1`): any violation makes the source fail
    /// closed, and its hooks' failures deny.
    Strict,
}
