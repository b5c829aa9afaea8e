//! Chrys's rules on top of loading: the warning for a hooks file shadowed by another in the
//! same folder, the dormant-project warning, and the same-id warning between the project and
//! the user's global file.

use std::path::Path;

use hooks_format_chrys::merge::{
    FILE_NAMES, duplicate_id_warnings, pick_file, project_hooks_dormant, shadowed_file_warning,
};
use hooks_registry::{RegistrySnapshot, SourceView};
use hooks_schema::{HookDiagnostic, ParsedSource};
use hooks_trust::{TrustInputs, TrustPolicy};

/// The `shadowed_file` warnings for the Chrys file at `path`: one for each other Chrys hooks
/// file (`hooks.yaml`, `hooks.yml`, `hooks.json`) present in the same folder and ignored
/// because `path` is read instead.
///
/// Only a folder named `hooks` is a Chrys folder (`.chrys/hooks/`, `<config_dir>/hooks/`);
/// a file whose name is not one of Chrys's, or that is itself shadowed (named directly
/// although a name before it exists), gets none. A dangling symlink counts as present.
/// [`crate::read_source`] adds these to every Chrys file it reads.
pub fn shadowed_file_warnings(path: &Path) -> Vec<HookDiagnostic> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Vec::new();
    };
    if dir.file_name().is_none_or(|n| n != "hooks") || !FILE_NAMES.contains(&name) {
        return Vec::new();
    }
    let present: Vec<&str> = FILE_NAMES
        .into_iter()
        .filter(|n| *n == name || std::fs::symlink_metadata(dir.join(n)).is_ok())
        .collect();
    let pick = pick_file(&present);
    if pick.chosen != Some(name) {
        return Vec::new();
    }
    pick.shadowed.iter().map(|s| shadowed_file_warning(&dir.join(s), name)).collect()
}

/// The `project_hooks_dormant` warning for each project Chrys file in `snapshot` that is
/// inert only because the user has not enabled project hooks (`project.hooks_enabled`): the
/// policy keeps project Chrys files inert under `inputs` and would activate them with the
/// opt-in. Nothing when the opt-in is on, when something else keeps project files inert
/// (strict mode, a headless run's posture), or for a project file that is also the user's own
/// file (it runs as the user source).
///
/// Call it with the policy and inputs the project files were decided with (the watcher's),
/// after they loaded; the warnings are the app's to show, once per file.
pub fn dormant_diagnostics(
    snapshot: &RegistrySnapshot,
    policy: &dyn TrustPolicy,
    inputs: &TrustInputs,
) -> Vec<HookDiagnostic> {
    let kind = hooks_format_chrys::PROJECT_FILE;
    if inputs.user_enables_project_hooks {
        return Vec::new();
    }
    let opted_in = TrustInputs { user_enables_project_hooks: true, ..*inputs };
    if policy.decide(kind, inputs).is_active() || !policy.decide(kind, &opted_in).is_active() {
        return Vec::new();
    }
    let sources = snapshot.sources();
    sources
        .iter()
        .filter(|s| s.id.kind == kind && !s.trust.is_active())
        .filter(|s| !sources.iter().any(|o| !o.id.kind.is_project() && o.id.path == s.id.path))
        .map(|s| project_hooks_dormant(s.id.path.as_path()))
        .collect()
}

/// Chrys's `duplicate_hook_id` warnings: for each project Chrys file that runs, one warning
/// per hook id it shares with the user's global Chrys file, when that runs too. Both hooks
/// still run, the project one first. A project file that is the global file itself runs
/// once, as the user source, and gets none (Chrys's same-file rule).
pub fn duplicate_id_diagnostics(snapshot: &RegistrySnapshot) -> Vec<HookDiagnostic> {
    let sources = snapshot.sources();
    let Some(global) =
        sources.iter().find(|s| s.id.kind == hooks_format_chrys::USER_FILE && s.runs)
    else {
        return Vec::new();
    };
    let global_parse = parse_of(global);
    sources
        .iter()
        .filter(|s| {
            s.id.kind == hooks_format_chrys::PROJECT_FILE && s.runs && s.id.path != global.id.path
        })
        .flat_map(|project| {
            duplicate_id_warnings(
                (project.id.path.as_path(), &parse_of(project)),
                (global.id.path.as_path(), &global_parse),
            )
        })
        .collect()
}

/// The definitions of a source's parse in effect, as the merge rules take them.
fn parse_of(view: &SourceView) -> ParsedSource {
    ParsedSource {
        definitions: view.definitions.iter().map(|d| (**d).clone()).collect(),
        ..ParsedSource::default()
    }
}

#[cfg(test)]
mod tests;
