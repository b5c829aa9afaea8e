//! Tests of the server's moving parts: snapshot changes are coalesced for a slow client, and so
//! are the refreshes that look for new advisories; the reader thread starts a fire's hooks
//! itself.

use std::{
    io::{self, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize},
        mpsc as std_mpsc,
    },
    time::{Duration, Instant},
};

use hooks_registry::RegistryEvent;
use hooks_schema::{Generation, Revision};
use serde_json::Value;
use tokio::sync::mpsc;

use super::{
    ActorMsg, LatestChange, Outbound, Output, Permits, Reader, Sink, spawn_forwarder, writer_loop,
};

/// A stdout the test can read back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl crate::serve::ServeOutput for Captured {}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn snapshot_changes_queued_for_a_slow_client_are_written_once_with_the_latest() {
    let captured = Captured::default();
    let (actor, _actor_rx) = mpsc::unbounded_channel();
    let sink = Arc::new(Sink {
        log: crate::serve::ServeLog::default(),
        out: Mutex::new(Some(Output::new(Box::new(captured.clone())))),
        failed: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        actor,
        drained: tokio::sync::Notify::new(),
        grace: Duration::from_secs(1),
    });
    let (out_tx, out_rx) = std_mpsc::channel();
    let out = Outbound::new(Arc::clone(&sink), out_tx);
    let latest = LatestChange::default();
    let (events_tx, events_rx) = std_mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let (refresh_tx, mut refresh_rx) = mpsc::unbounded_channel();
    spawn_forwarder(events_rx, out.clone(), Arc::clone(&latest), Arc::clone(&stop), refresh_tx)
        .unwrap();

    // 100 changes while the writer is not writing (the client is not reading).
    let (mut generation, mut revision) = (Generation::ZERO, Revision::ZERO);
    for i in 0..100 {
        generation = generation.next();
        if i % 2 == 0 {
            revision = revision.next();
        }
        events_tx.send(RegistryEvent::SnapshotChanged { generation, revision }).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while *latest.lock().unwrap() != Some((generation.get(), revision.get())) {
        assert!(Instant::now() < deadline, "the forwarder did not see every change");
        std::thread::yield_now();
    }
    out.close();
    writer_loop(&out_rx, &sink, &latest);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);

    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert_eq!(lines[0]["method"], "snapshot_changed");
    assert_eq!(lines[0]["params"]["generation"], 100);
    assert_eq!(lines[0]["params"]["revision"], 50);
    // Nothing was left waiting.
    assert!(latest.lock().unwrap().is_none());
    // The runtime's task was asked once to look for advisories: one waiting refresh covers
    // every change until it is handled.
    let mut refreshes = 0;
    while let Ok(msg) = refresh_rx.try_recv() {
        assert!(matches!(msg, ActorMsg::Refresh(_)));
        refreshes += 1;
    }
    assert_eq!(refreshes, 1);
}

/// The old path handed every fire with hooks to the runtime's task first, so the hook's process
/// started only once that task's thread woke up; now the reader thread's poll starts it.
#[test]
fn the_reader_thread_starts_a_fire_with_hooks_and_hands_over_the_running_fire() {
    use std::os::unix::fs::PermissionsExt;

    use hooks_schema::{Envelope, ExplicitScope, HookEvent, ToolCall, ToolKind};
    use hooks_sources::ExplicitHookSource;
    use hooks_trust::Surface;

    use crate::runtime::{HookRuntime, RuntimeConfig};

    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    // The hook waits at a FIFO until the test lets it end: a hook that went first (the
    // spawner yields to it) could otherwise end before the reader thread's first poll
    // returns, and the fire be answered there, never parked.
    let gate = dir.path().join("gate");
    nix::unistd::mkfifo(&gate, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let release = || {
        use std::io::Write;
        let mut w = std::fs::OpenOptions::new().write(true).open(&gate).unwrap();
        w.write_all(b"go\n").unwrap();
    };
    let script = dir.path().join("hook.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat >/dev/null\n: > '{}'\nread _ < '{}'\necho '{{\"permission\":\"allow\"}}'\n",
            marker.display(),
            gate.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.path().join("hooks.json");
    let hooks = serde_json::json!({
        "version": 1,
        "hooks": { "beforeShellExecution": [{ "command": script }] }
    });
    std::fs::write(&file, hooks.to_string()).unwrap();
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.dispatch.runtime_dir = Some(dir.path().join("runtime"));
    config.explicit_sources = vec![ExplicitHookSource::new(
        ExplicitScope::RunDelivered,
        &file,
        hooks_format_cursor::FORMAT,
    )];
    let mut runtime = HookRuntime::new(config);
    assert!(runtime.load_explicit_sources().is_empty());

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let captured = Captured::default();
    let (actor, mut actor_rx) = mpsc::unbounded_channel();
    let sink = Arc::new(Sink {
        log: crate::serve::ServeLog::default(),
        out: Mutex::new(Some(Output::new(Box::new(captured.clone())))),
        failed: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        actor: actor.clone(),
        drained: tokio::sync::Notify::new(),
        grace: Duration::from_secs(1),
    });
    let mut reader = Reader {
        permits: Permits::new(4),
        sink,
        actor,
        fire: runtime.fire_handle(),
        rt: rt.handle().clone(),
        parked: Arc::default(),
        applied: Arc::default(),
        submitted: 0,
        closed: false,
        options: crate::serve::ServeOptions::default(),
        on_runtime: None,
        spare: None,
    };
    let mut envelope = Envelope::new(HookEvent::PreToolUse);
    envelope.cwd = Some(dir.path().to_path_buf());
    envelope.tool = Some(ToolCall {
        name: "Shell".to_owned(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: serde_json::json!({ "command": "ls" }),
    });
    let line = serde_json::json!({ "id": 7, "method": "fire", "params": { "envelope": envelope } });
    assert!(reader.route(line.to_string().as_bytes(), false).is_none());

    // No task has polled the fire: the reader thread's own poll started the hook, which runs
    // by itself, and nothing was handed to the runtime's side while it runs (the old path
    // queued the fire for the actor at once, waking the runtime's thread during the hook).
    let deadline = Instant::now() + Duration::from_secs(30);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the hook did not start before the hand-over");
        std::thread::yield_now();
    }
    assert!(actor_rx.try_recv().is_err(), "a started fire waits parked, not queued");
    assert_eq!(reader.parked.lock().unwrap().len(), 1);
    release();
    // The runtime runs (as its thread does): the hook's end wakes the parked fire, which
    // hands itself over.
    let Some(ActorMsg::Continue { id, fut, permit }) = rt.block_on(actor_rx.recv()) else {
        panic!("the fire was not handed over as a started fire");
    };
    assert_eq!(id, 7);
    assert!(actor_rx.try_recv().is_err(), "one message per fire");
    let answer = rt.block_on(fut).expect("an answer");
    drop(permit);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["id"], 7);
    let runs = answer["result"]["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "{answer}");
    assert_eq!(runs[0]["status"], "ran", "{answer}");
    assert!(captured.0.lock().unwrap().is_empty(), "the task writes the answer, not the reader");

    // A fire still parked when the server shuts down is taken by the actor's drain, as a
    // handed-over one is, and answered.
    std::fs::remove_file(&marker).unwrap();
    let line = serde_json::json!({ "id": 8, "method": "fire", "params": { "envelope": envelope } });
    assert!(reader.route(line.to_string().as_bytes(), false).is_none());
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the second hook did not start");
        std::thread::yield_now();
    }
    assert!(actor_rx.try_recv().is_err(), "parked, not queued");
    release();
    let (queue, queue_rx) = std_mpsc::channel();
    let out = Outbound::new(Arc::clone(&reader.sink), queue);
    let parked = Arc::clone(&reader.parked);
    rt.block_on(async {
        let mut inflight = super::InFlight {
            tasks: tokio::task::JoinSet::new(),
            ids: std::collections::HashMap::new(),
            log: crate::serve::ServeLog::default(),
        };
        super::adopt_parked(&parked, &mut actor_rx, &mut inflight, &out);
        assert_eq!(inflight.ids.values().collect::<Vec<_>>(), [&Value::from(8)]);
        while let Some(done) = inflight.tasks.join_next_with_id().await {
            inflight.reap(done, &out);
        }
    });
    assert!(parked.lock().unwrap().is_empty());
    // This output cannot write without waiting: the answer went to the writer's queue.
    let Ok(super::Out::Message(bytes, Some(_permit))) = queue_rx.try_recv() else {
        panic!("the adopted fire was not answered");
    };
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(answer["id"], 8, "{answer}");
    assert_eq!(answer["result"]["runs"][0]["status"], "ran", "{answer}");
}

/// A sink over `out` for the tests below, with its queue to the writer thread.
fn sink_over(
    out: Box<dyn crate::serve::ServeOutput>,
) -> (Outbound, std_mpsc::Receiver<super::Out>) {
    let (actor, _actor_rx) = mpsc::unbounded_channel();
    let sink = Arc::new(Sink {
        log: crate::serve::ServeLog::default(),
        out: Mutex::new(Some(Output::new(out))),
        failed: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        actor,
        drained: tokio::sync::Notify::new(),
        grace: Duration::from_secs(1),
    });
    let (tx, rx) = std_mpsc::channel();
    (Outbound::new(sink, tx), rx)
}

/// An answer of `len` bytes or more, numbered.
fn numbered(n: usize, len: usize) -> Value {
    serde_json::json!({ "id": n, "result": { "pad": "x".repeat(len) } })
}

/// The old path queued every answer of a runtime task for the writer thread (a thread
/// wake-up per answer); with room on stdout the task now writes it itself.
#[test]
fn a_runtime_task_writes_its_answer_itself_when_stdout_has_room() {
    /// One write: the thread that made it and its bytes.
    type Written = (String, Vec<u8>);
    /// Records the thread of each write that never waits; blocking writes are refused.
    #[derive(Clone, Default)]
    struct Direct(Arc<Mutex<Vec<Written>>>);
    impl Write for Direct {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("only the writer thread writes this way"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    impl crate::serve::ServeOutput for Direct {
        fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
            let thread = std::thread::current().name().unwrap_or("").to_owned();
            self.0.lock().unwrap().push((thread, buf.to_vec()));
            Ok(buf.len())
        }
    }
    let direct = Direct::default();
    let (out, queue) = sink_over(Box::new(direct.clone()));
    let permits = Permits::new(1);
    let reply = super::Reply { out: out.clone(), permit: permits.acquire().unwrap() };
    let worker = std::thread::Builder::new()
        .name("a-worker".into())
        .spawn(move || reply.send(&numbered(1, 10)))
        .unwrap();
    worker.join().unwrap();
    // No writer thread runs in this test: the answer was written by the task's own thread,
    // and its in-flight place is free again.
    let written = direct.0.lock().unwrap().clone();
    assert_eq!(written.len(), 1, "the answer is written at once");
    assert_eq!(written[0].0, "a-worker");
    let line: Value = serde_json::from_slice(&written[0].1).unwrap();
    assert_eq!(line["id"], 1);
    assert!(queue.try_recv().is_err(), "nothing was queued for the writer thread");
    assert_eq!(*permits.used.lock().unwrap(), 0, "the place was given back");
    assert_eq!(out.sink.queued.load(std::sync::atomic::Ordering::SeqCst), 0);
}

/// A client that stops reading: the pipe fills, a runtime task's writes still return at once
/// (what does not fit goes to the writer thread, which blocks instead), and once the client
/// reads, every message arrives whole, once, in the order the task sent them.
#[test]
fn a_full_stdout_never_blocks_a_runtime_task_and_every_message_arrives_whole_and_in_order() {
    use std::io::BufRead;

    let (r, w) = std::io::pipe().unwrap();
    let (out, queue) = sink_over(Box::new(w));
    let latest = LatestChange::default();
    let writer = {
        let (sink, latest) = (Arc::clone(&out.sink), Arc::clone(&latest));
        std::thread::spawn(move || writer_loop(&queue, &sink, &latest))
    };
    const N: usize = 300;
    let permits = Permits::new(N);
    let (done_tx, done) = std_mpsc::channel();
    let task = {
        let (out, permits) = (out.clone(), Arc::clone(&permits));
        std::thread::spawn(move || {
            // 300 answers of about 3 KB: 14 times what the pipe holds.
            for n in 0..N {
                let reply = super::Reply { out: out.clone(), permit: permits.acquire().unwrap() };
                reply.send(&numbered(n, 3000 + n));
            }
            done_tx.send(()).unwrap();
        })
    };
    // Nobody reads yet: the task must finish anyway.
    done.recv_timeout(Duration::from_secs(60))
        .expect("a runtime task blocked on a client that does not read");
    task.join().unwrap();
    let mut lines = std::io::BufReader::new(r);
    for n in 0..N {
        let mut line = String::new();
        lines.read_line(&mut line).unwrap();
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("message {n} is not whole ({e}): {line:.80}"));
        assert_eq!(v["id"], n, "messages keep their order");
        assert_eq!(v["result"]["pad"].as_str().unwrap().len(), 3000 + n);
    }
    out.close();
    writer.join().unwrap();
    out.sink.close();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut lines, &mut rest).unwrap();
    assert!(rest.is_empty(), "nothing more: {rest:.80}");
    assert_eq!(out.sink.queued.load(std::sync::atomic::Ordering::SeqCst), 0);
    // Every in-flight place was given back once its answer was written.
    assert_eq!(*permits.used.lock().unwrap(), 0);
}

/// A message the pipe took only part of: whoever writes next (the reader thread here) writes
/// its end first, and a runtime task's message sent meanwhile waits behind it.
#[test]
fn the_end_of_a_message_begun_by_a_task_is_written_before_anything_else() {
    /// Takes the first `room` bytes offered to a write that never waits, then none.
    #[derive(Clone)]
    struct Narrow(Arc<Mutex<(Vec<u8>, usize)>>);
    impl Write for Narrow {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    impl crate::serve::ServeOutput for Narrow {
        fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut g = self.0.lock().unwrap();
            let n = buf.len().min(g.1);
            g.1 -= n;
            g.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
    }
    let narrow = Narrow(Arc::new(Mutex::new((Vec::new(), 100))));
    let (out, queue) = sink_over(Box::new(narrow.clone()));
    let permits = Permits::new(2);
    super::Reply { out: out.clone(), permit: permits.acquire().unwrap() }.send(&numbered(1, 500));
    assert_eq!(narrow.0.lock().unwrap().0.len(), 100, "the pipe took part of it");
    // A second answer is not written in the middle of the first.
    super::Reply { out: out.clone(), permit: permits.acquire().unwrap() }.send(&numbered(2, 10));
    assert_eq!(narrow.0.lock().unwrap().0.len(), 100);
    // The reader thread answers a ping: the first answer's end goes first.
    out.sink.send_direct(&numbered(3, 10));
    out.close();
    writer_loop(&queue, &out.sink, &LatestChange::default());
    let text = String::from_utf8(narrow.0.lock().unwrap().0.clone()).unwrap();
    let ids: Vec<Value> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l:.80}"))["id"]
                .clone()
        })
        .collect();
    assert_eq!(ids, [1, 3, 2], "{text:.200}");
    assert_eq!(out.sink.queued.load(std::sync::atomic::Ordering::SeqCst), 0);
    assert_eq!(*permits.used.lock().unwrap(), 0, "both places given back");
}
