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
fn paint_fill_diagonal_spreading_is_explained_only_where_an_8_neighbour_fill_reproduces_it() {
    let (code, r) = check("paint-fill", "diagonal-spread");
    assert_eq!(code, Some(1));
    let c = case(&r, "fill/diagonal wall");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("the picture after FillRegion((0, 0)) [picture: 5 rows] differs")
            && m.contains("yours")
            && m.contains("spreads diagonally"),
        "{m}"
    );
    // The picture is the map's final state, moved out of the world record into the answer.
    assert_eq!(c["expected"]["return"]["picture"][0], "#####...");
    assert!(c["observed"]["world"].get("state").is_none(), "{c}");
    // Forgetting the west also leaves a wrong picture, but not an 8-neighbour fill's.
    let (_, r) = check("paint-fill", "no-west");
    let c = case(&r, "fill/comb");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert!(!messages(&r).contains("diagonally"), "{}", messages(&r));
}

#[test]
fn paint_fill_pixels_asked_outside_the_map_are_recorded_and_explained() {
    let (_, r) = check("paint-fill", "state-before-bounds");
    let c = case(&r, "fill/house sky/world");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert_eq!(
        c["observed"]["world"]["refused"]["first"],
        "GetPixelState((0, -1)): outside the 30 x 15 pixel map"
    );
    let m = c["message"].as_str().unwrap();
    assert!(m.contains("must ask OutsidePixelBounds(pt) first"), "{m}");
    // Inside the house the fill never reaches an edge: the order of the calls is still
    // wrong, but nothing outside was asked, and nothing is said of it.
    let c = case(&r, "fill/house door/world");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(!m.contains("OutsidePixelBounds(pt) first"), "{m}");
    // Another order of the neighbours: the calls differ, nothing is refused.
    let (_, r) = check("paint-fill", "cpp-other-order");
    assert!(!messages(&r).contains("outside the"), "{}", messages(&r));
}

#[test]
fn paint_fill_runaway_recursion_ends_as_a_stack_overflow_even_on_the_large_stack() {
    let (_, r) = check("paint-fill", "runaway-fill");
    let c = case(&r, "fill/300 x 300");
    assert_eq!(c["verdict"], "stack-overflow", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(m.contains("overflowed its 64 MiB stack"), "{m}");
    // The reference needs that stack: a correct fill passes there.
    let (code, r) = check("paint-fill", "roberts-c");
    assert_eq!(code, Some(0), "{}", messages(&r));
}

#[test]
fn knights_tour_checker_names_the_first_illegal_move_and_the_stale_marks() {
    let (_, r) = check("knights-tour", "wrong-move");
    let c = case(&r, "tour/5 x 5 from a corner");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("move 1 to move 2, (0, 0) to (2, 0), is not a knight's move"),
        "{m}"
    );
    let c = case(&r, "tour/4 x 4");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("there is no tour from there: the answer is false"),
        "{m}"
    );
    let (_, r) = check("knights-tour", "no-undo");
    let m = case(&r, "tour/3 x 3")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("rightly returned false") && m.contains("undo every mark"),
        "{m}"
    );
    let m = case(&r, "tour/5 x 5 from a corner")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("returned false, but there is a tour from (0, 0)"),
        "{m}"
    );
}

#[test]
fn knights_tour_any_valid_tour_passes_and_move_order_cases_ask_for_the_reference_s() {
    let (_, r) = check("knights-tour", "cpp-other-order");
    let c = case(&r, "tour/6 x 6 from a corner");
    assert_eq!(c["verdict"], "pass", "{c}");
    assert_ne!(c["observed"]["return"], c["expected"]["return"], "{c}");
    let c = case(&r, "tour/6 x 6 from a corner/in order");
    assert_eq!(c["verdict"], "fail", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("found a valid tour, but not the one the move order of knights.h"),
        "{c}"
    );
    // A closed tour that does not close is named as such.
    let (_, r) = check("knights-tour", "never-closes");
    let m = case(&r, "closed/6 x 6 from (1, 0)")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("the tour does not close: its last square"),
        "{m}"
    );
    assert!(!messages(&r).contains("move order"), "{}", messages(&r));
}
