//! `cargo xtask bench peer`: Chrys 0.32.0's own `HookManager.fire` against `hooks serve` on
//! the same blocking Chrys hook, from Python (issue 23's peer target: Chrys ≥ 2.2× our time).
//!
//! It runs the Chrys oracle's `fire_bench.py` (shared tools, `chrys-oracle/`) several times
//! against the release `hooks` binary and this checkout's `examples/python` client, and
//! prints each run's JSON line and a summary with ranges. The oracle needs the unpacked
//! `icode-tui` 0.32.0 wheel and a Python 3.13 venv, set up as its README says; this command
//! only runs them:
//!
//! - `$CHRYS_WHEEL_DIR`: the unpacked wheel (required);
//! - `$CHRYS_PYTHON`: the venv's interpreter (default: `venv/bin/python` beside the wheel
//!   folder, the README's layout);
//! - `$CHRYS_ORACLE_DIR`: the oracle (default: `../shared/tools/chrys-oracle` next to the main
//!   checkout);
//! - `$HOOKS_BIN`: a `hooks` binary at hand instead of the release build.
//!
//! Options: `--runs N` (default 3), `--rounds N` (default 300), `--json` (the summary only, as
//! one JSON object).

use std::{path::PathBuf, process::Command};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::{agents, workspace_root};

/// The ratio the issue asks for.
const TARGET: f64 = 2.2;

#[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).map(PathBuf::from)
}

fn number(rest: &[&str], flag: &str, default: usize) -> Result<usize> {
    match rest.iter().position(|a| *a == flag) {
        None => Ok(default),
        Some(i) => rest
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .with_context(|| format!("{flag} takes a number")),
    }
}

fn load_avg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn range(runs: &[Value], key: &str) -> Value {
    let v: Vec<f64> = runs.iter().filter_map(|r| r[key].as_f64()).collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if v.is_empty() { Value::Null } else { json!([lo, hi]) }
}

/// A folder of this run's in the system temporary folder, removed when dropped (on every
/// way out of [`peer`]).
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("xtask-peer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn peer(rest: &[&str]) -> Result<()> {
    let json_out = rest.contains(&"--json");
    let runs = number(rest, "--runs", 3)?;
    let rounds = number(rest, "--rounds", 300)?;
    if let Some(other) = rest
        .iter()
        .find(|a| a.starts_with("--") && !matches!(**a, "--json" | "--runs" | "--rounds"))
    {
        bail!("unexpected argument {other}: --json, --runs N, --rounds N");
    }
    let oracle = agents::shared_tool("CHRYS_ORACLE_DIR", "chrys-oracle")?;
    let script = oracle.join("fire_bench.py");
    if !script.exists() {
        bail!("no fire_bench.py in {} (set CHRYS_ORACLE_DIR)", oracle.display());
    }
    let wheel = env_path("CHRYS_WHEEL_DIR").with_context(|| {
        format!(
            "set CHRYS_WHEEL_DIR to the unpacked icode-tui 0.32.0 wheel (setup: {})",
            oracle.join("README.md").display()
        )
    })?;
    let python = match env_path("CHRYS_PYTHON") {
        Some(p) => p,
        None => {
            wheel.parent().map(|p| p.join("venv/bin/python")).filter(|p| p.exists()).context(
                "set CHRYS_PYTHON to the oracle's venv interpreter (Python 3.13 or 3.12)",
            )?
        }
    };
    let hooks = agents::hooks_binary()?;
    // `fire_bench.py` leaves its folder (the hook, the Chrys home, the payload) where
    // `mkdtemp` puts it: under a folder of ours, removed when done.
    let scratch = Scratch::new()?;
    let load_before = load_avg();
    let mut results = Vec::new();
    for i in 0..runs {
        let out = Command::new(&python)
            .arg(&script)
            .arg(&hooks)
            .arg(workspace_root())
            .arg(rounds.to_string())
            .env("CHRYS_WHEEL_DIR", &wheel)
            .env("TMPDIR", &scratch.0)
            .output()
            .with_context(|| format!("running {}", python.display()))?;
        if !out.status.success() {
            bail!(
                "fire_bench.py failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().rev().find(|l| l.starts_with('{')).context("no JSON line")?;
        let v: Value = serde_json::from_str(line).context("fire_bench.py's JSON line")?;
        if !json_out {
            println!("run {}: {line}", i + 1);
        }
        results.push(v);
    }
    let summary = json!({
        "rounds": rounds,
        "runs": results,
        "chrys_over_ours_range": range(&results, "chrys_over_ours"),
        "ours_median_ms_range": range(&results, "ours_median_ms"),
        "chrys_median_ms_range": range(&results, "chrys_median_ms"),
        "bare_median_ms_range": range(&results, "bare_median_ms"),
        "target_chrys_over_ours": TARGET,
        "load_avg_before": load_before,
        "load_avg_after": load_avg(),
    });
    if json_out {
        println!("{summary}");
    } else {
        println!(
            "chrys/ours {} (target ≥ {TARGET}); ours ms {}; chrys ms {}; bare ms {}; load {} → {}",
            summary["chrys_over_ours_range"],
            summary["ours_median_ms_range"],
            summary["chrys_median_ms_range"],
            summary["bare_median_ms_range"],
            summary["load_avg_before"].as_str().unwrap_or(""),
            summary["load_avg_after"].as_str().unwrap_or("")
        );
    }
    Ok(())
}
