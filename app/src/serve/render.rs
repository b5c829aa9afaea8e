//! JSON renderings of the runtime's answers: fire reports, guard decisions, the redacted
//! inventory, drain reports. Pure functions of their inputs.

use std::time::Duration;

use hooks_dispatch::{DrainReport, FireReport, HookRun, RunStatus, SkipReason};
use hooks_guard::GuardDecision;
use hooks_registry::{PinnedRun, RegistrySnapshot, SourceView};
use hooks_schema::{
    Decision, ExitInfo, FoldedVerdict, HookCommand, HookDefinition, HookDiagnostic, HookSourceId,
    HookVerdict, Provenance, TrustDecision,
};
use serde_json::{Value, json};

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// A source id: `{kind, path}`.
pub fn source_id(id: &HookSourceId) -> Value {
    json!({ "kind": id.kind.as_str(), "path": id.path.as_path() })
}

/// Which hook, from which file and line.
pub fn provenance(p: &Provenance) -> Value {
    json!({ "hook_id": p.hook_id.as_str(), "source": source_id(&p.source), "line": p.line })
}

fn attributed(items: &[(Provenance, String)]) -> Value {
    items.iter().map(|(p, text)| json!({ "hook": provenance(p), "text": text })).collect()
}

/// The pin: posture and revision.
pub fn pin(p: &PinnedRun) -> Value {
    json!({ "posture": p.posture.as_str(), "revision": p.revision.get() })
}

/// A diagnostic.
pub fn diagnostic(d: &HookDiagnostic) -> Value {
    serde_json::to_value(d).unwrap_or_else(|_| json!({ "message": d.message }))
}

fn verdict(v: &HookVerdict) -> Value {
    json!({
        "decision": v.decision.map(Decision::as_str),
        "reason": v.reason,
        "rewrites_args": v.rewrite.is_some(),
        "context": v.context,
        "user_message": v.user_message,
        "followup": v.followup,
        "halt": v.halt,
        "failure": v.failure,
        "notes": v.notes,
    })
}

/// One binding's part in a firing.
pub fn hook_run(r: &HookRun) -> Value {
    let (status, extra) = match &r.status {
        RunStatus::Ran => ("ran", json!(null)),
        RunStatus::Skipped(reason) => (
            "skipped",
            json!(match reason {
                SkipReason::Disabled => "disabled",
                SkipReason::NoMatch => "no_match",
                SkipReason::ShortCircuited => "short_circuited",
            }),
        ),
        RunStatus::Background { detached, job_id, log, note } => (
            "background",
            json!({ "detached": detached, "job_id": job_id, "log": log, "note": note }),
        ),
    };
    let mut out = json!({
        "hook": provenance(&r.provenance),
        "mode": r.mode.as_str(),
        "status": status,
        "counted": r.counted,
        "queued_ms": ms(r.queued),
        "verdict": r.verdict.as_ref().map(verdict),
    });
    if let Some(obj) = out.as_object_mut() {
        match status {
            "skipped" => {
                obj.insert("skip_reason".into(), extra);
            }
            "background" => {
                obj.insert("background".into(), extra);
            }
            _ => {}
        }
        if let Some(o) = &r.outcome {
            let (exit_code, signal, launch_error) = match &o.exit {
                ExitInfo::Exited(c) => (Some(*c), None, None),
                ExitInfo::Signaled(s) => (None, Some(*s), None),
                ExitInfo::NotStarted(f) => (None, None, Some(f.message.clone())),
            };
            obj.insert(
                "process".into(),
                json!({
                    "exit_code": exit_code,
                    "signal": signal,
                    "launch_error": launch_error,
                    "timed_out": o.timed_out,
                    "duration_ms": ms(o.duration),
                    "failure": o.failure_label(),
                    "stdout_bytes": o.stdout.total_len,
                    "stderr_bytes": o.stderr.total_len,
                }),
            );
        }
    }
    out
}

fn folded(v: &FoldedVerdict) -> Value {
    json!({
        "decision": v.decision.map(Decision::as_str),
        "effective": v.effective().as_str(),
        "reason": v.reason,
        "decided_by": v.decided_by.as_ref().map(provenance),
        "updated_args": v.updated_args,
        "rewritten_by": v.rewritten_by.iter().map(provenance).collect::<Vec<_>>(),
        "context": attributed(&v.context),
        "user_messages": attributed(&v.user_messages),
        "followups": attributed(&v.followups),
        "halt": v.halt.as_ref().map(|(p, t)| json!({ "hook": provenance(p), "text": t })),
        "env": v.env.iter().map(|(k, val)| json!([k, val])).collect::<Vec<_>>(),
        "short_circuited": v.short_circuited,
    })
}

/// A fire report: the folded verdict with the deciding hook, and every hook's outcome.
/// `decision_to_act_on` is present when the host stated its own decision.
pub fn fire_report(report: &FireReport, acted: Option<Decision>) -> Value {
    let mut out = json!({
        "verdict": folded(&report.verdict),
        "runs": report.runs.iter().map(hook_run).collect::<Vec<_>>(),
        "duration_ms": ms(report.duration),
    });
    if let (Some(d), Some(obj)) = (acted, out.as_object_mut()) {
        obj.insert("decision_to_act_on".into(), json!(d.as_str()));
    }
    out
}

/// A guard decision.
pub fn guard(d: &GuardDecision) -> Value {
    let (kind, hits, unresolved) = match d {
        GuardDecision::Allowed => ("allowed", Vec::new(), Vec::new()),
        GuardDecision::Protected(hits) => (
            "protected",
            hits.iter()
                .map(|h| {
                    json!({
                        "requested": h.requested,
                        "resolved": h.resolved.as_path(),
                        "protected": h.protected.as_path(),
                        "source": source_id(&h.source),
                        "role": h.role.as_str(),
                        "why": h.why.as_str(),
                        "message": h.to_string(),
                    })
                })
                .collect(),
            Vec::new(),
        ),
        GuardDecision::Unresolved(paths) => (
            "unresolved",
            Vec::new(),
            paths
                .iter()
                .map(|u| json!({ "requested": u.requested, "error": u.error.to_string() }))
                .collect(),
        ),
    };
    json!({
        "allowed": d.is_allowed(),
        "decision": kind,
        "message": d.to_string(),
        "hits": hits,
        "unresolved": unresolved,
    })
}

fn command(c: &HookCommand) -> Value {
    match c {
        HookCommand::Shell { script, shell } => {
            json!({ "type": "shell", "script": script, "shell": shell })
        }
        HookCommand::Exec { program, args } => {
            json!({ "type": "exec", "program": program, "args": args })
        }
        HookCommand::Script { path, args } => {
            json!({ "type": "script", "path": path, "args": args })
        }
    }
}

/// One hook of the inventory; its command and environment values only with `reveal`.
pub fn hook(d: &HookDefinition, reveal: bool) -> Value {
    let mut out = json!({
        "id": d.id.as_str(),
        "event": d.event.as_str(),
        "native_event": d.native_event,
        "matcher": d.matcher.text(),
        "mode": d.mode.as_str(),
        "timeout_ms": ms(d.timeout),
        "on_failure": d.on_failure.as_str(),
        "enabled": d.enabled,
        "line": d.line,
        "format": d.wire_format().as_str(),
        "fingerprint": hooks_format_claude::fingerprint(d),
    });
    if let Some(obj) = out.as_object_mut() {
        if reveal {
            obj.insert("command".into(), command(&d.command));
            obj.insert(
                "env".into(),
                d.env.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>().into(),
            );
        } else {
            obj.insert(
                "env_names".into(),
                d.env.iter().map(|(k, _)| json!(k)).collect::<Vec<_>>().into(),
            );
        }
    }
    out
}

fn source(s: &SourceView, reveal: bool) -> Value {
    let (decision, reason) = match &s.trust {
        TrustDecision::Active { reason } => ("active", reason),
        TrustDecision::Inert { reason } => ("inert", reason),
    };
    json!({
        "kind": s.id.kind.as_str(),
        "path": s.id.path.as_path(),
        "load_state": s.load_state.as_str(),
        "trust": { "decision": decision, "reason": reason },
        "runs": s.runs,
        "roots": s.roots.iter().map(|r| r.as_path()).collect::<Vec<_>>(),
        "present_at_pin": s.present_at_pin,
        "hooks": s.definitions.iter().map(|d| hook(d, reveal)).collect::<Vec<_>>(),
        "diagnostics": s.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
    })
}

/// The redacted inventory.
pub fn snapshot(s: &RegistrySnapshot, reveal: bool) -> Value {
    json!({
        "generation": s.generation().get(),
        "revision": s.revision().get(),
        "pinned": s.pinned().as_ref().map(pin),
        "project_roots": s.project_roots().iter().map(|r| r.as_path()).collect::<Vec<_>>(),
        "sources": s.sources().iter().map(|v| source(v, reveal)).collect::<Vec<_>>(),
        "diagnostics": s.registry_diagnostics().iter().map(diagnostic).collect::<Vec<_>>(),
    })
}

/// What draining found.
pub fn drain(d: &DrainReport) -> Value {
    json!({
        "finished": d.finished.iter().map(hook_run).collect::<Vec<_>>(),
        "cancelled": d.cancelled.iter().map(provenance).collect::<Vec<_>>(),
    })
}
