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
        for kind in super::workspace_formats().source_kinds() {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let mut priorities: Vec<u32> = kinds.iter().map(|k| k.priority()).collect();
        priorities.sort_unstable();
        priorities.dedup();
        assert_eq!(priorities.len(), kinds.len(), "{kinds:?}");
    }

    /// A hook of `format`'s native event `native` running `true`, made from the format's own
    /// install entry in a file of its first location in `/project`, with the source it came
    /// from; why not, when the format cannot make or read one.
    fn installed_hook(
        f: &dyn hooks_schema::FormatDescriptor,
        native: &hooks_schema::NativeEvent,
    ) -> Result<(hooks_schema::HookDefinition, hooks_schema::HookSourceId), String> {
        use hooks_schema::{AbsPathBuf, HookSourceId, ParseContext};
        use serde_json::{Value, json};

        let entry = f
            .install_entry(native, "true")
            .ok_or_else(|| format!("{}: no install entry for {}", f.agent(), native.name))?;
        let mut doc: Value = serde_json::from_str(f.install_new_file()).expect("JSON");
        doc["hooks"] = json!({ native.name: [entry] });
        let location = f.locations().first().expect("a location");
        let kind = HookSourceKind::file(location.scope, location.role);
        let path = std::path::Path::new("/project/hooks.json");
        let parsed = f
            .parse(&serde_json::to_vec(&doc).expect("JSON"), &ParseContext::new(path, kind))
            .map_err(|d| format!("{}: {d:?}", f.agent()))?;
        let hook = parsed
            .definitions
            .into_iter()
            .find(|d| Some(d.event) == native.canonical)
            .ok_or_else(|| format!("{}: no {} hook in {doc}", f.agent(), native.name))?;
        Ok((hook, HookSourceId::new(kind, AbsPathBuf::new(path.into()).expect("path"))))
    }

    /// A format that declares its hooks also run on another event (`event_rule`) must encode
    /// that event for them: the dispatcher runs them there, and a codec that still asked for
    /// the hook's own event would fail every such run (`EventMismatch`). Each registered
    /// format's own install entry makes the hook, so a format added later is checked too.
    #[test]
    fn every_format_s_codec_encodes_the_events_its_hooks_also_run_on() {
        use hooks_schema::{ToolKind, testing};
        use serde_json::json;

        let mut checked = 0;
        for f in super::workspace_formats().iter() {
            for &(bound, fired) in f.event_rule().also_runs_on {
                let native = f
                    .events()
                    .iter()
                    .find(|e| e.canonical == Some(bound))
                    .unwrap_or_else(|| panic!("{}: no native event for {bound:?}", f.agent()));
                let (hook, source) =
                    installed_hook(f.as_ref(), native).unwrap_or_else(|why| panic!("{why}"));
                let mut envelope =
                    testing::pre_tool_use("Shell", ToolKind::Shell, json!({ "command": "ls" }));
                envelope.event = fired;
                let ctx = testing::encode_context(&source, std::path::Path::new("/project"));
                let encoded = hook.codec.encode(&hook, &envelope, &ctx);
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
    /// format's codec encodes it for the hooks its descriptor's rule runs for it
    /// (`EventRule::fires`: the failure hooks of a format whose agent takes it for a failure,
    /// the post-tool hooks of the others) and refuses it for the others, so the codec and the
    /// descriptor agree. Each registered format's own install entry makes the hooks.
    #[test]
    fn every_format_s_codec_agrees_with_its_descriptor_on_a_failed_shell_exit() {
        use hooks_schema::{HookEvent, testing};

        let envelope = testing::shell_ran("exit 3", "", 3);
        let (mut failing, mut checked) = (0, 0);
        for f in super::workspace_formats().iter() {
            let rule = f.event_rule();
            failing += usize::from(rule.shell_exit_is_failure);
            for native in f.events() {
                let Some(event @ (HookEvent::PostToolUse | HookEvent::ToolFailure)) =
                    native.canonical
                else {
                    continue;
                };
                let Ok((hook, source)) = installed_hook(f.as_ref(), native) else { continue };
                let ctx = testing::encode_context(&source, std::path::Path::new("/project"));
                // A hook that does not run for it is refused; one that does is not refused
                // for its event (a codec may still refuse what the firing lacks for that
                // hook: Cursor's `afterFileEdit` needs an edited file).
                let runs = rule.fires(event, &envelope);
                let encoded = hook.codec.encode(&hook, &envelope, &ctx);
                let agrees = if runs {
                    !matches!(encoded, Err(hooks_schema::EncodeError::EventMismatch { .. }))
                } else {
                    encoded.is_err()
                };
                assert!(
                    agrees,
                    "{}: a {} hook for a shell command that exited 3 (runs: {runs}): {encoded:?}",
                    f.agent(),
                    native.name,
                );
                checked += 1;
            }
        }
        assert_eq!(failing, 1, "Claude Code alone takes a non-zero exit for a failure");
        assert!(checked >= 6, "{checked} hooks checked");
    }
}
