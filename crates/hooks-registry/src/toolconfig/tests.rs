//! What linters' and formatters' configuration files name to load (mypy's, flake8's, ruff's,
//! biome's, TypeScript's, rubocop's), read as the tools read them.

use super::*;
use proptest::prelude::*;

fn files(name: &str, text: &str) -> Vec<String> {
    loads(name, text).files
}

#[test]
fn mypy_s_plugins_are_files_or_modules_from_the_configuration_s_folder() {
    let ini = "[mypy]\nstrict = True\nplugins = tools/plug.py, pkg.checks:entry,\n    \
               pydantic.mypy\n\n[mypy-tests.*]\nplugins = ignored_here\n";
    assert_eq!(
        files("mypy.ini", ini),
        [
            "tools/plug.py",
            "pkg/checks.py",
            "pkg/checks/__init__.py",
            "pydantic/mypy.py",
            "pydantic/mypy/__init__.py",
        ]
    );
    // The same in setup.cfg and `.mypy.ini`; another section's `plugins` is not mypy's.
    assert_eq!(files("setup.cfg", "[metadata]\nplugins = x.py\n[mypy]\nplugins=a.py\n"), ["a.py"]);
    assert_eq!(files(".mypy.ini", "[mypy]\n# plugins = no.py\nplugins: ./p.py\n"), ["./p.py"]);
    let toml = "[project]\nname = \"x\"\n[tool.mypy]\nplugins = [\"tools/p.py\", \"m.plug\"]\n";
    assert_eq!(files("pyproject.toml", toml), ["tools/p.py", "m/plug.py", "m/plug/__init__.py"]);
    assert_eq!(
        files("pyproject.toml", "[tool.mypy]\nplugins = \"a.py, b.py\"\n"),
        ["a.py", "b.py"]
    );
}

#[test]
fn flake8_s_local_plugin_paths_are_folders() {
    let ini = "[flake8]\nmax-line-length = 100\n[flake8:local-plugins]\nextension =\n    \
               XP = fplug:P\npaths =\n    ./tools,\n    ../shared/lint\n";
    let l = loads(".flake8", ini);
    assert_eq!(l.folders, ["./tools", "../shared/lint"]);
    assert!(l.files.is_empty(), "{l:?}");
    assert_eq!(
        loads("tox.ini", "[flake8:local-plugins]\npaths = ./a ./b\n").folders,
        ["./a", "./b"]
    );
}

#[test]
fn ruff_s_extend_is_a_file_it_reads_in_turn() {
    let extends = |name: &str, text: &str| loads(name, text).extends;
    let ruff = "extend = \"tools/base.toml\"\nline-length = 99\n";
    assert_eq!(extends("ruff.toml", ruff), ["tools/base.toml"]);
    assert_eq!(extends(".ruff.toml", "extend = \"../ruff.toml\"\n"), ["../ruff.toml"]);
    let toml = "[tool.ruff]\nextend = \"cfg/ruff.toml\"\n[tool.ruff.lint]\nselect = [\"E\"]\n";
    assert_eq!(extends("pyproject.toml", toml), ["cfg/ruff.toml"]);
    // A pyproject's top-level `extend` is nobody's; the home and variables cannot be placed.
    assert!(extends("pyproject.toml", "extend = \"x.toml\"\n").is_empty());
    assert!(extends("ruff.toml", "extend = \"~/base.toml\"\n").is_empty());
    assert!(files("ruff.toml", ruff).is_empty());
}

#[test]
fn biome_s_and_typescript_s_extends_are_files_they_read_in_turn() {
    let extends = |name: &str, text: &str| loads(name, text).extends;
    // Comments and trailing commas, as both accept them; a package's name is not a file.
    let biome = "{\n  // shared\n  \"extends\": [\"./cfg/base.json\", \"ultracite\", \"../x.jsonc\",],\n}\n";
    assert_eq!(extends("biome.json", biome), ["./cfg/base.json", "../x.jsonc"]);
    assert_eq!(extends(".biome.jsonc", "{\"extends\": \"/etc/b.json\"}"), ["/etc/b.json"]);
    // TypeScript adds `.json` to a name without it; a string's `//` and `,]` are the string's.
    let ts = "{ /* base */ \"extends\": \"./tsconfig.base\", \"o\": {\"a\": \"//,]\"}, }";
    assert_eq!(extends("tsconfig.json", ts), ["./tsconfig.base", "./tsconfig.base.json"]);
    let js = "{\"extends\": [\"@tsconfig/node20/tsconfig.json\", \"../t.json\"]}";
    assert_eq!(extends("jsconfig.json", js), ["../t.json"]);
    assert!(extends("tsconfig.json", "{\"extends\": 3}").is_empty());
    // pyright's `extends` is a file's path as it is (finding F84).
    let pyright = "{\"extends\": \"./cfg/base\", \"typeCheckingMode\": \"strict\"}";
    assert_eq!(extends("pyrightconfig.json", pyright), ["./cfg/base"]);
}

/// ts-node's `require` entries that are paths are files it runs (F127); a package's name is
/// not, nor the same key in another configuration. A `tsconfig.json`'s `paths`, `baseUrl`
/// and path-like `extends` are read as TypeScript reads them.
#[test]
fn ts_node_s_required_files_and_typescript_s_paths_are_read() {
    let ts = "{\"ts-node\": {\"require\": [\"./tools/pre.js\", \"tsconfig-paths/register\"]},}";
    assert_eq!(files("tsconfig.json", ts), ["./tools/pre.js"]);
    assert!(files("biome.json", ts).is_empty());
    let text = "{ // mine\n \"extends\": \"./base\", \"compilerOptions\": {\"baseUrl\": \"src\",\n \"paths\": {\"@/*\": [\"./*\", \"../gen/*\"], \"p\": [\"lib/p.ts\"]},},}";
    let read = super::typescript_paths(text);
    assert_eq!(read.base_url.as_deref(), Some("src"));
    let paths = read.paths.expect("paths");
    assert_eq!(paths[0], ("@/*".to_owned(), vec!["./*".to_owned(), "../gen/*".to_owned()]));
    assert_eq!(paths[1], ("p".to_owned(), vec!["lib/p.ts".to_owned()]));
    assert_eq!(read.extends, ["./base", "./base.json"]);
    assert_eq!(super::typescript_paths("{\"compilerOptions\": {}}").paths, None);
    assert_eq!(super::typescript_paths("not json"), super::TypeScriptPaths::default());
}

/// A manifest's subpath imports and its own exports under its name, with every condition's
/// target (F128); `imports` keys without `#` and `exports` without a `name` name nothing.
#[test]
fn a_package_s_imports_and_own_exports_are_read_with_every_condition() {
    let text = r##"{"name": "p", "imports": {"#a": "./a.js", "#l/*": {"node": ["./n/*.js"], "default": {"import": "./d/*.mjs"}}, "x": "./x.js"},
        "exports": {".": "./main.js", "./sub/*": "./s/*.js"}}"##;
    let map = super::package_import_map(text);
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        map,
        [
            ("#a".to_owned(), s(&["./a.js"])),
            ("#l/*".to_owned(), s(&["./n/*.js", "./d/*.mjs"])),
            ("p".to_owned(), s(&["./main.js"])),
            ("p/sub/*".to_owned(), s(&["./s/*.js"])),
        ]
    );
    // Conditions of `"."` alone, and a plain string.
    let conditions = r#"{"name": "q", "exports": {"import": "./e.mjs", "require": "./e.cjs"}}"#;
    assert_eq!(
        super::package_import_map(conditions),
        [("q".to_owned(), s(&["./e.mjs", "./e.cjs"]))]
    );
    assert_eq!(
        super::package_import_map(r#"{"name": "r", "exports": "./r.js"}"#),
        [("r".to_owned(), s(&["./r.js"]))]
    );
    assert!(super::package_import_map(r#"{"exports": "./r.js"}"#).is_empty());
    assert!(super::package_import_map("{").is_empty());
}

/// Bun's top-level `preload` (F129): files with `./` or without, a package's folder in
/// `node_modules`; the `[test]` table's is not Bun's for a script it runs.
#[test]
fn bun_s_preloads_are_loaded_files_or_packages() {
    let text = "preload = [\"./a.ts\", \"tools/b.ts\", \"c.js\", \"pkg\", \"@s/p\"]\n[test]\npreload = \"./t.ts\"\n";
    let read = loads("bunfig.toml", text);
    assert_eq!(read.files, ["./a.ts", "tools/b.ts", "c.js"]);
    assert_eq!(read.folders, ["node_modules/pkg", "node_modules/@s/p"]);
    assert_eq!(loads("bunfig.toml", "preload = \"./one.ts\"\n").files, ["./one.ts"]);
    assert_eq!(super::javascript_loader("bunfig.toml"), Some("bun"));
}

/// A Deno configuration's import map (F131): file targets, prefixes as the matcher's `*`,
/// the `importMap` file; URLs, `npm:` and `jsr:` targets and a prefix to a file name nothing.
#[test]
fn deno_s_import_map_names_file_targets_and_its_import_map_file() {
    let text = "{ // c\n \"imports\": {\"policy\": \"./src/policy.ts\", \"@/\": \"../src/\", \"std/\": \"https://x/std/\", \"z\": \"npm:zod\", \"bad/\": \"./f.ts\",},\n \"importMap\": \"./maps/m.json\"}";
    let (map, file) = super::deno_import_map(text);
    let s = |v: &str| vec![v.to_owned()];
    assert_eq!(
        map,
        [("policy".to_owned(), s("./src/policy.ts")), ("@/*".to_owned(), s("../src/*"))]
    );
    assert_eq!(file.as_deref(), Some("./maps/m.json"));
    assert_eq!(super::deno_import_map("[").0, Vec::<(String, Vec<String>)>::new());
}

#[test]
fn rubocop_s_inherited_and_required_files_are_read() {
    let yaml = "inherit_from:\n  - .rubocop_todo.yml\n  - https://example.invalid/r.yml\n  - \
                cfg/base.yml\nrequire:\n  - ./lib/cop.rb\n  - rubocop-rails\nplugins: \
                ../p.rb\nAllCops:\n  Exclude:\n    - ./vendor/x.rb\n  inherit_from: nested.yml\n";
    let l = loads(".rubocop.yml", yaml);
    assert_eq!(l.extends, [".rubocop_todo.yml", "cfg/base.yml"]);
    assert_eq!(l.files, ["./lib/cop.rb", "../p.rb"]);
    assert_eq!(loads(".rubocop.yml", "inherit_from: base.yml\n").extends, ["base.yml"]);
}

/// prettier's `plugins` given as files, as they are; a package's name is in `node_modules`
/// (finding F71).
#[test]
fn prettier_s_plugin_files_are_loaded_files() {
    let json =
        r#"{"plugins": ["./tools/pl.js", "prettier-plugin-x", "../lib/p.mjs", "/opt/p.js"]}"#;
    for name in [".prettierrc.json", ".prettierrc"] {
        let mut found = files(name, json);
        found.sort();
        assert_eq!(found, ["../lib/p.mjs", "./tools/pl.js", "/opt/p.js"], "{name}");
    }
    let yaml = "semi: false\nplugins:\n  - ./tools/../lib/pl2.js\n  - '@scope/plugin'\n";
    assert_eq!(files(".prettierrc.yml", yaml), ["./tools/../lib/pl2.js"]);
}

/// pylint's `load-plugins` names modules by their dotted names, in its own INI files' `MAIN`
/// or `MASTER`, `setup.cfg`'s and `tox.ini`'s `pylint.` sections, and its TOML files'
/// `tool.pylint` tables (finding F86); another tool's section is not pylint's.
#[test]
fn pylint_s_plugins_are_modules() {
    let modules = |name: &str, text: &str| loads(name, text).modules;
    let ini = "[MAIN]\ninit-hook=import sys; sys.path.insert(0, '.')\nload-plugins=tools.plug,\n    \
               localplug, not-a.module\n[BASIC]\nload-plugins=ignored\n";
    assert_eq!(modules(".pylintrc", ini), ["tools.plug", "localplug"]);
    assert_eq!(modules("pylintrc", "[master]\nload_plugins = a.b\n"), ["a.b"]);
    assert_eq!(
        modules("setup.cfg", "[pylint.main]\nload-plugins = c\n[flake8]\nload-plugins = x\n"),
        ["c"]
    );
    assert_eq!(modules("tox.ini", "[pylint.MASTER]\nload-plugins = d\n"), ["d"]);
    let toml = "[tool.pylint.MASTER]\nload-plugins = [\"p.q\", \"r\"]\n[tool.mypy]\nplugins = [\"m.plug\"]\n";
    assert_eq!(modules("pyproject.toml", toml), ["p.q", "r"]);
    assert_eq!(
        modules("pyproject.toml", "[tool.pylint.main]\nload-plugins = \"s, t\"\n"),
        ["s", "t"]
    );
    assert_eq!(modules(".pylintrc.toml", "[tool.pylint.main]\nload-plugins = [\"u\"]\n"), ["u"]);
    assert_eq!(
        modules("ruff.toml", "[tool.pylint.main]\nload-plugins = [\"v\"]\n"),
        Vec::<String>::new()
    );
}

/// npm's `.npmrc`: `script-shell` (a file when it has a `/`) and the loading options of
/// `node-options` given paths (a bare name is a package); yarn 1 reads `script-shell` there
/// too (finding F106).
#[test]
fn npm_s_script_shell_and_node_options_are_loaded_files() {
    let npmrc = "registry=https://registry.invalid/\n; script-shell=./no.sh\n\
                 script-shell = ./tools/sh.sh\n\
                 node-options=\"--max-old-space-size=4096 --require ./tools/pre.js -r pkg \
                 --import=../lib/i.mjs --loader /opt/l.mjs --experimental-loader\"\n";
    assert_eq!(
        files(".npmrc", npmrc),
        ["./tools/sh.sh", "./tools/pre.js", "../lib/i.mjs", "/opt/l.mjs"]
    );
    assert!(files(".npmrc", "script-shell=bash\nnode-options=--require pre\n").is_empty());
    assert_eq!(files(".npmrc", "script-shell=tools/sh\n"), ["tools/sh"]);
}

/// yarn 1's `.yarnrc` (`yarn-path`, `script-shell`) and `.yarnrc.yml`'s `yarnPath` and
/// `plugins` (strings, or mappings with a `path`), relative to their folder (finding F106).
#[test]
fn yarn_s_own_release_shell_and_plugins_are_loaded_files() {
    let yarnrc = "# yarn lockfile v1\nyarn-path \"tools/yarn-1.cjs\"\nscript-shell ./tools/sh\n\
                  --install.frozen-lockfile true\nregistry \"https://r.invalid\"\n";
    assert_eq!(files(".yarnrc", yarnrc), ["tools/yarn-1.cjs", "./tools/sh"]);
    let yml = "nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.cjs\nplugins:\n  \
               - path: .yarn/plugins/a.cjs\n    spec: \"@yarnpkg/plugin-a\"\n  - tools/b.cjs\n\
               packageExtensions:\n  x:\n    path: not/this.cjs\n";
    assert_eq!(
        files(".yarnrc.yml", yml),
        [".yarn/releases/yarn-4.cjs", ".yarn/plugins/a.cjs", "tools/b.cjs"]
    );
    // pnpm's keys are not yarn's, nor yarn's pnpm's.
    assert!(files(".yarnrc.yml", "pnpmfile: x.cjs\n").is_empty());
    assert!(files("pnpm-workspace.yaml", "yarnPath: x.cjs\n").is_empty());
}

/// `pnpm-workspace.yaml`'s `pnpmfile` (a string or a list), `scriptShell` and `nodeOptions`
/// (finding F106).
#[test]
fn pnpm_s_pnpmfile_shell_and_node_options_are_loaded_files() {
    let yaml = "packages:\n  - web\n  - 'tools/*'\npnpmfile: tools/pnpmfile.cjs\n\
                scriptShell: ./tools/sh.sh\nnodeOptions: '--import ./tools/i.mjs'\n";
    assert_eq!(
        files("pnpm-workspace.yaml", yaml),
        ["tools/pnpmfile.cjs", "./tools/sh.sh", "./tools/i.mjs"]
    );
    assert_eq!(
        files("pnpm-workspace.yaml", "pnpmfile:\n  - a.cjs\n  - b.mjs\nscriptShell: zsh\n"),
        ["a.cjs", "b.mjs"]
    );
}

/// cargo's wrappers, compilers, runners and linkers named with a `/` (a bare name is found on
/// `PATH`), a runner's first word or its array's first string (finding F106).
#[test]
fn cargo_s_wrappers_runners_and_linkers_are_loaded_files() {
    let toml = "[build]\nrustc-wrapper = \"tools/wrap.sh\"\nrustc = \"rustc\"\n\
                rustdoc = \"./bin/rd\"\nrustc-workspace-wrapper = \"sccache\"\n\
                [target.x86_64-unknown-linux-gnu]\nrunner = \"tools/run.sh --quiet\"\n\
                linker = \"clang\"\n[target.'cfg(unix)']\nrunner = [\"tools/r2\", \"-v\"]\n\
                linker = \"/opt/ld/ld.sh\"\n[alias]\nlint = \"clippy tools/x\"\n";
    for name in [".cargo/config.toml", ".cargo/config"] {
        let mut found = files(name, toml);
        found.sort();
        assert_eq!(
            found,
            ["./bin/rd", "/opt/ld/ld.sh", "tools/r2", "tools/run.sh", "tools/wrap.sh"],
            "{name}"
        );
    }
    assert!(files(".cargo/config.toml", "[build\nrustc-wrapper = \"a/b\"\n").is_empty());
}

/// The packages cargo builds in place of a dependency: `[patch.<source>]`'s paths and the
/// `paths` overrides (finding F111); a patch from a registry or a git repository names none.
#[test]
fn cargo_s_patches_and_path_overrides_are_packages() {
    let toml = "paths = [\"../bar\", \"/opt/baz\"]\n[patch.crates-io]\n\
                itoa = { path = \"../foo\" }\nserde = { git = \"https://example.invalid/s\" }\n\
                [patch.'https://example.invalid/x']\nx = { path = \"vendor/x\" }\n";
    for name in [".cargo/config.toml", ".cargo/config"] {
        let mut found = super::loads(name, toml).packages;
        found.sort();
        assert_eq!(found, ["../bar", "../foo", "/opt/baz", "vendor/x"], "{name}");
    }
    assert!(
        super::loads(".cargo/config.toml", "paths = \"x\"\n[patch]\nx = 1\n").packages.is_empty()
    );
    assert!(super::loads("pyproject.toml", toml).packages.is_empty());
}

/// The Java agents of Maven's `.mvn/jvm.config` (Maven 3.9's `${MAVEN_PROJECTBASEDIR}` read
/// as its folder) and of Gradle's `org.gradle.jvmargs`, and the Java `org.gradle.java.home`
/// names (finding F106).
#[test]
fn a_jvm_s_agents_and_java_are_loaded() {
    let jvm = "-Xmx2g\n-javaagent:tools/agent.jar=debug\n\
               -agentpath:${MAVEN_PROJECTBASEDIR}/lib/a.so -Dx=-javaagent:no.jar\n";
    assert_eq!(files(".mvn/jvm.config", jvm), ["tools/agent.jar", "lib/a.so"]);
    let properties = "org.gradle.caching=true\norg.gradle.jvmargs=-Xmx1g \
                      -javaagent:/opt/g.jar -javaagent:tools/g2.jar\norg.gradle.java.home=jdk\n";
    let l = loads("gradle.properties", properties);
    assert_eq!(l.files, ["/opt/g.jar", "tools/g2.jar"]);
    assert_eq!(l.folders, ["jdk"]);
}

/// A name with a folder in it is matched by its last components: a `config.toml` elsewhere is
/// not cargo's; cargo's and Maven's names are from the folder above theirs.
#[test]
fn configurations_in_a_folder_are_named_by_their_last_components() {
    let named = |p: &str| config_named(std::path::Path::new(p));
    assert_eq!(named("/r/.cargo/config.toml"), Some(".cargo/config.toml"));
    assert_eq!(named("/r/.cargo/config"), Some(".cargo/config"));
    assert_eq!(named("/r/.mvn/jvm.config"), Some(".mvn/jvm.config"));
    assert_eq!(named("/r/sub/.npmrc"), Some(".npmrc"));
    assert_eq!(named("/r/.config/x/config.toml"), None);
    assert_eq!(named("/r/jvm.config"), None);
    assert!(names_from_parent(".cargo/config.toml") && names_from_parent(".mvn/jvm.config"));
    assert!(!names_from_parent(".npmrc") && !names_from_parent("gradle.properties"));
}

#[test]
fn broken_files_name_nothing() {
    for name in PLUGIN_CONFIGS {
        assert_eq!(loads(name, "[tool.mypy\nplugins = = [\n"), Loads::default(), "{name}");
    }
}

/// ripgrep's configuration as ripgrep 15.1 reads it (each case checked with it here): one
/// argument per trimmed line, comments and blank lines skipped, a value after `=` or on the
/// next line; what `--pre` runs and `--ignore-file` reads, as written.
#[test]
fn ripgrep_s_configuration_names_its_preprocessors_and_ignore_files() {
    let text = "# mine\n  --smart-case  \n--pre=/opt/pre.sh\r\n  # --pre=/commented\n\n--pre\n  ./rel/pre.sh  \n\
                --ignore-file=/opt/ign\n--ignore-file\nign\n--pre=\n--pre-glob=*.pdf\n--glob=!*.py\n--pre=  /spaced\n";
    let (pre, ignore_files) = ripgrep_config(text);
    assert_eq!(pre, ["/opt/pre.sh", "./rel/pre.sh", "  /spaced"]);
    assert_eq!(ignore_files, ["/opt/ign", "ign"]);
    // `--pre /x` on one line is one unknown argument to ripgrep, and a flag at the end has no
    // value.
    assert_eq!(ripgrep_config("--pre /x\n--ignore-file"), (vec![], vec![]));
    let many = "--pre=/p\n".repeat(100);
    assert_eq!(ripgrep_config(&many).0.len(), MAX_RIPGREP_VALUES);
}

/// Only the absolute names of a ripgrep configuration on disk are files the engine can place.
#[test]
fn ripgrep_config_files_keeps_the_absolute_names_and_reads_nothing_missing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("rgrc");
    std::fs::write(&config, "--pre=pre.sh\n--pre=/opt/p\n--ignore-file\n/opt/i\n--ignore-file=i\n")
        .expect("write");
    let files = ripgrep_config_files(&config);
    assert_eq!(files, [std::path::PathBuf::from("/opt/p"), std::path::PathBuf::from("/opt/i")]);
    assert!(ripgrep_config_files(&dir.path().join("missing")).is_empty());
}

/// A TypeScript configuration the environment names is read through its `extends` chain as
/// ts-node reads it (F137): each configuration's `require` entries from its own folder, a name
/// without `.json` with it too, a package's name left out, a configuration that extends
/// itself read once, nothing from a missing one.
#[test]
fn typescript_config_files_follow_the_extends_chain_and_each_require() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("base")).expect("mkdir");
    let write = |rel: &str, text: &str| std::fs::write(d.join(rel), text).expect("write");
    write(
        "hooks.json",
        r#"{"extends": ["./base/b.json", "@tsconfig/node20"], "ts-node": {"require": ["./a.js"]}}"#,
    );
    write(
        "base/b.json",
        "{\n  // base\n  \"extends\": \"../hooks.json\",\n  \"ts-node\": {\"require\": [\"./b.js\", \"dotenv/config\"]},\n}\n",
    );
    let files = typescript_config_files(&d.join("hooks.json"));
    let at = |rel: &str| d.join(rel);
    assert_eq!(files, [at("base/b.json"), at("a.js"), at("hooks.json"), at("base/b.js")]);
    assert!(typescript_config_files(&d.join("missing.json")).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text, under any of the names, gives a bounded list and never panics.
    #[test]
    fn any_configuration_gives_bounded_names(
        text in "(\\[mypy\\]|\\[MAIN\\]|\\[tool\\.pylint\\.main\\]|load-plugins ?= ?|\\[flake8:local-plugins\\]|\\[tool\\.(mypy|ruff)\\]|plugins ?= ?|paths ?= ?|extend = \"|\"extends\": ?|inherit_from: ?|require:|- |/\\*|//|yarnPath: |pnpmfile: |script-shell ?= ?|node-options=|--require |-javaagent:|\\[build\\]|rustc-wrapper = \"|runner = |path: |--pre=|--pre\\n|--ignore-file=|--ignore-file\\n|[{}a-z./_:,\" \\n\\t=\\[\\]#;~$-]){0,80}",
        which in 0..PLUGIN_CONFIGS.len(),
    ) {
        let name = PLUGIN_CONFIGS[which];
        let l = loads(name, &text);
        // prettier's plugins are as many as the hook managers' reader keeps.
        let files = if name.starts_with(".prettierrc") { 256 } else { MAX_NAMES };
        prop_assert!(l.files.len() <= files && l.folders.len() <= MAX_NAMES);
        prop_assert!(l.extends.len() <= MAX_NAMES);
        for name in l.files.iter().chain(&l.folders).chain(&l.extends) {
            prop_assert!(!name.is_empty() && !name.starts_with(['~', '$']));
        }
        prop_assert!(l.modules.len() <= MAX_NAMES);
        for module in &l.modules {
            prop_assert!(module.split('.').all(|p| !p.is_empty() && !p.contains('/')), "{module}");
        }
        // Read as Deno's import map: bounded too.
        prop_assert!(super::deno_import_map(&text).0.len() <= super::MAX_PATH_PATTERNS);
        // Read as a manifest's import map: bounded too.
        let map = super::package_import_map(&text);
        prop_assert!(map.len() <= 2 * super::MAX_PATH_PATTERNS);
        prop_assert!(map.iter().all(|(_, t)| t.len() <= super::MAX_PATH_PATTERNS));
        // Read as ripgrep's configuration: bounded, every value a piece of one line.
        let (pre, ignore_files) = super::ripgrep_config(&text);
        prop_assert!(pre.len() <= super::MAX_RIPGREP_VALUES);
        prop_assert!(ignore_files.len() <= super::MAX_RIPGREP_VALUES);
        for value in pre.iter().chain(&ignore_files) {
            prop_assert!(!value.is_empty() && !value.contains('\n') && text.contains(value.as_str()));
        }
        // Read as a `tsconfig.json`'s `paths`: bounded too.
        let paths = super::typescript_paths(&text).paths.unwrap_or_default();
        prop_assert!(paths.len() <= super::MAX_PATH_PATTERNS);
        prop_assert!(paths.iter().all(|(_, t)| t.len() <= super::MAX_PATH_PATTERNS));
    }
}
