//! Claude Code's settings-level hook policies, resolved across settings files: `disableAllHooks`
//! by precedence and the managed-only `allowManagedHooksOnly`.
//!
//! Claude Code merges the hooks of every settings file but resolves ordinary keys by
//! precedence, highest first: managed settings, the command line's `--settings` (here: the
//! explicit sources delivered with the run), `.claude/settings.local.json`,
//! `.claude/settings.json`, `~/.claude/settings.json`. Two keys decide which Claude Code hooks
//! run at all:
//!
//! - `disableAllHooks`: the highest-precedence file that sets it decides. `true` from a
//!   managed file switches every Claude Code hook off; `true` from any other file switches
//!   off every non-managed Claude Code hook (a non-managed file cannot disable managed hooks).
//!   Among managed files (the base file, then `managed-settings.d/` fragments by name) the
//!   later one wins, as scalars merge.
//! - `allowManagedHooksOnly`: honoured only in managed files (the later one wins); `true`
//!   switches off every non-managed Claude Code hook.
//!
//! Project files only speak for their own root, so the outcome is resolved per known project
//! root and once for working directories outside every project. Only sources that run (loaded,
//! trusted, not shadowed by the same file under a higher-precedence kind) have a say. The
//! policy applies to Claude Code sources only (the four settings kinds, and explicit sources
//! whose definitions speak Claude Code's protocol or that set one of the keys): Cursor and
//! Chrys hooks are never affected.

use hooks_schema::{AbsPathBuf, FormatId, HookSourceId, SourceOwner};
use serde_json::{Map, Value};

/// Claude Code's key that turns hooks off (the adapter keeps it in `ParsedSource::settings`).
pub(crate) const DISABLE_ALL_HOOKS: &str = "disableAllHooks";

/// Claude Code's managed-only key that lets only managed hooks run.
pub(crate) const ALLOW_MANAGED_HOOKS_ONLY: &str = "allowManagedHooksOnly";

/// Claude Code's format id, as its adapter declares it.
const CLAUDE: FormatId = FormatId::new("claude");

/// Whether a source is a Claude Code source, and an administrator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ClaudeClass {
    /// Not Claude Code: never affected.
    Other,
    /// A managed Claude Code settings file.
    Managed,
    /// Any other Claude Code source (explicit, project, local, user).
    NonManaged,
}

impl ClaudeClass {
    /// The class of a source of `id`'s kind with these definitions' formats and settings.
    pub(crate) fn of(
        id: &HookSourceId,
        mut formats: impl Iterator<Item = FormatId>,
        settings: &Map<String, Value>,
    ) -> ClaudeClass {
        match (id.kind.owner(), id.kind.format()) {
            (SourceOwner::Managed, Some(CLAUDE)) => ClaudeClass::Managed,
            (SourceOwner::Project | SourceOwner::User, Some(CLAUDE)) => ClaudeClass::NonManaged,
            (SourceOwner::Explicit, _) => {
                let sets_a_key = settings.contains_key(DISABLE_ALL_HOOKS)
                    || settings.contains_key(ALLOW_MANAGED_HOOKS_ONLY);
                if sets_a_key || formats.any(|f| f == CLAUDE) {
                    ClaudeClass::NonManaged
                } else {
                    ClaudeClass::Other
                }
            }
            (SourceOwner::Managed | SourceOwner::Project | SourceOwner::User, _) => {
                ClaudeClass::Other
            }
        }
    }
}

/// Which Claude Code hooks are off in one scope, ordered by how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) enum Cut {
    /// Every hook runs.
    #[default]
    None,
    /// Non-managed Claude Code hooks are off.
    NonManaged,
    /// Every Claude Code hook is off.
    All,
}

impl Cut {
    /// Every cut, by its index ([`Cut::index`]).
    pub(crate) const ALL: [Cut; 3] = [Cut::None, Cut::NonManaged, Cut::All];

    pub(crate) fn index(self) -> usize {
        match self {
            Cut::None => 0,
            Cut::NonManaged => 1,
            Cut::All => 2,
        }
    }

    /// Whether a source of `class` is off under this cut.
    pub(crate) fn removes(self, class: ClaudeClass) -> bool {
        match (self, class) {
            (_, ClaudeClass::Other) | (Cut::None, _) => false,
            (Cut::NonManaged, ClaudeClass::Managed) => false,
            (Cut::NonManaged | Cut::All, ClaudeClass::NonManaged) | (Cut::All, _) => true,
        }
    }
}

/// The outcome in one scope: the cut and the setting that decided it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct ScopePolicy {
    pub(crate) cut: Cut,
    /// The key and the file that decided a cut other than [`Cut::None`].
    pub(crate) decided_by: Option<(&'static str, AbsPathBuf)>,
}

impl ScopePolicy {
    /// Why a source is off under this policy: `disabled by <key> in <file>`.
    pub(crate) fn reason(&self) -> String {
        match &self.decided_by {
            Some((key, path)) => format!("disabled by {key} in {path}"),
            None => "disabled by Claude Code's hook settings".to_owned(),
        }
    }
}

/// The outcome everywhere: outside every project, and under each known root.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct PolicyTable {
    /// Working directories under no known project root.
    pub(crate) outside: ScopePolicy,
    /// Each root's, by the root's position in the sorted root list; empty when every root's
    /// is the same as `outside`.
    pub(crate) roots: Vec<ScopePolicy>,
}

impl PolicyTable {
    /// The policy under the root at `index`, or outside every project.
    pub(crate) fn at(&self, root: Option<usize>) -> &ScopePolicy {
        root.and_then(|i| self.roots.get(i)).unwrap_or(&self.outside)
    }

    /// Whether some scope cuts anything (false in the common case where no file sets the keys).
    pub(crate) fn cuts_anything(&self) -> bool {
        self.outside.cut != Cut::None || self.roots.iter().any(|p| p.cut != Cut::None)
    }

    /// The smallest cut anywhere: global bindings runnable somewhere are those it keeps.
    pub(crate) fn least_cut(&self) -> Cut {
        self.roots.iter().map(|p| p.cut).fold(self.outside.cut, Cut::min)
    }
}

/// One running source's say: its kind, where it applies and its settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Voice<'a> {
    pub(crate) id: &'a HookSourceId,
    pub(crate) class: ClaudeClass,
    /// For a project source, the positions of its roots in the sorted root list.
    pub(crate) roots: &'a [usize],
    pub(crate) settings: &'a Map<String, Value>,
}

impl Voice<'_> {
    fn get(&self, key: &str) -> Option<bool> {
        if self.class == ClaudeClass::Other {
            return None;
        }
        self.settings.get(key).and_then(Value::as_bool)
    }

    fn said(&self, key: &'static str) -> Option<(bool, &'static str, AbsPathBuf)> {
        self.get(key).map(|v| (v, key, self.id.path.clone()))
    }
}

type Said = Option<(bool, &'static str, AbsPathBuf)>;

/// Resolves the policy for `root_count` roots from the voices of the running sources, given
/// in precedence order (kind priority, then load order).
pub(crate) fn resolve(voices: &[Voice<'_>], root_count: usize) -> PolicyTable {
    if voices.is_empty() {
        return PolicyTable::default();
    }
    let mut managed_disable: Said = None;
    let mut managed_only: Said = None;
    let mut explicit_disable: Said = None;
    let mut user_disable: Said = None;
    let mut project_disable: Vec<Said> = vec![None; root_count];
    for v in voices {
        match (v.id.kind.owner(), v.id.kind) {
            (SourceOwner::Managed, _) => {
                // Managed files merge as scalars: the later file wins.
                if let Some(s) = v.said(DISABLE_ALL_HOOKS) {
                    managed_disable = Some(s);
                }
                if let Some(s) = v.said(ALLOW_MANAGED_HOOKS_ONLY) {
                    managed_only = Some(s);
                }
            }
            (SourceOwner::Explicit, _) => {
                if explicit_disable.is_none() {
                    explicit_disable = v.said(DISABLE_ALL_HOOKS);
                }
            }
            (SourceOwner::User, _) => {
                if user_disable.is_none() {
                    user_disable = v.said(DISABLE_ALL_HOOKS);
                }
            }
            (SourceOwner::Project, _) => {
                // Voices come in precedence order: the local file before the shared one.
                for &i in v.roots {
                    if let Some(slot) = project_disable.get_mut(i)
                        && slot.is_none()
                    {
                        *slot = v.said(DISABLE_ALL_HOOKS);
                    }
                }
            }
        }
    }
    let decide = |project: &Said| -> ScopePolicy {
        if let Some((true, key, path)) = &managed_disable {
            return ScopePolicy { cut: Cut::All, decided_by: Some((key, path.clone())) };
        }
        if let Some((true, key, path)) = &managed_only {
            return ScopePolicy { cut: Cut::NonManaged, decided_by: Some((key, path.clone())) };
        }
        let disable = managed_disable
            .as_ref()
            .or(explicit_disable.as_ref())
            .or(project.as_ref())
            .or(user_disable.as_ref());
        match disable {
            Some((true, key, path)) => {
                ScopePolicy { cut: Cut::NonManaged, decided_by: Some((key, path.clone())) }
            }
            Some((false, ..)) | None => ScopePolicy::default(),
        }
    };
    let outside = decide(&None);
    let mut roots: Vec<ScopePolicy> = project_disable.iter().map(decide).collect();
    // The common case, every root as outside, is stored as no roots (see `PolicyTable::at`),
    // so comparing and scanning the table costs nothing per root.
    if roots.iter().all(|p| *p == outside) {
        roots.clear();
    }
    PolicyTable { outside, roots }
}

#[cfg(test)]
mod tests;
