//! Tests for the protected-path rule.

use std::path::PathBuf;

use hooks_schema::HookCommand;

use crate::script_candidate;

fn shell(s: &str) -> Option<PathBuf> {
    script_candidate(&HookCommand::Shell { script: s.to_owned(), shell: None })
}

fn exec(program: &str, args: &[&str]) -> Option<PathBuf> {
    script_candidate(&HookCommand::Exec {
        program: program.to_owned(),
        args: args.iter().map(|s| (*s).to_owned()).collect(),
    })
}

#[test]
fn the_first_word_is_the_script() {
    assert_eq!(shell("./check.sh --strict"), Some("./check.sh".into()));
    assert_eq!(shell("/opt/hooks/a.sh"), Some("/opt/hooks/a.sh".into()));
    assert_eq!(shell("FOO=1 ./check.sh"), Some("./check.sh".into()));
}

#[test]
fn the_second_word_is_the_script_after_an_interpreter() {
    assert_eq!(shell("bash scripts/check.sh"), Some("scripts/check.sh".into()));
    assert_eq!(shell("node ./hooks/format.js"), Some("./hooks/format.js".into()));
    assert_eq!(shell("python3 hooks/audit.py arg"), Some("hooks/audit.py".into()));
    assert_eq!(shell("python -u hooks/audit.py"), Some("hooks/audit.py".into()));
    assert_eq!(shell("uv run hooks/a.py"), Some("hooks/a.py".into()));
    assert_eq!(shell("deno run x.ts"), Some("x.ts".into()));
    assert_eq!(shell("/usr/bin/env python3 x.py"), Some("x.py".into()));
    assert_eq!(shell("/bin/sh x.sh"), Some("x.sh".into()));
}

#[test]
fn npx_quoted_paths_and_inline_code_resolve_to_no_script() {
    assert_eq!(shell("npx foo"), Some("npx".into()), "npx itself is the candidate, never foo");
    assert_eq!(shell("\"./my hooks/check.sh\""), None);
    assert_eq!(shell("bash \"my hooks/check.sh\""), None);
    assert_eq!(shell("bash '$HOME/x.sh'"), None);
    assert_eq!(shell("python3 -c 'print(1)'"), None);
    assert_eq!(shell("uv pip list"), None);
    assert_eq!(shell(""), None);
    assert_eq!(shell("bash"), None);
}

#[test]
fn exec_uses_the_program_or_the_first_argument_after_an_interpreter() {
    assert_eq!(exec("./bin/check", &["--x"]), Some("./bin/check".into()));
    assert_eq!(exec("node", &["--no-warnings", "hooks/f.js"]), Some("hooks/f.js".into()));
    // An argument vector has no quoting, so a space is part of the path.
    assert_eq!(exec("node", &["my file.js"]), Some("my file.js".into()));
}

#[test]
fn a_script_command_names_its_path() {
    let c = HookCommand::Script { path: "hooks/run.py".into(), args: vec![] };
    assert_eq!(script_candidate(&c), Some("hooks/run.py".into()));
}

proptest::proptest! {
    #[test]
    fn the_rule_never_panics_and_never_returns_a_quoted_word(s in "\\PC{0,80}") {
        if let Some(p) = shell(&s) {
            let t = p.to_string_lossy().into_owned();
            proptest::prop_assert!(!t.contains('"') && !t.contains('\''));
            proptest::prop_assert!(s.contains(&t));
        }
    }
}
