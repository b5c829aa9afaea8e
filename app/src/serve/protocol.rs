//! The wire protocol's messages: parsing requests (with errors that name the problem) and
//! building responses, errors and notifications. Pure functions, no IO.

use std::{path::PathBuf, time::Duration};

use hooks_schema::{Decision, Envelope, HookEvent};
use hooks_trust::CommandExecutionPosture;
use hooks_watcher::RootOrigin;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// The protocol version this server speaks (see `specs/serve-protocol.md`).
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest grace a client may ask `shutdown` for.
pub const MAX_GRACE: Duration = Duration::from_secs(600);

/// The most paths one `can_write_files` request may name.
pub const MAX_PATHS: usize = 10_000;

/// Every method, in the order the spec documents them.
pub const METHODS: [&str; 12] = [
    "hello",
    "add_root",
    "remove_root",
    "set_posture",
    "close_window",
    "load_explicit_sources",
    "exchange_appended",
    "fire",
    "can_write_files",
    "snapshot",
    "shutdown",
    "ping",
];

/// The machine-readable class of an error response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The line is not JSON.
    ParseError,
    /// The line is longer than the cap.
    LineTooLong,
    /// The JSON is not a request object (no id, no method, a field of the wrong type).
    InvalidRequest,
    /// The method is not one the server knows.
    UnknownMethod,
    /// The params do not fit the method.
    InvalidParams,
    /// The client asked for a protocol version the server does not speak.
    UnsupportedVersion,
    /// The runtime refused the request (a root that does not exist, a pin that failed).
    RuntimeError,
    /// The server shut down before the request finished.
    ShuttingDown,
}

impl ErrorCode {
    /// The snake_case name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ParseError => "parse_error",
            ErrorCode::LineTooLong => "line_too_long",
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::UnknownMethod => "unknown_method",
            ErrorCode::InvalidParams => "invalid_params",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::RuntimeError => "runtime_error",
            ErrorCode::ShuttingDown => "shutting_down",
        }
    }
}

/// An error answer: its code, its message, and the request's id when it could be read.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolError {
    /// The request's id, when it could be read.
    pub id: Option<Value>,
    /// The class.
    pub code: ErrorCode,
    /// What is wrong, lowercase.
    pub message: String,
}

impl ProtocolError {
    /// An error for request `id`.
    pub fn new(id: Option<Value>, code: ErrorCode, message: impl Into<String>) -> ProtocolError {
        ProtocolError { id, code, message: message.into() }
    }

    /// The error response.
    pub fn to_message(&self) -> Value {
        error_message(self.id.clone(), self.code, &self.message)
    }
}

/// A parsed request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Version handshake.
    Hello {
        /// The version the client speaks.
        protocol_version: u32,
    },
    /// Liveness check.
    Ping,
    /// A repository was detected.
    AddRoot {
        /// Its root folder.
        root: PathBuf,
        /// How it was found.
        origin: RootOrigin,
    },
    /// A repository is no longer of interest.
    RemoveRoot {
        /// Its root folder.
        root: PathBuf,
    },
    /// A window opened or its posture changed.
    SetPosture {
        /// The window.
        window: u64,
        /// Its posture.
        posture: CommandExecutionPosture,
    },
    /// A window closed.
    CloseWindow {
        /// The window.
        window: u64,
    },
    /// Load the explicit sources of the configuration.
    LoadExplicitSources,
    /// The first appended exchange: pin and fire session start.
    ExchangeAppended {
        /// The session-start envelope (its event is forced to `session_start`).
        envelope: Box<Envelope>,
    },
    /// Fire an event.
    Fire {
        /// The envelope.
        envelope: Box<Envelope>,
        /// The host's own decision, to combine with the hooks' under the relax policy.
        host_decision: Option<Decision>,
    },
    /// Ask the guard.
    CanWriteFiles {
        /// The paths the agent wants to edit.
        paths: Vec<PathBuf>,
        /// The session's working directory.
        cwd: PathBuf,
    },
    /// The redacted inventory.
    Snapshot {
        /// Include commands, arguments and environment values.
        reveal: bool,
    },
    /// Drain and exit.
    Shutdown {
        /// How long to wait for running hooks; `None` for the server's default.
        grace: Option<Duration>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelloParams {
    protocol_version: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum OriginParam {
    #[default]
    TerminalNavigation,
    CloudPrepared,
    ProjectRulesIndexing,
    CodeReview,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddRootParams {
    root: PathBuf,
    #[serde(default)]
    origin: OriginParam,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RootParams {
    root: PathBuf,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum PostureParam {
    AutoApproves,
    RequiresApproval,
    Unknown,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostureParams {
    window: u64,
    posture: PostureParam,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WindowParams {
    window: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangeParams {
    #[serde(default)]
    envelope: Option<Box<Envelope>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FireParams {
    envelope: Box<Envelope>,
    #[serde(default)]
    host_decision: Option<Decision>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuardParams {
    paths: Vec<PathBuf>,
    cwd: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotParams {
    #[serde(default)]
    reveal: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShutdownParams {
    #[serde(default)]
    grace_ms: Option<u64>,
}

/// Parses one line into the request's id and the request, or an error naming the problem
/// (with the id when it could be read).
pub fn parse_request(line: &[u8]) -> Result<(Value, Request), ProtocolError> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        ProtocolError::new(None, ErrorCode::ParseError, format!("malformed JSON: {e}"))
    })?;
    let Value::Object(mut obj) = value else {
        return Err(ProtocolError::new(
            None,
            ErrorCode::InvalidRequest,
            "a request must be a JSON object",
        ));
    };
    let id = match obj.remove("id") {
        None => {
            return Err(ProtocolError::new(
                None,
                ErrorCode::InvalidRequest,
                "missing field `id` (a string or an integer)",
            ));
        }
        Some(id @ Value::String(_)) => id,
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Value::Number(n),
        Some(_) => {
            return Err(ProtocolError::new(
                None,
                ErrorCode::InvalidRequest,
                "field `id` must be a string or an integer",
            ));
        }
    };
    let fail = |code, msg: String| ProtocolError::new(Some(id.clone()), code, msg);
    let method = match obj.remove("method") {
        Some(Value::String(m)) => m,
        Some(_) => {
            return Err(fail(ErrorCode::InvalidRequest, "field `method` must be a string".into()));
        }
        None => return Err(fail(ErrorCode::InvalidRequest, "missing field `method`".into())),
    };
    let params = match obj.remove("params") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(p @ Value::Object(_)) => p,
        Some(_) => {
            return Err(fail(ErrorCode::InvalidRequest, "field `params` must be an object".into()));
        }
    };
    if let Some(key) = obj.keys().next() {
        return Err(fail(
            ErrorCode::InvalidRequest,
            format!("unknown field `{key}` (a request has `id`, `method` and `params`)"),
        ));
    }
    let request =
        parse_params(&method, params).map_err(|e| ProtocolError { id: Some(id.clone()), ..e })?;
    Ok((id, request))
}

fn params<T: for<'de> Deserialize<'de>>(method: &str, params: Value) -> Result<T, ProtocolError> {
    serde_json::from_value(params).map_err(|e| {
        ProtocolError::new(
            None,
            ErrorCode::InvalidParams,
            format!("invalid params for `{method}`: {e}"),
        )
    })
}

fn parse_params(method: &str, p: Value) -> Result<Request, ProtocolError> {
    Ok(match method {
        "hello" => {
            let h: HelloParams = params(method, p)?;
            Request::Hello { protocol_version: h.protocol_version }
        }
        "ping" => {
            let Empty {} = params(method, p)?;
            Request::Ping
        }
        "add_root" => {
            let a: AddRootParams = params(method, p)?;
            let origin = match a.origin {
                OriginParam::TerminalNavigation => RootOrigin::TerminalNavigation,
                OriginParam::CloudPrepared => RootOrigin::CloudPrepared,
                OriginParam::ProjectRulesIndexing => RootOrigin::ProjectRulesIndexing,
                OriginParam::CodeReview => RootOrigin::CodeReview,
            };
            Request::AddRoot { root: a.root, origin }
        }
        "remove_root" => {
            let r: RootParams = params(method, p)?;
            Request::RemoveRoot { root: r.root }
        }
        "set_posture" => {
            let s: PostureParams = params(method, p)?;
            let posture = match s.posture {
                PostureParam::AutoApproves => CommandExecutionPosture::AutoApproves,
                PostureParam::RequiresApproval => CommandExecutionPosture::RequiresApproval,
                PostureParam::Unknown => CommandExecutionPosture::Unknown,
            };
            Request::SetPosture { window: s.window, posture }
        }
        "close_window" => {
            let w: WindowParams = params(method, p)?;
            Request::CloseWindow { window: w.window }
        }
        "load_explicit_sources" => {
            let Empty {} = params(method, p)?;
            Request::LoadExplicitSources
        }
        "exchange_appended" => {
            let e: ExchangeParams = params(method, p)?;
            let envelope =
                e.envelope.unwrap_or_else(|| Box::new(Envelope::new(HookEvent::SessionStart)));
            Request::ExchangeAppended { envelope }
        }
        "fire" => {
            let f: FireParams = params(method, p)?;
            Request::Fire { envelope: f.envelope, host_decision: f.host_decision }
        }
        "can_write_files" => {
            let g: GuardParams = params(method, p)?;
            if g.paths.len() > MAX_PATHS {
                return Err(ProtocolError::new(
                    None,
                    ErrorCode::InvalidParams,
                    format!(
                        "invalid params for `can_write_files`: {} paths, above the limit of {MAX_PATHS}",
                        g.paths.len()
                    ),
                ));
            }
            Request::CanWriteFiles { paths: g.paths, cwd: g.cwd }
        }
        "snapshot" => {
            let s: SnapshotParams = params(method, p)?;
            Request::Snapshot { reveal: s.reveal }
        }
        "shutdown" => {
            let s: ShutdownParams = params(method, p)?;
            let grace = s.grace_ms.map(Duration::from_millis);
            if grace.is_some_and(|g| g > MAX_GRACE) {
                return Err(ProtocolError::new(
                    None,
                    ErrorCode::InvalidParams,
                    format!(
                        "invalid params for `shutdown`: `grace_ms` is above the limit of {}",
                        MAX_GRACE.as_millis()
                    ),
                ));
            }
            Request::Shutdown { grace }
        }
        other => {
            let shown: String = other.chars().take(100).collect();
            return Err(ProtocolError::new(
                None,
                ErrorCode::UnknownMethod,
                format!("unknown method `{shown}` (known: {})", METHODS.join(", ")),
            ));
        }
    })
}

/// A success response as it is serialized: `{id, result}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Response<T> {
    /// The request's id.
    pub id: Value,
    /// What the request produced.
    pub result: T,
}

/// A success response; `result` is any serializable rendering (a `Value`, a typed view).
pub fn response<T: Serialize>(id: Value, result: T) -> Response<T> {
    Response { id, result }
}

/// An error response; `id` is `null` when the request's id could not be read.
pub fn error_message(id: Option<Value>, code: ErrorCode, message: &str) -> Value {
    json!({ "id": id.unwrap_or(Value::Null), "error": { "code": code.as_str(), "message": message } })
}

/// A notification (no id).
pub fn notification(method: &str, params: Value) -> Value {
    json!({ "method": method, "params": params })
}

/// The `hello` notification the server sends first, and the `hello` response.
pub fn hello(max_line_bytes: usize) -> Value {
    json!({
        "protocol_version": PROTOCOL_VERSION,
        "server": "hooks",
        "server_version": env!("CARGO_PKG_VERSION"),
        "max_line_bytes": max_line_bytes,
        "methods": METHODS,
    })
}
