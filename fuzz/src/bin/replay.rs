//! Replays files through a fuzz target's body without libFuzzer, so corpora and crash files run on a stable compiler.
//!
//! Usage: `cargo run --release --bin replay -- <target> <file or folder>...`; with no path it
//! reads `corpus/<target>`. Every file is run once; a broken invariant panics with its name.

use std::path::{Path, PathBuf};

fn files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            files(&entry, out)?;
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(name) = args.next() else {
        let names: Vec<&str> = hooks_fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!("usage: replay <target> [path]...; targets: {}", names.join(", "));
        std::process::exit(2);
    };
    let Some((_, target)) = hooks_fuzz::TARGETS.iter().find(|(n, _)| *n == name) else {
        eprintln!("no target named {name}");
        std::process::exit(2);
    };
    let mut paths: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if paths.is_empty() {
        paths.push(Path::new("corpus").join(&name));
    }
    let mut all = Vec::new();
    for path in &paths {
        files(path, &mut all)?;
    }
    for file in &all {
        // a running fuzzer may remove corpus files while they are replayed
        let data = match std::fs::read(file) {
            Ok(data) => data,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        eprintln!("{}", file.display());
        target(&data);
    }
    println!("{name}: {} inputs replayed", all.len());
    Ok(())
}
