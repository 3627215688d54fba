//! Problem packages: an instructor's own assignment with a C reference, graded with no Rust
//! (`--problems DIR`, `$LABGRADE_PROBLEMS`, `labgrade new`), and the instructor's mistakes
//! named with their file and case.

use std::path::{Path, PathBuf};

use crate::util::*;

/// The example packages, as shipped.
fn examples() -> PathBuf {
    repo().join("docs/packages")
}

/// A copy of the example package `name` under `dir`, for a test to change.
fn example_in(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    copy_dir(&examples().join(name), &to);
    to
}

/// A copy of the example package `subset-sum` under `dir`.
fn subset_sum_in(dir: &Path) -> PathBuf {
    example_in(dir, "subset-sum")
}

/// `labgrade export --student <before...> subset-sum <bundle>` succeeds.
fn export_subset_sum(before: &[&str], bundle: &Path) {
    export_student(before, "subset-sum", bundle);
}

/// `labgrade export --student <before...> <problem> <bundle>` succeeds.
fn export_student(before: &[&str], problem: &str, bundle: &Path) {
    let mut args = vec!["export", "--student"];
    args.extend(before);
    args.extend([problem, bundle.to_str().unwrap()]);
    let out = labgrade(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Each of `samples` (the example `problem`'s) gets from the bundle's checker the exit
/// status, messages and score `labgrade check` gives it.
fn bundle_grades_as_check(bundle: &Path, problem: &str, samples: &[&str]) {
    let dir = examples();
    for name in samples {
        let sub = dir.join(problem).join("samples").join(name);
        let run = in_bundle(
            bundle,
            &["check", problem, sub.to_str().unwrap(), "--format", "json"],
        );
        let (code, full) = check_report_with(&["--problems", dir.to_str().unwrap()], problem, &sub);
        assert_eq!(run.status.code(), code, "{name}: {}", stderr(&run));
        let bundled: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
        assert_eq!(messages(&bundled), messages(&full), "{name}");
        assert_eq!(bundled["score"], full["score"], "{name}");
    }
}

/// Runs the bundle's labgrade with `args` from `/`, told nothing of the bundle's place.
fn in_bundle(bundle: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(bundle.join("bin/labgrade"))
        .args(args)
        .arg("--cache-dir")
        .arg(cache_dir())
        .current_dir("/")
        .env_remove("LABGRADE_ROOT")
        .env_remove("LABGRADE_PROBLEMS")
        .output()
        .unwrap()
}

/// Each example package's reference passes every case, and each sample gets the verdicts
/// its `expect.toml` declares: subset-sum returns a value with a counted recursion (a wrong
/// base case fails where set[0] is needed, and is named from the package's mistakes/; a
/// submission that always answers false fails some of the same cases and is not told it
/// swapped them; a search in the other order fails only the counts), sudoku fills a grid, judged by the package's C checker (a square never emptied
/// again blocks the search; a column-major search finds right grids, on the empty grid
/// another than the reference's, with other counts; a search without the box rule gets the
/// checker's reason), robot-maze calls the
/// package's own library (marks never rubbed out show in the maze left and the library's
/// record).
#[test]
fn the_example_packages_pass_their_own_test() {
    let dir = examples();
    let out = labgrade(&[
        "test",
        "--problems",
        dir.to_str().unwrap(),
        "subset-sum",
        "sudoku",
        "robot-maze",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for sample in [
        "reference",
        "correct",
        "base-cases-swapped",
        "exclude-first",
        "forgets-to-undo",
        "column-major",
        "correct-cpp",
        "keeps-marks",
        "forgets-boxes",
        "always-false",
    ] {
        assert!(
            text.contains(&format!("ok   {sample} (")),
            "{sample}: {text}"
        );
    }
    assert!(text.contains("14 passed, 0 failed"), "{text}");
}

/// A student checks against a package exactly as against a catalogue problem: the report
/// names the call and the reference's answer, computed by the instructor's C code.
#[test]
fn a_student_checks_against_a_package_as_against_the_catalogue() {
    let dir = examples();
    let sub = dir.join("subset-sum/samples/base-cases-swapped");
    let (code, report) =
        check_report_with(&["--problems", dir.to_str().unwrap()], "subset-sum", &sub);
    assert_eq!(code, Some(1));
    let c = case(&report, "CanMakeSum/empty set, target 0");
    assert_eq!(c["verdict"], "fail");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("CanMakeSum(set, 0, 0) returned false; the reference returns true"),
        "{c}"
    );
    // The reference's counts are compared as a catalogue reference's are.
    let calls = case(&report, "CanMakeSum/lecture's set, 20/calls");
    assert_eq!(calls["verdict"], "fail");
    assert!(
        calls["message"]
            .as_str()
            .unwrap()
            .contains("CanMakeSum was called 16 times by the reference"),
        "{calls}"
    );
    assert_eq!(case(&report, "CanMakeSum/3 5 9, 14")["verdict"], "pass");
}

/// `labgrade check --problems DIR <p> <submission> --format json`, from the repository.
fn check_report_with(
    before: &[&str],
    problem: &str,
    sub: &Path,
) -> (Option<i32>, serde_json::Value) {
    let mut args: Vec<&str> = before.to_vec();
    args.extend(["check", problem, sub.to_str().unwrap(), "--format", "json"]);
    let out = labgrade(&args);
    let report = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    (out.status.code(), report)
}

/// `labgrade new` writes a package `labgrade test` passes at once, found through
/// `$LABGRADE_PROBLEMS` as through `--problems`; a class is graded against it.
#[test]
fn a_new_package_passes_its_test_at_once_and_grades_a_class() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    let out = labgrade(&["new", "word-sums", "--dir", course.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spec = std::fs::read_to_string(course.join("word-sums/problem.toml")).unwrap();
    assert!(spec.contains("name = \"word-sums\""), "{spec}");
    // With `--problems` (here its variable) and no problem named, `test` tests the packages.
    let run = std::process::Command::new(labgrade_bin())
        .args(["test", "--color", "never", "--cache-dir"])
        .arg(cache_dir())
        .env("LABGRADE_PROBLEMS", &course)
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&run),
        stderr(&run)
    );
    let tested = stdout(&run);
    assert!(
        tested.starts_with("problem word-sums\n") && tested.ends_with("5 passed, 0 failed\n"),
        "{tested}"
    );
    // A class of its samples, graded far above the core count.
    let class = work.path().join("class");
    for s in ["correct", "base-cases-swapped", "exclude-first"] {
        copy_dir(&course.join("word-sums/samples").join(s), &class.join(s));
        std::fs::remove_file(class.join(s).join("expect.toml")).unwrap();
    }
    let grades = work.path().join("grades");
    let out = labgrade(&[
        "grade",
        "--problems",
        course.to_str().unwrap(),
        "word-sums",
        class.to_str().unwrap(),
        "--out",
        grades.to_str().unwrap(),
        "-j",
        "8",
    ]);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        stderr(&out)
    );
    let csv = std::fs::read_to_string(grades.join("grades.csv")).unwrap();
    let score = |who: &str| -> String {
        csv.lines()
            .find(|l| l.starts_with(&format!("{who},")))
            .and_then(|l| l.split(',').nth(2))
            .unwrap_or_else(|| panic!("{who}: {csv}"))
            .to_string()
    };
    // Every case, the hidden one too: 12 points.
    assert_eq!(score("correct"), "12", "{csv}");
    assert_eq!(score("exclude-first"), "8", "{csv}");
    assert_eq!(score("base-cases-swapped"), "7", "{csv}");
}

/// `labgrade new --like` each example (a checker, a world of the package's own) writes a
/// package that passes its test at once, the example's name changed in every file it
/// writes, in each of its forms (`sudoku.h` becomes `my_sudoku.h`, its `#include` and guard
/// with it; "Subset sum" in the spec's title becomes "Word sums"), file names too.
#[test]
fn every_example_can_start_a_new_package() {
    let work = tempfile::tempdir().unwrap();
    for (name, like) in [("my-sudoku", "sudoku"), ("cave-robot", "robot-maze")] {
        let out = labgrade(&[
            "new",
            name,
            "--like",
            like,
            "--dir",
            work.path().to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out = labgrade(&["test", "--problems", work.path().to_str().unwrap(), name]);
        assert_eq!(out.status.code(), Some(0), "{like}: {}", stdout(&out));
        assert!(
            stdout(&out).contains(&format!("problem {name}\n")),
            "{}",
            stdout(&out)
        );
        // Nothing of the example's name is left, in a file's name or its text (a graded
        // function's own name, such as SolveSudoku, is the instructor's to change).
        let forms = [
            like.to_string(),
            like.replace('-', "_"),
            like.replace('-', " "),
        ];
        for entry in walkdir(&work.path().join(name)) {
            // The new name's own forms aside (`my-sudoku` holds `sudoku`).
            let without_new = |t: &str| {
                t.to_lowercase()
                    .replace(name, "")
                    .replace(&name.replace('-', "_"), "")
                    .replace(&name.replace('-', " "), "")
            };
            let rel = without_new(&entry.strip_prefix(work.path()).unwrap().to_string_lossy());
            let text = without_new(&std::fs::read_to_string(&entry).unwrap_or_default());
            for form in &forms {
                assert!(!rel.contains(form.as_str()), "{rel}");
                let whole_word = regex::Regex::new(&format!(
                    r"(^|[^a-z0-9]){}($|[^a-z0-9])",
                    regex::escape(form)
                ))
                .unwrap();
                assert!(!whole_word.is_match(&text), "{rel} still says {form}");
            }
        }
    }
    let header = work.path().join("my-sudoku/include/my_sudoku.h");
    let text = std::fs::read_to_string(&header).unwrap();
    assert!(text.contains("MY_SUDOKU_H"), "{text}");
    let out = labgrade(&["new", "word-sums", "--dir", work.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spec = std::fs::read_to_string(work.path().join("word-sums/problem.toml")).unwrap();
    assert!(spec.contains("title = \"Word sums: "), "{spec}");
}

/// Every file under `dir`.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A package may not take a catalogue problem's name: the error names the spec's line.
#[test]
fn a_package_may_not_take_a_catalogue_name() {
    let work = tempfile::tempdir().unwrap();
    let pkg = subset_sum_in(work.path());
    let spec = pkg.join("problem.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replace("name = \"subset-sum\"", "name = \"nim\""),
    )
    .unwrap();
    let out = labgrade(&["list", "--problems", work.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("problem.toml:10:")
            && err.contains("`nim` is a problem of labgrade's catalogue"),
        "{err}"
    );
}

/// The reference sets every expectation, so its failures are the instructor's: one that
/// crashes on a case, and a fixture whose literal expectation the reference contradicts, are
/// named with the fixture's file, line and case; a reference that does not build is named
/// with its directory and the compiler's error. Nothing is graded then.
#[test]
fn the_reference_s_failures_are_named_with_the_file_and_the_case() {
    let work = tempfile::tempdir().unwrap();
    let pkg = subset_sum_in(work.path());
    let problems = work.path().to_str().unwrap().to_string();
    let sub = pkg.join("samples/correct");
    let check = || {
        labgrade(&[
            "check",
            "--problems",
            &problems,
            "subset-sum",
            sub.to_str().unwrap(),
        ])
    };
    let reference = pkg.join("reference/subset_sum.c");
    let good = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(
        &reference,
        good.replace(
            "if (target == 0) return true;",
            "if (target == 31) abort();\n    if (target == 0) return true;",
        )
        .replace(
            "#include \"subset_sum.h\"",
            "#include \"subset_sum.h\"\n#include <stdlib.h>",
        ),
    )
    .unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("fixtures/10-can-make-sum.toml:")
            && err.contains("CanMakeSum/lecture's set, 31")
            && err.contains("the reference was killed by SIGABRT"),
        "{err}"
    );
    std::fs::write(&reference, &good).unwrap();
    std::fs::write(
        pkg.join("fixtures/20-stated.toml"),
        "[[case]]\nname = \"CanMakeSum/stated\"\ncall = \"CanMakeSum\"\n\
         args = [[3, 5, 9], 3, 14]\ncompare = [\"calls\"]\n\
         expect = { calls = { CanMakeSum = 4 } }\n",
    )
    .unwrap();
    let err = stderr(&check());
    assert!(
        err.contains("20-stated.toml:1:")
            && err.contains("the fixture's `expect` and the reference disagree")
            && err.contains("the reference makes {\"CanMakeSum\": 3}"),
        "{err}"
    );
    // Stated right, it is graded.
    std::fs::write(
        pkg.join("fixtures/20-stated.toml"),
        "[[case]]\nname = \"CanMakeSum/stated\"\ncall = \"CanMakeSum\"\n\
         args = [[3, 5, 9], 3, 14]\ncompare = [\"calls\"]\n\
         expect = { calls = { CanMakeSum = 3 } }\n",
    )
    .unwrap();
    assert_eq!(check().status.code(), Some(0), "{}", stderr(&check()));
    std::fs::write(&reference, "int x = ;\n").unwrap();
    let err = stderr(&check());
    assert!(
        err.contains("reference") && err.contains("the reference cannot be used: the build failed"),
        "{err}"
    );
}

/// A package that counts nothing cannot pass every submission on its calls and depth cases
/// (`{}` compared with `{}`): `labgrade test` refuses a `counted` list that is empty, or
/// that names a function the reference does not define, naming the case's file and line.
#[test]
fn a_package_that_counts_nothing_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let pkg = subset_sum_in(work.path());
    let problems = work.path().to_str().unwrap().to_string();
    let spec = pkg.join("problem.toml");
    let good = std::fs::read_to_string(&spec).unwrap();
    assert!(good.contains("counted = [\"CanMakeSum\"]"), "{good}");
    let test = || labgrade(&["test", "--problems", &problems, "subset-sum"]);
    for (counted, says) in [
        ("counted = []", "[kit] counted names no function"),
        (
            "counted = [\"CanMakeSumX\"]",
            "defines no function `CanMakeSumX` that the spec's [kit] counted names",
        ),
    ] {
        std::fs::write(&spec, good.replace("counted = [\"CanMakeSum\"]", counted)).unwrap();
        let out = test();
        let err = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(2), "{counted}: {err}");
        assert!(
            err.contains("fixtures/") && err.contains(".toml:") && err.contains(says),
            "{counted}: {err}"
        );
    }
    std::fs::write(&spec, &good).unwrap();
    let out = test();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
}

/// A package's student bundle holds its spec, header and visible cases, never its reference
/// or samples, and its checker (which links no solver) grades as `labgrade check` does from
/// the expectations the reference gave at export; a case added to it gets no answer.
#[test]
fn a_package_s_student_bundle_holds_no_reference_and_grades_as_check_does() {
    let work = tempfile::tempdir().unwrap();
    let dir = examples();
    let bundle = work.path().join("bundle");
    export_subset_sum(&["--problems", dir.to_str().unwrap()], &bundle);
    assert_eq!(
        std::fs::read(bundle.join("bin/labgrade-check")).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_labgrade-check")).unwrap()
    );
    let in_bundle = |args: &[&str]| in_bundle(&bundle, args);
    let pkg = bundle.join("packages/subset-sum");
    assert!(pkg.join("problem.toml").is_file() && pkg.join("include/subset_sum.h").is_file());
    assert!(!pkg.join("reference").exists() && !pkg.join("samples").exists());
    let fixtures = std::fs::read_to_string(pkg.join("fixtures/10-can-make-sum.toml")).unwrap();
    assert!(!fixtures.contains("31"), "a hidden case leaked: {fixtures}");
    bundle_grades_as_check(
        &bundle,
        "subset-sum",
        &["base-cases-swapped", "exclude-first"],
    );
    // A case of one's own gets no answer from the bundle.
    std::fs::write(
        pkg.join("fixtures/20-mine.toml"),
        "[[case]]\nname = \"CanMakeSum/mine\"\ncall = \"CanMakeSum\"\n\
         args = [[1, 4, 6, 8, 11], 5, 31]\ncompare = [\"return\"]\n",
    )
    .unwrap();
    let sub = dir.join("subset-sum/samples/correct");
    let run = in_bundle(&["check", "subset-sum", sub.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("this bundle holds no expectation for this case"),
        "{}",
        stderr(&run)
    );
}

/// A package's Gradescope autograder carries the package with its reference (the
/// autograder is the instructor's): run as Gradescope runs it, it grades every case.
#[test]
fn a_package_s_gradescope_autograder_grades_every_case() {
    let work = tempfile::tempdir().unwrap();
    let dir = examples();
    let zip = work.path().join("autograder.zip");
    let out = labgrade(&[
        "gradescope",
        "--problems",
        dir.to_str().unwrap(),
        "sudoku",
        "-o",
        zip.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let root = work.path().join("autograder");
    crate::gradescope::unzip(&zip, &root.join("source"));
    assert!(root
        .join("source/packages/sudoku/reference/sudoku.c")
        .is_file());
    let results =
        crate::gradescope::grade_with_bundle(&root, &dir.join("sudoku/samples/forgets-to-undo"));
    let tests = results["tests"].as_array().unwrap();
    let named = |name: &str| {
        tests
            .iter()
            .find(|t| t["name"].as_str().is_some_and(|n| n.contains(name)))
            .unwrap_or_else(|| panic!("{name}: {results}"))
    };
    // The hidden case is graded too, and the grid mistake is told.
    assert_eq!(named("already solved")["score"], 1.0, "{results}");
    assert_eq!(named("the classic puzzle/calls")["score"], 0.0, "{results}");
    assert_eq!(results["score"], 4.0, "{results}");
    // The package's rule (`unchanged_when`) judges there too, in the handout's cells.
    let output = named("no digit fits")["output"]
        .as_str()
        .unwrap_or_default();
    assert!(
        output.contains("but changed grid: (row = 0, col = 0) holds 5"),
        "{output}"
    );
    // A package's named mistakes go with its reference, and are told there as by check.
    let zip = work.path().join("subset-sum.zip");
    let out = labgrade(&[
        "gradescope",
        "--problems",
        dir.to_str().unwrap(),
        "subset-sum",
        "-o",
        zip.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let root = work.path().join("subset-sum-autograder");
    crate::gradescope::unzip(&zip, &root.join("source"));
    let results = crate::gradescope::grade_with_bundle(
        &root,
        &dir.join("subset-sum/samples/base-cases-swapped"),
    );
    let told = results["tests"].as_array().unwrap().iter().any(|t| {
        t["output"]
            .as_str()
            .is_some_and(|o| o.contains("as a known mistake does: the base cases"))
    });
    assert!(told, "{results}");
}

/// A course file lists its packages (`[course] problems`, relative to it) and sets their
/// cases as it sets a catalogue problem's; a student bundle made with it grades the
/// course's way, and holds no answer to a case the course hides.
#[test]
fn a_course_file_adds_its_packages_and_sets_their_cases() {
    let work = tempfile::tempdir().unwrap();
    subset_sum_in(&work.path().join("assignments"));
    let course = work.path().join("course.toml");
    std::fs::write(
        &course,
        "[course]\nname = \"CS 1\"\nproblems = [\"assignments\"]\n\n[subset-sum]\ncases = [\n  \
         { match = \"*/3 5 9, 13\", visibility = \"hidden\" },\n  \
         { match = \"*/lecture's set, 31\", visibility = \"visible\" },\n  \
         { match = \"*/calls\", points = 5 },\n]\n",
    )
    .unwrap();
    let sub = examples().join("subset-sum/samples/exclude-first");
    let (code, report) =
        check_report_with(&["--course", course.to_str().unwrap()], "subset-sum", &sub);
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(
        case(&report, "CanMakeSum/3 5 9, 14/calls")["max_score"],
        5.0
    );
    let names: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(!names.contains(&"CanMakeSum/3 5 9, 13"), "{names:?}");
    assert!(names.contains(&"CanMakeSum/lecture's set, 31"), "{names:?}");
    assert_eq!(
        (report["score"].as_f64(), report["max_score"].as_f64()),
        (Some(7.0), Some(17.0))
    );
    let bundle = work.path().join("bundle");
    export_subset_sum(&["--course", course.to_str().unwrap()], &bundle);
    let answers = std::fs::read_to_string(bundle.join("expected/subset-sum.json")).unwrap();
    assert!(
        !answers.contains("[[3,5,9],3,13]"),
        "a course-hidden answer: {answers}"
    );
    assert!(answers.contains("[[3,5,9],3,14]"), "{answers}");
    // The bundle's cases are the ones the course shows: a case its fixture hides is in it,
    // one the course hides is not.
    let fixtures =
        std::fs::read_to_string(bundle.join("packages/subset-sum/fixtures/10-can-make-sum.toml"))
            .unwrap();
    assert!(
        fixtures.contains("lecture's set, 31") && !fixtures.contains("3 5 9, 13"),
        "{fixtures}"
    );
    let run = in_bundle(
        &bundle,
        &[
            "check",
            "subset-sum",
            sub.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let bundled: serde_json::Value =
        serde_json::from_str(&stdout(&run)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&run)));
    assert_eq!(bundled["score"], report["score"], "{bundled}");
    assert_eq!(bundled["max_score"], report["max_score"], "{bundled}");
    // A misspelt key of [course] is named, never ignored.
    std::fs::write(&course, "[course]\nproblem = [\"assignments\"]\n").unwrap();
    let out = labgrade(&["--course", course.to_str().unwrap(), "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("course.toml:1:") && stderr(&out).contains("problem"),
        "{}",
        stderr(&out)
    );
}

/// A package's expectations are kept in the cache, sealed: a changed reference is run
/// again (never a stale answer), and a kept record changed by hand is refused and run again.
#[test]
fn a_package_s_expectations_are_kept_sealed_and_never_stale() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let pkg = subset_sum_in(&work.path().join("pkgs"));
    let problems = work.path().join("pkgs");
    let sub = pkg.join("samples/correct");
    let check = |cache: &Path| {
        labgrade_with_cache(
            &[
                "--problems",
                problems.to_str().unwrap(),
                "check",
                "subset-sum",
                sub.to_str().unwrap(),
                "--format",
                "json",
            ],
            cache,
        )
    };
    let first = check(&cache);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let kept: Vec<PathBuf> = std::fs::read_dir(cache.join("package-expectations"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    // Changed by hand (an answer flipped, the seal kept): refused, and the grade stands.
    let text = std::fs::read_to_string(&kept[0]).unwrap();
    let forged = text.replacen("true", "false", 1);
    assert_ne!(forged, text);
    std::fs::write(&kept[0], forged).unwrap();
    let again = check(&cache);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("failed their authentication"),
        "{}",
        stderr(&again)
    );
    // A fixture's literal expectation is checked against kept expectations too.
    std::fs::write(
        pkg.join("fixtures/20-stated.toml"),
        "[[case]]\nname = \"CanMakeSum/stated\"\ncall = \"CanMakeSum\"\n\
         args = [[3, 5, 9], 3, 14]\ncompare = [\"calls\"]\n\
         expect = { calls = { CanMakeSum = 3 } }\n",
    )
    .unwrap();
    assert_eq!(check(&cache).status.code(), Some(0));
    std::fs::write(
        pkg.join("fixtures/20-stated.toml"),
        "[[case]]\nname = \"CanMakeSum/stated\"\ncall = \"CanMakeSum\"\n\
         args = [[3, 5, 9], 3, 14]\ncompare = [\"calls\"]\n\
         expect = { calls = { CanMakeSum = 4 } }\n",
    )
    .unwrap();
    let stated = check(&cache);
    assert_eq!(stated.status.code(), Some(2));
    assert!(
        stderr(&stated).contains("the fixture's `expect` and the reference disagree"),
        "{}",
        stderr(&stated)
    );
    std::fs::remove_file(pkg.join("fixtures/20-stated.toml")).unwrap();
    // A changed reference is another key: run again, so its new answers count.
    let reference = pkg.join("reference/subset_sum.c");
    let good = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(
        &reference,
        good.replace(
            "if (target == 0) return true;",
            "if (target == 0) return false;",
        ),
    )
    .unwrap();
    let changed = check(&cache);
    assert_eq!(changed.status.code(), Some(1), "{}", stderr(&changed));
}

/// Cases that share one run of the reference share one expectation, which holds what each
/// of them compares: a case on what the call prints is graded even when a case on its
/// return, with the same arguments, comes first.
#[test]
fn cases_sharing_a_run_keep_what_each_compares() {
    let work = tempfile::tempdir().unwrap();
    let pkg = subset_sum_in(work.path());
    let reference = pkg.join("reference/subset_sum.c");
    let text = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(
        &reference,
        text.replace(
            "#include \"subset_sum.h\"",
            "#include \"subset_sum.h\"\n#include <stdio.h>",
        )
        .replace(
            "    if (target == 0) return true;",
            "    if (target == 0) { if (n == 0) printf(\"empty\\n\"); return true; }",
        ),
    )
    .unwrap();
    std::fs::write(
        pkg.join("fixtures/20-printed.toml"),
        "[[case]]\nname = \"printed\"\ncall = \"CanMakeSum\"\nargs = [[], 0, 0]\n\
         compare = [\"stdout\"]\n",
    )
    .unwrap();
    let sub = pkg.join("samples/correct");
    let (code, report) = check_report_with(
        &["--problems", work.path().to_str().unwrap()],
        "subset-sum",
        &sub,
    );
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(
        case(&report, "CanMakeSum/empty set, target 0")["verdict"],
        "pass"
    );
    assert_eq!(case(&report, "printed")["verdict"], "fail", "{report}");
}

/// A submission of one C file, `robot.c`, under `dir`.
fn robot_submission(dir: &Path, name: &str, source: &str) -> PathBuf {
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("robot.c"), source).unwrap();
    sub
}

/// The reference's Escape, in a student's hands, after `prelude` and with `before` at its
/// start.
fn escape_with(prelude: &str, before: &str) -> String {
    format!(
        "#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <link.h>\n#include <stdio.h>\n\
         #include \"robot.h\"\n{prelude}\n\
         static directionT Opposite(directionT d) {{ return (directionT)((d + 2) % 4); }}\n\
         bool Escape(void) {{\n{before}\n\
             if (AtExit()) return true;\n    if (IsMarked()) return false;\n    Mark();\n\
             for (int d = NORTH; d <= WEST; d++) {{\n\
                 if (CanMove((directionT)d)) {{\n\
                     Move((directionT)d);\n            if (Escape()) return true;\n\
                     Move(Opposite((directionT)d));\n        }}\n    }}\n\
             Unmark();\n    return false;\n}}\n"
    )
}

/// Looks through every object loaded in the process (those loaded local too) for the
/// world library's `lg_world_answer`: 1 when found.
const PEEK: &str = "static int peek(struct dl_phdr_info *info, size_t size, void *data) {\n\
    (void)size; (void)data;\n\
    if (!info->dlpi_name || !info->dlpi_name[0]) return 0;\n\
    void *h = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);\n\
    return h && dlsym(h, \"lg_world_answer\") ? 1 : 0;\n}";

/// A package's own world (robot-maze's C library) answers the calls students' code makes,
/// each counted and traced under the library's name, from labgrade's world host: the
/// student's process holds none of it (code looking for the library's functions finds
/// nothing, or every answer would be wrong), what the library prints never reaches the
/// answers, and a call it cannot honour is reported as the student's slip.
#[test]
fn a_package_s_own_library_is_hosted_counted_and_out_of_the_student_s_reach() {
    let work = tempfile::tempdir().unwrap();
    let dir = examples();
    let problems = ["--problems", dir.to_str().unwrap()];
    let peeks = robot_submission(
        work.path(),
        "peeks",
        &escape_with(
            PEEK,
            "    if (dl_iterate_phdr(peek, 0) || dlsym(RTLD_DEFAULT, \"lg_world_new\")) \
             return !AtExit();",
        ),
    );
    let (code, report) = check_report_with(&problems, "robot-maze", &peeks);
    assert_eq!(code, Some(0), "{}", messages(&report));
    assert_eq!(report["score"], 13.0, "{report}");
    // Moves without looking: each refused move is the student's slip, in the library's
    // words, and the first call that differs is named.
    let walks = robot_submission(
        work.path(),
        "walks",
        &escape_with("", "").replace("if (CanMove((directionT)d))", "if (1)"),
    );
    let (code, report) = check_report_with(&problems, "robot-maze", &walks);
    assert_eq!(code, Some(1));
    let m = case(&report, "escape/corridor/world")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("call 4 into the robot's library: yours Move(0), the reference CanMove(0) = 0")
            && m.contains("the robot's library was asked what it cannot answer 8 times")
            && m.contains("the first: Move(NORTH) at row 1, column 1"),
        "{m}"
    );
    // A submission that closes the library's descriptor loses it: said where the world's
    // calls are compared, never taken for the reference's record.
    let closes = robot_submission(
        work.path(),
        "closes",
        &escape_with("#include <unistd.h>", "    close(1021);"),
    );
    let (_, report) = check_report_with(&problems, "robot-maze", &closes);
    let m = case(&report, "escape/corridor/world")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("the channel to the robot's library broke during Escape()")
            && m.contains("descriptors 1021 and 1022"),
        "{m}"
    );
    // Code that asks the host for the world's state (the whole maze) before the run's end
    // gets it once, and the world answers nothing more: the robot is lost, the case fails.
    let reads = robot_submission(
        work.path(),
        "reads-the-maze",
        &escape_with(
            "#include <unistd.h>
static int asked;
             static void ask_state(void) {
                 long long frame[5] = {-2, 0, 0, 0, 0}, len = 0; char buf[4096];
                 if (asked++ || write(1022, frame, sizeof frame) != sizeof frame) return;
                 if (read(1021, &len, sizeof len) != sizeof len) return;
                 while (len > 0) { ssize_t n = read(1021, buf, len < 4096 ? len : 4096);                  if (n <= 0) return; len -= n; }
}",
            "    ask_state();",
        ),
    );
    let (code, report) = check_report_with(&problems, "robot-maze", &reads);
    assert_eq!(code, Some(1), "{}", messages(&report));
    let world = case(&report, "escape/corridor/world");
    assert_eq!(world["verdict"], "fail", "{world}");
    // The library printing on every call: the answers are whole, the prints on stderr.
    let pkg = example_in(work.path(), "robot-maze");
    let world = pkg.join("world/robot_world.c");
    let text = std::fs::read_to_string(&world).unwrap();
    std::fs::write(
        &world,
        text.replace(
            "    struct robot *w = world;\n    int here",
            "    printf(\"op %d\\n\", op);\n    fflush(stdout);\n    struct robot *w = world;\n    int here",
        ),
    )
    .unwrap();
    // Every sample still gets its declared verdicts (the reference's expectations come
    // through the same channel: a channel the prints broke would answer both alike).
    let out = labgrade(&["test", "--problems", pkg.to_str().unwrap(), "robot-maze"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stderr(&out).contains("op 2"), "{}", stderr(&out));
}

/// The instructor's mistakes in a package's own world are named: a `[kit.world]` with no
/// `world/`, a library that does not build, a case the library refuses (with the
/// library's reason and the case).
#[test]
fn a_package_s_world_mistakes_are_named_with_the_file_and_the_case() {
    let work = tempfile::tempdir().unwrap();
    let pkg = example_in(work.path(), "robot-maze");
    let sub = pkg.join("samples/correct");
    let check = || {
        let out = labgrade(&[
            "--problems",
            pkg.to_str().unwrap(),
            "check",
            "robot-maze",
            sub.to_str().unwrap(),
        ]);
        (out.status.code(), stderr(&out))
    };
    let fixture = pkg.join("fixtures/10-escape.toml");
    let good = std::fs::read_to_string(&fixture).unwrap();
    std::fs::write(
        &fixture,
        good.replace(
            "\n]\n",
            "\n  { name = \"escape/no start\", call = \"Escape\", args = [[\"#E#\"]], compare = [\"return\"] },\n]\n",
        ),
    )
    .unwrap();
    let (code, err) = check();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("10-escape.toml:")
            && err.contains("case `escape/no start`")
            && err.contains(
                "the package's world refused this case's inputs: the maze has no start square 'S'"
            ),
        "{err}"
    );
    std::fs::write(&fixture, &good).unwrap();
    // A reference that loses its world's channel gives no expectation.
    let reference = pkg.join("reference/robot.c");
    let text = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(
        &reference,
        text.replace(
            "#include \"robot.h\"",
            "#include <unistd.h>\n#include \"robot.h\"",
        )
        .replace(
            "    if (AtExit()) return true;",
            "    close(1021);\n    if (AtExit()) return true;",
        ),
    )
    .unwrap();
    let (code, err) = check();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("10-escape.toml:")
            && err.contains("the reference lost its channel to the package's world"),
        "{err}"
    );
    std::fs::write(&reference, &text).unwrap();
    let world = pkg.join("world/robot_world.c");
    std::fs::write(&world, "int x = ;\n").unwrap();
    let (code, err) = check();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("robot-maze/world")
            && err.contains("the package's world library cannot be used: the build failed"),
        "{err}"
    );
    std::fs::remove_dir_all(pkg.join("world")).unwrap();
    let (code, err) = check();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("problem.toml:")
            && err.contains("[kit.world] declares a library the students' code calls"),
        "{err}"
    );
}

/// A package's checker judges answers in a process of its own, restricted: the
/// reference's own answer must pass it (or the case is named), a checker that fails on a
/// student's answer is never the student's doing, what it prints never changes a verdict,
/// and once it reads the answer it can open no file.
#[test]
fn a_package_s_checker_is_run_apart_and_its_mistakes_are_named() {
    let work = tempfile::tempdir().unwrap();
    let pkg = example_in(work.path(), "sudoku");
    let problems = pkg.to_str().unwrap().to_string();
    let check = |sample: &str| {
        let sub = pkg.join("samples").join(sample);
        check_report_with(&["--problems", &problems], "sudoku", &sub)
    };
    let checker = pkg.join("checker/sudoku_check.c");
    let good = std::fs::read_to_string(&checker).unwrap();
    let with = |before: &str| {
        good.replace(
            "    const struct lg_input *puzzle",
            &format!("{before}\n    const struct lg_input *puzzle"),
        )
        .replace(
            "#include <stdio.h>",
            "#include <stdio.h>\n#include <stdlib.h>",
        )
    };
    // A checker that rejects every answer rejects the reference's: named with the case.
    std::fs::write(
        &checker,
        with("    snprintf(why, why_size, \"never right\");\n    return 0;"),
    )
    .unwrap();
    let out = labgrade(&[
        "--problems",
        &problems,
        "check",
        "sudoku",
        pkg.join("samples/correct").to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("10-solve.toml:")
            && err.contains("case `SolveSudoku/the classic puzzle`")
            && err.contains("the package's checker rejects the reference's own answer")
            && err.contains("never right"),
        "{err}"
    );
    // A checker that crashes on an answer other than the reference's (the column-major
    // search's empty grid), and prints on every answer: the student is not blamed.
    std::fs::write(
        &checker,
        with(
            "    printf(\"judging\\n\");\n    fflush(stdout);\n\
             const struct lg_input *mine = lg_input_named(answer, nanswer, \"grid\");\n\
             const struct lg_input *theirs = lg_input_named(reference, nreference, \"grid\");\n\
             if (memcmp(mine->values, theirs->values, 81 * sizeof(long long)) != 0) abort();",
        ),
    )
    .unwrap();
    let (code, report) = check("correct");
    assert_eq!(code, Some(0), "{}", messages(&report));
    assert_eq!(report["score"], 9.0, "{}", messages(&report));
    // The instructor's failure, never the student's: the case is unresolved, the score
    // withheld, and labgrade exits 3. A fault ends the host at once, killed by its signal
    // (a restricted host that could not give the fault to its default action spun until
    // its 10 s of CPU were spent, and the message named the CPU limit).
    for (crash, signal) in [
        ("abort();", "SIGABRT"),
        ("*(volatile int *)0 = 1;", "SIGSEGV"),
    ] {
        std::fs::write(
            &checker,
            with(&format!(
                "    printf(\"judging\\n\");\n    fflush(stdout);\n\
                 const struct lg_input *mine = lg_input_named(answer, nanswer, \"grid\");\n\
                 const struct lg_input *theirs = lg_input_named(reference, nreference, \"grid\");\n\
                 if (memcmp(mine->values, theirs->values, 81 * sizeof(long long)) != 0) {crash}"
            )),
        )
        .unwrap();
        let (code, report) = check("column-major");
        let empty = case(&report, "SolveSudoku/an empty grid");
        let m = empty["message"].as_str().unwrap();
        assert!(
            m.contains(&format!(
                "labgrade could not judge this answer: lg_check was killed by {signal}"
            )) && m.contains("not your fault"),
            "{empty}"
        );
        assert_eq!(empty["verdict"], "internal-error", "{empty}");
        assert_eq!(code, Some(3), "{}", messages(&report));
        assert_eq!(report["status"], "unresolved", "{}", messages(&report));
    }
    // Restricted once it reads the answer: a checker that could open a file would accept
    // nothing, the reference's answer first.
    std::fs::write(
        &checker,
        with("    if (fopen(\"/proc/self/status\", \"r\")) return 0;"),
    )
    .unwrap();
    let (code, report) = check("correct");
    assert_eq!(code, Some(0), "{}", messages(&report));
    // `any_valid` with no checker/ is named in the spec.
    std::fs::remove_dir_all(pkg.join("checker")).unwrap();
    let out = labgrade(&["--problems", &problems, "list"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("problem.toml:")
            && err.contains("`SolveSudoku` accepts any valid answer (`any_valid`)"),
        "{err}"
    );
}

/// A checker that hangs without spending CPU (a futex nobody wakes) is stopped at the
/// check host's wall limit: the case is unresolved, never the student's `fail`, and the
/// grader never waits on it for good.
#[test]
fn a_checker_that_hangs_is_stopped_and_unresolved() {
    if !full_suite("package::a_checker_that_hangs_is_stopped_and_unresolved") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let pkg = example_in(work.path(), "sudoku");
    let problems = pkg.to_str().unwrap().to_string();
    let checker = pkg.join("checker/sudoku_check.c");
    let good = std::fs::read_to_string(&checker).unwrap();
    std::fs::write(
        &checker,
        good.replace(
            "    const struct lg_input *puzzle",
            "    const struct lg_input *mine = lg_input_named(answer, nanswer, \"grid\");\n\
             const struct lg_input *theirs = lg_input_named(reference, nreference, \"grid\");\n\
             static int never;\n\
             if (memcmp(mine->values, theirs->values, 81 * sizeof(long long)) != 0)\n\
                 for (;;) syscall(SYS_futex, &never, FUTEX_WAIT, 0, 0, 0, 0);\n\
             const struct lg_input *puzzle",
        )
        .replace(
            "#include <stdio.h>",
            "#include <stdio.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n#include <linux/futex.h>",
        ),
    )
    .unwrap();
    let sub = pkg.join("samples/column-major");
    let (code, report) = check_report_with(&["--problems", &problems], "sudoku", &sub);
    let empty = case(&report, "SolveSudoku/an empty grid");
    let m = empty["message"].as_str().unwrap();
    assert!(
        m.contains("lg_check gave no verdict within 30 s") && m.contains("not your fault"),
        "{empty}"
    );
    assert_eq!(empty["verdict"], "internal-error", "{empty}");
    assert_eq!(code, Some(3), "{}", messages(&report));
}

/// A package's student bundle carries the sources of its own libraries (the world students'
/// code calls, the checker that judges their answers) and never its reference, and its
/// checker builds and runs them as `labgrade check` does: the same verdicts, messages and
/// scores.
#[test]
fn a_package_s_student_bundle_runs_its_own_libraries_as_check_does() {
    let work = tempfile::tempdir().unwrap();
    for (problem, library, samples) in [
        ("robot-maze", "world/robot_world.c", &["keeps-marks"][..]),
        (
            "sudoku",
            "checker/sudoku_check.c",
            &["forgets-boxes", "column-major"][..],
        ),
    ] {
        let bundle = work.path().join(problem);
        export_student(
            &["--problems", examples().to_str().unwrap()],
            problem,
            &bundle,
        );
        let pkg = bundle.join("packages").join(problem);
        assert!(pkg.join(library).is_file(), "{problem}");
        assert!(!pkg.join("reference").exists(), "{problem}");
        bundle_grades_as_check(&bundle, problem, samples);
    }
}

/// A package may use a world of the catalogue's instead of a library of its own
/// (`tests/packages/pixel-count`: paint-fill's pixel map, `[kit.world] catalogue`): made and
/// recorded as for paint-fill, its refusals in the map's words; every sample as declared.
#[test]
fn a_package_may_use_a_world_of_the_catalogue() {
    let dir = repo().join("tests/packages");
    let out = labgrade(&["test", "--problems", dir.to_str().unwrap(), "pixel-count"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for sample in ["reference", "correct", "counts-outside"] {
        assert!(
            text.contains(&format!("ok   {sample} (")),
            "{sample}: {text}"
        );
    }
}

/// A class graded against a package's own libraries (robot-maze's world host per run,
/// sudoku's check host per judged answer) gets the same grades at `-j 16`, far above the
/// core count, as at `-j 1`.
#[test]
fn a_package_class_gets_the_same_grades_at_any_j() {
    let work = tempfile::tempdir().unwrap();
    let dir = examples();
    for problem in ["robot-maze", "sudoku"] {
        let class = work.path().join(problem).join("class");
        for sample in std::fs::read_dir(dir.join(problem).join("samples")).unwrap() {
            let sample = sample.unwrap();
            let to = class.join(sample.file_name());
            copy_dir(&sample.path(), &to);
            std::fs::remove_file(to.join("expect.toml")).unwrap();
        }
        let grades = |jobs: &str| {
            let out_dir = work.path().join(problem).join(format!("grades-{jobs}"));
            let out = labgrade(&[
                "--problems",
                dir.to_str().unwrap(),
                "--jobs",
                jobs,
                "grade",
                problem,
                class.to_str().unwrap(),
                "--out",
                out_dir.to_str().unwrap(),
                "--force",
            ]);
            assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
            std::fs::read_to_string(out_dir.join("grades.csv")).unwrap()
        };
        let (one, sixteen) = (grades("1"), grades("16"));
        assert_eq!(one, sixteen, "{problem}");
        assert!(one.lines().count() > 3, "{one}");
    }
}

/// `labgrade test -v` shows each build's compiler output (a sample that does not compile:
/// the compiler's error under it, where without `-v` only "the build failed:" was seen); a
/// package with no samples passes with a warning that it proves nothing about students.
#[test]
fn test_verbose_shows_compiler_output_and_a_package_without_samples_is_warned() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    let out = labgrade(&["new", "word-sums", "--dir", course.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pkg = course.join("word-sums");
    // The correct sample, broken: it no longer compiles, so its declared passes fail.
    let broken = pkg.join("samples/correct/word_sums.c");
    let text = std::fs::read_to_string(&broken).unwrap();
    std::fs::write(
        &broken,
        format!("{text}\nint broken(void) {{ return undeclared_name; }}\n"),
    )
    .unwrap();
    let test = |extra: &[&str]| {
        let mut args = vec!["test", "--problems", course.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.push("word-sums");
        let out = labgrade(&args);
        (out.status.code(), stdout(&out))
    };
    let (code, plain) = test(&[]);
    assert_eq!(code, Some(1), "{plain}");
    assert!(!plain.contains("undeclared_name"), "{plain}");
    let (code, verbose) = test(&["-v"]);
    assert_eq!(code, Some(1), "{verbose}");
    assert!(
        verbose.contains("the compiler said:") && verbose.contains("undeclared_name"),
        "{verbose}"
    );
    assert!(!plain.contains("no samples"), "{plain}");
    // No samples at all: the reference alone passes, with the warning.
    std::fs::remove_dir_all(pkg.join("samples")).unwrap();
    let (code, alone) = test(&[]);
    assert_eq!(code, Some(0), "{alone}");
    assert!(
        alone.contains("warning: no samples") && alone.contains("1 passed, 0 failed"),
        "{alone}"
    );
}

/// A fixture whose array has another length than the argument that sizes it is a fixture
/// error at the case's line, naming both (it was "the reference crashed"); nothing runs.
#[test]
fn an_array_whose_length_its_size_argument_contradicts_is_a_fixture_error() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    let out = labgrade(&["new", "word-sums", "--dir", course.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fixture = course.join("word-sums/fixtures/10-can-make-sum.toml");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("args = [[3, 5, 9], 3, 13]"))
        .unwrap()
        + 1;
    std::fs::write(
        &fixture,
        text.replace("args = [[3, 5, 9], 3, 13]", "args = [[3, 5, 9], 4, 13]"),
    )
    .unwrap();
    let out = labgrade(&["test", "--problems", course.to_str().unwrap(), "word-sums"]);
    let said = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "10-can-make-sum.toml:{line}: case `CanMakeSum/3 5 9, 13`"
        )) && said.contains("`set`")
            && said.contains("has 3 value(s), but its size `n` is 4"),
        "{said}"
    );
    assert!(!said.contains("crashed"), "{said}");
}

/// A package says, with no C, that a function may be static (no note when labgrade makes it
/// callable) and that a name is strict (a near spelling is then not taken for it: the cases
/// fail, saying the exact name is required). Without either, the note and the near spelling
/// stay as before.
#[test]
fn a_package_says_a_function_may_be_static_and_a_name_is_strict() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    let out = labgrade(&["new", "word-sums", "--dir", course.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let correct = course.join("word-sums/samples/correct/word_sums.c");
    let code = std::fs::read_to_string(&correct).unwrap();
    let submission = |name: &str, text: String| {
        let dir = work.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("word_sums.c"), text).unwrap();
        dir
    };
    let statics = submission(
        "static",
        code.replace(
            "bool CanMakeSum(const int set[], int n, int target) {",
            "static bool CanMakeSum(const int set[], int n, int target) {",
        )
        .replace(
            "static bool WithLast(",
            "static bool CanMakeSum(const int set[], int n, int target);\n\nstatic bool WithLast(",
        ),
    );
    let respelled = submission(
        "respelled",
        code.replace("CanMakeSum(", "can_make_sum(").replace(
            "static bool WithLast(",
            "bool can_make_sum(const int set[], int n, int target);\n\nstatic bool WithLast(",
        ),
    );
    let problems = ["--problems", course.to_str().unwrap()];
    let notes = |r: &serde_json::Value| r["build"]["notes"].to_string();
    let grade = |sub: &Path| check_report_with(&problems, "word-sums", sub).1;

    let r = grade(&statics);
    assert_eq!(r["score"], r["max_score"], "{r}");
    assert!(
        notes(&r).contains("`CanMakeSum` is static"),
        "{}",
        notes(&r)
    );
    let r = grade(&respelled);
    assert_eq!(r["score"], r["max_score"], "{r}");
    assert!(
        notes(&r).contains("spelled `can_make_sum`"),
        "{}",
        notes(&r)
    );

    let spec = course.join("word-sums/problem.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replace(
            "counted = [\"CanMakeSum\"]",
            "counted = [\"CanMakeSum\"]\nmay_be_static = [\"CanMakeSum\"]\n\
             strict_names = [\"CanMakeSum\"]",
        ),
    )
    .unwrap();
    let r = grade(&statics);
    assert_eq!(r["score"], r["max_score"], "{r}");
    assert!(!notes(&r).contains("is static"), "{}", notes(&r));
    let r = grade(&respelled);
    // The build's point only: every case of CanMakeSum fails.
    assert_eq!(r["score"], 1.0, "{r}");
    let c = case(&r, "CanMakeSum/3 5 9, 14");
    assert_eq!(c["verdict"], "missing-symbol", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("requires the exact name `CanMakeSum`"),
        "{c}"
    );
}

/// A package names a mistake by its evidence alone, with no C (`evidence = "memoised"`): a
/// memoised search (right answers, fewer calls, as deep) is told so on its calls cases; a
/// search that is merely another one (exclude-first: fewer calls on some cases, more on
/// others) and a wrong one are never told.
#[test]
fn a_package_names_a_memoised_search_by_its_evidence_alone() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    let out = labgrade(&["new", "word-sums", "--dir", course.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pkg = course.join("word-sums");
    let mistake = pkg.join("mistakes/memoised");
    std::fs::create_dir_all(&mistake).unwrap();
    std::fs::write(
        mistake.join("mistake.toml"),
        "says = \"you memoised: this lab asks for the plain search, which tries every \
         choice again\"\nevidence = \"memoised\"\n",
    )
    .unwrap();
    // A set whose sums repeat, and a target no subset reaches: a memo saves most calls.
    let fixture = pkg.join("fixtures/10-can-make-sum.toml");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let text = text.trim_end().trim_end_matches(']').to_string()
        + "  { name = \"CanMakeSum/ones, 100/calls\", call = \"CanMakeSum\", \
           args = [[1, 1, 1, 1, 1, 1, 1, 1], 8, 100], compare = [\"calls\", \"max_depth\"] },\n]\n";
    std::fs::write(&fixture, text).unwrap();
    let memo = work.path().join("memo");
    std::fs::create_dir_all(&memo).unwrap();
    std::fs::write(
        memo.join("word_sums.c"),
        "#include <string.h>\n#include \"word_sums.h\"\n\
         static signed char memo[64][4096];\nstatic int active;\n\
         static bool Search(const int set[], int n, int target) {\n\
             if (target == 0) return true;\n    if (n == 0) return false;\n\
             signed char *m = &memo[n][target + 2048];\n\
             if (*m) return *m > 0;\n\
             bool r = CanMakeSum(set, n - 1, target - set[n - 1]) || CanMakeSum(set, n - 1, target);\n\
             *m = r ? 1 : -1;\n    return r;\n}\n\
         bool CanMakeSum(const int set[], int n, int target) {\n\
             if (active++ == 0) memset(memo, 0, sizeof memo);\n\
             bool r = Search(set, n, target);\n    active--;\n    return r;\n}\n",
    )
    .unwrap();
    let problems = ["--problems", course.to_str().unwrap()];
    let (_, r) = check_report_with(&problems, "word-sums", &memo);
    let c = case(&r, "CanMakeSum/ones, 100/calls");
    assert_eq!(c["verdict"], "fail", "{c}");
    let said = c["message"].as_str().unwrap();
    assert!(
        said.contains("you memoised") && said.contains("(`memoised`)"),
        "{said}"
    );
    assert_eq!(case(&r, "CanMakeSum/3 5 9, 13")["verdict"], "pass");
    // Another search and a wrong one: never told.
    for sample in ["exclude-first", "always-false"] {
        let (_, r) = check_report_with(&problems, "word-sums", &pkg.join("samples").join(sample));
        let all = r["cases"].to_string();
        assert!(!all.contains("you memoised"), "{sample}: {all}");
    }
}
