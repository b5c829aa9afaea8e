//! Reads Codex hook files into canonical definitions, with Codex 0.169.0's acceptance rules.
//!
//! Three shapes, told apart by the file name ([`FileShape::of`]):
//!
//! - `hooks.json`: `{"description"?, "hooks": {<Event>: [groups]}}`. Anything that makes
//!   Codex's `serde_json` deserialization fail refuses the whole file (an unknown root key, a
//!   wrong type, an unknown handler `type`, a duplicate key, a byte-order mark), as Codex
//!   refuses it with `failed to parse hooks config`.
//! - `config.toml`: the inline `[hooks]` table (same vocabulary, plus `[hooks.state]`, which
//!   Codex reads only from the user's file) and `[features].hooks` (or its deprecated alias
//!   `codex_hooks`), which switches hooks off. A `[hooks]` Codex cannot deserialize makes
//!   Codex drop the whole configuration; the file is refused.
//! - `requirements.toml` (managed): `allow_managed_hooks_only`, `[features].hooks` and a
//!   `[hooks]` table of managed hooks (with `managed_dir`, `windows_managed_dir`).
//!
//! Inside an accepted file, Codex skips with a warning: a group whose matcher is an invalid
//! regex, a blank command, `prompt` and `agent` handlers. This adapter also skips, with a
//! warning, what the engine cannot run: `mcp_tool` handlers and the model-request events,
//! which have no canonical counterpart (capability gaps).

use std::{path::Path, sync::Arc};

use hooks_schema::{
    Delivery, DisabledNames, ExecutionMode, FileScope, HookCommand, HookDefinition, HookDiagnostic,
    HookId, HookSourceKind, OnFailure, ParseResult, ParsedSource, PolicySwitch, SourcePolicy,
    SourceScope, SwitchRule,
};
use serde::Deserialize;
use serde_json::{Map, Value};
use toml_edit::Document;

use crate::{
    CodexCodec, CodexEvent,
    config::{EventTable, Handler, HookState, HooksFile, HooksTable},
    locate::{self, Pos, Positions},
    matcher,
    trust::{HandlerIdentity, hook_hash, hook_key},
};

/// The largest document read, in bytes; a larger file is refused.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// `[features].hooks`: the switch that turns Codex hooks off.
pub const FEATURES_HOOKS: &str = "features.hooks";

/// `allow_managed_hooks_only`: only managed hooks run (honoured in `requirements.toml`).
pub const ALLOW_MANAGED_HOOKS_ONLY: &str = "allow_managed_hooks_only";

/// Native keys a definition carries for Codex's own per-hook trust: the hook's key in
/// `[hooks.state]` and its current trust hash.
pub const NATIVE_TRUST_KEY: &str = "codexTrustKey";
/// See [`NATIVE_TRUST_KEY`].
pub const NATIVE_TRUST_HASH: &str = "codexTrustHash";

/// The setting that switches one hook off in Codex, as reasons name it.
pub const HOOKS_STATE_ENABLED: &str = "[hooks.state] enabled = false";

/// The `settings` key under which a user `config.toml`'s `[hooks.state]` is listed.
pub const SETTINGS_HOOK_STATE: &str = "hooks.state";

/// Which Codex file a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileShape {
    /// `hooks.json` (or any file that is not TOML).
    HooksJson,
    /// A `config.toml` layer.
    ConfigToml,
    /// The managed `requirements.toml`.
    Requirements,
}

impl FileShape {
    /// The shape of the file at `path`, by its name.
    pub fn of(path: &Path) -> FileShape {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name == "requirements.toml" {
            FileShape::Requirements
        } else if name.ends_with(".toml") {
            FileShape::ConfigToml
        } else {
            FileShape::HooksJson
        }
    }
}

/// `[features]`, as far as hooks go.
#[derive(Debug, Default, Deserialize)]
struct Features {
    #[serde(default)]
    hooks: Option<bool>,
    #[serde(default)]
    codex_hooks: Option<bool>,
}

impl Features {
    fn hooks(&self) -> Option<bool> {
        self.hooks.or(self.codex_hooks)
    }
}

/// The parts of a `config.toml` this adapter reads; every other key is Codex's business.
#[derive(Debug, Default, Deserialize)]
struct ConfigDoc {
    #[serde(default)]
    hooks: Option<HooksTable>,
    #[serde(default)]
    features: Option<Features>,
}

/// `[hooks]` of `requirements.toml`.
#[derive(Debug, Default, Deserialize)]
struct ManagedHooks {
    #[serde(default)]
    #[allow(dead_code)]
    managed_dir: Option<std::path::PathBuf>,
    #[serde(default)]
    #[allow(dead_code)]
    windows_managed_dir: Option<std::path::PathBuf>,
    #[serde(flatten)]
    events: EventTable,
}

/// The parts of `requirements.toml` this adapter reads.
#[derive(Debug, Default, Deserialize)]
struct RequirementsDoc {
    #[serde(default)]
    allow_managed_hooks_only: Option<bool>,
    #[serde(default)]
    features: Option<Features>,
    #[serde(default)]
    hooks: Option<ManagedHooks>,
}

/// Parses one Codex file read as a source of `kind`.
///
/// ```
/// use std::path::Path;
/// use hooks_schema::{FileScope, HookSourceKind};
/// use hooks_format_codex::{PROJECT_HOOKS, parse};
///
/// let text = br#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh"}]}]}}"#;
/// let parsed = parse(text, Path::new("/repo/.codex/hooks.json"), PROJECT_HOOKS).unwrap();
/// assert_eq!(parsed.definitions[0].native_event, "PreToolUse");
/// ```
pub fn parse(bytes: &[u8], path: &Path, kind: HookSourceKind) -> ParseResult {
    let r = read(bytes, path, kind)?;
    Ok(ParsedSource {
        definitions: r.definitions,
        diagnostics: r.diagnostics,
        settings: r.settings,
        policy: r.policy,
    })
}

/// Parses a file of a Codex plugin's copy (in `$CODEX_HOME/plugins/cache/`) that holds
/// hooks, as Codex 0.169.0 loads it: its `hooks/hooks.json`, a file its manifest names (a path
/// or a list of paths in `.codex-plugin/plugin.json`'s `hooks`), each read as [`parse`] reads a
/// `hooks.json`; or the manifest itself, whose `hooks`, when an object, is such a document
/// (`{"hooks": {<Event>: …}}`; observed: an object of events there did not run). The plugin's
/// folder is `base`, or, without one, the file's folder's folder; it stands in place of the
/// variables Codex sets to it ([`crate::PLUGIN_ROOT_VARS`]) in shell commands. Codex runs these
/// hooks itself while the plugin is on; the engine never does: every definition is disabled,
/// listed with a note (`plugin_hooks`), and the scripts they name are protected by the guard.
/// A manifest that does not read, or whose `hooks` is no object, holds no hooks; one whose
/// `hooks` is none of an object, a path or a list of paths (`true`) says so, as a warning.
///
/// ```
/// use std::path::Path;
/// let text = br#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"sh $PLUGIN_ROOT/gate.sh"}]}]}}"#;
/// let path = Path::new("/h/.codex/plugins/cache/m/p/1.0.0/hooks/hooks.json");
/// let kind = hooks_schema::HookSourceKind::file(hooks_schema::FileScope::User, hooks_format_codex::PLUGINS);
/// let parsed = hooks_format_codex::parse_plugin_hooks(text, path, kind, None).unwrap();
/// assert!(!parsed.definitions[0].enabled);
/// // A file the manifest names at the plugin's root, read with the plugin's folder.
/// let root = Path::new("/h/.codex/plugins/cache/m/p/1.0.0");
/// let parsed = hooks_format_codex::parse_plugin_hooks(text, &root.join("gate.json"), kind, Some(root)).unwrap();
/// assert!(matches!(&parsed.definitions[0].command,
///     hooks_schema::HookCommand::Shell { script, .. } if script == "sh /h/.codex/plugins/cache/m/p/1.0.0/gate.sh"));
/// ```
pub fn parse_plugin_hooks(
    bytes: &[u8],
    path: &Path,
    kind: HookSourceKind,
    base: Option<&Path>,
) -> ParseResult {
    let folder = base.or_else(|| path.parent().and_then(Path::parent)).unwrap_or(Path::new(""));
    let mut parsed = if folder.join(crate::PLUGIN_MANIFEST) == path {
        match inline_hooks(bytes) {
            Inline::Document(document) => parse(&document, path, kind)?,
            Inline::Wrong { found, at } => ParsedSource {
                diagnostics: vec![
                    HookDiagnostic::warning(format!(
                        "`hooks` must be a hooks section, a path or a list of paths, found {found}"
                    ))
                    .in_file(path)
                    .at(at.line, at.column)
                    .with_code("invalid_value"),
                ],
                ..ParsedSource::default()
            },
            Inline::None => ParsedSource::default(),
        }
    } else {
        parse(bytes, path, kind)?
    };
    let root = folder.to_string_lossy();
    for d in &mut parsed.definitions {
        if let HookCommand::Shell { script, .. } = &mut d.command {
            for var in crate::PLUGIN_ROOT_VARS {
                *script = hooks_schema::replace_shell_variable(script, var, &root);
            }
        }
    }
    hooks_schema::plugin_hooks_run_by("Codex", folder, path, &mut parsed);
    Ok(parsed)
}

/// What a plugin manifest's `hooks` holds ([`inline_hooks`]).
enum Inline {
    /// An object: the document, every other byte blanked (a line break kept) so that lines
    /// and columns stay the manifest's.
    Document(Vec<u8>),
    /// None of an object, a path or a list of paths (`true`, a list holding a number): what
    /// it is, and where.
    Wrong { found: &'static str, at: Pos },
    /// No `hooks` (or `null`), a path or a list of paths (other files), or a manifest that
    /// does not read.
    None,
}

/// A plugin manifest's `hooks`, read as [`Inline`] says.
fn inline_hooks(bytes: &[u8]) -> Inline {
    #[derive(Deserialize)]
    struct Manifest<'a> {
        #[serde(borrow)]
        hooks: Option<&'a serde_json::value::RawValue>,
    }
    let Ok(manifest) = serde_json::from_slice::<Manifest<'_>>(bytes) else { return Inline::None };
    let Some(hooks) = manifest.hooks.map(serde_json::value::RawValue::get) else {
        return Inline::None;
    };
    let Some(start) = (hooks.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize) else {
        return Inline::None;
    };
    let Some(end) = start.checked_add(hooks.len()).filter(|e| *e <= bytes.len()) else {
        return Inline::None;
    };
    if !hooks.starts_with('{') {
        let found = match serde_json::from_str::<serde_json::Value>(hooks) {
            Ok(serde_json::Value::String(_)) => return Inline::None,
            Ok(serde_json::Value::Array(items)) if items.iter().all(|i| i.is_string()) => {
                return Inline::None;
            }
            Ok(serde_json::Value::Array(_)) => "an array",
            Ok(serde_json::Value::Bool(_)) => "a boolean",
            Ok(serde_json::Value::Number(_)) => "a number",
            _ => return Inline::None,
        };
        // The manifest read as JSON, so it is text.
        let text = std::str::from_utf8(bytes).unwrap_or_default();
        return Inline::Wrong { found, at: Pos::of(text, start) };
    }
    // Columns count characters: each character around the document becomes one space (the
    // rest of a multi-byte character is dropped), each line break stays.
    Inline::Document(
        bytes
            .iter()
            .enumerate()
            .filter_map(|(i, &b)| match b {
                _ if (start..end).contains(&i) => Some(b),
                b'\n' => Some(b),
                0x80..=0xBF => None,
                _ => Some(b' '),
            })
            .collect(),
    )
}

/// One command handler as Codex lists it (`codex app-server` `hooks/list`): every handler
/// Codex would consider, including those of events this engine cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookEntry {
    /// Its key in `[hooks.state]`.
    pub key: String,
    /// The event.
    pub event: CodexEvent,
    /// The matcher as Codex keeps it.
    pub matcher: Option<String>,
    /// The command as written.
    pub command: String,
    /// The effective timeout in seconds.
    pub timeout_secs: u64,
    /// Codex's trust hash of the handler.
    pub hash: String,
    /// Where it is in the file.
    pub line: u32,
    /// See `line`.
    pub column: u32,
}

/// Every command handler of a Codex file with its trust key and hash, in Codex's listing
/// order, or why the file is refused.
///
/// # Errors
/// The diagnostics of a refused file, as [`parse`] gives them.
pub fn hook_entries(
    bytes: &[u8],
    path: &Path,
    kind: HookSourceKind,
) -> Result<Vec<HookEntry>, Vec<HookDiagnostic>> {
    read(bytes, path, kind).map(|r| r.entries)
}

fn read<'a>(
    bytes: &[u8],
    path: &'a Path,
    kind: HookSourceKind,
) -> Result<Reading<'a>, Vec<HookDiagnostic>> {
    let fatal = |message: String, pos: Pos, code: &str| {
        Err(vec![
            HookDiagnostic::error(message).in_file(path).at(pos.line, pos.column).with_code(code),
        ])
    };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return fatal(
            format!("the file is {} bytes, more than the {MAX_DOCUMENT_BYTES} read", bytes.len()),
            Pos::START,
            "too_large",
        );
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let pos = Pos::of(&String::from_utf8_lossy(bytes), e.valid_up_to());
            return fatal(
                format!("failed to read hooks config: stream did not contain valid UTF-8 ({e})"),
                pos,
                "invalid_utf8",
            );
        }
    };
    let managed = matches!(kind.scope(), SourceScope::File(FileScope::Managed));
    let user = matches!(kind.scope(), SourceScope::File(FileScope::User));
    let mut r = Reading::new(path, managed);
    match FileShape::of(path) {
        FileShape::HooksJson => {
            let file: HooksFile = match serde_json::from_str(text) {
                Ok(f) => f,
                Err(e) => {
                    let pos = Pos {
                        line: u32::try_from(e.line()).unwrap_or(1).max(1),
                        column: u32::try_from(e.column()).unwrap_or(1).max(1),
                    };
                    return fatal(
                        format!("failed to parse hooks config: {}", redact(&e.to_string())),
                        pos,
                        "invalid_hooks",
                    );
                }
            };
            r.events(file.hooks, &locate::json(text));
        }
        FileShape::ConfigToml => {
            let (doc, cfg) = match toml_doc::<ConfigDoc>(text) {
                Ok(v) => v,
                Err((message, pos, code)) => return fatal(message, pos, code),
            };
            if let Some(features) = &cfg.features {
                r.features(features);
            }
            if let Some(hooks) = cfg.hooks {
                r.events(hooks.events, &locate::toml(text, &doc));
                if user {
                    r.disable_own(&hooks.state);
                }
                r.state(hooks.state, user, &doc, text);
            }
        }
        FileShape::Requirements => {
            let (doc, req) = match toml_doc::<RequirementsDoc>(text) {
                Ok(v) => v,
                Err((message, pos, code)) => return fatal(message, pos, code),
            };
            if let Some(features) = &req.features {
                r.features(features);
            }
            if let Some(on) = req.allow_managed_hooks_only {
                r.policy.switches.push(PolicySwitch {
                    key: ALLOW_MANAGED_HOOKS_ONLY,
                    rule: SwitchRule::ManagedOnly,
                    on,
                });
            }
            if let Some(hooks) = req.hooks {
                r.events(hooks.events, &locate::toml(text, &doc));
            }
        }
    }
    Ok(r)
}

/// A serde message with the values it quotes from the file (a mistyped string or number, an
/// unknown `type`) marked with [`hooks_schema::quoted_value`], so that diagnostics name only
/// their type unless the user asks to reveal values. Field names stay: they are the format's
/// vocabulary.
fn redact(message: &str) -> String {
    use std::sync::LazyLock;
    static STRING: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r#"(string |char )("(?:[^"\\]|\\.)*")"#).ok());
    static TICKED: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        regex::Regex::new(r"((?:integer|floating point|unknown variant|byte array) )(`[^`]*`)").ok()
    });
    let mut out = message.to_owned();
    if let Some(re) = STRING.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures<'_>| {
                format!("{}{}", &c[1], hooks_schema::quoted_value("a string", &c[2]))
            })
            .into_owned();
    }
    if let Some(re) = TICKED.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures<'_>| {
                let kind = if c[1].starts_with("unknown") { "a string" } else { "a number" };
                format!("{}{}", &c[1], hooks_schema::quoted_value(kind, &c[2]))
            })
            .into_owned();
    }
    out
}

/// A TOML document and its typed reading, or why it was refused.
fn toml_doc<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<(Document<&str>, T), (String, Pos, &'static str)> {
    let doc = Document::parse(text).map_err(|e| {
        let pos = e.span().map_or(Pos::START, |s| Pos::of(text, s.start));
        (format!("invalid TOML: {}", e.message().trim_end()), pos, "invalid_toml")
    })?;
    let typed = toml_edit::de::Deserializer::parse(text).and_then(T::deserialize).map_err(|e| {
        let pos = e.span().map_or(Pos::START, |s| Pos::of(text, s.start));
        (
            format!(
                "invalid configuration (Codex ignores the whole file): {}",
                redact(e.message().trim_end())
            ),
            pos,
            "invalid_hooks",
        )
    })?;
    Ok((doc, typed))
}

/// The state of one parse.
struct Reading<'a> {
    path: &'a Path,
    managed: bool,
    definitions: Vec<HookDefinition>,
    diagnostics: Vec<HookDiagnostic>,
    settings: Map<String, Value>,
    policy: SourcePolicy,
    entries: Vec<HookEntry>,
}

impl<'a> Reading<'a> {
    fn new(path: &'a Path, managed: bool) -> Reading<'a> {
        Reading {
            path,
            managed,
            definitions: Vec::new(),
            diagnostics: Vec::new(),
            settings: Map::new(),
            policy: SourcePolicy::default(),
            entries: Vec::new(),
        }
    }

    fn warn(&mut self, message: String, pos: Pos, code: &str, hook: Option<&str>) {
        let mut d = HookDiagnostic::warning(message)
            .in_file(self.path)
            .at(pos.line, pos.column)
            .with_code(code);
        d.hook_id = hook.map(str::to_owned);
        self.diagnostics.push(d);
    }

    /// The user's `config.toml` carries both its own hooks and `[hooks.state]`: a hook it
    /// turns off there (`enabled = false`) is listed but never runs, as in Codex.
    fn disable_own(&mut self, state: &std::collections::BTreeMap<String, HookState>) {
        for d in &mut self.definitions {
            let key = d.native.get(NATIVE_TRUST_KEY).and_then(Value::as_str).unwrap_or_default();
            if state.get(key).is_some_and(|s| s.enabled == Some(false)) {
                d.enabled = false;
                let mut diag = HookDiagnostic::info(
                    "disabled in Codex (`[hooks.state]` says `enabled = false`)",
                )
                .in_file(self.path)
                .with_code("disabled");
                diag.line = d.line;
                diag.column = d.column;
                diag.hook_id = Some(d.id.to_string());
                self.diagnostics.push(diag);
            }
        }
    }

    fn features(&mut self, features: &Features) {
        if let Some(on) = features.hooks() {
            self.policy.switches.push(PolicySwitch {
                key: FEATURES_HOOKS,
                rule: SwitchRule::Hooks,
                on,
            });
        }
    }

    /// `[hooks.state]`: listed for the user's own `config.toml` (where Codex reads it),
    /// ignored with a note elsewhere.
    fn state(
        &mut self,
        state: std::collections::BTreeMap<String, HookState>,
        user: bool,
        doc: &Document<&str>,
        text: &str,
    ) {
        if state.is_empty() {
            return;
        }
        if !user {
            let pos = locate::toml_item(text, doc, &["hooks", "state"]);
            self.diagnostics.push(
                HookDiagnostic::info(
                    "`[hooks.state]` is read only from the user's config.toml; ignored here",
                )
                .in_file(self.path)
                .at(pos.line, pos.column)
                .with_code("hook_state_ignored"),
            );
            return;
        }
        // The hooks the user turned off in Codex, in any layer's file (the key names the
        // file): the registry switches them off wherever this file runs
        // (`CodexCodec::disable_name`), as Codex skips each alone.
        let off: Vec<String> = state
            .iter()
            .filter(|(_, s)| s.enabled == Some(false))
            .map(|(k, _)| k.clone())
            .collect();
        if !off.is_empty() {
            self.policy.disables = Some(DisabledNames { key: HOOKS_STATE_ENABLED, names: off });
        }
        let mut map = Map::new();
        for (key, s) in state {
            let mut v = Map::new();
            if let Some(e) = s.enabled {
                v.insert("enabled".into(), Value::Bool(e));
            }
            if let Some(h) = s.trusted_hash {
                v.insert("trusted_hash".into(), Value::String(h));
            }
            map.insert(key, Value::Object(v));
        }
        self.settings.insert(SETTINGS_HOOK_STATE.to_owned(), Value::Object(map));
    }

    fn events(&mut self, table: EventTable, pos: &Positions) {
        for (event, groups) in table.into_events() {
            for (gi, group) in groups.into_iter().enumerate() {
                let gp = pos.group(event, gi);
                let kept = group.matcher.as_deref().filter(|_| event.keeps_matcher());
                let matcher = match matcher::build(event, kept) {
                    Ok(m) => m,
                    Err(e) => {
                        let m = kept.unwrap_or_default();
                        self.warn(
                            format!(
                                "invalid matcher {}; the group is skipped",
                                hooks_schema::quoted_value("a string", &format!("{m:?}: {e}"))
                            ),
                            gp.matcher(),
                            "invalid_matcher",
                            None,
                        );
                        continue;
                    }
                };
                for (hi, handler) in group.hooks.into_iter().enumerate() {
                    let at = gp.handler(hi);
                    let id = format!("{}[{gi}][{hi}]", event.as_str());
                    let command = match handler {
                        Handler::Prompt {} | Handler::Agent {} => {
                            let what = if matches!(handler, Handler::Prompt {}) {
                                "prompt"
                            } else {
                                "agent"
                            };
                            self.warn(
                                format!("skipping {what} hook: {what} hooks are not supported yet"),
                                at,
                                "handler_gap",
                                Some(&id),
                            );
                            continue;
                        }
                        Handler::McpTool(_) => {
                            self.warn(
                                "`mcp_tool` hooks are not run by this engine; skipped".to_owned(),
                                at,
                                "handler_gap",
                                Some(&id),
                            );
                            continue;
                        }
                        Handler::Command(c) => c,
                    };
                    let script = if cfg!(windows) {
                        command.command_windows.clone().unwrap_or_else(|| command.command.clone())
                    } else {
                        command.command.clone()
                    };
                    if script.trim().is_empty() {
                        self.warn(
                            "skipping empty hook command".to_owned(),
                            at,
                            "empty_command",
                            Some(&id),
                        );
                        continue;
                    }
                    let (secs, clamped) = event.timeout_secs(command.timeout);
                    if clamped {
                        self.warn(
                            format!("clamping {} hook timeout to 3s", event.as_str()),
                            at,
                            "timeout_clamped",
                            Some(&id),
                        );
                    }
                    let identity = HandlerIdentity {
                        event,
                        matcher: kept,
                        command: &script,
                        timeout_secs: secs,
                        async_: command.async_,
                        status_message: command.status_message.as_deref(),
                        additional_context_limit: command.additional_context_limit,
                    };
                    let key = hook_key(self.path, event, gi, hi);
                    let hash = hook_hash(&identity);
                    self.entries.push(HookEntry {
                        key: key.clone(),
                        event,
                        matcher: kept.map(str::to_owned),
                        command: script.clone(),
                        timeout_secs: secs,
                        hash: hash.clone(),
                        line: at.line,
                        column: at.column,
                    });
                    let Some(canonical) = event.canonical() else {
                        self.warn(
                            format!(
                                "`{}` has no canonical event in this engine (capability gap); the hook is skipped",
                                event.as_str()
                            ),
                            at,
                            "capability_gap",
                            Some(&id),
                        );
                        continue;
                    };
                    let mut native = Map::new();
                    native.insert(NATIVE_TRUST_KEY.to_owned(), Value::String(key));
                    native.insert(NATIVE_TRUST_HASH.to_owned(), Value::String(hash));
                    if let Some(s) = &command.status_message {
                        native.insert("statusMessage".to_owned(), Value::String(s.clone()));
                    }
                    if let Some(l) = command.additional_context_limit {
                        native.insert("additionalContextLimit".to_owned(), Value::from(l));
                    }
                    if let Some(w) = &command.command_windows {
                        native.insert("commandWindows".to_owned(), Value::String(w.clone()));
                    }
                    if self.managed {
                        native.insert("managed".to_owned(), Value::Bool(true));
                    }
                    let Ok(hook_id) = HookId::new(&id) else { continue };
                    let order = u32::try_from(self.definitions.len()).unwrap_or(u32::MAX);
                    self.definitions.push(HookDefinition {
                        id: hook_id,
                        event: canonical,
                        native_event: event.as_str().to_owned(),
                        matcher: matcher.clone(),
                        command: HookCommand::Shell { script, shell: None },
                        cwd: None,
                        env: Vec::new(),
                        timeout: std::time::Duration::from_secs(secs),
                        on_failure: OnFailure::Warn,
                        mode: if command.async_ {
                            ExecutionMode::FireAndForget
                        } else {
                            ExecutionMode::Blocking
                        },
                        delivery: Delivery::BestEffort,
                        detach: false,
                        enabled: true,
                        codec: Arc::new(CodexCodec),
                        order,
                        line: Some(at.line),
                        column: Some(at.column),
                        description: command.status_message.clone(),
                        native,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
