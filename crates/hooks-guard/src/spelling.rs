//! Spellings of an edited path that a file tool reads differently from a plain path: a NUL
//! byte, a `file:` URL, `~`, and names that mean "this process" (`/proc/self`, `/dev/fd`),
//! which the guard must not resolve in its own process.

use std::{
    ffi::OsString,
    path::{Component, Path, PathBuf},
};

use crate::GuardError;

#[cfg(test)]
mod tests;

/// How many symlinks [`process_relative_link`] follows before it gives up (the kernel's own
/// limit is 40).
const MAX_LINK_HOPS: u32 = 40;

/// The paths an agent's file tool may open for `requested`, before joining and resolution:
/// the path as written, and where a `file:` URL or a leading `~` points when the tool
/// expands them. Both are checked; a hit under either counts.
///
/// A NUL byte is an error (no file has that name, and a C string would be cut there). `~` and
/// `~/…` need the user's home; without one, or for `~user/…`, the path is refused rather
/// than read only literally. A `file:` URL with a host other than `localhost`, a query or
/// a fragment, or a malformed escape is refused.
pub(crate) fn spellings(requested: &Path, home: Option<&Path>) -> Result<Vec<PathBuf>, GuardError> {
    if has_nul(requested) {
        return Err(GuardError::NulByte { path: requested.to_path_buf() });
    }
    let mut out = vec![requested.to_path_buf()];
    let text = requested.as_os_str().to_string_lossy();
    if text.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("file:")) {
        let decoded = file_url_path(&text[5..])
            .ok_or_else(|| GuardError::UnsupportedUrl { path: requested.to_path_buf() })?;
        if has_nul(&decoded) {
            return Err(GuardError::NulByte { path: requested.to_path_buf() });
        }
        out.push(decoded);
    } else if let Some(rest) = text.strip_prefix('~') {
        let after = match rest.strip_prefix('/') {
            Some(after) => after,
            None if rest.is_empty() => "",
            None => return Err(GuardError::HomeRelative { path: requested.to_path_buf() }),
        };
        let home =
            home.ok_or_else(|| GuardError::HomeRelative { path: requested.to_path_buf() })?;
        // Index into the OS string, not the lossy text, so a name that is not UTF-8 keeps
        // its bytes.
        let bytes = requested.as_os_str().as_encoded_bytes();
        let tail = bytes.get(bytes.len() - after.len()..).unwrap_or_default();
        out.push(home.join(os_from_bytes(tail).unwrap_or_else(|| OsString::from(after))));
    }
    Ok(out)
}

fn has_nul(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().contains(&0)
}

/// The path of a `file:` URL (the text after `file:`): `//localhost/p`, `///p` or `/p`,
/// percent-decoded. `None` for another host, a query, a fragment, a relative form or a
/// malformed escape.
fn file_url_path(rest: &str) -> Option<PathBuf> {
    if rest.contains(['?', '#']) {
        return None;
    }
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => {
            let (host, path) = match authority_and_path.find('/') {
                Some(i) => authority_and_path.split_at(i),
                None => (authority_and_path, "/"),
            };
            if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                return None;
            }
            path
        }
        None if rest.starts_with('/') => rest,
        None => return None,
    };
    // A `%` must start a two-digit escape; `percent_decode` would keep a stray one as is.
    let bytes = path.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'%'
            && !bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        {
            return None;
        }
    }
    let decoded: Vec<u8> = percent_encoding::percent_decode(bytes).collect();
    os_from_bytes(&decoded).map(PathBuf::from)
}

/// Bytes as an OS string: any bytes on Unix, UTF-8 only elsewhere.
fn os_from_bytes(bytes: &[u8]) -> Option<OsString> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(OsString::from_vec(bytes.to_vec()))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes.to_vec()).ok().map(OsString::from)
    }
}

/// Whether `path` (absolute, as written) names something relative to the process that
/// opens it: `/proc/self`, `/proc/thread-self`, `/proc/<the guard's own pid>`, `/dev/fd`,
/// `/dev/stdin`, `/dev/stdout`, `/dev/stderr`. The guard runs in another process than the
/// agent's file tool (`hooks serve`, `hooks guard`), so it cannot read these for the agent.
pub(crate) fn is_process_relative(path: &Path) -> bool {
    let mut parts = path.components().filter(|c| !matches!(c, Component::CurDir));
    if parts.next() != Some(Component::RootDir) {
        return false;
    }
    let (Some(Component::Normal(top)), Some(Component::Normal(name))) =
        (parts.next(), parts.next())
    else {
        return false;
    };
    if top == "proc" {
        static OWN_PID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        name == "self"
            || name == "thread-self"
            || name.to_str() == Some(OWN_PID.get_or_init(|| std::process::id().to_string()))
    } else if top == "dev" {
        name == "fd" || name == "stdin" || name == "stdout" || name == "stderr"
    } else {
        false
    }
}

/// The first symlink on `path` (absolute) whose target is process-relative
/// ([`is_process_relative`]), following chains of links the way the kernel does; `None`
/// when there is none. A missing component ends the walk: nothing past it exists.
///
/// Used when a path's resolution went through a symlink: a repository can hold a link to
/// `/proc/self/cwd`, which the guard's own process would read as its own directory.
///
/// `physical` are canonical paths of the same resolution (readings that exist): every folder
/// on them was found not to be a symlink, so the walk takes a candidate that is one of them
/// or one of their ancestors without reading it again. Only the links themselves and what
/// lies off those paths cost a system call.
pub(crate) fn process_relative_link(path: &Path, physical: &[&Path]) -> Option<PathBuf> {
    let mut hops = 0;
    let mut pending: Vec<OsString> =
        path.components().rev().map(|c| c.as_os_str().to_os_string()).collect();
    let mut current = PathBuf::new();
    while let Some(part) = pending.pop() {
        let part = Path::new(&part);
        match part.components().next() {
            Some(Component::RootDir | Component::Prefix(_)) => {
                current = part.to_path_buf();
                continue;
            }
            Some(Component::ParentDir) => {
                current.pop();
                continue;
            }
            Some(Component::CurDir) | None => continue,
            Some(Component::Normal(_)) => {}
        }
        current.push(part);
        if physical.iter().any(|p| p.starts_with(&current)) {
            continue;
        }
        let Some(target) = link_target(&current)? else { continue };
        let link = current.clone();
        current.pop();
        let absolute = if target.is_absolute() { target.clone() } else { current.join(&target) };
        if is_process_relative(&crate::normalize_lexically(&absolute))
            || is_process_relative(&absolute)
        {
            return Some(link);
        }
        hops += 1;
        if hops > MAX_LINK_HOPS {
            return None;
        }
        pending.extend(target.components().rev().map(|c| c.as_os_str().to_os_string()));
    }
    None
}

/// The target of `path` when it is a symlink, `Some(None)` when it exists and is not one,
/// `None` when it cannot be read (missing).
#[cfg(unix)]
fn link_target(path: &Path) -> Option<Option<PathBuf>> {
    // One system call: `readlink` answers EINVAL for anything that is not a symlink.
    match std::fs::read_link(path) {
        Ok(target) => Some(Some(target)),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Some(None),
        Err(_) => None,
    }
}

/// The target of `path` when it is a symlink, `Some(None)` when it exists and is not one,
/// `None` when it cannot be read (missing).
#[cfg(not(unix))]
fn link_target(path: &Path) -> Option<Option<PathBuf>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() {
        return Some(None);
    }
    std::fs::read_link(path).ok().map(Some)
}
