//! Tests of what `hooks check` says about what hooks would run, on real files in temporary
//! folders, with a `PATH` made by each test (never the machine's).

use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
};

use hooks_schema::{HookDiagnostic, Severity};
use proptest::prelude::*;

use super::{PROGRAM_NOT_FOUND, RunnableContext, SCRIPT_MISSING, SCRIPT_NOT_EXECUTABLE, shell};
use crate::check::{FileReport, FormatChoice, check_file};

/// A temporary folder with a `bin/` folder for `PATH` holding the programs a test names.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let w = World { dir: tempfile::tempdir().expect("temp dir") };
        fs::create_dir_all(w.path("bin")).expect("bin");
        w
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `rel` with `mode`.
    fn file(&self, rel: &str, text: &str, mode: u32) -> PathBuf {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(&p, text).expect("write");
        set_mode(&p, mode);
        p
    }

    /// Puts an executable `name` in `bin/`.
    fn program(&self, name: &str) {
        self.file(&format!("bin/{name}"), "#!/bin/sh\nexit 0\n", 0o755);
    }

    fn ctx(&self) -> RunnableContext {
        RunnableContext {
            path_var: Some(OsString::from(self.path("bin"))),
            home: Some(self.path("home")),
            cwd: self.path("elsewhere"),
        }
    }

    /// Writes the hook file `rel` and checks it with [`World::ctx`].
    fn check(&self, rel: &str, text: &str) -> FileReport {
        self.check_with(rel, text, &self.ctx())
    }

    fn check_with(&self, rel: &str, text: &str, ctx: &RunnableContext) -> FileReport {
        let p = self.file(rel, text, 0o644);
        check_file(
            &hooks_app::formats::workspace_formats(),
            rel,
            &p,
            text.as_bytes(),
            FormatChoice::Auto,
            ctx,
        )
    }
}

fn set_mode(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The runnable findings of a report: `(code, line)`.
fn found(r: &FileReport) -> Vec<(String, Option<u32>)> {
    r.diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code.as_deref(),
                Some(SCRIPT_MISSING | SCRIPT_NOT_EXECUTABLE | PROGRAM_NOT_FOUND)
            )
        })
        .map(|d| (d.code.clone().unwrap_or_default(), d.line))
        .collect()
}

fn codes(r: &FileReport) -> Vec<String> {
    found(r).into_iter().map(|(c, _)| c).collect()
}

fn cursor(commands: &[&str]) -> String {
    let hooks: Vec<String> =
        commands.iter().map(|c| format!("    {{\"command\": {}}}", serde_json::json!(c))).collect();
    format!("{{\n  \"version\": 1,\n  \"hooks\": {{\"stop\": [\n{}\n  ]}}\n}}\n", hooks.join(",\n"))
}

fn claude(commands: &[&str]) -> String {
    let hooks: Vec<String> = commands
        .iter()
        .map(|c| format!("      {{\"type\": \"command\", \"command\": {}}}", serde_json::json!(c)))
        .collect();
    format!("{{\n  \"hooks\": {{\"Stop\": [{{\"hooks\": [\n{}\n  ]}}]}}\n}}\n", hooks.join(",\n"))
}

#[test]
fn cursor_project_script_missing_not_executable_and_good() {
    let w = World::new();
    w.file("p/.cursor/hooks/plain.sh", "echo\n", 0o644);
    w.file("p/.cursor/hooks/good.sh", "echo\n", 0o755);
    let r = w.check(
        "p/.cursor/hooks.json",
        &cursor(&[
            ".cursor/hooks/nope.sh",
            "./.cursor/hooks/plain.sh --flag",
            ".cursor/hooks/good.sh",
        ]),
    );
    assert_eq!(r.format, Some(hooks_format_cursor::FORMAT));
    assert_eq!(
        found(&r),
        vec![(SCRIPT_MISSING.to_owned(), Some(4)), (SCRIPT_NOT_EXECUTABLE.to_owned(), Some(5))]
    );
    assert!(r.ok(), "warnings only: {:?}", r.diagnostics);
    assert!(r.diagnostics.iter().all(|d| d.severity == Severity::Warning));
    let j = r.to_json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["diagnostics"][0]["code"], SCRIPT_MISSING);
    assert_eq!(j["diagnostics"][0]["hook_id"], r.hooks[0].id.as_str());
    let msg = j["diagnostics"][1]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("not executable") && msg.contains("chmod +x"), "{msg}");
}

#[test]
fn a_bare_program_is_looked_up_on_the_given_path_only() {
    let w = World::new();
    w.program("my-linter");
    let text = cursor(&["my-linter --fix", "surely-not-installed-9f3 --x", "sh -c 'exit 0'"]);
    let r = w.check("p/.cursor/hooks.json", &text);
    // `sh` is on the machine's PATH but not on the test's.
    assert_eq!(
        found(&r),
        vec![(PROGRAM_NOT_FOUND.to_owned(), Some(5)), (PROGRAM_NOT_FOUND.to_owned(), Some(6))]
    );
    w.program("sh");
    let r = w.check("p/.cursor/hooks.json", &text);
    assert_eq!(found(&r), vec![(PROGRAM_NOT_FOUND.to_owned(), Some(5))]);
    // Without PATH nothing is looked up.
    let ctx = RunnableContext { path_var: None, ..w.ctx() };
    assert!(found(&w.check_with("p/.cursor/hooks.json", &text, &ctx)).is_empty());
}

#[test]
fn a_program_on_path_must_be_executable_to_count() {
    let w = World::new();
    w.file("bin/tool", "x", 0o644);
    let r = w.check("p/.cursor/hooks.json", &cursor(&["tool"]));
    assert_eq!(codes(&r), vec![PROGRAM_NOT_FOUND]);
}

#[test]
fn the_users_cursor_file_runs_in_its_own_folder() {
    let w = World::new();
    w.file("home/.cursor/hooks/x.sh", "echo\n", 0o755);
    let text = cursor(&["./hooks/x.sh"]);
    assert!(found(&w.check("home/.cursor/hooks.json", &text)).is_empty());
    // The same file in a project runs at the project root, where there is no hooks/x.sh.
    assert_eq!(codes(&w.check("p/.cursor/hooks.json", &text)), vec![SCRIPT_MISSING]);
    // Any other Cursor file runs in its own folder too.
    w.file("d/hooks/x.sh", "echo\n", 0o755);
    let r = check_file(
        &hooks_app::formats::workspace_formats(),
        "d/h.json",
        &w.file("d/h.json", &text, 0o644),
        text.as_bytes(),
        FormatChoice::Fixed(hooks_format_cursor::FORMAT),
        &w.ctx(),
    );
    assert!(found(&r).is_empty(), "{:?}", r.diagnostics);
}

#[test]
fn cursor_project_variables_are_filled_in() {
    let w = World::new();
    w.file("p/hooks/a.sh", "echo\n", 0o644);
    let r = w.check(
        "p/.cursor/hooks.json",
        &cursor(&[
            "\"$CURSOR_PROJECT_DIR\"/hooks/a.sh",
            "$CLAUDE_PROJECT_DIR/hooks/gone.sh",
            "${CURSOR_PROJECT_DIR}/hooks/gone.sh",
        ]),
    );
    assert_eq!(codes(&r), vec![SCRIPT_NOT_EXECUTABLE, SCRIPT_MISSING, SCRIPT_MISSING]);
}

#[test]
fn claude_project_dir_is_filled_in_for_shell_and_args_forms() {
    let w = World::new();
    w.file("p/.claude/hooks/plain.sh", "echo\n", 0o644);
    w.file("p/.claude/hooks/good.sh", "echo\n", 0o755);
    let text = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/missing.sh"},
        {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/plain.sh"},
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR/.claude/hooks/good.sh\" --x"},
        {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/gone.sh", "args": ["a"]},
        {"type": "command", "command": ".claude/hooks/good.sh", "args": []}
      ]}
    ]
  }
}
"#;
    let r = w.check("p/.claude/settings.json", text);
    assert_eq!(r.format, Some(hooks_format_claude::FORMAT));
    assert_eq!(
        found(&r),
        vec![
            (SCRIPT_MISSING.to_owned(), Some(5)),
            (SCRIPT_NOT_EXECUTABLE.to_owned(), Some(6)),
            (SCRIPT_MISSING.to_owned(), Some(8)),
        ]
    );
}

#[test]
fn a_command_for_another_shell_is_left_alone() {
    let w = World::new();
    w.program("bash");
    let text = r#"{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "nope-ps1 -x", "shell": "powershell"},
  {"type": "command", "command": "nope-bash -x", "shell": "bash"}
]}]}}"#;
    let r = w.check("p/.claude/settings.json", text);
    assert_eq!(r.hooks.len(), 2, "{:?}", r.diagnostics);
    assert_eq!(found(&r), vec![(PROGRAM_NOT_FOUND.to_owned(), Some(3))], "{:?}", r.diagnostics);
}

#[test]
fn the_users_claude_file_leaves_project_relative_commands_alone() {
    let w = World::new();
    let text =
        claude(&["\"$CLAUDE_PROJECT_DIR\"/x.sh", "./x.sh", "/nonexistent/abs/x.sh", "nope-x"]);
    let r = w.check("home/.claude/settings.json", &text);
    // The session's folder is not known: only the absolute path and the bare name are checked.
    assert_eq!(codes(&r), vec![SCRIPT_MISSING, PROGRAM_NOT_FOUND]);
}

#[test]
fn shell_syntax_that_cannot_be_resolved_is_left_alone() {
    let w = World::new();
    let commands = [
        "$(which nope-1)",
        "`nope-2`",
        "$OTHER_DIR/nope-3.sh",
        "${HOME}/nope-4.sh",
        "~/nope-5.sh",
        "cd sub && ./nope-6.sh",
        "if true; then nope-7; fi",
        "nope-8*",
        "\\nope-9",
        "(nope-10)",
        "{ nope-11; }",
        "PATH=/opt/x nope-12",
        "exec nope-13",
        "echo hi | nope-14",
        "bash -c 'nope-15'",
        "python3 -m nope16",
        "# nope-17",
        "",
        "env -i nope-18",
        "env X=1 nope-19",
        "\"unterminated nope-20",
    ];
    w.program("bash");
    w.program("python3");
    w.program("env");
    for c in commands {
        let r = w.check("p/.cursor/hooks.json", &cursor(&[c]));
        assert!(found(&r).is_empty(), "{c:?}: {:?}", r.diagnostics);
    }
}

#[test]
fn plain_shell_forms_are_followed() {
    let w = World::new();
    w.program("bash");
    w.program("env");
    w.program("uv");
    let cases: [(&str, &[&str]); 8] = [
        ("FOO=1 BAR=2 ./nope.sh", &[SCRIPT_MISSING]),
        ("./nope.sh; echo done", &[SCRIPT_MISSING]),
        ("./nope.sh>out.log", &[SCRIPT_MISSING]),
        ("'./my dir/nope.sh' 2>/dev/null", &[SCRIPT_MISSING]),
        ("bash ./hooks/nope.sh", &[SCRIPT_MISSING]),
        ("bash nope.sh", &[]),
        ("env nope-prog --x", &[PROGRAM_NOT_FOUND]),
        ("uv run ruff check", &[]),
    ];
    for (command, want) in cases {
        let r = w.check("p/.cursor/hooks.json", &cursor(&[command]));
        let want: Vec<String> = want.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(codes(&r), want, "{command:?}: {:?}", r.diagnostics);
    }
}

#[test]
fn interpreter_scripts_need_no_execute_bit() {
    let w = World::new();
    w.program("bash");
    w.program("python3");
    w.file("p/hooks/a.sh", "echo\n", 0o644);
    w.file("p/hooks/b.py", "print(1)\n", 0o644);
    let r =
        w.check("p/.cursor/hooks.json", &cursor(&["bash hooks/a.sh", "python3 ./hooks/b.py -v"]));
    assert!(found(&r).is_empty(), "{:?}", r.diagnostics);
}

const CHRYS: &str = "\
hooks:
  - id: missing-script
    event: session_start
    run: { type: script, path: scripts/nope.sh }
  - id: ok-script
    event: session_start
    run: { type: script, path: scripts/ok.sh }
  - id: unknown-prog
    event: session_start
    run: { type: command, argv: [definitely-not-a-program-xyz, a] }
  - id: abs-missing
    event: session_start
    run: { type: command, argv: [/nonexistent/bin/tool] }
  - id: good-prog
    event: session_start
    run: { type: command, argv: [good-tool] }
  - id: rel-prog
    event: session_start
    run: { type: command, argv: [./bin/tool] }
  - id: shell-one
    event: session_start
    run: { type: shell, shell: \"definitely-not-a-program-xyz --x\" }
  - id: path-set
    event: session_start
    run: { type: command, argv: [definitely-not-a-program-xyz], env: { PATH: /x } }
  - id: disabled
    event: session_start
    enabled: false
    run: { type: script, path: scripts/gone.sh }
  - id: templated
    event: session_start
    run: { type: command, argv: [\"${workspace_cwd}/x\"] }
";

#[test]
fn chrys_hooks_are_checked_like_icode_hook_validate() {
    let w = World::new();
    w.program("good-tool");
    w.program("bash");
    // Not executable: Chrys runs a script through the interpreter its extension names.
    w.file("p/.chrys/hooks/scripts/ok.sh", "exit 0\n", 0o644);
    let r = w.check("p/.chrys/hooks/hooks.yaml", CHRYS);
    assert_eq!(r.format, Some(hooks_format_chrys::FORMAT));
    let got: Vec<(String, Option<u32>, Option<String>)> = r
        .diagnostics
        .iter()
        .filter(|d| d.code.as_deref() != Some("broad_hook"))
        .map(|d| (d.code.clone().unwrap_or_default(), d.line, d.hook_id.clone()))
        .collect();
    let want = |c: &str, l: u32, id: &str| (c.to_owned(), Some(l), Some(id.to_owned()));
    assert_eq!(
        got,
        vec![
            want(SCRIPT_MISSING, 2, "missing-script"),
            want(PROGRAM_NOT_FOUND, 8, "unknown-prog"),
            // Chrys says program_not_found here; one code per cause is kept across formats.
            want(SCRIPT_MISSING, 11, "abs-missing"),
            // Chrys leaves shell hooks alone; the first word is checked as for other formats.
            want(PROGRAM_NOT_FOUND, 20, "shell-one"),
        ],
        "{:?}",
        r.diagnostics
    );
    assert!(r.ok());
    let m = &r.diagnostics[0].message;
    assert!(m.contains("missing-script") && m.contains("run.path was not found"), "{m}");
    assert!(!m.contains("nope.sh"), "what the hook runs is never quoted: {m}");
}

#[test]
fn a_chrys_script_needs_its_interpreter_on_path() {
    let w = World::new();
    w.file("p/.chrys/hooks/scripts/ok.sh", "exit 0\n", 0o755);
    w.file("p/.chrys/hooks/scripts/t.py", "print(1)\n", 0o644);
    let text = "hooks:\n  - id: sh\n    event: session_start\n    run: { type: script, path: scripts/ok.sh }\n  - id: py\n    event: session_start\n    run: { type: script, path: scripts/t.py }\n";
    let r = w.check("p/.chrys/hooks/hooks.yaml", text);
    let msgs: Vec<&str> = r.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(codes(&r), vec![PROGRAM_NOT_FOUND, PROGRAM_NOT_FOUND], "{msgs:?}");
    assert!(msgs[0].contains("'bash', 'sh', which run .sh scripts"), "{msgs:?}");
    assert!(msgs[1].contains("'uv', 'python3', 'python'"), "{msgs:?}");
    w.program("sh");
    w.program("python");
    assert!(found(&w.check("p/.chrys/hooks/hooks.yaml", text)).is_empty());
}

#[test]
fn a_relative_chrys_file_name_starts_from_the_given_folder() {
    let w = World::new();
    w.file("c/scripts/ok.sh", "exit 0\n", 0o644);
    w.program("bash");
    let text = "hooks:\n  - id: a\n    event: session_start\n    run: { type: script, path: scripts/ok.sh }\n";
    fs::write(w.path("c/hooks.yaml"), text).expect("write");
    let ctx = RunnableContext { cwd: w.path("c"), ..w.ctx() };
    let r = check_file(
        &hooks_app::formats::workspace_formats(),
        "hooks.yaml",
        Path::new("hooks.yaml"),
        text.as_bytes(),
        FormatChoice::Auto,
        &ctx,
    );
    assert!(found(&r).is_empty(), "{:?}", r.diagnostics);
    let ctx = RunnableContext { cwd: w.path("elsewhere"), ..w.ctx() };
    let r = check_file(
        &hooks_app::formats::workspace_formats(),
        "hooks.yaml",
        Path::new("hooks.yaml"),
        text.as_bytes(),
        FormatChoice::Auto,
        &ctx,
    );
    assert_eq!(codes(&r), vec![SCRIPT_MISSING]);
}

#[test]
fn errors_still_come_first() {
    let w = World::new();
    let text = "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./nope.sh\"}, {\"command\": \"b\", \"timeout\": 0}]}}";
    let r = w.check("p/.cursor/hooks.json", text);
    assert!(!r.ok());
    assert!(r.diagnostics[0].is_error(), "{:?}", r.diagnostics);
    assert!(
        r.diagnostics.iter().any(|d: &HookDiagnostic| d.code.as_deref() == Some(SCRIPT_MISSING))
    );
}

#[test]
fn the_context_comes_from_the_environment_table() {
    let env = hooks_sources::EnvVars::from_pairs([
        ("PATH", std::ffi::OsStr::new("/a:/b")),
        ("HOME", std::ffi::OsStr::new("/h")),
    ]);
    let ctx = RunnableContext::from_env(&env, PathBuf::from("/w"));
    assert_eq!(ctx.path_var, Some(OsString::from("/a:/b")));
    assert_eq!(ctx.home, Some(PathBuf::from("/h")));
    assert_eq!(ctx.cwd, PathBuf::from("/w"));
}

#[test]
fn simple_words_unquote_and_stop_where_the_shell_syntax_starts() {
    let vars = [("P", "/root")];
    let w = |s: &str| shell::simple_words(s, &vars);
    let v = |a: &[&str]| Some(a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
    assert_eq!(w("a b  c"), v(&["a", "b", "c"]));
    assert_eq!(w("'a b'\"c\"d"), v(&["a bcd"]));
    assert_eq!(w("\"$P\"/x ${P}/y $P"), v(&["/root/x", "/root/y", "/root"]));
    assert_eq!(w("'$P'"), v(&["$P"]));
    assert_eq!(w("a $Q b"), v(&["a"]));
    assert_eq!(w("$PX"), None);
    assert_eq!(w("a 2>/dev/null b"), v(&["a"]));
    assert_eq!(w("a|b"), v(&["a"]));
    assert_eq!(w("a\nb"), v(&["a"]));
    assert_eq!(w("  # c"), None);
    assert_eq!(w("$(x)"), None);
    assert_eq!(w("\"a"), None);
    let words = ["A=1".to_owned(), "_b=".to_owned(), "c".to_owned(), "D=2".to_owned()];
    let (names, rest) = shell::split_assignments(&words);
    assert_eq!(names, vec!["A", "_b"]);
    assert_eq!(rest, ["c".to_owned(), "D=2".to_owned()]);
    assert!(shell::split_assignments(&["1A=x".to_owned()]).0.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn simple_words_never_panics_and_returns_no_empty_list(s in "\\PC{0,64}") {
        if let Some(words) = shell::simple_words(&s, &[("P", "/p")]) {
            prop_assert!(!words.is_empty());
        }
    }

    #[test]
    fn any_cursor_command_checks_without_panicking(c in "[ -~]{0,40}") {
        let w = World::new();
        let _ = w.check("p/.cursor/hooks.json", &cursor(&[&c]));
    }
}
