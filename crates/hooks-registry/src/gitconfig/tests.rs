//! Tests of the reading of git's includes, against the real git where it is installed.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{include_paths, read_git_configuration, resolve};

/// The files `config` includes, as written.
fn included_files(config: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    read_git_configuration(config, home).included
}

/// Texts and the include paths git reads from them (checked against git 2.47's
/// `git config --file <f> --no-includes --get-regexp`, and against the git on `PATH` by
/// [`git_reads_the_same_includes`]).
const CASES: &[(&str, &[&str])] = &[
    ("[include]\n\tpath = a.inc\n", &["a.inc"]),
    ("[Include]\n\tPATH = a.inc\n[INCLUDE]\n\tPath=b.inc\n", &["a.inc", "b.inc"]),
    ("[includeIf \"gitdir:~/work/\"]\n\tpath = ~/work.inc\n", &["~/work.inc"]),
    ("[includeif \"onbranch:main\"]\npath = x\n[includeIf \"\"]\npath = y\n", &["x", "y"]),
    // A key on its section's line, comments, blanks kept inside and dropped around.
    ("[include] path = one two  # a comment\n; [include]\n# path = no\n", &["one two"]),
    // Quotes, escapes and a continued line.
    (
        "[include]\n\tpath = \"  spaced \\\"q\\\" \" ; c\n\tpath = a\\\n.inc\n",
        &["  spaced \"q\" ", "a.inc"],
    ),
    ("[include]\r\n\tpath = crlf.inc\r\n", &["crlf.inc"]),
    ("\u{feff}[include]\n\tpath = bom.inc\n", &["bom.inc"]),
    ("[include]\n\tpath = tab\\there\n", &["tab\there"]),
    // Not includes: another section, a subsection of include, a key that is not path, a
    // path with no value.
    ("[core]\n\tpath = no\n[include \"x\"]\n\tpath = no\n[include]\n\tpaths = no\n", &[]),
    ("[include]\n\tpath\n\tpath =\n", &[]),
    // Sections after other ones, the section left at the next header.
    ("[user]\n\tname = x\n[include]\n\tpath = a\n[core]\n\tpath = b\n", &["a"]),
    (
        "[include]\n\tpath = a\n[includeIf \"gitdir:/x/\"]\n\tpath = b\n[include]\n\tpath = c\n",
        &["a", "b", "c"],
    ),
];

#[test]
fn the_include_paths_are_read_as_git_reads_them() {
    for (text, want) in CASES {
        assert_eq!(include_paths(text), *want, "{text:?}");
    }
}

/// The old spelling of a subsection (`[includeIf.gitdir]`, `[include.x]`) is no include:
/// git reads the key (`includeif.gitdir.path`) but never follows it, since a condition it can
/// meet holds a `:`, which that spelling cannot.
#[test]
fn the_old_spelling_of_a_subsection_includes_nothing() {
    assert!(
        include_paths("[includeIf.gitdir]\n\tpath = no\n[include.x]\n\tpath = no\n").is_empty()
    );
}

/// What git would refuse (a bad line) is skipped, and an include after it still counts.
#[test]
fn after_a_line_git_refuses_the_reading_goes_on() {
    let cases: &[(&str, &[&str])] = &[
        ("[include]\n\tpath = \"open\n\tpath = b\n", &["b"]),
        ("[include]\n\tpath = bad\\q\n\tpath = b\n", &["b"]),
        ("[include\n\tpath = a\n[include]\n\tpath = b\n", &["b"]),
        ("[include \"x\n\tpath = a\n[include]\n\tpath = b\n", &["b"]),
        ("[include]\n\tpath # c\n\tpath = b\n", &["b"]),
        ("[include]\n\t!bang = 1\n\tpath = b\n", &["b"]),
        ("[include]\n\tpath = \"a\"\"\n\tpath = b\n", &["b"]),
    ];
    for (text, want) in cases {
        assert_eq!(include_paths(text), *want, "{text:?}");
    }
}

/// The git on `PATH` reads the same include paths from every case (each case a file of its
/// own; git refuses a file with a bad line whole, so only the cases it reads are compared).
#[test]
fn git_reads_the_same_includes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut compared = 0;
    for (i, (text, want)) in CASES.iter().enumerate() {
        let file = dir.path().join(format!("c{i}"));
        std::fs::write(&file, text).expect("write");
        let Ok(out) = std::process::Command::new("git")
            .args(["config", "--file"])
            .arg(&file)
            .args(["--no-includes", "-z", "--get-regexp", "^include(if\\..*)?\\.path$"])
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir.path())
            .output()
        else {
            // No git here: the expected lists above were taken from git 2.47.
            return;
        };
        // Exit 1: no such key.
        assert!(matches!(out.status.code(), Some(0 | 1)), "{text:?}: {out:?}");
        let got: Vec<String> = out
            .stdout
            .split(|b| *b == 0)
            .filter(|e| !e.is_empty())
            .map(|e| {
                let e = String::from_utf8_lossy(e);
                e.split_once('\n').map_or(String::new(), |(_, v)| v.to_owned())
            })
            // A key with no value, or an empty one, names no file.
            .filter(|v| !v.is_empty())
            .collect();
        assert_eq!(got, *want, "git on {text:?}");
        compared += 1;
    }
    assert_eq!(compared, CASES.len());
}

#[test]
fn an_include_is_found_from_the_file_s_folder_the_home_or_the_root() {
    let config = Path::new("/r/.git/config");
    let home = Some(Path::new("/h"));
    assert_eq!(resolve("../x.inc", Some(config), home), Some(PathBuf::from("/r/.git/../x.inc")));
    assert_eq!(resolve("~/a/b", Some(config), home), Some(PathBuf::from("/h/a/b")));
    assert_eq!(resolve("/abs", Some(config), home), Some(PathBuf::from("/abs")));
    assert_eq!(resolve("~/a", Some(config), None), None);
    assert_eq!(resolve("~other/a", Some(config), home), None);
    assert_eq!(resolve("%(prefix)/etc/x", Some(config), home), None);
    assert_eq!(resolve("", Some(config), home), None);
}

#[test]
fn includes_are_followed_to_git_s_depth_each_once_missing_ones_included() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let write = |name: &str, text: &str| std::fs::write(d.join(name), text).expect("write");
    // A chain of twelve: git reads ten levels below the first file.
    for i in 0..12 {
        write(&format!("l{i}"), &format!("[include]\n\tpath = l{}\n", i + 1));
    }
    let found = included_files(&d.join("l0"), None);
    let want: Vec<PathBuf> = (1..=10).map(|i| d.join(format!("l{i}"))).collect();
    assert_eq!(found, want);
    // A cycle, a missing file (named, not read), one named twice.
    write("a", "[include]\n\tpath = b\n\tpath = missing\n");
    write("b", "[includeIf \"gitdir:/\"]\n\tpath = a\n\tpath = missing\n\tpath = ~/h.inc\n");
    let found = included_files(&d.join("a"), Some(Path::new("/home/u")));
    assert_eq!(found, vec![d.join("b"), d.join("missing"), PathBuf::from("/home/u/h.inc")]);
    // A file that is not there, or not a file, includes nothing.
    assert!(included_files(&d.join("none"), None).is_empty());
    assert!(included_files(d, None).is_empty());
}

proptest! {
    /// Any text: no panic, and every path read is a piece of the text's characters after
    /// escapes (never more than the text holds).
    #[test]
    fn any_text_is_read_without_panic(text in "(\\PC|[\\[\\]\"\\\\#;= \t\r\n]){0,200}") {
        for path in include_paths(&text) {
            prop_assert!(!path.is_empty());
            prop_assert!(path.chars().count() <= text.chars().count());
        }
    }

    /// An include written the usual way, among other sections and comments, is read back.
    #[test]
    fn a_written_include_is_read_back(
        value in "[a-zA-Z0-9_./~-][a-zA-Z0-9_./~ -]{0,30}[a-zA-Z0-9_./~-]",
        conditional in any::<bool>(),
        before in "(\\[core\\]\n\tx = 1\n|# c\n|; c\n){0,3}",
    ) {
        let header = if conditional { "[includeIf \"gitdir:/x/\"]" } else { "[include]" };
        let text = format!("{before}{header}\n\tpath = {value} # trailing\n[user]\n\tpath = no\n");
        prop_assert_eq!(include_paths(&text), vec![value]);
    }
}

/// `core.hooksPath` (F57) is read from `[core]` sections only, in any case, from the file and
/// what it includes: from the home or absolute, and relative (to the repository's top folder,
/// which the caller knows) apart.
#[test]
fn hooks_paths_are_read_from_core_sections_and_what_they_include() {
    let dir = tempfile::tempdir().expect("temp dir");
    let git = dir.path().join(".git");
    std::fs::create_dir_all(&git).expect("mkdir");
    std::fs::write(
        git.join("config"),
        "[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../shared.inc\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("shared.inc"),
        "[Core] HOOKSPATH = \"~/hooks\" ; mine\n[core \"x\"]\n\thooksPath = /no\n\
         [other]\n\thooksPath = /no2\n[core]\n\thooksPath = /abs/hooks\n\thooksPath = ~other/no\n",
    )
    .expect("write");
    let (absolute, relative) =
        read_git_configuration(&git.join("config"), Some(Path::new("/h"))).hooks_paths();
    assert_eq!(absolute, [PathBuf::from("/h/hooks"), PathBuf::from("/abs/hooks")]);
    assert_eq!(relative, [PathBuf::from(".husky/_")]);
    // Without a home, `~/` names nothing.
    let (absolute, _) = read_git_configuration(&git.join("config"), None).hooks_paths();
    assert_eq!(absolute, [PathBuf::from("/abs/hooks")]);
    assert_eq!(super::read_values("[core]\n\thooksPath\n").hooks_paths, Vec::<String>::new());
}

/// The files git reads attributes and ignore patterns from (F126): `core.attributesFile` and
/// `core.excludesFile` of a file and of what it includes, and an `excludesfile` of any other
/// section (ripgrep's reading); an `attributesFile` outside `[core]` names nothing. Given on
/// the command line, either entry is a pattern file too.
#[test]
fn pattern_files_are_read_from_core_sections_what_they_include_and_any_excludesfile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join(".gitconfig");
    std::fs::write(
        &config,
        "[core]\n\tattributesFile = ~/attrs\n\texcludesFile = ci/ignore\n\
         [include]\n\tpath = more.inc\n[other]\n\tattributesfile = /no\n\texcludesfile = /any\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("more.inc"), "[CORE]\n\tExcludesFile = \"/abs/ex\"\n")
        .expect("write");
    let (absolute, relative) =
        read_git_configuration(&config, Some(Path::new("/h"))).pattern_files();
    assert_eq!(absolute, [PathBuf::from("/h/attrs"), PathBuf::from("/any"), "/abs/ex".into()]);
    assert_eq!(relative, [PathBuf::from("ci/ignore")]);
    use super::EntryEffect::PatternFile;
    let effect = |n: &str, v: &str| super::entry_effect(n, v);
    assert_eq!(effect("core.attributesFile", "/x"), Some(PatternFile("/x".into())));
    assert_eq!(effect("Core.ExcludesFile", "~/x"), Some(PatternFile("~/x".into())));
    assert_eq!(effect("other.attributesFile", "/x"), None);
    let entries = [("core.excludesfile".to_owned(), "~/ex".to_owned())];
    let read = super::read_git_configuration_entries(&entries, Some(Path::new("/h")));
    assert_eq!(read.pattern_files().0, [PathBuf::from("/h/ex")]);
}

/// Texts and the command lines git runs from them (F60): the keys of the sections git runs
/// a command for, in any case, with the old spelling of a subsection; booleans, bare
/// credential helpers and aliases without `!` run nothing of the user's; the same key in the
/// wrong kind of section is nothing.
const COMMAND_CASES: &[(&str, &[&str])] = &[
    ("[core]\n\tfsmonitor = tools/fsmon.sh\n", &["tools/fsmon.sh"]),
    ("[core]\n\tfsmonitor = true\n\tfsMonitor = FALSE\n\tpager = off\n", &[]),
    (
        "[Core]\n\tsshCommand = ssh -i ~/.ssh/id_work\n\taskPass = ~/bin/ask\n\teditor = vim\n",
        &["ssh -i ~/.ssh/id_work", "~/bin/ask", "vim"],
    ),
    (
        "[filter \"nb\"]\n\tclean = tools/clean.sh %f\n\tsmudge = cat\n\tprocess = p.sh\n\
         \trequired = true\n",
        &["tools/clean.sh %f", "cat", "p.sh"],
    ),
    ("[filter.nb]\n\tclean = old.sh\n[filter]\n\tclean = no.sh\n", &["old.sh"]),
    (
        "[diff]\n\texternal = ~/bin/ext.sh\n[diff \"nb\"]\n\ttextconv = python3 tc.py\n\
         \tcommand = cmd.sh\n\texternal = no.sh\n",
        &["~/bin/ext.sh", "python3 tc.py", "cmd.sh"],
    ),
    ("[merge \"ours\"]\n\tdriver = ./merge.sh %O %A %B\n\tname = x\n", &["./merge.sh %O %A %B"]),
    (
        "[credential]\n\thelper = store\n\thelper = !~/bin/cred.sh\n\thelper =\n\
         [credential \"https://h\"]\n\thelper = /opt/cred\n",
        &["~/bin/cred.sh", "/opt/cred"],
    ),
    (
        "[alias]\n\tst = status\n\tx = \"!sh ~/x.sh\"\n[gpg]\n\tprogram = ~/gpg.sh\n\
         [gpg \"ssh\"]\n\tprogram = ssh-sign\n",
        &["sh ~/x.sh", "~/gpg.sh", "ssh-sign"],
    ),
    (
        "[pager]\n\tlog = false\n\tdiff = delta\n[interactive]\n\tdiffFilter = df.sh\n\
         [sequence]\n\teditor = se.sh\n",
        &["delta", "df.sh", "se.sh"],
    ),
    (
        "[remote \"o\"]\n\tuploadpack = up.sh\n\turl = x\n[uploadpack]\n\tpackObjectsHook = po.sh\n\
         [difftool \"d\"]\n\tcmd = dt.sh\n[mergetool \"m\"]\n\tpath = mt\n[trailer \"t\"]\n\tcmd = tr.sh\n",
        &["up.sh", "po.sh", "dt.sh", "mt", "tr.sh"],
    ),
    (
        "[lfs \"extension.enc\"]\n\tclean = sh tools/enc.sh clean %f\n\tsmudge = tools/dec %f\n\
         \tpriority = 0\n[lfs \"customtransfer.up\"]\n\tpath = sh\n\targs = tools/up.sh --x\n\
         \tconcurrent = false\n[lfs]\n\tstandalonetransferagent = up\n\tpath = no.sh\n\
         [lfs \"https://h/\"]\n\taccess = basic\n",
        &["sh tools/enc.sh clean %f", "tools/dec %f", "sh", "tools/up.sh --x"],
    ),
    ("[user]\n\tname = sh x.sh\n[core]\n\tbare = false\n[include]\n\tpath = a\n", &[]),
];

#[test]
fn the_commands_git_runs_are_read_from_their_keys() {
    for (text, want) in COMMAND_CASES {
        assert_eq!(super::read_values(text).commands, *want, "{text:?}");
    }
}

/// The git on `PATH` reads the same keys and values from every case: each (section,
/// subsection, key, value) it lists, put through the same choice of keys
/// ([`super::runs_command`]), gives the commands the reader found.
#[test]
fn git_reads_the_same_command_keys_and_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, (text, _)) in COMMAND_CASES.iter().chain(CASES).enumerate() {
        let file = dir.path().join(format!("c{i}"));
        std::fs::write(&file, text).expect("write");
        let Ok(out) = std::process::Command::new("git")
            .args(["config", "--file"])
            .arg(&file)
            .args(["--no-includes", "-z", "--list"])
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir.path())
            .output()
        else {
            // No git here: the expected lists above were taken from git 2.47.
            return;
        };
        assert!(out.status.success(), "{text:?}: {out:?}");
        let mut from_git = Vec::new();
        for entry in out.stdout.split(|b| *b == 0).filter(|e| !e.is_empty()) {
            let entry = String::from_utf8_lossy(entry);
            let (name, value) = entry.split_once('\n').unwrap_or((&entry, ""));
            let (section, key) = super::entry_section(name).expect("a key has a section");
            if value.is_empty() {
                continue;
            }
            from_git.extend(super::runs_command(&section, &key, value));
        }
        assert_eq!(super::read_values(text).commands, from_git, "git on {text:?}");
    }
}

/// The commands of a file and of what it includes are gathered in one walk, each once; the
/// files they name from the root or the home are what a caller without the repository's top
/// folder gets.
#[test]
fn the_commands_of_a_configuration_and_its_includes_are_gathered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let git = dir.path().join(".git");
    std::fs::create_dir_all(&git).expect("mkdir");
    std::fs::write(
        git.join("config"),
        "[core]\n\tfsmonitor = tools/fsmon.sh\n[include]\n\tpath = ../shared.inc\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("shared.inc"),
        "[diff \"nb\"]\n\ttextconv = python3 ~/tc.py\n[core]\n\tfsmonitor = tools/fsmon.sh\n\
         [credential]\n\thelper = /opt/cred get\n",
    )
    .expect("write");
    let read = read_git_configuration(&git.join("config"), Some(Path::new("/h")));
    assert_eq!(read.commands(), ["tools/fsmon.sh", "python3 ~/tc.py", "/opt/cred get"]);
    let files = read.command_files(Some(Path::new("/h")));
    assert!(files.contains(&PathBuf::from("/h/tc.py")), "{files:?}");
    assert!(files.contains(&PathBuf::from("/opt/cred")), "{files:?}");
    assert!(!files.iter().any(|f| f.ends_with("fsmon.sh")), "relative: {files:?}");
    assert!(read.command_files(None).iter().all(|f| !f.starts_with("/h")));
}

proptest! {
    /// A command written under a key git runs is read back as written (blanks around it
    /// dropped), unless git reads it as a boolean.
    #[test]
    fn a_written_command_is_read_back(
        value in "[a-zA-Z0-9_./~%$ -]{1,40}",
        section in prop::sample::select(vec![
            "[core]\n\tfsmonitor", "[filter \"x\"]\n\tclean", "[diff \"y\"]\n\ttextconv",
            "[diff]\n\texternal", "[core]\n\tsshCommand",
        ]),
    ) {
        let text = format!("{section} = {value}\n");
        let trimmed = value.trim();
        let boolean = ["true", "false", "yes", "no", "on", "off", "1", "0"]
            .iter()
            .any(|b| trimmed.eq_ignore_ascii_case(b));
        let want: Vec<String> = if trimmed.is_empty() || (boolean && section.contains("fsmonitor")) {
            Vec::new()
        } else {
            vec![trimmed.to_owned()]
        };
        prop_assert_eq!(super::read_values(&text).commands, want);
    }
}

/// Entries given without a file (F62): their commands, their `core.hooksPath`, the files their
/// includes name absolutely or from the home and what those include and name; a relative
/// include (which git refuses there), a name without a dot and an empty value name nothing.
#[test]
fn entries_of_the_environment_are_read_as_a_configuration() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(
        d.join("team.inc"),
        "[diff]\n\texternal = ~/bin/ext.sh\n[include]\n\tpath = more.inc\n",
    )
    .expect("write");
    let e = |n: &str, v: &str| (n.to_owned(), v.to_owned());
    let entries = [
        e("core.fsmonitor", "~/bin/mon.sh"),
        e("Core.HooksPath", "/hooks"),
        e("include.path", d.join("team.inc").to_str().expect("utf-8")),
        e("includeIf.gitdir:~/w/.path", "~/w.inc"),
        e("include.path", "relative.inc"),
        e("filter.nb.clean", "python3 clean.py"),
        e("nodot", "x"),
        e("core.sshCommand", " "),
    ];
    let read = super::read_git_configuration_entries(&entries, Some(Path::new("/h")));
    assert_eq!(read.commands(), ["~/bin/mon.sh", "python3 clean.py", "~/bin/ext.sh"]);
    assert_eq!(read.hooks_folders(), [PathBuf::from("/hooks")]);
    let included = read.included();
    assert!(included.contains(&d.join("team.inc")), "{included:?}");
    assert!(included.contains(&d.join("more.inc")), "{included:?}");
    assert!(included.contains(&PathBuf::from("/h/w.inc")), "{included:?}");
    assert!(!included.iter().any(|p| p.ends_with("relative.inc")), "{included:?}");
}

/// `GIT_CONFIG_PARAMETERS` as the git on `PATH` writes it for `git -c` (an alias prints the
/// value it hands its command) reads back as the entries given, quotes, `!` and `=` in
/// values included; the older spelling and a name alone read as git reads them.
#[test]
fn git_config_parameters_read_back_as_git_writes_them() {
    let given = [
        ("core.fsmonitor", "/x/mon.sh"),
        ("diff.a b.textconv", "sh ~/tc.sh 'q' \"d\""),
        ("alias.x", "!echo it's = fine"),
        ("credential.helper", "!f() { echo a=b; }; f"),
    ];
    let mut args: Vec<String> = Vec::new();
    for (name, value) in given {
        args.extend(["-c".to_owned(), format!("{name}={value}")]);
    }
    args.extend(["-c".to_owned(), "alias.pp=!printf '%s' \"$GIT_CONFIG_PARAMETERS\"".to_owned()]);
    args.push("pp".to_owned());
    let Ok(out) =
        std::process::Command::new("git").args(&args).env("GIT_CONFIG_NOSYSTEM", "1").output()
    else {
        return;
    };
    assert!(out.status.success(), "{out:?}");
    let written = String::from_utf8(out.stdout).expect("utf-8");
    let read = super::git_config_parameters(&written);
    let want: Vec<(String, String)> = given
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .chain([("alias.pp".to_owned(), "!printf '%s' \"$GIT_CONFIG_PARAMETERS\"".to_owned())])
        .collect();
    assert_eq!(read, want, "{written:?}");
    assert_eq!(
        super::git_config_parameters("  'core.fsmonitor=/old.sh'\t'core.bare'  "),
        [
            ("core.fsmonitor".to_owned(), "/old.sh".to_owned()),
            ("core.bare".to_owned(), String::new())
        ]
    );
}

proptest! {
    /// Entries written as git writes them (each part quoted, `'` as `'\''`, `!` as `'\!'`)
    /// read back as themselves, whatever their text.
    #[test]
    fn written_parameters_read_back(
        entries in prop::collection::vec(
            ("[a-z]{1,5}\\.[a-zA-Z =!'.]{0,6}\\.?[a-z]{1,5}", "\\PC{0,12}"),
            0..4,
        ),
    ) {
        let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''").replace('!', "'\\!'"));
        let text: Vec<String> =
            entries.iter().map(|(n, v)| format!("{}={}", quote(n), quote(v))).collect();
        let read = super::git_config_parameters(&text.join(" "));
        prop_assert_eq!(read, entries);
    }
}
