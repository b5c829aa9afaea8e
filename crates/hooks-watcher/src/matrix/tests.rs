//! Tests for the watch matrix: every (surface, origin) cell.

use hooks_trust::Surface;

use super::{RootOrigin, watch_matrix};

#[test]
fn every_cell() {
    let mut table = String::new();
    for surface in Surface::ALL {
        let row: Vec<&str> = RootOrigin::ALL
            .iter()
            .map(|&o| if watch_matrix(surface, o) { "watch" } else { "-" })
            .collect();
        table.push_str(&format!("{:<12} {}\n", surface.as_str(), row.join(" ")));
    }
    assert_eq!(
        table,
        "\
desktop      watch - - -
tui          watch - - -
ide          watch - - -
web          watch - - -
oz_run       watch watch - -
cli_run      watch watch - -
local_child  watch - - -
"
    );
}

#[test]
fn terminal_navigation_is_watched_everywhere() {
    assert!(Surface::ALL.iter().all(|&s| watch_matrix(s, RootOrigin::TerminalNavigation)));
}

#[test]
fn cloud_prepared_roots_only_on_headless_runs() {
    assert!(watch_matrix(Surface::OzRun, RootOrigin::CloudPrepared));
    assert!(watch_matrix(Surface::CliRun, RootOrigin::CloudPrepared));
    assert!(!watch_matrix(Surface::Desktop, RootOrigin::CloudPrepared));
    assert!(!watch_matrix(Surface::LocalChild, RootOrigin::CloudPrepared));
}

#[test]
fn indexing_and_code_review_never() {
    for s in Surface::ALL {
        assert!(!watch_matrix(s, RootOrigin::ProjectRulesIndexing));
        assert!(!watch_matrix(s, RootOrigin::CodeReview));
    }
}
