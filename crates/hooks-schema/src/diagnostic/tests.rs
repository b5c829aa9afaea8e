//! Tests of diagnostic rendering.

use super::*;

#[test]
fn display_shows_file_line_column_severity_and_message() {
    let d = HookDiagnostic::error("unknown key `x`").in_file("/r/.cursor/hooks.json").at(3, 7);
    assert_eq!(d.to_string(), "/r/.cursor/hooks.json:3:7: error: unknown key `x`");
    assert_eq!(HookDiagnostic::warning("w").at(2, 1).to_string(), "line 2: warning: w");
    assert_eq!(HookDiagnostic::info("i").to_string(), "info: i");
    assert!(d.is_error());
    let j = serde_json::to_value(
        HookDiagnostic::warning("w").with_code("capability_gap").for_hook("h"),
    )
    .unwrap();
    assert_eq!(
        j,
        serde_json::json!({"severity": "warning", "message": "w", "code": "capability_gap", "hook_id": "h"})
    );
}

#[test]
fn quoted_values_are_left_out_of_the_message_and_kept_in_the_detail() {
    use crate::quoted_value;
    let d = HookDiagnostic::warning(format!(
        "a is {} and b is {}",
        quoted_value("str", "'s3cr3t'"),
        quoted_value("int", "42")
    ));
    assert_eq!(d.message, "a is <str> and b is <int>");
    assert_eq!(d.text(true), "a is 's3cr3t' and b is 42");
    assert_eq!(d.text(false), "a is <str> and b is <int>");
    assert_eq!(d.to_string(), "warning: a is <str> and b is <int>");
    assert!(!serde_json::to_string(&d).unwrap().contains("s3cr3t"));
    assert_eq!(d.clone().revealed(true).message, "a is 's3cr3t' and b is 42");
    // A value carrying the markers cannot end its quote early and leak the rest.
    let hostile = "x\u{e002}s3cr3t\u{e000}y\u{e001}z";
    let d = HookDiagnostic::error(format!("got {}", quoted_value("str", hostile)));
    assert_eq!(d.message, "got <str>");
    assert!(!d.message.contains("s3cr3t"));
    // Nothing quoted: no detail.
    assert!(HookDiagnostic::info("plain").detail.is_none());
}
