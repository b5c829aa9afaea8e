//! Where the server reads its requests: any [`Read`], plus, for a pipe or a socket, reads that
//! never wait ([`ServeInput::nowait_source`]), so that the thread of the server's runtime reads
//! the requests itself instead of a reader thread of its own.
//!
//! Why: with a reader thread, the thread that starts a fire's hook (the reader) is not the one
//! woken when the hook ends (the runtime's, which waits on the hook's pipes and pid file
//! descriptor). On a 2-vCPU virtual machine the kernel then often keeps the reader and the hook
//! on one vCPU and the runtime's thread and the client on the other, which halts for the whole
//! hook, so the hook's end pays the wake-up of a halted vCPU that a caller in the same process
//! (one thread starting and waiting) does not. Read through the runtime's reactor, one thread
//! receives the request, starts the hook, is woken by its end and writes the answer, as a
//! caller in the same process does (`specs/serve-protocol.md`, "Threads and stdout";
//! `specs/dispatch.md`, "Why Gemini, Copilot and Windsurf pay more through serve").
//!
//! stdin may be shared with the parent, so its descriptor's flags are never touched: a read
//! that must not wait is one `preadv2(RWF_NOWAIT)` (`EAGAIN` when the pipe is empty), or, on a
//! kernel whose pipes refuse the flag, a `read` of no more than `FIONREAD` says is there.

use std::{
    io::{self, Cursor, Read},
    os::fd::{AsFd, BorrowedFd, OwnedFd},
    time::Duration,
};

use tokio::io::{Interest, unix::AsyncFd};

use super::PolledInput;

/// The server's input. [`nowait_source`](ServeInput::nowait_source) is optional: an input that
/// does not provide it is read by a reader thread of the server's (blocking reads).
pub trait ServeInput: Read + Send + 'static {
    /// The descriptor the server may watch through its runtime's reactor and read without
    /// waiting, with how long to poll it before sleeping once everything read is answered
    /// ([`PolledInput`]'s window; zero for none). The server uses it only for a pipe or a
    /// socket, reads the descriptor directly (nothing must be buffered in the value itself)
    /// and never changes its flags. `None` (the default): read through [`Read`] on a thread.
    fn nowait_source(&self) -> Option<(BorrowedFd<'_>, Duration)> {
        None
    }
}

/// Implements [`ServeInput`] for inputs that are file descriptors, with no polling window.
macro_rules! fd_input {
    ($($t:ty),*) => {$(
        impl ServeInput for $t {
            fn nowait_source(&self) -> Option<(BorrowedFd<'_>, Duration)> {
                Some((self.as_fd(), Duration::ZERO))
            }
        }
    )*};
}

fd_input!(io::PipeReader, std::fs::File, std::os::unix::net::UnixStream, std::process::ChildStdout);

/// The process's stdin, read through its descriptor: the server is its only reader, so nothing
/// is waiting in std's buffer of it.
impl ServeInput for io::Stdin {
    fn nowait_source(&self) -> Option<(BorrowedFd<'_>, Duration)> {
        Some((self.as_fd(), Duration::ZERO))
    }
}

/// A polled descriptor: read through the reactor, with its polling window.
impl<R: Read + AsFd + Send + 'static> ServeInput for PolledInput<R> {
    fn nowait_source(&self) -> Option<(BorrowedFd<'_>, Duration)> {
        Some((self.fd(), self.max_window()))
    }
}

/// Requests held in memory (tests, replays): read on the reader thread.
impl<T: AsRef<[u8]> + Send + 'static> ServeInput for Cursor<T> {}

impl ServeInput for &'static [u8] {}

impl<T: ServeInput + ?Sized> ServeInput for Box<T> {
    fn nowait_source(&self) -> Option<(BorrowedFd<'_>, Duration)> {
        (**self).nowait_source()
    }
}

/// Whether `fd` is a pipe or a socket: the descriptors whose reads `RWF_NOWAIT` or `FIONREAD`
/// keep from waiting and that `epoll` watches (a regular file or a terminal is read on a
/// thread).
pub(crate) fn is_pipe_or_socket(fd: BorrowedFd<'_>) -> bool {
    use rustix::fs::{FileType, fstat};
    fstat(fd).is_ok_and(|st| {
        matches!(FileType::from_raw_mode(st.st_mode), FileType::Fifo | FileType::Socket)
    })
}

/// Reads what `fd` has now into `buf` without waiting: `Ok(0)` at the end of input, an error
/// of kind [`io::ErrorKind::WouldBlock`] when nothing is there yet. `fionread` is set once the
/// kernel refuses `RWF_NOWAIT` on this descriptor, and reads go through `FIONREAD` from then on.
pub(crate) fn read_fd_now(
    fd: BorrowedFd<'_>,
    buf: &mut [u8],
    fionread: &mut bool,
) -> io::Result<usize> {
    use rustix::io::{Errno, ReadWriteFlags, preadv2};
    if !*fionread {
        // `u64::MAX` is "the current position" (-1), the only one a pipe has.
        match preadv2(fd, &mut [io::IoSliceMut::new(buf)], u64::MAX, ReadWriteFlags::NOWAIT) {
            Ok(n) => return Ok(n),
            Err(Errno::AGAIN) => return Err(io::ErrorKind::WouldBlock.into()),
            Err(Errno::INTR) => return Err(io::ErrorKind::Interrupted.into()),
            Err(Errno::OPNOTSUPP | Errno::INVAL | Errno::NOSYS) => *fionread = true,
            Err(e) => return Err(e.into()),
        }
    }
    read_available(fd, buf)
}

/// A read of no more than the descriptor holds now (so it cannot wait, unless another reader
/// of a shared descriptor takes the bytes first); the end of input when it is readable and
/// holds nothing.
fn read_available(fd: BorrowedFd<'_>, buf: &mut [u8]) -> io::Result<usize> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    let available = rustix::io::ioctl_fionread(fd)?;
    if available == 0 {
        let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
        let ready = poll(&mut fds, PollTimeout::ZERO).map_err(io::Error::from)?;
        if ready == 0 {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        // Readable with nothing in it: the writers are gone.
        let hung_up = fds[0].revents().is_some_and(|r| r.intersects(PollFlags::POLLHUP));
        if hung_up || rustix::io::ioctl_fionread(fd)? == 0 {
            return Ok(0);
        }
        return read_available(fd, buf);
    }
    let len = buf.len().min(usize::try_from(available).unwrap_or(usize::MAX));
    Ok(rustix::io::read(fd, &mut buf[..len])?)
}

/// An input the runtime's reactor watches, read without waiting ([`NowaitRead`]), with its
/// polling window.
pub(crate) struct NowaitInput<R> {
    /// A duplicate of the input's descriptor (the same pipe or socket, the same flags), owned
    /// by the registration.
    pub(crate) fd: AsyncFd<OwnedFd>,
    pub(crate) max: Duration,
    /// The input itself, closed when the server is done with it, as a reader thread would.
    pub(crate) _input: R,
}

impl<R: ServeInput> NowaitInput<R> {
    /// The input registered with the current runtime's reactor, if it is a pipe or a socket
    /// that says it may be read so and the registration works; else the input back.
    pub(crate) fn new(input: R) -> Result<NowaitInput<R>, R> {
        let Some((fd, max)) = input.nowait_source() else {
            return Err(input);
        };
        if !is_pipe_or_socket(fd) {
            return Err(input);
        }
        let Ok(dup) = fd.try_clone_to_owned() else {
            return Err(input);
        };
        // Deprecated for an arbitrary `AsRawFd` (whose descriptor may close under the
        // registration); an `OwnedFd` stays open, and is the same descriptor, for as long as
        // the `AsyncFd` owns it, which is what the unsafe `register_with_interest` asks.
        #[allow(deprecated)]
        match AsyncFd::try_with_interest(dup, Interest::READABLE) {
            Ok(fd) => Ok(NowaitInput { fd, max, _input: input }),
            Err(_) => Err(input),
        }
    }
}

/// [`Read`] over a [`NowaitInput`]'s descriptor: never waits, answers
/// [`io::ErrorKind::WouldBlock`] when nothing is there.
pub(crate) struct NowaitRead<'a> {
    pub(crate) src: &'a AsyncFd<OwnedFd>,
    /// The kernel refused `RWF_NOWAIT` here: read through `FIONREAD`.
    pub(crate) fionread: bool,
}

impl Read for NowaitRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_fd_now(self.src.get_ref().as_fd(), buf, &mut self.fionread)
    }
}

/// Whether `fd` is readable now (or at its end, or in error): one `poll` with no timeout.
pub(crate) fn readable_now(fd: BorrowedFd<'_>) -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
    // A descriptor poll cannot watch counts as readable: the read says what it is.
    !matches!(poll(&mut fds, PollTimeout::ZERO), Ok(0) | Err(nix::errno::Errno::EINTR))
}

#[cfg(test)]
mod tests;
