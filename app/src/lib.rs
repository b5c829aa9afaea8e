//! The runtime an agent product embeds: [`runtime::HookRuntime`] and its cheap, cloneable
//! [`runtime::FireHandle`], the JSON-lines [`serve`] protocol for agents in any language,
//! the one place the workspace's formats are registered ([`formats`]), and the hook files
//! the user trusts, read and pinned as the runtime loads them ([`trust`]).
//!
//! This crate composes every layer (adapters, registry, trust, sources, watcher, guard and
//! dispatch) and knows nothing of a command line: the `hooks` tool is the `hooks-cli`
//! package, built on this library.

pub mod audit;
pub mod bridge;
pub mod formats;
pub mod install;
pub mod otel;
pub mod runtime;
pub mod serve;
pub mod trust;
