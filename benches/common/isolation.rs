//! The cost of isolation, shared by `benches/sandbox.rs` and `benches/class.rs` (included
//! with `#[path]`): one sandboxed run, and one call among many sharing a sandboxed child,
//! against a plain fork + dlopen + call of the reference library's `FindGoodMove(2)`, in
//! alternating rounds.

// Each bench uses its own part of this module.
#![allow(dead_code)]

use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use labgrade::sandbox::{Artifact, RunInput, RunRequest, WorkerPool};
use labgrade::spec::Limits;

/// Runs per round, and rounds, of the plain-fork / sandbox comparison.
pub const ROUND: usize = 60;
pub const ROUNDS: usize = 7;
/// Calls per round that share sandboxed children (batches of up to 256, one worker).
pub const SHARED_CALLS: usize = 2000;

/// Milliseconds per run or call, each the median of [`ROUNDS`] alternating rounds.
pub struct Isolation {
    /// A plain fork + dlopen + call.
    pub plain_ms: f64,
    /// A run in a sandboxed child of its own.
    pub sandboxed_ms: f64,
    /// A call among many sharing a sandboxed child (`[runs] isolation = "call"`).
    pub shared_call_ms: f64,
}

/// Builds the reference cdylib (same profile as this bench) and returns its path, next to
/// `bin` (the labgrade binary).
pub fn reference_lib(bin: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-p", "labgrade-reference-cdylib", "--lib"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    assert!(cmd.status().expect("cargo").success());
    bin.parent().unwrap().join("liblabgrade_reference.so")
}

/// The median (the upper one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// One round of plain forks: each child loads the library, calls, and exits with the answer.
/// Returns milliseconds per run.
pub fn plain_fork_round(lib: &CStr) -> f64 {
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

/// Milliseconds per run, the medians of [`ROUNDS`] alternating rounds: a plain fork per call,
/// the floor any process isolation pays (no worker protocol, no limits, no uid drop, no
/// Landlock, no seccomp, no temp dir), the full sandbox (one forked child per run through
/// one worker), and calls sharing sandboxed children. Whatever else loads the machine
/// weighs on all alike.
pub fn plain_vs_sandbox(lib: &Path, worker: &Path) -> Isolation {
    let lib_c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    let req = |id, shares_child| RunRequest {
        id,
        problem: "nim".into(),
        artifact: Artifact::plain_library(lib, &["FindGoodMove"]),
        input: RunInput::Call {
            function: "FindGoodMove".into(),
            args: vec![2.into()],
        },
        limits: Limits::default(),
        shares_child,
        package: None,
    };
    let pool = WorkerPool::new(worker, 1);
    let requests: Vec<RunRequest> = (0..ROUND as u64).map(|id| req(id, false)).collect();
    let shared: Vec<RunRequest> = (0..SHARED_CALLS as u64).map(|id| req(id, true)).collect();
    pool.run_all(&requests[..10], &|_, _| {}); // warm up
    let (mut plain, mut sandboxed, mut shared_call) = (Vec::new(), Vec::new(), Vec::new());
    let timed = |requests: &[RunRequest]| {
        let t = Instant::now();
        let obs = pool.run_all(requests, &|_, _| {});
        assert!(obs.iter().all(|o| o.value == Some(1.into())));
        t.elapsed().as_secs_f64() * 1e3 / requests.len() as f64
    };
    for _ in 0..ROUNDS {
        plain.push(plain_fork_round(&lib_c));
        sandboxed.push(timed(&requests));
        shared_call.push(timed(&shared));
    }
    Isolation {
        plain_ms: median(plain),
        sandboxed_ms: median(sandboxed),
        shared_call_ms: median(shared_call),
    }
}
