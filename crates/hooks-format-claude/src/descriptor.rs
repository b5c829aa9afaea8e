//! Claude Code's format descriptor: where its settings files live (managed, project, local,
//! user), how they parse, its events and its codec, as the engine's core reads them.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, AgentIndex, Claim, FileLocation, FilePattern, FileRole, FileScope, FollowStep,
    Followed, FormatDescriptor, FormatDirs, FormatId, HookCodec, HookDiagnostic, HookEvent,
    HookSourceKind, HostCodec, InstallTarget, ManagedDir, NativeEvent, ParseContext, ParseResult,
    ProjectFolders, UserDir,
};

use crate::{
    ClaudeCodec, ClaudeHost, ClaudeMode, FrontMatterOf, GAP_EVENTS, NativeEvent as ClaudeEvent,
    PROJECT_DIR_VAR,
};

/// The variable that moves Claude Code's user folder (`~/.claude`) elsewhere: its
/// `settings.json`, its plugins and its installed bridge entries follow it (Claude Code
/// 2.1.328 reads `$CLAUDE_CONFIG_DIR/settings.json` and not `~/.claude/settings.json` when it
/// is set).
pub const CONFIG_DIR_VAR: &str = "CLAUDE_CONFIG_DIR";

/// Claude Code's format id.
pub const FORMAT: FormatId = FormatId::new("claude");

/// A repository's `.claude/settings.local.json`, which outranks the shared file.
pub const LOCAL_SETTINGS: FileRole = FileRole::new(FORMAT, "claude_local_settings", 300);

/// A `settings.json` (the user's, a repository's, or the administrator's
/// `managed-settings.json` and its `managed-settings.d/` fragments).
pub const SETTINGS: FileRole = FileRole::new(FORMAT, "claude_settings", 310);

/// Claude Code's managed settings (`managed-settings.json` and each
/// `managed-settings.d/*.json` fragment).
pub const MANAGED_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::Managed, SETTINGS);
/// A repository's `.claude/settings.local.json`.
pub const PROJECT_LOCAL_SETTINGS: HookSourceKind =
    HookSourceKind::file(FileScope::Project, LOCAL_SETTINGS);
/// A repository's `.claude/settings.json`.
pub const PROJECT_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::Project, SETTINGS);
/// The user's `~/.claude/settings.json`.
pub const USER_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::User, SETTINGS);

/// The folder of settings fragments beside `managed-settings.json`.
pub const MANAGED_FRAGMENT_DIR: &str = "managed-settings.d";

/// Every Markdown file under a subagents or commands folder, at any depth.
const MARKDOWN: &str = ".md";

/// A skill's file (`<name>/SKILL.md`), at any depth under the skills folder.
const SKILL_FILE: &str = "SKILL.md";

const LOCATIONS: [FileLocation; 11] = [
    FileLocation::hooks(SETTINGS, FileScope::Managed, FilePattern::File("managed-settings.json")),
    FileLocation::hooks(
        SETTINGS,
        FileScope::Managed,
        FilePattern::EachIn { dir: MANAGED_FRAGMENT_DIR, suffix: ".json", recursive: false },
    ),
    FileLocation::hooks(
        LOCAL_SETTINGS,
        FileScope::Project,
        FilePattern::File(".claude/settings.local.json"),
    ),
    FileLocation::hooks(SETTINGS, FileScope::Project, FilePattern::File(".claude/settings.json")),
    // The front matter of subagents, skills and commands: their hooks are read, listed and
    // their scripts protected; only the main thread's agent's run (`parse_front_matter`).
    FileLocation::hooks_if_any(
        AGENTS,
        FileScope::Project,
        FilePattern::EachIn { dir: ".claude/agents", suffix: MARKDOWN, recursive: true },
    ),
    FileLocation::hooks_if_any(
        SKILLS,
        FileScope::Project,
        FilePattern::EachIn { dir: ".claude/skills", suffix: SKILL_FILE, recursive: true },
    ),
    FileLocation::hooks_if_any(
        COMMANDS,
        FileScope::Project,
        FilePattern::EachIn { dir: ".claude/commands", suffix: MARKDOWN, recursive: true },
    ),
    FileLocation::hooks(SETTINGS, FileScope::User, FilePattern::File("settings.json")),
    FileLocation::hooks_if_any(
        AGENTS,
        FileScope::User,
        FilePattern::EachIn { dir: "agents", suffix: MARKDOWN, recursive: true },
    ),
    FileLocation::hooks_if_any(
        SKILLS,
        FileScope::User,
        FilePattern::EachIn { dir: "skills", suffix: SKILL_FILE, recursive: true },
    ),
    FileLocation::hooks_if_any(
        COMMANDS,
        FileScope::User,
        FilePattern::EachIn { dir: "commands", suffix: MARKDOWN, recursive: true },
    ),
];

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: ".claude/settings.local.json" },
    InstallTarget { scope: FileScope::User, path: "settings.json" },
];

const fn all_events() -> [NativeEvent; ClaudeEvent::ALL.len() + GAP_EVENTS.len()] {
    let mut out =
        [NativeEvent { name: "", canonical: None }; ClaudeEvent::ALL.len() + GAP_EVENTS.len()];
    let mut i = 0;
    while i < ClaudeEvent::ALL.len() {
        let e = ClaudeEvent::ALL[i];
        out[i] = NativeEvent { name: e.as_str(), canonical: Some(e.canonical()) };
        i += 1;
    }
    let mut j = 0;
    while j < GAP_EVENTS.len() {
        out[i + j] = NativeEvent { name: GAP_EVENTS[j], canonical: None };
        j += 1;
    }
    out
}

/// Claude Code's events as the schema lists them: the mapped ones, then the gaps.
static EVENTS: [NativeEvent; ClaudeEvent::ALL.len() + GAP_EVENTS.len()] = all_events();

/// Claude Code's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeFormat;

/// Claude Code's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(ClaudeFormat)
}

/// Claude Code's installed plugins (`~/.claude/plugins/`: each plugin's `hooks/hooks.json` and
/// the scripts it runs), which Claude Code loads itself; the guard protects the folder.
pub const PLUGINS: FileRole = FileRole::new(FORMAT, "claude_plugins", 390);

/// Claude Code's subagents (`agents/*.md`), whose front matter may carry `hooks:` that run
/// while the subagent does (or for the whole session when it is the main thread's agent).
pub const AGENTS: FileRole = FileRole::new(FORMAT, "claude_agents", 391);

/// Claude Code's skills (`skills/<name>/SKILL.md` and the scripts beside it), whose front
/// matter may carry `hooks:` that run while the skill is active.
pub const SKILLS: FileRole = FileRole::new(FORMAT, "claude_skills", 392);

/// Claude Code's commands (`commands/*.md`), read as skills, front matter and all.
pub const COMMANDS: FileRole = FileRole::new(FORMAT, "claude_commands", 393);

/// Where Claude Code's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "claude_hook_scripts", 394);

/// [`HOOK_SCRIPTS`]'s folders, in the project and the user's.
const SCRIPT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".claude/hooks");

/// The folders Claude Code loads hooks from that the engine does not read: its plugins
/// (the marketplaces' copies under `plugins/marketplaces/`, the installed ones under
/// `plugins/cache/`), and the subagents, skills and commands of the project and of the user
/// (2.1.328 registers the `hooks:` of their front matter; a project subagent shadows the
/// user's of the same name, so both places are protected). Claude Code's own sandbox denies
/// writes to a project's `.claude/agents/` and `.claude/commands/` for the same reason.
const AGENT_FOLDERS: [AgentFolder; 9] = [
    AgentFolder::at(PLUGINS, FileScope::User, "plugins").with_indexes(&PLUGIN_INDEXES),
    AgentFolder::at(AGENTS, FileScope::Project, ".claude/agents"),
    AgentFolder::nested(SKILLS, ".claude/skills"),
    AgentFolder::at(COMMANDS, FileScope::Project, ".claude/commands"),
    AgentFolder::at(AGENTS, FileScope::User, "agents"),
    AgentFolder::at(SKILLS, FileScope::User, "skills"),
    AgentFolder::at(COMMANDS, FileScope::User, "commands"),
    SCRIPT_FOLDERS[0],
    SCRIPT_FOLDERS[1],
];

/// The files of the plugins' folder that lead to plugins Claude Code loads (`crate::follow`):
/// the marketplaces it knows, whose local ones it runs the plugins of where they are, and the
/// installed plugins, whose hooks may name scripts outside the folder.
const PLUGIN_INDEXES: [AgentIndex; 2] = [
    AgentIndex { file: "plugins/known_marketplaces.json", step: crate::MARKETPLACES },
    AgentIndex { file: "plugins/installed_plugins.json", step: crate::INSTALLED },
];

/// A plugin's hook file under Claude Code's plugins' folder
/// (`.claude/plugins/…/hooks/hooks.json`), for a file named directly (`hooks check`).
fn is_plugin_hook_file(path: &Path) -> bool {
    let names: Vec<&std::ffi::OsStr> = path.iter().collect();
    names.ends_with(&[std::ffi::OsStr::new("hooks"), std::ffi::OsStr::new("hooks.json")])
        && names.windows(2).any(|w| w[0] == ".claude" && w[1] == "plugins")
}

/// What a file of `ctx`'s kind is, when it is a subagent, a skill or a command: by its kind,
/// or, for a file named directly (`hooks check`), by where it is
/// ([`front_matter_by_path`]).
fn front_matter_of(ctx: &ParseContext<'_>) -> Option<FrontMatterOf> {
    match ctx.kind.role() {
        Some(r) if r == AGENTS => Some(FrontMatterOf::Subagent),
        Some(r) if r == SKILLS => Some(FrontMatterOf::Skill),
        Some(r) if r == COMMANDS => Some(FrontMatterOf::Command),
        _ => front_matter_by_path(ctx.path),
    }
}

/// A Markdown file below a `.claude/agents`, `.claude/skills` or `.claude/commands` folder
/// (a skill's by the name `SKILL.md`): what Claude Code reads its front matter as.
fn front_matter_by_path(path: &Path) -> Option<FrontMatterOf> {
    let name = path.file_name()?.to_str()?;
    if !name.ends_with(MARKDOWN) {
        return None;
    }
    let parts: Vec<&std::ffi::OsStr> = path.iter().collect();
    parts.windows(2).rev().find_map(|w| match (w[0].to_str()?, w[1].to_str()?) {
        (".claude", "agents") => Some(FrontMatterOf::Subagent),
        (".claude", "skills") if name == SKILL_FILE => Some(FrontMatterOf::Skill),
        (".claude", "commands") => Some(FrontMatterOf::Command),
        _ => None,
    })
}

impl FormatDescriptor for ClaudeFormat {
    /// A shell command's non-zero exit runs Claude Code's `PostToolUseFailure` hooks, not its
    /// `PostToolUse` hooks ([`crate::EVENT_RULE`]).
    fn event_rule(&self) -> hooks_schema::EventRule<'static> {
        crate::EVENT_RULE
    }

    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Claude Code"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".claude").or_env(CONFIG_DIR_VAR)),
            managed: Some(ManagedDir::per_platform(
                "/etc/claude-code",
                "/Library/Application Support/ClaudeCode",
                r"C:\Program Files\ClaudeCode",
            )),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// Only `settings.json` is looked for in an explicit folder (the command line's
    /// `--settings` file).
    fn explicit_names(&self) -> Vec<&'static str> {
        vec!["settings.json"]
    }

    /// `settings*.json` and `managed-settings*` are Claude Code's by name; a file in a
    /// `.claude` folder by its folder.
    fn claim(&self, path: &Path) -> Claim {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if is_plugin_hook_file(path) {
            return Claim::Path;
        }
        if (name.starts_with("settings") && name.ends_with(".json"))
            || name.starts_with("managed-settings")
            || front_matter_by_path(path).is_some()
        {
            Claim::Name
        } else if path.parent().and_then(Path::file_name).is_some_and(|n| n == ".claude") {
            Claim::Folder
        } else {
            Claim::No
        }
    }

    /// A JSON document whose `hooks` map starts with a PascalCase event name.
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let text = String::from_utf8_lossy(bytes);
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}'))
        else {
            return Claim::No;
        };
        match v.get("hooks") {
            Some(serde_json::Value::Object(m))
                if m.keys()
                    .next()
                    .is_some_and(|k| k.starts_with(|c: char| c.is_ascii_uppercase())) =>
            {
                Claim::Name
            }
            _ => Claim::No,
        }
    }

    /// Parses as [`crate::parse`] does, under the deny-only strict contract when asked.
    /// A settings file under its mode; a subagent's, skill's or command's front matter
    /// ([`crate::parse_front_matter`]) in Claude Code's own way whatever the mode: the
    /// deny-only contract is about the hooks the engine runs, and it runs none of these.
    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        if ctx.kind.role() == Some(PLUGINS) || is_plugin_hook_file(ctx.path) {
            return crate::parse_plugin_hooks(bytes, ctx.path, ctx.base);
        }
        if let Some(of) = front_matter_of(ctx) {
            return crate::parse_front_matter(bytes, ctx.path, of);
        }
        let mode = if ctx.strict { ClaudeMode::Strict } else { ClaudeMode::Default };
        crate::parse(bytes, ctx.path, mode)
    }

    /// Under the deny-only contract a settings file the reader refused is malformed, not
    /// absent: it fails closed on every gated event ([`crate::fail_closed_unreadable`]).
    fn unreadable(&self, problem: HookDiagnostic, ctx: &ParseContext<'_>) -> Option<ParseResult> {
        (ctx.strict && front_matter_of(ctx).is_none())
            .then(|| Ok(crate::fail_closed_unreadable(ctx.path, problem)))
    }

    /// The plugins' folder's indexes and what they lead to ([`crate::follow`]).
    fn follow(&self, role: FileRole, step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
        if role == PLUGINS { crate::follow(step, bytes) } else { Vec::new() }
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn canonical_event(&self, native: &str) -> Option<HookEvent> {
        ClaudeEvent::from_name(native).map(ClaudeEvent::canonical)
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(ClaudeCodec)
    }

    /// Started in a subfolder of a repository, Claude Code reads that folder's project files,
    /// not the root's (observed with Claude Code 2.1.328, `specs/bridge.md`).
    fn project_folders(&self) -> ProjectFolders {
        ProjectFolders::Session
    }

    fn project_dir_vars(&self) -> &[&'static str] {
        &[PROJECT_DIR_VAR]
    }
    /// The project's personal `.claude/settings.local.json` (the bridge's absolute path is
    /// this machine's, not the team's) and the user's `settings.json`.
    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// One group per mapped event without a matcher (every tool, every source) holding one
    /// command handler with a 600 s timeout (Claude Code's default on most events is shorter
    /// on some, and the bridge runs hooks with their own timeouts).
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        event.canonical?;
        Some(
            serde_json::json!({"hooks": [{"type": "command", "command": command, "timeout": 600}]}),
        )
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&ClaudeHost)
    }
}
