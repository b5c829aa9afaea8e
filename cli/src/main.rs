//! The `hooks` command-line tool: a thin shim over `hooks_cli::main_entry`.
//!
//! On Linux the process's C `main` is this file's own (`#![no_main]`), not std's: an agent
//! starts `hooks fire` / `hooks bridge` once per hook event, and std's start and end cost every
//! one of them about 60 µs for a guard we do not use (`specs/dispatch.md`, "One-shot `hooks
//! fire` and `hooks bridge`", session 8). std's start reads `/proc/self/maps` (the kernel
//! formats every mapping, glibc's `pthread_getattr_np` scans them) to place the main thread's
//! stack guard, and installs a `SIGSEGV`/`SIGBUS` handler on an alternate signal stack that
//! only turns a stack overflow's crash into a message; its end (libc's `exit`) runs the
//! thread-local destructors and `atexit` handlers, whose writes copy pages the trees' reaper
//! (a fork of the engine) still shares. Kept from std's start: standard descriptors that are
//! closed are opened on `/dev/null` (so no file the engine opens becomes its stdout), `SIGPIPE`
//! is ignored (a closed pipe is an error, not a kill), a panic ends the process with code 101;
//! at the end stdout is flushed, then `_exit`. A stack overflow still ends the process, by
//! `SIGSEGV` without the message.
//!
//! Linked with glibc built in (`cargo xtask dist`, `-C target-feature=+crt-static`), it first
//! restricts host-name lookups to the C library's own `files` and `dns` services: any other
//! service named in `/etc/nsswitch.conf` (mDNS, systemd's, LDAP) is a module glibc would load
//! with `dlopen`, bringing a second C library into a static process, which glibc does not
//! promise to support, least of all one of another version than the binary's. An HTTP hook's
//! host is then found in `/etc/hosts` or by DNS (`specs/dispatch.md`, "Linked with glibc built
//! in").

#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

#[cfg(not(all(target_os = "linux", not(test))))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(hooks_cli::main_entry(std::env::args_os()))
}

#[cfg(all(target_os = "linux", not(test)))]
mod entry {
    use std::{
        ffi::{c_char, c_int},
        io::Write,
        os::fd::AsFd,
    };

    use nix::{
        fcntl::{OFlag, open},
        poll::{PollFd, PollFlags, PollTimeout, poll},
        sys::{
            signal::{SigHandler, Signal, signal},
            stat::Mode,
        },
    };

    /// The process's entry, called by the C library's start with the arguments (which std
    /// also records for `std::env::args_os` before any `main` runs, on glibc).
    // The symbol `main` is the C entry point: an unsafe attribute.
    #[allow(unsafe_code)]
    #[unsafe(no_mangle)]
    extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
        standard_fds();
        #[cfg(all(target_env = "gnu", target_feature = "crt-static"))]
        static_name_service();
        // SAFETY: no handler is installed (ignoring needs none), and the process has one
        // thread here.
        #[allow(unsafe_code)]
        let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigIgn) };
        // The panic's message is printed by the panic hook; the code is std's.
        let code =
            std::panic::catch_unwind(|| hooks_cli::main_entry(std::env::args_os())).unwrap_or(101);
        let _ = std::io::stdout().lock().flush();
        // SAFETY: ends the process; stdout is flushed (stderr is not buffered) and nothing
        // else the tool writes is buffered in the process.
        #[allow(unsafe_code)]
        unsafe {
            nix::libc::_exit(c_int::from(code))
        }
    }

    /// Host names through glibc's built-in `files` and `dns` services only (see the crate's
    /// documentation): nothing is loaded with `dlopen` into the static process.
    #[cfg(all(target_env = "gnu", target_feature = "crt-static"))]
    fn static_name_service() {
        #[allow(unsafe_code)]
        unsafe extern "C" {
            /// glibc's `nss.h`: replaces the services of one database for this process.
            fn __nss_configure_lookup(db: *const c_char, service_line: *const c_char) -> c_int;
        }
        // SAFETY: two NUL-terminated strings that live for the whole process; called before
        // any lookup, with one thread.
        #[allow(unsafe_code)]
        let rc = unsafe { __nss_configure_lookup(c"hosts".as_ptr(), c"files dns".as_ptr()) };
        debug_assert_eq!(rc, 0, "glibc refused the hosts services");
    }

    /// Opens `/dev/null` on each of the standard descriptors that is closed, as std's start
    /// does; aborts if it cannot.
    fn standard_fds() {
        let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
        let mut fds = [stdin.as_fd(), stdout.as_fd(), stderr.as_fd()]
            .map(|fd| PollFd::new(fd, PollFlags::empty()));
        loop {
            match poll(&mut fds, PollTimeout::ZERO) {
                Err(nix::errno::Errno::EINTR) => {}
                Err(_) => return,
                Ok(_) => break,
            }
        }
        // In order: `open` takes the lowest free descriptor, the closed one.
        for fd in &fds {
            if fd.revents().is_some_and(|r| r.contains(PollFlags::POLLNVAL)) {
                match open("/dev/null", OFlag::O_RDWR, Mode::empty()) {
                    Ok(null) => std::mem::forget(null),
                    Err(_) => std::process::abort(),
                }
            }
        }
    }
}
