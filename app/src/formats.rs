//! The one place the formats this build reads are registered.
//!
//! Every other crate gets the formats from the [`FormatSet`] built here (the runtime hands
//! it to the sources, the watcher and the registry); adding a format to the engine is one
//! line here and one adapter crate.

use hooks_schema::FormatSet;

/// The formats the `hooks` tool and the default runtime read, in registration order (which
/// breaks ties between equally strong claims on a file and orders the names looked for in an
/// explicit folder): Cursor, Chrys, Claude Code, Codex.
pub fn workspace_formats() -> FormatSet {
    FormatSet::new(vec![
        hooks_format_cursor::descriptor(),
        hooks_format_chrys::descriptor(),
        hooks_format_claude::descriptor(),
        hooks_format_codex::descriptor(),
    ])
}
