//! Tests of the policy types' small algebra.

use std::time::Duration;

use super::*;

#[test]
fn run_settings_take_each_unset_field_from_below() {
    let project = RunSettings { max_parallel: Some(1), ..RunSettings::default() };
    let global = RunSettings {
        max_parallel: Some(8),
        outbox_max_retries: Some(5),
        ..RunSettings::default()
    };
    let merged = project.over(global);
    assert_eq!(merged.max_parallel, Some(1), "the higher source wins a field it sets");
    assert_eq!(merged.outbox_max_retries, Some(5), "a field it leaves unset comes from below");
    assert_eq!(merged.shutdown_grace, None);
    assert!(RunSettings::default().is_empty());
    assert!(!merged.is_empty());
    let grace = RunSettings { shutdown_grace: Some(Duration::from_secs(2)), ..merged };
    assert_eq!(grace.over(RunSettings::default()), grace);
}

#[test]
fn the_last_switch_of_a_rule_is_the_one_in_effect() {
    let p = SourcePolicy {
        switches: vec![
            PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: true },
            PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: false },
        ],
        ..SourcePolicy::default()
    };
    assert!(!p.switch(SwitchRule::Hooks).unwrap().on);
    assert!(p.switch(SwitchRule::ManagedOnly).is_none());
    assert!(!p.is_empty());
    assert!(SourcePolicy::default().is_empty());
}

#[test]
fn a_pick_or_a_name_to_be_picked_as_is_a_policy() {
    let pick = Pick { key: "agent", name: "gate".to_owned() };
    let picks = SourcePolicy { picks: Some(pick.clone()), ..SourcePolicy::default() };
    let picked = SourcePolicy { picked_as: Some(pick), ..SourcePolicy::default() };
    assert!(!picks.is_empty(), "a settings file that names the main thread's agent");
    assert!(!picked.is_empty(), "a subagent that runs only when named");
    let none = SourcePolicy {
        picks: Some(Pick { key: "agent", name: String::new() }),
        ..SourcePolicy::default()
    };
    assert!(!none.is_empty(), "an empty name still speaks: it picks none over a lower file");
}
