//! The guard's `tracing` events: one per refused edit path (`specs/observability.md`).

use crate::GuardDecision;

/// The target of every event of this crate.
const TARGET: &str = "hooks::guard";

/// Emits one `guard refused` event per hit or unresolved path of a refusal; nothing for an
/// allowed edit.
pub(crate) fn refused(decision: &GuardDecision) {
    match decision {
        GuardDecision::Allowed => {}
        GuardDecision::Protected(hits) => {
            for hit in hits {
                tracing::info!(
                    target: TARGET,
                    requested = %hit.requested.display(),
                    protected = %hit.protected,
                    file = %hit.source.path,
                    source_kind = %hit.source.kind,
                    role = hit.role.as_str(),
                    why = hit.why.as_str(),
                    "guard refused an edit"
                );
            }
        }
        GuardDecision::Unresolved(paths) => {
            for p in paths {
                tracing::info!(
                    target: TARGET,
                    requested = %p.requested.display(),
                    error = %p.error,
                    "guard refused an edit it could not resolve"
                );
            }
        }
    }
}
