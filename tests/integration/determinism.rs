//! A grade is a pure function of the submission, spec, fixtures and course: the same class
//! graded cold (fresh build cache, fresh output) at `-j 1` and at a parallelism far above
//! this machine's cores, two gradings at a time so that each loads the other, gets the same
//! grades.csv, class.csv, JSON reports (less times and paths) and summary table; so does a
//! warm grading (the builds cached, every submission graded again). And
//! labgrade's own failure is never a student's grade: a worker that keeps dying leaves its
//! submission *unresolved*, with no score and a distinct exit code.
//!
//! Before the fix, a cold class at `-j 16` lost whole submissions to `internal-error` in
//! about one run in four on a 16-core machine: every builder thread made the build cache's
//! key at once through one temporary file (see `src/submission/cache_secret.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use super::util::{full_suite, labgrade_bin, repo, sample, stderr, stdout};

/// Samples whose verdicts span what a class gets: passes (C and C++), wrong answers, a
/// crash, timeouts with a timeout budget, a memoised search, a build error, a missing
/// function, a load error and a warning.
const CLASS: [&str; 12] = [
    "book-cpp",
    "c-version",
    "crashes",
    "does-not-compile",
    "formula",
    "memoised",
    "missing-function",
    "never-terminates",
    "stanford-cpp",
    "two-mains",
    "warning",
    "wrong-base-case",
];

/// The class, as handed in: each sample's sources and headers.
fn make_class(dir: &Path, names: &[&str]) {
    for name in names {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(sample(name)).unwrap().flatten() {
            let p = e.path();
            let source = matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("c" | "cpp" | "cc" | "h" | "hpp")
            );
            if p.is_file() && source {
                std::fs::copy(&p, to.join(e.file_name())).unwrap();
            }
        }
    }
}

/// Starts `labgrade grade nim <class>` at `-j jobs`, cold: its own new cache and output
/// directory under `work`, named by `tag`. Returns the process and the output directory.
fn start_grading(
    class: &Path,
    work: &Path,
    tag: &str,
    jobs: usize,
    env: &[(&str, &str)],
) -> (std::process::Child, PathBuf) {
    let out = work.join(format!("out-{tag}"));
    let cache = work.join(format!("cache-{tag}"));
    (start(class, &out, &cache, jobs, env, &[]), out)
}

/// Starts `labgrade grade nim <class> --out <out>` with this cache, at `-j jobs`.
fn start(
    class: &Path,
    out: &Path,
    cache: &Path,
    jobs: usize,
    env: &[(&str, &str)],
    extra: &[&str],
) -> std::process::Child {
    Command::new(labgrade_bin())
        .args(["--color", "never", "--jobs", &jobs.to_string()])
        .arg("--cache-dir")
        .arg(cache)
        .args(["grade", "nim"])
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(extra)
        .current_dir(repo())
        .env_remove("LABGRADE_ROOT")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start labgrade")
}

/// What a grading wrote, less what depends on time and paths: file name -> content.
fn timing_free(out: &Path, output: &Output) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(out).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        match name.as_str() {
            "grades.csv" | "class.csv" => {
                files.insert(name, text);
            }
            n if n.ends_with(".json") => {
                let mut v: Value = serde_json::from_str(&text).unwrap();
                normalise(&mut v);
                files.insert(name, serde_json::to_string_pretty(&v).unwrap());
            }
            _ => {}
        }
    }
    // The summary table and the lines after it, less the one naming the output directory.
    let printed = stdout(output);
    let table: Vec<&str> = printed
        .lines()
        .filter(|l| !l.starts_with("wrote "))
        .map(str::trim_end)
        .collect();
    files.insert("(summary)".into(), table.join("\n"));
    files
}

/// Drops a report's times: each case's `time_ms`, when it was graded and whether its build
/// came from the cache. (What a run stopped at its time limit had counted by then is not in a
/// report at all: it depends on the machine's speed.)
fn normalise(report: &mut Value) {
    if let Some(p) = report.pointer_mut("/metadata/provenance") {
        p.as_object_mut().unwrap().remove("graded_at");
    }
    if let Some(b) = report.get_mut("build").and_then(Value::as_object_mut) {
        b.remove("cached");
    }
    for case in report["cases"].as_array_mut().into_iter().flatten() {
        let case = case.as_object_mut().unwrap();
        case.remove("time_ms");
    }
}

/// Waits for a grading and returns its output, which must be a finished grading (0 or 1).
fn finish(child: std::process::Child, tag: &str) -> Output {
    let out = child.wait_with_output().expect("wait for labgrade");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{tag}: labgrade grade exited {:?}\n{}\n{}",
        out.status.code(),
        stdout(&out),
        stderr(&out)
    );
    out
}

/// The first file whose content differs, with both contents' first differing line.
fn first_difference(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> Option<String> {
    if a.keys().ne(b.keys()) {
        return Some(format!(
            "different files: {:?} and {:?}",
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>()
        ));
    }
    a.iter().find_map(|(name, text)| {
        let other = &b[name];
        (text != other).then(|| {
            let (x, y) = text
                .lines()
                .zip(other.lines())
                .find(|(x, y)| x != y)
                .unwrap_or(("(shorter)", "(shorter)"));
            format!("{name} differs:\n  -j 1: {x}\n  this: {y}")
        })
    })
}

#[test]
fn a_class_graded_cold_far_above_the_core_count_gets_the_grades_of_one_job() {
    if !full_suite(
        "determinism::a_class_graded_cold_far_above_the_core_count_gets_the_grades_of_one_job",
    ) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    make_class(&class, &CLASS);
    let (child, out) = start_grading(&class, work.path(), "j1", 1, &[]);
    let output = finish(child, "-j 1");
    let baseline = timing_free(&out, &output);
    assert!(
        baseline["grades.csv"].lines().count() == CLASS.len() + 1,
        "{}",
        baseline["grades.csv"]
    );
    // Two gradings at a time, each cold, at 16 and 32 slots on however few cores: each
    // loads the other, as a busy machine would.
    for round in 0..2 {
        let runs: Vec<(String, std::process::Child, PathBuf)> = [16, 32]
            .into_iter()
            .map(|jobs| {
                let tag = format!("j{jobs}-{round}");
                let (child, out) = start_grading(&class, work.path(), &tag, jobs, &[]);
                (tag, child, out)
            })
            .collect();
        for (tag, child, out) in runs {
            let output = finish(child, &tag);
            let got = timing_free(&out, &output);
            if let Some(d) = first_difference(&baseline, &got) {
                panic!("{tag} graded differently from -j 1: {d}");
            }
        }
    }
    // Warm: the -j 1 grading's builds cached, every submission graded again at -j 32.
    let warm_out = work.path().join("out-warm");
    let child = start(
        &class,
        &warm_out,
        &work.path().join("cache-j1"),
        32,
        &[],
        &["--force"],
    );
    let output = finish(child, "warm");
    let got = timing_free(&warm_out, &output);
    if let Some(d) = first_difference(&baseline, &got) {
        panic!("a warm grading graded differently from a cold one: {d}");
    }
}

#[test]
fn a_worker_that_keeps_dying_leaves_its_submission_unresolved_never_zero() {
    const MARKER: &str = "labgrade-test:this-worker-dies";
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    make_class(&class, &["c-version", "formula"]);
    // A third student, c-version's code with the test hook's marker in its library.
    make_class(&work.path().join("x"), &["c-version"]);
    std::fs::rename(work.path().join("x/c-version"), class.join("dies")).unwrap();
    let nim_c = class.join("dies/nim.c");
    let mut text = std::fs::read_to_string(&nim_c).unwrap();
    text.push_str(&format!(
        "\nconst char *labgrade_test_marker = \"{MARKER}\";\n"
    ));
    std::fs::write(&nim_c, text).unwrap();

    let env = [("LABGRADE_TEST_WORKER_DIES", MARKER)];
    let (child, out) = start_grading(&class, work.path(), "dies", 4, &env);
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(3), "{text}\n{}", stderr(&output));

    // grades.csv: an empty score and percent, and the status, for `dies` only.
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let rows: BTreeMap<&str, Vec<&str>> = csv
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[1], cells)
        })
        .collect();
    assert_eq!(
        &rows["submission"][2..6],
        ["score", "max_score", "percent", "status"]
    );
    assert_eq!(&rows["dies"][2..6], ["", "139", "", "unresolved"], "{csv}");
    assert_eq!(
        &rows["c-version"][2..6],
        ["139", "139", "100.00", "graded"],
        "{csv}"
    );
    assert_eq!(rows["formula"][5], "graded", "{csv}");

    // The JSON report says so, and why.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("dies.json")).unwrap()).unwrap();
    assert_eq!(report["status"], "unresolved");
    let note = report["metadata"]["unresolved_note"].as_str().unwrap();
    assert!(note.contains("worker failed"), "{note}");
    let graded: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("formula.json")).unwrap()).unwrap();
    assert_eq!(graded["status"], "graded");

    // The summary leaves it out of the mean and ends with one line naming it.
    assert!(text.contains("dies            -/139"), "{text}");
    let mean = text.lines().find(|l| l.starts_with("mean")).unwrap();
    assert!(mean.contains("107.5/139"), "{mean}");
    assert!(mean.contains("1 unresolved left out of the mean"), "{mean}");
    assert!(text.contains("unresolved (1 submission): dies\n"), "{text}");

    // The class report leaves it out of its figures and names it.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("<p class=\"unresolved\" id=\"unresolved\">"),
        "no note"
    );
    assert!(html.contains(">withheld / 139<"), "no withheld score");

    // Graded again without the fault, it is graded, and only it (the others are reused).
    let (child, out) = start_grading(&class, work.path(), "dies", 4, &[]);
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("reused 2 of 3 result(s)"), "{text}");
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(csv.contains("dies,dies,139,139,100.00,graded"), "{csv}");
}

/// The stress script for machines with many cores (`benches/stress_class.sh`, run there with
/// a release build and no Rust) works: a class graded at `-j 1` and again at `-j 4` compares
/// equal. Here on the queens samples, once.
#[test]
fn the_stress_script_for_big_machines_grades_and_compares() {
    if !full_suite("determinism::the_stress_script_for_big_machines_grades_and_compares") {
        return;
    }
    let bin_dir = labgrade_bin()
        .parent()
        .expect("the bin's directory")
        .to_path_buf();
    let out = Command::new("bash")
        .arg(repo().join("benches/stress_class.sh"))
        .arg(&bin_dir)
        .args(["1", "4"])
        .env("PROBLEM", "queens")
        .env("SCALING", "0")
        .output()
        .expect("bash");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains(" queens submissions; "), "{text}");
    assert!(
        text.contains("-j 4: 1 of 1 cold runs byte-identical to -j 1"),
        "{text}"
    );
    assert!(
        text.contains("gradings that differed or failed: 0"),
        "{text}"
    );
}
