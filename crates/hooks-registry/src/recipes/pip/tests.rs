//! Tests of the requirements files' reader (finding F109).

use super::*;

/// A requirements file's lines are pip's: nested files by their names, each requirement
/// and `-e` line handed back as pip's own line, comments, continuations and markers cut.
#[test]
fn a_requirements_file_is_read_as_pip_reads_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("reqs")).expect("mkdir");
    std::fs::write(
        root.join("reqs/requirements.txt"),
        "# tools\n-e .\n./lib ; python_version > \"3.8\"\n-r more.txt\n--constraint=c.txt\n\
         requests==2.0 \\\n  --hash=sha256:abc\n-i https://example.invalid/simple\n\
         -r https://example.invalid/r.txt\nx @ file:///opt/x ; sys_platform == 'linux'\n\
         -rself.txt\n",
    )
    .expect("write");
    std::fs::write(root.join("reqs/more.txt"), "vendor/d # vendored\n-r requirements.txt\n")
        .expect("write");
    let read = read(&root.join("reqs/requirements.txt"));
    let included: Vec<PathBuf> = ["requirements.txt", "self.txt", "c.txt", "more.txt"]
        .iter()
        .map(|n| root.join("reqs").join(n))
        .collect();
    assert_eq!(read.included, included);
    assert_eq!(
        read.lines,
        [
            "pip install '-e' '.'",
            "pip install './lib'",
            "pip install 'requests==2.0' '--hash=sha256:abc'",
            "pip install 'x' '@' 'file:///opt/x'",
            "pip install 'vendor/d'",
        ]
    );
}

/// Each spelling of a nested file's option, and what names none.
#[test]
fn nested_files_are_named_by_each_spelling() {
    for (line, name) in [
        ("-r a.txt", Some("a.txt")),
        ("-ra.txt", Some("a.txt")),
        ("--requirement=a.txt", Some("a.txt")),
        ("--requirement a.txt", Some("a.txt")),
        ("-c a.txt", Some("a.txt")),
        ("--constraint=a.txt", Some("a.txt")),
        ("--requirements a.txt", None),
        ("-r", None),
        ("-r https://example.invalid/a.txt", None),
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let got = match requirement_line(&words) {
            Line::Nested(n) => Some(n),
            _ => None,
        };
        assert_eq!(got, name, "{line}");
    }
    assert_eq!(requirement_line(&["--editable=./lib"]), Line::Install);
    assert_eq!(requirement_line(&["--pre"]), Line::Other);
    assert_eq!(requirement_line(&["lib"]), Line::Install);
}

/// A pip configuration's options that name what pip installs, as pip's lines (finding F113):
/// `[global]` and `[install]` only, `_` read as `-`, a list split at blanks.
#[test]
fn a_pip_configuration_s_installs_are_pip_s_lines() {
    let text = "[global]\nfind_links = ./wheels\n    ../more\n[install]\nrequirement = r.txt\n\
                constraint = c.txt\neditable = ./a ./b\nno-index = true\n[freeze]\n\
                requirement = other.txt\n";
    assert_eq!(
        config_lines(text),
        [
            "pip install --find-links './wheels'",
            "pip install --find-links '../more'",
            "pip install -r 'r.txt'",
            "pip install -c 'c.txt'",
            "pip install -e './a'",
            "pip install -e './b'",
        ]
    );
    assert!(config_lines("[install\nrequirement = r.txt").is_empty());
}

proptest::proptest! {
    /// Any text: at most the caps, every line starting with pip's program.
    #[test]
    fn any_requirements_text_reads_within_its_caps(text in ".{0,400}") {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("r.txt");
        std::fs::write(&file, &text).expect("write");
        let read = read(&file);
        proptest::prop_assert!(read.lines.len() <= MAX_LINES);
        proptest::prop_assert!(read.included.len() <= MAX_FILES);
        for line in &read.lines {
            proptest::prop_assert!(line.starts_with("pip install '"));
        }
    }
}
