//! Where the server writes its messages: any [`Write`], plus, for outputs that can tell, a write
//! that never waits for the client to read ([`ServeOutput::write_now`]).
//!
//! Why: a request answered by a runtime task used to be handed to a writer thread, so that a
//! client that stops reading blocks that thread and never a runtime worker; waking that thread
//! cost every such answer 30–50 µs on the virtual machines the engine is measured on. With an
//! output that writes without waiting, the task writes its answer itself when there is room and
//! hands the writer thread only what does not fit (`specs/serve-protocol.md`, "Threads and
//! stdout").

use std::io::{self, Write};
#[cfg(target_os = "linux")]
use std::os::fd::{AsFd, BorrowedFd};

/// The server's output. [`write_now`](ServeOutput::write_now) is optional: an output that does
/// not provide it is written from the server's writer thread only.
pub trait ServeOutput: Write + Send + 'static {
    /// Writes what fits of `buf` without waiting for the reader and returns how many bytes
    /// were taken (0 when there is no room now). An error of kind
    /// [`io::ErrorKind::Unsupported`] says this output cannot write without possibly waiting;
    /// any other error is a failed output. The bytes go straight to the destination: an
    /// implementation must not buffer them (the server flushes its writer after each message,
    /// so nothing of an earlier message is waiting when this is called).
    fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = buf;
        Err(io::ErrorKind::Unsupported.into())
    }
}

/// One `pwritev2(RWF_NOWAIT)` at the descriptor's current position: a pipe or a socket that is
/// full answers `EAGAIN` instead of waiting, whoever else shares the descriptor (its
/// `O_NONBLOCK` flag is left alone). Kernels or files that do not support the flag answer
/// `EOPNOTSUPP` (or `EINVAL` before Linux 4.14): unsupported.
#[cfg(target_os = "linux")]
pub(crate) fn write_fd_now(fd: BorrowedFd<'_>, buf: &[u8]) -> io::Result<usize> {
    use rustix::io::{Errno, ReadWriteFlags, pwritev2};
    // `u64::MAX` is "the current position" (-1), the only one a pipe has.
    match pwritev2(fd, &[io::IoSlice::new(buf)], u64::MAX, ReadWriteFlags::NOWAIT) {
        Ok(n) => Ok(n),
        Err(Errno::AGAIN | Errno::INTR) => Ok(0),
        Err(Errno::OPNOTSUPP | Errno::INVAL | Errno::NOSYS | Errno::SPIPE) => {
            Err(io::ErrorKind::Unsupported.into())
        }
        Err(e) => Err(e.into()),
    }
}

/// Implements [`ServeOutput`] for outputs that are file descriptors.
macro_rules! fd_output {
    ($($t:ty),*) => {$(
        impl ServeOutput for $t {
            #[cfg(target_os = "linux")]
            fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
                write_fd_now(self.as_fd(), buf)
            }
        }
    )*};
}

fd_output!(io::PipeWriter, std::fs::File, std::os::unix::net::UnixStream, std::process::ChildStdin);

/// The process's stdout: written through its descriptor while its lock is held, so no other
/// thread's `print!` is in the middle of a write (the server's protocol owns stdout; the
/// server flushes stdout's own buffer after each message).
impl ServeOutput for io::Stdout {
    #[cfg(target_os = "linux")]
    fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
        let lock = self.lock();
        write_fd_now(lock.as_fd(), buf)
    }
}

/// Memory always has room.
impl ServeOutput for Vec<u8> {
    fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.extend_from_slice(buf);
        Ok(buf.len())
    }
}

impl<T: ServeOutput + ?Sized> ServeOutput for Box<T> {
    fn write_now(&mut self, buf: &[u8]) -> io::Result<usize> {
        (**self).write_now(buf)
    }
}

#[cfg(test)]
mod tests;
