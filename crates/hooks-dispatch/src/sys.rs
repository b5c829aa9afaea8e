//! The crate's one module with unsafe code: starting a hook process on Linux the way
//! `posix_spawn` does (`CLONE_VM | CLONE_VFORK`, so the engine's memory is never copied,
//! whatever its size), plus the steps `posix_spawn` cannot take before the `exec`: being born
//! in the run's cgroup and becoming a child subreaper. The pid file descriptor comes from the
//! same call (`CLONE_PIDFD`), so the engine never names the child by a number that could be
//! reused.
//!
//! Why unsafe is unavoidable here (`specs/dispatch.md`, "The spawner"): no safe API of std,
//! tokio, nix or rustix starts a process *inside* a cgroup. std's `pre_exec` makes std `fork`
//! (copying the page tables of the whole engine: 65 ms for a 512 MiB process, measured), and
//! glibc's `posix_spawnattr_setcgroup_np` only exists from glibc 2.39 on. Moving the child into
//! its cgroup from the parent after the spawn would leave a window in which the hook could fork
//! outside it.
//!
//! With a cgroup the child is started by `clone3` with `CLONE_INTO_CGROUP` (Linux 5.7), through
//! a few lines of assembly ([`clone3_vm`]): no C library wraps `clone3` with a child function
//! and a stack of its own, which `CLONE_VM` needs. The other way in, the child writing `0` to
//! the cgroup's `cgroup.procs`, takes the kernel's cgroup migration lock for writing, which
//! waits for an RCU grace period whenever no migration happened in the last one: 11–14 ms per
//! hook on a loaded machine (measured; `specs/dispatch.md`, "The spawner"). That way is kept
//! only where `clone3` cannot be used (another architecture, an older kernel, a seccomp filter
//! that refuses `clone3`).
//!
//! Rules the child obeys (it shares the engine's memory until it calls `exec`): no allocation,
//! no lock, no unwinding; only system calls on data the parent prepared. Every signal is
//! blocked in the parent thread around the `clone`, and every handled signal is at its default
//! in the child before it unblocks them, so no engine signal handler ever runs on the child's
//! stack: the kernel resets them at the `clone3` (`CLONE_CLEAR_SIGHAND`, Linux 5.5, on x86-64
//! every child is made by `clone3`), or, where that is refused, the child does it with a
//! `sigaction` query per signal, as glibc's `posix_spawn` does (64 system calls, 13.6 µs).
//!
//! The module also starts the trees' reaper ([`start_tree_reaper`]), which likewise shares
//! the engine's memory where the kernel allows it, but without `CLONE_VFORK`: it lives on,
//! the engine's end included, on a stack and a copy of its paths the engine keeps until it
//! has been reaped.
#![allow(unsafe_code)]

#[cfg(target_os = "linux")]
pub(crate) use linux::*;

/// Makes the command's child start a new session (`setsid`) before its `exec`: detached hooks
/// started through tokio's process API (systems without the crate's own spawner).
pub(crate) fn new_session(cmd: &mut tokio::process::Command) {
    // SAFETY: the closure runs in the forked child between fork and exec. It only calls
    // setsid(2), which is async-signal-safe, allocates nothing and touches no state shared
    // with the parent.
    unsafe {
        cmd.pre_exec(|| nix::unistd::setsid().map(|_| ()).map_err(std::io::Error::from));
    }
}

/// The size of a memory page (`sysconf(_SC_PAGESIZE)`; 0 if unknown).
pub(crate) fn page_size() -> u64 {
    // SAFETY: `sysconf` with a valid name only reads a system constant.
    u64::try_from(unsafe { nix::libc::sysconf(nix::libc::_SC_PAGESIZE) }).unwrap_or(0)
}

/// Registers `fd` with tokio's reactor for `interest`.
pub(crate) fn register(
    fd: std::os::fd::OwnedFd,
    interest: tokio::io::Interest,
) -> std::io::Result<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>> {
    // SAFETY: an `OwnedFd` is a valid, open descriptor that only it closes, and its
    // `as_raw_fd` always returns that same descriptor while the `AsyncFd` owns it.
    unsafe { tokio::io::unix::AsyncFd::register_with_interest(fd, interest).map_err(Into::into) }
}

#[cfg(target_os = "linux")]
mod linux {
    mod ending;
    pub(crate) use ending::{Line, Registrations, environment_pending, pid_max, sweep_tags};

    use std::{
        ffi::{CStr, CString, c_char, c_int, c_void},
        io,
        mem::MaybeUninit,
        os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd},
        ptr,
        sync::atomic::{AtomicBool, AtomicI32, Ordering},
    };

    use nix::libc;

    unsafe extern "C" {
        /// The process environment (glibc and musl both export it).
        static environ: *const *const c_char;
    }

    /// How the child relates to the engine's process group and session.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Session {
        /// Leads a new process group in the engine's session (`setpgid(0, 0)`).
        NewGroup,
        /// Leads a new session (`setsid`): detached hooks.
        NewSession,
    }

    /// One process to start. Everything is prepared by the caller, in the parent, because the child
    /// may not allocate.
    pub(crate) struct Request<'a> {
        /// The paths to `execve`, in order: one for a path, one per `PATH` folder for a bare name.
        /// A candidate that does not exist (`ENOENT`, `ENOTDIR`) or may not be run (`EACCES`, kept
        /// as the answer if nothing else runs) moves to the next, as `execvp` does; any other error
        /// is final.
        pub programs: &'a [CString],
        /// The arguments, the program's name first.
        pub argv: &'a [CString],
        /// The environment.
        pub env: Env<'a>,
        /// The working directory.
        pub cwd: Option<&'a CStr>,
        /// stdin, stdout and stderr.
        pub stdio: [BorrowedFd<'a>; 3],
        /// The cgroup the child starts in.
        pub cgroup: Option<Cgroup<'a>>,
        /// Process group or session.
        pub session: Session,
        /// Whether the child becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`, kept across
        /// `exec`): orphans of its descendants are then reparented to it rather than escaping.
        pub subreaper: bool,
        /// A slot of the reaper's registration file (the file and the slot's offset) the child
        /// writes its own process group id into ([`crate::reaper::slot_line`]) once it leads
        /// its group, before its `exec`: the hook never runs unregistered.
        pub register: Option<(BorrowedFd<'a>, u64)>,
        /// `tasks` files of cgroup v1 hierarchies the child joins by writing `0` (a move of
        /// the calling thread only, which takes no global lock: `specs/dispatch.md`, "Limits").
        pub v1_tasks: &'a [BorrowedFd<'a>],
        /// rlimits the child sets: `(resource, soft, hard)`.
        pub rlimits: &'a [(i32, u64, u64)],
        /// Whether the child exits with status 0 right after joining its cgroups, before anything
        /// else (the containment probe).
        pub probe: bool,
    }

    /// A cgroup to start a process in: its folder (for `CLONE_INTO_CGROUP`) and its
    /// `cgroup.procs` opened for writing (for the child to join it by writing `0`, where
    /// `clone3` cannot be used).
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Cgroup<'a> {
        /// The cgroup's folder, opened as a directory.
        pub dir: BorrowedFd<'a>,
        /// Its `cgroup.procs`, opened for writing.
        pub procs: BorrowedFd<'a>,
    }

    /// How a child gets into its cgroup.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Join {
        /// Born in it (`clone3` with `CLONE_INTO_CGROUP`).
        Clone3,
        /// Writes `0` to its `cgroup.procs` before the `exec` (one RCU grace period when no
        /// migration happened lately).
        Write,
    }

    /// Cleared for good when `clone3` with `CLONE_INTO_CGROUP` is refused while the write to
    /// `cgroup.procs` works (an older kernel, a seccomp filter).
    static CLONE3: AtomicBool = AtomicBool::new(cfg!(target_arch = "x86_64"));

    /// Cleared for good when `clone3` with `CLONE_CLEAR_SIGHAND` (Linux 5.5) is refused for a
    /// child without a cgroup (an older kernel, a seccomp filter that refuses `clone3`): the
    /// child then resets each handled signal itself.
    static CLEAR_SIGHAND: AtomicBool = AtomicBool::new(cfg!(target_arch = "x86_64"));

    /// Whether `e` is `clone3`, or a flag of it, refused (rather than a failure to make a
    /// process): the caller tries the older way.
    fn refused(e: &io::Error) -> bool {
        matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EINVAL | libc::E2BIG | libc::EPERM))
    }

    /// From now on children join their cgroup by writing to its `cgroup.procs`.
    pub(crate) fn join_by_writing() {
        CLONE3.store(false, Ordering::Relaxed);
    }

    /// How children join their cgroup in this process, as far as known yet.
    pub(crate) fn join_method() -> Join {
        if CLONE3.load(Ordering::Relaxed) { Join::Clone3 } else { Join::Write }
    }

    /// The child's environment.
    #[derive(Debug, Clone, Copy)]
    pub(crate) enum Env<'a> {
        /// The engine's own, passed as it is (nothing copied).
        Inherit,
        /// The engine's own without the variables named in `remove` and in `set`, then `set`
        /// (`NAME=value` entries, each name once). The engine's strings are pointed to, not copied.
        Edit {
            /// Names to leave out.
            remove: &'a [&'a [u8]],
            /// `NAME=value` entries to add.
            set: &'a [CString],
        },
    }

    /// What failed in the child before or at the `exec`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Stage {
        /// Joining a cgroup.
        Cgroup,
        /// Setting an rlimit.
        Limits,
        /// `setpgid` or `setsid`.
        Session,
        /// `PR_SET_CHILD_SUBREAPER`.
        Subreaper,
        /// Setting up stdin, stdout or stderr.
        Stdio,
        /// Changing to the working directory.
        Cwd,
        /// The `execve` itself.
        Exec,
    }

    /// A failed start.
    #[derive(Debug)]
    pub(crate) enum SpawnError {
        /// The child reported `errno` at `stage`; it has been reaped.
        Child(Stage, io::Error),
        /// `clone` itself failed (`EAGAIN`: too many processes; `EINVAL`: no `CLONE_PIDFD`, a
        /// kernel older than 5.2).
        Clone(io::Error),
    }

    /// A started process: its id and a pid file descriptor (close-on-exec) owned by the caller.
    #[derive(Debug)]
    pub(crate) struct Spawned {
        pub pid: i32,
        pub pidfd: OwnedFd,
    }

    /// The data the child reads, in the parent's memory.
    struct Child<'a> {
        programs: &'a [*const c_char],
        argv: *const *const c_char,
        envp: *const *const c_char,
        cwd: *const c_char,
        stdio: [RawFd; 3],
        /// `cgroup.procs` to write `0` to (the child joins its cgroup itself), or -1.
        cgroup_procs: RawFd,
        /// cgroup v1 `tasks` files to write `0` to.
        v1_tasks: [RawFd; 3],
        /// rlimits to set (the first `rlimit_count`).
        rlimits: [(i32, u64, u64); 3],
        rlimit_count: usize,
        session: Session,
        subreaper: bool,
        /// The registration file and the slot's offset, or -1.
        register_fd: RawFd,
        register_at: libc::off_t,
        probe: bool,
        /// Whether the kernel reset the handled signals (`CLONE_CLEAR_SIGHAND`).
        signals_cleared: bool,
        /// `stage << 16 | errno` of the failure, 0 when the `exec` succeeded.
        error: AtomicI32,
        /// Set by the child's first instruction: a child that never ran was killed at birth.
        entered: std::sync::atomic::AtomicBool,
    }

    /// The child's stack. It only holds the few frames of [`child_main`] and its system calls.
    const STACK: usize = 32 * 1024;

    /// Child stacks kept for the next spawns: a stack is only used between the `clone` and the
    /// child's `exec` (or exit), during which the spawning thread waits (`CLONE_VFORK`), so it
    /// is free again once the `clone` returns. Reusing one spares every spawn a 32 KiB `malloc`
    /// and `free` (which make glibc consolidate its free chunks).
    static STACKS: std::sync::Mutex<Vec<Box<[MaybeUninit<u8>]>>> =
        std::sync::Mutex::new(Vec::new());

    /// How many stacks are kept: one per thread spawning at the same moment, up to this.
    const STACKS_KEPT: usize = 4;

    fn take_stack() -> Box<[MaybeUninit<u8>]> {
        let kept = STACKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        kept.unwrap_or_else(|| Box::new_uninit_slice(STACK))
    }

    fn give_back_stack(stack: Box<[MaybeUninit<u8>]>) {
        let mut kept = STACKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() < STACKS_KEPT {
            kept.push(stack);
        }
    }

    fn stage_code(s: Stage) -> i32 {
        match s {
            Stage::Cgroup => 1,
            Stage::Session => 2,
            Stage::Subreaper => 3,
            Stage::Stdio => 4,
            Stage::Cwd => 5,
            Stage::Exec => 6,
            Stage::Limits => 7,
        }
    }

    fn stage_of(code: i32) -> Stage {
        match code {
            1 => Stage::Cgroup,
            2 => Stage::Session,
            3 => Stage::Subreaper,
            4 => Stage::Stdio,
            5 => Stage::Cwd,
            7 => Stage::Limits,
            _ => Stage::Exec,
        }
    }

    /// Starts the process. Returns once the child has called `execve` successfully (or failed
    /// before it and been reaped).
    pub(crate) fn spawn(req: &Request<'_>) -> Result<Spawned, SpawnError> {
        let programs: Vec<*const c_char> = req.programs.iter().map(|p| p.as_ptr()).collect();
        if programs.is_empty() {
            return Err(SpawnError::Child(Stage::Exec, io::Error::from_raw_os_error(libc::ENOENT)));
        }
        let mut argv: Vec<*const c_char> = req.argv.iter().map(|a| a.as_ptr()).collect();
        argv.push(ptr::null());
        let envp: Option<Vec<*const c_char>> = match req.env {
            Env::Inherit => None,
            Env::Edit { remove, set } => Some(edited_environ(remove, set)),
        };
        spawn_joining(req, join_method(), &programs, &argv, envp.as_deref())
    }

    /// [`spawn`] with the cgroup joined as `join` says (tests check both ways).
    #[cfg(test)]
    pub(crate) fn spawn_with(req: &Request<'_>, join: Join) -> Result<Spawned, SpawnError> {
        let programs: Vec<*const c_char> = req.programs.iter().map(|p| p.as_ptr()).collect();
        let mut argv: Vec<*const c_char> = req.argv.iter().map(|a| a.as_ptr()).collect();
        argv.push(ptr::null());
        assert!(matches!(req.env, Env::Inherit), "tests of the join inherit the environment");
        spawn_joining(req, join, &programs, &argv, None)
    }

    fn spawn_joining(
        req: &Request<'_>,
        join: Join,
        programs: &[*const c_char],
        argv: &[*const c_char],
        envp: Option<&[*const c_char]>,
    ) -> Result<Spawned, SpawnError> {
        if let Some(cg) = req.cgroup
            && join == Join::Clone3
        {
            match start(req, programs, argv, envp, Some(cg.dir), true) {
                Err(SpawnError::Clone(e)) if refused(&e) => {
                    // `clone3` or `CLONE_INTO_CGROUP` refused: the write works everywhere
                    // cgroup v2 does; keep to it if it succeeds.
                    let r = start_outside(req, programs, argv, envp);
                    if r.is_ok() {
                        CLONE3.store(false, Ordering::Relaxed);
                    }
                    return r;
                }
                r => return r,
            }
        }
        start_outside(req, programs, argv, envp)
    }

    /// [`start`] without `CLONE_INTO_CGROUP`: by `clone3` with `CLONE_CLEAR_SIGHAND` (the
    /// kernel resets every handled signal in the child, no system call of the child's), or,
    /// where that is refused, by `clone` with the child resetting them.
    fn start_outside(
        req: &Request<'_>,
        programs: &[*const c_char],
        argv: &[*const c_char],
        envp: Option<&[*const c_char]>,
    ) -> Result<Spawned, SpawnError> {
        if CLEAR_SIGHAND.load(Ordering::Relaxed) {
            match start(req, programs, argv, envp, None, true) {
                Err(SpawnError::Clone(e)) if refused(&e) => {
                    CLEAR_SIGHAND.store(false, Ordering::Relaxed);
                }
                r => return r,
            }
        }
        start(req, programs, argv, envp, None, false)
    }

    /// [`spawn`] without a cgroup, by `clone3` with `CLONE_CLEAR_SIGHAND` (`clear`) or by
    /// `clone` with the child resetting the handled signals (tests check both ways).
    #[cfg(test)]
    pub(crate) fn spawn_clearing(req: &Request<'_>, clear: bool) -> Result<Spawned, SpawnError> {
        let programs: Vec<*const c_char> = req.programs.iter().map(|p| p.as_ptr()).collect();
        let mut argv: Vec<*const c_char> = req.argv.iter().map(|a| a.as_ptr()).collect();
        argv.push(ptr::null());
        assert!(req.cgroup.is_none() && matches!(req.env, Env::Inherit), "a plain start");
        start(req, &programs, &argv, None, None, clear)
    }

    /// Starts the child: born in `into` (`clone3`), or, without it, joining `req.cgroup` (if
    /// any) by writing to its `cgroup.procs`. With `clear` (or `into`) the child is made by
    /// `clone3` with `CLONE_CLEAR_SIGHAND`, otherwise by `clone`.
    fn start(
        req: &Request<'_>,
        programs: &[*const c_char],
        argv: &[*const c_char],
        envp: Option<&[*const c_char]>,
        into: Option<BorrowedFd<'_>>,
        clear: bool,
    ) -> Result<Spawned, SpawnError> {
        let cgroup_procs = match (req.cgroup, into) {
            (Some(cg), None) => cg.procs.as_raw_fd(),
            _ => -1,
        };
        let mut v1_tasks = [-1; 3];
        for (slot, fd) in v1_tasks.iter_mut().zip(req.v1_tasks) {
            *slot = fd.as_raw_fd();
        }
        let mut rlimits = [(0, 0, 0); 3];
        let rlimit_count = req.rlimits.len().min(3);
        for (slot, r) in rlimits.iter_mut().zip(req.rlimits) {
            *slot = *r;
        }
        let child = Child {
            programs,
            v1_tasks,
            rlimits,
            rlimit_count,
            argv: argv.as_ptr(),
            // SAFETY: reading the pointer value of `environ`; see `specs/dispatch.md` on concurrent
            // `set_var` (whose own contract forbids it while other threads read the environment).
            envp: envp.map_or_else(|| unsafe { environ }, <[_]>::as_ptr),
            cwd: req.cwd.map_or(ptr::null(), CStr::as_ptr),
            stdio: [req.stdio[0].as_raw_fd(), req.stdio[1].as_raw_fd(), req.stdio[2].as_raw_fd()],
            cgroup_procs,
            session: req.session,
            subreaper: req.subreaper,
            register_fd: req.register.map_or(-1, |(f, _)| f.as_raw_fd()),
            register_at: req
                .register
                .and_then(|(_, at)| libc::off_t::try_from(at).ok())
                .unwrap_or(-1),
            probe: req.probe,
            signals_cleared: cfg!(target_arch = "x86_64") && (clear || into.is_some()),
            error: AtomicI32::new(0),
            entered: std::sync::atomic::AtomicBool::new(false),
        };
        let mut stack = take_stack();
        // The stack grows down on every architecture Linux runs this on; 16-byte aligned ends.
        let (low, top) = {
            let range = stack.as_mut_ptr_range();
            ((range.start as usize).next_multiple_of(16), range.end as usize & !15)
        };
        let mut pidfd: c_int = -1;
        let arg: *mut c_void = ptr::from_ref(&child).cast_mut().cast();
        let pid = {
            let _blocked = BlockSignals::all();
            match (child.signals_cleared, into) {
                #[cfg(target_arch = "x86_64")]
                (true, _) => {
                    let into_flag = if into.is_some() { CLONE_INTO_CGROUP } else { 0 };
                    let mut args = CloneArgs {
                        flags: (libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD) as u64
                            | CLONE_CLEAR_SIGHAND
                            | into_flag,
                        pidfd: ptr::from_mut(&mut pidfd) as u64,
                        exit_signal: libc::SIGCHLD as u64,
                        stack: low as u64,
                        stack_size: (top - low) as u64,
                        cgroup: into.map_or(0, |c| c.as_raw_fd() as u64),
                        ..CloneArgs::default()
                    };
                    // SAFETY: as for `clone` below; `args` names the same stack, `pidfd` and
                    // cgroup descriptor, all alive across the call.
                    let r = unsafe { clone3_vm(&mut args, child_main, arg) };
                    if r < 0 {
                        return Err(SpawnError::Clone(io::Error::from_raw_os_error(-r as i32)));
                    }
                    r as libc::pid_t
                }
                (_, Some(_)) => {
                    return Err(SpawnError::Clone(io::Error::from_raw_os_error(libc::ENOSYS)));
                }
                (_, None) => {
                    let flags =
                        libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD | libc::SIGCHLD;
                    // SAFETY: `child_main` runs on `stack`, which outlives the call: with
                    // `CLONE_VFORK` this thread is suspended until the child has called
                    // `execve` or exited, and the child only reads `child` (alive for the same
                    // span) and makes system calls, never returning into Rust code of the
                    // parent's frames. Signals are blocked around the call (see the module's
                    // documentation). `pidfd` receives the pid file descriptor (`CLONE_PIDFD`).
                    let r = unsafe {
                        libc::clone(
                            child_main,
                            top as *mut c_void,
                            flags,
                            arg,
                            ptr::from_mut(&mut pidfd),
                        )
                    };
                    if r < 0 {
                        return Err(SpawnError::Clone(io::Error::last_os_error()));
                    }
                    r
                }
            }
        };
        // SAFETY: `CLONE_PIDFD` stored a new descriptor, owned by nobody else, in `pidfd`.
        let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd) };
        let code = child.error.load(Ordering::Acquire);
        give_back_stack(stack);
        if into.is_some() && !child.entered.load(Ordering::Acquire) {
            // Killed before its first instruction: the kernel kills a process born by
            // `CLONE_INTO_CGROUP` into a cgroup whose kill count differs from its parent's
            // cgroup's (an engine whose own cgroup was killed once; see `Tree::finish`). The
            // hook never ran: reaped, and reported as `clone3` into the cgroup refused, so the
            // caller starts it again joining by the write, which has not that flaw (what the
            // probe child used to find out before the first hook).
            let _ = rustix::process::waitid(
                rustix::process::WaitId::PidFd(std::os::fd::AsFd::as_fd(&pidfd)),
                rustix::process::WaitIdOptions::EXITED,
            );
            return Err(SpawnError::Clone(io::Error::from_raw_os_error(libc::EPERM)));
        }
        if code != 0 {
            // The child exited with 127 before or at the exec: reap it.
            let _ = rustix::process::waitid(
                rustix::process::WaitId::PidFd(std::os::fd::AsFd::as_fd(&pidfd)),
                rustix::process::WaitIdOptions::EXITED,
            );
            return Err(SpawnError::Child(
                stage_of(code >> 16),
                io::Error::from_raw_os_error(code & 0xffff),
            ));
        }
        Ok(Spawned { pid, pidfd })
    }

    /// The engine's environment without the names in `remove` and `set`, then `set`, as a
    /// null-terminated array of pointers into the engine's own strings and `set`.
    fn edited_environ(remove: &[&[u8]], set: &[CString]) -> Vec<*const c_char> {
        let name_of = |entry: &[u8]| -> usize {
            entry.iter().position(|b| *b == b'=').unwrap_or(entry.len())
        };
        let set_names: Vec<&[u8]> = set
            .iter()
            .map(|e| {
                let b = e.as_bytes();
                &b[..name_of(b)]
            })
            .collect();
        let mut out = Vec::with_capacity(64);
        // SAFETY: `environ` is a null-terminated array of NUL-terminated strings (see `spawn` on
        // concurrent `set_var`).
        unsafe {
            let mut p = environ;
            while !p.is_null() && !(*p).is_null() {
                let entry = CStr::from_ptr(*p).to_bytes();
                let name = &entry[..name_of(entry)];
                if !remove.contains(&name) && !set_names.contains(&name) {
                    out.push(*p);
                }
                p = p.add(1);
            }
        }
        out.extend(set.iter().map(|e| e.as_ptr()));
        out.push(ptr::null());
        out
    }

    /// The value of the engine's variable `name`, read from `environ`.
    pub(crate) fn getenv(name: &[u8]) -> Option<Vec<u8>> {
        // SAFETY: as in `edited_environ`.
        unsafe {
            let mut p = environ;
            while !p.is_null() && !(*p).is_null() {
                let entry = CStr::from_ptr(*p).to_bytes();
                if let Some(rest) = entry.strip_prefix(name)
                    && let Some(value) = rest.strip_prefix(b"=")
                {
                    return Some(value.to_vec());
                }
                p = p.add(1);
            }
        }
        None
    }

    /// The folders the trees' reaper ([`start_tree_reaper`]) empties and removes when the
    /// engine ends, prepared by the caller (the reaper allocates nothing).
    #[derive(Debug, Default, Clone)]
    pub(crate) struct TreePaths {
        /// The engine's cgroup v2 tree.
        pub v2: Option<CString>,
        /// The engine's cgroup v1 trees (made or not: those that do not exist are skipped).
        pub v1: Vec<CString>,
        /// In trees shared with other engines, what this engine's run cgroups' names start
        /// with: only those are killed and removed, and the trees stay. `None`: the trees are
        /// the engine's own, killed and removed whole.
        pub runs: Option<CString>,
        /// With the subreaper and process-group mechanisms: the registered groups and the
        /// tagged processes, ended before the trees ([`ending::end_registrations`]); `None`:
        /// the shell script has them, or there are none (the cgroup mechanisms).
        pub registrations: Option<Registrations>,
    }

    /// [`start_tree_reaper`], sharing the engine's memory or forked as `share` says (sharing
    /// only where the kernel allows it), returning once the child holds no descriptor of the
    /// engine's.
    #[cfg(test)]
    pub(crate) fn fork_tree_reaper(paths: &TreePaths, share: bool) -> io::Result<(i32, OwnedFd)> {
        let f = start_tree_reaper_as(paths, share && reaper_shares_memory())?;
        f.ready.wait();
        // A test's reaper may outlive the test: its memory is never given back.
        std::mem::forget(f.memory);
        Ok((f.pid, f.pipe))
    }

    /// A trees' reaper just started ([`start_tree_reaper`]), maybe not set up yet.
    #[derive(Debug)]
    pub(crate) struct ForkedReaper {
        /// Its pid.
        pub pid: i32,
        /// The write end of its liveness pipe (close-on-exec, never written to).
        pub pipe: OwnedFd,
        /// The end-of-file of this pipe says it closed every descriptor it inherited.
        pub ready: Ready,
        /// What it runs on when it shares the engine's memory: to be kept until it is reaped.
        pub memory: Option<ReaperMemory>,
    }

    /// The read end of the pipe a trees' reaper closes last of the descriptors it inherited.
    #[derive(Debug)]
    pub(crate) struct Ready(OwnedFd);

    impl Ready {
        /// Waits until the reaper holds no descriptor of the engine's any more (it closed
        /// them, or died).
        pub(crate) fn wait(self) {
            let mut buf = [0u8; 1];
            while let Err(rustix::io::Errno::INTR) = rustix::io::read(&self.0, &mut buf) {}
        }
    }

    /// The stack and the paths of a trees' reaper that shares the engine's memory
    /// (`CLONE_VM`): it reads them, and runs on the stack, for as long as it lives, the
    /// engine's end included, so they are dropped only once it has been reaped (or never).
    pub(crate) struct ReaperMemory {
        stack: Box<[MaybeUninit<u8>]>,
        /// A `Box<ReaperArgs>`, held as a pointer: the child reads through it.
        args: ptr::NonNull<ReaperArgs>,
    }

    // SAFETY: `args` is an owned `Box<ReaperArgs>` (descriptor numbers and `CString`s).
    unsafe impl Send for ReaperMemory {}

    impl Drop for ReaperMemory {
        fn drop(&mut self) {
            // SAFETY: made by `Box::into_raw`, dropped once, the child reaped (see the type).
            drop(unsafe { Box::from_raw(self.args.as_ptr()) });
        }
    }

    impl std::fmt::Debug for ReaperMemory {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("ReaperMemory")
        }
    }

    /// What a trees' reaper started by `clone` gets: its descriptors and its own copy of the
    /// paths.
    struct ReaperArgs {
        rd: c_int,
        ready: c_int,
        paths: TreePaths,
    }

    /// The descriptor of the registration file the reaper keeps (-1: none).
    fn registration_fd(paths: &TreePaths) -> c_int {
        paths.registrations.as_ref().map_or(-1, |r| r.file)
    }

    /// The trees' reaper's stack when it shares the engine's memory: its deepest path is the
    /// tag sweep's list of processes (32 KiB) and a directory listing (4 KiB), or the walk of
    /// registered groups (about 16 KiB), and a few small frames. Pages it never touches are
    /// never made.
    const REAPER_STACK: usize = 256 * 1024;

    /// Whether a trees' reaper may share the engine's memory: the kernel has `close_range`
    /// (Linux 5.9), so that the child closes the descriptors it inherited in three calls that
    /// cannot fail (the C library's `syscall`, which it uses for this one, would write `errno`
    /// in the block of the engine's thread on a failure). Asked once.
    pub(crate) fn reaper_shares_memory() -> bool {
        static SHARES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        // SAFETY: `close_range` on a range that holds no descriptor closes nothing.
        *SHARES.get_or_init(|| unsafe {
            libc::syscall(libc::SYS_close_range, u32::MAX, u32::MAX, 0u32) == 0
        })
    }

    /// Starts the trees' reaper (`specs/dispatch.md`, "When the engine process dies: the
    /// reaper"): a process of the engine's own that runs no program. It leads a process group
    /// of its own, runs as a batch task (`SCHED_BATCH`: woken by the engine's end, it does not
    /// preempt it), keeps every signal blocked (only `SIGKILL` and `SIGSTOP` reach it), closes
    /// every descriptor but the read end of a pipe whose write end the engine keeps
    /// (close-on-exec) and never writes to, and blocks reading it. When the engine process
    /// ends, however it ends, the read sees end-of-file, and the child, with system calls
    /// only: kills the cgroup v2 tree (`cgroup.kill`, or freeze, SIGKILL every member listed,
    /// thaw), waits until it is empty, SIGKILLs every member of the v1 trees' run cgroups until
    /// none is listed, and removes the run cgroups and the trees. Returns its pid and the
    /// pipe's write end.
    ///
    /// Where the kernel allows it ([`reaper_shares_memory`]) the child shares the engine's
    /// memory (`clone` with `CLONE_VM`, on a stack of its own) rather than being a fork: no
    /// page table is copied, no page the engine writes later is copied for it, and the
    /// engine's end does not tear its address space down (the reaper, which still maps it,
    /// does, after the agent has its answer). It reads only its own copy of the paths
    /// ([`ReaperMemory`]) and makes its system calls directly ([`raw`]), never through the C
    /// library, whose wrappers reach the block of the engine thread that started it. The
    /// cost: processes that share memory are killed together by the kernel's
    /// out-of-memory killer, so an engine it picks takes its reaper along and the next
    /// engine's sweep ends its runs (`specs/dispatch.md`). Elsewhere it is a `fork`.
    ///
    /// Returns at once, with [`Ready`]: its end-of-file says the child has closed every
    /// descriptor it inherited but its pipe (it closes that pipe last). Until then the child
    /// holds a copy of each of the engine's, the agent's stdout among them, and an engine that
    /// exited first would leave the agent waiting for the child to be scheduled: the caller
    /// [`Ready::wait`]s before any hook starts. In between it goes on (making the trees, the
    /// first run's cgroups) while the child sets itself up beside it. The trees need not
    /// exist yet: the child opens them by path at the engine's end and skips one never made.
    pub(crate) fn start_tree_reaper(paths: &TreePaths) -> io::Result<ForkedReaper> {
        start_tree_reaper_as(paths, reaper_shares_memory())
    }

    /// [`start_tree_reaper`], sharing the engine's memory when `share`.
    fn start_tree_reaper_as(paths: &TreePaths, share: bool) -> io::Result<ForkedReaper> {
        let (rd, wr) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let (ready_rd, ready_wr) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let (pid, memory) = if share {
            let args = ptr::NonNull::from(Box::leak(Box::new(ReaperArgs {
                rd: rd.as_raw_fd(),
                ready: ready_wr.as_raw_fd(),
                paths: paths.clone(),
            })));
            // Owned from here: given back on an early return, or once the child is reaped.
            let mut memory = ReaperMemory { stack: Box::new_uninit_slice(REAPER_STACK), args };
            let top = memory.stack.as_mut_ptr_range().end as usize & !15;
            let arg: *mut c_void = args.as_ptr().cast();
            let pid = {
                // Every signal blocked in the child from its first instruction: no handler of
                // the engine ever runs there, and terminal signals cannot end it.
                let _blocked = BlockSignals::all();
                // SAFETY: `shared_reaper_main` runs on `stack` and reads `args`, both kept
                // until the child is reaped ([`ReaperMemory`]); it allocates nothing, takes no
                // lock, makes its system calls directly, and never returns.
                unsafe {
                    libc::clone(
                        shared_reaper_main,
                        top as *mut c_void,
                        libc::CLONE_VM | libc::SIGCHLD,
                        arg,
                    )
                }
            };
            if pid < 0 {
                return Err(io::Error::last_os_error());
            }
            // What a fork does for itself: its own process group (which the engine may set
            // for a child that has not called `exec`), and a batch task.
            let normal = libc::sched_param { sched_priority: 0 };
            // SAFETY: plain system calls about the engine's own child.
            unsafe {
                libc::setpgid(pid, pid);
                libc::sched_setscheduler(pid, libc::SCHED_BATCH, &raw const normal);
            }
            (pid, Some(memory))
        } else {
            let pid = {
                let _blocked = BlockSignals::all();
                // SAFETY: `fork` in a possibly multi-threaded process: the child only makes
                // async-signal-safe system calls on memory prepared before the fork (its copy)
                // and ends with `_exit`; it never returns from `tree_reaper`.
                let pid = unsafe { libc::fork() };
                if pid == 0 {
                    // SAFETY: in the child, as above.
                    unsafe { forked_reaper(rd.as_raw_fd(), ready_wr.as_raw_fd(), paths) }
                }
                pid
            };
            if pid < 0 {
                return Err(io::Error::last_os_error());
            }
            (pid, None)
        };
        drop(ready_wr);
        drop(rd);
        Ok(ForkedReaper { pid, pipe: wr, ready: Ready(ready_rd), memory })
    }

    /// The trees' reaper sharing the engine's memory, from its first instruction: `arg` is its
    /// [`ReaperArgs`]. Never returns.
    extern "C" fn shared_reaper_main(arg: *mut c_void) -> c_int {
        // SAFETY: `arg` is the `ReaperArgs` the engine keeps until this process is reaped.
        let args = unsafe { &*arg.cast_const().cast::<ReaperArgs>() };
        let (rd, ready, regs) = (args.rd, args.ready, registration_fd(&args.paths));
        // Only direct system calls (see [`raw`]), on this process's own descriptor table (the
        // engine's copy): `close_range` (which the engine found available) on valid ranges,
        // which does not fail and so sets no `errno`, around the descriptors kept (the pipes,
        // and the registration file when it has one); the pipe moved onto 0 as a fork has it
        // (the ready pipe closed first when it is 0 itself, else last).
        let mut keep = [rd, ready, regs];
        keep.sort_unstable();
        // SAFETY: descriptors this process owns; none is used after it is closed.
        let pipe = unsafe {
            let mut first = 0;
            for k in keep.into_iter().filter(|k| *k >= 0) {
                if first < k {
                    libc::syscall(libc::SYS_close_range, first as u32, (k - 1) as u32, 0u32);
                }
                first = k + 1;
            }
            libc::syscall(libc::SYS_close_range, first as u32, c_int::MAX as u32, 0u32);
            let mut pipe = rd;
            if rd != 0 {
                if ready == 0 {
                    raw::close(ready);
                }
                if let Ok(moved) = rustix::io::fcntl_dupfd_cloexec(BorrowedFd::borrow_raw(rd), 0) {
                    pipe = moved.into_raw_fd();
                    raw::close(rd);
                }
            }
            if ready != 0 {
                raw::close(ready);
            }
            pipe
        };
        let _ = rustix::process::chdir(c"/");
        // SAFETY: this process's own descriptor, held until it exits.
        let rd = unsafe { BorrowedFd::borrow_raw(pipe) };
        wait_for_end(rd);
        // SAFETY: the engine's end (or, in a unit test, the pipe closed by hand); the paths are
        // this process's own copy, the registration file descriptor its own.
        unsafe { end_trees(&args.paths, regs) }
    }

    /// The trees' reaper in a forked child: sets itself up, waits, ends the trees. Never
    /// returns.
    ///
    /// # Safety
    /// Only in the child of a `fork`, with every signal blocked.
    unsafe fn forked_reaper(rd: c_int, ready: c_int, paths: &TreePaths) -> ! {
        let regs = registration_fd(paths);
        // SAFETY: async-signal-safe system calls on this process's own copy of the memory.
        unsafe {
            libc::setpgid(0, 0);
            // SCHED_BATCH: when the engine's end wakes this process, it does not preempt the
            // ending engine (batch tasks never preempt at wake-up; their share of the CPU is
            // the normal one, so the kills below are not delayed beyond the next tick).
            let normal = libc::sched_param { sched_priority: 0 };
            libc::sched_setscheduler(0, libc::SCHED_BATCH, &raw const normal);
            // The pipe on 0, the ready pipe on 1, the registration file (if any) on 2 (moved
            // above 2 first, so none overwrites another), every other descriptor closed, then
            // the ready pipe.
            let rd = libc::fcntl(rd, libc::F_DUPFD, 3);
            let ready = libc::fcntl(ready, libc::F_DUPFD, 3);
            let regs = if regs >= 0 { libc::fcntl(regs, libc::F_DUPFD, 3) } else { -2 };
            if rd < 0 || ready < 0 || libc::dup2(rd, 0) != 0 || libc::dup2(ready, 1) != 1 {
                libc::_exit(1);
            }
            let regs = match regs {
                -2 => -1,
                r if r >= 0 && libc::dup2(r, 2) == 2 => 2,
                _ => libc::_exit(1),
            };
            close_from(if regs == 2 { 3 } else { 2 });
            libc::chdir(c"/".as_ptr());
            libc::close(1);
            wait_for_end(BorrowedFd::borrow_raw(0));
            end_trees(paths, regs)
        }
    }

    /// Blocks until the liveness pipe `rd` reports end-of-file (the engine process ended) or
    /// an error. Sets no `errno`.
    fn wait_for_end(rd: BorrowedFd<'_>) {
        let mut buf = [0u8; 64];
        loop {
            match rustix::io::read(rd, &mut buf) {
                Ok(0) => break,
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(_) => break,
            }
        }
    }

    /// The trees' reaper's work once the engine has ended: ends the registered groups and the
    /// tagged processes when it has the registration file (`regs`, -1: none), then the v2
    /// tree, then each v1 tree, and exits. Never returns.
    ///
    /// # Safety
    /// Only in the trees' reaper, once the engine has ended.
    unsafe fn end_trees(paths: &TreePaths, regs: c_int) -> ! {
        let runs: &[u8] = paths.runs.as_ref().map_or(&[], |p| p.to_bytes());
        // SAFETY: async-signal-safe system calls on buffers this process owns.
        unsafe {
            let me = rustix::process::getpid().as_raw_nonzero().get();
            if let Some(r) = &paths.registrations
                && regs >= 0
            {
                ending::end_registrations(regs, r, me);
            }
            if let Some(v2) = &paths.v2 {
                end_tree(v2, me, true, runs);
            }
            for t in &paths.v1 {
                end_tree(t, me, false, runs);
            }
            libc::_exit(0)
        }
    }

    /// Closes every descriptor from `low` up: `close_range` (Linux 5.9), else each one listed
    /// in `/proc/self/fd`, else the first 4096.
    ///
    /// # Safety
    /// Only in the child of a fork (it closes descriptors other code may own).
    unsafe fn close_from(low: c_int) {
        // SAFETY: plain system calls.
        unsafe {
            if libc::syscall(libc::SYS_close_range, low as u32, u32::MAX, 0u32) == 0 {
                return;
            }
            let d = libc::open(c"/proc/self/fd".as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            if d < 0 {
                for fd in low..4096 {
                    libc::close(fd);
                }
                return;
            }
            for _ in 0..64 {
                let mut closed = false;
                each_entry(d, |name, _| {
                    let fd = number(name);
                    if fd >= low && fd != d {
                        libc::close(fd);
                        closed = true;
                    }
                });
                if !closed {
                    break;
                }
            }
            libc::close(d);
        }
    }

    /// Ends the cgroup tree at `tree` and removes it with its run cgroups. A cgroup v2 tree
    /// (`v2`) is killed (`cgroup.kill`, or freeze, SIGKILL every member listed, thaw) and
    /// waited for until it is empty; in a cgroup v1 tree, every member of its run cgroups is
    /// SIGKILLed until none is listed (up to about a second).
    ///
    /// In a tree shared with other engines (`runs` not empty), only the run cgroups whose
    /// names start with `runs` are: each v2 one killed and waited for, each v1 one's members
    /// SIGKILLed until none is listed, then removed; the tree stays.
    ///
    /// # Safety
    /// Only in the trees' reaper.
    unsafe fn end_tree(tree: &CStr, me: c_int, v2: bool, runs: &[u8]) {
        // SAFETY: plain system calls on this process's own buffers.
        unsafe {
            let dir = raw::open(None, tree, raw::DIR);
            if dir < 0 {
                return;
            }
            if !runs.is_empty() {
                end_runs(dir, me, v2, runs);
                raw::close(dir);
                return;
            }
            if v2 {
                kill_v2(dir, me);
                for i in 0..10_000 {
                    if !populated(dir) {
                        break;
                    }
                    pause(i);
                }
            } else {
                for i in 0..1_100 {
                    if !kill_members(dir, me, false, b"") {
                        break;
                    }
                    pause(i);
                }
            }
            remove_runs(dir, b"");
            raw::close(dir);
            raw::rmdir(None, tree);
        }
    }

    /// Kills every process of the open cgroup v2 folder `dir` (and its descendants):
    /// `cgroup.kill`, or where the kernel has none, freeze, SIGKILL each member listed (until
    /// none is, at most 64 passes) and thaw.
    ///
    /// # Safety
    /// Only in the trees' reaper.
    unsafe fn kill_v2(dir: c_int, me: c_int) {
        // SAFETY: plain system calls on this process's own buffers.
        unsafe {
            if !write_at(dir, c"cgroup.kill", b"1") {
                let frozen = write_at(dir, c"cgroup.freeze", b"1");
                for _ in 0..64 {
                    if !kill_members(dir, me, true, b"") {
                        break;
                    }
                    raw::yield_now();
                }
                if frozen {
                    write_at(dir, c"cgroup.freeze", b"0");
                }
            }
        }
    }

    /// [`end_tree`] for the run cgroups of the open shared tree `dir` whose names start with
    /// `runs`.
    ///
    /// # Safety
    /// Only in the trees' reaper.
    unsafe fn end_runs(dir: c_int, me: c_int, v2: bool, runs: &[u8]) {
        // SAFETY: plain system calls on this process's own buffers.
        unsafe {
            if v2 {
                each_run(dir, runs, |_, run| kill_v2(run, me));
                for i in 0..10_000 {
                    let mut any = false;
                    each_run(dir, runs, |_, run| any |= populated(run));
                    if !any {
                        break;
                    }
                    pause(i);
                }
            } else {
                for i in 0..1_100 {
                    if !kill_members(dir, me, false, runs) {
                        break;
                    }
                    pause(i);
                }
                hand_back_runs(dir, runs);
            }
            remove_runs(dir, runs);
        }
    }

    /// Hands the engine's empty runs in the shared cgroup v1 tree `dir` (names starting with
    /// `runs`) back to the user's next engine: each renamed to the first of
    /// [`crate::limits::FREE_RUNS`] not taken (a `rename` where the next engine would `mkdir`,
    /// and no removal or offlining of it); the rest, and any that still lists a process, are
    /// left to [`remove_runs`].
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn hand_back_runs(dir: c_int, runs: &[u8]) {
        // SAFETY: plain system calls on this process's own buffers.
        unsafe {
            let mut slots = crate::limits::FREE_RUNS.iter();
            let mut slot = slots.next();
            each_run(dir, runs, |name, sub| {
                let empty = !populated_v1(sub);
                while empty && let Some(free) = slot {
                    if raw::rename(dir, name, free) {
                        return;
                    }
                    slot = slots.next();
                }
            });
        }
    }

    /// Whether the cgroup v1 folder `dir` lists a process (`cgroup.procs`; unreadable counts
    /// as listing one).
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn populated_v1(dir: c_int) -> bool {
        let mut buf = [0u8; 16];
        // SAFETY: as the caller promises.
        unsafe { read_start(Some(dir), c"cgroup.procs", &mut buf) }.is_none_or(|t| !t.is_empty())
    }

    /// The start of the file `name` of the open folder `dir` (with `None`, the path `name`),
    /// read once into `buf`; `None` when it cannot be opened or read.
    ///
    /// # Safety
    /// `dir`, if any, is an open descriptor.
    unsafe fn read_start<'b>(
        dir: Option<c_int>,
        name: &CStr,
        buf: &'b mut [u8],
    ) -> Option<&'b [u8]> {
        // SAFETY: plain system calls on the caller's buffer.
        unsafe {
            let fd = raw::open(dir, name, raw::READ);
            if fd < 0 {
                return None;
            }
            let n = raw::read(fd, buf);
            raw::close(fd);
            buf.get(..n?)
        }
    }

    /// Calls `f` with the name of each sub-folder of `dir` whose name starts with `prefix`,
    /// and that folder open.
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn each_run(dir: c_int, prefix: &[u8], mut f: impl FnMut(&CStr, c_int)) {
        // SAFETY: plain system calls.
        unsafe {
            each_entry(dir, |name, is_dir| {
                if !is_dir || !name.to_bytes().starts_with(prefix) {
                    return;
                }
                let sub = raw::open(Some(dir), name, raw::DIR);
                if sub >= 0 {
                    f(name, sub);
                    raw::close(sub);
                }
            });
        }
    }

    /// A short wait between passes: a yield for the first hundred, then a millisecond.
    fn pause(pass: u32) {
        if pass < 100 {
            raw::yield_now();
        } else {
            raw::sleep_a_millisecond();
        }
    }

    /// Writes `text` to the file `name` of the folder `dir`; whether all of it was written.
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn write_at(dir: c_int, name: &CStr, text: &[u8]) -> bool {
        // SAFETY: plain system calls on the caller's buffers.
        unsafe {
            let fd = raw::open(Some(dir), name, raw::WRITE);
            if fd < 0 {
                return false;
            }
            let ok = raw::write(fd, text) == Some(text.len());
            raw::close(fd);
            ok
        }
    }

    /// Whether the cgroup v2 folder `dir` has a live member (`cgroup.events`; unreadable counts
    /// as populated).
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn populated(dir: c_int) -> bool {
        let mut buf = [0u8; 256];
        // SAFETY: as the caller promises.
        unsafe { read_start(Some(dir), c"cgroup.events", &mut buf) }
            .is_none_or(|t| !t.split(|b| *b == b'\n').any(|l| l == b"populated 0"))
    }

    /// SIGKILLs every process listed in the `cgroup.procs` of each run cgroup of `dir` whose
    /// name starts with `prefix` (and of `dir` itself with `with_dir`), never PID 1 or `me`;
    /// whether any was listed.
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn kill_members(dir: c_int, me: c_int, with_dir: bool, prefix: &[u8]) -> bool {
        // SAFETY: plain system calls on local buffers.
        unsafe {
            let mut any = false;
            // SIGKILLs the pid just read (-1: none), never PID 1 or `me`.
            let mut kill = |pid: i64| {
                if let Ok(p) = c_int::try_from(pid)
                    && p > 1
                    && p != me
                {
                    any = true;
                    raw::kill(p);
                }
            };
            let mut kill_listed = |procs: c_int| {
                if procs < 0 {
                    return;
                }
                each_number(procs, |pid| kill(i64::from(pid)));
                raw::close(procs);
            };
            let procs = c"cgroup.procs";
            if with_dir {
                kill_listed(raw::open(Some(dir), procs, raw::READ));
            }
            each_run(dir, prefix, |_, sub| kill_listed(raw::open(Some(sub), procs, raw::READ)));
            any
        }
    }

    /// Removes every sub-folder of `dir` whose name starts with `prefix` (its run cgroups),
    /// trying again while the kernel still holds one busy (a killed member that has not
    /// finished dying): up to about a second.
    ///
    /// # Safety
    /// Plain system calls.
    unsafe fn remove_runs(dir: c_int, prefix: &[u8]) {
        // SAFETY: plain system calls.
        unsafe {
            for i in 0..1_100 {
                let mut left = false;
                each_entry(dir, |name, is_dir| {
                    if is_dir && name.to_bytes().starts_with(prefix) && !raw::rmdir(Some(dir), name)
                    {
                        left = true;
                    }
                });
                if !left {
                    break;
                }
                pause(i);
            }
        }
    }

    /// Calls `f(name, is_dir)` for each entry of the open folder `dir` but `.` and `..`, read
    /// from its start with `getdents64` into a buffer on the stack.
    ///
    /// # Safety
    /// Plain system calls on a local buffer.
    unsafe fn each_entry(dir: c_int, mut f: impl FnMut(&CStr, bool)) {
        let mut buf = [MaybeUninit::<u8>::uninit(); 4096];
        // SAFETY: the caller's open descriptor, alive for the call.
        let fd = unsafe { BorrowedFd::borrow_raw(dir) };
        if rustix::fs::seek(fd, rustix::fs::SeekFrom::Start(0)).is_err() {
            return;
        }
        let mut entries = rustix::fs::RawDir::new(fd, &mut buf);
        while let Some(entry) = entries.next() {
            let Ok(entry) = entry else { return };
            let name = entry.file_name();
            if name != c"." && name != c".." {
                f(name, entry.file_type() == rustix::fs::FileType::Directory);
            }
        }
    }

    /// The system calls of the trees' reaper, made directly (rustix) rather than through the
    /// C library: a reaper that shares the engine's memory also shares the thread pointer of
    /// the engine thread that started it, and the C library's wrappers reach that thread's
    /// block (`errno` on a failure; the cancellation state at every cancellation point, such
    /// as `read`, `openat`, `close`), which that thread still uses while the engine runs, and
    /// which may be gone (the thread ended, its stack unmapped) by the engine's end. Direct
    /// system calls touch no thread block. Each returns what the reaper needs: a raw
    /// descriptor or -1, a count or `None`, whether it worked.
    mod raw {
        use std::{
            ffi::{CStr, c_int},
            os::fd::{BorrowedFd, IntoRawFd},
        };

        use rustix::fs::{AtFlags, Mode, OFlags};

        /// Opening a folder.
        pub(super) const DIR: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY);
        /// Opening a file to read.
        pub(super) const READ: OFlags = OFlags::RDONLY;
        /// Opening a file to write.
        pub(super) const WRITE: OFlags = OFlags::WRONLY;

        /// # Safety
        /// `fd` is open, and stays open while the result is used.
        unsafe fn borrow<'a>(fd: c_int) -> BorrowedFd<'a> {
            // SAFETY: as the caller promises.
            unsafe { BorrowedFd::borrow_raw(fd) }
        }

        /// `path` opened with `flags` (close-on-exec), relative to the open folder `dir` or,
        /// with `None`, to the working folder; -1 when it cannot be.
        ///
        /// # Safety
        /// `dir`, if any, is an open descriptor.
        pub(super) unsafe fn open(dir: Option<c_int>, path: &CStr, flags: OFlags) -> c_int {
            let flags = flags | OFlags::CLOEXEC;
            match dir {
                // SAFETY: as the caller promises.
                Some(d) => rustix::fs::openat(unsafe { borrow(d) }, path, flags, Mode::empty()),
                None => rustix::fs::openat(rustix::fs::CWD, path, flags, Mode::empty()),
            }
            .map_or(-1, IntoRawFd::into_raw_fd)
        }

        /// Closes a descriptor [`open`] returned.
        ///
        /// # Safety
        /// `fd` is the caller's own, not used after this.
        pub(super) unsafe fn close(fd: c_int) {
            // SAFETY: as the caller promises.
            unsafe { rustix::io::close(fd) }
        }

        /// Reads into `buf`: how much, or `None` on an error.
        ///
        /// # Safety
        /// `fd` is open.
        pub(super) unsafe fn read(fd: c_int, buf: &mut [u8]) -> Option<usize> {
            // SAFETY: as the caller promises.
            rustix::io::read(unsafe { borrow(fd) }, buf).ok()
        }

        /// Writes `text`: how much was written, or `None` on an error.
        ///
        /// # Safety
        /// `fd` is open.
        pub(super) unsafe fn write(fd: c_int, text: &[u8]) -> Option<usize> {
            // SAFETY: as the caller promises.
            rustix::io::write(unsafe { borrow(fd) }, text).ok()
        }

        /// Sends `SIGKILL` to the process `pid` (at least 1).
        pub(super) fn kill(pid: c_int) {
            signal(pid, rustix::process::Signal::KILL);
        }

        /// Sends `sig` to the process `pid` (at least 1): whether it was sent.
        pub(super) fn signal(pid: c_int, sig: rustix::process::Signal) -> bool {
            rustix::process::Pid::from_raw(pid)
                .is_some_and(|p| rustix::process::kill_process(p, sig).is_ok())
        }

        /// Sends `SIGKILL` to the process group `pgid` (at least 1).
        pub(super) fn kill_group(pgid: c_int) {
            if let Some(g) = rustix::process::Pid::from_raw(pgid) {
                let _ = rustix::process::kill_process_group(g, rustix::process::Signal::KILL);
            }
        }

        /// Reads into `buf` at `offset`: how much, or `None` on an error.
        ///
        /// # Safety
        /// `fd` is open.
        pub(super) unsafe fn pread(fd: c_int, buf: &mut [u8], offset: u64) -> Option<usize> {
            // SAFETY: as the caller promises.
            rustix::io::pread(unsafe { borrow(fd) }, buf, offset).ok()
        }

        /// Removes the empty folder `path` (relative as in [`open`]): whether it is gone.
        ///
        /// # Safety
        /// `dir`, if any, is an open descriptor.
        pub(super) unsafe fn rmdir(dir: Option<c_int>, path: &CStr) -> bool {
            match dir {
                // SAFETY: as the caller promises.
                Some(d) => rustix::fs::unlinkat(unsafe { borrow(d) }, path, AtFlags::REMOVEDIR),
                None => rustix::fs::unlinkat(rustix::fs::CWD, path, AtFlags::REMOVEDIR),
            }
            .is_ok()
        }

        /// Renames `from` to `to` in the open folder `dir`: whether it worked (`to` taken or
        /// `from` gone: no).
        ///
        /// # Safety
        /// `dir` is an open descriptor.
        pub(super) unsafe fn rename(dir: c_int, from: &CStr, to: &CStr) -> bool {
            // SAFETY: as the caller promises.
            let d = unsafe { borrow(dir) };
            rustix::fs::renameat(d, from, d, to).is_ok()
        }

        /// Lets another task run.
        pub(super) fn yield_now() {
            rustix::thread::sched_yield();
        }

        /// Sleeps for a millisecond.
        pub(super) fn sleep_a_millisecond() {
            let _ = rustix::thread::nanosleep(&rustix::thread::Timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            });
        }
    }

    /// The number `name` spells (-1 if it is not one).
    fn number(name: &CStr) -> c_int {
        number_in(name.to_bytes())
    }

    /// Calls `f` with each number of the text read from `fd` to its end (numbers separated by
    /// anything but digits: `cgroup.procs`, a task's `children`).
    ///
    /// # Safety
    /// `fd` is open.
    unsafe fn each_number(fd: c_int, mut f: impl FnMut(c_int)) {
        let mut buf = [0u8; 1024];
        let mut value: i64 = -1;
        // SAFETY: as the caller promises.
        while let Some(n) = unsafe { raw::read(fd, &mut buf) }
            && n > 0
        {
            for &b in buf.get(..n).unwrap_or_default() {
                if b.is_ascii_digit() {
                    value = value.max(0).saturating_mul(10).saturating_add(i64::from(b - b'0'));
                } else if value >= 0 {
                    if let Ok(v) = c_int::try_from(value) {
                        f(v);
                    }
                    value = -1;
                }
            }
        }
        if value >= 0
            && let Ok(v) = c_int::try_from(value)
        {
            f(v);
        }
    }

    /// The number `digits` spell, one to nine of them (-1 if they are not that).
    fn number_in(digits: &[u8]) -> c_int {
        if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
            return -1;
        }
        digits.iter().fold(0, |n, d| n * 10 + c_int::from(d - b'0'))
    }

    /// `CLONE_INTO_CGROUP` (Linux 5.7; not in every C library's headers yet).
    #[cfg(target_arch = "x86_64")]
    const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

    /// `CLONE_CLEAR_SIGHAND` (Linux 5.5): every signal with a handler starts at its default in
    /// the child (ignored ones stay ignored), which the child would otherwise do with a
    /// `sigaction` query per signal.
    #[cfg(target_arch = "x86_64")]
    const CLONE_CLEAR_SIGHAND: u64 = 0x1_0000_0000;

    /// The kernel's `struct clone_args`, up to `cgroup` (`CLONE_ARGS_SIZE_VER2`, 88 bytes).
    #[cfg(target_arch = "x86_64")]
    #[repr(C)]
    #[derive(Default)]
    struct CloneArgs {
        flags: u64,
        pidfd: u64,
        child_tid: u64,
        parent_tid: u64,
        exit_signal: u64,
        stack: u64,
        stack_size: u64,
        tls: u64,
        set_tid: u64,
        set_tid_size: u64,
        cgroup: u64,
    }

    /// `clone3(args)` whose child calls `f(arg)` on the stack `args` names and exits with its
    /// result (it never returns into the caller's frames); the parent gets the child's pid or
    /// `-errno`. What glibc's `clone` does for `clone`, which it does not offer for `clone3`.
    ///
    /// # Safety
    /// `args` must name a stack that stays valid, and unused by anything else, until the child
    /// has exited or called `execve` (with `CLONE_VFORK`: until this call returns), and `f` must
    /// not return into Rust code that relies on the parent's stack.
    #[cfg(target_arch = "x86_64")]
    unsafe fn clone3_vm(
        args: &mut CloneArgs,
        f: extern "C" fn(*mut c_void) -> c_int,
        arg: *mut c_void,
    ) -> isize {
        let ret: isize;
        // SAFETY: the caller's contract. The parent's side is one system call (which clobbers
        // rcx and r11). The child starts after the `syscall` with rax = 0 and rsp at the top of
        // its own 16-byte aligned stack (so the `call` leaves it as the ABI wants), clears the
        // frame pointer, calls `f(arg)` and exits the thread with its result: it never reaches
        // the end of this block.
        unsafe {
            std::arch::asm!(
                "syscall",
                "test rax, rax",
                "jnz 2f",
                "xor ebp, ebp",
                "mov rdi, r13",
                "call r12",
                "mov edi, eax",
                "mov eax, 60",
                "syscall",
                "ud2",
                "2:",
                inlateout("rax") libc::SYS_clone3 as isize => ret,
                in("rdi") ptr::from_mut(args),
                in("rsi") size_of::<CloneArgs>(),
                in("r12") f,
                in("r13") arg,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        ret
    }

    /// Blocks every signal of this thread until dropped.
    struct BlockSignals {
        old: libc::sigset_t,
    }

    impl BlockSignals {
        fn all() -> BlockSignals {
            // SAFETY: plain libc calls on local, initialised signal sets.
            unsafe {
                let mut all = MaybeUninit::<libc::sigset_t>::uninit();
                libc::sigfillset(all.as_mut_ptr());
                let mut old = MaybeUninit::<libc::sigset_t>::uninit();
                libc::sigemptyset(old.as_mut_ptr());
                libc::pthread_sigmask(libc::SIG_SETMASK, all.as_ptr(), old.as_mut_ptr());
                BlockSignals { old: old.assume_init() }
            }
        }
    }

    impl Drop for BlockSignals {
        fn drop(&mut self) {
            // SAFETY: restores the mask saved by `all`.
            unsafe {
                libc::pthread_sigmask(libc::SIG_SETMASK, &raw const self.old, ptr::null_mut());
            }
        }
    }

    /// The child: runs on its own stack in the engine's memory, until `execve` replaces it.
    extern "C" fn child_main(arg: *mut c_void) -> c_int {
        // SAFETY: `arg` is the `Child` the parent keeps alive until this process execs or exits.
        let c = unsafe { &*arg.cast_const().cast::<Child<'_>>() };
        c.entered.store(true, Ordering::Release);
        // SAFETY: only async-signal-safe system calls on memory the parent prepared.
        unsafe {
            if c.signals_cleared {
                default_sigpipe();
            } else {
                reset_signals();
            }
            #[cfg(test)]
            if c.probe && !signals_at_default() {
                libc::_exit(3);
            }
            if c.cgroup_procs >= 0 && libc::write(c.cgroup_procs, b"0".as_ptr().cast(), 1) != 1 {
                fail(c, Stage::Cgroup);
            }
            for fd in c.v1_tasks {
                if fd >= 0 && libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    fail(c, Stage::Cgroup);
                }
            }
            for (res, soft, hard) in c.rlimits.iter().take(c.rlimit_count) {
                // Never above what the engine itself has: only root may raise a hard limit.
                let res = *res as libc::__rlimit_resource_t;
                let mut now = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
                let ceiling =
                    if libc::getrlimit(res, &raw mut now) == 0 { now.rlim_max } else { u64::MAX };
                let lim =
                    libc::rlimit { rlim_cur: (*soft).min(ceiling), rlim_max: (*hard).min(ceiling) };
                if libc::setrlimit(res, &raw const lim) != 0 {
                    fail(c, Stage::Limits);
                }
            }
            if c.probe {
                libc::_exit(0);
            }
            let ok = match c.session {
                Session::NewGroup => libc::setpgid(0, 0) == 0,
                Session::NewSession => libc::setsid() >= 0,
            };
            if !ok {
                fail(c, Stage::Session);
            }
            if c.subreaper && libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
                fail(c, Stage::Subreaper);
            }
            if c.register_fd >= 0 && c.register_at >= 0 {
                // Best effort, like the engine's own write after the start: it leads its group
                // now, whose id is its pid.
                let line = crate::reaper::slot_line(libc::getpid());
                libc::pwrite(c.register_fd, line.as_ptr().cast(), line.len(), c.register_at);
            }
            // A source below 3 other than its own slot would be overwritten by an earlier dup2:
            // move it out of the way first.
            let mut src = c.stdio;
            for (i, fd) in src.iter_mut().enumerate() {
                if *fd < 3 && *fd != i as RawFd {
                    *fd = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 3);
                    if *fd < 0 {
                        fail(c, Stage::Stdio);
                    }
                }
            }
            for (i, fd) in src.iter().enumerate() {
                let target = i as RawFd;
                let ok = if *fd == target {
                    libc::fcntl(target, libc::F_SETFD, 0) == 0
                } else {
                    libc::dup2(*fd, target) == target
                };
                if !ok {
                    fail(c, Stage::Stdio);
                }
            }
            if !c.cwd.is_null() && libc::chdir(c.cwd) != 0 {
                fail(c, Stage::Cwd);
            }
            let mut empty = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(empty.as_mut_ptr());
            libc::pthread_sigmask(libc::SIG_SETMASK, empty.as_ptr(), ptr::null_mut());
            let mut denied = false;
            for p in c.programs {
                libc::execve(*p, c.argv, c.envp);
                match errno() {
                    libc::EACCES => denied = true,
                    libc::ENOENT | libc::ENOTDIR | libc::ENAMETOOLONG | libc::ELOOP => {}
                    _ => fail(c, Stage::Exec),
                }
            }
            if denied {
                set_errno(libc::EACCES);
            }
            fail(c, Stage::Exec)
        }
    }

    /// Records the failure of `stage` with the current `errno` and exits the child.
    ///
    /// # Safety
    /// Only in the child.
    unsafe fn fail(c: &Child<'_>, stage: Stage) -> ! {
        let e = errno() & 0xffff;
        c.error.store(stage_code(stage) << 16 | e.max(1), Ordering::Release);
        // SAFETY: `_exit` runs no destructor and no atexit handler of the shared memory.
        unsafe { libc::_exit(127) }
    }

    fn errno() -> i32 {
        // SAFETY: this thread's errno location (in the child: the one it shares with the
        // suspended parent thread, which reads errno only when `clone` itself fails).
        unsafe { *libc::__errno_location() }
    }

    fn set_errno(e: i32) {
        // SAFETY: this thread's errno location.
        unsafe { *libc::__errno_location() = e }
    }

    /// `SIGPIPE` back to its default: Rust programs ignore it, their children should not
    /// inherit it ignored (std does the same); the kernel reset the handled signals
    /// (`CLONE_CLEAR_SIGHAND`).
    ///
    /// # Safety
    /// Only in the child, with every signal blocked.
    unsafe fn default_sigpipe() {
        // SAFETY: a plain `sigaction` call on a zeroed local.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(libc::SIGPIPE, &raw const dfl, ptr::null_mut());
        }
    }

    /// The signal tests install a handler for ([`signals_at_default`]).
    #[cfg(test)]
    pub(crate) const TEST_HANDLED_SIGNAL: i32 = libc::SIGUSR2;

    /// Whether [`TEST_HANDLED_SIGNAL`] is at its default in this process: the probe child
    /// checks it, so a test can see that no handler of the engine survives into a child.
    ///
    /// # Safety
    /// Async-signal-safe: one `sigaction` query.
    #[cfg(test)]
    unsafe fn signals_at_default() -> bool {
        // SAFETY: a plain `sigaction` query into a zeroed local.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(TEST_HANDLED_SIGNAL, ptr::null(), &raw mut old) == 0
                && old.sa_sigaction == libc::SIG_DFL
        }
    }

    /// Every signal with a handler goes back to its default (the handler lives in the engine's
    /// memory, which the child shares until `exec`), and so does `SIGPIPE`, which Rust programs
    /// ignore but their children should not inherit ignored (std does the same). Ignored signals
    /// stay ignored, as across any `exec`. glibc's two internal signals (32, 33) cannot be queried
    /// through `sigaction` and are never sent to another process.
    ///
    /// # Safety
    /// Only in the child, with every signal blocked.
    unsafe fn reset_signals() {
        // SAFETY: plain `sigaction` calls on a zeroed, then queried, local.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            for sig in 1..=64 {
                if sig == libc::SIGKILL || sig == libc::SIGSTOP {
                    continue;
                }
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, ptr::null(), &raw mut old) != 0 {
                    continue;
                }
                if sig == libc::SIGPIPE
                    || (old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN)
                {
                    libc::sigaction(sig, &raw const dfl, ptr::null_mut());
                }
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
pub(crate) mod tests;
