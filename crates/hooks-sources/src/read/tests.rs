//! Tests for reading hook files: the checks before opening, the cap, and the adapters.

use std::{fs, path::Path};

use hooks_schema::{HookSourceKind, ParseContext, ParseResult};
use hooks_testing::kinds::{PROJECT_CHRYS_FILE, PROJECT_CLAUDE_SETTINGS, PROJECT_CURSOR_FILE};

/// The user's Claude Code settings, the file the deny-only contract is read from.
const USER_CLAUDE: HookSourceKind = hooks_testing::kinds::USER_CLAUDE_SETTINGS;

use crate::{
    MAX_SOURCE_BYTES, ReadError, read::open_regular, read_capped, read_capped_to, read_with,
};

/// Reads `path` as a project file of `kind`'s format.
fn read_source(path: &Path, kind: HookSourceKind) -> Result<ParseResult, ReadError> {
    read_with(&hooks_testing::workspace_formats(), &ParseContext::new(path, kind))
}

/// Reads `path` as a project file of `kind`'s format under its strict contract.
fn read_strict(path: &Path, kind: HookSourceKind) -> Result<ParseResult, ReadError> {
    let ctx = ParseContext { strict: true, ..ParseContext::new(path, kind) };
    read_with(&hooks_testing::workspace_formats(), &ctx)
}

const CURSOR_OK: &str =
    r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./check.sh"}]}}"#;

#[test]
fn a_valid_file_is_parsed_by_its_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hooks.json");
    fs::write(&path, CURSOR_OK).unwrap();
    let parsed = read_source(&path, PROJECT_CURSOR_FILE).unwrap().unwrap();
    assert_eq!(parsed.definitions.len(), 1);
}

#[test]
fn a_file_that_does_not_parse_is_read_and_rejected_by_the_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hooks.json");
    fs::write(&path, "{ not json").unwrap();
    let diags = read_source(&path, PROJECT_CURSOR_FILE).unwrap().unwrap_err();
    assert!(diags.iter().any(|d| d.is_error()), "{diags:?}");
}

#[test]
fn a_missing_file_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("nope/hooks.json");
    let err = read_capped(&path).unwrap_err();
    assert!(matches!(err, ReadError::Missing { .. }), "{err:?}");
    assert_eq!(err.to_string(), format!("hook file `{}` does not exist", path.display()));
    let d = err.to_diagnostic();
    assert!(d.is_error());
    assert_eq!(d.source.as_deref(), Some(path.as_path()));
    assert_eq!(d.code.as_deref(), Some("file_missing"));
}

#[test]
fn a_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let err = read_source(tmp.path(), PROJECT_CHRYS_FILE).unwrap_err();
    assert!(matches!(err, ReadError::NotAFile { what: "a directory", .. }), "{err:?}");
    assert!(err.to_string().contains(&tmp.path().display().to_string()));
}

#[test]
fn a_file_over_the_cap_is_refused_before_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hooks.json");
    let f = fs::File::create(&path).unwrap();
    f.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    let err = read_source(&path, PROJECT_CURSOR_FILE).unwrap_err();
    assert!(
        matches!(err, ReadError::TooLarge { size, .. } if size == MAX_SOURCE_BYTES + 1),
        "{err:?}"
    );
    // Exactly the cap is fine (the adapter then rejects the zeros).
    f.set_len(MAX_SOURCE_BYTES).unwrap();
    assert_eq!(read_capped(&path).unwrap().len() as u64, MAX_SOURCE_BYTES);
    // Another limit is the caller's: above the engine's, a larger file reads; above its own
    // it is refused naming it.
    f.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    assert_eq!(
        read_capped_to(&path, 2 * MAX_SOURCE_BYTES).unwrap().len() as u64,
        MAX_SOURCE_BYTES + 1
    );
    let err = read_capped_to(&path, 100).unwrap_err();
    assert!(matches!(err, ReadError::TooLarge { cap: 100, .. }), "{err:?}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_dangling_links_are_named_as_such() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.json");
    let b = tmp.path().join("b.json");
    symlink(&b, &a).unwrap();
    symlink(&a, &b).unwrap();
    let err = read_source(&a, PROJECT_CURSOR_FILE).unwrap_err();
    assert!(matches!(err, ReadError::SymlinkLoop { .. }), "{err:?}");
    assert!(err.to_string().ends_with("is a symlink loop"), "{err}");

    let dangling = tmp.path().join("d.json");
    symlink(tmp.path().join("gone"), &dangling).unwrap();
    let err = read_capped(&dangling).unwrap_err();
    assert!(matches!(err, ReadError::DanglingSymlink { .. }), "{err:?}");
    assert_eq!(err.code(), "dangling_symlink");
}

/// Under Claude Code's strict contract every refusal of the reader reaches the contract as a
/// malformed file, which fails closed on every gated event, never as "no file".
#[cfg(unix)]
#[test]
fn a_strict_claude_file_the_reader_refuses_fails_closed() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let regular = dir.join("regular");
    fs::write(&regular, "x").unwrap();
    let huge = dir.join("huge.json");
    fs::File::create(&huge).unwrap().set_len(MAX_SOURCE_BYTES + 1).unwrap();
    let fifo = dir.join("fifo.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let directory = dir.join("dir.json");
    fs::create_dir(&directory).unwrap();
    let dangling = dir.join("dangling.json");
    symlink(dir.join("gone"), &dangling).unwrap();
    let looped = dir.join("loop.json");
    symlink(&looped, &looped).unwrap();
    let not_utf8 = dir.join("latin1.json");
    fs::write(&not_utf8, b"{\"hooks\": {\"version\": 1, \"PreToolUse\": [{\"matcher\": \"B\xe4sh\", \"hooks\": []}]}}").unwrap();
    // A path under a regular file: the kernel answers ENOTDIR, an IO error of the reader.
    let unreadable = regular.join("settings.json");
    for (path, code) in [
        (&huge, "file_too_large"),
        (&fifo, "not_a_file"),
        (&directory, "not_a_file"),
        (&dangling, "dangling_symlink"),
        (&looped, "symlink_loop"),
        (&unreadable, "file_unreadable"),
        (&not_utf8, "invalid_json"),
    ] {
        // In default mode the reader's refusal is an error (no hooks, nothing denied)...
        if code != "invalid_json" {
            assert_eq!(read_source(path, USER_CLAUDE).unwrap_err().code(), code);
        }
        // ...under the strict contract it is a source that denies every gated event.
        let parsed = read_strict(path, USER_CLAUDE)
            .unwrap_or_else(|e| panic!("{code}: {e}"))
            .unwrap_or_else(|d| panic!("{code}: {d:?}"));
        let events: Vec<&str> = parsed.definitions.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(events.len(), 5, "{code}: {events:?}");
        assert!(events.iter().all(|id| id.ends_with("[fail-closed]")), "{code}: {events:?}");
        let codes: Vec<_> = parsed.diagnostics.iter().filter_map(|d| d.code.as_deref()).collect();
        assert_eq!(codes, [code, "fail_closed"], "{code}");
    }
    // Nothing at all at the path is still no file.
    let nothing = dir.join("nothing.json");
    assert!(matches!(read_strict(&nothing, USER_CLAUDE), Err(ReadError::Missing { .. })));
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_file_is_read_through() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("real.json");
    fs::write(&target, CURSOR_OK).unwrap();
    let link = tmp.path().join("hooks.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_eq!(read_capped(&link).unwrap(), CURSOR_OK.as_bytes());
}

#[cfg(unix)]
#[test]
fn a_socket_is_refused_without_opening_it() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hooks.json");
    let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let err = read_source(&path, PROJECT_CURSOR_FILE).unwrap_err();
    assert!(matches!(err, ReadError::NotAFile { what: "a socket", .. }), "{err:?}");
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_without_reading_it() {
    let err = read_capped(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(err, ReadError::NotAFile { what: "a device", .. }), "{err:?}");
}

#[test]
fn each_format_goes_to_its_own_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let chrys = tmp.path().join("hooks.yaml");
    fs::write(
        &chrys,
        "version: 1\nhooks:\n  - id: note\n    event: after_turn\n    run: { type: shell, shell: 'true' }\n",
    )
    .unwrap();
    let parsed = read_source(&chrys, PROJECT_CHRYS_FILE).unwrap().unwrap();
    assert_eq!(parsed.definitions.len(), 1);
    assert_eq!(parsed.definitions[0].id.as_str(), "note");

    let claude = tmp.path().join("settings.json");
    fs::write(
        &claude,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./x.sh"}]}]}}"#,
    )
    .unwrap();
    let parsed = read_source(&claude, PROJECT_CLAUDE_SETTINGS).unwrap().unwrap();
    assert_eq!(parsed.definitions.len(), 1);

    // The Cursor adapter does not read a Claude document as hooks.
    let as_cursor = read_source(&claude, PROJECT_CURSOR_FILE).unwrap();
    assert!(as_cursor.map(|p| p.definitions.is_empty()).unwrap_or(true));
}

#[test]
fn claude_strict_mode_reaches_the_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join("settings.json");
    // No `hooks.version: 1`: fine for Claude Code, a violation of the strict contract.
    let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./x.sh"}]}]}}"#;
    fs::write(&claude, text).unwrap();
    let lax = read_source(&claude, PROJECT_CLAUDE_SETTINGS).unwrap().unwrap();
    let strict = read_strict(&claude, PROJECT_CLAUDE_SETTINGS).unwrap();
    let strict_diags = match &strict {
        Ok(p) => p.diagnostics.clone(),
        Err(d) => d.clone(),
    };
    assert_ne!(strict_diags, lax.diagnostics, "strict mode reports the contract violation");
    // A format without a strict contract reads the same either way.
    let cursor = tmp.path().join("hooks.json");
    fs::write(&cursor, r#"{"version": 1, "hooks": {}}"#).unwrap();
    assert_eq!(
        read_strict(&cursor, PROJECT_CURSOR_FILE).unwrap(),
        read_source(&cursor, PROJECT_CURSOR_FILE).unwrap()
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Whatever a regular file under the cap holds, reading it returns the adapter's result
    /// (never a read error, never a panic), in every format.
    #[test]
    fn any_small_file_reaches_its_adapter(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512)) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("hooks.json");
        fs::write(&path, &bytes).unwrap();
        for format in [PROJECT_CURSOR_FILE, PROJECT_CHRYS_FILE, PROJECT_CLAUDE_SETTINGS] {
            proptest::prop_assert!(read_source(&path, format).is_ok());
            proptest::prop_assert!(read_strict(&path, format).is_ok());
        }
    }
}

/// The second line of defence behind the check before opening: a FIFO that slipped past it
/// (swapped in between) is opened without blocking and refused from the open handle.
#[cfg(unix)]
#[test]
fn a_fifo_reaching_the_open_is_refused_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hooks.json");
    let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || {
        let _ = tx.send(open_regular(&p).map(|_| ()));
    });
    let got = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("open did not block");
    let err = got.unwrap_err();
    assert!(matches!(err, ReadError::NotAFile { what: "a fifo", .. }), "{err:?}");
}
