//! `labgrade grade`: a class directory, in parallel, into a gradebook.

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
    assert!(csv.lines().any(|l| l.starts_with("'=1+1,")), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with("=1+1")), "{csv}");
    assert!(csv.starts_with("submission,score,max_score"), "{csv}");

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
