//! A hook process started by [`crate::sys`] on Linux: waited for through its pid file
//! descriptor registered with tokio, its pipes read and written through tokio's readiness
//! (`AsyncFd`), with no SIGCHLD handler and no process-wide child registry.

use std::{
    io,
    os::{
        fd::{AsFd, OwnedFd},
        unix::process::ExitStatusExt,
    },
    pin::Pin,
    process::ExitStatus,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    task::{Context, Poll, ready},
};

use rustix::process::{WaitId, WaitIdOptions, WaitIdStatus};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf, unix::AsyncFd};

/// A started process. Dropping it before it was reaped sends it SIGKILL (as tokio's
/// `kill_on_drop`) and reaps it later, never blocking.
#[derive(Debug)]
pub(crate) struct PidfdChild {
    pid: i32,
    pidfd: Option<AsyncFd<OwnedFd>>,
    raw: Option<OwnedFd>,
    status: Option<ExitStatus>,
    kill_on_drop: bool,
    /// Set once the process is reaped; shared with its pipes' readers ([`Pipe::reader`]).
    reaped: Arc<AtomicBool>,
    /// Still counted in [`LIVE`] (until it is reaped or dropped).
    counted: bool,
}

/// How many started processes are neither reaped nor dropped ([`PidfdChild::only_one_live`]).
static LIVE: AtomicUsize = AtomicUsize::new(0);

impl PidfdChild {
    /// Wraps a freshly spawned process. The pid file descriptor is registered with tokio at
    /// the first wait that has to wait.
    pub(crate) fn new(pid: i32, pidfd: OwnedFd, kill_on_drop: bool) -> PidfdChild {
        LIVE.fetch_add(1, Ordering::Relaxed);
        PidfdChild {
            pid,
            pidfd: None,
            raw: Some(pidfd),
            status: None,
            kill_on_drop,
            reaped: Arc::new(AtomicBool::new(false)),
            counted: true,
        }
    }

    /// Whether this is the one process of this engine that is neither reaped nor dropped:
    /// no other hook is running (nor waiting to be started by a fire already under way, as
    /// far as its siblings' starts show).
    pub(crate) fn only_one_live(&self) -> bool {
        self.counted && LIVE.load(Ordering::Relaxed) == 1
    }

    /// Takes the process out of [`LIVE`], once.
    fn uncount(&mut self) {
        if std::mem::take(&mut self.counted) {
            LIVE.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Set once the process is reaped (given to its pipes' readers).
    pub(crate) fn reaped_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.reaped)
    }

    /// The process id (still this process's while it is not reaped).
    pub(crate) fn id(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// The pid file descriptor.
    fn fd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        self.raw
            .as_ref()
            .map(AsFd::as_fd)
            .or_else(|| self.pidfd.as_ref().map(|a| a.get_ref().as_fd()))
    }

    /// The exit status if the process has exited (and reaps it), without waiting.
    pub(crate) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if let Some(st) = self.status {
            return Ok(Some(st));
        }
        let Some(fd) = self.fd() else { return Err(io::Error::other("no pid file descriptor")) };
        match rustix::process::waitid(
            WaitId::PidFd(fd),
            WaitIdOptions::EXITED | WaitIdOptions::NOHANG,
        ) {
            Ok(Some(st)) => {
                let st = exit_status(&st);
                self.status = Some(st);
                self.reaped.store(true, Ordering::Relaxed);
                self.uncount();
                Ok(Some(st))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Waits for the process to exit and reaps it. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            if let Some(st) = self.try_wait()? {
                return Ok(st);
            }
            if self.pidfd.is_none() {
                let fd =
                    self.raw.take().ok_or_else(|| io::Error::other("no pid file descriptor"))?;
                self.pidfd = Some(crate::sys::register(fd, tokio::io::Interest::READABLE)?);
            }
            let Some(afd) = &self.pidfd else { continue };
            let mut guard = afd.readable().await?;
            // A pid file descriptor stays readable once the process has exited; the loop's
            // `try_wait` reaps it.
            guard.clear_ready();
        }
    }

    /// Blocks until the process has exited, leaving it to be reaped (tests).
    #[cfg(test)]
    pub(crate) fn wait_exited_unreaped(&self) {
        if let Some(fd) = self.fd() {
            let _ = rustix::process::waitid(
                WaitId::PidFd(fd),
                WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
            );
        }
    }

    /// Sends `SIGKILL` to the process (not its group) unless it was reaped.
    pub(crate) fn start_kill(&self) {
        if self.status.is_none()
            && let Some(fd) = self.fd()
        {
            let _ = rustix::process::pidfd_send_signal(fd, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for PidfdChild {
    fn drop(&mut self) {
        self.uncount();
        if self.status.is_some() {
            return;
        }
        if self.kill_on_drop {
            self.start_kill();
        }
        if matches!(self.try_wait(), Ok(Some(_))) {
            return;
        }
        // Not gone yet (or, without `kill_on_drop`, still running): keep its descriptor so it
        // is reaped at a later spawn rather than left a zombie.
        let fd = self.raw.take().or_else(|| self.pidfd.take().map(AsyncFd::into_inner));
        if let Some(fd) = fd {
            let mut z = ZOMBIES.lock().unwrap_or_else(PoisonError::into_inner);
            z.push(fd);
        }
    }
}

/// Processes dropped before they were reaped, reaped when they have exited.
static ZOMBIES: Mutex<Vec<OwnedFd>> = Mutex::new(Vec::new());

/// Reaps the dropped processes that have exited since. Cheap when there are none.
pub(crate) fn reap_dropped() {
    let mut z = ZOMBIES.lock().unwrap_or_else(PoisonError::into_inner);
    if z.is_empty() {
        return;
    }
    z.retain(|fd| {
        !matches!(
            rustix::process::waitid(
                WaitId::PidFd(fd.as_fd()),
                WaitIdOptions::EXITED | WaitIdOptions::NOHANG
            ),
            Ok(Some(_)) | Err(_)
        )
    });
}

#[cfg(test)]
mod tests;

/// The wait status std understands.
fn exit_status(st: &WaitIdStatus) -> ExitStatus {
    let raw = if let Some(code) = st.exit_status() {
        (code & 0xff) << 8
    } else if let Some(sig) = st.terminating_signal() {
        sig | if st.dumped() { 0x80 } else { 0 }
    } else {
        0
    };
    ExitStatus::from_raw(raw)
}

/// The engine's end of a pipe to a hook, non-blocking and registered with tokio: at once for
/// a writer and for a reader whose process is not reaped by its first read; otherwise at the
/// first read that finds nothing ([`Pipe::reader`]).
#[derive(Debug)]
pub(crate) struct Pipe {
    /// A reader not registered yet.
    raw: Option<OwnedFd>,
    /// Whether the reader's process is reaped (then reads are tried before registering).
    reaped: Option<Arc<AtomicBool>>,
    /// Reads left before a reaped process's pipe is registered anyway ([`DIRECT_READS`]).
    direct_left: u8,
    /// The registered descriptor.
    afd: Option<AsyncFd<OwnedFd>>,
}

impl Pipe {
    /// Takes a pipe end the engine made (no status flag set), makes it non-blocking and
    /// registers it. `F_SETFL` replaces only the status flags (`O_APPEND`, `O_NONBLOCK`, …;
    /// the access mode stays), none of which a new pipe has: no `F_GETFL` first.
    pub(crate) fn new(fd: OwnedFd, interest: tokio::io::Interest) -> io::Result<Pipe> {
        rustix::fs::fcntl_setfl(&fd, rustix::fs::OFlags::NONBLOCK)?;
        Ok(Pipe { raw: None, reaped: None, direct_left: 0, afd: Some(register(fd, interest)?) })
    }

    /// A pipe end the engine reads from the process whose `reaped` flag is given, made
    /// non-blocking. It is registered with tokio at its first read, unless the process is
    /// reaped by then (it ended before the engine first waited, the hook having run first on
    /// a shared CPU): then reads are tried first, and a pipe that ends without ever finding
    /// nothing to read (no descendant holds it) costs no registration, no removal and no wait
    /// on the poller; after [`DIRECT_READS`] reads it is registered anyway. A running
    /// process's pipes are registered at once, as before, so no read is made that must find
    /// nothing.
    pub(crate) fn reader(fd: OwnedFd, reaped: Arc<AtomicBool>) -> io::Result<Pipe> {
        rustix::fs::fcntl_setfl(&fd, rustix::fs::OFlags::NONBLOCK)?;
        Ok(Pipe { raw: Some(fd), reaped: Some(reaped), direct_left: DIRECT_READS, afd: None })
    }
}

/// How many reads a reaped process's pipe gets before it is registered anyway: enough for a
/// hook's last output and its end-of-file, and a bound on reads that never wait (and so never
/// yield to the runtime, nor let a timeout around them fire) when a descendant keeps the pipe
/// full. Registered, the reads go through tokio's readiness and its cooperative budget.
const DIRECT_READS: u8 = 4;

/// Registers `fd` with tokio (counted in tests).
fn register(fd: OwnedFd, interest: tokio::io::Interest) -> io::Result<AsyncFd<OwnedFd>> {
    #[cfg(test)]
    testing::REGISTERED.set(testing::REGISTERED.get() + 1);
    crate::sys::register(fd, interest)
}

impl AsyncRead for Pipe {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let reaped = this.reaped.as_ref().is_some_and(|r| r.load(Ordering::Relaxed));
        if let Some(fd) = this.raw.as_ref().filter(|_| reaped && this.direct_left > 0) {
            this.direct_left -= 1;
            loop {
                match rustix::io::read(fd, &mut *buf.initialize_unfilled()) {
                    Ok(n) => {
                        buf.advance(n);
                        return Poll::Ready(Ok(()));
                    }
                    Err(rustix::io::Errno::INTR) => {}
                    Err(rustix::io::Errno::AGAIN) => break,
                    Err(e) => return Poll::Ready(Err(e.into())),
                }
            }
        }
        // From now on, wait for readiness. The registration reports a pipe that is readable
        // already (or became so since a read found nothing).
        if let Some(fd) = this.raw.take() {
            this.afd = Some(register(fd, tokio::io::Interest::READABLE)?);
        }
        let Some(afd) = &this.afd else {
            return Poll::Ready(Err(io::Error::other("pipe end already closed")));
        };
        loop {
            let mut guard = ready!(afd.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|fd| {
                rustix::io::read(fd.get_ref(), &mut *unfilled).map_err(io::Error::from)
            }) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => {}
            }
        }
    }
}

impl AsyncWrite for Pipe {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let Some(afd) = &self.afd else {
            return Poll::Ready(Err(io::Error::other("the pipe end is not a registered writer")));
        };
        loop {
            let mut guard = ready!(afd.poll_write_ready(cx))?;
            match guard.try_io(|fd| rustix::io::write(fd.get_ref(), buf).map_err(io::Error::from)) {
                Ok(r) => return Poll::Ready(r),
                Err(_would_block) => {}
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// What this thread's pipes did (tests).
#[cfg(test)]
pub(crate) mod testing {
    use std::cell::Cell;

    thread_local! {
        /// Pipe ends registered with tokio on this thread.
        pub(crate) static REGISTERED: Cell<usize> = const { Cell::new(0) };
    }

    /// How many pipe ends were registered with tokio on this thread.
    pub(crate) fn registered() -> usize {
        REGISTERED.get()
    }
}
