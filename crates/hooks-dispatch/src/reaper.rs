//! The reaper: a process that kills what the engine's hooks started when the engine process
//! dies without unwinding (crash, `SIGKILL`), so no hook outlives the engine.
//!
//! Two programs can do it. On Linux, for an engine below [`FORK_MAX_RSS`] resident, a process
//! of the engine's own that runs no program and makes system calls only
//! ([`crate::sys::start_tree_reaper`]); elsewhere, for a larger engine, or where no such process
//! can start, a small `/bin/sh` script ([`script`]). Both do the same work, described here for
//! the script. The process of the engine's takes the registrations below (groups and tags)
//! with the registration file: from its start when the engine has no cgroup tree or asked for
//! the subreaper or process-group mechanism by name; when it started for the trees only and
//! registrations come later, a new one that takes both replaces it.
//!
//! One reaper serves the whole engine process; it is started lazily, at the first hook run.
//! It blocks reading a pipe whose only write end the engine holds and never writes to. When
//! the engine process ends, however it ends, the kernel closes the write end; the reaper reads
//! end-of-file and kills:
//! - the engine's run cgroups in the user's cgroup tree (the cgroup mechanisms): one write to
//!   each one's `cgroup.kill`, which reaches every process the run started, whatever it did to
//!   its group, session or environment; no process is scanned (the tree itself is shared with
//!   the user's other engines and stays);
//! - the process groups of the process-group and subreaper mechanisms, registered in a file of
//!   fixed-width slots written with `pwrite` (no process is woken, so a hook run pays three
//!   small writes to the page cache: the child's own before its `exec`, the engine's after the
//!   start, the blank at the end);
//! - when that mechanism handed out tags, every process still carrying the engine's tag (those
//!   that left their group): the script with one `grep` over `/proc/*/environ` per pass, the
//!   engine's process by reading each environment itself.
//!
//! The script is a separate program because this crate is a library embedded in other
//! binaries; the shell is the one program present wherever hooks run.

use std::{
    collections::HashMap,
    fs::File,
    io,
    os::unix::{fs::FileExt, process::CommandExt},
    path::PathBuf,
    process::{ChildStdin, Command, Stdio},
    sync::{
        Mutex, OnceLock, PoisonError,
        atomic::{AtomicBool, Ordering},
    },
};

use nix::{
    sys::wait::{WaitPidFlag, WaitStatus, waitpid},
    unistd::{Pid, getpgrp},
};

/// The reaper's script. `$1` is the engine's own process group, never killed; `$2` the engine's
/// tag token ([`crate::tag::engine_token`]); `$3` the engine's cgroup tree (empty for none);
/// `$4` the `PATH` its commands (`grep`, `sleep`, `rmdir`) are looked up in; `$5` the engine's trees
/// in cgroup v1 hierarchies (limits), one per line (empty for none); `$6` what the engine's run
/// cgroups' names start with when the trees are shared with the user's other engines (then
/// only those runs are killed, waited for and removed, and the trees stay; empty: the trees
/// are the engine's own, ended whole). Its stdin is the
/// liveness pipe, its stderr the registration file (moved to fd 3 at once): a header slot
/// (`T` once the engine handed out tags), then one slot per registered group.
///
/// - Terminal and hang-up signals are ignored: a Ctrl-C that ends the engine must not end the
///   reaper first (it also leads its own process group, so it does not receive them anyway).
/// - At end-of-file on stdin, the cgroup tree is killed: `cgroup.kill`, or, on kernels without
///   it, freeze the tree, SIGKILL every member listed, thaw (builtins only).
/// - Then every registered group's leader (the run's first process, a child subreaper with the
///   subreaper mechanism, so what it started is still in its tree) is stopped with its whole
///   tree, pass after pass until a pass finds nothing new (stopped processes cannot fork), the
///   lot gets `SIGKILL`, and so does every registered group; blank slots, malformed lines,
///   non-numeric ids, ids ≤ 1 and the engine's own group are ignored.
/// - When the header says tags were handed out, every process whose `/proc/<pid>/environ`
///   holds `AGENT_HOOKS_RUN=<token>-<n>` (a hook process of this engine, including those that
///   left their group) gets `SIGKILL`, and so does its process group (where a process that
///   keeps forking new ones and exiting, PID hopping, leaves its next generations), but never
///   pid 1, the reaper or the engine's group: one `grep` per pass reads every environment,
///   newest process first, then the next 1024 process ids the kernel hands out (so it
///   catches up with a process that keeps forking and exiting; their paths are written
///   out as one assignment, [`script`], unless they would wrap at `pid_max`), and passes
///   repeat until two in a row find no live tagged process and no process caught in `execve`
///   (the same `grep` reads each process's `stat` just before its environment, and lists
///   it when it says the environment is still to be laid out, [`MID_EXEC`]), at most 64. A
///   malformed token skips this step.
/// - Last, once the tree has no live process, every member left in the cgroup v1 trees' run
///   cgroups (the engine's hooks, whatever their group) gets `SIGKILL`, pass after pass until
///   none is listed; then one `rmdir`, which the shell becomes (`exec`, no fork), removes the
///   run cgroups and the trees, v2 and v1, children first. Both waits take a hundred passes
///   at once, then sleep a millisecond (`sleep 0.001`) between passes, 1 100 passes at most,
///   as the trees' fork does: a killed process stays in its cgroup while the kernel frees
///   its memory (tens of milliseconds for a few hundred MiB, longer on a loaded machine),
///   and a hundred passes of the shell take a few milliseconds. One process for
///   every tree: an `rmdir` costs about 1 ms of CPU, and with cgroup v1 limits there were up to
///   four, after every engine's exit.
///
/// The work is independent of the number of processes on the machine except for the tag
/// sweep's `grep`, which reads each environment once per pass; no process is started per
/// process.
const SCRIPT: &str = r#"exec 3<&2 2>/dev/null
cd /
trap '' INT HUP TERM QUIT PIPE
self_group=$1
token=$2
tree=$3
PATH=$4
runs=$6
while read -r _; do :; done
kill_cg() {
  if [ -f "$1/cgroup.kill" ]; then
    echo 1 > "$1/cgroup.kill"
  else
    echo 1 > "$1/cgroup.freeze"
    n=0
    while [ "$n" -lt 64 ]; do
      n=$((n + 1))
      any=0
      for f in "$1/cgroup.procs" "$1"/*/cgroup.procs; do
        [ -r "$f" ] || continue
        while read -r p; do
          case $p in
            ''|*[!0-9]*) continue ;;
          esac
          [ "$p" -gt 1 ] || continue
          [ "$p" != "$$" ] || continue
          kill -KILL "$p" 2>/dev/null && any=1
        done < "$f"
      done
      [ "$any" = 1 ] || break
    done
    echo 0 > "$1/cgroup.freeze"
  fi
}
if [ -n "$tree" ] && [ -d "$tree" ]; then
  if [ -n "$runs" ]; then
    for c in "$tree/$runs"*/; do
      [ -d "$c" ] && kill_cg "${c%/}"
    done
  else
    kill_cg "$tree"
  fi
fi
IFS= read -r header <&3
groups=
while read -r g <&3; do
  case $g in
    ''|*[!0-9]*) continue ;;
  esac
  [ "${#g}" -le 10 ] || continue
  [ "$g" -gt 1 ] || continue
  [ "$g" != "$self_group" ] || continue
  groups="$groups $g"
done
stopped=' '
walk() {
  case $stopped in
    *" $1 "*) ;;
    *)
      kill -STOP "$1" 2>/dev/null || return 0
      stopped="$stopped$1 "
      new=1
      ;;
  esac
  for t in /proc/"$1"/task/*/children; do
    [ -r "$t" ] || continue
    kids=
    read -r kids < "$t" || :
    for k in $kids; do
      case $k in
        ''|*[!0-9]*) continue ;;
      esac
      [ "$k" -gt 1 ] || continue
      [ "$k" != "$$" ] || continue
      walk "$k"
    done
  done
}
pass=0
while [ -n "$groups" ] && [ "$pass" -lt 64 ]; do
  pass=$((pass + 1))
  new=0
  for g in $groups; do
    walk "$g"
  done
  [ "$new" = 1 ] || break
done
[ "$stopped" = ' ' ] || kill -KILL $stopped 2>/dev/null
for g in $groups; do
  kill -KILL "-$g" 2>/dev/null
done
case $header in
  T*)
    case $token in
      ''|-*|*-|*[!0-9-]*) ;;
      *)
        # grep, not read: the shell reads a byte at a time, and a /proc/sys file answers a
        # read at any offset but 0 with end-of-file.
        pid_max=$(grep -m1 . /proc/sys/kernel/pid_max 2>/dev/null)
        case $pid_max in
          ''|*[!0-9]*) pid_max=32768 ;;
        esac
        pass=0
        quiet=0
        while [ "$pass" -lt 64 ] && [ "$quiet" -lt 2 ]; do
          pass=$((pass + 1))
          # The ids the kernel hands out next (after the last one, wrapping at pid_max to
          # 300), read after every existing process: grep reads them faster than processes
          # are made, so it catches up with a process that keeps forking and exiting (PID
          # hopping) while one of its generations lives, whatever its ids. The last id is
          # that of a fork of this shell, made now (no program is started).
          : &
          last=$!
          wait "$last"
          ahead=
          case $last in
            ''|*[!0-9]*) ;;
            *)
              if [ "$((last + 1024))" -lt "$pid_max" ]; then
                # No wrap: the 1024 paths in one assignment, an arithmetic expansion each
                # (written out by the engine), a fraction of a millisecond of dash where the
                # loop below takes about five.
                l=$last
                ahead="@AHEAD@"
              else
                # 32 chunks of 32: appending each path to the whole list copied it 1024 times.
                i=$last
                c=0
                while [ "$c" -lt 32 ]; do
                  c=$((c + 1))
                  chunk=
                  n=0
                  while [ "$n" -lt 32 ]; do
                    n=$((n + 1))
                    i=$((i + 1))
                    [ "$i" -lt "$pid_max" ] || i=300
                    chunk="$chunk /proc/$i/environ"
                  done
                  ahead="$ahead$chunk"
                done
              fi
              ;;
          esac
          # Newest first (longer ids first, each length in reverse), each process's `stat`
          # just before its environment: a process caught in execve reads an empty
          # environment, and its `stat` read a moment before says so (MID_EXEC).
          files=
          for pattern in '[0-9][0-9][0-9][0-9][0-9][0-9][0-9]' '[0-9][0-9][0-9][0-9][0-9][0-9]' '[0-9][0-9][0-9][0-9][0-9]' '[0-9][0-9][0-9][0-9]' '[0-9][0-9][0-9]' '[0-9][0-9]'; do
            rev=
            for f in /proc/$pattern/environ; do
              [ -e "$f" ] && rev="${f%environ}stat $f $rev"
            done
            files="$files $rev"
          done
          [ -n "${files## }" ] || break
          # -s: no message for the ids ahead that are no process (yet): four writes each,
          # thousands per pass, which the next event's engine paid for on a 2-core machine.
          grep -s --line-buffered -lzx -e "AGENT_HOOKS_RUN=$token-[0-9][0-9]*" -e '@MID_EXEC@' $files $ahead 2>/dev/null | {
            none=1
            while read -r e; do
              p=${e#/proc/}
              case $p in
                */stat)
                  # Caught in execve: read again by the next pass, which this one does not
                  # let be quiet.
                  none=0
                  continue
                  ;;
              esac
              p=${p%/environ}
              case $p in
                ''|*[!0-9]*) continue ;;
              esac
              [ "$p" -gt 1 ] || continue
              [ "$p" != "$$" ] || continue
              none=0
              # Its group first, read while it lives: the next generations of a hopper are
              # in it.
              st=
              read -r st < "/proc/$p/stat" || :
              st=${st##*) }
              set -- $st
              case ${3-} in
                ''|*[!0-9]*) ;;
                *) [ "$3" -gt 1 ] && [ "$3" != "$self_group" ] && kill -KILL "-$3" 2>/dev/null ;;
              esac
              kill -KILL "$p" 2>/dev/null
            done
            exit $none
          } && quiet=0 || quiet=$((quiet + 1))
        done
        ;;
    esac
    ;;
esac
v1=$5
set --
if [ -n "$tree" ] && [ -d "$tree" ]; then
  n=0
  while [ "$n" -lt 1100 ]; do
    n=$((n + 1))
    populated=0
    for e in "$tree/cgroup.events" "$tree/$runs"*/cgroup.events; do
      if [ -n "$runs" ]; then
        [ "$e" != "$tree/cgroup.events" ] || continue
      else
        [ "$e" = "$tree/cgroup.events" ] || continue
      fi
      [ -f "$e" ] || continue
      while read -r k v; do
        [ "$k" != populated ] || [ "$v" = 0 ] || populated=1
      done < "$e"
    done
    [ "$populated" != 0 ] || break
    [ "$n" -lt 100 ] || sleep 0.001
  done
  for d in "$tree/$runs"*/; do
    [ -d "$d" ] && set -- "$@" "$d"
  done
  [ -n "$runs" ] || set -- "$@" "$tree"
fi
IFS='
'
for t in $v1; do
  [ -n "$t" ] && [ -d "$t" ] || continue
  n=0
  while [ "$n" -lt 1100 ]; do
    n=$((n + 1))
    any=0
    for f in "$t/$runs"*/cgroup.procs; do
      [ -f "$f" ] || continue
      while read -r p; do
        any=1
        kill -KILL "$p" 2>/dev/null
      done < "$f"
    done
    [ "$any" = 1 ] || break
    [ "$n" -lt 100 ] || sleep 0.001
  done
  for d in "$t/$runs"*/; do
    [ -d "$d" ] && set -- "$@" "$d"
  done
  [ -n "$runs" ] || set -- "$@" "$t"
done
[ "$#" -gt 0 ] || exit 0
exec rmdir "$@" 2>/dev/null
"#;

/// The reaper's script as it runs: [`SCRIPT`] with the ids-ahead list of the tag sweep
/// written out (` /proc/$((l + 1))/environ` to ` /proc/$((l + 1024))/environ`, `l` being the
/// newest id at the pass's start), which the shell expands in one assignment.
pub(crate) fn script() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let ahead: String = (1..=AHEAD).map(|k| format!(" /proc/$((l + {k}))/environ")).collect();
        SCRIPT.replacen("@AHEAD@", &ahead, 1).replacen("@MID_EXEC@", MID_EXEC, 1)
    })
}

/// The tag sweep's pattern for a `/proc/<pid>/stat` line (read by `grep -zx`, the whole file
/// one record, its newline matched by the last class) of a process caught in `execve`: the new
/// program's memory in place and its environment not yet laid out, so its environment reads
/// empty. Alive (state none of `Z`, `X`), not a kernel thread (whose parent is `kthreadd`, 2,
/// or none, 0), and the environment's bounds, the 50th and 51st fields, both 0, as the kernel
/// writes them (52 fields; the command, in parentheses, may hold anything). The script reads
/// each process's `stat` just before its environment, so a process read empty because it was
/// in `execve` has its `stat` listed, and the pass is not quiet (the engine's sweep reads the
/// `stat` after an empty environment instead, `environment_pending`). No single quote: the
/// script quotes it with them.
pub(crate) const MID_EXEC: &str = r"[0-9][0-9]* (.*) [RSDTtWPIK] \([13-9]\|[1-9][0-9][0-9]*\)\( [-0-9][0-9]*\)\{45\} 0 0 [-0-9][0-9]*[^0-9]";

/// How many process ids past the newest each pass of the tag sweep reads (the script's
/// wrap test and its 32 × 32 loop say the same; a test checks they agree).
const AHEAD: u32 = 1024;

/// Where the reaper looks up `grep` and `rmdir`.
const REAPER_PATH: &str = "/usr/bin:/bin";

/// The shell that runs [`script`].
const SHELL: &str = "/bin/sh";

/// The width of one registration slot: a right-aligned process group id and a newline.
const SLOT: u64 = 11;

/// A released slot.
const BLANK: &[u8; 11] = b"          \n";

/// A slot's line for group `g`: the id right-aligned in ten columns, then a newline (what
/// `format!("{g:>10}\n")` gives, without allocating: the spawned child writes its own slot
/// with it, before its `exec`).
pub(crate) fn slot_line(g: i32) -> [u8; 11] {
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
    /// The registration file, shared with the reaper; made once, never closed while the
    /// reaper lives.
    file: OnceLock<File>,
    /// The engine token whose tagged processes the reaper sweeps; empty (no sweep) for a
    /// reaper made in a unit test, so that it cannot kill the hooks of other tests that run
    /// in the same process.
    token: String,
    /// The engine's cgroup tree, killed whole; none for a reaper made in a unit test.
    tree: Option<PathBuf>,
    /// The engine's cgroup v1 trees (limits), one per line; emptied and removed.
    v1_trees: String,
    /// What the engine's run cgroups' names start with in the trees, which are shared with
    /// the user's other engines: only those runs are killed and removed, the trees stay. Empty
    /// (a reaper made in a unit test): the trees are the engine's own, ended whole.
    runs: String,
    /// Whether the header slot says tags were handed out.
    tagged: AtomicBool,
    /// Whether the trees, and the registrations unless the fork started without them, are
    /// left to a process of the engine's ([`crate::sys::start_tree_reaper`]) rather than to the
    /// shell script; decided at the first start.
    trees_by_fork: OnceLock<bool>,
}

#[derive(Debug, Default)]
struct State {
    /// The running reaper and the write end of its liveness pipe (never written to).
    running: Option<(Pid, ChildStdin)>,
    /// The trees' reaper (a process of the engine's) and what it holds of the engine's.
    trees: Option<(Pid, TreesReaper)>,
    /// The trees' fork, until it is known to hold no descriptor of the engine's any more
    /// ([`Reaper::settle`]).
    #[cfg(target_os = "linux")]
    trees_ready: Option<crate::sys::Ready>,
    /// The slot of each registered group.
    slots: HashMap<i32, u64>,
    /// Released slots, reused first.
    free: Vec<u64>,
    /// The number of slots the file has, the header slot included.
    len: u64,
}

/// The engine's side of the trees' reaper: dropped only once the reaper has been reaped
/// ([`still_running`]).
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
struct TreesReaper {
    /// The write end of its liveness pipe (never written to).
    _pipe: std::os::fd::OwnedFd,
    /// Its stack and paths, when it shares the engine's memory.
    #[cfg(target_os = "linux")]
    memory: Option<crate::sys::ReaperMemory>,
    /// Whether it also ends the registered groups and the tagged processes (it holds the
    /// registration file), so that no shell is needed.
    registrations: bool,
    /// Whether it has been reaped: until then, its memory is never given back.
    reaped: bool,
}

impl Drop for TreesReaper {
    fn drop(&mut self) {
        // A reaper that shares the engine's memory runs on its stack after the engine side is
        // dropped (that closes its pipe and starts its work): only a reaped one's is freed
        // (a reaper dropped unreaped, which only a test does, keeps its memory for good).
        #[cfg(target_os = "linux")]
        if !self.reaped {
            std::mem::forget(self.memory.take());
        }
    }
}

/// The header slot once tags were handed out.
const TAGGED: &[u8; 11] = b"T         \n";

/// The engine process's reaper.
pub(crate) fn global() -> &'static Reaper {
    static REAPER: OnceLock<Reaper> = OnceLock::new();
    REAPER.get_or_init(|| Reaper {
        state: Mutex::default(),
        token: crate::tag::engine_token().to_owned(),
        // Known before the tree is made: the trees' fork may start first
        // ([`Reaper::start_early`]).
        tree: crate::contain::tree_dir(),
        v1_trees: crate::limits::available()
            .v1
            .as_ref()
            .map(|v| {
                // Every folder a tree may be made in: a tree is made when a dispatcher first
                // limits its resource, maybe after the reaper started.
                v.tree_dirs().iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join("\n")
            })
            .unwrap_or_default(),
        runs: crate::contain::run_prefix(),
        tagged: AtomicBool::new(false),
        file: OnceLock::new(),
        trees_by_fork: OnceLock::new(),
    })
}

/// The largest engine (resident memory at the trees' reaper's start) whose trees are left to a
/// process of its own rather than to the script. A fork keeps, copy-on-write, the engine's
/// pages as they were, and each page the engine writes later is copied, so it may come to
/// hold up to that much memory. A reaper that shares the engine's memory copies nothing, but
/// dies with the engine when the kernel's out-of-memory killer picks the engine (it kills every
/// process sharing its victim's memory), and the larger the engine the likelier that pick: a
/// large engine (an agent that embeds the library) keeps the script, which outlives it.
const FORK_MAX_RSS: u64 = 64 << 20;

/// This process's resident memory, from `/proc/self/statm` (its second number, in pages;
/// `u64::MAX` if unknown). `statm` is seven numbers where `status` is some fifty formatted
/// lines: about 5 µs to read against 12 here.
fn resident_bytes() -> u64 {
    let mut buf = [0u8; 128];
    let pages = crate::contain::read_proc_file("/proc/self/statm", &mut buf)
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
    match (pages, crate::sys::page_size()) {
        (Some(n), p) if p > 0 => n.saturating_mul(p),
        _ => u64::MAX,
    }
}

/// A registration slot taken for a run about to start ([`Reaper::reserve`]).
#[derive(Debug)]
pub(crate) struct Reservation<'r> {
    /// The registration file.
    pub(crate) file: &'r File,
    /// Where the slot starts in it.
    pub(crate) offset: u64,
}

impl Reaper {
    /// Registers a hook's process group: it is killed if the engine process dies while the
    /// group is registered. Best effort: when no reaper can be started, the hook runs
    /// unprotected (as it did without a reaper).
    #[cfg(test)]
    pub(crate) fn register(&self, pgid: Pid) {
        if self.is_registered(pgid) {
            return;
        }
        if let Some(r) = self.reserve() {
            self.confirm(r, pgid);
        }
    }

    /// Takes a slot for a run about to start, starting the reaper if needed. The spawned child
    /// writes its own process group id there ([`slot_line`]) before its `exec`, so a hook never
    /// runs unregistered, however soon after its start the engine dies; then the engine
    /// [`confirm`](Self::confirm)s it, or [`cancel`](Self::cancel)s it when the start failed.
    /// `None` when no reaper can be started (the hook then runs unprotected).
    pub(crate) fn reserve(&self) -> Option<Reservation<'_>> {
        let file = self.file().ok()?;
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.ensure_both(&mut st, file).ok()?;
        let slot = st.free.pop().unwrap_or_else(|| {
            st.len = st.len.max(1) + 1;
            st.len - 1
        });
        Some(Reservation { file, offset: slot * SLOT })
    }

    /// Records that the slot `r` holds `pgid` (writing it again: the child may not have).
    pub(crate) fn confirm(&self, r: Reservation<'_>, pgid: Pid) {
        let g = pgid.as_raw();
        let slot = r.offset / SLOT;
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let valid = g > 1 && g != getpgrp().as_raw() && !st.slots.contains_key(&g);
        if valid && r.file.write_all_at(&slot_line(g), r.offset).is_ok() {
            st.slots.insert(g, slot);
        } else if r.file.write_all_at(BLANK, r.offset).is_ok() {
            st.free.push(slot);
        }
    }

    /// Gives back a slot whose run did not start.
    pub(crate) fn cancel(&self, r: Reservation<'_>) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        // A slot that could not be blanked stays out of use.
        if r.file.write_all_at(BLANK, r.offset).is_ok() {
            st.free.push(r.offset / SLOT);
        }
    }

    /// The registration file, made (with a blank header slot) on first use.
    fn file(&self) -> io::Result<&File> {
        if let Some(f) = self.file.get() {
            return Ok(f);
        }
        let f = registration_file()?;
        // The header slot, blank until tags are handed out.
        f.write_all_at(BLANK, 0)?;
        Ok(self.file.get_or_init(|| f))
    }

    /// Makes sure the reaper runs (replacing one that died): the cgroup mechanisms register
    /// nothing per run, the reaper kills the engine's whole tree. With the trees left to a
    /// fork of the engine, that fork is all that runs (no shell, no registration file).
    pub(crate) fn ensure_running(&self) {
        if self.forks_trees() && self.has_trees() {
            let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = self.ensure_trees(&mut st, None);
            return;
        }
        let Ok(file) = self.file() else { return };
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = self.ensure_both(&mut st, file);
    }

    /// Whether the engine's trees and registrations are left to a process of the engine's
    /// that runs no program ([`crate::sys::start_tree_reaper`]): on Linux, when the engine is
    /// small ([`FORK_MAX_RSS`]) at the first start; decided once. It runs no program: the
    /// shell and its `rmdir` cost about 1.5 ms of CPU and 140 page faults per one-shot engine,
    /// and its tag sweep tens of milliseconds after every engine's end (`specs/dispatch.md`).
    fn forks_trees(&self) -> bool {
        *self
            .trees_by_fork
            .get_or_init(|| cfg!(target_os = "linux") && resident_bytes() <= FORK_MAX_RSS)
    }

    /// Whether the engine has cgroup trees (v2, or v1 for limits) for a reaper to end.
    fn has_trees(&self) -> bool {
        self.tree.is_some() || !self.v1_trees.is_empty()
    }

    /// Makes sure something ends the registered groups and tags, and the trees: the trees'
    /// process with the registrations (one started for the trees only, before any
    /// registration, is replaced by one that takes both: [`Reaper::take_registrations`]); or,
    /// when no such process can start, the shell, with the trees too unless a trees' process
    /// has them.
    fn ensure_both(&self, st: &mut State, file: &File) -> io::Result<()> {
        if self.forks_trees() {
            #[cfg(target_os = "linux")]
            if st.running.is_none()
                && trees_running(&mut st.trees)
                && st.trees.as_ref().is_some_and(|(_, t)| !t.registrations)
            {
                self.take_registrations(st, file);
            }
            self.ensure_trees(st, Some(file))?;
            if st.trees.as_ref().is_some_and(|(_, t)| t.registrations) {
                return Ok(());
            }
            st.ensure_running(file, &self.token, None, "", "")
        } else {
            st.ensure_running(file, &self.token, self.tree.as_deref(), &self.v1_trees, &self.runs)
        }
    }

    /// Starts the trees' process, when the trees go to one: called at the first run before the
    /// trees are made (`specs/dispatch.md`, "When the engine process dies: the reaper"). The
    /// trees it ends are named before they exist; one never made is skipped. With
    /// `registrations` (the subreaper and process-group mechanisms asked for by name), it
    /// takes the registration file too, so that no shell is needed for the runs' groups and
    /// tags.
    pub(crate) fn start_early(&self, registrations: bool) {
        if !self.forks_trees() || !(self.has_trees() || registrations) {
            return;
        }
        let file = if registrations { self.file().ok() } else { None };
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = self.ensure_trees(&mut st, file);
    }

    /// Waits, if the trees' fork was started since the last call, until it holds no
    /// descriptor of the engine's any more: called once a run has ended, so that the engine
    /// cannot exit while the fork still holds a copy of the agent's stdout (the agent would
    /// wait for the fork to be scheduled). Nothing waits for it before a hook starts: the
    /// fork and the hook share no descriptor (the hook's pipes are made after the fork), and
    /// by the end of the run the fork has run (the engine waited for the hook); an engine
    /// that ends mid-run at worst has the agent wait for that.
    pub(crate) fn settle(&self) {
        #[cfg(target_os = "linux")]
        {
            let ready = {
                let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
                st.trees_ready.take()
            };
            if let Some(r) = ready {
                r.wait();
            }
        }
    }

    /// Starts the trees' process unless it runs (replacing one that died), without waiting for
    /// it to set itself up ([`Reaper::settle`]); with the registration `file`, it ends the
    /// registered groups and the tagged processes too. A process already running keeps what
    /// it was started with.
    #[cfg(target_os = "linux")]
    fn ensure_trees(&self, st: &mut State, file: Option<&File>) -> io::Result<()> {
        if trees_running(&mut st.trees) {
            return Ok(());
        }
        st.trees_ready = None;
        let (pid, reaper) = match self.start_trees_process(file) {
            Ok((pid, reaper, ready)) => {
                st.trees_ready = Some(ready);
                (pid, reaper)
            }
            // No trees, and no new process allowed here (a process limit, a filter): the
            // registrations go to the script ([`Reaper::ensure_both`]).
            Err(_) if !self.has_trees() => return Ok(()),
            // The script, for the trees only (no registration file, no token).
            Err(_) => {
                let (pid, pipe) = self.trees_shell()?;
                let reaper =
                    TreesReaper { _pipe: pipe, memory: None, registrations: false, reaped: false };
                (pid, reaper)
            }
        };
        st.trees = Some((pid, reaper));
        Ok(())
    }

    /// Starts the trees' process ([`crate::sys::start_tree_reaper`]) for the engine's trees,
    /// and for the registrations in `file` when given: its pid, the engine's side of it, and
    /// what says it has set itself up.
    #[cfg(target_os = "linux")]
    fn start_trees_process(
        &self,
        file: Option<&File>,
    ) -> io::Result<(Pid, TreesReaper, crate::sys::Ready)> {
        let c = |p: &str| std::ffi::CString::new(p).map_err(io::Error::other);
        let registrations = file.map(|f| crate::sys::Registrations {
            file: std::os::fd::AsRawFd::as_raw_fd(f),
            own_group: getpgrp().as_raw(),
            tag_prefix: tag_prefix(&self.token),
        });
        let paths = crate::sys::TreePaths {
            v2: self.tree.as_deref().and_then(std::path::Path::to_str).map(c).transpose()?,
            v1: self.v1_trees.lines().filter(|l| !l.is_empty()).map(c).collect::<Result<_, _>>()?,
            runs: Some(self.runs.as_str()).filter(|r| !r.is_empty()).map(c).transpose()?,
            registrations,
        };
        let f = crate::sys::start_tree_reaper(&paths)?;
        let reaper = TreesReaper {
            _pipe: f.pipe,
            memory: f.memory,
            registrations: paths.registrations.is_some(),
            reaped: false,
        };
        Ok((Pid::from_raw(f.pid), reaper, f.ready))
    }

    /// Replaces a trees' process started for the trees only (before any registration: the
    /// first run planned a cgroup, and a run without one came after, as where `auto` finds
    /// the cgroup read-only, in a container, and falls back to `subreaper`) with one that also
    /// takes the registrations in `file`, so that no shell is needed for them. The new one
    /// starts first, then the old one is killed (`SIGKILL`, before its pipe closes: a closed
    /// pipe would start its work) and reaped, so the trees are never unguarded. When the new
    /// one cannot start, the old one stays and the script takes the registrations.
    #[cfg(target_os = "linux")]
    fn take_registrations(&self, st: &mut State, file: &File) {
        let Some((old_pid, _)) = &st.trees else { return };
        let old_pid = *old_pid;
        let Ok((pid, reaper, ready)) = self.start_trees_process(Some(file)) else { return };
        let _ = nix::sys::signal::kill(old_pid, nix::sys::signal::Signal::SIGKILL);
        let reaped = loop {
            match waitpid(old_pid, None) {
                Err(nix::errno::Errno::EINTR) => {}
                Ok(_) | Err(nix::errno::Errno::ECHILD) => break true,
                Err(_) => break false,
            }
        };
        if let Some((_, old)) = &mut st.trees {
            old.reaped = reaped;
        }
        st.trees = Some((pid, reaper));
        st.trees_ready = Some(ready);
    }

    /// The shell reaper for the trees only: no registered group, no tag to sweep.
    fn trees_shell(&self) -> io::Result<(Pid, std::os::fd::OwnedFd)> {
        let tree = self.tree.as_deref().and_then(std::path::Path::to_str).unwrap_or("");
        let (pid, pipe) = spawn_shell("", tree, &self.v1_trees, &self.runs, Stdio::null())?;
        Ok((pid, pipe.into()))
    }

    #[cfg(not(target_os = "linux"))]
    fn ensure_trees(&self, _: &mut State, _: Option<&File>) -> io::Result<()> {
        Err(io::Error::other("the trees' fork exists on Linux only"))
    }

    /// Records, once, that hook processes carry the engine's tag, so that the reaper sweeps
    /// them; then makes sure it runs.
    pub(crate) fn tags_used(&self) {
        if self.tagged.load(Ordering::Relaxed) {
            return;
        }
        let Ok(file) = self.file() else { return };
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if self.ensure_both(&mut st, file).is_ok() && file.write_all_at(TAGGED, 0).is_ok() {
            self.tagged.store(true, Ordering::Relaxed);
        }
    }

    /// Forgets a group that is empty or was sent `SIGKILL`, so that its number, once reused by
    /// an unrelated process, is never killed.
    pub(crate) fn release(&self, pgid: Pid) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(slot) = st.slots.remove(&pgid.as_raw()) else { return };
        if let Some(f) = self.file.get()
            && f.write_all_at(BLANK, slot * SLOT).is_ok()
        {
            st.free.push(slot);
        }
        // A slot that could not be blanked stays out of use; the reaper may kill its number.
    }

    /// The process id of the reaper that ends the registered groups (the trees' process, or
    /// the shell), starting it if needed.
    #[cfg(test)]
    pub(crate) fn pid(&self) -> Option<Pid> {
        let file = self.file().ok()?;
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.ensure_both(&mut st, file).ok()?;
        match &st.trees {
            Some((p, t)) if t.registrations => Some(*p),
            _ => st.running.as_ref().map(|(p, _)| *p),
        }
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
    fn ensure_running(
        &mut self,
        file: &File,
        token: &str,
        tree: Option<&std::path::Path>,
        v1_trees: &str,
        runs: &str,
    ) -> io::Result<()> {
        if still_running(&mut self.running) {
            return Ok(());
        }
        self.len = self.len.max(1);
        let tree = tree.and_then(std::path::Path::to_str).unwrap_or("");
        let (pid, pipe) = spawn_shell(token, tree, v1_trees, runs, Stdio::from(file.try_clone()?))?;
        self.running = Some((pid, pipe));
        Ok(())
    }
}

/// Whether the reaper in `slot` (a child of this process) still runs; one that exited is
/// reaped now, or is not our child any more, and the slot is emptied so another is started.
fn still_running<T>(slot: &mut Option<(Pid, T)>) -> bool {
    still_running_or(slot, |_| {})
}

/// [`still_running`] for the trees' process, whose memory is given back once it is reaped.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn trees_running(slot: &mut Option<(Pid, TreesReaper)>) -> bool {
    still_running_or(slot, |t| t.reaped = true)
}

/// [`still_running`], with `reaped` given the engine's side of a reaper known to be reaped (by
/// this call, or elsewhere: it is not our child any more) before the slot is emptied.
fn still_running_or<T>(slot: &mut Option<(Pid, T)>, reaped: impl FnOnce(&mut T)) -> bool {
    let Some((pid, t)) = slot else { return false };
    match waitpid(*pid, Some(WaitPidFlag::WNOHANG)) {
        Ok(WaitStatus::StillAlive) => return true,
        Ok(_) | Err(nix::errno::Errno::ECHILD) => reaped(t),
        Err(_) => {}
    }
    *slot = None;
    false
}

/// What a tagged process's environment entry starts with, `AGENT_HOOKS_RUN=<token>-` (digits
/// follow); empty (no sweep) for a token that is not digits and dashes between digits, as the
/// script checks.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn tag_prefix(token: &str) -> Vec<u8> {
    let well_formed = !token.is_empty()
        && !token.starts_with('-')
        && !token.ends_with('-')
        && token.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if well_formed { format!("{}={token}-", crate::tag::VAR).into_bytes() } else { Vec::new() }
}

/// Starts the shell reaper ([`script`]) in its own process group, in `/`, with no
/// environment, for this engine's group, the tag `token` (empty: none to sweep), the cgroup v2
/// tree `tree` and the v1 trees `v1_trees` (empty: none), in which only the run cgroups whose
/// names start with `runs` are ended when it is not empty (shared trees); `stderr` is where it
/// reads its registrations from. Its pid and the write end of the pipe whose closing starts it.
/// Dropping the child handle neither kills nor waits: the caller reaps it with `waitpid`.
fn spawn_shell(
    token: &str,
    tree: &str,
    v1_trees: &str,
    runs: &str,
    stderr: Stdio,
) -> io::Result<(Pid, std::process::ChildStdin)> {
    let mut child = Command::new(SHELL)
        .args([
            "-c",
            script(),
            "hooks-reaper",
            &getpgrp().as_raw().to_string(),
            token,
            tree,
            REAPER_PATH,
            v1_trees,
            runs,
        ])
        .env_clear()
        // No `current_dir`: the script's first `cd /` leaves the engine's folder. With a folder
        // to change to, std spawns by `fork` where it cannot find glibc's
        // `posix_spawn_file_actions_addchdir_np` (a binary linked with glibc built in): a copy
        // of the engine's page tables and a wait for the child's `exec`, on the first run.
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(stderr)
        .process_group(0)
        .spawn()?;
    let pid = Pid::from_raw(i32::try_from(child.id()).map_err(io::Error::other)?);
    let pipe = child.stdin.take().ok_or_else(|| io::Error::other("no reaper stdin"))?;
    Ok((pid, pipe))
}

/// An anonymous file (no name anyone else can open) for the registrations, in `/tmp`.
fn registration_file() -> io::Result<File> {
    crate::files::anonymous_file(std::path::Path::new("/tmp"))
}

#[cfg(test)]
mod tests;
