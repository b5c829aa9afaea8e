//! Tests of following Codex's installed plugins ([`crate::follow`]).

use proptest::prelude::*;

use super::*;

/// Each `[plugins."<plugin>@<marketplace>"]` leads to the plugin's folder in the cache, with
/// the hook file of every version; keys that are not plain names lead nowhere.
#[test]
fn installed_plugins_are_followed_to_their_copies() {
    let config = br#"
model = "gpt-5.5"

[marketplaces.m]
source_type = "local"
source = "/work/market"

[plugins."p@m"]
enabled = true

[plugins."sites@openai-curated"]
enabled = false

[plugins."../x@m"]
[plugins."y@.."]
[plugins."noat"]
"#;
    let found = follow(CONFIG, config);
    let folders: Vec<&str> = found.iter().map(|f| f.folder.as_str()).collect();
    assert_eq!(folders, ["plugins/cache/m/p", "plugins/cache/openai-curated/sites"]);
    assert!(found.iter().all(|f| f.hooks == ["*/hooks/hooks.json", "*/.codex-plugin/plugin.json"]
        && f.next == [("*/.codex-plugin/plugin.json".to_owned(), MANIFEST)]
        && f.parts.is_empty()));
    assert!(follow(FollowStep("other"), config).is_empty());
    for bytes in [&b""[..], b"[plugins", b"\xff", b"plugins = 3"] {
        assert!(follow(CONFIG, bytes).is_empty(), "{bytes:?}");
    }
}

/// A plugin's manifest names the hook files its `hooks` names, a path or a list of paths,
/// relative to the plugin's folder; inline hooks (read from the manifest itself), anything
/// else, or a manifest that does not read, name nothing.
#[test]
fn a_plugin_s_manifest_names_its_hook_files() {
    let one = follow(MANIFEST, br#"{"name": "p", "hooks": "./gate.json"}"#);
    assert_eq!(
        one,
        [Followed {
            folder: ".".to_owned(),
            hooks: vec!["./gate.json".to_owned()],
            ..Followed::default()
        }]
    );
    let list = follow(MANIFEST, br#"{"name": "p", "hooks": ["./a.json", 3, "", "./a/b/c.json"]}"#);
    assert_eq!(list[0].hooks, ["./a.json", "./a/b/c.json"]);
    for bytes in [
        &br#"{"name": "p", "hooks": {"hooks": {}}}"#[..],
        br#"{"name": "p", "hooks": []}"#,
        br#"{"name": "p"}"#,
        b"{",
        b"[\"./gate.json\"]",
    ] {
        assert!(follow(MANIFEST, bytes).is_empty(), "{bytes:?}");
    }
}

proptest! {
    /// Any bytes never panic, and every folder named stays under `plugins/cache/`, two plain
    /// names deep.
    #[test]
    fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for f in follow(MANIFEST, &bytes) {
            prop_assert!(f.folder == "." && !f.hooks.is_empty());
        }
        for f in follow(CONFIG, &bytes) {
            let rest = f.folder.strip_prefix("plugins/cache/");
            prop_assert!(rest.is_some_and(|r| r.split('/').count() == 2 && r.split('/').all(plain)));
        }
    }

    /// Keys of any text: followed exactly when they are `<plain>@<plain>`.
    #[test]
    fn keys_are_followed_when_plain(keys in proptest::collection::vec("[a-z./@]{0,8}", 0..6)) {
        let mut doc = toml_edit::DocumentMut::new();
        let mut table = toml_edit::Table::new();
        for k in &keys {
            table.insert(k, toml_edit::Item::Table(toml_edit::Table::new()));
        }
        doc.insert("plugins", toml_edit::Item::Table(table));
        let found = follow(CONFIG, doc.to_string().as_bytes());
        let mut expected: Vec<String> = keys
            .iter()
            .filter_map(|k| k.rsplit_once('@'))
            .filter(|(p, m)| plain(p) && plain(m))
            .map(|(p, m)| format!("plugins/cache/{m}/{p}"))
            .collect();
        expected.sort();
        expected.dedup();
        let mut got: Vec<String> = found.into_iter().map(|f| f.folder).collect();
        got.sort();
        prop_assert_eq!(got, expected);
    }
}
