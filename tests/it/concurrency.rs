//! Concurrency stress: several threads fire thousands of events while a hook file is rewritten through the watcher and an explicit source is upserted, checking snapshot consistency, monotonic revisions, no deadlock, and the final state.
//!
//! Two sources change continuously: the project's `.cursor/hooks.json` (rewritten on disk,
//! alternately in place and by atomic rename, and reloaded by the real watcher) and an
//! explicit source upserted straight into the registry from another thread. Every hook of a
//! version carries that version's tag (`f-v17`, `x-v42`). Readers fire the way
//! `FireHandle::fire` does (one snapshot, its bindings, `Dispatcher::fire`): most fires use a
//! test codec that spawns nothing and answers with the hook's tag, a few use the real Cursor
//! codec and real processes. A verdict must never hold two tags of one source, the tags must
//! be those of the snapshot the bindings came from, and each reader's revisions and
//! generations never go backwards. The whole run is bounded; after the writers stop, the
//! registry must reach the files' final versions by itself.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU32, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use hooks_app::runtime::FireHandle;
use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext};
use hooks_registry::{LoadStateKind, RegistryHandle, RegistrySnapshot, SourceUpdate, canonicalize};
use hooks_schema::{
    AbsPathBuf, Binding, Envelope, ExitInfo, HookCodec, HookCommand, HookDefinition, HookEvent,
    HookSourceId, HookSourceKind, HookVerdict, Invocation, RawOutcome, ToolCall, ToolKind,
    ToolResult,
};
use hooks_trust::{CommandExecutionPosture, StaticTrustPolicy, Surface, TrustInputs};
use hooks_watcher::{HookConfigWatcher, WatchedPlace, WatcherConfig};
use serde_json::json;

use crate::support::TestDir;

/// File versions written through the watcher: every `FILE_BURST`-th is waited for until a
/// reader has fired against it, the others are written back to back.
const FILE_VERSIONS: u32 = 120;
const FILE_BURST: u32 = 6;
/// Explicit-source versions upserted into the registry, each waited for until a reader has
/// fired against it, so writes and fires provably interleave.
const UPSERTS: u32 = 300;
/// How long a writer waits for a reader to see its version.
const SEEN_WITHIN: Duration = Duration::from_secs(10);
/// Reader threads, and the spawn-free fires each makes.
const READERS: usize = 4;
const FIRES_PER_READER: usize = 1000;
/// Fires with real hook processes, per reader.
const REAL_FIRES_PER_READER: usize = 10;
/// Hooks per version of each source.
const FILE_HOOKS: usize = 3;
const EXPLICIT_HOOKS: usize = 2;
/// The bound on the whole test.
const OVERALL: Duration = Duration::from_secs(90);

/// A Cursor file whose `postToolUse` hooks all print `tag` as additional context.
fn tagged_file(tag: &str, hooks: usize) -> String {
    let hook =
        json!({"command": format!("echo '{{\"additional_context\":\"{tag}\"}}'"), "timeout": 10});
    json!({"version": 1, "hooks": {"postToolUse": vec![hook; hooks]}}).to_string()
}

/// The tag a definition written by [`tagged_file`] prints.
fn tag_of(definition: &HookDefinition) -> String {
    match &definition.command {
        HookCommand::Shell { script, .. } => {
            script.split('"').nth(3).expect("a tagged command").to_owned()
        }
        other => panic!("not a tagged hook: {other:?}"),
    }
}

/// A codec that spawns nothing: encoding fails with the hook's tag, and decoding turns that
/// failure back into a verdict whose context is the tag.
#[derive(Debug)]
struct TagCodec;

impl HookCodec for TagCodec {
    fn wire_format(&self) -> hooks_schema::FormatId {
        hooks_format_cursor::FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        _: &Envelope,
        _: &hooks_schema::EncodeContext<'_>,
    ) -> Result<Invocation, hooks_schema::EncodeError> {
        Err(hooks_schema::EncodeError::Refused(tag_of(hook)))
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, outcome: &RawOutcome) -> HookVerdict {
        let mut v = HookVerdict::no_opinion();
        if let ExitInfo::NotStarted(f) = &outcome.exit {
            v.context.push(f.message.clone());
        }
        v
    }
}

fn post_tool_use(cwd: &Path) -> Envelope {
    let mut e = Envelope::new(HookEvent::PostToolUse);
    e.cwd = Some(cwd.to_path_buf());
    e.tool = Some(ToolCall {
        name: "run_shell_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args: json!({"command": "ls"}),
    });
    e.result =
        Some(ToolResult { text: Some("ok".into()), duration_ms: Some(1), ..ToolResult::default() });
    e
}

/// The tags each source's bindings carry in `snapshot` for `cwd`: one entry per source.
fn tags_by_source(bindings: &[Binding]) -> BTreeMap<HookSourceKind, Vec<String>> {
    let mut out: BTreeMap<HookSourceKind, Vec<String>> = BTreeMap::new();
    for b in bindings {
        out.entry(b.source.kind).or_default().push(tag_of(&b.definition));
    }
    out
}

/// Checks that every source's hooks carry one tag, the one its view in the same snapshot
/// holds; returns the tag per source.
fn consistent(
    snapshot: &RegistrySnapshot,
    bindings: &[Binding],
) -> BTreeMap<HookSourceKind, String> {
    let mut out = BTreeMap::new();
    for (kind, tags) in tags_by_source(bindings) {
        let first = tags[0].clone();
        assert!(tags.iter().all(|t| *t == first), "{kind:?}: one snapshot mixes {tags:?}");
        let view = snapshot
            .sources()
            .iter()
            .find(|s| s.id.kind == kind)
            .expect("the bindings' source is in the snapshot");
        assert!(view.definitions.iter().all(|d| tag_of(d) == first), "{kind:?}: view disagrees");
        out.insert(kind, first);
    }
    out
}

struct World {
    _dirs: (TestDir, TestDir),
    root: AbsPathBuf,
    explicit: HookSourceId,
    explicit_dir: AbsPathBuf,
    registry: RegistryHandle,
    watcher: HookConfigWatcher,
}

fn world() -> World {
    let project = TestDir::new();
    project.write(".cursor/hooks.json", &tagged_file("f-v0", FILE_HOOKS));
    let root = canonicalize(project.path()).expect("canonical");
    let elsewhere = TestDir::new();
    let explicit_file = elsewhere.write("hooks.json", &tagged_file("x-v0", EXPLICIT_HOOKS));
    let explicit = HookSourceId::new(
        HookSourceKind::RUN_DELIVERED,
        canonicalize(&explicit_file).expect("canonical"),
    );
    let explicit_dir = canonicalize(elsewhere.path()).expect("canonical");
    let registry = RegistryHandle::default();
    let mut config = WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats())
        .with_debounce_window(Duration::from_millis(20));
    config.trust_inputs = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves);
    let watcher = HookConfigWatcher::new(registry.clone(), Arc::new(StaticTrustPolicy), config)
        .expect("start the watcher");
    watcher
        .add_root(root.as_path())
        .wait_timeout(Duration::from_secs(10))
        .expect("attached in time")
        .expect("attached");
    let w = World { _dirs: (project, elsewhere), root, explicit, explicit_dir, registry, watcher };
    upsert_explicit(&w.registry, &w.explicit, 0);
    w
}

fn upsert_explicit(registry: &RegistryHandle, id: &HookSourceId, version: u32) {
    let text = tagged_file(&format!("x-v{version}"), EXPLICIT_HOOKS);
    let parsed = hooks_format_cursor::parse(text.as_bytes(), id.path.as_path());
    registry.change(|r| {
        r.upsert_source(SourceUpdate {
            source: id.clone(),
            parsed,
            project_root: None,
            project_dir: None,
            trust: hooks_trust::explicit_source_decision(id.kind),
        })
    });
}

fn tag_number(tag: &str) -> u32 {
    tag.rsplit('v').next().and_then(|n| n.parse().ok()).expect("a version number")
}

/// One reader: fires until told to stop, checking each verdict and the order of snapshots.
/// Returns how many fires it made and the highest file version it saw.
fn reader(registry: RegistryHandle, root: AbsPathBuf, progress: Arc<Progress>) -> (usize, usize) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dispatcher =
        Dispatcher::new(DispatchConfig { max_parallel_hooks: 8, ..DispatchConfig::default() });
    let envelope = post_tool_use(root.as_path());
    let reader = registry.reader();
    let (mut last_rev, mut last_gen) = (None, None);
    let mut last_seen: BTreeMap<HookSourceKind, u32> = BTreeMap::new();
    let mut distinct = BTreeSet::new();
    let mut fires = 0;
    let mut real = 0;
    while fires < FIRES_PER_READER || !progress.writers_done.load(Ordering::Acquire) {
        let snapshot = reader.snapshot();
        let (rev, generation) = (snapshot.revision(), snapshot.generation());
        assert!(last_rev.is_none_or(|r| r <= rev), "revision went back: {last_rev:?} -> {rev:?}");
        assert!(last_gen.is_none_or(|g| g <= generation), "generation went back");
        (last_rev, last_gen) = (Some(rev), Some(generation));
        let bindings = FireHandle::scope_for(&snapshot, &envelope).bindings;
        let expected = consistent(&snapshot, &bindings);
        for (kind, tag) in &expected {
            let n = tag_number(tag);
            let prev = last_seen.insert(*kind, n).unwrap_or(0);
            assert!(prev <= n, "{kind:?}: a later snapshot shows an older version {prev} -> {n}");
            distinct.insert((*kind, n));
        }
        let use_real =
            real < REAL_FIRES_PER_READER && fires % (FIRES_PER_READER / REAL_FIRES_PER_READER) == 0;
        let bindings: Vec<Binding> = if use_real {
            real += 1;
            bindings.to_vec()
        } else {
            bindings
                .iter()
                .cloned()
                .map(|mut b| {
                    let mut d = HookDefinition::clone(&b.definition);
                    d.codec = Arc::new(TagCodec);
                    b.definition = Arc::new(d);
                    b
                })
                .collect()
        };
        let report = rt.block_on(dispatcher.fire(&bindings, &envelope, &FireContext::default()));
        assert_eq!(report.runs.len(), FILE_HOOKS + EXPLICIT_HOOKS, "{:?}", report.runs);
        let mut got: BTreeMap<HookSourceKind, Vec<String>> = BTreeMap::new();
        for (provenance, text) in &report.verdict.context {
            got.entry(provenance.source.kind).or_default().push(text.trim().to_owned());
        }
        for (kind, tag) in &expected {
            let texts = got.get(kind).cloned().unwrap_or_default();
            let want =
                if *kind == HookSourceKind::RUN_DELIVERED { EXPLICIT_HOOKS } else { FILE_HOOKS };
            assert_eq!(
                texts,
                vec![tag.clone(); want],
                "real={use_real} {kind:?}: the verdict mixes revisions"
            );
        }
        // the verdict is checked: announce the versions it was computed against
        for (kind, tag) in &expected {
            let slot = if *kind == HookSourceKind::RUN_DELIVERED {
                &progress.explicit
            } else {
                &progress.file
            };
            slot.fetch_max(tag_number(tag), Ordering::AcqRel);
        }
        fires += 1;
    }
    assert_eq!(real, REAL_FIRES_PER_READER);
    (fires, distinct.len())
}

/// What the readers have fired against, and whether the writers are done.
#[derive(Default)]
struct Progress {
    /// The highest file version a checked verdict was computed against.
    file: AtomicU32,
    /// The highest explicit-source version a checked verdict was computed against.
    explicit: AtomicU32,
    writers_done: AtomicBool,
}

/// Waits until a reader has fired against version `v` or later of `slot`.
fn wait_seen(slot: &AtomicU32, v: u32, what: &str) {
    let deadline = Instant::now() + SEEN_WITHIN;
    while slot.load(Ordering::Acquire) < v {
        assert!(
            Instant::now() < deadline,
            "{what} v{v}: no reader fired against it in {SEEN_WITHIN:?}"
        );
        std::thread::yield_now();
    }
}

#[test]
fn fires_from_many_threads_during_continuous_rewrites_see_one_revision_each_and_end_on_disk_state()
{
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        stress();
        let _ = tx.send(());
    });
    match rx.recv_timeout(OVERALL) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("deadlock or livelock: not done in {OVERALL:?}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the stress run panicked (see above)"),
    }
}

fn stress() {
    let w = world();
    let started = Instant::now();
    let progress = Arc::new(Progress::default());
    let readers: Vec<_> = (0..READERS)
        .map(|_| {
            let (registry, root, p) = (w.registry.clone(), w.root.clone(), Arc::clone(&progress));
            std::thread::spawn(move || reader(registry, root, p))
        })
        .collect();
    let file_writer = {
        let file = w.root.as_path().join(".cursor/hooks.json");
        let tmp = w.root.as_path().join(".cursor/.hooks.json.tmp");
        let p = Arc::clone(&progress);
        std::thread::spawn(move || {
            for v in 1..=FILE_VERSIONS {
                let text = tagged_file(&format!("f-v{v}"), FILE_HOOKS);
                if v % 2 == 0 {
                    fs::write(&tmp, text).expect("write tmp");
                    fs::rename(&tmp, &file).expect("rename over");
                } else {
                    // in place: a reload may read a half-written file; that is a failed
                    // reload, which keeps the last valid parse
                    fs::write(&file, text).expect("write in place");
                }
                if v % FILE_BURST == 0 {
                    wait_seen(&p.file, v, "file");
                }
            }
        })
    };
    let upserter = {
        let (registry, id) = (w.registry.clone(), w.explicit.clone());
        let p = Arc::clone(&progress);
        std::thread::spawn(move || {
            for v in 1..=UPSERTS {
                upsert_explicit(&registry, &id, v);
                wait_seen(&p.explicit, v, "explicit source");
            }
        })
    };
    file_writer.join().expect("file writer");
    upserter.join().expect("upserter");
    progress.writers_done.store(true, Ordering::Release);
    let mut total = 0;
    let mut versions = 0;
    for r in readers {
        let (fires, distinct) = r.join().expect("reader");
        total += fires;
        versions += distinct;
    }
    assert!(total >= READERS * FIRES_PER_READER);

    // After the writes stop, the watcher alone brings the registry to the files on disk.
    let events = w.registry.subscribe();
    let want = format!("f-v{FILE_VERSIONS}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let snapshot = w.registry.snapshot();
        let view =
            snapshot.sources().iter().find(|s| s.id.kind == hooks_format_cursor::PROJECT_FILE).map(
                |s| (s.load_state, s.definitions.iter().map(|d| tag_of(d)).collect::<Vec<_>>()),
            );
        if let Some((LoadStateKind::Loaded, tags)) = &view
            && tags == &vec![want.clone(); FILE_HOOKS]
        {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if events.recv_timeout(left).is_err() {
            panic!("the final file version never loaded: {view:?}");
        }
    }
    let snapshot = w.registry.snapshot();
    let on_disk = fs::read_to_string(w.root.as_path().join(".cursor/hooks.json")).expect("read");
    let parsed = hooks_format_cursor::parse(
        on_disk.as_bytes(),
        &w.root.as_path().join(".cursor/hooks.json"),
    )
    .expect("the final file parses");
    let bindings = snapshot.bindings_for(w.root.as_path());
    let file_tags: Vec<String> = bindings
        .iter()
        .filter(|b| b.source.kind == hooks_format_cursor::PROJECT_FILE)
        .map(|b| tag_of(&b.definition))
        .collect();
    assert_eq!(file_tags, parsed.definitions.iter().map(tag_of).collect::<Vec<_>>());
    let explicit_tags: Vec<String> =
        bindings.iter().filter(|b| b.source == w.explicit).map(|b| tag_of(&b.definition)).collect();
    assert_eq!(explicit_tags, vec![format!("x-v{UPSERTS}"); EXPLICIT_HOOKS]);
    assert!(bindings.iter().all(|b| b.source != w.explicit || b.working_dir == w.explicit_dir));
    assert!(w.watcher.diagnostics(&WatchedPlace::from(&w.root)).is_empty());
    eprintln!(
        "stress: {total} fires against {versions} (reader, version) pairs in {:?}",
        started.elapsed()
    );
}
