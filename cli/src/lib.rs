//! The `hooks` command-line tool, built on the runtime of `hooks-app`: argument parsing
//! (clap), one module per command, `hooks check` and `hooks replay`'s transcript reader.
//!
//! It is the only package besides `xtask` that uses `anyhow` and clap; the runtime library
//! returns typed errors and hands its messages to its caller.

pub mod check;
pub mod cli;
pub mod commands;
pub mod logging;
pub mod setup;
pub mod transcript;

/// The `hooks` tool's entry point: parses `args` (the first is the program name), runs the
/// command, and returns the process exit code (usage errors exit 2, as clap does).
pub fn main_entry(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    use clap::Parser;
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let env = hooks_sources::EnvVars::from_process();
    let exporter = match otel::start(cli.otlp_endpoint.as_deref(), &env) {
        Ok(exporter) => exporter,
        Err(e) => {
            eprintln!("error: {e:#}");
            return 2;
        }
    };
    let layer = otel::layer(exporter.as_ref());
    if let Err(e) =
        logging::install(cli.log_level.as_deref(), env.rust_log.as_deref(), cli.log_format, layer)
    {
        eprintln!("error: {e:#}");
        return 2;
    }
    let code = match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            1
        }
    };
    otel::finish(exporter);
    code
}

/// The OpenTelemetry exporter of a `hooks` built with the `otel` feature
/// (`specs/observability.md`, "OpenTelemetry").
#[cfg(feature = "otel")]
mod otel {
    use hooks_app::otel::{OtelConfig, OtelExporter};

    /// Starts the exporter when an endpoint is configured (`--otlp-endpoint` or the
    /// `OTEL_EXPORTER_OTLP_*` variables). A configuration that does not work turns the
    /// export off with a warning: it never stops the hooks from running.
    pub fn start(
        flag: Option<&str>,
        env: &hooks_sources::EnvVars,
    ) -> anyhow::Result<Option<OtelExporter>> {
        let started = OtelConfig::resolve(flag, env)
            .and_then(|config| config.map(|c| OtelExporter::start(&c)).transpose());
        Ok(started.unwrap_or_else(|e| {
            eprintln!("warning: OpenTelemetry export is off: {e}");
            None
        }))
    }

    pub fn layer(exporter: Option<&OtelExporter>) -> Option<crate::logging::ExtraLayer> {
        exporter.map(OtelExporter::layer)
    }

    /// Sends what is still batched before the process ends (bounded by the export timeout).
    pub fn finish(exporter: Option<OtelExporter>) {
        if let Some(Err(e)) = exporter.map(OtelExporter::shutdown) {
            eprintln!("warning: {e}");
        }
    }
}

/// Without the `otel` feature: `--otlp-endpoint` is refused, and the `OTEL_EXPORTER_OTLP_*`
/// variables are ignored.
#[cfg(not(feature = "otel"))]
mod otel {
    /// Nothing to export.
    pub enum NoExporter {}

    pub fn start(
        flag: Option<&str>,
        _: &hooks_sources::EnvVars,
    ) -> anyhow::Result<Option<NoExporter>> {
        if flag.is_some() {
            anyhow::bail!(
                "--otlp-endpoint: this `hooks` was built without the `otel` feature (cargo build -p hooks-cli --features otel)"
            );
        }
        Ok(None)
    }

    pub fn layer(_: Option<&NoExporter>) -> Option<crate::logging::ExtraLayer> {
        None
    }

    pub fn finish(_: Option<NoExporter>) {}
}
