//! Gemini CLI's format descriptor: where its settings files live (the system settings and
//! system defaults, a project's `.gemini/settings.json`, the user's
//! `~/.gemini/settings.json`), how they parse, its events, its codec and its host codec.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, Claim, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
    FormatDirs, FormatId, HookCodec, HookSourceKind, HostCodec, InstallTarget, ManagedDir,
    NativeEvent, ParseContext, ParseResult, ProjectFolders, UserDir,
};

use crate::{GeminiCodec, GeminiEvent, GeminiHost, PROJECT_DIR_VARS};

/// Gemini CLI's format id.
pub const FORMAT: FormatId = FormatId::new("gemini");

/// The system `system-defaults.json`, the lowest settings layer.
pub const SYSTEM_DEFAULTS: FileRole = FileRole::new(FORMAT, "gemini_system_defaults", 450);

/// A `settings.json`: the system's, a project's or the user's.
pub const SETTINGS: FileRole = FileRole::new(FORMAT, "gemini_settings", 460);

/// `/etc/gemini-cli/system-defaults.json` (per platform).
pub const MANAGED_SYSTEM_DEFAULTS: HookSourceKind =
    HookSourceKind::file(FileScope::Managed, SYSTEM_DEFAULTS);
/// `/etc/gemini-cli/settings.json` (per platform).
pub const MANAGED_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::Managed, SETTINGS);
/// A project's `.gemini/settings.json`.
pub const PROJECT_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::Project, SETTINGS);
/// The user's `~/.gemini/settings.json`.
pub const USER_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::User, SETTINGS);

/// The project file, relative to the project root.
pub const PROJECT_FILE: &str = ".gemini/settings.json";

/// The variable that names the system settings file instead of
/// `/etc/gemini-cli/settings.json` (Gemini CLI 0.61's `getSystemSettingsPath`); the system
/// defaults are then beside it unless [`SYSTEM_DEFAULTS_VAR`] names them.
pub const SYSTEM_SETTINGS_VAR: &str = "GEMINI_CLI_SYSTEM_SETTINGS_PATH";

/// The variable that names the system defaults file (Gemini CLI 0.61's
/// `getSystemDefaultsPath`).
pub const SYSTEM_DEFAULTS_VAR: &str = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH";

const LOCATIONS: [FileLocation; 4] = [
    // System defaults first: among managed files the later one's switch wins, as the
    // system settings override the system defaults in Gemini CLI's merge. Gemini CLI skips
    // either system file unless root alone can write it and the folders above it
    // (`isFileAndDirectorySecureSync`).
    FileLocation::hooks(
        SYSTEM_DEFAULTS,
        FileScope::Managed,
        FilePattern::File("system-defaults.json"),
    )
    .or_env(SYSTEM_DEFAULTS_VAR)
    .administrator_only(),
    FileLocation::hooks(SETTINGS, FileScope::Managed, FilePattern::File("settings.json"))
        .or_env(SYSTEM_SETTINGS_VAR)
        .administrator_only(),
    FileLocation::hooks(SETTINGS, FileScope::Project, FilePattern::File(PROJECT_FILE)),
    FileLocation::hooks(SETTINGS, FileScope::User, FilePattern::File("settings.json")),
];

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: PROJECT_FILE },
    InstallTarget { scope: FileScope::User, path: "settings.json" },
];

/// Gemini CLI's events, mapped and gaps, in its `HookEventName` order.
static EVENTS: [NativeEvent; GeminiEvent::ALL.len()] =
    hooks_schema::native_events!(GeminiEvent::ALL, |e| e.as_str(), e.canonical());

/// Gemini CLI's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct GeminiFormat;

/// Gemini CLI's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(GeminiFormat)
}

/// Whether `path` is a `settings.json` in a `.gemini` folder.
fn in_gemini_folder(path: &Path) -> bool {
    path.parent().and_then(Path::file_name).is_some_and(|n| n == ".gemini")
}

/// Whether `path` is an installed extension's hook file:
/// `.gemini/extensions/<name>/hooks/hooks.json`.
fn is_extension_hook_file(path: &Path) -> bool {
    let names: Vec<&std::ffi::OsStr> = path.iter().collect();
    matches!(
        names.as_slice(),
        [.., gemini, extensions, _, hooks, file]
            if *gemini == ".gemini" && *extensions == "extensions" && *hooks == "hooks"
                && *file == "hooks.json"
    )
}

/// The variable that replaces the home folder Gemini CLI keeps its `.gemini` folder in
/// (Gemini CLI 0.61's `homedir()`): `$GEMINI_CLI_HOME/.gemini/settings.json` is the user file,
/// and the extensions are beside it.
pub const HOME_VAR: &str = "GEMINI_CLI_HOME";

/// Gemini CLI's installed extensions (`~/.gemini/extensions/`: each extension's
/// `hooks/hooks.json` and the scripts it runs), which Gemini CLI loads itself; the guard
/// protects the folder.
pub const EXTENSIONS: FileRole = FileRole::new(FORMAT, "gemini_extensions", 490);

/// The file `gemini extensions link <path>` writes in `~/.gemini/extensions/<name>/`: a JSON
/// object whose `"type": "link"` makes Gemini CLI 0.61 load the extension from its `source`
/// folder instead (`installMetadata.source`, an absolute path as the command writes it; a
/// relative one is taken from the folder Gemini CLI runs in).
pub const LINK_FILE: &str = ".gemini-extension-install.json";

/// An extension's hook file, relative to its folder, which Gemini CLI 0.61 loads itself
/// (`loadExtensionHooks`); read as a source of [`EXTENSIONS`] whose hooks never run through
/// the engine ([`crate::parse_extension_hooks`]).
pub const EXTENSION_HOOKS: &str = "hooks/hooks.json";

/// What decides what a linked extension runs, relative to its folder: its hooks
/// (`hooks/hooks.json` and the scripts kept beside it), its manifest (`gemini-extension.json`:
/// the MCP servers it starts, the settings its hooks get) and its policy rules (`policies/`).
/// Protected when the linked folder is part of a project (holds a project root or lies under
/// one) or holds the user's `.gemini` folder; otherwise the whole folder is.
pub const LINKED_PARTS: [&str; 3] = ["hooks", "gemini-extension.json", "policies"];

/// Where Gemini CLI's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "gemini_hook_scripts", 491);

/// [`HOOK_SCRIPTS`]'s folders, in the project and the user's.
const SCRIPT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".gemini/hooks");

/// The folders Gemini CLI loads hooks from that the engine does not read (its extensions),
/// and where its hook scripts are kept.
const AGENT_FOLDERS: [AgentFolder; 3] = [
    AgentFolder::at(EXTENSIONS, FileScope::User, "extensions")
        .with_links(LINK_FILE, &LINKED_PARTS)
        .with_entry_hooks(EXTENSION_HOOKS),
    SCRIPT_FOLDERS[0],
    SCRIPT_FOLDERS[1],
];

impl FormatDescriptor for GeminiFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Gemini CLI"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".gemini").or_home_env(HOME_VAR)),
            managed: Some(
                ManagedDir::per_platform(
                    "/etc/gemini-cli",
                    "/Library/Application Support/GeminiCli",
                    r"C:\ProgramData\gemini-cli",
                )
                .or_folder_of_env(SYSTEM_SETTINGS_VAR),
            ),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// An extension's [`LINK_FILE`] whose `type` is `link` names the folder Gemini CLI loads
    /// the extension from: its `source`, when a string. Read as `JSON.parse` reads it (the
    /// last of two equal keys wins); comments are blanked first, so a file Gemini CLI could
    /// not read may still count as a link (protecting more, never less).
    fn linked_folder(&self, role: FileRole, bytes: &[u8]) -> Option<String> {
        if role != EXTENSIONS {
            return None;
        }
        let text = String::from_utf8_lossy(bytes);
        let root =
            hooks_json::parse_as(&text, hooks_json::Dialect::JsonParseAfterStripComments).ok()?;
        if root.get("type")?.value.as_str()? != "link" {
            return None;
        }
        Some(root.get("source")?.value.as_str()?.to_owned())
    }

    /// `settings.json` in an explicit folder is Claude Code's by name; Gemini CLI's files are
    /// only looked for under their own folder names.
    fn explicit_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// A file in a `.gemini` folder, and `system-defaults.json`, are Gemini CLI's by name
    /// (Claude Code claims every `settings*.json` by name too: the app registers Gemini CLI
    /// first, so the tie goes to the format whose folder it is); an installed extension's
    /// hook file by its folders and name together (Chrys claims every `hooks.json` by name).
    fn claim(&self, path: &Path) -> Claim {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if is_extension_hook_file(path) {
            return Claim::Path;
        }
        if name == "system-defaults.json" || in_gemini_folder(path) {
            Claim::Name
        } else {
            Claim::No
        }
    }

    /// A JSON document (comments allowed) with `hooksConfig`, or whose `hooks` keys are all
    /// Gemini CLI events and one of them is Gemini CLI's alone (`SessionStart`, `SessionEnd`
    /// and `Notification` are Claude Code's too).
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let text = String::from_utf8_lossy(bytes);
        let Ok(root) =
            hooks_json::parse_as(&text, hooks_json::Dialect::JsonParseAfterStripComments)
        else {
            return Claim::No;
        };
        if root.get("hooksConfig").is_some() {
            return Claim::Name;
        }
        let shared = ["SessionStart", "SessionEnd", "Notification"];
        let gemini_keys = root.get("hooks").is_some_and(|h| {
            h.value.members().is_some_and(|m| {
                m.iter().all(|k| GeminiEvent::from_name(&k.key).is_some())
                    && m.iter().any(|k| !shared.contains(&k.key.as_str()))
            })
        });
        if gemini_keys { Claim::Name } else { Claim::No }
    }

    /// A settings file, or an extension's hook file ([`EXTENSIONS`]'s role, or a file named
    /// as one: `hooks check ~/.gemini/extensions/x/hooks/hooks.json`).
    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        if ctx.kind.role() == Some(EXTENSIONS) || is_extension_hook_file(ctx.path) {
            return crate::parse_extension_hooks(bytes, ctx.path);
        }
        crate::parse(bytes, ctx.path)
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(GeminiCodec)
    }

    /// Gemini CLI has no failure event: its `AfterTool` hooks run for a failed tool too
    /// (observed with 0.61.0: `tool_response.error` for a read of a missing file), which the
    /// other agents report as a failure (`specs/events.md`, "What counts as a tool failure").
    fn event_rule(&self) -> hooks_schema::EventRule<'static> {
        crate::EVENT_RULE
    }

    /// Started in a subfolder of a repository, Gemini CLI reads that folder's project files,
    /// not the root's (observed with Gemini CLI 0.61.0, `specs/bridge.md`).
    fn project_folders(&self) -> ProjectFolders {
        ProjectFolders::Session
    }

    fn project_dir_vars(&self) -> &[&'static str] {
        &PROJECT_DIR_VARS
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&GeminiHost)
    }

    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// One group per mapped event matching everything (`*`), holding one command handler
    /// named `agent-hooks-bridge` (the name `/hooks disable` and `hooksConfig.disabled` use)
    /// with a 600 s timeout in milliseconds.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        event.canonical?;
        Some(serde_json::json!({"matcher": "*", "hooks": [{
            "type": "command", "name": "agent-hooks-bridge", "command": command, "timeout": 600_000
        }]}))
    }
}

#[cfg(test)]
mod tests;
