//! `hooks bridge --host <agent>`: the engine as an agent's own hook command.
//!
//! The agent (the *host*) starts one bridge process per hook event and writes its native hook
//! input on stdin. The bridge decodes it with the host's codec (the format descriptor's
//! [`host()`](hooks_schema::FormatDescriptor::host)), loads every hook file of every
//! registered format that applies to the session's directory in one batch (no watcher), runs
//! the matching hooks through the dispatcher and answers in the host's own protocol: stdout
//! JSON and an exit code, the reason naming the hook, its file and line.
//!
//! - Files the host runs itself (its own format's, and the ones its descriptor lists in
//!   [`host_also_runs`](hooks_schema::FormatDescriptor::host_also_runs)) are loaded inert:
//!   protected by the guard, never run twice.
//! - A hook whose command is itself a bridge call ([`is_bridge_call`]) never runs (no
//!   recursion when a file the bridge is installed in is also read by another format).
//! - The first event of a session pins the files and their contents ([`pin`]); later events
//!   of that session run the pinned set, whatever changed on disk since.
//! - On a pre-tool call that writes files, the guard refuses edits of protected hook files and
//!   the scripts they run, of every format, before any hook runs.
//! - Project files run only when the user's trust store says the user trusted them as they
//!   are now: the runtime's own gate ([`crate::trust::StoreGatedPolicy`]), which also
//!   honours an agent's own review of its files (Codex's `[hooks.state]`).
//!
//! Whatever goes wrong inside the bridge, it answers with exit code 0 and nothing on stdout
//! (the host goes on as without hooks) and says why on stderr: Copilot CLI denies every tool
//! on any other exit code, Gemini CLI on most (`specs/bridge.md`).

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use hooks_dispatch::DispatchConfig;
use hooks_guard::GuardDecision;
use hooks_registry::{HookRegistry, SourceUpdate};
use hooks_schema::{
    AbsPathBuf, Decision, FileContent, FileScope, FoldedVerdict, FormatDescriptor, FormatSet,
    HookCommand, HookSourceId, HookSourceKind, HostAnswer, HostError, HostInput, ParseContext,
    TrustDecision, host_runs,
};
use hooks_sources::{FoundFile, ManagedDirs, ScopeDirs, UserDirs, find_files, found_paths};
use hooks_trust::{CommandExecutionPosture, Surface, TrustPolicy};

use crate::runtime::{HookRuntime, RuntimeConfig};

pub mod pin;

pub use self::pin::{PinStore, PinnedFile, PinnedSet};

/// Everything one bridge run needs besides the input.
pub struct BridgeConfig {
    /// The registered formats; the host is one of them.
    pub formats: FormatSet,
    /// The host's format id (`claude`).
    pub host: String,
    /// Where the user's own files live (`None`: none are read).
    pub user_dirs: Option<UserDirs>,
    /// Where managed files live (`None`: none are read).
    pub managed_dirs: Option<ManagedDirs>,
    /// Where session pins are kept (`None`: nothing is pinned across processes).
    pub pins: Option<PinStore>,
    /// The trust gate: the trust table (applied as for a CLI run that auto-approves, so
    /// project rows are active) with the user's trust store over it for every project file
    /// and for files their own agent reviews (Codex's, where Codex's own review also counts):
    /// the same [`StoreGatedPolicy`](crate::trust::StoreGatedPolicy) the in-process runtime
    /// decides files with, asked for [`StoreNeed::ProjectFiles`](crate::trust::StoreNeed).
    pub trust: Arc<crate::trust::StoreGatedPolicy>,
    /// The directory the bridge process runs in (used when the input names none).
    pub process_cwd: PathBuf,
    /// The user's home (`~` in edited paths and hook commands).
    pub home_dir: Option<PathBuf>,
    /// Where variables move the user's shell start-up files, protected there too.
    pub shell_startup: crate::trust::ShellStartupDirs,
    /// Chrys's config folder (`${chrys_home}`).
    pub config_dir: Option<PathBuf>,
    /// The user's login shell.
    pub user_shell: Option<String>,
    /// How hooks run (the engine's runtime directory for detached hooks and the outbox).
    pub dispatch: DispatchConfig,
    /// How long asynchronous hooks may go on after the answer is known.
    pub drain_grace: Duration,
    /// The user's trust store file, protected from the agent's edits with its folder.
    pub trust_store: Option<PathBuf>,
    /// The user's own opt-in to project hooks (Chrys's `project.hooks_enabled`), which a
    /// Chrys project file needs besides the trust store.
    pub user_opt_in: bool,
}

impl BridgeConfig {
    /// The host's descriptor.
    pub fn host_descriptor(&self) -> Option<&Arc<dyn FormatDescriptor>> {
        self.formats.named(&self.host).ok()
    }
}

/// What one bridge run did, for the command (and tests): the answer, and what was loaded.
#[derive(Debug)]
pub struct BridgeOutcome {
    /// The answer for the host.
    pub answer: HostAnswer,
    /// The decoded input (`None` when it did not decode).
    pub input: Option<HostInput>,
    /// The folded verdict the answer encodes.
    pub verdict: FoldedVerdict,
    /// The files loaded (pinned or read), each with whether it ran and why.
    pub files: Vec<PinnedFile>,
    /// Whether the set came from an earlier event's pin.
    pub from_pin: bool,
    /// Hooks that ran.
    pub ran: usize,
    /// Warnings for stderr.
    pub warnings: Vec<String>,
    /// The runtime that ran the event, handed back so that its teardown comes after the
    /// answer: dropped with the outcome, or left to the process's exit by a one-shot
    /// ([`Kept::leave_to_exit`]).
    pub engine: Kept,
}

/// The engine of one bridge run (its hook runtime and async runtime), kept past the answer.
#[derive(Default)]
pub struct Kept(Option<(HookRuntime, Option<tokio::runtime::Runtime>)>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Kept(engine)" } else { "Kept(none)" })
    }
}

impl Kept {
    /// Leaves the engine to the process's exit, for a one-shot process that has written its
    /// answer and exits next: its memory is not freed one allocation at a time, and what hooks
    /// left running is ended by the reaper when the process ends (the dispatcher's own drop
    /// would kill it just before; `specs/dispatch.md`, "When the engine process dies: the
    /// reaper"), so the agent, which waits for the exit, does not wait for the teardown.
    ///
    /// The runs' provided files (a payload file holds the tool's input) whose deletion was
    /// left to the runtime's blocking pool are deleted first: the pool's threads die with the
    /// process.
    pub fn leave_to_exit(self) {
        hooks_dispatch::finish_deletions();
        std::mem::forget(self);
    }
}

fn fail_open(warning: String) -> BridgeOutcome {
    BridgeOutcome {
        answer: HostAnswer {
            stderr: format!("hooks bridge: {warning}\n").into_bytes(),
            ..HostAnswer::default()
        },
        input: None,
        verdict: FoldedVerdict::default(),
        files: Vec::new(),
        from_pin: false,
        ran: 0,
        warnings: vec![warning],
        engine: Kept::default(),
    }
}

/// Whether a hook's command is itself a bridge call (`… hooks bridge --host …`): such a hook
/// never runs under the bridge, so a file the bridge is installed in that another format also
/// reads cannot make the bridge start itself.
///
/// ```
/// use hooks_app::bridge::is_bridge_call;
/// use hooks_schema::HookCommand;
///
/// let sh = |s: &str| HookCommand::Shell { script: s.into(), shell: None };
/// assert!(is_bridge_call(&sh("/usr/local/bin/hooks bridge --host claude --event PreToolUse")));
/// assert!(!is_bridge_call(&sh("./scripts/bridge.sh --hostname x")));
/// ```
pub fn is_bridge_call(command: &HookCommand) -> bool {
    let words: Vec<&str> = match command {
        HookCommand::Shell { script, .. } => {
            script.split(|c: char| c.is_whitespace() || c == '"' || c == '\'').collect()
        }
        HookCommand::Exec { program, args } => {
            std::iter::once(program.as_str()).chain(args.iter().map(String::as_str)).collect()
        }
        #[allow(unreachable_patterns)]
        _ => return false,
    };
    let Some(at) = words.iter().position(|w| *w == "bridge") else { return false };
    words[at + 1..].iter().any(|w| *w == "--host" || w.starts_with("--host="))
}

/// Why an agent's own hook input could not be read as an event (`hooks fire --from`, the
/// serve `fire` request with `from`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NativeInputError {
    /// No registered format has that id.
    #[error(transparent)]
    UnknownAgent(#[from] hooks_schema::UnknownFormat),
    /// The format has no host codec, so its agent's input cannot be read.
    #[error("the format `{0}` has no host codec: its agent's hook input cannot be read")]
    NoHostCodec(String),
    /// The event asked for is neither canonical nor one of the agent's.
    #[error("`{event}` is neither a canonical event nor an event of {agent}")]
    UnknownEvent {
        /// The event asked for.
        event: String,
        /// The agent.
        agent: &'static str,
    },
    /// The input names another event than the one asked for.
    #[error("the input is a `{named}` event, not `{asked}`")]
    EventMismatch {
        /// The event the input names.
        named: String,
        /// The event asked for.
        asked: String,
    },
    /// The host codec refused the input.
    #[error(transparent)]
    Host(#[from] HostError),
}

/// Decodes an agent's own hook input (what its documentation or debug log shows: Claude Code's
/// `{"hook_event_name": "PreToolUse", "tool_name": "Bash", …}`) with the host codec of the
/// format `from`, as `hooks bridge` does. `event` (a native or canonical name) is needed only
/// for agents whose input does not name its event (Copilot CLI's camelCase hooks); where the
/// input names one, they must agree.
///
/// ```
/// use hooks_app::{bridge::decode_native, formats::workspace_formats};
///
/// let input = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p",
///     "tool_name":"Bash","tool_input":{"command":"rm -rf build"}}"#;
/// let decoded = decode_native(&workspace_formats(), "claude", input, None).unwrap();
/// assert_eq!(decoded.envelope.event.as_str(), "pre_tool_use");
/// assert_eq!(decoded.envelope.tool.unwrap().args["command"], "rm -rf build");
/// ```
pub fn decode_native(
    formats: &FormatSet,
    from: &str,
    input: &[u8],
    event: Option<&str>,
) -> Result<HostInput, NativeInputError> {
    let descriptor = formats.named(from)?;
    let codec = descriptor.host().ok_or_else(|| NativeInputError::NoHostCodec(from.to_owned()))?;
    // The event asked for, as the agent names it, and its canonical counterpart.
    let asked = match event {
        None => None,
        Some(e) => {
            let (native, canonical) = if let Some(c) = descriptor.canonical_event(e) {
                (e.to_owned(), c)
            } else if let Ok(c) = e.parse::<hooks_schema::HookEvent>() {
                match descriptor.native_events(c).first() {
                    Some(n) => ((*n).to_owned(), c),
                    None => {
                        return Err(NativeInputError::UnknownEvent {
                            event: e.to_owned(),
                            agent: descriptor.agent(),
                        });
                    }
                }
            } else {
                return Err(NativeInputError::UnknownEvent {
                    event: e.to_owned(),
                    agent: descriptor.agent(),
                });
            };
            Some((e, native, canonical))
        }
    };
    // The input's own event first; the one asked for where the input names none.
    let decoded = match (codec.decode_input(input, None), &asked) {
        (Ok(i), _) => i,
        (Err(e), None) => return Err(e.into()),
        (Err(_), Some((_, native, _))) => codec.decode_input(input, Some(native))?,
    };
    // The input's event must be the one asked for: by its envelope's event or, where one input
    // of a native event decodes to another canonical event (Gemini CLI's `AfterTool` for a
    // failed tool is a `tool_failure`), by its native event's.
    if let Some((e, _, canonical)) = asked
        && decoded.envelope.event != canonical
        && descriptor.canonical_event(&decoded.native_event) != Some(canonical)
    {
        return Err(NativeInputError::EventMismatch {
            named: decoded.native_event.clone(),
            asked: e.to_owned(),
        });
    }
    Ok(decoded)
}

pub use crate::trust::project_root_of;

/// Runs one bridge event: decodes `stdin` as the host's input (`event_arg` when the host's
/// input does not name its event), loads or reuses the session's pinned set, guards file
/// edits, runs the hooks and encodes the answer.
pub fn run_event(config: &BridgeConfig, stdin: &[u8], event_arg: Option<&str>) -> BridgeOutcome {
    let Some(descriptor) = config.host_descriptor() else {
        return fail_open(format!("no registered format is named `{}`", config.host));
    };
    let Some(codec) = descriptor.host() else {
        return fail_open(format!("the format `{}` has no host codec", config.host));
    };
    let mut input = match codec.decode_input(stdin, event_arg) {
        Ok(i) => i,
        // An event no hook of the engine is for: nothing to do, nothing to say.
        Err(HostError::UnknownEvent(_)) => {
            return BridgeOutcome { warnings: Vec::new(), ..fail_open(String::new()) }.quiet();
        }
        Err(e) => return fail_open(e.to_string()),
    };
    let cwd = input
        .envelope
        .cwd
        .clone()
        .map(|c| if c.is_absolute() { c } else { config.process_cwd.join(c) })
        .unwrap_or_else(|| config.process_cwd.clone());
    input.envelope.cwd = Some(cwd.clone());
    let root_dir = project_root_of(&cwd);
    let root = hooks_registry::canonicalize(&root_dir)
        .ok()
        .or_else(|| AbsPathBuf::new(root_dir.clone()).ok());
    let mut warnings = Vec::new();

    // The set: the session's pin, or the files as they are now (pinned for the next events).
    let session = input.session_id.clone();
    let pinned = match (&config.pins, &session, &root) {
        (Some(store), Some(s), Some(r)) => match store.load(&config.host, s, r) {
            Ok(p) => p,
            Err(e) => {
                warnings.push(format!("the session pin could not be read: {e}"));
                None
            }
        },
        _ => None,
    };
    let from_pin = pinned.is_some();
    let mut parses = ReadParses::default();
    let set = match pinned {
        Some(set) => set,
        None => {
            let (set, read) = read_set(config, &**descriptor, root.as_ref(), &cwd);
            parses = read;
            if let (Some(store), Some(s), Some(r)) = (&config.pins, &session, &root) {
                match store.save(&config.host, s, r, set) {
                    Ok(kept) => kept,
                    Err((set, e)) => {
                        warnings.push(format!("the session pin could not be written: {e}"));
                        set
                    }
                }
            } else {
                set
            }
        }
    };

    // The guard first: a pre-tool call that writes a protected file is refused whatever the
    // hooks would say. An event that edits no file never asks it, and its runtime computes
    // no protection (a project whose hooks run git, npm or uv pays for it at every event).
    let edited = codec.edited_paths(&input).filter(|paths| !paths.is_empty());
    let guarded = edited.is_some();
    let session = guarded.then_some(cwd.as_path());
    let runtime = build_runtime(config, &**descriptor, &set, root.as_ref(), parses, session);
    let handle = runtime.fire_handle();

    if let Some(paths) = edited {
        let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        let decision = handle.can_write_files(&paths, &cwd);
        if !decision.is_allowed() {
            let verdict = FoldedVerdict {
                decision: Some(Decision::Deny),
                reason: Some(guard_reason(&decision)),
                ..FoldedVerdict::default()
            };
            let answer = with_warnings(codec.encode_answer(&input, &verdict), &warnings);
            return BridgeOutcome {
                answer,
                input: Some(input),
                verdict,
                files: set.files,
                from_pin,
                ran: 0,
                warnings,
                engine: Kept(Some((runtime, None))),
            };
        }
    }

    let plan = handle.plan(&input.envelope);
    let mut async_rt = None;
    let (verdict, ran) = if plan.is_idle() {
        (FoldedVerdict::default(), 0)
    } else {
        match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(rt) => {
                let done = rt.block_on(async {
                    let report = handle.fire_planned(plan, &input.envelope).await;
                    runtime.drain(config.drain_grace).await;
                    let ran = report
                        .runs
                        .iter()
                        .filter(|r| matches!(r.status, hooks_dispatch::RunStatus::Ran))
                        .count();
                    (report.verdict, ran)
                });
                async_rt = Some(rt);
                done
            }
            Err(e) => {
                warnings.push(format!("cannot start the async runtime: {e}"));
                (FoldedVerdict::default(), 0)
            }
        }
    };
    let mut verdict = verdict;
    if !from_pin {
        // `hooks trust` run in the session's folder reviews the files a session there reads.
        let at = hooks_registry::canonicalize(&cwd).ok().or_else(|| root.clone());
        verdict.user_messages.extend(untrusted_notice(&config.formats, &set, at.as_ref()));
    }
    let answer = with_warnings(codec.encode_answer(&input, &verdict), &warnings);
    drop(handle);
    BridgeOutcome {
        answer,
        input: Some(input),
        verdict,
        files: set.files,
        from_pin,
        ran,
        warnings,
        engine: Kept(Some((runtime, async_rt))),
    }
}

/// The message that tells the user, at the first event of a session (where the set is read
/// and pinned), which hook files of the repository do not run because the user has not
/// trusted them as they are now, and what to run: the host shows it in its own words (Claude
/// Code and Gemini CLI a system message, Cursor a user message; `specs/bridge.md`), to be
/// run in `at` (the session's folder, where `hooks trust` reviews what a session there
/// reads).
fn untrusted_notice(
    formats: &FormatSet,
    set: &PinnedSet,
    at: Option<&AbsPathBuf>,
) -> Option<(hooks_schema::Provenance, String)> {
    let files: Vec<&PinnedFile> = set.files.iter().filter(|f| f.needs_trust).collect();
    let first = files.first()?;
    let kind = formats.kind_named(&first.kind)?;
    let source = HookSourceId::new(kind, AbsPathBuf::new(first.path.clone()).ok()?);
    let provenance = hooks_schema::Provenance {
        hook_id: hooks_schema::HookId::new("hooks-trust").ok()?,
        source,
        line: None,
    };
    let names: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
    let at = at.map(|r| format!(" in {r}")).unwrap_or_default();
    Some((
        provenance,
        format!(
            "agent-hooks: {} hook file(s) of this repository do not run because they are not trusted as they are now (new, or changed since they were trusted): {}. Review them and run `hooks trust`{at}; they run from the next session on.",
            files.len(),
            names.join(", ")
        ),
    ))
}

impl BridgeOutcome {
    fn quiet(mut self) -> BridgeOutcome {
        self.answer = HostAnswer::default();
        self.warnings.clear();
        self
    }
}

fn with_warnings(mut answer: HostAnswer, warnings: &[String]) -> HostAnswer {
    for w in warnings {
        answer.stderr.extend_from_slice(format!("hooks bridge: {w}\n").as_bytes());
    }
    answer
}

/// The reason the host is given for a refused edit.
fn guard_reason(decision: &GuardDecision) -> String {
    match decision {
        GuardDecision::Allowed => String::new(),
        GuardDecision::Protected(hits) => {
            let first = hits.first().map(ToString::to_string).unwrap_or_default();
            format!("GUARD: edit of a protected hook file refused: {first}")
        }
        GuardDecision::Unresolved(paths) => {
            let first = paths
                .first()
                .map(|p| format!("`{}`: {}", p.requested.display(), p.error))
                .unwrap_or_default();
            format!("GUARD: edit refused, the path could not be checked: {first}")
        }
    }
}

/// The files [`read_set`] parsed to decide whether they run, kept so that the runtime built
/// for the same event does not parse them again: each with its kind, canonical path and the
/// SHA-256 of the content parsed.
#[derive(Default)]
struct ReadParses(Vec<(String, PathBuf, String, hooks_schema::ParseResult)>);

impl ReadParses {
    /// The parse of `file`, if this is the content [`read_set`] parsed (the pin saved may be
    /// a concurrent first event's).
    fn take(&mut self, file: &PinnedFile) -> Option<hooks_schema::ParseResult> {
        let sha = file.sha256.as_deref()?;
        let at = self
            .0
            .iter()
            .position(|(k, p, s, _)| *k == file.kind && *p == file.path && s == sha)?;
        Some(self.0.swap_remove(at).3)
    }

    /// Keeps the parse of the file of `kind` at `path` whose content has the hash `sha` (none
    /// without a hash: the file was not read).
    fn keep(
        &mut self,
        kind: HookSourceKind,
        path: &AbsPathBuf,
        sha: Option<&String>,
        parsed: hooks_schema::ParseResult,
    ) {
        if let Some(sha) = sha {
            self.0.push((kind.name(), path.as_path().to_path_buf(), sha.clone(), parsed));
        }
    }
}

/// The files of every format that apply to a session started in `session` under `root` now:
/// managed, the user's, the project's where each format's agent reads them
/// (`find_session_files`), each read and parsed once (bytes kept for the pin, the parse for
/// the runtime), with whether it may run; and, inert, so that the scripts they run stay
/// protected: for a session below the root, the root's files whose agents read the session's
/// folder instead, and for every session, the files of the other folders below the root that
/// hold project hook files of their own (`hooks_sources::nested_project_folders`), which the
/// sessions started there run.
fn read_set(
    config: &BridgeConfig,
    host: &dyn FormatDescriptor,
    root: Option<&AbsPathBuf>,
    session: &Path,
) -> (PinnedSet, ReadParses) {
    let formats = &config.formats;
    // Each file with its project folder: the root, or the folder of the project its agent
    // reads it in for a session started in `session` (`find_session_files`).
    let mut found: Vec<(FoundFile, Option<AbsPathBuf>)> = Vec::new();
    if let Some(dirs) = &config.managed_dirs {
        found.extend(
            find_files(formats, FileScope::Managed, Path::new(""), dirs)
                .into_iter()
                .map(|f| (f, None)),
        );
    }
    if let Some(dirs) = &config.user_dirs {
        found.extend(
            find_files(formats, FileScope::User, Path::new(""), dirs)
                .into_iter()
                .map(|f| (f, None)),
        );
    }
    let mut not_here: Vec<PathBuf> = Vec::new();
    let mut inert_for = None;
    if let Some(r) = root {
        let at = hooks_registry::canonicalize(session).unwrap_or_else(|_| r.clone());
        found.extend(
            hooks_sources::find_session_files(formats, r.as_path(), at.as_path()).into_iter().map(
                |(f, folder)| (f, Some(AbsPathBuf::new(folder).unwrap_or_else(|_| r.clone()))),
            ),
        );
        // Loaded inert, so that the scripts they run stay out of this session's reach: the
        // files of the formats whose agents do not read them for this session, at the root (a
        // session started at the root runs them) and in the other folders below it that hold
        // project hook files of their own (`packages/api/.claude/settings.json`, run by the
        // sessions started there), each placed at its folder (so `packages/api/scripts/gate.sh`
        // is found where its hook runs it).
        let nested = hooks_sources::nested_project_folders(formats, r.as_path()).folders;
        let folders = std::iter::once(r.clone())
            .chain(nested.into_iter().filter_map(|d| AbsPathBuf::new(d).ok()));
        for folder in folders {
            let others: Vec<_> = formats
                .iter()
                .filter(|f| !f.project_folders().reads(folder.as_path(), r.as_path(), at.as_path()))
                .cloned()
                .collect();
            if others.is_empty() {
                continue;
            }
            let others = FormatSet::new(others);
            for f in find_files(&others, FileScope::Project, folder.as_path(), &ScopeDirs::new()) {
                not_here.push(f.path.clone());
                found.push((f, Some(folder.clone())));
            }
        }
        if !not_here.is_empty() {
            inert_for = Some(at);
        }
    }
    let mut files: Vec<PinnedFile> = Vec::new();
    let mut parses = ReadParses::default();
    for (file, project_root) in found {
        if file.content == FileContent::PolicyOnly {
            continue;
        }
        let Ok(canonical) = hooks_registry::canonicalize(&file.path) else { continue };
        if files.iter().any(|f| f.kind == file.kind.name() && f.path == canonical.as_path()) {
            continue;
        }
        let found_at: Vec<PathBuf> = found_paths(&file.path, &file.replaced_by)
            .into_iter()
            .map(AbsPathBuf::into_path_buf)
            .collect();
        if let Some(why) = file.not_read {
            // Its agent skips it, and so does the engine: pinned as not running, not read.
            files.push(PinnedFile {
                kind: file.kind.name(),
                path: canonical.into_path_buf(),
                found_at,
                project: project_root.is_some(),
                project_dir: project_dir_of(project_root.as_ref(), root),
                sha256: None,
                content: None,
                base: file.base.clone(),
                error: None,
                active: false,
                reason: why.message,
                needs_trust: false,
            });
            continue;
        }
        let bytes = hooks_sources::read_capped(&file.path);
        let (content, error) = match bytes {
            Ok(b) => match String::from_utf8(b) {
                Ok(s) => (Some(s), None),
                Err(_) => (None, Some("the file is not UTF-8 text".to_owned())),
            },
            Err(e) => (None, Some(e.to_string())),
        };
        // A file that may carry hooks and carries none (a subagent without front matter hooks)
        // is not pinned: its folder is protected whole.
        if file.content == FileContent::HooksIfAny
            && let (Some(text), Some(descriptor)) =
                (&content, file.kind.format().and_then(|f| config.formats.get(f)))
            && file.content.leaves_out(&descriptor.parse(
                text.as_bytes(),
                &ParseContext::new(&file.path, file.kind).with_base(file.base.as_deref()),
            ))
        {
            continue;
        }
        let sha256 = content.as_deref().map(pin::sha256_hex);
        let elsewhere = inert_for.as_ref().filter(|_| not_here.contains(&file.path));
        // The trust gate's decision on the file as read, and its parse.
        let decide_here = |text: &str| {
            let file = ReadFile {
                kind: file.kind,
                path: &canonical,
                base: file.base.as_deref(),
                project_root: project_root.as_ref(),
                bytes: text.as_bytes(),
            };
            decide(config, &file, session)
        };
        let (active, reason, needs_trust) = if let Some(at) = elsewhere {
            let agent =
                file.kind.format().and_then(|f| formats.get(f)).map_or("its agent", |d| d.agent());
            (
                false,
                format!(
                    "{agent} does not read this file for a session started in {at}: protected, not run"
                ),
                false,
            )
        } else if host_runs(host, file.kind) {
            // Its hooks are the host's. Its settings still say which of the bridge's files run
            // (Claude Code's `agent` picks the subagent whose hooks run for the whole session,
            // which Copilot CLI does not run): a file that carries a policy is trusted or not
            // as any file, and, trusted, loaded with its hooks disabled (`build_runtime`). A
            // file of the host's own format has no say over the bridge's files: a format's
            // policy only reaches its own sources, which are all the host's.
            let own = file.kind.format() == Some(host.id());
            match content.as_deref().filter(|_| !own).map(decide_here) {
                Some(((active, reason, needs_trust), Some(Ok(parsed))))
                    if !parsed.policy.is_empty() =>
                {
                    parses.keep(file.kind, &canonical, sha256.as_ref(), Ok(parsed));
                    let says = if active { "its settings apply" } else { "its settings do not" };
                    (
                        active,
                        format!("{} runs this file's hooks itself; {says} ({reason})", config.host),
                        needs_trust,
                    )
                }
                _ => (false, format!("{} runs this file itself", config.host), false),
            }
        } else if let Some(text) = &content {
            let (decided, parsed) = decide_here(text);
            if let Some(parsed) = parsed {
                parses.keep(file.kind, &canonical, sha256.as_ref(), parsed);
            }
            decided
        } else {
            (true, "the user's or the administrator's own file".to_owned(), false)
        };
        files.push(PinnedFile {
            kind: file.kind.name(),
            path: canonical.into_path_buf(),
            found_at,
            project: project_root.is_some(),
            project_dir: project_dir_of(project_root.as_ref(), root),
            sha256,
            content,
            base: file.base.clone(),
            error,
            active,
            reason,
            needs_trust,
        });
    }
    (PinnedSet { created: pin::now_secs(), files }, parses)
}

/// A project file's own project folder when it is not the root (`None` otherwise).
fn project_dir_of(folder: Option<&AbsPathBuf>, root: Option<&AbsPathBuf>) -> Option<PathBuf> {
    folder.filter(|f| Some(*f) != root).map(|f| f.as_path().to_path_buf())
}

/// A hook file as the bridge read it, for [`decide`].
#[derive(Clone, Copy)]
struct ReadFile<'a> {
    kind: HookSourceKind,
    /// Its canonical path.
    path: &'a AbsPathBuf,
    /// The folder its hooks belong to ([`ParseContext::base`]).
    base: Option<&'a Path>,
    /// The project folder it was found in, for a project file.
    project_root: Option<&'a AbsPathBuf>,
    /// Its content, exactly as read.
    bytes: &'a [u8],
}

/// Whether `file` runs under the bridge, why, and whether it is inert only for want of the
/// user's trust: the trust gate ([`BridgeConfig::trust`]) decides on the file as read, for the
/// session's directory. Also the file's parse, when its format is registered.
fn decide(
    config: &BridgeConfig,
    file: &ReadFile<'_>,
    session: &Path,
) -> ((bool, String, bool), Option<hooks_schema::ParseResult>) {
    let ReadFile { kind, path, base, project_root, bytes } = *file;
    let inputs =
        hooks_trust::TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves)
            .with_user_project_hooks(config.user_opt_in);
    let Some(descriptor) = kind.format().and_then(|f| config.formats.get(f)) else {
        return ((false, format!("no registered format reads {kind} files"), false), None);
    };
    let parsed = descriptor.parse(bytes, &ParseContext::new(path.as_path(), kind).with_base(base));
    let decision = match &parsed {
        Ok(parsed) => {
            let read =
                hooks_trust::FileRead { kind, path: path.as_path(), project_root, bytes, parsed };
            let session = AbsPathBuf::new(session.to_path_buf()).ok();
            config.trust.decide_file_in(&read, &inputs, session.as_ref())
        }
        Err(_) => config.trust.decide(kind, &inputs),
    };
    // Inert although the table lets it run: the store (or the agent's review) said no. Only a
    // file with a hook that would run, or settings that would decide which hooks run (Claude
    // Code's `agent`, `disableAllHooks`), is worth telling the host about.
    let table = config.trust.decide(kind, &inputs).is_active();
    let would_run = parsed.as_ref().is_ok_and(|p| {
        !p.policy.is_empty()
            || p.definitions.iter().any(|d| d.enabled && !is_bridge_call(&d.command))
    });
    let decided = match decision {
        TrustDecision::Active { reason } => (true, reason, false),
        TrustDecision::Inert { reason } => (false, reason, table && would_run),
    };
    (decided, Some(parsed))
}

/// A runtime whose registry holds exactly `set` (nothing read from disk), pinned; a file
/// `parses` holds for its content is not parsed again.
fn build_runtime(
    config: &BridgeConfig,
    host: &dyn FormatDescriptor,
    set: &PinnedSet,
    root: Option<&AbsPathBuf>,
    mut parses: ReadParses,
    session: Option<&Path>,
) -> HookRuntime {
    // Guarded: the event edits files, and the session's directory is where the user's hooks
    // that run there read what the guard protects.
    let guarded = session.is_some();
    let mut rc = RuntimeConfig::with_formats(Surface::CliRun, config.formats.clone());
    rc.home_dir = config.home_dir.clone();
    rc.config_dir = config.config_dir.clone();
    rc.user_shell = config.user_shell.clone();
    rc.agent_version = Some(env!("CARGO_PKG_VERSION").to_owned());
    rc.trust_store = config.trust_store.clone();
    rc.user_enables_project_hooks = config.user_opt_in;
    rc.dispatch = crate::runtime::format_dispatch(&config.formats, config.dispatch.clone());
    // Without the guard, nothing is protected: no script is read for it, and the guard
    // refuses every edit if it is asked all the same.
    rc.protection = guarded;
    let runtime = HookRuntime::new(rc);
    let formats = &config.formats;
    let posture = CommandExecutionPosture::AutoApproves;
    runtime.registry().change(|reg: &mut HookRegistry| {
        reg.batch(|reg| {
            reg.set_user_paths(crate::trust::registry_user_paths(
                config.home_dir.as_deref(),
                config.config_dir.as_deref(),
                &config.shell_startup,
                guarded,
                &session.map(Path::to_path_buf).into_iter().collect::<Vec<_>>(),
            ));
            if guarded {
                let mut expected = hooks_sources::expected_files(
                    formats,
                    config.user_dirs.as_ref(),
                    config.managed_dirs.as_ref(),
                );
                crate::trust::protect_engine_folders(
                    &mut expected,
                    config.trust_store.as_deref(),
                    config.dispatch.runtime_dir.as_deref(),
                    config.home_dir.as_deref(),
                    &config.shell_startup,
                );
                reg.set_expected_files(expected);
            }
            reg.set_user_opt_in(config.user_opt_in);
            if let Some(r) = root {
                reg.add_project_root(r.clone());
            }
            for file in &set.files {
                let Some(kind) = formats.kind_named(&file.kind) else { continue };
                let Ok(path) = AbsPathBuf::new(file.path.clone()) else { continue };
                let id = HookSourceId::new(kind, path);
                let project_root = if file.project { root.cloned() } else { None };
                let project_dir = match (&file.project_dir, file.project) {
                    (Some(dir), true) => AbsPathBuf::new(dir.clone()).ok(),
                    _ => None,
                };
                let found: Vec<AbsPathBuf> =
                    file.found_at.iter().filter_map(|p| AbsPathBuf::new(p.clone()).ok()).collect();
                match (&file.content, kind.format().and_then(|f| formats.get(f))) {
                    (Some(text), Some(descriptor)) => {
                        let ctx =
                            ParseContext::new(&file.path, kind).with_base(file.base.as_deref());
                        let mut parsed = parses
                            .take(file)
                            .unwrap_or_else(|| descriptor.parse(text.as_bytes(), &ctx));
                        if let Ok(p) = &mut parsed {
                            p.definitions.retain(|d| !is_bridge_call(&d.command));
                            // A file the host runs itself is here for its settings and
                            // for the scripts its hooks run, which stay protected: none of
                            // its hooks runs here.
                            if host_runs(host, kind) {
                                for d in &mut p.definitions {
                                    d.enabled = false;
                                }
                            }
                        }
                        let trust = if file.active {
                            TrustDecision::Active { reason: file.reason.clone() }
                        } else {
                            TrustDecision::Inert { reason: file.reason.clone() }
                        };
                        reg.upsert_source(SourceUpdate {
                            source: id.clone(),
                            parsed,
                            project_root: project_root.clone(),
                            project_dir,
                            trust,
                        });
                    }
                    _ => {
                        let d = hooks_schema::HookDiagnostic::error(
                            file.error.clone().unwrap_or_else(|| "not read".to_owned()),
                        )
                        .in_file(&file.path);
                        reg.record_read_failure(&id, project_root.clone(), d);
                    }
                }
                reg.set_found_paths(&id, project_root.as_ref(), found);
            }
            reg.pin(posture);
        });
    });
    runtime
}

#[cfg(test)]
mod tests;
