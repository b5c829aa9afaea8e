//! Whether a hook file as loaded now is what the user trusted.

use std::{collections::HashSet, fmt};

use hooks_registry::canonicalize_lenient;
use hooks_schema::AbsPathBuf;

use crate::{
    digest::path_state,
    pin::{COMMAND_ROLES, FilePin, HookFile, PINNED_ROLES, PathStateKey, locate},
};

/// How a hook file differs from what the user trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// Its own content.
    Content,
    /// It was trusted under another project root (its scripts resolve elsewhere there).
    Root {
        /// The root it was trusted under.
        trusted: Option<AbsPathBuf>,
    },
    /// Its hooks run other scripts than the ones pinned (the user's folders moved).
    Scripts,
    /// Its scripts load other files than the ones pinned with them (what they source, run
    /// by path or import): a pin made before such files were pinned reads this way too.
    Loaded,
    /// A script's content (or its presence).
    Script {
        /// The script.
        path: AbsPathBuf,
        /// What it holds now (`absent`, a digest, or why it cannot be read).
        now: String,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Content => f.write_str("its content changed"),
            Change::Root { trusted: Some(r) } => write!(f, "it was trusted under the project {r}"),
            Change::Root { trusted: None } => f.write_str("it was trusted outside every project"),
            Change::Scripts => f.write_str("its hooks now run other scripts"),
            Change::Loaded => f.write_str(
                "its scripts source, run or import other files than the ones pinned with them",
            ),
            Change::Script { path, now } => write!(f, "the script {path} changed (now {now})"),
        }
    }
}

/// Whether a hook file may run as far as the trust store is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinStatus {
    /// The file and every script pinned with it hold what the user trusted.
    Trusted,
    /// The user never trusted the file (or revoked it).
    NotTrusted,
    /// The user trusted it, but it or a script it runs changed since.
    Changed(Change),
    /// The trust store cannot be read: nothing in it counts.
    StoreUnreadable(String),
}

impl PinStatus {
    /// Whether the file may run.
    pub fn is_trusted(&self) -> bool {
        matches!(self, PinStatus::Trusted)
    }

    /// The reason for a trust decision on `file`: `active:` or `inert:` and why, naming what
    /// the user must run to trust it (again).
    pub fn reason(&self, file: &AbsPathBuf) -> String {
        match self {
            PinStatus::Trusted => format!(
                "active: {file} and the scripts its hooks run are what the user trusted with `hooks trust`"
            ),
            PinStatus::NotTrusted => format!(
                "inert: {file} has not been trusted; run `hooks trust` in its project to review and trust it"
            ),
            PinStatus::Changed(change) => format!(
                "inert: {file} changed since it was trusted ({change}); run `hooks trust` to review and trust it again"
            ),
            PinStatus::StoreUnreadable(e) => format!(
                "inert: the trust store cannot be read ({e}), so {file} counts as not trusted; fix or remove the store, then run `hooks trust`"
            ),
        }
    }
}

/// Checks `file` as loaded now against `pin` (the store's entry for its path, if any). With
/// `session`, a script named relative to the session's directory is checked where that
/// session would run it too.
pub fn check(
    pin: Option<&FilePin>,
    file: &HookFile<'_>,
    session: Option<&AbsPathBuf>,
) -> PinStatus {
    let Some(pin) = pin else { return PinStatus::NotTrusted };
    if &pin.path != file.path {
        return PinStatus::NotTrusted;
    }
    if pin.digest != file.digest {
        return PinStatus::Changed(Change::Content);
    }
    if pin.root.as_ref() != file.root {
        return PinStatus::Changed(Change::Root { trusted: pin.root.clone() });
    }
    // Every script the command lines name must be pinned; what those scripts load is
    // compared once their content is known to be the pinned one.
    let named = locate(file, &COMMAND_ROLES);
    let pinned: HashSet<(&AbsPathBuf, bool)> =
        pin.scripts.iter().map(|s| (&s.path, s.folder)).collect();
    if !named.scripts.iter().all(|(p, _, folder)| pinned.contains(&(p, *folder))) {
        return PinStatus::Changed(Change::Scripts);
    }
    for script in &pin.scripts {
        let mut places = vec![script.path.clone()];
        if let (Some(rel), Some(session)) = (&script.session, session) {
            let there = canonicalize_lenient(rel, session);
            if there != script.path {
                places.push(there);
            }
        }
        for place in places {
            let now = match path_state(place.as_path(), script.folder) {
                Ok(state) => PathStateKey::from(state),
                Err(e) => {
                    return PinStatus::Changed(Change::Script { path: place, now: e.to_string() });
                }
            };
            if now != script.state {
                return PinStatus::Changed(Change::Script { path: place, now: now.to_string() });
            }
        }
    }
    // Every pinned file holds what it held, so what the scripts load, read from their text
    // now, is what was found when they were pinned, unless the pin predates the reading of
    // scripts (or the engine now finds more in the same text): then it is not what the user
    // reviewed.
    let loaded = locate(file, &PINNED_ROLES);
    let same = loaded.scripts.len() == pin.scripts.len()
        && loaded.scripts.iter().all(|(p, _, folder)| pinned.contains(&(p, *folder)));
    if !same {
        return PinStatus::Changed(Change::Loaded);
    }
    PinStatus::Trusted
}

#[cfg(test)]
mod tests;
