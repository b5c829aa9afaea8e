//! The runtime an agent product embeds (`HookRuntime`) and the pieces of the `hooks` tool.
//!
//! This crate composes every layer: adapters, registry, trust, sources, watcher, guard and
//! dispatch. It is the only crate with a command-line parser and `anyhow`.

pub mod check;
pub mod cli;
pub mod commands;
pub mod formats;
pub mod install;
pub mod runtime;
pub mod serve;
pub mod setup;
pub mod transcript;
pub mod trust;

/// The `hooks` tool's entry point: parses `args` (the first is the program name), runs the
/// command, and returns the process exit code (usage errors exit 2, as clap does).
pub fn main_entry(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    use clap::Parser;
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            1
        }
    }
}
