//! Test helpers: a codec that runs nothing, definition and update builders.

use std::{path::Path, sync::Arc, time::Duration};

use hooks_schema::{
    AbsPathBuf, Binding, Delivery, EncodeContext, Envelope, ExecutionMode, HookCodec, HookCommand,
    HookDefinition, HookEvent, HookId, HookSourceId, HookSourceKind, HookVerdict, Invocation,
    Matcher, OnFailure, ParseResult, ParsedSource, RawOutcome, TrustDecision, WireFormat,
};

use crate::SourceUpdate;

/// A codec for definitions that are listed and bound but never run in these tests.
#[derive(Debug)]
pub(crate) struct TestCodec;

impl HookCodec for TestCodec {
    fn wire_format(&self) -> WireFormat {
        WireFormat::Cursor
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        _envelope: &Envelope,
        _ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, String> {
        Err(format!("the registry's test codec does not run hooks ({})", hook.id))
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        HookVerdict::no_opinion()
    }
}

/// A codec that runs nothing and launches its hooks as a session-directory format does:
/// in the session's directory, with `PROJECT_DIR` set to the project root.
#[derive(Debug)]
pub(crate) struct SessionCodec;

impl HookCodec for SessionCodec {
    fn wire_format(&self) -> WireFormat {
        WireFormat::Claude
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, String> {
        TestCodec.encode(hook, envelope, ctx)
    }

    fn decode(&self, _: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        HookVerdict::no_opinion()
    }

    fn launch(&self, hook: &HookDefinition) -> hooks_schema::HookLaunch {
        use hooks_schema::{HookLaunch, LaunchDir};
        let run_dir = match &hook.cwd {
            Some(dir) => LaunchDir::Fixed(dir.into()),
            None => LaunchDir::Session,
        };
        HookLaunch {
            run_dir,
            dir_vars: vec![("PROJECT_DIR".to_owned(), LaunchDir::Project)],
            argv_templates: Vec::new(),
        }
    }
}

/// [`def`] with the [`SessionCodec`].
pub(crate) fn session_def(id: &str, order: u32, command: &str) -> HookDefinition {
    HookDefinition { codec: Arc::new(SessionCodec), ..def(id, order, command) }
}

pub(crate) fn abs(p: impl AsRef<Path>) -> AbsPathBuf {
    AbsPathBuf::new(p.as_ref().to_path_buf()).unwrap()
}

pub(crate) fn sid(kind: HookSourceKind, p: impl AsRef<Path>) -> HookSourceId {
    HookSourceId::new(kind, abs(p))
}

/// A shell definition with a 30 s timeout.
pub(crate) fn def(id: &str, order: u32, command: &str) -> HookDefinition {
    HookDefinition {
        id: HookId::new(id).unwrap(),
        event: HookEvent::PreToolUse,
        native_event: "preToolUse".to_owned(),
        matcher: Matcher::all(),
        command: HookCommand::Shell { script: command.to_owned(), shell: None },
        cwd: None,
        env: Vec::new(),
        timeout: Duration::from_secs(30),
        on_failure: OnFailure::Warn,
        mode: ExecutionMode::Blocking,
        delivery: Delivery::BestEffort,
        detach: false,
        enabled: true,
        codec: Arc::new(TestCodec),
        order,
        line: Some(order + 1),
        column: Some(1),
        description: None,
        native: serde_json::Map::new(),
    }
}

/// Definitions named `names`, in order, each running `./<name>.sh`.
pub(crate) fn defs(names: &[&str]) -> Vec<HookDefinition> {
    names.iter().zip(0u32..).map(|(n, i)| def(n, i, &format!("./{n}.sh"))).collect()
}

pub(crate) fn ok(definitions: Vec<HookDefinition>) -> ParseResult {
    Ok(ParsedSource { definitions, ..ParsedSource::default() })
}

pub(crate) fn malformed() -> ParseResult {
    Err(vec![hooks_schema::HookDiagnostic::error("expected `,` or `}`").at(3, 7)])
}

pub(crate) fn active() -> TrustDecision {
    TrustDecision::Active { reason: "test: active".to_owned() }
}

pub(crate) fn inert() -> TrustDecision {
    TrustDecision::Inert { reason: "test: commands require approval".to_owned() }
}

pub(crate) fn update(
    source: &HookSourceId,
    parsed: ParseResult,
    root: Option<&AbsPathBuf>,
    trust: TrustDecision,
) -> SourceUpdate {
    SourceUpdate { source: source.clone(), parsed, project_root: root.cloned(), trust }
}

/// The ids of `bindings`, in order.
pub(crate) fn names(bindings: &[Binding]) -> Vec<String> {
    bindings.iter().map(|b| b.definition.id.to_string()).collect()
}
