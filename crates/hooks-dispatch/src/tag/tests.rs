//! Tests of process tagging, with real processes.

use std::{
    fs,
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use proptest::prelude::*;

use super::{TagRest, VAR, dispatcher_tag, engine_token, kill_tagged, loose_tag};

/// Whether `block`, fed to [`super::TagMatch`] in two pieces cut at `cut`, holds `prefix` and `rest`.
fn matches(block: &[u8], prefix: &[u8], rest: TagRest, cut: usize) -> bool {
    crate::fuzzing::tag_found(block, prefix, rest == TagRest::Digits, cut)
}

/// Whether the environment block `environ` holds `VAR=tag` exactly, as the engine's sweep
/// matches one dispatcher's tag.
fn environ_has(environ: &[u8], tag: &str) -> bool {
    matches(environ, format!("{VAR}={tag}").as_bytes(), TagRest::Nothing, environ.len())
}

#[test]
fn tags_are_unique_per_dispatcher_and_share_the_engine_token() {
    let (a, b) = (dispatcher_tag(), dispatcher_tag());
    assert_ne!(a, b);
    for t in [a.as_str(), b.as_str(), loose_tag()] {
        let rest = t.strip_prefix(engine_token()).and_then(|r| r.strip_prefix('-'));
        assert!(
            rest.is_some_and(|r| !r.is_empty() && r.bytes().all(|c| c.is_ascii_digit())),
            "{t}"
        );
    }
    assert!(engine_token().bytes().all(|c| c.is_ascii_digit() || c == b'-'));
    assert_eq!(loose_tag(), format!("{}-0", engine_token()));
}

#[test]
fn only_the_exact_entry_matches() {
    let env = format!("A=1\0{VAR}=12-34-5\0B=2\0").into_bytes();
    assert!(environ_has(&env, "12-34-5"));
    assert!(!environ_has(&env, "12-34"));
    assert!(!environ_has(&env, "12-34-55"));
    assert!(!environ_has(&env, "2-34-5"));
    assert!(!environ_has(format!("X{VAR}=12-34-5").as_bytes(), "12-34-5"));
    assert!(!environ_has(format!("{VAR}_=12-34-5").as_bytes(), "12-34-5"));
    assert!(!environ_has(b"", "12-34-5"));
}

fn alive(pid: u32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    let state =
        stat.rfind(')').and_then(|i| stat.get(i + 1..)).and_then(|s| s.split_whitespace().next());
    !matches!(state, Some("Z" | "X") | None)
}

#[test]
fn a_sweep_kills_processes_with_the_tag_in_other_sessions_and_spares_the_rest() {
    let tag = dispatcher_tag();
    let spawn = |value: &str| {
        Command::new("sleep")
            .arg("60")
            .env(VAR, value)
            .stdin(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("spawn sleep")
    };
    let mut tagged = spawn(&tag);
    let mut other = spawn(&dispatcher_tag());
    // A process still exiting can be matched by the next pass too.
    let killed = kill_tagged(&tag);
    assert!(killed >= 1, "{killed}");
    let st = tagged.wait().expect("wait");
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&st), Some(9));
    assert!(alive(other.id()), "another dispatcher's process is spared");
    assert_eq!(kill_tagged(&tag), 0, "a reaped process is not matched again");
    let _ = other.kill();
    let _ = other.wait();
    // The sweep's bound: passes end once one kills nothing.
    let started = Instant::now();
    kill_tagged(&dispatcher_tag());
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_engine_s_tags_are_the_prefix_then_digits_and_nothing_else() {
    let p = b"AGENT_HOOKS_RUN=12-34-";
    let digits = |block: &[u8]| matches(block, p, TagRest::Digits, block.len());
    assert!(digits(b"A=1\0AGENT_HOOKS_RUN=12-34-5\0B=2\0"));
    assert!(digits(b"AGENT_HOOKS_RUN=12-34-567"), "a last entry without its NUL");
    for block in [
        &b"AGENT_HOOKS_RUN=12-34-\0"[..],
        b"AGENT_HOOKS_RUN=12-34-5x\0",
        b"AGENT_HOOKS_RUN=12-349-5\0",
        b"XAGENT_HOOKS_RUN=12-34-5\0",
        b"AGENT_HOOKS_RUN=12-34\0",
        b"",
    ] {
        assert!(!digits(block), "{:?}", String::from_utf8_lossy(block));
    }
}

proptest! {
    #[test]
    fn the_tag_matcher_fed_in_pieces_agrees_with_the_plain_reading(
        entries in prop::collection::vec(
            prop_oneof![
                "[A-Z_]{1,6}=[a-z0-9-]{0,6}",
                "AGENT_HOOKS_RUN=7-8-[0-9x]{0,3}",
                "AGENT_HOOKS_RUN=7-[0-9-]{0,4}",
            ],
            0..6,
        ),
        cut in 0usize..64,
        terminated in any::<bool>(),
        exact in any::<bool>(),
    ) {
        let (prefix, rest): (&[u8], _) = if exact {
            (b"AGENT_HOOKS_RUN=7-8-1", TagRest::Nothing)
        } else {
            (b"AGENT_HOOKS_RUN=7-8-", TagRest::Digits)
        };
        let mut block = entries.join("\0").into_bytes();
        if terminated && !block.is_empty() {
            block.push(0);
        }
        prop_assert_eq!(
            matches(&block, prefix, rest, cut),
            crate::fuzzing::tag_found_reference(&block, prefix, rest == TagRest::Digits)
        );
    }
}

#[test]
fn a_sweep_kills_a_tagged_process_that_keeps_starting_its_program_again() {
    // Its environment reads empty for a moment at each `exec` (the new program's memory is in
    // place, its environment not yet laid out): a sweep whose passes read it then must not
    // end on it. Each round waits until the process started its program three times. (On a
    // loaded machine, 6 of 1 000 such sweeps missed it before they read a process's
    // `/proc/<pid>/stat` after an empty environment.)
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("again.sh");
    fs::write(&script, "echo >> \"$0.count\"\nexec /bin/sh \"$0\"\n").expect("write");
    let count = dir.path().join("again.sh.count");
    for round in 0..50 {
        let _ = fs::remove_file(&count);
        let tag = dispatcher_tag();
        let mut child = Command::new("/bin/sh")
            .arg(&script)
            .env(VAR, &tag)
            .stdin(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("spawn");
        let deadline = Instant::now() + Duration::from_secs(10);
        while fs::read(&count).map_or(0, |c| c.len()) < 3 && Instant::now() < deadline {
            std::thread::yield_now();
        }
        let killed = kill_tagged(&tag);
        let ended = loop {
            if let Some(st) = child.try_wait().expect("try_wait") {
                break Some(st);
            }
            if Instant::now() >= deadline {
                break None;
            }
            std::thread::yield_now();
        };
        if ended.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let signal = ended.and_then(|st| std::os::unix::process::ExitStatusExt::signal(&st));
        assert_eq!(signal, Some(9), "round {round}: the sweep sent {killed} kills and ended");
    }
}
