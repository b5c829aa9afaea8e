//! The protocol boundary between a format adapter and the process runner.
//!
//! An adapter's codec is pure: [`HookCodec::encode`] turns an envelope into an
//! [`Invocation`] (what to run, with which stdin, environment and files) and
//! [`HookCodec::decode`] turns the [`RawOutcome`] of running it into a [`HookVerdict`].
//! Only `hooks-dispatch` spawns processes.

use std::{fmt, path::Path};

use serde::{Deserialize, Serialize};

use crate::{
    Envelope, HookDefinition, HookLaunch, HookSourceId, HookVerdict, Invocation, RawOutcome,
};

/// The hook protocols the engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireFormat {
    /// Cursor's `hooks.json` protocol: JSON on stdin, JSON on stdout.
    Cursor,
    /// Chrys's protocol: a payload file in, a result file out, empty stdin.
    Chrys,
    /// Claude Code's protocol: JSON on stdin, exit code 2 or JSON on stdout.
    Claude,
}

impl WireFormat {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            WireFormat::Cursor => "cursor",
            WireFormat::Chrys => "chrys",
            WireFormat::Claude => "claude",
        }
    }
}

impl fmt::Display for WireFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a codec needs to know about where and for whom a hook runs.
#[derive(Debug, Clone, Copy)]
pub struct EncodeContext<'a> {
    /// The source the definition came from.
    pub source: &'a HookSourceId,
    /// The directory the registry places the source's hooks in (the project root for a
    /// project file, the file's folder for an explicit or user file).
    pub working_dir: &'a Path,
    /// The project root the firing belongs to, if any.
    pub project_dir: Option<&'a Path>,
    /// The user's configuration directory (Chrys's `${chrys_home}`).
    pub config_dir: Option<&'a Path>,
    /// The user's login shell (`$SHELL`), for formats that run shell commands through it.
    pub user_shell: Option<&'a str>,
    /// The embedding agent's version, for formats that pass one (`cursor_version`).
    pub agent_version: Option<&'a str>,
    /// Environment variables earlier hooks of the session asked to set (Cursor
    /// `sessionStart` `env`).
    pub session_env: &'a [(String, String)],
}

/// A format's hook protocol. Implementations are pure and cheap to call.
pub trait HookCodec: Send + Sync + fmt::Debug {
    /// The protocol's format.
    fn wire_format(&self) -> WireFormat;

    /// Builds what to run for `hook` on `envelope`.
    ///
    /// Errors are messages naming what could not be encoded (an envelope without the fields
    /// the native event requires); the dispatcher treats them as a failure of the hook.
    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, String>;

    /// Interprets the outcome of running `hook` on `envelope`, applying the format's exit
    /// code rules and the definition's failure policy.
    fn decode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict;

    /// Whether the format runs `hook` once per firing when several sources bind the same
    /// command to the event (Claude Code runs an identical handler from several settings
    /// files once). When it does, a matching binding whose command equals that of an earlier
    /// binding of the same format that ran is skipped as a duplicate. By default every
    /// binding runs.
    fn runs_once_per_command(&self, hook: &HookDefinition) -> bool {
        let _ = hook;
        false
    }

    /// Where `hook`'s command runs and which directories the variables the format sets for
    /// it stand for, as [`HookCodec::encode`] does it. The registry protects the files the
    /// command names from there (`specs/guard.md`). By default the hook runs in the
    /// placement ([`EncodeContext::working_dir`]) with no directory variable.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let _ = hook;
        HookLaunch::default()
    }
}
