//! Tests for Python `re.search` emulation.

use crate::pyre::{compile, search};

#[track_caller]
fn s(pattern: &str, text: &str) -> bool {
    search(&compile(pattern).expect("compiles"), text)
}

#[test]
fn search_is_unanchored() {
    assert!(s("etc", "/etc/hosts"));
    assert!(!s("^etc", "/etc/hosts"));
}

#[test]
fn dollar_matches_before_a_final_newline_like_python() {
    assert!(s("abc$", "abc\n"));
    assert!(s("abc$", "abc"));
    assert!(!s("abc$", "abc\nx"));
    assert!(s(r"abc\Z", "abc"));
    assert!(!s(r"abc\Z", "abc\n"));
    assert!(s("(?m)^b$", "a\nb\nc"));
    assert!(s("[$]", "cost $5"));
}

#[test]
fn python_syntax() {
    assert!(s(r"(?P<q>['\x22]).*(?P=q)", "say 'hi'"));
    assert!(!s(r"(?P<q>['\x22])x(?P=q)", "'x\""));
    assert!(s(r"(?<=/etc/)passwd", "/etc/passwd"));
    assert!(s(r"^(?!/tmp).*\.conf$", "/etc/a.conf"));
    assert!(s(r"^a{,2}$", "aa"));
    assert!(!s(r"^a{,2}$", "aaa"));
    assert!(s(r"[]a]", "]"));
    assert!(s(r"[^]a]", "b"));
}

#[test]
fn invalid_patterns_are_errors() {
    for p in ["([a-z", "(?P<x", "(", "a{2,1}"] {
        assert!(compile(p).is_err(), "{p}");
    }
}

#[test]
fn catastrophic_backtracking_ends_and_counts_as_a_match_so_the_hook_decides() {
    // A lookahead holding a backreference needs the backtracking engine; on 24 letters it
    // spends the budget (Python's `re` matches, slowly).
    let re = compile(r"^(?!((\w+)\2?)*--dry-run).*rm -rf").expect("compiles");
    let text = format!("{} rm -rf /", "x".repeat(24));
    assert!(re.is_match(&text).is_err(), "the premise: the budget is spent");
    let started = std::time::Instant::now();
    assert!(search(&re, &text), "the budget is spent: the hook runs and decides");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn octal_escapes_and_group_references() {
    assert!(s(r"\0", "\u{0}"));
    assert!(s(r"\101", "A"));
    assert!(s(r"[\101-\132]", "Q"));
    assert!(s(r"(a)\1", "aa"));
    assert!(!s(r"(a)\1", "ab"));
    assert!(s(r"a++b", "aab"));
    assert!(s(r"(?>a)b", "ab"));
}

mod properties {
    //! Arbitrary patterns and texts never panic.

    use proptest::prelude::*;

    use crate::pyre::{compile, search};

    fn patternish() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "a", "b", ".", "*", "+", "?", "{", "}", "{2,1}", "{,3}", "(", ")", "(?P<n>", "(?P=n)",
            "(?<=", "(?<!", "(?=", "(?:", "(?#", "(?i)", "(?x)", "[", "]", "^", "$", "\\", "\\d",
            "\\1", "\\0", "\\777", "\\x4", "\\u00e9", "\\N{", "|", "-", ",", "é", "\\Z", "(?ism)",
            "(?a)", "(?u)", "(?L)", "(?m:", "(?-i:", "(?x-s:", "(?i-i:", " ", "#", "\n", "\\b",
            "\\B", "\\w", "\\ ",
        ]);
        prop::collection::vec(token, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        #[test]
        fn any_pattern_compiles_or_errors(p in patternish(), text in ".{0,40}") {
            if let Ok(re) = compile(&p) {
                let _ = search(&re, &text);
            }
        }

        #[test]
        fn any_text_as_pattern(p in ".{0,40}") {
            let _ = compile(&p);
        }
    }
}

#[test]
fn inline_flags_are_read_from_the_parse_not_the_text() {
    // Issue 17: any order and set of global flags turns on multiline mode for `$`.
    for p in ["(?ms)^b$", "(?ism)^b$", "(?sim)^b$", "(?xm)^b$", "(?i)(?m)^b$", "(?m)^b$"] {
        assert!(s(p, "b\nc"), "{p}");
    }
    // Scoped flags apply inside their group only; `(?m` in a class or a comment is text.
    assert!(s("(?m:^b$)", "a\nb\nc"));
    assert!(!s("(?m:^a)b$", "ab\nc"));
    assert!(!s("[(?m)]^b$", "b\nc"));
    assert!(!s("(?#(?m)^b$", "b\nc"));
    assert!(!s("(?m)(?-m:b$)", "b\nc"));
    // Verbose mode: blanks and comments outside classes are not pattern text.
    assert!(s("(?x) b  # a comment\n c", "bc"));
    assert!(s("(?x)[ ]", " "));
    assert!(s(r"(?x)a\ b", "a b"));
    assert!(!s("(?x)a{1, 3}", "a"));
    assert!(s("(?x)a{1, 3}", "a{1,3}"));
    // ASCII mode narrows the classes.
    assert!(s(r"\w", "é"));
    assert!(!s(r"(?a)\w", "é"));
    assert!(!s(r"(?a)^\w+$", "café"));
    assert!(s(r"(?a)\bcaf", "café"));
    assert!(!s(r"(?a:\d)", "٣"));
    assert!(s(r"(?u)\d", "٣"));
}

#[test]
fn flag_errors_are_pythons() {
    for (p, want) in [
        ("a(?i)", "global flags not at the start of the expression at position 1"),
        ("a|(?i)b", "global flags not at the start of the expression at position 2"),
        ("(?:)(?i)a", "global flags not at the start of the expression at position 4"),
        ("(?L)", "bad inline flags: cannot use 'L' flag with a str pattern at position 3"),
        ("(?au)", "bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4"),
        ("(?i-i:a)", "bad inline flags: flag turned on and off at position 5"),
        ("(?-a:a)", "bad inline flags: cannot turn off flags 'a', 'u' and 'L' at position 4"),
        ("(?-i)", "missing : at position 4"),
        ("(?i-:a)", "missing flag at position 4"),
        ("(?iq)", "unknown flag at position 3"),
    ] {
        assert_eq!(compile(p).err().map(|e| e.to_string()).as_deref(), Some(want), "{p}");
    }
    for p in ["(?i)(?m)a", "(?#x)(?i)a", "(?x) (?i)a", "(?u)a", "(?i:)"] {
        assert!(compile(p).is_ok(), "{p}");
    }
}

mod flag_cases {
    //! Random inline flag sets (global and scoped), anchors and verbose-mode text against
    //! Python's `re`, through Chrys's own loader and `matcher.matches`.
    //!
    //! A proptest strategy with a fixed seed generates the cases; they are committed as a
    //! Chrys hooks file (`test_data/regex_flags/hooks.json`: one hook per case, each testing
    //! its own argument) and a payload (`payload.json`: each argument's text), and Chrys's
    //! answers, recorded with the oracle (`test_data/record_oracle.py`), as `oracle.json`:
    //! `true`/`false`, or `"error: <reason>"` for a pattern Chrys skips. The tests need
    //! neither Python nor the wheel; `UPDATE_EXPECT=1` rewrites the two input files from the
    //! generator (then record the answers again).

    use std::path::{Path, PathBuf};

    use hooks_schema::{Envelope, HookEvent, ToolCall, ToolKind};
    use proptest::{
        prelude::*,
        strategy::ValueTree,
        test_runner::{Config, RngAlgorithm, TestRng, TestRunner},
    };
    use serde_json::{Map, Value, json};

    const SEED: [u8; 32] = *b"agent-hooks issue 17 regex flags";
    const CASES: usize = 1000;

    fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/regex_flags")
    }

    fn letters(set: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(set), 1..=max).prop_map(|v| v.concat())
    }

    /// Anchors and alternation, which take no quantifier.
    fn anchor() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["^", "$", "\\A", "\\Z", "\\b", "\\B", "|", " ", "#c\n"])
            .prop_map(str::to_owned)
    }

    /// Characters and classes.
    fn atom() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            ".", "a", "b", "B", "é", "\\n", "\\w", "\\W", "\\s", "\\S", "\\d", " ", "[ab]",
            "[$^ ]", "[\\w]", "[^\\s]", "\\$", "\\ ",
        ])
        .prop_map(str::to_owned)
    }

    fn quantified(item: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
        (item, prop::sample::select(vec!["", "", "", "", "", "", "*", "+", "?", "*?", "{1,2}"]))
            .prop_map(|(i, q)| format!("{i}{q}"))
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![2 => anchor(), 3 => quantified(atom())]
    }

    fn group() -> impl Strategy<Value = String> {
        let head = prop_oneof![
            3 => (letters(&["i", "m", "s", "x", "a"], 2), prop::option::of(letters(&["i", "m", "s", "x"], 2)))
                .prop_map(|(on, off)| match off {
                    Some(off) => format!("(?{on}-{off}:"),
                    None => format!("(?{on}:"),
                }),
            1 => letters(&["i", "m", "s", "x"], 2).prop_map(|off| format!("(?-{off}:")),
            1 => Just("(?:".to_owned()),
            1 => Just("(".to_owned()),
        ];
        (head, prop::collection::vec(piece(), 1..4))
            .prop_map(|(h, inner)| format!("{h}{})", inner.concat()))
    }

    fn pattern() -> impl Strategy<Value = String> {
        let global = prop::option::weighted(
            0.75,
            letters(&["i", "m", "s", "x", "m", "s", "x", "i", "m", "a", "u", "a", "L"], 3),
        );
        let item = prop_oneof![
            12 => piece(),
            4 => quantified(group()),
            1 => letters(&["i", "m", "s", "x"], 2).prop_map(|f| format!("(?{f})")),
        ];
        (global, prop::collection::vec(item, 1..6)).prop_map(|(g, body)| {
            let g = g.map(|f| format!("(?{f})")).unwrap_or_default();
            format!("{g}{}", body.concat())
        })
    }

    fn subject() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!["a", "b", "B", "\n", " ", "1", "_", "é", "$", "#", "c"]),
            0..7,
        )
        .prop_map(|v| v.concat())
    }

    /// The cases, always the same: the strategy drawn from a fixed seed.
    fn generate() -> Vec<(String, String)> {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &SEED),
        );
        let strategy = (pattern(), subject());
        (0..CASES).map(|_| strategy.new_tree(&mut runner).expect("a case").current()).collect()
    }

    fn id(i: usize) -> String {
        format!("c{i:03}")
    }

    fn files(cases: &[(String, String)]) -> (String, String) {
        let hooks: Vec<Value> = cases
            .iter()
            .enumerate()
            .map(|(i, (p, _))| {
                json!({"id": id(i), "event": "before_tool_call",
                    "match": {"args": {id(i): {"regex": p}}},
                    "run": {"type": "shell", "shell": "true"}})
            })
            .collect();
        let args: Map<String, Value> =
            cases.iter().enumerate().map(|(i, (_, t))| (id(i), json!(t))).collect();
        let payload = json!({"schema": 1, "event": "before_tool_call", "session_id": "s",
            "profile": "Code", "tool": {"name": "t", "kind": "shell", "call_id": "c", "args": args}});
        // One case a line, so that a change of the generator reads as a diff of cases.
        let lines: Vec<String> = hooks.iter().map(Value::to_string).collect();
        let hooks = format!("{{\"hooks\": [\n{}\n]}}\n", lines.join(",\n"));
        let args: Vec<String> = payload["tool"]["args"]
            .as_object()
            .expect("args")
            .iter()
            .map(|(k, v)| format!("{}: {v}", Value::from(k.as_str())))
            .collect();
        let payload = format!(
            "{{\"schema\": 1, \"event\": \"before_tool_call\", \"session_id\": \"s\", \"profile\": \"Code\",\n \"tool\": {{\"name\": \"t\", \"kind\": \"shell\", \"call_id\": \"c\", \"args\": {{\n{}\n}}}}}}\n",
            args.join(",\n")
        );
        (hooks, payload)
    }

    #[test]
    fn the_committed_cases_are_the_generators() {
        let (hooks, payload) = files(&generate());
        #[allow(clippy::disallowed_methods, reason = "the usual expect-test switch")]
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::create_dir_all(dir()).expect("dir");
            std::fs::write(dir().join("hooks.json"), &hooks).expect("write");
            std::fs::write(dir().join("payload.json"), &payload).expect("write");
        }
        let read = |n: &str| std::fs::read_to_string(dir().join(n)).expect("committed case file");
        assert!(read("hooks.json") == hooks, "hooks.json is not what the generator makes");
        assert!(read("payload.json") == payload, "payload.json is not what the generator makes");
    }

    #[test]
    fn every_case_matches_as_python_re_does() {
        let bytes = std::fs::read(dir().join("hooks.json")).expect("hooks.json");
        let parsed = crate::parse(&bytes, &dir().join("hooks.json")).expect("loads");
        let payload: Value = serde_json::from_str(
            &std::fs::read_to_string(dir().join("payload.json")).expect("payload"),
        )
        .expect("json");
        let oracle: Map<String, Value> = serde_json::from_str(
            &std::fs::read_to_string(dir().join("oracle.json")).expect("oracle"),
        )
        .expect("json");
        assert_eq!(oracle.len(), CASES);
        let mut envelope = Envelope::new(HookEvent::PreToolUse);
        envelope.profile = Some("Code".to_owned());
        envelope.tool = Some(ToolCall {
            name: "t".to_owned(),
            kind: ToolKind::Shell,
            native_kind: Some("shell".to_owned()),
            call_id: Some("c".to_owned()),
            mcp_server: None,
            args: payload["tool"]["args"].clone(),
        });
        let mut wrong = Vec::new();
        let mut matched = 0;
        let mut skipped = 0;
        for (i, (pattern, subject)) in generate().iter().enumerate() {
            let id = id(i);
            let want = &oracle[&id];
            let ours = match parsed.definitions.iter().find(|d| d.id.as_str() == id) {
                Some(d) => json!(d.matcher.matches(&envelope)),
                None => {
                    let reason = parsed
                        .diagnostics
                        .iter()
                        .find(|d| d.hook_id.as_deref() == Some(id.as_str()))
                        .map(|d| d.message.clone())
                        .unwrap_or_default();
                    json!(format!("error: {reason}"))
                }
            };
            match want {
                Value::Bool(true) => matched += 1,
                Value::String(_) => skipped += 1,
                _ => {}
            }
            if &ours != want {
                wrong.push(format!("{id} {pattern:?} on {subject:?}: python {want}, ours {ours}"));
            }
        }
        // The cases must exercise all three outcomes.
        assert!(
            matched > 50 && skipped > 20 && matched + skipped < CASES - 50,
            "{matched} {skipped}"
        );
        assert!(wrong.is_empty(), "{} of {CASES} differ:\n{}", wrong.len(), wrong.join("\n"));
    }
}
