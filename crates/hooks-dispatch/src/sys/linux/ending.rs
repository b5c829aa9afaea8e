//! The trees' reaper's ending of registered process groups and tagged processes, with system
//! calls only: what the shell script does for the subreaper and process-group mechanisms
//! (`reaper.rs`), without a shell, a `grep` or an allocation.
//!
//! Everything here runs in the trees' reaper after the engine's end, on its own stack: fixed
//! buffers, bounded loops, no lock, no `errno` ([`super::raw`]), and nothing that can panic
//! (indexes checked against their bounds, arithmetic saturating): a panic there would unwind
//! in a process that may share the engine's memory.

use std::ffi::{CStr, c_int};

use super::{each_entry, each_number, number, number_in, raw, read_start};
use crate::tag::{TagMatch, TagRest};

/// What the trees' reaper also ends when it takes the registrations (the subreaper and
/// process-group mechanisms): the process groups listed in the registration file and, when
/// its header says tags were handed out, the processes that carry the engine's tag.
#[derive(Debug, Clone)]
pub(crate) struct Registrations {
    /// The engine's registration file descriptor (the reaper keeps its own copy of it).
    pub file: c_int,
    /// The engine's own process group, never killed.
    pub own_group: c_int,
    /// `AGENT_HOOKS_RUN=<engine token>-`: a process whose environment holds an entry of this
    /// followed by one or more digits, and nothing else, is one of the engine's hook
    /// processes. Empty: no sweep (a malformed token, or a reaper made in a unit test).
    pub tag_prefix: Vec<u8>,
}

/// The width of one registration slot (`reaper::SLOT`).
const SLOT: u64 = 11;

/// At most this many groups are ended together; more are ended batch after batch.
const GROUPS: usize = 512;

/// At most this many stopped processes are remembered per batch; a process found when the list
/// is full is killed at once instead of stopped.
const STOPPED: usize = 2048;

/// The depth of the walk's work list; children found beyond it are left to the next pass.
const PENDING: usize = 1024;

/// At most this many `/proc` entries are sorted newest first per pass; the rest are read in
/// the order the kernel lists them.
const LISTED: usize = 8192;

/// At most this many passes of the walk and of the sweep (as the script).
const PASSES: usize = 64;

/// Ends what the registration file `fd` lists: every registered group's first process is
/// stopped with its whole tree (`/proc/<pid>/task/*/children`), pass after pass until a pass
/// finds nothing new, then the lot and every registered group get `SIGKILL`; then, if the
/// header says tags were handed out, the tag sweep ([`sweep_tags`]). Blank slots, malformed
/// lines, ids ≤ 1, ids of more than ten digits and the engine's own group are ignored, as the
/// script ignores them.
///
/// # Safety
/// Only in the trees' reaper, once the engine has ended: `fd` is its own descriptor.
pub(super) unsafe fn end_registrations(fd: c_int, r: &Registrations, me: c_int) {
    let mut header = [0u8; SLOT as usize];
    // SAFETY: the reaper's own descriptor and buffers.
    let tagged =
        unsafe { raw::pread(fd, &mut header, 0) }.is_some_and(|n| n > 0) && header[0] == b'T';
    let mut groups = [0 as c_int; GROUPS];
    let mut n = 0;
    let mut line = Line::default();
    let mut buf = [0u8; 4092];
    let mut at = SLOT;
    let end = |groups: &mut [c_int; GROUPS], n: &mut usize| {
        // SAFETY: as this function's caller promises.
        unsafe { end_groups(&groups[..*n], me) };
        *n = 0;
    };
    // SAFETY: the reaper's own descriptor and buffers.
    while let Some(read) = unsafe { raw::pread(fd, &mut buf, at) }
        && read > 0
    {
        at += read as u64;
        for &b in buf.get(..read).unwrap_or_default() {
            if let Some(g) = line.feed(b) {
                if g != r.own_group {
                    groups[n] = g;
                    n += 1;
                }
                if n == GROUPS {
                    end(&mut groups, &mut n);
                }
            }
        }
    }
    if let Some(g) = line.finish()
        && g != r.own_group
    {
        groups[n] = g;
        n += 1;
    }
    end(&mut groups, &mut n);
    if tagged && !r.tag_prefix.is_empty() {
        let mut listed = [0 as c_int; LISTED];
        sweep_tags(&r.tag_prefix, TagRest::Digits, r.own_group, pid_max(), &mut listed);
    }
}

/// One line of the registration file read byte by byte: spaces and tabs around one to ten
/// digits make a group id; anything else makes the line count for nothing.
#[derive(Debug, Default)]
pub(crate) struct Line {
    value: u64,
    digits: u32,
    /// Spaces after the digits were seen (another digit then spoils the line).
    after: bool,
    spoiled: bool,
}

impl Line {
    /// Takes one byte; at a newline, the line's group id, if it names one.
    pub(crate) fn feed(&mut self, b: u8) -> Option<c_int> {
        match b {
            b'\n' => return self.finish(),
            b' ' | b'\t' => self.after |= self.digits > 0,
            b'0'..=b'9' if !self.after => {
                self.digits = self.digits.saturating_add(1);
                self.value = self.value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
            }
            _ => self.spoiled = true,
        }
        None
    }

    /// Ends the line: its group id, if it names one (more than 1, at most ten digits).
    pub(crate) fn finish(&mut self) -> Option<c_int> {
        let line = std::mem::take(self);
        if line.spoiled || line.digits == 0 || line.digits > 10 {
            return None;
        }
        c_int::try_from(line.value).ok().filter(|g| *g > 1)
    }
}

/// Stops each group's first process and its whole tree, pass after pass until a pass stops
/// nothing new (stopped processes cannot fork), then `SIGKILL`s every stopped process and
/// every group.
///
/// # Safety
/// Only in the trees' reaper.
unsafe fn end_groups(groups: &[c_int], me: c_int) {
    let mut stopped = [0 as c_int; STOPPED];
    let mut n = 0;
    for _ in 0..PASSES {
        let mut new = false;
        for &g in groups {
            let mut pending = [0 as c_int; PENDING];
            pending[0] = g;
            let mut depth = 1;
            while depth > 0 {
                depth -= 1;
                let p = pending[depth];
                if !stopped[..n].contains(&p) {
                    if !raw::signal(p, rustix::process::Signal::STOP) {
                        continue;
                    }
                    new = true;
                    if n < STOPPED {
                        stopped[n] = p;
                        n += 1;
                    } else {
                        raw::kill(p);
                    }
                }
                // SAFETY: plain system calls on local buffers.
                unsafe {
                    each_child(p, |k| {
                        if k > 1 && k != me && depth < PENDING {
                            pending[depth] = k;
                            depth += 1;
                        }
                    });
                }
            }
        }
        if !new {
            break;
        }
    }
    for &p in &stopped[..n] {
        raw::kill(p);
    }
    for &g in groups {
        raw::kill_group(g);
    }
}

/// Calls `f` with each child of each thread of `pid` (`/proc/<pid>/task/*/children`).
///
/// # Safety
/// Plain system calls.
unsafe fn each_child(pid: c_int, mut f: impl FnMut(c_int)) {
    let mut path = Path::default();
    // SAFETY: plain system calls on local buffers.
    unsafe {
        let tasks = raw::open(None, path.proc(pid, b"/task"), raw::DIR);
        if tasks < 0 {
            return;
        }
        each_entry(tasks, |task, _| {
            let mut rel = Path::default();
            let Some(children) = rel.join(task.to_bytes(), b"/children") else { return };
            let fd = raw::open(Some(tasks), children, raw::READ);
            if fd < 0 {
                return;
            }
            each_number(fd, &mut f);
            raw::close(fd);
        });
        raw::close(tasks);
    }
}

/// `SIGKILL`s every process (never pid 1 or this one) whose environment holds an entry
/// `prefix` followed by `rest` ([`TagMatch`]), and its process group first (never
/// `own_group`), pass after pass until two in a row find none alive (at most [`PASSES`]);
/// returns how many processes were sent the kill. Each pass reads every process newest first,
/// then chases the ids the kernel handed out since the pass began
/// (`/proc/sys/kernel/ns_last_pid`) until it has read the latest: reading is faster than
/// making processes, so a process that keeps forking and exiting (PID hopping) is read while
/// one of its generations lives, and that generation's group (where the next ones are born) is
/// killed. Unreadable entries (other users' processes, processes that exited meanwhile) are
/// skipped; a process whose environment reads empty while it is still being laid out
/// ([`environment_pending`]: caught in `execve`) keeps the pass from counting as one that
/// found none; without `/proc` nothing happens.
///
/// `pid_max` is where the kernel's ids wrap ([`pid_max`]); `listed` holds a pass's process
/// ids to sort them newest first, and ids beyond its length are read in the order the kernel
/// lists them. It allocates nothing and makes its system calls
/// directly, so the trees' reaper runs it after the engine's end (with a buffer on its stack);
/// the engine's own sweep (`tag::kill_tagged`) runs it too.
pub(crate) fn sweep_tags(
    prefix: &[u8],
    rest: TagRest,
    own_group: c_int,
    pid_max: c_int,
    listed: &mut [c_int],
) -> usize {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let (mut quiet, mut kills) = (0, 0);
    for _ in 0..PASSES {
        let mut found = 0;
        let mut check = |pid: c_int| {
            if pid > 1 && pid != me {
                match check_tagged(pid, prefix, rest, own_group) {
                    Tagged::Killed(killed) => {
                        found += 1;
                        kills += usize::from(killed);
                    }
                    // Read again by the next pass, which this one does not let be quiet.
                    Tagged::Unsettled => found += 1,
                    Tagged::No => {}
                }
            }
        };
        let last = read_number(c"/proc/sys/kernel/ns_last_pid");
        // SAFETY: a descriptor this function opens, lists and closes.
        let proc = unsafe { raw::open(None, c"/proc", raw::DIR) };
        if proc < 0 {
            return kills;
        }
        let mut n = 0;
        // SAFETY: as above.
        unsafe {
            each_entry(proc, |name, _| {
                let p = number(name);
                if p > 0 {
                    match listed.get_mut(n) {
                        Some(slot) => {
                            *slot = p;
                            n += 1;
                        }
                        None => check(p),
                    }
                }
            });
            raw::close(proc);
        }
        let listed = listed.get_mut(..n).unwrap_or_default();
        listed.sort_unstable_by(|a, b| b.cmp(a));
        for &p in &*listed {
            check(p);
        }
        if let Some(mut at) = last {
            // Bounded: a machine making processes faster than they are read ends the chase.
            let mut budget = 1 << 16;
            while let Some(latest) = read_number(c"/proc/sys/kernel/ns_last_pid")
                && latest != at
                && budget > 0
            {
                while at != latest && budget > 0 {
                    at = if at.saturating_add(1) >= pid_max { 300 } else { at + 1 };
                    budget -= 1;
                    check(at);
                }
            }
        }
        // Two passes in a row that find nothing end the sweep.
        quiet = if found == 0 { quiet + 1 } else { 0 };
        if quiet == 2 {
            break;
        }
    }
    kills
}

/// What [`check_tagged`] found of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tagged {
    /// It carried the tag and was sent `SIGKILL` (whether the kill was sent: found alive, it
    /// counts even if it exited before the kill landed, since it may have forked first).
    Killed(bool),
    /// Its environment could not be told yet: it read empty while `execve` had installed the
    /// new program's memory and not yet laid the environment out ([`environment_pending`]),
    /// as a tagged process that `exec`s is for some microseconds, longer when the machine is
    /// loaded.
    Unsettled,
    /// It does not carry the tag, or could not be read.
    No,
}

/// Whether `pid` carries the tag ([`TagMatch`] of `prefix` and `rest`): if so, its process
/// group (read while it lives; never `own_group`) and it get `SIGKILL`. A process whose
/// environment reads empty is [`Tagged::Unsettled`] when its `/proc/<pid>/stat` says the
/// environment is still to come, so a sweep never ends on a tagged process caught in `exec`.
fn check_tagged(pid: c_int, prefix: &[u8], rest: TagRest, own_group: c_int) -> Tagged {
    let mut path = Path::default();
    // SAFETY: a descriptor this function opens, reads and closes, and local buffers.
    unsafe {
        let fd = raw::open(None, path.proc(pid, b"/environ"), raw::READ);
        if fd < 0 {
            return Tagged::No;
        }
        let mut m = TagMatch::new(prefix, rest);
        let mut buf = [0u8; 4096];
        let mut read = 0usize;
        while !m.found()
            && let Some(n) = raw::read(fd, &mut buf)
            && n > 0
        {
            read = read.saturating_add(n);
            m.feed(buf.get(..n).unwrap_or_default());
        }
        raw::close(fd);
        if !m.found() {
            // A zombie's environment reads empty too, and so does a kernel thread's: a
            // killed process is not matched again.
            if read == 0 {
                let mut path = Path::default();
                let mut stat = [0u8; 1024];
                if let Some(text) = read_start(None, path.proc(pid, b"/stat"), &mut stat)
                    && environment_pending(text)
                {
                    return Tagged::Unsettled;
                }
            }
            return Tagged::No;
        }
        if let Some(g) = group_of(pid)
            && g > 1
            && g != own_group
        {
            raw::kill_group(g);
        }
        Tagged::Killed(raw::signal(pid, rustix::process::Signal::KILL))
    }
}

/// Whether a process whose environment just read empty, and whose `/proc/<pid>/stat` is
/// `stat`, may still have one to read: alive (not a zombie), not a kernel thread, and its
/// environment's bounds (the 50th and 51st fields) not those of an empty environment (equal and
/// not 0). `execve` installs the new program's memory with both bounds 0 and sets them once it
/// has laid the arguments and environment out (bounds apart: it did so between the two
/// reads); the kernel shows 0 for a process without memory too (a zombie, a kernel thread),
/// which the state (3rd field) and the flags (9th) tell apart. A line it cannot read says no.
pub(crate) fn environment_pending(stat: &[u8]) -> bool {
    /// `PF_KTHREAD`: a kernel thread.
    const KERNEL_THREAD: u64 = 0x0020_0000;
    let Some(close) = stat.iter().rposition(|b| *b == b')') else { return false };
    // The fields after the command's closing parenthesis, the 3rd field first.
    let mut fields = stat
        .get(close + 1..)
        .unwrap_or_default()
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty());
    let Some(state) = fields.next() else { return false };
    if matches!(state, b"Z" | b"X" | b"x") {
        return false;
    }
    // The 9th field is the 6th after the state.
    let Some(flags) = fields.nth(5).and_then(decimal) else { return false };
    if flags & KERNEL_THREAD != 0 {
        return false;
    }
    // The 50th and 51st: the 41st and 42nd after the flags.
    let (Some(start), Some(end)) =
        (fields.nth(40).and_then(decimal), fields.next().and_then(decimal))
    else {
        return false;
    };
    !(start == end && start != 0)
}

/// The unsigned decimal number `digits` spell (saturating), if they are one to twenty digits.
fn decimal(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > 20 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u64, |n, d| n.saturating_mul(10).saturating_add(u64::from(d - b'0'))))
}

/// The process group of `pid` (the third field after the command's closing parenthesis in
/// `/proc/<pid>/stat`).
fn group_of(pid: c_int) -> Option<c_int> {
    let mut path = Path::default();
    let mut buf = [0u8; 1024];
    // SAFETY: a path, and a local buffer.
    let text = unsafe { read_start(None, path.proc(pid, b"/stat"), &mut buf) }?;
    let close = text.iter().rposition(|b| *b == b')')?;
    let field = text.get(close + 1..)?.split(|b| *b == b' ').filter(|f| !f.is_empty()).nth(2)?;
    Some(number_in(field)).filter(|n| *n >= 0)
}

/// Where the kernel's process ids wrap (`/proc/sys/kernel/pid_max`; its largest value,
/// 2^22, when unreadable).
pub(crate) fn pid_max() -> c_int {
    read_number(c"/proc/sys/kernel/pid_max").unwrap_or(1 << 22)
}

/// A number alone in a file (`/proc/sys/kernel/…`), read at offset 0.
fn read_number(path: &CStr) -> Option<c_int> {
    let mut buf = [0u8; 32];
    // SAFETY: a path, and a local buffer.
    let text = unsafe { read_start(None, path, &mut buf) }?;
    Some(number_in(text.trim_ascii())).filter(|n| *n >= 0)
}

/// A path made on the stack: `/proc/<pid><suffix>`, or a name and a suffix, NUL-terminated.
struct Path {
    buf: [u8; 64],
}

impl Default for Path {
    fn default() -> Path {
        Path { buf: [0; 64] }
    }
}

impl Path {
    /// `/proc/<pid><suffix>` (`suffix` short, as every caller's is).
    fn proc(&mut self, pid: c_int, suffix: &[u8]) -> &CStr {
        let mut digits = [0u8; 10];
        let mut i = digits.len();
        let mut v = pid.unsigned_abs();
        loop {
            i -= 1;
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 || i == 0 {
                break;
            }
        }
        let mut name = [0u8; 16];
        let len = 6 + digits.len() - i;
        name[..6].copy_from_slice(b"/proc/");
        name[6..len].copy_from_slice(&digits[i..]);
        self.join(&name[..len], suffix).unwrap_or(c"/")
    }

    /// `a` then `b`, or `None` if they do not fit.
    fn join(&mut self, a: &[u8], b: &[u8]) -> Option<&CStr> {
        let len = a.len() + b.len();
        if len >= self.buf.len() || a.contains(&0) || b.contains(&0) {
            return None;
        }
        self.buf[..a.len()].copy_from_slice(a);
        self.buf[a.len()..len].copy_from_slice(b);
        self.buf[len] = 0;
        CStr::from_bytes_with_nul(&self.buf[..=len]).ok()
    }
}

#[cfg(test)]
mod tests;
