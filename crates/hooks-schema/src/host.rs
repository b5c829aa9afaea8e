//! Extension points for running the engine *under* an agent (issue 20): a per-agent host
//! codec and the places `hooks install` writes to. Declared here so descriptors can carry
//! them; no format implements them yet.
//!
//! A [`HostCodec`] is the mirror image of a [`HookCodec`](crate::HookCodec): the hook codec
//! speaks the format's protocol *to* a hook the engine runs, the host codec speaks it *to the
//! agent* that runs the engine as its own hook command (`hooks bridge --host <agent>`). Both
//! are pure.

use std::fmt;

use crate::{Envelope, FileScope, FoldedVerdict};

/// Why an agent's hook input could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The input is not what the agent sends (not JSON, a field of the wrong type).
    #[error("the agent's hook input is malformed: {0}")]
    Malformed(String),
    /// The event is one the engine has no counterpart for.
    #[error("the agent's event `{0}` has no canonical counterpart")]
    UnknownEvent(String),
}

/// An agent's hook input decoded into the engine's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct HostInput {
    /// The canonical envelope.
    pub envelope: Envelope,
    /// The event as the agent named it.
    pub native_event: String,
    /// The agent's session id, which keys the pin across the bridge's processes.
    pub session_id: Option<String>,
}

/// What the engine answers the agent: the bytes on stdout and stderr and the exit code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostAnswer {
    /// Written to stdout.
    pub stdout: Vec<u8>,
    /// Written to stderr.
    pub stderr: Vec<u8>,
    /// The process exit code.
    pub exit_code: i32,
}

/// How an agent runs the engine as its hook command (issue 20, `hooks bridge`).
pub trait HostCodec: Send + Sync + fmt::Debug {
    /// Decodes the agent's native hook input (`stdin`), with the event named on the command
    /// line for agents whose input does not carry it.
    fn decode_input(&self, stdin: &[u8], event_arg: Option<&str>) -> Result<HostInput, HostError>;

    /// Encodes the folded verdict of the hooks that ran as the agent's native answer.
    fn encode_answer(&self, input: &HostInput, verdict: &FoldedVerdict) -> HostAnswer;
}

/// A file `hooks install` writes the bridge into (issue 20): the agent's own configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstallTarget {
    /// Whose configuration it is (project or user).
    pub scope: FileScope,
    /// The file, relative to the project root or the format's user folder.
    pub path: &'static str,
}
