//! What the configuration of linters, type checkers and formatters has them load: prettier's
//! `plugins` (finding F71); mypy's `plugins`, flake8's `[flake8:local-plugins]` `paths`,
//! ruff's `extend` (finding F79);
//! biome's and TypeScript's `extends`, rubocop's `inherit_from`, `require` and `plugins`
//! (finding F80); pyright's `extends` (finding F84); pylint's `load-plugins` (finding F86);
//! what a package manager's or build tool's own configuration has it run: npm's `.npmrc`
//! `script-shell` and `node-options`, yarn's `yarnPath`, `yarn-path`, `script-shell` and
//! `plugins`, pnpm's `pnpmfile`, `scriptShell` and `nodeOptions`, cargo's wrappers, runners
//! and linkers, the Java agents of Maven's `.mvn/jvm.config` and Gradle's `org.gradle.jvmargs`
//! (finding F106), and the packages cargo's `[patch]` tables and `paths` overrides build in
//! place of a dependency (finding F111); Bun's `preload` (finding F129); Deno's import maps
//! (finding F131); ts-node's `require` and, for the TypeScript runners,
//! where a `tsconfig.json`'s `paths` and `baseUrl` send a script's imports (finding F127);
//! the programs and ignore files ripgrep's configuration names (finding F133).
//!
//! A configuration where a hook runs one of these tools is protected ([`crate::scripts`]'s
//! `CODE_CONFIGS`), but the files it names are code the tool loads (a mypy plugin, a flake8
//! local plugin's folder, a rubocop extension) or configuration it reads in turn (ruff's
//! `extend`, a `tsconfig.json`'s `extends`): the agent writing those had its code run by the
//! next event's hook, or turned the gate off, without touching the protected file; a pylint
//! plugin is a module found wherever the `sys.path` its `init-hook` sets finds it, so its file
//! is protected by its dotted name's path under any folder. Read as
//! the tools read them (checked with mypy 2.4, flake8 7.5, ruff 0.17, biome 2.6, TypeScript
//! 7.0 and rubocop 1.39): INI files through sections and indented continuation lines,
//! `pyproject.toml` and `ruff.toml` as TOML, `biome.json` and `tsconfig.json` as JSON with
//! comments and trailing commas, `.rubocop.yml` as YAML; each name relative to the
//! configuration's folder.

#[cfg(test)]
mod tests;

/// The file names that may hold such names, read where the hook runs.
pub(crate) const PLUGIN_CONFIGS: &[&str] = &[
    "pyproject.toml",
    "setup.cfg",
    "tox.ini",
    "mypy.ini",
    ".mypy.ini",
    ".flake8",
    "ruff.toml",
    ".ruff.toml",
    "biome.json",
    "biome.jsonc",
    ".biome.json",
    ".biome.jsonc",
    "tsconfig.json",
    "jsconfig.json",
    ".rubocop.yml",
    "pyrightconfig.json",
    ".prettierrc",
    ".prettierrc.json",
    ".prettierrc.yaml",
    ".prettierrc.yml",
    "pylintrc",
    ".pylintrc",
    "pylintrc.toml",
    ".pylintrc.toml",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    "pnpm-workspace.yaml",
    ".cargo/config.toml",
    ".cargo/config",
    ".mvn/jvm.config",
    "gradle.properties",
    "bunfig.toml",
];

/// The name of [`PLUGIN_CONFIGS`] the file at `path` is read as: its file name, or its last
/// two components for the names that hold a folder (`.cargo/config.toml`: a file named
/// `config.toml` elsewhere is not cargo's).
pub(crate) fn config_named(path: &std::path::Path) -> Option<&'static str> {
    PLUGIN_CONFIGS.iter().copied().find(|name| match name.contains('/') {
        true => path.ends_with(name),
        false => path.file_name().is_some_and(|n| n == *name),
    })
}

/// The package manager whose configuration is read as `read_as` when the files it names are
/// loaded by Node.js, and so read for what they import (finding F107): npm's, yarn's and
/// pnpm's; `None` for another tool's.
pub(crate) fn javascript_loader(read_as: &str) -> Option<&'static str> {
    match read_as {
        ".npmrc" => Some("npm"),
        ".yarnrc" | ".yarnrc.yml" => Some("yarn"),
        "pnpm-workspace.yaml" => Some("pnpm"),
        "bunfig.toml" => Some("bun"),
        _ => None,
    }
}

/// Whether the names the configuration read as `read_as` holds are relative to the folder
/// above its own: cargo's, to the folder holding `.cargo/` (checked with cargo 1.9x: its
/// `rustc-wrapper = "tools/w.sh"` ran from a subfolder of the package too), and Maven's
/// `jvm.config`, to the project's folder where `mvn` runs (checked with Maven 3.8).
pub(crate) fn names_from_parent(read_as: &str) -> bool {
    matches!(read_as, ".cargo/config.toml" | ".cargo/config" | ".mvn/jvm.config")
}

/// Whether the relative names the configuration read as `read_as` holds are taken from where
/// the tool runs rather than from the configuration's folder (finding F112): npm's `.npmrc`
/// `script-shell` and `node-options` files from the folder of the package whose script runs
/// (the user's `~/.npmrc` too; checked with npm 11 in session 47), Maven 3.8's `jvm.config`
/// agents from where `mvn` runs (a subfolder's `mvn` takes the `.mvn/` above).
pub(crate) fn names_from_where_it_runs(read_as: &str) -> bool {
    matches!(read_as, ".npmrc" | ".mvn/jvm.config")
}

/// At most this many names are taken from one file.
const MAX_NAMES: usize = 64;

/// What one configuration file names, relative to its folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Loads {
    /// Files the tool imports or reads (a mypy plugin's module, ruff's `extend`).
    pub(crate) files: Vec<String>,
    /// Folders the tool imports from (flake8's local plugins' `paths`).
    pub(crate) folders: Vec<String>,
    /// Configuration files it reads in turn, in the same syntax (ruff's `extend`, biome's and
    /// TypeScript's `extends`, rubocop's `inherit_from`): read for what they name too.
    pub(crate) extends: Vec<String>,
    /// Python modules it imports by their dotted names from wherever its `sys.path` finds
    /// them (pylint's `load-plugins`, from the folders its `init-hook` adds): the module's
    /// file and package, relative to any folder (`tools/plug.py`, `tools/plug/__init__.py`).
    pub(crate) modules: Vec<String>,
    /// Folders of packages the tool builds in place of the ones a manifest names, and so runs
    /// the build scripts of (cargo's `[patch]` tables and `paths` overrides, finding F111):
    /// each read as that tool's manifest, with what it reaches in turn.
    pub(crate) packages: Vec<String>,
}

/// What the configuration file named `file_name` (one of [`PLUGIN_CONFIGS`]) holding `text`
/// has mypy, flake8 or ruff load. Names that are no relative or absolute path a tool would
/// take as it is (`~/x`, `$VAR/x`) are left out.
pub(crate) fn loads(file_name: &str, text: &str) -> Loads {
    let mut out = Loads::default();
    match file_name {
        "pyproject.toml" | "ruff.toml" | ".ruff.toml" | "pylintrc.toml" | ".pylintrc.toml" => {
            let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return out };
            let root = document.as_item();
            let (mypy, ruff) = match file_name {
                "pyproject.toml" => {
                    let tool = root.get("tool");
                    (tool.and_then(|t| t.get("mypy")), tool.and_then(|t| t.get("ruff")))
                }
                "ruff.toml" | ".ruff.toml" => (None, Some(root)),
                _ => (None, None),
            };
            if let Some(plugins) = mypy.and_then(|m| m.get("plugins")) {
                for entry in toml_names(plugins) {
                    mypy_plugin(entry, &mut out.files);
                }
            }
            if let Some(extend) = ruff.and_then(|r| r.get("extend")).and_then(|e| e.as_str()) {
                push_path(extend, &mut out.extends);
            }
            // pylint's tables: `[tool.pylint.main]` of `pyproject.toml`, `[main]` (or any
            // table) of its own TOML files, whatever their case (`MASTER`).
            let pylint = match file_name {
                "pyproject.toml" => root.get("tool").and_then(|t| t.get("pylint")),
                "pylintrc.toml" | ".pylintrc.toml" => {
                    root.get("tool").and_then(|t| t.get("pylint")).or(Some(root))
                }
                _ => None,
            };
            if let Some(tables) = pylint.and_then(|p| p.as_table_like()) {
                for (_, table) in tables.iter() {
                    let Some(plugins) =
                        table.get("load-plugins").or_else(|| table.get("load_plugins"))
                    else {
                        continue;
                    };
                    for entry in toml_names(plugins) {
                        pylint_plugin(entry, &mut out.modules);
                    }
                }
            }
        }
        "biome.json" | "biome.jsonc" | ".biome.json" | ".biome.jsonc" | "tsconfig.json"
        | "jsconfig.json" | "pyrightconfig.json" => {
            let typescript = matches!(file_name, "tsconfig.json" | "jsconfig.json");
            let Some(value) = jsonc_value(text) else { return out };
            out.extends = json_extends(&value, typescript);
            // ts-node requires its `require` entries before the script, from the
            // configuration's folder (finding F127; checked with ts-node 10: `"ts-node":
            // {"require": ["./pre.js"]}` ran `pre.js`, whose exit ended the hook first).
            let required = value.get("ts-node").and_then(|t| t.get("require"));
            for entry in required.and_then(|r| r.as_array()).into_iter().flatten() {
                if let Some(entry) = entry.as_str().filter(|e| typescript && is_path_like(e)) {
                    push_path(entry, &mut out.files);
                }
            }
        }
        ".rubocop.yml" => rubocop(text, &mut out),
        ".npmrc" => {
            // npm's (checked with npm 11 and yarn 1.22, which reads `script-shell` there):
            // `script-shell` runs every script, `node-options` is the scripts' `NODE_OPTIONS`.
            for (_, key, value) in ini_values(text) {
                match key.as_str() {
                    "script-shell" => shell_path(&value, &mut out.files),
                    "node-options" => node_options(&value, &mut out.files),
                    _ => {}
                }
            }
        }
        ".yarnrc" => {
            // yarn 1's own (`yarn-path "tools/yarn.cjs"`): the file it runs instead of itself,
            // and its scripts' shell.
            for line in text.lines() {
                let line = line.trim();
                let Some((key, value)) = line.split_once([' ', '\t', '=']) else { continue };
                match key.trim_matches(['"', '\'']) {
                    "yarn-path" => push_path(value, &mut out.files),
                    "script-shell" => shell_path(value, &mut out.files),
                    _ => {}
                }
            }
        }
        ".yarnrc.yml" | "pnpm-workspace.yaml" => {
            for YamlValue { key, inner, value } in yaml_top_values(text) {
                match (key.as_str(), inner.as_deref()) {
                    // yarn runs its `yarnPath` (yarn 1.22 too) and loads its `plugins`.
                    ("yarnPath", None) | ("plugins", None | Some("path"))
                        if file_name == ".yarnrc.yml" =>
                    {
                        push_path(&value, &mut out.files)
                    }
                    // pnpm 12 loads the `pnpmfile`s at every command, runs scripts with
                    // `scriptShell` and gives them `nodeOptions`.
                    ("pnpmfile", None) if file_name == "pnpm-workspace.yaml" => {
                        push_path(&value, &mut out.files)
                    }
                    ("scriptShell", None) if file_name == "pnpm-workspace.yaml" => {
                        shell_path(&value, &mut out.files)
                    }
                    ("nodeOptions", None) if file_name == "pnpm-workspace.yaml" => {
                        node_options(&value, &mut out.files)
                    }
                    _ => {}
                }
            }
        }
        ".cargo/config.toml" | ".cargo/config" => cargo_config(text, &mut out),
        ".mvn/jvm.config" => java_agents(text, &mut out.files),
        "bunfig.toml" => {
            // Bun runs its top-level `preload` before the script it runs, a file's path from
            // the configuration's folder (with `./` or without) or a package's name in
            // `node_modules` (finding F129; checked with Bun 1.4: `preload =
            // ["./tools/setup.ts"]` ran `setup.ts`, whose exit ended the hook first; the
            // `[run]` and `[test]` tables' did not, for `bun gate.ts`).
            let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return out };
            for entry in document.get("preload").map(toml_names).unwrap_or_default() {
                let entry = entry.trim();
                let is_file = is_path_like(entry)
                    || entry.contains('/') && !entry.starts_with('@')
                    || crate::scripts::is_javascript_file(entry);
                match is_file {
                    true => push_path(entry, &mut out.files),
                    false if !entry.is_empty() => {
                        push_path(&format!("node_modules/{entry}"), &mut out.folders)
                    }
                    false => {}
                }
            }
        }
        "gradle.properties" => {
            // The options of the daemon's JVM, and the Java it runs (a folder whose `bin/java`
            // starts).
            for (section, key, value) in ini_values(text) {
                match (section.as_str(), key.as_str()) {
                    ("", "org.gradle.jvmargs") => java_agents(&value, &mut out.files),
                    ("", "org.gradle.java.home") => push_path(&value, &mut out.folders),
                    _ => {}
                }
            }
        }
        // prettier's `plugins` (finding F71): a file's path, as it is; a package's name is in
        // `node_modules`. `.prettierrc.json` read as JSON, the others as YAML (which reads a
        // JSON `.prettierrc` too).
        ".prettierrc" | ".prettierrc.json" | ".prettierrc.yaml" | ".prettierrc.yml" => {
            let syntax = crate::hookmanagers::Syntax::of(std::path::Path::new(file_name));
            let values = crate::hookmanagers::config_values(text, syntax);
            // As many as that reader keeps (256), not [`MAX_NAMES`].
            out.files = values.plugins.into_iter().filter(|p| is_path_like(p)).collect();
            return out;
        }
        _ => {
            for (section, key, value) in ini_values(text) {
                match (section.as_str(), key.as_str()) {
                    ("mypy", "plugins") => {
                        for entry in value.split([',', '\n']) {
                            mypy_plugin(entry, &mut out.files);
                        }
                    }
                    // pylint's (finding F86): `[MAIN]` or `[MASTER]` of its own files,
                    // `[pylint.main]` of `setup.cfg` and `tox.ini`.
                    (section, "load-plugins" | "load_plugins") if is_pylint_section(section) => {
                        for entry in value.split([',', '\n']) {
                            pylint_plugin(entry, &mut out.modules);
                        }
                    }
                    ("flake8:local-plugins", "paths") => {
                        for entry in value.split([',', '\n', ' ', '\t']) {
                            push_path(entry, &mut out.folders);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out.files.truncate(MAX_NAMES);
    out.folders.truncate(MAX_NAMES);
    out.extends.truncate(MAX_NAMES);
    out.modules.truncate(MAX_NAMES);
    out
}

/// The names a TOML value lists: an array's strings, or a string's comma-separated parts
/// (mypy's `plugins`, pylint's `load-plugins`).
fn toml_names(item: &toml_edit::Item) -> Vec<&str> {
    match item.as_array() {
        Some(array) => array.iter().filter_map(|v| v.as_str()).collect(),
        None => item.as_str().map(|s| s.split(',').collect()).unwrap_or_default(),
    }
}

/// Whether an INI section is one pylint reads its options from: `MAIN` or `MASTER` (any
/// case) of its own files, any `pylint.` section of `setup.cfg` and `tox.ini`.
fn is_pylint_section(section: &str) -> bool {
    let lower = section.to_ascii_lowercase();
    matches!(lower.as_str(), "main" | "master") || lower.starts_with("pylint.")
}

/// A pylint `load-plugins` entry: a module's dotted name (`tools.plug`), kept as it is.
fn pylint_plugin(entry: &str, modules: &mut Vec<String>) {
    let entry = entry.trim();
    if !entry.is_empty()
        && entry.split('.').all(|part| !part.is_empty() && is_identifier(part))
        && modules.len() < MAX_NAMES
        && !modules.iter().any(|m| m == entry)
    {
        modules.push(entry.to_owned());
    }
}

/// Whether a name in a configuration is a file's path rather than a package's name: `./…`,
/// `../…` or absolute.
/// What a `tsconfig.json` says of where its bare import specifiers are found (finding F127):
/// its `compilerOptions.baseUrl` and `compilerOptions.paths` when it sets them, and the
/// configurations its `extends` names by a path, from which the ones it does not set come.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct TypeScriptPaths {
    /// `baseUrl`, as written (relative to this configuration's folder).
    pub(crate) base_url: Option<String>,
    /// Each `paths` pattern (`@/*`, `policy`) with its targets as written (relative to
    /// `baseUrl`, or to this configuration's folder without one), in order; `None` when this
    /// configuration sets no `paths`.
    pub(crate) paths: Option<Vec<(String, Vec<String>)>>,
    /// The configurations `extends` names by a path (`./base.json`, `../tsconfig.base`), the
    /// name with `.json` added too when it has no extension.
    pub(crate) extends: Vec<String>,
}

/// A JSON text with comments and trailing commas (`tsconfig.json`, `biome.jsonc`,
/// `deno.jsonc`), read as their tools read it; `None` when it is not JSON even so.
fn jsonc_value(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str(&without_trailing_commas(&hooks_json::strip_comments(text))).ok()
}

/// The configurations a JSON configuration's `extends` names by a path (a package's name,
/// `@tsconfig/node20/tsconfig.json` or `ultracite`, is found in `node_modules`), and for
/// TypeScript's (`typescript`) each one without an extension with `.json` added too, as
/// TypeScript tries it.
fn json_extends(value: &serde_json::Value, typescript: bool) -> Vec<String> {
    let extends: Vec<&str> = match value.get("extends") {
        Some(serde_json::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).collect(),
        Some(v) => v.as_str().into_iter().collect(),
        None => Vec::new(),
    };
    let mut out = Vec::new();
    for entry in extends.into_iter().filter(|e| is_path_like(e)) {
        push_path(entry, &mut out);
        if typescript && !entry.ends_with(".json") {
            push_path(&format!("{entry}.json"), &mut out);
        }
    }
    out
}

/// At most this many `paths` patterns, and targets of each, are read.
const MAX_PATH_PATTERNS: usize = 64;

/// [`TypeScriptPaths`] of a `tsconfig.json`'s text (JSON with comments and trailing commas,
/// as TypeScript reads it); an unreadable text sets nothing.
pub(crate) fn typescript_paths(text: &str) -> TypeScriptPaths {
    let mut out = TypeScriptPaths::default();
    let Some(value) = jsonc_value(text) else { return out };
    out.extends = json_extends(&value, true);
    let options = value.get("compilerOptions");
    out.base_url = options.and_then(|o| o.get("baseUrl")).and_then(|b| b.as_str()).map(Into::into);
    if let Some(paths) = options.and_then(|o| o.get("paths")).and_then(|p| p.as_object()) {
        let patterns = paths.iter().take(MAX_PATH_PATTERNS).map(|(pattern, targets)| {
            let targets = (targets.as_array().into_iter().flatten())
                .filter_map(|t| t.as_str())
                .take(MAX_PATH_PATTERNS)
                .map(str::to_owned)
                .collect();
            (pattern.clone(), targets)
        });
        out.paths = Some(patterns.collect());
    }
    out
}

/// What a `package.json` says of where Node finds the specifiers of the package's own files
/// (finding F128): its `imports` (`#policy`, `#lib/*`: subpath imports, for the package's own
/// files alone) and, under its `name`, its `exports` (`my-pkg/policy`: a file of the package
/// importing the package by its own name), each pattern with every target a condition may
/// pick (`{"node": "./a.js", "default": "./b.js"}`: both), as written; `exports` keyed by its
/// full specifier (`my-pkg`, `my-pkg/lib/*`).
pub(crate) fn package_import_map(text: &str) -> Vec<(String, Vec<String>)> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    if let Some(imports) = value.get("imports").and_then(|i| i.as_object()) {
        for (key, target) in imports.iter().take(MAX_PATH_PATTERNS) {
            if key.starts_with('#') {
                out.push((key.clone(), string_leaves(target)));
            }
        }
    }
    let name = value.get("name").and_then(|n| n.as_str()).filter(|n| !n.is_empty());
    if let (Some(name), Some(exports)) = (name, value.get("exports")) {
        // Subpaths (`"."`, `"./policy"`) or conditions of `"."` alone.
        let subpaths = exports.as_object().filter(|o| o.keys().any(|k| k.starts_with('.')));
        match subpaths {
            Some(subpaths) => {
                for (key, target) in subpaths.iter().take(MAX_PATH_PATTERNS) {
                    let Some(rest) = key.strip_prefix('.') else { continue };
                    out.push((format!("{name}{rest}"), string_leaves(target)));
                }
            }
            None => out.push((name.to_owned(), string_leaves(exports))),
        }
    }
    out
}

/// What a Deno configuration's (`deno.json`, `deno.jsonc`) or an import map's text says of
/// where Deno finds a script's specifiers (finding F131): its `imports`, each key with its
/// target when the target is a file's path (`./src/policy.ts`, `../src/`), a key ending in
/// `/` as a prefix (`"@/": "./src/"` read as `@/*` to `./src/*`, the matcher's spelling);
/// and the file its `importMap` names, whose `imports` Deno reads instead.
pub(crate) fn deno_import_map(text: &str) -> (Vec<(String, Vec<String>)>, Option<String>) {
    let Some(value) = jsonc_value(text) else { return (Vec::new(), None) };
    let mut out = Vec::new();
    if let Some(imports) = value.get("imports").and_then(|i| i.as_object()) {
        for (key, target) in imports.iter().take(MAX_PATH_PATTERNS) {
            let Some(target) = target.as_str().filter(|t| t.starts_with('.')) else { continue };
            match (key.ends_with('/'), target.ends_with('/')) {
                (true, true) => out.push((format!("{key}*"), vec![format!("{target}*")])),
                (false, _) => out.push((key.clone(), vec![target.to_owned()])),
                (true, false) => {}
            }
        }
    }
    let map = value.get("importMap").and_then(|m| m.as_str()).map(str::to_owned);
    (out, map)
}

/// At most this many values are kept from a ripgrep configuration.
const MAX_RIPGREP_VALUES: usize = 64;

/// At most this much of a ripgrep configuration is read.
const RIPGREP_CONFIG_CAP: u64 = 256 * 1024;

/// At most this much of a tool's configuration file is read (`protect_tool_plugins`, the
/// TypeScript configurations of [`typescript_config_files`]).
pub(crate) const TOOL_CONFIG_CAP: u64 = 256 * 1024;

/// What ripgrep's configuration file has it run and read (finding F133), as written: the
/// programs of its `--pre` options (ripgrep runs one on every file it searches and searches
/// its output instead) and the files of its `--ignore-file` options (patterns of files it
/// skips). Read as ripgrep 15.1 reads it (checked here): each line, trimmed of blanks and a
/// carriage return, is one argument; an empty line, or one starting with `#`, is skipped; an
/// option's value is after its `=` (kept as written, blanks and all) or is the next argument;
/// an empty `--pre=` turns the preprocessor off and names nothing.
pub(crate) fn ripgrep_config(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut pre, mut ignore_files) = (Vec::new(), Vec::new());
    let mut args = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    while let Some(arg) = args.next() {
        let (flag, value) = match arg.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_owned())),
            None => (arg, None),
        };
        let into = match flag {
            "--pre" => &mut pre,
            "--ignore-file" => &mut ignore_files,
            _ => continue,
        };
        let value = match value {
            Some(value) => value,
            None => match args.next() {
                Some(next) => next.to_owned(),
                None => break,
            },
        };
        if !value.is_empty() && into.len() < MAX_RIPGREP_VALUES {
            into.push(value);
        }
    }
    (pre, ignore_files)
}

/// The files ripgrep's configuration at `config` (the file `RIPGREP_CONFIG_PATH` names; ripgrep
/// reads no other) has it run or read, absolute ones only, read as ripgrep reads it: the
/// programs of its `--pre` options and the files of its `--ignore-file` options (finding
/// F133). A program named without a folder is found on `PATH`, whose folders the engine
/// protects whole; a relative name is taken from wherever ripgrep runs, and names nothing
/// here. Nothing from a file that cannot be read (at most 256 KiB of it is).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("hooks-doc-ripgrep-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let config = dir.join("ripgreprc");
/// let text = "# mine\n--smart-case\n--pre=/opt/pre.sh\n--ignore-file\n/opt/ign\n";
/// std::fs::write(&config, text).unwrap();
/// let files = hooks_registry::ripgrep_config_files(&config);
/// let named = ["/opt/pre.sh", "/opt/ign"].map(std::path::PathBuf::from);
/// assert_eq!(files, named);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn ripgrep_config_files(config: &std::path::Path) -> Vec<std::path::PathBuf> {
    let (programs, files) = ripgrep_config_names(config);
    programs.into_iter().chain(files).filter(|p| p.is_absolute()).collect()
}

/// The programs and the files ripgrep's configuration at `config` names
/// ([`ripgrep_config_files`]), relative ones too, as written: a relative file, and a program
/// named with a folder, are taken from where ripgrep runs (F145); a program named without one
/// is found on `PATH`.
pub(crate) fn ripgrep_config_names(
    config: &std::path::Path,
) -> (Vec<std::path::PathBuf>, Vec<std::path::PathBuf>) {
    let Some(text) = crate::installations::read_capped(config, RIPGREP_CONFIG_CAP) else {
        return (Vec::new(), Vec::new());
    };
    let (pre, ignore_files) = ripgrep_config(&text);
    let paths = |v: Vec<_>| v.into_iter().map(std::path::PathBuf::from).collect();
    (paths(pre), paths(ignore_files))
}

/// How many configurations [`typescript_config_files`] reads through `extends`.
const MAX_TYPESCRIPT_CONFIGS: usize = 8;

/// The files the TypeScript configuration at `config` (the file `TSX_TSCONFIG_PATH` or
/// `TS_NODE_PROJECT` names, which tsx and ts-node take in place of the nearest
/// `tsconfig.json`) has its runner read or run, each from its configuration's folder: the
/// configurations its `extends` chain names by a path, existing or not (TypeScript's names
/// without `.json` with it too), read in turn, and the modules ts-node's `require` entries
/// name, which it runs before the script (finding F137). A package's name is left out; at
/// most eight configurations are read, 256 KiB of each; nothing from one that cannot be read.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("hooks-doc-tsconfig-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let config = dir.join("tsconfig.hooks.json");
/// let text = r#"{"extends": "./base.json", "ts-node": {"require": ["./pre.js"]}}"#;
/// std::fs::write(&config, text).unwrap();
/// let files = hooks_registry::typescript_config_files(&config);
/// assert_eq!(files, [dir.join("base.json"), dir.join("pre.js")]);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn typescript_config_files(config: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    let mut pending = vec![config.to_path_buf()];
    let mut read: Vec<std::path::PathBuf> = Vec::new();
    while let Some(config) = pending.pop() {
        if read.len() >= MAX_TYPESCRIPT_CONFIGS || read.contains(&config) {
            continue;
        }
        let Some(text) = crate::installations::read_capped(&config, TOOL_CONFIG_CAP) else {
            continue;
        };
        read.push(config.clone());
        let Some(dir) = config.parent() else { continue };
        let loads = loads("tsconfig.json", &text);
        let from_dir = |name: &str| match name.starts_with('/') {
            true => Some(std::path::PathBuf::from(name)),
            false => crate::imports::relative_target(dir, name),
        };
        for extended in loads.extends.iter().filter_map(|e| from_dir(e)) {
            if !out.contains(&extended) {
                out.push(extended.clone());
            }
            if extended.is_file() {
                pending.insert(0, extended);
            }
        }
        for required in loads.files.iter().filter_map(|f| from_dir(f)) {
            if !out.contains(&required) {
                out.push(required);
            }
        }
    }
    out
}

/// The `main` of a `package.json`'s text, as written (finding F130).
pub(crate) fn package_main(text: &str) -> Option<String> {
    let value = serde_json::from_str::<serde_json::Value>(text).ok()?;
    value.get("main")?.as_str().map(str::to_owned)
}

/// Every string of a target value (a string, a conditions object, an array of fallbacks), at
/// most [`MAX_PATH_PATTERNS`], at most four levels deep.
fn string_leaves(value: &serde_json::Value) -> Vec<String> {
    fn walk(value: &serde_json::Value, depth: usize, out: &mut Vec<String>) {
        if depth > 4 || out.len() >= MAX_PATH_PATTERNS {
            return;
        }
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, depth + 1, out)),
            serde_json::Value::Object(o) => o.values().for_each(|v| walk(v, depth + 1, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, 0, &mut out);
    out
}

fn is_path_like(entry: &str) -> bool {
    entry.starts_with("./") || entry.starts_with("../") || entry.starts_with('/')
}

/// rubocop's top-level `inherit_from` (files it reads in turn; a URL is left out) and the
/// files of its `require` and `plugins` (Ruby it loads; a gem's name is left out).
fn rubocop(text: &str, out: &mut Loads) {
    for YamlValue { key, inner, value } in yaml_top_values(text) {
        match (key.as_str(), inner) {
            ("inherit_from", None) if !value.contains("://") => push_path(&value, &mut out.extends),
            ("require" | "plugins", None) if is_path_like(&value) => {
                push_path(&value, &mut out.files)
            }
            _ => {}
        }
    }
}

/// One scalar of a YAML document's top-level mapping ([`yaml_top_values`]).
struct YamlValue {
    /// The top-level key it is under.
    key: String,
    /// The key it is the value of in a mapping below the top-level one (`path` of
    /// `plugins: [{path: x}]`), if it is in one.
    inner: Option<String>,
    value: String,
}

/// At most this many scalars are taken from one YAML document.
const MAX_YAML_VALUES: usize = 4 * MAX_NAMES;

/// The scalars of a YAML document's top-level mapping that are values (not keys), at most
/// two collections below it (`key: x`, `key: [x]`, `key: [{inner: x}]`), up to a parse error
/// or [`MAX_YAML_VALUES`].
fn yaml_top_values(text: &str) -> Vec<YamlValue> {
    use hooks_yaml::Event;
    /// A collection being read: a mapping's key waiting for its value, or a sequence.
    enum Frame {
        Mapping { key: Option<String> },
        Sequence,
    }
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    for item in hooks_yaml::Events::new(text) {
        let Ok((event, _)) = item else { break };
        match event {
            Event::MappingStart(..) => stack.push(Frame::Mapping { key: None }),
            Event::SequenceStart(..) => stack.push(Frame::Sequence),
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                // The collection was its parent mapping's value: the next scalar is a key.
                if let Some(Frame::Mapping { key }) = stack.last_mut() {
                    *key = None;
                }
            }
            Event::Scalar(value, ..) => {
                if let Some(Frame::Mapping { key: key @ None }) = stack.last_mut() {
                    *key = Some(value.into_owned());
                    continue;
                }
                let top = match stack.first() {
                    Some(Frame::Mapping { key: Some(top) }) if stack.len() <= 3 => Some(top),
                    _ => None,
                };
                let inner = match stack.last() {
                    Some(Frame::Mapping { key }) if stack.len() > 1 => key.clone(),
                    _ => None,
                };
                if let Some(top) = top.filter(|_| out.len() < MAX_YAML_VALUES) {
                    out.push(YamlValue { key: top.clone(), inner, value: value.into_owned() });
                }
                if let Some(Frame::Mapping { key }) = stack.last_mut() {
                    *key = None;
                }
            }
            _ => {}
        }
    }
    out
}

/// A program a configuration names to run scripts with (npm's `script-shell`): a file when
/// the name has a `/` (a bare name is found on `PATH`).
fn shell_path(value: &str, files: &mut Vec<String>) {
    let value = value.trim().trim_matches(['"', '\'']);
    if value.contains('/') {
        push_path(value, files);
    }
}

/// Node's options that load a file (`--require ./pre.js`, `--import=./x.mjs`; the command
/// analysis's own list, [`crate::scripts::loading_options`]), as `NODE_OPTIONS` holds them:
/// their values that are paths (a bare name is a package, found in `node_modules`).
fn node_options(value: &str, files: &mut Vec<String>) {
    let (loading, _) = crate::scripts::loading_options("node");
    let mut words = value.trim().trim_matches(['"', '\'']).split_whitespace();
    while let Some(word) = words.next() {
        let (flag, attached) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value)),
            None => (word, None),
        };
        if !loading.contains(&flag) {
            continue;
        }
        if let Some(value) = attached.or_else(|| words.next()).filter(|v| is_path_like(v)) {
            push_path(value, files);
        }
    }
}

/// The agents a JVM's options load (`-javaagent:tools/a.jar=opts`, `-agentpath:lib/a.so`),
/// Maven 3.9's `${MAVEN_PROJECTBASEDIR}` read as the project's folder.
fn java_agents(text: &str, files: &mut Vec<String>) {
    for word in text.split_whitespace() {
        let word = word.trim_matches(['"', '\'']);
        let Some(path) =
            word.strip_prefix("-javaagent:").or_else(|| word.strip_prefix("-agentpath:"))
        else {
            continue;
        };
        let path = path.split_once('=').map_or(path, |(path, _)| path);
        let path = path
            .strip_prefix("${MAVEN_PROJECTBASEDIR}/")
            .or_else(|| path.strip_prefix("$MAVEN_PROJECTBASEDIR/"))
            .unwrap_or(path);
        push_path(path, files);
    }
}

/// What cargo's configuration has it run (checked with cargo here: a `rustc-wrapper` and a
/// target's `runner` ran): `build.rustc`, `rustc-wrapper`, `rustc-workspace-wrapper` and
/// `rustdoc`, each target's `runner` and `linker` (a string, the runner's first word, or an
/// array's first string); a name with a `/` only (a bare one is found on `PATH`), relative to
/// the folder holding `.cargo/` ([`names_from_parent`]); and the packages it builds in place
/// of a dependency ([`Loads::packages`]).
fn cargo_config(text: &str, out: &mut Loads) {
    let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return };
    let program = |item: &toml_edit::Item| -> Option<String> {
        let first = match item.as_array() {
            Some(array) => array.iter().next()?.as_str()?.to_owned(),
            None => item.as_str()?.split_whitespace().next()?.to_owned(),
        };
        first.contains('/').then_some(first)
    };
    let mut found: Vec<String> = Vec::new();
    if let Some(build) = document.get("build") {
        for key in ["rustc", "rustc-wrapper", "rustc-workspace-wrapper", "rustdoc"] {
            found.extend(build.get(key).and_then(program));
        }
    }
    if let Some(targets) = document.get("target").and_then(|t| t.as_table_like()) {
        for (_, target) in targets.iter() {
            for key in ["runner", "linker"] {
                found.extend(target.get(key).and_then(program));
            }
        }
    }
    for name in found {
        push_path(&name, &mut out.files);
    }
    // The packages built in place of a dependency (F111): `[patch.<source>]`'s entries' `path`
    // and the `paths` overrides (checked with cargo here: the build script of each ran at
    // `cargo check`, from the package's subfolder too).
    let patches = document.get("patch").and_then(|p| p.as_table_like());
    for (_, source) in patches.into_iter().flat_map(|p| p.iter()) {
        for (_, entry) in source.as_table_like().into_iter().flat_map(|s| s.iter()) {
            if let Some(path) = entry.get("path").and_then(|p| p.as_str()) {
                push_path(path, &mut out.packages);
            }
        }
    }
    let paths = document.get("paths").and_then(|p| p.as_array());
    for path in paths.into_iter().flatten().filter_map(|p| p.as_str()) {
        push_path(path, &mut out.packages);
    }
}

/// `text` (JSON with its comments blanked) without the commas before a `}` or a `]`, which
/// TypeScript and biome accept; strings are left alone.
fn without_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut pending_comma: Option<usize> = None;
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                pending_comma = None;
                in_string = true;
            }
            ',' => pending_comma = Some(out.len()),
            '}' | ']' => {
                if let Some(at) = pending_comma.take() {
                    out.replace_range(at..at + 1, " ");
                }
            }
            c if c.is_whitespace() => {}
            _ => pending_comma = None,
        }
        out.push(c);
    }
    out
}

/// A mypy `plugins` entry: a file (`tools/plugin.py`, with an optional `:entry_point`) or a
/// module (`pkg.plugin`, found from the configuration's folder as `pkg/plugin.py` or
/// `pkg/plugin/__init__.py`).
fn mypy_plugin(entry: &str, files: &mut Vec<String>) {
    let entry = entry.trim();
    let entry = entry.rsplit_once(':').map_or(entry, |(path, _)| path).trim();
    if entry.is_empty() {
        return;
    }
    if entry.ends_with(".py") || entry.contains('/') {
        push_path(entry, files);
    } else if entry.split('.').all(|part| !part.is_empty() && is_identifier(part)) {
        let module = entry.replace('.', "/");
        push_path(&format!("{module}.py"), files);
        push_path(&format!("{module}/__init__.py"), files);
    }
}

/// Whether `part` is a Python identifier of ASCII letters, digits and `_`.
fn is_identifier(part: &str) -> bool {
    part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !part.starts_with(|c: char| c.is_ascii_digit())
}

fn push_path(entry: &str, into: &mut Vec<String>) {
    let entry = entry.trim().trim_matches(['"', '\'']);
    if entry.is_empty() || entry.starts_with(['~', '$']) || entry.contains('\0') {
        return;
    }
    if into.len() < MAX_NAMES && !into.iter().any(|e| e == entry) {
        into.push(entry.to_owned());
    }
}

/// The `(section, key, value)` entries of an INI file as Python's `configparser` reads them:
/// `[section]` headers, `key = value` or `key: value` (keys lowercased), indented lines
/// continuing the value before them (joined with `\n`, blank lines between allowed), `#` and
/// `;` lines ignored.
pub(crate) fn ini_values(text: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut section = String::new();
    let mut continuing = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            // Neither a blank line nor a comment ends a value (`empty_lines_in_values`).
            continue;
        }
        if line.starts_with([' ', '\t']) && continuing {
            if let Some(last) = out.last_mut() {
                last.2.push('\n');
                last.2.push_str(trimmed);
            }
            continue;
        }
        continuing = false;
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            section = name.trim().to_owned();
            continue;
        }
        let split = trimmed.find(['=', ':']);
        if let Some(at) = split {
            let (key, value) = (&trimmed[..at], &trimmed[at + 1..]);
            if out.len() < 4 * MAX_NAMES {
                out.push((section.clone(), key.trim().to_lowercase(), value.trim().to_owned()));
                continuing = true;
            }
        }
    }
    out
}
