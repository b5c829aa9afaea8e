//! Reads GitHub Copilot CLI hook files and speaks Copilot's hook protocol, as a hook runner and as its host (sans-IO).
//!
//! - [`parse`] turns a Copilot hook document (a repository's `.github/hooks/*.json`, the
//!   user's `~/.copilot/hooks/*.json`, a machine policy file, or the inline `hooks` of a
//!   Copilot settings file) into canonical [`HookDefinition`](hooks_schema::HookDefinition)s,
//!   located diagnostics and the policy `disableAllHooks` / `allowManagedHooksOnly` set, with
//!   the acceptance rules observed with Copilot CLI 1.0.102.
//! - Events come in two dialects chosen by their spelling ([`Dialect`]): camelCase
//!   (`preToolUse`, Copilot's own payload) and PascalCase (`PreToolUse`, Claude Code style).
//!   Matchers are anchored regular expressions on camelCase events and follow Claude Code's
//!   rules on PascalCase ones.
//! - [`CopilotCodec`] encodes an envelope into Copilot's stdin payload and decodes exit code
//!   and stdout as Copilot does (exit 2 and errors deny on `preToolUse`, timeouts fail open).
//! - [`CopilotHost`] is the host codec (`hooks bridge --host copilot`).
//! - [`descriptor`] registers the format with the engine.
//!
//! The design and every deliberate difference from Copilot CLI are in
//! `specs/formats/copilot.md`.
#![warn(missing_docs)]

mod codec;
mod descriptor;
mod events;
mod host;
mod matcher;
mod parse;
mod plugins;
mod time;

pub use crate::{
    codec::{
        CopilotCodec, EXIT_2_REASON, HOOK_DIR_VAR, NO_REASON, PROJECT_DIR_VARS, decode_outcome,
        payload,
    },
    descriptor::{
        COPILOT_HOME_VAR, CopilotFormat, FORMAT, HOOKS_FILE, LOCAL_SETTINGS_FILE, MANAGED_HOOKS,
        PROJECT_HOOKS, PROJECT_HOOKS_DIR, PROJECT_LOCAL_SETTINGS, PROJECT_SETTINGS, SETTINGS_FILE,
        USER_HOOKS, USER_SETTINGS, descriptor,
    },
    events::{CopilotEvent, DEFAULT_TIMEOUT, Dialect, MatchField},
    host::CopilotHost,
    matcher::{MAX_MATCHER_LEN, TOOL_NAMES, claude_tool_name, copilot_tool_name, tool_kind},
    parse::{
        ALLOW_MANAGED_HOOKS_ONLY, DISABLE_ALL_HOOKS, DocumentKind, MAX_DOCUMENT_BYTES,
        MAX_TIMEOUT_SECS, NATIVE_HOOK_DIR, PLUGIN_ROOT_VARS, SHELL, parse, parse_as,
        parse_plugin_hooks,
    },
    plugins::{CONFIG, LAYOUT, MARKETPLACE, PLUGIN, SETTINGS, follow},
};
