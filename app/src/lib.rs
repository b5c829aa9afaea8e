//! The runtime an agent product embeds (`HookRuntime`) and the pieces of the `hooks` tool.
//!
//! This crate composes every layer: adapters, registry, trust, sources, watcher, guard and
//! dispatch. It is the only crate with a command-line parser and `anyhow`.

pub mod check;
pub mod cli;
pub mod commands;
pub mod runtime;
pub mod transcript;
