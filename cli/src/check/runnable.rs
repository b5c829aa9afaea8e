//! `hooks check`'s look at what a hook would run: a script that is missing or not executable,
//! a program not found on `PATH`. Nothing is run; only what can be decided from the file, the
//! file system and `PATH` is reported, and a command using shell syntax this module cannot
//! resolve is left alone.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
};

use hooks_schema::{FormatDescriptor, HookCommand, HookDefinition, HookDiagnostic};
use hooks_sources::EnvVars;

/// The code of a script (a file a hook names by path) that does not exist.
pub const SCRIPT_MISSING: &str = "script_missing";
/// The code of a script that exists but lacks the execute permission the format needs to run it
/// directly (not through an interpreter).
pub const SCRIPT_NOT_EXECUTABLE: &str = "script_not_executable";
/// The code of a program named without a folder that is not on `PATH`.
pub const PROGRAM_NOT_FOUND: &str = "program_not_found";

/// What the checks may look at besides the hook file: `PATH`, the home folder and the folder
/// relative file names start from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunnableContext {
    /// The program search path; `None` looks no bare program name up.
    pub path_var: Option<OsString>,
    /// The user's home: a `.cursor` or `.claude` folder directly in it holds the user's own
    /// files, not a project's.
    pub home: Option<PathBuf>,
    /// The folder a relative hook file name (and so a Chrys script path) starts from.
    pub cwd: PathBuf,
}

impl RunnableContext {
    /// The context of a `hooks check` run from `cwd` with the environment `env`.
    pub fn from_env(env: &EnvVars, cwd: PathBuf) -> RunnableContext {
        RunnableContext { path_var: env.path.clone(), home: env.home_dir(), cwd }
    }
}

/// Where a file's hooks run, as far as the file's place tells.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Place {
    /// The folder commands start in, when known.
    working_dir: Option<PathBuf>,
    /// The project root (`$CLAUDE_PROJECT_DIR`, `$CURSOR_PROJECT_DIR`), when known.
    project_dir: Option<PathBuf>,
}

/// The warnings about what the enabled definitions of `file` (read as `format`) would run.
pub fn runnable_diagnostics(
    format: &dyn FormatDescriptor,
    file: &Path,
    hooks: &[HookDefinition],
    ctx: &RunnableContext,
) -> Vec<HookDiagnostic> {
    let file_abs = absolute(file, &ctx.cwd);
    let place = place(format, &file_abs, ctx);
    hooks
        .iter()
        .filter(|h| h.enabled)
        .filter_map(|h| {
            let (code, message) = check_hook(h, format.project_dir_vars(), &place, ctx)?;
            let mut d = HookDiagnostic::warning(format!("hook '{}': {message}", h.id))
                .in_file(file)
                .with_code(code)
                .for_hook(h.id.to_string());
            d.line = h.line;
            d.column = h.column;
            Some(d)
        })
        .collect()
}

fn absolute(p: &Path, base: &Path) -> PathBuf {
    if p.is_absolute() { p.to_path_buf() } else { base.join(p) }
}

fn is_home(dir: &Path, ctx: &RunnableContext) -> bool {
    ctx.home.as_deref().is_some_and(|home| {
        dir == home
            || matches!(
                (hooks_registry::canonicalize(dir), hooks_registry::canonicalize(home)),
                (Ok(a), Ok(b)) if a == b
            )
    })
}

/// The working folder and project root of a file's hooks, from where the file lies: the root
/// above `.cursor/hooks.json` or `.claude/settings*.json` is the project (unless it is the
/// home folder, which holds the user's own files); Cursor runs any other file's commands in
/// that file's folder; Claude Code runs a user or managed file's commands in the session's
/// folder, and Chrys every command in the session's, neither known here.
fn place(format: &dyn FormatDescriptor, file: &Path, ctx: &RunnableContext) -> Place {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = file.parent();
    let in_folder = |dir: &str| parent.and_then(Path::file_name).is_some_and(|n| n == dir);
    let root = parent.and_then(Path::parent).map(Path::to_path_buf);
    match format.id() {
        f if f == hooks_format_cursor::FORMAT => {
            let project = if name == "hooks.json" && in_folder(".cursor") {
                root.filter(|r| !is_home(r, ctx))
            } else {
                None
            };
            match project {
                Some(r) => Place { working_dir: Some(r.clone()), project_dir: Some(r) },
                None => Place { working_dir: parent.map(Path::to_path_buf), project_dir: None },
            }
        }
        f if f == hooks_format_claude::FORMAT => {
            let project = if name.starts_with("settings")
                && name.ends_with(".json")
                && in_folder(".claude")
            {
                root.filter(|r| !is_home(r, ctx))
            } else {
                None
            };
            Place { working_dir: project.clone(), project_dir: project }
        }
        _ => Place::default(),
    }
}

/// Whether a path can stand in for a variable without changing how the shell splits words.
fn substitutable(dir: &Path) -> Option<String> {
    let s = dir.to_str()?;
    (!s.is_empty() && !s.chars().any(|c| c.is_whitespace() || "$`\"'\\".contains(c)))
        .then(|| s.to_owned())
}

fn sets_path(hook: &HookDefinition) -> bool {
    hook.env.iter().any(|(k, _)| k.eq_ignore_ascii_case("PATH"))
}

/// The shells whose command syntax [`shell::simple_words`] reads.
const POSIX_SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh"];

/// How messages name the program a shell command line starts.
const SHELL_SUBJECT: &str = "the program the command starts";

/// One finding: its code and message.
type Finding = (&'static str, String);

fn check_hook(
    hook: &HookDefinition,
    project_vars: &[&str],
    place: &Place,
    ctx: &RunnableContext,
) -> Option<Finding> {
    let format = hook.wire_format();
    let lookup = if sets_path(hook) { None } else { ctx.path_var.as_ref() };
    let project = place.project_dir.as_deref().and_then(substitutable);
    match &hook.command {
        HookCommand::Script { path, args } => {
            let script = absolute(path, &ctx.cwd);
            if format == hooks_format_chrys::FORMAT {
                check_chrys_script(&script, lookup)
            } else {
                let words: Vec<String> = std::iter::once(script.display().to_string())
                    .chain(args.iter().cloned())
                    .collect();
                check_words(&words, place.working_dir.as_deref(), lookup, SHELL_SUBJECT)
            }
        }
        HookCommand::Exec { program, args } => {
            // Claude Code fills in `${CLAUDE_PROJECT_DIR}` in a command's arguments; Chrys fills
            // in nothing. No shell runs, so nothing else is expanded.
            let fill = |w: &str| match (&project, format) {
                (Some(p), f) if f == hooks_format_claude::FORMAT => {
                    w.replace("${CLAUDE_PROJECT_DIR}", p)
                }
                _ => w.to_owned(),
            };
            let program = fill(program);
            if program.contains('$') || program.is_empty() {
                return None;
            }
            let words: Vec<String> =
                std::iter::once(program).chain(args.iter().map(|a| fill(a))).collect();
            let subject = if format == hooks_format_chrys::FORMAT {
                "the program in run.argv[0]"
            } else {
                "the program in command"
            };
            check_words(&words, place.working_dir.as_deref(), lookup, subject)
        }
        HookCommand::Shell { script, shell } => {
            // Only POSIX shells' syntax is read (Claude Code's `shell: powershell` is not).
            if shell.as_deref().is_some_and(|s| !POSIX_SHELLS.contains(&basename(s))) {
                return None;
            }
            let mut script = script.clone();
            if let (Some(p), true) = (&project, format == hooks_format_claude::FORMAT) {
                // Claude Code's own substitution, before the shell runs.
                script = script.replace("${CLAUDE_PROJECT_DIR}", p);
            }
            let vars: Vec<(&str, &str)> = match &project {
                Some(p) => project_vars.iter().map(|v| (*v, p.as_str())).collect(),
                None => Vec::new(),
            };
            let words = shell::simple_words(&script, &vars)?;
            let (assigned, words) = shell::split_assignments(&words);
            let lookup = if assigned.iter().any(|n| n == "PATH") { None } else { lookup };
            let first = words.first()?;
            if shell::is_builtin_or_keyword(first) {
                return None;
            }
            check_words(words, place.working_dir.as_deref(), lookup, SHELL_SUBJECT)
        }
        // Nothing runs locally; the adapter's own diagnostics cover the URL and headers.
        HookCommand::Http(_) => None,
    }
}

/// A Chrys `type: script` hook: the file must exist; its interpreter, chosen by extension,
/// must be on `PATH`. The execute bit does not matter.
fn check_chrys_script(script: &Path, lookup: Option<&OsString>) -> Option<Finding> {
    if !script.is_file() {
        return Some((
            SCRIPT_MISSING,
            "the script in run.path was not found; a relative path starts from the folder of this file"
                .to_owned(),
        ));
    }
    let path_var = lookup?;
    let candidates = hooks_format_chrys::interpreter_candidates(script);
    let programs: Vec<&str> =
        candidates.iter().filter_map(|c| c.first().map(String::as_str)).collect();
    if programs.iter().any(|p| find_on_path(p, path_var, None).is_some()) {
        return None;
    }
    let what = match script.extension() {
        Some(e) => format!("which run .{} scripts", e.to_string_lossy()),
        None => "which run this script".to_owned(),
    };
    let names = programs.iter().map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ");
    Some((PROGRAM_NOT_FOUND, format!("none of {names}, {what}, was found on PATH")))
}

/// Checks the program of `words` (already unquoted, leading assignments removed) and, when it
/// is an interpreter, the script it is handed by path. `subject` names the program in messages,
/// which never quote what the hook runs (it can hold more than a path).
fn check_words(
    words: &[String],
    working_dir: Option<&Path>,
    lookup: Option<&OsString>,
    subject: &str,
) -> Option<Finding> {
    let (first, rest) = words.split_first()?;
    // `env PROGRAM …` runs PROGRAM; `env -i …` and `env NAME=value …` are left alone.
    let (program, rest) = if basename(first) == "env" {
        let (next, after) = rest.split_first()?;
        if next.starts_with('-') || next.contains('=') {
            return None;
        }
        (next, after)
    } else {
        (first, rest)
    };
    if program.contains('/') {
        let file = resolve(program, working_dir)?;
        if let Some(f) = check_direct(&file, subject, relative_note(program, working_dir)) {
            return Some(f);
        }
    } else {
        let path_var = lookup?;
        if find_on_path(program, path_var, working_dir).is_none() {
            let message = format!("{subject} was not found on PATH");
            return Some((PROGRAM_NOT_FOUND, message));
        }
    }
    // An interpreter's script, picked as the guard picks the scripts it protects; only a
    // script named by a path is checked (`bash x.sh` may find x.sh on PATH, `uv run ruff`
    // names a tool).
    let command = HookCommand::Exec { program: program.clone(), args: rest.to_vec() };
    let candidate = hooks_registry::script_candidate(&command)?;
    let text = candidate.to_str()?;
    if text == program || !text.contains('/') || text.contains("://") {
        return None;
    }
    let script = resolve(text, working_dir)?;
    (!script.is_file()).then(|| {
        let note = relative_note(text, working_dir);
        (SCRIPT_MISSING, format!("the script handed to the interpreter was not found{note}"))
    })
}

/// Where a relative path starts from, for messages.
fn relative_note(word: &str, working_dir: Option<&Path>) -> String {
    match working_dir {
        Some(dir) if !Path::new(word).is_absolute() => {
            format!("; a relative path starts from {}", dir.display())
        }
        _ => String::new(),
    }
}

/// A program named by a path: it must be an existing file with an execute bit.
fn check_direct(file: &Path, subject: &str, note: String) -> Option<Finding> {
    match std::fs::metadata(file) {
        Err(_) => Some((SCRIPT_MISSING, format!("{subject} was not found{note}"))),
        Ok(m) if !m.is_file() => {
            Some((SCRIPT_MISSING, format!("{subject} is a folder, not a file{note}")))
        }
        Ok(m) if !is_executable(&m) => Some((
            SCRIPT_NOT_EXECUTABLE,
            format!(
                "{subject} is not executable: it is started directly, so it needs the execute permission (chmod +x) or an interpreter in front of it"
            ),
        )),
        Ok(_) => None,
    }
}

fn resolve(word: &str, working_dir: Option<&Path>) -> Option<PathBuf> {
    let p = Path::new(word);
    if p.is_absolute() { Some(p.to_path_buf()) } else { working_dir.map(|d| d.join(p)) }
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[cfg(unix)]
fn is_executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    true
}

/// The first executable file named `name` in the folders of `path_var`. An empty entry means
/// the working folder, as for the shell; a relative entry starts from it too (skipped when it
/// is not known).
fn find_on_path(name: &str, path_var: &OsString, working_dir: Option<&Path>) -> Option<PathBuf> {
    std::env::split_paths(path_var).find_map(|dir| {
        let dir = if dir.as_os_str().is_empty() {
            working_dir?.to_path_buf()
        } else if dir.is_absolute() {
            dir
        } else {
            working_dir?.join(dir)
        };
        let file = dir.join(name);
        std::fs::metadata(&file).ok().filter(|m| m.is_file() && is_executable(m)).map(|_| file)
    })
}

mod shell;

#[cfg(test)]
mod tests;
