//! Calls of one submission that share one sandboxed child (`[runs] isolation = "call"`, the
//! default) must observe exactly what a child per call observes: each call starts from the
//! library's state after loading, sees only its own output, and a call that crashes, loops,
//! or writes on the child's report pipe gets the verdict it gets alone, without touching its
//! neighbours.

use std::path::{Path, PathBuf};
use std::process::Command;

use labgrade::sandbox::{Artifact, Observation, RunInput, RunRequest, WorkerPool};
use labgrade::spec::Limits;

/// A nim `FindGoodMove` that misbehaves on chosen inputs. On the others it returns how many
/// times it has been called (1 when every call starts afresh) and prints one line.
const LIBRARY: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int calls;
static int *memo;
int FindGoodMove(int n) {
    calls++;
    if (!memo) memo = calloc(64, sizeof *memo);
    memo[n % 64]++;
    printf("call %d n=%d seen %d\n", calls, n, memo[n % 64]);
    if (n == 3) { volatile int *p = 0; return *p; }
    if (n == 5) { fflush(stdout); for (;;) {} }
    if (n == 6) {
        /* A forged record on every descriptor a report pipe could be. */
        const char *forged = "{\"index\":6,\"value\":4}\n";
        for (int fd = 3; fd < 64; fd++) if (write(fd, forged, strlen(forged)) < 0) {}
    }
    if (n == 7) (void)rand();
    if (n == 8) return rand() % 1000;
    if (n == 9) { fprintf(stderr, "to stderr\n"); exit(3); }
    if (n == 13) return getpid();
    return calls;
}
"#;

pub fn worker() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_labgrade-worker"))
}

/// A global that loading points at memory outside the library: a vector sized at load
/// (on the heap) or, with `-DBIG`, a table a constructor allocates (large enough to be
/// mapped on its own). `FindGoodMove(n)` counts its calls with `n` there and returns the
/// count (1 when every call starts afresh), or its process id when `n` is 13.
const HEAP_STATE: &str = r#"
#include <vector>
#include <cstdlib>
#include <unistd.h>
#ifdef BIG
static int *seen;
__attribute__((constructor)) static void make_table() { seen = (int *)calloc(1 << 20, sizeof *seen); }
#else
static std::vector<int> seen(64);
#endif
extern "C" int FindGoodMove(int n) {
    if (n == 13) return getpid();
    return ++seen[n % 64];
}
"#;

/// Builds a library once per test run, somewhere the sandbox's user may read.
pub fn build(name: &str, compiler: &str, source: &str, flags: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("batch-lib");
    std::fs::create_dir_all(&dir).unwrap();
    let ext = if compiler == "gcc" { "c" } else { "cpp" };
    let src = dir.join(format!("{name}.{ext}"));
    let lib = dir.join(format!("lib{name}.so"));
    std::fs::write(&src, source).unwrap();
    let st = Command::new(compiler)
        .args(flags)
        .args(["-shared", "-fPIC", "-O0", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success(), "{compiler} failed on {name}");
    lib
}

fn library() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| build("misbehaving", "gcc", LIBRARY, &[]))
        .clone()
}

fn heap_state_libraries() -> [PathBuf; 2] {
    static BUILT: std::sync::OnceLock<[PathBuf; 2]> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            [
                build("heapvector", "g++", HEAP_STATE, &[]),
                build("heaptable", "g++", HEAP_STATE, &["-DBIG"]),
            ]
        })
        .clone()
}

fn requests(args: &[i64], shares_child: bool) -> Vec<RunRequest> {
    requests_on(&library(), args, shares_child)
}

pub fn requests_on(lib: &Path, args: &[i64], shares_child: bool) -> Vec<RunRequest> {
    args.iter()
        .enumerate()
        .map(|(i, &n)| RunRequest {
            id: i as u64,
            problem: "nim".into(),
            artifact: Artifact::plain_library(lib, &["FindGoodMove"]),
            input: RunInput::Call {
                function: "FindGoodMove".into(),
                args: vec![n.into()],
            },
            limits: Limits {
                cpu_ms: 150,
                ..Limits::default()
            },
            shares_child,
            package: None,
        })
        .collect()
}

/// What a verdict is made of (times aside).
fn seen(o: &Observation) -> String {
    format!(
        "{:?} value={:?} stdout={:?} stderr={:?}",
        o.ending, o.value, o.stdout, o.stderr
    )
}

fn run(args: &[i64], shares_child: bool, slots: usize) -> Vec<String> {
    WorkerPool::new(worker(), slots)
        .run_all(&requests(args, shares_child), &|_, _| {})
        .iter()
        .map(seen)
        .collect()
}

#[test]
fn shared_calls_observe_what_a_child_per_call_observes() {
    let args = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3, 12];
    let alone = run(&args, false, 1);
    let shared = run(&args, true, 1);
    for (i, (a, s)) in alone.iter().zip(&shared).enumerate() {
        assert_eq!(a, s, "FindGoodMove({}) differs", args[i]);
    }
    // The alone runs are what this test claims they are.
    let of = |n: i64| &alone[args.iter().position(|&a| a == n).unwrap()];
    assert!(of(1).contains("value=Some(Number(1))"), "{}", of(1));
    assert!(
        of(12).contains("stdout=\"call 1 n=12 seen 1\\n\""),
        "{}",
        of(12)
    );
    assert!(of(3).contains("SIGSEGV"), "{}", of(3));
    assert!(of(5).contains("CpuTimeout"), "{}", of(5));
    assert!(
        of(5).contains("stdout=\"call 1 n=5 seen 1\\n\""),
        "{}",
        of(5)
    );
    assert!(of(9).contains("stderr=\"to stderr\\n\""), "{}", of(9));
    assert!(!of(8).contains("value=None"), "{}", of(8));
}

#[test]
fn shared_calls_split_between_workers_keep_their_order_and_answers() {
    let args: Vec<i64> = (0..40).map(|i| [1, 2, 4, 7, 8, 10][i % 6]).collect();
    let alone = run(&args, false, 2);
    assert_eq!(run(&args, true, 2), alone);
    assert!(alone.iter().all(|s| s.contains("Returned")), "{alone:?}");
}

fn values(lib: &Path, args: &[i64]) -> Vec<i64> {
    WorkerPool::new(worker(), 1)
        .run_all(&requests_on(lib, args, true), &|_, _| {})
        .iter()
        .map(|o| o.value.as_ref().and_then(|v| v.as_i64()).expect("a value"))
        .collect()
}

#[test]
fn calls_share_a_child_unless_loading_left_state_outside_the_library() {
    // The plain C library's calls share one process ...
    let pids = values(&library(), &[13, 13, 13]);
    assert!(pids.iter().all(|&p| p == pids[0]), "{pids:?}");
    // ... but those whose globals point into memory made at load each get their own, and so
    // each starts afresh.
    for lib in heap_state_libraries() {
        let pids = values(&lib, &[13, 13, 13]);
        assert!(
            pids[0] != pids[1] && pids[1] != pids[2],
            "{}: {pids:?}",
            lib.display()
        );
        assert_eq!(
            values(&lib, &[4, 4, 4, 7]),
            [1, 1, 1, 1],
            "{}",
            lib.display()
        );
    }
}

/// Two counted functions at one address: `IsBadPosition` an alias of `FindGoodMove`, as an
/// optimiser's folding of identical functions makes them (the reference cdylib's empty
/// markers were folded so in a release build). Built with labgrade's hooks and probe.
const ALIASED: &str = r#"
int FindGoodMove(int n) { return n > 0 ? FindGoodMove(n - 1) + 1 : 0; }
int IsBadPosition(int n) __attribute__((alias("FindGoodMove")));
#ifndef ALIAS
int Other(int n) { return n > 0 ? Other(n - 1) + 2 : 0; }
#endif
"#;

/// An instrumented library of `source` (with labgrade's hooks and probe linked in).
fn counting_library(name: &str, source: &str, flags: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("batch-lib");
    std::fs::create_dir_all(&dir).unwrap();
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/submission/c");
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    let lib = dir.join(format!("lib{name}.so"));
    let st = Command::new("gcc")
        .args(flags)
        .args(["-shared", "-fPIC", "-O0", "-finstrument-functions", "-o"])
        .arg(&lib)
        .arg(&src)
        .arg(c.join("labgrade_hooks.c"))
        .arg(c.join("labgrade_probe.c"))
        .status()
        .unwrap();
    assert!(st.success(), "gcc failed on {name}");
    lib
}

#[test]
fn counted_functions_folded_into_one_address_are_not_counted_as_one() {
    let counted = |lib: &Path, second: &str| {
        let mut artifact = Artifact::plain_library(lib, &["FindGoodMove", second]);
        artifact.instrumented = true;
        artifact.counted = ["FindGoodMove", second]
            .iter()
            .map(|n| (n.to_string(), n.to_string()))
            .collect();
        let req = RunRequest {
            artifact,
            ..requests_on(lib, &[4], false).remove(0)
        };
        let o = WorkerPool::new(worker(), 1).run_all(&[req], &|_, _| {})[0].clone();
        assert_eq!(o.value.as_ref().and_then(|v| v.as_i64()), Some(4), "{o:?}");
        o
    };
    let aliased = counting_library("aliased", ALIASED, &["-DALIAS"]);
    let o = counted(&aliased, "IsBadPosition");
    assert!(o.counts.is_none(), "{:?}", o.counts);
    let note = o.counts_note.unwrap_or_default();
    assert!(
        note.contains("FindGoodMove and IsBadPosition are one function"),
        "{note}"
    );
    // Two functions of their own: counted apart.
    let apart = counting_library("apart", ALIASED, &[]);
    let o = counted(&apart, "Other");
    let counts = o.counts.expect("counted");
    assert_eq!(counts.calls["FindGoodMove"], 5, "{counts:?}");
    assert_eq!(counts.calls["Other"], 0, "{counts:?}");
}
