//! `hooks audit FILE`: the summary of an audit log — decisions per hook, the slowest hooks,
//! denials with their reasons, the guard's refusals (`specs/audit-log.md`).

use std::io::Write;

use anyhow::{Context, Result};

use crate::cli::AuditArgs;

/// Prints the summary as tables, or as JSON with `--json`.
pub fn run(a: &AuditArgs) -> Result<u8> {
    let read = hooks_app::audit::read_records(&a.file)
        .with_context(|| format!("cannot read the audit log {}", a.file.display()))?;
    let summary = hooks_app::audit::summary::summarize(&read);
    let mut out = std::io::stdout().lock();
    if a.json {
        serde_json::to_writer_pretty(&mut out, &summary).context("cannot write the summary")?;
        writeln!(out)?;
    } else {
        write!(out, "{}", hooks_app::audit::summary::render(&summary))?;
    }
    Ok(0)
}
