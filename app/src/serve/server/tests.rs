//! Tests of the server's moving parts: snapshot changes are coalesced for a slow client, and so
//! are the refreshes that look for new advisories; the reader thread starts a fire's hooks
//! itself.

use std::{
    io::{self, Write},
    sync::{Arc, Mutex, atomic::AtomicBool, mpsc as std_mpsc},
    time::{Duration, Instant},
};

use hooks_registry::RegistryEvent;
use hooks_schema::{Generation, Revision};
use serde_json::Value;
use tokio::sync::mpsc;

use super::{
    ActorMsg, LatestChange, Outbound, Permits, Reader, Sink, spawn_forwarder, writer_loop,
};

/// A stdout the test can read back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

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
    let sink = Sink {
        log: crate::serve::ServeLog::default(),
        out: Mutex::new(Some(io::BufWriter::new(Box::new(captured.clone())))),
        failed: AtomicBool::new(false),
        actor,
        grace: Duration::from_secs(1),
    };
    let (out_tx, out_rx) = std_mpsc::channel();
    let out = Outbound(out_tx);
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
    let script = dir.path().join("hook.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat >/dev/null\n: > '{}'\necho '{{\"permission\":\"allow\"}}'\n",
            marker.display()
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
        out: Mutex::new(Some(io::BufWriter::new(Box::new(captured.clone())))),
        failed: AtomicBool::new(false),
        actor: actor.clone(),
        grace: Duration::from_secs(1),
    });
    let mut reader = Reader {
        permits: Permits::new(4),
        sink,
        actor,
        fire: runtime.fire_handle(),
        rt: rt.handle().clone(),
        applied: Arc::default(),
        submitted: 0,
        closed: false,
        options: crate::serve::ServeOptions::default(),
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

    let Ok(ActorMsg::Continue { id, fut, permit }) = actor_rx.try_recv() else {
        panic!("the fire was not handed over as a started fire");
    };
    assert_eq!(id, 7);
    assert!(actor_rx.try_recv().is_err(), "one message per fire");
    // No task has polled the fire: the reader thread's own poll started the hook, which runs
    // by itself.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the hook did not start before the hand-over");
        std::thread::yield_now();
    }
    let answer = rt.block_on(fut).expect("an answer");
    drop(permit);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["id"], 7);
    let runs = answer["result"]["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "{answer}");
    assert_eq!(runs[0]["status"], "ran", "{answer}");
    assert!(captured.0.lock().unwrap().is_empty(), "the task writes the answer, not the reader");
}
