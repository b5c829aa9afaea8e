//! Bindings: a definition placed where it applies, as the registry hands it to the dispatcher.

use std::sync::Arc;

use crate::{AbsPathBuf, HookDefinition, HookSourceId, Provenance};

/// One runnable definition with where it came from and where it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// The source it came from (the kind decides precedence).
    pub source: HookSourceId,
    /// The definition.
    pub definition: Arc<HookDefinition>,
    /// The directory its hooks run in: the project root for a project file (or the folder
    /// of the project it was placed at, below the root), the source file's folder (or the
    /// format's documented directory) otherwise.
    pub working_dir: AbsPathBuf,
    /// Its project directory: the project root it is scoped to, or for a file its agent
    /// reads in a session's subfolder that folder; `None` for sources that apply
    /// everywhere.
    pub project_root: Option<AbsPathBuf>,
}

impl Binding {
    /// Which hook this is, for verdicts and diagnostics.
    pub fn provenance(&self) -> Provenance {
        Provenance {
            hook_id: self.definition.id.clone(),
            source: self.source.clone(),
            line: self.definition.line,
        }
    }
}
