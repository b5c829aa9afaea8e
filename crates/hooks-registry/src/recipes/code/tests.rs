//! Tests for the readers of recipe files that are code (finding F95): a `Rakefile`, invoke's
//! `tasks.py`, nox's `noxfile.py` as their tools read them, broken texts, a property.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{Language, invoke_shell, lines, loads, read};

/// A `Rakefile`'s command lines (checked with rake 13.0): the strings of `sh`, `ruby`,
/// `system` and backticks, an argument list joined, a `%w[…]` list, an interpolation as a
/// variable; not the files it loads.
#[test]
fn a_rakefile_s_strings_are_its_lines() {
    let text = r##"require_relative "tools/req"
load "tools/loaded.rb"
import 'tools/imported.rake'
require "json"
desc "Run the linter"
task :lint => [:pre] do
  sh "sh tools/lint.sh"
  ruby "tools/check.rb"
  system("sh", "tools/sys.sh")
  `sh tools/bt.sh`
  sh "sh tools/#{name}.sh"
end
task :pre do
  sh %w[sh tools/pre.sh].join(" ")
end
"##;
    assert_eq!(
        lines(text, Language::Ruby),
        [
            "Run the linter",
            "sh tools/lint.sh",
            "tools/check.rb",
            "sh",
            "tools/sys.sh",
            "sh tools/sys.sh",
            "sh tools/bt.sh",
            "sh tools/\"$X\".sh",
            " ",
            "sh tools/pre.sh",
        ]
    );
}

/// The files and folders a `Rakefile` loads: `require_relative` from its own folder with
/// `.rb` added, `load`, `import` and `require "./…"` from where rake runs, a path to a Ruby
/// file in any string, the folder a pattern lists, Rails' `lib/tasks`; not a library.
#[test]
fn what_a_rakefile_loads_is_its_files_and_folders() {
    let text = r##"require_relative "tools/req"
require_relative("../up.rb")
load "tools/loaded.rb"
import 'tools/imported.rake'
require "json"
require "./local"
FILES = ["extra/more.rake"]
Dir.glob("lib/tasks/**/*.rake").each { |f| load f }
Dir["ci/*.rb"].each { |f| require_relative f }
Rails.application.load_tasks
load "#{ENV['X']}/x.rb"
"##;
    let found = loads(text, Language::Ruby, Path::new("/p/sub"), Path::new("/p"));
    let p = |s: &str| PathBuf::from(s);
    assert_eq!(
        found.files,
        [
            p("/p/extra/more.rake"),
            p("/p/local.rb"),
            p("/p/sub/tools/req.rb"),
            p("/p/tools/imported.rake"),
            p("/p/tools/loaded.rb"),
            p("/p/up.rb"),
        ]
    );
    assert_eq!(found.folders, [p("/p/ci"), p("/p/lib/tasks")]);
}

/// invoke's and nox's Python (checked with invoke 3.0 and nox 2026.10): the strings of
/// `c.run(…)` and `session.run(…)`, an argument list joined, an f-string's `{…}` as a
/// variable (`{{` a brace); the modules imported from the file's folder.
#[test]
fn python_recipe_files_give_their_strings_and_local_imports() {
    let text = "\"\"\"Tasks.\"\"\"\nfrom invoke import task\nimport helpers\n\n@task\ndef lint(c):\n    c.run(\"sh tools/lint.sh\")\n    c.run(f\"sh tools/{name}.sh --x={{y}}\")\n    session.run(\"sh\", \"tools/nox.sh\", external=True)\n";
    assert_eq!(
        lines(text, Language::Python),
        [
            "Tasks.",
            "sh tools/lint.sh",
            "sh tools/\"$X\".sh --x={y}",
            "sh",
            "tools/nox.sh",
            "sh tools/nox.sh",
        ]
    );
    let found = loads(text, Language::Python, Path::new("/p"), Path::new("/p"));
    assert!(found.files.contains(&PathBuf::from("/p/helpers.py")), "{found:?}");
    assert!(found.folders.contains(&PathBuf::from("/p/helpers")), "{found:?}");
    // A module from a folder the recipe adds to its search path from where it runs (F136).
    let text = "import sys\nsys.path.insert(0, '../shared')\nimport policy\n";
    let found = loads(text, Language::Python, Path::new("/q/ci"), Path::new("/p/run"));
    assert!(found.files.contains(&PathBuf::from("/p/shared/policy.py")), "{found:?}");
    assert!(found.compiled.contains(&PathBuf::from("/p/shared/policy")), "{found:?}");
}

/// A `Rakefile` is read with what it loads, in turn, and `rakelib/` is its folder whatever
/// it holds; a package of invoke's tasks is its folder; a file that loads itself is read once.
#[test]
fn a_rakefile_is_read_with_what_it_loads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("tools")).expect("mkdir");
    std::fs::write(
        root.join("Rakefile"),
        "require_relative 'tools/req'\ntask(:a) { sh 'sh a.sh' }\n",
    )
    .expect("write");
    std::fs::write(root.join("tools/req.rb"), "load 'tools/req.rb'\nsh 'sh tools/deep.sh'\n")
        .expect("write");
    let found = read(&root.join("Rakefile"), Language::Ruby, root);
    assert_eq!(found.lines, ["sh a.sh", "sh tools/deep.sh"]);
    assert_eq!(found.included, [root.join("tools/req.rb")]);
    assert_eq!(found.folders, [root.join("rakelib")]);
    std::fs::create_dir_all(root.join("tasks")).expect("mkdir");
    std::fs::write(root.join("tasks/__init__.py"), "from . import sub\n").expect("write");
    let found = read(&root.join("tasks/__init__.py"), Language::Python, root);
    assert!(found.folders.contains(&root.join("tasks")), "{found:?}");
    assert!(found.included.contains(&root.join("tasks/sub.py")), "{found:?}");
}

/// The program invoke's configuration has it run every line with (`run.shell`).
#[test]
fn invoke_s_shell_is_read_from_its_configuration() {
    assert_eq!(invoke_shell("run:\n  shell: /opt/sh\n").as_deref(), Some("/opt/sh"));
    assert_eq!(invoke_shell("run:\n  shell: 'tools/sh'\n").as_deref(), Some("tools/sh"));
    assert_eq!(invoke_shell("{\"run\": {\"shell\": \"./x\"}}").as_deref(), None);
    assert_eq!(invoke_shell("{\"run\": {\n  \"shell\": \"./x\"\n}}").as_deref(), Some("./x"));
    assert_eq!(invoke_shell("run:\n  echo: true\n"), None);
}

proptest! {
    /// Any text made of what the readers look for: no panic, at most 256 lines, none longer
    /// than the text and its interpolations' `"$X"`; every loaded file under the folders given.
    #[test]
    fn any_code_recipe_gives_bounded_lines(
        parts in proptest::collection::vec(prop_oneof![
            Just("require_relative "), Just("load("), Just("import "), Just("\""), Just("'"),
            Just("`"), Just("#{"), Just("}"), Just("{"), Just("f\""), Just("%w["), Just("]"),
            Just(", "), Just("../"), Just("x.rb"), Just("*.rake"), Just("sh a.sh"), Just("\n"),
            Just("from . import x\n"), Just("import a.b\n"), Just("#"), Just("é"),
        ], 0..60),
        ruby in any::<bool>(),
    ) {
        let text: String = parts.concat();
        let language = if ruby { Language::Ruby } else { Language::Python };
        let found = lines(&text, language);
        prop_assert!(found.len() <= 256);
        let budget = text.len() + 2 * text.matches('{').count();
        prop_assert!(found.iter().all(|l| l.len() <= budget), "{found:?}");
        let loaded = loads(&text, language, Path::new("/p/a/b"), Path::new("/p/a"));
        for path in loaded.files.iter().chain(&loaded.folders) {
            prop_assert!(path.is_absolute(), "{path:?}");
        }
    }
}
