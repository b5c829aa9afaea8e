//! The wire protocol's messages: parsing requests (with errors that name the problem) and
//! building responses, errors and notifications. Pure functions, no IO.

use std::{fmt, path::PathBuf, time::Duration};

use hooks_schema::{Decision, Envelope, FormatSet, HookEvent};
use hooks_trust::CommandExecutionPosture;
use hooks_watcher::RootOrigin;
use serde::{
    Deserialize, Deserializer, Serialize,
    de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor},
};
use serde_json::{Value, json, value::RawValue};

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
    #[serde(default)]
    envelope: Option<Box<Envelope>>,
    /// The agent whose own hook input `input` is (`claude`): decoded by its host codec.
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    input: Option<Box<RawValue>>,
    /// The event, for agents whose input does not name it.
    #[serde(default)]
    event: Option<String>,
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

/// The top level of a request line, read in one pass with the field values kept as raw JSON
/// text: the params are then read straight into the method's typed params, with no `Value`
/// tree in between.
enum Top<'a> {
    Object(Fields<'a>),
    /// Valid JSON that is not an object.
    NotObject,
}

/// The request object's fields, raw. A key given twice keeps its last value, as reading the
/// object into a map would; the first unknown key is remembered for the error.
#[derive(Default)]
struct Fields<'a> {
    id: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
    unknown: Option<String>,
}

/// A key of the request object.
enum Key {
    Id,
    Method,
    Params,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(match v {
                    "id" => Key::Id,
                    "method" => Key::Method,
                    "params" => Key::Params,
                    other => Key::Other(other.to_owned()),
                })
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Top<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top<'de>, D::Error> {
        struct TopVisitor;
        impl<'de> Visitor<'de> for TopVisitor {
            type Value = Top<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
                let mut fields = Fields::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Id => fields.id = Some(map.next_value()?),
                        Key::Method => fields.method = Some(map.next_value()?),
                        Key::Params => fields.params = Some(map.next_value()?),
                        Key::Other(name) => {
                            map.next_value::<IgnoredAny>()?;
                            fields.unknown.get_or_insert(name);
                        }
                    }
                }
                Ok(Top::Object(fields))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Top::NotObject)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Top<'de>, E> {
                Ok(Top::NotObject)
            }
        }
        d.deserialize_any(TopVisitor)
    }
}

/// Reads the whole line as JSON (trailing characters are an error, as they were when the line
/// was read into a `Value`).
fn parse_top(line: &[u8]) -> Result<Top<'_>, String> {
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?;
    let mut de = serde_json::Deserializer::from_str(text);
    let top = Top::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(top)
}

/// Parses one line into the request's id and the request, or an error naming the problem
/// (with the id when it could be read).
///
/// The checks and their order are those of reading the line into a `Value` first: JSON syntax
/// (anywhere in the line), an object, `id`, `method`, `params`, unknown fields, then the
/// params. Differences, all in corners: values are checked for syntax but not built outside
/// the params, so nesting deeper than serde_json's recursion limit or a number out of range
/// inside an unknown field is no longer a parse error (the unknown field is reported), and
/// inside `params` it is an `invalid_params` error; a key given twice inside the params is an
/// `invalid_params` error (`duplicate field`) where the `Value` kept the last one. A key given
/// twice in the request object itself keeps its last value, as before.
pub fn parse_request(line: &[u8]) -> Result<(Value, Request), ProtocolError> {
    static FORMATS: std::sync::OnceLock<FormatSet> = std::sync::OnceLock::new();
    parse_request_with(line, FORMATS.get_or_init(crate::formats::workspace_formats))
}

/// [`parse_request`] with the formats whose host codecs decode a `fire` request's agent input
/// (`from`, `input`): the server's runtime's.
pub fn parse_request_with(
    line: &[u8],
    formats: &FormatSet,
) -> Result<(Value, Request), ProtocolError> {
    let top = parse_top(line).map_err(|e| {
        ProtocolError::new(None, ErrorCode::ParseError, format!("malformed JSON: {e}"))
    })?;
    let Top::Object(fields) = top else {
        return Err(ProtocolError::new(
            None,
            ErrorCode::InvalidRequest,
            "a request must be a JSON object",
        ));
    };
    let id = match fields.id.map(|raw| serde_json::from_str::<Value>(raw.get())) {
        None => {
            return Err(ProtocolError::new(
                None,
                ErrorCode::InvalidRequest,
                "missing field `id` (a string or an integer)",
            ));
        }
        Some(Ok(id @ Value::String(_))) => id,
        Some(Ok(Value::Number(n))) if n.is_i64() || n.is_u64() => Value::Number(n),
        Some(_) => {
            return Err(ProtocolError::new(
                None,
                ErrorCode::InvalidRequest,
                "field `id` must be a string or an integer",
            ));
        }
    };
    let fail = |code, msg: String| ProtocolError::new(Some(id.clone()), code, msg);
    let method = match fields.method.map(|raw| serde_json::from_str::<String>(raw.get())) {
        Some(Ok(m)) => m,
        Some(Err(_)) => {
            return Err(fail(ErrorCode::InvalidRequest, "field `method` must be a string".into()));
        }
        None => return Err(fail(ErrorCode::InvalidRequest, "missing field `method`".into())),
    };
    let params = match fields.params.map(RawValue::get) {
        None | Some("null") => "{}",
        Some(p) if p.starts_with('{') => p,
        Some(_) => {
            return Err(fail(ErrorCode::InvalidRequest, "field `params` must be an object".into()));
        }
    };
    if let Some(key) = fields.unknown {
        return Err(fail(
            ErrorCode::InvalidRequest,
            format!("unknown field `{key}` (a request has `id`, `method` and `params`)"),
        ));
    }
    let request = parse_params(&method, params, formats)
        .map_err(|e| ProtocolError { id: Some(id.clone()), ..e })?;
    Ok((id, request))
}

/// Reads `text` (a JSON object) into the params of `method`. The message leaves out serde's
/// position: it would count from the start of the params, not of the line.
fn params<'a, T: Deserialize<'a>>(method: &str, text: &'a str) -> Result<T, ProtocolError> {
    serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let shown = full.strip_suffix(&suffix).unwrap_or(&full);
        ProtocolError::new(
            None,
            ErrorCode::InvalidParams,
            format!("invalid params for `{method}`: {shown}"),
        )
    })
}

fn parse_params(method: &str, p: &str, formats: &FormatSet) -> Result<Request, ProtocolError> {
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
            let invalid = |msg: String| {
                ProtocolError::new(
                    None,
                    ErrorCode::InvalidParams,
                    format!("invalid params for `fire`: {msg}"),
                )
            };
            let envelope = match (f.envelope, f.from, f.input) {
                (Some(envelope), None, None) if f.event.is_none() => envelope,
                (None, Some(from), Some(input)) => {
                    let decoded = crate::bridge::decode_native(
                        formats,
                        &from,
                        input.get().as_bytes(),
                        f.event.as_deref(),
                    )
                    .map_err(|e| invalid(format!("`input` is not {from}'s hook input: {e}")))?;
                    Box::new(decoded.envelope)
                }
                (None, None, None) => return Err(invalid("missing field `envelope`".to_owned())),
                _ => {
                    return Err(invalid(
                        "give either `envelope`, or `from` and `input` (and `event` where the agent's input names none)"
                            .to_owned(),
                    ));
                }
            };
            Request::Fire { envelope, host_decision: f.host_decision }
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

/// The `hello` notification the server sends first, and the `hello` response; `containment`
/// is [`super::render::containment`]'s report of how hook processes are contained.
pub fn hello(max_line_bytes: usize, containment: Value) -> Value {
    json!({
        "protocol_version": PROTOCOL_VERSION,
        "server": "hooks",
        "server_version": env!("CARGO_PKG_VERSION"),
        "max_line_bytes": max_line_bytes,
        "methods": METHODS,
        "containment": containment,
    })
}
