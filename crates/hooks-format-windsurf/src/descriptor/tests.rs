//! Tests of the descriptor: claims against Cursor's look-alike `hooks.json`, locations and
//! events.

use std::path::Path;

use hooks_schema::{Claim, FileScope, FormatDescriptor, HookEvent};

use super::*;

#[test]
fn claims_and_locations() {
    let f = WindsurfFormat;
    for p in
        ["/r/.windsurf/hooks.json", "/h/.codeium/windsurf/hooks.json", "/etc/windsurf/hooks.json"]
    {
        assert_eq!(f.claim(Path::new(p)), Claim::Path, "{p}");
    }
    for p in ["/r/.cursor/hooks.json", "/r/.windsurf/settings.json", "/r/hooks.json"] {
        assert_eq!(f.claim(Path::new(p)), Claim::No, "{p}");
    }
    assert_eq!(
        f.claim_content(br#"{"hooks": {"pre_run_command": [{"command": "a"}]}}"#),
        Claim::Name
    );
    assert_eq!(
        f.claim_content(br#"{"version": 1, "hooks": {"preToolUse": [{"command": "a"}]}}"#),
        Claim::No
    );
    let project: Vec<_> = f
        .locations()
        .iter()
        .filter(|l| l.scope == FileScope::Project)
        .map(|l| l.pattern.file_names())
        .collect();
    assert_eq!(project, [vec!["hooks.json"]]);
    assert_eq!(f.dirs().user.map(|u| u.under_home), Some(".codeium/windsurf"));
    assert_eq!(f.events().len(), 12);
    assert_eq!(
        f.native_events(HookEvent::PreToolUse),
        ["pre_read_code", "pre_write_code", "pre_run_command", "pre_mcp_tool_use"]
    );
    assert_eq!(f.canonical_event("post_setup_worktree"), None);
    assert!(f.host().is_some());
}
