//! Tests for the recipe readers: each kind as its tool writes it, broken texts, a property.

use std::path::Path;

use proptest::prelude::*;

use super::{Recipe, lines};

#[test]
fn recipe_files_are_told_by_their_names() {
    let of = |name: &str| Recipe::of(Path::new("/p").join(name).as_path());
    assert_eq!(of("package.json"), Some(Recipe::PackageScripts));
    assert_eq!(of("deno.jsonc"), Some(Recipe::DenoTasks));
    assert_eq!(of("GNUmakefile"), Some(Recipe::Make));
    assert_eq!(of("tools.mk"), Some(Recipe::Make));
    assert_eq!(of(".justfile"), Some(Recipe::Just));
    assert_eq!(of("Taskfile.dist.yaml"), Some(Recipe::Manager));
    assert_eq!(of(".pre-commit-config.yaml"), Some(Recipe::Manager));
    assert_eq!(of(".lefthook-local.yml"), Some(Recipe::Manager));
    assert_eq!(of("prek.toml"), Some(Recipe::Manager));
    assert_eq!(of("pyproject.toml"), None);
    assert_eq!(of("Cargo.toml"), None);
}

#[test]
fn a_manifest_s_scripts_and_deno_s_tasks_are_its_lines() {
    let package =
        r#"{"name": "x", "scripts": {"lint": "sh tools/lint.sh", "test": "jest", "n": 3}}"#;
    assert_eq!(lines(package, Recipe::PackageScripts), ["sh tools/lint.sh", "jest"]);
    assert_eq!(lines(r#"{"scripts": "lint"}"#, Recipe::PackageScripts), Vec::<String>::new());
    let deno = "{\n  // tasks\n  \"tasks\": {\"a\": \"deno run t/a.ts\", \"b\": {\"command\": \"sh t/b.sh\"}}\n}";
    assert_eq!(lines(deno, Recipe::DenoTasks), ["deno run t/a.ts", "sh t/b.sh"]);
    assert_eq!(lines("{not json", Recipe::PackageScripts), Vec::<String>::new());
}

#[test]
fn a_makefile_s_recipe_lines_are_its_lines() {
    let text = "CC = cc\n# comment\ncheck: build\n\t@sh tools/check.sh\n\t-rm -f x \\\n\t  y\n\t# a recipe comment\n\tfor f in $$(ls); do echo $$f; done\n\n\t+$(MAKE) -C sub\nnot: a recipe\n";
    assert_eq!(
        lines(text, Recipe::Make),
        ["sh tools/check.sh", "rm -f x  y", "for f in $(ls); do echo $f; done", "$(MAKE) -C sub"]
    );
}

#[test]
fn a_justfile_s_recipe_bodies_are_its_lines() {
    let text = "set shell := [\"bash\", \"-c\"]\n\n# lint it\nlint:\n    @sh tools/just.sh {{ARGS}}\n    -echo done\n\n[private]\nbuild target:\n\tcargo build --bin {{target}}\n";
    assert_eq!(
        lines(text, Recipe::Just),
        ["sh tools/just.sh {{ARGS}}", "echo done", "cargo build --bin {{target}}"]
    );
}

#[test]
fn a_taskfile_s_commands_are_read_by_the_managers_reader() {
    let text = "version: '3'\ntasks:\n  lint:\n    cmds:\n      - sh tools/task.sh\n      - cmd: sh tools/task2.sh\n      - task: other\n  one:\n    cmd: sh tools/one.sh\n";
    let values = crate::hookmanagers::config_values(text, crate::hookmanagers::Syntax::Yaml);
    for expected in ["sh tools/task.sh", "sh tools/task2.sh", "sh tools/one.sh"] {
        assert!(values.commands.iter().any(|c| c == expected), "{expected}: {:?}", values.commands);
    }
}

#[test]
fn tox_s_commands_are_its_lines() {
    let text = "[tox]\nenvlist = py3\n\n[testenv:lint]\ndeps = flake8\ncommands_pre = sh tools/pre.sh\ncommands =\n    flake8 src\n    # a comment\n    sh tools/tox.sh {posargs}\nsetenv = X=1\n";
    assert_eq!(
        lines(text, Recipe::Tox),
        ["sh tools/pre.sh", "flake8 src", "sh tools/tox.sh {posargs}"]
    );
    assert_eq!(Recipe::of(Path::new("/p/tox.ini")), Some(Recipe::Tox));
}

proptest! {
    /// Any text, of any kind: no panic, every line non-empty, at most 256 of them.
    #[test]
    fn any_text_gives_at_most_256_non_empty_lines(text in "[ \\t@\\-+a-z$()\\\\#:{}\"\\n]{0,400}") {
        for kind in [Recipe::PackageScripts, Recipe::DenoTasks, Recipe::Make, Recipe::Just, Recipe::Tox] {
            let found = lines(&text, kind);
            prop_assert!(found.len() <= 256);
            prop_assert!(found.iter().all(|l| !l.trim().is_empty()));
        }
    }
}
