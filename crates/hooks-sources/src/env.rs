//! The table of environment variables the engine reads, and the one function that reads them.

use std::{
    collections::BTreeMap,
    ffi::{OsStr, OsString},
    path::PathBuf,
};

use hooks_schema::FormatSet;

/// One environment variable the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvVarSpec {
    /// The variable's name.
    pub name: &'static str,
    /// What the engine uses it for.
    pub purpose: &'static str,
}

/// The values of every environment variable the engine reads, captured once.
///
/// [`EnvVars::from_process`] is the only function in the engine that reads the process
/// environment (clippy bans `std::env::var` and `std::env::var_os` everywhere else); the
/// rest of the engine takes an `EnvVars` (or the values it holds) as an argument, so tests
/// build one with [`EnvVars::from_lookup`] and never touch the real environment.
///
/// [`EnvVars::TABLE`] lists every variable; `specs/env-vars.md` lists the same set, and a
/// test fails when the two disagree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvVars {
    /// [`EnvVars::HOOK_DIRS`]: comma-separated directories of explicit, run-delivered hook files.
    pub hook_dirs: Option<OsString>,
    /// [`EnvVars::HOME`]: the user's home directory.
    pub home: Option<OsString>,
    /// [`EnvVars::USERPROFILE`]: the user's home directory on Windows.
    pub userprofile: Option<OsString>,
    /// [`EnvVars::APPDATA`]: the roaming application data directory on Windows.
    pub appdata: Option<OsString>,
    /// [`EnvVars::XDG_CONFIG_HOME`]: the base of per-user configuration directories.
    pub xdg_config_home: Option<OsString>,
    /// [`EnvVars::XDG_STATE_HOME`]: the base of per-user state directories.
    pub xdg_state_home: Option<OsString>,
    /// [`EnvVars::LOCALAPPDATA`]: the local application data directory on Windows.
    pub localappdata: Option<OsString>,
    /// [`EnvVars::SHELL`]: the user's login shell.
    pub shell: Option<OsString>,
    /// [`EnvVars::ZDOTDIR`]: the folder zsh reads its start-up files from.
    pub zdotdir: Option<OsString>,
    /// [`EnvVars::NO_COLOR`]: set (and not empty) when the user asks for output without
    /// colour.
    pub no_color: Option<OsString>,
    /// [`EnvVars::PATH`]: where programs named without a folder are looked up.
    pub path: Option<OsString>,
    /// [`EnvVars::RUST_LOG`]: the `hooks` tool's log filter when `--log-level` is not given.
    pub rust_log: Option<OsString>,
    /// [`EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT`]: the collector's base URL for the OpenTelemetry
    /// exporter.
    pub otel_endpoint: Option<OsString>,
    /// [`EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`]: the collector's full URL for spans.
    pub otel_traces_endpoint: Option<OsString>,
    /// [`EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`]: the collector's full URL for log records.
    pub otel_logs_endpoint: Option<OsString>,
    /// [`EnvVars::OTEL_EXPORTER_OTLP_HEADERS`]: headers sent with every export.
    pub otel_headers: Option<OsString>,
    /// [`EnvVars::OTEL_SERVICE_NAME`]: the `service.name` the exporter reports.
    pub otel_service_name: Option<OsString>,
    /// The variables the registered formats declare to move their user folder
    /// ([`hooks_schema::UserDir::env`], `CODEX_HOME`; [`hooks_schema::UserDir::home_env`],
    /// `GEMINI_CLI_HOME`), their administrator's folder
    /// ([`hooks_schema::ManagedDir::folder_of_env`]) or one of their files
    /// ([`hooks_schema::FileLocation::env`], `GEMINI_CLI_SYSTEM_SETTINGS_PATH`), by name;
    /// only those set.
    pub format_vars: BTreeMap<String, OsString>,
    /// The variables of [`EnvVars::HOOK_LOADERS`] (hooks inherit them, and their
    /// interpreters load code or modules from what they name), by name; only those set.
    pub hook_loaders: BTreeMap<String, OsString>,
    /// The working directory of the process the values were read from, when known: a
    /// format's variable set to a relative path names a folder or file from there, as the
    /// agents (which open such paths relative to their own working directory) read it.
    /// Without it such values are ignored.
    pub cwd: Option<PathBuf>,
}

impl EnvVars {
    /// The variable naming explicit hook directories. Embedders that want another name change
    /// this one constant; nothing else spells it.
    pub const HOOK_DIRS: &'static str = "WARP_HOOK_DIRS";
    /// The user's home directory: `~` in [`EnvVars::HOOK_DIRS`] entries and the base of the
    /// formats' user folders (`~/.cursor`, `~/.claude`, `~/.chrys`).
    pub const HOME: &'static str = "HOME";
    /// The home directory on Windows, used when `HOME` is unset.
    pub const USERPROFILE: &'static str = "USERPROFILE";
    /// On Windows, the base of the user folders that formats keep under it (Chrys's
    /// `%APPDATA%\chrys`).
    pub const APPDATA: &'static str = "APPDATA";
    /// The base of the engine's own per-user configuration directory
    /// (`$XDG_CONFIG_HOME/agent-hooks`, default `~/.config/agent-hooks`), where the engine keeps
    /// its own state. (The project-hooks opt-in is read from Chrys's own settings,
    /// [`crate::read_user_policy`].)
    pub const XDG_CONFIG_HOME: &'static str = "XDG_CONFIG_HOME";
    /// The base of the engine's own per-user state directory (`$XDG_STATE_HOME/agent-hooks`,
    /// default `~/.local/state/agent-hooks` on Linux), where the trust store lives.
    pub const XDG_STATE_HOME: &'static str = "XDG_STATE_HOME";
    /// On Windows, the base of the engine's state directory (`%LOCALAPPDATA%\agent-hooks`).
    pub const LOCALAPPDATA: &'static str = "LOCALAPPDATA";
    /// The user's login shell, handed to codecs as `EncodeContext::user_shell` for formats that
    /// run command strings through a shell.
    pub const SHELL: &'static str = "SHELL";
    /// The folder zsh reads its start-up files (`.zshenv`, `.zshrc`, …) from instead of the
    /// home: the guard protects them there too, as they can move every agent's folders.
    pub const ZDOTDIR: &'static str = "ZDOTDIR";
    /// The `NO_COLOR` convention: the `hooks` tool prints no colour when it is set and not
    /// empty.
    pub const NO_COLOR: &'static str = "NO_COLOR";
    /// The program search path: `hooks check` looks up the programs hooks name without a
    /// folder on it, to warn about one that is not found. (Hooks are started with the
    /// inherited environment, so the same value finds their programs when they run.)
    pub const PATH: &'static str = "PATH";
    /// The `hooks` tool's log filter (`tracing-subscriber`'s `EnvFilter` syntax) when
    /// `--log-level` is not given.
    pub const RUST_LOG: &'static str = "RUST_LOG";
    /// The OpenTelemetry collector's base URL (OTLP/HTTP): spans go to `<url>/v1/traces`,
    /// decision records and events to `<url>/v1/logs` (the `hooks` tool built with the `otel`
    /// feature; `--otlp-endpoint` wins).
    pub const OTEL_EXPORTER_OTLP_ENDPOINT: &'static str = "OTEL_EXPORTER_OTLP_ENDPOINT";
    /// The collector's full URL for spans, used as it is (over the base URL).
    pub const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: &'static str =
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
    /// The collector's full URL for log records, used as it is (over the base URL).
    pub const OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: &'static str = "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT";
    /// Headers sent with every export, `key=value` pairs separated by commas (an
    /// authorization token, for instance).
    pub const OTEL_EXPORTER_OTLP_HEADERS: &'static str = "OTEL_EXPORTER_OTLP_HEADERS";
    /// The `service.name` resource attribute of what is exported (default `agent-hooks`).
    pub const OTEL_SERVICE_NAME: &'static str = "OTEL_SERVICE_NAME";

    /// The variables hooks inherit from the agent that make their interpreters load code at
    /// start (`BASH_ENV`, `NODE_OPTIONS`' `--require`, `LD_PRELOAD`) or import modules from
    /// the folders they name (`PYTHONPATH`, `NODE_PATH`, `PERL5LIB`), or that move the
    /// configuration the programs gates use read at start (`GIT_CONFIG_GLOBAL`, `CURL_HOME`,
    /// `NPM_CONFIG_USERCONFIG`): the guard protects those files and folders (findings F48,
    /// F50, `specs/guard.md`). Read into [`EnvVars::hook_loaders`], in this order, after the
    /// rest of [`EnvVars::TABLE`].
    pub const HOOK_LOADERS: [&'static str; 61] = [
        "BASH_ENV",
        "ENV",
        "NODE_OPTIONS",
        "LD_PRELOAD",
        "LD_AUDIT",
        "RUBYOPT",
        "PERL5OPT",
        "PYTHONPATH",
        "PYTHONUSERBASE",
        "PYTHONHOME",
        "NODE_PATH",
        "RUBYLIB",
        "GEM_HOME",
        "GEM_PATH",
        "PERL5LIB",
        "PERLLIB",
        "LD_LIBRARY_PATH",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "CURL_HOME",
        "WGETRC",
        "NPM_CONFIG_USERCONFIG",
        "npm_config_userconfig",
        "NPM_CONFIG_GLOBALCONFIG",
        "npm_config_globalconfig",
        "UV_CONFIG_FILE",
        "VIRTUAL_ENV",
        "UV_PROJECT_ENVIRONMENT",
        "POETRY_VIRTUALENVS_PATH",
        "XDG_CACHE_HOME",
        "UV_CACHE_DIR",
        "NPM_CONFIG_CACHE",
        "npm_config_cache",
        "PIPX_HOME",
        "DENO_DIR",
        "GOMODCACHE",
        "GOCACHE",
        "GOENV",
        "CARGO_HOME",
        "CARGO_TARGET_DIR",
        "WORKON_HOME",
        "GIT_DIR",
        "GIT_COMMON_DIR",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_EXTERNAL_DIFF",
        "GIT_PROXY_COMMAND",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_PARAMETERS",
        "PRE_COMMIT_HOME",
        "PREK_HOME",
        "LEFTHOOK_CONFIG",
        "LEFTHOOK_BIN",
        "RIPGREP_CONFIG_PATH",
        "PYLINTRC",
        "PYTHONPYCACHEPREFIX",
        "TSX_TSCONFIG_PATH",
        "TS_NODE_PROJECT",
        "BLACK_CACHE_DIR",
    ];

    /// At most this many of `GIT_CONFIG_COUNT`'s entries are read.
    pub const MAX_GIT_CONFIG_ENTRIES: usize = 64;

    /// Every variable the engine reads, with what it is for.
    pub const TABLE: [EnvVarSpec; 78] = [
        EnvVarSpec {
            name: EnvVars::HOOK_DIRS,
            purpose: "comma-separated directories of run-delivered hook files; entries are trimmed, blanks skipped, `~` expanded, relative entries resolved against the working directory",
        },
        EnvVarSpec {
            name: EnvVars::HOME,
            purpose: "the user's home: `~` in hook directory entries and the base of `~/.cursor/hooks.json`, `~/.claude/settings.json` and `~/.chrys/hooks/`",
        },
        EnvVarSpec {
            name: EnvVars::USERPROFILE,
            purpose: "the user's home on Windows when `HOME` is unset",
        },
        EnvVarSpec {
            name: EnvVars::APPDATA,
            purpose: "on Windows, the base of Chrys's config directory (`%APPDATA%\\chrys`)",
        },
        EnvVarSpec {
            name: EnvVars::XDG_CONFIG_HOME,
            purpose: "the base of the engine's own user settings (`$XDG_CONFIG_HOME/agent-hooks`, default `~/.config/agent-hooks`)",
        },
        EnvVarSpec {
            name: EnvVars::XDG_STATE_HOME,
            purpose: "the base of the engine's own state (`$XDG_STATE_HOME/agent-hooks`, default `~/.local/state/agent-hooks`): the trust store `hooks trust` writes",
        },
        EnvVarSpec {
            name: EnvVars::LOCALAPPDATA,
            purpose: "on Windows, the base of the engine's own state (`%LOCALAPPDATA%\\agent-hooks`) when `XDG_STATE_HOME` is unset",
        },
        EnvVarSpec {
            name: EnvVars::SHELL,
            purpose: "the user's login shell, passed to codecs for formats that run command strings through a shell",
        },
        EnvVarSpec {
            name: EnvVars::ZDOTDIR,
            purpose: "the folder zsh reads its start-up files from instead of the home: the guard protects `.zshenv`, `.zprofile`, `.zshrc` and `.zlogin` there too",
        },
        EnvVarSpec {
            name: EnvVars::NO_COLOR,
            purpose: "when set and not empty, the `hooks` tool prints no colour",
        },
        EnvVarSpec {
            name: EnvVars::PATH,
            purpose: "the program search path `hooks check` looks up bare program names on, to warn about hooks whose program is not found",
        },
        EnvVarSpec {
            name: EnvVars::RUST_LOG,
            purpose: "the `hooks` tool's log filter (`EnvFilter` syntax: `info`, `hooks::dispatch=debug`) when `--log-level` is not given",
        },
        EnvVarSpec {
            name: EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT,
            purpose: "the OpenTelemetry collector's base URL (OTLP/HTTP): `<url>/v1/traces` and `<url>/v1/logs`; only with the `otel` feature, `--otlp-endpoint` wins",
        },
        EnvVarSpec {
            name: EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
            purpose: "the collector's full URL for spans, used as it is",
        },
        EnvVarSpec {
            name: EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT,
            purpose: "the collector's full URL for decision records and events, used as it is",
        },
        EnvVarSpec {
            name: EnvVars::OTEL_EXPORTER_OTLP_HEADERS,
            purpose: "headers sent with every export (`key=value,key2=value2`)",
        },
        EnvVarSpec {
            name: EnvVars::OTEL_SERVICE_NAME,
            purpose: "the `service.name` the exporter reports (default `agent-hooks`)",
        },
        EnvVarSpec {
            name: "BASH_ENV",
            purpose: "the file bash sources before every non-interactive command, a hook's among them: protected by the guard",
        },
        EnvVarSpec {
            name: "ENV",
            purpose: "the file `sh` (dash, POSIX mode) sources at start when it names one: protected by the guard",
        },
        EnvVarSpec {
            name: "NODE_OPTIONS",
            purpose: "Node's options for every Node hook: the files its `--require`, `--import`, `--loader` and `--env-file` name are protected by the guard",
        },
        EnvVarSpec {
            name: "LD_PRELOAD",
            purpose: "libraries the dynamic linker loads into every hook's process: protected by the guard",
        },
        EnvVarSpec {
            name: "LD_AUDIT",
            purpose: "audit libraries the dynamic linker loads into every hook's process: protected by the guard",
        },
        EnvVarSpec {
            name: "RUBYOPT",
            purpose: "Ruby's options for every Ruby hook: the files its `-r` and the folders its `-I` name are protected by the guard",
        },
        EnvVarSpec {
            name: "PERL5OPT",
            purpose: "Perl's options for every Perl hook: the folders its `-I` names are protected by the guard",
        },
        EnvVarSpec {
            name: "PYTHONPATH",
            purpose: "folders every Python hook imports from before the standard library (a `sitecustomize.py` there runs at start): protected whole by the guard",
        },
        EnvVarSpec {
            name: "PYTHONUSERBASE",
            purpose: "the folder whose `lib/` holds the user's Python site every Python hook starts from: that `lib/` is protected whole by the guard",
        },
        EnvVarSpec {
            name: "PYTHONHOME",
            purpose: "the installation every Python hook takes its standard library from: its `lib/` is protected whole by the guard",
        },
        EnvVarSpec {
            name: "NODE_PATH",
            purpose: "folders a Node hook's `require` looks in: protected whole by the guard",
        },
        EnvVarSpec {
            name: "RUBYLIB",
            purpose: "folders every Ruby hook loads libraries from first: protected whole by the guard",
        },
        EnvVarSpec {
            name: "GEM_HOME",
            purpose: "where RubyGems installs and finds gems for every Ruby hook: protected whole by the guard",
        },
        EnvVarSpec {
            name: "GEM_PATH",
            purpose: "the folders RubyGems finds gems in for every Ruby hook: protected whole by the guard",
        },
        EnvVarSpec {
            name: "PERL5LIB",
            purpose: "folders every Perl hook loads modules from first (`strict`, `warnings` included): protected whole by the guard",
        },
        EnvVarSpec {
            name: "PERLLIB",
            purpose: "folders every Perl hook loads modules from when `PERL5LIB` is unset: protected whole by the guard",
        },
        EnvVarSpec {
            name: "LD_LIBRARY_PATH",
            purpose: "folders the dynamic linker loads every hook's libraries from first: protected whole by the guard",
        },
        EnvVarSpec {
            name: "GIT_CONFIG_GLOBAL",
            purpose: "the user's git configuration in place of `~/.gitconfig`, which every git command a hook runs reads: protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_CONFIG_SYSTEM",
            purpose: "the system's git configuration in place of `/etc/gitconfig`: protected by the guard",
        },
        EnvVarSpec {
            name: "CURL_HOME",
            purpose: "the folder whose `.curlrc` every curl a hook runs reads: that file is protected by the guard",
        },
        EnvVarSpec {
            name: "WGETRC",
            purpose: "the start-up file every wget a hook runs reads: protected by the guard",
        },
        EnvVarSpec {
            name: "NPM_CONFIG_USERCONFIG",
            purpose: "the user's npm configuration in place of `~/.npmrc` (its `script-shell`, `node-options`): protected by the guard",
        },
        EnvVarSpec {
            name: "npm_config_userconfig",
            purpose: "the same in npm's lower-case spelling, which npm reads alike: protected by the guard",
        },
        EnvVarSpec {
            name: "NPM_CONFIG_GLOBALCONFIG",
            purpose: "npm's global configuration file in place of `$PREFIX/etc/npmrc`: protected by the guard",
        },
        EnvVarSpec {
            name: "npm_config_globalconfig",
            purpose: "the same in npm's lower-case spelling: protected by the guard",
        },
        EnvVarSpec {
            name: "UV_CONFIG_FILE",
            purpose: "uv's configuration file in place of `uv.toml` and `~/.config/uv/uv.toml`: protected by the guard",
        },
        EnvVarSpec {
            name: "VIRTUAL_ENV",
            purpose: "the activated Python environment, which `poetry run` and `pipenv run` run hooks in: its `lib/`, `lib64/` and `pyvenv.cfg` are protected by the guard",
        },
        EnvVarSpec {
            name: "UV_PROJECT_ENVIRONMENT",
            purpose: "the environment `uv run` runs hooks in, in place of the project's `.venv` (when absolute): its `lib/`, `lib64/` and `pyvenv.cfg` are protected by the guard",
        },
        EnvVarSpec {
            name: "POETRY_VIRTUALENVS_PATH",
            purpose: "the folder of Poetry's environments, in place of its cache's `virtualenvs/`: protected whole by the guard",
        },
        EnvVarSpec {
            name: "XDG_CACHE_HOME",
            purpose: "the user's cache folder in place of `~/.cache`: the caches runners run code from there (`uv/`, `pnpm/`, `yarn/`, `deno/`) are protected whole by the guard",
        },
        EnvVarSpec {
            name: "UV_CACHE_DIR",
            purpose: "uv's cache in place of `~/.cache/uv` (the environments `uvx` and `uv run --with` run tools in): protected whole by the guard",
        },
        EnvVarSpec {
            name: "NPM_CONFIG_CACHE",
            purpose: "npm's cache in place of `~/.npm`: its `_npx/`, whose tools `npx` runs, is protected whole by the guard",
        },
        EnvVarSpec {
            name: "npm_config_cache",
            purpose: "the same in npm's lower-case spelling: its `_npx/` is protected whole by the guard",
        },
        EnvVarSpec {
            name: "PIPX_HOME",
            purpose: "pipx's folder in place of `~/.local/share/pipx` (the environments `pipx run` runs tools in): protected whole by the guard",
        },
        EnvVarSpec {
            name: "DENO_DIR",
            purpose: "Deno's cache in place of `~/.cache/deno` (the modules a Deno hook imports): protected whole by the guard",
        },
        EnvVarSpec {
            name: "GOMODCACHE",
            purpose: "Go's module cache in place of `~/go/pkg/mod` (the modules `go run` compiles a hook with): protected whole by the guard",
        },
        EnvVarSpec {
            name: "GOCACHE",
            purpose: "Go's build cache in place of `~/.cache/go-build`, whose outputs `go run` trusts: protected whole by the guard",
        },
        EnvVarSpec {
            name: "GOENV",
            purpose: "the file `go env -w` writes in place of `~/.config/go/env` (its `GOFLAGS` can add `-exec`): protected by the guard",
        },
        EnvVarSpec {
            name: "CARGO_HOME",
            purpose: "Cargo's folder in place of `~/.cargo`: its `config.toml`, `registry/` and `git/` (the sources `cargo run` compiles a hook with) are protected by the guard",
        },
        EnvVarSpec {
            name: "CARGO_TARGET_DIR",
            purpose: "where `cargo run` keeps the programs it built, in place of a project's `target/` (run as they are while newer than their sources), when absolute: protected whole by the guard",
        },
        EnvVarSpec {
            name: "WORKON_HOME",
            purpose: "the folder of Pipenv's (and virtualenvwrapper's) environments, in place of `~/.local/share/virtualenvs`: protected whole by the guard",
        },
        EnvVarSpec {
            name: "GIT_DIR",
            purpose: "the repository every git command a hook runs uses in place of the one it would find: protected whole by the guard, with what its `config` includes",
        },
        EnvVarSpec {
            name: "GIT_COMMON_DIR",
            purpose: "the repository folder a worktree's git takes its configuration and hooks from: protected whole by the guard, with what its `config` includes",
        },
        EnvVarSpec {
            name: "GIT_SSH_COMMAND",
            purpose: "the command line git runs in place of `ssh` for a fetch over ssh: what it names from the root or the home (its program, scripts, `-F` file) is protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_SSH",
            purpose: "the program git runs in place of `ssh`, when absolute: protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_EXTERNAL_DIFF",
            purpose: "the command line `git diff` runs in place of its own diff: what it names from the root or the home is protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_PROXY_COMMAND",
            purpose: "the command line git runs to reach a `git://` remote: what it names from the root or the home is protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_ASKPASS",
            purpose: "the command line git runs for a password: what it names from the root or the home is protected by the guard",
        },
        EnvVarSpec {
            name: "SSH_ASKPASS",
            purpose: "the program ssh (and git) run for a password or a confirmation: what it names from the root or the home is protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_CONFIG_COUNT",
            purpose: "how many configuration entries `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>` give git (read too, the first 64): what they include, the hooks folder and the commands they name are protected by the guard",
        },
        EnvVarSpec {
            name: "GIT_CONFIG_PARAMETERS",
            purpose: "the configuration entries `git -c` gives the git commands it runs: read as `GIT_CONFIG_COUNT`'s",
        },
        EnvVarSpec {
            name: "PRE_COMMIT_HOME",
            purpose: "pre-commit's cache in place of `~/.cache/pre-commit` (the repositories and environments its hooks run): protected whole by the guard",
        },
        EnvVarSpec {
            name: "PREK_HOME",
            purpose: "prek's cache in place of `~/.cache/prek` (the repositories and environments its hooks run): protected whole by the guard",
        },
        EnvVarSpec {
            name: "LEFTHOOK_CONFIG",
            purpose: "the configuration lefthook reads in place of the repository's: protected by the guard, with what its commands name from the root or the home",
        },
        EnvVarSpec {
            name: "LEFTHOOK_BIN",
            purpose: "the lefthook program lefthook's hook scripts run: protected by the guard when absolute",
        },
        EnvVarSpec {
            name: "RIPGREP_CONFIG_PATH",
            purpose: "the only configuration ripgrep reads, at every run (a gate's `rg` search among them): protected by the guard when absolute, with the absolute programs of its `--pre` options and files of its `--ignore-file` options (F133)",
        },
        EnvVarSpec {
            name: "PYLINTRC",
            purpose: "the configuration pylint reads where the project has none of its own (its `init-hook` is Python run first): protected by the guard when absolute (F134)",
        },
        EnvVarSpec {
            name: "PYTHONPYCACHEPREFIX",
            purpose: "the folder Python reads and writes every module's compiled form in, the standard library's included, in place of each module's `__pycache__`: protected whole by the guard when absolute (F135)",
        },
        EnvVarSpec {
            name: "TSX_TSCONFIG_PATH",
            purpose: "the TypeScript configuration tsx reads in place of the nearest `tsconfig.json` (its `paths` send a script's imports elsewhere): protected by the guard when absolute, with the files its `extends` chain names, and a TypeScript hook script's imports are read through it (F137)",
        },
        EnvVarSpec {
            name: "TS_NODE_PROJECT",
            purpose: "the TypeScript configuration ts-node reads in place of the nearest `tsconfig.json` (its `ts-node` `require` entries run before the script): protected by the guard when absolute, with the files its `extends` chain and `require` entries name (F137)",
        },
        EnvVarSpec {
            name: "BLACK_CACHE_DIR",
            purpose: "black's cache in place of `~/.cache/black`, whose pickles (its grammar tables, its cache of formatted files) black loads at every start: protected whole by the guard when absolute (F139)",
        },
    ];

    /// Reads every variable in [`EnvVars::TABLE`] from the process environment.
    ///
    /// This and [`EnvVars::from_process_with`] are the functions in the engine that read the
    /// environment.
    #[allow(clippy::disallowed_methods)]
    pub fn from_process() -> EnvVars {
        EnvVars { cwd: process_cwd(), ..EnvVars::from_lookup(|name| std::env::var_os(name)) }
    }

    /// [`EnvVars::from_process`], and the folder overrides `formats` declare
    /// ([`EnvVars::format_vars`]).
    #[allow(clippy::disallowed_methods)]
    pub fn from_process_with(formats: &FormatSet) -> EnvVars {
        EnvVars {
            cwd: process_cwd(),
            ..EnvVars::from_lookup_with(formats, |name| std::env::var_os(name))
        }
    }

    /// The same values read as if from a process working in `cwd` ([`EnvVars::cwd`]).
    #[must_use]
    pub fn with_cwd(self, cwd: impl Into<PathBuf>) -> EnvVars {
        EnvVars { cwd: Some(cwd.into()), ..self }
    }

    /// A format's variable as a path ([`EnvVars::format_var`]): an absolute value as it is,
    /// a relative one from [`EnvVars::cwd`] (`None` without it).
    pub fn format_path(&self, name: &str) -> Option<PathBuf> {
        let value = PathBuf::from(self.format_var(name)?);
        if value.is_absolute() {
            return Some(value);
        }
        self.cwd.as_deref().filter(|c| c.is_absolute()).map(|c| c.join(value))
    }

    /// [`EnvVars::from_lookup`], and the folder overrides `formats` declare, looked up the
    /// same way.
    pub fn from_lookup_with(
        formats: &FormatSet,
        mut lookup: impl FnMut(&str) -> Option<OsString>,
    ) -> EnvVars {
        let mut env = EnvVars::from_lookup(&mut lookup);
        for var in EnvVars::format_var_names(formats) {
            if let Some(v) = lookup(var).filter(|v| !v.is_empty()) {
                env.format_vars.insert(var.to_owned(), v);
            }
        }
        env
    }

    /// The variables `formats` declare to move their user folder, their administrator's
    /// folder or one of their files, in registration order.
    pub fn format_var_names(formats: &FormatSet) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for f in formats.iter() {
            let dirs = f.dirs();
            if let Some(user) = dirs.user {
                names.extend(user.env);
                names.extend(user.home_env);
            }
            names.extend(dirs.managed.and_then(|m| m.folder_of_env));
            names.extend(f.locations().iter().filter_map(|l| l.env));
        }
        let mut seen = std::collections::BTreeSet::new();
        names.retain(|n| seen.insert(*n));
        names
    }

    /// The value of a format's folder override `name`, when it was captured and set.
    pub fn format_var(&self, name: &str) -> Option<&OsStr> {
        self.format_vars.get(name).map(OsString::as_os_str)
    }

    /// Builds the values from `lookup`, called once per name in [`EnvVars::TABLE`], then for
    /// the `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>` that `GIT_CONFIG_COUNT` counts
    /// (at most [`EnvVars::MAX_GIT_CONFIG_ENTRIES`]). Tests and embedders with their own
    /// environment use this.
    pub fn from_lookup(mut lookup: impl FnMut(&str) -> Option<OsString>) -> EnvVars {
        // Empty values count as unset, as shells treat `VAR=` for these variables.
        let mut get = |name: &str| lookup(name).filter(|v| !v.is_empty());
        let mut env = EnvVars {
            hook_dirs: get(EnvVars::HOOK_DIRS),
            home: get(EnvVars::HOME),
            userprofile: get(EnvVars::USERPROFILE),
            appdata: get(EnvVars::APPDATA),
            xdg_config_home: get(EnvVars::XDG_CONFIG_HOME),
            xdg_state_home: get(EnvVars::XDG_STATE_HOME),
            localappdata: get(EnvVars::LOCALAPPDATA),
            shell: get(EnvVars::SHELL),
            zdotdir: get(EnvVars::ZDOTDIR),
            no_color: get(EnvVars::NO_COLOR),
            path: get(EnvVars::PATH),
            rust_log: get(EnvVars::RUST_LOG),
            otel_endpoint: get(EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT),
            otel_traces_endpoint: get(EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
            otel_logs_endpoint: get(EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT),
            otel_headers: get(EnvVars::OTEL_EXPORTER_OTLP_HEADERS),
            otel_service_name: get(EnvVars::OTEL_SERVICE_NAME),
            format_vars: BTreeMap::new(),
            hook_loaders: EnvVars::HOOK_LOADERS
                .iter()
                .filter_map(|name| Some(((*name).to_owned(), get(name)?)))
                .collect(),
            cwd: None,
        };
        // The entries `GIT_CONFIG_COUNT` counts, by their own names (F62).
        let count = (env.hook_loaders.get("GIT_CONFIG_COUNT"))
            .and_then(|v| v.to_str()?.trim().parse::<usize>().ok())
            .unwrap_or(0)
            .min(EnvVars::MAX_GIT_CONFIG_ENTRIES);
        for i in 0..count {
            for name in [format!("GIT_CONFIG_KEY_{i}"), format!("GIT_CONFIG_VALUE_{i}")] {
                if let Some(value) = get(&name) {
                    env.hook_loaders.insert(name, value);
                }
            }
        }
        env
    }

    /// The git configuration entries the environment gives git (`GIT_CONFIG_COUNT`'s
    /// `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>`, in order), as (name, value); an
    /// entry without a key is skipped, one without a value has an empty one.
    pub fn git_config_entries(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for i in 0..EnvVars::MAX_GIT_CONFIG_ENTRIES {
            let Some(key) = self.hook_loaders.get(&format!("GIT_CONFIG_KEY_{i}")) else {
                continue;
            };
            let value = self.hook_loaders.get(&format!("GIT_CONFIG_VALUE_{i}"));
            out.push((
                key.to_string_lossy().into_owned(),
                value.map(|v| v.to_string_lossy().into_owned()).unwrap_or_default(),
            ));
        }
        out
    }

    /// Builds the values from `(name, value)` pairs; names not in the table are ignored.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a OsStr)>) -> EnvVars {
        let pairs: Vec<(&str, &OsStr)> = pairs.into_iter().collect();
        EnvVars::from_lookup(|name| {
            pairs.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.to_os_string())
        })
    }

    /// The user's home directory: `HOME`, else `USERPROFILE`. Only absolute values count.
    pub fn home_dir(&self) -> Option<PathBuf> {
        [&self.home, &self.userprofile]
            .into_iter()
            .flatten()
            .map(PathBuf::from)
            .find(|p| p.is_absolute())
    }

    /// The engine's own per-user configuration directory: `$XDG_CONFIG_HOME/agent-hooks` when
    /// that is absolute, else `<home>/.config/agent-hooks`.
    pub fn engine_config_dir(&self) -> Option<PathBuf> {
        let xdg = self.xdg_config_home.as_ref().map(PathBuf::from).filter(|p| p.is_absolute());
        let base = xdg.or_else(|| self.home_dir().map(|h| h.join(".config")))?;
        Some(base.join("agent-hooks"))
    }

    /// The engine's own per-user state directory, where the trust store lives:
    /// `$XDG_STATE_HOME/agent-hooks` when that is absolute (on every platform, as
    /// [`EnvVars::engine_config_dir`] honours `XDG_CONFIG_HOME`); otherwise the platform's
    /// place for per-user application state: `%LOCALAPPDATA%\agent-hooks` on Windows,
    /// `~/Library/Application Support/agent-hooks` on macOS, `~/.local/state/agent-hooks`
    /// elsewhere (the XDG default).
    pub fn engine_state_dir(&self) -> Option<PathBuf> {
        let absolute =
            |v: &Option<OsString>| v.as_ref().map(PathBuf::from).filter(|p| p.is_absolute());
        if let Some(base) = absolute(&self.xdg_state_home) {
            return Some(base.join("agent-hooks"));
        }
        if cfg!(windows)
            && let Some(base) = absolute(&self.localappdata)
        {
            return Some(base.join("agent-hooks"));
        }
        let home = self.home_dir()?;
        Some(if cfg!(target_os = "macos") {
            home.join("Library/Application Support/agent-hooks")
        } else if cfg!(windows) {
            home.join("AppData\\Local\\agent-hooks")
        } else {
            home.join(".local/state/agent-hooks")
        })
    }

    /// The user's login shell, when it is valid UTF-8.
    pub fn shell(&self) -> Option<&str> {
        self.shell.as_ref().and_then(|s| s.to_str())
    }
}

#[cfg(test)]
mod tests;

/// This process's working directory, if it can be read.
fn process_cwd() -> Option<PathBuf> {
    std::env::current_dir().ok()
}
