//! Tests for Python's `repr`/`str` emulation.

use expect_test::expect;
use serde_json::json;

use crate::pyval::{PyValue, float_repr, is_printable, json_py_str, str_repr};

#[test]
fn float_repr_matches_python() {
    let cases = [
        (30.0, "30.0"),
        (0.5, "0.5"),
        (-2.5, "-2.5"),
        (1e16, "1e+16"),
        (1e20, "1e+20"),
        (123_456_789_012_345.6, "123456789012345.6"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (1.5e-7, "1.5e-07"),
        (90.0, "90.0"),
        (f64::NAN, "nan"),
        (f64::INFINITY, "inf"),
        (f64::NEG_INFINITY, "-inf"),
        (-0.0, "-0.0"),
        (0.1 + 0.2, "0.30000000000000004"),
    ];
    for (f, want) in cases {
        assert_eq!(float_repr(f), want, "{f}");
    }
}

#[test]
fn str_repr_matches_python() {
    assert_eq!(str_repr("x"), "'x'");
    assert_eq!(str_repr("it's"), "\"it's\"");
    assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
    assert_eq!(str_repr("tab\there\n"), "'tab\\there\\n'");
    assert_eq!(str_repr("\u{0}\u{7f}\u{a0}é"), "'\\x00\\x7f\\xa0é'");
    assert_eq!(str_repr("\u{200b}"), "'\\u200b'");
}

#[test]
fn str_of_json_values_matches_python() {
    let got: Vec<String> = [
        json!(true),
        json!(null),
        json!(30.0),
        json!(30),
        json!(["a", "b"]),
        json!({"a": 1}),
        json!(1e20),
        json!("plain"),
        json!([1.5, false, null, {"k": "it's"}]),
    ]
    .iter()
    .map(json_py_str)
    .collect();
    expect![[r#"
        [
            "True",
            "None",
            "30.0",
            "30",
            "['a', 'b']",
            "{'a': 1}",
            "1e+20",
            "plain",
            "[1.5, False, None, {'k': \"it's\"}]",
        ]
    "#]]
    .assert_debug_eq(&got);
}

#[test]
fn printable_follows_python_categories() {
    for c in ['a', ' ', 'é', '中', '😀'] {
        assert!(is_printable(c), "{c:?}");
    }
    for c in [
        '\t', '\n', '\u{0}', '\u{a0}', '\u{ad}', '\u{200b}', '\u{2028}', '\u{3000}', '\u{feff}',
        '\u{e000}',
    ] {
        assert!(!is_printable(c), "{c:?}");
    }
}

#[test]
fn python_equality_for_keys() {
    use crate::pyval::PyInt;
    let one = PyValue::Int(PyInt::Small(1));
    assert!(one.py_eq(&PyValue::Bool(true)));
    assert!(one.py_eq(&PyValue::Float(1.0)));
    assert!(!one.py_eq(&PyValue::Str("1".into())));
    assert!(!PyValue::None.py_eq(&PyValue::Bool(false)));
    assert_eq!(PyValue::Date(2024, 1, 2).repr(), "datetime.date(2024, 1, 2)");
    assert_eq!(PyValue::Date(2024, 1, 2).py_str(), "2024-01-02");
}
