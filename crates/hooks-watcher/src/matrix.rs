//! Which detected project roots a surface watches.

use hooks_trust::Surface;

#[cfg(test)]
mod tests;

/// How the embedder found a project root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RootOrigin {
    /// A terminal session navigated into it (the agent's session is there).
    TerminalNavigation,
    /// The cloud run prepared it before the agent started (a checkout in the sandbox).
    CloudPrepared,
    /// Project-rules indexing found it; the agent's session is not there.
    ProjectRulesIndexing,
    /// Code review initialization found it; the agent's session is not there.
    CodeReview,
}

impl RootOrigin {
    /// Every origin.
    pub const ALL: [RootOrigin; 4] = [
        RootOrigin::TerminalNavigation,
        RootOrigin::CloudPrepared,
        RootOrigin::ProjectRulesIndexing,
        RootOrigin::CodeReview,
    ];
}

/// Whether a root found by `origin` is handed to the watcher on `surface`.
///
/// Roots found by terminal navigation are watched on every surface; roots a cloud run prepared
/// only on the cloud and command-line runs (the runs that prepare them); roots found by
/// project-rules indexing or code review never, since they are not where the agent's session
/// is. Written without wildcard arms so a new surface or origin needs a decision.
pub fn watch_matrix(surface: Surface, origin: RootOrigin) -> bool {
    match origin {
        RootOrigin::TerminalNavigation => true,
        RootOrigin::CloudPrepared => match surface {
            Surface::OzRun | Surface::CliRun => true,
            Surface::Desktop | Surface::Tui | Surface::Ide | Surface::Web | Surface::LocalChild => {
                false
            }
        },
        RootOrigin::ProjectRulesIndexing | RootOrigin::CodeReview => false,
    }
}
