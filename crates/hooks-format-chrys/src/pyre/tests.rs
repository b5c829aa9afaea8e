//! Tests for Python `re.search` emulation.

use crate::pyre::{compile, search};

#[track_caller]
fn s(pattern: &str, text: &str) -> bool {
    search(&compile(pattern).expect("compiles"), text)
}

#[test]
fn search_is_unanchored() {
    assert!(s("etc", "/etc/hosts"));
    assert!(!s("^etc", "/etc/hosts"));
}

#[test]
fn dollar_matches_before_a_final_newline_like_python() {
    assert!(s("abc$", "abc\n"));
    assert!(s("abc$", "abc"));
    assert!(!s("abc$", "abc\nx"));
    assert!(s(r"abc\Z", "abc"));
    assert!(!s(r"abc\Z", "abc\n"));
    assert!(s("(?m)^b$", "a\nb\nc"));
    assert!(s("[$]", "cost $5"));
}

#[test]
fn python_syntax() {
    assert!(s(r"(?P<q>['\x22]).*(?P=q)", "say 'hi'"));
    assert!(!s(r"(?P<q>['\x22])x(?P=q)", "'x\""));
    assert!(s(r"(?<=/etc/)passwd", "/etc/passwd"));
    assert!(s(r"^(?!/tmp).*\.conf$", "/etc/a.conf"));
    assert!(s(r"^a{,2}$", "aa"));
    assert!(!s(r"^a{,2}$", "aaa"));
    assert!(s(r"[]a]", "]"));
    assert!(s(r"[^]a]", "b"));
}

#[test]
fn invalid_patterns_are_errors() {
    for p in ["([a-z", "(?P<x", "(", "a{2,1}"] {
        assert!(compile(p).is_err(), "{p}");
    }
}

#[test]
fn catastrophic_backtracking_ends_and_counts_as_a_match_so_the_hook_decides() {
    // A lookahead holding a backreference needs the backtracking engine; on 24 letters it
    // spends the budget (Python's `re` matches, slowly).
    let re = compile(r"^(?!((\w+)\2?)*--dry-run).*rm -rf").expect("compiles");
    let text = format!("{} rm -rf /", "x".repeat(24));
    assert!(re.is_match(&text).is_err(), "the premise: the budget is spent");
    let started = std::time::Instant::now();
    assert!(search(&re, &text), "the budget is spent: the hook runs and decides");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn octal_escapes_and_group_references() {
    assert!(s(r"\0", "\u{0}"));
    assert!(s(r"\101", "A"));
    assert!(s(r"[\101-\132]", "Q"));
    assert!(s(r"(a)\1", "aa"));
    assert!(!s(r"(a)\1", "ab"));
    assert!(s(r"a++b", "aab"));
    assert!(s(r"(?>a)b", "ab"));
}

mod properties {
    //! Arbitrary patterns and texts never panic.

    use proptest::prelude::*;

    use crate::pyre::{compile, search};

    fn patternish() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "a", "b", ".", "*", "+", "?", "{", "}", "{2,1}", "{,3}", "(", ")", "(?P<n>", "(?P=n)",
            "(?<=", "(?<!", "(?=", "(?:", "(?#", "(?i)", "(?x)", "[", "]", "^", "$", "\\", "\\d",
            "\\1", "\\0", "\\777", "\\x4", "\\u00e9", "\\N{", "|", "-", ",", "é", "\\Z",
        ]);
        prop::collection::vec(token, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        #[test]
        fn any_pattern_compiles_or_errors(p in patternish(), text in ".{0,40}") {
            if let Ok(re) = compile(&p) {
                let _ = search(&re, &text);
            }
        }

        #[test]
        fn any_text_as_pattern(p in ".{0,40}") {
            let _ = compile(&p);
        }
    }
}
