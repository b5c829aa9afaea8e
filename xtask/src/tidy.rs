//! `cargo xtask tidy`: every Rust file says what it is, and no test is switched off.

use std::{fs, path::Path};

use anyhow::{Context, Result, bail};

/// Folders whose `.rs` files are checked.
const ROOTS: &[&str] = &["crates", "app", "cli", "tests", "xtask", "fuzz/fuzz_targets"];

/// Checks every file and fails with the list of problems.
pub(crate) fn check(root: &Path) -> Result<()> {
    let mut problems = Vec::new();
    for r in ROOTS {
        walk(&root.join(r), &mut |path| {
            let text =
                fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            let rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
            if !text.trim_start().starts_with("//!") {
                problems.push(format!("{rel}: does not start with a `//!` line saying what it is"));
            }
            for (i, line) in text.lines().enumerate() {
                let l = line.trim_start();
                // Split the attribute names so this file does not flag itself.
                if l.starts_with(concat!("#[", "ignore"))
                    || l.starts_with(concat!("#[", "should_panic"))
                {
                    problems.push(format!("{rel}:{}: ignored or should_panic test", i + 1));
                }
                if line.ends_with(' ') || line.ends_with('\t') {
                    problems.push(format!("{rel}:{}: trailing whitespace", i + 1));
                }
            }
            Ok(())
        })?;
    }
    if problems.is_empty() { Ok(()) } else { bail!("tidy:\n  {}", problems.join("\n  ")) }
}

fn walk(dir: &Path, f: &mut dyn FnMut(&Path) -> Result<()>) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == "test_data" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if entry.file_type()?.is_dir() {
            walk(&path, f)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            f(&path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A plain test run enforces tidiness too.
    #[test]
    fn the_workspace_is_tidy() {
        super::check(&crate::workspace_root()).unwrap();
    }
}
