//! Tests of the source policy resolution on hand-built sources: opt-ins, the switches'
//! precedence table (Claude Code's `disableAllHooks` and `allowManagedHooksOnly` as the
//! seed pins them, and the same rules for any format) and run settings per place.

use std::time::Duration;

use hooks_schema::{
    AbsPathBuf, FormatId, HookSourceId, HookSourceKind as K, PolicySwitch, RunSettings,
    SourceOwner, SourcePolicy, SwitchRule,
};

use super::{
    PolicyInput, PolicySource, PolicyTable, RunSettingsIndex, SettingsSource, Subject, Voice,
    held_back_by, opt_in_is_on, resolve, resolve_sources,
};
use crate::test_support::sid;

const F: FormatId = FormatId::new("f");
const G: FormatId = FormatId::new("g");
const KEY: &str = "project.hooks_enabled";

fn voice(on: bool) -> SourcePolicy {
    SourcePolicy {
        switches: vec![PolicySwitch { key: KEY, rule: SwitchRule::OptIn, on }],
        ..SourcePolicy::default()
    }
}

fn src(format: FormatId, owner: SourceOwner, policy: &SourcePolicy) -> PolicySource<'_> {
    PolicySource { format: Some(format), owner, can_run: true, policy }
}

#[test]
fn an_opt_in_is_off_without_a_voice_and_follows_the_managed_then_the_user_voice() {
    let requires = SourcePolicy { requires: Some(KEY), ..SourcePolicy::default() };
    let (on, off) = (voice(true), voice(false));
    let project = src(F, SourceOwner::Project, &requires);
    assert_eq!(held_back_by(&[project], &project, false), Some(KEY), "no voice: off");
    assert_eq!(held_back_by(&[project], &project, true), None, "the user forced it on");
    let user_on = src(F, SourceOwner::User, &on);
    assert_eq!(held_back_by(&[project, user_on], &project, false), None);
    // A project, an explicit source, another format, or a source that cannot run: no voice.
    for other in [
        src(F, SourceOwner::Project, &on),
        src(F, SourceOwner::Explicit, &on),
        src(G, SourceOwner::User, &on),
        PolicySource { can_run: false, ..user_on },
    ] {
        assert_eq!(held_back_by(&[other, project], &project, false), Some(KEY), "{other:?}");
    }
    // Managed voices outrank the user's; the later managed file wins.
    let sources = [src(F, SourceOwner::Managed, &on), src(F, SourceOwner::Managed, &off), user_on];
    assert!(!opt_in_is_on(&sources, Some(F), KEY, false));
    let sources = [src(F, SourceOwner::Managed, &off), src(F, SourceOwner::Managed, &on)];
    assert!(opt_in_is_on(&sources, Some(F), KEY, false));
    // Among user voices, the one of highest precedence (first) decides; within a file, the
    // last switch.
    let both = SourcePolicy {
        switches: vec![
            PolicySwitch { key: KEY, rule: SwitchRule::OptIn, on: true },
            PolicySwitch { key: KEY, rule: SwitchRule::OptIn, on: false },
        ],
        ..SourcePolicy::default()
    };
    assert!(!opt_in_is_on(&[src(F, SourceOwner::User, &both)], Some(F), KEY, false));
    let user_off = src(F, SourceOwner::User, &off);
    assert!(!opt_in_is_on(&[user_off, user_on], Some(F), KEY, false));
    // A source that requires nothing is never held back.
    let plain = SourcePolicy::default();
    let p = src(F, SourceOwner::Project, &plain);
    assert_eq!(held_back_by(&[p], &p, false), None);
}

#[test]
fn run_settings_merge_per_field_by_precedence_in_each_place() {
    let r = |p: &str| AbsPathBuf::new(p.into()).unwrap();
    let (a, b) = (r("/a"), r("/b"));
    let parallel = |n| RunSettings { max_parallel: Some(n), ..RunSettings::default() };
    let project_a = RunSettings { max_parallel: Some(1), ..RunSettings::default() };
    let global = RunSettings {
        max_parallel: Some(8),
        outbox_max_retries: Some(5),
        ..RunSettings::default()
    };
    let roots = [a.clone(), b.clone()];
    let subject = |format| Subject { format: Some(format), managed: false, picked_by: None };
    let s = |format, roots: &'static [usize], run| SettingsSource {
        subject: subject(format),
        project: !roots.is_empty(),
        roots,
        run,
    };
    let sources = [s(F, &[0], project_a), s(F, &[], global), s(G, &[], parallel(2))];
    let none = PolicyTable::default();
    let index = RunSettingsIndex::build(sources, &roots, &none);
    assert_eq!(index.get(F, None), global, "outside every project: the global file alone");
    assert_eq!(
        index.get(F, Some(&a)),
        RunSettings {
            max_parallel: Some(1),
            outbox_max_retries: Some(5),
            ..RunSettings::default()
        },
        "under /a: the project's field over the global one, the rest from the global"
    );
    assert_eq!(index.get(F, Some(&b)), global, "another project's file does not reach /b");
    assert_eq!(index.get(G, Some(&a)), parallel(2), "formats merge apart");
    assert_eq!(index.entries().count(), 6);
    // Nothing set anywhere: nothing listed.
    let grace =
        RunSettings { shutdown_grace: Some(Duration::from_secs(1)), ..RunSettings::default() };
    assert!(
        RunSettingsIndex::build([s(F, &[], RunSettings::default())], &roots, &none)
            .entries
            .is_empty()
    );
    assert_eq!(RunSettingsIndex::build([s(F, &[], grace)], &[], &none).get(F, None), grace);
    // A source switched off in a place sets nothing there: the project under /a switches F's
    // non-managed hooks off, so its own and the global file's settings count only elsewhere.
    let off = switches(&[(SwitchRule::Hooks, false)]);
    let a_id = sid(K::file(hooks_schema::FileScope::Project, ROLE_F), "/a/f.json");
    let voice = Voice { id: &a_id, subject: subject(F), roots: &[0], policy: &off };
    let table = resolve(&[voice], 2);
    let index = RunSettingsIndex::build([s(F, &[0], project_a), s(F, &[], global)], &roots, &table);
    assert_eq!(index.get(F, Some(&a)), RunSettings::default());
    assert_eq!(index.get(F, Some(&b)), global);
    assert_eq!(index.get(F, None), global);
}

// ---------------------------------------------------------------------------------------------
// Switches

const P: &str = "/nonexistent-policy-test";
const ROLE_F: hooks_schema::FileRole = hooks_schema::FileRole::new(F, "f_file", 100);

/// A policy of `switches`, keyed as Claude Code spells them.
fn switches(list: &[(SwitchRule, bool)]) -> SourcePolicy {
    let switches = list
        .iter()
        .map(|&(rule, on)| PolicySwitch {
            key: match rule {
                SwitchRule::Hooks => "disableAllHooks",
                SwitchRule::ManagedOnly => "allowManagedHooksOnly",
                SwitchRule::OptIn => KEY,
            },
            rule,
            on,
        })
        .collect();
    SourcePolicy { switches, ..SourcePolicy::default() }
}

/// Claude Code's `disableAllHooks: v` as its adapter types it.
fn disable_all(v: bool) -> SourcePolicy {
    switches(&[(SwitchRule::Hooks, !v)])
}

fn managed_only(v: bool) -> SourcePolicy {
    switches(&[(SwitchRule::ManagedOnly, v)])
}

/// One file: its kind, path, the roots it applies under (project kinds) and its policy.
struct File {
    id: HookSourceId,
    roots: Vec<usize>,
    policy: SourcePolicy,
}

fn file(kind: K, name: &str, roots: &[usize], policy: SourcePolicy) -> File {
    File { id: sid(kind, format!("{P}/{name}")), roots: roots.to_vec(), policy }
}

fn voices(files: &[File]) -> Vec<Voice<'_>> {
    files
        .iter()
        .map(|f| Voice {
            id: &f.id,
            subject: Subject::of(&f.id, std::iter::empty()),
            roots: &f.roots,
            policy: &f.policy,
        })
        .collect()
}

/// What is off for Claude Code's managed and non-managed sources, and the deciding file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cut {
    None,
    NonManaged(String),
    All(String),
}

fn none() -> Cut {
    Cut::None
}

fn show(table: &PolicyTable, root: Option<usize>) -> Cut {
    let claude = |managed| Subject { format: Some(CLAUDE), managed, picked_by: None };
    let place = table.at(root);
    let by = |r: &super::Reason| {
        let super::Reason::Setting { key, file } = r else { panic!("not a setting: {r:?}") };
        let name =
            file.as_path().strip_prefix(P).map_or(String::new(), |n| n.display().to_string());
        format!("{key} in {name}")
    };
    match (place.removes(claude(true)), place.removes(claude(false))) {
        (Some(r), Some(_)) => Cut::All(by(r)),
        (None, Some(r)) => Cut::NonManaged(by(r)),
        (None, None) => Cut::None,
        (Some(_), None) => panic!("managed off but not the others"),
    }
}

const CLAUDE: FormatId = FormatId::new("claude");

/// The cut under each root and outside every project.
fn outcome(files: &[File], roots: usize) -> (Vec<Cut>, Cut) {
    let table = resolve(&voices(files), roots);
    ((0..roots).map(|i| show(&table, Some(i))).collect(), show(&table, None))
}

type Case = (&'static str, Vec<File>, Vec<Cut>, Cut);

#[test]
fn the_precedence_table() {
    use hooks_testing::kinds::{
        MANAGED_CLAUDE_SETTINGS as MANAGED, PROJECT_CLAUDE_LOCAL_SETTINGS as LOCAL,
        PROJECT_CLAUDE_SETTINGS as PROJECT, USER_CLAUDE_SETTINGS as USER,
    };
    let non_managed = |by: &str| Cut::NonManaged(by.to_owned());
    let all = |by: &str| Cut::All(by.to_owned());
    let user_true = || file(USER, "user.json", &[], disable_all(true));
    let run = K::RUN_DELIVERED.in_format(CLAUDE);
    // (case, files, expected per root, expected outside); two roots, 0 and 1.
    let cases: Vec<Case> = vec![
        ("nothing set", vec![], vec![none(), none()], none()),
        (
            "user true alone: user and project Claude hooks off everywhere, managed on",
            vec![user_true()],
            vec![non_managed("disableAllHooks in user.json"); 2],
            non_managed("disableAllHooks in user.json"),
        ),
        (
            "user true + project false: the project's root runs, others do not",
            vec![file(PROJECT, "r0/settings.json", &[0], disable_all(false)), user_true()],
            vec![none(), non_managed("disableAllHooks in user.json")],
            non_managed("disableAllHooks in user.json"),
        ),
        (
            "local false over project true",
            vec![
                file(LOCAL, "r0/local.json", &[0], disable_all(false)),
                file(PROJECT, "r0/settings.json", &[0], disable_all(true)),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "project true only speaks for its root",
            vec![file(PROJECT, "r1/settings.json", &[1], disable_all(true))],
            vec![none(), non_managed("disableAllHooks in r1/settings.json")],
            none(),
        ),
        (
            "explicit false over project true and user true",
            vec![
                file(run, "run/settings.json", &[], disable_all(false)),
                file(PROJECT, "r0/settings.json", &[0], disable_all(true)),
                user_true(),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "explicit true over project false",
            vec![
                file(run, "run/settings.json", &[], disable_all(true)),
                file(PROJECT, "r0/settings.json", &[0], disable_all(false)),
            ],
            vec![non_managed("disableAllHooks in run/settings.json"); 2],
            non_managed("disableAllHooks in run/settings.json"),
        ),
        (
            "managed true: every Claude hook off, whatever the others say",
            vec![
                file(MANAGED, "managed-settings.json", &[], disable_all(true)),
                file(PROJECT, "r0/settings.json", &[0], disable_all(false)),
            ],
            vec![all("disableAllHooks in managed-settings.json"); 2],
            all("disableAllHooks in managed-settings.json"),
        ),
        (
            "managed false over user true",
            vec![file(MANAGED, "managed-settings.json", &[], disable_all(false)), user_true()],
            vec![none(), none()],
            none(),
        ),
        (
            "a later managed fragment wins as a scalar",
            vec![
                file(MANAGED, "managed-settings.json", &[], disable_all(true)),
                file(MANAGED, "d/10-on.json", &[], disable_all(false)),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a fragment",
            vec![
                file(MANAGED, "managed-settings.json", &[], SourcePolicy::default()),
                file(MANAGED, "d/50-only.json", &[], managed_only(true)),
                file(PROJECT, "r0/settings.json", &[0], disable_all(false)),
            ],
            vec![non_managed("allowManagedHooksOnly in d/50-only.json"); 2],
            non_managed("allowManagedHooksOnly in d/50-only.json"),
        ),
        (
            "a later fragment turns allowManagedHooksOnly back off",
            vec![
                file(MANAGED, "d/10.json", &[], managed_only(true)),
                file(MANAGED, "d/20.json", &[], managed_only(false)),
            ],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a user file is ignored",
            vec![file(USER, "user.json", &[], managed_only(true))],
            vec![none(), none()],
            none(),
        ),
        (
            "allowManagedHooksOnly in a project file is ignored",
            vec![file(PROJECT, "r0/settings.json", &[0], managed_only(true))],
            vec![none(), none()],
            none(),
        ),
        (
            "managed disableAllHooks true beats allowManagedHooksOnly",
            vec![
                file(MANAGED, "a.json", &[], managed_only(true)),
                file(MANAGED, "b.json", &[], disable_all(true)),
            ],
            vec![all("disableAllHooks in b.json"); 2],
            all("disableAllHooks in b.json"),
        ),
        (
            "another format's switch has no say over Claude Code's hooks",
            vec![
                file(hooks_testing::kinds::USER_CURSOR_FILE, "cursor.json", &[], disable_all(true)),
                file(
                    hooks_testing::kinds::PROJECT_CHRYS_FILE,
                    "r0/hooks.yaml",
                    &[0],
                    disable_all(true),
                ),
                file(hooks_testing::kinds::MANAGED_CURSOR_FILE, "m.json", &[], managed_only(true)),
            ],
            vec![none(), none()],
            none(),
        ),
    ];
    for (case, files, roots, outside) in cases {
        assert_eq!(outcome(&files, 2), (roots, outside), "{case}");
    }
}

/// The rules are the format's data, not Claude Code's: a format of the test's own, with a
/// managed and a user source, switches its own sources and no other format's.
#[test]
fn switches_follow_the_same_rules_for_any_format_and_stay_within_it() {
    let managed = sid(K::file(hooks_schema::FileScope::Managed, ROLE_F), format!("{P}/m.f"));
    let user = sid(K::file(hooks_schema::FileScope::User, ROLE_F), format!("{P}/u.f"));
    let off = switches(&[(SwitchRule::Hooks, false)]);
    let on = switches(&[(SwitchRule::Hooks, true)]);
    let subject = |format, managed| Subject { format: Some(format), managed, picked_by: None };
    let v =
        |id, policy| Voice { id, subject: Subject::of(id, std::iter::empty()), roots: &[], policy };
    // A user "off": F's non-managed sources are off, its managed ones and G's run.
    let table = resolve(&[v(&user, &off)], 0);
    let place = table.at(None);
    assert!(place.removes(subject(F, false)).is_some());
    assert!(place.removes(subject(F, true)).is_none());
    assert!(place.removes(subject(G, false)).is_none());
    assert!(place.removes(Subject { format: None, managed: false, picked_by: None }).is_none());
    // A managed "off": all of F. A managed "on" over a user "off": all of F runs.
    let table = resolve(&[v(&managed, &off), v(&user, &on)], 0);
    assert!(table.at(None).removes(subject(F, true)).is_some());
    let table = resolve(&[v(&managed, &on), v(&user, &off)], 0);
    assert!(!table.cuts_anything(), "{table:?}");
}

#[test]
fn an_explicit_source_without_a_declared_format_takes_its_definitions_format() {
    let id = sid(K::RUN_DELIVERED, format!("{P}/run/hooks.json"));
    assert_eq!(Subject::of(&id, [F, F].into_iter()).format, Some(F));
    assert_eq!(Subject::of(&id, [F, G].into_iter()).format, None, "mixed: no format");
    assert_eq!(Subject::of(&id, std::iter::empty()).format, None);
    let declared = sid(K::RUN_DELIVERED.in_format(G), format!("{P}/run/hooks.json"));
    assert_eq!(Subject::of(&declared, [F].into_iter()).format, Some(G));
    let managed = sid(hooks_testing::kinds::MANAGED_CLAUDE_SETTINGS, format!("{P}/m.json"));
    assert!(Subject::of(&managed, std::iter::empty()).managed);
}

/// The one entry point decides in order: a held-back source neither speaks for a switch nor
/// sets run settings; a source that cannot run has no say either; a project source found
/// under no known root sets nothing anywhere.
#[test]
fn resolve_sources_holds_back_first_then_switches_then_run_settings() {
    let r = |p: &str| AbsPathBuf::new(p.into()).unwrap();
    let roots = [r("/a")];
    let project =
        |name: &str| sid(K::file(hooks_schema::FileScope::Project, ROLE_F), format!("/a/{name}"));
    let user = sid(K::file(hooks_schema::FileScope::User, ROLE_F), format!("{P}/u.f"));
    let one = RunSettings { max_parallel: Some(1), ..RunSettings::default() };
    // A project file that requires the opt-in, switches F off and sets max_parallel 1.
    let needy =
        SourcePolicy { requires: Some(KEY), run: one, ..switches(&[(SwitchRule::Hooks, false)]) };
    let needy_id = project("needy.f");
    let user_policy = SourcePolicy::default();
    let input = |id, can_run, roots: &'static [usize], policy| PolicyInput {
        id,
        subject: Subject::of(id, std::iter::empty()),
        can_run,
        roots,
        policy,
    };
    let inputs = [input(&needy_id, true, &[0], &needy), input(&user, true, &[], &user_policy)];
    let held = resolve_sources(&inputs, &roots, false);
    assert_eq!(held.held, [Some(KEY), None]);
    assert!(!held.table.cuts_anything(), "a held-back file has no say: {:?}", held.table);
    assert!(held.run_settings.entries.is_empty(), "nor settings");
    // Opted in: its switch and settings apply under its root, and its own switch cuts it
    // there, so its settings count nowhere; the user's F sources are cut under /a only.
    let on = resolve_sources(&inputs, &roots, true);
    assert_eq!(on.held, [None, None]);
    let user_subject = Subject::of(&user, std::iter::empty());
    assert!(on.table.at(Some(0)).removes(user_subject).is_some());
    assert!(on.table.at(None).removes(user_subject).is_none());
    assert!(on.run_settings.entries.is_empty(), "{:?}", on.run_settings);
    // A source that cannot run has no say; a project source under no known root sets nothing.
    let plain = SourcePolicy { run: one, ..SourcePolicy::default() };
    let stray = project("stray.f");
    let inputs = [input(&needy_id, false, &[0], &needy), input(&stray, true, &[], &plain)];
    let out = resolve_sources(&inputs, &roots, true);
    assert!(!out.table.cuts_anything());
    assert!(out.run_settings.entries.is_empty(), "{:?}", out.run_settings);
    // The same file's settings under its root when nothing cuts it.
    let inputs = [input(&stray, true, &[0], &plain)];
    assert_eq!(resolve_sources(&inputs, &roots, false).run_settings.get(F, Some(&roots[0])), one);
}

// ---------------------------------------------------------------------------------------------
// Names

/// Gemini CLI's `hooksConfig.disabled` through the generic policy: the names every running
/// file of the format lists add up in each place where the file applies; a managed file's
/// names reach every source of the format, any other file's only the non-managed ones; the
/// first file in precedence order to list a name is its reason; other formats are untouched.
#[test]
fn hook_names_listed_by_running_files_switch_those_hooks_off_where_they_apply() {
    use hooks_testing::{ids::GEMINI, kinds};
    let gemini = hooks_testing::gemini_formats();
    let codec = gemini.get(GEMINI).expect("gemini").codec();
    let named = |name: &str| hooks_schema::HookDefinition {
        codec: codec.clone(),
        ..crate::test_support::def("BeforeTool[0][0]", 0, name)
    };
    let list = |names: &[&str]| SourcePolicy {
        disables: Some(hooks_schema::DisabledNames {
            key: "hooksConfig.disabled",
            names: names.iter().map(|n| (*n).to_owned()).collect(),
        }),
        ..SourcePolicy::default()
    };
    let (m, p, u, u2) = (list(&["m", "both"]), list(&["p"]), list(&["u", "both"]), list(&["u"]));
    let ids = [
        sid(kinds::MANAGED_GEMINI_SETTINGS, "/etc/gemini-cli/settings.json"),
        sid(kinds::PROJECT_CURSOR_FILE, "/a/.gemini/settings.json"),
        sid(kinds::USER_CURSOR_FILE, "/home/u/.gemini/settings.json"),
        sid(kinds::USER_CURSOR_FILE, "/home/u/.gemini/other.json"),
    ];
    let subject = |managed| Subject { format: Some(GEMINI), managed, picked_by: None };
    let voices = [
        Voice { id: &ids[0], subject: subject(true), roots: &[], policy: &m },
        Voice { id: &ids[1], subject: subject(false), roots: &[0], policy: &p },
        Voice { id: &ids[2], subject: subject(false), roots: &[], policy: &u },
        Voice { id: &ids[3], subject: subject(false), roots: &[], policy: &u2 },
    ];
    let table = resolve(&voices, 2);
    let by = |root: Option<usize>, managed: bool, name: &str| {
        table.at(root).disables(subject(managed), &named(name)).map(|r| r.text())
    };
    let reason = |i: usize| Some(format!("disabled by hooksConfig.disabled in {}", ids[i].path));
    // Outside every project and under the other root: the managed and user lists.
    for root in [None, Some(1)] {
        assert_eq!(by(root, false, "m"), reason(0));
        assert_eq!(by(root, false, "u"), reason(2), "the first user file listing it");
        assert_eq!(by(root, false, "both"), reason(0));
        assert_eq!(by(root, false, "p"), None, "the project's list applies under its root");
        assert_eq!(by(root, true, "u"), None, "a user list spares managed hooks");
        assert_eq!(by(root, true, "m"), reason(0), "a managed list reaches managed hooks");
        assert_eq!(by(root, false, "other"), None);
    }
    assert_eq!(by(Some(0), false, "p"), reason(1));
    assert_eq!(by(Some(0), true, "p"), None);
    // Another format's hooks, a hook its format cannot name: untouched.
    let cursor =
        Subject { format: Some(hooks_testing::ids::CURSOR), managed: false, picked_by: None };
    assert_eq!(table.at(None).disables(cursor, &named("u")), None);
    let plain = crate::test_support::def("x", 0, "u");
    assert_eq!(table.at(None).disables(subject(false), &plain), None, "no name for it");
    // Which bindings are kept: none cut for other formats.
    let bind = |d: hooks_schema::HookDefinition| hooks_schema::Binding {
        source: ids[1].clone(),
        definition: std::sync::Arc::new(d),
        working_dir: AbsPathBuf::new("/a".into()).unwrap(),
        project_root: None,
    };
    let bindings = [bind(named("u")), bind(named("kept"))];
    assert_eq!(table.at(None).kept(subject(false), &bindings), Some(vec![false, true]));
    assert_eq!(table.at(None).kept(cursor, &bindings), None);
    assert_eq!(table.at(None).kept(subject(true), &bindings), Some(vec![true, true]));
    // A list that cannot run (not among the voices) switches nothing off.
    let table = resolve(&voices[1..2], 2);
    assert_eq!(table.at(None).disables(subject(false), &named("p")), None);
    assert!(table.at(Some(0)).disables(subject(false), &named("p")).is_some());
}

// ---------------------------------------------------------------------------------------------
// Picks

/// Claude Code's `agent` through the generic policy (what the real CLI 2.1.328 does, see
/// `specs/formats/claude.md`): the name picked in a place is said as a `Hooks` switch is
/// (the last managed voice, else the one of highest precedence; an empty name picks none);
/// of the sources picked as that name that run and apply there, the first runs (a project's
/// subagent over the user's of the same name); every other one is off with the pick as its
/// reason; a source that cannot run neither picks nor hides another.
#[test]
fn a_source_picked_as_a_name_runs_only_where_that_name_is_picked_and_none_before_it_has_it() {
    let r = |p: &str| AbsPathBuf::new(p.into()).unwrap();
    let roots = [r("/a"), r("/b")];
    let project =
        |name: &str| sid(K::file(hooks_schema::FileScope::Project, ROLE_F), format!("/a/{name}"));
    let user =
        |name: &str| sid(K::file(hooks_schema::FileScope::User, ROLE_F), format!("{P}/{name}"));
    let managed =
        |name: &str| sid(K::file(hooks_schema::FileScope::Managed, ROLE_F), format!("{P}/{name}"));
    let pick = |name: &str| hooks_schema::Pick { key: "agent", name: name.to_owned() };
    let picks = |name: &str| SourcePolicy { picks: Some(pick(name)), ..SourcePolicy::default() };
    let picked_as =
        |name: &str| SourcePolicy { picked_as: Some(pick(name)), ..SourcePolicy::default() };
    let (a_settings, a_gate) = (project("settings.f"), project("gate.f"));
    let (u_settings, u_gate, u_other) = (user("settings.f"), user("gate.f"), user("other.f"));
    let (picks_gate, picks_other) = (picks("gate"), picks("other"));
    let (as_gate, as_other) = (picked_as("gate"), picked_as("other"));
    let input =
        |n: u64, id, can_run, roots: &'static [usize], policy: &'static SourcePolicy| PolicyInput {
            id,
            subject: Subject::of(id, std::iter::empty()).of_source(n, Some(policy)),
            can_run,
            roots,
            policy,
        };
    // 'static policies for the inputs.
    let leak = |p: SourcePolicy| -> &'static SourcePolicy { Box::leak(Box::new(p)) };
    let (picks_gate, picks_other) = (leak(picks_gate), leak(picks_other));
    let (as_gate, as_other) = (leak(as_gate), leak(as_other));
    // Which of the three subagents (numbered 2, 4, 5) runs at each place: outside, /a, /b.
    let running = |inputs: &[PolicyInput<'_>]| -> Vec<Vec<u64>> {
        let out = resolve_sources(inputs, &roots, false);
        [None, Some(0), Some(1)]
            .into_iter()
            .map(|place| {
                inputs
                    .iter()
                    .filter(|i| i.subject.picked_by.is_some())
                    .filter(|i| i.id.kind.owner() != SourceOwner::Project || place == Some(0))
                    .filter(|i| out.table.at(place).removes(i.subject).is_none())
                    .filter_map(|i| i.subject.picked_by.map(|n| n.get() - 1))
                    .collect()
            })
            .collect()
    };
    let all = |a_gate_runs: bool, user_picks: &'static SourcePolicy| {
        vec![
            input(1, &a_settings, true, &[0], picks_gate),
            input(2, &a_gate, a_gate_runs, &[0], as_gate),
            input(3, &u_settings, true, &[], user_picks),
            input(4, &u_gate, true, &[], as_gate),
            input(5, &u_other, true, &[], as_other),
        ]
    };
    // The project picks `gate` under /a, where its own subagent hides the user's; the user
    // picks `other` everywhere else.
    let inputs = all(true, picks_other);
    assert_eq!(running(&inputs), [vec![5], vec![2], vec![5]]);
    let out = resolve_sources(&inputs, &roots, false);
    let off = |place, n: usize| {
        let subject = inputs.get(n).map(|i| i.subject).unwrap();
        out.table.at(place).removes(subject).map(super::Reason::text)
    };
    assert_eq!(
        off(Some(0), 3).as_deref(),
        Some(
            "runs only where a file's `agent` names it: here `agent` in /a/settings.f names `gate`, and /a/gate.f is the one of that name that runs"
        )
    );
    assert_eq!(
        off(None, 3).as_deref(),
        Some(&*format!(
            "runs only where a file's `agent` names it: here `agent` in {P}/settings.f names `other`, and {P}/other.f is the one of that name that runs"
        ))
    );
    // The project's subagent cannot run (untrusted): it hides nothing, the user's `gate` runs.
    assert_eq!(running(&all(false, picks_other)), [vec![5], vec![4], vec![5]]);
    // No file picks outside /a: nothing runs there, and the reason says so.
    let none = leak(SourcePolicy::default());
    let inputs = all(true, none);
    assert_eq!(running(&inputs), [vec![], vec![2], vec![]]);
    let out = resolve_sources(&inputs, &roots, false);
    let subject = inputs.get(4).map(|i| i.subject).unwrap();
    assert_eq!(
        out.table.at(None).removes(subject).map(super::Reason::text).as_deref(),
        Some("runs only where a file's `agent` names it, and no file here names one")
    );
    // A managed pick outranks the project's, the later managed file winning; an empty name
    // picks none.
    let (m1, m2) = (managed("m1.f"), managed("m2.f"));
    let picks_none = leak(picks(""));
    let mut inputs = all(true, picks_other);
    inputs.insert(0, input(7, &m2, true, &[], picks_none));
    inputs.insert(0, input(6, &m1, true, &[], picks_gate));
    assert_eq!(running(&inputs), [Vec::<u64>::new(), vec![], vec![]]);
    let subject = inputs.get(3).map(|i| i.subject).unwrap();
    let out = resolve_sources(&inputs, &roots, false);
    assert_eq!(
        out.table.at(Some(0)).removes(subject).map(super::Reason::text),
        Some(format!(
            "runs only where a file's `agent` names it: here `agent` in {P}/m2.f names none"
        ))
    );
    inputs.swap(0, 1);
    assert_eq!(running(&inputs), [vec![4], vec![2], vec![4]]);
    // A picking file that cannot run has no say: the user's pick holds under /a too.
    let mut inputs = all(true, picks_other);
    if let Some(i) = inputs.get_mut(0) {
        i.can_run = false;
    }
    assert_eq!(running(&inputs), [vec![5], vec![5], vec![5]]);
}

/// One source of the picks proptest: its owner, whether it can run, the roots it applies under
/// (a project source), and whether it picks a name or is picked as one.
#[derive(Debug, Clone)]
struct PickSource {
    owner: SourceOwner,
    can_run: bool,
    roots: Vec<usize>,
    picks: Option<&'static str>,
    picked_as: Option<&'static str>,
}

fn pick_source() -> impl proptest::strategy::Strategy<Value = PickSource> {
    use proptest::prelude::*;
    let owner = prop_oneof![
        Just(SourceOwner::Managed),
        Just(SourceOwner::Project),
        Just(SourceOwner::User)
    ];
    let name = prop_oneof![Just(""), Just("a"), Just("b")];
    let role = prop_oneof![
        name.clone().prop_map(|n| (Some(n), None)),
        name.prop_filter("a subagent has a name", |n| !n.is_empty()).prop_map(|n| (None, Some(n))),
    ];
    (owner, any::<bool>(), proptest::sample::subsequence(vec![0usize, 1], 0..=2), role).prop_map(
        |(owner, can_run, roots, (picks, picked_as))| PickSource {
            owner,
            can_run,
            roots: if owner == SourceOwner::Project { roots } else { Vec::new() },
            picks,
            picked_as,
        },
    )
}

proptest::proptest! {
    /// Whatever the sources, in each place (outside every project, under root 0, under root
    /// 1) the sources waiting to be picked that run there are exactly the one the rule names:
    /// the name picked by the last managed picker that can run, else by the first other
    /// picker that can run and applies there (an empty name picks none), and of the sources
    /// picked as that name that can run and apply there, the first in precedence order.
    #[test]
    fn at_most_the_first_source_of_the_picked_name_runs_in_each_place(
        mut sources in proptest::collection::vec(pick_source(), 1..9)
    ) {
        let rank = |o: SourceOwner| match o {
            SourceOwner::Managed => 0,
            SourceOwner::Project => 1,
            SourceOwner::User | SourceOwner::Explicit => 2,
        };
        // The registry hands sources in precedence order.
        sources.sort_by_key(|s| rank(s.owner));
        let scope = |o: SourceOwner| match o {
            SourceOwner::Managed => hooks_schema::FileScope::Managed,
            SourceOwner::Project => hooks_schema::FileScope::Project,
            SourceOwner::User | SourceOwner::Explicit => hooks_schema::FileScope::User,
        };
        let ids: Vec<HookSourceId> = sources
            .iter()
            .enumerate()
            .map(|(i, s)| sid(K::file(scope(s.owner), ROLE_F), format!("{P}/{i}.f")))
            .collect();
        let policies: Vec<SourcePolicy> = sources
            .iter()
            .map(|s| SourcePolicy {
                picks: s.picks.map(|n| hooks_schema::Pick { key: "agent", name: n.to_owned() }),
                picked_as: s
                    .picked_as
                    .map(|n| hooks_schema::Pick { key: "agent", name: n.to_owned() }),
                ..SourcePolicy::default()
            })
            .collect();
        let inputs: Vec<PolicyInput<'_>> = sources
            .iter()
            .zip(&ids)
            .zip(&policies)
            .enumerate()
            .map(|(n, ((s, id), policy))| PolicyInput {
                id,
                subject: Subject::of(id, std::iter::empty()).of_source(n as u64, Some(policy)),
                can_run: s.can_run,
                roots: &s.roots,
                policy,
            })
            .collect();
        let r = |p: &str| AbsPathBuf::new(p.into()).unwrap();
        let roots = [r("/r0"), r("/r1")];
        let out = resolve_sources(&inputs, &roots, false);
        for place in [None, Some(0), Some(1)] {
            let applies = |s: &PickSource| {
                s.can_run
                    && (s.owner != SourceOwner::Project || place.is_some_and(|p| s.roots.contains(&p)))
            };
            let managed = sources
                .iter()
                .filter(|s| applies(s) && s.owner == SourceOwner::Managed)
                .filter_map(|s| s.picks)
                .next_back();
            let other = sources
                .iter()
                .filter(|s| applies(s) && s.owner != SourceOwner::Managed)
                .find_map(|s| s.picks);
            let picked = managed.or(other).filter(|n| !n.is_empty());
            let expected: Vec<usize> = picked
                .and_then(|name| {
                    sources.iter().position(|s| applies(s) && s.picked_as == Some(name))
                })
                .into_iter()
                .collect();
            let running: Vec<usize> = sources
                .iter()
                .enumerate()
                .filter(|(_, s)| s.picked_as.is_some() && applies(s))
                .filter(|&(i, _)| {
                    inputs.get(i).is_some_and(|input| out.table.at(place).removes(input.subject).is_none())
                })
                .map(|(i, _)| i)
                .collect();
            proptest::prop_assert_eq!(running, expected, "at {:?}: {:?}", place, sources);
        }
    }
}
