//! Tests of the server's writer side: snapshot changes are coalesced for a slow client, and so
//! are the refreshes that look for new advisories.

use std::{
    io::{self, Write},
    sync::{Arc, Mutex, atomic::AtomicBool, mpsc as std_mpsc},
    time::{Duration, Instant},
};

use hooks_registry::RegistryEvent;
use hooks_schema::{Generation, Revision};
use serde_json::Value;
use tokio::sync::mpsc;

use super::{ActorMsg, LatestChange, Outbound, Sink, spawn_forwarder, writer_loop};

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
