//! Observability: the `tracing` spans and events the engine emits, as a subscriber an
//! embedder installs sees them (`specs/observability.md`).

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use hooks_dispatch::{DispatchConfig, Dispatcher, FireContext};
use hooks_schema::{Binding, Decision, ExecutionMode, HookDefinition};
use tracing::{
    Event, Subscriber,
    field::{Field, Visit},
    span::{Attributes, Id, Record},
};
use tracing_subscriber::{Layer, layer::Context, prelude::*, registry::LookupSpan};

use crate::support::{TestDir, project_bindings, shell_call};

/// One span or event as the subscriber saw it: its name (an event's message) and fields.
#[derive(Debug, Clone, Default)]
struct Seen {
    name: String,
    /// For an event, the name of the span it happened in.
    parent: Option<String>,
    fields: BTreeMap<String, String>,
    /// For a span: its id, its parent span's id, and the spans it follows from.
    id: u64,
    parent_id: Option<u64>,
    follows: Vec<u64>,
}

impl Seen {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }
}

#[derive(Default)]
struct Recorded {
    open: BTreeMap<u64, Seen>,
    spans: Vec<Seen>,
    events: Vec<Seen>,
}

/// What a [`Recorder`] keeps, and the signal of a span closing.
#[derive(Default)]
struct Shared {
    recorded: Mutex<Recorded>,
    closed: tokio::sync::Notify,
}

/// A `tracing-subscriber` layer that keeps every span (when it closes) and every event.
#[derive(Clone, Default)]
struct Recorder(Arc<Shared>);

impl Recorder {
    /// A recorder installed as this thread's default subscriber until the guard drops.
    fn installed() -> (Recorder, tracing::subscriber::DefaultGuard) {
        let recorder = Recorder::default();
        let guard =
            tracing::subscriber::set_default(tracing_subscriber::registry().with(recorder.clone()));
        (recorder, guard)
    }

    /// Waits, at most `bound`, until a span named `name` for which `done` holds has closed.
    async fn closed(
        &self,
        name: &str,
        done: impl Fn(&Seen) -> bool,
        bound: std::time::Duration,
    ) -> Option<Seen> {
        let deadline = tokio::time::Instant::now() + bound;
        loop {
            let signal = self.0.closed.notified();
            tokio::pin!(signal);
            signal.as_mut().enable();
            if let Some(seen) = self.spans(name).into_iter().find(|s| done(s)) {
                return Some(seen);
            }
            tokio::time::timeout_at(deadline, signal).await.ok()?;
        }
    }

    fn spans(&self, name: &str) -> Vec<Seen> {
        self.lock().spans.iter().filter(|s| s.name == name).cloned().collect()
    }

    fn events(&self, message: &str) -> Vec<Seen> {
        self.lock().events.iter().filter(|s| s.name == message).cloned().collect()
    }

    /// Every name and field value seen, spans still open included.
    fn everything(&self) -> Vec<String> {
        let r = self.lock();
        r.spans
            .iter()
            .chain(&r.events)
            .chain(r.open.values())
            .flat_map(|s| {
                std::iter::once(s.name.clone())
                    .chain(s.fields.iter().map(|(k, v)| format!("{k}={v}")))
            })
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Recorded> {
        self.0.recorded.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Recorder {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let parent_id = ctx.span(id).and_then(|s| s.parent()).map(|p| p.id().into_u64());
        let name = attrs.metadata().name().to_owned();
        let mut seen = Seen { name, id: id.into_u64(), parent_id, ..Seen::default() };
        attrs.record(&mut Fields(&mut seen.fields));
        self.lock().open.insert(id.into_u64(), seen);
    }

    fn on_follows_from(&self, id: &Id, cause: &Id, _: Context<'_, S>) {
        if let Some(seen) = self.lock().open.get_mut(&id.into_u64()) {
            seen.follows.push(cause.into_u64());
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        if let Some(seen) = self.lock().open.get_mut(&id.into_u64()) {
            values.record(&mut Fields(&mut seen.fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let name = fields.remove("message").unwrap_or_default();
        let parent = ctx.event_span(event).map(|s| s.name().to_owned());
        self.lock().events.push(Seen { name, parent, fields, ..Seen::default() });
    }

    fn on_close(&self, id: Id, _: Context<'_, S>) {
        let mut r = self.lock();
        if let Some(seen) = r.open.remove(&id.into_u64()) {
            r.spans.push(seen);
        }
        drop(r);
        self.0.closed.notify_waiters();
    }
}

/// `b` with its definition changed by `change`.
fn with_definition(b: &Binding, change: impl FnOnce(&mut HookDefinition)) -> Binding {
    let mut def = (*b.definition).clone();
    change(&mut def);
    Binding { definition: Arc::new(def), ..b.clone() }
}

/// A Cursor project whose hook denies `rm -rf`, as bindings.
fn denying_project(dir: &TestDir, command: &str) -> Vec<Binding> {
    dir.script(
        ".cursor/deny.sh",
        r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo '{"permission":"deny","user_message":"no rm -rf here"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
"#,
    );
    let text = format!(
        r#"{{"version": 1, "hooks": {{"beforeShellExecution": [{{"command": "{command}", "timeout": 30}}]}}}}"#
    );
    let path = dir.write(".cursor/hooks.json", &text);
    let parsed = hooks_format_cursor::parse(text.as_bytes(), &path).expect("hooks.json parses");
    project_bindings(hooks_format_cursor::PROJECT_FILE, &path, dir.path(), parsed.definitions)
}

#[tokio::test]
async fn a_deny_is_traced_with_its_hook_file_line_decision_and_duration() {
    let dir = TestDir::new();
    let bindings = denying_project(&dir, "./.cursor/deny.sh");
    let (recorder, _default) = Recorder::installed();

    let envelope = {
        let mut e = shell_call(dir.path(), "rm -rf build");
        e.session_id = Some("conv-7".into());
        e
    };
    let report = Dispatcher::new(DispatchConfig::default())
        .fire(&bindings, &envelope, &FireContext::default())
        .await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");

    let file = hooks_registry::canonicalize(&dir.path().join(".cursor/hooks.json")).unwrap();
    let [run] = recorder.spans("hooks.run").try_into().expect("one hooks.run span");
    assert_eq!(run.get("hook_id"), Some("beforeShellExecution[0]"));
    assert_eq!(run.get("format"), Some("cursor"));
    assert_eq!(run.get("source_kind"), Some("project_cursor_file"));
    assert_eq!(run.get("file"), Some(file.to_string().as_str()));
    assert_eq!(run.get("line"), Some("1"));
    assert_eq!(run.get("mode"), Some("blocking"));
    assert_eq!(run.get("timeout_ms"), Some("30000"));
    assert_eq!(run.get("decision"), Some("deny"));
    assert_eq!(run.get("exit_code"), Some("0"));
    assert_eq!(run.get("killed"), Some("false"));
    assert_eq!(run.get("capped"), Some("false"));
    assert_eq!(run.get("failed"), Some("false"));
    let pid: u32 = run.get("pid").expect("the pid is recorded").parse().expect("a pid");
    assert!(pid > 1);
    let ms: f64 = run.get("duration_ms").expect("a duration").parse().expect("a number");
    let expected = report.runs[0].outcome.as_ref().expect("ran").duration.as_secs_f64() * 1e3;
    assert!((ms - expected).abs() < 1e-6, "span {ms} ms, report {expected} ms");

    let [fire] = recorder.spans("hooks.fire").try_into().expect("one hooks.fire span");
    assert_eq!(fire.get("event"), Some("pre_tool_use"));
    assert_eq!(fire.get("session"), Some("conv-7"));
    assert_eq!(fire.get("bindings"), Some("1"));
    assert_eq!(fire.get("decision"), Some("deny"));
    assert_eq!(fire.get("decided_by"), Some("beforeShellExecution[0]"));
    assert_eq!(fire.get("short_circuited"), Some("true"));
    assert!(fire.get("duration_ms").is_some());

    let [denied] = recorder.events("hook denied").try_into().expect("one deny event");
    assert_eq!(denied.parent.as_deref(), Some("hooks.run"), "the event is inside its run");

    // An allowed call decides nothing worth an event.
    let allowed = shell_call(dir.path(), "ls");
    Dispatcher::new(DispatchConfig::default())
        .fire(&bindings, &allowed, &FireContext::default())
        .await;
    assert_eq!(recorder.events("hook denied").len(), 1);
    let runs = recorder.spans("hooks.run");
    assert_eq!(runs.last().and_then(|r| r.get("decision")), Some("allow"));
}

#[tokio::test]
async fn a_background_run_follows_from_its_firing_and_a_blocking_run_is_inside_it() {
    let dir = TestDir::new();
    let mut bindings = denying_project(&dir, "./.cursor/deny.sh");
    let background = with_definition(&bindings[0], |def| def.mode = ExecutionMode::Async);
    bindings.push(background);
    let (recorder, _default) = Recorder::installed();

    let dispatcher = Dispatcher::new(DispatchConfig::default());
    let report =
        dispatcher.fire(&bindings, &shell_call(dir.path(), "ls"), &FireContext::default()).await;
    assert_eq!(report.runs.len(), 2, "{report:#?}");
    // The background run's span closes when its task ends, which drain waits for.
    let drained = dispatcher.drain(std::time::Duration::from_secs(60)).await;
    assert!(drained.cancelled.is_empty() && drained.finished.len() == 1, "{drained:?}");

    let [fire] = recorder.spans("hooks.fire").try_into().expect("one hooks.fire span");
    let runs = recorder.spans("hooks.run");
    let run_of = |mode: &str| -> Seen {
        let [run] = runs
            .iter()
            .filter(|r| r.get("mode") == Some(mode))
            .cloned()
            .collect::<Vec<_>>()
            .try_into()
            .unwrap_or_else(|_| panic!("one {mode} run"));
        run
    };
    let (blocking, in_background) = (run_of("blocking"), run_of("async"));
    assert_eq!(blocking.parent_id, Some(fire.id), "a blocking run is inside its firing");
    assert!(blocking.follows.is_empty());
    assert_eq!(in_background.parent_id, None, "a background run outlives its firing");
    assert_eq!(in_background.follows, [fire.id], "and follows from it");
}

/// A detached fire-and-forget run outlives its firing like any background run: its
/// `hooks.run` span follows from the firing, carries the process's pid, and closes with the
/// exit the engine saw (it had no span at all before).
#[tokio::test]
async fn a_detached_run_has_its_span_following_from_its_firing_with_pid_and_exit() {
    let dir = TestDir::new();
    let mut bindings = denying_project(&dir, "./.cursor/deny.sh");
    bindings[0] = with_definition(&bindings[0], |def| {
        def.mode = ExecutionMode::FireAndForget;
        def.detach = true;
    });
    let (recorder, _default) = Recorder::installed();

    let dispatcher = Dispatcher::new(DispatchConfig::default());
    let report =
        dispatcher.fire(&bindings, &shell_call(dir.path(), "ls"), &FireContext::default()).await;
    assert!(
        matches!(
            report.runs[0].status,
            hooks_dispatch::RunStatus::Background { detached: true, .. }
        ),
        "{report:#?}"
    );
    let run = recorder
        .closed("hooks.run", |r| r.get("mode") == Some("fire_and_forget"), Duration::from_secs(30))
        .await
        .expect("the detached run's span closes when its process exits");
    let [fire] = recorder.spans("hooks.fire").try_into().expect("one hooks.fire span");
    assert_eq!(run.parent_id, None, "a detached run outlives its firing");
    assert_eq!(run.follows, [fire.id], "and follows from it");
    let pid: u32 = run.get("pid").expect("the pid is recorded").parse().expect("a pid");
    assert!(pid > 1);
    assert_eq!(run.get("exit_code"), Some("0"));
    assert_eq!(run.get("hook_id"), Some("beforeShellExecution[0]"));
    assert!(run.get("duration_ms").is_some());
}

#[tokio::test]
async fn no_command_text_environment_value_argument_or_output_reaches_a_field() {
    const SECRET: &str = "s3cr3t";
    let dir = TestDir::new();
    // The secret is in the hook's command, in its environment (a variable an earlier hook
    // set for the session), in the tool call's arguments and in the hook's own output.
    let bindings = denying_project(&dir, "TOKEN=s3cr3t-cmd ./.cursor/deny.sh --key s3cr3t-arg");
    dir.script(
        ".cursor/deny.sh",
        "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"s3cr3t-out\",\"agent_message\":\"s3cr3t-out\"}'\n",
    );
    let ctx = FireContext {
        session_env: vec![("API_KEY".into(), "s3cr3t-env".into())],
        ..FireContext::default()
    };
    let (recorder, _default) = Recorder::installed();

    let report = Dispatcher::new(DispatchConfig::default())
        .fire(&bindings, &shell_call(dir.path(), "curl -H 'auth: s3cr3t-tool'"), &ctx)
        .await;
    assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
    assert_eq!(report.verdict.reason.as_deref(), Some("s3cr3t-out"), "the hook ran as written");

    let everything = recorder.everything();
    assert!(everything.iter().any(|f| f == "decision=deny"), "{everything:#?}");
    let leaks: Vec<&String> = everything.iter().filter(|f| f.contains(SECRET)).collect();
    assert!(leaks.is_empty(), "secrets in tracing fields: {leaks:#?}");
}

#[test]
fn publishes_trust_decisions_the_pin_and_guard_refusals_are_events() {
    use hooks_registry::{HookRegistry, SourceUpdate};
    use hooks_schema::{HookSourceId, TrustDecision};
    use hooks_trust::CommandExecutionPosture;

    let dir = TestDir::new();
    let text = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny.sh --key s3cr3t"}]}}"#;
    let path = dir.write(".cursor/hooks.json", text);
    dir.script(".cursor/deny.sh", "#!/bin/sh\necho '{}'\n");
    let file = hooks_registry::canonicalize(&path).unwrap();
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    let (recorder, _default) = Recorder::installed();

    let mut registry = HookRegistry::new();
    registry.add_project_root(root.clone());
    let source = HookSourceId::new(hooks_format_cursor::PROJECT_FILE, file.clone());
    registry.upsert_source(SourceUpdate {
        source: source.clone(),
        parsed: hooks_format_cursor::parse(text.as_bytes(), &path),
        project_root: Some(root),
        project_dir: None,
        trust: TrustDecision::Active { reason: "the run auto-approves".into() },
    });
    registry.pin(CommandExecutionPosture::AutoApproves);

    let published = recorder.events("snapshot published");
    let last = published.last().expect("publishes are events");
    assert_eq!(last.get("generation"), Some(registry.generation().get().to_string().as_str()));
    assert_eq!(last.get("revision"), Some(registry.revision().get().to_string().as_str()));
    assert_eq!(last.get("pinned"), Some("true"));
    assert!(
        published.iter().any(|p| p.get("reason").is_some_and(|r| r.contains("bindings"))),
        "{published:#?}"
    );
    let [trust] = recorder.events("trust decision").try_into().expect("one trust decision");
    assert_eq!(trust.get("file"), Some(file.to_string().as_str()));
    assert_eq!(trust.get("active"), Some("true"));
    assert_eq!(trust.get("why"), Some("the run auto-approves"));
    let [pin] = recorder.events("run pinned").try_into().expect("one pin");
    assert_eq!(pin.get("posture"), Some("auto_approves"));

    let decision = hooks_guard::can_write_files(&[&path], dir.path(), &registry.snapshot());
    assert!(!decision.is_allowed());
    let refused = recorder.events("guard refused an edit");
    let hit = refused.iter().find(|e| e.get("role") == Some("hook_file")).expect("a refusal");
    assert_eq!(hit.get("protected"), Some(file.to_string().as_str()));
    assert_eq!(hit.get("why"), Some("same_path"));
    assert!(
        hooks_guard::can_write_files(
            &[dir.path().join("src/lib.rs")],
            dir.path(),
            &registry.snapshot()
        )
        .is_allowed()
    );
    assert_eq!(
        recorder.events("guard refused an edit").len(),
        refused.len(),
        "an allowed edit is no event"
    );

    let leaks: Vec<String> =
        recorder.everything().into_iter().filter(|f| f.contains("s3cr3t")).collect();
    assert!(leaks.is_empty(), "{leaks:#?}");
}

#[test]
fn watcher_reloads_their_file_diagnostics_and_watch_diagnostics_are_events() {
    use hooks_registry::RegistryHandle;
    use hooks_watcher::{WatchedPlace, WatcherEvent};

    const LIMIT: std::time::Duration = std::time::Duration::from_secs(20);
    let dir = TestDir::new();
    let hook = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./a.sh --key s3cr3t"}]}}"#;
    dir.write("repo/.cursor/hooks.json", hook);
    let root = hooks_registry::canonicalize(&dir.path().join("repo")).unwrap();
    let file = root.join(std::path::Path::new(".cursor/hooks.json")).unwrap();
    let (recorder, _default) = Recorder::installed();
    // Started under this thread's subscriber: its worker thread reports to it too.
    let registry = RegistryHandle::default();
    let watcher = crate::support::auto_approving_watcher(&registry);
    let events = watcher.subscribe();
    let wait = |what: &str, pick: &dyn Fn(&WatcherEvent) -> bool| -> WatcherEvent {
        let deadline = std::time::Instant::now() + LIMIT;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match events.recv_timeout(left) {
                Ok(e) if pick(&e) => return e,
                Ok(_) => {}
                Err(e) => panic!("{what}: {e}"),
            }
        }
    };
    let attached = watcher.add_root(root.as_path()).wait_timeout(LIMIT);
    assert_eq!(attached.expect("attached in time").expect("attached"), root);
    let [first] = recorder.events("watcher reloaded").try_into().expect("the first load");
    assert_eq!(first.get("place"), Some(root.to_string().as_str()));
    assert_eq!(first.get("loads"), Some("1"));
    assert_eq!(first.get("sources"), Some("1"));
    assert_eq!(first.get("errors"), Some("0"));
    assert_eq!(first.get("warnings"), Some("0"));
    // The attachment's future resolves before subscribers hear of it; its event is traced
    // before the watcher's own `Attached` event is sent.
    wait(
        "the attachment announced",
        &|e| matches!(e, WatcherEvent::Attached { place: WatchedPlace::Root(r), result: Ok(()) } if *r == root),
    );
    assert!(!recorder.events("watch attached").is_empty());

    // The worker thread reloads the changed file: its event, then its diagnostic's.
    dir.write(
        "repo/.cursor/hooks.json",
        "{\"version\": 1,\n \"hooks\": {\"beforeShellExecution\": [{\"command\": \"./b.sh s3cr3t\"}]},\n \"s3cr3tKey\": 1}",
    );
    let reloaded = wait(
        "the change reloaded",
        &|e| matches!(e, WatcherEvent::Reloaded { place: WatchedPlace::Root(r), loads: 2, .. } if *r == root),
    );
    let WatcherEvent::Reloaded { generation, .. } = reloaded else { unreachable!() };
    let second = recorder.events("watcher reloaded").pop().expect("the reload is an event");
    assert_eq!(second.get("loads"), Some("2"));
    assert_eq!(second.get("generation"), Some(generation.get().to_string().as_str()));
    assert_eq!(second.get("warnings"), Some("1"));
    let diagnostic = recorder.events("file diagnostic").pop().expect("its diagnostic");
    assert_eq!(diagnostic.get("file"), Some(file.to_string().as_str()));
    assert_eq!(diagnostic.get("code"), Some("unknown_key"));
    assert_eq!(diagnostic.get("severity"), Some("warning"));
    assert_eq!(diagnostic.get("line"), Some("3"));

    // A root gone missing is the watcher's own diagnostic.
    std::fs::remove_dir_all(root.as_path()).expect("rm -r root");
    wait("the root missing", &|e| {
        matches!(e, WatcherEvent::Diagnostic { place: WatchedPlace::Root(r), diagnostic }
            if *r == root && diagnostic.code.as_deref() == Some("root_missing"))
    });
    let missing = recorder.events("watch diagnostic");
    let missing = missing.iter().find(|e| e.get("code") == Some("root_missing")).expect("an event");
    assert_eq!(missing.get("place"), Some(root.to_string().as_str()));
    assert_eq!(missing.get("severity"), Some("error"));
    assert_eq!(missing.get("file"), Some(root.to_string().as_str()));

    let leaks: Vec<String> =
        recorder.everything().into_iter().filter(|f| f.contains("s3cr3t")).collect();
    assert!(leaks.is_empty(), "{leaks:#?}");
}

#[tokio::test]
async fn a_run_killed_at_its_timeout_one_whose_output_was_cut_and_one_never_started_say_so() {
    let dir = TestDir::new();
    dir.script(
        ".cursor/loud.sh",
        "#!/bin/sh\ncat >/dev/null\nhead -c 8000 /dev/zero | tr '\\0' x\necho\n",
    );
    dir.script(".cursor/slow.sh", "#!/bin/sh\ncat >/dev/null\nexec sleep 30\n");
    let text = r#"{"version": 1, "hooks": {"beforeShellExecution": [
        {"command": "./.cursor/loud.sh"},
        {"command": "./.cursor/slow.sh", "timeout": 1}
    ]}}"#;
    let path = dir.write(".cursor/hooks.json", text);
    let parsed = hooks_format_cursor::parse(text.as_bytes(), &path).expect("hooks.json parses");
    let bindings =
        project_bindings(hooks_format_cursor::PROJECT_FILE, &path, dir.path(), parsed.definitions);
    let (recorder, _default) = Recorder::installed();

    let mut envelope = shell_call(dir.path(), "ls");
    envelope.turn_id = Some("turn-3".into());
    let config = DispatchConfig {
        stdout_cap: 1024,
        kill_grace: std::time::Duration::ZERO,
        ..DispatchConfig::default()
    };
    let report = Dispatcher::new(config).fire(&bindings, &envelope, &FireContext::default()).await;
    assert_eq!(report.runs.len(), 2, "{report:#?}");

    let [fire] = recorder.spans("hooks.fire").try_into().expect("one hooks.fire span");
    assert_eq!(fire.get("turn"), Some("turn-3"));
    assert_eq!(fire.get("cwd"), Some(dir.path().display().to_string().as_str()));
    assert_eq!(fire.get("bindings"), Some("2"));
    let [loud, slow] = recorder.spans("hooks.run").try_into().expect("two hooks.run spans");
    assert_eq!(loud.get("line"), Some("2"));
    assert_eq!(loud.get("capped"), Some("true"), "{loud:#?}");
    assert_eq!(loud.get("killed"), Some("false"));
    assert_eq!(loud.get("exit_code"), Some("0"));
    assert!(loud.get("timeout_ms").is_some(), "Cursor's default timeout");
    assert_eq!(slow.get("line"), Some("3"));
    assert_eq!(slow.get("timeout_ms"), Some("1000"));
    assert_eq!(slow.get("timed_out"), Some("true"), "{slow:#?}");
    assert_eq!(slow.get("killed"), Some("true"));
    assert_eq!(slow.get("signal"), Some("9"));
    assert_eq!(slow.get("exit_code"), None);
    assert_eq!(slow.get("capped"), Some("false"));
    assert_eq!(slow.get("failed"), Some("true"));
    assert!(slow.get("queued_ms").is_some());
    let failed = recorder.events("hook failed");
    assert!(failed.iter().any(|e| e.parent.as_deref() == Some("hooks.run")), "{failed:#?}");

    // A payload over the cap starts nothing: the span says why.
    let config = DispatchConfig { payload_cap: 16, ..DispatchConfig::default() };
    Dispatcher::new(config).fire(&bindings[..1], &envelope, &FireContext::default()).await;
    let unstarted = recorder.spans("hooks.run").pop().expect("a third hooks.run span");
    assert_eq!(unstarted.get("not_started"), Some("payload_too_large"), "{unstarted:#?}");
    assert_eq!(unstarted.get("pid"), None);
    assert_eq!(unstarted.get("killed"), Some("false"));
}

/// `hooks serve` logs on stderr only: with every span and event on, its stdout still carries
/// nothing but protocol messages, and the spans are on stderr.
#[test]
fn hooks_serve_logs_to_stderr_only() {
    use std::io::{BufRead, BufReader, Read, Write};

    use crate::cli::spawn_hooks;

    let dir = TestDir::new();
    dir.script(
        ".cursor/deny.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\",\"user_message\":\"no\"}' ;; *) echo '{}' ;; esac\n",
    );
    dir.write(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./.cursor/deny.sh"}]}}"#,
    );
    let root = hooks_registry::canonicalize(dir.path()).unwrap();
    let state = TestDir::new();
    let args = ["serve", "--stdio", "--log-level", "debug", "--log-format", "json"];
    let mut child = spawn_hooks(dir.path(), &args, state.path(), &[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut err = child.stderr.take().expect("stderr");
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    // Every line on stdout is a protocol message (the test harness's own header aside).
    let mut stdout = Vec::new();
    let mut call = |id: u32, method: &str, params: serde_json::Value| -> serde_json::Value {
        let request = serde_json::json!({ "id": id, "method": method, "params": params });
        writeln!(stdin, "{request}").expect("write a request");
        loop {
            let line = lines.next().expect("an answer before stdout ends").expect("read stdout");
            if line.trim().is_empty() || (line.starts_with("running ") && line.ends_with(" test")) {
                continue;
            }
            let message: serde_json::Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carried a non-protocol line {line:?}: {e}"));
            stdout.push(line);
            if message["id"] == id {
                return message;
            }
            assert!(message.get("method").is_some(), "{message}");
        }
    };
    call(1, "set_posture", serde_json::json!({ "window": 1, "posture": "auto_approves" }));
    let added = call(2, "add_root", serde_json::json!({ "root": root }));
    assert_eq!(added["result"]["effect"], "added", "{added}");
    let started = serde_json::json!({ "envelope": { "event": "session_start", "cwd": root } });
    let started = call(3, "exchange_appended", started);
    assert_eq!(started["result"]["started"], true, "{started}");
    let envelope = serde_json::json!({
        "event": "pre_tool_use",
        "cwd": root,
        "tool": { "name": "Shell", "kind": "shell", "args": { "command": "rm -rf /" } }
    });
    let answer = call(4, "fire", serde_json::json!({ "envelope": envelope }));
    assert_eq!(answer["result"]["verdict"]["decision"], "deny", "{answer}");
    drop(stdin);
    let status = child.wait().expect("serve exits at the end of its input");
    let stderr = stderr.join().expect("stderr reader");
    assert!(status.success(), "{stderr}");
    assert!(!stdout.iter().any(|l| l.contains("hooks.run")), "{stdout:#?}");
    let logged: Vec<serde_json::Value> =
        stderr.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert!(
        logged.iter().any(|e| e["message"] == "hook denied" && e["span"]["name"] == "hooks.run"),
        "{stderr}"
    );
    assert!(logged.iter().any(|e| e["message"] == "snapshot published"), "{stderr}");
}
