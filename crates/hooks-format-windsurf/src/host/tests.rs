//! Tests of the host codec: the answer for folded verdicts (exit 2 with the reason on
//! stderr for a block on a `pre_` event, nothing otherwise), read back by the hook codec,
//! and decoding errors.

use std::time::Duration;

use hooks_schema::{
    AbsPathBuf, CapturedOutput, ExitInfo, HookCodec, HookId, HookSourceId, Provenance, RawOutcome,
};
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::WindsurfCodec;

fn input(event: &str) -> HostInput {
    let doc = json!({"agent_action_name": event, "trajectory_id": "t", "execution_id": "e", "tool_info": {"command_line": "ls", "cwd": "/p", "file_path": "/p/a", "user_prompt": "hi"}});
    WindsurfHost.decode_input(&serde_json::to_vec(&doc).expect("json"), None).expect("decodes")
}

fn by() -> Provenance {
    Provenance {
        hook_id: HookId::new("pre_run_command[0]").expect("id"),
        source: HookSourceId::new(
            crate::PROJECT_HOOKS,
            AbsPathBuf::new("/p/.windsurf/hooks.json".into()).expect("abs"),
        ),
        line: Some(3),
    }
}

#[test]
fn a_block_is_exit_2_with_the_reason_and_the_codec_reads_it_back() {
    let deny = FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some("no".into()),
        decided_by: Some(by()),
        ..FoldedVerdict::default()
    };
    let ask = FoldedVerdict {
        decision: Some(Decision::Ask),
        reason: Some("confirm".into()),
        ..FoldedVerdict::default()
    };
    for event in ["pre_run_command", "pre_read_code", "pre_write_code", "pre_user_prompt"] {
        let a = WindsurfHost.encode_answer(&input(event), &deny);
        assert_eq!(a.exit_code, 2, "{event}");
        assert_eq!(
            String::from_utf8_lossy(&a.stderr),
            "no (hook pre_run_command[0], /p/.windsurf/hooks.json:3)\n"
        );
        let doc = json!({"hooks": {event: [{"command": "bridge"}]}});
        let hook = crate::parse(
            &serde_json::to_vec(&doc).expect("json"),
            std::path::Path::new("/p/.windsurf/hooks.json"),
        )
        .expect("ok")
        .definitions
        .remove(0);
        let outcome = RawOutcome {
            exit: ExitInfo::Exited(a.exit_code),
            timed_out: false,
            stdout: CapturedOutput::whole(a.stdout.clone()),
            stderr: CapturedOutput::whole(a.stderr.clone()),
            result_file: None,
            duration: Duration::from_millis(1),
        };
        let back = WindsurfCodec.decode(&hook, &Envelope::new(hook.event), &outcome);
        assert_eq!(back.decision, Some(Decision::Deny), "{event}");
        assert_eq!(
            WindsurfHost.encode_answer(&input(event), &ask).exit_code,
            2,
            "Windsurf cannot ask: {event}"
        );
    }
    for event in ["post_run_command", "post_cascade_response"] {
        assert_eq!(
            WindsurfHost.encode_answer(&input(event), &deny),
            HostAnswer::default(),
            "{event}"
        );
    }
    assert_eq!(
        WindsurfHost.encode_answer(&input("pre_run_command"), &FoldedVerdict::default()),
        HostAnswer::default()
    );
}

#[test]
fn decoding_errors() {
    assert!(matches!(WindsurfHost.decode_input(b"{}", None), Err(HostError::Malformed(_))));
    assert!(
        WindsurfHost
            .decode_input(br#"{"tool_info": {"user_prompt": "x"}}"#, Some("pre_user_prompt"))
            .is_ok()
    );
    assert!(matches!(
        WindsurfHost
            .decode_input(br#"{"agent_action_name": "pre_read_code"}"#, Some("pre_run_command")),
        Err(HostError::Malformed(_))
    ));
    assert!(matches!(
        WindsurfHost.decode_input(br#"{"agent_action_name": "post_setup_worktree"}"#, None),
        Err(HostError::UnknownEvent(_))
    ));
    assert!(matches!(
        WindsurfHost.decode_input(br#"{"agent_action_name": "x", "tool_info": 1}"#, None),
        Err(HostError::UnknownEvent(_))
    ));
    assert!(matches!(
        WindsurfHost
            .decode_input(br#"{"agent_action_name": "pre_read_code", "tool_info": 1}"#, None),
        Err(HostError::Malformed(_))
    ));
    let i = input("pre_run_command");
    let tool = i.envelope.tool.expect("tool");
    assert_eq!((tool.name.as_str(), tool.args["command"].as_str()), ("run_command", Some("ls")));
}

proptest! {
    #[test]
    fn decoding_any_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        let _ = WindsurfHost.decode_input(&bytes, None);
        let _ = WindsurfHost.decode_input(&bytes, Some("pre_run_command"));
    }
}
