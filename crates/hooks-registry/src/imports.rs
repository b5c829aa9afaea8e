//! The local modules a Python, JavaScript, Ruby or Perl hook script imports, read from its
//! text: the files the guard protects with the script (finding F31, `specs/guard.md`; Ruby's
//! and Perl's in [`ruby`] and [`perl`], findings F142 and F143).
//!
//! Python puts the script's own folder first on its module search path, so `import helpers`
//! in `scripts/gate.py` loads `scripts/helpers.py` (or the package `scripts/helpers/`), and a
//! file created there under a standard module's name (`scripts/json.py`) shadows that module:
//! every top-level module an import names is protected in the script's folder, existing or
//! not. JavaScript resolves relative specifiers (`./lib.mjs`, `../shared/policy`) against the
//! importing file's folder; a bare specifier (`shell-quote`, `@scope/pkg/sub`) names a package
//! Node looks for in `node_modules/` of the script's folder and of each folder above it, the
//! first found winning: that package folder is protected whole in each of them, existing or
//! not (one placed nearer would shadow the one in use), unless Node's own module of that name
//! always wins (`fs`, `node:fs`); so is it in CommonJS's global folders of the home
//! (`~/.node_modules/`, `~/.node_libraries/`), where `require` looks last. What the package
//! itself imports is not followed.
//! The scan is textual and line-based: an import in a string or a comment is taken as one
//! (protect more, never less); an import built at run time (`importlib.import_module(x)`,
//! `require(name)`) is not seen.

use std::path::{Component, Path, PathBuf};

use crate::scripts::{NamedPath, PathBase, PathRole};

mod perl;
mod ruby;

pub(crate) use ruby::sets_up_bundler;
#[cfg(test)]
mod tests;

/// The language of a hook script whose imports are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// Python: modules from the script's own folder.
    Python,
    /// JavaScript or TypeScript: relative specifiers.
    JavaScript,
    /// Ruby: `require_relative`, and `require` through the load path it sets.
    Ruby,
    /// Perl: `use` and `require` through the `@INC` it sets, `do` of a file.
    Perl,
}

impl Language {
    /// The language of a file by its `#!` program (`python3`, `/usr/bin/env node`), else by
    /// its extension.
    pub fn of(interpreter: Option<&str>, path: &Path) -> Option<Language> {
        if let Some(program) = interpreter {
            let name = crate::scripts::basename(program);
            if name.starts_with("python") || name == "uv" {
                return Some(Language::Python);
            }
            if matches!(name, "node" | "deno" | "bun" | "tsx" | "ts-node") {
                return Some(Language::JavaScript);
            }
            if name.starts_with("ruby") {
                return Some(Language::Ruby);
            }
            if name.starts_with("perl") {
                return Some(Language::Perl);
            }
            return None;
        }
        match path.extension()?.to_str()? {
            "py" => Some(Language::Python),
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Some(Language::JavaScript),
            "rb" => Some(Language::Ruby),
            "pl" | "pm" => Some(Language::Perl),
            _ => None,
        }
    }
}

/// The files `text` (a script of `language` in `script_dir`) imports from its own folder or
/// relative to itself, as [`PathRole::Sourced`] files (a module), [`PathRole::Tree`] folders
/// (a Python package) and [`PathRole::Compiled`] module names (a Python module's compiled and
/// extension forms), each an absolute path from [`PathBase::Root`], or for a Python module
/// found in a folder the script adds to its search path relative to where it runs (`sys.path
/// .insert(0, "tools")`), a path relative to [`PathBase::RunDir`].
///
/// ```
/// use std::path::Path;
/// use hooks_registry::{ImportLanguage, local_imports};
///
/// let found = local_imports(ImportLanguage::Python, "from helpers import deny\n", Path::new("/r/s"));
/// assert!(found.iter().any(|p| p.path == Path::new("/r/s/helpers.py")));
/// ```
pub fn local_imports(language: Language, text: &str, script_dir: &Path) -> Vec<NamedPath> {
    local_imports_from(language, text, script_dir, script_dir, &[])
}

/// [`local_imports`] of a Python module Python found from `first_dir`, the folder first on
/// its module search path, which is not the module's own folder for the module `python -m`
/// runs (the folder Python runs in: `python -m tools.gate` imports `policy` from there,
/// finding F117); relative imports (`from . import x`) stay in `script_dir`. A Python
/// module's absolute imports are looked for in `searched` too, the folders its environment
/// adds to the search path (a relative `PYTHONPATH` entry from the run folder, finding F140),
/// after `first_dir` and before those its own text adds; a JavaScript file's packages in them
/// too (`NODE_PATH`'s, finding F141).
pub(crate) fn local_imports_from(
    language: Language,
    text: &str,
    script_dir: &Path,
    first_dir: &Path,
    searched: &[(PathBase, PathBuf)],
) -> Vec<NamedPath> {
    let mut out = Vec::new();
    match language {
        Language::Python => {
            // The folders the script adds to its search path from its own place (F132).
            let added = python_path_additions(text, script_dir);
            for PythonImport { module, relative } in python_modules(text) {
                let first = module.split('.').next().unwrap_or_default();
                if !is_identifier(first) {
                    continue;
                }
                let root = |dir: &Path| (PathBase::Root, dir.to_path_buf());
                let dirs: Vec<(PathBase, PathBuf)> = match relative {
                    true => vec![root(script_dir)],
                    false => (std::iter::once(root(first_dir)))
                        .chain(searched.iter().cloned())
                        .chain(added.iter().cloned())
                        .collect(),
                };
                for (base, dir) in dirs {
                    out.push(NamedPath {
                        base: base.clone(),
                        path: dir.join(format!("{first}.py")),
                        role: PathRole::Sourced,
                    });
                    out.push(NamedPath {
                        base: base.clone(),
                        path: dir.join(first),
                        role: PathRole::Tree,
                    });
                    // Its compiled and extension forms beside it, which Python takes before
                    // the source or in its place (`helper.so`,
                    // `__pycache__/helper.cpython-313.pyc`: finding F118).
                    out.push(NamedPath { base, path: dir.join(first), role: PathRole::Compiled });
                }
            }
        }
        Language::JavaScript => {
            for package in javascript_packages(text) {
                for folder in script_dir.ancestors().take(MAX_PACKAGE_FOLDERS) {
                    out.push(NamedPath {
                        base: PathBase::Root,
                        path: folder.join("node_modules").join(&package),
                        role: PathRole::Tree,
                    });
                }
                // CommonJS's global folders, where `require` looks when no `node_modules/`
                // above the script has the package.
                for global in [".node_modules", ".node_libraries"] {
                    out.push(NamedPath {
                        base: PathBase::Home,
                        path: Path::new(global).join(&package),
                        role: PathRole::Tree,
                    });
                }
                // The folders of the environment's `NODE_PATH`, where `require` looks after
                // them (a relative one from where Node starts, finding F141): the package as
                // a folder and as the files `require` tries for its name.
                for (base, dir) in searched {
                    let mut files = Vec::new();
                    module_files(dir.join(&package), &mut files);
                    files.push(NamedPath {
                        base: PathBase::Root,
                        path: dir.join(&package),
                        role: PathRole::Tree,
                    });
                    out.extend(files.into_iter().map(|f| NamedPath { base: base.clone(), ..f }));
                }
            }
            for specifier in javascript_specifiers(text) {
                let Some(target) = relative_target(script_dir, &specifier) else { continue };
                module_files(target, &mut out);
            }
        }
        Language::Ruby => out = ruby::imports(text, script_dir, searched),
        Language::Perl => out = perl::imports(text, script_dir, searched),
    }
    out.sort();
    out.dedup();
    out
}

/// The files Node (or a TypeScript runner) may load for the module path `target`: the file,
/// and for a name without an extension the name with each extension `require` tries (`.js`,
/// `.json`, then `.node`, a native addon loaded in place of a package folder of the same
/// name: finding F124, and the TypeScript runners' `.ts`, `.mts`, `.cts`, `.tsx`), before the
/// folder:
/// its `package.json`'s `main`, then its `index`.
fn module_files(target: PathBuf, out: &mut Vec<NamedPath>) {
    let has_extension = target.extension().is_some();
    out.push(file(target.clone()));
    if has_extension {
        return;
    }
    for ext in ["js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "json", "node"] {
        let mut with = target.clone().into_os_string();
        with.push(format!(".{ext}"));
        out.push(file(PathBuf::from(with)));
    }
    for index in [
        "package.json",
        "index.js",
        "index.mjs",
        "index.cjs",
        "index.ts",
        "index.tsx",
        "index.json",
        "index.node",
    ] {
        out.push(file(target.join(index)));
    }
}

/// The files Node may load for a folder a relative `require` names whose `package.json`
/// (`manifest`) says `"main": main` (finding F130): the file `main` names from the folder,
/// with the names [`module_files`] tries (`impl` for `impl.js`, `./dist/` for
/// `dist/index.js`); nothing for an absolute `main`.
pub(crate) fn package_main_files(manifest: &Path, main: &str) -> Vec<NamedPath> {
    let mut out = Vec::new();
    let Some(folder) = manifest.parent() else { return out };
    let main = main.trim_end_matches('/');
    if main.is_empty() || main == "." {
        return out;
    }
    if let Some(target) = relative_target(folder, main) {
        module_files(target, &mut out);
    }
    out
}

/// At most about this many files are named through import maps for one script (a crafted map
/// and script could otherwise name millions: patterns × targets × imports).
const MAX_MAPPED_FILES: usize = 1024;

/// An import map: where a runner finds a script's bare specifiers besides `node_modules/`,
/// from a `tsconfig.json`'s `paths` and `baseUrl` (finding F127), a `package.json`'s `imports`
/// and own `exports` (F128) or a Deno configuration's import map (F131): the folder the
/// targets are relative to, the patterns (at most one `*` each) with their targets, and
/// `baseUrl`'s folder, under which any bare specifier is looked for too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ImportMap {
    pub(crate) paths_base: PathBuf,
    pub(crate) paths: Vec<(String, Vec<String>)>,
    pub(crate) base_url: Option<PathBuf>,
}

/// The files a JavaScript or TypeScript script whose import literals are `literals`
/// ([`import_literals`], read once per script) loads through `map` for its specifiers
/// (`@/lib/policy` with `"@/*": ["./src/*"]`: `src/lib/policy.ts` and the other names
/// [`module_files`] tries), as [`PathRole::Sourced`] files from [`PathBase::Root`]: every
/// pattern that matches counts, not only the one TypeScript would pick (protect more).
pub(crate) fn mapped_imports(literals: &[String], map: &ImportMap) -> Vec<NamedPath> {
    let mut out = Vec::new();
    for literal in literals {
        if out.len() >= MAX_MAPPED_FILES {
            break;
        }
        if literal.starts_with('.') || literal.starts_with('/') || literal.contains(':') {
            continue;
        }
        for (pattern, targets) in &map.paths {
            let captured = match pattern.split_once('*') {
                Some((prefix, suffix)) => literal
                    .strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix(suffix))
                    .filter(|_| literal.len() >= prefix.len() + suffix.len()),
                None => (literal == pattern).then_some(""),
            };
            let Some(captured) = captured else { continue };
            for target in targets {
                if out.len() >= MAX_MAPPED_FILES {
                    break;
                }
                let target = target.replacen('*', captured, 1);
                if let Some(path) = relative_target(&map.paths_base, &target) {
                    module_files(path, &mut out);
                }
            }
        }
        if let Some(base) = &map.base_url
            && let Some(path) = relative_target(base, literal)
        {
            module_files(path, &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// At most this many folders a script adds to its module search path are followed.
const MAX_ADDED_PATHS: usize = 16;

/// The folders a Python script's text adds to its module search path, each absolute
/// ([`PathBase::Root`]) or relative to the folder the script runs in ([`PathBase::RunDir`]),
/// on a line that changes `sys.path` (`insert`, `append`, `extend`, `[0:0] =`, `+=`) or calls
/// `site.addsitedir`:
///
/// - relative to its own file (finding F132; checked with CPython 3.11: `sys.path.insert(0,
///   os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))` then `import policy`
///   ran `lib/policy.py` beside the script, and `sys.path.append(str(Path(__file__).parent
///   .parent / "shared"))` a module of `../shared`): from `__file__`'s folder up as many
///   folders as the line climbs (`.parent` or `dirname(` beyond the first, `.parents[N]`),
///   then the line's string literals in order (`".."` climbs too);
/// - a line that names an absolute literal names that folder;
/// - relative to where Python runs (finding F136; checked with CPython 3.11: a gate run from
///   the project's root that does `sys.path.insert(0, "tools")`, or `sys.path.append(
///   os.getcwd())`, then imports `policy` ran `tools/policy.py`, or `policy.py` of the root,
///   Python resolving a relative entry against the current folder at each import): a line
///   without `__file__` whose literals are relative (`"tools"`, `"."`, `""`), or that names
///   the current folder (`os.getcwd()`, `Path.cwd()`), adds the run folder joined with its
///   literals; its literals joined to the script's own folder too, for the folder a name on
///   the line holds (`os.path.join(HERE, "lib")` with `HERE` the script's folder, the
///   common spelling).
///
/// A path built elsewhere with no literal on the line (`sys.path.insert(0, LIB)`) is not
/// seen.
pub(crate) fn python_path_additions(text: &str, script_dir: &Path) -> Vec<(PathBase, PathBuf)> {
    let mut out: Vec<(PathBase, PathBuf)> = Vec::new();
    let mut add = |base: PathBase, dir: PathBuf| add_folder(&mut out, (base, dir));
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default();
        let changes = (line.contains("sys.path")
            && ["insert(", "append(", "extend(", "[0:0]", "+="].iter().any(|m| line.contains(m)))
            || line.contains("addsitedir(");
        if !changes {
            continue;
        }
        let literals = python_string_literals(line);
        let climbed = |start: PathBuf| {
            let mut dir = start;
            for literal in &literals {
                match relative_target(&dir, literal) {
                    Some(next) => dir = next,
                    None if literal.starts_with('/') => dir = PathBuf::from(literal),
                    None => {}
                }
            }
            dir
        };
        match literals.first() {
            Some(first) if first.starts_with('/') => {
                let dir = climbed(PathBuf::new());
                if dir.is_absolute() {
                    add(PathBase::Root, dir);
                }
            }
            _ if line.contains("__file__") => {
                let parents = line.matches(".parent").count() - line.matches(".parents").count();
                let indexed: usize = line
                    .split(".parents[")
                    .skip(1)
                    .filter_map(|rest| rest.split(']').next()?.trim().parse::<usize>().ok())
                    .map(|n| n + 1)
                    .sum();
                let ups = (parents + line.matches("dirname(").count() + indexed).saturating_sub(1);
                let mut dir = script_dir.to_path_buf();
                for _ in 0..ups {
                    dir.pop();
                }
                let dir = climbed(dir);
                if dir.is_absolute() {
                    add(PathBase::Root, dir);
                }
            }
            _ => {
                let current = line.contains("getcwd(")
                    || line.contains(".cwd(")
                    || line.contains("\"\"")
                    || line.contains("''");
                if literals.is_empty() && !current {
                    continue;
                }
                // From the run folder, its literals joined as written (a leading `..` is
                // resolved where the run folder is known).
                let from_run: PathBuf = literals.iter().collect();
                match from_run.is_absolute() {
                    true => add(PathBase::Root, from_run),
                    false => add(PathBase::RunDir, from_run),
                }
                if !literals.is_empty() {
                    let beside = climbed(script_dir.to_path_buf());
                    if beside.is_absolute() {
                        add(PathBase::Root, beside);
                    }
                }
            }
        }
    }
    out
}

/// Adds `folder` to the folders a script adds to its module search path, once, at most
/// [`MAX_ADDED_PATHS`] of them.
fn add_folder(folders: &mut Vec<(PathBase, PathBuf)>, folder: (PathBase, PathBuf)) {
    if !folders.contains(&folder) && folders.len() < MAX_ADDED_PATHS {
        folders.push(folder);
    }
}

/// The non-empty string literals of a line of Python (`'…'` or `"…"`, a backslash escaping the
/// next character; prefixes such as `r` and `f` are left before the quote).
fn python_string_literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '"' && c != '\'' {
            continue;
        }
        let mut literal = String::new();
        let mut escaped = false;
        for d in chars.by_ref() {
            match (escaped, d) {
                (true, _) => {
                    literal.push(d);
                    escaped = false;
                }
                (false, '\\') => escaped = true,
                (false, q) if q == c => break,
                (false, _) => literal.push(d),
            }
        }
        if !literal.is_empty() {
            out.push(literal);
        }
    }
    out
}

fn file(path: PathBuf) -> NamedPath {
    NamedPath { base: PathBase::Root, path, role: PathRole::Sourced }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// A module a Python text imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PythonImport {
    /// The module as written (`a.b` of `import a.b`), or for a relative import the module in
    /// the importing file's own folder it names (`x` of `from .x import y`).
    pub(crate) module: String,
    /// Whether it is a relative import (`from .x import y`, `from . import y`).
    pub(crate) relative: bool,
}

/// The modules a Python text imports absolutely (`import a.b as c, d`, `from a.b import c`),
/// and, for a relative import (`from .x import y`, `from . import y`), the module in the
/// script's own folder it names (`x`, `y`).
pub(crate) fn python_modules(text: &str) -> Vec<PythonImport> {
    let absolute = |module: &str| PythonImport { module: module.to_owned(), relative: false };
    let relative = |module: &str| PythonImport { module: module.to_owned(), relative: true };
    let mut out = Vec::new();
    for line in text.lines() {
        // Statements after `;` on one line count too.
        for statement in line.split(';') {
            let statement = statement.trim();
            if let Some(rest) = statement.strip_prefix("import ") {
                for part in rest.split(',') {
                    let name = part.split_whitespace().next().unwrap_or_default();
                    out.push(absolute(name.trim_matches(|c| c == '(' || c == ')')));
                }
            } else if let Some(rest) = statement.strip_prefix("from ") {
                let mut words = rest.split_whitespace();
                let Some(module) = words.next() else { continue };
                if words.next() != Some("import") {
                    continue;
                }
                match module.strip_prefix('.') {
                    // `from .x import y`: `x` beside the script (a package's relative import
                    // run as a script fails; protected all the same).
                    Some(rel) if !rel.is_empty() && !rel.starts_with('.') => {
                        out.push(relative(rel));
                    }
                    // `from . import y, z`: the modules `y` and `z` beside it.
                    Some("") => {
                        for part in words.collect::<Vec<_>>().join(" ").split(',') {
                            let name = part.split_whitespace().next().unwrap_or_default();
                            out.push(relative(name.trim_matches(|c| c == '(' || c == ')')));
                        }
                    }
                    Some(_) => {}
                    None => out.push(absolute(module)),
                }
            }
        }
    }
    out
}

/// How many folders, from the script's own up, a package a script imports is protected in.
const MAX_PACKAGE_FOLDERS: usize = 32;

/// Node's own modules, which `require` and `import` give before any `node_modules/` package
/// of the same name.
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// The packages a JavaScript text imports or requires by a bare specifier, each as the folder
/// it is in under `node_modules/` (`lodash` for `lodash/fp`, `@scope/pkg` for
/// `@scope/pkg/sub`); Node's own modules, URLs, absolute and relative specifiers are not
/// packages.
fn javascript_packages(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for literal in import_literals(text) {
        if literal.starts_with('.') || literal.starts_with('/') || literal.contains(':') {
            continue;
        }
        let mut parts = literal.split('/');
        let first = parts.next().unwrap_or_default();
        let name = match first.strip_prefix('@') {
            Some(scope) if !scope.is_empty() => match parts.next() {
                Some(pkg) if !pkg.is_empty() => format!("{first}/{pkg}"),
                _ => continue,
            },
            Some(_) => continue,
            None => first.to_owned(),
        };
        let plain = |n: &str| {
            n.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
                && n.chars().all(|c| c.is_ascii_alphanumeric() || "-_.@/~".contains(c))
        };
        if plain(&name) && !NODE_BUILTINS.contains(&name.as_str()) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The string literals a JavaScript text imports or requires that start with `./` or `../`:
/// `import x from './a.mjs'`, `import './a.js'`, `export * from "../b"`, `require('./c')`,
/// `import('./d.js')`.
fn javascript_specifiers(text: &str) -> Vec<String> {
    import_literals(text)
        .into_iter()
        .filter(|l| l.starts_with("./") || l.starts_with("../"))
        .collect()
}

/// Every string literal a JavaScript text imports, requires or re-exports from
/// ([`is_import_context`]).
pub(crate) fn import_literals(text: &str) -> Vec<String> {
    (string_literals(text).into_iter())
        .filter(|(at, _)| is_import_context(text.get(..*at).unwrap_or_default()))
        .map(|(_, literal)| literal.to_owned())
        .collect()
}

/// Every non-empty one-line string literal of a JavaScript text (`'…'`, `"…"`, `` `…` ``),
/// with the offset of its opening quote. A backslash escapes the byte after it; a template
/// literal's `${…}` is part of it, whatever quotes, braces in pairs or nested templates it
/// holds (`` `sh x.sh ${files.map((f) => `'${f}'`).join(' ')}` ``). A literal ends at its
/// quote, or at the end of its line when it has none.
pub(crate) fn string_literals(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i];
        if quote == b'\'' || quote == b'"' || quote == b'`' {
            let start = i + 1;
            let mut j = start;
            // Braces open in a template literal's substitutions.
            let mut depth = 0usize;
            let end = loop {
                let Some(&b) = bytes.get(j) else { break None };
                match b {
                    b'\\' => j += 1,
                    b'$' if quote == b'`' && bytes.get(j + 1) == Some(&b'{') => {
                        depth += 1;
                        j += 1;
                    }
                    b'{' if depth > 0 => depth += 1,
                    b'}' if depth > 0 => depth -= 1,
                    _ if depth > 0 => {}
                    b'\n' => break Some(j),
                    b if b == quote => break Some(j),
                    _ => {}
                }
                j += 1;
            };
            let Some(end) = end else { break };
            if let Some(literal) = text.get(start..end).filter(|l| !l.is_empty()) {
                out.push((i, literal));
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The files a configuration of a Node.js tool names by a relative path, in any string or
/// value, not only an import (findings F85, F87): `plugins: ["./tools/plugin.js"]` of a
/// `prettier.config.js` or a `.stylelintrc.json`, `customRules` of a
/// `.markdownlint-cli2.jsonc`, `import` of a `cspell.json`, `extends` of a `.commitlintrc.yml`,
/// each of which the tool loads. Each word of the text (split at white space, quotes, commas,
/// brackets, braces, parentheses, `;` and `=`, so a JSON string, a YAML scalar and a
/// JavaScript literal alike) that starts with `./` or `../`, is no pattern (`./src/**/*.js`)
/// and ends with a JavaScript extension ([`ConfigurationFile::Code`]) or a JSON or YAML one
/// ([`ConfigurationFile::Data`]), joined to `dir` (the configuration's folder).
///
/// ```
/// use std::path::Path;
/// use hooks_registry::{ConfigurationFile, configuration_paths};
///
/// let text = "export default { plugins: ['./tools/p.mjs'], ignores: ['./dist'] };";
/// let found = configuration_paths(text, Path::new("/r"));
/// assert_eq!(found, [(Path::new("/r/tools/p.mjs").to_path_buf(), ConfigurationFile::Code)]);
/// ```
pub fn configuration_paths(text: &str, dir: &Path) -> Vec<(PathBuf, ConfigurationFile)> {
    let mut out: Vec<(PathBuf, ConfigurationFile)> = (text
        .split(|c: char| c.is_whitespace() || "\"'`,[]{}();=".contains(c)))
    .filter(|w| w.starts_with("./") || w.starts_with("../"))
    .filter(|w| !w.contains(['*', '?']))
    .filter_map(|w| Some((w, ConfigurationFile::of(w)?)))
    .filter_map(|(w, kind)| Some((relative_target(dir, w)?, kind)))
    .collect();
    out.sort();
    out.dedup();
    out
}

/// What a file a Node.js tool's configuration names is, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ConfigurationFile {
    /// JavaScript or TypeScript the tool runs (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`, `.cts`):
    /// read for what it imports.
    Code,
    /// Configuration it reads (`.json`, `.jsonc`, `.json5`, `.yaml`, `.yml`): read for the
    /// files it names.
    Data,
}

impl ConfigurationFile {
    /// The kind of the file `name` by its extension; `None` for other files.
    pub fn of(name: &str) -> Option<ConfigurationFile> {
        if crate::scripts::is_javascript_file(name) {
            return Some(ConfigurationFile::Code);
        }
        let extension = Path::new(name).extension()?.to_str()?;
        matches!(extension, "json" | "jsonc" | "json5" | "yaml" | "yml")
            .then_some(ConfigurationFile::Data)
    }
}

/// Whether the text before a string literal ends as an import would: `from`, `import`,
/// `require(`, `import(`, `export … from`.
pub(crate) fn is_import_context(before: &str) -> bool {
    let trimmed = before.trim_end();
    trimmed.ends_with("from")
        || trimmed.ends_with("import")
        || trimmed.ends_with("require(")
        || trimmed.ends_with("import(")
}

/// `script_dir` joined with a relative specifier, `.` and `..` resolved lexically; `None` for
/// an absolute one.
pub(crate) fn relative_target(script_dir: &Path, specifier: &str) -> Option<PathBuf> {
    let mut out = script_dir.to_path_buf();
    for c in Path::new(specifier).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}
