//! The one place the formats this build reads are registered.
//!
//! Every other crate gets the formats from the [`FormatSet`] built here (the runtime hands
//! it to the sources, the watcher and the registry); adding a format to the engine is one
//! line here and one adapter crate.

use std::sync::{Arc, OnceLock};

use hooks_schema::{FormatDescriptor, FormatSet};

/// The formats the `hooks` tool and the default runtime read, in registration order (which
/// breaks ties between equally strong claims on a file and orders the names looked for in an
/// explicit folder): Cursor, Chrys, Gemini CLI, Claude Code, Codex, Copilot CLI,
/// Windsurf. Gemini CLI comes before Claude Code because both claim a `settings.json` by name; Gemini CLI claims only those in a
/// `.gemini` folder, which the tie then gives to it.
///
/// Built once per process and shared: a one-shot `hooks fire` asks for the set several times
/// (the command line's value lists, the event name, the runtime's configuration), and each
/// build made every descriptor again (`specs/dispatch.md`, "One-shot `hooks fire` and
/// `hooks bridge`").
pub fn workspace_formats() -> FormatSet {
    static SET: OnceLock<FormatSet> = OnceLock::new();
    SET.get_or_init(|| FormatSet::new(descriptors())).clone()
}

/// The descriptors [`workspace_formats`] registers, in order.
fn descriptors() -> Vec<Arc<dyn FormatDescriptor>> {
    vec![
        hooks_format_cursor::descriptor(),
        hooks_format_chrys::descriptor(),
        hooks_format_gemini::descriptor(),
        hooks_format_claude::descriptor(),
        hooks_format_codex::descriptor(),
        hooks_format_copilot::descriptor(),
        hooks_format_windsurf::descriptor(),
    ]
}

#[cfg(test)]
mod tests {
    use hooks_schema::{FormatSet, HookSourceKind};

    /// The registered formats make a set (no shared id, role name or rank), and no two of
    /// their kinds tie in precedence.
    #[test]
    fn the_registered_formats_make_a_set_whose_kinds_never_tie() {
        let set = FormatSet::try_new(super::descriptors());
        assert!(set.is_ok(), "{set:?}");
        let mut kinds: Vec<HookSourceKind> = Vec::new();
        for f in super::workspace_formats().iter() {
            for l in f.locations() {
                let kind = HookSourceKind::file(l.scope, l.role);
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        let mut priorities: Vec<u32> = kinds.iter().map(|k| k.priority()).collect();
        priorities.sort_unstable();
        priorities.dedup();
        assert_eq!(priorities.len(), kinds.len(), "{kinds:?}");
    }
}
