//! The canonical hook model shared by every crate of the engine.
//!
//! This crate does no IO, spawns nothing and knows no file format. Format adapters
//! (`hooks-format-*`) describe their format with a [`FormatDescriptor`] (where its files
//! live, how they parse, its events, its codec and the [`SourcePolicy`] a file carries),
//! parse external files *into* these types and implement [`HookCodec`] to speak their
//! protocol; the registry, trust policy, dispatcher and guard work only with these types and
//! the [`FormatSet`] whoever builds the runtime registers.
//!
//! A crate that only needs to speak about hooks (an agent that builds events, a tool that
//! reads verdicts, a new format adapter) depends on this crate alone.
//!
//! # Guide
//!
//! ## Events and the envelope
//!
//! Every agent's lifecycle event maps onto one [`HookEvent`]; the facts of the moment travel
//! in an [`Envelope`] (versioned by [`ENVELOPE_SCHEMA`]), which the codecs translate into
//! each format's payload. Build one with [`Envelope::new`] and fill in what the host knows:
//!
//! ```
//! use hooks_schema::{Envelope, EventClass, HookEvent, ToolCall, ToolKind};
//! use serde_json::json;
//!
//! let mut envelope = Envelope::new(HookEvent::PreToolUse);
//! envelope.session_id = Some("session-1".to_owned());
//! envelope.cwd = Some("/work/project".into());
//! envelope.tool = Some(ToolCall {
//!     name: "Bash".to_owned(),
//!     kind: ToolKind::Shell,
//!     native_kind: None,
//!     call_id: Some("call-7".to_owned()),
//!     mcp_server: None,
//!     args: json!({ "command": "git push --force" }),
//! });
//!
//! // Gated events wait for the hooks' verdict before the agent goes on.
//! assert_eq!(envelope.event.class(), EventClass::Gated);
//! assert_eq!(envelope.tool_args(), Some(&json!({ "command": "git push --force" })));
//!
//! // The envelope is plain data: it round-trips through JSON (the serve protocol's form).
//! let text = serde_json::to_string(&envelope)?;
//! let back: Envelope = serde_json::from_str(&text)?;
//! assert_eq!(back, envelope);
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! ## Verdicts and how they fold
//!
//! Each hook's run becomes a [`HookVerdict`] (its codec applies the format's rules). The
//! verdicts of a blocking chain fold in chain order with [`ChainFold`]: the most restrictive
//! decision wins (`deny > ask > allow`) and names the hook that decided ([`Provenance`]: hook
//! id, file, line), rewrites of the tool's arguments apply in order, and a deny ends the
//! chain. [`apply_host_decision`] then combines the result with the host's own decision.
//!
//! ```
//! use hooks_schema::{
//!     AbsPathBuf, ArgRewrite, ChainFold, ChainStep, Decision, FileRole, FileScope, FormatId,
//!     HookEvent, HookId, HookSourceId, HookSourceKind, HookVerdict, Provenance, RelaxPolicy,
//!     apply_host_decision,
//! };
//! use serde_json::json;
//!
//! // Where a verdict came from: a hook of a project file, at a line.
//! const FORMAT: FormatId = FormatId::new("example");
//! const FILE: FileRole = FileRole::new(FORMAT, "hooks_file", 0);
//! let source = HookSourceId::new(
//!     HookSourceKind::file(FileScope::Project, FILE),
//!     AbsPathBuf::new("/work/project/.example/hooks.json".into())?,
//! );
//! let hook = |id: &str, line| -> Result<Provenance, hooks_schema::SchemaError> {
//!     Ok(Provenance { hook_id: HookId::new(id)?, source: source.clone(), line: Some(line) })
//! };
//!
//! let mut fold =
//!     ChainFold::for_event(HookEvent::PreToolUse, Some(json!({ "command": "git push --force" })));
//!
//! // The first hook rewrites the command; the next hook sees the rewritten arguments.
//! let mut rewrite = HookVerdict::decided(Decision::Allow, None);
//! rewrite.rewrite = Some(ArgRewrite::Replace(json!({ "command": "git push --force-with-lease" })));
//! assert_eq!(fold.push(rewrite, &hook("lease", 3)?), ChainStep::Continue);
//! assert_eq!(fold.current_args(), Some(&json!({ "command": "git push --force-with-lease" })));
//!
//! // A second hook asks; a third denies, which ends the chain.
//! fold.push(HookVerdict::decided(Decision::Ask, Some("pushes need a look".into())), &hook("review", 9)?);
//! let deny = HookVerdict::decided(Decision::Deny, Some("no pushes on Fridays".into()));
//! assert_eq!(fold.push(deny, &hook("friday", 14)?), ChainStep::ShortCircuit);
//! assert!(fold.is_short_circuited());
//!
//! let folded = fold.finish();
//! assert_eq!(folded.decision, Some(Decision::Deny));
//! assert_eq!(folded.reason.as_deref(), Some("no pushes on Fridays"));
//! let by = folded.decided_by.as_ref().expect("a hook decided");
//! assert_eq!((by.hook_id.as_str(), by.line), ("friday", Some(14)));
//!
//! // Hooks only make the host's decision stricter unless the host relaxes that rule.
//! let host = Decision::Allow;
//! assert_eq!(apply_host_decision(host, folded.decision, RelaxPolicy::Never), Decision::Deny);
//! # Ok::<(), hooks_schema::SchemaError>(())
//! ```
//!
//! ## Formats
//!
//! A format plugs in through a [`FormatDescriptor`]: it names its files ([`FileRole`],
//! [`FileLocation`]), parses bytes into a [`ParseResult`] of [`HookDefinition`]s and
//! [`HookDiagnostic`]s, and gives each definition a [`HookCodec`] that turns an envelope into
//! an [`Invocation`] and a [`RawOutcome`] back into a [`HookVerdict`]. A [`FormatSet`] holds
//! the formats a runtime reads.
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
mod http;
mod ids;
mod launch;
mod matcher;
mod parsed;
mod policy;
mod process;
mod revision;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod trust;
mod verdict;

pub use crate::{
    binding::Binding,
    codec::{
        EncodeContext, EncodeError, EventRule, HookCodec, PayloadError, checked_native, json_stdin,
    },
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
        AgentFolder, AgentIndex, AgentLink, Claim, FileContent, FileLocation, FilePattern,
        FollowStep, Followed, FormatDescriptor, FormatDirs, FormatSet, FormatSetError, ManagedDir,
        NativeEvent, Ownership, ParseContext, PluginLayout, ProjectFolders, ReviewRecordError,
        SourceSummary, UnknownFormat, UserDir, marketplace_hooks_run_by, plugin_hook_paths,
        plugin_hooks_run_by, replace_shell_variable,
    },
    host::{
        EDITED_PATH_ARGS, HostAnswer, HostCodec, HostError, HostInput, InstallTarget,
        MCP_PATH_ARGS, MCP_READ_VERBS, MCP_WRITE_VERBS, OtherFormatFiles, claude_shaped,
        edited_paths_from_args, get_str, host_runs, joined_texts, json_answer, json_object,
        object_naming_its_event, patch_paths, reason_with_provenance, take_bool, take_str,
        take_u64,
    },
    http::{HttpHook, interpolate, redact_url},
    ids::{
        AbsPathBuf, ExplicitScope, FileRole, FileScope, FormatId, HOOK_ID_MAX_CHARS, HookId,
        HookSourceId, HookSourceKind, SourceKey, SourceOwner, SourceScope,
    },
    launch::{HookLaunch, LaunchDir},
    matcher::{MatchPredicate, Matcher},
    parsed::{ParseResult, ParsedSource},
    policy::{DisabledNames, Pick, PolicySwitch, RunSettings, SourcePolicy, SwitchRule},
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
