//! What a package's checker costs: the sudoku example package (`docs/packages/sudoku`),
//! whose answers its C checker judges in a process of its own (one check host per case that
//! compares a return), graded beside the same package compared exactly (no `any_valid`, no
//! `checker/`), on the same class: its samples' sources, each handed in four times. The two
//! are graded in alternating rounds with `--force` (builds and the reference's expectations
//! come from the warmed cache, every case is run and judged), so whatever else loads the
//! machine weighs on both alike.
//!
//! Run with `cargo bench --bench package` (`PACKAGE_BENCH_ROUNDS=N` for another number of
//! rounds). These machines are shared and noisy: only ratios are printed.

// Only its root and rounds serve here.
#[path = "common/class_dir.rs"]
#[allow(dead_code)]
mod class_dir;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use class_dir::{root, rounds};

/// Copies `from` into `to` (files only, recursively).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The two packages under `dir`: `checked/sudoku` as shipped, `exact/sudoku` without its
/// checker.
fn packages(dir: &Path) -> (PathBuf, PathBuf) {
    let shipped = root().join("docs/packages/sudoku");
    let (checked, exact) = (dir.join("checked"), dir.join("exact"));
    copy_dir(&shipped, &checked.join("sudoku"));
    copy_dir(&shipped, &exact.join("sudoku"));
    std::fs::remove_dir_all(exact.join("sudoku/checker")).unwrap();
    let spec = exact.join("sudoku/problem.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, text.replace("any_valid = true", "")).unwrap();
    (checked, exact)
}

/// The class: each sample's sources, four times.
fn class(dir: &Path) -> usize {
    let samples = root().join("docs/packages/sudoku/samples");
    let mut n = 0;
    for e in std::fs::read_dir(&samples).unwrap().flatten() {
        for copy in 0..4 {
            let to = dir.join(format!("{}-{copy}", e.file_name().to_string_lossy()));
            std::fs::create_dir_all(&to).unwrap();
            for f in std::fs::read_dir(e.path()).unwrap().flatten() {
                if f.path().extension().is_some_and(|x| x == "c") {
                    std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
                }
            }
            n += 1;
        }
    }
    n
}

/// Seconds taken by `labgrade grade --problems <packages> sudoku <class> --force`.
fn grade(packages: &Path, class: &Path, cache: &Path) -> f64 {
    let out = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let st = Command::new(env!("CARGO_BIN_EXE_labgrade"))
        .arg("--cache-dir")
        .arg(cache)
        .args(["--color", "never", "--problems"])
        .arg(packages)
        .args(["grade", "sudoku"])
        .arg(class)
        .arg("--out")
        .arg(out.path())
        .arg("--force")
        .stdout(Stdio::null())
        .status()
        .expect("labgrade");
    assert!(matches!(st.code(), Some(0 | 1)), "labgrade grade: {st}");
    t.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let work = tempfile::tempdir().unwrap();
    let (checked, exact) = packages(work.path());
    let class_dir = work.path().join("class");
    let n = class(&class_dir);
    let cache = work.path().join("cache");
    // Warm: builds, the references' and the mistakes' runs, the checker's build.
    grade(&checked, &class_dir, &cache);
    grade(&exact, &class_dir, &cache);
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for round in 0..rounds("PACKAGE_BENCH_ROUNDS") {
        // Alternate which goes first, so that neither always meets a cooler machine.
        if round % 2 == 0 {
            with.push(grade(&checked, &class_dir, &cache));
            without.push(grade(&exact, &class_dir, &cache));
        } else {
            without.push(grade(&exact, &class_dir, &cache));
            with.push(grade(&checked, &class_dir, &cache));
        }
    }
    let (with, without) = (median(with), median(without));
    println!(
        "sudoku package, {n} submissions, {} rounds: grading with the C checker (a check host \
         per judged case) takes {:.2}x the time of exact comparison",
        rounds("PACKAGE_BENCH_ROUNDS"),
        with / without
    );
}
