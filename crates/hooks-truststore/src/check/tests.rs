//! Pins of real hook files (Cursor's and Claude Code's) and what changes them.

use std::{path::Path, sync::Arc};

use hooks_registry::UserPaths;
use hooks_schema::{AbsPathBuf, HookDefinition, HookSourceKind, ParseContext};
use hooks_testing::kinds::{PROJECT_CLAUDE_SETTINGS, PROJECT_CURSOR_FILE};

use crate::{Change, Digest, PathStateKey, PinStatus, check, pin, pin::HookFile};

struct Loaded {
    path: AbsPathBuf,
    root: AbsPathBuf,
    digest: Digest,
    definitions: Vec<Arc<HookDefinition>>,
    user: UserPaths,
}

impl Loaded {
    /// Reads and parses the file at `rel` under `root` as a `kind` file.
    fn read(root: &Path, rel: &str, kind: HookSourceKind) -> Loaded {
        let root = hooks_registry::canonicalize(root).unwrap();
        let path = root.join(Path::new(rel)).unwrap();
        let bytes = std::fs::read(path.as_path()).unwrap();
        let formats = hooks_testing::workspace_formats();
        let format = formats.get(kind.format().unwrap()).unwrap();
        let parsed = format.parse(&bytes, &ParseContext::new(path.as_path(), kind)).unwrap();
        Loaded {
            path,
            root,
            digest: Digest::of(&bytes),
            definitions: parsed.definitions.into_iter().map(Arc::new).collect(),
            user: UserPaths::default(),
        }
    }

    fn check(&self, pin: &crate::FilePin, session: Option<&AbsPathBuf>) -> PinStatus {
        let defs: Vec<&HookDefinition> = self.definitions.iter().map(|d| &**d).collect();
        check(Some(pin), &self.file(&defs), session)
    }

    fn pin(&self) -> crate::FilePin {
        let defs: Vec<&HookDefinition> = self.definitions.iter().map(|d| &**d).collect();
        pin(&self.file(&defs), 1).unwrap()
    }

    fn file<'a>(&'a self, defs: &'a [&'a HookDefinition]) -> HookFile<'a> {
        HookFile {
            path: &self.path,
            kind: "test",
            root: Some(&self.root),
            digest: self.digest,
            definitions: defs,
            user: &self.user,
        }
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const CURSOR: &str = r#"{"version":1,"hooks":{"preToolUse":[
  {"command":"bash .cursor/hooks/deny.sh --rules .cursor/rules.txt >> .cursor/hooks.log"},
  {"command":".cursor/hooks/later.sh"}
]}}"#;

#[test]
fn a_pinned_cursor_file_is_trusted_until_it_or_a_script_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".cursor/hooks.json", CURSOR);
    write(root, ".cursor/hooks/deny.sh", "exit 2");
    let loaded = Loaded::read(root, ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let pin = loaded.pin();
    let names: Vec<String> = pin
        .scripts
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s.path.as_path().strip_prefix(loaded.root.as_path()).unwrap().display(),
                s.state
            )
        })
        .collect();
    // The scripts run are pinned (one that does not exist yet as absent); the log and the
    // rules file, named as arguments, are not.
    assert_eq!(
        names,
        [
            format!(".cursor/hooks/deny.sh sha256:{}", Digest::of(b"exit 2")),
            ".cursor/hooks/later.sh absent".to_owned(),
        ]
    );
    assert_eq!(loaded.check(&pin, None), PinStatus::Trusted);

    // Arguments and outputs may change.
    write(root, ".cursor/hooks.log", "ran");
    write(root, ".cursor/rules.txt", "anything");
    assert_eq!(loaded.check(&pin, None), PinStatus::Trusted);

    // A changed script makes the file inert.
    write(root, ".cursor/hooks/deny.sh", "exit 0");
    let status = loaded.check(&pin, None);
    assert!(
        matches!(&status, PinStatus::Changed(Change::Script { path, .. }) if path.as_path().ends_with("deny.sh")),
        "{status:?}"
    );
    assert!(
        status.reason(&loaded.path).contains("run `hooks trust`"),
        "{}",
        status.reason(&loaded.path)
    );
    write(root, ".cursor/hooks/deny.sh", "exit 2");
    assert_eq!(loaded.check(&pin, None), PinStatus::Trusted);

    // A script that appears where none was is a change too.
    write(root, ".cursor/hooks/later.sh", "rm -rf ~");
    assert!(matches!(loaded.check(&pin, None), PinStatus::Changed(Change::Script { .. })));
    std::fs::remove_file(root.join(".cursor/hooks/later.sh")).unwrap();

    // The file's own content.
    write(root, ".cursor/hooks.json", &CURSOR.replace("later", "other"));
    let changed = Loaded::read(root, ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    assert_eq!(changed.check(&pin, None), PinStatus::Changed(Change::Content));
}

/// The paths of `pin`'s scripts under `root`, with what each held.
fn pinned_names(pin: &crate::FilePin, root: &AbsPathBuf) -> Vec<String> {
    pin.scripts
        .iter()
        .map(|s| {
            let state = match s.state {
                PathStateKey::Absent => "absent",
                PathStateKey::File(_) => "file",
                PathStateKey::Folder(_) => "folder",
            };
            format!("{} {state}", s.path.as_path().strip_prefix(root.as_path()).unwrap().display())
        })
        .collect()
}

fn is_script_change(status: &PinStatus, name: &str) -> bool {
    matches!(status, PinStatus::Changed(Change::Script { path, .. }) if path.as_path().ends_with(name))
}

const GATE: &str = r#"{"version":1,"hooks":{"preToolUse":[
  {"command":"bash .cursor/hooks/gate.sh"},
  {"command":"python3 .cursor/hooks/check.py"}
]}}"#;

/// What a trusted hook's scripts source, run by path or import is pinned with them, existing
/// or not: rewriting the `lib.sh` that `gate.sh` sources, or adding the `policy.sh` it sources
/// when present, or a module beside the Python hook, changes what runs as much as rewriting
/// the script, and makes the file inert until it is trusted again.
#[test]
fn what_a_pinned_script_sources_or_imports_is_pinned_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".cursor/hooks.json", GATE);
    write(
        root,
        ".cursor/hooks/gate.sh",
        "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n[ -f ./policy.sh ] && . ./policy.sh\ndeny\n",
    );
    write(root, ".cursor/hooks/lib.sh", ". \"$(dirname \"$0\")/more.sh\"\ndeny() { exit 2; }\n");
    write(root, ".cursor/hooks/more.sh", "true\n");
    write(root, ".cursor/hooks/check.py", "import helpers\nhelpers.run()\n");
    write(root, ".cursor/hooks/helpers.py", "def run(): raise SystemExit(2)\n");
    let loaded = Loaded::read(root, ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let pin = loaded.pin();
    let names = pinned_names(&pin, &loaded.root);
    for expected in [
        ".cursor/hooks/gate.sh file",
        ".cursor/hooks/lib.sh file",
        ".cursor/hooks/more.sh file",
        "policy.sh absent",
        ".cursor/hooks/check.py file",
        ".cursor/hooks/helpers.py file",
        ".cursor/hooks/helpers absent",
    ] {
        assert!(names.contains(&expected.to_owned()), "{expected} not in {names:?}");
    }
    assert_eq!(loaded.check(&pin, None), PinStatus::Trusted);

    for (rel, attack, original) in [
        (
            ".cursor/hooks/lib.sh",
            "deny() { exit 0; }\n",
            Some(". \"$(dirname \"$0\")/more.sh\"\ndeny() { exit 2; }\n"),
        ),
        (".cursor/hooks/more.sh", "deny() { exit 0; }\n", Some("true\n")),
        ("policy.sh", "deny() { exit 0; }\n", None),
        (".cursor/hooks/helpers.py", "def run(): pass\n", Some("def run(): raise SystemExit(2)\n")),
    ] {
        write(root, rel, attack);
        let status = loaded.check(&pin, None);
        let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
        assert!(is_script_change(&status, name), "{rel}: {status:?}");
        assert!(status.reason(&loaded.path).contains(name), "{}", status.reason(&loaded.path));
        match original {
            Some(text) => write(root, rel, text),
            None => std::fs::remove_file(root.join(rel)).unwrap(),
        }
        assert_eq!(loaded.check(&pin, None), PinStatus::Trusted, "{rel} restored");
    }

    // A module that appears beside the Python hook shadows what it imported.
    write(root, ".cursor/hooks/helpers/__init__.py", "def run(): pass\n");
    assert!(!loaded.check(&pin, None).is_trusted());
}

/// A pin that lacks what the scripts load (made before such files were pinned) no longer
/// vouches for the file: the user reviewed the script, not what it sources.
#[test]
fn a_pin_without_what_the_scripts_load_is_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".cursor/hooks.json", GATE);
    write(root, ".cursor/hooks/gate.sh", ". \"$(dirname \"$0\")/lib.sh\"\n");
    write(root, ".cursor/hooks/lib.sh", "exit 2\n");
    write(root, ".cursor/hooks/check.py", "print(1)\n");
    let loaded = Loaded::read(root, ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let mut old = loaded.pin();
    old.scripts.retain(|s| !s.path.as_path().ends_with("lib.sh"));
    let status = loaded.check(&old, None);
    assert_eq!(status, PinStatus::Changed(Change::Loaded));
    assert!(status.reason(&loaded.path).contains("other files than the ones pinned"));
    // A pin that lacks a script the command line names says so.
    let mut older = loaded.pin();
    older.scripts.retain(|s| !s.path.as_path().ends_with("gate.sh"));
    assert_eq!(loaded.check(&older, None), PinStatus::Changed(Change::Scripts));
}

/// A file whose hooks run more scripts than one store entry may hold is refused a pin rather
/// than written into a store no reader would read.
#[test]
fn a_file_running_more_scripts_than_an_entry_holds_cannot_be_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let commands: Vec<String> = (0..=crate::MAX_SCRIPTS_PER_FILE)
        .map(|i| format!(r#"{{"command":".cursor/h/{i}.sh"}}"#))
        .collect();
    write(
        root,
        ".cursor/hooks.json",
        &format!(r#"{{"version":1,"hooks":{{"stop":[{}]}}}}"#, commands.join(",")),
    );
    let loaded = Loaded::read(root, ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let defs: Vec<&HookDefinition> = loaded.definitions.iter().map(|d| &**d).collect();
    let err = pin(&loaded.file(&defs), 1).unwrap_err();
    assert!(
        matches!(err, crate::PinError::TooManyScripts { found, .. } if found == crate::MAX_SCRIPTS_PER_FILE + 1),
        "{err}"
    );
}

#[test]
fn a_file_trusted_under_another_root_or_never_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p/.cursor/hooks.json", CURSOR);
    let loaded = Loaded::read(&dir.path().join("p"), ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let defs: Vec<&HookDefinition> = loaded.definitions.iter().map(|d| &**d).collect();
    assert_eq!(check(None, &loaded.file(&defs), None), PinStatus::NotTrusted);
    let mut pin = loaded.pin();
    let outer = hooks_registry::canonicalize(dir.path()).unwrap();
    pin.root = Some(outer.clone());
    assert_eq!(loaded.check(&pin, None), PinStatus::Changed(Change::Root { trusted: Some(outer) }));
    let mut other = loaded.pin();
    other.path = loaded.root.join(Path::new("x.json")).unwrap();
    assert_eq!(loaded.check(&other, None), PinStatus::NotTrusted);
}

#[test]
fn a_claude_script_relative_to_the_session_is_checked_where_the_session_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./guard.sh"}]}]}}"#,
    );
    write(root, "guard.sh", "exit 2");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let loaded = Loaded::read(root, ".claude/settings.json", PROJECT_CLAUDE_SETTINGS);
    let pin = loaded.pin();
    let script = pin.scripts.iter().find(|s| s.path.as_path().ends_with("guard.sh")).unwrap();
    assert_eq!(script.session.as_deref(), Some(Path::new("guard.sh")));
    assert_eq!(script.state, PathStateKey::File(Digest::of(b"exit 2")));

    let sub = loaded.root.join(Path::new("sub")).unwrap();
    assert_eq!(loaded.check(&pin, Some(&loaded.root)), PinStatus::Trusted);
    // In `sub`, the hook would run sub/guard.sh, which the user never saw.
    let status = loaded.check(&pin, Some(&sub));
    assert!(
        matches!(&status, PinStatus::Changed(Change::Script { path, now }) if path.as_path().ends_with("sub/guard.sh") && now == "absent"),
        "{status:?}"
    );
    write(root, "sub/guard.sh", "exit 0");
    assert!(matches!(loaded.check(&pin, Some(&sub)), PinStatus::Changed(_)));
    write(root, "sub/guard.sh", "exit 2");
    assert_eq!(loaded.check(&pin, Some(&sub)), PinStatus::Trusted, "the same script is fine");
}

#[cfg(unix)]
#[test]
fn a_script_that_is_a_fifo_cannot_be_pinned() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".cursor/hooks.json", CURSOR);
    std::fs::create_dir_all(dir.path().join(".cursor/hooks")).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        dir.path().join(".cursor/hooks/deny.sh"),
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    let loaded = Loaded::read(dir.path(), ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let defs: Vec<&HookDefinition> = loaded.definitions.iter().map(|d| &**d).collect();
    let err = pin(&loaded.file(&defs), 0).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[test]
fn a_command_the_analysis_cannot_follow_is_pinned_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"preToolUse":[{"command":"bash \"$(cat .cursor/which)\""}]}}"#,
    );
    let loaded = Loaded::read(dir.path(), ".cursor/hooks.json", PROJECT_CURSOR_FILE);
    let pin = loaded.pin();
    assert!(!pin.uncertain.is_empty(), "{pin:?}");
    assert_eq!(loaded.check(&pin, None), PinStatus::Trusted);
}
