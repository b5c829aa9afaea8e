//! Tests for the recipe readers: each kind as its tool writes it, the targets a line names,
//! broken texts, a property.

use std::path::Path;

use proptest::prelude::*;

use super::{Recipe, lines};

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn recipe_files_are_told_by_their_names() {
    let of = |name: &str| Recipe::of(Path::new("/p").join(name).as_path());
    assert_eq!(of("package.json"), Some(Recipe::PackageScripts));
    assert_eq!(of("deno.jsonc"), Some(Recipe::DenoTasks));
    assert_eq!(of("GNUmakefile"), Some(Recipe::Make));
    assert_eq!(of("tools.mk"), Some(Recipe::Make));
    assert_eq!(of(".justfile"), Some(Recipe::Just));
    assert_eq!(of("tox.ini"), Some(Recipe::Tox));
    assert_eq!(of("Taskfile.dist.yaml"), Some(Recipe::Manager));
    assert_eq!(of(".pre-commit-config.yaml"), Some(Recipe::Manager));
    assert_eq!(of(".lefthook-local.yml"), Some(Recipe::Manager));
    assert_eq!(of("prek.toml"), Some(Recipe::Manager));
    assert_eq!(of("pyproject.toml"), None);
    assert_eq!(of("Cargo.toml"), None);
}

/// A task runner reads a file its option names as its own kind, whatever the name; a
/// package manager by the file's name.
#[test]
fn a_task_runner_reads_its_file_whatever_its_name() {
    let by = |program: &str, name: &str| Recipe::read_by(program, Path::new(name));
    assert_eq!(by("make", "ci/Makefile.ci"), Some(Recipe::Make));
    assert_eq!(by("just", "build.just"), Some(Recipe::Just));
    assert_eq!(by("task", "ci.yml"), Some(Recipe::Manager));
    assert_eq!(by("pre-commit", "ci/hooks.yaml"), Some(Recipe::Manager));
    assert_eq!(by("tox", "ci/tox-ci.ini"), Some(Recipe::Tox));
    assert_eq!(by("tox", "pyproject.toml"), Some(Recipe::ToxToml));
    assert_eq!(by("npm", "web/package.json"), Some(Recipe::PackageScripts));
    // Recipe files that are code (F95).
    assert_eq!(by("rake", "Rakefile"), Some(Recipe::Rake));
    assert_eq!(by("inv", "tasks.py"), Some(Recipe::Invoke));
    assert_eq!(by("nox", "ci/noxfile.py"), Some(Recipe::Nox));
    assert_eq!(by("gradlew", "settings.gradle.kts"), Some(Recipe::GradleSettings));
    // Fabric's and doit's (F101); doit's configuration is no recipe of lines.
    assert_eq!(by("fab", "fabfile/__init__.py"), Some(Recipe::Fabric));
    assert_eq!(by("doit", "ci/dodo.py"), Some(Recipe::Doit));
    assert_eq!(by("doit", "doit.cfg"), None);
    assert_eq!(by("cargo", "Cargo.toml"), Some(Recipe::Cargo));
    assert_eq!(by("gradle", "build.gradle"), None);
    // lint-staged's data configurations and a manifest's key; its JavaScript ones are code.
    assert_eq!(by("lint-staged", ".lintstagedrc"), Some(Recipe::LintStaged { manifest: false }));
    assert_eq!(by("lint-staged", "package.json"), Some(Recipe::LintStaged { manifest: true }));
    assert_eq!(by("lint-staged", "lint-staged.config.mjs"), Some(Recipe::LintStagedScript));
}

/// lint-staged runs the commands its JavaScript configuration's object gives each glob, as a
/// string, a list or what a function returns (finding F88; checked with lint-staged 16.4
/// here): its values are the lines, a template literal's `${…}` read as a variable; its keys
/// and imports are not.
#[test]
fn lint_staged_s_javascript_commands_are_its_lines() {
    let text = "import { x } from './shared.mjs';\nexport default {\n  '*.js': 'sh tools/x.sh',\n  \"*.ts\": (files) => `sh tools/y.sh ${files.map((f) => `'${f}'`).join(' ')}`,\n  '*.md': ['sh tools/z.sh', \"prettier --write\"],\n};\n";
    assert_eq!(
        lines(text, Recipe::LintStagedScript, &[]),
        ["sh tools/x.sh", "sh tools/y.sh \"$FILES\"", "sh tools/z.sh", "prettier --write",]
    );
}

/// lint-staged runs each command its configuration gives a glob, one or a list, in JSON or
/// YAML or under a manifest's `lint-staged` key (finding F83).
#[test]
fn lint_staged_s_commands_are_its_lines() {
    let rc = |text: &str| lines(text, Recipe::LintStaged { manifest: false }, &[]);
    let json = r#"{"*.{js,ts}": "eslint --fix", "*.py": ["ruff check", "sh tools/x.sh"]}"#;
    assert_eq!(rc(json), ["eslint --fix", "ruff check", "sh tools/x.sh"]);
    let yaml = "'*.js':\n  - sh tools/y.sh --fix\n  - prettier --write\n'*.css': stylelint\n";
    assert_eq!(rc(yaml), ["sh tools/y.sh --fix", "prettier --write", "stylelint"]);
    let manifest =
        r#"{"name": "r", "scripts": {"x": "no"}, "lint-staged": {"*.js": "sh tools/z.sh"}}"#;
    assert_eq!(lines(manifest, Recipe::LintStaged { manifest: true }, &[]), ["sh tools/z.sh"]);
    // A manifest without the key runs nothing of lint-staged's; its other values are no
    // commands.
    assert!(lines(r#"{"name": "r"}"#, Recipe::LintStaged { manifest: true }, &[]).is_empty());
}

/// A manifest's named scripts with their `pre` and `post` scripts; its other scripts name
/// the project's own code, which stays the agent's to edit.
#[test]
fn a_manifest_s_named_scripts_and_deno_s_named_tasks_are_its_lines() {
    let package = r#"{"name": "x", "scripts": {"prelint": "sh tools/pre.sh", "lint": "sh tools/lint.sh", "start": "node src/server.js", "n": 3, "prepare": "husky"}}"#;
    let read = |targets: &[&str]| lines(package, Recipe::PackageScripts, &words(targets));
    assert_eq!(read(&["run", "lint"]), ["sh tools/pre.sh", "sh tools/lint.sh"]);
    assert_eq!(read(&["start"]), ["node src/server.js"]);
    // An install runs the install scripts; `yarn` alone installs.
    assert_eq!(read(&["install"]), ["husky"]);
    assert_eq!(read(&[]), ["husky"]);
    assert_eq!(read(&["run", "n"]), Vec::<String>::new());
    let broken = lines(r#"{"scripts": "lint"}"#, Recipe::PackageScripts, &words(&["lint"]));
    assert_eq!(broken, Vec::<String>::new());
    // npm-run-all's patterns (F75): `*` within a name's `:` parts, `**` across them, with
    // their `pre` and `post` scripts.
    let patterns = r#"{"scripts": {"lint:js": "sh a.sh", "prelint:css:x": "sh b.sh", "lint:css:x": "true", "lint:css": "sh c.sh", "test": "sh d.sh"}}"#;
    let read = |targets: &[&str]| lines(patterns, Recipe::PackageScripts, &words(targets));
    assert_eq!(read(&["lint:css:*"]), ["sh b.sh", "true"]);
    assert_eq!(read(&["lint:*"]), ["sh a.sh", "sh c.sh"]);
    assert_eq!(read(&["lint:**"]), ["sh a.sh", "sh b.sh", "true", "sh c.sh"]);
    assert_eq!(read(&["l*t:js"]), ["sh a.sh"]);
    assert!(super::script_pattern_matches("**", "a:b"));
    assert!(!super::script_pattern_matches("lint", "lint"), "no pattern: names match as names");
    assert!(super::script_pattern_matches(&"*".repeat(64), &"a".repeat(64)), "costly: matched");
    let deno = "{\n  // tasks\n  \"tasks\": {\"a\": \"deno run t/a.ts\", \"b\": {\"command\": \"sh t/b.sh\"}}\n}";
    assert_eq!(lines(deno, Recipe::DenoTasks, &words(&["task", "b"])), ["sh t/b.sh"]);
    assert_eq!(lines(deno, Recipe::DenoTasks, &words(&["a"])), ["deno run t/a.ts"]);
    assert_eq!(lines("{not json", Recipe::PackageScripts, &words(&["a"])), Vec::<String>::new());
}

/// A makefile's named targets' recipes with those of their prerequisites, or the first
/// target's; variables and other targets' recipes are left out.
#[test]
fn a_makefile_s_recipes_for_the_named_targets_are_its_lines() {
    let text = "CC := cc\nX = a:b\n.PHONY: check build\n# comment\ncheck: build | dist\n\t@sh tools/check.sh\n\t-rm -f x \\\n\t  y\n\t# a recipe comment\n\tfor f in $$(ls); do echo $$f; done\nbuild:\n\t+$(MAKE) -C sub\ndist:\n\tsh tools/dist.sh\nrun:\n\tgo run ./cmd/server\n";
    let read = |targets: &[&str]| lines(text, Recipe::Make, &words(targets));
    let check = [
        "sh tools/check.sh",
        "rm -f x  y",
        "for f in $(ls); do echo $f; done",
        "make -C sub",
        "sh tools/dist.sh",
    ];
    assert_eq!(read(&["check"]), check);
    // No target named: the first one that is not special.
    assert_eq!(read(&[]), check);
    assert_eq!(read(&["-C", "sub", "dist"]), ["sh tools/dist.sh"]);
    assert_eq!(read(&["run"]), ["go run ./cmd/server"]);
}

/// What make runs whatever the targets (finding F73; checked with GNU make 4.3 here): the
/// commands of `$(shell …)` and `!=` while it reads the file, its `SHELL` for every recipe
/// line; and the recipes its variables, pattern rules, `.DEFAULT` and `.DEFAULT_GOAL` make
/// run for a target.
#[test]
fn what_make_runs_while_it_reads_a_makefile_are_its_lines() {
    let text = "LINT = sh tools/lint.sh\nFLAGS := -q\nLINT_ALL = $(LINT) $(FLAGS)\nV := $(shell sh tools/v.sh \\\n  --x)\nW != sh tools/w.sh\nX = a != b\nSHELL := ./tools/mysh.sh\ncheck: $(shell sh tools/dep.sh)\n\t$(LINT_ALL) src\n\techo $$(shell x) ${shell sh tools/in.sh}\ndeploy:\n\techo $(shell sh tools/deploy.sh)\n";
    let found = lines(text, Recipe::Make, &words(&["check"]));
    for expected in [
        "sh tools/v.sh  --x",
        "sh tools/w.sh",
        "./tools/mysh.sh",
        "sh tools/dep.sh",
        "sh tools/lint.sh -q src",
        "sh tools/in.sh",
    ] {
        assert!(found.iter().any(|l| l == expected), "{expected}: {found:?}");
    }
    // The shell's own `$(…)`, another target's recipe and a `!=` inside a value are not make's
    // commands to run.
    for not in ["x", "b", "sh tools/deploy.sh"] {
        assert!(!found.iter().any(|l| l == not), "{not}: {found:?}");
    }
    // A target no rule names is made by the pattern rules that match it, or by `.DEFAULT`;
    // no target named, by `.DEFAULT_GOAL` (and the first target's, to be safe).
    let patterns = "x:\n\techo x\n%.o: %.c gen-%.h\n\tcc -c $<\ngen-%.h:\n\tsh tools/gen.sh\n%:\n\tsh tools/any.sh\n";
    // Every pattern that matches (make picks one), with its prerequisites' rules; and, as no
    // word named a rule of its own (it may have been an option's value), the default goal's.
    let found = lines(patterns, Recipe::Make, &words(&["a.o"]));
    assert_eq!(found, ["echo x", "cc -c $<", "sh tools/any.sh", "sh tools/gen.sh"]);
    assert_eq!(lines(patterns, Recipe::Make, &words(&["lint"])), ["echo x", "sh tools/any.sh"]);
    // A pattern whose prerequisite is longer than its target does not grow without end.
    let growing = lines("%: a%b%\n\tsh tools/p.sh\n", Recipe::Make, &words(&["x"]));
    assert_eq!(growing, ["sh tools/p.sh"]);
    let default = "x:\n\techo x\n.DEFAULT:\n\tsh tools/def.sh\n";
    assert_eq!(lines(default, Recipe::Make, &words(&["x"])), ["echo x"]);
    assert_eq!(lines(default, Recipe::Make, &words(&["lint"])), ["echo x", "sh tools/def.sh"]);
    let goal = ".DEFAULT_GOAL := y\nx:\n\techo x\ny:\n\tsh tools/y.sh\n";
    assert_eq!(lines(goal, Recipe::Make, &[]), ["echo x", "sh tools/y.sh"]);
    assert_eq!(lines(goal, Recipe::Make, &words(&["x"])), ["echo x"]);
}

/// A makefile's `include`s are read in their place, each where make looks for it, existing or
/// not; make remakes them, and the makefile itself, by their rules (finding F73).
#[test]
fn a_makefile_s_included_files_are_read_and_remade() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    std::fs::create_dir_all(p.join("mk")).expect("mkdir");
    let makefile = p.join("Makefile");
    std::fs::write(
        &makefile,
        "include mk/rules.mk\n-include local.mk $(DEPS) *.d\nMakefile: Makefile.in\n\tsh tools/remake.sh\ncheck:\n\t$(RUN) check\n",
    )
    .expect("write");
    std::fs::write(
        p.join("mk/rules.mk"),
        "RUN = sh tools/run.sh\nsinclude mk/rules.mk ../up.mk\nlocal.mk:\n\tsh tools/gen.sh > $@\nother:\n\tsh tools/other.sh\n",
    )
    .expect("write");
    let dirs = [p.to_path_buf()];
    let found = super::read(&makefile, Recipe::Make, &words(&["check"]), &dirs);
    assert_eq!(
        found.included,
        [p.join("mk/rules.mk"), p.join("../up.mk"), p.join("local.mk")],
        "each once, the missing ones too, none named through a variable or a wildcard"
    );
    for expected in ["sh tools/run.sh check", "sh tools/gen.sh > $@", "sh tools/remake.sh"] {
        assert!(found.lines.iter().any(|l| l == expected), "{expected}: {:?}", found.lines);
    }
    assert!(!found.lines.iter().any(|l| l.contains("other")), "{:?}", found.lines);
    // Another file is not a makefile's include, and a file that is not there reads as nothing.
    let missing = super::read(&p.join("nothing"), Recipe::Make, &[], &dirs);
    assert_eq!(missing, super::RecipeRead::default());
}

#[test]
fn a_justfile_s_named_recipes_and_their_dependencies_are_its_lines() {
    let text = "set shell := [\"bash\", \"-c\"]\nversion := \"1\"\n\n# lint it\nlint: (fmt \"x\") && report\n    @sh tools/just.sh {{ARGS}}\n    -echo done\n\nfmt arg:\n    sh tools/fmt.sh {{arg}}\n\n[private]\nreport:\n\tsh tools/report.sh\nserve:\n    node src/server.js\n";
    let read = |targets: &[&str]| lines(text, Recipe::Just, &words(targets));
    // `set shell` names the program every line runs through (F74).
    let lint = [
        "bash",
        "sh tools/just.sh {{ARGS}}",
        "echo done",
        "sh tools/fmt.sh {{arg}}",
        "sh tools/report.sh",
    ];
    assert_eq!(read(&["lint"]), lint);
    assert_eq!(read(&[]), lint);
    assert_eq!(read(&["serve"]), ["bash", "node src/server.js"]);
}

/// What just runs whatever the recipe (finding F74; checked with just 1.59 here): every
/// backtick and `shell(…)` of the justfile's assignments, through the program of its `set
/// shell`; and for a recipe, its lines with the string variables interpolated, the backticks
/// of its `{{…}}`, through its aliases, or the `[default]` recipe when none is named.
#[test]
fn what_just_runs_while_it_reads_a_justfile_are_its_lines() {
    let text = "# run `make` first\nv := `sh tools/bt.sh`\nw := shell('sh tools/fn.sh', 'x')\nm := ```\n  sh tools/multi.sh\n  echo two\n```\nset shell := [\"./tools/mysh.sh\", \"-c\"]\nLINT := \"sh tools/lint.sh\"\nalias c := check\n\nfirst:\n    echo first\n\n[default]\n[private]\ncheck: dep\n    {{LINT}} src {{ v }} {{ `sh tools/in.sh` }}\n    echo `date`\n\ndep:\n    sh tools/dep.sh\n\nother:\n    sh tools/other.sh {{`sh tools/other-bt.sh`}}\n";
    let read = |targets: &[&str]| lines(text, Recipe::Just, &words(targets));
    let always =
        ["sh tools/bt.sh", "sh tools/fn.sh", "sh tools/multi.sh\necho two", "./tools/mysh.sh"];
    let check = [
        "sh tools/in.sh",
        "sh tools/lint.sh src {{ v }} {{ `sh tools/in.sh` }}",
        "echo `date`",
        "sh tools/dep.sh",
    ];
    let expected: Vec<&str> = always.iter().chain(check.iter()).copied().collect();
    assert_eq!(read(&["c"]), expected);
    assert_eq!(read(&["check"]), expected);
    // No recipe named: the `[default]` one, not the first.
    assert_eq!(read(&[]), expected);
    let other: Vec<&str> = always
        .iter()
        .copied()
        .chain(["sh tools/other-bt.sh", "sh tools/other.sh {{`sh tools/other-bt.sh`}}"])
        .collect();
    assert_eq!(read(&["mod", "x::other"]), other);
}

/// A justfile's imports are read in their place (relative to the importing file, nested),
/// its modules' places and the `.env` files `set dotenv-load` reads are noted, existing or
/// not, the modules that exist to be read in turn (finding F74).
/// A justfile's recipes run in its `set working-directory` (under its folder, or absolute),
/// a recipe's `[working-directory: …]` under that, and a `[no-cd]` recipe where just was
/// started (finding F90; checked with just 1.59 here).
#[test]
fn a_justfile_s_working_directories_are_where_its_lines_run() {
    let (dirs, no_cd) = super::just_working_dirs(
        "set working-directory := 'tools'\n\ncheck:\n    sh gate.sh\n\n[private, working-directory: \"sub\"]\nother:\n    true\n\n[working-directory('deep')]\nx:\n    true\n",
        Path::new("/p/ci"),
    );
    assert_eq!(
        dirs,
        [Path::new("/p/ci/tools"), Path::new("/p/ci/tools/deep"), Path::new("/p/ci/tools/sub")]
    );
    assert!(!no_cd);
    let (dirs, no_cd) = super::just_working_dirs(
        "set working-directory := \"/opt/w\"\n[no-cd]\nthird:\n    sh ngate.sh\n# set working-directory := 'not-this'\n",
        Path::new("/p"),
    );
    assert_eq!(dirs, [Path::new("/opt/w")]);
    assert!(no_cd);
    // A line of a recipe's body is no setting.
    let (dirs, no_cd) =
        super::just_working_dirs("a:\n    set working-directory := 'x'\n", Path::new("/p"));
    assert!(dirs.is_empty() && !no_cd);
}

#[test]
fn a_justfile_s_imports_modules_and_environment_files_are_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    for d in ["inc", "m1", "proj"] {
        std::fs::create_dir_all(p.join(d)).expect("mkdir");
    }
    let justfile = p.join("proj/justfile");
    std::fs::write(
        &justfile,
        "import '../inc/i.just'\nimport? 'local.just'\nmod m1 '../m1'\nmod m2\nset dotenv-load\nr:\n    true\n",
    )
    .expect("write");
    std::fs::write(p.join("inc/i.just"), "import 'j.just'\n").expect("write");
    std::fs::write(p.join("inc/j.just"), "x := `sh tools/j.sh`\n").expect("write");
    std::fs::write(p.join("m1/mod.just"), "y := `sh tools/m1.sh`\n").expect("write");
    let found = super::read(&justfile, Recipe::Just, &[], &[]);
    let proj = p.join("proj");
    for file in [
        proj.join("../inc/i.just"),
        proj.join("../inc/j.just"),
        proj.join("local.just"),
        proj.join("../m1/mod.just"),
        proj.join("m2.just"),
        proj.join("m2/mod.just"),
        proj.join("m2/justfile"),
        proj.join(".env"),
        p.join(".env"),
    ] {
        assert!(found.included.contains(&file), "{file:?}: {:?}", found.included);
    }
    assert!(found.included.contains(&Path::new("/.env").to_path_buf()), "{:?}", found.included);
    assert_eq!(found.modules, [proj.join("../m1/mod.just")]);
    assert!(found.lines.contains(&"sh tools/j.sh".to_owned()), "{:?}", found.lines);
    // The module's own lines are its own reading's, from its folder.
    assert!(!found.lines.contains(&"sh tools/m1.sh".to_owned()), "{:?}", found.lines);
}

#[test]
fn tox_s_commands_are_its_lines() {
    let text = "[tox]\nenvlist = py3\n\n[testenv:lint]\ndeps = flake8\ncommands_pre = sh tools/pre.sh\ncommands =\n    flake8 src\n    # a comment\n    sh tools/tox.sh {posargs}\nsetenv = X=1\n";
    assert_eq!(
        lines(text, Recipe::Tox, &words(&["-e", "lint"])),
        ["sh tools/pre.sh", "flake8 src", "sh tools/tox.sh {posargs}"]
    );
}

/// tox's TOML configurations (finding F76; checked with tox 4.67 here): `tox.toml`'s tables
/// and `pyproject.toml`'s `[tool.tox]`, every environment's commands as argument lists, and a
/// `legacy_tox_ini` string; `setup.cfg` is read as a `tox.ini`.
#[test]
fn tox_s_toml_configurations_are_its_lines() {
    let toml = "env_list = [\"lint\"]\n[env_run_base]\ncommands_pre = [[\"sh\", \"tools/base.sh\"]]\n[env.lint]\ncommands = [[\"sh\", \"tools/lint.sh\", \"{posargs}\", { replace = \"env\", name = \"X\" }], [\"python\", \"-c\", \"print('a b')\"]]\ncommands_post = [[\"sh\", \"tools/post.sh\"]]\n";
    let found = lines(toml, Recipe::ToxToml, &[]);
    for expected in [
        "sh tools/base.sh",
        "sh tools/lint.sh {posargs}",
        "python -c 'print('\\''a b'\\'')'",
        "sh tools/post.sh",
    ] {
        assert!(found.iter().any(|l| l == expected), "{expected}: {found:?}");
    }
    let pyproject = "[project]\nname = \"x\"\n[tool.other]\ncommands = [[\"sh\", \"tools/no.sh\"]]\n[tool.tox.env.lint]\ncommands = [[\"sh\", \"tools/lint.sh\"]]\n";
    assert_eq!(lines(pyproject, Recipe::ToxToml, &[]), ["sh tools/lint.sh"]);
    let legacy =
        "[tool.tox]\nlegacy_tox_ini = \"\"\"\n[testenv]\ncommands = sh tools/legacy.sh\n\"\"\"\n";
    assert_eq!(lines(legacy, Recipe::ToxToml, &[]), ["sh tools/legacy.sh"]);
    assert_eq!(lines("not = [toml", Recipe::ToxToml, &[]), Vec::<String>::new());
    let by = |name: &str| Recipe::read_by("tox", Path::new(name));
    assert_eq!(by("ci/tox.toml"), Some(Recipe::ToxToml));
    assert_eq!(by("pyproject.toml"), Some(Recipe::ToxToml));
    assert_eq!(by("setup.cfg"), Some(Recipe::Tox));
    assert_eq!(Recipe::of(Path::new("/p/pyproject.toml")), None);
}

#[test]
fn a_taskfile_s_commands_are_read_by_the_managers_reader() {
    let text = "version: '3'\ntasks:\n  lint:\n    cmds:\n      - sh tools/task.sh\n      - cmd: sh tools/task2.sh\n      - task: other\n  one:\n    cmd: sh tools/one.sh\n";
    let values = crate::hookmanagers::config_values(text, crate::hookmanagers::Syntax::Yaml);
    for expected in ["sh tools/task.sh", "sh tools/task2.sh", "sh tools/one.sh"] {
        assert!(values.commands.iter().any(|c| c == expected), "{expected}: {:?}", values.commands);
    }
}

/// A formatter's configuration names the plugins it loads (finding F71), read by the same
/// reader.
/// What task runs of a Taskfile beyond its tasks' `cmds` (finding F77; checked with task
/// 3.54 here): the `sh` of its dynamic variables (the root's at every run, a task's when it
/// runs), its tasks' `preconditions` and `status` commands; and the Taskfiles it includes and
/// the environment files it loads.
#[test]
fn a_taskfile_s_variables_conditions_includes_and_environment_files_are_read() {
    let text = "version: '3'\nincludes:\n  docs: ./docs\n  opt:\n    taskfile: ./opt.yml\n    optional: true\ndotenv: ['.env', 'ci.env']\nvars:\n  DYN:\n    sh: sh tools/dyn.sh\nenv:\n  E:\n    sh: sh tools/env.sh\ntasks:\n  check:\n    preconditions:\n      - sh: sh tools/pre.sh\n        msg: no\n      - test -f go.mod\n    status:\n      - sh tools/status.sh\n    cmds: [sh tools/lint.sh]\n";
    let values = crate::hookmanagers::config_values(text, crate::hookmanagers::Syntax::Yaml);
    for expected in [
        "sh tools/dyn.sh",
        "sh tools/env.sh",
        "sh tools/pre.sh",
        "test -f go.mod",
        "sh tools/status.sh",
        "sh tools/lint.sh",
    ] {
        assert!(values.commands.iter().any(|c| c == expected), "{expected}: {:?}", values.commands);
    }
    assert_eq!(values.includes, ["./docs", "./opt.yml"]);
    assert_eq!(values.dotenv, [".env", "ci.env"]);
    // With files: an included folder's Taskfile by any name, an included file, nested, the
    // missing ones too; each environment file relative to the Taskfile.
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    std::fs::create_dir_all(p.join("docs")).expect("mkdir");
    std::fs::write(p.join("Taskfile.yml"), text).expect("write");
    std::fs::write(
        p.join("docs/taskfile.yaml"),
        "version: '3'\nincludes:\n  deep: ../deep.yml\ntasks:\n  b:\n    cmds: [sh tools/inc.sh]\n",
    )
    .expect("write");
    let found = super::read(&p.join("Taskfile.yml"), Recipe::Manager, &[], &[]);
    for file in [
        p.join("docs/Taskfile.yml"),
        p.join("docs/taskfile.yaml"),
        p.join("docs/../deep.yml"),
        p.join("./opt.yml"),
        p.join(".env"),
        p.join("ci.env"),
    ] {
        assert!(found.included.contains(&file), "{file:?}: {:?}", found.included);
    }
    assert!(found.lines.contains(&"sh tools/inc.sh".to_owned()), "{:?}", found.lines);
    assert!(found.lines.contains(&"sh tools/dyn.sh".to_owned()), "{:?}", found.lines);
}

/// A Taskfile's tasks run their commands in their `dir:` (relative to it), an included
/// Taskfile's in the include's `dir:`, and a `dir: '{{.USER_WORKING_DIR}}'` task where task
/// was started (finding F91; checked with task 3.54 here); another template names no folder
/// known here.
#[test]
fn a_taskfile_s_task_folders_are_where_its_lines_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    let text = "version: '3'\nincludes:\n  docs:\n    taskfile: ./docs.yml\n    dir: ./docs\ntasks:\n  lint:\n    dir: web\n    cmds: [sh scripts/lint.sh]\n  here:\n    dir: '{{.USER_WORKING_DIR}}'\n    cmds: [sh here.sh]\n  other:\n    dir: '{{.SOME}}/x'\n    cmds: [true]\n";
    std::fs::write(p.join("Taskfile.yml"), text).expect("write");
    let found = super::read(&p.join("Taskfile.yml"), Recipe::Manager, &[], &[]);
    assert_eq!(found.run_dirs, [p.join("./docs"), p.join("web")]);
    assert!(found.from_caller);
    assert!(found.lines.contains(&"sh scripts/lint.sh".to_owned()), "{:?}", found.lines);
}

/// Turborepo runs the workspaces' packages' scripts for the tasks its line names, with those
/// their `dependsOn` name in turn (`^build`, `web#build` as `build`), from turbo 2's `tasks`
/// or turbo 1's `pipeline` (finding F92; checked with turbo 2 here).
#[test]
fn turborepo_s_tasks_are_its_scripts_with_their_dependencies() {
    let text = "{\n  // tasks\n  \"tasks\": {\"lint\": {\"dependsOn\": [\"^build\", \"web#codegen\"]}, \"build\": {\"dependsOn\": [\"gen\"]}, \"//#check\": {}}\n}\n";
    assert_eq!(
        super::turbo_tasks(text, &words(&["run", "lint"])),
        ["lint", "build", "codegen", "gen"]
    );
    assert_eq!(super::turbo_tasks(text, &words(&["check"])), ["check"]);
    let v1 = r#"{"pipeline": {"test": {"dependsOn": ["build"]}}}"#;
    assert_eq!(super::turbo_tasks(v1, &words(&["test"])), ["test", "build"]);
    // A file that does not parse: the line's tasks alone.
    assert_eq!(super::turbo_tasks("{", &words(&["run", "lint"])), ["lint"]);
    // A package's task with a dependency's mark after its `#` (found by the fuzz target).
    assert_eq!(super::turbo_tasks("{", &words(&["x#^r"])), ["r"]);
    let found =
        super::read(Path::new("/nonexistent/turbo.json"), Recipe::Turbo, &words(&["lint"]), &[]);
    assert!(found.scripts.is_empty());
    assert_eq!(Recipe::of(Path::new("/p/turbo.json")), Some(Recipe::Turbo));
}

/// Nx runs the targets its line names (`-t lint,test`, `a:lint`, `nx lint a`), with those
/// `targetDefaults` make them depend on: the commands of `project.json` targets at the root
/// and two levels down, from their `cwd`, and the workspaces' scripts of those names; none
/// named stands for all (finding F93; checked with nx 21 here).
#[test]
fn nx_s_targets_are_its_projects_commands_and_scripts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    std::fs::create_dir_all(p.join("libs/c")).expect("mkdir");
    std::fs::create_dir_all(p.join("node_modules/x")).expect("mkdir");
    std::fs::write(
        p.join("nx.json"),
        r#"{"plugins": ["./tools/nx-plugin.js"], "targetDefaults": {"lint": {"dependsOn": ["^build"]}}}"#,
    )
    .expect("write");
    std::fs::write(
        p.join("libs/c/project.json"),
        r#"{"targets": {"lint": {"executor": "nx:run-commands", "options": {"command": "sh tools/c-lint.sh", "cwd": "libs/c"}}, "build": {"options": {"commands": ["sh b1.sh", {"command": "sh b2.sh"}]}}, "serve": {"options": {"command": "sh serve.sh"}}}}"#,
    )
    .expect("write");
    std::fs::write(
        p.join("node_modules/x/project.json"),
        r#"{"targets": {"lint": {"options": {"command": "sh no.sh"}}}}"#,
    )
    .expect("write");
    let found =
        super::read(&p.join("nx.json"), Recipe::Nx, &words(&["run-many", "-t", "lint"]), &[]);
    assert_eq!(found.lines, ["sh tools/c-lint.sh", "sh b1.sh", "sh b2.sh"]);
    assert_eq!(found.scripts, ["lint", "build"]);
    assert_eq!(found.run_dirs, [p.join("libs/c")]);
    assert!(found.included.contains(&p.join("libs/c/project.json")), "{:?}", found.included);
    assert!(found.included.contains(&p.join("tools/nx-plugin.js")), "{:?}", found.included);
    let found = super::read(&p.join("nx.json"), Recipe::Nx, &words(&["run", "c:serve"]), &[]);
    assert_eq!(found.lines, ["sh serve.sh"]);
    let found = super::read(&p.join("nx.json"), Recipe::Nx, &words(&["affected"]), &[]);
    assert_eq!(found.scripts, ["**"]);
    assert_eq!(found.lines.len(), 4);
}

/// A package manager's run in its workspaces reads their packages' manifests (finding F78;
/// checked with npm 11 and pnpm 9 here): the patterns of the root manifest's `workspaces` (a
/// list, or `{"packages": [...]}`) and of `pnpm-workspace.yaml`'s `packages`.
#[test]
fn the_workspaces_manifests_are_found_by_their_patterns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path();
    for d in ["packages/a", "packages/b", "packages/.hidden", "apps/web", "tools/cli", "other/x"] {
        std::fs::create_dir_all(p.join(d)).expect("mkdir");
        std::fs::write(p.join(d).join("package.json"), "{}").expect("write");
    }
    std::fs::create_dir_all(p.join("packages/no-manifest")).expect("mkdir");
    std::fs::write(
        p.join("package.json"),
        r#"{"workspaces": {"packages": ["packages/*", "!packages/b", "tools/cli", "missing/*"]}}"#,
    )
    .expect("write");
    std::fs::write(
        p.join("pnpm-workspace.yaml"),
        "packages:\n  - 'apps/*'\n  - \"!other/*\"\ncatalog:\n  - x\n",
    )
    .expect("write");
    let mut found = super::workspace_manifests(&p.join("package.json"));
    found.sort();
    let mut expected: Vec<std::path::PathBuf> =
        ["apps/web", "packages/a", "packages/b", "tools/cli"]
            .iter()
            .map(|d| p.join(d).join("package.json"))
            .collect();
    expected.sort();
    assert_eq!(
        found, expected,
        "a negation protects more; hidden folders and folders without a manifest are passed over"
    );
    std::fs::write(p.join("package.json"), r#"{"workspaces": ["other/*"]}"#).expect("write");
    std::fs::remove_file(p.join("pnpm-workspace.yaml")).expect("remove");
    assert_eq!(
        super::workspace_manifests(&p.join("package.json")),
        [p.join("other/x/package.json")]
    );
    for (part, name, matches) in [
        ("*", "a", true),
        ("pkg-*", "pkg-a", true),
        ("pkg-*", "app", false),
        ("a*b*c", "aXbYc", true),
        ("ab*ba", "aba", false),
    ] {
        assert_eq!(super::folder_glob_matches(part, name), matches, "{part} {name}");
    }
}

#[test]
fn a_formatter_configuration_s_plugins_are_read() {
    use crate::hookmanagers::{Syntax, config_values};
    let json =
        config_values(r#"{"semi": false, "plugins": ["./tools/pl.js", "x"]}"#, Syntax::Jsonc);
    assert!(json.plugins.contains(&"./tools/pl.js".to_owned()), "{:?}", json.plugins);
    assert!(json.plugins.contains(&"x".to_owned()), "{:?}", json.plugins);
    let yaml = config_values("semi: false\nplugins:\n  - ../shared/p.mjs\n", Syntax::Yaml);
    assert_eq!(yaml.plugins, ["../shared/p.mjs"]);
}

proptest! {
    /// Any TOML made of script tables that name each other (cycles included): no panic, at
    /// most 256 lines, each from the text.
    #[test]
    fn any_project_scripts_give_bounded_lines(
        parts in proptest::collection::vec(prop_oneof![
            Just("[tool.pdm.scripts]\n"), Just("[tool.poe.tasks]\n"), Just("[envs.e.scripts]\n"),
            Just("[tasks]\n"), Just("a = \"b\"\n"), Just("b = [\"a\", \"c x\"]\n"),
            Just("c = {composite = [\"a\", \"b\"]}\n"), Just("d = {cmd = [\"sh\", \"x y\"]}\n"),
            Just("e = {depends-on = [\"a\", \"e\"], deps = \"d\"}\n"), Just("pre_a = \"q\"\n"),
            Just("f = {sequence = [{ref = \"a\"}, {task = \"b\"}]}\n"), Just("="), Just("\n"),
        ], 0..30),
        table in 0..5usize,
    ) {
        use super::ScriptTable;
        let text: String = parts.concat();
        let tables = [ScriptTable::Pdm, ScriptTable::Poe, ScriptTable::Hatch, ScriptTable::Rye, ScriptTable::Pixi];
        let found = super::project_scripts(&text, tables[table], &words(&["a", "c", "e", "f"]));
        prop_assert!(found.len() <= 256);
        prop_assert!(found.iter().all(|l| l.len() <= 2 * text.len() + 2), "{found:?}");
    }

    /// Any manifest made of what cargo's reader looks for: no panic, every place it names
    /// absolute and resolved, bounded.
    #[test]
    fn any_cargo_manifest_names_resolved_places(
        parts in proptest::collection::vec(prop_oneof![
            Just("[package]\n"), Just("[workspace]\n"), Just("[dependencies]\n"),
            Just("[patch.x]\n"), Just("[target.'cfg(unix)'.dev-dependencies]\n"),
            Just("build = \"../b.rs\"\n"), Just("build = false\n"), Just("workspace = \"..\"\n"),
            Just("members = [\"a/*\", \"../../..\", \"\"]\n"), Just("d = { path = \"./../d\" }\n"),
            Just("e = { path = \"/x/../../e\" }\n"), Just("["), Just("="), Just("\n"),
        ], 0..30),
    ) {
        let text: String = parts.concat();
        let Some(found) = super::cargo::manifest_reaches(&text, Path::new("/p/q")) else {
            return Ok(());
        };
        prop_assert!(found.members.len() <= 64 && found.dependencies.len() <= 64);
        for path in found.build_script.iter().chain(&found.workspace).chain(&found.dependencies) {
            prop_assert!(path.is_absolute(), "{path:?}");
            let parts = path.components();
            prop_assert!(parts.into_iter().all(|c| !matches!(c, std::path::Component::ParentDir)), "{path:?}");
        }
    }

    /// Any text made of what the Gradle settings reader looks for: no panic, each build a
    /// non-empty piece of the text with no variable.
    #[test]
    fn any_gradle_settings_give_pieces_of_their_text(
        parts in proptest::collection::vec(prop_oneof![
            Just("includeBuild"), Just("("), Just(")"), Just("\""), Just("'"), Just(" "),
            Just("a/b"), Just("$x"), Just("\n"), Just("pluginManagement {"), Just("}"), Just("é"),
        ], 0..40),
    ) {
        let text: String = parts.concat();
        for build in super::gradle_included_builds(&text) {
            prop_assert!(!build.is_empty() && text.contains(&build), "{build:?}");
            prop_assert!(!build.contains('$'), "{build:?}");
        }
    }

    /// Any text, of any kind, for no target or two: no panic, every line non-empty, at most
    /// 256 of them.
    #[test]
    fn any_text_gives_at_most_256_non_empty_lines(
        text in "[ \\t@\\-+a-z$()\\\\#:{}\"\\n|;=]{0,400}",
        targets in proptest::collection::vec("[a-z]{1,3}", 0..3),
    ) {
        for kind in [Recipe::PackageScripts, Recipe::DenoTasks, Recipe::Make, Recipe::Just, Recipe::Tox, Recipe::ToxToml] {
            let found = lines(&text, kind, &targets);
            prop_assert!(found.len() <= 256);
            prop_assert!(found.iter().all(|l| !l.trim().is_empty()));
        }
    }

    /// A makefile made of what make reads specially (variables that name themselves or each
    /// other, nested `$(shell …)`, patterns, `.DEFAULT`, includes, continued lines): no panic,
    /// at most 256 lines, none longer than the expansions' budget allows.
    #[test]
    fn any_makefile_gives_bounded_lines(
        parts in proptest::collection::vec(prop_oneof![
            Just("X = $(X)$(X)$(Y)\n"), Just("Y := $(X) $(shell sh y)\n"), Just("Z != sh z\n"),
            Just("SHELL = ./s\n"), Just("$(shell $(shell a) b"), Just("${shell c}"), Just("%:"),
            Just("%.o: %.c\n"), Just(".DEFAULT:\n"), Just(".DEFAULT_GOAL := a\n"),
            Just("include a.mk $(D)\n"), Just("a b: c | d\n"), Just("\t$(X) $$(q)\n"),
            Just("\\\n"), Just("$("), Just(")"), Just("}"), Just("a"), Just("\n"),
        ], 0..40),
        targets in proptest::collection::vec("[a-z.%]{1,3}", 0..3),
    ) {
        let text: String = parts.concat();
        let found = lines(&text, Recipe::Make, &targets);
        prop_assert!(found.len() <= 256);
        // A line is at most the text's own bytes and what the expansions' budget adds.
        prop_assert!(found.iter().all(|l| l.len() <= text.len() + 1024 * 1024), "{found:?}");
    }

    /// A justfile made of what just reads specially (backticks, triple backticks left open,
    /// `shell(…)`, `set shell`, aliases, attributes, interpolations of long values): no panic,
    /// at most 256 non-empty lines, none longer than the interpolations' budget allows.
    #[test]
    fn any_justfile_gives_bounded_lines(
        parts in proptest::collection::vec(prop_oneof![
            Just("a := \"xxxxxxxxxxxxxxxx\"\n"), Just("b := `sh b`\n"), Just("```"),
            Just("c := shell('sh c')\n"), Just("set shell := [\"./s\", \"-c\"]\n"),
            Just("alias d := a\n"), Just("[default]\n"), Just("r: d\n"), Just("d:\n"),
            Just("    {{a}}{{a}}{{ `q` }}\n"), Just("import 'x'\n"), Just("`"), Just("{{"),
            Just("}}"), Just("#"), Just("a"), Just("\n"), Just("    "),
        ], 0..60),
        targets in proptest::collection::vec("[a-z:]{1,3}", 0..3),
    ) {
        let text: String = parts.concat();
        let found = lines(&text, Recipe::Just, &targets);
        prop_assert!(found.len() <= 256);
        prop_assert!(found.iter().all(|l| !l.trim().is_empty()), "{found:?}");
        prop_assert!(found.iter().all(|l| l.len() <= text.len() + 1024 * 1024), "{found:?}");
    }
}

/// The builds a Gradle settings script includes (finding F98; checked with Gradle 4.4 here:
/// an included build's settings, build script and `buildSrc/` ran at `gradle help`), in
/// Groovy and Kotlin, inside `pluginManagement { }` or not; a path built at run time is not
/// read; each is a folder protected whole, whose settings are read in turn.
#[test]
fn a_gradle_settings_script_s_included_builds_are_read() {
    let text = "pluginManagement {\n    includeBuild(\"build-logic\")\n}\nincludeBuild '../shared'\nincludeBuild(file(\"x\"))\nincludeBuild(\"$dir/y\")\n// includeBuild \"build-logic\"\n";
    assert_eq!(super::gradle_included_builds(text), ["build-logic", "../shared"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("app");
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::write(root.join("settings.gradle.kts"), text).expect("write");
    let read = super::read(&root.join("settings.gradle.kts"), Recipe::GradleSettings, &[], &[]);
    // The build's own logic beside its settings (F100: also when Gradle found them above),
    // then the builds they include.
    let folders = [
        root.join("gradle"),
        root.join("buildSrc"),
        root.join("build-logic"),
        dir.path().join("shared"),
    ];
    assert_eq!(read.folders, folders);
    for script in ["build.gradle", "build.gradle.kts", "settings.gradle", "gradle.properties"] {
        assert!(read.included.contains(&root.join(script)), "{script}: {read:?}");
    }
    assert!(read.modules.contains(&dir.path().join("shared/settings.gradle")), "{read:?}");
    assert!(read.lines.is_empty());
}

/// Fabric reads its `fabfile.py` as invoke reads `tasks.py`, with its own project
/// configuration beside it (`fabric.yaml`'s `run.shell` the program of every line), its lines
/// run where it was started; doit's `dodo.py` is Python whose actions (a command string, an
/// argument list) run from its folder (finding F101; checked with Fabric 3.2 and doit 0.37).
#[test]
fn fabric_s_and_doit_s_python_is_read_for_what_it_loads_and_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |rel: &str, text: &str| std::fs::write(dir.path().join(rel), text).expect("write");
    write(
        "fabfile.py",
        "from fabric import task\nimport helpers\n@task\ndef lint(c):\n    c.run(\"sh tools/f.sh\")\n",
    );
    write("fabric.yaml", "run:\n  shell: tools/shell\n");
    write(
        "dodo.py",
        "def task_lint():\n    return {\"actions\": [\"sh tools/d.sh\", [\"sh\", \"tools/d2.sh\"]]}\n",
    );
    let fab = super::read(&dir.path().join("fabfile.py"), Recipe::Fabric, &[], &[]);
    assert_eq!(fab.lines, ["sh tools/f.sh", "tools/shell"]);
    assert!(fab.from_caller);
    for name in ["helpers.py", "fabric.yaml", "fabric.py"] {
        assert!(fab.included.contains(&dir.path().join(name)), "{name}: {fab:?}");
    }
    assert!(!fab.included.contains(&dir.path().join("invoke.yaml")), "{fab:?}");
    let doit = super::read(&dir.path().join("dodo.py"), Recipe::Doit, &[], &[]);
    // Every literal is a line (a key too: protect more), an argument list's joined.
    for line in ["sh tools/d.sh", "sh tools/d2.sh"] {
        assert!(doit.lines.iter().any(|l| l == line), "{line}: {doit:?}");
    }
    assert!(!doit.from_caller);
}

/// What a Python project's build backend runs when a project manager installs the project
/// (finding F105; checked with uv and Hatch 1.18 here: `uv run` ran `setup.py`, `hatch run`
/// the `hatch_build.py` custom hook): the default files, the hooks and scripts the
/// configuration names, an in-tree backend's folder, the backend's own build files.
#[test]
fn a_python_project_s_build_files_are_read_from_its_pyproject() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pyproject = dir.path().join("pyproject.toml");
    let text = r#"
[build-system]
requires = ["scikit-build-core"]
build-backend = "scikit_build_core.build"
backend-path = ["_backend"]
[tool.hatch.build.hooks.custom]
path = "tools/hook.py"
[tool.hatch.metadata.hooks.custom]
path = "tools/meta.py"
[tool.hatch.build.targets.wheel.hooks.custom]
path = "tools/wheel.py"
[tool.poetry.build]
script = "tools/pbuild.py"
"#;
    std::fs::write(&pyproject, text).expect("write");
    let read = super::read(&pyproject, Recipe::PythonBuild, &[], &[]);
    let files = [
        "setup.py",
        "hatch_build.py",
        "pdm_build.py",
        "CMakeLists.txt",
        "tools/hook.py",
        "tools/meta.py",
        "tools/wheel.py",
        "tools/pbuild.py",
    ];
    for file in files {
        assert!(read.included.contains(&dir.path().join(file)), "{file}: {read:?}");
    }
    assert_eq!(read.folders, [dir.path().join("_backend")]);
    assert!(read.lines.is_empty());
    // Poetry's older spelling; a file that is not TOML still has the default files.
    std::fs::write(&pyproject, "[tool.poetry]\nbuild = \"build.py\"\n").expect("write");
    let read = super::read(&pyproject, Recipe::PythonBuild, &[], &[]);
    assert!(read.included.contains(&dir.path().join("build.py")), "{read:?}");
    std::fs::write(&pyproject, "[tool.poetry\n").expect("write");
    let read = super::read(&pyproject, Recipe::PythonBuild, &[], &[]);
    assert_eq!(read.included.len(), 3, "{read:?}");
    let by = |program: &str| Recipe::read_by(program, &pyproject);
    assert_eq!(by(crate::scripts::PYTHON_BUILD_READER), Some(Recipe::PythonBuild));
}

/// The local projects a Python project's manager builds with it (finding F110; checked with
/// uv 0.13 here): uv's `path` sources (a table or a list), its workspace's members (a
/// pattern's existing folders read, its names protected under the fixed part), Poetry's
/// `path` dependencies in any group, the `file:` URLs of the dependency lists with
/// `${PROJECT_ROOT}` and `{root:uri}` read as the project's folder; each read in turn, an
/// archive protected as it is; a package's name or another URL names none.
#[test]
fn a_python_project_s_path_dependencies_are_read_in_turn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("packages/m")).expect("mkdir");
    let pyproject = root.join("pyproject.toml");
    let text = r#"
[project]
dependencies = ["requests", "x @ file:///${PROJECT_ROOT}/ext/x", "y @ https://example.invalid/y.zip"]
[project.optional-dependencies]
dev = ["z @ {root:uri}/ext/z"]
[dependency-groups]
test = ["w @ file:///opt/w"]
[tool.pdm.dev-dependencies]
lint = ["-e file:///${PROJECT_ROOT}/ext/e"]
[tool.uv.sources]
lib = { path = "lib" }
m = { workspace = true }
multi = [{ path = "multi/a", marker = "sys_platform == 'linux'" }, { index = "x" }]
[tool.uv.workspace]
members = ["packages/*", "tools/one"]
[tool.poetry.dependencies]
plib = { path = "../plib", develop = true }
[tool.poetry.group.dev.dependencies]
arch = { path = "dist/arch-1.0.tar.gz" }
"#;
    std::fs::write(&pyproject, text).expect("write");
    let read = super::read(&pyproject, Recipe::PythonBuild, &[], &[]);
    let modules: Vec<std::path::PathBuf> = [
        "ext/x",
        "ext/z",
        "/opt/w",
        "ext/e",
        "lib",
        "multi/a",
        "../plib",
        "packages/m",
        "tools/one",
    ]
    .iter()
    .map(|p| {
        crate::paths::normalize_absolute(&root.join(p))
            .expect("abs")
            .as_path()
            .join("pyproject.toml")
    })
    .collect();
    let mut got = read.modules.clone();
    got.sort();
    let mut want = modules.clone();
    want.sort();
    assert_eq!(got, want);
    for module in &modules {
        let setup = module.with_file_name("setup.py");
        assert!(read.included.contains(&setup), "{setup:?}: {read:?}");
    }
    assert!(read.included.contains(&root.join("dist/arch-1.0.tar.gz")), "{read:?}");
    assert_eq!(read.names_under, [(root.join("packages"), super::PYTHON_MEMBER_FILES)]);
    // Nothing but its own build where it names no local project.
    std::fs::write(
        &pyproject,
        "[project]\ndependencies = [\"lib\", \"y @ https://example.invalid/y.zip\"]\n",
    )
    .expect("write");
    let read = super::read(&pyproject, Recipe::PythonBuild, &[], &[]);
    assert!(read.modules.is_empty() && read.names_under.is_empty(), "{read:?}");
}

/// An install runs the install scripts of the local packages it installs (finding F114;
/// checked with npm 11 here): the `file:` and `link:` specs of a manifest's dependency lists,
/// those written as a folder's path, and the line's operands written so; each manifest
/// protected and read in turn, a tarball protected as it is; nothing for a run of a script,
/// and a registry's version, a URL or the home's folder name none.
#[test]
fn an_install_reads_the_local_packages_it_installs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let manifest = root.join("package.json");
    let text = r#"{"dependencies": {"x": "file:./x", "r": "^1.0.0", "u": "https://example.invalid/u.tgz",
        "h": "~/h", "abs": "file:///opt/abs"},
        "devDependencies": {"y": "file:y", "t": "file:vendor/t-1.0.0.tgz"},
        "optionalDependencies": {"l": "link:../l", "p": "./p"},
        "scripts": {"postinstall": "node tools/post.js", "lint": "eslint ."}}"#;
    std::fs::write(&manifest, text).expect("write");
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    let read = super::read(&manifest, Recipe::PackageScripts, &words(&["install", "./z"]), &[]);
    let at = |p: &str| {
        crate::paths::normalize_absolute(&root.join(p)).expect("abs").as_path().to_path_buf()
    };
    let mut modules = read.modules.clone();
    modules.sort();
    let mut want: Vec<std::path::PathBuf> =
        ["x", "y", "../l", "p", "z"].iter().map(|p| at(p).join("package.json")).collect();
    want.push(std::path::PathBuf::from("/opt/abs/package.json"));
    want.sort();
    assert_eq!(modules, want);
    for file in &want {
        assert!(read.included.contains(file), "{file:?}: {read:?}");
    }
    assert!(read.included.contains(&at("vendor/t-1.0.0.tgz")), "{read:?}");
    assert_eq!(read.lines, ["node tools/post.js"]);
    // A script's run installs nothing.
    let read = super::read(&manifest, Recipe::PackageScripts, &words(&["run", "lint"]), &[]);
    assert!(read.modules.is_empty() && read.included.is_empty(), "{read:?}");
    assert_eq!(read.lines, ["eslint ."]);
}

/// cargo's aliases (finding F116): the alias's words (a string split at blanks, or a list)
/// with the line's others as cargo's own line, from the configuration where cargo runs or the
/// nearest above that has it; the package `cargo run -p NAME` builds found by its name among
/// the workspace's members, its `src/main.rs` protected.
#[test]
fn cargo_s_aliases_and_named_packages_are_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".cargo")).expect("mkdir");
    std::fs::create_dir_all(root.join("app/.cargo")).expect("mkdir");
    std::fs::create_dir_all(root.join("tools/xtask")).expect("mkdir");
    std::fs::write(
        root.join(".cargo/config.toml"),
        "[alias]\nxtask = \"run --package xtask --\"\nl = [\"run\", \"--manifest-path\", \"tools/l/Cargo.toml\"]\n",
    )
    .expect("write");
    std::fs::write(root.join("app/.cargo/config.toml"), "[build]\njobs = 2\n").expect("write");
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    let from_app = root.join("app/.cargo/config.toml");
    let read = super::read(&from_app, Recipe::CargoAlias, &words(&["xtask", "check"]), &[]);
    assert_eq!(read.lines, ["cargo 'run' '--package' 'xtask' '--' 'check'"]);
    assert_eq!(read.run_dirs, [root.to_path_buf()]);
    assert!(read.from_caller);
    let read = super::read(&from_app, Recipe::CargoAlias, &words(&["l"]), &[]);
    assert_eq!(read.lines, ["cargo 'run' '--manifest-path' 'tools/l/Cargo.toml'"]);
    let none = super::read(&from_app, Recipe::CargoAlias, &words(&["nope"]), &[]);
    assert!(none.lines.is_empty(), "{none:?}");
    assert_eq!(super::cargo::alias_expansion("[alias\n", "x"), None);
    assert_eq!(super::cargo::alias_expansion("[alias]\nx = 1\n", "x"), None);
    // `cargo run -p xtask`: the member named so.
    std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = [\"tools/*\"]\n")
        .expect("write");
    std::fs::write(root.join("tools/xtask/Cargo.toml"), "[package]\nname = \"xtask\"\n")
        .expect("write");
    let targets = words(&[&format!("{}xtask", super::CARGO_PACKAGE_TARGET)]);
    let read = super::read(&root.join("Cargo.toml"), Recipe::Cargo, &targets, &[]);
    assert!(read.included.contains(&root.join("tools/xtask/src/main.rs")), "{read:?}");
    let read = super::read(&root.join("Cargo.toml"), Recipe::Cargo, &[], &[]);
    assert!(!read.included.contains(&root.join("tools/xtask/src/main.rs")), "{read:?}");
}

/// What cargo builds and runs from a manifest (finding F100; checked with cargo here, each
/// build script writing a marker): the build scripts of the workspace's members (the
/// auto-detected `build.rs`, one `package.build` names, none for `build = false`), of the
/// packages dependencies, `[patch]` and `[replace]` name by `path` (per target too), read
/// from a member's manifest through the workspace above it; a members' pattern protects the
/// member files by name under its folder, for members added later.
#[test]
fn a_cargo_manifest_reaches_the_build_scripts_cargo_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = dir.path().join("ws");
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    let package = |name: &str| format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n");
    write(
        "ws/Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\", \"tools/gen\"]\n[workspace.dependencies]\nshared = { path = \"../shared\" }\n[patch.crates-io]\np = { path = \"vendor/p\" }\n[replace]\n\"r:1.0.0\" = { path = \"vendor/r\" }\n",
    );
    write(
        "ws/crates/a/Cargo.toml",
        &format!(
            "{}[dependencies]\nx = {{ path = \"../../../x\" }}\n[target.'cfg(unix)'.build-dependencies.t]\npath = \"/opt/t/../t2\"\n",
            package("a")
        ),
    );
    write("ws/crates/b/Cargo.toml", &format!("{}build = \"gen/b.rs\"\n", package("b")));
    write("ws/crates/c/Cargo.toml", &format!("{}build = false\n", package("c")));
    write("ws/crates/d/Cargo.toml", "[package\nbroken");
    write("x/Cargo.toml", &package("x"));
    write("shared/Cargo.toml", &package("shared"));
    let read = super::read(&ws.join("crates/a/Cargo.toml"), Recipe::Cargo, &[], &[]);
    let protected = [
        "ws/Cargo.toml",
        "ws/crates/a/Cargo.toml",
        "ws/crates/a/build.rs",
        "ws/crates/b/gen/b.rs",
        "ws/crates/d/build.rs",
        "ws/tools/gen/Cargo.toml",
        "ws/vendor/p/Cargo.toml",
        "ws/vendor/r/Cargo.toml",
        "x/Cargo.toml",
        "x/build.rs",
        "shared/build.rs",
    ];
    for rel in protected {
        assert!(read.included.contains(&dir.path().join(rel)), "{rel}: {read:?}");
    }
    assert!(read.included.contains(&Path::new("/opt/t2/Cargo.toml").to_path_buf()), "{read:?}");
    for rel in ["ws/crates/c/build.rs", "ws/crates/b/build.rs", "ws/build.rs"] {
        assert!(!read.included.contains(&dir.path().join(rel)), "{rel}: {read:?}");
    }
    assert_eq!(read.names_under, [(ws.join("crates"), super::cargo::MEMBER_FILES)]);
    assert!(read.lines.is_empty());
    // A package alone, in no workspace: its manifest and its build script.
    let alone = super::read(&dir.path().join("x/Cargo.toml"), Recipe::Cargo, &[], &[]);
    assert_eq!(alone.included, [dir.path().join("x/Cargo.toml"), dir.path().join("x/build.rs")]);
    // cargo's own name for the file; another program's `Cargo.toml` is no recipe.
    assert_eq!(Recipe::read_by("cargo", &ws.join("Cargo.toml")), Some(Recipe::Cargo));
    assert_eq!(Recipe::read_by("make", &ws.join("Cargo.toml")), Some(Recipe::Make));
    assert_eq!(Recipe::read_by("npm", &ws.join("Cargo.toml")), None);
}

/// The scripts Python projects' managers run by name (finding F99; checked with PDM, poe and
/// Hatch here): the named script's command in each form, the scripts it runs by name in turn
/// (a composite's, a sequence's, `depends-on`, a Hatch command's first word, PDM's `pre_`),
/// not the scripts no target names.
#[test]
fn python_projects_scripts_are_their_named_commands() {
    use super::ScriptTable;
    let text = r#"
[tool.pdm.scripts]
pre_lint = "sh tools/pre.sh"
lint = {composite = ["sub", "sh tools/pdm.sh"]}
sub = {cmd = ["sh", "tools/sub sh.sh"]}
start = "python src/app.py"
[tool.poe.tasks]
lint = {sequence = ["psub", {cmd = "sh tools/poe.sh"}], deps = ["pdep"]}
psub = {shell = "sh tools/psub.sh"}
pdep = "sh tools/pdep.sh"
[tool.hatch.envs.default.scripts]
lint = ["hsub --x", "sh tools/hatch.sh"]
hsub = "sh tools/hsub.sh"
[tool.rye.scripts]
lint = {chain = ["sh tools/rye.sh"]}
[tool.pixi.tasks]
lint = {cmd = "sh tools/pixi.sh", depends-on = ["xpre"]}
xpre = "sh tools/xpre.sh"
"#;
    let read = |table, target: &str| {
        let mut found = super::project_scripts(text, table, &words(&[target]));
        found.sort();
        found
    };
    assert_eq!(
        read(ScriptTable::Pdm, "lint"),
        ["sh 'tools/sub sh.sh'", "sh tools/pdm.sh", "sh tools/pre.sh", "sub"]
    );
    assert_eq!(
        read(ScriptTable::Poe, "lint"),
        ["psub", "sh tools/pdep.sh", "sh tools/poe.sh", "sh tools/psub.sh"]
    );
    assert_eq!(
        read(ScriptTable::Hatch, "default:lint"),
        ["hsub --x", "sh tools/hatch.sh", "sh tools/hsub.sh"]
    );
    assert_eq!(read(ScriptTable::Rye, "lint"), ["sh tools/rye.sh"]);
    assert_eq!(read(ScriptTable::Pixi, "lint"), ["sh tools/pixi.sh", "sh tools/xpre.sh"]);
    // A script no target names is not read; broken TOML gives nothing.
    assert!(!read(ScriptTable::Pdm, "lint").iter().any(|l| l.contains("app.py")));
    assert!(
        super::project_scripts("[tool.pdm.scripts\nlint = 1", ScriptTable::Pdm, &words(&["lint"]))
            .is_empty()
    );
    // Hatch's own file and Pixi's.
    let hatch = "[envs.lint.scripts]\ncheck = \"sh tools/h.sh\"\n";
    assert_eq!(
        super::project_scripts(hatch, ScriptTable::Hatch, &words(&["check"])),
        ["sh tools/h.sh"]
    );
    let pixi = "[tasks]\ncheck = \"sh tools/p.sh\"\n[feature.ci.tasks]\nci = \"sh tools/c.sh\"\n";
    assert_eq!(super::project_scripts(pixi, ScriptTable::Pixi, &words(&["ci"])), ["sh tools/c.sh"]);
    let by = |program: &str, name: &str| Recipe::read_by(program, Path::new(name));
    assert_eq!(by("poe", "pyproject.toml"), Some(Recipe::ProjectScripts(ScriptTable::Poe)));
    assert_eq!(by("hatch", "hatch.toml"), Some(Recipe::ProjectScripts(ScriptTable::Hatch)));
}
