//! The watcher's `tracing` events: reloads of a watched place, the diagnostics of the files
//! a reload loaded, watch attachments and errors, removed roots (`specs/observability.md`).
//! Only places, paths, numbers, codes and severities: never a diagnostic's message or the
//! values it quotes, which can hold what a hook file says.

use hooks_registry::RegistrySnapshot;
use hooks_schema::{HookDiagnostic, HookSourceId, Severity};

use crate::{ReloadReport, WatchError, WatchedPlace};

/// The target of every event of this crate.
const TARGET: &str = "hooks::watcher";

/// A place as a field: `managed`, `user`, or the root's canonical path.
fn place_name(place: &WatchedPlace) -> String {
    match place {
        WatchedPlace::Managed => "managed".to_owned(),
        WatchedPlace::User => "user".to_owned(),
        WatchedPlace::Root(root) => root.to_string(),
    }
}

/// A place was loaded: one `watcher reloaded` event, then one `file diagnostic` per
/// diagnostic of the sources it loaded, as `snapshot` (published by the load, or later) has
/// them. `snapshot` is only called when the events are enabled.
pub(crate) fn reloaded(
    report: &ReloadReport,
    snapshot: impl FnOnce() -> std::sync::Arc<RegistrySnapshot>,
) {
    if !tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
        return;
    }
    let snapshot = snapshot();
    let diagnostics: Vec<(&HookSourceId, &HookDiagnostic)> = report
        .sources
        .iter()
        .filter_map(|id| snapshot.source(id).map(|view| (id, view)))
        .flat_map(|(id, view)| view.diagnostics.iter().map(move |d| (id, d)))
        .collect();
    let count = |s: Severity| diagnostics.iter().filter(|(_, d)| d.severity == s).count();
    let place = place_name(&report.place);
    tracing::debug!(
        target: TARGET,
        place = place.as_str(),
        loads = report.loads,
        generation = report.generation.get(),
        sources = report.sources.len(),
        withdrawn = report.withdrawn.len(),
        errors = count(Severity::Error),
        warnings = count(Severity::Warning),
        "watcher reloaded"
    );
    for (id, d) in diagnostics {
        tracing::debug!(
            target: TARGET,
            place = place.as_str(),
            file = %id.path,
            source_kind = %id.kind,
            severity = d.severity.as_str(),
            code = d.code.as_deref(),
            line = d.line,
            hook_id = d.hook_id.as_deref(),
            "file diagnostic"
        );
    }
}

/// A watch error or a root gone missing, recorded as a diagnostic of `place`.
pub(crate) fn watch_diagnostic(place: &WatchedPlace, d: &HookDiagnostic) {
    tracing::warn!(
        target: TARGET,
        place = place_name(place).as_str(),
        file = d.source.as_ref().map(|p| p.display().to_string()).as_deref(),
        severity = d.severity.as_str(),
        code = d.code.as_deref(),
        "watch diagnostic"
    );
}

/// The platform watches of `place` were attached, or failed to attach.
pub(crate) fn attached(place: &WatchedPlace, result: &Result<(), WatchError>) {
    match result {
        Ok(()) => {
            tracing::debug!(target: TARGET, place = place_name(place).as_str(), "watch attached");
        }
        Err(error) => tracing::warn!(
            target: TARGET,
            place = place_name(place).as_str(),
            error = %error,
            "watch failed to attach"
        ),
    }
}

/// A root was removed and its sources withdrawn.
pub(crate) fn removed(root: &hooks_schema::AbsPathBuf) {
    tracing::debug!(target: TARGET, place = %root, "root removed");
}
