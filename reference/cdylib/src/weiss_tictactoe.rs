//! Weiss' tic-tac-toe under its C names (specs/weiss-tictactoe/tictactoe.h):
//!
//! ```c
//! void find_comp_move(board_type board, int *best_move, int *value, int alpha, int beta);
//! void find_human_move(board_type board, int *best_move, int *value, int alpha, int beta);
//! ```
//!
//! Figures 10.66 and 10.67, the book's default (alpha and beta are not used). The board is
//! labgrade's world (`lg_world`, operations 0 to 5).

use std::ffi::{c_int, c_void};

use reference::weiss_tictactoe::{self as search, Board, Piece};

use crate::kit::{world_call, Counted, Exported};

static COUNTED: &[Counted] = &[
    ("find_comp_move", || find_comp_move as *const () as usize),
    ("find_human_move", || find_human_move as *const () as usize),
];

/// labgrade's board.
struct World;

impl Board for World {
    fn place(&mut self, square: usize, side: Piece) {
        let side = match side {
            Piece::Comp => 1,
            Piece::Human => 2,
            Piece::Empty => 0,
        };
        world_call(0, [square as i64, side, 0, 0]);
    }
    fn unplace(&mut self, square: usize) {
        world_call(1, [square as i64, 0, 0, 0]);
    }
    fn is_empty(&mut self, square: usize) -> bool {
        world_call(3, [square as i64, 0, 0, 0]) != 0
    }
    fn full_board(&mut self) -> bool {
        world_call(2, [0; 4]) != 0
    }
    fn immediate_win(&mut self, side: Piece) -> Option<usize> {
        let op = if side == Piece::Comp { 4 } else { 5 };
        usize::try_from(world_call(op, [0; 4]))
            .ok()
            .filter(|&s| s != 0)
    }
}

/// `find_comp_move`: the computer's best move and its value.
///
/// # Safety
/// `best_move` and `value` point to writable ints.
#[no_mangle]
pub unsafe extern "C" fn find_comp_move(
    _board: *mut c_void,
    best_move: *mut c_int,
    value: *mut c_int,
    _alpha: c_int,
    _beta: c_int,
) {
    let (best, v) = search::find_comp_move(&mut Exported(COUNTED), &mut World, None);
    unsafe {
        if best != 0 {
            *best_move = best as c_int;
        }
        *value = v as c_int;
    }
}

/// `find_human_move`: the human's best move and its value.
///
/// # Safety
/// `best_move` and `value` point to writable ints.
#[no_mangle]
pub unsafe extern "C" fn find_human_move(
    _board: *mut c_void,
    best_move: *mut c_int,
    value: *mut c_int,
    _alpha: c_int,
    _beta: c_int,
) {
    let (best, v) = search::find_human_move(&mut Exported(COUNTED), &mut World, None);
    unsafe {
        if best != 0 {
            *best_move = best as c_int;
        }
        *value = v as c_int;
    }
}
