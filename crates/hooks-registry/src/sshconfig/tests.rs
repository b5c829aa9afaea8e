//! Tests of the reading of ssh's `Include` lines.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{Included, include_arguments, included, resolve};

#[test]
fn include_lines_are_read_as_ssh_reads_them() {
    let text = "# Include no\nHost *\n  Include cfg.d/*\nINCLUDE=\"extra one\" two # c\n\
                include  =  three\r\nIncludeX no\nMatch exec \"x\"\n\tInclude ~/.orbstack/ssh/config\n\
                Include \"open\n  #Include no\n";
    assert_eq!(
        include_arguments(text),
        ["cfg.d/*", "extra one", "two", "three", "~/.orbstack/ssh/config"]
    );
    assert!(include_arguments("").is_empty());
    assert!(include_arguments("Include\nInclude #c\n").is_empty());
}

#[test]
fn an_include_names_a_file_or_the_folder_a_wildcard_reads_from() {
    let ssh = Path::new("/h/.ssh");
    let home = Some(Path::new("/h"));
    let file = |p: &str| Some(Included::File(PathBuf::from(p)));
    let folder = |p: &str| Some(Included::Folder(PathBuf::from(p)));
    assert_eq!(resolve("extra", ssh, home), file("/h/.ssh/extra"));
    assert_eq!(resolve("~/.orbstack/ssh/config", ssh, home), file("/h/.orbstack/ssh/config"));
    assert_eq!(resolve("/etc/ssh/x", ssh, home), file("/etc/ssh/x"));
    assert_eq!(resolve("cfg.d/*", ssh, home), folder("/h/.ssh/cfg.d"));
    assert_eq!(resolve("~/.colima/*/ssh_config", ssh, home), folder("/h/.colima"));
    assert_eq!(resolve("conf?.d/x", Path::new("/etc/ssh"), home), folder("/etc/ssh"));
    assert_eq!(resolve("~/x", ssh, None), None);
    assert_eq!(resolve("~other/x", ssh, home), None);
    assert_eq!(resolve("", ssh, home), None);
}

#[test]
fn includes_are_followed_to_ssh_s_depth_each_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    for i in 0..20 {
        std::fs::write(d.join(format!("c{i}")), format!("Include c{}\n", i + 1)).expect("write");
    }
    let found = included(&d.join("c0"), d, None);
    let want: Vec<Included> = (1..=16).map(|i| Included::File(d.join(format!("c{i}")))).collect();
    assert_eq!(found, want);
    std::fs::write(d.join("a"), "Include b missing conf.d/*.conf\n").expect("write");
    std::fs::write(d.join("b"), "Host x\n  Include a missing\n").expect("write");
    assert_eq!(
        included(&d.join("a"), d, None),
        [
            Included::File(d.join("b")),
            Included::File(d.join("missing")),
            Included::Folder(d.join("conf.d")),
        ]
    );
    assert!(included(&d.join("none"), d, None).is_empty());
}

proptest! {
    /// Any text: no panic, and every argument is a piece of the text.
    #[test]
    fn any_text_is_read_without_panic(text in "(\\PC|[\"#= \t\r\n]|Include ){0,200}") {
        for argument in include_arguments(&text) {
            prop_assert!(!argument.is_empty());
            prop_assert!(text.contains(&argument));
        }
    }
}
