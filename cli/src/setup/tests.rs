//! Tests of the runtime `setup` builds for a command.

use clap::Parser;

use super::{Watch, build_with};
use crate::cli::{Cli, Command};

/// A one-shot fire's runtime (protection off) binds exactly what a runtime with the
/// protection binds, protects the hook files alone, and says so, so a guard asked of it
/// refuses; `hooks guard`'s and a dry run's (protection on) protect the script too.
#[test]
fn a_runtime_without_protection_binds_the_same_hooks_and_protects_only_their_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = hooks_registry::canonicalize(dir.path()).expect("canonical").into_path_buf();
    std::fs::create_dir_all(root.join(".cursor")).expect("mkdir");
    std::fs::write(
        root.join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"./gate.sh"}]}}"#,
    )
    .expect("write");
    std::fs::write(root.join("gate.sh"), "#!/bin/sh\n").expect("write");
    let config = root.join("cfg");
    let (r, c) = (root.to_str().expect("utf-8"), config.to_str().expect("utf-8"));
    let cli = Cli::try_parse_from([
        "hooks",
        "fire",
        "beforeShellExecution",
        "--posture",
        "auto-approves",
        "--root",
        r,
        "--config-dir",
        c,
    ])
    .expect("parses");
    let Command::Fire(a) = &cli.command else { panic!("fire: {:?}", cli.command) };
    let snapshot = |protection: bool| {
        let mut built = build_with(&a.runtime, Watch::Once, protection).expect("built");
        built.runtime.pin_for_run().expect("pinned");
        built.runtime.snapshot()
    };
    let (off, on) = (snapshot(false), snapshot(true));
    assert!(!off.protection_computed());
    assert!(on.protection_computed());
    assert_eq!(off.bindings(), on.bindings());
    assert_eq!(on.bindings().len(), 1);
    let hooks = root.join(".cursor/hooks.json");
    assert!(off.protected_paths().contains(&hooks));
    assert!(on.protected_paths().contains(&hooks));
    assert!(!off.protected_paths().contains(&root.join("gate.sh")));
    assert!(on.protected_paths().contains(&root.join("gate.sh")));
}
