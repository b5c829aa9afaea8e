//! Tests of the verdict algebra: every pair and triple of decisions, rewrite composition,
//! short-circuit, never-relax, and proptest properties.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::{AbsPathBuf, HookSourceKind};

const DECISIONS: [Option<Decision>; 4] =
    [None, Some(Decision::Allow), Some(Decision::Ask), Some(Decision::Deny)];

fn prov(i: usize) -> Provenance {
    Provenance {
        hook_id: HookId::new(&format!("h{i}")).unwrap(),
        source: HookSourceId::new(
            HookSourceKind::RUN_DELIVERED,
            AbsPathBuf::new(format!("/hooks/{i}.json").into()).unwrap(),
        ),
        line: Some(u32::try_from(i).unwrap() + 1),
    }
}

fn verdict(d: Option<Decision>, reason: &str) -> HookVerdict {
    HookVerdict { decision: d, reason: Some(reason.to_owned()), ..HookVerdict::default() }
}

fn fold(decisions: &[Option<Decision>]) -> FoldedVerdict {
    let mut f = ChainFold::new(None);
    for (i, d) in decisions.iter().enumerate() {
        if f.push(verdict(*d, &format!("r{i}")), &prov(i)) == ChainStep::ShortCircuit {
            break;
        }
    }
    f.finish()
}

/// The reference model: the maximum decision, named by its first occurrence.
fn model(decisions: &[Option<Decision>]) -> (Option<Decision>, Option<usize>) {
    let best = decisions.iter().flatten().copied().max();
    let idx = best.and_then(|b| decisions.iter().position(|d| *d == Some(b)));
    (best, idx)
}

#[test]
fn restrictiveness_order_is_allow_ask_deny() {
    assert!(Decision::Allow < Decision::Ask);
    assert!(Decision::Ask < Decision::Deny);
    assert_eq!(Decision::Allow.most_restrictive(Decision::Deny), Decision::Deny);
    assert_eq!(Decision::Ask.most_restrictive(Decision::Allow), Decision::Ask);
    assert_eq!(Decision::fold([]), None);
    assert_eq!(Decision::fold([Decision::Ask, Decision::Allow]), Some(Decision::Ask));
}

#[test]
fn every_pair_folds_to_the_most_restrictive_named_by_the_first() {
    for a in DECISIONS {
        for b in DECISIONS {
            let f = fold(&[a, b]);
            let (want, idx) = model(&[a, b]);
            assert_eq!(f.decision, want, "{a:?} then {b:?}");
            assert_eq!(f.decided_by, idx.map(prov), "{a:?} then {b:?}");
            assert_eq!(f.reason, idx.map(|i| format!("r{i}")));
            assert_eq!(f.short_circuited, a == Some(Decision::Deny) || b == Some(Decision::Deny));
        }
    }
}

#[test]
fn every_triple_folds_to_the_most_restrictive_and_stops_at_the_first_deny() {
    for a in DECISIONS {
        for b in DECISIONS {
            for c in DECISIONS {
                let seq = [a, b, c];
                let f = fold(&seq);
                let (want, idx) = model(&seq);
                assert_eq!(f.decision, want, "{seq:?}");
                assert_eq!(f.decided_by, idx.map(prov), "{seq:?}");
                // a deny is the first deny, and nothing after it was consulted
                if let Some(d) = seq.iter().position(|x| *x == Some(Decision::Deny)) {
                    assert_eq!(f.decided_by, Some(prov(d)));
                    assert!(f.short_circuited);
                }
            }
        }
    }
}

#[test]
fn a_deny_short_circuits_and_later_verdicts_are_ignored() {
    let mut f = ChainFold::new(Some(json!({"command": "ls"})));
    assert_eq!(f.push(verdict(Some(Decision::Allow), "ok"), &prov(0)), ChainStep::Continue);
    assert_eq!(f.push(verdict(Some(Decision::Deny), "no"), &prov(1)), ChainStep::ShortCircuit);
    assert!(f.is_short_circuited());
    let late = HookVerdict {
        decision: Some(Decision::Allow),
        rewrite: Some(ArgRewrite::Replace(json!({"command": "rm -rf /"}))),
        context: vec!["late".into()],
        ..HookVerdict::default()
    };
    assert_eq!(f.push(late, &prov(2)), ChainStep::ShortCircuit);
    let out = f.finish();
    assert_eq!(out.decision, Some(Decision::Deny));
    assert_eq!(out.decided_by, Some(prov(1)));
    assert_eq!(out.updated_args, None);
    assert!(out.context.is_empty());
}

#[test]
fn rewrites_compose_in_chain_order() {
    let mut f = ChainFold::new(Some(json!({"command": "ls", "cwd": "/a"})));
    let merge = |pairs: Value| ArgRewrite::Merge(pairs.as_object().unwrap().clone());
    f.push(
        HookVerdict {
            rewrite: Some(merge(json!({"command": "ls -la"}))),
            ..HookVerdict::default()
        },
        &prov(0),
    );
    assert_eq!(f.current_args(), Some(&json!({"command": "ls -la", "cwd": "/a"})));
    f.push(
        HookVerdict {
            rewrite: Some(merge(json!({"cwd": "/b", "x": 1}))),
            ..HookVerdict::default()
        },
        &prov(1),
    );
    f.push(
        HookVerdict {
            rewrite: Some(ArgRewrite::Replace(json!({"command": "pwd"}))),
            ..HookVerdict::default()
        },
        &prov(2),
    );
    f.push(
        HookVerdict { rewrite: Some(merge(json!({"cwd": "/c"}))), ..HookVerdict::default() },
        &prov(3),
    );
    let out = f.finish();
    assert_eq!(out.updated_args, Some(json!({"command": "pwd", "cwd": "/c"})));
    assert_eq!(out.rewritten_by, vec![prov(0), prov(1), prov(2), prov(3)]);
    assert_eq!(out.decision, None);
}

#[test]
fn a_denying_hooks_rewrite_is_not_applied() {
    let mut f = ChainFold::new(Some(json!({"a": 1})));
    f.push(
        HookVerdict {
            decision: Some(Decision::Deny),
            rewrite: Some(ArgRewrite::Replace(json!({"a": 2}))),
            ..HookVerdict::default()
        },
        &prov(0),
    );
    assert_eq!(f.current_args(), Some(&json!({"a": 1})));
    assert_eq!(f.finish().updated_args, None);
}

#[test]
fn merging_into_a_non_object_starts_from_an_empty_object() {
    let mut args = Value::Null;
    ArgRewrite::Merge(json!({"k": true}).as_object().unwrap().clone()).apply_to(&mut args);
    assert_eq!(args, json!({"k": true}));
    let mut f = ChainFold::new(None);
    f.push(
        HookVerdict {
            rewrite: Some(ArgRewrite::Merge(json!({"k": 1}).as_object().unwrap().clone())),
            ..HookVerdict::default()
        },
        &prov(0),
    );
    assert_eq!(f.finish().updated_args, Some(json!({"k": 1})));
}

#[test]
fn context_messages_followups_and_env_keep_chain_order() {
    let mut f = ChainFold::new(None);
    for i in 0..3 {
        f.push(
            HookVerdict {
                context: vec![format!("c{i}")],
                user_message: Some(format!("m{i}")),
                followup: Some(format!("f{i}")),
                halt: (i > 0).then(|| format!("h{i}")),
                env: vec![("K".into(), format!("v{i}"))],
                ..HookVerdict::default()
            },
            &prov(i),
        );
    }
    let out = f.finish();
    assert_eq!(out.context, (0..3).map(|i| (prov(i), format!("c{i}"))).collect::<Vec<_>>());
    assert_eq!(out.user_messages.len(), 3);
    assert_eq!(out.followups[2], (prov(2), "f2".to_owned()));
    assert_eq!(out.halt, Some((prov(1), "h1".to_owned())));
    assert_eq!(out.env.last(), Some(&("K".to_owned(), "v2".to_owned())));
}

#[test]
fn no_hook_opinion_leaves_the_host_decision() {
    for host in [Decision::Allow, Decision::Ask, Decision::Deny] {
        for policy in
            [RelaxPolicy::Never, RelaxPolicy::AllowOverridesAsk, RelaxPolicy::AllowOverridesAll]
        {
            assert_eq!(apply_host_decision(host, None, policy), host);
        }
    }
    assert_eq!(FoldedVerdict::default().effective(), Decision::Allow);
}

#[test]
fn a_hook_never_relaxes_the_host_by_default() {
    for host in [Decision::Allow, Decision::Ask, Decision::Deny] {
        for hook in [Decision::Allow, Decision::Ask, Decision::Deny] {
            let got = apply_host_decision(host, Some(hook), RelaxPolicy::Never);
            assert_eq!(got, host.max(hook), "host {host:?} hook {hook:?}");
            assert!(got >= host);
        }
    }
}

#[test]
fn relaxing_needs_the_embedder_to_opt_in() {
    use Decision::{Allow, Ask, Deny};
    assert_eq!(apply_host_decision(Ask, Some(Allow), RelaxPolicy::AllowOverridesAsk), Allow);
    assert_eq!(apply_host_decision(Deny, Some(Allow), RelaxPolicy::AllowOverridesAsk), Deny);
    assert_eq!(apply_host_decision(Deny, Some(Allow), RelaxPolicy::AllowOverridesAll), Allow);
    assert_eq!(apply_host_decision(Ask, Some(Allow), RelaxPolicy::AllowOverridesAll), Allow);
    // a hook's ask or deny still tightens under every policy
    for p in [RelaxPolicy::AllowOverridesAsk, RelaxPolicy::AllowOverridesAll] {
        assert_eq!(apply_host_decision(Allow, Some(Ask), p), Ask);
        assert_eq!(apply_host_decision(Ask, Some(Deny), p), Deny);
    }
}

fn any_decision() -> impl Strategy<Value = Option<Decision>> {
    prop::sample::select(DECISIONS.to_vec())
}

proptest! {
    /// Adding a hook's verdict never makes the folded decision less restrictive.
    #[test]
    fn adding_a_verdict_never_relaxes(seq in prop::collection::vec(any_decision(), 0..8), extra in any_decision()) {
        let before = fold(&seq).decision;
        let mut longer = seq.clone();
        longer.push(extra);
        let after = fold(&longer).decision;
        prop_assert!(after >= before, "{before:?} -> {after:?}");
        for host in [Decision::Allow, Decision::Ask, Decision::Deny] {
            let b = apply_host_decision(host, before, RelaxPolicy::Never);
            let a = apply_host_decision(host, after, RelaxPolicy::Never);
            prop_assert!(a >= b);
            prop_assert!(a >= host);
        }
    }

    /// Without rewrites, the folded decision does not depend on the order of the verdicts.
    #[test]
    fn decision_is_order_independent(seq in prop::collection::vec(any_decision(), 0..8), seed in any::<u64>()) {
        let mut shuffled = seq.clone();
        // deterministic Fisher-Yates from the seed
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let j = usize::try_from(s >> 33).unwrap() % (i + 1);
            shuffled.swap(i, j);
        }
        prop_assert_eq!(fold(&seq).decision, fold(&shuffled).decision);
    }

    /// Merge rewrites compose like sequential application to a map.
    #[test]
    fn merge_rewrites_equal_sequential_application(
        steps in prop::collection::vec(prop::collection::btree_map("[a-d]", 0i64..5, 0..4), 0..6)
    ) {
        let mut f = ChainFold::new(Some(json!({})));
        let mut model = serde_json::Map::new();
        for (i, step) in steps.iter().enumerate() {
            let m: serde_json::Map<String, Value> = step.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            for (k, v) in &m { model.insert(k.clone(), v.clone()); }
            f.push(HookVerdict { rewrite: Some(ArgRewrite::Merge(m)), ..HookVerdict::default() }, &prov(i));
        }
        prop_assert_eq!(f.current_args(), Some(&Value::Object(model)));
    }
}

fn output_rewrite(out: Value) -> HookVerdict {
    HookVerdict { updated_output: Some(out), ..HookVerdict::default() }
}

#[test]
fn a_single_output_rewrite_is_kept_with_its_hook() {
    let mut f = ChainFold::for_event(HookEvent::PostToolUse, Some(json!({"command": "env"})));
    f.push(HookVerdict::no_opinion(), &prov(0));
    let v = output_rewrite(json!("TOKEN=[redacted]"));
    assert_eq!(f.output_rewrite_ignored(&v), None);
    f.push(v, &prov(1));
    let out = f.finish();
    assert_eq!(out.updated_output, Some(json!("TOKEN=[redacted]")));
    assert_eq!(out.output_rewritten_by, Some(prov(1)));
    assert_eq!(out.updated_args, None, "an output rewrite leaves the arguments alone");
}

#[test]
fn of_two_output_rewrites_the_first_in_chain_order_wins() {
    let mut f = ChainFold::for_event(HookEvent::PostToolUse, None);
    f.push(output_rewrite(json!({"stdout": "first"})), &prov(0));
    let mut second = output_rewrite(json!({"stdout": "second"}));
    f.admit(&mut second);
    assert_eq!(second.updated_output, None);
    assert_eq!(
        second.notes,
        vec![
            "the output rewrite is ignored: hook h0, earlier in chain order, rewrote the output first"
                .to_owned()
        ]
    );
    // push applies the same rule when admit was not called.
    f.push(output_rewrite(json!({"stdout": "third"})), &prov(2));
    let out = f.finish();
    assert_eq!(out.updated_output, Some(json!({"stdout": "first"})));
    assert_eq!(out.output_rewritten_by, Some(prov(0)));
}

#[test]
fn an_output_rewrite_on_another_event_is_ignored_with_a_note() {
    for event in [HookEvent::PreToolUse, HookEvent::SessionStart, HookEvent::Stop] {
        let mut f = ChainFold::for_event(event, Some(json!({"a": 1})));
        let mut v = output_rewrite(json!("x"));
        f.admit(&mut v);
        assert_eq!(v.updated_output, None);
        assert_eq!(v.notes, vec![format!("the output rewrite is ignored on {event}")]);
        f.push(output_rewrite(json!("y")), &prov(0));
        let out = f.finish();
        assert_eq!((out.updated_output, out.output_rewritten_by), (None, None));
    }
    let mut f = ChainFold::new(None);
    f.push(output_rewrite(json!("y")), &prov(0));
    assert_eq!(f.finish().updated_output, None, "a fold without an event applies none");
}

#[test]
fn a_hooks_own_block_keeps_its_output_rewrite_but_a_short_circuit_drops_later_ones() {
    let mut f = ChainFold::for_event(HookEvent::PostToolUse, None);
    f.push(
        HookVerdict {
            decision: Some(Decision::Deny),
            updated_output: Some(json!("redacted")),
            ..HookVerdict::default()
        },
        &prov(0),
    );
    f.push(output_rewrite(json!("later")), &prov(1));
    let out = f.finish();
    assert_eq!(out.updated_output, Some(json!("redacted")));
    assert_eq!(out.output_rewritten_by, Some(prov(0)));
}

proptest! {
    #[test]
    fn the_kept_output_rewrite_is_the_first_one(rewrites in prop::collection::vec(prop::option::of(0u8..8), 0..8)) {
        let mut f = ChainFold::for_event(HookEvent::PostToolUse, None);
        for (i, r) in rewrites.iter().enumerate() {
            let v = HookVerdict { updated_output: r.map(Value::from), ..HookVerdict::default() };
            f.push(v, &prov(i));
        }
        let first = rewrites.iter().position(Option::is_some);
        let out = f.finish();
        prop_assert_eq!(out.output_rewritten_by, first.map(prov));
        prop_assert_eq!(out.updated_output, first.and_then(|i| rewrites[i]).map(Value::from));
    }
}

/// A failed tool's result may be replaced as a successful one's is (Gemini CLI's `AfterTool`
/// blocks a failed tool's result too, and a failure is `tool_failure` there).
#[test]
fn an_output_rewrite_on_a_tool_failure_is_honoured() {
    let mut f = ChainFold::for_event(HookEvent::ToolFailure, Some(json!({"a": 1})));
    let mut v = output_rewrite(json!("x"));
    f.admit(&mut v);
    assert_eq!(v.updated_output, Some(json!("x")));
    assert!(v.notes.is_empty());
    f.push(v, &prov(0));
    let out = f.finish();
    assert_eq!((out.updated_output, out.output_rewritten_by), (Some(json!("x")), Some(prov(0))));
}
