//! The hook files the user trusts with `hooks trust`, read and pinned the way the runtime
//! loads them: the trust store's inputs, for the `hooks trust` command, the runtime and the
//! bridge.
//!
//! Which files need the user's trust: every project hook file of every registered format
//! under a root, and the user's own files of formats whose agent reviews them too
//! ([`hooks_schema::FormatDescriptor::requires_review`], Codex's). Each is read with the
//! engine's reader (capped, regular files only), parsed by its format's descriptor, and pinned
//! with [`hooks_truststore::pin`]; the digest is of exactly the bytes parsed.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    sync::Arc,
};

use hooks_registry::UserPaths;
use hooks_schema::{
    AbsPathBuf, FileScope, FormatSet, HookDefinition, HookSourceKind, ParseContext, ParseResult,
    ParsedSource, SourceScope, TrustDecision,
};
use hooks_sources::{EnvVars, UserDirs};
use hooks_trust::{FileRead, TrustInputs, TrustPolicy};
use hooks_truststore::{
    Digest, FilePin, HookFile, PinError, PinStatus, StoreContents, StoreError, TrustStore,
};

/// The trust store of the user whose environment is `env`
/// (`<engine_state_dir>/trust.json`); `None` without a state directory (no home).
pub fn user_store(env: &EnvVars) -> Option<TrustStore> {
    env.engine_state_dir().map(|dir| TrustStore::in_state_dir(&dir))
}

/// The kind the guard reports the engine's runtime folder under (`user_engine_runtime`): it
/// holds a running hook's payload and result files (a file-protocol hook's decision), the
/// detached hooks' logs and the durable outbox's jobs, none of which the agent may write.
pub const ENGINE_RUNTIME: HookSourceKind = HookSourceKind::file(
    FileScope::User,
    hooks_schema::FileRole::new(hooks_truststore::ENGINE, "engine_runtime", 0),
);

/// The kind the guard reports the user's shell start-up files under (`user_shell_startup`):
/// they set the variables every agent finds its hook folders by (`HOME`,
/// `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GEMINI_CLI_HOME`, `COPILOT_HOME`), so a line written
/// there moves the next session's user hooks, the engine's bridge entry among them, away.
pub const SHELL_STARTUP: HookSourceKind = HookSourceKind::file(
    FileScope::User,
    hooks_schema::FileRole::new(hooks_truststore::ENGINE, "shell_startup", 0),
);

/// The kind the guard reports the folders of the user's `$PATH` under (`user_path_folder`):
/// a program written there runs in place of the one found later on `$PATH` the next time the
/// user starts an agent by name (a `~/.local/bin/claude` that starts Claude Code with another
/// settings folder) or a hook runs a program by name (a `jq` that answers for `jq`).
pub const PATH_FOLDER: HookSourceKind = HookSourceKind::file(
    FileScope::User,
    hooks_schema::FileRole::new(hooks_truststore::ENGINE, "path_folder", 0),
);

/// The kind the guard reports what the variables of the hooks' environment make their
/// interpreters load under (`user_hook_environment`; finding F48): a `sitecustomize.py` in a
/// folder of the agent's `PYTHONPATH` runs before every Python hook's first line, the file of
/// its `BASH_ENV` before every bash hook's command.
pub const HOOK_ENVIRONMENT: HookSourceKind = HookSourceKind::file(
    FileScope::User,
    hooks_schema::FileRole::new(hooks_truststore::ENGINE, "hook_environment", 0),
);

/// The kind the guard reports the engine's own executable under (`user_engine_program`):
/// the bridge entries `hooks install` writes run it, so rewriting it would answer for every
/// bridged hook.
pub const ENGINE_PROGRAM: HookSourceKind = HookSourceKind::file(
    FileScope::User,
    hooks_schema::FileRole::new(hooks_truststore::ENGINE, "engine_program", 0),
);

/// zsh's start-up files: in the home, or in `$ZDOTDIR` when that is set.
const ZSH_STARTUP_FILES: [&str; 4] = [".zshenv", ".zprofile", ".zshrc", ".zlogin"];

/// The other shells' start-up files under the home folder: the login and interactive files
/// of `sh`, `bash`, `ksh` and `csh`/`tcsh`, and PAM's environment file.
const HOME_STARTUP_FILES: [&str; 10] = [
    ".profile",
    ".bash_profile",
    ".bash_login",
    ".bashrc",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".pam_environment",
];

/// Folders under the user's configuration folder (`~/.config`, or `$XDG_CONFIG_HOME`) a
/// shell or the user's session manager reads at start: `fish`'s whole configuration folder
/// (`config.fish`, `conf.d/`, the universal variables of `fish_variables`, and
/// `functions/`, where a `claude.fish` would wrap the agent's command) and systemd's
/// `environment.d/` (the environment of programs started from the desktop, an editor-based
/// agent among them).
const CONFIG_STARTUP_FOLDERS: [&str; 2] = ["fish", "environment.d"];

/// Where variables move the user's shell start-up files from their places in the home:
/// zsh's to `$ZDOTDIR`, fish's and systemd's to `$XDG_CONFIG_HOME` (both also stay protected
/// in the home).
///
/// ```
/// use hooks_app::trust::ShellStartupDirs;
/// use hooks_sources::EnvVars;
///
/// let env = EnvVars::from_lookup(|name| match name {
///     "ZDOTDIR" => Some("/home/u/.config/zsh".into()),
///     "XDG_CONFIG_HOME" => Some("relative/is/ignored".into()),
///     _ => None,
/// });
/// let dirs = ShellStartupDirs::from_env(&env);
/// assert_eq!(dirs.zdotdir.as_deref(), Some(std::path::Path::new("/home/u/.config/zsh")));
/// assert_eq!(dirs.xdg_config_home, None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellStartupDirs {
    /// `$ZDOTDIR`, when absolute.
    pub zdotdir: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, when absolute.
    pub xdg_config_home: Option<PathBuf>,
    /// The absolute folders of `$PATH`, in order, each once: where the shell finds the
    /// agents' programs and every program a hook names without a `/`; protected whole, but
    /// for those [`ShellStartupDirs::without_path_folders_holding`] leaves out.
    pub path: Vec<PathBuf>,
    /// The same folders, all of them: where the registry looks up the interpreters hooks
    /// run by name ([`program_path`]).
    pub program_path: Vec<PathBuf>,
    /// The engine's own executable (the program `hooks install`'s bridge entries run), when
    /// the caller knows it.
    pub engine_program: Option<PathBuf>,
    /// The files the variables of the environment hooks inherit make their interpreters load
    /// at start ([`EnvVars::HOOK_LOADERS`]: `BASH_ENV`, `ENV`, `LD_PRELOAD`, `LD_AUDIT`,
    /// `NODE_OPTIONS`' `--require`, `--import`, `--loader`, `--env-file`, `RUBYOPT`'s `-r`);
    /// absolute ones only.
    pub loaded: Vec<PathBuf>,
    /// The folders those variables make them import modules from (`PYTHONPATH`, `NODE_PATH`,
    /// `RUBYLIB`, `GEM_HOME`, `GEM_PATH`, `PERL5LIB`, `PERLLIB`, `LD_LIBRARY_PATH`, the
    /// `lib/` of `PYTHONUSERBASE` and `PYTHONHOME`, `RUBYOPT`'s and `PERL5OPT`'s `-I`);
    /// absolute ones only, each once.
    pub modules: Vec<PathBuf>,
    /// The git configuration files the environment names (`$GIT_CONFIG_GLOBAL`,
    /// `$GIT_CONFIG_SYSTEM`, `$XDG_CONFIG_HOME/git/config`, the `config` of `$GIT_DIR` and
    /// `$GIT_COMMON_DIR`), absolute ones only: protected
    /// with what they include and the hooks folder they name ([`protect_engine_folders`],
    /// findings F56, F57).
    pub git_configs: Vec<PathBuf>,
    /// The git configuration entries the environment gives git (`GIT_CONFIG_COUNT`'s,
    /// `GIT_CONFIG_PARAMETERS`'), as (name, value): protected as [`ShellStartupDirs::git_configs`]'
    /// are, what they include, the hooks folder and the commands they name (finding F62).
    pub git_config_entries: Vec<(String, String)>,
    /// The TypeScript configurations the environment gives tsx and ts-node in place of the
    /// nearest `tsconfig.json` (`$TSX_TSCONFIG_PATH`, `$TS_NODE_PROJECT`), absolute ones
    /// only: a TypeScript hook script's imports are read through them too (finding F137).
    pub typescript_configs: Vec<PathBuf>,
    /// The relative entries of `$PYTHONPATH` (`src`; an empty entry is the folder Python
    /// starts in, an empty path here), which Python takes from where each hook's Python
    /// starts: a Python hook's imports are looked for there (finding F140).
    pub python_path: Vec<PathBuf>,
    /// The relative entries of `$NODE_PATH`, which Node takes from where it starts: a
    /// JavaScript hook's packages are looked for there (finding F141).
    pub node_path: Vec<PathBuf>,
    /// The relative entries of `$RUBYLIB`, from where Ruby starts: a Ruby hook's `require`s
    /// are looked for there (finding F142).
    pub ruby_lib: Vec<PathBuf>,
    /// The relative entries of `$PERL5LIB` (of `$PERLLIB` when it is unset, as Perl reads
    /// them), from where Perl starts: a Perl hook's modules are looked for there (finding
    /// F143).
    pub perl_lib: Vec<PathBuf>,
    /// What the variables hooks inherit name by a relative path, which each hook's program
    /// takes from where it runs (finding F145, `trust::run_relative`).
    pub run_relative: Vec<hooks_registry::RunRelative>,
}

impl ShellStartupDirs {
    /// The folders `env` names (absolute values only).
    pub fn from_env(env: &EnvVars) -> ShellStartupDirs {
        let absolute = |v: &Option<std::ffi::OsString>| {
            v.as_ref().map(PathBuf::from).filter(|p| p.is_absolute())
        };
        let mut path: Vec<PathBuf> = Vec::new();
        for folder in env.path.iter().flat_map(std::env::split_paths) {
            if folder.is_absolute() && !path.contains(&folder) {
                path.push(folder);
            }
        }
        let (mut loaded, modules) = hook_environment(env);
        let mut git_configs = git_configs(env);
        // The start-up files the registry names under `~/.config/` are read from
        // `$XDG_CONFIG_HOME` instead when it is set (git's, uv's, pnpm's, mise's, …).
        if let Some(xdg) = absolute(&env.xdg_config_home) {
            loaded.extend(moved(hooks_registry::home_start_up_files(), ".config/", &xdg));
            git_configs.push(xdg.join("git/config"));
        }
        ShellStartupDirs {
            zdotdir: absolute(&env.zdotdir),
            xdg_config_home: absolute(&env.xdg_config_home),
            program_path: path.clone(),
            path,
            engine_program: None,
            loaded,
            modules,
            git_configs,
            git_config_entries: git_config_entries(env),
            typescript_configs: typescript_configs(env),
            python_path: relative_search_path(env, "PYTHONPATH"),
            node_path: relative_search_path(env, "NODE_PATH"),
            ruby_lib: relative_search_path(env, "RUBYLIB"),
            perl_lib: match env.hook_loaders.contains_key("PERL5LIB") {
                true => relative_search_path(env, "PERL5LIB"),
                false => relative_search_path(env, "PERLLIB"),
            },
            run_relative: run_relative(env),
        }
    }

    /// The same without the folders of `$PATH` and of the module variables that hold any of
    /// `places` (the home, the session's directory, a project root), or are one of them:
    /// protecting such a folder as a whole would refuse every edit under it, the project's
    /// own files included.
    pub fn without_path_folders_holding(mut self, places: &[&Path]) -> ShellStartupDirs {
        self.path.retain(|folder| !places.iter().any(|place| place.starts_with(folder)));
        self.modules.retain(|folder| !places.iter().any(|place| place.starts_with(folder)));
        self
    }

    /// The same, with the engine's own executable protected as well.
    pub fn with_engine_program(mut self, program: Option<PathBuf>) -> ShellStartupDirs {
        self.engine_program = program.filter(|p| p.is_absolute());
        self
    }
}

/// Adds the engine's own folders to the files the guard protects: the trust store's folder
/// (an agent that could edit the store could trust its own hooks), the runtime folder
/// ([`ENGINE_RUNTIME`]), the shell start-up files under `home` and where `shell` puts
/// them ([`SHELL_STARTUP`]), the folders of `$PATH` as wholes ([`PATH_FOLDER`]) and the
/// engine's own executable ([`ENGINE_PROGRAM`]), whether or not they exist yet.
pub fn protect_engine_folders(
    expected: &mut hooks_registry::ExpectedFiles,
    trust_store: Option<&Path>,
    runtime_dir: Option<&Path>,
    home: Option<&Path>,
    shell: &ShellStartupDirs,
) {
    if let Some(store) = trust_store {
        let folder = TrustStore::at(store).folder().to_path_buf();
        expected.folders.push((hooks_truststore::TRUST_STORE, folder));
    }
    if let Some(dir) = runtime_dir {
        expected.folders.push((ENGINE_RUNTIME, dir.to_path_buf()));
    }
    // Every place each may be read from: the home's (which stay in use for the other
    // shells and the sessions without the variable) and where the variables put them.
    let home = home.filter(|h| h.is_absolute());
    let zsh = [home, shell.zdotdir.as_deref().filter(|d| d.is_absolute())];
    let config = [
        home.map(|h| h.join(".config")),
        shell.xdg_config_home.clone().filter(|d| d.is_absolute()),
    ];
    for file in home.into_iter().flat_map(|h| HOME_STARTUP_FILES.map(|f| h.join(f))) {
        expected.fixed.push((SHELL_STARTUP, file));
    }
    for file in zsh.into_iter().flatten().flat_map(|d| ZSH_STARTUP_FILES.map(|f| d.join(f))) {
        expected.fixed.push((SHELL_STARTUP, file));
    }
    for folder in config.iter().flatten().flat_map(|d| CONFIG_STARTUP_FOLDERS.map(|f| d.join(f))) {
        expected.folders.push((SHELL_STARTUP, folder));
    }
    // A folder of `$PATH` holding the home (`/`, `/home`, the home itself) would protect
    // every file the user has: left out whoever built `shell`.
    for folder in shell.path.iter().filter(|f| !home.is_some_and(|h| h.starts_with(f))) {
        expected.folders.push((PATH_FOLDER, folder.clone()));
    }
    for folder in shell.modules.iter().filter(|f| !home.is_some_and(|h| h.starts_with(f))) {
        expected.folders.push((HOOK_ENVIRONMENT, folder.clone()));
    }
    for file in &shell.loaded {
        expected.fixed.push((HOOK_ENVIRONMENT, file.clone()));
    }
    // The dynamic linker's own preload list, read by every process it starts (writable by an
    // agent running as root, as in many containers).
    if cfg!(target_os = "linux") {
        expected.fixed.push((HOOK_ENVIRONMENT, PathBuf::from("/etc/ld.so.preload")));
    }
    if let Some(program) = &shell.engine_program {
        expected.fixed.push((ENGINE_PROGRAM, program.clone()));
    }
    // What the git configuration the environment names includes (F56; the files themselves
    // are among `loaded`), the hooks folder it sends git to (F57), and the files the
    // commands it has git run name from the root or the home (F60).
    let from_entries = (!shell.git_config_entries.is_empty())
        .then(|| hooks_registry::read_git_configuration_entries(&shell.git_config_entries, home));
    let read_files =
        shell.git_configs.iter().map(|c| hooks_registry::read_git_configuration(c, home));
    for read in read_files.chain(from_entries) {
        for included in read.included() {
            expected.fixed.push((HOOK_ENVIRONMENT, included));
        }
        for folder in read.hooks_folders() {
            expected.folders.push((HOOK_ENVIRONMENT, folder));
        }
        for file in read.command_files(home) {
            expected.fixed.push((HOOK_ENVIRONMENT, file));
        }
    }
}

/// The git configuration entries of `env`: `GIT_CONFIG_PARAMETERS`' (what `git -c` passes
/// on), then `GIT_CONFIG_COUNT`'s, in the order git reads them.
fn git_config_entries(env: &EnvVars) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    if let Some(parameters) = env.hook_loaders.get("GIT_CONFIG_PARAMETERS") {
        entries.extend(hooks_registry::git_config_parameters(&parameters.to_string_lossy()));
    }
    entries.extend(env.git_config_entries());
    entries
}

/// The git configuration files `$GIT_CONFIG_GLOBAL` and `$GIT_CONFIG_SYSTEM` name, and the
/// `config` of the repositories `$GIT_DIR` and `$GIT_COMMON_DIR` name (absolute values only).
fn git_configs(env: &EnvVars) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (name, value) in &env.hook_loaders {
        let value = PathBuf::from(value.to_string_lossy().trim());
        if !value.is_absolute() {
            continue;
        }
        match name.as_str() {
            "GIT_CONFIG_GLOBAL" | "GIT_CONFIG_SYSTEM" => found.push(value),
            "GIT_DIR" | "GIT_COMMON_DIR" => {
                found.extend([value.join("config"), value.join("config.worktree")]);
            }
            _ => {}
        }
    }
    found
}

/// The folders of `$PATH` in `shell` as the registry looks programs up in them: where a
/// Python interpreter a hook runs by name is found (finding F47).
pub fn program_path(shell: &ShellStartupDirs) -> Vec<AbsPathBuf> {
    shell.program_path.iter().filter_map(|f| AbsPathBuf::new(f.clone()).ok()).collect()
}

/// The relative entries of the search path `variable` of `env` (`PYTHONPATH`, `NODE_PATH`), as
/// written, each once: Python and Node make them absolute from where they start, so each
/// hook's are under its own run folder (findings F140, F141). An empty entry is that folder
/// for Python (an empty path here); Node skips it.
fn relative_search_path(env: &EnvVars, variable: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let Some(value) = env.hook_loaders.get(variable) else { return out };
    for entry in value.to_string_lossy().split(':') {
        if entry.is_empty() && variable == "NODE_PATH" {
            continue;
        }
        let entry = PathBuf::from(entry);
        if entry.is_relative() && !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// The hook-loading variables whose value is one file a program loads or reads as its
/// configuration at start: protected where it is absolute ([`hook_environment`]), under each
/// hook's run folder where it is relative ([`run_relative`]). pylint's `PYLINTRC` is its
/// configuration where the project has none (F134).
const FILE_VARIABLES: [&str; 11] = [
    "BASH_ENV",
    "ENV",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "WGETRC",
    "NPM_CONFIG_USERCONFIG",
    "npm_config_userconfig",
    "NPM_CONFIG_GLOBALCONFIG",
    "npm_config_globalconfig",
    "UV_CONFIG_FILE",
    "PYLINTRC",
];

/// What the variables of `env` that hooks inherit name by a relative path (finding F145):
/// checked here, `BASH_ENV=.bashenv` had `bash hooks/gate.sh` run the project's `.bashenv`
/// first, `NODE_OPTIONS="--require ./pre.js"` had Node run `pre.js` of the folder it started
/// in, `RIPGREP_CONFIG_PATH=.rgrc` had ripgrep read the run folder's configuration, each
/// turning a gate's exit 2 into 0; the program takes each from where it runs, so the registry
/// protects it under each hook's run folder. The files the variables of
/// [`hook_environment`] name (each entry of `LD_PRELOAD` and `LD_AUDIT` that has a `/`: the
/// dynamic linker looks a bare name up in its library path), the files the interpreters'
/// options in `NODE_OPTIONS`, `RUBYOPT` and `PERL5OPT` load, the cache folders Python and
/// black load code from, and the configurations that name more (ripgrep's, the TypeScript
/// runners'). Search paths are read for each script's imports instead
/// ([`ShellStartupDirs::python_path`]), and folders of other kinds (a relative
/// `LD_LIBRARY_PATH`, `CARGO_TARGET_DIR`) are the project's own code.
fn run_relative(env: &EnvVars) -> Vec<hooks_registry::RunRelative> {
    use hooks_registry::{RunRelative, RunRelativeKind};
    let relative = |text: &str| environment_path(text).filter(|p| p.is_relative());
    let mut out: Vec<RunRelative> = Vec::new();
    let mut add = |path: PathBuf, kind: RunRelativeKind| {
        let entry = RunRelative { path, kind };
        if !out.contains(&entry) {
            out.push(entry);
        }
    };
    for (name, value) in &env.hook_loaders {
        let value = value.to_string_lossy();
        let kind = match name.as_str() {
            n if FILE_VARIABLES.contains(&n) => RunRelativeKind::File,
            "GOENV" | "GIT_SSH" | "LEFTHOOK_BIN" | "LEFTHOOK_CONFIG" => RunRelativeKind::File,
            "PYTHONPYCACHEPREFIX" | "BLACK_CACHE_DIR" => RunRelativeKind::Folder,
            "RIPGREP_CONFIG_PATH" => RunRelativeKind::RipgrepConfig,
            "TSX_TSCONFIG_PATH" | "TS_NODE_PROJECT" => RunRelativeKind::TypescriptConfig,
            "CURL_HOME" => {
                if let Some(folder) = relative(&value) {
                    add(folder.join(".curlrc"), RunRelativeKind::File);
                }
                continue;
            }
            "LD_PRELOAD" | "LD_AUDIT" => {
                for entry in value.split(|c: char| c == ':' || c.is_whitespace()) {
                    if let Some(path) = relative(entry).filter(|_| entry.contains('/')) {
                        add(path, RunRelativeKind::File);
                    }
                }
                continue;
            }
            "NODE_OPTIONS" | "RUBYOPT" | "PERL5OPT" => {
                let (files, _) = hooks_registry::loading_options(options_interpreter(name));
                // A path (`./pre.js`, `.env`, `tools/pre`), not a package's or library's name
                // (`-r json`), which is looked for elsewhere.
                let path = |v: &str| relative(v).filter(|_| v.starts_with('.') || v.contains('/'));
                for path in option_values(value.split_whitespace(), files, &path) {
                    add(path, RunRelativeKind::File);
                }
                continue;
            }
            _ => continue,
        };
        if let Some(path) = relative(&value) {
            add(path, kind);
        } else if kind == RunRelativeKind::RipgrepConfig
            && let Some(path) = hook_environment_path(&value)
        {
            // Its relative `--pre` programs and `--ignore-file` files are the run folder's.
            add(path, kind);
        }
    }
    out
}

/// `text` as [`hook_environment`] reads an absolute path ([`environment_path`]).
fn hook_environment_path(text: &str) -> Option<PathBuf> {
    environment_path(text).filter(|p| p.is_absolute())
}

/// The interpreter whose options the variable `name` holds (`NODE_OPTIONS`: `node`,
/// `RUBYOPT`: `ruby`, `PERL5OPT`: `perl`).
fn options_interpreter(name: &str) -> &'static str {
    match name {
        "NODE_OPTIONS" => "node",
        "RUBYOPT" => "ruby",
        _ => "perl",
    }
}

/// The path a variable's value (or a piece of it) names: trimmed, unquoted, a `file://` URL
/// as its path; `None` for nothing.
fn environment_path(text: &str) -> Option<PathBuf> {
    let text = text.trim().trim_matches(|c| c == '"' || c == '\'');
    let text = text.strip_prefix("file://").unwrap_or(text);
    (!text.is_empty()).then(|| PathBuf::from(text))
}

/// The TypeScript configurations `env` gives the hooks' TypeScript runners in place of the
/// nearest `tsconfig.json`: `TSX_TSCONFIG_PATH` (tsx's) and `TS_NODE_PROJECT` (ts-node's),
/// absolute ones only (finding F137).
fn typescript_configs(env: &EnvVars) -> Vec<PathBuf> {
    (env.hook_loaders.iter())
        .filter(|(name, _)| matches!(name.as_str(), "TSX_TSCONFIG_PATH" | "TS_NODE_PROJECT"))
        .filter_map(|(_, value)| hook_environment_path(&value.to_string_lossy()))
        .collect()
}

/// The files and the folders the variables of `env` that hooks inherit make their
/// interpreters load ([`ShellStartupDirs::loaded`], [`ShellStartupDirs::modules`]): absolute
/// paths only (a relative one names a place under each hook's run folder: [`run_relative`]),
/// split where
/// the interpreter splits them (`:` for a search path, blanks for options, both for
/// `LD_PRELOAD`), `file://` URLs read as paths.
fn hook_environment(env: &EnvVars) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut loaded: Vec<PathBuf> = Vec::new();
    let mut modules: Vec<PathBuf> = Vec::new();
    let absolute = |text: &str| hook_environment_path(text);
    for (name, value) in &env.hook_loaders {
        let value = value.to_string_lossy();
        let words = || value.split_whitespace();
        match name.as_str() {
            n if FILE_VARIABLES.contains(&n) => loaded.extend(absolute(value.trim())),
            "CURL_HOME" => loaded.extend(absolute(value.trim()).map(|p| p.join(".curlrc"))),
            "LD_PRELOAD" | "LD_AUDIT" => {
                loaded.extend(
                    value.split(|c: char| c == ':' || c.is_whitespace()).filter_map(absolute),
                );
            }
            // An interpreter's options, read by the command analysis's own table of those that
            // load a file or name a module folder.
            "NODE_OPTIONS" | "RUBYOPT" | "PERL5OPT" => {
                let (files, folders) = hooks_registry::loading_options(options_interpreter(name));
                loaded.extend(option_values(words(), files, &absolute));
                modules.extend(option_values(words(), folders, &absolute));
            }
            "PYTHONUSERBASE" => modules.extend(absolute(value.trim()).map(|p| p.join("lib"))),
            // The caches runners run code from (F54).
            "XDG_CACHE_HOME" => {
                if let Some(cache) = absolute(value.trim()) {
                    modules.extend(moved(hooks_registry::home_cache_folders(), ".cache/", &cache));
                }
            }
            "NPM_CONFIG_CACHE" | "npm_config_cache" => {
                modules.extend(absolute(value.trim()).map(|p| p.join("_npx")));
            }
            "UV_CACHE_DIR" | "PIPX_HOME" | "DENO_DIR" | "GOMODCACHE" | "GOCACHE"
            | "CARGO_TARGET_DIR" | "PRE_COMMIT_HOME" | "PREK_HOME" => {
                modules.extend(absolute(value.trim()))
            }
            // black's cache, whose pickles it loads at every start (F139).
            "BLACK_CACHE_DIR" => modules.extend(absolute(value.trim())),
            // Where Python reads every module's compiled form from instead of its
            // `__pycache__` (F135): a `.pyc` there whose header matches the source's time and
            // size is run in the source's place.
            "PYTHONPYCACHEPREFIX" => modules.extend(absolute(value.trim())),
            // What a runner that builds a hook from source reads (F55).
            "GOENV" => loaded.extend(absolute(value.trim())),
            // Command lines git and ssh give the shell (F62): what each names from the root or
            // the home, as a hook's own line is read.
            "GIT_SSH_COMMAND" | "GIT_EXTERNAL_DIFF" | "GIT_PROXY_COMMAND" | "GIT_ASKPASS"
            | "SSH_ASKPASS" => {
                let home = env.home_dir();
                loaded.extend(hooks_registry::command_line_files(&value, home.as_deref()));
            }
            // The TypeScript configurations tsx and ts-node read in place of the nearest
            // `tsconfig.json` (F137): the file, the configurations it extends, the modules
            // ts-node's `require` entries run.
            "TSX_TSCONFIG_PATH" | "TS_NODE_PROJECT" => {
                if let Some(config) = absolute(value.trim()) {
                    loaded.extend(hooks_registry::typescript_config_files(&config));
                    loaded.push(config);
                }
            }
            // ripgrep's only configuration, read at every run (F133): the file, and the
            // programs its `--pre` options run and the files its `--ignore-file` options read.
            "RIPGREP_CONFIG_PATH" => {
                if let Some(config) = absolute(value.trim()) {
                    loaded.extend(hooks_registry::ripgrep_config_files(&config));
                    loaded.push(config);
                }
            }
            // A program git runs without a shell; the lefthook its hook scripts run (F65).
            "GIT_SSH" | "LEFTHOOK_BIN" => loaded.extend(absolute(value.trim())),
            // The configuration lefthook reads in every repository (F65): the file, what its
            // commands name from the root or the home, the files it extends with.
            "LEFTHOOK_CONFIG" => {
                if let Some(config) = absolute(value.trim()) {
                    let home = env.home_dir();
                    loaded.extend(hooks_registry::hook_manager_config_files(
                        &config,
                        home.as_deref(),
                    ));
                    loaded.push(config);
                }
            }
            // Configuration entries: read as configuration (`git_config_entries`).
            "GIT_CONFIG_COUNT" | "GIT_CONFIG_PARAMETERS" => {}
            n if n.starts_with("GIT_CONFIG_KEY_") || n.starts_with("GIT_CONFIG_VALUE_") => {}
            "CARGO_HOME" => {
                if let Some(home) = absolute(value.trim()) {
                    modules.extend([home.join("registry"), home.join("git")]);
                    loaded.extend([home.join("config.toml"), home.join("config")]);
                }
            }
            // The environment a runner runs hooks in: what it starts from (F47's
            // installations of a `bin/` folder's Python).
            "VIRTUAL_ENV" | "UV_PROJECT_ENVIRONMENT" => {
                if let Some(env) = absolute(value.trim()) {
                    modules.extend([env.join("lib"), env.join("lib64")]);
                    loaded.push(env.join("pyvenv.cfg"));
                }
            }
            // `prefix` or `prefix:exec_prefix`.
            "PYTHONHOME" => {
                modules.extend(value.split(':').filter_map(absolute).map(|p| p.join("lib")));
            }
            _ => modules.extend(value.split(':').filter_map(absolute)),
        }
    }
    let (mut files, mut folders) = (BTreeSet::new(), BTreeSet::new());
    loaded.retain(|p| files.insert(p.clone()));
    modules.retain(|p| folders.insert(p.clone()));
    (loaded, modules)
}

/// The paths of `home_paths` (relative to the home) under its folder `folder` (`.config/`,
/// `.cache/`), moved to `onto`, where a variable (`$XDG_CONFIG_HOME`, `$XDG_CACHE_HOME`) puts
/// that folder.
fn moved<'a>(
    home_paths: Vec<&'a str>,
    folder: &'a str,
    onto: &'a Path,
) -> impl Iterator<Item = PathBuf> + 'a {
    home_paths.into_iter().filter_map(move |p| p.strip_prefix(folder)).map(|rest| onto.join(rest))
}

/// The values `words` (an interpreter's options, as a variable holds them) give the options
/// among `names`: the next word (`-r /x.js`), after `=` for a long one (`--require=/x.js`),
/// or attached to a short one (`-r/x.rb`, `-I/lib`); those `keep` accepts.
fn option_values<'a>(
    mut words: impl Iterator<Item = &'a str>,
    names: &[&str],
    keep: &dyn Fn(&str) -> Option<PathBuf>,
) -> Vec<PathBuf> {
    let mut found = Vec::new();
    while let Some(word) = words.next() {
        let value = if names.contains(&word) {
            words.next()
        } else if let Some((flag, value)) = word.split_once('=')
            && flag.starts_with("--")
            && names.contains(&flag)
        {
            Some(value)
        } else {
            names
                .iter()
                .filter(|n| n.len() == 2)
                .find_map(|n| word.strip_prefix(n).filter(|v| !v.is_empty()))
        };
        found.extend(value.and_then(keep));
    }
    found
}

/// How much of the password database is read for [`ssh_home`].
const PASSWD_CAP: u64 = 1 << 20;

/// The home ssh reads `~/.ssh/config` from when it is not `home`: the password database's
/// home of this process's user (OpenSSH takes `pw_dir`, not `$HOME`), from `/etc/passwd`;
/// `None` when it is `home`, when the user is not listed there (a directory service), or
/// on a system without one.
pub fn ssh_home(home: Option<&Path>) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        let uid = rustix::process::getuid().as_raw();
        let bytes = hooks_sources::read_capped_to(Path::new("/etc/passwd"), PASSWD_CAP).ok()?;
        password_home(&String::from_utf8_lossy(&bytes), uid).filter(|h| Some(h.as_path()) != home)
    }
    #[cfg(not(unix))]
    {
        let _ = home;
        None
    }
}

/// The home of the user `uid` in the text of a password database (`name:password:uid:gid:
/// gecos:home:shell` lines): its first line for `uid`, when that home is absolute.
pub(crate) fn password_home(text: &str, uid: u32) -> Option<PathBuf> {
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        let (Some(id), Some(home)) = (fields.get(2), fields.get(5)) else { return None };
        (id.trim().parse::<u32>().ok()? == uid)
            .then(|| PathBuf::from(home))
            .filter(|h| h.is_absolute())
    })
}

/// The user's directories hooks' commands are read with, as the runtime sets them
/// (`~`, and Chrys's config directory for `${chrys_home}`).
pub fn user_paths(home: Option<&Path>, config_dir: Option<&Path>) -> UserPaths {
    registry_user_paths(home, config_dir, &ShellStartupDirs::default(), false, &[])
}

/// The user's directories the registry reads hooks' commands with: the home, Chrys's config
/// directory, the hooks' `PATH`; where the guard's protection is computed (`protection`),
/// the home ssh takes from the password database ([`ssh_home`]) and the
/// session's directories the caller knows, as the registry places paths (absolute, through
/// their links where they resolve).
pub(crate) fn registry_user_paths(
    home: Option<&Path>,
    config_dir: Option<&Path>,
    shell: &ShellStartupDirs,
    protection: bool,
    session_dirs: &[PathBuf],
) -> UserPaths {
    let abs = |p: Option<&Path>| p.and_then(|p| AbsPathBuf::new(p.to_path_buf()).ok());
    UserPaths {
        home: abs(home),
        config_dir: abs(config_dir),
        program_path: program_path(shell),
        ssh_home: protection
            .then(|| ssh_home(home))
            .flatten()
            .and_then(|h| AbsPathBuf::new(h).ok()),
        session_dirs: session_dirs
            .iter()
            .filter_map(|d| {
                hooks_registry::canonicalize(d).ok().or_else(|| AbsPathBuf::new(d.clone()).ok())
            })
            .collect(),
        typescript_configs: (shell.typescript_configs.iter())
            .filter_map(|c| AbsPathBuf::new(c.clone()).ok())
            .collect(),
        python_path: shell.python_path.clone(),
        node_path: shell.node_path.clone(),
        ruby_lib: shell.ruby_lib.clone(),
        perl_lib: shell.perl_lib.clone(),
        run_relative: shell.run_relative.clone(),
    }
}

/// One hook file as read now: what `hooks trust` shows and pins.
#[derive(Debug)]
pub struct ReadHookFile {
    /// The kind it is loaded as.
    pub kind: HookSourceKind,
    /// Its canonical path.
    pub path: AbsPathBuf,
    /// The project root it belongs to (`None` for a user file).
    pub root: Option<AbsPathBuf>,
    /// The digest of the bytes read, or why they could not be read.
    pub read: Result<(Digest, ParseResult), ReadHookFileError>,
}

/// Why a hook file could not be read for the trust store.
#[derive(Debug, thiserror::Error)]
pub enum ReadHookFileError {
    /// Reading it failed (the message names the path).
    #[error(transparent)]
    Read(#[from] hooks_sources::ReadError),
    /// No registered format reads files of its kind.
    #[error("no registered format reads {kind} files")]
    NoFormat {
        /// Its kind.
        kind: HookSourceKind,
    },
}

impl ReadHookFile {
    /// Reads and parses the file at `path` as a `kind` file of `formats`.
    pub fn read(
        formats: &FormatSet,
        kind: HookSourceKind,
        path: &Path,
        root: Option<&AbsPathBuf>,
    ) -> ReadHookFile {
        match hooks_sources::read_capped(path) {
            Ok(bytes) => ReadHookFile::from_bytes(formats, kind, path, root, &bytes),
            Err(e) => ReadHookFile {
                kind,
                path: canonical(path),
                root: root.cloned(),
                read: Err(e.into()),
            },
        }
    }

    /// The file at `path` whose content the caller already read (`bytes`: exactly what it
    /// parses and runs, as `hooks bridge`'s loader has them), parsed as a `kind` file.
    pub fn from_bytes(
        formats: &FormatSet,
        kind: HookSourceKind,
        path: &Path,
        root: Option<&AbsPathBuf>,
        bytes: &[u8],
    ) -> ReadHookFile {
        let path = canonical(path);
        let read = match kind.format().and_then(|f| formats.get(f)) {
            Some(format) => {
                let parsed = format.parse(bytes, &ParseContext::new(path.as_path(), kind));
                Ok((Digest::of(bytes), parsed))
            }
            None => Err(ReadHookFileError::NoFormat { kind }),
        };
        ReadHookFile { kind, path, root: root.cloned(), read }
    }

    /// The definitions parsed (none when the file did not read or parse).
    pub fn definitions(&self) -> Vec<&HookDefinition> {
        match &self.read {
            Ok((_, Ok(parsed))) => parsed.definitions.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The file as the trust store sees it, when it read and parsed.
    pub fn hook_file<'a>(
        &'a self,
        definitions: &'a [&'a HookDefinition],
        kind_name: &'a str,
        user: &'a UserPaths,
    ) -> Option<HookFile<'a>> {
        match &self.read {
            Ok((digest, Ok(_))) => Some(HookFile {
                path: &self.path,
                kind: kind_name,
                root: self.root.as_ref(),
                digest: *digest,
                definitions,
                user,
            }),
            _ => None,
        }
    }

    /// Pins the file now (`Ok(None)` when it did not read or parse: such a file is never
    /// trusted).
    pub fn pin(&self, user: &UserPaths, now: u64) -> Result<Option<FilePin>, PinError> {
        let defs = self.definitions();
        let name = self.kind.name();
        match self.hook_file(&defs, &name, user) {
            Some(file) => hooks_truststore::pin(&file, now).map(Some),
            None => Ok(None),
        }
    }

    /// What the file's command lines name themselves among a pin's scripts, as
    /// `(path, folder)` (the rest are loaded by those scripts); empty when it did not read or
    /// parse. For showing a review.
    pub fn named_scripts(&self, user: &UserPaths) -> Vec<(AbsPathBuf, bool)> {
        let defs = self.definitions();
        let name = self.kind.name();
        self.hook_file(&defs, &name, user)
            .map(|file| hooks_truststore::named_scripts(&file))
            .unwrap_or_default()
    }

    /// Whether the file as read now is what the store says the user trusted.
    pub fn status(
        &self,
        store: &Result<StoreContents, StoreError>,
        user: &UserPaths,
        session: Option<&AbsPathBuf>,
    ) -> PinStatus {
        let defs = self.definitions();
        let name = self.kind.name();
        match self.hook_file(&defs, &name, user) {
            Some(file) => hooks_truststore::check_in(store, &file, session),
            None => PinStatus::Changed(hooks_truststore::Change::Content),
        }
    }
}

/// The canonical path of `path`, or as far as it exists.
fn canonical(path: &Path) -> AbsPathBuf {
    hooks_registry::canonicalize(path)
        .unwrap_or_else(|_| hooks_registry::canonicalize_lenient(path, &fallback_base(path)))
}

fn fallback_base(path: &Path) -> AbsPathBuf {
    path.parent()
        .and_then(|p| AbsPathBuf::new(p.to_path_buf()).ok())
        .or_else(|| AbsPathBuf::new(PathBuf::from("/")).ok())
        .unwrap_or_else(|| AbsPathBuf::new(std::env::temp_dir()).expect("an absolute temp dir"))
}

/// Whether a file of `kind` needs the user's trust in the store to run on every surface: its
/// format's agent reviews files of its scope
/// ([`hooks_schema::FormatDescriptor::requires_review`]). (Project files need it under
/// `hooks bridge` and wherever the runtime requires the store, whatever this says.)
pub fn needs_review(formats: &FormatSet, kind: HookSourceKind) -> bool {
    let SourceScope::File(scope) = kind.scope() else { return false };
    kind.format().and_then(|f| formats.get(f)).is_some_and(|d| d.requires_review(scope))
}

/// Which files need the user's trust store beyond the trust table
/// (`specs/trust-and-sources.md`, "The trust store as a gate").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreNeed {
    /// Only the files whose format's agent reviews them before running them
    /// ([`hooks_schema::FormatDescriptor::requires_review`]: Codex's user and project files).
    Reviewed,
    /// Every project file too: `hooks bridge`, and the runtime when the embedder asks for it.
    ProjectFiles,
}

/// Whether `file` runs, given the trust table's decision `table` for its kind: the table
/// decides first and the store never widens it; a file the store must vouch for (see
/// [`StoreNeed`]) runs only when its content and scripts are what the user trusted with
/// `hooks trust`, or when its agent's own review covers every hook of it as it is now
/// ([`hooks_schema::FormatDescriptor::agent_reviewed`], given the format's `others` files
/// that run in the same place). Otherwise it is inert with the store's reason, which tells
/// the user to run `hooks trust`.
#[allow(clippy::too_many_arguments)]
pub fn gate(
    formats: &FormatSet,
    file: &ReadHookFile,
    table: TrustDecision,
    store: &Result<StoreContents, StoreError>,
    user: &UserPaths,
    session: Option<&AbsPathBuf>,
    others: &[&ParsedSource],
    need: StoreNeed,
) -> TrustDecision {
    if !table.is_active() {
        return table;
    }
    let reviewed_format = needs_review(formats, file.kind);
    let project = file.kind.is_project() && need == StoreNeed::ProjectFiles;
    if !reviewed_format && !project {
        return table;
    }
    let status = file.status(store, user, session);
    if status.is_trusted() {
        return TrustDecision::Active { reason: status.reason(&file.path) };
    }
    let descriptor = file.kind.format().and_then(|f| formats.get(f));
    if let (Some(d), Ok((_, Ok(parsed)))) = (descriptor, &file.read)
        && reviewed_format
        && d.agent_reviewed(file.path.as_path(), parsed, others)
    {
        return TrustDecision::Active {
            reason: format!(
                "active: {} itself trusted every hook of {} as it is now",
                d.agent(),
                file.kind
            ),
        };
    }
    TrustDecision::Inert { reason: status.reason(&file.path) }
}

/// The trust table with the user's trust store as a gate in the runtime
/// (`specs/trust-and-sources.md`, "The trust store as a gate"): a file whose format's agent
/// reviews it (Codex's user and project files) runs only when the store or the agent's own
/// review vouches for its content as read ([`gate`] with [`StoreNeed::Reviewed`]); every other
/// file keeps the table's decision. The store is read at each decision (a file's load), so
/// `hooks trust` takes effect at the file's next load.
pub struct StoreGatedPolicy {
    table: Arc<dyn TrustPolicy>,
    formats: FormatSet,
    store: Option<TrustStore>,
    user: UserPaths,
    user_dirs: Option<UserDirs>,
    need: StoreNeed,
}

impl StoreGatedPolicy {
    /// `table` gated by `store` (`None`: nothing is trusted in a store), the user's folders
    /// `user_dirs` holding the formats' own review records (Codex's `config.toml`), and `user`
    /// to place the scripts with as `hooks trust` did.
    pub fn new(
        table: Arc<dyn TrustPolicy>,
        formats: FormatSet,
        store: Option<TrustStore>,
        user: UserPaths,
        user_dirs: Option<UserDirs>,
    ) -> StoreGatedPolicy {
        StoreGatedPolicy { table, formats, store, user, user_dirs, need: StoreNeed::Reviewed }
    }

    /// The same policy asking the store for `need`'s files: [`StoreNeed::ProjectFiles`] for
    /// `hooks bridge`, where every project file needs the user's `hooks trust`.
    #[must_use]
    pub fn with_need(mut self, need: StoreNeed) -> StoreGatedPolicy {
        self.need = need;
        self
    }

    /// Whether files of `kind` are decided by the store (and the agent's own review) besides
    /// the table.
    fn gates(&self, kind: HookSourceKind) -> bool {
        needs_review(&self.formats, kind)
            || (self.need == StoreNeed::ProjectFiles && kind.is_project())
    }

    /// [`TrustPolicy::decide_file`] for a session whose directory is `session` (scripts named
    /// relative to it are checked where it would run them): the one gate of the runtime and
    /// of `hooks bridge`.
    pub fn decide_file_in(
        &self,
        file: &FileRead<'_>,
        inputs: &TrustInputs,
        session: Option<&AbsPathBuf>,
    ) -> TrustDecision {
        let table = self.table.decide_file(file, inputs);
        if !table.is_active() || !self.gates(file.kind) {
            return table;
        }
        let read = ReadHookFile {
            kind: file.kind,
            path: canonical(file.path),
            root: file.project_root.cloned(),
            read: Ok((Digest::of(file.bytes), Ok(file.parsed.clone()))),
        };
        let others =
            if needs_review(&self.formats, file.kind) { self.others_of(file) } else { Vec::new() };
        let others: Vec<&ParsedSource> = others.iter().collect();
        let store = match &self.store {
            Some(store) => store.load(),
            None => Ok(StoreContents::default()),
        };
        gate(&self.formats, &read, table, &store, &self.user, session, &others, self.need)
    }

    /// The parses of the user's other files of `file`'s format (where the agent keeps its
    /// review record).
    fn others_of(&self, file: &FileRead<'_>) -> Vec<ParsedSource> {
        let Some(dirs) = &self.user_dirs else { return Vec::new() };
        hooks_sources::user_files(&self.formats, dirs)
            .into_iter()
            .filter(|(kind, path)| kind.format() == file.kind.format() && path != file.path)
            .filter_map(|(kind, path)| {
                match ReadHookFile::read(&self.formats, kind, &path, None).read {
                    Ok((_, Ok(parsed))) => Some(parsed),
                    _ => None,
                }
            })
            .collect()
    }
}

impl TrustPolicy for StoreGatedPolicy {
    fn decide(&self, kind: HookSourceKind, inputs: &TrustInputs) -> TrustDecision {
        self.table.decide(kind, inputs)
    }

    fn decide_file(&self, file: &FileRead<'_>, inputs: &TrustInputs) -> TrustDecision {
        self.decide_file_in(file, inputs, None)
    }

    fn reads_files_of(&self, kind: HookSourceKind) -> bool {
        self.gates(kind)
    }
}

/// Every hook file under `root` that `hooks trust` reviews: the project files of every
/// format a session started in `session` reads (`root` itself, or a folder below it:
/// `hooks_sources::find_session_files`), each pinned with the folder it was found in as its
/// root, in precedence order, and the user's files of formats that review user files
/// (`user_files`: `(kind, path)` of the user's files present).
pub fn files_to_trust(
    formats: &FormatSet,
    root: &AbsPathBuf,
    session: &AbsPathBuf,
    user_files: &[(HookSourceKind, PathBuf)],
) -> Vec<ReadHookFile> {
    let mut out: Vec<ReadHookFile> =
        hooks_sources::session_project_files(formats, root.as_path(), session.as_path())
            .into_iter()
            .map(|(kind, path, folder)| {
                let at = AbsPathBuf::new(folder).unwrap_or_else(|_| root.clone());
                ReadHookFile::read(formats, kind, &path, Some(&at))
            })
            .collect();
    for (kind, path) in user_files {
        if kind.scope() == SourceScope::File(FileScope::User) && needs_review(formats, *kind) {
            out.push(ReadHookFile::read(formats, *kind, path, None));
        }
    }
    out
}

/// The project root meant by a command run in `dir` (`hooks trust` without `--root`, the
/// bridge for a session's directory): the nearest folder at or above `dir` that holds `.git`
/// (a repository's top, as agents open it), else `dir` itself.
pub fn project_root_of(dir: &Path) -> PathBuf {
    dir.ancestors().find(|d| d.join(".git").symlink_metadata().is_ok()).unwrap_or(dir).to_path_buf()
}

#[cfg(test)]
mod tests;
