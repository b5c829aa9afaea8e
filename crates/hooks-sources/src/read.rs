//! Reading one hook file: checks before opening, a size cap, then the format's adapter.

use std::{
    fs,
    io::{self, Read},
    path::{Path, PathBuf},
};

use hooks_schema::{
    AbsPathBuf, FormatDescriptor, HookDiagnostic, ParseContext, ParseResult, TrustDecision,
};
use hooks_trust::{FileRead, TrustInputs, TrustPolicy};

/// The largest hook file read, in bytes. Real hook files are a few kilobytes; a larger file
/// is refused before it is read.
pub const MAX_SOURCE_BYTES: u64 = 1024 * 1024;

/// Why a hook file could not be read. Every message names the path.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Nothing is at the path.
    #[error("hook file `{}` does not exist", path.display())]
    Missing {
        /// The path.
        path: PathBuf,
    },
    /// A symlink is at the path, and it points at nothing.
    #[error("hook file `{}` is a symlink to nothing", path.display())]
    DanglingSymlink {
        /// The path.
        path: PathBuf,
    },
    /// A symlink at the path (or in a folder above it) points back at itself.
    #[error("hook file `{}` is a symlink loop", path.display())]
    SymlinkLoop {
        /// The path.
        path: PathBuf,
    },
    /// The path is a directory, a FIFO, a socket or a device rather than a regular file.
    #[error("hook file `{}` is {what}, not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is (`a directory`, `a fifo`, …).
        what: &'static str,
    },
    /// The file is larger than [`MAX_SOURCE_BYTES`].
    #[error("hook file `{}` is {size} bytes, more than the {cap} byte limit", path.display())]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// Its size (at least this many bytes).
        size: u64,
        /// The limit.
        cap: u64,
    },
    /// The file could not be read (permissions, IO error).
    #[error("cannot read hook file `{}`: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

impl ReadError {
    /// The path it is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::Missing { path }
            | ReadError::DanglingSymlink { path }
            | ReadError::SymlinkLoop { path }
            | ReadError::NotAFile { path, .. }
            | ReadError::TooLarge { path, .. }
            | ReadError::Io { path, .. } => path,
        }
    }

    /// A stable code for diagnostics.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Missing { .. } => "file_missing",
            ReadError::DanglingSymlink { .. } => "dangling_symlink",
            ReadError::SymlinkLoop { .. } => "symlink_loop",
            ReadError::NotAFile { .. } => "not_a_file",
            ReadError::TooLarge { .. } => "file_too_large",
            ReadError::Io { .. } => "file_unreadable",
        }
    }

    /// The error as an error diagnostic on its file.
    pub fn to_diagnostic(&self) -> HookDiagnostic {
        HookDiagnostic::error(self.to_string()).in_file(self.path()).with_code(self.code())
    }
}

/// Reads the hook file at `ctx.path` and parses it with `format`'s descriptor.
///
/// Before opening, the path must resolve to a regular file (a directory, FIFO, socket or
/// device is refused, so reading never blocks on a pipe), symlink loops and dangling links are
/// named as such, and the size must be at most [`MAX_SOURCE_BYTES`]; the read itself is
/// capped too, in case the file grows in between. The bytes then go to the format's parser
/// ([`FormatDescriptor::parse`]) with `ctx`, whose [`ParseResult`] is returned as is.
///
/// The loaders and the watcher read files through this function.
///
/// A file the reader refuses goes to the format first ([`FormatDescriptor::unreadable`]): under
/// a strict contract that reads such a file as malformed (Claude Code's deny-only contract)
/// the format returns the source it stands for, which fails closed instead of reading as "no
/// file". Only [`ReadError::Missing`] (nothing at the path at all, say a file deleted after it
/// was found) never goes there.
pub fn read_source(
    format: &dyn FormatDescriptor,
    ctx: &ParseContext<'_>,
) -> Result<ParseResult, ReadError> {
    read_source_bytes(format, ctx).map(|(_, parsed)| parsed)
}

/// [`read_source`], also handing back exactly the bytes parsed (`None` when the file could not
/// be read and the format answered for it), for a trust policy that decides on content
/// ([`hooks_trust::TrustPolicy::decide_file`]).
pub fn read_source_bytes(
    format: &dyn FormatDescriptor,
    ctx: &ParseContext<'_>,
) -> Result<(Option<Vec<u8>>, ParseResult), ReadError> {
    match read_capped(ctx.path) {
        Ok(bytes) => {
            let parsed = format.parse(&bytes, ctx);
            Ok((Some(bytes), parsed))
        }
        Err(e @ ReadError::Missing { .. }) => Err(e),
        Err(e) => format.unreadable(e.to_diagnostic(), ctx).map(|p| (None, p)).ok_or(e),
    }
}

/// The trust decision for a file as read: by `policy`'s [`TrustPolicy::decide_file`] when
/// it was read and parsed, by its kind otherwise (a file that did not parse binds nothing).
pub fn decide_read(
    policy: &dyn TrustPolicy,
    ctx: &ParseContext<'_>,
    project_root: Option<&AbsPathBuf>,
    read: &(Option<Vec<u8>>, ParseResult),
    inputs: &TrustInputs,
) -> TrustDecision {
    match read {
        (Some(bytes), Ok(parsed)) => policy.decide_file(
            &FileRead { kind: ctx.kind, path: ctx.path, project_root, bytes, parsed },
            inputs,
        ),
        _ => policy.decide(ctx.kind, inputs),
    }
}

/// Adds `more` to a parse's diagnostics, whether the file parsed or not.
pub(crate) fn extend_diagnostics(parsed: &mut ParseResult, more: Vec<HookDiagnostic>) {
    match parsed {
        Ok(p) => p.diagnostics.extend(more),
        Err(diagnostics) => diagnostics.extend(more),
    }
}

/// The file's bytes, after the checks [`read_source`] describes.
pub fn read_capped(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_capped_to(path, MAX_SOURCE_BYTES)
}

/// [`read_capped`] with another size limit (for tools that inspect files the engine itself
/// would refuse, like `hooks check`).
pub fn read_capped_to(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let owned = || path.to_path_buf();
    let meta = fs::metadata(path).map_err(|e| classify(path, e))?;
    let file_type = meta.file_type();
    if !file_type.is_file() {
        return Err(ReadError::NotAFile { path: owned(), what: describe(&file_type) });
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge { path: owned(), size: meta.len(), cap });
    }
    let file = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io { path: owned(), source })?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > cap {
        return Err(ReadError::TooLarge { path: owned(), size: read, cap });
    }
    Ok(bytes)
}

/// Opens `path` for reading without blocking and checks, on the open handle, that it is a
/// regular file.
///
/// The check before opening can be raced: a file swapped for a FIFO between the `stat` and the
/// `open` would block a plain `open` until a writer appears, holding the watcher's lock. With
/// `O_NONBLOCK` opening a FIFO returns at once, and the handle's own metadata refuses it.
pub(crate) fn open_regular(path: &Path) -> Result<fs::File, ReadError> {
    let file = hooks_registry::open_nonblocking(path).map_err(|e| classify(path, e))?;
    let meta =
        file.metadata().map_err(|source| ReadError::Io { path: path.to_path_buf(), source })?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotAFile {
            path: path.to_path_buf(),
            what: describe(&meta.file_type()),
        });
    }
    Ok(file)
}

/// `ELOOP`, which std does not name (on stable), for each family of platforms.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod sys {
    pub(super) const ELOOP: i32 = 40;
}
#[cfg(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
))]
mod sys {
    pub(super) const ELOOP: i32 = 62;
}
#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)))]
mod sys {
    pub(super) const ELOOP: i32 = -1;
}

fn classify(path: &Path, e: io::Error) -> ReadError {
    let path = path.to_path_buf();
    if is_symlink_loop(&e) {
        return ReadError::SymlinkLoop { path };
    }
    match e.kind() {
        io::ErrorKind::NotFound if fs::symlink_metadata(&path).is_ok() => {
            ReadError::DanglingSymlink { path }
        }
        io::ErrorKind::NotFound => ReadError::Missing { path },
        _ => ReadError::Io { path, source: e },
    }
}

/// Whether `e` is `ELOOP`.
fn is_symlink_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(sys::ELOOP)
}

fn describe(file_type: &fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a fifo";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    "a special file"
}

#[cfg(test)]
mod tests;
