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

/// What the interpreter at `program` (absolute) starts from, each to be protected whole: for
/// the program as named and for the file it resolves to through symbolic links (a venv's
/// `bin/python3` links to its base installation's), a `bin/` folder's installation or
/// environment (its `lib/`; for a Python, `python`, also its `pyvenv.cfg` and the `lib/` of
/// the installation whose `bin/` that `pyvenv.cfg` names as its `home`); a version manager's
/// shim (a program in a `shims/` folder: pyenv's, rbenv's, asdf's, mise's) the manager's
/// folder above it, which holds every version it may pick, its own program and its hooks
/// (pyenv's `pyenv.d/exec/*.bash` run at each start), and the `PYENV_ROOT` a pyenv shim
/// names. Sorted, without duplicates.
pub(crate) fn installation(program: &Path, python: bool) -> Vec<PathBuf> {
    let mut programs = vec![program.to_path_buf()];
    if let Ok(canonical) = crate::paths::canonicalize(program)
        && canonical.as_path() != program
    {
        programs.push(canonical.into_path_buf());
    }
    let mut found = Vec::new();
    for program in &programs {
        let Some(folder) = program.parent() else { continue };
        let Some(prefix) = folder.parent() else { continue };
        match folder.file_name().and_then(|n| n.to_str()) {
            Some("bin") if !python => found.push(prefix.join("lib")),
            Some("bin") => {
                found.push(prefix.join("lib"));
                let config = prefix.join("pyvenv.cfg");
                if let Some(base) = venv_home(&config).as_deref().and_then(Path::parent) {
                    found.push(base.join("lib"));
                }
                found.push(config);
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

/// The start of a small regular file, read without blocking (a FIFO put in its place reads
/// as nothing), at most [`SMALL_FILE_CAP`] bytes.
fn read_small(path: &Path) -> Option<String> {
    let mut file = crate::paths::open_nonblocking(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    (&mut file).take(SMALL_FILE_CAP).read_to_end(&mut bytes).ok()?;
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
