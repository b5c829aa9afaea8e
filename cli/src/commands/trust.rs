//! `hooks trust`: review a project's hook files and the scripts they run, and trust them by
//! content in the user's trust store; `--list` and `--revoke`.

use std::{
    io::{BufRead, IsTerminal, Write},
    time::{SystemTime, UNIX_EPOCH},
};

use anyhow::{Context, Result, bail};
use hooks_schema::{AbsPathBuf, HookDefinition};
use hooks_sources::{EnvVars, UserDirs};
use hooks_truststore::{FilePin, PathStateKey, PinStatus, TrustStore};

use hooks_app::trust::{ReadHookFile, files_to_trust, user_paths};

use crate::{cli::TrustArgs, setup::absolute};

/// Exit code when the user did not confirm.
const NOT_CONFIRMED: u8 = 3;

/// Runs `hooks trust`.
pub fn run(a: &TrustArgs) -> Result<u8> {
    let formats = hooks_app::formats::workspace_formats();
    let env = EnvVars::from_process_with(&formats);
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let store = hooks_app::trust::user_store(&env)
        .context("no state directory for the trust store: set XDG_STATE_HOME or HOME")?;
    // The user's folders and `~` exactly as the runtime reads them (`setup::build`), so the
    // scripts are placed as the runtime will place them.
    let user_dirs = match &a.config_dir {
        Some(dir) => UserDirs::under_home(&formats, &absolute(dir, &cwd)),
        None => UserDirs::from_env(&formats, &env),
    };
    let user = user_paths(env.home_dir().as_deref(), user_dirs.folder(hooks_format_chrys::FORMAT));
    let root_arg = match &a.root {
        Some(root) => absolute(root, &cwd),
        None => hooks_app::trust::project_root_of(&cwd),
    };
    let root = hooks_registry::canonicalize(&root_arg)
        .with_context(|| format!("--root {}", root_arg.display()))?;
    anyhow::ensure!(root.as_path().is_dir(), "--root {}: not a directory", root);
    let mut out = std::io::stdout().lock();
    if a.list {
        return list(&mut out, &store, &user);
    }
    if a.revoke {
        let gone = store.update(|s| s.remove_where(|p| under(p, &root)))?;
        for p in &gone {
            writeln!(out, "revoked {}", p.path)?;
        }
        if gone.is_empty() {
            writeln!(out, "nothing was trusted under {root}")?;
        }
        return Ok(0);
    }

    // Without --root, the files a session started here reads (its folder's, for formats
    // whose agents read a subfolder's files: `find_session_files`).
    let session = match &a.root {
        Some(_) => root.clone(),
        None => hooks_registry::canonicalize(&cwd).unwrap_or_else(|_| root.clone()),
    };
    let user_files = hooks_sources::user_files(&formats, &user_dirs);
    let files = files_to_trust(&formats, &root, &session, &user_files);
    let contents = store.load();
    if let Err(e) = &contents {
        bail!(
            "{e}; nothing in it counts as trusted, and it is not overwritten (move it away to start afresh)"
        );
    }
    if session == root {
        writeln!(out, "project {root} (trust store {})", store.path().display())?;
    } else {
        writeln!(
            out,
            "project {root}, the files a session started in {} reads (trust store {})",
            shown_path(&session, &root),
            store.path().display()
        )?;
    }
    if files.is_empty() {
        writeln!(out, "no hook files found")?;
        return Ok(0);
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut to_trust: Vec<FilePin> = Vec::new();
    let mut failed = false;
    for file in &files {
        let shown = shown_path(&file.path, &root);
        let status = file.status(&contents, &user, None);
        let header = format!("\n{shown} [{}]", file.kind);
        let parsed = match &file.read {
            Err(e) => {
                writeln!(out, "{header}: cannot be trusted: {e}")?;
                failed = true;
                continue;
            }
            Ok((_, Err(diags))) => {
                writeln!(out, "{header}: cannot be trusted: it does not parse")?;
                for d in diags {
                    writeln!(out, "  {}", d.clone().revealed(a.reveal))?;
                }
                failed = true;
                continue;
            }
            Ok((_, Ok(parsed))) => parsed,
        };
        let pin = match file.pin(&user, now) {
            Ok(Some(pin)) => pin,
            Ok(None) => continue,
            Err(e) => {
                writeln!(out, "{header}: cannot be trusted: {e}")?;
                failed = true;
                continue;
            }
        };
        let state = match &status {
            PinStatus::Trusted => "trusted, unchanged".to_owned(),
            PinStatus::NotTrusted => "not trusted yet".to_owned(),
            PinStatus::Changed(c) => format!("changed since it was trusted: {c}"),
            PinStatus::StoreUnreadable(e) => format!("the store cannot be read: {e}"),
        };
        writeln!(out, "{header} {state}")?;
        writeln!(out, "  sha256:{}", pin.digest)?;
        for d in &parsed.definitions {
            writeln!(out, "  {}", definition_line(d, a.reveal))?;
        }
        let named = file.named_scripts(&user);
        for s in &pin.scripts {
            // What the command lines name runs; the rest is what those scripts source, run
            // by path or import.
            let what = match (named.iter().any(|(p, f)| *p == s.path && *f == s.folder), s.folder) {
                (true, true) => "runs every file under",
                (true, false) => "runs",
                (false, true) => "its scripts load every file under",
                (false, false) => "its scripts load",
            };
            let state = match s.state {
                PathStateKey::Absent => "absent: creating it makes the file inert".to_owned(),
                other => other.to_string(),
            };
            writeln!(out, "  {what} {}  {state}", shown_path(&s.path, &root))?;
        }
        for note in &pin.uncertain {
            writeln!(out, "  note: not every script could be found: {note}")?;
        }
        if !status.is_trusted() {
            to_trust.push(pin);
        }
    }
    writeln!(out)?;
    if to_trust.is_empty() {
        writeln!(out, "nothing new to trust")?;
        return Ok(u8::from(failed));
    }
    if !a.yes {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            writeln!(
                out,
                "not trusted: standard input is not a terminal to ask on (pass --yes to trust without asking)"
            )?;
            return Ok(NOT_CONFIRMED);
        }
        write!(out, "Trust {} file(s) and the scripts listed? [y/N] ", to_trust.len())?;
        out.flush()?;
        let mut answer = String::new();
        stdin.lock().take_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES") {
            writeln!(out, "not trusted")?;
            return Ok(NOT_CONFIRMED);
        }
    }
    let trusted: Vec<AbsPathBuf> = to_trust.iter().map(|p| p.path.clone()).collect();
    store.update(|s| {
        for pin in to_trust {
            s.insert(pin);
        }
    })?;
    for p in trusted {
        writeln!(out, "trusted {}", shown_path(&p, &root))?;
    }
    Ok(u8::from(failed))
}

/// Reads one line of at most 1 KiB.
trait TakeLine {
    fn take_line(&mut self, into: &mut String) -> std::io::Result<()>;
}

impl<R: BufRead> TakeLine for R {
    fn take_line(&mut self, into: &mut String) -> std::io::Result<()> {
        use std::io::Read;
        self.take(1024).read_line(into).map(|_| ())
    }
}

fn under(pin: &FilePin, root: &AbsPathBuf) -> bool {
    pin.root.as_ref() == Some(root) || pin.path.as_path().starts_with(root.as_path())
}

fn shown_path(path: &AbsPathBuf, root: &AbsPathBuf) -> String {
    path.as_path()
        .strip_prefix(root.as_path())
        .map_or_else(|_| path.to_string(), |rel| rel.display().to_string())
}

fn definition_line(d: &HookDefinition, reveal: bool) -> String {
    let cmd = if reveal {
        super::command_text(&d.command)
    } else {
        format!("{} (use --reveal)", hooks_format_claude::fingerprint(d))
    };
    format!(
        "{:<20} matcher={:<16} {cmd}{}{}",
        d.native_event,
        d.matcher.shown(reveal).unwrap_or("*"),
        d.line.map(|l| format!("  line {l}")).unwrap_or_default(),
        if d.enabled { "" } else { " (disabled)" }
    )
}

fn list(out: &mut impl Write, store: &TrustStore, user: &hooks_registry::UserPaths) -> Result<u8> {
    let contents = store.load()?;
    writeln!(out, "trust store {}", store.path().display())?;
    if contents.is_empty() {
        writeln!(out, "nothing is trusted")?;
        return Ok(0);
    }
    let formats = hooks_app::formats::workspace_formats();
    let loaded = Ok(contents.clone());
    for pin in contents.pins() {
        let now = match formats.kind_named(&pin.kind) {
            None => "its kind is not read by this build".to_owned(),
            Some(_) if !pin.path.as_path().exists() => "the file is gone".to_owned(),
            Some(kind) => {
                let file =
                    ReadHookFile::read(&formats, kind, pin.path.as_path(), pin.root.as_ref());
                match file.status(&loaded, user, None) {
                    PinStatus::Trusted => "unchanged".to_owned(),
                    other => other.reason(&pin.path),
                }
            }
        };
        writeln!(
            out,
            "{} [{}] {}, trusted {}, {} script(s): {now}",
            pin.path,
            pin.kind,
            pin.root
                .as_ref()
                .map_or_else(|| "outside every project".to_owned(), |r| format!("project {r}")),
            utc(pin.trusted_at),
            pin.scripts.len(),
        )?;
    }
    Ok(0)
}

/// `secs` since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (the civil calendar from days).
fn utc(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rem / 3_600, rem % 3_600 / 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(super::utc(1_764_633_540), "2025-12-01 23:59 UTC");
    }
}
