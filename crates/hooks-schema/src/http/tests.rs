//! Header interpolation and URL redaction.

use super::*;

fn env(name: &str) -> Option<String> {
    match name {
        "MY_TOKEN" => Some("tok123".to_owned()),
        "NOT_ALLOWED" => Some("secret".to_owned()),
        "EVIL" => Some("a\r\nX-Injected: 1\0".to_owned()),
        _ => None,
    }
}

fn allowed(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn allowed_variables_interpolate_bare_and_braced_and_others_read_as_empty() {
    // The cases Claude Code 2.1.328 was seen to send (specs/formats/claude.md).
    let a = allowed(&["MY_TOKEN"]);
    assert_eq!(interpolate("Bearer $MY_TOKEN", &a, env), "Bearer tok123");
    assert_eq!(interpolate("${MY_TOKEN}", &a, env), "tok123");
    assert_eq!(interpolate("v=$NOT_ALLOWED", &a, env), "v=");
    assert_eq!(interpolate("v=${NOT_ALLOWED}!", &a, env), "v=!");
    // Listed but unset: empty.
    assert_eq!(interpolate("[$UNSET_X]", &allowed(&["UNSET_X"]), env), "[]");
}

#[test]
fn only_uppercase_names_are_variables_and_a_lone_dollar_stays() {
    let a = allowed(&["MY_TOKEN"]);
    assert_eq!(interpolate("$my_token", &a, env), "$my_token");
    assert_eq!(interpolate("cost: 5$", &a, env), "cost: 5$");
    assert_eq!(interpolate("$1MY_TOKEN", &a, env), "$1MY_TOKEN");
    assert_eq!(interpolate("${MY_TOKEN", &a, env), "${MY_TOKEN");
    assert_eq!(interpolate("${my}", &a, env), "${my}");
    assert_eq!(interpolate("$$MY_TOKEN", &a, env), "$tok123");
    // A name ends at the first character that cannot be in one.
    assert_eq!(interpolate("$MY_TOKEN-x", &a, env), "tok123-x");
    assert_eq!(interpolate("é$MY_TOKENé", &a, env), "étok123é");
}

#[test]
fn line_breaks_and_nul_never_reach_a_header() {
    let a = allowed(&["EVIL"]);
    assert_eq!(interpolate("v=$EVIL", &a, env), "v=aX-Injected: 1");
    assert_eq!(interpolate("a\nb", &a, env), "ab");
}

#[test]
fn computed_headers_are_dropped_and_references_are_listed_once() {
    let hook = HttpHook {
        url: "http://127.0.0.1:1/h".to_owned(),
        headers: vec![
            ("Content-Length".to_owned(), "5".to_owned()),
            (" transfer-encoding".to_owned(), "chunked".to_owned()),
            ("X-A".to_owned(), "$MY_TOKEN $NOT_ALLOWED ${MY_TOKEN}".to_owned()),
        ],
        allowed_env_vars: allowed(&["MY_TOKEN"]),
    };
    assert_eq!(hook.header_values(env), vec![("X-A".to_owned(), "tok123  tok123".to_owned())]);
    assert_eq!(
        hook.referenced_vars(),
        vec![("MY_TOKEN".to_owned(), true), ("NOT_ALLOWED".to_owned(), false)]
    );
}

#[test]
fn urls_lose_credentials_and_queries_when_redacted() {
    assert_eq!(redact_url("http://u:p@h:1/p?q=1#f"), "http://…@h:1/p?…");
    assert_eq!(redact_url("http://h/p#frag"), "http://h/p#…");
    assert_eq!(redact_url("http://h"), "http://h");
    assert_eq!(redact_url("not a url"), "not a url");
    assert_eq!(redact_url(""), "");
}

proptest::proptest! {
    #[test]
    fn interpolation_never_panics_and_never_yields_line_breaks(t in "\\PC*", v in "\\PC*") {
        let a = allowed(&["A", "B_1"]);
        let out = interpolate(&t, &a, |_| Some(v.clone()));
        proptest::prop_assert!(!out.contains(['\r', '\n', '\0']));
        let _ = redact_url(&t);
    }

    #[test]
    fn text_without_a_dollar_is_kept(t in "[^$\r\n\0]*") {
        proptest::prop_assert_eq!(interpolate(&t, &[], |_| None), t);
    }
}
