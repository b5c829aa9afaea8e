//! Tests of the `Gemfile` reader (finding F115).

use std::path::{Path, PathBuf};

use super::*;

/// What Bundler evaluates, as the `Gemfile` names it: `eval_gemfile`'s file, the project's
/// gemspec (`gemspec`, with `path:` and `name:`), a local gem's (`path:` in both spellings),
/// a `path … do` block's gems; a gem from the index or a Git source names none.
#[test]
fn a_gemfile_names_what_bundler_evaluates() {
    let dir = Path::new("/p");
    let text = r#"source "https://rubygems.org"
eval_gemfile "gemfiles/extra.rb"
gemspec
gemspec path: "engines/e", name: "eng"
gem "x", path: "vendor/x"
gem "y", :path => '../y'
gem "rails", "~> 8.0"
gem "g", git: "https://example.invalid/g.git"
path "components" do
  gem "a"
end
gem "after"
"#;
    let found = evaluates(text, dir);
    let want: Vec<PathBuf> = [
        "/p/gemfiles/extra.rb",
        "/p/engines/e/eng.gemspec",
        "/p/vendor/x/x.gemspec",
        "/y/y.gemspec",
        "/p/components/a/a.gemspec",
        "/p/components/a.gemspec",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for file in &want {
        assert!(found.contains(file), "{file:?}: {found:?}");
    }
    assert_eq!(found.len(), want.len(), "{found:?}");
}

/// Read from the disk: the project's gemspec found by listing its folder, what a local gem's
/// gemspec requires, each read in turn; the literals read as command lines.
#[test]
fn a_gemfile_is_read_with_what_it_evaluates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("vendor/x/lib")).expect("mkdir");
    std::fs::write(
        root.join("Gemfile"),
        "source \"https://rubygems.org\"\ngemspec\ngem \"x\", path: \"vendor/x\"\n",
    )
    .expect("write");
    std::fs::write(root.join("app.gemspec"), "s.files = `git ls-files -z`.split(\"\\x0\")\n")
        .expect("write");
    std::fs::write(root.join("vendor/x/x.gemspec"), "require_relative \"lib/x_version\"\n")
        .expect("write");
    let read = read(&root.join("Gemfile"));
    for file in ["app.gemspec", "vendor/x/x.gemspec", "vendor/x/lib/x_version.rb"] {
        assert!(read.included.contains(&root.join(file)), "{file}: {read:?}");
    }
    assert!(read.lines.iter().any(|l| l == "git ls-files -z"), "{:?}", read.lines);
}

proptest::proptest! {
    /// Any text: no panic, at most the cap, every file under a folder the text names from.
    #[test]
    fn any_gemfile_text_names_within_its_cap(text in ".{0,300}") {
        let found = evaluates(&text, Path::new("/p"));
        proptest::prop_assert!(found.len() <= MAX_FILES);
    }
}
