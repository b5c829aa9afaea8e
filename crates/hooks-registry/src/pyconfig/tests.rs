//! What mypy's, flake8's and ruff's configuration files name to load, read as the tools read
//! them.

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
fn ruff_s_extend_is_a_file_it_reads() {
    assert_eq!(
        files("ruff.toml", "extend = \"tools/base.toml\"\nline-length = 99\n"),
        ["tools/base.toml"]
    );
    assert_eq!(files(".ruff.toml", "extend = \"../ruff.toml\"\n"), ["../ruff.toml"]);
    let toml = "[tool.ruff]\nextend = \"cfg/ruff.toml\"\n[tool.ruff.lint]\nselect = [\"E\"]\n";
    assert_eq!(files("pyproject.toml", toml), ["cfg/ruff.toml"]);
    // A pyproject's top-level `extend` is nobody's; the home and variables cannot be placed.
    assert!(files("pyproject.toml", "extend = \"x.toml\"\n").is_empty());
    assert!(files("ruff.toml", "extend = \"~/base.toml\"\n").is_empty());
}

#[test]
fn broken_files_name_nothing() {
    for name in PLUGIN_CONFIGS {
        assert_eq!(loads(name, "[tool.mypy\nplugins = = [\n"), Loads::default(), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text, under any of the names, gives a bounded list and never panics.
    #[test]
    fn any_configuration_gives_bounded_names(
        text in "(\\[mypy\\]|\\[flake8:local-plugins\\]|\\[tool\\.(mypy|ruff)\\]|plugins ?= ?|paths ?= ?|extend = \"|[a-z./_:,\" \\n\\t=\\[\\]#;~$-]){0,80}",
        which in 0..PLUGIN_CONFIGS.len(),
    ) {
        let l = loads(PLUGIN_CONFIGS[which], &text);
        prop_assert!(l.files.len() <= MAX_NAMES && l.folders.len() <= MAX_NAMES);
        for name in l.files.iter().chain(&l.folders) {
            prop_assert!(!name.is_empty() && !name.starts_with(['~', '$']));
        }
    }
}
