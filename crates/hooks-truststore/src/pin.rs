//! What the user trusts about one hook file: its content and the content of every script its
//! hooks run, found by the guard's command analysis and placed as the registry places them.

use std::path::PathBuf;

use hooks_registry::{
    DefinitionFiles, PathRole, Placement, UserPaths, canonicalize_lenient, definition_files,
};
use hooks_schema::{AbsPathBuf, HookDefinition};

use crate::digest::{Digest, HashError, PathState, path_state};

/// The roles of the files a command names whose content is pinned: what it runs or loads,
/// and what the scripts it runs source, run by path or import in turn
/// ([`PathRole::Sourced`]: their text is read for it, as the guard reads it). Files it only
/// names as arguments or redirection targets are protected by the guard but not pinned,
/// since hooks commonly write them (a log beside the hook) and a pin on them would undo the
/// user's trust at the hook's first run.
pub const PINNED_ROLES: [PathRole; 6] = [
    PathRole::Program,
    PathRole::Script,
    PathRole::Loaded,
    PathRole::Tree,
    PathRole::Sourced,
    PathRole::Module,
];

/// [`PINNED_ROLES`] but what the scripts load: the files the command line itself names, found
/// without reading any file.
pub(crate) const COMMAND_ROLES: [PathRole; 5] =
    [PathRole::Program, PathRole::Script, PathRole::Loaded, PathRole::Tree, PathRole::Module];

/// One file (or folder) a hook file's hooks run, with what it held when it was pinned.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PinnedScript {
    /// Where it is, at the hook file's placement.
    pub path: AbsPathBuf,
    /// For a script named relative to the session's directory: that relative path. A session
    /// in another folder of the project runs the copy there, which must hold the same.
    pub session: Option<PathBuf>,
    /// Whether the hooks run every file under it (`hooks/*.sh`).
    pub folder: bool,
    /// What it held.
    pub state: PathStateKey,
}

/// [`PathState`] with an order, for sorting pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStateKey {
    /// Nothing there.
    Absent,
    /// A regular file with this content.
    File(Digest),
    /// A folder with these files.
    Folder(Digest),
}

impl From<PathState> for PathStateKey {
    fn from(s: PathState) -> PathStateKey {
        match s {
            PathState::Absent => PathStateKey::Absent,
            PathState::File(d) => PathStateKey::File(d),
            PathState::Folder(d) => PathStateKey::Folder(d),
        }
    }
}

impl std::fmt::Display for PathStateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathStateKey::Absent => f.write_str("absent"),
            PathStateKey::File(d) => write!(f, "sha256:{d}"),
            PathStateKey::Folder(d) => write!(f, "folder sha256:{d}"),
        }
    }
}

/// A hook file as it is loaded: what the trust store pins and checks.
#[derive(Debug, Clone, Copy)]
pub struct HookFile<'a> {
    /// Its canonical path.
    pub path: &'a AbsPathBuf,
    /// The kind it is loaded as, by name (`project_cursor_file`).
    pub kind: &'a str,
    /// The project root it is placed under (`None` for a file outside every project).
    pub root: Option<&'a AbsPathBuf>,
    /// The digest of the bytes that were parsed.
    pub digest: Digest,
    /// The definitions parsed from them, enabled or not.
    pub definitions: &'a [&'a HookDefinition],
    /// The user's directories (`~`, Chrys's `${chrys_home}`) the scripts are placed with.
    pub user: &'a UserPaths,
}

/// Everything pinned about one hook file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePin {
    /// The file's canonical path.
    pub path: AbsPathBuf,
    /// The kind it was loaded as, by name.
    pub kind: String,
    /// The project root it was trusted under.
    pub root: Option<AbsPathBuf>,
    /// Its content's digest.
    pub digest: Digest,
    /// The scripts its hooks run, sorted.
    pub scripts: Vec<PinnedScript>,
    /// Why the command analysis is not sure it found every script its hooks run (shown when
    /// the user trusts the file; such a file is trusted for its text and the scripts found).
    pub uncertain: Vec<String>,
    /// When it was trusted (seconds since the Unix epoch).
    pub trusted_at: u64,
}

/// Why a hook file cannot be pinned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PinError {
    /// A script its hooks run cannot be read, or is not a file the store can pin.
    #[error("a script its hooks run cannot be pinned: {0}")]
    Script(#[from] HashError),
    /// Its hooks run and load more files than a store entry may pin.
    #[error("its hooks run and load {found} files, more than the {max} one entry may pin")]
    TooManyScripts {
        /// How many were found.
        found: usize,
        /// [`crate::MAX_SCRIPTS_PER_FILE`].
        max: usize,
    },
}

/// Where the scripts of `file` are: every path its definitions run, placed.
pub(crate) struct Located {
    /// `(path, session-relative path, folder)` triples, sorted, without duplicates.
    pub scripts: Vec<(AbsPathBuf, Option<PathBuf>, bool)>,
    pub uncertain: Vec<String>,
}

pub(crate) fn placement(file: &HookFile<'_>) -> Placement {
    let working_dir = match file.root {
        Some(root) => root.clone(),
        None => file.path.parent().unwrap_or_else(|| file.path.clone()),
    };
    Placement { working_dir, project_root: file.root.cloned(), user: file.user.clone() }
}

/// The scripts `file`'s definitions run, placed: with [`COMMAND_ROLES`] the ones their command
/// lines name (no file is read), with [`PINNED_ROLES`] also what those scripts load, as
/// their text says now.
pub(crate) fn locate(file: &HookFile<'_>, roles: &[PathRole]) -> Located {
    let placement = placement(file);
    let mut scripts = Vec::new();
    let mut uncertain = Vec::new();
    for def in file.definitions {
        let DefinitionFiles { paths, folders, session_relative, unplaced, uncertain: u } =
            definition_files(def, &placement, roles);
        for p in paths {
            let session = session_relative
                .iter()
                .find(|rel| canonicalize_lenient(rel, &placement.working_dir) == p)
                .cloned();
            scripts.push((p, session, false));
        }
        for f in folders {
            scripts.push((f, None, true));
        }
        for (scope, tail) in unplaced {
            uncertain.push(format!(
                "`{}` under {} is named relative to a folder the command does not name",
                tail.display(),
                scope
            ));
        }
        uncertain.extend(u);
    }
    // The file itself is pinned by its digest, not as a script.
    scripts.retain(|(p, _, _)| p != file.path);
    scripts.sort();
    scripts.dedup_by(|a, b| a.0 == b.0 && a.2 == b.2);
    uncertain.sort();
    uncertain.dedup();
    Located { scripts, uncertain }
}

/// The files and folders `file`'s command lines name among [`PINNED_ROLES`] (what its hooks
/// run or load themselves, as `(path, folder)`), sorted; the rest of a pin's scripts are
/// what those scripts source, run by path or import. No file is read.
pub fn named_scripts(file: &HookFile<'_>) -> Vec<(AbsPathBuf, bool)> {
    locate(file, &COMMAND_ROLES).scripts.into_iter().map(|(p, _, folder)| (p, folder)).collect()
}

/// Pins `file` now: its digest and the current content of every script its hooks run and of
/// every file those scripts source, run by path or import (absent ones as absent).
pub fn pin(file: &HookFile<'_>, now: u64) -> Result<FilePin, PinError> {
    let located = locate(file, &PINNED_ROLES);
    let max = crate::MAX_SCRIPTS_PER_FILE;
    if located.scripts.len() > max {
        return Err(PinError::TooManyScripts { found: located.scripts.len(), max });
    }
    let mut scripts = Vec::with_capacity(located.scripts.len());
    for (path, session, folder) in located.scripts {
        let state = path_state(path.as_path(), folder)?;
        scripts.push(PinnedScript { path, session, folder, state: state.into() });
    }
    scripts.sort();
    Ok(FilePin {
        path: file.path.clone(),
        kind: file.kind.to_owned(),
        root: file.root.cloned(),
        digest: file.digest,
        scripts,
        uncertain: located.uncertain,
        trusted_at: now,
    })
}
