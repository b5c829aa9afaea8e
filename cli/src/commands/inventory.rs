//! `hooks list`: the redacted inventory of every source the runtime would see.

use std::io::Write;

use anyhow::Result;
use hooks_registry::{LoadStateKind, RegistrySnapshot};
use hooks_schema::HookCommand;
use serde_json::json;

use crate::{cli::ListArgs, setup};

/// How a command is shown when revealed.
pub fn command_text(c: &HookCommand) -> String {
    match c {
        HookCommand::Shell { script, shell: None } => script.clone(),
        HookCommand::Shell { script, shell: Some(sh) } => format!("{sh} -c {script}"),
        HookCommand::Exec { program, args } => std::iter::once(program.as_str())
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        HookCommand::Script { path, args } => std::iter::once(path.display().to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        HookCommand::Http(h) => std::iter::once(format!("POST {}", h.url))
            .chain(h.headers.iter().map(|(k, v)| format!("{k}: {v}")))
            .collect::<Vec<_>>()
            .join(" | "),
    }
}

/// Runs `hooks list`.
pub fn run(a: &ListArgs, colour: bool) -> Result<u8> {
    let mut built = setup::build(&a.runtime, setup::Watch::Once)?;
    setup::warn_new_advisories(&mut built.runtime);
    built.runtime.pin_for_run()?;
    let snap = built.runtime.snapshot();
    let failed = !built.explicit_errors.is_empty()
        || snap
            .sources()
            .iter()
            .any(|s| matches!(s.load_state, LoadStateKind::Failed | LoadStateKind::Stale));
    let mut out = std::io::stdout().lock();
    if a.json {
        // The serve protocol's `snapshot` result, plus what only this run knows.
        let mut inv = hooks_app::serve::render::snapshot(&snap, a.reveal);
        inv["surface"] = json!(built.runtime.config().surface.as_str());
        inv["explicit_errors"] =
            json!(built.explicit_errors.iter().map(ToString::to_string).collect::<Vec<_>>());
        inv["user_enables_project_hooks"] =
            json!(built.runtime.config().user_enables_project_hooks);
        inv["settings_diagnostics"] = json!(
            built
                .settings_diagnostics
                .iter()
                .map(|d| d.clone().revealed(a.reveal).to_string())
                .collect::<Vec<_>>()
        );
        inv["advisories"] = json!(
            built
                .runtime
                .advisories()
                .iter()
                .map(|d| d.clone().revealed(a.reveal).to_string())
                .collect::<Vec<_>>()
        );
        inv["containment"] =
            hooks_app::serve::render::containment(&built.runtime.fire_handle().containment());
        writeln!(out, "{inv}")?;
    } else {
        render(&mut out, &snap, &built, a.reveal, colour)?;
    }
    Ok(if failed { 2 } else { 0 })
}

fn render(
    out: &mut impl Write,
    snap: &RegistrySnapshot,
    built: &setup::Built,
    reveal: bool,
    colour: bool,
) -> Result<()> {
    let paint = |code: &str, t: &str| super::paint(colour, code, t);
    match snap.pinned() {
        Some(p) => writeln!(
            out,
            "run: surface {}, posture {}, pinned at revision {}",
            built.runtime.config().surface.as_str(),
            p.posture.as_str(),
            p.revision
        )?,
        None => writeln!(out, "run: not pinned (hooks are switched off or this is the daemon)")?,
    }
    let c = built.runtime.fire_handle().containment();
    writeln!(out, "containment: {} (asked: {})", c.mechanism, c.requested.as_str())?;
    if let Some(cg) = &c.cgroup {
        writeln!(out, "  cgroup tree: {}", cg.display())?;
    }
    let d = &c.default_limits;
    let value = |r: hooks_dispatch::Resource| match r {
        hooks_dispatch::Resource::Memory => d.memory_max.map(|b| format!("{} MiB", b >> 20)),
        hooks_dispatch::Resource::Pids => d.pids_max.map(|n| n.to_string()),
        hooks_dispatch::Resource::Cpu => {
            d.cpu_max.map(|c| format!("{:.2} cores", c.quota_us as f64 / c.period_us.max(1) as f64))
        }
    };
    if c.limits.is_empty() {
        writeln!(out, "  limits: none (asked: {})", c.limits_requested.as_str())?;
    }
    for l in &c.limits {
        writeln!(
            out,
            "  limit {}: {} via {} ({}): {}",
            l.resource,
            value(l.resource).unwrap_or_else(|| "max".to_owned()),
            l.via,
            l.control,
            l.via.guarantee(l.resource)
        )?;
    }
    if c.hook_limit_rules > 0 {
        writeln!(
            out,
            "  {} hook(s) have limits of their own (--limit HOOK_ID:...)",
            c.hook_limit_rules
        )?;
    }
    for note in c.fallback.iter().chain(&c.limits_note) {
        writeln!(out, "  {note}")?;
    }
    for (m, why) in &c.unavailable {
        writeln!(out, "  {m} unavailable: {why}")?;
    }
    for e in &built.explicit_errors {
        writeln!(out, "{}: {e}", paint("31", "error"))?;
    }
    for d in &built.settings_diagnostics {
        writeln!(out, "{d}")?;
    }
    // Project roots come from `--root` (a terminal's navigation, in the seed's words), not
    // from the folder the tool runs in: say so where none was given, or a newcomer listing
    // a repository sees its files missing without a word.
    if built.roots.is_empty() {
        writeln!(out, "project roots: none given; {}", crate::setup::NO_ROOT_HINT)?;
    }
    if snap.sources().is_empty() {
        writeln!(out, "no hook sources found")?;
    }
    // A file that holds no hook and says nothing but notes (a subagent without hooks in its
    // front matter, an empty hooks file) takes one line, after the others.
    let quiet = |s: &hooks_registry::SourceView| {
        s.definitions.is_empty()
            && s.diagnostics.iter().all(|d| d.severity == hooks_schema::Severity::Info)
    };
    for s in snap.sources().iter().filter(|s| !quiet(s)) {
        let reason =
            if s.runs { paint("32", s.trust.reason()) } else { paint("33", s.trust.reason()) };
        // Trusted, yet switched off everywhere by its format's policy (a setting of another
        // file, named in the notes below): say so on the file's own line.
        let off = if !s.runs && s.trust.is_active() { "; not running (see below)" } else { "" };
        writeln!(out, "\n{} [{}] {}, {reason}{off}", s.id.path, s.id.kind, s.load_state.as_str())?;
        for d in s.definitions.iter() {
            let cmd = if reveal {
                command_text(&d.command)
            } else if let HookCommand::Http(h) = &d.command {
                // Where an http hook posts is shown, its credentials and query are not.
                format!(
                    "POST {} {} (use --reveal)",
                    hooks_schema::redact_url(&h.url),
                    hooks_format_claude::fingerprint(d)
                )
            } else {
                format!("{} (use --reveal)", hooks_format_claude::fingerprint(d))
            };
            writeln!(
                out,
                "  {:<28} {:<16} matcher={:<20} {}{}",
                d.id.as_str(),
                d.event.as_str(),
                d.matcher.shown(reveal).unwrap_or("*"),
                cmd,
                if d.enabled { "" } else { " (disabled)" }
            )?;
        }
        for d in &s.diagnostics {
            let loc = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            writeln!(out, "  {loc}{}: {}", d.severity.as_str(), d.text(reveal))?;
        }
    }
    let quiet: Vec<_> = snap.sources().iter().filter(|s| quiet(s)).collect();
    if !quiet.is_empty() {
        writeln!(out, "\nfiles without hooks:")?;
    }
    for s in quiet {
        writeln!(out, "  {} [{}] {}", s.id.path, s.id.kind, s.load_state.as_str())?;
    }
    let advisories = built.runtime.advisories();
    if !advisories.is_empty() {
        writeln!(out)?;
    }
    for d in &advisories {
        writeln!(out, "{d}")?;
    }
    Ok(())
}
