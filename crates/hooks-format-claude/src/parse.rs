//! Reads a Claude Code settings document into hook definitions, in default or strict mode.
//!
//! Sans-IO: bytes in, definitions and diagnostics out; the path only names the file in
//! diagnostics. Every diagnostic carries a line and a column.

use std::{
    collections::{BTreeSet, HashMap},
    ops::Range,
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use hooks_json::{At, Both, Checked, Field, Pairs};
use hooks_schema::{
    Delivery, ExecutionMode, HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookId,
    Matcher, OnFailure, ParseResult, ParsedSource, Pick, PluginLayout, PolicySwitch, Severity,
    SourcePolicy, SwitchRule,
};
use serde::{Deserialize, de::IgnoredAny};
use serde_json::{Map, Value};

use crate::{
    ClaudeCodec, ClaudeMode, FailClosedCodec,
    events::{EventName, NativeEvent, classify},
    json::{self, Node},
    matcher::{self, IfRule, Pattern},
    problem::ConfigProblem,
};

/// The largest settings document read, in either mode.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// The largest `hooks` section a strict source may have.
pub const STRICT_MAX_HOOKS_BYTES: usize = 64 * 1024;

/// The strict contract version this engine supports (`hooks.version`).
pub const CONTRACT_VERSION: u64 = 1;

/// The longest timeout Claude Code can enforce: it multiplies `timeout` by 1000 and clamps
/// the milliseconds to the JavaScript timer maximum, 2³¹−1 ms (about 24.8 days), before
/// arming the timer. Larger values are accepted and run with this one.
pub(crate) const CLAUDE_TIMER_MAX: Duration = Duration::from_millis(2_147_483_647);

/// `hooks check` hints at milliseconds from this many seconds on.
pub(crate) const MILLISECONDS_HINT: f64 = 1000.0;

/// A positive, finite `timeout` in seconds as Claude Code enforces it: no upper bound in its
/// schema (`z.number().positive()`), the timer clamped at [`CLAUDE_TIMER_MAX`].
pub(crate) fn claude_timeout(seconds: f64) -> Duration {
    hooks_schema::timeout_from_secs(seconds).map_or(CLAUDE_TIMER_MAX, |d| d.min(CLAUDE_TIMER_MAX))
}

/// The `native` key marking a definition of a strict source (read by the codec).
pub(crate) const NATIVE_STRICT: &str = "strict";

/// The `native` key holding a fail-closed definition's deny reason.
pub const NATIVE_FAIL_CLOSED: &str = "failClosed";

/// The settings key that turns Claude Code hooks off. It is kept in
/// [`ParsedSource::settings`]; whether it applies is decided across settings files by
/// precedence (the registry does it), so a file that sets it still yields its definitions.
pub const DISABLE_ALL_HOOKS: &str = "disableAllHooks";

/// The managed-settings key that lets only managed hooks run, kept in
/// [`ParsedSource::settings`] like [`DISABLE_ALL_HOOKS`]; honoured only in managed settings.
pub const ALLOW_MANAGED_HOOKS_ONLY: &str = "allowManagedHooksOnly";

/// The settings key that makes a subagent the main thread's: the hooks of its front matter
/// then run for the whole session (Claude Code 2.1.328, checked with the real CLI). Kept in
/// [`ParsedSource::settings`]; which file's applies is decided by precedence (the registry
/// does it, [`hooks_schema::SourcePolicy::picks`]); an empty name picks none.
pub const AGENT: &str = "agent";

const HANDLER_KEYS: [&str; 11] = [
    "type",
    "command",
    "args",
    "timeout",
    "shell",
    "async",
    "asyncRewake",
    "onFailure",
    "if",
    "statusMessage",
    "once",
];

/// The keys of an `http` handler (Claude Code 2.1.x's schema).
const HTTP_HANDLER_KEYS: [&str; 9] = [
    "type",
    "url",
    "headers",
    "allowedEnvVars",
    "timeout",
    "onFailure",
    "if",
    "statusMessage",
    "once",
];

const OTHER_HANDLER_TYPES: [&str; 3] = ["mcp_tool", "prompt", "agent"];

/// Whether `url` reads as an absolute URL (`scheme:` then something), the shape Claude Code's
/// schema asks of an `http` handler's `url`; which schemes can be reached is decided when the
/// hook runs.
fn looks_like_url(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !url.chars().any(char::is_whitespace)
}

/// The shells a handler's `shell` may name (Claude Code's schema: `"bash" | "powershell"`).
const SHELLS: [&str; 2] = ["bash", "powershell"];

/// Events whose invalid entries make Claude Code skip the whole settings file: their hooks
/// may be what guards the permissions declared next to them.
const GATE_FILE_EVENTS: [NativeEvent; 2] =
    [NativeEvent::PreToolUse, NativeEvent::PermissionRequest];

/// A strict handler's `command` split into argv, when it is made only of plain words: letters,
/// digits and `_ @ % + = : , . / -`, the `${CLAUDE_PROJECT_DIR}` placeholder (substituted into
/// each word as a plain string), separated by spaces and tabs, with no `=` in the program
/// (a shell would read it as a variable assignment). Anything else (quotes, `$`, `~`, globs,
/// redirections, pipes, `;`, `&`, newlines, …) needs a shell: the error names the first such
/// character.
fn direct_argv(command: &str) -> Result<Vec<String>, String> {
    let words: Vec<&str> = command.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    for word in &words {
        let plain = word.replace(crate::codec::PROJECT_DIR_PLACEHOLDER, "");
        if let Some(c) = plain.chars().find(|c| {
            !(c.is_alphanumeric()
                || matches!(c, '_' | '@' | '%' | '+' | '=' | ':' | ',' | '.' | '/' | '-'))
        }) {
            return Err(format!("it holds {c:?}"));
        }
    }
    match words.first() {
        None => Err("it is empty".to_owned()),
        Some(program) if program.contains('=') => {
            Err("its first word is a variable assignment".to_owned())
        }
        Some(_) => Ok(words.into_iter().map(str::to_owned).collect()),
    }
}

/// Whether Claude Code's settings schema rejects an entry with this problem (as opposed to
/// problems it finds only when it runs or matches the hook, like a regex that does not
/// compile, or that it ignores, like an unknown key).
fn invalidates_entry(problem: &ConfigProblem) -> bool {
    matches!(
        problem,
        ConfigProblem::WrongType { .. }
            | ConfigProblem::OnFailure { .. }
            | ConfigProblem::Shell { .. }
            | ConfigProblem::UnknownHandlerType { .. }
            | ConfigProblem::Timeout { .. }
            | ConfigProblem::InvalidUrl
    )
}

/// Key fragments that make a key look like it holds a credential (compared lowercased,
/// without `_` and `-`).
const CREDENTIAL_FRAGMENTS: [&str; 12] = [
    "token",
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "authorization",
    "credential",
    "privatekey",
    "accesskey",
    "bearer",
    "cookie",
];

/// Whether a key looks like it holds a credential.
pub fn is_credential_key(key: &str) -> bool {
    let norm: String =
        key.chars().filter(|c| !matches!(c, '_' | '-' | ' ')).collect::<String>().to_lowercase();
    CREDENTIAL_FRAGMENTS.iter().any(|f| norm.contains(f))
}

/// What reading a document produced, before the mode's policy is applied.
pub(crate) struct Reading {
    pub(crate) definitions: Vec<HookDefinition>,
    pub(crate) diagnostics: Vec<HookDiagnostic>,
    pub(crate) settings: Map<String, Value>,
    /// Strict contract violations (also in `diagnostics`).
    pub(crate) violations: Vec<HookDiagnostic>,
    /// Gated canonical events the section names.
    pub(crate) gated: BTreeSet<HookEvent>,
    /// Whether the violations leave it unknown which events the section covers.
    pub(crate) all_gated: bool,
    /// Whether the document itself could not be read (syntax, size, shape).
    pub(crate) unreadable: bool,
    /// Default mode: why Claude Code would skip the whole file although it reads (a
    /// `PreToolUse` or `PermissionRequest` entry or a hook-policy key that fails validation),
    /// with where.
    pub(crate) skipped: Option<(String, u32, u32)>,
}

impl Reading {
    pub(crate) fn disabled(&self) -> bool {
        self.settings.get(DISABLE_ALL_HOOKS) == Some(&Value::Bool(true))
    }
}

/// A settings document as declared: the keys the engine reads, each the last one written
/// (as `JSON.parse` keeps it); every other key is Claude Code's own and is not looked at.
/// The parser below only validates what this declares (see `specs/formats.md`, "Parse by
/// declaration").
#[derive(Deserialize)]
struct Settings {
    #[serde(rename = "disableAllHooks")]
    disable_all_hooks: Field<bool>,
    #[serde(rename = "allowManagedHooksOnly")]
    allow_managed_hooks_only: Field<bool>,
    agent: Field<String>,
    hooks: Field<Section>,
}

/// The `hooks` section: its `version`, and every member as written (event names, `version`
/// and duplicates included, in document order).
type Section = Both<Versioned, Pairs<At<Checked<Vec<GroupAt>>>>>;

/// The strict contract's `version` key of the `hooks` section, as written.
#[derive(Deserialize)]
struct Versioned {
    version: Option<At<Value>>,
}

/// A matcher group where it stands, when it is an object: its fields and every key written.
type GroupAt = At<Checked<Both<Group, Keys>>>;

/// A matcher group as declared.
#[derive(Deserialize)]
struct Group {
    matcher: Field<String>,
    hooks: Field<Vec<HandlerAt>>,
}

/// A handler where it stands, when it is an object: its fields and every key written.
type HandlerAt = At<Checked<Both<Handler, Keys>>>;

/// Every key of an object as written, where it stands (duplicates kept, for the warnings
/// that name each occurrence).
type Keys = Pairs<At<IgnoredAny>>;

/// A handler as Claude Code declares it: the fields of every handler type the engine runs
/// (`type` says which apply; keys are checked against that type's list), each kept where it
/// stands and as written (see `specs/formats.md`, "Parse by declaration").
#[derive(Deserialize)]
struct Handler {
    #[serde(rename = "type")]
    kind: Field<String>,
    command: Field<String>,
    args: Field<Vec<String>>,
    shell: Field<String>,
    url: Field<String>,
    #[serde(rename = "allowedEnvVars")]
    allowed_env_vars: Field<Vec<String>>,
    timeout: Field<f64>,
    #[serde(rename = "statusMessage")]
    status_message: Field<String>,
    #[serde(rename = "if")]
    if_text: Field<String>,
    #[serde(rename = "async")]
    is_async: Field<bool>,
    #[serde(rename = "asyncRewake")]
    rewake: Field<bool>,
    once: Field<bool>,
    #[serde(rename = "onFailure")]
    on_failure: Field<String>,
    /// An `http` handler's headers: every member as written (duplicates kept).
    headers: Field<Pairs<At<Checked<String>>>>,
}

/// A handler's fields once read and type-checked, before the checks that do not depend on
/// its kind.
struct Fields {
    /// The `http` handler's request; `None` for a command handler.
    http: Option<hooks_schema::HttpHook>,
    command: String,
    args: Option<Vec<String>>,
    shell: Option<String>,
    status_message: Option<String>,
    if_text: Option<String>,
    is_async: bool,
    rewake: bool,
    once: Option<bool>,
    on_failure_text: Option<String>,
}

/// Where a field's value stands, or its handler (at `handler`) when it is absent.
fn value_at<T>(field: &Field<T>, handler: (u32, u32)) -> (u32, u32) {
    field.as_ref().map_or(handler, At::at)
}

/// Where a field's key stands, or its handler (at `handler`) when it is absent.
fn key_at<T>(field: &Field<T>, handler: (u32, u32)) -> (u32, u32) {
    field.as_ref().map_or(handler, At::key_at)
}

/// The members of `pairs` that count, in document order: of a key written twice, the last
/// one, as `JSON.parse` keeps it (linear in the members, however many keys repeat).
fn last_written<T>(pairs: &[(String, T)]) -> impl Iterator<Item = &(String, T)> {
    let mut last: HashMap<&str, usize> = HashMap::with_capacity(pairs.len());
    for (i, (key, _)) in pairs.iter().enumerate() {
        last.insert(key, i);
    }
    pairs
        .iter()
        .enumerate()
        .filter(move |(i, (key, _))| last.get(key.as_str()) == Some(i))
        .map(|(_, p)| p)
}

struct Reader<'a> {
    path: &'a Path,
    strict: bool,
    out: Reading,
    order: u32,
    /// The id of the handler being read, attached to its diagnostics.
    hook: Option<String>,
    /// The event whose entries are being read.
    event: Option<NativeEvent>,
    /// Put before each hook's name: a marketplace entry's (`plugins[1].`), whose hooks would
    /// share names with another entry's otherwise.
    prefix: String,
}

/// Parses a settings document. See the crate docs for the two modes.
pub fn parse(bytes: &[u8], path: &Path, mode: ClaudeMode) -> ParseResult {
    let reading = read(bytes, path, mode);
    finish(reading, path, mode)
}

pub(crate) fn finish(reading: Reading, path: &Path, mode: ClaudeMode) -> ParseResult {
    if mode == ClaudeMode::Strict && !reading.violations.is_empty() {
        return Ok(fail_closed(reading, path));
    }
    if reading.unreadable {
        let mut diagnostics = reading.diagnostics;
        if let Some((why, line, column)) = reading.skipped {
            diagnostics.push(
                HookDiagnostic::error(format!(
                    "the whole file is skipped, as Claude Code skips it: {why}; none of its hooks or settings apply until it is fixed"
                ))
                .in_file(path)
                .at(line, column)
                .with_code("file_skipped"),
            );
        }
        return Err(diagnostics);
    }
    let policy = policy_of(&reading.settings);
    Ok(ParsedSource {
        definitions: reading.definitions,
        diagnostics: reading.diagnostics,
        settings: reading.settings,
        policy,
    })
}

/// The typed policy of the three keys that decide which Claude Code hooks run:
/// `disableAllHooks: true` switches hooks off ([`SwitchRule::Hooks`], resolved by precedence),
/// `allowManagedHooksOnly: true` lets only managed sources run ([`SwitchRule::ManagedOnly`],
/// honoured in managed settings only), and `agent` picks the subagent whose front matter's
/// hooks run for the whole session ([`SourcePolicy::picks`]).
pub(crate) fn policy_of(settings: &Map<String, Value>) -> SourcePolicy {
    let mut switches = Vec::new();
    if let Some(v) = settings.get(DISABLE_ALL_HOOKS).and_then(Value::as_bool) {
        switches.push(PolicySwitch { key: DISABLE_ALL_HOOKS, rule: SwitchRule::Hooks, on: !v });
    }
    if let Some(v) = settings.get(ALLOW_MANAGED_HOOKS_ONLY).and_then(Value::as_bool) {
        switches.push(PolicySwitch {
            key: ALLOW_MANAGED_HOOKS_ONLY,
            rule: SwitchRule::ManagedOnly,
            on: v,
        });
    }
    let picks = settings
        .get(AGENT)
        .and_then(Value::as_str)
        .map(|name| Pick { key: AGENT, name: name.to_owned() });
    SourcePolicy { switches, picks, ..SourcePolicy::default() }
}

/// The strict contract's reading of a settings file that could not be read at all (the
/// reader refused it: too large, not a regular file, a dangling link, unreadable): the file is
/// malformed, not absent, so the source fails closed on every gated event, with `problem` (an
/// error diagnostic on the file) as the first violation.
///
/// ```
/// use std::path::Path;
/// use hooks_schema::HookDiagnostic;
///
/// let path = Path::new("/home/u/.claude/settings.json");
/// let problem = HookDiagnostic::error("hook file is a fifo, not a regular file").in_file(path);
/// let parsed = hooks_format_claude::fail_closed_unreadable(path, problem);
/// assert_eq!(parsed.definitions.len(), 5);
/// assert!(parsed.definitions.iter().all(|d| d.id.as_str().ends_with("[fail-closed]")));
/// ```
pub fn fail_closed_unreadable(path: &Path, problem: HookDiagnostic) -> ParsedSource {
    let reading = Reading {
        definitions: Vec::new(),
        diagnostics: vec![problem.clone()],
        settings: Map::new(),
        violations: vec![problem],
        gated: BTreeSet::new(),
        all_gated: true,
        unreadable: true,
        skipped: None,
    };
    fail_closed(reading, path)
}

/// Turns a violated strict source into one deny definition per gated event it covers.
fn fail_closed(reading: Reading, path: &Path) -> ParsedSource {
    let first = reading.violations.first();
    let more = reading.violations.len().saturating_sub(1);
    let problem = first.map_or("unknown problem", |d| {
        let m = d.message.as_str();
        ["; the handler is skipped", "; the group is skipped", "; its hooks are skipped"]
            .iter()
            .find_map(|suffix| m.strip_suffix(suffix))
            .unwrap_or(m)
    });
    let mut reason =
        format!("hook configuration {} violates the strict contract: {problem}", path.display());
    if more > 0 {
        reason.push_str(&format!(" (and {more} more problem{})", if more == 1 { "" } else { "s" }));
    }
    let (line, column) = first.map_or((1, 1), |d| (d.line.unwrap_or(1), d.column.unwrap_or(1)));
    let events: Vec<HookEvent> = if reading.all_gated {
        HookEvent::ALL.into_iter().filter(|e| e.is_gated()).collect()
    } else {
        reading.gated.iter().copied().collect()
    };
    let mut definitions = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let Some(native) = NativeEvent::from_canonical(*event) else { continue };
        let Ok(id) = HookId::new(&format!("{}[fail-closed]", native.as_str())) else { continue };
        let mut nat = Map::new();
        nat.insert(NATIVE_STRICT.to_owned(), Value::Bool(true));
        nat.insert(NATIVE_FAIL_CLOSED.to_owned(), Value::String(reason.clone()));
        definitions.push(HookDefinition {
            id,
            event: *event,
            native_event: native.as_str().to_owned(),
            matcher: Matcher::all(),
            // Never spawned (the codec refuses to encode); like every strict definition it
            // names no shell, and were it run by another codec its failure would deny.
            command: HookCommand::Exec { program: "false".to_owned(), args: Vec::new() },
            cwd: None,
            env: Vec::new(),
            timeout: Duration::from_secs(1),
            on_failure: OnFailure::Block,
            mode: ExecutionMode::Blocking,
            delivery: Delivery::BestEffort,
            detach: false,
            enabled: true,
            codec: Arc::new(FailClosedCodec::new(reason.clone())),
            order: u32::try_from(i).unwrap_or(u32::MAX),
            line: Some(line),
            column: Some(column),
            description: None,
            native: nat,
        });
    }
    let names: Vec<&str> = definitions.iter().map(|d| d.native_event.as_str()).collect();
    let message = if names.is_empty() {
        "the source fails closed: none of its hooks run until the configuration is fixed".to_owned()
    } else {
        format!(
            "the source fails closed: {} denied until the configuration is fixed",
            names.join(", ")
        )
    };
    let mut diagnostics = reading.diagnostics;
    diagnostics.push(
        HookDiagnostic::error(message).in_file(path).at(line, column).with_code("fail_closed"),
    );
    // A source that fails closed has no say in which hooks run: its `disableAllHooks` and
    // `allowManagedHooksOnly` are not passed on, so breaking the contract cannot switch its
    // own denials (or anyone else's hooks) off.
    ParsedSource { definitions, diagnostics, ..ParsedSource::default() }
}

/// What a subagent, skill or command file is to Claude Code, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontMatterOf {
    /// A subagent (`agents/*.md`): its hooks run while it does.
    Subagent,
    /// A skill (`skills/<name>/SKILL.md`): its hooks run while it is active.
    Skill,
    /// A command (`commands/*.md`), read as a skill.
    Command,
}

impl FrontMatterOf {
    fn name(self) -> &'static str {
        match self {
            FrontMatterOf::Subagent => "subagent",
            FrontMatterOf::Skill => "skill",
            FrontMatterOf::Command => "command",
        }
    }
}

/// Parses the `hooks:` of a subagent's, skill's or command's front matter (the YAML between
/// the Markdown file's opening `---` lines) as Claude Code registers them: the same entries as
/// a settings file's, with the file's lines and columns. Claude Code runs them while that
/// subagent or skill is active, which the engine cannot know, and a subagent's for the whole
/// session when settings' `agent` names it (the main thread's agent). So a subagent's
/// definitions are enabled and the source is [`picked_as`](SourcePolicy::picked_as) its
/// `name`: the registry runs them only where `agent` picks that name. A skill's or a
/// command's, and a subagent's that Claude Code does not load (no `name` or `description`
/// string), are disabled: listed, and the scripts they name protected by the guard (an agent
/// rewriting one would escape it), never run by the engine. A file without front matter or
/// without `hooks:` has none; other front matter keys are not read.
pub fn parse_front_matter(bytes: &[u8], path: &Path, of: FrontMatterOf) -> ParseResult {
    let mut r = reader(path, ClaudeMode::Default);
    if bytes.len() > MAX_DOCUMENT_BYTES {
        r.fatal(ConfigProblem::TooLarge { size: bytes.len(), cap: MAX_DOCUMENT_BYTES }, 1, 1);
        return finish(r.out, path, ClaudeMode::Default);
    }
    let text = String::from_utf8_lossy(bytes);
    let Some((yaml, first_line)) = crate::frontmatter::split(&text) else {
        return Ok(ParsedSource::default());
    };
    let root = match crate::frontmatter::tree(yaml, first_line) {
        Ok(root) if root.get("hooks").is_some() => root,
        Ok(_) => return Ok(ParsedSource::default()),
        Err(e) => {
            r.fatal(ConfigProblem::FrontMatterSyntax { message: e.message }, e.line, e.column);
            return Err(r.out.diagnostics);
        }
    };
    r.front_matter(&root);
    let mut parsed = hooks_alone(r.out)?;
    if parsed.definitions.is_empty() {
        return Ok(parsed);
    }
    let loaded = match of {
        FrontMatterOf::Subagent => Some(subagent_name(&root)),
        FrontMatterOf::Skill | FrontMatterOf::Command => None,
    };
    let note = match &loaded {
        Some(Ok(name)) => HookDiagnostic::info(format!(
            "Claude Code runs these hooks while this subagent is active, and for the whole session where settings' `{AGENT}` names `{name}` (the main thread's agent); the engine runs them only there, and protects the scripts they name"
        )),
        Some(Err(missing)) => HookDiagnostic::warning(format!(
            "Claude Code does not load this subagent: its front matter has no `{missing}` string; its hooks never run, and the engine protects the scripts they name"
        ))
        .at(root.line, root.column),
        None => HookDiagnostic::info(format!(
            "Claude Code runs these hooks while this {} is active; the engine does not run them, and protects the scripts they name",
            of.name()
        )),
    };
    match loaded {
        Some(Ok(name)) => parsed.policy.picked_as = Some(Pick { key: AGENT, name }),
        Some(Err(_)) | None => {
            for d in &mut parsed.definitions {
                d.enabled = false;
            }
        }
    }
    parsed.diagnostics.push(note.in_file(path).with_code("front_matter_hooks"));
    Ok(parsed)
}

/// Parses a file of a Claude Code plugin's that holds hooks as Claude Code loads them: a
/// plugin's hook file (`hooks/hooks.json`, or a file its manifest's `hooks` names: a `hooks`
/// section as a settings file's, beside an optional `description`), a plugin's manifest
/// (`.claude-plugin/plugin.json`, whose `hooks` may be that section inline; a path or a list
/// of paths there names other files and holds no hooks), or a marketplace's manifest (each
/// entry of its `plugins` may hold its plugin's `hooks` inline: observed to run for a
/// `"strict": false` entry, read for every entry). The same entries, events and matchers as a
/// settings file's, with `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's folder wherever
/// Claude Code replaces it, and `$CLAUDE_PLUGIN_ROOT` in a shell command, which the shell
/// takes from the variable Claude Code sets to that folder. The plugin's folder is `base`
/// (for a marketplace's manifest, the marketplace's, and each entry's plugin is its `source`
/// in it), or, without one, the file's folder's folder (`<plugin>/hooks/hooks.json`,
/// `<plugin>/.claude-plugin/plugin.json`); an entry whose source is no path (fetched by Claude
/// Code into its own folders) keeps the variable. Claude Code runs these hooks itself while
/// the plugin is on; the engine never does: every definition is disabled, listed with a note
/// (`plugin_hooks`), and the scripts they name are protected by the guard (an agent rewriting
/// one would escape it). As with a front matter, an entry that fails validation leaves the
/// others; keys other than those are not read.
///
/// ```
/// # use std::path::Path;
/// let file = br#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
///     {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/gate.sh"}]}]}}"#;
/// let parsed = hooks_format_claude::parse_plugin_hooks(file, Path::new("/m/p/hooks/hooks.json"), None).unwrap();
/// assert!(!parsed.definitions[0].enabled);
/// assert!(matches!(&parsed.definitions[0].command,
///     hooks_schema::HookCommand::Shell { script, .. } if script == "/m/p/scripts/gate.sh"));
/// // A file the manifest names, read with the plugin's folder as its base.
/// let parsed = hooks_format_claude::parse_plugin_hooks(file, Path::new("/m/p/gate.json"), Some(Path::new("/m/p"))).unwrap();
/// assert!(matches!(&parsed.definitions[0].command,
///     hooks_schema::HookCommand::Shell { script, .. } if script == "/m/p/scripts/gate.sh"));
/// ```
pub fn parse_plugin_hooks(bytes: &[u8], path: &Path, base: Option<&Path>) -> ParseResult {
    let mut r = reader(path, ClaudeMode::Default);
    let mut held = Vec::new();
    r.document(bytes, |r, root| held = r.plugin_file(root));
    let mut parsed = hooks_alone(r.out)?;
    let folder = base.or_else(|| path.parent().and_then(Path::parent)).unwrap_or(Path::new(""));
    let plugin_root = |held: &Held| match held {
        Held::Own => Some(folder.to_string_lossy().into_owned()),
        Held::Entry(Some(source)) => {
            let at: PathBuf = folder.join(source).components().collect();
            Some(at.to_string_lossy().into_owned())
        }
        Held::Entry(None) => None,
    };
    for (range, what) in &held {
        let Some(root) = plugin_root(what) else { continue };
        for d in parsed.definitions.get_mut(range.clone()).into_iter().flatten() {
            match &mut d.command {
                HookCommand::Shell { script, .. } => *script = plugin_root_in_shell(script, &root),
                HookCommand::Exec { program, args } => {
                    *program = program.replace(PLUGIN_ROOT_PLACEHOLDER, &root);
                    for a in args.iter_mut() {
                        *a = a.replace(PLUGIN_ROOT_PLACEHOLDER, &root);
                    }
                }
                _ => {}
            }
        }
    }
    if held.iter().any(|(_, h)| matches!(h, Held::Entry(_))) {
        hooks_schema::marketplace_hooks_run_by("Claude Code", folder, path, &mut parsed);
    } else {
        hooks_schema::plugin_hooks_run_by("Claude Code", folder, path, &mut parsed);
    }
    Ok(parsed)
}

/// Whose hooks a part of a plugin's file holds ([`Reader::plugin_file`]).
enum Held {
    /// The plugin's own: the file's `hooks`.
    Own,
    /// A marketplace entry's: its plugin's folder in the marketplace, when its source is a
    /// path.
    Entry(Option<String>),
}

/// The hooks of a reading that is no settings file (a front matter's, a plugin's hook file),
/// with no policy: an entry that fails validation leaves the others, since what matters is
/// protecting the scripts every readable entry names (a settings file's is skipped whole, as
/// Claude Code skips it, because its hooks would run); only a document that cannot be read
/// is refused.
fn hooks_alone(reading: Reading) -> ParseResult {
    if reading.unreadable && reading.skipped.is_none() {
        return Err(reading.diagnostics);
    }
    Ok(ParsedSource {
        definitions: reading.definitions,
        diagnostics: reading.diagnostics,
        ..ParsedSource::default()
    })
}

/// What Claude Code replaces with a plugin's folder in its hooks' commands.
const PLUGIN_ROOT_PLACEHOLDER: &str = "${CLAUDE_PLUGIN_ROOT}";

/// The variable Claude Code sets to a plugin's folder for its hooks.
const PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";

/// `script` with `${CLAUDE_PLUGIN_ROOT}` and `$CLAUDE_PLUGIN_ROOT` (as a whole name) replaced
/// by `root`.
fn plugin_root_in_shell(script: &str, root: &str) -> String {
    hooks_schema::replace_shell_variable(script, PLUGIN_ROOT_VAR, root)
}

/// A subagent's `name`, when Claude Code loads it: its front matter has a `name` and a
/// `description`, both non-empty strings (without either, the real CLI does not find the
/// subagent that settings' `agent` names); otherwise the key that is missing.
fn subagent_name(root: &Node) -> Result<String, &'static str> {
    let text = |key: &'static str| match root.get(key).map(|m| &m.value.kind) {
        Some(hooks_json::Kind::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(key),
    };
    let name = text("name")?;
    text("description")?;
    Ok(name)
}

fn reader(path: &Path, mode: ClaudeMode) -> Reader<'_> {
    Reader {
        path,
        strict: mode == ClaudeMode::Strict,
        out: Reading {
            definitions: Vec::new(),
            diagnostics: Vec::new(),
            settings: Map::new(),
            violations: Vec::new(),
            gated: BTreeSet::new(),
            all_gated: false,
            unreadable: false,
            skipped: None,
        },
        order: 0,
        hook: None,
        event: None,
        prefix: String::new(),
    }
}

/// Reads a document without applying the mode's final policy.
pub(crate) fn read(bytes: &[u8], path: &Path, mode: ClaudeMode) -> Reading {
    let mut r = reader(path, mode);
    r.document(bytes, Reader::settings);
    r.out
}

impl Reader<'_> {
    fn diag(
        &self,
        severity: Severity,
        problem: &ConfigProblem,
        line: u32,
        column: u32,
    ) -> HookDiagnostic {
        let d = HookDiagnostic::new(severity, problem.to_string())
            .in_file(self.path)
            .at(line, column)
            .with_code(problem.code());
        match &self.hook {
            Some(id) => d.for_hook(id.clone()),
            None => d,
        }
    }

    /// Reports a problem: with `default` severity in default mode, as an error and a contract
    /// violation in strict mode.
    fn problem(&mut self, default: Severity, problem: ConfigProblem, line: u32, column: u32) {
        if self.strict {
            let d = self.diag(Severity::Error, &problem, line, column);
            self.out.violations.push(d.clone());
            self.out.diagnostics.push(d);
        } else {
            let gate = self.event.filter(|e| GATE_FILE_EVENTS.contains(e));
            if let Some(ev) = gate
                && invalidates_entry(&problem)
            {
                // Claude Code 2.1.x: "a PreToolUse/PermissionRequest hook that cannot be
                // loaded may be what guards the permissions declared beside it, so nothing
                // it sits in is applied until the entry is fixed or removed".
                self.skip_file(
                    format!("a `{}` entry fails validation ({problem})", ev.as_str()),
                    line,
                    column,
                );
                let d = self.diag(Severity::Error, &problem, line, column);
                self.out.diagnostics.push(d);
                return;
            }
            let d = self.diag(default, &problem, line, column);
            self.out.diagnostics.push(d);
        }
    }

    /// Default mode: the file reads, but Claude Code would skip it whole.
    fn skip_file(&mut self, why: String, line: u32, column: u32) {
        self.out.unreadable = true;
        if self.out.skipped.is_none() {
            self.out.skipped = Some((why, line, column));
        }
    }

    /// Reports a problem that makes the document unreadable.
    fn fatal(&mut self, problem: ConfigProblem, line: u32, column: u32) {
        self.out.unreadable = true;
        self.out.all_gated = true;
        self.problem(Severity::Error, problem, line, column);
    }

    /// A JSON document, capped, its tree read by `read` (a settings file's
    /// [`Reader::settings`], or [`Reader::front_matter`] for a plugin's hook file, of which
    /// only `hooks` is read).
    fn document(&mut self, bytes: &[u8], read: impl FnOnce(&mut Self, &Node)) {
        if bytes.len() > MAX_DOCUMENT_BYTES {
            return self.fatal(
                ConfigProblem::TooLarge { size: bytes.len(), cap: MAX_DOCUMENT_BYTES },
                1,
                1,
            );
        }
        match json::parse(bytes) {
            Ok(root) => read(self, &root),
            Err(e) => self.fatal(ConfigProblem::Syntax { message: e.message }, e.line, e.column),
        }
    }

    /// A settings document's tree: its two policy keys and its `hooks` section.
    fn settings(&mut self, root: &Node) {
        let Some(settings) = self.object(root) else { return };
        self.settings_keys(&settings);
        self.hooks_of(&settings, root);
    }

    /// A front matter's `hooks:`: the rest of a front matter is no settings, so keys named
    /// like the settings the engine reads (a skill's `agent` names the subagent it forks)
    /// are neither read nor checked.
    fn front_matter(&mut self, root: &Node) {
        let Some(settings) = self.object(root) else { return };
        self.hooks_of(&settings, root);
    }

    /// A file of a plugin's ([`parse_plugin_hooks`]): the `hooks` it holds as an object, and
    /// each marketplace entry's; for each, the definitions read from it and whose they are, in
    /// document order.
    fn plugin_file(&mut self, root: &Node) -> Vec<(Range<usize>, Held)> {
        let is_object = |n: &Node| matches!(n.kind, hooks_json::Kind::Object(_));
        let holds_hooks = |n: &Node| n.get("hooks").is_some_and(|m| is_object(&m.value));
        if !is_object(root) {
            self.object(root);
            return Vec::new();
        }
        let mut held = Vec::new();
        self.hooks_kind(root);
        if holds_hooks(root) {
            let start = self.out.definitions.len();
            self.front_matter(root);
            held.push((start..self.out.definitions.len(), Held::Own));
        }
        let plugin_root = root
            .get("metadata")
            .and_then(|m| m.value.get("pluginRoot"))
            .and_then(|m| m.value.as_str());
        let entries = match root.get("plugins").map(|m| &m.value.kind) {
            Some(hooks_json::Kind::Array(entries)) => entries.as_slice(),
            _ => &[],
        };
        for (i, entry) in entries.iter().enumerate() {
            self.prefix = format!("plugins[{i}].");
            self.hooks_kind(entry);
            if !holds_hooks(entry) {
                continue;
            }
            let source = entry.get("source").and_then(|m| m.value.as_str());
            let folder = source.map(|s| PluginLayout::entry_folder(s, plugin_root));
            let start = self.out.definitions.len();
            self.front_matter(entry);
            held.push((start..self.out.definitions.len(), Held::Entry(folder)));
        }
        self.prefix.clear();
        held
    }

    /// Reports a plugin file's `hooks` that is none of what it may be (a hooks section, a path,
    /// a list of paths: `"hooks": true`), which would otherwise read as holding no hooks, with
    /// nothing said.
    fn hooks_kind(&mut self, node: &Node) {
        let Some(m) = node.get("hooks") else { return };
        if m.value.members().is_none() && !m.value.is_string_or_strings() {
            let problem = ConfigProblem::WrongType {
                key: format!("{}hooks", self.prefix),
                expected: "a hooks section, a path or a list of paths",
                found: m.value.type_name(),
            };
            self.problem(Severity::Warning, problem, m.value.line, m.value.column);
        }
    }

    /// `root` read as settings; only an object reads as settings.
    fn object(&mut self, root: &Node) -> Option<Settings> {
        let settings = hooks_json::from_node::<Settings>(root).ok();
        if settings.is_none() {
            self.fatal(
                ConfigProblem::RootNotObject { found: root.type_name() },
                root.line,
                root.column,
            );
        }
        settings
    }

    /// The settings keys that decide which hooks run (`disableAllHooks`,
    /// `allowManagedHooksOnly`, `agent`), checked and kept.
    fn settings_keys(&mut self, settings: &Settings) {
        for (key, field) in [
            (DISABLE_ALL_HOOKS, &settings.disable_all_hooks),
            (ALLOW_MANAGED_HOOKS_ONLY, &settings.allow_managed_hooks_only),
        ] {
            match field {
                None => {}
                Some(At { value: Checked::Ok(b), .. }) => {
                    self.out.settings.insert(key.to_owned(), Value::Bool(*b));
                }
                Some(wrong) => self.wrong_setting(key, "a boolean", wrong),
            }
        }
        match &settings.agent {
            None => {}
            Some(At { value: Checked::Ok(name), .. }) => {
                self.out.settings.insert(AGENT.to_owned(), Value::String(name.clone()));
            }
            // Checked with the real CLI: a number or `null` there, and the file's own hooks
            // did not run either.
            Some(wrong) => self.wrong_setting(AGENT, "a string", wrong),
        }
    }

    /// The `hooks` section of `settings`, whose text's tree is `root`.
    fn hooks_of(&mut self, settings: &Settings, root: &Node) {
        // No `hooks` section: nothing to run and, in strict mode, nothing to deny.
        let (Some(section), Some(written)) = (&settings.hooks, root.get("hooks")) else { return };
        self.hooks_section(section, &written.value);
    }

    /// A settings key the engine reads (`disableAllHooks`, `allowManagedHooksOnly`, `agent`)
    /// whose value is not `expected`: Claude Code validates every settings key and skips a
    /// file with an invalid one whole, which default mode does too; strict mode reports a
    /// violation.
    fn wrong_setting<T>(&mut self, key: &str, expected: &'static str, wrong: &At<T>) {
        let problem =
            ConfigProblem::WrongType { key: key.to_owned(), expected, found: wrong.found };
        if !self.strict {
            self.skip_file(
                format!("`{key}` fails validation ({problem})"),
                wrong.line,
                wrong.column,
            );
        }
        self.problem(Severity::Error, problem, wrong.line, wrong.column);
    }

    /// The `hooks` section; `written` is its text's tree, for the strict contract's checks
    /// of the section as a whole (its size, credential-looking keys at any depth).
    fn hooks_section(&mut self, section: &At<Checked<Section>>, written: &Node) {
        let size = written.end.saturating_sub(written.start);
        if self.strict && size > STRICT_MAX_HOOKS_BYTES {
            return self.fatal(
                ConfigProblem::HooksTooLarge { size, cap: STRICT_MAX_HOOKS_BYTES },
                section.line,
                section.column,
            );
        }
        let Checked::Ok(Both(versioned, Pairs(members))) = &section.value else {
            return self.fatal(
                ConfigProblem::HooksNotObject { found: section.found },
                section.line,
                section.column,
            );
        };
        if self.strict {
            self.credentials(written);
        }
        self.duplicates(members);
        self.version(section.at(), versioned);
        // JSON.parse semantics: of duplicate keys, the last one counts.
        for (key, groups) in last_written(members) {
            if key == "version" {
                continue;
            }
            let (line, column) = groups.key_at();
            match classify(key) {
                EventName::Mapped(ev) => {
                    if ev.canonical().is_gated() {
                        self.out.gated.insert(ev.canonical());
                    }
                    self.event(ev, key, groups);
                }
                EventName::Gap => {
                    let d = self.diag(
                        Severity::Warning,
                        &ConfigProblem::EventGap { name: key.clone() },
                        line,
                        column,
                    );
                    self.out.diagnostics.push(d);
                }
                EventName::Unknown => {
                    self.out.all_gated |= self.strict;
                    let problem = if self.strict {
                        ConfigProblem::UnknownKey { key: key.clone(), place: "`hooks`" }
                    } else {
                        ConfigProblem::UnknownEvent { name: key.clone() }
                    };
                    self.problem(Severity::Warning, problem, line, column);
                }
            }
        }
    }

    /// The section's `version`; `(line, column)` is the section's.
    fn version(&mut self, (line, column): (u32, u32), versioned: &Versioned) {
        match &versioned.version {
            None if self.strict => {
                self.problem(Severity::Error, ConfigProblem::MissingVersion, line, column);
            }
            Some(v) if v.value.as_u64() != Some(CONTRACT_VERSION) => {
                let text = serde_json::to_string(&v.value).unwrap_or_default();
                // A number is shown; a mistyped value only by its type, unless revealed.
                let found = if v.value.is_number() {
                    text
                } else {
                    hooks_schema::quoted_value(v.found, &text)
                };
                // A document written for a contract this engine does not know is not
                // half-read in either mode.
                self.fatal(ConfigProblem::UnsupportedVersion { found }, v.line, v.column);
            }
            None | Some(_) => {}
        }
    }

    fn credentials(&mut self, node: &Node) {
        match &node.kind {
            json::Kind::Object(members) => {
                for m in members {
                    if is_credential_key(&m.key) {
                        self.problem(
                            Severity::Error,
                            ConfigProblem::Credential { key: m.key.clone() },
                            m.line,
                            m.column,
                        );
                    }
                    self.credentials(&m.value);
                }
            }
            json::Kind::Array(items) => items.iter().for_each(|i| self.credentials(i)),
            _ => {}
        }
    }

    /// A warning for each key of `pairs` written again, at the later occurrence.
    fn duplicates<T>(&mut self, pairs: &[(String, At<T>)]) {
        let mut seen = BTreeSet::new();
        for (key, at) in pairs {
            if !seen.insert(key.as_str()) {
                let (line, column) = at.key_at();
                self.problem(
                    Severity::Warning,
                    ConfigProblem::DuplicateKey { key: key.clone() },
                    line,
                    column,
                );
            }
        }
    }

    fn event(&mut self, ev: NativeEvent, key: &str, groups: &At<Checked<Vec<GroupAt>>>) {
        self.event = Some(ev);
        match &groups.value {
            Checked::Ok(groups) => {
                for (gi, group) in groups.iter().enumerate() {
                    self.group(ev, gi, group);
                }
            }
            Checked::Wrong(_) => {
                self.wrong::<_, ()>(key, "an array of matcher groups", groups);
            }
        }
        self.event = None;
    }

    fn group(&mut self, ev: NativeEvent, gi: usize, at: &GroupAt) {
        let Checked::Ok(Both(group, Pairs(keys))) = &at.value else {
            self.wrong::<_, ()>(&format!("{}{}[{gi}]", self.prefix, ev.as_str()), "an object", at);
            return;
        };
        self.duplicates(keys);
        for (key, k) in keys {
            if key != "matcher" && key != "hooks" {
                let problem =
                    ConfigProblem::UnknownKey { key: key.clone(), place: "a matcher group" };
                let (line, column) = k.key_at();
                self.problem(Severity::Warning, problem, line, column);
            }
        }
        let (text, line, column) = match &group.matcher {
            None => (None, at.line, at.column),
            Some(At { value: Checked::Ok(t), line, column, .. }) => {
                (Some(t.as_str()), *line, *column)
            }
            Some(wrong) => return self.wrong("matcher", "a string", wrong).unwrap_or(()),
        };
        let pattern = match Pattern::compile(text.unwrap_or_default()) {
            Ok(p) => p,
            Err(e) => return self.problem(Severity::Error, ConfigProblem::from(e), line, column),
        };
        if ev.match_field() == crate::events::MatchField::None && !matches!(pattern, Pattern::All) {
            let d = HookDiagnostic::info(format!(
                "`{}` has no matcher support; the matcher is ignored",
                ev.as_str()
            ))
            .in_file(self.path)
            .at(line, column)
            .with_code("matcher_ignored");
            self.out.diagnostics.push(d);
        }
        let handlers = match &group.hooks {
            None => return self.missing("hooks", "an array of handlers", at.at()).unwrap_or(()),
            Some(At { value: Checked::Ok(handlers), .. }) => handlers,
            Some(wrong) => {
                return self.wrong("hooks", "an array of handlers", wrong).unwrap_or(());
            }
        };
        for (hi, h) in handlers.iter().enumerate() {
            self.hook = Some(format!("{}{}[{gi}][{hi}]", self.prefix, ev.as_str()));
            let def = self.handler(ev, gi, hi, h, text, &pattern);
            self.hook = None;
            if let Some(def) = def {
                self.out.definitions.push(def);
            }
        }
    }

    fn handler(
        &mut self,
        ev: NativeEvent,
        gi: usize,
        hi: usize,
        handler: &HandlerAt,
        matcher_text: Option<&str>,
        pattern: &Pattern,
    ) -> Option<HookDefinition> {
        let id_text = format!("{}{}[{gi}][{hi}]", self.prefix, ev.as_str());
        let Checked::Ok(Both(h, Pairs(members))) = &handler.value else {
            return self.wrong(&id_text, "an object", handler);
        };
        let at = handler.at();
        let kind = match &h.kind {
            None => return self.missing("type", "a string", at),
            Some(At { value: Checked::Ok(k), line, column, .. }) => (k.clone(), *line, *column),
            Some(k) => return self.wrong("type", "a string", k),
        };
        let is_http = kind.0 == "http";
        if kind.0 != "command" && !is_http {
            let problem = if OTHER_HANDLER_TYPES.contains(&kind.0.as_str()) {
                ConfigProblem::HandlerGap { kind: kind.0 }
            } else {
                ConfigProblem::UnknownHandlerType { kind: kind.0 }
            };
            let severity = if problem.code() == "capability_gap" {
                Severity::Warning
            } else {
                Severity::Error
            };
            self.problem(severity, problem, kind.1, kind.2);
            return None;
        }
        self.duplicates(members);
        let (known, place): (&[&str], _) = if is_http {
            (&HTTP_HANDLER_KEYS, "an http handler")
        } else {
            (&HANDLER_KEYS, "a command handler")
        };
        for (key, k) in members {
            if !known.contains(&key.as_str()) {
                let problem = ConfigProblem::UnknownKey { key: key.clone(), place };
                let (line, column) = k.key_at();
                self.problem(Severity::Warning, problem, line, column);
            }
        }
        let mut ok = true;
        let http = if is_http { Some(self.http(at, h)?) } else { None };
        let command = if is_http { String::new() } else { self.command_text(at, h)? };
        let args = if is_http { None } else { self.args(h)? };
        let shell = if is_http { None } else { self.opt(&h.shell, "shell", "a string", &mut ok) };
        let status_message = self.opt(&h.status_message, "statusMessage", "a string", &mut ok);
        let if_text = self.opt(&h.if_text, "if", "a string", &mut ok);
        let is_async =
            !is_http && self.opt(&h.is_async, "async", "a boolean", &mut ok) == Some(true);
        let rewake =
            !is_http && self.opt(&h.rewake, "asyncRewake", "a boolean", &mut ok) == Some(true);
        let once = self.opt(&h.once, "once", "a boolean", &mut ok);
        let on_failure_text = self.opt(&h.on_failure, "onFailure", "a string", &mut ok);
        if !ok {
            return None;
        }
        if is_http && ev == NativeEvent::SessionStart {
            // Claude Code 2.1.x runs only `command` and `mcp_tool` handlers on SessionStart
            // (seen: an http SessionStart handler is never called).
            self.note(
                Severity::Warning,
                at,
                "Claude Code does not run `http` handlers on `SessionStart`; the handler is skipped"
                    .to_owned(),
                "capability_gap",
            );
            return None;
        }
        self.handler_rest(
            ev,
            &id_text,
            (at, h),
            matcher_text,
            pattern,
            Fields {
                http,
                command,
                args,
                shell,
                status_message,
                if_text,
                is_async,
                rewake,
                once,
                on_failure_text,
            },
        )
    }

    /// A command handler's `command`: a non-empty string.
    fn command_text(&mut self, at: (u32, u32), h: &Handler) -> Option<String> {
        match &h.command {
            None => self.missing("command", "a string", at),
            Some(At { value: Checked::Ok(c), line, column, .. }) if c.trim().is_empty() => {
                self.problem(Severity::Error, ConfigProblem::MissingCommand, *line, *column);
                None
            }
            Some(At { value: Checked::Ok(c), .. }) => Some(c.clone()),
            Some(c) => self.wrong("command", "a string", c),
        }
    }

    /// A command handler's `args`: `Some(None)` when absent, `None` when invalid.
    fn args(&mut self, h: &Handler) -> Option<Option<Vec<String>>> {
        match &h.args {
            None => Some(None),
            Some(At { value: Checked::Ok(args), .. }) => Some(Some(args.clone())),
            Some(a) => self.wrong("args", "an array of strings", a),
        }
    }

    /// An `http` handler's `url`, `headers` and `allowedEnvVars`.
    fn http(&mut self, at: (u32, u32), h: &Handler) -> Option<hooks_schema::HttpHook> {
        let url = match &h.url {
            None => return self.missing("url", "a string", at),
            Some(At { value: Checked::Ok(u), line, column, .. }) if !looks_like_url(u) => {
                self.problem(Severity::Error, ConfigProblem::InvalidUrl, *line, *column);
                return None;
            }
            Some(At { value: Checked::Ok(u), .. }) => u.clone(),
            Some(u) => return self.wrong("url", "a string", u),
        };
        let mut headers = Vec::new();
        match &h.headers {
            None => {}
            Some(At { value: Checked::Ok(Pairs(members)), .. }) => {
                self.duplicates(members);
                // Every value must be a string, the overridden ones too.
                if let Some((key, value)) =
                    members.iter().find(|(_, value)| !matches!(value.value, Checked::Ok(_)))
                {
                    return self.wrong(&format!("headers.{key}"), "a string", value);
                }
                // JSON.parse semantics: of duplicate keys, the last one counts.
                for (key, value) in last_written(members) {
                    if let Checked::Ok(v) = &value.value {
                        headers.push((key.clone(), v.clone()));
                    }
                }
            }
            Some(wrong) => return self.wrong("headers", "an object of strings", wrong),
        }
        let allowed_env_vars = match &h.allowed_env_vars {
            None => Vec::new(),
            Some(At { value: Checked::Ok(names), .. }) => names.clone(),
            Some(a) => return self.wrong("allowedEnvVars", "an array of strings", a),
        };
        let hook = hooks_schema::HttpHook { url, headers, allowed_env_vars };
        self.http_hints(at, h, &hook);
        Some(hook)
    }

    /// `hooks check` hints about an `http` handler that still loads: a scheme no client here
    /// speaks, header variables that interpolate as empty. Values are never shown.
    fn http_hints(&mut self, at: (u32, u32), h: &Handler, hook: &hooks_schema::HttpHook) {
        let scheme = hook.url.split(':').next().unwrap_or_default().to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            self.note(
                Severity::Warning,
                at,
                "the `url` is neither http: nor https:; the request will fail and the hook counts as failed"
                    .to_owned(),
                "http_scheme",
            );
        }
        for (name, allowed) in hook.referenced_vars() {
            if allowed {
                continue;
            }
            self.note(
                Severity::Warning,
                key_at(&h.headers, at),
                format!(
                    "a header names `${name}`, which is not in `allowedEnvVars`: Claude Code sends it as empty"
                ),
                "http_env_not_allowed",
            );
        }
    }

    /// The rest of a handler once its kind-specific fields are read.
    fn handler_rest(
        &mut self,
        ev: NativeEvent,
        id_text: &str,
        (at, h): ((u32, u32), &Handler),
        matcher_text: Option<&str>,
        pattern: &Pattern,
        f: Fields,
    ) -> Option<HookDefinition> {
        if self.strict && f.shell.is_some() {
            let (l, c) = value_at(&h.shell, at);
            let why = "it names a `shell`".to_owned();
            self.problem(Severity::Error, ConfigProblem::NeedsShell { why }, l, c);
            return None;
        }
        if let Some(sh) = f.shell.as_deref()
            && !SHELLS.contains(&sh)
        {
            let (l, c) = value_at(&h.shell, at);
            self.problem(Severity::Error, ConfigProblem::Shell { found: sh.to_owned() }, l, c);
            return None;
        }
        let timeout = match &h.timeout {
            None => ev.default_timeout(),
            Some(At { value: Checked::Ok(s), line, column, .. }) if *s > 0.0 && s.is_finite() => {
                let timeout = claude_timeout(*s);
                if *s >= MILLISECONDS_HINT {
                    self.hint_milliseconds(timeout, *line, *column);
                }
                timeout
            }
            Some(At { value: Checked::Ok(s), line, column, .. }) => {
                let problem = ConfigProblem::Timeout { seconds: *s };
                self.problem(Severity::Error, problem, *line, *column);
                return None;
            }
            Some(t) => return self.wrong("timeout", "a number of seconds", t),
        };
        let if_rule = match &f.if_text {
            None => None,
            Some(t) => match IfRule::parse(t) {
                Ok(r) => Some(r),
                Err(e) => {
                    let (l, c) = value_at(&h.if_text, at);
                    self.problem(Severity::Error, ConfigProblem::IfRule(e), l, c);
                    return None;
                }
            },
        };
        if if_rule.is_some() && !ev.is_tool_event() {
            self.note(
                Severity::Info,
                key_at(&h.if_text, at),
                format!(
                    "`if` is evaluated only on tool events; it is ignored on `{}`",
                    ev.as_str()
                ),
                "if_ignored",
            );
        }
        if f.once.is_some() {
            self.note(
                Severity::Info,
                key_at(&h.once, at),
                "`once` is honoured only in skill frontmatter; it is ignored here".to_owned(),
                "once_ignored",
            );
        }
        let is_async = f.is_async || f.rewake;
        if f.rewake {
            let d = self.diag(
                Severity::Warning,
                &ConfigProblem::HandlerGap { kind: "asyncRewake".to_owned() },
                at.0,
                at.1,
            );
            self.out.diagnostics.push(HookDiagnostic {
                message: "`asyncRewake` is not supported; the hook runs as a plain async hook"
                    .to_owned(),
                ..d
            });
        }
        if self.strict && is_async && ev.canonical().is_gated() {
            self.problem(
                Severity::Error,
                ConfigProblem::AsyncGate { event: ev.as_str().to_owned() },
                at.0,
                at.1,
            );
            return None;
        }
        let on_failure = match f.on_failure_text.as_deref() {
            None | Some("continue") => OnFailure::Warn,
            Some("block") => OnFailure::Block,
            Some(other) => {
                let (l, c) = value_at(&h.on_failure, at);
                self.problem(
                    Severity::Error,
                    ConfigProblem::OnFailure { found: other.to_owned() },
                    l,
                    c,
                );
                return None;
            }
        };
        if on_failure == OnFailure::Block && (is_async || !ev.honours_on_failure()) {
            let why = if is_async {
                "for async hooks".to_owned()
            } else {
                format!("on `{}`", ev.as_str())
            };
            self.note(
                Severity::Info,
                key_at(&h.on_failure, at),
                format!("`onFailure: block` is ignored {why}"),
                "on_failure_ignored",
            );
        }
        let on_failure = if self.strict && ev.canonical().is_gated() {
            // The strict contract fails closed on every gated event.
            OnFailure::Block
        } else if is_async || !ev.honours_on_failure() {
            OnFailure::Warn
        } else {
            on_failure
        };
        let command = match (f.http, f.args, self.strict) {
            (Some(http), _, _) => HookCommand::Http(http),
            (None, Some(args), _) => HookCommand::Exec { program: f.command, args },
            (None, None, false) => HookCommand::Shell { script: f.command, shell: f.shell },
            // The deny-only contract spawns handlers directly: a command made of plain words is
            // split into its argv; one that needs a shell breaks the contract.
            (None, None, true) => match direct_argv(&f.command) {
                Ok(mut words) => {
                    let program = words.remove(0);
                    HookCommand::Exec { program, args: words }
                }
                Err(why) => {
                    let (l, c) = value_at(&h.command, at);
                    self.problem(Severity::Error, ConfigProblem::NeedsShell { why }, l, c);
                    return None;
                }
            },
        };
        let mut native = Map::new();
        if let Some(s) = f.status_message {
            native.insert("statusMessage".to_owned(), Value::String(s));
        }
        if let Some(t) = f.if_text {
            native.insert("if".to_owned(), Value::String(t));
        }
        if f.rewake {
            native.insert("asyncRewake".to_owned(), Value::Bool(true));
        }
        if self.strict {
            native.insert(NATIVE_STRICT.to_owned(), Value::Bool(true));
        }
        let id = HookId::new(id_text).ok()?;
        let order = self.order;
        self.order = self.order.saturating_add(1);
        Some(HookDefinition {
            id,
            event: ev.canonical(),
            native_event: ev.as_str().to_owned(),
            matcher: matcher::build(ev, matcher_text, pattern.clone(), if_rule),
            command,
            cwd: None,
            env: Vec::new(),
            timeout,
            on_failure,
            mode: if is_async { ExecutionMode::Async } else { ExecutionMode::Blocking },
            delivery: Delivery::BestEffort,
            detach: false,
            enabled: true,
            codec: Arc::new(ClaudeCodec),
            order,
            line: Some(at.0),
            column: Some(at.1),
            description: None,
            native,
        })
    }

    /// The `hooks check` hint for a `timeout` that looks like milliseconds. Only a warning,
    /// never a strict violation: the hook runs with the timeout Claude Code gives it.
    fn hint_milliseconds(&mut self, timeout: Duration, line: u32, column: u32) {
        let minutes = timeout.as_secs_f64() / 60.0;
        self.note(
            Severity::Warning,
            (line, column),
            format!(
                "Claude Code reads seconds: this hook may run for {minutes:.0} minutes; did you mean milliseconds?"
            ),
            "timeout_milliseconds",
        );
    }

    /// A diagnostic of the handler being read, at `(line, column)`, with `code`.
    fn note(
        &mut self,
        severity: Severity,
        (line, column): (u32, u32),
        message: String,
        code: &str,
    ) {
        let mut d = HookDiagnostic::new(severity, message)
            .in_file(self.path)
            .at(line, column)
            .with_code(code);
        d.hook_id.clone_from(&self.hook);
        self.out.diagnostics.push(d);
    }

    /// An optional field's value; of another type, a `WrongType` problem and `ok` false.
    fn opt<T: Clone>(
        &mut self,
        field: &Field<T>,
        key: &str,
        expected: &'static str,
        ok: &mut bool,
    ) -> Option<T> {
        match field.as_ref()? {
            At { value: Checked::Ok(v), .. } => Some(v.clone()),
            wrong => {
                *ok = false;
                self.wrong(key, expected, wrong)
            }
        }
    }

    /// A `WrongType` problem for a field written with another type (an array of strings
    /// that holds something else is said so); always `None`.
    fn wrong<T, R>(&mut self, key: &str, expected: &'static str, field: &At<T>) -> Option<R> {
        let found = match (expected, field.found) {
            ("an array of strings", "an array") => "an array with a non-string item",
            (_, found) => found,
        };
        let problem = ConfigProblem::WrongType { key: key.to_owned(), expected, found };
        self.problem(Severity::Error, problem, field.line, field.column);
        None
    }

    /// A `WrongType` problem for a required field that is absent, at its object (a handler,
    /// a matcher group); always `None`.
    fn missing<R>(
        &mut self,
        key: &str,
        expected: &'static str,
        (line, column): (u32, u32),
    ) -> Option<R> {
        let problem = ConfigProblem::WrongType { key: key.to_owned(), expected, found: "nothing" };
        self.problem(Severity::Error, problem, line, column);
        None
    }
}

#[cfg(test)]
mod tests;
