//! Running one [`Invocation`]: spawn in its own process group, feed stdin, capture bounded
//! output, enforce the timeout on the whole group, and never wait on orphans' pipes.

use std::{
    future::Future,
    io::{self, Seek, Write},
    os::{
        fd::{AsFd, BorrowedFd, OwnedFd},
        unix::process::ExitStatusExt,
    },
    pin::Pin,
    process::ExitStatus,
    time::{Duration, Instant},
};

use hooks_schema::{
    CapturedOutput, ExitInfo, Invocation, Program, RawOutcome, SpawnFailure, SpawnFailureKind,
};
use nix::{
    sys::signal::{Signal, killpg},
    unistd::Pid,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tracing::Instrument;

use crate::{
    DispatchConfig, HookLimits,
    capture::HeadTail,
    contain::{Contain, RunCgroup},
    files::ProvidedFiles,
    limits::{Resource, V1Run},
    reaper,
    spawner::{self, ChildLimits, Placement, Proc, Started, Stream, Tag},
    tag,
};

/// How long the runner waits for a process to be reaped after SIGKILL. SIGKILL cannot be
/// caught, so this only bounds pathological kernel states (a process stuck in
/// uninterruptible IO).
const REAP_BOUND: Duration = Duration::from_secs(5);

/// Runs one process to completion, within its timeout, and reports what happened.
///
/// Never fails: spawn errors, oversized payloads and unwritable provided files come back as
/// [`ExitInfo::NotStarted`] with a classified [`SpawnFailureKind`].
///
/// - The process leads its own process group; on timeout the whole group gets SIGTERM and,
///   after `kill_grace`, SIGKILL (at once when the grace is zero).
/// - stdin gets [`Invocation::stdin`] and is then closed: up to `PIPE_BUF` bytes are in the
///   pipe before the spawn, larger payloads are written concurrently with output reading; a
///   hook that never reads it cannot block the runner (EPIPE is ignored).
/// - Once the direct child has exited, pipes still held open by other members of its group
///   (a backgrounded grandchild) are read for at most `pipe_grace`; then the group is killed
///   and what is buffered is read for at most another `pipe_grace`. Members that closed
///   their pipes are left alone.
/// - Dropping the returned future kills the group.
pub async fn run_invocation(inv: &Invocation, cfg: &DispatchConfig) -> RawOutcome {
    let contain = Contain::resolve(cfg);
    run_tracked(inv, cfg, None, contain, &cfg.limits).await
}

/// Process groups that a hook left behind when it exited cleanly: members that closed our
/// pipes (a hook's deliberate `cmd >/dev/null 2>&1 &` background work). They may go on while
/// the engine lives; the dispatcher kills what is left of them when it is dropped, so no
/// process outlives the engine. It also holds the dispatcher's tag ([`tag`]), which finds the
/// processes that left their group.
#[derive(Debug)]
pub(crate) struct Lingering {
    /// The containment of this dispatcher's runs, resolved at its first run (the machine
    /// probed, the engine's cgroup tree made): a dispatcher that runs nothing, such as a
    /// one-shot `hooks fire` or `hooks bridge` whose event matches no hook, probes nothing.
    contain: std::sync::OnceLock<Contain>,
    /// The settings [`Contain::resolve`] is asked with at the first run.
    cfg: crate::DispatchConfig,
    groups: std::sync::Mutex<Vec<Pid>>,
    /// Run cgroups whose hook exited cleanly with members left.
    cgroups: std::sync::Mutex<Vec<RunCgroup>>,
    /// The reaped processes and pipe ends of runs that ended cleanly, closed while the next
    /// run's child starts, or when the dispatcher is dropped (see [`Lingering::settle`]).
    settling: std::sync::Mutex<Vec<Ends>>,
    tag: String,
    /// Whether a process got the tag: a dispatcher that ran no hook has nothing to sweep.
    used: std::sync::atomic::AtomicBool,
}

impl Lingering {
    /// The lingering processes of a dispatcher with the settings `cfg`; its containment is
    /// resolved when [`Lingering::contain`] is first asked.
    pub(crate) fn new(cfg: &crate::DispatchConfig) -> Lingering {
        Lingering {
            contain: std::sync::OnceLock::new(),
            cfg: cfg.clone(),
            groups: std::sync::Mutex::default(),
            cgroups: std::sync::Mutex::default(),
            settling: std::sync::Mutex::default(),
            tag: tag::dispatcher_tag(),
            used: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The value of [`tag::VAR`] in the processes this dispatcher spawns.
    pub(crate) fn tag(&self) -> &str {
        self.used.store(true, std::sync::atomic::Ordering::Relaxed);
        &self.tag
    }

    /// SIGKILLs every process still carrying this dispatcher's tag: those that left their
    /// group (`setsid`, `setpgid`) and so escaped [`Lingering::kill_all`].
    pub(crate) fn kill_tagged(&self) -> usize {
        if !self.used.load(std::sync::atomic::Ordering::Relaxed) {
            return 0;
        }
        tag::kill_tagged(&self.tag)
    }

    /// Records `pgid` if the group still has members, and forgets groups that emptied (so a
    /// recorded number is only ever a live group's: a group id is not reused while the group
    /// has a member).
    fn record_if_alive(&self, pgid: Pid) {
        let mut g = self.groups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        g.retain(|p| {
            let alive = killpg(*p, None).is_ok();
            if !alive {
                reaper::global().release(*p);
            }
            alive
        });
        if killpg(pgid, None).is_ok() {
            if !g.contains(&pgid) {
                g.push(pgid);
            }
        } else {
            reaper::global().release(pgid);
        }
    }

    /// The containment, if a run resolved it already.
    #[cfg(test)]
    pub(crate) fn resolved(&self) -> Option<Contain> {
        self.contain.get().copied()
    }

    /// How many runs wait to be settled, how many of them still hold their process's handles
    /// (every one: settling is closing them), and how many cgroups are kept with members.
    #[cfg(test)]
    pub(crate) fn unsettled_and_kept(&self) -> (usize, usize, usize) {
        let unsettled =
            self.settling.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len();
        let kept = self.cgroups.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len();
        (unsettled, unsettled, kept)
    }

    /// The containment of this dispatcher's runs, resolved on the first call, and again
    /// once a start found a tree of it unusable ([`Contain::after_failed_start`]).
    pub(crate) fn contain(&self) -> Contain {
        let c = *self.contain.get_or_init(|| Contain::resolve(&self.cfg));
        if c.stale() { Contain::resolve(&self.cfg) } else { c }
    }

    /// Keeps the cgroup of a clean run that left members, and retires those that emptied.
    fn keep_cgroup(&self, contain: Contain, run: RunCgroup) {
        let mut c = self.cgroups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut i = 0;
        while i < c.len() {
            if c[i].populated() {
                i += 1;
            } else {
                contain.finish(c.swap_remove(i));
            }
        }
        c.push(run);
    }

    /// Leaves a clean run's process handles for [`Lingering::settle`]: closing them is not on
    /// the path of the run's verdict.
    fn settle_later(&self, ends: Ends) {
        let mut s = self.settling.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        s.push(ends);
    }

    /// Closes what [`Lingering::settle_later`] left (each reaped process's pid file descriptor
    /// and its pipe ends). Called once the next run's child is started, so the closes overlap
    /// its start rather than delay a verdict.
    fn settle(&self) {
        drop(std::mem::take(
            &mut *self.settling.lock().unwrap_or_else(std::sync::PoisonError::into_inner),
        ));
    }

    /// SIGKILLs every recorded group that still has members, and every kept cgroup.
    pub(crate) fn kill_all(&self) {
        // Handles of runs not settled yet.
        self.settle();
        let mut g = self.groups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for pgid in g.drain(..) {
            let _ = killpg(pgid, Signal::SIGKILL);
            reaper::global().release(pgid);
        }
        drop(g);
        let mut c = self.cgroups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // A cgroup is only kept by a run, which resolved the containment: one that never ran
        // has none to kill (and is not probed now).
        if let Some(contain) = self.contain.get() {
            for run in c.drain(..) {
                contain.kill(&run);
                contain.finish(run);
            }
        }
    }
}

/// [`run_invocation`], recording in `lingering` the group (or cgroup) of a clean run that left
/// members.
pub(crate) async fn run_tracked(
    inv: &Invocation,
    cfg: &DispatchConfig,
    lingering: Option<&Lingering>,
    contain: Contain,
    limits: &HookLimits,
) -> RawOutcome {
    let payload: usize = inv.stdin.len()
        + inv
            .files
            .iter()
            .map(|f| match &f.role {
                hooks_schema::ProvidedFileRole::Input(b) => b.len(),
                hooks_schema::ProvidedFileRole::Output => 0,
            })
            .sum::<usize>();
    if payload > cfg.payload_cap {
        return not_started(
            SpawnFailureKind::PayloadTooLarge,
            format!("payload of {payload} bytes exceeds the cap of {} bytes", cfg.payload_cap),
        );
    }
    if let Program::Http(hook) = &inv.program {
        // No process, so nothing to contain, tag or reap.
        return crate::http::post(inv, hook, cfg).await;
    }
    // Entered after the only await before the spawn: an entered span must not live across one.
    let prepare = tracing::trace_span!(target: crate::trace::TARGET, "hooks.prepare").entered();
    let files = match ProvidedFiles::create(&inv.files, cfg.runtime_dir.as_deref()) {
        Ok(f) => f,
        Err(e) => return not_started(SpawnFailureKind::Other, e.to_string()),
    };
    let cgroup = match contain.begin(limits) {
        Ok(c) => c,
        Err(e) => {
            return not_started(
                SpawnFailureKind::Other,
                format!("cannot prepare the run's cgroup: {e}"),
            );
        }
    };
    let run_limits = match contain.begin_limits(limits, inv.timeout) {
        Ok(l) => l,
        Err(e) => {
            if let Some(c) = cgroup {
                contain.finish(c);
            }
            return not_started(
                SpawnFailureKind::Other,
                format!("cannot prepare the run's limits: {e}"),
            );
        }
    };
    // A cgroup holds the run whatever its processes do; only the subreaper and process-group
    // mechanisms need the tag (and the reaper's registration) to find those that left the
    // group.
    let tag = match (&cgroup, lingering) {
        (Some(_), _) => None,
        (None, Some(l)) => Some(l.tag()),
        (None, None) => Some(tag::loose_tag()),
    };
    if tag.is_some() {
        reaper::global().tags_used();
    } else {
        reaper::global().ensure_running();
    }
    let subreaper = cfg!(target_os = "linux") && contain.mechanism.walks_the_tree();
    // Killed by the reaper if the engine process dies while the group is registered (the
    // cgroup mechanisms kill the engine's whole tree instead). The child writes its group into
    // the slot before its `exec`: registering after the start left a moment where a hook ran
    // unregistered, and an engine killed then left it and what it started alive.
    let reservation = if cgroup.is_none() { reaper::global().reserve() } else { None };
    let register = reservation.as_ref().map(|r| (r.file.as_fd(), r.offset));
    let child_limits = ChildLimits {
        v1_tasks: run_limits.v1.each_ref().map(|r| r.as_ref().map(V1Run::tasks)),
        rlimits: run_limits.rlimits.as_slice(),
    };
    let piped = SpawnStdio::Piped {
        tag,
        cgroup: cgroup.as_ref(),
        subreaper,
        register,
        limits: child_limits,
    };
    drop(prepare);
    let spawned = {
        let _phase = tracing::trace_span!(target: crate::trace::TARGET, "hooks.spawn").entered();
        spawn(inv, &files, piped)
    };
    // The shared trees found made are swept of gone engines' runs while the hook's first
    // process `exec`s, not before it starts (`contain::sweep_later`).
    crate::contain::sweep_pending();
    let started = match spawned {
        Ok(c) => c,
        Err(f) => {
            if let Some(r) = reservation {
                reaper::global().cancel(r);
            }
            let used = (cgroup.is_some(), run_limits.v1.each_ref().map(Option::is_some));
            if let Some(c) = cgroup {
                contain.finish(c);
            }
            contain.finish_limits(run_limits);
            // The first start in a tree is its check: if a tree it used does not work, the
            // hook (whose process never ran) starts again with what does.
            if let Some(next) = contain.after_failed_start(cfg, used.0, used.1) {
                return Box::pin(run_tracked(inv, cfg, lingering, next, limits)).await;
            }
            return RawOutcome { exit: ExitInfo::NotStarted(f), ..empty_outcome() };
        }
    };
    contain.started(cgroup.is_some(), &run_limits);
    let start = Instant::now();
    crate::trace::record_pid(started.proc.id());
    #[cfg(test)]
    crate::testing::crash_point("after_spawn", started.proc.id().unwrap_or(0));
    let pgid = started.proc.id().and_then(|p| i32::try_from(p).ok()).map(Pid::from_raw);
    match (reservation, pgid) {
        (Some(r), Some(pgid)) => reaper::global().confirm(r, pgid),
        (Some(r), None) => reaper::global().cancel(r),
        (None, _) => {}
    }
    // The previous clean runs' bookkeeping, and the next run's pipes, while this run's child
    // starts.
    if let Some(l) = lingering {
        l.settle();
        spawner::make_spare_pipes();
    }
    let cpu_v1 = run_limits.v1[Resource::Cpu.index()].as_ref();
    let mut run = supervise(started, pgid, cgroup.as_ref(), cpu_v1, contain, inv, cfg, start)
        .instrument(tracing::trace_span!(target: crate::trace::TARGET, "hooks.wait"))
        .await;
    // The trees' fork, if one started for this run, has set itself up by now.
    reaper::global().settle();
    let _finish = tracing::trace_span!(target: crate::trace::TARGET, "hooks.finish").entered();
    // A clean run of a dispatcher: its process's handles are closed later (see
    // `Lingering::settle`). Its cgroups are settled now, below: an empty one back in its pool
    // is the one the next run takes, so runs keep reusing the same cgroups (the kernel's
    // per-cgroup state stays warm) rather than alternating between two.
    if let Some(l) = lingering
        && let Some(ends) = run.ends.take()
    {
        l.settle_later(ends);
    }
    match cgroup {
        Some(c) => {
            let populated = c.populated();
            match lingering {
                Some(l) if !run.killed && populated => l.keep_cgroup(contain, c),
                // Without a dispatcher nothing kills a clean run's remaining members while the
                // engine lives; the reaper kills the tree when it ends.
                _ => contain.finish_read(c, populated),
            }
        }
        None => {
            if let Some(pgid) = pgid {
                match lingering {
                    Some(l) => l.record_if_alive(pgid),
                    None if killpg(pgid, None).is_err() => reaper::global().release(pgid),
                    None => {}
                }
            }
        }
    }
    contain.finish_limits(run_limits);
    let result_file = files.read_output(cfg.result_file_cap);
    files.delete_later();
    RawOutcome {
        exit: run.exit,
        timed_out: run.timed_out,
        stdout: run.stdout,
        stderr: run.stderr,
        result_file,
        duration: run.duration,
    }
}

/// An outcome for a process that never started.
pub(crate) fn not_started(kind: SpawnFailureKind, message: impl Into<String>) -> RawOutcome {
    RawOutcome {
        exit: ExitInfo::NotStarted(SpawnFailure { kind, message: message.into() }),
        ..empty_outcome()
    }
}

fn empty_outcome() -> RawOutcome {
    RawOutcome {
        exit: ExitInfo::Exited(0),
        timed_out: false,
        stdout: CapturedOutput::default(),
        stderr: CapturedOutput::default(),
        result_file: None,
        duration: Duration::ZERO,
    }
}

/// Where a spawned process's standard streams go.
pub(crate) enum SpawnStdio<'a> {
    /// stdin prefilled or piped (or `/dev/null` when the invocation has none, see
    /// [`StdinPlan`]), stdout and stderr piped; the process leads its own group, in `cgroup`
    /// when given, and carries `tag` in [`tag::VAR`] when given.
    Piped {
        /// The value of [`tag::VAR`] (process-group containment).
        tag: Option<&'a str>,
        /// The run's cgroup (cgroup containment).
        cgroup: Option<&'a RunCgroup>,
        /// Whether the first process becomes a child subreaper.
        subreaper: bool,
        /// The reaper's registration slot the first process writes its group into.
        register: Option<(BorrowedFd<'a>, u64)>,
        /// The run's limits outside its cgroup v2.
        limits: ChildLimits<'a>,
    },
    /// stdin `/dev/null` or an anonymous file holding the bytes; stdout and stderr appended to
    /// a log file; the process starts a new session and carries no tag (it outlives the engine
    /// by design).
    Detached(std::fs::File),
}

/// The largest payload put into the child's stdin pipe whole, with no writer supervising it:
/// `PIPE_BUF`. A write of at most `PIPE_BUF` bytes into a fresh, empty pipe (whose capacity is
/// at least one page) is complete and cannot block.
const PREFILL_MAX: usize = 4096;

/// Where the child's stdin comes from:
/// - `/dev/null` when the invocation has no bytes;
/// - for a detached run, an anonymous file holding the bytes: complete whatever their size,
///   and readable after this engine exits (a pipe's unwritten rest would be lost then);
/// - for a supervised run whose bytes fit in [`PREFILL_MAX`], a pipe that holds them all and
///   whose write end is closed by the time the hook runs (no async writer, no poller
///   registration, and the hook finds its payload the moment it reads): written once the
///   child is started, while it `exec`s ([`Stream::Prefill`]), or before the spawn when
///   several programs may be tried (each attempt gets a duplicate of the filled pipe);
/// - otherwise a pipe fed by the runner while it supervises the run.
struct StdinPlan {
    ready: Option<OwnedFd>,
    /// The write end of `ready`'s pipe, when the bytes are written after the spawn.
    write: Option<OwnedFd>,
    piped: bool,
}

impl StdinPlan {
    /// `attempts_may_follow`: several programs may be tried in turn (the bytes are then
    /// written before the first, so that each attempt gets a duplicate of the filled pipe).
    fn new(bytes: &[u8], detached: bool, attempts_may_follow: bool) -> io::Result<StdinPlan> {
        if bytes.is_empty() {
            return Ok(StdinPlan { ready: None, write: None, piped: false });
        }
        if detached {
            let mut f = crate::files::anonymous_file(&std::env::temp_dir())?;
            f.write_all(bytes)?;
            f.seek(io::SeekFrom::Start(0))?;
            return Ok(StdinPlan { ready: Some(f.into()), write: None, piped: false });
        }
        if bytes.len() > PREFILL_MAX {
            return Ok(StdinPlan { ready: None, write: None, piped: true });
        }
        // Both ends are close-on-exec; the write end is closed once the bytes are in, so the
        // hook reads them and then end-of-file.
        let (r, w) = spawner::pipe()?;
        if attempts_may_follow {
            std::fs::File::from(w).write_all(bytes)?;
            return Ok(StdinPlan { ready: Some(r), write: None, piped: false });
        }
        Ok(StdinPlan { ready: Some(r), write: Some(w), piped: false })
    }

    /// The stdin of one spawn attempt; `again` when another attempt may follow (the prepared
    /// descriptor is then duplicated rather than given away; nothing has read from it).
    fn stdio(&mut self, again: bool) -> io::Result<Stream> {
        if !again && let Some(fd) = self.ready.take() {
            return Ok(match self.write.take() {
                Some(w) => Stream::Prefill(fd, w),
                None => Stream::Fd(fd),
            });
        }
        if let Some(fd) = &self.ready {
            return Ok(Stream::Fd(fd.try_clone()?));
        }
        Ok(if self.piped { Stream::Piped } else { Stream::Null })
    }
}

/// Spawns the invocation's program, trying `FirstAvailable` candidates in order.
pub(crate) fn spawn(
    inv: &Invocation,
    files: &ProvidedFiles,
    stdio: SpawnStdio<'_>,
) -> Result<Started, SpawnFailure> {
    let detached = matches!(stdio, SpawnStdio::Detached(_));
    let attempts = matches!(inv.program, Program::FirstAvailable { .. });
    let mut stdin = StdinPlan::new(&inv.stdin, detached, attempts).map_err(|e| SpawnFailure {
        kind: SpawnFailureKind::Other,
        message: format!("cannot prepare the hook's stdin: {e}"),
    })?;
    match &inv.program {
        Program::Shell { script, shell } => {
            let sh = shell.as_deref().unwrap_or("/bin/sh");
            let input = stdin.stdio(false).map_err(|e| other(&e, sh))?;
            spawn_one(sh, &["-c", script.as_str()], inv, files, &stdio, input)
        }
        Program::Exec { argv } => match argv.split_first() {
            Some((p, args)) => {
                let input = stdin.stdio(false).map_err(|e| other(&e, p))?;
                spawn_one(p, args, inv, files, &stdio, input)
            }
            None => Err(SpawnFailure {
                kind: SpawnFailureKind::Other,
                message: "the invocation's argv is empty".to_owned(),
            }),
        },
        Program::Http(_) => Err(SpawnFailure {
            kind: SpawnFailureKind::Other,
            message: "an http hook is a request, not a process: it cannot run detached".to_owned(),
        }),
        Program::FirstAvailable { candidates } => {
            let mut tried = Vec::new();
            for c in candidates {
                let Some((p, args)) = c.split_first() else { continue };
                let input = stdin.stdio(true).map_err(|e| other(&e, p))?;
                match spawn_one(p, args, inv, files, &stdio, input) {
                    Err(f) if f.kind == SpawnFailureKind::ProgramNotFound => tried.push(p.as_str()),
                    other => return other,
                }
            }
            Err(SpawnFailure {
                kind: SpawnFailureKind::ProgramNotFound,
                message: format!("none of the programs `{}` was found", tried.join("`, `")),
            })
        }
    }
}

fn spawn_one<S: AsRef<str>>(
    program: &str,
    args: &[S],
    inv: &Invocation,
    files: &ProvidedFiles,
    stdio: &SpawnStdio<'_>,
    stdin: Stream,
) -> Result<Started, SpawnFailure> {
    match stdio {
        SpawnStdio::Piped { tag, cgroup, subreaper, register, limits } => spawner::start(
            program,
            args,
            inv,
            files,
            [stdin, Stream::Piped, Stream::Piped],
            // Set last, so neither the invocation nor an enclosing engine's tag overrides it.
            tag.map_or(Tag::Keep, Tag::Set),
            Placement {
                new_session: false,
                cgroup: cgroup.map(RunCgroup::fds),
                kill_on_drop: true,
                subreaper: *subreaper,
                register: *register,
                limits: *limits,
            },
        ),
        SpawnStdio::Detached(log) => {
            let out = log.try_clone().map_err(|e| other(&e, program))?;
            let err = log.try_clone().map_err(|e| other(&e, program))?;
            spawner::start(
                program,
                args,
                inv,
                files,
                [stdin, Stream::Fd(out.into()), Stream::Fd(err.into())],
                Tag::Remove,
                Placement {
                    new_session: true,
                    cgroup: None,
                    kill_on_drop: false,
                    subreaper: false,
                    register: None,
                    limits: ChildLimits::default(),
                },
            )
        }
    }
}

fn other(e: &io::Error, program: &str) -> SpawnFailure {
    SpawnFailure {
        kind: SpawnFailureKind::Other,
        message: format!("cannot start `{program}`: {e}"),
    }
}

/// What supervising a started process produced.
struct Supervised {
    /// The reaped process and the engine's ends of its pipes, once a clean run is over:
    /// closing them (an `epoll_ctl` and a `close` each) can wait until after the verdict.
    ends: Option<Ends>,
    exit: ExitInfo,
    timed_out: bool,
    /// Whether the run's group (and cgroup) was killed: a timeout, or orphans holding the
    /// pipes.
    killed: bool,
    stdout: CapturedOutput,
    stderr: CapturedOutput,
    duration: Duration,
}

/// The engine's ends of a run's stdout and stderr pipes, read to their end (stdin's is closed
/// as soon as the payload is written: the hook waits for its end-of-file).
type PipeEnds =
    ((), Option<Box<dyn AsyncRead + Unpin + Send>>, Option<Box<dyn AsyncRead + Unpin + Send>>);

/// A finished run's process handle (reaped) and pipe ends, closed when dropped.
pub(crate) struct Ends {
    _proc: Proc,
    _pipes: PipeEnds,
}

impl std::fmt::Debug for Ends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ends").field("proc", &self._proc).finish_non_exhaustive()
    }
}

/// Kills the process group, the run's cgroup and (with a subreaper first process) its process
/// tree, when dropped while armed (the run was cancelled).
struct GroupGuard<'a> {
    pgid: Option<Pid>,
    cgroup: Option<&'a RunCgroup>,
    /// The run's cgroup in the v1 CPU hierarchy: its quota is lifted once the members were
    /// sent SIGKILL ([`V1Run::lift_cpu`]).
    cpu_v1: Option<&'a V1Run>,
    contain: Contain,
    /// Whether the first process (the group's leader, a child subreaper) is not reaped yet:
    /// only then is its pid certainly its own, and its tree still under it.
    leader_alive: bool,
    /// The tree when SIGTERM was sent (a leader that exits on it releases its tree).
    at_term: Vec<i32>,
}

impl GroupGuard<'_> {
    fn signal(&self, sig: Signal) {
        if let Some(pgid) = self.pgid {
            // ESRCH (the group is already gone) is the expected case after a clean exit.
            let _ = killpg(pgid, sig);
        }
    }

    /// SIGTERM to the group, and to the rest of the first process's tree.
    ///
    /// The group (the first process with it) is signalled before the rest of the tree: a shell
    /// whose command died of the SIGTERM first could otherwise exit with `128 + 15` before its
    /// own SIGTERM arrived, and report an exit code where it was terminated. The tree is read
    /// before either, while the first process still holds it.
    fn terminate(&mut self) {
        #[cfg(target_os = "linux")]
        if self.contain.mechanism.walks_the_tree()
            && self.leader_alive
            && let Some(pgid) = self.pgid
        {
            self.at_term = crate::contain::tree_of(pgid.as_raw());
        }
        self.signal(Signal::SIGTERM);
        #[cfg(target_os = "linux")]
        for p in &self.at_term {
            let _ = nix::sys::signal::kill(Pid::from_raw(*p), Signal::SIGTERM);
        }
    }

    /// SIGKILL to the first process's tree (stopped first, so nothing forks or is orphaned
    /// meanwhile), the group and everything in the run's cgroup, whatever left the group.
    fn kill(&self) {
        #[cfg(target_os = "linux")]
        if self.contain.mechanism.walks_the_tree()
            && let Some(pgid) = self.pgid
        {
            if self.leader_alive {
                crate::contain::kill_tree(pgid.as_raw());
            } else {
                for p in &self.at_term {
                    crate::contain::kill_tree(*p);
                }
            }
        }
        self.signal(Signal::SIGKILL);
        if let Some(c) = self.cgroup {
            self.contain.kill(c);
        }
        if let Some(r) = self.cpu_v1 {
            r.lift_cpu();
        }
    }
}

impl Drop for GroupGuard<'_> {
    fn drop(&mut self) {
        self.kill();
        if let Some(pgid) = self.pgid
            && self.cgroup.is_none()
        {
            // Killed: its members can run no more code, so its number is released.
            reaper::global().release(pgid);
        }
    }
}

/// Supervises `started`, the leader of process group `pgid` (in `cgroup`, when given).
#[allow(clippy::too_many_arguments, reason = "one call site; the run's parts, as they are")]
async fn supervise(
    started_proc: Started,
    pgid: Option<Pid>,
    cgroup: Option<&RunCgroup>,
    cpu_v1: Option<&V1Run>,
    contain: Contain,
    inv: &Invocation,
    cfg: &DispatchConfig,
    started: Instant,
) -> Supervised {
    // Declared before the guard, so a cancelled run's guard kills the tree while the first
    // process is still alive (and still holds its tree), before dropping the handle kills it.
    let Started { proc: mut child, stdin, stdout, stderr } = started_proc;
    let mut guard =
        GroupGuard { pgid, cgroup, cpu_v1, contain, leader_alive: true, at_term: Vec::new() };
    let mut killed = false;
    let mut out = HeadTail::new(cfg.stdout_cap);
    let mut err = HeadTail::new(cfg.stderr_cap);
    // No ceiling: a timeout too long to add to `started` has no deadline.
    let deadline = started.checked_add(inv.timeout);
    let (status, timed_out, ended, pipes) = {
        let io = async {
            tokio::join!(feed(stdin, &inv.stdin), pump(stdout, &mut out), pump(stderr, &mut err))
        };
        let mut io = std::pin::pin!(io);
        let mut io_done: Option<PipeEnds> = None;
        let first = wait_driving(&mut child, &mut io, &mut io_done, deadline).await;
        guard.leader_alive = first.is_none();
        let (status, timed_out) = match first {
            Some(st) => (Some(st), false),
            None => {
                let mut st = None;
                if !cfg.kill_grace.is_zero() {
                    guard.terminate();
                    st = wait_driving(
                        &mut child,
                        &mut io,
                        &mut io_done,
                        Instant::now().checked_add(cfg.kill_grace),
                    )
                    .await;
                    guard.leader_alive = st.is_none();
                }
                // SIGKILL the group (and the cgroup) even when the leader obeyed SIGTERM:
                // members that ignore it must not outlive the timeout.
                guard.kill();
                killed = true;
                if st.is_none() {
                    st = wait_driving(
                        &mut child,
                        &mut io,
                        &mut io_done,
                        Instant::now().checked_add(REAP_BOUND),
                    )
                    .await;
                }
                (st, true)
            }
        };
        let ended = Instant::now();
        if io_done.is_none() {
            match tokio::time::timeout(cfg.pipe_grace, &mut io).await {
                Ok(ends) => io_done = Some(ends),
                Err(_) => {
                    // Something else in the group holds our pipes open: an orphan. Kill the
                    // group and the cgroup, then read what is still buffered until EOF
                    // (bounded again: a process that left the group could still hold the
                    // pipes).
                    guard.kill();
                    killed = true;
                    let _ = tokio::time::timeout(cfg.pipe_grace, &mut io).await;
                }
            }
        }
        (status, timed_out, ended, io_done)
    };
    let reaped = matches!(status, Some(Ok(_)));
    let exit = match status {
        Some(Ok(st)) => exit_info(st),
        Some(Err(e)) => ExitInfo::NotStarted(SpawnFailure {
            kind: SpawnFailureKind::Other,
            message: format!("cannot wait for the hook process: {e}"),
        }),
        None => ExitInfo::Signaled(Signal::SIGKILL as i32),
    };
    // A clean run leaves the group alone: members that closed our pipes may be a hook's
    // deliberate background work.
    guard.pgid = None;
    guard.cgroup = None;
    guard.cpu_v1 = None;
    // A reaped process whose pipes all ended: its handles close after the verdict.
    let ends = match pipes {
        Some(pipes) if reaped && !killed => Some(Ends { _proc: child, _pipes: pipes }),
        _ => None,
    };
    Supervised {
        ends,
        exit,
        timed_out,
        killed,
        stdout: out.finish(),
        stderr: err.finish(),
        duration: ended.saturating_duration_since(started),
    }
}

/// Waits for the child to exit until `until` (`None`: no deadline), driving the IO future
/// meanwhile. `None` when the deadline passed first.
async fn wait_driving<T, F: Future<Output = T>>(
    child: &mut Proc,
    io: &mut Pin<&mut F>,
    io_done: &mut Option<T>,
    until: Option<Instant>,
) -> Option<io::Result<ExitStatus>> {
    let deadline = async {
        match until {
            Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
            None => std::future::pending().await,
        }
    };
    let mut deadline = std::pin::pin!(deadline);
    loop {
        tokio::select! {
            biased;
            st = child.wait() => return Some(st),
            ends = io.as_mut(), if io_done.is_none() => *io_done = Some(ends),
            () = deadline.as_mut() => return None,
        }
    }
}

pub(crate) fn exit_info(st: ExitStatus) -> ExitInfo {
    match (st.code(), st.signal()) {
        (Some(c), _) => ExitInfo::Exited(c),
        (None, Some(s)) => ExitInfo::Signaled(s),
        (None, None) => ExitInfo::Exited(-1),
    }
}

async fn feed<W: AsyncWrite + Unpin>(w: Option<W>, bytes: &[u8]) {
    if let Some(mut w) = w {
        // EPIPE (the hook never reads stdin, or exited) is not an error of the run.
        let _ = w.write_all(bytes).await;
    }
}

/// Reads the stream into `sink` until end-of-file; returns the pipe end, closed by the caller
/// (after the verdict, for a clean run).
async fn pump<R: AsyncRead + Unpin>(r: Option<R>, sink: &mut HeadTail) -> Option<R> {
    let mut r = r?;
    // On the heap: two 8 KiB arrays would make every run's future 18 KiB, copied whenever it
    // is moved (into `block_on`'s box, into a joined set). Taken from the buffers earlier runs
    // gave back: a new one is zeroed (`calloc`, 8 KiB written) for a read that fills a few
    // bytes; a kept one only ever has its first `n` bytes read after a read of `n`.
    let mut buf = ReadBuffer::take();
    loop {
        match r.read(&mut buf.0).await {
            Ok(0) => return Some(r),
            Ok(n) => sink.push(buf.0.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Some(r),
        }
    }
}

/// An output pump's read buffer, given back to [`READ_BUFFERS`] when dropped.
struct ReadBuffer(Box<[u8]>);

/// Read buffers of finished pumps, for the next runs' pumps.
static READ_BUFFERS: std::sync::Mutex<Vec<Box<[u8]>>> = std::sync::Mutex::new(Vec::new());

/// How many read buffers are kept: a run's two pumps, for a few runs at once.
const READ_BUFFERS_KEPT: usize = 8;

impl ReadBuffer {
    fn take() -> ReadBuffer {
        let kept = READ_BUFFERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        ReadBuffer(kept.unwrap_or_else(|| vec![0u8; 8192].into_boxed_slice()))
    }
}

impl Drop for ReadBuffer {
    fn drop(&mut self) {
        let mut kept = READ_BUFFERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() < READ_BUFFERS_KEPT {
            kept.push(std::mem::take(&mut self.0));
        }
    }
}

#[cfg(test)]
mod tests;
