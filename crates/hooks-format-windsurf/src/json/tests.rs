//! Tests of the JSON reader: serde_json's strictness (as this adapter reads Windsurf hook files),
//! its messages, and positions.

use proptest::prelude::*;

use super::*;

#[test]
fn positions_are_lines_and_characters() {
    let root = parse("{\n\n  \"é\": 1, \"hooks\": {\"x\": [true]}\n}").expect("parses");
    let m = root.get("hooks").expect("hooks");
    assert_eq!((m.line, m.column), (3, 11));
    let x = m.value.get("x").expect("x");
    assert_eq!((x.value.line, x.value.column), (3, 26));
}

#[test]
fn serde_json_rules_as_copilot_reads_them() {
    // Each refused.
    let trailing = parse("{\"a\": [1,]}").expect_err("no trailing commas");
    assert_eq!(trailing.message, "trailing comma");
    assert!(parse("\u{feff}{}").is_err(), "a byte order mark is refused");
    assert!(parse("// c\n{}").is_err(), "no comments");
    let empty = parse("").expect_err("an empty file is refused");
    assert_eq!(empty.message, "EOF while parsing a value");
    assert!(parse("{'a': 1}").is_err());
    let e = parse("{\n  \"a\": [1,\n  ]\n}").expect_err("rejects");
    assert_eq!(e.line, 3);
}

#[test]
fn duplicates_keep_first_position_and_last_value() {
    let root = parse(r#"{"a": 1, "b": 2, "a": 3}"#).expect("parses");
    let entries = root.entries();
    let keys: Vec<_> = entries.iter().map(|m| (m.key.as_str(), m.value.to_value())).collect();
    assert_eq!(keys, vec![("a", serde_json::json!(3)), ("b", serde_json::json!(2))]);
}

#[test]
fn deep_nesting_is_rejected_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&deep).is_err());
}

proptest! {
    #[test]
    fn parse_never_panics(s in "[{}\\[\\],:\" a-z0-9/*\\n\\\\.-]{0,60}") {
        let _ = parse(&s);
    }
}
