//! The tic-tac-toe lab through `labgrade check`: the driver path, the explanations.

use serde_json::Value;

use crate::util::*;

fn check(sample: &str) -> (Option<i32>, Value) {
    check_with(sample, &[])
}

fn check_with(sample: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let dir = repo().join("tests/submissions/lab-tictactoe").join(sample);
    let mut args = vec![
        "check",
        "lab-tictactoe",
        dir.to_str().unwrap(),
        "--all",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = labgrade(&args);
    let r = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    (out.status.code(), r)
}

#[test]
fn the_correct_lab_scores_everything() {
    let (code, r) = check("correct");
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["score"], r["max_score"]);
    // All 2,097 positions where O is to move, in one run.
    assert_eq!(
        case(&r, "minimax/moves")["observed"]["return"]["positions"],
        2097
    );
}

#[test]
fn a_misreading_is_named() {
    let (code, r) = check("shared-state");
    assert_eq!(code, Some(1));
    let m = case(&r, "minimax/moves")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("your minimax behaves as if"), "{m}");
    assert!(m.contains("same game_state object"), "{m}");
}

#[test]
fn the_accepted_depth_reading_passes_with_a_note() {
    let (code, r) = check("depth-less-or-equal");
    assert_eq!(code, Some(0), "{r:#}");
    let c = case(&r, "minimax/calls-and-depth");
    assert_eq!(c["verdict"], "pass");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("accepted alternative"),
        "{c}"
    );
}

#[test]
fn a_leaking_destructor_is_reported_by_the_sanitizer() {
    let (_, r) = check("leaky-destructor");
    let c = case(&r, "destructor/frees-the-board");
    assert_eq!(c["verdict"], "fail");
    let m = c["message"].as_str().unwrap();
    assert!(m.contains("LeakSanitizer") && m.contains("leak"), "{m}");
}

/// A course's MAX_DEPTH is followed: the lab written with `#define MAX_DEPTH 3` gets full
/// marks under its course file and fails the counts without it, where the message names
/// MAX_DEPTH = 3 and the course setting.
#[test]
fn a_course_s_max_depth_is_followed() {
    let course = repo().join("tests/submissions/lab-tictactoe/course-max-depth-3/course.toml");
    let (code, r) = check_with(
        "course-max-depth-3",
        &["--course", course.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["score"], r["max_score"]);

    let (code, r) = check("course-max-depth-3");
    assert_eq!(code, Some(1), "{r:#}");
    let c = case(&r, "minimax/calls-and-depth");
    assert_eq!(c["verdict"], "fail");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("your code seems to use MAX_DEPTH = 3")
            && m.contains("params = { MAX_DEPTH = 3 }"),
        "{m}"
    );
    // The moves do not depend on the depth: they are right, and said to be.
    assert_eq!(case(&r, "minimax/moves")["verdict"], "pass");
    assert!(m.contains("the moves themselves are right"), "{m}");
}

/// The depth hint needs evidence: a misreading of the pseudocode never gets it.
#[test]
fn a_misreading_is_not_told_about_max_depth() {
    let (_, r) = check("shared-state");
    let m = messages(&r);
    assert!(!m.contains("MAX_DEPTH ="), "{m}");
    assert!(!m.contains("course file"), "{m}");
}
