//! The format descriptor: everything the engine knows about one hook format, declared by its
//! adapter crate and handed to the engine's core as data.
//!
//! A format is a plug-in. Its adapter crate implements [`FormatDescriptor`] once: its id, the
//! folders and files where its hook files live in each scope ([`FileLocation`]), how a file
//! is parsed ([`FormatDescriptor::parse`], sans-IO), its native event names
//! ([`NativeEvent`]), its codec, and the typed [`SourcePolicy`](crate::SourcePolicy) a file
//! may carry. Whoever builds the runtime registers the descriptors in a [`FormatSet`]; the
//! registry, sources, watcher, guard and dispatcher read that set and never name a format.
//! `specs/formats.md` explains the boundary and how to add a format.

mod location;
mod plugins;
mod set;

use std::{fmt, path::Path, sync::Arc};

pub use self::{
    location::{
        AgentFolder, AgentIndex, AgentLink, FileContent, FileLocation, FilePattern, FollowStep,
        Followed, FormatDirs, ManagedDir, Ownership, ProjectFolders, UserDir,
    },
    plugins::{
        PluginLayout, marketplace_hooks_run_by, plugin_hook_paths, plugin_hooks_run_by,
        replace_shell_variable,
    },
    set::{FormatSet, FormatSetError, UnknownFormat},
};
use crate::{
    EventRule, FileRole, FormatId, HookCodec, HookDefinition, HookDiagnostic, HookEvent,
    HookSourceId, HookSourceKind, HostCodec, InstallTarget, OtherFormatFiles, ParseResult,
    TrustDecision,
};

/// How strongly a format claims a file it is given by name (an explicit hook file, or a file
/// `hooks check` reads): the strongest claim wins, ties go to the format registered first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Claim {
    /// Not this format's file.
    No,
    /// Any file nobody else claims (Cursor's `hooks.json` is the seed's default).
    Fallback,
    /// The folder it is in says so (a `.json` in a folder named `hooks` is Chrys's).
    Folder,
    /// Its name says so (`*.yaml` is Chrys's, `settings*.json` Claude Code's).
    Name,
    /// Its folder and name together say so (`.gemini/settings.json` is Gemini CLI's, though
    /// `settings*.json` is Claude Code's by name).
    Path,
}

/// What a format's parser is told about the file besides its bytes.
#[derive(Debug, Clone, Copy)]
pub struct ParseContext<'a> {
    /// The file's path as found (its folder is the base of relative script paths).
    pub path: &'a Path,
    /// The kind of source being read: its scope (a format may honour a setting only in
    /// managed files, or only ever in the user's own) and its role.
    pub kind: HookSourceKind,
    /// Read under the format's strict contract, when it has one (Claude Code's deny-only
    /// contract); formats without one ignore it.
    pub strict: bool,
    /// For a file picked among names of a [`FilePattern::FirstOf`] folder: the other names of
    /// the group present in the folder, which it shadows. The parser may warn about them in
    /// its own words (Chrys's `shadowed_file`).
    pub shadows: &'a [&'static str],
    /// For a hook file that an agent folder's index led to ([`Followed::hooks`]): the folder
    /// its hooks belong to (a plugin's), from which the agent runs them or which it names in
    /// their variables. `None` for a file found by its own name: the format takes what it
    /// needs from the path.
    pub base: Option<&'a Path>,
}

impl<'a> ParseContext<'a> {
    /// A context for the file at `path` read as a source of `kind`, not strict, shadowing
    /// nothing, with no base.
    pub fn new(path: &'a Path, kind: HookSourceKind) -> ParseContext<'a> {
        ParseContext { path, kind, strict: false, shadows: &[], base: None }
    }

    /// This context with `base` as the folder the file's hooks belong to
    /// ([`ParseContext::base`]).
    pub fn with_base(self, base: Option<&'a Path>) -> ParseContext<'a> {
        ParseContext { base, ..self }
    }
}

/// One native event name of a format and the canonical event it maps onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NativeEvent {
    /// The name as the format's files and protocol spell it (`preToolUse`, `PreToolUse`,
    /// `before_tool_call`).
    pub name: &'static str,
    /// The canonical event; `None` for a capability gap (the event exists in the format but
    /// the engine has no counterpart: `specs/events.md`, "Gaps").
    pub canonical: Option<HookEvent>,
}

/// A format's table of [`NativeEvent`]s, made at compile time from its event enum's list of
/// every event (`$all`, a constant array of a `Copy` type): each element `$e` is named by
/// `$name` and mapped by `$canonical` (an `Option<HookEvent>`), in the list's order. For a
/// descriptor's [`FormatDescriptor::native_events`].
///
/// ```
/// use hooks_schema::{HookEvent, NativeEvent, native_events};
///
/// #[derive(Clone, Copy)]
/// enum Event { Before, Idle }
/// const ALL: [Event; 2] = [Event::Before, Event::Idle];
///
/// static EVENTS: [NativeEvent; ALL.len()] = native_events!(ALL, |e| match e {
///     Event::Before => "before",
///     Event::Idle => "idle",
/// }, match e {
///     Event::Before => Some(HookEvent::PreToolUse),
///     Event::Idle => None,
/// });
/// assert_eq!(EVENTS[0], NativeEvent { name: "before", canonical: Some(HookEvent::PreToolUse) });
/// assert_eq!(EVENTS[1].canonical, None);
/// ```
#[macro_export]
macro_rules! native_events {
    ($all:expr, |$e:ident| $name:expr, $canonical:expr $(,)?) => {{
        const N: usize = $all.len();
        let mut out = [$crate::NativeEvent { name: "", canonical: None }; N];
        let mut i = 0;
        while i < N {
            let $e = $all[i];
            out[i] = $crate::NativeEvent { name: $name, canonical: $canonical };
            i += 1;
        }
        out
    }};
}

/// One source of a format as a snapshot shows it, for [`FormatDescriptor::advisories`].
#[derive(Debug, Clone, Copy)]
pub struct SourceSummary<'a> {
    /// The source.
    pub id: &'a HookSourceId,
    /// Whether its definitions run somewhere.
    pub runs: bool,
    /// The trust decision in effect.
    pub trust: &'a TrustDecision,
    /// Whether it is a project source inert only for want of the user's opt-in to project
    /// hooks (it would be active with it).
    pub dormant: bool,
    /// Its accepted definitions, enabled or not.
    pub definitions: &'a [Arc<HookDefinition>],
}

/// Everything the engine knows about one hook format. Implemented once by each adapter
/// crate; object-safe, sans-IO (no method reads a file, the environment or the clock).
///
/// # Example
///
/// A format the engine should read from `.acme/hooks.json` in a project and
/// `~/.acme/hooks.json` for the user:
///
/// ```
/// use std::sync::Arc;
/// use hooks_schema::{
///     FileContent, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
///     FormatDirs, FormatId, HookCodec, NativeEvent, ParseContext, ParseResult, UserDir,
/// };
///
/// const ACME: FormatId = FormatId::new("acme");
/// const FILE: FileRole = FileRole::new(ACME, "acme_file", 900);
///
/// #[derive(Debug)]
/// struct Acme;
///
/// impl FormatDescriptor for Acme {
///     fn id(&self) -> FormatId { ACME }
///     fn agent(&self) -> &'static str { "Acme" }
///     fn dirs(&self) -> FormatDirs {
///         FormatDirs { user: Some(UserDir::under_home(".acme")), managed: None }
///     }
///     fn locations(&self) -> &[FileLocation] {
///         const L: [FileLocation; 2] = [
///             FileLocation::hooks(FILE, FileScope::Project, FilePattern::File(".acme/hooks.json")),
///             FileLocation::hooks(FILE, FileScope::User, FilePattern::File("hooks.json")),
///         ];
///         &L
///     }
///     fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
///         # let _ = (bytes, ctx);
///         Ok(Default::default())
///     }
///     fn events(&self) -> &[NativeEvent] { &[] }
///     fn codec(&self) -> Arc<dyn HookCodec> { Arc::new(AcmeCodec) }
/// }
/// # #[derive(Debug)] struct AcmeCodec;
/// # impl HookCodec for AcmeCodec {
/// #     fn wire_format(&self) -> FormatId { ACME }
/// #     fn encode(
/// #         &self,
/// #         hook: &hooks_schema::HookDefinition,
/// #         _: &hooks_schema::Envelope,
/// #         _: &hooks_schema::EncodeContext<'_>,
/// #     ) -> Result<hooks_schema::Invocation, hooks_schema::EncodeError> {
/// #         Err(hooks_schema::EncodeError::UnknownEvent { agent: "Acme", native: hook.native_event.clone() })
/// #     }
/// #     fn decode(
/// #         &self,
/// #         _: &hooks_schema::HookDefinition,
/// #         _: &hooks_schema::Envelope,
/// #         _: &hooks_schema::RawOutcome,
/// #     ) -> hooks_schema::HookVerdict {
/// #         hooks_schema::HookVerdict::no_opinion()
/// #     }
/// # }
/// # assert_eq!(Acme.id(), ACME);
/// ```
pub trait FormatDescriptor: Send + Sync + fmt::Debug {
    /// The format's id (`cursor`); unique in a [`FormatSet`].
    fn id(&self) -> FormatId;

    /// The agent whose format this is, for people (`Cursor`, `Claude Code`).
    fn agent(&self) -> &'static str;

    /// The folders the format's user and managed files are relative to.
    fn dirs(&self) -> FormatDirs;

    /// Every place the format's files live, in precedence order within each scope: the
    /// loader reads them in this order, the watcher watches their folders, and the guard
    /// protects them whether or not they exist yet.
    fn locations(&self) -> &[FileLocation];

    /// The folders whose files the agent itself loads and runs and the format's loader does
    /// not read (plugins, extensions: [`AgentFolder`]): the guard protects them whole. By
    /// default none.
    fn agent_folders(&self) -> &[AgentFolder] {
        &[]
    }

    /// The folder that the link file `bytes` of an entry of the agent folder `role`
    /// ([`AgentFolder::link`]) names, as written (an absolute path, or one relative to the
    /// folder the agent runs in); `None` when the file names none (it is not a link, or not
    /// one the agent would follow). Sans-IO: the caller reads the file. By default none.
    fn linked_folder(&self, role: FileRole, bytes: &[u8]) -> Option<String> {
        let _ = (role, bytes);
        None
    }

    /// The folders that the file `bytes`, read as `step`, names ([`AgentIndex`]: an index of
    /// the agent folder `role`, or a file a [`Followed`] led to), each with what decides what
    /// the agent runs from it and the files to read next. A file that names nothing, or that
    /// the agent would not read, yields nothing. Sans-IO: the caller reads the files, caps
    /// their size, the number of folders and how deep it follows. By default nothing.
    fn follow(&self, role: FileRole, step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
        let _ = (role, step, bytes);
        Vec::new()
    }

    /// The file names looked for, in order, in a folder named as an explicit source
    /// (`WARP_HOOK_DIRS`). Each name found is read in the format that claims it most
    /// strongly ([`FormatDescriptor::claim`]). By default the names of the format's project
    /// locations.
    fn explicit_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for l in self.locations().iter().filter(|l| l.scope == crate::FileScope::Project) {
            for n in l.pattern.file_names() {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        names
    }

    /// How strongly the format claims a file named directly (an explicit source given as a
    /// file, or a name in an explicit folder). By default [`Claim::No`].
    fn claim(&self, path: &Path) -> Claim {
        let _ = path;
        Claim::No
    }

    /// How strongly the format claims a file by its content, for tools that read files of an
    /// unknown format (`hooks check`) after no name claimed it. By default [`Claim::No`].
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let _ = bytes;
        Claim::No
    }

    /// Parses one file's bytes into definitions, diagnostics (with line and column) and the
    /// policy the file carries. A file the format rejects gives `Err` with the diagnostics
    /// explaining why; the registry then keeps the last valid parse in effect.
    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult;

    /// What a file of this format the reader refused (above the size cap, not a regular file,
    /// a dangling symlink, a loop, unreadable: `problem` says which) stands for under `ctx`.
    /// By default `None`: the refusal stays a read failure (no definitions from the file). A
    /// format whose strict contract reads such a file as malformed returns the source that
    /// contract gives it (Claude Code's deny-only contract fails closed).
    fn unreadable(&self, problem: HookDiagnostic, ctx: &ParseContext<'_>) -> Option<ParseResult> {
        let _ = (problem, ctx);
        None
    }

    /// Every native event name the format documents, mapped or marked as a gap.
    fn events(&self) -> &[NativeEvent];

    /// The canonical event of a native name; `None` for an unknown name or a gap.
    fn canonical_event(&self, native: &str) -> Option<HookEvent> {
        self.events().iter().find(|e| e.name == native).and_then(|e| e.canonical)
    }

    /// The native names of a canonical event, in the format's documentation order (several
    /// when the format narrows one canonical event, as Cursor's `beforeShellExecution` does).
    fn native_events(&self, event: HookEvent) -> Vec<&'static str> {
        self.events().iter().filter(|e| e.canonical == Some(event)).map(|e| e.name).collect()
    }

    /// The codec the format's definitions speak. Each parsed definition carries it (or a
    /// variant of it, such as a fail-closed codec); this one is for tools that encode without
    /// a file.
    fn codec(&self) -> Arc<dyn HookCodec>;

    /// Whether the agent runs the matching hooks of one gated event concurrently (Codex,
    /// Gemini CLI) rather than one after the other; the dispatcher then runs them in parallel
    /// and still folds their verdicts in binding order. By default false.
    fn concurrent_gated_hooks(&self) -> bool {
        false
    }

    /// Which firings this format's hooks run for besides their own event's
    /// ([`EventRule`]): canonical events they also run on, where the agent fires them for what
    /// other agents report otherwise (Gemini CLI runs its `AfterTool` hooks for a failed tool,
    /// which Claude Code reports as `PostToolUseFailure`: `(PostToolUse, ToolFailure)`), and
    /// whether the agent takes a shell command's non-zero exit for a failure of the tool
    /// (Claude Code). The dispatcher runs the format's hooks by it and its codec checks
    /// envelopes by the same rule ([`crate::checked_native`]). By default
    /// [`EventRule::OWN`]: its own events only.
    fn event_rule(&self) -> EventRule<'static> {
        EventRule::OWN
    }

    /// Which folders' project files the agent reads for a session started below the
    /// repository's root ([`ProjectFolders`]). By default the root's only.
    fn project_folders(&self) -> ProjectFolders {
        ProjectFolders::Root
    }

    /// Variables a hook command of this format may use to name the project root
    /// (`CLAUDE_PROJECT_DIR`), for tools that resolve the scripts a command runs.
    fn project_dir_vars(&self) -> &[&'static str] {
        &[]
    }

    /// Advisories about the format's sources taken together, which no single parse can give
    /// (Chrys's same-id warning between the project and the global file): called with the
    /// format's sources of one snapshot, in precedence order. Pure. By default none.
    fn advisories(&self, sources: &[SourceSummary<'_>]) -> Vec<HookDiagnostic> {
        let _ = sources;
        Vec::new()
    }

    /// Extension point (issue 20): how the agent of this format runs the engine as its own
    /// hook command, decoding its native hook input and encoding a folded verdict as its
    /// native answer. `None` until the format's host codec exists.
    fn host(&self) -> Option<&dyn HostCodec> {
        None
    }

    /// Other formats' hook files the agent of this format runs itself, besides its own
    /// (Cursor and Copilot CLI run Claude Code's settings files). `hooks bridge --host` skips
    /// these, and every file of the host's own format, so no hook runs twice. By default none.
    fn host_also_runs(&self) -> &[OtherFormatFiles] {
        &[]
    }

    /// Extension point (issue 20): where `hooks install` writes the engine's bridge into the
    /// agent's own configuration. Empty until the format declares its targets.
    fn install_targets(&self) -> &[InstallTarget] {
        &[]
    }

    /// What a file `hooks install` creates starts as (JSON text): `{}` by default (Cursor's
    /// needs `{"version": 1}`). `hooks install --uninstall` deletes a file left holding only
    /// this.
    fn install_new_file(&self) -> &'static str {
        "{}"
    }

    /// The entry registering `command` (the engine's bridge for this agent and `event`) in an
    /// install target: appended to the list under the file's `hooks` object named by the
    /// event's native name (`hooks.PreToolUse`). `None`: the bridge is not registered for
    /// that event. By default none.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        let _ = (event, command);
        None
    }

    /// Whether the format's own agent runs a file of this scope only once the user reviewed
    /// its content (Codex reviews every user and project hook). Such a file is inert, on every
    /// surface, until the user trusted its content with `hooks trust` or
    /// [`FormatDescriptor::agent_reviewed`] says the agent's own review covers it
    /// (`specs/trust-and-sources.md`, "The trust store as a gate"). Project files need the trust store
    /// under `hooks bridge` whatever this says. By default no scope.
    fn requires_review(&self, scope: crate::FileScope) -> bool {
        let _ = scope;
        false
    }

    /// Whether the agent's own record of reviewed hooks covers every hook of the file at
    /// `path` as parsed now (Codex's `[hooks.state]` trusted hashes), given the format's
    /// other files that run in the same place (`others`, in precedence order), where such a
    /// record lives. Pure. By default `false`.
    fn agent_reviewed(
        &self,
        path: &Path,
        parsed: &crate::ParsedSource,
        others: &[&crate::ParsedSource],
    ) -> bool {
        let _ = (path, parsed, others);
        false
    }

    /// The file, relative to the format's user folder, where the agent records the hooks its
    /// user reviewed (Codex's `config.toml` with `[hooks.state]`): `hooks install` records the
    /// bridge entries it wrote there as reviewed, so the agent runs them without asking, and
    /// `--uninstall` takes exactly those records out again. `None` (the default): the agent
    /// keeps no such record.
    fn install_review_file(&self) -> Option<&'static str> {
        None
    }

    /// The review record `record` (the text of [`FormatDescriptor::install_review_file`];
    /// `None` when it does not exist) with the hooks `trust` recorded as reviewed as they are
    /// parsed now and the records of the hooks `forget` taken out (only what a `trust` of
    /// them would have written), everything else kept as it was (comments, order,
    /// formatting). Pure. By default the record unchanged.
    ///
    /// # Errors
    /// When the record cannot be parsed or a value it must extend has another type.
    fn install_review(
        &self,
        record: Option<&str>,
        trust: &[&crate::HookDefinition],
        forget: &[&crate::HookDefinition],
    ) -> Result<String, ReviewRecordError> {
        let _ = (trust, forget);
        Ok(record.unwrap_or_default().to_owned())
    }
}

/// Why an agent's review record could not be updated ([`FormatDescriptor::install_review`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot update the review record: {0}")]
pub struct ReviewRecordError(pub String);

#[cfg(test)]
mod tests;
