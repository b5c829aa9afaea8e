//! The `hooks` command-line tool.

fn main() {}
