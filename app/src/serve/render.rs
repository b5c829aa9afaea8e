//! JSON renderings of the runtime's answers: fire reports, guard decisions, the redacted
//! inventory, drain reports. Pure functions of their inputs.
//!
//! Fire reports (and what they contain), pins and drain reports are borrowed views that
//! `#[derive(Serialize)]` and serialize straight to bytes: a fire is the protocol's hot path,
//! and building a `serde_json::Value` tree (an insertion-ordered map per object) cost several
//! times the encoding itself. Field order is the wire's key order. The inventory and guard
//! renderings are `Value` trees; they are rare.

use std::{borrow::Cow, path::Path, time::Duration};

use hooks_dispatch::{DrainReport, FireReport, HookRun, RunStatus, SkipReason};
use hooks_guard::GuardDecision;
use hooks_registry::{PinnedRun, ProtectedKind, RegistrySnapshot, SourceView};
use hooks_schema::{
    Decision, ExitInfo, FoldedVerdict, HookCommand, HookDefinition, HookDiagnostic, HookSourceId,
    HookVerdict, Provenance, RawOutcome, TrustDecision,
};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// A sequence rendered item by item, without collecting views first.
struct Each<'a, T, V> {
    items: &'a [T],
    view: fn(&'a T) -> V,
}

impl<'a, T, V> Each<'a, T, V> {
    fn new(items: &'a [T], view: fn(&'a T) -> V) -> Self {
        Each { items, view }
    }
}

impl<'a, T, V: Serialize> Serialize for Each<'a, T, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.items.iter().map(self.view))
    }
}

/// A path as JSON text: itself when it is UTF-8, else with each invalid sequence replaced by
/// U+FFFD. serde refuses a path that is not UTF-8, and a listing, a verdict or a guard answer
/// must not fail (nor the `json!` that builds it panic) on one folder's name.
pub fn path_text(p: &Path) -> Cow<'_, str> {
    p.to_string_lossy()
}

/// A source id as it is rendered: `{kind, path}`.
#[derive(Serialize)]
pub struct SourceIdView<'a> {
    kind: String,
    path: Cow<'a, str>,
}

/// A source id: `{kind, path}`.
pub fn source_id(id: &HookSourceId) -> SourceIdView<'_> {
    SourceIdView { kind: id.kind.name(), path: path_text(id.path.as_path()) }
}

/// A provenance as it is rendered: `{hook_id, source, line}`.
#[derive(Serialize)]
pub struct ProvenanceView<'a> {
    hook_id: &'a str,
    source: SourceIdView<'a>,
    line: Option<u32>,
}

/// Which hook, from which file and line.
pub fn provenance(p: &Provenance) -> ProvenanceView<'_> {
    ProvenanceView { hook_id: p.hook_id.as_str(), source: source_id(&p.source), line: p.line }
}

/// A text with the hook it came from: `{hook, text}`.
#[derive(Serialize)]
struct AttributedView<'a> {
    hook: ProvenanceView<'a>,
    text: &'a str,
}

fn attributed((p, text): &(Provenance, String)) -> AttributedView<'_> {
    AttributedView { hook: provenance(p), text }
}

/// A pin as it is rendered: `{posture, revision}`.
#[derive(Serialize)]
pub struct PinView {
    posture: &'static str,
    revision: u64,
}

/// The pin: posture and revision.
pub fn pin(p: &PinnedRun) -> PinView {
    PinView { posture: p.posture.as_str(), revision: p.revision.get() }
}

/// A diagnostic.
/// A diagnostic with the values it quotes when `reveal` (a mistyped value, a Claude `if`
/// rule), else naming only their type ([`HookDiagnostic::text`]).
pub fn revealed(d: &HookDiagnostic, reveal: bool) -> Value {
    diagnostic(&d.clone().revealed(reveal))
}

/// A diagnostic as JSON; the values it quotes are left out (see [`revealed`]).
pub fn diagnostic(d: &HookDiagnostic) -> Value {
    serde_json::to_value(d).unwrap_or_else(|_| json!({ "message": d.message }))
}

#[derive(Serialize)]
struct VerdictView<'a> {
    decision: Option<&'static str>,
    reason: &'a Option<String>,
    rewrites_args: bool,
    context: &'a [String],
    user_message: &'a Option<String>,
    followup: &'a Option<String>,
    halt: &'a Option<String>,
    failure: &'a Option<String>,
    notes: &'a [String],
    /// Whether this hook's own verdict still carries an output rewrite (one the fold dropped
    /// is removed, with a note saying why).
    rewrites_output: bool,
}

fn verdict(v: &HookVerdict) -> VerdictView<'_> {
    VerdictView {
        decision: v.decision.map(Decision::as_str),
        reason: &v.reason,
        rewrites_args: v.rewrite.is_some(),
        context: &v.context,
        user_message: &v.user_message,
        followup: &v.followup,
        halt: &v.halt,
        failure: &v.failure,
        notes: &v.notes,
        rewrites_output: v.updated_output.is_some(),
    }
}

#[derive(Serialize)]
struct BackgroundView<'a> {
    detached: bool,
    job_id: &'a Option<String>,
    log: Option<Cow<'a, str>>,
    note: &'a Option<String>,
}

#[derive(Serialize)]
struct ProcessView<'a> {
    exit_code: Option<i32>,
    signal: Option<i32>,
    launch_error: Option<&'a str>,
    timed_out: bool,
    duration_ms: f64,
    failure: Option<String>,
    stdout_bytes: u64,
    stderr_bytes: u64,
}

fn process(o: &RawOutcome) -> ProcessView<'_> {
    let (exit_code, signal, launch_error) = match &o.exit {
        ExitInfo::Exited(c) => (Some(*c), None, None),
        ExitInfo::Signaled(s) => (None, Some(*s), None),
        ExitInfo::NotStarted(f) => (None, None, Some(f.message.as_str())),
        // An HTTP hook's status is in its verdict's failure text when it is not 2xx.
        ExitInfo::Responded(_) => (None, None, None),
    };
    ProcessView {
        exit_code,
        signal,
        launch_error,
        timed_out: o.timed_out,
        duration_ms: ms(o.duration),
        failure: o.failure_label(),
        stdout_bytes: o.stdout.total_len,
        stderr_bytes: o.stderr.total_len,
    }
}

/// One binding's part in a firing, as it is rendered; `skip_reason` only for skipped runs,
/// `background` only for background runs, `process` only when a process outcome is known.
#[derive(Serialize)]
pub struct HookRunView<'a> {
    hook: ProvenanceView<'a>,
    mode: &'static str,
    status: &'static str,
    counted: bool,
    queued_ms: f64,
    verdict: Option<VerdictView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skip_reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    background: Option<BackgroundView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    process: Option<ProcessView<'a>>,
}

/// One binding's part in a firing.
pub fn hook_run(r: &HookRun) -> HookRunView<'_> {
    let (status, skip_reason, background) = match &r.status {
        RunStatus::Ran => ("ran", None, None),
        RunStatus::Skipped(reason) => (
            "skipped",
            Some(match reason {
                SkipReason::Disabled => "disabled",
                SkipReason::NoMatch => "no_match",
                SkipReason::ShortCircuited => "short_circuited",
                SkipReason::Duplicate => "duplicate",
            }),
            None,
        ),
        RunStatus::Background { detached, job_id, log, note } => (
            "background",
            None,
            Some(BackgroundView {
                detached: *detached,
                job_id,
                log: log.as_deref().map(path_text),
                note,
            }),
        ),
    };
    HookRunView {
        hook: provenance(&r.provenance),
        mode: r.mode.as_str(),
        status,
        counted: r.counted,
        queued_ms: ms(r.queued),
        verdict: r.verdict.as_ref().map(verdict),
        skip_reason,
        background,
        process: r.outcome.as_ref().map(process),
    }
}

#[derive(Serialize)]
struct FoldedView<'a> {
    decision: Option<&'static str>,
    effective: &'static str,
    reason: &'a Option<String>,
    decided_by: Option<ProvenanceView<'a>>,
    updated_args: &'a Option<Value>,
    rewritten_by: Each<'a, Provenance, ProvenanceView<'a>>,
    context: Each<'a, (Provenance, String), AttributedView<'a>>,
    user_messages: Each<'a, (Provenance, String), AttributedView<'a>>,
    followups: Each<'a, (Provenance, String), AttributedView<'a>>,
    halt: Option<AttributedView<'a>>,
    /// `[name, value]` pairs.
    env: &'a [(String, String)],
    short_circuited: bool,
    updated_output: &'a Option<Value>,
    output_rewritten_by: Option<ProvenanceView<'a>>,
}

fn folded(v: &FoldedVerdict) -> FoldedView<'_> {
    FoldedView {
        decision: v.decision.map(Decision::as_str),
        effective: v.effective().as_str(),
        reason: &v.reason,
        decided_by: v.decided_by.as_ref().map(provenance),
        updated_args: &v.updated_args,
        rewritten_by: Each::new(&v.rewritten_by, provenance),
        context: Each::new(&v.context, attributed),
        user_messages: Each::new(&v.user_messages, attributed),
        followups: Each::new(&v.followups, attributed),
        halt: v.halt.as_ref().map(attributed),
        env: &v.env,
        short_circuited: v.short_circuited,
        updated_output: &v.updated_output,
        output_rewritten_by: v.output_rewritten_by.as_ref().map(provenance),
    }
}

/// A fire report as it is rendered: it borrows the report and serializes straight to bytes.
#[derive(Serialize)]
pub struct FireReportView<'a> {
    verdict: FoldedView<'a>,
    runs: Each<'a, HookRun, HookRunView<'a>>,
    duration_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    decision_to_act_on: Option<&'static str>,
}

/// A fire report: the folded verdict with the deciding hook, and every hook's outcome.
/// `decision_to_act_on` is present when the host stated its own decision.
pub fn fire_report(report: &FireReport, acted: Option<Decision>) -> FireReportView<'_> {
    FireReportView {
        verdict: folded(&report.verdict),
        runs: Each::new(&report.runs, hook_run),
        duration_ms: ms(report.duration),
        decision_to_act_on: acted.map(Decision::as_str),
    }
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
                        "resolved": path_text(h.resolved.as_path()),
                        "protected": path_text(h.protected.as_path()),
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
        HookCommand::Http(h) => json!({
            "type": "http",
            "url": h.url,
            "headers": h.headers.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "allowed_env_vars": h.allowed_env_vars,
        }),
    }
}

/// One hook of the inventory (and of `hooks check --json`); its command and environment
/// values only with `reveal`.
pub fn hook(d: &HookDefinition, reveal: bool) -> Value {
    let mut out = json!({
        "id": d.id.as_str(),
        "event": d.event.as_str(),
        "native_event": d.native_event,
        "matcher": d.matcher.shown(reveal),
        "mode": d.mode.as_str(),
        "timeout_ms": u64::try_from(d.timeout.as_millis()).unwrap_or(u64::MAX),
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
            if let HookCommand::Http(h) = &d.command {
                obj.insert("url".into(), json!(hooks_schema::redact_url(&h.url)));
            }
        }
    }
    out
}

/// A trust decision: `{decision: "active" | "inert", reason}`.
pub fn trust(t: &TrustDecision) -> Value {
    let (decision, reason) = match t {
        TrustDecision::Active { reason } => ("active", reason),
        TrustDecision::Inert { reason } => ("inert", reason),
    };
    json!({ "decision": decision, "reason": reason })
}

fn source(s: &SourceView, reveal: bool) -> Value {
    json!({
        "kind": s.id.kind.name(),
        "path": path_text(s.id.path.as_path()),
        "load_state": s.load_state.as_str(),
        "trust": trust(&s.trust),
        "runs": s.runs,
        "roots": s.roots.iter().map(|r| path_text(r.as_path())).collect::<Vec<_>>(),
        "present_at_pin": s.present_at_pin,
        "hooks": s.definitions.iter().map(|d| hook(d, reveal)).collect::<Vec<_>>(),
        "diagnostics": s.diagnostics.iter().map(|d| revealed(d, reveal)).collect::<Vec<_>>(),
    })
}

/// How a protected path or folder is named in a listing: hook files always, scripts (which
/// come from commands) only with `reveal`.
fn shown_kind(what: ProtectedKind, reveal: bool) -> Option<&'static str> {
    match what {
        ProtectedKind::File => Some("file"),
        ProtectedKind::Script if reveal => Some("script"),
        ProtectedKind::Script => None,
    }
}

/// The paths the guard protects: hook files always, scripts (which come from commands) only
/// with `reveal`.
fn protected_paths(s: &RegistrySnapshot, reveal: bool) -> Vec<Value> {
    s.protected_paths()
        .as_slice()
        .iter()
        .filter_map(|p| {
            let what = shown_kind(p.what, reveal)?;
            Some(json!({ "path": path_text(p.path.as_path()), "what": what, "source": source_id(&p.source) }))
        })
        .collect()
}

/// The folders the guard protects as a whole or by a name under them (`{folder, tail,
/// nested, stem, what, source}`; `tail` empty for the whole folder; `nested`: every folder below
/// `folder` whose path ends with `tail`, and everything under it; `stem`: `tail` is a Python
/// module's name, and every file directly in `folder` named by it and a dot is protected): hook-file folders always (Claude Code's
/// `managed-settings.d/`, the agents' plugins, the trust store and the runtime folder),
/// scripts' folders only with `reveal`.
fn protected_folders(s: &RegistrySnapshot, reveal: bool) -> Vec<Value> {
    s.protected_paths()
        .patterns()
        .iter()
        .filter_map(|p| {
            let what = shown_kind(p.what, reveal)?;
            Some(json!({
                "folder": path_text(p.scope.as_path()),
                "tail": path_text(&p.tail),
                "nested": p.nested,
                "stem": p.stem,
                "what": what,
                "source": source_id(&p.source),
            }))
        })
        .collect()
}

/// The redacted inventory (`snapshot`'s result; `hooks list --json` prints it too).
pub fn snapshot(s: &RegistrySnapshot, reveal: bool) -> Value {
    json!({
        "generation": s.generation().get(),
        "revision": s.revision().get(),
        "pinned": s.pinned().as_ref().map(pin),
        "project_roots": s.project_roots().iter().map(|r| path_text(r.as_path())).collect::<Vec<_>>(),
        "protected_paths": protected_paths(s, reveal),
        "protected_folders": protected_folders(s, reveal),
        "sources": s.sources().iter().map(|v| source(v, reveal)).collect::<Vec<_>>(),
        "diagnostics": s.registry_diagnostics().iter().map(|d| revealed(d, reveal)).collect::<Vec<_>>(),
    })
}

/// What draining found, as it is rendered: `{finished, cancelled}`.
#[derive(Serialize)]
pub struct DrainView<'a> {
    finished: Each<'a, HookRun, HookRunView<'a>>,
    cancelled: Each<'a, Provenance, ProvenanceView<'a>>,
}

/// What draining found.
pub fn drain(d: &DrainReport) -> DrainView<'_> {
    DrainView {
        finished: Each::new(&d.finished, hook_run),
        cancelled: Each::new(&d.cancelled, provenance),
    }
}

#[cfg(test)]
mod tests;

/// A set of limits as JSON: bytes, processes, and CPU as quota and period in microseconds
/// (`null`: no limit).
fn limits_json(l: &hooks_dispatch::HookLimits) -> Value {
    json!({
        "memory_bytes": l.memory_max,
        "pids": l.pids_max,
        "cpu": l.cpu_max.map(|c| json!({"quota_us": c.quota_us, "period_us": c.period_us})),
    })
}

/// The containment report (`hooks list`, the serve `hello`): the mechanism runs use, what was
/// asked for, the engine's cgroup tree, the limits applied and why others are not, and each
/// stronger mechanism this machine does not allow, with why.
pub fn containment(r: &hooks_dispatch::ContainmentReport) -> Value {
    json!({
        "mechanism": r.mechanism.as_str(),
        "requested": r.requested.as_str(),
        "fallback": r.fallback,
        "cgroup": r.cgroup.as_ref().map(|p| p.display().to_string()),
        "limits": r
            .limits
            .iter()
            .map(|l| json!({
                "resource": l.resource.as_str(),
                "via": l.via.as_str(),
                "control": l.control,
                "guarantee": l.via.guarantee(l.resource),
            }))
            .collect::<Vec<_>>(),
        "limits_note": r.limits_note,
        "limits_requested": r.limits_requested.as_str(),
        "default_limits": limits_json(&r.default_limits),
        "hook_limit_rules": r.hook_limit_rules,
        "limit_cgroups": r
            .limit_cgroups
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
        "unavailable": r
            .unavailable
            .iter()
            .map(|(m, why)| json!({"mechanism": m.as_str(), "reason": why}))
            .collect::<Vec<_>>(),
    })
}
