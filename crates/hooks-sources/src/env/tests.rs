//! Tests for the environment table and `specs/env-vars.md`.

use std::{
    collections::BTreeSet,
    ffi::{OsStr, OsString},
    path::PathBuf,
};

use crate::EnvVars;

#[test]
fn from_lookup_asks_for_every_name_in_the_table_and_nothing_else() {
    let mut asked = Vec::new();
    let _ = EnvVars::from_lookup(|name| {
        asked.push(name.to_owned());
        None
    });
    let table: Vec<String> = EnvVars::TABLE.iter().map(|s| s.name.to_owned()).collect();
    assert_eq!(asked, table);
}

/// `GIT_CONFIG_COUNT` makes the reading ask for the entries it counts, by their own names,
/// at most 64, and [`EnvVars::git_config_entries`] gives them in order (a missing key
/// skipped, a missing value empty).
#[test]
fn the_entries_git_config_count_counts_are_read() {
    for (count, asked_more) in [("3", 6), (" 2 ", 4), ("x", 0), ("100000", 128)] {
        let mut asked = Vec::new();
        let env = EnvVars::from_lookup(|name| {
            asked.push(name.to_owned());
            match name {
                "GIT_CONFIG_COUNT" => Some(count.into()),
                "GIT_CONFIG_KEY_0" => Some("core.fsmonitor".into()),
                "GIT_CONFIG_VALUE_0" => Some("/m.sh".into()),
                "GIT_CONFIG_KEY_1" => Some("core.bare".into()),
                "GIT_CONFIG_VALUE_2" => Some("lost".into()),
                _ => None,
            }
        });
        assert_eq!(asked.len(), EnvVars::TABLE.len() + asked_more, "{count:?}");
        assert_eq!(
            asked[EnvVars::TABLE.len()..].first().map(String::as_str),
            (asked_more > 0).then_some("GIT_CONFIG_KEY_0")
        );
        let entries = env.git_config_entries();
        if asked_more >= 4 {
            assert_eq!(
                entries,
                [
                    ("core.fsmonitor".to_owned(), "/m.sh".to_owned()),
                    ("core.bare".to_owned(), String::new())
                ]
            );
        } else {
            assert!(entries.is_empty());
        }
    }
}

#[test]
fn values_land_in_their_fields_and_empty_counts_as_unset() {
    let env = EnvVars::from_pairs([
        (EnvVars::HOOK_DIRS, OsStr::new("/a,/b")),
        (EnvVars::HOME, OsStr::new("/home/u")),
        (EnvVars::SHELL, OsStr::new("/bin/zsh")),
        (EnvVars::XDG_CONFIG_HOME, OsStr::new("")),
        ("UNRELATED", OsStr::new("x")),
    ]);
    assert_eq!(env.hook_dirs.as_deref(), Some(OsStr::new("/a,/b")));
    assert_eq!(env.home_dir(), Some(PathBuf::from("/home/u")));
    assert_eq!(env.shell(), Some("/bin/zsh"));
    assert_eq!(env.xdg_config_home, None);
    assert_eq!(env.engine_config_dir(), Some(PathBuf::from("/home/u/.config/agent-hooks")));
}

#[test]
fn home_falls_back_to_userprofile_and_ignores_relative_values() {
    let env = EnvVars::from_pairs([
        (EnvVars::HOME, OsStr::new("relative/home")),
        (EnvVars::USERPROFILE, OsStr::new("/profile")),
    ]);
    assert_eq!(env.home_dir(), Some(PathBuf::from("/profile")));
    let none = EnvVars::from_pairs([(EnvVars::HOME, OsStr::new("rel"))]);
    assert_eq!(none.home_dir(), None);
    assert_eq!(none.engine_config_dir(), None);
}

#[test]
fn xdg_config_home_wins_when_absolute() {
    let env = EnvVars::from_pairs([
        (EnvVars::HOME, OsStr::new("/h")),
        (EnvVars::XDG_CONFIG_HOME, OsStr::new("/xdg")),
    ]);
    assert_eq!(env.engine_config_dir(), Some(PathBuf::from("/xdg/agent-hooks")));
}

#[test]
fn the_state_dir_is_xdg_state_home_when_absolute_else_the_platform_s_place() {
    let env = EnvVars::from_pairs([
        (EnvVars::HOME, OsStr::new("/h")),
        (EnvVars::XDG_STATE_HOME, OsStr::new("/state")),
    ]);
    assert_eq!(env.engine_state_dir(), Some(PathBuf::from("/state/agent-hooks")));
    let relative = EnvVars::from_pairs([
        (EnvVars::HOME, OsStr::new("/h")),
        (EnvVars::XDG_STATE_HOME, OsStr::new("state")),
    ]);
    let default = if cfg!(target_os = "macos") {
        "/h/Library/Application Support/agent-hooks"
    } else {
        "/h/.local/state/agent-hooks"
    };
    if !cfg!(windows) {
        assert_eq!(relative.engine_state_dir(), Some(PathBuf::from(default)));
    }
    assert_eq!(EnvVars::default().engine_state_dir(), None);
}

#[test]
fn the_process_reader_returns_the_same_shape_as_the_lookup() {
    // The process environment is whatever the test runner has; the reader must agree with a
    // lookup that reads the same names, and it knows the process's working directory.
    #[allow(clippy::disallowed_methods)]
    let expected = EnvVars::from_lookup(|n| std::env::var_os(n))
        .with_cwd(std::env::current_dir().expect("a working directory"));
    assert_eq!(EnvVars::from_process(), expected);
}

/// `specs/env-vars.md` lists exactly the variables in the table, each with its own row.
#[test]
fn the_spec_lists_exactly_the_table() {
    let spec_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../specs/env-vars.md");
    let spec = std::fs::read_to_string(spec_path).expect("specs/env-vars.md is readable");
    let in_spec: Vec<&str> = spec
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(name, _)| name))
        .collect();
    let in_spec_set: BTreeSet<&str> = in_spec.iter().copied().collect();
    assert_eq!(in_spec.len(), in_spec_set.len(), "a variable is listed twice: {in_spec:?}");
    let in_table: BTreeSet<&str> = EnvVars::TABLE.iter().map(|s| s.name).collect();
    assert_eq!(in_spec_set, in_table, "specs/env-vars.md and EnvVars::TABLE disagree");
}

#[test]
fn the_table_has_no_duplicates_and_every_purpose_is_written() {
    let names: BTreeSet<&str> = EnvVars::TABLE.iter().map(|s| s.name).collect();
    assert_eq!(names.len(), EnvVars::TABLE.len());
    assert!(EnvVars::TABLE.iter().all(|s| s.purpose.len() > 20));
}

/// A format's folder override is read only when the format declares it, and only for the
/// formats registered.
#[test]
fn format_folder_overrides_come_from_the_registered_descriptors() {
    use hooks_schema::{FileLocation, FormatDescriptor, FormatDirs, FormatId, FormatSet, UserDir};
    #[derive(Debug)]
    struct Moved;
    impl FormatDescriptor for Moved {
        fn id(&self) -> FormatId {
            FormatId::new("moved")
        }
        fn agent(&self) -> &'static str {
            "Moved"
        }
        fn dirs(&self) -> FormatDirs {
            FormatDirs {
                user: Some(UserDir::under_home(".moved").or_env("MOVED_HOME")),
                managed: None,
            }
        }
        fn locations(&self) -> &[FileLocation] {
            &[]
        }
        fn parse(&self, _: &[u8], _: &hooks_schema::ParseContext<'_>) -> hooks_schema::ParseResult {
            Ok(hooks_schema::ParsedSource::default())
        }
        fn events(&self) -> &[hooks_schema::NativeEvent] {
            &[]
        }
        fn codec(&self) -> std::sync::Arc<dyn hooks_schema::HookCodec> {
            std::sync::Arc::new(hooks_testing::InertCodec)
        }
    }
    let formats = FormatSet::new(vec![std::sync::Arc::new(Moved)]);
    let lookup = |name: &str| match name {
        "MOVED_HOME" => Some(OsString::from("/elsewhere")),
        "HOME" => Some(OsString::from("/h")),
        _ => None,
    };
    let env = EnvVars::from_lookup_with(&formats, lookup);
    assert_eq!(env.format_var("MOVED_HOME"), Some(OsStr::new("/elsewhere")));
    assert_eq!(EnvVars::format_var_names(&formats), ["MOVED_HOME"]);
    let dirs = crate::UserDirs::from_env(&formats, &env);
    assert_eq!(dirs.folder(FormatId::new("moved")), Some(std::path::Path::new("/elsewhere")));
    // Without the override, the folder under the home.
    let env = EnvVars::from_lookup_with(&formats, |n| (n == "HOME").then(|| OsString::from("/h")));
    let dirs = crate::UserDirs::from_env(&formats, &env);
    assert_eq!(dirs.folder(FormatId::new("moved")), Some(std::path::Path::new("/h/.moved")));
    // Not registered, not read.
    assert!(EnvVars::from_lookup(lookup).format_vars.is_empty());
}

/// A format may name a home folder of its own (Gemini CLI's `GEMINI_CLI_HOME`): its user
/// folder is then its usual folder under that home.
#[test]
fn a_format_home_variable_moves_its_folder_under_that_home() {
    use hooks_schema::{FileLocation, FormatDescriptor, FormatDirs, FormatId, FormatSet, UserDir};
    #[derive(Debug)]
    struct OwnHome;
    impl FormatDescriptor for OwnHome {
        fn id(&self) -> FormatId {
            FormatId::new("own-home")
        }
        fn agent(&self) -> &'static str {
            "OwnHome"
        }
        fn dirs(&self) -> FormatDirs {
            FormatDirs {
                user: Some(UserDir::under_home(".own").or_home_env("OWN_HOME")),
                managed: None,
            }
        }
        fn locations(&self) -> &[FileLocation] {
            &[]
        }
        fn parse(&self, _: &[u8], _: &hooks_schema::ParseContext<'_>) -> hooks_schema::ParseResult {
            Ok(hooks_schema::ParsedSource::default())
        }
        fn events(&self) -> &[hooks_schema::NativeEvent] {
            &[]
        }
        fn codec(&self) -> std::sync::Arc<dyn hooks_schema::HookCodec> {
            std::sync::Arc::new(hooks_testing::InertCodec)
        }
    }
    let formats = FormatSet::new(vec![std::sync::Arc::new(OwnHome)]);
    let env = EnvVars::from_lookup_with(&formats, |name| match name {
        "OWN_HOME" => Some(OsString::from("/other")),
        "HOME" => Some(OsString::from("/h")),
        _ => None,
    });
    let dirs = crate::UserDirs::from_env(&formats, &env);
    assert_eq!(dirs.folder(FormatId::new("own-home")), Some(std::path::Path::new("/other/.own")));
}
