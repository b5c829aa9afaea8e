//! The OTLP/HTTP exporter (the `otel` feature): the OpenTelemetry SDK's batch processors
//! over `opentelemetry-otlp`'s protobuf encoding, posting with the workspace's HTTP client
//! (reqwest's blocking client on rustls with the ring provider and the platform verifier, as
//! the HTTP hooks use).

use std::sync::Arc;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_appender_tracing::layer::OpenTelemetryTracingBridge;
use opentelemetry_otlp::{LogExporter, Protocol, SpanExporter, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::{Resource, logs::SdkLoggerProvider, trace::SdkTracerProvider};
use tracing::Subscriber;
use tracing_subscriber::{Layer, filter::Targets, registry::LookupSpan};

use super::{OtelConfig, OtelError};

/// The instrumentation scope of the engine's spans.
const SCOPE: &str = "agent-hooks";

/// A running exporter: hand [`OtelExporter::layer`] to the subscriber, and call
/// [`OtelExporter::shutdown`] (or drop it) before the process ends, so the last batch is sent.
///
/// ```no_run
/// use tracing_subscriber::prelude::*;
///
/// let config = hooks_app::otel::OtelConfig::from_base_url("http://127.0.0.1:4318")?;
/// let exporter = hooks_app::otel::OtelExporter::start(&config)?;
/// tracing_subscriber::registry().with(exporter.layer()).init();
/// // … fire events …
/// exporter.shutdown()?;
/// # Ok::<(), hooks_app::otel::OtelError>(())
/// ```
pub struct OtelExporter {
    traces: Option<SdkTracerProvider>,
    logs: Option<SdkLoggerProvider>,
    done: bool,
}

impl std::fmt::Debug for OtelExporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtelExporter")
            .field("traces", &self.traces.is_some())
            .field("logs", &self.logs.is_some())
            .finish()
    }
}

impl OtelExporter {
    /// Starts the batch processors (one background thread per signal) for the endpoints
    /// `config` names. Nothing is sent until spans end or events happen.
    pub fn start(config: &OtelConfig) -> Result<OtelExporter, OtelError> {
        let client: Arc<dyn opentelemetry_http::HttpClient> = Arc::new(http_client(config)?);
        let resource =
            Resource::builder_empty().with_service_name(config.service_name.clone()).build();
        let headers: std::collections::HashMap<String, String> =
            config.headers.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let start =
            |e: opentelemetry_otlp::ExporterBuildError| OtelError::Start { message: e.to_string() };
        let traces = match &config.traces_endpoint {
            Some(url) => {
                let exporter = SpanExporter::builder()
                    .with_http()
                    .with_protocol(Protocol::HttpBinary)
                    .with_endpoint(url.clone())
                    .with_timeout(config.timeout)
                    .with_headers(headers.clone())
                    .with_shared_http_client(Arc::clone(&client))
                    .build()
                    .map_err(start)?;
                Some(
                    SdkTracerProvider::builder()
                        .with_batch_exporter(exporter)
                        .with_resource(resource.clone())
                        .build(),
                )
            }
            None => None,
        };
        let logs = match &config.logs_endpoint {
            Some(url) => {
                let exporter = LogExporter::builder()
                    .with_http()
                    .with_protocol(Protocol::HttpBinary)
                    .with_endpoint(url.clone())
                    .with_timeout(config.timeout)
                    .with_headers(headers)
                    .with_shared_http_client(client)
                    .build()
                    .map_err(start)?;
                Some(
                    SdkLoggerProvider::builder()
                        .with_batch_exporter(exporter)
                        .with_resource(resource)
                        .build(),
                )
            }
            None => None,
        };
        Ok(OtelExporter { traces, logs, done: false })
    }

    /// The `tracing` layer: spans to OTLP traces, events to OTLP logs, each filtered to the
    /// engine's own targets (`hooks::…`) at INFO and above.
    pub fn layer<S>(&self) -> Box<dyn Layer<S> + Send + Sync + 'static>
    where
        S: Subscriber + for<'a> LookupSpan<'a> + Send + Sync,
    {
        let traces = self.traces.as_ref().map(|p| {
            tracing_opentelemetry::layer().with_tracer(p.tracer(SCOPE)).with_filter(engine_only())
        });
        let logs = self
            .logs
            .as_ref()
            .map(|p| OpenTelemetryTracingBridge::new(p).with_filter(engine_only()));
        Box::new(Layer::and_then(traces, logs))
    }

    /// Sends what is still batched and stops the processors; bounded by the configured
    /// timeout per signal.
    pub fn shutdown(mut self) -> Result<(), OtelError> {
        self.stop()
    }

    fn stop(&mut self) -> Result<(), OtelError> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(());
        }
        let traces = self.traces.as_ref().map(SdkTracerProvider::shutdown);
        let logs = self.logs.as_ref().map(SdkLoggerProvider::shutdown);
        for result in [traces, logs].into_iter().flatten() {
            result.map_err(|e| OtelError::Shutdown { message: e.to_string() })?;
        }
        Ok(())
    }
}

impl Drop for OtelExporter {
    fn drop(&mut self) {
        if let Err(e) = self.stop() {
            tracing::warn!(target: "hooks::otel", error = %e, "the OTLP exporter did not flush");
        }
    }
}

/// The engine's targets at INFO and above: never the HTTP client's or the SDK's own events.
fn engine_only() -> Targets {
    Targets::new().with_target("hooks", tracing::Level::INFO)
}

/// The workspace's HTTP client, blocking (the batch processors post from their own threads):
/// rustls with the ring provider and the platform's certificate verifier, never a
/// process-wide crypto provider. Built on a thread of its own, as reqwest's blocking client
/// must not be built inside an async runtime.
fn http_client(config: &OtelConfig) -> Result<reqwest::blocking::Client, OtelError> {
    use rustls_platform_verifier::BuilderVerifierExt as _;
    let tls_error = |e: rustls::Error| OtelError::Tls { message: e.to_string() };
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(tls_error)?
    .with_platform_verifier()
    .map_err(tls_error)?
    .with_no_client_auth();
    let timeout = config.timeout;
    std::thread::scope(|s| {
        s.spawn(move || {
            reqwest::blocking::Client::builder()
                .tls_backend_preconfigured(tls)
                .timeout(timeout)
                .build()
        })
        .join()
    })
    .map_err(|_| OtelError::Start { message: "building the HTTP client panicked".to_owned() })?
    .map_err(|e| OtelError::Start { message: e.to_string() })
}
