//! Tests of the outbox: the file lifecycle, job lookup, recovery rules, and crash tests
//! that SIGKILL a child test process at marked points and recover its jobs.

use std::{
    io::{BufRead, BufReader},
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Duration,
};

use hooks_schema::{Binding, Delivery, ExecutionMode};

use super::{JobState, Outbox, OutboxJob, find_binding};
use crate::{
    DispatchConfig, Dispatcher, FireContext, RunStatus,
    testing::{
        CRASH_AT_VAR, RUNTIME_VAR, assert_group_gone, binding, sh_def, test_env, tool_envelope,
    },
};

fn durable(id: &str, script: &str, source: &str) -> Binding {
    let mut def = sh_def(id, script);
    def.mode = ExecutionMode::Async;
    def.delivery = Delivery::Durable;
    binding(def, source)
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn dispatcher(root: &Path) -> Dispatcher {
    Dispatcher::new(DispatchConfig {
        runtime_dir: Some(root.to_path_buf()),
        outbox_retry_age: Duration::ZERO,
        ..DispatchConfig::default()
    })
}

#[test]
fn lifecycle_writes_atomically_and_privately() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = Outbox::new(dir.path().join("outbox"));
    let b = durable("h", "true", "/p/a.json");
    let mut job = OutboxJob::new(&b, &tool_envelope("ls"));
    outbox.write_pending(&job).unwrap();
    let pending = outbox.job_path(JobState::Pending, &job.job_id);
    assert_eq!(std::fs::metadata(&pending).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(names(&dir.path().join("outbox/pending")), [format!("{}.json", job.job_id)]);
    outbox.mark_started(&mut job).unwrap();
    let (listed, errors) = outbox.list(JobState::Pending);
    assert!(errors.is_empty());
    assert_eq!(listed, [job.clone()]);
    assert_eq!(listed[0].retries, 1);
    outbox.finish(&mut job, JobState::Done, None).unwrap();
    assert!(!pending.exists());
    assert!(outbox.is_finished(&job.job_id));
    assert_eq!(outbox.list(JobState::Done).0[0].state, JobState::Done);
    assert_eq!(job.job_id.len(), 16);
}

#[test]
fn write_pending_returns_with_the_complete_file_under_its_name() {
    // A power loss cannot be simulated here; what is checked is the state `write_pending`
    // promises when it returns: every missing folder created, the job's file complete under
    // its final name, no temporary file left beside it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("runtime/hooks/outbox");
    let outbox = Outbox::new(root.clone());
    let b = durable("h", "true", "/p/a.json");
    let job = OutboxJob::new(&b, &tool_envelope("cat ~/.ssh/id_rsa"));
    outbox.write_pending(&job).unwrap();
    let path = outbox.job_path(JobState::Pending, &job.job_id);
    assert_eq!(names(&root), ["pending"]);
    assert_eq!(names(&root.join("pending")), [format!("{}.json", job.job_id)]);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes, serde_json::to_vec_pretty(&job).unwrap());
    assert_eq!(serde_json::from_slice::<OutboxJob>(&bytes).unwrap(), job);
    assert_eq!(
        std::fs::metadata(root.join("pending")).unwrap().permissions().mode() & 0o777,
        0o700
    );
}

#[test]
fn a_failed_write_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    // The outbox root is a file: its folders cannot be created.
    std::fs::write(dir.path().join("outbox"), "").unwrap();
    let outbox = Outbox::new(dir.path().join("outbox"));
    let job = OutboxJob::new(&durable("h", "true", "/p/a.json"), &tool_envelope("ls"));
    let err = outbox.write_pending(&job).unwrap_err();
    let crate::DispatchError::Io { action, path, .. } = &err else { panic!("{err:?}") };
    assert_eq!(
        (*action, path.as_path()),
        ("create folder", dir.path().join("outbox/pending").as_path())
    );
    assert!(err.to_string().contains("outbox/pending"), "{err}");
}

#[test]
fn list_reports_invalid_files_and_skips_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = Outbox::new(dir.path().to_path_buf());
    std::fs::create_dir_all(dir.path().join("pending")).unwrap();
    std::fs::write(dir.path().join("pending/bad.json"), "{").unwrap();
    std::fs::write(dir.path().join("pending/.x.json.tmp"), "{").unwrap();
    std::fs::write(dir.path().join("pending/.y.json"), "{").unwrap();
    let (jobs, errors) = outbox.list(JobState::Pending);
    assert!(jobs.is_empty());
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("bad.json"), "{}", errors[0]);
}

#[test]
fn same_id_hooks_of_two_files_stay_distinguishable() {
    let a = durable("same", "true", "/p/a.json");
    let b = durable("same", "true", "/u/b.json");
    let bindings = [a.clone(), b.clone()];
    let job = OutboxJob::new(&b, &tool_envelope("ls"));
    assert_eq!(find_binding(&bindings, &job), Some(&b));
    let job_a = OutboxJob::new(&a, &tool_envelope("ls"));
    assert_eq!(find_binding(&bindings, &job_a), Some(&a));
    // A job of a file that is gone resolves to nothing, whether the id is shared by one
    // other file or by several: it is never run as another file's hook.
    let gone = OutboxJob::new(&durable("same", "true", "/gone.json"), &tool_envelope("ls"));
    assert_eq!(find_binding(&bindings, &gone), None);
    assert_eq!(find_binding(std::slice::from_ref(&a), &gone), None);
    // Same path, another kind (the file was the user's, now it is a project's): not the same
    // source either.
    let mut other_kind = a.clone();
    other_kind.source.kind = hooks_testing::kinds::USER_CLAUDE_SETTINGS;
    assert_eq!(find_binding(std::slice::from_ref(&other_kind), &job_a), None);
}

/// A durable job recorded for a project file that was deleted since is moved to `failed/`
/// with the reason, and the hook another project defines under the same id and event never
/// runs in its place (it would run that project's command on the first project's envelope).
#[tokio::test]
async fn a_job_from_a_deleted_project_file_never_runs_another_projects_hook() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("other-project-hook-ran");
    let project_hook = |file: &str, root: &str, script: &str| {
        let mut b = durable("notify", script, file);
        b.project_root = Some(hooks_schema::AbsPathBuf::new(root.into()).unwrap());
        b
    };
    let deleted = project_hook("/repo-a/.chrys/hooks/hooks.yaml", "/repo-a", "true");
    let other = project_hook(
        "/repo-b/.chrys/hooks/hooks.yaml",
        "/repo-b",
        &format!("echo ran >> '{}'", ran.display()),
    );
    let outbox = Outbox::new(dir.path().join("outbox"));
    let job = OutboxJob::new(&deleted, &tool_envelope("ls"));
    outbox.write_pending(&job).unwrap();

    // The engine restarts: repo-a's file is gone, repo-b's defines the same id and event.
    let bindings = [other.clone()];
    let resolve = |j: &OutboxJob| find_binding(&bindings, j).cloned();
    let d = dispatcher(dir.path());
    let report = d.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert!(report.retried.is_empty(), "{report:?}");
    let why = "hook `notify` of /repo-a/.chrys/hooks/hooks.yaml (project_claude_settings) no longer exists";
    assert_eq!(report.failed, [(job.job_id.clone(), why.to_owned())]);
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 0);
    assert!(d.background_running() == 0);
    assert!(!ran.exists(), "another project's hook ran for the deleted file's job");

    assert!(outbox.list(JobState::Pending).0.is_empty());
    let failed = outbox.list(JobState::Failed).0;
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].job_id, job.job_id);
    assert_eq!(failed[0].source, deleted.source.key());
    assert_eq!(failed[0].error.as_deref(), Some(why));
    assert_eq!(failed[0].retries, 0, "it never started");
}

#[tokio::test]
async fn durable_runs_land_in_done_and_failed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dispatcher(dir.path());
    let bindings = [
        durable("ok", "true", "/p/a.json"),
        durable("bad", "echo broken >&2; exit 3", "/p/a.json"),
    ];
    let report = d.fire(&bindings, &tool_envelope("ls"), &FireContext::default()).await;
    for run in &report.runs {
        assert!(matches!(&run.status, RunStatus::Background { job_id: Some(_), .. }), "{run:?}");
    }
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 2);
    let outbox = d.outbox().unwrap();
    assert!(outbox.list(JobState::Pending).0.is_empty());
    let done = outbox.list(JobState::Done).0;
    let failed = outbox.list(JobState::Failed).0;
    assert_eq!((done.len(), failed.len()), (1, 1));
    assert_eq!(done[0].hook_id.as_str(), "ok");
    assert_eq!((done[0].retries, done[0].exit_code), (1, Some(0)));
    assert_eq!(failed[0].exit_code, Some(3));
    assert_eq!(failed[0].error.as_deref(), Some("exit_code=3"));
    assert_eq!(failed[0].stderr_tail.as_deref(), Some("broken\n"));
}

#[tokio::test]
async fn recovery_rules() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = Outbox::new(dir.path().join("outbox"));
    let env = tool_envelope("ls");
    let live = durable("live", "true", "/p/a.json");
    let mut off_def = sh_def("off", "true");
    off_def.enabled = false;
    let off = binding(off_def, "/p/a.json");
    let gone = durable("gone", "true", "/p/a.json");
    let mut exhausted = OutboxJob::new(&live, &env);
    exhausted.retries = 3;
    let finished = OutboxJob::new(&live, &env);
    let jobs = [
        exhausted.clone(),
        OutboxJob::new(&off, &env),
        OutboxJob::new(&gone, &env),
        finished.clone(),
        OutboxJob::new(&live, &env),
    ];
    for j in &jobs {
        outbox.write_pending(j).unwrap();
    }
    // A crash after writing `done/` but before removing `pending/`.
    let mut f = finished.clone();
    f.state = JobState::Done;
    std::fs::create_dir_all(dir.path().join("outbox/done")).unwrap();
    std::fs::write(outbox.job_path(JobState::Done, &f.job_id), serde_json::to_vec(&f).unwrap())
        .unwrap();

    let bindings = [live.clone(), off.clone()];
    let resolve = |j: &OutboxJob| find_binding(&bindings, j).cloned();
    let d = dispatcher(dir.path());
    let report = d.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert_eq!(report.completed, std::slice::from_ref(&finished.job_id));
    assert_eq!(report.retried, [jobs[4].job_id.clone()]);
    let mut failed: Vec<&str> = report.failed.iter().map(|(_, why)| why.as_str()).collect();
    failed.sort_unstable();
    assert_eq!(
        failed,
        [
            "gave up after 3 attempts",
            "hook `gone` of /p/a.json (project_claude_settings) no longer exists",
            "hook `off` is disabled",
        ]
    );
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 1);
    assert!(outbox.list(JobState::Pending).0.is_empty());
    assert_eq!(outbox.list(JobState::Done).0.len(), 2);
    assert_eq!(outbox.list(JobState::Failed).0.len(), 3);

    // A job started too recently is left alone.
    let recent = OutboxJob::new(&live, &env);
    outbox.write_pending(&recent).unwrap();
    let cautious = Dispatcher::new(DispatchConfig {
        runtime_dir: Some(dir.path().to_path_buf()),
        outbox_retry_age: Duration::from_secs(3600),
        ..DispatchConfig::default()
    });
    let report = cautious.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert_eq!(report.too_recent, [recent.job_id]);
}

/// A format's own outbox settings (Chrys's `outbox_max_retries`, `outbox_retry_age_seconds`)
/// for the hook's project root decide its jobs' recovery instead of the dispatcher's.
#[tokio::test]
async fn recovery_follows_the_formats_own_outbox_settings_in_the_hooks_place() {
    use hooks_schema::{AbsPathBuf, RunSettings};
    let dir = tempfile::tempdir().unwrap();
    let outbox = Outbox::new(dir.path().join("outbox"));
    let env = tool_envelope("ls");
    let mut hook = durable("h", "true", "/p/.chrys/hooks/hooks.yaml");
    hook.project_root = Some(AbsPathBuf::new("/p".into()).unwrap());
    let mut once_started = OutboxJob::new(&hook, &env);
    once_started.retries = 1;
    outbox.write_pending(&once_started).unwrap();
    let resolve = |j: &OutboxJob| find_binding(std::slice::from_ref(&hook), j).cloned();
    let with = |s: RunSettings, root: &str| {
        let mut t = crate::RunSettingsTable::default();
        t.set(hooks_testing::TEST_FORMAT, Some(root.into()), s);
        FireContext { run_settings: std::sync::Arc::new(t), ..FireContext::default() }
    };
    let d = dispatcher(dir.path());
    // The format asks for an hour's wait: the job is too recent (the dispatcher's is zero).
    let hour =
        RunSettings { outbox_retry_age: Some(Duration::from_secs(3600)), ..RunSettings::default() };
    let report = d.recover_outbox(&resolve, &with(hour, "/p")).await.unwrap();
    assert_eq!(report.too_recent, [once_started.job_id.clone()]);
    // Settings of another place do not apply to this hook.
    let one = RunSettings { outbox_max_retries: Some(1), ..RunSettings::default() };
    let report = d.recover_outbox(&resolve, &with(hour, "/elsewhere")).await.unwrap();
    assert!(report.too_recent.is_empty() && report.failed.is_empty(), "{report:?}");
    assert_eq!(report.retried, [once_started.job_id.clone()], "the dispatcher's settings");
    d.drain(Duration::from_secs(10)).await;
    // One start allowed, one made: it gives up (the dispatcher's three would retry it).
    let mut again = OutboxJob::new(&hook, &env);
    again.retries = 1;
    outbox.write_pending(&again).unwrap();
    let report = d.recover_outbox(&resolve, &with(one, "/p")).await.unwrap();
    assert!(report.retried.is_empty(), "{report:?}");
    assert_eq!(report.failed, [(again.job_id.clone(), "gave up after 1 attempts".to_owned())]);
}

/// The hook the crash tests deliver: appends a line to `<runtime>/runs`.
fn counting_hook(root: &Path) -> Binding {
    durable("count", &format!("echo run >> '{}'", root.join("runs").display()), "/p/a.json")
}

fn runs(root: &Path) -> usize {
    std::fs::read_to_string(root.join("runs")).map_or(0, |s| s.lines().count())
}

/// Delivers one durable job and drains it. Run directly it checks the happy path; run as
/// the child of a crash test (with [`CRASH_AT_VAR`] set) it stops at the named point and
/// waits to be killed.
#[tokio::test]
async fn durable_job_runs_once_through_the_outbox() {
    // A crash test's child works in its parent's folder and is killed: a folder of its own
    // would be left behind.
    let own;
    let root: PathBuf = match test_env(RUNTIME_VAR) {
        Some(root) => root.into(),
        None => {
            own = tempfile::tempdir().unwrap();
            own.path().to_path_buf()
        }
    };
    let d = dispatcher(&root);
    d.fire(&[counting_hook(&root)], &tool_envelope("ls"), &FireContext::default()).await;
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 1);
    assert_eq!(runs(&root), 1);
    let outbox = d.outbox().unwrap();
    assert!(outbox.list(JobState::Pending).0.is_empty());
    assert_eq!(outbox.list(JobState::Done).0.len(), 1);
}

/// Runs [`durable_job_runs_once_through_the_outbox`] in a child process, SIGKILLs it at
/// `point`, and returns the hook's process group it reported (0 when none was spawned).
fn crash_child_at(root: &Path, point: &str) -> i32 {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([
            "outbox::tests::durable_job_runs_once_through_the_outbox",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CRASH_AT_VAR, point)
        .env(RUNTIME_VAR, root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // libtest prints `test <name> ... ` without a newline before the test runs.
            if let Some((_, rest)) = line.split_once("CRASHPOINT ") {
                let _ = tx.send(rest.to_owned());
                return;
            }
        }
    });
    let marker = rx.recv_timeout(Duration::from_secs(60));
    child.kill().unwrap();
    child.wait().unwrap();
    let marker = marker.expect("the child reached the crash point");
    let (name, pid) = marker.split_once(' ').unwrap();
    assert_eq!(name, point);
    pid.parse().unwrap()
}

/// Recovers the outbox of a crashed engine and checks the job ran once more and finished.
async fn recover_and_check(root: &Path, runs_before: usize, retries_before: u32) {
    let outbox = Outbox::new(root.join("outbox"));
    let pending = outbox.list(JobState::Pending).0;
    assert_eq!(pending.len(), 1, "the job survived the crash");
    assert_eq!(pending[0].retries, retries_before);
    assert!(outbox.list(JobState::Done).0.is_empty());
    let hook = counting_hook(root);
    let d = dispatcher(root);
    let resolve = |j: &OutboxJob| find_binding(std::slice::from_ref(&hook), j).cloned();
    let report = d.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert_eq!(report.retried, [pending[0].job_id.clone()]);
    assert_eq!(d.drain(Duration::from_secs(10)).await.finished.len(), 1);
    assert_eq!(runs(root), runs_before + 1, "retried exactly once");
    assert!(outbox.list(JobState::Pending).0.is_empty());
    let done = outbox.list(JobState::Done).0;
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].job_id, pending[0].job_id);
    assert_eq!(done[0].retries, retries_before + 1);
    // A second start finds nothing to do.
    let again = d.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert!(again.retried.is_empty() && again.failed.is_empty());
}

#[tokio::test]
async fn crash_between_write_and_spawn_loses_no_job() {
    let dir = tempfile::tempdir().unwrap();
    crash_child_at(dir.path(), "after_write");
    assert_eq!(runs(dir.path()), 0);
    recover_and_check(dir.path(), 0, 0).await;
}

#[tokio::test]
async fn crash_between_spawn_and_completion_loses_no_job() {
    let dir = tempfile::tempdir().unwrap();
    let pgid = crash_child_at(dir.path(), "after_spawn");
    assert!(pgid > 0);
    // The orphaned hook may or may not have run its line; stop it and count.
    let _ = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGKILL,
    );
    assert_group_gone(pgid, Duration::from_secs(2));
    let before = runs(dir.path());
    recover_and_check(dir.path(), before, 1).await;
}

#[tokio::test]
async fn crash_between_slot_and_spawn_loses_no_job() {
    let dir = tempfile::tempdir().unwrap();
    crash_child_at(dir.path(), "after_start");
    assert_eq!(runs(dir.path()), 0);
    recover_and_check(dir.path(), 0, 1).await;
}

#[tokio::test]
async fn crash_between_finishing_and_unlinking_pending_runs_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    crash_child_at(dir.path(), "after_finish_write");
    assert_eq!(runs(dir.path()), 1);
    let outbox = Outbox::new(dir.path().join("outbox"));
    let pending = outbox.list(JobState::Pending).0;
    assert_eq!(pending.len(), 1);
    assert!(outbox.is_finished(&pending[0].job_id));
    let hook = counting_hook(dir.path());
    let resolve = |j: &OutboxJob| find_binding(std::slice::from_ref(&hook), j).cloned();
    let d = dispatcher(dir.path());
    let report = d.recover_outbox(&resolve, &FireContext::default()).await.unwrap();
    assert_eq!(report.completed, std::slice::from_ref(&pending[0].job_id));
    assert!(report.retried.is_empty());
    assert!(outbox.list(JobState::Pending).0.is_empty());
    assert_eq!(outbox.list(JobState::Done).0.len(), 1);
    assert_eq!(runs(dir.path()), 1);
}
