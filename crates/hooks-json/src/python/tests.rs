//! Tests of Python's dialect, against what CPython 3.13's `json.loads` answered for the same
//! texts (`test_data/python_loads.json`, recorded by `test_data/record_python.py`).

use proptest::prelude::*;

use crate::{Kind, PYTHON_INT_MAX_DIGITS, PYTHON_MAX_DEPTH, PythonError, python_loads};

#[test]
fn loads_and_refuses_with_pythons_words_and_positions() {
    let cases: Vec<(String, Option<String>)> =
        serde_json::from_str(include_str!("../../test_data/python_loads.json")).expect("cases");
    assert!(cases.len() >= 70, "cases missing: {}", cases.len());
    let mut failures = Vec::new();
    for (text, want) in cases {
        let got = python_loads(&text).err().map(|e| e.to_string());
        if got != want {
            failures.push(format!("{text:?}\n  python: {want:?}\n  ours:   {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn numbers_are_kept_as_written_and_the_words_python_adds_are_numbers() {
    let root = python_loads("[NaN, -Infinity, Infinity, -0, 1E5, 123456789012345678901234567890]")
        .expect("loads");
    let texts: Vec<&str> = root
        .items()
        .expect("array")
        .iter()
        .map(|n| match &n.kind {
            Kind::NumberText(t) => t.as_str(),
            other => panic!("not a number: {other:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        ["NaN", "-Infinity", "Infinity", "-0", "1E5", "123456789012345678901234567890"]
    );
    assert!(root.items().expect("array")[0].as_f64().expect("a float").is_nan());
    assert_eq!(root.items().expect("array")[1].as_f64(), Some(f64::NEG_INFINITY));
}

#[test]
fn a_duplicate_key_keeps_the_first_place_and_the_last_value() {
    let root = python_loads("{\"a\": 1, \"b\": 2, \"a\": 3}").expect("loads");
    let entries: Vec<(&str, &str, u32)> = root
        .entries()
        .into_iter()
        .map(|m| {
            let Kind::NumberText(t) = &m.value.kind else { panic!("number") };
            (m.key.as_str(), t.as_str(), m.value.column)
        })
        .collect();
    assert_eq!(entries, [("a", "3", 23), ("b", "2", 15)]);
}

#[test]
fn an_integer_past_pythons_digit_limit_is_its_value_error_and_a_float_is_not() {
    let long = "7".repeat(PYTHON_INT_MAX_DIGITS + 1);
    let e = python_loads(&format!("{{\n \"a\": -{long}}}")).expect_err("too long");
    assert_eq!(
        e,
        PythonError::IntTooLong { digits: PYTHON_INT_MAX_DIGITS + 1, line: 2, column: 7 }
    );
    assert!(python_loads(&"7".repeat(PYTHON_INT_MAX_DIGITS)).is_ok());
    assert!(python_loads(&format!("{long}.5")).is_ok());
}

#[test]
fn nesting_is_capped_without_overflowing_the_stack() {
    let ok = format!("{}{}", "[".repeat(PYTHON_MAX_DEPTH), "]".repeat(PYTHON_MAX_DEPTH));
    assert!(python_loads(&ok).is_ok());
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    let e = python_loads(&deep).expect_err("too deep");
    assert_eq!(e.position(), (1, 6 + PYTHON_MAX_DEPTH as u32));
    assert!(e.to_string().starts_with("nesting deeper than 200 levels: line 1 column 206"), "{e}");
}

proptest! {
    /// Any text: no panic, and an error's line and column lie inside the text.
    #[test]
    fn any_text_is_read_or_refused_inside_it(text in "[\\[\\]{}\":,0-9eE.+\\-NaIfinty \\n\\\\u\u{e9}]{0,40}") {
        let lines = u32::try_from(text.split('\n').count()).unwrap_or(u32::MAX);
        if let Err(e) = python_loads(&text) {
            let (line, column) = e.position();
            prop_assert!(line >= 1 && line <= lines && column >= 1, "{e:?}");
        }
    }
}
