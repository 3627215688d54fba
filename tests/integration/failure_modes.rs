//! Every way a run can end gets its own verdict. Each test hands in a C nim whose
//! `FindGoodMove(7)` misbehaves in one way (every other input is the book's answer) and checks
//! the verdict of `FindGoodMove/7/return` and that the neighbouring case still passes.

use serde_json::Value;

use crate::util::*;

const BOOK: &str = r#"
#include "nim.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int misbehave(void);
static int depth;
static int runaway(int n) {
    volatile char pad[128];
    pad[0] = (char)n;
    int r = runaway(n + 1);
    return r + pad[0];
}
/* Misbehaves only when called directly with 7, so only FindGoodMove/7/* cases are hit. */
int FindGoodMove(int nCoins) {
    if (nCoins == 7 && depth == 0) return misbehave();
    depth++;
    int result = -1;
    for (int nTaken = 1; nTaken <= 3; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) { result = nTaken; break; }
    }
    depth--;
    return result;
}
bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == -1;
}
int ChooseComputerMove(int nCoins) {
    int n = FindGoodMove(nCoins);
    return n == -1 ? 1 : n;
}
"#;

fn verdict_of(misbehave: &str) -> (Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let src = format!("{BOOK}\nstatic int misbehave(void) {{\n{misbehave}\n}}\n");
    std::fs::write(dir.path().join("nim.c"), src).unwrap();
    let out = labgrade(&[
        "check",
        "nim",
        dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    let r: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    let find = |name: &str| {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap()
    };
    let seven = find("FindGoodMove/7/return");
    assert_eq!(
        find("FindGoodMove/6/return")["verdict"],
        "pass",
        "a neighbour was affected"
    );
    (seven.clone(), seven["message"].clone())
}

#[test]
fn segfault_is_a_crash_with_its_signal() {
    let (c, m) = verdict_of("volatile int *p = 0; return *p;");
    assert_eq!(c["verdict"], "crash");
    assert!(m.as_str().unwrap().contains("SIGSEGV"), "{m}");
}

#[test]
fn abort_is_a_crash_with_sigabrt() {
    let (c, m) = verdict_of("abort();");
    assert_eq!(c["verdict"], "crash");
    assert!(m.as_str().unwrap().contains("SIGABRT"), "{m}");
}

#[test]
fn busy_loop_is_a_timeout() {
    let (c, _) = verdict_of("volatile unsigned long i = 0; for (;;) i++; return 0;");
    assert_eq!(c["verdict"], "timeout");
}

#[test]
fn sleeping_is_a_wall_timeout() {
    if !full_suite("failure_modes::sleeping_is_a_wall_timeout") {
        return;
    }
    let (c, m) = verdict_of("sleep(30); return 1;");
    assert_eq!(c["verdict"], "timeout");
    assert!(m.as_str().unwrap().contains("wall time"), "{m}");
}

#[test]
fn runaway_recursion_is_a_stack_overflow() {
    let (c, _) = verdict_of("return runaway(0);");
    assert_eq!(c["verdict"], "stack-overflow");
}

#[test]
fn exit_in_the_middle_of_a_call_is_reported() {
    let (c, m) = verdict_of("exit(0);");
    assert_eq!(c["verdict"], "crash");
    assert!(
        m.as_str().unwrap().contains("ended the whole process"),
        "{m}"
    );
}

#[test]
fn wrong_answer_is_a_fail_with_both_values() {
    let (c, m) = verdict_of("return 3;");
    assert_eq!(c["verdict"], "fail");
    assert_eq!(c["expected"]["return"], 2);
    assert_eq!(c["observed"]["return"], 3);
    assert!(
        m.as_str().unwrap().contains("FindGoodMove(7) returned 3"),
        "{m}"
    );
}

#[test]
fn exhausting_memory_is_a_memory_limit() {
    let (c, m) =
        verdict_of("for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } return 0;");
    assert_eq!(c["verdict"], "memory-limit", "{m}");
}

#[test]
fn a_submission_out_of_its_timeout_budget_has_its_later_cases_skipped_in_case_order() {
    // nim with a budget of 2 timeouts: never-terminates times out on ChooseComputerMove(5)
    // and (9) first, in case order; every case after the second that needs a run of its own
    // is `skipped`, and every case before it keeps its own verdict, on any number of workers.
    // The timeouts are the derived CPU limit, a quarter of a second.
    let root = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("specs"), &root.path().join("specs"));
    copy_dir(&repo().join("fixtures"), &root.path().join("fixtures"));
    let spec = root.path().join("specs/nim.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replace("[limits]\n", "[limits]\nmax_timeouts = 2\n"),
    )
    .unwrap();
    let sub = sample("never-terminates");
    let out = labgrade_in(
        root.path(),
        &[
            "check",
            "nim",
            sub.to_str().unwrap(),
            "--format",
            "json",
            "--jobs",
            "2",
        ],
    );
    let r: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    let cases = r["cases"].as_array().unwrap();
    let at = |name: &str| cases.iter().position(|c| c["name"] == name).unwrap();
    let second = at("ChooseComputerMove/9/return");
    assert_eq!(
        cases[at("ChooseComputerMove/5/return")]["verdict"],
        "timeout"
    );
    assert_eq!(cases[second]["verdict"], "timeout");
    let m = cases[second]["message"].as_str().unwrap();
    assert!(m.contains("more than 250 ms of CPU time"), "{m}");
    assert_eq!(cases[at("ChooseComputerMove/8/return")]["verdict"], "pass");
    // A case after it whose input ran before it (ChooseComputerMove/2/calls shares the run of
    // ChooseComputerMove/2/return: one run per input) keeps that run's verdict.
    let input_of = |c: &Value| {
        let name = c["name"].as_str().unwrap();
        name[..name.rfind('/').unwrap()].to_string()
    };
    let ran: Vec<String> = cases[..=second].iter().map(input_of).collect();
    for c in &cases[second + 1..] {
        if ran.contains(&input_of(c)) {
            assert_ne!(c["verdict"], "skipped", "{c}");
            continue;
        }
        assert_eq!(c["verdict"], "skipped", "{c}");
        assert!(
            c["message"].as_str().unwrap().contains("2 earlier cases"),
            "{c}"
        );
        assert_eq!(c["score"], 0.0);
    }
    // Skipped cases still count in the points available.
    let max: f64 = cases.iter().map(|c| c["max_score"].as_f64().unwrap()).sum();
    assert_eq!(r["max_score"].as_f64().unwrap(), max);
}
