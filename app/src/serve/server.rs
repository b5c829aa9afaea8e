//! The server's moving parts: the reader thread, the dispatch loop, the runtime actor, the
//! writer thread and the notification forwarder.

use std::{
    collections::HashMap,
    future::Future,
    io::{self, BufRead, BufWriter, Write},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
        mpsc as std_mpsc,
    },
    thread,
    time::Duration,
};

use hooks_registry::RegistryEvent;
use serde_json::{Value, json};
use tokio::{
    sync::mpsc,
    task::{JoinError, JoinSet},
    time::Instant,
};

use super::{
    ServeOptions,
    lines::{Line, LineReader},
    protocol::{
        ErrorCode, PROTOCOL_VERSION, Request, error_message, hello, notification, parse_request,
        response,
    },
    render,
};
use crate::runtime::{FireHandle, HookRuntime, RuntimeEffect, RuntimeEvent, WindowId};

/// What the reader thread (and a failing writer) tell the dispatch loop.
enum Incoming {
    Line(Vec<u8>),
    TooLong(u64),
    Unterminated(Vec<u8>),
    Eof,
    ReadError(io::Error),
    OutputClosed,
}

/// What the writer thread receives.
enum Out {
    Message(Vec<u8>),
    Close,
}

/// The sending side of the one writer: every message goes through it, whole, one per line.
#[derive(Clone)]
struct Outbound(std_mpsc::Sender<Out>);

impl Outbound {
    fn send(&self, message: &Value) {
        match serde_json::to_vec(message) {
            Ok(mut bytes) => {
                bytes.push(b'\n');
                let _ = self.0.send(Out::Message(bytes));
            }
            Err(e) => eprintln!("hooks serve: cannot serialize a message: {e}"),
        }
    }

    fn close(&self) {
        let _ = self.0.send(Out::Close);
    }
}

/// What the dispatch loop hands the runtime actor, in arrival order.
enum ActorMsg {
    Request { id: Value, req: Request },
    Shutdown { id: Option<Value>, grace: Duration },
}

/// Serves until `shutdown` or the end of input, then drains.
pub(super) async fn serve<R, W>(
    runtime: HookRuntime,
    input: R,
    output: W,
    options: ServeOptions,
) -> anyhow::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (in_tx, mut in_rx) = mpsc::channel::<Incoming>(256);
    let (out_tx, out_rx) = std_mpsc::channel::<Out>();
    let out = Outbound(out_tx);
    let writer = {
        let failed = in_tx.clone();
        thread::Builder::new()
            .name("hooks-serve-writer".into())
            .spawn(move || writer_loop(out_rx, output, &failed))?
    };
    {
        let tx = in_tx.clone();
        let cap = options.max_line_bytes;
        thread::Builder::new()
            .name("hooks-serve-reader".into())
            .spawn(move || reader_loop(input, cap, &tx))?;
    }
    drop(in_tx);
    out.send(&notification("hello", hello(options.max_line_bytes)));
    let stop = Arc::new(AtomicBool::new(false));
    spawn_forwarder(runtime.subscribe(), out.clone(), Arc::clone(&stop))?;

    let (actor_tx, actor_rx) = mpsc::unbounded_channel();
    let actor = tokio::spawn(actor_loop(runtime, actor_rx, out.clone(), options.clone()));
    let mut shutdown_sent = false;
    while let Some(msg) = in_rx.recv().await {
        let (bytes, truncated) = match msg {
            Incoming::Eof | Incoming::OutputClosed => break,
            Incoming::ReadError(e) => {
                eprintln!("hooks serve: cannot read stdin: {e}");
                break;
            }
            Incoming::TooLong(len) => {
                out.send(&error_message(
                    None,
                    ErrorCode::LineTooLong,
                    &format!(
                        "request line of {len} bytes is longer than the limit of {} bytes; it was skipped",
                        options.max_line_bytes
                    ),
                ));
                continue;
            }
            Incoming::Line(b) => (b, false),
            Incoming::Unterminated(b) => (b, true),
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if route(&bytes, truncated, &out, &actor_tx, &options) {
            shutdown_sent = true;
            break;
        }
    }
    drop(in_rx);
    if !shutdown_sent {
        let _ = actor_tx.send(ActorMsg::Shutdown { id: None, grace: options.default_grace });
    }
    drop(actor_tx);
    let actor_result = actor.await;
    stop.store(true, Ordering::Relaxed);
    out.close();
    drop(out);
    let _ = tokio::task::spawn_blocking(move || writer.join()).await;
    actor_result.map_err(|e| anyhow::anyhow!("the runtime task failed: {e}"))
}

/// Parses one line and answers it or hands it to the actor; `true` after `shutdown`.
fn route(
    bytes: &[u8],
    truncated: bool,
    out: &Outbound,
    actor: &mpsc::UnboundedSender<ActorMsg>,
    options: &ServeOptions,
) -> bool {
    match parse_request(bytes) {
        Err(mut e) => {
            if truncated {
                e.message = format!("stdin closed in the middle of a request: {}", e.message);
            }
            out.send(&e.to_message());
            false
        }
        Ok((id, Request::Hello { protocol_version })) => {
            if protocol_version == PROTOCOL_VERSION {
                out.send(&response(id, hello(options.max_line_bytes)));
            } else {
                out.send(&error_message(
                    Some(id),
                    ErrorCode::UnsupportedVersion,
                    &format!(
                        "protocol version {protocol_version} is not supported; this server speaks version {PROTOCOL_VERSION}"
                    ),
                ));
            }
            false
        }
        Ok((id, Request::Ping)) => {
            out.send(&response(id, json!({})));
            false
        }
        Ok((id, Request::Shutdown { grace })) => {
            let grace = grace.unwrap_or(options.default_grace);
            let _ = actor.send(ActorMsg::Shutdown { id: Some(id), grace });
            true
        }
        Ok((id, req)) => {
            let _ = actor.send(ActorMsg::Request { id, req });
            false
        }
    }
}

fn reader_loop<R: BufRead>(input: R, cap: usize, tx: &mpsc::Sender<Incoming>) {
    let mut lines = LineReader::new(input, cap);
    loop {
        let msg = match lines.next_line() {
            Ok(Some(Line::Complete(b))) => Incoming::Line(b),
            Ok(Some(Line::TooLong { len })) => Incoming::TooLong(len),
            Ok(Some(Line::Unterminated(b))) => Incoming::Unterminated(b),
            Ok(None) => Incoming::Eof,
            Err(e) => Incoming::ReadError(e),
        };
        let end = matches!(msg, Incoming::Eof | Incoming::ReadError(_));
        if tx.blocking_send(msg).is_err() || end {
            return;
        }
    }
}

fn writer_loop<W: Write>(rx: std_mpsc::Receiver<Out>, output: W, failed: &mpsc::Sender<Incoming>) {
    let mut out = BufWriter::with_capacity(64 * 1024, output);
    let result = (|| -> io::Result<()> {
        while let Ok(first) = rx.recv() {
            let mut msg = first;
            loop {
                match msg {
                    Out::Message(bytes) => out.write_all(&bytes)?,
                    Out::Close => return out.flush(),
                }
                match rx.try_recv() {
                    Ok(next) => msg = next,
                    Err(_) => break,
                }
            }
            out.flush()?;
        }
        out.flush()
    })();
    if let Err(e) = result {
        eprintln!("hooks serve: cannot write to stdout: {e}");
        let _ = failed.blocking_send(Incoming::OutputClosed);
    }
}

fn spawn_forwarder(
    rx: std_mpsc::Receiver<RegistryEvent>,
    out: Outbound,
    stop: Arc<AtomicBool>,
) -> io::Result<()> {
    thread::Builder::new().name("hooks-serve-events".into()).spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(RegistryEvent::SnapshotChanged { generation, revision }) => {
                    out.send(&notification(
                        "snapshot_changed",
                        json!({ "generation": generation.get(), "revision": revision.get() }),
                    ));
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
}

impl InFlight {
    fn spawn(&mut self, id: Value, fut: impl Future<Output = ()> + Send + 'static) {
        let handle = self.tasks.spawn(fut);
        self.ids.insert(handle.id(), id);
    }

    fn reap(&mut self, done: Result<(tokio::task::Id, ()), JoinError>, out: &Outbound) {
        match done {
            Ok((task, ())) => {
                self.ids.remove(&task);
            }
            Err(e) => {
                let id = self.ids.remove(&e.id());
                if e.is_panic() {
                    eprintln!("hooks serve: a request task panicked");
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

async fn actor_loop(
    mut runtime: HookRuntime,
    mut rx: mpsc::UnboundedReceiver<ActorMsg>,
    out: Outbound,
    options: ServeOptions,
) {
    let fire = runtime.fire_handle();
    let mut inflight = InFlight { tasks: JoinSet::new(), ids: HashMap::new() };
    loop {
        tokio::select! {
            biased;
            Some(done) = inflight.tasks.join_next_with_id(), if !inflight.tasks.is_empty() => {
                inflight.reap(done, &out);
            }
            msg = rx.recv() => match msg {
                Some(ActorMsg::Request { id, req }) => {
                    apply(&mut runtime, &fire, &mut inflight, &out, &options, id, req).await;
                }
                Some(ActorMsg::Shutdown { id, grace }) => {
                    return shutdown(runtime, inflight, &out, id, grace).await;
                }
                None => return shutdown(runtime, inflight, &out, None, options.default_grace).await,
            },
        }
    }
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
        None => eprintln!(
            "hooks serve: end of input; {} background hook(s) finished, {} cancelled, {aborted} request(s) aborted",
            report.finished.len(),
            report.cancelled.len()
        ),
    }
}

fn effect(e: &RuntimeEffect) -> Value {
    match e {
        RuntimeEffect::Ignored(reason) => json!({ "effect": "ignored", "reason": reason }),
        RuntimeEffect::RootAdded(_) => json!({ "effect": "added" }),
        RuntimeEffect::Applied => json!({ "effect": "applied" }),
    }
}

async fn apply(
    runtime: &mut HookRuntime,
    fire: &FireHandle,
    inflight: &mut InFlight,
    out: &Outbound,
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
                    let out2 = out.clone();
                    let wait = options.attach_timeout;
                    inflight.spawn(id.clone(), async move {
                        let msg = match tokio::time::timeout(wait, attach).await {
                            Ok(Ok(root)) => response(
                                id,
                                json!({ "effect": "added", "root": root.as_path(), "watching": true }),
                            ),
                            Ok(Err(e)) => error_message(
                                Some(id),
                                ErrorCode::RuntimeError,
                                &format!("cannot add the root: {e}"),
                            ),
                            Err(_) => response(
                                id,
                                json!({ "effect": "added", "root": null, "watching": false }),
                            ),
                        };
                        out2.send(&msg);
                    });
                }
                Ok(e) => out.send(&response(id, effect(&e))),
                Err(e) => out.send(&runtime_error(id, &e)),
            }
        }
        Request::RemoveRoot { root } => {
            match runtime.handle(RuntimeEvent::RepositoryRemoved { root }) {
                Ok(e) => out.send(&response(id, effect(&e))),
                Err(e) => out.send(&runtime_error(id, &e)),
            }
        }
        Request::SetPosture { window, posture } => {
            let event = RuntimeEvent::WindowPosture { window: WindowId(window), posture };
            match runtime.handle(event) {
                Ok(e) => {
                    let mut v = effect(&e);
                    v["posture"] = json!(render::posture(runtime.command_execution_posture()));
                    out.send(&response(id, v));
                }
                Err(e) => out.send(&runtime_error(id, &e)),
            }
        }
        Request::CloseWindow { window } => {
            match runtime.handle(RuntimeEvent::WindowClosed { window: WindowId(window) }) {
                Ok(e) => {
                    let mut v = effect(&e);
                    v["posture"] = json!(render::posture(runtime.command_execution_posture()));
                    out.send(&response(id, v));
                }
                Err(e) => out.send(&runtime_error(id, &e)),
            }
        }
        Request::LoadExplicitSources => {
            let errors = runtime.load_explicit_sources();
            out.send(&response(
                id,
                json!({
                    "ok": errors.is_empty(),
                    "errors": errors.iter().map(render::diagnostic).collect::<Vec<_>>(),
                }),
            ));
        }
        Request::ExchangeAppended { envelope } => {
            match runtime.exchange_appended(*envelope).await {
                Ok(Some((pin, report))) => out.send(&response(
                    id,
                    json!({
                        "started": true,
                        "pin": render::pin(&pin),
                        "session_start": render::fire_report(&report, None),
                    }),
                )),
                Ok(None) => out.send(&response(
                    id,
                    json!({
                        "started": false,
                        "pin": runtime.snapshot().pinned().as_ref().map(render::pin),
                        "session_start": null,
                    }),
                )),
                Err(e) => out.send(&runtime_error(id, &e)),
            }
        }
        Request::Fire { envelope, host_decision } => {
            let (fire, out) = (fire.clone(), out.clone());
            inflight.spawn(id.clone(), async move {
                let report = fire.fire(&envelope).await;
                let acted = host_decision.map(|h| fire.decide(h, &report));
                out.send(&response(id, render::fire_report(&report, acted)));
            });
        }
        Request::CanWriteFiles { paths, cwd } => {
            let (fire, out) = (fire.clone(), out.clone());
            inflight.spawn(id.clone(), async move {
                let decision = fire.can_write_files(&paths, &cwd);
                out.send(&response(id, render::guard(&decision)));
            });
        }
        Request::Snapshot { reveal } => {
            let (fire, out) = (fire.clone(), out.clone());
            inflight.spawn(id.clone(), async move {
                out.send(&response(id, render::snapshot(&fire.snapshot(), reveal)));
            });
        }
        Request::Hello { .. } | Request::Ping | Request::Shutdown { .. } => {
            // Answered by the dispatch loop; never sent here.
            out.send(&error_message(
                Some(id),
                ErrorCode::InvalidRequest,
                "this request is answered by the dispatch loop",
            ));
        }
    }
}
