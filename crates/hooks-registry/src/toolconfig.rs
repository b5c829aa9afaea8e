//! What the configuration of linters, type checkers and formatters has them load: prettier's
//! `plugins` (finding F71); mypy's `plugins`, flake8's `[flake8:local-plugins]` `paths`,
//! ruff's `extend` (finding F79);
//! biome's and TypeScript's `extends`, rubocop's `inherit_from`, `require` and `plugins`
//! (finding F80); pyright's `extends` (finding F84); pylint's `load-plugins` (finding F86).
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
];

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
            let text = without_trailing_commas(&hooks_json::strip_comments(text));
            let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { return out };
            let extends = match value.get("extends") {
                Some(serde_json::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).collect(),
                Some(v) => v.as_str().into_iter().collect(),
                None => Vec::new(),
            };
            // A package's name (`@tsconfig/node20/tsconfig.json`, `ultracite`) is found in
            // `node_modules`; a file's is a path.
            for entry in extends.into_iter().filter(|e| is_path_like(e)) {
                push_path(entry, &mut out.extends);
                // TypeScript tries the name with `.json` added when it has no extension.
                if typescript && !entry.ends_with(".json") {
                    push_path(&format!("{entry}.json"), &mut out.extends);
                }
            }
        }
        ".rubocop.yml" => rubocop(text, &mut out),
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
fn is_path_like(entry: &str) -> bool {
    entry.starts_with("./") || entry.starts_with("../") || entry.starts_with('/')
}

/// rubocop's top-level `inherit_from` (files it reads in turn; a URL is left out) and the
/// files of its `require` and `plugins` (Ruby it loads; a gem's name is left out).
fn rubocop(text: &str, out: &mut Loads) {
    use hooks_yaml::Event;
    // The top-level key being read, and the depth of collections below the document's
    // mapping (0: the value is a scalar of the top level, 1: in its list).
    let mut depth = 0usize;
    let mut key: Option<String> = None;
    let mut expect_key = false;
    for item in hooks_yaml::Events::new(text) {
        let Ok((event, _)) = item else { break };
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                depth += 1;
                if depth == 1 {
                    expect_key = true;
                } else if depth == 2 && !matches!(event, Event::SequenceStart(..)) {
                    key = None;
                }
            }
            Event::MappingEnd | Event::SequenceEnd => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    key = None;
                    expect_key = true;
                }
            }
            Event::Scalar(value, ..) => {
                if depth == 1 && expect_key {
                    key = Some(value.into_owned());
                    expect_key = false;
                    continue;
                }
                if depth <= 2 {
                    match key.as_deref() {
                        Some("inherit_from") if !value.contains("://") => {
                            push_path(&value, &mut out.extends)
                        }
                        Some("require" | "plugins") if is_path_like(&value) => {
                            push_path(&value, &mut out.files)
                        }
                        _ => {}
                    }
                }
                if depth == 1 {
                    key = None;
                    expect_key = true;
                }
            }
            _ => {}
        }
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
fn ini_values(text: &str) -> Vec<(String, String, String)> {
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
