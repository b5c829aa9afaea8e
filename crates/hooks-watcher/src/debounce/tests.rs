//! Tests for the debouncer: unit cases inline, scripted event sequences from `test_data/debounce/`.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use serde::Deserialize;

use super::{Batch, DEFAULT_DEBOUNCE_WINDOW, Debouncer};
use crate::event::{ChangeKind, FsChange, route};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn nothing_pending_is_idle() {
    let mut d = Debouncer::<u8>::new(ms(500));
    let t0 = Instant::now();
    assert!(d.is_idle());
    assert_eq!(d.next_deadline(), None);
    assert_eq!(d.drain_ready(t0 + ms(10_000)), None);
}

#[test]
fn the_default_window_is_500_ms() {
    assert_eq!(DEFAULT_DEBOUNCE_WINDOW, ms(500));
    assert_eq!(Debouncer::<u8>::new(DEFAULT_DEBOUNCE_WINDOW).window(), ms(500));
}

#[test]
fn trailing_edge_waits_for_quiet() {
    let mut d = Debouncer::new(ms(100));
    let t0 = Instant::now();
    d.push(1u8, t0);
    d.push(1u8, t0 + ms(60));
    assert_eq!(d.next_deadline(), Some(t0 + ms(160)));
    assert_eq!(d.drain_ready(t0 + ms(159)), None);
    assert_eq!(d.drain_ready(t0 + ms(160)), Some(Batch { keys: vec![1], events: 2 }));
    assert!(d.is_idle());
    assert_eq!(d.drain_ready(t0 + ms(500)), None);
}

#[test]
fn keys_are_released_separately() {
    let mut d = Debouncer::new(ms(100));
    let t0 = Instant::now();
    d.push("a", t0);
    d.push("b", t0 + ms(50));
    assert_eq!(d.drain_ready(t0 + ms(120)), Some(Batch { keys: vec!["a"], events: 1 }));
    assert_eq!(d.next_deadline(), Some(t0 + ms(150)));
    assert_eq!(d.drain_ready(t0 + ms(150)), Some(Batch { keys: vec!["b"], events: 1 }));
}

#[test]
fn the_maximum_wait_bounds_a_busy_key() {
    let mut d = Debouncer::new(ms(100)).with_max_wait(ms(250));
    let t0 = Instant::now();
    for i in 0..10 {
        d.push(0u8, t0 + ms(i * 50));
        if i * 50 < 250 {
            assert_eq!(d.drain_ready(t0 + ms(i * 50)), None, "at {} ms", i * 50);
        }
    }
    assert_eq!(d.next_deadline(), Some(t0 + ms(250)));
}

#[test]
fn the_maximum_wait_is_at_least_the_window() {
    let mut d = Debouncer::new(ms(100)).with_max_wait(ms(10));
    let t0 = Instant::now();
    d.push(0u8, t0);
    assert_eq!(d.next_deadline(), Some(t0 + ms(100)));
}

#[test]
fn time_going_backwards_is_no_time_passing() {
    let mut d = Debouncer::new(ms(100));
    let t0 = Instant::now() + ms(1000);
    d.push(0u8, t0);
    d.push(0u8, t0 - ms(500));
    assert_eq!(d.next_deadline(), Some(t0 + ms(100)));
}

#[test]
fn a_huge_window_is_clamped() {
    let d = Debouncer::<u8>::new(Duration::MAX);
    assert_eq!(d.window(), super::MAX_DEBOUNCE_WINDOW);
    let mut d = d.with_max_wait(Duration::MAX);
    d.push(0, Instant::now());
    assert!(d.next_deadline().is_some());
}

#[test]
fn forgetting_a_key_drops_its_events() {
    let mut d = Debouncer::new(ms(100));
    let t0 = Instant::now();
    d.push("a", t0);
    d.push("b", t0);
    d.forget(&"a");
    assert_eq!(d.drain_ready(t0 + ms(100)), Some(Batch { keys: vec!["b"], events: 1 }));
}

// Scripted cases: events with fake times and the batches they must produce.

#[derive(Deserialize)]
struct Case {
    #[allow(dead_code, reason = "documents the case file")]
    description: String,
    #[serde(default)]
    window_ms: Option<u64>,
    roots: Vec<String>,
    events: Vec<ScriptedEvent>,
    expected: Vec<ExpectedBatch>,
}

#[derive(Deserialize)]
struct ScriptedEvent {
    at_ms: u64,
    kind: String,
    paths: Vec<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct ExpectedBatch {
    at_ms: u64,
    roots: Vec<String>,
    events: usize,
}

const BASE: &str = "/w";

fn kind(name: &str) -> ChangeKind {
    match name {
        "create" => ChangeKind::Create,
        "remove" => ChangeKind::Remove,
        "modify" => ChangeKind::Modify,
        "rename" => ChangeKind::Rename,
        "close_write" => ChangeKind::CloseWrite,
        "open" => ChangeKind::Open,
        "close_read" => ChangeKind::CloseRead,
        "metadata" => ChangeKind::Metadata,
        "other" => ChangeKind::Other,
        other => panic!("unknown event kind `{other}` in a case file"),
    }
}

/// Plays a case the way the watcher's loop does: before each event, release every batch whose
/// deadline has come (at that deadline); route the event; push its roots; at the end, release
/// what is left.
fn play(case: &Case) -> Vec<ExpectedBatch> {
    let base = Path::new(BASE);
    let roots: Vec<PathBuf> = case.roots.iter().map(|r| base.join(r)).collect();
    let window = case.window_ms.map_or(DEFAULT_DEBOUNCE_WINDOW, ms);
    let mut debouncer = Debouncer::new(window);
    let t0 = Instant::now();
    let mut out = Vec::new();
    let mut release_until = |d: &mut Debouncer<PathBuf>, until: Option<Instant>| {
        while let Some(deadline) = d.next_deadline() {
            if until.is_some_and(|u| deadline > u) {
                break;
            }
            let batch = d.drain_ready(deadline).expect("a key is ready at its deadline");
            out.push(ExpectedBatch {
                at_ms: u64::try_from((deadline - t0).as_millis()).expect("small"),
                roots: batch
                    .keys
                    .iter()
                    .map(|k| k.strip_prefix(base).expect("under base").display().to_string())
                    .collect(),
                events: batch.events,
            });
        }
    };
    for ev in &case.events {
        let at = t0 + ms(ev.at_ms);
        release_until(&mut debouncer, Some(at));
        let change = FsChange {
            kind: kind(&ev.kind),
            paths: ev.paths.iter().map(|p| base.join(p)).collect(),
            rescan: false,
        };
        for routed in
            route(&crate::layout::Layout::new(hooks_testing::workspace_formats()), &change, |p| {
                roots.iter().any(|r| r == p)
            })
        {
            debouncer.push(routed.root, at);
        }
    }
    release_until(&mut debouncer, None);
    out
}

#[track_caller]
fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/debounce").join(name);
    let text = std::fs::read_to_string(&path).expect("case file");
    let case: Case = serde_json::from_str(&text).expect("valid case file");
    assert_eq!(play(&case), case.expected, "{}", path.display());
}

#[test]
fn single_write() {
    check("single_write.json");
}

#[test]
fn safe_save_with_backup() {
    check("safe_save_with_backup.json");
}

#[test]
fn write_temp_then_rename() {
    check("write_temp_then_rename.json");
}

#[test]
fn delete_then_create() {
    check("delete_then_create.json");
}

#[test]
fn burst() {
    check("burst.json");
}

#[test]
fn endless_writes_are_capped() {
    check("endless_writes_are_capped.json");
}

#[test]
fn unrelated_files() {
    check("unrelated_files.json");
}

#[test]
fn unrelated_files_do_not_delay() {
    check("unrelated_files_do_not_delay.json");
}

#[test]
fn two_roots_independent() {
    check("two_roots_independent.json");
}

#[test]
fn same_time_roots_share_a_batch() {
    check("same_time_roots_share_a_batch.json");
}

#[test]
fn folder_appears() {
    check("folder_appears.json");
}

#[test]
fn folder_removed() {
    check("folder_removed.json");
}

#[test]
fn nested_roots() {
    check("nested_roots.json");
}

#[test]
fn root_deleted() {
    check("root_deleted.json");
}

#[test]
fn short_window() {
    check("short_window.json");
}

#[test]
fn every_case_file_has_a_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/debounce");
    let this = include_str!("tests.rs");
    for entry in std::fs::read_dir(&dir).expect("case dir") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        assert!(this.contains(&format!("check(\"{name}\")")), "{name} has no test");
    }
}
