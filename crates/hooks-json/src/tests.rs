//! Tests of the position-keeping JSON reader.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Kind, MAX_DEPTH, parse};

#[test]
fn keeps_positions_of_values_and_keys() {
    let text = "{\n  \"a\": [1, \"é\", {\"b\": null}],\n  \"c\": true\n}";
    let root = parse(text.as_bytes()).expect("parses");
    let a = root.get("a").expect("a");
    assert_eq!((a.line, a.column), (2, 3));
    assert_eq!((a.value.line, a.value.column), (2, 8));
    let items = a.value.items().expect("array");
    assert_eq!((items[2].line, items[2].column), (2, 17), "columns count characters");
    let c = root.get("c").expect("c");
    assert_eq!((c.line, c.column), (3, 3));
    assert_eq!(root.to_value(), json!({"a": [1, "é", {"b": null}], "c": true}));
}

#[test]
fn escapes_and_surrogates() {
    let root = parse(br#"["\n\t\"\\\/\u00e9\ud83d\ude00\ud800x"]"#).expect("parses");
    assert_eq!(root.to_value(), json!(["\n\t\"\\/é😀\u{FFFD}x"]));
}

#[test]
fn syntax_errors_have_positions() {
    let cases: [(&str, (u32, u32)); 9] = [
        ("", (1, 1)),
        ("{", (1, 2)),
        ("{\"a\" 1}", (1, 6)),
        ("[1,]", (1, 4)),
        ("[01]", (1, 3)),
        ("\"a\nb\"", (1, 3)),
        ("{}x", (1, 3)),
        ("[1e999]", (1, 2)),
        ("\n  tru", (2, 3)),
    ];
    for (text, (line, column)) in cases {
        let e = parse(text.as_bytes()).expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {}", e.message);
    }
}

#[test]
fn invalid_utf8_is_rejected_at_its_position() {
    let e = parse(b"{\"a\":\n \"\xff\"}").expect_err("invalid utf-8");
    assert_eq!((e.line, e.column), (2, 3));
}

#[test]
fn byte_order_mark_is_skipped() {
    assert_eq!(parse(b"\xEF\xBB\xBF{}").expect("parses").kind, Kind::Object(vec![]));
}

#[test]
fn nesting_is_capped() {
    let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
    assert!(parse(deep.as_bytes()).expect_err("too deep").message.contains("nested too deeply"));
    let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(parse(ok.as_bytes()).is_ok());
}

#[test]
fn duplicate_keys_keep_the_last_value() {
    let root = parse(br#"{"a": 1, "a": 2}"#).expect("parses");
    assert_eq!(root.members().map(<[_]>::len), Some(2));
    assert_eq!(root.to_value(), json!({"a": 2}));
}

proptest! {
    /// Small objects are scanned and large ones indexed by key: either way `entries` keeps
    /// the first appearance of each key with its last value, as `Object.entries` does.
    #[test]
    fn entries_keep_first_places_and_last_values(keys in prop::collection::vec(0u8..40, 0..120)) {
        let text = format!(
            "{{{}}}",
            keys.iter().enumerate().map(|(i, k)| format!("\"k{k}\": {i}")).collect::<Vec<_>>().join(", ")
        );
        let root = parse(text.as_bytes()).expect("parses");
        let mut want: Vec<(String, usize)> = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let key = format!("k{k}");
            match want.iter_mut().find(|(w, _)| *w == key) {
                Some(slot) => slot.1 = i,
                None => want.push((key, i)),
            }
        }
        let got: Vec<(String, usize)> = root
            .entries()
            .iter()
            .map(|m| (m.key.clone(), m.value.as_f64().map_or(usize::MAX, |v| v as usize)))
            .collect();
        prop_assert_eq!(got, want);
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn agrees_with_serde_json_on_valid_documents(v in arb_json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }
            .expect("encode");
        let node = parse(text.as_bytes()).expect("valid JSON parses");
        // Compared with serde_json's own reading: its float parsing is not exact either.
        let theirs: Value = serde_json::from_str(&text).expect("serde_json reads it back");
        prop_assert_eq!(node.to_value(), theirs);
    }

    #[test]
    fn agrees_with_serde_json_on_acceptance(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let ours = parse(&bytes).is_ok();
        let theirs = serde_json::from_slice::<Value>(&bytes).is_ok();
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn agrees_with_serde_json_on_json_like_text(text in "[\\[\\]{}\",:0-9a-z \\\\.eE+-]{0,24}") {
        let ours = parse(text.as_bytes()).is_ok();
        let theirs = serde_json::from_str::<Value>(&text).is_ok();
        prop_assert_eq!(ours, theirs, "{:?}", text);
    }
}
