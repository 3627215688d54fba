//! Helpers: run the labgrade binary, find the reference cdylib, share a build cache.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The labgrade binary under test.
pub fn labgrade_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_labgrade"))
}

/// A build cache shared by the tests of one run (builds are content-addressed and published
/// atomically, so concurrent tests may share it).
pub fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("labgrade-cache")
}

/// Builds the reference cdylib (cargo test does not build cdylibs) and returns its path,
/// which is next to the labgrade binary, where `labgrade test` looks for it.
pub fn reference_lib() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args(["build", "-p", "labgrade-reference-cdylib", "--lib"]);
            if !cfg!(debug_assertions) {
                cmd.arg("--release");
            }
            let status = cmd.current_dir(repo()).status().expect("run cargo");
            assert!(status.success(), "building the reference cdylib failed");
            let lib = labgrade_bin()
                .parent()
                .expect("bin dir")
                .join("liblabgrade_reference.so");
            assert!(lib.is_file(), "{} missing", lib.display());
            lib
        })
        .clone()
}

/// Runs labgrade with `args` from the repository root, colors off, the shared cache.
pub fn labgrade(args: &[&str]) -> Output {
    labgrade_in(&repo(), args)
}

/// Runs labgrade with `args` from `dir`.
pub fn labgrade_in(dir: &Path, args: &[&str]) -> Output {
    run_labgrade(dir, args, &cache_dir())
}

/// Runs labgrade with `args` from the repository root with a cache of its own (for what
/// labgrade remembers there besides builds, such as the last check's failures).
pub fn labgrade_with_cache(args: &[&str], cache: &Path) -> Output {
    run_labgrade(&repo(), args, cache)
}

/// Runs labgrade with `args` from `dir` as a GitHub Actions step: `GITHUB_ACTIONS=true`, the
/// workspace `dir` and the job summary written to `summary`.
pub fn labgrade_on_github(dir: &Path, args: &[&str], summary: &Path) -> Output {
    command(dir, args, &cache_dir())
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", dir)
        .env("GITHUB_STEP_SUMMARY", summary)
        .output()
        .expect("run labgrade")
}

fn run_labgrade(dir: &Path, args: &[&str], cache: &Path) -> Output {
    command(dir, args, cache).output().expect("run labgrade")
}

fn command(dir: &Path, args: &[&str], cache: &Path) -> Command {
    let mut cmd = Command::new(labgrade_bin());
    cmd.args(args)
        .arg("--color")
        .arg("never")
        .arg("--cache-dir")
        .arg(cache)
        .current_dir(dir)
        .env_remove("LABGRADE_ROOT")
        // Run under GitHub Actions, the tests must not annotate or summarise the real job.
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A sample submission's directory.
pub fn sample(name: &str) -> PathBuf {
    sample_of("nim", name)
}

/// A sample submission of any problem.
pub fn sample_of(problem: &str, name: &str) -> PathBuf {
    repo().join("tests/submissions").join(problem).join(name)
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            if e.file_name() != "target" {
                copy_dir(&p, &t);
            }
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// `labgrade check <problem> <path> --format json <extra>`: exit code and report.
pub fn check_report(
    problem: &str,
    path: &Path,
    extra: &[&str],
) -> (Option<i32>, serde_json::Value) {
    let mut args = vec!["check", problem, path.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let out = labgrade(&args);
    let json = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    (out.status.code(), json)
}

/// The case `name` of a JSON report.
pub fn case<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

/// Every case's message of a JSON report, one after another.
pub fn messages(r: &serde_json::Value) -> String {
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["message"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A command running `grader` as an unprivileged user: as root, `nobody` (uid and gid
/// 65534, no groups, through `setpriv`); otherwise the user running the tests.
pub fn as_unprivileged(grader: &Path) -> Command {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(grader);
        c
    } else {
        Command::new(grader)
    }
}

/// True when the slow tier of the suite runs: `LABGRADE_FULL_TESTS=1` (CI sets it). A slow
/// test (a whole class cold at -j 32, every course library in every language, every sample
/// of every problem) calls this first; without the variable it says on stderr that it was
/// skipped and how to run it, and passes, so `cargo test --workspace` stays within a
/// newcomer's patience.
pub fn full_suite(test: &str) -> bool {
    if std::env::var_os("LABGRADE_FULL_TESTS").is_some_and(|v| v == "1") {
        return true;
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: a slow test; LABGRADE_FULL_TESTS=1 cargo test --workspace runs it"
    );
    false
}
