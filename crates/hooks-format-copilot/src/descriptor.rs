//! Copilot CLI's format descriptor: where its hook files live (a repository's
//! `.github/hooks/*.json` and `.github/copilot/settings*.json`, the user's
//! `~/.copilot/hooks/*.json` and `~/.copilot/settings.json`, the machine's
//! `policy.d/*.json`), how they parse, its events, its codec and its host codec.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, AgentIndex, Claim, FileLocation, FilePattern, FileRole, FileScope, FollowStep,
    Followed, FormatDescriptor, FormatDirs, FormatId, HookCodec, HookSourceKind, HostCodec,
    InstallTarget, ManagedDir, NativeEvent, OtherFormatFiles, ParseContext, ParseResult,
    ProjectFolders, SourceScope, UserDir,
};

use crate::{
    CopilotCodec, CopilotEvent, CopilotHost, PROJECT_DIR_VARS,
    events::Dialect,
    parse::{DocumentKind, parse_as},
};

/// Copilot CLI's format id.
pub const FORMAT: FormatId = FormatId::new("copilot");

/// A hook file (`*.json` in a hooks folder, or a policy file).
pub const HOOKS_FILE: FileRole = FileRole::new(FORMAT, "copilot_hooks", 500);
/// A settings file with inline `hooks`.
pub const SETTINGS_FILE: FileRole = FileRole::new(FORMAT, "copilot_settings", 510);
/// The repository's personal settings file (`.github/copilot/settings.local.json`): a settings
/// file whose keys win over `settings.json`'s, so it ranks above it (observed with Copilot CLI
/// 1.0.102: its `disableAllHooks: false` ran the hooks `settings.json` switched off, and its
/// `true` switched them off against `settings.json`'s `false`).
pub const LOCAL_SETTINGS_FILE: FileRole = FileRole::new(FORMAT, "copilot_local_settings", 505);

/// `/etc/github-copilot/policy.d/*.json` (machine policy, managed).
pub const MANAGED_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Managed, HOOKS_FILE);
/// A repository's `.github/hooks/*.json`.
pub const PROJECT_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Project, HOOKS_FILE);
/// A repository's `.github/copilot/settings.json`.
pub const PROJECT_SETTINGS: HookSourceKind =
    HookSourceKind::file(FileScope::Project, SETTINGS_FILE);
/// A repository's `.github/copilot/settings.local.json`.
pub const PROJECT_LOCAL_SETTINGS: HookSourceKind =
    HookSourceKind::file(FileScope::Project, LOCAL_SETTINGS_FILE);
/// `~/.copilot/hooks/*.json` (or `$COPILOT_HOME/hooks/*.json`).
pub const USER_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::User, HOOKS_FILE);
/// `~/.copilot/settings.json`.
pub const USER_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::User, SETTINGS_FILE);

/// The environment variable that moves the user's Copilot folder.
pub const COPILOT_HOME_VAR: &str = "COPILOT_HOME";

/// The repository's hook folder, relative to the root.
pub const PROJECT_HOOKS_DIR: &str = ".github/hooks";

const LOCATIONS: [FileLocation; 6] = [
    // Copilot CLI reads a policy file only when root owns it and neither its group nor others
    // may write it [DOC]; the engine also asks it of the folders above (as for Gemini CLI's
    // system files), so that no one but root can swap the file.
    FileLocation::hooks(
        HOOKS_FILE,
        FileScope::Managed,
        FilePattern::EachIn { dir: "policy.d", suffix: ".json", recursive: false },
    )
    .administrator_only(),
    // Copilot CLI 1.0.102 reads the folder's subfolders too (`test_data/observed-loading.json`,
    // `subdir-nested.json` sat in `.github/hooks/sub/`).
    FileLocation::hooks(
        HOOKS_FILE,
        FileScope::Project,
        FilePattern::EachIn { dir: PROJECT_HOOKS_DIR, suffix: ".json", recursive: true },
    ),
    FileLocation::hooks(
        SETTINGS_FILE,
        FileScope::Project,
        FilePattern::File(".github/copilot/settings.json"),
    ),
    FileLocation::hooks(
        LOCAL_SETTINGS_FILE,
        FileScope::Project,
        FilePattern::File(".github/copilot/settings.local.json"),
    ),
    // The user's folder with its subfolders too, as Copilot CLI 1.0.102 reads it (session 22:
    // a deny in `~/.copilot/hooks/sub/gate.json` stopped the tool; a `.hidden/` folder's
    // file, in the project's folder, did not).
    FileLocation::hooks(
        HOOKS_FILE,
        FileScope::User,
        FilePattern::EachIn { dir: "hooks", suffix: ".json", recursive: true },
    ),
    FileLocation::hooks(SETTINGS_FILE, FileScope::User, FilePattern::File("settings.json")),
];

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: ".github/hooks/agent-hooks.json" },
    InstallTarget { scope: FileScope::User, path: "hooks/agent-hooks.json" },
];

const EVENT_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < CopilotEvent::ALL.len() {
        n += if CopilotEvent::ALL[i].pascal().is_some() { 2 } else { 1 };
        i += 1;
    }
    n
};

const fn all_events() -> [NativeEvent; EVENT_COUNT] {
    let mut out = [NativeEvent { name: "", canonical: None }; EVENT_COUNT];
    let mut i = 0;
    let mut j = 0;
    while i < CopilotEvent::ALL.len() {
        let e = CopilotEvent::ALL[i];
        out[j] = NativeEvent { name: e.camel(), canonical: e.canonical() };
        j += 1;
        i += 1;
    }
    i = 0;
    while i < CopilotEvent::ALL.len() {
        let e = CopilotEvent::ALL[i];
        if let Some(p) = e.pascal() {
            out[j] = NativeEvent { name: p, canonical: e.canonical() };
            j += 1;
        }
        i += 1;
    }
    out
}

/// Copilot's events: every camelCase name, then the PascalCase ones.
static EVENTS: [NativeEvent; EVENT_COUNT] = all_events();

/// Copilot CLI's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotFormat;

/// Copilot CLI's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(CopilotFormat)
}

fn file_name(p: Option<&Path>) -> &str {
    p.and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or_default()
}

fn names(path: &Path) -> (&str, &str, &str) {
    let parent = path.parent();
    (file_name(Some(path)), file_name(parent), file_name(parent.and_then(Path::parent)))
}

/// Copilot CLI's installed plugins (`~/.copilot/installed-plugins/`: each plugin's hooks and
/// the scripts they run, materialised there by Copilot CLI 1.0.102's plugin manager), which
/// Copilot CLI loads itself; the guard protects the folder.
pub const PLUGINS: FileRole = FileRole::new(FORMAT, "copilot_plugins", 590);

/// The folders Copilot CLI loads hooks from that the engine does not read: its plugins,
/// with the files that lead to the plugins it loads from elsewhere (a marketplace added from
/// a local folder, in `settings.json`) and to the installed ones' copies (`config.json`).
const AGENT_FOLDERS: [AgentFolder; 1] =
    [AgentFolder::at(PLUGINS, FileScope::User, "installed-plugins").with_indexes(&PLUGIN_INDEXES)];

/// [`AGENT_FOLDERS`]' indexes, relative to the user's `~/.copilot` (`crate::follow`).
const PLUGIN_INDEXES: [AgentIndex; 2] = [
    AgentIndex { file: "settings.json", step: crate::SETTINGS },
    AgentIndex { file: "config.json", step: crate::CONFIG },
];

/// A plugin's hook file under Copilot CLI's installed plugins
/// (`.copilot/installed-plugins/…/hooks.json`), for a file named directly (`hooks check`).
fn is_plugin_hook_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "hooks.json")
        && path
            .iter()
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| w[0] == ".copilot" && w[1] == "installed-plugins")
}

impl FormatDescriptor for CopilotFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Copilot CLI"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".copilot").or_env(COPILOT_HOME_VAR)),
            managed: Some(ManagedDir::per_platform(
                "/etc/github-copilot",
                "/etc/github-copilot",
                r"C:\ProgramData\GitHub\Copilot",
            )),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// The plugins' indexes and what they lead to ([`crate::follow`]).
    fn follow(&self, role: FileRole, step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
        if role == PLUGINS { crate::follow(step, bytes) } else { Vec::new() }
    }

    /// Copilot's files are only looked for in their own folders (`settings.json` in an
    /// explicit folder is Claude Code's).
    fn explicit_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// `*.json` in `.github/hooks`, `.copilot/hooks` or `policy.d`, and `settings*.json` in
    /// `.github/copilot` or `.copilot`, are Copilot's by folder and name together.
    fn claim(&self, path: &Path) -> Claim {
        if is_plugin_hook_file(path) {
            return Claim::Path;
        }
        let (name, parent, grand) = names(path);
        let json = name.ends_with(".json") && !name.starts_with('.');
        let settings = name == "settings.json" || name == "settings.local.json";
        let hooks_dir = parent == "hooks" && (grand == ".github" || grand == ".copilot");
        let settings_dir = (parent == "copilot" && grand == ".github") || parent == ".copilot";
        if (json && (hooks_dir || parent == "policy.d")) || (settings && settings_dir) {
            Claim::Path
        } else {
            Claim::No
        }
    }

    /// A JSON object with `version: 1` and `hooks` whose event names are Copilot's, holding
    /// something only Copilot writes (a `bash`, `powershell`, `timeoutSec` or `exec` entry,
    /// or an event Cursor does not have).
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let Ok(serde_json::Value::Object(root)) =
            serde_json::from_slice::<serde_json::Value>(bytes)
        else {
            return Claim::No;
        };
        let Some(serde_json::Value::Object(hooks)) = root.get("hooks") else { return Claim::No };
        if hooks.is_empty() || !hooks.keys().all(|k| CopilotEvent::from_name(k).is_some()) {
            return Claim::No;
        }
        let own_event = hooks.keys().any(|k| {
            matches!(CopilotEvent::from_name(k), Some((e, Dialect::Camel)) if matches!(
                e,
                CopilotEvent::UserPromptSubmitted
                    | CopilotEvent::AgentStop
                    | CopilotEvent::ErrorOccurred
                    | CopilotEvent::PermissionRequest
                    | CopilotEvent::UserPromptTransformed
                    | CopilotEvent::PreMcpToolCall
            ))
        });
        let own_entry = hooks.values().filter_map(serde_json::Value::as_array).flatten().any(|e| {
            ["bash", "powershell", "timeoutSec", "exec"].iter().any(|k| e.get(k).is_some())
        });
        if own_event || own_entry { Claim::Name } else { Claim::No }
    }

    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        if ctx.kind.role() == Some(PLUGINS) || is_plugin_hook_file(ctx.path) {
            return crate::parse_plugin_hooks(bytes, ctx.path, ctx.base);
        }
        let kind = if ctx.kind.role() == Some(SETTINGS_FILE)
            || ctx.kind.role() == Some(LOCAL_SETTINGS_FILE)
        {
            if ctx.kind.scope() == SourceScope::File(FileScope::User) {
                DocumentKind::UserSettings
            } else {
                DocumentKind::Settings
            }
        } else {
            DocumentKind::of(ctx.path)
        };
        parse_as(bytes, ctx.path, kind)
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(CopilotCodec)
    }

    /// Started in a subfolder of a repository, Copilot CLI reads that folder's project files,
    /// not the root's (observed with Copilot CLI 1.0.102, `specs/bridge.md`).
    fn project_folders(&self) -> ProjectFolders {
        ProjectFolders::Session
    }

    fn project_dir_vars(&self) -> &[&'static str] {
        &PROJECT_DIR_VARS
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&CopilotHost)
    }

    /// Copilot CLI also runs a repository's Claude Code settings hooks (1.0.102 ran a
    /// PascalCase group from the project's `.claude/settings.json`), so a bridge hosted by
    /// Copilot leaves those to it; not the hooks of the subagent those settings make the main
    /// thread's agent (`agent`), which 1.0.102 did not run (`cargo xtask agents`, the
    /// **agent** run), so the bridge runs them.
    fn host_also_runs(&self) -> &[OtherFormatFiles] {
        const CLAUDE: [OtherFormatFiles; 1] = [OtherFormatFiles {
            format: FormatId::new("claude"),
            scopes: &[FileScope::Project],
            roles: &["claude_settings", "claude_local_settings"],
        }];
        &CLAUDE
    }

    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// `{"version": 1}`: Copilot CLI reads a hook file only with its version.
    fn install_new_file(&self) -> &'static str {
        "{\"version\": 1}"
    }

    /// A flat `{"type": "command", "bash": …, "timeoutSec": 600}` (no matcher: every tool)
    /// under each camelCase event the engine maps. The PascalCase names are the same events
    /// in Claude Code's dialect: registering both would run the bridge twice per event.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        let (e, dialect) = CopilotEvent::from_name(event.name)?;
        if dialect != Dialect::Camel {
            return None;
        }
        e.canonical()?;
        Some(serde_json::json!({"type": "command", "bash": command, "timeoutSec": 600}))
    }
}

#[cfg(test)]
mod tests;
