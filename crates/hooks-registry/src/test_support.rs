//! Test helpers: definition and update builders (the definitions use the shared inert test
//! codec of `hooks-testing`).

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AbsPathBuf, Binding, EncodeContext, EncodeError, Envelope, FormatId, HookCodec, HookDefinition,
    HookSourceId, HookSourceKind, HookVerdict, Invocation, ParseResult, ParsedSource, RawOutcome,
    TrustDecision,
};

use crate::SourceUpdate;

/// A codec that runs nothing and launches its hooks as a session-directory format does:
/// in the session's directory, with `PROJECT_DIR` set to the project root.
#[derive(Debug)]
pub(crate) struct SessionCodec;

impl HookCodec for SessionCodec {
    fn wire_format(&self) -> FormatId {
        hooks_testing::TEST_FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        hooks_testing::InertCodec.encode(hook, envelope, ctx)
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
            ..HookLaunch::default()
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

/// A shell definition with a 30 s timeout (the shared inert test codec).
pub(crate) fn def(id: &str, order: u32, command: &str) -> HookDefinition {
    hooks_testing::definition(id, order, command)
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
    SourceUpdate {
        source: source.clone(),
        parsed,
        project_root: root.cloned(),
        project_dir: None,
        trust,
    }
}

/// The ids of `bindings`, in order.
pub(crate) fn names(bindings: &[Binding]) -> Vec<String> {
    bindings.iter().map(|b| b.definition.id.to_string()).collect()
}
