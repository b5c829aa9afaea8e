//! `HookConfigWatcher`: the public face of the watcher, one platform watcher for every root.

use std::{
    future::Future,
    path::Path,
    pin::Pin,
    sync::{
        Arc,
        mpsc::{self, Receiver, Sender},
    },
    task::{Context, Poll, Wake, Waker},
    thread::JoinHandle,
    time::{Duration, Instant},
};

use hooks_registry::{RegistryHandle, canonicalize};
use hooks_schema::{AbsPathBuf, FormatSet, HookDiagnostic};
use hooks_sources::{ManagedDirs, ScopeDirs, UserDirs};
use hooks_trust::{CommandExecutionPosture, Surface, TrustInputs, TrustPolicy};
use tokio::sync::oneshot;

use crate::{
    DEFAULT_DEBOUNCE_WINDOW, WatchedPlace, WatcherError,
    backend::{NotifyBackend, WatchBackend},
    shared::{AttachOutcome, ReloadReport, Shared, WatcherEvent},
    worker::{Engine, Msg, run},
};

#[cfg(test)]
mod tests;

/// How a [`HookConfigWatcher`] is set up.
#[derive(Debug, Clone)]
pub struct WatcherConfig {
    /// The formats whose files are watched and loaded (their descriptors' locations).
    pub formats: FormatSet,
    /// The debounce window (trailing edge per root).
    pub debounce_window: Duration,
    /// The trust inputs project files are decided with until [`HookConfigWatcher::set_trust_inputs`]
    /// is called; the posture is `Unknown` before the run starts, which keeps them inert.
    pub trust_inputs: TrustInputs,
}

impl WatcherConfig {
    /// The default window and `surface` with an unknown posture, watching `formats`' files.
    pub fn new(surface: Surface, formats: FormatSet) -> WatcherConfig {
        WatcherConfig {
            formats,
            debounce_window: DEFAULT_DEBOUNCE_WINDOW,
            trust_inputs: TrustInputs::new(surface, CommandExecutionPosture::Unknown),
        }
    }

    /// The same configuration with another debounce window.
    #[must_use]
    pub fn with_debounce_window(mut self, window: Duration) -> WatcherConfig {
        self.debounce_window = window;
        self
    }
}

/// Discovers and hot-reloads project hook files for the roots it is given.
///
/// One platform watcher serves every root; per root it watches the root directory and the
/// hook folders that exist (`.cursor/`, `.chrys/`, `.chrys/hooks/`, `.claude/`), never
/// recursively, so a large repository costs no more than a small one. Loads are synchronous
/// when a root is added and happen on a background thread after a debounced change; every load
/// reads the root's files as they are on disk and applies them through the registry handle.
/// Dropping the watcher stops the thread and the platform watcher; the registry keeps what
/// was loaded.
pub struct HookConfigWatcher {
    shared: Arc<Shared>,
    /// The worker's queue; `None` for a loader, which has no worker.
    tx: Option<Sender<Msg>>,
    thread: Option<JoinHandle<()>>,
}

impl HookConfigWatcher {
    /// Starts the platform watcher and its thread; no root is watched yet.
    pub fn new(
        registry: RegistryHandle,
        policy: Arc<dyn TrustPolicy>,
        config: WatcherConfig,
    ) -> Result<HookConfigWatcher, WatcherError> {
        let (tx, rx) = mpsc::channel();
        let events = tx.clone();
        let backend = NotifyBackend::new(move |event| {
            let _ = events.send(Msg::Fs(event));
        })
        .map_err(|source| WatcherError::Start { source })?;
        HookConfigWatcher::start(registry, policy, config, backend, tx, rx)
    }

    pub(crate) fn start<B: WatchBackend + 'static>(
        registry: RegistryHandle,
        policy: Arc<dyn TrustPolicy>,
        config: WatcherConfig,
        backend: B,
        tx: Sender<Msg>,
        rx: Receiver<Msg>,
    ) -> Result<HookConfigWatcher, WatcherError> {
        let shared = Arc::new(Shared::new(registry, config.formats, policy, config.trust_inputs));
        let engine = Engine::new(Arc::clone(&shared), backend, config.debounce_window);
        // The worker reports to the subscriber of the thread that started it (an embedder's
        // scoped subscriber included), not only to a global one.
        let dispatch = tracing::dispatcher::get_default(tracing::Dispatch::clone);
        let thread = std::thread::Builder::new()
            .name("hook-config-watcher".to_owned())
            .spawn(move || tracing::dispatcher::with_default(&dispatch, || run(engine, &rx)))
            .map_err(|source| WatcherError::Thread { source })?;
        Ok(HookConfigWatcher { shared, tx: Some(tx), thread: Some(thread) })
    }

    /// A loader: the same loading as a watcher (roots, user and managed files read and
    /// applied on the caller's thread, trust decided again by
    /// [`HookConfigWatcher::set_trust_inputs`], [`HookConfigWatcher::reload`] on request), but
    /// no platform watcher and no thread, so it costs nothing beyond the reads. For a process
    /// that loads once and exits (a one-shot `hooks fire`): the futures of
    /// [`HookConfigWatcher::add_root`] and the `watch_*` calls resolve at once with
    /// [`WatcherError::LoadedOnly`], after the files were loaded.
    pub fn loader(
        registry: RegistryHandle,
        policy: Arc<dyn TrustPolicy>,
        config: WatcherConfig,
    ) -> HookConfigWatcher {
        let shared = Arc::new(Shared::new(registry, config.formats, policy, config.trust_inputs));
        HookConfigWatcher { shared, tx: None, thread: None }
    }

    /// Hands `msg` to the worker; `Err` with what the caller's future resolves to when there
    /// is none (a loader) or it has stopped.
    fn send(&self, msg: Msg, place: &WatchedPlace) -> Result<(), WatcherError> {
        let Some(tx) = &self.tx else {
            let path = place.root().map(|r| r.as_path().to_path_buf()).unwrap_or_default();
            return Err(WatcherError::LoadedOnly { path });
        };
        tx.send(msg).map_err(|_| WatcherError::ShutDown)
    }

    /// Adds a project root: announces it to the registry and loads its hook files on the spot
    /// (so a root added before the run starts is in the registry before the pin), then asks
    /// the worker to attach the platform watch. The returned future resolves when the watch
    /// is attached (which can take a while on some platforms); the caller need not wait on it,
    /// but a change made before it resolves may go unseen until the next one.
    ///
    /// Adding a root that is already watched loads nothing and resolves with the first
    /// attachment. The root is canonicalized first; a root that does not exist or is not a
    /// directory resolves to an error without touching the registry.
    pub fn add_root(&self, root: &Path) -> AttachFuture {
        let root = match canonical_dir(root) {
            Ok(root) => root,
            Err(e) => return AttachFuture::ready(Err(e)),
        };
        let (new, attach) = self.shared.add_root(&root);
        let place = WatchedPlace::from(&root);
        if new && let Err(e) = self.send(Msg::Attach(place.clone()), &place) {
            return AttachFuture::ready(Err(e));
        }
        if self.tx.is_none() {
            return AttachFuture::ready(Err(WatcherError::LoadedOnly {
                path: root.as_path().to_path_buf(),
            }));
        }
        match attach {
            Ok(rx) => AttachFuture { root: Some(root), state: FutureState::Waiting(rx) },
            Err(outcome) => AttachFuture::ready(outcome_result(root, outcome)),
        }
    }

    /// Watches the user-scope hook files in `dirs` (`~/.cursor/hooks.json`, Chrys's
    /// `<config dir>/hooks/hooks.{yaml,yml,json}`, `~/.claude/settings.json`) and reloads them
    /// like project files.
    ///
    /// The files are loaded on the spot, on the caller's thread (so they are in the registry
    /// before the pin), each under its user kind, scoped to no project root, with the trust
    /// decision the policy gives for the current trust inputs; `claude_strict` reads Claude
    /// Code settings under the deny-only strict contract. Then the worker watches, never
    /// recursively, `cursor_dir`, `claude_dir`, `chrys_config_dir` and
    /// `chrys_config_dir/hooks`, or the parent of each that does not exist yet, so the folder
    /// is watched as soon as it appears. The future resolves when the watches are attached,
    /// or with the first folder that could not be watched (the others are watched, and the
    /// files were loaded anyway).
    ///
    /// Calling it again replaces the folders: the files are loaded from the new folders,
    /// user sources no longer found are removed, and the watches follow.
    pub fn watch_user_dirs(&self, dirs: UserDirs, strict: bool) -> UserWatchFuture {
        self.watch_scope(WatchedPlace::User, dirs, strict)
    }

    /// Watches the managed (administrator) hook files in `dirs` (Cursor's enterprise
    /// `hooks.json`, Claude Code's `managed-settings.json` and its `managed-settings.d/*.json`
    /// fragments) and reloads them like user files.
    ///
    /// The files are loaded on the spot, on the caller's thread, exactly as
    /// `hooks_sources::load_managed_sources` loads them (each under its managed kind, scoped
    /// to no project root, trust decided by the policy, the fragments in name order, capped,
    /// with the same folder warnings); `claude_strict` reads Claude Code settings under the
    /// deny-only strict contract. Then the worker watches, never recursively, `cursor_dir`,
    /// `claude_dir` and `claude_dir/managed-settings.d`, or the parent of each that does not
    /// exist yet. A file created, changed, replaced or deleted there reloads every managed
    /// file once, one window after the last change, and publishes one snapshot. The future
    /// resolves when the watches are attached, or with the first folder that could not be
    /// watched.
    ///
    /// Calling it again replaces the folders, as [`HookConfigWatcher::watch_user_dirs`] does.
    pub fn watch_managed_dirs(&self, dirs: ManagedDirs, strict: bool) -> UserWatchFuture {
        self.watch_scope(WatchedPlace::Managed, dirs, strict)
    }

    fn watch_scope(&self, place: WatchedPlace, dirs: ScopeDirs, strict: bool) -> UserWatchFuture {
        let rx = self.shared.watch_scope(&place, dirs, strict);
        if let Err(e) = self.send(Msg::Attach(place.clone()), &place) {
            return UserWatchFuture { state: FutureState::Ready(Some(Err(e))) };
        }
        UserWatchFuture { state: FutureState::Waiting(rx) }
    }

    /// Removes a root: withdraws its sources and the project from the registry and detaches
    /// its watches. Returns whether it was watched.
    pub fn remove_root(&self, root: &Path) -> bool {
        let Some(root) = self.resolve_root(root) else { return false };
        let removed = self.shared.remove_root(&root);
        if removed && let Some(tx) = &self.tx {
            let _ = tx.send(Msg::Detach(root));
        }
        removed
    }

    /// Reads the hook files of a watched place (a root in any spelling, the user files, the
    /// managed files) from disk and applies them now, as a debounced change does.
    pub fn reload(&self, place: &WatchedPlace) -> Result<ReloadReport, WatcherError> {
        self.resolve(place)
            .and_then(|p| self.shared.reload(&p))
            .ok_or_else(|| WatcherError::NotWatched { path: not_watched_path(place) })
    }

    /// Decides trust again for every loaded source with `inputs` (the posture read when the
    /// run starts, say); later loads use them too.
    pub fn set_trust_inputs(&self, inputs: TrustInputs) {
        self.shared.set_trust_inputs(inputs);
    }

    /// The trust inputs in effect.
    pub fn trust_inputs(&self) -> TrustInputs {
        self.shared.trust_inputs()
    }

    /// The watched roots (canonical), sorted.
    pub fn roots(&self) -> Vec<AbsPathBuf> {
        self.shared.roots()
    }

    /// How many times `place` has been loaded, or `None` when it is not watched.
    pub fn loads(&self, place: &WatchedPlace) -> Option<u64> {
        self.resolve(place).and_then(|p| self.shared.loads(&p))
    }

    /// The diagnostics of `place`: for a root, one that no longer exists; for every place,
    /// its watch errors (too many watches, permission denied).
    pub fn diagnostics(&self, place: &WatchedPlace) -> Vec<HookDiagnostic> {
        self.resolve(place).map(|p| self.shared.diagnostics(&p)).unwrap_or_default()
    }

    /// How many directories the platform watcher watches (the root plus its hook folders that
    /// exist, per root): O(roots), whatever the size of the repositories.
    pub fn platform_watches(&self) -> usize {
        self.shared.platform_watches()
    }

    /// A channel receiving every [`WatcherEvent`] from now on; dropping it unsubscribes.
    pub fn subscribe(&self) -> Receiver<WatcherEvent> {
        let (tx, rx) = mpsc::channel();
        self.shared.subscribe(tx);
        rx
    }

    /// The watched root `root` names: its canonical form, or the path itself when it can no
    /// longer be resolved (a root deleted while watched).
    fn resolve_root(&self, root: &Path) -> Option<AbsPathBuf> {
        canonicalize(root)
            .ok()
            .and_then(|c| self.shared.find_root(c.as_path()))
            .or_else(|| self.shared.find_root(root))
    }

    /// The place as the watcher keys it: a root in its canonical form (see `resolve_root`).
    fn resolve(&self, place: &WatchedPlace) -> Option<WatchedPlace> {
        match place {
            WatchedPlace::Root(root) => self.resolve_root(root.as_path()).map(WatchedPlace::Root),
            WatchedPlace::User | WatchedPlace::Managed => Some(place.clone()),
        }
    }
}

impl Drop for HookConfigWatcher {
    fn drop(&mut self) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Msg::Shutdown);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for HookConfigWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookConfigWatcher").field("roots", &self.shared.roots()).finish()
    }
}

/// Resolves when a root's platform watch is attached (see [`HookConfigWatcher::add_root`]),
/// with the canonical root, or with the reason it is not watched.
#[must_use = "the future tells when the root's changes start being seen"]
#[derive(Debug)]
pub struct AttachFuture {
    root: Option<AbsPathBuf>,
    state: FutureState<AbsPathBuf>,
}

#[derive(Debug)]
enum FutureState<T> {
    Ready(Option<Result<T, WatcherError>>),
    Waiting(oneshot::Receiver<AttachOutcome>),
}

impl AttachFuture {
    fn ready(result: Result<AbsPathBuf, WatcherError>) -> AttachFuture {
        AttachFuture { root: None, state: FutureState::Ready(Some(result)) }
    }

    /// Blocks the current thread until the watch is attached or `timeout` passes (for callers
    /// without an async runtime); `None` on timeout.
    pub fn wait_timeout(self, timeout: Duration) -> Option<Result<AbsPathBuf, WatcherError>> {
        block_on_timeout(self, timeout)
    }
}

/// Resolves when the user-scope (or managed) folders' platform watches are attached (see
/// [`HookConfigWatcher::watch_user_dirs`], [`HookConfigWatcher::watch_managed_dirs`]), or
/// with the first folder that could not be watched.
#[must_use = "the future tells when changes to the user files start being seen"]
#[derive(Debug)]
pub struct UserWatchFuture {
    state: FutureState<()>,
}

impl UserWatchFuture {
    /// Blocks the current thread until the watches are attached or `timeout` passes (for
    /// callers without an async runtime); `None` on timeout.
    pub fn wait_timeout(self, timeout: Duration) -> Option<Result<(), WatcherError>> {
        block_on_timeout(self, timeout)
    }
}

impl Future for UserWatchFuture {
    type Output = Result<(), WatcherError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        match &mut this.state {
            FutureState::Ready(r) => Poll::Ready(r.take().unwrap_or(Err(WatcherError::ShutDown))),
            FutureState::Waiting(rx) => match Pin::new(rx).poll(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(result) => {
                    this.state = FutureState::Ready(None);
                    Poll::Ready(match result {
                        Ok(AttachOutcome::Attached) => Ok(()),
                        Ok(AttachOutcome::Failed(e)) => Err(WatcherError::Watch(e)),
                        Ok(AttachOutcome::Removed) | Err(_) => Err(WatcherError::ShutDown),
                    })
                }
            },
        }
    }
}

/// Polls `future` on the current thread, parking between polls, until it is ready or
/// `timeout` passes.
fn block_on_timeout<F: Future + Unpin>(mut future: F, timeout: Duration) -> Option<F::Output> {
    let deadline = Instant::now() + timeout;
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(result) = Pin::new(&mut future).poll(&mut cx) {
            return Some(result);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        std::thread::park_timeout(left);
    }
}

/// Wakes a thread parked in [`AttachFuture::wait_timeout`].
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

impl Future for AttachFuture {
    type Output = Result<AbsPathBuf, WatcherError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        match &mut this.state {
            FutureState::Ready(r) => Poll::Ready(r.take().unwrap_or(Err(WatcherError::ShutDown))),
            FutureState::Waiting(rx) => match Pin::new(rx).poll(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(result) => {
                    let root = this.root.take();
                    this.state = FutureState::Ready(None);
                    Poll::Ready(match (result, root) {
                        (Ok(outcome), Some(root)) => outcome_result(root, outcome),
                        _ => Err(WatcherError::ShutDown),
                    })
                }
            },
        }
    }
}

fn outcome_result(root: AbsPathBuf, outcome: AttachOutcome) -> Result<AbsPathBuf, WatcherError> {
    match outcome {
        AttachOutcome::Attached => Ok(root),
        AttachOutcome::Failed(e) => Err(WatcherError::Watch(e)),
        AttachOutcome::Removed => Err(WatcherError::NotWatched { path: root.into_path_buf() }),
    }
}

/// The path a [`WatcherError::NotWatched`] names for `place`.
fn not_watched_path(place: &WatchedPlace) -> std::path::PathBuf {
    match place {
        WatchedPlace::Root(root) => root.as_path().to_path_buf(),
        WatchedPlace::User => "<user hook files>".into(),
        WatchedPlace::Managed => "<managed hook files>".into(),
    }
}

fn canonical_dir(root: &Path) -> Result<AbsPathBuf, WatcherError> {
    let canonical = canonicalize(root)
        .map_err(|source| WatcherError::Root { path: root.to_path_buf(), source })?;
    if !canonical.as_path().is_dir() {
        return Err(WatcherError::NotADirectory { path: canonical.into_path_buf() });
    }
    Ok(canonical)
}
