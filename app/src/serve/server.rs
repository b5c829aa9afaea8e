//! The server's moving parts: the reader (which also dispatches, answers fires that match no
//! hook and starts the others; a task on the runtime's thread for a pipe or a socket, else a
//! thread), the runtime actor, the shared stdout sink with its writer thread, and the
//! notification forwarder.

use std::{
    collections::HashMap,
    future::Future,
    io::{self, BufRead, BufReader, BufWriter, Write},
    panic::AssertUnwindSafe,
    pin::Pin,
    sync::{
        Arc, Condvar, Mutex, PoisonError,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
        mpsc as std_mpsc,
    },
    task::{Context, Poll, Waker},
    thread,
    time::Duration,
};

use hooks_registry::RegistryEvent;
use hooks_schema::{Decision, Envelope};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::{
    sync::mpsc,
    task::{JoinError, JoinSet},
    time::Instant,
};

use super::{
    ServeError, ServeInput, ServeLog, ServeOptions, ServeOutput,
    input::{NowaitInput, NowaitRead, readable_now},
    lines::{Line, LineReader},
    protocol::{
        ErrorCode, PROTOCOL_VERSION, Request, error_message, hello, notification,
        parse_request_with, response,
    },
    render,
    spin::next_window,
};
use crate::runtime::{FireHandle, FirePlan, HookRuntime, RuntimeEffect, RuntimeEvent, WindowId};

/// A message the producing thread has serialized, newline included.
fn encode(message: &impl Serialize) -> Option<Vec<u8>> {
    match serde_json::to_vec(message) {
        Ok(mut bytes) => {
            bytes.push(b'\n');
            Some(bytes)
        }
        // The protocol's own messages always serialize (every map has string keys); were
        // one not to, it is dropped rather than half written.
        Err(_) => None,
    }
}

/// stdout: one lock, taken for whole messages only, so lines never interleave; `None` once
/// closed (the reader thread may outlive the server, blocked on stdin, and must not keep
/// stdout open).
struct Sink {
    /// Where the server's own messages go.
    log: ServeLog,
    out: Mutex<Option<Output>>,
    failed: AtomicBool,
    /// Messages queued for the writer thread and not yet written: while there are any, a
    /// runtime task queues its message behind them instead of writing it itself, so messages
    /// from the runtime's side keep their order.
    queued: AtomicUsize,
    actor: mpsc::UnboundedSender<ActorMsg>,
    grace: Duration,
    /// Told whenever the writer thread has written what was queued (and when stdout fails):
    /// a reader on the runtime's thread, which must not block on stdout, waits for it before
    /// reading further while its answers are queued (back-pressure, as a blocked write is for
    /// the reader thread).
    drained: tokio::sync::Notify,
}

/// What the sink's lock guards.
struct Output {
    out: BufWriter<Box<dyn ServeOutput>>,
    /// The end of a message a runtime task began to write and the pipe had no room for: the
    /// next write, whoever makes it, writes it first. With the place of the request it answers.
    rest: Option<(Vec<u8>, Option<Permit>)>,
    /// Whether the output writes without waiting (cleared once it says it cannot).
    direct: bool,
}

impl Output {
    fn new(out: Box<dyn ServeOutput>) -> Output {
        Output { out: BufWriter::with_capacity(64 * 1024, out), rest: None, direct: true }
    }
}

impl Sink {
    /// Writes what a runtime task began (if anything), then `batch`, and flushes; on a broken
    /// stdout, marks the sink failed and asks the actor to shut down (once). Blocks while the
    /// client does not read: only the reader and writer threads call it.
    fn write(&self, batch: &[Vec<u8>]) {
        let mut guard = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(state) = guard.as_mut() else { return };
        let result = (|| -> io::Result<()> {
            if let Some((rest, _permit)) = state.rest.take() {
                state.out.write_all(&rest)?;
            }
            for bytes in batch {
                state.out.write_all(bytes)?;
            }
            state.out.flush()
        })();
        if let Err(e) = result {
            self.broke(guard, &e);
        }
    }

    /// Closes a failed stdout and tells the actor to shut down (once).
    fn broke(&self, mut guard: std::sync::MutexGuard<'_, Option<Output>>, e: &io::Error) {
        *guard = None;
        drop(guard);
        self.drained.notify_waiters();
        if !self.failed.swap(true, Ordering::SeqCst) {
            self.log.say(&format!("hooks serve: cannot write to stdout: {e}"));
            let _ = self.actor.send(ActorMsg::Shutdown { id: None, grace: self.grace });
        }
    }

    /// Writes one message from the calling thread (the reader thread, never a tokio worker).
    fn send_direct(&self, message: &impl Serialize) {
        if let Some(bytes) = encode(message) {
            self.write(&[bytes]);
        }
    }

    /// Writes one message from a runtime task without ever waiting for the client: written
    /// here when nothing is queued before it, stdout is free and has room; what does not fit
    /// goes to the writer thread through `queue` (all of it, or the end of a message begun
    /// here). `permit` is given back once the message is written.
    fn deliver(&self, bytes: Vec<u8>, permit: Option<Permit>, queue: &std_mpsc::Sender<Out>) {
        if self.queued.load(Ordering::SeqCst) == 0 {
            // `try_lock`: the writer or the reader thread holds the lock while it writes, and
            // may be blocked on a client that does not read.
            let guard = match self.out.try_lock() {
                Ok(guard) => Some(guard),
                Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => None,
            };
            if let Some(mut guard) = guard {
                let Some(state) = guard.as_mut() else { return };
                // Checked again under the lock: a message queued meanwhile goes first.
                if state.direct && state.rest.is_none() && self.queued.load(Ordering::SeqCst) == 0 {
                    match state.out.get_mut().write_now(&bytes) {
                        Ok(n) if n == bytes.len() => return,
                        Ok(0) => {}
                        Ok(n) => {
                            // Begun: the end is written before anything else, by the writer
                            // thread unless the reader thread writes first.
                            state.rest = Some((bytes[n..].to_vec(), permit));
                            self.queued.fetch_add(1, Ordering::SeqCst);
                            drop(guard);
                            let _ = queue.send(Out::Rest);
                            return;
                        }
                        Err(e) if e.kind() == io::ErrorKind::Unsupported => state.direct = false,
                        Err(e) => return self.broke(guard, &e),
                    }
                }
            }
        }
        self.queued.fetch_add(1, Ordering::SeqCst);
        let _ = queue.send(Out::Message(bytes, permit));
    }

    /// Flushes and drops stdout, so the client sees the end of output.
    fn close(&self) {
        let mut guard = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(mut state) = guard.take() {
            if let Some((rest, _permit)) = state.rest.take() {
                let _ = state.out.write_all(&rest);
            }
            let _ = state.out.flush();
        }
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::SeqCst)
    }

    /// Waits until nothing is queued for the writer thread (or stdout failed).
    async fn wait_drained(&self) {
        loop {
            let drained = self.drained.notified();
            tokio::pin!(drained);
            drained.as_mut().enable();
            if self.queued.load(Ordering::SeqCst) == 0 || self.failed() {
                return;
            }
            drained.await;
        }
    }
}

/// What the writer thread receives: a message, with the in-flight place of the request it
/// answers (given back once it is written), or the end. Every item but `Close` is counted in
/// [`Sink::queued`] until written.
enum Out {
    Message(Vec<u8>, Option<Permit>),
    /// The latest snapshot change is waiting in [`LatestChange`].
    SnapshotChanged,
    /// A runtime task began a message the pipe had no room for: its end is in [`Output::rest`].
    Rest,
    Close,
}

/// The latest snapshot change not yet written, `(generation, revision)`: the forwarder
/// replaces it and queues one [`Out::SnapshotChanged`] only when none is waiting, the writer
/// takes it. So a client that reads slowly gets the latest change once, not every one.
type LatestChange = Arc<Mutex<Option<(u64, u64)>>>;

/// Bounds the requests handed to the runtime whose answers are not yet written, so a client
/// that sends without reading meets back-pressure (the reader stops reading stdin) instead
/// of growing the server's memory.
struct Permits {
    max: usize,
    used: Mutex<usize>,
    freed: Condvar,
    /// The same for a reader on the runtime's thread ([`Permits::acquire_async`]).
    freed_async: tokio::sync::Notify,
    closed: AtomicBool,
}

/// One place in [`Permits`]; given back when dropped.
struct Permit(Arc<Permits>);

impl Permits {
    fn new(max: usize) -> Arc<Permits> {
        Arc::new(Permits {
            max: max.max(1),
            used: Mutex::new(0),
            freed: Condvar::new(),
            freed_async: tokio::sync::Notify::new(),
            closed: AtomicBool::new(false),
        })
    }

    /// A place if one is free now; `Err(())` once the server has closed.
    fn try_acquire(self: &Arc<Permits>) -> Result<Option<Permit>, ()> {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        if self.closed.load(Ordering::SeqCst) {
            return Err(());
        }
        if *used < self.max {
            *used += 1;
            return Ok(Some(Permit(Arc::clone(self))));
        }
        Ok(None)
    }

    /// [`Permits::acquire`] for a task: waits without blocking the thread.
    async fn acquire_async(self: &Arc<Permits>) -> Option<Permit> {
        loop {
            let freed = self.freed_async.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            match self.try_acquire() {
                Ok(Some(permit)) => return Some(permit),
                Ok(None) => freed.await,
                Err(()) => return None,
            }
        }
    }

    /// Waits for a place; `None` once the server has closed (nothing will be answered).
    fn acquire(self: &Arc<Permits>) -> Option<Permit> {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if self.closed.load(Ordering::SeqCst) {
                return None;
            }
            if *used < self.max {
                *used += 1;
                return Some(Permit(Arc::clone(self)));
            }
            // Woken when a place is given back or the server closes; the timeout only
            // re-checks `closed` should a wake-up be missed.
            used = self
                .freed
                .wait_timeout(used, Duration::from_millis(100))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let _guard = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        self.freed.notify_all();
        self.freed_async.notify_waiters();
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut used = self.0.used.lock().unwrap_or_else(PoisonError::into_inner);
        *used = used.saturating_sub(1);
        self.0.freed.notify_one();
        drop(used);
        self.0.freed_async.notify_waiters();
    }
}

/// The sending side for tokio tasks: a worker never blocks on stdout. It writes a message
/// itself when stdout has room ([`Sink::deliver`]); otherwise the writer thread does (a client
/// that stops reading stalls that thread, not the runtime).
#[derive(Clone)]
struct Outbound {
    sink: Arc<Sink>,
    queue: std_mpsc::Sender<Out>,
}

impl Outbound {
    fn new(sink: Arc<Sink>, queue: std_mpsc::Sender<Out>) -> Outbound {
        Outbound { sink, queue }
    }

    /// Sends a message that answers no counted request (a notification, an error about a
    /// request whose task is gone).
    fn send(&self, message: &impl Serialize) {
        if let Some(bytes) = encode(message) {
            self.sink.deliver(bytes, None, &self.queue);
        }
    }

    /// Tells the writer thread the latest snapshot change is waiting.
    fn snapshot_changed(&self) {
        self.sink.queued.fetch_add(1, Ordering::SeqCst);
        let _ = self.queue.send(Out::SnapshotChanged);
    }

    fn close(&self) {
        let _ = self.queue.send(Out::Close);
    }
}

/// The one answer a request handed to the actor owes the client, holding the request's
/// in-flight place until the answer is written; dropped unsent (a cancelled or panicked
/// task), it gives the place back at once.
struct Reply {
    out: Outbound,
    permit: Permit,
}

impl Reply {
    fn send(self, message: &impl Serialize) {
        if let Some(bytes) = encode(message) {
            self.send_bytes(bytes);
        }
    }

    fn send_bytes(self, bytes: Vec<u8>) {
        self.out.sink.deliver(bytes, Some(self.permit), &self.out.queue);
    }
}

/// A read request whose first poll (on the reader thread) did not finish; it yields its
/// encoded answer (`None` when it could not be serialized, which `encode` logged).
type Pending = Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>;

/// A fire the reader thread started and whose first poll did not finish, waiting for the
/// event it waits on (its hook's pipes or pid file descriptor, its timeout) before the
/// runtime's task takes it: it is the waker of its own first poll, so nothing on the runtime's
/// side wakes up while the hook runs. Woken, it hands itself to the actor as a
/// [`ActorMsg::Continue`]; at shutdown the actor takes the ones still waiting
/// ([`adopt_parked`]).
struct ParkedFire {
    state: Mutex<Parked>,
    actor: mpsc::UnboundedSender<ActorMsg>,
}

enum Parked {
    /// The reader thread is polling it (or waiting for its in-flight place).
    Polling,
    /// Woken while the reader thread was still polling it.
    Woken,
    /// Waiting for its event.
    Waiting { id: Value, fut: Pending, permit: Permit },
    /// With the actor.
    HandedOver,
}

impl ParkedFire {
    /// Hands the waiting fire to the actor (once), under the lock, so that whoever finds it
    /// handed over also finds its message already in the actor's queue.
    fn hand_over(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match std::mem::replace(&mut *state, Parked::HandedOver) {
            Parked::Waiting { id, fut, permit } => {
                let _ = self.actor.send(ActorMsg::Continue { id, fut, permit });
            }
            Parked::Polling | Parked::Woken => *state = Parked::Woken,
            Parked::HandedOver => {}
        }
    }

    /// Whether the actor has it (or will find it in its queue).
    fn handed_over(&self) -> bool {
        matches!(*self.state.lock().unwrap_or_else(PoisonError::into_inner), Parked::HandedOver)
    }
}

impl std::task::Wake for ParkedFire {
    fn wake(self: Arc<Self>) {
        self.hand_over();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.hand_over();
    }
}

/// The fires the reader thread parked, for the actor's shutdown.
type ParkedFires = Arc<Mutex<Vec<Arc<ParkedFire>>>>;

/// At shutdown: every parked fire still waiting becomes a task of the actor's, as if it had
/// been handed over (so the drain waits for it and answers it), and so do the hand-overs
/// already queued.
fn adopt_parked(
    parked: &ParkedFires,
    rx: &mut mpsc::UnboundedReceiver<ActorMsg>,
    inflight: &mut InFlight,
    out: &Outbound,
) {
    let list = std::mem::take(&mut *parked.lock().unwrap_or_else(PoisonError::into_inner));
    for p in list {
        let mut state = p.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Parked::Waiting { id, fut, permit } =
            std::mem::replace(&mut *state, Parked::HandedOver)
        {
            inflight.spawn_continue(id, fut, permit, out);
        }
    }
    while let Ok(msg) = rx.try_recv() {
        if let ActorMsg::Continue { id, fut, permit } = msg {
            inflight.spawn_continue(id, fut, permit, out);
        }
    }
}

/// What the reader thread (and a failing stdout) hand the runtime actor, in arrival order.
enum ActorMsg {
    Request {
        id: Value,
        req: Request,
        permit: Permit,
    },
    Continue {
        id: Value,
        fut: Pending,
        permit: Permit,
    },
    Shutdown {
        id: Option<Value>,
        grace: Duration,
    },
    /// The registry published: look for advisories a reload brought. Coalesced: the
    /// forwarder sends one while none is waiting (the flag in the message).
    Refresh(Arc<AtomicBool>),
}

/// Whether a request changes the runtime's state (and so is counted for the ordering point).
fn changes_state(req: &Request) -> bool {
    matches!(
        req,
        Request::AddRoot { .. }
            | Request::RemoveRoot { .. }
            | Request::SetPosture { .. }
            | Request::CloseWindow { .. }
            | Request::LoadExplicitSources
            | Request::ExchangeAppended { .. }
    )
}

/// Serves until `shutdown` or the end of input, then drains.
pub(super) async fn serve<R, W>(
    runtime: HookRuntime,
    input: R,
    output: W,
    options: ServeOptions,
) -> Result<(), ServeError>
where
    R: ServeInput,
    W: ServeOutput,
{
    let (actor_tx, actor_rx) = mpsc::unbounded_channel();
    let sink = Arc::new(Sink {
        log: options.log.clone(),
        out: Mutex::new(Some(Output::new(Box::new(output)))),
        failed: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        actor: actor_tx.clone(),
        grace: options.default_grace,
        drained: tokio::sync::Notify::new(),
    });
    let containment = super::render::containment(&runtime.fire_handle().containment());
    sink.send_direct(&notification("hello", hello(options.max_line_bytes, containment)));
    let (out_tx, out_rx) = std_mpsc::channel::<Out>();
    let out = Outbound::new(Arc::clone(&sink), out_tx);
    let latest = LatestChange::default();
    let writer = {
        let (sink, latest) = (Arc::clone(&sink), Arc::clone(&latest));
        thread::Builder::new()
            .name("hooks-serve-writer".into())
            .spawn(move || writer_loop(&out_rx, &sink, &latest))
            .map_err(ServeError::Start)?
    };
    let stop = Arc::new(AtomicBool::new(false));
    spawn_forwarder(runtime.subscribe(), out.clone(), latest, Arc::clone(&stop), actor_tx.clone())
        .map_err(ServeError::Start)?;
    let applied = Arc::new(AtomicU64::new(0));
    let permits = Permits::new(options.max_in_flight);
    let parked = ParkedFires::default();
    let mut reader = Reader {
        permits: Arc::clone(&permits),
        sink: Arc::clone(&sink),
        actor: actor_tx,
        fire: runtime.fire_handle(),
        rt: tokio::runtime::Handle::current(),
        parked: Arc::clone(&parked),
        applied: Arc::clone(&applied),
        submitted: 0,
        closed: false,
        options: options.clone(),
        on_runtime: None,
        spare: None,
    };
    let actor =
        tokio::spawn(actor_loop(runtime, actor_rx, out.clone(), options.clone(), applied, parked));
    // A pipe or a socket is read by the runtime's thread itself (see `super::input`); anything
    // else by a reader thread.
    let reader_task = match NowaitInput::new(input) {
        Ok(input) => {
            reader.on_runtime = Some(out.clone());
            Some(tokio::spawn(reader.run_on_runtime(input)))
        }
        Err(input) => {
            let input = BufReader::with_capacity(READ_BUFFER, input);
            thread::Builder::new()
                .name("hooks-serve-reader".into())
                .spawn(move || reader.run(input))
                .map_err(ServeError::Start)?;
            None
        }
    };
    let actor_result = actor.await;
    if let Some(task) = reader_task {
        task.abort();
    }
    permits.close();
    stop.store(true, Ordering::Relaxed);
    out.close();
    drop(out);
    let _ = tokio::task::spawn_blocking(move || writer.join()).await;
    sink.close();
    actor_result.map_err(|e| ServeError::Task(e.to_string()))
}

/// The reader: splits stdin into bounded lines, parses them, answers protocol errors,
/// `hello`, `ping` and fires that match no hook itself, starts the other fires itself, and
/// hands the rest (and the unfinished fires) to the actor. It runs as a task on the runtime's
/// thread when the input is a pipe or a socket ([`Reader::run_on_runtime`]), else on a thread
/// of its own ([`Reader::run`]).
struct Reader {
    /// Places for requests handed to the actor.
    permits: Arc<Permits>,
    sink: Arc<Sink>,
    actor: mpsc::UnboundedSender<ActorMsg>,
    fire: FireHandle,
    rt: tokio::runtime::Handle,
    /// The fires this thread parked (see [`ParkedFire`]).
    parked: ParkedFires,
    /// State changes the actor has applied (it publishes; this thread reads).
    applied: Arc<AtomicU64>,
    /// State changes this thread has handed the actor.
    submitted: u64,
    /// The server closed while this thread waited for an in-flight place: stop reading.
    closed: bool,
    options: ServeOptions,
    /// On the runtime's thread: its answers go out as a task's do, never blocking on stdout.
    on_runtime: Option<Outbound>,
    /// On the runtime's thread: the in-flight place taken before a line is read, for the
    /// request it may hold (a place is waited for without blocking the thread).
    spare: Option<Permit>,
}

/// What the reader does after a line.
enum Step {
    Next,
    /// Stop reading and tell the actor (`shutdown`, the end of input, a read error).
    Stop(Option<ActorMsg>),
    /// Stop reading; the actor knows (stdout broke, the server closed).
    Quit,
}

/// The reader's buffer for stdin.
const READ_BUFFER: usize = 64 * 1024;

impl Reader {
    fn run<R: BufRead>(mut self, input: R) {
        let mut lines = LineReader::new(input, self.options.max_line_bytes);
        let shutdown = loop {
            match self.step(lines.next_line()) {
                Step::Next => {}
                Step::Stop(msg) => break msg,
                Step::Quit => return,
            }
        };
        self.stop(shutdown);
    }

    /// [`Reader::run`] as a task on the runtime's thread: stdin is watched by the runtime's
    /// reactor and read without waiting, so the thread that starts a fire's hooks is the one
    /// their end wakes (`super::input`).
    async fn run_on_runtime<R: ServeInput>(mut self, input: NowaitInput<R>) {
        let NowaitInput { fd, max, _input } = input;
        let mut window = max;
        let read = NowaitRead { src: &fd, fionread: false };
        let mut lines = LineReader::new(
            BufReader::with_capacity(READ_BUFFER, read),
            self.options.max_line_bytes,
        );
        let shutdown = loop {
            // Back-pressure, as a blocked write and a blocked wait for a place are for the
            // reader thread: answers that stdout had no room for are written first, and the
            // place a request may need is taken before it is read.
            if self.sink.queued.load(Ordering::SeqCst) > 0 {
                self.sink.wait_drained().await;
            }
            if self.spare.is_none() {
                match self.permits.acquire_async().await {
                    Some(permit) => self.spare = Some(permit),
                    None => return,
                }
            }
            if self.sink.failed() {
                return;
            }
            let next = match lines.next_line() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let waited = std::time::Instant::now();
                    // Poll briefly before sleeping (`PolledInput`); yielding lets the runtime
                    // look at its other events (a hook's end) between polls.
                    let mut seen = false;
                    if !window.is_zero() {
                        let deadline = waited + window;
                        loop {
                            seen = readable_now(std::os::fd::AsFd::as_fd(&fd));
                            if seen || std::time::Instant::now() >= deadline {
                                break;
                            }
                            tokio::task::yield_now().await;
                        }
                    }
                    let next = loop {
                        // Polling saw the request: read it now rather than through a round
                        // of the reactor.
                        if std::mem::take(&mut seen) {
                            match lines.next_line() {
                                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                                next => break next,
                            }
                        }
                        let mut guard = match fd.readable().await {
                            Ok(guard) => guard,
                            Err(e) => break Err(e),
                        };
                        if let Ok(next) = guard.try_io(|_| lines.next_line()) {
                            break next;
                        }
                    };
                    window = next_window(window, max, waited.elapsed());
                    next
                }
                next => next,
            };
            match self.step(next) {
                Step::Next => {}
                Step::Stop(msg) => break msg,
                Step::Quit => return,
            }
            // A burst of requests lets the runtime's other tasks run now and then.
            tokio::task::consume_budget().await;
        };
        self.stop(shutdown);
    }

    /// Answers or hands over one line read (or the end of input, or a read error).
    fn step(&mut self, next: io::Result<Option<Line>>) -> Step {
        let (bytes, truncated) = match next {
            Ok(Some(Line::Complete(b))) => (b, false),
            Ok(Some(Line::Unterminated(b))) => (b, true),
            Ok(Some(Line::TooLong { len })) => {
                self.say(&error_message(
                    None,
                    ErrorCode::LineTooLong,
                    &format!(
                        "request line of {len} bytes is longer than the limit of {} bytes; it was skipped",
                        self.options.max_line_bytes
                    ),
                ));
                return if self.sink.failed() { Step::Quit } else { Step::Next };
            }
            Ok(None) => return Step::Stop(None),
            Err(e) => {
                self.sink.log.say(&format!("hooks serve: cannot read stdin: {e}"));
                return Step::Stop(None);
            }
        };
        if self.sink.failed() {
            // stdout broke; the actor was told to shut down.
            return Step::Quit;
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Step::Next;
        }
        if let Some(s) = self.route(&bytes, truncated) {
            return Step::Stop(Some(s));
        }
        if self.sink.failed() || self.closed { Step::Quit } else { Step::Next }
    }

    /// Tells the actor reading has ended: `shutdown`'s message, or the end of input's.
    fn stop(self, shutdown: Option<ActorMsg>) {
        let msg =
            shutdown.unwrap_or(ActorMsg::Shutdown { id: None, grace: self.options.default_grace });
        let _ = self.actor.send(msg);
    }

    /// Writes one of this reader's own answers: from the reader thread directly (a client
    /// that does not read stalls reading, which is back-pressure), from the runtime's thread
    /// as a task does (never waiting; what does not fit goes to the writer thread).
    fn answer(&self, bytes: Vec<u8>) {
        match &self.on_runtime {
            Some(out) => self.sink.deliver(bytes, None, &out.queue),
            None => self.sink.write(&[bytes]),
        }
    }

    fn say(&self, message: &impl Serialize) {
        if let Some(bytes) = encode(message) {
            self.answer(bytes);
        }
    }

    /// An in-flight place: the one taken before the line was read, or (reader thread) one
    /// waited for now; `None` once the server has closed.
    fn permit(&mut self) -> Option<Permit> {
        match self.spare.take() {
            Some(permit) => Some(permit),
            None if self.on_runtime.is_some() => None,
            None => self.permits.acquire(),
        }
    }

    /// Parses one line and answers it or hands it to the actor; the shutdown message after
    /// `shutdown`.
    fn route(&mut self, bytes: &[u8], truncated: bool) -> Option<ActorMsg> {
        match parse_request_with(bytes, self.fire.formats()) {
            Err(mut e) => {
                if truncated {
                    e.message = format!("stdin closed in the middle of a request: {}", e.message);
                }
                self.say(&e.to_message());
            }
            Ok((id, Request::Hello { protocol_version })) => {
                if protocol_version == PROTOCOL_VERSION {
                    self.say(&response(
                        id,
                        hello(
                            self.options.max_line_bytes,
                            super::render::containment(&self.fire.containment()),
                        ),
                    ));
                } else {
                    self.say(&error_message(
                        Some(id),
                        ErrorCode::UnsupportedVersion,
                        &format!(
                            "protocol version {protocol_version} is not supported; this server speaks version {PROTOCOL_VERSION}"
                        ),
                    ));
                }
            }
            Ok((id, Request::Ping)) => self.say(&response(id, json!({}))),
            Ok((id, Request::Shutdown { grace })) => {
                let grace = grace.unwrap_or(self.options.default_grace);
                return Some(ActorMsg::Shutdown { id: Some(id), grace });
            }
            Ok((id, Request::Fire { envelope, host_decision })) => {
                match self.current_plan(&envelope) {
                    Some(plan) => self.fire_here(id, plan, envelope, host_decision),
                    None => {
                        let req = Request::Fire { envelope, host_decision };
                        self.hand_over(id, req);
                    }
                }
            }
            Ok((id, req)) => {
                self.hand_over(id, req);
            }
        }
        None
    }

    /// Hands a request to the actor once it has an in-flight place (waiting for one while the
    /// client has not read enough answers); if the server closed meanwhile, stops reading.
    fn hand_over(&mut self, id: Value, req: Request) {
        let Some(permit) = self.permit() else {
            self.closed = true;
            return;
        };
        if changes_state(&req) {
            self.submitted += 1;
        }
        let _ = self.actor.send(ActorMsg::Request { id, req, permit });
    }

    /// The plan of a fire that can start on this thread: every state change sent before it has
    /// been applied, so the snapshot it takes is the one the queue would give it.
    fn current_plan(&self, envelope: &Envelope) -> Option<FirePlan> {
        if self.applied.load(Ordering::Acquire) != self.submitted {
            return None;
        }
        Some(self.fire.plan(envelope))
    }

    /// Starts a fire on this thread with one poll: a fire that matches no hook finishes there
    /// and is answered from here; a fire with hooks has started its first processes when the
    /// poll returns (the spawn does not wait for a thread to wake up) and waits parked (see
    /// [`ParkedFire`]) until what it waits on happens; the actor then runs the rest as a task
    /// of its own, which polls it again with its own waker (every future it is made of checks
    /// its state when polled, so nothing that happened in between is lost).
    fn fire_here(
        &mut self,
        id: Value,
        plan: FirePlan,
        envelope: Box<Envelope>,
        host_decision: Option<Decision>,
    ) {
        // A fire that starts processes holds its in-flight place from the start, as when it
        // is handed over; an idle one needs a place only should its poll not finish it.
        let mut permit = None;
        if !plan.is_idle() {
            match self.permit() {
                Some(p) => permit = Some(p),
                None => {
                    self.closed = true;
                    return;
                }
            }
        }
        let fire = self.fire.clone();
        let rid = id.clone();
        let mut fut: Pending =
            Box::pin(async move { fire_answer(&fire, plan, &envelope, host_decision, rid).await });
        // A panic is answered as in a task of its own, and this thread keeps reading.
        let parked =
            Arc::new(ParkedFire { state: Mutex::new(Parked::Polling), actor: self.actor.clone() });
        let waker = Waker::from(Arc::clone(&parked));
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _context = self.rt.enter();
            fut.as_mut().poll(&mut Context::from_waker(&waker))
        }));
        match polled {
            Ok(Poll::Ready(bytes)) => {
                if let Some(bytes) = bytes {
                    self.answer(bytes);
                }
            }
            Ok(Poll::Pending) => match permit.or_else(|| self.permit()) {
                Some(permit) => self.park(&parked, id, fut, permit),
                None => self.closed = true,
            },
            Err(_) => {
                self.sink.log.say("hooks serve: a request panicked");
                self.say(&error_message(
                    Some(id),
                    ErrorCode::RuntimeError,
                    "the request failed inside the server",
                ));
            }
        }
    }
}

impl Reader {
    /// Parks a started fire until it is woken, or hands it over at once if it already was.
    fn park(&self, parked: &Arc<ParkedFire>, id: Value, fut: Pending, permit: Permit) {
        let mut list = self.parked.lock().unwrap_or_else(PoisonError::into_inner);
        // The ones handed over since are the actor's.
        list.retain(|p| !p.handed_over());
        let mut state = parked.state.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(*state, Parked::Woken) {
            *state = Parked::HandedOver;
            let _ = self.actor.send(ActorMsg::Continue { id, fut, permit });
        } else {
            *state = Parked::Waiting { id, fut, permit };
            drop(state);
            list.push(Arc::clone(parked));
        }
    }
}

fn writer_loop(rx: &std_mpsc::Receiver<Out>, sink: &Sink, latest: &LatestChange) {
    let mut batch = Vec::new();
    // The places of the requests the batch answers, given back once it is written.
    let mut answered = Vec::new();
    while let Ok(first) = rx.recv() {
        let mut msg = first;
        // Items taken from the queue, counted off `Sink::queued` once written.
        let mut taken = 0;
        loop {
            match msg {
                Out::Message(bytes, permit) => {
                    batch.push(bytes);
                    answered.extend(permit);
                }
                Out::SnapshotChanged => {
                    let change = latest.lock().unwrap_or_else(PoisonError::into_inner).take();
                    if let Some((generation, revision)) = change
                        && let Some(bytes) = encode(&notification(
                            "snapshot_changed",
                            json!({ "generation": generation, "revision": revision }),
                        ))
                    {
                        batch.push(bytes);
                    }
                }
                // `Sink::write` writes a begun message's end first.
                Out::Rest => {}
                Out::Close => {
                    sink.write(&batch);
                    sink.queued.fetch_sub(taken, Ordering::SeqCst);
                    sink.drained.notify_waiters();
                    return;
                }
            }
            taken += 1;
            match rx.try_recv() {
                Ok(next) => msg = next,
                Err(_) => break,
            }
        }
        sink.write(&batch);
        sink.queued.fetch_sub(taken, Ordering::SeqCst);
        sink.drained.notify_waiters();
        batch.clear();
        answered.clear();
    }
}

fn spawn_forwarder(
    rx: std_mpsc::Receiver<RegistryEvent>,
    out: Outbound,
    latest: LatestChange,
    stop: Arc<AtomicBool>,
    actor: mpsc::UnboundedSender<ActorMsg>,
) -> io::Result<()> {
    let refresh = Arc::new(AtomicBool::new(false));
    thread::Builder::new().name("hooks-serve-events".into()).spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(RegistryEvent::SnapshotChanged { generation, revision }) => {
                    let change = (generation.get(), revision.get());
                    let waiting = latest
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .replace(change)
                        .is_some();
                    if !waiting {
                        out.snapshot_changed();
                    }
                    // The runtime's task owns the runtime: it decides what the new snapshot
                    // brings to say (a reload that created a dormant project file). One
                    // waiting refresh covers any number of snapshots.
                    if !refresh.swap(true, Ordering::AcqRel) {
                        let _ = actor.send(ActorMsg::Refresh(Arc::clone(&refresh)));
                    }
                }
                Err(std_mpsc::RecvTimeoutError::Timeout) => {}
                Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    })?;
    Ok(())
}

/// Requests running in tasks of their own, with their ids.
struct InFlight {
    tasks: JoinSet<()>,
    ids: HashMap<tokio::task::Id, Value>,
    log: ServeLog,
}

impl InFlight {
    fn spawn(&mut self, id: Value, fut: impl Future<Output = ()> + Send + 'static) {
        let handle = self.tasks.spawn(fut);
        self.ids.insert(handle.id(), id);
    }

    /// Runs a fire the reader thread started as a task of its own; it answers when done.
    fn spawn_continue(&mut self, id: Value, fut: Pending, permit: Permit, out: &Outbound) {
        let reply = Reply { out: out.clone(), permit };
        self.spawn(id, async move {
            if let Some(bytes) = fut.await {
                reply.send_bytes(bytes);
            }
        });
    }

    fn reap(&mut self, done: Result<(tokio::task::Id, ()), JoinError>, out: &Outbound) {
        match done {
            Ok((task, ())) => {
                self.ids.remove(&task);
            }
            Err(e) => {
                let id = self.ids.remove(&e.id());
                if e.is_panic() {
                    self.log.say("hooks serve: a request task panicked");
                    out.send(&error_message(
                        id,
                        ErrorCode::RuntimeError,
                        "the request failed inside the server",
                    ));
                }
            }
        }
    }
}

/// How far ahead the runtime's timer always has a deadline (see `actor_loop`).
const HORIZON: Duration = Duration::from_secs(1);

async fn actor_loop(
    mut runtime: HookRuntime,
    mut rx: mpsc::UnboundedReceiver<ActorMsg>,
    out: Outbound,
    options: ServeOptions,
    applied: Arc<AtomicU64>,
    parked: ParkedFires,
) {
    let fire = runtime.fire_handle();
    let mut inflight =
        InFlight { tasks: JoinSet::new(), ids: HashMap::new(), log: options.log.clone() };
    // What the runtime found while it was built (start-up).
    send_advisories(&mut runtime, &out, &options.log);
    // Keeps the timer driver's next wake-up at most a second away, so that a fire the reader
    // thread starts, whose timeout is later than that, does not wake the runtime's thread to
    // re-plan its sleep (one wake-up a second, against one per fire).
    let mut horizon = tokio::time::interval(HORIZON);
    horizon.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            Some(done) = inflight.tasks.join_next_with_id(), if !inflight.tasks.is_empty() => {
                inflight.reap(done, &out);
            }
            _ = horizon.tick() => {}
            msg = rx.recv() => match msg {
                Some(ActorMsg::Request { id, req, permit }) => {
                    let counted = changes_state(&req);
                    let reply = Reply { out: out.clone(), permit };
                    apply(&mut runtime, &fire, &mut inflight, reply, &options, id, req).await;
                    if counted {
                        // Published after the change is visible to the fire handle: the
                        // reader thread starts fires itself only once this catches up.
                        applied.fetch_add(1, Ordering::Release);
                        // A workspace change (a root, a window's posture) may bring some.
                        send_advisories(&mut runtime, &out, &options.log);
                    }
                }
                Some(ActorMsg::Refresh(waiting)) => {
                    waiting.store(false, Ordering::Release);
                    send_advisories(&mut runtime, &out, &options.log);
                }
                Some(ActorMsg::Continue { id, fut, permit }) => {
                    inflight.spawn_continue(id, fut, permit, &out);
                }
                Some(ActorMsg::Shutdown { id, grace }) => {
                    adopt_parked(&parked, &mut rx, &mut inflight, &out);
                    return shutdown(runtime, inflight, &out, id, grace).await;
                }
                None => {
                    adopt_parked(&parked, &mut rx, &mut inflight, &out);
                    return shutdown(runtime, inflight, &out, None, options.default_grace).await;
                }
            },
        }
    }
}

/// Sends the advisories the runtime has not handed out yet (Chrys's dormant project files,
/// same-id hooks across files) as one `advisories` notification, and logs each to stderr.
fn send_advisories(runtime: &mut HookRuntime, out: &Outbound, log: &ServeLog) {
    let fresh = runtime.new_advisories();
    if fresh.is_empty() {
        return;
    }
    for d in &fresh {
        log.say(&format!("hooks serve: {d}"));
    }
    let list: Vec<Value> = fresh.iter().map(render::diagnostic).collect();
    out.send(&notification("advisories", json!({ "advisories": list })));
}

async fn shutdown(
    runtime: HookRuntime,
    mut inflight: InFlight,
    out: &Outbound,
    id: Option<Value>,
    grace: Duration,
) {
    let deadline = Instant::now() + grace;
    while let Ok(Some(done)) =
        tokio::time::timeout_at(deadline, inflight.tasks.join_next_with_id()).await
    {
        inflight.reap(done, out);
    }
    let aborted = inflight.ids.len();
    inflight.tasks.abort_all();
    for (_, rid) in inflight.ids.drain() {
        out.send(&error_message(
            Some(rid),
            ErrorCode::ShuttingDown,
            "the server shut down before the request finished",
        ));
    }
    while inflight.tasks.join_next().await.is_some() {}
    let report = runtime.drain(deadline.saturating_duration_since(Instant::now())).await;
    let result = json!({ "drained": render::drain(&report), "aborted_requests": aborted });
    match id {
        Some(id) => out.send(&response(id, result)),
        None => inflight.log.say(&format!(
            "hooks serve: end of input; {} background hook(s) finished, {} cancelled, {aborted} request(s) aborted",
            report.finished.len(),
            report.cancelled.len()
        )),
    }
}

fn effect(e: &RuntimeEffect) -> Value {
    match e {
        RuntimeEffect::Ignored(reason) => json!({ "effect": "ignored", "reason": reason }),
        RuntimeEffect::RootAdded(_) => json!({ "effect": "added" }),
        RuntimeEffect::Applied => json!({ "effect": "applied" }),
    }
}

/// Fires `envelope` on `plan` and encodes the answer to request `id` (the reader thread's
/// fast path and the runtime's tasks answer fires the same way).
async fn fire_answer(
    fire: &FireHandle,
    plan: FirePlan,
    envelope: &Envelope,
    host_decision: Option<Decision>,
    id: Value,
) -> Option<Vec<u8>> {
    let report = fire.fire_planned(plan, envelope).await;
    let acted = host_decision.map(|h| fire.decide(h, &report));
    encode(&response(id, render::fire_report(&report, acted)))
}

/// Applies a window change and answers with its effect and the posture it leaves.
fn answer_window(runtime: &mut HookRuntime, event: RuntimeEvent, reply: Reply, id: Value) {
    match runtime.handle(event) {
        Ok(e) => {
            let mut v = effect(&e);
            v["posture"] = json!(runtime.command_execution_posture().as_str());
            reply.send(&response(id, v));
        }
        Err(e) => reply.send(&error_message(Some(id), ErrorCode::RuntimeError, &e.to_string())),
    }
}

async fn apply(
    runtime: &mut HookRuntime,
    fire: &FireHandle,
    inflight: &mut InFlight,
    reply: Reply,
    options: &ServeOptions,
    id: Value,
    req: Request,
) {
    let runtime_error = |id: Value, e: &dyn std::fmt::Display| {
        error_message(Some(id), ErrorCode::RuntimeError, &e.to_string())
    };
    match req {
        Request::AddRoot { root, origin } => {
            match runtime.handle(RuntimeEvent::RepositoryDetected { root, origin }) {
                Ok(RuntimeEffect::RootAdded(attach)) => {
                    let wait = options.attach_timeout;
                    inflight.spawn(id.clone(), async move {
                        match tokio::time::timeout(wait, attach).await {
                            Ok(Ok(root)) => reply.send(&response(
                                id,
                                json!({ "effect": "added", "root": render::path_text(root.as_path()), "watching": true }),
                            )),
                            Ok(Err(e)) => reply.send(&error_message(
                                Some(id),
                                ErrorCode::RuntimeError,
                                &format!("cannot add the root: {e}"),
                            )),
                            Err(_) => reply.send(&response(
                                id,
                                json!({ "effect": "added", "root": null, "watching": false }),
                            )),
                        }
                    });
                }
                Ok(e) => reply.send(&response(id, effect(&e))),
                Err(e) => reply.send(&runtime_error(id, &e)),
            }
        }
        Request::RemoveRoot { root } => {
            match runtime.handle(RuntimeEvent::RepositoryRemoved { root }) {
                Ok(e) => reply.send(&response(id, effect(&e))),
                Err(e) => reply.send(&runtime_error(id, &e)),
            }
        }
        Request::SetPosture { window, posture } => {
            let event = RuntimeEvent::WindowPosture { window: WindowId(window), posture };
            answer_window(runtime, event, reply, id);
        }
        Request::CloseWindow { window } => {
            answer_window(
                runtime,
                RuntimeEvent::WindowClosed { window: WindowId(window) },
                reply,
                id,
            );
        }
        Request::LoadExplicitSources => {
            let errors = runtime.load_explicit_sources();
            reply.send(&response(
                id,
                json!({
                    "ok": errors.is_empty(),
                    "errors": errors.iter().map(render::diagnostic).collect::<Vec<_>>(),
                }),
            ));
        }
        Request::ExchangeAppended { envelope } => {
            match runtime.exchange_appended(*envelope).await {
                Ok(Some((pin, report))) => reply.send(&response(
                    id,
                    json!({
                        "started": true,
                        "pin": render::pin(&pin),
                        "session_start": render::fire_report(&report, None),
                    }),
                )),
                Ok(None) => reply.send(&response(
                    id,
                    json!({
                        "started": false,
                        "pin": runtime.snapshot().pinned().as_ref().map(render::pin),
                        "session_start": null,
                    }),
                )),
                Err(e) => reply.send(&runtime_error(id, &e)),
            }
        }
        Request::Fire { envelope, host_decision } => {
            let fire = fire.clone();
            inflight.spawn(id.clone(), async move {
                let plan = fire.plan(&envelope);
                if let Some(bytes) = fire_answer(&fire, plan, &envelope, host_decision, id).await {
                    reply.send_bytes(bytes);
                }
            });
        }
        Request::CanWriteFiles { paths, cwd } => {
            // What the user's hooks read in this session's directory (F64), read before the
            // first answer for it.
            runtime.add_session_dir(&cwd);
            let fire = fire.clone();
            inflight.spawn(id.clone(), async move {
                let decision = fire.can_write_files(&paths, &cwd);
                reply.send(&response(id, render::guard(&decision)));
            });
        }
        Request::Snapshot { reveal } => {
            let fire = fire.clone();
            inflight.spawn(id.clone(), async move {
                reply.send(&response(id, render::snapshot(&fire.snapshot(), reveal)));
            });
        }
        Request::Hello { .. } | Request::Ping | Request::Shutdown { .. } => {
            // Answered by the reader thread; never sent here.
            reply.send(&error_message(
                Some(id),
                ErrorCode::InvalidRequest,
                "this request is answered by the reader thread",
            ));
        }
    }
}

#[cfg(test)]
mod tests;
