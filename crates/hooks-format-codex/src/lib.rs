//! Reads Codex hooks.json and config.toml `[hooks]`, speaks Codex's hook protocol as a hook and as a host, and computes Codex's own hook trust hashes (sans-IO).
//!
//! - [`parse`] turns a Codex hook file (a layer's `hooks.json`, the inline `[hooks]` of its
//!   `config.toml`, the managed `requirements.toml`) into canonical
//!   [`HookDefinition`](hooks_schema::HookDefinition)s, diagnostics with line and column, and
//!   the file's [`SourcePolicy`](hooks_schema::SourcePolicy) (`[features].hooks`,
//!   `allow_managed_hooks_only`), with the acceptance rules of Codex 0.169.0.
//! - [`CodexCodec`] encodes an envelope into the stdin document Codex sends and decodes a
//!   hook's exit code and output as Codex reads them.
//! - [`CodexHost`] is the other direction (`hooks bridge --host codex`): Codex's hook input to
//!   an envelope, a folded verdict to Codex's answer.
//! - [`hook_hash`], [`hook_key`], [`hook_states`] and [`codex_trust`] reproduce Codex's own
//!   per-hook trust record (`[hooks.state]` in the user's `config.toml`).
//! - [`CodexFormat`] is the format descriptor the engine registers.
//!
//! The design and every deliberate difference from Codex are in `specs/formats/codex.md`.
#![warn(missing_docs)]

mod codec;
mod config;
mod descriptor;
mod events;
mod host;
mod locate;
mod matcher;
mod parse;
mod plugins;
mod trust;

pub use crate::{
    codec::{CodexCodec, DEFAULT_SHELL, MAX_TEXT_CHARS, codex_tool_input, decode_outcome, payload},
    descriptor::{
        CODEX_HOME_VAR, CONFIG_FILE, CodexFormat, FORMAT, HOOKS_FILE, MANAGED_CONFIG,
        MANAGED_HOOKS, MANAGED_REQUIREMENTS, PLUGINS, PROJECT_CONFIG, PROJECT_HOOKS,
        REQUIREMENTS_FILE, USER_CONFIG, USER_HOOKS, descriptor,
    },
    events::CodexEvent,
    host::{CodexHost, decode_input, encode_answer, patch_paths, tool_kind},
    matcher::{
        APPLY_PATCH, MAX_MATCHER_LEN, MatcherError, SHELL_TOOL, codex_tool_name, tool_aliases,
    },
    parse::{
        ALLOW_MANAGED_HOOKS_ONLY, FEATURES_HOOKS, FileShape, HookEntry, MAX_DOCUMENT_BYTES,
        NATIVE_TRUST_HASH, NATIVE_TRUST_KEY, SETTINGS_HOOK_STATE, hook_entries, parse,
        parse_plugin_hooks,
    },
    plugins::{
        CONFIG as PLUGINS_CONFIG, MANIFEST as PLUGIN_MANIFEST_STEP, PLUGIN_HOOKS, PLUGIN_MANIFEST,
        PLUGIN_ROOT_VARS, follow,
    },
    trust::{
        CodexTrust, HandlerIdentity, HookState, SourceReview, StateError, codex_trust, hook_hash,
        hook_key, hook_states, key_and_hash, record_trusted, review_of, review_skipping,
        states_from_settings,
    },
};
