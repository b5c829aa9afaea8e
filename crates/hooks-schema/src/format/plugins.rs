//! Plugin marketplaces in Claude Code's layout, which Copilot CLI reads too: a marketplace's
//! manifest lists its plugins, each with a source that may be a folder in the marketplace, and
//! a plugin's manifest may name its hook files. Sans-IO: read from the files' bytes for a
//! descriptor's [`follow`](crate::FormatDescriptor::follow) ([`PluginLayout`]).

use std::path::Path;

use serde_json::Value;

use crate::{FollowStep, Followed, HookDiagnostic, ParsedSource, SourcePolicy};

/// Where an agent looks for the files of a plugin marketplace and of its plugins, and how a
/// descriptor's [`follow`](crate::FormatDescriptor::follow) reads them: Claude Code's
/// `.claude-plugin/marketplace.json` and `hooks/hooks.json`; Copilot CLI's four manifest
/// places (`marketplace.json`, `.plugin/`, `.github/plugin/`, `.claude-plugin/`) and two hook
/// files. Every place an agent may take a file from is read and protected, not only the one
/// it would pick (protecting more, never less, when the agent's order is not known for sure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PluginLayout {
    /// A marketplace's manifests, relative to its folder.
    pub marketplace_manifests: &'static [&'static str],
    /// What decides what runs in a marketplace's folder: its manifests and their folders.
    pub marketplace_parts: &'static [&'static str],
    /// How the marketplace's manifests are read.
    pub marketplace_step: FollowStep,
    /// A plugin's manifests, relative to its folder.
    pub plugin_manifests: &'static [&'static str],
    /// What decides what runs in a plugin's folder: its manifests and their folders, its hook
    /// files and their folder.
    pub plugin_parts: &'static [&'static str],
    /// How the plugin's manifests are read.
    pub plugin_step: FollowStep,
    /// A plugin's default hook files, relative to its folder.
    pub hook_files: &'static [&'static str],
    /// Whether a marketplace's entries may hold their plugin's hooks (Claude Code ran a
    /// `"strict": false` entry's `hooks`; Copilot CLI 1.0.102 did not): the marketplace's
    /// manifests are then read as hook files too, with the marketplace's folder as their base.
    pub entry_hooks: bool,
}

impl PluginLayout {
    /// A marketplace's folder, as an index names it: its parts (and `extra`, a manifest file
    /// named elsewhere), its manifests (and `extra`) to read next.
    pub fn marketplace(&self, folder: String, extra: Option<String>) -> Followed {
        let mut parts: Vec<String> =
            self.marketplace_parts.iter().map(|p| (*p).to_owned()).collect();
        let mut next: Vec<(String, FollowStep)> = self
            .marketplace_manifests
            .iter()
            .map(|m| ((*m).to_owned(), self.marketplace_step))
            .collect();
        if let Some(file) = extra {
            parts.push(file.clone());
            next = vec![(file, self.marketplace_step)];
        }
        let hooks = if self.entry_hooks {
            next.iter().map(|(m, _)| m.clone()).collect()
        } else {
            Vec::new()
        };
        Followed { folder, parts, next, hooks }
    }

    /// A plugin's folder: its parts and `extra` (hook files its entry names), its manifests to
    /// read next; its hook files: the default ones, its manifests (which may hold its hooks)
    /// and `extra`.
    pub fn plugin(&self, folder: String, extra: Vec<String>) -> Followed {
        let mut parts: Vec<String> = self.plugin_parts.iter().map(|p| (*p).to_owned()).collect();
        let mut hooks: Vec<String> =
            self.hook_files.iter().chain(self.plugin_manifests).map(|h| (*h).to_owned()).collect();
        for file in extra {
            if !hooks.contains(&file) {
                hooks.push(file.clone());
            }
            parts.push(file);
        }
        Followed {
            folder,
            parts,
            next: self
                .plugin_manifests
                .iter()
                .map(|m| ((*m).to_owned(), self.plugin_step))
                .collect(),
            hooks,
        }
    }

    /// The folder of a marketplace entry's plugin whose `source` is a path in the marketplace,
    /// relative to the marketplace's folder: the source as written (`./p`), or, bare, under
    /// the manifest's `metadata.pluginRoot` when it sets one (observed with Claude Code:
    /// `"source": "p"` with `"pluginRoot": "./plugins"` ran from `plugins/p`).
    ///
    /// ```
    /// use hooks_schema::PluginLayout;
    /// assert_eq!(PluginLayout::entry_folder("p", Some("./plugins/")), "./plugins/p");
    /// assert_eq!(PluginLayout::entry_folder("./p", Some("./plugins")), "./p");
    /// ```
    pub fn entry_folder(source: &str, plugin_root: Option<&str>) -> String {
        match plugin_root {
            Some(base) if !source.starts_with("./") && !source.starts_with('/') => {
                format!("{}/{source}", base.trim_end_matches('/'))
            }
            _ => source.to_owned(),
        }
    }

    /// The plugins of a marketplace's manifest whose source is a path in the marketplace: a
    /// string source, `./`-relative as written, or, bare, under `metadata.pluginRoot` when the
    /// manifest sets one (observed with Claude Code: `"source": "p"` with `"pluginRoot":
    /// "./plugins"` ran from `plugins/p`). Object sources (GitHub, git, npm, URLs) are fetched
    /// into the agent's own folders.
    pub fn plugins(&self, manifest: &Value) -> Vec<Followed> {
        let plugin_root = manifest.pointer("/metadata/pluginRoot").and_then(Value::as_str);
        let Some(plugins) = manifest.get("plugins").and_then(Value::as_array) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for plugin in plugins {
            let Some(source) = plugin.get("source").and_then(Value::as_str) else { continue };
            let folder = PluginLayout::entry_folder(source, plugin_root);
            out.push(self.plugin(folder, plugin_hook_paths(plugin.get("hooks"))));
        }
        out
    }

    /// What a plugin's manifest adds: the hook files its `hooks` names, as parts of the
    /// plugin's own folder (`.`) and hook files with that folder as their base (observed with
    /// Claude Code and Copilot CLI: `./gate.json` and `./a/b/gate.json` ran, in the plugin's
    /// folder for Copilot CLI); nothing when it names none (inline hooks sit in the manifest,
    /// which is read as a hook file already).
    pub fn plugin_manifest(&self, manifest: &Value) -> Vec<Followed> {
        let parts = plugin_hook_paths(manifest.get("hooks"));
        if parts.is_empty() {
            return Vec::new();
        }
        vec![Followed {
            folder: ".".to_owned(),
            hooks: parts.clone(),
            parts,
            ..Followed::default()
        }]
    }
}

/// The hook files a plugin manifest's `hooks` names: a path, or a list of paths (an object
/// holds the hooks themselves, in the manifest), empty ones left out. The agents that take
/// their plugins' layout from Claude Code's (Claude Code, Copilot CLI, Codex) read `hooks`
/// alike.
///
/// ```
/// let manifest = serde_json::json!({"hooks": ["./a.json", 3, "", "./b.json"]});
/// assert_eq!(hooks_schema::plugin_hook_paths(manifest.get("hooks")), ["./a.json", "./b.json"]);
/// ```
pub fn plugin_hook_paths(hooks: Option<&Value>) -> Vec<String> {
    let paths: Vec<&Value> = match hooks {
        Some(Value::String(_)) => hooks.into_iter().collect(),
        Some(Value::Array(list)) => list.iter().collect(),
        _ => Vec::new(),
    };
    paths
        .into_iter()
        .filter_map(Value::as_str)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `script` (a shell command) with the variable `name` replaced by `value` wherever the shell
/// would expand it to the folder the agent sets it to: `${NAME}`, and `$NAME` not followed by
/// a letter, digit or `_` (which would make another variable's name). The agents that run a
/// plugin's hooks set its folder in such a variable (Claude Code's `CLAUDE_PLUGIN_ROOT`, also
/// replaced in the text itself; Copilot CLI's `COPILOT_PLUGIN_ROOT` too).
///
/// ```
/// let s = hooks_schema::replace_shell_variable("$ROOT/a ${ROOT}/b $ROOTS", "ROOT", "/p");
/// assert_eq!(s, "/p/a /p/b $ROOTS");
/// ```
pub fn replace_shell_variable(script: &str, name: &str, value: &str) -> String {
    let script = script.replace(&format!("${{{name}}}"), value);
    let bare = format!("${name}");
    let mut out = String::with_capacity(script.len());
    let mut rest = script.as_str();
    while let Some(at) = rest.find(&bare) {
        let after = &rest[at + bare.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(&bare);
        } else {
            out.push_str(value);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Marks `parsed`, read from `path`, a hook file of the plugin in `folder`, as hooks `agent`
/// runs itself while the plugin is on (Claude Code, Codex, Copilot CLI): every definition
/// disabled, so the engine lists them, never runs them, and protects the scripts they name;
/// no policy; and a note saying so (`plugin_hooks`). A file without hooks is left as it is.
///
/// ```
/// # use std::path::Path;
/// let mut parsed = hooks_schema::ParsedSource::default();
/// hooks_schema::plugin_hooks_run_by("Codex", Path::new("/p"), Path::new("/p/hooks/hooks.json"), &mut parsed);
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub fn plugin_hooks_run_by(agent: &str, folder: &Path, path: &Path, parsed: &mut ParsedSource) {
    run_by(agent, &format!("the plugin in {}", folder.display()), "the plugin is", path, parsed);
}

/// [`plugin_hooks_run_by`] for a marketplace's manifest in `folder` whose entries hold their
/// plugins' hooks (Claude Code's `"strict": false` entries).
///
/// ```
/// # use std::path::Path;
/// let mut parsed = hooks_schema::ParsedSource::default();
/// hooks_schema::marketplace_hooks_run_by("Claude Code", Path::new("/m"), Path::new("/m/.claude-plugin/marketplace.json"), &mut parsed);
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub fn marketplace_hooks_run_by(
    agent: &str,
    folder: &Path,
    path: &Path,
    parsed: &mut ParsedSource,
) {
    let whose = format!("the plugins of the marketplace in {}", folder.display());
    run_by(agent, &whose, "each plugin is", path, parsed);
}

/// Disables `parsed`'s definitions, drops its policy and notes that `agent` runs them.
fn run_by(agent: &str, whose: &str, on: &str, path: &Path, parsed: &mut ParsedSource) {
    if parsed.definitions.is_empty() {
        return;
    }
    for d in &mut parsed.definitions {
        d.enabled = false;
    }
    parsed.policy = SourcePolicy::default();
    let note = HookDiagnostic::info(format!(
        "{agent} runs the hooks of {whose} itself while {on} on; the engine lists them, never runs them, and protects the scripts they name"
    ));
    parsed.diagnostics.push(note.in_file(path).with_code("plugin_hooks"));
}
