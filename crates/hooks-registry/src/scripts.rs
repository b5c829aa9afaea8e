//! Which files a hook's command runs or reads: the analysis behind the protected paths.
//!
//! A command is lexed ([`crate::shell`]) and walked command by command (`&&`, `||`, `;`,
//! `|`, `&`, subshells, `$(…)`), through wrappers (`timeout 5`, `exec`, `env A=b`, `nice`,
//! `nohup`, `sudo`, …), runners (`uv run`, `npx`, `pnpm exec`, `poetry run`, …) and
//! interpreters with their options (`bash -e`, `python3 -u`, `node --require ./pre.js`),
//! and every word that names a file is reported with where it starts from ([`PathBase`]):
//! the program when it is a path (a repository-local interpreter such as
//! `./venv/bin/python3`), the script an interpreter runs, files that options load, the
//! arguments that look like files, redirection targets. `cd` moves the directory later
//! relative paths start from (both directories are kept, since a failed `cd` leaves the
//! old one). Variables stay symbolic: the format says what they stand for.
//!
//! Where the text does not say which file runs (a command substitution, an unknown
//! variable in the middle of a path, a glob, `eval`), the analysis says so
//! ([`CommandAnalysis::uncertain`]) and reports what it can protect instead: the folder
//! before the unknown part as a whole tree, and the path after it as a name under any
//! folder ([`PathBase::Unknown`]).

use std::path::{Component, Path, PathBuf};

use hooks_schema::HookCommand;

use crate::gitconfig::EntryEffect;
use crate::shell::{Lexed, Part, Redir, Sep, Token, Word, is_user_name_char, lex};

#[cfg(test)]
mod tests;

/// How deep command strings nested in command strings (`bash -c`, `$(…)`, `eval`) are read.
const MAX_DEPTH: u32 = 4;

/// How many directories `cd` may make a later relative path start from.
const MAX_DIRS: usize = 8;

/// Where a path named by a command starts from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathBase {
    /// The path is absolute.
    Root,
    /// The directory the command runs in.
    RunDir,
    /// The user's home (`~`, `$HOME`).
    Home,
    /// The value of a variable; the hook's format says which directory it is.
    Var(String),
    /// A directory the text does not name (a command substitution, another user's home):
    /// the path can only be protected by name, under any folder.
    Unknown,
}

/// What a named path is to the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathRole {
    /// The program itself, named by a path (a script, or a repository-local interpreter).
    Program,
    /// The script an interpreter or a runner runs (`bash x.sh`, `uv run x.py`, `. x.sh`).
    Script,
    /// A file an option loads (`node --require ./pre.js`, `bash --rcfile r`, `jq -f f`).
    Loaded,
    /// An argument or a redirection target that names a file.
    Argument,
    /// Every file under a folder: the known folder before a part of a path that cannot be
    /// read (`hooks/*.sh`).
    Tree,
    /// Every file under the folder of a script kept in a subfolder of a configuration
    /// folder (`.claude/hooks/`, `~/.cursor/hooks/`): the helpers it loads from beside
    /// itself (`import './lib.mjs'`). Protected as a whole, not pinned by `hooks trust`.
    Beside,
    /// A file a hook's shell script itself sources or runs by path (`. ./lib.sh`,
    /// `bash tools/check.sh`), read from the script's own text ([`analyse_script_text`]), or
    /// a local module a Python or JavaScript script imports: protected as a path, and pinned
    /// by `hooks trust` with the script.
    Sourced,
    /// Every file under a folder of a module search path the line sets (`PYTHONPATH`,
    /// `NODE_PATH`, `RUBYLIB`, `PERL5LIB`, `LD_LIBRARY_PATH`) when it is kept in a
    /// configuration folder (`.claude/lib`): the modules the hook imports. Protected as a
    /// whole, not pinned (a dependency folder changes on every install).
    Modules,
    /// The module `python -m` runs (`tools/gate.py` of `python -m tools.gate`), or a package
    /// it imports on the way (`tools/__init__.py`): found from the folder Python puts first
    /// on its module search path, the one it runs in, from which the module's own absolute
    /// imports are found too. Protected, pinned, and read for what it imports (finding F117).
    Module,
    /// The other forms of a Python module: every file in the path's folder whose name is the
    /// path's last component followed by a dot (`helper.so`,
    /// `helper.cpython-313-x86_64-linux-gnu.so`, `helper.abi3.so`, `helper.pyc`) and the same
    /// in its `__pycache__/` (`helper.cpython-313.pyc`), which Python's import system loads
    /// before or in place of `helper.py` (finding F118). Protected, not pinned.
    Compiled,
}

/// One file (or folder, for [`PathRole::Tree`]) a command names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NamedPath {
    /// Where it starts from.
    pub base: PathBase,
    /// The path: absolute for [`PathBase::Root`], relative to the base otherwise (it may be
    /// empty: the base itself, or start with `..`).
    pub path: PathBuf,
    /// What it is to the command.
    pub role: PathRole,
}

/// A recipe file or manifest a task runner or package manager reads (`package.json` for `npm
/// run lint`, the makefile for `make check`), with the targets the line names (`lint`,
/// `check`): the registry reads what those targets run (finding F72).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RecipeRun {
    /// The file, as the line names it.
    pub file: NamedPath,
    /// The program that reads it (`make`, `npm`, `pre-commit`): a file an option names is
    /// read as that program's whatever its name (`make -f ci/Makefile.ci`).
    pub program: String,
    /// The line's words after the program that could name a target (not options, not
    /// assignments), in order; empty when there are none (the tool's default).
    pub targets: Vec<String>,
}

/// The files a command names, and why the analysis is not sure it found them all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandAnalysis {
    /// The named paths, sorted, without duplicates.
    pub paths: Vec<NamedPath>,
    /// Why the command could not be analysed with confidence (empty when it could).
    pub uncertain: Vec<String>,
    /// The programs the command runs by name whose installation decides what they do: the
    /// interpreters that load code from it at every start (`python3`, `python3.12`, `ruby`,
    /// `perl`, `node`) and the programs that read its configuration (`git`, `wget`, `npm`:
    /// `SYSTEM_CONFIGS`), sorted, without duplicates. The hook finds each on its `PATH`,
    /// and the installation it finds there starts every run (a Python's `site-packages` `.pth`
    /// files, RubyGems, the standard libraries, `<prefix>/etc/gitconfig`), so the registry
    /// looks each up where [`crate::UserPaths::program_path`] says and protects what it finds
    /// (`specs/guard.md`).
    pub programs_on_path: Vec<String>,
    /// The files `ssh -F`, `scp -F` and `sftp -F` name, sorted, without duplicates: each is
    /// that run's whole ssh configuration, read by ssh as `~/.ssh/config` is (its `Include`s,
    /// the commands its lines run), so the registry reads it too (finding F67). Each is among
    /// [`CommandAnalysis::paths`] as well.
    pub ssh_configs: Vec<NamedPath>,
    /// The files the line has git read as configuration whatever their names, sorted, without
    /// duplicates (finding F69): `GIT_CONFIG_GLOBAL` and `GIT_CONFIG_SYSTEM` set on the line,
    /// the `config` of the repository `--git-dir` or `GIT_DIR` names, the file a `git -c
    /// include.path=…` entry names. Git reads each as it reads `~/.gitconfig` (its includes,
    /// the commands its entries run, its `core.hooksPath`), so the registry reads it too. Each
    /// is among [`CommandAnalysis::paths`] as well.
    pub git_configs: Vec<NamedPath>,
    /// The folders the line has git take the repository's hooks from (`git -c
    /// core.hooksPath=…`, finding F69), sorted, without duplicates: protected whole, and read
    /// for the hook managers whose scripts they hold, as a hooks folder a configuration file
    /// names is. Each is among [`CommandAnalysis::paths`] as well.
    pub git_hooks_folders: Vec<NamedPath>,
    /// The recipe files and manifests the line's task runners and package managers read, with
    /// the targets it names (finding F72), sorted, without duplicates. Each file is among
    /// [`CommandAnalysis::paths`] as well.
    pub recipes: Vec<RecipeRun>,
    /// The folders where the line runs a Node.js linter or formatter whose configuration the
    /// guard protects (`eslint`, `prettier`, `stylelint`, …), with the tool's name, sorted, without
    /// duplicates: where the tool looks for its configuration, there and in each folder above,
    /// whose imports and named files the registry reads (findings F85, F87). Its configuration
    /// files are among [`CommandAnalysis::paths`] by name, under any folder.
    pub node_tool_folders: Vec<(NamedPath, &'static str)>,
    /// The configuration files the line names to a Node.js tool by its option
    /// (`vite build --config cfg/vite.mjs`, `eslint -c tools/lint.mjs`), with the tool's name,
    /// sorted, without duplicates: read for their imports and named files as the tool's own
    /// configurations are (finding F107). Each is among [`CommandAnalysis::paths`] as well.
    pub node_tool_files: Vec<(NamedPath, &'static str)>,
    /// The TypeScript configurations the line gives its TypeScript runner by an option (tsx's
    /// `--tsconfig`, ts-node's `--project` and `-P`), sorted, without duplicates: each takes
    /// the place of the nearest `tsconfig.json` for the script it runs, so the registry reads
    /// the script's imports through its `paths` and protects what its `extends` chain and
    /// ts-node's `require` entries name (finding F138). Each is among
    /// [`CommandAnalysis::paths`] as well.
    pub typescript_configs: Vec<NamedPath>,
    /// The folders the line adds to its interpreters' module search paths, with the language
    /// whose imports are looked for there, sorted, without duplicates (finding F144):
    /// `PYTHONPATH=lib python3 gate.py` imports `gate.py`'s `policy` from `lib/`, as
    /// `NODE_PATH`, `RUBYLIB`, `PERL5LIB`, `PERLLIB` and ruby's and perl's `-I` do for theirs;
    /// the registry reads the scripts' imports there. A folder kept in a configuration folder
    /// is among [`CommandAnalysis::paths`] as well, whole.
    pub search_folders: Vec<(crate::imports::Language, NamedPath)>,
}

impl CommandAnalysis {
    /// The named paths ssh and git read as configuration whatever their names: the `ssh -F`
    /// files (F67), the git configuration files and hooks folders the line gives git (F69).
    pub fn read_as_configuration(&self) -> impl Iterator<Item = &NamedPath> {
        (self.ssh_configs.iter()).chain(&self.git_configs).chain(&self.git_hooks_folders)
    }
}

/// Analyses what `command` runs and reads.
pub fn analyse(command: &HookCommand) -> CommandAnalysis {
    analyse_with_templates(command, &[])
}

/// [`analyse`], where an argument of an argument vector that starts with one of `templates`
/// (text the format substitutes, such as Claude Code's `${CLAUDE_PROJECT_DIR}`) starts from
/// [`PathBase::Var`] of that template. A shell command line is not affected: there the
/// shell expands variables, which the analysis reads itself.
pub fn analyse_with_templates(command: &HookCommand, templates: &[String]) -> CommandAnalysis {
    let mut walk = Walk::default();
    let word = |w: &String| match templates.iter().find(|t| w.starts_with(t.as_str())) {
        Some(t) => Word {
            parts: vec![
                Part::Var(t.clone()),
                Part::Lit(w.get(t.len()..).unwrap_or_default().to_owned()),
            ],
        },
        None => Word::lit(w),
    };
    match command {
        HookCommand::Shell { script, .. } => walk.shell(script, 0),
        HookCommand::Exec { program, args } => {
            let words: Vec<Word> = std::iter::once(program).chain(args).map(word).collect();
            walk.command(&words, &mut vec![Dir::run()], 0);
        }
        HookCommand::Script { path, args } => {
            walk.add_text(
                path.as_os_str().to_string_lossy().as_ref(),
                PathRole::Script,
                &[Dir::run()],
            );
            let words: Vec<Word> = args.iter().map(word).collect();
            walk.arguments(&words, &[Dir::run()]);
        }
        // A URL names no local file: nothing to protect beyond the hook file itself.
        HookCommand::Http(_) => {}
    }
    walk.finish()
}

/// The files a shell script runs or sources, read from its text `text`: what a hook's script
/// loads beyond what its command line names (`. ./lib.sh`, `source "$(dirname "$0")/x.sh"`,
/// `python3 tools/check.py`), each as [`PathRole::Sourced`]: the files themselves, not the
/// folders around them ([`PathRole::Beside`] is the command line's). Paths relative to the
/// directory the script runs in start from [`PathBase::RunDir`] (the hook's, which the script
/// inherits); `script_dir`, the folder the script is in, stands for the usual ways a script
/// names its own folder (`$(dirname "$0")`, `${BASH_SOURCE%/*}`, `$(cd "$(dirname "$0")" &&
/// pwd)`), so what it loads from beside itself is named exactly; another unreadable folder
/// leaves the name under any folder. Here-document bodies are text, not commands. Arguments,
/// redirections and the manifests of runners are not reported: a script mentions many files
/// it only reads or writes, and reporting them would forbid the agent ordinary edits.
///
/// ```
/// use std::path::Path;
/// use hooks_registry::{PathBase, analyse_script_text};
///
/// let text = "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n. ./policy.sh\n";
/// let found = analyse_script_text(text, Some(Path::new("/repo/scripts")));
/// assert!(found.paths.iter().any(|p| p.path == Path::new("/repo/scripts/lib.sh")));
/// assert!(found.paths.iter().any(|p| p.base == PathBase::RunDir && p.path == Path::new("policy.sh")));
/// ```
pub fn analyse_script_text(text: &str, script_dir: Option<&Path>) -> CommandAnalysis {
    let mut text = without_here_documents(text);
    if let Some(dir) = script_dir.and_then(Path::to_str).filter(|d| is_plain_dir(d)) {
        text = with_own_folder(&text, dir);
    }
    let mut walk = Walk::default();
    walk.shell(&text, 0);
    let mut analysis = walk.finish();
    let read_as_configuration: Vec<NamedPath> = analysis.read_as_configuration().cloned().collect();
    analysis.paths.retain_mut(|p| match p.role {
        PathRole::Program | PathRole::Script => {
            p.role = PathRole::Sourced;
            true
        }
        // What the programs it runs read at every start, wherever they run from (the user's
        // Python site, `~/.jq`, `~/.npmrc`, the repository's `.git/config`): protected as the
        // command line's are, not pinned; and the configuration `ssh -F` names (F67), the
        // files and hooks folders its lines give git (F69).
        PathRole::Modules | PathRole::Argument => {
            is_start_up_file(p) || read_as_configuration.contains(p)
        }
        // What `python -m` runs from where the script runs, and the compiled forms of the
        // modules it imports on the way (F117, F118).
        PathRole::Module | PathRole::Compiled => true,
        _ => false,
    });
    analysis.paths.sort();
    analysis.paths.dedup();
    analysis
}

/// The configuration files under the home that the programs, runners and interpreters the
/// command analysis knows read at every start (`.jq`, `.npmrc`, `.config/uv/uv.toml`, …;
/// findings F49, F50), each once: for a caller that knows where `$XDG_CONFIG_HOME` moves
/// those under `.config/`.
///
/// ```
/// let files = hooks_registry::home_start_up_files();
/// assert!(files.contains(&".jq") && files.contains(&".config/git/config"));
/// ```
pub fn home_start_up_files() -> Vec<&'static str> {
    let mut files: Vec<&'static str> = home_config_lists().flatten().copied().collect();
    let mut seen = std::collections::BTreeSet::new();
    files.retain(|f| seen.insert(*f));
    files
}

/// The folders under `~/.cache/` the command analysis names for runners and interpreters (the
/// caches they run code from, finding F54: `uv/`, `pnpm/`, `yarn/`, `deno/`) and pre-commit's
/// and prek's (F65) and black's (F139), relative to the home: the engine protects them under
/// `$XDG_CACHE_HOME` too, where these programs keep them when it is set.
///
/// ```
/// let caches = hooks_registry::home_cache_folders();
/// assert!(caches.contains(&".cache/uv") && caches.contains(&".cache/deno"));
/// assert!(caches.contains(&".cache/pre-commit") && caches.contains(&".cache/prek"));
/// assert!(caches.contains(&".cache/black"));
/// ```
pub fn home_cache_folders() -> Vec<&'static str> {
    let mut folders: Vec<&'static str> = RUNNERS
        .iter()
        .map(|r| r.home_environments)
        .chain(INTERPRETERS.iter().map(|i| i.home_configs))
        .flatten()
        .copied()
        .chain([crate::hookmanagers::PRE_COMMIT_CACHE, crate::hookmanagers::PREK_CACHE])
        .chain(CODE_CACHES.iter().map(|(_, folder)| *folder))
        .filter(|f| f.starts_with(".cache/"))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    folders.retain(|f| seen.insert(*f));
    folders
}

/// The tables' lists of configuration files under the home: the programs' start-up files
/// ([`PROGRAM_CONFIGS`]), the runners' and the interpreters' `home_configs`, the formatters'
/// and linters' ([`CODE_CONFIGS`]; for `$XDG_CONFIG_HOME`'s move of those under `.config/`;
/// ssh's is not there).
fn home_config_lists() -> impl Iterator<Item = &'static [&'static str]> {
    PROGRAM_CONFIGS
        .iter()
        .map(|(_, _, home)| *home)
        .chain(RUNNERS.iter().map(|r| r.home_configs))
        .chain(INTERPRETERS.iter().map(|i| i.home_configs))
        .chain(CODE_CONFIGS.iter().map(|c| c.home))
}

/// Whether `p` is a file or folder a program reads at every start, as the tables of this
/// module list them: the user's Python site ([`PYTHON_USER_SITE`]), a runner's or an
/// interpreter's configuration and a runner's environments under the home, and what a
/// program reads where it runs, under the home and in the system ([`start_up_paths`]).
fn is_start_up_file(p: &NamedPath) -> bool {
    let path = p.path.as_path();
    let listed = |files: &[&str]| files.iter().any(|f| Path::new(f) == path);
    let of_programs = |at: StartUp| {
        (PROGRAM_CONFIGS.iter().map(|(name, ..)| *name))
            .chain(SSH_PROGRAMS.iter().copied())
            .chain(CODE_CONFIGS.iter().flat_map(|c| c.names.iter().copied()))
            .flat_map(start_up_paths)
            .any(|(place, file, _)| place == at && Path::new(file) == path)
    };
    match p.base {
        PathBase::Home => {
            listed(&PYTHON_USER_SITE)
                || home_config_lists().any(listed)
                || RUNNERS.iter().any(|r| listed(r.home_environments))
                || of_programs(StartUp::Home)
        }
        PathBase::RunDir => of_programs(StartUp::Here),
        PathBase::Root => of_programs(StartUp::System),
        PathBase::Unknown => of_programs(StartUp::Anywhere),
        _ => false,
    }
}

/// Whether `dir` can stand in a script's text as it is, quoted or not: an absolute path of
/// characters no shell treats specially.
fn is_plain_dir(dir: &str) -> bool {
    dir.starts_with('/')
        && dir.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+@,:%".contains(&b))
}

/// The ways a script names its own folder.
const OWN_FOLDER: &[&str] = &[
    "$(dirname \"$0\")",
    "$(dirname -- \"$0\")",
    "$(dirname $0)",
    "`dirname \"$0\"`",
    "`dirname $0`",
    "$(dirname \"${BASH_SOURCE[0]}\")",
    "$(dirname -- \"${BASH_SOURCE[0]}\")",
    "$(dirname \"$BASH_SOURCE\")",
    "$(dirname \"${BASH_SOURCE}\")",
    "$(dirname ${BASH_SOURCE[0]})",
    "$(dirname $BASH_SOURCE)",
    "${0%/*}",
    "${BASH_SOURCE%/*}",
    "${BASH_SOURCE[0]%/*}",
];

/// `text` with the script's own folder (`dir`) in place of the usual ways to name it, and of
/// `$(cd DIR && pwd)` (with `--`, `-P`, `;` and redirections to `/dev/null`) around it.
fn with_own_folder(text: &str, dir: &str) -> String {
    let mut out = text.to_owned();
    for form in OWN_FOLDER {
        if out.contains(form) {
            out = out.replace(form, dir);
        }
    }
    // `$(cd "DIR" && pwd)` once DIR is the folder itself (or a folder under or above it).
    let mut result = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("$(cd ") {
        result.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find(')').and_then(|end| Some((end, cd_pwd(&after[..end], dir)?))) {
            Some((end, folder)) => {
                result.push_str(&folder);
                rest = &after[end + 1..];
            }
            None => {
                result.push_str("$(");
                rest = after;
            }
        }
    }
    result.push_str(rest);
    result
}

/// The folder `inner` prints when it is `cd [--] DIR [redirections] (&&|;) pwd [-P|-L]` and
/// DIR is `dir` or a path under it (`dir/..` included), normalized.
fn cd_pwd(inner: &str, dir: &str) -> Option<String> {
    let unquoted = inner.replace(['"', '\''], "");
    let mut words = unquoted.split_whitespace().peekable();
    if words.next() != Some("cd") {
        return None;
    }
    if words.peek() == Some(&"--") {
        words.next();
    }
    let target = words.next()?;
    let below = target.strip_prefix(dir)?;
    if !(below.is_empty() || below.starts_with('/')) {
        return None;
    }
    let mut rest: Vec<&str> = words.collect();
    while rest.first().is_some_and(|w| {
        matches!(
            *w,
            ">/dev/null" | "&>/dev/null" | "2>/dev/null" | "2>&1" | ">" | "&>" | "2>" | "/dev/null"
        )
    }) {
        rest.remove(0);
    }
    let pwd = matches!(rest.as_slice(), ["&&" | ";", "pwd"] | ["&&" | ";", "pwd", "-P" | "-L"]);
    if !pwd {
        return None;
    }
    let mut folder = PathBuf::from("/");
    for c in Path::new(target).components() {
        match c {
            Component::Normal(n) => folder.push(n),
            Component::ParentDir => {
                folder.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    folder.to_str().filter(|f| is_plain_dir(f)).map(str::to_owned)
}

/// `text` without the bodies of its here-documents (`<<EOF` … `EOF`, `<<-'END'` … `END`):
/// their lines are data. A `<<` whose end line never comes (a `<<` in a quoted string, an
/// arithmetic shift) removes nothing.
fn without_here_documents(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        out.push_str(line);
        out.push('\n');
        i += 1;
        let Some((delimiter, tabs)) = here_document(line) else { continue };
        let end = lines[i..].iter().position(|l| {
            let l = if tabs { l.trim_start_matches('\t') } else { l };
            l == delimiter
        });
        if let Some(end) = end {
            i += end + 1;
        }
    }
    out
}

/// The end word of a here-document a line starts (`<<EOF`, `<< 'EOF'`, `<<-"EOF"`) and
/// whether its body's leading tabs are stripped (`<<-`).
fn here_document(line: &str) -> Option<(String, bool)> {
    let mut from = 0;
    while let Some(at) = line[from..].find("<<") {
        let start = from + at + 2;
        from = start;
        let rest = &line[start..];
        if rest.starts_with('<') {
            from += 1;
            continue;
        }
        let (rest, tabs) = match rest.strip_prefix('-') {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let word: String = rest
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '|' | '&' | ')' | '<' | '>'))
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        if !word.is_empty() {
            return Some((word, tabs));
        }
    }
    None
}

/// A directory relative paths start from: a base and a path under it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Dir {
    base: PathBase,
    path: PathBuf,
}

impl Dir {
    fn run() -> Dir {
        Dir { base: PathBase::RunDir, path: PathBuf::new() }
    }
}

/// A word's value as far as it can be read.
struct Value {
    /// Where it starts from when its first part is a variable or `~`; `None` for text.
    base: Option<PathBase>,
    /// The literal text before the first unreadable part.
    head: String,
    /// The literal text after the last unreadable part, when there is one.
    tail: Option<String>,
}

#[derive(Default)]
struct Walk {
    /// A runner's option named the program it builds (`cargo run --bin gate`).
    named_target: bool,
    paths: Vec<NamedPath>,
    uncertain: Vec<String>,
    /// Variables the command line itself assigns (`D=/opt/x; $D/run.sh`).
    assigned: Vec<(String, Value)>,
    /// The folders the line puts on `PATH` (`PATH=./node_modules/.bin:$PATH eslint`), where
    /// a program named without a `/` may then be found.
    search_path: Vec<Word>,
    /// Programs run by name whose installation matters ([`CommandAnalysis::programs_on_path`]).
    programs_on_path: Vec<String>,
    /// [`CommandAnalysis::ssh_configs`].
    ssh_configs: Vec<NamedPath>,
    /// [`CommandAnalysis::git_configs`].
    git_configs: Vec<NamedPath>,
    /// [`CommandAnalysis::git_hooks_folders`].
    git_hooks_folders: Vec<NamedPath>,
    /// [`CommandAnalysis::recipes`].
    recipes: Vec<RecipeRun>,
    /// [`CommandAnalysis::node_tool_folders`].
    node_tool_folders: Vec<(NamedPath, &'static str)>,
    /// [`CommandAnalysis::node_tool_files`].
    node_tool_files: Vec<(NamedPath, &'static str)>,
    /// [`CommandAnalysis::typescript_configs`].
    typescript_configs: Vec<NamedPath>,
    /// [`CommandAnalysis::search_folders`].
    search_folders: Vec<(crate::imports::Language, NamedPath)>,
    /// Every assignment the line makes, to one command or to the rest of the line (at most
    /// [`MAX_LINE_ENV`]): git reads some variables in pairs (`GIT_CONFIG_KEY_0` with
    /// `GIT_CONFIG_VALUE_0`) or by a name an option gives (`git --config-env=…=MON`).
    line_env: Vec<(String, Word)>,
}

impl Walk {
    fn finish(mut self) -> CommandAnalysis {
        // A script in a subfolder of a dot-folder (`.claude/hooks/gate.mjs`, not
        // `.cursor/deny.sh` beside other configuration, nor `node_modules/.bin/x`) keeps its
        // helpers beside it: that folder as a whole.
        let beside: Vec<NamedPath> = self
            .paths
            .iter()
            .filter(|p| matches!(p.role, PathRole::Program | PathRole::Script))
            .filter_map(|p| {
                let folder = p.path.parent()?;
                let names: Vec<&str> = folder
                    .components()
                    .filter_map(|c| match c {
                        Component::Normal(n) => n.to_str(),
                        _ => None,
                    })
                    .collect();
                let below_dot_folder =
                    names.iter().take(names.len().saturating_sub(1)).any(|n| is_dot_folder(n));
                below_dot_folder.then(|| NamedPath {
                    base: p.base.clone(),
                    path: folder.to_path_buf(),
                    role: PathRole::Beside,
                })
            })
            .collect();
        self.paths.extend(beside);
        self.paths.sort();
        self.paths.dedup();
        self.uncertain.sort();
        self.uncertain.dedup();
        self.programs_on_path.sort();
        self.programs_on_path.dedup();
        for list in [&mut self.ssh_configs, &mut self.git_configs, &mut self.git_hooks_folders] {
            list.sort();
            list.dedup();
        }
        self.recipes.sort();
        self.recipes.dedup();
        self.node_tool_folders.sort();
        self.node_tool_folders.dedup();
        self.node_tool_files.sort();
        self.node_tool_files.dedup();
        self.typescript_configs.sort();
        self.typescript_configs.dedup();
        self.search_folders.sort();
        self.search_folders.dedup();
        CommandAnalysis {
            paths: self.paths,
            uncertain: self.uncertain,
            programs_on_path: self.programs_on_path,
            ssh_configs: self.ssh_configs,
            git_configs: self.git_configs,
            git_hooks_folders: self.git_hooks_folders,
            recipes: self.recipes,
            node_tool_folders: self.node_tool_folders,
            node_tool_files: self.node_tool_files,
            typescript_configs: self.typescript_configs,
            search_folders: self.search_folders,
        }
    }

    /// Names `paths`, each relative to the user's home, as `role`.
    fn under_home(&mut self, paths: &[&str], role: PathRole) {
        self.paths.extend(paths.iter().map(|path| NamedPath {
            base: PathBase::Home,
            path: PathBuf::from(path),
            role,
        }));
    }

    /// The paths named since `self.paths[before]` (what one step of the walk named).
    fn named_since(&self, before: usize) -> Vec<NamedPath> {
        self.paths.get(before..).unwrap_or_default().to_vec()
    }

    fn note(&mut self, why: impl Into<String>) {
        self.uncertain.push(why.into());
    }

    fn shell(&mut self, text: &str, depth: u32) {
        if depth > MAX_DEPTH {
            self.note("command strings nested too deep");
            return;
        }
        let Lexed { tokens, substitutions, uncertain } = lex(text);
        for why in uncertain {
            self.note(why);
        }
        self.list(&tokens, depth);
        for inner in substitutions {
            self.shell(&inner, depth + 1);
        }
    }

    /// Walks a token list: commands separated by operators, directories changed by `cd`.
    fn list(&mut self, tokens: &[Token], depth: u32) {
        let mut dirs = vec![Dir::run()];
        let mut saved: Vec<Vec<Dir>> = Vec::new();
        let mut words: Vec<Word> = Vec::new();
        let mut tokens = tokens.iter();
        while let Some(token) = tokens.next() {
            match token {
                Token::Word(w) => words.push(w.clone()),
                Token::Redir(kind) => {
                    let Some(Token::Word(target)) = tokens.next() else { continue };
                    match kind {
                        Redir::Input | Redir::Output => {
                            self.add_word(target, PathRole::Argument, &dirs);
                        }
                        Redir::Dup => {
                            if !target
                                .literal()
                                .is_some_and(|t| t == "-" || t.bytes().all(|b| b.is_ascii_digit()))
                            {
                                self.add_word(target, PathRole::Argument, &dirs);
                            }
                        }
                        Redir::HereString => {}
                    }
                }
                Token::Sep(sep) => {
                    self.command(&words, &mut dirs, depth);
                    words.clear();
                    match sep {
                        Sep::Open => saved.push(dirs.clone()),
                        Sep::Close => {
                            if let Some(outer) = saved.pop() {
                                // What ran after the subshell starts where it started; keep
                                // both, as a `cd` inside may or may not have run.
                                for d in outer {
                                    if !dirs.contains(&d) {
                                        dirs.push(d);
                                    }
                                }
                            }
                        }
                        Sep::Seq | Sep::And | Sep::Or | Sep::Pipe | Sep::Background => {}
                    }
                }
            }
        }
        self.command(&words, &mut dirs, depth);
    }

    /// One simple command.
    fn command(&mut self, words: &[Word], dirs: &mut Vec<Dir>, depth: u32) {
        let mut i = 0;
        // Assignments before the program; a command of only assignments sets them.
        while let Some(w) = words.get(i)
            && let Some((name, value)) = assignment(w)
        {
            self.assigned_value(&name, &value, dirs, depth);
            if words.len() == i + 1 || words.iter().skip(i).all(|w| assignment(w).is_some()) {
                let v = self.value(&value);
                self.assigned.retain(|(n, _)| *n != name);
                self.assigned.push((name, v));
            }
            i += 1;
        }
        self.program(words.get(i..).unwrap_or_default(), dirs, depth);
    }

    /// What the program `name` reads at every start ([`start_up_paths`]): protected, not
    /// pinned (they change with ordinary use).
    fn start_up(&mut self, name: &str, dirs: &[Dir]) {
        for (place, path, role) in start_up_paths(name) {
            match place {
                StartUp::Home => self.under_home(&[path], role),
                StartUp::Here | StartUp::System => self.add_text(path, role, dirs),
                StartUp::Anywhere => self.paths.push(NamedPath {
                    base: PathBase::Unknown,
                    path: PathBuf::from(path),
                    role,
                }),
            }
        }
        // Where a Node.js tool runs, what its configuration there and above imports or names
        // is read and protected (findings F85, F87).
        if let Some(tool) = node_tool(name) {
            for d in dirs {
                let folder = NamedPath {
                    base: d.base.clone(),
                    path: d.path.clone(),
                    role: PathRole::Argument,
                };
                self.node_tool_folders.push((folder, tool));
            }
            // And the tools a bundler loads with it (F104).
            let with = LOADED_WITH.iter().find(|(t, _)| *t == tool);
            for companion in with.map(|(_, w)| *w).unwrap_or_default() {
                self.start_up(companion, dirs);
            }
        }
    }

    /// The configuration files `args` of the Node.js tool `tool` name by its option
    /// (`--config FILE`, `--config=FILE`, `--config-file`, and `-c` but for prettier, whose `-c`
    /// is `--check`): noted as the line's arguments and in
    /// [`CommandAnalysis::node_tool_files`], read for what they import (finding F107; checked
    /// with Vite 8 and Rollup 4: `vite build --config cfg/vite.mjs` and `rollup -c
    /// cfg/rollup.mjs` ran the plugin beside it the configuration imports).
    fn node_tool_configuration_options(&mut self, tool: &'static str, args: &[Word], dirs: &[Dir]) {
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let Some(text) = word.literal() else { continue };
            let (flag, attached) = split_flag(&text);
            let config = matches!(flag.as_str(), "--config" | "--config-file")
                || (flag == "-c" && tool != "prettier");
            if !config {
                continue;
            }
            let value = match attached {
                Some(v) => Some(Word::lit(&v)),
                None => words.next().cloned(),
            };
            let Some(value) = value else { continue };
            let before = self.paths.len();
            self.add_word(&value, PathRole::Argument, dirs);
            let named: Vec<NamedPath> = self.paths.get(before..).unwrap_or_default().to_vec();
            for path in named.into_iter().filter(|p| p.role == PathRole::Argument) {
                self.node_tool_files.push((path, tool));
            }
        }
    }

    /// pip's `install` (`pip install -e .`, `python -m pip install ./lib`, `uv pip install
    /// .`) builds each local project it is given, which runs the project's build backend:
    /// its `setup.py` (with a `pyproject.toml` or without one), the hooks its `pyproject.toml`
    /// names (finding F108; checked with pip 24 and setuptools here: `pip install
    /// --no-build-isolation .` and `-e .` ran `setup.py`). A project is an operand or an
    /// `-e`/`--editable` value pip takes as a local one ([`pip_local_project`]: `vendor/d` too,
    /// and a `file://` URL, finding F109); the requirements and constraints files `-r` and
    /// `-c` name are loaded files, read for the projects they list in turn
    /// ([`PIP_REQUIREMENTS_READER`], finding F109).
    fn pip_install(&mut self, args: &[Word], dirs: &[Dir]) {
        /// pip's options that take a value, before the subcommand or after `install`.
        const VALUES: &[&str] = &[
            "--python",
            "--log",
            "--cache-dir",
            "--proxy",
            "--timeout",
            "--retries",
            "--cert",
            "--client-cert",
            "--exists-action",
            "--trusted-host",
            "-t",
            "--target",
            "--prefix",
            "--root",
            "-i",
            "--index-url",
            "--extra-index-url",
            "--src",
            "--upgrade-strategy",
            "--python-version",
            "--platform",
            "--implementation",
            "--abi",
            "--only-binary",
            "--no-binary",
            "-C",
            "--config-settings",
            "--global-option",
            "--report",
            "--progress-bar",
            "--group",
            "--root-user-action",
        ];
        let mut words = args.iter();
        let mut installing = false;
        // Each project given, with whether it was `-e`'s value (a folder's path or a version
        // control URL, never a package's name).
        let mut projects: Vec<(String, bool)> = Vec::new();
        let mut requirements: Vec<Word> = Vec::new();
        let mut find_links: Vec<Word> = Vec::new();
        while let Some(word) = words.next() {
            let Some(text) = word.literal() else { continue };
            let (flag, attached) = split_flag(&text);
            // `-e X`, `-eX`, `--editable=X`; `-r X`, `-rX`, `--requirement=X`, `-c`'s likewise.
            let short = |letter: &str| text.starts_with(letter) && !text.starts_with("--");
            let value_of = |words: &mut std::slice::Iter<'_, Word>| match &attached {
                Some(v) => Some(Word::lit(v)),
                None if text.len() > 2 && !text.starts_with("--") => Some(Word::lit(&text[2..])),
                None => words.next().cloned(),
            };
            if matches!(flag.as_str(), "-e" | "--editable") || short("-e") {
                let value = value_of(&mut words).as_ref().and_then(Word::literal);
                projects.extend(value.filter(|_| installing).map(|v| (v, true)));
                continue;
            }
            if matches!(flag.as_str(), "-r" | "--requirement" | "-c" | "--constraint")
                || short("-r")
                || short("-c")
            {
                requirements.extend(value_of(&mut words).filter(|_| installing));
                continue;
            }
            // A local folder of archives pip installs from (F113).
            if matches!(flag.as_str(), "-f" | "--find-links") || short("-f") {
                find_links.extend(value_of(&mut words).filter(|_| installing));
                continue;
            }
            if text.starts_with('-') {
                if VALUES.contains(&flag.as_str()) && attached.is_none() {
                    words.next();
                }
                continue;
            }
            if !installing {
                if text != "install" {
                    return;
                }
                installing = true;
                continue;
            }
            projects.push((text, false));
        }
        if !installing {
            return;
        }
        // The same given by pip's variables on the line (F113): `PIP_REQUIREMENT=r.txt pip
        // install .` reads `r.txt` too; a list is split at blanks, as pip splits it.
        for (name, value) in self.line_env.clone().iter().rev() {
            let Some(text) = value.literal() else { continue };
            let words = text.split_whitespace().map(Word::lit);
            match name.as_str() {
                "PIP_REQUIREMENT" | "PIP_CONSTRAINT" => requirements.extend(words),
                "PIP_EDITABLE" => {
                    projects.extend(text.split_whitespace().map(|w| (w.to_owned(), true)))
                }
                "PIP_FIND_LINKS" => find_links.extend(words),
                _ => {}
            }
        }
        for (project, editable) in projects.into_iter().take(MAX_DIRS) {
            self.python_local_project(&project, editable, dirs);
        }
        self.pip_requirements(&requirements, dirs);
        for folder in find_links.iter().take(MAX_DIRS) {
            let local = folder.literal().is_some_and(|f| !f.contains("://"));
            if local {
                self.add_word(folder, PathRole::Modules, dirs);
            }
        }
        // pip's configuration files decide what it installs as its options do (F113): the
        // user's and the system's, protected, not pinned, and the one `PIP_CONFIG_FILE` on
        // the line names; each read for what it has pip install.
        let before = self.paths.len();
        self.under_home(PIP_HOME_CONFIGS, PathRole::Argument);
        for system in PIP_SYSTEM_CONFIGS {
            self.add_text(system, PathRole::Argument, dirs);
        }
        let named = self.line_env.iter().rev().find(|(n, _)| n == "PIP_CONFIG_FILE");
        if let Some((_, file)) = named.cloned() {
            self.add_word(&file, PathRole::Loaded, dirs);
        }
        self.note_recipe_files(before, PIP_CONFIG_READER, &[]);
    }

    /// The alias `alias` of cargo's configuration a line's subcommand is (finding F116): read
    /// from `.cargo/config.toml` and `.cargo/config` where cargo runs (or the nearest above)
    /// and from the user's, for the line cargo runs in its place ([`CARGO_ALIAS_READER`]).
    fn cargo_alias(&mut self, alias: &str, rest: &[Word], dirs: &[Dir]) {
        let mut targets = vec![alias.to_owned()];
        targets.extend(rest.iter().filter_map(Word::literal).take(15));
        let before = self.paths.len();
        for config in CARGO_CONFIGS {
            self.add_text(config, PathRole::Loaded, dirs);
        }
        self.under_home(CARGO_CONFIGS, PathRole::Modules);
        self.note_recipe_files(before, CARGO_ALIAS_READER, &targets);
    }

    /// The program `cargo run` builds from another package than the one where it runs
    /// (finding F116): `--manifest-path M`'s `src/main.rs` beside `M`, and the `src/main.rs` of
    /// the package `-p`/`--package` names, found among the workspace's manifests
    /// ([`crate::recipes::CARGO_PACKAGE_TARGET`]); whether the line names such a package.
    fn cargo_run_package(&mut self, args: &[Word], dirs: &[Dir]) -> bool {
        let mut named = false;
        let mut words = args.iter().filter_map(Word::literal).take_while(|w| w != "--");
        while let Some(word) = words.next() {
            let (flag, attached) = split_flag(&word);
            let value = match (flag.as_str(), attached) {
                ("-p" | "--package" | "--manifest-path", Some(v)) => v,
                ("-p" | "--package" | "--manifest-path", None) => match words.next() {
                    Some(v) => v,
                    None => break,
                },
                _ if word.starts_with("-p") && word.len() > 2 => word[2..].to_owned(),
                _ => continue,
            };
            named = true;
            if flag == "--manifest-path" {
                let folder = Path::new(&value).parent().map(|p| p.to_string_lossy().into_owned());
                let folder = folder.filter(|f| !f.is_empty()).unwrap_or_else(|| ".".to_owned());
                self.add_text(&format!("{folder}/src/main.rs"), PathRole::Script, dirs);
                continue;
            }
            let before = self.paths.len();
            self.add_text("Cargo.toml", PathRole::Loaded, dirs);
            let targets = [format!("{}{value}", crate::recipes::CARGO_PACKAGE_TARGET)];
            self.note_recipe_files(before, "cargo", &targets);
        }
        named
    }

    /// A project pip, pipx or uv builds when it installs `spec`, if it is a local one
    /// ([`pip_local_project`]): a folder's `setup.py` is noted as a loaded file and its
    /// `pyproject.toml` read as F105's project managers' (`Recipe::PythonBuild`); an archive
    /// (`dist/x-1.0.tar.gz`, a wheel) is a loaded file itself (an sdist's `setup.py` runs from
    /// it; a wheel's code is what the hook then runs).
    fn python_local_project(&mut self, spec: &str, editable: bool, dirs: &[Dir]) {
        match pip_local_project(spec, editable) {
            Some(LocalProject::Folder(folder)) => {
                self.add_text(&format!("{folder}/setup.py"), PathRole::Loaded, dirs);
                let before = self.paths.len();
                self.add_text(&format!("{folder}/pyproject.toml"), PathRole::Loaded, dirs);
                self.note_recipes(before, PYTHON_BUILD_READER, &[]);
            }
            Some(LocalProject::Archive(file)) => self.add_text(&file, PathRole::Loaded, dirs),
            None => {}
        }
    }

    /// What pipx and uv install besides pip (finding F109; checked with pipx 1.18 here: `pipx
    /// install ./lib` and `pipx install -e vendor/d` ran the project's `setup.py`): the local
    /// projects of `pipx install` and `inject` (after the environment's name), of `pipx run
    /// --spec`, of `uv tool install` and `uv add`, and of the `--from`, `--with` and
    /// `--with-editable` values of `uv`'s and `uvx`'s runs (comma-separated lists); the
    /// requirements files of `--with-requirements` and of `uv add -r` (read as pip's).
    fn python_tool_install(&mut self, name: &str, args: &[Word], dirs: &[Dir]) {
        const SPEC_OPTIONS: &[&str] =
            &["--spec", "--from", "--with", "--with-editable", "--preinstall"];
        const REQUIREMENTS: &[&str] = &["--with-requirements", "-r", "--requirements"];
        const VALUES: &[&str] = &[
            "--python",
            "-p",
            "--pip-args",
            "--index-url",
            "-i",
            "--default-index",
            "--index",
            "--suffix",
            "--directory",
            "--project",
            "--package",
            "--extra",
            "--group",
            "--optional",
            "--env-file",
        ];
        let mut words = args.iter();
        let mut operands: Vec<String> = Vec::new();
        let mut specs: Vec<(String, bool)> = Vec::new();
        let mut requirements: Vec<Word> = Vec::new();
        let mut editable = false;
        while let Some(word) = words.next() {
            let Some(text) = word.literal() else { continue };
            if text == "--" {
                break;
            }
            let (flag, attached) = split_flag(&text);
            let value = |words: &mut std::slice::Iter<'_, Word>| match &attached {
                Some(v) => Some(Word::lit(v)),
                None => words.next().cloned(),
            };
            if SPEC_OPTIONS.contains(&flag.as_str()) {
                let list = value(&mut words).as_ref().and_then(Word::literal).unwrap_or_default();
                let editable = flag == "--with-editable";
                specs.extend(list.split(',').map(|s| (s.trim().to_owned(), editable)));
            } else if REQUIREMENTS.contains(&flag.as_str()) {
                requirements.extend(value(&mut words));
            } else if matches!(flag.as_str(), "-e" | "--editable") {
                editable = true;
            } else if VALUES.contains(&flag.as_str()) {
                if attached.is_none() {
                    words.next();
                }
            } else if !text.starts_with('-') {
                operands.push(text);
                // The program a run starts: what follows is its own (`uvx ruff -r x`).
                let command = match (name, operands.first().map(String::as_str)) {
                    ("uvx", _) => 1,
                    ("uv" | "pipx", Some("run")) => 2,
                    ("uv", Some("tool")) if operands.get(1).is_some_and(|s| s == "run") => 3,
                    _ => usize::MAX,
                };
                if operands.len() >= command {
                    break;
                }
            }
        }
        // The operands that are projects, by the tool and its subcommand.
        let installed: &[String] = match (name, operands.first().map(String::as_str)) {
            ("pipx", Some("install")) => operands.get(1..).unwrap_or_default(),
            ("pipx", Some("inject")) => operands.get(2..).unwrap_or_default(),
            ("uv", Some("add")) => operands.get(1..).unwrap_or_default(),
            ("uv", Some("tool")) if operands.get(1).is_some_and(|s| s == "install") => {
                operands.get(2..).unwrap_or_default()
            }
            _ => &[],
        };
        // uvx's and `pipx run`'s operands are the program and its arguments, not projects.
        let all = installed.iter().map(|s| (s.clone(), editable)).chain(specs);
        for (spec, editable) in all.take(MAX_DIRS) {
            self.python_local_project(&spec, editable, dirs);
        }
        self.pip_requirements(&requirements, dirs);
    }

    /// The requirements and constraints files `files` (`-r`'s values, `--with-requirements`'):
    /// loaded files, read for the projects they list ([`PIP_REQUIREMENTS_READER`]), with each
    /// name as written, since those projects are relative to where pip runs.
    fn pip_requirements(&mut self, files: &[Word], dirs: &[Dir]) {
        for file in files.iter().take(MAX_DIRS) {
            let before = self.paths.len();
            self.add_word(file, PathRole::Loaded, dirs);
            let written: Vec<Word> = file.literal().map(|w| Word::lit(&w)).into_iter().collect();
            self.note_recipes(before, PIP_REQUIREMENTS_READER, &written);
        }
    }

    /// `words[0]` is in program position.
    fn program(&mut self, words: &[Word], dirs: &mut Vec<Dir>, depth: u32) {
        let Some((first, rest)) = words.split_first() else { return };
        let Some(text) = first.literal() else {
            // `"$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh`, `$(which x)`, …
            self.add_word(first, PathRole::Program, dirs);
            let value = self.value(first);
            if let (Some(base), None) = (&value.base, &value.tail) {
                for (path, role) in python_environment(&under_base(&value.head)) {
                    self.paths.push(NamedPath { base: base.clone(), path, role });
                }
            }
            match value.tail.as_deref().or(Some(value.head.as_str())).map(basename) {
                Some(name) if value.tail.is_none() && interpreter(name).is_some() => {
                    self.interpreter(name, rest, dirs, depth);
                }
                _ => self.arguments(rest, dirs),
            }
            return;
        };
        if text.contains('/') {
            self.add_text(&text, PathRole::Program, dirs);
            for (path, role) in python_environment(Path::new(&text)) {
                self.add_text(&path.to_string_lossy(), role, dirs);
            }
        } else if has_file_extension(&text) {
            // Looked up on `PATH`, not here; protected in the run directory all the same.
            self.add_text(&text, PathRole::Program, dirs);
        }
        let name = basename(&text);
        self.start_up(name, dirs);
        if is_pip(name) {
            self.pip_install(rest, dirs);
        }
        // What pipx and uv build when they install a local project (F109); `uv pip` is pip's.
        let uv_pip = name == "uv" && rest.first().and_then(Word::literal).as_deref() == Some("pip");
        if matches!(name, "pipx" | "uv" | "uvx") && !uv_pip {
            self.python_tool_install(name, rest, dirs);
        }
        if let Some(tool) = node_tool(name) {
            self.node_tool_configuration_options(tool, rest, dirs);
        }
        // `cargo fmt` runs rustfmt, `cargo clippy` clippy (finding F80).
        if name == "cargo"
            && let Some(tool) = cargo_tool(rest)
        {
            self.start_up(tool, dirs);
        }
        if !text.contains('/') && installation_matters(name) {
            // Found on `PATH` when the hook runs: the registry looks it up.
            self.programs_on_path.push(name.to_owned());
        }
        match name {
            "!" | "{" | "}" | "if" | "then" | "elif" | "else" | "fi" | "do" | "done" | "while"
            | "until" | "time" | "coproc" | "export" | "local" | "readonly" | "declare"
            | "typeset" => {
                if matches!(name, "export" | "local" | "readonly" | "declare" | "typeset") {
                    self.command(rest, dirs, depth);
                } else {
                    self.program(rest, dirs, depth);
                }
            }
            "for" | "case" | "select" | "function" => {
                self.note(format!("a `{name}` construct"));
                self.arguments(rest, dirs);
            }
            "cd" | "pushd" => self.cd(rest, dirs),
            "source" | "." => {
                if let Some((script, args)) = rest.split_first() {
                    self.add_word(script, PathRole::Script, dirs);
                    self.arguments(args, dirs);
                }
            }
            "alias" => {
                // `alias g=./gate.sh`, then `g` on a later line: the value is a command.
                for word in rest {
                    if let Some(value) =
                        word.literal().and_then(|t| t.split_once('=').map(|(_, v)| v.to_owned()))
                    {
                        self.shell(&value, depth + 1);
                    }
                }
            }
            "eval" => {
                self.note("`eval`");
                let joined: Vec<String> = rest.iter().filter_map(Word::literal).collect();
                self.arguments(rest, dirs);
                self.shell(&joined.join(" "), depth + 1);
            }
            _ => {
                if !text.contains('/') {
                    // Looked up on a `PATH` the line changed: each of its folders' copy.
                    for folder in self.search_path.clone() {
                        let mut at = folder;
                        at.parts.push(Part::Lit(format!("/{text}")));
                        self.add_word(&at, PathRole::Program, dirs);
                    }
                }
                if let Some(values) = ssh_value_letters(name) {
                    self.ssh_options(name, values, rest, dirs, depth);
                }
                if name == "git" {
                    self.git_options(rest, dirs, depth);
                }
                if name == "rsync" {
                    self.rsync_options(rest, depth);
                }
                if name == "concurrently" || name == "conc" {
                    self.concurrently(rest, depth);
                }
                if let Some(w) = wrapper(name) {
                    self.wrapped(w, rest, dirs, depth);
                } else if let Some(r) = runner(name) {
                    self.runner(r, rest, dirs, depth);
                } else if let Some(t) = task_runner(name) {
                    self.task_runner(t, rest, dirs);
                } else if interpreter(name).is_some() {
                    self.interpreter(name, rest, dirs, depth);
                } else {
                    self.arguments(rest, dirs);
                }
            }
        }
    }

    /// `cd DIR`: later relative paths start from DIR as well as from where they did.
    fn cd(&mut self, args: &[Word], dirs: &mut Vec<Dir>) {
        let operand =
            args.iter().find(|w| !w.literal().is_some_and(|t| t.starts_with('-') && t != "-"));
        let target = match operand {
            None => Some(Dir { base: PathBase::Home, path: PathBuf::new() }),
            // `cd -`: the previous directory, which the agent's session chose.
            Some(w) if w.literal().is_some_and(|t| t == "-") => {
                Some(Dir { base: PathBase::Unknown, path: PathBuf::new() })
            }
            Some(w) => {
                let v = self.value(w);
                if v.tail.is_some() {
                    self.note("`cd` to a directory that cannot be read");
                    None
                } else {
                    match v.base {
                        Some(base) => Some(Dir { base, path: under_base(&v.head) }),
                        None if v.head.starts_with('/') => {
                            Some(Dir { base: PathBase::Root, path: PathBuf::from(v.head) })
                        }
                        None => {
                            let added: Vec<Dir> = dirs
                                .iter()
                                .map(|d| Dir { base: d.base.clone(), path: d.path.join(&v.head) })
                                .collect();
                            for d in added {
                                push_dir(dirs, d);
                            }
                            None
                        }
                    }
                }
            }
        };
        match target {
            Some(d) => push_dir(dirs, d),
            None if operand.is_some_and(|w| self.value(w).tail.is_some()) => {
                push_dir(dirs, Dir { base: PathBase::Unknown, path: PathBuf::new() });
            }
            None => {}
        }
        if dirs.len() >= MAX_DIRS {
            self.note("too many `cd`s to follow");
        }
    }

    /// A wrapper: its options and leading operands, then the command it runs.
    fn wrapped(&mut self, w: &Wrapper, args: &[Word], dirs: &mut Vec<Dir>, depth: u32) {
        let mut i = 0;
        let mut operands = w.operands;
        while let Some(word) = args.get(i) {
            let Some(text) = word.literal() else { break };
            if text == "--" {
                i += 1;
                break;
            }
            if w.name == "env"
                && let Some((name, value)) = assignment(word)
            {
                self.assigned_value(&name, &value, dirs, depth);
                i += 1;
                continue;
            }
            if let Some(opt) = text.strip_prefix('-').filter(|o| !o.is_empty()) {
                let (flag, inline) = match opt.split_once('=') {
                    Some((f, v)) => (format!("-{f}"), Some(v.to_owned())),
                    None => (text.clone(), None),
                };
                let takes_value = w.value_options.contains(&flag.as_str());
                let value = if takes_value && inline.is_none() {
                    i += 1;
                    args.get(i).cloned()
                } else {
                    inline.map(|v| Word::lit(&v))
                };
                if let Some(value) = value {
                    if w.dir_options.contains(&flag.as_str()) {
                        self.cd(std::slice::from_ref(&value), dirs);
                    } else if w.command_options.contains(&flag.as_str()) {
                        match value.literal() {
                            Some(cmd) => self.shell(&cmd, depth + 1),
                            None => self
                                .note(format!("`{}` runs a command that cannot be read", w.name)),
                        }
                    } else {
                        self.arguments(std::slice::from_ref(&value), dirs);
                    }
                }
                i += 1;
                continue;
            }
            if operands > 0 {
                operands -= 1;
                self.arguments(std::slice::from_ref(word), dirs);
                i += 1;
                continue;
            }
            break;
        }
        if w.name == "xargs" {
            self.note("`xargs` builds its command from its input");
        }
        self.program(args.get(i..).unwrap_or_default(), dirs, depth);
    }

    /// A runner: a subcommand that runs the rest (`uv run`, `pnpm exec`), or the rest
    /// directly (`npx`, `uvx`); the target is a script when it looks like a file, a program
    /// otherwise. A runner that reads a manifest (`package.json`) reads it for every subcommand
    /// but those that run a program it does not name (`npm run lint`, `yarn lint`,
    /// `pnpm install`'s lifecycle scripts; not `npm exec`), from the
    /// folder its directory options name wherever they stand (`npm run x --prefix hooks`).
    fn runner(&mut self, r: &Runner, args: &[Word], dirs: &mut Vec<Dir>, depth: u32) {
        // The runner's own options may come before its subcommand (`npm --prefix hooks run x`).
        let mut i = self.runner_options(r, args, 0, dirs);
        if r.dir_operand {
            // `direnv exec DIR command`: the command runs with DIR's environment file loaded.
            if args
                .get(i)
                .and_then(Word::literal)
                .is_some_and(|s| r.subcommands.contains(&s.as_str()))
            {
                if let Some(dir) = args.get(i + 1) {
                    self.cd(std::slice::from_ref(dir), dirs);
                }
                for manifest in r.manifests {
                    self.add_text(manifest, PathRole::Loaded, dirs);
                }
                self.program(args.get(i + 2..).unwrap_or_default(), dirs, depth);
            } else {
                self.arguments(args.get(i..).unwrap_or_default(), dirs);
            }
            return;
        }
        let sub = args.get(i).and_then(Word::literal);
        let from_manifest = !sub.is_some_and(|s| r.without_manifest.contains(&s.as_str()));
        // The user's own configuration: protected, not pinned (a change to the user's
        // `~/.npmrc` does not undo the trust in a repository's hooks).
        self.under_home(r.home_configs, PathRole::Modules);
        if !r.manifests.is_empty() || !r.configs.is_empty() {
            // The manifest is read from the folder a directory option names wherever it stands
            // (`npm run x --prefix web`); those after the subcommand are applied to the
            // command's folders once, by the option loop below, so this scan moves a copy.
            let mut manifest_dirs = dirs.clone();
            let mut j = i;
            // Options before the subcommand count too (`pnpm -r run lint`); yarn's are
            // subcommands (`yarn workspace a run lint`, `yarn workspaces run lint`).
            let words = || (args.iter().filter_map(Word::literal)).take_while(|t| t != "--");
            let yarn_subcommand = words().find(|t| !t.starts_with('-'));
            let workspaces = (r.name == "yarn"
                && yarn_subcommand.is_some_and(|t| t == "workspace" || t == "workspaces"))
                || words().any(|t| workspace_option(r.name, &split_flag(&t).0));
            while let Some(word) = args.get(j) {
                let Some(text) = word.literal() else {
                    j += 1;
                    continue;
                };
                if text == "--" {
                    break;
                }
                let (flag, inline) = split_flag(&text);
                if r.dir_options.contains(&flag.as_str()) {
                    let value = match inline {
                        Some(v) => Some(Word::lit(&v)),
                        None => {
                            j += 1;
                            args.get(j).cloned()
                        }
                    };
                    if let Some(value) = value {
                        self.cd(std::slice::from_ref(&value), &mut manifest_dirs);
                    }
                }
                j += 1;
            }
            if from_manifest {
                let before = self.paths.len();
                for manifest in r.manifests {
                    self.add_text(manifest, PathRole::Loaded, &manifest_dirs);
                }
                // Run in the workspaces' packages (finding F78): their manifests are read too.
                let program = match workspaces {
                    true => WORKSPACES_READER,
                    false => r.name,
                };
                self.note_recipes(before, program, args.get(i..).unwrap_or_default());
            }
            for config in r.configs {
                self.add_text(config, PathRole::Loaded, &manifest_dirs);
            }
            // A Python project's manager builds the project into its environment when it
            // syncs it, which runs the build backend's code (finding F105).
            if PYTHON_PROJECT_MANAGERS.contains(&r.name) {
                let before = self.paths.len();
                self.add_text("pyproject.toml", PathRole::Loaded, &manifest_dirs);
                self.note_recipes(before, PYTHON_BUILD_READER, &[]);
            }
        }
        if !r.subcommands.is_empty() {
            // Another subcommand of a runner of a manifest's scripts (`npm run lint`) runs
            // them in the same environment (`node_modules/.bin` on their `PATH`).
            let sub = args.get(i).and_then(Word::literal);
            // `uv pip install .` builds the project as pip does (finding F108).
            if r.name == "uv" && sub.as_deref() == Some("pip") {
                self.pip_install(args.get(i + 1..).unwrap_or_default(), dirs);
            }
            if !sub.as_ref().is_some_and(|s| r.subcommands.contains(&s.as_str())) {
                if !r.manifests.is_empty() {
                    self.runner_environments(r, dirs);
                }
                // A subcommand cargo does not have is an alias of its configuration (F116).
                let alias = sub.as_deref().filter(|s| {
                    !CARGO_BUILTINS.contains(s) && !s.starts_with(['-', '+']) && !s.is_empty()
                });
                if r.name == "cargo"
                    && let Some(alias) = alias
                {
                    self.cargo_alias(alias, args.get(i + 1..).unwrap_or_default(), dirs);
                }
                self.arguments(args.get(i..).unwrap_or_default(), dirs);
                return;
            }
            i = self.runner_options(r, args, i + 1, dirs);
        }
        self.runner_environments(r, dirs);
        if !r.target_options.is_empty() || !r.default_targets.is_empty() {
            // It builds and runs its own program (`cargo run`): the rest are that program's
            // arguments.
            // `cargo run -p xtask`: another package's program, not the one where it runs.
            let elsewhere = r.name == "cargo" && self.cargo_run_package(args, dirs);
            if !std::mem::take(&mut self.named_target) && !elsewhere {
                for file in r.default_targets {
                    self.add_text(file, PathRole::Script, dirs);
                }
            }
            self.arguments(args.get(i..).unwrap_or_default(), dirs);
            return;
        }
        let rest = args.get(i..).unwrap_or_default();
        if let Some((target, after)) = rest.split_first()
            && r.package_targets
            && target
                .literal()
                .is_some_and(|t| Path::new(&t).extension().is_none() && !t.starts_with('-'))
        {
            // A package's folder, compiled whole (`go run ./cmd/gate`); the folder it runs in
            // (`go run .`) is the project the agent works on, and is not protected whole.
            if target.literal().is_some_and(|t| t.trim_end_matches('/') == ".") {
                self.uncertain.push(format!(
                    "`{} run .` builds the package of the folder it runs in; its files are neither protected nor pinned",
                    r.name
                ));
            } else {
                self.add_word(target, PathRole::Tree, dirs);
            }
            self.arguments(after, dirs);
        } else if let Some((target, after)) = rest.split_first()
            && target.literal().is_some_and(|t| t.contains('/') || has_file_extension(&t))
        {
            self.add_word(target, PathRole::Script, dirs);
            self.arguments(after, dirs);
        } else {
            self.program(rest, dirs, depth);
        }
    }

    /// The environments a runner runs what it runs in ([`Runner::environments`] where it
    /// runs, [`Runner::home_environments`]), protected whole.
    fn runner_environments(&mut self, r: &Runner, dirs: &[Dir]) {
        for environment in r.environments {
            self.add_text(environment, PathRole::Modules, dirs);
        }
        self.under_home(r.home_environments, PathRole::Modules);
    }

    /// A runner's options from `args[i]` on; returns the index of the first word that is not
    /// one.
    fn runner_options(
        &mut self,
        r: &Runner,
        args: &[Word],
        mut i: usize,
        dirs: &mut Vec<Dir>,
    ) -> usize {
        while let Some(word) = args.get(i) {
            let Some(text) = word.literal() else { break };
            if text == "--" {
                return i + 1;
            }
            if text.len() < 2 || !text.starts_with('-') {
                break;
            }
            let (flag, inline) = split_flag(&text);
            let value = if r.value_options.contains(&flag.as_str()) && inline.is_none() {
                i += 1;
                args.get(i).cloned()
            } else {
                inline.map(|v| Word::lit(&v))
            };
            if let Some(value) = value {
                if let Some((_, files)) = r.target_options.iter().find(|(o, _)| *o == flag) {
                    self.named_target = true;
                    if let Some(name) = value.literal().filter(|n| is_plain_name(n)) {
                        for file in *files {
                            self.add_text(&file.replace("{}", &name), PathRole::Script, dirs);
                        }
                    }
                } else if r.dir_options.contains(&flag.as_str()) {
                    self.cd(std::slice::from_ref(&value), dirs);
                } else if r.file_options.contains(&flag.as_str()) {
                    self.add_word(&value, PathRole::Loaded, dirs);
                } else {
                    self.arguments(std::slice::from_ref(&value), dirs);
                }
            }
            i += 1;
        }
        i
    }

    /// A task runner (`make`, `just`, `task`, `pre-commit`, `rake`, …): the recipes come from its file (the default
    /// names in the folder it runs in, or the ones its options name), which say what runs.
    /// Directory options are read first, as the tools apply them before reading any file.
    fn task_runner(&mut self, t: &TaskRunner, args: &[Word], dirs: &mut Vec<Dir>) {
        let end = args.iter().position(|w| w.literal().is_some_and(|s| s == "--"));
        let args = args.get(..end.unwrap_or(args.len())).unwrap_or_default();
        let before = self.paths.len();
        self.task_runner_files(t, args, dirs);
        // An option's value is no target (`make -j 4 check`, `run-p --max-parallel 2 'a:*'`).
        let mut after_option = false;
        let targets: Vec<Word> = (args.iter())
            .filter(|w| {
                let text = w.literal();
                let value = std::mem::replace(
                    &mut after_option,
                    text.as_deref().is_some_and(|o| t.value_option(o).is_some()),
                );
                !value
            })
            .cloned()
            .collect();
        self.note_recipes(before, t.names.first().copied().unwrap_or_default(), &targets);
    }

    /// The files of [`Walk::task_runner`].
    fn task_runner_files(&mut self, t: &TaskRunner, args: &[Word], dirs: &mut Vec<Dir>) {
        for pass_dirs in [true, false] {
            let mut i = 0;
            while let Some(word) = args.get(i) {
                i += 1;
                let Some(text) = word.literal() else {
                    if !pass_dirs {
                        self.arguments(std::slice::from_ref(word), dirs);
                    }
                    continue;
                };
                let Some((flag, attached)) = t.option(&text) else {
                    if !pass_dirs && !text.starts_with('-') {
                        // Targets, and `make`'s `VAR=value`: named when they look like files.
                        match assignment(word) {
                            Some((_, value)) => self.arguments(std::slice::from_ref(&value), dirs),
                            None => self.arguments(std::slice::from_ref(word), dirs),
                        }
                    }
                    continue;
                };
                let value = match attached {
                    Some(v) => Word::lit(&v),
                    None => {
                        let Some(v) = args.get(i) else { break };
                        i += 1;
                        v.clone()
                    }
                };
                if !pass_dirs && t.home_options.contains(&flag) {
                    self.runner_home(t, &value, dirs);
                }
                if !pass_dirs && t.build_options.contains(&flag) {
                    self.add_word(&value, PathRole::Modules, dirs);
                }
                match (pass_dirs, t.dir_options.contains(&flag), t.file_options.contains(&flag)) {
                    (true, true, _) => self.cd(std::slice::from_ref(&value), dirs),
                    (false, false, true) => self.add_word(&value, PathRole::Loaded, dirs),
                    (false, false, false) => self.arguments(std::slice::from_ref(&value), dirs),
                    _ => {}
                }
            }
        }
        for recipe in t.recipes {
            self.add_text(recipe, PathRole::Loaded, dirs);
        }
        for folder in t.folders {
            self.add_text(folder, PathRole::Modules, dirs);
        }
        self.under_home(t.home, PathRole::Modules);
        for path in t.system {
            self.add_text(path, PathRole::Modules, dirs);
        }
        let set = t.home_variable.and_then(|v| self.line_env.iter().rev().find(|(n, _)| n == v));
        if let Some((_, value)) = set.cloned() {
            self.runner_home(t, &value, dirs);
        }
        // rake is Ruby: its `-I`/`--libdir` folders (and the line's `RUBYLIB`) are where its
        // `-r`/`--require` libraries are found, as for ruby's own options (findings F97, F102).
        if t.names.contains(&"rake")
            && let Some(ruby) = interpreter("ruby")
        {
            self.option_words(ruby, &rake_ruby_options(args), dirs);
        }
    }

    /// What the task runner `t` loads under the folder `value` its option or variable puts in
    /// place of its folder under the home (F98: `gradle -g ci/gh` runs `ci/gh/init.d/*.gradle`).
    fn runner_home(&mut self, t: &TaskRunner, value: &Word, dirs: &[Dir]) {
        for entry in t.home {
            let Some(rest) = Path::new(entry).strip_prefix(t.home_folder).ok() else { continue };
            let mut under = value.clone();
            under.parts.push(Part::Lit(format!("/{}", rest.display())));
            self.add_word(&under, PathRole::Modules, dirs);
        }
    }

    /// Lists the files named since `self.paths[before]` as what `program` reads its recipes
    /// from ([`CommandAnalysis::recipes`]), with the targets `args` names: its literal words
    /// that are no option and no assignment (at most 16).
    ///
    /// npm-run-all's words are patterns of script names (`run-p lint:*`): an unquoted `*` the
    /// shell leaves as it is where no file matches, which reads as a glob, is its `*` there.
    fn note_recipes(&mut self, before: usize, program: &str, args: &[Word]) {
        let patterns = program == "npm-run-all";
        let target = |w: &Word| match w.literal() {
            Some(text) => Some(text),
            None if patterns => (w.parts.iter())
                .map(|p| match p {
                    Part::Lit(s) => Some(s.as_str()),
                    Part::Opaque => Some("*"),
                    Part::Var(_) | Part::Tilde(_) => None,
                })
                .collect::<Option<String>>(),
            None => None,
        };
        let targets: Vec<String> = (args.iter())
            .filter_map(target)
            .filter(|w| !w.starts_with('-') && !w.contains('=') && !w.is_empty())
            .take(16)
            .collect();
        let files = self.named_since(before);
        for file in files.into_iter().filter(|p| p.role == PathRole::Loaded) {
            let program = program.to_owned();
            self.recipes.push(RecipeRun { file, program, targets: targets.clone() });
        }
    }

    /// Notes every path named since `self.paths[before]`, whatever its role, as read by
    /// `program` for `targets` as given (where [`Self::note_recipes`] takes the loaded files and
    /// the line's words): the user's configurations, protected, not pinned, are read too.
    fn note_recipe_files(&mut self, before: usize, program: &str, targets: &[String]) {
        for file in self.named_since(before) {
            let (program, targets) = (program.to_owned(), targets.to_vec());
            self.recipes.push(RecipeRun { file, program, targets });
        }
    }

    /// The files Python loads for the module `module` (`a.b.c`), found from the folder it runs
    /// in or a folder of the line's `PYTHONPATH` (F97): each package on the way (`a.py`, which
    /// Python runs in place of the package when it finds one, and `a/__init__.py`) and the
    /// module itself (`a/b/c.py`, `a/b/c/__init__.py`; with `run`, what `python -m` runs,
    /// `a/b/c/__main__.py` too), each as [`PathRole::Module`], with their compiled and
    /// extension forms ([`PathRole::Compiled`]; findings F117, F118).
    fn python_module(&mut self, module: &str, run: bool, dirs: &[Dir]) {
        let parts: Vec<&str> = module.split('.').collect();
        if parts.iter().any(|p| p.is_empty() || p.contains('/')) {
            return;
        }
        let mut bases = vec![String::new()];
        if let Some(Some(path)) = self.line_variable("PYTHONPATH") {
            let entries = path.split(':').filter(|p| !p.is_empty()).take(MAX_DIRS);
            bases.extend(entries.map(|e| format!("{}/", e.trim_end_matches('/'))));
        }
        for base in &bases {
            for n in 1..=parts.len() {
                let place = format!("{base}{}", parts.get(..n).unwrap_or_default().join("/"));
                self.add_text(&format!("{place}.py"), PathRole::Module, dirs);
                self.add_text(&format!("{place}/__init__.py"), PathRole::Module, dirs);
                self.add_text(&place, PathRole::Compiled, dirs);
                self.add_text(&format!("{place}/__init__"), PathRole::Compiled, dirs);
            }
            if run {
                let place = format!("{base}{}", parts.join("/"));
                self.add_text(&format!("{place}/__main__.py"), PathRole::Module, dirs);
                self.add_text(&format!("{place}/__main__"), PathRole::Compiled, dirs);
            }
        }
    }

    /// An interpreter: options (some load files, some run inline code), then the script.
    fn interpreter(&mut self, name: &str, args: &[Word], dirs: &mut Vec<Dir>, depth: u32) {
        let Some(spec) = interpreter(name) else { return };
        for config in spec.configs {
            self.add_text(config, PathRole::Loaded, dirs);
        }
        // The TypeScript runners take the `tsconfig.json` found from where they run up: its
        // `paths` send imports elsewhere, ts-node's `require` runs code first (finding F127).
        if TYPESCRIPT_RUNNERS.contains(&basename(name)) {
            self.add_text("tsconfig.json", PathRole::Argument, dirs);
        }
        self.under_home(spec.home_configs, PathRole::Modules);
        if spec.names.contains(&"python") && !python_skips_user_site(args) {
            // Whatever it runs (a script, `-c`, `-m`), Python starts from the user's site.
            self.paths.extend(python_user_site());
        }
        let search = self.library_folders(spec, args);
        // Ruby's and Perl's `-I` folders (with the line's `RUBYLIB`, `PERL5LIB`) are where the
        // script's own requires are found too (F144).
        let language = match spec.names.first() {
            Some(&"ruby") => Some(crate::imports::Language::Ruby),
            Some(&"perl") => Some(crate::imports::Language::Perl),
            _ => None,
        };
        if let Some(language) = language {
            for folder in &search {
                let named = self.text_paths(folder, PathRole::Modules, dirs);
                self.search_folders.extend(named.into_iter().map(|f| (language, f)));
            }
        }
        let mut i = 0;
        let mut command_string = false;
        // Deno and Bun take a subcommand first (`deno eval` runs inline code).
        if let Some(sub) = args.first().and_then(Word::literal) {
            if spec.subcommands.contains(&sub.as_str()) {
                i = 1;
            } else if spec.inline.contains(&sub.as_str()) && !sub.starts_with('-') {
                return;
            }
        }
        while let Some(word) = args.get(i) {
            let Some(text) = word.literal() else { break };
            if text == "--" {
                i += 1;
                break;
            }
            if text == "-" {
                // The script comes on standard input.
                self.arguments(args.get(i + 1..).unwrap_or_default(), dirs);
                return;
            }
            let option =
                text.strip_prefix('-').or_else(|| text.strip_prefix('+').filter(|_| spec.shell));
            let Some(opt) = option.filter(|o| !o.is_empty()) else { break };
            let (flag, inline) = match opt.split_once('=') {
                Some((f, v)) if f.starts_with('-') => (format!("-{f}"), Some(v.to_owned())),
                _ => match (spec.module_dirs.iter().chain(library_flags(spec)))
                    .chain(python_written_options(spec))
                    .find(|o| text.len() > o.len() && text.starts_with(**o))
                {
                    // `perl -Ilib`, `ruby -r./x.rb`, `perl -MSetup`, `python3 -mtools.gate`:
                    // the value written into the option.
                    Some(o) => ((*o).to_owned(), text.get(o.len()..).map(str::to_owned)),
                    None => (text.clone(), None),
                },
            };
            let flag = flag.as_str();
            let python = spec.names.contains(&"python");
            if spec.inline.contains(&flag) {
                // The code is in the command itself, which the hook file holds; Python finds
                // what it imports from the folder it runs in first (`python3 -c "import json,
                // sys; …"` runs a `json.py` there: finding F117).
                let code = inline.or_else(|| args.get(i + 1).and_then(Word::literal));
                if python && let Some(code) = code {
                    for import in crate::imports::python_modules(&code) {
                        self.python_module(&import.module, false, dirs);
                    }
                }
                return;
            }
            if spec.module == Some(flag) {
                // What follows the module: after the word that names it, or after the option
                // itself when the module is written into it (`-mpip install .`).
                let after = if inline.is_some() { i + 1 } else { i + 2 };
                let module = inline.map(|v| Word::lit(&v)).or_else(|| args.get(i + 1).cloned());
                if let Some(m) = module.and_then(|m| m.literal()) {
                    // The module, its packages and their compiled forms, from the folder it
                    // runs in and the line's `PYTHONPATH` (F97, F117, F118).
                    self.python_module(&m, true, dirs);
                    // `python -m mypy` reads what `mypy` does (finding F79).
                    let top = m.split('.').next().unwrap_or_default();
                    if code_config(top).is_some() {
                        self.start_up(top, dirs);
                    }
                    // `python -m nox -s lint` is nox, reading its recipe file (finding F95);
                    // `python -m pip install .` builds the project (finding F108).
                    if m == "pip" {
                        self.pip_install(args.get(after..).unwrap_or_default(), dirs);
                    }
                    // `python -m pre_commit` pre-commit.
                    let runner = task_runner(top).or_else(|| task_runner(&top.replace('_', "-")));
                    if let Some(t) = runner.filter(|_| top == m) {
                        self.task_runner(t, args.get(after..).unwrap_or_default(), dirs);
                    }
                }
                self.arguments(args.get(after..).unwrap_or_default(), dirs);
                return;
            }
            // `sh -c` and `sh -ec`: the first operand is a command string.
            if spec.shell
                && !flag.starts_with("--")
                && flag.len() > 1
                && flag.trim_start_matches(['-', '+']).contains('c')
                && flag.starts_with('-')
            {
                command_string = true;
                i += 1;
                continue;
            }
            // `bash -euo pipefail`: a cluster of short flags ending in `o` takes a value.
            let cluster = spec.shell
                && flag.len() > 2
                && !flag.starts_with("--")
                && (flag.ends_with('o') || flag.ends_with('O'));
            let takes_value = spec.values.contains(&flag)
                || spec.module_dirs.contains(&flag)
                || spec.files.contains(&flag)
                || spec.dirs.contains(&flag)
                || cluster;
            let value = if takes_value && inline.is_none() {
                i += 1;
                args.get(i).cloned()
            } else {
                inline.map(|v| Word::lit(&v))
            };
            if let Some(value) = value {
                if library_flags(spec).contains(&flag) {
                    self.library(spec, &value, &search, dirs);
                } else if spec.files.contains(&flag) {
                    let before = self.paths.len();
                    self.add_word(&value, PathRole::Loaded, dirs);
                    // A TypeScript runner's configuration in the nearest one's place (F138).
                    if TYPESCRIPT_RUNNERS.contains(&basename(name))
                        && matches!(flag, "--tsconfig" | "--project" | "-P")
                    {
                        let named = self.paths.get(before..).unwrap_or_default().to_vec();
                        self.typescript_configs
                            .extend(named.into_iter().filter(|p| p.role == PathRole::Loaded));
                    }
                } else if spec.module_dirs.contains(&flag) {
                    // Ruby's and Perl's `-I` folders are noted with `library_folders`'.
                    self.module_folder(None, &value, dirs);
                    self.arguments(std::slice::from_ref(&value), dirs);
                } else if spec.dirs.contains(&flag) {
                    self.cd(std::slice::from_ref(&value), dirs);
                } else {
                    self.arguments(std::slice::from_ref(&value), dirs);
                }
            }
            i += 1;
        }
        let rest = args.get(i..).unwrap_or_default();
        let Some((script, after)) = rest.split_first() else { return };
        if command_string {
            match script.literal() {
                Some(cmd) => self.shell(&cmd, depth + 1),
                None => {
                    self.note("a shell runs a command string that cannot be read");
                    self.arguments(std::slice::from_ref(script), dirs);
                }
            }
        } else if !spec.code_operand {
            self.add_word(script, PathRole::Script, dirs);
            if script.literal().is_some_and(|t| !t.contains('/') && !has_file_extension(&t)) {
                let before = self.paths.len();
                for manifest in spec.manifests {
                    self.add_text(manifest, PathRole::Loaded, dirs);
                }
                self.note_recipes(before, name, std::slice::from_ref(script));
            }
        }
        self.arguments(after, dirs);
    }

    /// The folders the interpreter `spec` looks for the libraries its options load in, as the
    /// line gives them (finding F97): the values of its `-I` options among `args` (attached or
    /// not, wherever they stand: protect more) and the entries of its library path variable
    /// the line sets (`RUBYLIB`, `PERL5LIB`, `PERLLIB`); literal text only.
    fn library_folders(&self, spec: &Interpreter, args: &[Word]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if library_flags(spec).is_empty() {
            return out;
        }
        let mut words = args.iter().filter_map(Word::literal);
        while let Some(text) = words.next() {
            for flag in spec.module_dirs {
                match text.strip_prefix(flag) {
                    Some("") => out.extend(words.next()),
                    Some(attached) => out.push(attached.to_owned()),
                    None => {}
                }
            }
        }
        let variables: &[&str] = match spec.names.first() {
            Some(&"ruby") => &["RUBYLIB"],
            Some(&"perl") => &["PERL5LIB", "PERLLIB"],
            _ => &[],
        };
        for name in variables {
            if let Some(Some(value)) = self.line_variable(name) {
                out.extend(value.split(':').filter(|p| !p.is_empty()).map(str::to_owned));
            }
        }
        out.truncate(MAX_DIRS);
        out
    }

    /// What a library option of `spec` loads (`ruby -r VALUE`, `perl -M VALUE`; finding F97):
    /// a path (`./x.rb`, one with a `/` or Ruby's extension) is that file; a library's name is
    /// its file in each of `search`'s folders (`-Itools -rsetup`: `tools/setup.rb`;
    /// `-MT::S=x`: `T/S.pm`); a library found elsewhere (the language's own, an installed one)
    /// is none of the project's.
    fn library(&mut self, spec: &Interpreter, value: &Word, search: &[String], dirs: &[Dir]) {
        let perl = spec.names.contains(&"perl");
        let Some(text) = value.literal() else {
            if !perl {
                self.add_word(value, PathRole::Loaded, dirs);
            }
            return;
        };
        let file = match perl {
            // `-M-strict` (no), `-MSetup=a,b`, `-M'Setup qw(a)'`.
            true => {
                let name = text.trim_start_matches('-');
                let name = name.split(['=', ' ', '(']).next().unwrap_or_default();
                if name.is_empty()
                    || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                {
                    return;
                }
                format!("{}.pm", name.replace("::", "/"))
            }
            false if text.contains('/') || text.ends_with(".rb") => {
                self.add_word(value, PathRole::Loaded, dirs);
                return;
            }
            false => format!("{text}.rb"),
        };
        for folder in search {
            self.add_text(&format!("{folder}/{file}"), PathRole::Loaded, dirs);
        }
    }

    /// The options of the interpreter `spec` a variable holds (`RUBYOPT`, `PERL5OPT`; finding
    /// F97): its library options and `-I` folders, their values attached or in the next word.
    fn option_words(&mut self, spec: &Interpreter, words: &[Word], dirs: &[Dir]) {
        let search = self.library_folders(spec, words);
        let mut i = 0;
        while let Some(word) = words.get(i) {
            i += 1;
            let Some(text) = word.literal() else { continue };
            let found = (spec.module_dirs.iter().chain(library_flags(spec)))
                .find(|o| text.starts_with(**o));
            let Some(flag) = found else { continue };
            let value = match &text[flag.len()..] {
                "" => {
                    i += 1;
                    words.get(i - 1).cloned()
                }
                attached => Some(Word::lit(attached)),
            };
            let Some(value) = value else { continue };
            if library_flags(spec).contains(flag) {
                self.library(spec, &value, &search, dirs);
            } else {
                self.module_folder(None, &value, dirs);
            }
        }
    }

    /// A variable's value, which may name a file the program loads (`BASH_ENV=hooks/env.sh`,
    /// `NODE_OPTIONS="--require ./pre.js"`, `LD_PRELOAD=./x.so`): the words and the
    /// `:`-separated entries in it that look like files, as arguments.
    fn assigned_value(&mut self, name: &str, value: &Word, dirs: &[Dir], depth: u32) {
        if self.line_env.len() < MAX_LINE_ENV {
            self.line_env.push((name.to_owned(), value.clone()));
        }
        if name.starts_with("GIT_") {
            self.git_variable(name, value, dirs, depth);
        }
        // A command line git, ssh or rsync runs (F62's variables, set on the line itself:
        // `GIT_SSH_COMMAND='ssh -F deploy/cfg' git fetch`): read as the line's own (F68).
        if COMMAND_VARIABLES.contains(&name) {
            match value.literal() {
                Some(line) => self.shell(&line, depth + 1),
                None => self.note(format!("`{name}` set to a value that cannot be read")),
            }
        }
        // Split where the literal text has a blank or a `:`, keeping variables and
        // substitutions inside the piece they stand in (`./bin:$PATH` is `./bin` and `$PATH`,
        // not one path whose middle cannot be read, which would protect the folder `.`).
        let url = value.parts.iter().any(|p| matches!(p, Part::Lit(t) if t.contains("://")));
        let mut pieces: Vec<Word> = vec![Word { parts: Vec::new() }];
        for part in &value.parts {
            let Part::Lit(text) = part else {
                if let Some(w) = pieces.last_mut() {
                    w.parts.push(part.clone());
                }
                continue;
            };
            for (i, piece) in text.split(|c: char| c.is_whitespace() || c == ':').enumerate() {
                if i > 0 {
                    pieces.push(Word { parts: Vec::new() });
                }
                if let Some(w) = pieces.last_mut().filter(|_| !piece.is_empty()) {
                    w.parts.push(Part::Lit(piece.to_owned()));
                }
            }
        }
        pieces.retain(|w| !w.parts.is_empty());
        if !url && MODULE_PATH_VARIABLES.contains(&name) {
            for piece in &pieces {
                self.module_folder(search_language(name), piece, dirs);
            }
        }
        if !url {
            // What these variables name is code the program loads (pinned with the hook by
            // `hooks trust`); any other variable's file may be one the hook writes (a log).
            let role = if LOADER_VARIABLES.contains(&name) {
                PathRole::Loaded
            } else {
                PathRole::Argument
            };
            self.file_words(&pieces, role, dirs);
            // RUBYOPT's and PERL5OPT's words are ruby's and perl's own options (F97).
            let options_of = match name {
                "RUBYOPT" => interpreter("ruby"),
                "PERL5OPT" => interpreter("perl"),
                _ => None,
            };
            if let Some(spec) = options_of {
                // Split at blanks only: `-MT::S` is one module.
                let words: Vec<Word> = (value.literal().iter())
                    .flat_map(|t| t.split_whitespace().map(Word::lit).collect::<Vec<_>>())
                    .collect();
                self.option_words(spec, &words, dirs);
            }
            if name == "PATH" {
                let inherited = |w: &Word| matches!(&w.parts[..], [Part::Var(v)] if v == "PATH");
                for piece in pieces.into_iter().filter(|w| !inherited(w)) {
                    if self.search_path.len() < MAX_DIRS && !self.search_path.contains(&piece) {
                        self.search_path.push(piece);
                    }
                }
            }
        }
    }

    /// One entry of a module search path: protected whole when it is kept in a configuration
    /// folder (a component such as `.claude`, `.hooks`); the project's own code (`src`, `.`,
    /// the project folder's variable) is what the agent edits, and an inherited
    /// `$PYTHONPATH` names nothing.
    /// For a folder where `language`'s interpreter looks for the modules a script imports
    /// (a search path variable's, [`search_language`]), the folder is noted
    /// ([`CommandAnalysis::search_folders`]).
    fn module_folder(
        &mut self,
        language: Option<crate::imports::Language>,
        piece: &Word,
        dirs: &[Dir],
    ) {
        let v = self.value(piece);
        if v.tail.is_some() {
            return;
        }
        if let Some(language) = language {
            let folders = match &v.base {
                Some(base) => vec![NamedPath {
                    base: base.clone(),
                    path: under_base(&v.head),
                    role: PathRole::Modules,
                }],
                None => self.text_paths(&v.head, PathRole::Modules, dirs),
            };
            self.search_folders.extend(folders.into_iter().map(|f| (language, f)));
        }
        let in_dot_folder = Path::new(&v.head)
            .components()
            .any(|c| matches!(c, Component::Normal(n) if n.to_str().is_some_and(is_dot_folder)));
        if in_dot_folder {
            self.add_word(piece, PathRole::Modules, dirs);
        }
    }

    /// Arguments: the words that look like files (a `/`, or a script or configuration
    /// extension), and the values of `--option=value`.
    fn arguments(&mut self, words: &[Word], dirs: &[Dir]) {
        self.file_words(words, PathRole::Argument, dirs);
    }

    /// [`Walk::arguments`] with another role for what they name.
    fn file_words(&mut self, words: &[Word], role: PathRole, dirs: &[Dir]) {
        for word in words {
            match word.literal() {
                Some(text) => {
                    let value = match text.split_once('=') {
                        Some((opt, v)) if opt.starts_with('-') => v.to_owned(),
                        _ if text.starts_with('-') => continue,
                        _ => text,
                    };
                    if looks_like_file(&value) {
                        self.add_text(&value, role, dirs);
                    }
                }
                None => {
                    let v = self.value(word);
                    let named = v.base.is_some() || looks_like_file(&v.head);
                    let tail_named =
                        v.tail.as_deref().is_some_and(|t| t.contains('/') || looks_like_file(t));
                    if named || tail_named {
                        self.add_word(word, role, dirs);
                    }
                }
            }
        }
    }

    /// The options of `ssh` (`ssh` true), `scp` or `sftp`, whose letters taking a value are
    /// `values`, in `words` (what follows the program): `-F file` names the run's whole ssh
    /// configuration ([`CommandAnalysis::ssh_configs`], finding F67; `-F none` reads none),
    /// and an `-o` option is a line of configuration, whose `ProxyCommand`,
    /// `KnownHostsCommand` and `LocalCommand` are command lines ssh gives the shell (read as
    /// this line's own) and whose `PKCS11Provider` and `SecurityKeyProvider` are libraries it
    /// loads (checked with OpenSSH 9.2 here: `-o 'ProxyCommand=sh tools/p.sh'`,
    /// `-oProxyCommand=…` and `-o 'ProxyCommand sh …'` each ran the script from where ssh
    /// ran). And the programs their options name (finding F70; checked with OpenSSH 9.2
    /// here): the one scp and sftp run instead of ssh (`-S prog`), the local server scp runs
    /// instead of a remote one (`-D prog`) and the command line sftp runs for it (`-D 'prog
    /// -x'`), each a program of this line's; the PKCS#11 library ssh loads (`-I lib.so`).
    /// Options stand before the destination and, for ssh, again right after it (ssh reads
    /// its options again there); a value is the rest of its word or the next word; `--`
    /// ends them.
    fn ssh_options(&mut self, name: &str, values: &str, words: &[Word], dirs: &[Dir], depth: u32) {
        let ssh = name == "ssh";
        let operands_read = if ssh { 2 } else { 1 };
        let mut operands = 0;
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let text = word.literal();
            let letters = text.as_deref().and_then(|t| t.strip_prefix('-'));
            let Some(letters) = letters.filter(|l| !l.is_empty() && *l != "-") else {
                if text.as_deref() == Some("--") {
                    return;
                }
                operands += 1;
                if operands >= operands_read {
                    return;
                }
                continue;
            };
            let Some((letter, value)) = cluster_value(letters, values, &mut words) else {
                continue;
            };
            match (letter, value) {
                ('F', Some(value)) if value.literal().as_deref() != Some("none") => {
                    let before = self.paths.len();
                    self.add_word(&value, PathRole::Argument, dirs);
                    let named = self.named_since(before);
                    self.ssh_configs.extend(named);
                }
                ('o', Some(value)) => match value.literal() {
                    Some(line) => self.ssh_option_line(&line, dirs, depth),
                    None => self.note("an `ssh -o` option that cannot be read"),
                },
                // scp's and sftp's `-S`, scp's `-D`: a program.
                (letter, Some(program))
                    if (letter == 'S' && !ssh) || (letter, name) == ('D', "scp") =>
                {
                    self.program(std::slice::from_ref(&program), &mut dirs.to_vec(), depth);
                }
                ('D', Some(command)) if name == "sftp" => match command.literal() {
                    Some(line) => self.shell(&line, depth + 1),
                    None => self.note("an `sftp -D` command that cannot be read"),
                },
                ('I', Some(library)) if ssh => self.add_word(&library, PathRole::Loaded, dirs),
                _ => {}
            }
        }
    }

    /// git's options before its subcommand, in `words`: a `-c name=value` entry that has git
    /// run a command (`core.fsmonitor`, `core.sshCommand`, a `!` alias…, as in a
    /// configuration file: F60's keys) gives that command line, read as this line's own
    /// (finding F68; checked with git 2.47 here: `git -c core.fsmonitor=tools/m.sh status`,
    /// `-c 'core.sshCommand=sh tools/m.sh'` for an ssh remote and `-c alias.zz='!sh
    /// tools/m.sh' zz` ran the script, from the repository's top folder, the folder a
    /// project's hook runs in). And what the options have git read instead of the
    /// repository's own files (finding F69; each checked with git 2.47 here): the entries
    /// [`Walk::git_entry`] reads, given with `-c` or taken from a variable the line sets by
    /// `--config-env`; the repository `-C <folder>` moves git to (its `.git/config` and
    /// hooks, looked up from there as from where the line runs); the one `--git-dir` names;
    /// the folder of git's own programs `--exec-path=…` names.
    fn git_options(&mut self, words: &[Word], dirs: &[Dir], depth: u32) {
        // Where git looks for its repository: where the line runs, and each `-C` from there.
        let mut here: Vec<Dir> = dirs.to_vec();
        let mut moved = false;
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let Some(text) = word.literal() else { break };
            let (option, inline) = match text.split_once('=') {
                Some((option, value)) if option.starts_with("--") => (option, Some(value)),
                _ => (text.as_str(), None),
            };
            let mut value = || match inline {
                Some(v) => Some(Some(v.to_owned())),
                None => words.next().map(Word::literal),
            };
            match option {
                "-c" => match value() {
                    Some(Some(entry)) => {
                        if let Some((name, v)) = entry.split_once('=') {
                            self.git_entry(name, v, &here, depth);
                        }
                    }
                    Some(None) => self.note("a `git -c` entry that cannot be read"),
                    None => break,
                },
                "--config-env" => match value() {
                    Some(Some(entry)) => self.git_config_env(&entry, &here, depth),
                    Some(None) => self.note("a `git --config-env` entry that cannot be read"),
                    None => break,
                },
                "-C" => match words.next() {
                    Some(folder) => {
                        self.cd(std::slice::from_ref(folder), &mut here);
                        moved = true;
                    }
                    None => break,
                },
                "--git-dir" => match inline.map(Word::lit).or_else(|| words.next().cloned()) {
                    Some(folder) => self.git_dir(&folder, &here),
                    None => break,
                },
                "--exec-path" => {
                    if let Some(folder) = inline {
                        self.add_text(folder, PathRole::Modules, &here);
                    }
                }
                "--work-tree" | "--namespace" | "--super-prefix" | "--list-cmds"
                    if inline.is_none() =>
                {
                    words.next();
                }
                _ if text.starts_with('-') => {}
                _ => break,
            }
        }
        if moved {
            // git's start-up files ([`start_up_paths`]) where `-C` took it.
            for (place, path, role) in start_up_paths("git") {
                if place == StartUp::Here {
                    self.add_text(path, role, &here);
                }
            }
        }
    }

    /// One configuration entry git is given on the line (`git -c`, `--config-env`, the
    /// variables [`Walk::git_variable`] reads; finding F69): the command it has git run, read
    /// as the line's own (F68); the file an `include.path` or `includeIf.<condition>.path`
    /// names, absolute or from the home (git refuses a relative one there: "relative config
    /// includes must come from files"), read as git configuration; the folder
    /// `core.hooksPath` names, and the file `core.attributesFile` or `core.excludesFile`
    /// names (finding F126), from where the line runs (the repository's top folder for a
    /// project's hook) and, as git takes a relative one from the top folder of whatever
    /// repository it runs in, under any folder.
    fn git_entry(&mut self, name: &str, value: &str, dirs: &[Dir], depth: u32) {
        match crate::gitconfig::entry_effect(name, value) {
            Some(EntryEffect::Command(command)) => self.shell(&command, depth + 1),
            // From the home or absolute: git refuses a relative one here.
            Some(EntryEffect::Include(file)) if file.starts_with("~/") || file.starts_with('/') => {
                let parts = tilde_prefix(&file, false).unwrap_or_else(|| vec![Part::Lit(file)]);
                self.git_config_file(&Word { parts }, dirs);
            }
            Some(EntryEffect::Include(_)) => {}
            Some(EntryEffect::HooksPath(folder)) => {
                let folder = crate::gitconfig::hooks_folder_whole(Path::new(&folder));
                let before = self.paths.len();
                self.git_config_path(&folder, PathRole::Modules, dirs);
                let named = self.named_since(before);
                self.git_hooks_folders.extend(named);
            }
            // A file git reads attributes or ignore patterns from (finding F126).
            Some(EntryEffect::PatternFile(file)) => {
                self.git_config_path(Path::new(&file), PathRole::Loaded, dirs);
            }
            None => {}
        }
    }

    /// A path a git configuration entry of the line names (`core.hooksPath`'s folder,
    /// `core.attributesFile`'s file): from the home (`~/`), absolute, or from the repository's
    /// top folder, which is where the line runs for a project's hook and, as git takes a
    /// relative one from the top folder of whatever repository it runs in, any folder's.
    fn git_config_path(&mut self, path: &Path, role: PathRole, dirs: &[Dir]) {
        match path.strip_prefix("~") {
            Ok(rest) => self.paths.push(NamedPath {
                base: PathBase::Home,
                path: normalize_relative(rest),
                role,
            }),
            Err(_) => self.add_text(&path.to_string_lossy(), role, dirs),
        }
        if path.is_relative() && !path.starts_with("~") {
            self.paths.push(NamedPath {
                base: PathBase::Unknown,
                path: normalize_relative(path),
                role,
            });
        }
    }

    /// `git --config-env=<name>=<variable>`: the entry `<name>` with the value of
    /// `<variable>`, when the line sets it; when it does not, and the entry would have git run
    /// or read something, the analysis says it cannot tell what.
    fn git_config_env(&mut self, entry: &str, dirs: &[Dir], depth: u32) {
        let Some((name, variable)) = entry.rsplit_once('=') else { return };
        match self.line_variable(variable) {
            Some(Some(value)) => self.git_entry(name, &value, dirs, depth),
            Some(None) => self.note(format!("`{variable}` set to a value that cannot be read")),
            None => {
                if crate::gitconfig::entry_effect(name, "x").is_some() {
                    self.note(format!(
                        "`git --config-env` takes `{name}` from `{variable}`, which the line does not set"
                    ));
                }
            }
        }
    }

    /// A variable git reads, set on the line (finding F69; each checked with git 2.47 here):
    /// `GIT_CONFIG_GLOBAL` and `GIT_CONFIG_SYSTEM` name files read as configuration,
    /// `GIT_DIR` and `GIT_COMMON_DIR` the repository whose `config` and hooks git takes,
    /// `GIT_EXEC_PATH` the folder of git's own programs; `GIT_CONFIG_KEY_<n>` with
    /// `GIT_CONFIG_VALUE_<n>` and `GIT_CONFIG_PARAMETERS` give entries as `git -c` does
    /// ([`Walk::git_entry`]).
    fn git_variable(&mut self, name: &str, value: &Word, dirs: &[Dir], depth: u32) {
        match name {
            "GIT_CONFIG_GLOBAL" | "GIT_CONFIG_SYSTEM" => self.git_config_file(value, dirs),
            "GIT_DIR" | "GIT_COMMON_DIR" => self.git_dir(value, dirs),
            "GIT_EXEC_PATH" => self.add_word(value, PathRole::Modules, dirs),
            "GIT_CONFIG_PARAMETERS" => match value.literal() {
                Some(text) => {
                    for (name, value) in crate::gitconfig::git_config_parameters(&text) {
                        self.git_entry(&name, &value, dirs, depth);
                    }
                }
                None => self.note("`GIT_CONFIG_PARAMETERS` set to a value that cannot be read"),
            },
            _ => {
                let Some(n) = (name.strip_prefix("GIT_CONFIG_KEY_"))
                    .or_else(|| name.strip_prefix("GIT_CONFIG_VALUE_"))
                else {
                    return;
                };
                let key = self.line_variable(&format!("GIT_CONFIG_KEY_{n}"));
                let value = self.line_variable(&format!("GIT_CONFIG_VALUE_{n}"));
                match (key, value) {
                    (Some(Some(key)), Some(Some(value))) => {
                        self.git_entry(&key, &value, dirs, depth);
                    }
                    (Some(_), Some(_)) => {
                        self.note(format!("a `GIT_CONFIG_KEY_{n}` entry that cannot be read"));
                    }
                    // The other half is not set (yet).
                    _ => {}
                }
            }
        }
    }

    /// The value the line last set `name` to ([`Walk::line_env`]), a `~` that starts it kept
    /// as `~`: `Some(None)` when it cannot be read, `None` when the line does not set it.
    fn line_variable(&self, name: &str) -> Option<Option<String>> {
        let (_, word) = self.line_env.iter().rev().find(|(n, _)| n == name)?;
        let value = self.value(word);
        Some(match (value.base, value.tail) {
            (None, None) => Some(value.head),
            (Some(PathBase::Home), None) => Some(format!("~{}", value.head)),
            _ => None,
        })
    }

    /// A file git reads as configuration whatever its name ([`CommandAnalysis::git_configs`]).
    fn git_config_file(&mut self, word: &Word, dirs: &[Dir]) {
        let before = self.paths.len();
        self.add_word(word, PathRole::Argument, dirs);
        let named = self.named_since(before);
        self.git_configs.extend(named.into_iter().filter(|n| n.role == PathRole::Argument));
    }

    /// The repository folder `--git-dir` or `GIT_DIR` names: its `config`, read as git
    /// configuration, and its `hooks`, protected whole (F57).
    fn git_dir(&mut self, folder: &Word, dirs: &[Dir]) {
        let under = |rest: &str| {
            let mut word = folder.clone();
            word.parts.push(Part::Lit(format!("/{rest}")));
            word
        };
        self.git_config_file(&under("config"), dirs);
        self.add_word(&under("hooks"), PathRole::Modules, dirs);
    }

    /// concurrently's commands (finding F75; checked with concurrently 9 here): each argument
    /// that is no option is a command line it gives to a shell, and `--teardown`'s value one
    /// it runs after; `npm:NAME` (`yarn:`, `pnpm:`, `bun:`) is `npm run NAME` for each script
    /// `NAME` matches (its `*` across `:` too; an exclusion `(!x)` left out, to protect more),
    /// `deno:NAME` is `deno task NAME`. Each is read as a line of this line's own.
    fn concurrently(&mut self, words: &[Word], depth: u32) {
        const VALUES: &[&str] = &[
            "-n",
            "--names",
            "-c",
            "--prefix-colors",
            "-p",
            "--prefix",
            "-l",
            "--prefix-length",
            "-t",
            "--timestamp-format",
            "--name-separator",
            "-s",
            "--success",
            "--kill-signal",
            "--restart-tries",
            "--restart-after",
            "-m",
            "--max-processes",
            "--default-input-target",
            "--pad-prefix",
        ];
        let mut i = 0;
        while let Some(word) = words.get(i) {
            i += 1;
            let Some(text) = word.literal() else { continue };
            if text == "--teardown" {
                if let Some(command) = words.get(i).and_then(Word::literal) {
                    i += 1;
                    self.shell(&command, depth + 1);
                }
                continue;
            }
            if let Some(command) = text.strip_prefix("--teardown=") {
                self.shell(command, depth + 1);
                continue;
            }
            if VALUES.contains(&text.as_str()) {
                i += 1;
                continue;
            }
            if text.starts_with('-') {
                continue;
            }
            let shortcut = text.split_once(':').and_then(|(tool, name)| {
                let name = name.split("(!").next().unwrap_or(name).replace('*', "**");
                match tool {
                    "npm" | "yarn" | "pnpm" | "bun" => Some(format!("{tool} run '{name}'")),
                    "deno" => Some(format!("deno task '{name}'")),
                    _ => None,
                }
            });
            self.shell(&shortcut.unwrap_or(text), depth + 1);
        }
    }

    /// rsync's `-e`/`--rsh` command, which it runs to reach a remote host (`rsync -e 'ssh -F
    /// deploy/cfg' …`, `rsync -avze '…'`): read as this line's own (finding F68). rsync takes
    /// its options anywhere before `--`; in a cluster of short options, a letter that takes a
    /// value takes the rest of the word or the next word.
    fn rsync_options(&mut self, words: &[Word], depth: u32) {
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let Some(text) = word.literal() else { continue };
            let value = match text.as_str() {
                "--" => return,
                "--rsh" => words.next().map(Word::literal),
                _ => match text.strip_prefix("--rsh=") {
                    Some(v) => Some(Some(v.to_owned())),
                    None if text.starts_with("--") => continue,
                    None => {
                        let letters = text.strip_prefix('-').unwrap_or_default();
                        match cluster_value(letters, RSYNC_VALUE_LETTERS, &mut words) {
                            Some(('e', value)) => value.as_ref().map(Word::literal),
                            _ => continue,
                        }
                    }
                },
            };
            match value {
                Some(Some(line)) => self.shell(&line, depth + 1),
                Some(None) => self.note("an `rsync -e` command that cannot be read"),
                None => return,
            }
        }
    }

    /// One `ssh -o` option's line ([`Walk::ssh_options`]).
    fn ssh_option_line(&mut self, line: &str, dirs: &[Dir], depth: u32) {
        for run in crate::sshconfig::runs(line, None) {
            match run {
                crate::sshconfig::Runs::Command(command) => self.shell(&command, depth + 1),
                crate::sshconfig::Runs::Library(library) => match library.strip_prefix("~/") {
                    Some(rest) => self.under_home(&[rest], PathRole::Loaded),
                    None => self.add_text(&library, PathRole::Loaded, dirs),
                },
            }
        }
    }

    /// Adds a literal path.
    fn add_text(&mut self, text: &str, role: PathRole, dirs: &[Dir]) {
        let named = self.text_paths(text, role, dirs);
        self.paths.extend(named);
    }

    /// What [`Walk::add_text`] names for `text`.
    fn text_paths(&self, text: &str, role: PathRole, dirs: &[Dir]) -> Vec<NamedPath> {
        if text.is_empty() || text.starts_with("/dev/") || text.contains("://") {
            return Vec::new();
        }
        if text.starts_with('/') {
            return vec![NamedPath { base: PathBase::Root, path: PathBuf::from(text), role }];
        }
        (dirs.iter())
            .map(|d| NamedPath {
                base: d.base.clone(),
                path: normalize_relative(&d.path.join(text)),
                role,
            })
            .collect()
    }

    /// Adds the paths a word names: itself when it can be read, otherwise the folder before
    /// the unreadable part (as a tree) and the path after it (by name, under any folder).
    fn add_word(&mut self, word: &Word, role: PathRole, dirs: &[Dir]) {
        let v = self.value(word);
        match (&v.base, &v.tail) {
            (None, None) => self.add_text(&v.head, role, dirs),
            (Some(base), None) => {
                let rel = under_base(&v.head);
                if !rel.as_os_str().is_empty() {
                    self.paths.push(NamedPath { base: base.clone(), path: rel, role });
                } else if role == PathRole::Program {
                    self.note("the program is a variable's value");
                }
            }
            (base, Some(tail)) => {
                self.note("a path that cannot be read in full");
                if let Some((folder, _)) = v.head.rsplit_once('/')
                    && !folder.is_empty()
                {
                    match base {
                        Some(b) => self.paths.push(NamedPath {
                            base: b.clone(),
                            path: PathBuf::from(folder.trim_start_matches('/')),
                            role: PathRole::Tree,
                        }),
                        None => self.add_text(folder, PathRole::Tree, dirs),
                    }
                }
                if let Some((_, after)) = tail.split_once('/') {
                    let after = after.trim_start_matches('/');
                    if !after.is_empty() {
                        self.paths.push(NamedPath {
                            base: PathBase::Unknown,
                            path: PathBuf::from(after),
                            role,
                        });
                    }
                }
            }
        }
    }

    /// Reads a word's value: a leading variable or `~` becomes its base (a variable the line
    /// assigned is replaced by its value); any other non-literal part is unreadable.
    fn value(&self, word: &Word) -> Value {
        let mut base = None;
        let mut head = String::new();
        let mut tail: Option<String> = None;
        for (index, part) in word.parts.iter().enumerate() {
            let text = match tail.as_mut() {
                Some(t) => t,
                None => &mut head,
            };
            match part {
                Part::Lit(s) => text.push_str(s),
                Part::Tilde(user) if index == 0 => {
                    base = Some(if user.is_empty() { PathBase::Home } else { PathBase::Unknown });
                }
                Part::Var(name) if index == 0 => {
                    match self.assigned.iter().rev().find(|(n, _)| n == name) {
                        Some((_, v)) if v.tail.is_none() => {
                            base = v.base.clone();
                            head.push_str(&v.head);
                        }
                        Some(_) => tail = Some(String::new()),
                        None => {
                            base = Some(match name.as_str() {
                                "HOME" => PathBase::Home,
                                "PWD" => PathBase::RunDir,
                                _ => PathBase::Var(name.clone()),
                            });
                        }
                    }
                }
                Part::Var(_) | Part::Tilde(_) | Part::Opaque => tail = Some(String::new()),
            }
        }
        Value { base, head, tail }
    }
}

/// The text after a base (`~`, a variable) as the path under it: relative, as every path
/// with a base is (`~/x` is `x` under the home). An absolute one would be joined onto the
/// base's folder as itself, and name a file under `/` (finding F14).
fn under_base(head: &str) -> PathBuf {
    normalize_relative(Path::new(head.trim_start_matches('/')))
}

fn push_dir(dirs: &mut Vec<Dir>, d: Dir) {
    if dirs.len() < MAX_DIRS && !dirs.contains(&d) {
        dirs.push(d);
    }
}

/// `NAME=value` as a name and a value word. A `~` that starts the value is the shell's
/// tilde prefix, as in a word of its own (the shell expands it there in an assignment; a
/// quoted one is read the same way, which protects the home's file rather than a folder
/// named `~`).
fn assignment(word: &Word) -> Option<(String, Word)> {
    let Some(Part::Lit(first)) = word.parts.first() else { return None };
    let (name, value) = first.split_once('=')?;
    if name.is_empty()
        || !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    let mut parts = tilde_prefix(value, word.parts.len() > 1)
        .unwrap_or_else(|| vec![Part::Lit(value.to_owned())]);
    parts.extend(word.parts.iter().skip(1).cloned());
    if value.is_empty() && parts.len() > 1 {
        parts.remove(0);
    }
    Some((name.to_owned(), Word { parts }))
}

/// `~user/rest` (or `~`, `~/rest`, `~user`) as a tilde part and what follows it, when
/// `text` starts with a tilde prefix as the lexer reads one at a word's start
/// ([`crate::shell`]): a user name ended by `/`, `:` or the text's end (`more` says the
/// word goes on after `text` with another part).
fn tilde_prefix(text: &str, more: bool) -> Option<Vec<Part>> {
    let after = text.strip_prefix('~')?;
    let end = after.find(|c: char| !is_user_name_char(c)).unwrap_or(after.len());
    let (user, rest) = after.split_at(end);
    if !(rest.starts_with('/') || rest.starts_with(':') || (rest.is_empty() && !more)) {
        return None;
    }
    let mut parts = vec![Part::Tilde(user.to_owned())];
    if !rest.is_empty() {
        parts.push(Part::Lit(rest.to_owned()));
    }
    Some(parts)
}

/// The last component of a `/`-separated path's text (a program's name).
pub(crate) fn basename(text: &str) -> &str {
    text.rsplit('/').next().unwrap_or(text)
}

/// Extensions of scripts and of the configuration files hooks read.
const FILE_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "ksh", "py", "pyw", "js", "mjs", "cjs", "ts", "mts", "cts", "jsx",
    "tsx", "rb", "pl", "pm", "php", "lua", "ps1", "psm1", "r", "awk", "sed", "jq", "json", "jsonc",
    "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "rego", "cue", "txt", "exe",
    "bat", "cmd", "go", "rs",
];

/// Whether a target's name is a plain name (`gate`, `my-gate_2`): no path, no pattern.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `text`'s last component has a script or configuration extension.
fn has_file_extension(text: &str) -> bool {
    let name = basename(text);
    match name.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && !stem.ends_with('.')
                && FILE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext))
        }
        None => false,
    }
}

/// Whether an argument looks like a file: it has a `/` (and is not a URL or an option), or
/// a script or configuration extension.
fn looks_like_file(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with('-')
        && !text.contains("://")
        && (text.contains('/') || has_file_extension(text))
}

/// A program that runs the rest of its arguments as a command.
struct Wrapper {
    name: &'static str,
    /// Options followed by a value.
    value_options: &'static [&'static str],
    /// Options whose value is the directory the command runs in.
    dir_options: &'static [&'static str],
    /// Options whose value is a command line.
    command_options: &'static [&'static str],
    /// Operands before the command (`timeout DURATION`, `flock FILE`).
    operands: usize,
}

const fn w(name: &'static str, value_options: &'static [&'static str], operands: usize) -> Wrapper {
    Wrapper { name, value_options, dir_options: &[], command_options: &[], operands }
}

const WRAPPERS: &[Wrapper] = &[
    w("exec", &["-a"], 0),
    w("command", &[], 0),
    w("builtin", &[], 0),
    w("nohup", &[], 0),
    w("setsid", &[], 0),
    w("chronic", &[], 0),
    w("unbuffer", &[], 0),
    w("nice", &["-n", "--adjustment"], 0),
    w("ionice", &["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"], 0),
    w("stdbuf", &["-i", "-o", "-e", "--input", "--output", "--error"], 0),
    w("timeout", &["-s", "-k", "--signal", "--kill-after"], 1),
    w("gtimeout", &["-s", "-k", "--signal", "--kill-after"], 1),
    w("taskset", &[], 1),
    w("chrt", &[], 1),
    w("caffeinate", &["-t", "-w"], 0),
    w("doas", &["-u"], 0),
    w("flock", &["-w", "-E", "--timeout", "--conflict-exit-code"], 1),
    w(
        "xargs",
        &[
            "-a",
            "-d",
            "-E",
            "-e",
            "-I",
            "-L",
            "-l",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-lines",
            "--max-chars",
            "--replace",
        ],
        0,
    ),
    Wrapper {
        name: "env",
        value_options: &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
        dir_options: &["-C", "--chdir"],
        command_options: &["-S", "--split-string"],
        operands: 0,
    },
    Wrapper {
        name: "sudo",
        value_options: &[
            "-u",
            "-g",
            "-C",
            "-D",
            "-h",
            "-p",
            "-r",
            "-t",
            "-T",
            "-U",
            "--user",
            "--group",
            "--chdir",
            "--host",
            "--prompt",
            "--role",
            "--type",
            "--command-timeout",
            "--other-user",
            "--close-from",
        ],
        dir_options: &["-D", "--chdir"],
        command_options: &[],
        operands: 0,
    },
];

fn wrapper(name: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// A tool that runs a script or a program for a project.
struct Runner {
    name: &'static str,
    /// Subcommands after which the rest runs; empty when the rest runs directly (`npx`).
    subcommands: &'static [&'static str],
    value_options: &'static [&'static str],
    dir_options: &'static [&'static str],
    file_options: &'static [&'static str],
    /// Files the runner reads what it runs from (a `run` subcommand's scripts, lifecycle
    /// scripts, an environment it loads), in the folder it runs in.
    manifests: &'static [&'static str],
    /// The subcommand's first operand is the folder the manifests are read from
    /// (`direnv exec DIR command`).
    dir_operand: bool,
    /// Subcommands that run a program the manifest does not name (`npm exec`, `pnpm dlx`):
    /// the manifest is not named for them, so that `hooks trust` does not pin it.
    without_manifest: &'static [&'static str],
    /// Folders, in the folder it runs in, holding the environment it runs the rest in (a
    /// project's `.venv`): protected whole, since its interpreter runs what is there at
    /// every start (a `.pth` file in its `site-packages`; finding F47); a JavaScript
    /// runner's `node_modules` (`npx` and `npm run` run a tool from its `.bin/` first,
    /// finding F54).
    environments: &'static [&'static str],
    /// The same, under the home: Poetry's and Pipenv's virtual environments, and the caches
    /// runners run code from (finding F54: `npx` runs the copy of a tool in `~/.npm/_npx/`
    /// with no check of its content; `uvx` and `uv run --with` environments in
    /// `~/.cache/uv`, whose files are hard links of a project's `.venv`; `pipx run`'s,
    /// `bunx`'s, `pnpm dlx`'s, yarn's).
    home_environments: &'static [&'static str],
    /// Its own configuration files in the folder it runs in, read for every use (a project's
    /// `.npmrc`, whose `script-shell` or `node-options` decide what `npm run` and `npx` run;
    /// `.yarnrc.yml`'s `yarnPath`; uv's `.python-version`): loaded files (finding F49).
    configs: &'static [&'static str],
    /// The same, under the home (`~/.npmrc`, `~/.config/uv/uv.toml`): protected, not pinned.
    home_configs: &'static [&'static str],
    /// Its target without a file extension is a package's folder, compiled whole (`go run
    /// ./cmd/gate`): protected whole as the hook's script (finding F55).
    package_targets: bool,
    /// Options whose value names the program it builds and runs, with the files that
    /// program's code is in (`{}` stands for the value): `cargo run --bin gate` compiles
    /// `src/bin/gate.rs` or `src/bin/gate/main.rs` (finding F55).
    target_options: &'static [(&'static str, &'static [&'static str])],
    /// The program's code when no target option names one (`cargo run`: `src/main.rs`).
    default_targets: &'static [&'static str],
}

/// mise's configuration files in a folder: its tasks, tools (the versions its shims run,
/// finding F120) and the environment it sets.
pub(crate) const MISE_CONFIGS: &[&str] = &[
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".mise.local.toml",
    ".config/mise.toml",
    ".config/mise/config.toml",
    "mise/config.toml",
    ".mise/config.toml",
];

/// pnpm's cache (`pnpm dlx`'s tools) and store, under the home on Linux and macOS.
const PNPM_CACHES: &[&str] =
    &[".cache/pnpm", ".local/share/pnpm", "Library/Caches/pnpm", "Library/pnpm"];

const RUNNERS: &[Runner] = &[
    Runner {
        name: "uv",
        subcommands: &["run"],
        value_options: &[
            "--python",
            "-p",
            "--with",
            "--with-requirements",
            "--with-editable",
            "--project",
            "--directory",
            "--env-file",
            "--index",
            "--extra",
            "--group",
            "--package",
            "--default-index",
            "--index-url",
            "--extra-index-url",
            "-w",
        ],
        dir_options: &["--directory"],
        file_options: &["--env-file", "--with-requirements"],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".venv"],
        home_environments: &[".cache/uv"],
        configs: &["uv.toml", "pyproject.toml", ".python-version"],
        home_configs: &[".config/uv/uv.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "uvx",
        subcommands: &[],
        value_options: &["--from", "--with", "--python", "-p"],
        dir_options: &[],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[".cache/uv"],
        configs: &["uv.toml", ".python-version"],
        home_configs: &[".config/uv/uv.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pipx",
        subcommands: &["run"],
        value_options: &["--spec", "--python"],
        dir_options: &[],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[
            ".local/share/pipx",
            ".local/pipx",
            "Library/Application Support/pipx",
        ],
        configs: &[],
        home_configs: &[],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "npx",
        subcommands: &[],
        value_options: &["-p", "--package", "-c", "--call"],
        dir_options: &[],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &["node_modules"],
        home_environments: &[".npm/_npx"],
        configs: &[".npmrc"],
        home_configs: &[".npmrc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "bunx",
        subcommands: &[],
        value_options: &["-p", "--package"],
        dir_options: &[],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &["node_modules"],
        home_environments: &[".bun/install/cache"],
        configs: &["bunfig.toml"],
        home_configs: &[".bunfig.toml", ".config/.bunfig.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pnpx",
        subcommands: &[],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &["node_modules"],
        home_environments: PNPM_CACHES,
        configs: &[".npmrc", "pnpm-workspace.yaml"],
        home_configs: &[".npmrc", ".config/pnpm/rc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "npm",
        subcommands: &["exec", "x"],
        value_options: &["-p", "--package", "-c", "--call", "-w", "--workspace", "--prefix", "-C"],
        dir_options: &["--prefix", "-C"],
        file_options: &[],
        manifests: &["package.json"],
        dir_operand: false,
        without_manifest: &["exec", "x"],
        environments: &["node_modules"],
        home_environments: &[".npm/_npx"],
        configs: &[".npmrc"],
        home_configs: &[".npmrc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pnpm",
        subcommands: &["exec", "dlx"],
        value_options: &["-C", "--dir", "--filter", "-F"],
        dir_options: &["-C", "--dir"],
        file_options: &[],
        manifests: &["package.json"],
        dir_operand: false,
        without_manifest: &["exec", "dlx"],
        environments: &["node_modules"],
        home_environments: PNPM_CACHES,
        configs: &[".npmrc", "pnpm-workspace.yaml"],
        home_configs: &[".npmrc", ".config/pnpm/rc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "yarn",
        subcommands: &["exec", "dlx"],
        value_options: &["--cwd"],
        dir_options: &["--cwd"],
        file_options: &[],
        manifests: &["package.json"],
        dir_operand: false,
        without_manifest: &["exec", "dlx"],
        environments: &["node_modules", ".yarn", ".pnp.cjs", ".pnp.loader.mjs"],
        home_environments: &[".yarn/berry", ".cache/yarn", "Library/Caches/Yarn"],
        configs: &[".yarnrc.yml", ".yarnrc", ".npmrc"],
        home_configs: &[".yarnrc.yml", ".yarnrc", ".npmrc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "composer",
        subcommands: &["exec"],
        value_options: &["-d", "--working-dir"],
        dir_options: &["-d", "--working-dir"],
        file_options: &[],
        // `composer lint`, `composer run-script lint`: the `scripts` of `composer.json`.
        manifests: &["composer.json"],
        dir_operand: false,
        without_manifest: &["exec"],
        environments: &[],
        home_environments: &[],
        configs: &[],
        home_configs: &[],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "bundle",
        subcommands: &["exec"],
        value_options: &["--gemfile"],
        dir_options: &[],
        file_options: &["--gemfile"],
        // Ruby code `bundle exec` evaluates before the command runs.
        manifests: &["Gemfile", "gems.rb"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[],
        configs: &[".bundle/config"],
        home_configs: &[".bundle/config"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "poetry",
        subcommands: &["run"],
        value_options: &["-C", "--directory", "-P", "--project"],
        dir_options: &["-C", "--directory"],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".venv"],
        home_environments: &[".cache/pypoetry/virtualenvs", "Library/Caches/pypoetry/virtualenvs"],
        configs: &["poetry.toml", "pyproject.toml"],
        home_configs: &[
            ".config/pypoetry/config.toml",
            "Library/Application Support/pypoetry/config.toml",
        ],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pipenv",
        subcommands: &["run"],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        // `pipenv run lint` runs the `[scripts]` entry of the Pipfile.
        manifests: &["Pipfile"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".venv"],
        home_environments: &[".local/share/virtualenvs"],
        configs: &[".env"],
        home_configs: &[],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pdm",
        subcommands: &["run"],
        value_options: &["-p", "--project"],
        dir_options: &["-p", "--project"],
        file_options: &[],
        manifests: &["pyproject.toml"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".venv"],
        home_environments: &[],
        configs: &["pdm.toml", ".pdm-python"],
        home_configs: &[".config/pdm/config.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "hatch",
        subcommands: &["run"],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        // Its environments' scripts, by name (F99), in either file.
        manifests: &["pyproject.toml", "hatch.toml"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[".local/share/hatch/env", "Library/Application Support/hatch/env"],
        configs: &["hatch.toml"],
        home_configs: &[
            ".config/hatch/config.toml",
            "Library/Application Support/hatch/config.toml",
        ],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "rye",
        subcommands: &["run"],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        manifests: &["pyproject.toml"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".venv"],
        home_environments: &[],
        configs: &[".python-version"],
        home_configs: &[".rye/config.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "pixi",
        subcommands: &["run", "exec"],
        value_options: &["--manifest-path", "-e", "--environment"],
        dir_options: &[],
        file_options: &["--manifest-path"],
        manifests: &["pixi.toml", "pyproject.toml"],
        dir_operand: false,
        without_manifest: &[],
        environments: &[".pixi/envs"],
        home_environments: &[],
        configs: &["pixi.toml", "pyproject.toml", ".pixi/config.toml"],
        home_configs: &[".pixi/config.toml", ".config/pixi/config.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "conda",
        subcommands: &["run"],
        value_options: &["-n", "--name", "-p", "--prefix", "--cwd"],
        dir_options: &["--cwd"],
        file_options: &[],
        manifests: &[],
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[],
        configs: &[],
        home_configs: &[".condarc", ".conda/.condarc"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "mise",
        subcommands: &["exec", "x"],
        value_options: &["-C", "--cd"],
        dir_options: &["-C", "--cd"],
        file_options: &[],
        // Tasks (`mise run`), tools and the environment it sets, which may source scripts.
        manifests: MISE_CONFIGS,
        dir_operand: false,
        without_manifest: &[],
        environments: &[],
        home_environments: &[],
        configs: &[],
        home_configs: &[".config/mise/config.toml"],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "direnv",
        subcommands: &["exec"],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        // `direnv exec DIR command` loads DIR's `.envrc` (a shell script) and `.env`.
        manifests: &[".envrc", ".env"],
        dir_operand: true,
        without_manifest: &[],
        environments: &[],
        home_environments: &[],
        configs: &[],
        home_configs: &[],
        package_targets: false,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "go",
        subcommands: &["run"],
        value_options: &[
            "-C",
            "-tags",
            "-ldflags",
            "-gcflags",
            "-asmflags",
            "-mod",
            "-modfile",
            "-overlay",
            "-pgo",
            "-p",
            "-exec",
            "-toolexec",
            "-o",
        ],
        dir_options: &["-C"],
        file_options: &["-modfile", "-overlay", "-pgo", "-exec", "-toolexec"],
        // The module's requirements and `replace` lines decide what the package compiles with.
        manifests: &["go.mod", "go.sum", "go.work", "go.work.sum"],
        dir_operand: false,
        without_manifest: &[],
        // Vendored packages, and the module and build caches it compiles from and trusts.
        environments: &["vendor"],
        home_environments: &["go/pkg/mod", ".cache/go-build", "Library/Caches/go-build"],
        configs: &[],
        // `go env -w`'s file: its `GOFLAGS=-exec=…` or `-toolexec` run a program of its own.
        home_configs: &[".config/go/env", "Library/Application Support/go/env"],
        package_targets: true,
        target_options: &[],
        default_targets: &[],
    },
    Runner {
        name: "cargo",
        subcommands: &["run", "r"],
        value_options: &[
            "--bin",
            "--example",
            "-p",
            "--package",
            "--manifest-path",
            "--target",
            "--target-dir",
            "--features",
            "-F",
            "--profile",
            "-j",
            "--jobs",
            "--config",
            "-Z",
            "--color",
            "--lockfile-path",
        ],
        dir_options: &[],
        file_options: &["--manifest-path"],
        // Its build script runs at every build that finds it changed.
        manifests: &["Cargo.toml", "Cargo.lock", "build.rs"],
        dir_operand: false,
        without_manifest: &[],
        // The programs it built, run as they are while newer than their sources, and the
        // dependencies' sources it compiles.
        environments: &["target"],
        home_environments: &[".cargo/registry", ".cargo/git"],
        // `.cargo/config.toml`'s `runner` runs the built program through a program of its own;
        // `rust-toolchain.toml` picks the compiler.
        configs: &[".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"],
        home_configs: CARGO_CONFIGS,
        package_targets: false,
        target_options: &[
            ("--bin", &["src/bin/{}.rs", "src/bin/{}/main.rs"]),
            ("--example", &["examples/{}.rs", "examples/{}/main.rs"]),
        ],
        default_targets: &["src/main.rs"],
    },
];

/// Whether a normal path component (never `.` or `..`) names a configuration folder
/// (`.claude`, `.hooks`): what a hook keeps beside itself or imports from there is protected
/// whole.
fn is_dot_folder(name: &str) -> bool {
    name.starts_with('.') && name.len() > 1
}

/// An option word as its flag and the value written into it (`--prefix=web` is `--prefix`
/// and `web`); any other word is itself, with no value.
fn split_flag(text: &str) -> (String, Option<String>) {
    match text.split_once('=') {
        Some((f, v)) if f.starts_with('-') => (f.to_owned(), Some(v.to_owned())),
        _ => (text.to_owned(), None),
    }
}

fn runner(name: &str) -> Option<&'static Runner> {
    RUNNERS.iter().find(|r| r.name == name)
}

/// Variables whose value names code a program loads when it starts: the shell's start-up
/// file (`BASH_ENV`, `ENV`), Node's options (`--require`, `--import`), the dynamic linker's
/// preloads, Python's start-up file.
const LOADER_VARIABLES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "NODE_OPTIONS",
    "LD_PRELOAD",
    "LD_AUDIT",
    "PYTHONSTARTUP",
    "RUBYOPT",
    "PERL5OPT",
];

/// Variables whose value is a command line (or a program) git, ssh or rsync runs: read as the
/// line's own where the line sets them ([`Walk::assigned_value`], finding F68; the engine
/// reads the inherited ones, F62).
const COMMAND_VARIABLES: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "RSYNC_RSH",
    // The command rsync runs for a daemon connection (`rsync://`; finding F70).
    "RSYNC_CONNECT_PROG",
];

/// At most this many of a line's assignments are kept for git's paired variables
/// ([`Walk::line_env`]).
const MAX_LINE_ENV: usize = 64;

/// Variables whose value lists folders a program imports modules or loads libraries from
/// (`PYTHONUSERBASE`: the folder whose `lib/` holds Python's user site).
const MODULE_PATH_VARIABLES: &[&str] = &[
    "PYTHONPATH",
    "PYTHONUSERBASE",
    "NODE_PATH",
    "RUBYLIB",
    "PERL5LIB",
    "PERLLIB",
    "LD_LIBRARY_PATH",
];

/// The language whose imports the search path variable `name` has its interpreter look for
/// in its folders (F144).
fn search_language(name: &str) -> Option<crate::imports::Language> {
    match name {
        "PYTHONPATH" => Some(crate::imports::Language::Python),
        "NODE_PATH" => Some(crate::imports::Language::JavaScript),
        "RUBYLIB" => Some(crate::imports::Language::Ruby),
        "PERL5LIB" | "PERLLIB" => Some(crate::imports::Language::Perl),
        _ => None,
    }
}

/// The folders under the user's home that hold Python's user site of every version
/// (`~/.local/lib/python3.X/site-packages`; macOS's `~/Library/Python/3.X/lib/python/
/// site-packages`), which every Python interpreter the user runs loads at start unless told
/// not to: its `.pth` files' `import` lines and its `usercustomize.py` run before any script
/// (a `.pth` with `import os; os._exit(0)` ends every Python hook with the exit code of an
/// allow), and its modules come before the system's. The folder version is not known without
/// running the interpreter, so the folder above every version's is named.
const PYTHON_USER_SITE: [&str; 2] = [".local/lib", "Library/Python"];

/// Whether Python's options before what it runs turn the user's site off: `-s`, `-I`
/// (isolated) or `-S` (no `site` at all), alone or in a cluster of short options (`-Es`); a
/// `-W` or `-X` takes the rest of its word or the next word as its value, and `-c`, `-m`, a
/// long option's or the script's word end the options. What cannot be read turns nothing off.
pub(crate) fn python_skips_user_site(args: &[Word]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(text) = word.literal() else { return false };
        let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty() && !c.starts_with('-'))
        else {
            return false;
        };
        for (i, c) in cluster.char_indices() {
            match c {
                's' | 'I' | 'S' => return true,
                'c' | 'm' => return false,
                'W' | 'X' => {
                    if i + 1 == cluster.len() {
                        words.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    false
}

/// What decides what a Python interpreter named by its path in a `bin/` folder runs besides
/// its script (`.venv/bin/python3`, `~/.venvs/hooks/bin/python`, `~/.pyenv/versions/3.12.1/
/// bin/python3`): its environment's `lib/` (the `site-packages` whose `.pth` files run at
/// every start, and for an installation its standard library), protected whole, and
/// `pyvenv.cfg` (which names the installation a virtual environment takes its standard
/// library from). Nothing for another program or another folder.
fn python_environment(program: &Path) -> Vec<(PathBuf, PathRole)> {
    let is_python = program.file_name().and_then(|n| n.to_str()).is_some_and(is_python);
    let prefix = program.parent().filter(|b| b.file_name().is_some_and(|n| n == "bin"));
    match prefix.and_then(Path::parent) {
        Some(prefix) if is_python => vec![
            (normalize_relative(&prefix.join("lib")), PathRole::Modules),
            (normalize_relative(&prefix.join("pyvenv.cfg")), PathRole::Loaded),
        ],
        _ => Vec::new(),
    }
}

/// Programs hooks commonly run whose start-up files change what they answer (finding F50):
/// each name, the files it reads in the folder it runs in, and those under the home. A
/// `~/.jq` file's definitions come before every jq program's, so `def test($re): false;`
/// there turns a gate's `jq -e '.tool_input.command | test("rm -rf")'` into an allow; git
/// reads the repository's configuration and the user's at every command (`core.fsmonitor`
/// runs a program during `git status`), and their attributes (`.git/info/attributes`,
/// `~/.config/git/attributes`: `* -diff` hides every change's text from `git diff`, finding
/// F121), and the hooks it runs in a husky project source the
/// user's `~/.config/husky/init.sh` first (finding F57; under `$XDG_CONFIG_HOME` when it is
/// set, which the engine knows); curl and wget read their user's options (`~/.curlrc`'s
/// `url`, `output`, `proxy`). ssh's configuration, which git reads too, is named for
/// [`SSH_PROGRAMS`].
const PROGRAM_CONFIGS: &[(&str, &[&str], &[&str])] = &[
    ("jq", &[], &[".jq"]),
    ("gojq", &[], &[".jq", ".gojq"]),
    (
        "git",
        &[".git/config", ".git/info/attributes"],
        &[".gitconfig", ".config/git/config", ".config/git/attributes", ".config/husky/init.sh"],
    ),
    ("curl", &[], &[".curlrc", ".config/.curlrc"]),
    ("wget", &[], &[".wgetrc"]),
];

/// JavaScript formatters and linters hooks commonly run (a format-on-edit `npx prettier
/// --write "$file"`, an `eslint` or `stylelint` gate) and the configuration files they read:
/// JavaScript they run when they load it (`prettier.config.js`, `eslint.config.mjs`), files
/// that name plugins they load (`.prettierrc.json`'s `plugins: ["./tools/p.js"]`) or what they
/// check and ignore (finding F71; checked with prettier 3 and eslint 9 here: each ran a
/// configuration file's code, prettier's found from the formatted file's folder upward,
/// from a subfolder too, and a plugin a `.prettierrc.json` named). Looked up from each
/// checked file's folder or from where the program runs, upward, so every folder's copy
/// counts: protected by name under any folder; and the `package.json` where it runs, whose
/// `prettier` and `eslintConfig` keys are configuration too.
///
/// Python's linters, type checkers and formatters likewise (finding F79; checked with pylint
/// 4.1, mypy 2.4, flake8 7.5, ruff 0.17, black 26 and isort 9 here): pylint runs the
/// `init-hook` of its configuration (`.pylintrc`, `pylintrc.toml`, a `[tool.pylint.main]` of
/// `pyproject.toml`, a `[pylint.main]` of `setup.cfg` or `tox.ini`, the home's `.pylintrc`
/// and `.config/pylintrc`, `/etc/pylintrc`), mypy imports the `plugins` its configuration
/// names (`mypy.ini`, `.mypy.ini`, `pyproject.toml`, `setup.cfg`, from where it runs up to the
/// repository's root; the home's `.config/mypy/config` and `.mypy.ini`), flake8 the
/// `[flake8:local-plugins]` of `.flake8`, `setup.cfg` or `tox.ini`; and a configuration of
/// ruff's (from each checked file's folder upward; the user's `.config/ruff/`), black's or
/// isort's that excludes every file turns their gate into an exit 0. The other linters and
/// formatters gates are commonly made of alike (finding F80; checked with biome 2.6,
/// TypeScript 7.0, markdownlint-cli2, shellcheck, yamllint, clang-format, clang-tidy 14 and
/// rubocop 1.39 here): each passed a file it had refused once a configuration turned its rules
/// off, and markdownlint-cli2's `.cjs` configuration and rubocop's `require:` ran code. Then
/// pyright, ty, cspell and commitlint (finding F84; pyright 1.1 and ty from their packages:
/// a `pyrightconfig.json`, `pyproject.toml`'s `[tool.pyright]`, a `ty.toml` or the user's
/// `~/.config/ty/ty.toml` turned the check off; cspell and commitlint ran their JavaScript
/// configurations), and golangci-lint's and gitleaks' files by their documentation. An
/// `.editorconfig` decides prettier's and shfmt's indentation (finding F89; checked with
/// prettier 3.10 and shfmt 3.6 here: a `--check` and a `-d` that refused a file passed once
/// an `.editorconfig` where it lay or above matched its indentation).
const CODE_CONFIGS: &[CodeConfig] = &[
    CodeConfig {
        names: &["prettier", "prettierd"],
        anywhere: &[
            ".prettierrc",
            ".prettierrc.json",
            ".prettierrc.json5",
            ".prettierrc.yaml",
            ".prettierrc.yml",
            ".prettierrc.toml",
            ".prettierrc.js",
            ".prettierrc.cjs",
            ".prettierrc.mjs",
            ".prettierrc.ts",
            ".prettierrc.cts",
            ".prettierrc.mts",
            "prettier.config.js",
            "prettier.config.cjs",
            "prettier.config.mjs",
            "prettier.config.ts",
            "prettier.config.cts",
            "prettier.config.mts",
            ".prettierignore",
            // Its indentation and line settings, from each formatted file's folder upward
            // (finding F89).
            ".editorconfig",
        ],
        here: JS_HERE,
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["eslint", "eslint_d"],
        anywhere: &[
            "eslint.config.js",
            "eslint.config.cjs",
            "eslint.config.mjs",
            "eslint.config.ts",
            "eslint.config.cts",
            "eslint.config.mts",
            ".eslintrc",
            ".eslintrc.js",
            ".eslintrc.cjs",
            ".eslintrc.json",
            ".eslintrc.yaml",
            ".eslintrc.yml",
            ".eslintignore",
        ],
        here: JS_HERE,
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["stylelint"],
        anywhere: &[
            "stylelint.config.js",
            "stylelint.config.cjs",
            "stylelint.config.mjs",
            "stylelint.config.ts",
            ".stylelintrc",
            ".stylelintrc.js",
            ".stylelintrc.cjs",
            ".stylelintrc.mjs",
            ".stylelintrc.json",
            ".stylelintrc.yaml",
            ".stylelintrc.yml",
            ".stylelintignore",
        ],
        here: JS_HERE,
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["pylint", "pylint-config"],
        // Also found in the parent folders of a package (those with `__init__.py`).
        anywhere: &["pylintrc", "pylintrc.toml", ".pylintrc", ".pylintrc.toml"],
        here: &[
            "pyproject.toml",
            "setup.cfg",
            "tox.ini",
            "pylintrc",
            "pylintrc.toml",
            ".pylintrc",
            ".pylintrc.toml",
        ],
        home: &[".pylintrc", ".config/pylintrc"],
        system: &["/etc/pylintrc"],
    },
    CodeConfig {
        names: &["mypy", "dmypy"],
        anywhere: &["mypy.ini", ".mypy.ini"],
        // Where it runs, the files that name the plugins it loads are read for them.
        here: &["pyproject.toml", "setup.cfg", "mypy.ini", ".mypy.ini"],
        home: &[".config/mypy/config", ".mypy.ini"],
        system: &[],
    },
    CodeConfig {
        names: &["flake8"],
        anywhere: &[".flake8"],
        here: &["setup.cfg", "tox.ini", ".flake8"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["ruff"],
        anywhere: &["ruff.toml", ".ruff.toml"],
        here: &["pyproject.toml", "ruff.toml", ".ruff.toml"],
        home: &[
            ".config/ruff/ruff.toml",
            ".config/ruff/.ruff.toml",
            ".config/ruff/pyproject.toml",
            "Library/Application Support/ruff/ruff.toml",
            "Library/Application Support/ruff/.ruff.toml",
            "Library/Application Support/ruff/pyproject.toml",
        ],
        system: &[],
    },
    CodeConfig {
        names: &["black", "blackd"],
        anywhere: &[],
        here: &["pyproject.toml"],
        home: &[".config/black"],
        system: &[],
    },
    CodeConfig {
        names: &["isort"],
        anywhere: &[".isort.cfg"],
        here: &["pyproject.toml", "setup.cfg", "tox.ini", ".editorconfig"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["biome"],
        // Nested ones (`"root": false`) apply to their folders.
        anywhere: &["biome.json", "biome.jsonc", ".biome.json", ".biome.jsonc"],
        // Where it runs, read for the files their `extends` names.
        here: &["biome.json", "biome.jsonc", ".biome.json", ".biome.jsonc"],
        home: &[
            ".config/biome/biome.json",
            ".config/biome/biome.jsonc",
            "Library/Application Support/biome/biome.json",
            "Library/Application Support/biome/biome.jsonc",
        ],
        system: &[],
    },
    CodeConfig {
        names: &["tsc", "vue-tsc", "tsgo"],
        anywhere: &[],
        // From where it runs upward; read for the files their `extends` names.
        here: &["tsconfig.json", "jsconfig.json"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["markdownlint-cli2", "markdownlint"],
        // markdownlint-cli2 reads each linted file's folder's; the `.cjs` and `.mjs` ones are
        // JavaScript it runs.
        anywhere: &[
            ".markdownlint-cli2.jsonc",
            ".markdownlint-cli2.yaml",
            ".markdownlint-cli2.cjs",
            ".markdownlint-cli2.mjs",
            ".markdownlint.jsonc",
            ".markdownlint.json",
            ".markdownlint.yaml",
            ".markdownlint.yml",
            ".markdownlint.cjs",
            ".markdownlint.mjs",
            ".markdownlintrc",
            ".markdownlintignore",
        ],
        here: &["package.json"],
        // markdownlint-cli's `rc` files.
        home: &[
            ".markdownlintrc",
            ".markdownlint/config",
            ".config/markdownlint",
            ".config/markdownlint/config",
        ],
        system: &["/etc/markdownlintrc"],
    },
    // shfmt takes its indentation from `.editorconfig`, from each file's folder upward, unless
    // its line gives formatting options (finding F89).
    CodeConfig {
        names: &["shfmt"],
        anywhere: &[".editorconfig"],
        here: &[],
        home: &[],
        system: &[],
    },
    // hadolint reads `.hadolint.yaml` where it runs and the user's, whose `ignored` list
    // turns a Dockerfile gate's rules off (finding F94).
    CodeConfig {
        names: &["hadolint"],
        anywhere: &[".hadolint.yaml", ".hadolint.yml"],
        here: &[],
        home: &[".config/hadolint.yaml", ".config/hadolint.yml", ".hadolint.yaml", ".hadolint.yml"],
        system: &[],
    },
    // invoke reads the user's and the system's configuration at every run (`~/.invoke.py` is
    // Python it runs; `run.shell` the program it runs each line with; finding F95). Its
    // project's, beside its tasks, is read with them (`crate::recipes`).
    CodeConfig {
        names: &["invoke", "inv"],
        anywhere: &[],
        here: &[],
        home: &[".invoke.yaml", ".invoke.yml", ".invoke.json", ".invoke.py"],
        system: &["/etc/invoke.yaml", "/etc/invoke.yml", "/etc/invoke.json", "/etc/invoke.py"],
    },
    // Fabric's, under its own prefix, and the ssh configurations its connections read
    // (finding F101).
    CodeConfig {
        names: &["fab", "fabric"],
        anywhere: &[],
        here: &[],
        home: &[".fabric.yaml", ".fabric.yml", ".fabric.json", ".fabric.py", ".ssh/config"],
        system: &[
            "/etc/fabric.yaml",
            "/etc/fabric.yml",
            "/etc/fabric.json",
            "/etc/fabric.py",
            "/etc/ssh/ssh_config",
        ],
    },
    CodeConfig {
        names: &["shellcheck"],
        anywhere: &[".shellcheckrc", "shellcheckrc"],
        here: &[],
        home: &[".shellcheckrc", ".config/shellcheckrc"],
        system: &[],
    },
    CodeConfig {
        names: &["yamllint"],
        anywhere: &[".yamllint", ".yamllint.yaml", ".yamllint.yml"],
        here: &[],
        home: &[".config/yamllint/config"],
        system: &[],
    },
    CodeConfig {
        names: &["clang-format", "git-clang-format", "clang-format-diff"],
        anywhere: &[".clang-format", "_clang-format", ".clang-format-ignore"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["clang-tidy", "run-clang-tidy"],
        anywhere: &[".clang-tidy"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["pyright", "basedpyright"],
        anywhere: &[],
        // From where it runs upward; read for the file its `extends` names (finding F84).
        here: &["pyrightconfig.json", "pyproject.toml"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["ty"],
        anywhere: &[],
        here: &["ty.toml", "pyproject.toml"],
        home: &[".config/ty/ty.toml"],
        system: &[],
    },
    CodeConfig {
        names: &["cspell"],
        // Its JavaScript configurations are code it runs.
        anywhere: &[
            "cspell.json",
            ".cspell.json",
            "cspell.yaml",
            "cspell.yml",
            "cspell.config.js",
            "cspell.config.cjs",
            "cspell.config.mjs",
            "cspell.config.json",
            "cspell.config.yaml",
            "cspell.config.yml",
            ".cspell.config.js",
            ".cspell.config.cjs",
            ".cspell.config.mjs",
            ".cspell.config.json",
            ".cspell.config.yaml",
            ".cspell.config.yml",
        ],
        here: &["package.json"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["commitlint"],
        anywhere: &[
            ".commitlintrc",
            ".commitlintrc.json",
            ".commitlintrc.yaml",
            ".commitlintrc.yml",
            ".commitlintrc.js",
            ".commitlintrc.cjs",
            ".commitlintrc.mjs",
            ".commitlintrc.ts",
            ".commitlintrc.cts",
            "commitlint.config.js",
            "commitlint.config.cjs",
            "commitlint.config.mjs",
            "commitlint.config.ts",
            "commitlint.config.cts",
        ],
        here: &["package.json"],
        home: &[],
        system: &[],
    },
    // From their documentation, not checked here (no package of theirs is reachable).
    CodeConfig {
        names: &["golangci-lint"],
        anywhere: &[".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["gitleaks"],
        anywhere: &[".gitleaks.toml", ".gitleaksignore"],
        here: &[],
        home: &[],
        system: &[],
    },
    // The searches gates grep with skip what their ignore files say, in every folder they
    // walk, and git's excludes (finding F122: `*` in a `.rgignore` had `rg -q AKIA .` find
    // nothing, as `*.py` in `~/.config/git/ignore` did), and the file an `excludesfile` line
    // of the user's git configuration names instead, whatever its section (finding F126:
    // ripgrep 15 read it from `~/.gitconfig` and `~/.config/git/config`, not from the
    // repository's; the registry reads those configurations and protects what they name).
    CodeConfig {
        names: &["rg", "ripgrep"],
        anywhere: &[".rgignore", ".ignore"],
        here: &[".git/info/exclude"],
        home: &[".config/git/ignore", ".gitconfig", ".config/git/config"],
        system: &[],
    },
    CodeConfig {
        names: &["fd", "fdfind"],
        anywhere: &[".fdignore", ".ignore"],
        here: &[".git/info/exclude"],
        home: &[".config/fd/ignore", ".config/git/ignore", ".gitconfig", ".config/git/config"],
        system: &[],
    },
    CodeConfig {
        names: &["ag"],
        anywhere: &[".agignore", ".ignore"],
        here: &[".git/info/exclude"],
        home: &[".agignore", ".config/git/ignore"],
        system: &[],
    },
    // Spell checkers that pass once their configuration skips every file or allows the word
    // (finding F123: codespell's `.codespellrc`, `setup.cfg` and `pyproject.toml` where it
    // runs, typos' files in any folder it checks).
    CodeConfig {
        names: &["codespell"],
        anywhere: &[".codespellrc"],
        here: &["setup.cfg", "pyproject.toml"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["typos"],
        anywhere: &["typos.toml", "_typos.toml", ".typos.toml"],
        here: &["pyproject.toml", "Cargo.toml"],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["lint-staged"],
        anywhere: LINT_STAGED_CONFIGS,
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["rustfmt"],
        anywhere: &["rustfmt.toml", ".rustfmt.toml"],
        here: &[],
        home: &[
            ".config/rustfmt/rustfmt.toml",
            ".config/rustfmt/.rustfmt.toml",
            "Library/Application Support/rustfmt/rustfmt.toml",
            "Library/Application Support/rustfmt/.rustfmt.toml",
        ],
        system: &[],
    },
    CodeConfig {
        names: &["cargo-clippy", "clippy-driver"],
        // From the manifest's folder upward.
        anywhere: &["clippy.toml", ".clippy.toml"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["rubocop"],
        // `require:` and `plugins:` load Ruby; `inherit_from:` reads other files.
        anywhere: &[".rubocop.yml", ".rubocop_todo.yml"],
        here: &[".rubocop.yml"],
        home: &[".rubocop.yml", ".config/rubocop/config.yml"],
        system: &[],
    },
    // JavaScript bundlers and frameworks' build commands run their configuration, which is
    // code, at every build, and the configurations of the tools they load with it: PostCSS's,
    // Babel's, Tailwind's (`LOADED_WITH`; finding F104).
    CodeConfig {
        names: &["vite"],
        anywhere: &[
            "vite.config.js",
            "vite.config.mjs",
            "vite.config.cjs",
            "vite.config.ts",
            "vite.config.mts",
            "vite.config.cts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["webpack", "webpack-cli"],
        anywhere: &[
            "webpack.config.js",
            "webpack.config.cjs",
            "webpack.config.mjs",
            "webpack.config.ts",
            "webpack.config.cts",
            "webpack.config.mts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["rollup"],
        anywhere: &[
            "rollup.config.js",
            "rollup.config.cjs",
            "rollup.config.mjs",
            "rollup.config.ts",
            "rollup.config.cts",
            "rollup.config.mts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["next"],
        anywhere: &[
            "next.config.js",
            "next.config.mjs",
            "next.config.cjs",
            "next.config.ts",
            "next.config.mts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["tsup"],
        anywhere: &[
            "tsup.config.ts",
            "tsup.config.cts",
            "tsup.config.mts",
            "tsup.config.js",
            "tsup.config.cjs",
            "tsup.config.mjs",
            "tsup.config.json",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["astro"],
        anywhere: &[
            "astro.config.mjs",
            "astro.config.js",
            "astro.config.ts",
            "astro.config.mts",
            "astro.config.cjs",
            "astro.config.cts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["nuxt", "nuxi"],
        anywhere: &["nuxt.config.ts", "nuxt.config.js", "nuxt.config.mjs"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["svelte-kit"],
        anywhere: &["svelte.config.js", "svelte.config.mjs", "svelte.config.ts"],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["postcss", "postcss-cli"],
        anywhere: &[
            "postcss.config.js",
            "postcss.config.cjs",
            "postcss.config.mjs",
            "postcss.config.ts",
            "postcss.config.cts",
            "postcss.config.mts",
            ".postcssrc",
            ".postcssrc.json",
            ".postcssrc.yaml",
            ".postcssrc.yml",
            ".postcssrc.js",
            ".postcssrc.cjs",
            ".postcssrc.mjs",
            ".postcssrc.ts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["babel"],
        anywhere: &[
            "babel.config.js",
            "babel.config.cjs",
            "babel.config.mjs",
            "babel.config.json",
            "babel.config.ts",
            "babel.config.cts",
            ".babelrc",
            ".babelrc.js",
            ".babelrc.cjs",
            ".babelrc.mjs",
            ".babelrc.json",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    CodeConfig {
        names: &["tailwindcss"],
        anywhere: &[
            "tailwind.config.js",
            "tailwind.config.cjs",
            "tailwind.config.mjs",
            "tailwind.config.ts",
        ],
        here: &[],
        home: &[],
        system: &[],
    },
    // pnpm loads its `.pnpmfile.cjs` (or `.mjs`) at every command, `pnpm lint` and `pnpm
    // exec` too, from the workspace's root when it runs in a member (finding F106, checked
    // with pnpm 12); the one `pnpm-workspace.yaml`'s `pnpmfile` names is read with that file
    // (`crate::toolconfig`).
    CodeConfig {
        names: &["pnpm", "pnpx"],
        anywhere: &[".pnpmfile.cjs", ".pnpmfile.mjs"],
        here: &[],
        home: &[],
        system: &[],
    },
];

/// The tools whose configuration a JavaScript bundler or framework loads besides its own
/// (finding F104): Vite, Next.js, webpack (through its loaders), Astro and Nuxt run PostCSS
/// with the project's configuration, which loads Tailwind's; Next.js and webpack's loader run
/// Babel with the project's; Vite's Svelte plugin loads `svelte.config.js`.
const LOADED_WITH: &[(&str, &[&str])] = &[
    ("vite", &["postcss", "svelte-kit"]),
    ("next", &["postcss", "babel"]),
    ("webpack", &["postcss", "babel"]),
    ("astro", &["postcss"]),
    ("nuxt", &["postcss"]),
    ("postcss", &["tailwindcss"]),
];

/// lint-staged's configuration files (finding F83), the first one found in a folder: its
/// JavaScript ones are code it runs, the others name the commands it runs.
const LINT_STAGED_CONFIGS: &[&str] = &[
    "package.json",
    ".lintstagedrc",
    ".lintstagedrc.json",
    ".lintstagedrc.yaml",
    ".lintstagedrc.yml",
    ".lintstagedrc.mjs",
    ".lintstagedrc.js",
    ".lintstagedrc.cjs",
    "lint-staged.config.mjs",
    "lint-staged.config.js",
    "lint-staged.config.cjs",
    "lint-staged.config.ts",
    "lint-staged.config.mts",
    "lint-staged.config.cts",
];

/// A formatter's, linter's or type checker's configuration files ([`CODE_CONFIGS`]): by name
/// in any folder (looked up from each checked file's folder or from where it runs, upward),
/// where it runs (files it shares with other tools, such as the project's manifest), under
/// the home and in the system.
struct CodeConfig {
    names: &'static [&'static str],
    anywhere: &'static [&'static str],
    here: &'static [&'static str],
    home: &'static [&'static str],
    system: &'static [&'static str],
}

/// What the JavaScript tools of [`CODE_CONFIGS`] read where they run: the manifest and the
/// files that may name the plugins they load, read for them (`crate::toolconfig`).
const JS_HERE: &[&str] =
    &["package.json", ".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml"];

/// The tool of [`CODE_CONFIGS`] a pre-commit hook of another repository runs, by the hook's
/// `id` (finding F81): a tool's own name (`ruff`, `mypy`, `prettier`, `shellcheck`), or the
/// ids the tools' own hook repositories give their hooks (`ruff-format`, `black-jupyter`,
/// `biome-check`, `markdownlint-fix`, pre-commit-rust's `fmt` and `clippy`).
pub(crate) fn remote_hook_tool(id: &str) -> Option<&'static str> {
    let tool = match id {
        "ruff-check" | "ruff-format" => "ruff",
        "black-jupyter" => "black",
        "biome-check" | "biome-format" | "biome-lint" | "biome-ci" => "biome",
        "markdownlint-fix" | "markdownlint-docker" => "markdownlint",
        "fmt" | "cargo-fmt" => "rustfmt",
        "clippy" | "cargo-clippy" => "cargo-clippy",
        id => return code_config_named(id).and_then(|c| c.names.first().copied()),
    };
    Some(tool)
}

/// The tool of [`CODE_CONFIGS`] the cargo subcommand of `args` runs: `cargo fmt` rustfmt,
/// `cargo clippy` clippy (finding F80). The subcommand is the first word that is no option
/// (`+nightly`, `-q`) nor the value of one of cargo's global options that take one.
fn cargo_tool(args: &[Word]) -> Option<&'static str> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word.literal()?;
        if matches!(text.as_str(), "--config" | "-Z" | "-C" | "--color" | "--manifest-path") {
            words.next();
            continue;
        }
        if text.starts_with(['-', '+']) {
            continue;
        }
        return match text.as_str() {
            "fmt" => Some("rustfmt"),
            "clippy" => Some("cargo-clippy"),
            _ => None,
        };
    }
    None
}

/// The configuration of the formatter, linter or type checker `name` ([`CODE_CONFIGS`]), a
/// versioned name as its tool's (`clang-format-18`).
fn code_config(name: &str) -> Option<&'static CodeConfig> {
    code_config_named(name).or_else(|| {
        let (tool, version) = name.rsplit_once('-')?;
        let numbered =
            !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        numbered.then(|| code_config_named(tool)).flatten()
    })
}

/// Whether `name` ends with an extension Node or a TypeScript runner loads as code (`.js`,
/// `.mjs`, `.cjs`, `.ts`, `.mts`, `.cts`).
pub(crate) fn is_javascript_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "js" | "mjs" | "cjs" | "ts" | "mts" | "cts"))
}

/// The tools of [`CODE_CONFIGS`] that run on Node.js and load the JavaScript their
/// configurations import or name (findings F85, F87; checked with eslint 9, prettier 3,
/// stylelint 17, markdownlint-cli2, cspell and commitlint here; pnpm's `.pnpmfile.cjs`, F106).
const NODE_TOOLS: &[&str] = &[
    "prettier",
    "eslint",
    "stylelint",
    "markdownlint-cli2",
    "cspell",
    "commitlint",
    "lint-staged",
    "vite",
    "webpack",
    "rollup",
    "next",
    "tsup",
    "astro",
    "nuxt",
    "svelte-kit",
    "postcss",
    "babel",
    "tailwindcss",
    "pnpm",
];

/// The Node.js tool of [`NODE_TOOLS`] the program `name` is (its first name in
/// [`CODE_CONFIGS`]: `prettier` for `prettierd`), a versioned name as its tool's.
fn node_tool(name: &str) -> Option<&'static str> {
    let config = code_config(name)?;
    config.names.iter().any(|n| NODE_TOOLS.contains(n)).then(|| config.names.first().copied())?
}

/// Whether the strings of the Node.js tool `tool`'s configuration that name files by a
/// relative path name code it loads (a linter's plugins and rules: findings F85, F87), not the
/// project's sources it builds (a bundler's `entry`, `input` and `content`, finding F104:
/// only what such a configuration imports is code it runs).
pub(crate) fn configuration_strings_name_code(tool: &str) -> bool {
    !matches!(
        tool,
        "vite"
            | "webpack"
            | "rollup"
            | "next"
            | "tsup"
            | "astro"
            | "nuxt"
            | "svelte-kit"
            | "tailwindcss"
    )
}

/// The configuration files the Node.js tool `tool` ([`CommandAnalysis::node_tool_folders`])
/// looks for by name: its code (JavaScript: `eslint.config.mjs`, `.prettierrc.cjs`) and its
/// data (JSON, YAML and extension-less spellings such as `.eslintrc` and `.stylelintrc`, and
/// ignore files, which name nothing to load).
pub(crate) fn node_tool_configurations(tool: &str) -> &'static [&'static str] {
    code_config_named(tool).map(|c| c.anywhere).unwrap_or_default()
}

/// The entry of [`CODE_CONFIGS`] one of whose names is `name`, exactly.
fn code_config_named(name: &str) -> Option<&'static CodeConfig> {
    CODE_CONFIGS.iter().find(|c| c.names.contains(&name))
}

/// The programs that run ssh, for a remote at least (git's `ssh://` and `host:path`
/// remotes, rsync's), and so read its configuration, the user's ([`SSH_USER_CONFIG`]) and the
/// system's (finding F58): a `Match exec "…"` line there runs
/// its command whenever ssh reads the file (checked with OpenSSH 9.2 here: `ssh -G` and `git
/// ls-remote` of an ssh remote ran it), a `ProxyCommand` at every connection.
const SSH_PROGRAMS: &[&str] = &["ssh", "scp", "sftp", "rsync", "git"];

/// The user's ssh configuration, under the home: protected, not pinned.
const SSH_USER_CONFIG: &str = ".ssh/config";

/// Where a program's start-up path is: in the folder it runs in, under the home, in the
/// system (an absolute path), or in any folder (by name: [`CODE_CONFIGS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StartUp {
    Here,
    Home,
    System,
    Anywhere,
}

/// What the program `name` reads at every start, wherever it runs and whatever it is asked,
/// each with where it is and the role it is protected in (protected, never pinned): its
/// configuration where it runs and under the home ([`PROGRAM_CONFIGS`], finding F50), git's
/// repository hooks, which it runs from many commands (`git status` runs
/// `post-index-change`, a commit `pre-commit`; finding F57), and ssh's configuration for the
/// programs that run ssh ([`SSH_PROGRAMS`], finding F58), and the JavaScript formatters' and
/// linters' configuration ([`CODE_CONFIGS`], finding F71). One list for the command analysis
/// of a hook's line and of its scripts' lines ([`is_start_up_file`]).
fn start_up_paths(name: &str) -> Vec<(StartUp, &'static str, PathRole)> {
    let mut found = Vec::new();
    if let Some((_, here, home)) = PROGRAM_CONFIGS.iter().find(|(n, ..)| *n == name) {
        found.extend(here.iter().map(|f| (StartUp::Here, *f, PathRole::Argument)));
        found.extend(home.iter().map(|f| (StartUp::Home, *f, PathRole::Argument)));
    }
    if name == "git" {
        found.push((StartUp::Here, ".git/hooks", PathRole::Modules));
        // What git shows of a path follows its attributes, from the `.gitattributes` of its
        // folder and of each folder above in the work tree (finding F121: `* -diff` has
        // `git diff` print "Binary files differ" where a gate looks for a secret).
        found.push((StartUp::Anywhere, ".gitattributes", PathRole::Argument));
    }
    if let Some(config) = code_config(name) {
        let CodeConfig { anywhere, here, home, system, .. } = config;
        found.extend(anywhere.iter().map(|f| (StartUp::Anywhere, *f, PathRole::Argument)));
        // Where it runs, the files that name the plugins it loads are read for them too.
        found.extend(here.iter().map(|f| (StartUp::Here, *f, PathRole::Argument)));
        found.extend(home.iter().map(|f| (StartUp::Home, *f, PathRole::Argument)));
        found.extend(system.iter().map(|f| (StartUp::System, *f, PathRole::Argument)));
        let tool = config.names.first().copied().unwrap_or_default();
        found.extend(
            (CODE_CACHES.iter().filter(|(t, _)| *t == tool))
                .map(|(_, folder)| (StartUp::Home, *folder, PathRole::Modules)),
        );
    }
    if SSH_PROGRAMS.contains(&name) {
        found.push((StartUp::Home, SSH_USER_CONFIG, PathRole::Argument));
        found.push((StartUp::System, SSH_SYSTEM_CONFIG, PathRole::Argument));
        found.push((StartUp::System, SSH_SYSTEM_CONFIG_FOLDER, PathRole::Modules));
    }
    found
}

/// The caches under the home the tools of [`CODE_CONFIGS`] load code from at every run, by
/// the tool's first name: black unpickles its grammar tables and its cache of formatted
/// files from `~/.cache/black/<version>/` (macOS: `~/Library/Caches/black`) at every start,
/// so a pickle there runs what it says (finding F139; checked with black 26.10 here: a
/// `Grammar*.pickle` whose unpickling calls `os._exit(0)` turned `black --check` of a file
/// it would reformat into a silent exit 0). Protected whole, not pinned (black rewrites them).
const CODE_CACHES: &[(&str, &str)] =
    &[("black", ".cache/black"), ("black", "Library/Caches/black")];

/// The first letter of a cluster of short options (`letters`: `avze` of `-avze`) that takes a
/// value, one of `values`, with that value: the rest of the word after the letter, or the
/// next of `words` when the letter ends the word (taken from `words`; `None` when there is
/// none). `None` when no letter of the cluster takes a value. As `getopt` reads a cluster.
fn cluster_value(
    letters: &str,
    values: &str,
    words: &mut std::slice::Iter<'_, Word>,
) -> Option<(char, Option<Word>)> {
    let at = letters.find(|c: char| values.contains(c))?;
    let letter = letters.get(at..)?.chars().next()?;
    let joined = letters.get(at + letter.len_utf8()..).unwrap_or_default();
    let value = match joined.is_empty() {
        true => words.next().cloned(),
        false => Some(Word { parts: vec![Part::Lit(joined.to_owned())] }),
    };
    Some((letter, value))
}

/// rsync's short options that take a value (`-e` among them, [`Walk::rsync_options`]).
const RSYNC_VALUE_LETTERS: &str = "eBfMT@";

/// The option letters that take a value ([`Walk::ssh_options`]) of the programs whose `-F`
/// names their whole ssh configuration: OpenSSH 9's `ssh`, `scp` and `sftp`.
fn ssh_value_letters(name: &str) -> Option<&'static str> {
    match name {
        "ssh" => Some("BbcDEeFIiJLlmOoPpQRSWw"),
        "scp" => Some("cDFiJloPSX"),
        "sftp" => Some("BbcDFiJloPRSX"),
        _ => None,
    }
}

/// The system's ssh configuration: its file and the folder Debian's includes.
pub(crate) const SSH_SYSTEM_CONFIG: &str = "/etc/ssh/ssh_config";
const SSH_SYSTEM_CONFIG_FOLDER: &str = "/etc/ssh/ssh_config.d";

/// Programs hooks commonly run that read a configuration file of their installation at every
/// start (finding F52): each one's names, the files under the prefix of the `bin/` folder it
/// is found in, and the files it reads besides when that prefix is `/usr` (a distribution's
/// build, configured with `/etc`). git reads `<prefix>/etc/gitconfig` (`/etc/gitconfig` for
/// `/usr`; its `core.fsmonitor` runs a program during `git status`), wget `<prefix>/etc/wgetrc`,
/// npm its global `<prefix>/etc/npmrc` (npm's prefix is its Node's: `/usr/etc/npmrc` for
/// `/usr/bin/npm`; Debian's npm reads `/etc/npmrc`), where `script-shell=/bin/true` makes
/// `npm run gate` exit 0 without running the gate, and its own `npmrc` beside its code.
pub(crate) const SYSTEM_CONFIGS: &[(&[&str], &[&str], &[&str])] = &[
    (&["git"], &["etc/gitconfig"], &["/etc/gitconfig"]),
    (&["wget"], &["etc/wgetrc"], &["/etc/wgetrc"]),
    (
        &["npm", "npx"],
        &["etc/npmrc", "lib/node_modules/npm/npmrc"],
        &["/etc/npmrc", "/usr/share/nodejs/npm/npmrc"],
    ),
];

/// The configuration files of its installation a program reads at every start, by its name
/// ([`SYSTEM_CONFIGS`]): under its prefix, and besides for `/usr`.
pub(crate) fn system_configs_of(
    name: &str,
) -> Option<(&'static [&'static str], &'static [&'static str])> {
    SYSTEM_CONFIGS
        .iter()
        .find(|(names, ..)| names.contains(&name))
        .map(|(_, under, usr)| (*under, *usr))
}

/// Whether the installation of the program a name runs decides what it does before its
/// arguments do: an interpreter's that loads code at every start
/// ([`loads_its_installation`]), or a program's that reads its installation's configuration
/// ([`SYSTEM_CONFIGS`]). The registry looks such a program up on the hooks' `PATH`.
pub(crate) fn installation_matters(name: &str) -> bool {
    loads_its_installation(name) || system_configs_of(name).is_some()
}

/// Whether a program's name is a Python interpreter's (`python`, `python3`, `python3.12`,
/// `pypy3`).
pub(crate) fn is_python(name: &str) -> bool {
    interpreter(name).is_some_and(|i| i.names.contains(&"python"))
}

/// Whether an interpreter's name is one whose installation's library it loads at every
/// start, whatever it runs: Python (its `site-packages`' `.pth` files, its standard library),
/// Ruby (RubyGems), Perl (`strict`, `warnings`), Node (its CommonJS global folder).
pub(crate) fn loads_its_installation(name: &str) -> bool {
    family(name) != Family::Other
}

/// The family of the interpreter a program's name runs, for the folders its installation
/// loads modules from ([`crate::installations::installation`]).
pub(crate) fn family(name: &str) -> Family {
    let Some(i) = interpreter(name) else { return Family::Other };
    [
        ("python", Family::Python),
        ("ruby", Family::Ruby),
        ("perl", Family::Perl),
        ("node", Family::Node),
    ]
    .into_iter()
    .find_map(|(n, family)| i.names.contains(&n).then_some(family))
    .unwrap_or(Family::Other)
}

/// An interpreter family whose installation loads code at every start ([`family`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Python,
    Ruby,
    Perl,
    Node,
    /// Any other program: its installation's `lib/` and `lib64/` only.
    Other,
}

/// [`PYTHON_USER_SITE`] as paths a Python program loads, each protected whole
/// ([`PathRole::Modules`]: not pinned, a package folder changes on every install).
pub(crate) fn python_user_site() -> impl Iterator<Item = NamedPath> {
    PYTHON_USER_SITE.iter().map(|folder| NamedPath {
        base: PathBase::Home,
        path: PathBuf::from(folder),
        role: PathRole::Modules,
    })
}

/// A tool that runs the recipes of a file (`make check`, `just lint`, `task test`).
struct TaskRunner {
    names: &'static [&'static str],
    /// The recipe files it looks for in the folder it runs in, by default.
    recipes: &'static [&'static str],
    /// Options followed by a value (short ones also take it attached: `-fx.mk`), besides
    /// [`TaskRunner::dir_options`] and [`TaskRunner::file_options`], which take one too.
    value_options: &'static [&'static str],
    /// Options whose value is the folder it runs in.
    dir_options: &'static [&'static str],
    /// Options whose value is a file it reads recipes or variables from.
    file_options: &'static [&'static str],
    /// Folders of build logic it loads in the folder it runs in (Gradle's `buildSrc/`,
    /// Maven's `.mvn/`): protected whole (finding F82).
    folders: &'static [&'static str],
    /// What it loads under the home at every run (Gradle's init scripts, `~/.mavenrc`):
    /// protected whole.
    home: &'static [&'static str],
    /// What it loads from the system at every run (`/etc/mavenrc`).
    system: &'static [&'static str],
    /// Options whose value is the folder that stands for [`TaskRunner::home_folder`] under the
    /// home (Gradle's `-g`), and the variable that does the same where the line sets it
    /// (`GRADLE_USER_HOME`): what [`TaskRunner::home`] names under that folder is loaded from
    /// there instead (finding F98).
    home_options: &'static [&'static str],
    home_variable: Option<&'static str>,
    home_folder: &'static str,
    /// Options whose value is another build it runs the build logic of (Gradle's
    /// `--include-build`, finding F98) or a folder whose files it loads (rake's
    /// `--rakelibdir`, finding F102): protected whole.
    build_options: &'static [&'static str],
}

impl TaskRunner {
    /// The fields most task runners leave empty.
    const NONE: TaskRunner = TaskRunner {
        names: &[],
        recipes: &[],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        folders: &[],
        home: &[],
        system: &[],
        home_options: &[],
        home_variable: None,
        home_folder: "",
        build_options: &[],
    };

    /// The option of [`TaskRunner::value_options`], [`TaskRunner::dir_options`] or
    /// [`TaskRunner::file_options`] (each takes a value) spelt `flag`.
    fn value_option(&self, flag: &str) -> Option<&'static str> {
        (self.value_options.iter())
            .chain(self.dir_options)
            .chain(self.file_options)
            .find(|o| **o == flag)
            .copied()
    }

    /// `text` as an option that takes a value: the option, and its value when attached
    /// (`--file=x`, `-fx`).
    fn option(&self, text: &str) -> Option<(&'static str, Option<String>)> {
        if let Some((flag, value)) = text.split_once('=')
            && flag.starts_with("--")
        {
            return self.value_option(flag).map(|o| (o, Some(value.to_owned())));
        }
        if let Some(o) = self.value_option(text) {
            return Some((o, None));
        }
        // A short option with its value attached.
        let short = text.get(..2).filter(|s| s.starts_with('-') && !s.starts_with("--"))?;
        let o = self.value_option(short)?;
        Some((o, Some(text.get(2..).unwrap_or_default().to_owned())))
    }
}

/// What [`CommandAnalysis::recipes`] says reads a manifest for a package manager's run in its
/// workspaces' packages (`npm run lint -w packages/a`, `--workspaces`, `pnpm -r run lint`,
/// `pnpm --filter a run lint`, `yarn workspace a run lint`, `yarn workspaces run lint`;
/// finding F78): the manifest where it runs, and those of the
/// packages its workspaces list.
pub const WORKSPACES_READER: &str = "npm workspaces";

/// What [`CommandAnalysis::recipes`] says reads a Python project's `pyproject.toml` for the
/// code its build backend runs when a project manager installs the project into its
/// environment (finding F105; `crate::recipes::Recipe::PythonBuild`).
pub const PYTHON_BUILD_READER: &str = "python build";

/// What [`CommandAnalysis::recipes`] says reads a pip requirements or constraints file
/// (`pip install -r requirements.txt`, `uv run --with-requirements`) for the local projects it
/// has pip build (finding F109; `crate::recipes::Recipe::PipRequirements`); the target is the
/// file's name as the line wrote it, to tell where pip ran.
pub const PIP_REQUIREMENTS_READER: &str = "pip requirements";

/// What [`CommandAnalysis::recipes`] says reads cargo's configuration for the alias a line's
/// subcommand is (`cargo xtask lint` with `[alias] xtask = "run --package xtask --"`; finding
/// F116; `crate::recipes::Recipe::CargoAlias`): the targets are the alias's name, then the
/// line's other words.
pub const CARGO_ALIAS_READER: &str = "cargo alias";

/// cargo's configuration files, in a folder where it runs or above and in its home (`~/.cargo`).
const CARGO_CONFIGS: &[&str] = &[".cargo/config.toml", ".cargo/config"];

/// cargo's built-in subcommands (and their short names), which no alias overrides: any other
/// word in a subcommand's place may be an alias of its configuration, `clippy` and `fmt` too
/// (external programs, which an alias of that name replaces: checked with cargo here).
const CARGO_BUILTINS: &[&str] = &[
    "add",
    "b",
    "bench",
    "build",
    "c",
    "check",
    "clean",
    "config",
    "d",
    "doc",
    "fetch",
    "fix",
    "generate-lockfile",
    "help",
    "info",
    "init",
    "install",
    "locate-project",
    "login",
    "logout",
    "metadata",
    "new",
    "owner",
    "package",
    "pkgid",
    "publish",
    "r",
    "remove",
    "report",
    "rm",
    "run",
    "rustc",
    "rustdoc",
    "search",
    "t",
    "test",
    "tree",
    "uninstall",
    "update",
    "vendor",
    "verify-project",
    "version",
    "yank",
];

/// What [`CommandAnalysis::recipes`] says reads a pip configuration file (the user's
/// `~/.config/pip/pip.conf`, the system's, `PIP_CONFIG_FILE`'s) for what it has pip install
/// (finding F113; `crate::recipes::Recipe::PipConfig`).
pub const PIP_CONFIG_READER: &str = "pip configuration";

/// pip's configuration files under the home (checked with pip 24: `~/.config/pip/pip.conf`'s
/// `[install] requirement = r.txt` had `pip install ./lib` build what `r.txt` lists too).
const PIP_HOME_CONFIGS: &[&str] = &[".config/pip/pip.conf", ".pip/pip.conf"];

/// The system's, read by every pip.
const PIP_SYSTEM_CONFIGS: &[&str] = &["/etc/pip.conf", "/etc/xdg/pip/pip.conf"];

/// A local project pip installs ([`pip_local_project`]).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LocalProject {
    /// A folder it builds (its `setup.py`, its `pyproject.toml`'s backend).
    Folder(String),
    /// A source archive or a wheel it installs.
    Archive(String),
}

/// The archives pip installs from a path.
pub(crate) const PYTHON_ARCHIVES: &[&str] =
    &[".whl", ".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tbz", ".tar.xz", ".txz", ".tar"];

/// The local project `spec` names as pip reads an operand or a requirements file's line
/// (checked with pip 24 here): a name with a `/` or starting with `.` is a path (`vendor/d`
/// built as `./vendor/d`), `.[dev]`'s extras and a `; marker` cut off, a `file://` URL's path
/// (`name @ file:///src/lib` too); an `-e` value is a path unless it is a URL; a package's
/// name (`lib`, even where a folder `lib/` exists: pip 24 looked it up in the index), a
/// version requirement and another URL are none.
pub(crate) fn pip_local_project(spec: &str, editable: bool) -> Option<LocalProject> {
    let spec = spec.split(';').next().unwrap_or_default().trim();
    // `name @ url`: the URL.
    let spec = match spec.split_once('@') {
        Some((name, url)) if !name.contains('/') && url.trim_start().contains(':') => url.trim(),
        _ => spec,
    };
    let (spec, url) = match spec.strip_prefix("file://") {
        // `file:///x`, `file://localhost/x`: the path.
        Some(rest) => (rest.strip_prefix("localhost").unwrap_or(rest), true),
        None => (spec, false),
    };
    if spec.contains("://")
        || spec.contains('\0')
        || (!url && spec.contains(':') && !spec.starts_with(['.', '/']))
    {
        return None;
    }
    if PYTHON_ARCHIVES.iter().any(|a| spec.ends_with(a)) {
        return Some(LocalProject::Archive(spec.to_owned()));
    }
    let folder = spec.split('[').next().unwrap_or_default();
    let local =
        url || (editable && !folder.is_empty()) || folder.contains('/') || folder.starts_with('.');
    if !local || folder.is_empty() {
        return None;
    }
    let folder = folder.trim_end_matches('/');
    Some(LocalProject::Folder(if folder.is_empty() { "/".to_owned() } else { folder.to_owned() }))
}

/// Whether `name` is pip's program (`pip`, `pip3`, `pip3.12`).
fn is_pip(name: &str) -> bool {
    name.strip_prefix("pip").is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// The Python project managers that build and install the project they run in when they
/// sync its environment (`uv run`, `poetry install`, `hatch run`; finding F105).
const PYTHON_PROJECT_MANAGERS: &[&str] = &["uv", "poetry", "pdm", "hatch", "rye", "pixi", "pipenv"];

/// Whether `flag` has the package manager `runner` run in its workspaces' packages (npm's
/// `-w`/`--workspace` and `-ws`/`--workspaces`; pnpm's `-r`/`--recursive` and `-F`/`--filter`).
fn workspace_option(runner: &str, flag: &str) -> bool {
    match runner {
        "npm" => matches!(flag, "-w" | "--workspace" | "-ws" | "--workspaces"),
        "pnpm" => matches!(flag, "-r" | "--recursive" | "-F" | "--filter"),
        _ => false,
    }
}

/// The names task looks for its Taskfile by, in a folder it runs in or one an `includes`
/// entry names (finding F77).
pub(crate) const TASKFILES: &[&str] = &[
    "Taskfile.yml",
    "taskfile.yml",
    "Taskfile.yaml",
    "taskfile.yaml",
    "Taskfile.dist.yml",
    "taskfile.dist.yml",
    "Taskfile.dist.yaml",
    "taskfile.dist.yaml",
];

/// The names just looks for its justfile by.
const JUSTFILES: &[&str] = &["justfile", ".justfile", "Justfile", "JUSTFILE"];

/// The names rake looks for its `Rakefile` by.
const RAKEFILES: &[&str] = &["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"];

/// invoke's tasks: a module or a package.
const INVOKE_TASKS: &[&str] = &["tasks.py", "tasks/__init__.py"];

/// Fabric's tasks, found as invoke finds its own (finding F101).
const FABFILES: &[&str] = &["fabfile.py", "fabfile/__init__.py"];

const TASK_RUNNERS: &[TaskRunner] = &[
    TaskRunner {
        names: &["make", "gmake"],
        recipes: &["GNUmakefile", "makefile", "Makefile"],
        value_options: &[
            "-f",
            "--file",
            "--makefile",
            "-C",
            "--directory",
            "-I",
            "--include-dir",
            "-o",
            "--old-file",
            "--assume-old",
            "-W",
            "--what-if",
            "--new-file",
            "--assume-new",
            "-j",
            "--jobs",
            "-l",
            "--load-average",
            "-O",
            "--output-sync",
            "-E",
            "--eval",
        ],
        dir_options: &["-C", "--directory"],
        file_options: &["-f", "--file", "--makefile"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["just"],
        recipes: JUSTFILES,
        value_options: &[
            "-f",
            "--justfile",
            "-d",
            "--working-directory",
            "--dotenv-filename",
            "--dotenv-path",
            "-E",
            "--shell",
            "--shell-arg",
            "--chooser",
            "--color",
            "--command-color",
            "--list-heading",
            "--list-prefix",
        ],
        dir_options: &["-d", "--working-directory"],
        file_options: &["-f", "--justfile", "--dotenv-path", "-E"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["task", "go-task"],
        recipes: TASKFILES,
        value_options: &[
            "-t",
            "--taskfile",
            "-d",
            "--dir",
            "-o",
            "--output",
            "-C",
            "--concurrency",
        ],
        dir_options: &["-d", "--dir"],
        file_options: &["-t", "--taskfile"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["pre-commit", "prek"],
        recipes: &[".pre-commit-config.yaml", ".pre-commit-config.yml"],
        value_options: &["-c", "--config", "--hook-stage", "--from-ref", "--to-ref"],
        dir_options: &[],
        file_options: &["-c", "--config"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["lefthook"],
        recipes: &[
            "lefthook.yml",
            ".lefthook.yml",
            "lefthook.yaml",
            ".lefthook.yaml",
            "lefthook.toml",
            ".lefthook.toml",
            "lefthook.json",
            ".lefthook.json",
            ".config/lefthook.yml",
            ".config/lefthook.yaml",
            "lefthook-local.yml",
            ".lefthook-local.yml",
            "lefthook-local.yaml",
            ".lefthook-local.yaml",
        ],
        value_options: &[],
        dir_options: &[],
        file_options: &[],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["tox"],
        recipes: &["tox.ini", "tox.toml", "pyproject.toml", "setup.cfg"],
        value_options: &["-c", "--conf", "-e", "--workdir", "-x", "--override"],
        dir_options: &[],
        file_options: &["-c", "--conf"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["nox"],
        recipes: &["noxfile.py"],
        value_options: &[
            "-f",
            "--noxfile",
            "-s",
            "--session",
            "--sessions",
            "-k",
            "-t",
            "--tags",
            "-p",
            "--python",
            "--envdir",
        ],
        dir_options: &[],
        file_options: &["-f", "--noxfile"],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["rake"],
        recipes: RAKEFILES,
        value_options: &[
            "-f",
            "--rakefile",
            "-C",
            "--directory",
            "-I",
            "--libdir",
            "-r",
            "--require",
            "-R",
            "--rakelibdir",
            "-j",
            "--jobs",
        ],
        dir_options: &["-C", "--directory"],
        file_options: &["-f", "--rakefile", "-r", "--require"],
        // The folder whose `.rake` files it loads in place of `rakelib/` (finding F102).
        build_options: &["-R", "--rakelibdir"],
        ..TaskRunner::NONE
    },
    // npm-run-all's commands run a manifest's scripts by name or by pattern (`run-p
    // 'lint:*'`), each through `npm run`: the manifest is their recipe file (finding F75).
    TaskRunner {
        names: &["npm-run-all", "npm-run-all2", "run-s", "run-p"],
        recipes: &["package.json"],
        value_options: &["--max-parallel", "--npm-path"],
        dir_options: &[],
        file_options: &[],
        ..TaskRunner::NONE
    },
    // poe (poethepoet) runs the tasks of `[tool.poe.tasks]` by name (finding F99).
    TaskRunner {
        names: &["poe"],
        recipes: &["pyproject.toml", "poe_tasks.toml"],
        value_options: &["-C", "--directory", "--root", "-e", "--executor"],
        dir_options: &["-C", "--directory", "--root"],
        file_options: &[],
        ..TaskRunner::NONE
    },
    TaskRunner {
        names: &["invoke", "inv"],
        recipes: INVOKE_TASKS,
        value_options: &["-c", "--collection", "-r", "--search-root", "-f", "--config"],
        dir_options: &["-r", "--search-root"],
        file_options: &["-f", "--config"],
        ..TaskRunner::NONE
    },
    // Fabric is invoke with SSH: its `fabfile.py` is its `tasks.py`, its configuration
    // `fabric.yaml` its `invoke.yaml`, and `-S` an ssh configuration (finding F101).
    TaskRunner {
        names: &["fab", "fabric"],
        recipes: FABFILES,
        value_options: &[
            "-c",
            "--collection",
            "-r",
            "--search-root",
            "-f",
            "--config",
            "-H",
            "--hosts",
            "-i",
            "--identity",
            "-S",
            "--ssh-config",
            "-t",
            "--connect-timeout",
            "-T",
            "--command-timeout",
            "-F",
            "--list-format",
            "-D",
            "--list-depth",
            "--hide",
        ],
        dir_options: &["-r", "--search-root"],
        file_options: &["-f", "--config", "-S", "--ssh-config"],
        ..TaskRunner::NONE
    },
    // doit runs the actions of `dodo.py`'s tasks (command strings, argument lists) from the
    // file's folder, and loads the plugins `doit.cfg` and `pyproject.toml`'s `[tool.doit]`
    // name (finding F101).
    TaskRunner {
        names: &["doit"],
        recipes: &["dodo.py", "doit.cfg", "pyproject.toml"],
        value_options: &[
            "-f",
            "--file",
            "-d",
            "--dir",
            "--db-file",
            "--backend",
            "--check_file_uptodate",
            "-o",
            "--output-file",
            "-r",
            "--reporter",
            "-n",
            "--process",
            "-P",
            "--parallel-type",
            "-v",
            "--verbosity",
            "--failure-verbosity",
        ],
        dir_options: &["-d", "--dir"],
        file_options: &["-f", "--file"],
        ..TaskRunner::NONE
    },
    // lint-staged runs the commands of its configuration on the staged files, from the
    // configuration's folder; a subfolder's configuration serves the files under it
    // (finding F83; its configurations by name in any folder are in `CODE_CONFIGS`).
    TaskRunner {
        names: &["lint-staged"],
        recipes: LINT_STAGED_CONFIGS,
        value_options: &[
            "-c",
            "--config",
            "--cwd",
            "-p",
            "--concurrent",
            "--diff",
            "--diff-filter",
            "--max-arg-length",
        ],
        dir_options: &["--cwd"],
        file_options: &["-c", "--config"],
        ..TaskRunner::NONE
    },
    // Turborepo runs the workspaces' packages' scripts for the tasks its `turbo.json` names
    // (finding F92).
    TaskRunner {
        names: &["turbo"],
        recipes: &["turbo.json", "turbo.jsonc"],
        value_options: &[
            "--filter",
            "-F",
            "--concurrency",
            "--cache-dir",
            "--log-order",
            "--output-logs",
            "--env-mode",
            "--ui",
            "--graph",
            "--log-prefix",
            "--cache",
            "--summarize",
        ],
        dir_options: &["--cwd"],
        ..TaskRunner::NONE
    },
    // Nx runs the targets of the workspace's `project.json` files and manifests for the names
    // its line gives (finding F93).
    TaskRunner {
        names: &["nx"],
        recipes: &["nx.json"],
        value_options: &[
            "-t",
            "--targets",
            "--target",
            "-p",
            "--projects",
            "--exclude",
            "-c",
            "--configuration",
            "--parallel",
            "--base",
            "--head",
            "--output-style",
        ],
        ..TaskRunner::NONE
    },
    // A build's scripts are code Gradle runs at every build, whatever the task: the build
    // and settings scripts, the scripts they apply (kept in `gradle/`, with the wrapper's
    // properties and the version catalog), `buildSrc/`, the user's init scripts and the
    // distribution the wrapper runs (finding F82).
    TaskRunner {
        names: &["gradle", "gradlew"],
        recipes: &[
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle",
            "settings.gradle.kts",
            "gradle.properties",
        ],
        value_options: &[
            "-g",
            "--gradle-user-home",
            "-D",
            "--system-prop",
            "-P",
            "--project-prop",
            "-x",
            "--exclude-task",
            "--include-build",
            "--console",
            "--warning-mode",
            "--max-workers",
            "--project-cache-dir",
            "--priority",
            "-M",
            "--dependency-verification",
        ],
        dir_options: &["-p", "--project-dir"],
        file_options: &["-b", "--build-file", "-c", "--settings-file", "-I", "--init-script"],
        folders: &["gradle", "buildSrc"],
        home: &[
            ".gradle/init.gradle",
            ".gradle/init.gradle.kts",
            ".gradle/init.d",
            ".gradle/gradle.properties",
            ".gradle/wrapper/dists",
            ".gradle/caches",
        ],
        system: &[],
        home_options: &["-g", "--gradle-user-home"],
        home_variable: Some("GRADLE_USER_HOME"),
        home_folder: ".gradle",
        build_options: &["--include-build"],
    },
    // Maven reads `.mvn/maven.config` (its options before the line's: `--version` there
    // turns a failing build into an exit 0), `.mvn/jvm.config` (a `-javaagent:`), the
    // extensions and the wrapper's properties in `.mvn/`, the user's settings, and its shell
    // script sources `~/.mavenrc` and `/etc/mavenrc` (finding F82).
    TaskRunner {
        names: &["mvn", "mvnw", "mvnd"],
        recipes: &["pom.xml"],
        value_options: &[
            "-gt",
            "--global-toolchains",
            "-D",
            "--define",
            "-P",
            "--activate-profiles",
            "-pl",
            "--projects",
            "-rf",
            "--resume-from",
            "-T",
            "--threads",
            "-l",
            "--log-file",
            "-b",
            "--builder",
        ],
        dir_options: &[],
        file_options: &[
            "-f",
            "--file",
            "-s",
            "--settings",
            "-gs",
            "--global-settings",
            "-t",
            "--toolchains",
        ],
        folders: &[".mvn"],
        home: &[
            ".mavenrc",
            ".m2/settings.xml",
            ".m2/toolchains.xml",
            ".m2/wrapper",
            ".m2/repository",
        ],
        system: &["/etc/mavenrc", "/usr/local/etc/mavenrc"],
        ..TaskRunner::NONE
    },
];

fn task_runner(name: &str) -> Option<&'static TaskRunner> {
    TASK_RUNNERS.iter().find(|t| t.names.contains(&name))
}

/// The recipe files and the folders of build logic the task runner `name` reads in its
/// build's folder (Gradle's scripts and properties, `gradle/`, `buildSrc/`): for a build
/// found elsewhere than where it runs (finding F100).
pub(crate) fn runner_build_files(name: &str) -> (&'static [&'static str], &'static [&'static str]) {
    task_runner(name).map_or((&[], &[]), |t| (t.recipes, t.folders))
}

/// The task runners that look for their recipe file in each folder above the one they run in
/// when that one has none, running the lines of the first they find from that file's folder,
/// with the names they look for (finding F96; checked with just 1.59, task 3.54, npm 11, rake
/// 13.0, invoke 3.0, tox 4.67, PDM 2.29 and poe 0.49 here; finding F100: pnpm 12, yarn 1.22,
/// bun 1.4, Deno 2.9, Gradle 4.4 and cargo; finding F101: Fabric 3.2 and doit 0.37). tox's `pyproject.toml` and
/// `setup.cfg` count only with a section of its own, so only its own files are looked for;
/// PDM's and poe's project is the nearest folder with a `pyproject.toml` (F99).
const RECIPES_FOUND_UPWARD: &[(&str, &[&str])] = &[
    ("npm", &["package.json"]),
    ("just", JUSTFILES),
    ("task", TASKFILES),
    ("rake", RAKEFILES),
    ("invoke", INVOKE_TASKS),
    ("fab", FABFILES),
    // With `-k`/`--seek-file` (taken always: protect more).
    ("doit", &["dodo.py"]),
    ("tox", &["tox.ini", "tox.toml"]),
    ("pdm", &["pyproject.toml"]),
    ("poe", &["pyproject.toml"]),
    // F100: pnpm, yarn and bun as npm; Deno's tasks or, with no configuration of its own,
    // the manifest's scripts; Gradle's settings (which decide the build and its root, whose
    // build scripts run too); cargo's manifest (whose package's build script runs).
    ("pnpm", &["package.json"]),
    ("yarn", &["package.json"]),
    ("bun", &["package.json"]),
    ("deno", &["deno.json", "deno.jsonc", "package.json"]),
    ("gradle", &["settings.gradle", "settings.gradle.kts"]),
    ("cargo", &["Cargo.toml"]),
    // The project a Python project manager builds (F105).
    (PYTHON_BUILD_READER, &["pyproject.toml"]),
    // Bundler looks for its `Gemfile` upward too (F115).
    ("bundle", &["Gemfile", "gems.rb"]),
    // cargo merges its configurations from every folder above where it runs (F116).
    (CARGO_ALIAS_READER, CARGO_CONFIGS),
];

/// The names `program` (as [`CommandAnalysis::recipes`] gives it) looks for its recipe file
/// by in the folders above where it runs ([`RECIPES_FOUND_UPWARD`]); empty for a program that
/// looks nowhere else.
pub(crate) fn recipes_found_upward(program: &str) -> &'static [&'static str] {
    RECIPES_FOUND_UPWARD.iter().find(|(p, _)| *p == program).map_or(&[], |(_, names)| names)
}

/// Every name of [`RECIPES_FOUND_UPWARD`]: protected in every folder above where a hook runs,
/// so a copy created between is refused too.
pub(crate) fn upward_recipe_names() -> impl Iterator<Item = &'static str> {
    RECIPES_FOUND_UPWARD.iter().flat_map(|(_, names)| names.iter().copied())
}

/// How an interpreter reads its options.
struct Interpreter {
    names: &'static [&'static str],
    /// Subcommands taken before the options (`deno run`, `bun run`).
    subcommands: &'static [&'static str],
    /// Options whose value is code: no script file runs.
    inline: &'static [&'static str],
    /// Options followed by a value that is not a file.
    values: &'static [&'static str],
    /// Options followed by a file the interpreter loads.
    files: &'static [&'static str],
    /// Options followed by the directory it runs in.
    dirs: &'static [&'static str],
    /// The option that runs a module (`python -m`).
    module: Option<&'static str>,
    /// A POSIX shell: `-c` (alone or among other flags) makes the first operand a command.
    shell: bool,
    /// The first operand is a program text, not a file (`jq '.x'`, `awk '{…}'`).
    code_operand: bool,
    /// Files the operand names a script or task of when it is not a file (`bun run lint`
    /// runs `package.json`'s `lint`, `deno task check` runs `deno.json`'s `check`).
    manifests: &'static [&'static str],
    /// Options followed by a folder modules are loaded from, also with the value attached
    /// (`ruby -I lib`, `perl -Ilib`).
    module_dirs: &'static [&'static str],
    /// Its own configuration files in the folder it runs in, read at every start whatever it
    /// runs (Deno's `deno.json`, with its import map; Bun's `bunfig.toml`, with its
    /// `preload`): loaded files (finding F49).
    configs: &'static [&'static str],
    /// The same, under the home: protected, not pinned.
    home_configs: &'static [&'static str],
}

/// The POSIX-like shells: the command analysis reads their operands and options alike, and a
/// script whose `#!` names one is read as shell text (`protect::read_script`). One list for
/// both, so neither recognises a shell the other does not.
pub(crate) const POSIX_SHELLS: &[&str] =
    &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "busybox"];

const INTERPRETERS: &[Interpreter] = &[
    Interpreter {
        names: POSIX_SHELLS,
        subcommands: &[],
        inline: &[],
        values: &["-o", "+o", "-O", "+O"],
        files: &["--rcfile", "--init-file"],
        dirs: &[],
        module: None,
        shell: true,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["fish"],
        subcommands: &[],
        inline: &["-C", "--init-command"],
        values: &["-d", "--debug"],
        files: &[],
        dirs: &[],
        module: None,
        shell: true,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["python", "python2", "python3", "pypy", "pypy3", "pythonw"],
        subcommands: &[],
        inline: &["-c"],
        values: &["-W", "-X", "--check-hash-based-pycs"],
        files: &[],
        dirs: &[],
        module: Some("-m"),
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["node", "nodejs", "tsx", "ts-node", "ts-node-esm", "esno", "esbuild-register"],
        subcommands: &[],
        inline: &["-e", "--eval", "-p", "--print"],
        values: &["--title", "-C", "--conditions", "--input-type", "-O", "--compiler-options"],
        files: &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "--env-file",
            "--env-file-if-exists",
            "-P",
            "--project",
            "--tsconfig",
        ],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["deno"],
        subcommands: &["run", "task"],
        inline: &["eval"],
        values: &["--location", "--seed", "--v8-flags", "--inspect", "--cert"],
        files: &["-c", "--config", "--import-map", "--lock", "--env-file", "--preload"],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &["deno.json", "deno.jsonc", "package.json"],
        module_dirs: &[],
        configs: &["deno.json", "deno.jsonc"],
        // The modules it downloaded, imported from there at every run (finding F54).
        home_configs: &[".cache/deno", "Library/Caches/deno"],
    },
    Interpreter {
        names: &["bun"],
        subcommands: &["run"],
        inline: &["-e", "--eval", "-p", "--print"],
        values: &["--define", "-d", "--loader", "-l"],
        files: &["-r", "--preload", "--env-file", "-c", "--config", "--tsconfig-override"],
        dirs: &["--cwd"],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &["package.json"],
        module_dirs: &[],
        configs: &["bunfig.toml"],
        home_configs: &[".bunfig.toml", ".config/.bunfig.toml", ".bun/install/cache"],
    },
    Interpreter {
        names: &["ruby", "jruby"],
        subcommands: &[],
        inline: &["-e"],
        values: &["-E", "-F", "-x"],
        files: &["-r"],
        dirs: &["-C"],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &["-I"],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["perl"],
        subcommands: &[],
        inline: &["-e", "-E"],
        values: &["-M", "-m"],
        files: &[],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &["-I"],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["php"],
        subcommands: &[],
        inline: &["-r", "-R", "-B", "-E"],
        values: &["-d", "-z"],
        files: &["-c", "-f"],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["lua", "luajit", "Rscript", "osascript"],
        subcommands: &[],
        inline: &["-e"],
        values: &["-l"],
        files: &[],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["pwsh", "powershell"],
        subcommands: &[],
        inline: &["-Command", "-c", "-EncodedCommand"],
        values: &["-ExecutionPolicy", "-WorkingDirectory"],
        files: &["-File", "-f"],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: false,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
    Interpreter {
        names: &["awk", "gawk", "mawk", "jq", "sed"],
        subcommands: &[],
        inline: &[],
        values: &["-v", "-F", "--arg", "--argjson"],
        files: &["-f", "--from-file", "--slurpfile", "--rawfile"],
        dirs: &[],
        module: None,
        shell: false,
        code_operand: true,
        manifests: &[],
        module_dirs: &[],
        configs: &[],
        home_configs: &[],
    },
];

/// The options of the interpreter `name` that load a file (`node --require`, `ruby -r`) and
/// those that name a folder it loads modules from (`ruby -I`, `perl -I`), as the command
/// analysis reads them on a hook's line: for a caller that reads the same options where a
/// variable holds them (`NODE_OPTIONS`, `RUBYOPT`, `PERL5OPT`). Empty for another program.
///
/// ```
/// let (files, folders) = hooks_registry::loading_options("ruby");
/// assert_eq!((files, folders), (&["-r"][..], &["-I"][..]));
/// ```
pub fn loading_options(name: &str) -> (&'static [&'static str], &'static [&'static str]) {
    interpreter(name).map_or((&[], &[]), |i| (i.files, i.module_dirs))
}

/// The options of the interpreter `spec` that load a library by its name or path, their value
/// attached or in the next word (finding F97): ruby's `-r`, perl's `-M` and `-m`.
/// rake's load-path and library options among `args` as ruby's (`--libdir=tools` is `-I
/// tools`, `--require pre` is `-r pre`; finding F102), with their values; nothing else.
fn rake_ruby_options(args: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(text) = word.literal() else { continue };
        let (flag, attached) = split_flag(&text);
        let ruby = match flag.as_str() {
            "-I" | "--libdir" => "-I",
            "-r" | "--require" => "-r",
            _ if text.len() > 2 && (text.starts_with("-I") || text.starts_with("-r")) => {
                out.push(word.clone());
                continue;
            }
            _ => continue,
        };
        let value = match attached {
            Some(v) => Some(Word::lit(&v)),
            None => words.next().cloned(),
        };
        if let Some(value) = value {
            out.extend([Word::lit(ruby), value]);
        }
    }
    out
}

fn library_flags(spec: &Interpreter) -> &'static [&'static str] {
    match spec.names.first() {
        Some(&"ruby") => &["-r"],
        Some(&"perl") => &["-M", "-m"],
        _ => &[],
    }
}

/// Python's options whose value may be written into them (`-c'import gate'`, `-mtools.gate`).
fn python_written_options(spec: &Interpreter) -> &'static [&'static str] {
    match spec.names.contains(&"python") {
        true => &["-c", "-m"],
        false => &[],
    }
}

/// The interpreter `name` is, with a version suffix allowed (`python3.12`, `node20`).
/// The runners that read a `tsconfig.json` for how they load a script (finding F127).
const TYPESCRIPT_RUNNERS: &[&str] = &["tsx", "ts-node", "ts-node-esm", "esno", "bun"];

fn interpreter(name: &str) -> Option<&'static Interpreter> {
    let plain = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS
        .iter()
        .find(|i| i.names.contains(&name) || (!plain.is_empty() && i.names.contains(&plain)))
}

/// `path` with `.` removed and each `..` folded into a normal component before it; leading
/// `..` are kept. Used to compare and key named paths.
pub(crate) fn normalize_relative(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    let mut normal = 0usize;
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if normal > 0 => {
                out.pop();
                normal -= 1;
            }
            Component::Normal(n) => {
                out.push(n);
                normal += 1;
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
