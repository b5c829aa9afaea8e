//! Claude Code's plugins that it loads from where they are: the marketplaces added from a
//! local folder or file, each plugin's manifest, and the installed plugins' records, read
//! sans-IO for the guard ([`hooks_schema::AgentIndex`], [`follow`]).
//!
//! Claude Code 2.1 copies an installed plugin to `~/.claude/plugins/cache/` but, for a
//! marketplace added from a local path (`claude plugin marketplace add <path>`, or a settings
//! file's `extraKnownMarketplaces` with a `directory` source), runs the plugin's hooks from
//! the marketplace's own folder, with `${CLAUDE_PLUGIN_ROOT}` naming it there (observed with
//! the real CLI: a plugin's `hooks/hooks.json` rewritten in the marketplace's folder after the
//! install is what ran). `specs/formats/claude.md`, "Plugins", has the observations.

use hooks_schema::{FollowStep, Followed, PluginLayout};
use serde_json::Value;

/// `~/.claude/plugins/known_marketplaces.json`: the marketplaces Claude Code knows, each with
/// its `source` and `installLocation`.
pub const MARKETPLACES: FollowStep = FollowStep("claude_known_marketplaces");

/// A marketplace's manifest (`.claude-plugin/marketplace.json`): its plugins and where each is
/// relative to the marketplace's folder.
pub const MARKETPLACE: FollowStep = FollowStep("claude_marketplace");

/// A plugin's manifest (`.claude-plugin/plugin.json`), whose `hooks` may name more hook files.
pub const PLUGIN: FollowStep = FollowStep("claude_plugin");

/// `~/.claude/plugins/installed_plugins.json`: each installed plugin's `installPath`.
pub const INSTALLED: FollowStep = FollowStep("claude_installed_plugins");

/// A plugin's default hook file, relative to the plugin's folder.
pub const PLUGIN_HOOKS: &str = "hooks/hooks.json";

/// A marketplace's manifest, relative to the marketplace's folder.
pub const MARKETPLACE_MANIFEST: &str = ".claude-plugin/marketplace.json";

/// A plugin's manifest, relative to the plugin's folder.
pub const PLUGIN_MANIFEST: &str = ".claude-plugin/plugin.json";

/// Claude Code's marketplace and plugin layout: the manifests in `.claude-plugin/`, a plugin's
/// hook file in `hooks/`.
pub const LAYOUT: PluginLayout = PluginLayout {
    marketplace_manifests: &[MARKETPLACE_MANIFEST],
    marketplace_parts: &[".claude-plugin"],
    marketplace_step: MARKETPLACE,
    plugin_manifests: &[PLUGIN_MANIFEST],
    plugin_parts: &["hooks", ".claude-plugin"],
    plugin_step: PLUGIN,
    hook_files: &[PLUGIN_HOOKS],
    entry_hooks: true,
};

/// What the file `bytes`, read as `step`, names (see the module's documentation): for the
/// known marketplaces, each marketplace added from a local folder or file (its folder, with
/// its manifest's folder as the part that decides what runs, and its manifest to read next);
/// for a marketplace's manifest, each plugin whose source is a path in the marketplace
/// ([`PluginLayout::plugins`]); for a plugin's manifest, the hook files its `hooks` names;
/// for the installed plugins, each one's `installPath` as a plugin's folder. Anything else, or
/// a file that is not a JSON object, names nothing.
pub fn follow(step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
    let Some(root) = json_object(bytes) else { return Vec::new() };
    match step {
        MARKETPLACES => {
            root.as_object().into_iter().flatten().filter_map(|(_, m)| marketplace(m)).collect()
        }
        MARKETPLACE => LAYOUT.plugins(&root),
        PLUGIN => LAYOUT.plugin_manifest(&root),
        INSTALLED => installed(&root),
        _ => Vec::new(),
    }
}

/// `bytes` as a JSON object, a leading byte order mark skipped.
fn json_object(bytes: &[u8]) -> Option<Value> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    serde_json::from_slice::<Value>(bytes).ok().filter(Value::is_object)
}

/// One entry of the known marketplaces, when it was added from a local folder (`directory`)
/// or manifest file (`file`): Claude Code keeps the marketplace's folder as its
/// `installLocation` (for a file, the folder holding its `.claude-plugin/`).
fn marketplace(entry: &Value) -> Option<Followed> {
    let source = entry.get("source")?;
    let kind = source.get("source")?.as_str()?;
    let path = source.get("path").and_then(Value::as_str);
    let location = entry.get("installLocation").and_then(Value::as_str);
    let (folder, manifest) = match kind {
        "directory" => (location.or(path)?.to_owned(), None),
        "file" => {
            // The manifest may be any file: it is read, and protected, where it is.
            let file = path?;
            let folder = match location {
                Some(l) => l.to_owned(),
                None => manifest_folder(file)?,
            };
            (folder, Some(file.to_owned()))
        }
        _ => return None,
    };
    (!folder.is_empty()).then(|| LAYOUT.marketplace(folder, manifest))
}

/// The marketplace folder of a manifest file: the folder holding its `.claude-plugin/`, or
/// the file's own folder.
fn manifest_folder(file: &str) -> Option<String> {
    let (folder, _) = file.rsplit_once('/')?;
    let folder = folder.strip_suffix("/.claude-plugin").unwrap_or(folder);
    (!folder.is_empty()).then(|| folder.to_owned())
}

/// The installed plugins' folders: each record's `installPath` (a record per scope and
/// project in version 2's lists, one per plugin in version 1).
fn installed(root: &Value) -> Vec<Followed> {
    let Some(plugins) = root.get("plugins").and_then(Value::as_object) else { return Vec::new() };
    let mut out = Vec::new();
    for records in plugins.values() {
        let records: Vec<&Value> = match records {
            Value::Array(list) => list.iter().collect(),
            record => vec![record],
        };
        for path in records.into_iter().filter_map(|r| r.get("installPath")?.as_str()) {
            if !path.is_empty() {
                out.push(LAYOUT.plugin(path.to_owned(), Vec::new()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
