//! The lab's C ABI (specs/sujiko/sujiko.h):
//!
//! ```c
//! bool SolveSujiko(int board[3][3], const int sums[4]);
//! ```

use std::ffi::c_int;

use crate::kit::{Counted, Exported};

fn solve_addr() -> usize {
    SolveSujiko as *const () as usize
}

static COUNTED: &[Counted] = &[("SolveSujiko", solve_addr)];

/// `SolveSujiko(board, sums)`: fills the board in place.
///
/// # Safety
/// `board` points to 3 x 3 ints and `sums` to 4, as the header says.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn SolveSujiko(board: *mut [c_int; 3], sums: *const c_int) -> bool {
    let board = unsafe { &mut *(board as *mut [[c_int; 3]; 3]) };
    let sums = unsafe { *(sums as *const [c_int; 4]) };
    reference::sujiko::solve(&mut Exported(COUNTED), board, &sums)
}
