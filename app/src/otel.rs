//! OpenTelemetry export: where the engine's spans and decision records go (resolved from
//! `--otlp-endpoint` and the `OTEL_EXPORTER_OTLP_*` variables), and, with the `otel` cargo
//! feature, the exporter that sends them to a collector over OTLP/HTTP in protobuf
//! (`specs/observability.md`, "OpenTelemetry").
//!
//! Spans (`hooks.fire`, `hooks.run`) become OTLP spans with their fields as attributes and
//! the events inside them as span events; every event of the engine's targets (`hooks::…`),
//! the `decision record` of each fire and guard decision included, also becomes an OTLP log
//! record. Only INFO and above of the engine's own targets are exported: never the HTTP
//! client's or the SDK's own events (which would feed back into the exporter).

use std::{collections::BTreeMap, ffi::OsStr, time::Duration};

use hooks_sources::EnvVars;

/// The `service.name` reported when `OTEL_SERVICE_NAME` is not set.
pub const DEFAULT_SERVICE_NAME: &str = "agent-hooks";

/// How long one export may take, and how long the exporter's shutdown waits for the last.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where and how to export; [`OtelConfig::resolve`] builds it from the flag and the
/// environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtelConfig {
    /// The full URL spans are posted to (`…/v1/traces`); `None`: spans are not exported.
    pub traces_endpoint: Option<String>,
    /// The full URL log records (decision records, events) are posted to (`…/v1/logs`);
    /// `None`: they are not exported.
    pub logs_endpoint: Option<String>,
    /// Headers sent with every export (an authorization token, for instance).
    pub headers: BTreeMap<String, String>,
    /// The `service.name` resource attribute.
    pub service_name: String,
    /// The bound of one export, and of the flush at shutdown.
    pub timeout: Duration,
}

/// Why the exporter could not be configured or started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OtelError {
    /// A variable's value is not UTF-8.
    #[error("{variable} is not valid UTF-8")]
    NotUtf8 {
        /// The variable.
        variable: &'static str,
    },
    /// An endpoint is not an `http://` or `https://` URL.
    #[error("invalid OTLP endpoint `{endpoint}` ({from}): expected an http:// or https:// URL")]
    Endpoint {
        /// The value.
        endpoint: String,
        /// Where it came from (`--otlp-endpoint` or the variable).
        from: &'static str,
    },
    /// A header is not `key=value`. Only its position is named: its text may hold a token.
    #[error("invalid header number {position} in {variable}: expected key=value")]
    Header {
        /// The variable.
        variable: &'static str,
        /// The 1-based position of the header in the list.
        position: usize,
    },
    /// The TLS configuration of the HTTP client could not be built.
    #[error("cannot set up TLS for the OTLP exporter: {message}")]
    Tls {
        /// What went wrong.
        message: String,
    },
    /// The HTTP client or an exporter could not be built.
    #[error("cannot start the OTLP exporter: {message}")]
    Start {
        /// What went wrong.
        message: String,
    },
    /// The last batch could not be delivered at shutdown.
    #[error("the OTLP exporter did not flush cleanly: {message}")]
    Shutdown {
        /// What went wrong.
        message: String,
    },
}

/// Where `--otlp-endpoint` values come from, in errors.
const FLAG: &str = "--otlp-endpoint";

impl OtelConfig {
    /// Both signals under one base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` is read:
    /// `<url>/v1/traces` and `<url>/v1/logs`.
    ///
    /// ```
    /// let c = hooks_app::otel::OtelConfig::from_base_url("http://127.0.0.1:4318/").unwrap();
    /// assert_eq!(c.traces_endpoint.as_deref(), Some("http://127.0.0.1:4318/v1/traces"));
    /// assert_eq!(c.logs_endpoint.as_deref(), Some("http://127.0.0.1:4318/v1/logs"));
    /// ```
    pub fn from_base_url(url: &str) -> Result<OtelConfig, OtelError> {
        let base = checked(url, FLAG)?;
        Ok(OtelConfig {
            traces_endpoint: Some(signal_url(base, "traces")),
            logs_endpoint: Some(signal_url(base, "logs")),
            headers: BTreeMap::new(),
            service_name: DEFAULT_SERVICE_NAME.to_owned(),
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// What to export: `flag` (`--otlp-endpoint`, a base URL) wins; else each signal's own
    /// variable (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `…_LOGS_ENDPOINT`, used as they are),
    /// else the base variable (`OTEL_EXPORTER_OTLP_ENDPOINT`). `None` when no endpoint is set
    /// at all: nothing is exported (there is no implicit `localhost:4318`). Headers come from
    /// `OTEL_EXPORTER_OTLP_HEADERS`, the service name from `OTEL_SERVICE_NAME`.
    pub fn resolve(flag: Option<&str>, env: &EnvVars) -> Result<Option<OtelConfig>, OtelError> {
        let base = text(&env.otel_endpoint, EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT)?;
        let traces = text(&env.otel_traces_endpoint, EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)?;
        let logs = text(&env.otel_logs_endpoint, EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT)?;
        let mut config = match flag {
            Some(url) => OtelConfig::from_base_url(url)?,
            None => {
                let base =
                    base.map(|b| checked(b, EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT)).transpose()?;
                let signal = |own: Option<&str>, var: &'static str, name: &str| match own {
                    Some(url) => checked(url, var).map(|u| Some(u.to_owned())),
                    None => Ok(base.map(|b| signal_url(b, name))),
                };
                let traces_endpoint =
                    signal(traces, EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "traces")?;
                let logs_endpoint =
                    signal(logs, EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, "logs")?;
                if traces_endpoint.is_none() && logs_endpoint.is_none() {
                    return Ok(None);
                }
                OtelConfig {
                    traces_endpoint,
                    logs_endpoint,
                    headers: BTreeMap::new(),
                    service_name: DEFAULT_SERVICE_NAME.to_owned(),
                    timeout: DEFAULT_TIMEOUT,
                }
            }
        };
        if let Some(headers) = text(&env.otel_headers, EnvVars::OTEL_EXPORTER_OTLP_HEADERS)? {
            config.headers = parse_headers(headers)?;
        }
        if let Some(name) = text(&env.otel_service_name, EnvVars::OTEL_SERVICE_NAME)? {
            config.service_name = name.to_owned();
        }
        Ok(Some(config))
    }
}

/// A variable's value as text, when set.
fn text<'a>(
    value: &'a Option<std::ffi::OsString>,
    variable: &'static str,
) -> Result<Option<&'a str>, OtelError> {
    value.as_deref().map(|v| OsStr::to_str(v).ok_or(OtelError::NotUtf8 { variable })).transpose()
}

/// `url` when it is an `http://` or `https://` URL with a host.
fn checked<'a>(url: &'a str, from: &'static str) -> Result<&'a str, OtelError> {
    let url = url.trim();
    let rest = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(r) if !r.is_empty() && !r.starts_with('/') && !url.contains(char::is_whitespace) => {
            Ok(url)
        }
        _ => Err(OtelError::Endpoint { endpoint: url.to_owned(), from }),
    }
}

/// `<base>/v1/<signal>`.
fn signal_url(base: &str, signal: &str) -> String {
    format!("{}/v1/{signal}", base.trim_end_matches('/'))
}

/// `key=value` pairs separated by commas, values percent-decoded (the OTLP exporter
/// convention).
fn parse_headers(text: &str) -> Result<BTreeMap<String, String>, OtelError> {
    let mut headers = BTreeMap::new();
    for (i, pair) in text.split(',').enumerate().filter(|(_, p)| !p.trim().is_empty()) {
        let error =
            || OtelError::Header { variable: EnvVars::OTEL_EXPORTER_OTLP_HEADERS, position: i + 1 };
        let (key, value) = pair.split_once('=').ok_or_else(error)?;
        let key = key.trim();
        if key.is_empty() {
            return Err(error());
        }
        let value = percent_encoding::percent_decode_str(value.trim())
            .decode_utf8()
            .map_err(|_| error())?;
        headers.insert(key.to_owned(), value.into_owned());
    }
    Ok(headers)
}

#[cfg(feature = "otel")]
pub use exporter::OtelExporter;

#[cfg(feature = "otel")]
mod exporter;

#[cfg(test)]
mod tests;
