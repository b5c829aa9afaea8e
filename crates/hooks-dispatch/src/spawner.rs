//! Starting one hook process: on Linux through the crate's own spawner ([`crate::sys`]: no
//! copy of the environment, the run's cgroup joined before `exec`, a pid file descriptor
//! waited on with tokio); elsewhere, or on a kernel without `CLONE_PIDFD` (before 5.2),
//! through tokio's process API.

use std::{
    io,
    os::fd::{BorrowedFd, OwnedFd},
    path::Path,
    process::ExitStatus,
};

use hooks_schema::{Invocation, SpawnFailure, SpawnFailureKind};
use tokio::io::{AsyncRead, AsyncWrite};

use crate::{files::ProvidedFiles, tag};

/// Where a stream of the child comes from or goes to.
#[derive(Debug)]
pub(crate) enum Stream {
    /// `/dev/null`.
    Null,
    /// This descriptor (a prefilled pipe, a log file, an anonymous file).
    Fd(OwnedFd),
    /// A new pipe whose other end the engine reads or writes.
    Piped,
    /// A fresh, empty pipe (read end, write end) for a payload of at most `PIPE_BUF` bytes:
    /// the child gets the read end; the invocation's stdin is written into the write end once
    /// the child is started, while the engine still holds the read end (so the write can
    /// neither block nor raise `SIGPIPE`), and the write end is closed then. The write and
    /// the close are off the path before the spawn: they overlap the hook's `exec`.
    Prefill(OwnedFd, OwnedFd),
}

/// Writes a prefilled stdin's payload into its pipe's write end and closes it (see
/// [`Stream::Prefill`]). At most `PIPE_BUF` bytes into an empty pipe whose read end is open:
/// the write is complete at once.
fn prefill(write: OwnedFd, bytes: &[u8]) {
    use std::io::Write;
    // Nothing can make it fail short of a kernel without pipes; the hook then reads what is
    // there and end-of-file, as a hook whose stdin writer failed does.
    let _ = std::fs::File::from(write).write_all(bytes);
}

/// What to do with the engine's tag variable ([`tag::VAR`]) in the child.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tag<'a> {
    /// Set it to this value, after every other variable (nothing can override it).
    Set(&'a str),
    /// Make sure the child has none (a detached hook must not be swept with the engine's).
    Remove,
    /// Leave the environment as the invocation makes it.
    Keep,
}

/// How the child is placed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placement<'a> {
    /// A new session (detached hooks) rather than a new process group.
    pub(crate) new_session: bool,
    /// The run's cgroup, which the process starts in.
    pub(crate) cgroup: Option<CgroupFds<'a>>,
    /// Kill the process when its handle is dropped before it was reaped.
    pub(crate) kill_on_drop: bool,
    /// Make the process a child subreaper before its `exec` (the crate's own spawner only).
    pub(crate) subreaper: bool,
    /// The reaper's registration file and a slot's offset in it, which the process writes its
    /// group id into before its `exec` (the crate's own spawner only; the caller registers it
    /// again after the start).
    pub(crate) register: Option<(BorrowedFd<'a>, u64)>,
    /// The run's limits outside its cgroup v2: cgroup v1 `tasks` files to join and rlimits
    /// to set before the `exec` (the crate's own spawner only).
    pub(crate) limits: ChildLimits<'a>,
}

/// Limits the first process takes on before its `exec`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ChildLimits<'a> {
    /// cgroup v1 `tasks` files (memory, pids, cpu).
    pub(crate) v1_tasks: [Option<BorrowedFd<'a>>; 3],
    /// `(resource, soft, hard)` rlimits.
    pub(crate) rlimits: &'a [(i32, u64, u64)],
}

/// A run cgroup's descriptors: its folder (the process is born in it, `CLONE_INTO_CGROUP`) and
/// its `cgroup.procs` (written by the child where that is not possible).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CgroupFds<'a> {
    pub(crate) dir: BorrowedFd<'a>,
    pub(crate) procs: BorrowedFd<'a>,
}

/// A started process and the engine's ends of its pipes.
pub(crate) struct Started {
    pub(crate) proc: Proc,
    pub(crate) stdin: Option<Box<dyn AsyncWrite + Unpin + Send>>,
    pub(crate) stdout: Option<Box<dyn AsyncRead + Unpin + Send>>,
    pub(crate) stderr: Option<Box<dyn AsyncRead + Unpin + Send>>,
}

/// A started process.
#[derive(Debug)]
pub(crate) enum Proc {
    /// Started by [`crate::sys`].
    #[cfg(target_os = "linux")]
    Own(crate::child::PidfdChild),
    /// Started by tokio.
    Tokio(tokio::process::Child),
}

impl Proc {
    /// The process id, while the process is not reaped.
    pub(crate) fn id(&self) -> Option<u32> {
        match self {
            #[cfg(target_os = "linux")]
            Proc::Own(c) => Some(c.id()),
            Proc::Tokio(c) => c.id(),
        }
    }

    /// Waits for the process to exit. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        match self {
            #[cfg(target_os = "linux")]
            Proc::Own(c) => c.wait().await,
            Proc::Tokio(c) => c.wait().await,
        }
    }
}

/// Starts `program` with `args` as `inv` says (working directory, variables), with the given
/// streams, tag and placement.
pub(crate) fn start<S: AsRef<str>>(
    program: &str,
    args: &[S],
    inv: &Invocation,
    files: &ProvidedFiles,
    streams: [Stream; 3],
    tag: Tag<'_>,
    place: Placement<'_>,
) -> Result<Started, SpawnFailure> {
    #[cfg(target_os = "linux")]
    if own::available() {
        return own::start(program, args, inv, files, streams, tag, place);
    }
    if place.cgroup.is_some() {
        return Err(SpawnFailure {
            kind: SpawnFailureKind::Other,
            message: "cannot start a process inside a cgroup without the engine's spawner".into(),
        });
    }
    tokio_start(program, args, inv, files, streams, tag, place)
}

/// Pipes made ahead of the runs that use them ([`make_spare_pipes`]): close-on-exec and never
/// used, so each is as fresh as one made at the spawn.
static SPARE_PIPES: std::sync::Mutex<Vec<(OwnedFd, OwnedFd)>> = std::sync::Mutex::new(Vec::new());

/// How many pipes are kept ready: stdin, stdout and stderr of one run.
const SPARES: usize = 3;

/// A new close-on-exec pipe (read end, write end): one made ahead when there is one, so a
/// run's start does not make its pipes on its critical path.
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let spare = SPARE_PIPES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
    match spare {
        Some(p) => Ok(p),
        None => {
            let (r, w) = io::pipe()?;
            Ok((r.into(), w.into()))
        }
    }
}

/// The inode numbers of the pipes made ahead (tests check that a run uses them).
#[cfg(test)]
pub(crate) fn spare_pipe_inodes() -> Vec<u64> {
    let spare = SPARE_PIPES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    spare.iter().filter_map(|(r, _)| rustix::fs::fstat(r).ok()).map(|st| st.st_ino).collect()
}

/// Makes the pipes of a next run ahead: called by a dispatcher's run once its child is
/// started, while it `exec`s (off the critical path of both runs).
pub(crate) fn make_spare_pipes() {
    let mut spare = SPARE_PIPES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    while spare.len() < SPARES {
        match io::pipe() {
            Ok((r, w)) => spare.push((r.into(), w.into())),
            Err(_) => return,
        }
    }
}

/// Whether the crate's own spawner works on this kernel.
#[cfg(target_os = "linux")]
pub(crate) fn own_available() -> bool {
    own::available()
}

/// Checks that a process can join the cgroup v1 cgroup whose `tasks` file is `tasks`: a child
/// joins it and exits at once.
#[cfg(target_os = "linux")]
pub(crate) fn probe_v1_join(tasks: BorrowedFd<'_>) -> io::Result<()> {
    #[cfg(test)]
    PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    own::probe_v1_join(tasks)
}

/// How many probe children this process started (tests count the containment's checks).
#[cfg(test)]
pub(crate) static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Checks that a process can be started inside the cgroup `cg` and join the cgroup v1 cgroups
/// whose `tasks` files are `v1_tasks`: a child starts in it, joins them and exits at once.
#[cfg(target_os = "linux")]
pub(crate) fn probe_join(cg: CgroupFds<'_>, v1_tasks: &[BorrowedFd<'_>]) -> io::Result<()> {
    #[cfg(test)]
    PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    own::probe_join(cg, v1_tasks)
}

fn tokio_start<S: AsRef<str>>(
    program: &str,
    args: &[S],
    inv: &Invocation,
    files: &ProvidedFiles,
    streams: [Stream; 3],
    tag: Tag<'_>,
    place: Placement<'_>,
) -> Result<Started, SpawnFailure> {
    use std::process::Stdio;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args.iter().map(AsRef::as_ref));
    if let Some(cwd) = &inv.cwd {
        cmd.current_dir(cwd);
    }
    for k in &inv.env_remove {
        cmd.env_remove(k);
    }
    for (k, path) in files.env() {
        cmd.env(k, path);
    }
    for (k, v) in &inv.env {
        cmd.env(k, v);
    }
    match tag {
        Tag::Set(t) => {
            cmd.env(tag::VAR, t);
        }
        Tag::Remove => {
            cmd.env_remove(tag::VAR);
        }
        Tag::Keep => {}
    }
    let [i, o, e] = streams;
    let stdio = |s: Stream| -> Stdio {
        match s {
            Stream::Null => Stdio::null(),
            Stream::Fd(fd) => fd.into(),
            Stream::Piped => Stdio::piped(),
            // tokio's spawn gives no moment between the start and the `exec`: the payload is
            // written before.
            Stream::Prefill(read, write) => {
                prefill(write, &inv.stdin);
                read.into()
            }
        }
    };
    cmd.stdin(stdio(i)).stdout(stdio(o)).stderr(stdio(e)).kill_on_drop(place.kill_on_drop);
    if place.new_session {
        crate::sys::new_session(&mut cmd);
    } else {
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(|e| classify(&e, program, inv.cwd.as_deref()))?;
    Ok(Started {
        stdin: child.stdin.take().map(|w| Box::new(w) as Box<dyn AsyncWrite + Unpin + Send>),
        stdout: child.stdout.take().map(|r| Box::new(r) as Box<dyn AsyncRead + Unpin + Send>),
        stderr: child.stderr.take().map(|r| Box::new(r) as Box<dyn AsyncRead + Unpin + Send>),
        proc: Proc::Tokio(child),
    })
}

/// Classifies a spawn error. A missing working directory and a missing program both
/// surface as `ENOENT`, so the directory is checked only once spawning failed.
pub(crate) fn classify(e: &io::Error, program: &str, cwd: Option<&Path>) -> SpawnFailure {
    if let Some(dir) = cwd
        && !dir.is_dir()
    {
        return SpawnFailure {
            kind: SpawnFailureKind::MissingCwd,
            message: format!("working directory no longer exists: {}", dir.display()),
        };
    }
    let (kind, message) = match e.kind() {
        io::ErrorKind::NotFound => {
            (SpawnFailureKind::ProgramNotFound, format!("program `{program}` not found"))
        }
        io::ErrorKind::PermissionDenied => {
            (SpawnFailureKind::PermissionDenied, format!("permission denied running `{program}`"))
        }
        _ => (SpawnFailureKind::Other, format!("cannot start `{program}`: {e}")),
    };
    SpawnFailure { kind, message }
}

/// The crate's own spawner.
#[cfg(target_os = "linux")]
mod own {
    use std::{
        ffi::{CString, OsStr},
        io,
        os::{
            fd::{AsFd, OwnedFd},
            unix::ffi::OsStrExt,
        },
        sync::atomic::{AtomicBool, Ordering},
    };

    use hooks_schema::{Invocation, SpawnFailure, SpawnFailureKind};
    use tokio::io::{AsyncRead, AsyncWrite, Interest};

    use super::{CgroupFds, Placement, Proc, Started, Stream, Tag, classify};
    use crate::{
        child::{PidfdChild, Pipe},
        files::ProvidedFiles,
        sys::{self, Cgroup, Env, Request, Session, SpawnError, Stage},
        tag,
    };

    /// Cleared for good when `clone` refuses `CLONE_PIDFD` (a kernel before 5.2).
    static AVAILABLE: AtomicBool = AtomicBool::new(true);

    pub(super) fn available() -> bool {
        AVAILABLE.load(Ordering::Relaxed)
    }

    fn other(message: String) -> SpawnFailure {
        SpawnFailure { kind: SpawnFailureKind::Other, message }
    }

    fn cstring(bytes: &[u8], what: &str) -> Result<CString, SpawnFailure> {
        CString::new(bytes).map_err(|_| other(format!("the hook's {what} contains a NUL byte")))
    }

    fn entry(k: &OsStr, v: &OsStr) -> Result<CString, SpawnFailure> {
        let mut b = Vec::with_capacity(k.len() + v.len() + 1);
        b.extend_from_slice(k.as_bytes());
        b.push(b'=');
        b.extend_from_slice(v.as_bytes());
        cstring(&b, "environment")
    }

    /// The paths to try for `program`: itself when it names a folder, else one per `PATH`
    /// folder (the child's `PATH` when the invocation sets one, the engine's otherwise), as
    /// `execvp` searches.
    fn candidates(program: &str, inv: &Invocation) -> Result<Vec<CString>, SpawnFailure> {
        if program.contains('/') {
            return Ok(vec![cstring(program.as_bytes(), "program")?]);
        }
        if program.is_empty() {
            return Err(SpawnFailure {
                kind: SpawnFailureKind::ProgramNotFound,
                message: "program `` not found".to_owned(),
            });
        }
        let path: Vec<u8> = match inv.env.iter().rev().find(|(k, _)| k == "PATH") {
            Some((_, v)) => v.as_bytes().to_vec(),
            None if inv.env_remove.iter().any(|k| k == "PATH") => b"/bin:/usr/bin".to_vec(),
            None => sys::getenv(b"PATH").unwrap_or_else(|| b"/bin:/usr/bin".to_vec()),
        };
        path.split(|b| *b == b':')
            .map(|dir| {
                let dir = if dir.is_empty() { &b"."[..] } else { dir };
                let mut p = Vec::with_capacity(dir.len() + 1 + program.len());
                p.extend_from_slice(dir);
                p.push(b'/');
                p.extend_from_slice(program.as_bytes());
                cstring(&p, "program")
            })
            .collect()
    }

    /// The descriptors of one stream: the child's end and, for a pipe, the engine's.
    fn child_end(s: Stream, input: bool) -> io::Result<(OwnedFd, Option<OwnedFd>)> {
        match s {
            Stream::Null => {
                let f = std::fs::OpenOptions::new().read(input).write(!input).open("/dev/null")?;
                Ok((f.into(), None))
            }
            Stream::Fd(fd) => Ok((fd, None)),
            // Taken apart by `start` before.
            Stream::Prefill(read, _) => Ok((read, None)),
            Stream::Piped => {
                let (r, w) = super::pipe()?;
                Ok(if input { (r, Some(w)) } else { (w, Some(r)) })
            }
        }
    }

    pub(super) fn start<S: AsRef<str>>(
        program: &str,
        args: &[S],
        inv: &Invocation,
        files: &ProvidedFiles,
        streams: [Stream; 3],
        tag: Tag<'_>,
        place: Placement<'_>,
    ) -> Result<Started, SpawnFailure> {
        let programs = candidates(program, inv)?;
        let mut argv = Vec::with_capacity(1 + args.len());
        argv.push(cstring(program.as_bytes(), "program")?);
        for a in args {
            argv.push(cstring(a.as_ref().as_bytes(), "argument")?);
        }
        let mut remove: Vec<&[u8]> = inv.env_remove.iter().map(|k| k.as_bytes()).collect();
        let mut set: Vec<CString> = Vec::new();
        for (k, p) in files.env() {
            set.push(entry(OsStr::new(k), p.as_os_str())?);
        }
        for (k, v) in &inv.env {
            set.push(entry(OsStr::new(k), OsStr::new(v))?);
        }
        match tag {
            Tag::Set(t) => set.push(entry(OsStr::new(tag::VAR), OsStr::new(t))?),
            Tag::Remove => remove.push(tag::VAR.as_bytes()),
            Tag::Keep => {}
        }
        // Each name once, the last value winning, in first-set order.
        let mut deduped: Vec<CString> = Vec::with_capacity(set.len());
        for e in set {
            let bytes = e.as_bytes();
            let name_eq = &bytes[..=bytes.iter().position(|b| *b == b'=').unwrap_or(0)];
            match deduped.iter_mut().find(|d| d.as_bytes().starts_with(name_eq)) {
                Some(slot) => *slot = e,
                None => deduped.push(e),
            }
        }
        let cwd = match &inv.cwd {
            Some(d) => Some(cstring(d.as_os_str().as_bytes(), "working directory")?),
            None => None,
        };
        let [i, o, e] = streams;
        let (i, payload) = match i {
            Stream::Prefill(read, write) => (Stream::Fd(read), Some(write)),
            s => (s, None),
        };
        let fail = |e: io::Error| other(format!("cannot set up the hook's streams: {e}"));
        let (in_child, in_engine) = child_end(i, true).map_err(fail)?;
        let (out_child, out_engine) = child_end(o, false).map_err(fail)?;
        let (err_child, err_engine) = child_end(e, false).map_err(fail)?;
        let env = if remove.is_empty() && deduped.is_empty() {
            Env::Inherit
        } else {
            Env::Edit { remove: &remove, set: &deduped }
        };
        let v1_tasks: Vec<std::os::fd::BorrowedFd<'_>> =
            place.limits.v1_tasks.iter().flatten().copied().collect();
        let req = Request {
            programs: &programs,
            argv: &argv,
            env,
            cwd: cwd.as_deref(),
            stdio: [in_child.as_fd(), out_child.as_fd(), err_child.as_fd()],
            cgroup: place.cgroup.map(|c| Cgroup { dir: c.dir, procs: c.procs }),
            session: if place.new_session { Session::NewSession } else { Session::NewGroup },
            subreaper: place.subreaper,
            register: place.register,
            v1_tasks: &v1_tasks,
            rlimits: place.limits.rlimits,
            probe: false,
        };
        crate::child::reap_dropped();
        // Before the clone: no process can have read from the pipe yet.
        #[cfg(test)]
        super::testing::record_queued_at_start(&in_child);
        let spawned = match sys::spawn(&req) {
            Ok(s) => s,
            Err(SpawnError::Clone(e)) => {
                if e.raw_os_error() == Some(nix::libc::EINVAL)
                    || e.raw_os_error() == Some(nix::libc::ENOSYS)
                {
                    AVAILABLE.store(false, Ordering::Relaxed);
                }
                return Err(other(format!("cannot start `{program}`: {e}")));
            }
            Err(SpawnError::Child(stage, e)) => return Err(failure(stage, &e, program, inv)),
        };
        let child = PidfdChild::new(spawned.pid, spawned.pidfd, place.kill_on_drop);
        // The payload goes in while the hook `exec`s, the read end still held here.
        if let Some(w) = payload {
            super::prefill(w, &inv.stdin);
        }
        // The hook first: woken by the `exec`, this thread is often put on the CPU the hook
        // was started on, and what it does next (the lines below, the run's bookkeeping) can
        // wait for the hook's end, where the hook waiting for it lengthens the run (specs/
        // dispatch.md, "Hook first"). Only when no other hook of the engine's is running:
        // starting a fire's other hooks, or tending those running, comes first.
        if child.only_one_live() {
            std::thread::yield_now();
        }
        drop((in_child, out_child, err_child));
        let watch = |e: io::Error| other(format!("cannot watch the hook's pipes: {e}"));
        let stdin =
            in_engine.map(|fd| Pipe::new(fd, Interest::WRITABLE)).transpose().map_err(watch)?;
        // Registered at their first read unless the hook is reaped by then (`Pipe::reader`).
        let reader = |fd| Pipe::reader(fd, child.reaped_flag());
        let stdout = out_engine.map(reader).transpose().map_err(watch)?;
        let stderr = err_engine.map(reader).transpose().map_err(watch)?;
        Ok(Started {
            proc: Proc::Own(child),
            stdin: stdin.map(|p| Box::new(p) as Box<dyn AsyncWrite + Unpin + Send>),
            stdout: stdout.map(|p| Box::new(p) as Box<dyn AsyncRead + Unpin + Send>),
            stderr: stderr.map(|p| Box::new(p) as Box<dyn AsyncRead + Unpin + Send>),
        })
    }

    fn failure(stage: Stage, e: &io::Error, program: &str, inv: &Invocation) -> SpawnFailure {
        match stage {
            Stage::Exec => classify(e, program, None),
            Stage::Cwd
                if e.kind() == io::ErrorKind::NotFound
                    || e.raw_os_error() == Some(nix::libc::ENOTDIR) =>
            {
                SpawnFailure {
                    kind: SpawnFailureKind::MissingCwd,
                    message: format!(
                        "working directory no longer exists: {}",
                        inv.cwd.as_deref().map(|d| d.display().to_string()).unwrap_or_default()
                    ),
                }
            }
            Stage::Cwd => classify(e, program, inv.cwd.as_deref()),
            Stage::Cgroup => other(format!("cannot start `{program}` in its cgroup: {e}")),
            Stage::Limits => other(format!("cannot set the limits of `{program}`: {e}")),
            Stage::Session | Stage::Subreaper | Stage::Stdio => {
                other(format!("cannot start `{program}`: {e}"))
            }
        }
    }

    /// The request of a probe child: it joins `cgroup` / `v1_tasks` like a hook would and
    /// exits before any exec, its standard streams on `null`.
    fn probe_request<'a>(
        programs: &'a [CString],
        null: &'a std::fs::File,
        cgroup: Option<Cgroup<'a>>,
        v1_tasks: &'a [std::os::fd::BorrowedFd<'a>],
    ) -> Request<'a> {
        Request {
            programs,
            argv: &[],
            env: Env::Inherit,
            cwd: None,
            stdio: [null.as_fd(), null.as_fd(), null.as_fd()],
            cgroup,
            session: Session::NewGroup,
            subreaper: false,
            register: None,
            v1_tasks,
            rlimits: &[],
            probe: true,
        }
    }

    pub(super) fn probe_v1_join(tasks: std::os::fd::BorrowedFd<'_>) -> io::Result<()> {
        let null = std::fs::File::open("/dev/null")?;
        let programs = [CString::from(c"/")];
        let tasks = [tasks];
        let req = probe_request(&programs, &null, None, &tasks);
        let s = sys::spawn(&req).map_err(|(SpawnError::Clone(e) | SpawnError::Child(_, e))| e)?;
        let st = rustix::process::waitid(
            rustix::process::WaitId::PidFd(s.pidfd.as_fd()),
            rustix::process::WaitIdOptions::EXITED,
        )?;
        match st.as_ref().and_then(|s| s.exit_status()) {
            Some(0) => Ok(()),
            other => Err(io::Error::other(format!("the probe ended with {other:?}"))),
        }
    }

    pub(super) fn probe_join(
        cg: CgroupFds<'_>,
        v1_tasks: &[std::os::fd::BorrowedFd<'_>],
    ) -> io::Result<()> {
        let null = std::fs::File::open("/dev/null")?;
        let programs = [CString::from(c"/")];
        let req = probe_request(
            &programs,
            &null,
            Some(Cgroup { dir: cg.dir, procs: cg.procs }),
            v1_tasks,
        );
        loop {
            let st = match sys::spawn(&req) {
                Ok(s) => rustix::process::waitid(
                    rustix::process::WaitId::PidFd(s.pidfd.as_fd()),
                    rustix::process::WaitIdOptions::EXITED,
                )?,
                Err(SpawnError::Clone(e) | SpawnError::Child(_, e)) => return Err(e),
            };
            match (
                st.as_ref().and_then(|s| s.exit_status()),
                st.and_then(|s| s.terminating_signal()),
            ) {
                (Some(0), _) => return Ok(()),
                // Killed at birth: the kernel kills a process born into a cgroup whose kill
                // count differs from its parent's cgroup's (a cgroup killed before, see
                // `Tree::finish`); the write does not have that flaw.
                (_, Some(9)) if sys::join_method() == sys::Join::Clone3 => sys::join_by_writing(),
                other => {
                    return Err(io::Error::other(format!("the probe ended with {other:?}")));
                }
            }
        }
    }
}

/// What the spawns on this thread saw (tests).
#[cfg(test)]
pub(crate) mod testing {
    use std::{cell::Cell, os::fd::AsFd};

    thread_local! {
        static QUEUED: Cell<Option<u64>> = const { Cell::new(None) };
    }

    /// Records how many bytes the child's stdin holds as the child is started, just before
    /// the clone (`None` when it is not a pipe).
    pub(crate) fn record_queued_at_start(stdin: impl AsFd) {
        QUEUED.set(rustix::io::ioctl_fionread(stdin).ok());
    }

    /// What the last spawn on this thread recorded.
    pub(crate) fn queued_at_start() -> Option<u64> {
        QUEUED.get()
    }
}
