//! Copilot CLI's plugins that it runs from where they are, read sans-IO for the guard
//! ([`hooks_schema::AgentIndex`], [`follow`]): the marketplaces the user added from a local
//! folder (`~/.copilot/settings.json`'s `extraKnownMarketplaces`), whose plugins Copilot CLI
//! 1.0.102 loads live from that folder ("It is loaded live from …, so edits take effect
//! on the next session — nothing was copied"), and the installed plugins' copies
//! (`~/.copilot/config.json`'s `installedPlugins`, each `cache_path`), whose hooks may run
//! scripts outside them. `specs/formats/copilot.md`, "Plugins", has the observations.

use hooks_schema::{FollowStep, Followed, PluginLayout};
use serde_json::Value;

/// `~/.copilot/settings.json`: its `extraKnownMarketplaces`.
pub const SETTINGS: FollowStep = FollowStep("copilot_settings");

/// `~/.copilot/config.json`: its `installedPlugins`.
pub const CONFIG: FollowStep = FollowStep("copilot_config");

/// A marketplace's manifest.
pub const MARKETPLACE: FollowStep = FollowStep("copilot_marketplace");

/// A plugin's manifest, whose `hooks` may name its hook file.
pub const PLUGIN: FollowStep = FollowStep("copilot_plugin");

/// Copilot CLI's marketplace and plugin layout (its plugin reference's "File locations"): the
/// manifests in any of four places, checked in this order, and a plugin's hooks in
/// `hooks.json` or `hooks/hooks.json`. All are read and protected.
pub const LAYOUT: PluginLayout = PluginLayout {
    marketplace_manifests: &[
        "marketplace.json",
        ".plugin/marketplace.json",
        ".github/plugin/marketplace.json",
        ".claude-plugin/marketplace.json",
    ],
    marketplace_parts: &["marketplace.json", ".plugin", ".github/plugin", ".claude-plugin"],
    marketplace_step: MARKETPLACE,
    plugin_manifests: &[
        ".plugin/plugin.json",
        "plugin.json",
        ".github/plugin/plugin.json",
        ".claude-plugin/plugin.json",
    ],
    plugin_parts: &[
        ".plugin",
        "plugin.json",
        ".github/plugin",
        ".claude-plugin",
        "hooks.json",
        "hooks",
    ],
    plugin_step: PLUGIN,
    hook_files: &["hooks.json", "hooks/hooks.json"],
    entry_hooks: false,
};

/// What the file `bytes`, read as `step`, names: for the user's settings, each marketplace
/// added from a local folder (`"source": {"source": "directory", "path": …}`); for its config,
/// each installed plugin's `cache_path`; for a marketplace's manifest, its plugins in it
/// ([`PluginLayout::plugins`]); for a plugin's manifest, the hook files its `hooks` names.
/// Comments are allowed (Copilot CLI writes `//` lines at the top of `config.json`). Anything
/// else names nothing.
pub fn follow(step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
    let text = String::from_utf8_lossy(bytes);
    let text = hooks_json::strip_comments(text.trim_start_matches('\u{feff}'));
    let Some(root) = serde_json::from_str::<Value>(&text).ok().filter(Value::is_object) else {
        return Vec::new();
    };
    match step {
        SETTINGS => {
            let known = root.get("extraKnownMarketplaces").and_then(Value::as_object);
            known.into_iter().flatten().filter_map(|(_, m)| local_marketplace(m)).collect()
        }
        CONFIG => {
            let installed = root.get("installedPlugins").and_then(Value::as_array);
            installed
                .into_iter()
                .flatten()
                .filter_map(|p| p.get("cache_path")?.as_str())
                .filter(|p| !p.is_empty())
                .map(|p| LAYOUT.plugin(p.to_owned(), Vec::new()))
                .collect()
        }
        MARKETPLACE => LAYOUT.plugins(&root),
        PLUGIN => LAYOUT.plugin_manifest(&root),
        _ => Vec::new(),
    }
}

/// A marketplace of the settings added from a local folder.
fn local_marketplace(entry: &Value) -> Option<Followed> {
    let source = entry.get("source")?;
    if source.get("source")?.as_str()? != "directory" {
        return None;
    }
    let path = source.get("path")?.as_str()?;
    (!path.is_empty()).then(|| LAYOUT.marketplace(path.to_owned(), None))
}

#[cfg(test)]
mod tests;
