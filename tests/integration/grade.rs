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
    // notes.txt is no student: skipped and listed, not graded as a 0-point submission.
    assert_eq!(jsons.len(), 52, "{text}");
    assert!(
        text.contains("skipped: notes.txt (not a submission: a text file)"),
        "{text}"
    );
    let csv = std::fs::read_to_string(out_dir.join("grades.csv")).unwrap();
    assert_eq!(csv.lines().count(), 53, "{csv}");
    // The formula is text in the gradebook, never evaluated.
    assert!(csv.lines().any(|l| l.starts_with("'=1+1,'=1+1,")), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with("=1+1")), "{csv}");
    assert!(
        csv.starts_with(
            "student_id,submission,score,max_score,percent,status,name,late,submitted_at,tag:"
        ),
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
    assert!(!out_dir.join("notes_txt.json").exists());
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
    // The same command again resumes: a-fast is not graded again, the rest is (z-slow,
    // meanwhile handed in again, fixed).
    std::fs::remove_dir_all(class.path().join("z-slow")).unwrap();
    copy_dir(&sample("c-version"), &class.path().join("z-slow"));
    let (code, text) = grade(class.path(), &out_dir, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("reused 1 of 2 result(s) from an earlier run"),
        "{text}"
    );
    let listing = std::fs::read_to_string(out_dir.join("class.csv")).unwrap();
    assert!(listing.contains("a-fast,a-fast,,reused,"), "{listing}");
    assert!(listing.contains("z-slow,z-slow,,graded,"), "{listing}");
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
    // FindGoodMove/2..15 are written as one `each` line, 16..22 as hidden lines of their own.
    assert!(fixtures.contains("FindGoodMove/{n}/return"), "{fixtures}");
    assert!(fixtures.contains("\"2..=15\""), "{fixtures}");
    assert!(
        !fixtures.contains("\"16..=22\""),
        "a hidden case leaked: {fixtures}"
    );
    assert!(!fixtures.contains("hidden"), "{fixtures}");
    // Its labgrade finds its data beside itself, from a directory with no specs around it,
    // and --all has nothing more to run.
    let sub = sample("c-version");
    let (code, text, err) = in_bundle(
        &bundle,
        work.path(),
        &[
            "check",
            "nim",
            sub.to_str().unwrap(),
            "--all",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let r: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"FindGoodMove/15/return"));
    assert!(!names.contains(&"FindGoodMove/16/return"));
    // Its labgrade is the checker with no solver: an explanation that reads another
    // reading of the constants finds it in the bundle's evidence, computed at export.
    assert_eq!(
        std::fs::read(bundle.join("bin/labgrade-check")).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_labgrade-check")).unwrap()
    );
    let sub = sample("max-move-off-by-one");
    let (_, text, err) = in_bundle(
        &bundle,
        work.path(),
        &["check", "nim", sub.to_str().unwrap(), "--format", "json"],
    );
    assert!(
        text.contains("If your course uses MAX_MOVE = 2"),
        "{text}\n{err}"
    );
    // Where it runs is said in README.txt, and on another system (a `uname` that says
    // macOS here) bin/labgrade stops with that sentence instead of failing to execute.
    let readme = std::fs::read_to_string(bundle.join("README.txt")).unwrap();
    assert!(
        readme.contains("Linux on x86-64 (on Windows, inside WSL), with gcc and g++"),
        "{readme}"
    );
    let fake = work.path().join("fake-uname");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(
        fake.join("uname"),
        "#!/bin/sh\ncase \"$1\" in -s) echo Darwin ;; *) echo arm64 ;; esac\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(fake.join("uname"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        fake.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new(bundle.join("bin/labgrade"))
        .args(["check", "nim", sub.to_str().unwrap()])
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("runs on Linux on x86-64 (on Windows, inside WSL)")
            && stderr(&out).contains("this machine is Darwin arm64"),
        "{}",
        stderr(&out)
    );
    // A bundle is written only into a new or empty directory.
    let again = labgrade(&["export", "--student", "nim", bundle.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
}

/// Runs `labgrade grade nim CLASS --out OUT` with `extra` arguments and the shared cache.
fn grade(class: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "grade",
        "nim",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
    ];
    args.extend_from_slice(extra);
    let o = labgrade(&args);
    let text = stdout(&o);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{text}\n{}",
        stderr(&o)
    );
    (o.status.code().unwrap(), text)
}

fn report(out: &std::path::Path, stem: &str) -> Value {
    let path = out.join(format!("{stem}.json"));
    serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

#[test]
fn grade_skips_notes_and_readmes_in_a_plain_class_and_lists_them() {
    let class = tempfile::tempdir().unwrap();
    let c = class.path();
    copy_dir(&sample("c-version"), &c.join("alice"));
    copy_dir(&sample("wrong-fallback"), &c.join("bob"));
    std::fs::write(c.join("STARTER-NOTES.md"), "# Notes for the TAs\n").unwrap();
    std::fs::write(c.join("README.txt"), "grade me\n").unwrap();
    std::fs::write(c.join(".DS_Store"), "").unwrap();
    let out = c.join("out");
    let (code, text) = grade(c, &out, &[]);
    assert_eq!(code, 1, "{text}");
    // Every report is readable by whoever reads grades.csv (a course's web server): the
    // same mode, never a temporary file's 0600.
    use std::os::unix::fs::PermissionsExt;
    let mode = |name: &str| {
        std::fs::metadata(out.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    for name in ["report.html", "alice.json", "class.csv"] {
        assert_eq!(mode(name), mode("grades.csv"), "{name}");
    }
    // Not on a terminal (this test's pipe, a CI log): a line per submission as it finishes.
    let log = stderr(&labgrade(&[
        "grade",
        "nim",
        c.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]));
    for who in ["alice 139/139", "bob "] {
        assert!(
            log.lines()
                .any(|l| l.starts_with("graded ") && l.contains("/2 after ") && l.contains(who)),
            "{log}"
        );
    }
    assert!(
        text.contains("grading a plain class directory: 2 submission(s), 4 other entries skipped"),
        "{text}"
    );
    assert!(
        text.contains("skipped: STARTER-NOTES.md (not a submission: a text file)"),
        "{text}"
    );
    assert!(
        text.contains("skipped: README.txt (not a submission: a text file)"),
        "{text}"
    );
    assert!(
        text.contains("skipped: out (the output directory)"),
        "{text}"
    );
    // Only the students are graded: the gradebook has two rows, the mean is theirs.
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(!csv.contains("STARTER"), "{csv}");
    assert!(!out.join("STARTER-NOTES_md.json").exists());
    assert_eq!(report(&out, "alice")["student_id"], "alice");
    // class.csv says who was graded and what was skipped, and why.
    let listing = std::fs::read_to_string(out.join("class.csv")).unwrap();
    assert!(
        listing.starts_with("submission,student_id,name,status,report,reason\n"),
        "{listing}"
    );
    assert!(
        listing.contains("alice,alice,,graded,alice.json,\n"),
        "{listing}"
    );
    assert!(
        listing.contains("STARTER-NOTES.md,,,skipped,,not a submission: a text file\n"),
        "{listing}"
    );
}

#[test]
fn grade_reads_a_gradescope_export_and_names_students_from_the_roster() {
    let class = tempfile::tempdir().unwrap();
    let c = class.path();
    std::fs::write(
        c.join("submission_metadata.yml"),
        "submission_201:\n  :submitters:\n  - :name: Ada Lovelace\n    :sid: '1815'\n    \
         :email: ada@example.edu\n  :created_at: 2026-11-20 10:00:00.000000000 -08:00\n  \
         :score: 0.0\n\
         submission_202:\n  :submitters:\n  - :name: Alan Turing\n    :email: alan@example.edu\n  \
         - :name: Grace Hopper\n    :email: grace@example.edu\n",
    )
    .unwrap();
    copy_dir(&sample("c-version"), &c.join("submission_201"));
    copy_dir(&sample("wrong-fallback"), &c.join("submission_202"));
    std::fs::write(c.join("README.md"), "export notes").unwrap();
    let roster = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        roster.path(),
        "id,name,email\nu-ada,Ada L.,ada@example.edu\nu-alan,Alan T.,alan@example.edu\n\
         u-grace,Grace H.,grace@example.edu\nu-hal,Hal A.,hal@example.edu\n",
    )
    .unwrap();
    let out = c.join("grades");
    let (code, text) = grade(c, &out, &["--roster", roster.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("grading a Gradescope export: 2 submission(s), 2 other entries skipped"),
        "{text}"
    );
    let ada = report(&out, "submission_201");
    assert_eq!(ada["submission"], "submission_201");
    assert_eq!(ada["student_id"], "u-ada");
    assert_eq!(ada["score"], ada["max_score"]);
    // The roster's name, and when Gradescope says it was handed in, in the JSON and the
    // gradebook; Alan's export gives no time.
    assert_eq!(ada["student_name"], "Ada L.");
    assert_eq!(ada["submitted_at"], "2026-11-20 10:00:00.000000000 -08:00");
    assert!(
        ada.get("late").is_none(),
        "Gradescope's export does not say"
    );
    let gradebook = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(
        gradebook.contains(",graded,Ada L.,,2026-11-20 10:00:00.000000000 -08:00,"),
        "{gradebook}"
    );
    let alan = report(&out, "submission_202");
    assert_eq!(alan["student_id"], "u-alan");
    assert_ne!(alan["score"], alan["max_score"]);
    assert_eq!(alan["student_name"], "Alan T.");
    assert!(alan.get("submitted_at").is_none());
    let listing = std::fs::read_to_string(out.join("class.csv")).unwrap();
    assert!(
        listing.contains("submission_201,u-ada,Ada L.,graded,submission_201.json,\n"),
        "{listing}"
    );
    // Alan's group partner: the same grade under her own roster id and name, never missing.
    assert_eq!(alan["partners"][0]["id"], "u-grace");
    let alan_row = |id: &str| {
        gradebook
            .lines()
            .find(|l| l.starts_with(&format!("{id},submission_202,")))
            .unwrap_or_else(|| panic!("no row for {id}: {gradebook}"))
            .to_string()
    };
    let (alan_row, grace_row) = (alan_row("u-alan"), alan_row("u-grace"));
    assert!(grace_row.contains(",Grace H.,"), "{grace_row}");
    assert_eq!(
        alan_row
            .splitn(3, ',')
            .nth(2)
            .unwrap()
            .replace("Alan T.", "Grace H."),
        grace_row.splitn(3, ',').nth(2).unwrap()
    );
    assert!(
        listing.contains("submission_202,u-grace,Grace H.,graded,submission_202.json,in a group\n"),
        "{listing}"
    );
    assert!(!listing.contains("u-grace,Grace H.,missing"), "{listing}");
    assert!(
        listing.contains(",u-hal,Hal A.,missing,,\"on the roster, no submission\"\n"),
        "{listing}"
    );
}

#[test]
fn grade_reuses_earlier_results_until_a_submission_changes_and_force_regrades_all() {
    let class = tempfile::tempdir().unwrap();
    let c = class.path();
    for (name, s) in [
        ("alice", "c-version"),
        ("bob", "wrong-fallback"),
        ("carol", "book-cpp"),
    ] {
        copy_dir(&sample(s), &c.join(name));
    }
    let out = c.join("out");
    let (_, first) = grade(c, &out, &[]);
    assert!(!first.contains("reused"), "{first}");
    let before: Vec<String> = ["alice", "bob", "carol"]
        .iter()
        .map(|s| std::fs::read_to_string(out.join(format!("{s}.json"))).unwrap())
        .collect();
    // Nothing changed: every result is reused, and the reports are the same to the byte.
    let (_, second) = grade(c, &out, &[]);
    assert!(
        second.contains("reused 3 of 3 result(s) from an earlier run"),
        "{second}"
    );
    for (s, was) in ["alice", "bob", "carol"].iter().zip(&before) {
        let now = std::fs::read_to_string(out.join(format!("{s}.json"))).unwrap();
        assert_eq!(&now, was, "{s}");
    }
    let listing = std::fs::read_to_string(out.join("class.csv")).unwrap();
    assert!(listing.contains("bob,bob,,reused,bob.json,"), "{listing}");
    // bob fixes his fallback: only bob is graded again.
    std::fs::copy(sample("c-version").join("nim.c"), c.join("bob/nim.c")).unwrap();
    let (_, third) = grade(c, &out, &[]);
    assert!(
        third.contains("reused 2 of 3 result(s) from an earlier run"),
        "{third}"
    );
    let bob = report(&out, "bob");
    assert_eq!(bob["score"], bob["max_score"]);
    // --force grades everything again.
    let (_, forced) = grade(c, &out, &["--force"]);
    assert!(!forced.contains("reused"), "{forced}");
}

#[test]
fn grade_reads_a_canvas_export_one_submission_per_student() {
    let class = tempfile::tempdir().unwrap();
    let c = class.path();
    std::fs::copy(
        sample("c-version").join("nim.c"),
        c.join("lovelaceada_1815_90001_nim.c"),
    )
    .unwrap();
    std::fs::copy(
        sample("wrong-fallback").join("nim.c"),
        c.join("turingalan_late_1912_90002_nim.c"),
    )
    .unwrap();
    std::fs::write(c.join("STARTER-NOTES.md"), "notes").unwrap();
    let out = c.join("out");
    let (_, text) = grade(c, &out, &[]);
    assert!(
        text.contains("grading a Canvas export: 2 submission(s), 2 other entries skipped"),
        "{text}"
    );
    let ada = report(&out, "lovelaceada_1815");
    assert_eq!(ada["student_id"], "1815");
    assert_eq!(ada["score"], ada["max_score"]);
    let alan = report(&out, "turingalan_1912");
    assert_eq!(alan["student_id"], "1912");
    // Canvas's `_late_` marker is kept: in the JSON and the gradebook's `late` column.
    assert_eq!(ada["late"], false);
    assert_eq!(alan["late"], true);
    let gradebook = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let late_of = |id: &str| {
        let header: Vec<&str> = gradebook.lines().next().unwrap().split(',').collect();
        let row: Vec<&str> = gradebook
            .lines()
            .find(|l| l.starts_with(&format!("{id},")))
            .unwrap()
            .split(',')
            .collect();
        row[header.iter().position(|h| *h == "late").unwrap()].to_string()
    };
    assert_eq!(late_of("1815"), "no");
    assert_eq!(late_of("1912"), "yes");
}

/// Two labgrade processes sharing one build cache (shards on one machine, a second terminal)
/// that meet the same submission build it once: one builds, the other waits for it and
/// takes its build from the cache.
#[test]
fn two_processes_sharing_a_cache_build_a_submission_once() {
    let cache = tempfile::tempdir().unwrap();
    let sub = sample("book-cpp");
    let start = || {
        Command::new(labgrade_bin())
            .args(["--color", "never", "--cache-dir"])
            .arg(cache.path())
            .args(["check", "nim"])
            .arg(&sub)
            .args(["--format", "json"])
            .current_dir(repo())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    let mut cached = Vec::new();
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["build"]["ok"], true, "{r}");
        cached.push(r["build"]["cached"].as_bool().unwrap());
    }
    cached.sort();
    assert_eq!(cached, [false, true], "exactly one of the two built");
}

/// Whoever can write the cache but does not hold the user's key cannot set a grade: a stored
/// result edited to full marks is not reused (it is graded again, and the run says so), and
/// the cache holds no key of its own to re-sign it with.
#[test]
fn a_result_edited_in_the_cache_is_graded_again_never_reused() {
    let class = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    copy_dir(&sample("wrong-fallback"), &class.path().join("bob"));
    let out = class.path().join("out");
    let run = || {
        labgrade_with_cache(
            &[
                "grade",
                "nim",
                class.path().to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            cache.path(),
        )
    };
    run();
    let honest = report(&out, "bob");
    assert!(honest["score"].as_f64() < honest["max_score"].as_f64());
    assert!(
        !cache.path().join(".key").exists(),
        "no key inside the cache"
    );
    // Raise the stored score to the maximum, as an attacker with write access would.
    let mut edited = 0;
    for entry in walk(&cache.path().join("results")) {
        let text = std::fs::read_to_string(&entry).unwrap();
        let mut record: Value = serde_json::from_str(&text).unwrap();
        let mut inner: Value = serde_json::from_str(record["report"].as_str().unwrap()).unwrap();
        inner["score"] = inner["max_score"].clone();
        record["report"] = Value::String(inner.to_string());
        std::fs::write(&entry, record.to_string()).unwrap();
        edited += 1;
    }
    assert_eq!(edited, 1);
    let again = run();
    let text = stdout(&again);
    assert!(!text.contains("reused"), "{text}");
    assert!(
        stderr(&again).contains("failed its authentication"),
        "{}",
        stderr(&again)
    );
    assert_eq!(report(&out, "bob")["score"], honest["score"]);
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A student bundle of `problem` with no solver in it: its `bin/labgrade` is the checker
/// (`labgrade-check`), and each of `samples` grades in it exactly as `labgrade check` grades
/// it (verdicts, scores, messages). Returns the bundle's directory (in `work`).
pub(crate) fn solver_free_bundle(
    work: &std::path::Path,
    problem: &str,
    samples: &[&str],
) -> std::path::PathBuf {
    let bundle = work.join(format!("{problem}-checker"));
    let out = labgrade(&["export", "--student", problem, bundle.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("its labgrade holds no reference solver"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read(bundle.join("bin/labgrade-check")).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_labgrade-check")).unwrap(),
        "the bundle's labgrade is the checker"
    );
    assert!(bundle.join(format!("expected/{problem}.json")).is_file());
    for name in samples {
        let sub = sample_of(problem, name);
        let (code, text, err) = in_bundle(
            &bundle,
            work,
            &["check", problem, sub.to_str().unwrap(), "--format", "json"],
        );
        let full = labgrade(&["check", problem, sub.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, full.status.code(), "{name}: {err}");
        let bundled: Value = serde_json::from_str(&text).unwrap();
        let graded_full: Value = serde_json::from_str(&stdout(&full)).unwrap();
        assert_eq!(graded(&bundled), graded(&graded_full), "{name}");
        assert_eq!(bundled["score"], graded_full["score"], "{name}");
    }
    bundle
}

/// Each case of a JSON report: name, verdict, score, message.
fn graded(r: &Value) -> Vec<(String, String, String, String)> {
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].to_string(),
                c["verdict"].to_string(),
                c["score"].to_string(),
                c["message"].to_string(),
            )
        })
        .collect()
}

/// Runs the bundle's labgrade with `args` from `cwd`: exit code, stdout, stderr.
pub(crate) fn in_bundle(
    bundle: &std::path::Path,
    cwd: &std::path::Path,
    args: &[&str],
) -> (Option<i32>, String, String) {
    let run = Command::new(bundle.join("bin/labgrade"))
        .args(args)
        .arg("--cache-dir")
        .arg(cache_dir())
        .current_dir(cwd)
        .env_remove("LABGRADE_ROOT")
        .output()
        .unwrap();
    (run.status.code(), stdout(&run), stderr(&run))
}

/// A kit problem's student bundle ships the checker with no solver and the visible cases'
/// expectations, computed at export: it grades as `labgrade check` does, and a case added to
/// its fixtures is refused, never answered.
#[test]
fn a_kit_bundle_has_no_solver_and_grades_as_labgrade_does() {
    let work = tempfile::tempdir().unwrap();
    let bundle = solver_free_bundle(
        work.path(),
        "queens",
        &["handout-c", "one-diagonal", "no-remove"],
    );
    // A student who adds a case (a hidden input, say) gets no answer for it.
    let fixture = bundle.join("fixtures/queens/10-solve.toml");
    let mut text = std::fs::read_to_string(&fixture).unwrap();
    text.push_str(
        "\n[[case]]\nname = \"Solve/my own\"\ncall = \"Solve\"\n\
         args = [[], 5]\n\
         compare = [\"return\"]\n",
    );
    std::fs::write(&fixture, text).unwrap();
    let sub = sample_of("queens", "handout-c");
    let (code, _, err) = in_bundle(
        &bundle,
        work.path(),
        &["check", "queens", sub.to_str().unwrap()],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("10-solve.toml") && err.contains("this bundle holds no expectation"),
        "{err}"
    );
    // The checker runs `check` only.
    let (code, _, err) = in_bundle(
        &bundle,
        work.path(),
        &["grade", "queens", "x", "--out", "y"],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("it runs `check` only"), "{err}");
}

/// Turnpike's bundle judges the search and explains where it departs from the reference's
/// record of it, read from the bundle's evidence.
#[test]
fn a_turnpike_bundle_judges_the_search_from_its_evidence() {
    let work = tempfile::tempdir().unwrap();
    solver_free_bundle(
        work.path(),
        "turnpike",
        &["correct", "left-first", "never-undoes", "own-sorted-array"],
    );
}

/// Maze's bundle judges marks, order and paths, and draws where a search departs, from the
/// reference's record of each case in the bundle's evidence.
#[test]
fn a_maze_bundle_judges_from_its_evidence() {
    let work = tempfile::tempdir().unwrap();
    solver_free_bundle(
        work.path(),
        "maze",
        &[
            "book",
            "forgets-to-mark",
            "west-first",
            "find-path-exit-not-counted",
        ],
    );
}

/// A solver-free bundle of `problem` grades `samples` as labgrade does, and its report of
/// `sample` holds `words`: an explanation it can give only from its evidence.
fn bundle_explains(problem: &str, samples: &[&str], sample: &str, words: &str) {
    let work = tempfile::tempdir().unwrap();
    let bundle = solver_free_bundle(work.path(), problem, samples);
    let sub = sample_of(problem, sample);
    let (_, text, err) = in_bundle(
        &bundle,
        work.path(),
        &["check", problem, sub.to_str().unwrap(), "--format", "json"],
    );
    assert!(text.contains(words), "{text}\n{err}");
}

/// Weiss' bundle names pruning where the course has none from the count of the other
/// search, which labgrade computes when it explains and the bundle holds as evidence.
#[test]
fn a_weiss_bundle_names_pruning_from_its_evidence() {
    bundle_explains(
        "weiss-tictactoe",
        &["alpha-beta"],
        "alpha-beta",
        "exactly as Figure 10.73's alpha-beta pruning does",
    );
}

/// Exercise 1's bundle (the student writes the mazelib, so the reference mazelib stays
/// out of it) judges every map from its expectations and names a library that reads the
/// map upside down from the reference's record of the mirrored map, in its evidence.
#[test]
fn a_maze_lib_bundle_names_an_upside_down_reading_from_its_evidence() {
    bundle_explains(
        "maze-lib",
        &["mazelib", "upside-down"],
        "upside-down",
        "yours reads the map upside down",
    );
}

/// The lab's bundle (every case visible) names a misreading and another MAX_DEPTH from the
/// decisions in its evidence, and reports a leak exactly as labgrade does (the sanitizer's
/// process id is not part of a report).
#[test]
fn a_lab_bundle_names_misreadings_and_depths_from_its_evidence() {
    bundle_explains(
        "lab-tictactoe",
        &["max-depth-4", "shared-state", "leaky-destructor"],
        "max-depth-4",
        "your code seems to use MAX_DEPTH = 4",
    );
}

/// The game side's bundle steers the student's driver through the table of the game in its
/// evidence (its checker is the bundle's world host too), and a bundle made with a course
/// holds the course and grades with it.
#[test]
fn a_game_side_bundle_steers_from_its_table_and_keeps_its_course() {
    let work = tempfile::tempdir().unwrap();
    solver_free_bundle(
        work.path(),
        "roberts-nim-game",
        &["c-edition", "rating-wrong-side", "best-not-updated"],
    );
    let problem = "roberts-three-row-nim";
    let sub = sample_of(problem, "course-rows-1-3-5");
    let course = sub.join("course.toml");
    let bundle = work.path().join("rows-checker");
    let out = labgrade(&[
        "export",
        "--student",
        problem,
        bundle.to_str().unwrap(),
        "--course",
        course.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(bundle.join("course.toml").is_file());
    let (code, text, err) = in_bundle(
        &bundle,
        work.path(),
        &["check", problem, sub.to_str().unwrap(), "--format", "json"],
    );
    assert_eq!(code, Some(0), "{err}");
    let full = labgrade(&[
        "check",
        problem,
        sub.to_str().unwrap(),
        "--course",
        course.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let bundled: Value = serde_json::from_str(&text).unwrap();
    let graded_full: Value = serde_json::from_str(&stdout(&full)).unwrap();
    assert_eq!(graded(&bundled), graded(&graded_full));
    assert_eq!(bundled["score"], bundled["max_score"], "{text}");
}

/// `grade --fix-hints` groups a class by its smallest fixes: two students with the same
/// slip in IsBadPosition's base case are one group, another's loop bound another; the
/// groups are in report.html and each student's fix in class.csv and their report; a
/// submission that passes everything gets none.
#[test]
fn grade_groups_a_class_by_its_smallest_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let (class, out) = (dir.path().join("class"), dir.path().join("out"));
    let samples = [
        "wrong-base-case",
        "slip-base-case-two",
        "max-move-off-by-one",
        "book-cpp",
    ];
    for s in samples {
        copy_dir(&sample(s), &class.join(s));
    }
    let (_, text) = grade(&class, &out, &["--fix-hints"]);
    assert!(
        text.contains("looking for the smallest fix of 3 submission(s)"),
        "{text}"
    );
    let csv = std::fs::read_to_string(out.join("class.csv")).unwrap();
    assert!(
        csv.contains("wrong-base-case.json,,a constant in IsBadPosition (nim.cpp:219)")
            && csv.contains("a comparison in FindGoodMove (nim.c:200)"),
        "{csv}"
    );
    assert_eq!(report(&out, "book-cpp").get("fix"), None);
    assert_eq!(
        report(&out, "slip-base-case-two")["fix"]["at"],
        "nim.cpp:219"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let fixes = &html[html.find("Smallest fixes").expect("the section")..];
    assert!(fixes.contains("a constant in IsBadPosition"), "{fixes}");
    let row = &fixes[fixes.find("a constant in IsBadPosition").unwrap()..];
    assert!(
        row[..200].contains(">2<"),
        "two submissions in the group: {row}"
    );
}
