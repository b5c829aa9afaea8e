//! Tests of the started-process handle: which processes count as running for the spawner's
//! "hook first" yield.

use std::ffi::CString;

use super::PidfdChild;
use crate::sys::{spawn, tests::request};

/// Starts `sleep 5` (stdio on `/dev/null`) and wraps it.
fn sleeper() -> PidfdChild {
    let null = std::fs::File::open("/dev/null").expect("/dev/null");
    let programs = [CString::from(c"/bin/sleep"), CString::from(c"/usr/bin/sleep")];
    let argv = [CString::from(c"sleep"), CString::from(c"5")];
    let null_fd = std::os::fd::AsFd::as_fd(&null);
    let s = spawn(&request(&programs, &argv, [null_fd; 3])).expect("spawn sleep");
    PidfdChild::new(s.pid, s.pidfd, true)
}

#[test]
fn a_process_is_the_only_one_running_only_while_no_other_is() {
    let mut a = sleeper();
    let mut b = sleeper();
    // Other tests of this binary may run processes too; they only add to the count.
    assert!(!a.only_one_live(), "two are running");
    assert!(!b.only_one_live(), "two are running");
    b.start_kill();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    rt.block_on(b.wait()).expect("reaped");
    assert!(!b.only_one_live(), "a reaped process is not running");
    a.start_kill();
    rt.block_on(a.wait()).expect("reaped");
    assert!(!a.only_one_live(), "a reaped process is not running");
}

#[test]
fn a_reaped_process_stops_counting_once() {
    let mut a = sleeper();
    assert!(a.counted, "a started process is counted");
    a.start_kill();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    rt.block_on(a.wait()).expect("reaped");
    assert!(!a.counted, "the reap took it out of the count");
    // Dropped after its reap: not taken out a second time (the count would wrap below zero
    // when no other process runs, and every later start would see many running).
    drop(a);
    let b = sleeper();
    assert!(super::LIVE.load(std::sync::atomic::Ordering::Relaxed) < usize::MAX / 2);
    drop(b);
}
