//! Test fixture: a real temporary tree with a project, its hook file, a script, and symlinks
//! and a hard link that reach them.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::Arc,
};

use hooks_registry::{HookRegistry, RegistrySnapshot, SourceUpdate};
use hooks_schema::{AbsPathBuf, HookDefinition, HookSourceId, ParsedSource, TrustDecision};

use crate::{EditContext, ProtectedEntry, ProtectedRole, ProtectedSet, resolve::canonicalize};

/// The tree:
///
/// ```text
/// <root>/proj/.cursor/hooks.json      hook file of `source`
/// <root>/proj/.cursor/notes.md        beside it
/// <root>/proj/hooks/check.sh          script named by a hook of `source`
/// <root>/proj/hooks/other.sh          beside it
/// <root>/proj/src/main.rs             an ordinary file
/// <root>/link_proj      -> proj
/// <root>/link_cursor    -> proj/.cursor
/// <root>/link_hooks.json -> proj/.cursor/hooks.json
/// <root>/hard.json      hard link to proj/.cursor/hooks.json
/// ```
pub(crate) struct Tree {
    _dir: tempfile::TempDir,
    /// The canonical root.
    pub(crate) root: PathBuf,
    /// The session's working directory: `<root>/proj`.
    pub(crate) cwd: PathBuf,
    /// The hook file.
    pub(crate) hook_file: AbsPathBuf,
    /// The script.
    pub(crate) script: AbsPathBuf,
    /// The source of both.
    pub(crate) source: HookSourceId,
}

impl Tree {
    pub(crate) fn new() -> Tree {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = canonicalize(dir.path()).expect("canonical temp dir").into_path_buf();
        let proj = root.join("proj");
        for folder in [".cursor", "hooks", "src"] {
            fs::create_dir_all(proj.join(folder)).expect("create folder");
        }
        fs::write(proj.join(".cursor/hooks.json"), r#"{"version":1,"hooks":{}}"#).expect("write");
        fs::write(proj.join(".cursor/notes.md"), "notes").expect("write");
        fs::write(proj.join("hooks/check.sh"), "#!/bin/sh\n").expect("write");
        fs::write(proj.join("hooks/other.sh"), "#!/bin/sh\n").expect("write");
        fs::write(proj.join("src/main.rs"), "fn main() {}\n").expect("write");
        symlink(&proj, &root.join("link_proj"));
        symlink(&proj.join(".cursor"), &root.join("link_cursor"));
        symlink(&proj.join(".cursor/hooks.json"), &root.join("link_hooks.json"));
        fs::hard_link(proj.join(".cursor/hooks.json"), root.join("hard.json")).expect("hard link");
        let hook_file = AbsPathBuf::new(proj.join(".cursor/hooks.json")).expect("absolute");
        let script = AbsPathBuf::new(proj.join("hooks/check.sh")).expect("absolute");
        let source =
            HookSourceId::new(hooks_testing::kinds::PROJECT_CURSOR_FILE, hook_file.clone());
        Tree { _dir: dir, root, cwd: proj, hook_file, script, source }
    }

    /// The protected entries a registry lists for this tree.
    pub(crate) fn entries(&self) -> Vec<ProtectedEntry> {
        vec![
            ProtectedEntry {
                path: self.hook_file.clone(),
                source: self.source.clone(),
                role: ProtectedRole::HookFile,
            },
            ProtectedEntry {
                path: self.script.clone(),
                source: self.source.clone(),
                role: ProtectedRole::Script,
            },
        ]
    }

    /// A registry snapshot with the project's hook file loaded: one hook runs
    /// `./hooks/check.sh --strict`, one `bash hooks/check.sh`, one `cowsay` (which names no
    /// file).
    pub(crate) fn snapshot(&self) -> Arc<RegistrySnapshot> {
        self.snapshot_with(true)
    }

    /// [`Tree::snapshot`] from a registry that computes the hooks' protection or not
    /// (`HookRegistry::set_protection`).
    pub(crate) fn snapshot_with(&self, protection: bool) -> Arc<RegistrySnapshot> {
        let mut registry = HookRegistry::new();
        registry.set_protection(protection);
        let definitions = vec![
            definition("strict", 0, "./hooks/check.sh --strict"),
            definition("bash", 1, "bash hooks/check.sh"),
            definition("cowsay", 2, "cowsay --check ."),
        ];
        registry.upsert_source(SourceUpdate {
            source: self.source.clone(),
            parsed: Ok(ParsedSource { definitions, ..ParsedSource::default() }),
            project_root: Some(AbsPathBuf::new(self.cwd.clone()).expect("absolute")),
            project_dir: None,
            trust: TrustDecision::Inert { reason: "test".to_owned() },
        });
        registry.snapshot()
    }

    /// The protected set of [`Tree::snapshot`].
    pub(crate) fn set(&self) -> ProtectedSet {
        ProtectedSet::from_snapshot(&self.snapshot())
    }

    /// `<root>/<rel>` as a path.
    pub(crate) fn at(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

#[cfg(unix)]
pub(crate) fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[cfg(windows)]
pub(crate) fn symlink(target: &Path, link: &Path) {
    let made = if target.is_dir() {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    };
    made.expect("symlink");
}

/// The modes every scenario runs in: a sandboxed run, a profile that auto-approves writes,
/// and a conversation that auto-approves every action.
pub(crate) const MODES: [(&str, EditContext); 3] = [
    (
        "sandboxed run",
        EditContext {
            sandboxed: true,
            auto_approve_writes: true,
            conversation_auto_approves_all: false,
        },
    ),
    (
        "auto-approving writes",
        EditContext {
            sandboxed: false,
            auto_approve_writes: true,
            conversation_auto_approves_all: false,
        },
    ),
    (
        "conversation auto-approves all",
        EditContext {
            sandboxed: false,
            auto_approve_writes: false,
            conversation_auto_approves_all: true,
        },
    ),
];

/// A pre-tool-use shell hook running `command` (the shared inert test codec: it never runs
/// here).
fn definition(id: &str, order: u32, command: &str) -> HookDefinition {
    hooks_testing::definition(id, order, command)
}
