//! Tests for the local imports of Python and JavaScript hook scripts.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::{
    imports::{
        ConfigurationFile, ImportMap, Language, configuration_paths, import_literals,
        local_imports, local_imports_from, mapped_imports,
    },
    scripts::{NamedPath, PathBase, PathRole},
};

/// The paths a Ruby or Perl `text` in `/repo/hooks` loads, each with its base (`R` the root,
/// `.` the run folder), with `searched` as the environment's load path.
fn loaded(language: Language, text: &str, searched: &[&str]) -> Vec<String> {
    let searched: Vec<(PathBase, PathBuf)> =
        searched.iter().map(|d| (PathBase::RunDir, PathBuf::from(d))).collect();
    let found = local_imports_from(
        language,
        text,
        Path::new("/repo/hooks"),
        Path::new("/repo/hooks"),
        &searched,
    );
    found
        .into_iter()
        .inspect(|p| assert_eq!(p.role, PathRole::Sourced, "{p:?}"))
        .map(|p| match p.base {
            PathBase::Root => format!("R {}", p.path.display()),
            PathBase::RunDir => format!(". {}", p.path.display()),
            _ => panic!("{p:?}"),
        })
        .collect::<std::collections::BTreeSet<String>>()
        .into_iter()
        .collect()
}

/// The names Ruby tries for the feature `path` without an extension.
fn ruby_feature(prefix: &str, path: &str) -> Vec<String> {
    ["", ".bundle", ".rb", ".so"].iter().map(|e| format!("{prefix} {path}{e}")).collect()
}

/// A Ruby gate's `require_relative`, its requires of a path from the run folder or built
/// from its own folder, and its bare requires in the load path folders it adds, the
/// environment's relative `RUBYLIB` folders, and `load`'s fallback to the run folder
/// (finding F142; each checked with Ruby 3.1).
#[test]
fn ruby_loads_follow_its_own_folder_the_run_folder_and_its_load_path() {
    let mut want = ruby_feature("R", "/repo/hooks/policy");
    assert_eq!(loaded(Language::Ruby, "require_relative \"policy\"\n", &[]), want);
    assert_eq!(loaded(Language::Ruby, "require_relative('policy')\n", &[]), want);
    assert_eq!(loaded(Language::Ruby, "require File.join(__dir__, 'policy')\n", &[]), want);
    assert_eq!(loaded(Language::Ruby, "require \"#{__dir__}/policy\"\n", &[]), want);
    // `expand_path("../policy", __FILE__)`: the `..` leaves the file's name (and the other
    // reading is kept).
    let mut both = ruby_feature("R", "/repo/policy");
    both.extend(want.clone());
    both.sort();
    assert_eq!(
        loaded(Language::Ruby, "require File.expand_path('../policy', __FILE__)\n", &[]),
        both
    );
    assert_eq!(
        loaded(Language::Ruby, "require_relative 'lib/p.rb'\n", &[]),
        ["R /repo/hooks/lib/p.rb"]
    );
    assert_eq!(
        loaded(Language::Ruby, "require './tools/p'\n", &[]),
        ruby_feature(".", "./tools/p")
    );
    // A bare require names nothing without a folder to find it in (the installation's
    // own libraries are protected with it).
    assert!(loaded(Language::Ruby, "require 'json'\n", &[]).is_empty());
    let text =
        "$LOAD_PATH.unshift(File.expand_path('lib', __dir__))\n$: << 'vendor'\nrequire 'pol'\n";
    want = ruby_feature(".", "vendor/pol");
    want.extend(ruby_feature("R", "/repo/hooks/lib/pol"));
    want.extend(ruby_feature("R", "/repo/hooks/vendor/pol"));
    want.sort();
    assert_eq!(loaded(Language::Ruby, text, &[]), want);
    assert_eq!(loaded(Language::Ruby, "require 'pol'\n", &["lib"]), ruby_feature(".", "lib/pol"));
    let mut load = vec![". lib/x.rb".to_owned(), ". x.rb".to_owned()];
    load.sort();
    assert_eq!(loaded(Language::Ruby, "load 'x.rb'\n", &["lib"]), load);
    assert_eq!(loaded(Language::Ruby, "autoload :Policy, '/opt/p.rb'\n", &[]), ["R /opt/p.rb"]);
    // Text that is not ASCII (the fuzzer's find: a name's search stepped inside a character).
    assert!(loaded(Language::Ruby, "timeout 5 python3\u{e8}\u{e8} -u b.py\n", &[]).is_empty());
    assert_eq!(
        loaded(Language::Perl, "\u{e9}use lib 'l\u{e9}'; use \u{e9}A;\n", &[]),
        [". l\u{e9}/lib.pm", ". l\u{e9}/\u{e9}A.pm"]
    );
    // Not a load: a method whose name ends so, a symbol, a variable.
    assert!(loaded(Language::Ruby, "x.my_require 'a'\n:require\n$require = 'b'\n", &[]).is_empty());
}

/// The spellings that set Bundler up, which then evaluates the `Gemfile` (finding F146).
#[test]
fn a_ruby_script_that_sets_bundler_up_is_told() {
    use crate::imports::sets_up_bundler;
    for text in [
        "require \"bundler/setup\"\n",
        "require 'bundler'\nBundler.setup(:default)\n",
        "Bundler.require\n",
    ] {
        assert!(sets_up_bundler(text), "{text}");
    }
    assert!(!sets_up_bundler("require 'json'\nrequire_relative 'bundle'\n"));
}

/// A Perl gate's modules in the `@INC` folders it adds (from `FindBin`'s folder, built from
/// `__FILE__`, from the run folder) and the environment's relative `PERL5LIB` ones, and the
/// files it `require`s or `do`es (finding F143; checked with Perl 5.36).
#[test]
fn perl_loads_follow_its_inc_folders_and_the_run_folder() {
    let text =
        "use strict;\nuse FindBin;\nuse lib \"$FindBin::Bin/lib\";\nuse Policy::Rules qw(ok);\n";
    let mut want: Vec<String> = ["FindBin.pm", "Policy/Rules.pm", "lib.pm", "strict.pm"]
        .iter()
        .map(|m| format!("R /repo/hooks/lib/{m}"))
        .collect();
    assert_eq!(loaded(Language::Perl, text, &[]), want);
    let text = "use lib qw(lib t/lib); require Policy;\n";
    want = [". lib/Policy.pm", ". lib/lib.pm", ". t/lib/Policy.pm", ". t/lib/lib.pm"]
        .map(String::from)
        .to_vec();
    assert_eq!(loaded(Language::Perl, text, &[]), want);
    let text = "use File::Basename;\nuse lib File::Spec->catdir(dirname(dirname(__FILE__)), 'lib');\nuse parent -norequire, 'Base::X';\n";
    assert_eq!(
        loaded(Language::Perl, text, &[]),
        [
            "R /repo/lib/Base/X.pm",
            "R /repo/lib/File/Basename.pm",
            "R /repo/lib/lib.pm",
            "R /repo/lib/parent.pm"
        ]
    );
    assert_eq!(loaded(Language::Perl, "use Policy;\n", &["plib"]), [". plib/Policy.pm"]);
    assert_eq!(
        loaded(
            Language::Perl,
            "require './x.pl'; do \"$FindBin::Bin/y.pl\"; do '/etc/z.pl';\n",
            &[]
        ),
        [". ./x.pl", "R /etc/z.pl", "R /repo/hooks/y.pl"]
    );
    assert_eq!(loaded(Language::Perl, "do 'c.pl';\n", &["plib"]), [". c.pl", ". plib/c.pl"]);
    // Not a load: a block, a version, a variable.
    assert!(
        loaded(Language::Perl, "my $t = do { 'x' }; use v5.36; require $file;\n", &[]).is_empty()
    );
}

/// The paths of `role` that `text` in `/repo/scripts` imports.
fn imported(language: Language, text: &str, role: PathRole) -> Vec<PathBuf> {
    local_imports(language, text, Path::new("/repo/scripts"))
        .into_iter()
        .filter(|p| p.role == role)
        .map(|p| p.path)
        .collect()
}

fn files(language: Language, text: &str) -> Vec<PathBuf> {
    imported(language, text, PathRole::Sourced)
}

fn folders(language: Language, text: &str) -> Vec<PathBuf> {
    imported(language, text, PathRole::Tree)
}

/// Each module a Python file imports has its compiled and extension forms named beside it
/// (finding F118); a module Python found from another folder (what `python -m` runs) has its
/// absolute imports found there, its relative ones beside itself (finding F117).
#[test]
fn python_imports_name_their_compiled_forms_and_absolute_ones_start_where_python_does() {
    let compiled =
        imported(Language::Python, "import helper\nfrom . import rules\n", PathRole::Compiled);
    assert_eq!(
        compiled,
        [PathBuf::from("/repo/scripts/helper"), PathBuf::from("/repo/scripts/rules")]
    );
    let text = "import policy.x\nfrom . import rules\nfrom .sub import y\n";
    let (tools, repo) = (Path::new("/repo/tools"), Path::new("/repo"));
    let found = local_imports_from(Language::Python, text, tools, repo, &[]);
    let of = |role: PathRole| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> =
            found.iter().filter(|p| p.role == role).map(|p| p.path.clone()).collect();
        v.sort();
        v
    };
    assert_eq!(
        of(PathRole::Sourced),
        ["/repo/policy.py", "/repo/tools/rules.py", "/repo/tools/sub.py"].map(PathBuf::from)
    );
    assert_eq!(
        of(PathRole::Tree),
        ["/repo/policy", "/repo/tools/rules", "/repo/tools/sub"].map(PathBuf::from)
    );
    assert_eq!(of(PathRole::Compiled), of(PathRole::Tree));
    // JavaScript has no compiled forms.
    assert!(
        imported(Language::JavaScript, "import x from './lib.mjs'\n", PathRole::Compiled)
            .is_empty()
    );
}

#[test]
fn python_imports_name_modules_and_packages_in_the_script_s_folder() {
    let text = "import os, helpers as h\nfrom policy.rules import deny\n\
        try:\n    import local_overrides\nexcept ImportError:\n    pass\n\
        from . import sibling\nfrom .relative import x\nfrom .. import parent\nx = 1; import late\n\
        print('not an import')\n";
    let got = files(Language::Python, text);
    for name in ["os", "helpers", "policy", "local_overrides", "sibling", "relative", "late"] {
        let path = PathBuf::from(format!("/repo/scripts/{name}.py"));
        assert!(got.contains(&path), "{name}: {got:?}");
    }
    assert!(folders(Language::Python, text).contains(&PathBuf::from("/repo/scripts/policy")));
    assert!(!got.iter().any(|p| p.ends_with("parent.py") || p.ends_with("print.py")), "{got:?}");
    assert!(
        local_imports(Language::Python, text, Path::new("/repo/scripts"))
            .iter()
            .all(|p| p.base == PathBase::Root && p.path.is_absolute())
    );
}

#[test]
fn javascript_relative_specifiers_name_files_with_each_extension_node_tries() {
    let text = "import { allow } from './lib.mjs';\nimport '../shared/setup';\n\
        const p = require(\"./policy\");\nexport * from './reexport.js';\n\
        const later = await import('./dynamic.js');\nimport fs from 'node:fs';\n\
        const s = './not-an-import.js';\n";
    let got = files(Language::JavaScript, text);
    for path in [
        "/repo/scripts/lib.mjs",
        "/repo/shared/setup.js",
        "/repo/shared/setup/index.js",
        "/repo/scripts/policy.ts",
        "/repo/scripts/reexport.js",
        "/repo/scripts/dynamic.js",
        // A native addon of the name, and a folder's `main` and other `index` files, which
        // `require` tries before or in place of `index.js` (finding F124).
        "/repo/scripts/policy.node",
        "/repo/scripts/policy/package.json",
        "/repo/scripts/policy/index.json",
        "/repo/scripts/policy/index.node",
    ] {
        assert!(got.contains(&PathBuf::from(path)), "{path}: {got:?}");
    }
    assert!(!got.iter().any(|p| p.to_string_lossy().contains("not-an-import")), "{got:?}");
    assert!(!got.iter().any(|p| p.to_string_lossy().contains("node:fs")), "{got:?}");
}

/// A bare specifier names a package Node looks for in `node_modules/` of the script's folder
/// and of each folder above it: the package's folder is protected whole in each (a scoped
/// package as `@scope/pkg`, a subpath as its package); Node's own modules (`fs`,
/// `node:child_process`), URLs, relative and absolute specifiers, and strings that are not
/// imported name no package, nor do names that would climb out of `node_modules/`.
#[test]
fn javascript_packages_are_protected_in_every_node_modules_node_looks_in() {
    let text = "import quote from 'shell-quote';\nconst { z } = require(\"@acme/policy/rules\");\n\
        import fp from 'lodash/fp';\nimport fs from 'fs';\nimport cp from 'node:child_process';\n\
        import x from 'https://example.invalid/x.js';\nimport r from './rel.js';\n\
        import up from '@acme/..';\nimport dot from '..';\nconst s = 'not-imported';\n\
        import path from 'path';\nexport * from 'reexported';\n";
    let got = folders(Language::JavaScript, text);
    for package in ["shell-quote", "@acme/policy", "lodash", "reexported"] {
        for folder in ["/repo/scripts", "/repo", "/"] {
            let path = Path::new(folder).join("node_modules").join(package);
            assert!(got.contains(&path), "{}: {got:?}", path.display());
        }
    }
    let names: std::collections::BTreeSet<String> = got
        .iter()
        .filter_map(|p| p.to_str()?.split("/node_modules/").nth(1).map(str::to_owned))
        .collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["@acme/policy", "lodash", "reexported", "shell-quote"]
    );
    // And CommonJS's global folders of the home.
    let global: Vec<PathBuf> =
        local_imports(Language::JavaScript, text, Path::new("/repo/scripts"))
            .into_iter()
            .filter(|p| p.base == PathBase::Home && p.role == PathRole::Tree)
            .map(|p| p.path)
            .collect();
    for package in ["shell-quote", "@acme/policy", "lodash", "reexported"] {
        for folder in [".node_modules", ".node_libraries"] {
            assert!(global.contains(&Path::new(folder).join(package)), "{folder} {package}");
        }
    }
    assert_eq!(global.len(), 8);
}

#[test]
fn the_language_comes_from_the_interpreter_else_the_extension() {
    assert_eq!(Language::of(Some("python3.12"), Path::new("x")), Some(Language::Python));
    assert_eq!(Language::of(Some("node"), Path::new("x.py")), Some(Language::JavaScript));
    assert_eq!(Language::of(Some("ruby3.1"), Path::new("x.py")), Some(Language::Ruby));
    assert_eq!(Language::of(Some("perl"), Path::new("x.rb")), Some(Language::Perl));
    assert_eq!(Language::of(Some("lua"), Path::new("x.rb")), None);
    assert_eq!(Language::of(None, Path::new("x.mjs")), Some(Language::JavaScript));
    assert_eq!(Language::of(None, Path::new("x.rb")), Some(Language::Ruby));
    assert_eq!(Language::of(None, Path::new("x.pm")), Some(Language::Perl));
    assert_eq!(Language::of(None, Path::new("x.lua")), None);
}

/// A configuration's words that name JavaScript, JSON or YAML files by a relative path are
/// the files it loads (prettier's and stylelint's `plugins`, markdownlint-cli2's
/// `customRules`, cspell's `import`), wherever they stand, in JavaScript, JSON or YAML;
/// other words, absolute paths, bare names, patterns and other files are not (findings F85,
/// F87).
#[test]
fn a_configuration_s_relative_paths_are_the_files_it_loads() {
    use ConfigurationFile::{Code, Data};
    let js = "module.exports = {\n  plugins: ['./tools/p.js', \"../shared/q.mjs\", `./r.cts`],\n  overrides: [{ files: './src/**/*.ts' }],\n  x: '/abs/a.js', y: 'pkg/b.js', z: './dist', w: 'a.js', v: './notes.txt',\n  import: ['./more.json'],\n};\n";
    assert_eq!(
        configuration_paths(js, Path::new("/repo/web")),
        [
            (PathBuf::from("/repo/shared/q.mjs"), Code),
            (PathBuf::from("/repo/web/more.json"), Data),
            (PathBuf::from("/repo/web/r.cts"), Code),
            (PathBuf::from("/repo/web/tools/p.js"), Code),
        ]
    );
    let json = r#"{"plugins": ["./plug/p.js"], "customRules": ["../rules/r.cjs"], "extends": "./base.yml"}"#;
    assert_eq!(
        configuration_paths(json, Path::new("/repo")),
        [
            (PathBuf::from("/repo/base.yml"), Data),
            (PathBuf::from("/repo/plug/p.js"), Code),
            (PathBuf::from("/rules/r.cjs"), Code),
        ]
    );
    let yaml = "extends:\n  - ./cfg/base.cjs\nplugins: [./cfg/p.mjs, stylelint-order]\nignoreFiles: ./dist/**/*.js\n";
    assert_eq!(
        configuration_paths(yaml, Path::new("/repo")),
        [(PathBuf::from("/repo/cfg/base.cjs"), Code), (PathBuf::from("/repo/cfg/p.mjs"), Code)]
    );
}

/// A TypeScript script's bare specifiers through a `tsconfig.json`'s `paths` and `baseUrl`
/// (F127): every matching pattern's targets, with the names Node and the TypeScript runners
/// try; relative and built-in specifiers are not mapped, nor one no pattern matches when
/// there is no `baseUrl`.
#[test]
fn typescript_bare_specifiers_are_mapped_through_paths_and_base_url() {
    let text = "import { deny } from \"@/lib/policy\";\nimport p from \"policy\";\nimport r from \"./rel\";\nimport fs from \"node:fs\";\nimport z from \"zod\";\n";
    let map = ImportMap {
        paths_base: PathBuf::from("/repo"),
        paths: vec![
            ("@/*".to_owned(), vec!["./src/*".to_owned(), "gen/*.ts".to_owned()]),
            ("policy".to_owned(), vec!["../shared/policy.ts".to_owned()]),
        ],
        base_url: None,
    };
    let found: Vec<PathBuf> = mapped_imports(&import_literals(text), &map)
        .into_iter()
        .map(|p| {
            assert_eq!((p.base.clone(), p.role), (PathBase::Root, PathRole::Sourced));
            p.path
        })
        .collect();
    for expected in [
        "/repo/src/lib/policy",
        "/repo/src/lib/policy.ts",
        "/repo/src/lib/policy.tsx",
        "/repo/src/lib/policy/index.ts",
        "/repo/gen/lib/policy.ts",
        "/shared/policy.ts",
    ] {
        assert!(found.contains(&PathBuf::from(expected)), "{expected}: {found:?}");
    }
    assert!(!found.iter().any(|p| p.to_string_lossy().contains("rel") || p.ends_with("zod")));
    assert!(!found.iter().any(|p| p.to_string_lossy().contains("node:")), "{found:?}");
    // With a `baseUrl`, any bare specifier is looked for under it too.
    let map = ImportMap { base_url: Some(PathBuf::from("/repo/src")), ..map };
    let found: Vec<PathBuf> =
        mapped_imports(&import_literals(text), &map).into_iter().map(|p| p.path).collect();
    assert!(found.contains(&PathBuf::from("/repo/src/zod.ts")), "{found:?}");
    assert!(found.contains(&PathBuf::from("/repo/src/zod/package.json")), "{found:?}");
}

/// A required folder's `main` (F130): the file from the manifest's folder, with Node's
/// names for one without an extension or a folder; nothing for the folder itself.
#[test]
fn a_folder_manifest_s_main_names_the_file_node_loads() {
    let manifest = Path::new("/repo/tools/lib/package.json");
    let found = |main: &str| -> Vec<PathBuf> {
        crate::imports::package_main_files(manifest, main).into_iter().map(|p| p.path).collect()
    };
    let impl_files = found("impl");
    assert!(impl_files.contains(&PathBuf::from("/repo/tools/lib/impl.js")), "{impl_files:?}");
    assert!(impl_files.contains(&PathBuf::from("/repo/tools/lib/impl/index.js")));
    assert_eq!(found("./dist/index.js"), [PathBuf::from("/repo/tools/lib/dist/index.js")]);
    assert!(found("./dist/").contains(&PathBuf::from("/repo/tools/lib/dist/index.js")));
    assert!(found("../shared/x.js").contains(&PathBuf::from("/repo/tools/shared/x.js")));
    assert!(found("/abs/x.js").is_empty() && found("./").is_empty() && found("").is_empty());
    assert_eq!(crate::toolconfig::package_main(r#"{"main": "impl"}"#).as_deref(), Some("impl"));
    assert_eq!(crate::toolconfig::package_main(r#"{"main": 3}"#), None);
}

/// The folders a Python script adds to its search path from its own place (F132), in the
/// spellings hook scripts use; a path built from a variable alone is not read, nor a line that
/// does not change the path.
#[test]
fn python_path_additions_follow_file_relative_spellings() {
    let added = |line: &str| crate::imports::python_path_additions(line, Path::new("/r/hooks"));
    let one = |p: &str| vec![(PathBase::Root, PathBuf::from(p))];
    assert_eq!(
        added(
            "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))"
        ),
        one("/r/hooks/lib")
    );
    assert_eq!(
        added("sys.path.append(str(Path(__file__).resolve().parent.parent / \"shared\"))"),
        one("/r/shared")
    );
    assert_eq!(
        added("sys.path.insert(0, str(Path(__file__).parents[1] / 'vendor'))"),
        one("/r/vendor")
    );
    assert_eq!(
        added("sys.path[0:0] = [os.path.join(os.path.dirname(__file__), '..', 'lib')]"),
        one("/r/lib")
    );
    assert_eq!(added("site.addsitedir('/opt/gates/lib')"), one("/opt/gates/lib"));
    assert_eq!(added("sys.path += [os.path.dirname(os.path.dirname(__file__))]"), one("/r"));
    assert!(added("sys.path.insert(0, LIB)").is_empty());
    assert!(added("print(os.path.join(os.path.dirname(__file__), 'lib'))").is_empty());
    assert!(added("print('tools')").is_empty());
    // Imports absolute from the script look in each added folder too.
    let text = "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\nimport policy\nfrom . import rel\n";
    let found = files(Language::Python, text);
    assert!(found.contains(&PathBuf::from("/repo/scripts/lib/policy.py")), "{found:?}");
    assert!(!found.contains(&PathBuf::from("/repo/scripts/lib/rel.py")), "{found:?}");
}

/// The environment's relative `PYTHONPATH` folders are searched for a Python module's
/// absolute imports from the run folder (F140), not for its relative ones; `NODE_PATH`'s for
/// a JavaScript file's packages, as a folder and as the files `require` tries (F141), not for
/// its relative specifiers.
#[test]
fn imports_are_looked_for_in_the_environment_s_search_folders() {
    let searched = [(PathBase::RunDir, PathBuf::from("src")), (PathBase::RunDir, PathBuf::new())];
    let text = "import policy\nfrom . import rules\n";
    let found =
        local_imports_from(Language::Python, text, Path::new("/r/s"), Path::new("/r/s"), &searched);
    let has = |base: PathBase, path: &str, role: PathRole| {
        found.contains(&NamedPath { base, path: PathBuf::from(path), role })
    };
    assert!(has(PathBase::RunDir, "src/policy.py", PathRole::Sourced), "{found:?}");
    assert!(has(PathBase::RunDir, "src/policy", PathRole::Compiled), "{found:?}");
    assert!(has(PathBase::RunDir, "policy.py", PathRole::Sourced), "{found:?}");
    assert!(!has(PathBase::RunDir, "src/rules.py", PathRole::Sourced), "{found:?}");
    let js = local_imports_from(
        Language::JavaScript,
        "import x from './x.js';\n",
        Path::new("/r/s"),
        Path::new("/r/s"),
        &searched,
    );
    assert!(js.iter().all(|p| p.base != PathBase::RunDir), "{js:?}");
    let js = local_imports_from(
        Language::JavaScript,
        "const { deny } = require(\"policy\");\n",
        Path::new("/r/s"),
        Path::new("/r/s"),
        &searched,
    );
    let run = |path: &str, role: PathRole| NamedPath {
        base: PathBase::RunDir,
        path: PathBuf::from(path),
        role,
    };
    assert!(js.contains(&run("src/policy", PathRole::Tree)), "{js:?}");
    assert!(js.contains(&run("src/policy.js", PathRole::Sourced)), "{js:?}");
    assert!(js.contains(&run("src/policy/index.js", PathRole::Sourced)), "{js:?}");
}

/// The folders a Python script adds to its search path relative to where it runs (F136):
/// Python resolves a relative entry against the current folder at each import, so the module
/// is named from the run folder (and, for a name on the line such as `HERE`, from the
/// script's own folder too); a `..` is kept for where the run folder is known.
#[test]
fn python_path_additions_follow_run_folder_relative_spellings() {
    let added = |line: &str| crate::imports::python_path_additions(line, Path::new("/r/hooks"));
    let run = |p: &str| (PathBase::RunDir, PathBuf::from(p));
    let beside = |p: &str| (PathBase::Root, PathBuf::from(p));
    assert_eq!(added("sys.path.insert(0, 'tools')"), [run("tools"), beside("/r/hooks/tools")]);
    assert_eq!(added("sys.path.append(os.getcwd())"), [run("")]);
    assert_eq!(added("sys.path.insert(0, str(Path.cwd()))"), [run("")]);
    assert_eq!(added("sys.path.insert(0, '')"), [run("")]);
    assert_eq!(added("sys.path.insert(0, \".\")"), [run("."), beside("/r/hooks")]);
    assert_eq!(
        added("sys.path.insert(0, os.path.join(HERE, 'vendor', 'py'))"),
        [run("vendor/py"), beside("/r/hooks/vendor/py")]
    );
    assert_eq!(added("sys.path.extend(['../shared'])"), [run("../shared"), beside("/r/shared")]);
    // Imports absolute from the script are named from the run folder's addition.
    let text = "import sys\nsys.path.insert(0, 'tools')\nimport policy\n";
    let found = local_imports(Language::Python, text, Path::new("/repo/scripts"));
    let named = |base: PathBase, path: &str, role: PathRole| {
        found.contains(&NamedPath { base, path: PathBuf::from(path), role })
    };
    assert!(named(PathBase::RunDir, "tools/policy.py", PathRole::Sourced), "{found:?}");
    assert!(named(PathBase::RunDir, "tools/policy", PathRole::Tree), "{found:?}");
    assert!(named(PathBase::RunDir, "tools/policy", PathRole::Compiled), "{found:?}");
    assert!(named(PathBase::Root, "/repo/scripts/tools/policy.py", PathRole::Sourced));
    assert!(named(PathBase::Root, "/repo/scripts/policy.py", PathRole::Sourced));
}

proptest! {
    /// Any text through any pattern: no panic, absolute paths only.
    #[test]
    fn any_text_is_mapped_without_panic(
        text in "(import x from |require\\(|[\"'@/*.a-z ]){0,120}",
        pattern in "[@/*.a-z]{0,8}",
        target in "[./*a-z]{0,10}",
    ) {
        let map = ImportMap {
            paths_base: PathBuf::from("/repo"),
            paths: vec![(pattern, vec![target])],
            base_url: Some(PathBuf::from("/repo/src")),
        };
        for p in mapped_imports(&import_literals(&text), &map) {
            prop_assert!(p.path.is_absolute(), "{p:?}");
        }
    }

    /// Any line around a search path change: no panic, absolute folders or relative ones from
    /// the run folder, at most sixteen.
    #[test]
    fn any_path_change_gives_bounded_folders(
        text in "(sys\\.path\\.insert\\(0, |__file__|\\.parent|\\.parents\\[[0-9]\\]|dirname\\(|'\\.\\.'|'lib'|\"/x\"|[ ()/\\\\'\"\n]){0,60}",
    ) {
        let added = crate::imports::python_path_additions(&text, Path::new("/r/s"));
        prop_assert!(added.len() <= 16);
        for (base, dir) in &added {
            match base {
                PathBase::Root => prop_assert!(dir.is_absolute(), "{added:?}"),
                PathBase::RunDir => prop_assert!(dir.is_relative(), "{added:?}"),
                _ => prop_assert!(false, "{added:?}"),
            }
        }
    }

    /// Any Ruby or Perl text built from their loading words: no panic, absolute paths from
    /// the root and relative ones from the run folder, every one a file Ruby or Perl loads.
    #[test]
    fn any_ruby_or_perl_load_gives_files_from_the_root_or_the_run_folder(
        text in "(require_relative |require |load |use lib |use |do |\\$LOAD_PATH\\.unshift|@INC|__dir__|__FILE__|\\$FindBin::Bin|dirname\\(|qw\\(a b\\)|A::B|'\\.\\./x'|\"lib\"|\"/abs\"|'\\./y'|[ ();/\n\u{e8}]){0,40}",
    ) {
        for language in [Language::Ruby, Language::Perl] {
            for p in local_imports(language, &text, Path::new("/repo/s")) {
                prop_assert_eq!(p.role, PathRole::Sourced);
                match p.base {
                    PathBase::Root => prop_assert!(p.path.is_absolute(), "{p:?}"),
                    PathBase::RunDir => prop_assert!(p.path.is_relative(), "{p:?}"),
                    _ => prop_assert!(false, "{p:?}"),
                }
            }
        }
    }

    /// Many imports through many patterns name a bounded number of files.
    #[test]
    fn mapped_files_are_bounded(imports in 1usize..400, patterns in 1usize..64) {
        let text: String = (0..imports).map(|i| format!("import a from \"@/m{i}\";\n")).collect();
        let paths = (0..patterns).map(|i| ("@/*".to_owned(), vec![format!("./t{i}/*")])).collect();
        let map = ImportMap { paths_base: PathBuf::from("/repo"), paths, base_url: None };
        prop_assert!(mapped_imports(&import_literals(&text), &map).len() <= 1024 + 17);
    }

    /// Any text in either language: no panic, absolute paths from the root and relative
    /// ones from the home (CommonJS's global folders), nothing else.
    #[test]
    fn any_text_is_scanned_without_panic(text in "[ -~\n\t\u{e8}\u{1f600}]{0,300}") {
        for language in [Language::Python, Language::JavaScript, Language::Ruby, Language::Perl] {
            for p in local_imports(language, &text, Path::new("/repo/s")) {
                match p.base {
                    PathBase::Root => prop_assert!(p.path.is_absolute()),
                    PathBase::Home | PathBase::RunDir => prop_assert!(p.path.is_relative()),
                    _ => prop_assert!(false, "{p:?}"),
                }
            }
        }
        for (p, kind) in configuration_paths(&text, Path::new("/repo/s")) {
            prop_assert!(p.is_absolute(), "{p:?}");
            prop_assert_eq!(ConfigurationFile::of(p.to_str().unwrap_or_default()), Some(kind));
        }
    }
}
