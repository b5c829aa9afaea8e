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
