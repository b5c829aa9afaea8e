//! The benches' order of samples: every side measured after a sample of its own side.
//!
//! A sample's time depends on the side sampled before it (on the 2-vCPU machine here, any
//! sample whose hook ran on the other vCPU makes the next one 5–7 % faster), so an order in
//! which one side mostly follows another skews a ratio (`specs/dispatch.md`, "The side before
//! a sample (session 26)"). [`Order::interleave`] takes rounds of one block of [`BLOCK`]
//! samples per side, the sides' order shuffled from round to round with a fixed seed, and keeps
//! each block's first sample apart: it follows another side's, but in a round that the shuffle
//! starts with the side the round before ended with.

/// Samples a side takes in a row: the first follows another side's sample and is kept apart,
/// the others follow their own side's.
pub const BLOCK: usize = 4;

/// The seed of the sides' order: every call takes the same orders.
const SEED: u64 = 0x5eed_b10c;

/// The samples of each side, indexed as the sides are.
#[derive(Debug, Clone, PartialEq)]
pub struct Interleaved {
    /// The samples that follow a sample of their own side: at least `n` per side.
    pub own: Vec<Vec<f64>>,
    /// The blocks' first samples: each right after another side's sample, but the very first
    /// and those of a round that starts with the side the round before ended with.
    pub after_other: Vec<Vec<f64>>,
}

/// The sides' order from round to round: one sequence of shuffles from a fixed seed, so a
/// bench that keeps one `Order` for all its runs takes the same orders every time it runs.
#[derive(Debug, Clone)]
pub struct Order {
    rng: fastrand::Rng,
}

impl Default for Order {
    fn default() -> Self {
        Order { rng: fastrand::Rng::with_seed(SEED) }
    }
}

impl Order {
    /// Samples `sides` sides with `sample(side)` until each has at least `n` samples that
    /// follow one of its own, in rounds of one block of [`BLOCK`] samples per side, the sides'
    /// order shuffled round by round (continuing this `Order`'s sequence of shuffles).
    ///
    /// ```
    /// use hooks_testing::bench::{BLOCK, Order};
    ///
    /// let mut calls = Vec::new();
    /// let s = Order::default().interleave(2, 6, |side| {
    ///     calls.push(side);
    ///     side as f64
    /// });
    /// assert!(s.own.iter().all(|v| v.len() >= 6));
    /// assert_eq!(calls.len(), 2 * 2 * BLOCK);
    /// ```
    pub fn interleave(
        &mut self,
        sides: usize,
        n: usize,
        mut sample: impl FnMut(usize) -> f64,
    ) -> Interleaved {
        let rounds = n.div_ceil(BLOCK - 1);
        let mut own = vec![Vec::with_capacity(rounds * (BLOCK - 1)); sides];
        let mut after_other = vec![Vec::with_capacity(rounds); sides];
        let mut order: Vec<usize> = (0..sides).collect();
        for _ in 0..rounds {
            self.rng.shuffle(&mut order);
            for &side in &order {
                after_other[side].push(sample(side));
                for _ in 1..BLOCK {
                    own[side].push(sample(side));
                }
            }
        }
        Interleaved { own, after_other }
    }
}

#[cfg(test)]
mod tests;
