//! Chrys 0.32.0's schema validation over Python-like values: fail fast, first error wins,
//! with Chrys's exact messages; the one exception (an enabled hook whose regex does not
//! compile) is handled by the caller.

use serde_json::{Map, Value};

use crate::pyval::{Node, PyInt, PyValue, float_repr, is_printable, sorted_keys_repr, str_repr};

/// Chrys's event names, sorted (the order of the "unknown event" message).
pub const NATIVE_EVENTS: [&str; 17] = [
    "after_tool_call",
    "after_turn",
    "approval_requested",
    "approval_resolved",
    "before_tool_call",
    "before_turn",
    "pre_compact",
    "session_end",
    "session_restored",
    "session_start",
    "sub_agent_end",
    "sub_agent_start",
    "tool_error",
    "user_interrupt",
    "user_prompt_submit",
    "workflow_run_end",
    "workflow_run_start",
];

/// Chrys's tool kinds (`foundation/tool_kinds.py`), for the legacy `chrys.` prefix rule.
pub const TOOL_KINDS: [&str; 14] = [
    "shell",
    "filesystem.read",
    "filesystem.write",
    "search",
    "web_search",
    "web_fetch",
    "ask_user",
    "sleep",
    "sub_agent",
    "mcp",
    "doc_converter",
    "skill",
    "context",
    "todo",
];

/// The longest id Chrys accepts, in characters.
const ID_MAX: usize = 512;

/// `run`, validated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunSpec {
    pub(crate) kind: RunKind,
    pub(crate) path: String,
    pub(crate) argv: Vec<String>,
    pub(crate) shell: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) cwd: String,
}

/// `run.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunKind {
    Script,
    Command,
    Shell,
}

/// `execution`, validated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExecSpec {
    pub(crate) mode: &'static str,
    pub(crate) detach: bool,
    pub(crate) delivery: &'static str,
    pub(crate) timeout_seconds: f64,
    pub(crate) on_error: &'static str,
}

/// One `match.args.<name>` test.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct ArgSpec {
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) equals: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) contains: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) regex: Option<String>,
}

/// `match`, validated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct MatchSpec {
    pub(crate) profile: Option<String>,
    pub(crate) profiles: Vec<String>,
    pub(crate) tool_kind: Option<String>,
    pub(crate) tool_name: Option<String>,
    pub(crate) args: Vec<ArgSpec>,
}

impl MatchSpec {
    /// Whether no clause is set (Chrys's "no match filters").
    pub(crate) fn is_empty(&self) -> bool {
        self.profile.is_none()
            && self.profiles.is_empty()
            && self.tool_kind.is_none()
            && self.tool_name.is_none()
            && self.args.is_empty()
    }
}

/// One hook entry, validated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HookSpec {
    pub(crate) id: String,
    pub(crate) event: &'static str,
    pub(crate) run: RunSpec,
    pub(crate) execution: ExecSpec,
    pub(crate) matcher: MatchSpec,
    pub(crate) enabled: bool,
    pub(crate) description: String,
    pub(crate) mark: Option<(u32, u32)>,
}

/// A load-time warning Chrys logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoadWarning {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) hook_id: Option<String>,
    pub(crate) mark: Option<(u32, u32)>,
}

/// The first error, with the entry it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoadError {
    pub(crate) message: String,
    pub(crate) entry: Option<usize>,
    pub(crate) mark: Option<(u32, u32)>,
}

/// A validated file.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FileSpec {
    /// The settings the file sets explicitly, validated, by Chrys's names.
    pub(crate) settings: Map<String, Value>,
    pub(crate) hooks: Vec<HookSpec>,
}

/// Why Chrys's loader refuses a value: its `ValueError` text, or the `OverflowError` of an
/// integer too large for a float, which Chrys reports without the entry's position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Invalid {
    /// The `ValueError` message.
    #[error("{0}")]
    Value(String),
    /// An integer too large to convert to a float.
    #[error("{INT_TOO_LARGE}")]
    IntTooLarge,
}

impl From<String> for Invalid {
    fn from(message: String) -> Invalid {
        Invalid::Value(message)
    }
}

type Res<T> = Result<T, Invalid>;

/// A value from the file quoted in a message as Chrys quotes it (`repr()`), shown only when
/// values are revealed; the message names its type (`got <str>`) otherwise.
fn quoted(v: &PyValue) -> String {
    hooks_schema::quoted_value(v.type_name(), &v.repr())
}

/// `parse_hooks_dict`: validates the loaded document. `warnings` receives what Chrys logs,
/// also when the file is then rejected.
pub(crate) fn validate(
    root: Option<&Node>,
    warnings: &mut Vec<LoadWarning>,
) -> Result<FileSpec, LoadError> {
    let Some(root) = root else { return Ok(FileSpec::default()) };
    let top = |message: String| LoadError { message, entry: None, mark: None };
    let PyValue::Dict(pairs) = &root.value else {
        return Err(top(format!(
            "Hooks config root must be a mapping, got {}",
            root.value.type_name()
        )));
    };
    let extra = unknown_keys(pairs, &["version", "settings", "hooks"]);
    if !extra.is_empty() {
        return Err(top(format!(
            "Unknown keys in hooks config root: {}",
            sorted_keys_repr(&extra)
        )));
    }
    if let Some(v) = root.value.get("version")
        && !v.value.py_eq(&PyValue::Int(PyInt::Small(1)))
    {
        return Err(top(format!(
            "Unsupported hooks config version: {} (this build supports version 1)",
            quoted(&v.value)
        )));
    }
    let settings = match root.value.get("settings") {
        None => Map::new(),
        Some(s) => parse_settings(s).map_err(|e| top(e.to_string()))?,
    };
    let empty = Node::new(PyValue::List(Vec::new()), None);
    let hooks_node = root.value.get("hooks").unwrap_or(&empty);
    let PyValue::List(items) = &hooks_node.value else {
        return Err(top(format!("'hooks' must be a list, got {}", hooks_node.value.type_name())));
    };
    let mut hooks = Vec::with_capacity(items.len());
    let mut seen: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let entry_err = |e: Invalid| LoadError {
            message: match e {
                Invalid::IntTooLarge => INT_TOO_LARGE.to_owned(),
                Invalid::Value(message) => format!("hooks[{i}]: {message}"),
            },
            entry: Some(i),
            mark: item.mark,
        };
        let hook = parse_hook(item, warnings).map_err(entry_err)?;
        if seen.contains(&hook.id) {
            return Err(entry_err(Invalid::Value(format!("duplicate id '{}'", hook.id))));
        }
        seen.push(hook.id.clone());
        hooks.push(hook);
    }
    Ok(FileSpec { settings, hooks })
}

/// The keys of `pairs` that are not one of `valid` (non-string keys never are).
fn unknown_keys<'a>(pairs: &'a [(Node, Node)], valid: &[&str]) -> Vec<&'a PyValue> {
    pairs
        .iter()
        .map(|(k, _)| &k.value)
        .filter(|k| k.as_str().is_none_or(|s| !valid.contains(&s)))
        .collect()
}

fn parse_settings(node: &Node) -> Res<Map<String, Value>> {
    let PyValue::Dict(pairs) = &node.value else {
        if node.value == PyValue::None {
            return Ok(Map::new());
        }
        return Err(Invalid::Value(format!(
            "'settings' must be a mapping, got {}",
            node.value.type_name()
        )));
    };
    let names = [
        "shutdown_grace_seconds",
        "max_parallel_hooks",
        "outbox_retry_age_seconds",
        "outbox_max_retries",
    ];
    let extra = unknown_keys(pairs, &names);
    if !extra.is_empty() {
        return Err(Invalid::Value(format!(
            "Unknown keys in 'settings': {}",
            sorted_keys_repr(&extra)
        )));
    }
    let get = |k: &str| node.value.get(k).map(|n| &n.value);
    let mut out = Map::new();
    let grace = float_field(get("shutdown_grace_seconds"), 5.0, "settings.shutdown_grace_seconds")?;
    if grace < 0.0 {
        return Err(Invalid::Value(format!(
            "settings.shutdown_grace_seconds must be >= 0, got {}",
            float_repr(grace)
        )));
    }
    let parallel = int_field(get("max_parallel_hooks"), 4, "settings.max_parallel_hooks")?;
    if parallel <= 0 {
        return Err(Invalid::Value(format!(
            "settings.max_parallel_hooks must be > 0, got {parallel}"
        )));
    }
    let age =
        float_field(get("outbox_retry_age_seconds"), 60.0, "settings.outbox_retry_age_seconds")?;
    if age < 0.0 {
        return Err(Invalid::Value(format!(
            "settings.outbox_retry_age_seconds must be >= 0, got {}",
            float_repr(age)
        )));
    }
    let retries = int_field(get("outbox_max_retries"), 3, "settings.outbox_max_retries")?;
    if retries < 0 {
        return Err(Invalid::Value(format!(
            "settings.outbox_max_retries must be >= 0, got {retries}"
        )));
    }
    // Only the explicitly set keys take part in the project/global merge.
    for (k, _) in pairs {
        match k.value.as_str() {
            Some("shutdown_grace_seconds") => out.insert(k_s(k), float_json(grace)),
            Some("max_parallel_hooks") => out.insert(k_s(k), int_json(parallel)),
            Some("outbox_retry_age_seconds") => out.insert(k_s(k), float_json(age)),
            Some("outbox_max_retries") => out.insert(k_s(k), int_json(retries)),
            _ => None,
        };
    }
    Ok(out)
}

fn k_s(k: &Node) -> String {
    k.value.as_str().unwrap_or_default().to_owned()
}

/// A float setting as JSON; NaN and infinities (which Chrys accepts) become strings.
fn float_json(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or_else(|| Value::String(float_repr(f)), Value::Number)
}

fn int_json(i: i128) -> Value {
    i64::try_from(i).map_or_else(|_| Value::String(i.to_string()), |v| Value::Number(v.into()))
}

/// `_float_field`: an int or a float, not a bool.
fn float_field(v: Option<&PyValue>, default: f64, path: &str) -> Res<f64> {
    match v {
        None => Ok(default),
        #[allow(clippy::cast_precision_loss)]
        Some(PyValue::Int(PyInt::Small(i))) => Ok(*i as f64),
        // Python's `float(int)` rounds correctly and raises `OverflowError` when the result
        // would be infinite; Rust's parse rounds the same way and gives infinity there.
        Some(PyValue::Int(PyInt::Big(s))) => match s.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(f),
            _ => Err(Invalid::IntTooLarge),
        },
        Some(PyValue::Float(f)) => Ok(*f),
        Some(other) => {
            Err(Invalid::Value(format!("{path} must be a number, got {}", quoted(other))))
        }
    }
}

/// The text of the `OverflowError` Python raises converting an integer beyond the float range
/// (`timeout_seconds: 1e400` written as an integer). It is not a `HooksConfigError`, so
/// Chrys reports it as it is, without the `hooks[<i>]: ` prefix.
pub(crate) const INT_TOO_LARGE: &str = "int too large to convert to float";

/// `_int_field`: an int, not a bool.
fn int_field(v: Option<&PyValue>, default: i128, path: &str) -> Res<i128> {
    match v {
        None => Ok(default),
        Some(PyValue::Int(PyInt::Small(i))) => Ok(*i),
        Some(PyValue::Int(PyInt::Big(s))) => {
            Ok(if s.starts_with('-') { i128::MIN } else { i128::MAX })
        }
        Some(other) => {
            Err(Invalid::Value(format!("{path} must be an integer, got {}", quoted(other))))
        }
    }
}

/// Python's `str.strip()` (whitespace as `str.isspace` defines it).
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

fn parse_hook(node: &Node, warnings: &mut Vec<LoadWarning>) -> Res<HookSpec> {
    let PyValue::Dict(pairs) = &node.value else {
        return Err(Invalid::Value(format!(
            "hook entry must be a mapping, got {}",
            node.value.type_name()
        )));
    };
    let extra = unknown_keys(
        pairs,
        &["id", "event", "run", "execution", "match", "enabled", "description"],
    );
    if !extra.is_empty() {
        return Err(Invalid::Value(format!("unknown keys: {}", sorted_keys_repr(&extra))));
    }
    let get = |k: &str| node.value.get(k);
    let id = match get("id").map(|n| &n.value) {
        Some(PyValue::Str(s)) if !py_strip(s).is_empty() => py_strip(s).to_owned(),
        _ => {
            return Err(Invalid::Value(
                "'id' is required and must be a non-empty string".to_owned(),
            ));
        }
    };
    if id.chars().count() > ID_MAX || !id.chars().all(is_printable) {
        return Err(Invalid::Value(format!(
            "'id' must be printable and no longer than {ID_MAX} characters"
        )));
    }
    let event = match get("event").map(|n| &n.value) {
        Some(PyValue::Str(s)) => match NATIVE_EVENTS.iter().find(|e| **e == s) {
            Some(e) => *e,
            None => {
                return Err(Invalid::Value(format!(
                    "unknown event {}.  Valid: {}",
                    hooks_schema::quoted_value("str", &format!("'{s}'")),
                    NATIVE_EVENTS.join(", ")
                )));
            }
        },
        _ => return Err(Invalid::Value("'event' is required and must be a string".to_owned())),
    };
    let run = parse_run(get("run"))?;
    let execution = parse_execution(get("execution"))?;
    let mut match_warnings = Vec::new();
    let matcher = parse_match(get("match"), &mut match_warnings)?;
    for message in match_warnings {
        warnings.push(LoadWarning {
            code: "legacy_tool_kind",
            message,
            hook_id: Some(id.clone()),
            mark: node.mark,
        });
    }
    if execution.detach && execution.mode != "fire_and_forget" {
        return Err(Invalid::Value(format!(
            "hook '{id}': execution.detach=true requires execution.mode='fire_and_forget' (got mode={}); a detached child has no stdio for iCode to await",
            str_repr(execution.mode)
        )));
    }
    let enabled = match get("enabled").map(|n| &n.value) {
        None => true,
        Some(PyValue::Bool(b)) => *b,
        Some(other) => {
            return Err(Invalid::Value(format!(
                "'enabled' must be a boolean, got {}",
                other.type_name()
            )));
        }
    };
    let description = match get("description").map(|n| &n.value) {
        None | Some(PyValue::None) => String::new(),
        Some(PyValue::Str(s)) => s.clone(),
        Some(other) => {
            return Err(Invalid::Value(format!(
                "'description' must be a string, got {}",
                other.type_name()
            )));
        }
    };
    let hook =
        HookSpec { id, event, run, execution, matcher, enabled, description, mark: node.mark };
    if hook.execution.mode == "blocking" && hook.execution.delivery == "durable" {
        warnings.push(LoadWarning {
            code: "durable_blocking",
            message: format!(
                "Hook {} uses execution.delivery='durable' with mode='blocking'; blocking hooks are awaited inline and do not use the durable outbox",
                str_repr(&hook.id)
            ),
            hook_id: Some(hook.id.clone()),
            mark: hook.mark,
        });
    }
    if hook.event == "before_tool_call" && hook.matcher.is_empty() {
        warnings.push(LoadWarning {
            code: "broad_before_tool_call",
            message: format!(
                "Hook {} is a before_tool_call hook with no match filters; it will run for every tool call",
                str_repr(&hook.id)
            ),
            hook_id: Some(hook.id.clone()),
            mark: hook.mark,
        });
    }
    Ok(hook)
}

/// `"" if raw.get(k) is None else raw.get(k)` for an optional string.
fn opt_or<'a>(node: &'a Node, key: &str) -> Option<&'a PyValue> {
    node.value.get(key).map(|n| &n.value).filter(|v| **v != PyValue::None)
}

fn str_list(v: &PyValue) -> Option<Vec<String>> {
    match v {
        PyValue::List(items) => items.iter().map(|n| n.value.as_str().map(str::to_owned)).collect(),
        _ => None,
    }
}

fn parse_run(node: Option<&Node>) -> Res<RunSpec> {
    let Some(node) = node.filter(|n| n.value != PyValue::None) else {
        return Err(Invalid::Value("'run' is required".to_owned()));
    };
    let PyValue::Dict(pairs) = &node.value else {
        return Err(Invalid::Value(format!(
            "'run' must be a mapping, got {}",
            node.value.type_name()
        )));
    };
    let extra = unknown_keys(pairs, &["type", "path", "argv", "shell", "args", "env", "cwd"]);
    if !extra.is_empty() {
        return Err(Invalid::Value(format!("run: unknown keys: {}", sorted_keys_repr(&extra))));
    }
    let kind = match node.value.get("type").map(|n| &n.value) {
        Some(PyValue::Str(s)) if s == "script" => RunKind::Script,
        Some(PyValue::Str(s)) if s == "command" => RunKind::Command,
        Some(PyValue::Str(s)) if s == "shell" => RunKind::Shell,
        other => {
            return Err(Invalid::Value(format!(
                "run.type must be 'script', 'command', or 'shell', got {}",
                other.map_or_else(|| "None".to_owned(), quoted)
            )));
        }
    };
    let path = match opt_or(node, "path") {
        None => String::new(),
        Some(PyValue::Str(s)) => s.clone(),
        Some(other) => {
            return Err(Invalid::Value(format!(
                "run.path must be a string, got {}",
                other.type_name()
            )));
        }
    };
    let argv_v = opt_or(node, "argv");
    let shell = match opt_or(node, "shell") {
        None => String::new(),
        Some(PyValue::Str(s)) => s.clone(),
        Some(other) => {
            return Err(Invalid::Value(format!(
                "run.shell must be a string, got {}",
                other.type_name()
            )));
        }
    };
    if kind == RunKind::Script && path.is_empty() {
        return Err(Invalid::Value("run.path is required when run.type == 'script'".to_owned()));
    }
    let mut argv = Vec::new();
    if kind == RunKind::Command {
        match argv_v {
            Some(PyValue::List(items)) if !items.is_empty() => {
                argv = str_list(argv_v.unwrap_or(&PyValue::None))
                    .ok_or_else(|| "run.argv entries must all be strings".to_owned())?;
            }
            _ => {
                return Err("run.argv must be a non-empty list when run.type == 'command'"
                    .to_owned()
                    .into());
            }
        }
    } else if let Some(v) = argv_v
        && !matches!(v, PyValue::Str(_) | PyValue::List(_) | PyValue::Dict(_))
    {
        return Err(Invalid::Value("run.argv must be a list of strings".to_owned()));
    }
    if kind == RunKind::Shell && shell.is_empty() {
        return Err(Invalid::Value("run.shell is required when run.type == 'shell'".to_owned()));
    }
    let args = match opt_or(node, "args") {
        None => Vec::new(),
        Some(v) => str_list(v).ok_or_else(|| "run.args must be a list of strings".to_owned())?,
    };
    let env = match opt_or(node, "env") {
        None => Vec::new(),
        Some(PyValue::Dict(pairs)) => pairs
            .iter()
            .map(|(k, v)| match (&k.value, &v.value) {
                (PyValue::Str(k), PyValue::Str(v)) => Some((k.clone(), v.clone())),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| "run.env must be a string→string mapping".to_owned())?,
        Some(_) => {
            return Err(Invalid::Value("run.env must be a string→string mapping".to_owned()));
        }
    };
    let cwd = match opt_or(node, "cwd") {
        None => String::new(),
        Some(PyValue::Str(s)) => s.clone(),
        Some(other) => {
            return Err(Invalid::Value(format!(
                "run.cwd must be a string, got {}",
                other.type_name()
            )));
        }
    };
    Ok(RunSpec { kind, path, argv, shell, args, env, cwd })
}

/// One of `choices` (an explicit null is an error, as `raw.get(k, default)` returns None).
fn choice(
    node: &Node,
    key: &str,
    default: &'static str,
    choices: &[&'static str],
    message: &str,
) -> Res<&'static str> {
    match node.value.get(key).map(|n| &n.value) {
        None => Ok(default),
        Some(PyValue::Str(s)) if choices.contains(&s.as_str()) => {
            Ok(choices.iter().find(|c| **c == s).copied().unwrap_or(default))
        }
        Some(other) => Err(Invalid::Value(format!("{message}, got {}", quoted(other)))),
    }
}

fn parse_execution(node: Option<&Node>) -> Res<ExecSpec> {
    let defaults = ExecSpec {
        mode: "fire_and_forget",
        detach: false,
        delivery: "best_effort",
        timeout_seconds: 30.0,
        on_error: "warn",
    };
    let Some(node) = node.filter(|n| n.value != PyValue::None) else { return Ok(defaults) };
    let PyValue::Dict(pairs) = &node.value else {
        return Err(Invalid::Value(format!(
            "'execution' must be a mapping, got {}",
            node.value.type_name()
        )));
    };
    let extra = unknown_keys(pairs, &["mode", "detach", "delivery", "timeout_seconds", "on_error"]);
    if !extra.is_empty() {
        return Err(Invalid::Value(format!(
            "execution: unknown keys: {}",
            sorted_keys_repr(&extra)
        )));
    }
    let mode = choice(
        node,
        "mode",
        "fire_and_forget",
        &["blocking", "async", "fire_and_forget"],
        "execution.mode must be 'blocking' / 'async' / 'fire_and_forget'",
    )?;
    let delivery = choice(
        node,
        "delivery",
        "best_effort",
        &["best_effort", "durable"],
        "execution.delivery must be 'best_effort' / 'durable'",
    )?;
    let on_error = choice(
        node,
        "on_error",
        "warn",
        &["block", "warn", "ignore"],
        "execution.on_error must be 'block' / 'warn' / 'ignore'",
    )?;
    let timeout = float_field(
        node.value.get("timeout_seconds").map(|n| &n.value),
        30.0,
        "execution.timeout_seconds",
    )?;
    if timeout <= 0.0 {
        return Err(Invalid::Value(format!(
            "execution.timeout_seconds must be > 0, got {}",
            float_repr(timeout)
        )));
    }
    let detach = match node.value.get("detach").map(|n| &n.value) {
        None => false,
        Some(PyValue::Bool(b)) => *b,
        Some(other) => {
            return Err(Invalid::Value(format!(
                "execution.detach must be a boolean, got {}",
                other.type_name()
            )));
        }
    };
    Ok(ExecSpec { mode, detach, delivery, timeout_seconds: timeout, on_error })
}

fn opt_str_field(v: Option<&PyValue>, path: &str) -> Res<Option<String>> {
    match v {
        None | Some(PyValue::None) => Ok(None),
        Some(PyValue::Str(s)) => Ok(Some(s.clone())),
        Some(other) => {
            Err(Invalid::Value(format!("{path} must be a string, got {}", other.type_name())))
        }
    }
}

fn parse_match(node: Option<&Node>, warnings: &mut Vec<String>) -> Res<MatchSpec> {
    let Some(node) = node.filter(|n| n.value != PyValue::None) else {
        return Ok(MatchSpec::default());
    };
    let PyValue::Dict(pairs) = &node.value else {
        return Err(Invalid::Value(format!(
            "'match' must be a mapping, got {}",
            node.value.type_name()
        )));
    };
    let extra = unknown_keys(pairs, &["profile", "profiles", "tool_kind", "tool_name", "args"]);
    if !extra.is_empty() {
        return Err(Invalid::Value(format!("match: unknown keys: {}", sorted_keys_repr(&extra))));
    }
    let get = |k: &str| node.value.get(k).map(|n| &n.value);
    let profile = opt_str_field(get("profile"), "match.profile")?;
    let profiles = match opt_or(node, "profiles") {
        None => Vec::new(),
        Some(v) => {
            str_list(v).ok_or_else(|| "match.profiles must be a list of strings".to_owned())?
        }
    };
    let tool_kind = opt_str_field(get("tool_kind"), "match.tool_kind")?
        .map(|k| strip_legacy_prefix(k, warnings));
    let tool_name = opt_str_field(get("tool_name"), "match.tool_name")?;
    let mut args = Vec::new();
    match opt_or(node, "args") {
        None => {}
        Some(PyValue::Dict(arg_pairs)) => {
            for (k, v) in arg_pairs {
                let PyValue::Str(name) = &k.value else {
                    return Err(Invalid::Value(format!(
                        "match.args keys must be strings, got {}",
                        k.value.type_name()
                    )));
                };
                let PyValue::Dict(ops) = &v.value else {
                    return Err(Invalid::Value(format!(
                        "match.args.{name} must be a mapping with equals/contains/regex"
                    )));
                };
                let extra = unknown_keys(ops, &["equals", "contains", "regex"]);
                if !extra.is_empty() {
                    return Err(Invalid::Value(format!(
                        "match.args.{name}: unknown keys: {}",
                        sorted_keys_repr(&extra)
                    )));
                }
                let op = |o: &str| v.value.get(o).map(|n| &n.value);
                args.push(ArgSpec {
                    name: name.clone(),
                    equals: opt_str_field(op("equals"), &format!("match.args.{name}.equals"))?,
                    contains: opt_str_field(
                        op("contains"),
                        &format!("match.args.{name}.contains"),
                    )?,
                    regex: opt_str_field(op("regex"), &format!("match.args.{name}.regex"))?,
                });
            }
        }
        Some(other) => {
            return Err(Invalid::Value(format!(
                "match.args must be a mapping, got {}",
                other.type_name()
            )));
        }
    }
    Ok(MatchSpec { profile, profiles, tool_kind, tool_name, args })
}

/// `strip_legacy_kind_prefix`: `chrys.<known kind>` becomes `<known kind>` with a warning.
fn strip_legacy_prefix(kind: String, warnings: &mut Vec<String>) -> String {
    match kind.strip_prefix("chrys.") {
        Some(bare) if TOOL_KINDS.contains(&bare) => {
            warnings.push(format!(
                "Legacy tool-kind value {} in match.tool_kind - the 'chrys.' runtime prefix was removed; use {}.",
                str_repr(&kind),
                str_repr(bare)
            ));
            bare.to_owned()
        }
        _ => kind,
    }
}
