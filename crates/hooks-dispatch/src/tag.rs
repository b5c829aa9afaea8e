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

/// What follows the prefix in a tagged process's environment entry ([`TagMatch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagRest {
    /// Nothing: the entry is the prefix, `VAR=<tag>` (one dispatcher's tag).
    Nothing,
    /// One or more digits: `VAR=<engine token>-` and a dispatcher's number (any of the
    /// engine's tags, as the reaper's `grep -zx 'VAR=<token>-[0-9][0-9]*'` matched).
    Digits,
}

/// Whether a NUL-separated environment block, fed in pieces, holds an entry that is `prefix`
/// followed by [`TagRest`] and nothing else (a last entry without its NUL counts). It
/// allocates nothing: the trees' reaper reads environments with it after the engine's end.
#[derive(Debug)]
pub(crate) struct TagMatch<'p> {
    prefix: &'p [u8],
    rest: TagRest,
    /// Bytes of the current entry seen.
    at: usize,
    /// The current entry matches so far.
    ok: bool,
    found: bool,
}

impl<'p> TagMatch<'p> {
    pub(crate) fn new(prefix: &'p [u8], rest: TagRest) -> TagMatch<'p> {
        TagMatch { prefix, rest, at: 0, ok: true, found: false }
    }

    /// Takes the next bytes of the block.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == 0 {
                self.found |= self.entry_matches();
                self.at = 0;
                self.ok = true;
                continue;
            }
            if self.ok {
                self.ok = match self.prefix.get(self.at) {
                    Some(want) => b == *want,
                    None => self.rest == TagRest::Digits && b.is_ascii_digit(),
                };
            }
            self.at = self.at.saturating_add(1);
        }
    }

    /// Whether an entry matched (the block so far, its unterminated last entry included).
    pub(crate) fn found(&self) -> bool {
        self.found || self.entry_matches()
    }

    fn entry_matches(&self) -> bool {
        self.ok
            && match self.rest {
                TagRest::Nothing => self.at == self.prefix.len(),
                TagRest::Digits => self.at > self.prefix.len(),
            }
    }
}

/// SIGKILLs every process (but this one and pid 1) whose initial environment carries
/// `VAR=tag`, and its process group (but the engine's own), pass after pass until two passes in
/// a row find none alive (at most 64): the sweep the trees' reaper also runs for every tag of
/// the engine (`sys::sweep_tags`, which says how a pass reads the processes). Without `/proc`
/// nothing happens. Returns how many kills were sent.
pub(crate) fn kill_tagged(tag: &str) -> usize {
    #[cfg(target_os = "linux")]
    {
        let prefix = format!("{VAR}={tag}");
        // Every process id a pass lists, sorted newest first: a buffer as long as there can be
        // ids, whose pages are made only as they are written.
        let pid_max = crate::sys::pid_max();
        let mut listed = vec![0; usize::try_from(pid_max).unwrap_or(0)];
        crate::sys::sweep_tags(
            prefix.as_bytes(),
            TagRest::Nothing,
            nix::unistd::getpgrp().as_raw(),
            pid_max,
            &mut listed,
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = tag;
        0
    }
}

#[cfg(test)]
mod tests;
