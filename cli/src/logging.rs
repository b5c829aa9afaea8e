//! The `hooks` tool's `tracing` subscriber: the engine's spans and events on stderr, human
//! readable or one JSON object per line, and, in a `hooks` built with the `otel` feature, to
//! an OpenTelemetry collector (`specs/observability.md`).

use std::ffi::OsStr;

use anyhow::{Context, Result};
use tracing_subscriber::{EnvFilter, Layer, Registry, filter::LevelFilter, prelude::*};

use crate::cli::LogFormat;

/// The filter when neither `--log-level` nor `RUST_LOG` gives one: errors only, so the
/// tool's own output is what a user sees unless they ask for more.
pub const DEFAULT_FILTER: &str = "error";

/// A layer added beside the stderr one (the OpenTelemetry exporter's), with its own filter.
pub type ExtraLayer = Box<dyn Layer<Registry> + Send + Sync + 'static>;

/// Installs the subscriber: `level` (`--log-level`), else `rust_log` (`RUST_LOG`), else
/// [`DEFAULT_FILTER`], as an `EnvFilter` directive (`info`, `hooks::dispatch=debug`) for the
/// stderr layer. Always on stderr, so `hooks serve`'s stdout carries the protocol only.
/// `extra` keeps its own filter. A second call (the tool run twice in one process, as tests
/// do) keeps the first subscriber.
pub fn install(
    level: Option<&str>,
    rust_log: Option<&OsStr>,
    format: LogFormat,
    extra: Option<ExtraLayer>,
) -> Result<()> {
    let spec = match (level, rust_log.and_then(OsStr::to_str)) {
        (Some(l), _) => l.to_owned(),
        (None, Some(env)) => env.to_owned(),
        (None, None) => DEFAULT_FILTER.to_owned(),
    };
    let stderr = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let stderr = match format {
        LogFormat::Human => stderr.with_ansi(false).boxed(),
        LogFormat::Json => stderr.json().flatten_event(true).with_current_span(true).boxed(),
    };
    // A bare level (the default `error` of every one-shot event) needs none of `EnvFilter`'s
    // directive parsing and per-callsite matching: a `LevelFilter` says the same.
    let bare_level =
        spec.parse::<LevelFilter>().ok().filter(|_| spec.bytes().all(|b| b.is_ascii_alphabetic()));
    let stderr = match bare_level {
        Some(level) => stderr.with_filter(level).boxed(),
        None => stderr
            .with_filter(
                EnvFilter::try_new(&spec)
                    .with_context(|| format!("invalid log filter `{spec}`"))?,
            )
            .boxed(),
    };
    let _already_installed = tracing_subscriber::registry().with(extra).with(stderr).try_init();
    Ok(())
}
