//! Advisories about the loaded files that no single source carries: each format's
//! descriptor is shown its sources in one snapshot ([`FormatDescriptor::advisories`]).

use hooks_registry::RegistrySnapshot;
use hooks_schema::{FormatSet, HookDiagnostic, SourceSummary};
use hooks_trust::{TrustInputs, TrustPolicy};

#[cfg(doc)]
use hooks_schema::FormatDescriptor;

/// Every registered format's advisories about its sources in `snapshot`, in registration
/// order (Chrys's dormant project file and its same-id warning between the project and the
/// global file, say).
///
/// A project source is marked dormant ([`SourceSummary::dormant`]) when it does not run only
/// for want of the user's opt-in to project hooks: the registry holds it back because a key
/// it requires is off (a project Chrys file's `project.hooks_enabled`, on every surface), or
/// `policy` keeps its kind inert under `inputs` with the opt-in off; and `policy` would trust
/// it with the opt-in on; and the file is not also loaded as a non-project source (then it
/// runs as that one). Call it with the policy and inputs the project files are decided with.
pub fn advisories(
    formats: &FormatSet,
    snapshot: &RegistrySnapshot,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
) -> Vec<HookDiagnostic> {
    let sources = snapshot.sources();
    let opted_in = TrustInputs { user_enables_project_hooks: true, ..*inputs };
    let mut out = Vec::new();
    for format in formats.iter() {
        let summaries: Vec<SourceSummary<'_>> = sources
            .iter()
            .filter(|s| s.id.kind.format() == Some(format.id()))
            .map(|s| {
                let kind = s.id.kind;
                let for_want_of_opt_in = s.held_back_by.is_some()
                    || (!inputs.user_enables_project_hooks
                        && !s.trust.is_active()
                        && !policy.decide(kind, inputs).is_active());
                let dormant = kind.is_project()
                    && for_want_of_opt_in
                    && policy.decide(kind, &opted_in).is_active()
                    && !sources.iter().any(|o| !o.id.kind.is_project() && o.id.path == s.id.path);
                SourceSummary {
                    id: &s.id,
                    runs: s.runs,
                    trust: &s.trust,
                    dormant,
                    definitions: &s.definitions,
                }
            })
            .collect();
        if !summaries.is_empty() {
            out.extend(format.advisories(&summaries));
        }
    }
    out
}
