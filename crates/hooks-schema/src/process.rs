//! Pure data crossing between a codec and the process runner: what to run and what came back.

use std::{path::PathBuf, time::Duration};

/// What to execute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// Through a shell: `shell -c script`, the platform shell when `shell` is `None`.
    Shell {
        /// The command line.
        script: String,
        /// The shell.
        shell: Option<String>,
    },
    /// Directly: `argv[0]` looked up on `PATH` unless it holds a `/`.
    Exec {
        /// Program and arguments; never empty.
        argv: Vec<String>,
    },
    /// The first candidate whose program exists on `PATH` (or as a path), executed directly.
    /// Used for interpreter selection by extension (`uv run`, else `python3`, else `python`).
    FirstAvailable {
        /// Candidates in order of preference; each never empty.
        candidates: Vec<Vec<String>>,
    },
    /// No process: [`Invocation::stdin`] is POSTed as `application/json` to the hook's URL
    /// within [`Invocation::timeout`]; the response's status comes back as
    /// [`ExitInfo::Responded`] and its body as stdout. `cwd`, `env_remove` and `files` do not
    /// apply; `env` is read before the engine's environment when a header names a variable.
    Http(crate::HttpHook),
}

impl Program {
    /// What runs `command` for an agent that runs command lines as `shell` says and
    /// executes a program or a script directly, with its arguments; an HTTP hook is
    /// [`crate::EncodeError::NoHttpHooks`] for `agent`, which has none.
    ///
    /// ```
    /// use hooks_schema::{EncodeError, HookCommand, Program};
    ///
    /// let bash = |script: &String, shell: &Option<String>| Program::Shell {
    ///     script: script.clone(),
    ///     shell: shell.clone().or_else(|| Some("bash".to_owned())),
    /// };
    /// let exec = HookCommand::Exec { program: "gate".into(), args: vec!["--strict".into()] };
    /// assert_eq!(
    ///     Program::of(&exec, "Acme", bash)?,
    ///     Program::Exec { argv: vec!["gate".into(), "--strict".into()] }
    /// );
    /// let line = HookCommand::Shell { script: "./gate.sh".into(), shell: None };
    /// assert_eq!(
    ///     Program::of(&line, "Acme", bash)?,
    ///     Program::Shell { script: "./gate.sh".into(), shell: Some("bash".into()) }
    /// );
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub fn of(
        command: &crate::HookCommand,
        agent: &'static str,
        shell: impl FnOnce(&String, &Option<String>) -> Program,
    ) -> Result<Program, crate::EncodeError> {
        use crate::HookCommand;
        Ok(match command {
            HookCommand::Shell { script, shell: named } => shell(script, named),
            HookCommand::Exec { program, args } => {
                Program::Exec { argv: std::iter::once(program).chain(args).cloned().collect() }
            }
            HookCommand::Script { path, args } => Program::Exec {
                argv: std::iter::once(path.display().to_string())
                    .chain(args.iter().cloned())
                    .collect(),
            },
            HookCommand::Http(_) => return Err(crate::EncodeError::NoHttpHooks { agent }),
        })
    }
}

/// What a provided file is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProvidedFileRole {
    /// A file written with these bytes before the hook starts (mode 0600).
    Input(Vec<u8>),
    /// An empty file the hook may write; its bytes come back in [`RawOutcome::result_file`].
    Output,
}

/// A temporary file the runner creates, names in an environment variable, and deletes after
/// the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvidedFile {
    /// The environment variable that receives the file's path.
    pub env_var: String,
    /// A short name used in the file name (sanitized by the runner).
    pub name_hint: String,
    /// Input or output.
    pub role: ProvidedFileRole,
}

/// One process to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// What to execute.
    pub program: Program,
    /// The working directory; `None` inherits the engine's.
    pub cwd: Option<PathBuf>,
    /// Variables removed from the inherited environment.
    pub env_remove: Vec<String>,
    /// Variables set, in order, after the provided files' variables (so they may override
    /// them, as Chrys's `run.env` may override `CHRYS_*`).
    pub env: Vec<(String, String)>,
    /// Bytes written to stdin, which is then closed. Empty means stdin is `/dev/null`.
    pub stdin: Vec<u8>,
    /// Files to create before the run.
    pub files: Vec<ProvidedFile>,
    /// How long the process group may run before it is killed.
    pub timeout: Duration,
}

/// Why a process could not be started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpawnFailureKind {
    /// The program does not exist.
    ProgramNotFound,
    /// The program or a path is not accessible.
    PermissionDenied,
    /// The working directory does not exist.
    MissingCwd,
    /// The payload exceeds the runner's cap; nothing was spawned.
    PayloadTooLarge,
    /// The codec could not build an invocation.
    EncodeFailed,
    /// An HTTP hook's server could not be reached (no connection, TLS failure, a broken or
    /// unreadable response).
    Unreachable,
    /// Anything else.
    Other,
}

/// A process that never started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnFailure {
    /// The cause.
    pub kind: SpawnFailureKind,
    /// A message naming the program or path.
    pub message: String,
}

/// How a process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitInfo {
    /// It exited with this code.
    Exited(i32),
    /// It was killed by this signal (including the runner's kill on timeout).
    Signaled(i32),
    /// It never started (for an HTTP hook: no response came).
    NotStarted(SpawnFailure),
    /// An HTTP hook's server answered with this status code; the body is in stdout.
    Responded(u16),
}

/// Output captured up to a cap: the head and the tail are kept, the middle dropped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CapturedOutput {
    /// The kept bytes. When `truncated`, the head and the tail joined by a marker line.
    pub bytes: Vec<u8>,
    /// How many bytes the process wrote in all.
    pub total_len: u64,
    /// Whether bytes were dropped.
    pub truncated: bool,
}

impl CapturedOutput {
    /// Output that was kept whole.
    pub fn whole(bytes: Vec<u8>) -> CapturedOutput {
        CapturedOutput { total_len: bytes.len() as u64, bytes, truncated: false }
    }

    /// The kept bytes as text, invalid UTF-8 replaced.
    pub fn lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }
}

/// What running an [`Invocation`] produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawOutcome {
    /// How it ended.
    pub exit: ExitInfo,
    /// Whether the runner killed it at its timeout.
    pub timed_out: bool,
    /// Captured stdout.
    pub stdout: CapturedOutput,
    /// Captured stderr.
    pub stderr: CapturedOutput,
    /// The bytes of the output file, when the invocation asked for one and the hook wrote it;
    /// `truncated` when it exceeded the runner's cap.
    pub result_file: Option<CapturedOutput>,
    /// Wall time from spawn to exit.
    pub duration: Duration,
}

impl RawOutcome {
    /// Whether the process exited with code 0 in time (an HTTP hook: a 2xx response in time).
    pub fn succeeded(&self) -> bool {
        !self.timed_out
            && match self.exit {
                ExitInfo::Exited(c) => c == 0,
                ExitInfo::Responded(s) => (200..300).contains(&s),
                ExitInfo::Signaled(_) | ExitInfo::NotStarted(_) => false,
            }
    }

    /// The exit code, when it exited on its own.
    pub fn exit_code(&self) -> Option<i32> {
        match (&self.exit, self.timed_out) {
            (ExitInfo::Exited(c), false) => Some(*c),
            _ => None,
        }
    }

    /// A short label for a failed run: `timeout`, `launch_error`, `signal=N`, `exit_code=N`;
    /// `None` for a run that exited 0.
    pub fn failure_label(&self) -> Option<String> {
        if self.timed_out {
            return Some("timeout".to_owned());
        }
        match &self.exit {
            ExitInfo::Exited(0) => None,
            ExitInfo::Exited(c) => Some(format!("exit_code={c}")),
            ExitInfo::Signaled(s) => Some(format!("signal={s}")),
            ExitInfo::NotStarted(_) => Some("launch_error".to_owned()),
            ExitInfo::Responded(s) if (200..300).contains(s) => None,
            ExitInfo::Responded(s) => Some(format!("http_status={s}")),
        }
    }
}

#[cfg(test)]
mod tests;
