//! Where a hook's command looks for the files it names: the directory it runs in and the
//! directories its format's variables stand for. The registry's script analysis reads it
//! through [`crate::HookCodec::launch`] to protect the copy of a script that would run.

use std::path::PathBuf;

/// A directory a hook's launch depends on, as its format defines it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LaunchDir {
    /// The directory the registry places the source in: the project root for a project
    /// file, the file's folder otherwise ([`crate::EncodeContext::working_dir`]).
    Placement,
    /// The project root the firing belongs to, or the placement outside every project
    /// (`EncodeContext::project_dir`, falling back to the working directory).
    Project,
    /// The session's working directory (the envelope's `cwd`), or the placement without one.
    Session,
    /// The user's configuration directory ([`crate::EncodeContext::config_dir`]).
    Config,
    /// An absolute directory.
    Fixed(PathBuf),
    /// A directory under another one (`${workspace_cwd}/tools`).
    Under(Box<LaunchDir>, PathBuf),
    /// A directory the format cannot name before the hook runs.
    Unknown,
}

impl LaunchDir {
    /// The directory a hook whose own working directory is `cwd` runs in, for a format that
    /// takes an absolute `cwd` as it is and a relative one under `base` (`base` itself
    /// without one).
    ///
    /// ```
    /// use hooks_schema::LaunchDir;
    ///
    /// assert_eq!(LaunchDir::with_cwd(LaunchDir::Project, None), LaunchDir::Project);
    /// assert_eq!(LaunchDir::with_cwd(LaunchDir::Project, Some("/opt")), LaunchDir::Fixed("/opt".into()));
    /// assert_eq!(
    ///     LaunchDir::with_cwd(LaunchDir::Session, Some("tools")),
    ///     LaunchDir::Under(Box::new(LaunchDir::Session), "tools".into())
    /// );
    /// ```
    pub fn with_cwd(base: LaunchDir, cwd: Option<&str>) -> LaunchDir {
        match cwd {
            Some(c) if std::path::Path::new(c).is_absolute() => LaunchDir::Fixed(c.into()),
            Some(c) => LaunchDir::Under(Box::new(base), c.into()),
            None => base,
        }
    }
}

/// Where a hook's command runs and what the variables its format sets for it stand for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HookLaunch {
    /// The directory the command runs in: relative paths in the command start there.
    pub run_dir: LaunchDir,
    /// Environment variables the format sets for the hook whose values are directories
    /// (Claude Code's `CLAUDE_PROJECT_DIR`), by name.
    pub dir_vars: Vec<(String, LaunchDir)>,
    /// Text the codec substitutes at the start of an argument of an argument vector
    /// (Claude Code's `${CLAUDE_PROJECT_DIR}` in `args`), and the directory it becomes.
    pub argv_templates: Vec<(String, LaunchDir)>,
    /// Files the agent reads to complete the hook's command before it runs it, each relative
    /// to a directory (Gemini CLI fills an extension hook's `${NAME}` from the workspace's
    /// `.env`): the guard protects them as it protects what the command loads.
    pub reads: Vec<(String, LaunchDir)>,
    /// Files the agent loads into the environment of every hook it runs, each looked for
    /// relative to a directory and in each folder above it, the first found winning (Gemini
    /// CLI's `.gemini/.env` and `.env` from the session's folder up), or under the home when
    /// it starts with `~/` (`~/.gemini/.env`): a variable there (`NODE_OPTIONS`,
    /// `LD_PRELOAD`, `BASH_ENV`) loads code into every hook. The guard protects them where
    /// they would be found, existing or not, without pinning them.
    pub environment: Vec<(String, LaunchDir)>,
}

impl Default for HookLaunch {
    /// Runs in the placement and sets no directory variable.
    fn default() -> HookLaunch {
        HookLaunch {
            run_dir: LaunchDir::Placement,
            dir_vars: Vec::new(),
            argv_templates: Vec::new(),
            reads: Vec::new(),
            environment: Vec::new(),
        }
    }
}

impl HookLaunch {
    /// What the variable `name` stands for, when the format sets it.
    pub fn var(&self, name: &str) -> Option<&LaunchDir> {
        self.dir_vars.iter().rev().find(|(n, _)| n == name).map(|(_, d)| d)
    }
}
