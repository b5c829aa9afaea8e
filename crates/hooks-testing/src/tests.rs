//! The workspace's formats hold together: their kinds are in precedence order and their
//! descriptors register as one set.

use super::*;

#[test]
fn workspace_kinds_are_in_strict_precedence_order_with_the_seeds_names() {
    let names: Vec<String> = WORKSPACE_KINDS.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        [
            "factory_agent",
            "factory_wide",
            "run_delivered",
            "managed_cursor_file",
            "managed_claude_settings",
            "project_cursor_file",
            "project_chrys_file",
            "project_claude_local_settings",
            "project_claude_settings",
            "user_cursor_file",
            "user_chrys_file",
            "user_claude_settings",
        ]
    );
    assert!(WORKSPACE_KINDS.windows(2).all(|w| w[0].priority() < w[1].priority()));
}

#[test]
fn the_workspace_formats_register_as_one_set() {
    let set = workspace_formats();
    let ids: Vec<&str> = set.iter().map(|f| f.id().as_str()).collect();
    assert_eq!(ids, ["cursor", "chrys", "claude"]);
}
