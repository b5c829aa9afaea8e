//! Tests of process tagging, with real processes.

use std::{
    fs,
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use super::{VAR, dispatcher_tag, engine_token, environ_has, kill_tagged, loose_tag};

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
