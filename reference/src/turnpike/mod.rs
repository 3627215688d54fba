//! Weiss' turnpike reconstruction (*Data Structures and Algorithm Analysis in C*, ch. 10,
//! Figures 10.63 to 10.65).
//!
//! Given the multiset D of the n(n-1)/2 distances between n points on a line, find the
//! points, with x\[1\] = 0, in nondecreasing order. The driver `turnpike` (Figure 10.64) sets
//! x\[1\] = 0, x\[n\] and x\[n-1\] to the two largest distances, removes x\[n\] - x\[n-1\] and
//! calls the backtracking `place` (Figure 10.65) on x\[2..n-2\]. `place` takes the largest
//! remaining distance dmax and first tries x\[Right\] = dmax, then x\[Left\] = x\[n\] - dmax;
//! a placement is feasible when every distance from the new point to the points already
//! placed is in D; it then removes them, recurses, and puts them back if the recursion fails
//! (a backtrack).
//!
//! Two places where the figures and the prose disagree, and what the reference does:
//!
//! - **Quantity.** Figure 10.65's line 4 only asks that each |x\[j\] - dmax| be *in* D; the prose
//!   says "in the correct quantity", and the worked example needs it ("x3 = 4 is impossible,
//!   because D only has one occurrence of 4, and two would be implied"). With only
//!   find/contains/delete/insert on D, the check is done by deleting: each distance is looked
//!   up with `contains` and deleted at once, so a second copy must really be there; when one
//!   is missing, the distances this check already deleted are put back (last first) and the
//!   placement is infeasible. A feasible check leaves exactly the deletions of lines 6-7.
//! - **D after failure.** The text promises that when `turnpike` returns FALSE, "the distance
//!   array D will be untouched"; Figure 10.64 itself removes x\[n\], x\[n-1\] and x\[n\] - x\[n-1\]
//!   and never puts them back. The reference keeps the promise: it re-inserts them before
//!   returning FALSE.
//!
//! Everything else is the figures' order of operations exactly. The algorithm is written once
//! ([`turnpike_body`], [`place_body`]) over a [`DistanceSet`] and [`Points`], and recursion goes
//! through a [`Search`], so that the same code runs:
//!
//! - counted, on a [`Multiset`] or on labgrade's instrumented world ([`reconstruct`]), giving
//!   `place` calls, depth, backtracks and the [`Step`]s of the search;
//! - as the cdylib's exported C functions `turnpike` and `place` (`reference/cdylib`, with
//!   the C types of [`ffi`]), calling the
//!   distance set through the ops table of `specs/turnpike/turnpike.h` and reporting their
//!   calls to [`crate::instrument`] like an instrumented student build.

pub mod ffi;
pub mod multiset;
pub mod random;

pub use multiset::{Multiset, Op};
pub use random::{distances, random_points, SplitMix64};

/// The operations Weiss' pseudocode performs on D.
///
/// Queries take `&mut self` so that an implementation can record every operation.
pub trait DistanceSet {
    /// The largest distance (D is not empty).
    fn find_max(&mut self) -> i32;
    /// Removes and returns the largest distance (D is not empty).
    fn delete_max(&mut self) -> i32;
    /// True when at least one copy of `d` is in D.
    fn contains(&mut self, d: i32) -> bool;
    /// Removes one copy of `d` (which is in D).
    fn delete(&mut self, d: i32);
    /// Adds one copy of `d`.
    fn insert(&mut self, d: i32);
    /// True when D holds no distance.
    fn is_empty(&mut self) -> bool;
}

/// The point array x\[1..n\] (index 0 unused, as in the text).
pub trait Points {
    /// x\[j\].
    fn get(&self, j: usize) -> i32;
    /// x\[j\] = v.
    fn set(&mut self, j: usize, v: i32);
}

impl Points for [i32] {
    fn get(&self, j: usize) -> i32 {
        self[j]
    }
    fn set(&mut self, j: usize, v: i32) {
        self[j] = v;
    }
}

impl Points for Vec<i32> {
    fn get(&self, j: usize) -> i32 {
        self[j]
    }
    fn set(&mut self, j: usize, v: i32) {
        self[j] = v;
    }
}

/// Which of `place`'s two attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// x\[Right\] = dmax (tried first).
    Right,
    /// x\[Left\] = x\[n\] - dmax.
    Left,
}

impl Side {
    /// `x[Right] = dmax` or `x[Left] = x[n] - dmax`.
    pub fn rule(self) -> &'static str {
        match self {
            Side::Right => "x[Right] = dmax",
            Side::Left => "x[Left] = x[n] - dmax",
        }
    }
}

/// One change the search makes to D, in order: what labgrade's world sees as a committed
/// placement or an undo block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `turnpike` set x\[n\] and x\[n-1\] and removed them and their difference.
    Driver {
        /// x\[n\].
        xn: i32,
        /// x\[n-1\].
        xn1: i32,
    },
    /// `place` found a feasible point and removed its distances.
    Placed {
        /// Which attempt.
        side: Side,
        /// Its index (Right or Left).
        index: usize,
        /// Its coordinate.
        value: i32,
        /// The dmax of that `place` call.
        dmax: i32,
    },
    /// `place` undid a placement whose recursion failed (a backtrack, lines 9-11 or 18-20).
    Undone {
        /// Which attempt.
        side: Side,
        /// Its index.
        index: usize,
        /// Its coordinate.
        value: i32,
    },
    /// `turnpike` put x\[n\], x\[n-1\] and their difference back after `place` failed.
    DriverRestored,
}

/// How the recursive call `place(x, D, n, Left, Right)` is made, and where steps go.
pub trait Search<S: DistanceSet + ?Sized, P: Points + ?Sized> {
    /// The (recursive) call of `place`.
    fn place(&mut self, x: &mut P, d: &mut S, n: usize, left: i64, right: i64) -> bool;
    /// A step of the search (nothing by default).
    fn step(&mut self, _step: Step) {}
}

/// The indices already placed when `place(Left, Right)` runs: 1 <= j < Left, Right < j <= n.
fn placed(left: i64, right: i64, n: usize) -> impl Iterator<Item = usize> {
    let below = left.max(1) as usize;
    let above = (right + 1).max(1) as usize;
    (1..below).chain(above..=n)
}

/// The `i`-th index (from 0) that [`placed`] yields.
fn nth_placed(i: usize, left: i64, right: i64) -> usize {
    let below = (left.max(1) as usize).saturating_sub(1);
    if i < below {
        i + 1
    } else {
        (right + 1).max(1) as usize + (i - below)
    }
}

fn dist(a: i32, b: i32) -> i32 {
    a.wrapping_sub(b).wrapping_abs()
}

/// Lines 4-7 (and 12-16) in the correct quantity: removes |x\[j\] - p| for every placed j, or
/// nothing. Each distance is looked up and deleted at once; on the first one missing, those
/// already deleted are put back, last first.
fn remove_distances<S: DistanceSet + ?Sized, P: Points + ?Sized>(
    x: &P,
    d: &mut S,
    n: usize,
    left: i64,
    right: i64,
    p: i32,
) -> bool {
    for (removed, j) in placed(left, right, n).enumerate() {
        let dj = dist(x.get(j), p);
        if !d.contains(dj) {
            for i in (0..removed).rev() {
                let k = nth_placed(i, left, right);
                d.insert(dist(x.get(k), p));
            }
            return false;
        }
        d.delete(dj);
    }
    true
}

/// Figure 10.64, `turnpike`, keeping the text's promise that D is untouched after failure.
/// `n` must be at least 3 and `x` must have n + 1 elements.
pub fn turnpike_body<S, P, T>(x: &mut P, d: &mut S, n: usize, t: &mut T) -> bool
where
    S: DistanceSet + ?Sized,
    P: Points + ?Sized,
    T: Search<S, P> + ?Sized,
{
    x.set(1, 0);
    x.set(n, d.delete_max());
    x.set(n - 1, d.delete_max());
    let diff = x.get(n).wrapping_sub(x.get(n - 1));
    if d.contains(diff) {
        d.delete(diff);
        t.step(Step::Driver {
            xn: x.get(n),
            xn1: x.get(n - 1),
        });
        if t.place(x, d, n, 2, n as i64 - 2) {
            return true;
        }
        // Not in Figure 10.64: the text's promise that D is untouched after failure.
        t.step(Step::DriverRestored);
        d.insert(diff);
    }
    d.insert(x.get(n - 1));
    d.insert(x.get(n));
    false
}

/// Figure 10.65, `place`: the body of one call; recursive calls go through `t`.
pub fn place_body<S, P, T>(x: &mut P, d: &mut S, n: usize, left: i64, right: i64, t: &mut T) -> bool
where
    S: DistanceSet + ?Sized,
    P: Points + ?Sized,
    T: Search<S, P> + ?Sized,
{
    if d.is_empty() {
        return true;
    }
    let dmax = d.find_max();
    let mut found = false;
    // Try x[Right] = dmax.
    if remove_distances(x, d, n, left, right, dmax) {
        x.set(right as usize, dmax);
        t.step(Step::Placed {
            side: Side::Right,
            index: right as usize,
            value: dmax,
            dmax,
        });
        found = t.place(x, d, n, left, right - 1);
        if !found {
            // Backtrack: undo the deletion.
            t.step(Step::Undone {
                side: Side::Right,
                index: right as usize,
                value: dmax,
            });
            for j in placed(left, right, n) {
                d.insert(dist(x.get(j), dmax));
            }
        }
    }
    // If the first attempt failed, try x[Left] = x[n] - dmax.
    if !found {
        let p = x.get(n).wrapping_sub(dmax);
        if remove_distances(x, d, n, left, right, p) {
            x.set(left as usize, p);
            t.step(Step::Placed {
                side: Side::Left,
                index: left as usize,
                value: p,
                dmax,
            });
            found = t.place(x, d, n, left + 1, right);
            if !found {
                t.step(Step::Undone {
                    side: Side::Left,
                    index: left as usize,
                    value: p,
                });
                for j in placed(left, right, n) {
                    d.insert(dist(x.get(j), p));
                }
            }
        }
    }
    found
}

/// The counting [`Search`]: `place` calls, depth, backtracks and (optionally) the steps.
#[derive(Debug, Clone, Default)]
pub struct Counted {
    /// Calls of `place`.
    pub place_calls: u64,
    /// Deepest nesting of `place`.
    pub max_depth: u64,
    /// Undo blocks executed by `place` (the driver's restore is not one).
    pub backtracks: u64,
    /// The steps, when kept.
    pub steps: Option<Vec<Step>>,
    depth: u64,
}

impl<S: DistanceSet + ?Sized, P: Points + ?Sized> Search<S, P> for Counted {
    fn place(&mut self, x: &mut P, d: &mut S, n: usize, left: i64, right: i64) -> bool {
        self.place_calls += 1;
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        let found = place_body(x, d, n, left, right, self);
        self.depth -= 1;
        found
    }

    fn step(&mut self, step: Step) {
        if matches!(step, Step::Undone { .. }) {
            self.backtracks += 1;
        }
        if let Some(steps) = &mut self.steps {
            steps.push(step);
        }
    }
}

/// What one reconstruction did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// `turnpike`'s result.
    pub found: bool,
    /// x\[1..n\] when found (empty otherwise: x is undefined after failure).
    pub points: Vec<i32>,
    /// Calls of `place`.
    pub place_calls: u64,
    /// Deepest nesting of `place`.
    pub max_depth: u64,
    /// Backtracks (undo blocks executed by `place`).
    pub backtracks: u64,
    /// The steps, when asked for.
    pub steps: Vec<Step>,
}

/// Runs `turnpike` on `d` (which holds n(n-1)/2 distances, n >= 3), counted.
pub fn reconstruct<S: DistanceSet + ?Sized>(d: &mut S, n: usize, keep_steps: bool) -> Run {
    let mut x = vec![0i32; n + 1];
    let mut c = Counted {
        steps: keep_steps.then(Vec::new),
        ..Counted::default()
    };
    let found = turnpike_body(&mut x, d, n, &mut c);
    Run {
        found,
        points: if found { x[1..].to_vec() } else { Vec::new() },
        place_calls: c.place_calls,
        max_depth: c.max_depth,
        backtracks: c.backtracks,
        steps: c.steps.unwrap_or_default(),
    }
}

/// The n with n(n-1)/2 = `m`, if there is one.
pub fn points_for(m: usize) -> Option<usize> {
    // n = (1 + sqrt(1 + 8m)) / 2, checked exactly around the float estimate.
    let est = ((1.0 + (1.0 + 8.0 * m as f64).sqrt()) / 2.0) as usize;
    (est.saturating_sub(2)..=est + 2).find(|&n| n >= 1 && n * (n - 1) / 2 == m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Figure 10.63.
    const WORKED: [i32; 15] = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];

    #[test]
    fn the_published_figure_one_backtrack() {
        let mut d = Multiset::from_distances(&WORKED);
        let run = reconstruct(&mut d, 6, true);
        assert!(run.found);
        assert_eq!(run.points, vec![0, 3, 5, 6, 8, 10]);
        assert_eq!(run.backtracks, 1, "the first attempt x4 = 7 fails");
        assert_eq!(run.place_calls, 5);
        assert_eq!(run.max_depth, 4);
        assert!(d.is_empty());
        use Side::*;
        assert_eq!(
            run.steps,
            vec![
                Step::Driver { xn: 10, xn1: 8 },
                Step::Placed {
                    side: Right,
                    index: 4,
                    value: 7,
                    dmax: 7
                },
                Step::Undone {
                    side: Right,
                    index: 4,
                    value: 7
                },
                Step::Placed {
                    side: Left,
                    index: 2,
                    value: 3,
                    dmax: 7
                },
                Step::Placed {
                    side: Right,
                    index: 4,
                    value: 6,
                    dmax: 6
                },
                Step::Placed {
                    side: Right,
                    index: 3,
                    value: 5,
                    dmax: 5
                },
            ]
        );
    }

    #[test]
    fn the_text_trace_operation_by_operation() {
        let mut d = Multiset::from_distances(&WORKED);
        d.start_log();
        reconstruct(&mut d, 6, false);
        let log = d.take_log();
        use Op::*;
        // Up to the backtrack: x6 = 10, x5 = 8; x4 = 7 fits; then x3 = 6 fails on 1 and
        // x2 = 4 fails on the second 4; x4 = 7 is undone.
        assert_eq!(
            &log[..29],
            &[
                (DeleteMax, 0, 10),
                (DeleteMax, 0, 8),
                (Contains, 2, 1),
                (Delete, 2, 1),
                (IsEmpty, 0, 0),
                (FindMax, 0, 7),
                (Contains, 7, 1),
                (Delete, 7, 1),
                (Contains, 1, 1),
                (Delete, 1, 1),
                (Contains, 3, 1),
                (Delete, 3, 1),
                (IsEmpty, 0, 0),
                (FindMax, 0, 6),
                (Contains, 6, 1),
                (Delete, 6, 1),
                (Contains, 1, 0),
                (Insert, 6, 0),
                (Contains, 4, 1),
                (Delete, 4, 1),
                (Contains, 3, 1),
                (Delete, 3, 1),
                (Contains, 4, 0),
                (Insert, 3, 0),
                (Insert, 4, 0),
                (Insert, 7, 0),
                (Insert, 1, 0),
                (Insert, 3, 0),
                (Contains, 3, 1),
            ][..]
        );
        assert_eq!(log.last(), Some(&(IsEmpty, 0, 1)));
    }

    #[test]
    fn no_solution_leaves_d_as_given() {
        // The worked example with one 6 changed into a 5.
        let given = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 7, 8, 10];
        let mut d = Multiset::from_distances(&given);
        let run = reconstruct(&mut d, 6, false);
        assert!(!run.found);
        assert_eq!(d.sorted(), given.to_vec());
        assert_eq!((run.place_calls, run.backtracks), (7, 6));
        // Failing in the driver: {1, 2, 4} has no 4 - 2 = 2 left.
        let mut d = Multiset::from_distances(&[1, 2, 4]);
        let run = reconstruct(&mut d, 3, false);
        assert!(!run.found);
        assert_eq!((run.place_calls, run.backtracks), (0, 0));
        assert_eq!(d.sorted(), vec![1, 2, 4]);
    }

    #[test]
    fn homometric_pair_gives_one_particular_answer() {
        let a = [0, 1, 4, 10, 12, 17];
        let b = [0, 1, 8, 11, 13, 17];
        assert_ne!(a, b);
        assert_eq!(distances(&a), distances(&b));
        let mut d = Multiset::from_distances(&distances(&a));
        let run = reconstruct(&mut d, 6, false);
        assert!(run.found);
        // The mirror image of `a` (17 - x): neither given set, but one with the same D.
        assert_eq!(run.points, vec![0, 5, 7, 13, 16, 17]);
        assert_eq!(distances(&run.points), distances(&a));
    }

    #[test]
    fn random_sets_are_reconstructed_exactly() {
        for (seed, n) in [(1u64, 3usize), (2, 4), (3, 10), (4, 50), (5, 200)] {
            let pts = random_points(seed, n);
            let mut d = Multiset::from_distances(&distances(&pts));
            let run = reconstruct(&mut d, n, false);
            assert!(run.found, "seed {seed} n {n}");
            // The answer, or its mirror image, is the set.
            let mirror: Vec<i32> = pts.iter().rev().map(|p| pts[n - 1] - p).collect();
            assert!(
                run.points == pts || run.points == mirror,
                "seed {seed} n {n}"
            );
            assert!(d.is_empty());
        }
    }

    #[test]
    fn points_for_inverts_the_triangle_numbers() {
        for n in 1..3000usize {
            assert_eq!(points_for(n * (n - 1) / 2), Some(n));
        }
        assert_eq!(points_for(16), None);
        assert_eq!(points_for(14), None);
    }
}
