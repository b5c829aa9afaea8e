//! Tests for the Python `re` syntax check, against what Python 3.13's `re.compile` said of
//! the same patterns (`test_data/regex_cases.json`: pattern, then the error or null).

use crate::pysyntax::check;

#[test]
fn accepts_and_rejects_like_python() {
    let cases: Vec<(String, Option<String>)> =
        serde_json::from_str(include_str!("../../test_data/regex_cases.json")).expect("cases");
    let mut wrong = Vec::new();
    for (pattern, want) in cases {
        let got = check(&pattern).err();
        if got != want {
            wrong.push(format!(
                "{:?}: python {want:?}, ours {got:?}",
                pattern.chars().take(40).collect::<String>()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn ordinary_patterns_pass() {
    for p in [
        r"^/etc/",
        r"\.conf$",
        r"(?i)rm\s+-rf",
        r"(?P<q>['\x22]).*(?P=q)",
        r"a{,3}",
        r"[]a-]",
        r"\d{2,}",
        r"(?:a|b)+?",
        r"x{",
        r"[\w.-]+@",
    ] {
        assert_eq!(check(p), Ok(()), "{p}");
    }
}
