//! The part of a source's typed policy ([`SourcePolicy`]) that the registry resolves across
//! sources without knowing any format: opt-ins (a source that `requires` a key runs only
//! when the user turned that key on) and each format's run settings per place.
//!
//! - **Opt-in** ([`SwitchRule::OptIn`], Chrys's `project.hooks_enabled`): a key is on for a
//!   format when the user forces every opt-in on (a command-line flag, or a settings file the
//!   embedder read; [`crate::HookRegistry::set_user_opt_in`]), or when the voice of the
//!   format's managed and user sources that can run says so: the last managed voice, else
//!   the user voice of highest precedence. Project and explicit sources never speak for it,
//!   and no voice means off. A source whose key is off is *held back*: its definitions bind
//!   nowhere, whatever its trust, and its run settings count nowhere.
//! - **Run settings** ([`RunSettings`], Chrys's `settings:`): per format and place (outside
//!   every project, and under each project root), the sources of the format that run there
//!   merge per field, the one of highest precedence that sets a field winning (Chrys: the
//!   project file over the global one).
//!
//! Everything here is pure: the registry hands in the sources in precedence order.

use hooks_schema::{AbsPathBuf, FormatId, RunSettings, SourceOwner, SourcePolicy, SwitchRule};

/// One source as the resolution sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PolicySource<'a> {
    /// The format of its file (`None` for test doubles without one).
    pub(crate) format: Option<FormatId>,
    /// Who owns it.
    pub(crate) owner: SourceOwner,
    /// Whether it can run (trusted, parsed, not suppressed by the same file under another
    /// kind); only such sources speak and contribute settings.
    pub(crate) can_run: bool,
    /// Its policy (the parse in effect).
    pub(crate) policy: &'a SourcePolicy,
}

/// Whether the opt-in `key` of `format` is on, given the sources in precedence order.
pub(crate) fn opt_in_is_on(
    sources: &[PolicySource<'_>],
    format: Option<FormatId>,
    key: &str,
    user_forced: bool,
) -> bool {
    if user_forced {
        return true;
    }
    let voice = |owner: SourceOwner| {
        sources
            .iter()
            .filter(|s| s.can_run && s.owner == owner && s.format == format)
            .filter_map(|s| {
                s.policy
                    .switches
                    .iter()
                    .rev()
                    .find(|w| w.rule == SwitchRule::OptIn && w.key == key)
                    .map(|w| w.on)
            })
            .collect::<Vec<bool>>()
    };
    // Managed voices outrank the user's, and among them the later file wins (as scalar
    // settings merge); among user voices the one of highest precedence decides.
    if let Some(&on) = voice(SourceOwner::Managed).last() {
        return on;
    }
    voice(SourceOwner::User).first().copied().unwrap_or(false)
}

/// The key a source requires and that is off, when it is held back.
pub(crate) fn held_back_by(
    sources: &[PolicySource<'_>],
    source: &PolicySource<'_>,
    user_forced: bool,
) -> Option<&'static str> {
    let key = source.policy.requires?;
    (!opt_in_is_on(sources, source.format, key, user_forced)).then_some(key)
}

/// Each format's merged run settings outside every project and under each root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSettingsIndex {
    /// `(format, place, settings)`, place `None` outside every project; only non-empty
    /// settings are listed.
    pub(crate) entries: Vec<(FormatId, Option<AbsPathBuf>, RunSettings)>,
}

impl RunSettingsIndex {
    /// Merges the run settings of `sources` (in precedence order, each with the project roots
    /// it applies under, empty for sources that apply everywhere, and whether it runs) per
    /// format and place over `roots`.
    pub(crate) fn build<'a>(
        sources: impl IntoIterator<Item = (FormatId, &'a [AbsPathBuf], RunSettings)>,
        roots: &[AbsPathBuf],
    ) -> RunSettingsIndex {
        let sources: Vec<(FormatId, &[AbsPathBuf], RunSettings)> =
            sources.into_iter().filter(|(_, _, s)| !s.is_empty()).collect();
        let mut entries = Vec::new();
        if sources.is_empty() {
            return RunSettingsIndex { entries };
        }
        let mut formats: Vec<FormatId> = sources.iter().map(|(f, _, _)| *f).collect();
        formats.sort_unstable();
        formats.dedup();
        let places = std::iter::once(None).chain(roots.iter().map(Some));
        for place in places {
            for &format in &formats {
                let merged = sources
                    .iter()
                    .filter(|(f, applies, _)| {
                        *f == format
                            && (applies.is_empty() || place.is_some_and(|p| applies.contains(p)))
                    })
                    .fold(RunSettings::default(), |higher, (_, _, lower)| higher.over(*lower));
                if !merged.is_empty() {
                    entries.push((format, place.cloned(), merged));
                }
            }
        }
        RunSettingsIndex { entries }
    }

    /// The settings of `format` in `place` (`None`: outside every project); empty when none.
    pub fn get(&self, format: FormatId, place: Option<&AbsPathBuf>) -> RunSettings {
        self.entries
            .iter()
            .find(|(f, p, _)| *f == format && p.as_ref() == place)
            .map_or_else(RunSettings::default, |(_, _, s)| *s)
    }

    /// Every `(format, place, settings)` some source sets.
    pub fn entries(&self) -> impl Iterator<Item = (FormatId, Option<&AbsPathBuf>, &RunSettings)> {
        self.entries.iter().map(|(f, p, s)| (*f, p.as_ref(), s))
    }
}

#[cfg(test)]
mod tests;
