//! Codex's format descriptor: where its hook files live (each config layer's `hooks.json` and
//! `config.toml`, the managed `requirements.toml`), how they parse, its events, its codec and
//! its host codec, as the engine's core reads them.

use std::{collections::BTreeMap, path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, AgentIndex, Claim, FileLocation, FilePattern, FileRole, FileScope, FollowStep,
    Followed, FormatDescriptor, FormatDirs, FormatId, HookCodec, HookDefinition, HookEvent,
    HookSourceKind, HostCodec, InstallTarget, ManagedDir, NativeEvent, ParseContext, ParseResult,
    ParsedSource, ProjectFolders, ReviewRecordError, UserDir,
};

use crate::{CodexCodec, CodexEvent, CodexHost};

/// Codex's format id.
pub const FORMAT: FormatId = FormatId::new("codex");

/// A layer's `hooks.json`.
pub const HOOKS_FILE: FileRole = FileRole::new(FORMAT, "codex_hooks", 400);
/// A layer's `config.toml` (its inline `[hooks]`, `[features]` and, for the user, `[hooks.state]`).
pub const CONFIG_FILE: FileRole = FileRole::new(FORMAT, "codex_config", 410);
/// The administrator's `requirements.toml` (managed hooks, `allow_managed_hooks_only`,
/// `[features].hooks`).
pub const REQUIREMENTS_FILE: FileRole = FileRole::new(FORMAT, "codex_requirements", 420);

/// A repository's `.codex/hooks.json`.
pub const PROJECT_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Project, HOOKS_FILE);
/// A repository's `.codex/config.toml`.
pub const PROJECT_CONFIG: HookSourceKind = HookSourceKind::file(FileScope::Project, CONFIG_FILE);
/// `$CODEX_HOME/hooks.json` (default `~/.codex/hooks.json`).
pub const USER_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::User, HOOKS_FILE);
/// `$CODEX_HOME/config.toml`.
pub const USER_CONFIG: HookSourceKind = HookSourceKind::file(FileScope::User, CONFIG_FILE);
/// `/etc/codex/hooks.json` (the system layer, managed).
pub const MANAGED_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Managed, HOOKS_FILE);
/// `/etc/codex/config.toml` and `/etc/codex/managed_config.toml` (managed).
pub const MANAGED_CONFIG: HookSourceKind = HookSourceKind::file(FileScope::Managed, CONFIG_FILE);
/// `/etc/codex/requirements.toml`.
pub const MANAGED_REQUIREMENTS: HookSourceKind =
    HookSourceKind::file(FileScope::Managed, REQUIREMENTS_FILE);

/// The environment variable that moves the user's Codex folder.
pub const CODEX_HOME_VAR: &str = "CODEX_HOME";

const LOCATIONS: [FileLocation; 7] = [
    FileLocation::hooks(
        REQUIREMENTS_FILE,
        FileScope::Managed,
        FilePattern::File("requirements.toml"),
    ),
    FileLocation::hooks(HOOKS_FILE, FileScope::Managed, FilePattern::File("hooks.json")),
    FileLocation::hooks(CONFIG_FILE, FileScope::Managed, FilePattern::File("config.toml")),
    FileLocation::hooks(CONFIG_FILE, FileScope::Managed, FilePattern::File("managed_config.toml")),
    FileLocation::hooks(HOOKS_FILE, FileScope::Project, FilePattern::File(".codex/hooks.json")),
    FileLocation::hooks(CONFIG_FILE, FileScope::Project, FilePattern::File(".codex/config.toml")),
    FileLocation::hooks(HOOKS_FILE, FileScope::User, FilePattern::File("hooks.json")),
];

const USER_CONFIG_LOCATION: FileLocation =
    FileLocation::hooks(CONFIG_FILE, FileScope::User, FilePattern::File("config.toml"));

static ALL_LOCATIONS: [FileLocation; 8] = {
    let mut out = [USER_CONFIG_LOCATION; 8];
    let mut i = 0;
    while i < LOCATIONS.len() {
        out[i] = LOCATIONS[i];
        i += 1;
    }
    out
};

static EVENTS: [NativeEvent; CodexEvent::ALL.len()] =
    hooks_schema::native_events!(CodexEvent::ALL, |e| e.as_str(), e.canonical());

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: ".codex/hooks.json" },
    InstallTarget { scope: FileScope::User, path: "hooks.json" },
];

/// Codex's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CodexFormat;

/// Codex's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(CodexFormat)
}

fn in_codex_folder(path: &Path) -> bool {
    path.parent().and_then(Path::file_name).is_some_and(|n| n == ".codex")
}

/// Codex's installed plugins (`$CODEX_HOME/plugins/`: each plugin's hooks and the scripts
/// they run), which Codex loads itself; the guard protects the folder.
pub const PLUGINS: FileRole = FileRole::new(FORMAT, "codex_plugins", 495);

/// Where Codex's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "codex_hook_scripts", 491);

/// [`HOOK_SCRIPTS`]'s folders, in the project and the user's.
const SCRIPT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".codex/hooks");

/// The folders Codex loads hooks from that the engine does not read: its plugins (installed
/// under `plugins/cache/`, their data under `plugins/data/`); and where its hook scripts are
/// kept.
const AGENT_FOLDERS: [AgentFolder; 3] = [
    AgentFolder::at(PLUGINS, FileScope::User, "plugins").with_indexes(&PLUGIN_INDEXES),
    SCRIPT_FOLDERS[0],
    SCRIPT_FOLDERS[1],
];

/// The plugins' index: `config.toml`'s `[plugins]`, the installed plugins
/// (`crate::follow`), whose copies' hook files are read so that what they run is protected.
const PLUGIN_INDEXES: [AgentIndex; 1] =
    [AgentIndex { file: "config.toml", step: crate::PLUGINS_CONFIG }];

impl FormatDescriptor for CodexFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Codex"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".codex").or_env(CODEX_HOME_VAR)),
            managed: Some(ManagedDir::per_platform(
                "/etc/codex",
                "/etc/codex",
                r"C:\ProgramData\OpenAI\Codex",
            )),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &ALL_LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// `requirements.toml` and `managed_config.toml` are Codex's by name; `hooks.json` and
    /// `config.toml` in a `.codex` folder by folder and name together (above Cursor's
    /// fallback claim on any `hooks.json`).
    fn claim(&self, path: &Path) -> Claim {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name == "requirements.toml" || name == "managed_config.toml" {
            Claim::Name
        } else if in_codex_folder(path) && (name == "hooks.json" || name == "config.toml") {
            Claim::Path
        } else {
            Claim::No
        }
    }

    /// A TOML document with a `[hooks]` table.
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let Ok(text) = std::str::from_utf8(bytes) else { return Claim::No };
        match toml_edit::Document::parse(text) {
            Ok(doc) if doc.get("hooks").is_some_and(|h| h.is_table_like()) => Claim::Name,
            _ => Claim::No,
        }
    }

    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        if ctx.kind.role() == Some(PLUGINS) {
            return crate::parse_plugin_hooks(bytes, ctx.path, ctx.kind, ctx.base);
        }
        crate::parse(bytes, ctx.path, ctx.kind)
    }

    /// The installed plugins ([`crate::follow`]).
    fn follow(&self, role: FileRole, step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
        if role == PLUGINS { crate::follow(step, bytes) } else { Vec::new() }
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn canonical_event(&self, native: &str) -> Option<HookEvent> {
        CodexEvent::from_name(native).and_then(CodexEvent::canonical)
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(CodexCodec)
    }

    /// Codex launches every matching command hook of an event concurrently.
    fn concurrent_gated_hooks(&self) -> bool {
        true
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&CodexHost)
    }

    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// Codex reads each `.codex/` from the repository's root down to the session's folder,
    /// the deeper ranking higher (its project layers; observed with Codex 0.169.0,
    /// `specs/bridge.md`).
    fn project_folders(&self) -> ProjectFolders {
        ProjectFolders::RootToSession
    }

    /// Codex reviews every hook outside the managed layer before it runs it.
    fn requires_review(&self, scope: FileScope) -> bool {
        matches!(scope, FileScope::Project | FileScope::User)
    }

    /// Every enabled hook of the file is trusted at its current hash in `[hooks.state]`,
    /// which only the user's `config.toml` carries (among `others`, or the file itself).
    fn agent_reviewed(
        &self,
        _path: &Path,
        parsed: &ParsedSource,
        others: &[&ParsedSource],
    ) -> bool {
        let mut states = BTreeMap::new();
        let mut carriers = Vec::new();
        for source in std::iter::once(parsed).chain(others.iter().copied()) {
            if source.settings.contains_key(crate::SETTINGS_HOOK_STATE) {
                carriers.push(source);
            }
            states.extend(crate::states_from_settings(&source.settings));
        }
        // A hook the user turned off in Codex needs no review where the file that turns it
        // off is certain to run (its own hooks reviewed too, strictly): that file's policy then
        // switches the hook off. Otherwise the hook must be reviewed like any other, so that a
        // hook the user disabled never runs unreviewed when the disabling file does not run.
        let off = carriers
            .iter()
            .all(|c| crate::review_of(&c.definitions, &states) == crate::SourceReview::Reviewed);
        crate::review_skipping(&parsed.definitions, &states, off) == crate::SourceReview::Reviewed
    }

    /// `config.toml` in `$CODEX_HOME`: Codex runs a user or project hook only when its
    /// `[hooks.state]` holds the hook's current hash (what Codex's `/hooks` review writes).
    fn install_review_file(&self) -> Option<&'static str> {
        Some("config.toml")
    }

    /// `trusted_hash` of each hook in `trust` under `[hooks.state."<key>"]`, and out again
    /// for each in `forget` ([`crate::record_trusted`]).
    fn install_review(
        &self,
        record: Option<&str>,
        trust: &[&HookDefinition],
        forget: &[&HookDefinition],
    ) -> Result<String, ReviewRecordError> {
        let trust: Vec<(&str, &str)> =
            trust.iter().filter_map(|d| crate::key_and_hash(d)).collect();
        let forget: Vec<(&str, &str)> =
            forget.iter().filter_map(|d| crate::key_and_hash(d)).collect();
        crate::record_trusted(record, &trust, &forget).map_err(|e| ReviewRecordError(e.to_string()))
    }

    /// `{}`: `hooks.json` accepts only `description` and `hooks` at its root.
    fn install_new_file(&self) -> &'static str {
        "{}"
    }

    /// A group per event (with matcher `*` where Codex keeps matchers) holding one command
    /// handler; the timeout is the longest Codex allows for the event (3 s on `SessionEnd`
    /// and `Interrupt`, 600 s elsewhere). Events the engine has no counterpart for are not
    /// registered.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        let e = CodexEvent::from_name(event.name)?;
        e.canonical()?;
        let timeout = if e.short_timeout() { 3 } else { 600 };
        let handler =
            serde_json::json!({"type": "command", "command": command, "timeout": timeout});
        Some(if e.keeps_matcher() {
            serde_json::json!({"matcher": "*", "hooks": [handler]})
        } else {
            serde_json::json!({"hooks": [handler]})
        })
    }
}

#[cfg(test)]
mod tests;
