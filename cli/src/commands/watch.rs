//! `hooks watch`: one line per published snapshot.

use std::io::Write;

use anyhow::Result;
use hooks_registry::RegistrySnapshot;
use serde_json::json;

use crate::{cli::WatchArgs, setup};

fn line(snap: &RegistrySnapshot, as_json: bool) -> String {
    let diags: usize = snap.sources().iter().map(|s| s.diagnostics.len()).sum();
    let active = snap.sources().iter().filter(|s| s.runs).count();
    if as_json {
        json!({
            "generation": snap.generation().get(),
            "revision": snap.revision().get(),
            "sources": snap.sources().len(),
            "active_sources": active,
            "bindings": snap.bindings().len(),
            "diagnostics": diags,
        })
        .to_string()
    } else {
        format!(
            "generation {} revision {}: {} source(s), {active} active, {} binding(s), {diags} diagnostic(s)",
            snap.generation(),
            snap.revision(),
            snap.sources().len(),
            snap.bindings().len()
        )
    }
}

/// Runs `hooks watch` until interrupted (or `--count` snapshots were printed).
pub fn run(a: &WatchArgs) -> Result<u8> {
    let mut built = setup::build(&a.runtime, setup::Watch::WatchedAndWait)?;
    let events = built.runtime.subscribe();
    let mut out = std::io::stdout().lock();
    let mut printed = 0u64;
    let mut last = None;
    let mut emit = |out: &mut std::io::StdoutLock<'_>, snap: &RegistrySnapshot| -> Result<bool> {
        if last == Some(snap.generation()) {
            return Ok(false);
        }
        last = Some(snap.generation());
        writeln!(out, "{}", line(snap, a.json))?;
        out.flush()?;
        printed += 1;
        Ok(a.count.is_some_and(|n| printed >= n))
    };
    setup::warn_new_advisories(&mut built.runtime);
    if emit(&mut out, &built.runtime.snapshot())? {
        return Ok(0);
    }
    while events.recv().is_ok() {
        // A reload or a root's files may bring a dormant project file: said before the line.
        setup::warn_new_advisories(&mut built.runtime);
        if emit(&mut out, &built.runtime.snapshot())? {
            break;
        }
    }
    Ok(0)
}
