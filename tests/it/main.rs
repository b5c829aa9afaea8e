//! The one integration-test binary: cross-crate scenarios with real files and processes.
//!
//! Each module is one area; shared fixtures live in `support`.

mod audit;
mod bridge;
mod claude_e2e;
mod claude_policy;
mod claude_protocol;
mod cli;
mod codex_e2e;
mod concurrency;
mod copilot_e2e;
mod cursor_e2e;
mod format_scopes;
mod gemini_e2e;
mod guard;
mod hostile_hooks;
mod hostile_repos;
mod http_hooks;
mod install;
mod managed_reload;
mod native_payloads;
mod observe;
mod plugin_format;
mod runtime;
mod serve;
mod strict;
mod support;
mod trust_store;
mod watcher_roots;
mod windsurf_e2e;
