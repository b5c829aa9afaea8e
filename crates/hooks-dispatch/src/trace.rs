//! The `tracing` spans of a firing and of each hook run (`specs/observability.md`).
//!
//! The library only emits; whoever embeds it installs a subscriber. Fields carry names,
//! paths, numbers and decisions, never a hook's command text, its environment, the tool's
//! arguments or a hook's output: those can hold secrets, and a log is read by more people
//! than the hook file.
//!
//! Inside `hooks.run`, TRACE-level spans without fields time the phases of a run:
//! `hooks.encode`, `hooks.prepare` (payload cap, provided files, the run's cgroup),
//! `hooks.spawn`, `hooks.wait` (until the process exited and its pipes are drained),
//! `hooks.finish` (cgroup, result file, provided files) and `hooks.decode`. They cost one level
//! check unless a subscriber asks for TRACE spans of this crate; `cargo xtask bench protocols`
//! times them to say where a run's time goes (`specs/dispatch.md`).

use hooks_schema::{
    Binding, Decision, Envelope, ExitInfo, FoldedVerdict, HookVerdict, NO_TIMEOUT, RawOutcome,
    SpawnFailureKind,
};
use tracing::{Span, field::Empty};

/// The target of every span and event of this crate.
pub(crate) const TARGET: &str = "hooks::dispatch";

/// The span of one firing: `hooks.fire`.
pub(crate) fn fire_span(
    bindings: &[Binding],
    envelope: &Envelope,
    cfg: &crate::DispatchConfig,
) -> Span {
    let span = tracing::info_span!(
        target: TARGET,
        "hooks.fire",
        event = envelope.event.as_str(),
        session = envelope.session_id.as_deref(),
        turn = envelope.turn_id.as_deref(),
        cwd = Empty,
        bindings = Empty,
        decision = Empty,
        decided_by = Empty,
        short_circuited = Empty,
        duration_ms = Empty,
    );
    if !span.is_disabled() {
        if let Some(cwd) = &envelope.cwd {
            span.record("cwd", tracing::field::display(cwd.display()));
        }
        let n = bindings.iter().filter(|b| cfg.runs_on(&b.definition, envelope)).count();
        span.record("bindings", n);
    }
    span
}

/// Records the folded outcome of a firing on its span.
pub(crate) fn fire_done(span: &Span, verdict: &FoldedVerdict, duration: std::time::Duration) {
    if span.is_disabled() {
        return;
    }
    span.record("decision", verdict.decision.map_or("none", Decision::as_str));
    if let Some(by) = &verdict.decided_by {
        span.record("decided_by", by.hook_id.as_str());
    }
    span.record("short_circuited", verdict.short_circuited);
    span.record("duration_ms", fractional_millis(duration));
}

/// The `hooks.run` span with its fields, inside the current span or with the parent given
/// (`parent: None,` for a root).
macro_rules! hooks_run_span {
    ($def:expr; $($parent:tt)*) => {
        tracing::info_span!(
            target: TARGET,
            $($parent)*
            "hooks.run",
            hook_id = $def.id.as_str(),
            format = $def.wire_format().as_str(),
            source_kind = Empty,
            file = Empty,
            line = $def.line,
            mode = $def.mode.as_str(),
            timeout_ms = Empty,
            pid = Empty,
            queued_ms = Empty,
            duration_ms = Empty,
            exit_code = Empty,
            signal = Empty,
            not_started = Empty,
            http_status = Empty,
            timed_out = Empty,
            killed = Empty,
            capped = Empty,
            decision = Empty,
            failed = Empty,
        )
    };
}

/// The span of one hook run: `hooks.run`, inside the current span.
pub(crate) fn run_span(b: &Binding) -> Span {
    let def = &b.definition;
    run_fields(b, hooks_run_span!(def;))
}

/// The span of a run that outlives its firing (a detached one): `hooks.run` as a root, which
/// the caller links to the firing with `follows_from`.
pub(crate) fn root_run_span(b: &Binding) -> Span {
    let def = &b.definition;
    run_fields(b, hooks_run_span!(def; parent: None,))
}

fn run_fields(b: &Binding, span: Span) -> Span {
    let def = &b.definition;
    if !span.is_disabled() {
        span.record("source_kind", tracing::field::display(&b.source.kind));
        span.record("file", tracing::field::display(&b.source.path));
        if def.timeout != NO_TIMEOUT {
            span.record("timeout_ms", millis(def.timeout));
        }
    }
    span
}

/// Records a hook run's outcome and verdict on its span, and emits one event for a run that
/// decided something, failed or was killed (the span alone says the rest).
pub(crate) fn run_done(
    span: &Span,
    outcome: &RawOutcome,
    verdict: &HookVerdict,
    queued: std::time::Duration,
) {
    if span.is_disabled() {
        return;
    }
    span.record("queued_ms", fractional_millis(queued));
    span.record("duration_ms", fractional_millis(outcome.duration));
    match &outcome.exit {
        ExitInfo::Exited(code) => span.record("exit_code", code),
        ExitInfo::Signaled(sig) => span.record("signal", sig),
        ExitInfo::NotStarted(f) => span.record("not_started", failure_kind(f.kind)),
        ExitInfo::Responded(status) => span.record("http_status", status),
    };
    let capped = outcome.stdout.truncated
        || outcome.stderr.truncated
        || outcome.result_file.as_ref().is_some_and(|f| f.truncated);
    span.record("timed_out", outcome.timed_out);
    span.record("killed", outcome.timed_out || matches!(outcome.exit, ExitInfo::Signaled(_)));
    span.record("capped", capped);
    span.record("decision", verdict.decision.map_or("none", Decision::as_str));
    span.record("failed", verdict.failure.is_some());
    let _in = span.enter();
    match verdict.decision {
        Some(Decision::Deny) => tracing::info!(target: TARGET, decision = "deny", "hook denied"),
        Some(Decision::Ask) => tracing::info!(target: TARGET, decision = "ask", "hook asked"),
        _ if verdict.failure.is_some() => tracing::warn!(target: TARGET, "hook failed"),
        _ => {}
    }
}

/// Records, on the current (run) span, that its process never started.
pub(crate) fn run_not_started(kind: SpawnFailureKind) {
    Span::current().record("not_started", failure_kind(kind));
}

/// Records the pid of the process a run started, on the current (run) span.
pub(crate) fn record_pid(pid: Option<u32>) {
    if let Some(pid) = pid {
        Span::current().record("pid", pid);
    }
}

fn failure_kind(kind: SpawnFailureKind) -> &'static str {
    match kind {
        SpawnFailureKind::ProgramNotFound => "program_not_found",
        SpawnFailureKind::PermissionDenied => "permission_denied",
        SpawnFailureKind::MissingCwd => "missing_cwd",
        SpawnFailureKind::PayloadTooLarge => "payload_too_large",
        SpawnFailureKind::EncodeFailed => "encode_failed",
        SpawnFailureKind::Unreachable => "unreachable",
        SpawnFailureKind::Other => "other",
    }
}

fn fractional_millis(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
