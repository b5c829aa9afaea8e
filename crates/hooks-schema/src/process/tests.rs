//! Tests of the outcome helpers.

use super::*;

fn outcome(exit: ExitInfo, timed_out: bool) -> RawOutcome {
    RawOutcome {
        exit,
        timed_out,
        stdout: CapturedOutput::whole(b"out".to_vec()),
        stderr: CapturedOutput::default(),
        result_file: None,
        duration: Duration::from_millis(1),
    }
}

#[test]
fn failure_labels_name_how_a_run_failed() {
    assert_eq!(outcome(ExitInfo::Exited(0), false).failure_label(), None);
    assert!(outcome(ExitInfo::Exited(0), false).succeeded());
    assert_eq!(outcome(ExitInfo::Exited(2), false).failure_label().as_deref(), Some("exit_code=2"));
    assert_eq!(outcome(ExitInfo::Exited(2), false).exit_code(), Some(2));
    assert_eq!(outcome(ExitInfo::Signaled(9), true).failure_label().as_deref(), Some("timeout"));
    assert_eq!(outcome(ExitInfo::Exited(0), true).exit_code(), None);
    assert!(!outcome(ExitInfo::Exited(0), true).succeeded());
    assert_eq!(
        outcome(ExitInfo::Signaled(11), false).failure_label().as_deref(),
        Some("signal=11")
    );
    let ns = ExitInfo::NotStarted(SpawnFailure {
        kind: SpawnFailureKind::ProgramNotFound,
        message: "x".into(),
    });
    assert_eq!(outcome(ns, false).failure_label().as_deref(), Some("launch_error"));
    assert_eq!(CapturedOutput::whole(vec![0xff, b'a']).lossy(), "\u{fffd}a");
}
