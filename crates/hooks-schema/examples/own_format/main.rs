//! Using a format with `hooks-schema` alone, as a downstream crate would (an adapter for a new
//! agent, a linter for its hook files): describe the format, let a `FormatSet` claim its
//! files, parse one into canonical definitions, then speak its protocol for one hook:
//! encode a canonical envelope into an invocation, decode an outcome into a verdict. No
//! engine crate, no IO beyond printing.
//!
//! `cargo run -p hooks-schema --example own_format`
//!
//! The "Acme" format is defined in `acme.rs` beside this file (the same definition
//! `tests/it/plugin_format.rs` registers with a runtime).

use std::{path::Path, sync::Arc, time::Duration};

use hooks_schema::{
    AbsPathBuf, CapturedOutput, EncodeContext, Envelope, ExitInfo, FormatSet, HookEvent,
    HookSourceId, ParseContext, RawOutcome,
};

mod acme;

use acme::{Acme, PROJECT_ACME, USER_ACME};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let formats = FormatSet::new(vec![Arc::new(Acme)]);
    let path = Path::new("/work/repo/.acme/hooks.json");
    let format = formats.format_for_file(path).ok_or("no format claims the file")?;
    println!("{} is an {} file", path.display(), format.agent());

    let text = r#"{"hooks": [{"on": "before_tool", "run": "grep -q 'rm -rf' && exit 2"}, {"on": "on_lint", "run": "true"}, {"on": "after_lunch", "run": "true"}]}"#;
    let ctx = ParseContext::new(path, PROJECT_ACME);
    println!("its kinds: {PROJECT_ACME} and {USER_ACME}");
    let parsed = format.parse(text.as_bytes(), &ctx).map_err(|d| format!("{d:?}"))?;
    for d in &parsed.diagnostics {
        println!("diagnostic: {d}");
    }
    let hook = parsed.definitions.first().ok_or("no hook")?;
    println!("hook {} on {:?} ({})", hook.id, hook.event, hook.native_event);

    let mut envelope = Envelope::new(HookEvent::PreToolUse);
    envelope.cwd = Some("/work/repo".into());
    let source = HookSourceId::new(PROJECT_ACME, AbsPathBuf::new(path.to_path_buf())?);
    let ctx = EncodeContext {
        source: &source,
        working_dir: Path::new("/work/repo"),
        project_dir: Some(Path::new("/work/repo")),
        config_dir: None,
        user_shell: None,
        agent_version: None,
        session_env: &[],
    };
    let invocation = hook.codec.encode(hook, &envelope, &ctx)?;
    println!("runs {:?} with {} bytes on stdin", invocation.program, invocation.stdin.len());

    let outcome = RawOutcome {
        exit: ExitInfo::Exited(2),
        timed_out: false,
        stdout: CapturedOutput::default(),
        stderr: CapturedOutput::whole(b"no rm -rf here\n".to_vec()),
        result_file: None,
        duration: Duration::from_millis(3),
    };
    let verdict = hook.codec.decode(hook, &envelope, &outcome);
    println!("verdict: {:?}: {}", verdict.decision, verdict.reason.unwrap_or_default());
    Ok(())
}
