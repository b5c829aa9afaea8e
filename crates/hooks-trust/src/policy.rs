//! The trust table: [`TrustPolicy`], [`StaticTrustPolicy`] and [`DenyAllTrustPolicy`].

use std::{fmt, path::Path};

use hooks_schema::{AbsPathBuf, HookSourceKind, ParsedSource, SourceOwner, TrustDecision};

use crate::{CommandExecutionPosture, Surface};

/// Everything besides the source kind that a trust decision depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrustInputs {
    /// The surface the process fires hook boundaries from.
    pub surface: Surface,
    /// The run's command-execution posture (`Unknown` until the run starts).
    pub posture: CommandExecutionPosture,
    /// The user's opt-in to project hooks (Chrys's `project.hooks_enabled`): the user's own
    /// settings enable project hooks on interactive surfaces. Default off. It must come from
    /// user-owned settings; a project file can never set it. (A repository's Chrys file needs
    /// it on every surface: the registry holds it back otherwise, after this table.)
    pub user_enables_project_hooks: bool,
    /// Strict mode (the deny-only rule): project scopes never activate, whatever else holds.
    pub strict_project_scopes: bool,
}

impl TrustInputs {
    /// Inputs for `surface` and `posture` with both switches off.
    pub fn new(surface: Surface, posture: CommandExecutionPosture) -> TrustInputs {
        TrustInputs {
            surface,
            posture,
            user_enables_project_hooks: false,
            strict_project_scopes: false,
        }
    }

    /// The same inputs with the Chrys opt-in set to `enabled`.
    #[must_use]
    pub fn with_user_project_hooks(mut self, enabled: bool) -> TrustInputs {
        self.user_enables_project_hooks = enabled;
        self
    }

    /// The same inputs with strict mode set to `strict`.
    #[must_use]
    pub fn with_strict_project_scopes(mut self, strict: bool) -> TrustInputs {
        self.strict_project_scopes = strict;
        self
    }
}

/// A hook file as a loader just read it, for a policy that decides on its content as well as
/// its kind ([`TrustPolicy::decide_file`]).
#[derive(Debug, Clone, Copy)]
pub struct FileRead<'a> {
    /// The kind it is loaded as.
    pub kind: HookSourceKind,
    /// Its path as found.
    pub path: &'a Path,
    /// The project root it is loaded under (`None` outside every project).
    pub project_root: Option<&'a AbsPathBuf>,
    /// Exactly the bytes that were parsed.
    pub bytes: &'a [u8],
    /// Their parse.
    pub parsed: &'a ParsedSource,
}

/// Decides whether a source of a given kind may run.
pub trait TrustPolicy: Send + Sync {
    /// The decision for a source of `kind` under `inputs`, with its reason.
    fn decide(&self, kind: HookSourceKind, inputs: &TrustInputs) -> TrustDecision;

    /// The decision for one hook file as just read (its bytes and their parse); the loaders
    /// and the watcher call it for every file that parsed. By default the kind's decision. A
    /// policy that also consults the user's trust store overrides it (`hooks-app`'s
    /// `StoreGatedPolicy`; `specs/trust-and-sources.md`, "The trust store as a gate"). It
    /// must never activate what [`TrustPolicy::decide`] keeps inert for the kind.
    fn decide_file(&self, file: &FileRead<'_>, inputs: &TrustInputs) -> TrustDecision {
        self.decide(file.kind, inputs)
    }

    /// Whether [`TrustPolicy::decide_file`] may differ from [`TrustPolicy::decide`] for files
    /// of `kind`: the watcher then reads such a file again to decide it anew when the inputs
    /// change. By default never.
    fn reads_files_of(&self, kind: HookSourceKind) -> bool {
        let _ = kind;
        false
    }
}

/// The production table (see the crate documentation for the rule).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StaticTrustPolicy;

/// A policy under which nothing runs, for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DenyAllTrustPolicy;

/// The decision the explicit-source loader stores without consulting a policy: explicit
/// sources are named by whoever started the run and always activate. It is the same
/// decision [`StaticTrustPolicy`] gives for explicit kinds.
pub fn explicit_source_decision(kind: HookSourceKind) -> TrustDecision {
    TrustDecision::Active { reason: Rule::ExplicitSource { kind }.to_string() }
}

impl TrustPolicy for StaticTrustPolicy {
    fn decide(&self, kind: HookSourceKind, inputs: &TrustInputs) -> TrustDecision {
        let rule = table(kind, inputs);
        let reason = rule.to_string();
        if rule.activates() {
            TrustDecision::Active { reason }
        } else {
            TrustDecision::Inert { reason }
        }
    }
}

impl TrustPolicy for DenyAllTrustPolicy {
    fn decide(&self, kind: HookSourceKind, _inputs: &TrustInputs) -> TrustDecision {
        TrustDecision::Inert {
            reason: format!("inert: the deny-all test policy keeps every source inert ({kind})"),
        }
    }
}

/// One row of the table: which rule decided, with what it needs for its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    ExplicitSource { kind: HookSourceKind },
    Managed { kind: HookSourceKind },
    UserOwned { kind: HookSourceKind },
    ProjectStrict,
    ProjectHeadlessAutoApproves { surface: Surface },
    ProjectHeadlessRequiresApproval { surface: Surface },
    ProjectHeadlessUnknown { surface: Surface },
    ProjectInteractiveOptIn { surface: Surface },
    ProjectInteractiveOff { surface: Surface },
    ProjectLocalChild,
}

impl Rule {
    fn activates(self) -> bool {
        match self {
            Rule::ExplicitSource { .. }
            | Rule::Managed { .. }
            | Rule::UserOwned { .. }
            | Rule::ProjectHeadlessAutoApproves { .. }
            | Rule::ProjectInteractiveOptIn { .. } => true,
            Rule::ProjectStrict
            | Rule::ProjectHeadlessRequiresApproval { .. }
            | Rule::ProjectHeadlessUnknown { .. }
            | Rule::ProjectInteractiveOff { .. }
            | Rule::ProjectLocalChild => false,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::ExplicitSource { kind } => write!(
                f,
                "active: {kind} is named explicitly by whoever started the run, and explicit sources run on every surface"
            ),
            Rule::Managed { kind } => write!(
                f,
                "active: {kind} is installed by an administrator, and managed files run on every surface"
            ),
            Rule::UserOwned { kind } => {
                write!(f, "active: {kind} is the user's own file, and user files run on every surface")
            }
            Rule::ProjectStrict => f.write_str(
                "inert: strict mode is on, and project hook files never run in strict mode (only user-owned scopes define hooks)",
            ),
            Rule::ProjectHeadlessAutoApproves { surface } => write!(
                f,
                "active: {} auto-approves commands, so the repository's hook file may run commands as the agent already does",
                surface.describe()
            ),
            Rule::ProjectHeadlessRequiresApproval { surface } => write!(
                f,
                "inert: {} asks before running commands, and a project hook would run commands without asking",
                surface.describe()
            ),
            Rule::ProjectHeadlessUnknown { surface } => write!(
                f,
                "inert: whether {} auto-approves commands is not known (it is read when the run starts)",
                surface.describe()
            ),
            Rule::ProjectInteractiveOptIn { surface } => write!(
                f,
                "active: the user's own settings enable project hooks (project.hooks_enabled), so project hook files run on {}",
                surface.describe()
            ),
            Rule::ProjectInteractiveOff { surface } => write!(
                f,
                "inert: project hook files do not run on {} unless the user's own settings enable project hooks (project.hooks_enabled)",
                surface.describe()
            ),
            Rule::ProjectLocalChild => f.write_str(
                "inert: a local child process inherits its hooks from the run that started it and does not trust project files it finds",
            ),
        }
    }
}

/// The table. Every dimension is spelled out in each arm, with no wildcard and no binding,
/// so a new surface, owner or posture does not compile until it has a row.
fn table(kind: HookSourceKind, inputs: &TrustInputs) -> Rule {
    use CommandExecutionPosture::{AutoApproves, RequiresApproval, Unknown};
    use SourceOwner::{Explicit, Managed, Project, User};
    use Surface::{CliRun, Desktop, Ide, LocalChild, OzRun, Tui, Web};

    let TrustInputs { surface, posture, user_enables_project_hooks, strict_project_scopes } =
        *inputs;
    match (kind.owner(), surface, posture, user_enables_project_hooks, strict_project_scopes) {
        (
            Explicit,
            Desktop | Tui | Ide | Web | OzRun | CliRun | LocalChild,
            AutoApproves | RequiresApproval | Unknown,
            false | true,
            false | true,
        ) => Rule::ExplicitSource { kind },
        (
            Managed,
            Desktop | Tui | Ide | Web | OzRun | CliRun | LocalChild,
            AutoApproves | RequiresApproval | Unknown,
            false | true,
            false | true,
        ) => Rule::Managed { kind },
        (
            User,
            Desktop | Tui | Ide | Web | OzRun | CliRun | LocalChild,
            AutoApproves | RequiresApproval | Unknown,
            false | true,
            false | true,
        ) => Rule::UserOwned { kind },
        (
            Project,
            Desktop | Tui | Ide | Web | OzRun | CliRun | LocalChild,
            AutoApproves | RequiresApproval | Unknown,
            false | true,
            true,
        ) => Rule::ProjectStrict,
        (Project, OzRun | CliRun, AutoApproves, false | true, false) => {
            Rule::ProjectHeadlessAutoApproves { surface }
        }
        (Project, OzRun | CliRun, RequiresApproval, false | true, false) => {
            Rule::ProjectHeadlessRequiresApproval { surface }
        }
        (Project, OzRun | CliRun, Unknown, false | true, false) => {
            Rule::ProjectHeadlessUnknown { surface }
        }
        (
            Project,
            Desktop | Tui | Ide | Web,
            AutoApproves | RequiresApproval | Unknown,
            true,
            false,
        ) => Rule::ProjectInteractiveOptIn { surface },
        (
            Project,
            Desktop | Tui | Ide | Web,
            AutoApproves | RequiresApproval | Unknown,
            false,
            false,
        ) => Rule::ProjectInteractiveOff { surface },
        (Project, LocalChild, AutoApproves | RequiresApproval | Unknown, false | true, false) => {
            Rule::ProjectLocalChild
        }
    }
}

#[cfg(test)]
mod tests;
