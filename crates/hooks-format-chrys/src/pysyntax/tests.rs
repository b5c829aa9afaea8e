//! Tests for the Python `re` syntax check, against what Python 3.13's `re.compile` said of
//! the same patterns (`test_data/regex_cases.json`: pattern, then the error or null).

use crate::pysyntax::check;

#[test]
fn accepts_and_rejects_like_python() {
    let cases: Vec<(String, Option<String>)> =
        serde_json::from_str(include_str!("../../test_data/regex_cases.json")).expect("cases");
    let mut wrong = Vec::new();
    for (pattern, want) in cases {
        let got = check(&pattern).err().map(|e| e.to_string());
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

#[test]
fn an_error_carries_its_position_and_for_several_lines_the_line_and_column() {
    let e = check("a\n(").unwrap_err();
    assert_eq!(e.detail().message, "missing ), unterminated subpattern");
    assert_eq!(e.detail().position, Some(2));
    assert_eq!(e.detail().line_column, Some((2, 1)));
    assert_eq!(
        e.to_string(),
        "missing ), unterminated subpattern at position 2 (line 2, column 1)"
    );
    let flat = check("a**").unwrap_err();
    assert_eq!((flat.detail().position, flat.detail().line_column), (Some(2), None));
    assert_eq!(flat.to_string(), "multiple repeat at position 2");
}
