//! Tests for the YAML 1.1 loader.

use crate::{
    pyval::{PyInt, PyValue},
    yaml::{MAX_NODES, YamlError, load},
};

#[track_caller]
fn scalar(text: &str) -> PyValue {
    let node = load(&format!("v: {text}\n")).expect("loads").expect("document");
    node.value.get("v").expect("v").value.clone()
}

#[test]
fn yaml_1_1_scalars() {
    let int = |i| PyValue::Int(PyInt::Small(i));
    assert_eq!(scalar("yes"), PyValue::Bool(true));
    assert_eq!(scalar("Off"), PyValue::Bool(false));
    assert_eq!(scalar("ON"), PyValue::Bool(true));
    assert_eq!(scalar("y"), PyValue::Str("y".into()));
    assert_eq!(scalar("1:30"), int(90));
    assert_eq!(scalar("1:30.5"), PyValue::Float(90.5));
    assert_eq!(scalar("010"), int(8));
    assert_eq!(scalar("0x1F"), int(31));
    assert_eq!(scalar("0b101"), int(5));
    assert_eq!(scalar("1_000"), int(1000));
    assert_eq!(scalar("-0"), int(0));
    assert_eq!(scalar("09"), PyValue::Str("09".into()));
    assert_eq!(scalar("1e3"), PyValue::Str("1e3".into()));
    assert_eq!(scalar("1.0e3"), PyValue::Str("1.0e3".into()));
    assert_eq!(scalar("1.0e+3"), PyValue::Float(1000.0));
    assert_eq!(scalar("1."), PyValue::Float(1.0));
    assert_eq!(scalar(".5"), PyValue::Float(0.5));
    assert_eq!(scalar("-.inf"), PyValue::Float(f64::NEG_INFINITY));
    assert!(matches!(scalar(".NaN"), PyValue::Float(f) if f.is_nan()));
    assert_eq!(scalar("~"), PyValue::None);
    assert_eq!(scalar("NULL"), PyValue::None);
    assert_eq!(scalar(""), PyValue::None);
    assert_eq!(scalar("'yes'"), PyValue::Str("yes".into()));
    assert_eq!(scalar("2024-01-01"), PyValue::Date(2024, 1, 1));
    assert_eq!(scalar("2024-1-1"), PyValue::Str("2024-1-1".into()));
    assert_eq!(
        scalar("2001-12-14t21:59:43.10-05:00"),
        PyValue::DateTime(
            "datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(seconds=-18000)))"
                .into()
        )
    );
    assert_eq!(
        scalar("2024-01-01 10:00:00"),
        PyValue::DateTime("datetime.datetime(2024, 1, 1, 10, 0)".into())
    );
    assert_eq!(
        scalar("123456789012345678901234567890123456789012"),
        PyValue::Int(PyInt::Big("123456789012345678901234567890123456789012".into()))
    );
}

#[test]
fn constructor_errors() {
    for text in ["v: 2026-13-01\n", "v: 2023-02-29\n", "v: !!bool maybe\n", "v: !!int abc\n"] {
        assert_eq!(load(text), Err(YamlError::Constructor), "{text}");
    }
}

#[test]
fn explicit_tags() {
    assert_eq!(scalar("!!str 12"), PyValue::Str("12".into()));
    assert_eq!(scalar("!!float 3"), PyValue::Float(3.0));
    assert_eq!(scalar("!!int '7'"), PyValue::Int(PyInt::Small(7)));
    assert_eq!(scalar("!!null x"), PyValue::None);
    assert!(matches!(load("v: !custom 1\n"), Err(YamlError::Syntax(m)) if m.contains("'!custom'")));
}

#[test]
fn last_duplicate_key_wins_at_the_first_position() {
    let node = load("a: 1\nb: 2\na: 3\n").expect("loads").expect("doc");
    let PyValue::Dict(pairs) = node.value else { panic!("dict") };
    let got: Vec<(String, String)> =
        pairs.iter().map(|(k, v)| (k.value.repr(), v.value.repr())).collect();
    assert_eq!(got, vec![("'a'".to_owned(), "3".to_owned()), ("'b'".to_owned(), "2".to_owned())]);
}

#[test]
fn python_equal_keys_collide() {
    let node = load("1: a\ntrue: b\n1.0: c\n").expect("loads").expect("doc");
    let PyValue::Dict(pairs) = node.value else { panic!("dict") };
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].0.value.repr(), "1");
    assert_eq!(pairs[0].1.value.repr(), "'c'");
}

#[test]
fn merge_keys_and_quoted_merge_key() {
    let node = load("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\nq: {'<<': 1}\n")
        .expect("loads")
        .expect("doc");
    assert_eq!(node.value.get("m").expect("m").value.repr(), "{'x': 1, 'y': 3}");
    assert_eq!(node.value.get("q").expect("q").value.repr(), "{'<<': 1}");
    assert!(matches!(load("m: {<<: 1}\n"), Err(YamlError::Syntax(m)) if m.contains("for merging")));
    assert!(matches!(load("v: <<\n"), Err(YamlError::Syntax(_))));
}

#[test]
fn alias_bomb_is_capped() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let prev = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    match load(&text) {
        Err(YamlError::Syntax(m)) => assert!(m.contains(&MAX_NODES.to_string()), "{m}"),
        other => panic!("expected the cap, got {other:?}"),
    }
}

#[test]
fn deep_nesting_is_capped() {
    let text = format!("{}{}", "[".repeat(230), "]".repeat(230));
    assert!(matches!(load(&text), Err(YamlError::Syntax(m)) if m.contains("nests deeper")));
    // Deeper still, saphyr-parser's own recursion limit answers first.
    let text = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    assert!(matches!(load(&text), Err(YamlError::Syntax(_))));
}

#[test]
fn one_document_only_and_marks() {
    assert!(
        matches!(load("a: 1\n---\nb: 2\n"), Err(YamlError::Syntax(m)) if m.contains("single document"))
    );
    assert_eq!(load("").expect("empty"), None);
    assert_eq!(load("# only a comment\n").expect("empty"), None);
    let node = load("x:\n  - a: 1\n").expect("loads").expect("doc");
    let PyValue::List(items) = &node.value.get("x").expect("x").value else { panic!("list") };
    assert_eq!(items[0].mark, Some((2, 5)));
}

#[test]
fn tabs_only_where_pyyaml_takes_them() {
    // PyYAML 6.0.3's answers: true when the text loads.
    let cases = [
        ("a: b\t\n", false),
        ("a:\tb\n", false),
        ("a: 'x\ty'\n", true),
        ("a: \"x\ty\"\n", true),
        ("a: |\n  x\ty\n", true),
        ("a: |\n\tx\n", false),
        ("a: b # c\td\n", true),
        ("a: b\t# c\n", false),
        ("a: [b,\tc]\n", false),
        ("a: {b:\tc}\n", false),
        ("\t\n", false),
        ("a: b\n\t\n", false),
        ("a: x\ty\n", false),
        ("- a\t\n", false),
        ("a: >\n  x\n  \ty\n", true),
        // A quoted scalar's continuation line may start with a tab, and may sit at any
        // indentation (PyYAML skips the white space after each line break in the quotes).
        ("a: 'x\n\ty'\n", true),
        ("a: \"x\n\ty\"\n", true),
        ("a:\n  b: 'x\n\ty'\n", true),
        ("- 'x\n\t\ty'\n", true),
        ("a:\n  - b\n  -\tc\n", false),
        ("a: b\n# c\td\n", true),
        ("\ta: b\n", false),
    ];
    for (text, ok) in cases {
        let got = load(text);
        assert_eq!(got.is_ok(), ok, "{text:?}: {got:?}");
        if let Err(YamlError::Syntax(m)) = got {
            // Where saphyr-parser stops first, its own words name the tab.
            assert!(
                m.contains("found character '\\t' that cannot start any token")
                    || m.contains("tab"),
                "{text:?}: {m}"
            );
        }
    }
}

#[test]
fn integers_of_any_size_and_base_are_python_ints() {
    let big = |s: &str| PyValue::Int(PyInt::Big(s.to_owned()));
    let i128_max_plus_one = "170141183460469231731687303715884105728";
    assert_eq!(scalar(i128_max_plus_one), big(i128_max_plus_one));
    assert_eq!(scalar("0x80000000000000000000000000000000"), big(i128_max_plus_one));
    assert_eq!(
        scalar("-0x80000000000000000000000000000000"),
        PyValue::Int(PyInt::Small(i128::MIN))
    );
    assert_eq!(scalar(&format!("0b1{}", "0".repeat(127))), big(i128_max_plus_one));
    // 2^127 seconds written as minutes and seconds.
    assert_eq!(scalar("2835686391007820528861455061931401762:8"), big(i128_max_plus_one));
    assert_eq!(scalar("1:00:00"), PyValue::Int(PyInt::Small(3600)));
    assert_eq!(scalar("1_800"), PyValue::Int(PyInt::Small(1800)));
    // PyYAML adds the parts of a sexagesimal float from the last one up.
    assert_eq!(scalar("190:20:30.15"), PyValue::Float(30.15 + 20.0 * 60.0 + 190.0 * 3600.0));
}

mod number_properties {
    //! The number grammars never panic and never overflow: integers of any length in every
    //! base are exact, floats and sexagesimals of any size are floats (maybe infinite).

    use proptest::prelude::*;

    use crate::{
        pyval::{PyInt, PyValue},
        yaml::construct_int,
    };

    fn as_decimal(v: &PyValue) -> String {
        match v {
            PyValue::Int(PyInt::Small(i)) => i.to_string(),
            PyValue::Int(PyInt::Big(s)) => s.clone(),
            other => panic!("not an int: {other:?}"),
        }
    }

    /// A YAML 1.1 number-like plain scalar: optional sign, a base or sexagesimal or float
    /// shape, digits and underscores of any length.
    fn numberish() -> impl Strategy<Value = String> {
        let digits = |set: &'static str, max: usize| {
            prop::collection::vec(prop::sample::select(set.chars().collect::<Vec<_>>()), 1..max)
                .prop_map(|v| v.into_iter().collect::<String>())
        };
        (
            prop::sample::select(vec!["", "-", "+"]),
            prop_oneof![
                digits("0123456789_", 80),
                digits("01_", 200).prop_map(|d| format!("0b{d}")),
                digits("0123456789abcdefABCDEF_", 80).prop_map(|d| format!("0x{d}")),
                digits("01234567_", 80).prop_map(|d| format!("0{d}")),
                (digits("123456789", 40), prop::collection::vec(0u8..60, 1..6))
                    .prop_map(|(h, p)| { p.iter().fold(h, |acc, x| format!("{acc}:{x}")) }),
                (digits("0123456789_", 40), digits("0123456789_", 40), any::<i16>())
                    .prop_map(|(a, b, e)| format!("{a}.{b}e{e:+}")),
                (
                    digits("0123456789", 30),
                    prop::collection::vec(0u8..60, 1..4),
                    digits("0123456789", 10)
                )
                    .prop_map(|(h, p, f)| format!(
                        "{}.{f}",
                        p.iter().fold(h, |acc, x| format!("{acc}:{x:02}"))
                    )),
                prop::sample::select(vec![".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"])
                    .prop_map(str::to_owned),
            ],
        )
            .prop_map(|(sign, body)| format!("{sign}{body}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        #[test]
        fn number_like_scalars_never_panic(text in numberish()) {
            // Loads as a number, a string or a constructor error; never a panic.
            let _ = crate::yaml::load(&format!("v: {text}\n"));
            let _ = crate::yaml::load(&format!("v: !!int {text}\n"));
            let _ = crate::yaml::load(&format!("v: !!float {text}\n"));
        }

        #[test]
        fn any_timeout_seconds_is_a_duration(secs in any::<f64>()) {
            // Every float a file can hold maps to a timeout without panicking: NaN at once,
            // huge and infinite values never, the rest exactly.
            let t = crate::timeout(secs);
            if secs.is_nan() {
                prop_assert_eq!(t, std::time::Duration::ZERO);
            } else if secs > 0.0 && secs < 1.8e19 {
                prop_assert!((t.as_secs_f64() - secs).abs() <= secs * 1e-9 + 1e-9);
            } else if secs >= 1.9e19 {
                prop_assert_eq!(t, hooks_schema::NO_TIMEOUT);
            }
        }

        #[test]
        fn decimal_integers_of_any_length_are_exact(digits in "[1-9][0-9]{0,300}", neg in any::<bool>()) {
            let text = if neg { format!("-{digits}") } else { digits.clone() };
            let v = construct_int(&text).expect("an int");
            prop_assert_eq!(as_decimal(&v), text);
        }

        #[test]
        fn every_base_gives_the_same_integer(n in any::<u128>(), extra in 0u32..3) {
            // Beyond u128 too: append `extra` zero hex digits (times 16 each).
            let scale = 16u128.checked_pow(extra);
            let hex = format!("0x{n:x}{}", "0".repeat(extra as usize));
            let oct = format!("0{n:o}");
            let bin = format!("0b{n:b}");
            prop_assert_eq!(as_decimal(&construct_int(&oct).expect("oct")), n.to_string());
            prop_assert_eq!(as_decimal(&construct_int(&bin).expect("bin")), n.to_string());
            if let Some(want) = scale.and_then(|s| n.checked_mul(s)) {
                prop_assert_eq!(as_decimal(&construct_int(&hex).expect("hex")), want.to_string());
            } else {
                let v = construct_int(&hex).expect("hex");
                prop_assert!(matches!(v, PyValue::Int(PyInt::Big(_))));
            }
            // Sexagesimal: n = q * 60 + r.
            if n > 59 {
                let sexa = format!("{}:{}", n / 60, n % 60);
                prop_assert_eq!(as_decimal(&construct_int(&sexa).expect("sexa")), n.to_string());
            }
        }
    }
}

/// A quoted scalar's continuation lines read as PyYAML 6.0.3 reads them, whatever their
/// indentation and whether it is made of tabs (the values are PyYAML's `repr`, recorded), and
/// where PyYAML refuses (a tab before a scalar, a key or a block scalar's line; a document
/// marker at a continuation line's start), the loader still refuses.
#[test]
fn quoted_continuation_lines_read_as_pyyaml_reads_them() {
    let read = [
        ("a: 'x\n\ty'\n", "{'a': 'x y'}"),
        ("a: \"x\n\ty\"\n", "{'a': 'x y'}"),
        ("a:\n  b: 'x\n\ty'\n", "{'a': {'b': 'x y'}}"),
        ("- 'x\n\t\ty'\n", "['x y']"),
        ("a:\n  b: 'x\ny'\n", "{'a': {'b': 'x y'}}"),
        ("a: 'x\n\n\ty'\n", "{'a': 'x\\ny'}"),
        ("a: 'x\n\t\n y'\n", "{'a': 'x\\ny'}"),
        ("a: [ 'x\n\ty', z ]\n", "{'a': ['x y', 'z']}"),
        ("a: 'x\n\ty'\nb: c\n", "{'a': 'x y', 'b': 'c'}"),
        ("a: 'it''s\n\tok'\n", "{'a': \"it's ok\"}"),
        ("a: \"x\\\n\ty\"\n", "{'a': 'xy'}"),
        ("a: 'x\n\t---\n'\n", "{'a': 'x --- '}"),
        ("a:\n  - b: 'one\n two\n\tthree'\n    c: 1\n", "{'a': [{'b': 'one two three', 'c': 1}]}"),
        // A tab after a space in a flow collection's quoted scalar (found by a differential).
        ("a: [ 'a b\n \t-- z\n\n\t w v', z ]\n", "{'a': ['a b -- z\\nw v', 'z']}"),
        ("a: \"- i\n \t\n\n    w v\\\n\t\t-- z\"\n", "{'a': '- i\\n\\nw v-- z'}"),
    ];
    reads_as_pyyaml(&read);
    let refused = [
        "a:\n\t'x'\n",
        "a:\n\tb: 'x'\n",
        "a: |\n\tx\n",
        "a: 'x\n  y' \n\tb: c\n",
        "a: 'x\n...\n'\n",
        "a: 'x\n---\n'\n",
    ];
    refused_as_by_pyyaml(&refused);
    // PyYAML's words for a document marker inside the quotes.
    let Err(YamlError::Syntax(m)) = load("a: 'x\n---\n'\n") else { panic!("refused") };
    assert!(
        m.starts_with(
            "while scanning a quoted scalar\n  in \"<unicode string>\", line 1, column 4:"
        ) && m.contains(
            "found unexpected document separator\n  in \"<unicode string>\", line 2, column 1:"
        ),
        "{m}"
    );
}

/// A comment right after a closing quote is a comment for PyYAML 6.0.3 (saphyr-parser wants a
/// space first), and a tab between a closing quote and a comment is refused as PyYAML refuses
/// it (the values are PyYAML's `repr`, recorded).
#[test]
fn a_comment_right_after_a_closing_quote_reads_as_pyyaml_reads_it() {
    let read = [
        ("a: 'x'#c\n", "{'a': 'x'}"),
        ("a: \"x\"#c\nb: 1\n", "{'a': 'x', 'b': 1}"),
        ("- 'x'#c\n- z\n", "['x', 'z']"),
        ("a: 'x\n  y'#c\n", "{'a': 'x y'}"),
        ("'x'#c\n", "'x'"),
    ];
    reads_as_pyyaml(&read);
    refused_as_by_pyyaml(&["a: 'x'\t#c\n", "a: x#c\n#d\n\t#e\n"]);
}

/// PyYAML checks no indentation inside a flow collection and reads a comment right after a
/// flow indicator; saphyr-parser asks for lines past the enclosing block's and a space before
/// the comment (the values are PyYAML 6.0.3's `repr`, recorded; what PyYAML refuses stays
/// refused).
#[test]
fn flow_collections_read_as_pyyaml_reads_them() {
    let read = [
        ("hooks: ['x'\n]\n", "{'hooks': ['x']}"),
        ("a:\n  b: {b: 1,\n }\n  c: d\n", "{'a': {'b': {'b': 1}, 'c': 'd'}}"),
        ("hooks:\n- id: ['p q',\n ]\n  e: 1\n", "{'hooks': [{'id': ['p q'], 'e': 1}]}"),
        ("a: [1,#c\n  2]\n", "{'a': [1, 2]}"),
        ("a: [x]#c\n", "{'a': ['x']}"),
        ("a: {b: 1\n,c: 2}\n", "{'a': {'b': 1, 'c': 2}}"),
        ("- [\n1,#c\n  z]\n- z\n", "[[1, 'z'], 'z']"),
    ];
    reads_as_pyyaml(&read);
    refused_as_by_pyyaml(&["a: [x\n]\nb: [\n\t1]\n", "a: [1,\n b: [2\n]\n"]);
}

/// A document-end marker before any document is refused as PyYAML 6.0.3 refuses it (its
/// parser starts an implicit document there and finds no node; saphyr-parser read an empty
/// stream, or the document after the marker); after a document, or not at a line's start,
/// it reads as PyYAML reads it. The messages are PyYAML's, checked with the oracle's venv.
#[test]
fn a_document_end_before_any_document_is_refused_as_pyyaml_refuses_it() {
    let refused = |text: &str| match load(text) {
        Err(YamlError::Syntax(m)) => m,
        other => panic!("{text:?}: {other:?}"),
    };
    let head =
        "while parsing a block node\nexpected the node content, but found '<document end>'\n";
    assert_eq!(
        refused("...\n"),
        format!("{head}  in \"<unicode string>\", line 1, column 1:\n    ...\n    ^")
    );
    assert_eq!(
        refused("# c\n\n...  # x\nversion: 1\n"),
        format!("{head}  in \"<unicode string>\", line 3, column 1:\n    ...  # x\n    ^")
    );
    assert_eq!(
        refused("\u{feff}...\n"),
        format!("{head}  in \"<unicode string>\", line 1, column 1:\n    \u{feff}...\n     ^")
    );
    refused_as_by_pyyaml(&["...", "...\r\n", "... # c\n", "...\t\n", "...\na: 1\n", "   \n...\n"]);
    reads_as_pyyaml(&[
        ("  ...\n", "'...'"),
        ("...x\n", "'...x'"),
        ("a: 1\n...\n", "{'a': 1}"),
        ("a: 1\n...\n...\n", "{'a': 1}"),
        ("---\n...\n", "None"),
    ]);
}

/// Each text loads to the value whose Python `repr` PyYAML 6.0.3 gave (recorded).
#[track_caller]
fn reads_as_pyyaml(cases: &[(&str, &str)]) {
    for (text, repr) in cases {
        let node = load(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}")).expect("document");
        assert_eq!(node.value.repr(), *repr, "{text:?}");
    }
}

/// Each text is refused, as PyYAML 6.0.3 refuses it.
#[track_caller]
fn refused_as_by_pyyaml(texts: &[&str]) {
    for text in texts {
        assert!(load(text).is_err(), "{text:?}: {:?}", load(text));
    }
}
