//! Pure rules for combining Chrys's project and global hooks files.
//!
//! The hooks themselves need no merging here: the registry runs project sources
//! (`ProjectChrysFile`) before user ones (`UserChrysFile`), which is Chrys's "project first,
//! then global" order, and a project deny ends the chain for both. What Chrys adds on top is
//! here: which of the three file names a folder uses, the settings merge, the same-id
//! warning, the dormant-project warning and what a durable outbox job records.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use hooks_schema::{
    Delivery, ExecutionMode, HookDefinition, HookDiagnostic, HookSourceId, HookSourceKind,
    ParsedSource, RunSettings,
};
use serde_json::{Map, Value};

use crate::pyval::str_repr;

/// The names a hooks folder is searched for, in precedence order: the first one present is
/// the only one read.
pub const FILE_NAMES: [&str; 3] = ["hooks.yaml", "hooks.yml", "hooks.json"];

/// Which file of a folder is read, and which are shadowed by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePick {
    /// The file read; `None` when the folder has none of [`FILE_NAMES`].
    pub chosen: Option<&'static str>,
    /// The other hooks files present, which are ignored.
    pub shadowed: Vec<&'static str>,
}

/// Picks the file among the names present in a folder (`existing` may hold any names).
pub fn pick_file(existing: &[&str]) -> FilePick {
    let present: Vec<&'static str> =
        FILE_NAMES.into_iter().filter(|n| existing.contains(n)).collect();
    let mut it = present.into_iter();
    let chosen = it.next();
    FilePick { chosen, shadowed: it.collect() }
}

/// The `shadowed_file` warning for a file ignored because `chosen` is read instead.
pub fn shadowed_file_warning(shadowed: &Path, chosen: &str) -> HookDiagnostic {
    HookDiagnostic::warning(format!("ignored: {chosen} in the same folder is read instead"))
        .in_file(shadowed)
        .with_code("shadowed_file")
}

/// The `project_hooks_dormant` warning: `file` holds project hooks, but the user's own
/// settings keep project hooks off, so it is not loaded.
pub fn project_hooks_dormant(file: &Path) -> HookDiagnostic {
    HookDiagnostic::warning(format!(
        "Found project hooks in {}, but they are not loaded. To run them, turn on Load project hooks under Settings → Security → Project trust (project.hooks_enabled).",
        file.display()
    ))
    .in_file(file)
    .with_code("project_hooks_dormant")
}

/// Whether the project file must be dropped because it is the global file itself (a
/// session started in the home folder names `~/.chrys/hooks/hooks.yaml` twice). Chrys then
/// loads the file once, as global, with no duplicate-id warning. Both paths must be
/// canonical (`hooks_registry::canonicalize`), which also covers case-insensitive disks.
pub fn project_is_global_file(project: &Path, global: &Path) -> bool {
    project == global
}

/// Chrys's hook settings, with its defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct HookSettings {
    /// How long session shutdown waits for async hooks (seconds).
    pub shutdown_grace_seconds: f64,
    /// How many hooks run at once.
    pub max_parallel_hooks: i64,
    /// How old a pending durable job must be before it is retried (seconds).
    pub outbox_retry_age_seconds: f64,
    /// How many times a durable job is tried.
    pub outbox_max_retries: i64,
}

impl Default for HookSettings {
    fn default() -> HookSettings {
        HookSettings {
            shutdown_grace_seconds: 5.0,
            max_parallel_hooks: 4,
            outbox_retry_age_seconds: 60.0,
            outbox_max_retries: 3,
        }
    }
}

impl HookSettings {
    /// Applies the explicitly set settings of one file (as [`crate::parse`] stores them in
    /// `ParsedSource::settings`).
    pub fn apply(&mut self, explicit: &Map<String, Value>) {
        for (k, v) in explicit {
            match k.as_str() {
                "shutdown_grace_seconds" => {
                    self.shutdown_grace_seconds = number(v, self.shutdown_grace_seconds)
                }
                "max_parallel_hooks" => {
                    self.max_parallel_hooks = v.as_i64().unwrap_or(self.max_parallel_hooks)
                }
                "outbox_retry_age_seconds" => {
                    self.outbox_retry_age_seconds = number(v, self.outbox_retry_age_seconds);
                }
                "outbox_max_retries" => {
                    self.outbox_max_retries = v.as_i64().unwrap_or(self.outbox_max_retries)
                }
                _ => {}
            }
        }
    }
}

fn number(v: &Value, fallback: f64) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(fallback),
        Value::String(s) => s.parse::<f64>().unwrap_or(fallback),
        _ => fallback,
    }
}

/// Chrys's defaults for the run settings no file sets (`HookSettings` in Chrys's
/// `schema.py`): 4 hooks at once, 5 s of shutdown grace, 3 tries, 60 s before a retry.
/// They equal the dispatcher's own defaults (`specs/dispatch.md`), which is what a field no
/// Chrys file sets runs with.
pub const DEFAULT_RUN_SETTINGS: RunSettings = RunSettings {
    max_parallel: Some(4),
    shutdown_grace: Some(Duration::from_secs(5)),
    outbox_max_retries: Some(3),
    outbox_retry_age: Some(Duration::from_secs(60)),
};

/// The run settings Chrys uses for a session with these two files (either may be absent):
/// per field, the project file's if it sets it, else the global file's, else
/// [`DEFAULT_RUN_SETTINGS`]. The registry merges the same way across the sources that run in
/// one place ([`RunSettings::over`]), without the defaults.
pub fn merge_run_settings(
    project: Option<&RunSettings>,
    global: Option<&RunSettings>,
) -> RunSettings {
    let below = global.copied().unwrap_or_default().over(DEFAULT_RUN_SETTINGS);
    project.copied().unwrap_or_default().over(below)
}

/// Per-field merge: a field the project file sets wins, then one the global file sets, then
/// the default. Fields a file leaves out never override the other file.
pub fn merge_settings(
    project: Option<&Map<String, Value>>,
    global: Option<&Map<String, Value>>,
) -> HookSettings {
    let mut s = HookSettings::default();
    if let Some(g) = global {
        s.apply(g);
    }
    if let Some(p) = project {
        s.apply(p);
    }
    s
}

/// One warning per id defined in both files (sorted by id), naming both files. Both hooks
/// still run, the project one first.
pub fn duplicate_id_warnings(
    project: (&Path, &ParsedSource),
    global: (&Path, &ParsedSource),
) -> Vec<HookDiagnostic> {
    let mut ids: Vec<&str> = project
        .1
        .definitions
        .iter()
        .map(|d| d.id.as_str())
        .filter(|id| global.1.definitions.iter().any(|g| g.id.as_str() == *id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|id| {
            HookDiagnostic::warning(format!(
                "Hook id {} is defined in both project ({}) and global ({}) hooks configs. Both will run, project first. To suppress the global hook, set 'enabled: false' in the global file.",
                str_repr(id),
                project.0.display(),
                global.0.display()
            ))
            .in_file(project.0)
            .with_code("duplicate_hook_id")
            .for_hook(id)
        })
        .collect()
}

/// Which layer a Chrys source is: `"project"` for a project file, `"global"` otherwise.
pub fn hook_source_label(kind: HookSourceKind) -> &'static str {
    if kind == crate::PROJECT_FILE { "project" } else { "global" }
}

/// What a durable outbox job must record so recovery finds the same hook again, even when
/// the project and the global file both define its id.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OutboxRecord {
    /// The hook's id.
    pub hook_id: String,
    /// Chrys's event name.
    pub event: String,
    /// `"project"` or `"global"`.
    pub hook_source: &'static str,
    /// The file the hook came from.
    pub hook_source_path: PathBuf,
}

/// The outbox record for a run of `hook` from `source`, when the run is durable: Chrys uses
/// the outbox only for `delivery: durable` hooks that are not blocking.
pub fn outbox_record(hook: &HookDefinition, source: &HookSourceId) -> Option<OutboxRecord> {
    if hook.delivery != Delivery::Durable || hook.mode == ExecutionMode::Blocking {
        return None;
    }
    Some(OutboxRecord {
        hook_id: hook.id.to_string(),
        event: hook.native_event.clone(),
        hook_source: hook_source_label(source.kind),
        hook_source_path: source.path.as_path().to_path_buf(),
    })
}

#[cfg(test)]
mod tests;
