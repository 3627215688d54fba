//! The queens handout's C ABI (specs/queens/chessGraphics.h), for NUM_QUEENS = 8 as the
//! handout defines it (a student's library is built for its own #define too):
//!
//! ```c
//! bool Solve(bool board[][NUM_QUEENS], int col);
//! bool IsSafe(bool board[][NUM_QUEENS], int row, int col);
//! void PlaceQueen(bool board[][NUM_QUEENS], int row, int col);
//! void RemoveQueen(bool board[][NUM_QUEENS], int row, int col);
//! ```
//!
//! and exercise 8's (specs/n-queens/queens.h): `bool SolveQueens(int n, int rows[]);`.
//! PlaceQueen and RemoveQueen draw through labgrade's chessGraphics.h (operations 2 and 3 of
//! `lg_world`). No other problem of this library exports these names.

#![allow(non_snake_case)]

use std::ffi::c_int;

use reference::queens::{self as queens, Board, Graphics};

use crate::kit::{world_call, Counted, Exported};

/// The handout's `#define NUM_QUEENS 8`.
const NUM_QUEENS: usize = 8;

fn solve_addr() -> usize {
    Solve as *const () as usize
}

fn is_safe_addr() -> usize {
    IsSafe as *const () as usize
}

fn place_addr() -> usize {
    PlaceQueen as *const () as usize
}

fn remove_addr() -> usize {
    RemoveQueen as *const () as usize
}

static COUNTED: &[Counted] = &[
    ("Solve", solve_addr),
    ("IsSafe", is_safe_addr),
    ("PlaceQueen", place_addr),
    ("RemoveQueen", remove_addr),
];

/// chessGraphics.h, through labgrade's table.
struct ChessGraphics;

impl Graphics for ChessGraphics {
    fn draw(&mut self, letter: char, row: usize, col: usize) {
        world_call(2, [letter as i64, row as i64, col as i64, 0]);
    }

    fn erase(&mut self, letter: char, row: usize, col: usize) {
        world_call(3, [letter as i64, row as i64, col as i64, 0]);
    }
}

/// The C board's squares, row by row.
///
/// # Safety
/// `board` points to NUM_QUEENS * NUM_QUEENS bools.
unsafe fn read(board: *const bool) -> Board {
    let cells = unsafe { std::slice::from_raw_parts(board, NUM_QUEENS * NUM_QUEENS) };
    cells.chunks(NUM_QUEENS).map(<[bool]>::to_vec).collect()
}

/// Writes `b` back to the C board.
///
/// # Safety
/// As [`read`], and writable.
unsafe fn write(board: *mut bool, b: &Board) {
    let cells = unsafe { std::slice::from_raw_parts_mut(board, NUM_QUEENS * NUM_QUEENS) };
    for (cell, &q) in cells.iter_mut().zip(b.iter().flatten()) {
        *cell = q;
    }
}

fn square(row: c_int, col: c_int) -> Option<(usize, usize)> {
    let (r, c) = (usize::try_from(row).ok()?, usize::try_from(col).ok()?);
    (r < NUM_QUEENS && c < NUM_QUEENS).then_some((r, c))
}

/// `Solve`: the first solution from column `col` on, trying rows top to bottom.
///
/// # Safety
/// `board` points to a writable NUM_QUEENS x NUM_QUEENS board.
#[no_mangle]
pub unsafe extern "C" fn Solve(board: *mut bool, col: c_int) -> bool {
    let mut b = unsafe { read(board) };
    let col = usize::try_from(col).unwrap_or(0);
    let solved = queens::solve(&mut Exported(COUNTED), &mut ChessGraphics, &mut b, col);
    unsafe { write(board, &b) };
    solved
}

/// `IsSafe`: no queen to the left in the row or on either diagonal.
///
/// # Safety
/// As [`Solve`].
#[no_mangle]
pub unsafe extern "C" fn IsSafe(board: *mut bool, row: c_int, col: c_int) -> bool {
    let b = unsafe { read(board) };
    square(row, col).is_some_and(|(r, c)| queens::is_safe(&mut Exported(COUNTED), &b, r, c))
}

/// `PlaceQueen`: sets the square and draws its Q.
///
/// # Safety
/// As [`Solve`].
#[no_mangle]
pub unsafe extern "C" fn PlaceQueen(board: *mut bool, row: c_int, col: c_int) {
    if let Some((r, c)) = square(row, col) {
        unsafe { *board.add(r * NUM_QUEENS + c) = true };
        ChessGraphics.draw('Q', r, c);
    }
}

/// `RemoveQueen`: clears the square and erases its Q.
///
/// # Safety
/// As [`Solve`].
#[no_mangle]
pub unsafe extern "C" fn RemoveQueen(board: *mut bool, row: c_int, col: c_int) {
    if let Some((r, c)) = square(row, col) {
        unsafe { *board.add(r * NUM_QUEENS + c) = false };
        ChessGraphics.erase('Q', r, c);
    }
}

/// `SolveQueens`: exercise 8, the handout's search on an n x n board.
///
/// # Safety
/// `rows` points to n writable ints.
#[no_mangle]
pub unsafe extern "C" fn SolveQueens(n: c_int, rows: *mut c_int) -> bool {
    let Ok(n) = usize::try_from(n) else {
        return false;
    };
    let Some(found) = queens::solve_queens(&mut reference::kit::Silent, n) else {
        return false;
    };
    let out = unsafe { std::slice::from_raw_parts_mut(rows, n) };
    for (o, r) in out.iter_mut().zip(found) {
        *o = r as c_int;
    }
    true
}
