//! Tests for the administrator-only check, on a table of paths standing for the disk and on the
//! real disk.

use std::collections::BTreeMap;

use super::*;

/// A file system as a table: each path's own entry, and for a link where it leads.
#[derive(Default)]
struct Table {
    entries: BTreeMap<PathBuf, (Meta, Option<PathBuf>)>,
}

impl Table {
    /// `/`, `/etc` and `/etc/gemini-cli` as a distribution makes them, and the settings file.
    fn system() -> Table {
        Table::default()
            .folder("/", 0, 0o755)
            .folder("/etc", 0, 0o755)
            .folder("/etc/gemini-cli", 0, 0o755)
            .file("/etc/gemini-cli/settings.json", 0, 0o644)
    }

    fn folder(mut self, p: &str, uid: u32, mode: u32) -> Table {
        self.entries.insert(p.into(), (Meta { uid, mode, kind: Kind::Folder }, None));
        self
    }

    fn file(mut self, p: &str, uid: u32, mode: u32) -> Table {
        self.entries.insert(p.into(), (Meta { uid, mode, kind: Kind::File }, None));
        self
    }

    fn link(mut self, p: &str, uid: u32, to: &str) -> Table {
        let m = Meta { uid, mode: 0o777, kind: Kind::Link };
        self.entries.insert(p.into(), (m, Some(to.into())));
        self
    }

    /// Where `path` leads: each component's links resolved, in order.
    fn resolve(&self, path: &Path) -> io::Result<PathBuf> {
        let mut out = PathBuf::new();
        for (hops, c) in path.components().enumerate() {
            out.push(c);
            let mut guard = 0;
            while let Some((_, Some(to))) = self.entries.get(&out) {
                out = to.clone();
                guard += 1;
                if guard > 8 || hops > 64 {
                    return Err(io::Error::other("loop"));
                }
            }
            if !self.entries.contains_key(&out) {
                return Err(io::ErrorKind::NotFound.into());
            }
        }
        Ok(out)
    }
}

impl Inspect for Table {
    fn lstat(&self, path: &Path) -> io::Result<Meta> {
        let parent = path.parent().map(|p| self.resolve(p)).transpose()?;
        let own = match (parent, path.file_name()) {
            (Some(p), Some(name)) => p.join(name),
            _ => path.to_path_buf(),
        };
        self.entries.get(&own).map(|e| e.0).ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn stat(&self, path: &Path) -> io::Result<Meta> {
        let to = self.resolve(path)?;
        self.entries.get(&to).map(|e| e.0).ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn realpath(&self, path: &Path) -> io::Result<PathBuf> {
        self.resolve(path)
    }
}

const SETTINGS: &str = "/etc/gemini-cli/settings.json";

#[test]
fn a_file_root_alone_can_write_in_folders_root_alone_can_write_is_the_administrator_s() {
    check(&Table::system(), Path::new(SETTINGS)).expect("administrator's alone");
    // Read-only for everyone, or setuid bits: still root's alone.
    let t = Table::system().file(SETTINGS, 0, 0o444);
    check(&t, Path::new(SETTINGS)).expect("administrator's alone");
}

#[test]
fn no_file_is_nothing_to_refuse() {
    let t = Table::system();
    check(&t, Path::new("/etc/gemini-cli/system-defaults.json")).expect("administrator's alone");
    check(&t, Path::new("/opt/nowhere/settings.json")).expect("administrator's alone");
}

/// Every way the file or a folder above it could be written by someone else than root is
/// refused, with the path and the reason.
#[test]
fn a_file_someone_else_can_write_is_refused_with_the_reason() {
    let cases: [(Table, &str); 7] = [
        (
            Table::system().file(SETTINGS, 1000, 0o644),
            "`/etc/gemini-cli/settings.json` does not belong to root (its owner is uid 1000)",
        ),
        (
            Table::system().file(SETTINGS, 0, 0o664),
            "`/etc/gemini-cli/settings.json` can be written by its group or by others (mode 664)",
        ),
        (Table::system().file(SETTINGS, 0, 0o646), "(mode 646)"),
        (
            Table::system().folder("/etc/gemini-cli", 1000, 0o755),
            "`/etc/gemini-cli` does not belong to root",
        ),
        (
            Table::system().folder("/etc/gemini-cli", 0, 0o775),
            "`/etc/gemini-cli` can be written by its group or by others (mode 775)",
        ),
        // A world-writable folder with the sticky bit (`/tmp`) still lets others create
        // the file before root does.
        (
            Table::system().folder("/etc", 0, 0o1777),
            "`/etc` can be written by its group or by others (mode 1777)",
        ),
        (Table::system().folder("/", 0, 0o757), "`/` can be written"),
    ];
    for (table, reason) in cases {
        let err = check(&table, Path::new(SETTINGS)).expect_err(reason);
        assert!(err.to_string().contains(reason), "{err} should contain {reason}");
    }
}

#[test]
fn a_file_that_is_not_a_regular_file_or_under_a_non_folder_is_refused() {
    let mut t = Table::system();
    t.entries.insert(SETTINGS.into(), (Meta { uid: 0, mode: 0o755, kind: Kind::Folder }, None));
    let err = check(&t, Path::new(SETTINGS)).expect_err("a folder");
    assert!(err.to_string().contains("is not a regular file"), "{err}");
}

/// A file whose metadata cannot be read (here a loop of links) is refused, with its path and
/// the system's error as the source.
#[test]
fn a_file_that_cannot_be_looked_at_is_refused_with_the_error_as_its_source() {
    let t = Table::system()
        .folder("/opt", 0, 0o755)
        .link("/opt/a", 0, "/opt/b")
        .link("/opt/b", 0, "/opt/a");
    let err = check(&t, Path::new("/opt/a")).expect_err("a loop");
    assert!(matches!(err, NotAdministratorOnly::Unreadable { .. }), "{err:?}");
    assert_eq!(err.path(), Path::new("/opt/a"));
    assert_eq!(err.to_string(), "`/opt/a` cannot be looked at (loop)");
    let source = std::error::Error::source(&err).expect("the system's error");
    assert_eq!(source.to_string(), "loop");
}

/// A link to the file, or a link among the folders above it, is followed: what it leads to
/// is checked with its own folders, and the link itself must be root's (else its owner could
/// point it elsewhere).
#[test]
fn links_are_checked_on_both_sides() {
    let to_secure = Table::system().folder("/opt", 0, 0o755).link("/opt/gemini.json", 0, SETTINGS);
    check(&to_secure, Path::new("/opt/gemini.json")).expect("administrator's alone");

    let users_link =
        Table::system().folder("/opt", 0, 0o755).link("/opt/gemini.json", 1000, SETTINGS);
    let err = check(&users_link, Path::new("/opt/gemini.json")).expect_err("user's link");
    assert!(
        err.to_string().contains("the symbolic link `/opt/gemini.json` does not belong to root"),
        "{err}"
    );
    assert!(matches!(err, NotAdministratorOnly::LinkNotRoots { uid: 1000, .. }), "{err:?}");
    assert_eq!(err.path(), Path::new("/opt/gemini.json"));

    // A root-owned link in a root-owned folder, to a file under a folder others can write.
    let to_open = Table::system()
        .folder("/srv", 0, 0o777)
        .file("/srv/settings.json", 0, 0o644)
        .folder("/opt", 0, 0o755)
        .link("/opt/gemini.json", 0, "/srv/settings.json");
    let err = check(&to_open, Path::new("/opt/gemini.json")).expect_err("open target folder");
    assert!(err.to_string().contains("`/srv` can be written"), "{err}");

    // A folder above the file that is a link a user owns.
    let linked_folder =
        Table::system().folder("/opt", 0, 0o755).link("/opt/g", 1000, "/etc/gemini-cli");
    let err = check(&linked_folder, Path::new("/opt/g/settings.json")).expect_err("user's link");
    assert!(
        err.to_string().contains("the symbolic link `/opt/g` does not belong to root"),
        "{err}"
    );
}

/// `..` and `.` are taken off before the check, as Gemini CLI's `path.resolve` does, so a
/// name cannot step around a folder's check.
#[test]
fn dot_dot_is_resolved_before_the_check() {
    let t = Table::system().folder("/tmp", 0, 0o1777);
    check(&t, Path::new("/tmp/../etc/gemini-cli/./settings.json")).expect("administrator's alone");
    let t = Table::system().folder("/tmp", 0, 0o1777).file("/tmp/settings.json", 0, 0o644);
    let err = check(&t, Path::new("/etc/../tmp/settings.json")).expect_err("under /tmp");
    assert!(err.to_string().contains("`/tmp` can be written"), "{err}");
}

/// On the real disk: a file every Linux system has, owned by root in root's folders,
/// passes; a file its group can write does not, wherever the temporary folder is.
#[cfg(target_os = "linux")]
#[test]
fn the_disk_is_checked_the_same_way() {
    administrator_only(Path::new("/etc/passwd")).expect("administrator's alone");
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("settings.json");
    std::fs::write(&file, "{}").expect("write");
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o664))
        .expect("chmod");
    let err = administrator_only(&file).expect_err("a group-writable file");
    let text = err.to_string();
    assert!(text.contains("does not belong to root") || text.contains("can be written"), "{err}");
    // The path named is the file or a folder above it, where the temporary folder is.
    assert!(file.starts_with(err.path()), "{err:?}");
}
