//! The maze reference on seeded perfect mazes of 50 x 50, 100 x 100 and 200 x 200: time to
//! solve and count (Figure 7-3, every call recorded), and how it grows. In a perfect maze each
//! square is entered at most once from each open side, so the work is linear in the number of
//! SolveMaze calls, which depends on where the exit is (the search stops there), not only on
//! the size: the cost per call should stay flat, and the generator (which carves every square)
//! should grow 4x from one size to the next.
//!
//! Three rows per size: the reference on a plain marked maze, on labgrade's instrumented
//! world (what grading a case costs in the child: every mazelib call recorded, the squares
//! explored kept in order), and the generator. Run with `cargo bench --bench maze`. These
//! machines are shared and noisy: read the ratios, not the absolute numbers.

use std::time::Instant;

use labgrade::problems::maze::world::World;
use labgrade_reference::maze::generate::{generate, Params};
use labgrade_reference::maze::{solve, with_stack, Marked, MazeLib, Variant};

const SIZES: [usize; 3] = [50, 100, 200];
const SEED: u64 = 42;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median seconds of `reps` solves (the library is rebuilt outside the timing), with the
/// run's calls.
fn time<L: MazeLib>(
    make: impl Fn() -> L,
    start: labgrade_reference::maze::Point,
    reps: usize,
) -> (f64, u64) {
    let mut times = Vec::new();
    let mut calls = 0;
    for _ in 0..reps {
        let mut lib = make();
        let t = Instant::now();
        let (ok, run) = solve(&mut lib, start, Variant::Unmark, 50_000);
        times.push(t.elapsed().as_secs_f64());
        assert!(ok, "a perfect maze with an exit is solvable");
        calls = run.calls;
    }
    (median(times), calls)
}

fn bench(quick: bool) {
    let sizes: &[usize] = if quick { &SIZES[..1] } else { &SIZES };
    println!("maze reference, seed {SEED}, perfect mazes, Figure 7-3");
    println!(
        "{:>9}  {:>8}  {:>6}  {:>12}  {:>14}  {:>10}",
        "size", "calls", "depth", "plain", "labgrade world", "generate"
    );
    let mut rows = Vec::new();
    for &n in sizes {
        let p = Params::perfect(SEED, n, n);
        let reps = if quick { 1 } else { 9 };
        let mut gen = Vec::new();
        for _ in 0..reps {
            let t = Instant::now();
            let m = generate(&p);
            gen.push(t.elapsed().as_secs_f64());
            std::hint::black_box(m);
        }
        let maze = generate(&p);
        let start = maze.start();
        let (tp, calls) = time(|| Marked::new(maze.clone()), start, reps);
        let (tw, _) = time(|| World::new(maze.clone()), start, reps);
        let depth = {
            let mut lib = Marked::new(maze.clone());
            solve(&mut lib, start, Variant::Unmark, 0).1.max_depth
        };
        let tg = median(gen);
        println!(
            "{:>9}  {calls:>8}  {depth:>6}  {:>9.3} ms  {:>11.3} ms  {:>7.3} ms",
            format!("{n}x{n}"),
            tp * 1e3,
            tw * 1e3,
            tg * 1e3
        );
        rows.push((n, tp / calls as f64, tw / calls as f64, tg));
    }
    for w in rows.windows(2) {
        let ((a, pa, wa, ga), (b, pb, wb, gb)) = (w[0], w[1]);
        println!(
            "growth {a} -> {b}: per call, plain {:.1}x and world {:.1}x (flat predicts 1.0x); generate {:.1}x (linear predicts {:.1}x)",
            pb / pa,
            wb / wa,
            gb / ga,
            (b * b) as f64 / (a * a) as f64
        );
    }
    if let Some(&(n, tp, tw, _)) = rows.last() {
        println!(
            "{n}x{n}: the instrumented world costs {:.1}x the plain maze per call ({:.0} ns a call)",
            tw / tp,
            tw * 1e9
        );
        // Milliseconds for a whole 200 x 200 maze: well under 2 us a call optimised; the quick
        // run of `cargo test --benches` is unoptimised, so it only checks the order of magnitude.
        let limit = if quick { 50e-6 } else { 2e-6 };
        assert!(
            tw < limit,
            "a counted SolveMaze call on a {n} x {n} maze should take under {:.0} ns, took {:.0} ns",
            limit * 1e9,
            tw * 1e9
        );
    }
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this once, quickly. The
    // recursion is as deep as the path: run it on a large stack.
    let quick = !std::env::args().any(|a| a == "--bench");
    with_stack(512, move || bench(quick));
}
