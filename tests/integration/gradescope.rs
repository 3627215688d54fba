//! `labgrade gradescope`: the autograder zip, and its scripts run as Gradescope runs them, in
//! a temporary root laid out as `/autograder` is (`AUTOGRADER_ROOT`).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::util::*;

/// Unpacks `zip` into `dir`, keeping the modes it records.
pub(crate) fn unzip(zip: &Path, dir: &Path) {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let path = dir.join(entry.enclosed_name().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut out = std::fs::File::create(&path).unwrap();
        std::io::copy(&mut entry, &mut out).unwrap();
        if let Some(mode) = entry.unix_mode() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode & 0o777)).unwrap();
        }
    }
}

/// Runs one of the bundle's scripts with `root` as /autograder.
fn script(root: &Path, name: &str) -> std::process::Output {
    Command::new(root.join("source").join(name))
        .env("AUTOGRADER_ROOT", root)
        .env("HOME", root)
        .env_remove("XDG_CACHE_HOME")
        .env_remove("LABGRADE_CACHE")
        .env_remove("LABGRADE_ROOT")
        .output()
        .unwrap()
}

/// Grades `submission` (its files copied into `root/submission`) with run_autograder.
pub(crate) fn grade_with_bundle(root: &Path, submission: &Path) -> Value {
    let sub = root.join("submission");
    let _ = std::fs::remove_dir_all(&sub);
    std::fs::create_dir_all(&sub).unwrap();
    for e in std::fs::read_dir(submission).unwrap().flatten() {
        if e.file_name() != "expect.toml" && e.path().is_file() {
            std::fs::copy(e.path(), sub.join(e.file_name())).unwrap();
        }
    }
    let out = script(root, "run_autograder");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(root.join("results/results.json")).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn the_autograder_zip_grades_as_check_does_and_always_leaves_results() {
    if !full_suite("gradescope::the_autograder_zip_grades_as_check_does_and_always_leaves_results")
    {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let zip = work.path().join("autograder.zip");
    let out = labgrade(&["gradescope", "nim", "-o", zip.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // How many students see, as the student bundle counts them (not every case).
    let said = stdout(&out);
    let bundle = work.path().join("bundle");
    let student = labgrade(&["export", "--student", "nim", bundle.to_str().unwrap()]);
    let visible = stdout(&student)
        .split_whitespace()
        .nth(2)
        .unwrap()
        .to_string();
    assert!(
        said.contains(&format!("cases ({visible} visible to students,")),
        "{said}\n{}",
        stdout(&student)
    );
    let root = work.path().join("autograder");
    unzip(&zip, &root.join("source"));
    for exe in [
        "setup.sh",
        "run_autograder",
        "bin/labgrade",
        "bin/labgrade-worker",
    ] {
        let mode = std::fs::metadata(root.join("source").join(exe))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "{exe} is not executable in the zip");
    }
    let setup = script(&root, "setup.sh");
    assert!(
        setup.status.success(),
        "{}{}",
        stdout(&setup),
        stderr(&setup)
    );

    // A correct submission: every case, hidden ones included, the score check --all gives.
    let sample = repo().join("tests/submissions/nim/c-version");
    let results = grade_with_bundle(&root, &sample);
    let checked = labgrade(&[
        "check",
        "nim",
        sample.to_str().unwrap(),
        "--all",
        "--format",
        "json",
    ]);
    let checked: Value = serde_json::from_str(&stdout(&checked)).unwrap();
    assert_eq!(results["score"], checked["score"], "{results:#}");
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), checked["cases"].as_array().unwrap().len());
    assert!(
        tests.iter().any(|t| t["visibility"] == "hidden"),
        "the hidden cases are in the bundle"
    );

    // A submission labgrade cannot load: score 0 and why, not "autograder failed".
    let results = grade_with_bundle(&root, &repo().join("tests/submissions/nim/two-mains"));
    assert_eq!(results["score"], 0, "{results:#}");
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("`main` functions"), "{output}");

    // labgrade itself broken: the script still leaves results that say so, and no score
    // (labgrade's failure is never the student's 0).
    std::fs::write(root.join("source/bin/labgrade"), "#!/bin/sh\nexit 101\n").unwrap();
    let results = grade_with_bundle(&root, &sample);
    assert!(results.get("score").is_none(), "{results:#}");
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("could not grade this submission (its own failure, not yours)"),
        "{results:#}"
    );
}

/// The course deployed is the course graded: `gradescope --course` carries the course file
/// in the zip and `run_autograder` grades with it: each sample's score, cases, visibility
/// and messages are those of `check --course --all --format gradescope`.
#[test]
fn the_autograder_zip_carries_the_course_and_grades_with_it() {
    if !full_suite("gradescope::the_autograder_zip_carries_the_course_and_grades_with_it") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let course_dir = repo().join("tests/submissions/nim/course-no-good-move-0");
    let course = course_dir.join("course.toml");
    let zip = work.path().join("autograder.zip");
    let out = labgrade(&[
        "--course",
        course.to_str().unwrap(),
        "gradescope",
        "nim",
        "-o",
        zip.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let root = work.path().join("autograder");
    unzip(&zip, &root.join("source"));
    assert!(root.join("source/course/course.toml").is_file());
    let script = std::fs::read_to_string(root.join("source/run_autograder")).unwrap();
    assert!(script.contains("--course"), "{script}");
    for sample in ["course-no-good-move-0", "c-version"] {
        let dir = repo().join("tests/submissions/nim").join(sample);
        let results = grade_with_bundle(&root, &dir);
        let checked = labgrade(&[
            "--course",
            course.to_str().unwrap(),
            "check",
            "nim",
            dir.to_str().unwrap(),
            "--all",
            "--format",
            "gradescope",
        ]);
        let checked: Value = serde_json::from_str(&stdout(&checked)).unwrap();
        assert_eq!(results["score"], checked["score"], "{sample}: {results:#}");
        let strip = |v: &Value| -> Vec<(Value, Value, Value, Value)> {
            v["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["name"].clone(),
                        t["score"].clone(),
                        t["visibility"].clone(),
                        t["output"].clone(),
                    )
                })
                .collect()
        };
        assert_eq!(strip(&results), strip(&checked), "{sample}");
    }
    // The course's own sample gets every point only with the course (NO_GOOD_MOVE = 0).
    let results = grade_with_bundle(&root, &course_dir);
    assert_eq!(
        results["score"],
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["max_score"].as_f64().unwrap())
            .sum::<f64>(),
        "{results:#}"
    );
}

#[test]
fn a_course_chooses_when_cases_are_shown_and_a_failed_build_is_told_once() {
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course.toml");
    std::fs::write(
        &course,
        "[[nim.cases]]\nmatch = \"FindGoodMove/*\"\nvisibility = \"after_due_date\"\n\n\
         [[nim.cases]]\nmatch = \"game/*\"\nvisibility = \"after_published\"\n",
    )
    .unwrap();
    let sample = repo().join("tests/submissions/nim/c-version");
    let out = labgrade(&[
        "check",
        "nim",
        sample.to_str().unwrap(),
        "--all",
        "--format",
        "gradescope",
        "--course",
        course.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let tests = v["tests"].as_array().unwrap();
    let visibility = |name: &str| {
        tests
            .iter()
            .find(|t| t["name"].as_str().unwrap().starts_with(name))
            .map(|t| t["visibility"].clone())
    };
    assert_eq!(visibility("FindGoodMove/"), Some(json!("after_due_date")));
    assert_eq!(visibility("game/"), Some(json!("after_published")));
    assert_eq!(visibility("IsBadPosition/"), Some(json!("visible")));

    // A build error: the compiler's output in one test, not in every case's.
    let broken = repo().join("tests/submissions/nim/does-not-compile");
    let out = labgrade(&[
        "check",
        "nim",
        broken.to_str().unwrap(),
        "--all",
        "--format",
        "gradescope",
    ]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests[0]["name"], "build", "{v:#}");
    let output = tests[0]["output"].as_str().unwrap();
    let first_error = output
        .lines()
        .find(|l| l.contains("error"))
        .expect("the compiler's error")
        .to_string();
    assert_eq!(
        v.to_string()
            .matches(&first_error.replace('"', "\\\""))
            .count(),
        1,
        "{v:#}"
    );
}
