//! Tests of the JavaScript regex reproduction: acceptance, ASCII classes, Annex B, budgets.

use proptest::prelude::*;

use super::*;

fn js(pattern: &str, text: &str) -> bool {
    match JsRegex::compile(pattern) {
        Compiled::Regex(r) => test(&r, text),
        other => panic!("`{pattern}` did not compile: {other:?}"),
    }
}

#[test]
fn alternations_are_unanchored() {
    assert!(js("write_file|replace", "write_file"));
    assert!(js("write_file|replace", "replace"));
    assert!(js("write_file|replace", "mcp_fs_write_file_2"));
    assert!(!js("write_file|replace", "read_file"));
    assert!(js("^run_shell_command$", "run_shell_command"));
    assert!(!js("^run_shell_command$", "run_shell_command2"));
    assert!(!js("Write", "write_file"), "case-sensitive");
}

#[test]
fn classes_have_javascripts_ascii_meaning() {
    assert!(js(r"^\d+$", "123"));
    assert!(!js(r"^\d+$", "\u{661}\u{662}"), "Arabic-Indic digits are no \\d in JavaScript");
    assert!(!js(r"^\w+$", "é"));
    assert!(js(r"^\s$", "\u{feff}"));
    assert!(js(r"^\S$", "\u{85}"), "U+0085 is no JavaScript whitespace");
    assert!(js(r"\bfile\b", "read file now"));
    assert!(!js(r"\bfile\b", "read_file"));
    assert!(js(r"[\d_]+", "_1"));
    assert!(!js("^.$", "\u{2028}"));
    assert!(js("^.$", "\u{85}"));
    assert!(js("^[^]$", "\n"));
    assert!(!js("[]", "anything"));
    assert!(js("[^-a]", "b"));
    assert!(js("^[a-c-e]+$", "b-e"), "a `-` after a range is a literal");
    assert!(js(r"^[\w-.]+$", "a-.b"), "a class escape next to `-` makes it a literal");
}

#[test]
fn annex_b_escapes_and_literals() {
    assert!(js(r"a\/b", "a/b"));
    assert!(js(r"^\101$", "A"), "legacy octal");
    assert!(js(r"^\x41\u0042$", "AB"));
    assert!(js(r"^\cJ$", "\n"));
    assert!(js(r"^a{$", "a{"));
    assert!(js(r"^x{1,2}$", "xx"));
    assert!(!js(r"^x{1,2}$", "xxx"));
    assert!(js(r"^a}$", "a}"));
    assert!(js(r"^\8$", "8"));
    assert!(js(r"^\q$", "q"), "identity escape");
}

#[test]
fn groups_and_lookaround() {
    assert!(js(r"^(a)\1$", "aa"));
    assert!(js(r"^(?<n>a)\k<n>$", "aa"));
    assert!(js("(?<=mcp_)tool", "mcp_tool"));
    assert!(!js("(?<!mcp_)tool$", "mcp_tool"));
    assert!(js("^(?:run|read)_", "read_file"));
}

#[test]
fn patterns_javascript_rejects_are_invalid() {
    for p in ["(", "*", "a**", "[b-a]", "\\", "(?<n>a)(?<n>b)"] {
        assert!(matches!(JsRegex::compile(p), Compiled::Invalid(_)), "{p}");
    }
}

#[test]
fn pathological_patterns_end() {
    // Without fancy features the linear engine answers.
    let Compiled::Regex(r) = JsRegex::compile("^(a+)+$") else { panic!("compiles") };
    let subject = format!("{}b", "a".repeat(40));
    assert!(!test(&r, &subject));
    // A backreference forces the backtracker: its budget runs out, which counts as a match.
    let Compiled::Regex(r) = JsRegex::compile(r"^(a|a)+\1$") else { panic!("compiles") };
    assert!(r.is_match(&subject).is_err(), "the budget is exhausted");
    assert!(test(&r, &subject), "an exhausted budget counts as a match");
}

proptest! {
    #[test]
    fn any_pattern_compiles_or_is_reported(p in "[a-z()\\[\\]{}|*+?.^$\\\\dwsb0-9,:<>=!-]{0,24}", s in "[a-z_]{0,12}") {
        match JsRegex::compile(&p) {
            Compiled::Regex(r) => { let _ = test(&r, &s); }
            Compiled::Invalid(_) | Compiled::Unsupported(_) => {}
        }
    }
}
