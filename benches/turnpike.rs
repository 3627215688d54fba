//! The turnpike reference on seeded random point sets (the text's experiment: coordinates
//! uniform in [0, n²]), n = 100, 300 and 1,000: time to reconstruct, backtracks, and how the
//! time grows. Weiss conjectures O(n² log n) when backtracking is rare ("almost certainly, at
//! most one backtrack"): n² log n grows 11.1× from n = 100 to 300 and 13.5× from 300 to
//! 1,000. The distance set is a balanced tree of counts, so every operation on D is
//! logarithmic.
//!
//! Two rows per n: the reference on its own multiset, and on labgrade's instrumented world
//! (what grading a case costs in the child, recording every operation). Run with
//! `cargo bench --bench turnpike`. These machines are shared and noisy: read the ratios,
//! not the absolute numbers.

use std::time::Instant;

use labgrade::problems::turnpike::world::World;
use labgrade_reference::turnpike::{distances, random_points, reconstruct, DistanceSet, Multiset};

const SIZES: [usize; 3] = [100, 300, 1000];
const SEED: u64 = 6;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median seconds of `reps` reconstructions (the set is rebuilt outside the timing), with the
/// run's backtracks.
fn time<S: DistanceSet>(make: impl Fn() -> S, n: usize, reps: usize) -> (f64, u64) {
    let mut times = Vec::new();
    let mut backtracks = 0;
    for _ in 0..reps {
        let mut d = make();
        let t = Instant::now();
        let run = reconstruct(&mut d, n, false);
        times.push(t.elapsed().as_secs_f64());
        assert!(run.found, "a random set always has a solution");
        backtracks = run.backtracks;
    }
    (median(times), backtracks)
}

fn predicted(a: usize, b: usize) -> f64 {
    let f = |n: usize| (n * n) as f64 * (n as f64).log2();
    f(b) / f(a)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this once, quickly.
    let quick = !std::env::args().any(|a| a == "--bench");
    let sizes: &[usize] = if quick { &SIZES[..1] } else { &SIZES };
    println!("turnpike reference, seed {SEED}, points uniform in [0, n^2]");
    println!(
        "{:>6}  {:>9}  {:>10}  {:>12}  {:>12}",
        "n", "|D|", "backtracks", "multiset", "labgrade world"
    );
    let mut rows = Vec::new();
    for &n in sizes {
        let d = distances(&random_points(SEED, n));
        let reps = if quick { 1 } else { (2_000 / n).clamp(3, 21) };
        let (tm, bt) = time(|| Multiset::from_distances(&d), n, reps);
        let (tw, _) = time(|| World::new(&d), n, reps);
        println!(
            "{n:>6}  {:>9}  {bt:>10}  {:>9.2} ms  {:>9.2} ms",
            d.len(),
            tm * 1e3,
            tw * 1e3
        );
        rows.push((n, tm, tw));
    }
    for w in rows.windows(2) {
        let ((a, ta, wa), (b, tb, wb)) = (w[0], w[1]);
        println!(
            "growth n = {a} -> {b}: multiset {:.1}x, world {:.1}x (n^2 log n predicts {:.1}x)",
            tb / ta,
            wb / wa,
            predicted(a, b)
        );
    }
    if let Some(&(n, tm, _)) = rows.last() {
        assert!(
            quick || tm < 1.0,
            "the reference must reconstruct n = {n} in well under a second ({tm:.3} s)"
        );
    }
}
