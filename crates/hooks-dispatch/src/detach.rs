//! Detached hooks: a new process session, output appended to a log file, never killed.

use std::{
    fs::OpenOptions,
    os::unix::fs::OpenOptionsExt,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use hooks_schema::{HookId, Invocation, SpawnFailure, SpawnFailureKind};

use crate::{
    files::{ProvidedFiles, ensure_private_dir, sanitize},
    runner::{SpawnStdio, spawn},
    spawner::Proc,
};

/// A started detached hook.
pub(crate) struct Detached {
    pub(crate) child: Proc,
    pub(crate) files: ProvidedFiles,
    pub(crate) log: Option<PathBuf>,
}

/// The log file of a detached run: `<runtime>/logs/<session>/<hook>.<unix seconds>.<token>.log`.
pub(crate) fn log_path(runtime_dir: &Path, session: Option<&str>, hook: &HookId) -> PathBuf {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    runtime_dir
        .join("logs")
        .join(session.map_or_else(|| "no-session".to_owned(), sanitize))
        .join(format!("{}.{secs}.{}.log", sanitize(hook.as_str()), crate::files::unique_token()))
}

/// Starts `inv` detached: its own session, stdout and stderr appended to a log file (mode
/// 0600) under the runtime directory, or discarded when there is none. No timeout applies.
pub(crate) fn start(
    inv: &Invocation,
    runtime_dir: Option<&Path>,
    session: Option<&str>,
    hook: &HookId,
) -> Result<Detached, SpawnFailure> {
    let fail = |message: String| SpawnFailure { kind: SpawnFailureKind::Other, message };
    let files = ProvidedFiles::create(&inv.files, runtime_dir).map_err(|e| fail(e.to_string()))?;
    let (log_file, log) = match runtime_dir {
        Some(r) => {
            let path = log_path(r, session, hook);
            if let Some(parent) = path.parent() {
                ensure_private_dir(parent)
                    .map_err(|e| fail(format!("cannot create `{}`: {e}", parent.display())))?;
            }
            let f = OpenOptions::new()
                .append(true)
                .create(true)
                .mode(0o600)
                .open(&path)
                .map_err(|e| fail(format!("cannot open `{}`: {e}", path.display())))?;
            (f, Some(path))
        }
        None => {
            let f = OpenOptions::new()
                .write(true)
                .open("/dev/null")
                .map_err(|e| fail(format!("cannot open /dev/null: {e}")))?;
            (f, None)
        }
    };
    let child = spawn(inv, &files, SpawnStdio::Detached(log_file))?.proc;
    Ok(Detached { child, files, log })
}
