//! The smallest fix measured: `labgrade check --fix-hint change` on every sample under
//! `tests/submissions/` whose `expect.toml` states the one-edit mistake it was made with
//! (`[fix]`: its file and line), and on the correct samples named below, which must get no
//! hint. Prints the share of hints whose location is the mistake's line, the share that
//! propose an edit after which every visible case passes, and the time per hint (median and
//! slowest, in ratios to the check alone: these machines are shared and noisy) with the CPU
//! seconds the search spent, against the budget.
//!
//! Run with `cargo bench --bench fix_hint` (`FIX_HINT_JOBS=N` for another `-j`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use labgrade::selftest::expect::SampleExpect;

/// Correct samples: a hint for any of them would be a defect.
const CORRECT: &[(&str, &str)] = &[
    ("nim", "book-cpp"),
    ("maze", "book"),
    ("queens", "handout-c"),
    ("permutations", "handout-c"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The CPU seconds of this process's ended children (labgrade and all it started).
fn children_cpu() -> f64 {
    labgrade::fix::children_cpu().as_secs_f64()
}

/// What `labgrade check` printed with `args`, how long it took and the CPU it used.
fn check(problem: &str, dir: &Path, extra: &[&str]) -> (String, f64, f64) {
    let jobs = std::env::var("FIX_HINT_JOBS").unwrap_or_else(|_| "2".into());
    let (t, cpu) = (Instant::now(), children_cpu());
    let out = Command::new(env!("CARGO_BIN_EXE_labgrade"))
        .current_dir(root())
        .args(["check", problem])
        .arg(dir)
        .args(["-j", &jobs])
        .args(extra)
        .output()
        .expect("labgrade runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        t.elapsed().as_secs_f64(),
        children_cpu() - cpu,
    )
}

/// The hint's `file:line`, and whether it found an edit.
fn hint_of(text: &str) -> (Option<String>, bool) {
    let Some(line) = text.lines().find(|l| l.starts_with("fix hint:")) else {
        return (None, false);
    };
    let found = line.contains("makes all");
    let at = line
        .split(", ")
        .find(|part| {
            part.contains(':')
                && part
                    .rsplit(':')
                    .next()
                    .is_some_and(|n| n.parse::<usize>().is_ok())
        })
        .map(str::to_string);
    (at, found)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let mut samples = Vec::new();
    for problem in std::fs::read_dir(root().join("tests/submissions"))
        .unwrap()
        .flatten()
    {
        for sample in std::fs::read_dir(problem.path()).unwrap().flatten() {
            let Ok(e) = SampleExpect::load(&sample.path().join("expect.toml")) else {
                continue;
            };
            if let Some(fix) = e.fix {
                let p = problem.file_name().to_string_lossy().into_owned();
                samples.push((p, sample.path(), fix));
            }
        }
    }
    samples.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let (mut located, mut found, mut ratios, mut cpus) = (0, 0, Vec::new(), Vec::new());
    let problems: std::collections::BTreeSet<&str> = samples.iter().map(|s| s.0.as_str()).collect();
    println!(
        "{} samples with a known one-edit mistake, over {} problems",
        samples.len(),
        problems.len()
    );
    for (problem, dir, fix) in &samples {
        let (_, alone, cpu_alone) = check(problem, dir, &[]);
        let (text, with, cpu_with) = check(problem, dir, &["--fix-hint", "change"]);
        cpus.push((cpu_with - cpu_alone).max(0.0));
        let (at, ok) = hint_of(&text);
        let here = at.as_deref() == Some(&format!("{}:{}", fix.file, fix.line));
        located += usize::from(here);
        found += usize::from(ok);
        ratios.push((with - alone).max(0.0) / alone.max(1e-3));
        println!(
            "  {:<22} {:<34} {:<9} {:<8} ({})",
            problem,
            dir.file_name().unwrap().to_string_lossy(),
            if here { "located" } else { "elsewhere" },
            if ok { "fixed" } else { "no edit" },
            fix.mistake
        );
    }
    let n = samples.len().max(1) as f64;
    println!(
        "hint at the mistake's line: {located}/{} ({:.0}%); an edit passing every visible case: \
         {found}/{} ({:.0}%)",
        samples.len(),
        100.0 * located as f64 / n,
        samples.len(),
        100.0 * found as f64 / n
    );
    println!(
        "time per hint, as a multiple of the check alone: median {:.1}x, slowest {:.1}x",
        median(ratios.clone()),
        ratios.iter().copied().fold(0.0, f64::max)
    );
    println!(
        "CPU per hint (the search alone, every process it started): median {:.1} s, slowest \
         {:.1} s (the budget: {})",
        median(cpus.clone()),
        cpus.iter().copied().fold(0.0, f64::max),
        labgrade::fix::Budget::default().said()
    );
    for (problem, name) in CORRECT {
        let (text, _, _) = check(
            problem,
            &root().join("tests/submissions").join(problem).join(name),
            &["--fix-hint"],
        );
        let (_, ok) = hint_of(&text);
        assert!(!ok, "{problem}/{name} is correct but got a hint:\n{text}");
    }
    println!("correct samples given no hint: {}", CORRECT.len());
}
