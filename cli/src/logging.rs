//! The `hooks` tool's `tracing` subscriber: the engine's spans and events on stderr, human
//! readable or one JSON object per line (`specs/observability.md`).

use std::ffi::OsStr;

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

use crate::cli::LogFormat;

/// The filter when neither `--log-level` nor `RUST_LOG` gives one: errors only, so the
/// tool's own output is what a user sees unless they ask for more.
pub const DEFAULT_FILTER: &str = "error";

/// Installs the subscriber: `level` (`--log-level`), else `rust_log` (`RUST_LOG`), else
/// [`DEFAULT_FILTER`], as an `EnvFilter` directive (`info`, `hooks::dispatch=debug`). Always
/// on stderr, so `hooks serve`'s stdout carries the protocol only. A second call (the tool
/// run twice in one process, as tests do) keeps the first subscriber.
pub fn install(level: Option<&str>, rust_log: Option<&OsStr>, format: LogFormat) -> Result<()> {
    let spec = match (level, rust_log.and_then(OsStr::to_str)) {
        (Some(l), _) => l.to_owned(),
        (None, Some(env)) => env.to_owned(),
        (None, None) => DEFAULT_FILTER.to_owned(),
    };
    let filter =
        EnvFilter::try_new(&spec).with_context(|| format!("invalid log filter `{spec}`"))?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _already_installed = match format {
        LogFormat::Human => builder.with_ansi(false).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
    Ok(())
}
