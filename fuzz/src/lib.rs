//! The fuzz targets' bodies: each takes arbitrary bytes, runs one untrusted-input entry point and checks its invariants.
//!
//! Each `fuzz_targets/<name>.rs` calls the function of the same name. Keeping the bodies in
//! this library lets `src/bin/replay.rs` (a plain binary that builds on stable, without
//! libFuzzer) run a corpus folder or a crash file through the same code.

use std::{
    ffi::OsStr,
    os::unix::ffi::OsStrExt,
    path::{Path, PathBuf},
    sync::OnceLock,
    time::Duration,
};

use hooks_format_claude::ClaudeMode;
use hooks_schema::{
    CapturedOutput, Envelope, ExitInfo, HookCodec, HookDefinition, HookEvent, ParseResult,
    RawOutcome, SpawnFailure, SpawnFailureKind, ToolCall, ToolKind,
};

/// A target's body.
pub type Target = fn(&[u8]);

/// Every target, by name, for the replay binary.
pub const TARGETS: &[(&str, Target)] = &[
    ("json_dialects", json_dialects),
    ("cursor_parse", cursor_parse),
    ("chrys_parse", chrys_parse),
    ("claude_parse", claude_parse),
    ("claude_host", claude_host),
    ("cursor_host", cursor_host),
    ("gemini_parse", gemini_parse),
    ("gemini_host", gemini_host),
    ("codex_parse", codex_parse),
    ("codex_host", codex_host),
    ("copilot_parse", copilot_parse),
    ("copilot_host", copilot_host),
    ("windsurf_parse", windsurf_parse),
    ("windsurf_host", windsurf_host),
    ("decode_outcome", decode_outcome),
    ("hook_dirs", hook_dirs),
    ("git_config", git_config),
    ("ssh_config", ssh_config),
    ("serve_request", serve_request),
    ("command_analysis", command_analysis),
    ("reaper_readers", reaper_readers),
];

/// A parse result is either definitions or at least one diagnostic saying why not.
fn check_parse(result: &ParseResult, what: &str) {
    if let Err(diags) = result {
        assert!(!diags.is_empty(), "{what}: a failed parse carries a diagnostic");
    }
}

/// `hooks_json::parse_as` in every dialect on the bytes read as text: never a panic, and
/// every position is inside the text, after the one before it in document order.
pub fn json_dialects(data: &[u8]) {
    use hooks_json::{Dialect, Kind, Node};
    fn walk(node: &Node, text: &str, last: &mut (u32, u32)) {
        let at = (node.line, node.column);
        assert!(at > *last, "json: {at:?} comes after {last:?}");
        assert!(node.start < node.end && node.end <= text.len(), "json: a value's bytes");
        *last = at;
        match &node.kind {
            Kind::Array(items) => items.iter().for_each(|n| walk(n, text, last)),
            Kind::Object(members) => {
                for m in members {
                    assert!((m.line, m.column) > *last, "json: a key after what precedes it");
                    *last = (m.line, m.column);
                    walk(&m.value, text, last);
                }
            }
            _ => {}
        }
    }
    let text = String::from_utf8_lossy(data);
    let lines = u32::try_from(text.split('\n').count()).unwrap_or(u32::MAX);
    for dialect in [Dialect::Strict, Dialect::SerdeJson, Dialect::JsonParseAfterStripComments] {
        match hooks_json::parse_as(&text, dialect) {
            Ok(root) => walk(&root, &text, &mut (1, 0)),
            Err(e) => assert!(e.line >= 1 && e.line <= lines && e.column >= 1, "json: {e:?}"),
        }
    }
    match hooks_json::python_loads(&text) {
        Ok(root) => walk(&root, &text, &mut (1, 0)),
        Err(e) => {
            let (line, column) = e.position();
            assert!(line >= 1 && line <= lines && column >= 1, "json (python): {e:?}");
        }
    }
}

/// `hooks_format_cursor::parse` on `.cursor/hooks.json` bytes.
pub fn cursor_parse(data: &[u8]) {
    let result = hooks_format_cursor::parse(data, Path::new("/repo/.cursor/hooks.json"));
    check_parse(&result, "cursor");
    if data.len() > hooks_format_cursor::MAX_FILE_BYTES {
        assert!(result.is_err(), "cursor: a file above the cap is refused");
    }
}

/// `hooks_format_chrys::parse` on a hooks file; the first byte picks `.yaml` or `.json`.
pub fn chrys_parse(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let name = if first % 2 == 0 { "hooks.yaml" } else { "hooks.json" };
    let path = PathBuf::from("/repo/.chrys/hooks").join(name);
    let result = hooks_format_chrys::parse(rest, &path);
    check_parse(&result, "chrys");
    if rest.len() > hooks_format_chrys::MAX_FILE_BYTES {
        assert!(result.is_err(), "chrys: a file above the cap is refused");
    }
}

/// `hooks_format_claude::parse`; the first byte picks the default or the strict mode, or a
/// subagent's or a skill's front matter (`parse_front_matter`): a subagent Claude Code loads
/// is picked as its name (settings' `agent`) with its definitions enabled, every other front
/// matter's definitions are disabled, and a front matter carries no other policy.
pub fn claude_parse(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let result = match first % 6 {
        0 => hooks_format_claude::parse(
            rest,
            Path::new("/repo/.claude/settings.json"),
            ClaudeMode::Default,
        ),
        4 => {
            // A plugin's hook file, its manifest, a marketplace's manifest, or a file a
            // manifest names (read with the plugin's folder as its base): `first / 6` picks.
            let (path, base) = [
                ("/m/p/hooks/hooks.json", None),
                ("/m/p/.claude-plugin/plugin.json", None),
                ("/m/.claude-plugin/marketplace.json", None),
                ("/m/p/a/b/gate.json", Some(Path::new("/m/p"))),
            ][usize::from(first / 6) % 4];
            let r = hooks_format_claude::parse_plugin_hooks(rest, Path::new(path), base);
            if let Ok(parsed) = &r {
                assert!(
                    parsed.definitions.iter().all(|d| !d.enabled),
                    "claude: a plugin's hooks never run through the engine"
                );
                assert!(parsed.policy.is_empty(), "claude: a plugin's hook file carries no policy");
                let ids: std::collections::BTreeSet<&str> =
                    parsed.definitions.iter().map(|d| d.id.as_str()).collect();
                assert_eq!(
                    ids.len(),
                    parsed.definitions.len(),
                    "claude: a plugin's hooks are named once"
                );
            }
            r
        }
        5 => {
            for step in [
                hooks_format_claude::MARKETPLACES,
                hooks_format_claude::MARKETPLACE,
                hooks_format_claude::PLUGIN,
                hooks_format_claude::INSTALLED,
            ] {
                for f in hooks_format_claude::follow(step, rest) {
                    assert!(!f.folder.is_empty(), "claude: a followed folder is named");
                    assert!(
                        step == hooks_format_claude::PLUGIN || !f.parts.is_empty(),
                        "claude: a followed folder says what decides what runs in it"
                    );
                }
            }
            return;
        }
        1 => hooks_format_claude::parse(
            rest,
            Path::new("/repo/.claude/settings.json"),
            ClaudeMode::Strict,
        ),
        n => {
            let (path, of) = if n == 2 {
                ("/repo/.claude/agents/x.md", hooks_format_claude::FrontMatterOf::Subagent)
            } else {
                ("/repo/.claude/skills/x/SKILL.md", hooks_format_claude::FrontMatterOf::Skill)
            };
            let r = hooks_format_claude::parse_front_matter(rest, Path::new(path), of);
            if let Ok(parsed) = &r {
                let picked = parsed.policy.picked_as.as_ref();
                assert!(
                    picked.is_none_or(|p| p.key == "agent" && !p.name.is_empty()),
                    "claude: a subagent is picked as its name by `agent`"
                );
                assert!(n == 2 || picked.is_none(), "claude: only a subagent is picked as a name");
                assert!(
                    parsed.definitions.iter().all(|d| d.enabled == picked.is_some()),
                    "claude: front matter hooks run only when picked"
                );
                let rest_of_policy =
                    hooks_schema::SourcePolicy { picked_as: None, ..parsed.policy.clone() };
                assert!(rest_of_policy.is_empty(), "claude: front matter carries no other policy");
            }
            r
        }
    };
    check_parse(&result, "claude");
    if rest.len() > hooks_format_claude::MAX_DOCUMENT_BYTES {
        assert!(result.is_err(), "claude: a document above the cap is refused");
    }
}

/// `hooks_format_codex::parse`; the first byte picks the file: a project `hooks.json`, a user
/// `config.toml` or the managed `requirements.toml`.
pub fn codex_parse(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    if first % 5 == 4 {
        // A plugin's manifest: what it names is relative to the plugin's own folder.
        for f in hooks_format_codex::follow(hooks_format_codex::PLUGIN_MANIFEST_STEP, rest) {
            assert_eq!(f.folder, ".", "codex: a manifest names files of its plugin");
            assert!(!f.hooks.is_empty() && f.next.is_empty(), "codex: a manifest names hook files");
        }
        // `config.toml` as the plugins' index: every folder two plain names under the cache.
        for f in hooks_format_codex::follow(hooks_format_codex::PLUGINS_CONFIG, rest) {
            let names = f.folder.strip_prefix("plugins/cache/").map(|r| r.split('/').count());
            assert_eq!(
                names,
                Some(2),
                "codex: a plugin's folder is its marketplace's and its name"
            );
            assert!(!f.folder.contains(".."), "codex: a plugin's folder stays in the cache");
        }
        return;
    }
    let (path, kind) = match first % 5 {
        0 => ("/repo/.codex/hooks.json", hooks_format_codex::PROJECT_HOOKS),
        1 => ("/home/u/.codex/config.toml", hooks_format_codex::USER_CONFIG),
        3 => {
            // Its hook file, its manifest, or a file its manifest names (with a base):
            // `first / 5` picks.
            let root = Path::new("/home/u/.codex/plugins/cache/m/p/1.0.0");
            let (path, base) = [
                (root.join(hooks_format_codex::PLUGIN_HOOKS), None),
                (root.join(hooks_format_codex::PLUGIN_MANIFEST), None),
                (root.join("a/b/gate.json"), Some(root)),
            ][usize::from(first / 5) % 3]
                .clone();
            let kind = hooks_schema::HookSourceKind::file(
                hooks_schema::FileScope::User,
                hooks_format_codex::PLUGINS,
            );
            let r = hooks_format_codex::parse_plugin_hooks(rest, &path, kind, base);
            if let Ok(parsed) = &r {
                assert!(
                    parsed.definitions.iter().all(|d| !d.enabled),
                    "codex: a plugin's hooks never run through the engine"
                );
            }
            check_parse(&r, "codex");
            return;
        }
        _ => ("/etc/codex/requirements.toml", hooks_format_codex::MANAGED_REQUIREMENTS),
    };
    let result = hooks_format_codex::parse(rest, Path::new(path), kind);
    check_parse(&result, "codex");
    if rest.len() > hooks_format_codex::MAX_DOCUMENT_BYTES {
        assert!(result.is_err(), "codex: a document above the cap is refused");
    }
    if let Ok(parsed) = &result {
        for d in &parsed.definitions {
            assert!(d.timeout.as_secs() >= 1, "codex: every timeout is at least a second");
        }
    }
}

/// The files a decoded pre-tool call writes, as the bridge's guard reads them
/// (`hooks_schema::edited_paths_from_args`: file tools, patches, MCP tools): never a panic,
/// and each a piece of the input (no path is made up).
fn check_edited_paths(input: &hooks_schema::HostInput) {
    let Some(paths) = hooks_schema::edited_paths_from_args(&input.envelope) else { return };
    let args = input.envelope.tool.as_ref().map(|t| t.args.to_string()).unwrap_or_default();
    for p in paths {
        let escaped = serde_json::Value::String(p.clone()).to_string();
        let inner = escaped.get(1..escaped.len().saturating_sub(1)).unwrap_or("");
        assert!(args.contains(inner), "edited paths: {p:?} is not in the call's arguments");
    }
}

/// The Claude Code host codec: `decode_input` on arbitrary bytes (the first byte picks an
/// event named on the command line, or none), then the answer to a deny, which must exit 0
/// with one JSON object or nothing on stdout. A decoded shell command's non-zero exit comes
/// from a `PostToolUseFailure` only, and Claude Code's own input for it is rebuilt with the
/// status first in its `error`, as Claude Code words it.
pub fn claude_host(data: &[u8]) {
    use hooks_format_claude::{ClaudeHost, NativeEvent};
    use hooks_schema::{AbsPathBuf, EncodeContext, HookSourceId};
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let arg = NativeEvent::ALL.get(usize::from(first) % 16).map(|e| e.as_str());
    let Some((input, answer)) = host_deny(&ClaudeHost, rest, arg) else { return };
    assert_json_answer(&answer, true, "claude host");
    if let Some(code) = input.envelope.failed_shell_exit() {
        assert_eq!(input.native_event, "PostToolUseFailure", "claude host: a failed exit");
        let source = HookSourceId::new(
            hooks_format_claude::PROJECT_SETTINGS,
            AbsPathBuf::new(PathBuf::from("/repo/.claude/settings.json")).expect("absolute"),
        );
        let ctx = EncodeContext {
            source: &source,
            working_dir: Path::new("/repo"),
            project_dir: None,
            config_dir: None,
            user_shell: None,
            agent_version: None,
            session_env: &[],
        };
        let p =
            hooks_format_claude::payload(NativeEvent::PostToolUseFailure, &input.envelope, &ctx)
                .expect("claude host: a decoded failure encodes");
        let error = p["error"].as_str().unwrap_or_default();
        assert!(
            error.starts_with(&format!("Exit code {code}")),
            "claude host: the status leads the error: {error:?}"
        );
    }
}

/// The Cursor host codec: `decode_input` on arbitrary bytes (the first byte picks one of the
/// format's native events named on the command line, or none), then the answer to a deny,
/// which must exit 0 with one JSON object on stdout.
pub fn cursor_host(data: &[u8]) {
    static EVENTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    let events = EVENTS.get_or_init(|| {
        hooks_format_cursor::descriptor().events().iter().map(|e| e.name).collect()
    });
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let arg = events.get(usize::from(first) % (events.len() + 2)).copied();
    let Some((_, answer)) = host_deny(&hooks_format_cursor::CursorHost, rest, arg) else { return };
    assert_json_answer(&answer, false, "cursor host");
}

/// The round every host target makes: `decode_input` of `input` with `arg` named on the
/// command line, the files the guard would read checked against the call, then the answer
/// to a deny whose reason is the input itself. `None` when the input does not decode.
fn host_deny(
    host: &dyn hooks_schema::HostCodec,
    input: &[u8],
    arg: Option<&str>,
) -> Option<(hooks_schema::HostInput, hooks_schema::HostAnswer)> {
    use hooks_schema::{Decision, FoldedVerdict};
    let decoded = host.decode_input(input, arg).ok()?;
    check_edited_paths(&decoded);
    let verdict = FoldedVerdict {
        decision: Some(Decision::Deny),
        reason: Some(String::from_utf8_lossy(input).into_owned()),
        ..FoldedVerdict::default()
    };
    let answer = host.encode_answer(&decoded, &verdict);
    Some((decoded, answer))
}

/// An answer that exits 0 with one JSON object on stdout, or nothing when `may_be_empty`.
fn assert_json_answer(answer: &hooks_schema::HostAnswer, may_be_empty: bool, what: &str) {
    assert_eq!(answer.exit_code, 0, "{what}: always exit 0");
    if may_be_empty && answer.stdout.is_empty() {
        return;
    }
    let v: serde_json::Value = serde_json::from_slice(&answer.stdout)
        .unwrap_or_else(|e| panic!("{what}: JSON answer: {e}"));
    assert!(v.is_object(), "{what}: one object");
}

/// `hooks_format_codex::decode_input` on Codex hook input, then every answer it can give:
/// a deny always carries a non-empty reason and the answer always exits 0.
pub fn codex_host(data: &[u8]) {
    use hooks_schema::{Decision, FoldedVerdict};
    let Ok(input) = hooks_format_codex::decode_input(data, None) else { return };
    check_edited_paths(&input);
    let native = hooks_format_codex::CodexEvent::from_name(&input.native_event)
        .expect("codex: a decoded event is a Codex event");
    for decision in [None, Some(Decision::Allow), Some(Decision::Ask), Some(Decision::Deny)] {
        let verdict = FoldedVerdict { decision, ..FoldedVerdict::default() };
        let answer = hooks_format_codex::encode_answer(native, &verdict);
        assert_eq!(answer.exit_code, 0, "codex: the bridge always exits 0");
        if !answer.stdout.is_empty() {
            let v: serde_json::Value =
                serde_json::from_slice(&answer.stdout).expect("codex: the answer is JSON");
            assert!(v.is_object(), "codex: the answer is one object");
        }
    }
}

/// `hooks_format_gemini::parse` on arbitrary bytes; every definition's matcher is then tried
/// on an envelope whose tool name comes from the input, so arbitrary JavaScript patterns meet
/// arbitrary names; and `parse_extension_hooks` on the same bytes (an extension's hook file:
/// the same hooks, every one disabled, its variables replaced).
pub fn gemini_parse(data: &[u8]) {
    let result = hooks_format_gemini::parse(data, Path::new("/repo/.gemini/settings.json"));
    check_parse(&result, "gemini");
    if data.len() > hooks_format_gemini::MAX_DOCUMENT_BYTES {
        assert!(result.is_err(), "gemini: a document above the cap is refused");
    }
    let Ok(parsed) = result else { return };
    let name =
        String::from_utf8_lossy(data.get(..64.min(data.len())).unwrap_or_default()).into_owned();
    for d in &parsed.definitions {
        assert!(d.line.is_some() && d.column.is_some(), "gemini: a definition has a position");
        let mut e = envelope_for(d.event);
        if let Some(t) = e.tool.as_mut() {
            t.name.clone_from(&name);
            t.kind = ToolKind::Other;
        }
        let _ = d.matcher.matches(&e);
    }
    // The same bytes as an extension's hook file: the same definitions, every one disabled.
    let path = Path::new("/home/u/.gemini/extensions/x/hooks/hooks.json");
    let extension = hooks_format_gemini::parse_extension_hooks(data, path);
    let extension = extension.expect("gemini: an extension's hook file parses as settings do");
    assert_eq!(extension.definitions.len(), parsed.definitions.len(), "gemini: same hooks");
    assert!(extension.definitions.iter().all(|d| !d.enabled), "gemini: extension hooks never run");
    // And as an extension's install file: where strict JSON reads it too, a linked folder is
    // the last `source` string of an object whose last `type` is `link`, and nothing else.
    let linked = {
        use hooks_schema::FormatDescriptor as _;
        hooks_format_gemini::GeminiFormat.linked_folder(hooks_format_gemini::EXTENSIONS, data)
    };
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&String::from_utf8_lossy(data)) {
        let expected = (v["type"] == "link").then(|| v["source"].as_str().map(str::to_owned));
        assert_eq!(linked, expected.flatten(), "gemini: the linked folder is the file's source");
    }
}

/// The Gemini CLI host codec: `decode_input` on arbitrary bytes (the first byte picks an
/// event named on the command line, or none), then `encode_answer` of a deny, which must be
/// one JSON object on stdout with exit code 0.
pub fn gemini_host(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let arg =
        hooks_format_gemini::GeminiEvent::ALL.get(usize::from(first) % 12).map(|e| e.as_str());
    let Some((_, answer)) = host_deny(&hooks_format_gemini::GeminiHost, rest, arg) else { return };
    assert_json_answer(&answer, true, "gemini host");
}

/// `hooks_format_copilot::parse_as` on arbitrary bytes; the first byte picks a hook file or a
/// settings file. Every definition's matcher is then tried on a tool name taken from the
/// input.
pub fn copilot_parse(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    if first % 4 == 2 {
        // A plugin's hook file, its manifest, or a file its manifest names (with the plugin's
        // folder as its base), `first / 4` picks: every hook disabled, run in the plugin's
        // folder.
        let (path, base) = [
            ("/m/p/hooks/hooks.json", None),
            ("/m/p/plugin.json", None),
            ("/m/p/.github/plugin/plugin.json", None),
            ("/m/p/a/b/gate.json", Some(Path::new("/m/p"))),
        ][usize::from(first / 4) % 4];
        if let Ok(parsed) = hooks_format_copilot::parse_plugin_hooks(rest, Path::new(path), base) {
            assert!(
                parsed.definitions.iter().all(|d| !d.enabled && d.cwd.is_some()),
                "copilot: a plugin's hooks never run through the engine, and run in its folder"
            );
        }
        return;
    }
    if first % 4 == 3 {
        for step in [
            hooks_format_copilot::SETTINGS,
            hooks_format_copilot::CONFIG,
            hooks_format_copilot::MARKETPLACE,
            hooks_format_copilot::PLUGIN,
        ] {
            for f in hooks_format_copilot::follow(step, rest) {
                assert!(!f.folder.is_empty(), "copilot: a followed folder is named");
            }
        }
        return;
    }
    let (path, kind) = if first % 2 == 0 {
        ("/repo/.github/hooks/a.json", hooks_format_copilot::DocumentKind::HookFile)
    } else {
        ("/repo/.github/copilot/settings.json", hooks_format_copilot::DocumentKind::Settings)
    };
    let result = hooks_format_copilot::parse_as(rest, Path::new(path), kind);
    check_parse(&result, "copilot");
    if rest.len() > hooks_format_copilot::MAX_DOCUMENT_BYTES {
        assert!(result.is_err(), "copilot: a document above the cap is refused");
    }
    let Ok(parsed) = result else { return };
    let name =
        String::from_utf8_lossy(rest.get(..64.min(rest.len())).unwrap_or_default()).into_owned();
    for d in &parsed.definitions {
        assert!(d.line.is_some() && d.column.is_some(), "copilot: a definition has a position");
        let mut e = envelope_for(d.event);
        if let Some(t) = e.tool.as_mut() {
            t.name.clone_from(&name);
            t.kind = ToolKind::Other;
        }
        let _ = d.matcher.matches(&e);
    }
}

/// The Copilot CLI host codec: `decode_input` on arbitrary bytes (the first byte picks the
/// event named on the command line, in either spelling, or none), then `encode_answer` of a
/// deny, which must be one JSON object on stdout with exit code 0.
pub fn copilot_host(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let all = hooks_format_copilot::CopilotEvent::ALL;
    let arg = all.get(usize::from(first >> 1) % (all.len() + 1)).map(|e| {
        if first % 2 == 0 { e.camel() } else { e.name(hooks_format_copilot::Dialect::Pascal) }
    });
    let Some((_, answer)) = host_deny(&hooks_format_copilot::CopilotHost, rest, arg) else {
        return;
    };
    assert_json_answer(&answer, true, "copilot host");
}

/// `hooks_format_windsurf::parse` on arbitrary bytes.
pub fn windsurf_parse(data: &[u8]) {
    let result = hooks_format_windsurf::parse(data, Path::new("/repo/.windsurf/hooks.json"));
    check_parse(&result, "windsurf");
    if data.len() > hooks_format_windsurf::MAX_DOCUMENT_BYTES {
        assert!(result.is_err(), "windsurf: a document above the cap is refused");
    }
    let Ok(parsed) = result else { return };
    for d in &parsed.definitions {
        assert!(d.line.is_some() && d.column.is_some(), "windsurf: a definition has a position");
        let _ = d.matcher.matches(&envelope_for(d.event));
    }
}

/// The Windsurf host codec: `decode_input` on arbitrary bytes, then `encode_answer` of a
/// deny: exit 2 with the reason on stderr, or exit 0, and never anything on stdout.
pub fn windsurf_host(data: &[u8]) {
    let Some((_, answer)) = host_deny(&hooks_format_windsurf::WindsurfHost, data, None) else {
        return;
    };
    assert!(answer.exit_code == 0 || answer.exit_code == 2, "windsurf host: exit 0 or 2");
    assert!(answer.stdout.is_empty(), "windsurf host: nothing on stdout");
}

/// A codec and the definitions its decode is exercised with.
struct Subject {
    codec: Box<dyn HookCodec>,
    hooks: Vec<HookDefinition>,
}

const CURSOR_FILE: &str = r#"{"version": 1, "hooks": {
  "beforeShellExecution": [{"command": "./a.sh"}],
  "beforeMCPExecution": [{"command": "./a.sh", "failClosed": true}],
  "preToolUse": [{"command": "./a.sh", "matcher": "Write"}],
  "postToolUse": [{"command": "./a.sh"}],
  "beforeSubmitPrompt": [{"command": "./a.sh"}],
  "beforeReadFile": [{"command": "./a.sh"}],
  "afterFileEdit": [{"command": "./a.sh"}],
  "sessionStart": [{"command": "./a.sh"}],
  "stop": [{"command": "./a.sh", "loop_limit": 2}],
  "subagentStop": [{"command": "./a.sh"}],
  "preCompact": [{"command": "./a.sh"}]
}}"#;

const CLAUDE_FILE: &str = r#"{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"},
    {"type": "http", "url": "http://127.0.0.1:9/h"}]}],
  "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "a"}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "a"},
    {"type": "http", "url": "http://127.0.0.1:9/u"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "a"}]}],
  "SubagentStop": [{"hooks": [{"type": "command", "command": "a"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "a"}]}],
  "PermissionRequest": [{"hooks": [{"type": "command", "command": "a"}]}],
  "Notification": [{"hooks": [{"type": "command", "command": "a"}]}]
}}"#;

const CLAUDE_STRICT_FILE: &str = r#"{"hooks": {"version": 1,
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"},
    {"type": "http", "url": "http://127.0.0.1:9/h"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "a"}]}]
}}"#;

const GEMINI_FILE: &str = r#"{"hooks": {
  "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "a"}]}],
  "AfterTool": [{"hooks": [{"type": "command", "command": "a"}]}],
  "BeforeAgent": [{"hooks": [{"type": "command", "command": "a"}]}],
  "AfterAgent": [{"hooks": [{"type": "command", "command": "a"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "a"}]}],
  "PreCompress": [{"hooks": [{"type": "command", "command": "a"}]}],
  "Notification": [{"hooks": [{"type": "command", "command": "a"}]}]
}}"#;

const COPILOT_FILE: &str = r#"{"version": 1, "hooks": {
  "preToolUse": [{"bash": "a", "matcher": "bash"}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}],
  "permissionRequest": [{"bash": "a"}],
  "postToolUse": [{"bash": "a"}],
  "postToolUseFailure": [{"bash": "a"}],
  "agentStop": [{"bash": "a"}],
  "Stop": [{"command": "a"}],
  "sessionStart": [{"bash": "a"}],
  "userPromptSubmitted": [{"bash": "a"}]
}}"#;

/// Every Codex event and field, the format crate's own fixture.
const CODEX_FILE: &str =
    include_str!("../../crates/hooks-format-codex/test_data/parse/project/valid.json");

/// Every Windsurf event, the format crate's own fixture.
const WINDSURF_FILE: &str =
    include_str!("../../crates/hooks-format-windsurf/test_data/files/all-events.json");

const CHRYS_FILE: &str = r#"hooks:
  - id: pre
    event: before_tool_call
    run: {type: shell, shell: "true"}
    execution: {mode: blocking}
  - id: pre-closed
    event: before_tool_call
    run: {type: shell, shell: "true"}
    execution: {mode: blocking, on_error: block}
  - id: post
    event: after_tool_call
    run: {type: shell, shell: "true"}
    execution: {mode: blocking}
  - id: prompt
    event: user_prompt_submit
    run: {type: shell, shell: "true"}
    execution: {mode: blocking}
  - id: start
    event: session_start
    run: {type: shell, shell: "true"}
  - id: turn-end
    event: after_turn
    run: {type: shell, shell: "true"}
"#;

fn definitions(result: ParseResult, what: &str) -> Vec<HookDefinition> {
    match result {
        Ok(parsed) if !parsed.definitions.is_empty() => parsed.definitions,
        other => panic!("{what}: the fixed fixture must parse: {other:?}"),
    }
}

fn subjects() -> &'static [Subject] {
    static SUBJECTS: OnceLock<Vec<Subject>> = OnceLock::new();
    SUBJECTS.get_or_init(|| {
        let cursor = definitions(
            hooks_format_cursor::parse(CURSOR_FILE.as_bytes(), Path::new("/r/.cursor/hooks.json")),
            "cursor",
        );
        let claude = definitions(
            hooks_format_claude::parse(
                CLAUDE_FILE.as_bytes(),
                Path::new("/r/.claude/settings.json"),
                ClaudeMode::Default,
            ),
            "claude",
        );
        let strict = definitions(
            hooks_format_claude::parse(
                CLAUDE_STRICT_FILE.as_bytes(),
                Path::new("/r/.claude/settings.json"),
                ClaudeMode::Strict,
            ),
            "claude strict",
        );
        let chrys = definitions(
            hooks_format_chrys::parse(
                CHRYS_FILE.as_bytes(),
                Path::new("/r/.chrys/hooks/hooks.yaml"),
            ),
            "chrys",
        );
        let gemini = definitions(
            hooks_format_gemini::parse(
                GEMINI_FILE.as_bytes(),
                Path::new("/r/.gemini/settings.json"),
            ),
            "gemini",
        );
        let copilot = definitions(
            hooks_format_copilot::parse(
                COPILOT_FILE.as_bytes(),
                Path::new("/r/.github/hooks/a.json"),
            ),
            "copilot",
        );
        let codex = definitions(
            hooks_format_codex::parse(
                CODEX_FILE.as_bytes(),
                Path::new("/r/.codex/hooks.json"),
                hooks_format_codex::PROJECT_HOOKS,
            ),
            "codex",
        );
        let windsurf = definitions(
            hooks_format_windsurf::parse(
                WINDSURF_FILE.as_bytes(),
                Path::new("/r/.windsurf/hooks.json"),
            ),
            "windsurf",
        );
        vec![
            Subject { codec: Box::new(hooks_format_cursor::CursorCodec), hooks: cursor },
            Subject { codec: Box::new(hooks_format_copilot::CopilotCodec), hooks: copilot },
            Subject { codec: Box::new(hooks_format_gemini::GeminiCodec), hooks: gemini },
            Subject { codec: Box::new(hooks_format_claude::ClaudeCodec), hooks: claude.clone() },
            Subject { codec: Box::new(hooks_format_claude::ClaudeCodec), hooks: strict },
            Subject {
                codec: Box::new(hooks_format_claude::FailClosedCodec::new("fuzz violation")),
                hooks: claude,
            },
            Subject { codec: Box::new(hooks_format_chrys::ChrysCodec), hooks: chrys },
            Subject { codec: Box::new(hooks_format_codex::CodexCodec), hooks: codex },
            Subject { codec: Box::new(hooks_format_windsurf::WindsurfCodec), hooks: windsurf },
        ]
    })
}

fn envelope_for(event: HookEvent) -> Envelope {
    let mut e = Envelope::new(event);
    e.cwd = Some(PathBuf::from("/r"));
    e.tool = Some(ToolCall {
        name: "run_shell_command".into(),
        kind: ToolKind::Shell,
        native_kind: None,
        call_id: Some("c1".into()),
        mcp_server: None,
        args: serde_json::json!({"command": "ls", "path": "/tmp/x"}),
    });
    e
}

/// Splits `data` at the first `0xFF 0xFE` pair (the pair itself dropped).
fn split_field(data: &[u8]) -> (&[u8], &[u8]) {
    match data.windows(2).position(|w| w == [0xFF, 0xFE]) {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &[]),
    }
}

/// Each codec's `decode` on an arbitrary outcome.
///
/// Layout: byte 0 picks the codec, byte 1 the definition, byte 2 how the process ended
/// (exit code, signal, never started, HTTP status, timed out), byte 3 whether a result file exists and
/// whether outputs are marked truncated; the rest is stdout, stderr and the result file,
/// separated by `FF FE`.
pub fn decode_outcome(data: &[u8]) {
    let [a, b, c, d, rest @ ..] = data else { return };
    let subjects = subjects();
    let subject = &subjects[usize::from(*a) % subjects.len()];
    let hook = &subject.hooks[usize::from(*b) % subject.hooks.len()];
    let (stdout, rest) = split_field(rest);
    let (stderr, result) = split_field(rest);
    let exit = match c % 8 {
        // An HTTP hook's answer: 2xx mostly, else any status.
        0 if c & 8 != 0 => ExitInfo::Responded(if c & 16 != 0 { 200 } else { 100 + u16::from(*c) }),
        0..=3 => ExitInfo::Exited(i32::from(*c >> 3) - 2),
        4 | 5 => ExitInfo::Signaled(i32::from(*c >> 3)),
        6 => ExitInfo::NotStarted(SpawnFailure {
            kind: SpawnFailureKind::ProgramNotFound,
            message: String::from_utf8_lossy(stderr).into_owned(),
        }),
        _ => ExitInfo::Exited(0),
    };
    let truncated = d & 2 != 0;
    let captured = |bytes: &[u8]| CapturedOutput {
        bytes: bytes.to_vec(),
        total_len: bytes.len() as u64 + if truncated { 1 << 20 } else { 0 },
        truncated,
    };
    let outcome = RawOutcome {
        exit,
        timed_out: c % 8 == 7,
        stdout: captured(stdout),
        stderr: captured(stderr),
        result_file: (d & 1 != 0).then(|| captured(result)),
        duration: Duration::from_millis(u64::from(*d)),
    };
    let envelope = envelope_for(hook.event);
    let verdict = subject.codec.decode(hook, &envelope, &outcome);
    // a verdict is plain data: printing it must not panic either
    let _ = format!("{verdict:?}");
}

/// `hooks_sources::parse_hook_dirs_value` on an arbitrary (non-UTF-8 allowed) value.
pub fn hook_dirs(data: &[u8]) {
    let base = Path::new("/base");
    let home = Path::new("/home/u");
    let dirs = hook_dirs_checked(data, Some(home), base);
    let without_home = hook_dirs_checked(data, None, base);
    assert_eq!(dirs.len(), without_home.len(), "the home never changes the entry count");
}

fn hook_dirs_checked(data: &[u8], home: Option<&Path>, base: &Path) -> Vec<PathBuf> {
    let dirs = hooks_sources::parse_hook_dirs_value(OsStr::from_bytes(data), home, base);
    let entries = data.split(|b| *b == b',').filter(|e| !e.trim_ascii().is_empty()).count();
    assert_eq!(dirs.len(), entries, "one directory per non-blank entry");
    for dir in &dirs {
        assert!(dir.is_absolute(), "{dir:?} is absolute");
        assert!(!dir.as_os_str().as_bytes().contains(&b','), "{dir:?} holds no separator");
    }
    dirs
}

/// `text` written inside a git configuration value's double quotes, escaped as git reads it
/// back.
fn git_quoted(text: &str) -> String {
    let mut quoted = String::new();
    for c in text.chars() {
        match c {
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\u{8}' => quoted.push_str("\\b"),
            c => quoted.push(c),
        }
    }
    quoted
}

/// The reading of a git configuration file's includes on arbitrary text (lossy UTF-8): every
/// path read is non-empty and no longer than the text, and each one, written back quoted in
/// an `[include]` section, reads back as itself; the same for its commands, and for the text
/// as `GIT_CONFIG_PARAMETERS`, as a git hook manager's configuration and as a hook script,
/// as a recipe file and as a linter's or formatter's configuration.
pub fn git_config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let paths = hooks_registry::fuzzing::git_include_paths(&text);
    for path in &paths {
        assert!(!path.is_empty(), "an empty path is no include");
        assert!(path.chars().count() <= text.chars().count(), "{path:?} is longer than the text");
        let written = format!("[include]\n\tpath = \"{}\"\n", git_quoted(path));
        let read = hooks_registry::fuzzing::git_include_paths(&written);
        assert_eq!(read, [path.clone()], "{written:?}");
    }
    // The commands it has git run (F60): each has something to run, and, written back
    // quoted under a filter's `clean`, reads back as itself.
    for command in hooks_registry::fuzzing::git_commands(&text) {
        assert!(!command.trim().is_empty(), "an empty command runs nothing");
        assert!(command.chars().count() <= text.chars().count(), "{command:?} is too long");
        let written = format!("[filter \"f\"]\n\tclean = \"{}\"\n", git_quoted(&command));
        let read = hooks_registry::fuzzing::git_commands(&written);
        assert_eq!(read, [command.clone()], "{written:?}");
    }
    // The same text as a `GIT_CONFIG_PARAMETERS` value (F62): every entry has a name, and the
    // entries, written back as git writes them, read back as themselves.
    let entries = hooks_registry::git_config_parameters(&text);
    assert!(entries.iter().all(|(name, _)| !name.is_empty()), "{entries:?}");
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''").replace('!', "'\\!'"));
    let written: Vec<String> =
        entries.iter().map(|(n, v)| format!("{}={}", quote(n), quote(v))).collect();
    let read = hooks_registry::git_config_parameters(&written.join(" "));
    assert_eq!(read, entries, "{written:?}");
    // The same text as a git hook manager's configuration in each syntax and as a hook script
    // (F65): every command, written back as a JSON `run`, reads back as itself; every
    // pre-commit configuration named is a name.
    for syntax in 0..3 {
        for command in hooks_registry::fuzzing::hook_manager_commands(&text, syntax) {
            let written = format!("{{\"run\": {}}}", serde_json::Value::String(command.clone()));
            let read = hooks_registry::fuzzing::hook_manager_commands(&written, 1);
            assert_eq!(read, [command.clone()], "{written:?}");
        }
    }
    // As husky 4's and yorkie's configuration: every command, written back under
    // `husky.hooks` in a `package.json`, reads back as itself.
    for package_json in [true, false] {
        for command in hooks_registry::fuzzing::hook_manager_package_commands(&text, package_json) {
            let hooks = serde_json::json!({ "husky": { "hooks": { "pre-commit": command } } });
            let read =
                hooks_registry::fuzzing::hook_manager_package_commands(&hooks.to_string(), true);
            assert_eq!(read, [command.clone()], "{hooks}");
        }
    }
    let configs = hooks_registry::fuzzing::hook_script_configs(&text);
    assert!(configs.iter().all(|c| !c.is_empty()), "{configs:?}");
    // As pip's requirements and configuration files (F109, F113): at most 256 lines each,
    // every one pip's own line whose words, unquoted, are pieces of the text; every file a
    // requirements file includes named by a piece of it.
    let (requirements, nested, config) = hooks_registry::fuzzing::pip_lines(&text);
    for lines in [&requirements, &config] {
        assert!(lines.len() <= 256, "{} lines", lines.len());
        for line in lines {
            let words = line.strip_prefix("pip install ").expect("pip's own line");
            for word in words.split(' ') {
                let Some(quoted) = word.strip_prefix('\'').and_then(|w| w.strip_suffix('\''))
                else {
                    // A configuration's option, as pip's flag.
                    assert!(["-r", "-c", "-e", "--find-links"].contains(&word), "{line:?}");
                    continue;
                };
                let word = quoted.replace("'\\''", "'");
                assert!(!word.is_empty() && text.contains(&word), "{word:?} of {line:?}");
            }
        }
    }
    assert!(nested.iter().all(|n| !n.is_empty() && text.contains(n.as_str())), "{nested:?}");
    // As cargo's configuration (F116): an alias's words, when it has any, are none empty.
    for name in ["xtask", "lint", "x"] {
        if let Some(words) = hooks_registry::fuzzing::cargo_alias(&text, name) {
            assert!(!words.is_empty() && words.iter().all(|w| !w.is_empty()), "{words:?}");
        }
    }
    // As a `Gemfile` in `/p` (F115): at most 32 files, each absolute with a file name.
    let evaluated = hooks_registry::fuzzing::gemfile_evaluates(&text);
    assert!(evaluated.len() <= 32, "{} files", evaluated.len());
    assert!(evaluated.iter().all(|f| f.is_absolute() && f.file_name().is_some()), "{evaluated:?}");
    // As a recipe file (F72): at most 256 lines, each with something to run and no longer
    // than the text (a makefile's, see below); a manifest's script, written back under `scripts`, reads back as itself.
    // The targets: none (the tool's default), or the text's first two words.
    let words: Vec<String> = text.split_whitespace().take(2).map(str::to_owned).collect();
    for (kind, targets) in (0..13).flat_map(|k| [(k, Vec::new()), (k, words.clone())]) {
        let lines = hooks_registry::fuzzing::recipe_lines(&text, kind, &targets);
        assert!(lines.len() <= 256, "{} lines", lines.len());
        // A makefile's recipe lines have its variables expanded (F73), a justfile's its
        // variables interpolated (F74): longer than the text by at most what their budget
        // allows, and only where the text has a `$` or a `{{`.
        let expands = (kind == 2 && text.contains('$')) || (kind == 3 && text.contains("{{"));
        // A `tox.toml`'s arguments are quoted for the shell (F76): at most twice the text.
        let budget = match (expands, kind) {
            (true, _) => 1024 * 1024,
            // So are a Hatch or Pixi script's argument lists (F99).
            (false, 5 | 11 | 12) => text.chars().count(),
            // A JavaScript lint-staged configuration's `${…}` is read as `"$FILES"` (F88).
            (false, 8) => 8 * text.matches("${").count(),
            // A Rakefile's `#{}` or an f-string's `{}` is read as `"$X"` (F95).
            (false, 9 | 10) => 2 * text.matches('{').count(),
            _ => 0,
        };
        for line in &lines {
            assert!(!line.trim().is_empty(), "an empty line runs nothing");
            assert!(line.chars().count() <= text.chars().count() + budget, "{line:?} is too long");
        }
        if kind == 0 {
            for line in lines {
                let written = serde_json::json!({ "scripts": { "x": line } }).to_string();
                let read = hooks_registry::fuzzing::recipe_lines(&written, 0, &["x".to_owned()]);
                assert_eq!(read, [line.clone()], "{written}");
            }
        }
    }
    // As a Gradle settings script, the builds it includes (F98): each a non-empty piece of
    // the text, with no variable and no line break.
    for build in hooks_registry::fuzzing::gradle_included_builds(&text) {
        assert!(!build.is_empty() && text.contains(&build), "{build:?}");
        assert!(!build.contains(['$', '\n']), "{build:?}");
    }
    // As a `Cargo.toml` in `/p` (F100): what it names is under `/p` or absolute, lexically
    // resolved (no `.` or `..` left), at most 64 members' patterns and 64 dependencies.
    if let Some((places, members)) = hooks_registry::fuzzing::cargo_manifest(&text) {
        assert!(members <= 64 && places.len() <= 66, "{members} {places:?}");
        for path in &places {
            assert!(path.is_absolute(), "{path:?}");
            let resolved = path.components().all(|c| {
                !matches!(c, std::path::Component::CurDir | std::path::Component::ParentDir)
            });
            assert!(resolved, "{path:?}");
        }
    }
    // As a `turbo.json`, the tasks it runs for the text's first two words (F92): bounded,
    // none empty, none a dependency's spelling (`^build`).
    let words: Vec<String> = text.split_whitespace().take(2).map(str::to_owned).collect();
    let tasks = hooks_registry::fuzzing::turbo_tasks(&text, &words);
    assert!(tasks.len() <= 258, "{} tasks", tasks.len());
    assert!(tasks.iter().all(|t| !t.is_empty() && !t.starts_with('^') && !t.contains('#')));
    // As a justfile, the folders its recipes run in (F90): absolute, at most the setting and
    // sixteen attributes.
    let (dirs, _) = hooks_registry::fuzzing::just_working_dirs(&text);
    assert!(dirs.len() <= 17 && dirs.iter().all(|d| d.is_absolute()), "{dirs:?}");
    tool_configs(&text);
}

/// The same text as a tool's configuration (F71, F79, F80, F84, F86, F106,
/// `hooks_registry::fuzzing::tool_config_loads`): at most 64 files (256 of prettier's
/// plugins), folders, files read in turn and modules under each of the thirty-three names
/// (npm's, yarn's, pnpm's, cargo's, Maven's, Gradle's and Bun's the last nine), none empty or
/// starting at the home or a variable,
/// none longer than the text and what the registry adds to a name (a module's
/// `/__init__.py`, TypeScript's `.json`); a mypy plugin file and a flake8 folder, written
/// back alone, read back as themselves, and a `tsconfig.json`'s `extends` and a pylint
/// module as well.
fn tool_configs(text: &str) {
    // As ripgrep's configuration (F133): bounded, each value a non-empty piece of one line of
    // the text, and written back as `--pre=` it reads back as itself.
    let (pre, ignore_files) = hooks_registry::fuzzing::ripgrep_config(text);
    assert!(pre.len() <= 64 && ignore_files.len() <= 64);
    for value in pre.iter().chain(&ignore_files) {
        assert!(!value.is_empty() && !value.contains(['\n', '\r']), "{value:?}");
        assert!(text.contains(value.as_str()), "{value:?} is a piece of the text");
        if value.trim() == value {
            let written = format!("--pre={value}\n");
            assert_eq!(hooks_registry::fuzzing::ripgrep_config(&written).0, [value.clone()]);
        }
    }
    // As an import map (F127, F128): bounded, and every file absolute.
    let (package, typescript, files) = hooks_registry::fuzzing::import_maps(text);
    assert!(package.len() <= 128 && typescript.len() <= 64);
    assert!(package.iter().chain(&typescript).all(|(_, targets)| targets.len() <= 64));
    assert!(files.iter().all(|f| f.is_absolute()), "{files:?}");
    for which in 0..33 {
        let [files, folders, extends, modules] =
            hooks_registry::fuzzing::tool_config_loads(text, which);
        // Names 16 to 19 are prettier's, whose plugins are as many as the hook managers'
        // reader keeps (256).
        let files_cap = if (16..20).contains(&which) { 256 } else { 64 };
        assert!(files.len() <= files_cap && folders.len() <= 64 && extends.len() <= 64);
        assert!(modules.len() <= 64);
        for module in &modules {
            assert!(module.split('.').all(|p| !p.is_empty()), "{module:?}");
            let written = format!("[MAIN]\nload-plugins = {module}\n");
            let [.., read] = hooks_registry::fuzzing::tool_config_loads(&written, 21);
            assert_eq!(read, [module.clone()], "{written:?}");
        }
        for name in files.iter().chain(&folders).chain(&extends) {
            assert!(!name.is_empty() && !name.starts_with(['~', '$']), "{name:?}");
            assert!(name.chars().count() <= text.chars().count() + 12, "{name:?} is too long");
        }
        let plain = |n: &str| !n.contains([',', ':', '\n', '\r', ' ', '\t', '"', '\'', '#', ';']);
        for file in files.iter().filter(|f| f.ends_with(".py") && plain(f)) {
            let written = format!("[mypy]\nplugins = {file}\n");
            let [read, ..] = hooks_registry::fuzzing::tool_config_loads(&written, 3);
            assert_eq!(read, [file.clone()], "{written:?}");
        }
        for folder in folders.iter().filter(|f| plain(f)) {
            let written = format!("[flake8:local-plugins]\npaths = {folder}\n");
            let [_, read, ..] = hooks_registry::fuzzing::tool_config_loads(&written, 5);
            assert_eq!(read, [folder.clone()], "{written:?}");
        }
        for file in extends.iter().filter(|f| f.ends_with(".json")) {
            let written = serde_json::json!({ "extends": file }).to_string();
            let [_, _, read, _] = hooks_registry::fuzzing::tool_config_loads(&written, 12);
            if file.starts_with("./") || file.starts_with("../") || file.starts_with('/') {
                assert!(read.contains(file), "{written:?}: {read:?}");
            }
        }
    }
}

/// The reading of an ssh configuration file's `Include` lines on arbitrary text (lossy
/// UTF-8): every argument is non-empty, a piece of the text, and, written back quoted on an
/// `Include` line of its own, reads back as itself.
pub fn ssh_config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for argument in hooks_registry::fuzzing::ssh_include_arguments(&text) {
        assert!(!argument.is_empty(), "an empty argument names nothing");
        assert!(text.contains(&argument), "{argument:?} is a piece of the text");
        if !argument.contains(['"', '\n', '\r']) {
            let written = format!("Include \"{argument}\"\n");
            let read = hooks_registry::fuzzing::ssh_include_arguments(&written);
            assert_eq!(read, [argument.clone()], "{written:?}");
        }
    }
    // What it has ssh run or load (F61): something on one line; a command without `~` (what
    // ssh's `%d` is read as) is a piece of the text and, written back as a `ProxyCommand`,
    // reads back as itself.
    for (command, what) in hooks_registry::fuzzing::ssh_runs(&text) {
        assert!(!what.trim().is_empty(), "{what:?} runs nothing");
        assert!(!what.contains('\n'), "{what:?} is on one line");
        if !command || what.contains('~') {
            continue;
        }
        assert!(text.contains(&what), "{what:?} is a piece of the text");
        if what.trim() == what
            && !what.contains(['%', '\r'])
            && !what.starts_with('=')
            && !what.eq_ignore_ascii_case("none")
        {
            let written = format!("ProxyCommand {what}\n");
            let read = hooks_registry::fuzzing::ssh_runs(&written);
            assert_eq!(read, [(true, what.clone())], "{written:?}");
        }
    }
}

/// The serve protocol's `parse_request` on one arbitrary line.
pub fn serve_request(data: &[u8]) {
    match hooks_app::serve::parse_request(data) {
        Ok((id, request)) => {
            let _ = format!("{id} {request:?}");
        }
        Err(e) => {
            let _ = e.to_message();
        }
    }
}

/// The trees' reaper's allocation-free readers (they run after the engine's end, in a
/// process that may share its memory, where nothing may panic) against the plain readings of
/// their rules. Byte 0 picks the reader: even, the registration file's lines on the rest (bit 1
/// clear) or the tag sweep's reading of a `/proc/<pid>/stat` line after an empty environment
/// (bit 1 set); odd, the tag matcher (bit 1: a dispatcher's number follows the prefix, or
/// nothing), with byte 1 the prefix's length, byte 2 where the environment block is cut in two
/// pieces, then the prefix and the block.
pub fn reaper_readers(data: &[u8]) {
    use hooks_dispatch::fuzzing;
    let Some((&select, rest)) = data.split_first() else { return };
    if select & 1 == 0 {
        // The registration file and `/proc` are read on Linux only (the trees' reaper and the
        // tag sweep are Linux's).
        #[cfg(target_os = "linux")]
        if select & 2 == 0 {
            let groups = fuzzing::registered_groups(rest);
            assert!(groups.iter().all(|g| *g > 1), "never this engine's own group nor init's");
            assert_eq!(groups, fuzzing::registered_groups_reference(rest), "the script's reading");
        } else {
            assert_eq!(
                fuzzing::environment_pending(rest),
                fuzzing::environment_pending_reference(rest),
                "the plain reading of the stat line"
            );
        }
        return;
    }
    let [len, cut, rest @ ..] = rest else { return };
    let (prefix, block) = rest.split_at(usize::from(*len % 48).min(rest.len()));
    let cut = usize::from(*cut) * block.len() / 255;
    let digits = select & 2 != 0;
    assert_eq!(
        fuzzing::tag_found(block, prefix, digits, cut),
        fuzzing::tag_found_reference(block, prefix, digits),
        "what `grep -zx` matches"
    );
}

/// `hooks_registry::analyse` on an arbitrary hook command line (lossy UTF-8), as a shell
/// line and as an argument vector split on whitespace; and `analyse_script_text` and
/// `local_imports` on the same text as a hook script's own content.
pub fn command_analysis(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let shell = hooks_schema::HookCommand::Shell { script: text.clone(), shell: None };
    let analysis = hooks_registry::analyse(&shell);
    for named in &analysis.paths {
        match named.base {
            hooks_registry::PathBase::Root => {
                assert!(named.path.is_absolute(), "{named:?} is absolute")
            }
            _ => assert!(!named.path.is_absolute(), "{named:?} is relative to its base"),
        }
    }
    // An `ssh -F` file is one of the named paths too (F67), and so are the files and hooks
    // folders the line gives git (F69).
    let read_as_configuration = |a: &hooks_registry::CommandAnalysis| -> Vec<_> {
        a.read_as_configuration().cloned().collect()
    };
    for config in read_as_configuration(&analysis) {
        assert!(analysis.paths.contains(&config), "{config:?} is named");
    }
    // So is a TypeScript runner's configuration given by an option (F138).
    for config in &analysis.typescript_configs {
        assert!(analysis.paths.contains(config), "{config:?} is named");
    }
    // The folders where it runs a Node.js tool (F85) are placed as its paths are.
    for (folder, tool) in &analysis.node_tool_folders {
        assert!(!tool.is_empty());
        match folder.base {
            hooks_registry::PathBase::Root => assert!(folder.path.is_absolute(), "{folder:?}"),
            _ => assert!(!folder.path.is_absolute(), "{folder:?} is relative to its base"),
        }
    }
    // And so are the folders it adds to its interpreters' search paths (F144).
    for (_, folder) in &analysis.search_folders {
        match folder.base {
            hooks_registry::PathBase::Root => assert!(folder.path.is_absolute(), "{folder:?}"),
            _ => assert!(!folder.path.is_absolute(), "{folder:?} is relative to its base"),
        }
    }
    // So is every recipe file a task runner or package manager reads (F72).
    for run in &analysis.recipes {
        assert!(analysis.paths.contains(&run.file), "{run:?} is named");
        assert!(!run.program.is_empty(), "{run:?} names its program");
        assert!(run.targets.iter().all(|t| !t.is_empty() && !t.starts_with('-')), "{run:?}");
    }
    let mut words = text.split_whitespace().map(str::to_owned);
    if let Some(program) = words.next() {
        let exec = hooks_schema::HookCommand::Exec { program, args: words.collect() };
        let _ = hooks_registry::analyse(&exec);
    }
    // The same bytes as a Python, a JavaScript, a Ruby and a Perl hook's text (what it
    // imports locally; F142, F143).
    for language in [
        hooks_registry::ImportLanguage::Python,
        hooks_registry::ImportLanguage::JavaScript,
        hooks_registry::ImportLanguage::Ruby,
        hooks_registry::ImportLanguage::Perl,
    ] {
        for named in hooks_registry::local_imports(language, &text, std::path::Path::new("/repo/s"))
        {
            match named.base {
                hooks_registry::PathBase::Root => {
                    assert!(named.path.is_absolute(), "{named:?} is absolute")
                }
                // CommonJS's global folders of the home; a Python module in a folder the
                // script adds to its search path from where it runs (F136), a Ruby or Perl
                // file loaded from there.
                hooks_registry::PathBase::Home | hooks_registry::PathBase::RunDir => {
                    assert!(named.path.is_relative(), "{named:?} is relative to its base")
                }
                _ => panic!("{named:?} starts from the root, the home or the run folder"),
            }
        }
    }
    // And as a Node.js tool's configuration's text (the files it names in any string, F85,
    // F87): each absolute, of the kind its extension says.
    for (path, kind) in hooks_registry::configuration_paths(&text, std::path::Path::new("/repo/s"))
    {
        assert!(path.is_absolute(), "{path:?} is absolute");
        let name = path.to_str().unwrap_or_default();
        assert_eq!(hooks_registry::ConfigurationFile::of(name), Some(kind), "{path:?}");
    }
    // The same bytes as a hook script's own text (what it sources, and the start-up files of
    // the programs it runs, from the home, where it runs or the system's: `/etc/ssh/ssh_config`
    // for ssh and git, F58), from its folder.
    let script = hooks_registry::analyse_script_text(&text, Some(std::path::Path::new("/repo/s")));
    let script_configuration = read_as_configuration(&script);
    for named in &script.paths {
        use hooks_registry::{PathBase, PathRole};
        // A start-up file: from the home, where it runs or the system's, or by name under any
        // folder (the JavaScript formatters' configuration, F71).
        let start_up = match named.base {
            PathBase::Home | PathBase::RunDir | PathBase::Root => {
                matches!(named.role, PathRole::Modules | PathRole::Argument)
            }
            PathBase::Unknown => named.role == PathRole::Argument,
            _ => false,
        };
        let configuration = script_configuration.contains(named);
        assert!(named.role == PathRole::Sourced || start_up || configuration, "{named:?}");
        match named.base {
            hooks_registry::PathBase::Root => {
                assert!(named.path.is_absolute(), "{named:?} is absolute")
            }
            _ => assert!(!named.path.is_absolute(), "{named:?} is relative to its base"),
        }
    }
    // The programs looked up on `PATH` are names (no path), sorted, without duplicates.
    for programs in [&analysis.programs_on_path, &script.programs_on_path] {
        assert!(programs.iter().all(|p| !p.is_empty() && !p.contains('/')), "{programs:?}");
        assert!(programs.windows(2).all(|w| w[0] < w[1]), "{programs:?}");
    }
}
