//! Windsurf's format descriptor: a workspace's `.windsurf/hooks.json`, the user's
//! `~/.codeium/windsurf/hooks.json` and the system `hooks.json`, how they parse, its events,
//! its codec and its host codec.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, Claim, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
    FormatDirs, FormatId, HookCodec, HookSourceKind, HostCodec, InstallTarget, ManagedDir,
    NativeEvent, ParseContext, ParseResult, UserDir,
};

use crate::{WindsurfCodec, WindsurfEvent, WindsurfHost};

/// Windsurf's format id.
pub const FORMAT: FormatId = FormatId::new("windsurf");

/// A `hooks.json`.
pub const HOOKS_FILE: FileRole = FileRole::new(FORMAT, "windsurf_hooks", 600);

/// The system `hooks.json` (`/etc/windsurf`, per platform).
pub const MANAGED_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Managed, HOOKS_FILE);
/// A workspace's `.windsurf/hooks.json`.
pub const PROJECT_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::Project, HOOKS_FILE);
/// The user's `~/.codeium/windsurf/hooks.json`.
pub const USER_HOOKS: HookSourceKind = HookSourceKind::file(FileScope::User, HOOKS_FILE);

/// The workspace file, relative to the root.
pub const PROJECT_FILE: &str = ".windsurf/hooks.json";

const LOCATIONS: [FileLocation; 3] = [
    FileLocation::hooks(HOOKS_FILE, FileScope::Managed, FilePattern::File("hooks.json")),
    FileLocation::hooks(HOOKS_FILE, FileScope::Project, FilePattern::File(PROJECT_FILE)),
    FileLocation::hooks(HOOKS_FILE, FileScope::User, FilePattern::File("hooks.json")),
];

const INSTALL: [InstallTarget; 2] = [
    InstallTarget { scope: FileScope::Project, path: PROJECT_FILE },
    InstallTarget { scope: FileScope::User, path: "hooks.json" },
];

static EVENTS: [NativeEvent; WindsurfEvent::ALL.len()] =
    hooks_schema::native_events!(WindsurfEvent::ALL, |e| e.as_str(), e.canonical());

/// Windsurf's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct WindsurfFormat;

/// Windsurf's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(WindsurfFormat)
}

/// Where Windsurf's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "windsurf_hook_scripts", 690);

/// The folders the guard protects whole for Windsurf: where its hook scripts are kept.
const AGENT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".windsurf/hooks");

impl FormatDescriptor for WindsurfFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Windsurf"
    }

    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".codeium/windsurf")),
            managed: Some(ManagedDir::per_platform(
                "/etc/windsurf",
                "/Library/Application Support/Windsurf",
                r"C:\ProgramData\Windsurf",
            )),
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// `hooks.json` in an explicit folder is Cursor's by default; Windsurf's is only looked
    /// for under its own folders.
    fn explicit_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// `hooks.json` in a `.windsurf` or `windsurf` folder (the workspace's, the user's
    /// `.codeium/windsurf`, the system's) is Windsurf's by folder and name together.
    fn claim(&self, path: &Path) -> Claim {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let folder =
            path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or_default();
        if name == "hooks.json" && matches!(folder, ".windsurf" | "windsurf" | "Windsurf") {
            Claim::Path
        } else {
            Claim::No
        }
    }

    /// A JSON object whose `hooks` keys are all Windsurf events.
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let Ok(serde_json::Value::Object(root)) =
            serde_json::from_slice::<serde_json::Value>(bytes)
        else {
            return Claim::No;
        };
        match root.get("hooks") {
            Some(serde_json::Value::Object(h))
                if !h.is_empty() && h.keys().all(|k| WindsurfEvent::from_name(k).is_some()) =>
            {
                Claim::Name
            }
            _ => Claim::No,
        }
    }

    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        crate::parse(bytes, ctx.path)
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(WindsurfCodec)
    }

    fn host(&self) -> Option<&dyn HostCodec> {
        Some(&WindsurfHost)
    }

    fn install_targets(&self) -> &[InstallTarget] {
        &INSTALL
    }

    /// A flat `{"command": …, "show_output": true}` under each event the engine maps
    /// (Windsurf's entries have no matcher and no timeout); `show_output` lets the user see a
    /// refusal's reason in Cascade, the only place Windsurf shows a hook's output.
    fn install_entry(&self, event: &NativeEvent, command: &str) -> Option<serde_json::Value> {
        event.canonical?;
        Some(serde_json::json!({"command": command, "show_output": true}))
    }
}

#[cfg(test)]
mod tests;
