//! Seeded random point sets, as in the experiment the text cites: integer coordinates drawn
//! uniformly from \[0, Dmax\] with Dmax = Θ(n²).
//!
//! A fixture names a seed and n; labgrade (in the grader and in the sandboxed child) and the
//! benchmark generate the same set from them, so the generator is part of the fixtures'
//! meaning: change it and every seeded case changes. It is SplitMix64 (Steele, Lea and
//! Flood), small, fast and the same on every platform.

use std::collections::BTreeSet;

/// SplitMix64.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (`bound > 0`), without modulo bias.
    pub fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % bound;
            }
        }
    }
}

/// `n` distinct points, ascending: x1 = 0 and n - 1 others uniform in \[1, n²\].
/// `n` must be at least 1 and at most 46,340 (so that n² fits an `i32`).
pub fn random_points(seed: u64, n: usize) -> Vec<i32> {
    let mut rng = SplitMix64::new(seed);
    let top = (n as u64) * (n as u64);
    let mut set = BTreeSet::new();
    set.insert(0i32);
    while set.len() < n {
        let p = 1 + rng.below(top.max(1)) as i32;
        set.insert(p);
    }
    set.into_iter().collect()
}

/// The n(n-1)/2 distances |x_i - x_j| (i < j) of `points`, ascending.
pub fn distances(points: &[i32]) -> Vec<i32> {
    let mut d = Vec::with_capacity(points.len() * points.len().saturating_sub(1) / 2);
    for (i, &a) in points.iter().enumerate() {
        for &b in &points[i + 1..] {
            d.push(a.wrapping_sub(b).wrapping_abs());
        }
    }
    d.sort_unstable();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_published_sequence() {
        // The first outputs for seed 1234567 of the reference implementation (Vigna).
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn points_are_distinct_sorted_and_anchored() {
        for n in [1usize, 2, 3, 10, 100, 1000] {
            let p = random_points(42, n);
            assert_eq!(p.len(), n);
            assert_eq!(p[0], 0);
            assert!(p.windows(2).all(|w| w[0] < w[1]));
            assert!(*p.last().unwrap() as u64 <= (n * n) as u64);
        }
        assert_eq!(random_points(7, 50), random_points(7, 50));
        assert_ne!(random_points(7, 50), random_points(8, 50));
    }

    #[test]
    fn distances_of_a_set() {
        assert_eq!(
            distances(&[0, 3, 5, 6, 8, 10]),
            vec![1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10]
        );
        assert_eq!(distances(&[0, 5, 9]).len(), 3);
    }
}
