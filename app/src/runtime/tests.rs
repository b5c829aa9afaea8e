//! Tests of the runtime's configuration built from its formats.

use std::sync::Arc;

use hooks_schema::{
    FileLocation, FormatDescriptor, FormatDirs, FormatId, FormatSet, HookCodec, NativeEvent,
    ParseContext, ParseResult, ParsedSource,
};
use hooks_trust::Surface;

use super::RuntimeConfig;

/// A format whose agent runs an event's gated hooks concurrently, or not.
#[derive(Debug)]
struct Concurrent(bool);

impl FormatDescriptor for Concurrent {
    fn id(&self) -> FormatId {
        if self.0 { FormatId::new("together") } else { FormatId::new("in-turn") }
    }
    fn agent(&self) -> &'static str {
        "Concurrent"
    }
    fn dirs(&self) -> FormatDirs {
        FormatDirs::default()
    }
    fn locations(&self) -> &[FileLocation] {
        &[]
    }
    fn parse(&self, _: &[u8], _: &ParseContext<'_>) -> ParseResult {
        Ok(ParsedSource::default())
    }
    fn events(&self) -> &[NativeEvent] {
        &[]
    }
    fn codec(&self) -> Arc<dyn HookCodec> {
        hooks_format_cursor::descriptor().codec()
    }
    fn concurrent_gated_hooks(&self) -> bool {
        self.0
    }
}

#[test]
fn formats_that_run_gated_hooks_together_are_dispatched_in_parallel() {
    let formats = FormatSet::new(vec![Arc::new(Concurrent(true)), Arc::new(Concurrent(false))]);
    let config = RuntimeConfig::with_formats(Surface::CliRun, formats);
    assert_eq!(config.dispatch.parallel_gated_formats, [FormatId::new("together")]);
    let default = RuntimeConfig::new(Surface::CliRun);
    let parallel = &default.dispatch.parallel_gated_formats;
    assert!(
        parallel
            .iter()
            .all(|f| default.formats.get(*f).is_some_and(|d| d.concurrent_gated_hooks())),
        "{parallel:?}"
    );
}
