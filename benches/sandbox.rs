//! Cost of isolation: one sandboxed run against an in-process call, and the time to grade the
//! sample class. Run with `cargo bench --bench sandbox`. These machines are shared and noisy:
//! read the ratios, not the absolute numbers.

#[path = "common/isolation.rs"]
mod isolation;

use std::path::PathBuf;
use std::time::Instant;

use isolation::{plain_vs_sandbox, reference_lib};
use labgrade::runner::{CaseFilter, Session, SessionOptions};
use labgrade::spec::Root;
use labgrade::submission::BuildCache;

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_labgrade"));
    let lib = reference_lib(&bin);

    // 1. A plain fork per call, the floor any process isolation pays, against 2. the full
    // sandbox, in alternating rounds (benches/common/isolation.rs). First, while this
    // process has not loaded the library itself: a child forked from a process that has
    // finds it loaded and relocated already, and would measure no dlopen at all.
    let worker = PathBuf::from(env!("CARGO_BIN_EXE_labgrade-worker"));
    let iso = plain_vs_sandbox(&lib, &worker);
    let (plain_ms, sandbox_ms) = (iso.plain_ms, iso.sandboxed_ms);

    // 3. In-process: dlopen once, call FindGoodMove(2) many times.
    // SAFETY: our own reference library.
    let l = unsafe { libloading::Library::new(&lib) }.expect("load reference");
    // SAFETY: the reference exports `int FindGoodMove(int)`.
    let f = unsafe { l.get::<unsafe extern "C" fn(i32) -> i32>(b"FindGoodMove") }.unwrap();
    let n = 200_000;
    let t = Instant::now();
    let mut acc = 0;
    for _ in 0..n {
        // SAFETY: as above.
        acc += unsafe { f(std::hint::black_box(2)) };
    }
    let in_process_us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    assert_eq!(acc, n);

    println!("in-process call         {in_process_us:10.3} us");
    println!("plain fork+dlopen+call  {plain_ms:10.3} ms");
    println!(
        "sandboxed run (1 slot)  {sandbox_ms:10.3} ms  ({:.2}x the plain fork, +{:.3} ms per run)",
        sandbox_ms / plain_ms,
        sandbox_ms - plain_ms
    );
    println!(
        "call sharing a child    {:10.3} us  ({:.3}x the plain fork; {} calls in batches)",
        iso.shared_call_ms * 1e3,
        iso.shared_call_ms / plain_ms,
        isolation::SHARED_CALLS
    );

    // 4. The sample class: build (cold cache) and grading, separately.
    labgrade::problems::install(labgrade::problems::catalogue());
    let root = Root::discover(None, &std::env::temp_dir()).expect("root");
    let cache_dir = tempfile::tempdir().unwrap();
    let options = SessionOptions {
        worker_exe: worker.clone(),
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        cache: BuildCache::new(cache_dir.path()),
        course: None,
    };
    let session = Session::open(&root, "nim", options).expect("nim");
    let mut subs: Vec<(String, PathBuf)> = std::fs::read_dir(root.samples_dir("nim"))
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    subs.sort();
    let t = Instant::now();
    let prepared: Vec<_> = subs
        .iter()
        .map(|(n, p)| session.prepare(n, p, false))
        .collect();
    let build_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let reports = session.grade_prepared(&prepared, CaseFilter::All, &|_| {});
    let grade_s = t.elapsed().as_secs_f64();
    let cases: usize = reports.iter().map(|r| r.cases.len()).sum();
    let timeouts: usize = reports
        .iter()
        .flat_map(|r| &r.cases)
        .filter(|c| c.verdict == labgrade::report::Verdict::Timeout)
        .count();
    println!(
        "sample class: {} submissions, {cases} cases ({timeouts} timeouts)",
        subs.len()
    );
    println!("  build (cold cache, sequential)  {build_s:8.2} s");
    println!(
        "  grading ({} slots)              {grade_s:8.2} s",
        session_slots()
    );
}

fn session_slots() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}
