//! HTTP hooks: POSTs an invocation's payload to the hook's URL and reads the answer.
//!
//! One shared client (reqwest on rustls with the ring provider and the platform's certificate
//! verifier; no OpenSSL): redirects are not followed (Claude Code sends with `maxRedirects: 0`,
//! so a 3xx is an answer like any non-2xx), the proxy variables of the environment apply as
//! they do for Claude Code, and the whole exchange — connect, send, response head and body — is
//! bounded by the invocation's timeout. The body is kept up to `stdout_cap` bytes; reading stops
//! there (marked truncated), so an endless body cannot hold a run past its cap either. Nothing
//! of the URL, the headers or the body reaches an error message or a tracing field.

use std::{
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use hooks_schema::{
    CapturedOutput, ExitInfo, HttpHook, Invocation, RawOutcome, SpawnFailure, SpawnFailureKind,
};
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

use crate::DispatchConfig;

/// The shared client, or why it could not be built (the platform verifier found no usable
/// certificate store, say): every HTTP hook then fails to start with that message.
fn client() -> Result<&'static reqwest::Client, &'static HttpSetupError> {
    static CLIENT: OnceLock<Result<reqwest::Client, HttpSetupError>> = OnceLock::new();
    CLIENT.get_or_init(build_client).as_ref()
}

/// Why an HTTP hook could not be sent (the run then fails to start with this text). Nothing of
/// the URL or of a header's value is in it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HttpSetupError {
    /// rustls refused the protocol versions (a build without a usable cipher suite).
    #[error("cannot set up TLS: {0}")]
    Tls(#[source] rustls::Error),
    /// The platform's certificate verifier could not be set up.
    #[error("cannot read the platform's certificate store: {0}")]
    CertificateStore(#[source] rustls::Error),
    /// reqwest could not build the client; the text carries its causes (URL stripped).
    #[error("cannot build the HTTP client: {}", chain(.0))]
    Client(#[source] reqwest::Error),
    /// A header name of the hook is not one HTTP can carry.
    #[error("header name `{0}` is not a valid HTTP header name")]
    HeaderName(String),
    /// A header value (after interpolation) is not one HTTP can carry; the value is not kept.
    #[error("the value of header `{0}` is not a valid HTTP header value")]
    HeaderValue(HeaderName),
}

fn build_client() -> Result<reqwest::Client, HttpSetupError> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(HttpSetupError::Tls)?
        .with_platform_verifier()
        .map_err(HttpSetupError::CertificateStore)?
        .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("agent-hooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(HttpSetupError::Client)
}

/// An error and its sources, joined: reqwest's own text alone says little ("error sending
/// request"); the cause ("Connection refused") is in the chain. The URL is stripped first.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(s) = next {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = s.source();
    }
    out
}

fn failed(kind: SpawnFailureKind, message: String, timed_out: bool, t0: Instant) -> RawOutcome {
    RawOutcome {
        exit: ExitInfo::NotStarted(SpawnFailure { kind, message }),
        timed_out,
        stdout: CapturedOutput::default(),
        stderr: CapturedOutput::default(),
        result_file: None,
        duration: t0.elapsed(),
    }
}

/// The request's headers: `Content-Type: application/json`, then the hook's own (which may
/// replace it), interpolated from the invocation's `env` first and the engine's environment
/// second. A name or value HTTP cannot carry fails the run; the error names the header, never
/// its value.
fn headers(inv: &Invocation, hook: &HttpHook) -> Result<HeaderMap, HttpSetupError> {
    // The variables a header names are the user's choice, not engine settings, so they are
    // not in hooks-sources' `EnvVars` table: like the environment a spawned hook inherits,
    // they are read from the process at send time, and only names the hook allows.
    #[allow(clippy::disallowed_methods)]
    let from_process = |name: &str| std::env::var(name).ok();
    let lookup = |name: &str| {
        inv.env
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| from_process(name))
    };
    let mut map = HeaderMap::new();
    map.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    for (name, value) in hook.header_values(lookup) {
        let n = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| HttpSetupError::HeaderName(name.trim().to_owned()))?;
        let Ok(v) = HeaderValue::from_str(&value) else {
            return Err(HttpSetupError::HeaderValue(n));
        };
        map.insert(n, v);
    }
    Ok(map)
}

/// Sends one HTTP hook and reads its answer (see the module docs). Never fails: what went
/// wrong comes back in the outcome.
pub(crate) async fn post(inv: &Invocation, hook: &HttpHook, cfg: &DispatchConfig) -> RawOutcome {
    let t0 = Instant::now();
    let client = match client() {
        Ok(c) => c,
        Err(e) => return failed(SpawnFailureKind::Other, e.to_string(), false, t0),
    };
    let headers = match headers(inv, hook) {
        Ok(h) => h,
        Err(e) => return failed(SpawnFailureKind::Other, e.to_string(), false, t0),
    };
    let exchange = async {
        let response =
            client.post(&hook.url).headers(headers).body(inv.stdin.clone()).send().await?;
        let status = response.status().as_u16();
        let body = read_capped(response, cfg.stdout_cap).await?;
        Ok::<_, reqwest::Error>((status, body))
    };
    match tokio::time::timeout(inv.timeout, exchange).await {
        Err(_) => failed(
            SpawnFailureKind::Unreachable,
            format!("no response within {}", seconds(inv.timeout)),
            true,
            t0,
        ),
        Ok(Err(e)) => {
            let kind = if e.is_builder() {
                SpawnFailureKind::Other
            } else {
                SpawnFailureKind::Unreachable
            };
            failed(kind, chain(&e.without_url()), false, t0)
        }
        Ok(Ok((status, body))) => RawOutcome {
            exit: ExitInfo::Responded(status),
            timed_out: false,
            stdout: body,
            stderr: CapturedOutput::default(),
            result_file: None,
            duration: t0.elapsed(),
        },
    }
}

/// Reads a body up to `cap` bytes; past that, reading stops and the capture is marked
/// truncated (what the server sent beyond is not waited for).
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<CapturedOutput, reqwest::Error> {
    let mut bytes = Vec::new();
    let mut total: u64 = 0;
    while let Some(chunk) = response.chunk().await? {
        total = total.saturating_add(chunk.len() as u64);
        let room = cap.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if chunk.len() > room {
            return Ok(CapturedOutput { bytes, total_len: total, truncated: true });
        }
    }
    Ok(CapturedOutput { bytes, total_len: total, truncated: false })
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 { format!("{s:.0} s") } else { format!("{s} s") }
}

#[cfg(test)]
mod tests;
