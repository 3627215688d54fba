//! labgrade beside the grader instructors write: a pytest + ctypes harness
//! (`benches/harness/`) that builds each submission into a shared library and calls each case
//! in a forked child with a 2 s timeout. Both grade the same class (the nim samples of
//! `tests/submissions/nim/`, sources only, less the Rust crates the harness cannot build) in
//! alternating rounds, so whatever else loads the machine weighs on both alike. In the same
//! run: labgrade against the compiler alone on the same sources, a sandboxed run against a
//! plain fork + dlopen + call, and the two graders' grades side by side.
//!
//! Run with `cargo bench --bench class` (`CLASS_BENCH_ROUNDS=N` for another number of rounds).
//! These machines are shared and noisy: only ratios are printed.

#[path = "common/class_dir.rs"]
mod class_dir;
#[path = "common/isolation.rs"]
mod isolation;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use class_dir::{grade_class, jobs, make_class, root, rounds};
use isolation::{median, plain_vs_sandbox, reference_lib};

/// The spec's recipes (specs/nim.toml), which labgrade and the compiler-alone run both use.
const C_FLAGS: &[&str] = &["-std=c11", "-Wall", "-O2"];
const CPP_FLAGS: &[&str] = &["-std=c++11", "-Wall", "-O2"];
/// Empty hooks for `-finstrument-functions`, so that a program links.
const HOOKS_C: &str = "void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n\
                       void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n";

/// Seconds taken by `labgrade grade nim <class>` with this cache (see [`grade_class`]).
fn run_labgrade(class: &Path, cache: &Path, force: bool) -> f64 {
    let out = tempfile::tempdir().unwrap();
    let t = Instant::now();
    grade_class(class, cache, out.path(), force, None);
    t.elapsed().as_secs_f64()
}

/// `python3 -m pytest` can run, installing pytest with pip if it is missing.
fn pytest_available() -> bool {
    let has = || {
        Command::new("python3")
            .args(["-c", "import pytest, tomllib"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has() {
        return true;
    }
    eprintln!("pytest is not installed: python3 -m pip install --quiet pytest");
    let _ = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "pytest"])
        .status();
    has()
}

/// Seconds taken by the pytest harness on the class, and its summary (passed and failed tests
/// per submission).
fn run_harness(class: &Path) -> (f64, BTreeMap<String, (u64, u64)>) {
    let build = tempfile::tempdir().unwrap();
    let summary = build.path().join("summary.json");
    let t = Instant::now();
    let st = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root().join("benches/harness"))
        .arg("--class-dir")
        .arg(class)
        .arg("--labgrade-root")
        .arg(root())
        .arg("--build-dir")
        .arg(build.path())
        .arg("--summary")
        .arg(&summary)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(build.path())
        .stdin(Stdio::null())
        .output()
        .expect("python3");
    let s = t.elapsed().as_secs_f64();
    // pytest: 0 all passed, 1 some failed; anything else is the harness's own failure. (Its
    // stderr holds the faulthandler's traces of children that crash on purpose: shown only
    // then.)
    assert!(
        matches!(st.status.code(), Some(0 | 1)),
        "pytest: {}\n{}{}",
        st.status,
        String::from_utf8_lossy(&st.stdout),
        String::from_utf8_lossy(&st.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let per = v
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, o)| {
            let n = |f: &str| o[f].as_u64().unwrap_or(0);
            (k.clone(), (n("passed"), n("failed")))
        })
        .collect();
    (s, per)
}

/// Seconds the compiler alone takes on the class, as labgrade builds each submission: every
/// source compiled once, with `-finstrument-functions` (labgrade's counting build, whose
/// objects serve the library and the program alike), linked into a library and a program;
/// submissions in parallel, `jobs()` at a time. (labgrade's jail, staging, cache, its own C
/// helpers, driver and objcopy are not in it.)
fn run_compiler_alone(class: &Path, names: &[String]) -> f64 {
    let work = tempfile::tempdir().unwrap();
    let next = Mutex::new(names.iter());
    let inc = [root().join("specs/nim"), root().join("specs/lib")];
    // The hooks -finstrument-functions calls, which labgrade links in from its own helpers
    // (built once per cache): here empty ones, built once before the clock starts.
    let hooks = work.path().join("hooks.o");
    let hooks_c = work.path().join("hooks.c");
    std::fs::write(&hooks_c, HOOKS_C).unwrap();
    assert!(Command::new("gcc")
        .args(["-O2", "-fPIC", "-c"])
        .arg(&hooks_c)
        .arg("-o")
        .arg(&hooks)
        .status()
        .unwrap()
        .success());
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs() {
            s.spawn(|| loop {
                let Some(name) = next.lock().unwrap().next() else {
                    return;
                };
                let src = class.join(name);
                let out = work.path().join(name);
                std::fs::create_dir_all(&out).unwrap();
                let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x != "h" && x != "hpp"))
                    .collect();
                sources.sort();
                let cpp = sources
                    .iter()
                    .any(|p| p.extension().is_some_and(|x| x != "c"));
                let compiler = if cpp { "g++" } else { "gcc" };
                let mut objs = Vec::new();
                for (i, f) in sources.iter().enumerate() {
                    let (cc, flags) = match f.extension().is_some_and(|x| x == "c") {
                        true => ("gcc", C_FLAGS),
                        false => ("g++", CPP_FLAGS),
                    };
                    let obj = out.join(format!("{i}.o"));
                    let ok = Command::new(cc)
                        .args(flags)
                        .args(["-fPIC", "-c", "-finstrument-functions"])
                        .args(inc.iter().flat_map(|d| [Path::new("-I"), d]))
                        .arg("-I")
                        .arg(&src)
                        .arg(f)
                        .arg("-o")
                        .arg(&obj)
                        .stderr(Stdio::null())
                        .status()
                        .unwrap()
                        .success();
                    if ok {
                        objs.push(obj);
                    }
                }
                if objs.len() < sources.len() {
                    continue; // does not compile: nothing to link
                }
                for (target, shared) in [("lib.so", true), ("program", false)] {
                    let mut cmd = Command::new(compiler);
                    if shared {
                        cmd.arg("-shared");
                    }
                    let _ = cmd
                        .args(&objs)
                        .arg(&hooks)
                        .arg("-lm")
                        .arg("-o")
                        .arg(out.join(target))
                        .stderr(Stdio::null())
                        .status();
                }
            });
        }
    });
    t.elapsed().as_secs_f64()
}

/// labgrade's verdicts from one graded run: per submission, its failing cases (not-observable
/// ones aside, as in grades.csv), and the submissions that timed out somewhere.
fn labgrade_grades(class: &Path) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
    let out = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    grade_class(class, cache.path(), out.path(), false, None);
    let (mut failing, mut hangs) = (BTreeMap::new(), Vec::new());
    for e in std::fs::read_dir(out.path()).unwrap().flatten() {
        if e.path().extension().is_none_or(|x| x != "json") {
            continue;
        }
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
        let cases = r["cases"].as_array().unwrap();
        let name = r["submission"].as_str().unwrap().to_string();
        if cases.iter().any(|c| c["verdict"] == "timeout") {
            hangs.push(name.clone());
        }
        let bad = cases
            .iter()
            .filter(|c| c["passed"] == false && c["verdict"] != "not-observable")
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect();
        failing.insert(name, bad);
    }
    hangs.sort();
    (failing, hangs)
}

/// `FindGoodMove/4/calls` -> `calls`; `game/ones` -> `game`; `build/no-warnings` -> `build`.
fn kind(case: &str) -> &str {
    match case.split('/').next() {
        Some(k @ ("game" | "build" | "robustness")) => k,
        _ => case.rsplit('/').next().unwrap_or(case),
    }
}

fn main() {
    let rounds = rounds("CLASS_BENCH_ROUNDS");
    let class_dir = tempfile::tempdir().unwrap();
    let class = class_dir.path().join("class");
    let names = make_class(&class);
    let harness = pytest_available();
    if !harness {
        println!(
            "pytest is missing and `python3 -m pip install --quiet pytest` failed: the \
             harness side is skipped (labgrade, the compiler alone and the sandbox still run)"
        );
    }

    // The grades first (one cold labgrade run, one harness run): which submissions each
    // grader finds fully correct, and where they disagree.
    let (lg, hangs) = labgrade_grades(&class);
    println!(
        "class: {} nim submissions (tests/submissions/nim, C and C++ sources; the Rust crates \
         left out), {} of which hang{}: {}",
        names.len(),
        hangs.len(),
        if hangs.len() == 1 { "s" } else { "" },
        hangs.join(", ")
    );
    let lg_ok = lg.values().filter(|f| f.is_empty()).count();
    println!(
        "grades: labgrade passes {lg_ok} of {} submissions on every case",
        names.len()
    );
    if harness {
        let (_, per) = run_harness(&class);
        let h_ok = per.values().filter(|(_, f)| *f == 0).count();
        let tests: u64 = per.values().map(|(p, f)| p + f).max().unwrap_or(0);
        println!(
            "grades: the harness passes {h_ok} of {} on every test ({tests} returns each, no \
             call counts, depths or games); they disagree on:",
            names.len()
        );
        for name in &names {
            let (p, f) = per.get(name).copied().unwrap_or((0, 0));
            let bad = &lg[name];
            if (f == 0) == bad.is_empty() {
                continue;
            }
            let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
            for c in bad {
                *by_kind.entry(kind(c)).or_default() += 1;
            }
            let what: Vec<String> = by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
            println!(
                "  {name:<22} harness {p}/{} pass; labgrade {}",
                p + f,
                if bad.is_empty() {
                    "passes every case".to_string()
                } else {
                    format!("fails {} case(s): {}", bad.len(), what.join(", "))
                }
            );
        }
    }

    // Timing, in alternating rounds: labgrade cold (empty cache), labgrade warm (builds
    // cached, every submission graded: --force), labgrade regrading the unchanged class (its
    // results reused), the harness (it has no cache: it compiles every time), the compiler
    // alone. Odd rounds run them in reverse order.
    let warm = tempfile::tempdir().unwrap();
    run_labgrade(&class, warm.path(), false); // fill the warm cache
    let (mut cold_r, mut warm_r, mut regrade_r, mut cc_r, mut cc_warm_r) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let mut steps: Vec<u8> = if harness {
            vec![0, 1, 4, 2, 3]
        } else {
            vec![0, 1, 4, 3]
        };
        if r % 2 == 1 {
            steps.reverse();
        }
        let (mut cold, mut warm_s, mut regrade, mut h, mut cc) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for step in steps {
            match step {
                0 => {
                    let cache = tempfile::tempdir().unwrap();
                    cold = run_labgrade(&class, cache.path(), false);
                }
                1 => warm_s = run_labgrade(&class, warm.path(), true),
                4 => regrade = run_labgrade(&class, warm.path(), false),
                2 => h = run_harness(&class).0,
                _ => cc = run_compiler_alone(&class, &names),
            }
        }
        if harness {
            cold_r.push(h / cold);
            warm_r.push(h / warm_s);
            regrade_r.push(h / regrade);
        }
        cc_r.push(cold / cc);
        cc_warm_r.push(warm_s / cc);
        eprintln!("round {} of {rounds} done", r + 1);
    }
    let of = format!(
        "median of {rounds} round{}",
        if rounds == 1 { "" } else { "s" }
    );
    if harness {
        for (cache, r) in [
            ("cold build cache", median(cold_r)),
            ("warm build cache, every submission graded", median(warm_r)),
            (
                "unchanged class regraded, results reused",
                median(regrade_r),
            ),
        ] {
            let which = if r >= 1.0 {
                format!("the harness {r:.1}x slower")
            } else {
                format!("labgrade {:.1}x slower", 1.0 / r)
            };
            println!(
                "class ({cache}): labgrade 1.00, pytest+ctypes harness {r:.2} \
                 ({which}; {of})"
            );
        }
    }
    println!(
        "labgrade (cold) / compiler alone = {:.2}x ({of}; gcc/g++ -finstrument-functions, \
         one compile per source and two links per submission, {} jobs as labgrade)",
        median(cc_r),
        jobs()
    );
    println!(
        "labgrade (warm, every submission graded) / compiler alone = {:.2}x ({of})",
        median(cc_warm_r)
    );

    // The sandbox: one run through labgrade's worker, and one call among many sharing a
    // child, against a plain fork + dlopen + call.
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_labgrade"));
    let lib = reference_lib(&bin);
    let worker = PathBuf::from(env!("CARGO_BIN_EXE_labgrade-worker"));
    let iso = plain_vs_sandbox(&lib, &worker);
    println!(
        "sandbox: one sandboxed run / plain fork+dlopen+call = {:.2}x (median of {} rounds)",
        iso.sandboxed_ms / iso.plain_ms,
        isolation::ROUNDS
    );
    println!(
        "sandbox: one call sharing a sandboxed child / plain fork+dlopen+call = {:.3}x \
         (median of {} rounds of {} calls)",
        iso.shared_call_ms / iso.plain_ms,
        isolation::ROUNDS,
        isolation::SHARED_CALLS
    );
}
