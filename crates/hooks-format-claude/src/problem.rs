//! The crate's error type: every problem the adapter can find in a settings document.
//!
//! Each problem becomes a [`HookDiagnostic`](hooks_schema::HookDiagnostic) with a stable code;
//! in strict mode most of them are contract violations that make the source fail closed.

use crate::matcher::MatcherError;

/// A problem found in a Claude Code settings document.
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
    /// The strict contract's `hooks` section is larger than its cap.
    #[error("the `hooks` section is {size} bytes, above the strict contract's cap of {cap} bytes")]
    HooksTooLarge {
        /// The section's size.
        size: usize,
        /// The cap.
        cap: usize,
    },
    /// The document is not JSON.
    #[error("invalid JSON: {message}")]
    Syntax {
        /// What the reader expected.
        message: String,
    },
    /// A subagent's, skill's or command's front matter is not YAML the reader accepts.
    #[error("invalid front matter (YAML): {message}")]
    FrontMatterSyntax {
        /// What is wrong.
        message: String,
    },
    /// The document is not a JSON object.
    #[error("the settings document is {found}, not an object")]
    RootNotObject {
        /// The type found.
        found: &'static str,
    },
    /// `hooks` is not an object.
    #[error("`hooks` is {found}, not an object")]
    HooksNotObject {
        /// The type found.
        found: &'static str,
    },
    /// The strict contract has no version.
    #[error("the strict contract requires `hooks.version`; this engine supports version 1")]
    MissingVersion,
    /// A version other than the supported one.
    #[error("unsupported hooks contract version {found}; this engine supports version 1")]
    UnsupportedVersion {
        /// The version as written.
        found: String,
    },
    /// A key the format does not define.
    #[error("unknown key `{key}` in {place}")]
    UnknownKey {
        /// The key.
        key: String,
        /// Where it was found.
        place: &'static str,
    },
    /// A key that looks like it holds a credential.
    #[error("credential-looking key `{key}` is not allowed in hook configuration")]
    Credential {
        /// The key.
        key: String,
    },
    /// The same key twice in one object.
    #[error("duplicate key `{key}`; the last one wins")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// An event name Claude Code does not define.
    #[error("unknown event `{name}`; its hooks are skipped")]
    UnknownEvent {
        /// The name.
        name: String,
    },
    /// A Claude Code event with no canonical counterpart.
    #[error("event `{name}` has no canonical counterpart in this engine; its hooks are skipped")]
    EventGap {
        /// The name.
        name: String,
    },
    /// A value of the wrong type.
    #[error("`{key}` must be {expected}, found {found}")]
    WrongType {
        /// The key.
        key: String,
        /// The expected type.
        expected: &'static str,
        /// The type found.
        found: &'static str,
    },
    /// A matcher or `if` rule that does not compile.
    #[error("{0}; the group is skipped")]
    Matcher(#[from] MatcherError),
    /// A handler's `if` rule that does not parse.
    #[error("{0}; the handler is skipped")]
    IfRule(MatcherError),
    /// A handler type other than `command`.
    #[error(
        "handler type `{kind}` is not supported (only `command` and `http` are); the handler is skipped"
    )]
    HandlerGap {
        /// The type.
        kind: String,
    },
    /// A handler type Claude Code does not define.
    #[error("unknown handler type `{kind}`; the handler is skipped")]
    UnknownHandlerType {
        /// The type.
        kind: String,
    },
    /// An `http` handler whose `url` is not a URL (the value is not shown: it may hold
    /// credentials).
    #[error("`url` must be an absolute URL; the handler is skipped")]
    InvalidUrl,
    /// A command handler without a command.
    #[error("`command` is missing or empty; the handler is skipped")]
    MissingCommand,
    /// A timeout Claude Code's schema refuses: not positive, or not finite.
    #[error("timeout of {seconds} s is not a positive number of seconds; the handler is skipped")]
    Timeout {
        /// The timeout as written.
        seconds: f64,
    },
    /// A `shell` other than the two Claude Code defines.
    #[error(
        "`shell` must be `bash` or `powershell`, found {}",
        hooks_schema::quoted_value("another string", &format!("`{found}`"))
    )]
    Shell {
        /// The value.
        found: String,
    },
    /// An `onFailure` value other than `continue` or `block`.
    #[error(
        "`onFailure` must be `continue` or `block`, found {}",
        hooks_schema::quoted_value("another string", &format!("`{found}`"))
    )]
    OnFailure {
        /// The value.
        found: String,
    },
    /// A strict handler whose command only a shell could run.
    #[error(
        "the strict contract spawns handlers directly, never through a shell, and `command` needs one ({why}); name the program in `command` and its arguments in `args`"
    )]
    NeedsShell {
        /// What in the command needs a shell (never the command itself, which may hold secrets).
        why: String,
    },
    /// An async handler on a gated event of a strict source: it could never deny.
    #[error("an async hook cannot gate `{event}` under the strict contract")]
    AsyncGate {
        /// The native event.
        event: String,
    },
}

impl ConfigProblem {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigProblem::TooLarge { .. } | ConfigProblem::HooksTooLarge { .. } => "too_large",
            ConfigProblem::Syntax { .. } => "invalid_json",
            ConfigProblem::FrontMatterSyntax { .. } => "invalid_front_matter",
            ConfigProblem::RootNotObject { .. } => "invalid_settings",
            ConfigProblem::HooksNotObject { .. } => "invalid_hooks",
            ConfigProblem::MissingVersion => "missing_version",
            ConfigProblem::UnsupportedVersion { .. } => "unsupported_version",
            ConfigProblem::UnknownKey { .. } => "unknown_key",
            ConfigProblem::Credential { .. } => "credential_field",
            ConfigProblem::DuplicateKey { .. } => "duplicate_key",
            ConfigProblem::UnknownEvent { .. } => "unknown_event",
            ConfigProblem::EventGap { .. } | ConfigProblem::HandlerGap { .. } => "capability_gap",
            ConfigProblem::WrongType { .. }
            | ConfigProblem::OnFailure { .. }
            | ConfigProblem::Shell { .. }
            | ConfigProblem::InvalidUrl => "invalid_value",
            ConfigProblem::Matcher(_) | ConfigProblem::IfRule(_) => "invalid_matcher",
            ConfigProblem::UnknownHandlerType { .. } | ConfigProblem::MissingCommand => {
                "invalid_handler"
            }
            ConfigProblem::Timeout { .. } => "invalid_timeout",
            ConfigProblem::AsyncGate { .. } => "async_gate",
            ConfigProblem::NeedsShell { .. } => "needs_shell",
        }
    }
}
