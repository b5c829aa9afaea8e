//! The order [`Order::interleave`] samples in.

use super::*;

/// Runs `interleave` and returns the sides in the order they were sampled.
fn sequence(sides: usize, n: usize) -> (Interleaved, Vec<usize>) {
    let mut seq = Vec::new();
    let s = Order::default().interleave(sides, n, |side| {
        seq.push(side);
        seq.len() as f64
    });
    (s, seq)
}

#[test]
fn every_kept_sample_follows_its_own_side_and_a_first_another_but_at_a_round_s_start() {
    let (s, seq) = sequence(4, 300);
    for side in 0..4 {
        assert!(s.own[side].len() >= 300, "side {side}: {}", s.own[side].len());
        assert_eq!(s.own[side].len(), s.after_other[side].len() * (BLOCK - 1));
    }
    // A sample's value is its place in the sequence (1-based): check what came before it.
    for (side, kept) in s.own.iter().enumerate() {
        for &at in kept {
            assert_eq!(seq[at as usize - 2], side, "a kept sample of side {side} at {at}");
        }
    }
    let round = 4 * BLOCK;
    for (side, firsts) in s.after_other.iter().enumerate() {
        for &at in firsts.iter().filter(|&&at| at > 1.0) {
            let i = at as usize - 1;
            if seq[i - 1] == side {
                assert_eq!(i % round, 0, "a first sample of side {side} at {at} after its own");
            }
        }
    }
}

/// An `Order` kept across calls goes on with its shuffles (a bench's runs take different
/// orders), a new one starts again (every run of the bench takes the same).
#[test]
fn one_order_continues_from_call_to_call_and_a_new_one_starts_again() {
    let record = |order: &mut Order| {
        let mut seq = Vec::new();
        order.interleave(4, 30, |side| {
            seq.push(side);
            0.0
        });
        seq
    };
    let mut kept = Order::default();
    let (first, second) = (record(&mut kept), record(&mut kept));
    assert_ne!(first, second);
    assert_eq!(first, record(&mut Order::default()));
}

#[test]
fn the_sides_order_changes_from_round_to_round_and_not_from_call_to_call() {
    let (_, a) = sequence(4, 60);
    let (_, b) = sequence(4, 60);
    assert_eq!(a, b, "a fixed seed");
    let rounds: Vec<Vec<usize>> =
        a.chunks(4 * BLOCK).map(|r| r.iter().step_by(BLOCK).copied().collect()).collect();
    let distinct: std::collections::BTreeSet<&Vec<usize>> = rounds.iter().collect();
    assert!(distinct.len() > rounds.len() / 2, "orders: {rounds:?}");
    // Every side goes first, and follows every other side, in some round.
    for side in 0..4 {
        assert!(rounds.iter().any(|r| r[0] == side), "side {side} never first");
        for before in (0..4).filter(|&b| b != side) {
            assert!(
                rounds.iter().any(|r| r.windows(2).any(|w| w == [before, side])),
                "side {side} never right after {before}"
            );
        }
    }
}
