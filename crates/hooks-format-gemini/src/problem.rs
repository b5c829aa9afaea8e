//! Every problem the adapter can find in a settings document, each with a stable
//! diagnostic code and the consequence Gemini CLI gives it.

/// A problem found in a Gemini CLI settings document.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigProblem {
    /// The document is larger than the adapter reads.
    #[error("the file is {size} bytes, above the cap of {cap} bytes")]
    TooLarge {
        /// The document's size.
        size: usize,
        /// The cap.
        cap: usize,
    },
    /// Not JSON after comments are removed: Gemini CLI refuses to start.
    #[error("invalid JSON: {message}; Gemini CLI refuses to start with this file")]
    Syntax {
        /// What the reader expected.
        message: String,
    },
    /// The document is not a JSON object: Gemini CLI refuses to start.
    #[error(
        "Settings file is not a valid JSON object (it is {found}); Gemini CLI refuses to start with this file"
    )]
    RootNotObject {
        /// The type found.
        found: &'static str,
    },
    /// `hooks` is not an object.
    #[error("`hooks` is {found}, not an object; none of it runs")]
    HooksNotObject {
        /// The type found.
        found: &'static str,
    },
    /// The same key twice in one object.
    #[error("duplicate key `{key}`; the last one wins")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// A key of `hooks` that is no Gemini CLI event.
    #[error("Invalid hook event name: \"{name}\"; its hooks are skipped")]
    UnknownEvent {
        /// The name.
        name: String,
    },
    /// A Gemini CLI event with no canonical counterpart.
    #[error("event `{name}` has no canonical counterpart in this engine; its hooks are skipped")]
    EventGap {
        /// The name.
        name: String,
    },
    /// A value of the wrong type that makes Gemini CLI skip what holds it.
    #[error("`{key}` must be {expected}, found {found}; {consequence}")]
    WrongType {
        /// The key.
        key: String,
        /// The expected type.
        expected: &'static str,
        /// The type found.
        found: &'static str,
        /// What Gemini CLI does about it.
        consequence: &'static str,
    },
    /// A matcher on a tool or trigger event that is not a string: Gemini CLI's planner
    /// throws on it.
    #[error(
        "`matcher` must be a string, found {found}; Gemini CLI then runs no hook of this event, this engine skips the group"
    )]
    MatcherType {
        /// The type found.
        found: &'static str,
    },
    /// A matcher above the length cap.
    #[error("matcher is longer than {cap} bytes; the group is skipped")]
    MatcherTooLong {
        /// The cap.
        cap: usize,
    },
    /// A handler type Gemini CLI does not run from settings files.
    #[error(
        "handler type `{kind}` is not one Gemini CLI runs from a settings file; the handler is skipped"
    )]
    HandlerType {
        /// The type.
        kind: String,
    },
    /// A handler without a `type`.
    #[error("`type` is missing; Gemini CLI discards the handler")]
    MissingType,
    /// A `command` handler without a usable command.
    #[error("`command` is missing or empty; the handler is skipped")]
    MissingCommand,
    /// A `command` that is not a string: Gemini CLI starts it and fails.
    #[error(
        "`command` must be a string, found {found}; Gemini CLI fails this hook every time, so it is skipped"
    )]
    CommandType {
        /// The type found.
        found: &'static str,
    },
    /// An environment entry Node refuses (a NUL byte): Gemini CLI fails the hook.
    #[error(
        "`env` entry `{key}` holds a NUL byte; Gemini CLI fails this hook every time, so it is skipped"
    )]
    EnvNul {
        /// The variable.
        key: String,
    },
}

impl ConfigProblem {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigProblem::TooLarge { .. } => "too_large",
            ConfigProblem::Syntax { .. } => "invalid_json",
            ConfigProblem::RootNotObject { .. } => "invalid_settings",
            ConfigProblem::HooksNotObject { .. } => "invalid_hooks",
            ConfigProblem::DuplicateKey { .. } => "duplicate_key",
            ConfigProblem::UnknownEvent { .. } => "unknown_event",
            ConfigProblem::EventGap { .. } => "capability_gap",
            ConfigProblem::WrongType { .. } => "invalid_value",
            ConfigProblem::MatcherType { .. } | ConfigProblem::MatcherTooLong { .. } => {
                "invalid_matcher"
            }
            ConfigProblem::HandlerType { .. }
            | ConfigProblem::MissingType
            | ConfigProblem::MissingCommand
            | ConfigProblem::CommandType { .. }
            | ConfigProblem::EnvNul { .. } => "invalid_handler",
        }
    }
}
