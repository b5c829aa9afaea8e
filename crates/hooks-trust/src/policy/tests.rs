//! Tests for the trust table: every cell, the switches, the fold and the reasons.

use std::{collections::BTreeSet, fmt::Write as _};

use expect_test::expect_file;
use hooks_schema::SourceOwner;
use hooks_testing::WORKSPACE_KINDS as ALL;

use crate::{
    CommandExecutionPosture, DenyAllTrustPolicy, StaticTrustPolicy, Surface, TrustInputs,
    TrustPolicy, explicit_source_decision,
};

const HEADLESS_TRUSTED: [Surface; 2] = [Surface::OzRun, Surface::CliRun];

fn every_input() -> Vec<TrustInputs> {
    let mut all = Vec::new();
    for surface in Surface::ALL {
        for posture in CommandExecutionPosture::ALL {
            for opt_in in [false, true] {
                for strict in [false, true] {
                    all.push(
                        TrustInputs::new(surface, posture)
                            .with_user_project_hooks(opt_in)
                            .with_strict_project_scopes(strict),
                    );
                }
            }
        }
    }
    all
}

/// The whole default table (both switches off), one line per (surface, kind, posture) cell,
/// checked against a reviewed golden file.
#[test]
fn every_cell_of_the_default_table() {
    let mut out = String::new();
    for surface in Surface::ALL {
        for kind in ALL {
            for posture in CommandExecutionPosture::ALL {
                let d = StaticTrustPolicy.decide(kind, &TrustInputs::new(surface, posture));
                writeln!(out, "{surface} {kind} {posture} => {}", d.reason()).unwrap();
            }
        }
    }
    expect_file!["../../test_data/default_table.txt"].assert_eq(&out);
}

/// The seed's rule, stated independently of the table: with both switches off, a source is
/// active unless it is a project file, and a project file only on OzRun and CliRun with
/// AutoApproves.
#[test]
fn default_table_follows_the_posture_rule_in_every_cell() {
    for surface in Surface::ALL {
        for kind in ALL {
            for posture in CommandExecutionPosture::ALL {
                let d = StaticTrustPolicy.decide(kind, &TrustInputs::new(surface, posture));
                let expected = match kind.owner() {
                    SourceOwner::Project => {
                        HEADLESS_TRUSTED.contains(&surface)
                            && posture == CommandExecutionPosture::AutoApproves
                    }
                    SourceOwner::Explicit | SourceOwner::Managed | SourceOwner::User => true,
                };
                assert_eq!(d.is_active(), expected, "{surface} {kind} {posture}: {d:?}");
                let word = if expected { "active: " } else { "inert: " };
                assert!(d.reason().starts_with(word), "{surface} {kind} {posture}: {d:?}");
            }
        }
    }
}

#[test]
fn project_files_are_inert_on_interactive_surfaces_even_when_commands_auto_approve() {
    for surface in Surface::ALL.into_iter().filter(|s| s.is_interactive()) {
        let d = StaticTrustPolicy.decide(
            hooks_testing::kinds::PROJECT_CURSOR_FILE,
            &TrustInputs::new(surface, CommandExecutionPosture::AutoApproves),
        );
        assert!(!d.is_active(), "{surface}");
        assert!(d.reason().contains("project.hooks_enabled"), "{}", d.reason());
    }
}

#[test]
fn a_local_child_never_trusts_project_files() {
    for inputs in every_input().into_iter().filter(|i| i.surface == Surface::LocalChild) {
        for kind in ALL.into_iter().filter(|k| k.is_project()) {
            assert!(!StaticTrustPolicy.decide(kind, &inputs).is_active(), "{inputs:?}");
        }
    }
}

#[test]
fn explicit_managed_and_user_sources_activate_in_every_cell_whatever_the_switches() {
    for inputs in every_input() {
        for kind in ALL.into_iter().filter(|k| !k.is_project()) {
            let d = StaticTrustPolicy.decide(kind, &inputs);
            assert!(d.is_active(), "{kind} {inputs:?}");
            assert!(d.reason().contains(&kind.name()), "{}", d.reason());
        }
    }
}

#[test]
fn the_loader_decision_for_explicit_kinds_is_the_tables() {
    for kind in ALL.into_iter().filter(|k| k.is_explicit()) {
        for inputs in every_input() {
            assert_eq!(explicit_source_decision(kind), StaticTrustPolicy.decide(kind, &inputs));
        }
    }
}

#[test]
fn the_chrys_opt_in_activates_project_files_on_interactive_surfaces_only() {
    for inputs in every_input().into_iter().filter(|i| !i.strict_project_scopes) {
        let off = inputs.with_user_project_hooks(false);
        let on = inputs.with_user_project_hooks(true);
        for kind in ALL.into_iter().filter(|k| k.is_project()) {
            let with = StaticTrustPolicy.decide(kind, &on);
            let without = StaticTrustPolicy.decide(kind, &off);
            if inputs.surface.is_interactive() {
                assert!(with.is_active(), "{kind} {on:?}");
                assert!(!without.is_active(), "{kind} {off:?}");
                assert!(with.reason().contains("project.hooks_enabled"));
            } else {
                // Headless runs follow the posture rule alone.
                assert_eq!(with, without, "{kind} {inputs:?}");
            }
        }
    }
}

#[test]
fn strict_mode_keeps_every_project_scope_inert_and_changes_nothing_else() {
    for inputs in every_input().into_iter().filter(|i| i.strict_project_scopes) {
        for kind in ALL {
            let d = StaticTrustPolicy.decide(kind, &inputs);
            if kind.is_project() {
                assert!(!d.is_active(), "{kind} {inputs:?}");
                assert!(d.reason().contains("strict mode"), "{}", d.reason());
            } else {
                let lax = StaticTrustPolicy.decide(kind, &inputs.with_strict_project_scopes(false));
                assert_eq!(d, lax, "{kind} {inputs:?}");
            }
        }
    }
    // Strict mode beats the opt-in and the trusted headless cell.
    let best = TrustInputs::new(Surface::CliRun, CommandExecutionPosture::AutoApproves)
        .with_user_project_hooks(true)
        .with_strict_project_scopes(true);
    assert!(
        !StaticTrustPolicy.decide(hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, &best).is_active()
    );
}

#[test]
fn each_inert_project_cell_says_why_in_its_own_words() {
    let kind = hooks_testing::kinds::PROJECT_CURSOR_FILE;
    let mut reasons = BTreeSet::new();
    let cells = [
        TrustInputs::new(Surface::OzRun, CommandExecutionPosture::RequiresApproval),
        TrustInputs::new(Surface::OzRun, CommandExecutionPosture::Unknown),
        TrustInputs::new(Surface::Desktop, CommandExecutionPosture::AutoApproves),
        TrustInputs::new(Surface::LocalChild, CommandExecutionPosture::AutoApproves),
        TrustInputs::new(Surface::OzRun, CommandExecutionPosture::AutoApproves)
            .with_strict_project_scopes(true),
    ];
    for inputs in cells {
        let d = StaticTrustPolicy.decide(kind, &inputs);
        assert!(!d.is_active());
        reasons.insert(d.reason().to_owned());
    }
    assert_eq!(reasons.len(), cells.len(), "{reasons:#?}");
    // The reason names the surface it is about.
    let cli = StaticTrustPolicy.decide(
        kind,
        &TrustInputs::new(Surface::CliRun, CommandExecutionPosture::RequiresApproval),
    );
    assert!(cli.reason().contains("command-line run"), "{}", cli.reason());
}

#[test]
fn deny_all_keeps_everything_inert() {
    for inputs in every_input() {
        for kind in ALL {
            let d = DenyAllTrustPolicy.decide(kind, &inputs);
            assert!(!d.is_active());
            assert!(d.reason().contains("deny-all"));
        }
    }
}

#[test]
fn owners_cover_every_kind() {
    let owners: BTreeSet<_> = ALL
        .into_iter()
        .map(|k| match k.owner() {
            SourceOwner::Explicit => 0,
            SourceOwner::Managed => 1,
            SourceOwner::User => 2,
            SourceOwner::Project => 3,
        })
        .collect();
    assert_eq!(owners.len(), 4);
}

#[test]
fn the_policy_is_usable_as_a_shared_trait_object() {
    let policies: Vec<std::sync::Arc<dyn TrustPolicy>> =
        vec![std::sync::Arc::new(StaticTrustPolicy), std::sync::Arc::new(DenyAllTrustPolicy)];
    let inputs = TrustInputs::new(Surface::OzRun, CommandExecutionPosture::AutoApproves);
    let active: Vec<bool> = policies
        .iter()
        .map(|p| p.decide(hooks_testing::kinds::PROJECT_CHRYS_FILE, &inputs).is_active())
        .collect();
    assert_eq!(active, [true, false]);
}
