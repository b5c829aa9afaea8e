//! Using a format with `hooks-schema` alone, as a downstream crate would (an adapter for a new
//! agent, a linter for its hook files): describe the format, let a `FormatSet` claim its
//! files, parse one into canonical definitions, then speak its protocol for one hook:
//! encode a canonical envelope into an invocation, decode an outcome into a verdict. No
//! engine crate, no IO beyond printing.
//!
//! `cargo run -p hooks-schema --example own_format`
//!
//! The "Acme" format: `.acme/hooks.json` in a project,
//! `{"hooks": [{"on": "before_tool", "run": "<shell command>"}]}`; its hooks read the
//! canonical envelope as JSON on stdin and deny with exit code 2 (stderr is the reason).

use std::{path::Path, sync::Arc, time::Duration};

use hooks_schema::{
    AbsPathBuf, CapturedOutput, Claim, Decision, Delivery, EncodeContext, EncodeError, Envelope,
    ExecutionMode, ExitInfo, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
    FormatDirs, FormatId, FormatSet, HookCodec, HookCommand, HookDefinition, HookDiagnostic,
    HookEvent, HookId, HookSourceId, HookSourceKind, HookVerdict, Invocation, Matcher, NativeEvent,
    OnFailure, ParseContext, ParseResult, ParsedSource, Program, RawOutcome,
};
use serde_json::Value;

const ACME: FormatId = FormatId::new("acme");
const ACME_FILE: FileRole = FileRole::new(ACME, "acme_file", 900);
const PROJECT_ACME: HookSourceKind = HookSourceKind::file(FileScope::Project, ACME_FILE);
const LOCATIONS: [FileLocation; 1] =
    [FileLocation::hooks(ACME_FILE, FileScope::Project, FilePattern::File(".acme/hooks.json"))];
const EVENTS: [NativeEvent; 1] =
    [NativeEvent { name: "before_tool", canonical: Some(HookEvent::PreToolUse) }];

/// The format's descriptor: everything the engine (or any other reader) knows of it.
#[derive(Debug)]
struct Acme;

impl FormatDescriptor for Acme {
    fn id(&self) -> FormatId {
        ACME
    }
    fn agent(&self) -> &'static str {
        "Acme"
    }
    fn dirs(&self) -> FormatDirs {
        FormatDirs::default()
    }
    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }
    fn claim(&self, path: &Path) -> Claim {
        let in_acme = path.parent().and_then(Path::file_name).is_some_and(|n| n == ".acme");
        if in_acme && path.file_name().is_some_and(|n| n == "hooks.json") {
            Claim::Path
        } else {
            Claim::No
        }
    }
    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        let fail = |m: String| Err(vec![HookDiagnostic::error(m).in_file(ctx.path)]);
        let doc: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => return fail(format!("not JSON: {e}")),
        };
        let Some(hooks) = doc.get("hooks").and_then(Value::as_array) else {
            return fail("`hooks` must be a list".to_owned());
        };
        let mut out = ParsedSource::default();
        for (i, h) in hooks.iter().enumerate() {
            let on = h.get("on").and_then(Value::as_str).unwrap_or_default();
            let Some(event) = self.canonical_event(on) else {
                out.diagnostics.push(
                    HookDiagnostic::warning(format!("hooks[{i}]: unknown event `{on}`"))
                        .in_file(ctx.path),
                );
                continue;
            };
            let run = h.get("run").and_then(Value::as_str).unwrap_or_default();
            let Ok(id) = HookId::new(&format!("{on}[{i}]")) else { continue };
            out.definitions.push(HookDefinition {
                id,
                event,
                native_event: on.to_owned(),
                matcher: Matcher::all(),
                command: HookCommand::Shell { script: run.to_owned(), shell: None },
                cwd: None,
                env: Vec::new(),
                timeout: Duration::from_secs(10),
                on_failure: OnFailure::Warn,
                mode: ExecutionMode::Blocking,
                delivery: Delivery::BestEffort,
                detach: false,
                enabled: true,
                codec: self.codec(),
                order: u32::try_from(i).unwrap_or(u32::MAX),
                line: None,
                column: None,
                description: None,
                native: serde_json::Map::new(),
            });
        }
        Ok(out)
    }
    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }
    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(AcmeCodec)
    }
}

/// The format's protocol: the canonical envelope on stdin, exit code 2 denies.
#[derive(Debug)]
struct AcmeCodec;

impl HookCodec for AcmeCodec {
    fn wire_format(&self) -> FormatId {
        ACME
    }
    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        let HookCommand::Shell { script, .. } = &hook.command else {
            return Err(EncodeError::Refused("Acme runs shell commands only".to_owned()));
        };
        Ok(Invocation {
            program: Program::Shell { script: script.clone(), shell: None },
            cwd: Some(ctx.working_dir.to_path_buf()),
            env_remove: Vec::new(),
            env: Vec::new(),
            stdin: serde_json::to_vec(envelope).map_err(|e| EncodeError::Payload(e.to_string()))?,
            files: Vec::new(),
            timeout: hook.timeout,
        })
    }
    fn decode(&self, _: &HookDefinition, _: &Envelope, outcome: &RawOutcome) -> HookVerdict {
        if outcome.exit == ExitInfo::Exited(2) {
            return HookVerdict::decided(
                Decision::Deny,
                Some(outcome.stderr.lossy().trim().to_owned()),
            );
        }
        HookVerdict::no_opinion()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let formats = FormatSet::new(vec![Arc::new(Acme)]);
    let path = Path::new("/work/repo/.acme/hooks.json");
    let format = formats.format_for_file(path).ok_or("no format claims the file")?;
    println!("{} is an {} file", path.display(), format.agent());

    let text = r#"{"hooks": [{"on": "before_tool", "run": "grep -q 'rm -rf' && exit 2"}, {"on": "after_lunch", "run": "true"}]}"#;
    let ctx = ParseContext { path, kind: PROJECT_ACME, strict: false, shadows: &[] };
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
