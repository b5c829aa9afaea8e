//! The "Acme" format, defined with `hooks-schema` alone: `.acme/hooks.json` in a project and
//! `~/.acme/hooks.json` for the user, `{"hooks": [{"on": "before_tool", "run": "<shell
//! command>"}]}`; its protocol sends the canonical envelope as JSON on stdin and reads exit
//! code 2 as a deny with stderr as the reason.
//!
//! One definition serves two places: the `own_format` example (hooks-schema alone, as a
//! downstream crate would use it) and `tests/it/plugin_format.rs` (the plug-in boundary
//! proven: the same format registered with a runtime), which includes this file by path.

use std::{path::Path, sync::Arc, time::Duration};

use hooks_schema::{
    Claim, Decision, Delivery, EncodeContext, EncodeError, Envelope, ExecutionMode, FileLocation,
    FilePattern, FileRole, FileScope, FormatDescriptor, FormatDirs, FormatId, HookCodec,
    HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookId, HookSourceKind, HookVerdict,
    Invocation, Matcher, NativeEvent, OnFailure, ParseContext, ParseResult, ParsedSource, Program,
    RawOutcome, UserDir,
};
use serde_json::Value;

pub const ACME: FormatId = FormatId::new("acme");
pub const ACME_FILE: FileRole = FileRole::new(ACME, "acme_file", 900);
pub const PROJECT_ACME: HookSourceKind = HookSourceKind::file(FileScope::Project, ACME_FILE);
pub const USER_ACME: HookSourceKind = HookSourceKind::file(FileScope::User, ACME_FILE);

const LOCATIONS: [FileLocation; 2] = [
    FileLocation::hooks(ACME_FILE, FileScope::Project, FilePattern::File(".acme/hooks.json")),
    FileLocation::hooks(ACME_FILE, FileScope::User, FilePattern::File("hooks.json")),
];

const EVENTS: [NativeEvent; 2] = [
    NativeEvent { name: "before_tool", canonical: Some(HookEvent::PreToolUse) },
    NativeEvent { name: "on_lint", canonical: None },
];

/// The format's descriptor: everything the engine (or any other reader) knows of it.
#[derive(Debug)]
pub struct Acme;

impl FormatDescriptor for Acme {
    fn id(&self) -> FormatId {
        ACME
    }
    fn agent(&self) -> &'static str {
        "Acme"
    }
    fn dirs(&self) -> FormatDirs {
        FormatDirs { user: Some(UserDir::under_home(".acme")), managed: None }
    }
    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }
    fn claim(&self, path: &Path) -> Claim {
        let in_acme = path.parent().and_then(Path::file_name).is_some_and(|n| n == ".acme");
        if in_acme { Claim::Path } else { Claim::No }
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
                out.diagnostics
                    .push(HookDiagnostic::warning(format!("hooks[{i}]: `{on}` is skipped")));
                continue;
            };
            let run = h.get("run").and_then(Value::as_str).unwrap_or_default();
            out.definitions.push(HookDefinition {
                id: HookId::new(&format!("{on}[{i}]")).expect("an id"),
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
                line: Some(1),
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
pub struct AcmeCodec;

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
        if outcome.exit_code() == Some(2) {
            return HookVerdict::decided(
                Decision::Deny,
                Some(outcome.stderr.lossy().trim().to_owned()),
            );
        }
        HookVerdict::no_opinion()
    }
}
