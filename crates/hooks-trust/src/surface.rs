//! The surface a process fires hook boundaries from.

use std::{fmt, str::FromStr};

use crate::ParseTrustValueError;

/// Where the agent runs, which decides how much a repository's own hook file is trusted.
///
/// Four interactive surfaces, where a person is driving the session and sees what it does,
/// and three headless ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Surface {
    /// The desktop application (a GUI window with terminal panes and agent conversations).
    Desktop,
    /// A terminal user interface (`chrys` in a terminal, a TUI agent session).
    Tui,
    /// An editor integration (an IDE extension, an ACP client such as `chrys acp`).
    Ide,
    /// A browser session.
    Web,
    /// A cloud run inside its sandbox (the seed's Oz run), including a pre-warmed sandbox.
    OzRun,
    /// A headless command-line run on the user's machine (`agent run`, `chrys run`).
    CliRun,
    /// A child process started locally by another run (a sub-agent, a helper); it inherits
    /// its hooks from the parent instead of trusting files it finds.
    LocalChild,
}

impl Surface {
    /// Every surface, interactive ones first.
    pub const ALL: [Surface; 7] = [
        Surface::Desktop,
        Surface::Tui,
        Surface::Ide,
        Surface::Web,
        Surface::OzRun,
        Surface::CliRun,
        Surface::LocalChild,
    ];

    /// Whether a person drives the session on this surface.
    pub fn is_interactive(self) -> bool {
        match self {
            Surface::Desktop | Surface::Tui | Surface::Ide | Surface::Web => true,
            Surface::OzRun | Surface::CliRun | Surface::LocalChild => false,
        }
    }

    /// The snake_case name (`desktop`, `tui`, `ide`, `web`, `oz_run`, `cli_run`, `local_child`).
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Desktop => "desktop",
            Surface::Tui => "tui",
            Surface::Ide => "ide",
            Surface::Web => "web",
            Surface::OzRun => "oz_run",
            Surface::CliRun => "cli_run",
            Surface::LocalChild => "local_child",
        }
    }

    /// A short description used in trust reasons.
    pub fn describe(self) -> &'static str {
        match self {
            Surface::Desktop => "the desktop app",
            Surface::Tui => "the terminal interface",
            Surface::Ide => "an editor integration",
            Surface::Web => "a browser session",
            Surface::OzRun => "a cloud run",
            Surface::CliRun => "a command-line run",
            Surface::LocalChild => "a local child process",
        }
    }
}

impl fmt::Display for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Surface {
    type Err = ParseTrustValueError;

    /// Parses the snake_case name; `terminal` is accepted for [`Surface::Tui`] and `cloud`
    /// for [`Surface::OzRun`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "desktop" => Ok(Surface::Desktop),
            "tui" | "terminal" => Ok(Surface::Tui),
            "ide" => Ok(Surface::Ide),
            "web" => Ok(Surface::Web),
            "oz_run" | "cloud" => Ok(Surface::OzRun),
            "cli_run" | "cli" => Ok(Surface::CliRun),
            "local_child" => Ok(Surface::LocalChild),
            other => Err(ParseTrustValueError::Surface { value: other.to_owned() }),
        }
    }
}
