//! The installation a hook's interpreter starts from, found on the file system.
//!
//! An interpreter reads more than its script before the script's first line. Python runs the
//! `.pth` files of its `site-packages` and imports its standard library (a virtual
//! environment's `pyvenv.cfg` names the installation it takes that library from); Ruby loads
//! RubyGems from its library at every start; Perl and Node load their modules from there.
//! When that installation is the user's to write (an activated project `.venv` first on
//! `PATH`, a pyenv, rbenv, asdf or mise version in the home, a conda or uv-managed Python), an
//! agent that writes one `.pth` file there ends every Python hook with an allow's exit code
//! (finding F47, `specs/hardening.md`). The command analysis ([`crate::scripts`]) names the
//! interpreters a command runs; this module finds which file each one is (the first on the
//! hooks' `PATH` for a name) and what it starts from. Every read is capped and opened without
//! blocking; what cannot be read names nothing more.

use std::{
    io::Read,
    path::{Path, PathBuf},
};

use hooks_schema::AbsPathBuf;

use crate::scripts::Family;

/// How much of a shim or a `pyvenv.cfg` is read (both are a few hundred bytes).
const SMALL_FILE_CAP: u64 = 4096;

/// The first executable file named `name` in `folders`, in order: the program a hook's
/// command finds on its `PATH` when it names one without a `/`.
pub(crate) fn find_program(name: &str, folders: &[AbsPathBuf]) -> Option<PathBuf> {
    if name.is_empty() || name.contains('/') {
        return None;
    }
    folders.iter().map(|f| f.as_path().join(name)).find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// What the interpreter at `program` (absolute), of `family`, starts from, each to be
/// protected whole: for the program as named and for the file it resolves to through symbolic
/// links (a venv's `bin/python3` links to its base installation's), a `bin/` folder's
/// installation or environment (its `lib/` and `lib64/`, and the folders of that prefix the
/// family's system builds load modules from, [`system_module_folders`]; for a Python also its
/// `pyvenv.cfg` and the `lib/` of the installation whose `bin/` that `pyvenv.cfg` names as its
/// `home`); a version manager's shim (a program in a `shims/` folder: pyenv's, rbenv's,
/// asdf's, mise's) the manager's folder above it, which holds every version it may pick, its
/// own program and its hooks (pyenv's `pyenv.d/exec/*.bash` run at each start), and the
/// `PYENV_ROOT` a pyenv shim names. Sorted, without duplicates.
pub(crate) fn installation(program: &Path, family: Family) -> Vec<PathBuf> {
    let mut programs = vec![program.to_path_buf()];
    if let Ok(canonical) = crate::paths::canonicalize(program)
        && canonical.as_path() != program
    {
        programs.push(canonical.into_path_buf());
    }
    // A version in a name (`python3.11`) names the folder a Python's version loads from.
    let versions: Vec<&str> = programs
        .iter()
        .filter_map(|p| p.file_name()?.to_str())
        .filter(|name| {
            name.strip_prefix("python").and_then(|v| v.split_once('.')).is_some_and(
                |(major, minor)| {
                    [major, minor]
                        .iter()
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                },
            )
        })
        .collect();
    let mut found = Vec::new();
    for program in &programs {
        let Some(folder) = program.parent() else { continue };
        let Some(prefix) = folder.parent() else { continue };
        match folder.file_name().and_then(|n| n.to_str()) {
            Some("bin") => {
                found.push(prefix.join("lib"));
                found.push(prefix.join("lib64"));
                found.extend(system_module_folders(prefix, family, &versions));
                if family == Family::Python {
                    let config = prefix.join("pyvenv.cfg");
                    if let Some(base) = venv_home(&config).as_deref().and_then(Path::parent) {
                        found.push(base.join("lib"));
                    }
                    found.push(config);
                }
            }
            Some("shims") => {
                found.push(prefix.to_path_buf());
                found.extend(pyenv_root(program));
            }
            _ => {}
        }
    }
    found.retain(|p| p.is_absolute());
    found.sort();
    found.dedup();
    found
}

/// The files a version manager reads to pick the version its shim `program` runs, when
/// `program` is one (a program in a `shims/` folder, the manager's folder above it named as
/// the manager is): the names it looks for in the folder the program runs in and in each
/// folder above it (pyenv's `.python-version`, rbenv's `.ruby-version`, asdf's
/// `.tool-versions`, mise's configurations), and those under the home it falls back to
/// (asdf's `~/.tool-versions`). Finding F120: one naming another installed version has a
/// hook run under an interpreter its script was not written for (a gate using `match` fails
/// to parse under Python 3.8, an allow), one naming no installed version fails the start.
/// `None` for a program that is no shim of a manager known here.
pub(crate) fn version_files(program: &Path) -> Option<VersionFiles> {
    let folder = program.parent()?;
    if folder.file_name()? != "shims" {
        return None;
    }
    let manager = folder.parent()?.file_name()?.to_str()?.trim_start_matches('.');
    // Each manager's own file; asdf and mise also read the other managers' ("legacy" and
    // "idiomatic" version files) when their configuration says so: protected all the same.
    let own = |name: &'static str| VersionFiles { here: vec![name], home: &[] };
    Some(match manager {
        "pyenv" => own(".python-version"),
        "rbenv" => own(".ruby-version"),
        "nodenv" => own(".node-version"),
        "goenv" => own(".go-version"),
        "jenv" => own(".java-version"),
        "plenv" => own(".perl-version"),
        "phpenv" => own(".php-version"),
        "luaenv" => own(".lua-version"),
        "asdf" => VersionFiles {
            here: [".tool-versions"].iter().chain(VERSION_FILES).copied().collect(),
            home: &[".tool-versions"],
        },
        "mise" => VersionFiles {
            here: [".tool-versions"]
                .iter()
                .chain(crate::scripts::MISE_CONFIGS)
                .chain(VERSION_FILES)
                .copied()
                .collect(),
            home: &[".tool-versions", ".config/mise/config.toml"],
        },
        _ => return None,
    })
}

/// Every file a version manager known here picks the version by, by name: each manager's
/// own, and asdf's `.tool-versions` ([`version_files`]; mise's configurations are
/// [`crate::scripts::MISE_CONFIGS`]). Each is looked for from where the program runs up.
pub(crate) const VERSION_FILES: &[&str] = &[
    ".python-version",
    ".ruby-version",
    ".node-version",
    ".nvmrc",
    ".go-version",
    ".java-version",
    ".perl-version",
    ".php-version",
    ".lua-version",
];

/// The version files of one manager ([`version_files`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VersionFiles {
    /// Looked for where the program runs and in each folder above.
    pub(crate) here: Vec<&'static str>,
    /// Under the home.
    pub(crate) home: &'static [&'static str],
}

/// The folders of an installation's `prefix` (the folder above its `bin/`), beyond `lib/` and
/// `lib64/`, that the system builds of the `family`'s interpreter load modules from, where a
/// file written runs at the interpreter's start or at the script's first `import`, `use` or
/// `require` (finding F51, `specs/hardening.md`):
/// - Python: `local/lib/python3.X` and `local/lib64/python3.X` (Debian's and Ubuntu's
///   `/usr/bin/python3` runs the `.pth` files of `/usr/local/lib/python3.X/dist-packages`,
///   Fedora's those of `/usr/local/lib{,64}/python3.X/site-packages`), the version read from
///   the program's names, or `local/lib` and `local/lib64` whole when no name says it;
/// - Perl: `share/perl`, `share/perl5`, `local/share/perl`, `local/share/perl5`, `local/lib`,
///   `local/lib64` (Debian's `@INC` holds `/usr/local/lib/<triplet>/perl/5.X`,
///   `/usr/local/share/perl/5.X`, `/usr/share/perl5`, `/usr/share/perl/5.X` and
///   `/usr/local/lib/site_perl`; Fedora's `/usr/local/lib64/perl5`, `/usr/local/share/perl5`,
///   `/usr/share/perl5`), and for `/usr` also `/etc/perl`, the first folder of Debian's `@INC`;
/// - Ruby: `share/ruby`, `share/gems`, `share/rubygems-integration`, `local/lib/site_ruby`,
///   `local/share/ruby`, `local/share/gems` (Fedora keeps the standard library in
///   `/usr/share/ruby`), and for `/usr` also `/var/lib/gems` (Debian's gem folder);
/// - Node: `share/nodejs` (one of Debian's global folders for `require`).
fn system_module_folders(prefix: &Path, family: Family, versions: &[&str]) -> Vec<PathBuf> {
    let usr = prefix == Path::new("/usr");
    let mut folders: Vec<PathBuf> = match family {
        Family::Python if versions.is_empty() => vec!["local/lib".into(), "local/lib64".into()],
        Family::Python => versions
            .iter()
            .flat_map(|v| [Path::new("local/lib").join(v), Path::new("local/lib64").join(v)])
            .collect(),
        Family::Perl => [
            "share/perl",
            "share/perl5",
            "local/share/perl",
            "local/share/perl5",
            "local/lib",
            "local/lib64",
        ]
        .map(PathBuf::from)
        .into(),
        Family::Ruby => [
            "share/ruby",
            "share/gems",
            "share/rubygems-integration",
            "local/lib/site_ruby",
            "local/share/ruby",
            "local/share/gems",
        ]
        .map(PathBuf::from)
        .into(),
        Family::Node => vec!["share/nodejs".into()],
        Family::Other => Vec::new(),
    };
    folders.iter_mut().for_each(|f| *f = prefix.join(&*f));
    match family {
        Family::Perl if usr => folders.push("/etc/perl".into()),
        Family::Ruby if usr => folders.push("/var/lib/gems".into()),
        _ => {}
    }
    folders
}

/// The configuration files of its installation the program at `program` reads at every start
/// (finding F52, [`crate::scripts::SYSTEM_CONFIGS`] by its name): for a program in a `bin/`
/// folder, those under that folder's prefix as it is named (a Homebrew git in
/// `/opt/homebrew/bin` reads `/opt/homebrew/etc/gitconfig`, wherever its link leads), and for
/// `/usr` those of the system besides (`/etc/gitconfig`).
pub(crate) fn system_configs(program: &Path) -> Vec<PathBuf> {
    let Some(name) = program.file_name().and_then(|n| n.to_str()) else { return Vec::new() };
    let Some((under, usr)) = crate::scripts::system_configs_of(name) else { return Vec::new() };
    let Some(folder) = program.parent() else { return Vec::new() };
    let Some(prefix) = folder.parent() else { return Vec::new() };
    if folder.file_name().and_then(|n| n.to_str()) != Some("bin") {
        return Vec::new();
    }
    let mut found: Vec<PathBuf> = under.iter().map(|f| prefix.join(f)).collect();
    if prefix == Path::new("/usr") {
        found.extend(usr.iter().map(PathBuf::from));
    }
    found.retain(|p| p.is_absolute());
    found
}

/// The start of a small regular file, read without blocking (a FIFO put in its place reads
/// as nothing), at most [`SMALL_FILE_CAP`] bytes.
pub(crate) fn read_small(path: &Path) -> Option<String> {
    read_capped(path, SMALL_FILE_CAP)
}

/// The start of a regular file, read without blocking (a FIFO put in its place reads as
/// nothing), at most `cap` bytes.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Option<String> {
    let mut file = crate::paths::open_nonblocking(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    (&mut file).take(cap).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The `home` a virtual environment's `pyvenv.cfg` names (`home = /usr/local/bin`): the
/// `bin/` folder of the installation whose standard library the environment runs with.
fn venv_home(config: &Path) -> Option<PathBuf> {
    read_small(config)?.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        let home = PathBuf::from(value.trim());
        (key.trim() == "home" && home.is_absolute()).then_some(home)
    })
}

/// The folder a pyenv shim sets `PYENV_ROOT` to (`export PYENV_ROOT="/home/u/.pyenv"`),
/// when it says so: the shims may live apart from it.
fn pyenv_root(shim: &Path) -> Option<PathBuf> {
    let text = read_small(shim)?;
    let start = text.find("PYENV_ROOT=")? + "PYENV_ROOT=".len();
    let value = text[start..].lines().next()?.trim();
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    let root = PathBuf::from(value);
    root.is_absolute().then_some(root)
}

#[cfg(test)]
mod tests;
