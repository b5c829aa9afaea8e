//! Tests of the opt-in and run-settings resolution, on hand-built sources.

use std::time::Duration;

use hooks_schema::{
    AbsPathBuf, FormatId, PolicySwitch, RunSettings, SourceOwner, SourcePolicy, SwitchRule,
};

use super::{PolicySource, RunSettingsIndex, held_back_by, opt_in_is_on};

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
    let sources = [(F, &roots[..1], project_a), (F, &[][..], global), (G, &[][..], parallel(2))];
    let index = RunSettingsIndex::build(sources, &roots);
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
        RunSettingsIndex::build([(F, &[][..], RunSettings::default())], &roots).entries.is_empty()
    );
    assert_eq!(RunSettingsIndex::build([(F, &[][..], grace)], &[]).get(F, None), grace);
}
