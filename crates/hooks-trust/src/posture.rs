//! The command-execution posture: whether the run's agent commands auto-approve.

use std::{fmt, str::FromStr};

/// Whether the agent's shell commands run without asking, as read from the active
/// execution profile when the run starts.
///
/// A project hook runs commands without asking too, so a project file is only trusted where
/// commands already auto-approve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CommandExecutionPosture {
    /// Commands run without approval (`AlwaysAllow`).
    AutoApproves,
    /// Commands wait for approval (`AlwaysAsk`, `AgentDecides`).
    RequiresApproval,
    /// Not known: no window to read the profile through, or the run has not started.
    Unknown,
}

impl CommandExecutionPosture {
    /// Every posture, most permissive first.
    pub const ALL: [CommandExecutionPosture; 3] = [
        CommandExecutionPosture::AutoApproves,
        CommandExecutionPosture::Unknown,
        CommandExecutionPosture::RequiresApproval,
    ];

    /// How cautious it is: higher is stricter.
    fn caution(self) -> u8 {
        match self {
            CommandExecutionPosture::AutoApproves => 0,
            CommandExecutionPosture::Unknown => 1,
            CommandExecutionPosture::RequiresApproval => 2,
        }
    }

    /// The more cautious of the two: `RequiresApproval` over `Unknown` over `AutoApproves`.
    #[must_use]
    pub fn strictest(self, other: CommandExecutionPosture) -> CommandExecutionPosture {
        if other.caution() > self.caution() { other } else { self }
    }

    /// Folds several postures (one per open window, say) into the most cautious one; with
    /// none to fold the posture is `Unknown`.
    pub fn strictest_of(
        postures: impl IntoIterator<Item = CommandExecutionPosture>,
    ) -> CommandExecutionPosture {
        postures
            .into_iter()
            .reduce(CommandExecutionPosture::strictest)
            .unwrap_or(CommandExecutionPosture::Unknown)
    }

    /// The snake_case name (`auto_approves`, `requires_approval`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            CommandExecutionPosture::AutoApproves => "auto_approves",
            CommandExecutionPosture::RequiresApproval => "requires_approval",
            CommandExecutionPosture::Unknown => "unknown",
        }
    }
}

impl fmt::Display for CommandExecutionPosture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CommandExecutionPosture {
    type Err = ParseTrustValueError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto_approves" => Ok(CommandExecutionPosture::AutoApproves),
            "requires_approval" => Ok(CommandExecutionPosture::RequiresApproval),
            "unknown" => Ok(CommandExecutionPosture::Unknown),
            other => Err(ParseTrustValueError::Posture { value: other.to_owned() }),
        }
    }
}

/// A surface or posture name that is not one this crate knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTrustValueError {
    /// Not a surface name.
    #[error(
        "unknown surface `{value}` (expected desktop, tui, ide, web, oz_run, cli_run or local_child)"
    )]
    Surface {
        /// The value given.
        value: String,
    },
    /// Not a posture name.
    #[error(
        "unknown command-execution posture `{value}` (expected auto_approves, requires_approval or unknown)"
    )]
    Posture {
        /// The value given.
        value: String,
    },
}

#[cfg(test)]
mod tests;
