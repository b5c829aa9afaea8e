//! Tests of the reading of ssh's `Include` lines.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{Included, include_arguments, read_ssh_configuration, resolve};

/// The places `config` includes.
fn included(config: &Path, folder: &Path, home: Option<&Path>) -> Vec<Included> {
    read_ssh_configuration(config, folder, home, None).included
}

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

/// What a configuration's lines have ssh run or load (F61): the rest of a `ProxyCommand`,
/// `KnownHostsCommand` or `LocalCommand` line as ssh keeps it, a `Match` line's `exec`
/// argument (negated too, after other criteria), the libraries of `PKCS11Provider` and
/// `SecurityKeyProvider`; keywords in any case, `=` or blanks after them, `%d` as `~`;
/// `none` and comments give nothing.
#[test]
fn what_ssh_runs_and_loads_is_read_from_its_lines() {
    use super::{Runs, runs};
    let text = "# ProxyCommand no.sh\nHost a\n  ProxyCommand ~/bin/proxy.sh %h %p\n\
                Host b\n\tproxycommand=none\n\tKnownHostsCommand = %d/bin/khc %H\n\
                LocalCommand /opt/lc.sh\nMatch host x !exec \"sh ~/m.sh %h\" user y\n\
                Match all\nMATCH canonical exec /opt/m2 final\nMatch exec\n\
                PKCS11Provider /usr/lib/opensc.so\nSecurityKeyProvider \"%d/sk.so\"\n\
                SecurityKeyProvider internal\nProxyJump j\n";
    assert_eq!(
        runs(text, None),
        [
            Runs::Command("~/bin/proxy.sh %h %p".into()),
            Runs::Command("~/bin/khc %H".into()),
            Runs::Command("/opt/lc.sh".into()),
            Runs::Command("sh ~/m.sh %h".into()),
            Runs::Command("/opt/m2".into()),
            Runs::Library("/usr/lib/opensc.so".into()),
            Runs::Library("~/sk.so".into()),
        ]
    );
    assert_eq!(super::with_home_token("%%d %d%", None), "%%d ~%");
    // The home ssh takes from the password database, where it is known.
    let root = Some(Path::new("/root"));
    assert_eq!(
        runs("ProxyCommand %d/bin/p.sh %h\n", root),
        [Runs::Command("/root/bin/p.sh %h".into())]
    );
    // A blank command or library (ssh keeps a vertical tab; found by the fuzz target) runs
    // and loads nothing.
    assert_eq!(runs("LocalCommand \u{b} \nPKCS11Provider \"\u{b}\"\n", None), []);
}

/// The commands of a configuration and of what it includes are gathered in the walk of its
/// includes, each once.
#[test]
fn the_commands_of_a_configuration_and_its_includes_are_gathered() {
    use super::Runs;
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("config"), "Include inc\nHost *\n  ProxyCommand /p.sh\n").expect("w");
    std::fs::write(d.join("inc"), "Match exec /m.sh\nProxyCommand /p.sh\n").expect("w");
    let read = read_ssh_configuration(&d.join("config"), d, None, None);
    assert_eq!(read.runs, [Runs::Command("/p.sh".into()), Runs::Command("/m.sh".into())]);
    assert_eq!(read.included, [Included::File(d.join("inc"))]);
}

/// The files of a wildcard's folder are read for their includes and what they run when the
/// wildcard is in the last component only (`Include cfg.d/*`); a deeper one's are not.
#[test]
fn the_files_a_wildcard_in_the_last_component_reads_are_read() {
    use super::Runs;
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("cfg.d/sub")).expect("mkdir");
    std::fs::create_dir_all(d.join("deep/x")).expect("mkdir");
    std::fs::write(d.join("config"), "Include cfg.d/*.conf deep/*/c\n").expect("w");
    std::fs::write(d.join("cfg.d/work.conf"), "Host w\n  ProxyCommand /w.sh\nInclude more\n")
        .expect("w");
    std::fs::write(d.join("more"), "Match exec /m.sh\n").expect("w");
    std::fs::write(d.join("deep/x/c"), "ProxyCommand /no.sh\n").expect("w");
    let read = read_ssh_configuration(&d.join("config"), d, None, None);
    assert_eq!(
        read.included,
        [
            Included::Folder(d.join("cfg.d")),
            Included::File(d.join("cfg.d/work.conf")),
            Included::Folder(d.join("deep")),
            Included::File(d.join("more")),
        ]
    );
    assert_eq!(read.runs, [Runs::Command("/w.sh".into()), Runs::Command("/m.sh".into())]);
    assert!(super::wild_in_last_component_only("cfg.d/*"));
    assert!(super::wild_in_last_component_only("*.conf"));
    assert!(!super::wild_in_last_component_only("a/*/c"));
    assert!(!super::wild_in_last_component_only("a/b"));
}

/// ssh's `%d` is the home it takes from the password database: where that is not `$HOME`
/// (`ssh_home` given), a command naming it is read with that home and with `~` both.
#[test]
fn percent_d_is_read_as_ssh_s_home_and_as_the_home() {
    use super::Runs;
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("config"), "Host *\n  ProxyCommand %d/bin/p.sh %h\n").expect("w");
    let read = read_ssh_configuration(&d.join("config"), d, None, Some(Path::new("/root")));
    assert_eq!(
        read.runs,
        [Runs::Command("/root/bin/p.sh %h".into()), Runs::Command("~/bin/p.sh %h".into())]
    );
    let read = read_ssh_configuration(&d.join("config"), d, None, None);
    assert_eq!(read.runs, [Runs::Command("~/bin/p.sh %h".into())]);
}
