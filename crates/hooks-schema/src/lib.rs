//! The canonical hook model shared by every crate of the engine.
//!
//! This crate does no IO, spawns nothing and knows no file format. Format adapters
//! (`hooks-format-*`) describe their format with a [`FormatDescriptor`] (where its files
//! live, how they parse, its events, its codec and the [`SourcePolicy`] a file carries),
//! parse external files *into* these types and implement [`HookCodec`] to speak their
//! protocol; the registry, trust policy, dispatcher and guard work only with these types and
//! the [`FormatSet`] whoever builds the runtime registers.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod binding;
mod codec;
mod definition;
mod diagnostic;
mod envelope;
mod error;
mod event;
mod format;
mod host;
mod ids;
mod launch;
mod matcher;
mod parsed;
mod policy;
mod process;
mod revision;
mod trust;
mod verdict;

pub use crate::{
    binding::Binding,
    codec::{EncodeContext, EncodeError, HookCodec},
    definition::{
        Delivery, ExecutionMode, HookCommand, HookDefinition, NO_TIMEOUT, OnFailure,
        timeout_from_secs,
    },
    diagnostic::{HookDiagnostic, Severity, quoted_value},
    envelope::{
        AgentText, Approval, Compaction, ENVELOPE_SCHEMA, Envelope, Notification, Prompt,
        SessionInfo, StopInfo, Subagent, ToolCall, ToolKind, ToolResult, TurnInfo, WorkflowRun,
    },
    error::SchemaError,
    event::{EventClass, HookEvent},
    format::{
        Claim, FileContent, FileLocation, FilePattern, FormatDescriptor, FormatDirs, FormatSet,
        ManagedDir, NativeEvent, ParseContext, SourceSummary, UnknownFormat, UserDir,
    },
    host::{HostAnswer, HostCodec, HostError, HostInput, InstallTarget},
    ids::{
        AbsPathBuf, ExplicitScope, FileRole, FileScope, FormatId, HOOK_ID_MAX_CHARS, HookId,
        HookSourceId, HookSourceKind, SourceKey, SourceOwner, SourceScope,
    },
    launch::{HookLaunch, LaunchDir},
    matcher::{MatchPredicate, Matcher},
    parsed::{ParseResult, ParsedSource},
    policy::{PolicySwitch, RunSettings, SourcePolicy, SwitchRule},
    process::{
        CapturedOutput, ExitInfo, Invocation, Program, ProvidedFile, ProvidedFileRole, RawOutcome,
        SpawnFailure, SpawnFailureKind,
    },
    revision::{Generation, Revision},
    trust::TrustDecision,
    verdict::{
        ArgRewrite, ChainFold, ChainStep, Decision, FoldedVerdict, HookVerdict, Provenance,
        RelaxPolicy, apply_host_decision, honours_output_rewrite,
    },
};
