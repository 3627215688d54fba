//! `labgrade check`: what a student runs.

use serde_json::Value;

use crate::util::*;

fn check_json(sample_name: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let path = sample(sample_name);
    let mut args = vec!["check", "nim", path.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let out = labgrade(&args);
    let json: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    (out.status.code(), json)
}

fn case<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
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
    assert!(msg.contains("first difference at call #"), "{msg}");
    assert_eq!(case(&r, "FindGoodMove/13/return")["verdict"], "pass");
}

#[test]
fn counts_of_a_rust_crate_are_not_observable_never_zero() {
    let (code, r) = check_json("rust-crate", &[]);
    let c = case(&r, "FindGoodMove/9/calls");
    assert_eq!(c["verdict"], "not-observable");
    assert!(c["observed"].get("calls").is_none(), "{c}");
    assert_eq!(case(&r, "FindGoodMove/9/return")["verdict"], "pass");
    // Not observable is not a failure the student can fix: exit 0.
    assert_eq!(code, Some(0), "{r:#}");
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
    let out = labgrade(&["check", "nim", path.to_str().unwrap()]);
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
fn opting_out_of_instrumentation_is_not_observable_not_zero_calls() {
    let dir = edited_c_version(|s| {
        s.replace(
            "int FindGoodMove(int nCoins) {",
            "__attribute__((no_instrument_function)) int FindGoodMove(int nCoins) {",
        )
    });
    let r = run_json(dir.path());
    let c = case(&r, "FindGoodMove/7/calls");
    assert_eq!(c["verdict"], "not-observable", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("opts out of instrumentation"),
        "{c}"
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
    assert_eq!(
        case(&r, "FindGoodMove/7/calls")["verdict"],
        "not-observable"
    );
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("defines its own __cyg_profile_func_enter"),
        "{notes}"
    );
}
