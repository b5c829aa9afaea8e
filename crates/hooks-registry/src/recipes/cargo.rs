//! What cargo runs while it builds (finding F100): the build scripts of the packages a
//! `Cargo.toml` reaches, through its workspace's members, its path dependencies and patches,
//! and the workspace it belongs to.
//!
//! A build script is a program cargo compiles and runs before it builds its package, for
//! `cargo build`, `check`, `clippy`, `test` and `run` alike, with the hook's rights. Checked
//! with cargo 1.9x here, each build script writing a marker: `cargo clippy` at a workspace's
//! root ran the build script of every member, the auto-detected `build.rs` and one a
//! manifest's `build = "gen/b.rs"` names; `cargo build` in a package's subfolder ran the
//! package's `build.rs` above it (that manifest is found upward, finding F96's table).
//!
//! The reading is bounded: at most [`MAX_MANIFESTS`] manifests, each read up to
//! [`super::RECIPE_CAP`]; a manifest that does not parse still has its own build script
//! protected.

use std::path::{Path, PathBuf};

use super::{RECIPE_CAP, RecipeRead, note_once, place};

/// At most this many manifests are read through a workspace's members and path dependencies.
pub(crate) const MAX_MANIFESTS: usize = 64;

/// At most this many folders are looked at above a package for the workspace it belongs to.
const MAX_FOLDERS_ABOVE: usize = 64;

/// The names protected in every folder under a workspace's members' pattern: a member the
/// agent adds there (its manifest, and the build script cargo detects by name) is built too.
pub(crate) const MEMBER_FILES: &[&str] = &["Cargo.toml", "build.rs"];

/// The dependency tables of a manifest whose entries may name a `path` (each also under
/// `[target.<cfg>]`).
const DEPENDENCY_TABLES: &[&str] = &["dependencies", "dev-dependencies", "build-dependencies"];

/// What cargo reaches from the manifest at `path` ([`RecipeRead::included`]: each manifest
/// and each build script, existing or not; [`RecipeRead::names_under`]: the folders a members'
/// pattern covers). The manifests read, in order: `path`, the workspace it belongs to
/// (`package.workspace`, else the nearest manifest above with a `[workspace]` table), then
/// what each names: its members (`members`, `default-members`, a pattern's existing folders),
/// the `path` of its dependencies (also per target and in `[workspace.dependencies]`), of
/// `[patch.*]` and of `[replace]`.
pub(crate) fn read(path: &Path, package: Option<&str>) -> RecipeRead {
    let mut read = RecipeRead::default();
    let mut pending: Vec<PathBuf> = vec![path.to_path_buf()];
    let mut seen: Vec<PathBuf> = Vec::new();
    while let Some(manifest) = pending.pop() {
        if seen.contains(&manifest) || seen.len() >= MAX_MANIFESTS {
            continue;
        }
        let first = seen.is_empty();
        seen.push(manifest.clone());
        note_once(&mut read.included, &manifest, MAX_MANIFESTS * 2);
        let Some(folder) = manifest.parent() else { continue };
        let Some(text) = crate::installations::read_capped(&manifest, RECIPE_CAP) else {
            // Not there yet: cargo builds the package's `build.rs` once it is (protect more).
            note_once(&mut read.included, &folder.join("build.rs"), MAX_MANIFESTS * 2);
            continue;
        };
        let Some(found) = manifest_reaches(&text, folder) else {
            // Not TOML yet: cargo builds the package's `build.rs` once it parses.
            note_once(&mut read.included, &folder.join("build.rs"), MAX_MANIFESTS * 2);
            continue;
        };
        if let Some(script) = found.build_script {
            note_once(&mut read.included, &script, MAX_MANIFESTS * 2);
        }
        // The package a `cargo run -p NAME` builds and runs: its program (finding F116).
        if package.is_some() && found.name.as_deref() == package {
            note_once(&mut read.included, &folder.join("src/main.rs"), MAX_MANIFESTS * 2);
        }
        if first && !found.is_workspace {
            pending.extend(found.workspace.or_else(|| workspace_above(folder)));
        }
        for pattern in &found.members {
            let members = super::member_folders(folder, pattern, MEMBER_FILES, &mut read);
            pending.extend(members.iter().map(|m| m.join("Cargo.toml")));
        }
        pending.extend(found.dependencies.iter().map(|d| d.join("Cargo.toml")));
    }
    read
}

/// What one manifest names ([`manifest_reaches`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Reaches {
    /// Its package's build script: `package.build`'s path, else `build.rs` beside it; none
    /// for `build = false` or a manifest without a `[package]`.
    pub(crate) build_script: Option<PathBuf>,
    /// Its package's name.
    pub(crate) name: Option<String>,
    /// Whether it has a `[workspace]` table.
    pub(crate) is_workspace: bool,
    /// The folder of the workspace its `package.workspace` names, as a manifest's path.
    pub(crate) workspace: Option<PathBuf>,
    /// Its workspace's `members` and `default-members` patterns, as written.
    pub(crate) members: Vec<String>,
    /// The folders its dependencies name by `path` (also per target, in
    /// `[workspace.dependencies]`, `[patch.*]` and `[replace]`).
    pub(crate) dependencies: Vec<PathBuf>,
}

/// What the manifest text `text` in `folder` names that cargo builds or reads; `None` when it
/// is not TOML.
pub(crate) fn manifest_reaches(text: &str, folder: &Path) -> Option<Reaches> {
    let document = text.parse::<toml_edit::DocumentMut>().ok()?;
    let root = document.as_item();
    let mut found = Reaches::default();
    if let Some(package) = root.get("package") {
        found.build_script = match package.get("build").and_then(|b| b.as_value()) {
            Some(toml_edit::Value::String(s)) => place(folder, s.value()),
            Some(toml_edit::Value::Boolean(b)) if !*b.value() => None,
            _ => Some(folder.join("build.rs")),
        };
        found.name = package.get("name").and_then(|n| n.as_str()).map(str::to_owned);
        let named = package.get("workspace").and_then(|w| w.as_str());
        found.workspace = named.and_then(|w| place(folder, w)).map(|f| f.join("Cargo.toml"));
    }
    let mut tables: Vec<&toml_edit::Item> = Vec::new();
    if let Some(workspace) = root.get("workspace") {
        found.is_workspace = true;
        for key in ["members", "default-members"] {
            let items = workspace.get(key).and_then(|m| m.as_array()).into_iter().flatten();
            found.members.extend(items.filter_map(|p| p.as_str()).map(str::to_owned));
        }
        tables.extend(workspace.get("dependencies"));
    }
    tables.extend(DEPENDENCY_TABLES.iter().filter_map(|t| root.get(t)));
    let targets = root.get("target").and_then(|t| t.as_table_like());
    for (_, target) in targets.into_iter().flat_map(|t| t.iter()) {
        tables.extend(DEPENDENCY_TABLES.iter().filter_map(|t| target.get(t)));
    }
    let patches = root.get("patch").and_then(|t| t.as_table_like());
    tables.extend(patches.into_iter().flat_map(|t| t.iter()).map(|(_, source)| source));
    tables.extend(root.get("replace"));
    for table in tables {
        for (_, entry) in table.as_table_like().into_iter().flat_map(|t| t.iter()) {
            let path = entry.get("path").and_then(|p| p.as_str());
            found.dependencies.extend(path.and_then(|p| place(folder, p)));
        }
    }
    found.members.truncate(MAX_MANIFESTS);
    found.dependencies.truncate(MAX_MANIFESTS);
    Some(found)
}

/// The nearest manifest above the package in `folder` that has a `[workspace]` table (cargo's
/// own search for the workspace a package belongs to).
fn workspace_above(folder: &Path) -> Option<PathBuf> {
    folder.ancestors().skip(1).take(MAX_FOLDERS_ABOVE).map(|f| f.join("Cargo.toml")).find(|m| {
        let text = crate::installations::read_capped(m, RECIPE_CAP);
        text.and_then(|t| manifest_reaches(&t, Path::new("/"))).is_some_and(|r| r.is_workspace)
    })
}

/// The line cargo runs for the alias a line's subcommand is (finding F116; checked with cargo
/// here: `cargo xtask check` with `[alias] xtask = "run --package xtask --"` built and ran the
/// `xtask` package's program, `cargo lint` with `lint = "run --manifest-path
/// tools/lint/Cargo.toml --"` the one of `tools/lint`): `targets` is the alias's name, then the
/// line's other words. The alias is looked for in the configuration at `path` and, when it is
/// not there, in the `.cargo/config.toml` and `.cargo/config` of each folder above, the nearest
/// first, as cargo merges them; its value (a string split at blanks, or a list) with the other
/// words is handed back as cargo's own line, read where cargo was started and from the folder
/// holding `.cargo/`. An alias of an alias is another such line, read in turn.
pub(crate) fn alias_lines(path: &Path, targets: &[String]) -> RecipeRead {
    let mut read = RecipeRead::default();
    let Some((alias, rest)) = targets.split_first() else { return read };
    let mut candidates: Vec<PathBuf> = vec![path.to_path_buf()];
    // `<project>/.cargo/config.toml`: the folders above `<project>`.
    let project = path.parent().and_then(Path::parent);
    for folder in project.into_iter().flat_map(Path::ancestors).skip(1).take(MAX_FOLDERS_ABOVE) {
        candidates.push(folder.join(".cargo/config.toml"));
        candidates.push(folder.join(".cargo/config"));
    }
    for config in candidates {
        let Some(text) = crate::installations::read_capped(&config, RECIPE_CAP) else { continue };
        let Some(expansion) = alias_expansion(&text, alias) else { continue };
        let words: Vec<String> =
            (expansion.iter().chain(rest)).map(|w| crate::hookmanagers::shell_quote(w)).collect();
        read.lines.push(format!("cargo {}", words.join(" ")));
        read.run_dirs.extend(config.parent().and_then(Path::parent).map(Path::to_path_buf));
        read.from_caller = true;
        break;
    }
    read
}

/// The words cargo's configuration `text` gives the alias `name` (`[alias]`'s string, split at
/// blanks, or list of strings); `None` when it has none.
pub(crate) fn alias_expansion(text: &str, name: &str) -> Option<Vec<String>> {
    let document = text.parse::<toml_edit::DocumentMut>().ok()?;
    let value = document.get("alias")?.get(name)?;
    let words: Vec<String> = match value.as_array() {
        Some(list) => list.iter().filter_map(|w| w.as_str()).map(str::to_owned).collect(),
        None => value.as_str()?.split_whitespace().map(str::to_owned).collect(),
    };
    (!words.is_empty()).then_some(words)
}
