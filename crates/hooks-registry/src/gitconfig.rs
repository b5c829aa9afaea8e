//! The files a git configuration file includes (`[include] path = …`, `[includeIf "…"] path
//! = …`): git reads them as part of it, so a hook running git is answered by them too
//! (finding F56).
//!
//! It also reads, in the same walk ([`read_git_configuration`]), where a configuration sends
//! git for the repository's hooks (`core.hooksPath`, finding F57) and the commands it has git
//! run (`core.fsmonitor`, a filter's `clean`, a diff driver's `textconv`, `diff.external`,
//! `core.sshCommand`, a credential helper, a `!` alias…, finding F60), and the files it has
//! git read patterns from (`core.attributesFile`, `core.excludesFile`, finding F126).
//!
//! [`include_paths`] reads the text the way git's configuration parser does (sections and
//! keys case-insensitive, quoted values, backslash escapes and continued lines, `#` and `;`
//! comments, a key on its section's line); [`read_git_configuration`] follows the includes
//! from a file, as git does, to a depth of ten.

use std::path::{Path, PathBuf};

/// How deep git follows includes (`MAX_INCLUDE_DEPTH`): a deeper one is an error to it.
const MAX_DEPTH: usize = 10;

/// At most this many included files are followed from one configuration file.
const MAX_FILES: usize = 64;

/// How much of a configuration file is read.
const FILE_CAP: u64 = 256 * 1024;

/// At most this many of the commands a configuration and what it includes have git run are
/// kept ([`GitConfiguration::commands`]).
const MAX_COMMANDS: usize = 256;

/// The `path` values of `text`'s `[include]` sections and of its `[includeIf "<condition>"]`
/// sections whatever their condition, in order, as git reads them (unquoted, escapes
/// applied, comments and surrounding blanks dropped). What git would refuse as a bad line is
/// skipped and the reading goes on at the next line, so an include after it still counts.
pub(crate) fn include_paths(text: &str) -> Vec<String> {
    read_values(text).includes
}

/// What a git configuration file's text says about other files, read as [`include_paths`]
/// reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Values {
    /// The `path` values of its `[include]` and `[includeIf "…"]` sections.
    pub includes: Vec<String>,
    /// The `hooksPath` values of its `[core]` sections: the folder git runs its hooks from
    /// instead of the repository's `hooks/` (finding F57).
    pub hooks_paths: Vec<String>,
    /// The command lines its keys have git run ([`runs_command`]), each as the shell is
    /// given it (a `!` alias's or credential helper's without its `!`), in order (finding
    /// F60).
    pub commands: Vec<String>,
    /// The `attributesFile` and `excludesFile` values of its `[core]` sections, and the
    /// `excludesFile` values of any other section: the files git reads attributes and
    /// ignore patterns from instead of `~/.config/git/attributes` and `~/.config/git/ignore`
    /// (ripgrep and fd take an `excludesfile` line from the user's configuration whatever
    /// its section; finding F126).
    pub pattern_files: Vec<String>,
}

/// Whether `key` of `section` names a file git, ripgrep or fd reads patterns from
/// ([`Values::pattern_files`]).
fn names_pattern_file(section: &Section, key: &str) -> bool {
    key.eq_ignore_ascii_case("excludesFile")
        || (*section == Section::Core && key.eq_ignore_ascii_case("attributesFile"))
}

/// The section a key is in, as far as [`read_values`] cares.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Section {
    /// `[include]`, `[includeIf "…"]`.
    Include,
    /// `[core]`.
    Core,
    /// Any other: its name in lower case up to a `.` (`[filter.x]`, the old spelling of a
    /// subsection), and whether it has a subsection (quoted or old-style).
    Other { name: String, sub: bool },
}

impl Section {
    /// A section the reader does not care about.
    fn none() -> Section {
        Section::Other { name: String::new(), sub: false }
    }

    /// The section named `name` (in lower case), with a subsection or not: `[include]` and
    /// `[includeIf "…"]` are includes, `[core]` is core, the rest (`[include "x"]`, `[core
    /// "x"]` among them) another.
    fn named(name: String, sub: bool) -> Section {
        match (name.as_str(), sub) {
            ("include", false) | ("includeif", true) => Section::Include,
            ("core", false) => Section::Core,
            _ => Section::Other { name, sub },
        }
    }

    /// The section a header opens, its name as written (any case) and its subsection quoted
    /// or not. The old spelling of a subsection (`[filter.x]`, `[includeIf.gitdir]`) is
    /// never an include: a condition git can meet holds a `:`, which that spelling cannot.
    fn of_header(name: &str, quoted: bool) -> Section {
        let name = name.to_ascii_lowercase();
        match name.split_once('.') {
            Some((name, _)) => Section::Other { name: name.to_owned(), sub: true },
            None => Section::named(name, quoted),
        }
    }
}

/// The command line git runs for `key` (lower case) of `section` with the value `value`, when
/// git runs one: the commands a gate's `git status`, `git diff`, `git fetch` or `git log` may
/// start (checked with git 2.47 here: `git status` ran `core.fsmonitor`'s program, `git diff
/// --quiet` a filter's `clean`, `git diff` `diff.external`; each from the repository's top
/// folder), and the ones other commands run (a commit's `gpg.program`, an alias); git-lfs's
/// extensions and transfer agents, which its filter runs for the same `git diff --quiet`
/// (checked with git-lfs 3.3 here, from the repository's top folder) and its `pre-push`
/// hook for a push: a custom transfer agent's `path` and its `args` are each read as a
/// command line, so that a script named by either is found. A value
/// git reads as a boolean (`core.fsmonitor = true`, the built-in monitor; a pager turned
/// off) and a credential helper named without a path (`store`: git's own `git
/// credential-store`) run nothing of the user's, nor does a blank command.
fn runs_command(section: &Section, key: &str, value: &str) -> Option<String> {
    command_of(section, key, value).filter(|c| !c.trim().is_empty())
}

/// [`runs_command`], blank commands included.
fn command_of(section: &Section, key: &str, value: &str) -> Option<String> {
    let boolean = || {
        ["true", "false", "yes", "no", "on", "off", "1", "0"]
            .iter()
            .any(|b| value.eq_ignore_ascii_case(b))
    };
    let command = || Some(value.to_owned());
    match section {
        Section::Include => None,
        Section::Core => match key {
            "fsmonitor" | "pager" if boolean() => None,
            "fsmonitor" | "sshcommand" | "askpass" | "pager" | "editor" => command(),
            _ => None,
        },
        Section::Other { name, sub } => match (name.as_str(), *sub, key) {
            ("diff", false, "external")
            | ("diff", true, "command" | "textconv")
            | ("filter", true, "clean" | "smudge" | "process")
            | ("merge", true, "driver")
            | ("difftool" | "mergetool", true, "cmd" | "path")
            | ("gpg", _, "program")
            | ("sequence", false, "editor")
            | ("interactive", false, "difffilter")
            | ("remote", true, "uploadpack" | "receivepack")
            | ("uploadpack", false, "packobjectshook")
            | ("trailer", true, "command" | "cmd")
            // git-lfs's extensions (`lfs.extension.<name>.clean`, `.smudge`), run by its clean
            // and smudge filters, and its custom transfer agents
            // (`lfs.customtransfer.<name>.path` with its `args`), run by its transfers; no
            // other `lfs` subsection has these keys (finding F66).
            | ("lfs", true, "clean" | "smudge" | "path" | "args") => command(),
            ("pager", false, _) if boolean() => None,
            ("pager", false, _) => command(),
            ("alias", false, _) => value.strip_prefix('!').map(str::to_owned),
            ("credential", _, "helper") => match value.strip_prefix('!') {
                Some(line) => Some(line.to_owned()),
                // An absolute path runs that program; a bare name, `git credential-<name>`.
                None => value.starts_with(['/', '~']).then(|| value.to_owned()),
            },
            _ => None,
        },
    }
}

/// [`Values`] of `text`.
pub(crate) fn read_values(text: &str) -> Values {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).replace("\r\n", "\n");
    let mut reader = Reader { chars: text.chars().collect(), at: 0 };
    let mut found = Values::default();
    let mut section = Section::none();
    while let Some(c) = reader.next() {
        match c {
            c if c.is_whitespace() => {}
            '#' | ';' => reader.skip_line(),
            '[' => match reader.section() {
                Some(s) => section = s,
                None => {
                    section = Section::none();
                    reader.skip_line();
                }
            },
            c if c.is_ascii_alphabetic() => {
                let mut key = String::from(c);
                key.push_str(&reader.key());
                match reader.value() {
                    Some(value) if value.is_empty() => {}
                    Some(value)
                        if section == Section::Include && key.eq_ignore_ascii_case("path") =>
                    {
                        found.includes.push(value);
                    }
                    Some(value)
                        if section == Section::Core && key.eq_ignore_ascii_case("hooksPath") =>
                    {
                        found.hooks_paths.push(value);
                    }
                    Some(value) if names_pattern_file(&section, &key) => {
                        found.pattern_files.push(value);
                    }
                    Some(value) => {
                        let key = key.to_ascii_lowercase();
                        found.commands.extend(runs_command(&section, &key, &value));
                    }
                    None => reader.skip_line(),
                }
            }
            _ => reader.skip_line(),
        }
    }
    found
}

/// A position in a configuration file's characters (`\r\n` read as `\n`, as git reads it).
struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// Reads up to the end of the line, unless the last character read ended it.
    fn skip_line(&mut self) {
        if self.at > 0 && self.chars.get(self.at - 1) == Some(&'\n') {
            return;
        }
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }

    /// After `[`: reads the header up to its `]`; the section it opens (`[include]`,
    /// `[includeIf "<condition>"]`, `[core]`, in any case, or another); `None` for a header
    /// git refuses.
    fn section(&mut self) -> Option<Section> {
        let mut name = String::new();
        loop {
            match self.next()? {
                ']' if !name.is_empty() => return Some(Section::of_header(&name, false)),
                c if c.is_ascii_whitespace() && !name.is_empty() => {
                    if c == '\n' {
                        return None;
                    }
                    break;
                }
                c if c.is_ascii_alphanumeric() || c == '-' || c == '.' => name.push(c),
                _ => return None,
            }
        }
        // `[name "subsection"]`: blanks, a quoted subsection (a backslash takes the next
        // character as it is), `]`.
        let mut c = self.next()?;
        while c.is_ascii_whitespace() {
            if c == '\n' {
                return None;
            }
            c = self.next()?;
        }
        if c != '"' {
            return None;
        }
        loop {
            match self.next()? {
                '"' => break,
                '\n' => return None,
                // The escaped character is read by the guard.
                '\\' if self.next()? == '\n' => return None,
                _ => {}
            }
        }
        (self.next()? == ']').then(|| Section::of_header(&name, true))
    }

    /// The rest of a key after its first letter: letters, digits and `-`.
    fn key(&mut self) -> String {
        let mut key = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '-') {
            key.push(c);
            self.at += 1;
        }
        key
    }

    /// After a key: `= value` up to the end of its line (continued by a backslash at the end
    /// of a line), or nothing (a key alone is `true`, read as empty); `None` for a line git
    /// refuses (anything else after the key, an unknown escape, a quote still open at the
    /// line's end). The line's end is read.
    fn value(&mut self) -> Option<String> {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.at += 1;
        }
        match self.next() {
            None | Some('\n') => return Some(String::new()),
            Some('=') => {}
            Some(_) => return None,
        }
        let mut value = String::new();
        let (mut quoted, mut comment) = (false, false);
        // Blanks outside quotes count only when something follows them.
        let mut blanks = String::new();
        loop {
            let c = match self.next() {
                None | Some('\n') => return (!quoted).then_some(value),
                Some(_) if comment => continue,
                Some(c) => c,
            };
            match c {
                c if c.is_ascii_whitespace() && !quoted => {
                    if !value.is_empty() {
                        blanks.push(c);
                    }
                    continue;
                }
                '#' | ';' if !quoted => {
                    comment = true;
                    continue;
                }
                _ => {}
            }
            value.push_str(&blanks);
            blanks.clear();
            match c {
                '"' => quoted = !quoted,
                '\\' => match self.next() {
                    // At the end of the text, git reads a line's end.
                    None => return (!quoted).then_some(value),
                    Some('\n') => {}
                    Some('n') => value.push('\n'),
                    Some('t') => value.push('\t'),
                    Some('b') => value.push('\u{8}'),
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(_) => return None,
                },
                c => value.push(c),
            }
        }
    }
}

/// Where git finds an included file `value` names from the configuration file `config`: `~/`
/// under `home`, an absolute path as it is, a relative one from `config`'s folder. `None`
/// for what names no file here (`~user/`, `%(prefix)/`, an empty value, `~/` without a
/// home, a relative path without a `config`: git refuses a relative include given on the
/// command line or in the environment).
fn resolve(value: &str, config: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    if value.is_empty() || value.starts_with("%(") {
        return None;
    }
    if let Some(rest) = value.strip_prefix('~') {
        let rest = rest.strip_prefix('/')?;
        return home.map(|h| h.join(rest));
    }
    let path = Path::new(value);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    config.and_then(Path::parent).map(|folder| folder.join(path))
}

/// What git reads with a configuration file besides it, gathered in one walk of its includes
/// ([`read_git_configuration`]): each file is read once, for the files it includes and for
/// where it sends git for the hooks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitConfiguration {
    /// The files its includes name, and theirs, as written (`.git/../x`).
    included: Vec<PathBuf>,
    /// Its `core.hooksPath` values and those of the files it includes, `~/` under the home:
    /// absolute, or relative to the folder the hooks run in (a repository's top folder).
    hooks_paths: Vec<PathBuf>,
    /// The command lines its keys and those of the files it includes have git run, each
    /// once, in the order read (finding F60).
    commands: Vec<String>,
    /// The files its `core.attributesFile` and `core.excludesFile` values and those of the
    /// files it includes name, `~/` under the home: absolute, or relative to a repository's
    /// top folder (finding F126).
    pattern_files: Vec<PathBuf>,
}

/// What git reads when it reads the configuration file `config` (absolute), besides it, in one
/// walk: what its `[include]` and `[includeIf "…"]` sections name, whatever the condition, and
/// what those include, to git's depth of ten, at most 64 files, each once, whether
/// or not they exist (an include of a file missing now is read once it is made; finding F56);
/// and every `core.hooksPath` they set (finding F57; git takes the last one read across the
/// system's, the user's and the repository's files). `~/` is under `home`; a relative include
/// is from the including file's folder. Unreadable files include nothing; at most 256 KiB of
/// each is read.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let config = dir.path().join(".git/config");
/// std::fs::create_dir_all(config.parent().unwrap())?;
/// std::fs::write(&config, "[include]\n\tpath = ../.gitconfig\n[includeIf \"gitdir:~/w/\"]\n\tpath = ~/w.inc\n")?;
/// std::fs::write(dir.path().join(".gitconfig"), "[core]\n\thooksPath = ~/.husky/_\n")?;
/// let home = std::path::Path::new("/home/u");
/// let read = hooks_registry::read_git_configuration(&config, Some(home));
/// let included = read.included();
/// assert!(included.contains(&dir.path().join(".gitconfig")));
/// assert!(included.contains(&home.join("w.inc")));
/// assert_eq!(read.hooks_folders(), [home.join(".husky")]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_git_configuration(config: &Path, home: Option<&Path>) -> GitConfiguration {
    let mut read = GitConfiguration::default();
    let named = |text: &str, file: &Path| -> Vec<PathBuf> {
        let values = read_values(text);
        read.absorb(GitConfiguration {
            hooks_paths: values.hooks_paths.iter().filter_map(|v| config_path(v, home)).collect(),
            commands: values.commands,
            pattern_files: (values.pattern_files.iter())
                .filter_map(|v| config_path(v, home))
                .collect(),
            ..Default::default()
        });
        values
            .includes
            .iter()
            // As written (`.git/../x`): the system resolves it as git's `open` does.
            .filter_map(|value| resolve(value, Some(file), home).filter(|p| p.is_absolute()))
            .collect()
    };
    let included = crate::includes::follow(config, MAX_DEPTH, MAX_FILES, FILE_CAP, named, |p| {
        Some(p.as_path())
    });
    GitConfiguration { included, ..read }
}

/// Adds `found` to `commands`, each once, up to [`MAX_COMMANDS`].
fn add_commands(commands: &mut Vec<String>, found: impl IntoIterator<Item = String>) {
    for command in found {
        if commands.len() < MAX_COMMANDS && !commands.contains(&command) {
            commands.push(command);
        }
    }
}

/// The folder a `core.hooksPath` value names, or the file a `core.attributesFile` or
/// `core.excludesFile` value names: `~/` under `home`, anything else as written (relative
/// ones from the repository's top, which the caller knows); `None` for `~user/` or `~/`
/// without a home.
fn config_path(value: &str, home: Option<&Path>) -> Option<PathBuf> {
    match value.strip_prefix('~') {
        Some(rest) => Some(home?.join(rest.strip_prefix('/')?)),
        None => Some(PathBuf::from(value)),
    }
}

/// The section and the key (in lower case) of a configuration entry's name as git spells it
/// on the command line and in the environment (`core.fsmonitor`, `filter.nb.clean`,
/// `includeIf.gitdir:~/w/.path`: the subsection is what lies between the first and the last
/// dot); `None` for a name without a dot.
fn entry_section(name: &str) -> Option<(Section, String)> {
    let (section, rest) = name.split_once('.')?;
    let section = section.to_ascii_lowercase();
    let (sub, key) = match rest.rsplit_once('.') {
        Some((_, key)) => (true, key),
        None => (false, rest),
    };
    Some((Section::named(section, sub), key.to_ascii_lowercase()))
}

/// What a configuration entry given on git's command line (`git -c name=value`) or in the
/// environment a hook's line sets (`GIT_CONFIG_KEY_<n>`) has git do beyond a setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryEffect {
    /// Run this command line, as the same entry in a file does ([`runs_command`], finding
    /// F68: `core.fsmonitor`, a filter's `clean`, a `!` alias…).
    Command(String),
    /// Read this file as configuration (`include.path`, `includeIf.<condition>.path`;
    /// finding F69).
    Include(String),
    /// Run the repository's hooks from this folder (`core.hooksPath`; finding F69).
    HooksPath(String),
    /// Read attributes or ignore patterns from this file (`core.attributesFile`,
    /// `core.excludesFile`; finding F126).
    PatternFile(String),
}

/// What the configuration entry `name` = `value` has git do ([`EntryEffect`]); `None` for a
/// plain setting, a blank value and a name without a dot.
pub(crate) fn entry_effect(name: &str, value: &str) -> Option<EntryEffect> {
    let (section, key) = entry_section(name)?;
    if value.trim().is_empty() {
        return None;
    }
    match section {
        Section::Include if key == "path" => Some(EntryEffect::Include(value.to_owned())),
        Section::Core if key == "hookspath" => Some(EntryEffect::HooksPath(value.to_owned())),
        _ if names_pattern_file(&section, &key) => Some(EntryEffect::PatternFile(value.to_owned())),
        _ => runs_command(&section, &key, value).map(EntryEffect::Command),
    }
}

/// At most this many configuration entries of the environment are read.
const MAX_ENTRIES: usize = 256;

/// What git reads from configuration entries given without a file (`GIT_CONFIG_COUNT` with
/// `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>`, `GIT_CONFIG_PARAMETERS`, which `git -c`
/// sets for the commands it runs; finding F62): the files their `include.path` and
/// `includeIf.<condition>.path` entries name (absolute or from the home: git refuses a
/// relative include from there) and what those include in turn, as
/// [`read_git_configuration`] reads them; their `core.hooksPath`; the commands they have git
/// run (checked with git 2.47 here: a `core.fsmonitor` given either way, and one in a file an
/// entry includes, ran for `git status`). At most 256 entries.
///
/// ```
/// let home = std::path::Path::new("/home/u");
/// let entries = [
///     ("core.fsmonitor".to_owned(), "~/bin/watch.sh".to_owned()),
///     ("include.path".to_owned(), "/etc/team.gitconfig".to_owned()),
/// ];
/// let read = hooks_registry::read_git_configuration_entries(&entries, Some(home));
/// assert_eq!(read.commands(), ["~/bin/watch.sh"]);
/// assert!(read.included().contains(&std::path::PathBuf::from("/etc/team.gitconfig")));
/// ```
pub fn read_git_configuration_entries(
    entries: &[(String, String)],
    home: Option<&Path>,
) -> GitConfiguration {
    let mut read = GitConfiguration::default();
    let mut includes: Vec<PathBuf> = Vec::new();
    for (name, value) in entries.iter().take(MAX_ENTRIES) {
        let Some((section, key)) = entry_section(name) else { continue };
        if value.trim().is_empty() {
            continue;
        }
        match section {
            // No including file: a relative include names nothing.
            Section::Include if key == "path" => includes.extend(resolve(value, None, home)),
            Section::Core if key == "hookspath" => {
                let hooks_paths = config_path(value, home).into_iter().collect();
                read.absorb(GitConfiguration { hooks_paths, ..Default::default() });
            }
            _ if names_pattern_file(&section, &key) => {
                let pattern_files = config_path(value, home).into_iter().collect();
                read.absorb(GitConfiguration { pattern_files, ..Default::default() });
            }
            _ => add_commands(&mut read.commands, runs_command(&section, &key, value)),
        }
    }
    for file in includes {
        let inner = read_git_configuration(&file, home);
        read.absorb(GitConfiguration { included: vec![file], ..Default::default() });
        read.absorb(inner);
    }
    read
}

/// The entries of a `GIT_CONFIG_PARAMETERS` value, as git writes it for `git -c` (each entry
/// `'<name>'='<value>'`, or `'<name>=<value>'` as older gits wrote it, quoted as the shell
/// quotes, a `'` written `'\''` and a `!` `'\!'`, entries apart by blanks); a name alone
/// has no value.
///
/// ```
/// let entries = hooks_registry::git_config_parameters(
///     r#"'core.fsmonitor'='/x/mon.sh' 'alias.q'=''\!'sh ~/q.sh' 'user.name=it'\''s'"#,
/// );
/// assert_eq!(entries, [
///     ("core.fsmonitor".to_owned(), "/x/mon.sh".to_owned()),
///     ("alias.q".to_owned(), "!sh ~/q.sh".to_owned()),
///     ("user.name".to_owned(), "it's".to_owned()),
/// ]);
/// ```
pub fn git_config_parameters(text: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut word = String::new();
    // Where the unquoted `=` between a quoted name and a quoted value is in `word`.
    let mut separator: Option<usize> = None;
    let (mut quoted, mut started) = (false, false);
    let mut finish = |word: &mut String, separator: &mut Option<usize>| {
        let (name, value) = match separator.take() {
            Some(at) => (word[..at].to_owned(), word[at + 1..].to_owned()),
            None => match word.split_once('=') {
                Some((name, value)) => (name.to_owned(), value.to_owned()),
                None => (word.clone(), String::new()),
            },
        };
        if !name.is_empty() && entries.len() < MAX_ENTRIES {
            entries.push((name, value));
        }
        word.clear();
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '\'' {
                quoted = false;
            } else {
                word.push(c);
            }
            continue;
        }
        match c {
            '\'' => {
                quoted = true;
                started = true;
            }
            '\\' => {
                word.extend(chars.next());
                started = true;
            }
            '=' if separator.is_none() => {
                separator = Some(word.len());
                word.push('=');
                started = true;
            }
            c if c.is_whitespace() => {
                if started {
                    finish(&mut word, &mut separator);
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        finish(&mut word, &mut separator);
    }
    entries
}

impl GitConfiguration {
    /// Adds what `other` holds and this does not yet, in `other`'s order.
    fn absorb(&mut self, other: GitConfiguration) {
        for path in other.included {
            if !self.included.contains(&path) {
                self.included.push(path);
            }
        }
        for (list, more) in [
            (&mut self.hooks_paths, other.hooks_paths),
            (&mut self.pattern_files, other.pattern_files),
        ] {
            for path in more {
                if !list.contains(&path) {
                    list.push(path);
                }
            }
        }
        add_commands(&mut self.commands, other.commands);
    }

    /// The files it includes, each as written with `.` and `..` taken lexically, and also
    /// where the system takes it when its folder is reached through a link (`.git` a link:
    /// `.git/../x` is beside the link's target).
    pub fn included(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for included in &self.included {
            let physical = (included.parent().and_then(|p| crate::canonicalize(p).ok()))
                .zip(included.file_name())
                .map(|(folder, name)| folder.as_path().join(name));
            let lexical = crate::paths::normalize_absolute(included).map(|p| p.into_path_buf());
            for path in lexical.into_iter().chain(physical) {
                if !out.contains(&path) {
                    out.push(path);
                }
            }
        }
        out
    }

    /// The hooks folders it names absolutely or from the home, then those it names relative
    /// to the folder the hooks run in, as written.
    pub(crate) fn hooks_paths(&self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        self.hooks_paths.iter().cloned().partition(|f| f.is_absolute())
    }

    /// The folders it sends git to for a repository's hooks when it names them absolutely or
    /// from the home, each as a folder to protect whole (husky's `.husky/_` as `.husky`,
    /// the folder above); a relative one names a folder of each repository and is left
    /// out.
    pub fn hooks_folders(&self) -> Vec<PathBuf> {
        self.hooks_paths().0.iter().map(|f| hooks_folder_whole(f)).collect()
    }

    /// The files it has git read attributes and ignore patterns from (`core.attributesFile`,
    /// `core.excludesFile`, and ripgrep's and fd's `excludesfile` of any section; finding
    /// F126), named absolutely or from the home, then those named relative to a repository's
    /// top folder (where git takes them from), as written.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let config = dir.path().join(".gitconfig");
    /// std::fs::write(&config, "[core]\n\texcludesFile = ~/.gitignore_global\n\tattributesFile = ci/attrs\n")?;
    /// let home = std::path::Path::new("/home/u");
    /// let read = hooks_registry::read_git_configuration(&config, Some(home));
    /// let (absolute, relative) = read.pattern_files();
    /// assert_eq!(absolute, [home.join(".gitignore_global")]);
    /// assert_eq!(relative, [std::path::PathBuf::from("ci/attrs")]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn pattern_files(&self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        self.pattern_files.iter().cloned().partition(|f| f.is_absolute())
    }

    /// The command lines it has git run (`core.fsmonitor`, `core.sshCommand`, a filter's
    /// `clean`, a diff driver's `textconv`, `diff.external`, a `!` alias, a credential
    /// helper's program…; finding F60), as the shell is given them: git runs each through
    /// the shell from the repository's top folder, so what each line runs and loads is
    /// the analysis of a hook's own line ([`crate::analyse`]).
    pub fn commands(&self) -> &[String] {
        &self.commands
    }

    /// The files the lines of [`GitConfiguration::commands`] name absolutely or from the
    /// home (`~/bin/fsmonitor.sh`, `python3 ~/tools/textconv.py`), as the analysis of a
    /// hook's own line finds them (the program, the script an interpreter runs, what an
    /// option loads, an argument), `~` under `home`: what a caller that does not know the
    /// repository's top folder can protect of them. A path relative to that folder is left
    /// out.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let config = dir.path().join("gitconfig");
    /// std::fs::write(&config, "[core]\n\tfsmonitor = ~/bin/watch.sh\n[diff \"nb\"]\n\ttextconv = python3 /opt/tc.py\n")?;
    /// let home = std::path::Path::new("/home/u");
    /// let read = hooks_registry::read_git_configuration(&config, Some(home));
    /// let files = read.command_files(Some(home));
    /// assert!(files.contains(&home.join("bin/watch.sh")));
    /// assert!(files.contains(&std::path::PathBuf::from("/opt/tc.py")));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn command_files(&self, home: Option<&Path>) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for line in &self.commands {
            for path in command_line_files(line, home) {
                if !out.contains(&path) {
                    out.push(path);
                }
            }
        }
        out
    }
}

/// The files the shell command line `line` names absolutely or from the home, as the analysis
/// of a hook's own line finds them ([`crate::analyse`]: the program, the script an interpreter
/// runs, what an option loads, an argument), `~` under `home`; a path relative to where the
/// line runs is left out. What a caller that does not know where a program runs the line
/// (git's `GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`; the commands of the git configuration the
/// environment names) can protect of it (findings F60, F62). A file `ssh -F` names is read as
/// ssh reads it (finding F67): the files its `Include`s name (relative ones from `~/.ssh`),
/// the libraries it loads and what the commands its lines run name, the same way; one the
/// line has git read as configuration (finding F69), for what it includes and what its
/// commands name.
///
/// ```
/// let home = std::path::Path::new("/home/u");
/// let files = hooks_registry::command_line_files("ssh -F ~/.ssh/work_config -i /k", Some(home));
/// assert!(files.contains(&home.join(".ssh/work_config")));
/// ```
pub fn command_line_files(line: &str, home: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    line_files(line, home, true, &mut out);
    out
}

/// [`command_line_files`] into `out`; `read_configs`: whether the files the line has ssh and
/// git read as configuration are read (not for the lines those files run).
fn line_files(line: &str, home: Option<&Path>, read_configs: bool, out: &mut Vec<PathBuf>) {
    let push = |path: PathBuf, out: &mut Vec<PathBuf>| {
        if !out.contains(&path) {
            out.push(path);
        }
    };
    let placed = |named: crate::NamedPath| match named.base {
        crate::PathBase::Root => Some(named.path),
        crate::PathBase::Home => home.map(|home| home.join(&named.path)),
        _ => None,
    };
    let command = hooks_schema::HookCommand::Shell { script: line.to_owned(), shell: None };
    let analysis = crate::scripts::analyse(&command);
    for path in analysis.paths.into_iter().filter_map(placed) {
        push(path, out);
    }
    if !read_configs {
        return;
    }
    // A file the line has git read as configuration (`git -c include.path=~/…`,
    // `GIT_CONFIG_GLOBAL=…`; finding F69): what it includes and what its commands name.
    let git_configs: Vec<PathBuf> = analysis.git_configs.into_iter().filter_map(placed).collect();
    for config in git_configs {
        let read = read_git_configuration(&config, home);
        for included in read.included() {
            push(included.clone(), out);
        }
        for command in read.commands() {
            line_files(command, home, false, out);
        }
    }
    for config in analysis.ssh_configs.into_iter().filter_map(placed) {
        let folder = match home {
            Some(home) => home.join(".ssh"),
            None => config.parent().map(Path::to_path_buf).unwrap_or_default(),
        };
        let read = crate::sshconfig::read_ssh_configuration(&config, &folder, home, None);
        for place in read.included {
            match place {
                crate::sshconfig::Included::File(f) | crate::sshconfig::Included::Folder(f) => {
                    push(f, out)
                }
            }
        }
        for run in read.runs {
            match run {
                crate::sshconfig::Runs::Command(command) => line_files(&command, home, false, out),
                crate::sshconfig::Runs::Library(library) => {
                    if let Some(path) = crate::paths::home_or_absolute(&library, home) {
                        push(path, out);
                    }
                }
            }
        }
    }
}

/// The folder to protect whole for a hooks folder git is sent to: the folder itself, or for
/// husky's (`.husky/_`, whose scripts run the files of the folder above with `sh`) the folder
/// above.
pub(crate) fn hooks_folder_whole(folder: &Path) -> PathBuf {
    match folder.parent().filter(|_| folder.file_name().is_some_and(|n| n == "_")) {
        Some(above) => above.to_path_buf(),
        None => folder.to_path_buf(),
    }
}

#[cfg(test)]
mod tests;
