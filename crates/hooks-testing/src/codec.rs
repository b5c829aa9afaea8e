//! The two test codecs: one that runs nothing, one that speaks a tiny made-up protocol.

use std::path::PathBuf;

use hooks_schema::{
    ArgRewrite, Decision, EncodeContext, EncodeError, Envelope, ExecutionMode, FormatId, HookCodec,
    HookCommand, HookDefinition, HookVerdict, Invocation, OnFailure, Program, ProvidedFile,
    ProvidedFileRole, RawOutcome,
};
use serde_json::Value;

/// The format id the test codecs answer with.
pub const TEST_FORMAT: FormatId = FormatId::new("test");

/// A codec for definitions that are listed, bound and protected but never run: encoding
/// fails, decoding has no opinion.
#[derive(Debug, Clone, Copy, Default)]
pub struct InertCodec;

impl HookCodec for InertCodec {
    fn wire_format(&self) -> FormatId {
        TEST_FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        _envelope: &Envelope,
        _ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        Err(EncodeError::Refused(format!("the inert test codec runs nothing ({})", hook.id)))
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        HookVerdict::no_opinion()
    }
}

/// The test protocol's codec.
///
/// The protocol: the envelope as JSON on stdin (or in `$TEST_PAYLOAD` when the definition's
/// native `payload_file` is true, with the answer in `$TEST_RESULT`); exit 0 with an empty
/// stdout is no opinion; exit 0 with `{"decision", "reason", "merge", "context"}` JSON is a
/// verdict; exit 2 denies with stderr as the reason; any other failure follows `on_failure`.
/// A blocking definition whose native `once_per_command` is true runs its command once per
/// firing, as Claude Code does; one whose native `fail_encode` is true cannot be encoded.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptCodec;

impl HookCodec for ScriptCodec {
    fn wire_format(&self) -> FormatId {
        TEST_FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        if hook.native.get("fail_encode") == Some(&Value::Bool(true)) {
            return Err(EncodeError::Payload("the test codec refuses this envelope".to_owned()));
        }
        let program = match &hook.command {
            HookCommand::Shell { script, shell } => {
                Program::Shell { script: script.clone(), shell: shell.clone() }
            }
            HookCommand::Exec { program, args } => {
                let mut argv = vec![program.clone()];
                argv.extend(args.iter().cloned());
                Program::Exec { argv }
            }
            HookCommand::Http(h) => Program::Http(h.clone()),
            HookCommand::Script { path, args } => {
                let mut argv = vec![path.display().to_string()];
                argv.extend(args.iter().cloned());
                Program::FirstAvailable {
                    candidates: vec![
                        std::iter::once("no-such-interpreter-x".to_owned())
                            .chain(argv.iter().cloned())
                            .collect(),
                        std::iter::once("sh".to_owned()).chain(argv).collect(),
                    ],
                }
            }
        };
        let payload =
            serde_json::to_vec(envelope).map_err(|e| EncodeError::Payload(e.to_string()))?;
        let file_mode = hook.native.get("payload_file") == Some(&Value::Bool(true));
        let (stdin, files) = if file_mode {
            (
                Vec::new(),
                vec![
                    ProvidedFile {
                        env_var: "TEST_PAYLOAD".to_owned(),
                        name_hint: hook.id.as_str().to_owned(),
                        role: ProvidedFileRole::Input(payload),
                    },
                    ProvidedFile {
                        env_var: "TEST_RESULT".to_owned(),
                        name_hint: hook.id.as_str().to_owned(),
                        role: ProvidedFileRole::Output,
                    },
                ],
            )
        } else {
            (payload, Vec::new())
        };
        Ok(Invocation {
            program,
            cwd: Some(
                hook.cwd.as_ref().map_or_else(|| ctx.working_dir.to_path_buf(), PathBuf::from),
            ),
            env_remove: Vec::new(),
            env: hook.env.clone(),
            stdin,
            files,
            timeout: hook.timeout,
        })
    }

    fn decode(&self, hook: &HookDefinition, _: &Envelope, outcome: &RawOutcome) -> HookVerdict {
        if outcome.exit_code() == Some(2) {
            let reason = outcome.stderr.lossy().trim().to_owned();
            return HookVerdict::decided(Decision::Deny, Some(reason));
        }
        if let Some(label) = outcome.failure_label() {
            let mut v = match hook.on_failure {
                OnFailure::Block => HookVerdict::decided(
                    Decision::Deny,
                    Some(format!("hook '{}' failed ({label})", hook.id)),
                ),
                OnFailure::Warn | OnFailure::Ignore => HookVerdict::no_opinion(),
            };
            v.failure = Some(label);
            return v;
        }
        let bytes = match &outcome.result_file {
            Some(r) if !r.bytes.is_empty() => &r.bytes,
            _ => &outcome.stdout.bytes,
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return HookVerdict::no_opinion();
        }
        let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(bytes) else {
            let mut v = HookVerdict::no_opinion();
            v.notes.push("output is not a JSON object".to_owned());
            return v;
        };
        let decision = match obj.get("decision").and_then(Value::as_str) {
            Some("allow") => Some(Decision::Allow),
            Some("ask") => Some(Decision::Ask),
            Some("deny") => Some(Decision::Deny),
            _ => None,
        };
        HookVerdict {
            decision,
            reason: obj.get("reason").and_then(Value::as_str).map(str::to_owned),
            rewrite: obj.get("merge").and_then(Value::as_object).cloned().map(ArgRewrite::Merge),
            context: obj
                .get("context")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect(),
            ..HookVerdict::default()
        }
    }

    fn runs_once_per_command(&self, hook: &HookDefinition) -> bool {
        hook.native.get("once_per_command") == Some(&Value::Bool(true))
            && hook.mode == ExecutionMode::Blocking
    }
}
