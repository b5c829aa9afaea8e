//! The registry's `tracing` events: snapshot publishes, trust decisions and the pin
//! (`specs/observability.md`). Only names, paths, numbers and the trust table's reasons.

use hooks_schema::{Generation, HookSourceId, Revision, TrustDecision};
use hooks_trust::CommandExecutionPosture;

/// The target of every event of this crate.
const TARGET: &str = "hooks::registry";

/// What a publish changed, for its event.
pub(crate) struct Published {
    pub(crate) generation: Generation,
    pub(crate) revision: Revision,
    pub(crate) previous: Revision,
    pub(crate) sources: usize,
    pub(crate) first: bool,
    pub(crate) bindings: bool,
    pub(crate) roots: bool,
    pub(crate) policy: bool,
    pub(crate) pinned: bool,
}

/// A snapshot was published: `reason` names what moved (`first`, `bindings`, `roots`,
/// `policy`), or `state` when only diagnostics, trust notes or protected paths did.
pub(crate) fn published(p: Published) {
    if !tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
        return;
    }
    let reasons: Vec<&str> =
        [(p.first, "first"), (p.bindings, "bindings"), (p.roots, "roots"), (p.policy, "policy")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
    let reason = if reasons.is_empty() { "state".to_owned() } else { reasons.join(",") };
    tracing::debug!(
        target: TARGET,
        generation = p.generation.get(),
        revision = p.revision.get(),
        revision_moved = p.revision != p.previous,
        sources = p.sources,
        pinned = p.pinned,
        reason = reason.as_str(),
        "snapshot published"
    );
}

/// A source's trust decision changed.
pub(crate) fn trust(source: &HookSourceId, trust: &TrustDecision) {
    tracing::debug!(
        target: TARGET,
        file = %source.path,
        source_kind = %source.kind,
        active = trust.is_active(),
        why = trust.reason(),
        "trust decision"
    );
}

/// The run was pinned.
pub(crate) fn pinned(posture: CommandExecutionPosture, revision: Revision) {
    tracing::info!(
        target: TARGET,
        posture = posture.as_str(),
        revision = revision.get(),
        "run pinned"
    );
}
