//! labgrade sample: rust-crate
//! ---------------------------
//! Figure 7-5's strategy written in Rust by a student who was allowed to
//! hand in a cargo crate. The three graded functions are exported with the C
//! ABI under their plain names (`#[no_mangle] pub extern "C"`), so labgrade
//! can call them like a C submission's. Nothing is wrong with the logic, and
//! labgrade counts the calls through rustc's `-Z instrument-mcount` (see
//! expect.toml): every case passes. For n <= 0 the mutual recursion never reaches its simple
//! case, as in the book, and overflows the stack (a release build keeps the
//! recursion: neither call is in tail position and rustc does not assume
//! that a function terminates, so nothing here needed `black_box`).

// The book's names, kept so that labgrade finds the functions.
#![allow(non_snake_case)]

use std::ffi::c_int;

/// Initial number of coins.
pub const N_COINS: c_int = 13;
/// The maximum number of coins a player may take.
pub const MAX_MOVE: c_int = 3;
/// Sentinel indicating no good move is available.
pub const NO_GOOD_MOVE: c_int = -1;

/// Figures out what move is best for the computer: the good move if there is
/// one, otherwise a single coin, to give the human more chances to blunder.
#[no_mangle]
pub extern "C" fn ChooseComputerMove(nCoins: c_int) -> c_int {
    let nTaken = FindGoodMove(nCoins);
    if nTaken == NO_GOOD_MOVE {
        1
    } else {
        nTaken
    }
}

/// Returns a move that leaves the opponent in a bad position, or
/// `NO_GOOD_MOVE` if there is none.
#[no_mangle]
pub extern "C" fn FindGoodMove(nCoins: c_int) -> c_int {
    for nTaken in 1..=MAX_MOVE {
        if IsBadPosition(nCoins - nTaken) {
            return nTaken;
        }
    }
    NO_GOOD_MOVE
}

/// True if the player to move with `nCoins` coins has no good move; a single
/// coin is the simple case.
#[no_mangle]
pub extern "C" fn IsBadPosition(nCoins: c_int) -> bool {
    if nCoins == 1 {
        return true;
    }
    FindGoodMove(nCoins) == NO_GOOD_MOVE
}
