//! Tests for the posture fold and the surface and posture names.

use crate::{CommandExecutionPosture, CommandExecutionPosture as P, Surface};

#[test]
fn strictest_prefers_needing_approval_then_not_knowing_then_auto_approving() {
    let cases = [
        (P::AutoApproves, P::AutoApproves, P::AutoApproves),
        (P::AutoApproves, P::Unknown, P::Unknown),
        (P::AutoApproves, P::RequiresApproval, P::RequiresApproval),
        (P::Unknown, P::Unknown, P::Unknown),
        (P::Unknown, P::RequiresApproval, P::RequiresApproval),
        (P::RequiresApproval, P::RequiresApproval, P::RequiresApproval),
    ];
    for (a, b, want) in cases {
        assert_eq!(a.strictest(b), want, "{a} {b}");
        assert_eq!(b.strictest(a), want, "{b} {a}");
    }
}

#[test]
fn strictest_of_folds_any_number_and_none_is_unknown() {
    assert_eq!(P::strictest_of([]), P::Unknown);
    assert_eq!(P::strictest_of([P::AutoApproves]), P::AutoApproves);
    assert_eq!(P::strictest_of([P::AutoApproves, P::AutoApproves]), P::AutoApproves);
    assert_eq!(P::strictest_of([P::AutoApproves, P::Unknown, P::AutoApproves]), P::Unknown);
    assert_eq!(
        P::strictest_of([P::Unknown, P::RequiresApproval, P::AutoApproves]),
        P::RequiresApproval
    );
    // Order never matters.
    for a in P::ALL {
        for b in P::ALL {
            for c in P::ALL {
                assert_eq!(P::strictest_of([a, b, c]), P::strictest_of([c, a, b]));
                assert_eq!(P::strictest_of([a, b, c]), a.strictest(b).strictest(c));
            }
        }
    }
}

#[test]
fn names_round_trip() {
    for s in Surface::ALL {
        assert_eq!(s.as_str().parse::<Surface>(), Ok(s));
    }
    for p in CommandExecutionPosture::ALL {
        assert_eq!(p.as_str().parse::<CommandExecutionPosture>(), Ok(p));
    }
    assert_eq!("terminal".parse::<Surface>(), Ok(Surface::Tui));
    let err = "desk".parse::<Surface>().unwrap_err().to_string();
    assert!(err.starts_with("unknown surface `desk`"), "{err}");
    assert!("yes".parse::<CommandExecutionPosture>().is_err());
}

#[test]
fn interactive_surfaces_are_the_four_with_a_person() {
    let interactive: Vec<_> = Surface::ALL.into_iter().filter(|s| s.is_interactive()).collect();
    assert_eq!(interactive, [Surface::Desktop, Surface::Tui, Surface::Ide, Surface::Web]);
}
