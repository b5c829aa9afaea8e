//! The files an ssh configuration file includes (`Include` lines): ssh reads them as part of
//! it, so a `Match exec` line in one runs its command whenever ssh starts (finding F58).
//!
//! [`include_arguments`] reads the text as ssh's `readconf.c` does (a keyword and its
//! arguments split at blanks or one `=`, double quotes around an argument, `#` comments, the
//! keyword in any case, in or outside a `Host`/`Match` block); [`read_ssh_configuration`]
//! follows them from a file, to ssh's depth of sixteen.
//!
//! In the same walk it reads the commands a configuration has ssh run and the libraries it
//! has ssh load (finding F61): [`runs`].

use std::path::{Path, PathBuf};

/// How deep ssh follows includes (`READCONF_MAX_DEPTH`).
const MAX_DEPTH: usize = 16;

/// At most this many included places are followed from one configuration file.
const MAX_PLACES: usize = 64;

/// How much of a configuration file is read.
const FILE_CAP: u64 = 256 * 1024;

/// The arguments of `text`'s `Include` lines, in order, unquoted; a line whose quotes do not
/// close (which ssh refuses) gives none.
pub(crate) fn include_arguments(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (keyword, rest) in keyword_lines(text) {
        if !keyword.eq_ignore_ascii_case("include") {
            continue;
        }
        if let Some(arguments) = arguments(rest) {
            found.extend(arguments);
        }
    }
    found
}

/// At most this many files of a wildcard's folder are read ([`read_ssh_configuration`]).
const MAX_WILDCARD_FILES: usize = 64;

/// Whether `argument`'s wildcard characters are all in its last component.
fn wild_in_last_component_only(argument: &str) -> bool {
    let wild = |s: &str| s.contains(['*', '?', '[']);
    match argument.rsplit_once('/') {
        Some((folder, name)) => !wild(folder) && wild(name),
        None => wild(argument),
    }
}

/// The regular files (links followed) directly in `dir`, by name, at most
/// [`MAX_WILDCARD_FILES`]; none when it cannot be listed.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<PathBuf> =
        entries.filter_map(Result::ok).take(MAX_WILDCARD_FILES * 4).map(|e| e.path()).collect();
    names.sort();
    names.retain(|p| p.is_file());
    names.truncate(MAX_WILDCARD_FILES);
    names
}

/// What a configuration's line has ssh run or load of the user's (finding F61).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Runs {
    /// A command line ssh gives the user's shell: `ProxyCommand` (run for every connection
    /// to a host it applies to: a gate's `git fetch` over ssh), `KnownHostsCommand` (for
    /// every host key checked), `LocalCommand`, a `Match exec` criterion (run while the
    /// configuration is read, at every start: checked with OpenSSH 9.2 here, `ssh -G` ran it),
    /// with ssh's `%d` (the home it takes from the password database) as that home, or `~`.
    Command(String),
    /// A library ssh loads: `PKCS11Provider`, `SecurityKeyProvider`.
    Library(String),
}

/// What `text`'s lines have ssh run or load ([`Runs`]), in order, `%d` as `home` (ssh's:
/// `UserPaths::ssh_home` where it is not `$HOME`) or, unknown, `~`; `none` and a line whose
/// quotes do not close give nothing.
pub(crate) fn runs(text: &str, home: Option<&Path>) -> Vec<Runs> {
    let mut found = Vec::new();
    for (keyword, rest) in keyword_lines(text) {
        let keyword = keyword.to_ascii_lowercase();
        match keyword.as_str() {
            // The rest of the line, as ssh keeps it (`parse_command`): the shell reads it.
            "proxycommand" | "localcommand" | "knownhostscommand" => {
                let command = rest.trim_end_matches([' ', '\t', '\r', '\n']);
                // A blank command (a vertical tab, which ssh keeps) runs nothing.
                if !command.trim().is_empty() && !command.eq_ignore_ascii_case("none") {
                    found.push(Runs::Command(with_home_token(command, home)));
                }
            }
            "pkcs11provider" | "securitykeyprovider" => {
                if let Some(library) = arguments(rest).and_then(|a| a.into_iter().next())
                    && !library.trim().is_empty()
                    && !library.eq_ignore_ascii_case("none")
                    && !library.eq_ignore_ascii_case("internal")
                {
                    found.push(Runs::Library(with_home_token(&library, home)));
                }
            }
            // `Match [!]exec "command"`, among other criteria, each followed by its argument
            // but `all`, `canonical`, `final`.
            "match" => {
                let Some(words) = arguments(rest) else { continue };
                let mut words = words.into_iter();
                while let Some(word) = words.next() {
                    let criterion = word.trim_start_matches('!').to_ascii_lowercase();
                    if matches!(criterion.as_str(), "all" | "canonical" | "final") {
                        continue;
                    }
                    let Some(argument) = words.next() else { break };
                    if criterion == "exec" && !argument.trim().is_empty() {
                        found.push(Runs::Command(with_home_token(&argument, home)));
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// `text` with ssh's `%d` (the local home, from the password database) as `home`, or as `~`
/// when it is not known (or not UTF-8), so that the analysis of a command line finds what it
/// names under the home ssh means.
fn with_home_token(text: &str, home: Option<&Path>) -> String {
    let token = home.and_then(Path::to_str).unwrap_or("~");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('d') => out.push_str(token),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// Each line of `text` that is not a comment, as its keyword and what follows it
/// ([`split_keyword`]).
fn keyword_lines(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines()
        .map(|line| line.trim_start_matches([' ', '\t', '\r', '\n']))
        .filter(|line| !line.starts_with('#'))
        .filter_map(split_keyword)
}

/// A line's keyword and the text after it and its separator (blanks, or blanks around one
/// `=`).
fn split_keyword(line: &str) -> Option<(&str, &str)> {
    let end = line.find([' ', '\t', '=', '\r'])?;
    let (keyword, rest) = line.split_at(end);
    if keyword.is_empty() {
        return None;
    }
    let rest = rest.trim_start_matches([' ', '\t', '\r']);
    let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start_matches([' ', '\t', '\r']);
    Some((keyword, rest))
}

/// The arguments of `text`: split at blanks, a double-quoted one taken whole without its
/// quotes, up to a `#` that starts an argument; `None` when a quote does not close.
fn arguments(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text.trim_end_matches(['\r', '\n']);
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        if rest.is_empty() || rest.starts_with('#') {
            return Some(out);
        }
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"')?;
            // `""`, which ssh refuses, names nothing.
            if end > 0 {
                out.push(quoted[..end].to_owned());
            }
            rest = &quoted[end + 1..];
        } else {
            let end = rest.find([' ', '\t', '\r', '\n']).unwrap_or(rest.len());
            out.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
}

/// What an `Include` argument names, for a configuration read from the folder `folder`
/// (`~/.ssh` for the user's, `/etc/ssh` for the system's: ssh takes a relative argument from
/// there): a file, or, for an argument with a wildcard (`config.d/*`), the folder before its
/// first component that has one, whose every file may be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Included {
    File(PathBuf),
    Folder(PathBuf),
}

impl Included {
    /// The file it is, to read for its own includes (a wildcard's folder is not read).
    fn file(&self) -> Option<&Path> {
        match self {
            Included::File(file) => Some(file),
            Included::Folder(_) => None,
        }
    }
}

/// [`Included`] for `argument` from `folder`; `~/` under `home`; `None` for what names no
/// place here (`~user/`, `~/` without a home, an empty argument).
fn resolve(argument: &str, folder: &Path, home: Option<&Path>) -> Option<Included> {
    if argument.is_empty() {
        return None;
    }
    let path = match argument.strip_prefix('~') {
        Some(rest) => home?.join(rest.strip_prefix('/')?),
        None if Path::new(argument).is_absolute() => PathBuf::from(argument),
        None => folder.join(argument),
    };
    let wild =
        |c: &std::path::Component<'_>| c.as_os_str().to_string_lossy().contains(['*', '?', '[']);
    match path.components().position(|c| wild(&c)) {
        None => Some(Included::File(path)),
        Some(at) => Some(Included::Folder(path.components().take(at).collect())),
    }
}

/// What ssh reads and runs when it reads a configuration file, gathered in one walk
/// ([`read_ssh_configuration`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SshConfiguration {
    /// The places its `Include` lines name, and theirs.
    pub(crate) included: Vec<Included>,
    /// What its lines and those of the files it includes have ssh run or load, each once.
    pub(crate) runs: Vec<Runs>,
}

/// At most this many of the commands and libraries of a configuration and what it includes
/// are kept.
const MAX_RUNS: usize = 256;

/// The places ssh reads when it reads the configuration file `config` (absolute), besides it,
/// its relative `Include`s taken from `folder` (`~/.ssh` or `/etc/ssh`), `~/` under `home`:
/// the files its `Include` lines name and theirs, to ssh's depth of sixteen, and the folders
/// a wildcard reads from, at most [`MAX_PLACES`], each once, whether or not they exist; and
/// what the lines of `config` and of the files read have ssh run or load ([`runs`], `%d` as
/// `~` and, where the home ssh takes from the password database is not `$HOME`, as
/// `ssh_home` too). Where the wildcard is in an argument's last component only (`Include
/// config.d/*`), the regular files of its folder are read too, for their includes and what
/// they run, whether or not the pattern matches them (ssh reads those it matches; reading the
/// others only protects more), at most [`MAX_WILDCARD_FILES`] by name of the first few
/// hundred the folder lists; a deeper wildcard's files are not read. Unreadable files
/// include nothing.
pub(crate) fn read_ssh_configuration(
    config: &Path,
    folder: &Path,
    home: Option<&Path>,
    ssh_home: Option<&Path>,
) -> SshConfiguration {
    let mut found_runs: Vec<Runs> = Vec::new();
    let named = |text: &str, _: &Path| -> Vec<Included> {
        // `%d` as `~` too: which of the two homes a user's ssh takes is the system's to say,
        // and protecting both costs nothing.
        let more = ssh_home.map(|_| runs(text, None)).unwrap_or_default();
        for run in runs(text, ssh_home).into_iter().chain(more) {
            if found_runs.len() < MAX_RUNS && !found_runs.contains(&run) {
                found_runs.push(run);
            }
        }
        let mut places = Vec::new();
        for argument in include_arguments(text) {
            let Some(place) = resolve(&argument, folder, home) else { continue };
            let files = match &place {
                Included::Folder(dir) if wild_in_last_component_only(&argument) => files_in(dir),
                _ => Vec::new(),
            };
            places.push(place);
            places.extend(files.into_iter().map(Included::File));
        }
        places
    };
    let included =
        crate::includes::follow(config, MAX_DEPTH, MAX_PLACES, FILE_CAP, named, Included::file);
    SshConfiguration { included, runs: found_runs }
}

#[cfg(test)]
mod tests;
