//! Entry points for the fuzz targets (`fuzz/`): the registry's readers of untrusted text that
//! no public function reaches with the text alone. Not part of the crate's API.

/// The `path` values git follows in a git configuration file's text (its `[include]` and
/// `[includeIf "…"]` sections), as the registry reads them when it protects what a
/// configuration file includes (finding F56).
pub fn git_include_paths(text: &str) -> Vec<String> {
    crate::gitconfig::include_paths(text)
}

/// The command lines a git configuration file's text has git run, as the registry reads them
/// when it protects what those commands run (finding F60).
pub fn git_commands(text: &str) -> Vec<String> {
    crate::gitconfig::read_values(text).commands
}

/// The command lines a git hook manager's configuration text runs, read as YAML (`0`), JSON
/// with comments (`1`) or TOML (any other), as the registry reads lefthook's and pre-commit's
/// configuration when it protects what those commands run (finding F65).
pub fn hook_manager_commands(text: &str, syntax: u8) -> Vec<String> {
    use crate::hookmanagers::Syntax;
    let syntax = match syntax {
        0 => Syntax::Yaml,
        1 => Syntax::Jsonc,
        _ => Syntax::Toml,
    };
    crate::hookmanagers::config_values(text, syntax).commands
}

/// The command lines husky 4 and yorkie run from a package's configuration text: a
/// `package.json`'s (`package_json`) or a `.huskyrc`'s (finding F65).
pub fn hook_manager_package_commands(text: &str, package_json: bool) -> Vec<String> {
    crate::hookmanagers::package_commands(text, package_json)
}

/// The configuration files a hook script's text names for pre-commit or prek, as the registry reads
/// the scripts of a protected hooks folder (finding F65).
pub fn hook_script_configs(text: &str) -> Vec<String> {
    let mut found = crate::hookmanagers::Installed::default();
    crate::hookmanagers::hook_script(text, &mut found);
    found.configs
}

/// The command lines a recipe file's text runs, read as a `package.json`'s scripts (`0`), a
/// `deno.json`'s tasks (`1`), a makefile (`2`), a justfile (`3`), a `tox.toml` (`5`),
/// lint-staged's configuration file (`6`), a `package.json`'s (`7`) or a JavaScript one
/// (`8`), a `Rakefile` (`9`), a `noxfile.py` (`10`), a Hatch (`11`) or Pixi (`12`) project's
/// scripts, or a `tox.ini` (any other),
/// as the registry reads them for the targets `targets` when it protects what they run
/// (finding F72).
pub fn recipe_lines(text: &str, kind: u8, targets: &[String]) -> Vec<String> {
    use crate::recipes::Recipe;
    let kind = match kind {
        0 => Recipe::PackageScripts,
        1 => Recipe::DenoTasks,
        2 => Recipe::Make,
        3 => Recipe::Just,
        5 => Recipe::ToxToml,
        6 => Recipe::LintStaged { manifest: false },
        7 => Recipe::LintStaged { manifest: true },
        8 => Recipe::LintStagedScript,
        9 => Recipe::Rake,
        10 => Recipe::Nox,
        11 => Recipe::ProjectScripts(crate::recipes::ScriptTable::Hatch),
        12 => Recipe::ProjectScripts(crate::recipes::ScriptTable::Pixi),
        _ => Recipe::Tox,
    };
    crate::recipes::lines(text, kind, targets)
}

/// What pip reads from `text` (findings F109, F113): as a requirements file, the lines it
/// installs and the names of the files it includes; as a configuration file, the lines it
/// installs.
pub fn pip_lines(text: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (lines, nested) = crate::recipes::pip::text_lines(text);
    let nested = nested.into_iter().map(str::to_owned).collect();
    (lines, nested, crate::recipes::pip::config_lines(text))
}

/// The words cargo's configuration `text` gives the alias `name` (finding F116).
pub fn cargo_alias(text: &str, name: &str) -> Option<Vec<String>> {
    crate::recipes::cargo::alias_expansion(text, name)
}

/// The Ruby files Bundler evaluates with a `Gemfile` whose `text` is in `/p` (finding F115):
/// what `eval_gemfile` names, the gemspecs of `gemspec` and of local gems.
pub fn gemfile_evaluates(text: &str) -> Vec<std::path::PathBuf> {
    crate::recipes::gemfile::evaluates(text, std::path::Path::new("/p"))
}

/// The folders a Gradle settings script's `text` includes as builds (finding F98).
pub fn gradle_included_builds(text: &str) -> Vec<String> {
    crate::recipes::gradle_included_builds(text)
}

/// What a `Cargo.toml` `text` in `/p` names that cargo builds (finding F100): the places
/// (its build script, the workspace it names, the folders its dependencies name by `path`)
/// and how many members' patterns it has; `None` when it is not TOML.
pub fn cargo_manifest(text: &str) -> Option<(Vec<std::path::PathBuf>, usize)> {
    let r = crate::recipes::cargo::manifest_reaches(text, std::path::Path::new("/p"))?;
    let places = r.build_script.into_iter().chain(r.workspace).chain(r.dependencies).collect();
    Some((places, r.members.len()))
}

/// The tasks Turborepo runs for `targets` by the `turbo.json` `text` (finding F92).
pub fn turbo_tasks(text: &str, targets: &[String]) -> Vec<String> {
    crate::recipes::turbo_tasks(text, targets)
}

/// The folders a justfile in `/p` has its recipes run in besides its own, and whether one
/// is `[no-cd]` (finding F90).
pub fn just_working_dirs(text: &str) -> (Vec<std::path::PathBuf>, bool) {
    crate::recipes::just_working_dirs(text, std::path::Path::new("/p"))
}

/// The arguments of an ssh configuration file's `Include` lines, as the registry reads them
/// when it protects what `~/.ssh/config` includes (finding F58).
pub fn ssh_include_arguments(text: &str) -> Vec<String> {
    crate::sshconfig::include_arguments(text)
}

/// The command lines (`true`) and libraries (`false`) an ssh configuration file's text has
/// ssh run or load, as the registry reads them when it protects what they name (finding
/// F61).
pub fn ssh_runs(text: &str) -> Vec<(bool, String)> {
    crate::sshconfig::runs(text, None)
        .into_iter()
        .map(|r| match r {
            crate::sshconfig::Runs::Command(c) => (true, c),
            crate::sshconfig::Runs::Library(l) => (false, l),
        })
        .collect()
}

/// What a tool's configuration file named `PLUGIN_CONFIGS[which]` (modulo their number:
/// `pyproject.toml`, `setup.cfg`, `tox.ini`, `mypy.ini`, `.mypy.ini`, `.flake8`, `ruff.toml`,
/// `.ruff.toml`, `biome.json`, `biome.jsonc`, `.biome.json`, `.biome.jsonc`, `tsconfig.json`,
/// `jsconfig.json`, `.rubocop.yml`, `pyrightconfig.json`, `.prettierrc`, `.prettierrc.json`,
/// `.prettierrc.yaml`, `.prettierrc.yml`, `pylintrc`, `.pylintrc`, `pylintrc.toml`,
/// `.pylintrc.toml`, `.npmrc`, `.yarnrc`, `.yarnrc.yml`, `pnpm-workspace.yaml`,
/// `.cargo/config.toml`, `.cargo/config`, `.mvn/jvm.config`, `gradle.properties`,
/// `bunfig.toml`) has its tool
/// load: the files, the folders, the files it reads in turn and the modules it imports by name,
/// as the registry reads them when it protects them (findings F71, F79, F80, F84, F86, F106,
/// F129).
pub fn tool_config_loads(text: &str, which: usize) -> [Vec<String>; 4] {
    let names = crate::toolconfig::PLUGIN_CONFIGS;
    let name = names.get(which % names.len()).copied().unwrap_or("mypy.ini");
    let loads = crate::toolconfig::loads(name, text);
    [loads.files, loads.folders, loads.extends, loads.modules]
}

/// What a ripgrep configuration's text has ripgrep run and read, as written: its `--pre`
/// programs and its `--ignore-file` files (finding F133).
pub fn ripgrep_config(text: &str) -> (Vec<String>, Vec<String>) {
    crate::toolconfig::ripgrep_config(text)
}

/// An import map's patterns, each with its targets as written.
pub type ImportMapPatterns = Vec<(String, Vec<String>)>;

/// The same text as a `package.json` and as a `tsconfig.json`, read for where their import
/// maps send a script's specifiers (findings F127, F128): the manifest's `imports` and own
/// `exports`, the configuration's `paths`, and the files the same text, read as a script in
/// `/repo/tools`, imports through both maps (`paths` from `/repo`, `baseUrl` `/repo/src`).
pub fn import_maps(text: &str) -> (ImportMapPatterns, ImportMapPatterns, Vec<std::path::PathBuf>) {
    let package = crate::toolconfig::package_import_map(text);
    let typescript = crate::toolconfig::typescript_paths(text).paths.unwrap_or_default();
    let mut files = Vec::new();
    let literals = crate::imports::import_literals(text);
    for paths in [&package, &typescript] {
        let map = crate::imports::ImportMap {
            paths_base: std::path::PathBuf::from("/repo"),
            paths: paths.clone(),
            base_url: Some(std::path::PathBuf::from("/repo/src")),
        };
        files.extend(crate::imports::mapped_imports(&literals, &map).into_iter().map(|p| p.path));
    }
    (package, typescript, files)
}
