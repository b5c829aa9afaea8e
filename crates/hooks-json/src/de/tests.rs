//! Tests of reading serde-derived structures from a positioned tree.

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{At, Both, Checked, Entries, Field, Keyed, Pairs, from_node, parse};

#[derive(Debug, Deserialize)]
struct Handler {
    #[serde(rename = "type")]
    kind: Option<At<Checked<String>>>,
    command: Option<At<Checked<String>>>,
    timeout: Option<At<Checked<f64>>>,
    args: Option<At<Checked<Vec<String>>>>,
    #[serde(rename = "async")]
    is_async: Option<At<Checked<bool>>>,
}

#[derive(Debug, Deserialize)]
struct Group {
    hooks: Vec<At<Handler>>,
}

#[test]
fn fields_keep_value_and_key_positions() {
    let text =
        "{\"hooks\": [\n  {\"type\": \"command\",\n   \"command\": \"é\", \"timeout\": 5}\n]}";
    let root = parse(text.as_bytes()).expect("parses");
    let g: Group = from_node(&root).expect("fits");
    let h = &g.hooks[0];
    assert_eq!((h.line, h.column, h.key), (2, 3, None));
    let c = h.value.command.as_ref().expect("command");
    assert_eq!(c.value, Checked::Ok("é".to_owned()));
    assert_eq!((c.at(), c.key_at(), c.found), ((3, 15), (3, 4), "a string"));
    let t = h.value.timeout.as_ref().expect("timeout");
    assert_eq!((t.value.ok(), t.at()), (Some(&5.0), (3, 31)), "an integer reads as a float");
    assert!(h.value.args.is_none() && h.value.is_async.is_none());
}

#[test]
fn a_value_of_the_wrong_type_is_kept_not_fatal() {
    let text =
        r#"{"command": 1, "timeout": "5", "args": ["a", 2], "async": null, "type": {"x": []}}"#;
    let root = parse(text.as_bytes()).expect("parses");
    let h: Handler = from_node(&root).expect("fits: wrong values are Checked::Wrong");
    assert_eq!(h.command.as_ref().map(|c| c.value.clone()), Some(Checked::Wrong(json!(1))));
    assert_eq!(h.timeout.as_ref().map(|t| t.found), Some("a string"));
    assert_eq!(h.args.as_ref().map(|a| a.value.clone()), Some(Checked::Wrong(json!(["a", 2]))));
    // `null` is present: Some, not the same as an absent key.
    assert_eq!(
        h.is_async.as_ref().map(|a| (a.found, a.value.clone())),
        Some(("null", Checked::Wrong(Value::Null)))
    );
    assert_eq!(h.kind.as_ref().map(|k| k.found), Some("an object"));
}

#[test]
fn the_last_of_a_duplicated_key_counts() {
    let root = parse(br#"{"command": "a", "command": "b"}"#).expect("parses");
    let h: Handler = from_node(&root).expect("fits");
    let c = h.command.expect("command");
    assert_eq!((c.value.ok().map(String::as_str), c.key_at()), (Some("b"), (1, 18)));
}

#[test]
fn a_structure_that_does_not_fit_is_an_error() {
    let root = parse(br#"{"hooks": {}}"#).expect("parses");
    assert!(from_node::<Group>(&root).is_err());
    let root = parse(br#"[1]"#).expect("parses");
    assert!(from_node::<Handler>(&root).is_err());
}

type Handlers = Vec<At<Checked<Keyed<Handler>>>>;

#[test]
fn checked_keeps_positions_inside_what_it_checks() {
    let text = "{\"hooks\": {\n  \"stop\": [{\"command\": \"a\", \"x\": 1}],\n  \"bad\": 3}}";
    let root = parse(text.as_bytes()).expect("parses");
    #[derive(Debug, Deserialize)]
    struct File {
        hooks: Field<Entries<At<Checked<Handlers>>>>,
    }
    let file: File = from_node(&root).expect("fits");
    let events = file.hooks.expect("hooks").value;
    let Checked::Ok(Entries(events)) = events else { panic!("an object") };
    assert_eq!(events.len(), 2);
    let (name, stop) = &events[0];
    assert_eq!((name.as_str(), stop.key_at()), ("stop", (2, 3)));
    let entry = &stop.value.ok().expect("an array")[0];
    let keyed = entry.value.ok().expect("an object");
    assert_eq!(keyed.keys, vec![("command".to_owned(), (2, 13)), ("x".to_owned(), (2, 29))]);
    assert_eq!(keyed.value.command.as_ref().map(At::at), Some((2, 24)));
    let (name, bad) = &events[1];
    assert_eq!((name.as_str(), bad.at(), bad.found), ("bad", (3, 10), "a number"));
    assert!(matches!(&bad.value, Checked::Wrong(v) if *v == json!(3)));
}

#[test]
fn plain_types_read_as_from_serde_json() {
    let text = r#"{"a": [1, -2, 3.5, true, null, "x", {"b": {}}], "c": "d"}"#;
    let root = parse(text.as_bytes()).expect("parses");
    let v: Value = from_node(&root).expect("reads");
    assert_eq!(v, serde_json::from_str::<Value>(text).expect("serde_json"));
}

proptest! {
    #[test]
    fn any_document_reads_as_a_value_like_serde_json_reads_it(
        text in "[\\[\\]{}\",:0-9a-c \\\\.-]{0,24}",
    ) {
        if let Ok(root) = parse(text.as_bytes()) {
            let ours: Value = from_node(&root).expect("any tree reads as a value");
            prop_assert_eq!(ours, root.to_value());
            // And a structure of checked fields never fails on an object.
            if root.members().is_some() {
                prop_assert!(from_node::<Handler>(&root).is_ok());
            }
        }
    }
}

/// The text from a 1-based line and character column on.
fn from_pos(text: &str, (line, column): (u32, u32)) -> &str {
    let line = text.split('\n').nth(line as usize - 1).expect("line exists");
    let start = line.char_indices().nth(column as usize - 1).map_or(line.len(), |(i, _)| i);
    &line[start..]
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<i32>().prop_map(Value::from),
        "[a-zé\"\\\\ ]{0,5}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-zé\"]{1,4}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn at_points_at_the_key_and_the_value_as_written(
        members in prop::collection::vec(("[a-zé\"]{1,4}", arb_value()), 0..5),
        pretty in any::<bool>(),
    ) {
        let obj: serde_json::Map<String, Value> = members.into_iter().collect();
        let doc = json!({ "hooks": Value::Object(obj.clone()) });
        let text = if pretty { serde_json::to_string_pretty(&doc) } else { serde_json::to_string(&doc) }
            .expect("serializes");
        let root = parse(text.as_bytes()).expect("parses");
        #[derive(Deserialize)]
        struct File {
            hooks: At<Entries<At<Value>>>,
        }
        let file: File = from_node(&root).expect("fits");
        prop_assert_eq!(file.hooks.value.0.len(), obj.len());
        for ((name, at), (want_name, want)) in file.hooks.value.0.iter().zip(&obj) {
            prop_assert_eq!(name, want_name);
            prop_assert_eq!(&at.value, want);
            let key_json = serde_json::to_string(name).expect("key");
            prop_assert!(from_pos(&text, at.key_at()).starts_with(&key_json));
            let value_json = serde_json::to_string(want).expect("value");
            let first = value_json.chars().next().expect("non-empty");
            prop_assert!(from_pos(&text, at.at()).starts_with(first));
        }
    }
}

#[test]
fn pairs_keep_every_member_as_written_and_both_reads_one_node_twice() {
    let text = "{\"a\": 1, \"b\": \"x\",\n \"a\": true}";
    let root = parse(text.as_bytes()).expect("parses");
    #[derive(Deserialize)]
    struct Known {
        a: Field<bool>,
    }
    let Both(known, Pairs(pairs)): Both<Known, Pairs<At<Value>>> = from_node(&root).expect("fits");
    // The structure sees the last `a`, as `JSON.parse` does; the pairs see both.
    assert!(matches!(known.a, Some(At { value: Checked::Ok(true), .. })));
    let keys: Vec<(&str, (u32, u32))> =
        pairs.iter().map(|(k, at)| (k.as_str(), at.key_at())).collect();
    assert_eq!(keys, [("a", (1, 2)), ("b", (1, 10)), ("a", (2, 2))]);
    assert_eq!(pairs[0].1.value, json!(1));
    // Pairs are an object's: anything else does not fit, and a `Checked` says so.
    let list = parse(b"[1]").expect("parses");
    assert!(from_node::<Pairs<Value>>(&list).is_err());
    assert!(matches!(
        from_node::<Checked<Pairs<Value>>>(&list),
        Ok(Checked::Wrong(v)) if v == json!([1])
    ));
}
