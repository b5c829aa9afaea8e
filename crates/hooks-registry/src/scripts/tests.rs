//! Tests for the command analysis: every spelling issue 17 lists, and properties over
//! random wrapper and compound forms.

use std::path::{Path, PathBuf};

use hooks_schema::HookCommand;
use proptest::prelude::*;

use crate::scripts::{
    CommandAnalysis, NamedPath, PIP_REQUIREMENTS_READER, PYTHON_BUILD_READER, PathBase, PathRole,
    analyse, analyse_script_text, analyse_with_templates,
};

fn shell(s: &str) -> CommandAnalysis {
    analyse(&HookCommand::Shell { script: s.to_owned(), shell: None })
}

fn named(base: PathBase, path: &str, role: PathRole) -> NamedPath {
    NamedPath { base, path: PathBuf::from(path), role }
}

fn run(path: &str, role: PathRole) -> NamedPath {
    named(PathBase::RunDir, path, role)
}

/// Asserts that `src` names each of `expected` (among possibly others).
#[track_caller]
fn names(src: &str, expected: &[NamedPath]) {
    let a = shell(src);
    for e in expected {
        assert!(a.paths.contains(e), "`{src}` does not name {e:?}: {:?}", a.paths);
    }
}

#[test]
fn scripts_named_through_the_formats_variables() {
    let gate = named(
        PathBase::Var("CLAUDE_PROJECT_DIR".into()),
        ".claude/hooks/gate.sh",
        PathRole::Program,
    );
    for src in [
        r#""$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh"#,
        r#""${CLAUDE_PROJECT_DIR}"/.claude/hooks/gate.sh"#,
        "${CLAUDE_PROJECT_DIR}/.claude/hooks/gate.sh",
        "$CLAUDE_PROJECT_DIR/.claude/hooks/gate.sh --strict",
        r#""$CLAUDE_PROJECT_DIR/.claude/hooks/gate.sh""#,
    ] {
        names(src, std::slice::from_ref(&gate));
        assert!(shell(src).uncertain.is_empty(), "{src}: {:?}", shell(src).uncertain);
    }
    names(
        r#"python3 "$CURSOR_PROJECT_DIR/hooks/x.py""#,
        &[named(PathBase::Var("CURSOR_PROJECT_DIR".into()), "hooks/x.py", PathRole::Script)],
    );
    names(
        "~/.claude/hooks/a.sh",
        &[named(PathBase::Home, ".claude/hooks/a.sh", PathRole::Program)],
    );
    names("bash $HOME/hooks/a.sh", &[named(PathBase::Home, "hooks/a.sh", PathRole::Script)]);
    // Single quotes make the text a literal name, not a variable.
    names("bash '$HOME/a.sh'", &[run("$HOME/a.sh", PathRole::Script)]);
}

#[test]
fn options_before_the_script() {
    names("bash -e x.sh", &[run("x.sh", PathRole::Script)]);
    names("bash -euo pipefail x.sh", &[run("x.sh", PathRole::Script)]);
    names("python3 -u x.py", &[run("x.py", PathRole::Script)]);
    names("python3 -W ignore -X dev hooks/x.py", &[run("hooks/x.py", PathRole::Script)]);
    names("node --no-warnings hooks/f.js", &[run("hooks/f.js", PathRole::Script)]);
    names("bash gate", &[run("gate", PathRole::Script)]);
}

#[test]
fn wrappers() {
    for src in [
        "timeout 5 ./x.sh",
        "timeout -s KILL -k 2 5s ./x.sh",
        "exec ./x.sh",
        "env A=b ./x.sh",
        "env -i -u HOME A=b ./x.sh",
        "nice -n 10 ./x.sh",
        "nohup ./x.sh",
        "command ./x.sh",
        "sudo -u root ./x.sh",
        "stdbuf -oL ./x.sh",
        "A=1 B=2 ./x.sh",
        "time ./x.sh",
        "! ./x.sh",
        "exec timeout 5 nice ./x.sh",
    ] {
        names(src, &[run("x.sh", PathRole::Program)]);
    }
    names("uv run hooks/x.py", &[run("hooks/x.py", PathRole::Script)]);
    names("uv run --with rich python3 -u hooks/x.py", &[run("hooks/x.py", PathRole::Script)]);
    names("npx tsx hooks/x.ts", &[run("hooks/x.ts", PathRole::Script)]);
    names("npx -y tsx hooks/x.ts", &[run("hooks/x.ts", PathRole::Script)]);
    names("pnpm exec tsx x.ts", &[run("x.ts", PathRole::Script)]);
    names("poetry run python x.py", &[run("x.py", PathRole::Script)]);
    names("env -S 'bash x.sh'", &[run("x.sh", PathRole::Script)]);
    names("npm run lint", &[run("package.json", PathRole::Loaded)]);
}

#[test]
fn compound_commands() {
    names("a.sh; b.sh", &[run("a.sh", PathRole::Program), run("b.sh", PathRole::Program)]);
    names("./a.sh | ./b.sh", &[run("a.sh", PathRole::Program), run("b.sh", PathRole::Program)]);
    names(
        "./a.sh && ./b.sh || ./c.sh &",
        &[
            run("a.sh", PathRole::Program),
            run("b.sh", PathRole::Program),
            run("c.sh", PathRole::Program),
        ],
    );
    // `cd d && ./x.sh` runs `d/x.sh`; a failed `cd` would leave `./x.sh`: both count.
    names("cd d && ./x.sh", &[run("d/x.sh", PathRole::Program), run("x.sh", PathRole::Program)]);
    names(
        r#"cd "$CLAUDE_PROJECT_DIR" && bash x.sh"#,
        &[named(PathBase::Var("CLAUDE_PROJECT_DIR".into()), "x.sh", PathRole::Script)],
    );
    names("(cd sub; ./x.sh)", &[run("sub/x.sh", PathRole::Program)]);
    names(
        "if ./check.sh; then ./x.sh; fi",
        &[run("check.sh", PathRole::Program), run("x.sh", PathRole::Program)],
    );
    names(
        "bash -c './x.sh && y.sh'",
        &[run("x.sh", PathRole::Program), run("y.sh", PathRole::Program)],
    );
    names("sh -ec 'python3 x.py'", &[run("x.py", PathRole::Script)]);
}

#[test]
fn node_require_and_repository_local_interpreters() {
    names(
        "node --require ./pre.js main.js",
        &[run("pre.js", PathRole::Loaded), run("main.js", PathRole::Script)],
    );
    names(
        "node -r ./pre.js --import=./loader.mjs main.js",
        &[
            run("pre.js", PathRole::Loaded),
            run("loader.mjs", PathRole::Loaded),
            run("main.js", PathRole::Script),
        ],
    );
    names(
        "./venv/bin/python3 hook.py",
        &[run("venv/bin/python3", PathRole::Program), run("hook.py", PathRole::Script)],
    );
    names(
        ".venv/bin/python -u hooks/h.py",
        &[run(".venv/bin/python", PathRole::Program), run("hooks/h.py", PathRole::Script)],
    );
    names("python3 -m hooks.check", &[run("hooks/check.py", PathRole::Module)]);
}

/// Python finds what `-m` runs and what `-c` imports from the folder it runs in first: the
/// module, each package on the way (a module named like the package runs in its place), and
/// their compiled and extension forms (findings F117, F118; checked with CPython 3.11 here:
/// `python3 -c "import json, sys; …"` ran a `json.py` there, `python3 -m tools.gate` ran
/// `tools/__init__.py` and `tools/__pycache__/gate.cpython-311.pyc`).
#[test]
fn python_s_modules_are_found_where_it_runs() {
    let module = |p: &str| run(p, PathRole::Module);
    let compiled = |p: &str| run(p, PathRole::Compiled);
    names(
        "python3 -m tools.gate",
        &[
            module("tools.py"),
            module("tools/__init__.py"),
            module("tools/gate.py"),
            module("tools/gate/__init__.py"),
            module("tools/gate/__main__.py"),
            compiled("tools"),
            compiled("tools/__init__"),
            compiled("tools/gate"),
            compiled("tools/gate/__main__"),
        ],
    );
    names(
        r#"python3 -c "import json, sys; from hooks.policy import deny as d; d(json.load(sys.stdin))""#,
        &[
            module("json.py"),
            module("json/__init__.py"),
            compiled("json"),
            compiled("json/__init__"),
            module("sys.py"),
            module("hooks.py"),
            module("hooks/__init__.py"),
            module("hooks/policy.py"),
            module("hooks/policy/__init__.py"),
            compiled("hooks/policy"),
        ],
    );
    // The code or the module written into the option, and in the folders of the line's
    // `PYTHONPATH`.
    names("python3 -c'import gate'", &[module("gate.py"), compiled("gate")]);
    names("python3 -mtools.gate", &[module("tools/__init__.py"), module("tools/gate.py")]);
    // What follows a module written into the option is read as it is after a separate one.
    let loaded = |p: &str| run(p, PathRole::Loaded);
    names("python3 -mpip install -e ./lib", &[loaded("lib/setup.py")]);
    names("python3 -m pip install -e ./lib", &[loaded("lib/setup.py")]);
    names("PYTHONPATH=ci python3 -c 'import gate'", &[module("gate.py"), module("ci/gate.py")]);
    // A relative import in `-c` code fails; nothing else is named for code Python is not given.
    let a = shell("python3 -c \"$CODE\"");
    assert!(a.paths.iter().all(|p| p.role != PathRole::Module), "{:?}", a.paths);
    // Another interpreter's `-c` is not Python's.
    let a = shell("node -e 'require(\"./json\")'");
    assert!(a.paths.iter().all(|p| p.role != PathRole::Module), "{:?}", a.paths);
}

#[test]
fn arguments_redirections_and_configuration_files() {
    names(
        "./x.sh --config=.claude/rules.json < input.txt > /dev/null",
        &[run(".claude/rules.json", PathRole::Argument), run("input.txt", PathRole::Argument)],
    );
    names("jq -f filter.jq", &[run("filter.jq", PathRole::Loaded)]);
    // jq names its start-up file only (`~/.jq`, finding F50).
    let a = shell("jq '.tool_input.command' | grep -q rm");
    assert_eq!(a.paths, [named(PathBase::Home, ".jq", PathRole::Argument)]);
    // A program the tables do not know names nothing (prettier and black name their
    // configuration, findings F71 and F79).
    let a = shell("echo hello && cowsay --check .");
    assert!(a.paths.is_empty(), "{:?}", a.paths);
    assert!(a.uncertain.is_empty(), "{:?}", a.uncertain);
    // git names the repository's configuration and the user's (finding F50), and the
    // repository's hooks, whole, with what husky's source first (finding F57), and the
    // attributes that decide what it shows of each path (finding F121).
    let a = shell("git diff --quiet");
    let git = [
        named(PathBase::Root, "/etc/ssh/ssh_config", PathRole::Argument),
        named(PathBase::Root, "/etc/ssh/ssh_config.d", PathRole::Modules),
        run(".git/config", PathRole::Argument),
        run(".git/hooks", PathRole::Modules),
        run(".git/info/attributes", PathRole::Argument),
        named(PathBase::Home, ".config/git/attributes", PathRole::Argument),
        named(PathBase::Home, ".config/git/config", PathRole::Argument),
        named(PathBase::Home, ".config/husky/init.sh", PathRole::Argument),
        named(PathBase::Home, ".gitconfig", PathRole::Argument),
        named(PathBase::Home, ".ssh/config", PathRole::Argument),
        named(PathBase::Unknown, ".gitattributes", PathRole::Argument),
    ];
    assert_eq!(a.paths, git);
    // `npx` names its own configuration (finding F49), and where it runs a tool from: the
    // project's `node_modules` (its `.bin/` first) and its cache (finding F54).
    let a = shell("npx cowsay --noEmit");
    let npx = [
        run(".npmrc", PathRole::Loaded),
        run("node_modules", PathRole::Modules),
        named(PathBase::Home, ".npm/_npx", PathRole::Modules),
        named(PathBase::Home, ".npmrc", PathRole::Modules),
    ];
    assert_eq!(a.paths, npx);
}

#[test]
fn what_cannot_be_read_is_reported_and_protected_by_what_is_known() {
    let a = shell(r#"bash "$(dirname "$0")/gate.sh""#);
    assert!(!a.uncertain.is_empty());
    assert!(
        a.paths.contains(&named(PathBase::Unknown, "gate.sh", PathRole::Script)),
        "{:?}",
        a.paths
    );
    let a = shell("bash hooks/*.sh");
    assert!(a.paths.contains(&run("hooks", PathRole::Tree)), "{:?}", a.paths);
    assert!(!shell("eval ./x.sh").uncertain.is_empty());
    assert!(shell("eval ./x.sh").paths.contains(&run("x.sh", PathRole::Program)));
    let a = shell("$HOOK");
    assert!(!a.uncertain.is_empty(), "{a:?}");
    // A command substitution's own command is read too.
    names("bash $(cat .claude/which)", &[run(".claude/which", PathRole::Argument)]);
}

#[test]
fn argument_vectors_are_words_and_templates_are_variables() {
    let exec = HookCommand::Exec {
        program: "${CLAUDE_PROJECT_DIR}/hooks/x.sh".into(),
        args: vec!["my file.sh".into(), "$HOME/y.sh".into()],
    };
    let a = analyse_with_templates(&exec, &["${CLAUDE_PROJECT_DIR}".to_owned()]);
    assert!(a.paths.contains(&named(
        PathBase::Var("${CLAUDE_PROJECT_DIR}".into()),
        "hooks/x.sh",
        PathRole::Program
    )));
    assert!(a.paths.contains(&run("my file.sh", PathRole::Argument)), "{:?}", a.paths);
    assert!(a.paths.contains(&run("$HOME/y.sh", PathRole::Argument)), "{:?}", a.paths);
    let script = HookCommand::Script { path: "/p/.chrys/hooks/a.py".into(), args: vec![] };
    // The script and, as it lies in a subfolder of a dot-folder, its folder for its helpers.
    assert_eq!(
        analyse(&script).paths,
        [
            named(PathBase::Root, "/p/.chrys/hooks", PathRole::Beside),
            named(PathBase::Root, "/p/.chrys/hooks/a.py", PathRole::Script)
        ]
    );
}

/// The helpers a hook script loads from beside itself (`import './lib.mjs'`, `source
/// ./common.sh`, a Python module next to it) are protected with it when the script lies in a
/// subfolder of a configuration folder: that folder as a whole, wherever the script is named
/// from. Not for a script directly in a dot-folder (`.cursor/deny.sh`, beside the agent's
/// other configuration) or a program in `node_modules/.bin`.
#[test]
fn a_hook_script_s_helpers_beside_it_are_protected() {
    let beside = |base: PathBase, p: &str| named(base, p, PathRole::Beside);
    let var = || PathBase::Var("CLAUDE_PROJECT_DIR".into());
    names(
        r#""$CLAUDE_PROJECT_DIR"/.claude/hooks/lifecycle/gate.mjs"#,
        &[beside(var(), ".claude/hooks/lifecycle")],
    );
    names("python3 ~/.claude/hooks/check.py", &[beside(PathBase::Home, ".claude/hooks")]);
    names(
        "bash .github/hooks/scripts/gate.sh",
        &[beside(PathBase::RunDir, ".github/hooks/scripts")],
    );
    names("./.venv/bin/python3 hook.py", &[beside(PathBase::RunDir, ".venv/bin")]);
    for src in [".cursor/deny.sh", "node_modules/.bin/eslint .", "./scripts/check.sh", "gate.sh"] {
        let a = shell(src);
        assert!(!a.paths.iter().any(|p| p.role == PathRole::Beside), "{src}: {:?}", a.paths);
    }
}

/// A module search path set on the line (`PYTHONPATH=.claude/lib`, `NODE_PATH`, `RUBYLIB`,
/// `PERL5LIB`, `LD_LIBRARY_PATH`) names folders whose modules the hook imports: each one kept
/// in a configuration folder is protected whole, whatever its name looks like; the project's
/// own code (`PYTHONPATH=src`, `.`) is not, since the agent is there to edit it.
#[test]
fn module_folders_a_hook_imports_from_are_protected() {
    let modules = |base: PathBase, p: &str| named(base, p, PathRole::Modules);
    let var = || PathBase::Var("CLAUDE_PROJECT_DIR".into());
    names(
        "PYTHONPATH=.claude/lib python3 .claude/hooks/gate.py",
        &[modules(PathBase::RunDir, ".claude/lib")],
    );
    names(
        r#"PYTHONPATH="$CLAUDE_PROJECT_DIR/.claude/lib:$PYTHONPATH" python3 x.py"#,
        &[modules(var(), ".claude/lib")],
    );
    names("env NODE_PATH=~/.claude/node node gate.js", &[modules(PathBase::Home, ".claude/node")]);
    names(
        "RUBYLIB=.hooks/rb PERL5LIB=.hooks/pl LD_LIBRARY_PATH=.hooks/so ./gate",
        &[
            modules(PathBase::RunDir, ".hooks/rb"),
            modules(PathBase::RunDir, ".hooks/pl"),
            modules(PathBase::RunDir, ".hooks/so"),
        ],
    );
    names("export PYTHONPATH=.claude/py; python3 g.py", &[modules(PathBase::RunDir, ".claude/py")]);
    names("ruby -I .hooks/rb gate.rb", &[modules(PathBase::RunDir, ".hooks/rb")]);
    names("perl -I.hooks/pl gate.pl", &[modules(PathBase::RunDir, ".hooks/pl")]);
    names("perl -I.hooks/pl gate.pl", &[run("gate.pl", PathRole::Script)]);
    for src in [
        "PYTHONPATH=src python3 .claude/hooks/gate.py",
        "PYTHONPATH=. python3 gate.py",
        "PYTHONPATH=$CLAUDE_PROJECT_DIR python3 gate.py",
        "PYTHONPATH=$PYTHONPATH:lib python3 gate.py",
        "SOME_PATH=.claude/lib python3 gate.py",
        "perl -Ilib gate.pl",
        "python3 -I gate.py",
    ] {
        let a = shell(src);
        let site: Vec<NamedPath> = super::python_user_site().collect();
        assert!(
            !a.paths.iter().any(|p| p.role == PathRole::Modules && !site.contains(p)),
            "{src}: {:?}",
            a.paths
        );
    }
}

/// Every Python interpreter loads the user's site at start, whatever it runs (a script, `-c`,
/// `-m`, behind a wrapper or a variable assignment): its folders are named, protected whole;
/// `-s`, `-I` and `-S` (also in a cluster) turn it off, the value of `-W` or `-X` does not,
/// and nothing else does; other interpreters do not load it.
#[test]
fn every_python_interpreter_loads_the_user_s_site() {
    let site: Vec<NamedPath> = super::python_user_site().collect();
    assert_eq!(
        site,
        [
            named(PathBase::Home, ".local/lib", PathRole::Modules),
            named(PathBase::Home, "Library/Python", PathRole::Modules)
        ]
    );
    let loads = |src: &str| {
        let a = shell(src);
        site.iter().all(|p| a.paths.contains(p))
    };
    for src in [
        "python3 .claude/hooks/gate.py",
        "python3.12 -u gate.py",
        "python -c 'import sys; sys.exit(2)'",
        "python3 -m tools.gate",
        "timeout 5 env A=b python3 gate.py",
        "PYTHONPATH=.claude/lib python3 gate.py",
        "pypy3 gate.py",
        "python3 -W ignore -Xdev gate.py",
        "python3 -X importtime gate.py",
        "python3 -Xfrozen_modules=off gate.py",
        "python3 -E -B gate.py",
        "cd tools && python3 gate.py",
        "python3 gate.py -s",
        "python3 -c 'print(1)' -s",
    ] {
        assert!(loads(src), "{src}: {:?}", shell(src).paths);
    }
    for src in [
        "python3 -s gate.py",
        "python3 -I gate.py",
        "python3 -S gate.py",
        "python3 -Es gate.py",
        "python3 -uI -m tools.gate",
        "python3 -W ignore -s gate.py",
        "node gate.js",
        "bash gate.sh",
        "ruby gate.rb",
    ] {
        assert!(!loads(src), "{src}: {:?}", shell(src).paths);
    }
}

/// Wrappers that run the rest of the line, as they are written before a command.
fn wrapper() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("timeout 5".to_owned()),
        Just("timeout -k 1 10s".to_owned()),
        Just("exec".to_owned()),
        Just("env A=b".to_owned()),
        Just("env -u X".to_owned()),
        Just("nice -n 5".to_owned()),
        Just("nohup".to_owned()),
        Just("command".to_owned()),
        Just("sudo -u me".to_owned()),
        Just("stdbuf -o L".to_owned()),
        Just("X=1".to_owned()),
        Just("time".to_owned()),
        Just("setsid".to_owned()),
    ]
}

/// Ways to run a script file.
fn runner(script: &str) -> impl Strategy<Value = String> + use<> {
    let s = script.to_owned();
    prop_oneof![
        Just(format!("./{s}")),
        Just(format!("bash {s}")),
        Just(format!("bash -e {s}")),
        Just(format!("sh -x {s} arg")),
        Just(format!("python3 -u {s}")),
        Just(format!("node --no-warnings {s}")),
        Just(format!("node --require ./pre.js {s}")),
        Just(format!("uv run {s}")),
        Just(format!("npx tsx {s}")),
        Just(format!("./venv/bin/python3 {s}")),
        Just(format!("\"./{s}\"")),
        Just(format!("'{s}' --flag")),
        Just(format!("bash -c './{s}'")),
    ]
}

/// Where a `cd` may start from, and the base the paths after it then have.
fn cd_base() -> impl Strategy<Value = (&'static str, PathBase)> {
    prop_oneof![
        Just(("~/", PathBase::Home)),
        Just(("$HOME/", PathBase::Home)),
        Just(("\"$HOME\"/", PathBase::Home)),
        Just(("~bob/", PathBase::Unknown)),
        Just(("\"$CLAUDE_PROJECT_DIR\"/", PathBase::Var("CLAUDE_PROJECT_DIR".into()))),
        Just(("${GEMINI_PROJECT_DIR}/", PathBase::Var("GEMINI_PROJECT_DIR".into()))),
        Just(("", PathBase::RunDir)),
    ]
}

proptest! {
    /// Never a panic, and a path is absolute exactly when it starts from `/`: a path with
    /// another base is joined onto that base's folder (the `command_analysis` fuzz target's
    /// invariant).
    #[test]
    fn the_analysis_never_panics_and_only_paths_from_the_root_are_absolute(
        src in "\\PC{0,160}",
    ) {
        for p in shell(&src).paths {
            prop_assert_eq!(p.base == PathBase::Root, p.path.is_absolute(), "`{}`: {:?}", src, p);
        }
    }

    /// A script run by a relative name after a `cd` under a base is named under that base,
    /// at the `cd`'s folder joined with the script's path.
    #[test]
    fn a_script_after_a_cd_under_a_base_is_named_under_that_base(
        (prefix, base) in cd_base(),
        dir in "[a-z]{1,5}(/[a-z]{1,5}){0,2}",
        name in "[a-z]{1,8}\\.(sh|py)",
        sep in prop_oneof![Just(" && "), Just("; "), Just("\n"), Just(" || true; ")],
        form in prop_oneof![Just("./"), Just("bash "), Just("python3 -u ")],
    ) {
        let src = format!("cd {prefix}{dir}{sep}{form}{name}");
        let a = shell(&src);
        let want = PathBuf::from(format!("{dir}/{name}"));
        prop_assert!(
            a.paths.iter().any(|p| p.base == base && p.path == want),
            "`{}` does not name {:?} under {:?}: {:?}", src, want, base, a.paths
        );
        for p in &a.paths {
            prop_assert!(p.path.is_relative(), "`{}`: {:?}", src, p);
        }
    }

    #[test]
    fn a_script_in_any_wrapper_or_compound_form_is_found(
        (dir, name, form) in ("[a-z]{1,6}", "[a-z]{1,8}\\.(sh|py|js|ts)")
            .prop_flat_map(|(dir, name)| {
                let form = runner(&format!("{dir}/{name}"));
                (Just(dir), Just(name), form)
            }),
        wrappers in proptest::collection::vec(wrapper(), 0..3),
        before in prop_oneof![Just(""), Just("echo start; "), Just("true && "), Just("false || "), Just("cat x | ")],
        after in prop_oneof![Just(""), Just(" ; echo done"), Just(" && git status"), Just(" | tee log"), Just(" &")],
    ) {
        let src = format!("{before}{} {form}{after}", wrappers.join(" "));
        let a = shell(&src);
        let want = PathBuf::from(format!("{dir}/{name}"));
        prop_assert!(
            a.paths.iter().any(|p| p.base == PathBase::RunDir && p.path == want),
            "`{}` does not name {:?}: {:?}", src, want, a.paths
        );
    }
}

/// A `cd` into a folder under a base (`~`, `$HOME`, another user's home, a format's
/// variable) makes the paths after it relative to that base, never absolute: a path with a
/// base is joined onto the base's folder, where an absolute one would name a file under `/`
/// (found by the `command_analysis` fuzz target with `cd ~/(>u`).
#[test]
fn a_cd_under_a_base_keeps_the_paths_after_it_under_that_base() {
    let program = PathRole::Program;
    names("cd ~/hooks && ./check.sh", &[named(PathBase::Home, "hooks/check.sh", program)]);
    names("cd $HOME/hooks && ./check.sh", &[named(PathBase::Home, "hooks/check.sh", program)]);
    names("cd ~/ && ./a.sh", &[named(PathBase::Home, "a.sh", program)]);
    // `cd -` goes back to where the agent's session was: any folder, by name.
    names("cd - && ./a.sh", &[named(PathBase::Unknown, "a.sh", program)]);
    names("alias g='./gate.sh --strict'\ng", &[run("gate.sh", program)]);
    names("cd ~/a/../b && ./c.sh", &[named(PathBase::Home, "b/c.sh", program)]);
    names("cd ~bob/x && ./y.sh", &[named(PathBase::Unknown, "x/y.sh", program)]);
    names(
        r#"cd "$CLAUDE_PROJECT_DIR"/.claude/hooks && ./gate.sh"#,
        &[named(PathBase::Var("CLAUDE_PROJECT_DIR".into()), ".claude/hooks/gate.sh", program)],
    );
    names("D=~/h; cd $D && ./x.sh", &[named(PathBase::Home, "h/x.sh", program)]);
    names("cd /opt/h && ./x.sh", &[named(PathBase::Root, "/opt/h/x.sh", program)]);
    for src in ["cd ~/(>u", "cd ~t/x/(>u", "cd $HOME/ && cat > y"] {
        for p in shell(src).paths {
            assert!(p.base == PathBase::Root || p.path.is_relative(), "`{src}`: {p:?}");
        }
    }
}

/// The file that says what a package manager's script or a task runner's recipe runs is
/// protected, in the folder the tool reads it from (finding F15: `make check`, `yarn lint`,
/// `npm --prefix web run lint`, `deno task check` named none, or the wrong folder's).
#[test]
fn the_file_a_package_script_or_a_recipe_comes_from_is_protected() {
    let loaded = |p: &str| run(p, PathRole::Loaded);
    names("yarn lint", &[loaded("package.json")]);
    names("pnpm lint", &[loaded("package.json")]);
    names("pnpm install", &[loaded("package.json")]);
    names("pdm run lint", &[loaded("pyproject.toml")]);
    names("pixi run lint", &[loaded("pixi.toml")]);
    // A program run through the package manager is not the manifest's: not named as what
    // the hook loads (pinned), so a dependency bump does not undo the user's trust (a linter
    // names the `package.json` where it runs as its configuration: protected, not pinned,
    // finding F71).
    for src in ["npx eslint .", "npm exec eslint", "pnpm dlx tsx x.ts", "yarn exec eslint"] {
        let a = shell(src);
        let manifest = |p: &NamedPath| p.path.ends_with("package.json");
        assert!(!a.paths.iter().any(|p| manifest(p) && p.role != PathRole::Argument), "{src}");
    }
    names("npm --prefix web run lint", &[loaded("web/package.json")]);
    names("npm run lint --prefix web", &[loaded("web/package.json")]);
    names("npm run lint --prefix=web", &[loaded("web/package.json")]);
    names(r#"npm run "$SCRIPT" --prefix web"#, &[loaded("web/package.json")]);
    names("yarn --cwd web lint", &[loaded("web/package.json")]);
    names("pnpm -C web run lint", &[loaded("web/package.json")]);
    names("pnpm --dir=web lint", &[loaded("web/package.json")]);
    names("bun run lint", &[loaded("package.json")]);
    names("bun --cwd web run lint", &[loaded("web/package.json")]);
    names("deno task check", &[loaded("deno.json"), loaded("deno.jsonc")]);
    names("pipenv run lint", &[loaded("Pipfile")]);
    names("mise run lint", &[loaded("mise.toml"), loaded(".mise.toml")]);
    // A directory option right after the subcommand is applied once: the script is in
    // `web/`, and no `web/web/` is named (the manifest scan and the option loop each applied it).
    for src in ["pdm run -p web hooks/gate.py", "mise exec -C web -- hooks/gate.sh"] {
        let a = shell(src);
        assert!(
            a.paths.iter().any(|p| p.path == Path::new("web/hooks/gate.py")
                || p.path == Path::new("web/hooks/gate.sh")),
            "{src}: {:?}",
            a.paths
        );
        assert!(!a.paths.iter().any(|p| p.path.starts_with("web/web")), "{src}: {:?}", a.paths);
    }
    names(
        "direnv exec tools ./gate.sh",
        &[loaded("tools/.envrc"), run("tools/gate.sh", PathRole::Program)],
    );
    names("make check", &[loaded("Makefile"), loaded("makefile"), loaded("GNUmakefile")]);
    names("gmake -j4 check", &[loaded("Makefile")]);
    names("make -C tools check", &[loaded("tools/Makefile")]);
    names("make -Ctools check", &[loaded("tools/Makefile")]);
    names("make --directory=tools check", &[loaded("tools/Makefile")]);
    names("make -f ci.mk check", &[loaded("ci.mk")]);
    names("make -fci.mk -C tools", &[loaded("tools/ci.mk")]);
    names("make check LINT=./lint.sh", &[run("lint.sh", PathRole::Argument)]);
    names("just check", &[loaded("justfile"), loaded(".justfile"), loaded("Justfile")]);
    names("just -f ci/justfile check", &[loaded("ci/justfile")]);
    names("just --dotenv-path ci/.env check", &[loaded("ci/.env")]);
    names("task check", &[loaded("Taskfile.yml"), loaded("Taskfile.yaml")]);
    names("task -d tools check", &[loaded("tools/Taskfile.yml")]);
    names("go-task --taskfile ci.yml check", &[loaded("ci.yml")]);
    names("timeout 30 make -C tools check", &[loaded("tools/Makefile")]);
    names("cd tools && make check", &[loaded("tools/Makefile")]);
    names("pre-commit run --all-files", &[loaded(".pre-commit-config.yaml")]);
    names("pre-commit run -c ci/hooks.yaml", &[loaded("ci/hooks.yaml")]);
    names("lefthook run pre-commit", &[loaded("lefthook.yml"), loaded(".lefthook.yml")]);
    names("tox -e lint", &[loaded("tox.ini"), loaded("tox.toml")]);
    names("nox -s lint", &[loaded("noxfile.py")]);
    names("bundle exec rake -C tools lint", &[loaded("Gemfile"), loaded("tools/Rakefile")]);
    names("inv lint", &[loaded("tasks.py")]);
    // A task runner run as Python's module is that runner (F95).
    names("python3 -m nox -s lint", &[loaded("noxfile.py")]);
    names("python -m invoke lint", &[loaded("tasks.py")]);
    names("python -m pre_commit run", &[loaded(".pre-commit-config.yaml")]);
    names("composer -d web lint", &[loaded("web/composer.json")]);
}

/// What ruby's and perl's library options load (finding F97; checked with Ruby 3.1 and Perl
/// 5.36 here): a value written into the option (`-r./x.rb`), a library's name in the folders
/// the line's `-I` options and `RUBYLIB`/`PERL5LIB` give, the same options in `RUBYOPT` and
/// `PERL5OPT`; and a module `python -m` runs from the line's `PYTHONPATH`. A library of the
/// language's own (`-rjson`, `-Mstrict`) names no file of the project's.
#[test]
fn what_library_options_and_their_variables_load_is_named() {
    let loaded = |p: &str| run(p, PathRole::Loaded);
    names("ruby -r./tools/setup.rb x.rb", &[loaded("tools/setup.rb")]);
    names("ruby -Itools -rsetup x.rb", &[loaded("tools/setup.rb")]);
    names("ruby -I tools -r setup x.rb", &[loaded("tools/setup.rb")]);
    names("RUBYLIB=tools ruby -rsetup x.rb", &[loaded("tools/setup.rb")]);
    names("perl -Itools -MSetup x.pl", &[loaded("tools/Setup.pm")]);
    names("perl -I./tools -MT::S=a,b x.pl", &[loaded("tools/T/S.pm")]);
    names("PERL5LIB=lib:tools perl -mT::S x.pl", &[loaded("lib/T/S.pm"), loaded("tools/T/S.pm")]);
    names("RUBYOPT=-r./tools/setup.rb rake lint", &[loaded("tools/setup.rb")]);
    names("RUBYOPT='-Itools -rsetup' ruby x.rb", &[loaded("tools/setup.rb")]);
    names("env PERL5OPT='-Itools -MT::S' perl x.pl", &[loaded("tools/T/S.pm")]);
    let module = |p: &str| run(p, PathRole::Module);
    names("PYTHONPATH=tools:ci python3 -m gate", &[module("tools/gate.py"), module("ci/gate.py")]);
    // rake's own spellings of ruby's options, and its folder of `.rake` files (F102).
    names("rake -Itools -rsetup lint", &[loaded("tools/setup.rb")]);
    names("rake --libdir=tools --require setup lint", &[loaded("tools/setup.rb")]);
    names("RUBYLIB=ci rake --require=setup lint", &[loaded("ci/setup.rb")]);
    names("rake -R ci/tasks lint", &[run("ci/tasks", PathRole::Modules)]);
    names("rake --rakelibdir=ci/tasks lint", &[run("ci/tasks", PathRole::Modules)]);
    for line in ["ruby -rjson x.rb", "perl -Mstrict x.pl", "perl -M-warnings x.pl"] {
        let a = shell(line);
        let loads: Vec<_> = a.paths.iter().filter(|p| p.role == PathRole::Loaded).collect();
        assert!(loads.is_empty(), "`{line}` loads {loads:?}");
    }
}

/// A variable's value that names a file a program loads (`BASH_ENV`, `ENV`, `NODE_OPTIONS`,
/// `LD_PRELOAD`) is protected, before the program or through `env` or `export`.
#[test]
fn files_named_in_a_variable_s_value_are_protected() {
    // Code the program loads: pinned by `hooks trust` as well (role `Loaded`).
    let loaded = |p: &str| run(p, PathRole::Loaded);
    let arg = |p: &str| run(p, PathRole::Argument);
    names("BASH_ENV=.claude/env.sh bash -c gate", &[loaded(".claude/env.sh")]);
    names("env BASH_ENV=.claude/env.sh bash -c gate", &[loaded(".claude/env.sh")]);
    names("export BASH_ENV=.claude/env.sh; bash -c gate", &[loaded(".claude/env.sh")]);
    names("ENV=./env.sh sh -i", &[loaded("env.sh")]);
    names(r#"NODE_OPTIONS="--require ./pre.js" node x.js"#, &[loaded("pre.js")]);
    names("LD_PRELOAD=./lib/x.so ./gate.sh", &[loaded("lib/x.so")]);
    names(
        r#"BASH_ENV="$CLAUDE_PROJECT_DIR"/env.sh bash -c gate"#,
        &[named(PathBase::Var("CLAUDE_PROJECT_DIR".into()), "env.sh", PathRole::Loaded)],
    );
    // Any other variable's file is protected, not pinned: it may be one the hook writes.
    names("LOG=./logs/hook.log ./gate.sh", &[arg("logs/hook.log")]);
    names("PATH=./bin:$PATH gate", &[arg("bin"), run("bin/gate", PathRole::Program)]);
    // A program looked up on a `PATH` the line changed is its copy in each folder put there.
    names(
        r#"PATH="$CLAUDE_PROJECT_DIR/node_modules/.bin:$PATH" eslint --fix"#,
        &[named(
            PathBase::Var("CLAUDE_PROJECT_DIR".into()),
            "node_modules/.bin/eslint",
            PathRole::Program,
        )],
    );
    names("export PATH=tools:$PATH; timeout 5 gate", &[run("tools/gate", PathRole::Program)]);
    // A URL is no file.
    let a = shell("URL=http://localhost:80/x ./gate.sh");
    assert_eq!(a.paths, [run("gate.sh", PathRole::Program)]);
}

/// How a task runner is pointed at a folder: every spelling of its directory option.
fn task_dir_option() -> impl Strategy<Value = (String, &'static [&'static str])> {
    const MAKE: &[&str] = &["GNUmakefile", "makefile", "Makefile"];
    const JUST: &[&str] = &["justfile", ".justfile"];
    const TASK: &[&str] = &["Taskfile.yml", "taskfile.yaml"];
    prop_oneof![
        Just(("make -C {}".to_owned(), MAKE)),
        Just(("make -C{}".to_owned(), MAKE)),
        Just(("make --directory={}".to_owned(), MAKE)),
        Just(("make --directory {}".to_owned(), MAKE)),
        Just(("gmake -k -C {}".to_owned(), MAKE)),
        Just(("just -d {} -f {}/justfile".to_owned(), JUST)),
        Just(("task -d {}".to_owned(), TASK)),
        Just(("task --dir={}".to_owned(), TASK)),
        Just(("npm --prefix {} run".to_owned(), &["package.json"][..])),
        Just(("npm run x --prefix {}".to_owned(), &["package.json"][..])),
        Just(("yarn --cwd {}".to_owned(), &["package.json"][..])),
        Just(("pnpm -C {}".to_owned(), &["package.json"][..])),
        Just(("cd {} &&".to_owned(), MAKE)),
    ]
}

proptest! {
    /// Whatever the folder option's spelling, the wrappers before the tool and the
    /// commands around it, the recipe file is named in that folder.
    #[test]
    fn a_task_runner_s_file_is_named_in_the_folder_it_is_pointed_at(
        (form, files) in task_dir_option(),
        dir in "[a-z]{1,5}(/[a-z]{1,5}){0,2}",
        assignment in prop_oneof![Just(""), Just("CI=1 "), Just("BASH_ENV=./env.sh ")],
        wrappers in proptest::collection::vec(wrapper(), 0..3),
        target in prop_oneof![Just(""), Just(" check"), Just(" lint -- --fix")],
    ) {
        // An assignment only before the first program, where the shell reads it as one.
        let wrappers: Vec<String> = wrappers.into_iter().filter(|w| w != "X=1").collect();
        let tool = form.replace("{}", &dir);
        let tool = if tool.starts_with("cd ") { format!("{tool} make") } else { tool };
        let src = format!("{assignment}{} {tool}{target}", wrappers.join(" "));
        let a = shell(&src);
        for f in files {
            let want = PathBuf::from(format!("{dir}/{f}"));
            prop_assert!(
                a.paths.iter().any(|p| p.base == PathBase::RunDir && p.path == want && p.role == PathRole::Loaded),
                "`{}` does not name {:?}: {:?}", src, want, a.paths
            );
        }
    }
}

/// What a script's own text sources or runs by path, as [`PathRole::Sourced`].
fn script(text: &str) -> Vec<NamedPath> {
    analyse_script_text(text, Some(Path::new("/repo/scripts"))).paths
}

fn sourced(base: PathBase, path: &str) -> NamedPath {
    named(base, path, PathRole::Sourced)
}

#[test]
fn a_script_s_sourced_files_and_the_scripts_it_runs_are_named() {
    let text = "#!/bin/sh\n# . ./commented.sh\nset -e\n. ./lib/common.sh\nsource helpers.sh arg\n\
        if [ -f local.sh ]; then . ./local.sh; fi\npython3 tools/check.py \"$1\"\n\
        \"$CLAUDE_PROJECT_DIR\"/bin/verify --strict\ncat policy.txt > /tmp/out.log\n";
    let paths = script(text);
    for expected in [
        sourced(PathBase::RunDir, "lib/common.sh"),
        sourced(PathBase::RunDir, "helpers.sh"),
        sourced(PathBase::RunDir, "local.sh"),
        sourced(PathBase::RunDir, "tools/check.py"),
        sourced(PathBase::Var("CLAUDE_PROJECT_DIR".into()), "bin/verify"),
    ] {
        assert!(paths.contains(&expected), "{expected:?} not in {paths:?}");
    }
    // Files it only reads or writes, and comments, are not reported.
    for p in &paths {
        let text = p.path.to_string_lossy();
        assert!(
            !["commented.sh", "policy.txt", "/tmp/out.log"].contains(&text.as_ref()),
            "{p:?} in {paths:?}"
        );
        if p.base != PathBase::Home {
            assert_eq!(p.role, PathRole::Sourced, "{p:?}");
        }
    }
    // Its `python3` starts from the user's site, as a command line's does.
    for site in [".local/lib", "Library/Python"] {
        assert!(paths.contains(&named(PathBase::Home, site, PathRole::Modules)), "{paths:?}");
    }
}

/// What the programs a script runs read at every start is named as the command line's is,
/// not pinned: `~/.jq` for jq, the repository's and the user's git configuration, `~/.npmrc`
/// for npm (finding F50); a file it only reads is not.
#[test]
fn a_script_s_programs_start_up_files_are_named() {
    let text = "#!/bin/sh
cmd=$(jq -r .tool_input.command)
git diff --quiet || exit 2
        npm run check
curl -s https://policy.invalid/x
cat ~/.jq.bak
";
    let paths = script(text);
    for expected in [
        named(PathBase::Home, ".jq", PathRole::Argument),
        named(PathBase::Home, ".gitconfig", PathRole::Argument),
        named(PathBase::Home, ".config/git/config", PathRole::Argument),
        run(".git/config", PathRole::Argument),
        named(PathBase::Home, ".npmrc", PathRole::Modules),
        named(PathBase::Home, ".curlrc", PathRole::Argument),
    ] {
        assert!(paths.contains(&expected), "{expected:?} not in {paths:?}");
    }
    // The project's `.npmrc` is a command line's only, and `~/.jq.bak` is only read.
    assert!(!paths.contains(&run(".npmrc", PathRole::Loaded)), "{paths:?}");
    assert!(!paths.iter().any(|p| p.path.ends_with(".jq.bak")), "{paths:?}");
}

/// A runner that builds the hook's program from source (finding F55): `go run` compiles a
/// package's folder whole, or the files it names, with the module's files, its vendored
/// packages, its module and build caches and `go env -w`'s file; `cargo run` the target its
/// `--bin` or `--example` names (else `src/main.rs`), with `Cargo.toml`, `build.rs`, its
/// configuration (a `runner` there runs the program through another), the programs it built
/// (run as they are while newer than their sources) and the dependencies' sources.
#[test]
fn a_program_built_from_source_by_its_runner_is_named_with_what_builds_it() {
    let script = |p: &str| run(p, PathRole::Script);
    let loaded = |p: &str| run(p, PathRole::Loaded);
    let whole = |p: &str| run(p, PathRole::Modules);
    let home = |p: &str| named(PathBase::Home, p, PathRole::Modules);
    names(
        "go run ./tools/gate --strict",
        &[
            run("tools/gate", PathRole::Tree),
            loaded("go.mod"),
            loaded("go.work"),
            whole("vendor"),
            home("go/pkg/mod"),
            home(".cache/go-build"),
            home(".config/go/env"),
        ],
    );
    names("go run -C tools ./gate", &[run("tools/gate", PathRole::Tree), loaded("tools/go.mod")]);
    // The package of the folder it runs in is the project itself: reported, not protected.
    let a = shell("go run .");
    assert!(!a.paths.iter().any(|p| p.role == PathRole::Tree), "{:?}", a.paths);
    assert!(a.uncertain.iter().any(|u| u.contains("go run .")), "{:?}", a.uncertain);
    names("go run tools/check.go", &[script("tools/check.go"), loaded("go.mod")]);
    names(
        "cargo run -q --bin gate -- --strict",
        &[
            script("src/bin/gate.rs"),
            script("src/bin/gate/main.rs"),
            loaded("Cargo.toml"),
            loaded("build.rs"),
            loaded(".cargo/config.toml"),
            loaded("rust-toolchain.toml"),
            whole("target"),
            home(".cargo/registry"),
            home(".cargo/config.toml"),
        ],
    );
    names("cargo run --example lint", &[script("examples/lint.rs")]);
    names("cargo run --release", &[script("src/main.rs"), loaded("Cargo.toml")]);
    // A named target is the program: `src/main.rs` is not; a name that is no plain name
    // names no file.
    for (line, not) in [
        ("cargo run --bin gate", "src/main.rs"),
        ("cargo run --bin ../../x", "src/bin/../../x.rs"),
        ("go run ./tools/gate", "tools/gate/main.go"),
    ] {
        let a = shell(line);
        assert!(!a.paths.iter().any(|p| p.path == Path::new(not)), "{line}: {:?}", a.paths);
    }
}

#[test]
fn programs_that_read_their_installation_s_configuration_are_looked_up_on_path() {
    // By name, behind wrappers and runners, on a line or a script's line (F52); a path names
    // the program itself, and a program that reads none is not looked up.
    let line = shell("git diff --quiet || exit 2; env npm run gate; wget -qO- x; jq -e .a; ./git");
    assert_eq!(line.programs_on_path, ["git", "npm", "wget"]);
    let text = analyse_script_text("#!/bin/sh\nnpx tsx gate.ts\n/usr/bin/git status\n", None);
    assert_eq!(text.programs_on_path, ["npx", "tsx"], "{text:?}");
}

#[test]
fn the_ways_a_script_names_its_own_folder_name_that_folder() {
    for line in [
        ". \"$(dirname \"$0\")/lib.sh\"",
        "source \"$(dirname -- \"${BASH_SOURCE[0]}\")/lib.sh\"",
        ". $(dirname $0)/lib.sh",
        ". \"${BASH_SOURCE%/*}/lib.sh\"",
        ". \"${0%/*}\"/lib.sh",
        "DIR=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n. \"$DIR/lib.sh\"",
        "HERE=$(cd -- \"$(dirname -- \"${BASH_SOURCE[0]}\")\" &>/dev/null && pwd -P)\nsource \"$HERE\"/lib.sh",
        "cd \"$(dirname \"$0\")\"\n. ./lib.sh",
    ] {
        let paths = script(line);
        let lib = sourced(PathBase::Root, "/repo/scripts/lib.sh");
        assert!(paths.contains(&lib), "`{line}`: {paths:?}");
    }
    let up = script("ROOT=\"$(cd \"$(dirname \"$0\")/..\" && pwd)\"\n. \"$ROOT/lib/x.sh\"");
    assert!(up.contains(&sourced(PathBase::Root, "/repo/lib/x.sh")), "{up:?}");
    // A folder with characters a shell treats specially is not written into the text: the
    // name is then kept under any folder.
    let odd = analyse_script_text(". \"$(dirname \"$0\")/lib.sh\"", Some(Path::new("/a b/$x")));
    assert!(odd.paths.iter().any(|p| p.base == PathBase::Unknown && p.path == Path::new("lib.sh")));
}

#[test]
fn here_document_bodies_are_data_not_commands() {
    let text = "cat <<EOF\n/usr/local/bin/not-run\n. ./not-sourced.sh\nEOF\n. ./after.sh\n\
        cat <<-'END'\n\t./tabbed.sh\n\tEND\n. ./last.sh\necho $((1 << 2))\n. ./shifted.sh\n";
    let paths = script(text);
    let names: Vec<String> = paths.iter().map(|p| p.path.display().to_string()).collect();
    assert!(names.contains(&"after.sh".to_owned()), "{names:?}");
    assert!(names.contains(&"last.sh".to_owned()), "{names:?}");
    assert!(names.contains(&"shifted.sh".to_owned()), "{names:?}");
    for absent in ["/usr/local/bin/not-run", "not-sourced.sh", "tabbed.sh"] {
        assert!(!names.contains(&absent.to_owned()), "{absent} in {names:?}");
    }
    // A `<<` whose end never comes hides nothing after it.
    let open = script("echo \"a << b\"\n. ./still.sh\n");
    assert!(open.contains(&sourced(PathBase::RunDir, "still.sh")), "{open:?}");
}

proptest! {
    /// Any text: no panic, and every path reported is a sourced file or a file a program
    /// reads at every start.
    #[test]
    fn any_script_text_is_analysed_without_panic(text in "[ -~\n\t]{0,400}") {
        let a = analyse_script_text(&text, Some(Path::new("/repo/s")));
        prop_assert!(
            a.paths.iter().all(|p| p.role == PathRole::Sourced || crate::scripts::is_start_up_file(p)),
            "{:?}",
            a.paths
        );
    }
}

/// A Python interpreter named by its path in a `bin/` folder belongs to an environment whose
/// `lib/` (its `site-packages`, whose `.pth` files run at every start) and `pyvenv.cfg` decide
/// what it runs: both are named, from wherever the path starts; another program or another
/// folder names nothing of the kind.
#[test]
fn a_python_interpreter_s_environment_is_named_with_it() {
    let env = |base: PathBase, prefix: &str| {
        let at = |p: &str| if prefix.is_empty() { p.to_owned() } else { format!("{prefix}/{p}") };
        vec![
            named(base.clone(), &at("lib"), PathRole::Modules),
            named(base, &at("pyvenv.cfg"), PathRole::Loaded),
        ]
    };
    let var = || PathBase::Var("CLAUDE_PROJECT_DIR".into());
    for (src, expected) in [
        (".venv/bin/python3 .claude/hooks/gate.py", env(PathBase::RunDir, ".venv")),
        ("./venv/bin/python3.12 -u gate.py", env(PathBase::RunDir, "venv")),
        (r#""$CLAUDE_PROJECT_DIR"/.venv/bin/python gate.py"#, env(var(), ".venv")),
        ("~/.venvs/hooks/bin/python3 ~/.claude/hooks/gate.py", env(PathBase::Home, ".venvs/hooks")),
        ("/opt/env/bin/pypy3 gate.py", env(PathBase::Root, "/opt/env")),
        ("timeout 5 .venv/bin/python -m tools.gate", env(PathBase::RunDir, ".venv")),
    ] {
        let a = shell(src);
        for p in &expected {
            assert!(a.paths.contains(p), "{src}: {p:?} not in {:?}", a.paths);
        }
    }
    for src in [
        ".venv/bin/pip install x",
        "./python3 gate.py",
        ".venv/python3 gate.py",
        "python3 gate.py",
        ".venv/bin/node gate.js",
    ] {
        let a = shell(src);
        assert!(!a.paths.iter().any(|p| p.path.ends_with("pyvenv.cfg")), "{src}: {:?}", a.paths);
    }
}

/// A runner that runs the rest in a project's environment (`uv run`, `poetry run`, `pixi
/// run`) names that environment's folder whole, where it runs (its `--directory` too) and,
/// for Poetry, Pipenv and Hatch, where they keep environments under the home; another
/// subcommand, or a runner without one, names none.
#[test]
fn a_runner_s_environment_is_named_whole() {
    let venv = |dir: &str| run(dir, PathRole::Modules);
    let home = |dir: &str| named(PathBase::Home, dir, PathRole::Modules);
    names("uv run hooks/x.py", &[venv(".venv")]);
    names("uv run --directory tools python -m gate", &[venv("tools/.venv")]);
    names("pdm run gate", &[venv(".venv")]);
    names("rye run gate", &[venv(".venv")]);
    names("pixi run gate", &[venv(".pixi/envs")]);
    names(
        "poetry run python x.py",
        &[
            venv(".venv"),
            home(".cache/pypoetry/virtualenvs"),
            home("Library/Caches/pypoetry/virtualenvs"),
        ],
    );
    names("pipenv run gate", &[venv(".venv"), home(".local/share/virtualenvs")]);
    names("hatch run gate", &[home(".local/share/hatch/env")]);
    // The JavaScript runners' `node_modules` (its `.bin/` is on a script's `PATH`, `npx` runs a
    // tool from there first) and the caches runners run a tool from (finding F54).
    names("npm run lint", &[venv("node_modules"), home(".npm/_npx")]);
    names("npm --prefix web test", &[venv("web/node_modules")]);
    names("npx prettier --check .", &[venv("node_modules"), home(".npm/_npx")]);
    names("yarn lint", &[venv("node_modules"), venv(".yarn"), venv(".pnp.cjs")]);
    names("pnpm dlx eslint .", &[venv("node_modules"), home(".cache/pnpm")]);
    names("bunx eslint .", &[venv("node_modules"), home(".bun/install/cache")]);
    names("uvx ruff check", &[home(".cache/uv")]);
    names("uv run --with rich x.py", &[venv(".venv"), home(".cache/uv")]);
    names("pipx run black .", &[home(".local/share/pipx"), home(".local/pipx")]);
    for src in ["uv pip list", "npx tsx x.ts", "uvx ruff check", "pnpm exec tsx x.ts"] {
        let a = shell(src);
        let environment = |p: &NamedPath| p.path.ends_with(".venv") || p.path.ends_with("envs");
        assert!(!a.paths.iter().any(environment), "{src}: {:?}", a.paths);
    }
}

/// A runner's and an interpreter's own configuration (finding F49): named for every use,
/// also for subcommands that leave the manifest out (`npm exec`), in the folder its
/// directory options name, and under the home (protected, not pinned).
#[test]
fn a_runner_s_own_configuration_is_named() {
    let loaded = |path: &str| run(path, PathRole::Loaded);
    let home = |path: &str| named(PathBase::Home, path, PathRole::Modules);
    names("npm run gate", &[loaded(".npmrc"), loaded("package.json"), home(".npmrc")]);
    let a = shell("npm exec eslint .");
    assert!(a.paths.contains(&loaded(".npmrc")) && !a.paths.contains(&loaded("package.json")));
    names("npm run lint --prefix web", &[loaded("web/.npmrc"), loaded("web/package.json")]);
    names("yarn --cwd web gate", &[loaded("web/.yarnrc.yml"), loaded("web/.yarnrc")]);
    names("pnpm exec tsx x.ts", &[loaded(".npmrc"), loaded("pnpm-workspace.yaml")]);
    names(
        "uv run x.py",
        &[loaded(".python-version"), loaded("uv.toml"), home(".config/uv/uv.toml")],
    );
    names("bunx eslint", &[loaded("bunfig.toml"), home(".bunfig.toml")]);
    names("bun x.ts", &[loaded("bunfig.toml"), home(".config/.bunfig.toml")]);
    names("deno run x.ts", &[loaded("deno.json"), loaded("deno.jsonc")]);
    names("pipenv run gate", &[loaded(".env"), loaded("Pipfile")]);
    names("bundle exec rake", &[loaded(".bundle/config"), home(".bundle/config")]);
    let a = shell("node x.js");
    assert!(!a.paths.iter().any(|p| p.role == PathRole::Loaded), "{:?}", a.paths);
}

/// `ssh -F`, `scp -F` and `sftp -F` name the run's whole ssh configuration (finding F67),
/// in every spelling ssh's own option reading accepts, and ssh's `-o` lines are read for
/// what they run or load; an operand's words, a value of another option and `-F none` are
/// not configurations.
#[test]
fn the_ssh_configuration_an_ssh_option_names_is_read() {
    let configs = |src: &str| -> Vec<NamedPath> { shell(src).ssh_configs };
    let cfg = |path: &str| run(path, PathRole::Argument);
    assert_eq!(configs("ssh -F alt build true"), [cfg("alt")]);
    assert_eq!(configs("ssh -vFalt build"), [cfg("alt")]);
    assert_eq!(configs("ssh -p 22 -i id -F alt build"), [cfg("alt")]);
    assert_eq!(configs("ssh -l -F build"), []);
    // ssh reads its options again right after the destination, not after the command.
    assert_eq!(configs("ssh build -F alt uptime"), [cfg("alt")]);
    assert_eq!(configs("ssh build uptime -F alt"), []);
    assert_eq!(configs("ssh -- -F alt"), []);
    assert_eq!(configs("ssh -F none build"), []);
    assert_eq!(
        configs("ssh -F ~/.ssh/work build"),
        [named(PathBase::Home, ".ssh/work", PathRole::Argument)]
    );
    assert_eq!(configs("scp -P 2222 -F alt a.txt build:"), [cfg("alt")]);
    assert_eq!(configs("scp a.txt -F alt build:"), []);
    assert_eq!(configs("sftp -b batch -Falt build"), [cfg("alt")]);
    assert_eq!(configs("rsync -F alt build"), []);
    // The file is protected as an argument too, whatever its name looks like.
    names("ssh -F alt build", &[cfg("alt")]);
    // `-o` lines: the commands ssh gives the shell are this line's own; its libraries are
    // loaded files.
    names("ssh -o 'ProxyCommand=sh tools/p.sh %h' build", &[run("tools/p.sh", PathRole::Script)]);
    names("ssh -oProxyCommand=tools/p.sh build", &[run("tools/p.sh", PathRole::Program)]);
    names(
        "git -c x=y fetch && ssh -o 'KnownHostsCommand ./khc.sh' -o PKCS11Provider=~/lib/p11.so h",
        &[run("khc.sh", PathRole::Program), named(PathBase::Home, "lib/p11.so", PathRole::Loaded)],
    );
    let a = shell("ssh -o StrictHostKeyChecking=no build");
    assert!(a.uncertain.is_empty(), "{:?}", a.uncertain);
}

/// The configuration JavaScript formatters and linters load is named by name under any
/// folder, with the `package.json` where they run (finding F71).
#[test]
fn the_configuration_javascript_formatters_and_linters_load_is_named_anywhere() {
    let anywhere = |path: &str| named(PathBase::Unknown, path, PathRole::Argument);
    for line in [
        "npx prettier --write src/a.ts",
        "prettier -c .",
        "./node_modules/.bin/prettier --check x.ts",
        "pnpm exec prettier --write x.ts",
        "jq -r .tool_input.file_path | xargs npx prettier --write",
        r#"jq -r '.tool_input.file_path' | { read file_path; if echo "$file_path" | grep -q '\.ts$'; then npx prettier --write "$file_path"; fi; }"#,
    ] {
        names(
            line,
            &[
                anywhere("prettier.config.js"),
                anywhere(".prettierrc.json"),
                anywhere(".prettierrc.mjs"),
                anywhere(".prettierignore"),
                run("package.json", PathRole::Argument),
            ],
        );
    }
    names("npx eslint --fix .", &[anywhere("eslint.config.mjs"), anywhere(".eslintrc.js")]);
    names("eslint_d src", &[anywhere("eslint.config.js")]);
    names("npx stylelint 'src/**/*.css'", &[anywhere("stylelint.config.js")]);
    // hadolint's configuration where it runs and the user's (finding F94).
    names(
        "hadolint Dockerfile",
        &[
            anywhere(".hadolint.yaml"),
            named(PathBase::Home, ".config/hadolint.yaml", PathRole::Argument),
        ],
    );
    // An `.editorconfig` decides prettier's and shfmt's indentation (finding F89).
    names("prettier -c .", &[anywhere(".editorconfig")]);
    names("shfmt -d -w hooks/", &[anywhere(".editorconfig")]);
    // Where a Node.js tool runs is noted with the tool, for its configurations there and
    // above to be read (findings F85, F87); another tool's is not.
    let a = shell("cd web && npx eslint . && prettierd --check x.js && isort .");
    // (From the run directory too: a `cd` that fails leaves the line there.)
    let (here, web) = (run("", PathRole::Argument), run("web", PathRole::Argument));
    assert_eq!(
        a.node_tool_folders,
        [(here.clone(), "eslint"), (here, "prettier"), (web.clone(), "eslint"), (web, "prettier")]
    );
    // A configuration a line names to a Node.js tool by its option is noted with the tool, to
    // be read for its imports (finding F107): `--config`, `--config=`, `-c` (not prettier's,
    // which is `--check`), `--config-file`; another program's `-c` is not.
    let a = shell(
        "vite build --config cfg/vite.mjs && npx rollup -c=cfg/r.mjs && prettier -c --config \
         p.mjs . && babel --config-file ./b.json src && tsc -c x.json && bash -c true",
    );
    let file = |p: &str| run(p, PathRole::Argument);
    assert_eq!(
        a.node_tool_files,
        [
            (file("b.json"), "babel"),
            (file("cfg/r.mjs"), "rollup"),
            (file("cfg/vite.mjs"), "vite"),
            (file("p.mjs"), "prettier"),
        ]
    );
    assert!(a.paths.contains(&file("cfg/vite.mjs")), "{:?}", a.paths);
    // A script's line runs where the hook runs.
    let script = analyse_script_text("stylelint a.css\n", Some(Path::new("/repo/s")));
    assert_eq!(script.node_tool_folders, [(run("", PathRole::Argument), "stylelint")]);
    // A script's lines name them too.
    let text = "#!/bin/sh\nnpx prettier --check \"$1\"\n";
    let script = analyse_script_text(text, Some(Path::new("/repo/s")));
    assert!(script.paths.contains(&anywhere("prettier.config.mjs")), "{:?}", script.paths);
    // Other programs name nothing under any folder.
    assert!(!shell("npx tsc --noEmit").paths.iter().any(|p| p.base == PathBase::Unknown));
}

/// Python's linters, type checkers and formatters read their configuration by name in any
/// folder, the files they share where they run, the user's and the system's (finding F79),
/// however the hook starts them.
#[test]
fn the_configuration_python_linters_and_formatters_load_is_named() {
    let anywhere = |path: &str| named(PathBase::Unknown, path, PathRole::Argument);
    let home = |path: &str| named(PathBase::Home, path, PathRole::Argument);
    let system = |path: &str| named(PathBase::Root, path, PathRole::Argument);
    for line in [
        "pylint src",
        "uv run pylint src",
        "python3 -m pylint src",
        "poetry run pylint src || exit 2",
        "git diff --name-only | xargs pylint",
    ] {
        names(
            line,
            &[
                anywhere(".pylintrc"),
                anywhere("pylintrc.toml"),
                run("pyproject.toml", PathRole::Argument),
                run("setup.cfg", PathRole::Argument),
                run("tox.ini", PathRole::Argument),
                home(".config/pylintrc"),
                system("/etc/pylintrc"),
            ],
        );
    }
    for line in ["mypy --strict src", "uvx mypy src", "python -m mypy.dmypy run", "dmypy check src"]
    {
        names(
            line,
            &[
                anywhere("mypy.ini"),
                anywhere(".mypy.ini"),
                run("setup.cfg", PathRole::Argument),
                home(".config/mypy/config"),
                home(".mypy.ini"),
            ],
        );
    }
    names(
        "flake8 --max-line-length 100 .",
        &[anywhere(".flake8"), run("tox.ini", PathRole::Argument)],
    );
    for line in [
        "ruff check --fix \"$file\"",
        "uvx ruff format .",
        "pipx run ruff check",
        r#"jq -r '.tool_input.file_path' | { read f; case "$f" in *.py) ruff format "$f";; esac; }"#,
    ] {
        names(
            line,
            &[
                anywhere("ruff.toml"),
                anywhere(".ruff.toml"),
                run("pyproject.toml", PathRole::Argument),
                home(".config/ruff/ruff.toml"),
            ],
        );
    }
    names(
        "black --check -q .",
        &[run("pyproject.toml", PathRole::Argument), home(".config/black")],
    );
    names(
        "isort --check-only src",
        &[anywhere(".isort.cfg"), run(".editorconfig", PathRole::Argument)],
    );
    // A script's lines name them too.
    let text = "#!/bin/sh\nset -e\nruff check \"$@\"\nmypy src\n";
    let script = analyse_script_text(text, Some(Path::new("/repo/s")));
    for path in [anywhere("ruff.toml"), anywhere("mypy.ini")] {
        assert!(script.paths.contains(&path), "{path:?}: {:?}", script.paths);
    }
    // Other programs, and other modules, name none of them.
    for line in ["pytest -q", "python -m pytest", "python -m json.tool x.json", "npx tsc"] {
        let a = shell(line);
        assert!(
            !a.paths.iter().any(|p| p.path.ends_with("pyproject.toml")
                || p.path.ends_with("mypy.ini")
                || p.path.ends_with(".pylintrc")),
            "{line}: {:?}",
            a.paths
        );
    }
}

/// The other linters and formatters gates are commonly made of read their configuration by
/// name in any folder, where they run and under the home (finding F80), however the hook
/// starts them, a versioned name as its tool's.
#[test]
fn the_configuration_other_linters_and_formatters_load_is_named() {
    let anywhere = |path: &str| named(PathBase::Unknown, path, PathRole::Argument);
    let home = |path: &str| named(PathBase::Home, path, PathRole::Argument);
    let here = |path: &str| run(path, PathRole::Argument);
    for (line, paths) in [
        ("npx biome check --write .", vec![anywhere("biome.jsonc"), here("biome.json")]),
        ("pnpm exec biome lint", vec![anywhere(".biome.json"), home(".config/biome/biome.json")]),
        ("npx tsc --noEmit -p .", vec![here("tsconfig.json"), here("jsconfig.json")]),
        ("npx vue-tsc --noEmit", vec![here("tsconfig.json")]),
        ("markdownlint-cli2 '**/*.md'", vec![anywhere(".markdownlint.cjs"), here("package.json")]),
        ("markdownlint docs", vec![anywhere(".markdownlint.json"), home(".markdownlintrc")]),
        ("shellcheck -x a.sh", vec![anywhere(".shellcheckrc"), home(".config/shellcheckrc")]),
        ("yamllint -s .", vec![anywhere(".yamllint"), home(".config/yamllint/config")]),
        ("clang-format-18 -i src/a.c", vec![anywhere(".clang-format"), anywhere("_clang-format")]),
        ("git clang-format --diff", vec![]),
        ("run-clang-tidy -p build", vec![anywhere(".clang-tidy")]),
        ("bundle exec rubocop -a", vec![anywhere(".rubocop.yml"), home(".rubocop.yml")]),
        ("npx pyright src", vec![here("pyrightconfig.json"), here("pyproject.toml")]),
        ("uvx ty check", vec![here("ty.toml"), home(".config/ty/ty.toml")]),
        ("npx cspell '**/*.md'", vec![anywhere("cspell.config.cjs"), here("package.json")]),
        ("npx commitlint --edit", vec![anywhere("commitlint.config.js")]),
        ("golangci-lint run ./...", vec![anywhere(".golangci.yml")]),
        ("gitleaks git --staged", vec![anywhere(".gitleaks.toml"), anywhere(".gitleaksignore")]),
    ] {
        names(line, &paths);
    }
    // A name with something else than a version after its tool's is another program.
    assert!(shell("clang-format-wrapper x.c").paths.is_empty());
    // cargo's `fmt` runs rustfmt and its `clippy` clippy, after cargo's own options.
    let rustfmt = [anywhere("rustfmt.toml"), home(".config/rustfmt/rustfmt.toml")];
    for line in ["cargo fmt --check", "cargo +nightly -q fmt", "rustfmt --check src/main.rs"] {
        names(line, &rustfmt);
    }
    for line in ["cargo clippy -- -D warnings", "cargo --config x.toml clippy", "cargo-clippy"] {
        names(line, &[anywhere("clippy.toml"), anywhere(".clippy.toml")]);
    }
    for line in ["cargo build", "cargo -Z fmt build", "cargo run --bin fmt"] {
        let a = shell(line);
        assert!(!a.paths.iter().any(|p| p.path.ends_with("rustfmt.toml")), "{line}: {:?}", a.paths);
    }
}

/// Gradle and Maven are task runners whose build files are code or options they run at every
/// build, with the folders of build logic beside them and what they load under the home and
/// from the system (finding F82).
#[test]
fn gradle_s_and_maven_s_build_files_and_folders_are_named() {
    let loaded = |path: &str| run(path, PathRole::Loaded);
    let whole = |path: &str| run(path, PathRole::Modules);
    let home = |path: &str| named(PathBase::Home, path, PathRole::Modules);
    let system = |path: &str| named(PathBase::Root, path, PathRole::Modules);
    for line in ["./gradlew check", "gradle -q --offline spotlessCheck", "./gradlew -x test build"]
    {
        names(
            line,
            &[
                loaded("build.gradle"),
                loaded("settings.gradle.kts"),
                loaded("gradle.properties"),
                whole("gradle"),
                whole("buildSrc"),
                home(".gradle/init.d"),
                home(".gradle/wrapper/dists"),
            ],
        );
    }
    names(
        "gradle -p app -I ci/init.gradle test",
        &[loaded("app/build.gradle.kts"), whole("app/buildSrc"), loaded("ci/init.gradle")],
    );
    for line in ["./mvnw -q verify", "mvn -B -Dskip=true test"] {
        names(
            line,
            &[
                loaded("pom.xml"),
                whole(".mvn"),
                home(".mavenrc"),
                home(".m2/settings.xml"),
                system("/etc/mavenrc"),
            ],
        );
    }
    names(
        "mvn -f sub/pom.xml -s ci/settings.xml spotless:check",
        &[loaded("sub/pom.xml"), loaded("ci/settings.xml")],
    );
    // Gradle's user home moved by the line (F98): what it loads there instead.
    for line in [
        "gradle -g ci/gh check",
        "gradle --gradle-user-home=ci/gh check",
        "GRADLE_USER_HOME=ci/gh ./gradlew check",
    ] {
        names(line, &[whole("ci/gh/init.d"), whole("ci/gh/init.gradle"), whole("ci/gh/caches")]);
    }
    names("gradle --include-build ../shared check", &[whole("../shared")]);
    // A task's name is no file.
    let a = shell("./gradlew spotlessCheck");
    assert!(!a.paths.iter().any(|p| p.path.ends_with("spotlessCheck")), "{:?}", a.paths);
}

/// The programs the options of scp and sftp run instead of ssh or of a remote server, the
/// library ssh's `-I` loads, and the command rsync runs for a daemon connection (finding F70).
#[test]
fn the_programs_ssh_s_options_name_are_read() {
    let program = |path: &str| run(path, PathRole::Program);
    for line in [
        "scp -S tools/wrap a.txt build:/srv",
        "scp -qS tools/wrap a.txt build:/srv",
        "sftp -S tools/wrap build",
        "scp -D tools/wrap a.txt build:/srv",
    ] {
        names(line, &[program("tools/wrap")]);
    }
    names("sftp -D 'sh tools/srv.sh -e' build", &[run("tools/srv.sh", PathRole::Script)]);
    names("ssh -I tools/p11.so build true", &[run("tools/p11.so", PathRole::Loaded)]);
    names(
        "RSYNC_CONNECT_PROG='sh tools/conn.sh %H' rsync -a rsync://build/m/ out/",
        &[run("tools/conn.sh", PathRole::Script)],
    );
    // ssh's own `-S` is its control socket, `-D` a forwarded port; after the destination,
    // scp's options are operands.
    for line in ["ssh -S tools/ctl build true", "ssh -D 1080 -S tools/ctl build"] {
        assert!(!shell(line).paths.contains(&program("tools/ctl")), "{line}");
    }
    assert!(!shell("scp a.txt -S tools/wrap build:").paths.contains(&program("tools/wrap")));
}

/// git's `-c name=value` entries before its subcommand have git run what the same entry in a
/// configuration file would (finding F68): read as the line's own commands.
#[test]
fn the_commands_a_git_c_option_has_git_run_are_read() {
    names("git -c core.fsmonitor=tools/m.sh status", &[run("tools/m.sh", PathRole::Program)]);
    names(
        "git -C sub -c user.name=x -c alias.zz='!sh tools/z.sh' zz",
        &[run("tools/z.sh", PathRole::Script)],
    );
    let a = shell("git -c 'core.sshCommand=ssh -F tools/cfg' fetch -q");
    assert_eq!(a.ssh_configs, [run("tools/cfg", PathRole::Argument)]);
    // After the subcommand, `-c` is the subcommand's own; a boolean runs nothing.
    let a = shell("git grep -c core.fsmonitor=tools/m.sh && git -c core.fsmonitor=true status");
    assert!(!a.paths.contains(&run("tools/m.sh", PathRole::Program)), "{:?}", a.paths);
    assert!(a.uncertain.is_empty(), "{:?}", a.uncertain);
}

/// What a line has git read instead of, or besides, the repository's own files (finding
/// F69): files named as configuration whatever their names, the repository `-C` and
/// `--git-dir` move it to, entries given through variables, the hooks folder an entry names.
#[test]
fn the_git_configuration_a_line_names_is_read() {
    let configs = |src: &str| -> Vec<NamedPath> { shell(src).git_configs };
    let cfg = |path: &str| run(path, PathRole::Argument);
    assert_eq!(configs("GIT_CONFIG_GLOBAL=tools/gc git status"), [cfg("tools/gc")]);
    assert_eq!(
        configs("export GIT_CONFIG_SYSTEM=/etc/team.cfg; git status"),
        [named(PathBase::Root, "/etc/team.cfg", PathRole::Argument)]
    );
    assert_eq!(configs("env GIT_CONFIG_GLOBAL=g.cfg git status"), [cfg("g.cfg")]);
    // `include.path` from the command line: absolute or from the home; git refuses a
    // relative one ("relative config includes must come from files").
    let home_gitx = named(PathBase::Home, ".gitx", PathRole::Argument);
    assert_eq!(configs("git -c include.path=~/.gitx status"), std::slice::from_ref(&home_gitx));
    names("git -c include.path=~/.gitx status", &[home_gitx]);
    assert_eq!(
        configs("git -c includeIf.gitdir:~/w/.path=/opt/g.cfg status"),
        [named(PathBase::Root, "/opt/g.cfg", PathRole::Argument)]
    );
    assert_eq!(configs("git -c include.path=rel.cfg status"), []);
    // The repository `--git-dir` and `GIT_DIR` name: its `config` whatever its folder's name,
    // and its hooks.
    for line in [
        "git --git-dir=alt status",
        "git --git-dir alt status",
        "GIT_DIR=alt git status",
        "GIT_COMMON_DIR=alt git status",
    ] {
        assert_eq!(configs(line), [cfg("alt/config")], "{line}");
        names(line, &[run("alt/hooks", PathRole::Modules)]);
    }
    // `-C` moves git, each from the one before; `--git-dir` after it is from there.
    names(
        "git -C sub status",
        &[run("sub/.git/config", PathRole::Argument), run("sub/.git/hooks", PathRole::Modules)],
    );
    names("git -C a -C b status", &[run("a/b/.git/config", PathRole::Argument)]);
    assert!(configs("git -C sub --git-dir=g status").contains(&cfg("sub/g/config")));
    // Entries in variables the line sets, paired by number, or in `GIT_CONFIG_PARAMETERS`.
    names(
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='sh tools/d.sh' \
         git status",
        &[run("tools/d.sh", PathRole::Script)],
    );
    names(
        "export GIT_CONFIG_VALUE_1=tools/p.sh GIT_CONFIG_KEY_1=core.pager; git log",
        &[run("tools/p.sh", PathRole::Program)],
    );
    names(
        r#"GIT_CONFIG_PARAMETERS="'core.fsmonitor'='tools/m.sh'" git status"#,
        &[run("tools/m.sh", PathRole::Program)],
    );
    assert_eq!(
        configs("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=~/i git st"),
        [named(PathBase::Home, "i", PathRole::Argument)]
    );
    // `--config-env` takes the value of a variable the line sets; one it does not set leaves
    // the analysis unsure only for an entry that runs or reads something.
    for line in [
        "MON='sh tools/e.sh' git --config-env=core.fsmonitor=MON status",
        "MON='sh tools/e.sh' git --config-env core.fsmonitor=MON status",
    ] {
        names(line, &[run("tools/e.sh", PathRole::Script)]);
    }
    assert!(!shell("git --config-env=core.fsmonitor=MON status").uncertain.is_empty());
    let a = shell("git --config-env=user.name=NAME status");
    assert!(a.uncertain.is_empty(), "{:?}", a.uncertain);
    // `core.hooksPath`: from where the line runs and under any folder; husky's `_` folder
    // with the folder above; from the home.
    let hooks = |src: &str| -> Vec<NamedPath> { shell(src).git_hooks_folders };
    assert_eq!(
        hooks("git -c core.hooksPath=tools/hk commit -qm x"),
        [
            run("tools/hk", PathRole::Modules),
            named(PathBase::Unknown, "tools/hk", PathRole::Modules)
        ]
    );
    assert!(
        hooks("git -c core.hooksPath=.husky/_ commit").contains(&run(".husky", PathRole::Modules))
    );
    assert_eq!(
        hooks("git -c core.hooksPath=~/hooks commit"),
        [named(PathBase::Home, "hooks", PathRole::Modules)]
    );
    names("git -c core.hooksPath=tools/hk commit", &[run("tools/hk", PathRole::Modules)]);
    // git's own programs' folder.
    for line in ["GIT_EXEC_PATH=tools/gx git status", "git --exec-path=tools/gx status"] {
        names(line, &[run("tools/gx", PathRole::Modules)]);
    }
    // After the subcommand, these are the subcommand's own.
    let a = shell("git log -C sub && git grep -c include.path=~/x && git diff --git-dir=alt");
    assert_eq!(a.git_configs, []);
    assert!(!a.paths.contains(&run("sub/.git/config", PathRole::Argument)), "{:?}", a.paths);
}

/// A command line git, ssh or rsync runs, given on the line itself: in a variable the line
/// sets (`GIT_SSH_COMMAND=…`, through `env` too) or in rsync's `-e` (finding F68).
#[test]
fn command_lines_given_to_git_ssh_and_rsync_on_the_line_are_read() {
    let a = shell("GIT_SSH_COMMAND='ssh -F deploy/cfg' git fetch -q");
    assert_eq!(a.ssh_configs, [run("deploy/cfg", PathRole::Argument)]);
    let a = shell("env GIT_EXTERNAL_DIFF=tools/d.sh git diff --quiet");
    assert!(a.paths.contains(&run("tools/d.sh", PathRole::Program)), "{:?}", a.paths);
    for line in [
        "rsync -a -e 'ssh -F deploy/cfg' dist/ build:/srv",
        "rsync -a --rsh='ssh -F deploy/cfg' dist/ build:/srv",
        "rsync -a dist/ build:/srv --rsh 'ssh -F deploy/cfg'",
        "RSYNC_RSH='ssh -F deploy/cfg' rsync -a dist/ build:/srv",
    ] {
        assert_eq!(shell(line).ssh_configs, [run("deploy/cfg", PathRole::Argument)], "{line}");
    }
    assert_eq!(shell("rsync -a -- -e x build:").ssh_configs, []);
    // A cluster of short options: `e` takes the rest of the word or the next one, as another
    // letter that takes a value does (`-B 1024` is no command).
    for line in [
        "rsync -avze 'ssh -F deploy/cfg' dist/ build:/srv",
        "rsync -azB 1024 -e 'ssh -F deploy/cfg' dist/ build:/srv",
        "rsync -zB1024 -ve'ssh -F deploy/cfg' dist/ build:/srv",
    ] {
        assert_eq!(shell(line).ssh_configs, [run("deploy/cfg", PathRole::Argument)], "{line}");
    }
    assert_eq!(shell("rsync -aB e dist/ build:").ssh_configs, []);
    assert_eq!(shell("rsync -a --exclude=-e dist/ build:").ssh_configs, []);
    let a = shell("GIT_SSH_COMMAND=\"$SSH\" git fetch");
    assert!(!a.uncertain.is_empty(), "{:?}", a.uncertain);
}

/// npm-run-all's commands read the manifest's scripts by name or pattern (finding F75): the
/// manifest is their recipe file, their words its targets, an unquoted `*` (which the shell
/// leaves alone where no file matches) kept as the pattern's.
#[test]
fn npm_run_all_reads_the_manifest_s_scripts_by_pattern() {
    let a = shell("run-p -l lint:* && npx npm-run-all --max-parallel 2 -p 'test:**' build");
    let runs: Vec<(&Path, &str, Vec<&str>)> = (a.recipes.iter())
        .map(|r| {
            let targets = r.targets.iter().map(String::as_str).collect();
            (r.file.path.as_path(), r.program.as_str(), targets)
        })
        .collect();
    let manifest = Path::new("package.json");
    assert!(runs.contains(&(manifest, "npm-run-all", vec!["lint:*"])), "{runs:?}");
    assert!(runs.contains(&(manifest, "npm-run-all", vec!["test:**", "build"])), "{runs:?}");
    // Elsewhere a glob is no target: `make lint*` names none.
    let make = shell("make lint*");
    assert!(make.recipes.iter().all(|r| r.targets.is_empty()), "{:?}", make.recipes);
}

/// pip's `install` of a local project builds it (finding F108): each project's `setup.py` is a
/// loaded file and its `pyproject.toml` read for its build backend's code; a package's name,
/// a URL and another subcommand name no project, and a requirements file is read for the
/// projects it lists (F109, below).
#[test]
fn pip_install_of_a_local_project_reads_its_build() {
    let builds = |src: &str| {
        let a = shell(src);
        let mut files: Vec<String> = (a.recipes.iter())
            .filter(|r| r.program == PYTHON_BUILD_READER)
            .map(|r| r.file.path.display().to_string())
            .collect();
        files.sort();
        (files, a)
    };
    let (files, a) = builds(
        "pip install -q -e . && pip3 install --no-deps ./libs/a/ '../b[dev]' requests==2 \
         -r req.txt && python3 -m pip install --editable=tools/c -eweb && uv pip install \
         --python 3.12 /opt/d",
    );
    assert_eq!(
        files,
        [
            "../b/pyproject.toml",
            "/opt/d/pyproject.toml",
            "libs/a/pyproject.toml",
            "pyproject.toml",
            "tools/c/pyproject.toml",
            "web/pyproject.toml",
        ]
    );
    assert!(a.paths.contains(&run("libs/a/setup.py", PathRole::Loaded)), "{:?}", a.paths);
    assert!(a.paths.contains(&run("setup.py", PathRole::Loaded)), "{:?}", a.paths);
    for src in [
        "pip install requests",
        "pip install git+https://example.invalid/x.git",
        "pip download .",
        "pip show -f x",
        "pip install -r requirements.txt",
    ] {
        assert!(builds(src).0.is_empty(), "{src}");
    }
}

/// The local projects pip takes from an operand or a requirements line (finding F109; checked
/// with pip 24 here): a name with a `/` or starting with `.`, a `file://` URL's path (`name @
/// file:///…` too), extras and markers cut, an archive as itself; an `-e` value unless it is a
/// URL; a package's name, a version requirement or another URL names none.
#[test]
fn pip_s_local_projects_are_its_paths_and_file_urls() {
    use super::LocalProject::{Archive, Folder};
    let folder = |s: &str| Some(Folder(s.to_owned()));
    for (spec, editable, want) in [
        ("vendor/d", false, folder("vendor/d")),
        (".", false, folder(".")),
        (".[dev,test]", false, folder(".")),
        ("./lib/", false, folder("./lib")),
        ("./lib ; python_version > '3.8'", false, folder("./lib")),
        ("file:///opt/x", false, folder("/opt/x")),
        ("file://localhost/opt/x", false, folder("/opt/x")),
        ("x @ file:///opt/x", false, folder("/opt/x")),
        ("x[extra]@ file:///opt/x", false, folder("/opt/x")),
        ("web", true, folder("web")),
        ("dist/x-1.0.tar.gz", false, Some(Archive("dist/x-1.0.tar.gz".to_owned()))),
        ("./x-1.0-py3-none-any.whl", false, Some(Archive("./x-1.0-py3-none-any.whl".to_owned()))),
        ("lib", false, None),
        ("requests==2.0", false, None),
        ("git+https://example.invalid/x.git", true, None),
        ("x @ https://example.invalid/x.zip", false, None),
        ("https://example.invalid/x.zip", false, None),
        ("", true, None),
    ] {
        assert_eq!(super::pip_local_project(spec, editable), want, "{spec}");
    }
    // `-r` and `-c` name files read for their projects, with the name as written.
    let a = shell(
        "pip install -r reqs/r.txt --constraint=c.txt && python -m pip install -rother.txt && \
         pip install vendor/d dist/x.tar.gz",
    );
    let mut read: Vec<(String, Vec<String>)> = (a.recipes.iter())
        .filter(|r| r.program == PIP_REQUIREMENTS_READER)
        .map(|r| (r.file.path.display().to_string(), r.targets.clone()))
        .collect();
    read.sort();
    let t = |s: &str| vec![s.to_owned()];
    assert_eq!(
        read,
        [
            ("c.txt".to_owned(), t("c.txt")),
            ("other.txt".to_owned(), t("other.txt")),
            ("reqs/r.txt".to_owned(), t("reqs/r.txt")),
        ]
    );
    for file in ["vendor/d/setup.py", "dist/x.tar.gz", "reqs/r.txt"] {
        assert!(a.paths.contains(&run(file, PathRole::Loaded)), "{file}: {:?}", a.paths);
    }
    // pipx's and uv's installs and runs from a local project.
    let builds = |src: &str| {
        let mut files: Vec<String> = (shell(src).recipes.iter())
            .filter(|r| r.program == PYTHON_BUILD_READER)
            .map(|r| r.file.path.display().to_string())
            .collect();
        files.sort();
        files
    };
    assert_eq!(
        builds(
            "pipx install --force ./a && pipx inject env ./b c && pipx run --spec ./d app && \
             uv tool install -e ./e && uv add ../f && uvx --from=./g,h app ./i && \
             uv run --with-editable ./j --with k pytest"
        ),
        [
            "../f/pyproject.toml",
            "./a/pyproject.toml",
            "./b/pyproject.toml",
            "./d/pyproject.toml",
            "./e/pyproject.toml",
            "./g/pyproject.toml",
            "./j/pyproject.toml",
            // The project's own, which `uv run` and `uv add` sync (F105).
            "pyproject.toml",
        ]
        .map(|f| f.trim_start_matches("./").to_owned())
    );
    for src in [
        "pipx install ruff",
        "uvx ruff check ./src --with ./x -r reqs.txt",
        "pipx run ./app.py",
        "uvx --from ruff==0.9 ruff",
    ] {
        assert!(builds(src).is_empty(), "{src}");
    }
    // What follows the program a run starts is the program's own.
    let a = shell("uv run pytest --with ./x -r reqs.txt");
    assert!(a.recipes.iter().all(|r| r.program != PIP_REQUIREMENTS_READER), "{:?}", a.recipes);
    assert_eq!(builds("uv run pytest --with ./x"), ["pyproject.toml"]);
}

/// A cargo subcommand that is none of cargo's own is an alias of its configuration, read
/// where cargo runs and in the user's (finding F116); `cargo run -p NAME` and `--manifest-path`
/// build another package's program than the one where it runs.
#[test]
fn cargo_s_aliases_and_other_packages_are_read() {
    let a = shell("cargo xtask lint --fix && cargo +nightly build && cargo check");
    let mut aliases: Vec<(String, Vec<String>)> = (a.recipes.iter())
        .filter(|r| r.program == super::CARGO_ALIAS_READER)
        .map(|r| (r.file.path.display().to_string(), r.targets.clone()))
        .collect();
    aliases.sort();
    let t = vec!["xtask".to_owned(), "lint".to_owned(), "--fix".to_owned()];
    assert_eq!(
        aliases,
        [
            (".cargo/config".to_owned(), t.clone()),
            (".cargo/config".to_owned(), t.clone()),
            (".cargo/config.toml".to_owned(), t.clone()),
            (".cargo/config.toml".to_owned(), t),
        ]
    );
    // An alias of an external subcommand's name replaces it.
    let clippy = shell("cargo clippy -q");
    assert!(clippy.recipes.iter().any(|r| r.program == super::CARGO_ALIAS_READER), "{clippy:?}");
    let a = shell("cargo run -q -p xtask -- check && cargo run --manifest-path tools/l/Cargo.toml");
    let packages: Vec<&Vec<String>> =
        a.recipes.iter().filter(|r| r.program == "cargo").map(|r| &r.targets).collect();
    assert!(packages.iter().any(|t| t.as_slice() == ["package:xtask"]), "{packages:?}");
    assert!(a.paths.contains(&run("tools/l/src/main.rs", PathRole::Script)), "{:?}", a.paths);
    assert!(!a.paths.contains(&run("src/main.rs", PathRole::Script)), "{:?}", a.paths);
    assert!(shell("cargo run").paths.contains(&run("src/main.rs", PathRole::Script)));
}

/// concurrently's arguments are command lines, `npm:NAME` a script run by pattern, and
/// `--teardown`'s value a command run after (finding F75).
#[test]
fn concurrently_s_commands_are_read_as_the_line_s_own() {
    let src = r#"npx concurrently -n tools/names.sh -c red "npm:lint:*(!fix)" "sh tools/direct.sh" --teardown "sh tools/down.sh""#;
    names(src, &[run("tools/direct.sh", PathRole::Script), run("tools/down.sh", PathRole::Script)]);
    let a = shell(src);
    let npm = a.recipes.iter().find(|r| r.program == "npm").expect("npm's manifest");
    assert_eq!(npm.file.path, Path::new("package.json"));
    assert!(npm.targets.contains(&"lint:**".to_owned()), "{:?}", npm.targets);
    // An option's value is no command.
    let names = Path::new("tools/names.sh");
    assert!(
        !a.paths.iter().any(|p| p.path == names && p.role == PathRole::Program),
        "{:?}",
        a.paths
    );
}

/// A package manager's run in its workspaces' packages is noted as such, its manifest read
/// with theirs (finding F78): npm's `-w`/`--workspaces`, pnpm's `-r`/`--filter`, before the
/// subcommand too; a run in the package alone is not.
#[test]
fn a_run_in_the_workspaces_is_noted_as_such() {
    let reader = |src: &str| {
        let a = shell(src);
        a.recipes.iter().map(|r| r.program.clone()).collect::<Vec<_>>()
    };
    for src in [
        "npm run lint -w packages/a",
        "npm run lint --workspace=a",
        "npm run -ws lint",
        "pnpm -r run lint",
        "pnpm --filter web lint",
        "yarn -s workspace a run lint",
        "yarn -s workspaces run lint",
    ] {
        assert_eq!(reader(src), [crate::scripts::WORKSPACES_READER], "{src}");
    }
    assert_eq!(reader("npm run lint"), ["npm"]);
    assert_eq!(reader("yarn run workspace"), ["yarn"], "a script named `workspace`");
    assert_eq!(reader("pnpm -w run lint"), ["pnpm"], "pnpm's -w is the workspace's root alone");
}

/// A TypeScript runner's configuration given by an option takes the nearest `tsconfig.json`'s
/// place and is noted to be read (finding F138): tsx's `--tsconfig` (both spellings),
/// ts-node's `--project` and `-P`; node's own line and another program's `-P` are not.
#[test]
fn a_typescript_runner_s_configuration_option_is_noted() {
    let a = shell(
        "tsx --tsconfig cfg/t.json tools/gate.ts && npx tsx --tsconfig=cfg/u.json g.ts && \
         ts-node -P cfg/n.json g.ts && ts-node-esm --project /abs/p.json g.ts && \
         node --require ./r.js g.js && grep -P x y",
    );
    let loaded = |p: &str| run(p, PathRole::Loaded);
    assert_eq!(
        a.typescript_configs,
        [
            named(PathBase::Root, "/abs/p.json", PathRole::Loaded),
            loaded("cfg/n.json"),
            loaded("cfg/t.json"),
            loaded("cfg/u.json"),
        ]
    );
    assert!(a.paths.contains(&loaded("cfg/t.json")), "{:?}", a.paths);
    assert!(a.paths.contains(&run("tools/gate.ts", PathRole::Script)), "{:?}", a.paths);
}
