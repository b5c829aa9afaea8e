//! The `hooks` command-line tool: a thin shim over `hooks_cli::main_entry`.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(hooks_cli::main_entry(std::env::args_os()))
}
