//! Exercise 9's C ABI (specs/instant-insanity/insanity.h):
//!
//! ```c
//! bool SolveInsanity(char cubes[4][6]);
//! ```

use std::ffi::c_char;

use crate::kit::{Counted, Exported};

fn solve_addr() -> usize {
    SolveInsanity as *const () as usize
}

static COUNTED: &[Counted] = &[("SolveInsanity", solve_addr)];

/// `SolveInsanity(cubes)`: turns the cubes into a solution, or leaves them as they were.
///
/// # Safety
/// `cubes` points to 4 x 6 chars, as the header says.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn SolveInsanity(cubes: *mut [c_char; 6]) -> bool {
    let cubes = unsafe { &mut *(cubes as *mut [[u8; 6]; 4]) };
    reference::instant_insanity::solve(&mut Exported(COUNTED), cubes)
}
