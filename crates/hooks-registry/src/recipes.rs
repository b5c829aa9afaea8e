//! What a task runner's recipe file or a package manager's manifest has it run (finding F72).
//!
//! A hook that runs `npm run lint`, `make check`, `just check`, `task lint` or `pre-commit run`
//! runs the command lines its recipe file holds: the file is protected as what the hook loads
//! (F15), and these readers give the lines, which the registry analyses as the hook's own
//! lines run from the file's folder (F60's `protect_commands`), so a script a recipe runs
//! (`"lint": "sh tools/lint.sh"`) is protected as one the hook's line names would be. Only
//! what the line's targets run is read where the file says which lines belong to which target
//! (a manifest's scripts, with their `pre` and `post` scripts; a makefile's or a justfile's
//! recipes, with the recipes they depend on; the default one when the line names none): a
//! manifest's other scripts name the project's own code (`"start": "node src/server.js"`),
//! which the agent is there to edit. The other kinds are read whole.
//!
//! A makefile runs more than its targets' recipes (finding F73): make reads the files it
//! `include`s as part of it (and remakes them, and the makefile itself, by their rules), runs
//! every `$(shell …)` and `!=` of its text while it reads it whatever the targets, runs each
//! recipe line with the program its `SHELL` names, makes a target no rule names by a pattern
//! rule or `.DEFAULT`, and expands its variables in the recipe lines (`$(LINT) src`).
//!
//! A justfile likewise (finding F74): just evaluates every backtick and `shell(…)` of its
//! assignments at each run, whatever the recipe, through the program its `set shell` names,
//! reads the files it `import`s and the modules it declares (`mod name`: their assignments
//! evaluated too, from their own folder), loads `.env` with `set dotenv-load`, and
//! interpolates its variables in the recipe lines (`{{LINT}} src`).

use std::path::{Path, PathBuf};

pub(crate) mod cargo;
mod code;
pub(crate) mod gemfile;
pub(crate) mod pip;

/// At most this many command lines are taken from one file.
const MAX_LINES: usize = 256;

/// The target of a `Cargo.toml`'s reading that names the package `cargo run -p NAME` builds and
/// runs (`package:NAME`; finding F116).
pub(crate) const CARGO_PACKAGE_TARGET: &str = "package:";

/// At most this many bytes of a recipe file are read.
const RECIPE_CAP: u64 = 256 * 1024;

/// The kinds of recipe files, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recipe {
    /// `package.json`: its `scripts` (npm, pnpm, yarn, bun; `deno task` too).
    PackageScripts,
    /// `deno.json`, `deno.jsonc`: its `tasks`, a command line or `{"command": …}` each.
    DenoTasks,
    /// A makefile: its recipe lines (those that start with a tab).
    Make,
    /// A justfile: its recipes' body lines (those that start with a blank).
    Just,
    /// `tox.ini` (and `setup.cfg`, which tox reads as INI): its environments' `commands`,
    /// `commands_pre` and `commands_post`, one per line.
    Tox,
    /// `tox.toml`, or `pyproject.toml`'s `[tool.tox]` (finding F76): the same keys, each
    /// command a list of arguments; a `legacy_tox_ini` string read as a `tox.ini`.
    ToxToml,
    /// A configuration the hook managers' reader reads ([`crate::hookmanagers::read_config`]):
    /// pre-commit's and prek's (`entry` with its `args`), lefthook's (`run`), a Taskfile
    /// (`cmds`, `cmd`).
    Manager,
    /// lint-staged's configuration (finding F83): an object whose values are the commands it
    /// runs on the staged files a glob matches, one command or a list; in JSON or YAML
    /// (`.lintstagedrc`, `.lintstagedrc.json`, `.yaml`, `.yml`), or under the `lint-staged`
    /// key of a `package.json` (`manifest`).
    LintStaged {
        /// A `package.json`, whose `lint-staged` object is the configuration.
        manifest: bool,
    },
    /// Turborepo's `turbo.json` (finding F92): the tasks it runs for the names the line gives,
    /// with those their `dependsOn` names, each a script of the workspaces' packages'
    /// manifests ([`RecipeRead::scripts`]).
    Turbo,
    /// Nx's `nx.json` (finding F93): the targets it runs for the names the line gives, with
    /// those `targetDefaults` make them depend on; each the command of a `project.json`'s
    /// `nx:run-commands` target or a script of the workspaces' packages' manifests.
    Nx,
    /// lint-staged's configuration in JavaScript (`lint-staged.config.mjs`, `.lintstagedrc.js`;
    /// finding F88): code, which the guard protects as F85 reads it, whose object's values
    /// (a command, a list of them, or a function returning them) are the commands it runs.
    LintStagedScript,
    /// rake's `Rakefile` (finding F95): Ruby, which loads `rakelib/*.rake` and the files it
    /// requires, loads or imports, and whose tasks run the command lines of its strings, from
    /// its folder ([`code`]).
    Rake,
    /// invoke's `tasks.py` or `tasks/__init__.py` (finding F95): Python, which imports the
    /// modules beside it and runs the lines of its `c.run(…)` calls where invoke was started;
    /// invoke's project configuration beside it (`invoke.yaml`, `invoke.py`) is loaded too.
    Invoke,
    /// nox's `noxfile.py` (finding F95): Python, whose sessions run the arguments of their
    /// `session.run(…)` calls from its folder.
    Nox,
    /// Fabric's `fabfile.py` or `fabfile/__init__.py` (finding F101): invoke's tasks under
    /// another name, with Fabric's project configuration beside it (`fabric.yaml`,
    /// `fabric.py`).
    Fabric,
    /// doit's `dodo.py` (finding F101): Python, whose tasks' actions (command strings,
    /// argument lists) run from its folder.
    Doit,
    /// Gradle's `settings.gradle` or `settings.gradle.kts` (finding F98): the builds its
    /// `includeBuild` lines include, whose build logic Gradle runs (their settings and build
    /// scripts, `buildSrc/`, the plugins they build), each protected whole and its settings
    /// read in turn.
    GradleSettings,
    /// The scripts or tasks a Python project manager or task runner runs by name from its
    /// TOML file (finding F99): PDM's `[tool.pdm.scripts]`, poe's `[tool.poe.tasks]`, Hatch's
    /// environments' `scripts`, Rye's `[tool.rye.scripts]`, Pixi's `[tasks]`.
    ProjectScripts(ScriptTable),
    /// A Python project's `pyproject.toml` read for the code its build backend runs when a
    /// project manager installs the project (finding F105): `setup.py`, Hatch's and PDM's
    /// build hooks, Poetry's build script, the in-tree backend, CMake's and Meson's files
    /// ([`python_build`]).
    PythonBuild,
    /// cargo's `Cargo.toml` (finding F100): the build scripts of the packages it reaches
    /// through its workspace's members, its path dependencies and patches, and the workspace
    /// it belongs to ([`cargo`]).
    Cargo,
    /// A pip requirements or constraints file (finding F109): the local projects its lines
    /// have pip build, as pip's own lines, and the files its `-r` and `-c` lines include
    /// ([`pip`]).
    PipRequirements,
    /// A pip configuration file (finding F113): the requirements, constraints, editable
    /// projects and local `find-links` folders its `[global]` and `[install]` sections give,
    /// as pip's own lines ([`pip::config_lines`]), read from where pip runs.
    PipConfig,
    /// Bundler's `Gemfile` (or `gems.rb`, or the file `--gemfile` names; finding F115): Ruby,
    /// which Bundler evaluates at every `bundle exec`, with the files its `eval_gemfile` lines
    /// name and the gemspecs of the project and of its local gems ([`gemfile`]).
    Gemfile,
    /// cargo's configuration read for the alias a line's subcommand is (finding F116): the
    /// line cargo runs for it ([`cargo::alias_lines`]).
    CargoAlias,
}

/// Whose scripts a [`Recipe::ProjectScripts`] file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScriptTable {
    Pdm,
    Poe,
    Hatch,
    Rye,
    Pixi,
}

impl Recipe {
    /// How `program` reads the recipe file at `path`: as its own kind whatever the file's name
    /// for the task runners (`make -f ci/Makefile.ci`, `task -t ci.yml`, `pre-commit -c
    /// ci.yaml`; tox's only when it is an INI file), by the file's name otherwise.
    pub(crate) fn read_by(program: &str, path: &Path) -> Option<Recipe> {
        let ini = path.extension().is_some_and(|e| e == "ini");
        match program {
            "make" | "gmake" => Some(Recipe::Make),
            "just" => Some(Recipe::Just),
            "task" | "go-task" | "pre-commit" | "prek" | "lefthook" => Some(Recipe::Manager),
            // The scripts of Python projects' managers, by name (F99).
            "pdm" | "poe" | "hatch" | "rye" | "pixi" => {
                let name = path.file_name()?.to_str()?;
                let table = match program {
                    "pdm" => ScriptTable::Pdm,
                    "poe" => ScriptTable::Poe,
                    "hatch" => ScriptTable::Hatch,
                    "rye" => ScriptTable::Rye,
                    _ => ScriptTable::Pixi,
                };
                name.ends_with(".toml").then_some(Recipe::ProjectScripts(table))
            }
            "cargo" if path.file_name().is_some_and(|n| n == "Cargo.toml") => Some(Recipe::Cargo),
            crate::scripts::PYTHON_BUILD_READER
                if path.file_name().is_some_and(|n| n == "pyproject.toml") =>
            {
                Some(Recipe::PythonBuild)
            }
            crate::scripts::PIP_REQUIREMENTS_READER => Some(Recipe::PipRequirements),
            crate::scripts::PIP_CONFIG_READER => Some(Recipe::PipConfig),
            "bundle" => Some(Recipe::Gemfile),
            crate::scripts::CARGO_ALIAS_READER => Some(Recipe::CargoAlias),
            // Recipe files that are code (F95).
            "rake" => Some(Recipe::Rake),
            "invoke" | "inv" => Some(Recipe::Invoke),
            "nox" => Some(Recipe::Nox),
            "fab" | "fabric" => Some(Recipe::Fabric),
            "doit" if path.extension().is_some_and(|e| e == "py") => Some(Recipe::Doit),
            "gradle" | "gradlew"
                if path
                    .file_name()
                    .is_some_and(|n| n == "settings.gradle" || n == "settings.gradle.kts") =>
            {
                Some(Recipe::GradleSettings)
            }
            "tox" if ini || path.file_name().is_some_and(|n| n == "setup.cfg") => Some(Recipe::Tox),
            "tox" if path.extension().is_some_and(|e| e == "toml") => Some(Recipe::ToxToml),
            // Its JavaScript configurations are code, read for their strings (F88).
            "lint-staged" => {
                let js = path.to_str().is_some_and(crate::scripts::is_javascript_file);
                let manifest = path.file_name().is_some_and(|n| n == "package.json");
                Some(match js {
                    true => Recipe::LintStagedScript,
                    false => Recipe::LintStaged { manifest },
                })
            }
            _ => Recipe::of(path),
        }
    }

    /// The kind of recipe file `path` is, by its name; `None` for any other file.
    pub(crate) fn of(path: &Path) -> Option<Recipe> {
        let name = path.file_name()?.to_str()?;
        Some(match name {
            "package.json" => Recipe::PackageScripts,
            "deno.json" | "deno.jsonc" => Recipe::DenoTasks,
            "Makefile" | "makefile" | "GNUmakefile" => Recipe::Make,
            "justfile" | ".justfile" | "Justfile" | "JUSTFILE" => Recipe::Just,
            "tox.ini" => Recipe::Tox,
            "tox.toml" => Recipe::ToxToml,
            "turbo.json" | "turbo.jsonc" => Recipe::Turbo,
            "nx.json" => Recipe::Nx,
            ".pre-commit-config.yaml" | ".pre-commit-config.yml" | "prek.toml" => Recipe::Manager,
            _ if name.ends_with(".mk") => Recipe::Make,
            _ if name.to_ascii_lowercase().starts_with("taskfile.") => Recipe::Manager,
            _ if name.trim_start_matches('.').starts_with("lefthook") => Recipe::Manager,
            _ => return None,
        })
    }
}

/// The files a Python build backend runs by default beside `pyproject.toml` (finding F105):
/// setuptools' `setup.py`, Hatch's custom hook, PDM's build hook.
const PYTHON_BUILD_FILES: &[&str] = &["setup.py", "hatch_build.py", "pdm_build.py"];

/// What the build backend of the project whose `pyproject.toml` is at `path` runs when a
/// project manager builds the project (finding F105; checked with uv here: `uv run true` in a
/// project whose backend is setuptools ran its `setup.py`, again after it changed): the
/// default files ([`PYTHON_BUILD_FILES`]), the hook files `[tool.hatch]`'s custom hooks
/// name (`hooks.custom.path`, per target too, and the metadata hook's), Poetry's build script
/// (`[tool.poetry.build] script`, the older `build`), the files of an in-tree backend's
/// `backend-path` folders (whole), and, by the backend, scikit-build's `CMakeLists.txt`,
/// meson-python's `meson.build`, maturin's `Cargo.toml` and `build.rs`; each protected,
/// existing or not.
fn python_build(path: &Path) -> RecipeRead {
    let mut read = RecipeRead::default();
    let Some(folder) = path.parent() else { return read };
    let mut files: Vec<String> = PYTHON_BUILD_FILES.iter().map(|f| (*f).to_owned()).collect();
    let text = crate::installations::read_capped(path, RECIPE_CAP);
    if let Some(document) = text.and_then(|t| t.parse::<toml_edit::DocumentMut>().ok()) {
        let root = document.as_item();
        let at = |keys: &[&str]| keys.iter().try_fold(root, |item, key| item.get(key));
        let system = at(&["build-system"]);
        let folders = system.and_then(|s| s.get("backend-path")).and_then(|p| p.as_array());
        for folder_name in folders.into_iter().flatten().filter_map(|f| f.as_str()) {
            read.folders.extend(code::relative(folder, folder_name));
        }
        let backend = system.and_then(|s| s.get("build-backend")).and_then(|b| b.as_str());
        let backend_files: &[&str] = match backend.unwrap_or_default() {
            b if b.starts_with("scikit_build_core") => &["CMakeLists.txt"],
            b if b.starts_with("mesonpy") => &["meson.build"],
            b if b.starts_with("maturin") => &["Cargo.toml", "build.rs"],
            _ => &[],
        };
        files.extend(backend_files.iter().map(|f| (*f).to_owned()));
        let mut hooks: Vec<&toml_edit::Item> = Vec::new();
        hooks.extend(at(&["tool", "hatch", "build", "hooks", "custom"]));
        hooks.extend(at(&["tool", "hatch", "metadata", "hooks", "custom"]));
        let targets = at(&["tool", "hatch", "build", "targets"]).and_then(|t| t.as_table_like());
        for (_, target) in targets.into_iter().flat_map(|t| t.iter()) {
            hooks.extend(target.get("hooks").and_then(|h| h.get("custom")));
        }
        files.extend(hooks.iter().filter_map(|h| h.get("path")?.as_str().map(str::to_owned)));
        let poetry = at(&["tool", "poetry", "build"]);
        let script = poetry.and_then(|b| b.as_str().or_else(|| b.get("script")?.as_str()));
        files.extend(script.map(str::to_owned));
        python_path_dependencies(root, folder, &mut read);
    }
    for file in files.iter().take(MAX_INCLUDED) {
        if let Some(place) = code::relative(folder, file) {
            note_once(&mut read.included, &place, MAX_INCLUDED * 2);
        }
    }
    read
}

/// The names a Python project's build is read by in every folder under a workspace's members'
/// pattern (finding F110): a member the agent adds there is built too.
const PYTHON_MEMBER_FILES: &[&str] =
    &["pyproject.toml", "setup.py", "hatch_build.py", "pdm_build.py"];

/// The local projects a Python project's manager builds with it when it syncs its environment
/// (finding F110; checked with uv 0.13 here, each `setup.py` writing a marker: `uv run true`
/// built the project, the path source `[tool.uv.sources] lib = { path = "lib" }` and the
/// workspace member `packages/m` of `members = ["packages/*"]`): uv's `path` sources and
/// workspace members, Poetry's `path` dependencies (every group's), and the `file:` URLs of
/// the standard dependency lists (`lib @ file:///${PROJECT_ROOT}/lib`, PDM's spelling, and
/// Hatch's `{root:uri}`). Each project's `pyproject.toml` is read in turn
/// ([`RecipeRead::modules`]) and its build files protected, existing or not; a members'
/// pattern protects those names under its fixed part ([`RecipeRead::names_under`]), and an
/// archive a dependency names is protected as it is.
fn python_path_dependencies(root: &toml_edit::Item, folder: &Path, read: &mut RecipeRead) {
    let at = |keys: &[&str]| keys.iter().try_fold(root, |item, key| item.get(key));
    let mut places: Vec<String> = Vec::new();
    let mut tables: Vec<&toml_edit::Item> = Vec::new();
    tables.extend(at(&["tool", "uv", "sources"]));
    let poetry = at(&["tool", "poetry"]);
    tables.extend(poetry.and_then(|p| p.get("dependencies")));
    tables.extend(poetry.and_then(|p| p.get("dev-dependencies")));
    let groups = poetry.and_then(|p| p.get("group")).and_then(|g| g.as_table_like());
    for (_, group) in groups.into_iter().flat_map(|g| g.iter()) {
        tables.extend(group.get("dependencies"));
    }
    for table in tables {
        for (_, entry) in table.as_table_like().into_iter().flat_map(|t| t.iter()) {
            let path = |t: &toml_edit::InlineTable| t.get("path")?.as_str().map(str::to_owned);
            match entry.as_array() {
                // A list of sources, one per marker (uv's, Poetry's).
                Some(list) => places.extend(list.iter().filter_map(|v| path(v.as_inline_table()?))),
                None => {
                    places.extend(entry.get("path").and_then(|p| p.as_str()).map(str::to_owned))
                }
            }
        }
    }
    // The standard lists' direct references (`name @ file:///…`).
    let project_root = format!("file://{}", folder.display());
    let mut lists: Vec<&toml_edit::Item> = Vec::new();
    let project = at(&["project"]);
    lists.extend(project.and_then(|p| p.get("dependencies")));
    let optional = project.and_then(|p| p.get("optional-dependencies"));
    lists.extend(
        optional.and_then(|o| o.as_table_like()).into_iter().flat_map(|t| t.iter()).map(|(_, l)| l),
    );
    let groups = at(&["dependency-groups"]).and_then(|g| g.as_table_like());
    lists.extend(groups.into_iter().flat_map(|t| t.iter()).map(|(_, l)| l));
    let pdm_dev = at(&["tool", "pdm", "dev-dependencies"]).and_then(|g| g.as_table_like());
    lists.extend(pdm_dev.into_iter().flat_map(|t| t.iter()).map(|(_, l)| l));
    for list in lists {
        for spec in list.as_array().into_iter().flatten().filter_map(|v| v.as_str()) {
            let spec = spec.replace("file:///${PROJECT_ROOT}", &project_root);
            let spec = spec.replace("{root:uri}", &project_root);
            let (editable, spec) = match spec.strip_prefix("-e ") {
                Some(rest) => (true, rest.trim()),
                None => (false, spec.as_str()),
            };
            match crate::scripts::pip_local_project(spec, editable) {
                // Only URLs and paths written as such: a bare name is a package.
                Some(crate::scripts::LocalProject::Folder(f)) if spec.contains('/') => {
                    places.push(f)
                }
                Some(crate::scripts::LocalProject::Archive(f)) => places.push(f),
                _ => {}
            }
        }
    }
    // Written names from the project's folder (`~/x` is the home's, not a folder of it), then
    // the members' folders.
    let written = places.iter().filter(|p| !p.starts_with('~')).filter_map(|p| place(folder, p));
    let mut folders: Vec<PathBuf> = written.collect();
    let members = at(&["tool", "uv", "workspace", "members"]).and_then(|m| m.as_array());
    for pattern in members.into_iter().flatten().filter_map(|p| p.as_str()).take(MAX_INCLUDED) {
        folders.extend(member_folders(folder, pattern, PYTHON_MEMBER_FILES, read));
    }
    for place in folders.into_iter().take(MAX_INCLUDED * 2) {
        if crate::scripts::PYTHON_ARCHIVES.iter().any(|a| place.to_string_lossy().ends_with(a)) {
            note_once(&mut read.included, &place, MAX_INCLUDED * 4);
            continue;
        }
        for name in PYTHON_MEMBER_FILES {
            note_once(&mut read.included, &place.join(name), MAX_INCLUDED * 4);
        }
        if place != folder && !read.modules.contains(&place.join("pyproject.toml")) {
            read.modules.push(place.join("pyproject.toml"));
        }
    }
}

/// `name` from `base`, `.` and `..` resolved lexically; an absolute name as it is; `None` for an
/// empty one. A path a manifest names (cargo's, uv's and Poetry's `path`, npm's `file:`).
pub(crate) fn place(base: &Path, name: &str) -> Option<PathBuf> {
    if name.is_empty() {
        return None;
    }
    match Path::new(name).has_root() {
        true => {
            crate::paths::normalize_absolute(Path::new(name)).map(|p| p.as_path().to_path_buf())
        }
        false => crate::imports::relative_target(base, name),
    }
}

/// The folders a workspace's members' `pattern` names from `folder` (cargo's `members`, uv's
/// workspace's): the folder itself without a wildcard, else the pattern's existing folders,
/// with `names` protected in every folder under its fixed part ([`RecipeRead::names_under`])
/// for a member the agent adds there.
fn member_folders(
    folder: &Path,
    pattern: &str,
    names: &'static [&'static str],
    read: &mut RecipeRead,
) -> Vec<PathBuf> {
    let wild = |part: &str| part.contains(['*', '?', '[']);
    if !pattern.split('/').any(wild) {
        return place(folder, pattern).into_iter().collect();
    }
    let fixed: Vec<&str> = pattern.split('/').take_while(|p| !wild(p)).collect();
    if let Some(base) = place(folder, &fixed.join("/"))
        && !read.names_under.iter().any(|(f, _)| *f == base)
    {
        read.names_under.push((base, names));
    }
    expand_folders(folder, pattern)
}

/// The longest target name followed (one a pattern rule's prerequisites make from the name).
const MAX_NAME: usize = 4096;

/// At most this many makefiles are read through `include` lines, nested at most this deep.
const MAX_INCLUDED: usize = 16;
const MAX_INCLUDE_DEPTH: u32 = 8;

/// What a recipe file has its tool run ([`read`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct RecipeRead {
    /// The command lines it runs for the targets.
    pub(crate) lines: Vec<String>,
    /// The files a makefile `include`s (`-include`, `sinclude`), nested ones too, where make
    /// looks for each (relative names from each folder in `run_dirs`), whether they exist or
    /// not: make reads one the agent creates as well. For a justfile: the files it imports,
    /// the places of the modules it declares, and the `.env` files `set dotenv-load` reads.
    pub(crate) included: Vec<PathBuf>,
    /// The module files a justfile declares that exist, or the settings scripts of the builds
    /// a Gradle settings script includes (F98): read in turn as files of the same kind, from
    /// their own folder (just evaluates their assignments there).
    pub(crate) modules: Vec<PathBuf>,
    /// Other folders its recipes run in: a justfile's `set working-directory` (relative to
    /// its folder) and each recipe's `[working-directory: …]` (relative to that; finding
    /// F90), a Taskfile's tasks' and includes' `dir:` (finding F91); each line is read from
    /// these as well.
    pub(crate) run_dirs: Vec<PathBuf>,
    /// The scripts it has the package manager run in the workspaces' packages (Turborepo's
    /// tasks, finding F92): read from the manifest beside the file and its workspaces'.
    pub(crate) scripts: Vec<String>,
    /// Whether a recipe runs where the tool was started rather than in the file's folder (a
    /// justfile's `[no-cd]`, a task's `dir: '{{.USER_WORKING_DIR}}'`, invoke's tasks): its
    /// lines are read from the hook's folder too.
    pub(crate) from_caller: bool,
    /// Folders whose every file the tool may load, existing or not: rake's `rakelib/`, the
    /// folder a `Dir.glob` of `.rake` files lists, a Python package a recipe file imports
    /// (finding F95).
    pub(crate) folders: Vec<PathBuf>,
    /// The Python modules a recipe file that is Python imports, whose compiled and extension
    /// forms are protected beside them ([`crate::scripts::PathRole::Compiled`], F118).
    pub(crate) compiled: Vec<PathBuf>,
    /// Folders under which each of the names is protected in every folder, existing or not:
    /// a Cargo workspace's members by pattern (`crates/*`), whose manifest and build script
    /// the agent could add (finding F100).
    pub(crate) names_under: Vec<(PathBuf, &'static [&'static str])>,
}

/// The names invoke reads its project configuration by, beside its tasks (finding F95;
/// `invoke.py` is Python it runs).
const INVOKE_CONFIGS: &[&str] = &["invoke.yaml", "invoke.yml", "invoke.json", "invoke.py"];

/// The names Fabric reads its project configuration by, beside its `fabfile.py` (finding
/// F101).
const FABRIC_CONFIGS: &[&str] = &["fabric.yaml", "fabric.yml", "fabric.json", "fabric.py"];

/// The command lines the recipe file at `path` of kind `kind` runs for `targets` (the words of
/// the line that may name them; see [`lines`]), read up to 256 KiB without waiting on a FIFO;
/// nothing when it is no regular file or does not parse. A makefile is read with the files it
/// includes, relative ones from `run_dirs` (where make may run: the folder it reads relative
/// names from).
pub(crate) fn read(
    path: &Path,
    kind: Recipe,
    targets: &[String],
    run_dirs: &[PathBuf],
) -> RecipeRead {
    match kind {
        Recipe::Manager => {
            let mut read = RecipeRead::default();
            read_taskfile(path, &mut read, 0);
            read.lines.truncate(MAX_LINES);
            read
        }
        Recipe::Just => {
            let mut read = RecipeRead::default();
            let mut text = String::new();
            read_justfile(path, &mut text, &mut read, 0);
            read.included.extend(dotenv_files(&text, path));
            read.lines = tidy(just_lines(&text, targets));
            if let Some(folder) = path.parent() {
                (read.run_dirs, read.from_caller) = just_working_dirs(&text, folder);
            }
            read
        }
        Recipe::Nx => read_nx(path, targets),
        Recipe::Cargo => {
            let package = targets.iter().find_map(|t| t.strip_prefix(CARGO_PACKAGE_TARGET));
            cargo::read(path, package)
        }
        Recipe::CargoAlias => cargo::alias_lines(path, targets),
        Recipe::PythonBuild => python_build(path),
        Recipe::PipRequirements => pip::read(path),
        Recipe::Gemfile => gemfile::read(path),
        Recipe::PipConfig => RecipeRead {
            lines: (crate::installations::read_capped(path, RECIPE_CAP))
                .map(|text| pip::config_lines(&text))
                .unwrap_or_default(),
            // Its relative names are from where pip runs.
            from_caller: true,
            ..RecipeRead::default()
        },
        Recipe::Rake | Recipe::Nox | Recipe::Doit => {
            let language = match kind {
                Recipe::Rake => code::Language::Ruby,
                _ => code::Language::Python,
            };
            code::read(path, language, path.parent().unwrap_or(Path::new("/")))
        }
        Recipe::GradleSettings => {
            let folder = path.parent().unwrap_or(Path::new("/"));
            let mut read = RecipeRead::default();
            // The build whose settings these are (also when Gradle found them in a folder
            // above where it runs, F100): its scripts and build logic beside them.
            let (scripts, logic) = crate::scripts::runner_build_files("gradle");
            read.included.extend(scripts.iter().map(|r| folder.join(r)));
            read.folders.extend(logic.iter().map(|f| folder.join(f)));
            let text = crate::installations::read_capped(path, RECIPE_CAP).unwrap_or_default();
            for build in gradle_included_builds(&text).into_iter().take(MAX_INCLUDED) {
                let Some(build) = code::relative(folder, &build) else { continue };
                for name in ["settings.gradle", "settings.gradle.kts"] {
                    read.modules.push(build.join(name));
                }
                read.folders.push(build);
            }
            read
        }
        Recipe::Invoke | Recipe::Fabric => {
            let configs = match kind {
                Recipe::Fabric => FABRIC_CONFIGS,
                _ => INVOKE_CONFIGS,
            };
            let folder = path.parent().unwrap_or(Path::new("/"));
            let mut read = code::read(path, code::Language::Python, folder);
            // The project's configuration is beside `tasks.py`, or beside the `tasks/` package.
            let package = path.file_name().is_some_and(|n| n == "__init__.py");
            let base = match package {
                true => folder.parent().unwrap_or(folder),
                false => folder,
            };
            for name in configs {
                let config = base.join(name);
                if name.ends_with(".py") {
                    let found = code::read(&config, code::Language::Python, base);
                    read.lines.extend(found.lines);
                    read.included.extend(found.included);
                    read.folders.extend(found.folders);
                } else if let Some(text) = crate::installations::read_capped(&config, RECIPE_CAP)
                    && let Some(shell) = code::invoke_shell(&text)
                {
                    read.lines.push(shell);
                }
                read.included.push(config);
            }
            read.lines.truncate(MAX_LINES);
            // invoke runs its lines where it was started, not in the tasks' folder.
            read.from_caller = true;
            read
        }
        Recipe::Turbo => RecipeRead {
            scripts: crate::installations::read_capped(path, RECIPE_CAP)
                .map(|text| turbo_tasks(&text, targets))
                .unwrap_or_default(),
            ..RecipeRead::default()
        },
        Recipe::Make => {
            let mut text = String::new();
            let mut included = Vec::new();
            read_makefile(path, run_dirs, &mut text, &mut included, 0);
            // make remakes the makefile it reads by a rule of that name: under the name it
            // was given, which is its file name or its path from where make runs.
            let mut names: Vec<String> = Vec::new();
            let given = run_dirs.iter().filter_map(|d| path.strip_prefix(d).ok());
            for name in path.file_name().map(Path::new).into_iter().chain(given) {
                if let Some(name) = name.to_str().filter(|n| !names.iter().any(|k| k == n)) {
                    names.push(name.to_owned());
                }
            }
            let lines = tidy(make_lines(&text, targets, &names));
            RecipeRead { lines, included, ..RecipeRead::default() }
        }
        Recipe::PackageScripts => {
            let text = crate::installations::read_capped(path, RECIPE_CAP).unwrap_or_default();
            let mut read =
                RecipeRead { lines: lines(&text, kind, targets), ..RecipeRead::default() };
            if installs(targets)
                && let Some(folder) = path.parent()
            {
                local_packages(&text, targets, folder, &mut read);
            }
            read
        }
        _ => RecipeRead {
            lines: crate::installations::read_capped(path, RECIPE_CAP)
                .map(|text| lines(&text, kind, targets))
                .unwrap_or_default(),
            ..RecipeRead::default()
        },
    }
}

/// Whether the words `targets` of a package manager's line install (`install`, `i`, `ci`,
/// `add`, or no word: `yarn` alone installs).
fn installs(targets: &[String]) -> bool {
    targets.is_empty()
        || targets.iter().any(|t| matches!(t.as_str(), "install" | "i" | "ci" | "add"))
}

/// The dependency lists of a `package.json` an install installs.
const NPM_DEPENDENCIES: &[&str] = &["dependencies", "devDependencies", "optionalDependencies"];

/// At most this many local packages are taken from one manifest.
const MAX_LOCAL_PACKAGES: usize = 32;

/// The local packages an install of the manifest in `folder` whose text is `text` installs,
/// and so runs the install scripts of (finding F114; checked with npm 11 here: `npm install`
/// and `npm ci` ran the `preinstall`, `install`, `postinstall` and `prepare` scripts of a
/// `file:./x` dependency and a `file:y` development one): the `file:` and `link:` specs of its
/// dependency lists and those written as a folder's path (`./x`, `../x`, `/x`), and the
/// operands of the line written so (`npm install ./x`); each package's `package.json` is
/// protected, existing or not, and read in turn for the same install
/// ([`RecipeRead::modules`]); a tarball (`file:x.tgz`) is protected as it is.
fn local_packages(text: &str, targets: &[String], folder: &Path, read: &mut RecipeRead) {
    let value = serde_json::from_str::<serde_json::Value>(text).ok();
    let mut specs: Vec<&str> = Vec::new();
    for list in NPM_DEPENDENCIES {
        let deps = value.as_ref().and_then(|v| v.get(list)).and_then(|d| d.as_object());
        specs.extend(deps.into_iter().flat_map(|d| d.values()).filter_map(|v| v.as_str()));
    }
    specs.extend(targets.iter().map(String::as_str));
    for spec in specs.into_iter().take(MAX_LOCAL_PACKAGES) {
        let path = match spec.strip_prefix("file:").or_else(|| spec.strip_prefix("link:")) {
            Some(path) => path,
            None if spec.starts_with("./") || spec.starts_with("../") || spec.starts_with('/') => {
                spec
            }
            None => continue,
        };
        // `file:///x` as `/x`; `~/x` is the home's, not the project's.
        let path = path.strip_prefix("//").unwrap_or(path);
        let Some(place) = place(folder, path).filter(|_| !path.starts_with('~')) else {
            continue;
        };
        let tarball = [".tgz", ".tar.gz", ".tar"].iter().any(|t| path.ends_with(t));
        if tarball {
            note_once(&mut read.included, &place, MAX_LOCAL_PACKAGES * 2);
            continue;
        }
        let manifest = place.join("package.json");
        note_once(&mut read.included, &manifest, MAX_LOCAL_PACKAGES * 2);
        if place != folder && !read.modules.contains(&manifest) {
            read.modules.push(manifest);
        }
    }
}

/// Appends the makefile at `path` to `text`, each file it includes read in its place after
/// its `include` line (which stays, for [`make_lines`] to see what make remakes), and notes
/// the included files in `included` (each once: a file that includes itself ends there).
fn read_makefile(
    path: &Path,
    run_dirs: &[PathBuf],
    text: &mut String,
    included: &mut Vec<PathBuf>,
    depth: u32,
) {
    let Some(body) = crate::installations::read_capped(path, RECIPE_CAP) else { return };
    for line in body.lines() {
        if !push_line(text, line) {
            return;
        }
        for name in include_names(line) {
            let places: Vec<PathBuf> = match Path::new(name) {
                p if p.is_absolute() => vec![p.to_path_buf()],
                p => run_dirs.iter().map(|d| d.join(p)).collect(),
            };
            for place in places {
                if note_once(included, &place, MAX_INCLUDED) && depth < MAX_INCLUDE_DEPTH {
                    read_makefile(&place, run_dirs, text, included, depth + 1);
                }
            }
        }
    }
}

/// Appends `line` to the text of a recipe file and what it includes, unless that text has
/// reached its cap (1 MiB): then `false`.
fn push_line(text: &mut String, line: &str) -> bool {
    if text.len() as u64 >= RECIPE_CAP * 4 {
        return false;
    }
    text.push_str(line);
    text.push('\n');
    true
}

/// Notes `place` in `included` unless it is there or `included` holds `cap` places: whether
/// it was noted (a file read once, however often it is included).
fn note_once(included: &mut Vec<PathBuf>, place: &Path, cap: usize) -> bool {
    let new = included.len() < cap && !included.iter().any(|p| p == place);
    if new {
        included.push(place.to_path_buf());
    }
    new
}

/// The files a makefile's `include`, `-include` or `sinclude` line names; a name make would
/// expand (`$(DEPS)`, a wildcard) is passed over.
fn include_names(line: &str) -> Vec<&str> {
    let mut words = line.split_whitespace();
    let directive = line.starts_with(|c: char| !c.is_whitespace())
        && matches!(words.next(), Some("include" | "-include" | "sinclude"));
    if !directive {
        return Vec::new();
    }
    words
        .take_while(|w| !w.starts_with('#'))
        .filter(|w| !w.contains(['$', '*', '?', '[']))
        .collect()
}

/// The command lines of a recipe file's text `text` of kind `kind` (not
/// [`Recipe::Manager`], read by its own reader) for `targets`, the words of the line that may
/// name them (a word that names none is passed over): a manifest's scripts of those names,
/// with their `pre` and `post` scripts (and the install scripts for `install`, `i`, `ci`,
/// `add` or no word); a `deno.json`'s tasks of those names; a makefile's or a justfile's
/// recipes of those names, or the first one when none is named, with the recipes they depend
/// on. A `tox.ini` is read whole.
pub(crate) fn lines(text: &str, kind: Recipe, targets: &[String]) -> Vec<String> {
    let out: Vec<String> = match kind {
        Recipe::PackageScripts => json_strings(text, "/scripts", None, &script_names(targets)),
        Recipe::DenoTasks => {
            let text = hooks_json::strip_comments(text);
            json_strings(&text, "/tasks", Some("command"), targets)
        }
        Recipe::Make => make_lines(text, targets, &[]),
        Recipe::Just => just_lines(text, targets),
        Recipe::Tox => tox_commands(text),
        Recipe::ToxToml => tox_toml_commands(text),
        // Run by their own readers ([`read`]).
        Recipe::Manager | Recipe::Turbo | Recipe::Nx => Vec::new(),
        Recipe::LintStaged { manifest } => lint_staged_commands(text, manifest),
        Recipe::LintStagedScript => lint_staged_script_commands(text),
        Recipe::Rake => code::lines(text, code::Language::Ruby),
        Recipe::Invoke | Recipe::Nox | Recipe::Fabric | Recipe::Doit => {
            code::lines(text, code::Language::Python)
        }
        // Read by [`read`] for the builds they include or reach, not for lines.
        Recipe::GradleSettings
        | Recipe::Cargo
        | Recipe::PythonBuild
        | Recipe::Gemfile
        | Recipe::CargoAlias => Vec::new(),
        // Without the files a requirements file includes, which [`read`] reads in turn.
        Recipe::PipRequirements => pip::text_lines(text).0,
        Recipe::PipConfig => pip::config_lines(text),
        Recipe::ProjectScripts(table) => project_scripts(text, table, targets),
    };
    tidy(out)
}

/// The commands of lint-staged's configuration in JavaScript ([`Recipe::LintStagedScript`]):
/// its string literals that are values, not keys (no `:` follows them) nor what it imports,
/// whether an object's value, a list's item or what a function returns (`(files) => `tsc
/// ${files.join(" ")}``), each `${…}` of a template literal read as a variable's value (what
/// the function puts there, the staged files' names). The scan is textual: a string the
/// configuration holds for another purpose is taken as a command too (protect more, never
/// less); a command built from pieces at run time is not seen.
fn lint_staged_script_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, literal) in crate::imports::string_literals(text) {
        let after = text.get(at + 1 + literal.len() + 1..).unwrap_or_default();
        if after.trim_start().starts_with(':')
            || crate::imports::is_import_context(text.get(..at).unwrap_or_default())
        {
            continue;
        }
        out.push(without_substitutions(literal));
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out
}

/// `literal` (a template literal's text) with each `${…}` as the word `"$FILES"`.
fn without_substitutions(literal: &str) -> String {
    let mut out = String::with_capacity(literal.len());
    let mut rest = literal;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in rest[start + 1..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + 1 + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push_str("\"$FILES\"");
        match end {
            Some(end) => rest = &rest[end + 1..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The commands of lint-staged's configuration `text` ([`Recipe::LintStaged`]): the values of
/// its top-level object, or of a manifest's `lint-staged` object, each a command or a list of
/// them. A configuration file in JSON is read as YAML reads it (a JSON document is one).
fn lint_staged_commands(text: &str, manifest: bool) -> Vec<String> {
    if manifest {
        let manifest = serde_json::from_str::<serde_json::Value>(text).unwrap_or_default();
        let Some(config) = manifest.get("lint-staged") else { return Vec::new() };
        let values = config.as_object().into_iter().flat_map(|o| o.values());
        let mut out: Vec<String> = Vec::new();
        for value in values {
            match value {
                serde_json::Value::String(s) => out.push(s.clone()),
                serde_json::Value::Array(a) => {
                    out.extend(a.iter().filter_map(|v| v.as_str()).map(str::to_owned));
                }
                _ => {}
            }
            if out.len() >= MAX_LINES {
                break;
            }
        }
        return out;
    }
    use hooks_yaml::Event;
    let mut out: Vec<String> = Vec::new();
    // Collections open below the document's mapping; whether the next scalar of the top
    // mapping is a key.
    let mut depth = 0usize;
    let mut expect_key = false;
    for item in hooks_yaml::Events::new(text) {
        let Ok((event, _)) = item else { break };
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if depth == 1 {
                    // A value that is a collection: the next top-level scalar is a key.
                    expect_key = true;
                }
                depth += 1;
                if depth == 1 {
                    expect_key = !matches!(event, Event::SequenceStart(..));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => depth = depth.saturating_sub(1),
            Event::Scalar(value, ..) => match depth {
                1 if expect_key => expect_key = false,
                1 => {
                    out.push(value.into_owned());
                    expect_key = true;
                }
                // A list of commands under a glob.
                2 => out.push(value.into_owned()),
                _ => {}
            },
            _ => {}
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out
}

/// The folders a Gradle settings script's `includeBuild` lines name (`includeBuild("build-logic")`,
/// `includeBuild '../shared'`, inside `pluginManagement { }` or not), as written: relative to
/// the script's folder or absolute. A path built at run time (`includeBuild(file(x))`) is
/// passed over.
pub(crate) fn gradle_included_builds(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("includeBuild") {
        let after = rest[at + "includeBuild".len()..].trim_start();
        let after = after.strip_prefix('(').unwrap_or(after).trim_start();
        rest = &rest[at + "includeBuild".len()..];
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(end) = after[1..].find(quote) else { continue };
        let path = &after[1..1 + end];
        if !path.is_empty() && !path.contains(['$', '\n']) && !out.iter().any(|p| p == path) {
            out.push(path.to_owned());
        }
    }
    out
}

/// At most this many scripts of a [`Recipe::ProjectScripts`] file are followed by name.
const MAX_SCRIPTS: usize = 64;

/// The command lines the scripts `targets` name run in a Python project's TOML file `text`
/// (finding F99; checked with PDM 2.29, poe 0.49 and Hatch 1.18 here, each script writing a marker):
/// a script's command (a string; a `cmd` or `shell` string; a `cmd` list of arguments, joined),
/// with the scripts it runs by name, in turn: a composite's, a sequence's or a chain's items
/// (`composite = ["sub", "sh x.sh"]`), Pixi's `depends-on`, poe's `deps` and `ref`, a Hatch
/// command whose first word is another script's name, PDM's `pre_` and `post_` scripts. A
/// target `env:name` (Hatch's) is `name` in any environment. Only the named scripts are read:
/// the others name the project's own code (`start = "python src/app.py"`).
pub(crate) fn project_scripts(text: &str, table: ScriptTable, targets: &[String]) -> Vec<String> {
    let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    let root = document.as_item();
    let path = |item: &'_ toml_edit::Item, keys: &[&str]| -> Option<toml_edit::Item> {
        let mut at = item;
        for key in keys {
            at = at.get(key)?;
        }
        Some(at.clone())
    };
    let mut tables: Vec<toml_edit::Item> = Vec::new();
    let each_env = |envs: Option<toml_edit::Item>, key: &str, tables: &mut Vec<toml_edit::Item>| {
        let Some(envs) = envs else { return };
        for (_, env) in envs.as_table_like().into_iter().flat_map(|t| t.iter()) {
            tables.extend(env.get(key).cloned());
        }
    };
    match table {
        ScriptTable::Pdm => tables.extend(path(root, &["tool", "pdm", "scripts"])),
        ScriptTable::Rye => tables.extend(path(root, &["tool", "rye", "scripts"])),
        ScriptTable::Poe => {
            tables.extend(path(root, &["tool", "poe", "tasks"]));
            tables.extend(path(root, &["tasks"]));
        }
        ScriptTable::Hatch => {
            each_env(path(root, &["tool", "hatch", "envs"]), "scripts", &mut tables);
            each_env(path(root, &["envs"]), "scripts", &mut tables);
        }
        ScriptTable::Pixi => {
            tables.extend(path(root, &["tasks"]));
            tables.extend(path(root, &["tool", "pixi", "tasks"]));
            each_env(path(root, &["feature"]), "tasks", &mut tables);
            each_env(path(root, &["tool", "pixi", "feature"]), "tasks", &mut tables);
        }
    }
    let lookup = |name: &str| tables.iter().find_map(|t| t.get(name).cloned());
    let mut pending: Vec<String> = Vec::new();
    for target in targets {
        let name = target.rsplit_once(':').map_or(target.as_str(), |(_, n)| n);
        pending.push(name.to_owned());
        if table == ScriptTable::Pdm {
            pending.extend([format!("pre_{name}"), format!("post_{name}")]);
        }
    }
    let mut seen: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    while let Some(name) = pending.pop() {
        if seen.contains(&name) || seen.len() >= MAX_SCRIPTS {
            continue;
        }
        seen.push(name.clone());
        let Some(script) = lookup(&name) else { continue };
        let mut items: Vec<toml_edit::Item> = vec![script];
        while let Some(item) = items.pop() {
            if out.len() >= MAX_LINES {
                return out;
            }
            if let Some(line) = item.as_str() {
                // A step that names another script runs that script (Hatch's first word,
                // PDM's composite, poe's sequence): read in turn; the line is read as well.
                let first = line.split_whitespace().next().unwrap_or_default();
                if lookup(first).is_some() {
                    pending.push(first.to_owned());
                }
                out.push(line.to_owned());
            } else if let Some(array) = item.as_array() {
                items.extend(array.iter().map(|v| toml_edit::Item::Value(v.clone())));
            } else if let Some(fields) = item.as_table_like() {
                for (key, value) in fields.iter() {
                    match key {
                        "cmd" | "shell" => match value.as_array() {
                            Some(words) => {
                                let words: Vec<String> = words
                                    .iter()
                                    .filter_map(|w| w.as_str())
                                    .map(shell_word)
                                    .collect();
                                out.push(words.join(" "));
                            }
                            None => items.push(value.clone()),
                        },
                        "composite" | "sequence" | "chain" | "ref" => items.push(value.clone()),
                        "depends-on" | "depends_on" | "deps" => {
                            let names = value.as_array().into_iter().flat_map(|a| a.iter());
                            pending.extend(names.filter_map(|n| {
                                let task = || n.as_inline_table()?.get("task")?.as_str();
                                n.as_str().or_else(task).map(str::to_owned)
                            }));
                            pending.extend(value.as_str().map(str::to_owned));
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// `lines` without the empty ones, at most [`MAX_LINES`].
fn tidy(mut lines: Vec<String>) -> Vec<String> {
    lines.retain(|line| !line.trim().is_empty());
    lines.truncate(MAX_LINES);
    lines
}

/// The scripts a package manager runs for the words `targets`: each word, with its `pre` and
/// `post` scripts, and the install scripts for an install (`install`, `i`, `ci`, `add`, or no
/// word: `yarn` alone installs).
fn script_names(targets: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for t in targets {
        names.extend([t.clone(), format!("pre{t}"), format!("post{t}")]);
    }
    if installs(targets) {
        let lifecycle = ["preinstall", "install", "postinstall", "prepublish", "prepare"];
        names.extend(lifecycle.map(str::to_owned));
    }
    names
}

/// The string values of the object at `pointer` of a JSON text whose keys are among `names`
/// (and, with `field`, that field of its object values).
fn json_strings(text: &str, pointer: &str, field: Option<&str>, names: &[String]) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let Some(map) = value.pointer(pointer).and_then(|m| m.as_object()) else { return Vec::new() };
    map.iter()
        .filter(|(name, _)| names.iter().any(|n| n == *name || script_pattern_matches(n, name)))
        .filter_map(|(_, v)| match (v, field) {
            (serde_json::Value::String(s), _) => Some(s.clone()),
            (serde_json::Value::Object(o), Some(f)) => o.get(f)?.as_str().map(str::to_owned),
            _ => None,
        })
        .take(MAX_LINES)
        .collect()
}

/// The values of an INI text's `commands`, `commands_pre` and `commands_post` keys, in any
/// section (tox's environments), one command per line: the text after `=` and each
/// indented line that continues it.
fn tox_commands(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_commands = false;
    for line in text.lines() {
        let continued = line.starts_with([' ', '\t']);
        if continued && in_commands {
            out.push(line.trim().to_owned());
        } else if !continued {
            in_commands = false;
            if let Some((key, value)) = line.split_once('=')
                && matches!(key.trim(), "commands" | "commands_pre" | "commands_post")
            {
                in_commands = true;
                out.push(value.trim().to_owned());
            }
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out.retain(|line| !line.starts_with(['#', ';']));
    out
}

/// Appends the justfile at `path` to `text`, each file it imports (`import 'f'`, `import?
/// 'f'`, relative to the importing file's folder) read in its place, and notes in `read` the
/// imported files and the places of the modules it declares (`mod name`, `mod? name`, `mod
/// name 'path'`: `name.just`, `name/mod.just`, `name/justfile`, `name/.justfile`), existing or
/// not, and the module files that exist.
fn read_justfile(path: &Path, text: &mut String, read: &mut RecipeRead, depth: u32) {
    let Some(body) = crate::installations::read_capped(path, RECIPE_CAP) else { return };
    let folder = path.parent().unwrap_or(Path::new("/"));
    for line in body.lines() {
        if !push_line(text, line) {
            return;
        }
        let mut words = line.split_whitespace();
        let (Some(first), Some(second)) = (words.next(), words.next()) else { continue };
        match first {
            "import" | "import?" => {
                let Some(name) = quoted(second) else { continue };
                let place = folder.join(name);
                if note_once(&mut read.included, &place, MAX_INCLUDED) && depth < MAX_INCLUDE_DEPTH
                {
                    read_justfile(&place, text, read, depth + 1);
                }
            }
            "mod" | "mod?" => {
                let places: Vec<PathBuf> = match words.next().and_then(quoted) {
                    Some(given) => {
                        let p = folder.join(given);
                        ["mod.just", "justfile", ".justfile"]
                            .iter()
                            .map(|f| p.join(f))
                            .chain([p.clone()])
                            .collect()
                    }
                    None => {
                        let d = folder.join(second);
                        let file = folder.join(format!("{second}.just"));
                        [file, d.join("mod.just"), d.join("justfile"), d.join(".justfile")].into()
                    }
                };
                for place in places {
                    let noted = note_once(&mut read.included, &place, MAX_INCLUDED);
                    if noted && place.is_file() && read.modules.len() < MAX_INCLUDED {
                        read.modules.push(place);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Adds to `read` the commands of the configuration at `path` read by the hook managers'
/// reader (pre-commit's, lefthook's, a Taskfile's); for a Taskfile (finding F77), also the
/// Taskfiles it `includes` (a file, or a folder's Taskfile by any of its names; relative to
/// the including file, existing or not, each read in turn: task runs their tasks and
/// evaluates their variables from the first Taskfile's folder) and the environment files its
/// `dotenv` names (relative to it), protected.
fn read_taskfile(path: &Path, read: &mut RecipeRead, depth: u32) {
    let values = crate::hookmanagers::read_config(path);
    let rooted = values.rooted.into_iter().map(|(_, run)| run);
    for line in values.commands.into_iter().chain(rooted) {
        if read.lines.len() < MAX_LINES && !read.lines.contains(&line) {
            read.lines.push(line);
        }
    }
    let folder = path.parent().unwrap_or(Path::new("/"));
    read.included.extend(values.dotenv.iter().map(|f| folder.join(f)).take(MAX_INCLUDED));
    // The folders its tasks run in (F91; checked with task 3.54 here: a task's `dir: web` ran
    // its `sh scripts/lint.sh` as `web/scripts/lint.sh`), `{{.USER_WORKING_DIR}}` where task
    // was started; another template is no folder known here.
    for dir in &values.dirs {
        if dir.contains("USER_WORKING_DIR") {
            read.from_caller = true;
        } else if !dir.contains("{{") && read.run_dirs.len() < MAX_INCLUDED {
            note_once(&mut read.run_dirs, &folder.join(dir), MAX_INCLUDED);
        }
    }
    for include in &values.includes {
        let given = folder.join(include);
        let is_file = include.ends_with(".yml") || include.ends_with(".yaml");
        let places: Vec<PathBuf> = match is_file {
            true => vec![given],
            false => crate::scripts::TASKFILES.iter().map(|n| given.join(n)).collect(),
        };
        for place in places {
            let noted = note_once(&mut read.included, &place, MAX_INCLUDED * 4);
            if noted && depth < MAX_INCLUDE_DEPTH && place.is_file() {
                read_taskfile(&place, read, depth + 1);
            }
        }
    }
}

/// The text of a quoted justfile string (`'…'` or `"…"`), without its quotes.
fn quoted(word: &str) -> Option<&str> {
    let inner = word.strip_prefix('\'').and_then(|w| w.strip_suffix('\''));
    inner.or_else(|| word.strip_prefix('"').and_then(|w| w.strip_suffix('"')))
}

/// The environment files a justfile's `set dotenv-load` (or `dotenv-filename`,
/// `dotenv-path`, `dotenv-required`) has just read: the file of that name (`.env` unless
/// named) in the justfile's folder and each folder above it, where just looks for it
/// (checked with just 1.59 here), and a `dotenv-path` from the justfile's folder.
fn dotenv_files(text: &str, justfile: &Path) -> Vec<PathBuf> {
    let settings: Vec<(&str, Option<&str>)> = (text.lines())
        .filter_map(|l| l.strip_prefix("set "))
        .map(|rest| match rest.split_once(":=") {
            Some((name, value)) => (name.trim(), quoted(value.trim())),
            None => (rest.trim(), None),
        })
        .collect();
    let set = |name: &str| settings.iter().find(|(n, _)| *n == name);
    let loads = ["dotenv-load", "dotenv-filename", "dotenv-path", "dotenv-required"]
        .iter()
        .any(|n| set(n).is_some_and(|(_, v)| *v != Some("false")));
    if !loads {
        return Vec::new();
    }
    let folder = justfile.parent().unwrap_or(Path::new("/"));
    let name = set("dotenv-filename").and_then(|(_, v)| *v).unwrap_or(".env");
    let mut out: Vec<PathBuf> = folder.ancestors().take(64).map(|d| d.join(name)).collect();
    out.extend(set("dotenv-path").and_then(|(_, v)| *v).map(|p| folder.join(p)));
    out
}

/// The command lines a justfile's text (with what it imports, [`read`]) runs for `targets`
/// (finding F74): the commands of every backtick and `shell(…)` on its lines that are no
/// recipe line (just evaluates its assignments at each run, whatever the recipe); the program
/// its `set shell` or `set script-interpreter` names; and the recipes of the named targets
/// (through their aliases; `module::recipe` names both), or of the default one (`[default]`,
/// else the first) when none is named, with those they depend on, each recipe line with the
/// justfile's string variables interpolated (`{{LINT}}`) and the commands of the backticks in
/// its `{{…}}` as lines of their own.
fn just_lines(text: &str, targets: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut default: Vec<String> = Vec::new();
    let mut next_is_default = false;
    let mut block: Option<Vec<String>> = None;
    let keep = |lines: &mut Vec<String>, part: &str| {
        if !part.trim().is_empty() {
            lines.push(part.trim().to_owned());
        }
    };
    for line in text.lines() {
        // A ```…``` backtick runs its lines as one command.
        if let Some(open) = block.as_mut() {
            match line.split_once("```") {
                Some((last, _)) => {
                    keep(open, last);
                    out.push(block.take().unwrap_or_default().join("\n"));
                }
                None => keep(open, line),
            }
            continue;
        }
        if line.starts_with([' ', '\t']) || line.trim_start().starts_with('#') {
            continue;
        }
        if let Some((_, after)) = line.split_once("```") {
            match after.split_once("```") {
                Some((command, _)) => out.push(command.trim().to_owned()),
                None => {
                    let mut open = Vec::new();
                    keep(&mut open, after);
                    block = Some(open);
                }
            }
            continue;
        }
        out.extend(backticks(line));
        out.extend(shell_function_calls(line));
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["set", "shell" | "script-interpreter", ":=", rest @ ..] => {
                let list = rest.join(" ");
                let program =
                    list.trim_start_matches('[').split(',').next().and_then(|w| quoted(w.trim()));
                out.extend(program.map(str::to_owned));
            }
            ["alias", name, ":=", target, ..] => {
                aliases.push(((*name).to_owned(), (*target).to_owned()))
            }
            [first, ..] if first.starts_with('[') => {
                next_is_default |= line.contains("default");
            }
            _ => {
                let assignment = line.trim_start_matches("export ").split_once(":=");
                if let Some((name, value)) = assignment
                    && let Some(value) = quoted(value.trim())
                    && !name.trim().contains(char::is_whitespace)
                {
                    vars.push((name.trim().to_owned(), value.to_owned()));
                } else if next_is_default && let Some((names, _)) = just_rule(line) {
                    default.extend(names);
                    next_is_default = false;
                }
            }
        }
    }
    out.extend(block.map(|lines| lines.join("\n")));
    let rules = rules(text, just_rule, just_body);
    let mut named: Vec<String> = Vec::new();
    for target in targets {
        for part in target.split("::") {
            let part = (aliases.iter().find(|(a, _)| a == part)).map_or(part, |(_, t)| t.as_str());
            named.push(part.to_owned());
        }
    }
    let mut wanted = wanted_or_first(&rules, &named, &[]);
    if !rules.iter().any(|r| named.iter().any(|n| r.makes(n))) && !default.is_empty() {
        wanted = default;
    }
    // What the interpolations may add in all, as for a makefile's expansions.
    let mut budget = RECIPE_CAP as usize * 4;
    for line in recipe_lines(&rules, wanted, |line| interpolate(line, &vars, &mut budget)) {
        for part in line.split("{{").skip(1) {
            out.extend(backticks(part.split("}}").next().unwrap_or_default()));
        }
        out.push(line);
    }
    out
}

/// The folders a justfile's recipes run in besides its own (finding F90; checked with just
/// 1.59 here): `set working-directory := 'tools'` runs every recipe in `tools/` under the
/// justfile's folder (or at an absolute path), a recipe's `[working-directory: 'sub']` (or
/// `[working-directory('sub')]`) in `sub/` under that; and whether a recipe is `[no-cd]`,
/// which runs where just was started.
pub(crate) fn just_working_dirs(text: &str, folder: &Path) -> (Vec<PathBuf>, bool) {
    let value = |rest: &str| -> Option<String> {
        let rest = rest.trim_start_matches([':', '=', '(', ' ', '\t']);
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let rest = rest.get(1..)?;
        Some(rest.get(..rest.find(quote)?)?.to_owned())
    };
    let mut setting: Option<PathBuf> = None;
    let mut attributes: Vec<String> = Vec::new();
    let mut no_cd = false;
    for line in text.lines().filter(|l| !l.starts_with([' ', '\t'])) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["set", "working-directory", ":=", ..] = words.as_slice() {
            let rest = line.split_once(":=").map(|(_, r)| r.trim()).unwrap_or_default();
            setting = value(rest).map(|dir| folder.join(dir));
        } else if line.trim_start().starts_with('[') {
            no_cd |= line.contains("no-cd");
            for part in line.split("working-directory").skip(1) {
                attributes.extend(value(part));
            }
        }
    }
    let base = setting.clone().unwrap_or_else(|| folder.to_path_buf());
    let mut dirs: Vec<PathBuf> = setting.into_iter().collect();
    dirs.extend(attributes.iter().take(16).map(|a| base.join(a)));
    dirs.sort();
    dirs.dedup();
    (dirs, no_cd)
}

/// The tasks Turborepo runs for the words `targets` of its line (finding F92; checked with
/// turbo 2 here: `turbo run lint` ran each package's `lint` script and, for `lint`'s
/// `dependsOn: ["build"]`, each package's `build` first): each word that is a task of
/// `turbo.json`'s `tasks` (or of turbo 1's `pipeline`), with what their `dependsOn` name, in
/// turn (`^build` and `pkg#build` as `build`), at most [`MAX_LINES`]. A word that is no task
/// of the file is taken as one all the same when it is no subcommand (turbo runs a package's
/// script of that name without a task entry only when the file has none; protect more).
pub(crate) fn turbo_tasks(text: &str, targets: &[String]) -> Vec<String> {
    let text = hooks_json::strip_comments(text);
    let value = serde_json::from_str::<serde_json::Value>(&text).unwrap_or_default();
    let tasks = value.get("tasks").or_else(|| value.get("pipeline")).and_then(|t| t.as_object());
    let name_of = |task: &str| -> String {
        let task = task.rsplit_once('#').map_or(task, |(_, t)| t);
        task.trim_start_matches('^').to_owned()
    };
    let mut out: Vec<String> = (targets.iter())
        .filter(|t| !matches!(t.as_str(), "run" | "watch" | "prune" | "ls" | "query" | "info"))
        .map(|t| name_of(t))
        .filter(|t| !t.is_empty())
        .collect();
    // `lint`, `web#lint`, `//#lint`: every entry that names the task.
    with_dependencies(&mut out, |task| {
        (tasks.into_iter().flatten())
            .filter(|(key, _)| name_of(key) == task)
            .filter_map(|(_, entry)| entry.get("dependsOn").and_then(|d| d.as_array()))
            .flatten()
            .filter_map(|d| d.as_str())
            .map(name_of)
            .collect()
    });
    out.dedup();
    out
}

/// `names` with the names `depends_on` gives for each of them, in turn, each once and none
/// empty, at most [`MAX_LINES`] (a task runner's tasks with those they depend on: Turborepo's
/// `dependsOn`, Nx's `targetDefaults`).
fn with_dependencies(names: &mut Vec<String>, depends_on: impl Fn(&str) -> Vec<String>) {
    let mut i = 0;
    while let Some(name) = names.get(i).cloned() {
        i += 1;
        for dep in depends_on(&name) {
            if !dep.is_empty() && !names.contains(&dep) && names.len() < MAX_LINES {
                names.push(dep);
            }
        }
    }
}

/// What Nx runs of the workspace whose `nx.json` is at `path` for the words `targets` of its
/// line (finding F93; checked with nx 21 here: `nx run-many -t lint` ran the `lint` script of
/// an npm workspace's package and the `command` of a `project.json`'s `nx:run-commands`
/// target): the targets are the values of `-t`/`--targets` and the words that are no
/// subcommand (`lint` of `nx lint a`, `a:lint` as `lint`), with those `targetDefaults`'
/// `dependsOn` name, in turn; none named (`--targets=lint` is one word the analysis leaves
/// out) stands for every target. Its lines are the commands of those targets in the
/// `project.json` files of the root and of its folders two levels down (where Nx finds
/// them by a glob of the whole tree), run from the root or their `cwd`; the manifests'
/// scripts of those names are read by the workspaces' reader ([`RecipeRead::scripts`]);
/// the `project.json` files read and the files `nx.json` names by a relative path (a local
/// plugin) are protected.
fn read_nx(path: &Path, targets: &[String]) -> RecipeRead {
    let mut read = RecipeRead::default();
    let Some(root) = path.parent() else { return read };
    let text = crate::installations::read_capped(path, RECIPE_CAP).unwrap_or_default();
    let text = hooks_json::strip_comments(&text);
    let nx = serde_json::from_str::<serde_json::Value>(&text).unwrap_or_default();
    read.included.extend(
        crate::imports::configuration_paths(&text, root)
            .into_iter()
            .map(|(p, _)| p)
            .take(MAX_INCLUDED),
    );
    let subcommands = ["run", "run-many", "affected", "exec", "graph", "show", "reset", "daemon"];
    let mut wanted: Vec<String> = Vec::new();
    for word in targets.iter().flat_map(|t| t.split(',')) {
        let name = match word.split(':').nth(1) {
            Some(target) => target,
            None if subcommands.contains(&word) || word.starts_with('-') => continue,
            None => word,
        };
        if !name.is_empty() && !wanted.iter().any(|w| w == name) && wanted.len() < MAX_LINES {
            wanted.push(name.to_owned());
        }
    }
    let all = wanted.is_empty();
    let defaults = nx.get("targetDefaults").and_then(|d| d.as_object());
    with_dependencies(&mut wanted, |name| {
        let list = defaults.and_then(|d| d.get(name)).and_then(|t| t.get("dependsOn"));
        (list.and_then(|d| d.as_array()).into_iter().flatten())
            .filter_map(|d| d.as_str().or_else(|| d.get("target").and_then(|t| t.as_str())))
            .map(|d| d.trim_start_matches('^').to_owned())
            .collect()
    });
    for project in nx_project_files(root) {
        note_once(&mut read.included, &project, MAX_INCLUDED * 4);
        let Some(text) = crate::installations::read_capped(&project, RECIPE_CAP) else { continue };
        let value = serde_json::from_str::<serde_json::Value>(&hooks_json::strip_comments(&text))
            .unwrap_or_default();
        let Some(project_targets) = value.get("targets").and_then(|t| t.as_object()) else {
            continue;
        };
        for (name, target) in project_targets {
            if !all && !wanted.contains(name) {
                continue;
            }
            let Some(options) = target.get("options") else { continue };
            let mut commands: Vec<&str> =
                options.get("command").and_then(|c| c.as_str()).into_iter().collect();
            let list = options.get("commands").and_then(|c| c.as_array());
            commands.extend(
                (list.into_iter().flatten()).filter_map(|c| {
                    c.as_str().or_else(|| c.get("command").and_then(|c| c.as_str()))
                }),
            );
            for command in commands {
                if read.lines.len() < MAX_LINES && !read.lines.iter().any(|l| l == command) {
                    read.lines.push(command.to_owned());
                }
            }
            if let Some(cwd) = options.get("cwd").and_then(|c| c.as_str()) {
                note_once(&mut read.run_dirs, &root.join(cwd), MAX_INCLUDED);
            }
        }
    }
    read.scripts = match all {
        true => vec!["**".to_owned()],
        false => wanted,
    };
    read.lines = tidy(std::mem::take(&mut read.lines));
    read
}

/// The `project.json` files of an Nx workspace at `root`: its own, and those of its folders
/// one and two levels down (neither `node_modules` nor a dot-folder), at most 64.
fn nx_project_files(root: &Path) -> Vec<PathBuf> {
    let subfolders = |dir: &Path| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
        (entries.flatten().take(1024))
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| {
                e.file_name().to_str().is_some_and(|n| n != "node_modules" && !n.starts_with('.'))
            })
            .map(|e| e.path())
            .collect()
    };
    let mut folders = vec![root.to_path_buf()];
    for first in subfolders(root) {
        folders.extend(subfolders(&first));
        folders.push(first);
    }
    let mut out: Vec<PathBuf> =
        folders.iter().map(|f| f.join("project.json")).filter(|p| p.is_file()).take(64).collect();
    out.sort();
    out
}

/// The commands of a justfile line's `` `…` `` backticks.
fn backticks(line: &str) -> Vec<String> {
    (line.split('`').skip(1).step_by(2))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .take(16)
        .collect()
}

/// The commands of a justfile line's `shell('…', …)` calls (their first argument, a string).
fn shell_function_calls(line: &str) -> Vec<String> {
    (line.split("shell(").skip(1))
        .filter_map(|call| {
            let call = call.trim_start();
            let quote = call.chars().next().filter(|c| *c == '\'' || *c == '"')?;
            let rest = call.get(1..)?;
            Some(rest.get(..rest.find(quote)?)?.to_owned())
        })
        .filter(|c| !c.trim().is_empty())
        .take(16)
        .collect()
}

/// A justfile's recipe line with its string variables interpolated: `{{NAME}}` (blanks
/// inside allowed) by the value of `vars`' `NAME`, while the bytes they add stay within
/// `budget`; any other `{{…}}` left as it is.
fn interpolate(line: &str, vars: &[(String, String)], budget: &mut usize) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("{{") {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at + 2..).unwrap_or_default();
        let Some(end) = after.find("}}") else {
            out.push_str("{{");
            rest = after;
            continue;
        };
        let name = after.get(..end).unwrap_or_default().trim();
        match vars.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) if value.len() <= *budget => {
                *budget -= value.len();
                out.push_str(value);
            }
            _ => {
                out.push_str("{{");
                out.push_str(after.get(..end + 2).unwrap_or_default());
            }
        }
        rest = after.get(end + 2..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// At most this many workspace packages are read for one run in the workspaces.
const MAX_WORKSPACES: usize = 64;

/// The manifests of the workspace packages the manifest at `manifest` and the
/// `pnpm-workspace.yaml` beside it list (finding F78): each pattern of its `workspaces` (a
/// list, or `{"packages": [...]}`) and of pnpm's `packages:` list, relative to its folder,
/// with `*` (and `**`, read as `*`) matching a folder's entries; `!` patterns are left out
/// (protecting more); the `package.json` of each folder found (at most 64).
pub(crate) fn workspace_manifests(manifest: &Path) -> Vec<PathBuf> {
    let Some(folder) = manifest.parent() else { return Vec::new() };
    let mut patterns: Vec<String> = Vec::new();
    if let Some(text) = crate::installations::read_capped(manifest, RECIPE_CAP)
        && let Ok(value) = serde_json::from_str::<serde_json::Value>(&text)
    {
        let list = value.get("workspaces").map(|w| w.get("packages").unwrap_or(w));
        let items = list.and_then(|l| l.as_array()).into_iter().flatten();
        patterns.extend(items.filter_map(|p| p.as_str()).map(str::to_owned));
    }
    if let Some(text) =
        crate::installations::read_capped(&folder.join("pnpm-workspace.yaml"), RECIPE_CAP)
    {
        let mut in_packages = false;
        for line in text.lines() {
            if !line.starts_with([' ', '\t', '-']) {
                in_packages = line.trim_end() == "packages:";
                continue;
            }
            if let Some(item) = line.trim().strip_prefix('-').filter(|_| in_packages) {
                let item = item.trim().trim_matches(['\'', '"']);
                patterns.push(item.to_owned());
            }
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for pattern in patterns.iter().filter(|p| !p.starts_with('!')) {
        for dir in expand_folders(folder, pattern) {
            let manifest = dir.join("package.json");
            if out.len() < MAX_WORKSPACES && !out.contains(&manifest) && manifest.is_file() {
                out.push(manifest);
            }
        }
    }
    out
}

/// The folders under `folder` a workspace's pattern of folders names (`packages/*`,
/// `crates/*/sub`; `*`, `?` and `[…]` read as `*`, hidden folders left out), at most
/// `4 × MAX_WORKSPACES`; a part without a wildcard is taken as it is, existing or not.
pub(crate) fn expand_folders(folder: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut dirs = vec![folder.to_path_buf()];
    for part in pattern.split('/').filter(|p| !p.is_empty() && *p != ".") {
        let mut next: Vec<PathBuf> = Vec::new();
        for dir in &dirs {
            if !part.contains(['*', '?', '[']) {
                next.push(dir.join(part));
                continue;
            }
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            let part = loose_pattern(part);
            for entry in entries.flatten().take(MAX_WORKSPACES * 4) {
                let name = entry.file_name();
                let Some(name) = name.to_str() else { continue };
                if !name.starts_with('.') && folder_glob_matches(&part, name) {
                    next.push(dir.join(name));
                }
            }
        }
        dirs = next;
        dirs.truncate(MAX_WORKSPACES * 4);
    }
    dirs
}

/// A folder pattern's part with `?` and each `[…]` class read as `*` (matching more).
fn loose_pattern(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut class = false;
    for c in part.chars() {
        match (class, c) {
            (true, ']') => class = false,
            (true, _) => {}
            (false, '[') => {
                class = true;
                out.push('*');
            }
            (false, '?') => out.push('*'),
            (false, c) => out.push(c),
        }
    }
    out
}

/// Whether the script name `name` matches `pattern` as npm-run-all matches its patterns
/// (`lint:*`: `*` any characters but `:`, `**` any characters; finding F75); a pattern with
/// neither matches nothing here.
fn script_pattern_matches(pattern: &str, name: &str) -> bool {
    pattern.contains('*') && glob_matches(pattern, name, Some(b':'))
}

/// Whether a folder's name matches one part of a workspace pattern (finding F78): `*` any
/// characters.
fn folder_glob_matches(part: &str, name: &str) -> bool {
    glob_matches(part, name, None)
}

/// Whether `name` matches `pattern`, where `**` stands for any characters and `*` for any but
/// `separator`; a pattern too costly to follow matches (protecting more).
fn glob_matches(pattern: &str, name: &str, separator: Option<u8>) -> bool {
    fn matches(p: &[u8], n: &[u8], separator: Option<u8>, steps: &mut u32) -> bool {
        *steps += 1;
        if *steps > 100_000 {
            return true;
        }
        let from = |rest: &[u8], i: usize, steps: &mut u32| {
            matches(rest, n.get(i..).unwrap_or_default(), separator, steps)
        };
        match p {
            [] => n.is_empty(),
            [b'*', b'*', rest @ ..] => (0..=n.len()).any(|i| from(rest, i, steps)),
            [b'*', rest @ ..] => {
                let run = n.iter().take_while(|c| Some(**c) != separator).count();
                (0..=run).any(|i| from(rest, i, steps))
            }
            [c, rest @ ..] => n.first() == Some(c) && from(rest, 1, steps),
        }
    }
    matches(pattern.as_bytes(), name.as_bytes(), separator, &mut 0)
}

/// The commands of a `tox.toml`'s, or of a `pyproject.toml`'s `[tool.tox]`, tables (finding
/// F76; checked with tox 4.67 here): every `commands`, `commands_pre` and `commands_post`
/// list of argument lists, each as a command line (its arguments quoted where the shell
/// would split or expand them; a substitution such as `{ replace = "posargs" }` left out), and
/// a `legacy_tox_ini` string read as a `tox.ini`. Tox runs them without a shell, one per
/// environment; every environment's are read.
fn tox_toml_commands(text: &str) -> Vec<String> {
    let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    let root = document.as_item();
    let start = match root.get("tool").and_then(|t| t.get("tox")) {
        Some(tox) => tox,
        None => root,
    };
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<&toml_edit::Item> = vec![start];
    while let Some(item) = stack.pop() {
        let Some(table) = item.as_table_like() else { continue };
        for (key, value) in table.iter() {
            match key {
                "commands" | "commands_pre" | "commands_post" => {
                    let commands = value.as_array().into_iter().flat_map(|a| a.iter());
                    for command in commands {
                        let words = command.as_array().into_iter().flat_map(|a| a.iter());
                        let words: Vec<String> =
                            words.filter_map(|w| w.as_str()).map(shell_word).collect();
                        if !words.is_empty() {
                            out.push(words.join(" "));
                        }
                    }
                }
                "legacy_tox_ini" => {
                    out.extend(value.as_str().map(tox_commands).unwrap_or_default())
                }
                _ => stack.push(value),
            }
            if out.len() >= MAX_LINES {
                return out;
            }
        }
    }
    out
}

/// `word` as one word of a shell line: as it is when the shell would take it so, else
/// single-quoted (a `'` in it written `'\''`).
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%{}".contains(c));
    if plain { word.to_owned() } else { crate::hookmanagers::shell_quote(word) }
}

/// One rule of a makefile or a justfile: the targets it makes, those it depends on, the lines
/// of its recipe.
#[derive(Debug, Default)]
struct Rule {
    targets: Vec<String>,
    depends: Vec<String>,
    body: Vec<String>,
}

/// A makefile's rule line (`check build: lint test`; not a variable's `X := y` or `X = y`):
/// its targets and prerequisites (order-only ones too).
fn make_rule(line: &str) -> Option<(Vec<String>, Vec<String>)> {
    if line.starts_with(['\t', '#']) || line.trim().is_empty() {
        return None;
    }
    let colon = line.find(':')?;
    let (before, after) = (line.get(..colon)?, line.get(colon..)?);
    if before.contains('=') || after.starts_with(":=") {
        return None;
    }
    let targets = before.split_whitespace().map(str::to_owned).collect();
    let after = after.trim_start_matches(':');
    let after = after.split(';').next().unwrap_or_default();
    let depends = after.split_whitespace().filter(|w| *w != "|").map(str::to_owned).collect();
    Some((targets, depends))
}

/// A justfile's recipe header (`[@]name param='x': dep (dep2 "arg") && after`): its name and
/// the recipes it depends on, before and after it.
fn just_rule(line: &str) -> Option<(Vec<String>, Vec<String>)> {
    if line.starts_with([' ', '\t', '#', '[']) || line.trim().is_empty() {
        return None;
    }
    let first = line.split_whitespace().next()?;
    if matches!(first, "set" | "export" | "alias" | "import" | "mod" | "unexport") {
        return None;
    }
    let colon = line.find(':')?;
    if line.get(colon..)?.starts_with(":=") {
        return None;
    }
    let name = first.trim_start_matches('@').trim_end_matches(':');
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return None;
    }
    let is_name =
        |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let depends = (line.get(colon + 1..)?.split_whitespace())
        .map(|w| w.trim_start_matches('('))
        .filter(is_name)
        .map(str::to_owned)
        .collect();
    Some((vec![name.to_owned()], depends))
}

/// A justfile's recipe line (indented), without its indentation.
fn just_body(line: &str) -> Option<&str> {
    line.starts_with([' ', '\t']).then(|| line.trim_start())
}

/// The rules of a makefile's or a justfile's text: `header` reads a rule's line, `body` a line
/// of its recipe (its text after the indentation); the recipe lines lose the prefixes that
/// only change how a line is echoed or its failure handled (`@`, `-`, make's `+`), and a line
/// a trailing `\` continues is joined to the next. At most 256 rules.
fn rules<'a>(
    text: &'a str,
    header: impl Fn(&'a str) -> Option<(Vec<String>, Vec<String>)>,
    body: impl Fn(&'a str) -> Option<&'a str>,
) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        if pending.is_none()
            && let Some((targets, depends)) = header(line)
        {
            if out.len() >= MAX_LINES {
                break;
            }
            out.push(Rule { targets, depends, body: Vec::new() });
            continue;
        }
        let part = match (&pending, body(line)) {
            (Some(_), _) => line,
            (None, Some(b)) if !b.trim_start().starts_with('#') => {
                b.trim_start_matches(['@', '-', '+'])
            }
            (None, _) => continue,
        };
        if let Some(joined) = join_part(&mut pending, part)
            && let Some(rule) = out.last_mut()
        {
            rule.body.push(joined);
        }
    }
    if let (Some(last), Some(rule)) = (pending, out.last_mut()) {
        rule.body.push(last);
    }
    out
}

/// The names of `targets` a rule of `rules` makes; when none does, the first target of a rule
/// that is not special (`.PHONY`) nor a pattern (`%.o`), and the names of `defaults` (make's
/// `.DEFAULT_GOAL`).
fn wanted_or_first(rules: &[Rule], targets: &[String], defaults: &[String]) -> Vec<String> {
    let mut wanted: Vec<String> =
        targets.iter().filter(|t| rules.iter().any(|r| r.makes(t))).cloned().collect();
    if wanted.is_empty() {
        let first = (rules.iter().flat_map(|r| &r.targets))
            .find(|t| !t.starts_with('.') && !t.contains('%'));
        wanted.extend(first.cloned());
        wanted.extend(defaults.iter().cloned());
    }
    wanted
}

impl Rule {
    fn makes(&self, name: &str) -> bool {
        self.targets.iter().any(|t| t == name)
    }

    /// The stem of `name` when one of this rule's targets is a pattern (`%.o`, `%`) that
    /// matches it.
    fn stem<'n>(&self, name: &'n str) -> Option<&'n str> {
        self.targets.iter().find_map(|t| {
            let (prefix, suffix) = t.split_once('%')?;
            let rest = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
            Some(rest)
        })
    }
}

/// The recipe lines `rules` run for the names `wanted`, with those of the rules they depend
/// on, each rule once, each line as `line` gives it. A name no rule makes is made, in a
/// makefile (whose rules may have patterns), by the pattern rules that match it, or by the
/// `.DEFAULT` rule when none does.
fn recipe_lines(
    rules: &[Rule],
    mut wanted: Vec<String>,
    mut line: impl FnMut(&String) -> String,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    let mut next = 0;
    while let Some(name) = wanted.get(next).cloned() {
        next += 1;
        let explicit: Vec<(usize, Option<&str>)> = (rules.iter().enumerate())
            .filter(|(_, r)| r.makes(&name))
            .map(|(i, _)| (i, None))
            .collect();
        let making = if explicit.is_empty() {
            let patterns: Vec<(usize, Option<&str>)> = (rules.iter().enumerate())
                .filter_map(|(i, r)| Some((i, Some(r.stem(&name)?))))
                .collect();
            match patterns.is_empty() {
                true => (rules.iter().enumerate())
                    .filter(|(_, r)| r.makes(".DEFAULT"))
                    .map(|(i, _)| (i, None))
                    .collect(),
                false => patterns,
            }
        } else {
            explicit
        };
        for (index, stem) in making {
            let Some(rule) = rules.get(index) else { continue };
            if done.contains(&index) && stem.is_none() {
                continue;
            }
            if !done.contains(&index) {
                done.push(index);
                out.extend(rule.body.iter().map(&mut line));
            }
            for dep in &rule.depends {
                // The stem stands for a prerequisite's `%` (its first, as make reads it); a
                // name that grows through a chain of patterns is followed up to a length.
                let dep = match stem {
                    Some(stem) => dep.replacen('%', stem, 1),
                    None => dep.clone(),
                };
                if !wanted.contains(&dep) && wanted.len() < MAX_LINES && dep.len() <= MAX_NAME {
                    wanted.push(dep);
                }
            }
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out
}

/// The command lines a makefile's text `text` (with what it includes, [`read`]) runs for
/// `targets`, the words of the line (finding F72), when make reads it as one of `makefiles`
/// (the names it remakes it by) (finding F73): the commands of every `$(shell …)` and `!=` of
/// its lines that are no recipe line (make runs them while it reads the file, whatever the
/// targets); the program its `SHELL` names; the recipes of the targets named, or of the
/// default goal (the first target, and `.DEFAULT_GOAL`), with their prerequisites', pattern
/// rules and `.DEFAULT` for a name no rule makes, and those of the included files and the
/// makefile itself (make remakes them first by their rules); each recipe line with the
/// makefile's variables expanded (the last value given; `$(MAKE)` is `make` unless set), `$$`
/// as the shell's `$`, and the commands of its `$(shell …)` as lines of their own.
fn make_lines(text: &str, targets: &[String], makefiles: &[String]) -> Vec<String> {
    let joined = join_continued(text);
    let rules = rules(text, make_rule, |line| line.strip_prefix('\t'));
    let vars = make_variables(&joined);
    let value = |name: &str| vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    // What the expansions may add in all, so that no text makes them grow without end.
    let mut budget = RECIPE_CAP as usize * 4;
    let mut out: Vec<String> = Vec::new();
    for line in joined.iter().filter(|l| !l.starts_with('\t')) {
        if line.contains('$') {
            out.extend(shell_calls(&expand(line, &vars, 0, &mut budget)));
        }
        let command = assignment_name(line)
            .and_then(|(_, op)| line.get(op..)?.strip_prefix("!="))
            .map(str::trim)
            .filter(|c| !c.is_empty());
        if let Some(command) = command {
            out.push(expand(command, &vars, 0, &mut budget));
        }
    }
    if let Some(shell) = value("SHELL") {
        out.push(expand(&shell, &vars, 0, &mut budget));
    }
    let defaults: Vec<String> = value(".DEFAULT_GOAL")
        .map(|g| g.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let mut wanted = wanted_or_first(&rules, targets, &defaults);
    // Every word the line names that a pattern rule or `.DEFAULT` would make, too.
    let implicit = |t: &&String| rules.iter().any(|r| r.stem(t).is_some() || r.makes(".DEFAULT"));
    wanted.extend(targets.iter().filter(implicit).filter(|t| !t.starts_with('.')).cloned());
    let remade = joined.iter().flat_map(|l| include_names(l.as_str())).map(str::to_owned);
    wanted.extend(remade.chain(makefiles.iter().cloned()));
    let mut seen: Vec<String> = Vec::new();
    wanted.retain(|w| {
        let new = !seen.contains(w);
        seen.push(w.clone());
        new
    });
    for line in recipe_lines(&rules, wanted, |line| expand(line, &vars, 0, &mut budget)) {
        out.extend(shell_calls(&line));
        out.push(line.replace("$$", "$"));
    }
    out
}

/// A makefile's lines with each one a trailing `\` continues joined to the next.
fn join_continued(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        out.extend(join_part(&mut pending, line));
    }
    out.extend(pending);
    out
}

/// `part`, a line or a recipe line's text, joined to what a trailing `\` left in `pending`
/// (without the blanks that start it then): the whole line once it ends, `None` while a `\`
/// continues it.
fn join_part(pending: &mut Option<String>, part: &str) -> Option<String> {
    let (part, continued) = match part.strip_suffix('\\') {
        Some(p) => (p, true),
        None => (part, false),
    };
    let joined = match pending.take() {
        Some(mut before) => {
            before.push(' ');
            before.push_str(part.trim_start());
            before
        }
        None => part.to_owned(),
    };
    if continued {
        *pending = Some(joined);
        None
    } else {
        Some(joined)
    }
}

/// The variable a makefile's line assigns (`NAME = …`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`;
/// after `override`, `export` or `private`), with the operator's first byte's index; `None`
/// for a recipe line, a rule (`a: b`) or a target's own variable (`a: X = 1`).
fn assignment_name(line: &str) -> Option<(&str, usize)> {
    if line.starts_with('\t') {
        return None;
    }
    let eq = line.find('=')?;
    let before = line.get(..eq)?;
    let op_start = before.trim_end_matches([':', '?', '+', '!']).len();
    let mut name = before.get(..op_start)?.trim();
    for keyword in ["override ", "export ", "private "] {
        name = name.strip_prefix(keyword).map_or(name, str::trim);
    }
    let plain = !name.is_empty() && !name.contains([':', ' ', '\t', '$', '#', '(', ')']);
    plain.then_some((name, op_start))
}

/// A makefile's variables in the order its lines give them: `(name, value)`, a `+=` giving
/// the value before with its own appended; at most 256. A `!=` variable's value is its
/// command's output, which is unknown: left out.
fn make_variables(lines: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in lines {
        let Some((name, op)) = assignment_name(line) else { continue };
        let Some(rest) = line.get(op..) else { continue };
        let Some((operator, value)) = rest.split_once('=') else { continue };
        let value = value.split(" #").next().unwrap_or_default().trim();
        let value = match operator {
            "!" => continue,
            "+" => match out.iter().rev().find(|(n, _)| n == name) {
                Some((_, before)) => format!("{before} {value}"),
                None => value.to_owned(),
            },
            _ => value.to_owned(),
        };
        if out.len() >= MAX_LINES {
            break;
        }
        out.push((name.to_owned(), value));
    }
    out
}

/// `text` with the makefile's variables `vars` expanded (`$(NAME)`, `${NAME}`; the last value
/// given; `$(MAKE)` is `make` unless set), values expanded in turn up to 4 deep, while the
/// bytes they add stay within `budget` (then left as they are); `$$` and whatever else make
/// would expand are left as they are.
fn expand(text: &str, vars: &[(String, String)], depth: u32, budget: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at + 1..).unwrap_or_default();
        if let Some(tail) = after.strip_prefix('$') {
            out.push_str("$$");
            rest = tail;
            continue;
        }
        let close = match after.chars().next() {
            Some('(') => ')',
            Some('{') => '}',
            _ => {
                out.push('$');
                rest = after;
                continue;
            }
        };
        let Some(end) = after.find(close) else {
            out.push('$');
            rest = after;
            continue;
        };
        let name = after.get(1..end).unwrap_or_default();
        let value = vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let value = value.or((name == "MAKE").then_some("make"));
        match value {
            Some(v) if depth < 4 && v.len() <= *budget => {
                *budget -= v.len();
                out.push_str(&expand(v, vars, depth + 1, budget));
            }
            _ => {
                out.push('$');
                out.push_str(after.get(..=end).unwrap_or_default());
            }
        }
        rest = after.get(end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The commands of the `$(shell …)` and `${shell …}` calls in `text` (nested ones too, each
/// as a command of its own), at most 16; `$$(shell …)` is the shell's own.
fn shell_calls(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() && out.len() < 16 {
        if bytes.get(i) == Some(&b'$') && bytes.get(i + 1) == Some(&b'$') {
            i += 2;
            continue;
        }
        let (open, close) = match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'$'), Some(b'(')) => (b'(', b')'),
            (Some(b'$'), Some(b'{')) => (b'{', b'}'),
            _ => {
                i += 1;
                continue;
            }
        };
        let start = i + 2;
        let call = text.get(start..).unwrap_or_default();
        let Some(body) = call.strip_prefix("shell").filter(|b| b.starts_with([' ', '\t'])) else {
            i += 1;
            continue;
        };
        let mut level = 1usize;
        let mut end = None;
        for (j, b) in body.bytes().enumerate() {
            if b == open {
                level += 1;
            } else if b == close {
                level -= 1;
                if level == 0 {
                    end = Some(j);
                    break;
                }
            }
        }
        let command = body.get(..end.unwrap_or(body.len())).unwrap_or_default().trim();
        if !command.is_empty() {
            out.push(command.to_owned());
        }
        // On from inside the call: the calls nested in it are found in turn.
        i = start;
    }
    out.truncate(16);
    out
}

#[cfg(test)]
mod tests;
