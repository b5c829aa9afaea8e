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
