//! Tests of the JSON reader: comment stripping as strip-json-comments does it, JSON.parse strictness, positions.

use proptest::prelude::*;

use super::*;

#[test]
fn comments_are_blanked_keeping_offsets() {
    let text = "{ // note é\n \"a\": /* x */ 1 }";
    let s = strip_comments(text);
    assert_eq!(s.len(), text.len());
    assert_eq!(s, format!("{{{}\n \"a\": {} 1 }}", " ".repeat(11), " ".repeat(7)));
    // Comment markers inside strings are text.
    assert_eq!(strip_comments(r#"{"u": "http://x/*y*/"}"#), r#"{"u": "http://x/*y*/"}"#);
    // An escaped quote does not end a string.
    assert_eq!(strip_comments(r#"{"a": "\"//"}"#), r#"{"a": "\"//"}"#);
}

#[test]
fn strip_quirks_match_strip_json_comments() {
    // A `//` comment ends only at `\n`: a lone `\r` does not end it.
    assert_eq!(strip_comments("1 //a\r2\n"), "1    \r \n");
    // An unterminated block comment runs to the end.
    assert_eq!(strip_comments("1 /* a"), "1     ");
    // Whitespace inside a comment is kept, so a no-break space stays (and JSON.parse
    // rejects it).
    assert_eq!(strip_comments("// \u{a0}\n1"), "   \u{a0}\n1");
}

#[test]
fn positions_are_lines_and_characters() {
    let root = parse("{\n  // c\n  \"é\": 1, \"hooks\": {\"x\": [true]}\n}").expect("parses");
    let m = root.get("hooks").expect("hooks");
    assert_eq!((m.line, m.column), (3, 11));
    let x = m.value.get("x").expect("x");
    assert_eq!((x.value.line, x.value.column), (3, 26));
}

#[test]
fn json_parse_rules() {
    assert!(parse("{\"a\": 1,}").is_err(), "no trailing commas");
    assert!(parse("\u{feff}{}").is_err(), "a byte order mark is not removed");
    assert!(parse("{'a': 1}").is_err());
    assert!(parse("{\"a\": 0x1}").is_err());
    assert!(parse("{\"a\":\u{a0}1}").is_err(), "only JSON whitespace");
    assert!(parse("/* x */ {\"a\": [1, 2.5e3, null, \"s\"]} // y").is_ok());
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
    fn strip_keeps_byte_length(s in "\\PC{0,60}") {
        prop_assert_eq!(strip_comments(&s).len(), s.len());
    }

    #[test]
    fn parse_never_panics(s in "[{}\\[\\],:\" a-z0-9/*\\n\\\\.-]{0,60}") {
        let _ = parse(&s);
    }
}
