//! How class grading scales with parallel slots: the same class (every nim sample with C or
//! C++ sources) graded at `-j 1`, 2, 4 and the machine's core count (labgrade's default),
//! cold (an empty build cache: builds and runs) and warm (builds cached, every submission
//! graded again: runs only), each as a speed-up over `-j 1`. Slots above the core count are
//! measured too (2x the cores), where the speed-up should hold, not fall.
//!
//! Each grading is also checked against the `-j 1` grading's grades.csv: a speed-up of a
//! grading that changed a grade would measure nothing.
//!
//! Run with `cargo bench --bench scaling` (`SCALING_BENCH_ROUNDS=N` for another number of
//! rounds; the median is printed). These machines are shared and noisy: only ratios.

#[path = "common/class_dir.rs"]
mod class_dir;
#[path = "common/isolation.rs"]
mod isolation;

use std::path::Path;
use std::time::Instant;

use class_dir::{grade_class, jobs, make_class, rounds};
use isolation::median;

/// grades.csv less nothing: it holds no times.
fn grades(out: &Path) -> String {
    std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv")
}

/// Seconds of one grading at `-j j`, cold (a new cache) or warm (`warm`, every submission
/// graded again), and its grades.csv.
fn timed(class: &Path, j: usize, warm: Option<&Path>) -> (f64, String) {
    let out = tempfile::tempdir().unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let cache = warm.unwrap_or(fresh.path());
    let t = Instant::now();
    grade_class(class, cache, out.path(), warm.is_some(), Some(j));
    (t.elapsed().as_secs_f64(), grades(out.path()))
}

fn main() {
    let rounds = rounds("SCALING_BENCH_ROUNDS");
    let class_dir = tempfile::tempdir().unwrap();
    let class = class_dir.path().join("class");
    let names = make_class(&class);
    let cores = jobs();
    let mut slots = vec![1, 2, 4, cores, 2 * cores];
    slots.sort_unstable();
    slots.dedup();
    let warm = tempfile::tempdir().unwrap();
    let (_, reference) = timed(&class, 1, None);
    timed(&class, cores, Some(warm.path())); // fill the warm cache
    println!(
        "class: {} nim submissions; {cores} core(s) (labgrade's default -j); median of \
         {rounds} round(s), each slot count in turn",
        names.len()
    );
    let mut cold: Vec<Vec<f64>> = vec![Vec::new(); slots.len()];
    let mut hot: Vec<Vec<f64>> = vec![Vec::new(); slots.len()];
    for r in 0..rounds {
        for (i, &j) in slots.iter().enumerate() {
            let (c, g) = timed(&class, j, None);
            assert_eq!(g, reference, "-j {j} cold graded differently from -j 1");
            let (w, g) = timed(&class, j, Some(warm.path()));
            assert_eq!(g, reference, "-j {j} warm graded differently from -j 1");
            cold[i].push(c);
            hot[i].push(w);
        }
        eprintln!("round {} of {rounds} done", r + 1);
    }
    let (cold1, hot1) = (median(cold[0].clone()), median(hot[0].clone()));
    println!(
        "{:>6}  {:>22}  {:>22}",
        "-j", "cold: speed-up on -j 1", "warm: speed-up on -j 1"
    );
    for (i, &j) in slots.iter().enumerate() {
        let note = if j == cores {
            " (default)"
        } else if j > cores {
            " (above the cores)"
        } else {
            ""
        };
        println!(
            "{:>6}  {:>21.2}x  {:>21.2}x{note}",
            j,
            cold1 / median(cold[i].clone()),
            hot1 / median(hot[i].clone()),
        );
    }
    println!("every grading's grades.csv matched the -j 1 grading's");
}
