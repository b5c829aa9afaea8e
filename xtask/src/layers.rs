//! `cargo xtask check-layers`: the dependency rules of `specs/architecture.md`, checked
//! against `cargo metadata`.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// The layer of each workspace crate. An edge must point to a strictly lower layer.
const LAYERS: &[(&str, u8)] = &[
    ("hooks-schema", 0),
    ("hooks-json", 0),
    ("hooks-yaml", 0),
    ("hooks-format-cursor", 1),
    ("hooks-format-chrys", 1),
    ("hooks-format-claude", 1),
    ("hooks-format-codex", 1),
    ("hooks-format-gemini", 1),
    ("hooks-format-copilot", 1),
    ("hooks-format-windsurf", 1),
    ("hooks-testing", 2),
    ("hooks-trust", 3),
    ("hooks-registry", 4),
    ("hooks-sources", 5),
    ("hooks-guard", 5),
    ("hooks-dispatch", 5),
    ("hooks-truststore", 5),
    ("hooks-watcher", 6),
    ("hooks-app", 7),
    ("hooks-cli", 8),
    ("hooks-tests", 9),
    ("xtask", 9),
];

/// Internal crates a crate may not depend on even though they are lower.
const FORBIDDEN_INTERNAL: &[(&str, &[&str])] = &[("xtask", &["*"])];

/// The prefix of every format adapter crate's name.
const FORMAT_PREFIX: &str = "hooks-format-";

/// The engine's core: it knows no format and gets the formats' descriptors from whoever
/// builds the runtime, so none of these may depend on an adapter crate (normal dependencies;
/// tests may use real formats). The dispatcher may not even in its tests.
const CORE: &[&str] = &[
    "hooks-trust",
    "hooks-registry",
    "hooks-sources",
    "hooks-guard",
    "hooks-dispatch",
    "hooks-watcher",
    "hooks-truststore",
];

/// Crates that may only ever be dev-dependencies.
const DEV_ONLY: &[&str] = &["hooks-testing"];

/// External crates with exactly one set of owners (normal dependencies only).
const OWNED: &[(&str, &[&str])] = &[
    ("notify", &["hooks-watcher"]),
    ("tokio", &["hooks-dispatch", "hooks-watcher", "hooks-app", "hooks-cli"]),
    ("dunce", &["hooks-registry"]),
    ("arc-swap", &["hooks-registry"]),
    // YAML: the adapters' one event reader (Chrys's hook files, the front matter of Claude
    // Code's subagents and skills read through it).
    ("saphyr-parser", &["hooks-yaml"]),
    ("regress", &["hooks-format-gemini"]),
    // `hooks install` edits agents' files keeping their bytes (adapters read with hooks-json).
    ("jsonc-parser", &["hooks-app"]),
    // The HTTP client (HTTP hooks, specs/dispatch.md "HTTP hooks"; the app's optional OTLP/HTTP
    // exporter, specs/observability.md "OpenTelemetry").
    ("reqwest", &["hooks-dispatch", "hooks-app"]),
    ("rustls", &["hooks-dispatch", "hooks-app"]),
    ("rustls-platform-verifier", &["hooks-dispatch", "hooks-app"]),
    ("anyhow", &["hooks-cli", "xtask"]),
    ("clap", &["hooks-cli"]),
];

/// The only direct normal dependencies `hooks-schema` may have.
const SCHEMA_ALLOWED: &[&str] = &["serde", "serde_json", "thiserror"];

/// Crates that must not appear anywhere in `hooks-schema`'s normal dependency tree.
const SCHEMA_BANNED_TRANSITIVE: &[&str] = &[
    "tokio",
    "notify",
    "dunce",
    "arc-swap",
    "regex",
    "fancy-regex",
    "saphyr-parser",
    "mio",
    "libc",
];

/// Checks every rule and fails with the list of violations.
pub(crate) fn check(root: &Path) -> Result<()> {
    let out = crate::cargo()
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let meta: Value = serde_json::from_slice(&out.stdout).context("parsing cargo metadata")?;
    let violations = violations(&meta)?;
    if violations.is_empty() {
        Ok(())
    } else {
        bail!("layering violations:\n  {}", violations.join("\n  "))
    }
}

/// One resolved dependency edge.
struct Edge {
    from: String,
    to: String,
    normal: bool,
}

fn violations(meta: &Value) -> Result<Vec<String>> {
    let packages = meta["packages"].as_array().context("metadata has no packages")?;
    let names: BTreeMap<&str, &str> =
        packages.iter().filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?))).collect();
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .context("metadata has no workspace members")?
        .iter()
        .filter_map(|id| names.get(id.as_str()?).copied())
        .collect();
    let layer: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();

    let mut edges = Vec::new();
    for node in meta["resolve"]["nodes"].as_array().context("metadata has no resolve graph")? {
        let Some(from) = node["id"].as_str().and_then(|id| names.get(id)) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let Some(to) = dep["pkg"].as_str().and_then(|id| names.get(id)) else { continue };
            let normal = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            edges.push(Edge { from: (*from).to_owned(), to: (*to).to_owned(), normal });
        }
    }

    let mut v = Vec::new();
    for m in &members {
        if !layer.contains_key(m) {
            v.push(format!("workspace member `{m}` has no layer in xtask/src/layers.rs"));
        }
    }
    for e in edges.iter().filter(|e| members.contains(e.from.as_str())) {
        let (from, to) = (e.from.as_str(), e.to.as_str());
        if members.contains(to) {
            let (Some(lf), Some(lt)) = (layer.get(from), layer.get(to)) else { continue };
            let exempt = from == "hooks-tests";
            if !exempt && lt >= lf {
                v.push(format!(
                    "`{from}` (layer {lf}) depends on `{to}` (layer {lt}): edges must point down"
                ));
            }
            for (who, banned) in FORBIDDEN_INTERNAL {
                if *who == from && (banned.contains(&to) || banned.contains(&"*")) {
                    v.push(format!("`{from}` must not depend on `{to}`"));
                }
            }
            let to_format = to.starts_with(FORMAT_PREFIX);
            if from.starts_with(FORMAT_PREFIX) && to_format {
                v.push(format!(
                    "`{from}` must not depend on `{to}`: adapters never use each other"
                ));
            }
            if to_format && CORE.contains(&from) && (e.normal || from == "hooks-dispatch") {
                v.push(format!(
                    "`{from}` is in the engine's core and must not depend on the format crate `{to}`: it gets the formats' descriptors from whoever builds the runtime"
                ));
            }
            if e.normal && DEV_ONLY.contains(&to) {
                v.push(format!("`{from}` depends on `{to}`, which may only be a dev-dependency"));
            }
        } else if e.normal {
            for (dep, owners) in OWNED {
                if *dep == to && !owners.contains(&from) {
                    v.push(format!("`{from}` depends on `{to}`, which only {owners:?} may use"));
                }
            }
            if from == "hooks-schema" && !SCHEMA_ALLOWED.contains(&to) {
                v.push(format!(
                    "`hooks-schema` depends on `{to}`: only {SCHEMA_ALLOWED:?} are allowed"
                ));
            }
        }
    }

    v.extend(above_the_msrv(packages, &members));

    // Transitive normal closure of hooks-schema.
    let mut seen = BTreeSet::from(["hooks-schema".to_owned()]);
    let mut stack = vec!["hooks-schema".to_owned()];
    while let Some(cur) = stack.pop() {
        for e in edges.iter().filter(|e| e.from == cur && e.normal) {
            if seen.insert(e.to.clone()) {
                stack.push(e.to.clone());
            }
        }
    }
    for banned in SCHEMA_BANNED_TRANSITIVE {
        if seen.contains(*banned) {
            v.push(format!("`{banned}` is in the dependency tree of `hooks-schema`"));
        }
    }
    Ok(v)
}

/// A version's numbers (`1.88` is `[1, 88, 0]`); `None` for what is not one.
fn version(text: &str) -> Option<[u64; 3]> {
    let mut parts = text.split('.').map(str::parse::<u64>);
    let major = parts.next()?.ok()?;
    let minor = parts.next().unwrap_or(Ok(0)).ok()?;
    let patch = parts.next().unwrap_or(Ok(0)).ok()?;
    Some([major, minor, patch])
}

/// A package's name and the `rust-version` it declares.
fn declared(p: &Value) -> Option<(&str, &str)> {
    Some((p["name"].as_str()?, p["rust_version"].as_str()?))
}

/// Every locked package that declares a `rust-version` above the workspace's (its members'
/// lowest, what the README promises a newcomer's toolchain): a `cargo update` that brings one
/// in would break the build on every toolchain between the two, and nothing else would say so
/// on a machine with a newer one.
fn above_the_msrv(packages: &[Value], members: &BTreeSet<&str>) -> Vec<String> {
    let Some((msrv_text, msrv)) = packages
        .iter()
        .filter_map(declared)
        .filter(|(name, _)| members.contains(name))
        .filter_map(|(_, text)| Some((text, version(text)?)))
        .min_by_key(|(_, v)| *v)
    else {
        return Vec::new();
    };
    packages
        .iter()
        .filter_map(|p| Some((declared(p)?, p["version"].as_str().unwrap_or("?"))))
        .filter(|((_, text), _)| version(text).is_some_and(|v| v > msrv))
        .map(|((name, text), at)| {
            format!(
                "`{name}` {at} needs Rust {text}, above the workspace's rust-version {msrv_text}: \
                 `cargo update -p {name} --precise <a version that builds with {msrv_text}>`, or \
                 raise rust-version (and the README's set-up) to {text}"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain test run enforces the layering too.
    #[test]
    fn the_workspace_respects_its_layers() {
        check(&crate::workspace_root()).unwrap();
    }

    fn meta(edges: &[(&str, &str, Option<&str>)]) -> Value {
        let mut pkgs: BTreeSet<&str> = BTreeSet::new();
        for (a, b, _) in edges {
            pkgs.insert(a);
            pkgs.insert(b);
        }
        let packages: Vec<Value> =
            pkgs.iter().map(|p| serde_json::json!({"id": format!("id-{p}"), "name": p})).collect();
        let members: Vec<Value> = pkgs
            .iter()
            .filter(|p| LAYERS.iter().any(|(n, _)| n == *p))
            .map(|p| Value::from(format!("id-{p}")))
            .collect();
        let nodes: Vec<Value> = pkgs
            .iter()
            .map(|p| {
                let deps: Vec<Value> = edges
                    .iter()
                    .filter(|(a, _, _)| a == p)
                    .map(|(_, b, kind)| serde_json::json!({"pkg": format!("id-{b}"), "dep_kinds": [{"kind": kind}]}))
                    .collect();
                serde_json::json!({"id": format!("id-{p}"), "deps": deps})
            })
            .collect();
        serde_json::json!({"packages": packages, "workspace_members": members, "resolve": {"nodes": nodes}})
    }

    /// notify-types 2.3.0 (Rust 1.91) was locked while the workspace said 1.88.
    #[test]
    fn a_dependency_that_needs_a_newer_rust_than_the_workspace_is_reported() {
        let mut m = meta(&[("hooks-watcher", "notify", None), ("notify", "notify-types", None)]);
        for p in m["packages"].as_array_mut().unwrap() {
            let (name, rust) = match p["name"].as_str().unwrap() {
                "hooks-watcher" => ("hooks-watcher", "1.88"),
                "notify" => ("notify", "1.88.0"),
                _ => ("notify-types", "1.91"),
            };
            assert_eq!(p["name"], name);
            p["rust_version"] = rust.into();
            p["version"] = "2.3.0".into();
        }
        let v = violations(&m).unwrap();
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(
            v[0].starts_with(
                "`notify-types` 2.3.0 needs Rust 1.91, above the workspace's rust-version 1.88"
            ),
            "{v:?}"
        );
        m["packages"][2]["rust_version"] = "1.85".into();
        assert_eq!(violations(&m).unwrap(), Vec::<String>::new());
        assert_eq!(version("1.88"), Some([1, 88, 0]));
        assert_eq!(version("1.91.1"), Some([1, 91, 1]));
        assert_eq!(version("x"), None);
    }

    #[test]
    fn an_upward_edge_is_reported() {
        let v = violations(&meta(&[("hooks-registry", "hooks-sources", None)])).unwrap();
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("edges must point down"));
    }

    #[test]
    fn schema_may_only_use_serde_json_and_thiserror() {
        let v = violations(&meta(&[
            ("hooks-schema", "serde", None),
            ("hooks-schema", "regex", None),
            ("hooks-schema", "proptest", Some("dev")),
        ]))
        .unwrap();
        assert_eq!(v.len(), 2, "{v:?}");
        assert!(v.iter().any(|m| m.contains("only [\"serde\"")));
        assert!(v.iter().any(|m| m.contains("`regex` is in the dependency tree")));
    }

    #[test]
    fn the_core_depends_on_no_format_and_test_support_is_dev_only() {
        let v = violations(&meta(&[
            ("hooks-registry", "hooks-format-cursor", None),
            ("hooks-watcher", "hooks-format-chrys", None),
            ("hooks-registry", "hooks-format-claude", Some("dev")),
            ("hooks-dispatch", "hooks-format-chrys", Some("dev")),
            ("hooks-format-claude", "hooks-format-cursor", None),
            ("hooks-guard", "hooks-testing", None),
            ("hooks-guard", "hooks-testing", Some("dev")),
        ]))
        .unwrap();
        // Six: the adapter-to-adapter edge also points sideways.
        assert_eq!(v.len(), 6, "{v:?}");
        assert!(v.iter().any(|m| m.contains("`hooks-watcher` is in the engine's core")));
        assert!(v.iter().any(|m| m.contains("adapters never use each other")));
        assert!(v.iter().any(|m| m.contains("may only be a dev-dependency")));
    }

    #[test]
    fn owned_dependencies_stay_with_their_owner() {
        let v = violations(&meta(&[
            ("hooks-registry", "notify", None),
            ("hooks-guard", "tokio", None),
            ("hooks-watcher", "notify", None),
            ("hooks-sources", "tokio", Some("dev")),
            ("hooks-dispatch", "hooks-format-cursor", None),
        ]))
        .unwrap();
        assert_eq!(v.len(), 3, "{v:?}");
    }
}
