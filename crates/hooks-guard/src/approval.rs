//! Where the guard sits in an edit's approval: before every auto-approval shortcut, in every
//! mode.

use std::path::Path;

use crate::{GuardDecision, ProtectedSet};

#[cfg(test)]
mod tests;

/// The mode an agent file edit is requested in. None of it changes the guard's decision: the
/// fields only decide what happens to an edit the guard allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EditContext {
    /// The run is sandboxed. Other checks exempt sandboxed runs (the MCP configuration
    /// check does); this one deliberately does not, since a hook file written inside the
    /// sandbox still governs the agent running there.
    pub sandboxed: bool,
    /// The active profile auto-approves file writes.
    pub auto_approve_writes: bool,
    /// The conversation auto-approves every action.
    pub conversation_auto_approves_all: bool,
}

impl EditContext {
    /// Whether an allowed edit is applied without asking: the profile auto-approves writes
    /// or the conversation auto-approves everything. Sandboxing alone asks as usual.
    pub fn auto_approves(&self) -> bool {
        self.auto_approve_writes || self.conversation_auto_approves_all
    }
}

/// What to do with an agent file edit.
#[derive(Debug, Clone, PartialEq)]
pub enum EditApproval {
    /// Apply it without asking: no path is protected and the context auto-approves.
    AutoApply,
    /// Ask the user as usual: no path is protected and the context does not auto-approve.
    AskUser,
    /// The guard refused to let it through: a path is protected (or could not be resolved).
    /// It is never applied without the user's explicit confirmation, in any mode; a run with
    /// nobody to ask does not apply it.
    Guarded(GuardDecision),
}

/// Decides an agent file edit: the guard first, then the auto-approval shortcut.
pub fn approve_edit<P: AsRef<Path>>(
    set: &ProtectedSet,
    paths: &[P],
    session_cwd: &Path,
    context: EditContext,
) -> EditApproval {
    let decision = set.check(paths, session_cwd);
    if !decision.is_allowed() {
        return EditApproval::Guarded(decision);
    }
    if context.auto_approves() { EditApproval::AutoApply } else { EditApproval::AskUser }
}
