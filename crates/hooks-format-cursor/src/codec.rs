//! [`CursorCodec`]: Cursor's hook protocol (JSON on stdin, exit code and JSON on stdout).

use hooks_schema::{
    EncodeContext, EncodeError, Envelope, FormatId, HookCodec, HookDefinition, HookLaunch,
    HookVerdict, Invocation, LaunchDir, RawOutcome,
};

/// Cursor's hook protocol. Pure: it builds invocations and reads outcomes, it runs nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorCodec;

impl HookCodec for CursorCodec {
    fn wire_format(&self) -> FormatId {
        crate::FORMAT
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        crate::encode::encode(hook, envelope, ctx).map_err(EncodeError::adapter)
    }

    fn decode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        crate::decode::decode(hook, envelope, outcome)
    }

    /// Cursor runs a hook in the folder the registry places its file in (the project root,
    /// or `~/.cursor`) and sets `CURSOR_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` to the project.
    fn launch(&self, hook: &HookDefinition) -> HookLaunch {
        let mut dir_vars = vec![
            ("CURSOR_PROJECT_DIR".to_owned(), LaunchDir::Project),
            ("CLAUDE_PROJECT_DIR".to_owned(), LaunchDir::Project),
        ];
        dir_vars.extend(hook.env.iter().map(|(k, v)| {
            let dir = if std::path::Path::new(v).is_absolute() {
                LaunchDir::Fixed(v.into())
            } else {
                LaunchDir::Unknown
            };
            (k.clone(), dir)
        }));
        HookLaunch { run_dir: LaunchDir::Placement, dir_vars, ..HookLaunch::default() }
    }
}
