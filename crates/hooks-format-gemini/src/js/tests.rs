//! Tests of the JavaScript semantics helpers: trim, ToNumber, timers, output parsing, quoting.

use std::time::Duration;

use proptest::prelude::*;
use serde_json::json;

use super::*;

#[test]
fn trim_is_javascripts() {
    assert_eq!(trim("\u{feff} x \u{a0}\n"), "x");
    // U+0085 is whitespace for Rust but not for JavaScript.
    assert_eq!(trim("\u{85}x"), "\u{85}x");
}

#[test]
fn to_number_follows_javascript() {
    for (v, want) in [
        (json!(5000), 5000.0),
        (json!("5000"), 5000.0),
        (json!("  12 "), 12.0),
        (json!(""), 0.0),
        (json!("0x10"), 16.0),
        (json!("1e3"), 1000.0),
        (json!("-Infinity"), f64::NEG_INFINITY),
        (json!(true), 1.0),
        (json!(null), 0.0),
        (json!([]), 0.0),
        (json!(["7"]), 7.0),
    ] {
        assert_eq!(to_number(&v), want, "{v}");
    }
    for v in [
        json!("abc"),
        json!("inf"),
        json!("nan"),
        json!("1e"),
        json!({}),
        json!([1, 2]),
        json!("."),
    ] {
        assert!(to_number(&v).is_nan(), "{v}");
    }
}

#[test]
fn node_clamps_timers_to_one_millisecond() {
    assert_eq!(node_timer(5000.0), Duration::from_millis(5000));
    assert_eq!(node_timer(1.9), Duration::from_millis(1));
    for ms in [0.0, -5.0, 0.5, f64::NAN, f64::INFINITY, 2_147_483_648.0] {
        assert_eq!(node_timer(ms), Duration::from_millis(1), "{ms}");
    }
    assert_eq!(node_timer(2_147_483_647.0), Duration::from_millis(2_147_483_647));
}

#[test]
fn truthiness() {
    for v in [json!(true), json!(1), json!("0"), json!([]), json!({})] {
        assert!(truthy(&v), "{v}");
    }
    for v in [json!(false), json!(0), json!(""), json!(null), json!(-0.0)] {
        assert!(!truthy(&v), "{v}");
    }
}

#[test]
fn output_is_parsed_as_the_runner_does() {
    assert!(
        matches!(parse_output(r#"{"decision":"deny"}"#), ParsedOutput::Object(m) if m.len() == 1)
    );
    // A JSON string holding JSON is parsed twice.
    assert!(
        matches!(parse_output(r#""{\"decision\":\"deny\"}""#), ParsedOutput::Object(m) if m.len() == 1)
    );
    // A JSON string holding no JSON is plain text.
    assert_eq!(parse_output(r#""deny""#), ParsedOutput::Text);
    // Arrays are objects in JavaScript: an output without fields.
    assert!(matches!(parse_output("[1]"), ParsedOutput::Object(m) if m.is_empty()));
    for t in ["42", "true", "null", r#""42""#] {
        assert_eq!(parse_output(t), ParsedOutput::NotObject, "{t}");
    }
    assert_eq!(parse_output("denied: rm -rf"), ParsedOutput::Text);
}

#[test]
fn shell_quote_matches_shell_quote() {
    for (s, want) in [
        ("/tmp/proj", "/tmp/proj"),
        ("", "''"),
        ("/tmp/a b", "'/tmp/a b'"),
        ("it's here", r#""it's here""#),
        ("a'$b", r#""a'\$b""#),
        ("/tmp/x(1)", r"/tmp/x\(1\)"),
        ("C:(x", r"C:\(x"),
        ("a:b", r"a\:b"),
        (r#"say "hi" 'x'"#, r#""say \"hi\" 'x'""#),
    ] {
        assert_eq!(shell_quote(s), want, "{s}");
    }
}

proptest! {
    #[test]
    fn string_to_number_never_panics(s in "\\PC{0,40}") {
        let _ = string_to_number(&s);
    }

    #[test]
    fn parse_output_never_panics(s in "\\PC{0,80}") {
        let _ = parse_output(&s);
    }
}
