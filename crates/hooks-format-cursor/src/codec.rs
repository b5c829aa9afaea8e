//! [`CursorCodec`]: Cursor's hook protocol (JSON on stdin, exit code and JSON on stdout).

use hooks_schema::{
    EncodeContext, Envelope, HookCodec, HookDefinition, HookVerdict, Invocation, RawOutcome,
    WireFormat,
};

/// Cursor's hook protocol. Pure: it builds invocations and reads outcomes, it runs nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorCodec;

impl HookCodec for CursorCodec {
    fn wire_format(&self) -> WireFormat {
        WireFormat::Cursor
    }

    fn encode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        ctx: &EncodeContext<'_>,
    ) -> Result<Invocation, String> {
        crate::encode::encode(hook, envelope, ctx).map_err(|e| e.to_string())
    }

    fn decode(
        &self,
        hook: &HookDefinition,
        envelope: &Envelope,
        outcome: &RawOutcome,
    ) -> HookVerdict {
        crate::decode::decode(hook, envelope, outcome)
    }
}
