//! `hooks fire`: load, pin and fire one event; or, with `--dry-run`, explain what would run.

use std::{io::Write, path::Path, time::Duration};

use anyhow::{Context, Result, bail};
use hooks_dispatch::{FireReport, HookRun, RunStatus, SkipReason};
use hooks_registry::RegistrySnapshot;
use hooks_schema::{Decision, Envelope, HookEvent};
use serde_json::{Value, json};

use hooks_app::{runtime::FireHandle, serve::render};

use crate::{cli::FireArgs, setup};

/// The canonical event a name means: a canonical name, or a native name of a registered
/// format (the first, in registration order, that maps it).
pub fn parse_event(name: &str) -> Result<HookEvent> {
    if let Ok(e) = name.parse::<HookEvent>() {
        return Ok(e);
    }
    if let Some(e) = hooks_app::formats::workspace_formats().canonical_event(name) {
        return Ok(e);
    }
    let names: Vec<&str> = HookEvent::ALL.iter().map(|e| e.as_str()).collect();
    bail!("unknown event `{name}`; canonical events: {}", names.join(", "))
}

/// The text of `--payload` (a file or `-` for stdin), capped; special files are refused (a
/// FIFO or `/dev/zero` ends at once with an error).
fn read_payload(src: &str) -> Result<String> {
    if src == "-" {
        super::input::read_stream(
            std::io::stdin().lock(),
            super::input::MAX_PAYLOAD_BYTES,
            "the payload from stdin",
        )
    } else {
        super::input::read_file(Path::new(src), super::input::MAX_PAYLOAD_BYTES, "the payload")
    }
}

/// The envelope of `from`'s own hook input in `payload` (a file, or stdin), decoded by that
/// agent's host codec; `event` only for agents whose input does not name it.
pub fn read_native(from: &str, event: Option<&str>, payload: Option<&str>) -> Result<Envelope> {
    let src = payload.unwrap_or("-");
    let text = read_payload(src)?;
    let formats = hooks_app::formats::workspace_formats();
    let input = hooks_app::bridge::decode_native(&formats, from, text.as_bytes(), event)
        .with_context(|| format!("the payload {src} is not {from}'s hook input"))?;
    Ok(input.envelope)
}

/// The envelope from `--payload` (a file or `-`), with the event from the command line.
pub fn read_envelope(event: HookEvent, payload: Option<&str>) -> Result<Envelope> {
    let Some(src) = payload else { return Ok(Envelope::new(event)) };
    let text = read_payload(src)?;
    let mut v: Value =
        serde_json::from_str(&text).with_context(|| format!("the payload {src} is not JSON"))?;
    let obj =
        v.as_object_mut().with_context(|| format!("the payload {src} is not a JSON object"))?;
    obj.insert("event".into(), json!(event.as_str()));
    serde_json::from_value(v).with_context(|| format!("the payload {src} is not an envelope"))
}

/// A hook run in one line: id, what happened, how long.
pub fn run_line(r: &HookRun) -> String {
    let what = match &r.status {
        RunStatus::Ran => {
            let out = r.outcome.as_ref();
            let how = out
                .and_then(hooks_schema::RawOutcome::failure_label)
                .unwrap_or_else(|| "exit 0".to_owned());
            let decision = r
                .verdict
                .as_ref()
                .and_then(|v| v.decision)
                .map_or_else(|| "no decision".to_owned(), |d| d.as_str().to_owned());
            let ms = out.map_or(0, |o| o.duration.as_millis());
            let failure = r
                .verdict
                .as_ref()
                .and_then(|v| v.failure.clone())
                .map(|f| format!(" ({f})"))
                .unwrap_or_default();
            format!("ran, {how}, {ms} ms -> {decision}{failure}")
        }
        RunStatus::Skipped(SkipReason::Disabled) => "skipped: disabled".to_owned(),
        RunStatus::Skipped(SkipReason::NoMatch) => "skipped: the matcher does not match".to_owned(),
        RunStatus::Skipped(SkipReason::ShortCircuited) => {
            "skipped: an earlier hook denied".to_owned()
        }
        RunStatus::Skipped(SkipReason::Duplicate) => {
            "skipped: the same command already ran from another file".to_owned()
        }
        RunStatus::Background { detached, .. } => {
            if *detached {
                "started detached".to_owned()
            } else {
                "started in the background".to_owned()
            }
        }
    };
    format!(
        "{} ({}{}): {what}",
        r.provenance.hook_id,
        r.provenance.source.path,
        line_suffix(r.provenance.line)
    )
}

fn line_suffix(line: Option<u32>) -> String {
    line.map(|l| format!(":{l}")).unwrap_or_default()
}

/// The exit code for a verdict: 0 allow (or no decision), 2 deny, 3 ask.
pub fn exit_code(report: &FireReport) -> u8 {
    match report.verdict.decision {
        Some(Decision::Deny) => 2,
        Some(Decision::Ask) => 3,
        Some(Decision::Allow) | None => 0,
    }
}

/// Runs `hooks fire`.
pub fn run(a: &FireArgs, colour: bool) -> Result<u8> {
    let mut envelope = match (&a.from, &a.event) {
        (Some(from), event) => read_native(from, event.as_deref(), a.payload.as_deref())?,
        (None, Some(event)) => read_envelope(parse_event(event)?, a.payload.as_deref())?,
        (None, None) => bail!("name the event, or give the agent's own input with --from"),
    };
    // A fire asks no guard, and only a dry run shows the sources' diagnostics (among them
    // what the protection found it could not analyse): the rest computes no protection.
    let mut built = setup::build_with(&a.runtime, setup::Watch::Once, a.dry_run)?;
    setup::warn_new_advisories(&mut built.runtime);
    let cwd = a
        .cwd
        .clone()
        .or_else(|| envelope.cwd.clone())
        .or_else(|| built.roots.first().cloned())
        .unwrap_or_else(|| built.process_cwd.clone());
    envelope.cwd = Some(setup::absolute(&cwd, &built.process_cwd));
    built.runtime.pin_for_run()?;
    let mut out = std::io::stdout().lock();
    for e in &built.explicit_errors {
        eprintln!("error: {e}");
    }
    for d in &built.settings_diagnostics {
        eprintln!("{d}");
    }
    if a.dry_run {
        let explanation =
            explain(&built.runtime.snapshot(), &envelope, &built.runtime.config().dispatch);
        if a.json {
            writeln!(out, "{explanation}")?;
        } else {
            render_explanation(&mut out, &explanation, built.roots.is_empty())?;
        }
        return Ok(0);
    }
    let handle = built.runtime.fire_handle();
    let plan = handle.plan(&envelope);
    // A fire that no hook applies to starts no process and waits on no pipe: it needs no I/O
    // driver (an epoll instance, its eventfd, the signal driver's socket pair).
    let rt = if plan.is_idle() { setup::idle_tokio_runtime()? } else { setup::tokio_runtime()? };
    // Boxed: the fire's future is large, and `block_on` moves what it is given down its own
    // frames; on the heap it is written once, not copied onto fresh stack pages.
    let report = rt.block_on(Box::pin(async {
        let report = handle.fire_planned(plan, &envelope).await;
        built.runtime.drain(Duration::from_secs(5)).await;
        report
    }));
    if a.json {
        // The serve protocol's `fire` result (`specs/serve-schema/fire.result.json`).
        writeln!(out, "{}", serde_json::to_string(&render::fire_report(&report, None))?)?;
    } else {
        render_report(&mut out, &report, colour)?;
    }
    out.flush()?;
    // Answered: the exit comes next, and the agent waits for it. The runtimes are not torn
    // down one allocation at a time: the exit frees them, and the reaper ends what hooks left
    // running, as the dispatcher's drop would just before (`specs/dispatch.md`, "When the
    // engine process dies: the reaper").
    // The pool's threads die with the process: the deletions of the runs' provided files
    // (payload files hold the tool's input) are finished now, not left to them.
    hooks_dispatch::finish_deletions();
    std::mem::forget(rt);
    std::mem::forget(handle);
    std::mem::forget(built);
    Ok(exit_code(&report))
}

fn render_report(out: &mut impl Write, report: &FireReport, colour: bool) -> Result<()> {
    let v = &report.verdict;
    let decision = match v.decision {
        Some(Decision::Deny) => super::paint(colour, "31", "deny"),
        Some(Decision::Ask) => super::paint(colour, "33", "ask"),
        Some(Decision::Allow) => super::paint(colour, "32", "allow"),
        None => "allow (no hook decided)".to_owned(),
    };
    let reason = v.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
    writeln!(out, "verdict: {decision}{reason}")?;
    if let Some(p) = &v.decided_by {
        writeln!(out, "decided by: {} ({}{})", p.hook_id, p.source.path, line_suffix(p.line))?;
    }
    if let Some(args) = &v.updated_args {
        writeln!(out, "arguments rewritten to: {args}")?;
    }
    for (_, c) in &v.context {
        writeln!(out, "context: {c}")?;
    }
    for (_, m) in &v.user_messages {
        writeln!(out, "message: {m}")?;
    }
    if report.runs.is_empty() {
        writeln!(out, "no hook is bound to this event here (try --dry-run)")?;
    }
    for r in &report.runs {
        writeln!(out, "  {}", run_line(r))?;
    }
    Ok(())
}

/// Explains, without running anything, which sources exist, which are inert and why, which
/// bindings apply to the envelope's working directory, and which matchers match it.
pub fn explain(
    snap: &RegistrySnapshot,
    envelope: &Envelope,
    dispatch: &hooks_dispatch::DispatchConfig,
) -> Value {
    let cwd = envelope.cwd.as_deref().unwrap_or(Path::new("/"));
    let scope = FireHandle::scope_for(snap, envelope);
    let bindings = &scope.bindings;
    let sources: Vec<Value> = snap
        .sources()
        .iter()
        .map(|s| {
            let of_event: Vec<Value> = s
                .definitions
                .iter()
                .filter(|d| dispatch.runs_on(d, envelope))
                .map(|d| {
                    json!({
                        "hook_id": d.id.as_str(),
                        "line": d.line,
                        "native_event": d.native_event,
                        "matcher": d.matcher.shown(false),
                        "enabled": d.enabled,
                        "matches": d.matcher.matches(envelope),
                        "why_not": d.matcher.mismatch(envelope),
                    })
                })
                .collect();
            // The inventory's names (`kind`, `path`, `load_state`, `trust`, `runs`, `roots`,
            // `diagnostics`), with the hooks of this event and whether they match.
            json!({
                "kind": s.id.kind.name(),
                "path": render::path_text(s.id.path.as_path()),
                "load_state": s.load_state.as_str(),
                "trust": render::trust(&s.trust),
                "runs": s.runs,
                "roots": s.roots.iter().map(|r| render::path_text(r.as_path())).collect::<Vec<_>>(),
                "hooks_for_event": of_event,
                "diagnostics": s.diagnostics.iter().map(render::diagnostic).collect::<Vec<_>>(),
            })
        })
        .collect();
    let applying: Vec<Value> = bindings
        .iter()
        .filter(|b| dispatch.runs_on(&b.definition, envelope))
        .map(|b| {
            let d = &b.definition;
            let why_not =
                if d.enabled { d.matcher.mismatch(envelope) } else { Some("disabled".to_owned()) };
            json!({
                "hook_id": d.id.as_str(),
                "source": render::path_text(b.source.path.as_path()),
                "line": d.line,
                "native_event": d.native_event,
                "matcher": d.matcher.shown(false),
                "matches": why_not.is_none(),
                "why_not": why_not,
                "mode": d.mode.as_str(),
                "working_dir": render::path_text(b.working_dir.as_path()),
            })
        })
        .collect();
    let other_events: Vec<&str> = {
        let mut v: Vec<&str> = bindings.iter().map(|b| b.definition.event.as_str()).collect();
        v.sort_unstable();
        v.dedup();
        v.retain(|e| *e != envelope.event.as_str());
        v
    };
    json!({
        "event": envelope.event.as_str(),
        "cwd": render::path_text(cwd),
        "project_root": scope.project_root.as_ref().map(|p| render::path_text(p.as_path())),
        "pinned": snap.pinned().as_ref().map(render::pin),
        "sources": sources,
        "bindings": applying,
        "other_events_bound_here": other_events,
    })
}

/// The explanation as text; `no_roots`: no `--root` was given, which the line about the
/// project root then says (the folder the tool runs in is no root by itself).
fn render_explanation(out: &mut impl Write, x: &Value, no_roots: bool) -> Result<()> {
    let s = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    writeln!(out, "event {} in {}", s(&x["event"]), s(&x["cwd"]))?;
    let none = if no_roots {
        format!(
            "none (only sources that apply everywhere; no --root was given, and {})",
            setup::NO_ROOT_HINT
        )
    } else {
        "none (only sources that apply everywhere)".to_owned()
    };
    writeln!(out, "project root: {}", x["project_root"].as_str().unwrap_or(&none))?;
    if let Some(p) = x["pinned"].as_object() {
        writeln!(out, "run pinned with posture {}", p["posture"].as_str().unwrap_or("?"))?;
    }
    let sources = x["sources"].as_array().cloned().unwrap_or_default();
    writeln!(out, "\nsources ({}):", sources.len())?;
    for src in &sources {
        writeln!(
            out,
            "  {} [{}] {}, {}",
            s(&src["path"]),
            s(&src["kind"]),
            s(&src["load_state"]),
            s(&src["trust"]["reason"])
        )?;
        let hooks = src["hooks_for_event"].as_array().cloned().unwrap_or_default();
        writeln!(out, "    {} hook(s) for this event", hooks.len())?;
        if src["runs"].as_bool() != Some(true) {
            for h in &hooks {
                let m = if h["matches"].as_bool() == Some(true) {
                    "its matcher matches, but the source is inert".to_owned()
                } else {
                    format!("its matcher does not match: {}", s(&h["why_not"]))
                };
                writeln!(out, "      {}: {m}", s(&h["hook_id"]))?;
            }
        }
        for d in src["diagnostics"].as_array().into_iter().flatten() {
            let line = d["line"].as_u64().map(|l| format!("line {l}: ")).unwrap_or_default();
            writeln!(out, "    {line}{}: {}", s(&d["severity"]), s(&d["message"]))?;
        }
    }
    let bindings = x["bindings"].as_array().cloned().unwrap_or_default();
    writeln!(out, "\nbindings for this event here ({}):", bindings.len())?;
    for b in &bindings {
        let verdict = if b["matches"].as_bool() == Some(true) {
            "matches, would run".to_owned()
        } else {
            format!("does not match: {}", s(&b["why_not"]))
        };
        writeln!(
            out,
            "  {} ({}:{}) matcher={}: {verdict}",
            s(&b["hook_id"]),
            s(&b["source"]),
            b["line"].as_u64().map_or_else(|| "-".to_owned(), |l| l.to_string()),
            b["matcher"].as_str().unwrap_or("*"),
        )?;
    }
    if bindings.is_empty() {
        let others: Vec<String> =
            x["other_events_bound_here"].as_array().into_iter().flatten().map(s).collect();
        if others.is_empty() {
            writeln!(out, "  none: no active source has a hook that applies to this directory")?;
        } else {
            writeln!(out, "  none for this event; hooks here are bound to: {}", others.join(", "))?;
        }
    }
    Ok(())
}
