//! `hooks guard`: whether agent file edits of some paths would be allowed.

use std::io::Write;

use anyhow::{Context, Result};
use hooks_app::serve::render::path_text;
use hooks_guard::GuardDecision;
use serde_json::json;

use crate::{cli::GuardArgs, setup};

/// Runs `hooks guard`: exit 2 when any path is protected (or cannot be resolved).
pub fn run(a: &GuardArgs, colour: bool) -> Result<u8> {
    let process_cwd = std::env::current_dir().context("cannot read the current directory")?;
    let cwd = setup::absolute(a.cwd.as_deref().unwrap_or(&process_cwd), &process_cwd);
    let mut built = setup::build_for_session(&a.runtime, setup::Watch::Once, &cwd)?;
    setup::warn_new_advisories(&mut built.runtime);
    built.runtime.pin_for_run()?;
    let handle = built.runtime.fire_handle();
    let mut out = std::io::stdout().lock();
    let mut any = false;
    for path in &a.paths {
        let decision = handle.can_write_files(std::slice::from_ref(path), &cwd);
        any |= !decision.is_allowed();
        if a.json {
            let hits: Vec<_> = decision
                .hits()
                .iter()
                .map(|h| {
                    json!({
                        "protected": path_text(h.protected.as_path()),
                        "source": path_text(h.source.path.as_path()),
                        "source_kind": h.source.kind.name(),
                        "role": h.role.as_str(),
                        "why": h.why.as_str(),
                        "message": h.to_string(),
                    })
                })
                .collect();
            let line = json!({
                "path": path_text(path),
                "allowed": decision.is_allowed(),
                "hits": hits,
                "unresolved": matches!(decision, GuardDecision::Unresolved(_)).then(|| decision.to_string()),
            });
            writeln!(out, "{line}")?;
        } else if decision.is_allowed() {
            writeln!(out, "{}: {}", path.display(), super::paint(colour, "32", "allowed"))?;
        } else {
            writeln!(
                out,
                "{}: {} — {decision}",
                path.display(),
                super::paint(colour, "31", "protected")
            )?;
        }
    }
    Ok(if any { 2 } else { 0 })
}
