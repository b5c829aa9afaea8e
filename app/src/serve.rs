//! `hooks serve --stdio`: the runtime as a long-lived child process speaking newline-delimited
//! JSON on stdin and stdout, so agents in any language embed the engine.
//!
//! Threads and tasks: a reader splits stdin into bounded lines (polling stdin briefly before it
//! sleeps: see [`PolledInput`]), parses them, answers protocol errors, `hello`, `ping` and fires
//! that match no hook itself and starts the hooks of the other fires itself (once every earlier
//! state change is applied; an unfinished fire then goes on as a task of its own), and hands
//! the rest to one actor task that owns the [`HookRuntime`]; the actor applies state changes in
//! arrival order and hands reads (`fire`, `can_write_files`, `snapshot`) to tasks of their own
//! with a cloned [`FireHandle`] so they run concurrently. When stdin is a pipe or a socket
//! ([`ServeInput`]) the reader is a task on the runtime's own thread, which reads stdin through
//! the runtime's reactor without waiting, so the thread that starts a hook is the one its end
//! wakes; any other input is read on a reader thread. stdout is one buffered writer behind a
//! lock taken for whole messages: the reader thread writes its answers directly; a tokio task
//! (and the reader on the runtime's thread) writes its own when stdout is free and has room
//! ([`ServeOutput::write_now`], a write that never waits) and hands the writer thread what
//! does not fit, so a client that stops reading never blocks the runtime. One thread forwards
//! registry changes as notifications. The server's own messages go to the caller's
//! [`ServeLog`] (`hooks serve`: stderr). The protocol is in `specs/serve-protocol.md`.
//!
//! [`FireHandle`]: crate::runtime::FireHandle

mod input;
mod lines;
mod output;
pub mod protocol;
pub mod render;
mod server;
mod spin;

use std::{fmt, sync::Arc, time::Duration};

use crate::runtime::HookRuntime;

pub use input::ServeInput;
pub use output::ServeOutput;
pub use protocol::{
    ErrorCode, PROTOCOL_VERSION, ProtocolError, Request, parse_request, parse_request_with,
};
pub use spin::{DEFAULT_SPIN, PolledInput};

/// The default cap on one request line.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The default cap on requests in flight.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 1024;

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A thread or the async runtime of the server could not be started.
    #[error("cannot start the server: {0}")]
    Start(#[source] std::io::Error),
    /// The task that owns the runtime failed (it panicked).
    #[error("the runtime task failed: {0}")]
    Task(String),
}

/// Where the server's own messages go (stdout or stdin failing, a request that panicked, the
/// advisories it also sends as a notification, the end-of-input drain summary): the caller
/// decides; `hooks serve` writes them to stderr. By default they are dropped.
#[derive(Clone, Default)]
pub struct ServeLog(Option<Arc<LogFn>>);

/// What a [`ServeLog`] calls with each message.
type LogFn = dyn Fn(&str) + Send + Sync;

impl ServeLog {
    /// Messages handed to `f`, one line each.
    pub fn new(f: impl Fn(&str) + Send + Sync + 'static) -> ServeLog {
        ServeLog(Some(Arc::new(f)))
    }

    pub(crate) fn say(&self, message: &str) {
        if let Some(f) = &self.0 {
            f(message);
        }
    }
}

impl fmt::Debug for ServeLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "ServeLog(..)" } else { "ServeLog(none)" })
    }
}

/// How the server behaves; [`ServeOptions::default`] is what `hooks serve` uses, with a log
/// to stderr.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The longest request line; longer lines are skipped to the next newline and answered
    /// with a `line_too_long` error.
    pub max_line_bytes: usize,
    /// The grace for in-flight requests and async hooks at end of input, and for a
    /// `shutdown` that names none.
    pub default_grace: Duration,
    /// How long `add_root` waits for the platform watch before answering without it.
    pub attach_timeout: Duration,
    /// Worker threads of the server's tokio runtime; 1 (the default) runs a current-thread
    /// runtime on the calling thread. More threads run state changes and fires' continuations
    /// in parallel, at the cost of thread wake-ups on every fire: tokio's multi-thread
    /// scheduler wakes a second worker to look for work each time one finds some
    /// (`specs/serve-protocol.md`, "Threads and stdout").
    pub worker_threads: usize,
    /// The most requests handed to the runtime whose answers are not yet written; at the
    /// limit the server stops reading stdin until the client reads answers (back-pressure).
    pub max_in_flight: usize,
    /// Where the server's own messages go.
    pub log: ServeLog,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            default_grace: Duration::from_secs(5),
            attach_timeout: Duration::from_secs(5),
            worker_threads: 1,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            log: ServeLog::default(),
        }
    }
}

/// Serves `runtime` over `input` and `output` with the default options until `shutdown` or
/// the end of input, then drains; blocking (builds its own tokio runtime).
pub fn run_stdio(
    runtime: HookRuntime,
    input: impl ServeInput,
    output: impl ServeOutput,
) -> Result<(), ServeError> {
    run_stdio_with(runtime, input, output, ServeOptions::default())
}

/// [`run_stdio`] with explicit options.
pub fn run_stdio_with(
    runtime: HookRuntime,
    input: impl ServeInput,
    output: impl ServeOutput,
    options: ServeOptions,
) -> Result<(), ServeError> {
    let rt = if options.worker_threads <= 1 {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(options.worker_threads)
            .thread_name("hooks-serve")
            .enable_all()
            .build()
    }
    .map_err(ServeError::Start)?;
    let result = rt.block_on(server::serve(runtime, input, output, options));
    // Hook tasks that outlived their request were aborted; do not wait on blocking reads.
    rt.shutdown_timeout(Duration::from_millis(100));
    result
}

#[cfg(test)]
mod tests;
