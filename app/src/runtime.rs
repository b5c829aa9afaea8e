//! `HookRuntime`: the engine as an agent product embeds it.
//!
//! It composes the layers: detected repositories go to the watcher (created on the first
//! root, so a process that never visits a repository starts no watcher), explicit and
//! user-scope sources are loaded into the registry, the first appended exchange pins the run
//! with the strictest posture of the open windows and fires session start at that barrier,
//! `fire` runs an event's bindings through the dispatcher, and `can_write_files` asks the
//! guard before any auto-approval.
//!
//! State changes go through [`HookRuntime::handle`] with the closed [`RuntimeEvent`] enum;
//! firing and the guard only read the published snapshot, so they run concurrently through a
//! cheap [`FireHandle`].

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use hooks_dispatch::{
    DispatchConfig, Dispatcher, DrainReport, FireContext, FireReport, RunSettingsTable, RunStatus,
};
use hooks_guard::{EditApproval, EditContext, GuardDecision, ProtectedSet};
use hooks_registry::{
    CwdScope, HookRegistry, PinnedRun, RegistryEvent, RegistryHandle, RegistrySnapshot,
};
use hooks_schema::{
    AbsPathBuf, Binding, Decision, Envelope, ExecutionMode, FormatSet, Generation, HookDiagnostic,
    HookEvent, RelaxPolicy, Revision, apply_host_decision,
};
use hooks_sources::{ExplicitHookSource, ManagedDirs, UserDirs};
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs, TrustPolicy};
use hooks_watcher::{AttachFuture, HookConfigWatcher, RootOrigin, WatcherConfig, watch_matrix};

/// Everything the embedder decides about the runtime.
#[derive(Clone)]
pub struct RuntimeConfig {
    /// The formats the runtime reads (`crate::formats::workspace_formats` by default): the
    /// sources, the watcher and the guard find, watch and protect their files through them.
    pub formats: FormatSet,
    /// The feature switch: when off, no root is watched or loaded, nothing pins, nothing is
    /// protected and nothing fires.
    pub enabled: bool,
    /// The surface this process fires from.
    pub surface: Surface,
    /// A remote-server daemon neither watches nor pins, so nothing can activate there.
    pub remote_server_daemon: bool,
    /// The trust policy.
    pub policy: Arc<dyn TrustPolicy>,
    /// The user's own opt-in to project hooks (Chrys's `project.hooks_enabled`, or a flag that
    /// forces it): it trusts project files on interactive surfaces (the trust table), and a
    /// project file whose format requires it (a repository's Chrys file) runs on no surface
    /// without it (the registry holds it back).
    pub user_enables_project_hooks: bool,
    /// Strict mode: the seed's deny-only contract, all of it (`specs/hardening.md`, "Strict
    /// mode"). Every file but a project's is read under its format's strict contract where it
    /// has one (Claude Code's: `hooks.version: 1`; unknown or credential-looking keys, invalid
    /// values and commands that need a shell are violations; a violated, oversized or
    /// unreadable file denies every gated event; its hooks run without a shell, may only deny,
    /// and deny on any failure), project scopes never activate, a hook never relaxes the
    /// host's decision (`relax` is ignored), and on a gated event any failure of a blocking
    /// hook of any format denies.
    pub strict: bool,
    /// Where the user-scope files live; `None` loads none.
    pub user_dirs: Option<UserDirs>,
    /// Where managed (administrator) files live; `None` loads none.
    pub managed_dirs: Option<ManagedDirs>,
    /// Sources named by whoever started the run (`WARP_HOOK_DIRS`, run configuration).
    pub explicit_sources: Vec<ExplicitHookSource>,
    /// Refuse to pin (start the run) when loading the explicit sources reported errors.
    pub fail_closed_on_source_errors: bool,
    /// How hooks run.
    pub dispatch: DispatchConfig,
    /// The watcher's debounce window.
    pub debounce_window: Duration,
    /// Whether hook files are watched and reloaded when they change (the default). A process
    /// that loads once and exits (a one-shot `hooks fire`) turns it off: roots, the user's and
    /// the managed files are read and decided exactly as a watcher reads them
    /// ([`HookConfigWatcher::loader`]), but no platform watcher and no thread are started.
    pub watch: bool,
    /// Whether the registry computes what the hooks run and read, which the guard protects
    /// (`HookRegistry::set_protection`; on by default). A process that never asks the guard
    /// and shows no source's diagnostics turns it off (a bridge event that edits no file, a
    /// one-shot `hooks fire`): then no script, folder or expected file is read for it, and a
    /// guard asked all the same refuses every path.
    pub protection: bool,
    /// The directories the caller knows the session runs in (`hooks guard --cwd`): what
    /// the user's hooks that run in the session's directory name there is protected as
    /// exact paths, and read as a project's hooks' is ([`hooks_registry::UserPaths::session_dirs`]).
    /// Empty by default: patterns only; a long-lived caller that answers for many sessions
    /// adds each session's directory as it learns it ([`HookRuntime::add_session_dir`]).
    pub session_dirs: Vec<PathBuf>,
    /// Whether a hook's `allow` may relax the host's own decision.
    pub relax: RelaxPolicy,
    /// The user's config directory (Chrys's `${chrys_home}`), login shell and the agent's
    /// version, handed to codecs.
    pub config_dir: Option<PathBuf>,
    /// The user's login shell.
    pub user_shell: Option<String>,
    /// The embedding agent's version.
    pub agent_version: Option<String>,
    /// The user's home: the guard reads an edited path spelled `~/…` there (without it such
    /// a path is refused).
    pub home_dir: Option<PathBuf>,
    /// Where variables move the user's shell start-up files (`$ZDOTDIR`,
    /// `$XDG_CONFIG_HOME`): the guard protects them there as well as in the home.
    pub shell_startup: crate::trust::ShellStartupDirs,
    /// The user's trust store (`hooks trust`; `crate::trust::user_store`): the guard protects
    /// its folder (the store, its lock, its temporary files) whether or not it exists.
    pub trust_store: Option<PathBuf>,
    /// The audit log every fire and guard decision is appended to (`specs/audit-log.md`);
    /// `None` records nothing.
    pub audit: Option<Arc<crate::audit::AuditLog>>,
}

/// `base` with what `formats` decide of dispatching: the formats whose agents run an event's
/// gated hooks concurrently, and the events each format's hooks also run on (Gemini CLI's
/// post-tool hooks on a failure). Every runtime built for `formats` dispatches with these,
/// whatever else its configuration sets.
pub(crate) fn format_dispatch(formats: &FormatSet, base: DispatchConfig) -> DispatchConfig {
    DispatchConfig {
        parallel_gated_formats: formats
            .iter()
            .filter(|f| f.concurrent_gated_hooks())
            .map(|f| f.id())
            .collect(),
        event_rules: formats
            .iter()
            .map(|f| (f.id(), f.event_rule()))
            .filter(|(_, rule)| *rule != hooks_schema::EventRule::OWN)
            .collect(),
        ..base
    }
}

impl RuntimeConfig {
    /// The user's paths the registry reads the hooks' commands with, from this
    /// configuration's home, configuration folder, shell start-up folders and session
    /// directories ([`crate::trust::registry_user_paths`]).
    fn registry_user_paths(&self) -> hooks_registry::UserPaths {
        crate::trust::registry_user_paths(
            self.home_dir.as_deref(),
            self.config_dir.as_deref(),
            &self.shell_startup,
            self.protection,
            &self.session_dirs,
        )
    }

    /// The defaults for `surface`: the workspace's formats, enabled, the static trust policy,
    /// no user, managed or explicit sources, default dispatch settings, a 500 ms debounce
    /// window.
    pub fn new(surface: Surface) -> RuntimeConfig {
        RuntimeConfig::with_formats(surface, crate::formats::workspace_formats())
    }

    /// [`RuntimeConfig::new`] with another set of formats (an embedder that reads only some
    /// formats, or its own).
    pub fn with_formats(surface: Surface, formats: FormatSet) -> RuntimeConfig {
        let dispatch = format_dispatch(&formats, DispatchConfig::default());
        RuntimeConfig {
            formats,
            enabled: true,
            surface,
            remote_server_daemon: false,
            policy: Arc::new(StaticTrustPolicy),
            user_enables_project_hooks: false,
            strict: false,
            user_dirs: None,
            managed_dirs: None,
            explicit_sources: Vec::new(),
            fail_closed_on_source_errors: false,
            dispatch,
            debounce_window: hooks_watcher::DEFAULT_DEBOUNCE_WINDOW,
            watch: true,
            protection: true,
            relax: RelaxPolicy::Never,
            config_dir: None,
            user_shell: None,
            agent_version: None,
            home_dir: None,
            shell_startup: crate::trust::ShellStartupDirs::default(),
            trust_store: None,
            audit: None,
            session_dirs: Vec::new(),
        }
    }
}

/// A window (or other execution context) whose profile has a command-execution posture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WindowId(pub u64);

/// The closed set of state changes the runtime accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeEvent {
    /// The embedder detected a repository (terminal navigation, a cloud checkout, …).
    RepositoryDetected {
        /// Its root folder.
        root: PathBuf,
        /// How it was found; the surface's watch matrix decides whether it is watched.
        origin: RootOrigin,
    },
    /// A repository is no longer of interest.
    RepositoryRemoved {
        /// Its root folder.
        root: PathBuf,
    },
    /// A window opened, or its profile's posture changed.
    WindowPosture {
        /// The window.
        window: WindowId,
        /// Its execute-commands posture.
        posture: CommandExecutionPosture,
    },
    /// A window closed.
    WindowClosed {
        /// The window.
        window: WindowId,
    },
}

/// What handling a [`RuntimeEvent`] did.
#[derive(Debug)]
pub enum RuntimeEffect {
    /// Nothing (the feature is off, the daemon, a root the surface does not watch, …),
    /// with the reason.
    Ignored(&'static str),
    /// A root was added; the future resolves when its platform watch is attached.
    RootAdded(AttachFuture),
    /// The state changed.
    Applied,
}

/// Why the run may not start.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// Loading the explicit sources reported errors and the run is configured to fail closed.
    #[error("explicit hook sources failed to load: {}", first_message(.0))]
    ExplicitSourcesFailed(Vec<HookDiagnostic>),
    /// The file watcher could not start.
    #[error("the hook file watcher could not start: {0}")]
    Watcher(#[from] hooks_watcher::WatcherError),
}

fn first_message(d: &[HookDiagnostic]) -> String {
    d.first().map_or_else(String::new, ToString::to_string)
}

/// The runtime.
pub struct HookRuntime {
    config: RuntimeConfig,
    registry: RegistryHandle,
    watcher: Option<HookConfigWatcher>,
    firing: FireHandle,
    windows: BTreeMap<WindowId, CommandExecutionPosture>,
    explicit_errors: Option<Vec<HookDiagnostic>>,
    user_watch: Option<hooks_watcher::UserWatchFuture>,
    managed_watch: Option<hooks_watcher::UserWatchFuture>,
    /// The advisories [`HookRuntime::new_advisories`] last returned or kept.
    shown_advisories: Vec<HookDiagnostic>,
    /// What the runtime ran into that its caller should show once (an outbox that could not
    /// be recovered): handed out by [`HookRuntime::new_advisories`], never printed here.
    messages: Vec<HookDiagnostic>,
}

impl HookRuntime {
    /// A runtime; loads the managed and user-scope files (with posture `Unknown` until the
    /// run is pinned) unless the feature is off or this is the remote-server daemon.
    pub fn new(config: RuntimeConfig) -> HookRuntime {
        let registry = RegistryHandle::new(HookRegistry::new());
        let firing = FireHandle {
            reader: registry.reader(),
            dispatcher: Arc::new(Dispatcher::new(config.dispatch.clone())),
            enabled: config.enabled,
            // Under the deny-only contract a hook can never relax the host's decision.
            relax: if config.strict { RelaxPolicy::Never } else { config.relax },
            strict: config.strict,
            context: FireContext {
                project_dir: None,
                config_dir: config.config_dir.clone(),
                user_shell: config.user_shell.clone(),
                agent_version: config.agent_version.clone(),
                session_env: Vec::new(),
                run_settings: Arc::default(),
            },
            session_env: Arc::new(Mutex::new(Vec::new())),
            guard: Arc::new(Mutex::new(None)),
            run_settings: Arc::new(Mutex::new(None)),
            home: config.home_dir.clone(),
            audit: config.audit.clone(),
            formats: config.formats.clone(),
        };
        let rt = HookRuntime {
            config,
            registry,
            watcher: None,
            firing,
            windows: BTreeMap::new(),
            explicit_errors: None,
            user_watch: None,
            managed_watch: None,
            shown_advisories: Vec::new(),
            messages: Vec::new(),
        };
        if rt.is_live() {
            let inputs = rt.trust_inputs(CommandExecutionPosture::Unknown);
            let (policy, strict) = (rt.config.policy.clone(), rt.config.strict);
            let user_paths = rt.config.registry_user_paths();
            // One batch, one snapshot: each change published on its own would resolve every
            // format's expected file paths again for the protected set.
            rt.registry.change(|reg| {
                reg.batch(|reg| {
                    reg.set_protection(rt.config.protection);
                    reg.set_user_paths(user_paths);
                    if rt.config.protection {
                        let mut expected = hooks_sources::expected_files(
                            &rt.config.formats,
                            rt.config.user_dirs.as_ref(),
                            rt.config.managed_dirs.as_ref(),
                        );
                        crate::trust::protect_engine_folders(
                            &mut expected,
                            rt.config.trust_store.as_deref(),
                            rt.config.dispatch.runtime_dir.as_deref(),
                            rt.config.home_dir.as_deref(),
                            &rt.config.shell_startup,
                        );
                        reg.set_expected_files(expected);
                    }
                    // The user's opt-in to project hooks (Chrys's `project.hooks_enabled`): a
                    // project file that requires it is held back without it, on every surface.
                    reg.set_user_opt_in(rt.config.user_enables_project_hooks);
                    if let Some(dirs) = &rt.config.managed_dirs {
                        let formats = &rt.config.formats;
                        hooks_sources::load_managed_sources(
                            formats, dirs, &*policy, &inputs, strict, reg,
                        );
                    }
                    if let Some(dirs) = &rt.config.user_dirs {
                        let formats = &rt.config.formats;
                        hooks_sources::load_user_sources(
                            formats, dirs, &*policy, &inputs, strict, reg,
                        );
                    }
                })
            });
        }
        rt
    }

    /// Whether this process may watch, load and pin at all.
    fn is_live(&self) -> bool {
        self.config.enabled && !self.config.remote_server_daemon
    }

    /// Makes `dir` one of the directories the session runs in
    /// ([`RuntimeConfig::session_dirs`]), for a caller that answers the guard for many
    /// sessions and learns each one's directory with its first question (`hooks serve`'s
    /// `can_write_files`): what the user's hooks that run in the session's directory name
    /// there (a `git status` hook's repository configuration, its includes, the commands it
    /// has git run, its hooks; finding F64) is then read and protected as exact paths, as
    /// for a bridged event. The protection is computed again, at once, when `dir` is new; the
    /// last [`MAX_SESSION_DIRS`] directories are kept. Returns whether it was new; nothing
    /// happens for a relative `dir`, a runtime without protection, or one that runs no hook.
    ///
    /// ```
    /// use hooks_app::runtime::{HookRuntime, RuntimeConfig};
    /// use hooks_trust::Surface;
    ///
    /// let mut rt = HookRuntime::new(RuntimeConfig::new(Surface::CliRun));
    /// let cwd = std::env::temp_dir();
    /// assert!(rt.add_session_dir(&cwd));
    /// assert!(!rt.add_session_dir(&cwd));
    /// assert!(!rt.add_session_dir(&cwd.join(".")));
    /// assert!(rt.can_write_files(&[cwd.join("src/main.rs")], &cwd).is_allowed());
    /// ```
    pub fn add_session_dir(&mut self, dir: &Path) -> bool {
        if !self.is_live() || !self.config.protection || !dir.is_absolute() {
            return false;
        }
        // One spelling per folder (`/repo/./`, `/repo//` are `/repo`).
        let dir: PathBuf = dir.components().collect();
        let dir = dir.as_path();
        let dirs = &mut self.config.session_dirs;
        if let Some(at) = dirs.iter().position(|d| d == dir) {
            // The most recent last: the oldest is the one dropped.
            let known = dirs.remove(at);
            dirs.push(known);
            return false;
        }
        dirs.push(dir.to_path_buf());
        if dirs.len() > MAX_SESSION_DIRS {
            dirs.remove(0);
        }
        let user_paths = self.config.registry_user_paths();
        self.registry.change(|reg| reg.set_user_paths(user_paths));
        true
    }

    /// The configuration.
    pub fn config(&self) -> &RuntimeConfig {
        &self.config
    }

    /// The registry handle (for observers and tests).
    pub fn registry(&self) -> &RegistryHandle {
        &self.registry
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.registry.snapshot()
    }

    /// A channel that receives an event whenever the registry publishes a new generation.
    pub fn subscribe(&self) -> std::sync::mpsc::Receiver<RegistryEvent> {
        self.registry.subscribe()
    }

    /// The watcher, once the first root created it.
    pub fn watcher(&self) -> Option<&HookConfigWatcher> {
        self.watcher.as_ref()
    }

    /// The future that resolves when the user-scope folders are watched (they start being
    /// watched with the first root), for callers that must not miss an early change.
    pub fn take_user_watch(&mut self) -> Option<hooks_watcher::UserWatchFuture> {
        self.user_watch.take()
    }

    /// The future that resolves when the managed folders are watched (they start being
    /// watched with the first root, as the user folders do).
    pub fn take_managed_watch(&mut self) -> Option<hooks_watcher::UserWatchFuture> {
        self.managed_watch.take()
    }

    /// A cheap, cloneable handle for firing events and checking edits concurrently.
    pub fn fire_handle(&self) -> FireHandle {
        self.firing.clone()
    }

    /// Applies one state change.
    pub fn handle(&mut self, event: RuntimeEvent) -> Result<RuntimeEffect, RuntimeError> {
        match event {
            RuntimeEvent::RepositoryDetected { root, origin } => self.add_root(&root, origin),
            RuntimeEvent::RepositoryRemoved { root } => {
                if let Some(w) = &self.watcher
                    && w.remove_root(&root)
                {
                    return Ok(RuntimeEffect::Applied);
                }
                Ok(RuntimeEffect::Ignored("the root is not watched"))
            }
            RuntimeEvent::WindowPosture { window, posture } => {
                self.windows.insert(window, posture);
                Ok(RuntimeEffect::Applied)
            }
            RuntimeEvent::WindowClosed { window } => {
                self.windows.remove(&window);
                Ok(RuntimeEffect::Applied)
            }
        }
    }

    fn add_root(&mut self, root: &Path, origin: RootOrigin) -> Result<RuntimeEffect, RuntimeError> {
        if !self.config.enabled {
            return Ok(RuntimeEffect::Ignored("hooks are switched off"));
        }
        if self.config.remote_server_daemon {
            return Ok(RuntimeEffect::Ignored("the remote server daemon does not watch roots"));
        }
        if !watch_matrix(self.config.surface, origin) {
            return Ok(RuntimeEffect::Ignored("this surface does not watch roots found this way"));
        }
        if self.watcher.is_none() {
            // Before the pin the posture is unknown, so project files load inert; after it
            // the pinned posture applies (and the registry only reports a root found late).
            let posture = self
                .registry
                .snapshot()
                .pinned()
                .map_or(CommandExecutionPosture::Unknown, |p| p.posture);
            let config = WatcherConfig::new(self.config.surface, self.config.formats.clone())
                .with_debounce_window(self.config.debounce_window);
            let config = WatcherConfig { trust_inputs: self.trust_inputs(posture), ..config };
            let (registry, policy) = (self.registry.clone(), self.config.policy.clone());
            let watcher = if self.config.watch {
                HookConfigWatcher::new(registry, policy, config)?
            } else {
                HookConfigWatcher::loader(registry, policy, config)
            };
            // The user-scope and managed files were loaded at start; from now on they are
            // watched and reloaded like project files (under the same pinning rules). The attach future
            // is not awaited, as for roots. A runtime that does not watch (a one-shot) leaves
            // them as loaded: handing them to its loader would only read every file again
            // (their trust does not depend on the posture the pin reads, so the pin's second
            // decision would change nothing).
            if self.config.watch
                && let Some(dirs) = &self.config.user_dirs
            {
                self.user_watch = Some(watcher.watch_user_dirs(dirs.clone(), self.config.strict));
            }
            // The managed files likewise: an administrator's change (a new deny hook,
            // `allowManagedHooksOnly`, `disableAllHooks`) applies without a restart, under the
            // same pinning rules as the user's files.
            if self.config.watch
                && let Some(dirs) = &self.config.managed_dirs
            {
                self.managed_watch =
                    Some(watcher.watch_managed_dirs(dirs.clone(), self.config.strict));
            }
            self.watcher = Some(watcher);
        }
        let watcher = self.watcher.as_ref().expect("created above");
        Ok(RuntimeEffect::RootAdded(watcher.add_root(root)))
    }

    /// Loads the explicit sources named in the configuration and returns every error the
    /// registry recorded for them (empty: every file loaded and may run). Call it before the
    /// run is pinned.
    pub fn load_explicit_sources(&mut self) -> Vec<HookDiagnostic> {
        if !self.is_live() {
            return Vec::new();
        }
        let sources = self.config.explicit_sources.clone();
        let (formats, strict) = (&self.config.formats, self.config.strict);
        let errors = self
            .registry
            .change(|reg| hooks_sources::load_explicit_sources(formats, &sources, strict, reg));
        self.explicit_errors = Some(errors.clone());
        errors
    }

    /// The posture read through every open window: the strictest of them, `Unknown` with no
    /// window.
    pub fn command_execution_posture(&self) -> CommandExecutionPosture {
        CommandExecutionPosture::strictest_of(self.windows.values().copied())
    }

    fn trust_inputs(&self, posture: CommandExecutionPosture) -> TrustInputs {
        TrustInputs::new(self.config.surface, posture)
            .with_user_project_hooks(self.config.user_enables_project_hooks)
            .with_strict_project_scopes(self.config.strict)
    }

    /// Pins the run: reads the posture, decides trust again for every loaded root with it,
    /// and pins the registry. Public and idempotent: a second call returns the first pin.
    /// Returns `None` when the feature is off or in the daemon.
    pub fn pin_for_run(&mut self) -> Result<Option<PinnedRun>, RuntimeError> {
        if !self.is_live() {
            return Ok(None);
        }
        if let Some(p) = self.registry.snapshot().pinned() {
            return Ok(Some(p));
        }
        if self.config.fail_closed_on_source_errors
            && let Some(errors) = &self.explicit_errors
            && !errors.is_empty()
        {
            return Err(RuntimeError::ExplicitSourcesFailed(errors.clone()));
        }
        let posture = self.command_execution_posture();
        let inputs = self.trust_inputs(posture);
        if let Some(w) = &self.watcher {
            w.set_trust_inputs(inputs);
        }
        self.registry.change(|reg| reg.pin(posture));
        Ok(self.registry.snapshot().pinned())
    }

    /// The first appended exchange of the process: pins the run, then fires session start at
    /// that barrier (before the first request goes out) so project session-start hooks fire
    /// for the first conversation too. Later calls do nothing and return `None`.
    pub async fn exchange_appended(
        &mut self,
        session_start: Envelope,
    ) -> Result<Option<(PinnedRun, FireReport)>, RuntimeError> {
        if !self.is_live() || self.registry.snapshot().pinned().is_some() {
            return Ok(None);
        }
        let Some(pin) = self.pin_for_run()? else { return Ok(None) };
        let mut env = session_start;
        env.event = HookEvent::SessionStart;
        let report = self.firing.fire(&env).await;
        // Durable jobs an earlier process left pending are retried now that the run's
        // bindings are known; they run in the background like async hooks.
        // What went wrong is the caller's to show (see `new_advisories`), never printed here.
        match self.recover_outbox().await {
            Some(Err(e)) => self.messages.push(
                HookDiagnostic::warning(format!("the hook outbox could not be recovered: {e}"))
                    .with_code("outbox_unrecoverable"),
            ),
            Some(Ok(report)) => {
                self.messages.extend(report.errors.iter().map(|e| {
                    HookDiagnostic::warning(format!("a pending outbox job was skipped: {e}"))
                        .with_code("outbox_job_unreadable")
                }));
            }
            None => {}
        }
        Ok(Some((pin, report)))
    }

    /// Retries the durable jobs an earlier process left pending (at-least-once delivery),
    /// resolving each job's hook among the current bindings by id and source. `None` when
    /// there is no runtime directory (durable delivery is then best effort) or the feature is
    /// off. Called by [`HookRuntime::exchange_appended`] after the pin.
    pub async fn recover_outbox(
        &self,
    ) -> Option<Result<hooks_dispatch::RecoveryReport, hooks_dispatch::DispatchError>> {
        if !self.is_live() || self.config.dispatch.runtime_dir.is_none() {
            return None;
        }
        let snapshot = self.registry.snapshot();
        let bindings = snapshot.bindings();
        let resolve =
            |job: &hooks_dispatch::OutboxJob| hooks_dispatch::find_binding(&bindings, job).cloned();
        // Each job's format's outbox settings in its hook's place (Chrys's
        // `outbox_retry_age_seconds`, `outbox_max_retries`).
        let ctx = FireContext {
            run_settings: self.firing.run_settings_of(&snapshot),
            ..self.firing.context.clone()
        };
        Some(self.firing.dispatcher.recover_outbox(&resolve, &ctx).await)
    }

    /// Fires an event (see [`FireHandle::fire`]).
    pub async fn fire(&self, envelope: &Envelope) -> FireReport {
        self.firing.fire(envelope).await
    }

    /// Whether agent file edits of `paths` are allowed (see [`FireHandle::can_write_files`]).
    pub fn can_write_files(&self, paths: &[PathBuf], session_cwd: &Path) -> GuardDecision {
        self.firing.can_write_files(paths, session_cwd)
    }

    /// Waits for async hooks (turn end, session end) up to `grace`, then kills the rest.
    pub async fn drain(&self, grace: Duration) -> DrainReport {
        self.firing.dispatcher.drain(grace).await
    }

    /// Advisories about the loaded files that no single source carries, from each registered
    /// format's descriptor (`hooks_sources::advisories`): with the workspace's formats, Chrys's
    /// `project_hooks_dormant` (a project Chrys file present but inert because the user has not
    /// enabled project hooks) and its same-id warning between the project and the user's
    /// Chrys files.
    ///
    /// They are decided with the pinned posture, or before the pin with the posture read
    /// through the open windows (the one the pin will take), so a file is reported dormant as
    /// soon as it is known.
    pub fn advisories(&self) -> Vec<HookDiagnostic> {
        let snap = self.registry.snapshot();
        let posture = snap.pinned().map_or_else(|| self.command_execution_posture(), |p| p.posture);
        hooks_sources::advisories(
            &self.config.formats,
            &snap,
            &*self.config.policy,
            &self.trust_inputs(posture),
        )
    }

    /// The advisories (see [`HookRuntime::advisories`]) that were not current at the last
    /// call, for the caller to show the user once each: all of them at the first call (start-up),
    /// then those a reload (a hook file created or changed) or a workspace change (a root
    /// added, a window's posture) brought. One that went away and comes back is new again.
    /// Messages of the runtime itself (at the first exchange: an outbox that could not be
    /// recovered, a pending job file that could not be read) come with them, once each.
    ///
    /// The runtime prints nothing itself: the `hooks` tool writes these to stderr, `hooks
    /// serve` sends them as an `advisories` notification, an embedder shows them its way.
    /// Call it after [`HookRuntime::new`], after each [`HookRuntime::handle`], and whenever
    /// [`HookRuntime::subscribe`] reports a new snapshot.
    ///
    /// ```
    /// use hooks_app::runtime::{HookRuntime, RuntimeConfig};
    /// use hooks_trust::Surface;
    ///
    /// let mut rt = HookRuntime::new(RuntimeConfig::new(Surface::Desktop));
    /// for advisory in rt.new_advisories() {
    ///     eprintln!("{advisory}");
    /// }
    /// assert!(rt.new_advisories().is_empty(), "each advisory is handed out once");
    /// ```
    pub fn new_advisories(&mut self) -> Vec<HookDiagnostic> {
        let current = self.advisories();
        let mut fresh: Vec<HookDiagnostic> =
            current.iter().filter(|d| !self.shown_advisories.contains(d)).cloned().collect();
        self.shown_advisories = current;
        // And what the runtime itself ran into since (once each).
        fresh.append(&mut self.messages);
        fresh
    }

    /// The revision the run was pinned at, if it was.
    pub fn pinned_revision(&self) -> Option<Revision> {
        self.registry.snapshot().pinned().map(|p| p.revision)
    }
}

/// What one fire will run: the bindings for its working directory and their project root,
/// taken from one snapshot.
#[derive(Debug, Clone)]
pub struct FirePlan {
    scope: CwdScope,
    /// The revision of the snapshot the scope came from.
    revision: Option<Revision>,
    /// Each format's run settings per place, from the same snapshot as `scope`.
    run_settings: Arc<RunSettingsTable>,
}

impl FirePlan {
    /// Whether no hook applies (the fire finishes without starting anything).
    pub fn is_idle(&self) -> bool {
        self.scope.bindings.is_empty()
    }

    /// The bindings that apply, in precedence order.
    pub fn bindings(&self) -> &[Binding] {
        &self.scope.bindings
    }
}

/// The run settings of one snapshot generation, as the dispatcher takes them.
type SettingsAt = (Generation, Arc<RunSettingsTable>);

/// Fires events and checks edits against the published snapshot; cheap to clone, usable from
/// many tasks at once.
#[derive(Clone)]
pub struct FireHandle {
    reader: hooks_registry::RegistryReader,
    dispatcher: Arc<Dispatcher>,
    enabled: bool,
    relax: RelaxPolicy,
    /// Strict mode: a failed blocking hook denies a gated event.
    strict: bool,
    context: FireContext,
    /// Variables session-start hooks asked to set for later hooks (Cursor's `env`).
    session_env: Arc<Mutex<Vec<(String, String)>>>,
    /// The guard's protected set, rebuilt when the snapshot's generation moves.
    guard: Arc<Mutex<Option<Arc<ProtectedSet>>>>,
    /// The run settings of the last snapshot that had any, with its generation.
    run_settings: Arc<Mutex<Option<SettingsAt>>>,
    /// The user's home, for edited paths spelled `~/…`.
    home: Option<PathBuf>,
    /// Where fires and guard decisions are recorded.
    audit: Option<Arc<crate::audit::AuditLog>>,
    /// The formats the runtime reads (their host codecs decode agents' own inputs).
    formats: hooks_schema::FormatSet,
}

impl FireHandle {
    /// The formats the runtime reads.
    pub fn formats(&self) -> &hooks_schema::FormatSet {
        &self.formats
    }

    /// How hook processes are contained on this machine (`specs/dispatch.md`, "Containment").
    pub fn containment(&self) -> hooks_dispatch::ContainmentReport {
        self.dispatcher.containment()
    }

    /// What applies to the envelope's working directory: a project's bindings only under its
    /// nearest root, explicit, managed and user bindings everywhere, and that root. Without a
    /// working directory only the bindings that apply everywhere, and no root.
    pub fn scope_for(snapshot: &RegistrySnapshot, envelope: &Envelope) -> CwdScope {
        match &envelope.cwd {
            Some(cwd) => snapshot.scope_for(cwd),
            None => CwdScope { bindings: snapshot.global_bindings(), project_root: None },
        }
    }

    /// What a fire of `envelope` would run if it started now, from the current snapshot
    /// (one resolution of the working directory); [`FireHandle::fire_planned`] runs it.
    pub fn plan(&self, envelope: &Envelope) -> FirePlan {
        if !self.enabled {
            return FirePlan {
                scope: CwdScope::default(),
                run_settings: Arc::default(),
                revision: None,
            };
        }
        let snapshot = self.reader.snapshot();
        FirePlan {
            scope: FireHandle::scope_for(&snapshot, envelope),
            run_settings: self.run_settings_of(&snapshot),
            revision: Some(snapshot.revision()),
        }
    }

    /// Each format's run settings per place in `snapshot` (Chrys's `settings:`, merged by the
    /// registry), as the dispatcher takes them; built once per generation, and shared and
    /// empty when no file sets any.
    fn run_settings_of(&self, snapshot: &RegistrySnapshot) -> Arc<RunSettingsTable> {
        if snapshot.run_settings().entries().next().is_none() {
            return Arc::clone(&self.context.run_settings);
        }
        let mut cache = lock(&self.run_settings);
        if let Some((generation, table)) = &*cache
            && *generation == snapshot.generation()
        {
            return Arc::clone(table);
        }
        let mut table = RunSettingsTable::default();
        for (format, place, settings) in snapshot.run_settings().entries() {
            table.set(format, place.map(|p| p.as_path().to_path_buf()), *settings);
        }
        let table = Arc::new(table);
        *cache = Some((snapshot.generation(), Arc::clone(&table)));
        table
    }

    /// Fires an event: runs the bindings for its working directory through the dispatcher and
    /// folds their verdicts. With the feature off nothing runs and the verdict is empty.
    pub async fn fire(&self, envelope: &Envelope) -> FireReport {
        self.fire_planned(self.plan(envelope), envelope).await
    }

    /// Fires `envelope` on a plan [`FireHandle::plan`] made for it (so a caller that looked
    /// at the plan first does not resolve the working directory twice).
    pub async fn fire_planned(&self, plan: FirePlan, envelope: &Envelope) -> FireReport {
        if !self.enabled {
            return FireReport {
                verdict: hooks_schema::FoldedVerdict::default(),
                runs: Vec::new(),
                duration: Duration::ZERO,
            };
        }
        let mut ctx = self.context.clone();
        ctx.project_dir = plan.scope.project_root.map(AbsPathBuf::into_path_buf);
        ctx.run_settings = plan.run_settings;
        ctx.session_env = lock(&self.session_env).clone();
        let mut report = self.dispatcher.fire(&plan.scope.bindings, envelope, &ctx).await;
        if self.strict && envelope.event.is_gated() {
            fail_closed_on_failure(&mut report);
        }
        let traced = crate::audit::records_traced();
        if self.audit.is_some() || traced {
            let revision = plan.revision.map(hooks_schema::Revision::get);
            let record = crate::audit::FireRecord::new(envelope, &report, revision);
            self.record(&crate::audit::AuditRecord::Fire(record), traced);
        }
        if envelope.event == HookEvent::SessionStart && !report.verdict.env.is_empty() {
            let mut env = lock(&self.session_env);
            for (k, v) in &report.verdict.env {
                env.retain(|(name, _)| name != k);
                env.push((k.clone(), v.clone()));
            }
        }
        report
    }

    /// The decision to act on: the host's own decision combined with the hooks' verdict under
    /// the embedder's relax policy (by default a hook can only make it stricter).
    pub fn decide(&self, host: Decision, report: &FireReport) -> Decision {
        apply_host_decision(host, report.verdict.decision, self.relax)
    }

    /// Whether agent file edits of `paths` are allowed. Runs before any auto-approval: a
    /// protected path (a hook file, a script a hook names, a folder holding one, the same
    /// file under another name) is never auto-written, in any mode. With the feature off
    /// nothing is protected.
    pub fn can_write_files(&self, paths: &[PathBuf], session_cwd: &Path) -> GuardDecision {
        let set = self.protected_set();
        let decision = set.check(paths, session_cwd);
        self.audit_guard(&set, paths, session_cwd, &decision);
        decision
    }

    /// Decides an agent file edit in the right order: the guard first, then the
    /// auto-approval shortcut of the edit's context (sandboxed runs, auto-approving
    /// profiles and conversations included). A protected path is never auto-applied.
    pub fn approve_edit(
        &self,
        paths: &[PathBuf],
        session_cwd: &Path,
        context: EditContext,
    ) -> EditApproval {
        let set = self.protected_set();
        let approval = hooks_guard::approve_edit(&set, paths, session_cwd, context);
        let decision = match &approval {
            EditApproval::Guarded(d) => d,
            EditApproval::AutoApply | EditApproval::AskUser => &GuardDecision::Allowed,
        };
        self.audit_guard(&set, paths, session_cwd, decision);
        approval
    }

    /// Records a guard decision in the audit log, when there is one, and as a `tracing`
    /// event, when a subscriber wants it.
    fn audit_guard(
        &self,
        set: &ProtectedSet,
        paths: &[PathBuf],
        session_cwd: &Path,
        decision: &GuardDecision,
    ) {
        let traced = crate::audit::records_traced();
        if self.audit.is_some() || traced {
            let generation = set.generation().map(hooks_schema::Generation::get);
            let record = crate::audit::GuardRecord::new(paths, session_cwd, decision, generation);
            self.record(&crate::audit::AuditRecord::Guard(record), traced);
        }
    }

    /// Appends `record` to the audit log, if any, and emits it as the `decision record`
    /// event when `traced` (`specs/observability.md`).
    fn record(&self, record: &crate::audit::AuditRecord, traced: bool) {
        if let Some(audit) = &self.audit {
            audit.append(record);
        }
        if traced {
            record.trace();
        }
    }

    /// The protected set of the current snapshot, built once per generation; empty when the
    /// feature is off.
    fn protected_set(&self) -> Arc<ProtectedSet> {
        if !self.enabled {
            return Arc::new(ProtectedSet::new(Vec::new()).with_home(self.home.clone()));
        }
        let snapshot = self.reader.snapshot();
        {
            let mut cache = lock(&self.guard);
            match &*cache {
                Some(set) if set.is_current_for(&snapshot) => Arc::clone(set),
                _ => {
                    let set = Arc::new(
                        ProtectedSet::from_snapshot(&snapshot).with_home(self.home.clone()),
                    );
                    *cache = Some(Arc::clone(&set));
                    set
                }
            }
        }
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.reader.snapshot()
    }
}

/// How many session directories [`HookRuntime::add_session_dir`] keeps (the most recent).
pub const MAX_SESSION_DIRS: usize = 16;

/// Strict mode on a gated event: when a blocking hook failed (it could not start, crashed,
/// timed out, or answered in a way its format reads as a failure) and no hook denied, the
/// first such failure denies, whatever the hook's format or its own failure policy.
fn fail_closed_on_failure(report: &mut FireReport) {
    if report.verdict.decision == Some(Decision::Deny) {
        return;
    }
    let failed = report.runs.iter().find_map(|r| {
        let failure = r.verdict.as_ref()?.failure.as_ref()?;
        (r.mode == ExecutionMode::Blocking && r.status == RunStatus::Ran)
            .then(|| (r.provenance.clone(), failure.clone()))
    });
    if let Some((provenance, failure)) = failed {
        report.verdict.reason = Some(format!(
            "hook {} failed, which denies under strict mode: {failure}",
            provenance.hook_id
        ));
        report.verdict.decision = Some(Decision::Deny);
        report.verdict.decided_by = Some(provenance);
    }
}

/// Locks a mutex that is only ever held for a few instructions, recovering from poisoning
/// (the data is plain values; a panic elsewhere cannot leave it half-written).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests;
