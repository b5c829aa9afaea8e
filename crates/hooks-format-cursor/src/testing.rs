//! Shared helpers for this crate's unit tests: fixture loading and one-definition parsing.

use std::path::{Path, PathBuf};

use hooks_schema::HookDefinition;
use serde_json::{Value, json};

/// The crate's `test_data/<dir>` folder.
pub(crate) fn data_dir(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(dir)
}

/// The `*.json` files of `test_data/<dir>`, sorted, as (stem, bytes).
pub(crate) fn fixtures(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(data_dir(dir))
        .expect("read test_data dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let stem = p.file_stem().expect("stem").to_string_lossy().into_owned();
            (stem, std::fs::read(&p).expect("read fixture"))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in test_data/{dir}");
    out
}

/// The one definition of a file holding `entry` under `event`.
pub(crate) fn hook_from(event: &str, entry: &Value) -> HookDefinition {
    let file = json!({ "version": 1, "hooks": { event: [entry] } });
    let parsed = crate::parse(file.to_string().as_bytes(), Path::new("hooks.json"))
        .expect("the case's hook file parses");
    assert!(
        parsed.diagnostics.iter().all(|d| !d.is_error()),
        "unexpected errors: {:?}",
        parsed.diagnostics
    );
    parsed.definitions.into_iter().next().expect("one definition")
}
