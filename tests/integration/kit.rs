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
    // rand_int plays no move: no line of play is claimed.
    assert!(!messages(&r).contains("searches part"), "{}", messages(&r));
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
        m.contains("first difference seen at call #4 (by function and depth; arguments are not compared): the reference entered RecursivePermute(\"ABC\", 3) at depth 4"),
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
    if !full_suite(
        "kit::instant_insanity_accepts_any_arrangement_and_names_a_cube_that_was_not_turned",
    ) {
        return;
    }
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
    assert!(m.contains("a turn keeps opposite faces opposite"), "{m}");
    assert!(!m.contains("mirror"), "{m}");
    // A mirror image keeps every pair of opposite faces: it is named for what it is.
    let (_, r) = check("instant-insanity", "mirror-spin");
    let m = case(&r, "solve/generated 1")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("cube 2 is GBRGBR") && m.contains("mirror image"),
        "{m}"
    );
    assert!(!m.contains("keeps opposite faces opposite"), "{m}");
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

/// A queens or n-queens sample's report, checked once for every test that reads it.
fn report_of(problem: &str, name: &str) -> serde_json::Value {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static REPORTS: OnceLock<Mutex<BTreeMap<String, serde_json::Value>>> = OnceLock::new();
    let key = format!("{problem}/{name}");
    let cached = REPORTS
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .get(&key)
        .cloned();
    cached.unwrap_or_else(|| {
        let (_, r) = check(problem, name);
        REPORTS
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .insert(key, r.clone());
        r
    })
}

fn failed_message(r: &serde_json::Value, name: &str) -> String {
    let c = case(r, name);
    assert_eq!(c["verdict"], "fail", "{c}");
    c["message"].as_str().unwrap().to_string()
}

#[test]
fn queens_rows_tried_bottom_up_are_named_only_where_they_give_the_board() {
    let r = report_of("queens", "rows-bottom-up");
    let m = failed_message(&r, "Solve/empty board");
    assert!(
        m.contains("  yours             the reference's")
            && m.contains("  . . Q . . . . .   Q . . . . . . .")
            && m.contains("tried from the bottom"),
        "{m}"
    );
    // The same symmetric search: its counts pass.
    assert_eq!(case(&r, "Solve/empty board/calls")["verdict"], "pass");
    // Its drawing is compared call by call, with rows and columns.
    let m = failed_message(&r, "Solve/empty board/drawing");
    assert!(
        m.contains(
            "yours DrawLetterAtPosition('Q', 7, 0), the reference DrawLetterAtPosition('Q', 0, 0)"
        ),
        "{m}"
    );
    // Another board from the top-down order is not blamed on the order.
    let r = report_of("queens", "one-diagonal");
    failed_message(&r, "Solve/empty board");
    assert!(
        !messages(&r).contains("from the bottom"),
        "{}",
        messages(&r)
    );
}

#[test]
fn queens_a_missing_remove_queen_is_named_only_where_it_gives_the_board() {
    let r = report_of("queens", "no-remove");
    let m = failed_message(&r, "Solve/empty board");
    assert!(
        m.contains("returned false; the reference returns true")
            && m.contains("a failed try's queen stays on the board"),
        "{m}"
    );
    // The kept queens share columns: named as attacking only when Solve claims a solution.
    assert!(!m.contains("attack each other"), "{m}");
    let m = failed_message(&r, "Solve/dead end");
    assert!(m.contains("a failed try's queen stays"), "{m}");
    // FALSE with the board emptied again is not a missing RemoveQueen.
    let r = report_of("queens", "base-case-off-by-one");
    failed_message(&r, "Solve/empty board");
    assert!(!messages(&r).contains("queen stays"), "{}", messages(&r));
}

#[test]
fn queens_one_diagonal_is_named_with_two_attacking_queens() {
    let r = report_of("queens", "one-diagonal");
    let m = failed_message(&r, "Solve/empty board");
    assert!(
        m.contains("only the diagonal of UpperDiagIsClear")
            && m.contains(
                "the queens at row 0, column 0 and row 1, column 1 attack each other along a \
                 diagonal"
            ),
        "{m}"
    );
    // The trace compares counted calls, not the student's helpers (LeftIsClear, ...).
    let m = failed_message(&r, "Solve/empty board/calls");
    assert!(
        m.contains(
            "the reference entered IsSafe(2, 1) at depth 3; yours entered PlaceQueen at depth 3"
        ) && !m.contains("helper"),
        "{m}"
    );
    // Valid boards found in another order hold no attacking queens, and are not said to.
    let r = report_of("queens", "rows-bottom-up");
    assert!(!messages(&r).contains("diagonal"), "{}", messages(&r));
}

#[test]
fn queens_a_base_case_past_the_end_is_named_only_where_it_is_reproduced() {
    let r = report_of("queens", "base-case-off-by-one");
    for name in [
        "Solve/empty board",
        "Solve/complete board",
        "Solve/empty board/calls",
    ] {
        let m = failed_message(&r, name);
        assert!(m.contains("`col > NUM_QUEENS`"), "{name}: {m}");
    }
    // Its dead end never reaches column 8: nothing to explain.
    assert_eq!(case(&r, "Solve/dead end")["verdict"], "pass");
    // Nor where the return, the board and Solve's count agree but IsSafe's does not: a Solve
    // that ignores what its recursive call returns is another search.
    for name in ["no-remove", "ignores-result"] {
        let r = report_of("queens", name);
        assert!(
            !messages(&r).contains("col > NUM_QUEENS"),
            "{name}: {}",
            messages(&r)
        );
    }
    let r = report_of("queens", "handout-c");
    assert!(
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["verdict"] == "pass"),
        "{}",
        messages(&r)
    );
}

#[test]
fn n_queens_accepts_any_valid_placement_and_names_attacking_queens() {
    let r = report_of("n-queens", "bottom-up-cpp");
    for c in r["cases"].as_array().unwrap() {
        let exact = c["name"].as_str().unwrap().ends_with("/handout order");
        assert_eq!(c["verdict"], if exact { "fail" } else { "pass" }, "{c}");
    }
    let m = case(&r, "SolveQueens/8")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("a valid placement, not the first one"), "{m}");
    let m = failed_message(&r, "SolveQueens/8/handout order");
    assert!(
        m.contains("rows is [7,3,0,2,5,1,6,4]; the reference leaves [0,4,7,5,2,6,1,3]"),
        "{m}"
    );

    let r = report_of("n-queens", "one-diagonal");
    let m = failed_message(&r, "SolveQueens/8");
    assert!(
        m.contains(
            "the queens at row 0, column 0 and row 1, column 1 attack each other along a \
             diagonal (rows[0] = 0, rows[1] = 1)"
        ),
        "{m}"
    );
    let m = failed_message(&r, "SolveQueens/3");
    assert!(m.contains("returned true; no placement of 3 queens"), "{m}");
    assert_eq!(case(&r, "SolveQueens/1")["verdict"], "pass");
    let r = report_of("n-queens", "handout-order-c");
    assert!(!messages(&r).contains("attack"), "{}", messages(&r));
}

#[test]
fn queens_a_course_s_num_queens_sizes_the_empty_board_and_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let handout =
        std::fs::read_to_string(sample_of("queens", "handout-c").join("queens.c")).unwrap();
    let sub = dir.path().join("six");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("queens.c"),
        handout.replace("#define NUM_QUEENS 8", "#define NUM_QUEENS 6"),
    )
    .unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(
        &course,
        "[queens]\nparams = { NUM_QUEENS = 6 }\n\n[[queens.cases]]\nmatch = \"Solve/empty board*\"\n\
         points = 1\n\n[[queens.cases]]\nmatch = \"*\"\nrequired = false\n",
    )
    .unwrap();
    let (code, r) = check_report(
        "queens",
        &sub,
        &["--all", "--course", course.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{}", messages(&r));
    let c = case(&r, "Solve/empty board");
    // 6 queens: rows by column 1 3 5 0 2 4, the first the handout's order finds.
    assert_eq!(
        c["expected"]["return"]["board"][1],
        serde_json::json!([true, false, false, false, false, false])
    );
    // The handout's 8 x 8 code graded against a 6 x 6 course fails, as it should.
    let (code, _) = check_report(
        "queens",
        &sample_of("queens", "handout-c"),
        &["--all", "--course", course.to_str().unwrap()],
    );
    assert_eq!(code, Some(1));
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
    if !full_suite(
        "kit::knights_tour_any_valid_tour_passes_and_move_order_cases_ask_for_the_reference_s",
    ) {
        return;
    }
    let (_, r) = check("knights-tour", "cpp-other-order");
    // Any valid tour is what the header accepts: another move order loses no point...
    assert_eq!(r["score"], r["max_score"], "{}", messages(&r));
    // ...unless a course fixes the order and gives those cases points.
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(
        &course,
        "[[knights-tour.cases]]\nmatch = \"*/in order\"\npoints = 1\n",
    )
    .unwrap();
    let (_, fixed) = check_report(
        "knights-tour",
        &sample_of("knights-tour", "cpp-other-order"),
        &["--all", "--course", course.to_str().unwrap()],
    );
    let (score, max) = (fixed["score"].as_f64(), fixed["max_score"].as_f64());
    assert_eq!(score.zip(max).map(|(s, m)| m - s), Some(4.0), "{fixed}");
    let (_, book) = check_report(
        "knights-tour",
        &sample_of("knights-tour", "roberts-c"),
        &["--all", "--course", course.to_str().unwrap()],
    );
    assert_eq!(book["score"], book["max_score"], "{}", messages(&book));
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

#[test]
fn cryptarithm_solvers_are_called_with_the_puzzle_by_value_and_their_work_counted() {
    // The handout's code, static, C: the puzzle struct by value reaches it.
    let (code, r) = check("cryptarithm", "handout-c");
    assert_eq!(code, Some(0), "{}", messages(&r));
    // The handout's point, in the counts: the smarter search does a tiny fraction of the work.
    let ex = case(&r, "ExhaustiveSolve/SEND+MORE=MONEY/calls");
    let sm = case(&r, "SmarterSolve/SEND+MORE=MONEY/calls");
    let ex_calls = ex["observed"]["calls"]["ExhaustiveSolve"].as_u64().unwrap();
    let sm_calls = sm["observed"]["calls"]["SmarterSolve"].as_u64().unwrap();
    assert!(ex_calls > 1000 * sm_calls, "{ex_calls} vs {sm_calls}");
    // The assignment left in labgrade's letter table is the answer, named letter by letter.
    let (_, r) = check("cryptarithm", "carry-lost");
    let m = case(&r, "SmarterSolve/AA+BB=CCC")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("returned true; the reference returns false")
            && m.contains("yours A = 1, B = 9, C = 0; the reference's nothing"),
        "{m}"
    );
}

#[test]
fn weiss_tictactoe_counts_the_published_positions_and_names_pruning_only_on_its_counts() {
    let total = |c: &serde_json::Value| -> u64 {
        ["find_comp_move", "find_human_move"]
            .iter()
            .map(|f| c["observed"]["calls"][*f].as_u64().unwrap())
            .sum()
    };
    // Figures 10.66 and 10.67 as printed examine the text's numbers of positions.
    let (code, r) = check("weiss-tictactoe", "weiss-c");
    assert_eq!(code, Some(0), "{}", messages(&r));
    for (case_name, n) in [
        ("opening/positions", 97_162),
        ("after centre/positions", 5_185),
        ("after corner/positions", 9_761),
        ("after edge/positions", 13_233),
    ] {
        assert_eq!(total(case(&r, case_name)), n, "{case_name}");
    }
    // Alpha-beta graded as the full search: its 4,493 positions, and the course parameter.
    let (_, r) = check("weiss-tictactoe", "alpha-beta");
    let c = case(&r, "opening/positions");
    assert_eq!(total(c), 4_493);
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("exactly as Figure 10.73's alpha-beta pruning does")
            && m.contains("ALPHA_BETA = 1"),
        "{m}"
    );
    // Under the course that teaches it: too little pruning, and too much, each named.
    let course = |name: &str| sample_of("weiss-tictactoe", name).join("course.toml");
    let (_, r) = check_report(
        "weiss-tictactoe",
        &sample_of("weiss-tictactoe", "alpha-beta-prunes-less"),
        &[
            "--all",
            "--course",
            course("alpha-beta-prunes-less").to_str().unwrap(),
        ],
    );
    let m = case(&r, "opening/positions")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("examined every position (97162)") && m.contains("does not prune"),
        "{m}"
    );
    let (_, r) = check_report(
        "weiss-tictactoe",
        &sample_of("weiss-tictactoe", "alpha-beta-wrong-bound"),
        &[
            "--all",
            "--course",
            course("alpha-beta-wrong-bound").to_str().unwrap(),
        ],
    );
    let m = case(&r, "opening/move")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("cuts too much"), "{m}");
    // Wrong values from a search that does not prune are not blamed on pruning.
    let (_, r) = check("weiss-tictactoe", "human-maximises");
    let all = messages(&r);
    assert!(!all.contains("prun"), "{all}");
}

/// `labgrade play` with moves on stdin.
pub fn play(args: &[&str], moves: &str) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(labgrade_bin())
        .args(["--cache-dir", cache_dir().to_str().unwrap(), "play"])
        .args(args)
        .current_dir(repo())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn play_draws_the_board_and_lets_a_submission_move_through_the_sandbox() {
    // The reference opens at square 1 after the centre, as Figure 10.66 chooses.
    let (code, out) = play(&["weiss-tictactoe"], "5\n1\n9\n3\n8\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("The computer takes square 1.") && out.contains(" 4 | X | 6"),
        "{out}"
    );
    assert!(
        out.contains("That square is not free.") && out.contains("The computer wins."),
        "{out}"
    );
    // The book's code, handed in, plays the same game, one sandboxed run per move.
    let sample = sample_of("weiss-tictactoe", "weiss-c");
    let (code, theirs) = play(
        &["weiss-tictactoe", sample.to_str().unwrap()],
        "5\n1\n9\n3\n8\n",
    );
    assert_eq!(code, Some(0), "{theirs}");
    assert_eq!(theirs, out);
    // Nim: Figure 7-4's dialogue with the student's ChooseComputerMove; end of input stops it.
    let nim = sample_of("nim", "c-version");
    let (code, out) = play(&["nim", nim.to_str().unwrap()], "2\n3\n1\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("I'll take 3.") && out.contains("I win."),
        "{out}"
    );
    let (code, _) = play(&["weiss-tictactoe"], "5\n");
    assert_eq!(code, Some(1));
}

#[test]
fn roberts_minimax_grades_the_general_part_against_labgrade_s_game() {
    if !full_suite("kit::roberts_minimax_grades_the_general_part_against_labgrade_s_game") {
        return;
    }
    let (code, r) = check("roberts-minimax", "figure-7-6-cpp");
    assert_eq!(code, Some(0), "{}", messages(&r));
    // The book's C edition too, static functions and a move array.
    let (code, r) = check("roberts-minimax", "c-edition");
    assert_eq!(code, Some(0), "{}", messages(&r));
    // A search that parts from the book's is shown where: the first call into the game that
    // differs.
    let (_, r) = check("roberts-minimax", "rating-wrong-side");
    let m = case(&r, "FindBestMove/corners/game")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("call 16 into the game: yours RetractMove(3), the reference MakeMove(6)")
            && m.contains("the searches part after the line MakeMove(2), MakeMove(3)")
            && m.contains("the position there (O to move):\n X O X"),
        "{m}"
    );
    // MAX_DEPTH ignored: the full tree's count where the course's two plies were expected.
    let (_, r) = check_report(
        "roberts-minimax",
        &sample_of("roberts-minimax", "depth-not-passed"),
        &[
            "--all",
            "--course",
            sample_of("roberts-minimax", "depth-not-passed")
                .join("course.toml")
                .to_str()
                .unwrap(),
        ],
    );
    let c = case(&r, "FindBestMove/opening/positions");
    assert_eq!(c["verdict"], "fail", "{c}");
    let (got, want) = (
        c["observed"]["calls"]["EvaluatePosition"].as_u64().unwrap(),
        c["expected"]["calls"]["EvaluatePosition"].as_u64().unwrap(),
    );
    assert!(got > 10 * want, "{got} vs {want}");
}

#[test]
fn a_kit_case_with_the_wrong_arguments_is_refused_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("specs"), &dir.path().join("specs"));
    copy_dir(&repo().join("fixtures"), &dir.path().join("fixtures"));
    std::fs::write(
        dir.path().join("fixtures/miller-rabin/90-bad.toml"),
        "[[case]]\nname = \"bad\"\ncall = \"power\"\nargs = [3, 2]\ncompare = [\"return\"]\n",
    )
    .unwrap();
    let sample = sample_of("miller-rabin", "weiss-c");
    let out = labgrade_in(
        dir.path(),
        &["check", "miller-rabin", sample.to_str().unwrap()],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("90-bad.toml:1: case `bad`")
            && err.contains("takes 4 argument(s) in a case (a, p, n, whatnis), the case gives 2"),
        "{err}"
    );
}
