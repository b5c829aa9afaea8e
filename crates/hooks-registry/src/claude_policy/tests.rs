//! Tests for the Claude Code hook policy resolution: a table of settings combinations and the
//! cut they give outside every project and under each root.

use hooks_schema::{FormatId, HookSourceId, HookSourceKind as K};
use serde_json::{Map, Value, json};

use super::{ClaudeClass, Cut, Voice, resolve};
use crate::test_support::sid;

const P: &str = "/nonexistent-claude-policy-test";

/// One settings file: its kind, path, the roots it applies under (project kinds) and its
/// settings.
struct File {
    id: HookSourceId,
    roots: Vec<usize>,
    settings: Map<String, Value>,
}

fn file(kind: K, name: &str, roots: &[usize], settings: Value) -> File {
    let Value::Object(settings) = settings else { panic!("settings must be an object") };
    File { id: sid(kind, format!("{P}/{name}")), roots: roots.to_vec(), settings }
}

fn voices(files: &[File]) -> Vec<Voice<'_>> {
    files
        .iter()
        .map(|f| Voice {
            id: &f.id,
            class: ClaudeClass::of(&f.id, std::iter::empty(), &f.settings),
            roots: &f.roots,
            settings: &f.settings,
        })
        .collect()
}

/// The cut and the deciding file's name outside every project and under each root.
fn outcome(files: &[File], roots: usize) -> (Vec<(Cut, String)>, (Cut, String)) {
    let table = resolve(&voices(files), roots);
    let show = |p: &super::ScopePolicy| {
        let by = p.decided_by.as_ref().map_or(String::new(), |(key, path)| {
            let name =
                path.as_path().strip_prefix(P).map_or(String::new(), |n| n.display().to_string());
            format!("{key} in {name}")
        });
        (p.cut, by)
    };
    ((0..roots).map(|i| show(table.at(Some(i)))).collect(), show(&table.outside))
}

/// A case: its name, the files, the expected outcome under each root and outside.
type Case = (&'static str, Vec<File>, Vec<(Cut, String)>, (Cut, String));

fn none() -> (Cut, String) {
    (Cut::None, String::new())
}

fn cut(c: Cut, by: &str) -> (Cut, String) {
    (c, by.to_owned())
}

#[test]
fn the_precedence_table() {
    use Cut::{All, NonManaged};
    let user_true = || {
        file(
            hooks_testing::kinds::USER_CLAUDE_SETTINGS,
            "user.json",
            &[],
            json!({"disableAllHooks": true}),
        )
    };
    // (case, files, expected per root, expected outside); two roots, 0 and 1.
    let cases: Vec<Case> = vec![
        ("nothing set", vec![], vec![none(), none()], none()),
        (
            "user true alone: user and project Claude hooks off everywhere, managed on",
            vec![user_true()],
            vec![cut(NonManaged, "disableAllHooks in user.json"); 2],
            cut(NonManaged, "disableAllHooks in user.json"),
        ),
        (
            "user true + project false: the project's root runs, others do not",
            vec![
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": false}),
                ),
                user_true(),
            ],
            vec![none(), cut(NonManaged, "disableAllHooks in user.json")],
            cut(NonManaged, "disableAllHooks in user.json"),
        ),
        (
            "local false over project true",
            vec![
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_LOCAL_SETTINGS,
                    "r0/local.json",
                    &[0],
                    json!({"disableAllHooks": false}),
                ),
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": true}),
                ),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "project true only speaks for its root",
            vec![file(
                hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                "r1/settings.json",
                &[1],
                json!({"disableAllHooks": true}),
            )],
            vec![none(), cut(NonManaged, "disableAllHooks in r1/settings.json")],
            none(),
        ),
        (
            "explicit false over project true and user true",
            vec![
                file(K::RUN_DELIVERED, "run/settings.json", &[], json!({"disableAllHooks": false})),
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": true}),
                ),
                user_true(),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "explicit true over project false",
            vec![
                file(K::RUN_DELIVERED, "run/settings.json", &[], json!({"disableAllHooks": true})),
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": false}),
                ),
            ],
            vec![cut(NonManaged, "disableAllHooks in run/settings.json"); 2],
            cut(NonManaged, "disableAllHooks in run/settings.json"),
        ),
        (
            "managed true: every Claude hook off, whatever the others say",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "managed-settings.json",
                    &[],
                    json!({"disableAllHooks": true}),
                ),
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": false}),
                ),
            ],
            vec![cut(All, "disableAllHooks in managed-settings.json"); 2],
            cut(All, "disableAllHooks in managed-settings.json"),
        ),
        (
            "managed false over user true",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "managed-settings.json",
                    &[],
                    json!({"disableAllHooks": false}),
                ),
                user_true(),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "a later managed fragment wins as a scalar",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "managed-settings.json",
                    &[],
                    json!({"disableAllHooks": true}),
                ),
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "d/10-on.json",
                    &[],
                    json!({"disableAllHooks": false}),
                ),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a fragment",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "managed-settings.json",
                    &[],
                    json!({}),
                ),
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "d/50-only.json",
                    &[],
                    json!({"allowManagedHooksOnly": true}),
                ),
                file(
                    hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                    "r0/settings.json",
                    &[0],
                    json!({"disableAllHooks": false}),
                ),
            ],
            vec![cut(NonManaged, "allowManagedHooksOnly in d/50-only.json"); 2],
            cut(NonManaged, "allowManagedHooksOnly in d/50-only.json"),
        ),
        (
            "a later fragment turns allowManagedHooksOnly back off",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "d/10.json",
                    &[],
                    json!({"allowManagedHooksOnly": true}),
                ),
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "d/20.json",
                    &[],
                    json!({"allowManagedHooksOnly": false}),
                ),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a user file is ignored",
            vec![file(
                hooks_testing::kinds::USER_CLAUDE_SETTINGS,
                "user.json",
                &[],
                json!({"allowManagedHooksOnly": true}),
            )],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a project file is ignored",
            vec![file(
                hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                "r0/settings.json",
                &[0],
                json!({"allowManagedHooksOnly": true}),
            )],
            vec![none(), none()],
            none(),
        ),
        (
            "managed disableAllHooks true beats allowManagedHooksOnly",
            vec![
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "a.json",
                    &[],
                    json!({"allowManagedHooksOnly": true}),
                ),
                file(
                    hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS,
                    "b.json",
                    &[],
                    json!({"disableAllHooks": true}),
                ),
            ],
            vec![cut(All, "disableAllHooks in b.json"); 2],
            cut(All, "disableAllHooks in b.json"),
        ),
        (
            "a Cursor or Chrys file has no say",
            vec![
                file(
                    hooks_testing::kinds::USER_CURSOR_FILE,
                    "cursor.json",
                    &[],
                    json!({"disableAllHooks": true}),
                ),
                file(
                    hooks_testing::kinds::PROJECT_CHRYS_FILE,
                    "r0/hooks.yaml",
                    &[0],
                    json!({"disableAllHooks": true}),
                ),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "a value that is not a boolean is not a say",
            vec![file(
                hooks_testing::kinds::USER_CLAUDE_SETTINGS,
                "user.json",
                &[],
                json!({"disableAllHooks": "yes"}),
            )],
            vec![none(), none()],
            none(),
        ),
    ];
    for (case, files, roots, outside) in cases {
        assert_eq!(outcome(&files, 2), (roots, outside), "{case}");
    }
}

#[test]
fn cuts_remove_only_claude_sources_of_their_class() {
    for class in [ClaudeClass::Other, ClaudeClass::Managed, ClaudeClass::NonManaged] {
        assert!(!Cut::None.removes(class));
    }
    assert!(Cut::NonManaged.removes(ClaudeClass::NonManaged));
    assert!(!Cut::NonManaged.removes(ClaudeClass::Managed));
    assert!(!Cut::NonManaged.removes(ClaudeClass::Other));
    assert!(Cut::All.removes(ClaudeClass::NonManaged));
    assert!(Cut::All.removes(ClaudeClass::Managed));
    assert!(!Cut::All.removes(ClaudeClass::Other));
}

#[test]
fn explicit_sources_are_claude_when_they_speak_its_protocol_or_set_its_keys() {
    let id = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    let empty = Map::new();
    assert_eq!(
        ClaudeClass::of(&id, [FormatId::new("cursor")].into_iter(), &empty),
        ClaudeClass::Other
    );
    assert_eq!(ClaudeClass::of(&id, [super::CLAUDE].into_iter(), &empty), ClaudeClass::NonManaged);
    let Value::Object(settings) = json!({"disableAllHooks": true}) else { unreachable!() };
    assert_eq!(ClaudeClass::of(&id, std::iter::empty(), &settings), ClaudeClass::NonManaged);
    let managed =
        sid(hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS, format!("{P}/managed-settings.json"));
    assert_eq!(ClaudeClass::of(&managed, std::iter::empty(), &empty), ClaudeClass::Managed);
    let cursor = sid(hooks_testing::kinds::MANAGED_CURSOR_FILE, format!("{P}/hooks.json"));
    assert_eq!(ClaudeClass::of(&cursor, [super::CLAUDE].into_iter(), &empty), ClaudeClass::Other);
}
