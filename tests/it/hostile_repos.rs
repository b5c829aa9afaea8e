//! Hostile repositories through the watcher, hooks-sources and the adapters: every hostile hook file ends in a diagnostic, in bounded time and memory.
//!
//! Each scenario is a real directory tree under a watched root, next to a well-behaved root
//! that must keep working. A hostile file that replaces a valid one is a failed reload: the
//! registry keeps the last valid parse in effect and marks the source stale (the seed's rule),
//! and the revision does not move. Every engine call runs on a 2 MiB-stack thread under a
//! deadline, so a hang or a stack overflow fails the test instead of stalling CI; peak memory
//! is read from `/proc/self/status`. Permission denial is tested for real in a child process
//! without capabilities (the suite runs as root in the development container, where `chmod
//! 000` denies nothing).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    sync::{Arc, mpsc},
    time::{Duration, Instant},
};

use hooks_registry::{LoadStateKind, RegistryHandle, SourceView, canonicalize};
use hooks_schema::{AbsPathBuf, HookEvent, HookSourceKind};
use hooks_sources::{MAX_SOURCE_BYTES, read_with};
use hooks_trust::{CommandExecutionPosture, Surface};
use hooks_watcher::{HookConfigWatcher, WatchedPlace, WatcherEvent};

use crate::support::{TestDir, auto_approving_watcher, peak_rss_kib};

/// The longest any single engine call on a hostile tree may take.
const LIMIT: Duration = Duration::from_secs(20);
/// The most the process's peak memory may grow during one hostile load.
const MEMORY_BUDGET_KIB: u64 = 512 * 1024;

const CURSOR: &str = ".cursor/hooks.json";
const CHRYS: &str = ".chrys/hooks/hooks.yaml";
const CLAUDE: &str = ".claude/settings.json";
const CHRYS_JSON: &str = ".chrys/hooks/hooks.json";

fn cursor_file(script: &str) -> String {
    format!(r#"{{"version": 1, "hooks": {{"stop": [{{"command": "{script}"}}]}}}}"#)
}

const CHRYS_VALID: &str =
    "hooks:\n  - id: start\n    event: session_start\n    run: {type: shell, shell: \"true\"}\n";
const CLAUDE_VALID: &str =
    r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}"#;

/// Runs `f` on a fresh thread with a 2 MiB stack (the size of a test or worker thread) and
/// waits for it at most [`LIMIT`].
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("bounded: {what}"))
        .stack_size(2 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn a bounded thread");
    match rx.recv_timeout(LIMIT) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: still running after {LIMIT:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: the thread panicked"),
    }
}

/// A watcher whose project files run (a CLI run that auto-approves, and a user who opted in to
/// project Chrys hooks), over a parent folder holding the roots.
struct Repos {
    dir: TestDir,
    registry: RegistryHandle,
    watcher: Arc<HookConfigWatcher>,
}

impl Repos {
    fn new() -> Repos {
        let registry = RegistryHandle::default();
        registry.change(|r| r.set_user_opt_in(true));
        let watcher = auto_approving_watcher(&registry);
        Repos { dir: TestDir::new(), registry, watcher: Arc::new(watcher) }
    }

    /// A new root folder (not yet watched), canonical.
    fn root(&self, name: &str) -> AbsPathBuf {
        let p = self.dir.path().join(name);
        fs::create_dir_all(&p).expect("create root");
        canonicalize(&p).expect("canonical root")
    }

    /// Adds `root` (which loads its files on the spot) and waits for its watch, bounded.
    fn add(&self, root: &AbsPathBuf) {
        let watcher = Arc::clone(&self.watcher);
        let r = root.clone();
        let attached = bounded("add_root", move || {
            watcher.add_root(r.as_path()).wait_timeout(LIMIT).expect("attached in time")
        });
        assert_eq!(attached.expect("attached").as_path(), root.as_path());
    }

    /// Reads `root`'s files from disk again, as a debounced change does, bounded.
    fn reload(&self, root: &AbsPathBuf) {
        let watcher = Arc::clone(&self.watcher);
        let r = root.clone();
        bounded("reload", move || watcher.reload(&WatchedPlace::Root(r)).map(|_| ()))
            .expect("reload a watched root");
    }

    /// The source of `kind` that applies under `root`.
    fn source(&self, kind: HookSourceKind, root: &AbsPathBuf) -> Option<SourceView> {
        self.registry
            .snapshot()
            .sources()
            .iter()
            .find(|s| s.id.kind == kind && s.roots.contains(root))
            .map(|s| SourceView::clone(s))
    }

    fn expect_source(&self, kind: HookSourceKind, root: &AbsPathBuf) -> SourceView {
        self.source(kind, root).unwrap_or_else(|| {
            panic!("no {kind:?} source under {root}: {:#?}", self.registry.snapshot().sources())
        })
    }

    /// The commands of the bindings that apply in `root`.
    fn commands_in(&self, root: &AbsPathBuf) -> Vec<String> {
        self.registry
            .snapshot()
            .bindings_for(root.as_path())
            .iter()
            .map(|b| format!("{:?}", b.definition.command))
            .collect()
    }

    /// A second, well-behaved root, loaded and running.
    fn good_root(&self) -> AbsPathBuf {
        let good = self.root("zz-good");
        fs::create_dir_all(good.as_path().join(".cursor")).expect("mkdir");
        fs::write(good.as_path().join(CURSOR), cursor_file("./good.sh")).expect("write");
        self.add(&good);
        self.assert_good(&good);
        good
    }

    fn assert_good(&self, good: &AbsPathBuf) {
        let src = self.expect_source(hooks_format_cursor::PROJECT_FILE, good);
        assert_eq!(src.load_state, LoadStateKind::Loaded);
        assert!(src.runs, "{:?}", src.trust);
        let commands = self.commands_in(good);
        assert!(commands.iter().any(|c| c.contains("./good.sh")), "{commands:?}");
    }
}

fn write_bytes(root: &AbsPathBuf, rel: &str, bytes: &[u8]) -> PathBuf {
    let p = root.as_path().join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(&p, bytes).expect("write");
    p
}

/// Replaces whatever is at `rel` (a file, a directory, a link) with nothing.
fn clear(root: &AbsPathBuf, rel: &str) -> PathBuf {
    let p = root.as_path().join(rel);
    match fs::symlink_metadata(&p) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&p).expect("rm -r"),
        Ok(_) => fs::remove_file(&p).expect("rm"),
        Err(_) => {}
    }
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    p
}

/// Puts `hostile`'s thing where the valid file is, in one step, and returns that path.
///
/// The real watcher may reload the root at any moment: removing the file first and writing
/// in place let it see no file (the source withdrawn, then failed rather than stale), or a
/// partly written one (a valid prefix of an oversized file). So the thing is made at the same
/// place under `stage` (outside every watched root), whatever else it made beside it is
/// moved next to the valid file, and then the two are exchanged (`renameat2` with
/// `RENAME_EXCHANGE`, which swaps a file for a directory too).
fn replace_in_one_step(stage: &AbsPathBuf, root: &AbsPathBuf, hostile: &Hostile) -> PathBuf {
    let path = root.as_path().join(hostile.rel);
    let staged = stage.as_path().join(hostile.rel);
    let folder = staged.parent().expect("parent");
    fs::create_dir_all(folder).expect("mkdir");
    (hostile.make)(root, &staged);
    let name = staged.file_name().expect("name");
    for entry in fs::read_dir(folder).expect("read the stage").flatten() {
        if entry.file_name() != name {
            let to = path.with_file_name(entry.file_name());
            fs::rename(entry.path(), &to).expect("move a companion");
        }
    }
    rustix::fs::renameat_with(
        rustix::fs::CWD,
        &staged,
        rustix::fs::CWD,
        &path,
        rustix::fs::RenameFlags::EXCHANGE,
    )
    .expect("exchange the valid file with the hostile one");
    fs::remove_dir_all(stage.as_path()).expect("remove the stage");
    path
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn codes(src: &SourceView) -> Vec<String> {
    src.diagnostics.iter().filter_map(|d| d.code.clone()).collect()
}

fn error_text(src: &SourceView) -> String {
    src.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("[{}] {}", d.code.as_deref().unwrap_or("-"), d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One hostile content for a hook file, by what it does.
struct Hostile {
    name: &'static str,
    /// Where it goes.
    rel: &'static str,
    kind: HookSourceKind,
    /// Puts it there (after whatever was there is removed).
    make: fn(&AbsPathBuf, &Path),
    /// The diagnostic code expected, when one specific code names the problem.
    code: Option<&'static str>,
}

fn sparse_huge(_: &AbsPathBuf, p: &Path) {
    // a 64 GiB file that occupies no disk: refused from its size alone
    let f = fs::File::create(p).expect("create");
    f.set_len(MAX_SOURCE_BYTES * 65536).expect("set_len");
}

fn written_huge(_: &AbsPathBuf, p: &Path) {
    // one byte over the cap, written out: valid JSON padded with spaces
    let mut text = cursor_file("./huge.sh").into_bytes();
    text.resize(usize::try_from(MAX_SOURCE_BYTES).expect("cap fits") + 1, b' ');
    fs::write(p, text).expect("write");
}

fn json_nested(_: &AbsPathBuf, p: &Path) {
    let depth = 200_000;
    let text = format!(
        r#"{{"version": 1, "hooks": {{"stop": {}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    fs::write(p, text).expect("write");
}

fn claude_nested(_: &AbsPathBuf, p: &Path) {
    let depth = 200_000;
    let text = format!(r#"{{"hooks": {{"Stop": {}{}}}}}"#, "[".repeat(depth), "]".repeat(depth));
    fs::write(p, text).expect("write");
}

fn yaml_flow_nested(_: &AbsPathBuf, p: &Path) {
    let depth = 200_000;
    fs::write(p, format!("hooks: {}{}\n", "[".repeat(depth), "]".repeat(depth))).expect("write");
}

fn yaml_block_nested(_: &AbsPathBuf, p: &Path) {
    // `- - - … x`: 100 000 block sequences nested on one line, 200 KB
    fs::write(p, format!("hooks:\n{}x\n", "- ".repeat(100_000))).expect("write");
}

/// Billion laughs: nine levels of nine aliases each (387 420 489 leaves once expanded),
/// used where the loader reads a hook (`match.args`) and at the top level.
fn alias_bomb(_: &AbsPathBuf, p: &Path) {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let (prev, next) = (w[0], w[1]);
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{next}: &{next} [{refs}]\n"));
    }
    text.push_str(
        "hooks:\n  - id: bomb\n    event: before_tool_call\n    match: {args: {x: {equals: *i}}}\n    run: {type: shell, shell: *i}\n",
    );
    fs::write(p, text).expect("write");
}

/// The same bomb with the aliases inside the `hooks` list itself.
fn alias_bomb_inline(_: &AbsPathBuf, p: &Path) {
    let mut text = String::from(
        "hooks:\n  - id: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n    event: session_start\n    run: {type: shell, shell: \"true\"}\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for (n, w) in names.windows(2).enumerate() {
        let (prev, next) = (w[0], w[1]);
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!(
            "  - id: &{next} [{refs}]\n    event: session_start\n    run: {{type: shell, shell: \"true\"}}\n    description: {n}\n"
        ));
    }
    fs::write(p, text).expect("write");
}

fn invalid_utf8_json(_: &AbsPathBuf, p: &Path) {
    fs::write(
        p,
        b"{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./\xff\xfe\xc0.sh\"}]}}",
    )
    .expect("write");
}

fn invalid_utf8_yaml(_: &AbsPathBuf, p: &Path) {
    fs::write(
        p,
        b"hooks:\n  - id: \xff\xfe\n    event: session_start\n    run: {type: shell, shell: \"\xc0\"}\n",
    )
    .expect("write");
}

fn utf16_json(_: &AbsPathBuf, p: &Path) {
    let text = cursor_file("./u16.sh");
    let mut bytes = vec![0xFF, 0xFE];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    fs::write(p, bytes).expect("write");
}

fn yaml_in_cursor_file(_: &AbsPathBuf, p: &Path) {
    fs::write(p, "version: 1\nhooks:\n  stop:\n    - command: ./yaml.sh\n").expect("write");
}

fn claude_in_chrys_file(_: &AbsPathBuf, p: &Path) {
    fs::write(p, CLAUDE_VALID).expect("write");
}

fn cursor_in_claude_file(_: &AbsPathBuf, p: &Path) {
    fs::write(p, cursor_file("./cursor.sh")).expect("write");
}

fn binary_garbage(_: &AbsPathBuf, p: &Path) {
    let bytes: Vec<u8> =
        (0..65_536u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    fs::write(p, bytes).expect("write");
}

fn a_directory(_: &AbsPathBuf, p: &Path) {
    fs::create_dir_all(p.join("inside")).expect("mkdir");
}

fn a_fifo(_: &AbsPathBuf, p: &Path) {
    mkfifo(p);
}

fn a_socket(_: &AbsPathBuf, p: &Path) {
    let listener = std::os::unix::net::UnixListener::bind(p).expect("bind a socket");
    drop(listener);
}

fn link_to_itself(_: &AbsPathBuf, p: &Path) {
    std::os::unix::fs::symlink(p.file_name().expect("name"), p).expect("symlink");
}

fn link_loop_pair(_: &AbsPathBuf, p: &Path) {
    // Relative links, so the pair still loops once moved into place.
    let other = p.with_file_name("other.json");
    std::os::unix::fs::symlink("other.json", p).expect("symlink");
    std::os::unix::fs::symlink(p.file_name().expect("name"), &other).expect("symlink");
}

fn link_to_dev_zero(_: &AbsPathBuf, p: &Path) {
    std::os::unix::fs::symlink("/dev/zero", p).expect("symlink");
}

fn link_to_dev_urandom(_: &AbsPathBuf, p: &Path) {
    std::os::unix::fs::symlink("/dev/urandom", p).expect("symlink");
}

fn link_to_fifo_elsewhere(root: &AbsPathBuf, p: &Path) {
    let fifo = root.as_path().join("pipe");
    if !fifo.exists() {
        mkfifo(&fifo);
    }
    std::os::unix::fs::symlink(&fifo, p).expect("symlink");
}

fn hostile_files() -> Vec<Hostile> {
    use hooks_format_chrys::PROJECT_FILE as Chrys;
    use hooks_format_claude::PROJECT_SETTINGS as Claude;
    use hooks_format_cursor::PROJECT_FILE as Cursor;
    let h = |name, rel, kind, make, code| Hostile { name, rel, kind, make, code };
    vec![
        h(
            "sparse 64 GiB file",
            CURSOR,
            Cursor,
            sparse_huge as fn(&AbsPathBuf, &Path),
            Some("file_too_large"),
        ),
        h("sparse 64 GiB chrys file", CHRYS, Chrys, sparse_huge, Some("file_too_large")),
        h("sparse 64 GiB claude file", CLAUDE, Claude, sparse_huge, Some("file_too_large")),
        h("one byte over the cap", CURSOR, Cursor, written_huge, Some("file_too_large")),
        h("JSON nested 200 000 deep", CURSOR, Cursor, json_nested, None),
        h("Claude JSON nested 200 000 deep", CLAUDE, Claude, claude_nested, None),
        h("Chrys JSON nested 200 000 deep", CHRYS_JSON, Chrys, json_nested, None),
        h("YAML flow nested 200 000 deep", CHRYS, Chrys, yaml_flow_nested, None),
        h("YAML block nested 100 000 deep", CHRYS, Chrys, yaml_block_nested, None),
        h("YAML alias bomb", CHRYS, Chrys, alias_bomb, None),
        h("YAML alias bomb in hook ids", CHRYS, Chrys, alias_bomb_inline, None),
        h("invalid UTF-8 JSON", CURSOR, Cursor, invalid_utf8_json, None),
        h("invalid UTF-8 Claude JSON", CLAUDE, Claude, invalid_utf8_json, None),
        h("invalid UTF-8 YAML", CHRYS, Chrys, invalid_utf8_yaml, None),
        h("UTF-16 JSON", CURSOR, Cursor, utf16_json, None),
        h("YAML in hooks.json", CURSOR, Cursor, yaml_in_cursor_file, None),
        h("Claude settings in a Chrys file", CHRYS, Chrys, claude_in_chrys_file, None),
        h("Cursor file in Claude settings", CLAUDE, Claude, cursor_in_claude_file, None),
        h("binary garbage", CHRYS, Chrys, binary_garbage, None),
        h("a directory", CURSOR, Cursor, a_directory, Some("not_a_file")),
        h("a FIFO", CURSOR, Cursor, a_fifo, Some("not_a_file")),
        h("a FIFO as the Chrys file", CHRYS, Chrys, a_fifo, Some("not_a_file")),
        h("a socket", CLAUDE, Claude, a_socket, Some("not_a_file")),
        h("a symlink to itself", CURSOR, Cursor, link_to_itself, Some("symlink_loop")),
        h("a symlink loop of two", CLAUDE, Claude, link_loop_pair, Some("symlink_loop")),
        h("a symlink to a FIFO", CURSOR, Cursor, link_to_fifo_elsewhere, Some("not_a_file")),
    ]
}

fn valid_for(rel: &str) -> String {
    match rel {
        CURSOR => cursor_file("./valid.sh"),
        CHRYS => CHRYS_VALID.to_owned(),
        CLAUDE => CLAUDE_VALID.to_owned(),
        CHRYS_JSON => r#"{"hooks": [{"id": "start", "event": "session_start", "run": {"type": "shell", "shell": "true"}}]}"#.to_owned(),
        other => panic!("no valid file for {other}"),
    }
}

#[test]
fn a_hostile_hook_file_on_first_load_is_a_diagnostic_and_runs_nothing() {
    let repos = Repos::new();
    let good = repos.good_root();
    for (i, hostile) in hostile_files().into_iter().enumerate() {
        let root = repos.root(&format!("first-{i:02}"));
        let path = clear(&root, hostile.rel);
        (hostile.make)(&root, &path);
        let before = peak_rss_kib();
        let started = Instant::now();
        repos.add(&root);
        let took = started.elapsed();
        let grew = peak_rss_kib().saturating_sub(before);
        assert!(grew < MEMORY_BUDGET_KIB, "{}: peak memory grew by {grew} KiB", hostile.name);
        let src = repos.expect_source(hostile.kind, &root);
        if let Some(code) = hostile.code {
            assert!(
                codes(&src).iter().any(|c| c == code),
                "{}: {:?}",
                hostile.name,
                src.diagnostics
            );
        }
        // Either it failed outright, or it parsed into nothing that runs, with a diagnostic.
        let runs_nothing = repos.commands_in(&root).is_empty();
        assert!(
            src.load_state == LoadStateKind::Failed
                || (runs_nothing && !src.diagnostics.is_empty()),
            "{}: {:?} {:?} (took {took:?})",
            hostile.name,
            src.load_state,
            src.diagnostics
        );
        assert!(runs_nothing, "{}: {:?}", hostile.name, repos.commands_in(&root));
        assert!(
            repos.registry.snapshot().is_protected(&path).is_some()
                || fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()),
            "{}: a hook file that never parsed is still protected",
            hostile.name
        );
        repos.assert_good(&good);
    }
}

#[test]
fn a_hostile_rewrite_of_a_valid_file_keeps_the_last_valid_parse_marked_stale() {
    let repos = Repos::new();
    let good = repos.good_root();
    for (i, hostile) in hostile_files().into_iter().enumerate() {
        let root = repos.root(&format!("stale-{i:02}"));
        write_bytes(&root, hostile.rel, valid_for(hostile.rel).as_bytes());
        repos.add(&root);
        let loaded = repos.expect_source(hostile.kind, &root);
        assert_eq!(
            loaded.load_state,
            LoadStateKind::Loaded,
            "{}: {:?}",
            hostile.name,
            loaded.diagnostics
        );
        let defs: Vec<_> = loaded.definitions.iter().map(|d| d.id.clone()).collect();
        assert!(!defs.is_empty());
        let commands = repos.commands_in(&root);
        let revision = repos.registry.snapshot().revision();

        let path = replace_in_one_step(&repos.root(&format!("stage-{i:02}")), &root, &hostile);
        let before = peak_rss_kib();
        repos.reload(&root);
        let grew = peak_rss_kib().saturating_sub(before);
        assert!(grew < MEMORY_BUDGET_KIB, "{}: peak memory grew by {grew} KiB", hostile.name);

        if canonicalize(&path).is_ok_and(|target| target != loaded.id.path) {
            // Replaced by a link to another file: that file is another source (a symlink and
            // its target are one source), so the old one is withdrawn like a deleted file and
            // the new one fails on its own.
            assert!(repos.registry.snapshot().source(&loaded.id).is_none(), "{}", hostile.name);
            let src = repos.expect_source(hostile.kind, &root);
            assert_eq!(src.load_state, LoadStateKind::Failed, "{}", hostile.name);
            assert!(repos.commands_in(&root).is_empty(), "{}", hostile.name);
            continue;
        }

        let src = repos.expect_source(hostile.kind, &root);
        let parsed_anyway = src.load_state == LoadStateKind::Loaded;
        if parsed_anyway {
            // Some hostile texts are still valid documents of another shape (a Claude
            // settings file read as Chrys YAML): then the new parse is in effect and must
            // run nothing and say why.
            assert!(!src.diagnostics.is_empty(), "{}: no diagnostic", hostile.name);
            assert!(repos.commands_in(&root).is_empty(), "{}", hostile.name);
            continue;
        }
        assert_eq!(src.load_state, LoadStateKind::Stale, "{}: {}", hostile.name, error_text(&src));
        assert!(!error_text(&src).is_empty(), "{}: the failure is reported", hostile.name);
        if let Some(code) = hostile.code {
            assert!(
                codes(&src).iter().any(|c| c == code),
                "{}: {:?}",
                hostile.name,
                src.diagnostics
            );
        }
        let kept: Vec<_> = src.definitions.iter().map(|d| d.id.clone()).collect();
        assert_eq!(kept, defs, "{}: the last valid parse stays", hostile.name);
        assert_eq!(repos.commands_in(&root), commands, "{}: its hooks still run", hostile.name);
        assert_eq!(
            repos.registry.snapshot().revision(),
            revision,
            "{}: a failed reload does not move the revision",
            hostile.name
        );
        repos.assert_good(&good);
    }
}

#[test]
fn a_hook_file_linked_to_a_device_is_refused_without_reading_it() {
    let repos = Repos::new();
    let good = repos.good_root();
    for (name, make) in [
        ("/dev/zero", link_to_dev_zero as fn(&AbsPathBuf, &Path)),
        ("/dev/urandom", link_to_dev_urandom),
    ] {
        for (rel, format) in [
            (CURSOR, hooks_format_cursor::PROJECT_FILE),
            (CHRYS, hooks_format_chrys::PROJECT_FILE),
            (CLAUDE, hooks_format_claude::PROJECT_SETTINGS),
        ] {
            let root = repos.root(&format!(
                "dev-{}-{}",
                name.trim_start_matches("/dev/"),
                format.format().map_or("none", |f| f.as_str())
            ));
            let path = clear(&root, rel);
            make(&root, &path);
            // the reader alone
            let p = path.clone();
            let read = bounded("read_source on a device", move || {
                let formats = hooks_app::formats::workspace_formats();
                read_with(&formats, &hooks_schema::ParseContext::new(&p, format)).map(|_| ())
            });
            let err = read.expect_err("a device is not a hook file");
            assert_eq!(err.code(), "not_a_file", "{name} as {rel}: {err}");
            assert!(err.to_string().contains("a device"), "{err}");
            // through the watcher: a diagnostic on the device's source, nothing runs
            let before = peak_rss_kib();
            repos.add(&root);
            assert!(peak_rss_kib().saturating_sub(before) < MEMORY_BUDGET_KIB);
            let snapshot = repos.registry.snapshot();
            let dev =
                snapshot.sources().iter().find(|s| s.roots.contains(&root)).unwrap_or_else(|| {
                    panic!("{name} as {rel}: no source: {:#?}", snapshot.sources())
                });
            assert_eq!(dev.load_state, LoadStateKind::Failed, "{name} as {rel}");
            assert!(codes(dev).iter().any(|c| c == "not_a_file"), "{:?}", dev.diagnostics);
            assert!(repos.commands_in(&root).is_empty());
            repos.assert_good(&good);
        }
    }
}

#[test]
fn a_hook_file_linked_outside_the_repository_is_the_repositorys_source_with_the_target_protected() {
    let repos = Repos::new();
    let outside = TestDir::new();
    let target = outside.write("elsewhere/hooks.json", &cursor_file("./outside.sh"));
    let root = repos.root("linked");
    let link = clear(&root, CURSOR);
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    repos.add(&root);
    let src = repos.expect_source(hooks_format_cursor::PROJECT_FILE, &root);
    let canonical_target = canonicalize(&target).expect("canonical target");
    assert_eq!(src.id.path, canonical_target, "a symlink and its target are one source");
    assert_eq!(src.load_state, LoadStateKind::Loaded);
    assert_eq!(src.roots, vec![root.clone()], "scoped to the root that holds the link");
    assert_eq!(src.working_dirs, vec![root.clone()], "its hooks run in that root");
    let snapshot = repos.registry.snapshot();
    assert!(snapshot.is_protected(canonical_target.as_path()).is_some(), "the target is protected");
    assert!(repos.commands_in(&root).iter().any(|c| c.contains("./outside.sh")));
    // nothing outside the repository is in effect for a cwd outside it
    let elsewhere = canonicalize(outside.path()).expect("canonical");
    assert!(snapshot.bindings_for(elsewhere.as_path()).is_empty());
}

/// Waits for the watcher to report a reload of `root` whose source list satisfies `done`.
fn wait_reload(
    events: &mpsc::Receiver<WatcherEvent>,
    root: &AbsPathBuf,
    what: &str,
    done: impl Fn(&[hooks_schema::HookSourceId]) -> bool,
) {
    let deadline = Instant::now() + LIMIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(WatcherEvent::Reloaded { place: WatchedPlace::Root(r), sources, .. })
                if &r == root && done(&sources) =>
            {
                return;
            }
            Ok(_) => {}
            Err(e) => panic!("{what}: no matching reload of {root} within {LIMIT:?}: {e}"),
        }
    }
}

#[test]
fn a_hook_folder_deleted_and_recreated_while_watched_is_withdrawn_then_loaded_again() {
    let repos = Repos::new();
    let good = repos.good_root();
    let root = repos.root("recreated");
    write_bytes(&root, CURSOR, cursor_file("./one.sh").as_bytes());
    repos.add(&root);
    assert!(repos.commands_in(&root).iter().any(|c| c.contains("./one.sh")));
    let events = repos.watcher.subscribe();
    let cursor = |s: &[hooks_schema::HookSourceId]| {
        s.iter().any(|id| id.kind == hooks_format_cursor::PROJECT_FILE)
    };

    fs::remove_dir_all(root.as_path().join(".cursor")).expect("rm -r .cursor");
    wait_reload(&events, &root, "folder deleted", |s| !cursor(s));
    assert!(repos.source(hooks_format_cursor::PROJECT_FILE, &root).is_none());
    assert!(repos.commands_in(&root).is_empty());
    assert_eq!(
        repos.registry.snapshot().project_root_for(root.as_path()),
        Some(&root),
        "still a project"
    );

    // recreated, twice over, with new contents each time: the watch follows the new folder
    for round in ["./two.sh", "./three.sh"] {
        write_bytes(&root, CURSOR, cursor_file(round).as_bytes());
        wait_reload(&events, &root, "folder recreated", |s| cursor(s));
        let deadline = Instant::now() + LIMIT;
        // the folder and the file can land in two windows: wait for the load that has the text
        while !repos.commands_in(&root).iter().any(|c| c.contains(round)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match events.recv_timeout(left) {
                Ok(_) => {}
                Err(e) => panic!("{round} never loaded: {e}: {:?}", repos.commands_in(&root)),
            }
        }
        fs::remove_dir_all(root.as_path().join(".cursor")).expect("rm -r .cursor");
        wait_reload(&events, &root, "folder deleted again", |s| !cursor(s));
    }
    repos.assert_good(&good);
    assert!(
        repos.watcher.diagnostics(&WatchedPlace::from(&root)).is_empty(),
        "{:?}",
        repos.watcher.diagnostics(&WatchedPlace::from(&root))
    );
}

#[test]
fn a_root_deleted_while_watched_is_a_diagnostic_and_the_other_roots_keep_reloading() {
    let repos = Repos::new();
    let good = repos.good_root();
    let doomed = repos.root("doomed");
    write_bytes(&doomed, CURSOR, cursor_file("./doomed.sh").as_bytes());
    write_bytes(&doomed, CHRYS, CHRYS_VALID.as_bytes());
    repos.add(&doomed);
    assert_eq!(repos.commands_in(&doomed).len(), 2);
    let events = repos.watcher.subscribe();

    fs::remove_dir_all(doomed.as_path()).expect("rm -r root");
    let deadline = Instant::now() + LIMIT;
    let mut withdrawn = false;
    let mut diagnosed = false;
    while !(withdrawn && diagnosed) {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(WatcherEvent::Reloaded { place: WatchedPlace::Root(root), sources, .. })
                if root == doomed =>
            {
                withdrawn |= sources.is_empty();
            }
            Ok(WatcherEvent::Diagnostic { place: WatchedPlace::Root(root), diagnostic })
                if root == doomed =>
            {
                assert_eq!(diagnostic.code.as_deref(), Some("root_missing"), "{diagnostic:?}");
                diagnosed = true;
            }
            Ok(_) => {}
            Err(e) => panic!("withdrawn {withdrawn}, diagnosed {diagnosed}: {e}"),
        }
    }
    assert!(repos.source(hooks_format_cursor::PROJECT_FILE, &doomed).is_none());
    assert!(repos.source(hooks_format_chrys::PROJECT_FILE, &doomed).is_none());
    assert!(
        repos
            .watcher
            .diagnostics(&WatchedPlace::from(&doomed))
            .iter()
            .any(|d| d.code.as_deref() == Some("root_missing")),
        "{:?}",
        repos.watcher.diagnostics(&WatchedPlace::from(&doomed))
    );
    // the other root still reloads on change
    fs::write(good.as_path().join(CURSOR), cursor_file("./good.sh --again")).expect("write");
    let deadline = Instant::now() + LIMIT;
    while !repos.commands_in(&good).iter().any(|c| c.contains("--again")) {
        let left = deadline.saturating_duration_since(Instant::now());
        events.recv_timeout(left).expect("the good root reloads");
    }
    // and the deleted root can be removed cleanly
    assert!(repos.watcher.remove_root(doomed.as_path()));
    assert!(!repos.registry.snapshot().project_roots().contains(&doomed));
}

/// The environment variable naming the tree the unreadable-files child checks.
const UNREADABLE_VAR: &str = "HOOKS_IT_UNREADABLE_TREE";

/// Not a test by itself: the child-process half of
/// [`permission_denied_on_a_hook_file_or_its_folder_is_a_diagnostic`]. Does nothing unless
/// `HOOKS_IT_UNREADABLE_TREE` is set.
#[test]
fn unreadable_child_entry() {
    #[allow(clippy::disallowed_methods, reason = "the test harness's own switch")]
    let Some(tree) = std::env::var_os(UNREADABLE_VAR) else { return };
    let tree = PathBuf::from(tree);
    // Prove the child cannot bypass permissions (no CAP_DAC_OVERRIDE, or not root).
    assert!(
        fs::read(tree.join("file-denied").join(CURSOR)).is_err(),
        "the child can still read a mode-000 file: the scenario would prove nothing"
    );
    let repos = Repos::new();
    let good = repos.good_root();
    let report = |name: &str, rel: &str, kind: HookSourceKind| {
        let root = canonicalize(&tree.join(name)).expect("canonical");
        repos.add(&root);
        let src = repos.expect_source(kind, &root);
        println!(
            "RESULT {name} {} {} {}",
            src.load_state.as_str(),
            codes(&src).join(","),
            repos.commands_in(&root).len()
        );
        let _ = rel;
        root
    };
    report("file-denied", CURSOR, hooks_format_cursor::PROJECT_FILE);
    report("folder-denied", CURSOR, hooks_format_cursor::PROJECT_FILE);
    report("chrys-folder-denied", CHRYS, hooks_format_chrys::PROJECT_FILE);
    // a valid file made unreadable after it loaded: the last valid parse stays, stale
    let later = canonicalize(&tree.join("later-denied")).expect("canonical");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(later.as_path().join(".cursor"), fs::Permissions::from_mode(0o755))
        .expect("chmod");
    repos.add(&later);
    let loaded = repos.expect_source(hooks_format_cursor::PROJECT_FILE, &later);
    assert_eq!(loaded.load_state, LoadStateKind::Loaded);
    fs::set_permissions(later.as_path().join(".cursor"), fs::Permissions::from_mode(0o000))
        .expect("chmod");
    repos.reload(&later);
    let src = repos.expect_source(hooks_format_cursor::PROJECT_FILE, &later);
    println!(
        "RESULT later-denied {} {} {}",
        src.load_state.as_str(),
        codes(&src).join(","),
        repos.commands_in(&later).len()
    );
    repos.assert_good(&good);
    println!("RESULT good ok");
}

/// Whether this process runs as root (its real uid is 0).
fn running_as_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .map(|v| v.split_whitespace().next() == Some("0"))
        })
        .unwrap_or(false)
}

#[test]
fn permission_denied_on_a_hook_file_or_its_folder_is_a_diagnostic() {
    use std::os::unix::fs::PermissionsExt;
    let tree = TestDir::new();
    let mode =
        |p: &Path, m: u32| fs::set_permissions(p, fs::Permissions::from_mode(m)).expect("chmod");
    // a file the engine may not read
    let f = tree.write("file-denied/.cursor/hooks.json", &cursor_file("./f.sh"));
    mode(&f, 0o000);
    // a folder the engine may not enter
    tree.write("folder-denied/.cursor/hooks.json", &cursor_file("./d.sh"));
    mode(&tree.path().join("folder-denied/.cursor"), 0o000);
    tree.write("chrys-folder-denied/.chrys/hooks/hooks.yaml", CHRYS_VALID);
    mode(&tree.path().join("chrys-folder-denied/.chrys/hooks"), 0o000);
    tree.write("later-denied/.cursor/hooks.json", &cursor_file("./l.sh"));
    mode(&tree.path().join("later-denied/.cursor"), 0o000);

    // As root, DAC checks are bypassed; the child drops every capability (setpriv) so the
    // kernel applies the modes to it, as it does to any user.
    let exe = std::env::current_exe().expect("test binary");
    let child_args = [
        "--exact",
        "hostile_repos::unreadable_child_entry",
        "--nocapture",
        "--test-threads=1",
        "-q",
    ];
    let mut cmd = if running_as_root() {
        let mut c = Command::new("setpriv");
        c.args([
            "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--",
        ])
        .arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    let out = bounded("the unreadable-files child", move || {
        cmd.args(child_args).env(UNREADABLE_VAR, tree.path()).output().map(|o| (o, tree))
    });
    let (out, tree) =
        out.expect("run the child (setpriv from util-linux is needed when running as root)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix("RESULT ")).collect();
    assert_eq!(
        results,
        [
            "file-denied failed file_unreadable,load_failed,inert 0",
            "folder-denied failed file_unreadable,load_failed,inert 0",
            "chrys-folder-denied failed file_unreadable,load_failed,inert 0",
            "later-denied stale file_unreadable,load_failed 1",
            "good ok",
        ],
        "{stdout}"
    );
    // let the temporary tree be removed
    for rel in [
        "file-denied/.cursor/hooks.json",
        "folder-denied/.cursor",
        "chrys-folder-denied/.chrys/hooks",
        "later-denied/.cursor",
    ] {
        mode(&tree.path().join(rel), 0o755);
    }
}

#[test]
fn the_runtime_survives_a_repository_of_every_hostile_file_at_once() {
    use hooks_app::runtime::{HookRuntime, RuntimeConfig, RuntimeEffect, RuntimeEvent, WindowId};
    use hooks_watcher::RootOrigin;
    let dir = TestDir::new();
    let root = canonicalize(dir.path()).expect("canonical");
    alias_bomb(&root, &write_bytes(&root, CHRYS, b""));
    let cursor = clear(&root, CURSOR);
    link_to_dev_zero(&root, &cursor);
    let claude = clear(&root, CLAUDE);
    mkfifo(&claude);
    let local = clear(&root, ".claude/settings.local.json");
    sparse_huge(&root, &local);
    let good = TestDir::new();
    good.write(CURSOR, &cursor_file("./good.sh"));

    let (effects, rt) = bounded("the runtime on a hostile repository", move || {
        let mut rt = HookRuntime::new(RuntimeConfig::new(Surface::CliRun));
        rt.handle(RuntimeEvent::WindowPosture {
            window: WindowId(1),
            posture: CommandExecutionPosture::AutoApproves,
        })
        .expect("posture");
        let mut effects = Vec::new();
        for r in [dir.path().to_path_buf(), good.path().to_path_buf()] {
            effects.push(
                rt.handle(RuntimeEvent::RepositoryDetected {
                    root: r,
                    origin: RootOrigin::TerminalNavigation,
                })
                .expect("root detected"),
            );
        }
        rt.pin_for_run().expect("pin");
        (effects, (rt, dir, good))
    });
    let (rt, _dir, good) = rt;
    assert!(effects.iter().all(|e| matches!(e, RuntimeEffect::RootAdded(_))), "{effects:?}");
    let snapshot = rt.snapshot();
    let under_root: Vec<_> =
        snapshot.sources().iter().filter(|s| s.roots.contains(&root)).collect();
    assert_eq!(under_root.len(), 4, "{under_root:#?}");
    for s in &under_root {
        assert_ne!(s.load_state, LoadStateKind::Loaded, "{:?}", s.id);
        assert!(!s.diagnostics.is_empty());
    }
    assert!(snapshot.bindings_for(root.as_path()).is_empty());
    let good_root = canonicalize(good.path()).expect("canonical");
    let bindings = snapshot.bindings_for(good_root.as_path());
    assert_eq!(bindings.len(), 1, "the other root keeps working");
    assert_eq!(bindings[0].definition.event, HookEvent::Stop);
}
