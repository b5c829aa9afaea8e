//! Command-line definitions of the `hooks` tool (clap).

use std::path::PathBuf;

use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand, ValueEnum};

/// Exit codes, documented in `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  check   0 every file valid (warnings allowed), 1 a file has errors, 2 usage error
  list    0 listed (an empty inventory too), 2 a source failed to load
  fire    0 allow, 2 deny, 3 ask, 1 error
  replay  0 replayed, 1 error
  guard   0 no path protected, 2 a path is protected
  trust   0 trusted (or nothing to trust), listed or revoked, 1 a file cannot be trusted
          or the store cannot be written, 3 not confirmed
  audit   0 summarised, 1 the log cannot be read
  bridge  the host agent's own exit codes (0 unless its protocol needs another)
  any     2 usage error (an invalid --log-level too)";

/// The `hooks` tool: validate, inspect, fire and replay AI-agent lifecycle hooks.
#[derive(Debug, Parser)]
#[command(
    name = "hooks",
    version,
    about = "Validate, inspect, fire and replay AI-agent lifecycle hooks (Cursor, Chrys, Claude Code, Codex, Gemini CLI, Copilot CLI, Windsurf)",
    after_help = EXIT_CODES
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// What the engine logs on stderr: a level (`error`, `warn`, `info`, `debug`, `trace`)
    /// or a filter by target (`hooks::dispatch=debug,info`); `RUST_LOG` when not given,
    /// `error` by default.
    #[arg(long, global = true, value_name = "FILTER")]
    pub log_level: Option<String>,
    /// How the engine's log lines look: `human` or `json` (one object per line, with the
    /// span each event happened in).
    #[arg(long, global = true, value_enum, default_value = "human")]
    pub log_format: LogFormat,
    /// Send the engine's spans and decision records to an OpenTelemetry collector at this
    /// base URL over OTLP/HTTP (`<URL>/v1/traces`, `<URL>/v1/logs`); the
    /// `OTEL_EXPORTER_OTLP_*` variables when not given. Only in a `hooks` built with the
    /// `otel` feature.
    #[arg(long, global = true, value_name = "URL")]
    pub otlp_endpoint: Option<String>,
}

/// `--log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Human,
    /// One JSON object per line.
    Json,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate hook files: definitions and diagnostics with line numbers, and warnings about
    /// hooks that cannot run (a missing or non-executable script, a program not on PATH).
    Check(Deferred<CheckArgs>),
    /// The redacted inventory the runtime would see: sources, trust, hooks.
    List(Deferred<ListArgs>),
    /// Load, pin and fire one event; print the verdict and every hook's outcome.
    Fire(Deferred<FireArgs>),
    /// Replay a recorded session (Claude Code transcript or canonical event log).
    Replay(Deferred<ReplayArgs>),
    /// Print one line per published snapshot until interrupted.
    Watch(Deferred<WatchArgs>),
    /// Whether agent file edits of these paths are allowed.
    Guard(Deferred<GuardArgs>),
    /// Serve the runtime over a JSON-lines protocol on stdio.
    Serve(Deferred<ServeArgs>),
    /// Review a project's hook files and the scripts they run, and trust them by content:
    /// a changed file or script is inert again until trusted again.
    Trust(Deferred<TrustArgs>),
    /// Write `hooks bridge` into an agent's own hook configuration for every event it
    /// supports, keeping the rest of the file; `--uninstall` removes exactly that.
    Install(Deferred<InstallArgs>),
    /// An agent's hook command: read its hook input on stdin, run every hook of every format
    /// that applies, answer in its protocol (`hooks install --host` registers it).
    Bridge(Deferred<BridgeArgs>),
    /// Summarise an audit log (`--audit`): decisions per hook, the slowest hooks, denials
    /// with their reasons, the guard's refusals.
    Audit(Deferred<AuditArgs>),
}

/// A command's arguments, added to its clap command only when that command is the one parsed
/// ([`clap::Command::defer`]): `hooks fire` and `hooks bridge`, which an agent starts once
/// per event, do not build the arguments of the other commands (`--help` and
/// `hooks help <command>` build what they show).
#[derive(Debug)]
pub struct Deferred<T>(pub T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args_for_update)
    }
}

/// `hooks audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The audit log (JSON lines, `specs/audit-log.md`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `auto` and the id of every registered format, for `--format`.
fn format_names() -> clap::builder::PossibleValuesParser {
    let formats = hooks_app::formats::workspace_formats();
    let ids: Vec<&'static str> = formats.iter().map(|f| f.id().as_str()).collect();
    clap::builder::PossibleValuesParser::new(std::iter::once("auto").chain(ids))
}

/// `hooks check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The format: `auto` decides from each file's name and content; otherwise a registered
    /// format's id (the possible values below).
    #[arg(long, default_value = "auto", value_parser = format_names())]
    pub format: String,
    /// Machine-readable output: one JSON object per file, one per line.
    #[arg(long)]
    pub json: bool,
    /// Show the values diagnostics quote (mistyped values, Claude `if` rules) and the
    /// `if` rules in matchers; by default only their field and type are named.
    #[arg(long)]
    pub reveal: bool,
    /// The files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// The surface the runtime fires from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SurfaceArg {
    /// A command-line agent run (default).
    Cli,
    /// A cloud run.
    Cloud,
    /// The desktop app.
    Desktop,
    /// A terminal UI.
    Tui,
    /// An editor extension.
    Ide,
    /// A web client.
    Web,
    /// A child process of a local agent.
    LocalChild,
}

/// The command-execution posture of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PostureArg {
    /// Not known (default): project files stay inert.
    Unknown,
    /// Commands run without asking.
    AutoApproves,
    /// Commands ask first.
    RequiresApproval,
}

/// Options shared by every command that builds the runtime.
#[derive(Debug, Args, Clone)]
pub struct RuntimeArgs {
    /// A project root, as if detected by terminal navigation (repeatable).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// Where the user-scope files live: the folder that stands for the home directory in every
    /// format's user paths (`DIR/.cursor/hooks.json`, `DIR/.claude/settings.json`, Chrys's
    /// `DIR/.chrys/hooks/`, `DIR/.gemini/settings.json`, …); no managed files are read when
    /// given. Defaults to the home directory.
    #[arg(long, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
    /// Explicit hook directories, comma-separated (the `WARP_HOOK_DIRS` grammar; that
    /// variable is read too).
    #[arg(long, value_name = "LIST")]
    pub hook_dirs: Option<String>,
    /// The surface the run fires from.
    #[arg(long, value_enum, default_value = "cli")]
    pub surface: SurfaceArg,
    /// The run's command-execution posture; project files activate only on cli and cloud
    /// runs that auto-approve.
    #[arg(long, value_enum, default_value = "unknown")]
    pub posture: PostureArg,
    /// The user's own opt-in to project hooks on interactive surfaces, forced on. Without
    /// it, Chrys's `project.hooks_enabled` in the user's own Chrys settings decides
    /// (`~/.chrys/settings.yaml`, `DIR/.chrys/settings.yaml` with `--config-dir`; default
    /// off); a project's own settings never count.
    #[arg(long)]
    pub enable_project_hooks: bool,
    /// Strict mode: the deny-only contract, fail closed (details with --help).
    ///
    /// The user's ~/.claude/settings.json, the managed Claude Code settings and Claude Code
    /// files among the explicit sources (--hook-dirs) are read under the strict contract: `hooks.version` must be 1; unknown keys, credential-looking keys,
    /// invalid matchers, values or `if` rules, async gates, a `shell` key and commands that
    /// need a shell are violations. A file that violates the contract, is above the size
    /// limits (1 MiB file, 64 KiB `hooks` section), is not UTF-8 JSON, or cannot be read (a
    /// FIFO, a directory, a dangling symlink, no permission) denies every gated event
    /// (pre_tool_use, prompt_submit, approval_requested, subagent_start, pre_compact). Its
    /// hooks are spawned directly, without a shell; they may only deny (an allow carries no
    /// weight, rewrites are ignored), by exit code 2 or a JSON deny, and any other answer
    /// denies too: an exit code other than 0 and 2, or output other than silence or one JSON
    /// object. Project hook files never activate. No hook can relax the host's decision. On
    /// a gated event, any failure of a blocking hook of any format denies: it could not
    /// start, crashed, timed out, or answered in a way its format reads as a failure.
    #[arg(long)]
    pub strict: bool,
    /// Append a JSON line per fire and per guard decision to FILE (created if missing,
    /// rotated at 64 MiB; `hooks audit FILE` summarises it).
    #[arg(long, value_name = "FILE")]
    pub audit: Option<PathBuf>,
    /// How hook processes are contained: `auto` (the strongest this machine allows),
    /// `cgroup-kill`, `cgroup-freeze`, `subreaper` or `process-group`. A mechanism the
    /// machine does not allow falls back to the strongest it does; `hooks list` shows what
    /// is used and why.
    #[arg(long, value_name = "MECHANISM", value_parser = parse_containment, default_value = "auto")]
    pub containment: hooks_dispatch::Containment,
    /// How resource limits are enforced: `auto` (per resource: cgroup v2 where delegated,
    /// else a cgroup v1 hierarchy, else rlimits), `cgroup-v2`, `cgroup-v1`, `rlimit` (only
    /// that way), or `off`.
    #[arg(long, value_name = "WAY", value_parser = parse_limits_via, default_value = "auto")]
    pub limits_via: hooks_dispatch::LimitsVia,
    /// A resource limit of every hook, or of one hook with `HOOK_ID:` (repeatable):
    /// `memory=512M`, `pids=256`, `cpu=50%` (of one core) or `cpu=2` (cores); `max` lifts
    /// it. Defaults: pids 1024, memory half of the machine's, no CPU cap.
    #[arg(long = "limit", value_name = "[HOOK_ID:]RESOURCE=VALUE")]
    pub limits: Vec<hooks_dispatch::LimitSetting>,
}

fn parse_containment(s: &str) -> Result<hooks_dispatch::Containment, String> {
    hooks_dispatch::Containment::parse(s).ok_or_else(|| {
        format!(
            "unknown containment `{s}` (auto, cgroup-kill, cgroup-freeze, subreaper, process-group)"
        )
    })
}

fn parse_limits_via(s: &str) -> Result<hooks_dispatch::LimitsVia, String> {
    hooks_dispatch::LimitsVia::parse(s)
        .ok_or_else(|| format!("unknown way `{s}` (auto, cgroup-v2, cgroup-v1, rlimit, off)"))
}

/// `hooks list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
    /// Show commands, arguments and environment values (redacted by default).
    #[arg(long)]
    pub reveal: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// `hooks fire`.
#[derive(Debug, Args)]
pub struct FireArgs {
    /// The canonical event (`pre_tool_use`, `prompt_submit`, …) or a native name
    /// (`PreToolUse`, `beforeShellExecution`, `before_tool_call`); with `--from`, needed only
    /// when the agent's input does not name its event (Copilot CLI's camelCase hooks).
    #[arg(required_unless_present = "from")]
    pub event: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
    /// The working directory the event fires in (defaults to the first root, else `.`).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// The envelope as JSON (a file, or `-` for stdin); `event` may be left out. With
    /// `--from`, the agent's own hook input (stdin when not given).
    #[arg(long, value_name = "FILE|-")]
    pub payload: Option<String>,
    /// The payload is this agent's own hook input, as its documentation or debug log shows it
    /// (`claude`, `codex`, `gemini`, `copilot`, `cursor`, `windsurf`), decoded by the agent's
    /// host codec as `hooks bridge` decodes it.
    #[arg(long, value_name = "AGENT")]
    pub from: Option<String>,
    /// Run nothing; explain which sources, bindings and matchers apply and why.
    #[arg(long)]
    pub dry_run: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// `hooks replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The recorded session: a Claude Code `.jsonl` transcript or a canonical event log.
    pub session: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
    /// The working directory to replay in; the recorded one is mapped onto it (defaults to
    /// the first root).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Machine-readable output: one JSON object per call, then a summary.
    #[arg(long)]
    pub json: bool,
}

/// `hooks watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many snapshots (for scripts and tests).
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
}

/// `hooks guard`.
#[derive(Debug, Args)]
pub struct GuardArgs {
    /// The session's working directory relative paths are resolved against.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// The paths an agent wants to edit.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// `hooks serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Speak the protocol on stdin and stdout (the only transport).
    #[arg(long, required = true)]
    pub stdio: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub runtime: RuntimeArgs,
}

/// `hooks trust`.
#[derive(Debug, Args)]
pub struct TrustArgs {
    /// The project whose hook files to review (defaults to the nearest folder at or above the
    /// current directory that holds `.git`, else the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Where the user-scope files live (as for the other commands): the base of `~` and
    /// Chrys's `${chrys_home}` in the commands, and of user files that need review.
    #[arg(long, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
    /// Show the commands (redacted by default).
    #[arg(long)]
    pub reveal: bool,
    /// Trust without asking.
    #[arg(long, short = 'y', conflicts_with_all = ["list", "revoke"])]
    pub yes: bool,
    /// List what the store trusts, and whether each file still matches.
    #[arg(long, conflicts_with = "revoke")]
    pub list: bool,
    /// Forget every file trusted under the project (`--root`).
    #[arg(long)]
    pub revoke: bool,
}

/// `hooks install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// The agent whose configuration to write (`claude`, `codex`, `copilot`, `cursor`,
    /// `gemini`, `windsurf`).
    #[arg(long, value_name = "AGENT")]
    pub host: String,
    /// The project's file (default) or the user's.
    #[arg(long, value_enum, default_value_t = InstallScope::Project)]
    pub scope: InstallScope,
    /// The project (defaults to the folder whose file the agent reads for a session started
    /// here: the current directory for Claude Code, Gemini CLI and Copilot CLI, which read the
    /// folder they start in; for the others the nearest folder at or above it that holds
    /// `.git`, else the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// The home the user's files are under (as for the other commands).
    #[arg(long, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
    /// Remove what install added (and a file left holding nothing else).
    #[arg(long)]
    pub uninstall: bool,
    /// Print the diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The `hooks` executable the agent is to run (default: this one).
    #[arg(long, value_name = "PATH")]
    pub bridge: Option<PathBuf>,
}

/// Whose file `hooks install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InstallScope {
    /// The project's (for Claude Code its personal `.claude/settings.local.json`).
    Project,
    /// The user's own.
    User,
}

/// `hooks bridge`.
#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The agent that runs this command as its hook (`claude`, `codex`, `copilot`, `cursor`,
    /// `gemini`, `windsurf`): a format with a host codec.
    #[arg(long)]
    pub host: String,
    /// The agent's event name, for agents whose hook input does not carry it (Copilot CLI);
    /// where the input names it, both must agree.
    #[arg(long)]
    pub event: Option<String>,
    /// Where the user-scope files live (defaults to the home directory); no managed files
    /// are read when given.
    #[arg(long, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
}

#[cfg(test)]
mod tests;
