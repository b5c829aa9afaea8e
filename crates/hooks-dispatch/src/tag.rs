//! Process tagging: every supervised hook process carries an environment variable naming its
//! engine process and dispatcher, so that processes which left the hook's process group
//! (`setsid`, `setpgid`) can still be found, through `/proc/<pid>/environ`, and killed.
//!
//! The variable survives `fork`, `setsid`, `setpgid` and `exec` of a program with the inherited
//! environment. It is lost by a process that clears or replaces its environment (`env -i`): such
//! a process still escapes. The tag is not a secret; it only has to be unique.

use std::{
    sync::{
        OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

/// The environment variable carrying the tag.
pub(crate) const VAR: &str = "AGENT_HOOKS_RUN";

/// At most this many `/proc` passes per sweep: passes repeat until one finds no live tagged
/// process (a tagged process may fork during a pass, and one that keeps forking and exiting,
/// PID hopping, is only caught by a later pass), so a bounded number of passes ends the sweep.
const MAX_PASSES: usize = 64;

/// The engine process's token: `<pid>-<nanoseconds of the start time>`, digits and one dash.
pub(crate) fn engine_token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        format!("{}-{nanos}", std::process::id())
    })
}

/// A fresh tag value, `<engine token>-<n>`, for one dispatcher; `n` is never 0.
pub(crate) fn dispatcher_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{}-{}", engine_token(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The tag of hooks run without a dispatcher ([`crate::run_invocation`]): only the reaper
/// sweeps it, when the engine process ends.
pub(crate) fn loose_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-0", engine_token()))
}

/// Whether the NUL-separated environment block `environ` holds `VAR=tag` exactly.
pub(crate) fn environ_has(environ: &[u8], tag: &str) -> bool {
    let want_len = VAR.len() + 1 + tag.len();
    environ.split(|b| *b == 0).any(|entry| {
        entry.len() == want_len
            && entry.starts_with(VAR.as_bytes())
            && entry.get(VAR.len()) == Some(&b'=')
            && entry.ends_with(tag.as_bytes())
    })
}

/// SIGKILLs every process (but this one and pid 1) whose initial environment carries
/// `VAR=tag`, and its process group (but the engine's own), pass after pass until two passes in
/// a row find none alive (at most [`MAX_PASSES`]).
///
/// A pass reads every process newest first, then chases the ids the kernel handed out since
/// the pass began (`/proc/sys/kernel/ns_last_pid`) until it has read the latest: reading is
/// faster than making processes, so a process that keeps forking and exiting (PID hopping) is
/// read while one of its generations lives, and that generation's group (where the next ones
/// are born) is killed. Unreadable entries (other users' processes, processes that exited
/// meanwhile) are skipped; without `/proc` nothing happens. Returns how many kills were sent.
pub(crate) fn kill_tagged(tag: &str) -> usize {
    let mut sweep = Sweep {
        tag,
        me: std::process::id(),
        own_group: nix::unistd::getpgrp().as_raw(),
        total: 0,
        found: 0,
    };
    let pid_max = read_number("/proc/sys/kernel/pid_max").unwrap_or(1 << 22);
    let mut quiet = 0;
    for _ in 0..MAX_PASSES {
        let last = read_number("/proc/sys/kernel/ns_last_pid");
        let Ok(dir) = std::fs::read_dir("/proc") else { return sweep.total };
        let mut pids: Vec<u32> = dir
            .flatten()
            .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()))
            .collect();
        pids.sort_unstable_by(|a, b| b.cmp(a));
        sweep.found = 0;
        for pid in pids {
            sweep.check(pid);
        }
        if let Some(mut at) = last {
            // Bounded: a machine making processes faster than they are read ends the chase.
            let mut budget = 1 << 16;
            while let Some(latest) = read_number("/proc/sys/kernel/ns_last_pid")
                && latest != at
                && budget > 0
            {
                while at != latest && budget > 0 {
                    at = if at + 1 >= pid_max { 300 } else { at + 1 };
                    budget -= 1;
                    sweep.check(at);
                }
            }
        }
        // Two passes in a row that find nothing end the sweep.
        quiet = if sweep.found == 0 { quiet + 1 } else { 0 };
        if quiet == 2 {
            break;
        }
    }
    sweep.total
}

/// One sweep's state.
struct Sweep<'a> {
    tag: &'a str,
    me: u32,
    own_group: i32,
    /// Kills sent.
    total: usize,
    /// Tagged processes found alive in this pass.
    found: usize,
}

impl Sweep<'_> {
    /// Kills `pid` and its group if it carries the tag.
    fn check(&mut self, pid: u32) {
        if pid <= 1 || pid == self.me {
            return;
        }
        // A zombie's environment reads empty: a killed process is not matched again.
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { return };
        if !environ_has(&env, self.tag) {
            return;
        }
        let Ok(raw) = i32::try_from(pid) else { return };
        // Found alive: another pass follows, even if it exited before the kill landed, since
        // it may have forked first.
        self.found += 1;
        // Its group first, read while it lives: a process that keeps forking and exiting (PID
        // hopping) leaves its next generations there; never the engine's own group. A group
        // kill reaches a member being forked meanwhile too (the fork is restarted).
        if let Some(pg) = group_of(pid)
            && pg > 1
            && pg != self.own_group
        {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pg),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        if nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(raw),
            nix::sys::signal::Signal::SIGKILL,
        )
        .is_ok()
        {
            self.total += 1;
        }
    }
}

/// A number alone in a file (`/proc/sys/kernel/…`).
fn read_number(path: &str) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The process group of `pid` (field 5 of `/proc/<pid>/stat`).
fn group_of(pid: u32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(2)?.parse().ok()
}

#[cfg(test)]
mod tests;
