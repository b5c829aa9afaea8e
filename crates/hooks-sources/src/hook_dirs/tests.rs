//! Tests for the hook-directories grammar, including adversarial values.

use std::{
    ffi::{OsStr, OsString},
    path::{Path, PathBuf},
};

use proptest::prelude::*;

use crate::{EnvVars, parse_hook_dirs_value, resolve_hook_dirs};

const HOME: &str = "/home/u";
const BASE: &str = "/work/run";

fn parse(value: &str) -> Vec<PathBuf> {
    parse_hook_dirs_value(OsStr::new(value), Some(Path::new(HOME)), Path::new(BASE))
}

fn paths(items: &[&str]) -> Vec<PathBuf> {
    items.iter().map(PathBuf::from).collect()
}

#[test]
fn commas_separate_entries_in_order() {
    assert_eq!(parse("/a,/b,/c"), paths(&["/a", "/b", "/c"]));
}

#[test]
fn entries_are_trimmed() {
    assert_eq!(parse("  /a ,\t/b\n, /c d "), paths(&["/a", "/b", "/c d"]));
}

#[test]
fn blanks_are_skipped() {
    assert_eq!(parse("/a,,  ,/b,"), paths(&["/a", "/b"]));
}

#[test]
fn tilde_expands_to_home() {
    assert_eq!(parse("~,~/hooks, ~/x/y"), paths(&[HOME, "/home/u/hooks", "/home/u/x/y"]));
}

#[test]
fn tilde_user_is_not_expanded_and_resolves_as_relative() {
    assert_eq!(parse("~bob/hooks"), paths(&["/work/run/~bob/hooks"]));
}

#[test]
fn without_a_home_tilde_stays_and_resolves_against_base() {
    let got = parse_hook_dirs_value(OsStr::new("~/h"), None, Path::new(BASE));
    assert_eq!(got, paths(&["/work/run/~/h"]));
}

#[test]
fn relative_entries_resolve_against_base() {
    assert_eq!(
        parse(".cursor, hooks/dir, ../up"),
        paths(&["/work/run/.cursor", "/work/run/hooks/dir", "/work/run/../up"])
    );
}

#[test]
fn duplicates_are_kept_for_the_loader() {
    assert_eq!(parse("/a,/a"), paths(&["/a", "/a"]));
}

#[test]
fn empty_and_comma_only_values_give_nothing() {
    for v in ["", ",", ",,,,", " , ,\t,\n", "   "] {
        assert_eq!(parse(v), Vec::<PathBuf>::new(), "{v:?}");
    }
}

#[test]
fn a_very_long_value_parses_every_entry() {
    let entries: Vec<String> = (0..20_000).map(|i| format!("/d{i}")).collect();
    let value = entries.join(",");
    let got = parse(&value);
    assert_eq!(got.len(), 20_000);
    assert_eq!(got.last(), Some(&PathBuf::from("/d19999")));
    let one_long = format!("/{}", "x".repeat(1 << 20));
    assert_eq!(parse(&one_long), vec![PathBuf::from(&one_long)]);
}

#[cfg(unix)]
#[test]
fn non_utf8_entries_survive_on_unix() {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let raw = b" /a\xff\xfe ,rel\x80".to_vec();
    let value = OsString::from_vec(raw);
    let got = parse_hook_dirs_value(&value, Some(Path::new(HOME)), Path::new(BASE));
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].as_os_str().as_bytes(), b"/a\xff\xfe");
    assert_eq!(got[1].as_os_str().as_bytes(), b"/work/run/rel\x80");
}

#[test]
fn resolve_hook_dirs_reads_the_captured_value_and_home() {
    let env = EnvVars::from_pairs([
        (EnvVars::HOOK_DIRS, OsStr::new("~/a, b")),
        (EnvVars::HOME, OsStr::new("/h")),
    ]);
    assert_eq!(resolve_hook_dirs(&env, Path::new("/base")), paths(&["/h/a", "/base/b"]));
    assert!(resolve_hook_dirs(&EnvVars::default(), Path::new("/base")).is_empty());
}

proptest! {
    /// Whatever the value, every result is absolute, non-empty and has no surrounding
    /// whitespace in its last component, and there are never more entries than commas + 1.
    #[test]
    fn every_value_gives_absolute_trimmed_entries(value in ".{0,200}") {
        let got = parse(&value);
        prop_assert!(got.len() <= value.matches(',').count() + 1);
        for p in &got {
            prop_assert!(p.is_absolute());
            let s = p.to_string_lossy();
            prop_assert!(!s.ends_with(|c: char| c.is_ascii_whitespace()));
        }
    }

    /// Joining entries with commas and arbitrary padding gives the entries back.
    #[test]
    fn joined_entries_round_trip(
        entries in proptest::collection::vec("/[a-z0-9_.-]{1,12}", 0..10),
        pad in "[ \t]{0,3}",
    ) {
        let value = entries.iter().map(|e| format!("{pad}{e}{pad}")).collect::<Vec<_>>().join(",");
        prop_assert_eq!(parse(&value), paths(&entries.iter().map(String::as_str).collect::<Vec<_>>()));
    }
}

#[cfg(unix)]
proptest! {
    /// Arbitrary bytes never panic and every result stays absolute.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        use std::os::unix::ffi::OsStringExt;
        let value = OsString::from_vec(bytes.into_iter().filter(|b| *b != 0).collect());
        for p in parse_hook_dirs_value(&value, Some(Path::new(HOME)), Path::new(BASE)) {
            prop_assert!(p.is_absolute());
        }
    }
}
