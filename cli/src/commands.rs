//! The commands of the `hooks` tool, one function each; `main` only parses and exits.

use std::io::{IsTerminal, Write};

use anyhow::{Context, Result};
use hooks_schema::Severity;

use crate::{
    check::{FileReport, FormatChoice, check_file, runnable::RunnableContext},
    cli::{CheckArgs, Cli, Command},
};

/// The largest file `hooks check` reads.
const MAX_CHECK_BYTES: u64 = 16 * 1024 * 1024;

mod audit;
mod bridge;
mod fire;
mod guard;
mod input;
mod install;
mod inventory;
mod replay;
mod trust;
mod watch;

pub use self::{
    fire::{explain, parse_event},
    inventory::command_text,
    replay::rebase_value,
};

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> Result<u8> {
    let colour = use_colour(hooks_sources::EnvVars::from_process().no_color.as_deref());
    match cli.command {
        Command::Check(a) => check(&a, colour),
        Command::List(a) => inventory::run(&a, colour),
        Command::Fire(a) => fire::run(&a, colour),
        Command::Replay(a) => replay::run(&a, colour),
        Command::Watch(a) => watch::run(&a),
        Command::Guard(a) => guard::run(&a, colour),
        Command::Serve(a) => serve(&a),
        Command::Trust(a) => trust::run(&a),
        Command::Install(a) => install::run(&a),
        Command::Audit(a) => audit::run(&a),
        Command::Bridge(a) => bridge::run(&a),
    }
}

fn serve(a: &crate::cli::ServeArgs) -> Result<u8> {
    anyhow::ensure!(a.stdio, "only --stdio is supported");
    let built = crate::setup::build(&a.runtime, crate::setup::Watch::Watched)?;
    for e in &built.explicit_errors {
        eprintln!("error: {e}");
    }
    for d in &built.settings_diagnostics {
        eprintln!("{d}");
    }
    // Requests are read with adaptive polling: see `serve::PolledInput`.
    let input = hooks_app::serve::PolledInput::new(std::io::stdin());
    // The server's own messages (a broken stdout, an advisory, the drain at end of input)
    // go to stderr.
    let options = hooks_app::serve::ServeOptions {
        log: hooks_app::serve::ServeLog::new(|m| eprintln!("{m}")),
        ..hooks_app::serve::ServeOptions::default()
    };
    hooks_app::serve::run_stdio_with(built.runtime, input, std::io::stdout(), options)?;
    Ok(0)
}

/// Whether to colour output: stdout is a terminal and `NO_COLOR` is unset or empty.
pub fn use_colour(no_color: Option<&std::ffi::OsStr>) -> bool {
    std::io::stdout().is_terminal() && no_color.is_none_or(std::ffi::OsStr::is_empty)
}

fn check(a: &CheckArgs, colour: bool) -> Result<u8> {
    let formats = hooks_app::formats::workspace_formats();
    let choice = match a.format.as_str() {
        "auto" => FormatChoice::Auto,
        name => FormatChoice::Fixed(formats.named(name)?.id()),
    };
    let process_cwd = std::env::current_dir().context("cannot read the current directory")?;
    let ctx = RunnableContext::from_env(&hooks_sources::EnvVars::from_process(), process_cwd);
    let mut out = std::io::stdout().lock();
    let mut all_ok = true;
    for path in &a.files {
        let display = path.display().to_string();
        // The engine's reader (regular files only, never blocking on a FIFO, bounded while
        // reading), with the check's own, larger limit.
        let report = match hooks_sources::read_capped_to(path, MAX_CHECK_BYTES) {
            Ok(bytes) => check_file(&formats, &display, path, &bytes, choice, &ctx),
            Err(e) => FileReport {
                path: display.clone(),
                format: None,
                hooks: Vec::new(),
                diagnostics: vec![
                    hooks_schema::HookDiagnostic::error(format!("{e:#}")).in_file(path),
                ],
            },
        };
        all_ok &= report.ok();
        if a.json {
            writeln!(out, "{}", report.to_json_revealed(a.reveal))?;
        } else {
            render_check(&mut out, &report, colour, a.reveal)?;
        }
    }
    Ok(if all_ok { 0 } else { 1 })
}

pub(crate) fn paint(colour: bool, code: &str, text: &str) -> String {
    if colour { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_owned() }
}

fn render_check(out: &mut impl Write, r: &FileReport, colour: bool, reveal: bool) -> Result<()> {
    let status = if r.ok() { paint(colour, "32", "ok") } else { paint(colour, "31", "invalid") };
    writeln!(
        out,
        "{} ({}): {status}, {} hook(s)",
        r.path,
        r.format.map_or("unknown", hooks_schema::FormatId::as_str),
        r.hooks.len()
    )?;
    for h in &r.hooks {
        writeln!(
            out,
            "  {:<24} {:<20} matcher={:<16} {} timeout={} on_failure={}{}{}",
            h.id.as_str(),
            h.event.as_str(),
            h.matcher.shown(reveal).unwrap_or("*"),
            h.mode.as_str(),
            if h.timeout == hooks_schema::NO_TIMEOUT {
                "none".to_owned()
            } else {
                format!("{}s", h.timeout.as_secs_f64())
            },
            h.on_failure.as_str(),
            h.line.map(|l| format!(" line={l}")).unwrap_or_default(),
            if h.enabled { "" } else { " (disabled)" },
        )?;
    }
    for d in &r.diagnostics {
        let sev = match d.severity {
            Severity::Error => paint(colour, "31", "error"),
            Severity::Warning => paint(colour, "33", "warning"),
            Severity::Info => "info".to_owned(),
        };
        let loc = match (d.line, d.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}: ", r.path),
            (Some(l), None) => format!("{}:{l}: ", r.path),
            _ => format!("{}: ", r.path),
        };
        writeln!(out, "  {loc}{sev}: {}", d.text(reveal))?;
    }
    Ok(())
}
