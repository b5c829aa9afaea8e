//! Builds a `HookRuntime` from the options every runtime command shares.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hooks_schema::ExplicitScope;
use hooks_sources::{
    EnvVars, ManagedDirs, UserDirs, parse_hook_dirs_value, resolve_hook_dirs, sources_for_hook_dirs,
};
use hooks_trust::{CommandExecutionPosture, Surface};
use hooks_watcher::RootOrigin;

use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEffect, RuntimeEvent, WindowId};

use crate::cli::{PostureArg, RuntimeArgs, SurfaceArg};

/// What `hooks list` and `hooks fire --dry-run` add where no `--root` was given: the folder
/// the tool runs in is no project root by itself.
pub const NO_ROOT_HINT: &str = "`--root DIR` reads a project's hook files";

/// A runtime built from the command line, with what building it found.
pub struct Built {
    /// The runtime, roots added, explicit sources loaded, not pinned.
    pub runtime: HookRuntime,
    /// Errors from loading the explicit sources.
    pub explicit_errors: Vec<hooks_schema::HookDiagnostic>,
    /// Why the user's Chrys settings document (`project.hooks_enabled`) could not be used:
    /// a file that does not read or parse, or a value of the wrong type.
    pub settings_diagnostics: Vec<hooks_schema::HookDiagnostic>,
    /// The canonical roots that were added.
    pub roots: Vec<PathBuf>,
    /// The working directory of the process.
    pub process_cwd: PathBuf,
}

/// The surface a `--surface` value names.
pub fn surface(arg: SurfaceArg) -> Surface {
    match arg {
        SurfaceArg::Cli => Surface::CliRun,
        SurfaceArg::Cloud => Surface::OzRun,
        SurfaceArg::Desktop => Surface::Desktop,
        SurfaceArg::Tui => Surface::Tui,
        SurfaceArg::Ide => Surface::Ide,
        SurfaceArg::Web => Surface::Web,
        SurfaceArg::LocalChild => Surface::LocalChild,
    }
}

/// The posture a `--posture` value names.
pub fn posture(arg: PostureArg) -> CommandExecutionPosture {
    match arg {
        PostureArg::Unknown => CommandExecutionPosture::Unknown,
        PostureArg::AutoApproves => CommandExecutionPosture::AutoApproves,
        PostureArg::RequiresApproval => CommandExecutionPosture::RequiresApproval,
    }
}

/// Whether a command's runtime watches its hook files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// Loaded once, nothing watched: a command that fires or checks once and exits
    /// (`hooks fire`, `hooks guard`, `hooks list`), so no platform watcher or watcher thread
    /// is started (the loader reads the same files the watcher would, once).
    Once,
    /// Watched, without waiting for the watches to attach.
    Watched,
    /// Watched, each root's watch waited for (`hooks watch`).
    WatchedAndWait,
}

/// Builds the runtime: user, managed and explicit sources loaded, each `--root` added as a
/// root found by terminal navigation (watched as `watch` says), and the posture given by
/// `--posture` read through one window (none for `unknown`, as for a process without a
/// window).
pub fn build(args: &RuntimeArgs, watch: Watch) -> Result<Built> {
    build_with(args, watch, true)
}

/// [`build`], the hooks' protection for the guard computed or not
/// ([`RuntimeConfig::protection`]: off for a command that never asks the guard and shows no
/// source's diagnostics).
pub fn build_with(args: &RuntimeArgs, watch: Watch, protection: bool) -> Result<Built> {
    build_inner(args, watch, protection, Vec::new())
}

/// [`build`] for a guard that checks edits of a session running in `session_dir`
/// ([`RuntimeConfig::session_dirs`]).
pub fn build_for_session(args: &RuntimeArgs, watch: Watch, session_dir: &Path) -> Result<Built> {
    build_inner(args, watch, true, vec![session_dir.to_path_buf()])
}

fn build_inner(
    args: &RuntimeArgs,
    watch: Watch,
    protection: bool,
    session_dirs: Vec<PathBuf>,
) -> Result<Built> {
    let wait_for_watch = watch == Watch::WatchedAndWait;
    let mut config = RuntimeConfig::new(surface(args.surface));
    config.watch = watch != Watch::Once;
    config.protection = protection;
    config.session_dirs = session_dirs;
    let formats = config.formats.clone();
    let env = EnvVars::from_process_with(&formats);
    let process_cwd = std::env::current_dir().context("cannot read the current directory")?;
    config.strict = args.strict;
    config.dispatch.containment = args.containment;
    config.dispatch.limits_via = args.limits_via;
    config.dispatch.apply_limits(&args.limits);
    let user_dirs = match &args.config_dir {
        Some(dir) => UserDirs::under_home(&formats, &absolute(dir, &process_cwd)),
        None => UserDirs::from_env(&formats, &env),
    };
    let settings = hooks_sources::read_user_policy(&formats, &user_dirs);
    config.user_enables_project_hooks =
        project_hooks_opt_in(args.enable_project_hooks, settings.opt_in);
    // Chrys's `${chrys_home}`: its user folder.
    config.config_dir = user_dirs.folder(hooks_format_chrys::FORMAT).map(Path::to_path_buf);
    config.user_dirs = Some(user_dirs);
    if args.config_dir.is_none() {
        config.managed_dirs = Some(ManagedDirs::system_from_env(&formats, &env));
    }
    config.user_shell = env.shell().map(str::to_owned);
    config.home_dir = env.home_dir();
    // The folders of `$PATH` are protected whole, but not one holding the session's folder
    // or a root: that would refuse every edit of the project.
    let given_roots: Vec<PathBuf> = args.roots.iter().map(|r| absolute(r, &process_cwd)).collect();
    let mut places: Vec<&Path> = vec![process_cwd.as_path()];
    places.extend(given_roots.iter().map(PathBuf::as_path));
    config.shell_startup = hooks_app::trust::ShellStartupDirs::from_env(&env)
        .with_engine_program(std::env::current_exe().ok())
        .without_path_folders_holding(&places);
    let store = hooks_app::trust::user_store(&env);
    config.trust_store = store.as_ref().map(|s| s.path().to_path_buf());
    // The store gates the files whose agent reviews them (Codex's), on every surface.
    let user =
        hooks_app::trust::user_paths(config.home_dir.as_deref(), config.config_dir.as_deref());
    config.policy = std::sync::Arc::new(hooks_app::trust::StoreGatedPolicy::new(
        config.policy.clone(),
        formats.clone(),
        store,
        user,
        config.user_dirs.clone(),
    ));
    config.agent_version = Some(env!("CARGO_PKG_VERSION").to_owned());
    if let Some(file) = &args.audit {
        let config_audit = hooks_app::audit::AuditConfig::new(absolute(file, &process_cwd));
        let log = hooks_app::audit::AuditLog::open(config_audit)
            .with_context(|| format!("cannot open the audit log {}", file.display()))?;
        config.audit = Some(std::sync::Arc::new(log));
    }
    // The engine's own state (provided files, detached hooks' logs, the durable outbox)
    // lives in its config directory, never in the folder `--config-dir` names, which is
    // only read.
    config.dispatch.runtime_dir = env.engine_config_dir();
    let mut dirs = resolve_hook_dirs(&env, &process_cwd);
    if let Some(list) = &args.hook_dirs {
        dirs.extend(parse_hook_dirs_value(list.as_ref(), env.home_dir().as_deref(), &process_cwd));
    }
    config.explicit_sources = sources_for_hook_dirs(&formats, &dirs, ExplicitScope::RunDelivered);

    let mut runtime = HookRuntime::new(config);
    let explicit_errors = runtime.load_explicit_sources();
    let p = posture(args.posture);
    if p != CommandExecutionPosture::Unknown {
        runtime.handle(RuntimeEvent::WindowPosture { window: WindowId(1), posture: p })?;
    }
    let mut roots = Vec::new();
    for root in &args.roots {
        let root = absolute(root, &process_cwd);
        anyhow::ensure!(root.is_dir(), "--root {}: not a directory", root.display());
        let effect = runtime.handle(RuntimeEvent::RepositoryDetected {
            root: root.clone(),
            origin: RootOrigin::TerminalNavigation,
        })?;
        if let RuntimeEffect::RootAdded(attach) = effect {
            if wait_for_watch {
                match attach.wait_timeout(std::time::Duration::from_secs(10)) {
                    Some(Ok(_)) => {}
                    Some(Err(e)) => eprintln!("warning: {}: not watched: {e}", root.display()),
                    None => eprintln!(
                        "warning: {}: the watch did not attach within 10 s",
                        root.display()
                    ),
                }
            }
            roots.push(
                hooks_registry::canonicalize(&root).map(|p| p.into_path_buf()).unwrap_or(root),
            );
        }
    }
    Ok(Built {
        runtime,
        explicit_errors,
        settings_diagnostics: settings.diagnostics,
        roots,
        process_cwd,
    })
}

/// Writes the advisories the runtime has not handed out yet (Chrys's dormant project files,
/// same-id hooks across files) to stderr, one line each: every command that builds a runtime
/// calls it once built, and `hooks watch` again after each snapshot.
pub fn warn_new_advisories(runtime: &mut HookRuntime) {
    for d in runtime.new_advisories() {
        eprintln!("{d}");
    }
}

/// The user's effective opt-in to Chrys project hooks: `--enable-project-hooks` forces it on;
/// otherwise `project.hooks_enabled` from the user's own Chrys settings document decides;
/// otherwise off.
///
/// The flag only turns it on, as it always did: to run once without project hooks while the
/// settings file enables them, `--strict` keeps every project scope inert. A project's own
/// `.chrys/settings.yaml` is never read for it.
pub fn project_hooks_opt_in(flag: bool, user_setting: Option<bool>) -> bool {
    flag || user_setting.unwrap_or(false)
}

/// `path` made absolute against `base`.
pub fn absolute(path: &Path, base: &Path) -> PathBuf {
    if path.is_absolute() { path.to_path_buf() } else { base.join(path) }
}

/// A current-thread tokio runtime for one command.
pub fn tokio_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// A current-thread tokio runtime with timers and no I/O driver, for work that starts no
/// process and waits on no file descriptor (a fire that no hook applies to): building the I/O
/// driver costs a one-shot process an epoll instance, an eventfd and the signal driver's
/// socket pair for nothing.
pub fn idle_tokio_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .context("cannot start the async runtime")
}

#[cfg(test)]
mod tests;
