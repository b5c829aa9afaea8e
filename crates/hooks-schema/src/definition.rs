//! Hook definitions: one parsed, validated hook as every downstream crate sees it.

use std::{fmt, path::PathBuf, sync::Arc, time::Duration};

use serde_json::{Map, Value};

use crate::{FormatId, HookCodec, HookEvent, HookId, Matcher};

/// A timeout that never fires: what a format's "no limit" (Chrys's `.inf`, a number of
/// seconds too large for a [`Duration`]) becomes. The engine has no ceiling of its own, so
/// a timeout may be anything up to this; whoever adds it to an instant must use checked
/// arithmetic (`Instant::checked_add`) and read `None` as "no deadline".
pub const NO_TIMEOUT: Duration = Duration::MAX;

/// A number of seconds as a timeout, the way a format that reads seconds means it: `None`
/// for NaN, zero and negative numbers (each format decides what those mean); positive
/// infinity and values beyond [`Duration`]'s range saturate to [`NO_TIMEOUT`]; a positive
/// value too small for a nanosecond is one nanosecond, so a positive timeout never reads as
/// zero.
///
/// ```
/// use std::time::Duration;
/// use hooks_schema::{NO_TIMEOUT, timeout_from_secs};
///
/// assert_eq!(timeout_from_secs(1_800.0), Some(Duration::from_secs(1_800)));
/// assert_eq!(timeout_from_secs(1e300), Some(NO_TIMEOUT));
/// assert_eq!(timeout_from_secs(f64::INFINITY), Some(NO_TIMEOUT));
/// assert_eq!(timeout_from_secs(0.0), None);
/// assert_eq!(timeout_from_secs(f64::NAN), None);
/// ```
pub fn timeout_from_secs(secs: f64) -> Option<Duration> {
    if secs.is_nan() || secs <= 0.0 {
        return None;
    }
    let d = Duration::try_from_secs_f64(secs).unwrap_or(NO_TIMEOUT);
    Some(d.max(Duration::from_nanos(1)))
}

/// What a hook runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookCommand {
    /// A command line run through a shell: the platform shell (`/bin/sh -c` on Unix) when
    /// `shell` is `None`, otherwise the named shell with `-c`.
    Shell {
        /// The command line.
        script: String,
        /// The shell to use instead of the platform shell.
        shell: Option<String>,
    },
    /// A program executed directly, without a shell.
    Exec {
        /// The program (a path, or a name looked up on `PATH`).
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A script whose interpreter is chosen by its extension (Chrys `run.type: script`).
    Script {
        /// The script, resolved against the source file's folder by the adapter.
        path: PathBuf,
        /// Arguments after the script.
        args: Vec<String>,
    },
    /// No process: the hook input is POSTed to a URL and the response read as the output
    /// (Claude Code `type: "http"`).
    Http(crate::HttpHook),
}

/// What a hook failure (spawn error, timeout, crash, unexpected exit, unreadable output)
/// does to the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OnFailure {
    /// Fail closed: the failure denies (on events that can be denied).
    Block,
    /// Fail open and report the failure.
    Warn,
    /// Fail open silently.
    Ignore,
}

impl OnFailure {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            OnFailure::Block => "block",
            OnFailure::Warn => "warn",
            OnFailure::Ignore => "ignore",
        }
    }
}

/// How the host waits for a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExecutionMode {
    /// The host waits; the hook's verdict counts.
    Blocking,
    /// The host does not wait now; the hook is drained at turn or session end.
    Async,
    /// The host never waits; the hook is bounded by its timeout.
    FireAndForget,
}

impl ExecutionMode {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecutionMode::Blocking => "blocking",
            ExecutionMode::Async => "async",
            ExecutionMode::FireAndForget => "fire_and_forget",
        }
    }
}

/// Whether a non-blocking hook's run must survive a crash of the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delivery {
    /// Lost if the engine dies first.
    BestEffort,
    /// Recorded in the outbox before spawning and retried at the next start.
    Durable,
}

/// One hook, parsed and validated by its adapter.
///
/// Equality ignores the codec object but compares its wire format, so the registry can tell
/// whether a reload changed anything that runs.
#[derive(Clone)]
pub struct HookDefinition {
    /// The id (derived from event and position by formats that have none).
    pub id: HookId,
    /// The canonical event.
    pub event: HookEvent,
    /// The event's name in the source file.
    pub native_event: String,
    /// Which firings of the event it applies to.
    pub matcher: Matcher,
    /// What it runs.
    pub command: HookCommand,
    /// The working directory as written in the file, before template expansion; `None`
    /// means the directory the registry places the source in.
    pub cwd: Option<String>,
    /// Extra environment variables as written in the file, before template expansion.
    pub env: Vec<(String, String)>,
    /// How long it may run; the adapter fills in its format's default. There is no engine
    /// ceiling: [`NO_TIMEOUT`] means it is never timed out, and a deadline computed from it
    /// must use checked arithmetic.
    pub timeout: Duration,
    /// What a failure does.
    pub on_failure: OnFailure,
    /// How the host waits for it.
    pub mode: ExecutionMode,
    /// Best effort or durable.
    pub delivery: Delivery,
    /// Whether the process outlives the engine (its own session, output to a log file).
    pub detach: bool,
    /// Disabled definitions are listed and protected but never run.
    pub enabled: bool,
    /// The protocol the hook speaks.
    pub codec: Arc<dyn HookCodec>,
    /// Position among the definitions of its source, from 0.
    pub order: u32,
    /// 1-based line in the source file.
    pub line: Option<u32>,
    /// 1-based column in the source file.
    pub column: Option<u32>,
    /// A human description, when the format has one.
    pub description: Option<String>,
    /// Format-specific settings the codec reads (Cursor `loop_limit`, Claude `statusMessage`).
    pub native: Map<String, Value>,
}

impl HookDefinition {
    /// The format whose protocol its codec speaks.
    pub fn wire_format(&self) -> FormatId {
        self.codec.wire_format()
    }
}

impl PartialEq for HookDefinition {
    fn eq(&self, other: &HookDefinition) -> bool {
        self.id == other.id
            && self.event == other.event
            && self.native_event == other.native_event
            && self.matcher == other.matcher
            && self.command == other.command
            && self.cwd == other.cwd
            && self.env == other.env
            && self.timeout == other.timeout
            && self.on_failure == other.on_failure
            && self.mode == other.mode
            && self.delivery == other.delivery
            && self.detach == other.detach
            && self.enabled == other.enabled
            && self.wire_format() == other.wire_format()
            && self.order == other.order
            && self.line == other.line
            && self.column == other.column
            && self.description == other.description
            && self.native == other.native
    }
}

impl fmt::Debug for HookDefinition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HookDefinition")
            .field("id", &self.id)
            .field("event", &self.event)
            .field("native_event", &self.native_event)
            .field("matcher", &self.matcher)
            .field("command", &self.command)
            .field("cwd", &self.cwd)
            .field("env", &self.env)
            .field("timeout", &self.timeout)
            .field("on_failure", &self.on_failure)
            .field("mode", &self.mode)
            .field("delivery", &self.delivery)
            .field("detach", &self.detach)
            .field("enabled", &self.enabled)
            .field("wire_format", &self.wire_format())
            .field("order", &self.order)
            .field("line", &self.line)
            .field("column", &self.column)
            .field("description", &self.description)
            .field("native", &self.native)
            .finish()
    }
}
