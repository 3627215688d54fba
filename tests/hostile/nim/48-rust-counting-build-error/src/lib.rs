//! Figure 7-5 in Rust, memoised: each position's answer is kept in a table the first time
//! it is worked out, which Roberts' exercise asks students not to do (the point is to see
//! the unmemoised recursion recompute positions).

#![allow(non_snake_case)]

use std::ffi::c_int;
use std::sync::Mutex;

const MAX_MOVE: c_int = 3;
const NO_GOOD_MOVE: c_int = -1;

/// Known answers of FindGoodMove, by number of coins.
static KNOWN: Mutex<Vec<Option<c_int>>> = Mutex::new(Vec::new());

#[no_mangle]
pub extern "C" fn ChooseComputerMove(nCoins: c_int) -> c_int {
    match FindGoodMove(nCoins) {
        NO_GOOD_MOVE => 1,
        n => n,
    }
}

#[no_mangle]
pub extern "C" fn FindGoodMove(nCoins: c_int) -> c_int {
    let slot = nCoins.max(0) as usize;
    if let Some(Some(known)) = KNOWN.lock().unwrap().get(slot).copied() {
        return known;
    }
    let mut answer = NO_GOOD_MOVE;
    for nTaken in 1..=MAX_MOVE {
        if IsBadPosition(nCoins - nTaken) {
            answer = nTaken;
            break;
        }
    }
    let mut known = KNOWN.lock().unwrap();
    if known.len() <= slot {
        known.resize(slot + 1, None);
    }
    known[slot] = Some(answer);
    answer
}

#[no_mangle]
pub extern "C" fn IsBadPosition(nCoins: c_int) -> bool {
    if nCoins == 1 {
        return true;
    }
    FindGoodMove(nCoins) == NO_GOOD_MOVE
}
