//! The outcome of a trust decision, as the registry stores it.

/// Whether a source's hooks may run, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TrustDecision {
    /// Its hooks run.
    Active {
        /// Why (shown by `hooks list`).
        reason: String,
    },
    /// Its hooks are loaded and protected but never run.
    Inert {
        /// Why (shown in diagnostics and by `hooks list`).
        reason: String,
    },
}

impl TrustDecision {
    /// Whether the hooks run.
    pub fn is_active(&self) -> bool {
        matches!(self, TrustDecision::Active { .. })
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        match self {
            TrustDecision::Active { reason } | TrustDecision::Inert { reason } => reason,
        }
    }
}
