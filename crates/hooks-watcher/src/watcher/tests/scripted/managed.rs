//! Scripted-event tests of the managed files: Cursor's enterprise `hooks.json` and Claude
//! Code's `managed-settings.json` with its `managed-settings.d/` fragments, in a fake system
//! folder, with the fake platform watch.

use hooks_schema::HookSourceId;
use hooks_sources::ManagedDirs;

use super::*;

/// Claude Code settings with one `PreToolUse` hook on `Bash` running `command`.
fn claude_file(command: &str) -> String {
    format!(
        r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[{{"type":"command","command":"{command}"}}]}}]}}}}"#
    )
}

/// A fake system folder (`etc`) and the managed directories in it (`cursor/`, `claude-code/`).
fn etc(h: &Harness) -> (AbsPathBuf, ManagedDirs) {
    let etc = h.root("etc");
    let dirs = ManagedDirs::new()
        .with(hooks_testing::ids::CURSOR, etc.as_path().join("cursor"))
        .with(hooks_testing::ids::CLAUDE, etc.as_path().join("claude-code"));
    (etc, dirs)
}

fn managed_claude(etc: &AbsPathBuf, rel: &str) -> HookSourceId {
    id(hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS, etc, rel)
}

impl Harness {
    /// Watches the managed files the way `HookConfigWatcher::watch_managed_dirs` does and
    /// lets the worker attach the watches.
    fn watch_managed(&mut self, dirs: &ManagedDirs) -> Option<AttachOutcome> {
        let mut rx = self.shared.watch_scope(&WatchedPlace::Managed, dirs.clone(), false);
        self.engine.handle(Msg::Attach(WatchedPlace::Managed), self.now);
        rx.try_recv().ok()
    }

    fn managed_loads(&self) -> u64 {
        self.shared.loads(&WatchedPlace::Managed).expect("managed files watched")
    }

    fn managed_watched(&self, etc: &AbsPathBuf) -> Vec<String> {
        paths(&self.engine.scope_watched_dirs(&WatchedPlace::Managed), etc)
    }

    /// The reloads of the managed files among the events received so far.
    fn managed_reloads(&self) -> Vec<Vec<HookSourceId>> {
        self.events
            .try_iter()
            .filter_map(|e| match e {
                WatcherEvent::Reloaded { place: WatchedPlace::Managed, sources, .. } => {
                    Some(sources)
                }
                _ => None,
            })
            .collect()
    }
}

#[test]
fn managed_files_load_on_the_spot_and_their_folders_are_watched() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    assert_eq!(h.watch_managed(&dirs), Some(AttachOutcome::Attached));
    assert_eq!(h.managed_loads(), 1);
    assert_eq!(
        h.managed_reloads(),
        [vec![managed_claude(&etc, "claude-code/managed-settings.json")]]
    );
    let view = h.registry.snapshot();
    let view =
        view.source(&managed_claude(&etc, "claude-code/managed-settings.json")).expect("loaded");
    assert!(view.trust.is_active(), "managed files are active whatever the posture");
    // `cursor/` and `managed-settings.d/` do not exist: their parents are watched.
    assert_eq!(h.managed_watched(&etc), [".", "claude-code"]);
}

#[test]
fn a_fragment_folder_that_appears_is_watched_and_each_change_reloads_once() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    h.watch_managed(&dirs);
    let _ = h.managed_reloads();
    let generation = h.registry.snapshot().generation();

    // The fragment folder and a fragment in it, created together (`mkdir` then a write).
    write(etc.as_path(), "claude-code/managed-settings.d/10-deny.json", &claude_file("./deny.sh"));
    h.event(EventKind::Create(CreateKind::Folder), &etc, &["claude-code/managed-settings.d"]);
    assert_eq!(h.managed_watched(&etc), [".", "claude-code", "claude-code/managed-settings.d"]);
    h.event(
        EventKind::Create(CreateKind::File),
        &etc,
        &["claude-code/managed-settings.d/10-deny.json"],
    );
    h.event(
        EventKind::Access(AccessKind::Close(AccessMode::Write)),
        &etc,
        &["claude-code/managed-settings.d/10-deny.json"],
    );
    h.advance(400);
    assert_eq!(h.managed_loads(), 1, "not before the window");
    h.advance(200);
    assert_eq!(h.managed_loads(), 2);
    let fragment = managed_claude(&etc, "claude-code/managed-settings.d/10-deny.json");
    assert_eq!(
        h.managed_reloads(),
        [vec![managed_claude(&etc, "claude-code/managed-settings.json"), fragment.clone()]]
    );
    assert_eq!(h.registry.snapshot().generation(), generation.next(), "one snapshot");
    assert_eq!(commands(&h.registry, &fragment).unwrap_or_default(), ["./deny.sh"]);

    // Files that cannot be fragments change nothing.
    write(etc.as_path(), "claude-code/managed-settings.d/.hidden.json", "{}");
    write(etc.as_path(), "claude-code/managed-settings.d/notes.txt", "x");
    h.event(
        EventKind::Create(CreateKind::File),
        &etc,
        &[
            "claude-code/managed-settings.d/.hidden.json",
            "claude-code/managed-settings.d/notes.txt",
        ],
    );
    h.advance(5_000);
    assert_eq!(h.managed_loads(), 2);

    // A second fragment sorts after the first; deleting the first withdraws it.
    write(etc.as_path(), "claude-code/managed-settings.d/20-more.json", &claude_file("./more.sh"));
    fs::remove_file(etc.as_path().join("claude-code/managed-settings.d/10-deny.json")).unwrap();
    h.event(
        EventKind::Create(CreateKind::File),
        &etc,
        &["claude-code/managed-settings.d/20-more.json"],
    );
    h.event(
        EventKind::Remove(RemoveKind::File),
        &etc,
        &["claude-code/managed-settings.d/10-deny.json"],
    );
    h.advance(600);
    assert_eq!(h.managed_loads(), 3);
    let more = managed_claude(&etc, "claude-code/managed-settings.d/20-more.json");
    assert_eq!(
        h.managed_reloads(),
        [vec![managed_claude(&etc, "claude-code/managed-settings.json"), more]]
    );
    assert!(h.registry.snapshot().source(&fragment).is_none(), "withdrawn");

    // The whole fragment folder removed: its watch goes, the claude folder stays.
    fs::remove_dir_all(etc.as_path().join("claude-code/managed-settings.d")).unwrap();
    h.event(EventKind::Remove(RemoveKind::Folder), &etc, &["claude-code/managed-settings.d"]);
    assert_eq!(h.managed_watched(&etc), [".", "claude-code"]);
    h.advance(600);
    assert_eq!(
        h.managed_reloads(),
        [vec![managed_claude(&etc, "claude-code/managed-settings.json")]]
    );
}

#[test]
fn the_cursor_enterprise_folder_appearing_loads_its_file() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    h.watch_managed(&dirs);
    let _ = h.managed_reloads();
    write(etc.as_path(), "cursor/hooks.json", &cursor_file(&["./enterprise.sh"]));
    h.event(EventKind::Create(CreateKind::Folder), &etc, &["cursor"]);
    assert!(h.managed_watched(&etc).contains(&"cursor".to_owned()));
    h.event(EventKind::Modify(ModifyKind::Any), &etc, &["cursor/hooks.json"]);
    h.advance(600);
    let cursor = id(hooks_testing::kinds::MANAGED_CURSOR_FILE, &etc, "cursor/hooks.json");
    assert_eq!(h.managed_reloads(), [vec![cursor.clone()]]);
    assert_eq!(commands(&h.registry, &cursor).unwrap_or_default(), ["./enterprise.sh"]);
}

/// A managed file named in place of its pattern (as `GEMINI_CLI_SYSTEM_SETTINGS_PATH` names
/// Gemini CLI's) is read where it is named and not under the format's folder, its folder is
/// watched, and writing it reloads it; the format's other locations stay in its folder.
#[test]
fn a_managed_file_named_in_place_of_its_pattern_is_read_and_watched_where_it_is() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    let role = hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS.role().expect("a file kind");
    let dirs = dirs.with_file(role, etc.as_path().join("corp/policy.json"));
    write(etc.as_path(), "corp/policy.json", &claude_file("./corp.sh"));
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./unread.sh"));
    write(etc.as_path(), "claude-code/managed-settings.d/10-a.json", &claude_file("./frag.sh"));
    assert_eq!(h.watch_managed(&dirs), Some(AttachOutcome::Attached));
    let corp = managed_claude(&etc, "corp/policy.json");
    let fragment = managed_claude(&etc, "claude-code/managed-settings.d/10-a.json");
    assert_eq!(h.managed_reloads(), [vec![corp.clone(), fragment]]);
    assert!(h.managed_watched(&etc).contains(&"corp".to_owned()), "{:?}", h.managed_watched(&etc));

    write(etc.as_path(), "corp/policy.json", &claude_file("./corp2.sh"));
    h.event(EventKind::Modify(ModifyKind::Any), &etc, &["corp/policy.json"]);
    h.advance(600);
    assert_eq!(h.managed_loads(), 2);
    assert_eq!(commands(&h.registry, &corp).unwrap_or_default(), ["./corp2.sh"]);
    // The file the name replaces is not a managed file any more: its change reloads nothing.
    h.event(EventKind::Modify(ModifyKind::Any), &etc, &["claude-code/managed-settings.json"]);
    h.advance(5_000);
    assert_eq!(h.managed_loads(), 2);
}

/// Whether a managed file is read can depend on its owner and mode (Gemini CLI's system
/// files are read only when no one but root can write them): a `chmod` or `chown` of a
/// managed hook file reloads the scope, though its content did not change. Metadata changes
/// of other paths, or of user files, reload nothing.
#[test]
fn a_metadata_change_of_a_managed_file_reloads_it() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    h.watch_managed(&dirs);
    let _ = h.managed_reloads();
    let metadata =
        EventKind::Modify(ModifyKind::Metadata(notify::event::MetadataKind::Permissions));
    h.event(metadata, &etc, &["claude-code/managed-settings.json"]);
    h.advance(600);
    assert_eq!(h.managed_loads(), 2);
    h.event(metadata, &etc, &["claude-code/notes.txt"]);
    h.event(metadata, &etc, &["claude-code"]);
    h.advance(5_000);
    assert_eq!(h.managed_loads(), 2);
}

#[test]
fn fragment_folder_warnings_are_the_initial_loads() {
    let mut h = Harness::new();
    let (etc, dirs) = etc(&h);
    write(etc.as_path(), "claude-code/managed-settings.json", &claude_file("./base.sh"));
    h.watch_managed(&dirs);
    for i in 0..=hooks_sources::MAX_FOLDER_FILES {
        write(etc.as_path(), &format!("claude-code/managed-settings.d/{i:04}.json"), "{}");
    }
    h.event(EventKind::Create(CreateKind::Folder), &etc, &["claude-code/managed-settings.d"]);
    h.advance(600);
    let snapshot = h.registry.snapshot();
    let managed: Vec<_> = snapshot
        .sources()
        .iter()
        .filter(|s| s.id.kind == hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS)
        .map(|s| s.id.clone())
        .collect();
    assert_eq!(managed.len(), 1 + hooks_sources::MAX_FOLDER_FILES, "capped as at start");
    let codes: Vec<String> = snapshot
        .sources()
        .iter()
        .flat_map(|s| s.diagnostics.iter().filter_map(|d| d.code.clone()))
        .collect();
    assert!(codes.contains(&"too_many_files".to_owned()), "{codes:?}");
    // The same as the runtime's first load reads them.
    let fresh = RegistryHandle::default();
    fresh.change(|reg| {
        hooks_sources::load_managed_sources(
            &hooks_testing::workspace_formats(),
            &dirs,
            &StaticTrustPolicy,
            &desktop_unknown(),
            false,
            reg,
        )
    });
    let fresh_snapshot = fresh.snapshot();
    let fresh_diags: Vec<_> =
        fresh_snapshot.sources().iter().map(|s| (s.id.clone(), s.diagnostics.clone())).collect();
    let diags: Vec<_> =
        snapshot.sources().iter().map(|s| (s.id.clone(), s.diagnostics.clone())).collect();
    assert_eq!(diags, fresh_diags);
}
