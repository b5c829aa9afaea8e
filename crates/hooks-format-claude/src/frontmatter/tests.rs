//! Tests for reading front matter: where it is, the YAML 1.2 core values, positions in the
//! Markdown file, and the caps.

use proptest::prelude::*;

use super::*;

#[test]
fn front_matter_is_between_the_first_two_fence_lines() {
    assert_eq!(split("---\nname: a\n---\nbody\n"), Some(("name: a\n", 2)));
    assert_eq!(split("---\r\nname: a\r\n---\r\n"), Some(("name: a\r\n", 2)));
    assert_eq!(split("\u{feff}---\nx: 1\n--- \n"), Some(("x: 1\n", 2)));
    assert_eq!(split("---\n---\n"), Some(("", 2)));
    // Closed at the end of the file without a newline.
    assert_eq!(split("---\nx: 1\n---"), Some(("x: 1\n", 2)));
    for none in ["", "name: a\n", "# title\n---\nx: 1\n---\n", "---\nx: 1\n", " ---\nx: 1\n---\n"] {
        assert_eq!(split(none), None, "{none:?}");
    }
}

fn at(node: &Node) -> (u32, u32) {
    (node.line, node.column)
}

#[test]
fn values_and_positions_are_the_file_s() {
    let text = concat!(
        "---\n",
        "name: gate\n",
        "hooks:\n",
        "  PreToolUse:\n",
        "    - matcher: \"Bash\"\n",
        "      hooks:\n",
        "        - type: command\n",
        "          command: ./gate.sh\n",
        "          timeout: 30\n",
        "---\n",
    );
    let (yaml, first) = split(text).expect("front matter");
    let root = tree(yaml, first).expect("tree");
    let hooks = root.get("hooks").expect("hooks");
    assert_eq!((hooks.line, hooks.column), (3, 1), "the key's position");
    let entry = &hooks.value.get("PreToolUse").expect("event").value;
    let Kind::Array(entries) = &entry.kind else { panic!("{entry:?}") };
    let matcher = entries[0].get("matcher").expect("matcher");
    assert_eq!(matcher.value.kind, Kind::String("Bash".into()));
    assert_eq!(at(&matcher.value), (5, 16));
    let handler = &entries[0].get("hooks").expect("hooks").value;
    let Kind::Array(handlers) = &handler.kind else { panic!("{handler:?}") };
    let command = handlers[0].get("command").expect("command");
    assert_eq!(command.value.kind, Kind::String("./gate.sh".into()));
    assert_eq!(at(&command.value), (8, 20));
    assert_eq!(handlers[0].get("timeout").expect("t").value.kind, Kind::Number(30.into()));
}

#[test]
fn plain_scalars_resolve_with_the_core_schema() {
    let cases: [(&str, Kind); 17] = [
        ("~", Kind::Null),
        ("null", Kind::Null),
        ("", Kind::Null),
        ("true", Kind::Bool(true)),
        ("FALSE", Kind::Bool(false)),
        // YAML 1.1's booleans are strings in 1.2.
        ("yes", Kind::String("yes".into())),
        ("off", Kind::String("off".into())),
        ("42", Kind::Number(42.into())),
        ("-7", Kind::Number((-7).into())),
        ("0o17", Kind::Number(15.into())),
        ("0x1F", Kind::Number(31.into())),
        ("1.5", Kind::Number(Number::from_f64(1.5).expect("finite"))),
        ("1e3", Kind::Number(Number::from_f64(1000.0).expect("finite"))),
        (".inf", Kind::NumberText("Infinity".into())),
        ("012", Kind::Number(12.into())),
        ("1_000", Kind::String("1_000".into())),
        ("./gate.sh --x", Kind::String("./gate.sh --x".into())),
    ];
    for (text, want) in cases {
        let root = tree(&format!("v: {text}\n"), 2).expect(text);
        assert_eq!(root.get("v").expect("v").value.kind, want, "{text:?}");
    }
    // Quoted and block scalars are strings, whatever they spell.
    let root = tree("a: \"true\"\nb: '42'\nc: |\n  exit 2\n", 2).expect("tree");
    assert_eq!(root.get("a").expect("a").value.kind, Kind::String("true".into()));
    assert_eq!(root.get("b").expect("b").value.kind, Kind::String("42".into()));
    assert_eq!(root.get("c").expect("c").value.kind, Kind::String("exit 2\n".into()));
}

#[test]
fn aliases_are_followed_and_counted() {
    let root = tree("a: &x [1, 2]\nb: *x\n", 2).expect("tree");
    assert_eq!(root.get("b").expect("b").value.kind, root.get("a").expect("a").value.kind);
    // Each level doubles the nodes: stopped at the cap, not expanded.
    let mut bomb = String::from("a0: &a0 [x, x]\n");
    for i in 1..30 {
        bomb.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}]\n", p = i - 1));
    }
    let e = tree(&bomb, 2).expect_err("too many nodes");
    assert!(e.message.contains("more than"), "{e:?}");
}

#[test]
fn bad_front_matter_is_an_error_with_its_position_in_the_file() {
    let e = tree("a: [1, 2\n", 2).expect_err("unclosed");
    assert!(e.line >= 2, "{e:?}");
    let e = tree("? [a, b]\n: c\n", 2).expect_err("a sequence as a key");
    assert!(e.message.contains("not a scalar"), "{e:?}");
    let deep = format!("a: {}{}\n", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let e = tree(&deep, 2).expect_err("too deep");
    assert!(e.message.contains("nested deeper"), "{e:?}");
    let e = tree("a: *nowhere\n", 2).expect_err("an alias to nothing");
    assert_eq!(e.line, 2, "{e:?}");
}

/// Front matter fences around YAML's punctuation, letters and spaces.
const TEXT: &str = "(---\n)?[ -~\n\t:\\-\\[\\]{}&*!|>'\"#]{0,200}(\n---\n)?";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text: split and tree never panic, and a tree's positions are inside the text.
    #[test]
    fn any_text_reads_or_fails_without_panicking(text in TEXT) {
        if let Some((yaml, first)) = split(&text)
            && let Ok(root) = tree(yaml, first)
        {
            prop_assert!(root.end <= yaml.len());
            prop_assert!(root.line >= first);
        }
    }
}
