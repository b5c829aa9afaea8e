//! Chrys's format descriptor: its hooks folders and the user's settings document, how they
//! parse, its events and its codec, as the engine's core reads them.

use std::{path::Path, sync::Arc};

use hooks_schema::{
    AgentFolder, Claim, FileLocation, FilePattern, FileRole, FileScope, FormatDescriptor,
    FormatDirs, FormatId, HookCodec, HookDiagnostic, HookSourceKind, NativeEvent, ParseContext,
    ParseResult, ParsedSource, PolicySwitch, SourcePolicy, SourceScope, SourceSummary, SwitchRule,
    UserDir,
};

use crate::{
    ChrysCodec, NATIVE_TO_CANONICAL, PROJECT_HOOKS_ENABLED_KEY, USER_SETTINGS_FILE,
    merge::{FILE_NAMES, duplicate_id_warnings, project_hooks_dormant, shadowed_file_warning},
    parse_user_settings,
};

/// Chrys's format id.
pub const FORMAT: FormatId = FormatId::new("chrys");

/// A Chrys hooks file: the first of `hooks.yaml`, `hooks.yml`, `hooks.json` in a `hooks/`
/// folder.
pub const FILE: FileRole = FileRole::new(FORMAT, "chrys_file", 200);

/// The user's Chrys settings document (`<config_dir>/settings.yaml`), which carries only the
/// opt-in to project hooks (`project.hooks_enabled`).
pub const SETTINGS: FileRole = FileRole::new(FORMAT, "chrys_settings", 210);

/// A repository's `.chrys/hooks/hooks.{yaml,yml,json}`.
pub const PROJECT_FILE: HookSourceKind = HookSourceKind::file(FileScope::Project, FILE);
/// The user's global file, `<config_dir>/hooks/hooks.{yaml,yml,json}`.
pub const USER_FILE: HookSourceKind = HookSourceKind::file(FileScope::User, FILE);
/// The user's `<config_dir>/settings.yaml`.
pub const USER_SETTINGS: HookSourceKind = HookSourceKind::file(FileScope::User, SETTINGS);

const LOCATIONS: [FileLocation; 3] = [
    FileLocation::hooks(
        FILE,
        FileScope::Project,
        FilePattern::FirstOf { dir: ".chrys/hooks", names: &FILE_NAMES },
    ),
    FileLocation::hooks(
        FILE,
        FileScope::User,
        FilePattern::FirstOf { dir: "hooks", names: &FILE_NAMES },
    ),
    FileLocation::policy(SETTINGS, FileScope::User, FilePattern::File(USER_SETTINGS_FILE)),
];

/// Chrys's events as the schema lists them: every native event maps.
static EVENTS: [NativeEvent; NATIVE_TO_CANONICAL.len()] = {
    let mut out = [NativeEvent { name: "", canonical: None }; NATIVE_TO_CANONICAL.len()];
    let mut i = 0;
    while i < NATIVE_TO_CANONICAL.len() {
        let (name, event) = NATIVE_TO_CANONICAL[i];
        out[i] = NativeEvent { name, canonical: Some(event) };
        i += 1;
    }
    out
};

/// Chrys's [`FormatDescriptor`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ChrysFormat;

/// Chrys's descriptor, ready to register.
pub fn descriptor() -> Arc<dyn FormatDescriptor> {
    Arc::new(ChrysFormat)
}

/// Where Chrys's hook scripts are kept ([`AgentFolder::hook_scripts`]).
pub const HOOK_SCRIPTS: FileRole = FileRole::new(FORMAT, "chrys_hook_scripts", 290);

/// The folders the guard protects whole for Chrys: where its hook scripts are kept.
const AGENT_FOLDERS: [AgentFolder; 2] = AgentFolder::hook_scripts(HOOK_SCRIPTS, ".chrys/hooks");

impl FormatDescriptor for ChrysFormat {
    fn id(&self) -> FormatId {
        FORMAT
    }

    fn agent(&self) -> &'static str {
        "Chrys"
    }

    /// `~/.chrys` on POSIX, `%APPDATA%\chrys` on Windows; Chrys has no managed files.
    fn dirs(&self) -> FormatDirs {
        FormatDirs {
            user: Some(UserDir::under_home(".chrys").windows_appdata("chrys")),
            managed: None,
        }
    }

    fn locations(&self) -> &[FileLocation] {
        &LOCATIONS
    }

    fn agent_folders(&self) -> &[AgentFolder] {
        &AGENT_FOLDERS
    }

    /// `*.yaml` and `*.yml` are Chrys's by name; a `.json` in a folder named `hooks` by its
    /// folder.
    fn claim(&self, path: &Path) -> Claim {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.ends_with(".yaml") || name.ends_with(".yml") {
            Claim::Name
        } else if path.parent().and_then(Path::file_name).is_some_and(|n| n == "hooks") {
            Claim::Folder
        } else {
            Claim::No
        }
    }

    /// A JSON document whose `hooks` is a list (Chrys keeps a list; the others a map).
    fn claim_content(&self, bytes: &[u8]) -> Claim {
        let text = String::from_utf8_lossy(bytes);
        match serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}')) {
            Ok(v) if v.get("hooks").is_some_and(serde_json::Value::is_array) => Claim::Name,
            _ => Claim::No,
        }
    }

    /// A hooks file parses as [`crate::parse`] does, with a `shadowed_file` warning for each
    /// other hooks file of its folder that it shadows; the settings document gives only its
    /// opt-in, as a [`SwitchRule::OptIn`] switch.
    fn parse(&self, bytes: &[u8], ctx: &ParseContext<'_>) -> ParseResult {
        if ctx.kind.role() == Some(SETTINGS) {
            let settings = parse_user_settings(bytes, ctx.path);
            let switches = settings
                .project_hooks_enabled
                .map(|on| PolicySwitch {
                    key: PROJECT_HOOKS_ENABLED_KEY,
                    rule: SwitchRule::OptIn,
                    on,
                })
                .into_iter()
                .collect();
            return Ok(ParsedSource {
                diagnostics: settings.diagnostics,
                policy: SourcePolicy { switches, ..SourcePolicy::default() },
                ..ParsedSource::default()
            });
        }
        let mut parsed = crate::parse(bytes, ctx.path);
        // A repository's hooks file runs only when the user's own settings turn project
        // hooks on (`project.hooks_enabled`), on every surface; the registry holds it back
        // otherwise (`specs/trust-and-sources.md`, "The Chrys opt-in").
        if ctx.kind.scope() == SourceScope::File(FileScope::Project)
            && let Ok(p) = &mut parsed
        {
            p.policy.requires = Some(PROJECT_HOOKS_ENABLED_KEY);
        }
        let name = ctx.path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let shadowed = ctx.shadows.iter().filter_map(|s| {
            let dir = ctx.path.parent()?;
            Some(shadowed_file_warning(&dir.join(s), name))
        });
        match &mut parsed {
            Ok(p) => p.diagnostics.extend(shadowed),
            Err(d) => d.extend(shadowed),
        }
        parsed
    }

    fn events(&self) -> &[NativeEvent] {
        &EVENTS
    }

    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(ChrysCodec)
    }

    /// Chrys's `project_hooks_dormant` warning for each project file inert only for want of
    /// the user's opt-in, then its `duplicate_hook_id` warnings: for each project file that
    /// runs, one per hook id it shares with the user's global file, when that runs too (both
    /// hooks still run, the project one first; a project file that is the global file itself
    /// runs once, as the global file, and gets none).
    fn advisories(&self, sources: &[SourceSummary<'_>]) -> Vec<HookDiagnostic> {
        let mut out: Vec<HookDiagnostic> = sources
            .iter()
            .filter(|s| s.id.kind == PROJECT_FILE && s.dormant)
            .map(|s| project_hooks_dormant(s.id.path.as_path()))
            .collect();
        let Some(global) = sources.iter().find(|s| s.id.kind == USER_FILE && s.runs) else {
            return out;
        };
        let parse = |s: &SourceSummary<'_>| ParsedSource {
            definitions: s.definitions.iter().map(|d| (**d).clone()).collect(),
            ..ParsedSource::default()
        };
        let global_parse = parse(global);
        for project in sources.iter().filter(|s| s.id.kind == PROJECT_FILE && s.runs) {
            if project.id.path == global.id.path {
                continue;
            }
            out.extend(duplicate_id_warnings(
                (project.id.path.as_path(), &parse(project)),
                (global.id.path.as_path(), &global_parse),
            ));
        }
        out
    }
}
