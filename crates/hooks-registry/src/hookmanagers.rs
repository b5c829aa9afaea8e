//! The git hook managers pre-commit, prek and lefthook (finding F65): the scripts they install in
//! a repository's hooks folder run, whenever git runs that hook, what the manager's
//! configuration says, so for a hook that runs git the configuration and what its commands
//! run are as much the hook's as the script.
//!
//! [`installed`] reads a hooks folder's scripts for the managers that wrote them (pre-commit's
//! `hook-impl --config=…` with the Python it was installed with, prek's with its binary,
//! lefthook's `call_lefthook` with the binary it was installed from); [`config_values`] reads
//! a manager's configuration (YAML, JSON with or without comments, TOML) for the command lines
//! it runs (pre-commit's and prek's `entry` with its `args`, lefthook's `run`) and the files and
//! folders it reads besides (lefthook's `extends`, `source_dir`, `source_dir_local`). Checked
//! with pre-commit 4.7, prek 0.5 and lefthook 2.2 here (`specs/hardening.md`, F65).

use std::path::{Path, PathBuf};

/// pre-commit's configuration when its script names none.
const PRE_COMMIT_CONFIG: &str = ".pre-commit-config.yaml";

/// pre-commit's cache under the home (`$PRE_COMMIT_HOME`, else `$XDG_CACHE_HOME/pre-commit`):
/// the repositories it clones and the environments it builds, which its hooks run.
pub(crate) const PRE_COMMIT_CACHE: &str = ".cache/pre-commit";

/// prek's configuration when its script names none, in the order it prefers them; it reads
/// them in every folder below the top too, each a project of its workspace (prek 0.5 here ran
/// a subfolder's `.pre-commit-config.yaml`).
const PREK_CONFIGS: &[&str] = &["prek.toml", ".pre-commit-config.yaml", ".pre-commit-config.yml"];

/// prek's cache under the home (`$PREK_HOME`, else `$XDG_CACHE_HOME/prek`).
pub(crate) const PREK_CACHE: &str = ".cache/prek";

/// The names lefthook looks for its configuration under, in the repository's top folder,
/// each with every extension of [`LEFTHOOK_EXTENSIONS`]: the main one (the first found) and
/// the local one merged over it (lefthook 2.2's `strace` here: all thirty looked up).
const LEFTHOOK_NAMES: &[&str] = &[
    "lefthook",
    ".lefthook",
    ".config/lefthook",
    "lefthook-local",
    ".lefthook-local",
    ".config/lefthook-local",
];

/// Where husky 4 reads its configuration, in the package's folder (cosmiconfig's places for
/// `husky`): `package.json` (its `husky` key) first.
const HUSKY4_CONFIGS: &[&str] = &[
    "package.json",
    ".huskyrc",
    ".huskyrc.json",
    ".huskyrc.yaml",
    ".huskyrc.yml",
    ".huskyrc.js",
    ".huskyrc.cjs",
    "husky.config.js",
    "husky.config.cjs",
];

/// The files of the home husky 4's and yorkie's scripts source before every hook: husky 4's
/// `~/.huskyrc`, and nvm's `nvm.sh` for yorkie (its script loads nvm from `~/.nvm`).
pub(crate) fn home_sourced(found: &Installed) -> Vec<&'static str> {
    let mut files = Vec::new();
    if found.husky4 {
        files.push(".huskyrc");
    }
    if found.yorkie {
        files.push(".nvm/nvm.sh");
    }
    files
}

/// The extensions of lefthook's configuration files.
const LEFTHOOK_EXTENSIONS: &[&str] = &["yml", "yaml", "json", "jsonc", "toml"];

/// The folders lefthook runs files from, under the repository's top folder: its scripts'
/// default `source_dir` and `source_dir_local`, and the remote configurations it clones.
const LEFTHOOK_FOLDERS: &[&str] = &[".lefthook", ".lefthook-local", ".git/info/lefthook-remotes"];

/// The packages of the project's `node_modules` lefthook's script runs the binary from when
/// the one it was installed from is gone and none is on `PATH` (`$dir/node_modules/…`), the
/// platform's package's name last.
const LEFTHOOK_PACKAGES: &[&str] = &[
    "node_modules/lefthook",
    "node_modules/@evilmartians/lefthook",
    "node_modules/@evilmartians/lefthook-installer",
];

/// At most this many entries of a hooks folder are read.
const MAX_SCRIPTS: usize = 64;

/// How much of a hook script is read.
const SCRIPT_CAP: u64 = 64 * 1024;

/// How much of a manager's configuration file is read.
const CONFIG_CAP: u64 = 256 * 1024;

/// At most this many values of each kind are kept from one configuration.
const MAX_VALUES: usize = 256;

/// What the scripts of a repository's hooks folders say about the managers that installed
/// them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Installed {
    /// pre-commit's and prek's configuration files, as their scripts name them (`--config=`:
    /// relative to the repository's top folder, where git runs its hooks, or absolute), or
    /// their defaults; empty when no script is theirs.
    pub configs: Vec<String>,
    /// The names of the configuration files read in every folder below the top (prek's
    /// workspace projects).
    pub nested: Vec<&'static str>,
    /// The managers' caches under the home, which their hooks run from.
    pub caches: Vec<&'static str>,
    /// The Pythons pre-commit's scripts run it with (`INSTALL_PYTHON=`, absolute).
    pub pythons: Vec<PathBuf>,
    /// Whether a script is lefthook's.
    pub lefthook: bool,
    /// The lefthook and prek binaries the scripts name by an absolute path.
    pub programs: Vec<PathBuf>,
    /// Whether a script is husky 4's (the `Created by Husky v…` banner of its scripts and of
    /// `husky.sh`, which runs `husky-run`).
    pub husky4: bool,
    /// Whether a script is yorkie's (`#yorkie`, Vue CLI's fork of husky 4).
    pub yorkie: bool,
    /// The folders husky 4's and yorkie's scripts run their runner in (`cd "<folder>"`,
    /// relative to the top: the package's folder in a monorepo).
    pub package_dirs: Vec<String>,
}

impl Installed {
    /// Whether no script is a manager's.
    pub(crate) fn is_empty(&self) -> bool {
        self.configs.is_empty() && !self.lefthook && !self.husky4 && !self.yorkie
    }

    /// The folders husky 4 and yorkie read their configuration in and run its commands from,
    /// relative to the top: those their scripts `cd` to, else the top.
    pub(crate) fn package_dirs(&self) -> Vec<String> {
        if !(self.husky4 || self.yorkie) {
            return Vec::new();
        }
        if self.package_dirs.is_empty() { vec![".".to_owned()] } else { self.package_dirs.clone() }
    }

    /// The files husky 4 and yorkie read in a package's folder, and the folders their
    /// runners are in: husky 4's configuration as cosmiconfig looks for it (`package.json`'s
    /// `husky`, `.huskyrc` and its spellings, `husky.config.js`) with `node_modules/husky`;
    /// yorkie's `package.json` (its `gitHooks`), `.nvmrc` (its script runs `nvm use`) and
    /// `node_modules/yorkie`.
    pub(crate) fn package_files(&self) -> (Vec<&'static str>, Vec<&'static str>) {
        let (mut files, mut folders) = (Vec::new(), Vec::new());
        if self.husky4 {
            files.extend(HUSKY4_CONFIGS);
            folders.push("node_modules/husky");
        }
        if self.yorkie {
            files.extend(["package.json", ".nvmrc"]);
            folders.push("node_modules/yorkie");
        }
        files.dedup();
        (files, folders)
    }

    /// The configuration files the managers read, relative to a repository's top folder (or
    /// absolute), existing or not.
    pub(crate) fn config_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self.configs.iter().map(PathBuf::from).collect();
        if self.lefthook {
            for name in LEFTHOOK_NAMES {
                files.extend(
                    LEFTHOOK_EXTENSIONS.iter().map(|ext| PathBuf::from(format!("{name}.{ext}"))),
                );
            }
        }
        files
    }

    /// The folders the managers run files from, relative to a repository's top folder:
    /// lefthook's ([`LEFTHOOK_FOLDERS`], [`LEFTHOOK_PACKAGES`] and this platform's package).
    pub(crate) fn folders(&self) -> Vec<PathBuf> {
        if !self.lefthook {
            return Vec::new();
        }
        let mut folders: Vec<PathBuf> =
            LEFTHOOK_FOLDERS.iter().chain(LEFTHOOK_PACKAGES).map(PathBuf::from).collect();
        folders.push(PathBuf::from(format!("node_modules/lefthook-{}", lefthook_platform())));
        folders
    }
}

/// The `<os>-<arch>` of lefthook's platform packages, as its script computes it (`uname` in
/// lower case, `aarch64` as `arm64`, `x86_64` as `x64`).
fn lefthook_platform() -> String {
    let arch = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        "x86_64" => "x64",
        other => other,
    };
    format!("{}-{arch}", std::env::consts::OS)
}

/// What the hook scripts of `folders` say about their managers ([`hook_script`]): at most
/// [`MAX_SCRIPTS`] entries of each folder, each read up to [`SCRIPT_CAP`] bytes without
/// waiting on a FIFO.
pub(crate) fn installed(folders: &[PathBuf]) -> Installed {
    let mut found = Installed::default();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        for entry in entries.flatten().take(MAX_SCRIPTS) {
            if let Some(text) = crate::installations::read_capped(&entry.path(), SCRIPT_CAP) {
                hook_script(&text, &mut found);
            }
        }
    }
    found
}

/// Adds to `found` what one hook script's text says: prek's (its generated header, or
/// `hook-impl` with `prek`) and pre-commit's (its header, or `hook-impl` with
/// `pre_commit`/`pre-commit`) with the `--config=` values (their defaults when it names none)
/// and the program (`PREK=`) or Python (`INSTALL_PYTHON=`) it names; lefthook's
/// (`call_lefthook`, or `lefthook run`) with the absolute paths of lefthook binaries in it.
pub(crate) fn hook_script(text: &str, found: &mut Installed) {
    // Both may hold for one script (prek's `--hook-type=pre-commit`): both are then read.
    let impl_of = |name: &str| text.contains("hook-impl") && text.contains(name);
    let prek = text.contains("File generated by prek") || impl_of("prek");
    let pre_commit = text.contains("File generated by pre-commit")
        || impl_of("pre_commit")
        || impl_of("pre-commit");
    if prek || pre_commit {
        let mut configs: Vec<String> = config_options(text).filter(|c| !c.is_empty()).collect();
        if configs.is_empty() {
            let defaults = [(pre_commit, &[PRE_COMMIT_CONFIG][..]), (prek, PREK_CONFIGS)];
            let defaults = defaults.into_iter().filter(|(is, _)| *is).flat_map(|(_, d)| d);
            configs.extend(defaults.map(|c| (*c).to_owned()));
        }
        for config in configs {
            push_new(&mut found.configs, config);
        }
        if prek {
            for name in PREK_CONFIGS {
                push_new(&mut found.nested, *name);
            }
            push_new(&mut found.caches, PREK_CACHE);
        }
        if pre_commit {
            push_new(&mut found.caches, PRE_COMMIT_CACHE);
        }
        for line in text.lines() {
            let line = line.trim();
            let (value, list) =
                match (line.strip_prefix("INSTALL_PYTHON="), line.strip_prefix("PREK=")) {
                    (Some(value), _) => (value, &mut found.pythons),
                    (None, Some(value)) => (value, &mut found.programs),
                    (None, None) => continue,
                };
            let path = PathBuf::from(unquote(value.trim()));
            if path.is_absolute() {
                push_new(list, path);
            }
        }
    }
    let husky4 = text.contains("Created by Husky v") || text.contains("husky-run");
    let yorkie = text.contains("#yorkie");
    if husky4 || yorkie {
        found.husky4 |= husky4;
        found.yorkie |= yorkie;
        for line in text.lines() {
            if let Some(dir) = line.trim().strip_prefix("cd ") {
                let dir = unquote(dir.trim());
                if !dir.is_empty() && !dir.contains('$') {
                    push_new(&mut found.package_dirs, dir);
                }
            }
        }
    }
    if text.contains("call_lefthook") || text.contains("lefthook run") {
        found.lefthook = true;
        for word in words(text).map(unquote) {
            let path = Path::new(&word);
            if path.is_absolute() && path.file_name().is_some_and(|n| n == "lefthook") {
                push_new(&mut found.programs, path.to_path_buf());
            }
        }
    }
}

/// The values of the `--config=` options in a script's text, as `shlex.join` writes them
/// (the whole word in single quotes when it needs quoting, `'"'"'` for a quote in it) or
/// unquoted up to a blank or `)`.
fn config_options(text: &str) -> impl Iterator<Item = String> + '_ {
    text.match_indices("--config=").map(move |(at, option)| {
        let rest = text.get(at + option.len()..).unwrap_or_default();
        match text.get(..at).and_then(|before| before.chars().next_back()) {
            Some(q @ ('\'' | '"')) => {
                // Up to the closing quote; `'"'"'` (a quote inside) joins the pieces.
                let mut value = String::new();
                let mut rest = rest;
                loop {
                    let end = rest.find(q).unwrap_or(rest.len());
                    value.push_str(rest.get(..end).unwrap_or_default());
                    rest = rest.get(end + 1..).unwrap_or_default();
                    match rest.strip_prefix("\"'\"'") {
                        Some(after) if q == '\'' => {
                            value.push('\'');
                            rest = after;
                        }
                        _ => break value,
                    }
                }
            }
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || c == ')').unwrap_or(rest.len());
                rest.get(..end).unwrap_or_default().to_owned()
            }
        }
    })
}

/// The words of a script's text, split at blanks and at the shell's operators that end a
/// word here (`;`, `(`, `)`), quotes kept.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ';' | '(' | ')'))
        .filter(|w| !w.is_empty())
}

/// A word without the single or double quotes around it (pre-commit writes its values with
/// Python's `shlex.quote`).
fn unquote(word: &str) -> String {
    let quoted = |q: char| word.len() >= 2 && word.starts_with(q) && word.ends_with(q);
    if quoted('\'') || quoted('"') {
        word.get(1..word.len() - 1).unwrap_or_default().to_owned()
    } else {
        word.to_owned()
    }
}

fn push_new<T: PartialEq>(list: &mut Vec<T>, value: T) {
    if list.len() < MAX_VALUES && !list.contains(&value) {
        list.push(value);
    }
}

/// The syntax a manager's configuration file is read in, by its extension: TOML, JSON
/// (with comments, for `.jsonc`), YAML otherwise (pre-commit's whatever its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// YAML (and plain JSON, which YAML reads).
    Yaml,
    /// JSON with `//` and `/* */` comments.
    Jsonc,
    /// TOML.
    Toml,
}

impl Syntax {
    /// The syntax of the file at `path`.
    pub(crate) fn of(path: &Path) -> Syntax {
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Syntax::Toml,
            Some("jsonc" | "json") => Syntax::Jsonc,
            _ => Syntax::Yaml,
        }
    }
}

/// What a manager's configuration says it runs and reads.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct ConfigValues {
    /// The command lines it runs from the repository's top folder: lefthook's `run` (given
    /// to `sh -c`), pre-commit's `entry` followed by its `args` (a program and its words: a
    /// script's path relative to the top, or a command on `PATH`).
    pub commands: Vec<String>,
    /// lefthook's commands run in a folder of their own (`root:`, relative to the top), each
    /// with that folder.
    pub rooted: Vec<(String, String)>,
    /// The files it reads besides, relative to the top or absolute (lefthook's `extends`).
    pub files: Vec<String>,
    /// The folders it runs scripts from, relative to the top (lefthook's `source_dir`,
    /// `source_dir_local`).
    pub folders: Vec<String>,
    /// The plugins a formatter's configuration loads (prettier's `plugins`: a package's name,
    /// or a file relative to the configuration; finding F71).
    pub plugins: Vec<String>,
    /// The Taskfiles a Taskfile includes (`includes:`, a file or a folder, relative to it;
    /// finding F77).
    pub includes: Vec<String>,
    /// The environment files a Taskfile loads (`dotenv:`, relative to it; finding F77).
    pub dotenv: Vec<String>,
    /// The folders a Taskfile's tasks and included Taskfiles run their commands in (`dir:`,
    /// relative to it; finding F91).
    pub dirs: Vec<String>,
}

impl ConfigValues {
    fn add(&mut self, key: &str, value: String) {
        match key {
            "extends" => push_new(&mut self.files, value),
            "source_dir" | "source_dir_local" => push_new(&mut self.folders, value),
            // A Taskfile's task runs each of its `cmds` (finding F72), and the commands of its
            // `status` and `preconditions` to decide whether to (finding F77).
            "cmds" | "status" | "preconditions" => push_new(&mut self.commands, value),
            "dotenv" => push_new(&mut self.dotenv, value),
            "dir" => push_new(&mut self.dirs, value),
            "taskfile" => push_new(&mut self.includes, value),
            "plugins" => push_new(&mut self.plugins, value),
            _ => {}
        }
    }

    /// Adds the commands of one mapping: pre-commit's `entry` followed by its `args`, each
    /// quoted for the shell the analysis reads it as; lefthook's `run`, in its `root`. A
    /// pre-commit hook of another repository has no `entry` here (its repository's
    /// `.pre-commit-hooks.yaml` holds it): one whose `id` is a linter's or formatter's the
    /// command analysis knows (`ruff`, `mypy`, `biome-check`) runs that tool from the top
    /// folder, which reads its configuration there (finding F81): its name stands for the
    /// entry.
    fn add_mapping(&mut self, mapping: Mapping) {
        let remote = match (&mapping.entry, &mapping.id) {
            (None, Some(id)) => crate::scripts::remote_hook_tool(id).map(str::to_owned),
            _ => None,
        };
        if let Some(entry) = mapping.entry.or(remote) {
            let mut line = entry;
            for arg in mapping.args {
                line.push(' ');
                line.push_str(&shell_quote(&arg));
            }
            push_new(&mut self.commands, line);
        }
        match (mapping.run, mapping.root) {
            (Some(run), Some(root)) => push_new(&mut self.rooted, (root, run)),
            (Some(run), None) => push_new(&mut self.commands, run),
            (None, _) => {}
        }
    }
}

/// The keys of one mapping (a YAML mapping, a JSON object, a TOML table) that make a command.
#[derive(Default)]
struct Mapping {
    entry: Option<String>,
    id: Option<String>,
    args: Vec<String>,
    run: Option<String>,
    root: Option<String>,
}

impl Mapping {
    /// Keeps `value` when `key` is one of a command's keys (a Taskfile's `cmd` is a `run`, and
    /// so is the `sh` of its dynamic variables and preconditions, finding F77).
    fn set(&mut self, key: &str, value: &str) {
        let slot = match key {
            "entry" => &mut self.entry,
            "id" => &mut self.id,
            "run" | "cmd" | "sh" => &mut self.run,
            "root" => &mut self.root,
            _ => return,
        };
        *slot = Some(value.to_owned());
    }
}

/// `word` in single quotes, as one shell word.
pub(crate) fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// What a manager's configuration text says it runs and reads ([`ConfigValues`]), read in
/// `syntax`; a text that does not parse gives what was read up to its error (YAML) or nothing.
pub(crate) fn config_values(text: &str, syntax: Syntax) -> ConfigValues {
    match syntax {
        Syntax::Yaml => yaml_values(text),
        Syntax::Jsonc => serde_json::from_str(&hooks_json::strip_comments(text))
            .map(|value| json_values(&value))
            .unwrap_or_default(),
        Syntax::Toml => toml_values(text),
    }
}

/// The configuration of the manager at `path`, read up to [`CONFIG_CAP`] bytes without
/// waiting on a FIFO; nothing when it is no regular file.
pub(crate) fn read_config(path: &Path) -> ConfigValues {
    crate::installations::read_capped(path, CONFIG_CAP)
        .map(|text| config_values(&text, Syntax::of(path)))
        .unwrap_or_default()
}

/// The files the command lines of the hook manager's configuration file at `path` (lefthook's
/// or pre-commit's, read in the syntax its extension says) name from the root or the home
/// ([`crate::command_line_files`]), with the files it extends with (absolute, or from the
/// home). What the engine protects for `$LEFTHOOK_CONFIG`, a configuration lefthook reads in
/// every repository, where the repository's own names cannot be placed (finding F65).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("hooks-doc-lefthook-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let config = dir.join("lefthook.yml");
/// std::fs::write(&config, "pre-commit:\n  commands:\n    lint:\n      run: sh ~/bin/lint.sh\n").unwrap();
/// let home = std::path::Path::new("/home/u");
/// let files = hooks_registry::hook_manager_config_files(&config, Some(home));
/// assert_eq!(files, [home.join("bin/lint.sh")]);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn hook_manager_config_files(path: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let values = read_config(path);
    let mut files: Vec<PathBuf> = Vec::new();
    let rooted = values.rooted.iter().map(|(_, run)| run);
    for line in values.commands.iter().chain(rooted) {
        for file in crate::command_line_files(line, home) {
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    for file in values.files.iter().filter_map(|f| crate::paths::home_or_absolute(f, home)) {
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files
}

/// The command lines husky 4 and yorkie run from a package's configuration text, each given
/// to the shell in the package's folder: a `package.json`'s `husky.hooks` and `gitHooks`
/// values (`package_json`), or a `.huskyrc`'s `hooks` values (JSON, or YAML). Nothing from a
/// text that does not parse.
pub(crate) fn package_commands(text: &str, package_json: bool) -> Vec<String> {
    let strings = |map: &serde_json::Map<String, serde_json::Value>| -> Vec<String> {
        map.values().filter_map(|v| v.as_str().map(str::to_owned)).take(MAX_VALUES).collect()
    };
    if package_json {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
        let maps = ["/husky/hooks", "/gitHooks"].into_iter().filter_map(|p| value.pointer(p));
        return maps.filter_map(|m| m.as_object()).flat_map(strings).take(MAX_VALUES).collect();
    }
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&hooks_json::strip_comments(text))
    {
        return value
            .pointer("/hooks")
            .and_then(|m| m.as_object())
            .map(strings)
            .unwrap_or_default();
    }
    yaml_hooks_values(text)
}

/// The command lines husky 4 or yorkie run from the file `name` of the package's folder
/// `package` ([`package_commands`]), read up to [`CONFIG_CAP`] bytes without waiting on a
/// FIFO; nothing from the files that are code (`.js`, `.cjs`: protected, not read) or no
/// configuration (`.nvmrc`).
pub(crate) fn read_package_commands(package: &Path, name: &str) -> Vec<String> {
    if name.ends_with("js") || name == ".nvmrc" {
        return Vec::new();
    }
    crate::installations::read_capped(&package.join(name), CONFIG_CAP)
        .map(|text| package_commands(&text, name == "package.json"))
        .unwrap_or_default()
}

/// The scalar values of the top mapping's `hooks` mapping of a YAML text.
fn yaml_hooks_values(text: &str) -> Vec<String> {
    use hooks_yaml::Event;
    let mut found = Vec::new();
    // Each open node: whether it is a mapping, whether its next node is a key, and the key
    // of the value being read.
    let mut stack: Vec<(bool, bool, Option<String>)> = Vec::new();
    for item in hooks_yaml::Events::new(text) {
        let Ok((event, _)) = item else { break };
        let in_hooks = stack.len() == 2
            && stack.first().is_some_and(|(_, _, k)| k.as_deref() == Some("hooks"))
            && stack.get(1).is_some_and(|(map, ..)| *map);
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let map = matches!(event, Event::MappingStart(..));
                // A node in a key's place takes the key's; a value's is read with its key kept.
                if let Some((true, expect_key, _)) = stack.last_mut() {
                    *expect_key = false;
                }
                stack.push((map, map, None));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                if let Some((true, expect_key, key)) = stack.last_mut() {
                    *expect_key = true;
                    *key = None;
                }
            }
            Event::Scalar(value, ..) => {
                if let Some((true, expect_key, key)) = stack.last_mut() {
                    if *expect_key {
                        *key = Some(value.into_owned());
                        *expect_key = false;
                    } else {
                        if in_hooks && found.len() < MAX_VALUES {
                            found.push(value.into_owned());
                        }
                        *expect_key = true;
                        *key = None;
                    }
                }
            }
            Event::Alias(_) => {
                if let Some((true, expect_key, key)) = stack.last_mut() {
                    *expect_key = !*expect_key;
                    *key = None;
                }
            }
            _ => {}
        }
    }
    found
}

/// A YAML mapping or sequence being read.
enum Frame {
    Map {
        /// The key whose value comes next, once read.
        key: Option<String>,
        /// The key this mapping is the value of.
        of: Option<String>,
        /// Whether the next node is a key.
        expect_key: bool,
        /// The command keys read so far.
        mapping: Mapping,
    },
    /// A sequence, with the key of the mapping it is the value of.
    Seq { key: Option<String> },
}

fn yaml_values(text: &str) -> ConfigValues {
    use hooks_yaml::Event;
    let mut values = ConfigValues::default();
    let mut stack: Vec<Frame> = Vec::new();
    for item in hooks_yaml::Events::new(text) {
        let Ok((event, _)) = item else { break };
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let key = value_key(&mut stack);
                stack.push(match event {
                    Event::MappingStart(..) => {
                        let mapping = Mapping::default();
                        Frame::Map { key: None, of: key, expect_key: true, mapping }
                    }
                    _ => Frame::Seq { key },
                });
            }
            Event::MappingEnd => {
                if let Some(Frame::Map { mapping, .. }) = stack.pop() {
                    values.add_mapping(mapping);
                }
            }
            Event::SequenceEnd => {
                stack.pop();
            }
            Event::Scalar(value, ..) => match stack.last_mut() {
                Some(Frame::Map { key, expect_key, .. }) if *expect_key => {
                    *key = Some(value.into_owned());
                    *expect_key = false;
                }
                Some(Frame::Map { .. }) => {
                    let key = value_key(&mut stack).unwrap_or_default();
                    if let Some(Frame::Map { mapping, .. }) = stack.last_mut() {
                        mapping.set(&key, &value);
                    }
                    // A Taskfile's `includes: {docs: ./docs}` (F77).
                    if matches!(stack.last(), Some(Frame::Map { of: Some(k), .. }) if k == "includes")
                    {
                        push_new(&mut values.includes, value.clone().into_owned());
                    }
                    values.add(&key, value.into_owned());
                }
                Some(Frame::Seq { key }) => {
                    let key = key.clone().unwrap_or_default();
                    if key == "args"
                        && let Some(Frame::Map { mapping, .. }) = stack.iter_mut().rev().nth(1)
                        && mapping.args.len() < MAX_VALUES
                    {
                        mapping.args.push(value.clone().into_owned());
                    }
                    values.add(&key, value.into_owned());
                }
                None => {}
            },
            Event::Alias(_) => {
                let _ = value_key(&mut stack);
            }
            _ => {}
        }
    }
    values
}

/// Takes the node now read as the value of the mapping on top of `stack` (the next node is a
/// key again) and gives that value's key; `None` when the top is no mapping. A node read in a
/// key's place (a complex key) takes the key's place.
fn value_key(stack: &mut [Frame]) -> Option<String> {
    match stack.last_mut() {
        Some(Frame::Map { key, expect_key, .. }) => {
            if *expect_key {
                *expect_key = false;
                *key = None;
                None
            } else {
                *expect_key = true;
                key.take()
            }
        }
        Some(Frame::Seq { key }) => key.clone(),
        None => None,
    }
}

fn json_values(value: &serde_json::Value) -> ConfigValues {
    let mut values = ConfigValues::default();
    let mut stack: Vec<(Option<&str>, &serde_json::Value)> = vec![(None, value)];
    while let Some((key, value)) = stack.pop() {
        match value {
            serde_json::Value::Object(map) => {
                let mut mapping = Mapping::default();
                for (key, value) in map {
                    match value {
                        serde_json::Value::String(s) => mapping.set(key, s),
                        serde_json::Value::Array(items) if key == "args" => {
                            let args = items.iter().filter_map(|a| a.as_str().map(str::to_owned));
                            mapping.args = args.take(MAX_VALUES).collect();
                        }
                        _ => {}
                    }
                }
                values.add_mapping(mapping);
                stack.extend(map.iter().map(|(k, v)| (Some(k.as_str()), v)));
            }
            serde_json::Value::Array(items) => stack.extend(items.iter().map(|v| (key, v))),
            serde_json::Value::String(s) => values.add(key.unwrap_or_default(), s.clone()),
            _ => {}
        }
    }
    values
}

fn toml_values(text: &str) -> ConfigValues {
    let Ok(document) = text.parse::<toml_edit::DocumentMut>() else {
        return ConfigValues::default();
    };
    let mut values = ConfigValues::default();
    let mut stack: Vec<(Option<&str>, &toml_edit::Item)> = vec![(None, document.as_item())];
    while let Some((key, item)) = stack.pop() {
        match item {
            toml_edit::Item::Table(table) => {
                values.add_mapping(toml_mapping(table.iter().map(|(k, v)| (k, v.as_value()))));
                stack.extend(table.iter().map(|(k, v)| (Some(k), v)));
            }
            toml_edit::Item::ArrayOfTables(tables) => {
                for table in tables.iter() {
                    values.add_mapping(toml_mapping(table.iter().map(|(k, v)| (k, v.as_value()))));
                    stack.extend(table.iter().map(|(k, v)| (Some(k), v)));
                }
            }
            toml_edit::Item::Value(value) => toml_value(key, value, &mut values),
            toml_edit::Item::None => {}
        }
    }
    values
}

/// The command keys of a TOML table's (or inline table's) entries.
fn toml_mapping<'a>(
    entries: impl Iterator<Item = (&'a str, Option<&'a toml_edit::Value>)>,
) -> Mapping {
    let mut mapping = Mapping::default();
    for (key, value) in entries {
        match value {
            Some(toml_edit::Value::String(s)) => mapping.set(key, s.value()),
            Some(toml_edit::Value::Array(items)) if key == "args" => {
                let args = items.iter().filter_map(|a| a.as_str().map(str::to_owned));
                mapping.args = args.take(MAX_VALUES).collect();
            }
            _ => {}
        }
    }
    mapping
}

fn toml_value(key: Option<&str>, value: &toml_edit::Value, values: &mut ConfigValues) {
    let mut stack: Vec<(Option<&str>, &toml_edit::Value)> = vec![(key, value)];
    while let Some((key, value)) = stack.pop() {
        match value {
            toml_edit::Value::String(s) => values.add(key.unwrap_or_default(), s.value().clone()),
            toml_edit::Value::Array(items) => stack.extend(items.iter().map(|v| (key, v))),
            toml_edit::Value::InlineTable(table) => {
                values.add_mapping(toml_mapping(table.iter().map(|(k, v)| (k, Some(v)))));
                stack.extend(table.iter().map(|(k, v)| (Some(k), v)));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
