//! Cost of isolation: one sandboxed run against an in-process call, and the time to grade the
//! sample class. Run with `cargo bench --bench sandbox`. These machines are shared and noisy:
//! read the ratios, not the absolute numbers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use labgrade::runner::{CaseFilter, Session, SessionOptions};
use labgrade::sandbox::{Artifact, ArtifactKind, RunInput, RunRequest, WorkerPool};
use labgrade::spec::{Limits, Root};
use labgrade::submission::BuildCache;

fn reference_lib(bin: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-p", "labgrade-reference-cdylib", "--lib"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    assert!(cmd.status().expect("cargo").success());
    bin.parent().unwrap().join("liblabgrade_reference.so")
}

/// Runs per round, and rounds, of the plain-fork / sandbox comparison.
const ROUND: usize = 60;
const ROUNDS: usize = 7;

/// One round of plain forks: each child loads the library, calls, and exits with the answer.
/// Returns milliseconds per run.
fn plain_fork_round(lib: &std::ffi::CStr) -> f64 {
    let t = Instant::now();
    for _ in 0..ROUND {
        // SAFETY: the bench is single-threaded here; the child only loads, calls and exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                let h = libc::dlopen(lib.as_ptr(), libc::RTLD_NOW);
                let f = libc::dlsym(h, c"FindGoodMove".as_ptr());
                let f: unsafe extern "C" fn(i32) -> i32 = std::mem::transmute(f);
                libc::_exit(f(2));
            }
            let mut st = 0;
            libc::waitpid(pid, &mut st, 0);
            assert_eq!(libc::WEXITSTATUS(st), 1);
        }
    }
    t.elapsed().as_secs_f64() * 1e3 / ROUND as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_labgrade"));
    let lib = reference_lib(&bin);

    // 1. In-process: dlopen once, call FindGoodMove(2) many times.
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

    // 2. A plain fork per call, the floor any process isolation pays (no worker protocol, no
    // limits, no uid drop, no Landlock, no seccomp, no temp dir), against 3. the full sandbox:
    // one forked child per run through one worker. Measured in alternating rounds, so that
    // whatever else loads the machine weighs on both alike; the medians are compared.
    let lib_c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    let req = |id| RunRequest {
        id,
        problem: "nim".into(),
        artifact: Artifact {
            path: lib.clone(),
            kind: ArtifactKind::Library,
            symbols: [("FindGoodMove".to_string(), "FindGoodMove".to_string())].into(),
            counted: Vec::new(),
            instrumented: false,
            marks_stack_overflow: false,
            sanitized: false,
        },
        input: RunInput::Call {
            function: "FindGoodMove".into(),
            args: vec![2.into()],
        },
        limits: Limits::default(),
    };
    let worker = PathBuf::from(env!("CARGO_BIN_EXE_labgrade-worker"));
    let pool = WorkerPool::new(&worker, 1);
    let requests: Vec<RunRequest> = (0..ROUND as u64).map(req).collect();
    pool.run_all(&requests[..10], &|_, _| {}); // warm up
    let (mut plain, mut sandboxed) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        plain.push(plain_fork_round(&lib_c));
        let t = Instant::now();
        let obs = pool.run_all(&requests, &|_, _| {});
        sandboxed.push(t.elapsed().as_secs_f64() * 1e3 / ROUND as f64);
        assert!(obs.iter().all(|o| o.value == Some(1.into())));
    }
    let (plain_ms, sandbox_ms) = (median(plain), median(sandboxed));
    println!("in-process call         {in_process_us:10.3} us");
    println!("plain fork+dlopen+call  {plain_ms:10.3} ms");
    println!(
        "sandboxed run (1 slot)  {sandbox_ms:10.3} ms  ({:.2}x the plain fork, +{:.3} ms per run)",
        sandbox_ms / plain_ms,
        sandbox_ms - plain_ms
    );

    // 4. The sample class: build (cold cache) and grading, separately.
    let root = Root::discover(None).expect("root");
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
        "sample class: {} submissions, {cases} cases ({timeouts} timeouts at 1 s CPU each)",
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
