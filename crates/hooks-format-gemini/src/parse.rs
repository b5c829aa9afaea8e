//! Reads a Gemini CLI settings document into hook definitions and the policy it carries.
//!
//! Sans-IO: bytes in, definitions, diagnostics and policy out; the path only names the
//! file in diagnostics. The acceptance rules are Gemini CLI 0.61.0's (`loadSettings`,
//! `HookRegistry.processHooksConfiguration`, `validateHookConfig`), not its documentation's:
//! what Gemini CLI discards is skipped here with a diagnostic, what it refuses to start with
//! rejects the file, and what it runs, runs. `specs/formats/gemini.md` lists each rule.

use std::{path::Path, sync::Arc, time::Duration};

use hooks_json::{Dialect as JsonDialect, Kind, Member, Node};
use hooks_schema::{
    Delivery, DisabledNames, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookId,
    OnFailure, ParseResult, ParsedSource, PolicySwitch, Severity, SourcePolicy, SwitchRule,
};
use serde_json::{Map, Value};

use crate::{
    GeminiCodec,
    events::{DEFAULT_TIMEOUT, GeminiEvent, MatchField},
    js,
    matcher::{self, MAX_MATCHER_LEN, Pattern, Remark},
    problem::ConfigProblem,
};

/// The largest settings document read.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// The settings key that switches Gemini CLI's hooks on or off.
pub const HOOKS_ENABLED: &str = "hooksConfig.enabled";

/// The settings key listing hook names (a hook's `name`, else its `command`) that never run.
pub const HOOKS_DISABLED: &str = "hooksConfig.disabled";

/// The settings key of Gemini CLI's own folder-trust gate (listed, not acted on: the
/// engine's trust decides, `specs/formats/gemini.md`).
pub const FOLDER_TRUST: &str = "security.folderTrust.enabled";

/// The `native` key holding a hook's `name`.
pub const NATIVE_NAME: &str = "name";

/// The `native` key set on hooks of a group with `sequential: true`.
pub const NATIVE_SEQUENTIAL: &str = "sequential";

/// The `native` key set on an extension's hook whose command, folder or environment keeps a
/// `${NAME}` after the extension variables are replaced ([`parse_extension_hooks`]): Gemini
/// CLI fills it from the extension's settings, which, in a trusted workspace, include every
/// key of the workspace's own `.env` (0.61's `getScopedEnvContents` with its default
/// `experimental.extensionConfig`), so that file decides what the hook runs.
pub const NATIVE_WORKSPACE_ENV: &str = "workspace_env";

/// The shell Gemini CLI runs a command with on Unix (`bash -c <command>`).
pub const SHELL: &str = "bash";

/// Keys of `hooks` that are settings, not events; Gemini CLI skips them silently.
const HOOKS_CONFIG_FIELDS: [&str; 3] = ["enabled", "disabled", "notifications"];

/// Keys of a handler Gemini CLI reads.
const HANDLER_KEYS: [&str; 6] = ["type", "command", "name", "timeout", "description", "env"];

struct Reader<'a> {
    path: &'a Path,
    /// Reading an extension's hook file ([`parse_extension_hooks`]): only its `hooks`, and
    /// no environment expansion (Gemini CLI expands none there).
    extension: bool,
    diagnostics: Vec<HookDiagnostic>,
    definitions: Vec<HookDefinition>,
    disabled: Vec<String>,
    hook: Option<String>,
    order: u32,
}

/// Parses a settings document (`.gemini/settings.json`, `~/.gemini/settings.json`, the
/// system `settings.json` or `system-defaults.json`).
///
/// A document Gemini CLI refuses to start with (not JSON after comments are removed, not a
/// JSON object, too large) is rejected with the diagnostics saying why; otherwise every
/// hook Gemini CLI would run is a definition, everything it discards is a diagnostic, and
/// `hooksConfig.enabled` is the policy switch.
pub fn parse(bytes: &[u8], path: &Path) -> ParseResult {
    parse_document(bytes, path, false)
}

/// [`parse`], or, for `extension`, an extension's hook file: its `hooks` alone.
fn parse_document(bytes: &[u8], path: &Path, extension: bool) -> ParseResult {
    let mut r = Reader {
        path,
        extension,
        diagnostics: Vec::new(),
        definitions: Vec::new(),
        disabled: Vec::new(),
        hook: None,
        order: 0,
    };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        let p = ConfigProblem::TooLarge { size: bytes.len(), cap: MAX_DOCUMENT_BYTES };
        r.report(Severity::Error, &p, 1, 1);
        return Err(r.diagnostics);
    }
    // Node decodes the file as UTF-8, invalid bytes becoming U+FFFD.
    let text = String::from_utf8_lossy(bytes);
    let root = match hooks_json::parse_as(&text, JsonDialect::JsonParseAfterStripComments) {
        Ok(root) => root,
        Err(e) => {
            r.report(
                Severity::Error,
                &ConfigProblem::Syntax { message: e.message },
                e.line,
                e.column,
            );
            return Err(r.diagnostics);
        }
    };
    if root.members().is_none() {
        let p = ConfigProblem::RootNotObject { found: root.type_name() };
        r.report(Severity::Error, &p, root.line, root.column);
        return Err(r.diagnostics);
    }
    r.duplicates(&root);
    let mut settings = Map::new();
    let mut policy = SourcePolicy::default();
    if let Some(cfg) = root.get("hooksConfig").filter(|_| !extension) {
        r.hooks_config(&cfg.value, &mut settings, &mut policy);
    }
    if let Some(trust) = root
        .get("security")
        .and_then(|s| s.value.get("folderTrust"))
        .and_then(|f| f.value.get("enabled"))
        .filter(|_| !extension)
    {
        settings.insert(FOLDER_TRUST.to_owned(), trust.value.to_value());
    }
    if let Some(hooks) = root.get("hooks") {
        r.hooks(&hooks.value);
    }
    Ok(ParsedSource { definitions: r.definitions, diagnostics: r.diagnostics, settings, policy })
}

/// Parses an extension's hook file (`<extension>/hooks/hooks.json`, `<extension>` an
/// installed extension's folder under `~/.gemini/extensions/` or the folder a linked one
/// names), which Gemini CLI 0.61 loads itself (`loadExtensionHooks`): its `hooks` as a
/// settings file's, every string's `${extensionPath}` replaced by the extension's folder (the
/// file's grandparent), `${workspacePath}` by `$GEMINI_PROJECT_DIR` (the session's folder, as
/// the guard places it), `${/}` and `${pathSeparator}` by `/`, as `recursivelyHydrateStrings`
/// does in the command, its arguments, its folder and its environment (another `${name}`,
/// an extension setting's, is left as written). Nothing else of the file applies: Gemini CLI
/// reads no `hooksConfig` there and expands no environment variable in it. Every definition
/// is disabled: Gemini CLI runs them, the engine lists them and protects the scripts they
/// name.
pub fn parse_extension_hooks(bytes: &[u8], path: &Path) -> ParseResult {
    let mut parsed = parse_document(bytes, path, true)?;
    if parsed.definitions.is_empty() {
        return Ok(parsed);
    }
    let folder = path.parent().and_then(Path::parent).unwrap_or(Path::new(""));
    let extension_path = folder.to_string_lossy();
    for d in &mut parsed.definitions {
        // Whether a `${NAME}` is left for the settings to fill, once the variables are in.
        let mut names_setting = false;
        let mut hydrate = |text: &mut String| {
            *text = hydrate(text, &extension_path);
            names_setting |= next_placeholder(text).is_some();
        };
        match &mut d.command {
            HookCommand::Shell { script, .. } => hydrate(script),
            HookCommand::Exec { program, args } => {
                hydrate(program);
                args.iter_mut().for_each(&mut hydrate);
            }
            _ => {}
        }
        if let Some(cwd) = &mut d.cwd {
            hydrate(cwd);
        }
        d.env.iter_mut().for_each(|(_, value)| hydrate(value));
        if names_setting {
            d.native.insert(NATIVE_WORKSPACE_ENV.to_owned(), Value::Bool(true));
        }
        d.enabled = false;
    }
    let note = HookDiagnostic::info(format!(
        "Gemini CLI runs the hooks of the extension in {} itself; the engine lists them, never runs them, and protects the scripts they name",
        folder.display()
    ));
    parsed.diagnostics.push(note.in_file(path).with_code("extension_hooks"));
    Ok(parsed)
}

/// The first `${key}` of `text` as Gemini CLI's `/\${(.*?)}/g` finds it: the shortest key on
/// one line (JavaScript's `.` matches no line terminator), as where it starts and the key.
fn next_placeholder(text: &str) -> Option<(usize, &str)> {
    let mut from = 0;
    while let Some(at) = text.get(from..)?.find("${").map(|i| from + i) {
        let after = &text[at + 2..];
        match after.find(['}', '\n', '\r', '\u{2028}', '\u{2029}']) {
            Some(end) if after[end..].starts_with('}') => return Some((at, &after[..end])),
            _ => from = at + 2,
        }
    }
    None
}

/// `text` with Gemini CLI's extension variables replaced ([`parse_extension_hooks`]): each
/// `${key}` ([`next_placeholder`]) whose key is one of them; another is left as written.
fn hydrate(text: &str, extension_path: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, key)) = next_placeholder(rest) {
        let value = match key {
            "extensionPath" => Some(extension_path),
            "workspacePath" => Some("$GEMINI_PROJECT_DIR"),
            "/" | "pathSeparator" => Some("/"),
            _ => None,
        };
        let end = at + 2 + key.len() + 1;
        out.push_str(&rest[..at]);
        out.push_str(value.unwrap_or(&rest[at..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

impl Reader<'_> {
    fn diag(
        &self,
        severity: Severity,
        message: String,
        code: &str,
        line: u32,
        column: u32,
    ) -> HookDiagnostic {
        let d = HookDiagnostic::new(severity, message)
            .in_file(self.path)
            .at(line, column)
            .with_code(code);
        match &self.hook {
            Some(id) => d.for_hook(id.clone()),
            None => d,
        }
    }

    fn report(&mut self, severity: Severity, p: &ConfigProblem, line: u32, column: u32) {
        let d = self.diag(severity, p.to_string(), p.code(), line, column);
        self.diagnostics.push(d);
    }

    fn note(&mut self, severity: Severity, message: String, code: &str, line: u32, column: u32) {
        let d = self.diag(severity, message, code, line, column);
        self.diagnostics.push(d);
    }

    fn wrong_type(
        &mut self,
        key: &str,
        expected: &'static str,
        node: &Node,
        consequence: &'static str,
    ) {
        let p = ConfigProblem::WrongType {
            key: key.to_owned(),
            expected,
            found: node.type_name(),
            consequence,
        };
        self.report(Severity::Warning, &p, node.line, node.column);
    }

    /// Warns about every key given twice in `node` and the objects below it that matter.
    fn duplicates(&mut self, node: &Node) {
        let Some(members) = node.members() else { return };
        for (i, m) in members.iter().enumerate() {
            if members.get(..i).unwrap_or_default().iter().any(|o| o.key == m.key) {
                self.report(
                    Severity::Warning,
                    &ConfigProblem::DuplicateKey { key: m.key.clone() },
                    m.line,
                    m.column,
                );
            }
        }
    }

    fn hooks_config(
        &mut self,
        node: &Node,
        settings: &mut Map<String, Value>,
        policy: &mut SourcePolicy,
    ) {
        if node.members().is_none() {
            return self.wrong_type("hooksConfig", "an object", node, "its switches are ignored");
        }
        self.duplicates(node);
        if let Some(m) = node.get("enabled") {
            let v = m.value.to_value();
            if !matches!(v, Value::Null) {
                let on = js::truthy(&v);
                if !v.is_boolean() {
                    self.note(
                        Severity::Warning,
                        format!(
                            "`hooksConfig.enabled` should be a boolean, found {}; Gemini CLI reads it as {on}",
                            m.value.type_name()
                        ),
                        "invalid_value",
                        m.value.line,
                        m.value.column,
                    );
                }
                policy.switches.push(PolicySwitch {
                    key: HOOKS_ENABLED,
                    rule: SwitchRule::Hooks,
                    on,
                });
                settings.insert(HOOKS_ENABLED.to_owned(), Value::Bool(on));
            }
        }
        if let Some(m) = node.get("disabled") {
            match m.value.items() {
                Some(items) => {
                    for item in items {
                        match item.as_str() {
                            Some(s) => self.disabled.push(s.to_owned()),
                            None => self.wrong_type(
                                "hooksConfig.disabled[]",
                                "a string",
                                item,
                                "it disables nothing",
                            ),
                        }
                    }
                    let list = self.disabled.iter().cloned().map(Value::String).collect();
                    settings.insert(HOOKS_DISABLED.to_owned(), Value::Array(list));
                    // Gemini CLI merges the lists of every settings layer by union and
                    // applies the result to every hook: the registry does the same across
                    // the sources of the format (`GeminiCodec::disable_name`).
                    policy.disables =
                        Some(DisabledNames { key: HOOKS_DISABLED, names: self.disabled.clone() });
                }
                None => self.wrong_type(
                    "hooksConfig.disabled",
                    "an array of hook names",
                    &m.value,
                    "it disables nothing here",
                ),
            }
        }
    }

    fn hooks(&mut self, node: &Node) {
        if matches!(node.kind, Kind::Null) {
            return;
        }
        if node.members().is_none() {
            let p = ConfigProblem::HooksNotObject { found: node.type_name() };
            return self.report(Severity::Warning, &p, node.line, node.column);
        }
        self.duplicates(node);
        for m in node.entries() {
            if HOOKS_CONFIG_FIELDS.contains(&m.key.as_str()) {
                self.note(
                    Severity::Info,
                    format!("`hooks.{}` is not an event and Gemini CLI ignores it here; the switch belongs in `hooksConfig`", m.key),
                    "ignored_key",
                    m.line,
                    m.column,
                );
                continue;
            }
            let Some(event) = GeminiEvent::from_name(&m.key) else {
                self.report(
                    Severity::Warning,
                    &ConfigProblem::UnknownEvent { name: m.key.clone() },
                    m.line,
                    m.column,
                );
                continue;
            };
            if event.canonical().is_none() {
                self.report(
                    Severity::Warning,
                    &ConfigProblem::EventGap { name: m.key.clone() },
                    m.line,
                    m.column,
                );
                continue;
            }
            self.event(event, m);
        }
    }

    fn event(&mut self, event: GeminiEvent, m: &Member) {
        let Some(groups) = m.value.items() else {
            return self.wrong_type(
                &m.key,
                "an array of hook groups",
                &m.value,
                "the event's hooks are skipped",
            );
        };
        for (gi, group) in groups.iter().enumerate() {
            self.group(event, gi, group);
        }
    }

    fn group(&mut self, event: GeminiEvent, gi: usize, group: &Node) {
        let label = format!("{}[{gi}]", event.as_str());
        let Some(handlers) = group.get("hooks").and_then(|h| h.value.items()) else {
            let found = group.get("hooks").map_or(group.type_name(), |h| h.value.type_name());
            let p = ConfigProblem::WrongType {
                key: format!("{label}.hooks"),
                expected: "an array of hooks",
                found: if group.members().is_some() && group.get("hooks").is_none() {
                    "nothing"
                } else {
                    found
                },
                consequence: "Gemini CLI discards the group",
            };
            return self.report(Severity::Warning, &p, group.line, group.column);
        };
        self.duplicates(group);
        for m in group.members().unwrap_or_default() {
            if !matches!(m.key.as_str(), "matcher" | "sequential" | "hooks") {
                self.note(
                    Severity::Info,
                    format!("`{}` is not a hook group field; Gemini CLI ignores it", m.key),
                    "unknown_key",
                    m.line,
                    m.column,
                );
            }
        }
        let (text, pattern) = match group.get("matcher") {
            None => (String::new(), Pattern::All),
            Some(mm) => match &mm.value.kind {
                Kind::String(t) => {
                    if t.len() > MAX_MATCHER_LEN {
                        let p = ConfigProblem::MatcherTooLong { cap: MAX_MATCHER_LEN };
                        return self.report(Severity::Error, &p, mm.value.line, mm.value.column);
                    }
                    let (pattern, remark) = Pattern::compile(event, t);
                    if matches!(pattern, Pattern::Exact(_))
                        && event.match_field() != MatchField::ToolName
                        && t.contains(['|', '*', '^', '$', '(', '['])
                    {
                        self.note(
                            Severity::Warning,
                            format!("`{}` compares its matcher exactly: `{t}` is no pattern here and matches only itself", event.as_str()),
                            "matcher_exact",
                            mm.value.line,
                            mm.value.column,
                        );
                    }
                    if let Some(remark) = remark {
                        self.remark(event, t, &remark, &mm.value);
                    }
                    self.env_expansion("matcher", t, &mm.value);
                    (t.clone(), pattern)
                }
                // Falsy values are no matcher at all (`if (!entry.matcher)`).
                _ if !js::truthy(&mm.value.to_value()) => (String::new(), Pattern::All),
                _ if event.match_field() == MatchField::None => {
                    self.remark(event, "", &Remark::Ignored, &mm.value);
                    (String::new(), Pattern::All)
                }
                _ => {
                    let p = ConfigProblem::MatcherType { found: mm.value.type_name() };
                    return self.report(Severity::Error, &p, mm.value.line, mm.value.column);
                }
            },
        };
        let sequential = group.get("sequential").is_some_and(|s| s.value.kind == Kind::Bool(true));
        for (hi, h) in handlers.iter().enumerate() {
            self.hook = Some(format!("{label}[{hi}]"));
            let def = self.handler(event, gi, hi, h, &text, &pattern, sequential);
            self.hook = None;
            if let Some(def) = def {
                self.definitions.push(def);
            }
        }
    }

    fn remark(&mut self, event: GeminiEvent, text: &str, remark: &Remark, at: &Node) {
        let (severity, message, code) = match remark {
            Remark::InvalidRegex(why) => (
                Severity::Warning,
                format!(
                    "matcher `{text}` is not a valid JavaScript regular expression ({why}); Gemini CLI compares the tool name with it exactly"
                ),
                "matcher_exact",
            ),
            Remark::Unsupported(why) => (
                Severity::Warning,
                format!(
                    "matcher `{text}` is valid JavaScript but this engine cannot reproduce it ({why}); the group matches every tool"
                ),
                "matcher_unsupported",
            ),
            Remark::Ignored => (
                Severity::Info,
                format!(
                    "`{}` passes no matcher context; Gemini CLI ignores the matcher",
                    event.as_str()
                ),
                "matcher_ignored",
            ),
        };
        self.note(severity, message, code, at.line, at.column);
    }

    /// Gemini CLI replaces `$VAR`, `${VAR}` and `${VAR:-default}` in every settings string
    /// with its own environment when it loads the file; this engine leaves the text alone.
    fn env_expansion(&mut self, key: &str, text: &str, at: &Node) {
        if self.extension {
            return;
        }
        let b = text.as_bytes();
        let expands = b.windows(2).any(|w| {
            w.first() == Some(&b'$')
                && w.get(1).is_some_and(|&c| c == b'{' || c == b'_' || c.is_ascii_alphanumeric())
        });
        if expands {
            self.note(
                Severity::Warning,
                format!("`{key}` holds `$`: Gemini CLI replaces environment variables in it when it loads the file; this engine uses the text as written"),
                "env_expansion",
                at.line,
                at.column,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn handler(
        &mut self,
        event: GeminiEvent,
        gi: usize,
        hi: usize,
        node: &Node,
        matcher_text: &str,
        pattern: &Pattern,
        sequential: bool,
    ) -> Option<HookDefinition> {
        let id_text = format!("{}[{gi}][{hi}]", event.as_str());
        if node.members().is_none() {
            self.wrong_type(&id_text, "an object", node, "Gemini CLI discards it");
            return None;
        }
        self.duplicates(node);
        let kind = match node.get("type").map(|m| &m.value) {
            Some(Node { kind: Kind::String(k), .. })
                if ["command", "plugin", "runtime"].contains(&k.as_str()) =>
            {
                k.clone()
            }
            None => {
                self.report(Severity::Warning, &ConfigProblem::MissingType, node.line, node.column);
                return None;
            }
            Some(n) => {
                let kind = n.as_str().map_or_else(|| n.type_name().to_owned(), str::to_owned);
                self.report(
                    Severity::Warning,
                    &ConfigProblem::HandlerType { kind },
                    n.line,
                    n.column,
                );
                return None;
            }
        };
        if kind == "runtime" {
            self.note(
                Severity::Warning,
                "`type: runtime` hooks are registered by code; from a settings file Gemini CLI never runs one (it has no action); the handler is skipped".to_owned(),
                "capability_gap",
                node.line,
                node.column,
            );
            return None;
        }
        for m in node.members().unwrap_or_default() {
            if !HANDLER_KEYS.contains(&m.key.as_str()) {
                self.note(
                    Severity::Info,
                    format!("`{}` is not a hook field; Gemini CLI ignores it", m.key),
                    "unknown_key",
                    m.line,
                    m.column,
                );
            }
        }
        let command = match node.get("command") {
            Some(m) if js::truthy(&m.value.to_value()) => match m.value.as_str() {
                Some(c) => c.to_owned(),
                None => {
                    let p = ConfigProblem::CommandType { found: m.value.type_name() };
                    self.report(Severity::Warning, &p, m.value.line, m.value.column);
                    return None;
                }
            },
            other => {
                let (l, c) =
                    other.map_or((node.line, node.column), |m| (m.value.line, m.value.column));
                self.report(Severity::Warning, &ConfigProblem::MissingCommand, l, c);
                return None;
            }
        };
        if kind == "plugin" {
            self.note(
                Severity::Info,
                "Gemini CLI 0.61.0 runs a `type: plugin` hook with a `command` as a command hook"
                    .to_owned(),
                "plugin_as_command",
                node.line,
                node.column,
            );
        }
        let name = match node.get("name") {
            None => None,
            Some(m) => match &m.value.kind {
                Kind::String(s) => {
                    self.env_expansion("name", s, &m.value);
                    Some(s.clone())
                }
                _ if !js::truthy(&m.value.to_value()) => None,
                _ => {
                    self.wrong_type("name", "a string", &m.value, "it names nothing: neither `hooksConfig.disabled` nor de-duplication can match it");
                    None
                }
            },
        };
        let description = match node.get("description") {
            Some(Member { value: Node { kind: Kind::String(s), .. }, .. }) => Some(s.clone()),
            Some(m) => {
                self.wrong_type("description", "a string", &m.value, "it is ignored");
                None
            }
            None => None,
        };
        let timeout = self.timeout(node);
        let env = self.env(node)?;
        // `getHookName`: the name, else the command.
        let hook_name = name.clone().unwrap_or_else(|| command.clone());
        let enabled = !self.disabled.contains(&hook_name);
        if !enabled {
            self.note(
                Severity::Info,
                format!("`{hook_name}` is listed in `hooksConfig.disabled`; the hook never runs"),
                "disabled",
                node.line,
                node.column,
            );
        }
        let mut native = Map::new();
        if let Some(n) = &name {
            native.insert(NATIVE_NAME.to_owned(), Value::String(n.clone()));
        }
        if sequential {
            native.insert(NATIVE_SEQUENTIAL.to_owned(), Value::Bool(true));
        }
        if kind == "plugin" {
            native.insert("type".to_owned(), Value::String(kind));
        }
        let id = HookId::new(&id_text).ok()?;
        let order = self.order;
        self.order = self.order.saturating_add(1);
        Some(HookDefinition {
            id,
            event: event.canonical()?,
            native_event: event.as_str().to_owned(),
            matcher: matcher::build(event, matcher_text, pattern.clone()),
            command: HookCommand::Shell { script: command, shell: Some(SHELL.to_owned()) },
            cwd: None,
            env,
            timeout,
            on_failure: OnFailure::Warn,
            mode: ExecutionMode::Blocking,
            delivery: Delivery::BestEffort,
            detach: false,
            enabled,
            codec: Arc::new(GeminiCodec),
            order,
            line: Some(node.line),
            column: Some(node.column),
            description,
            native,
        })
    }

    /// `timeout` in milliseconds, as Node's `setTimeout(…, hookConfig.timeout ?? 60000)`
    /// arms it.
    fn timeout(&mut self, node: &Node) -> Duration {
        let Some(m) = node.get("timeout") else { return DEFAULT_TIMEOUT };
        let v = m.value.to_value();
        if v.is_null() {
            return DEFAULT_TIMEOUT;
        }
        let ms = js::to_number(&v);
        let timeout = js::node_timer(ms);
        let (l, c) = (m.value.line, m.value.column);
        if !v.is_number() {
            self.note(
                Severity::Warning,
                format!("`timeout` should be a number of milliseconds, found {}; Gemini CLI arms a {} ms timer", m.value.type_name(), timeout.as_millis()),
                "invalid_timeout",
                l,
                c,
            );
        } else if ms.is_nan() || !(1.0..=js::TIMER_MAX_MS).contains(&ms) {
            self.note(
                Severity::Warning,
                format!("Gemini CLI arms a 1 ms timer for `timeout: {v}` (Node clamps delays below 1 or above 2147483647 ms): the hook is killed at once"),
                "invalid_timeout",
                l,
                c,
            );
        } else if ms < 1000.0 {
            self.note(
                Severity::Warning,
                format!("Gemini CLI reads milliseconds: this hook may run for only {ms} ms; did you mean seconds?"),
                "timeout_seconds",
                l,
                c,
            );
        }
        timeout
    }

    /// `env`, merged into the hook's environment as Node's `spawn` stringifies it.
    fn env(&mut self, node: &Node) -> Option<Vec<(String, String)>> {
        let Some(m) = node.get("env") else { return Some(Vec::new()) };
        let Some(members) = m.value.members() else {
            if !matches!(m.value.kind, Kind::Null) {
                self.wrong_type("env", "an object", &m.value, "it is ignored");
            }
            return Some(Vec::new());
        };
        let mut out: Vec<(String, String)> = Vec::new();
        for e in m.value.entries() {
            let value = match &e.value.kind {
                Kind::String(s) => {
                    self.env_expansion("env", s, &e.value);
                    s.clone()
                }
                Kind::Number(n) => js_number_string(n),
                // Not produced by Gemini's dialect (only Python's keeps numbers as text).
                Kind::NumberText(t) => t.clone(),
                Kind::Bool(b) => b.to_string(),
                Kind::Null => "null".to_owned(),
                Kind::Object(_) => "[object Object]".to_owned(),
                Kind::Array(_) => {
                    self.wrong_type(
                        &format!("env.{}", e.key),
                        "a string",
                        &e.value,
                        "the variable is not set",
                    );
                    continue;
                }
            };
            if e.key.contains('\0') || value.contains('\0') {
                self.report(
                    Severity::Warning,
                    &ConfigProblem::EnvNul { key: e.key.clone() },
                    e.line,
                    e.column,
                );
                return None;
            }
            out.push((e.key.clone(), value));
        }
        let _ = members;
        Some(out)
    }
}

/// `String(n)` for a JSON number.
fn js_number_string(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.fract() == 0.0 && f.abs() < 1e21 {
        return format!("{f:.0}");
    }
    f.to_string()
}

#[cfg(test)]
mod tests;
