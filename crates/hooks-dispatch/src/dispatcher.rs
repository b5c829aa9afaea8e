//! Running the bindings of one event: ordering, concurrency, short-circuit, folding, and
//! the non-blocking modes (async, fire-and-forget, detached, durable).

use std::{
    borrow::Cow,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use hooks_schema::{
    Binding, ChainFold, Decision, Delivery, EncodeContext, Envelope, EventClass, ExecutionMode,
    FoldedVerdict, HookCommand, HookVerdict, Provenance, RawOutcome, RunSettings, SpawnFailureKind,
};
use tokio::{sync::Semaphore, task::JoinHandle};
use tracing::{Instrument, Span};

use crate::{
    DispatchConfig, DispatchError,
    contain::ContainmentReport,
    join::join_all,
    outbox::{Outbox, OutboxJob, now_ms, record_outcome, write_off_runtime},
    runner::{Lingering, not_started, run_tracked},
    settings::{FormatSlots, RunSettingsTable, place_of},
    trace,
};

/// What the codecs need to know about the firing besides the binding.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FireContext {
    /// The project root of the firing: the project directory of the bindings that have
    /// none of their own (the user's and the administrator's hooks), and the place whose run
    /// settings apply; when `None`, each binding's own project root.
    pub project_dir: Option<PathBuf>,
    /// The user's configuration directory (Chrys's `${chrys_home}`).
    pub config_dir: Option<PathBuf>,
    /// The user's login shell.
    pub user_shell: Option<String>,
    /// The embedding agent's version.
    pub agent_version: Option<String>,
    /// Variables earlier hooks of the session asked to set.
    pub session_env: Vec<(String, String)>,
    /// Each format's run settings in each place (Chrys's `settings:`), as the registry
    /// resolved them: a binding runs with those of its format in the firing's project root
    /// (else its own), and with the dispatcher's settings where its format sets nothing.
    pub run_settings: Arc<RunSettingsTable>,
}

impl FireContext {
    /// The codec context for `binding`.
    pub fn encode_context<'a>(&'a self, binding: &'a Binding) -> EncodeContext<'a> {
        EncodeContext {
            source: &binding.source,
            working_dir: binding.working_dir.as_path(),
            // A project file's own project directory first: a file the registry placed in
            // a session's subfolder has that folder as its project, under the firing's root.
            project_dir: binding
                .project_root
                .as_ref()
                .map(|p| p.as_path())
                .or(self.project_dir.as_deref()),
            config_dir: self.config_dir.as_deref(),
            user_shell: self.user_shell.as_deref(),
            agent_version: self.agent_version.as_deref(),
            session_env: &self.session_env,
        }
    }

    /// The run settings `binding` runs with in this firing (see
    /// [`FireContext::run_settings`]).
    pub fn run_settings_for(&self, binding: &Binding) -> RunSettings {
        self.run_settings
            .get(binding.definition.wire_format(), place_of(binding, self.project_dir.as_deref()))
    }
}

/// The commands of formats that run a command once per firing, as they are started.
#[derive(Default)]
struct RunOnce<'a> {
    started: Vec<(hooks_schema::FormatId, &'a str, &'a HookCommand)>,
}

impl<'a> RunOnce<'a> {
    /// Whether `b` repeats a command already started in this firing; otherwise records it.
    fn is_duplicate(&mut self, b: &'a Binding) -> bool {
        let d = &b.definition;
        if !d.codec.runs_once_per_command(d) {
            return false;
        }
        let key = (d.wire_format(), d.codec.run_once_name(d), &d.command);
        if self.started.contains(&key) {
            return true;
        }
        self.started.push(key);
        false
    }
}

/// Why a binding of the event did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// The definition is disabled.
    Disabled,
    /// Its matcher does not match the (possibly rewritten) envelope.
    NoMatch,
    /// An earlier hook denied; the chain stopped before it.
    ShortCircuited,
    /// Its format runs one command once per firing, and an earlier binding with the same
    /// command (and [`HookCodec::run_once_name`](hooks_schema::HookCodec::run_once_name)) ran
    /// (see `HookCodec::runs_once_per_command`).
    Duplicate,
}

/// What happened to one binding of the event.
#[derive(Debug, Clone, PartialEq)]
pub enum RunStatus {
    /// It ran and its verdict is in [`HookRun::verdict`].
    Ran,
    /// It did not run.
    Skipped(SkipReason),
    /// It was started in the background; its verdict does not count.
    Background {
        /// Whether it runs detached (its own session, outliving the engine).
        detached: bool,
        /// The outbox job, for durable delivery.
        job_id: Option<String>,
        /// Where a detached hook logs.
        log: Option<PathBuf>,
        /// Why durable delivery fell back to best effort, or why a detached start failed.
        note: Option<String>,
    },
}

/// One binding's part in a firing.
#[derive(Debug, Clone, PartialEq)]
pub struct HookRun {
    /// Which hook.
    pub provenance: Provenance,
    /// Its execution mode.
    pub mode: ExecutionMode,
    /// Ran, skipped, or started in the background.
    pub status: RunStatus,
    /// What the process did (blocking runs, and drained background runs).
    pub outcome: Option<RawOutcome>,
    /// What its codec made of it.
    pub verdict: Option<HookVerdict>,
    /// Whether the verdict entered the fold (false for hooks that ran concurrently but
    /// come after a deny in binding order).
    pub counted: bool,
    /// How long it waited for a free slot.
    pub queued: Duration,
}

impl HookRun {
    fn skipped(binding: &Binding, reason: SkipReason) -> HookRun {
        HookRun {
            provenance: binding.provenance(),
            mode: binding.definition.mode,
            status: RunStatus::Skipped(reason),
            outcome: None,
            verdict: None,
            counted: false,
            queued: Duration::ZERO,
        }
    }

    fn ran(binding: &Binding, ex: Executed) -> HookRun {
        HookRun {
            provenance: binding.provenance(),
            mode: binding.definition.mode,
            status: RunStatus::Ran,
            outcome: Some(ex.outcome),
            verdict: Some(ex.verdict),
            counted: false,
            queued: ex.queued,
        }
    }
}

/// The result of firing one event.
#[derive(Debug, Clone, PartialEq)]
pub struct FireReport {
    /// The folded verdict of the blocking hooks, with the deciding hook's provenance.
    pub verdict: FoldedVerdict,
    /// Every binding of the event: the blocking ones in binding order, then the
    /// non-blocking ones in binding order.
    pub runs: Vec<HookRun>,
    /// Wall time of the firing (blocking part only).
    pub duration: Duration,
}

impl FireReport {
    /// The run of the hook that decided, when one did.
    pub fn deciding_run(&self) -> Option<&HookRun> {
        let p = self.verdict.decided_by.as_ref()?;
        self.runs.iter().find(|r| &r.provenance == p && r.counted)
    }
}

/// What draining background hooks found.
#[derive(Debug, Default)]
pub struct DrainReport {
    /// Runs that finished within the grace.
    pub finished: Vec<HookRun>,
    /// Hooks still running at the end of the grace; they were killed.
    pub cancelled: Vec<Provenance>,
}

/// What `recover_outbox` did.
#[derive(Debug, Default)]
pub struct RecoveryReport {
    /// Jobs started again (tracked as async hooks: `drain` waits for them).
    pub retried: Vec<String>,
    /// Jobs moved to `failed/` (retry limit, hook missing or disabled), with why.
    pub failed: Vec<(String, String)>,
    /// Jobs already finished before a crash removed them from `pending/`.
    pub completed: Vec<String>,
    /// Jobs left pending because they started too recently.
    pub too_recent: Vec<String>,
    /// Job files that could not be read.
    pub errors: Vec<DispatchError>,
}

/// Runs hooks for events. Cheap to share; background hooks are tracked until drained.
#[derive(Debug)]
pub struct Dispatcher {
    inner: Arc<Inner>,
    background: Mutex<Vec<Tracked>>,
}

#[derive(Debug)]
struct Inner {
    cfg: DispatchConfig,
    slots: Semaphore,
    /// The formats' own limits (`max_parallel`), within `slots`.
    format_slots: FormatSlots,
    outbox: Option<Outbox>,
    /// Groups whose hooks exited cleanly but left members behind; killed on drop.
    lingering: Lingering,
}

#[derive(Debug)]
struct Tracked {
    mode: ExecutionMode,
    /// How long a drain waits for it when its format sets that (`shutdown_grace`), instead
    /// of the drain's own grace.
    grace: Option<Duration>,
    /// A detached hook's task only records its end; it never kills the process.
    detached: bool,
    provenance: Provenance,
    handle: JoinHandle<HookRun>,
}

struct Executed {
    outcome: RawOutcome,
    verdict: HookVerdict,
    queued: Duration,
}

/// Background hooks end with their dispatcher: the async and fire-and-forget hooks still
/// running (or not yet started) are aborted, which kills their process groups; a durable job
/// cut short stays pending for the next start; and the members a hook left in its group after
/// a clean exit (background work that closed our pipes) are killed, and so is every process
/// that still carries the dispatcher's environment tag after leaving its group (`setsid`,
/// `setpgid`; Linux, through `/proc`). Detached hooks carry no tag and outlive
/// it by design. Without
/// this, a dropped dispatcher's hooks would go on running (or start late) on the async
/// runtime it was used on.
impl Drop for Dispatcher {
    fn drop(&mut self) {
        for t in lock(&self.background).drain(..) {
            if !t.detached {
                t.handle.abort();
            }
        }
        // What hooks left running in their groups after a clean exit ends with the engine.
        self.inner.lingering.kill_all();
        // And so do the processes that left their groups (`setsid`, `setpgid`): found by
        // the tag they inherited. Detached hooks carry none.
        self.inner.lingering.kill_tagged();
    }
}

impl Dispatcher {
    /// A dispatcher with these settings. The outbox lives in `<runtime_dir>/outbox`.
    pub fn new(cfg: DispatchConfig) -> Dispatcher {
        let slots = Semaphore::new(cfg.max_parallel_hooks.max(1));
        let outbox = cfg.runtime_dir.as_ref().map(|r| Outbox::new(r.join("outbox")));
        Dispatcher {
            inner: Arc::new(Inner {
                lingering: Lingering::new(&cfg),
                cfg,
                slots,
                format_slots: FormatSlots::default(),
                outbox,
            }),
            background: Mutex::new(Vec::new()),
        }
    }

    /// The settings.
    pub fn config(&self) -> &DispatchConfig {
        &self.inner.cfg
    }

    /// The containment this dispatcher's runs use, and what the machine allows
    /// (`specs/dispatch.md`, "Containment").
    pub fn containment(&self) -> ContainmentReport {
        crate::contain::report(&self.inner.cfg)
    }

    /// The durable outbox, when a runtime directory is configured.
    pub fn outbox(&self) -> Option<&Outbox> {
        self.inner.outbox.as_ref()
    }

    /// Fires `envelope` on `bindings` (in precedence order) and folds the verdicts.
    ///
    /// - Only bindings of the envelope's event run; disabled ones are reported as skipped.
    /// - Blocking hooks of a gated event run one after the other, each matched against and
    ///   fed the envelope with every earlier rewrite applied; a deny stops the chain (later
    ///   blocking hooks and every non-blocking hook are not spawned). Gated events whose
    ///   enabled blocking hooks all speak a format in `parallel_gated_formats`, and every non-gated
    ///   event, run their blocking hooks concurrently (bounded by `max_parallel_hooks`); the
    ///   fold is still in binding order, so the outcome does not depend on timing.
    /// - On post tool use, the first output rewrite in binding order is kept; a later one, or
    ///   one on another event, is taken out of its hook's verdict with a note.
    /// - Non-blocking hooks matching the final envelope then start in the background.
    ///
    /// Dropping the future kills every hook it started that is still blocking.
    ///
    /// The firing is a `hooks.fire` span and each hook run a `hooks.run` span inside it
    /// (`specs/observability.md`).
    pub async fn fire(
        &self,
        bindings: &[Binding],
        envelope: &Envelope,
        ctx: &FireContext,
    ) -> FireReport {
        let span = trace::fire_span(bindings, envelope, &self.inner.cfg);
        let report = self.fire_chain(bindings, envelope, ctx).instrument(span.clone()).await;
        trace::fire_done(&span, &report.verdict, report.duration);
        report
    }

    async fn fire_chain(
        &self,
        bindings: &[Binding],
        envelope: &Envelope,
        ctx: &FireContext,
    ) -> FireReport {
        let started = Instant::now();
        let inner = &*self.inner;
        let mut runs = Vec::new();
        let mut fold = ChainFold::for_event(envelope.event, envelope.tool_args().cloned());
        let mut current: Cow<'_, Envelope> = Cow::Borrowed(envelope);
        let of_event = || bindings.iter().filter(|b| inner.cfg.runs_on(&b.definition, envelope));
        let blocking: Vec<&Binding> =
            of_event().filter(|b| b.definition.mode == ExecutionMode::Blocking).collect();
        let mut slot_of = Vec::with_capacity(blocking.len());
        for b in &blocking {
            slot_of.push(runs.len());
            runs.push(HookRun::skipped(b, SkipReason::Disabled));
        }
        let mut once = RunOnce::default();
        let sequential = envelope.event.class() == EventClass::Gated
            && blocking.iter().any(|b| {
                b.definition.enabled
                    && !inner.cfg.parallel_gated_formats.contains(&b.definition.wire_format())
            });
        if sequential {
            for (b, &slot) in blocking.iter().zip(&slot_of) {
                if !b.definition.enabled {
                    continue;
                }
                if fold.is_short_circuited() {
                    set(&mut runs, slot, HookRun::skipped(b, SkipReason::ShortCircuited));
                    continue;
                }
                if !b.definition.matcher.matches(&current) {
                    set(&mut runs, slot, HookRun::skipped(b, SkipReason::NoMatch));
                    continue;
                }
                if once.is_duplicate(b) {
                    set(&mut runs, slot, HookRun::skipped(b, SkipReason::Duplicate));
                    continue;
                }
                // Boxed: a run's future is more than half of a firing's, which is moved whole
                // several times before it first runs (into the spans' `Instrumented`, into
                // `block_on`): 2.6 KiB instead of 6.4 per move.
                let ex = Box::pin(execute(inner, b, &current, ctx)).await;
                let rewrites =
                    ex.verdict.rewrite.is_some() && ex.verdict.decision != Some(Decision::Deny);
                let mut run = HookRun::ran(b, ex);
                count(&mut fold, &mut run);
                if rewrites
                    && current.tool.is_some()
                    && let Some(args) = fold.current_args()
                    && let Some(tool) = current.to_mut().tool.as_mut()
                {
                    tool.args = args.clone();
                }
                set(&mut runs, slot, run);
            }
        } else {
            let mut todo = Vec::new();
            for (b, &slot) in blocking.iter().zip(&slot_of) {
                if !b.definition.enabled {
                    continue;
                }
                if !b.definition.matcher.matches(envelope) {
                    set(&mut runs, slot, HookRun::skipped(b, SkipReason::NoMatch));
                } else if once.is_duplicate(b) {
                    set(&mut runs, slot, HookRun::skipped(b, SkipReason::Duplicate));
                } else {
                    todo.push((*b, slot));
                }
            }
            let done =
                join_all(todo.iter().map(|(b, _)| execute(inner, b, envelope, ctx)).collect())
                    .await;
            for ((b, slot), ex) in todo.iter().zip(done) {
                let mut run = HookRun::ran(b, ex);
                // Hooks after a deny in binding order ran (concurrently) but do not count.
                count(&mut fold, &mut run);
                set(&mut runs, *slot, run);
            }
            // Non-blocking hooks see the rewritten arguments, as in a sequential chain.
            if let Some(args) = fold.current_args()
                && envelope.tool_args().is_some_and(|orig| orig != args)
                && let Some(tool) = current.to_mut().tool.as_mut()
            {
                tool.args = args.clone();
            }
        }
        let short = fold.is_short_circuited();
        let mut shared: Option<(Arc<Envelope>, Arc<FireContext>)> = None;
        for b in of_event().filter(|b| b.definition.mode != ExecutionMode::Blocking) {
            if !b.definition.enabled {
                runs.push(HookRun::skipped(b, SkipReason::Disabled));
            } else if short {
                runs.push(HookRun::skipped(b, SkipReason::ShortCircuited));
            } else if !b.definition.matcher.matches(&current) {
                runs.push(HookRun::skipped(b, SkipReason::NoMatch));
            } else {
                let (env, ctx) = shared.get_or_insert_with(|| {
                    (Arc::new(current.as_ref().clone()), Arc::new(ctx.clone()))
                });
                runs.push(self.start_background(b, env, ctx, None));
            }
        }
        FireReport { verdict: fold.finish(), runs, duration: started.elapsed() }
    }

    /// Waits for the async hooks started so far (not fire-and-forget or detached ones), up
    /// to `grace`; those still running then are killed. A hook whose format sets its own
    /// grace (Chrys's `shutdown_grace_seconds`, in [`FireContext::run_settings`] when it
    /// started) is waited for that long instead. Durable jobs killed this way stay pending for
    /// the next start.
    pub async fn drain(&self, grace: Duration) -> DrainReport {
        let start = tokio::time::Instant::now();
        let deadline_of = |own: Option<Duration>| {
            let g = own.unwrap_or(grace);
            // A grace too long to add to the clock (Chrys accepts `.inf`) never ends.
            start.checked_add(g)
        };
        let tracked: Vec<Tracked> = {
            let mut bg = lock(&self.background);
            let (asyncs, rest): (Vec<Tracked>, Vec<Tracked>) =
                bg.drain(..).partition(|t| t.mode == ExecutionMode::Async);
            *bg = rest.into_iter().filter(|t| !t.handle.is_finished()).collect();
            asyncs
        };
        let mut report = DrainReport::default();
        for mut t in tracked {
            let waited = match deadline_of(t.grace) {
                Some(deadline) => tokio::time::timeout_at(deadline, &mut t.handle).await,
                None => Ok((&mut t.handle).await),
            };
            match waited {
                Ok(Ok(run)) => report.finished.push(run),
                Ok(Err(_)) => report.cancelled.push(t.provenance),
                Err(_) => {
                    t.handle.abort();
                    // Wait for the task to be dropped (which kills its process group), so
                    // nothing outlives the drain even on a current-thread runtime.
                    let _ = t.handle.await;
                    report.cancelled.push(t.provenance);
                }
            }
        }
        report
    }

    /// Deletes provided files in `<runtime_dir>/tmp` last modified more than `older_than`
    /// ago: files of detached hooks whose engine exited first, or of a crashed engine.
    /// Returns how many were deleted. Call it at start-up with an age well above the
    /// longest detached run.
    pub fn sweep_tmp(&self, older_than: Duration) -> usize {
        let Some(dir) = self.inner.cfg.runtime_dir.as_ref().map(|r| r.join("tmp")) else {
            return 0;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else { return 0 };
        let now = std::time::SystemTime::now();
        let mut removed = 0;
        for entry in entries.flatten() {
            let stale = entry
                .metadata()
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|m| m.modified().ok())
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > older_than);
            if stale && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }

    /// How many background hooks are tracked and still running.
    pub fn background_running(&self) -> usize {
        lock(&self.background).iter().filter(|t| !t.handle.is_finished()).count()
    }

    /// Retries the outbox's pending jobs at start-up (at-least-once delivery).
    ///
    /// A job already in `done/` or `failed/` is only removed from `pending/`. A job whose
    /// last start (or creation) is younger than `outbox_retry_age` stays pending. A job
    /// started `outbox_max_retries` times, or whose hook `resolve` cannot find (or finds
    /// disabled), moves to `failed/`. Others run again, with the saved envelope and the
    /// current definition, without re-matching; they are tracked as async hooks. The two
    /// limits are the job's format's own where `ctx.run_settings` sets them for the hook's
    /// project root (Chrys's `outbox_retry_age_seconds`, `outbox_max_retries`), the
    /// dispatcher's otherwise (and for a job whose hook is gone).
    pub async fn recover_outbox(
        &self,
        resolve: &(dyn Fn(&OutboxJob) -> Option<Binding> + Sync),
        ctx: &FireContext,
    ) -> Result<RecoveryReport, DispatchError> {
        let outbox = self.inner.outbox.as_ref().ok_or(DispatchError::NoRuntimeDir)?;
        let (jobs, errors) = outbox.list(crate::JobState::Pending);
        let mut report = RecoveryReport { errors, ..RecoveryReport::default() };
        let now = now_ms();
        let cfg = &self.inner.cfg;
        // Recovered jobs run in their hooks' own places, not in one firing's.
        let ctx = Arc::new(FireContext { project_dir: None, ..ctx.clone() });
        for mut job in jobs {
            if outbox.is_finished(&job.job_id) {
                outbox.remove_pending(&job.job_id)?;
                report.completed.push(job.job_id);
                continue;
            }
            let found = resolve(&job);
            let own = found.as_ref().map(|b| ctx.run_settings_for(b)).unwrap_or_default();
            let age = own.outbox_retry_age.unwrap_or(cfg.outbox_retry_age);
            let age = u64::try_from(age.as_millis()).unwrap_or(u64::MAX);
            let max_retries = own.outbox_max_retries.unwrap_or(cfg.outbox_max_retries);
            let last = job.last_started_at_ms.unwrap_or(job.created_at_ms);
            if now.saturating_sub(last) < age {
                report.too_recent.push(job.job_id);
                continue;
            }
            let why = if job.retries >= max_retries {
                format!("gave up after {} attempts", job.retries)
            } else {
                match found {
                    None => format!("hook `{}` of {} no longer exists", job.hook_id, job.source),
                    Some(b) if !b.definition.enabled => {
                        format!("hook `{}` is disabled", job.hook_id)
                    }
                    Some(mut b) => {
                        let env = Arc::new(job.envelope.clone());
                        let id = job.job_id.clone();
                        // Recovery runs the job as an async hook so `drain` can wait for it.
                        let mut def = (*b.definition).clone();
                        def.mode = ExecutionMode::Async;
                        def.detach = false;
                        b.definition = Arc::new(def);
                        self.start_background(&b, &env, &ctx, Some(job));
                        report.retried.push(id);
                        continue;
                    }
                }
            };
            let id = job.job_id.clone();
            outbox.finish(&mut job, crate::JobState::Failed, Some(why.clone()))?;
            report.failed.push((id, why));
        }
        Ok(report)
    }

    fn start_background(
        &self,
        b: &Binding,
        env: &Arc<Envelope>,
        ctx: &Arc<FireContext>,
        recovered: Option<OutboxJob>,
    ) -> HookRun {
        let inner = &self.inner;
        let def = &b.definition;
        let mut note = None;
        let mut job = recovered;
        if job.is_none() && def.delivery == Delivery::Durable {
            match &inner.outbox {
                Some(outbox) => {
                    let j = OutboxJob::new(b, env);
                    match outbox.write_pending(&j) {
                        Ok(()) => job = Some(j),
                        Err(e) => {
                            note = Some(format!("durable delivery fell back to best effort: {e}"))
                        }
                    }
                }
                None => {
                    note = Some(
                        "durable delivery needs a runtime directory; ran best effort".to_owned(),
                    )
                }
            }
        }
        #[cfg(test)]
        if job.is_some() {
            crate::testing::crash_point("after_write", 0);
        }
        let job_id = job.as_ref().map(|j| j.job_id.clone());
        let detached = def.detach && def.mode == ExecutionMode::FireAndForget;
        let mut log = None;
        let handle = if detached {
            match start_detached(inner, b, env, ctx, job) {
                Ok((h, l)) => {
                    log = l;
                    h
                }
                Err(why) => {
                    note = Some(why);
                    return HookRun {
                        status: RunStatus::Background { detached: true, job_id, log: None, note },
                        ..HookRun::skipped(b, SkipReason::Disabled)
                    };
                }
            }
        } else {
            let inner = Arc::clone(inner);
            let (b2, env, ctx) = (b.clone(), Arc::clone(env), Arc::clone(ctx));
            // The run outlives its firing: its span is a root that follows from the firing's
            // (a child would hold the `hooks.fire` span open, unexported, until it ends).
            let cause = Span::current();
            tokio::spawn(async move {
                let mut job = job;
                if let (Some(outbox), Some(j)) = (&inner.outbox, job.take()) {
                    job = write_off_runtime(outbox, j, Outbox::mark_started).await;
                    #[cfg(test)]
                    crate::testing::crash_point("after_start", 0);
                }
                let ex = execute_after(&inner, &b2, &env, &ctx, &cause).await;
                if let (Some(outbox), Some(mut j)) = (&inner.outbox, job) {
                    let (state, why) = record_outcome(&mut j, &ex.outcome);
                    write_off_runtime(outbox, j, move |o, j| o.finish(j, state, why)).await;
                }
                HookRun::ran(&b2, ex)
            })
        };
        let mut bg = lock(&self.background);
        bg.retain(|t| !t.handle.is_finished() || t.mode == ExecutionMode::Async);
        let grace = ctx.run_settings_for(b).shutdown_grace;
        bg.push(Tracked { mode: def.mode, grace, detached, provenance: b.provenance(), handle });
        drop(bg);
        HookRun {
            provenance: b.provenance(),
            mode: def.mode,
            status: RunStatus::Background { detached, job_id, log, note },
            outcome: None,
            verdict: None,
            counted: false,
            queued: Duration::ZERO,
        }
    }
}

/// Admits `run`'s verdict into the fold and marks it counted, unless a deny earlier in
/// binding order already stopped the chain.
fn count(fold: &mut ChainFold, run: &mut HookRun) {
    if let Some(v) = &mut run.verdict
        && !fold.is_short_circuited()
    {
        fold.admit(v);
        fold.push(v.clone(), &run.provenance);
        run.counted = true;
    }
}

fn set(runs: &mut [HookRun], slot: usize, run: HookRun) {
    if let Some(r) = runs.get_mut(slot) {
        *r = run;
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Encodes, runs (holding a slot) and decodes one binding, in its `hooks.run` span.
async fn execute(inner: &Inner, b: &Binding, env: &Envelope, ctx: &FireContext) -> Executed {
    execute_after(inner, b, env, ctx, &Span::none()).await
}

/// [`execute`], its span following from `cause` (a background run's firing).
async fn execute_after(
    inner: &Inner,
    b: &Binding,
    env: &Envelope,
    ctx: &FireContext,
    cause: &Span,
) -> Executed {
    let span = trace::run_span(b);
    span.follows_from(cause);
    let ex = execute_untraced(inner, b, env, ctx).instrument(span.clone()).await;
    trace::run_done(&span, &ex.outcome, &ex.verdict, ex.queued);
    ex
}

async fn execute_untraced(
    inner: &Inner,
    b: &Binding,
    env: &Envelope,
    ctx: &FireContext,
) -> Executed {
    let def = &b.definition;
    let ectx = ctx.encode_context(b);
    let mut queued = Duration::ZERO;
    let encoded = {
        let _phase = tracing::trace_span!(target: trace::TARGET, "hooks.encode").entered();
        def.codec.encode(def, env, &ectx)
    };
    let outcome = match encoded {
        Err(e) => not_started(SpawnFailureKind::EncodeFailed, e.to_string()),
        Ok(inv) => {
            let t0 = Instant::now();
            // The format's own limit first (Chrys's `max_parallel_hooks`), then the engine's:
            // always in this order, so no run holds an engine slot while it waits for its
            // format's.
            let format_slots = ctx.run_settings_for(b).max_parallel.map(|limit| {
                let place = place_of(b, ctx.project_dir.as_deref());
                inner.format_slots.semaphore(def.wire_format(), place, limit)
            });
            let _format_permit = match &format_slots {
                Some(s) => s.acquire().await.ok(),
                None => None,
            };
            let _permit = inner.slots.acquire().await.ok();
            queued = t0.elapsed();
            let limits = inner.cfg.limits_for(&def.id, &b.source);
            let contain = inner.lingering.contain();
            run_tracked(&inv, &inner.cfg, Some(&inner.lingering), contain, &limits).await
        }
    };
    let verdict = {
        let _phase = tracing::trace_span!(target: trace::TARGET, "hooks.decode").entered();
        def.codec.decode(def, env, &outcome)
    };
    Executed { outcome, verdict, queued }
}

/// Starts a detached hook and a task that waits for it (without a timeout or a kill) to
/// delete its files and finish its outbox job while the engine lives.
fn start_detached(
    inner: &Arc<Inner>,
    b: &Binding,
    env: &Envelope,
    ctx: &FireContext,
    mut job: Option<OutboxJob>,
) -> Result<(JoinHandle<HookRun>, Option<PathBuf>), String> {
    let def = &b.definition;
    // Like every background run, its `hooks.run` span is a root that follows from the
    // firing; it closes when the engine sees the process exit (or with the engine).
    let span = trace::root_run_span(b);
    span.follows_from(Span::current());
    let started_in_span = span.in_scope(|| {
        let inv = {
            let _phase = tracing::trace_span!(target: trace::TARGET, "hooks.encode").entered();
            def.codec.encode(def, env, &ctx.encode_context(b))
        };
        let inv = inv.map_err(|e| {
            trace::run_not_started(SpawnFailureKind::EncodeFailed);
            format!("cannot encode the detached hook: {e}")
        })?;
        if let (Some(outbox), Some(j)) = (&inner.outbox, job.as_mut()) {
            let _ = outbox.mark_started(j);
        }
        let runtime: Option<&Path> = inner.cfg.runtime_dir.as_deref();
        let d = {
            let _phase = tracing::trace_span!(target: trace::TARGET, "hooks.spawn").entered();
            crate::detach::start(&inv, runtime, env.session_id.as_deref(), &def.id)
        };
        let d = d.map_err(|f| {
            trace::run_not_started(f.kind);
            f.message
        })?;
        trace::record_pid(d.child.id());
        Ok::<_, String>(d)
    });
    let mut d = started_in_span?;
    let log = d.log.clone();
    // The process may outlive this engine: its files stay unless the waiter below sees it
    // exit.
    d.files.set_keep(true);
    let inner = Arc::clone(inner);
    let b = b.clone();
    let env = env.clone();
    let handle = tokio::spawn(
        async move {
            let started = Instant::now();
            let status = d.child.wait().await;
            let exit = match status {
                Ok(st) => crate::runner::exit_info(st),
                Err(e) => hooks_schema::ExitInfo::NotStarted(hooks_schema::SpawnFailure {
                    kind: SpawnFailureKind::Other,
                    message: format!("cannot wait for the detached hook: {e}"),
                }),
            };
            let outcome = RawOutcome {
                exit,
                timed_out: false,
                stdout: hooks_schema::CapturedOutput::default(),
                stderr: hooks_schema::CapturedOutput::default(),
                result_file: d.files.read_output(inner.cfg.result_file_cap),
                duration: started.elapsed(),
            };
            d.files.set_keep(false);
            drop(d.files);
            if let (Some(outbox), Some(mut j)) = (&inner.outbox, job) {
                let (state, why) = record_outcome(&mut j, &outcome);
                write_off_runtime(outbox, j, move |o, j| o.finish(j, state, why)).await;
            }
            let verdict = b.definition.codec.decode(&b.definition, &env, &outcome);
            trace::run_done(&Span::current(), &outcome, &verdict, Duration::ZERO);
            HookRun::ran(&b, Executed { outcome, verdict, queued: Duration::ZERO })
        }
        .instrument(span),
    );
    Ok((handle, log))
}

#[cfg(test)]
mod tests;
