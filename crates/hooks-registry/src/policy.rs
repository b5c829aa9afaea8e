//! Source policy resolved across the sources that run, from the typed [`SourcePolicy`] each
//! adapter parsed, without knowing any format (`specs/formats.md`, "Source policy").
//!
//! - **Opt-ins** ([`SwitchRule::OptIn`], Chrys's `project.hooks_enabled`): a key is on for a
//!   format when the user forces every opt-in on ([`crate::HookRegistry::set_user_opt_in`]),
//!   or when the voice of the format's managed and user sources that can run says so: the last
//!   managed voice, else the user voice of highest precedence. Project and explicit sources
//!   never speak for it, and no voice means off. A source that
//!   [`requires`](SourcePolicy::requires) a key that is off is *held back* everywhere: its
//!   definitions bind nowhere, it speaks for no switch and its run settings count nowhere.
//! - **Switches** ([`SwitchRule::Hooks`]: Claude Code's `disableAllHooks`, Codex's
//!   `[features].hooks`, Gemini CLI's `hooksConfig.enabled`; [`SwitchRule::ManagedOnly`]:
//!   Claude Code's `allowManagedHooksOnly`, Codex's `allow_managed_hooks_only`), per place
//!   (outside every project, and under each project root) and per format, from the voices of
//!   the format's sources that run and apply there:
//!   - `Hooks`: managed voices outrank every other and, among them, the later file wins (as
//!     scalar settings merge); otherwise the voice of highest precedence decides (explicit,
//!     then the project's, then the user's). A managed "off" switches off every source of the
//!     format; any other "off" only its non-managed sources (a non-managed file cannot
//!     disable managed hooks). A managed "on" keeps every source on.
//!   - `ManagedOnly`: honoured from managed voices only (the later wins); on, it switches off
//!     every non-managed source of the format and names itself as the reason.
//! - **Names** ([`SourcePolicy::disables`], Gemini CLI's `hooksConfig.disabled`), per place
//!   and format: the names listed by the format's sources that run and apply there add up,
//!   and a hook of the format whose name ([`hooks_schema::HookCodec::disable_name`]) is
//!   listed does not run there; a managed file's names reach every source of the format, any
//!   other file's only the non-managed ones. The first file in precedence order to list a
//!   name is its reason.
//! - **Picks** ([`SourcePolicy::picks`] and [`SourcePolicy::picked_as`], Claude Code's
//!   `agent`), per place and format: the name picked for a key is said as a `Hooks` switch
//!   is (the last managed voice, else the voice of highest precedence; an empty name picks
//!   none), and of the sources picked as that name that run and apply there the first in
//!   precedence order runs (a project's subagent over the user's of the same name); every
//!   other source picked as a name for the key is off there, with the pick as its reason.
//! - **Run settings** ([`RunSettings`], Chrys's `settings:`): per format and place, the
//!   sources of the format that run there merge per field, the one of highest precedence that
//!   sets a field winning (Chrys: the project file over the global one).
//!
//! A switch only ever affects sources of its own format; a source of no known format has no
//! say and is never affected. Project sources speak only for the roots they were found under.
//! Everything here is pure: the registry hands in the sources in precedence order (kind
//! priority, then load order).

use std::{collections::BTreeMap, num::NonZeroU64};

use hooks_schema::{
    AbsPathBuf, Binding, FormatId, HookDefinition, HookSourceId, Pick, RunSettings, SourceOwner,
    SourcePolicy, SwitchRule,
};

/// What decides whether a source is switched off: its format and whether it is an
/// administrator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Subject {
    /// Its format: the kind's, or for an explicit source of no declared format the one its
    /// definitions all speak; `None` when unknown (never affected).
    pub(crate) format: Option<FormatId>,
    /// A managed (administrator's) source.
    pub(crate) managed: bool,
    /// For a source [`picked_as`](SourcePolicy::picked_as) a name, its own number (its
    /// sequence number in the registry, plus one), by which a place's cut names the one source
    /// of the name that runs. Eight bytes: the subject is copied per source at every publish.
    pub(crate) picked_by: Option<NonZeroU64>,
}

impl Subject {
    /// The subject of a source of `id`'s kind whose definitions speak `formats`.
    pub(crate) fn of(id: &HookSourceId, mut formats: impl Iterator<Item = FormatId>) -> Subject {
        let format = id.kind.format().or_else(|| {
            let first = formats.next()?;
            formats.all(|f| f == first).then_some(first)
        });
        Subject { format, managed: id.kind.owner() == SourceOwner::Managed, picked_by: None }
    }

    /// This subject for the source numbered `source` whose policy is `policy`: waiting to
    /// be picked when the policy says it is picked as a name.
    pub(crate) fn of_source(self, source: u64, policy: Option<&SourcePolicy>) -> Subject {
        let picked_by = policy
            .and_then(|p| p.picked_as.as_ref())
            .map(|_| NonZeroU64::MIN.saturating_add(source));
        Subject { picked_by, ..self }
    }
}

// ---------------------------------------------------------------------------------------------
// The entry point

/// One source as the policy sees it.
#[derive(Debug, Clone)]
pub(crate) struct PolicyInput<'a> {
    pub(crate) id: &'a HookSourceId,
    pub(crate) subject: Subject,
    /// Whether it can run before any policy applies (trusted, loaded, not shadowed by the same
    /// file under a higher-precedence kind).
    pub(crate) can_run: bool,
    /// For a project source, the positions of its roots in the sorted root list.
    pub(crate) roots: &'a [usize],
    /// Its policy (the parse in effect).
    pub(crate) policy: &'a SourcePolicy,
}

/// Everything the policy decides at one publish.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Per input, the opt-in key that holds it back everywhere, if any.
    pub(crate) held: Vec<Option<&'static str>>,
    /// The switches' cuts per place.
    pub(crate) table: PolicyTable,
    /// Each format's run settings per place.
    pub(crate) run_settings: RunSettingsIndex,
}

/// Resolves the policies of `inputs` (every source, in precedence order) over `roots` (the
/// sorted root list the inputs' root positions refer to), the user forcing every opt-in on
/// when `user_forced`: first which sources are held back, then the switches from the sources
/// that still run, then the run settings of the sources that run in each place.
pub(crate) fn resolve_sources(
    inputs: &[PolicyInput<'_>],
    roots: &[AbsPathBuf],
    user_forced: bool,
) -> Resolved {
    // The common case: no file carries any policy, so nothing is held back, switched off or
    // set (what the steps below would find, without their lists).
    if inputs.iter().all(|i| i.policy.is_empty()) {
        return Resolved {
            held: vec![None; inputs.len()],
            table: PolicyTable::default(),
            run_settings: RunSettingsIndex::default(),
        };
    }
    let speakers: Vec<PolicySource<'_>> = inputs
        .iter()
        .map(|i| PolicySource {
            format: i.subject.format,
            owner: i.id.kind.owner(),
            can_run: i.can_run,
            policy: i.policy,
        })
        .collect();
    let held: Vec<Option<&'static str>> =
        speakers.iter().map(|s| held_back_by(&speakers, s, user_forced)).collect();
    let runs = |(i, h): &(&PolicyInput<'_>, &Option<&'static str>)| i.can_run && h.is_none();
    let running: Vec<&PolicyInput<'_>> =
        inputs.iter().zip(&held).filter(runs).map(|(i, _)| i).collect();
    let voices: Vec<Voice<'_>> = running
        .iter()
        // `resolve` keeps the voices with a say in the cuts; a policy-less source has none.
        .filter(|i| !i.policy.is_empty())
        .map(|i| Voice { id: i.id, subject: i.subject, roots: i.roots, policy: i.policy })
        .collect();
    let table = resolve(&voices, roots.len());
    let run_settings = RunSettingsIndex::build(
        running.iter().map(|i| SettingsSource {
            subject: i.subject,
            project: i.id.kind.owner() == SourceOwner::Project,
            roots: i.roots,
            run: i.policy.run,
        }),
        roots,
        &table,
    );
    Resolved { held, table, run_settings }
}

// ---------------------------------------------------------------------------------------------
// Opt-ins

/// One source as the opt-in resolution sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PolicySource<'a> {
    /// The format of its file (`None` for test doubles without one).
    pub(crate) format: Option<FormatId>,
    /// Who owns it.
    pub(crate) owner: SourceOwner,
    /// Whether it can run (trusted, parsed, not suppressed by the same file under another
    /// kind); only such sources speak.
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

// ---------------------------------------------------------------------------------------------
// Switches

/// Why sources are switched off.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Reason {
    /// A switch or a name list: the setting and the file that decided.
    Setting { key: &'static str, file: AbsPathBuf },
    /// A source that runs only where its name is picked for `key`, and is not the one that
    /// runs here: the name picked here and the file that picked it (`None`: no file picks),
    /// and the file that runs for that name (`None`: none of that name runs).
    NotPicked { key: &'static str, picked: Option<(String, AbsPathBuf)>, runs: Option<AbsPathBuf> },
}

/// The reason of a source that waits to be picked where nothing was resolved for its key
/// (not reached: every source that runs and waits for a key has its key resolved wherever it
/// applies); it stays off.
static NOT_RESOLVED: Reason = Reason::NotPicked { key: "its setting", picked: None, runs: None };

impl Reason {
    /// `disabled by <key> in <file>`, or what a source waiting to be picked waits for.
    pub(crate) fn text(&self) -> String {
        match self {
            Reason::Setting { key, file } => format!("disabled by {key} in {file}"),
            Reason::NotPicked { key, picked: None, .. } => {
                format!("runs only where a file's `{key}` names it, and no file here names one")
            }
            Reason::NotPicked { key, picked: Some((name, file)), runs } => {
                let named = if name.is_empty() {
                    format!("`{key}` in {file} names none")
                } else {
                    format!("`{key}` in {file} names `{name}`")
                };
                match runs {
                    Some(first) => format!(
                        "runs only where a file's `{key}` names it: here {named}, and {first} is the one of that name that runs"
                    ),
                    None => format!("runs only where a file's `{key}` names it: here {named}"),
                }
            }
        }
    }
}

/// Who runs for one key in one place: the sources waiting for the key there and the one
/// picked (their numbers, [`Subject::picked_by`]), and the reason every other one is off.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PickCut {
    pub(crate) waiting: Vec<NonZeroU64>,
    pub(crate) runs: Option<NonZeroU64>,
    pub(crate) others: Reason,
}

/// What is off for one format in one place.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub(crate) struct FormatCut {
    /// Every source of the format is off.
    pub(crate) all: Option<Reason>,
    /// Its non-managed sources are off.
    pub(crate) non_managed: Option<Reason>,
    /// Hook names managed files list: off in every source of the format.
    pub(crate) names_all: BTreeMap<String, Reason>,
    /// Hook names other files list: off in the format's non-managed sources.
    pub(crate) names_non_managed: BTreeMap<String, Reason>,
    /// Per key sources wait to be picked by, the one that runs.
    pub(crate) picks: BTreeMap<&'static str, PickCut>,
}

impl FormatCut {
    fn is_empty(&self) -> bool {
        self.all.is_none()
            && self.non_managed.is_none()
            && self.names_all.is_empty()
            && self.names_non_managed.is_empty()
            && self.picks.is_empty()
    }

    /// Whether some hook name is off for sources that are `managed` or not.
    fn names_any(&self, managed: bool) -> bool {
        !self.names_all.is_empty() || (!managed && !self.names_non_managed.is_empty())
    }
}

/// What is off in one place, per format; empty when everything runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub(crate) struct PlaceCuts(pub(crate) BTreeMap<FormatId, FormatCut>);

impl PlaceCuts {
    /// Why a source of `subject` is off here, or `None` when it runs.
    pub(crate) fn removes(&self, subject: Subject) -> Option<&Reason> {
        let cut = self.0.get(&subject.format?);
        if let Some(cut) = cut {
            if let Some(r) = &cut.all {
                return Some(r);
            }
            if !subject.managed
                && let Some(r) = &cut.non_managed
            {
                return Some(r);
            }
        }
        let n = subject.picked_by?;
        match cut.and_then(|c| c.picks.values().find(|p| p.waiting.contains(&n))) {
            Some(p) if p.runs == Some(n) => None,
            Some(p) => Some(&p.others),
            None => Some(&NOT_RESOLVED),
        }
    }

    /// Whether nothing is off.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Why the hook `def` of a source of `subject` is off here by its name, or `None` when
    /// no file of its format lists it (the source itself may still be off: [`Self::removes`]).
    pub(crate) fn disables(&self, subject: Subject, def: &HookDefinition) -> Option<&Reason> {
        let cut = self.0.get(&subject.format?)?;
        if !cut.names_any(subject.managed) {
            return None;
        }
        let name = def.codec.disable_name(def)?;
        cut.names_all
            .get(&name)
            .or_else(|| if subject.managed { None } else { cut.names_non_managed.get(&name) })
    }

    /// Which of `bindings` (of a source of `subject`) run here by their names: `None` when
    /// every one does because no name of their format is off here.
    pub(crate) fn kept(&self, subject: Subject, bindings: &[Binding]) -> Option<Vec<bool>> {
        let cut = self.0.get(&subject.format?)?;
        if !cut.names_any(subject.managed) {
            return None;
        }
        Some(bindings.iter().map(|b| self.disables(subject, &b.definition).is_none()).collect())
    }
}

/// The cuts outside every project and under each known root, each place pointing at one of
/// a few distinct variants (so the binding index keeps one list of global bindings per
/// variant, not per root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PolicyTable {
    /// The distinct cuts in use; the first is outside's.
    variants: Vec<PlaceCuts>,
    /// Each root's variant, by the root's position in the sorted root list; empty when every
    /// root's is outside's.
    roots: Vec<usize>,
}

impl Default for PolicyTable {
    fn default() -> PolicyTable {
        PolicyTable { variants: vec![PlaceCuts::default()], roots: Vec::new() }
    }
}

impl PolicyTable {
    /// The variant under the root at `index`, or outside every project.
    pub(crate) fn variant_at(&self, root: Option<usize>) -> usize {
        root.and_then(|i| self.roots.get(i).copied()).unwrap_or(0)
    }

    /// The cuts under the root at `index`, or outside every project.
    pub(crate) fn at(&self, root: Option<usize>) -> &PlaceCuts {
        self.variants.get(self.variant_at(root)).unwrap_or(&EMPTY)
    }

    /// The distinct cuts in use, by variant.
    pub(crate) fn variants(&self) -> &[PlaceCuts] {
        &self.variants
    }

    /// Whether some place cuts anything (false in the common case where no file has a say).
    pub(crate) fn cuts_anything(&self) -> bool {
        self.variants.iter().any(|v| !v.is_empty())
    }

    /// Whether some place may cut a source of `subject` or some of its hooks: a source waiting
    /// to be picked always may; any other only where a cut of its format reaches it (a pick
    /// reaches no other source), so the notes of the rest need no look at each place.
    pub(crate) fn may_cut(&self, subject: Subject) -> bool {
        let Some(format) = subject.format else { return false };
        subject.picked_by.is_some()
            || self.variants.iter().any(|v| {
                v.removes(subject).is_some()
                    || v.0.get(&format).is_some_and(|cut| cut.names_any(subject.managed))
            })
    }
}

static EMPTY: PlaceCuts = PlaceCuts(BTreeMap::new());

/// One running source's say: its identity, its subject, where it applies and its policy.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Voice<'a> {
    pub(crate) id: &'a HookSourceId,
    pub(crate) subject: Subject,
    /// For a project source, the positions of its roots in the sorted root list.
    pub(crate) roots: &'a [usize],
    pub(crate) policy: &'a SourcePolicy,
}

impl Voice<'_> {
    fn applies(&self, root: Option<usize>) -> bool {
        match self.id.kind.owner() {
            SourceOwner::Project => root.is_some_and(|r| self.roots.contains(&r)),
            SourceOwner::Explicit | SourceOwner::Managed | SourceOwner::User => true,
        }
    }

    fn said(&self, rule: SwitchRule) -> Option<(bool, Reason)> {
        let s = self.policy.switch(rule)?;
        Some((s.on, Reason::Setting { key: s.key, file: self.id.path.clone() }))
    }

    /// The name this source picks for `key`, and its file.
    fn picked(&self, key: &str) -> Option<(String, AbsPathBuf)> {
        let Pick { key: k, name } = self.policy.picks.as_ref()?;
        (*k == key).then(|| (name.clone(), self.id.path.clone()))
    }
}

/// Resolves the cuts for `root_count` roots from the voices of the sources that run, given
/// in precedence order.
pub(crate) fn resolve(voices: &[Voice<'_>], root_count: usize) -> PolicyTable {
    let voices: Vec<&Voice<'_>> = voices
        .iter()
        .filter(|v| v.subject.format.is_some())
        .filter(|v| {
            v.policy.switch(SwitchRule::Hooks).is_some()
                || v.policy.switch(SwitchRule::ManagedOnly).is_some()
                || v.policy.disables.as_ref().is_some_and(|d| !d.names.is_empty())
                || v.policy.picks.is_some()
                || v.policy.picked_as.is_some()
        })
        .collect();
    if voices.is_empty() {
        return PolicyTable::default();
    }
    let mut formats: Vec<FormatId> = voices.iter().filter_map(|v| v.subject.format).collect();
    formats.sort_unstable();
    formats.dedup();
    // Picks are rare: a place is resolved without them unless some source waits to be picked.
    let picking = voices.iter().any(|v| v.policy.picked_as.is_some());
    let place = |root: Option<usize>| -> PlaceCuts {
        let mut cuts = BTreeMap::new();
        for &format in &formats {
            let mine: Vec<&Voice<'_>> = voices
                .iter()
                .copied()
                .filter(|v| v.subject.format == Some(format) && v.applies(root))
                .collect();
            let cut = format_cut(&mine, picking);
            if !cut.is_empty() {
                cuts.insert(format, cut);
            }
        }
        PlaceCuts(cuts)
    };
    let mut variants = vec![place(None)];
    // A root where no project source speaks has the voices of outside every project, so its
    // cuts are outside's: only the roots of project voices are resolved on their own.
    let mut own = vec![false; root_count];
    for v in voices.iter().filter(|v| v.id.kind.owner() == SourceOwner::Project) {
        for &r in v.roots {
            if let Some(o) = own.get_mut(r) {
                *o = true;
            }
        }
    }
    let mut roots = Vec::with_capacity(root_count);
    for (i, own) in own.into_iter().enumerate() {
        if !own {
            roots.push(0);
            continue;
        }
        let cuts = place(Some(i));
        let v = match variants.iter().position(|v| *v == cuts) {
            Some(v) => v,
            None => {
                variants.push(cuts);
                variants.len() - 1
            }
        };
        roots.push(v);
    }
    // The common case, every root as outside, is stored as no roots (see `variant_at`).
    if roots.iter().all(|&v| v == 0) {
        roots.clear();
    }
    PolicyTable { variants, roots }
}

/// The cut for one format in one place from the voices of its sources that apply there (and
/// its picks when `picking`: some source waits to be picked).
fn format_cut(mine: &[&Voice<'_>], picking: bool) -> FormatCut {
    let managed_last =
        |rule| mine.iter().rev().filter(|v| v.subject.managed).find_map(|v| v.said(rule));
    let mut cut = FormatCut::default();
    for v in mine {
        let Some(list) = &v.policy.disables else { continue };
        let names = if v.subject.managed { &mut cut.names_all } else { &mut cut.names_non_managed };
        for name in &list.names {
            names
                .entry(name.clone())
                .or_insert_with(|| Reason::Setting { key: list.key, file: v.id.path.clone() });
        }
    }
    if picking {
        cut.picks = picks(mine);
    }
    match managed_last(SwitchRule::Hooks) {
        Some((false, reason)) => return FormatCut { all: Some(reason), ..FormatCut::default() },
        Some((true, _)) => {}
        None => {
            let first_other =
                mine.iter().filter(|v| !v.subject.managed).find_map(|v| v.said(SwitchRule::Hooks));
            if let Some((false, reason)) = first_other {
                cut.non_managed = Some(reason);
            }
        }
    }
    if let Some((true, reason)) = managed_last(SwitchRule::ManagedOnly) {
        // The managed-only setting names itself as the reason, ahead of a non-managed "off"
        // (it would decide even if that file changed its mind).
        cut.non_managed = Some(reason);
    }
    cut
}

/// Per key the sources of one format that apply in one place wait to be picked by: the name
/// picked (said as a `Hooks` switch is) and the first source picked as it that runs.
fn picks(mine: &[&Voice<'_>]) -> BTreeMap<&'static str, PickCut> {
    let mut keys: Vec<&'static str> =
        mine.iter().filter_map(|v| v.policy.picked_as.as_ref().map(|p| p.key)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut picks = BTreeMap::new();
    for key in keys {
        let picked = mine
            .iter()
            .rev()
            .filter(|v| v.subject.managed)
            .find_map(|v| v.picked(key))
            .or_else(|| mine.iter().filter(|v| !v.subject.managed).find_map(|v| v.picked(key)));
        // The sources waiting for the key, with the name each is picked as.
        let candidates: Vec<(&Voice<'_>, &str)> = mine
            .iter()
            .filter_map(|v| {
                let p = v.policy.picked_as.as_ref().filter(|p| p.key == key)?;
                Some((*v, p.name.as_str()))
            })
            .collect();
        let first = picked
            .as_ref()
            .filter(|(name, _)| !name.is_empty())
            .and_then(|(name, _)| candidates.iter().find(|(_, n)| n == name).map(|(v, _)| *v));
        let waiting = candidates.iter().filter_map(|(v, _)| v.subject.picked_by).collect();
        let runs = first.and_then(|v| v.subject.picked_by);
        let others = Reason::NotPicked { key, picked, runs: first.map(|v| v.id.path.clone()) };
        picks.insert(key, PickCut { waiting, runs, others });
    }
    picks
}

// ---------------------------------------------------------------------------------------------
// Run settings

/// Each format's merged run settings outside every project and under each root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSettingsIndex {
    /// `(format, place, settings)`, place `None` outside every project; only non-empty
    /// settings are listed.
    pub(crate) entries: Vec<(FormatId, Option<AbsPathBuf>, RunSettings)>,
}

/// One source's run settings as the merge sees them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SettingsSource<'a> {
    pub(crate) subject: Subject,
    /// A project source, which applies under its roots only; any other applies everywhere.
    pub(crate) project: bool,
    /// For a project source, the positions of its roots in the sorted root list.
    pub(crate) roots: &'a [usize],
    pub(crate) run: RunSettings,
}

impl RunSettingsIndex {
    /// Merges the run settings of `sources` (that can run, in precedence order) per format
    /// and place over `roots` (the sorted root list), leaving out the sources `table`
    /// switches off in a place.
    pub(crate) fn build<'a>(
        sources: impl IntoIterator<Item = SettingsSource<'a>>,
        roots: &[AbsPathBuf],
        table: &PolicyTable,
    ) -> RunSettingsIndex {
        let sources: Vec<SettingsSource<'a>> = sources
            .into_iter()
            .filter(|s| !s.run.is_empty() && s.subject.format.is_some())
            .collect();
        let mut entries = Vec::new();
        if sources.is_empty() {
            return RunSettingsIndex { entries };
        }
        let mut formats: Vec<FormatId> = sources.iter().filter_map(|s| s.subject.format).collect();
        formats.sort_unstable();
        formats.dedup();
        let places = std::iter::once(None).chain(roots.iter().enumerate().map(Some));
        for place in places {
            let index = place.map(|(i, _)| i);
            let cuts = table.at(index);
            for &format in &formats {
                let merged = sources
                    .iter()
                    .filter(|s| {
                        s.subject.format == Some(format)
                            && (!s.project || index.is_some_and(|i| s.roots.contains(&i)))
                            && cuts.removes(s.subject).is_none()
                    })
                    .fold(RunSettings::default(), |higher, lower| higher.over(lower.run));
                if !merged.is_empty() {
                    entries.push((format, place.map(|(_, root)| root.clone()), merged));
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
