//! The reaper: a small `/bin/sh` process that kills the hooks' process groups when the engine
//! process dies without unwinding (crash, `SIGKILL`), so no hook outlives the engine.
//!
//! One reaper serves the whole engine process; it is started lazily, at the first hook run.
//! The engine keeps a registration file of fixed-width slots, one per live hook process group,
//! written with `pwrite` (no process is woken, so a hook run pays two small writes to the page
//! cache). The reaper holds that file open and blocks reading a pipe whose only write end the
//! engine holds and never writes to. When the engine process ends, however it ends, the kernel
//! closes the write end; the reaper reads end-of-file, sends `SIGKILL` to every group still in
//! the file, and exits. It is a separate program because this crate is a library embedded in
//! other binaries; the shell is the one program present wherever hooks run.

use std::{
    collections::HashMap,
    fs::File,
    io,
    os::unix::{fs::FileExt, process::CommandExt},
    process::{ChildStdin, Command, Stdio},
    sync::{Mutex, OnceLock, PoisonError},
};

use nix::{
    sys::wait::{WaitPidFlag, WaitStatus, waitpid},
    unistd::{Pid, getpgrp},
};

/// The reaper's script. `$1` is the engine's own process group, never killed; `$2` the engine's
/// tag token ([`crate::tag::engine_token`]). Its stdin is the liveness pipe, its stderr the
/// registration file (moved to fd 3 at once).
///
/// - Terminal and hang-up signals are ignored: a Ctrl-C that ends the engine must not end the
///   reaper first (it also leads its own process group, so it does not receive them anyway).
/// - Blank slots, malformed lines, non-numeric ids, ids ≤ 1 and the engine's own group are
///   ignored.
/// - At end-of-file on stdin every group in the file gets `SIGKILL`.
/// - Then every readable `/proc/<pid>/environ` holding `AGENT_HOOKS_RUN=<token>-<n>` (a hook
///   process of this engine, including those that left their group) gets `SIGKILL`, but
///   never pid 1, the reaper or its parent; passes repeat (at most 8) while one killed
///   something, for processes forked meanwhile. A malformed token skips this step.
pub(crate) const SCRIPT: &str = r#"exec 3<&2 2>/dev/null
trap '' INT HUP TERM QUIT PIPE
PATH=/usr/bin:/bin
self_group=$1
token=$2
while read -r _; do :; done
while read -r g <&3; do
  case $g in
    ''|*[!0-9]*) continue ;;
  esac
  [ "${#g}" -le 10 ] || continue
  [ "$g" -gt 1 ] || continue
  [ "$g" != "$self_group" ] || continue
  kill -KILL "-$g"
done
case $token in
  ''|-*|*-|*[!0-9-]*) exit 0 ;;
esac
pass=0
while [ "$pass" -lt 8 ]; do
  pass=$((pass + 1))
  killed=0
  for e in /proc/[0-9]*/environ; do
    [ -r "$e" ] || continue
    p=${e#/proc/}
    p=${p%/environ}
    case $p in
      ''|*[!0-9]*) continue ;;
    esac
    [ "$p" -gt 1 ] || continue
    [ "$p" != "$$" ] || continue
    [ "$p" != "$PPID" ] || continue
    if tr '\0' '\n' < "$e" 2>/dev/null | grep -qx "AGENT_HOOKS_RUN=$token-[0-9][0-9]*"; then
      kill -KILL "$p" && killed=1
    fi
  done
  [ "$killed" = 1 ] || break
done
"#;

/// The shell that runs [`SCRIPT`].
const SHELL: &str = "/bin/sh";

/// The width of one registration slot: a right-aligned process group id and a newline.
const SLOT: u64 = 11;

/// A released slot.
const BLANK: &[u8; 11] = b"          \n";

/// A slot's line for group `g`: the id right-aligned in ten columns, then a newline (what
/// `format!("{g:>10}\n")` gives, without allocating on every hook run).
fn slot_line(g: i32) -> [u8; 11] {
    let mut line = *BLANK;
    let mut n = g.unsigned_abs();
    for b in line.iter_mut().take(10).rev() {
        *b = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    line
}

/// The engine's side of the reaper.
#[derive(Debug, Default)]
pub(crate) struct Reaper {
    state: Mutex<State>,
    /// The engine token whose tagged processes the reaper sweeps; empty (no sweep) for a
    /// reaper made in a unit test, so that it cannot kill the hooks of other tests that run
    /// in the same process.
    token: String,
}

#[derive(Debug, Default)]
struct State {
    /// The registration file, shared with the reaper.
    file: Option<File>,
    /// The running reaper and the write end of its liveness pipe (never written to).
    running: Option<(Pid, ChildStdin)>,
    /// The slot of each registered group.
    slots: HashMap<i32, u64>,
    /// Released slots, reused first.
    free: Vec<u64>,
    /// The number of slots the file has.
    len: u64,
}

/// The engine process's reaper.
pub(crate) fn global() -> &'static Reaper {
    static REAPER: OnceLock<Reaper> = OnceLock::new();
    REAPER.get_or_init(|| Reaper {
        state: Mutex::default(),
        token: crate::tag::engine_token().to_owned(),
    })
}

impl Reaper {
    /// Registers a hook's process group: it is killed if the engine process dies while the
    /// group is registered. Best effort: when no reaper can be started, the hook runs
    /// unprotected (as it did without a reaper).
    pub(crate) fn register(&self, pgid: Pid) {
        let g = pgid.as_raw();
        if g <= 1 || g == getpgrp().as_raw() {
            return;
        }
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if st.ensure_running(&self.token).is_err() || st.slots.contains_key(&g) {
            return;
        }
        let slot = st.free.pop().unwrap_or_else(|| {
            st.len += 1;
            st.len - 1
        });
        if let Some(f) = &st.file
            && f.write_all_at(&slot_line(g), slot * SLOT).is_ok()
        {
            st.slots.insert(g, slot);
        } else {
            st.free.push(slot);
        }
    }

    /// Forgets a group that is empty or was sent `SIGKILL`, so that its number, once reused by
    /// an unrelated process, is never killed.
    pub(crate) fn release(&self, pgid: Pid) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(slot) = st.slots.remove(&pgid.as_raw()) else { return };
        if let Some(f) = &st.file
            && f.write_all_at(BLANK, slot * SLOT).is_ok()
        {
            st.free.push(slot);
        }
        // A slot that could not be blanked stays out of use; the reaper may kill its number.
    }

    /// The running reaper's process id, starting it if needed.
    #[cfg(test)]
    pub(crate) fn pid(&self) -> Option<Pid> {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.ensure_running(&self.token).ok()?;
        st.running.as_ref().map(|(p, _)| *p)
    }

    /// Whether `pgid` is registered.
    #[cfg(test)]
    pub(crate) fn is_registered(&self, pgid: Pid) -> bool {
        let st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.slots.contains_key(&pgid.as_raw())
    }
}

impl State {
    /// Starts the reaper unless it runs; replaces one that died (a hook of the same user may
    /// kill it). The registration file outlives reapers, so a new one knows every group.
    fn ensure_running(&mut self, token: &str) -> io::Result<()> {
        if let Some((pid, _)) = &self.running {
            match waitpid(*pid, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => return Ok(()),
                // Exited and now reaped, or not our child any more: start another.
                _ => self.running = None,
            }
        }
        if self.file.is_none() {
            self.file = Some(registration_file()?);
        }
        let file = self.file.as_ref().ok_or_else(|| io::Error::other("no registration file"))?;
        let mut child = Command::new(SHELL)
            .args(["-c", SCRIPT, "hooks-reaper", &getpgrp().as_raw().to_string(), token])
            .env_clear()
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(file.try_clone()?)
            .process_group(0)
            .spawn()?;
        let pid = Pid::from_raw(i32::try_from(child.id()).map_err(io::Error::other)?);
        let pipe = child.stdin.take().ok_or_else(|| io::Error::other("no reaper stdin"))?;
        // Dropping the handle neither kills nor waits; `waitpid` above reaps it.
        drop(child);
        self.running = Some((pid, pipe));
        Ok(())
    }
}

/// An anonymous file (no name anyone else can open) for the registrations, in `/tmp`.
fn registration_file() -> io::Result<File> {
    crate::files::anonymous_file(std::path::Path::new("/tmp"))
}

#[cfg(test)]
mod tests;
