//! Tests for the JSON reader, against what Python 3.13's `json.loads` answered for the same
//! texts (`test_data/json_cases.json`: text, whether it loaded, `repr()` or the error).

use crate::json::load;

#[test]
fn reads_and_fails_like_python_json() {
    let cases: Vec<(String, bool, String)> =
        serde_json::from_str(include_str!("../../test_data/json_cases.json")).expect("cases");
    assert!(cases.len() >= 20);
    for (text, ok, want) in cases {
        let got = match load(&text) {
            Ok(node) => (true, node.value.repr()),
            Err(e) => (false, e.to_string()),
        };
        assert_eq!(got, (ok, want), "{text:?}");
    }
}

#[test]
fn depth_is_capped() {
    let text = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let e = load(&text).expect_err("too deep").to_string();
    assert!(e.starts_with("nesting deeper than 200 levels"), "{e}");
}
