//! The typed policy a hook file carries: switches that decide which sources of its format
//! run, the opt-in a source needs, and run settings for its format's hooks.
//!
//! Adapters parse a file's policy keys into a [`SourcePolicy`]; the registry resolves the
//! policies of the sources that run, per project root and outside every project, without
//! knowing any format (`specs/formats.md`, "Source policy"):
//!
//! - [`SwitchRule::Hooks`] (Claude Code's `disableAllHooks`, Codex's `[features].hooks`,
//!   Gemini CLI's `hooksConfig.enabled`): among the sources of the format that run in a place,
//!   the voice with the highest precedence decides whether the format's hooks run there.
//!   Managed voices outrank every other and, among them, the later file wins (scalar settings
//!   merge that way); the rest rank by source precedence. A managed voice that switches hooks
//!   off switches off every source of the format; any other switches off the format's
//!   non-managed sources only (a non-managed file cannot disable managed hooks).
//! - [`SwitchRule::ManagedOnly`] (Claude Code's `allowManagedHooksOnly`, Codex's
//!   `allow_managed_hooks_only`): honoured from managed sources only (the later managed file
//!   wins); on, it switches off every non-managed source of the format.
//! - [`SwitchRule::OptIn`] (Chrys's `project.hooks_enabled`): a source whose policy
//!   [`requires`](SourcePolicy::requires) the key runs only where the highest-precedence
//!   managed or user voice of its format turns it on. Project sources never speak for it, and
//!   no voice means off.
//!
//! - [`SourcePolicy::disables`] (Gemini CLI's `hooksConfig.disabled`): hook names the file
//!   switches off wherever it applies, in every source of its format, as the format names its
//!   hooks ([`crate::HookCodec::disable_name`]). The lists of the sources that run in a place
//!   add up (Gemini CLI merges them by union); a non-managed file's names never switch off a
//!   managed source's hooks.
//!
//! - [`SourcePolicy::picks`] and [`SourcePolicy::picked_as`] (Claude Code's `agent`, which
//!   makes one subagent the main thread's: the hooks of its front matter then run for the
//!   whole session): a source that is [`picked_as`](SourcePolicy::picked_as) a name for a key
//!   runs only where the name picked for that key is its own, and no source of its format
//!   that comes before it there is picked as the same name (a project's subagent shadows the
//!   user's). The name picked in a place is said as a switch's value is: the last managed
//!   voice, else the voice of highest precedence; an empty name picks none. Only sources that
//!   can run speak and shadow: an untrusted file neither picks a name nor hides a trusted one.
//!
//! Project sources speak only for the root they were found under.

use std::time::Duration;

/// How a [`PolicySwitch`] is resolved and what it switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SwitchRule {
    /// Whether the format's hooks run at all (`on: false` switches them off).
    Hooks,
    /// Whether only the format's managed sources run (`on: true` switches the others off).
    ManagedOnly,
    /// Whether sources that require the switch's key run (`on: true` lets them run).
    OptIn,
}

/// One setting of a file that changes which hooks of its format run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PolicySwitch {
    /// The setting as the file spells it (`disableAllHooks`), for reasons and listings.
    pub key: &'static str,
    /// How it is resolved.
    pub rule: SwitchRule,
    /// Its value, in the rule's sense (Claude's `disableAllHooks: true` is [`SwitchRule::Hooks`]
    /// with `on: false`).
    pub on: bool,
}

/// Settings for how the format's hooks run, as one file sets them (`None`: not set there).
///
/// They merge per field across the format's sources that apply in one place, the source
/// with the highest precedence that sets a field winning (Chrys: the project's `settings:`
/// over the global file's), and the dispatcher applies them to the format's hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RunSettings {
    /// How many of the format's hooks run at once (Chrys `max_parallel_hooks`).
    pub max_parallel: Option<u32>,
    /// How long shutdown waits for the format's async hooks (Chrys `shutdown_grace_seconds`).
    pub shutdown_grace: Option<Duration>,
    /// How many times a durable job is tried (Chrys `outbox_max_retries`).
    pub outbox_max_retries: Option<u32>,
    /// How old a pending durable job must be before it is retried (Chrys
    /// `outbox_retry_age_seconds`).
    pub outbox_retry_age: Option<Duration>,
}

impl RunSettings {
    /// Whether the file sets nothing.
    pub fn is_empty(&self) -> bool {
        *self == RunSettings::default()
    }

    /// `self` with every field it does not set taken from `lower` (a source of lower
    /// precedence).
    #[must_use]
    pub fn over(self, lower: RunSettings) -> RunSettings {
        RunSettings {
            max_parallel: self.max_parallel.or(lower.max_parallel),
            shutdown_grace: self.shutdown_grace.or(lower.shutdown_grace),
            outbox_max_retries: self.outbox_max_retries.or(lower.outbox_max_retries),
            outbox_retry_age: self.outbox_retry_age.or(lower.outbox_retry_age),
        }
    }
}

/// Hook names a file switches off across the sources of its format (see the module's list).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DisabledNames {
    /// The setting as the file spells it (`hooksConfig.disabled`), for reasons and listings.
    pub key: &'static str,
    /// The names, as the file lists them.
    pub names: Vec<String>,
}

/// A name for a role its format defines: what a file picks (Claude Code's `agent: "gate"` in
/// a settings file) or what a source is picked as (the subagent whose front matter says
/// `name: gate`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pick {
    /// The setting that picks, as the format spells it (`agent`), for reasons and listings.
    pub key: &'static str,
    /// The name; an empty name picks none.
    pub name: String,
}

/// The policy one file carries, typed: what the registry applies without knowing the format.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SourcePolicy {
    /// The switches the file sets, in file order.
    pub switches: Vec<PolicySwitch>,
    /// The [`SwitchRule::OptIn`] key this source needs turned on to run (Chrys's project files
    /// need `project.hooks_enabled`).
    pub requires: Option<&'static str>,
    /// Run settings for the format's hooks.
    pub run: RunSettings,
    /// Hook names it switches off in every source of its format where it applies.
    pub disables: Option<DisabledNames>,
    /// The name the file picks for a key (Claude Code's settings `agent`), where it applies.
    pub picks: Option<Pick>,
    /// The name this source is picked as: it runs only where that name is picked for the key
    /// (Claude Code's subagent, whose hooks run for the whole session when settings' `agent`
    /// names it).
    pub picked_as: Option<Pick>,
}

impl SourcePolicy {
    /// Whether the file carries no policy.
    pub fn is_empty(&self) -> bool {
        self.switches.is_empty()
            && self.requires.is_none()
            && self.run.is_empty()
            && self.disables.as_ref().is_none_or(|d| d.names.is_empty())
            && self.picks.is_none()
            && self.picked_as.is_none()
    }

    /// The value of the last switch of `rule`, if the file sets one.
    pub fn switch(&self, rule: SwitchRule) -> Option<&PolicySwitch> {
        self.switches.iter().rev().find(|s| s.rule == rule)
    }
}

#[cfg(test)]
mod tests;
