//! `hooks install --host <agent>`: the bridge as the agent's hook command in its own
//! configuration file (`hooks_app::install`), with a printed diff, a backup and `--dry-run`;
//! `--uninstall` removes exactly what install added.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use hooks_schema::{FileScope, HookSourceKind, ProjectFolders};
use hooks_sources::{EnvVars, UserDirs};

use hooks_app::install::{Edit, install, uninstall, validate};

use crate::{
    cli::{InstallArgs, InstallScope},
    setup::absolute,
};

/// The largest configuration file install edits.
const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Runs `hooks install`.
pub fn run(a: &InstallArgs) -> Result<u8> {
    let formats = hooks_app::formats::workspace_formats();
    let env = EnvVars::from_process_with(&formats);
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let Ok(descriptor) = formats.named(&a.host) else {
        let names: Vec<&str> = formats
            .iter()
            .filter(|f| !f.install_targets().is_empty())
            .map(|f| f.id().as_str())
            .collect();
        bail!("--host {}: no such agent (one of: {})", a.host, names.join(", "));
    };
    let scope = match a.scope {
        InstallScope::Project => FileScope::Project,
        InstallScope::User => FileScope::User,
    };
    let Some(target) = descriptor.install_targets().iter().find(|t| t.scope == scope) else {
        bail!("{} has no {} file `hooks install` can write", descriptor.agent(), scope.as_str());
    };
    let base = match scope {
        FileScope::User => {
            let dirs = match &a.config_dir {
                Some(dir) => UserDirs::under_home(&formats, &absolute(dir, &cwd)),
                None => UserDirs::from_env(&formats, &env),
            };
            dirs.folder(descriptor.id())
                .map(Path::to_path_buf)
                .with_context(|| format!("no user folder for {} (set HOME)", descriptor.agent()))?
        }
        _ => {
            // Without --root, the folder whose file the agent reads for a session started
            // here: the repository's root, or this folder for an agent that reads the
            // folder it starts in (`FormatDescriptor::project_folders`).
            let root = match &a.root {
                Some(root) => absolute(root, &cwd),
                None if descriptor.project_folders() == ProjectFolders::Session => cwd.clone(),
                None => hooks_app::trust::project_root_of(&cwd),
            };
            anyhow::ensure!(root.is_dir(), "--root {}: not a directory", root.display());
            hooks_registry::canonicalize(&root)
                .with_context(|| format!("--root {}", root.display()))?
                .into_path_buf()
        }
    };
    let path = base.join(target.path);
    let kind = descriptor
        .locations()
        .iter()
        .find(|l| l.scope == scope && l.pattern.matches(target.path))
        .map(|l| HookSourceKind::file(l.scope, l.role));
    let hooks = match &a.bridge {
        Some(p) => absolute(p, &cwd),
        None => std::env::current_exe().context("cannot find the hooks executable")?,
    };
    let before = read(&path)?;
    if let (Some(text), Some(kind)) = (&before, kind) {
        validate(&**descriptor, kind, &path, text)?;
    }
    let edit = if a.uninstall {
        match &before {
            Some(text) => uninstall(&**descriptor, &path, text)?,
            None => Edit { after: None, added: 0, removed: 0 },
        }
    } else {
        install(&**descriptor, &path, before.as_deref(), &hooks)?
    };
    if let (Some(text), Some(kind)) = (&edit.after, kind) {
        validate(&**descriptor, kind, &path, text)?;
    }
    let review = match (descriptor.install_review_file(), kind) {
        (Some(rel), Some(kind)) => {
            review_edit(a, &formats, &env, &cwd, &**descriptor, kind, &path, rel, &before, &edit)?
        }
        _ => None,
    };
    let mut out = std::io::stdout().lock();
    if let Some((record, old, new)) = &review {
        show_diff(&mut out, record, old.as_deref(), Some(new))?;
        if !a.dry_run {
            if let Some(text) = old {
                let backup = backup_path(record);
                write_atomic(&backup, text.as_bytes(), Some(record))?;
                writeln!(out, "backup: {}", backup.display())?;
            }
            write_atomic(record, new.as_bytes(), old.as_ref().map(|_| record.as_path()))?;
            let what = if a.uninstall { "forgot" } else { "recorded" };
            writeln!(
                out,
                "{what} the bridge's entries as reviewed in {}'s own record {}",
                descriptor.agent(),
                record.display()
            )?;
        }
    }
    if edit.is_noop(before.as_deref()) {
        let what = if a.uninstall { "nothing to remove from" } else { "already installed in" };
        writeln!(out, "{what} {}", path.display())?;
        return Ok(0);
    }
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(
        before.as_deref().unwrap_or(""),
        edit.after.as_deref().unwrap_or(""),
    );
    let old = if before.is_some() { shown.clone() } else { "/dev/null".to_owned() };
    let new = if edit.after.is_some() { shown.clone() } else { "/dev/null".to_owned() };
    write!(out, "{}", diff.unified_diff().context_radius(3).header(&old, &new))?;
    if a.dry_run {
        writeln!(out, "dry run: {shown} not written")?;
        return Ok(0);
    }
    if let Some(text) = &before {
        let backup = backup_path(&path);
        write_atomic(&backup, text.as_bytes(), Some(&path))?;
        writeln!(out, "backup: {}", backup.display())?;
    }
    match &edit.after {
        Some(text) => {
            write_atomic(&path, text.as_bytes(), before.as_ref().map(|_| path.as_path()))?
        }
        None => std::fs::remove_file(&path).with_context(|| format!("cannot remove {shown}"))?,
    }
    if a.uninstall {
        writeln!(out, "removed {} bridge entr{} from {shown}", edit.removed, plural(edit.removed))?;
        if edit.after.is_none() {
            writeln!(out, "{shown} held nothing else: removed")?;
        }
    } else {
        writeln!(out, "installed the bridge for {} event(s) into {shown}", edit.added)?;
    }
    Ok(0)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "y" } else { "ies" }
}

fn show_diff(
    out: &mut impl Write,
    path: &Path,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<()> {
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(before.unwrap_or(""), after.unwrap_or(""));
    let old = if before.is_some() { shown.clone() } else { "/dev/null".to_owned() };
    let new = if after.is_some() { shown } else { "/dev/null".to_owned() };
    write!(out, "{}", diff.unified_diff().context_radius(3).header(&old, &new))?;
    Ok(())
}

/// The agent's own review record after this install or uninstall (Codex's `config.toml`,
/// [`hooks_schema::FormatDescriptor::install_review_file`]): the bridge entries of the file
/// before are forgotten, those of the file after are recorded as reviewed, so the agent runs
/// them without asking and uninstall takes out exactly what install put in. `None` when the
/// record does not change.
#[allow(clippy::too_many_arguments)]
fn review_edit(
    a: &InstallArgs,
    formats: &hooks_schema::FormatSet,
    env: &EnvVars,
    cwd: &Path,
    descriptor: &dyn hooks_schema::FormatDescriptor,
    kind: HookSourceKind,
    path: &Path,
    rel: &str,
    before: &Option<String>,
    edit: &Edit,
) -> Result<Option<(PathBuf, Option<String>, String)>> {
    let dirs = match &a.config_dir {
        Some(dir) => UserDirs::under_home(formats, &absolute(dir, cwd)),
        None => UserDirs::from_env(formats, env),
    };
    let Some(folder) = dirs.folder(descriptor.id()) else { return Ok(None) };
    let record = folder.join(rel);
    let bridge_defs = |text: &Option<String>| -> Vec<hooks_schema::HookDefinition> {
        let Some(text) = text else { return Vec::new() };
        let ctx = hooks_schema::ParseContext::new(path, kind);
        match descriptor.parse(text.as_bytes(), &ctx) {
            Ok(parsed) => parsed
                .definitions
                .into_iter()
                .filter(|d| hooks_app::bridge::is_bridge_call(&d.command))
                .collect(),
            Err(_) => Vec::new(),
        }
    };
    let forget = bridge_defs(before);
    let trust = if a.uninstall { Vec::new() } else { bridge_defs(&edit.after) };
    let old = read(&record)?;
    let new = descriptor
        .install_review(
            old.as_deref(),
            &trust.iter().collect::<Vec<_>>(),
            &forget.iter().collect::<Vec<_>>(),
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was written", record.display()))?;
    if old.as_deref() == Some(new.as_str()) || (old.is_none() && new.trim().is_empty()) {
        return Ok(None);
    }
    Ok(Some((record, old, new)))
}

/// `<file>.agent-hooks.bak` beside the file.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".agent-hooks.bak");
    path.with_file_name(name)
}

/// The file's text, `None` when it does not exist; refuses what is not a regular UTF-8
/// file of a sane size.
fn read(path: &Path) -> Result<Option<String>> {
    match hooks_truststore::read_regular(path, MAX_BYTES) {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => String::from_utf8(bytes)
            .map(Some)
            .with_context(|| format!("{}: not UTF-8; nothing was written", path.display())),
        Err(e) => bail!("{}: {e}; nothing was written", path.display()),
    }
}

/// Writes `bytes` to `path` through a temporary file in its folder renamed over it (the
/// folder created when missing), with the permissions of `like` when given.
fn write_atomic(path: &Path, bytes: &[u8], like: Option<&Path>) -> Result<()> {
    let dir = path.parent().context("a file has a folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".agent-hooks-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    if let Some(meta) = like.and_then(|p| std::fs::metadata(p).ok()) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
