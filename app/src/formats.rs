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

    /// A format that declares its hooks also run on another event (`event_rule`) must encode
    /// that event for them: the dispatcher runs them there, and a codec that still asked for
    /// the hook's own event would fail every such run (`EventMismatch`). Each registered
    /// format's own install entry makes the hook, so a format added later is checked too.
    #[test]
    fn every_format_s_codec_encodes_the_events_its_hooks_also_run_on() {
        use std::path::Path;

        use hooks_schema::{AbsPathBuf, HookSourceId, ParseContext, ToolKind, testing};
        use serde_json::{Value, json};

        let dir = Path::new("/project");
        let mut checked = 0;
        for f in super::workspace_formats().iter() {
            for &(bound, fired) in f.event_rule().also_runs_on {
                let native = f
                    .events()
                    .iter()
                    .find(|e| e.canonical == Some(bound))
                    .unwrap_or_else(|| panic!("{}: no native event for {bound:?}", f.agent()));
                let entry = f.install_entry(native, "true").unwrap_or_else(|| {
                    panic!("{}: no install entry for {}", f.agent(), native.name)
                });
                let mut doc: Value = serde_json::from_str(f.install_new_file()).expect("JSON");
                doc["hooks"] = json!({ native.name: [entry] });
                let location = f.locations().first().expect("a location");
                let kind = HookSourceKind::file(location.scope, location.role);
                let path = dir.join("hooks.json");
                let parsed = f
                    .parse(
                        &serde_json::to_vec(&doc).expect("JSON"),
                        &ParseContext::new(&path, kind),
                    )
                    .unwrap_or_else(|d| panic!("{}: {d:?}", f.agent()));
                let hook = parsed
                    .definitions
                    .iter()
                    .find(|d| d.event == bound)
                    .unwrap_or_else(|| panic!("{}: no {bound:?} hook in {doc}", f.agent()));
                let mut envelope =
                    testing::pre_tool_use("Shell", ToolKind::Shell, json!({ "command": "ls" }));
                envelope.event = fired;
                let source = HookSourceId::new(kind, AbsPathBuf::new(path.clone()).expect("path"));
                let ctx = testing::encode_context(&source, dir);
                let encoded = hook.codec.encode(hook, &envelope, &ctx);
                assert!(
                    encoded.is_ok(),
                    "{}: a {bound:?} hook fired for {fired:?}: {encoded:?}",
                    f.agent()
                );
                checked += 1;
            }
        }
        // Gemini CLI's `AfterTool` hooks run on a tool failure.
        assert!(checked >= 1, "no format declares another event");
    }

    /// A shell command that exited non-zero is a post-tool firing with its status: every
    /// format's codec encodes it for the hooks the dispatcher runs for it (the failure hooks of
    /// a format whose agent takes it for a failure, `EventRule::shell_exit_is_failure`, the post-tool
    /// hooks of the others) and refuses it for the others, so the codec and the descriptor
    /// agree. Each registered format's own install entry makes the hooks.
    #[test]
    fn every_format_s_codec_agrees_with_its_descriptor_on_a_failed_shell_exit() {
        use std::path::Path;

        use hooks_schema::{
            AbsPathBuf, HookEvent, HookSourceId, ParseContext, ToolKind, ToolResult, testing,
        };
        use serde_json::{Value, json};

        let dir = Path::new("/project");
        let mut envelope =
            testing::pre_tool_use("Shell", ToolKind::Shell, json!({ "command": "exit 3" }));
        envelope.event = HookEvent::PostToolUse;
        envelope.result = Some(ToolResult { exit_code: Some(3), ..ToolResult::default() });
        let (mut failing, mut checked) = (0, 0);
        for f in super::workspace_formats().iter() {
            let runs = |event: HookEvent| {
                if f.event_rule().shell_exit_is_failure {
                    event == HookEvent::ToolFailure
                } else {
                    event == HookEvent::PostToolUse
                        || f.event_rule().also_runs_on.contains(&(event, HookEvent::PostToolUse))
                }
            };
            failing += usize::from(f.event_rule().shell_exit_is_failure);
            for native in f.events() {
                let Some(event @ (HookEvent::PostToolUse | HookEvent::ToolFailure)) =
                    native.canonical
                else {
                    continue;
                };
                let Some(entry) = f.install_entry(native, "true") else { continue };
                let mut doc: Value = serde_json::from_str(f.install_new_file()).expect("JSON");
                doc["hooks"] = json!({ native.name: [entry] });
                let location = f.locations().first().expect("a location");
                let kind = HookSourceKind::file(location.scope, location.role);
                let path = dir.join("hooks.json");
                let Ok(parsed) = f.parse(
                    &serde_json::to_vec(&doc).expect("JSON"),
                    &ParseContext::new(&path, kind),
                ) else {
                    continue;
                };
                let Some(hook) = parsed.definitions.iter().find(|d| d.event == event) else {
                    continue;
                };
                let source = HookSourceId::new(kind, AbsPathBuf::new(path.clone()).expect("path"));
                let ctx = testing::encode_context(&source, dir);
                // A hook that does not run for it is refused; one that does is not refused
                // for its event (a codec may still refuse what the firing lacks for that
                // hook: Cursor's `afterFileEdit` needs an edited file).
                let encoded = hook.codec.encode(hook, &envelope, &ctx);
                let agrees = if runs(event) {
                    !matches!(encoded, Err(hooks_schema::EncodeError::EventMismatch { .. }))
                } else {
                    encoded.is_err()
                };
                assert!(
                    agrees,
                    "{}: a {} hook for a shell command that exited 3 (runs: {}): {encoded:?}",
                    f.agent(),
                    native.name,
                    runs(event)
                );
                checked += 1;
            }
        }
        assert_eq!(failing, 1, "Claude Code alone takes a non-zero exit for a failure");
        assert!(checked >= 6, "{checked} hooks checked");
    }
}
