//! Adaptive polling of the request stream: after answering, the reader watches stdin for a
//! short window before it sleeps, so a client that sends its next request right away does not
//! pay for waking a sleeping thread. A reader thread polls through [`PolledInput`]'s `Read`;
//! the reader on the runtime's thread (a pipe or a socket, `super::input`) polls the same
//! window, yielding to the runtime between polls.
//!
//! Why: on virtual machines an idle vCPU halts, and waking a thread on it costs tens of
//! microseconds (30–50 µs measured on the 2-vCPU machines this engine is benchmarked on),
//! more than the protocol's own work. A thread that polls a little before sleeping is still
//! running when the next request arrives. The window adapts like a halt-polling governor: it
//! is the full window while requests keep arriving within it and halves each time one does
//! not, so a client that sends a request now and then costs nothing but a few polls.
//! `specs/serve-protocol.md` has the measurements.

use std::{
    io::{self, Read},
    os::fd::AsFd,
    time::{Duration, Instant},
};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

/// The default longest window: long enough to cover a client's wake-up and its turn-around
/// on a virtual machine, short enough that a burst of polling is noise next to any hook.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(200);

/// Windows below this are not worth a poll.
const MIN_WINDOW: Duration = Duration::from_micros(2);

/// A readable file descriptor (stdin, a pipe) read with adaptive polling before each
/// blocking read. Reading it is exactly reading the inner reader; only the waiting differs.
#[derive(Debug)]
pub struct PolledInput<R> {
    inner: R,
    max: Duration,
    window: Duration,
}

impl<R: Read + AsFd> PolledInput<R> {
    /// Polls `inner` for up to [`DEFAULT_SPIN`] before blocking.
    pub fn new(inner: R) -> PolledInput<R> {
        PolledInput::with_window(inner, DEFAULT_SPIN)
    }

    /// Polls `inner` for up to `max` before blocking; `Duration::ZERO` never polls.
    pub fn with_window(inner: R, max: Duration) -> PolledInput<R> {
        PolledInput { inner, max, window: max }
    }

    /// The current window (for tests).
    #[cfg(test)]
    pub(crate) fn window(&self) -> Duration {
        self.window
    }

    /// The descriptor read.
    pub(crate) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.inner.as_fd()
    }

    /// The longest window.
    pub(crate) fn max_window(&self) -> Duration {
        self.max
    }

    /// Polls until the input is readable (or at its end, or in error) or `deadline` passes.
    fn spin_until(&self, deadline: Instant) {
        loop {
            let mut fds = [PollFd::new(self.inner.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::ZERO) {
                // Readable, hung up or in error: the read below reports which.
                Ok(n) if n > 0 => return,
                Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                // A descriptor poll cannot watch: just block.
                Err(_) => return,
            }
            if Instant::now() >= deadline {
                return;
            }
            std::hint::spin_loop();
        }
    }

    /// The next window after a read that waited `waited`.
    fn adapt(&mut self, waited: Duration) {
        self.window = next_window(self.window, self.max, waited);
    }
}

/// The window after a read that waited `waited`: the longest, `max`, while requests arrive
/// within it; half of the last one each time one does not, down to nothing.
pub(crate) fn next_window(window: Duration, max: Duration, waited: Duration) -> Duration {
    if waited <= max {
        max
    } else {
        let half = window / 2;
        if half < MIN_WINDOW { Duration::ZERO } else { half }
    }
}

impl<R: Read + AsFd> Read for PolledInput<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let start = Instant::now();
        if !self.window.is_zero() {
            self.spin_until(start + self.window);
        }
        let n = self.inner.read(buf)?;
        self.adapt(start.elapsed());
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
