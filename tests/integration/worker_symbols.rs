//! The sandboxed child is a fork of `labgrade-worker`, and student code shares its address
//! space: no reference solver may be linked into it. A student stub once jumped into the
//! reference's nim code at a fixed offset inside the old single binary and scored 129/139.
//!
//! These tests read the built binaries' symbol tables. The checks that the grader and the
//! reference cdylib DO contain what the worker must not prove that the scan can see such
//! symbols at all (so an empty answer for the worker means something).

use std::path::{Path, PathBuf};

use object::{Object, ObjectSymbol};

use super::util;

/// Paths of reference code that solves a problem (computes what the student must compute).
const SOLVER_PATHS: &[&str] = &[
    "labgrade_reference::nim::strategy",
    "labgrade_reference::nim::find_good_move",
    // The console game: it plays the computer's moves with the strategy.
    "labgrade_reference::nim::game",
    "labgrade_reference::maze::solve",
    "labgrade_reference::maze::shortest_path_length",
    "labgrade_reference::maze::find_path",
    "labgrade_reference::maze::shortest_body",
    // Exercise 1's answer: the reference mazelib's record of a map.
    "labgrade::problems::maze::exercise1::ReferenceLib",
    "labgrade::problems::maze::exercise1::reference_record",
    "labgrade_reference::turnpike::reconstruct",
    "labgrade_reference::turnpike::place_body",
    "labgrade_reference::turnpike::turnpike_body",
    "labgrade_reference::lab_tictactoe::minimax",
    // The lab's program, whose AI plays with the minimax.
    "labgrade_reference::lab_tictactoe::console",
    "labgrade::problems::lab_tictactoe::decisions",
    "labgrade_reference::miller_rabin::power",
    "labgrade_reference::miller_rabin::test_prime",
    "labgrade_reference::permutations::recursive_permute",
    "labgrade_reference::sujiko::solve",
    "labgrade_reference::instant_insanity::solve",
    "labgrade_reference::cryptarithm::exhaustive_solve",
    "labgrade_reference::cryptarithm::smarter_solve",
    "labgrade_reference::weiss_tictactoe::find_comp_move",
    "labgrade_reference::roberts_minimax::find_best_move",
    "labgrade_reference::roberts_game::Rules::value",
    "labgrade_reference::roberts_game::Rules::find_best_move",
    "labgrade_reference::roberts_game::drive",
    // The game side's rules: the world that steers the driver, served by labgrade's world
    // host (its legal moves would be a GenerateMoveList's answer).
    "labgrade_reference::roberts_game::Rules::moves",
    "labgrade_reference::roberts_game::Rules::apply",
    "labgrade_reference::roberts_game::Rules::fit",
    "labgrade_reference::roberts_game::Rules::over",
    "labgrade_reference::roberts_game::Rules::outcome",
    "labgrade::problems::kit::game::Canonical",
    "labgrade::problems::kit::game::GameTable::of",
    "labgrade_reference::cs61b_minimax::find_best_move_as",
    "labgrade_reference::cs61b_minimax::guess_best_move_as",
    "labgrade::problems::cs61b_minimax::run_reference",
    "labgrade_reference::queens::solve",
    "labgrade_reference::queens::solve_queens",
    "labgrade_reference::paint_fill::fill_region",
    "labgrade_reference::knights_tour::find_tour",
];

/// What only the worker must not link: the game side's explorer, which steers a student's
/// driver through the canonical game. In `labgrade` it reads the rules; in a student
/// bundle's checker (which serves as the bundle's world host) the table of the visible
/// game in the bundle, which the student holds anyway; in the sandboxed child, beside the
/// student's code, it would be an answer key.
const WORKER_ONLY: &[&str] = &["labgrade::problems::kit::game_side::Explorer"];

/// The C names the reference cdylib exports: a solver a student could `dlsym` or jump to.
const EXPORTS: &[&str] = &[
    "FindGoodMove",
    "IsBadPosition",
    "ChooseComputerMove",
    "labgrade_main",
    "SolveMaze",
    "ShortestPathLength",
    "FindPath",
    "turnpike",
    "place",
    "labgrade_probe",
    "labgrade_counters",
    "labgrade_reference_unmarks",
    "power",
    "test_prime",
    "RecursivePermute",
    "SolveSujiko",
    "SolveInsanity",
    "ExhaustiveSolve",
    "SmarterSolve",
    "find_comp_move",
    "find_human_move",
    "FindBestMove",
    "EvaluatePosition",
    "Solve",
    "IsSafe",
    "PlaceQueen",
    "RemoveQueen",
    "SolveQueens",
    "FillRegion",
    "FindTour",
    "FindClosedTour",
    "lg_moves",
    "lg_make_retract",
    "lg_best_move",
    "lg_own_search",
];

/// `a::b::c` as it appears inside a mangled Rust symbol (legacy and v0 manglings both spell
/// each identifier with its length in front): `1a1b1c`.
fn mangled(path: &str) -> String {
    path.split("::")
        .map(|id| format!("{}{id}", id.len()))
        .collect()
}

fn worker_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_labgrade-worker"))
}

/// Every symbol name (static and dynamic tables) of the ELF file at `path`.
fn symbols(path: &Path) -> Vec<String> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = object::File::parse(&*data).expect("an ELF file");
    let mut names: Vec<String> = file
        .symbols()
        .chain(file.dynamic_symbols())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect();
    assert!(
        names.len() > 100,
        "{} has {} symbols: stripped? the scan would prove nothing",
        path.display(),
        names.len()
    );
    names.sort();
    names.dedup();
    names
}

/// The symbols that belong to `solver` (a path of [`SOLVER_PATHS`]): mangled, plain, or
/// as a trait impl's legacy mangling spells its type (`<a..b..C as Trait>`).
fn of_solver<'a>(names: &'a [String], solver: &str) -> Vec<&'a String> {
    let m = mangled(solver);
    let in_impl = solver.replace("::", "..");
    names
        .iter()
        .filter(|n| n.contains(&m) || n.contains(solver) || n.contains(&in_impl))
        .collect()
}

/// Symbols named exactly as one of the cdylib's exports (C names are not mangled).
fn exported(names: &[String]) -> Vec<&String> {
    names
        .iter()
        .filter(|n| EXPORTS.contains(&n.as_str()))
        .collect()
}

#[test]
fn the_worker_links_no_reference_solver() {
    let names = symbols(&worker_bin());
    for solver in SOLVER_PATHS.iter().chain(WORKER_ONLY) {
        let found = of_solver(&names, solver);
        assert!(
            found.is_empty(),
            "labgrade-worker contains {solver}: {found:?}"
        );
    }
    let found = exported(&names);
    assert!(found.is_empty(), "labgrade-worker exports {found:?}");
    // The expectations' code path: a `Problem` vtable would bring `expected` and every solver.
    let expected: Vec<_> = names
        .iter()
        .filter(|n| n.contains("8problems7Problem") && n.contains("8expected"))
        .collect();
    assert!(expected.is_empty(), "labgrade-worker links {expected:?}");
}

/// The positive control: the grader does link every solver (it computes expectations), so a
/// worker laid out as before (a fork of the grader) would fail the test above. Only in an
/// unoptimised build: an optimised one inlines some solvers whole into their callers.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "an optimised build inlines solvers away: the control needs `cargo test` unoptimised"
)]
fn the_scan_sees_solvers_where_they_are() {
    let names = symbols(&util::labgrade_bin());
    for group in [
        "labgrade_reference::nim::strategy",
        "labgrade_reference::maze::solve",
        "labgrade_reference::turnpike::reconstruct",
        "labgrade_reference::lab_tictactoe::minimax",
        "labgrade::problems::kit::game_side::Explorer",
    ] {
        assert!(
            !of_solver(&names, group).is_empty(),
            "the scan finds no {group} in labgrade: it cannot be trusted to find it in the worker"
        );
    }
    // ... but no exported solver: those live only in the reference cdylib.
    let found = exported(&names);
    assert!(found.is_empty(), "labgrade exports {found:?}");
    let lib = symbols(&util::reference_lib());
    for name in ["FindGoodMove", "SolveMaze", "turnpike", "labgrade_probe"] {
        assert!(
            lib.iter().any(|n| n == name),
            "the reference cdylib does not export {name}: the scan cannot see exports"
        );
    }
}

fn checker_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_labgrade-check"))
}

/// The student bundle's checker (`labgrade-check`, shipped as the bundle's `bin/labgrade`
/// for the problems `labgrade::student::judges` lists) links no solver either: it reads the
/// visible cases' expectations precomputed, so nothing in the bundle can compute a hidden
/// one. The positive control: it does link the judges' own code (an explanation, a checker).
#[test]
fn the_student_checker_links_no_reference_solver() {
    let names = symbols(&checker_bin());
    for solver in SOLVER_PATHS {
        let found = of_solver(&names, solver);
        assert!(
            found.is_empty(),
            "labgrade-check contains {solver}: {found:?}"
        );
    }
    let found = exported(&names);
    assert!(found.is_empty(), "labgrade-check exports {found:?}");
    for judge in [
        "labgrade::problems::kit::queens_explain::explain",
        "labgrade::problems::kit::knights_tour::check",
    ] {
        assert!(
            !of_solver(&names, judge).is_empty(),
            "the scan finds no {judge} in labgrade-check: is it the checker?"
        );
    }
    // nim's explanations are there too (a trait method: never inlined away).
    assert!(
        names
            .iter()
            .any(|n| n.contains("problems..nim..Nim") && n.contains("7explain")),
        "the scan finds no nim explanations in labgrade-check"
    );
}
