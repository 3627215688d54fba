//! The handout's cryptarithm solvers under their C names (specs/cryptarithm/cryptarithm.h):
//!
//! ```c
//! bool ExhaustiveSolve(puzzleT puzzle, string lettersToAssign);
//! bool SmarterSolve(puzzleT puzzle, int whichRow, int rowSumSoFar);
//! ```
//!
//! `puzzleT` is `struct { char *rows[3]; }`, by value. The letter table is labgrade's world
//! (`lg_world`, operations 0 to 4). `SolveForAddend` and `SolveForSum` are exported so that
//! labgrade finds them to count (the recursion itself runs in the rlib).

use std::ffi::{c_char, c_int, CStr};

use reference::cryptarithm::{self as solver, Columns, LetterTable};

use crate::kit::{world_call, Counted, Exported};

/// `puzzleT`.
#[repr(C)]
pub struct Puzzle {
    rows: [*const c_char; 3],
}

/// `SolveForAddend`, for the hooks: the rlib's recursion reports it under this address.
/// The two markers' bodies differ on purpose: an optimised build folds identical functions
/// into one address, and the hooks then counted both under whichever name came first.
#[no_mangle]
#[allow(non_snake_case)]
pub extern "C" fn SolveForAddend() {
    std::hint::black_box(1u8);
}

/// `SolveForSum`, for the hooks (a body of its own: see [`SolveForAddend`]).
#[no_mangle]
#[allow(non_snake_case)]
pub extern "C" fn SolveForSum() {
    std::hint::black_box(2u8);
}

static COUNTED: &[Counted] = &[
    ("ExhaustiveSolve", || ExhaustiveSolve as *const () as usize),
    ("SmarterSolve", || SmarterSolve as *const () as usize),
    ("SolveForAddend", || SolveForAddend as *const () as usize),
    ("SolveForSum", || SolveForSum as *const () as usize),
];

/// labgrade's letter table.
struct Table;

impl LetterTable for Table {
    fn assign(&mut self, letter: u8, digit: i64) -> bool {
        world_call(0, [i64::from(letter), digit, 0, 0]) != 0
    }
    fn unassign(&mut self, letter: u8, digit: i64) {
        world_call(1, [i64::from(letter), digit, 0, 0]);
    }
    fn used(&mut self, letter: u8) -> bool {
        world_call(2, [i64::from(letter), 0, 0, 0]) != 0
    }
    fn digit(&mut self, letter: u8) -> i64 {
        world_call(3, [i64::from(letter), 0, 0, 0])
    }
    fn solved(&mut self) -> bool {
        world_call(4, [0; 4]) != 0
    }
}

/// # Safety
/// A NUL-terminated string.
unsafe fn bytes(p: *const c_char) -> Vec<u8> {
    unsafe { CStr::from_ptr(p) }.to_bytes().to_vec()
}

/// `ExhaustiveSolve(puzzle, lettersToAssign)`.
///
/// # Safety
/// `lettersToAssign` is a NUL-terminated string.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn ExhaustiveSolve(_puzzle: Puzzle, lettersToAssign: *const c_char) -> bool {
    let letters = unsafe { bytes(lettersToAssign) };
    solver::exhaustive_solve(&mut Exported(COUNTED), &mut Table, &letters)
}

/// `SmarterSolve(puzzle, whichRow, rowSumSoFar)`, the rows already reversed.
///
/// # Safety
/// The puzzle's rows are NUL-terminated strings.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn SmarterSolve(puzzle: Puzzle, whichRow: c_int, rowSumSoFar: c_int) -> bool {
    let r = puzzle.rows.map(|p| unsafe { bytes(p) });
    let columns = Columns::new([&r[0], &r[1], &r[2]]);
    let row = usize::try_from(whichRow).unwrap_or(solver::SUM);
    solver::smarter_solve(
        &mut Exported(COUNTED),
        &mut Table,
        columns,
        row,
        i64::from(rowSumSoFar),
    )
}
