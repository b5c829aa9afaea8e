//! Codex's installed plugins, read sans-IO for the guard ([`hooks_schema::AgentIndex`],
//! [`follow`]): `config.toml`'s `[plugins."<plugin>@<marketplace>"]` tables name each plugin
//! the user installed, which Codex copies to `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/
//! <version>/` and runs from there (observed with the real CLI: a plugin of a marketplace added
//! from a local folder ran from its copy, `CLAUDE_PLUGIN_ROOT` and `PLUGIN_ROOT` naming it, the
//! marketplace's own folder rewritten after the install changing nothing). The folder is
//! protected whole (F19); what the copy's hooks run elsewhere (a script of the project, of the
//! user's) is protected through reading them. `specs/formats/codex.md`, "Plugins".

use hooks_schema::{FollowStep, Followed};
use serde_json::Value;

/// `$CODEX_HOME/config.toml`: its `[plugins]` tables.
pub const CONFIG: FollowStep = FollowStep("codex_config");

/// A plugin's manifest in its copy ([`PLUGIN_MANIFEST`]), whose `hooks` may name its hook
/// files.
pub const MANIFEST: FollowStep = FollowStep("codex_plugin_manifest");

/// A plugin's manifest, relative to its folder.
pub const PLUGIN_MANIFEST: &str = ".codex-plugin/plugin.json";

/// A plugin's default hook file, relative to its folder.
pub const PLUGIN_HOOKS: &str = "hooks/hooks.json";

/// The variables Codex sets to a plugin's folder for its hooks (observed: both).
pub const PLUGIN_ROOT_VARS: [&str; 2] = ["PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"];

/// What `config.toml`, read as [`CONFIG`], names: each installed plugin's folder in the cache
/// (`plugins/cache/<marketplace>/<plugin>`, relative to `$CODEX_HOME`), with its hook file and
/// its manifest (which may hold its hooks) in every version's folder (`*/hooks/hooks.json`,
/// `*/.codex-plugin/plugin.json`), and the manifest to read next as [`MANIFEST`]. A key that
/// is not `<plugin>@<marketplace>`, or whose parts are not plain names (`..`, a `/`), names
/// nothing; so does a file that is not TOML. A manifest names the hook files its `hooks`
/// names, a path or a list of paths relative to the plugin's folder (observed with Codex
/// 0.169.0: `./gate.json`, `./a/b/gate.json` and a list ran, from the copy); anything else
/// names nothing.
pub fn follow(step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
    if step == MANIFEST {
        return manifest(bytes);
    }
    if step != CONFIG {
        return Vec::new();
    }
    let Ok(text) = std::str::from_utf8(bytes) else { return Vec::new() };
    let Ok(root) = toml_edit::de::from_str::<Value>(text) else { return Vec::new() };
    let Some(plugins) = root.get("plugins").and_then(Value::as_object) else { return Vec::new() };
    plugins
        .keys()
        .filter_map(|key| key.rsplit_once('@'))
        .filter(|(plugin, market)| plain(plugin) && plain(market))
        .map(|(plugin, market)| Followed {
            folder: format!("plugins/cache/{market}/{plugin}"),
            hooks: vec![format!("*/{PLUGIN_HOOKS}"), format!("*/{PLUGIN_MANIFEST}")],
            next: vec![(format!("*/{PLUGIN_MANIFEST}"), MANIFEST)],
            ..Followed::default()
        })
        .collect()
}

/// The hook files a plugin's manifest names, as hook files of its folder (`.`).
fn manifest(bytes: &[u8]) -> Vec<Followed> {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else { return Vec::new() };
    let named = hooks_schema::plugin_hook_paths(root.get("hooks"));
    if named.is_empty() {
        return Vec::new();
    }
    vec![Followed { folder: ".".to_owned(), hooks: named, ..Followed::default() }]
}

/// A name that is one folder's: not empty, not `.` or `..`, no separator.
fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\'])
}

#[cfg(test)]
mod tests;
