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

/// The variables Codex sets to a plugin's folder for its hooks (observed: both).
pub const PLUGIN_ROOT_VARS: [&str; 2] = ["PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"];

/// What `config.toml`, read as [`CONFIG`], names: each installed plugin's folder in the cache
/// (`plugins/cache/<marketplace>/<plugin>`, relative to `$CODEX_HOME`), with its hook file in
/// every version's folder (`*/hooks/hooks.json`). A key that is not `<plugin>@<marketplace>`,
/// or whose parts are not plain names (`..`, a `/`), names nothing; so does a file that is not
/// TOML.
pub fn follow(step: FollowStep, bytes: &[u8]) -> Vec<Followed> {
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
            hooks: vec!["*/hooks/hooks.json".to_owned()],
            ..Followed::default()
        })
        .collect()
}

/// A name that is one folder's: not empty, not `.` or `..`, no separator.
fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\'])
}

#[cfg(test)]
mod tests;
