//! `labgrade check`: what a student runs.

use serde_json::Value;

use crate::util::*;

/// A nim sample, checked.
fn check_json(sample_name: &str, extra: &[&str]) -> (Option<i32>, Value) {
    check_report("nim", &sample(sample_name), extra)
}

#[test]
fn the_books_program_passes_with_counts_observed_and_json_contract_kept() {
    let (code, r) = check_json("book-cpp", &["--all"]);
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["problem"], "nim");
    assert_eq!(r["submission"], "book-cpp");
    assert_eq!(r["score"], r["max_score"]);
    for c in r["cases"].as_array().unwrap() {
        for key in [
            "name",
            "verdict",
            "score",
            "max_score",
            "observed",
            "expected",
            "message",
        ] {
            assert!(c.get(key).is_some(), "case lacks {key}: {c}");
        }
    }
    // The issue's own example: IsBadPosition is called 798 times for 13 coins.
    let c = case(&r, "FindGoodMove/13/calls");
    assert_eq!(c["verdict"], "pass");
    assert_eq!(c["observed"]["calls"]["IsBadPosition"], 798);
    assert_eq!(c["observed"]["calls"]["FindGoodMove"], 456);
    assert_eq!(c["observed"]["max_depth"]["FindGoodMove"], 12);
    // The book's IsBadPosition(0) overflows the stack: a clean verdict, as expected.
    let c = case(&r, "robustness/IsBadPosition/0");
    assert_eq!(c["verdict"], "stack-overflow");
    assert_eq!(c["passed"], true);
    // Figure 7-4, line for line.
    assert_eq!(case(&r, "game/figure-7-4")["verdict"], "pass");
    // The book's file does not include nim.h: mangled names found and explained.
    let notes = r["build"]["notes"].to_string();
    assert!(notes.contains("_Z12FindGoodMovei"), "{notes}");
}

/// The 2012 edition's design, a class with private lowercase members: labgrade calls each
/// graded function on a default-constructed object, counts the members' own calls (the
/// book's 456 and 798 for 13 coins) and says so once per function, naming the class.
#[test]
fn a_class_based_nim_is_graded_through_its_members() {
    let (code, r) = check_json("simple-nim-class", &[]);
    assert_eq!(code, Some(0), "{r:#}");
    let c = case(&r, "FindGoodMove/13/calls");
    assert_eq!(c["observed"]["calls"]["IsBadPosition"], 798);
    assert_eq!(c["observed"]["calls"]["FindGoodMove"], 456);
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains(
            "`FindGoodMove` is `SimpleNim::findGoodMove(int)`, a member function of class \
             `SimpleNim`: labgrade called it on a `SimpleNim` made by its default constructor"
        ),
        "{notes}"
    );
    assert!(!notes.contains("define it outside"), "{notes}");
}

/// Two classes with a findGoodMove: without its course file labgrade cannot tell which is
/// graded and says how a course names it; the others, in one class, are called either way.
#[test]
fn members_of_two_classes_wait_for_the_course_to_name_one() {
    let (_, r) = check_json("course-names-the-class", &[]);
    let c = case(&r, "FindGoodMove/5/return");
    assert_eq!(c["verdict"], "missing-symbol");
    let msg = c["message"].as_str().unwrap();
    assert!(
        msg.contains("2 members that could be `FindGoodMove`") && msg.contains("class = \""),
        "{msg}"
    );
    assert_eq!(case(&r, "IsBadPosition/5/return")["verdict"], "pass");
}

#[test]
fn memoising_is_named_in_the_explanation() {
    let (code, r) = check_json("memoised", &[]);
    assert_eq!(code, Some(1));
    let c = case(&r, "FindGoodMove/13/calls");
    assert_eq!(c["verdict"], "fail");
    let msg = c["message"].as_str().unwrap();
    assert!(
        msg.contains("IsBadPosition was called 798 times by the reference"),
        "{msg}"
    );
    assert!(msg.contains("you memoised"), "{msg}");
    assert!(msg.contains("first difference seen at call #"), "{msg}");
    assert_eq!(case(&r, "FindGoodMove/13/return")["verdict"], "pass");
}

#[test]
fn another_constant_is_named_only_when_it_reproduces_what_the_code_did() {
    // NO_GOOD_MOVE 0, graded without its course file: the returns on bad positions differ,
    // and the message names the constant and the course file that would fix it.
    let (_, r) = check_json("course-no-good-move-0", &[]);
    let c = case(&r, "FindGoodMove/5/return");
    assert_eq!(c["verdict"], "fail");
    let msg = c["message"].as_str().unwrap();
    assert!(
        msg.contains("exactly what Figure 7-5 returns with NO_GOOD_MOVE = 0")
            && msg.contains("params = { NO_GOOD_MOVE = 0 }"),
        "{msg}"
    );
    // With its course file it gets full marks.
    let course = sample("course-no-good-move-0").join("course.toml");
    let (code, r) = check_json(
        "course-no-good-move-0",
        &["--course", course.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{}", messages(&r));
    // A loop bound one short is MAX_MOVE = 2, said with the loop as the other possibility.
    let (_, r) = check_json("max-move-off-by-one", &[]);
    let msg = case(&r, "FindGoodMove/7/calls")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("with MAX_MOVE = 2") && msg.contains("`nTaken < MAX_MOVE`"),
        "{msg}"
    );
    assert!(!msg.contains("return as soon"), "{msg}");
    // Must not be said: a wrong fallback (3 instead of 1) is no constant of the book's.
    let (_, r) = check_json("wrong-fallback", &[]);
    assert_eq!(case(&r, "ChooseComputerMove/5/return")["verdict"], "fail");
    assert!(!messages(&r).contains("course file"), "{}", messages(&r));
}

#[test]
fn code_that_does_not_recurse_is_not_called_memoised() {
    let (_, r) = check_json("formula", &[]);
    let msg = case(&r, "FindGoodMove/7/calls")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(msg.contains("not found by recursion"), "{msg}");
    assert!(!messages(&r).contains("memoised"), "{}", messages(&r));
    // And the memoised sample is never told it does not recurse.
    let (_, r) = check_json("memoised", &[]);
    assert!(!messages(&r).contains("not found by recursion"));
}

#[test]
fn a_rust_crate_s_calls_are_counted_as_a_c_submission_s() {
    let (code, r) = check_json("rust-crate", &[]);
    let c = case(&r, "FindGoodMove/9/calls");
    assert_eq!(c["verdict"], "pass", "{c}");
    for f in ["FindGoodMove", "IsBadPosition"] {
        for aspect in ["calls", "max_depth"] {
            assert_eq!(c["observed"][aspect][f], c["expected"][aspect][f], "{c}");
        }
    }
    assert!(
        c["observed"]["calls"]["IsBadPosition"].as_u64() > Some(1),
        "{c}"
    );
    assert_eq!(code, Some(0), "{r:#}");
    // The same mistake in Rust is told as it is in C.
    let (code, r) = check_json("rust-memoised", &[]);
    let c = case(&r, "FindGoodMove/9/calls");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert!(c["message"].as_str().unwrap().contains("memoised"), "{c}");
    assert_eq!(case(&r, "FindGoodMove/9/return")["verdict"], "pass");
    assert_eq!(code, Some(1), "{r:#}");
}

#[test]
fn text_output_lists_cases_and_summarises_honestly() {
    let path = sample("wrong-fallback");
    let out = labgrade(&["check", "nim", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("ChooseComputerMove/5/return"), "{text}");
    assert!(text.contains("expected"), "{text}");
    assert!(text.contains("hidden cases are graded later"), "{text}");
    assert!(!text.contains('\x1b'), "--color never still colored");
}

#[test]
fn a_game_that_differs_shows_a_line_diff() {
    let path = sample("max-move-off-by-one");
    let out = labgrade(&["check", "nim", path.to_str().unwrap(), "--case", "game/*"]);
    let text = stdout(&out);
    assert!(text.contains("game/figure-7-4"), "{text}");
    assert!(text.contains("- expected (reference)"), "{text}");
}

/// A copy of the C sample with `edit` applied to nim.c.
fn edited_c_version(edit: impl Fn(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(sample("c-version").join("nim.c")).unwrap();
    std::fs::write(dir.path().join("nim.c"), edit(src)).unwrap();
    dir
}

fn run_json(dir: &std::path::Path) -> Value {
    let out = labgrade(&["check", "nim", dir.to_str().unwrap(), "--format", "json"]);
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)))
}

#[test]
fn opting_out_of_instrumentation_fails_the_count_cases_saying_so_not_zero_calls() {
    let dir = edited_c_version(|s| {
        s.replace(
            "int FindGoodMove(int nCoins) {",
            "__attribute__((no_instrument_function)) int FindGoodMove(int nCoins) {",
        )
    });
    let r = run_json(dir.path());
    let c = case(&r, "FindGoodMove/7/calls");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert!(
        c["max_score"].as_f64().unwrap() > 0.0,
        "it keeps its points: {c}"
    );
    let msg = c["message"].as_str().unwrap();
    assert!(msg.contains("opts out of instrumentation"), "{c}");
    assert!(
        !msg.contains("times by yours"),
        "never \"called 0 times\": {c}"
    );
    assert_eq!(case(&r, "FindGoodMove/7/return")["verdict"], "pass");
}

#[test]
fn a_student_defining_the_hooks_is_told_why_counts_are_missing() {
    let dir = edited_c_version(|s| {
        s + "\nvoid __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n\
             void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    });
    let r = run_json(dir.path());
    let c = case(&r, "FindGoodMove/7/calls");
    assert_eq!(
        c["verdict"], "fail",
        "hooks of one's own hide the counts: {c}"
    );
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("defines its own __cyg_profile_func_enter"),
        "{c}"
    );
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("defines its own __cyg_profile_func_enter"),
        "{notes}"
    );
}

#[test]
fn a_course_s_no_solution_is_named_never_taken_for_an_added_one() {
    if !full_suite("check::a_course_s_no_solution_is_named_never_taken_for_an_added_one") {
        return;
    }
    let dir = sample_of("maze", "course-no-solution-100000");
    let run = |extra: &[&str]| check_report("maze", &dir, extra).1;
    let r = run(&[]);
    let msg = case(&r, "no-exit/shortest")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(msg.contains("params = { NO_SOLUTION = 100000 }"), "{msg}");
    assert!(!msg.contains("more than NO_SOLUTION"), "{msg}");
    let course = dir.join("course.toml");
    let r = run(&["--course", course.to_str().unwrap()]);
    assert_eq!(r["score"], r["max_score"], "{}", messages(&r));
    // The sample that really adds 1 is told so, and nothing about a course.
    let (_, r) = check_report(
        "maze",
        &sample_of("maze", "shortest-forgets-no-solution"),
        &[],
    );
    let msg = case(&r, "no-exit/shortest")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("1 more than NO_SOLUTION") && !msg.contains("course"),
        "{msg}"
    );
}

#[test]
fn a_moved_is_marked_test_is_not_called_a_direction_order() {
    let json_of = |name: &str| check_report("maze", &sample_of("maze", name), &["--all"]).1;
    let r = json_of("marked-check-first");
    let all = messages(&r);
    assert!(
        all.contains("asks IsMarked before it calls SolveMaze"),
        "{all}"
    );
    assert!(!all.contains("the book tries the directions"), "{all}");
    // The sample that really loops backwards is told the order.
    let r = json_of("west-first");
    let all = messages(&r);
    assert!(all.contains("the book tries the directions"), "{all}");
    assert!(!all.contains("asks IsMarked before"), "{all}");
}

#[test]
fn a_missing_undo_is_named_as_such_not_as_a_distance_d_lacks() {
    let (_, r) = check_report(
        "turnpike",
        &sample_of("turnpike", "never-undoes"),
        &["--all"],
    );
    let msg = case(&r, "no-solution/figure-10-63-broken/search")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("must put back the distances it removed"),
        "{msg}"
    );
    assert!(!msg.contains("D does not hold"), "{msg}");
    // The sample whose check is too weak is still told about quantities.
    let (_, r) = check_report(
        "turnpike",
        &sample_of("turnpike", "contains-only"),
        &["--all"],
    );
    assert!(
        messages(&r).contains("in the correct quantity"),
        "{}",
        messages(&r)
    );
}

#[test]
fn a_turnpike_that_never_touches_labgrade_s_d_is_told_about_the_adapter() {
    // Its own D, no adapter: here a turnpike that looks at nothing labgrade gave it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("turnpike.c"),
        "#include \"turnpike.h\"\nint place(int x[], dist_set D, unsigned int n, int l, int r) \
         { (void)x; (void)D; (void)n; (void)l; (void)r; return FALSE; }\n\
         int turnpike(int x[], dist_set D, unsigned int n) { return place(x, D, n, 2, n - 2); }\n",
    )
    .unwrap();
    let (_, r) = check_report("turnpike", dir.path(), &[]);
    let msg = case(&r, "figure-10-63/answer")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("never used labgrade's D") && msg.contains("labgrade_turnpike"),
        "{msg}"
    );
    // One that does use D, wrongly, is not told so.
    let (_, r) = check_report(
        "turnpike",
        &sample_of("turnpike", "never-undoes"),
        &["--all"],
    );
    assert!(!messages(&r).contains("never used labgrade's D"));
}

#[test]
fn a_missing_function_is_named_as_the_assignment_names_it() {
    // The maze book without FindPath: its two cases are graded as FindPath and as
    // FindPath_order (labgrade's name for the book's order), and both say `FindPath`.
    let dir = tempfile::tempdir().unwrap();
    let book = std::fs::read_to_string(sample_of("maze", "book").join("maze.cpp")).unwrap();
    let without = &book[..book.find("bool FindPath(").unwrap()];
    std::fs::write(dir.path().join("maze.cpp"), without).unwrap();
    let (_, r) = check_report("maze", dir.path(), &[]);
    for name in ["dead-ends/find-path", "dead-ends/find-path-order"] {
        let c = case(&r, name);
        assert_eq!(c["verdict"], "missing-symbol");
        let m = c["message"].as_str().unwrap();
        assert!(
            m.contains("no function `FindPath`") && !m.contains("FindPath_order"),
            "{m}"
        );
    }
}

#[test]
fn the_unmark_hint_needs_a_submission_that_never_unmarks() {
    // Exercise 3's program handed in as Figure 7-3: it never calls UnmarkSquare.
    let (_, r) = check_report("maze", &sample_of("maze-keep-marks", "no-unmark"), &[]);
    assert!(
        messages(&r).contains("unmark a square before"),
        "{}",
        messages(&r)
    );
    // A path through a wall leaves marks too, but it does unmark: no such hint.
    let (_, r) = check_report("maze", &sample_of("maze", "path-through-wall"), &["--all"]);
    let all = messages(&r);
    assert!(
        !all.contains("unmark a square before") && !all.contains("never calls UnmarkSquare"),
        "{all}"
    );
}

#[test]
fn the_cpp_edition_s_vector_find_path_is_called_through_the_adapter() {
    if !full_suite("check::the_cpp_edition_s_vector_find_path_is_called_through_the_adapter") {
        return;
    }
    let sample = sample_of("maze", "cpp-edition-vector");
    let (code, r) = check_report("maze", &sample, &[]);
    assert_eq!(code, Some(0), "{}", messages(&r));
    let notes = r["build"]["notes"].to_string();
    assert!(notes.contains("C++ adapter"), "{notes}");
    // A recursive global function is not static (its `.localalias` is the compiler's).
    assert!(!notes.contains("is static"), "{notes}");

    // The same with the standard library's vector and lowercase names.
    let dir = tempfile::tempdir().unwrap();
    let code = std::fs::read_to_string(sample.join("maze.cpp")).unwrap();
    let std_vector = code
        .replace("Vector<pointT>", "std::vector<pointT>")
        .replace("#include \"vector.h\"", "#include <vector>")
        .replace("path.add(pt)", "path.push_back(pt)")
        .replace("path.removeAt(path.size() - 1)", "path.pop_back()")
        .replace(
            "int i = 0; i < path.size()",
            "size_t i = 0; i < path.size()",
        )
        .replace("FindPath", "findPath")
        .replace("SolveMaze", "solveMaze");
    std::fs::write(dir.path().join("maze.cpp"), std_vector).unwrap();
    let (code, r) = check_report("maze", dir.path(), &[]);
    assert_eq!(code, Some(0), "{}", messages(&r));
    assert_eq!(r["build"]["warnings"], 0);
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("std::vector<pointT") && notes.contains("C++ adapter"),
        "{notes}"
    );

    // As the book prints it, by value: the path is lost, and the student is told why.
    let dir = tempfile::tempdir().unwrap();
    let code = std::fs::read_to_string(sample.join("maze.cpp")).unwrap();
    let by_value = code.replace("Vector<pointT> & path)", "Vector<pointT> path)");
    assert_ne!(by_value, code);
    std::fs::write(dir.path().join("maze.cpp"), by_value).unwrap();
    let (_, r) = check_report("maze", dir.path(), &[]);
    for c in r["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        if name.contains("find-path") {
            assert_eq!(c["verdict"], "missing-symbol", "{name}");
            let m = c["message"].as_str().unwrap();
            assert!(m.contains("by value") && m.contains("& path"), "{m}");
        } else {
            assert_eq!(c["verdict"], "pass", "{name}: {}", c["message"]);
        }
    }
}

#[test]
fn another_constant_is_named_only_when_every_run_of_the_submission_uses_it() {
    // NO_GOOD_MOVE is the book's -1, but FindGoodMove returns 0 from 13 coins on: the case
    // of 13 alone agrees with NO_GOOD_MOVE = 0 (and was told so when cases were judged one
    // by one), but 9 returns -1, so 0 is a bug here, not the course's constant.
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(sample("course-no-good-move-0").join("nim.c")).unwrap();
    std::fs::write(
        dir.path().join("nim.c"),
        src.replace("#define NO_GOOD_MOVE 0", "#define NO_GOOD_MOVE (-1)")
            .replace(
                "    return NO_GOOD_MOVE;\n}",
                "    return nCoins >= 13 ? 0 : NO_GOOD_MOVE;\n}",
            ),
    )
    .unwrap();
    let r = run_json(dir.path());
    assert_eq!(case(&r, "FindGoodMove/13/return")["verdict"], "fail");
    assert_eq!(case(&r, "FindGoodMove/9/return")["verdict"], "pass");
    assert!(
        !messages(&r).contains("NO_GOOD_MOVE = 0"),
        "{}",
        messages(&r)
    );

    // The maze: 100000 on one unsolvable maze, the book's 10000 on the others.
    let sample = sample_of("maze", "course-no-solution-100000");
    let code = std::fs::read_to_string(sample.join("maze.cpp")).unwrap();
    let once = code
        .replace("NO_SOLUTION = 100000;", "NO_SOLUTION = 10000;")
        .replace(
            "if (shortest == NO_SOLUTION) return NO_SOLUTION;",
            "if (shortest == NO_SOLUTION) return pt.x == 1 && pt.y == 1 ? 100000 : NO_SOLUTION;",
        );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("maze.cpp"), once).unwrap();
    let (_, r) = check_report("maze", dir.path(), &["--all"]);
    assert_eq!(case(&r, "no-exit/shortest")["verdict"], "fail");
    assert_eq!(
        case(&r, "generated/sealed-14x10/shortest")["verdict"],
        "pass"
    );
    assert!(
        !messages(&r).contains("NO_SOLUTION = 100000"),
        "{}",
        messages(&r)
    );
}

#[test]
fn a_student_chooses_cases_by_name_tag_or_last_failures() {
    // A private cache: --rerun-failed reads what the last check of this path recorded.
    let cache = tempfile::tempdir().unwrap();
    let sub = sample("memoised");
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "nim", sub.to_str().unwrap(), "--format", "json"];
        args.extend_from_slice(extra);
        let out = labgrade_with_cache(&args, cache.path());
        let r: Value = serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
        (out.status.code(), r)
    };
    let names = |r: &Value| -> Vec<String> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .filter(|n| n != "build/no-warnings")
            .collect()
    };
    let (_, r) = run(&["--case", "FindGoodMove/*", "--tag", "recursion"]);
    let chosen = names(&r);
    assert!(!chosen.is_empty());
    assert!(
        chosen
            .iter()
            .all(|n| n.starts_with("FindGoodMove/") && n.ends_with("/calls")),
        "{chosen:?}"
    );
    // The whole check records its failures; --rerun-failed runs exactly those.
    let (_, all) = run(&[]);
    let failed: Vec<String> = all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(!failed.is_empty());
    let (_, again) = run(&["--rerun-failed"]);
    assert_eq!(names(&again), failed);
    // A glob that matches nothing is an error that says where the names are.
    let out = labgrade_with_cache(
        &["check", "nim", sub.to_str().unwrap(), "--case", "Nope/*"],
        cache.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("labgrade list nim"),
        "{}",
        stderr(&out)
    );
    // `labgrade list nim` lists the cases the globs choose from.
    let out = labgrade(&["list", "nim"]);
    assert!(stdout(&out).contains("FindGoodMove/5/calls"));
}

#[test]
fn watch_mode_checks_again_when_a_source_changes_and_names_what_changed() {
    use std::io::{BufRead, BufReader};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(sample("c-version").join("nim.c")).unwrap();
    std::fs::write(dir.path().join("nim.c"), &src).unwrap();
    let mut child = std::process::Command::new(labgrade_bin())
        .args(["check", "nim", dir.path().to_str().unwrap(), "--watch"])
        .args(["--color", "never", "--cache-dir"])
        .arg(cache_dir())
        .current_dir(repo())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let reader = BufReader::new(child.stdout.take().unwrap());
    let sink = Arc::clone(&seen);
    std::thread::spawn(move || {
        for line in reader.lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    let wait_for = |what: &str| {
        let start = Instant::now();
        while !seen.lock().unwrap().contains(what) {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no `{what}` in:\n{}",
                seen.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("watching");
    // NO_GOOD_MOVE written as 0 in FindGoodMove's last line: the bad positions now fail.
    let edited = src.replace("    return NO_GOOD_MOVE;\n}", "    return 0;\n}");
    assert_ne!(edited, src);
    std::fs::write(dir.path().join("nim.c"), edited).unwrap();
    wait_for("since the last check");
    let _ = child.kill();
    let _ = child.wait();
    let text = seen.lock().unwrap().clone();
    assert!(text.contains("changed: checking again"), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("since the last check"))
        .unwrap();
    assert!(
        line.contains("newly failing (FindGoodMove/5/return") && !line.contains("newly passing"),
        "{line}"
    );
}

#[test]
fn on_github_actions_failing_cases_are_annotated_at_their_fixture_and_summarised() {
    let tmp = tempfile::tempdir().unwrap();
    let summary_path = tmp.path().join("summary.md");
    let memoised = sample("memoised");
    let out = labgrade_on_github(
        &repo(),
        &["check", "nim", memoised.to_str().unwrap()],
        &summary_path,
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    // GitHub shows 10 a step; the summary lists every one.
    assert_eq!(annotations.len(), 10, "{text}");
    // Line 13 is the `each` line that makes FindGoodMove/2/calls to FindGoodMove/15/calls.
    assert!(
        annotations[0].starts_with(
            "::error file=fixtures/nim/10-find-good-move.toml,line=13,\
             title=nim FindGoodMove/4/calls%3A fail::"
        ),
        "{text}"
    );
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    assert!(
        summary.starts_with("### labgrade check nim `memoised`\n"),
        "{summary}"
    );
    assert!(
        summary.contains("- `FindGoodMove/15/calls`: fail\n"),
        "{summary}"
    );

    // A machine-readable format stays parseable: no annotation in it.
    let out = labgrade_on_github(
        &repo(),
        &[
            "check",
            "nim",
            memoised.to_str().unwrap(),
            "--format",
            "json",
        ],
        &summary_path,
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
    assert_eq!(report["submission"], "memoised");

    // In a student's own repository labgrade's fixtures are outside the workspace: the
    // annotations carry no location (GitHub could not show one), never an absolute path.
    let student_repo = tempfile::tempdir().unwrap();
    let out = labgrade_on_github(
        student_repo.path(),
        &["check", "nim", memoised.to_str().unwrap()],
        &summary_path,
    );
    let text = stdout(&out);
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 10, "{text}");
    assert!(
        annotations
            .iter()
            .all(|a| a.starts_with("::error title=nim ") && !a.contains("file=")),
        "{text}"
    );
}

#[test]
fn every_report_records_what_its_grade_was_made_from() {
    use sha2::{Digest, Sha256};
    let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let a = run_json(edited_c_version(|s| s).path());
    let p = &a["metadata"]["provenance"];
    assert_eq!(p["labgrade_version"], env!("CARGO_PKG_VERSION"));
    let spec = std::fs::read(repo().join("specs/nim.toml")).unwrap();
    assert_eq!(p["spec_sha256"], hex(&Sha256::digest(&spec)), "{p:#}");
    for key in ["fixtures_sha256", "headers_sha256", "labgrade_sha256"] {
        assert_eq!(p[key].as_str().map(str::len), Some(64), "{key}: {p:#}");
    }
    assert!(
        p["compilers"]["c"].as_str().unwrap().contains("gcc"),
        "{p:#}"
    );
    assert!(p["graded_at"].as_str().unwrap().ends_with('Z'), "{p:#}");
    // The same files give the same hash; one changed byte another.
    let again = run_json(edited_c_version(|s| s).path());
    let sha = |r: &Value| r["metadata"]["provenance"]["submission_sha256"].clone();
    assert_eq!(sha(&a), sha(&again));
    assert_eq!(sha(&a).as_str().map(str::len), Some(64));
    let changed = run_json(edited_c_version(|s| s + "\n").path());
    assert_ne!(sha(&a), sha(&changed));
}

#[test]
fn a_single_source_file_is_a_submission() {
    // The build cache's key reads a single staged file as itself, not as a folder.
    let file = sample("c-version").join("nim.c");
    let (code, r) = check_report("nim", &file, &["--case", "FindGoodMove/5/*"]);
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["build"]["kind"], "c", "{r:#}");
    assert_eq!(
        case(&r, "FindGoodMove/5/return")["verdict"],
        "pass",
        "{r:#}"
    );
}

/// An `assert` in a student's C file names the file as their own compiler would (`nim.c`),
/// not the build directory labgrade compiled it in, which is gone by the time it is read, and
/// no program of labgrade's (the worker the library runs in) comes before it.
#[test]
fn a_failed_assertion_names_the_students_file() {
    let (_, r) = check_report(
        "nim",
        &sample("crashes"),
        &["--case", "ChooseComputerMove/5/*"],
    );
    let m = case(&r, "ChooseComputerMove/5/return")["message"]
        .as_str()
        .unwrap();
    assert!(
        m.contains("\nnim.c:179: ChooseComputerMove: Assertion"),
        "{m}"
    );
    assert!(!m.contains("labgrade-build"), "{m}");
    assert!(!m.contains("labgrade-worker"), "{m}");
}

/// Signature truth on one function, IsBadPosition, written several ways in a small nim of
/// the book's logic: labgrade calls it only when its compiled parameters and return pass as
/// labgrade's call does, and otherwise says why, never calling it.
#[test]
fn a_graded_function_is_called_only_through_the_signature_its_author_wrote() {
    // `decl` is IsBadPosition's head, `arg` what FindGoodMove passes it, `coins` the name its
    // body reads the coins by, `file` the source's name (C or C++).
    let variant = |decl: &str, arg: &str, coins: &str, file: &str| {
        let dir = tempfile::tempdir().unwrap();
        let src = format!(
            "#include <stdbool.h>\n\
             static int left = 0;\n\
             {decl};\n\
             int FindGoodMove(int nCoins) {{\n\
                 for (int n = 1; n <= 3; n++) {{\n\
                     left = nCoins - n;\n\
                     if (IsBadPosition({arg})) return n;\n\
                 }}\n\
                 return 0;\n\
             }}\n\
             {decl} {{\n\
                 if ({coins} == 1) return true;\n\
                 return FindGoodMove({coins}) == 0;\n\
             }}\n\
             int ChooseComputerMove(int nCoins) {{\n\
                 int n = FindGoodMove(nCoins);\n\
                 return n == 0 ? 1 : n;\n\
             }}\n"
        );
        std::fs::write(dir.path().join(file), src).unwrap();
        let r = run_json(dir.path());
        let c = case(&r, "IsBadPosition/5/return").clone();
        (
            c["verdict"].as_str().unwrap().to_string(),
            c["message"].as_str().unwrap().to_string(),
        )
    };
    // Another number of parameters (more, fewer), a wider integer, a double, a C++
    // reference: never called.
    for (decl, arg, coins, file, said) in [
        (
            "bool IsBadPosition(int nCoins, int *seen)",
            "nCoins - n, 0",
            "nCoins",
            "nim.c",
            "takes 2 parameters where labgrade passes 1",
        ),
        (
            "bool IsBadPosition(void)",
            "",
            "left",
            "nim.c",
            "takes no parameters where labgrade passes 1",
        ),
        (
            "bool IsBadPosition(long long nCoins)",
            "nCoins - n",
            "nCoins",
            "nim.c",
            "takes parameter 1 as a 8-byte integer where labgrade passes an integer",
        ),
        (
            "bool IsBadPosition(double nCoins)",
            "nCoins - n",
            "nCoins",
            "nim.c",
            "takes parameter 1 as a floating-point number",
        ),
        (
            "bool IsBadPosition(const int &nCoins)",
            "nCoins - n",
            "nCoins",
            "nim.cpp",
            "takes parameter 1 as a pointer where labgrade passes an integer",
        ),
    ] {
        let (v, m) = variant(decl, arg, coins, file);
        assert_eq!(v, "missing-symbol", "{decl}: {m}");
        assert!(m.contains(said), "{decl}: {m}");
    }
    // The same passing convention is called and graded: the assignment's declaration, a
    // static one, an int returned for bool, a narrower char parameter, the same in C++.
    for (decl, file) in [
        ("bool IsBadPosition(int nCoins)", "nim.c"),
        ("static bool IsBadPosition(int nCoins)", "nim.c"),
        ("int IsBadPosition(int nCoins)", "nim.c"),
        ("static bool IsBadPosition(char nCoins)", "nim.c"),
        ("bool IsBadPosition(int nCoins)", "nim.cpp"),
    ] {
        let (v, m) = variant(decl, "nCoins - n", "nCoins", file);
        assert_eq!(v, "pass", "{decl} in {file}: {m}");
    }
}

/// A student's printing reaches the terminal with its control characters made visible: OSC 52
/// (write the clipboard), a window title and clear-screen are shown, never obeyed, in the text
/// report (verbose too) and in GitHub annotations.
#[test]
fn escape_sequences_a_student_prints_never_reach_the_terminal() {
    let dir = edited_c_version(|s| {
        s.replace(
            "int FindGoodMove(int nCoins) {",
            "int FindGoodMove(int nCoins) {\n    printf(\"\\033]52;c;ZXZpbA==\\007\\033]0;pwned\\007\\033[2J\");",
        )
    });
    for extra in [&[][..], &["-v"][..]] {
        let mut args = vec![
            "--color",
            "never",
            "check",
            "nim",
            dir.path().to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = labgrade(&args);
        let text = stdout(&out);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "a control character reached the terminal: {text:?}"
        );
        // The diff shows the line as printed, made visible (-v: at the default detail the
        // screen may hold only the message, which quotes it escaped).
        if extra.is_empty() {
            // A kilobyte "word" of escapes is quoted short: the report keeps its columns.
            assert!(
                labgrade::report::screen::too_wide(&text).is_empty(),
                "{text}"
            );
        } else {
            assert!(text.contains("^[]52;c;ZXZpbA==^G"), "{text}");
        }
    }
    let out = std::process::Command::new(labgrade_bin())
        .args(["check", "nim", dir.path().to_str().unwrap()])
        .env("GITHUB_ACTIONS", "true")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(text.contains("::error"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
}

#[test]
fn a_game_side_checked_as_the_algorithm_side_is_told_which_problems_it_looks_like() {
    if !full_suite(
        "check::a_game_side_checked_as_the_algorithm_side_is_told_which_problems_it_looks_like",
    ) {
        return;
    }
    let game = sample_of("roberts-tictactoe-game", "figure-7-6");
    let (_, r) = check_report("roberts-minimax", &game, &[]);
    let hint = r["build"]["looks_like"].as_str().unwrap_or_default();
    assert!(
        hint.contains("`roberts-tictactoe-game`")
            && hint.contains("GenerateMoveList")
            && hint.contains("more than of `roberts-minimax`"),
        "{hint}"
    );
    // Its state has a board: tic-tac-toe is named first, and is what to run; a nim game's
    // state (a pile of coins) keeps the catalogue's order.
    assert!(
        hint.contains("every function of `roberts-tictactoe-game`, `roberts-nim-game`")
            && hint.contains("labgrade check roberts-tictactoe-game <your folder>"),
        "{hint}"
    );
    let nim = sample_of("roberts-nim-game", "book-cpp");
    let (_, r) = check_report("roberts-minimax", &nim, &[]);
    let hint = r["build"]["looks_like"].as_str().unwrap_or_default();
    assert!(
        hint.contains("labgrade check roberts-nim-game <your folder>"),
        "{hint}"
    );
    // Checked as its own problem, and the algorithm side as its own: no hint.
    let (_, own) = check_report("roberts-tictactoe-game", &game, &[]);
    assert!(own["build"].get("looks_like").is_none(), "{}", own["build"]);
    let (_, minimax) = check_report(
        "roberts-minimax",
        &sample_of("roberts-minimax", "figure-7-6-cpp"),
        &[],
    );
    assert!(
        minimax["build"].get("looks_like").is_none(),
        "{}",
        minimax["build"]
    );
}

#[test]
fn a_maze_checked_as_nim_is_told_whose_header_it_wants() {
    let (_, r) = check_report("nim", &sample_of("maze", "book"), &[]);
    let hint = r["build"]["looks_like"].as_str().unwrap_or_default();
    assert!(
        hint.contains("`mazelib.h` is the header labgrade serves for `maze`")
            && hint.contains("labgrade check maze <your folder>"),
        "{hint}"
    );
    // Another problem's header is never the student's to hand in.
    assert!(!r.to_string().contains("hand it in"), "{r}");
    // A build error of nim's own: no hint.
    let (_, own) = check_report("nim", &sample("does-not-compile"), &[]);
    assert!(own["build"].get("looks_like").is_none(), "{}", own["build"]);
}

/// A maze folder whose sources define mazelib's functions themselves (the student's own
/// library, handed in with the search, or exercise 1 checked as the maze) is told so once,
/// naming `maze-lib`, in C and in C++; a build error of another cause says nothing of it.
#[test]
fn a_maze_that_defines_mazelib_itself_is_told_so() {
    for sample in ["mazelib", "mazelib-c"] {
        let (_, r) = check_report("maze", &sample_of("maze-lib", sample), &[]);
        let hint = r["build"]["looks_like"].as_str().unwrap_or_default();
        assert!(
            hint.contains("your sources define `ReadMazeMap`, `GetStartPosition`")
                && hint.contains("labgrade check maze-lib <your folder>"),
            "{sample}: {hint}"
        );
    }
    let (_, r) = check_report("maze", &sample_of("maze", "calls-undefined-data"), &[]);
    assert!(
        !r["build"].to_string().contains("themselves"),
        "{}",
        r["build"]
    );
}

#[test]
fn a_board_taken_by_value_is_said_before_the_cases_and_a_reference_is_not() {
    if !full_suite("check::a_board_taken_by_value_is_said_before_the_cases_and_a_reference_is_not")
    {
        return;
    }
    let by_value = sample_of("queens", "cpp-grid-by-value");
    let (_, r) = check_report("queens", &by_value, &[]);
    let causes = r["build"]["causes"].to_string();
    assert!(
        causes.contains("takes `board` by value")
            && causes.contains("declare the parameter as a reference"),
        "{causes}"
    );
    let out = labgrade(&["check", "queens", by_value.to_str().unwrap()]);
    let text = stdout(&out);
    let hint = text.find("hint: your `Solve(Grid<bool>, int)` takes `board` by value");
    let first_case = text.find("Solve/empty board");
    assert!(
        hint.is_some() && hint < first_case,
        "the cause comes before the cases:\n{text}"
    );
    // The same code taking the board by reference: called through the same adapter, no cause.
    let (_, by_ref) = check_report("queens", &sample_of("queens", "cpp-grid-board"), &[]);
    assert!(
        by_ref["build"].get("causes").is_none(),
        "{}",
        by_ref["build"]
    );
    assert_eq!(by_ref["score"], by_ref["max_score"], "{}", by_ref["build"]);
    let notes = by_ref["build"]["notes"].to_string();
    assert!(notes.contains("through its C++ adapter"), "{notes}");
}

#[test]
fn a_course_declared_form_is_called_through_its_wrapper_and_checked_against_the_student() {
    let dir = sample_of("maze", "course-lab-extra-parameters");
    let course = dir.join("course.toml");
    let (_, r) = check_report("maze", &dir, &["--course", course.to_str().unwrap()]);
    assert_eq!(r["score"], r["max_score"], "{}", r["build"]);
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains(
            "is the course's form `bool SolveMaze(pointT pt, int *num_calls, bool unmark)`"
        ) && notes.contains("num_calls = 0, unmark = true"),
        "{notes}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = scratch.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    // Spelt `solveMaze` (and not static): the wrapper is built for the function found, and
    // the grader checks it is the one checked.
    let respelled = scratch.path().join("respelled");
    std::fs::create_dir(&respelled).unwrap();
    let code = std::fs::read_to_string(dir.join("maze.c")).unwrap();
    std::fs::write(
        respelled.join("maze.c"),
        code.replace("SolveMaze(", "solveMaze(")
            .replace("static bool solveMaze", "bool solveMaze"),
    )
    .unwrap();
    let (_, r) = check_report("maze", &respelled, &["--course", course.to_str().unwrap()]);
    assert_eq!(r["score"], r["max_score"], "{}", r["build"]);
    // A course form the student's function does not have: never called through it.
    let other = write(
        "other.toml",
        "[maze.interface.SolveMaze]\n\
         declaration = \"bool SolveMaze(pointT pt, int *num_calls)\"\n\
         extra = { num_calls = 0 }\n",
    );
    let (_, r) = check_report("maze", &dir, &["--course", other.to_str().unwrap()]);
    let solve = case(&r, "mazelib-comment/solve");
    assert_eq!(solve["verdict"], "missing-symbol", "{solve}");
    let msg = solve["message"].as_str().unwrap_or_default();
    assert!(
        msg.contains("takes 3 parameters where labgrade passes 2")
            && msg.contains("the course file declares `bool SolveMaze(pointT pt, int *num_calls)`"),
        "{msg}"
    );
    // A form labgrade cannot call is refused when the course file is read, at its line.
    let bad = write(
        "bad.toml",
        "[course]\nname = \"lab\"\n\n[maze.interface.SolveMaze]\n\
         declaration = \"bool SolveMaze(int *num_calls, pointT pt)\"\n\
         extra = { num_calls = 0 }\n",
    );
    // Refused with exit 2 and the course file's line; what stderr says.
    let refused = |course: &std::path::Path| {
        let out = labgrade(&[
            "check",
            "maze",
            dir.to_str().unwrap(),
            "--course",
            course.to_str().unwrap(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        err
    };
    let err = refused(&bad);
    assert!(
        err.contains("bad.toml:4") && err.contains("begin with its parameters"),
        "{err}"
    );
    let unknown = write(
        "unknown.toml",
        "[maze.interface.SolveIt]\ndeclaration = \"bool SolveIt(pointT pt)\"\n",
    );
    let err = refused(&unknown);
    assert!(
        err.contains("unknown.toml:1") && err.contains("`SolveIt` is not a function of maze"),
        "{err}"
    );
}

#[test]
fn a_copied_binary_grades_from_anywhere_with_the_data_built_into_it() {
    // labgrade and its worker copied elsewhere, run from an empty directory with the data
    // built into the binary (`builtin`: what a binary whose checkout is gone falls back to).
    let place = tempfile::tempdir().unwrap();
    let bin = place.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for name in ["labgrade", "labgrade-worker"] {
        let from = labgrade_bin().with_file_name(name);
        std::fs::copy(&from, bin.join(name)).unwrap();
    }
    let cache = place.path().join("cache");
    let elsewhere = place.path().join("work");
    std::fs::create_dir(&elsewhere).unwrap();
    let submission = sample("c-version");
    let out = std::process::Command::new(bin.join("labgrade"))
        .args([
            "check",
            "nim",
            submission.to_str().unwrap(),
            "--format",
            "json",
        ])
        .args(["--color", "never", "--cache-dir", cache.to_str().unwrap()])
        .current_dir(&elsewhere)
        .env("LABGRADE_ROOT", "builtin")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let builtin: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same grade as from the checkout, case by case.
    let (_, checkout) = check_report("nim", &submission, &[]);
    let verdicts = |r: &Value| -> Vec<(String, String)> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].to_string(), c["verdict"].to_string()))
            .collect()
    };
    assert_eq!(verdicts(&builtin), verdicts(&checkout));
    assert_eq!(builtin["score"], checkout["score"]);
    // The data was written under the cache, once.
    let data: Vec<_> = std::fs::read_dir(cache.join("data"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(data.len(), 1, "{data:?}");
    assert!(data[0].path().join("specs/nim.toml").is_file());
}

/// One mistake, one screen: for a sample of each family of problems (scalar recursion, a
/// world library, a kit grid, a game tree, a game side), `check` at the default detail fits
/// 40 lines of 80 columns, and the first explanation is the mistake's cause.
#[test]
fn one_mistake_fits_one_screen_in_every_family() {
    let families = [
        // Scalar recursion: the smallest wrong input is the base case, said first.
        (
            "nim",
            "wrong-base-case",
            "Start here:  IsBadPosition/1/return",
            "check IsBadPosition's base case first",
        ),
        // A world library: the maze's marks (every other failure is the overflow they cause).
        (
            "maze",
            "forgets-to-mark",
            "  mazelib-comment/marks  FAIL",
            "yours has 0 marked",
        ),
        // A kit grid: the board drawn, the misreading named.
        (
            "queens",
            "one-diagonal",
            "  Solve/empty board  FAIL",
            "IsSafe must check both diagonals",
        ),
        // A game tree: the board left behind.
        (
            "weiss-tictactoe",
            "no-unplace",
            "  opening/move  FAIL",
            "yours CCCCCCCCC",
        ),
        // A game side: the rating that is wrong, where the game ends.
        (
            "roberts-nim-game",
            "rating-wrong-side",
            "  GameIsOver, EvaluateStaticPosition, WhoseTurn  FAIL",
            "EvaluateStaticPosition rates it a loss for the player to move; it is a win",
        ),
    ];
    for (problem, name, first, cause) in families {
        let out = labgrade(&["check", problem, sample_of(problem, name).to_str().unwrap()]);
        let text = stdout(&out);
        assert!(
            text.lines().count() <= 40,
            "{problem}/{name}: {} lines\n{text}",
            text.lines().count()
        );
        let wide = labgrade::report::screen::too_wide(&text);
        assert!(
            wide.is_empty(),
            "{problem}/{name} over 80 columns:\n{}",
            wide.join("\n")
        );
        let at = text
            .find(first)
            .unwrap_or_else(|| panic!("{problem}/{name}: no `{first}`\n{text}"));
        // The cause is in the first explanation: before any other case's.
        let explained = &text[at..];
        let next = explained[first.len()..]
            .find("\n\n  ")
            .map_or(explained.len(), |k| k + first.len());
        let words = explained[..next]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            words.contains(cause),
            "{problem}/{name}: the first explanation does not say `{cause}`:\n{text}"
        );
    }
}

/// A driver calling functions of a course library labgrade lacks links with stand-ins
/// that do nothing, said in the build notes; a graded function or a variable nothing
/// defines is never stood in for (the link fails, as on any machine).
#[test]
fn calls_no_library_defines_are_stood_in_for_but_never_graded_functions_or_data() {
    // C (a plain symbol), called from the game's main: every case as before.
    let dir = edited_c_version(|s| {
        s.replace(
            "int main(void) {",
            "void SetPauseTime(double seconds);\nvoid Beep(int times);\n\n\
             int main(void) {\n    SetPauseTime(0.5);\n    Beep(2);",
        )
    });
    let r = run_json(dir.path());
    assert_eq!(r["score"], r["max_score"], "{r:#}");
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("your code calls `Beep` and `SetPauseTime`")
            && notes.contains("labgrade linked stand-ins that do nothing and return 0"),
        "{notes}"
    );
    // C++ (mangled symbols), the maze sample: named as the linker names them.
    let (_, r) = check_report(
        "maze",
        &sample_of("maze", "course-driver-display-calls"),
        &[],
    );
    assert_eq!(r["score"], r["max_score"], "{r:#}");
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("`PrintMaze()` and `SetPauseTime(double)`"),
        "{notes}"
    );
    // Must not: a graded function declared and called but never defined stays a build
    // error naming it, with no stand-in note.
    let dir = edited_c_version(|s| {
        s.replace(
            "bool IsBadPosition(int nCoins) {",
            "bool NotIsBadPosition(int nCoins) {",
        )
    });
    let r = run_json(dir.path());
    let build = case(&r, "build/no-warnings");
    assert_eq!(build["verdict"], "build-error", "{build}");
    assert!(
        r.to_string()
            .contains("undefined reference to `IsBadPosition'"),
        "{r:#}"
    );
    assert!(
        !r["build"]["notes"].to_string().contains("stand-in"),
        "{r:#}"
    );
    // Must not: a variable (the maze sample with `extern double gPauseTime`).
    let (_, r) = check_report("maze", &sample_of("maze", "calls-undefined-data"), &[]);
    assert_eq!(
        case(&r, "build/no-warnings")["verdict"],
        "build-error",
        "{r:#}"
    );
    assert!(
        !r["build"]["notes"].to_string().contains("stand-in"),
        "{r:#}"
    );
}

/// A case worth nothing in this course that does not pass is a note, not a failure: shown
/// under its own word and title, never counted among the failures, never the exit code (a
/// full-marks submission exits 0). A course that gives it points makes it graded again.
#[test]
fn notes_are_not_failures_unless_a_course_gives_them_points() {
    let sub = sample_of("weiss-tictactoe", "win-test-first");
    let out = labgrade(&[
        "--color",
        "never",
        "check",
        "weiss-tictactoe",
        sub.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("NOTE            midgame/world/in the text's order      0/0"),
        "{text}"
    );
    assert!(
        text.contains("Notes (worth no points in this course"),
        "{text}"
    );
    assert!(text.contains("14 passed, 0 failed, 1 note"), "{text}");
    assert!(!text.contains("FAIL"), "{text}");
    let json = labgrade(&[
        "check",
        "weiss-tictactoe",
        sub.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap();
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "midgame/world/in the text's order")
        .unwrap()
        .clone();
    // The verdict is kept (declared-verdict files still say `fail`); it counts as passed.
    assert_eq!(
        (&case["verdict"], &case["note"], &case["passed"]),
        (&Value::from("fail"), &Value::from(true), &Value::from(true)),
        "{case}"
    );
    // Worth a point in a course: a failure again.
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course.toml");
    std::fs::write(
        &course,
        "[[weiss-tictactoe.cases]]\nmatch = \"midgame/world/in the text's order\"\npoints = 1\n",
    )
    .unwrap();
    let out = labgrade(&[
        "--color",
        "never",
        "--course",
        course.to_str().unwrap(),
        "check",
        "weiss-tictactoe",
        sub.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("14 passed, 1 failed"), "{text}");
    assert!(!text.contains("NOTE"), "{text}");
}

/// One mistake, one deduction: a FindPath that stores the exit square without counting it
/// fails every FindPath case with a way out (14), for one diagnosed cause. By default it
/// costs once (the first case); the rest are still failures, each marked as following from
/// it. A course that says `repeated_mistakes = "each"` takes the points in every case.
#[test]
fn one_diagnosed_mistake_costs_once_unless_the_course_says_each() {
    let path = sample_of("maze", "find-path-exit-not-counted");
    let (code, r) = check_report("maze", &path, &[]);
    assert_eq!(code, Some(1), "still failing cases");
    assert_eq!(
        (r["score"].as_f64(), r["max_score"].as_f64()),
        (Some(80.0), Some(81.0))
    );
    let c = case(&r, "dead-ends/find-path-order");
    assert_eq!(c["verdict"], "fail");
    assert_eq!(c["follows"], "mazelib-comment/find-path");
    assert_eq!(case(&r, "mazelib-comment/find-path")["score"], 0.0);
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "[maze]\nrepeated_mistakes = \"each\"\n").unwrap();
    let (_, r) = check_report("maze", &path, &["--course", course.to_str().unwrap()]);
    assert_eq!(r["score"].as_f64(), Some(67.0), "{}", messages(&r));
    assert_eq!(
        case(&r, "dead-ends/find-path-order")["follows"],
        "mazelib-comment/find-path"
    );
}

/// The smallest fix: for a one-edit mistake, the hint names the function, the file and the
/// line, and (`change`) the edit; it is the same at -j 1 and -j 16; a submission whose
/// visible cases all pass gets none.
#[test]
fn the_fix_hint_points_at_the_one_edit_that_makes_every_visible_case_pass() {
    let path = sample("wrong-base-case");
    let hint_at = |jobs: &str| {
        let out = labgrade(&[
            "check",
            "nim",
            path.to_str().unwrap(),
            "--fix-hint",
            "change",
            "-j",
            jobs,
        ]);
        let text = stdout(&out);
        text[text.find("fix hint:").unwrap_or(0)..].to_string()
    };
    let one = hint_at("1");
    assert!(
        one.contains(
            "a change to a constant in IsBadPosition, nim.cpp:219, makes all 95 visible cases pass"
        ) && one.contains("- if (nCoins == 0) return true;")
            && one.contains("+ if (nCoins == 1) return true;"),
        "{one}"
    );
    assert_eq!(hint_at("16"), one);
    let out = labgrade(&[
        "check",
        "nim",
        sample("book-cpp").to_str().unwrap(),
        "--fix-hint",
    ]);
    assert!(
        stdout(&out).contains("fix hint: none (every visible case passes)"),
        "{}",
        stdout(&out)
    );
}

/// A search that forgot its undo (Figure 7-3 without UnmarkSquare) is fixed by adding it
/// where the search backs out; a JSON report carries the hint as `fix_hint`, a Gradescope
/// one in its `output`, and at `location` neither shows the edit.
#[test]
fn a_forgotten_undo_is_added_and_said_in_json_and_gradescope() {
    let path = sample_of("maze", "never-unmarks");
    let run = |format: &str, level: &str| {
        let out = labgrade(&[
            "check",
            "maze",
            path.to_str().unwrap(),
            "--format",
            format,
            "--fix-hint",
            level,
        ]);
        serde_json::from_str::<Value>(&stdout(&out)).expect("one JSON document")
    };
    let json = run("json", "change");
    let hint = json["fix_hint"].as_str().unwrap_or_default();
    assert!(
        hint.starts_with(
            "fix hint: a statement added in SolveMaze, maze.cpp:41, makes all 81 visible cases pass"
        ) && hint.ends_with("\n    + UnmarkSquare(pt);")
            && !hint.contains("    - "),
        "{hint}"
    );
    let gradescope = run("gradescope", "location");
    let output = gradescope["output"].as_str().unwrap_or_default();
    assert!(
        output.contains("fix hint: a statement added in SolveMaze, maze.cpp:41")
            && !output.contains("UnmarkSquare(pt)"),
        "{output}"
    );
}

/// A closed formula in place of the recursion: no small edit brings the book's calls back,
/// and the search says so in one line, with the budget it spent.
#[test]
fn a_fix_hint_that_finds_nothing_says_so_with_its_budget() {
    let out = labgrade(&[
        "check",
        "nim",
        sample("formula").to_str().unwrap(),
        "--fix-hint",
    ]);
    assert!(
        stdout(&out).contains(
            "fix hint: no small edit of your code makes every visible case pass (tried 48 \
             edits; the budget is 48 edits, 60 s of CPU or 120 s)"
        ),
        "{}",
        stdout(&out)
    );
}

/// A search with nothing to edit says why in one line: a Rust submission (hints edit C and
/// C++), a source that is not UTF-8 text (its byte offsets could not be trusted).
#[test]
fn a_fix_hint_with_nothing_to_edit_says_why() {
    let rust = labgrade(&[
        "check",
        "nim",
        sample("rust-memoised").to_str().unwrap(),
        "--fix-hint",
    ]);
    assert!(
        stdout(&rust).contains(
            "fix hint: none (no C or C++ source of yours to edit: hints edit C and C++ only)"
        ),
        "{}",
        stdout(&rust)
    );
    let dir = tempfile::tempdir().unwrap();
    let mut source = std::fs::read(sample("wrong-base-case").join("nim.cpp")).unwrap();
    source.extend_from_slice(b"// \xff\xfe not UTF-8\n");
    std::fs::write(dir.path().join("nim.cpp"), source).unwrap();
    let bytes = labgrade(&["check", "nim", dir.path().to_str().unwrap(), "--fix-hint"]);
    assert!(
        stdout(&bytes).contains(
            "fix hint: none (your sources offer no edit: a file that is not UTF-8 text offers none)"
        ),
        "{}",
        stdout(&bytes)
    );
}

/// A course's `fix_hint` turns the hint on for every self-check at its level and is never
/// exceeded; `off` refuses one asked for.
#[test]
fn a_course_sets_how_much_of_the_fix_a_self_check_says() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    let path = sample("wrong-base-case");
    let run = |setting: &str, extra: &[&str]| {
        std::fs::write(&course, format!("[course]\nfix_hint = \"{setting}\"\n")).unwrap();
        let mut args = vec!["check", "nim", path.to_str().unwrap(), "--course"];
        args.push(course.to_str().unwrap());
        args.extend_from_slice(extra);
        stdout(&labgrade(&args))
    };
    let asked_more = run("location", &["--fix-hint", "change"]);
    assert!(asked_more.contains("fix hint: a change to a constant in IsBadPosition, nim.cpp:219"));
    assert!(!asked_more.contains("+ if (nCoins == 1)"), "{asked_more}");
    let unasked = run("change", &[]);
    assert!(
        unasked.contains("+ if (nCoins == 1) return true;"),
        "{unasked}"
    );
    let off = run("off", &["--fix-hint"]);
    assert!(
        off.contains("fix hint: your course does not give fix hints"),
        "{off}"
    );
}
