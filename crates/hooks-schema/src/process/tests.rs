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

/// A command's program for an agent that runs command lines through its shell and programs
/// and scripts directly: the shell's choice for a line, the words as they are otherwise, and
/// an HTTP hook refused in the agent's name.
#[test]
fn a_command_s_program_follows_its_form() {
    let shell = |script: &String, named: &Option<String>| Program::Shell {
        script: format!("[{script}]"),
        shell: named.clone().or_else(|| Some("bash".to_owned())),
    };
    let of = |c: &crate::HookCommand| Program::of(c, "Acme", shell);
    let line = crate::HookCommand::Shell { script: "a b".into(), shell: Some("zsh".into()) };
    assert_eq!(
        of(&line).ok(),
        Some(Program::Shell { script: "[a b]".into(), shell: Some("zsh".into()) })
    );
    let exec = crate::HookCommand::Exec { program: "p".into(), args: vec!["x y".into()] };
    assert_eq!(of(&exec).ok(), Some(Program::Exec { argv: vec!["p".into(), "x y".into()] }));
    let script =
        crate::HookCommand::Script { path: PathBuf::from("/h/s.py"), args: vec!["-q".into()] };
    assert_eq!(of(&script).ok(), Some(Program::Exec { argv: vec!["/h/s.py".into(), "-q".into()] }));
    let http = crate::HookCommand::Http(crate::HttpHook {
        url: "http://127.0.0.1:9/".into(),
        headers: Vec::new(),
        allowed_env_vars: Vec::new(),
    });
    let refused = of(&http).expect_err("no http hooks");
    assert!(matches!(refused, crate::EncodeError::NoHttpHooks { agent: "Acme" }), "{refused:?}");
    assert_eq!(refused.to_string(), "Acme has no http hooks");
}
