//! The one place the formats this build reads are registered.
//!
//! Every other crate gets the formats from the [`FormatSet`] built here (the runtime hands
//! it to the sources, the watcher and the registry); adding a format to the engine is one
//! line here and one adapter crate.

use hooks_schema::FormatSet;

/// The formats the `hooks` tool and the default runtime read, in registration order (which
/// breaks ties between equally strong claims on a file and orders the names looked for in an
/// explicit folder): Cursor, Chrys, Gemini CLI, Claude Code, Codex, Copilot CLI, Windsurf. Gemini CLI comes before
/// Claude Code because both claim a `settings.json` by name; Gemini CLI claims only those in a
/// `.gemini` folder, which the tie then gives to it.
pub fn workspace_formats() -> FormatSet {
    FormatSet::new(vec![
        hooks_format_cursor::descriptor(),
        hooks_format_chrys::descriptor(),
        hooks_format_gemini::descriptor(),
        hooks_format_claude::descriptor(),
        hooks_format_codex::descriptor(),
        hooks_format_copilot::descriptor(),
        hooks_format_windsurf::descriptor(),
    ])
}
