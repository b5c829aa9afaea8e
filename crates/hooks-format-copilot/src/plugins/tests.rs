//! Tests of following Copilot CLI's plugin indexes ([`crate::follow`]).

use proptest::prelude::*;

use super::*;

fn folders(found: &[Followed]) -> Vec<&str> {
    found.iter().map(|f| f.folder.as_str()).collect()
}

/// The user's settings lead to the marketplaces added from a local folder, each with its four
/// manifests to read (not as hook files: Copilot CLI 1.0.102 did not run a marketplace entry's
/// hooks); the config, to each installed plugin's copy, with its hook files and manifests
/// (which may hold its hooks) to read as hook files; comments are allowed.
#[test]
fn local_marketplaces_and_installed_plugins_are_followed() {
    let settings = br#"{
      // added by `copilot plugin marketplace add ./market`
      "extraKnownMarketplaces": {
        "m": {"source": {"source": "directory", "path": "/work/market"}},
        "gh": {"source": {"source": "github", "repo": "o/r"}},
        "empty": {"source": {"source": "directory", "path": ""}}
      },
      "enabledPlugins": {"p@m": true}
    }"#;
    let found = follow(SETTINGS, settings);
    assert_eq!(folders(&found), ["/work/market"]);
    assert_eq!(found[0].next.len(), 4);
    assert!(found[0].next.iter().all(|(_, step)| *step == MARKETPLACE));
    assert!(found[0].parts.contains(&".github/plugin".to_owned()));
    assert!(found[0].hooks.is_empty());
    let config = b"// User settings belong in settings.json.\n// This file is managed automatically.\n{\"installedPlugins\": [{\"name\": \"direct\", \"cache_path\": \"/h/.copilot/installed-plugins/_direct/direct\", \"source\": {\"source\": \"local\", \"path\": \"/work/direct\"}}, {\"name\": \"x\"}]}";
    let found = follow(CONFIG, config);
    assert_eq!(folders(&found), ["/h/.copilot/installed-plugins/_direct/direct"]);
    assert_eq!(
        found[0].hooks,
        [
            "hooks.json",
            "hooks/hooks.json",
            ".plugin/plugin.json",
            "plugin.json",
            ".github/plugin/plugin.json",
            ".claude-plugin/plugin.json"
        ]
    );
    assert_eq!(found[0].next.len(), 4);
}

/// A marketplace's manifest leads to its plugins in it, and a plugin's manifest to the hook
/// file its `hooks` names, to protect and to read; other files name nothing.
#[test]
fn manifests_lead_to_plugins_and_hook_files() {
    let manifest = br#"{"name": "m", "plugins": [{"name": "p", "source": "./plugins/p"}, {"name": "r", "source": {"source": "github", "repo": "o/r"}}]}"#;
    assert_eq!(folders(&follow(MARKETPLACE, manifest)), ["./plugins/p"]);
    let plugin = follow(PLUGIN, br#"{"name": "p", "hooks": "./config/hooks.json"}"#);
    assert_eq!(plugin[0].parts, ["./config/hooks.json"]);
    assert_eq!(plugin[0].hooks, ["./config/hooks.json"]);
    assert_eq!(plugin[0].folder, ".");
    for bytes in [&b""[..], b"[]", b"{", b"\xff"] {
        for step in [SETTINGS, CONFIG, MARKETPLACE, PLUGIN] {
            assert!(follow(step, bytes).is_empty());
        }
    }
    assert!(follow(FollowStep("other"), manifest).is_empty());
}

proptest! {
    /// Any bytes, as any step, never panic, and every folder named is a string of the file.
    #[test]
    fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), step in 0usize..4) {
        let step = [SETTINGS, CONFIG, MARKETPLACE, PLUGIN][step];
        for f in follow(step, &bytes) {
            prop_assert!(!f.folder.is_empty());
        }
    }
}
