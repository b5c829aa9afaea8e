//! The protocol boundary between a format adapter and the process runner.
//!
//! An adapter's codec is pure: [`HookCodec::encode`] turns an envelope into an
//! [`Invocation`] (what to run, with which stdin, environment and files) and
//! [`HookCodec::decode`] turns the [`RawOutcome`] of running it into a [`HookVerdict`].
//! Only `hooks-dispatch` spawns processes.

use std::{fmt, path::Path, sync::Arc};

use crate::{
    Envelope, FormatId, HookDefinition, HookEvent, HookLaunch, HookSourceId, HookVerdict,
    Invocation, RawOutcome,
};

/// Why a codec could not build a hook's invocation. The dispatcher treats it as a failure
/// of the hook (it never starts), applying the hook's failure policy.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The definition's native event is not one the codec speaks.
    #[error("`{native}` is not a {agent} event")]
    UnknownEvent {
        /// The agent whose protocol the codec speaks (`Claude Code`).
        agent: &'static str,
        /// The native event name.
        native: String,
    },
    /// The envelope is for another event than the definition.
    #[error("the envelope is for `{envelope}` but the hook is for `{hook}`")]
    EventMismatch {
        /// The envelope's event.
        envelope: HookEvent,
        /// The definition's event.
        hook: HookEvent,
    },
    /// The hook input could not be built from the envelope (it lacks what the native event
    /// needs), with why.
    #[error("{0}")]
    Payload(String),
    /// The hook input could not be built from the envelope, typed.
    #[error(transparent)]
    Input(#[from] PayloadError),
    /// The codec refuses to run the definition (a source that failed closed), with why.
    #[error("{0}")]
    Refused(String),
    /// The definition is an HTTP hook, which the agent whose protocol the codec speaks does
    /// not have.
    #[error("{agent} has no http hooks")]
    NoHttpHooks {
        /// The agent (`Gemini CLI`).
        agent: &'static str,
    },
    /// The adapter's own error.
    #[error(transparent)]
    Adapter(Arc<dyn std::error::Error + Send + Sync>),
}

/// Why an envelope cannot become a format's hook input: it lacks what the native event's
/// input carries ([`EncodeError::Input`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PayloadError {
    /// A firing of `event` carries no `part` (`the envelope of a PreToolUse firing has no
    /// tool call`).
    #[error("the envelope of a {event} firing has no {part}")]
    Missing {
        /// The native event.
        event: String,
        /// What it lacks.
        part: &'static str,
    },
    /// The same, worded as the format's own messages (`before_tool_call needs a tool call in
    /// the envelope`).
    #[error("{event} needs {part} in the envelope")]
    Needs {
        /// The native event.
        event: String,
        /// What it lacks, with its article.
        part: &'static str,
    },
    /// A part of the envelope lacks a field the input needs (`the shell tool call has no
    /// command`).
    #[error("the {whole} has no {part}")]
    Lacks {
        /// The part of the envelope.
        whole: &'static str,
        /// The field.
        part: &'static str,
    },
    /// The native event has no canonical counterpart, so no envelope fires it.
    #[error("`{event}` has no canonical counterpart")]
    NoCanonical {
        /// The native event.
        event: String,
    },
    /// The envelope is for another native event than the hook's.
    #[error("envelope event {envelope} is not the hook's event {hook}")]
    OtherEvent {
        /// The envelope's event.
        envelope: String,
        /// The hook's native event.
        hook: String,
    },
}

impl EncodeError {
    /// Wraps an adapter's own error.
    pub fn adapter(e: impl std::error::Error + Send + Sync + 'static) -> EncodeError {
        EncodeError::Adapter(Arc::new(e))
    }
}

/// Which firings a format's hooks run for besides their own event's, as its descriptor
/// declares them ([`crate::FormatDescriptor::event_rule`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventRule<'a> {
    /// `(hook's event, firing's event)`: a hook bound to the first also runs for the second.
    pub also_runs_on: &'a [(HookEvent, HookEvent)],
    /// A shell command's non-zero exit is a failure of the tool for this format: its failure
    /// hooks run for it and not its post-tool hooks ([`Envelope::event_for`]).
    pub shell_exit_is_failure: bool,
}

impl EventRule<'_> {
    /// A hook bound to its own event only, shell exits as the firing says.
    pub const OWN: EventRule<'static> =
        EventRule { also_runs_on: &[], shell_exit_is_failure: false };

    /// Whether a hook bound to `bound` runs for `envelope`: the firing's event as this format
    /// sees it ([`Envelope::event_for`]) is `bound`, or one it also runs `bound`'s hooks on.
    pub fn fires(&self, bound: HookEvent, envelope: &Envelope) -> bool {
        let event = envelope.event_for(self.shell_exit_is_failure);
        event == bound || self.also_runs_on.contains(&(bound, event))
    }
}

/// The first step of a codec's [`HookCodec::encode`]: `hook`'s native event as the codec
/// read it (`native`; `None` for a name `agent`'s protocol does not have), and `envelope`
/// checked to be a firing the hook runs for by its format's `rule` ([`EventRule::fires`]).
/// Each format's codec tests cover both refusals.
pub fn checked_native<N>(
    agent: &'static str,
    hook: &HookDefinition,
    envelope: &Envelope,
    native: Option<N>,
    rule: EventRule<'_>,
) -> Result<N, EncodeError> {
    let native = native
        .ok_or_else(|| EncodeError::UnknownEvent { agent, native: hook.native_event.clone() })?;
    if !rule.fires(hook.event, envelope) {
        return Err(EncodeError::EventMismatch { envelope: envelope.event, hook: hook.event });
    }
    Ok(native)
}

/// A hook input document as the bytes a codec writes on the hook's stdin (compact JSON).
pub fn json_stdin(body: &serde_json::Value) -> Result<Vec<u8>, EncodeError> {
    serde_json::to_vec(body)
        .map_err(|e| EncodeError::Payload(format!("cannot encode the hook input: {e}")))
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
    /// The format whose protocol it speaks.
    fn wire_format(&self) -> FormatId;

    /// Builds what to run for `hook` on `envelope`.
    ///
    /// An error names what could not be encoded (an envelope without the fields the native
    /// event requires); the dispatcher treats it as a failure of the hook.
    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError>;

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

    /// What else than its command tells `hook` apart from another for
    /// [`HookCodec::runs_once_per_command`]: two bindings are duplicates only when this is
    /// equal too (Gemini CLI's key is the hook's `name` and its command). By default nothing.
    fn run_once_name<'h>(&self, hook: &'h HookDefinition) -> &'h str {
        let _ = hook;
        ""
    }

    /// Where `hook`'s command runs and which directories the variables the format sets for
    /// it stand for, as [`HookCodec::encode`] does it. The registry protects the files the
    /// command names from there (`specs/guard.md`). By default the hook runs in the
    /// placement ([`EncodeContext::working_dir`]) with no directory variable.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let _ = hook;
        HookLaunch::default()
    }

    /// The name by which files of the format switch `hook` off across sources
    /// ([`crate::SourcePolicy::disables`]: Gemini CLI's `hooksConfig.disabled` names a hook
    /// by its `name`, else its command). `None` (the default): no file can name it.
    fn disable_name(&self, hook: &HookDefinition) -> Option<String> {
        let _ = hook;
        None
    }
}
