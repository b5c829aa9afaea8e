//! Tests of following Claude Code's plugin indexes ([`crate::follow`]).

use hooks_schema::Followed;
use proptest::prelude::*;

use super::*;

fn folders(found: &[Followed]) -> Vec<&str> {
    found.iter().map(|f| f.folder.as_str()).collect()
}

/// The known marketplaces lead to those added from a local folder or manifest file, each
/// with its manifest to read next and to read as a hook file (its entries may hold their
/// plugins' hooks); remote ones (kept in Claude Code's own folder) and broken
/// entries lead nowhere.
#[test]
fn local_marketplaces_are_followed_to_their_manifests() {
    let known = br#"{
        "dev": {"source": {"source": "directory", "path": "/work/market"},
                "installLocation": "/work/market", "lastUpdated": "2026-12-05T18:24:17.373Z"},
        "file": {"source": {"source": "file", "path": "/work/other/.claude-plugin/marketplace.json"},
                 "installLocation": "/work/other"},
        "bare-file": {"source": {"source": "file", "path": "/work/third/catalog.json"}},
        "no-location": {"source": {"source": "directory", "path": "/work/fourth"}},
        "remote": {"source": {"source": "github", "repo": "o/r"},
                   "installLocation": "/home/u/.claude/plugins/marketplaces/o-r"},
        "broken": {"source": "directory"},
        "empty": {"source": {"source": "directory", "path": ""}}
    }"#;
    let found = follow(MARKETPLACES, known);
    assert_eq!(folders(&found), ["/work/market", "/work/other", "/work/third", "/work/fourth"]);
    assert_eq!(found[0].parts, [".claude-plugin"]);
    assert_eq!(found[0].next, [(MARKETPLACE_MANIFEST.to_owned(), MARKETPLACE)]);
    assert_eq!(found[0].hooks, [MARKETPLACE_MANIFEST]);
    let manifest = "/work/other/.claude-plugin/marketplace.json".to_owned();
    assert_eq!(found[1].parts, [".claude-plugin".to_owned(), manifest.clone()]);
    assert_eq!(found[1].next, [(manifest.clone(), MARKETPLACE)]);
    assert_eq!(found[1].hooks, [manifest]);
    assert_eq!(found[2].next, [("/work/third/catalog.json".to_owned(), MARKETPLACE)]);
}

/// A marketplace's manifest leads to each plugin whose source is a path in it (`./`-relative,
/// or bare under `metadata.pluginRoot`), with its hook folder, manifest folder and the hook
/// files its entry names as parts, and its hook files, its manifest (which may hold its hooks)
/// and those its entry names to read; object sources lead nowhere.
#[test]
fn a_marketplace_s_local_plugins_are_followed() {
    let manifest = br#"{"name": "m", "owner": {"name": "x"}, "plugins": [
        {"name": "p", "source": "./p", "description": "d"},
        {"name": "q", "source": "q", "hooks": ["./extra/gate.json", 3]},
        {"name": "r", "source": {"source": "github", "repo": "o/r"}},
        {"name": "s", "source": "./", "hooks": "./config/hooks.json"},
        {"name": "t"}
    ], "metadata": {"pluginRoot": "./plugins/"}}"#;
    let found = follow(MARKETPLACE, manifest);
    assert_eq!(folders(&found), ["./p", "./plugins/q", "./"]);
    assert_eq!(found[0].parts, ["hooks", ".claude-plugin"]);
    assert_eq!(found[0].hooks, [PLUGIN_HOOKS, PLUGIN_MANIFEST]);
    assert_eq!(found[0].next, [(PLUGIN_MANIFEST.to_owned(), PLUGIN)]);
    assert_eq!(found[1].parts, ["hooks", ".claude-plugin", "./extra/gate.json"]);
    assert_eq!(found[1].hooks, [PLUGIN_HOOKS, PLUGIN_MANIFEST, "./extra/gate.json"]);
    assert_eq!(found[2].parts, ["hooks", ".claude-plugin", "./config/hooks.json"]);
    // Without `pluginRoot` a bare source is taken as written.
    let bare = follow(MARKETPLACE, br#"{"plugins": [{"name": "q", "source": "q"}]}"#);
    assert_eq!(folders(&bare), ["q"]);
}

/// A plugin's manifest adds the hook files its `hooks` names as parts of the plugin's own
/// folder and as hook files to read with it as their base; inline hooks (in the manifest,
/// which is protected and read already) add nothing.
#[test]
fn a_plugin_s_manifest_names_its_other_hook_files() {
    let found = follow(PLUGIN, br#"{"name": "p", "hooks": "./config/gate.json"}"#);
    assert_eq!(
        found,
        [Followed {
            folder: ".".to_owned(),
            parts: vec!["./config/gate.json".to_owned()],
            hooks: vec!["./config/gate.json".to_owned()],
            ..Followed::default()
        }]
    );
    let list = follow(PLUGIN, br#"{"name": "p", "hooks": ["./a.json", "./b.json"]}"#);
    assert_eq!(list[0].parts, ["./a.json", "./b.json"]);
    assert_eq!(list[0].hooks, ["./a.json", "./b.json"]);
    assert!(follow(PLUGIN, br#"{"name": "p", "hooks": {"PreToolUse": []}}"#).is_empty());
    assert!(follow(PLUGIN, br#"{"name": "p"}"#).is_empty());
}

/// The installed plugins lead to each record's `installPath`, in version 2's lists and
/// version 1's single records.
#[test]
fn installed_plugins_are_followed_to_their_folders() {
    let v2 = br#"{"version": 2, "plugins": {
        "p@m": [{"scope": "user", "installPath": "/h/.claude/plugins/cache/m/p/1.0.0", "version": "1.0.0"},
                {"scope": "project", "projectPath": "/w", "installPath": "/h/.claude/plugins/cache/m/p/0.9.0"}],
        "q@m": [{"scope": "user"}]
    }}"#;
    let found = follow(INSTALLED, v2);
    assert_eq!(
        folders(&found),
        ["/h/.claude/plugins/cache/m/p/1.0.0", "/h/.claude/plugins/cache/m/p/0.9.0"]
    );
    assert_eq!(found[0].hooks, [PLUGIN_HOOKS, PLUGIN_MANIFEST]);
    let v1 = br#"{"version": 1, "plugins": {"p@m": {"installPath": "/h/p", "version": "1"}}}"#;
    assert_eq!(folders(&follow(INSTALLED, v1)), ["/h/p"]);
}

/// What is not a JSON object, or a step this format does not know, names nothing; a byte
/// order mark is skipped as Claude Code skips it.
#[test]
fn other_files_name_nothing() {
    for bytes in [&b""[..], b"[]", b"null", b"{", b"\xff\xfe", b"\"x\""] {
        for step in [MARKETPLACES, MARKETPLACE, PLUGIN, INSTALLED] {
            assert!(follow(step, bytes).is_empty(), "{step:?} {bytes:?}");
        }
    }
    let known = br#"{"m": {"source": {"source": "directory", "path": "/m"}}}"#;
    assert!(follow(FollowStep("other"), known).is_empty());
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), known].concat();
    assert_eq!(folders(&follow(MARKETPLACES, &with_bom)), ["/m"]);
}

proptest! {
    /// Any bytes, as any step, never panic, and every folder named is a string as written in
    /// the file (never empty).
    #[test]
    fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), step in 0usize..4) {
        let step = [MARKETPLACES, MARKETPLACE, PLUGIN, INSTALLED][step];
        for f in follow(step, &bytes) {
            prop_assert!(!f.folder.is_empty());
        }
    }

    /// Marketplace manifests with arbitrary sources: a plugin is followed exactly when its
    /// source is a string, under `pluginRoot` when it is bare.
    #[test]
    fn string_sources_are_followed(sources in proptest::collection::vec(proptest::option::of("[./a-z]{0,8}"), 0..6), root in proptest::option::of("[./a-z]{1,6}")) {
        let plugins: Vec<serde_json::Value> = sources.iter().map(|s| match s {
            Some(s) => serde_json::json!({"name": "p", "source": s}),
            None => serde_json::json!({"name": "p", "source": {"source": "npm", "package": "x"}}),
        }).collect();
        let mut manifest = serde_json::json!({"plugins": plugins});
        if let Some(root) = &root {
            manifest["metadata"] = serde_json::json!({"pluginRoot": root});
        }
        let found = follow(MARKETPLACE, manifest.to_string().as_bytes());
        let strings: Vec<&String> = sources.iter().flatten().collect();
        prop_assert_eq!(found.len(), strings.len());
        for (f, s) in found.iter().zip(strings) {
            let bare = !s.starts_with("./") && !s.starts_with('/');
            match &root {
                Some(r) if bare => {
                    let expected = format!("{}/{s}", r.trim_end_matches('/'));
                    prop_assert_eq!(&f.folder, &expected);
                }
                _ => prop_assert_eq!(&f.folder, s),
            }
        }
    }
}

/// The sample files in `test_data/plugin_indexes/` (also the `claude_parse` fuzz target's
/// seeds), each read as what it is, lead to the folders they name.
#[test]
fn the_sample_indexes_lead_to_their_folders() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/plugin_indexes");
    let read = |name: &str| std::fs::read(dir.join(name)).expect("sample");
    let known = follow(MARKETPLACES, &read("known_marketplaces.json"));
    assert_eq!(folders(&known), ["/work/repo/market", "/work/catalog"]);
    let market = follow(MARKETPLACE, &read("marketplace.json"));
    assert_eq!(folders(&market), ["./gate", "./plugins/lint"]);
    let plugin = follow(PLUGIN, &read("plugin.json"));
    assert_eq!(plugin[0].parts, ["./config/hooks.json"]);
    let installed = follow(INSTALLED, &read("installed_plugins.json"));
    assert_eq!(folders(&installed), ["/home/u/.claude/plugins/cache/dev/gate/1.0.0"]);
}
