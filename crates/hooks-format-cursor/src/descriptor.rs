//! Cursor's format descriptor: where its `hooks.json` files live, how they parse, its events
//! and its codec, as the engine's core reads them.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, Claim, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
    FormatDirs, FormatId, HookCodec, HookSourceKind, HostCodec, InstallTarget, ManagedDir,
    NativeEvent, OtherFormatFiles, ParseContext, ParseResult, UserDir,
};

use crate::{CursorCodec, CursorHost, events::NATIVE_EVENTS};

/// Cursor's format id.
pub const FORMAT: FormatId = FormatId::new("cursor");

/// Cursor's one file role: a `hooks.json` (`{version: 1, hooks: {event: [...]}}`).
pub const FILE: FileRole = FileRole::new(FORMAT, "cursor_file", 100);

/// The enterprise file (`/etc/cursor/hooks.json` and its platform equivalents).
pub const MANAGED_FILE: HookSourceKind = HookSourceKind::file(FileScope::Managed, FILE);
/// A repository's `.cursor/hooks.json`.
pub const PROJECT_FILE: HookSourceKind = HookSourceKind::file(FileScope::Project, FILE);
/// The user's `~/.cursor/hooks.json`.
pub const USER_FILE: HookSourceKind = HookSourceKind::file(FileScope::User, FILE);

const LOCATIONS: [FileLocation; 3] = [
    FileLocation::hooks(FILE, FileScope::Managed, FilePattern::File("hooks.json")),
    FileLocation::hooks(FILE, FileScope::Project, FilePattern::File(".cursor/hooks.json")),
    FileLocation::hooks(FILE, FileScope::User, FilePattern::File("hooks.json")),
];

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: ".cursor/hooks.json" },
    InstallTarget { scope: FileScope::User, path: "hooks.json" },
];

/// The native events as the schema lists them (name and canonical event).
static EVENTS: [NativeEvent; NATIVE_EVENTS.len()] = {
    let mut out = [NativeEvent { name: "", canonical: None }; NATIVE_EVENTS.len()];
    let mut i = 0;
    while i < NATIVE_EVENTS.len() {
        out[i] = NativeEvent { name: NATIVE_EVENTS[i].name, canonical: NATIVE_EVENTS[i].canonical };
        i += 1;
    }
    out
};

/// Cursor's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CursorFormat;

/// Cursor's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(CursorFormat)
}

/// Where Cursor's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "cursor_hook_scripts", 190);

/// The folders the guard protects whole for Cursor: where its hook scripts are kept.
const AGENT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".cursor/hooks");

impl FormatDescriptor for CursorFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Cursor"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".cursor")),
            managed: Some(ManagedDir::per_platform(
                "/etc/cursor",
                "/Library/Application Support/Cursor",
                r"C:\ProgramData\Cursor",
            )),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// Any file nobody else claims is read as Cursor's (the seed's default format); one in a
    /// `.cursor` folder is Cursor's by its folder.
    fn claim(&self, path: &Path) -> Claim {
        if path.parent().and_then(Path::file_name).is_some_and(|n| n == ".cursor") {
            Claim::Folder
        } else {
            Claim::Fallback
        }
    }

    fn claim_content(&self, _bytes: &[u8]) -> Claim {
        Claim::Fallback
    }

    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        crate::parse(bytes, ctx.path)
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(CursorCodec)
    }

    fn project_dir_vars(&self) -> &[&'static str] {
        &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]
    }
    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// `{"version": 1}`: Cursor needs the version.
    fn install_new_file(&self) -> &'static str {
        "{\"version\": 1}"
    }

    /// One flat entry per mapped event (no matcher: every tool) with a 600 s timeout.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        event.canonical?;
        Some(serde_json::json!({"command": command, "timeout": 600}))
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&CursorHost)
    }

    /// Cursor runs Claude Code's project and user settings files too ("third-party hooks",
    /// on by default); its documentation names the settings files only, so the hooks of the
    /// subagent those settings make the main thread's agent are the bridge's to run.
    fn host_also_runs(&self) -> &[OtherFormatFiles] {
        const CLAUDE: [OtherFormatFiles; 1] = [OtherFormatFiles {
            format: FormatId::new("claude"),
            scopes: &[FileScope::Project, FileScope::User],
            roles: &["claude_settings", "claude_local_settings"],
        }];
        &CLAUDE
    }
}
