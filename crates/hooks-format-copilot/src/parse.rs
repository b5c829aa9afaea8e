//! Reads a Copilot CLI hook document into hook definitions and the policy it carries.
//!
//! Sans-IO: bytes in, definitions, diagnostics and policy out; the path names the file in
//! diagnostics and gives `COPILOT_HOOK_DIR` (the file's folder). The acceptance rules are
//! Copilot CLI 1.0.102's, observed in its log (`[rust:hooks]`) and in which hooks ran; where
//! the documentation says otherwise the CLI wins (`specs/formats/copilot.md` lists each rule):
//!
//! - the file is refused (none of its hooks runs) when it is not JSON as `serde_json` reads
//!   it (comments, a trailing comma, a byte order mark, an empty file), not an object, has a
//!   `version` other than the number `1`, or an event whose value is not an array;
//! - a missing `version` is accepted (the documentation says it is required);
//! - `disableAllHooks: true` at the top of a hook file skips that file;
//! - an unknown event is ignored; an entry Copilot cannot use (an unknown `type`, a
//!   `matcher` that does not compile, an `env` value that is not a string, a `timeoutSec`
//!   that is not a number) is skipped with its siblings kept;
//! - an item holding a `hooks` array is a group (Claude Code's nesting, accepted in both
//!   dialects): its `matcher` applies to each of its hooks;
//! - `bash` wins over `command`; `exec` with `args` runs without a shell.
//!
//! A settings file (`.github/copilot/settings.json`, `~/.copilot/settings.json`) holds hooks
//! inline under `hooks`: there any entry error rejects the whole `hooks` field (documented).
//! The project's `disableAllHooks` is a switch over the non-managed files
//! ([`SwitchRule::Hooks`]); the user's skips that file's own hooks only, as a hook file's does
//! (observed with Copilot CLI 1.0.102).

use std::{path::Path, sync::Arc, time::Duration};

use hooks_json::{Kind, Node};
use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookId, OnFailure,
    ParseResult, ParsedSource, PolicySwitch, Severity, SourcePolicy, SwitchRule,
};
use serde_json::{Map, Value};

use crate::{
    CopilotCodec,
    events::{CopilotEvent, DEFAULT_TIMEOUT, Dialect},
    matcher::{self, MAX_MATCHER_LEN, MatcherProblem, Pattern},
};

/// The largest document read.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// The key that switches hooks off: in a hook file, that file; in a settings file, every
/// non-managed hook.
pub const DISABLE_ALL_HOOKS: &str = "disableAllHooks";

/// The policy key that lets only managed (policy) hooks run.
pub const ALLOW_MANAGED_HOOKS_ONLY: &str = "allowManagedHooksOnly";

/// The `native` key holding the folder of the hook's file (`COPILOT_HOOK_DIR`).
pub const NATIVE_HOOK_DIR: &str = "hookDir";

/// The shell Copilot runs `bash` and `command` entries with.
pub const SHELL: &str = "bash";

/// The largest `timeoutSec` kept, in seconds (a larger one is clamped).
pub const MAX_TIMEOUT_SECS: f64 = 24.0 * 3600.0;

/// Keys of an entry Copilot reads.
const ENTRY_KEYS: [&str; 14] = [
    "type",
    "bash",
    "powershell",
    "command",
    "exec",
    "args",
    "cwd",
    "env",
    "timeoutSec",
    "timeout",
    "matcher",
    "url",
    "headers",
    "allowedEnvVars",
];

/// How a document holds its hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A hook file (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`, a policy file).
    HookFile,
    /// A project settings file with inline `hooks` (`.github/copilot/settings.json`,
    /// `settings.local.json`): its `disableAllHooks` switches every non-managed hook off.
    Settings,
    /// The user's settings file (`~/.copilot/settings.json`): inline `hooks` as a settings
    /// file's, but its `disableAllHooks` skips only its own hooks, as in a hook file
    /// (observed with Copilot CLI 1.0.102: the user's hook files and the repository's still
    /// ran).
    UserSettings,
    /// A plugin's manifest (`plugin.json` in one of its four places): its `hooks`, inline, as
    /// a settings file's (observed with 1.0.102: an object of events ran, a hook file's
    /// `{version, hooks}` there did not); a path or a list of paths there names hook files
    /// and holds none. Nothing else of it is read.
    PluginManifest,
}

impl DocumentKind {
    /// The kind of the file at `path`, by its name (a settings file is taken for the
    /// project's: the name does not say whose it is).
    pub fn of(path: &Path) -> DocumentKind {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let in_hooks_dir = path.parent().and_then(Path::file_name).is_some_and(|d| d == "hooks");
        if !in_hooks_dir && (name == "settings.json" || name == "settings.local.json") {
            DocumentKind::Settings
        } else {
            DocumentKind::HookFile
        }
    }
}

struct Reader<'a> {
    path: &'a Path,
    strict: bool,
    diagnostics: Vec<HookDiagnostic>,
    definitions: Vec<HookDefinition>,
    hook: Option<String>,
    skipped: u32,
    order: u32,
}

/// Parses a Copilot CLI hook document; [`DocumentKind::of`] the path says whether it is a
/// hook file or a settings file.
///
/// ```
/// use std::path::Path;
/// let text = br#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./check.sh"}]}}"#;
/// let parsed = hooks_format_copilot::parse(text, Path::new("/repo/.github/hooks/a.json")).unwrap();
/// assert_eq!(parsed.definitions[0].native_event, "preToolUse");
/// ```
pub fn parse(bytes: &[u8], path: &Path) -> ParseResult {
    parse_as(bytes, path, DocumentKind::of(path))
}

/// The variables Copilot CLI sets to a plugin's folder for its hooks (observed with 1.0.102:
/// both, to the marketplace's own folder for a plugin of a local marketplace).
pub const PLUGIN_ROOT_VARS: [&str; 2] = ["COPILOT_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"];

/// Parses a file of a Copilot CLI plugin's that holds hooks as Copilot CLI loads it: a hook
/// file (`hooks.json` or `hooks/hooks.json` in the plugin's folder, or a file its manifest's
/// `hooks` names) or its manifest (`plugin.json`, whose `hooks` may be inline:
/// [`DocumentKind::PluginManifest`]). Its entries run in the plugin's folder (observed with
/// 1.0.102: `$PWD` was the plugin's folder, also for `./a/b/gate.json` named by the manifest),
/// with the plugin's folder in place of the variables Copilot CLI sets to it
/// ([`PLUGIN_ROOT_VARS`]). The plugin's folder is `base`, or, without one, the file's folder
/// (the folder of `hooks/`, of `.plugin/` or `.claude-plugin/`, of `.github/plugin/`). Copilot
/// CLI runs these hooks itself while the plugin is on; the engine never does: every
/// definition is disabled, listed with a note (`plugin_hooks`), and the scripts they name are
/// protected by the guard.
///
/// ```
/// # use std::path::Path;
/// let file = br#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./gate.sh"}]}}"#;
/// let parsed = hooks_format_copilot::parse_plugin_hooks(file, Path::new("/m/p/hooks.json"), None).unwrap();
/// assert!(!parsed.definitions[0].enabled);
/// assert_eq!(parsed.definitions[0].cwd.as_deref(), Some("/m/p"));
/// let named = hooks_format_copilot::parse_plugin_hooks(file, Path::new("/m/p/a/b/gate.json"), Some(Path::new("/m/p"))).unwrap();
/// assert_eq!(named.definitions[0].cwd.as_deref(), Some("/m/p"));
/// ```
pub fn parse_plugin_hooks(bytes: &[u8], path: &Path, base: Option<&Path>) -> ParseResult {
    let folder = base.unwrap_or_else(|| plugin_folder(path));
    let manifest = crate::LAYOUT.plugin_manifests.iter().any(|m| folder.join(m) == path);
    let kind = if manifest { DocumentKind::PluginManifest } else { DocumentKind::HookFile };
    let mut parsed = parse_as(bytes, path, kind)?;
    let root = folder.to_string_lossy();
    let hydrate = |text: &str| {
        PLUGIN_ROOT_VARS
            .iter()
            .fold(text.to_owned(), |t, var| hooks_schema::replace_shell_variable(&t, var, &root))
    };
    for d in &mut parsed.definitions {
        match &mut d.command {
            HookCommand::Shell { script, .. } => *script = hydrate(script),
            HookCommand::Exec { program, args } => {
                *program = hydrate(program);
                args.iter_mut().for_each(|a| *a = hydrate(a));
            }
            _ => {}
        }
        d.cwd = Some(match d.cwd.take() {
            Some(cwd) if Path::new(&cwd).is_absolute() => cwd,
            Some(cwd) => folder.join(cwd).to_string_lossy().into_owned(),
            None => root.clone().into_owned(),
        });
    }
    hooks_schema::plugin_hooks_run_by("Copilot CLI", folder, path, &mut parsed);
    Ok(parsed)
}

/// A plugin's folder, from a file of it found by its own name: the folder of `hooks/`
/// (`hooks/hooks.json`), of `.plugin/` or `.claude-plugin/` (`plugin.json` there), of
/// `.github/plugin/`, or the file's own folder (`hooks.json`, `plugin.json`).
fn plugin_folder(path: &Path) -> &Path {
    fn up(p: &Path) -> &Path {
        p.parent().unwrap_or(Path::new(""))
    }
    let parent = path.parent().unwrap_or(Path::new(""));
    match parent.file_name().and_then(|n| n.to_str()) {
        Some("hooks" | ".plugin" | ".claude-plugin") => up(parent),
        Some("plugin") if up(parent).file_name().is_some_and(|n| n == ".github") => up(up(parent)),
        _ => parent,
    }
}

/// [`parse`] with the document kind given.
pub fn parse_as(bytes: &[u8], path: &Path, kind: DocumentKind) -> ParseResult {
    let mut r = Reader {
        path,
        strict: kind != DocumentKind::HookFile,
        diagnostics: Vec::new(),
        definitions: Vec::new(),
        hook: None,
        skipped: 0,
        order: 0,
    };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        r.note(
            Severity::Error,
            format!(
                "the file is {} bytes, above the cap of {MAX_DOCUMENT_BYTES} bytes",
                bytes.len()
            ),
            "too_large",
            1,
            1,
        );
        return Err(r.diagnostics);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let line = 1 + bytes
                .get(..e.valid_up_to())
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            r.note(
                Severity::Error,
                "Invalid JSON: the file is not UTF-8; Copilot CLI does not load it".to_owned(),
                "invalid_json",
                u32::try_from(line).unwrap_or(u32::MAX),
                1,
            );
            return Err(r.diagnostics);
        }
    };
    let root = match hooks_json::parse_as(text, hooks_json::Dialect::SerdeJson) {
        Ok(root) => root,
        Err(e) => {
            r.note(
                Severity::Error,
                format!("Invalid JSON: {}; Copilot CLI does not load this file", e.message),
                "invalid_json",
                e.line,
                e.column,
            );
            return Err(r.diagnostics);
        }
    };
    if root.members().is_none() {
        r.note(
            Severity::Error,
            format!(
                "the file is {}, not a JSON object; Copilot CLI does not load it",
                root.type_name()
            ),
            "invalid_hooks",
            root.line,
            root.column,
        );
        return Err(r.diagnostics);
    }
    let mut settings = Map::new();
    let mut policy = SourcePolicy::default();
    let disabled = match root.get(DISABLE_ALL_HOOKS).map(|m| (&m.value.kind, m)) {
        Some((Kind::Bool(b), _)) => {
            settings.insert(DISABLE_ALL_HOOKS.to_owned(), Value::Bool(*b));
            *b
        }
        Some((_, m)) => {
            r.note(
                Severity::Warning,
                format!(
                    "`{DISABLE_ALL_HOOKS}` should be a boolean, found {}; it is ignored",
                    m.value.type_name()
                ),
                "invalid_value",
                m.value.line,
                m.value.column,
            );
            false
        }
        None => false,
    };
    if let Some(m) = root.get(ALLOW_MANAGED_HOOKS_ONLY)
        && let Kind::Bool(b) = m.value.kind
    {
        settings.insert(ALLOW_MANAGED_HOOKS_ONLY.to_owned(), Value::Bool(b));
        policy.switches.push(PolicySwitch {
            key: ALLOW_MANAGED_HOOKS_ONLY,
            rule: SwitchRule::ManagedOnly,
            on: b,
        });
    }
    if kind == DocumentKind::HookFile {
        r.version(&root)?;
    } else if kind == DocumentKind::Settings && root.get(DISABLE_ALL_HOOKS).is_some() {
        policy.switches.push(PolicySwitch {
            key: DISABLE_ALL_HOOKS,
            rule: SwitchRule::Hooks,
            on: !disabled,
        });
    }
    match root.get("hooks") {
        Some(m) if kind == DocumentKind::PluginManifest && m.value.members().is_none() => {
            // A path or a list of paths names other files; anything else is a mistake that
            // would otherwise read as holding no hooks, with nothing said.
            if !m.value.is_string_or_strings() {
                r.note(
                    Severity::Warning,
                    format!(
                        "`hooks` must be a hooks section, a path or a list of paths, found {}",
                        m.value.type_name()
                    ),
                    "invalid_value",
                    m.value.line,
                    m.value.column,
                );
            }
        }
        None => {
            if kind == DocumentKind::HookFile {
                r.note(
                    Severity::Info,
                    "the file has no `hooks`".to_owned(),
                    "no_hooks",
                    root.line,
                    root.column,
                );
            }
        }
        Some(m) => r.hooks(&m.value)?,
    }
    if r.strict && r.skipped > 0 && !r.definitions.is_empty() {
        r.definitions.clear();
        r.note(
            Severity::Error,
            "an entry of the inline `hooks` is invalid, and Copilot CLI then rejects the whole `hooks` field of a settings file: none of its hooks runs".to_owned(),
            "invalid_hooks",
            root.line,
            root.column,
        );
    }
    if disabled && kind != DocumentKind::Settings && kind != DocumentKind::PluginManifest {
        let n = r.definitions.len();
        r.definitions.clear();
        if let Some(m) = root.get(DISABLE_ALL_HOOKS) {
            r.note(
                Severity::Info,
                format!("`{DISABLE_ALL_HOOKS}: true`: Copilot CLI skips this file ({n} hooks not loaded)"),
                "disabled",
                m.line,
                m.column,
            );
        }
    }
    Ok(ParsedSource { definitions: r.definitions, diagnostics: r.diagnostics, settings, policy })
}

impl Reader<'_> {
    fn note(&mut self, severity: Severity, message: String, code: &str, line: u32, column: u32) {
        let d = HookDiagnostic::new(severity, message)
            .in_file(self.path)
            .at(line, column)
            .with_code(code);
        let d = match &self.hook {
            Some(id) => d.for_hook(id.clone()),
            None => d,
        };
        self.diagnostics.push(d);
    }

    /// An entry Copilot skips (its siblings load).
    fn skip(&mut self, message: String, code: &str, at: &Node) {
        self.skipped += 1;
        let message = format!("{message} — Copilot CLI skips this hook");
        self.note(Severity::Warning, message, code, at.line, at.column);
    }

    fn version(&mut self, root: &Node) -> Result<(), Vec<HookDiagnostic>> {
        match root.get("version") {
            None => {
                self.note(
                    Severity::Info,
                    "`version` is missing; the documentation requires `1` but Copilot CLI 1.0.102 loads the file".to_owned(),
                    "no_version",
                    root.line,
                    root.column,
                );
                Ok(())
            }
            Some(m) if m.value.to_value() == 1 => Ok(()),
            Some(m) => {
                self.note(
                    Severity::Error,
                    format!(
                        "version: Invalid hook config version ({}, expected the number 1); Copilot CLI does not load this file",
                        hooks_schema::quoted_value(m.value.type_name(), &m.value.to_value().to_string())
                    ),
                    "invalid_version",
                    m.value.line,
                    m.value.column,
                );
                Err(std::mem::take(&mut self.diagnostics))
            }
        }
    }

    fn hooks(&mut self, node: &Node) -> Result<(), Vec<HookDiagnostic>> {
        if node.members().is_none() {
            self.note(
                Severity::Error,
                format!(
                    "`hooks` is {}, not an object; Copilot CLI does not load this file",
                    node.type_name()
                ),
                "invalid_hooks",
                node.line,
                node.column,
            );
            return Err(std::mem::take(&mut self.diagnostics));
        }
        for m in node.entries() {
            let Some((event, dialect)) = CopilotEvent::from_name(&m.key) else {
                self.note(
                    Severity::Warning,
                    format!("`{}` is not a Copilot CLI hook event; Copilot CLI ignores it", m.key),
                    "unknown_event",
                    m.line,
                    m.column,
                );
                continue;
            };
            let Some(items) = m.value.items() else {
                self.note(
                    Severity::Error,
                    format!("hooks.{}: hook event value must be an array; Copilot CLI does not load this file", m.key),
                    "invalid_hooks",
                    m.value.line,
                    m.value.column,
                );
                return Err(std::mem::take(&mut self.diagnostics));
            };
            if event.canonical().is_none() {
                self.note(
                    Severity::Warning,
                    format!("event `{}` has no canonical counterpart in this engine; its hooks are skipped", m.key),
                    "capability_gap",
                    m.line,
                    m.column,
                );
                continue;
            }
            for (i, item) in items.iter().enumerate() {
                let id = format!("{}[{i}]", m.key);
                match item.get("hooks") {
                    Some(inner) if item.get("bash").is_none() && item.get("command").is_none() => {
                        self.group(event, dialect, &id, item, &inner.value);
                    }
                    _ => {
                        self.hook = Some(id.clone());
                        let def = self.entry(event, dialect, &id, item, None);
                        self.hook = None;
                        self.definitions.extend(def);
                    }
                }
            }
        }
        Ok(())
    }

    fn group(
        &mut self,
        event: CopilotEvent,
        dialect: Dialect,
        id: &str,
        group: &Node,
        inner: &Node,
    ) {
        let Some(handlers) = inner.items() else {
            self.hook = Some(id.to_owned());
            self.skip(
                format!("`{id}.hooks` must be an array, found {}", inner.type_name()),
                "invalid_hooks",
                inner,
            );
            self.hook = None;
            return;
        };
        let matcher = group.get("matcher").map(|m| &m.value);
        for (j, h) in handlers.iter().enumerate() {
            let hid = format!("{id}[{j}]");
            self.hook = Some(hid.clone());
            let def = self.entry(event, dialect, &hid, h, matcher);
            self.hook = None;
            self.definitions.extend(def);
        }
    }

    fn string<'n>(&mut self, node: &'n Node, key: &str) -> Result<Option<&'n str>, ()> {
        match node.get(key) {
            None => Ok(None),
            Some(m) => match &m.value.kind {
                Kind::String(s) => Ok(Some(s)),
                _ => {
                    self.skip(
                        format!("{key} must be a string, found {}", m.value.type_name()),
                        "invalid_value",
                        &m.value,
                    );
                    Err(())
                }
            },
        }
    }

    #[allow(clippy::too_many_lines)]
    fn entry(
        &mut self,
        event: CopilotEvent,
        dialect: Dialect,
        id: &str,
        node: &Node,
        group_matcher: Option<&Node>,
    ) -> Option<HookDefinition> {
        if node.members().is_none() {
            self.skip(
                format!("the hook must be an object, found {}", node.type_name()),
                "invalid_handler",
                node,
            );
            return None;
        }
        let kind = match node.get("type").map(|m| &m.value) {
            None => "command".to_owned(),
            Some(Node { kind: Kind::String(k), .. })
                if ["command", "http", "prompt"].contains(&k.as_str()) =>
            {
                k.clone()
            }
            Some(n) => {
                self.skip("type: Invalid hook type".to_owned(), "invalid_handler", n);
                return None;
            }
        };
        if kind != "command" {
            self.note(
                Severity::Warning,
                format!("`type: {kind}` hooks are not run by this engine (capability gap); the hook is skipped"),
                "capability_gap",
                node.line,
                node.column,
            );
            return None;
        }
        for m in node.members().unwrap_or_default() {
            if !ENTRY_KEYS.contains(&m.key.as_str()) && m.key != "hooks" {
                self.note(
                    Severity::Info,
                    format!("`{}` is not a hook field; Copilot CLI ignores it", m.key),
                    "unknown_key",
                    m.line,
                    m.column,
                );
            }
        }
        let bash = self.string(node, "bash").ok()?;
        let command = self.string(node, "command").ok()?;
        let powershell = self.string(node, "powershell").ok()?;
        let exec = self.string(node, "exec").ok()?;
        let program = if let Some(script) = bash.or(command).filter(|s| !s.trim().is_empty()) {
            HookCommand::Shell { script: script.to_owned(), shell: Some(SHELL.to_owned()) }
        } else if let Some(program) = exec.filter(|s| !s.is_empty()) {
            let args = match node.get("args").map(|m| &m.value) {
                None => Vec::new(),
                Some(a) => match a.items() {
                    Some(items) if items.iter().all(|i| i.as_str().is_some()) => {
                        items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect()
                    }
                    _ => {
                        self.skip(
                            "args must be an array of strings".to_owned(),
                            "invalid_value",
                            a,
                        );
                        return None;
                    }
                },
            };
            HookCommand::Exec { program: program.to_owned(), args }
        } else if powershell.is_some() {
            self.note(
                Severity::Warning,
                "the hook has only a `powershell` command, which Copilot CLI runs on Windows only; the hook is skipped here".to_owned(),
                "platform",
                node.line,
                node.column,
            );
            return None;
        } else {
            self.skip(
                "the hook has no `bash`, `command` or `exec` to run".to_owned(),
                "invalid_handler",
                node,
            );
            return None;
        };
        let matcher_node = node.get("matcher").map(|m| &m.value).or(group_matcher);
        let (text, pattern) = match matcher_node {
            None => (String::new(), Pattern::All),
            Some(mn) => match &mn.kind {
                Kind::String(t) if t.len() > MAX_MATCHER_LEN => {
                    self.skip(
                        format!("the matcher is longer than {MAX_MATCHER_LEN} bytes"),
                        "invalid_matcher",
                        mn,
                    );
                    return None;
                }
                Kind::String(t) => match Pattern::compile(event, dialect, t) {
                    Ok(p) => (t.clone(), p),
                    Err(MatcherProblem::Ignored) => {
                        self.note(
                            Severity::Info,
                            format!("`{}` passes nothing to match; Copilot CLI ignores the matcher (the hook runs every time)", event.name(dialect)),
                            "matcher_ignored",
                            mn.line,
                            mn.column,
                        );
                        (String::new(), Pattern::All)
                    }
                    Err(MatcherProblem::Invalid(why)) => {
                        self.skip(
                            format!(
                                "Invalid matcher regex in {} hook: `{t}` ({why})",
                                event.name(dialect)
                            ),
                            "invalid_matcher",
                            mn,
                        );
                        return None;
                    }
                },
                _ => {
                    self.skip(
                        format!("matcher must be a string, found {}", mn.type_name()),
                        "invalid_matcher",
                        mn,
                    );
                    return None;
                }
            },
        };
        let cwd = self.string(node, "cwd").ok()?.filter(|c| !c.is_empty()).map(str::to_owned);
        let env = self.env(node)?;
        let timeout = self.timeout(node)?;
        let mut native = Map::new();
        if let Some(dir) = self.path.parent() {
            native.insert(NATIVE_HOOK_DIR.to_owned(), Value::String(dir.display().to_string()));
        }
        let hook_id = HookId::new(id).ok()?;
        let order = self.order;
        self.order = self.order.saturating_add(1);
        Some(HookDefinition {
            id: hook_id,
            event: event.canonical()?,
            native_event: event.name(dialect).to_owned(),
            matcher: matcher::build(event, &text, pattern),
            command: program,
            cwd,
            env,
            timeout,
            on_failure: OnFailure::Warn,
            mode: ExecutionMode::Blocking,
            delivery: Delivery::BestEffort,
            detach: false,
            enabled: true,
            codec: Arc::new(CopilotCodec),
            order,
            line: Some(node.line),
            column: Some(node.column),
            description: None,
            native,
        })
    }

    /// `env`: an object of strings; any other value makes Copilot skip the hook (observed:
    /// `env values must be strings — hook will be skipped`).
    fn env(&mut self, node: &Node) -> Option<Vec<(String, String)>> {
        let Some(m) = node.get("env") else { return Some(Vec::new()) };
        if m.value.members().is_none() {
            self.skip(
                format!("env must be an object, found {}", m.value.type_name()),
                "invalid_value",
                &m.value,
            );
            return None;
        }
        let mut out = Vec::new();
        for e in m.value.entries() {
            match &e.value.kind {
                Kind::String(s)
                    if !s.contains('\0') && !e.key.contains('\0') && !e.key.contains('=') =>
                {
                    if s.contains('$') {
                        self.note(
                            Severity::Info,
                            format!("env[\"{}\"] holds `$`: passed as written, as Copilot CLI 1.0.102 passes it (its documentation says env values expand variables; the shell of a `bash` command still expands `$VAR` in the command)", e.key),
                            "env_expansion",
                            e.value.line,
                            e.value.column,
                        );
                    }
                    out.push((e.key.clone(), s.clone()));
                }
                Kind::String(_) => {
                    self.skip(
                        format!("env[\"{}\"] holds a NUL byte or `=`", e.key),
                        "invalid_value",
                        &e.value,
                    );
                    return None;
                }
                _ => {
                    self.skip(
                        format!("env[\"{}\"]: env values must be strings", e.key),
                        "invalid_value",
                        &e.value,
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    /// `timeoutSec` in seconds (default 30); `timeout` is its alias, read only when
    /// `timeoutSec` is absent.
    fn timeout(&mut self, node: &Node) -> Option<Duration> {
        let (key, m) = match (node.get("timeoutSec"), node.get("timeout")) {
            (Some(m), _) => ("timeoutSec", m),
            (None, Some(m)) => ("timeout", m),
            (None, None) => return Some(DEFAULT_TIMEOUT),
        };
        let Kind::Number(n) = &m.value.kind else {
            self.skip(format!("{key}: {key} must be a number"), "invalid_timeout", &m.value);
            return None;
        };
        let secs = n.as_f64().unwrap_or(f64::NAN);
        if !(secs > 0.0 && secs.is_finite()) {
            self.note(
                Severity::Warning,
                format!("`{key}: {n}` is not a positive number of seconds; the default of 30 seconds is used"),
                "invalid_timeout",
                m.value.line,
                m.value.column,
            );
            return Some(DEFAULT_TIMEOUT);
        }
        if secs > MAX_TIMEOUT_SECS {
            self.note(
                Severity::Warning,
                format!("`{key}: {n}` seconds is clamped to {MAX_TIMEOUT_SECS} seconds"),
                "invalid_timeout",
                m.value.line,
                m.value.column,
            );
        }
        Some(Duration::from_secs_f64(secs.min(MAX_TIMEOUT_SECS)))
    }
}

#[cfg(test)]
mod tests;
