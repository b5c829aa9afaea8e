//! Reading a command's input files (`--payload`, a replayed session) through the engine's
//! capped reader: a FIFO, a device such as `/dev/zero` or a directory is refused before it
//! is opened, so no command waits on a pipe or reads without end.

use std::{io::Read, path::Path};

use anyhow::{Result, anyhow, bail};
use hooks_sources::ReadError;

/// The largest `--payload` read, in bytes (from a file or stdin).
pub const MAX_PAYLOAD_BYTES: u64 = 16 * 1024 * 1024;

/// The largest session file `hooks replay` reads, in bytes.
pub const MAX_SESSION_BYTES: u64 = 256 * 1024 * 1024;

/// The text of the regular file at `path`, at most `cap` bytes; `what` names it in errors
/// ("the payload", "the session").
pub fn read_file(path: &Path, cap: u64, what: &str) -> Result<String> {
    let shown = path.display();
    let bytes = hooks_sources::read_capped_to(path, cap).map_err(|e| match e {
        ReadError::Missing { .. } => anyhow!("{what} {shown} does not exist"),
        ReadError::DanglingSymlink { .. } => anyhow!("{what} {shown} is a symlink to nothing"),
        ReadError::SymlinkLoop { .. } => anyhow!("{what} {shown} is a symlink loop"),
        ReadError::NotAFile { what: kind, .. } => anyhow!(
            "{what} {shown} is {kind}, not a regular file; pass a regular file (or `-` for stdin where the command takes it)"
        ),
        ReadError::TooLarge { size, cap, .. } => {
            anyhow!("{what} {shown} is {size} bytes, more than the {cap} byte limit")
        }
        ReadError::Io { source, .. } => anyhow!("cannot read {what} {shown}: {source}"),
    })?;
    String::from_utf8(bytes).map_err(|_| anyhow!("{what} {shown} is not UTF-8 text"))
}

/// At most `cap` bytes of `reader` as text; more is an error rather than a read without end
/// (`< /dev/zero`).
pub fn read_stream(reader: impl Read, cap: u64, what: &str) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read {what}: {e}"))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > cap {
        bail!("{what} is more than the {cap} byte limit");
    }
    String::from_utf8(bytes).map_err(|_| anyhow!("{what} is not UTF-8 text"))
}

#[cfg(test)]
mod tests;
