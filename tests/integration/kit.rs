//! Problems declared through the kit (src/problems/kit/): calls with pointers and a world,
//! their explanations, and the spec's `[kit]` table held to the built-in interface.

use crate::util::*;

fn check(problem: &str, name: &str) -> (Option<i32>, serde_json::Value) {
    check_report(problem, &sample_of(problem, name), &["--all"])
}

#[test]
fn miller_rabin_overflow_is_explained_only_where_32_bit_arithmetic_reproduces_it() {
    let (code, r) = check("miller-rabin", "overflow-32-bit");
    assert_eq!(code, Some(1));
    let c = case(&r, "power/large prime");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("*result is 4041629033; the reference leaves 1")
            && m.contains("computed in 32 bits"),
        "{m}"
    );
    // The same failure with a result 32-bit arithmetic does not give is not blamed on it:
    // Fermat alone leaves *whatnis unset, with every result right.
    let (_, r) = check("miller-rabin", "fermat-only");
    let c = case(&r, "power/Carmichael 561 witness 2");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("*whatnis is PROBABLY_PRIME; the reference leaves DEFINITELY_COMPOSITE"),
        "{m}"
    );
    assert!(!messages(&r).contains("32 bits"), "{}", messages(&r));
}

#[test]
fn calls_into_labgrade_s_library_are_recorded_and_compared() {
    let (_, r) = check("miller-rabin", "wrong-witness-range");
    let c = case(&r, "test_prime/561 witness 2");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert_eq!(
        c["observed"]["world"]["trace"][0][1],
        serde_json::json!([1, 560])
    );
    assert_eq!(
        c["expected"]["world"]["trace"][0][1],
        serde_json::json!([2, 559])
    );
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("yours rand_int(1, 560) = 2, the reference rand_int(2, 559) = 2"),
        "{m}"
    );
    // The verdict itself is right, and said to be.
    assert_eq!(
        c["observed"]["return"]["return"],
        c["expected"]["return"]["return"]
    );
    let (code, r) = check("miller-rabin", "weiss-c");
    assert_eq!(code, Some(0), "{}", messages(&r));
}

#[test]
fn a_kit_table_changed_on_disk_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("specs"), &dir.path().join("specs"));
    copy_dir(&repo().join("fixtures"), &dir.path().join("fixtures"));
    let spec = dir.path().join("specs/miller-rabin.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replace("name = \"test_prime\"", "name = \"is_prime\""),
    )
    .unwrap();
    let out = labgrade_in(
        dir.path(),
        &[
            "check",
            "miller-rabin",
            sample_of("miller-rabin", "weiss-c").to_str().unwrap(),
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("miller-rabin.toml:") && err.contains("[kit] differs from the interface"),
        "{err}"
    );
}

#[test]
fn permutations_name_the_missing_swap_and_the_early_base_case_only_on_their_evidence() {
    let (_, r) = check("permutations", "no-swap-back");
    let m = case(&r, "permute/AB")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("without its second Swap"), "{m}");
    assert!(
        !messages(&r).contains("one level early"),
        "{}",
        messages(&r)
    );
    let (_, r) = check("permutations", "base-case-one-early");
    let c = case(&r, "permute/ABC/calls");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("right with 6 fewer calls: your base case is one level early"),
        "{m}"
    );
    // The trace is compared on the counted function alone: the student's Swap and the
    // header's StringLength are helpers, not a difference.
    assert!(
        m.contains("first difference at call #4: the reference entered RecursivePermute(\"ABC\", 3) at depth 4"),
        "{m}"
    );
    // Printing nothing at all is neither mistake.
    let (_, r) = check("permutations", "skips-first-choice");
    let all = messages(&r);
    assert!(
        !all.contains("second Swap") && !all.contains("one level early"),
        "{all}"
    );
    // What a C++ function printed through cout is there when the call returns.
    let (code, r) = check("permutations", "cpp-cout");
    assert_eq!(code, Some(0), "{}", messages(&r));
}

#[test]
fn sujiko_names_the_value_order_and_the_unopened_cell_only_when_they_reproduce_the_board() {
    let (_, r) = check("sujiko", "descending-values");
    let m = case(&r, "solve/four givens")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("largest first") && m.contains("2 9 6   2 7 6"),
        "{m}"
    );
    let (_, r) = check("sujiko", "no-reopen");
    let m = case(&r, "solve/impossible sums")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("do not open the cell again"), "{m}");
    // A wrong sum check is neither.
    let (_, r) = check("sujiko", "wrong-circle");
    let all = messages(&r);
    assert!(
        !all.contains("largest first") && !all.contains("open the cell"),
        "{all}"
    );
    assert!(
        all.contains("SolveSujiko(board, sums) returned false; the reference returns true"),
        "{all}"
    );
}

#[test]
fn instant_insanity_accepts_any_arrangement_and_names_a_cube_that_was_not_turned() {
    // Another order finds other arrangements: all right.
    let (code, r) = check("instant-insanity", "cpp-reverse");
    assert_eq!(code, Some(0), "{}", messages(&r));
    let c = case(&r, "solve/book set");
    assert_ne!(
        c["observed"]["return"]["cubes"], c["expected"]["return"]["cubes"],
        "{c}"
    );
    // A turn that is no turn is named with the cube and its faces.
    let (_, r) = check("instant-insanity", "three-face-turn");
    let m = case(&r, "solve/commercial set, scrambled")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("cube 3 is BWGBGR, which is not a turn of the cube you were given (BGBWRG)"),
        "{m}"
    );
    // Cubes left turned after a right "no solution" is its own failure, not a wrong answer.
    let (_, r) = check("instant-insanity", "no-restore");
    let m = case(&r, "solve/no solution 1")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("right: there is no solution") && m.contains("left the cubes turned"),
        "{m}"
    );
    assert!(!messages(&r).contains("not a turn"), "{}", messages(&r));
}
