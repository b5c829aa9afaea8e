//! The `hooks` command-line tool.

use std::process::ExitCode;

use clap::Parser;
use hooks_app::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match hooks_app::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
