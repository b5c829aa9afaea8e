//! Tests of the agents' dialects: what each accepts, its messages, and positions in the
//! file as written.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::{Kind, parse_as};

const ALL: [Dialect; 3] =
    [Dialect::Strict, Dialect::SerdeJson, Dialect::JsonParseAfterStripComments];

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
    for (dialect, text) in [
        (
            Dialect::JsonParseAfterStripComments,
            "{\n  // c\n  \"é\": 1, \"hooks\": {\"x\": [true]}\n}",
        ),
        (Dialect::SerdeJson, "{\n\n  \"é\": 1, \"hooks\": {\"x\": [true]}\n}"),
        (Dialect::Strict, "{\n\n  \"é\": 1, \"hooks\": {\"x\": [true]}\n}"),
    ] {
        let root = parse_as(text, dialect).expect("parses");
        let m = root.get("hooks").expect("hooks");
        assert_eq!((m.line, m.column), (3, 11), "{dialect:?}");
        let x = m.value.get("x").expect("x");
        assert_eq!((x.value.line, x.value.column), (3, 26), "{dialect:?}");
    }
}

#[test]
fn columns_count_characters_of_the_file_as_written_not_of_the_blanked_comment() {
    // `é` is two bytes, blanked to two spaces: the column is still that of the original.
    let root =
        parse_as("{ /* é */ \"a\": 1 }", Dialect::JsonParseAfterStripComments).expect("parses");
    let a = root.get("a").expect("a");
    assert_eq!((a.line, a.column), (1, 11));
    assert_eq!((a.value.line, a.value.column), (1, 16));
    // An error after such a comment is placed in characters too.
    let e = parse_as("{ /* é */ \"a\" 1 }", Dialect::JsonParseAfterStripComments)
        .expect_err("no colon");
    assert_eq!((e.message.as_str(), e.line, e.column), ("expected `:`", 1, 15));
}

#[test]
fn json_parse_rules() {
    let d = Dialect::JsonParseAfterStripComments;
    assert!(parse_as("{\"a\": 1,}", d).is_err(), "no trailing commas");
    assert!(parse_as("\u{feff}{}", d).is_err(), "a byte order mark is not removed");
    assert!(parse_as("{'a': 1}", d).is_err());
    assert!(parse_as("{\"a\": 0x1}", d).is_err());
    assert!(parse_as("{\"a\":\u{a0}1}", d).is_err(), "only JSON whitespace");
    assert!(parse_as("/* x */ {\"a\": [1, 2.5e3, null, \"s\"]} // y", d).is_ok());
    let e = parse_as("{\n  \"a\": [1,\n  ]\n}", d).expect_err("rejects");
    assert_eq!(e.line, 3);
}

#[test]
fn serde_json_rules_as_copilot_reads_them() {
    // Each refused by Copilot CLI 1.0.102 (observed: the file's hooks never ran).
    let d = Dialect::SerdeJson;
    let trailing = parse_as("{\"a\": [1,]}", d).expect_err("no trailing commas");
    assert_eq!(trailing.message, "trailing comma");
    assert!(parse_as("\u{feff}{}", d).is_err(), "a byte order mark is refused");
    assert!(parse_as("// c\n{}", d).is_err(), "no comments");
    let empty = parse_as("", d).expect_err("an empty file is refused");
    assert_eq!(empty.message, "EOF while parsing a value");
    assert!(parse_as("{'a': 1}", d).is_err());
    let e = parse_as("{\n  \"a\": [1,\n  ]\n}", d).expect_err("rejects");
    assert_eq!(e.line, 3);
}

#[test]
fn serde_json_errors_are_placed_in_characters() {
    let e = parse_as("{\"é\": [1,]}", Dialect::SerdeJson).expect_err("trailing comma");
    assert_eq!((e.message.as_str(), e.line, e.column), ("trailing comma", 1, 10));
}

#[test]
fn lone_surrogates_are_kept_by_json_parse_and_refused_by_serde_json() {
    let text = r#"{"a": "x\ud800y"}"#;
    let root = parse_as(text, Dialect::JsonParseAfterStripComments).expect("JSON.parse keeps it");
    assert_eq!(root.to_value(), json!({"a": "x\u{FFFD}y"}));
    let e = parse_as(text, Dialect::SerdeJson).expect_err("a string cannot hold it");
    assert_eq!((e.message.as_str(), e.line, e.column), ("unexpected end of hex escape", 1, 15));
    // A proper pair is one character everywhere.
    for d in ALL {
        let root = parse_as(r#"["\ud83d\ude00"]"#, d).expect("a pair");
        assert_eq!(root.to_value(), json!(["😀"]), "{d:?}");
    }
}

#[test]
fn numbers_too_large_for_a_float_read_as_null_where_the_agent_accepts_them() {
    let d = Dialect::JsonParseAfterStripComments;
    let root = parse_as("{\"a\": 1e400}", d).expect("JSON.parse reads Infinity");
    assert_eq!(root.get("a").expect("a").value.kind, Kind::Null);
    for d in [Dialect::Strict, Dialect::SerdeJson] {
        assert!(parse_as("{\"a\": 1e400}", d).is_err(), "{d:?}");
    }
}

#[test]
fn duplicates_keep_the_first_place_in_order_and_the_last_member() {
    for d in ALL {
        let root = parse_as(r#"{"a": 1, "b": 2, "a": 3}"#, d).expect("parses");
        let entries = root.entries();
        let keys: Vec<_> =
            entries.iter().map(|m| (m.key.as_str(), m.column, m.value.to_value())).collect();
        assert_eq!(keys, vec![("a", 18, json!(3)), ("b", 10, json!(2))], "{d:?}");
    }
}

#[test]
fn deep_nesting_is_rejected_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for d in ALL {
        assert!(parse_as(&deep, d).is_err(), "{d:?}");
    }
    // What serde_json lets through, the reader reads.
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert!(parse_as(&ok, Dialect::SerdeJson).is_ok());
}

/// Every position of the tree, in document order.
fn positions(node: &crate::Node, out: &mut Vec<(u32, u32, usize)>) {
    out.push((node.line, node.column, node.start));
    match &node.kind {
        Kind::Array(items) => items.iter().for_each(|n| positions(n, out)),
        Kind::Object(members) => {
            for m in members {
                out.push((m.line, m.column, usize::MAX));
                positions(&m.value, out);
            }
        }
        _ => {}
    }
}

proptest! {
    #[test]
    fn strip_keeps_byte_length(s in "\\PC{0,60}") {
        prop_assert_eq!(strip_comments(&s).len(), s.len());
    }

    #[test]
    fn never_panics_and_positions_stay_inside_and_in_order(
        s in "[{}\\[\\],:\" a-zé0-9/*\\n\\r\\\\.-]{0,60}",
        d in prop::sample::select(ALL.to_vec()),
    ) {
        let lines = u32::try_from(s.split('\n').count()).unwrap_or(u32::MAX);
        match parse_as(&s, d) {
            Ok(root) => {
                let mut seen = Vec::new();
                positions(&root, &mut seen);
                let mut last = (1, 0);
                for (line, column, start) in seen {
                    prop_assert!(line >= 1 && line <= lines && column >= 1);
                    prop_assert!((line, column) > last, "{:?} after {:?}", (line, column), last);
                    last = (line, column);
                    if start != usize::MAX {
                        prop_assert!(start < s.len() && s.is_char_boundary(start));
                    }
                }
                prop_assert!(root.end <= s.len());
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= lines && e.column >= 1),
        }
    }

    #[test]
    fn serde_json_dialect_accepts_what_serde_json_reads_into_a_value(
        s in "[{}\\[\\],:\" a-z0-9\\\\.+-]{0,24}",
    ) {
        let ours = parse_as(&s, Dialect::SerdeJson).is_ok();
        let theirs = serde_json::from_str::<serde_json::Value>(&s).is_ok();
        prop_assert_eq!(ours, theirs, "{:?}", s);
    }
}
