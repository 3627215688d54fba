//! `labgrade grade`: a class directory, in parallel, into a gradebook.

use std::process::Command;

use serde_json::Value;

use crate::util::*;

#[test]
fn fifty_submissions_in_parallel_leave_one_json_each_and_a_csv() {
    let class = tempfile::tempdir().unwrap();
    let samples = [
        "book-cpp",
        "c-version",
        "memoised",
        "wrong-fallback",
        "wrong-base-case",
        "max-move-off-by-one",
        "crashes",
        "warning",
        "missing-function",
    ];
    let mut n = 0;
    'outer: for round in 0.. {
        for s in samples {
            if n == 46 {
                break 'outer;
            }
            copy_dir(&sample(s), &class.path().join(format!("{s}-{round:02}")));
            n += 1;
        }
    }
    // Broken entries never stop the others.
    copy_dir(
        &sample("does-not-compile"),
        &class.path().join("broken-build"),
    );
    std::fs::write(class.path().join("notes.txt"), "not a submission").unwrap();
    std::fs::create_dir(class.path().join("empty")).unwrap();
    copy_dir(&sample("never-terminates"), &class.path().join("loops"));
    // Names a student chooses: two that one file name would merge, and a formula.
    copy_dir(&sample("c-version"), &class.path().join("a b"));
    copy_dir(&sample("wrong-fallback"), &class.path().join("a_b"));
    copy_dir(&sample("c-version"), &class.path().join("=1+1"));
    let out_dir = class.path().join("out");
    let out = labgrade(&[
        "grade",
        "nim",
        class.path().to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}\n{}", stderr(&out));
    let jsons: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(jsons.len(), 53, "{text}");
    let csv = std::fs::read_to_string(out_dir.join("grades.csv")).unwrap();
    assert_eq!(csv.lines().count(), 54, "{csv}");
    // The formula is text in the gradebook, never evaluated.
    assert!(csv.lines().any(|l| l.starts_with("'=1+1,'=1+1,")), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with("=1+1")), "{csv}");
    assert!(
        csv.starts_with("student_id,submission,score,max_score,percent,tag:"),
        "{csv}"
    );
    assert!(!csv.contains(",case:"), "{csv}");

    let read = |name: &str| -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(out_dir.join(format!("{name}.json"))).unwrap(),
        )
        .unwrap()
    };
    // Every copy of the book's program scores the same full marks.
    let full = read("book-cpp-00");
    assert_eq!(full["score"], full["max_score"]);
    for round in 1..5 {
        assert_eq!(
            read(&format!("book-cpp-{round:02}"))["score"],
            full["score"]
        );
    }
    let verdicts = |v: &Value| -> Vec<String> {
        v["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(verdicts(&read("broken-build"))
        .iter()
        .all(|v| v == "build-error"));
    // `a b` and `a_b` each keep their own report (in sorted order: `a b` first).
    assert_eq!(read("a_b")["submission"], "a b");
    assert_eq!(read("a_b-2")["submission"], "a_b");
    assert_ne!(read("a_b")["score"], read("a_b-2")["score"]);
    assert_eq!(read("_1_1")["submission"], "=1+1");
    assert!(verdicts(&read("notes_txt"))
        .iter()
        .all(|v| v == "load-error"));
    assert!(verdicts(&read("empty")).iter().all(|v| v == "load-error"));
    assert!(verdicts(&read("loops")).iter().any(|v| v == "timeout"));
    assert!(text.contains("book-cpp-00"), "{text}");
}

#[test]
fn each_report_is_written_when_its_submission_is_graded_so_a_killed_grader_keeps_them() {
    let class = tempfile::tempdir().unwrap();
    copy_dir(&sample("c-version"), &class.path().join("a-fast"));
    // Ten runs that each burn their CPU limit: graded long after a-fast.
    copy_dir(&sample("never-terminates"), &class.path().join("z-slow"));
    let out_dir = class.path().join("out");
    let mut child = std::process::Command::new(labgrade_bin())
        .args(["grade", "nim"])
        .arg(class.path())
        .arg("--out")
        .arg(&out_dir)
        .args(["--jobs", "1", "--cache-dir"])
        .arg(cache_dir())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let fast = out_dir.join("a-fast.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !fast.exists() && std::time::Instant::now() < deadline {
        assert!(
            child.try_wait().unwrap().is_none(),
            "labgrade ended before a-fast's report appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // a-fast's report is there while z-slow is still being graded; then the grader dies.
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(still_running, "the report only appeared at the end");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&fast).unwrap()).unwrap();
    assert_eq!(report["submission"], "a-fast");
    assert_eq!(report["score"], report["max_score"]);
    // Nothing half written is left behind.
    for e in std::fs::read_dir(&out_dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            let text = std::fs::read_to_string(e.path()).unwrap();
            assert!(serde_json::from_str::<Value>(&text).is_ok(), "{name}");
        }
    }
}

#[test]
fn a_student_bundle_holds_the_visible_cases_only_and_runs_from_anywhere() {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("nim-checker");
    let out = labgrade(&["export", "--student", "nim", bundle.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Hidden cases are absent from the bundle, not just skipped.
    let mut fixtures = String::new();
    for e in std::fs::read_dir(bundle.join("fixtures/nim"))
        .unwrap()
        .flatten()
    {
        fixtures.push_str(&std::fs::read_to_string(e.path()).unwrap());
    }
    assert!(fixtures.contains("FindGoodMove/15/return"));
    assert!(
        !fixtures.contains("FindGoodMove/16/return"),
        "a hidden case leaked"
    );
    assert!(!fixtures.contains("hidden"), "{fixtures}");
    // Its labgrade finds its data beside itself, from a directory with no specs around it,
    // and --all has nothing more to run.
    let sub = sample("c-version");
    let run = Command::new(bundle.join("bin/labgrade"))
        .args([
            "check",
            "nim",
            sub.to_str().unwrap(),
            "--all",
            "--format",
            "json",
        ])
        .arg("--cache-dir")
        .arg(cache_dir())
        .current_dir(work.path())
        .env_remove("LABGRADE_ROOT")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let r: Value = serde_json::from_str(&stdout(&run)).unwrap();
    let names: Vec<&str> = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"FindGoodMove/15/return"));
    assert!(!names.contains(&"FindGoodMove/16/return"));
    // A bundle is written only into a new or empty directory.
    let again = labgrade(&["export", "--student", "nim", bundle.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
}
