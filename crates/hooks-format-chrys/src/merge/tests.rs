//! Tests for the merge rules, against Chrys 0.32.0's `merge_hooks_files` on the files in
//! `test_data/merge/` (recorded with the differential oracle's `--merge`).

use std::path::Path;

use hooks_schema::{AbsPathBuf, HookSourceId, ParsedSource};
use serde_json::{Map, json};

use crate::{
    merge::{
        FILE_NAMES, FilePick, HookSettings, OutboxRecord, duplicate_id_warnings, merge_settings,
        outbox_record, pick_file, project_hooks_dormant, project_is_global_file,
        shadowed_file_warning,
    },
    parse,
};

fn load(rel: &str) -> ParsedSource {
    let bytes =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/merge").join(rel))
            .expect("fixture");
    parse(&bytes, Path::new(rel)).expect("loads")
}

#[test]
fn same_ids_warn_naming_both_files_and_settings_merge_per_field() {
    let p = load("p/hooks.yaml");
    let g = load("g/hooks.yaml");
    let warnings = duplicate_id_warnings(
        (Path::new("/tmp/chrys/mg/p/hooks.yaml"), &p),
        (Path::new("/tmp/chrys/mg/g/hooks.yaml"), &g),
    );
    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Hook id 'shared' is defined in both project (/tmp/chrys/mg/p/hooks.yaml) and global (/tmp/chrys/mg/g/hooks.yaml) hooks configs. Both will run, project first. To suppress the global hook, set 'enabled: false' in the global file.",
            "Hook id 'zeta' is defined in both project (/tmp/chrys/mg/p/hooks.yaml) and global (/tmp/chrys/mg/g/hooks.yaml) hooks configs. Both will run, project first. To suppress the global hook, set 'enabled: false' in the global file.",
        ]
    );
    assert!(warnings.iter().all(|w| w.code.as_deref() == Some("duplicate_hook_id")));
    // An explicit project value equal to the default still beats the global value.
    let s = merge_settings(Some(&p.settings), Some(&g.settings));
    assert_eq!(
        s,
        HookSettings { max_parallel_hooks: 4, outbox_max_retries: 5, ..HookSettings::default() }
    );
    assert_eq!(merge_settings(None, None), HookSettings::default());
    assert_eq!(merge_settings(None, Some(&g.settings)).max_parallel_hooks, 8);
    let mut nan = Map::new();
    nan.insert("shutdown_grace_seconds".into(), json!("nan"));
    assert!(merge_settings(Some(&nan), None).shutdown_grace_seconds.is_nan());
}

#[test]
fn file_precedence() {
    assert_eq!(FILE_NAMES, ["hooks.yaml", "hooks.yml", "hooks.json"]);
    assert_eq!(
        pick_file(&["hooks.json", "other", "hooks.yml"]),
        FilePick { chosen: Some("hooks.yml"), shadowed: vec!["hooks.json"] }
    );
    assert_eq!(
        pick_file(&["hooks.json", "hooks.yaml", "hooks.yml"]),
        FilePick { chosen: Some("hooks.yaml"), shadowed: vec!["hooks.yml", "hooks.json"] }
    );
    assert_eq!(pick_file(&["HOOKS.YAML"]), FilePick { chosen: None, shadowed: vec![] });
    let w = shadowed_file_warning(Path::new("/x/hooks.json"), "hooks.yaml");
    assert_eq!(
        w.to_string(),
        "/x/hooks.json: warning: ignored: hooks.yaml in the same folder is read instead"
    );
    assert_eq!(w.code.as_deref(), Some("shadowed_file"));
}

#[test]
fn dormant_project_warning() {
    let w = project_hooks_dormant(Path::new("/repo/.chrys/hooks/hooks.yaml"));
    assert_eq!(w.code.as_deref(), Some("project_hooks_dormant"));
    assert_eq!(
        w.message,
        "Found project hooks in /repo/.chrys/hooks/hooks.yaml, but they are not loaded. To run them, turn on Load project hooks under Settings → Security → Project trust (project.hooks_enabled)."
    );
}

#[test]
fn outbox_records_name_the_layer_and_file() {
    let src = parse(b"hooks:\n  - {id: d, event: after_turn, run: {type: shell, shell: x}, execution: {mode: async, delivery: durable}}\n  - {id: b, event: after_turn, run: {type: shell, shell: x}, execution: {mode: blocking, delivery: durable}}\n  - {id: e, event: after_turn, run: {type: shell, shell: x}}\n", Path::new("/r/.chrys/hooks/hooks.yaml")).expect("loads");
    let project = HookSourceId::new(
        crate::PROJECT_FILE,
        AbsPathBuf::new("/r/.chrys/hooks/hooks.yaml".into()).expect("abs"),
    );
    let global = HookSourceId::new(
        crate::USER_FILE,
        AbsPathBuf::new("/h/.chrys/hooks/hooks.yaml".into()).expect("abs"),
    );
    assert_eq!(
        outbox_record(&src.definitions[0], &project),
        Some(OutboxRecord {
            hook_id: "d".into(),
            event: "after_turn".into(),
            hook_source: "project",
            hook_source_path: "/r/.chrys/hooks/hooks.yaml".into()
        })
    );
    assert_eq!(outbox_record(&src.definitions[0], &global).map(|r| r.hook_source), Some("global"));
    assert_eq!(
        outbox_record(&src.definitions[1], &project),
        None,
        "blocking hooks never use the outbox"
    );
    assert_eq!(outbox_record(&src.definitions[2], &project), None, "best effort");
}

#[test]
fn the_same_file_is_loaded_once_as_global() {
    let home = Path::new("/home/u/.chrys/hooks/hooks.yaml");
    assert!(project_is_global_file(home, home));
    assert!(!project_is_global_file(Path::new("/repo/.chrys/hooks/hooks.yaml"), home));
}

/// The run settings a value of Chrys's merged `settings` stands for, with what Chrys does
/// with it: a count above `u32::MAX` saturates; an infinite (or too long) grace or age is
/// `Duration::MAX`; a NaN grace is zero (it times out at once), a NaN age `Duration::MAX`
/// (never old enough).
fn chrys_value_as_run_settings(merged: &serde_json::Value) -> hooks_schema::RunSettings {
    use std::time::Duration;
    let count = |k: &str| {
        Some(match &merged[k] {
            serde_json::Value::Number(n) => {
                n.as_u64().map_or(u32::MAX, |n| u32::try_from(n).unwrap_or(u32::MAX))
            }
            other => {
                assert!(
                    other.as_str().is_some_and(|s| s.chars().all(|c| c.is_ascii_digit())),
                    "{k}: {other}"
                );
                u32::MAX
            }
        })
    };
    let secs = |k: &str, nan: Duration| {
        Some(match &merged[k] {
            serde_json::Value::Number(n) => {
                Duration::try_from_secs_f64(n.as_f64().unwrap()).unwrap_or(Duration::MAX)
            }
            serde_json::Value::String(s) if s == "nan" => nan,
            serde_json::Value::String(s) if s == "inf" => Duration::MAX,
            other => panic!("{k}: {other}"),
        })
    };
    hooks_schema::RunSettings {
        max_parallel: count("max_parallel_hooks"),
        shutdown_grace: secs("shutdown_grace_seconds", Duration::ZERO),
        outbox_max_retries: count("outbox_max_retries"),
        outbox_retry_age: secs("outbox_retry_age_seconds", Duration::MAX),
    }
}

/// The typed run settings the engine acts on (`ParsedSource::policy.run`), merged project
/// over global over Chrys's defaults, agree with the `settings` Chrys 0.32.0's own
/// `merge_hooks_files` made of the same two files (`test_data/merge/settings/oracle.json`,
/// recorded with the differential oracle's `--merge`): per field, the project's wins, an
/// explicit project default beats the global value, a settings-only file counts, and the
/// YAML 1.1 numbers, huge integers, infinities and NaNs mean what they mean to Chrys.
#[test]
fn typed_run_settings_merge_as_chrys_merges_its_settings() {
    use crate::merge::{DEFAULT_RUN_SETTINGS, merge_run_settings};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/merge/settings");
    let oracle: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(dir.join("oracle.json")).unwrap()).unwrap();
    assert_eq!(oracle.len(), 12);
    for (case, expected) in &oracle {
        let layer = |name: &str| {
            let folder = dir.join(case).join(name);
            let file = std::fs::read_dir(&folder).ok()?.next()?.unwrap().path();
            let parsed = parse(&std::fs::read(&file).unwrap(), &file)
                .unwrap_or_else(|e| panic!("{case}/{name}: {e:?}"));
            Some(parsed.policy.run)
        };
        let (project, global) = (layer("p"), layer("g"));
        assert!(project.is_some() || global.is_some(), "{case}");
        let merged = merge_run_settings(project.as_ref(), global.as_ref());
        assert_eq!(merged, chrys_value_as_run_settings(expected), "{case}");
        // The registry's merge (no defaults) gives the same once the defaults fill the gaps.
        let generic = project.unwrap_or_default().over(global.unwrap_or_default());
        assert_eq!(generic.over(DEFAULT_RUN_SETTINGS), merged, "{case}");
    }
}
