//! Tests for `locate`: positions of keys and values, duplicates, and the fallbacks.

use super::{Pos, Seg, locate};

fn k(s: &str) -> Seg {
    Seg::Key(s.to_owned())
}

#[test]
fn finds_keys_and_values_at_every_recorded_depth() {
    let text = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {},\n      { \"command\": \"é\", \"timeout\": 5 }\n    ]\n  }\n}\n";
    let spans = locate(text);
    assert_eq!(spans.key_pos(&[k("version")]), Pos { line: 2, column: 3 });
    assert_eq!(spans.value_pos(&[k("version")]), Pos { line: 2, column: 14 });
    assert_eq!(spans.key_pos(&[k("hooks"), k("stop")]), Pos { line: 4, column: 5 });
    assert_eq!(
        spans.value_pos(&[k("hooks"), k("stop"), Seg::Index(0)]),
        Pos { line: 5, column: 7 }
    );
    let entry = [k("hooks"), k("stop"), Seg::Index(1)];
    assert_eq!(spans.value_pos(&entry), Pos { line: 6, column: 7 });
    let timeout = [k("hooks"), k("stop"), Seg::Index(1), k("timeout")];
    // Columns count characters: `é` is two bytes but one column.
    assert_eq!(spans.key_pos(&timeout), Pos { line: 6, column: 25 });
    assert_eq!(spans.value_pos(&timeout), Pos { line: 6, column: 36 });
    assert!(spans.duplicates.is_empty());
}

#[test]
fn unknown_paths_fall_back_to_the_nearest_ancestor() {
    let spans = locate("{\"hooks\": {\"stop\": [ {\"a\": {\"b\": {\"c\": 1}}} ]}}");
    let deep = [k("hooks"), k("stop"), Seg::Index(0), k("a"), k("b"), k("c")];
    assert_eq!(spans.value_pos(&deep), spans.value_pos(&deep[..4]));
    assert_eq!(spans.value_pos(&[k("missing")]), Pos::START);
}

#[test]
fn duplicate_keys_are_reported_per_object() {
    let spans = locate("{\"a\": 1, \"b\": {\"a\": 2}, \"a\": 3}");
    assert_eq!(spans.duplicates, vec![(vec![k("a")], Pos { line: 1, column: 25 })]);
}

#[test]
fn escaped_keys_and_empty_containers() {
    let spans = locate("{\"x\\\"y\": [], \"z\": {}, \"w\": [[], {\"q\": \"]}\"}]}");
    assert_eq!(spans.key_pos(&[k("x\"y")]), Pos { line: 1, column: 2 });
    assert_eq!(spans.value_pos(&[k("w"), Seg::Index(1), k("q")]), Pos { line: 1, column: 39 });
}

/// The text from a 1-based line and character column on.
fn from_pos(text: &str, pos: Pos) -> &str {
    let line = text.split('\n').nth(pos.line as usize - 1).expect("line exists");
    let start = line.char_indices().nth(pos.column as usize - 1).map_or(line.len(), |(i, _)| i);
    &line[start..]
}

fn arb_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<i32>().prop_map(serde_json::Value::from),
        "[a-zé\"\\\\ ]{0,5}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::vec(("[a-zé\"]{1,4}", inner), 0..4)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #[test]
    fn member_keys_and_values_are_found_where_they_are(
        members in proptest::collection::vec(("[a-zé\"]{1,4}", arb_value()), 0..5),
        pretty in proptest::prelude::any::<bool>(),
    ) {
        let obj: serde_json::Map<String, serde_json::Value> = members.into_iter().collect();
        let root = serde_json::json!({ "hooks": serde_json::Value::Object(obj.clone()) });
        let text = if pretty { serde_json::to_string_pretty(&root) } else { serde_json::to_string(&root) }
            .expect("serializes");
        let spans = locate(&text);
        for (name, value) in &obj {
            let path = [k("hooks"), k(name)];
            let key_json = serde_json::to_string(name).expect("key");
            proptest::prop_assert!(from_pos(&text, spans.key_pos(&path)).starts_with(&key_json));
            let value_json = serde_json::to_string(value).expect("value");
            let first = value_json.chars().next().expect("non-empty");
            proptest::prop_assert!(from_pos(&text, spans.value_pos(&path)).starts_with(first));
        }
        proptest::prop_assert!(spans.duplicates.is_empty());
    }
}
