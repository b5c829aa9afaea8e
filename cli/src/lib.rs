//! The `hooks` command-line tool, built on the runtime of `hooks-app`: argument parsing
//! (clap), one module per command, `hooks check` and `hooks replay`'s transcript reader.
//!
//! It is the only package besides `xtask` that uses `anyhow` and clap; the runtime library
//! returns typed errors and hands its messages to its caller.

pub mod check;
pub mod cli;
pub mod commands;
pub mod logging;
pub mod setup;
pub mod transcript;

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
    let env = hooks_sources::EnvVars::from_process();
    if let Err(e) =
        logging::install(cli.log_level.as_deref(), env.rust_log.as_deref(), cli.log_format)
    {
        eprintln!("error: {e:#}");
        return 2;
    }
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            1
        }
    }
}
